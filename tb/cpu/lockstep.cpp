// lockstep.cpp: random-program lock-step test. A seeded generator writes a random RV32IM program
// (forward branches/jumps only, a final jump back to the top, loads/stores into a DMEM window,
// mul/div with edge-case operands, mscratch CSR accesses) into IMEM through the host port; the
// core runs it against the C reference model (ref/rv32_ref.c) and every retired instruction's
// PC, instruction, rd and written value are compared. With --tc N the second window (x29) is
// the RAM behind the tightly coupled port instead of the MMIO RAM, its loads answered 1..N
// cycles after their request; its final contents are compared too.
//   Vrv_cpu random [--seed S] [--count N] [--lat G,R] [--len SLOTS] [--tc N]
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>
#include "tb_rerun.h"
#include "tb_cpu.h"
extern "C" {
#include "ref/rv32_ref.h"
}

namespace {
constexpr uint32_t kImemBytes = 65536, kDmemBytes = 65536;
constexpr uint32_t kWinBase = 0x10000100u;  // x31 points here; accesses in [-256, +1792)
constexpr uint32_t kMmioWinBase = 0x40000100u;  // x29: same window in the testbench MMIO RAM
constexpr uint32_t kTcWinBase = 0x30000100u;    // x29 with --tc: in the tightly coupled RAM
constexpr uint32_t kInitLo = 0x10000000u, kInitHi = 0x10000900u;

uint32_t r_type(uint32_t f7, uint32_t rs2, uint32_t rs1, uint32_t f3, uint32_t rd, uint32_t op) {
  return (f7 << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | op;
}
uint32_t i_type(int32_t imm, uint32_t rs1, uint32_t f3, uint32_t rd, uint32_t op) {
  return ((uint32_t)(imm & 0xFFF) << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | op;
}
uint32_t s_type(int32_t imm, uint32_t rs2, uint32_t rs1, uint32_t f3) {
  uint32_t u = (uint32_t)imm & 0xFFF;
  return ((u >> 5) << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | ((u & 31) << 7) | 0x23;
}
uint32_t b_type(int32_t off, uint32_t rs2, uint32_t rs1, uint32_t f3) {
  uint32_t u = (uint32_t)off;
  return (((u >> 12) & 1) << 31) | (((u >> 5) & 63) << 25) | (rs2 << 20) | (rs1 << 15) |
         (f3 << 12) | (((u >> 1) & 15) << 8) | (((u >> 11) & 1) << 7) | 0x63;
}
uint32_t j_type(int32_t off, uint32_t rd) {
  uint32_t u = (uint32_t)off;
  return (((u >> 20) & 1) << 31) | (((u >> 1) & 1023) << 21) | (((u >> 11) & 1) << 20) |
         (((u >> 12) & 255) << 12) | (rd << 7) | 0x6F;
}
uint32_t u_type(uint32_t imm20, uint32_t rd, uint32_t op) { return (imm20 << 12) | (rd << 7) | op; }

struct Gen {
  std::mt19937_64 rng;
  std::vector<uint32_t> prog;
  bool irq = false;   // interrupt mode: handler at 0x4, mscratch reserved for it
  uint32_t win2 = kMmioWinBase;   // x29's window
  explicit Gen(uint64_t seed, bool with_irq) : rng(seed), irq(with_irq) {}
  uint32_t rnd(uint32_t n) { return (uint32_t)(rng() % n); }
  uint32_t special() {
    static const uint32_t v[] = {0, 1, 2, 0xFFFFFFFFu, 0x80000000u, 0x7FFFFFFFu, 0xFFFFFFFEu,
                                 0x80000001u, 31, 32, 0x55555555u, 0xAAAAAAAAu, 0x10000u};
    return rnd(3) ? v[rnd(sizeof v / sizeof v[0])] : (uint32_t)rng();
  }
  uint32_t reg() { return rnd(4) ? 1 + rnd(7) : rnd(29); }   // biased to x1..x7; x0..x28
  uint32_t dst() { uint32_t r = reg(); return r; }
  void li(uint32_t rd, uint32_t v) {
    uint32_t hi = (v + 0x800) >> 12;
    prog.push_back(u_type(hi & 0xFFFFF, rd, 0x37));
    prog.push_back(i_type((int32_t)(v & 0xFFF) << 20 >> 20, rd, 0, rd, 0x13));
  }
  void build(unsigned slots) {
    if (irq) {
      // 0x0: jump over the handler; 0x4: external-interrupt handler that reads mepc and mcause
      // (both compared in lock-step), clears the interrupt in the testbench, and returns
      prog.push_back(j_type(8 * 4, 0));
      prog.push_back(i_type(0x340, 28, 1, 28, 0x73));   // csrrw x28, mscratch, x28
      prog.push_back(i_type(0x341, 0, 2, 28, 0x73));    // csrr  x28, mepc
      prog.push_back(i_type(0x342, 0, 2, 28, 0x73));    // csrr  x28, mcause
      prog.push_back(u_type(0x50000, 28, 0x37));        // lui   x28, 0x50000
      prog.push_back(s_type(-28, 0, 28, 2));            // sw    x0, -28(x28)  (0x4FFFFFE4)
      prog.push_back(i_type(0x340, 28, 1, 28, 0x73));   // csrrw x28, mscratch, x28
      prog.push_back(0x30200073u);                      // mret
      li(28, 4);
      prog.push_back(i_type(0x305, 28, 1, 0, 0x73));    // csrw mtvec, x28
      li(28, 0x800);
      prog.push_back(i_type(0x304, 28, 1, 0, 0x73));    // csrw mie, x28 (MEIE)
      prog.push_back(i_type(0x300, 8, 6, 0, 0x73));     // csrsi mstatus, 8
    }
    li(31, kWinBase);
    li(29, win2);
    for (uint32_t r = 1; r < 29; r++) li(r, special());
    size_t body = prog.size();
    for (unsigned i = 0; i < slots; i++) {
      uint32_t k = rnd(100);
      size_t here = prog.size();
      size_t left = body + slots - here;        // slots until the loop-back jump (approx.)
      if (k < 30) {                             // OP (incl. M)
        static const uint32_t f7s[] = {0, 0, 0x20, 1, 1};
        uint32_t f7 = f7s[rnd(5)], f3 = rnd(8);
        if (f7 == 0x20) f3 = rnd(2) ? 0 : 5;
        prog.push_back(r_type(f7, reg(), reg(), f3, dst(), 0x33));
      } else if (k < 50) {                      // OP-IMM
        uint32_t f3 = rnd(8);
        if (f3 == 1) prog.push_back(r_type(0, rnd(32), reg(), 1, dst(), 0x13));
        else if (f3 == 5) prog.push_back(r_type(rnd(2) ? 0x20 : 0, rnd(32), reg(), 5, dst(), 0x13));
        else prog.push_back(i_type((int32_t)rnd(4096) - 2048, reg(), f3, dst(), 0x13));
      } else if (k < 54) {
        prog.push_back(u_type(rnd(1 << 20), dst(), rnd(2) ? 0x37 : 0x17));
      } else if (k < 57) {
        li(dst(), special());
      } else if (k < 69) {                      // loads
        static const uint32_t f3s[] = {0, 1, 2, 4, 5};
        uint32_t f3 = f3s[rnd(5)], n = f3 == 2 ? 4 : (f3 & 1) ? 2 : 1;
        int32_t off = ((int32_t)rnd(2048) - 256) & ~(int32_t)(n - 1);
        prog.push_back(i_type(off, rnd(4) ? 31 : 29, f3, dst(), 0x03));
      } else if (k < 79) {                      // stores
        uint32_t f3 = rnd(3), n = 1u << f3;
        int32_t off = ((int32_t)rnd(2048) - 256) & ~(int32_t)(n - 1);
        prog.push_back(s_type(off, reg(), rnd(4) ? 31 : 29, f3));
      } else if (k < 90) {                      // forward branch
        static const uint32_t f3s[] = {0, 1, 4, 5, 6, 7};
        uint32_t span = 1 + rnd(12);
        if (span > left) span = 1;
        prog.push_back(b_type((int32_t)span * 4, reg(), reg(), f3s[rnd(6)]));
      } else if (k < 93) {                      // forward JAL
        uint32_t span = 1 + rnd(8);
        if (span > left) span = 1;
        prog.push_back(j_type((int32_t)span * 4, rnd(3) ? dst() : 0));
      } else if (k < 95) {                      // AUIPC x30 + JALR forward (bit 0 set sometimes)
        uint32_t span = 2 + rnd(8);
        if (span > left + 1) span = 2;
        prog.push_back(u_type(0, 30, 0x17));
        prog.push_back(i_type((int32_t)span * 4 + (int32_t)rnd(2), 30, 0, dst(), 0x67));
      } else if (k < 98 && irq) {               // (mscratch belongs to the handler)
        prog.push_back(r_type(0, reg(), reg(), 0, dst(), 0x33));
      } else if (k < 98) {                      // mscratch CSR
        uint32_t f3 = 1 + rnd(3) + (rnd(2) ? 4 : 0);
        prog.push_back(i_type(0x340, (f3 & 4) ? rnd(32) : reg(), f3, dst(), 0x73));
      } else {                                  // back-to-back dependent load/use
        uint32_t r = 1 + rnd(7);
        prog.push_back(i_type((int32_t)rnd(64) * 4, 31, 2, r, 0x03));
        prog.push_back(r_type(rnd(2), r, r, 0, 1 + rnd(7), 0x33));
      }
    }
    // pad so that every forward target exists, then jump back to the top of the body
    for (int i = 0; i < 16; i++) prog.push_back(0x00000013);
    prog.push_back(j_type(-(int32_t)((prog.size() - body) * 4), 0));
  }
};
}  // namespace

int lockstep_main(int argc, char** argv) {
  uint64_t seed = 1, count = 200000;
  unsigned lat_g = 0, lat_r = 1, len = 3000, irq = 0, tc = 0;
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], 0, 0);
    else if (!strcmp(argv[i], "--count") && i + 1 < argc) count = strtoull(argv[++i], 0, 0);
    else if (!strcmp(argv[i], "--len") && i + 1 < argc) len = (unsigned)atoi(argv[++i]);
    else if (!strcmp(argv[i], "--irq") && i + 1 < argc) irq = (unsigned)atoi(argv[++i]);
    else if (!strcmp(argv[i], "--tc") && i + 1 < argc) tc = (unsigned)atoi(argv[++i]);
    else if (!strcmp(argv[i], "--lat") && i + 1 < argc) sscanf(argv[++i], "%u,%u", &lat_g, &lat_r);
  }
  Gen g(seed, irq != 0);
  if (tc) g.win2 = kTcWinBase;
  g.build(len);
  static uint8_t imem[kImemBytes], dmem[kDmemBytes], mram[4096];
  memset(imem, 0, sizeof imem);
  memset(dmem, 0, sizeof dmem);
  memset(mram, 0, sizeof mram);   // the testbench MMIO RAM starts zeroed too
  CpuHarness h(seed);
  h.set_latency(lat_g, lat_r);
  h.set_auto_irq(irq);
  h.set_tc_latency(tc);
  for (size_t i = 0; i < g.prog.size(); i++) {
    h.host_write((uint32_t)i * 4, g.prog[i]);
    memcpy(&imem[i * 4], &g.prog[i], 4);
  }
  for (uint32_t a = kInitLo; a < kInitHi; a += 4) {
    uint32_t v = (uint32_t)g.rng();
    h.host_write(a, v);
    memcpy(&dmem[a - kInitLo], &v, 4);
  }
  rv32_ref_t ref;
  memset(&ref, 0, sizeof ref);
  ref.imem = imem; ref.imem_bytes = kImemBytes; ref.dmem = dmem; ref.dmem_bytes = kDmemBytes;
  ref.mmio = mram; ref.mmio_bytes = sizeof mram; ref.mmio_seg = tc ? 3 : 4;

