// tb_mkey: testbench of the memory-key table (rtl/mkey/mkey_table.sv) against a C++ reference model.
// Seeded and deterministic. Built with -DTB_NUM_KEYS/-DTB_NUM_MTT/-DTB_NUM_PORTS matching the
// -G parameters of the verilated model. Options: --seed N, --lookups N.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "Vmkey_table.h"
#include "main/sim_waves.h"
#include "rnic_spec.h"
#include "tb_check.h"
#include "verilated.h"

#ifndef TB_NUM_KEYS
#define TB_NUM_KEYS 4096
#endif
#ifndef TB_NUM_MTT
#define TB_NUM_MTT 65536
#endif
#ifndef TB_NUM_PORTS
#define TB_NUM_PORTS 1
#endif

static constexpr uint32_t NK = TB_NUM_KEYS, NM = TB_NUM_MTT;
static constexpr unsigned NP = TB_NUM_PORTS;
static constexpr unsigned LATENCY = 5;  // accept edge to response valid, in cycles
enum { ST_OK, ST_BAD_KEY, ST_BAD_PD, ST_BAD_ACCESS, ST_OOB, ST_BAD_XLATE, ST_N };
static const char *st_name[ST_N] = {"OK", "BAD_KEY", "BAD_PD", "BAD_ACCESS", "OUT_OF_BOUNDS", "BAD_XLATE"};
enum { WR_MPT = 0, WR_MTT = 1, INV_MPT = 2 };
enum { A_LW = 1, A_RW = 2, A_RR = 4, A_RA = 8 };

// ---- bit access on Verilator signals of any width ------------------------------------------------
template <typename T> static uint64_t getb(const T &s, unsigned lsb, unsigned w) {
  uint64_t m = w >= 64 ? ~0ull : ((1ull << w) - 1);
  if constexpr (std::is_integral_v<T>) {
    return (uint64_t(s) >> lsb) & m;
  } else {
    uint64_t v = 0;
    for (unsigned i = 0; i < w; i++) v |= uint64_t((s[(lsb + i) / 32] >> ((lsb + i) % 32)) & 1) << i;
    return v;
  }
}
template <typename T> static void setb(T &s, unsigned lsb, unsigned w, uint64_t v) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    uint64_t m = (w >= 64 ? ~0ull : ((1ull << w) - 1)) << lsb;
    s = T((uint64_t(U(s)) & ~m) | ((v << lsb) & m));
  } else {
    for (unsigned i = 0; i < w; i++) {
      unsigned b = lsb + i;
      uint32_t m = 1u << (b % 32);
      if ((v >> i) & 1) s[b / 32] |= m; else s[b / 32] &= ~m;
    }
  }
}

// ---- reference model -----------------------------------------------------------------------------
struct Mpt {
  bool valid = false;
  uint8_t access = 0, shift = 12, variant = 0;
  uint32_t pdn = 0;
  uint64_t iova = 0, len = 0;
  uint32_t mtt_base = 0, fpo = 0;
};
struct Req {
  uint32_t key = 0, pdn = 0;
  uint64_t va = 0;
  uint32_t len = 0;
  uint8_t acc = 0;
  bool local = false;
  uint8_t tag = 0;
};
struct Rsp {
  uint8_t st = 0;
  uint64_t addr = 0;
  uint32_t left = 0;
  uint8_t tag = 0;
};
struct Wr {
  unsigned op = 0;
  uint32_t index = 0;
  Mpt mpt;
  uint64_t mtt = 0;
};

struct Model {
  std::vector<Mpt> mpt = std::vector<Mpt>(NK);
  std::vector<uint64_t> mtt = std::vector<uint64_t>(NM, 0);
  void apply(const Wr &w) {
    if (w.op == WR_MPT && w.index < NK) mpt[w.index] = w.mpt;
    if (w.op == INV_MPT && w.index < NK) mpt[w.index] = Mpt();
    if (w.op == WR_MTT && w.index < NM) mtt[w.index] = w.mtt;
  }
  Rsp lookup(const Req &r) const {
    Rsp o;
    o.tag = r.tag;
    uint32_t idx = r.key >> 8;
    if (idx >= NK || !mpt[idx].valid || mpt[idx].variant != (r.key & 0xff)) { o.st = ST_BAD_KEY; return o; }
    const Mpt &e = mpt[idx];
    if (e.pdn != r.pdn) { o.st = ST_BAD_PD; return o; }
    uint8_t need = r.local ? (r.acc & A_LW) : (r.acc & 0xf);
    if (need & ~e.access) { o.st = ST_BAD_ACCESS; return o; }
    if (r.len == 0) { o.st = ST_OK; return o; }  // zero length: any va, no translation
    if (r.va < e.iova || (unsigned __int128)(r.va - e.iova) + r.len > e.len) { o.st = ST_OOB; return o; }
    if (e.shift < 12 || e.shift > 30) { o.st = ST_BAD_XLATE; return o; }
    unsigned __int128 rel = (unsigned __int128)(r.va - e.iova) + e.fpo;
    unsigned __int128 mi = (rel >> e.shift) + e.mtt_base;
    if (mi >= NM || !(mtt[uint32_t(mi)] & 1)) { o.st = ST_BAD_XLATE; return o; }
    uint64_t mask = (1ull << e.shift) - 1, poff = uint64_t(rel) & mask;
    o.st = ST_OK;
    o.addr = (mtt[uint32_t(mi)] & ~mask) | poff;
    o.left = uint32_t((1ull << e.shift) - poff);
    return o;
  }
};

