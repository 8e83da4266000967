/* trap.c: synchronous exceptions and mret: illegal instruction, misaligned load/store/jump,
 * ecall, ebreak; mcause/mepc/mtval checked; rd / memory not written by a trapping instruction;
 * mstatus.MIE/MPIE stacking. */
#include "fw.h"

static volatile uint32_t t_cause, t_epc, t_tval, t_count, t_mstatus;
static volatile uint32_t buf[4] = {0x11111111u, 0x22222222u, 0x33333333u, 0x44444444u};

uint32_t trap_handler(uint32_t cause, uint32_t epc, uint32_t tval) {
  t_cause = cause; t_epc = epc; t_tval = tval; t_count++;
  t_mstatus = CSR_READ(mstatus);
  return epc + 4;   /* skip the trapping instruction */
}

static void expect(const char *name, uint32_t cause, uint32_t epc, uint32_t tval) {
  char n[64]; int i = 0;
  for (const char *p = name; *p && i < 40; p++) n[i++] = *p;
  const char *suf[4] = {".count", ".mcause", ".mepc", ".mtval"};
  uint32_t got[4] = {t_count, t_cause, t_epc, t_tval}, exp[4] = {1, cause, epc, tval};
  for (int k = 0; k < 4; k++) {
    int j = i;
    for (const char *p = suf[k]; *p; p++) n[j++] = *p;
    n[j] = 0;
    check(n, got[k], exp[k]);
  }
  t_count = 0;
}

