/* Completion queues: ring and doorbell record in process memory, polling, arming. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "rnic_spec.h"
#include "rnicp_verbs.h"

#define POLL_CHUNK 16

static struct rnicp_vcq *cq_create(struct ibv_context *context, int cqe, int comp_vector,
				   struct ibv_comp_channel *channel)
{
	struct rnicp_context *ctx = to_rctx(context);
	struct rnicp_vcq *cq;
	unsigned lg = 1;	/* the firmware's smallest ring is 2 entries */
	uint32_t cqn;
	int rc;

	if (cqe < 1 || (uint32_t)cqe > ctx->dattr.max_cqe || comp_vector < 0 ||
	    comp_vector >= context->num_comp_vectors) {
		errno = EINVAL;
		return NULL;
	}
	/* The owner bit needs no spare slot: the ring holds exactly 2^lg completions. */
	while ((1u << lg) < (uint32_t)cqe)
		lg++;
	if (lg > RNICP_CQ_MAX_LOG) {
		errno = EINVAL;
		return NULL;
	}
	cq = calloc(1, sizeof(*cq));
	if (!cq) {
		errno = ENOMEM;
		return NULL;
	}
	cq->buf_len = ((size_t)RNIC_CQE_SIZE << lg);
	cq->buf_len = (cq->buf_len + RNICP_PAGE - 1) & ~(size_t)(RNICP_PAGE - 1);
	if (posix_memalign(&cq->buf, RNICP_PAGE, cq->buf_len) ||
	    posix_memalign((void **)&cq->dbrec, 64, 64)) {
		rc = -ENOMEM;
		goto fail;
	}
	memset(cq->buf, 0, cq->buf_len);	/* owner 0: nothing written yet */
	memset(cq->dbrec, 0, 64);
	rc = ctx->be_ops->create_cq(ctx->be, lg, cq->buf, cq->dbrec, (uintptr_t)&cq->vcq.cq, channel,
				    &cqn);
	if (rc)
		goto fail;
	rc = rnicp_cq_init(&cq->ring, cq->buf, lg, cqn, cq->dbrec);
	if (rc) {
		ctx->be_ops->destroy_cq(ctx->be, cqn);
		goto fail;
	}
	pthread_mutex_init(&cq->lock, NULL);
	cq->vcq.cq.context = context;
	cq->vcq.cq.cqe = 1 << lg;
	cq->vcq.cq.handle = cqn;
	return cq;
fail:
	free(cq->buf);
	free(cq->dbrec);
	free(cq);
	errno = -rc;
	return NULL;
}

struct ibv_cq *rnicp_create_cq(struct ibv_context *context, int cqe, struct ibv_comp_channel *channel,
			       int comp_vector)
{
	/* ibv_create_cq records the channel too (verbs_init_cq); the backend gives it to the
	 * kernel, whose completion events arrive on it. */
	struct rnicp_vcq *cq = cq_create(context, cqe, comp_vector, channel);

	return cq ? &cq->vcq.cq : NULL;
}

int rnicp_destroy_cq(struct ibv_cq *ibcq)
{
	struct rnicp_vcq *cq = to_rcq(ibcq);
	struct rnicp_context *ctx = to_rctx(ibcq->context);
	int rc = ctx->be_ops->destroy_cq(ctx->be, cq->ring.cqn);

	if (rc)
		return -rc;	/* e.g. a QP still uses it */
	pthread_mutex_destroy(&cq->lock);
	free(cq->buf);
	free(cq->dbrec);
	free(cq);
	return 0;
}

/* Moves the consumer of the QP's SQ or RQ past the completed WQE. A completion of a QP that
 * is gone (destroyed while its CQEs were still in the ring) retires nothing. */
