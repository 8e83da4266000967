// Point-to-point full-duplex Ethernet link between two RnicNodes (either may be null: then the
// far end is only observed through on_deliver). Direction 0 carries side 0's TX to side 1's RX,
// direction 1 the reverse.
//
// Timing: a frame leaves its TX port when its tlast beat is taken (store and forward). It starts
// on the wire when the wire is free; it occupies max(len,60)+4 FCS+8 preamble+12 IFG byte times
// at line rate, and is handed to the far RX port when its last FCS bit has arrived:
//   arrive = start + (8 + max(len,60) + 4) * 8 / gbps + prop_delay.
// TX backpressure: tready drops while more than tx_fifo_bytes wait for the wire (the MAC's TX
// FIFO: frames queue there, in order, and start when the wire is free and the side not paused).
// Flow control (802.3x PAUSE, cfg.flow_control): when a side's receiver raises its pause request
// (RnicNode: rx_pause_req_o) the link sends a PAUSE frame (60 bytes + FCS: 01:80:C2:00:00:01,
// the side's own source MAC as last seen in its frames, EtherType 0x8808, opcode 0x0001, quanta
// pause_quanta; XON is quanta 0) from that side, ahead of its queued frames but after the frame
// on the wire, taking its wire slot. It arrives like any frame (serialization + prop_delay) and
// pauses the far transmitter for quanta x 512 bit times: that transmitter finishes its current
// frame and starts no other until then or an XON (RnicNode's tx_pause_i is high meanwhile).
// While the request stays up, XOFF is repeated after half the quanta. PAUSE frames are MAC
// control: never lost, reordered, duplicated or corrupted, draw no random numbers, are not
// handed to the RX port or on_deliver (on_pause sees them), and are in the pcap.
// Priority flow control (802.1Qbb, cfg.pfc_classes != 0): a receiver's pause request is sent as a
// PFC frame instead (opcode 0x0101, class-enable vector, eight quanta; XOFF for pfc_classes,
// quanta 0 for the classes it releases), refreshed the same way; force_pfc(side, mask) makes a
// side's MAC pause those priorities of the far transmitter whatever its receiver wants (the far
// MAC pausing one priority, for tests). A PFC frame that arrives sets the far side's per-priority
// status (RnicNode's tx_pause_i bits) for its quanta; the TX FIFO itself does not stop for PFC
// (as a MAC leaves PFC scheduling to its user logic): the NIC holds frames of paused priorities.
// Faults per direction, drawn from that direction's own seeded generator (five draws per frame,
// whatever the outcome): loss (the frame still occupies the wire), reorder (held until the next
// delivered frame is delivered, or until reorder_timeout), duplication (a second wire slot,
// delivered right after), corruption (one random bit of the delivered copy flipped).
// pcap (nanosecond magic, LINKTYPE_ETHERNET, no FCS): Sender side (default) records every
// transmission when its first byte (after preamble/SFD) leaves the sender, content as sent
// (lost frames and both copies of a duplicate included, corruption not visible); Receiver side
// records what arrives, at the time it is handed to the RX port. Records are in time order.
#pragma once
#include <systemc.h>

#include <cstdint>
#include <cstdio>
#include <deque>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "nic/rnic_node.h"

struct EthFaults {
  double loss = 0, reorder = 0, dup = 0, corrupt = 0;  // probabilities per frame
  uint64_t reorder_timeout_ps = 10'000'000;            // a held frame goes after 10 us alone
};

struct EthLinkCfg {
  double gbps = RNIC_SIM_LINK_GBPS;  // host/sim_width.h: 100, or 25 in the 25g model
  uint64_t prop_delay_ps = 500'000;   // 500 ns (about 100 m of fibre)
  unsigned tx_fifo_bytes = 16384;
  uint64_t seed = 1;
  EthFaults faults[2];                // per direction
  bool flow_control = true;           // false: pause requests are ignored (frames overrun)
  unsigned pause_quanta = 0xFFFF;     // XOFF quanta (512 bit times each; 335 us at 100 Gb/s)
  uint8_t pfc_classes = 0;            // 0: 802.3x PAUSE; else PFC frames for these priorities
  std::string pcap_path;              // empty: no capture
  enum PcapSide { Sender, Receiver } pcap_side = Sender;
};

struct EthDirStats {
  uint64_t tx_frames = 0, tx_bytes = 0, wire_frames = 0, delivered = 0, delivered_bytes = 0;
  uint64_t lost = 0, reordered = 0, duplicated = 0, corrupted = 0;
  uint64_t xoff_frames = 0, xon_frames = 0;  // PAUSE frames sent in this direction
  uint64_t pfc_frames = 0;                   // PFC frames sent in this direction
  uint64_t paused_ps = 0;  // time this direction's transmitter was paused (see EthLink::paused_ps)
};

class EthLink : public sc_module {
 public:
  SC_HAS_PROCESS(EthLink);
  EthLink(sc_module_name name, RnicNode *a, RnicNode *b, const EthLinkCfg &cfg = EthLinkCfg());
  ~EthLink() override;

  // A frame (no FCS) finished by side `side`'s TX now: what the node's TX port does, callable
  // from any process for model-level traffic.
  void send(int side, std::vector<uint8_t> frame);
  bool tx_ready(int side) const;
  // Side `side`'s receiver asks for XOFF (true) or XON (false): what the node's port does.
  void rx_pause(int side, bool xoff);
  // side's transmitter: bit p priority p held by the far end's PFC, all eight by its PAUSE
  uint8_t tx_paused(int side) const;
  void tx_state(int side, bool *ready, uint8_t *paused) const;  // both at one time read
  void force_pfc(int side, uint8_t mask);  // side's MAC pauses these priorities of the far side
  uint64_t paused_ps(int dir) const;       // stats(dir).paused_ps including a pause still running
  std::string pause_info() const;          // one line: PAUSE frames and paused time per direction

