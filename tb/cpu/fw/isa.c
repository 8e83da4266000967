/* isa.c: RV32IM instruction tests with edge cases (each check prints PASS/FAIL). */
#include "fw.h"

#define RR(op, a, b) ({ uint32_t _r; asm volatile(op " %0, %1, %2" : "=r"(_r) : "r"(a), "r"(b)); _r; })
#define RI(op, a, imm) ({ uint32_t _r; asm volatile(op " %0, %1, " #imm : "=r"(_r) : "r"(a)); _r; })
/* forward branch: 1 when taken */
#define BRF(op, a, b) ({ uint32_t _t; asm volatile("li %0, 1\n\t" op " %1, %2, 1f\n\tli %0, 0\n1:" \
                          : "=&r"(_t) : "r"(a), "r"(b)); _t; })
/* backward branch (predicted taken): 1 when taken */
#define BRB(op, a, b) ({ uint32_t _t; asm volatile("li %0, 0\n\tj 2f\n1:\tli %0, 1\n\tj 3f\n2:\t" op \
                          " %1, %2, 1b\n3:" : "=&r"(_t) : "r"(a), "r"(b)); _t; })

static volatile uint32_t words[8] = {0x8081F0FFu, 0x7F017FFFu, 0x12345678u, 0, 0, 0, 0, 0};
static const uint32_t rodata_words[4] = {0xCAFEF00Du, 0x80000001u, 0x00FF00FFu, 0xA5A5A5A5u};
static volatile uint32_t chain[4];

static void test_alu(void) {
  check("add", RR("add", 0x7FFFFFFFu, 1u), 0x80000000u);
  check("sub", RR("sub", 0u, 1u), 0xFFFFFFFFu);
  check("sll_mask", RR("sll", 1u, 33u), 2u);
  check("srl_mask", RR("srl", 0x80000000u, 0xFFFFFFE1u), 0x40000000u);
  check("sra_mask", RR("sra", 0x80000000u, 63u), 0xFFFFFFFFu);
  check("sra_pos", RR("sra", 0x40000000u, 30u), 1u);
  check("slt_neg", RR("slt", 0xFFFFFFFFu, 0u), 1u);
  check("slt_pos", RR("slt", 0u, 0xFFFFFFFFu), 0u);
  check("sltu", RR("sltu", 0u, 0xFFFFFFFFu), 1u);
  check("sltu_eq", RR("sltu", 5u, 5u), 0u);
  check("xor", RR("xor", 0xF0F0F0F0u, 0xFF00FF00u), 0x0FF00FF0u);
  check("or", RR("or", 0xF0F0F0F0u, 0x0F000000u), 0xFFF0F0F0u);
  check("and", RR("and", 0xF0F0F0F0u, 0xFF00FF00u), 0xF000F000u);
  check("addi_neg", RI("addi", 5u, -6), 0xFFFFFFFFu);
  check("slti", RI("slti", 0xFFFFFFFEu, -1), 1u);
  check("sltiu_signext", RI("sltiu", 5u, -1), 1u);   /* imm sign-extends to 0xFFFFFFFF */
  check("sltiu_zero", RI("sltiu", 0u, 1), 1u);
  check("xori_not", RI("xori", 0x12345678u, -1), 0xEDCBA987u);
  check("ori", RI("ori", 0x80000000u, 0x7FF), 0x800007FFu);
  check("andi", RI("andi", 0xFFFFFFFFu, -2048), 0xFFFFF800u);
  check("slli", RI("slli", 3u, 31), 0x80000000u);
  check("srli", RI("srli", 0x80000000u, 31), 1u);
  check("srai", RI("srai", 0x80000000u, 31), 0xFFFFFFFFu);
  check("srai0", RI("srai", 0x80000000u, 0), 0x80000000u);
  uint32_t r;
  asm volatile("lui %0, 0xFFFFF" : "=r"(r));
  check("lui", r, 0xFFFFF000u);
  uint32_t a, l;
  asm volatile("1: auipc %0, 0x12345\n\tla %1, 1b" : "=r"(a), "=r"(l));
  check("auipc", a - l, 0x12345000u);
}

