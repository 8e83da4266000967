/* Queue pairs: sizing from the caps, the QPN table, state changes and queries. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rnic_spec.h"
#include "rnicp_verbs.h"

#define ALL_QP_ATTRS ((1 << (RNIC_QP_ATTR_DEST_QPN + 1)) - 1)
/* No alternate path (APM) and no resizing of a live QP. */
#define UNSUPPORTED_QP_ATTRS (IBV_QP_ALT_PATH | IBV_QP_PATH_MIG_STATE | IBV_QP_CAP)
#define QP_ACCESS (IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | \
		   IBV_ACCESS_REMOTE_ATOMIC)

_Static_assert(IBV_QP_STATE == 1 << RNIC_QP_ATTR_STATE && IBV_QP_AV == 1 << RNIC_QP_ATTR_AV &&
		       IBV_QP_PATH_MTU == 1 << RNIC_QP_ATTR_PATH_MTU &&
		       IBV_QP_MAX_DEST_RD_ATOMIC == 1 << RNIC_QP_ATTR_MAX_DEST_RD_ATOMIC &&
		       IBV_QP_DEST_QPN == 1 << RNIC_QP_ATTR_DEST_QPN && IBV_QP_QKEY == 1 << RNIC_QP_ATTR_QKEY,
	       "enum qp_attr follows ibv_qp_attr_mask");
_Static_assert(IBV_QPT_RC == RNIC_QP_TYPE_RC && IBV_QPT_UD == RNIC_QP_TYPE_UD &&
		       IBV_QPS_RESET == RNIC_QP_STATE_RESET && IBV_QPS_ERR == RNIC_QP_STATE_ERR,
	       "QP types and states are the verbs values");

static unsigned log2_ceil(uint64_t n)
{
	unsigned lg = 0;

	while ((1ull << lg) < n)
		lg++;
	return lg;
}

struct rnicp_qp *rnicp_qp_lookup(struct rnicp_context *ctx, uint32_t qpn)
{
	struct rnicp_qp *qp = ctx->qp_hash[qpn % RNICP_QP_HASH];

	while (qp && qp->qpn != qpn)
		qp = qp->hnext;
	return qp;
}

int rnicp_gid_to_ipv4(const union ibv_gid *gid, uint32_t *ipv4)
{
	const uint8_t *g = gid->raw;

	for (int i = 0; i < 10; i++)
		if (g[i])
			return -EINVAL;
	if (g[10] != 0xFF || g[11] != 0xFF)
		return -EINVAL;
	*ipv4 = (uint32_t)g[12] << 24 | (uint32_t)g[13] << 16 | (uint32_t)g[14] << 8 | g[15];
	return 0;
}

/* Queue geometry for the requested caps; cap is rewritten with what the queues really hold. */
struct qp_geom {
	unsigned sq_log, rq_log, rq_log_stride, nbb;
	uint32_t rq_offset;
	size_t buf_len;
};

static int qp_size(const struct rnicp_context *ctx, uint32_t type, struct ibv_qp_cap *cap,
		   struct qp_geom *g)
{
	const struct rnic_device_attr *d = &ctx->dattr;
	uint32_t dev_sge = d->max_sge < RNICP_MAX_SGE ? d->max_sge : RNICP_MAX_SGE;
	uint32_t dev_inline = d->max_inline < RNICP_MAX_INLINE ? d->max_inline : RNICP_MAX_INLINE;
	uint32_t send_wr = cap->max_send_wr ? cap->max_send_wr : 1;
	uint32_t recv_wr = cap->max_recv_wr ? cap->max_recv_wr : 1;
	uint32_t recv_sge = cap->max_recv_sge ? cap->max_recv_sge : 1;
	/* Behind the control segment the data (SGEs or inline) follows a 16-byte segment at most:
	 * remote address (WRITE/READ) or datagram (UD). RC also takes atomics: 32 + one SGE. */
	uint32_t data = 16u * cap->max_send_sge;
	uint32_t inl = (cap->max_inline_data + 15u) & ~15u;
	uint32_t bytes = RNIC_WQE_CTRL_SIZE + RNIC_WQE_RADDR_SIZE + (data > inl ? data : inl);
	uint32_t stride;