  const EthDirStats &stats(int dir) const { return dir_[dir].st; }
  const EthLinkCfg &cfg() const { return cfg_; }
  void flush_pcap();  // writes every pending record (sender side) and flushes the file
  uint64_t ser_ps(size_t bytes) const;     // line time of `bytes` bytes
  uint64_t slot_ps(size_t frame_len) const;  // wire occupancy of one frame, preamble + IFG included
  // Called on every delivery (dir, frame as delivered, arrival time in ps), before the RX port.
  std::function<void(int, const std::vector<uint8_t> &, uint64_t)> on_deliver;
  // Called for every frame side `side` sends (before the random draws decide): true loses it
  // like a random loss (targeted losses, e.g. one given packet of a message; the draws are
  // still made, so the random faults stay the same).
  std::function<bool(int, const std::vector<uint8_t> &)> lose_if;
  // Called when a PAUSE frame that travelled in direction dir arrives (dir, quanta, time in ps).
  std::function<void(int, unsigned, uint64_t)> on_pause;
  // Called when a PFC frame that travelled in direction dir arrives (dir, the priorities it
  // pauses now, time in ps).
  std::function<void(int, uint8_t, uint64_t)> on_pfc;

 private:
  struct Port : EthTxSink {
    EthLink *link = nullptr;
    int side = 0;
    bool tx_ready() override { return link->tx_ready(side); }
    void tx_frame(std::vector<uint8_t> &&f) override { link->send(side, std::move(f)); }
    void rx_pause(bool xoff) override { link->rx_pause(side, xoff); }
    uint8_t tx_paused() override { return link->tx_paused(side); }
    void tx_state(bool *ready, uint8_t *paused) override { link->tx_state(side, ready, paused); }
  };
  // A frame in the TX FIFO with its fault draws (made when it was queued, five per frame).
  struct TxItem {
    std::vector<uint8_t> f;
    bool lost, dup, corrupt, reorder;
    uint64_t cpos;
  };
  struct Pending {
    std::vector<uint8_t> f;
    bool ctrl;  // a PAUSE frame: consumed by the far MAC
  };
  struct Copy {
    uint64_t at_ps;
    std::vector<uint8_t> f;
  };
  struct Dir {
    std::mt19937_64 rng;
    uint64_t wire_free_ps = 0, seq = 0;
    std::map<std::pair<uint64_t, uint64_t>, Pending> pending;  // (time, seq) -> frame
    bool held = false;
    uint64_t held_deadline_ps = 0;
    std::vector<Copy> held_copies;
    sc_event kick;
    EthDirStats st;
    RnicNode *dst = nullptr;
    std::deque<TxItem> txq;             // this side's TX FIFO
    uint64_t txq_ps = 0;                // wire time of what waits in it
    sc_event wire_kick;
    uint8_t src_mac[6] = {};
    bool xoff_req = false;              // this side's receiver wants the far side paused
    int pause_out = -1;                 // quanta of the PAUSE frame to send next (-1: none)
    uint64_t xoff_refresh_ps = 0;
    uint64_t pause_since_ps = 0, paused_until_ps = 0;  // this side's transmitter paused in [since, until)
    uint8_t pfc_forced = 0, pfc_sent = 0;  // priorities force_pfc holds; the XOFF state last sent
    bool pfc_out = false;                  // a PFC frame is to be sent
    uint64_t pfc_refresh_ps = 0;
    uint64_t pfc_until_ps[8] = {};         // this side's transmitter: priority p paused until
    uint64_t pfc_last_ps = 0;              // the latest of pfc_until_ps: none paused from then on
  };
  static bool dir_ready(const Dir &d, uint64_t now, uint64_t fifo_ps);  // tx_ready at `now`
  static uint8_t dir_paused(const Dir &d, uint64_t now);                // tx_paused at `now`

  static uint64_t now_ps();
  void schedule(Dir &d, uint64_t at_ps, std::vector<uint8_t> f, bool ctrl = false);
  void deliver_thread(int dir);
  void deliver0() { deliver_thread(0); }
  void deliver1() { deliver_thread(1); }
  void wire_thread(int dir);
  void wire0() { wire_thread(0); }
  void wire1() { wire_thread(1); }
  void start_frame(Dir &d, TxItem &&it, uint64_t now);
  void start_pause(Dir &d, unsigned quanta, uint64_t now);
  void pause_arrived(int dir, unsigned quanta, uint64_t now);
  uint8_t pfc_want(const Dir &d) const { return uint8_t((d.xoff_req ? cfg_.pfc_classes : 0) | d.pfc_forced); }
  void start_pfc(Dir &d, uint64_t now);
  void pfc_arrived(int dir, const std::vector<uint8_t> &f, uint64_t now);
  void pcap_record(uint64_t t_ps, const std::vector<uint8_t> &f);

  EthLinkCfg cfg_;
  uint64_t fifo_ps_ = 0;  // ser_ps(cfg_.tx_fifo_bytes): tx_ready asks every cycle
  Port port_[2];
  Dir dir_[2];
  std::FILE *pcap_ = nullptr;
  // Sender-side records wait here until simulated time reaches them, so the file stays in
  // timestamp order across both directions.
  std::map<std::pair<uint64_t, uint64_t>, std::vector<uint8_t>> pcap_pending_;
  uint64_t pcap_seq_ = 0;
  void pcap_queue(uint64_t t_ps, const std::vector<uint8_t> &f);
  void pcap_drain(uint64_t up_to_ps);
};
