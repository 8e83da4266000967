/* Stand-in for the kernel's <asm/barrier.h>. */
#ifndef KSTUB_ASM_BARRIER_H
#define KSTUB_ASM_BARRIER_H
#define dma_rmb() __asm__ __volatile__("" ::: "memory")
#define wmb() __asm__ __volatile__("" ::: "memory")
#endif
