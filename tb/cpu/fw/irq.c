/* irq.c: machine timer and external interrupts: gating by mstatus.MIE / mie, priority, mcause/
 * mepc, nesting (handler re-enables MIE), interrupts arriving during multi-cycle divides and
 * during stalled MMIO loads (the testbench delays MMIO grants/responses randomly). */
#include "fw.h"

static volatile uint32_t n_ext, n_tmr, last_epc, last_cause, nest_mode, nest_depth, max_depth;
static volatile uint32_t cause_log[4], n_log, bad_trap;

static void timer_off(void) { MTIMECMP_HI = 0xFFFFFFFFu; MTIMECMP_LO = 0xFFFFFFFFu; }
static void timer_at(uint32_t delta) {
  uint32_t now = MTIME_LO;  /* tests run far below 2^32 cycles: hi stays 0 */
  MTIMECMP_HI = 0xFFFFFFFFu;
  MTIMECMP_LO = now + delta;
  MTIMECMP_HI = MTIME_HI;
}

uint32_t trap_handler(uint32_t cause, uint32_t epc, uint32_t tval) {
  (void)tval;
  nest_depth++;
  if (nest_depth > max_depth) max_depth = nest_depth;
  if (n_log < 4) cause_log[n_log++] = cause;
  last_epc = epc; last_cause = cause;
  volatile uint32_t x = 1000003u, y = 7u;
  uint32_t q = x / y;                       /* the handler uses the divider too */
  if (q != 142857u) bad_trap++;
  if (cause == 0x8000000Bu) {
    SIM_IRQ_CLR = 1;
    n_ext++;
    if (nest_mode) {                        /* arm the timer and let it preempt this handler */
      nest_mode = 0;
      timer_at(0);
      CSR_SET(mstatus, 8);
      for (int i = 0; i < 1000 && n_tmr == 0; i++) asm volatile("nop");
      CSR_CLEAR(mstatus, 8);
    }
  } else if (cause == 0x80000007u) {
    timer_off();
    n_tmr++;
  } else {
    bad_trap++;
    fw_puts("FAIL irq.unexpected_trap mcause="); fw_hex(cause); fw_puts(" mepc="); fw_hex(epc);
    fw_putc('\n');
    SIM_EXIT = 0x200u;
  }
  nest_depth--;
  return epc;
}

static void wait_for(volatile uint32_t *cnt, uint32_t v) {
  for (int i = 0; i < 20000 && *cnt < v; i++) asm volatile("nop");
}