	_Static_assert(RNIC_WQE_RADDR_SIZE == RNIC_WQE_UD_SIZE, "one size for both address segments");
	if (cap->max_send_wr > d->max_qp_wr || cap->max_recv_wr > d->max_qp_wr ||
	    cap->max_send_sge > dev_sge || cap->max_recv_sge > dev_sge ||
	    cap->max_inline_data > dev_inline)
		return -EINVAL;
	if (type == RNIC_QP_TYPE_RC && bytes < RNIC_WQE_CTRL_SIZE + RNIC_WQE_ATOMIC_SIZE + RNIC_WQE_SGE_SIZE)
		bytes = RNIC_WQE_CTRL_SIZE + RNIC_WQE_ATOMIC_SIZE + RNIC_WQE_SGE_SIZE;
	g->nbb = (bytes + RNICP_WQEBB - 1) / RNICP_WQEBB;
	if (g->nbb > RNICP_MAX_WQEBBS)
		return -EINVAL;
	g->sq_log = log2_ceil((uint64_t)send_wr * g->nbb);
	if (g->sq_log < 1)
		g->sq_log = 1;	/* the firmware's smallest SQ is 2 WQEBBs (CREATE_QP) */
	g->rq_log = log2_ceil(recv_wr);
	g->rq_log_stride = rnicp_rq_log_stride(recv_sge);
	if (g->sq_log > RNICP_SQ_MAX_LOG || g->rq_log > RNICP_RQ_MAX_LOG)
		return -EINVAL;
	stride = 1u << g->rq_log_stride;
	g->rq_offset = RNICP_WQEBB << g->sq_log;
	g->buf_len = (size_t)g->rq_offset + ((size_t)stride << g->rq_log);
	g->buf_len = (g->buf_len + RNICP_PAGE - 1) & ~(size_t)(RNICP_PAGE - 1);

	/* Write back the real capacity: never less than asked for. */
	cap->max_send_wr = (1u << g->sq_log) / g->nbb;
	cap->max_recv_wr = 1u << g->rq_log;
	bytes = g->nbb * RNICP_WQEBB - RNIC_WQE_CTRL_SIZE - RNIC_WQE_RADDR_SIZE;
	cap->max_send_sge = bytes / RNIC_WQE_SGE_SIZE < dev_sge ? bytes / RNIC_WQE_SGE_SIZE : dev_sge;
	cap->max_inline_data = bytes < dev_inline ? bytes : dev_inline;
	recv_sge = (stride - RNIC_RQ_WQE_SIZE) / RNIC_WQE_SGE_SIZE;
	cap->max_recv_sge = recv_sge < dev_sge ? recv_sge : dev_sge;
	return 0;
}

static void table_add(struct rnicp_context *ctx, struct rnicp_qp *qp)
{
	struct rnicp_qp **b = &ctx->qp_hash[qp->qpn % RNICP_QP_HASH];

	pthread_rwlock_wrlock(&ctx->qp_lock);
	qp->hnext = *b;
	*b = qp;
	pthread_rwlock_unlock(&ctx->qp_lock);
}

static void table_del(struct rnicp_context *ctx, struct rnicp_qp *qp)
{
	struct rnicp_qp **p = &ctx->qp_hash[qp->qpn % RNICP_QP_HASH];

	pthread_rwlock_wrlock(&ctx->qp_lock);
	while (*p && *p != qp)
		p = &(*p)->hnext;
	if (*p)
		*p = qp->hnext;
	pthread_rwlock_unlock(&ctx->qp_lock);
}

static struct rnicp_qp *qp_create(struct ibv_pd *pd, struct ibv_qp_init_attr *attr)
{
	struct rnicp_context *ctx = to_rctx(pd->context);
	struct ibv_qp_cap cap = attr->cap;
	struct rnicp_be_qp_in in;
	struct rnicp_qp *qp;
	struct qp_geom g;
	uint32_t qpn;
	int rc;

	if (attr->qp_type != IBV_QPT_RC && attr->qp_type != IBV_QPT_UD) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	if (!attr->send_cq || !attr->recv_cq || attr->srq) {
		errno = EINVAL;
		return NULL;
	}
	rc = qp_size(ctx, attr->qp_type, &cap, &g);
	if (rc) {
		errno = -rc;
		return NULL;
	}
	qp = calloc(1, sizeof(*qp));
	if (!qp) {
		errno = ENOMEM;
		return NULL;
	}
	if (posix_memalign(&qp->buf, RNICP_PAGE, g.buf_len)) {
		free(qp);
		errno = ENOMEM;
		return NULL;
	}
	memset(qp->buf, 0, g.buf_len);
	qp->buf_len = g.buf_len;
	qp->rq_offset = g.rq_offset;

