// PCIe timing model driven by a small C++ AXI4 master (no RTL): unloaded read round trip and
// posted-write latency, bandwidth limit, hostile mode (chunked, interleaved completions, random
// backpressure and latency) returning correct data with per-ID order kept, error ranges,
// MSI-X ordered behind writes, and reproducibility for a seed.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <random>
#include <vector>

#include "host/pcie_model.h"
#include "main/sim_program.h"
#include "tb_check.h"

namespace {

constexpr unsigned B = 64;

uint8_t pat(uint64_t a) { return uint8_t((a * 0x9E3779B1u) >> 13 ^ a >> 7); }

struct Rd { uint32_t id; uint64_t addr; unsigned beats; uint64_t ar_cycle = 0, first = 0, last = 0;
            std::vector<uint8_t> data; std::vector<uint32_t> resp; };
struct Wr { uint32_t id; uint64_t addr; unsigned beats; std::vector<uint8_t> data, strb;
            uint64_t last_w = 0, b_cycle = 0; uint32_t bresp = ~0u; };

// A simple AXI4 master: issues queued reads and writes in order (W after its AW), takes R/B.
struct Master {
  std::deque<Rd> rq; std::deque<Wr> wq;
  std::vector<Rd> rdone; std::vector<Wr> wdone;
  std::map<uint32_t, std::deque<Rd>> rout;  // outstanding reads per ID, oldest first
  std::deque<Wr> waw, wb;  // AW issued, W in progress / waiting for B
  unsigned wbeat = 0, max_out = 32, out = 0;
  double rready_p = 1.0, bready_p = 1.0;
  std::mt19937_64 rng{99};
  uint64_t hash = 1469598103934665603ull, errors = 0;
  void mix(uint64_t v) { hash = (hash ^ v) * 1099511628211ull; }
  bool coin(double p) { return p >= 1.0 || std::uniform_real_distribution<double>(0, 1)(rng) < p; }
  bool busy() const { return !rq.empty() || !wq.empty() || out || !waw.empty() || !wb.empty(); }