static void retire(struct rnicp_context *ctx, const struct rnicp_wc *w)
{
	struct rnicp_qp *qp;

	pthread_rwlock_rdlock(&ctx->qp_lock);
	qp = rnicp_qp_lookup(ctx, w->qpn);
	if (qp) {
		if (rnicp_wc_is_recv(w)) {
			pthread_mutex_lock(&qp->rq_lock);
			rnicp_rq_complete(&qp->rq, w->wqe_index);
			pthread_mutex_unlock(&qp->rq_lock);
		} else {
			pthread_mutex_lock(&qp->ci_lock);
			rnicp_sq_complete(&qp->sq, w->wqe_index);
			pthread_mutex_unlock(&qp->ci_lock);
		}
	}
	pthread_rwlock_unlock(&ctx->qp_lock);
}

static void to_ibv_wc(const struct rnicp_wc *w, struct ibv_wc *wc)
{
	memset(wc, 0, sizeof(*wc));
	wc->wr_id = w->wr_id;
	wc->status = (enum ibv_wc_status)w->status;	/* the spec uses the verbs values */
	wc->opcode = (enum ibv_wc_opcode)w->opcode;
	wc->vendor_err = w->vendor_err;
	wc->byte_len = w->byte_len;
	wc->qp_num = w->qpn;
	wc->src_qp = w->src_qp;
	if (w->flags & (1u << RNIC_CQE_FLAG_WITH_IMM)) {
		wc->wc_flags |= IBV_WC_WITH_IMM;
		wc->imm_data = w->imm_data;	/* already in network order */
	}
	if (w->flags & (1u << RNIC_CQE_FLAG_GRH))
		wc->wc_flags |= IBV_WC_GRH;
}

int rnicp_poll_cq(struct ibv_cq *ibcq, int num_entries, struct ibv_wc *wc)
{
	struct rnicp_vcq *cq = to_rcq(ibcq);
	struct rnicp_context *ctx = to_rctx(ibcq->context);
	struct rnicp_wc w[POLL_CHUNK];
	int total = 0;

	if (num_entries < 0)
		return -EINVAL;
	pthread_mutex_lock(&cq->lock);
	while (total < num_entries) {
		int want = num_entries - total < POLL_CHUNK ? num_entries - total : POLL_CHUNK;
		int n = rnicp_cq_poll(&cq->ring, want, w);

		for (int i = 0; i < n; i++) {
			retire(ctx, &w[i]);
			to_ibv_wc(&w[i], &wc[total + i]);
		}
		total += n;
		if (n < want)
			break;
	}
	pthread_mutex_unlock(&cq->lock);
	/* In simulation the device is a process on the same few cores: let it run. */
	if (!total)
		sched_yield();
	return total;
}

int rnicp_req_notify_cq(struct ibv_cq *ibcq, int solicited_only)
{
	struct rnicp_vcq *cq = to_rcq(ibcq);
	struct rnicp_context *ctx = to_rctx(ibcq->context);

	rnicp_arm_cq(&ctx->db, cq->ring.cqn, solicited_only);
	return 0;
}

/* ---- the extended CQ (ibv_create_cq_ex): one completion at a time between start_poll and
 * end_poll, which hold the CQ lock as the verbs API allows ------------------------------ */

static struct rnicp_vcq *xcq(struct ibv_cq_ex *c)
{
	return to_rcq(ibv_cq_ex_to_cq(c));
}

static int poll_one(struct rnicp_vcq *cq)
{
	if (rnicp_cq_poll(&cq->ring, 1, &cq->cur) != 1)
		return ENOENT;
	retire(to_rctx(cq->vcq.cq.context), &cq->cur);
	cq->vcq.cq_ex.status = (enum ibv_wc_status)cq->cur.status;
	cq->vcq.cq_ex.wr_id = cq->cur.wr_id;
	return 0;
}

