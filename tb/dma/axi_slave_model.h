// axi_slave_model.h: reusable C++ AXI4 slave model backed by a byte-array host memory, with a
// "hostile" mode and a protocol monitor. Independent of Verilator: a testbench copies the
// master's outputs into AxiPorts, calls drive() before evaluating the combinational logic of a
// cycle and commit() after it (before the clock edge).
//
// Hostile knobs: random latency per burst, R beats interleaved and reordered across IDs (per-ID
// order kept), random ready/valid gaps on every channel, error responses (SLVERR/DECERR) on
// bursts touching pages listed in err_pages (reads: on a random non-empty subset of the beats;
// writes: the burst is dropped and B carries the error).
// Monitor: burst type INCR, full-width size, <=256 beats, no 4 KiB crossing, burst bytes within
// max_rd_bytes/max_wr_bytes, read IDs distinct while outstanding, WLAST exactly on the last beat,
// WSTRB only inside allowed bytes (optional map), AR/AW/W payload stable while valid && !ready.
#pragma once
#include <cstdint>
#include <cstdio>
#include <deque>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "host/axi_ports.h"  // the port struct, shared with sim/host/pcie_model

struct AxiSlaveCfg {
  unsigned lat_min = 20, lat_max = 20;      // cycles from address handshake to first R / to B
  double ar_ready_p = 1.0, aw_ready_p = 1.0, w_ready_p = 1.0, r_valid_p = 1.0, b_valid_p = 1.0;
  bool interleave = false;                  // pick a (random) burst for every R beat
  bool reorder = false;                     // start bursts in random order (else oldest first)
  unsigned max_rd_outstanding = 64;         // AR acceptance limit
  unsigned w_buffer = 64;                   // W beats accepted ahead of AW
  static AxiSlaveCfg polite(unsigned lat) { AxiSlaveCfg c; c.lat_min = c.lat_max = lat; return c; }
  static AxiSlaveCfg hostile() {
    AxiSlaveCfg c; c.lat_min = 1; c.lat_max = 120; c.ar_ready_p = 0.5; c.aw_ready_p = 0.5;
    c.w_ready_p = 0.6; c.r_valid_p = 0.6; c.b_valid_p = 0.5; c.interleave = true; c.reorder = true;
    c.max_rd_outstanding = 40; c.w_buffer = 8; return c;
  }
};

class AxiSlaveModel {
 public:
  AxiSlaveModel(unsigned data_bytes, size_t mem_bytes, uint64_t seed)
      : B(data_bytes), mem(mem_bytes), rng(seed) {}

  const unsigned B;                 // bus width in bytes
  std::vector<uint8_t> mem;         // host memory, address 0 = mem[0]
  AxiSlaveCfg cfg;
  std::map<uint64_t, uint32_t> err_pages;  // 4 KiB page number -> resp (2 SLVERR, 3 DECERR)
  const std::vector<uint8_t>* wr_allowed = nullptr;  // optional per-byte map of writable bytes
  unsigned max_rd_bytes = 4096, max_wr_bytes = 4096;  // burst size limits checked by the monitor

  // statistics / monitor results
  uint64_t cycle = 0, violations = 0, ar_count = 0, aw_count = 0, r_beats = 0, w_beats = 0;
  unsigned rd_inflight = 0, max_rd_inflight = 0;
  std::string first_violation;

  void reset_stats() {
    violations = 0; first_violation.clear(); max_rd_inflight = rd_inflight;
    ar_count = aw_count = r_beats = w_beats = 0;
  }
  bool idle() const { return rbursts.empty() && awq.empty() && wq.empty() && bq.empty(); }

