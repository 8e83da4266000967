// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Completion queues of user processes: the ring and the doorbell record live in the process
 * (rnic_user_abi.h rnic_ureq_cq), pinned here with ib_umem; the record goes to the NIC as the
 * bus address of its 4 bytes. The firmware does not serve page-listed CQ rings yet
 * (fw_cmd_create_cq), so the ring must be bus-contiguous: a ring of one page (128 CQEs) is
 * pinned where the process has it; a larger one the kernel allocates contiguous when the
 * provider asks (RNIC_UREQ_KERNEL_BUF, rnic_kbuf_alloc) and the process maps it; a larger
 * pinned one whose pages are not contiguous gets -EOPNOTSUPP (docs/kernel-module.md).
 * Kernel CQs (kverbs) are not offered. */
#include <linux/slab.h>
#include <rdma/ib_umem.h>
#include <rdma/iter.h>
#include <rdma/uverbs_ioctl.h>

#include "rnic_drv.h"
#include "rnic_user_abi.h"

#define RNIC_CQ_MAX_LOG 16

/* The bus address of a pinned buffer that is bus-contiguous, else 0. */
u64 rnic_umem_contig_bus(struct ib_umem *um)
{
	struct ib_block_iter biter;
	u64 first = 0, i = 0;

	rdma_umem_for_each_dma_block(um, &biter, SZ_4K) {
		u64 a = rdma_block_iter_dma_address(&biter);

		if (!i)
			first = a;
		else if (a != first + i * SZ_4K)
			return 0;
		i++;
	}
	return first;
}

int rnic_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr, struct ib_udata *udata)
{
	struct rnic_kdev *rd = to_rdev(ibcq->device);
	struct rnic_cq *cq = container_of(ibcq, struct rnic_cq, ibcq);
	struct rnic_ucontext *uc = rdma_udata_to_drv_context(udata, struct rnic_ucontext, ibuc);
	struct rnic_create_cq_in in = {};
	struct rnic_ureq_cq req = {};
	struct rnic_uresp_cq resp = {};
	struct ib_block_iter biter;
	u64 len, dbrec_bus = 0, ring_bus = 0;
	int rc;

	if (!udata || !uc)
		return -EOPNOTSUPP;
	if (attr->flags)
		return -EOPNOTSUPP;
	rc = ib_copy_from_udata(&req, udata, min(udata->inlen, sizeof(req)));
	if (rc)
		return rc;
	if (udata->inlen < sizeof(req) || req.log_size > RNIC_CQ_MAX_LOG ||
	    (1u << req.log_size) < attr->cqe || attr->cqe > rd->dattr.max_cqe ||
	    !PAGE_ALIGNED(req.buf_addr) || req.dbrec_addr & 3 || attr->comp_vector ||
	    req.flags & ~RNIC_UREQ_KERNEL_BUF)
		return -EINVAL;
	len = ALIGN((u64)RNIC_CQE_SIZE << req.log_size, PAGE_SIZE);
	if (req.flags & RNIC_UREQ_KERNEL_BUF) {
		cq->kbuf = rnic_kbuf_alloc(rd, &uc->ibuc, len, &ring_bus, &resp.buf_mmap_key);
		if (IS_ERR(cq->kbuf))
			return PTR_ERR(cq->kbuf);
	} else {
		cq->ring = ib_umem_get(ibcq->device, req.buf_addr, len, IB_ACCESS_LOCAL_WRITE);
		if (IS_ERR(cq->ring))
			return PTR_ERR(cq->ring);
		ring_bus = rnic_umem_contig_bus(cq->ring);
	}
	cq->dbrec = ib_umem_get(ibcq->device, req.dbrec_addr, 4, IB_ACCESS_LOCAL_WRITE);
	if (IS_ERR(cq->dbrec)) {
		rc = PTR_ERR(cq->dbrec);
		goto err_ring;
	}
	rdma_umem_for_each_dma_block(cq->dbrec, &biter, PAGE_SIZE) {
		dbrec_bus = rdma_block_iter_dma_address(&biter) + (req.dbrec_addr & ~PAGE_MASK);
		break;
	}
	in = (struct rnic_create_cq_in){
		.uctx = uc->uctx, .log_size = req.log_size, .eqn = 0,
		.buf_addr = ring_bus, .dbrec_addr = dbrec_bus,
	};
	if (!in.buf_addr) {
		rc = -EOPNOTSUPP;
		goto err_dbrec;
	}
	rc = RNIC_CMD(rd, rnic_cmd_create_cq(&rd->cmdq, &in, &cq->cqn));
	if (rc)
		goto err_dbrec;
	resp.cqn = cq->cqn;
	cq->uctx = uc->uctx;
	ibcq->cqe = 1 << req.log_size;
	rc = ib_copy_to_udata(udata, &resp, min(udata->outlen, sizeof(resp)));
	if (!rc)
		rc = xa_insert(&rd->cq_xa, cq->cqn, cq, GFP_KERNEL);
	if (rc) {
		RNIC_CMD(rd, rnic_cmd_destroy_cq(&rd->cmdq, cq->cqn));
		goto err_dbrec;
	}
	return 0;

err_dbrec:
	ib_umem_release(cq->dbrec);
err_ring:
	if (cq->kbuf)
		rdma_user_mmap_entry_remove(cq->kbuf);
	ib_umem_release(cq->ring);
	return rc;
}

int rnic_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct rnic_kdev *rd = to_rdev(ibcq->device);
	struct rnic_cq *cq = container_of(ibcq, struct rnic_cq, ibcq);
	int rc;

	(void)udata;
	rc = RNIC_CMD(rd, rnic_cmd_destroy_cq(&rd->cmdq, cq->cqn));
	if (rc && !READ_ONCE(rd->dead))
		return rc;	/* e.g. a QP still uses it: the CQ stays */
	xa_erase(&rd->cq_xa, cq->cqn);	/* after it: no event dispatch holds it any more */
	ib_umem_release(cq->dbrec);
	ib_umem_release(cq->ring);
	if (cq->kbuf)	/* the pages go when the process's mapping goes too */
		rdma_user_mmap_entry_remove(cq->kbuf);
	return 0;
}


/* ibv_req_notify_cq through uverbs (REQ_NOTIFY_CQ): the arm as a doorbell of the front-end's
 * kernel path, on the owner's page. The guest transport's pages are sampled by value, so two
 * CQs of one context armed back to back (perftest -e arms its send and receive CQs) would leave
 * only the second arm; this path delivers each in order. Without a kernel path (a card) the
 * provider stores to its mmapped page itself: -EOPNOTSUPP tells it so. */
int rnic_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags)
{
	struct rnic_kdev *rd = to_rdev(ibcq->device);
	struct rnic_cq *cq = container_of(ibcq, struct rnic_cq, ibcq);
	u32 v = 0;

	if (!rd->xp->db_write32)
		return -EOPNOTSUPP;
	if (READ_ONCE(rd->dead))
		return -EIO;
	rnic_db_cq_arm_set_cqn(&v, cq->cqn);
	rnic_db_cq_arm_set_solicited(&v, (flags & IB_CQ_SOLICITED_MASK) == IB_CQ_SOLICITED);
	rd->xp->db_write32(rd, cq->uctx * RNIC_DB_BAR_PAGE_SIZE + RNIC_DB_CQ_ARM, v);
	return 0;	/* IB_CQ_REPORT_MISSED_EVENTS: the firmware fires for pending CQEs itself */
}
