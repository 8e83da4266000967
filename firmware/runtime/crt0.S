/* Reset entry of the NIC firmware: stack, zeroed .bss, trap vector, then main(). .data needs no
 * copy: the image loads it straight into DMEM. */
	.section .text.start, "ax"
	.globl _start
_start:
	la	sp, __stack_top
	la	t0, __bss_start
	la	t1, __bss_end
1:	bgeu	t0, t1, 2f
	sw	zero, 0(t0)
	addi	t0, t0, 4
	j	1b
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