static void test_x0(void) {
  uint32_t r;
  asm volatile("li t0, 5\n\tadd x0, t0, t0\n\tadd %0, x0, x0" : "=r"(r) :: "t0");
  check("x0_add", r, 0);
  asm volatile("lui x0, 0x12345\n\taddi %0, x0, 0" : "=r"(r));
  check("x0_lui", r, 0);
  asm volatile("lw x0, 0(%1)\n\tmv %0, x0" : "=r"(r) : "r"(&words[2]));
  check("x0_load", r, 0);
  asm volatile("li t0, 7\n\tcsrrw x0, mscratch, t0\n\tcsrr %0, mscratch\n\tmv t0, x0\n\tadd %0, %0, t0" : "=r"(r) :: "t0");
  check("x0_csr", r, 7);
  asm volatile("jal x0, 1f\n1:\taddi %0, x0, 0" : "=r"(r));
  check("x0_jal", r, 0);
  asm volatile("li t0, 3\n\tmul x0, t0, t0\n\tmv %0, x0" : "=r"(r) :: "t0");
  check("x0_mul", r, 0);
  asm volatile("li t0, 9\n\tdiv x0, t0, t0\n\tmv %0, x0" : "=r"(r) :: "t0");
  check("x0_div", r, 0);
}

static void test_loads_stores(void) {
  const volatile uint32_t *w = words;
  uint32_t r;
  asm volatile("lb %0, 0(%1)" : "=r"(r) : "r"(w)); check("lb_neg", r, 0xFFFFFFFFu);
  asm volatile("lb %0, 1(%1)" : "=r"(r) : "r"(w)); check("lb_b1", r, 0xFFFFFFF0u);
  asm volatile("lb %0, 2(%1)" : "=r"(r) : "r"(w)); check("lb_b2", r, 0xFFFFFF81u);
  asm volatile("lb %0, 3(%1)" : "=r"(r) : "r"(w)); check("lb_b3", r, 0xFFFFFF80u);
  asm volatile("lb %0, 4(%1)" : "=r"(r) : "r"(w)); check("lb_pos", r, 0xFFFFFFFFu);
  asm volatile("lb %0, 5(%1)" : "=r"(r) : "r"(w)); check("lb_pos2", r, 0x7Fu);
  asm volatile("lbu %0, 0(%1)" : "=r"(r) : "r"(w)); check("lbu", r, 0xFFu);
  asm volatile("lbu %0, 3(%1)" : "=r"(r) : "r"(w)); check("lbu_b3", r, 0x80u);
  asm volatile("lh %0, 0(%1)" : "=r"(r) : "r"(w)); check("lh_neg", r, 0xFFFFF0FFu);
  asm volatile("lh %0, 2(%1)" : "=r"(r) : "r"(w)); check("lh_hi", r, 0xFFFF8081u);
  asm volatile("lh %0, 4(%1)" : "=r"(r) : "r"(w)); check("lh_pos", r, 0x7FFFu);
  asm volatile("lhu %0, 2(%1)" : "=r"(r) : "r"(w)); check("lhu_hi", r, 0x8081u);
  asm volatile("lw %0, 8(%1)" : "=r"(r) : "r"(w)); check("lw", r, 0x12345678u);
  asm volatile("lw %0, -4(%1)" : "=r"(r) : "r"(w + 3)); check("lw_negoff", r, 0x12345678u);
  volatile uint32_t *s = &words[4];
  *s = 0;
  asm volatile("sb %0, 1(%1)" :: "r"(0xAABBCCDDu), "r"(s) : "memory");
  check("sb", *s, 0x0000DD00u);
  asm volatile("sh %0, 2(%1)" :: "r"(0x11223344u), "r"(s) : "memory");
  check("sh", *s, 0x3344DD00u);
  asm volatile("sb %0, 0(%1)" :: "r"(0x99u), "r"(s) : "memory");
  check("sb0", *s, 0x3344DD99u);
  asm volatile("sw %0, 0(%1)" :: "r"(0xDEADBEEFu), "r"(s) : "memory");
  check("sw", *s, 0xDEADBEEFu);
  /* loads from IMEM (.rodata) */
  const volatile uint32_t *ro = rodata_words;
  check("rodata_in_imem", (uint32_t)(uintptr_t)ro < 0x10000000u, 1);
  check("imem_lw", ro[0], 0xCAFEF00Du);
  asm volatile("lh %0, 2(%1)" : "=r"(r) : "r"(ro)); check("imem_lh", r, 0xFFFFCAFEu);
  asm volatile("lbu %0, 7(%1)" : "=r"(r) : "r"(ro)); check("imem_lbu", r, 0x80u);
  /* store then load immediately (same and different bytes) */
  asm volatile("sw %1, 0(%2)\n\tlw %0, 0(%2)" : "=&r"(r) : "r"(0x01020304u), "r"(s) : "memory");
  check("st_ld_same", r, 0x01020304u);
  asm volatile("sb %1, 3(%2)\n\tlw %0, 0(%2)" : "=&r"(r) : "r"(0xEEu), "r"(s) : "memory");
  check("sb_lw", r, 0xEE020304u);
}