int main(void) {
  fw_prefix = "irq.";
  uint32_t lbl;
  timer_off();
  CSR_WRITE(mie, (1u << 7) | (1u << 11));

  /* 1. timer interrupt */
  CSR_SET(mstatus, 8);
  timer_at(200);
  wait_for(&n_tmr, 1);
  check("timer.count", n_tmr, 1);
  check("timer.mcause", last_cause, 0x80000007u);
  check("timer.mtip_cleared", CSR_READ(mip) & 0x80, 0);

  /* 2. MIE gating: pending timer with MIE=0 is not taken; enabling takes it at the next insn */
  CSR_CLEAR(mstatus, 8);
  n_tmr = 0;
  timer_at(0);
  for (int i = 0; i < 50; i++) asm volatile("nop");
  check("gate_mie.not_taken", n_tmr, 0);
  check("gate_mie.mip_mtip", CSR_READ(mip) & 0x80, 0x80);
  asm volatile("csrsi mstatus, 8\n1:\tnop\n\tla %0, 1b" : "=r"(lbl));
  check("gate_mie.taken", n_tmr, 1);
  check("gate_mie.mepc_next_insn", last_epc, lbl);
  CSR_CLEAR(mstatus, 8);

  /* 3. mie gating: MTIE=0 blocks the timer even with MIE=1 */
  CSR_WRITE(mie, 1u << 11);
  n_tmr = 0;
  timer_at(0);
  CSR_SET(mstatus, 8);
  for (int i = 0; i < 50; i++) asm volatile("nop");
  check("gate_mtie.not_taken", n_tmr, 0);
  CSR_CLEAR(mstatus, 8);
  timer_off();
  CSR_WRITE(mie, (1u << 7) | (1u << 11));

  /* 4. external interrupt, MEIE gating, mip.MEIP */
  CSR_WRITE(mie, 1u << 7);
  SIM_IRQ_SET = 1;
  for (int i = 0; i < 20; i++) asm volatile("nop");
  check("ext.mip_meip", CSR_READ(mip) & 0x800, 0x800);
  CSR_SET(mstatus, 8);
  for (int i = 0; i < 20; i++) asm volatile("nop");
  check("ext.meie_gate", n_ext, 0);
  CSR_SET(mie, 1u << 11);
  wait_for(&n_ext, 1);
  check("ext.count", n_ext, 1);
  check("ext.mcause", last_cause, 0x8000000Bu);
  CSR_CLEAR(mstatus, 8);

  /* 5. priority: external before timer when both are pending */
  n_ext = n_tmr = 0; n_log = 0;
  timer_at(0);
  SIM_IRQ_SET = 1;
  for (int i = 0; i < 20; i++) asm volatile("nop");
  CSR_SET(mstatus, 8);
  wait_for(&n_tmr, 1);
  CSR_CLEAR(mstatus, 8);
  check("priority.first_ext", cause_log[0], 0x8000000Bu);
  check("priority.then_timer", cause_log[1], 0x80000007u);

  /* 6. nesting: the external handler re-enables MIE and is preempted by the timer */
  n_ext = n_tmr = 0; max_depth = 0; nest_mode = 1;
  CSR_SET(mstatus, 8);
  SIM_IRQ_SET = 5;
  wait_for(&n_ext, 1);
  CSR_CLEAR(mstatus, 8);
  check("nest.ext", n_ext, 1);
  check("nest.timer", n_tmr, 1);
  check("nest.depth2", max_depth, 2);

  /* 7. interrupts during divides: results must be exact, every interrupt taken once */
  {
    uint32_t errs = 0, hits = 0, iters = 0;
    CSR_SET(mstatus, 8);
    for (uint32_t d = 1; d < 140; d += 1) {
      uint32_t before = n_ext, a = 0x7FFFFFF1u + d, b = 3u + d, q, r, q2, r2, s, e;
      SIM_IRQ_SET = d;
      asm volatile("la %4, 1f\n1:\tdiv %0, %6, %7\n\trem %1, %6, %7\n\tdivu %2, %6, %7\n\tremu %3, %2, %7\n\t"
                   "la %5, 2f\n2:" : "=&r"(q), "=&r"(r), "=&r"(q2), "=&r"(r2), "=&r"(s), "=&r"(e)
                   : "r"(a), "r"(b));
      wait_for(&n_ext, before + 1);
      iters++;
      int32_t sa = (int32_t)a, sb = (int32_t)b;
      if (q != (uint32_t)(sa / sb) || r != (uint32_t)(sa % sb) || q2 != a / b || r2 != (a / b) % b) errs++;
      if (n_ext != before + 1) errs++;
      if (last_epc >= s && last_epc < e) {
        uint32_t insn = *(const volatile uint32_t *)last_epc;   /* data read of IMEM */
        if ((insn & 0xFE00707Fu) == 0x02004033u || (insn & 0xFE00607Fu) == 0x02006033u ||
            (insn & 0xFE00707Fu) == 0x02005033u) hits++;
      }
    }
    CSR_CLEAR(mstatus, 8);
    check("div_irq.results", errs, 0);
    check("div_irq.hit_divides", hits >= 20, 1);
    fw_puts("# div_irq: "); fw_dec(iters); fw_puts(" interrupts, "); fw_dec(hits);
    fw_puts(" taken on a divide in flight\n");
  }

  /* 8. interrupts during stalled MMIO loads and stores (slow, random-latency MMIO) */
  {
    for (int i = 0; i < 16; i++) MMIO_RAM[i] = 0x01010101u * (uint32_t)(i + 1);
    SIM_LATENCY = (6u << 16) | 30u;
    uint32_t errs = 0, hits = 0, iters = 0;
    CSR_SET(mstatus, 8);
    for (uint32_t d = 1; d < 200; d += 3) {
      uint32_t before = n_ext, s, e, sum;
      SIM_IRQ_SET = d;
      asm volatile("la %1, 1f\n1:\tlw t0, 0(%3)\n\tlw t1, 4(%3)\n\tadd %0, t0, t1\n\tlw t0, 8(%3)\n\t"
                   "add %0, %0, t0\n\tlw t1, 12(%3)\n\tadd %0, %0, t1\n\tsw %0, 60(%3)\n\tlw t0, 60(%3)\n\t"
                   "add %0, %0, t0\n\tlw t1, 16(%3)\n\tadd %0, %0, t1\n\tla %2, 2f\n2:"
                   : "=&r"(sum), "=&r"(s), "=&r"(e) : "r"(MMIO_RAM) : "t0", "t1", "memory");
      wait_for(&n_ext, before + 1);
      iters++;
      if (sum != 2u * 0x0A0A0A0Au + 0x05050505u) errs++;
      if (n_ext != before + 1) errs++;
      if (last_epc >= s && last_epc < e) hits++;
    }
    CSR_CLEAR(mstatus, 8);
    SIM_LATENCY = 1u;
    check("mmio_irq.results", errs, 0);
    check("mmio_irq.hit_block", hits >= 10, 1);
    fw_puts("# mmio_irq: "); fw_dec(iters); fw_puts(" interrupts, "); fw_dec(hits);
    fw_puts(" taken inside the MMIO load block\n");
  }

  /* 9. wfi is a no-op that does not block interrupts */
  CSR_SET(mstatus, 8);
  n_ext = 0;
  SIM_IRQ_SET = 3;
  asm volatile("wfi");
  wait_for(&n_ext, 1);
  CSR_CLEAR(mstatus, 8);
  check("wfi", n_ext, 1);
  check("no_bad_traps", bad_trap, 0);

  fw_puts("# irq: "); fw_dec((uint32_t)fw_checks); fw_puts(" checks, "); fw_dec((uint32_t)fw_fails);
  fw_puts(" failed\n");
  return fw_fails;
}
