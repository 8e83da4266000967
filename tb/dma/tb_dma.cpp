// tb_dma.cpp: testbench of rtl/dma/dma_engine on Verilator.
// Usage: Vdma_engine [--seed N] [--bench] [--quick]
// Prints one PASS/FAIL line per check; exits non-zero if anything failed.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "Vdma_engine.h"
#include "main/sim_waves.h"
#include "tb_rerun.h"
#include "verilated.h"
#if VM_COVERAGE
#include "verilated_cov.h"
#endif
#include "axi_slave_model.h"
#include "vl_bits.h"

#ifndef TB_DW
#define TB_DW 512
#endif
#ifndef TB_NR
#define TB_NR 3
#endif
#ifndef TB_NW
#define TB_NW 2
#endif
static constexpr unsigned DW = TB_DW, B = DW / 8, NR = TB_NR, NW = TB_NW, TAGW = 8;
static constexpr size_t MEM = 8u << 20, WR_BASE = 4u << 20;
#ifndef TB_MRRS
#define TB_MRRS 4096
#endif
#ifndef TB_MPS
#define TB_MPS 512
#endif
static constexpr unsigned MRRS_CAP = TB_MRRS, MPS_CAP = TB_MPS;

static unsigned g_fail = 0, g_pass = 0;
static void result(const std::string& name, bool ok, const std::string& why = "") {
  if (ok) { printf("PASS %s\n", name.c_str()); g_pass++; }
  else { printf("FAIL %s %s\n", name.c_str(), why.c_str()); tb_print_rerun(); g_fail++; }
  fflush(stdout);
}

struct RdReq { uint64_t addr; uint32_t len, tag; std::set<uint32_t> ok_status; std::vector<uint8_t> exp; uint32_t rcv = 0; };
struct WrReq { uint64_t addr; uint32_t len, tag; std::set<uint32_t> ok_status; std::vector<uint8_t> data; };

struct ClientCfg { double req_p = 1.0, data_p = 1.0, cpl_p = 1.0; };

struct Tb {
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<Vdma_engine> top;
  Waves waves;  // FST when asked for (sim/main/sim_waves.h)
  AxiSlaveModel slave;
  AxiPorts ports{B};
  std::mt19937_64 rng;
  uint64_t cyc = 0;
  unsigned mrrs_code = 5, mps_code = 2;
  ClientCfg ccfg;

  // client state
  std::deque<RdReq> rd_issue[NR], rd_pend[NR];
  bool rd_req_on[NR] = {};
  std::deque<WrReq> wr_issue[NW], wr_data[NW], wr_pend[NW];
  bool wr_req_on[NW] = {}, wr_dat_on[NW] = {};
  uint32_t wr_sent[NW] = {};
  uint32_t next_tag = 0;
  std::vector<uint8_t> image, dontcare, allowed;
  // results of the current test
  unsigned errs = 0; std::string first_err;
  uint64_t rd_done = 0, wr_done = 0, rd_err_cpl = 0, wr_err_cpl = 0, rd_bytes = 0, wr_bytes = 0;
  uint64_t done_per_rd_client[NR] = {};
  // request-port checks (dma_req_skid): handshakes per client and the cycle of each; a client
  // whose write data is withheld; and whether to prove every cycle that no request ready output
  // depends on any request valid input in the same cycle (the readies must come from flops)
  uint64_t rd_hs[NR] = {}, wr_hs[NW] = {};
  std::vector<uint64_t> rd_hs_cyc[NR], wr_hs_cyc[NW];
  bool hold_data[NW] = {};
  bool check_ready_reg = false;
  uint64_t ready_probes = 0;

  Tb(uint64_t seed) : ctx(new VerilatedContext), slave(B, MEM, seed ^ 0x5151), rng(seed) {
    top.reset(new Vdma_engine(ctx.get()));
    waves.open(top.get(), "dma");
    for (auto& b : slave.mem) b = uint8_t(rng());
    image = slave.mem;
    dontcare.assign(MEM, 0);
    allowed.assign(MEM, 0);
    slave.wr_allowed = &allowed;
    top->rst_ni = 0; top->clk_i = 0;
    top->cfg_max_read_req_i = mrrs_code; top->cfg_max_payload_i = mps_code;
    for (int i = 0; i < 5; i++) { top->clk_i = 1; waves.eval(*top); top->clk_i = 0; waves.eval(*top); }
    top->rst_ni = 1; waves.eval(*top);
  }

  void err(const std::string& s) { if (errs++ == 0) first_err = "cycle " + std::to_string(cyc) + ": " + s; }
  bool coin(double p) { return p >= 1.0 || std::uniform_real_distribution<double>(0, 1)(rng) < p; }