int main(void) {
  fw_prefix = "trap.";
  uint32_t pc, r, insn;

  /* illegal: all-zero word */
  asm volatile("la %0, 1f\n1:\t.word 0x00000000" : "=r"(pc));
  expect("illegal_zero", 2, pc, 0);
  /* illegal: unknown opcode, mtval = instruction bits */
  asm volatile("la %0, 1f\n1:\t.word 0xFFFFFFFF" : "=r"(pc));
  expect("illegal_ones", 2, pc, 0xFFFFFFFFu);
  /* illegal: write to read-only mhartid; unknown CSR; bad funct7 */
  asm volatile("la %0, 1f\n1:\tcsrw mhartid, zero\n\tla %1, 1b\n\tlw %1, 0(%1)" : "=r"(pc), "=r"(insn));
  expect("illegal_csr_ro", 2, pc, insn);
  asm volatile("la %0, 1f\n1:\tcsrr t0, 0x7c0" : "=r"(pc) :: "t0");
  expect("illegal_csr_unknown", 2, pc, 0x7C0022F3u);
  asm volatile("la %0, 1f\n1:\t.word 0x40001033" : "=r"(pc));   /* sll with funct7=0x20 */
  expect("illegal_funct7", 2, pc, 0x40001033u);
  /* rd is not written by an illegal instruction (csrr t0 to an unknown CSR) */
  asm volatile("li t0, 77\n\tcsrr t0, 0x7c0\n\tmv %0, t0" : "=r"(r) :: "t0");
  check("illegal_no_rd", r, 77); t_count = 0;

  /* ecall / ebreak */
  asm volatile("la %0, 1f\n1:\tecall" : "=r"(pc));
  expect("ecall", 11, pc, 0);
  asm volatile("la %0, 1f\n1:\tebreak" : "=r"(pc));
  expect("ebreak", 3, pc, 0);

  /* misaligned loads: mtval = address; rd not written */
  uint32_t base = (uint32_t)(uintptr_t)buf;
  asm volatile("li %1, 55\n\tla %0, 1f\n1:\tlw %1, 1(%2)" : "=&r"(pc), "=&r"(r) : "r"(base));
  expect("lw_mis1", 4, pc, base + 1);
  check("lw_mis_no_rd", r, 55);
  asm volatile("la %0, 1f\n1:\tlw %1, 2(%2)" : "=&r"(pc), "=&r"(r) : "r"(base));
  expect("lw_mis2", 4, pc, base + 2);
  asm volatile("la %0, 1f\n1:\tlh %1, 3(%2)" : "=&r"(pc), "=&r"(r) : "r"(base));
  expect("lh_mis", 4, pc, base + 3);
  asm volatile("la %0, 1f\n1:\tlhu %1, 1(%2)" : "=&r"(pc), "=&r"(r) : "r"(base));
  expect("lhu_mis", 4, pc, base + 1);
  asm volatile("lb %0, 3(%1)" : "=r"(r) : "r"(base));
  check("lb_any_ok", t_count, 0);
  /* misaligned stores: memory unchanged */
  asm volatile("la %0, 1f\n1:\tsw %1, 2(%2)" : "=&r"(pc) : "r"(0xDEADBEEFu), "r"(base) : "memory");
  expect("sw_mis", 6, pc, base + 2);
  asm volatile("la %0, 1f\n1:\tsh %1, 1(%2)" : "=&r"(pc) : "r"(0xDEADBEEFu), "r"(base) : "memory");
  expect("sh_mis", 6, pc, base + 1);
  check("st_mis_no_write0", buf[0], 0x11111111u);
  check("st_mis_no_write1", buf[1], 0x22222222u);
  /* misaligned load to MMIO space also traps before reaching the port */
  asm volatile("la %0, 1f\n1:\tlw %1, 2(%2)" : "=&r"(pc), "=&r"(r) : "r"(0x40000000u));
  expect("lw_mis_mmio", 4, pc, 0x40000002u);

  /* misaligned jump targets: the jump traps, mepc = the jump, mtval = target, rd unchanged */
  uint32_t tgt;
  asm volatile("li %2, 66\n\tla %1, 2f\n\taddi %1, %1, 2\n\tla %0, 1f\n1:\tjalr %2, 0(%1)\n\tj 3f\n2:\tnop\n\tnop\n3:"
               : "=&r"(pc), "=&r"(tgt), "=&r"(r));
  expect("jalr_mis", 0, pc, tgt);
  check("jalr_mis_no_rd", r, 66);
  asm volatile("la %0, 1f\n1:\t.word 0x00000363\n\tnop\n\tnop" : "=r"(pc));  /* beq x0,x0,.+6 */
  expect("beq_mis", 0, pc, pc + 6);
  asm volatile(".word 0x00001363\n\tnop\n\tnop");                            /* bne x0,x0,.+6 */
  check("bne_mis_not_taken", t_count, 0);
  asm volatile("la %0, 1f\n1:\t.word 0x0060006f\n\tnop\n\tnop" : "=r"(pc));  /* jal x0,.+6 */
  expect("jal_mis", 0, pc, pc + 6);

  /* mstatus stacking: MIE=1 before the trap -> in handler MIE=0, MPIE=1; after mret MIE=1 */
  CSR_WRITE(mie, 0);
  CSR_SET(mstatus, 8);
  asm volatile("ecall");
  check("mstatus_in_handler", t_mstatus & 0x88, 0x80);
  check("mstatus_after_mret", CSR_READ(mstatus) & 0x88, 0x88);
  CSR_CLEAR(mstatus, 8);
  asm volatile("ecall");
  check("mstatus_in_handler_mie0", t_mstatus & 0x88, 0x00);
  check("mstatus_after_mret_mie0", CSR_READ(mstatus) & 0x88, 0x80);
  t_count = 0;

  /* mret to an address written in mepc by software */
  asm volatile("la t0, 1f\n\tcsrw mepc, t0\n\tli %0, 1\n\tmret\n\tli %0, 2\n1:" : "=&r"(r) :: "t0");
  check("mret_sw_mepc", r, 1);
  /* mcause/mtval/mepc are writable */
  CSR_WRITE(mtval, 0x1234u); check("mtval_rw", CSR_READ(mtval), 0x1234u);
  CSR_WRITE(mcause, 0x80000003u); check("mcause_rw", CSR_READ(mcause), 0x80000003u);
  CSR_WRITE(mepc, 0x103u); check("mepc_align", CSR_READ(mepc), 0x100u);

  fw_puts("# trap: "); fw_dec((uint32_t)fw_checks); fw_puts(" checks, "); fw_dec((uint32_t)fw_fails);
  fw_puts(" failed\n");
  return fw_fails;
}
