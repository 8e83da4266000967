// Protocol checkers for rnic_core's ports, fed once per cycle with the signals as they are just
// before the rising clock edge (what both sides see when the handshake happens). Independent of
// Verilator: RnicNode fills plain structs, and tb/monitors drives them with deliberately bad
// stimulus. A violation is recorded with the cycle and a message; the first few are printed as
// FAIL lines by whoever owns the monitor (RnicNode at the end of the simulation).
//
//   AxiMonitor   AXI4 (the DMA master; also the doorbell BAR slave port s_axi_db, which the
//                simulator drives the same way: full-width INCR write bursts, no reads): VALID
//                held until READY with the payload stable (AW, W,
//                AR from the master; R, B from the slave), INCR bursts of full-width size, at most
//                256 beats, no 4 KiB crossing, WLAST on exactly the last beat of its AW burst (W
//                may lead AW), RLAST on the last beat of the oldest outstanding read of that ID,
//                R/B only for outstanding IDs, outstanding reads / writes within their limits,
//                read IDs distinct while outstanding (the DMA's documented behaviour).
//   AxilMonitor  AXI4-Lite (BAR0): VALID held with the payload stable on all five channels,
//                B only after an AW and a W, R only after an AR.
//   AxisMonitor  AXI-Stream (TX from the core, RX into it): TVALID held until TREADY with
//                TDATA/TKEEP/TLAST stable, TKEEP all ones except on a TLAST beat, where it is
//                a non-empty run of ones from lane 0.
//   ReqAckMonitor the MSI-X request: REQ held until ACK with the vector stable.
#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "host/axi_ports.h"
#include "host/sim_width.h"

struct PortViolation {
  uint64_t cycle;
  std::string port, msg;
};

class MonitorBase {
 public:
  explicit MonitorBase(std::string port) : port_(std::move(port)) {}
  const std::vector<PortViolation> &violations() const { return v_; }
  uint64_t violation_count() const { return count_; }
  const std::string &port() const { return port_; }

 protected:
  void violate(uint64_t cycle, const std::string &msg);
  // A channel whose VALID was high without READY must keep VALID and the same payload (hash h)
  // in the next cycle.
  struct Held {
    bool on = false;
    uint64_t h = 0;
  };
  // Inline: it runs for ~15 channels of each node on every cycle, and only a stall that went on
  // needs the out-of-line check.
  void hold(uint64_t cyc, const char *ch, Held &s, bool valid, bool ready, uint64_t h) {
    if (s.on) held_check(cyc, ch, s, valid, h);
    s.on = valid && !ready;
    s.h = h;
  }
  void held_check(uint64_t cyc, const char *ch, const Held &s, bool valid, uint64_t h);
  // Whether hold() will look at this cycle's payload hash: to compare it (a stall went on) or to
  // keep it (a stall begins). A beat taken in its first cycle needs none, so a wide payload is
  // hashed only then (most beats of a stream are not hashed at all).
  static bool needs_hash(const Held &s, bool valid, bool ready) { return valid && (s.on || !ready); }
  std::string port_;

 private:
  std::vector<PortViolation> v_;  // the first kKeep
  uint64_t count_ = 0;
  static constexpr size_t kKeep = 16;
};

// Hash of a payload: stability is checked by comparing hashes of consecutive stalled cycles.
uint64_t monitor_hash(const uint8_t *p, size_t n, uint64_t seed = 1469598103934665603ull);

struct AxiLimits {
  unsigned data_bytes = RNIC_SIM_DATA_BYTES;  // host/sim_width.h
  // Outstanding bursts: reads as rnic_core's DMA bounds them (MaxRdOutstanding, one ID each);
  // writes 0 = not bounded by the master (it bounds write *requests*, 32, not their bursts: the
  // slave's AW backpressure does that), only measured.
  unsigned max_rd_outstanding = 16, max_wr_outstanding = 0;
  bool distinct_read_ids = true;
};

struct AxiFigures {  // measured, for docs/dma.md and the benchmarks
  uint64_t ar = 0, aw = 0, r_beats = 0, w_beats = 0, r_err = 0, b_err = 0;
  unsigned max_rd_outstanding = 0, max_wr_outstanding = 0, max_ar_beats = 0, max_aw_beats = 0;
  std::map<unsigned, uint64_t> ar_beats_hist, aw_beats_hist;  // burst length (beats) -> count
};