  std::set<uint32_t> status_for(uint64_t a, uint32_t len) {
    std::set<uint32_t> s;
    if (len)
      for (uint64_t pg = a >> 12; pg <= (a + len - 1) >> 12; pg++) {
        auto it = slave.err_pages.find(pg);
        if (it != slave.err_pages.end()) s.insert(it->second);
      }
    if (s.empty()) s.insert(0);
    return s;
  }
  void add_read(unsigned c, uint64_t a, uint32_t len) {
    RdReq r{a, len, (next_tag++) & 0xFF, status_for(a, len), {}, 0};
    r.exp.assign(slave.mem.begin() + a, slave.mem.begin() + a + len);
    rd_issue[c].push_back(std::move(r));
  }
  void add_write(unsigned c, uint64_t a, uint32_t len) {
    WrReq w{a, len, (next_tag++) & 0xFF, status_for(a, len), {}};
    w.data.resize(len);
    for (auto& b : w.data) b = uint8_t(rng());
    for (uint32_t i = 0; i < len; i++) allowed[a + i] = 1;
    wr_issue[c].push_back(std::move(w));
  }
  bool busy() const {
    for (unsigned c = 0; c < NR; c++) if (!rd_issue[c].empty() || !rd_pend[c].empty()) return true;
    for (unsigned c = 0; c < NW; c++) if (!wr_issue[c].empty() || !wr_pend[c].empty()) return true;
    return false;
  }