static int cqx_start_poll(struct ibv_cq_ex *c, struct ibv_poll_cq_attr *attr)
{
	struct rnicp_vcq *cq = xcq(c);

	if (attr && attr->comp_mask)
		return EINVAL;
	pthread_mutex_lock(&cq->lock);
	if (poll_one(cq)) {
		pthread_mutex_unlock(&cq->lock);
		sched_yield();	/* as poll_cq: let the simulated device run */
		return ENOENT;
	}
	return 0;
}

static int cqx_next_poll(struct ibv_cq_ex *c)
{
	return poll_one(xcq(c));
}

static void cqx_end_poll(struct ibv_cq_ex *c)
{
	pthread_mutex_unlock(&xcq(c)->lock);
}

static enum ibv_wc_opcode cqx_read_opcode(struct ibv_cq_ex *c)
{
	return (enum ibv_wc_opcode)xcq(c)->cur.opcode;
}

static uint32_t cqx_read_vendor_err(struct ibv_cq_ex *c)
{
	return xcq(c)->cur.vendor_err;
}

static uint32_t cqx_read_byte_len(struct ibv_cq_ex *c)
{
	return xcq(c)->cur.byte_len;
}

static __be32 cqx_read_imm_data(struct ibv_cq_ex *c)
{
	return xcq(c)->cur.imm_data;
}

static uint32_t cqx_read_qp_num(struct ibv_cq_ex *c)
{
	return xcq(c)->cur.qpn;
}

static uint32_t cqx_read_src_qp(struct ibv_cq_ex *c)
{
	return xcq(c)->cur.src_qp;
}

static unsigned int cqx_read_wc_flags(struct ibv_cq_ex *c)
{
	struct ibv_wc wc;

	to_ibv_wc(&xcq(c)->cur, &wc);
	return wc.wc_flags;
}

static uint32_t cqx_read_zero32(struct ibv_cq_ex *c)
{
	(void)c;
	return 0;	/* RoCE: no LID */
}

static uint8_t cqx_read_zero8(struct ibv_cq_ex *c)
{
	(void)c;
	return 0;	/* RoCE: no SL, no path bits */
}

struct ibv_cq_ex *rnicp_create_cq_ex(struct ibv_context *context, struct ibv_cq_init_attr_ex *attr)
{
	struct rnicp_vcq *cq;
	struct ibv_cq_ex *x;

	/* No timestamps, VLAN, flow tags or tag matching; no parent domain; overrun is an error. */
	if ((attr->wc_flags & ~(uint64_t)IBV_WC_STANDARD_FLAGS) ||
	    (attr->comp_mask & ~(uint32_t)IBV_CQ_INIT_ATTR_MASK_FLAGS) ||
	    ((attr->comp_mask & IBV_CQ_INIT_ATTR_MASK_FLAGS) &&
	     (attr->flags & ~(uint32_t)IBV_CREATE_CQ_ATTR_SINGLE_THREADED))) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	if (attr->cqe > INT32_MAX) {
		errno = EINVAL;
		return NULL;
	}
	cq = cq_create(context, (int)attr->cqe, (int)attr->comp_vector, attr->channel);
	if (!cq)
		return NULL;
	/* cq_context, channel, mutex: libibverbs' wrapper of create_cq_ex (verbs_init_cq) sets
	 * them after this returns, as ibv_create_cq does; doing it here too would count the
	 * channel twice. */
	x = &cq->vcq.cq_ex;
	x->start_poll = cqx_start_poll;
	x->next_poll = cqx_next_poll;
	x->end_poll = cqx_end_poll;
	x->read_opcode = cqx_read_opcode;
	x->read_vendor_err = cqx_read_vendor_err;
	x->read_byte_len = cqx_read_byte_len;
	x->read_imm_data = cqx_read_imm_data;
	x->read_qp_num = cqx_read_qp_num;
	x->read_src_qp = cqx_read_src_qp;
	x->read_wc_flags = cqx_read_wc_flags;
	x->read_slid = cqx_read_zero32;
	x->read_sl = cqx_read_zero8;
	x->read_dlid_path_bits = cqx_read_zero8;
	return x;
}