  void drive(AxiPorts &p) {
    p.arvalid = !rq.empty() && out < max_out;
    if (p.arvalid) { p.arid = rq.front().id; p.araddr = rq.front().addr; p.arlen = rq.front().beats - 1; p.arsize = 6; p.arburst = 1; }
    p.awvalid = !wq.empty();
    if (p.awvalid) { p.awid = wq.front().id; p.awaddr = wq.front().addr; p.awlen = wq.front().beats - 1; p.awsize = 6; p.awburst = 1; }
    p.wvalid = !waw.empty();
    if (p.wvalid) {
      const Wr &w = waw.front();
      std::memcpy(p.wdata.data(), w.data.data() + wbeat * B, B);
      std::memcpy(p.wstrb.data(), w.strb.data() + wbeat * B, B);
      p.wlast = wbeat == w.beats - 1;
    }
    p.rready = coin(rready_p);
    p.bready = coin(bready_p);
  }
  // slave-side stability: a shown R/B stays, unchanged, until taken
  bool r_wait = false, b_wait = false;
  uint32_t r_id = 0, r_resp = 0, b_id = 0, b_resp = 0;
  bool r_last = false;
  std::vector<uint8_t> r_data;
  uint64_t unstable = 0;
  void check_stable(const AxiPorts &p) {
    if (r_wait && !(p.rvalid && p.rid == r_id && p.rresp == r_resp && p.rlast == r_last && p.rdata == r_data)) unstable++;
    if (b_wait && !(p.bvalid && p.bid == b_id && p.bresp == b_resp)) unstable++;
    r_wait = p.rvalid && !p.rready;
    b_wait = p.bvalid && !p.bready;
    if (r_wait) { r_id = p.rid; r_resp = p.rresp; r_last = p.rlast; r_data = p.rdata; }
    if (b_wait) { b_id = p.bid; b_resp = p.bresp; }
  }
  void observe(const AxiPorts &p, uint64_t cyc) {
    check_stable(p);
    if (p.arvalid && p.arready) {
      Rd r = rq.front(); rq.pop_front(); r.ar_cycle = cyc; out++;
      rout[r.id].push_back(r); mix(cyc); mix(r.id);
    }
    if (p.awvalid && p.awready) { waw.push_back(wq.front()); wq.pop_front(); mix(cyc); }
    if (p.wvalid && p.wready) {
      if (++wbeat == waw.front().beats) { Wr w = waw.front(); waw.pop_front(); w.last_w = cyc; wb.push_back(w); wbeat = 0; }
      mix(cyc);
    }
    if (p.rvalid && p.rready) {
      auto &q = rout[p.rid];
      if (q.empty()) { errors++; return; }
      Rd &r = q.front();
      if (r.data.empty()) r.first = cyc;
      r.data.insert(r.data.end(), p.rdata.begin(), p.rdata.end());
      r.resp.push_back(p.rresp);
      bool last = r.data.size() == r.beats * B;
      if (p.rlast != last) errors++;
      mix(cyc); mix(p.rid);
      if (last) { r.last = cyc; rdone.push_back(r); q.pop_front(); out--; }
    }
    if (p.bvalid && p.bready) {
      if (wb.empty() || wb.front().id != p.bid) { errors++; return; }
      Wr w = wb.front(); wb.pop_front(); w.b_cycle = cyc; w.bresp = p.bresp; wdone.push_back(w); mix(cyc);
    }
  }
};

// Runs master and model until the master is done (or max cycles); returns cycles used.
uint64_t run(PcieModel &m, Master &ms, uint64_t max = 2000000, std::function<void(uint64_t)> each = nullptr) {
  AxiPorts p(B);
  uint64_t c0 = m.cycle();
  while (ms.busy() && m.cycle() - c0 < max) {
    m.drive(p);
    ms.drive(p);
    ms.observe(p, m.cycle());
    m.commit(p);
    if (each) each(m.cycle());
  }
  return m.cycle() - c0;
}

bool read_data_ok(const HostMem &mem, const Rd &r) {
  std::vector<uint8_t> exp = mem.read_vec(r.addr, r.beats * B);
  return r.data == exp;
}

// Hostile scenario used twice for reproducibility: mixed reads and writes, repeated IDs.
struct Outcome { uint64_t cycles, hash, errors, ooo, gaps, bad_data, violations, rd_done, wr_done; bool mem_ok; };
Outcome hostile_run(uint64_t seed) {
  HostMem mem;
  for (uint64_t a = 0x10000; a < 0x10000 + 256 * 1024; a++) mem.wr8(a, pat(a));
  PcieCfg cfg; cfg.hostile = true; cfg.seed = seed;
  PcieModel m(mem, cfg);
  Master ms; ms.rready_p = 0.7; ms.bready_p = 0.6; ms.rng.seed(seed + 1000);
  std::mt19937_64 g(seed);
  HostMem ref;  // expected contents of the write region
  for (int i = 0; i < 300; i++) {
    unsigned beats = 1 + g() % 64;
    uint64_t page = 0x10000 + (g() % 64) * 4096, off = (g() % (64 - beats + 1)) * B;
    ms.rq.push_back({uint32_t(g() % 6), page + off, beats});
  }
  for (int i = 0; i < 120; i++) {
    unsigned beats = 1 + g() % 16;
    uint64_t a = 0x200000 + (g() % 16) * 4096 + (g() % (64 - beats + 1)) * B;
    Wr w{uint32_t(g() % 4), a, beats, std::vector<uint8_t>(beats * B), std::vector<uint8_t>(beats * B)};
    for (unsigned k = 0; k < beats * B; k++) {
      w.data[k] = uint8_t(g());
      w.strb[k] = g() % 4 != 0;
      if (w.strb[k]) ref.wr8(a + k, w.data[k]);
    }
    ms.wq.push_back(w);
  }
  Outcome o{};
  o.cycles = run(m, ms);
  for (int k = 0; k < 100 && !m.idle(); k++) run(m, ms, 1);  // nothing outstanding
  o.hash = ms.hash; o.errors = ms.errors + ms.unstable; o.ooo = m.stats.ooo_chunks; o.gaps = m.stats.r_gaps; o.violations = m.violations;
  for (auto &r : ms.rdone) o.bad_data += !read_data_ok(mem, r);
  o.rd_done = ms.rdone.size(); o.wr_done = ms.wdone.size();
  o.mem_ok = mem.read_vec(0x200000, 16 * 4096) == ref.read_vec(0x200000, 16 * 4096);
  return o;
}

int test_pcie(int argc, char **argv) {
  uint64_t seed = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : 1;
  std::printf("INFO seed %llu\n", (unsigned long long)seed);
  TbResults r;

  {  // unloaded latency, polite mode
    HostMem mem;
    for (uint64_t a = 0x1000; a < 0x3000; a++) mem.wr8(a, pat(a));
    PcieModel m(mem);
    Master ms;
    ms.rq.push_back({1, 0x1000, 1});
    run(m, ms);
    const Rd &a = ms.rdone.at(0);
    r.check(a.first - a.ar_cycle == 125 && read_data_ok(mem, a), "pcie-read-round-trip-500ns",
            "%llu cycles", (unsigned long long)(a.first - a.ar_cycle));
    ms.rq.push_back({2, 0x2000, 64});
    run(m, ms);
    const Rd &b = ms.rdone.at(1);
    // 4 KiB = 64 beats; 16 completions of 256 B each cost 24 B more on the link: <= 70 beat times
    r.check(b.first - b.ar_cycle == 125 && b.last - b.first >= 63 && b.last - b.first <= 71 && read_data_ok(mem, b),
            "pcie-read-4k-round-trip-within-beat-count", "first %llu span %llu",
            (unsigned long long)(b.first - b.ar_cycle), (unsigned long long)(b.last - b.first));

    Wr w{3, 0x8000, 4, std::vector<uint8_t>(4 * B, 0x5A), std::vector<uint8_t>(4 * B, 1)};
    ms.wq.push_back(w);
    bool early = false;
    uint64_t wlast = 0;
    run(m, ms, 1000000, [&](uint64_t) {
      if (!ms.wb.empty() && !wlast) wlast = m.cycle();
      if (wlast && m.cycle() < wlast + 60 && mem.rd8(0x8000) != 0) early = true;
    });
    const Wr &wd = ms.wdone.at(0);
    uint64_t lat = wd.b_cycle - wd.last_w;
    r.check(!early && lat >= 63 && lat <= 64 && mem.rd32(0x8000 + 4 * B - 4) == 0x5A5A5A5Au,
            "pcie-posted-write-250ns", "B after %llu cycles, early %d", (unsigned long long)lat, early);
    r.check(m.stats.rd_reqs == 2 && m.stats.rd_bytes == 65 * B && m.stats.wr_reqs == 1 && m.stats.wr_bytes == 4 * B &&
                m.stats.r_beats == 65 && m.stats.w_beats == 4 && m.violations == 0,
            "pcie-counters", "%llu %llu", (unsigned long long)m.stats.rd_bytes, (unsigned long long)m.stats.wr_bytes);
  }

  {  // bandwidth: 256 reads of 4 KiB with 32 outstanding, then 256 writes of 4 KiB
    HostMem mem;
    PcieModel m(mem);
    Master ms;
    for (int i = 0; i < 256; i++) ms.rq.push_back({uint32_t(i % 32), 0x100000 + uint64_t(i) * 4096, 64});
    run(m, ms);
    double ns = double(ms.rdone.back().last - ms.rdone.front().first + 1) * 4.0;
    double gbs = 255.0 * 4096 / ns;  // the first read's bytes start the clock
    double expect = 16.0 * 256 / 280;
    std::printf("INFO pcie read bandwidth %.2f GB/s (link %.2f GB/s, payload share %.2f GB/s)\n", gbs, 16.0, expect);
    r.check(gbs > expect * 0.97 && gbs < expect * 1.03, "pcie-read-bandwidth-limit", "%.2f GB/s", gbs);
    for (int i = 0; i < 256; i++)
      ms.wq.push_back({uint32_t(i % 32), 0x900000 + uint64_t(i) * 4096, 64, std::vector<uint8_t>(4096, uint8_t(i)),
                       std::vector<uint8_t>(4096, 1)});
    uint64_t t0 = m.cycle();
    run(m, ms);
    double wns = double(ms.wdone.back().last_w - t0) * 4.0;
    double wgbs = 256.0 * 4096 / wns;
    std::printf("INFO pcie write bandwidth %.2f GB/s\n", wgbs);
    r.check(wgbs > expect * 0.97 && wgbs < expect * 1.03 && mem.rd8(0x900000 + 255 * 4096 + 7) == 255,
            "pcie-write-bandwidth-limit", "%.2f GB/s", wgbs);
  }

  {  // error ranges
    HostMem mem;
    PcieCfg cfg;
    cfg.errs.push_back({0x90000000ull, 4096, 2, true, false});
    cfg.errs.push_back({0xA0000000ull, 4096, 3, false, true});
    mem.fill(0x90000000ull, 0x77, 8192);
    PcieModel m(mem, cfg);
    Master ms;
    ms.rq.push_back({1, 0x90000F00ull, 4});
    ms.rq.push_back({2, 0x90001000ull, 2});
    ms.wq.push_back({3, 0xA0000040ull, 2, std::vector<uint8_t>(2 * B, 0x11), std::vector<uint8_t>(2 * B, 1)});
    ms.wq.push_back({4, 0xA0001000ull, 1, std::vector<uint8_t>(B, 0x22), std::vector<uint8_t>(B, 1)});
    run(m, ms);
    const Rd &e = ms.rdone.at(0), &ok = ms.rdone.at(1);
    bool all_err = true;
    for (auto v : e.resp) all_err = all_err && v == 2;
    bool zero = true;
    for (auto v : e.data) zero = zero && v == 0;
    r.check(all_err && zero && ok.resp == std::vector<uint32_t>(2, 0) && ok.data[0] == 0x77, "pcie-read-slverr-range");
    r.check(ms.wdone.at(0).bresp == 3 && mem.rd8(0xA0000040ull) == 0 && ms.wdone.at(1).bresp == 0 &&
                mem.rd8(0xA0001000ull) == 0x22 && m.stats.err_reads == 1 && m.stats.err_writes == 1,
            "pcie-write-decerr-range-drops-data");
  }

  {  // MSI-X is a posted write ordered behind the DMA write before it
    HostMem mem;
    PcieModel m(mem);
    Master ms;
    ms.wq.push_back({0, 0x4000, 1, std::vector<uint8_t>(B, 0xC3), std::vector<uint8_t>(B, 1)});
    bool posted = false, seen = false, data_first = false;
    uint64_t post_cycle = 0, msix_cycle = 0;
    ms.bready_p = 1.0;
    AxiPorts p(B);
    for (int i = 0; i < 400; i++) {
      m.drive(p);
      ms.drive(p);
      ms.observe(p, m.cycle());
      bool wdone = p.wvalid && p.wready && p.wlast;
      m.commit(p);
      if (wdone && !posted) { m.post_msix(9); posted = true; post_cycle = m.cycle(); }
      unsigned v;
      if (m.take_msix(&v) && v == 9 && !seen) { seen = true; msix_cycle = m.cycle(); data_first = mem.rd8(0x4000) == 0xC3; }
    }
    r.check(seen && data_first && msix_cycle - post_cycle >= 62 && m.stats.msix_msgs == 1, "pcie-msix-after-prior-write",
            "seen %d data %d after %llu", seen, data_first, (unsigned long long)(msix_cycle - post_cycle));
  }

  {  // hostile mode
    Outcome a = hostile_run(seed), b = hostile_run(seed), c = hostile_run(seed + 1);
    std::printf("INFO pcie hostile: %llu cycles, %llu out-of-order completion chunks, hash %016llx\n",
                (unsigned long long)a.cycles, (unsigned long long)a.ooo, (unsigned long long)a.hash);
    r.check(a.rd_done == 300 && a.wr_done == 120 && a.errors == 0 && a.violations == 0, "pcie-hostile-all-complete",
            "rd %llu wr %llu err %llu viol %llu", (unsigned long long)a.rd_done, (unsigned long long)a.wr_done,
            (unsigned long long)a.errors, (unsigned long long)a.violations);
    r.check(a.bad_data == 0, "pcie-hostile-read-data-correct-per-id-order", "%llu bad", (unsigned long long)a.bad_data);
    r.check(a.mem_ok, "pcie-hostile-writes-land-with-strobes");
    r.check(a.ooo > 50 && a.gaps > 50, "pcie-hostile-reorders-across-ids-with-gaps", "%llu %llu",
            (unsigned long long)a.ooo, (unsigned long long)a.gaps);
    r.check(a.cycles == b.cycles && a.hash == b.hash, "pcie-hostile-reproducible-for-seed");
    r.check(c.hash != a.hash && c.bad_data == 0 && c.mem_ok, "pcie-hostile-other-seed-differs-still-correct");
  }
  return r.exit_code();
}

SimProgram reg("test-pcie", "PCIe timing model with a C++ AXI master: latency, bandwidth, hostile, errors [SEED]", test_pcie);

}  // namespace
