/* post_send and post_recv: ibv work requests into the rings, then one doorbell per call. */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>

#include "rnic_spec.h"
#include "rnicp_verbs.h"

_Static_assert(IBV_WR_RDMA_WRITE == RNIC_WQE_OP_RDMA_WRITE &&
		       IBV_WR_RDMA_WRITE_WITH_IMM == RNIC_WQE_OP_RDMA_WRITE_WITH_IMM &&
		       IBV_WR_SEND == RNIC_WQE_OP_SEND && IBV_WR_SEND_WITH_IMM == RNIC_WQE_OP_SEND_WITH_IMM &&
		       IBV_WR_RDMA_READ == RNIC_WQE_OP_RDMA_READ &&
		       IBV_WR_ATOMIC_CMP_AND_SWP == RNIC_WQE_OP_ATOMIC_CMP_AND_SWP &&
		       IBV_WR_ATOMIC_FETCH_AND_ADD == RNIC_WQE_OP_ATOMIC_FETCH_AND_ADD,
	       "WQE opcodes are the ibv_wr_opcode values");

/* ibv_send_wr -> rnicp_send_wr (sges has room for RNICP_MAX_SGE). 0 or -EINVAL for what the
 * NIC does not do or the QP was not sized for; the ring checks the rest. */
static int to_rnicp_send(struct rnicp_context *ctx, const struct rnicp_qp *qp,
			 const struct ibv_send_wr *wr, struct rnicp_send_wr *o, struct rnicp_sge *sges)
{
	uint64_t total = 0;

	if ((unsigned)wr->opcode > IBV_WR_ATOMIC_FETCH_AND_ADD)
		return -EINVAL;	/* LOCAL_INV, BIND_MW, SEND_WITH_INV, TSO, ... */
	if (wr->send_flags & ~(unsigned)(IBV_SEND_FENCE | IBV_SEND_SIGNALED | IBV_SEND_SOLICITED |
					 IBV_SEND_INLINE))
		return -EINVAL;
	if (wr->num_sge < 0 || (uint32_t)wr->num_sge > qp->sq.max_sge || (wr->num_sge && !wr->sg_list))
		return -EINVAL;
	memset(o, 0, sizeof(*o));
	for (int i = 0; i < wr->num_sge; i++) {
		sges[i].addr = wr->sg_list[i].addr;
		sges[i].length = wr->sg_list[i].length;
		sges[i].lkey = wr->sg_list[i].lkey;
		total += wr->sg_list[i].length;
	}
	o->wr_id = wr->wr_id;
	o->opcode = wr->opcode;
	o->flags = (wr->send_flags & IBV_SEND_FENCE ? RNICP_WR_FENCE : 0) |
		   (wr->send_flags & IBV_SEND_SIGNALED || qp->sq_sig_all ? RNICP_WR_SIGNALED : 0) |
		   (wr->send_flags & IBV_SEND_SOLICITED ? RNICP_WR_SOLICITED : 0) |
		   (wr->send_flags & IBV_SEND_INLINE ? RNICP_WR_INLINE : 0);
	o->imm_data = wr->imm_data;
	o->sg_list = sges;
	o->num_sge = (uint32_t)wr->num_sge;
	switch (wr->opcode) {
	case IBV_WR_ATOMIC_CMP_AND_SWP:
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
		o->remote_addr = wr->wr.atomic.remote_addr;
		o->rkey = wr->wr.atomic.rkey;
		o->compare_add = wr->wr.atomic.compare_add;
		o->swap = wr->wr.atomic.swap;
		break;
	case IBV_WR_SEND:
	case IBV_WR_SEND_WITH_IMM:
		if (qp->qp_type == IBV_QPT_UD) {
			uint32_t mtu;

			if (!wr->wr.ud.ah)
				return -EINVAL;
			o->ahn = to_rah(wr->wr.ud.ah)->ahn;
			o->remote_qpn = wr->wr.ud.remote_qpn;
			/* IBTA: a Q_Key with the high bit set in a work request means "the QP's own". */
			o->remote_qkey = wr->wr.ud.remote_qkey & 0x80000000u ? qp->qkey : wr->wr.ud.remote_qkey;
			/* A datagram is one packet: at most the port's MTU. */
			pthread_mutex_lock(&ctx->port_lock);
			mtu = rnicp_mtu_bytes(ctx->pattr.active_mtu);
			pthread_mutex_unlock(&ctx->port_lock);
			if (total > mtu)
				return -EINVAL;
		}
		break;
	default:	/* RDMA WRITE (with immediate) and READ */
		o->remote_addr = wr->wr.rdma.remote_addr;
		o->rkey = wr->wr.rdma.rkey;
		break;
	}
	return 0;
}