  uint64_t n = 0, errors = 0, n_irq = 0;
  h.on_retire = [&](const Retire& r) {
    if (errors) return;
    if (r.trap && irq) {   // interrupt: the reference takes it at the same instruction
      if (r.pc != ref.pc || r.we) {
        printf("FAIL random-seed%llu interrupt at dut pc=%08x, reference pc=%08x\n",
               (unsigned long long)seed, r.pc, ref.pc); tb_print_rerun();
        errors++;
      }
      rv32_ref_interrupt(&ref, 0x8000000Bu);
      n_irq++;
      return;
    }
    rv32_ret_t e;
    rv32_ref_step(&ref, &e);
    bool ok = r.pc == e.pc && r.insn == e.insn && r.trap == (bool)e.trap && r.we == (bool)e.we &&
              (!e.we || (r.rd == e.rd && r.wdata == e.wdata));
    if (!ok) {
      printf("FAIL random-seed%llu mismatch at retire #%llu: dut pc=%08x insn=%08x trap=%d we=%d "
             "x%u=%08x | ref pc=%08x insn=%08x trap=%d we=%d x%u=%08x\n",
             (unsigned long long)seed, (unsigned long long)n, r.pc, r.insn, r.trap, r.we, r.rd,
             r.wdata, e.pc, e.insn, e.trap, e.we, e.rd, e.wdata); tb_print_rerun();
      errors++;
    }
    n++;
  };
  h.release_reset();
  uint64_t start = h.cyc_, limit = count * 60 + 100000;
  while (n < count && !errors && h.cyc_ - start < limit) h.cycle();
  uint64_t cycles = h.cyc_ - start;
  if (errors) return 1;
  if (n < count) {
    printf("FAIL random-seed%llu stalled: %llu retired in %llu cycles\n", (unsigned long long)seed,
           (unsigned long long)n, (unsigned long long)cycles); tb_print_rerun();
    return 1;
  }
  // final DMEM window contents through the debug read port (core stopped in reset)
  h.on_retire = nullptr;
  h.hold_reset();
  h.cycle();
  unsigned bad = 0;
  for (uint32_t a = kInitLo; a < kInitHi; a += 4) {
    uint32_t exp;
    memcpy(&exp, &dmem[a - kInitLo], 4);
    if (h.dbg_read(a - 0x10000000u) != exp) bad++;
  }
  if (bad) {
    printf("FAIL random-seed%llu final DMEM window differs in %u words (debug port)\n",
           (unsigned long long)seed, bad); tb_print_rerun();
    return 1;
  }
  if (tc && memcmp(h.tc_ram(), mram, sizeof mram) != 0) {
    printf("FAIL random-seed%llu final tightly coupled RAM differs from the reference's\n",
           (unsigned long long)seed); tb_print_rerun();
    return 1;
  }
  printf("PASS random-seed%llu%s%s %llu instructions in lock-step, DMEM window%s equal (%llu "
         "cycles, prog %zu words, mmio-lat %u,%u, tc-lat 1..%u, %llu interrupts)\n",
         (unsigned long long)seed, irq ? "-irq" : "", tc ? "-tc" : "", (unsigned long long)n,
         tc ? " and tc RAM" : "", (unsigned long long)cycles, g.prog.size(), lat_g, lat_r,
         tc ? tc : 1u, (unsigned long long)n_irq);
  return 0;
}
