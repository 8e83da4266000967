/* The firmware's one door to hardware. Every register access and CSR read goes through here, so
 * the same firmware logic builds for the soft core and, with MOCK_MMIO, for the host where tests
 * supply the registers. */
#ifndef FW_HAL_H
#define FW_HAL_H

#include <stdint.h>

#include "rnic_spec.h"

/* Spec layout buffers (tx_desc, CQE, QP context, ...) are declared FW_LAYOUT_ALIGN: the
 * firmware is built with RNIC_LAYOUT_ALIGNED, so every aligned field accessor is one load or
 * store (the soft core traps misaligned access, so the compiler must know). */
#define FW_LAYOUT_ALIGN _Alignas(8)

#ifdef MOCK_MMIO
uint32_t mock_mmio_rd32(uint32_t off);
void mock_mmio_wr32(uint32_t off, uint32_t v);
uint64_t mock_cycles(void);

static inline uint32_t hal_rd32(uint32_t off) { return mock_mmio_rd32(off); }
static inline void hal_wr32(uint32_t off, uint32_t v) { mock_mmio_wr32(off, v); }
uint32_t mock_tc_rd32(uint32_t off);
void mock_tc_wr32(uint32_t off, uint32_t v);

static inline uint64_t hal_cycles(void) { return mock_cycles(); }
static inline uint32_t hal_tc_rd32(uint32_t off) { return mock_tc_rd32(off); }
static inline void hal_tc_wr32(uint32_t off, uint32_t v) { mock_tc_wr32(off, v); }
static inline uint32_t hal_tc_rd32_at(uint32_t off, uint32_t i) { return mock_tc_rd32(off + 4 * i); }
static inline void hal_tc_wr32_at(uint32_t off, uint32_t i, uint32_t v) { mock_tc_wr32(off + 4 * i, v); }
static inline uint32_t hal_cycles32(void) { return (uint32_t)mock_cycles(); }
extern uint32_t mock_hart_id; /* what hal_hart_id() returns */
static inline uint32_t hal_hart_id(void) { return mock_hart_id; }
extern uint8_t mock_qpc[RNIC_MAX_NUM_QPS * RNIC_FW_TC_QPC_ENTRY_BYTES];
static inline uint8_t *hal_qpc_base(void) { return mock_qpc; }
extern uint32_t mock_tc[];
static inline const uint8_t *hal_tc_ptr(uint32_t off) { return (const uint8_t *)mock_tc + off; }
#else
/* The QP-context RAM in the tightly coupled window: plain memory (byte stores, one-cycle loads),
 * NumQps x fw_tc.qpc_entry_bytes of it. */
static inline uint8_t *hal_qpc_base(void)
{
	return (uint8_t *)(uintptr_t)(RNIC_FW_TC_BASE + RNIC_FW_TC_QPC_BASE);
}

/* A block of the tightly coupled window read as memory (the receive-event ring's slots: one-cycle
 * loads of any width, no side effects). */
static inline const uint8_t *hal_tc_ptr(uint32_t off)
{
	return (const uint8_t *)(uintptr_t)(RNIC_FW_TC_BASE + off);
}

static inline uint32_t hal_rd32(uint32_t off)
{
	return *(volatile uint32_t *)(uintptr_t)(RNIC_FW_MMIO_BASE + off);
}

static inline void hal_wr32(uint32_t off, uint32_t v)
{
	*(volatile uint32_t *)(uintptr_t)(RNIC_FW_MMIO_BASE + off) = v;
}

/* The engines' tightly coupled window (spec fw_tc): posted one-cycle stores, two-cycle loads
 * (the request is registered in rnic_fw_subsys before the engines decode it). */
static inline uint32_t hal_tc_rd32(uint32_t off)
{
	return *(volatile uint32_t *)(uintptr_t)(RNIC_FW_TC_BASE + off);
}

static inline void hal_tc_wr32(uint32_t off, uint32_t v)
{
	*(volatile uint32_t *)(uintptr_t)(RNIC_FW_TC_BASE + off) = v;
}

/* Word i of a block at off (i a constant): the block's address is computed once (the empty asm
 * keeps the compiler from folding the window base into every offset) and each access is one
 * load or store with an immediate offset. */
static inline volatile uint32_t *hal_tc_block(uint32_t off)
{
	uintptr_t a = RNIC_FW_TC_BASE + off;
	__asm__("" : "+r"(a));
	return (volatile uint32_t *)a;
}

static inline uint32_t hal_tc_rd32_at(uint32_t off, uint32_t i) { return hal_tc_block(off)[i]; }
static inline void hal_tc_wr32_at(uint32_t off, uint32_t i, uint32_t v) { hal_tc_block(off)[i] = v; }

/* mcycle as 64 bits, re-reading the high half if the low half wrapped in between. */
static inline uint64_t hal_cycles(void)
{
	uint32_t hi, lo, hi2;
	do {
		__asm__ volatile("csrr %0, mcycleh" : "=r"(hi));
		__asm__ volatile("csrr %0, mcycle" : "=r"(lo));
		__asm__ volatile("csrr %0, mcycleh" : "=r"(hi2));
	} while (hi != hi2);
	return ((uint64_t)hi << 32) | lo;
}

/* mhartid: which soft core this is (rnic_fw_tile HartId; docs/decisions/multi-core.md). */
static inline uint32_t hal_hart_id(void)
{
	uint32_t v;
	__asm__ volatile("csrr %0, mhartid" : "=r"(v));
	return v;
}

/* mcycle's low word: one instruction, for measuring intervals shorter than 2^32 cycles. */
static inline uint32_t hal_cycles32(void)
{
	uint32_t lo;
	__asm__ volatile("csrr %0, mcycle" : "=r"(lo));
	return lo;
}
#endif

#endif /* FW_HAL_H */