static void test_hazards(void) {
  uint32_t r;
  words[5] = 40;
  /* load-use: the loaded value used by the very next instruction */
  asm volatile("lw t0, 0(%1)\n\taddi %0, t0, 2" : "=r"(r) : "r"(&words[5]) : "t0");
  check("load_use_alu", r, 42);
  asm volatile("lw t0, 0(%1)\n\tmul %0, t0, t0" : "=r"(r) : "r"(&words[5]) : "t0");
  check("load_use_mul", r, 1600);
  asm volatile("lw t0, 0(%1)\n\tli %0, 0\n\tbne t0, x0, 1f\n\tli %0, 9\n1:" : "=&r"(r) : "r"(&words[5]) : "t0");
  check("load_use_branch", r, 0);
  /* pointer chase: load address from a load */
  chain[0] = (uint32_t)(uintptr_t)&chain[1];
  chain[1] = (uint32_t)(uintptr_t)&chain[2];
  chain[2] = 0x5A5A0001u;
  asm volatile("lw t0, 0(%1)\n\tlw t0, 0(t0)\n\tlw %0, 0(t0)" : "=r"(r) : "r"(&chain[0]) : "t0");
  check("load_addr_chain", r, 0x5A5A0001u);
  /* load-use into store data and store address */
  asm volatile("lw t0, 0(%1)\n\tsw t0, 4(%1)\n\tlw %0, 4(%1)" : "=&r"(r) : "r"(&words[5]) : "t0", "memory");
  check("load_store_data", r, 40);
  /* ALU forwarding chain */
  asm volatile("li %0, 1\n\tadd %0, %0, %0\n\tadd %0, %0, %0\n\tslli %0, %0, 3\n\taddi %0, %0, 1" : "=&r"(r));
  check("fwd_chain", r, 33);
  /* forwarding both operands, then branch on forwarded values */
  asm volatile("li t0, 7\n\tli t1, 7\n\tli %0, 1\n\tbeq t0, t1, 1f\n\tli %0, 0\n1:" : "=&r"(r) :: "t0", "t1");
  check("fwd_branch", r, 1);
  /* jalr on a just-computed register */
  asm volatile("la t0, 1f\n\tjalr t1, 0(t0)\n\tli %0, 5\n\tj 2f\n1:\tli %0, 6\n2:" : "=&r"(r) :: "t0", "t1");
  check("fwd_jalr", r, 6);
  /* mul result used at once, div result used at once */
  asm volatile("li t0, 6\n\tli t1, 7\n\tmul t2, t0, t1\n\tdiv %0, t2, t0\n\taddi %0, %0, 1" : "=&r"(r) :: "t0", "t1", "t2");
  check("md_chain", r, 8);
  /* csr read used next */
  asm volatile("li t0, 21\n\tcsrw mscratch, t0\n\tcsrr t1, mscratch\n\tadd %0, t1, t1" : "=&r"(r) :: "t0", "t1");
  check("csr_fwd", r, 42);
}