  // ---- before eval: decide the slave outputs of this cycle ----
  void drive(AxiPorts& p) {
    p.arready = rd_inflight < cfg.max_rd_outstanding && coin(cfg.ar_ready_p);
    p.awready = awq.size() < 64 && coin(cfg.aw_ready_p);
    p.wready = wq.size() < cfg.w_buffer && coin(cfg.w_ready_p);
    // R: keep a presented beat until it is taken
    if (r_cur < 0) pick_r();
    p.rvalid = r_cur >= 0;
    if (p.rvalid) {
      RBurst& b = rbursts[r_cur];
      uint64_t a = b.addr + uint64_t(b.beat) * B;
      for (unsigned i = 0; i < B; i++) p.rdata[i] = b.resp[b.beat] ? 0xEE : rd(a + i);
      p.rid = b.id; p.rresp = b.resp[b.beat]; p.rlast = (b.beat == b.beats - 1);
    }
    if (!b_cur) {
      if (!bq.empty() && bq.front().ready <= cycle && coin(cfg.b_valid_p)) b_cur = true;
    }
    p.bvalid = b_cur;
    if (b_cur) { p.bid = bq.front().id; p.bresp = bq.front().resp; }
  }

  // ---- after eval, before the clock edge: take the handshakes ----
  void commit(const AxiPorts& p) {
    check_stable(p);
    if (p.arvalid && p.arready) accept_ar(p);
    if (p.awvalid && p.awready) accept_aw(p);
    if (p.wvalid && p.wready) { wq.push_back({p.wdata, p.wstrb, p.wlast}); w_beats++; }
    process_w();
    if (p.rvalid && p.rready) {
      r_beats++;
      RBurst& b = rbursts[r_cur];
      if (++b.beat == b.beats) {
        rbursts.erase(rbursts.begin() + r_cur);
        rd_inflight--;
        r_cur = -1;
      } else if (cfg.interleave) {
        r_cur = -1;
      }
    } else if (!p.rvalid) {
      r_cur = -1;  // nothing was presented
    }
    if (p.bvalid && p.bready) { bq.pop_front(); b_cur = false; }
    cycle++;
  }

  uint8_t rd(uint64_t a) const { return a < mem.size() ? mem[a] : 0; }

 private:
  struct RBurst { uint32_t id; uint64_t addr; unsigned beats, beat; uint64_t ready; std::vector<uint32_t> resp; };
  struct AwEnt { uint32_t id; uint64_t addr; unsigned beats, beat; uint32_t resp; };
  struct WEnt { std::vector<uint8_t> data, strb; bool last; };
  struct BEnt { uint32_t id, resp; uint64_t ready; };
  std::vector<RBurst> rbursts;
  int r_cur = -1;
  std::deque<AwEnt> awq;
  std::deque<WEnt> wq;
  std::deque<BEnt> bq;
  bool b_cur = false;
  std::mt19937_64 rng;
  // previous-cycle master outputs for the stability check
  bool prev_arwait = false, prev_awwait = false, prev_wwait = false;
  AxiPorts prev{1};

  bool coin(double p) { return p >= 1.0 || std::uniform_real_distribution<double>(0, 1)(rng) < p; }
  unsigned lat() { return cfg.lat_min + unsigned(rng() % (cfg.lat_max - cfg.lat_min + 1)); }

  void violate(const std::string& s) {
    if (violations++ == 0) first_violation = "cycle " + std::to_string(cycle) + ": " + s;
  }

  uint32_t page_err(uint64_t a, uint64_t bytes) const {
    for (uint64_t pg = a >> 12; pg <= (a + bytes - 1) >> 12; pg++) {
      auto it = err_pages.find(pg);
      if (it != err_pages.end()) return it->second;
    }
    return 0;
  }

  void check_burst(const char* ch, uint64_t addr, uint32_t len, uint32_t size, uint32_t burst, unsigned lim) {
    unsigned beats = len + 1;
    if (burst != 1) violate(std::string(ch) + " burst type not INCR");
    if ((1u << size) != B) violate(std::string(ch) + " size not full width");
    if (addr % B) violate(std::string(ch) + " address not aligned to the bus width");
    if ((addr & 0xFFF) + uint64_t(beats) * B > 4096) violate(std::string(ch) + " burst crosses 4 KiB");
    if (uint64_t(beats) * B > lim) violate(std::string(ch) + " burst larger than the configured limit");
  }

