/* Send and receive WQE formatting. Layouts come from rnic_spec.h accessors only. */
#include <errno.h>
#include <string.h>

#include "rnicp_wqe.h"

#define MAX_MSG_LEN 0x80000000ull /* 2^31: the IBTA message size limit */

static uint32_t round16(uint64_t n)
{
	return (uint32_t)((n + 15u) & ~(uint64_t)15u);
}

int rnicp_sq_init(struct rnicp_sq *sq, void *buf, unsigned log_size, uint32_t qpn, uint32_t qp_type,
		  uint32_t max_sge, uint32_t max_inline)
{
	memset(sq, 0, sizeof(*sq));
	if (!buf || log_size > RNICP_SQ_MAX_LOG || max_sge > RNICP_MAX_SGE || max_inline > RNICP_MAX_INLINE)
		return -EINVAL;
	if (qp_type != RNIC_QP_TYPE_RC && qp_type != RNIC_QP_TYPE_UC && qp_type != RNIC_QP_TYPE_UD)
		return -EINVAL;
	sq->buf = buf;
	sq->log_size = log_size;
	sq->qpn = qpn;
	sq->qp_type = qp_type;
	sq->max_sge = max_sge;
	sq->max_inline = max_inline;
	return 0;
}

/* Bytes of the address segment the opcode needs on this QP type, or -EINVAL. */
static int addr_seg_bytes(const struct rnicp_sq *sq, uint32_t opcode)
{
	int ud = sq->qp_type == RNIC_QP_TYPE_UD;

	switch (opcode) {
	case RNIC_WQE_OP_SEND:
	case RNIC_WQE_OP_SEND_WITH_IMM:
		return ud ? (int)RNIC_WQE_UD_SIZE : 0;
	case RNIC_WQE_OP_RDMA_WRITE:
	case RNIC_WQE_OP_RDMA_WRITE_WITH_IMM:
		return ud ? -EINVAL : (int)RNIC_WQE_RADDR_SIZE;
	case RNIC_WQE_OP_RDMA_READ:
	case RNIC_WQE_OP_ATOMIC_CMP_AND_SWP:
	case RNIC_WQE_OP_ATOMIC_FETCH_AND_ADD:
		/* UC has neither reads nor atomics; UD has no RDMA at all. */
		if (sq->qp_type != RNIC_QP_TYPE_RC)
			return -EINVAL;
		return opcode == RNIC_WQE_OP_RDMA_READ ? (int)RNIC_WQE_RADDR_SIZE : (int)RNIC_WQE_ATOMIC_SIZE;
	default:
		return -EINVAL;
	}
}

static int is_atomic(uint32_t opcode)
{
	return opcode == RNIC_WQE_OP_ATOMIC_CMP_AND_SWP || opcode == RNIC_WQE_OP_ATOMIC_FETCH_AND_ADD;
}

/* Checks wr; on success gives the WQE bytes before padding and the message length. */
static int wqe_check(const struct rnicp_sq *sq, const struct rnicp_send_wr *wr, uint32_t *bytes,
		     uint32_t *total)
{
	int inl = (wr->flags & RNICP_WR_INLINE) != 0;
	int seg = addr_seg_bytes(sq, wr->opcode);
	uint64_t sum = 0, b;

	if (seg < 0)
		return -EINVAL;
	if (wr->flags & ~(RNICP_WR_SIGNALED | RNICP_WR_FENCE | RNICP_WR_SOLICITED | RNICP_WR_INLINE))
		return -EINVAL;
	if (wr->num_sge > sq->max_sge || (wr->num_sge && !wr->sg_list))
		return -EINVAL;
	for (uint32_t i = 0; i < wr->num_sge; i++)
		sum += wr->sg_list[i].length;
	if (sum > MAX_MSG_LEN)
		return -EINVAL;
	if (is_atomic(wr->opcode) &&
	    (wr->num_sge != 1 || wr->sg_list[0].length != 8 || (wr->remote_addr & 7u) || inl))
		return -EINVAL;
	if (inl) {
		if (wr->opcode == RNIC_WQE_OP_RDMA_READ || sum > sq->max_inline)
			return -EINVAL;
		for (uint32_t i = 0; i < wr->num_sge; i++)
			if (wr->sg_list[i].length && !wr->sg_list[i].addr)
				return -EINVAL;
		b = RNIC_WQE_CTRL_SIZE + (uint64_t)seg + round16(sum);
	} else {
		b = RNIC_WQE_CTRL_SIZE + (uint64_t)seg + (uint64_t)RNIC_WQE_SGE_SIZE * wr->num_sge;
	}
	if (b > RNICP_MAX_WQE_BYTES)
		return -EINVAL;
	*bytes = (uint32_t)b;
	*total = (uint32_t)sum;
	return 0;
}