  void step() {
    auto& t = *top;
    t.cfg_max_read_req_i = mrrs_code;
    t.cfg_max_payload_i = mps_code;
    // ---- drive client inputs ----
    for (unsigned c = 0; c < NR; c++) {
      if (!rd_req_on[c] && !rd_issue[c].empty() && coin(ccfg.req_p)) rd_req_on[c] = true;
      vlb::set(t.rd_req_valid_i, c, 1, rd_req_on[c]);
      if (rd_req_on[c]) {
        const RdReq& r = rd_issue[c].front();
        vlb::set(t.rd_req_addr_i, 64 * c, 64, r.addr);
        vlb::set(t.rd_req_len_i, 32 * c, 32, r.len);
        vlb::set(t.rd_req_tag_i, TAGW * c, TAGW, r.tag);
      }
      vlb::set(t.rd_data_ready_i, c, 1, coin(ccfg.data_p));
      vlb::set(t.rd_cpl_ready_i, c, 1, coin(ccfg.cpl_p));
    }
    for (unsigned c = 0; c < NW; c++) {
      if (!wr_req_on[c] && !wr_issue[c].empty() && coin(ccfg.req_p)) wr_req_on[c] = true;
      vlb::set(t.wr_req_valid_i, c, 1, wr_req_on[c]);
      if (wr_req_on[c]) {
        const WrReq& w = wr_issue[c].front();
        vlb::set(t.wr_req_addr_i, 64 * c, 64, w.addr);
        vlb::set(t.wr_req_len_i, 32 * c, 32, w.len);
        vlb::set(t.wr_req_tag_i, TAGW * c, TAGW, w.tag);
      }
      if (!wr_dat_on[c] && !wr_data[c].empty() && !hold_data[c] && coin(ccfg.data_p)) {
        wr_dat_on[c] = true;
        const WrReq& w = wr_data[c].front();
        uint8_t buf[B];
        for (unsigned i = 0; i < B; i++) {
          size_t k = size_t(wr_sent[c]) * B + i;
          buf[i] = k < w.len ? w.data[k] : uint8_t(rng());  // junk past the end
        }
        vlb::set_bytes(t.wr_data_i, B * c, B, buf);
      }
      vlb::set(t.wr_data_valid_i, c, 1, wr_dat_on[c]);
      vlb::set(t.wr_cpl_ready_i, c, 1, coin(ccfg.cpl_p));
    }
    // ---- slave outputs ----
    slave.drive(ports);
    t.m_axi_awready = ports.awready; t.m_axi_wready = ports.wready; t.m_axi_arready = ports.arready;
    t.m_axi_bvalid = ports.bvalid; t.m_axi_bid = ports.bid; t.m_axi_bresp = ports.bresp;
    t.m_axi_rvalid = ports.rvalid; t.m_axi_rid = ports.rid; t.m_axi_rresp = ports.rresp; t.m_axi_rlast = ports.rlast;
    if (ports.rvalid) vlb::set_bytes(t.m_axi_rdata, 0, B, ports.rdata.data());
    waves.eval(t);
    if (check_ready_reg) probe_ready_regs();
    // ---- sample DUT outputs / handshakes ----
    ports.awvalid = t.m_axi_awvalid; ports.awid = t.m_axi_awid; ports.awaddr = t.m_axi_awaddr;
    ports.awlen = t.m_axi_awlen; ports.awsize = t.m_axi_awsize; ports.awburst = t.m_axi_awburst;
    ports.wvalid = t.m_axi_wvalid; ports.wlast = t.m_axi_wlast; ports.bready = t.m_axi_bready;
    if (ports.wvalid) {
      vlb::get_bytes(t.m_axi_wdata, 0, B, ports.wdata.data());
      for (unsigned i = 0; i < B; i++) ports.wstrb[i] = uint8_t(vlb::get(t.m_axi_wstrb, i, 1));
    }
    ports.arvalid = t.m_axi_arvalid; ports.arid = t.m_axi_arid; ports.araddr = t.m_axi_araddr;
    ports.arlen = t.m_axi_arlen; ports.arsize = t.m_axi_arsize; ports.arburst = t.m_axi_arburst;
    ports.rready = t.m_axi_rready;

    for (unsigned c = 0; c < NR; c++) {
      if (rd_req_on[c] && vlb::get(t.rd_req_ready_o, c, 1)) {
        rd_req_on[c] = false;
        rd_hs[c]++; rd_hs_cyc[c].push_back(cyc);
        rd_pend[c].push_back(std::move(rd_issue[c].front()));
        rd_issue[c].pop_front();
      }
      if (vlb::get(t.rd_data_valid_o, c, 1) && vlb::get(t.rd_data_ready_i, c, 1)) {
        // data may run ahead of the completions: it belongs to the oldest request still owed data
        RdReq* rp = nullptr;
        for (auto& q : rd_pend[c]) if (q.rcv < q.len) { rp = &q; break; }
        if (!rp) { err("read data with no pending request, client " + std::to_string(c)); continue; }
        RdReq& r = *rp;
        uint32_t left = r.len - r.rcv, n = std::min<uint32_t>(left, B);
        uint8_t buf[B];
        vlb::get_bytes(t.rd_data_o, B * c, B, buf);
        bool last = vlb::get(t.rd_data_last_o, c, 1);
        for (unsigned i = 0; i < B; i++)
          if (vlb::get(t.rd_data_keep_o, B * c + i, 1) != (i < n)) {
            char m[200];
            snprintf(m, sizeof m, "read keep wrong: client %u addr 0x%llx len %u at byte %u, keep lane %u", c,
                     (unsigned long long)r.addr, r.len, r.rcv, i);
            err(m); break;
          }
        if (last != (left <= B)) err("read last wrong at byte " + std::to_string(r.rcv) + " of " + std::to_string(r.len));
        if (left == 0) err("read data beyond the request length");
        if (r.ok_status.count(0) && r.ok_status.size() == 1)
          for (unsigned i = 0; i < n; i++)
            if (buf[i] != r.exp[r.rcv + i]) {
              char m[160];
              snprintf(m, sizeof m, "read data mismatch: addr 0x%llx len %u byte %u got %02x exp %02x",
                       (unsigned long long)r.addr, r.len, r.rcv + i, buf[i], r.exp[r.rcv + i]);
              err(m); break;
            }
        r.rcv += n;
      }
      if (vlb::get(t.rd_cpl_valid_o, c, 1) && vlb::get(t.rd_cpl_ready_i, c, 1)) {
        if (rd_pend[c].empty()) { err("read completion with no pending request"); continue; }
        RdReq& r = rd_pend[c].front();
        uint32_t tag = vlb::get(t.rd_cpl_tag_o, TAGW * c, TAGW), st = vlb::get(t.rd_cpl_status_o, 2 * c, 2);
        if (tag != r.tag) err("read completion tag mismatch");
        if (!r.ok_status.count(st)) {
          char m[160];
          snprintf(m, sizeof m, "read status %u unexpected: addr 0x%llx len %u", st, (unsigned long long)r.addr, r.len);
          err(m);
        }
        if (r.rcv != r.len) err("read completion before all data");
        if (st) rd_err_cpl++;
        rd_done++; done_per_rd_client[c]++; rd_bytes += r.len;
        rd_pend[c].pop_front();
      }
    }
    for (unsigned c = 0; c < NW; c++) {
      if (wr_req_on[c] && vlb::get(t.wr_req_ready_o, c, 1)) {
        wr_req_on[c] = false;
        wr_hs[c]++; wr_hs_cyc[c].push_back(cyc);
        WrReq& w = wr_issue[c].front();
        if (w.len) wr_data[c].push_back(w);
        wr_pend[c].push_back(std::move(w));
        wr_issue[c].pop_front();
      }
      if (wr_dat_on[c] && vlb::get(t.wr_data_ready_o, c, 1)) {
        wr_dat_on[c] = false;
        if (++wr_sent[c] == (wr_data[c].front().len + B - 1) / B) { wr_sent[c] = 0; wr_data[c].pop_front(); }
      } else if (!wr_dat_on[c] && vlb::get(t.wr_data_ready_o, c, 1) && wr_data[c].empty() && wr_pend[c].empty()) {
        // ready with nothing owed is harmless; nothing to check
      }
      if (vlb::get(t.wr_cpl_valid_o, c, 1) && vlb::get(t.wr_cpl_ready_i, c, 1)) {
        if (wr_pend[c].empty()) { err("write completion with no pending request"); continue; }
        WrReq& w = wr_pend[c].front();
        uint32_t tag = vlb::get(t.wr_cpl_tag_o, TAGW * c, TAGW), st = vlb::get(t.wr_cpl_status_o, 2 * c, 2);
        if (tag != w.tag) err("write completion tag mismatch");
        if (!w.ok_status.count(st)) {
          char m[160];
          snprintf(m, sizeof m, "write status %u unexpected: addr 0x%llx len %u", st, (unsigned long long)w.addr, w.len);
          err(m);
        }
        bool data_done = wr_data[c].empty() || &wr_data[c].front() != &w;  // copy check below
        (void)data_done;
        if (st == 0) {
          for (uint32_t i = 0; i < w.len; i++) image[w.addr + i] = w.data[i];
          if (memcmp(&slave.mem[w.addr], w.data.data(), w.len)) {
            char m[160];
            snprintf(m, sizeof m, "write data wrong at completion: addr 0x%llx len %u", (unsigned long long)w.addr, w.len);
            err(m);
          }
        } else {
          wr_err_cpl++;
          for (uint32_t i = 0; i < w.len; i++) dontcare[w.addr + i] = 1;
        }
        wr_done++; wr_bytes += w.len;
        wr_pend[c].pop_front();
      }
    }
    slave.commit(ports);
    t.clk_i = 1; waves.eval(t); t.clk_i = 0; waves.eval(t);
    cyc++;
  }

