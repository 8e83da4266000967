// tb_doorbell_bar: testbench of the doorbell BAR (rtl/doorbell/doorbell_bar.sv). An AXI4 master
// model writes doorbell pages (every doorbell register, several in one beat, partial strobes,
// BlueFlame WQEs as one wide beat, as bursts of narrow transfers, with holes and out of order,
// interleaved pages), a firmware model drains the doorbell FIFO with random back-pressure and
// reads the BlueFlame buffer on the tightly coupled port (one-cycle loads). A reference model
// written from the spec (doorbell_page, db_event, bf_status) predicts every event and every
// buffer byte; both are compared exactly. Also: FIFO full -> the W channel waits, and after
// HoldCycles the word is dropped and counted; WRAP bursts answer SLVERR with no effect; reads
// answer zeros/OKAY with RLAST on the last beat.
// Built at -GDataWidth=512 (a 64-byte WQEBB is one beat) and 64 (eight). Options: --seed N, --ops N.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "Vdoorbell_bar.h"
#include "rnic_spec.h"
#include "tb_check.h"
#include "verilated.h"

#ifndef TB_DATA_WIDTH
#define TB_DATA_WIDTH 512
#endif
#ifndef TB_HOLD
#define TB_HOLD 64
#endif
#ifndef TB_DEPTH
#define TB_DEPTH 16
#endif
static constexpr unsigned BPB = TB_DATA_WIDTH / 8;
static constexpr unsigned BF = RNIC_DB_BF_DATA_BYTES;

template <typename T> static void set_bytes(T &s, const uint8_t *b) {
  if constexpr (std::is_integral_v<T>) {
    uint64_t v = 0;
    for (unsigned i = 0; i < sizeof(T); i++) v |= uint64_t(b[i]) << (8 * i);
    s = T(v);
  } else {
    for (unsigned i = 0; i < BPB / 4; i++)
      s[i] = uint32_t(b[4 * i]) | uint32_t(b[4 * i + 1]) << 8 | uint32_t(b[4 * i + 2]) << 16 | uint32_t(b[4 * i + 3]) << 24;
  }
}

template <typename T> static bool is_zero(const T &s) {
  if constexpr (std::is_integral_v<T>) {
    return s == 0;
  } else {
    bool z = true;
    for (unsigned i = 0; i < BPB / 4; i++) z &= s[i] == 0;
    return z;
  }
}

struct Ev {
  uint32_t page, which, seq, val;
  bool operator==(const Ev &o) const { return page == o.page && which == o.which && seq == o.seq && val == o.val; }
};

// The reference: what the spec says a sequence of accepted beats does.
struct Model {
  std::deque<Ev> ev;
  uint8_t bf[BF] = {};
  bool open = false;
  unsigned next = 0, page = 0, seq = 0;
  uint32_t st_page = 0, st_seq = 0, st_bbs = 0, st_valid = 0;
  uint64_t accepted = 0;
  std::vector<Ev> trig;  // the sq_db / bf_db words, as the WQE fetch engine's port must show them
  void beat(uint32_t addr, const uint8_t *data, uint64_t strb) {
    uint32_t pg = addr >> 12, row = (addr & 0xFFF) & ~(BPB - 1);
    for (unsigned k = 0; k < 5; k++) {
      uint32_t off = 4 * k;
      if ((off & ~(BPB - 1)) != row) continue;
      unsigned l = off % BPB;
      if (((strb >> l) & 0xF) != 0xF) continue;
      uint32_t v = uint32_t(data[l]) | uint32_t(data[l + 1]) << 8 | uint32_t(data[l + 2]) << 16 | uint32_t(data[l + 3]) << 24;
      uint32_t s = 0;
      if (k == 4) {
        seq = (seq + 1) & 0xFF;
        s = seq;
        st_page = page, st_seq = seq, st_bbs = next / 64;
        st_valid = open && page == pg && next % 64 == 0 && next != 0;
        open = false;
      }
      ev.push_back({pg, k, s, v});
      if (k == 0 || k == 4) trig.push_back({pg, k, 0, v});
      accepted++;
    }
    if (row >= RNIC_DB_BF_DATA && row < RNIC_DB_BF_DATA + BF && strb) {
      unsigned lo = 0, n = 0;
      while (!(strb >> lo & 1)) lo++;
      for (unsigned b = 0; b < BPB; b++) n += strb >> b & 1;
      bool contig = true;
      for (unsigned b = lo; b < lo + n; b++) contig &= (strb >> b & 1) != 0;
      unsigned start = row - RNIC_DB_BF_DATA + lo;
      for (unsigned b = 0; b < BPB; b++)
        if (strb >> b & 1) bf[row - RNIC_DB_BF_DATA + b] = data[b];
      if (start == 0 && contig) open = true, next = n, page = pg;
      else if (open && pg == page && start == next && contig) next += n;
      else open = false;
      st_valid = 0;
    }
  }
  uint32_t status() const { return st_page | st_seq << 16 | st_bbs << 24 | st_valid << 31; }
};

