// tb_qpc_ram: testbench of the QP-context RAM (rtl/core/rnic_qpc_ram.sv, 8 QPs x 64 bytes) as the
// soft core's tightly coupled port uses it (rnic_fw_subsys): one request a cycle at most (go_i),
// the RAM's select for that request the cycle after (sel_i, decoded from registered address
// bits, so it may be set after a cycle without a request, and a store outside the RAM must not
// write), stores posted, a load's data the cycle after its request. A C++ model applies every
// store in program order when it is presented; every load's word is compared byte for byte with
// the model, so a load right after a store of the same word (the store still in the RAM's
// registers, the read port returning the word before it) must see the store merged, byte
// enables included. Directed sequences first (each hazard named), then random traffic biased to
// a few words; the cases met are counted and must all occur. Options: --seed N, --cycles N.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

#include "Vrnic_qpc_ram.h"
#include "tb_check.h"
#include "verilated.h"

static constexpr unsigned kWords = 8 * 64 / 4;

struct Req {
  bool go = false, we = false, in_ram = false;
  uint8_t be = 0;
  uint32_t addr = 0, wdata = 0;
};

struct Tb {
  Vrnic_qpc_ram m;
  std::mt19937_64 rng;
  uint32_t model[kWords] = {};
  Req prev;                    // last cycle's request (its select and its load's check)
  uint32_t prev_expect = 0;    // the word its load must return
  TbResults *r;
  uint64_t loads = 0, bad = 0;
  // cases met: load of the word stored the cycle before (all bytes / some), a load after a
  // store outside the RAM to the same offset, store -> store -> load, select set without request
  uint64_t c_full = 0, c_part = 0, c_outside = 0, c_two = 0, c_sel_idle = 0;
  bool prev_store_ram = false, prev2_store_ram = false;
  uint32_t prev_store_w = 0, prev2_store_w = 0;
  char first_bad[160] = "";

