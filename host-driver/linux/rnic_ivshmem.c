// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The guest front-end: the same device as rnic_pci.c, reached through QEMU's ivshmem-doorbell
 * (1af4:1110) served by the simulator (sim/ivshmem/). Register accesses go through the mailbox
 * of rnic_ivshmem_proto.h; MSI-X vectors are ivshmem's; DMA addresses are guest-physical
 * addresses (no vIOMMU) that the simulator reaches in the shared guest-RAM file. Only a
 * device whose shared memory carries the simulator's magic is taken: other ivshmem users are
 * left alone. */
#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/io.h>
#include <linux/ktime.h>
#include <linux/module.h>

#include "rnic_drv.h"
#include "rnic_ivshmem_proto.h"

static uint mbox_timeout_ms = 2000;
module_param(mbox_timeout_ms, uint, 0444);
MODULE_PARM_DESC(mbox_timeout_ms, "guest transport: how long a register access waits for the simulator before the device is declared dead");

struct rnic_ivs {
	void __iomem *regs;	/* ivshmem BAR0 */
	void __iomem *shm;	/* ivshmem BAR2 */
	spinlock_t lock;	/* one mailbox request at a time */
	u32 seq;
	u32 sim_peer;
	u32 pw_prod;	/* posted writes: our producer count */
	u64 accesses;	/* mailbox requests (reads) */
	u64 posted;	/* posted writes and doorbells */
};

#define MBOX(field) (iv->shm + RNIC_IVS_MBOX_OFF + offsetof(struct rnic_ivs_mbox, field))
#define PW(field) (iv->shm + RNIC_IVS_PW_OFF + offsetof(struct rnic_ivs_pw, field))

/* One request and its answer. Runs under the core's spinlocks too, so it spins (a register
 * access of a card would stall the CPU as long). */
static u32 ivs_access(struct rnic_kdev *rd, u32 op, u32 addr, u32 data)
{
	struct rnic_ivs *iv = rd->xp_priv;
	unsigned long flags;
	u64 deadline;
	u32 seq, val = ~0u, st = ~0u;

	spin_lock_irqsave(&iv->lock, flags);
	seq = ++iv->seq;
	iowrite32(op, MBOX(req_op));
	iowrite32(addr, MBOX(req_addr));
	iowrite32(data, MBOX(req_data));
	wmb();	/* the request before its sequence number */
	iowrite32(seq, MBOX(req_seq));
	iowrite32(iv->sim_peer << 16, iv->regs + RNIC_IVS_REG_DOORBELL);
	deadline = ktime_get_ns() + (u64)mbox_timeout_ms * NSEC_PER_MSEC;
	for (;;) {
		if (ioread32(MBOX(rsp_seq)) == seq) {
			rmb();	/* the answer after its sequence number */
			val = ioread32(MBOX(rsp_data));
			st = ioread32(MBOX(rsp_status));
			break;
		}
		if (ktime_get_ns() > deadline)
			break;
		udelay(2);
	}
	iv->accesses++;
	spin_unlock_irqrestore(&iv->lock, flags);
	if (st == ~0u) {	/* no answer */
		rnic_hw_mark_dead(rd, "the simulator stopped answering register accesses");
		return ~0u;
	}
	if (st)
		dev_warn_ratelimited(rd->dma_dev, "BAR0 %s at 0x%05x: AXI response %u\n",
				     op == RNIC_IVS_OP_READ ? "read" : "write", addr, st);
	return op == RNIC_IVS_OP_READ ? (st ? ~0u : val) : 0;
}

static u32 ivs_read32(struct rnic_kdev *rd, u32 off)
{
	return ivs_access(rd, RNIC_IVS_OP_READ, off, 0);
}

/* A posted write or doorbell (struct rnic_ivs_pw): no answer to wait for, as on PCIe, so a run
 * of writes (a firmware image through BAR0's window: 8 K words) costs no round trip each; the
 * simulator performs them in order before the next mailbox request. Waits only for room. */
static void ivs_post(struct rnic_kdev *rd, u32 op, u32 addr, u32 data)
{
	struct rnic_ivs *iv = rd->xp_priv;
	unsigned long flags;
	u64 deadline = 0;
	u32 slot;
	bool full_timeout = false;

	if (READ_ONCE(rd->dead))
		return;
	spin_lock_irqsave(&iv->lock, flags);
	while (iv->pw_prod - ioread32(PW(cons)) >= RNIC_IVS_PW_ENTRIES) {
		if (!deadline)
			deadline = ktime_get_ns() + (u64)mbox_timeout_ms * NSEC_PER_MSEC;
		if (ktime_get_ns() > deadline) {
			full_timeout = true;
			break;
		}
		udelay(2);
	}
	if (!full_timeout) {
		slot = iv->pw_prod % RNIC_IVS_PW_ENTRIES;
		iowrite32(op, PW(e[slot].op));
		iowrite32(addr, PW(e[slot].addr));
		iowrite32(data, PW(e[slot].data));
		wmb();	/* the entry before the producer count */
		/* Into an empty ring: the simulator may be asleep on its doorbell. */
		if (ioread32(PW(cons)) == iv->pw_prod++) {
			iowrite32(iv->pw_prod, PW(prod));
			iowrite32(iv->sim_peer << 16, iv->regs + RNIC_IVS_REG_DOORBELL);
		} else {
			iowrite32(iv->pw_prod, PW(prod));
		}
		iv->posted++;
	}
	spin_unlock_irqrestore(&iv->lock, flags);
	if (full_timeout)
		rnic_hw_mark_dead(rd, "the simulator stopped taking posted register writes");
}

