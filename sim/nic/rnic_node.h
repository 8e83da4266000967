// One simulated NIC: the verilated rnic_core (a --cc model, ticked directly by this module)
// plus the transactors on its standard ports. Host threads call bar_read/bar_write (BAR0) and
// db_write (the doorbell BAR) from their own SC_THREADs; those calls take simulated time like a
// PCIe MMIO access would. A doorbell-BAR write is posted: db_write returns once the core's port
// took its last W beat (no wait for B), as a CPU store to a write-combined BAR retires once
// the PCIe bridge took it; writes reach the port in the order they were issued. Like BAR0
// accesses, the PCIe flight time of host-to-device writes is not modelled (zero).
// Attachments (all optional; unattached ports keep the old tie-offs):
//   attach_pcie(PcieModel*)  the AXI4 DMA master port is served by a PCIe timing model; MSI-X
//                            messages travel through it as posted writes (ordered behind DMA writes);
//   attach_eth(EthTxSink*)   the AXI-Stream TX port feeds a link (EthLink does this itself);
//                            without one TX is always ready and frames go to tx_frames_out();
//                            the link also gets the core's rx_pause_req_o changes and drives
//                            its tx_pause_i (PAUSE and PFC, see net/eth_link.h).
// MSI-X: every acknowledged request raises msix_event(vector) when it reaches the host.
#pragma once
#include <systemc.h>

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "host/sim_width.h"

class Vrnic_core;
class VerilatedContext;
class PcieModel;
class Waves;
struct AxiPorts;
struct NodeMonitors;
struct AxiFigures;
struct HandshakeStamps;

// Protocol violations seen by every node's port monitors so far (sim/monitors), for the
// program's exit status: sim_main fails a run that had any.
uint64_t rnic_protocol_violations();

struct BarAccess {
  bool write;
  uint32_t addr;
  uint32_t data;
  uint8_t strb;
  int resp = -1;  // AXI response code once done
  sc_event done;
};

// What the TX stream port talks to (a link side).
struct EthTxSink {
  virtual ~EthTxSink() = default;
  virtual bool tx_ready() = 0;
  virtual void tx_frame(std::vector<uint8_t> &&frame) = 0;
  virtual void rx_pause(bool xoff) { (void)xoff; }  // the core's rx_pause_req_o changed
  // drives the core's tx_pause_i: bit p the priority p is paused (all eight: a link-level PAUSE)
  virtual uint8_t tx_paused() { return 0; }
  // Both of the above for this cycle (what drive_inputs asks every cycle): a link answers them
  // from one read of the time (docs/sim-speed.md, step 21).
  virtual void tx_state(bool *ready, uint8_t *paused) {
    *ready = tx_ready();
    *paused = tx_paused();
  }
};

class RnicNode : public sc_module {
 public:
  static constexpr unsigned kMsixVectors = 32;
  static constexpr unsigned kDataBytes = RNIC_SIM_DATA_BYTES;  // the model's DataWidth / 8 (host/sim_width.h)

  SC_HAS_PROCESS(RnicNode);
  RnicNode(sc_module_name name, sc_time period = sc_time(4, SC_NS));
  ~RnicNode() override;

  // BAR0 accesses from a host SC_THREAD. resp gets the AXI response (0 OKAY, 2 SLVERR).
  uint32_t bar_read(uint32_t addr, int *resp = nullptr);
  void bar_write(uint32_t addr, uint32_t data, uint8_t strb = 0xF, int *resp = nullptr);
  // Doorbell BAR (spec db_bar): `bytes` bytes at byte offset addr as one AXI4 INCR burst of
  // full-width beats with strobes on exactly those bytes (a 64-byte block at a 64-byte aligned
  // offset is one beat); at most 4 KiB, not crossing a page. Posted (see above).
  void db_write(uint32_t addr, const void *data, unsigned bytes);
  void db_write32(uint32_t addr, uint32_t v);
  uint64_t db_error_responses() const { return db_err_; }  // B responses other than OKAY

  // Hands one Ethernet frame to the RX port (queued; sent beat by beat honouring tready).
  // With an RX FIFO limit set, a frame that does not fit is dropped (as a MAC would) and counted.
  void rx_frame(const std::vector<uint8_t> &frame);
  size_t rx_queued() const { return rx_queue_.size(); }
  void set_rx_fifo_bytes(size_t limit) { rx_limit_ = limit; }  // 0: unbounded (default)
  uint64_t rx_dropped() const { return rx_dropped_; }
  bool rx_pause_req() const { return pause_req_; }
  uint64_t rx_pause_cycles() const { return pause_cycles_; }  // cycles with rx_pause_req_o high