// The entry as the firmware writes it: bytes through the generated C accessors of spec/rnic.toml.
static void pack_mpt(const Mpt &e, uint8_t b[32]) {
  std::memset(b, 0, 32);
  rnic_mpt_entry_set_valid(b, e.valid);
  rnic_mpt_entry_set_access(b, e.access);
  rnic_mpt_entry_set_page_shift(b, e.shift);
  rnic_mpt_entry_set_key_variant(b, e.variant);
  rnic_mpt_entry_set_pdn(b, e.pdn);
  rnic_mpt_entry_set_iova(b, e.iova);
  rnic_mpt_entry_set_length(b, e.len);
  rnic_mpt_entry_set_mtt_base(b, e.mtt_base);
  rnic_mpt_entry_set_first_page_offset(b, e.fpo);
}

// ---- harness -------------------------------------------------------------------------------------
struct Port {
  std::deque<Req> q;
  bool vld = false;
  Req cur;
  std::deque<Rsp> exp;
  double p_valid = 1.0, p_ready = 1.0;
  uint8_t next_tag = 0;
  uint64_t accepted = 0, responses = 0, bubbles = 0;
  uint64_t accept_cycle_first = 0, rsp_cycle_first = 0;
  Rsp last;  // last response seen from the RTL
};

struct Tb {
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<Vmkey_table> top;
  Waves waves;  // FST when asked for (sim/main/sim_waves.h)
  std::mt19937_64 rng;
  Model model;
  Port port[NP];
  std::deque<Wr> wq;
  bool wvld = false;
  Wr wcur;
  double p_wvalid = 1.0;
  uint64_t cycle = 0, mismatches = 0, status_seen[ST_N] = {};
  bool count_bubbles = false;
  std::string first_mismatch;

  explicit Tb(uint64_t seed) : ctx(new VerilatedContext), rng(seed) {
    ctx->randSeed(int(seed & 0x7fffffff));
    top.reset(new Vmkey_table(ctx.get()));
    waves.open(top.get(), "mkey");
  }
  double uni() { return std::uniform_real_distribution<double>(0, 1)(rng); }
  uint64_t r64() { return rng(); }
  uint64_t rnd(uint64_t n) { return n ? rng() % n : 0; }

  void drive() {
    for (unsigned p = 0; p < NP; p++) {
      Port &P = port[p];
      if (!P.vld && !P.q.empty() && uni() < P.p_valid) {
        P.cur = P.q.front();
        P.q.pop_front();
        P.cur.tag = P.next_tag++;
        P.vld = true;
      }
      setb(top->req_valid_i, p, 1, P.vld);
      // garbage on the request fields while not valid
      Req r = P.vld ? P.cur : Req{uint32_t(r64()), uint32_t(r64()), r64(), uint32_t(r64()), uint8_t(r64()), bool(r64() & 1), 0};
      setb(top->req_key_i, 32 * p, 32, r.key);
      setb(top->req_pdn_i, 32 * p, 32, r.pdn);
      setb(top->req_va_i, 64 * p, 64, r.va);
      setb(top->req_len_i, 32 * p, 32, r.len);
      setb(top->req_access_i, 4 * p, 4, r.acc);
      setb(top->req_local_i, p, 1, r.local);
      setb(top->req_tag_i, 8 * p, 8, r.tag);
      setb(top->rsp_ready_i, p, 1, uni() < P.p_ready);
    }
    if (!wvld && !wq.empty() && uni() < p_wvalid) {
      wcur = wq.front();
      wq.pop_front();
      wvld = true;
    }
    top->wr_valid_i = wvld;
    top->wr_op_i = wcur.op;
    top->wr_index_i = wcur.index;
    uint8_t b[32];
    if (wcur.op == WR_MTT) {
      std::memset(b, 0, 32);
      rnic_mtt_entry_set_page_addr(b, wcur.mtt);
    } else {
      pack_mpt(wcur.mpt, b);
    }
    for (unsigned i = 0; i < 32; i++) setb(top->wr_data_i, 8 * i, 8, b[i]);
  }

  void mismatch(const std::string &m) {
    if (mismatches++ == 0) first_mismatch = m;
  }

