/* The ibv_wr_* API (ibv_qp_ex): wr_start takes the SQ, each wr_<opcode> begins a work request
 * that the following wr_set_* calls complete, and the request is written to the ring when the
 * next one begins or at wr_complete, by the same code as ibv_post_send. The first error is
 * kept and returned by wr_complete, which then drops every WQE of the batch (none was
 * announced to the device); wr_abort does the same without an error. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rnic_spec.h"
#include "rnicp_verbs.h"

struct rnicp_wrx {
	int open;			/* a WR begun and not yet written */
	int err;			/* first error of the batch, positive errno */
	int posted, nbb, idle;
	uint32_t start_pi;
	struct ibv_send_wr wr;
	struct ibv_sge sge[RNICP_MAX_SGE];
	uint8_t inl[RNICP_MAX_INLINE];	/* inline data is copied when it is given */
	uint8_t bf[RNICP_MAX_WQE_BYTES];
};

static struct rnicp_qp *xqp(struct ibv_qp_ex *q)
{
	return to_rqp(&q->qp_base);
}

static void fail(struct rnicp_wrx *x, int err)
{
	if (!x->err)
		x->err = err;
}

/* Writes the open WR into the ring. */
static void commit(struct rnicp_qp *qp)
{
	struct rnicp_wrx *x = qp->wrx;
	int n;

	if (!x->open)
		return;
	x->open = 0;
	if (x->err)
		return;
	n = rnicp_post_one(to_rctx(qp->vqp.qp.context), qp, &x->wr, x->bf);
	if (n < 0) {
		fail(x, -n);
		return;
	}
	x->posted++;
	x->nbb = n;
}

static struct ibv_send_wr *begin(struct ibv_qp_ex *q, enum ibv_wr_opcode op)
{
	struct rnicp_qp *qp = xqp(q);
	struct rnicp_wrx *x = qp->wrx;

	commit(qp);
	memset(&x->wr, 0, sizeof(x->wr));
	x->wr.wr_id = q->wr_id;
	x->wr.send_flags = q->wr_flags;
	x->wr.opcode = op;
	x->wr.sg_list = x->sge;
	x->open = 1;
	return &x->wr;
}

static void wr_start(struct ibv_qp_ex *q)
{
	struct rnicp_qp *qp = xqp(q);
	struct rnicp_wrx *x = qp->wrx;

	pthread_mutex_lock(&qp->sq_lock);
	x->open = x->err = x->posted = x->nbb = 0;
	x->start_pi = qp->sq.pi;
	pthread_mutex_lock(&qp->ci_lock);
	x->idle = qp->sq.pi == qp->sq.ci;
	pthread_mutex_unlock(&qp->ci_lock);
	if (qp->state < RNIC_QP_STATE_RTS)
		x->err = EINVAL;	/* as ibv_post_send: nothing before RTS */
}

static int wr_complete(struct ibv_qp_ex *q)
{
	struct rnicp_qp *qp = xqp(q);
	struct rnicp_wrx *x = qp->wrx;
	int err;

	commit(qp);
	err = x->err;
	if (err) {
		pthread_mutex_lock(&qp->ci_lock);
		qp->sq.pi = x->start_pi;	/* the device was never told of them */
		pthread_mutex_unlock(&qp->ci_lock);
	} else if (x->posted)
		rnicp_sq_doorbell(to_rctx(qp->vqp.qp.context), qp, x->posted == 1 && x->idle, x->bf, x->nbb);
	pthread_mutex_unlock(&qp->sq_lock);
	return err;
}

static void wr_abort(struct ibv_qp_ex *q)
{
	struct rnicp_qp *qp = xqp(q);

	qp->wrx->open = 0;
	pthread_mutex_lock(&qp->ci_lock);
	qp->sq.pi = qp->wrx->start_pi;
	pthread_mutex_unlock(&qp->ci_lock);
	pthread_mutex_unlock(&qp->sq_lock);
}

