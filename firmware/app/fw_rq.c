/* Receive queues: up to hw_caps[7:4] receive buffers at a time are with the receive engine; each
 * completion event becomes the receive CQE and the next RQ WQE is fetched and handed over. */
#include "fw_dma.h"
#include "fw_log.h"
#include "fw_mbox.h"
#include "fw_res.h"
#include "fw_xport.h"
#include "hal.h"

#define BUF_RQE 0xA00u       /* staging-buffer area for RQ WQEs ... */
#define BUF_RQE_BYTES 512u   /* ... fetched by one DMA: consecutive ones, up to this much */
/* The most of a WQE that is fetched: a longer stride could only hold SGEs beyond the limit. */
#define RQE_MAX_BYTES (RNIC_RQ_WQE_SIZE + RNIC_MAX_SGE * RNIC_WQE_SGE_SIZE)

static uint8_t *ctx(uint32_t qpn) { return fw_res.qp_ctx[qpn]; }

static void recv_cqe(uint32_t qpn, uint64_t wr_id, uint32_t status, uint32_t opcode, uint32_t len,
		     uint32_t imm, uint32_t flags, uint32_t src_qp)
{
	FW_LAYOUT_ALIGN uint8_t cqe[RNIC_CQE_SIZE] = { 0 };
	uint8_t *c = ctx(qpn);

	rnic_cqe_set_wr_id(cqe, wr_id);
	rnic_cqe_set_byte_len(cqe, len);
	rnic_cqe_set_imm_data(cqe, imm);
	rnic_cqe_set_qpn(cqe, qpn);
	rnic_cqe_set_src_qp(cqe, src_qp);
	rnic_cqe_set_status(cqe, status);
	rnic_cqe_set_opcode(cqe, opcode);
	rnic_cqe_set_flags(cqe, flags);
	rnic_cqe_set_wqe_index(cqe, rnic_qp_ctx_get_rq_ci(c));
	fw_cqe_write(rnic_qp_ctx_get_recv_cqn(c), cqe);
	rnic_qp_ctx_set_rq_ci(c, (uint16_t)(rnic_qp_ctx_get_rq_ci(c) + 1));
}

/* Host address of the RQ WQE k places after the consumer index. */
static uint64_t rqe_addr(const uint8_t *c, uint32_t k)
{
	uint32_t idx = (rnic_qp_ctx_get_rq_ci(c) + k) & ((1u << rnic_qp_ctx_get_rq_log_size(c)) - 1);
	return rnic_qp_ctx_get_buf_addr(c) + rnic_qp_ctx_get_rq_offset(c) +
	       ((uint64_t)idx << rnic_qp_ctx_get_rq_log_stride(c));
}

void fw_rq_flush(uint32_t qpn)
{
	uint8_t *c = ctx(qpn);
	uint8_t w[RNIC_RQ_WQE_SIZE];

	/* The slot's buffer was emptied by the QP-table write that moved the QP to ERR, so every
	 * WQE from rq_ci on is the host's again and completes flushed. */
	fw_res.qp_run[qpn].rq_posted = 0;
	while (rnic_qp_ctx_get_rq_ci(c) != rnic_qp_ctx_get_rq_pi(c)) {
		if (fw_dma_xfer(rqe_addr(c, 0), BUF_RQE, RNIC_RQ_WQE_SIZE, FW_DMA_TO_BUF))
			return;
		fw_buf_read(BUF_RQE, w, RNIC_RQ_WQE_SIZE);
		recv_cqe(qpn, rnic_rq_wqe_get_wr_id(w), RNIC_WC_STATUS_WR_FLUSH_ERR, RNIC_WC_OPCODE_RECV, 0, 0, 0, 0);
	}
}

/* The RQ WQE after those with the engine could not be fetched (bus error): the QP goes to ERR
 * (IBTA: a local error while processing a WR). When it is the oldest, it completes with
 * LOC_QP_OP_ERR (wr_id 0: the wr_id is in the WQE we could not read); otherwise the buffers
 * ahead of it are flushed first and it is flushed after them (fw_rq_flush, when it can be read). */