  void step() {
    drive();
    top->clk_i = 0;
    waves.eval(*top);
    bool wfire = wvld && top->wr_ready_o;
    bool any_accept = false;
    for (unsigned p = 0; p < NP; p++) {
      Port &P = port[p];
      bool rv = getb(top->rsp_valid_o, p, 1), rr = getb(top->rsp_ready_i, p, 1);
      if (count_bubbles && rr && !rv && P.responses > 0 && (!P.exp.empty() || P.vld || !P.q.empty())) P.bubbles++;
      if (rv && rr) {
        Rsp a;
        a.st = uint8_t(getb(top->rsp_status_o, 3 * p, 3));
        a.addr = getb(top->rsp_addr_o, 64 * p, 64);
        a.left = uint32_t(getb(top->rsp_page_left_o, 32 * p, 32));
        a.tag = uint8_t(getb(top->rsp_tag_o, 8 * p, 8));
        P.last = a;
        if (P.responses++ == 0) P.rsp_cycle_first = cycle;
        if (P.exp.empty()) {
          mismatch("port " + std::to_string(p) + ": response without request");
        } else {
          Rsp e = P.exp.front();
          P.exp.pop_front();
          if (a.st < ST_N) status_seen[a.st]++;
          if (a.st != e.st || a.addr != e.addr || a.left != e.left || a.tag != e.tag) {
            char buf[256];
            std::snprintf(buf, sizeof buf,
                          "port %u cycle %llu: got st=%u addr=%016llx left=%u tag=%u, want st=%u addr=%016llx left=%u tag=%u",
                          p, (unsigned long long)cycle, a.st, (unsigned long long)a.addr, a.left, a.tag, e.st,
                          (unsigned long long)e.addr, e.left, e.tag);
            mismatch(buf);
          }
        }
      }
      if (P.vld && getb(top->req_ready_o, p, 1)) {
        any_accept = true;
        if (P.accepted++ == 0) P.accept_cycle_first = cycle;
        P.exp.push_back(model.lookup(P.cur));
        P.vld = false;
      }
    }
    if (wfire) {
      if (any_accept) mismatch("write accepted in the same cycle as a lookup");
      model.apply(wcur);
      wvld = false;
    }
    top->clk_i = 1;
    waves.eval(*top);
    cycle++;
  }

  bool idle() const {
    if (wvld || !wq.empty()) return false;
    for (unsigned p = 0; p < NP; p++)
      if (port[p].vld || !port[p].q.empty() || !port[p].exp.empty()) return false;
    return true;
  }
  // runs until everything queued is done; false on timeout
  bool drain(uint64_t max_cycles = 50000000) {
    uint64_t end = cycle + max_cycles;
    while (!idle() && cycle < end) step();
    return idle();
  }
  void reset() {
    top->rst_ni = 0;
    top->clk_i = 0;
    top->wr_valid_i = 0;
    top->req_valid_i = 0;
    waves.eval(*top);
    for (int i = 0; i < 4; i++) {
      top->clk_i = 1; waves.eval(*top); top->clk_i = 0; waves.eval(*top);
    }
    top->rst_ni = 1;
    waves.eval(*top);
  }
  void set_rates(double pv, double pr, double pw = 1.0) {
    for (unsigned p = 0; p < NP; p++) { port[p].p_valid = pv; port[p].p_ready = pr; }
    p_wvalid = pw;
  }

  // ---- writes --------------------------------------------------------------------------------
  void wr_mpt(uint32_t idx, const Mpt &e) { Wr w; w.op = WR_MPT; w.index = idx; w.mpt = e; wq.push_back(w); }
  void wr_mtt(uint32_t idx, uint64_t v) { Wr w; w.op = WR_MTT; w.index = idx; w.mtt = v; wq.push_back(w); }
  void inv_mpt(uint32_t idx) { Wr w; w.op = INV_MPT; w.index = idx; wq.push_back(w); }

  // one request through port p alone; returns the RTL response (checked against the model too)
  Rsp one(const Req &r, unsigned p = 0) {
    port[p].q.push_back(r);
    drain();
    return port[p].last;
  }
};

// ---- random memory regions -----------------------------------------------------------------------
struct Gen {
  Tb &tb;
  uint32_t mtt_next = 0;
  std::vector<uint32_t> used;  // MPT indices programmed at least once
  explicit Gen(Tb &t) : tb(t) {}

