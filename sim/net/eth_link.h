// Point-to-point full-duplex Ethernet link between two RnicNodes (either may be null: then the
// far end is only observed through on_deliver). Direction 0 carries side 0's TX to side 1's RX,
// direction 1 the reverse.
//
// Timing: a frame leaves its TX port when its tlast beat is taken (store and forward). It starts
// on the wire when the wire is free; it occupies max(len,60)+4 FCS+8 preamble+12 IFG byte times
// at line rate, and is handed to the far RX port when its last FCS bit has arrived:
//   arrive = start + (8 + max(len,60) + 4) * 8 / gbps + prop_delay.
// TX backpressure: tready drops while more than tx_fifo_bytes wait for the wire.
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
  double gbps = 100.0;
  uint64_t prop_delay_ps = 500'000;   // 500 ns (about 100 m of fibre)
  unsigned tx_fifo_bytes = 16384;
  uint64_t seed = 1;
  EthFaults faults[2];                // per direction
  std::string pcap_path;              // empty: no capture
  enum PcapSide { Sender, Receiver } pcap_side = Sender;
};

struct EthDirStats {
  uint64_t tx_frames = 0, tx_bytes = 0, wire_frames = 0, delivered = 0, delivered_bytes = 0;
  uint64_t lost = 0, reordered = 0, duplicated = 0, corrupted = 0;
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

  const EthDirStats &stats(int dir) const { return dir_[dir].st; }
  const EthLinkCfg &cfg() const { return cfg_; }
  void flush_pcap();  // writes every pending record (sender side) and flushes the file
  uint64_t ser_ps(size_t bytes) const;     // line time of `bytes` bytes
  uint64_t slot_ps(size_t frame_len) const;  // wire occupancy of one frame, preamble + IFG included
  // Called on every delivery (dir, frame as delivered, arrival time in ps), before the RX port.
  std::function<void(int, const std::vector<uint8_t> &, uint64_t)> on_deliver;

 private:
  struct Port : EthTxSink {
    EthLink *link = nullptr;
    int side = 0;
    bool tx_ready() override { return link->tx_ready(side); }
    void tx_frame(std::vector<uint8_t> &&f) override { link->send(side, std::move(f)); }
  };
  struct Copy {
    uint64_t at_ps;
    std::vector<uint8_t> f;
  };
  struct Dir {
    std::mt19937_64 rng;
    uint64_t wire_free_ps = 0, seq = 0;
    std::map<std::pair<uint64_t, uint64_t>, std::vector<uint8_t>> pending;  // (time, seq) -> frame
    bool held = false;
    uint64_t held_deadline_ps = 0;
    std::vector<Copy> held_copies;
    sc_event kick;
    EthDirStats st;
    RnicNode *dst = nullptr;
  };

  static uint64_t now_ps();
  void schedule(Dir &d, uint64_t at_ps, std::vector<uint8_t> f);
  void deliver_thread(int dir);
  void deliver0() { deliver_thread(0); }
  void deliver1() { deliver_thread(1); }
  void pcap_record(uint64_t t_ps, const std::vector<uint8_t> &f);

  EthLinkCfg cfg_;
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
