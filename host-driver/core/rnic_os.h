/* The OS interface of the OS-independent driver core: what the kernel module, the provider's
 * simulator backend, the board tool and the testbenches each supply. Only mmio_read32 and
 * mmio_write32 are mandatory; every other member may be NULL (see each comment). */
#ifndef RNIC_OS_H
#define RNIC_OS_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <asm/barrier.h>
#else
#include <stddef.h>
#include <stdint.h>
#endif

/* Lock identities passed to lock/unlock: one lock per shared object of the core. */
enum rnic_lock_id { RNIC_LOCK_CMDQ = 0, RNIC_LOCK_RES = 1, RNIC_LOCK_EQ = 2, RNIC_NUM_LOCKS = 3 };

struct rnic_os {
	void *ctx;
	uint32_t (*mmio_read32)(void *ctx, uint32_t bar_off);
	void (*mmio_write32)(void *ctx, uint32_t bar_off, uint32_t val);
	void (*log)(void *ctx, const char *msg);
	/* Zeroed, physically contiguous, device-visible memory of size bytes aligned to align (a
	 * power of two <= 4096): 0 with *cpu and *bus set, or a negative errno. NULL: -EOPNOTSUPP. */
	int (*dma_alloc)(void *ctx, size_t size, size_t align, void **cpu, uint64_t *bus);
	void (*dma_free)(void *ctx, size_t size, void *cpu, uint64_t bus);
	/* Short, non-sleeping critical sections (a spinlock is enough). NULL: no locking. */
	void (*lock)(void *ctx, enum rnic_lock_id id);
	void (*unlock)(void *ctx, enum rnic_lock_id id);
	/* Waits about us microseconds or at least yields (in simulation: lets simulated time pass).
	 * Called in every poll loop. NULL: busy polling. */
	void (*sleep_us)(void *ctx, unsigned us);
	/* Monotonic time in nanoseconds. NULL: poll loops count one sleep_us interval per poll. */
	uint64_t (*now_ns)(void *ctx);
};

static inline uint32_t rnic_rd32(const struct rnic_os *os, uint32_t off)
{
	return os->mmio_read32(os->ctx, off);
}

static inline void rnic_wr32(const struct rnic_os *os, uint32_t off, uint32_t val)
{
	os->mmio_write32(os->ctx, off, val);
}

/* Ordering of host memory shared with the device: rnic_rmb() after seeing an owner/done bit and
 * before reading the rest of the entry; rnic_wmb() after filling memory the device will read and
 * before the MMIO write that tells it so. */
#ifdef __KERNEL__
#define rnic_rmb() dma_rmb()
#define rnic_wmb() wmb()
#else
#define rnic_rmb() __atomic_thread_fence(__ATOMIC_ACQUIRE)
#define rnic_wmb() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#endif

#endif /* RNIC_OS_H */