	memset(&in, 0, sizeof(in));
	in.pdn = to_rpd(pd)->pdn;
	in.send_cqn = to_rcq(attr->send_cq)->ring.cqn;
	in.recv_cqn = to_rcq(attr->recv_cq)->ring.cqn;
	in.qp_type = attr->qp_type;
	in.sq_log_size = g.sq_log;
	in.rq_log_size = g.rq_log;
	in.rq_log_stride = g.rq_log_stride;
	in.max_inline = cap.max_inline_data;
	in.sq_sig_all = attr->sq_sig_all ? 1 : 0;
	in.buf = qp->buf;
	in.buf_len = g.buf_len;
	in.rq_offset = g.rq_offset;
	in.user_handle = (uintptr_t)&qp->vqp.qp;
	rc = ctx->be_ops->create_qp(ctx->be, &in, &qpn);
	if (!rc) {
		rc = rnicp_sq_init(&qp->sq, qp->buf, g.sq_log, qpn, attr->qp_type, cap.max_send_sge,
				   cap.max_inline_data);
		if (!rc)
			rc = rnicp_rq_init(&qp->rq, (uint8_t *)qp->buf + g.rq_offset, g.rq_log,
					   g.rq_log_stride, qpn);
		if (rc)
			ctx->be_ops->destroy_qp(ctx->be, qpn);
	}
	if (rc) {
		free(qp->buf);
		free(qp);
		errno = -rc;
		return NULL;
	}
	qp->qpn = qpn;
	qp->qp_type = attr->qp_type;
	qp->state = RNIC_QP_STATE_RESET;
	qp->sq_sig_all = in.sq_sig_all;
	qp->sq_wqebbs = g.nbb;
	qp->cap = cap;
	pthread_mutex_init(&qp->sq_lock, NULL);
	pthread_mutex_init(&qp->ci_lock, NULL);
	pthread_mutex_init(&qp->rq_lock, NULL);

	/* What ibv_cmd_create_qp would fill in with a kernel; ibv_create_qp itself does nothing. */
	qp->vqp.qp.context = pd->context;
	qp->vqp.qp.qp_context = attr->qp_context;
	qp->vqp.qp.pd = pd;
	qp->vqp.qp.send_cq = attr->send_cq;
	qp->vqp.qp.recv_cq = attr->recv_cq;
	qp->vqp.qp.srq = NULL;
	qp->vqp.qp.handle = qpn;
	qp->vqp.qp.qp_num = qpn;
	qp->vqp.qp.state = IBV_QPS_RESET;
	qp->vqp.qp.qp_type = attr->qp_type;
	qp->vqp.qp.events_completed = 0;
	pthread_mutex_init(&qp->vqp.qp.mutex, NULL);
	pthread_cond_init(&qp->vqp.qp.cond, NULL);

	table_add(ctx, qp);
	attr->cap = cap;
	return qp;
}

struct ibv_qp *rnicp_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *attr)
{
	struct rnicp_qp *qp = qp_create(pd, attr);

	return qp ? &qp->vqp.qp : NULL;
}

/* The extended create: what create_qp takes plus the ibv_wr_* API (send_ops_flags). */
struct ibv_qp *rnicp_create_qp_ex(struct ibv_context *context, struct ibv_qp_init_attr_ex *ax)
{
	const uint32_t known = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
	struct ibv_qp_init_attr a;
	struct rnicp_qp *qp;
	int rc;

	if (ax->comp_mask & ~known) {
		errno = EOPNOTSUPP;	/* XRC, create flags, TSO, RSS */
		return NULL;
	}
	if (!(ax->comp_mask & IBV_QP_INIT_ATTR_PD) || !ax->pd || ax->pd->context != context) {
		errno = EINVAL;
		return NULL;
	}
	memset(&a, 0, sizeof(a));
	a.qp_context = ax->qp_context;
	a.send_cq = ax->send_cq;
	a.recv_cq = ax->recv_cq;
	a.srq = ax->srq;
	a.cap = ax->cap;
	a.qp_type = ax->qp_type;
	a.sq_sig_all = ax->sq_sig_all;
	qp = qp_create(ax->pd, &a);
	if (!qp)
		return NULL;
	if (ax->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS) {
		rc = rnicp_wr_init(qp, ax->send_ops_flags);
		if (rc) {
			rnicp_destroy_qp(&qp->vqp.qp);
			errno = -rc;
			return NULL;
		}
	}
	ax->cap = a.cap;
	return &qp->vqp.qp;
}

