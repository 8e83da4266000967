// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Queue pairs of user processes: the queue buffer lives in the process (rnic_user_abi.h
 * rnic_ureq_qp), pinned here with ib_umem; CREATE_QP gets its bus address (the firmware does
 * not serve page-listed queue buffers yet: the buffer must be bus-contiguous, always so within
 * one page) and the ring shapes. RC, UC and UD; no SRQ; no kernel QPs. modify_qp checks the
 * transition and every attribute's range before MODIFY_QP. */
#include <linux/slab.h>
#include <net/ipv6.h>
#include <rdma/ib_cache.h>
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
	u64 buf_bus = 0;
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
	    req.flags & ~RNIC_UREQ_KERNEL_BUF || req.reserved ||
	    (req.flags & RNIC_UREQ_KERNEL_BUF && !PAGE_ALIGNED(req.buf_len)) ||
	    req.rq_log_stride > 12 || ((u64)RNIC_WQEBB_BYTES << req.sq_log_size) > req.rq_offset ||
	    req.rq_offset + ((u64)1 << (req.rq_log_size + req.rq_log_stride)) > req.buf_len ||
	    req.buf_len > SZ_16M || req.sq_sig_all > 1 ||
	    (1u << req.sq_log_size) < attr->cap.max_send_wr || (1u << req.rq_log_size) < attr->cap.max_recv_wr)
		return -EINVAL;
	if (req.flags & RNIC_UREQ_KERNEL_BUF) {
		qp->kbuf = rnic_kbuf_alloc(rd, &uc->ibuc, req.buf_len, &buf_bus, &resp.buf_mmap_key);
		if (IS_ERR(qp->kbuf))
			return PTR_ERR(qp->kbuf);
	} else {
		qp->buf = ib_umem_get(ibqp->device, req.buf_addr, req.buf_len, IB_ACCESS_LOCAL_WRITE);
		if (IS_ERR(qp->buf))
			return PTR_ERR(qp->buf);
		buf_bus = rnic_umem_contig_bus(qp->buf);
	}
	in = (struct rnic_create_qp_in){
		.uctx = uc->uctx, .pdn = rnic_pdn(ibqp->pd),
		.send_cqn = container_of(attr->send_cq, struct rnic_cq, ibcq)->cqn,
		.recv_cqn = container_of(attr->recv_cq, struct rnic_cq, ibcq)->cqn,
		.qp_type = qp_type(attr->qp_type), .sq_log_size = req.sq_log_size,
		.rq_log_size = req.rq_log_size, .rq_log_stride = req.rq_log_stride,
		.rq_offset = req.rq_offset, .max_inline = req.max_inline, .sq_sig_all = req.sq_sig_all,
		.buf_addr = buf_bus,
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
	if (!rc)
		rc = xa_insert(&rd->qp_xa, qpn, qp, GFP_KERNEL);
	if (rc) {
		RNIC_CMD(rd, rnic_cmd_destroy_qp(&rd->cmdq, qpn));
		goto err_buf;
	}
	return 0;

err_buf:
	if (qp->kbuf)
		rdma_user_mmap_entry_remove(qp->kbuf);
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
	xa_erase(&rd->qp_xa, ibqp->qp_num);
	ib_umem_release(qp->buf);
	if (qp->kbuf)	/* the pages go when the process's mapping goes too */
		rdma_user_mmap_entry_remove(qp->kbuf);
	return 0;
}

/* ib_qp_attr_mask and enum qp_attr share bit positions, ib_qp_state and enum qp_state values
 * (the spec numbers them so); the attributes this device keeps: */
#define RNIC_QP_MASK_OK (IB_QP_STATE | IB_QP_CUR_STATE | IB_QP_ACCESS_FLAGS | IB_QP_PKEY_INDEX | \
			 IB_QP_PORT | IB_QP_QKEY | IB_QP_AV | IB_QP_PATH_MTU | IB_QP_TIMEOUT |   \
			 IB_QP_RETRY_CNT | IB_QP_RNR_RETRY | IB_QP_RQ_PSN | IB_QP_MAX_QP_RD_ATOMIC | \
			 IB_QP_MIN_RNR_TIMER | IB_QP_SQ_PSN | IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_DEST_QPN)