static void test_branches(void) {
  const uint32_t m1 = 0xFFFFFFFFu;
  check("beq_t", BRF("beq", 3u, 3u), 1);   check("beq_n", BRF("beq", 3u, 4u), 0);
  check("bne_t", BRF("bne", 3u, 4u), 1);   check("bne_n", BRF("bne", 3u, 3u), 0);
  check("blt_t", BRF("blt", m1, 0u), 1);   check("blt_n", BRF("blt", 0u, m1), 0);
  check("blt_eq", BRF("blt", 5u, 5u), 0);
  check("bge_t", BRF("bge", 0u, m1), 1);   check("bge_n", BRF("bge", m1, 0u), 0);
  check("bge_eq", BRF("bge", 5u, 5u), 1);
  check("bltu_t", BRF("bltu", 0u, m1), 1); check("bltu_n", BRF("bltu", m1, 0u), 0);
  check("bgeu_t", BRF("bgeu", m1, 0u), 1); check("bgeu_n", BRF("bgeu", 0u, m1), 0);
  check("bgeu_eq", BRF("bgeu", 7u, 7u), 1);
  check("bbeq_t", BRB("beq", 3u, 3u), 1);   check("bbeq_n", BRB("beq", 3u, 4u), 0);
  check("bbne_t", BRB("bne", 3u, 4u), 1);   check("bbne_n", BRB("bne", 3u, 3u), 0);
  check("bblt_t", BRB("blt", m1, 0u), 1);   check("bblt_n", BRB("blt", 0u, m1), 0);
  check("bbge_t", BRB("bge", 0u, m1), 1);   check("bbge_n", BRB("bge", m1, 0u), 0);
  check("bbltu_t", BRB("bltu", 0u, m1), 1); check("bbltu_n", BRB("bltu", m1, 0u), 0);
  check("bbgeu_t", BRB("bgeu", m1, 0u), 1); check("bbgeu_n", BRB("bgeu", 0u, m1), 0);
  /* JAL link value */
  uint32_t link, lab;
  asm volatile("jal %0, 1f\n\tnop\n1:\tla %1, 1b" : "=&r"(link), "=r"(lab));
  check("jal_link", lab - link, 4);
  /* JALR clears bit 0 of the target; link = pc + 4; rd == rs1 */
  uint32_t r;
  asm volatile("la t0, 1f+1\n\tjalr %0, 0(t0)\n\tli %0, 0\n1:\tla t1, 1b\n\tsub %0, t1, %0" : "=&r"(r) :: "t0", "t1");
  check("jalr_bit0", r, 4);
  asm volatile("la %0, 1f\n\taddi %0, %0, -3\n\tjalr %0, 3(%0)\n\tli %0, 0\n1:\tla t1, 1b\n\tsub %0, t1, %0" : "=&r"(r) :: "t1");
  check("jalr_rd_eq_rs1", r, 4);
  /* a backward loop (predicted taken) that exits */
  uint32_t n = 0;
  asm volatile("li t0, 10\n1:\taddi %0, %0, 3\n\taddi t0, t0, -1\n\tbnez t0, 1b" : "+r"(n) :: "t0");
  check("loop", n, 30);
}

static void test_muldiv(void) {
  check("mul", RR("mul", 0x12345678u, 0x9ABCDEF0u), 0x242D2080u);
  check("mul_neg", RR("mul", 0xFFFFFFFFu, 0xFFFFFFFFu), 1u);
  check("mulh_mm", RR("mulh", 0xFFFFFFFFu, 0xFFFFFFFFu), 0u);
  check("mulh_min", RR("mulh", 0x80000000u, 0x80000000u), 0x40000000u);
  check("mulh_mp", RR("mulh", 0x80000000u, 0x7FFFFFFFu), 0xC0000000u);
  check("mulhu_mm", RR("mulhu", 0xFFFFFFFFu, 0xFFFFFFFFu), 0xFFFFFFFEu);
  check("mulhu_min", RR("mulhu", 0x80000000u, 0x80000000u), 0x40000000u);
  check("mulhsu_m1", RR("mulhsu", 0xFFFFFFFFu, 0xFFFFFFFFu), 0xFFFFFFFFu);
  check("mulhsu_pm", RR("mulhsu", 0x7FFFFFFFu, 0xFFFFFFFFu), 0x7FFFFFFEu);
  check("mulhsu_min", RR("mulhsu", 0x80000000u, 0xFFFFFFFFu), 0x80000000u);
  check("mulhsu_pos", RR("mulhsu", 2u, 0x80000000u), 1u);
  check("div", RR("div", 20u, 6u), 3u);
  check("div_neg", RR("div", (uint32_t)-20, 6u), (uint32_t)-3);
  check("div_negd", RR("div", 20u, (uint32_t)-6), (uint32_t)-3);
  check("div_nn", RR("div", (uint32_t)-20, (uint32_t)-6), 3u);
  check("div_by0", RR("div", 123u, 0u), 0xFFFFFFFFu);
  check("div_neg_by0", RR("div", (uint32_t)-123, 0u), 0xFFFFFFFFu);
  check("div_ovf", RR("div", 0x80000000u, 0xFFFFFFFFu), 0x80000000u);
  check("divu", RR("divu", 0xFFFFFFFFu, 2u), 0x7FFFFFFFu);
  check("divu_by0", RR("divu", 5u, 0u), 0xFFFFFFFFu);
  check("divu_big", RR("divu", 0x80000000u, 0xFFFFFFFFu), 0u);
  check("divu_one", RR("divu", 0xFFFFFFFFu, 1u), 0xFFFFFFFFu);
  check("rem", RR("rem", 20u, 6u), 2u);
  check("rem_neg", RR("rem", (uint32_t)-20, 6u), (uint32_t)-2);
  check("rem_negd", RR("rem", 20u, (uint32_t)-6), 2u);
  check("rem_by0", RR("rem", (uint32_t)-7, 0u), (uint32_t)-7);
  check("rem_ovf", RR("rem", 0x80000000u, 0xFFFFFFFFu), 0u);
  check("remu", RR("remu", 0xFFFFFFFFu, 10u), 5u);
  check("remu_by0", RR("remu", 0x80000000u, 0u), 0x80000000u);
  check("remu_big", RR("remu", 5u, 0xFFFFFFFFu), 5u);
  check("div_min_1", RR("div", 0x80000000u, 1u), 0x80000000u);
  check("div_min_2", RR("div", 0x80000000u, 2u), 0xC0000000u);
}