int rnicp_post_one(struct rnicp_context *ctx, struct rnicp_qp *qp, const struct ibv_send_wr *wr, void *bf)
{
	struct rnicp_sge sges[RNICP_MAX_SGE];
	struct rnicp_send_wr w;
	int rc = to_rnicp_send(ctx, qp, wr, &w, sges);

	if (rc)
		return rc;
	pthread_mutex_lock(&qp->ci_lock);
	rc = rnicp_sq_post(&qp->sq, &w, bf);
	pthread_mutex_unlock(&qp->ci_lock);
	return rc;
}

void rnicp_sq_doorbell(struct rnicp_context *ctx, struct rnicp_qp *qp, int lone_on_idle, const void *bf,
		       int nbb)
{
	/* BlueFlame pays off for a lone WQE on an idle QP: the device sends it without reading
	 * the ring. Otherwise it would read the ring anyway and the copy only costs writes. */
	if (!lone_on_idle || rnicp_bf_post(&ctx->db, bf, (unsigned)nbb * RNICP_WQEBB, qp->qpn, qp->sq.pi))
		rnicp_ring_sq(&ctx->db, qp->qpn, qp->sq.pi);
}

int rnicp_post_send(struct ibv_qp *ibqp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr)
{
	struct rnicp_qp *qp = to_rqp(ibqp);
	struct rnicp_context *ctx = to_rctx(ibqp->context);
	uint8_t bf[RNICP_MAX_WQE_BYTES];
	int rc = 0, posted = 0, nbb = 0, idle;
	int lone = wr && !wr->next;

	pthread_mutex_lock(&qp->sq_lock);
	pthread_mutex_lock(&qp->ci_lock);
	idle = qp->sq.pi == qp->sq.ci;
	pthread_mutex_unlock(&qp->ci_lock);
	/* IBTA: posting to the send queue before RTS is an immediate error. */
	if (qp->state < RNIC_QP_STATE_RTS)
		rc = EINVAL;
	for (; wr && !rc; wr = wr->next) {
		nbb = rnicp_post_one(ctx, qp, wr, lone ? bf : NULL);
		if (nbb < 0) {
			rc = -nbb;
			break;
		}
		posted++;
	}
	if (posted)
		rnicp_sq_doorbell(ctx, qp, lone && idle, bf, nbb);
	pthread_mutex_unlock(&qp->sq_lock);
	if (rc)
		*bad_wr = wr;
	return rc;
}

int rnicp_post_recv(struct ibv_qp *ibqp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)
{
	struct rnicp_qp *qp = to_rqp(ibqp);
	struct rnicp_context *ctx = to_rctx(ibqp->context);
	struct rnicp_sge sges[RNICP_MAX_SGE];
	struct rnicp_recv_wr w;
	int rc = 0, posted = 0;

	pthread_mutex_lock(&qp->rq_lock);
	/* Receives may be posted from INIT on, never in RESET. */
	if (qp->state == RNIC_QP_STATE_RESET)
		rc = EINVAL;
	for (; wr && !rc; wr = wr->next) {
		if (wr->num_sge < 0 || (uint32_t)wr->num_sge > qp->cap.max_recv_sge ||
		    (wr->num_sge && !wr->sg_list)) {
			rc = EINVAL;
			break;
		}
		for (int i = 0; i < wr->num_sge; i++) {
			sges[i].addr = wr->sg_list[i].addr;
			sges[i].length = wr->sg_list[i].length;
			sges[i].lkey = wr->sg_list[i].lkey;
		}
		w.wr_id = wr->wr_id;
		w.sg_list = sges;
		w.num_sge = (uint32_t)wr->num_sge;
		rc = -rnicp_rq_post(&qp->rq, &w);
		if (rc)
			break;
		posted++;
	}
	if (posted)
		rnicp_ring_rq(&ctx->db, qp->qpn, qp->rq.pi);
	pthread_mutex_unlock(&qp->rq_lock);
	if (rc)
		*bad_wr = wr;
	return rc;
}