  void accept_ar(const AxiPorts& p) {
    ar_count++;
    check_burst("AR", p.araddr, p.arlen, p.arsize, p.arburst, max_rd_bytes);
    for (auto& b : rbursts)
      if (b.id == p.arid) violate("AR ID reused while outstanding");
    RBurst b{p.arid, p.araddr, p.arlen + 1, 0, cycle + lat(), {}};
    b.resp.assign(b.beats, 0);
    uint32_t e = page_err(p.araddr, uint64_t(b.beats) * B);
    if (e) {
      for (auto& r : b.resp) r = (rng() % 3 == 0) ? e : 0;
      b.resp[rng() % b.beats] = e;
    }
    rbursts.push_back(b);
    rd_inflight++;
    if (rd_inflight > max_rd_inflight) max_rd_inflight = rd_inflight;
  }

  void pick_r() {
    std::vector<int> el;
    for (size_t i = 0; i < rbursts.size(); i++) {
      const RBurst& b = rbursts[i];
      if (b.ready > cycle) continue;
      bool first = true;  // only the oldest burst of an ID may send
      for (size_t j = 0; j < i; j++)
        if (rbursts[j].id == b.id) first = false;
      if (!first) continue;
      if (!cfg.interleave && b.beat > 0) { el.assign(1, int(i)); break; }  // finish a started burst
      el.push_back(int(i));
    }
    if (el.empty() || !coin(cfg.r_valid_p)) return;
    r_cur = cfg.reorder ? el[rng() % el.size()] : el[0];
  }

  void accept_aw(const AxiPorts& p) {
    aw_count++;
    check_burst("AW", p.awaddr, p.awlen, p.awsize, p.awburst, max_wr_bytes);
    awq.push_back({p.awid, p.awaddr, p.awlen + 1, 0, page_err(p.awaddr, uint64_t(p.awlen + 1) * B)});
  }

  void process_w() {
    while (!awq.empty() && !wq.empty()) {
      AwEnt& a = awq.front();
      WEnt& w = wq.front();
      uint64_t base = a.addr + uint64_t(a.beat) * B;
      bool last = (a.beat == a.beats - 1);
      if (w.last != last) violate(last ? "WLAST missing" : "WLAST early");
      for (unsigned i = 0; i < B; i++) {
        if (!w.strb[i]) continue;
        uint64_t ad = base + i;
        if (wr_allowed && (ad >= wr_allowed->size() || !(*wr_allowed)[ad]))
          violate("WSTRB set on a byte outside the requested range");
        if (!a.resp && ad < mem.size()) mem[ad] = w.data[i];
      }
      wq.pop_front();
      if (++a.beat == a.beats) {
        bq.push_back({a.id, a.resp, cycle + lat()});
        awq.pop_front();
      }
    }
  }

  void check_stable(const AxiPorts& p) {
    if (prev_arwait && !(p.arvalid && p.arid == prev.arid && p.araddr == prev.araddr && p.arlen == prev.arlen))
      violate("AR changed or dropped before ARREADY");
    if (prev_awwait && !(p.awvalid && p.awaddr == prev.awaddr && p.awlen == prev.awlen))
      violate("AW changed or dropped before AWREADY");
    if (prev_wwait && !(p.wvalid && p.wdata == prev.wdata && p.wstrb == prev.wstrb && p.wlast == prev.wlast))
      violate("W changed or dropped before WREADY");
    prev_arwait = p.arvalid && !p.arready;
    prev_awwait = p.awvalid && !p.awready;
    prev_wwait = p.wvalid && !p.wready;
    if (prev_arwait) { prev.arid = p.arid; prev.araddr = p.araddr; prev.arlen = p.arlen; }
    if (prev_awwait) { prev.awaddr = p.awaddr; prev.awlen = p.awlen; }
    if (prev_wwait) { prev.wdata = p.wdata; prev.wstrb = p.wstrb; prev.wlast = p.wlast; }
  }
};