  uint8_t pick_shift() {
    double u = tb.uni();
    if (u < 0.40) return 12;
    if (u < 0.70) return 21;
    if (u < 0.98) return uint8_t(12 + tb.rnd(19));
    static const uint8_t bad[] = {0, 11, 31, 40};
    return bad[tb.rnd(4)];
  }
  Mpt make(uint8_t variant) {
    Mpt e;
    e.valid = tb.uni() < 0.92;
    e.access = uint8_t(tb.rnd(256));
    e.shift = pick_shift();
    e.variant = variant;
    e.pdn = uint32_t(1 + tb.rnd(6));
    unsigned sh = (e.shift >= 12 && e.shift <= 30) ? e.shift : 12;
    uint64_t page = 1ull << sh;
    double u = tb.uni();
    if (u < 0.45) e.len = 1 + tb.rnd(3 * page);
    else if (u < 0.85) e.len = 1 + tb.rnd(40 * std::min<uint64_t>(page, 1ull << 16));
    else if (u < 0.95) e.len = tb.rnd(4096);  // includes zero-length regions
    else e.len = 1ull << (32 + tb.rnd(20));   // too many pages for the MTT
    u = tb.uni();
    if (u < 0.10) e.iova = 0 - e.len - tb.rnd(3);           // touches (or nearly) the top of the space
    else if (u < 0.15) e.iova = tb.rnd(2);                  // bottom
    else e.iova = tb.r64() & ~0ull >> (tb.rnd(3) * 8);
    if (e.iova + e.len < e.iova && e.len) e.iova = 0 - e.len;  // region stays inside 2^64
    e.fpo = tb.uni() < 0.8 ? uint32_t(e.iova & (page - 1)) : uint32_t(tb.rnd(page));
    uint64_t pages = (uint64_t(e.fpo) + e.len + page - 1) >> sh;
    if (pages <= 256 && tb.uni() < 0.95) {
      if (mtt_next + pages > NM) mtt_next = 0;
      e.mtt_base = mtt_next;
      mtt_next += uint32_t(pages);
      for (uint64_t i = 0; i < pages && e.mtt_base + i < NM; i++) {
        uint64_t pa = (tb.r64() & ~(page - 1)) | (tb.uni() < 0.97 ? 1 : 0);
        tb.wr_mtt(uint32_t(e.mtt_base + i), pa);
      }
    } else {
      e.mtt_base = uint32_t(tb.uni() < 0.5 ? NM - tb.rnd(8) : tb.r64());
    }
    return e;
  }
  void program(uint32_t idx) {
    Mpt e = make(uint8_t(tb.rnd(256)));
    tb.wr_mpt(idx, e);
    used.push_back(idx);
  }
  // a lookup biased toward interesting cases of an existing entry
  Req lookup() {
    Req r;
    if (used.empty() || tb.uni() < 0.15) {
      r.key = uint32_t(tb.uni() < 0.5 ? tb.r64() : (tb.rnd(NK + 16) << 8 | tb.rnd(256)));
      r.pdn = uint32_t(tb.rnd(8));
      r.va = tb.r64();
      r.len = uint32_t(tb.rnd(1u << 16));
      r.acc = uint8_t(tb.rnd(16));
      r.local = tb.uni() < 0.3;
      return r;
    }
    uint32_t idx = used[tb.rnd(used.size())];
    const Mpt &e = tb.model.mpt[idx];  // current contents (maybe invalidated or re-registered)
    r.key = idx << 8 | (tb.uni() < 0.93 ? e.variant : uint32_t(tb.rnd(256)));
    r.pdn = tb.uni() < 0.93 ? e.pdn : uint32_t(tb.rnd(8));
    r.acc = uint8_t(tb.uni() < 0.9 ? (e.access & tb.rnd(16)) : tb.rnd(16));
    r.local = tb.uni() < 0.3;
    unsigned sh = (e.shift >= 12 && e.shift <= 30) ? e.shift : 12;
    uint64_t page = 1ull << sh;
    uint64_t maxlen = std::min<uint64_t>(e.len, 0xffffffffull);
    double u = tb.uni();
    if (u < 0.05) {
      r.len = 0;
      r.va = tb.uni() < 0.5 ? tb.r64() : e.iova;
    } else if (u < 0.50) {  // anywhere inside
      r.len = uint32_t(1 + tb.rnd(std::min<uint64_t>(maxlen, 1ull << (tb.rnd(4) ? 14 : 32))));
      r.va = e.iova + tb.rnd(e.len - std::min<uint64_t>(r.len, e.len) + 1);
    } else if (u < 0.65) {  // ending at or one past the end
      r.len = uint32_t(1 + tb.rnd(std::min<uint64_t>(maxlen, 1 << 13)));
      r.va = e.iova + e.len - r.len + tb.rnd(2);
    } else if (u < 0.75) {  // at or one before the start
      r.len = uint32_t(1 + tb.rnd(std::min<uint64_t>(maxlen, 1 << 13)));
      r.va = e.iova - tb.rnd(2);
    } else if (u < 0.88) {  // around a page boundary of the region
      uint64_t pb = ((e.iova - e.fpo) & ~(page - 1)) + page * (1 + tb.rnd(4));
      r.va = pb - tb.rnd(3) + tb.rnd(3);
      r.len = uint32_t(1 + tb.rnd(8));
    } else if (u < 0.94) {  // va + len beyond 2^64
      r.va = 0 - tb.rnd(1u << 12) - 1;
      r.len = uint32_t(1 + tb.rnd(0xffffffffull));
    } else {
      r.va = tb.r64();
      r.len = uint32_t(tb.r64());
    }
    return r;
  }
};

static void report_mismatch(Tb &tb, TbResults &res, const char *name) {
  res.check(tb.mismatches == 0, name, "%llu mismatches, first: %s", (unsigned long long)tb.mismatches,
            tb.first_mismatch.c_str());
  tb.mismatches = 0;
  tb.first_mismatch.clear();
}

