/* rv32_ref.h: instruction-level reference model of RV32IM (+ the machine CSRs
 * mstatus, mie, mtvec, mscratch, mepc, mcause, and mret) for lock-step
 * comparison with rv_cpu. Plain C (also compiles as C++). Memory map as rv_cpu: IMEM at
 * 0x0000_0000, DMEM at 0x1000_0000 (both aliased by size),
 * optional RAM at 0x4000_0000 (or at 0x3000_0000, the tightly coupled window). */
#ifndef RV32_REF_H
#define RV32_REF_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  uint32_t x[32];
  uint32_t pc;
  uint32_t mscratch, mstatus, mie, mtvec, mepc, mcause;  /* mstatus: MIE (bit 3), MPIE (bit 7) */
  uint8_t *imem; uint32_t imem_bytes;
  uint8_t *dmem; uint32_t dmem_bytes;
  uint8_t *mmio; uint32_t mmio_bytes;   /* RAM seen at 0x4000_0000 (testbench MMIO RAM), may be 0 */
  uint32_t mmio_seg;   /* that RAM's address bits 31:28: 4 (also when 0), 3 for the tc window */
} rv32_ref_t;

typedef struct {
  uint32_t pc, insn, rd, wdata;
  int we;      /* rd written (rd != 0) */
  int trap;    /* the model hit something it does not model (illegal, misaligned, ecall, ...) */
} rv32_ret_t;

void rv32_ref_step(rv32_ref_t *s, rv32_ret_t *r);
/* Interrupt entry at the current PC (the DUT reported it): mepc, mcause, MIE/MPIE, pc = mtvec. */
void rv32_ref_interrupt(rv32_ref_t *s, uint32_t cause);

#ifdef __cplusplus
}
#endif
#endif