static __attribute__((noinline)) void rq_fetch_failed(uint32_t qpn)
{
	fw_log("qp %u: RQ WQE fetch failed", (unsigned)qpn);
	if (fw_res.qp_run[qpn].rq_posted == 0)
		recv_cqe(qpn, 0, RNIC_WC_STATUS_LOC_QP_OP_ERR, RNIC_WC_OPCODE_RECV, 0, 0, 0, 0);
	fw_qp_fatal(qpn, RNIC_WC_STATUS_LOC_QP_OP_ERR, RNIC_EQ_QP_SIDE_RESPONDER);
}

/* Hands posted RQ WQEs to the receive engine while it has free buffer slots (hw_caps[7:4] per
 * QP); the engine fills them in the order given, so completions stay in RQ order. */
void fw_rq_service(uint32_t qpn)
{
	uint8_t *c = ctx(qpn);
	struct fw_qp_run *run = &fw_res.qp_run[qpn];
	/* d is not zeroed as a whole (a memset of 80 bytes on every call, also the many with
	 * nothing to hand over): every word the mailbox takes is written below */
	FW_LAYOUT_ALIGN uint8_t w[RQE_MAX_BYTES], d[RNIC_RQ_DESC_SIZE];
	uint32_t slots = (fw_hw_caps >> 4) & 0xFu;

	if (rnic_qp_ctx_get_state(c) == RNIC_QP_STATE_ERR) {
		fw_rq_flush(qpn);
		return;
	}
	if (!(fw_hw_caps & 1u))
		return; /* no receive engine attached: the buffers wait */
	if (slots == 0)
		slots = 1;
	run->rq_stalled = 0;
	uint32_t stride = 1u << rnic_qp_ctx_get_rq_log_stride(c);
	uint32_t bytes = stride > sizeof(w) ? sizeof(w) : stride;
	uint32_t staged = 0, next = 0; /* WQEs fetched by the last DMA, and the next one to use */
	while (run->rq_posted < slots &&
	       (uint16_t)(rnic_qp_ctx_get_rq_ci(c) + run->rq_posted) != rnic_qp_ctx_get_rq_pi(c)) {
		if (next == staged) {
			/* One DMA for the WQEs this pass can hand over: as many as there are free
			 * slots and posted WQEs, up to the ring end and the staging area. */
			uint32_t size = 1u << rnic_qp_ctx_get_rq_log_size(c);
			uint32_t idx = (rnic_qp_ctx_get_rq_ci(c) + run->rq_posted) & (size - 1);
			uint32_t n = (uint16_t)(rnic_qp_ctx_get_rq_pi(c) - rnic_qp_ctx_get_rq_ci(c) - run->rq_posted);
			uint32_t lim = stride <= BUF_RQE_BYTES ? BUF_RQE_BYTES / stride : 1;
			if (n > slots - run->rq_posted)
				n = slots - run->rq_posted;
			if (n > size - idx)
				n = size - idx;
			if (n > lim)
				n = lim;
			if (n == 0)
				n = 1;
			uint32_t len = n == 1 ? bytes : n * stride;
			if (fw_dma_xfer(rqe_addr(c, run->rq_posted), BUF_RQE, len, FW_DMA_TO_BUF)) {
				rq_fetch_failed(qpn);
				return;
			}
			staged = n;
			next = 0;
		}
		fw_buf_read(BUF_RQE + next * stride, w, bytes);
		next++;
		uint32_t n = rnic_rq_wqe_get_num_sge(w);
		/* num_sge 0 is a legal buffer of 0 bytes (IBTA): it takes a WRITE_IMM or a zero-length
		 * SEND, so it goes to the engine like any other (completing it LOC_LEN_ERR here left
		 * the ring empty and a WRITE_IMM RNR-NAKed until the requester gave up). */
		if (n > RNIC_MAX_SGE || RNIC_RQ_WQE_SIZE + n * RNIC_WQE_SGE_SIZE > bytes) {
			/* More SGEs than the rq_desc holds (or than the stride has room for). Completed
			 * in order: only once the buffers ahead of it are done. */
			if (run->rq_posted)
				return;
			recv_cqe(qpn, rnic_rq_wqe_get_wr_id(w), RNIC_WC_STATUS_LOC_LEN_ERR, RNIC_WC_OPCODE_RECV, 0, 0, 0, 0);
			continue;
		}
		rnic_rq_desc_set_qpn(d, qpn);
		rnic_st_le32(d + RNIC_RQ_DESC_NUM_SGE_OFF, 0); /* num_sge's word, reserved bytes included */
		rnic_rq_desc_set_num_sge(d, n);
		rnic_rq_desc_set_wr_id(d, rnic_rq_wqe_get_wr_id(w));
		for (uint32_t i = 0; i < n; i++) {
			const uint8_t *s = w + RNIC_RQ_WQE_SIZE + i * RNIC_WQE_SGE_SIZE;
			uint8_t *o = d + RNIC_RQ_DESC_SGE0_ADDR_OFF + 16 * i;
			rnic_st_le(o, 8, rnic_wqe_sge_get_addr(s));
			rnic_st_le(o + 8, 4, rnic_wqe_sge_get_length(s));
			rnic_st_le(o + 12, 4, rnic_wqe_sge_get_lkey(s));
		}
		if (hal_rd32(RNIC_FW_REG_RQD_STATUS) & 1u) { /* busy: retried after the events are taken */
			run->rq_stalled = 1;
			fw_stalled_any = 1;
			return;
		}
		/* the engine ignores SGEs beyond num_sge: their words are not written */
		if (fw_mbox_send(RNIC_FW_REG_RQD_DATA, RNIC_FW_REG_RQD_COMMIT, RNIC_FW_REG_RQD_STATUS, d,
				 (RNIC_RQ_DESC_SGE0_ADDR_OFF + 16 * n) / 4, qpn)) {
			fw_log("qp %u: receive engine not taking buffers", (unsigned)qpn);
			return;
		}
		run->rq_posted++;
	}
}

