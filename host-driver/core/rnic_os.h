/* The OS interface of the OS-independent driver core: what the kernel module, the provider's
 * simulator backend, the board tool and the testbenches each supply. */
#ifndef RNIC_OS_H
#define RNIC_OS_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stddef.h>
#include <stdint.h>
#endif

struct rnic_os {
	void *ctx;
	uint32_t (*mmio_read32)(void *ctx, uint32_t bar_off);
	void (*mmio_write32)(void *ctx, uint32_t bar_off, uint32_t val);
	void (*log)(void *ctx, const char *msg);
};

static inline uint32_t rnic_rd32(const struct rnic_os *os, uint32_t off)
{
	return os->mmio_read32(os->ctx, off);
}

static inline void rnic_wr32(const struct rnic_os *os, uint32_t off, uint32_t val)
{
	os->mmio_write32(os->ctx, off, val);
}

#endif /* RNIC_OS_H */
