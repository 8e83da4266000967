// PCIe timing model: the AXI4 slave on a NIC's DMA master port, backed by a HostMem.
// Cycle-based with the same contract as tb/dma/axi_slave_model.h (and the same AxiPorts struct,
// so either model can sit behind a master): drive(p) before the cycle's evaluation sets the slave
// outputs, commit(p) after it (before the clock edge) takes the handshakes and advances a cycle.
//
// Timing (unloaded): a read's first R beat is presented rd_latency after its AR handshake; a
// write is posted: its data becomes visible in host memory, and its B is issued, wr_latency after
// its last W beat. Writes (and MSI-X messages, see post_msix) commit strictly in order, as posted
// PCIe writes do. Each direction is a token bucket of link_gbytes_s; every R/W beat costs its bus
// bytes and every TLP (a completion chunk / max_payload piece of a write) tlp_overhead more.
// Hostile mode (seeded): completions split into random chunks and interleaved across AXI IDs
// (order kept per ID), random ready/valid gaps on all five channels, random extra latency per
// request. Address ranges in `errs` answer SLVERR/DECERR: reads on every beat (data zero),
// writes drop their data and answer on B. Same seed and same master behaviour => same cycles.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "host/axi_ports.h"
#include "host/sim_width.h"
#include "host/host_mem.h"

struct PcieErrRange {
  uint64_t base, len;
  uint32_t resp;          // 2 SLVERR, 3 DECERR
  bool reads = true, writes = true;
};

struct PcieCfg {
  unsigned data_bytes = RNIC_SIM_DATA_BYTES;  // AXI data width in bytes (host/sim_width.h; 100g: 512 bits)
  uint64_t clk_ps = 4000;             // NIC clock period (250 MHz)
  uint64_t rd_latency_ps = 500000;    // AR handshake -> first R beat (125 cycles)
  uint64_t wr_latency_ps = 250000;    // last W beat -> visible in memory + B (63 cycles: rounded up)
  double link_gbytes_s = 16.0;        // per direction, TLP overhead included
  unsigned tlp_overhead = 24;         // bytes per TLP (framing, header, LCRC, DLLP share)
  unsigned max_payload = 256;         // write TLP size and polite completion size
  unsigned max_rd_outstanding = 32;   // AR accepted while fewer reads are in flight
  unsigned max_wr_outstanding = 32;   // AW accepted while fewer writes are uncommitted
  unsigned w_buffer = 64;             // W beats accepted ahead of their AW / commit
  // hostile mode
  bool hostile = false;
  uint64_t seed = 1;
  double ready_p = 0.6;               // per-cycle probability of ready / valid on each channel
  unsigned chunk_min = 64, chunk_max = 512;  // completion chunk bytes (multiples of the bus width)
  uint64_t extra_lat_max_ps = 400000; // uniform extra latency per request, [0, max]
  std::vector<PcieErrRange> errs;
  // Called for every request the ranges above let through: 0, or the response (2/3) for a
  // request the host refuses (the simulator service: DMA outside a process's registrations).
  std::function<uint32_t(uint64_t addr, uint64_t len, bool write)> err_fn;
};

struct PcieStats {
  uint64_t rd_reqs = 0, wr_reqs = 0, rd_bytes = 0, wr_bytes = 0, r_beats = 0, w_beats = 0;
  uint64_t rd_chunks = 0, err_reads = 0, err_writes = 0, msix_msgs = 0;
  uint64_t r_gaps = 0;      // cycles an R beat was ready but held back (hostile)
  uint64_t ooo_chunks = 0;  // completion chunks sent while an older read was still outstanding
  unsigned max_rd_inflight = 0;
};

class PcieModel {
 public:
  PcieModel(HostMem &mem, const PcieCfg &cfg = PcieCfg());

  void drive(AxiPorts &p);
  void commit(const AxiPorts &p);

  // An MSI-X message from the device: a posted write ordered behind every write already
  // accepted. Its vector appears in take_msix() when it reaches the host.
  void post_msix(unsigned vector);
  bool msix_ack() { return coin(); }  // ready for an MSI-X request this cycle (random under hostile)
  bool take_msix(unsigned *vector);

  bool idle() const { return rd_.empty() && aw_.empty() && wq_.empty() && commits_.empty() && bq_.empty(); }
  uint64_t cycle() const { return cycle_; }
  uint64_t now_ps() const { return cycle_ * cfg_.clk_ps; }
  const PcieCfg &cfg() const { return cfg_; }
  PcieStats stats;
  uint64_t violations = 0;
  std::string first_violation;

 private:
  struct RdReq {
    uint32_t id;
    uint64_t addr;         // bus-aligned
    unsigned beats, beat = 0;
    uint32_t resp;
    uint64_t ready_ps;
    std::vector<unsigned> chunk_end;  // beat index where each chunk ends (exclusive)
    size_t chunk = 0;
  };
  struct AwEnt { uint32_t id; uint64_t addr; unsigned beats; uint32_t resp; };
  struct WBeat { std::vector<uint8_t> data, strb; bool last; };
  struct Commit {
    bool msix; unsigned vector; uint32_t id, resp; uint64_t addr;
    std::vector<WBeat> beats; uint64_t at_ps;
  };
  struct BEnt { uint32_t id, resp; };

  // Called ~6 times per NIC cycle: the polite model's answer inline, the hostile draw out of line
  // (as one function clang did not inline it, a call each: docs/sim-speed.md, step 21)
  bool coin() { return !cfg_.hostile || coin_draw(); }
  [[gnu::noinline]] bool coin_draw() {
    return std::uniform_real_distribution<double>(0, 1)(rng_) < cfg_.ready_p;
  }
  uint64_t extra_ps() { return cfg_.hostile && cfg_.extra_lat_max_ps ? rng_() % (cfg_.extra_lat_max_ps + 1) : 0; }
  uint32_t err_for(uint64_t a, uint64_t n, bool write) const;
  void violate(const std::string &s);
  void check_burst(const char *ch, uint64_t addr, uint32_t len, uint32_t size, uint32_t burst);
  void accept_ar(const AxiPorts &p);
  void pick_r();
  static bool chunk_start(const RdReq &r) { return r.chunk == 0 ? r.beat == 0 : r.beat == r.chunk_end[r.chunk - 1]; }
  void pair_w();
  void retire_commits();
  uint64_t posted_at(uint64_t at) {
    at = std::max(at, last_commit_ps_);
    last_commit_ps_ = at;
    return at;
  }

  HostMem &mem_;
  PcieCfg cfg_;
  std::mt19937_64 rng_;
  uint64_t cycle_ = 0;
  double rd_credit_, wr_credit_, credit_per_cycle_, credit_cap_;
  std::vector<RdReq> rd_;   // in AR order
  int r_cur_ = -1;
  bool r_shown_ = false;  // the beat of r_cur_ is on the bus (must stay until taken)
  std::deque<AwEnt> aw_;
  std::deque<WBeat> wq_;
  std::vector<WBeat> wcur_;  // beats of the write at aw_.front() gathered so far
  // Retired W beats whose buffers commit() refills: no allocation per beat (docs/sim-speed.md,
  // step 17). Bounded by the most beats ever in flight at once.
  std::vector<WBeat> spare_;
  unsigned w_tlp_bytes_ = 0;
  std::deque<Commit> commits_;
  uint64_t last_commit_ps_ = 0;
  std::deque<BEnt> bq_;
  bool b_cur_ = false;
  std::deque<unsigned> msix_out_;
};
