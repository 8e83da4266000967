/* Reset entry of the NIC firmware: stack, zeroed .bss, trap vector, then main(). .data needs no
 * copy: the image loads it straight into DMEM. */
	.section .text.start, "ax"
	.globl _start
_start:
	/* gp for the linker's gp-relative accesses (link.ld); set without relaxation, which would
	 * make it relative to itself */
	.option push
	.option norelax
	la	gp, __global_pointer$
	.option pop
	la	sp, __stack_top
	la	t0, __bss_start
	la	t1, __bss_end
	addi	t2, t1, -15
	/* 16 bytes per iteration while they fit (boot time is mostly this loop), then words */
1:	bgeu	t0, t2, 5f
	sw	zero, 0(t0)
	sw	zero, 4(t0)
	sw	zero, 8(t0)
	sw	zero, 12(t0)
	addi	t0, t0, 16
	j	1b
5:	bgeu	t0, t1, 2f
	sw	zero, 0(t0)
	addi	t0, t0, 4
	j	5b
2:	la	t0, trap_vector
	csrw	mtvec, t0
	call	main
3:	j	3b

/* Any trap is fatal until the firmware enables interrupts with handlers of its own. */
	.align 4
trap_vector:
	csrr	a0, mcause
	csrr	a1, mepc
	csrr	a2, mtval
	la	sp, __stack_top
	call	fw_trap_handler
4:	j	4b