  void attach_pcie(PcieModel *p);
  void attach_eth(EthTxSink *s) { eth_ = s; }
  std::deque<std::vector<uint8_t>> &tx_frames_out() { return tx_out_; }  // TX frames without a link

  // MSI-X delivered to the host: an event per vector and a running count.
  sc_event &msix_event(unsigned v) { return msix_ev_[v % kMsixVectors]; }
  uint64_t msix_count(unsigned v) const { return msix_cnt_[v % kMsixVectors]; }
  // Waits (from a host SC_THREAD) until vector v's count exceeds *seen; updates *seen.
  void wait_msix(unsigned v, uint64_t *seen);
  // As wait_msix, giving up after `timeout`; returns false on timeout.
  bool wait_msix(unsigned v, uint64_t *seen, const sc_time &timeout);

  uint64_t cycles() const { return cycle_; }
  // With RNIC_TRACE_HASH set in the environment, a hash of every port handshake with its cycle
  // (payloads only where valid), printed when the node is destroyed: two builds that print the
  // same hash for a run behave identically at the ports, cycle for cycle.
  uint64_t trace_hash() const { return trace_hash_; }
  const sc_time &period() const { return period_; }
  // The port protocol checkers (sim/monitors): on for every node unless RNIC_NO_MONITORS is set
  // in the environment. Violations are printed as FAIL lines when the node is destroyed.
  uint64_t protocol_violations() const;
  const AxiFigures *dma_figures() const;  // the DMA master's measured bursts and outstanding counts
  // Times of the doorbell, MAC and DMA-write handshakes while stamps().on (sim/monitors).
  HandshakeStamps &stamps() { return *stamps_; }

 private:
  void clock_thread();
  void drive_inputs();
  void sample_handshakes();
  void deliver_msix(unsigned v);
  void trace_cycle();
  void monitor_cycle();
  void monitor_bar0();
  void monitor_db();

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vrnic_core> core_;
  std::unique_ptr<Waves> waves_;  // FST of this node when asked for (main/sim_waves.h)
  sc_time period_;
  uint64_t cycle_ = 0;
  bool trace_ = false;
  bool in_dirty_ = true;  // an input changed since the model's last evaluation (drive_inputs)
  // RNIC_PC_PROFILE=PREFIX: cycles per soft-core PC (the instruction in the execute stage, so a
  // stalled MMIO access counts at its own PC), written to PREFIX.<node> at the end
  std::vector<uint64_t> pc_prof_;
  std::string pc_prof_path_;
  uint64_t trace_hash_ = 1469598103934665603ull;  // FNV-1a offset basis
  std::unique_ptr<NodeMonitors> mon_;
  std::unique_ptr<HandshakeStamps> stamps_;

  struct DbBurst {
    uint32_t addr;
    std::vector<uint8_t> data, strb;  // beats x kDataBytes
    unsigned beats;
  };
  std::deque<DbBurst> db_queue_;
  bool db_aw_done_ = false, db_cur_ = false;
  unsigned db_wbeat_ = 0;
  uint64_t db_issued_ = 0, db_taken_ = 0, db_err_ = 0;
  unsigned db_b_pending_ = 0;
  sc_event db_taken_ev_;
  std::unique_ptr<AxiPorts> dbp_;  // the doorbell port as the monitor sees it

  std::deque<BarAccess *> bar_queue_;
  BarAccess *bar_cur_ = nullptr;
  bool aw_done_ = false, w_done_ = false, ar_done_ = false;

  std::deque<std::vector<uint8_t>> rx_queue_;
  size_t rx_off_ = 0, rx_bytes_ = 0, rx_limit_ = 0;
  uint64_t rx_dropped_ = 0;
  bool pause_req_ = false;
  uint64_t pause_cycles_ = 0;

  PcieModel *pcie_ = nullptr;
  std::unique_ptr<AxiPorts> axi_;
  EthTxSink *eth_ = nullptr;
  std::vector<uint8_t> tx_cur_;
  std::deque<std::vector<uint8_t>> tx_out_;
  std::array<sc_event, kMsixVectors> msix_ev_;
  std::array<uint64_t, kMsixVectors> msix_cnt_{};
};