class AxiMonitor : public MonitorBase {
 public:
  AxiMonitor(std::string port, const AxiLimits &lim = AxiLimits()) : MonitorBase(std::move(port)), lim_(lim) {}
  void cycle(uint64_t cyc, const AxiPorts &p);
  bool stalled() const { return aw_.on || w_.on || ar_.on || r_.on || b_.on; }  // as AxilMonitor's
  const AxiFigures &figures() const { return fig_; }

 private:
  void check_burst(uint64_t cyc, const char *ch, uint64_t addr, uint32_t len, uint32_t size, uint32_t burst);
  void match_w(uint64_t cyc);

  AxiLimits lim_;
  AxiFigures fig_;
  Held aw_, w_, ar_, r_, b_;
  std::map<uint32_t, std::deque<unsigned>> rd_out_;  // read ID -> beats of each outstanding burst
  std::map<uint32_t, unsigned> r_count_;              // read ID -> beats into its oldest burst
  unsigned rd_n_ = 0;                                 // outstanding reads
  std::map<uint32_t, unsigned> wr_out_;               // write ID -> outstanding count
  unsigned wr_n_ = 0;
  std::deque<unsigned> aw_beats_;  // AW bursts whose W beats are not all in yet
  std::deque<unsigned> w_bursts_;  // W bursts (ended by WLAST) not yet matched to an AW
  unsigned w_count_ = 0;           // W beats of the burst in progress
};

struct AxilSignals {
  bool awvalid = false, awready = false, wvalid = false, wready = false, bvalid = false, bready = false;
  bool arvalid = false, arready = false, rvalid = false, rready = false;
  uint32_t awaddr = 0, wdata = 0, wstrb = 0, bresp = 0, araddr = 0, rdata = 0, rresp = 0;
};

class AxilMonitor : public MonitorBase {
 public:
  using MonitorBase::MonitorBase;
  void cycle(uint64_t cyc, const AxilSignals &s);
  // A stall is going on (a channel's VALID was high without READY): cycle() then has to run even
  // in a cycle without VALID; in any other such cycle it would check nothing.
  bool stalled() const { return aw_.on || w_.on || b_.on || ar_.on || r_.on; }

 private:
  Held aw_, w_, b_, ar_, r_;
  unsigned aw_n_ = 0, w_n_ = 0, ar_n_ = 0;  // handshakes not yet answered
};

struct AxisSignals {
  bool tvalid = false, tready = false, tlast = false;
  uint64_t tkeep = 0;
  const uint8_t *tdata = nullptr;  // data_bytes bytes, read only when needs_data() said so
};

class AxisMonitor : public MonitorBase {
 public:
  AxisMonitor(std::string port, unsigned data_bytes) : MonitorBase(std::move(port)), bytes_(data_bytes) {}
  void cycle(uint64_t cyc, const AxisSignals &s);
  // Whether cycle() will read tdata this cycle (to hash it: a stall goes on or begins), so the
  // caller converts the beat to bytes only then.
  bool needs_data(bool tvalid, bool tready) const { return tvalid && (held_ || !tready); }
  bool stalled() const { return held_; }  // as AxilMonitor's: without it and TVALID, nothing to check
  uint64_t frames() const { return frames_; }

 private:
  unsigned bytes_;
  bool held_ = false;
  uint64_t h_ = 0;
  uint64_t frames_ = 0;
};

class ReqAckMonitor : public MonitorBase {
 public:
  using MonitorBase::MonitorBase;
  void cycle(uint64_t cyc, bool req, bool ack, uint32_t payload);
  bool stalled() const { return held_; }  // as AxilMonitor's: without it and REQ, nothing to check

 private:
  bool held_ = false;
  uint32_t p_ = 0;
};

// When the handshakes of a latency path happen, in simulated ns (the caller's clock at the
// sampling point, the same for every port): the last W beat of each doorbell-BAR burst (the
// host's write has reached the NIC), the first and the last beat of each frame leaving on the
// MAC TX port, the last beat of each frame taken on the MAC RX port, each DMA write request
// (AW). Kept only
// while on, for measurements of single operations (make bench's 8 B WRITE latency split):
// the caller switches it on, runs one operation, reads the times and clears them.
struct HandshakeStamps {
  bool on = false;
  std::vector<double> db_write, tx_first, tx_last, rx_last, dma_aw;
  void clear() { db_write.clear(), tx_first.clear(), tx_last.clear(), rx_last.clear(), dma_aw.clear(); }
  // The first time in v at or after t (-1: none).
  static double first_from(const std::vector<double> &v, double t) {
    for (double x : v)
      if (x >= t) return x;
    return -1;
  }
};
