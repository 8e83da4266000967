/* Completion-queue polling. */
#include <errno.h>
#include <stddef.h>

#include "rnic_spec.h"
#include "rnicp_cq.h"
#include "rnicp_db.h"

/* One aligned 32-bit store (the NIC may read the record at any time; no torn value), after
 * the entries were read (release: their slots must not look free earlier). */
static void dbrec_store(struct rnicp_cq *cq)
{
	uint32_t v;
	rnic_st_le32(&v, cq->ci);
	__atomic_store_n((uint32_t *)(void *)cq->dbrec, v, __ATOMIC_RELEASE);
}

int rnicp_cq_init(struct rnicp_cq *cq, void *buf, unsigned log_size, uint32_t cqn, void *dbrec)
{
	if (!buf || !dbrec || ((uintptr_t)dbrec & 3) || log_size > RNICP_CQ_MAX_LOG)
		return -EINVAL;
	cq->buf = buf;
	cq->dbrec = dbrec;
	cq->log_size = log_size;
	cq->ci = 0;
	cq->cqn = cqn;
	dbrec_store(cq);
	return 0;
}

int rnicp_cq_poll(struct rnicp_cq *cq, int max, struct rnicp_wc *wc)
{
	uint32_t mask = (1u << cq->log_size) - 1;
	int n = 0;

	while (n < max) {
		const uint8_t *e = cq->buf + (size_t)(cq->ci & mask) * RNIC_CQE_SIZE;
		/* First pass (ci < size) expects owner 1, the next 0, and so on. */
		uint32_t expect = ((cq->ci >> cq->log_size) & 1u) ^ 1u;
		struct rnicp_wc *w = &wc[n];

		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (rnic_cqe_get_owner(e) != expect)
			break;
		__atomic_thread_fence(__ATOMIC_ACQUIRE); /* the fields after the owner bit */
		w->wr_id = rnic_cqe_get_wr_id(e);
		w->status = rnic_cqe_get_status(e);
		w->opcode = rnic_cqe_get_opcode(e);
		w->vendor_err = rnic_cqe_get_vendor_err(e);
		w->byte_len = rnic_cqe_get_byte_len(e);
		w->imm_data = rnic_cqe_get_imm_data(e);
		w->qpn = rnic_cqe_get_qpn(e);
		w->src_qp = rnic_cqe_get_src_qp(e);
		w->flags = rnic_cqe_get_flags(e);
		w->wqe_index = (uint16_t)rnic_cqe_get_wqe_index(e);
		cq->ci++;
		n++;
	}
	if (n)
		dbrec_store(cq);
	return n;
}

uint32_t rnicp_cq_db_val(const struct rnicp_cq *cq)
{
	return rnicp_db_cq_val(cq->cqn, cq->ci);
}

int rnicp_wc_is_recv(const struct rnicp_wc *wc)
{
	return wc->opcode == RNIC_WC_OPCODE_RECV || wc->opcode == RNIC_WC_OPCODE_RECV_RDMA_WITH_IMM;
}
