// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Queue pairs of user processes: the queue buffer lives in the process (rnic_user_abi.h
 * rnic_ureq_qp), pinned here with ib_umem; CREATE_QP gets its bus address (the firmware does
 * not serve page-listed queue buffers yet: the buffer must be bus-contiguous, always so within
 * one page) and the ring shapes. RC, UC and UD; no SRQ; no kernel QPs. */
#include <linux/slab.h>
#include <rdma/ib_umem.h>
#include <rdma/uverbs_ioctl.h>

#include "rnic_drv.h"
#include "rnic_user_abi.h"

static u32 qp_type(enum ib_qp_type t)
{
	switch (t) {
	case IB_QPT_RC:
		return RNIC_QP_TYPE_RC;
	case IB_QPT_UC:
		return RNIC_QP_TYPE_UC;
	case IB_QPT_UD:
		return RNIC_QP_TYPE_UD;
	default:
		return ~0u;
	}
}

int rnic_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *attr, struct ib_udata *udata)
{
	struct rnic_kdev *rd = to_rdev(ibqp->device);
	struct rnic_qp *qp = container_of(ibqp, struct rnic_qp, ibqp);
	struct rnic_ucontext *uc = rdma_udata_to_drv_context(udata, struct rnic_ucontext, ibuc);
	struct rnic_create_qp_in in = {};
	struct rnic_ureq_qp req = {};
	struct rnic_uresp_qp resp = {};
	u32 qpn;
	int rc;

	if (!udata || !uc)
		return -EOPNOTSUPP;
	if (qp_type(attr->qp_type) == ~0u || attr->srq || attr->create_flags)
		return -EOPNOTSUPP;
	if (udata->inlen < sizeof(req))
		return -EINVAL;
	rc = ib_copy_from_udata(&req, udata, sizeof(req));
	if (rc)
		return rc;
	/* The rings must fit the buffer the process pinned: SQ at 0, RQ at rq_offset. */
	if (!req.buf_len || !PAGE_ALIGNED(req.buf_addr) || req.sq_log_size > 15 || req.rq_log_size > 15 ||
	    req.rq_log_stride > 12 || (64ull << req.sq_log_size) > req.rq_offset ||
	    req.rq_offset + ((u64)1 << (req.rq_log_size + req.rq_log_stride)) > req.buf_len ||
	    req.buf_len > SZ_16M || req.sq_sig_all > 1 ||
	    (1u << req.sq_log_size) < attr->cap.max_send_wr || (1u << req.rq_log_size) < attr->cap.max_recv_wr)
		return -EINVAL;
	qp->buf = ib_umem_get(ibqp->device, req.buf_addr, req.buf_len, IB_ACCESS_LOCAL_WRITE);
	if (IS_ERR(qp->buf))
		return PTR_ERR(qp->buf);
	in = (struct rnic_create_qp_in){
		.uctx = uc->uctx, .pdn = rnic_pdn(ibqp->pd),
		.send_cqn = container_of(attr->send_cq, struct rnic_cq, ibcq)->cqn,
		.recv_cqn = container_of(attr->recv_cq, struct rnic_cq, ibcq)->cqn,
		.qp_type = qp_type(attr->qp_type), .sq_log_size = req.sq_log_size,
		.rq_log_size = req.rq_log_size, .rq_log_stride = req.rq_log_stride,
		.rq_offset = req.rq_offset, .max_inline = req.max_inline, .sq_sig_all = req.sq_sig_all,
		.buf_addr = rnic_umem_contig_bus(qp->buf),
	};
	if (!in.buf_addr) {
		rc = -EOPNOTSUPP;
		goto err_buf;
	}
	rc = RNIC_CMD(rd, rnic_cmd_create_qp(&rd->cmdq, &in, &qpn));
	if (rc)
		goto err_buf;
	ibqp->qp_num = qpn;
	resp.qpn = qpn;
	rc = ib_copy_to_udata(udata, &resp, min(udata->outlen, sizeof(resp)));
	if (rc) {
		RNIC_CMD(rd, rnic_cmd_destroy_qp(&rd->cmdq, qpn));
		goto err_buf;
	}
	return 0;

err_buf:
	ib_umem_release(qp->buf);
	return rc;
}

int rnic_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct rnic_kdev *rd = to_rdev(ibqp->device);
	struct rnic_qp *qp = container_of(ibqp, struct rnic_qp, ibqp);
	int rc;

	(void)udata;
	rc = RNIC_CMD(rd, rnic_cmd_destroy_qp(&rd->cmdq, ibqp->qp_num));
	if (rc && !READ_ONCE(rd->dead))
		return rc;
	ib_umem_release(qp->buf);
	return 0;
}