/* The address vector: RoCE v2 over IPv4 only (an IPv4-mapped destination GID); ib_core has
 * resolved the destination MAC already. */
static int qp_av(const struct rdma_ah_attr *ah, struct rnic_qp_attr *o)
{
	const struct ib_global_route *grh = rdma_ah_read_grh(ah);
	const struct in6_addr *d = (const struct in6_addr *)grh->dgid.raw;

	if (!(rdma_ah_get_ah_flags(ah) & IB_AH_GRH) || !ipv6_addr_v4mapped(d) ||
	    grh->sgid_index >= RNIC_GID_TBL_LEN)
		return -EINVAL;
	o->dest_ipv4 = be32_to_cpu(d->s6_addr32[3]);
	o->sgid_index = grh->sgid_index;
	o->hop_limit = grh->hop_limit;
	o->traffic_class = grh->traffic_class;
	memcpy(o->dmac, rdma_ah_retrieve_dmac((struct rdma_ah_attr *)ah), ETH_ALEN);
	return 0;
}

int rnic_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *a, int mask, struct ib_udata *udata)
{
	struct rnic_kdev *rd = to_rdev(ibqp->device);
	struct rnic_qp_attr o = {};
	enum ib_qp_state cur, next;
	int rc;

	(void)udata;
	if (mask & ~RNIC_QP_MASK_OK)
		return -EOPNOTSUPP;
	rc = RNIC_CMD(rd, rnic_cmd_query_qp(&rd->cmdq, ibqp->qp_num, &o));
	if (rc)
		return rc;
	/* The IBTA transition table: which attributes each move needs and allows. */
	cur = (mask & IB_QP_CUR_STATE) ? a->cur_qp_state : (enum ib_qp_state)o.state;
	next = (mask & IB_QP_STATE) ? a->qp_state : cur;
	if (!ib_modify_qp_is_ok(cur, next, ibqp->qp_type, mask))
		return -EINVAL;
	if (((mask & IB_QP_PORT) && a->port_num != 1) || ((mask & IB_QP_PKEY_INDEX) && a->pkey_index) ||
	    ((mask & IB_QP_PATH_MTU) && (a->path_mtu < IB_MTU_256 || a->path_mtu > IB_MTU_4096)) ||
	    ((mask & IB_QP_TIMEOUT) && a->timeout > 31) || ((mask & IB_QP_RETRY_CNT) && a->retry_cnt > 7) ||
	    ((mask & IB_QP_RNR_RETRY) && a->rnr_retry > 7) ||
	    ((mask & IB_QP_MIN_RNR_TIMER) && a->min_rnr_timer > 31) ||
	    ((mask & IB_QP_MAX_QP_RD_ATOMIC) && a->max_rd_atomic > rd->dattr.max_rd_atomic) ||
	    ((mask & IB_QP_MAX_DEST_RD_ATOMIC) && a->max_dest_rd_atomic > rd->dattr.max_rd_atomic) ||
	    ((mask & IB_QP_ACCESS_FLAGS) && (a->qp_access_flags & ~0xF)) ||
	    ((mask & IB_QP_DEST_QPN) && a->dest_qp_num > 0xFFFFFF) ||
	    ((mask & IB_QP_SQ_PSN) && a->sq_psn > 0xFFFFFF) || ((mask & IB_QP_RQ_PSN) && a->rq_psn > 0xFFFFFF))
		return -EINVAL;
	o.state = next;
	o.cur_state = cur;
	o.path_mtu = a->path_mtu;
	o.timeout = a->timeout;
	o.retry_cnt = a->retry_cnt;
	o.rnr_retry = a->rnr_retry;
	o.min_rnr_timer = a->min_rnr_timer;
	o.access = a->qp_access_flags;
	o.dest_qpn = a->dest_qp_num;
	o.rq_psn = a->rq_psn;
	o.sq_psn = a->sq_psn;
	o.qkey = a->qkey;
	o.max_rd_atomic = a->max_rd_atomic;
	o.max_dest_rd_atomic = a->max_dest_rd_atomic;
	if (mask & IB_QP_AV) {
		rc = qp_av(&a->ah_attr, &o);
		if (rc)
			return rc;
	}
	return RNIC_CMD(rd, rnic_cmd_modify_qp(&rd->cmdq, ibqp->qp_num, (u32)mask, &o));
}