/* RECV_DONE / WRITE_IMM_DONE: the posted buffer was consumed. */
void fw_rq_done(const uint8_t *ev)
{
	uint32_t qpn = rnic_rx_event_get_qpn(ev);
	uint32_t kind = rnic_rx_event_get_kind(ev);

	if (rnic_qp_ctx_get_state(ctx(qpn)) == RNIC_QP_STATE_ERR)
		return; /* consumed just before the move to ERR: its WQE was flushed already */
	if (fw_res.qp_run[qpn].rq_posted)
		fw_res.qp_run[qpn].rq_posted--;
	recv_cqe(qpn, rnic_rx_event_get_wr_id(ev), rnic_rx_event_get_status(ev),
		 kind == RNIC_RX_EVENT_KIND_WRITE_IMM_DONE ? RNIC_WC_OPCODE_RECV_RDMA_WITH_IMM : RNIC_WC_OPCODE_RECV,
		 rnic_rx_event_get_byte_len(ev), rnic_rx_event_get_imm_data(ev), rnic_rx_event_get_flags(ev),
		 rnic_rx_event_get_src_qpn(ev));
	fw_rq_service(qpn);
}

/* RESP_ERROR: the receive engine NAK-ed a request of qpn (invalid request, access or operational
 * error, or a SEND its buffer could not take) and stopped the QP. The responder's QP goes to ERR
 * as well (IBTA); a buffer the failing SEND consumed (LOC_LEN_ERR, LOC_PROT_ERR: placement
 * errors only SENDs have) completes with that status, the rest are flushed. */
void fw_rq_resp_error(const uint8_t *ev)
{
	uint32_t qpn = rnic_rx_event_get_qpn(ev), st = rnic_rx_event_get_status(ev);
	uint8_t *c = ctx(qpn);

	if (rnic_qp_ctx_get_state(c) == RNIC_QP_STATE_ERR)
		return;
	if ((st == RNIC_WC_STATUS_LOC_LEN_ERR || st == RNIC_WC_STATUS_LOC_PROT_ERR) && fw_res.qp_run[qpn].rq_posted &&
	    rnic_qp_ctx_get_rq_ci(c) != rnic_qp_ctx_get_rq_pi(c)) {
		fw_res.qp_run[qpn].rq_posted = 0;
		recv_cqe(qpn, rnic_rx_event_get_wr_id(ev), st, RNIC_WC_OPCODE_RECV, rnic_rx_event_get_byte_len(ev), 0, 0,
			 0);
	}
	fw_qp_fatal(qpn, st, RNIC_EQ_QP_SIDE_RESPONDER);
}