int rnicp_wqe_size(const struct rnicp_sq *sq, const struct rnicp_send_wr *wr)
{
	uint32_t bytes, total;
	int rc = wqe_check(sq, wr, &bytes, &total);

	return rc ? rc : (int)((bytes + RNICP_WQEBB - 1) / RNICP_WQEBB);
}

static int has_imm(uint32_t opcode)
{
	return opcode == RNIC_WQE_OP_RDMA_WRITE_WITH_IMM || opcode == RNIC_WQE_OP_SEND_WITH_IMM;
}

int rnicp_wqe_format(const struct rnicp_sq *sq, const struct rnicp_send_wr *wr, uint16_t wqe_index,
		     void *out)
{
	uint8_t *w = out, *p;
	uint32_t bytes, total, padded;
	int inl = (wr->flags & RNICP_WR_INLINE) != 0;
	int rc = wqe_check(sq, wr, &bytes, &total);

	if (rc)
		return rc;
	padded = (bytes + RNICP_WQEBB - 1) / RNICP_WQEBB * RNICP_WQEBB;
	memset(w, 0, padded);
	rnic_wqe_ctrl_set_wr_id(w, wr->wr_id);
	rnic_wqe_ctrl_set_opcode(w, wr->opcode);
	rnic_wqe_ctrl_set_flags(w, wr->flags);
	rnic_wqe_ctrl_set_wqe_index(w, wqe_index);
	rnic_wqe_ctrl_set_imm_data(w, has_imm(wr->opcode) ? wr->imm_data : 0);
	rnic_wqe_ctrl_set_num_ds(w, (bytes - RNIC_WQE_CTRL_SIZE) / 16u);
	rnic_wqe_ctrl_set_num_sge(w, inl ? 0 : wr->num_sge);
	rnic_wqe_ctrl_set_inline_len(w, inl ? total : 0);
	rnic_wqe_ctrl_set_qpn(w, sq->qpn);
	rnic_wqe_ctrl_set_total_len(w, total);
	p = w + RNIC_WQE_CTRL_SIZE;

	switch (wr->opcode) {
	case RNIC_WQE_OP_RDMA_WRITE:
	case RNIC_WQE_OP_RDMA_WRITE_WITH_IMM:
	case RNIC_WQE_OP_RDMA_READ:
		rnic_wqe_raddr_set_remote_addr(p, wr->remote_addr);
		rnic_wqe_raddr_set_rkey(p, wr->rkey);
		p += RNIC_WQE_RADDR_SIZE;
		break;
	case RNIC_WQE_OP_ATOMIC_CMP_AND_SWP:
	case RNIC_WQE_OP_ATOMIC_FETCH_AND_ADD:
		rnic_wqe_atomic_set_remote_addr(p, wr->remote_addr);
		rnic_wqe_atomic_set_rkey(p, wr->rkey);
		if (wr->opcode == RNIC_WQE_OP_ATOMIC_CMP_AND_SWP) {
			rnic_wqe_atomic_set_swap_add(p, wr->swap);
			rnic_wqe_atomic_set_compare(p, wr->compare_add);
		} else {
			rnic_wqe_atomic_set_swap_add(p, wr->compare_add);
		}
		p += RNIC_WQE_ATOMIC_SIZE;
		break;
	default: /* SEND, SEND_WITH_IMM */
		if (sq->qp_type == RNIC_QP_TYPE_UD) {
			rnic_wqe_ud_set_ahn(p, wr->ahn);
			rnic_wqe_ud_set_remote_qpn(p, wr->remote_qpn);
			rnic_wqe_ud_set_remote_qkey(p, wr->remote_qkey);
			p += RNIC_WQE_UD_SIZE;
		}
		break;
	}

	if (inl) {
		for (uint32_t i = 0; i < wr->num_sge; i++) {
			const struct rnicp_sge *s = &wr->sg_list[i];

			if (s->length)
				memcpy(p, (const void *)(uintptr_t)s->addr, s->length);
			p += s->length;
		}
	} else {
		for (uint32_t i = 0; i < wr->num_sge; i++, p += RNIC_WQE_SGE_SIZE) {
			rnic_wqe_sge_set_addr(p, wr->sg_list[i].addr);
			rnic_wqe_sge_set_length(p, wr->sg_list[i].length);
			rnic_wqe_sge_set_lkey(p, wr->sg_list[i].lkey);
		}
	}
	return (int)padded;
}