/* ibv_qp_attr -> rnic_qp_attr for the attributes in mask; -errno for what the NIC cannot take. */
static int to_rnic_attr(struct rnicp_context *ctx, const struct ibv_qp_attr *a, int mask,
			struct rnic_qp_attr *o)
{
	uint32_t gid_tbl_len;

	pthread_mutex_lock(&ctx->port_lock);
	gid_tbl_len = ctx->pattr.gid_tbl_len;
	pthread_mutex_unlock(&ctx->port_lock);
	memset(o, 0, sizeof(*o));
	if (mask & ~ALL_QP_ATTRS || mask & UNSUPPORTED_QP_ATTRS)
		return -EOPNOTSUPP;
	if ((mask & IBV_QP_STATE) && (uint32_t)a->qp_state > RNIC_QP_STATE_ERR)
		return -EINVAL;
	if ((mask & IBV_QP_CUR_STATE) && (uint32_t)a->cur_qp_state > RNIC_QP_STATE_ERR)
		return -EINVAL;
	if ((mask & IBV_QP_PORT) && a->port_num != 1)
		return -EINVAL;
	if ((mask & IBV_QP_PKEY_INDEX) && a->pkey_index != 0)
		return -EINVAL;
	if ((mask & IBV_QP_ACCESS_FLAGS) && (a->qp_access_flags & ~(unsigned)QP_ACCESS))
		return -EINVAL;
	if ((mask & IBV_QP_PATH_MTU) && !rnicp_mtu_bytes(a->path_mtu))
		return -EINVAL;
	if ((mask & IBV_QP_MAX_QP_RD_ATOMIC) && a->max_rd_atomic > ctx->dattr.max_rd_atomic)
		return -EINVAL;
	if ((mask & IBV_QP_MAX_DEST_RD_ATOMIC) && a->max_dest_rd_atomic > ctx->dattr.max_rd_atomic)
		return -EINVAL;
	if (mask & IBV_QP_AV) {
		/* RoCE needs the GRH (ib_core rejects a local-only AV too); the destination is
		 * reached by the IPv4 address inside its GID, no ARP. */
		if (!a->ah_attr.is_global || rnicp_gid_to_ipv4(&a->ah_attr.grh.dgid, &o->dest_ipv4))
			return -EINVAL;
		if (a->ah_attr.grh.sgid_index >= gid_tbl_len)
			return -EINVAL;
		o->sgid_index = a->ah_attr.grh.sgid_index;
		o->hop_limit = a->ah_attr.grh.hop_limit;
		o->traffic_class = rnic_av_tclass(a->ah_attr.grh.traffic_class, a->ah_attr.sl);
	}
	o->state = a->qp_state;
	o->cur_state = a->cur_qp_state;
	o->path_mtu = a->path_mtu;
	o->timeout = a->timeout;
	o->retry_cnt = a->retry_cnt;
	o->rnr_retry = a->rnr_retry;
	o->min_rnr_timer = a->min_rnr_timer;
	o->access = a->qp_access_flags;
	o->dest_qpn = a->dest_qp_num;
	o->rq_psn = a->rq_psn;
	o->sq_psn = a->sq_psn;
	o->qkey = a->qkey;
	o->max_rd_atomic = a->max_rd_atomic;
	o->max_dest_rd_atomic = a->max_dest_rd_atomic;
	return 0;
}

int rnicp_modify_qp(struct ibv_qp *ibqp, struct ibv_qp_attr *attr, int attr_mask)
{
	struct rnicp_qp *qp = to_rqp(ibqp);
	struct rnicp_context *ctx = to_rctx(ibqp->context);
	struct rnic_qp_attr a;
	int rc = to_rnic_attr(ctx, attr, attr_mask, &a);

	if (rc)
		return -rc;
	rc = ctx->be_ops->modify_qp(ctx->be, qp->qpn, (uint32_t)attr_mask, &a);
	if (rc)
		return -rc;
	pthread_mutex_lock(&qp->sq_lock);
	pthread_mutex_lock(&qp->rq_lock);
	if (attr_mask & IBV_QP_QKEY)
		qp->qkey = attr->qkey;
	if (attr_mask & IBV_QP_PATH_MTU)
		qp->path_mtu = attr->path_mtu;
	if (attr_mask & IBV_QP_STATE) {
		qp->state = attr->qp_state;
		if (qp->state == RNIC_QP_STATE_RESET) {
			/* The device forgets both queues at RESET; start over at index 0. */
			pthread_mutex_lock(&qp->ci_lock);
			memset(qp->buf, 0, qp->buf_len);
			qp->sq.pi = qp->sq.ci = 0;
			qp->rq.pi = qp->rq.ci = 0;
			pthread_mutex_unlock(&qp->ci_lock);
		}
	}
	pthread_mutex_unlock(&qp->rq_lock);
	pthread_mutex_unlock(&qp->sq_lock);
	return 0;
}