struct Tb {
  Vdoorbell_bar m;
  std::mt19937_64 rng;
  Model ref;
  std::vector<Ev> got;
  std::vector<Ev> got_trig;  // sq_db_*_o: each sq_db / bf_db entering the FIFO
  unsigned ready_pct = 60;  // the firmware's out_ready
  bool drain = true;
  uint64_t cycle = 0;

  explicit Tb(uint64_t seed) : rng(seed) {
    m.clk_i = 0;
    m.rst_ni = 0;
    m.s_axi_awvalid_i = m.s_axi_wvalid_i = m.s_axi_arvalid_i = 0;
    m.s_axi_bready_i = m.s_axi_rready_i = 0;
    m.out_ready_i = 0;
    m.tc_req_i = 0;
    m.eval();
    for (int i = 0; i < 3; i++) tick();
    m.rst_ni = 1;
    tick();
  }
  bool coin(unsigned pct) { return rng() % 100 < pct; }
  // One clock edge; the FIFO is popped (and the entry recorded) when valid and ready meet.
  void tick() {
    m.out_ready_i = drain && coin(ready_pct);
    m.eval();
    if (m.out_valid_o && m.out_ready_i) {
      uint64_t d = m.out_data_o;
      uint32_t e = uint32_t(d);
      got.push_back({e & 0xFFFF, e >> 16 & 0xFF, e >> 24, uint32_t(d >> 32)});
    }
    if (m.sq_db_valid_o) got_trig.push_back({m.sq_db_page_o, m.sq_db_bf_o ? 4u : 0u, 0, m.sq_db_value_o});
    m.clk_i = 1;
    m.eval();
    m.clk_i = 0;
    m.eval();
    cycle++;
  }