  // Every request valid input flipped, the combinational logic evaluated again: the ready
  // outputs must not move (they are flops), then the inputs are put back.
  void probe_ready_regs() {
    auto& t = *top;
    uint64_t rr = vlb::get(t.rd_req_ready_o, 0, NR), wr = vlb::get(t.wr_req_ready_o, 0, NW);
    uint64_t rv = vlb::get(t.rd_req_valid_i, 0, NR), wv = vlb::get(t.wr_req_valid_i, 0, NW);
    for (uint64_t m : {uint64_t(0), ~uint64_t(0)}) {
      vlb::set(t.rd_req_valid_i, 0, NR, m); vlb::set(t.wr_req_valid_i, 0, NW, m);
      waves.eval(t);
      if (vlb::get(t.rd_req_ready_o, 0, NR) != rr || vlb::get(t.wr_req_ready_o, 0, NW) != wr)
        err("a request ready output follows the request valid inputs in the same cycle");
    }
    vlb::set(t.rd_req_valid_i, 0, NR, rv); vlb::set(t.wr_req_valid_i, 0, NW, wv);
    waves.eval(t);
    ready_probes++;
  }

  // run until all requests completed and the slave is idle
  bool run(uint64_t limit) {
    uint64_t start = cyc;
    while (busy() || !slave.idle()) {
      step();
      if (cyc - start > limit) { err("timeout"); return false; }
    }
    for (int i = 0; i < 20; i++) step();  // nothing may appear afterwards
    return true;
  }

  void begin() {
    errs = 0; first_err.clear(); slave.reset_stats();
    rd_done = wr_done = rd_err_cpl = wr_err_cpl = rd_bytes = wr_bytes = 0;
    for (auto& d : done_per_rd_client) d = 0;
    for (unsigned c = 0; c < NR; c++) { rd_hs[c] = 0; rd_hs_cyc[c].clear(); }
    for (unsigned c = 0; c < NW; c++) { wr_hs[c] = 0; wr_hs_cyc[c].clear(); hold_data[c] = false; }
  }
  // guard bytes and every successful write: memory must equal the expected image
  void check_image() {
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < MEM; i++)
      if (!dontcare[i] && slave.mem[i] != image[i]) { if (!bad++) first = i; }
    if (bad) err("memory differs from expected image at " + std::to_string(bad) + " bytes, first 0x" + [&] {
      char b[32]; snprintf(b, sizeof b, "%zx", first); return std::string(b); }());
    std::fill(allowed.begin(), allowed.end(), 0);
    image = slave.mem;  // a failure must not leak into the next check
    std::fill(dontcare.begin(), dontcare.end(), 0);
  }
  bool end(const std::string& name, const std::string& extra = "") {
    check_image();
    bool ok = errs == 0 && slave.violations == 0;
    std::string why = errs ? first_err : ("AXI monitor: " + slave.first_violation);
    result(name, ok, ok ? "" : why + extra);
    return ok;
  }
};