  Tb(uint64_t seed, TbResults *res) : rng(seed), r(res) {
    m.clk_i = 0;
    m.go_i = 0;
    m.sel_i = 0;
    m.eval();
  }
  static uint32_t word_of(uint32_t addr) { return (addr >> 2) % kWords; }
  // one cycle with request q (go_i low if !q.go: the other inputs still toggle, as the core's bus does)
  void cycle(const Req &q, bool sel_idle = false) {
    m.go_i = q.go;
    m.we_i = q.we;
    m.be_i = q.be;
    m.addr_i = q.addr;
    m.wdata_i = q.wdata;
    // the select of last cycle's request; after a cycle without one it is whatever the address
    // bits were, so it may be set: the RAM must not write then
    m.sel_i = prev.go ? prev.in_ram : sel_idle;
    if (!prev.go && sel_idle) c_sel_idle++;
    m.clk_i = 0;
    m.eval();
    m.clk_i = 1;
    m.eval();
    // this cycle's load: its data after the edge
    uint32_t w = word_of(q.addr), expect = model[w];
    if (q.go && !q.we && q.in_ram) {
      loads++;
      uint32_t got = m.rdata_o;
      if (got != expect) {
        if (!bad) std::snprintf(first_bad, sizeof(first_bad), "load %llu word %u: 0x%08x, model 0x%08x",
                                (unsigned long long)loads, w, got, expect);
        bad++;
      }
      if (prev_store_ram && prev_store_w == w) {
        if (prev.be == 0xF) c_full++;
        else c_part++;
        if (prev2_store_ram) c_two++;
      }
      if (prev.go && prev.we && !prev.in_ram && word_of(prev.addr) == w) c_outside++;
    }
    // a store changes the model in program order (it is written by the RAM a cycle later)
    if (q.go && q.we && q.in_ram) {
      for (int i = 0; i < 4; i++)
        if (q.be >> i & 1) model[w] = (model[w] & ~(0xFFu << 8 * i)) | (q.wdata & (0xFFu << 8 * i));
    }
    prev2_store_ram = prev_store_ram;
    prev2_store_w = prev_store_w;
    prev_store_ram = q.go && q.we && q.in_ram;
    prev_store_w = w;
    prev = q;
    prev_expect = expect;
  }
  // addresses carry junk above the RAM (they wrap) and in bits 1:0 (ignored)
  uint32_t addr_of(uint32_t w) { return (w << 2) | (uint32_t(rng()) & 0xFFFF0000u) | (uint32_t(rng()) & 3u); }
  Req store(uint32_t w, uint32_t data, uint8_t be = 0xF, bool in_ram = true) {
    Req q;
    q.go = true; q.we = true; q.in_ram = in_ram; q.be = be; q.addr = addr_of(w); q.wdata = data;
    return q;
  }
  Req load(uint32_t w) {
    Req q;
    q.go = true; q.we = false; q.in_ram = true; q.be = uint8_t(rng() & 0xF); q.addr = addr_of(w); q.wdata = uint32_t(rng());
    return q;
  }
  Req idle() {
    Req q;
    q.we = rng() & 1; q.be = uint8_t(rng() & 0xF); q.addr = uint32_t(rng()); q.wdata = uint32_t(rng());
    return q;
  }
};

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  uint64_t seed = 1, cycles = 200000;
  for (int i = 1; i + 1 < argc; i++) {
    if (!std::strcmp(argv[i], "--seed")) seed = std::strtoull(argv[++i], nullptr, 0);
    else if (!std::strcmp(argv[i], "--cycles")) cycles = std::strtoull(argv[++i], nullptr, 0);
  }
  TbResults r;
  Tb tb(seed, &r);

  // every word written once (the RAM's contents start unknown), then read back
  for (uint32_t w = 0; w < kWords; w++) tb.cycle(tb.store(w, 0x5A000000u | w * 0x10101u));
  tb.cycle(tb.idle());
  for (uint32_t w = 0; w < kWords; w++) tb.cycle(tb.load(w));
  r.check(!tb.bad, "qpc-ram-fill-and-read-back", "%s", tb.first_bad);

  // directed: each hazard once, its result checked on its own
  auto directed = [&](const char *name, auto body) {
    uint64_t b0 = tb.bad;
    body();
    tb.cycle(tb.idle());
    r.check(tb.bad == b0, name, "%s", tb.first_bad);
  };
  directed("qpc-ram-load-right-after-store-same-word", [&] {
    tb.cycle(tb.store(5, 0x11223344u));
    tb.cycle(tb.load(5));
  });
  directed("qpc-ram-load-right-after-byte-stores", [&] {
    static const uint8_t bes[] = {0x1, 0x2, 0x4, 0x8, 0x3, 0xC, 0x6, 0x9, 0xE, 0x7};
    for (uint8_t be : bes) {
      tb.cycle(tb.store(9, uint32_t(tb.rng()), be));
      tb.cycle(tb.load(9));
    }
  });
  directed("qpc-ram-store-store-load-same-word", [&] {
    tb.cycle(tb.store(12, 0xAAAAAAAAu));
    tb.cycle(tb.store(12, 0x00BB0000u, 0x4));
    tb.cycle(tb.load(12));
  });
  directed("qpc-ram-store-other-word-then-load", [&] {
    tb.cycle(tb.store(20, 0xCAFEF00Du));
    tb.cycle(tb.load(21));
    tb.cycle(tb.load(20));
  });
  directed("qpc-ram-store-load-load-same-word", [&] {
    tb.cycle(tb.store(30, 0x01020304u));
    tb.cycle(tb.load(30));
    tb.cycle(tb.load(30));
  });
  directed("qpc-ram-store-idle-load", [&] {
    tb.cycle(tb.store(31, 0x0F0E0D0Cu, 0x5));
    tb.cycle(tb.idle());
    tb.cycle(tb.load(31));
  });
  directed("qpc-ram-store-outside-not-written", [&] {
    tb.cycle(tb.store(40, 0xDEADBEEFu, 0xF, false));  // another target of the port (sel_i low)
    tb.cycle(tb.load(40));
    tb.cycle(tb.load(40));
  });
  directed("qpc-ram-select-without-request-not-written", [&] {
    tb.cycle(tb.store(41, 0x12345678u));
    tb.cycle(tb.idle(), true);
    tb.cycle(tb.idle(), true);  // go_i low, then the select high: no second write
    Req q = tb.idle();
    q.we = true; q.be = 0xF; q.addr = tb.addr_of(41);
    tb.cycle(q, true);          // a store-looking bus without go_i
    tb.cycle(tb.idle(), true);
    tb.cycle(tb.load(41));
  });

  // random: a few hot words, stores, loads and idle cycles in any order
  uint32_t hot[4];
  for (auto &h : hot) h = uint32_t(tb.rng() % kWords);
  for (uint64_t c = 0; c < cycles; c++) {
    if (tb.rng() % 1000 == 0)
      for (auto &h : hot) h = uint32_t(tb.rng() % kWords);
    uint32_t w = tb.rng() % 4 ? hot[tb.rng() % 4] : uint32_t(tb.rng() % kWords);
    unsigned k = unsigned(tb.rng() % 100);
    if (k < 35) {
      uint8_t be = tb.rng() % 2 ? 0xF : uint8_t(tb.rng() % 16);
      tb.cycle(tb.store(w, uint32_t(tb.rng()), be, tb.rng() % 8 != 0));
    } else if (k < 80) {
      tb.cycle(tb.load(w));
    } else {
      tb.cycle(tb.idle(), tb.rng() % 2);
    }
  }
  tb.cycle(tb.idle());
  r.check(!tb.bad, "qpc-ram-random-loads-match-model", "%llu of %llu loads wrong, first: %s",
          (unsigned long long)tb.bad, (unsigned long long)tb.loads, tb.first_bad);
  r.check(tb.c_full > 1000 && tb.c_part > 1000 && tb.c_two > 100 && tb.c_outside > 10 && tb.c_sel_idle > 1000,
          "qpc-ram-random-hazards-met", "after a store: %llu full / %llu partial, %llu after two stores, "
          "%llu after a store outside, %llu idle selects",
          (unsigned long long)tb.c_full, (unsigned long long)tb.c_part, (unsigned long long)tb.c_two,
          (unsigned long long)tb.c_outside, (unsigned long long)tb.c_sel_idle);
  std::printf("INFO %llu loads checked; a load after a store of its word: %llu full, %llu partial, %llu "
              "after two stores, %llu after a store outside the RAM\n",
              (unsigned long long)tb.loads, (unsigned long long)tb.c_full, (unsigned long long)tb.c_part,
              (unsigned long long)tb.c_two, (unsigned long long)tb.c_outside);
  return r.exit_code();
}