  struct Beat {
    uint32_t addr;  // where the beat goes (for the model)
    uint8_t data[BPB];
    uint64_t strb;
  };
  // One AXI write burst; the W beats go with random gaps. Returns BRESP, or -1 on a hang.
  // wready_low counts cycles a valid beat waited.
  int burst(uint32_t addr, unsigned size, unsigned burst_type, const std::vector<Beat> &beats, uint32_t id = 3,
            uint64_t *wready_low = nullptr) {
    m.s_axi_awid_i = id;
    m.s_axi_awaddr_i = addr;
    m.s_axi_awlen_i = beats.size() - 1;
    m.s_axi_awsize_i = size;
    m.s_axi_awburst_i = burst_type;
    m.s_axi_awvalid_i = 1;
    size_t wi = 0;
    bool aw_done = false;
    m.s_axi_bready_i = 0;
    bool wv = false;  // once offered, a beat stays offered until taken (AXI)
    for (uint64_t t = 0; t < 100000; t++) {
      wv = wi < beats.size() && (wv || coin(80));
      m.s_axi_wvalid_i = wv;
      if (wv) {
        set_bytes(m.s_axi_wdata_i, beats[wi].data);
        m.s_axi_wstrb_i = beats[wi].strb;
        m.s_axi_wlast_i = wi + 1 == beats.size();
      }
      m.s_axi_bready_i = coin(70);
      m.out_ready_i = 0;
      m.eval();
      bool aw = m.s_axi_awvalid_i && m.s_axi_awready_o;
      bool w = wv && m.s_axi_wready_o;
      if (wv && !m.s_axi_wready_o && wready_low) ++*wready_low;
      bool b = m.s_axi_bvalid_o && m.s_axi_bready_i;
      int resp = m.s_axi_bresp_o;
      uint32_t bid = m.s_axi_bid_o;
      if (w && burst_type != 2 && size <= unsigned(__builtin_ctz(BPB)))
        ref.beat(beats[wi].addr, beats[wi].data, beats[wi].strb);
      tick();
      if (aw) aw_done = true, m.s_axi_awvalid_i = 0;
      if (w) wi++, wv = false;
      if (b) {
        m.s_axi_wvalid_i = 0;
        m.s_axi_bready_i = 0;
        if (!aw_done || wi != beats.size() || bid != id) return -2;
        return resp;
      }
    }
    return -1;
  }
  // Bytes [addr, addr+n) with transfers of 2^size bytes (INCR), strobes only on those bytes and
  // not on the bytes in `hole` (a mask over the n bytes, 1 = leave out).
  int write(uint32_t addr, const uint8_t *src, unsigned n, unsigned size, const std::vector<bool> &hole = {},
            uint64_t *wready_low = nullptr) {
    std::vector<Beat> beats;
    uint32_t tsz = 1u << size, a = addr, end = addr + n;
    while (a < end) {
      Beat bt{};
      bt.addr = a;
      uint32_t win = a & ~(tsz - 1), lim = win + tsz;
      for (uint32_t x = a; x < lim && x < end; x++) {
        unsigned lane = x % BPB;
        bool skip = !hole.empty() && hole[x - addr];
        bt.data[lane] = src[x - addr];
        if (!skip) bt.strb |= 1ull << lane;
      }
      for (unsigned l = 0; l < BPB; l++)  // junk on lanes without strobes
        if (!(bt.strb >> l & 1)) bt.data[l] = uint8_t(rng());
      beats.push_back(bt);
      a = lim;
    }
    return burst(addr, size, 1, beats, uint32_t(rng() % 16), wready_low);
  }
  int write32(uint32_t addr, uint32_t v, uint64_t *wready_low = nullptr) {
    uint8_t b[4] = {uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)};
    return write(addr, b, 4, 2, {}, wready_low);
  }
  void settle(unsigned cycles = 40) {
    for (unsigned i = 0; i < cycles || (drain && m.out_valid_o); i++) tick();
  }
  uint32_t tc_read(uint32_t off) {
    m.tc_req_i = 1;
    m.tc_we_i = 0;
    m.tc_addr_i = off;
    tick();
    m.tc_req_i = 0;
    m.eval();
    return m.tc_rdata_o;  // registered: valid the cycle after the request
  }
  // Events and buffer as the model predicts; a description of the first difference.
  std::string compare() {
    if (got.size() != ref.ev.size())
      return "events: got " + std::to_string(got.size()) + " expected " + std::to_string(ref.ev.size());
    for (size_t i = 0; i < got.size(); i++)
      if (!(got[i] == ref.ev[i])) {
        char s[200];
        std::snprintf(s, sizeof s, "event %zu: got page %u which %u seq %u val %08x, expected page %u which %u seq %u val %08x",
                      i, got[i].page, got[i].which, got[i].seq, got[i].val, ref.ev[i].page, ref.ev[i].which,
                      ref.ev[i].seq, ref.ev[i].val);
        return s;
      }
    for (unsigned w = 0; w < BF / 4; w++) {
      uint32_t v = tc_read(RNIC_FW_TC_BF_DATA_BASE + 4 * w);
      uint32_t e = uint32_t(ref.bf[4 * w]) | uint32_t(ref.bf[4 * w + 1]) << 8 | uint32_t(ref.bf[4 * w + 2]) << 16 |
                   uint32_t(ref.bf[4 * w + 3]) << 24;
      if (v != e) {
        char s[120];
        std::snprintf(s, sizeof s, "bf_data word %u: got %08x expected %08x", w, v, e);
        return s;
      }
    }
    uint32_t st = tc_read(RNIC_FW_TC_BF_STATUS);
    if (st != ref.status()) {
      char s[120];
      std::snprintf(s, sizeof s, "bf_status got %08x expected %08x", st, ref.status());
      return s;
    }
    return "";
  }
};