static void test_csr(void) {
  check("misa", CSR_READ(misa), 0x40001100u);
  check("mhartid", CSR_READ(mhartid), 0u);
  uint32_t r;
  CSR_WRITE(mscratch, 0xF0F0F0F0u);
  asm volatile("csrrs %0, mscratch, %1" : "=r"(r) : "r"(0x0000000Fu));
  check("csrrs_old", r, 0xF0F0F0F0u);
  check("csrrs_new", CSR_READ(mscratch), 0xF0F0F0FFu);
  asm volatile("csrrc %0, mscratch, %1" : "=r"(r) : "r"(0xF0000000u));
  check("csrrc_new", CSR_READ(mscratch), 0x00F0F0FFu);
  asm volatile("csrrwi %0, mscratch, 21" : "=r"(r));
  check("csrrwi", CSR_READ(mscratch), 21u);
  asm volatile("csrrsi %0, mscratch, 8" : "=r"(r));
  check("csrrsi", CSR_READ(mscratch), 29u);
  asm volatile("csrrci %0, mscratch, 1" : "=r"(r));
  check("csrrci", CSR_READ(mscratch), 28u);
  CSR_WRITE(mtvec, 0x00000103u);
  check("mtvec_direct", CSR_READ(mtvec), 0x00000100u);
  extern char trap_entry[];
  CSR_WRITE(mtvec, (uint32_t)(uintptr_t)trap_entry);
  /* minstret counts retired instructions exactly */
  uint32_t i0, i1, c0, c1;
  asm volatile("csrr %0, minstret\n\tnop\n\tnop\n\tnop\n\tnop\n\tcsrr %1, minstret" : "=r"(i0), "=r"(i1));
  check("minstret_delta", i1 - i0, 5u);
  asm volatile("csrr %0, mcycle\n\tnop\n\tnop\n\tcsrr %1, mcycle" : "=r"(c0), "=r"(c1));
  check("mcycle_delta", c1 - c0, 3u);
  asm volatile("csrr %0, cycle\n\tcsrr %1, instret" : "=r"(c0), "=r"(i0));
  check("user_counters", c0 != 0 && i0 != 0, 1);
  /* a CSR write to minstret replaces the writing instruction's own increment */
  asm volatile("csrw minstret, %1\n\tcsrr %0, minstret\n\tnop\n\tcsrr %0, minstret" : "=&r"(r) : "r"(1000u));
  check("minstret_write", r, 1002u);
  CSR_WRITE(mcycleh, 5u);
  check("mcycleh_write", CSR_READ(mcycleh), 5u);
  uint32_t t0 = MTIME_LO;
  uint32_t t1 = CSR_READ(time);
  check("time_csr", (t1 - t0) < 20u, 1);
  /* timer stores are posted (rv_cpu writes them a cycle later): a load right behind one reads
   * the stored value */
  uint32_t tv;
  asm volatile("sw %1, 0(%2)\n\tlw %0, 0(%2)" : "=&r"(tv) : "r"(0x12345678u), "r"(0x2000000Cu) : "memory");
  check("timer_store_then_load_mtimecmp", tv, 0x12345678u);
  MTIMECMP_HI = 0xFFFFFFFFu;
  asm volatile("sw %1, 0(%2)\n\tlw %0, 0(%2)" : "=&r"(tv) : "r"(0x40000000u), "r"(0x20000000u) : "memory");
  check("timer_store_then_load_mtime", tv - 0x40000000u < 4u, 1);
}

