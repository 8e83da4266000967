// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* host-driver/core's OS interface in the kernel: MMIO through the device's transport, DMA
 * memory from dma_alloc_coherent on the PCI function, spinlocks, sleeping and ktime. */
#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/ktime.h>

#include "rnic_drv.h"

static u32 os_read32(void *ctx, u32 off)
{
	struct rnic_kdev *rd = ctx;

	if (READ_ONCE(rd->dead))
		return ~0u;
	return rd->xp->read32(rd, off);
}

static void os_write32(void *ctx, u32 off, u32 val)
{
	struct rnic_kdev *rd = ctx;

	if (!READ_ONCE(rd->dead))
		rd->xp->write32(rd, off, val);
}

static void os_log(void *ctx, const char *msg)
{
	struct rnic_kdev *rd = ctx;

	dev_info(rd->dma_dev, "%s\n", msg);
}

static int os_dma_alloc(void *ctx, size_t size, size_t align, void **cpu, u64 *bus)
{
	struct rnic_kdev *rd = ctx;
	dma_addr_t dma;
	void *p;

	/* dma_alloc_coherent returns at least page-aligned memory, more than align (<= 4096). */
	if (!size || align > PAGE_SIZE)
		return -EINVAL;
	p = dma_alloc_coherent(rd->dma_dev, size, &dma, GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	*cpu = p;
	*bus = dma;
	return 0;
}

static void os_dma_free(void *ctx, size_t size, void *cpu, u64 bus)
{
	struct rnic_kdev *rd = ctx;

	dma_free_coherent(rd->dma_dev, size, cpu, bus);
}

/* Taken here, released in os_unlock: the core pairs them. */
static void os_lock(void *ctx, enum rnic_lock_id id) __acquires(lock)
{
	struct rnic_kdev *rd = ctx;

	spin_lock_bh(&rd->locks[id]);
}

static void os_unlock(void *ctx, enum rnic_lock_id id) __releases(lock)
{
	struct rnic_kdev *rd = ctx;

	spin_unlock_bh(&rd->locks[id]);
}

/* The core calls this between polls of a done bit, never under one of its locks. */
static void os_sleep_us(void *ctx, unsigned int us)
{
	(void)ctx;
	if (us < 10)
		udelay(us ? us : 1);
	else
		usleep_range(us, us + us / 4 + 1);
}

static u64 os_now_ns(void *ctx)
{
	(void)ctx;
	return ktime_get_ns();
}

void rnic_os_init(struct rnic_kdev *rd)
{
	int i;

	for (i = 0; i < RNIC_NUM_LOCKS; i++)
		spin_lock_init(&rd->locks[i]);
	rd->os = (struct rnic_os){
		.ctx = rd,
		.mmio_read32 = os_read32,
		.mmio_write32 = os_write32,
		.log = os_log,
		.dma_alloc = os_dma_alloc,
		.dma_free = os_dma_free,
		.lock = os_lock,
		.unlock = os_unlock,
		.sleep_us = os_sleep_us,
		.now_ns = os_now_ns,
	};
}