static void wr_rdma_write(struct ibv_qp_ex *q, uint32_t rkey, uint64_t remote_addr)
{
	struct ibv_send_wr *w = begin(q, IBV_WR_RDMA_WRITE);

	w->wr.rdma.rkey = rkey;
	w->wr.rdma.remote_addr = remote_addr;
}

static void wr_rdma_write_imm(struct ibv_qp_ex *q, uint32_t rkey, uint64_t remote_addr, __be32 imm)
{
	struct ibv_send_wr *w = begin(q, IBV_WR_RDMA_WRITE_WITH_IMM);

	w->wr.rdma.rkey = rkey;
	w->wr.rdma.remote_addr = remote_addr;
	w->imm_data = imm;
}

static void wr_rdma_read(struct ibv_qp_ex *q, uint32_t rkey, uint64_t remote_addr)
{
	struct ibv_send_wr *w = begin(q, IBV_WR_RDMA_READ);

	w->wr.rdma.rkey = rkey;
	w->wr.rdma.remote_addr = remote_addr;
}

static void wr_send(struct ibv_qp_ex *q)
{
	begin(q, IBV_WR_SEND);
}

static void wr_send_imm(struct ibv_qp_ex *q, __be32 imm)
{
	begin(q, IBV_WR_SEND_WITH_IMM)->imm_data = imm;
}

static void wr_atomic_cmp_swp(struct ibv_qp_ex *q, uint32_t rkey, uint64_t remote_addr, uint64_t compare,
			      uint64_t swap)
{
	struct ibv_send_wr *w = begin(q, IBV_WR_ATOMIC_CMP_AND_SWP);

	w->wr.atomic.rkey = rkey;
	w->wr.atomic.remote_addr = remote_addr;
	w->wr.atomic.compare_add = compare;
	w->wr.atomic.swap = swap;
}

static void wr_atomic_fetch_add(struct ibv_qp_ex *q, uint32_t rkey, uint64_t remote_addr, uint64_t add)
{
	struct ibv_send_wr *w = begin(q, IBV_WR_ATOMIC_FETCH_AND_ADD);

	w->wr.atomic.rkey = rkey;
	w->wr.atomic.remote_addr = remote_addr;
	w->wr.atomic.compare_add = add;
}

static void wr_set_ud_addr(struct ibv_qp_ex *q, struct ibv_ah *ah, uint32_t remote_qpn, uint32_t remote_qkey)
{
	struct rnicp_wrx *x = xqp(q)->wrx;

	x->wr.wr.ud.ah = ah;
	x->wr.wr.ud.remote_qpn = remote_qpn;
	x->wr.wr.ud.remote_qkey = remote_qkey;
}

static void wr_set_sge(struct ibv_qp_ex *q, uint32_t lkey, uint64_t addr, uint32_t length)
{
	struct rnicp_wrx *x = xqp(q)->wrx;

	x->sge[0] = (struct ibv_sge){ .addr = addr, .length = length, .lkey = lkey };
	x->wr.sg_list = x->sge;
	x->wr.num_sge = 1;
}

static void wr_set_sge_list(struct ibv_qp_ex *q, size_t num_sge, const struct ibv_sge *sg_list)
{
	struct rnicp_wrx *x = xqp(q)->wrx;

	if (num_sge > RNICP_MAX_SGE) {
		fail(x, EINVAL);
		return;
	}
	if (num_sge)
		memcpy(x->sge, sg_list, num_sge * sizeof(*sg_list));
	x->wr.sg_list = x->sge;
	x->wr.num_sge = (int)num_sge;
}

static void wr_set_inline_data_list(struct ibv_qp_ex *q, size_t num_buf, const struct ibv_data_buf *buf)
{
	struct rnicp_wrx *x = xqp(q)->wrx;
	size_t len = 0;

	for (size_t i = 0; i < num_buf; i++) {
		if (buf[i].length > sizeof(x->inl) - len) {
			fail(x, EINVAL);	/* more than any QP takes inline */
			return;
		}
		if (buf[i].length)
			memcpy(x->inl + len, buf[i].addr, buf[i].length);
		len += buf[i].length;
	}
	x->sge[0] = (struct ibv_sge){ .addr = (uintptr_t)x->inl, .length = (uint32_t)len };
	x->wr.sg_list = x->sge;
	x->wr.num_sge = 1;
	x->wr.send_flags |= IBV_SEND_INLINE;
}