uint32_t rnicp_sq_room(const struct rnicp_sq *sq)
{
	return (1u << sq->log_size) - (sq->pi - sq->ci);
}

int rnicp_sq_post(struct rnicp_sq *sq, const struct rnicp_send_wr *wr, void *bf_copy)
{
	uint8_t wqe[RNICP_MAX_WQE_BYTES];
	uint32_t mask = (1u << sq->log_size) - 1, nbb;
	int n = rnicp_wqe_format(sq, wr, (uint16_t)sq->pi, wqe);

	if (n < 0)
		return n;
	nbb = (uint32_t)n / RNICP_WQEBB;
	if (nbb > rnicp_sq_room(sq))
		return -ENOMEM;
	for (uint32_t k = 0; k < nbb; k++)
		memcpy(sq->buf + (size_t)((sq->pi + k) & mask) * RNICP_WQEBB, wqe + k * RNICP_WQEBB,
		       RNICP_WQEBB);
	if (bf_copy)
		memcpy(bf_copy, wqe, (size_t)n);
	sq->pi += nbb;
	return (int)nbb;
}

int rnicp_sq_complete(struct rnicp_sq *sq, uint16_t wqe_index)
{
	uint32_t idx = sq->ci + (uint16_t)(wqe_index - (uint16_t)sq->ci);
	uint32_t mask = (1u << sq->log_size) - 1, nbb;
	const uint8_t *ctrl;

	if (idx - sq->ci >= sq->pi - sq->ci)
		return -EINVAL;
	ctrl = sq->buf + (size_t)(idx & mask) * RNICP_WQEBB;
	if (rnic_wqe_ctrl_get_wqe_index(ctrl) != wqe_index)
		return -EINVAL;
	nbb = (RNIC_WQE_CTRL_SIZE + 16u * rnic_wqe_ctrl_get_num_ds(ctrl) + RNICP_WQEBB - 1) / RNICP_WQEBB;
	if (idx + nbb - sq->ci > sq->pi - sq->ci)
		return -EINVAL;
	sq->ci = idx + nbb;
	return 0;
}

unsigned rnicp_rq_log_stride(uint32_t max_sge)
{
	uint64_t bytes = RNIC_RQ_WQE_SIZE + (uint64_t)RNIC_WQE_SGE_SIZE * max_sge;
	unsigned lg = 5;

	while ((1ull << lg) < bytes)
		lg++;
	return lg;
}

int rnicp_rq_init(struct rnicp_rq *rq, void *buf, unsigned log_size, unsigned log_stride, uint32_t qpn)
{
	memset(rq, 0, sizeof(*rq));
	if (!buf || log_size > RNICP_RQ_MAX_LOG || log_stride < 5 || log_stride > 12)
		return -EINVAL;
	rq->buf = buf;
	rq->log_size = log_size;
	rq->log_stride = log_stride;
	rq->qpn = qpn;
	rq->max_sge = ((1u << log_stride) - RNIC_RQ_WQE_SIZE) / RNIC_WQE_SGE_SIZE;
	return 0;
}

int rnicp_rq_post(struct rnicp_rq *rq, const struct rnicp_recv_wr *wr)
{
	uint32_t stride = 1u << rq->log_stride;
	uint8_t *e, *p;

	if (wr->num_sge > rq->max_sge || (wr->num_sge && !wr->sg_list))
		return -EINVAL;
	if (rq->pi - rq->ci >= (1u << rq->log_size))
		return -ENOMEM;
	e = rq->buf + (size_t)(rq->pi & ((1u << rq->log_size) - 1)) * stride;
	memset(e, 0, stride);
	rnic_rq_wqe_set_wr_id(e, wr->wr_id);
	rnic_rq_wqe_set_num_sge(e, wr->num_sge);
	p = e + RNIC_RQ_WQE_SIZE;
	for (uint32_t i = 0; i < wr->num_sge; i++, p += RNIC_WQE_SGE_SIZE) {
		rnic_wqe_sge_set_addr(p, wr->sg_list[i].addr);
		rnic_wqe_sge_set_length(p, wr->sg_list[i].length);
		rnic_wqe_sge_set_lkey(p, wr->sg_list[i].lkey);
	}
	rq->pi++;
	return 0;
}

int rnicp_rq_complete(struct rnicp_rq *rq, uint16_t wqe_index)
{
	if (rq->pi == rq->ci || (uint16_t)rq->ci != wqe_index)
		return -EINVAL;
	rq->ci++;
	return 0;
}