static uint32_t page_addr(uint32_t page, uint32_t off) { return page * RNIC_DB_BAR_PAGE_SIZE + off; }

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  uint64_t seed = 1;
  unsigned ops = 2000;
  for (int i = 1; i + 1 < argc; i++) {
    if (!std::strcmp(argv[i], "--seed")) seed = std::strtoull(argv[++i], nullptr, 0);
    else if (!std::strcmp(argv[i], "--ops")) ops = std::strtoul(argv[++i], nullptr, 0);
  }
  std::printf("# tb_doorbell_bar DataWidth %u Depth %u HoldCycles %u seed %llu ops %u\n", TB_DATA_WIDTH, TB_DEPTH,
              TB_HOLD, (unsigned long long)seed, ops);
  TbResults r;
  Tb tb(seed);
  std::mt19937_64 &rng = tb.rng;
  std::string why;

  // Every doorbell register of a few pages (first, middle, last), one 32-bit write each.
  {
    bool ok = true;
    for (uint32_t pg : {0u, 7u, RNIC_DB_BAR_NUM_PAGES - 1})
      for (uint32_t off : {RNIC_DB_SQ_DB, RNIC_DB_RQ_DB, RNIC_DB_CQ_DB, RNIC_DB_CQ_ARM, RNIC_DB_BF_DB})
        ok &= tb.write32(page_addr(pg, off), uint32_t(rng())) == 0;
    tb.settle();
    why = tb.compare();
    r.check(ok && why.empty() && tb.got.size() == 15, "db-every-register-every-page", "%s", why.c_str());
    bool order = tb.got.size() == 15;
    for (size_t i = 0; order && i < 15; i++) order = tb.got[i].which == i % 5 && tb.got[i].page == (i < 5 ? 0 : i < 10 ? 7 : RNIC_DB_BAR_NUM_PAGES - 1);
    r.check(order, "db-page-decode-and-which");
  }
  // All five doorbell registers in one transfer (one beat at 512 bits, three at 64): events in
  // ascending offset order; a doorbell register with three of its four strobes is ignored.
  {
    uint8_t b[20];
    for (auto &x : b) x = uint8_t(rng());
    std::vector<bool> hole(20, false);
    tb.write(page_addr(3, 0), b, 20, __builtin_ctz(BPB) < 5 ? __builtin_ctz(BPB) : 5, {});
    hole[RNIC_DB_CQ_DB + 1] = true;  // cq_db loses a byte
    tb.write(page_addr(4, 0), b, 20, __builtin_ctz(BPB) < 5 ? __builtin_ctz(BPB) : 5, hole);
    tb.settle();
    why = tb.compare();
    size_t n = tb.got.size();
    r.check(why.empty() && n >= 9 && tb.got[n - 1].which == 4 && tb.got[n - 2].which == 3 && tb.got[n - 3].which == 1 &&
                tb.got[n - 4].which == 0 && tb.got[n - 5].page == 3,
            "db-several-in-one-transfer-partial-ignored",
            "%s", why.c_str());
  }
  // BlueFlame, 64 bytes from offset 0 as one full-width transfer, then bf_db: the event carries
  // the next sequence number, the buffer holds the WQE byte for byte, the status names it.
  {
    uint8_t w[256];
    for (auto &x : w) x = uint8_t(rng());
    unsigned sz = __builtin_ctz(BPB) < 6 ? __builtin_ctz(BPB) : 6;
    int rc = tb.write(page_addr(9, RNIC_DB_BF_DATA), w, 64, sz);
    rc |= tb.write32(page_addr(9, RNIC_DB_BF_DB), 0x00050009u);
    tb.settle();
    why = tb.compare();
    r.check(rc == 0 && why.empty() && (tb.ref.status() >> 31) && (tb.ref.status() >> 24 & 7) == 1,
            "bf-64B-one-transfer", "%s", why.c_str());
    // 256 bytes (four WQEBBs) in one burst
    rc = tb.write(page_addr(10, RNIC_DB_BF_DATA), w, 256, sz);
    rc |= tb.write32(page_addr(10, RNIC_DB_BF_DB), 0x00090009u);
    tb.settle();
    why = tb.compare();
    r.check(rc == 0 && why.empty() && (tb.ref.status() >> 31) && (tb.ref.status() >> 24 & 7) == 4,
            "bf-256B-burst", "%s", why.c_str());
    // 128 bytes in ascending 32-bit stores (the old AXI-Lite way): still a valid capture
    for (unsigned i = 0; i < 128; i += 4) rc |= tb.write(page_addr(11, RNIC_DB_BF_DATA + i), w + i, 4, 2);
    rc |= tb.write32(page_addr(11, RNIC_DB_BF_DB), 0x0002000Au);
    tb.settle();
    why = tb.compare();
    r.check(rc == 0 && why.empty() && (tb.ref.status() >> 31) && (tb.ref.status() >> 24 & 7) == 2,
            "bf-narrow-32bit-stores", "%s", why.c_str());
    // a hole in the strobes: not valid (the bytes written are still in the buffer)
    std::vector<bool> hole(64, false);
    hole[17] = true;
    rc = tb.write(page_addr(12, RNIC_DB_BF_DATA), w, 64, sz, hole);
    rc |= tb.write32(page_addr(12, RNIC_DB_BF_DB), 0x0001000Bu);
    tb.settle();
    why = tb.compare();
    r.check(rc == 0 && why.empty() && !(tb.ref.status() >> 31), "bf-strobe-hole-invalid", "%s", why.c_str());
    // the same hole, then one more byte where the count of bytes would make the block whole:
    // still not valid (the run of strobes was broken, byte 17 was never written)
    rc = tb.write(page_addr(12, RNIC_DB_BF_DATA), w, 64, sz, hole);
    rc |= tb.write(page_addr(12, RNIC_DB_BF_DATA + 63), w + 63, 1, 0);
    rc |= tb.write32(page_addr(12, RNIC_DB_BF_DB), 0x0001000Bu);
    tb.settle();
    why = tb.compare();
    r.check(rc == 0 && why.empty() && !(tb.ref.status() >> 31), "bf-strobe-hole-not-made-whole", "%s", why.c_str());
    // out of order (second WQEBB first, then the first, then the third: a gap), closed by another
    // page's bf_db; then a good one, and a write after its bf_db: not valid
    rc = tb.write(page_addr(13, RNIC_DB_BF_DATA + 64), w, 64, sz);
    rc |= tb.write(page_addr(13, RNIC_DB_BF_DATA), w, 64, sz);
    rc |= tb.write(page_addr(13, RNIC_DB_BF_DATA + 128), w, 64, sz);
    rc |= tb.write32(page_addr(14, RNIC_DB_BF_DB), 1);
    tb.settle();
    why = tb.compare();
    bool other_page = why.empty() && !(tb.ref.status() >> 31);
    rc |= tb.write(page_addr(13, RNIC_DB_BF_DATA), w, 64, sz);
    rc |= tb.write32(page_addr(13, RNIC_DB_BF_DB), 1);
    tb.settle();
    bool closed_valid = tb.compare().empty() && (tb.ref.status() >> 31);
    rc |= tb.write(page_addr(13, RNIC_DB_BF_DATA + 64), w, 4, 2);
    tb.settle();
    why = tb.compare();
    r.check(rc == 0 && other_page && closed_valid && why.empty() && !(tb.ref.status() >> 31),
            "bf-other-page-and-later-write-invalidate", "%s", why.c_str());
  }
  // Reads: zeros, OKAY, RLAST on the last beat, the ID echoed.
  {
    tb.m.s_axi_arid_i = 5;
    tb.m.s_axi_araddr_i = page_addr(2, 0);
    tb.m.s_axi_arlen_i = 3;
    tb.m.s_axi_arsize_i = __builtin_ctz(BPB);
    tb.m.s_axi_arburst_i = 1;
    tb.m.s_axi_arvalid_i = 1;
    unsigned beats = 0, bad = 0;
    for (int t = 0; t < 200 && beats < 4; t++) {
      tb.m.s_axi_rready_i = tb.coin(50);
      tb.m.eval();
      bool ar = tb.m.s_axi_arvalid_i && tb.m.s_axi_arready_o;
      if (tb.m.s_axi_rvalid_o && tb.m.s_axi_rready_i) {
        beats++;
        bool zero = is_zero(tb.m.s_axi_rdata_o);
        bad += !zero || tb.m.s_axi_rresp_o != 0 || tb.m.s_axi_rid_o != 5 || bool(tb.m.s_axi_rlast_o) != (beats == 4);
      }
      tb.tick();
      if (ar) tb.m.s_axi_arvalid_i = 0;
    }
    tb.m.s_axi_rready_i = 0;
    r.check(beats == 4 && bad == 0, "read-zeros-okay-rlast", "beats %u bad %u", beats, bad);
  }
  // WRAP: SLVERR, no event, no buffer change.
  {
    std::vector<Tb::Beat> b(4);
    for (auto &x : b) {
      x.addr = 0;
      for (auto &y : x.data) y = 0xEE;
      x.strb = ~0ull >> (64 - BPB);
    }
    int rc = tb.burst(page_addr(6, RNIC_DB_BF_DATA), __builtin_ctz(BPB), 2, b);
    tb.settle();
    why = tb.compare();
    r.check(rc == 2 && why.empty(), "wrap-burst-slverr-ignored", "bresp %d %s", rc, why.c_str());
  }
  // Back-pressure: the firmware stops; Depth doorbells fill the FIFO, the next one holds W for
  // HoldCycles and is then dropped and counted; once drained, the FIFO yields them all in order.
  {
    tb.drain = false;
    tb.settle(4);
    uint32_t drop0 = tb.m.dropped_o, cnt0 = tb.m.count_o;
    bool ok = true;
    uint64_t low = 0;
    for (unsigned i = 0; i < TB_DEPTH; i++) ok &= tb.write32(page_addr(20 + i, RNIC_DB_SQ_DB), 0x1000u + i) == 0;
    ok &= low == 0;
    uint32_t before = tb.m.dropped_o;
    // this one is dropped: its B comes after the hold
    ok &= tb.write32(page_addr(99, RNIC_DB_SQ_DB), 0xDEAD, &low) == 0;
    tb.ref.ev.pop_back();  // the model takes every beat; the RTL dropped this word
    tb.ref.accepted--;
    bool dropped = tb.m.dropped_o == before + 1 && low >= TB_HOLD && low < TB_HOLD + 20;
    // a doorbell that waits less than the hold goes in when the firmware frees a slot
    low = 0;
    tb.m.s_axi_awvalid_i = 0;
    std::vector<Tb::Beat> one(1);
    one[0].addr = page_addr(98, RNIC_DB_RQ_DB);
    one[0].strb = 0xFull << (RNIC_DB_RQ_DB % BPB);
    uint32_t v = 0xBEEF0062;
    for (int k = 0; k < 4; k++) one[0].data[RNIC_DB_RQ_DB % BPB + k] = uint8_t(v >> (8 * k));
    // free one slot after TB_HOLD/2 cycles from within the burst: pop by hand
    tb.m.s_axi_awid_i = 1, tb.m.s_axi_awaddr_i = one[0].addr, tb.m.s_axi_awlen_i = 0, tb.m.s_axi_awsize_i = 2;
    tb.m.s_axi_awburst_i = 1, tb.m.s_axi_awvalid_i = 1;
    set_bytes(tb.m.s_axi_wdata_i, one[0].data);
    tb.m.s_axi_wstrb_i = one[0].strb;
    tb.m.s_axi_wlast_i = 1;
    tb.m.s_axi_wvalid_i = 1;
    tb.m.s_axi_bready_i = 1;
    bool bdone = false, popped = false;
    for (int t = 0; t < 4 * TB_HOLD && !bdone; t++) {
      tb.m.eval();
      bool aw = tb.m.s_axi_awready_o, w = tb.m.s_axi_wready_o;
      if (w) tb.ref.beat(one[0].addr, one[0].data, one[0].strb);
      bdone = tb.m.s_axi_bvalid_o;
      if (t == TB_HOLD / 2) {  // the firmware takes one entry
        tb.drain = true;
        tb.ready_pct = 100;
        popped = true;
      }
      tb.tick();
      tb.drain = false;
      if (aw) tb.m.s_axi_awvalid_i = 0;
      if (w) tb.m.s_axi_wvalid_i = 0;
    }
    tb.m.s_axi_bready_i = 0;
    tb.ready_pct = 60;
    bool held_then_in = popped && bdone && tb.m.dropped_o == before + 1;
    tb.drain = true;
    tb.settle();
    why = tb.compare();
    r.check(ok && dropped, "fifo-full-holds-then-drops", "ok %d dropped %u low %llu", ok, tb.m.dropped_o - drop0,
            (unsigned long long)low);
    r.check(held_then_in && why.empty() && tb.m.count_o - cnt0 == TB_DEPTH + 1, "fifo-full-waits-for-space",
            "%s count %u", why.c_str(), tb.m.count_o - cnt0);
  }
  // Random traffic: doorbell words and BlueFlame blocks on random pages, random sizes, bursts,
  // strobes; the firmware drains at random; every event and the buffer checked against the model.
  {
    uint32_t drop0 = tb.m.dropped_o;
    std::string first;
    unsigned bad = 0, bfv = 0;
    tb.settle();
    tb.got_trig.clear();
    tb.ref.trig.clear();
    for (unsigned op = 0; op < ops; op++) {
      uint32_t pg = rng() % 4 == 0 ? rng() % RNIC_DB_BAR_NUM_PAGES : rng() % 3;
      uint8_t buf[256];
      for (auto &x : buf) x = uint8_t(rng());
      unsigned maxsz = __builtin_ctz(BPB), sz = rng() % (maxsz + 1);
      switch (rng() % 6) {
        case 0:
        case 1: {  // doorbell words: some registers, maybe several
          unsigned o = 4 * (rng() % 5), n = 4 * (1 + rng() % (5 - o / 4));
          unsigned s = std::min(sz, 5u);
          uint32_t a = page_addr(pg, o) & ~((1u << s) - 1);
          n += page_addr(pg, o) - a;
          std::vector<bool> hole(n, false);
          if (rng() % 4 == 0) hole[rng() % n] = true;
          if (tb.write(a, buf, n, s, hole) != 0) bad++;
          break;
        }
        case 2:
        case 3:
        case 4: {  // a BlueFlame post: 64..256 bytes, sometimes broken, then bf_db
          unsigned bbs = 1 + rng() % 4, n = 64 * bbs;
          std::vector<bool> hole(n, false);
          if (rng() % 8 == 0) hole[rng() % n] = true;
          unsigned s = rng() % 3 == 0 ? maxsz : sz;
          if (rng() % 2) {
            if (tb.write(page_addr(pg, RNIC_DB_BF_DATA), buf, n, s, hole) != 0) bad++;
          } else {  // block by block, sometimes skipping one
            for (unsigned b = 0; b < bbs; b++)
              if (rng() % 16 || b == 0)
                if (tb.write(page_addr(pg, RNIC_DB_BF_DATA + 64 * b), buf + 64 * b, 64, s) != 0) bad++;
          }
          uint32_t dbpg = rng() % 10 == 0 ? pg + 1 : pg;
          if (tb.write32(page_addr(dbpg % RNIC_DB_BAR_NUM_PAGES, RNIC_DB_BF_DB), uint32_t(rng())) != 0) bad++;
          bfv += tb.ref.st_valid;
          break;
        }
        default: {  // bytes somewhere else in the page: no effect, OKAY
          uint32_t o = 0x200 + 4 * (rng() % 0x300);
          if (tb.write(page_addr(pg, o), buf, 4, 2) != 0) bad++;
        }
      }
      if (op % 50 == 49 || op + 1 == ops) {
        tb.settle();
        why = tb.compare();
        if (!why.empty() && first.empty()) first = "op " + std::to_string(op) + ": " + why;
      }
    }
    r.check(first.empty() && bad == 0 && tb.m.dropped_o == drop0, "random-traffic-matches-model",
            "%s bad %u dropped %u", first.c_str(), bad, tb.m.dropped_o - drop0);
    r.check(bfv > ops / 10, "random-traffic-valid-captures", "valid captures %u", bfv);
    // the WQE fetch engine's port: every sq_db and bf_db accepted, in order, nothing else
    unsigned nsq = 0, nbf = 0;
    for (auto &e : tb.ref.trig) (e.which ? nbf : nsq)++;
    r.check(tb.got_trig == tb.ref.trig && nsq > 50 && nbf > 50, "random-traffic-sq-db-port",
            "port %zu words, model %zu (sq_db %u, bf_db %u)", tb.got_trig.size(), tb.ref.trig.size(), nsq, nbf);
    std::printf("INFO %llu doorbell events, %u valid BlueFlame captures, %llu cycles\n",
                (unsigned long long)tb.ref.accepted, bfv, (unsigned long long)tb.cycle);
  }
  tb.m.final();
  return r.exit_code();
}
