/* host-driver/linux: the kernel module's own declarations. One device (struct rnic_kdev) is
 * reached through a transport (struct rnic_xport): the PCI front-end maps BAR0 of a 10ee:5252
 * card (rnic_pci.c), the guest front-end carries the same register accesses over an
 * ivshmem-doorbell mailbox to the simulator (rnic_ivshmem.c). Everything above the transport
 * (host-driver/core through rnic_os.c, the command queue and EQ glue of rnic_hw.c, the verbs of
 * rnic_verbs.c) is the same code for both. */
#ifndef RNIC_DRV_H
#define RNIC_DRV_H

#include <linux/device.h>
#include <linux/interrupt.h>
#include <linux/pci.h>
#include <linux/spinlock.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>

#include "rnic_cmd.h"
#include "rnic_cmdq.h"
#include "rnic_discover.h"
#include "rnic_eq.h"
#include "rnic_os.h"
#include "rnic_res.h"
#include "rnic_spec.h"

#define RNIC_DRV_NAME "rnic"
#define RNIC_EQ_VECTOR 0	/* MSI-X vector of the asynchronous event queue */
#define RNIC_EQ_LOG_SIZE 8
#define RNIC_CMDQ_LOG_SIZE 6
#define RNIC_GID_TBL_LEN 16	/* GID entries the driver mirrors into the firmware's table */

struct rnic_kdev;

/* What a front-end provides: 32-bit register access to BAR0 (the mailbox of the guest
 * transport, readl/writel on a card), and the doorbell path the data-path BAR will take. */
struct rnic_xport {
	const char *name;
	u32 (*read32)(struct rnic_kdev *rd, u32 off);
	void (*write32)(struct rnic_kdev *rd, u32 off, u32 val);
	/* Physical address of user context uctx's doorbell page, for mmap into its process:
	 * 0 when the front-end has none. */
	phys_addr_t (*db_page)(struct rnic_kdev *rd, u32 uctx);
	/* A doorbell write by the kernel for a context (off: in the doorbell space, page uctx
	 * first), in order with the others; NULL when the user processes' own stores are the
	 * only path (a card: a doorbell store is a posted write, never lost). */
	void (*db_write32)(struct rnic_kdev *rd, u32 off, u32 val);
};

struct rnic_kdev {
	struct ib_device ibdev;		/* first: ib_alloc_device's container */
	struct device *dma_dev;		/* the PCI function doing DMA (&pdev->dev) */
	struct pci_dev *pdev;
	const struct rnic_xport *xp;
	void *xp_priv;			/* the front-end's own state */
	int irq_eq;			/* Linux IRQ of MSI-X vector RNIC_EQ_VECTOR */
	bool dead;			/* the device stopped answering: every access fails fast */

	struct rnic_os os;
	spinlock_t locks[RNIC_NUM_LOCKS];
	struct rnic_dev_info info;
	struct rnic_cmdq cmdq;
	bool cmdq_up;
	struct rnic_eq eq;
	bool eq_up;
	struct rnic_device_attr dattr;
	struct rnic_port_attr pattr;
	struct rnic_res *res;
	struct net_device *netdev;	/* the netdev the GID table follows (module parameter) */
	bool ib_registered;
	atomic_t events;		/* EQ events dispatched */
	atomic_t eq_irqs;		/* EQ interrupts taken */
	atomic_t eq_late;		/* entries found after the arm (written before it took effect) */
	atomic_t kbufs;			/* rings allocated by the kernel (rnic_kbuf_alloc) */
	/* The CQs and QPs by device number, for the EQ's events: an entry goes before its object
	 * is destroyed, and dispatch runs under the xarray's lock, so no event reaches a freed
	 * object. */
	struct xarray cq_xa, qp_xa;
};

static inline struct rnic_kdev *to_rdev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct rnic_kdev, ibdev);
}

/* rnic_os.c */
void rnic_os_init(struct rnic_kdev *rd);

/* rnic_hw.c: bring-up after the front-end mapped its registers and vectors. */
int rnic_hw_init(struct rnic_kdev *rd);
void rnic_hw_fini(struct rnic_kdev *rd);
irqreturn_t rnic_hw_eq_irq(int irq, void *data);
int rnic_hw_cmd_done(struct rnic_kdev *rd, int rc);
/* Runs call, a typed command of host-driver/core on rd->cmdq, unless the device is dead. */
#define RNIC_CMD(rd, call) \
	rnic_hw_cmd_done((rd), (READ_ONCE((rd)->dead) || !(rd)->cmdq_up) ? -EIO : (call))
void rnic_hw_mark_dead(struct rnic_kdev *rd, const char *why);

/* rnic_main.c: the front-end independent part of probe/remove. */
int rnic_dev_probe(struct pci_dev *pdev, const struct rnic_xport *xp, void *priv, unsigned int nvec);
void rnic_dev_remove(struct rnic_kdev *rd);

/* rnic_verbs.c */
int rnic_ib_register(struct rnic_kdev *rd);
void rnic_ib_unregister(struct rnic_kdev *rd);
u32 rnic_pdn(struct ib_pd *ibpd);
struct rdma_user_mmap_entry *rnic_kbuf_alloc(struct rnic_kdev *rd, struct ib_ucontext *ibuc,
					     size_t len, u64 *bus, u64 *key);

struct rnic_ucontext {
	struct ib_ucontext ibuc;
	u32 uctx;
	struct rdma_user_mmap_entry *db_entry;	/* its doorbell page, mmappable */
};

/* rnic_verbs_cq.c */
struct rnic_cq {
	struct ib_cq ibcq;
	u32 cqn;
	u32 uctx;	/* the owner's context: its doorbell page */
	struct ib_umem *ring, *dbrec;	/* ring: NULL when the kernel allocated it (kbuf) */
	struct rdma_user_mmap_entry *kbuf;
};
int rnic_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr, struct ib_udata *udata);
int rnic_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata);
int rnic_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags);
u64 rnic_umem_contig_bus(struct ib_umem *um);

/* rnic_verbs_qp.c */
struct rnic_qp {
	struct ib_qp ibqp;
	struct ib_umem *buf;		/* NULL when the kernel allocated it (kbuf) */
	struct rdma_user_mmap_entry *kbuf;
};
int rnic_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *attr, struct ib_udata *udata);
int rnic_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata);
int rnic_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *a, int mask, struct ib_udata *udata);
int rnic_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *a, int mask, struct ib_qp_init_attr *init);
struct rnic_ah {
	struct ib_ah ibah;
	u32 ahn;
};
int rnic_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init, struct ib_udata *udata);
int rnic_destroy_ah(struct ib_ah *ibah, u32 flags);

/* rnic_verbs_mr.c */
struct ib_mr *rnic_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 length, u64 virt, int access,
			       struct ib_udata *udata);
int rnic_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata);

/* rnic_pci.c, rnic_ivshmem.c */
extern struct pci_driver rnic_pci_driver;
extern struct pci_driver rnic_ivs_driver;

extern char *rnic_netdev_name;

#endif /* RNIC_DRV_H */