int rnicp_query_qp(struct ibv_qp *ibqp, struct ibv_qp_attr *attr, int attr_mask,
		   struct ibv_qp_init_attr *init_attr)
{
	struct rnicp_qp *qp = to_rqp(ibqp);
	struct rnicp_context *ctx = to_rctx(ibqp->context);
	struct rnic_qp_attr a;
	int rc;

	(void)attr_mask;	/* everything is cheap to fill in */
	rc = ctx->be_ops->query_qp(ctx->be, qp->qpn, &a);
	if (rc)
		return -rc;
	memset(attr, 0, sizeof(*attr));
	attr->qp_state = (enum ibv_qp_state)a.state;
	attr->cur_qp_state = (enum ibv_qp_state)a.state;
	attr->path_mtu = (enum ibv_mtu)a.path_mtu;
	attr->path_mig_state = IBV_MIG_MIGRATED;
	attr->qkey = a.qkey;
	attr->rq_psn = a.rq_psn;
	attr->sq_psn = a.sq_psn;
	attr->dest_qp_num = a.dest_qpn;
	attr->qp_access_flags = a.access;
	attr->cap = qp->cap;
	if (qp->qp_type == IBV_QPT_RC) {
		attr->ah_attr.is_global = 1;
		attr->ah_attr.port_num = 1;
		attr->ah_attr.grh.dgid.raw[10] = 0xFF;
		attr->ah_attr.grh.dgid.raw[11] = 0xFF;
		attr->ah_attr.grh.dgid.raw[12] = (uint8_t)(a.dest_ipv4 >> 24);
		attr->ah_attr.grh.dgid.raw[13] = (uint8_t)(a.dest_ipv4 >> 16);
		attr->ah_attr.grh.dgid.raw[14] = (uint8_t)(a.dest_ipv4 >> 8);
		attr->ah_attr.grh.dgid.raw[15] = (uint8_t)a.dest_ipv4;
		attr->ah_attr.grh.sgid_index = (uint8_t)a.sgid_index;
		attr->ah_attr.grh.hop_limit = (uint8_t)a.hop_limit;
		attr->ah_attr.grh.traffic_class = (uint8_t)a.traffic_class;
	}
	attr->max_rd_atomic = (uint8_t)a.max_rd_atomic;
	attr->max_dest_rd_atomic = (uint8_t)a.max_dest_rd_atomic;
	attr->min_rnr_timer = (uint8_t)a.min_rnr_timer;
	attr->port_num = 1;
	attr->timeout = (uint8_t)a.timeout;
	attr->retry_cnt = (uint8_t)a.retry_cnt;
	attr->rnr_retry = (uint8_t)a.rnr_retry;

	if (init_attr) {
		memset(init_attr, 0, sizeof(*init_attr));
		init_attr->qp_context = ibqp->qp_context;
		init_attr->send_cq = ibqp->send_cq;
		init_attr->recv_cq = ibqp->recv_cq;
		init_attr->cap = qp->cap;
		init_attr->qp_type = ibqp->qp_type;
		init_attr->sq_sig_all = (int)qp->sq_sig_all;
	}
	/* The device may have moved the QP (to ERR on a fatal error). */
	pthread_mutex_lock(&qp->sq_lock);
	pthread_mutex_lock(&qp->rq_lock);
	qp->state = a.state;
	pthread_mutex_unlock(&qp->rq_lock);
	pthread_mutex_unlock(&qp->sq_lock);
	return 0;
}

int rnicp_destroy_qp(struct ibv_qp *ibqp)
{
	struct rnicp_qp *qp = to_rqp(ibqp);
	struct rnicp_context *ctx = to_rctx(ibqp->context);
	int rc = ctx->be_ops->destroy_qp(ctx->be, qp->qpn);

	if (rc)
		return -rc;
	table_del(ctx, qp);
	rnicp_wr_fini(qp);
	pthread_mutex_destroy(&qp->sq_lock);
	pthread_mutex_destroy(&qp->ci_lock);
	pthread_mutex_destroy(&qp->rq_lock);
	free(qp->buf);
	free(qp);
	return 0;
}