/* Writes to one half of a 64-bit counter (csrw/csrs/csrc on mcycle, minstret and their h
 * halves): the write is done instead of the writing instruction's increment (unprivileged spec,
 * CSR instructions), so neither that increment nor its carry reaches the other half. Each case
 * puts the untouched half one step from a carry; the sequences are straight-line, one
 * instruction per cycle, so mcycle behaves like minstret here (isa.mcycle_delta checks that). */
#define HALVES(ins, a, b) \
  asm volatile(ins : "=&r"(a), "=&r"(b) : "r"(7u), "r"(0xFFFFFFFFu), "r"(5u), "r"(1u) : "memory")
static void test_counter_halves(void) {
  uint32_t a, b;
  /* low half written while the counter is hi:FFFFFFFF: the high half keeps 7 */
  HALVES("csrw minstreth, %2\n\tcsrw minstret, %3\n\tcsrw minstret, %4\n\t"
               "csrr %0, minstreth\n\tcsrr %1, minstret", a, b);
  check("minstret_lo_write_no_carry", a, 7u);
  check("minstret_lo_write_value", b, 6u);
  /* high half written while the low half is FFFFFFFF: the low half does not wrap, and the next
   * instruction's increment carries into the written high half */
  HALVES("csrw minstret, %3\n\tcsrw minstreth, %4\n\tcsrr %0, minstret\n\tcsrr %1, minstreth",
         a, b);
  check("minstret_hi_write_lo_kept", a, 0xFFFFFFFFu);
  check("minstret_hi_write_then_carry", b, 6u);
  /* csrs/csrc read-modify-write of one half, same rule */
  HALVES("csrw minstreth, %2\n\tcsrw minstret, %3\n\tcsrs minstret, %5\n\t"
              "csrr %0, minstreth\n\tcsrr %1, minstret", a, b);
  check("minstret_csrs_no_carry", a, 7u);
  check("minstret_csrs_value", b, 0u);
  HALVES("csrw minstreth, %2\n\tcsrw minstret, %3\n\tcsrc minstreth, %5\n\t"
              "csrr %0, minstret\n\tcsrr %1, minstreth", a, b);
  check("minstret_csrc_lo_kept", a, 0xFFFFFFFFu);
  check("minstret_csrc_then_carry", b, 7u);
  /* the same for mcycle */
  HALVES("csrw mcycleh, %2\n\tcsrw mcycle, %3\n\tcsrw mcycle, %4\n\t"
                "csrr %0, mcycleh\n\tcsrr %1, mcycle", a, b);
  check("mcycle_lo_write_no_carry", a, 7u);
  check("mcycle_lo_write_value", b, 6u);
  HALVES("csrw mcycle, %3\n\tcsrw mcycleh, %4\n\tcsrr %0, mcycle\n\tcsrr %1, mcycleh", a, b);
  check("mcycle_hi_write_lo_kept", a, 0xFFFFFFFFu);
  check("mcycle_hi_write_then_carry", b, 6u);
  HALVES("csrw mcycleh, %2\n\tcsrw mcycle, %3\n\tcsrs mcycle, %5\n\t"
               "csrr %0, mcycleh\n\tcsrr %1, mcycle", a, b);
  check("mcycle_csrs_no_carry", a, 7u);
  check("mcycle_csrs_value", b, 0u);
  HALVES("csrw mcycleh, %2\n\tcsrw mcycle, %3\n\tcsrc mcycleh, %5\n\t"
               "csrr %0, mcycle\n\tcsrr %1, mcycleh", a, b);
  check("mcycle_csrc_lo_kept", a, 0xFFFFFFFFu);
  check("mcycle_csrc_then_carry", b, 7u);
  /* csrs with x0 reads without writing: its increment is not lost */
  uint32_t i0, i1;
  asm volatile("csrr %0, minstret\n\tcsrs minstret, x0\n\tcsrr %1, minstret" : "=&r"(i0), "=&r"(i1));
  check("minstret_csrs_x0_counts", i1 - i0, 2u);
}

int main(void) {
  fw_prefix = "isa.";
  test_alu();
  test_x0();
  test_loads_stores();
  test_hazards();
  test_branches();
  test_muldiv();
  test_csr();
  test_counter_halves();
  fw_puts("# isa: "); fw_dec((uint32_t)fw_checks); fw_puts(" checks, "); fw_dec((uint32_t)fw_fails);
  fw_puts(" failed\n");
  return fw_fails;
}