// write destination allocator: disjoint regions with guard gaps in [WR_BASE, MEM)
struct Alloc {
  uint64_t cur = WR_BASE;
  std::mt19937_64& rng;
  explicit Alloc(std::mt19937_64& r) : rng(r) {}
  uint64_t take(uint32_t len) {
    uint64_t a = cur + 16 + rng() % 200;
    if (a + len + 256 > MEM) a = WR_BASE + 16 + rng() % 200;  // callers keep totals small
    cur = a + len;
    return a;
  }
};

static std::vector<uint32_t> sweep_lens() {
  std::vector<uint32_t> v = {0, 1, 2, 3, B - 1, B, B + 1, 2 * B - 1, 2 * B, 2 * B + 1, 127, 128, 129,
                             255, 256, 257, 511, 512, 513, 1000, 4095, 4096, 4097, 8191, 8193, 12345};
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}
// distance of the start before a 4 KiB boundary
static std::vector<uint32_t> sweep_offs() {
  std::vector<uint32_t> v = {0, 1, 2, 3, B / 2, B - 1, B, B + 1, 127, 128, 129, 511, 1000};
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

static void sweep_test(Tb& tb, const std::string& name, bool write, bool hostile) {
  tb.begin();
  tb.slave.cfg = hostile ? AxiSlaveCfg::hostile() : AxiSlaveCfg::polite(30);
  tb.ccfg = hostile ? ClientCfg{0.5, 0.6, 0.5} : ClientCfg{};
  Alloc al(tb.rng);
  unsigned n = 0, batch = 0;
  for (uint32_t len : sweep_lens())
    for (uint32_t d : sweep_offs()) {
      if (write) {
        uint64_t x = al.take(len + 4096);
        uint64_t a = ((x + d + 4095) & ~4095ull) - d;  // start d bytes before a page boundary
        al.cur = a + len;
        tb.add_write(n % NW, a, len);
      } else {
        uint64_t a = (uint64_t(1 + (n % 900)) << 12) - d;
        tb.add_read(n % NR, a, len);
      }
      n++;
      if (++batch == 48) { tb.run(2000000); batch = 0; }
    }
  tb.run(2000000);
  tb.end(name, " (" + std::to_string(n) + " transfers)");
}

static void random_mix(Tb& tb, const std::string& name, unsigned nreq, uint32_t maxlen, bool hostile,
                       bool reads, bool writes) {
  tb.begin();
  tb.slave.cfg = hostile ? AxiSlaveCfg::hostile() : AxiSlaveCfg::polite(40);
  tb.ccfg = hostile ? ClientCfg{0.6, 0.7, 0.6} : ClientCfg{};
  Alloc al(tb.rng);
  uint64_t wtotal = 0;
  for (unsigned i = 0; i < nreq; i++) {
    uint32_t len = tb.rng() % 4 == 0 ? tb.rng() % 200 : tb.rng() % (maxlen + 1);
    bool w = writes && (!reads || tb.rng() % 2);
    if (w) {
      if (wtotal + len + 512 > (MEM - WR_BASE) / 2) { tb.run(5000000); al.cur = WR_BASE; wtotal = 0; tb.check_image(); }
      wtotal += len + 256;
      uint64_t a = al.take(len);
      tb.add_write(tb.rng() % NW, a, len);
    } else {
      uint64_t a = tb.rng() % (WR_BASE - len - 1);
      tb.add_read(tb.rng() % NR, a, len);
    }
  }
  tb.run(20000000);
  tb.end(name, " (" + std::to_string(nreq) + " transfers)");
}

// The request ports (dma_req_skid): two requests per client are taken while the engine is busy,
// a third waits (ready low) until the engine frees a place; all clients are taken in the same
// cycle; one client's requests are taken on consecutive cycles while the engine keeps up; the
// readies never follow the valids combinationally; data and order byte for byte as always.
static void req_port_tests(Tb& tb) {
  // writes: client 0's first request occupies the write engine while its data is withheld
  {
    tb.begin(); tb.slave.cfg = AxiSlaveCfg::polite(20); tb.ccfg = ClientCfg{};
    tb.check_ready_reg = true;
    Alloc al(tb.rng);
    tb.hold_data[0] = true;
    // client 0 first, alone, so that its first request is the one the engine holds
    for (unsigned c = 0; c < NW; c++) {
      for (unsigned i = 0; i < 4; i++) {
        uint32_t len = 1 + tb.rng() % (3 * B);
        tb.add_write(c, al.take(len), len);
      }
      if (c == 0) for (int k = 0; k < 10; k++) tb.step();
    }
    for (int k = 0; k < 200; k++) tb.step();
    std::string got;
    for (unsigned c = 0; c < NW; c++) got += " " + std::to_string(tb.wr_hs[c]);
    // client 0: one request in the engine + two in its port; the others: two in their ports
    for (unsigned c = 0; c < NW; c++)
      if (tb.wr_hs[c] != (c == 0 ? 3u : 2u) || vlb::get(tb.top->wr_req_ready_o, c, 1))
        tb.err("write requests taken while the engine is held:" + got + " (want 3, then 2 each, ready low)");
    tb.hold_data[0] = false;
    tb.run(200000);
    tb.check_ready_reg = false;
    tb.end("req_port_wr_full_backpressure", " (taken while held:" + got + ")");
  }
  // reads: no AR accepted, the splitter holds client 0's first request
  {
    tb.begin(); tb.slave.cfg = AxiSlaveCfg::polite(20); tb.slave.cfg.ar_ready_p = 0.0; tb.ccfg = ClientCfg{};
    tb.check_ready_reg = true;
    // client 0 first, alone, with a first read of several bursts: its first burst waits in the
    // AR register, the splitter holds the rest of the request
    for (unsigned c = 0; c < NR; c++) {
      for (unsigned i = 0; i < 4; i++)
        tb.add_read(c, 0x10000 * (c + 1) + 0x3000 * i + c + i, (c == 0 && i == 0) ? 20000 : 1 + tb.rng() % 9000);
      if (c == 0) for (int k = 0; k < 10; k++) tb.step();
    }
    for (int k = 0; k < 200; k++) tb.step();
    std::string got;
    for (unsigned c = 0; c < NR; c++) got += " " + std::to_string(tb.rd_hs[c]);
    if (tb.slave.ar_count) tb.err("an AR went through while the slave held ARREADY low");
    for (unsigned c = 0; c < NR; c++)
      if (tb.rd_hs[c] != (c == 0 ? 3u : 2u) || vlb::get(tb.top->rd_req_ready_o, c, 1))
        tb.err("read requests taken while the engine is held:" + got + " (want 3, then 2 each, ready low)");
    tb.slave.cfg.ar_ready_p = 1.0;
    tb.run(200000);
    tb.check_ready_reg = false;
    tb.end("req_port_rd_full_backpressure", " (taken while held:" + got + ")");
  }
  // every client presents on the same cycle: all are taken on that cycle
  {
    tb.begin(); tb.slave.cfg = AxiSlaveCfg::polite(30); tb.ccfg = ClientCfg{};
    tb.check_ready_reg = true;
    Alloc al(tb.rng);
    for (unsigned c = 0; c < NR; c++) tb.add_read(c, 0x9001 + 0x1000 * c + 7 * c, 700 + 100 * c);
    for (unsigned c = 0; c < NW; c++) tb.add_write(c, al.take(600 + 50 * c), 600 + 50 * c);
    uint64_t c0 = tb.cyc;
    tb.run(200000);
    for (unsigned c = 0; c < NR; c++)
      if (tb.rd_hs_cyc[c].size() != 1 || tb.rd_hs_cyc[c][0] != c0) tb.err("read client " + std::to_string(c) + " not taken on the first cycle");
    for (unsigned c = 0; c < NW; c++)
      if (tb.wr_hs_cyc[c].size() != 1 || tb.wr_hs_cyc[c][0] != c0) tb.err("write client " + std::to_string(c) + " not taken on the first cycle");
    tb.check_ready_reg = false;
    tb.end("req_port_all_clients_same_cycle");
  }
  // back to back: one client's requests on consecutive cycles while the engine takes one per
  // cycle (zero-length reads: the splitter stays free; one-beat writes with the data ready)
  {
    tb.begin(); tb.slave.cfg = AxiSlaveCfg::polite(10); tb.ccfg = ClientCfg{};
    const unsigned n = 12;
    for (unsigned i = 0; i < n; i++) tb.add_read(1 % NR, 0x4000 + i, 0);
    Alloc al(tb.rng);
    for (unsigned i = 0; i < n; i++) tb.add_write(NW - 1, (al.take(2 * B) + B - 1) & ~uint64_t(B - 1), B);
    tb.run(200000);
    auto consecutive = [](const std::vector<uint64_t>& v) {
      for (size_t i = 1; i < v.size(); i++) if (v[i] != v[i - 1] + 1) return false;
      return true;
    };
    if (tb.rd_hs_cyc[1 % NR].size() != n || !consecutive(tb.rd_hs_cyc[1 % NR])) tb.err("back-to-back reads not taken on consecutive cycles");
    if (tb.wr_hs_cyc[NW - 1].size() != n || !consecutive(tb.wr_hs_cyc[NW - 1])) tb.err("back-to-back writes not taken on consecutive cycles");
    tb.end("req_port_back_to_back");
  }
  printf("INFO request ports: ready outputs probed against the valid inputs on %llu cycles\n",
         (unsigned long long)tb.ready_probes);
}

static void run_tests(uint64_t seed, bool quick) {
  Tb tb(seed);
  auto t0 = std::chrono::steady_clock::now();
  printf("INFO dma tb: DataWidth=%u clients rd=%u wr=%u seed=%llu\n", DW, NR, NW, (unsigned long long)seed);

  // zero-length requests: a completion, no data, no AXI traffic
  {
    tb.begin(); tb.slave.cfg = AxiSlaveCfg::polite(10); tb.ccfg = ClientCfg{};
    for (unsigned c = 0; c < NR; c++) tb.add_read(c, 0x1234 + c, 0);
    for (unsigned c = 0; c < NW; c++) tb.add_write(c, WR_BASE + 0x777 + c, 0);
    tb.run(10000);
    if (tb.slave.ar_count || tb.slave.aw_count) tb.err("zero-length request caused AXI traffic");
    if (tb.rd_done != NR || tb.wr_done != NW) tb.err("missing zero-length completions");
    tb.end("zero_length");
  }
  sweep_test(tb, "rd_sweep_len_x_off_polite", false, false);
  sweep_test(tb, "wr_sweep_len_x_off_guard_polite", true, false);
  sweep_test(tb, "rd_sweep_len_x_off_hostile", false, true);
  sweep_test(tb, "wr_sweep_len_x_off_guard_hostile", true, true);

  // MaxReadReq / MaxPayload sweeps (runtime limits; the monitor checks every burst size)
  for (unsigned code = 0; code <= 5; code++) {
    tb.mrrs_code = code;
    tb.slave.max_rd_bytes = std::min(128u << code, std::min(MRRS_CAP, 256 * B));
    random_mix(tb, "mrrs_" + std::to_string(128 << code), quick ? 30 : 60, 9000, true, true, false);
  }
  tb.mrrs_code = 5; tb.slave.max_rd_bytes = std::min(MRRS_CAP, 256 * B);
  for (unsigned code = 0; code <= 2; code++) {
    tb.mps_code = code;
    tb.slave.max_wr_bytes = std::min(128u << code, std::min(MPS_CAP, 256 * B));
    random_mix(tb, "mps_" + std::to_string(128 << code), quick ? 30 : 60, 9000, true, false, true);
  }
  tb.mps_code = 2; tb.slave.max_wr_bytes = std::min(MPS_CAP, 256 * B);
  // codes above the parameter caps are clamped to them
  tb.mrrs_code = 7; tb.mps_code = 7;
  random_mix(tb, "cfg_codes_clamped_to_caps", 20, 9000, true, true, true);
  tb.mrrs_code = 5; tb.mps_code = 2;

  // at least 16 reads in flight on distinct IDs
  {
    tb.begin(); tb.slave.cfg = AxiSlaveCfg::polite(400); tb.ccfg = ClientCfg{};
    for (unsigned i = 0; i < 64; i++) tb.add_read(i % NR, 0x20000 + i * 4096, 4096);
    tb.run(200000);
    if (tb.slave.max_rd_inflight < 16) tb.err("only " + std::to_string(tb.slave.max_rd_inflight) + " reads in flight");
    tb.end("rd_16_in_flight", " (max " + std::to_string(tb.slave.max_rd_inflight) + ")");
    printf("INFO max reads in flight: %u\n", tb.slave.max_rd_inflight);
  }

  // error injection: SLVERR / DECERR pages; status reported on exactly the requests touching them
  {
    tb.begin();
    for (unsigned i = 0; i < 12; i++) tb.slave.err_pages[(tb.rng() % (WR_BASE >> 12))] = (i % 2) ? 2 : 3;
    for (unsigned i = 0; i < 8; i++) tb.slave.err_pages[(WR_BASE >> 12) + tb.rng() % 256] = (i % 2) ? 3 : 2;
    for (int mode = 0; mode < 2; mode++) {
      tb.slave.cfg = mode ? AxiSlaveCfg::hostile() : AxiSlaveCfg::polite(20);
      tb.ccfg = mode ? ClientCfg{0.6, 0.7, 0.6} : ClientCfg{};
      Alloc al(tb.rng);
      for (unsigned i = 0; i < 150; i++) {
        uint32_t len = 1 + tb.rng() % 20000;
        // aim half of the requests at an error page
        auto it = tb.slave.err_pages.begin();
        std::advance(it, tb.rng() % 12);
        uint64_t a = (tb.rng() % 2) ? (it->first << 12) - tb.rng() % 9000 + tb.rng() % 4096 : tb.rng() % (WR_BASE - 30000);
        if (a > WR_BASE - 30000) a = tb.rng() % (WR_BASE - 30000);
        tb.add_read(i % NR, a, len);
        uint64_t wa = al.take(len);
        if (i % 3 == 0) wa = (((WR_BASE >> 12) + tb.rng() % 256) << 12) + tb.rng() % 4096;
        bool overlap = false;  // keep write destinations disjoint
        for (unsigned c = 0; c < NW; c++)
          for (auto& w : tb.wr_issue[c]) if (wa < w.addr + w.len + 64 && w.addr < wa + len + 64) overlap = true;
        if (!overlap && wa + len < MEM - 64) tb.add_write(i % NW, wa, len);
      }
      tb.run(20000000);
    }
    if (!tb.rd_err_cpl || !tb.wr_err_cpl) tb.err("no error completion was produced");
    tb.end("err_inject_slverr_decerr", " (" + std::to_string(tb.rd_err_cpl) + " rd / " + std::to_string(tb.wr_err_cpl) + " wr errors)");
    printf("INFO error completions: %llu reads, %llu writes (of %llu / %llu)\n", (unsigned long long)tb.rd_err_cpl,
           (unsigned long long)tb.wr_err_cpl, (unsigned long long)tb.rd_done, (unsigned long long)tb.wr_done);
    tb.slave.err_pages.clear();
  }

  random_mix(tb, "mixed_random_hostile", quick ? 150 : 400, 20000, true, true, true);
  random_mix(tb, "mixed_random_polite", quick ? 100 : 200, 20000, false, true, true);

  // 1 MiB transfers
  {
    tb.begin(); tb.slave.cfg = AxiSlaveCfg::hostile(); tb.ccfg = ClientCfg{0.8, 0.8, 0.8};
    tb.add_read(0, 0x100003, 1u << 20);
    tb.add_write(NW - 1, WR_BASE + 0x1005, 1u << 20);
    tb.run(20000000);
    tb.end("large_1MiB_rd_wr");
  }

  req_port_tests(tb);

  // fairness: every client keeps a queue of requests; all must progress
  {
    tb.begin(); tb.slave.cfg = AxiSlaveCfg::polite(50); tb.ccfg = ClientCfg{};
    for (unsigned i = 0; i < 60 * NR; i++) tb.add_read(i % NR, 0x40000 + (i % 50) * 300, 256);
    for (int k = 0; k < 3000 && tb.busy(); k++) tb.step();
    uint64_t mn = ~0ull, mx = 0;
    for (unsigned c = 0; c < NR; c++) { mn = std::min(mn, tb.done_per_rd_client[c]); mx = std::max(mx, tb.done_per_rd_client[c]); }
    if (mx - mn > 2 || mx == 0) tb.err("unfair service: min " + std::to_string(mn) + " max " + std::to_string(mx));
    tb.run(1000000);
    tb.end("rr_fairness");
  }

#if VM_COVERAGE
  if (const char* f = getenv("DMA_COV_FILE")) tb.ctx->coveragep()->write(f);
#endif
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  printf("INFO simulated %llu cycles in %.1f s (%.0f cycles/s)\n", (unsigned long long)tb.cyc, secs, tb.cyc / secs);
}

static void run_bench(uint64_t seed) {
  printf("INFO dma bench: DataWidth=%u (peak %u B/cycle), slave latency 100 cycles, no backpressure, seed=%llu\n",
         DW, B, (unsigned long long)seed);
  printf("%-6s %10s %12s %10s\n", "dir", "size", "bytes/cycle", "cycles");
  std::vector<uint32_t> sizes = {64, 128, 256, 512, 1024, 4096, 16384, 65536, 262144};
  for (int w = 0; w < 2; w++)
    for (uint32_t s : sizes) {
      Tb tb(seed);
      tb.begin(); tb.slave.cfg = AxiSlaveCfg::polite(100); tb.ccfg = ClientCfg{};
      uint64_t total = std::max<uint64_t>(uint64_t(s) * 8, 512 * 1024);
      unsigned n = unsigned(total / s);
      for (unsigned i = 0; i < n; i++) {
        if (w) tb.add_write(0, WR_BASE + (uint64_t(i) * s) % (2u << 20), s);
        else tb.add_read(0, (uint64_t(i) * s) % (2u << 20), s);
      }
      uint64_t c0 = tb.cyc;
      tb.run(50000000);
      uint64_t cyc = tb.cyc - c0 - 20;
      printf("%-6s %10u %12.2f %10llu\n", w ? "write" : "read", s, double(n) * s / cyc, (unsigned long long)cyc);
      if (tb.errs) printf("FAIL bench_%s_%u %s\n", w ? "wr" : "rd", s, tb.first_err.c_str()), tb_print_rerun(), g_fail++;
    }
  result("bench_completed", g_fail == 0);
}

int main(int argc, char** argv) {
  waves_setup(argc, argv);
  uint64_t seed = 1;
  bool bench = false, quick = false;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], nullptr, 0);
    else if (!strcmp(argv[i], "--bench")) bench = true;
    else if (!strcmp(argv[i], "--quick")) quick = true;
  }
  printf("INFO seed %llu\n", (unsigned long long)seed);
  if (bench) run_bench(seed);
  else run_tests(seed, quick);
  printf("INFO %u passed, %u failed\n", g_pass, g_fail);
  return g_fail ? 1 : 0;
}
