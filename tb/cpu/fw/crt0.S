/* crt0 for rv_cpu test firmware: stack, bss, trap entry, main, exit register. */
  .section .text.start, "ax"
  .globl _start
_start:
  la    sp, __stack_top
  la    t0, trap_entry
  csrw  mtvec, t0
  la    t0, __bss_start
  la    t1, __bss_end
1:bgeu  t0, t1, 2f
  sw    zero, 0(t0)
  addi  t0, t0, 4
  j     1b
2:call  main
  li    t0, 0x4FFFFFF0
  sw    a0, 0(t0)
3:j     3b

/* Trap entry: saves the caller-saved registers, mepc and mstatus (so a handler may re-enable
 * interrupts and nest), calls uint32_t trap_handler(mcause, mepc, mtval) whose return value is
 * the PC to resume at. */
  .text
  .globl trap_entry
  .balign 4
trap_entry:
  addi  sp, sp, -80
  sw    ra, 0(sp)
  sw    t0, 4(sp)
  sw    t1, 8(sp)
  sw    t2, 12(sp)
  sw    a0, 16(sp)
  sw    a1, 20(sp)
  sw    a2, 24(sp)
  sw    a3, 28(sp)
  sw    a4, 32(sp)
  sw    a5, 36(sp)
  sw    a6, 40(sp)
  sw    a7, 44(sp)
  sw    t3, 48(sp)
  sw    t4, 52(sp)
  sw    t5, 56(sp)
  sw    t6, 60(sp)
  csrr  t0, mstatus
  sw    t0, 64(sp)
  csrr  a0, mcause
  csrr  a1, mepc
  csrr  a2, mtval
  call  trap_handler
  csrci mstatus, 8
  csrw  mepc, a0
  lw    t0, 64(sp)
  csrw  mstatus, t0
  lw    ra, 0(sp)
  lw    t0, 4(sp)
  lw    t1, 8(sp)
  lw    t2, 12(sp)
  lw    a0, 16(sp)
  lw    a1, 20(sp)
  lw    a2, 24(sp)
  lw    a3, 28(sp)
  lw    a4, 32(sp)
  lw    a5, 36(sp)
  lw    a6, 40(sp)
  lw    a7, 44(sp)
  lw    t3, 48(sp)
  lw    t4, 52(sp)
  lw    t5, 56(sp)
  lw    t6, 60(sp)
  addi  sp, sp, 80
  mret

/* Default handler: an unexpected trap ends the run with exit code 0x100 + mcause[4:0]. */
  .weak trap_handler
trap_handler:
  andi  a0, a0, 31
  addi  a0, a0, 0x100
  li    t0, 0x4FFFFFF0
  sw    a0, 0(t0)
4:j     4b