static void ivs_write32(struct rnic_kdev *rd, u32 off, u32 val)
{
	ivs_post(rd, RNIC_IVS_OP_WRITE, off, val);
}

/* A kernel doorbell: posted like a register write, and delivered in order (never sampled), so
 * each one reaches the NIC. */
static void ivs_db_write32(struct rnic_kdev *rd, u32 off, u32 val)
{
	ivs_post(rd, RNIC_IVS_OP_DB, off, val);
}

/* The context's page in the shared memory, which the simulator watches. Asked once per new
 * context: the page is zeroed then, as the simulator compares each doorbell word with the last
 * value it delivered and takes zero (no valid doorbell) as "nothing since": a new context's
 * first doorbell that equals its predecessor's last one is not lost. */
static phys_addr_t ivs_db_page(struct rnic_kdev *rd, u32 uctx)
{
	struct rnic_ivs *iv = rd->xp_priv;
	u64 off = RNIC_IVS_DB_OFF + (u64)uctx * RNIC_DB_BAR_PAGE_SIZE;

	if (off + RNIC_DB_BAR_PAGE_SIZE > pci_resource_len(rd->pdev, 2))
		return 0;
	memset_io(iv->shm + off, 0, RNIC_DB_BAR_PAGE_SIZE);
	return pci_resource_start(rd->pdev, 2) + off;
}

static const struct rnic_xport rnic_ivs_xport = {
	.name = "ivshmem",
	.read32 = ivs_read32,
	.write32 = ivs_write32,
	.db_page = ivs_db_page,
	.db_write32 = ivs_db_write32,
};

static int rnic_ivs_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct rnic_ivs *iv;
	u32 vectors;
	int rc;

	(void)id;
	iv = devm_kzalloc(&pdev->dev, sizeof(*iv), GFP_KERNEL);
	if (!iv)
		return -ENOMEM;
	spin_lock_init(&iv->lock);
	rc = pcim_enable_device(pdev);
	if (rc)
		return rc;
	if (pci_resource_len(pdev, 2) < RNIC_IVS_PW_OFF + sizeof(struct rnic_ivs_pw))
		return -ENODEV;
	rc = pcim_iomap_regions(pdev, BIT(0) | BIT(2), RNIC_DRV_NAME);
	if (rc)
		return rc;
	iv->regs = pcim_iomap_table(pdev)[0];
	iv->shm = pcim_iomap_table(pdev)[2];
	if (ioread32(MBOX(magic)) != RNIC_IVS_MAGIC || ioread32(MBOX(version)) != RNIC_IVS_VERSION) {
		dev_info(&pdev->dev, "ivshmem without the rnic simulator's mailbox: not ours\n");
		return -ENODEV;
	}
	iv->sim_peer = ioread32(MBOX(sim_peer));
	iv->seq = ioread32(MBOX(rsp_seq));
	iv->pw_prod = ioread32(PW(prod));	/* a reloaded module continues the ring */
	vectors = ioread32(MBOX(vectors));
	dev_info(&pdev->dev, "guest transport: simulator peer %u, this guest peer %u, %u vectors, %llu MiB of guest RAM reachable by DMA\n",
		 iv->sim_peer, ioread32(iv->regs + RNIC_IVS_REG_IVPOSITION), vectors,
		 (unsigned long long)(ioread32(MBOX(ram_bytes)) |
				      (u64)ioread32(MBOX(ram_bytes) + 4) << 32) >> 20);
	pci_set_master(pdev);
	/* No vIOMMU: a DMA address is a guest-physical address, below the RAM the file holds. */
	rc = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (rc)
		return rc;
	rc = rnic_dev_probe(pdev, &rnic_ivs_xport, iv, vectors ? vectors : 1);
	if (!rc)
		dev_info(&pdev->dev, "%llu register reads through the mailbox and %llu posted writes during probe\n",
			 iv->accesses, iv->posted);
	return rc;
}

static void rnic_ivs_remove(struct pci_dev *pdev)
{
	rnic_dev_remove(pci_get_drvdata(pdev));
}

static const struct pci_device_id rnic_ivs_ids[] = {
	{ PCI_DEVICE(RNIC_IVS_PCI_VENDOR, RNIC_IVS_PCI_DEVICE) },
	{ }
};
/* No MODULE_DEVICE_TABLE: the module must not autoload for every ivshmem device. */

struct pci_driver rnic_ivs_driver = {
	.name = RNIC_DRV_NAME "-ivshmem",
	.id_table = rnic_ivs_ids,
	.probe = rnic_ivs_probe,
	.remove = rnic_ivs_remove,
};
