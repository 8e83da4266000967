/* Reset entry of the fw_subsys test firmware: gp (link.ld's gp-relative accesses), the stack at
 * the top of this core's DMEM, .bss zeroed, a trap parks the core with its cause in the marker
 * words (DMEM 0x8000, read by the testbench through the window), then main(). */
	.section .text.start, "ax"
	.globl _start
_start:
	.option push
	.option norelax
	la	gp, __global_pointer$
	.option pop
	la	sp, __stack_top
	la	t0, __bss_start
	la	t1, __bss_end
1:	bgeu	t0, t1, 2f
	sw	zero, 0(t0)
	addi	t0, t0, 4
	j	1b
2:	la	t0, trap
	csrw	mtvec, t0
	call	main
3:	j	3b

	.align 4
trap:
	li	t0, 0x10008000
	li	t1, 0xDEAD0000
	csrr	t2, mcause
	or	t1, t1, t2
	sw	t1, 0(t0)
4:	j	4b