int rnic_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *a, int mask, struct ib_qp_init_attr *init)
{
	struct rnic_kdev *rd = to_rdev(ibqp->device);
	struct rnic_qp_attr o = {};
	int rc;

	(void)mask;
	rc = RNIC_CMD(rd, rnic_cmd_query_qp(&rd->cmdq, ibqp->qp_num, &o));
	if (rc)
		return rc;
	memset(a, 0, sizeof(*a));
	a->qp_state = (enum ib_qp_state)o.state;
	a->cur_qp_state = a->qp_state;
	a->path_mtu = (enum ib_mtu)o.path_mtu;
	a->timeout = (u8)o.timeout;
	a->retry_cnt = (u8)o.retry_cnt;
	a->rnr_retry = (u8)o.rnr_retry;
	a->min_rnr_timer = (u8)o.min_rnr_timer;
	a->qp_access_flags = (int)o.access;
	a->dest_qp_num = o.dest_qpn;
	a->rq_psn = o.rq_psn;
	a->sq_psn = o.sq_psn;
	a->qkey = o.qkey;
	a->max_rd_atomic = (u8)o.max_rd_atomic;
	a->max_dest_rd_atomic = (u8)o.max_dest_rd_atomic;
	a->port_num = 1;
	memset(init, 0, sizeof(*init));
	init->send_cq = ibqp->send_cq;
	init->recv_cq = ibqp->recv_cq;
	init->qp_type = ibqp->qp_type;
	return 0;
}

/* Address handles (UD): the same address vector as a QP's, kept by the firmware. */
int rnic_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init, struct ib_udata *udata)
{
	struct rnic_kdev *rd = to_rdev(ibah->device);
	struct rnic_ah *ah = container_of(ibah, struct rnic_ah, ibah);
	struct rnic_qp_attr av = {};
	struct rnic_create_ah_in in = {};
	struct rnic_uresp_ah resp = {};
	int rc;

	if (!(init->flags & RDMA_CREATE_AH_SLEEPABLE))
		return -EOPNOTSUPP;	/* a command sleeps */
	rc = qp_av(init->ah_attr, &av);
	if (rc)
		return rc;
	in = (struct rnic_create_ah_in){
		.pdn = rnic_pdn(ibah->pd), .dest_ipv4 = av.dest_ipv4, .sgid_index = av.sgid_index,
		.hop_limit = av.hop_limit, .traffic_class = av.traffic_class,
	};
	memcpy(in.dmac, av.dmac, ETH_ALEN);
	rc = RNIC_CMD(rd, rnic_cmd_create_ah(&rd->cmdq, &in, &ah->ahn));
	if (rc || !udata)
		return rc;
	resp.ahn = ah->ahn;
	rc = ib_copy_to_udata(udata, &resp, min(udata->outlen, sizeof(resp)));
	if (rc)
		RNIC_CMD(rd, rnic_cmd_destroy_ah(&rd->cmdq, ah->ahn));
	return rc;
}

int rnic_destroy_ah(struct ib_ah *ibah, u32 flags)
{
	struct rnic_kdev *rd = to_rdev(ibah->device);
	struct rnic_ah *ah = container_of(ibah, struct rnic_ah, ibah);
	int rc;

	(void)flags;
	rc = RNIC_CMD(rd, rnic_cmd_destroy_ah(&rd->cmdq, ah->ahn));
	return rc && !READ_ONCE(rd->dead) ? rc : 0;
}