int main(int argc, char **argv) {
  waves_setup(argc, argv);
  uint64_t seed = 1, lookups = 100000;
  for (int i = 1; i < argc; i++) {
    if (!std::strcmp(argv[i], "--seed") && i + 1 < argc) seed = std::strtoull(argv[++i], nullptr, 0);
    else if (!std::strcmp(argv[i], "--lookups") && i + 1 < argc) lookups = std::strtoull(argv[++i], nullptr, 0);
  }
  std::printf("INFO mkey seed %llu NumKeys %u NumMtt %u NumPorts %u\n", (unsigned long long)seed, NK, NM, NP);
  TbResults res;
  Tb tb(seed);
  tb.reset();

  // ---- clear after reset ----------------------------------------------------------------------
  {
    uint64_t n = 0;
    while (!tb.top->init_done_o && n < 4u * (NK > NM ? NK : NM)) { tb.step(); n++; }
    res.check(tb.top->init_done_o && n >= (NK > NM ? NK : NM) - 1, "init-clear-done", "init_done after %llu cycles",
              (unsigned long long)n);
    // every key of a never-written table is BAD_KEY, even variant 0 and an all-zero request
    bool ok = true;
    for (uint32_t i = 0; i < 64; i++) {
      Req r;
      r.key = uint32_t(tb.rnd(NK)) << 8;
      r.len = i & 1;
      ok &= tb.one(r, i % NP).st == ST_BAD_KEY;
    }
    res.check(ok && tb.mismatches == 0, "cleared-table-bad-key");
  }

  Gen gen(tb);
  // ---- directed cases on hand-made entries ---------------------------------------------------
  {
    tb.set_rates(1, 1);
    const uint32_t A = 5 % NK, B = 6 % NK, C = 7 % NK, T = 8 % NK;
    Mpt a;  // 4 KiB pages, iova not page aligned, 3 pages
    a.valid = true; a.access = 0xf; a.shift = 12; a.variant = 0x3c; a.pdn = 7;
    a.iova = 0x7000'1234'5000ull + 0x321; a.len = 3 * 4096 - 0x321 - 5; a.mtt_base = 100; a.fpo = 0x321;
    for (int i = 0; i < 3; i++) tb.wr_mtt(100 + i, 0xABC0'0000'0000ull + 0x10'0000ull * i + 0x1000 * i + 1);
    tb.wr_mpt(A, a);
    Mpt b;  // 2 MiB pages
    b.valid = true; b.access = A_RR | A_RW; b.shift = 21; b.variant = 0x01; b.pdn = 9;
    b.iova = 0x40'0000'0000ull; b.len = 4ull << 21; b.mtt_base = 200; b.fpo = 0;
    for (int i = 0; i < 4; i++) tb.wr_mtt(200 + i, (0x5ull << 40) + (uint64_t(7 - i) << 21) + 1);
    tb.wr_mpt(B, b);
    Mpt c;  // region ending exactly at 2^64
    c.valid = true; c.access = 0xf; c.shift = 12; c.variant = 0x77; c.pdn = 3;
    c.iova = 0 - 0x2000ull; c.len = 0x2000; c.mtt_base = 300; c.fpo = 0;
    tb.wr_mtt(300, 0x1111'0000'0000ull | 1); tb.wr_mtt(301, 0x2222'0000'0000ull | 1);
    tb.wr_mpt(C, c);
    const uint32_t D = 10 % NK;
    Mpt d;  // the whole 64-bit space but one byte: offset + length overflows 64 bits
    d.valid = true; d.access = 0xf; d.shift = 30; d.variant = 0x99; d.pdn = 4;
    d.iova = 0; d.len = ~0ull; d.mtt_base = 0; d.fpo = 0;
    tb.wr_mpt(D, d);
    tb.drain();
    auto key = [](uint32_t idx, const Mpt &e) { return idx << 8 | e.variant; };
    auto rq = [&](uint32_t k, uint32_t pdn, uint64_t va, uint32_t len, uint8_t acc, bool local = false) {
      Req r; r.key = k; r.pdn = pdn; r.va = va; r.len = len; r.acc = acc; r.local = local; return r;
    };
    struct Case { const char *name; Req r; int st; };
    uint64_t aend = a.iova + a.len;
    std::vector<Case> cases = {
      {"first-byte", rq(key(A, a), 7, a.iova, 1, A_RW), ST_OK},
      {"whole-region", rq(key(A, a), 7, a.iova, uint32_t(a.len), A_RR), ST_OK},
      {"last-byte", rq(key(A, a), 7, aend - 1, 1, A_RW), ST_OK},
      {"one-past-end", rq(key(A, a), 7, aend, 1, A_RW), ST_OOB},
      {"last-byte-len2", rq(key(A, a), 7, aend - 1, 2, A_RW), ST_OOB},
      {"one-before-start", rq(key(A, a), 7, a.iova - 1, 1, A_RW), ST_OOB},
      {"one-before-start-len2", rq(key(A, a), 7, a.iova - 1, 2, A_RW), ST_OOB},
      {"zero-length-far-va", rq(key(A, a), 7, 0xdead'beef'0000'0000ull, 0, A_RW), ST_OK},
      {"zero-length-va-max", rq(key(A, a), 7, ~0ull, 0, A_RW), ST_OK},
      {"zero-length-bad-pd", rq(key(A, a), 8, a.iova, 0, A_RW), ST_BAD_PD},
      {"zero-length-stale-key", rq(key(A, a) ^ 1, 7, a.iova, 0, 0), ST_BAD_KEY},
      {"wrap-va-len", rq(key(A, a), 7, ~0ull - 3, 16, A_RW), ST_OOB},
      {"wrap-va-len-top-region", rq(key(C, c), 3, ~0ull, 2, A_RW), ST_OOB},
      {"top-region-last-byte", rq(key(C, c), 3, ~0ull, 1, A_RW), ST_OK},
      {"top-region-whole", rq(key(C, c), 3, c.iova, 0x2000, A_RW), ST_OK},
      {"wrap-offset-plus-len-65bit", rq(key(D, d), 4, ~0ull - 1, 4, A_RW), ST_OOB},
      {"max-region-last-byte-no-mtt", rq(key(D, d), 4, ~0ull - 1, 1, A_RW), ST_BAD_XLATE},
      {"top-region-huge-len", rq(key(C, c), 3, c.iova, 0xffffffffu, A_RW), ST_OOB},
      {"wrong-pd", rq(key(A, a), 6, a.iova, 8, A_RW), ST_BAD_PD},
      {"wrong-variant", rq(key(A, a) ^ 0x80, 7, a.iova, 8, A_RW), ST_BAD_KEY},
      {"index-beyond-numkeys", rq(NK << 8 | a.variant, 7, a.iova, 8, 0), ST_BAD_KEY},
      {"index-max", rq(0xffffff00u | a.variant, 7, a.iova, 8, 0), ST_BAD_KEY},
      {"missing-remote-write", rq(key(B, b), 9, b.iova, 8, A_RW | A_RA), ST_BAD_ACCESS},
      {"missing-remote-atomic", rq(key(B, b), 9, b.iova, 8, A_RA), ST_BAD_ACCESS},
      {"missing-local-write", rq(key(B, b), 9, b.iova, 8, A_LW), ST_BAD_ACCESS},
      {"missing-local-write-lkey", rq(key(B, b), 9, b.iova, 8, A_LW, true), ST_BAD_ACCESS},
      {"lkey-ignores-remote-rights", rq(key(B, b), 9, b.iova, 8, A_RA | A_RW, true), ST_OK},
      {"has-remote-read", rq(key(B, b), 9, b.iova, 8, A_RR), ST_OK},
      {"2m-page-cross-split", rq(key(B, b), 9, b.iova + (1ull << 21) - 3, 16, A_RW), ST_OK},
      {"2m-last-page", rq(key(B, b), 9, b.iova + (4ull << 21) - 1, 1, A_RW), ST_OK},
      {"4k-page-boundary", rq(key(A, a), 7, a.iova - 0x321 + 0x1000, 1, A_RW), ST_OK},
      {"4k-page-boundary-minus1", rq(key(A, a), 7, a.iova - 0x321 + 0xfff, 1, A_RW), ST_OK},
    };
    // each missing right: an entry granting everything but one bit
    for (int bit = 0; bit < 4; bit++) {
      Mpt t = a;
      t.access = uint8_t(0xf & ~(1 << bit));
      tb.wr_mpt(T, t);
      tb.drain();
      static const char *nm[4] = {"right-missing-local-write", "right-missing-remote-write",
                                  "right-missing-remote-read", "right-missing-remote-atomic"};
      Rsp got = tb.one(rq(T << 8 | t.variant, 7, a.iova, 4, uint8_t(1 << bit)));
      Rsp others = tb.one(rq(T << 8 | t.variant, 7, a.iova, 4, uint8_t(0xf & ~(1 << bit))));
      res.check(got.st == ST_BAD_ACCESS && others.st == ST_OK && tb.mismatches == 0, nm[bit], "got %s / %s",
                st_name[got.st % ST_N], st_name[others.st % ST_N]);
    }
    for (const Case &c : cases) {
      if (std::string(c.name) == "index-beyond-numkeys" && NK >= (1u << 24)) continue;
      Rsp got = tb.one(c.r);
      res.check(got.st == c.st && tb.mismatches == 0, c.name, "got %s want %s (%s)", st_name[got.st % ST_N],
                st_name[c.st], tb.first_mismatch.c_str());
    }
    // translation values, checked literally
    {
      Rsp r = tb.one(rq(key(A, a), 7, a.iova + 0x1000 - 0x321 + 0x10, 4, A_RW));  // page 1 offset 0x10
      res.check(r.st == ST_OK && r.addr == 0xABC0'0000'0000ull + 0x10'0000ull + 0x1000 + 0x10 && r.left == 0x1000 - 0x10,
                "translate-4k-page1", "addr %llx left %u", (unsigned long long)r.addr, r.left);
      r = tb.one(rq(key(A, a), 7, a.iova, 4, A_RW));  // first page, offset fpo
      res.check(r.st == ST_OK && r.addr == 0xABC0'0000'0000ull + 0x321 && r.left == 0x1000 - 0x321,
                "translate-4k-first-page-offset", "addr %llx left %u", (unsigned long long)r.addr, r.left);
      r = tb.one(rq(key(B, b), 9, b.iova + (2ull << 21) + 0x12345, 4, A_RW));
      res.check(r.st == ST_OK && r.addr == (0x5ull << 40) + (5ull << 21) + 0x12345 && r.left == (1u << 21) - 0x12345,
                "translate-2m-page2", "addr %llx left %u", (unsigned long long)r.addr, r.left);
      r = tb.one(rq(key(C, c), 3, ~0ull, 1, A_RW));
      res.check(r.st == ST_OK && r.addr == 0x2222'0000'0fffull && r.left == 1, "translate-top-last-byte",
                "addr %llx left %u", (unsigned long long)r.addr, r.left);
      r = tb.one(rq(key(A, a), 7, 0x1234, 0, A_RW));
      res.check(r.st == ST_OK && r.addr == 0 && r.left == 0, "zero-length-no-translation");
    }
    // stale variant after re-registration of the same index; invalidated entry
    {
      Mpt a2 = a;
      a2.variant = uint8_t(a.variant + 1);
      tb.wr_mpt(A, a2);
      tb.drain();
      Rsp old = tb.one(rq(key(A, a), 7, a.iova, 4, A_RW));
      Rsp nw = tb.one(rq(key(A, a2), 7, a.iova, 4, A_RW));
      res.check(old.st == ST_BAD_KEY && nw.st == ST_OK && tb.mismatches == 0, "stale-variant-after-reregister");
      tb.inv_mpt(A);
      tb.drain();
      Rsp inv = tb.one(rq(key(A, a2), 7, a.iova, 4, A_RW));
      Rsp inv0 = tb.one(rq(key(A, a2), 7, a.iova, 0, 0));
      res.check(inv.st == ST_BAD_KEY && inv0.st == ST_BAD_KEY && tb.mismatches == 0, "invalidated-entry");
    }
    // translation failures: MTT entry without valid bit, MTT index beyond NumMtt, bad page shift
    {
      Mpt x = c;
      tb.wr_mtt(301, 0x2222'0000'0000ull);  // valid bit clear
      tb.drain();
      Rsp r1 = tb.one(rq(key(C, c), 3, ~0ull, 1, A_RW));
      Rsp r0 = tb.one(rq(key(C, c), 3, c.iova, 1, A_RW));
      res.check(r1.st == ST_BAD_XLATE && r0.st == ST_OK && r1.addr == 0 && tb.mismatches == 0, "mtt-entry-invalid");
      x.mtt_base = NM - 1;
      tb.wr_mtt(NM - 1, 0x3333'0000'0000ull | 1);
      tb.wr_mpt(C, x);
      tb.drain();
      r0 = tb.one(rq(key(C, c), 3, c.iova + 0xfff, 1, A_RW));
      r1 = tb.one(rq(key(C, c), 3, c.iova + 0x1000, 1, A_RW));
      res.check(r0.st == ST_OK && r0.addr == 0x3333'0000'0fffull && r1.st == ST_BAD_XLATE && tb.mismatches == 0,
                "mtt-index-beyond-nummtt", "got %s / %s", st_name[r0.st % ST_N], st_name[r1.st % ST_N]);
      x.mtt_base = 300;
      x.shift = 11;
      tb.wr_mpt(C, x);
      tb.drain();
      r0 = tb.one(rq(key(C, c), 3, c.iova, 1, A_RW));
      r1 = tb.one(rq(key(C, c), 3, c.iova, 0, A_RW));
      res.check(r0.st == ST_BAD_XLATE && r1.st == ST_OK && tb.mismatches == 0, "page-shift-out-of-range");
    }
    // out-of-range write indices are dropped
    {
      tb.wr_mpt(NK, a);
      tb.wr_mtt(NM, 0x1235);
      tb.drain();
      Rsp r = tb.one(rq(key(B, b), 9, b.iova, 8, A_RR));
      res.check(r.st == ST_OK && tb.mismatches == 0, "write-index-out-of-range-dropped");
    }
    // ordering of writes against lookups in flight: back-to-back lookups of one page while the
    // firmware rewrites that page's MTT entry and re-registers the key; each lookup must see
    // exactly the writes accepted before it
    {
      const uint32_t H = 9 % NK, hm = 400 % NM;
      Mpt h = b;
      h.mtt_base = hm;
      h.variant = 0x55;
      tb.wr_mtt(hm, 0x100000000000ull | 1);
      tb.wr_mpt(H, h);
      tb.drain();
      tb.set_rates(1, 1, 1);
      for (int i = 0; i < 3000; i++) {
        for (unsigned p = 0; p < NP; p++) tb.port[p].q.push_back(rq(H << 8 | h.variant, 9, h.iova + 64 * i, 8, A_RW));
        if (i % 5 == 0) tb.wr_mtt(hm, (uint64_t(i) << 32) | (i % 3 ? 1 : 0));
        if (i % 17 == 0) { h.valid = i % 2; tb.wr_mpt(H, h); }
        while (tb.port[0].q.size() > 2) tb.step();
      }
      tb.drain();
      res.check(tb.mismatches == 0, "write-lookup-ordering", "%llu mismatches, first: %s",
                (unsigned long long)tb.mismatches, tb.first_mismatch.c_str());
    }
    // on every port
    for (unsigned p = 1; p < NP; p++) {
      Rsp r = tb.one(rq(key(B, b), 9, b.iova + (2ull << 21) + 0x12345, 4, A_RW), p);
      res.check(r.st == ST_OK && r.addr == (0x5ull << 40) + (5ull << 21) + 0x12345 && tb.mismatches == 0,
                ("translate-port" + std::to_string(p)).c_str());
    }
    // latency: accept to response valid
    {
      tb.drain();
      uint64_t c0 = tb.cycle;
      tb.port[0].responses = 0; tb.port[0].accepted = 0;
      tb.one(rq(key(B, b), 9, b.iova, 4, A_RW));
      uint64_t lat = tb.port[0].rsp_cycle_first - tb.port[0].accept_cycle_first;
      res.check(lat == LATENCY, "latency-5-cycles", "latency %llu (start %llu)", (unsigned long long)lat,
                (unsigned long long)c0);
    }
    report_mismatch(tb, res, "directed-model-agreement");
  }

  // ---- random programming and lookups --------------------------------------------------------
  {
    uint32_t nregions = std::min<uint32_t>(NK * 3 / 4, 600);
    for (uint32_t i = 0; i < nregions; i++) gen.program(uint32_t(tb.rnd(NK)));
    tb.set_rates(1, 1, 0.7);
    res.check(tb.drain(), "random-programming");
    std::memset(tb.status_seen, 0, sizeof tb.status_seen);
    // phase 1: lookups only, random valid/ready; phase 2: with writes mixed in
    uint64_t per_phase = lookups / 2;
    for (int phase = 0; phase < 2; phase++) {
      tb.set_rates(0.8, 0.7, 0.5);
      uint64_t queued = 0;
      while (queued < per_phase) {
        for (unsigned p = 0; p < NP && queued < per_phase; p++, queued++) tb.port[p].q.push_back(gen.lookup());
        if (phase == 1 && tb.uni() < 0.02) {  // re-register, invalidate or rewrite translation
          double u = tb.uni();
          uint32_t idx = gen.used[tb.rnd(gen.used.size())];
          if (u < 0.5) tb.wr_mpt(idx, gen.make(uint8_t(tb.model.mpt[idx].variant + 1)));
          else if (u < 0.7) tb.inv_mpt(idx);
          else {  // rewrite a page of a registered region (or any entry)
            const Mpt &e = tb.model.mpt[idx];
            uint64_t mi = tb.uni() < 0.8 ? uint64_t(e.mtt_base) + tb.rnd(4) : tb.rnd(NM);
            if (mi < NM) tb.wr_mtt(uint32_t(mi), tb.r64() | (tb.uni() < 0.9));
          }
        }
        // keep the queues short so lookups are generated against recent table contents
        while (tb.port[0].q.size() > 16) tb.step();
      }
      bool done = tb.drain();
      char nm[64];
      std::snprintf(nm, sizeof nm, "random-lookups-%s-%llu", phase ? "with-writes" : "only",
                    (unsigned long long)per_phase);
      res.check(done && tb.mismatches == 0, nm, "%llu mismatches, first: %s", (unsigned long long)tb.mismatches,
                tb.first_mismatch.c_str());
      tb.mismatches = 0;
    }
    std::string dist;
    bool all = true;
    for (int s = 0; s < ST_N; s++) {
      dist += std::string(" ") + st_name[s] + "=" + std::to_string(tb.status_seen[s]);
      all &= tb.status_seen[s] >= 100;
    }
    std::printf("INFO random status distribution:%s\n", dist.c_str());
    res.check(all, "random-covers-every-status", "%s", dist.c_str());
  }

  // ---- throughput: one lookup per cycle per port, back to back ---------------------------------
  {
    const uint64_t N = 20000;
    tb.drain();
    tb.set_rates(1, 1);
    for (unsigned p = 0; p < NP; p++) { tb.port[p].responses = 0; tb.port[p].accepted = 0; }
    for (uint64_t i = 0; i < N; i++)
      for (unsigned p = 0; p < NP; p++) tb.port[p].q.push_back(gen.lookup());
    uint64_t c0 = tb.cycle;
    tb.drain();
    uint64_t cycles = tb.cycle - c0;
    res.check(tb.mismatches == 0 && cycles <= N + LATENCY + 1, "throughput-full-rate", "%llu lookups/port in %llu cycles",
              (unsigned long long)N, (unsigned long long)cycles);
    std::printf("INFO throughput: %llu lookups per port in %llu cycles (%u ports)\n", (unsigned long long)N,
                (unsigned long long)cycles, NP);
    // random response backpressure: the pipeline must never leave a ready cycle idle
    tb.set_rates(1, 0.6);
    for (unsigned p = 0; p < NP; p++) { tb.port[p].responses = 0; tb.port[p].bubbles = 0; }
    for (uint64_t i = 0; i < N; i++)
      for (unsigned p = 0; p < NP; p++) tb.port[p].q.push_back(gen.lookup());
    tb.count_bubbles = true;
    tb.drain();
    tb.count_bubbles = false;
    uint64_t bubbles = 0;
    for (unsigned p = 0; p < NP; p++) bubbles += tb.port[p].bubbles;
    res.check(tb.mismatches == 0 && bubbles == 0, "throughput-backpressure-no-bubbles",
              "%llu ready cycles without a response, %llu mismatches: %s", (unsigned long long)bubbles,
              (unsigned long long)tb.mismatches, tb.first_mismatch.c_str());
    tb.mismatches = 0;
  }

  std::printf("INFO %llu cycles simulated\n", (unsigned long long)tb.cycle);
  tb.top->final();
  std::printf("INFO %d passed, %d failed\n", res.passed, res.failed);
  return res.exit_code();
}