static void wr_set_inline_data(struct ibv_qp_ex *q, void *addr, size_t length)
{
	struct ibv_data_buf b = { .addr = addr, .length = length };

	wr_set_inline_data_list(q, 1, &b);
}

/* Operations the NIC does not have: the batch fails at wr_complete instead of a NULL call. */
static void wr_unsupported(struct ibv_qp_ex *q)
{
	struct rnicp_qp *qp = xqp(q);

	commit(qp);
	fail(qp->wrx, EOPNOTSUPP);
}

static void wr_bind_mw(struct ibv_qp_ex *q, struct ibv_mw *mw, uint32_t rkey, const struct ibv_mw_bind_info *info)
{
	(void)mw, (void)rkey, (void)info;
	wr_unsupported(q);
}

static void wr_local_inv(struct ibv_qp_ex *q, uint32_t rkey)
{
	(void)rkey;
	wr_unsupported(q);
}

static void wr_send_inv(struct ibv_qp_ex *q, uint32_t rkey)
{
	(void)rkey;
	wr_unsupported(q);
}

static void wr_send_tso(struct ibv_qp_ex *q, void *hdr, uint16_t hdr_sz, uint16_t mss)
{
	(void)hdr, (void)hdr_sz, (void)mss;
	wr_unsupported(q);
}

static void wr_set_xrc_srqn(struct ibv_qp_ex *q, uint32_t srqn)
{
	(void)srqn;
	fail(xqp(q)->wrx, EOPNOTSUPP);
}

static void wr_atomic_write(struct ibv_qp_ex *q, uint32_t rkey, uint64_t remote_addr, const void *wr)
{
	(void)rkey, (void)remote_addr, (void)wr;
	wr_unsupported(q);
}

int rnicp_wr_init(struct rnicp_qp *qp, uint64_t ops)
{
	const uint64_t send = IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM;
	const uint64_t rc = send | IBV_QP_EX_WITH_RDMA_WRITE | IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM |
			    IBV_QP_EX_WITH_RDMA_READ | IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP |
			    IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD;
	struct ibv_qp_ex *q = &qp->vqp.qp_ex;

	if (ops & ~(qp->qp_type == IBV_QPT_UD ? send : rc))
		return -EOPNOTSUPP;
	qp->wrx = calloc(1, sizeof(*qp->wrx));
	if (!qp->wrx)
		return -ENOMEM;
	q->wr_start = wr_start;
	q->wr_complete = wr_complete;
	q->wr_abort = wr_abort;
	q->wr_rdma_write = wr_rdma_write;
	q->wr_rdma_write_imm = wr_rdma_write_imm;
	q->wr_rdma_read = wr_rdma_read;
	q->wr_send = wr_send;
	q->wr_send_imm = wr_send_imm;
	q->wr_atomic_cmp_swp = wr_atomic_cmp_swp;
	q->wr_atomic_fetch_add = wr_atomic_fetch_add;
	q->wr_set_ud_addr = wr_set_ud_addr;
	q->wr_set_sge = wr_set_sge;
	q->wr_set_sge_list = wr_set_sge_list;
	q->wr_set_inline_data = wr_set_inline_data;
	q->wr_set_inline_data_list = wr_set_inline_data_list;
	q->wr_bind_mw = wr_bind_mw;
	q->wr_local_inv = wr_local_inv;
	q->wr_send_inv = wr_send_inv;
	q->wr_send_tso = wr_send_tso;
	q->wr_set_xrc_srqn = wr_set_xrc_srqn;
	q->wr_atomic_write = wr_atomic_write;
	qp->vqp.comp_mask |= VERBS_QP_EX;
	return 0;
}

void rnicp_wr_fini(struct rnicp_qp *qp)
{
	free(qp->wrx);
	qp->wrx = NULL;
}
