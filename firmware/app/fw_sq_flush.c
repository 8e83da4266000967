/* Send queues, errors and flushes: the move to ERR, WR_FLUSH_ERR completions in order, a WQE
 * whose fetch failed, a QP's send state forgotten (RESET, DESTROY). */
#include "fw_log.h"
#include "fw_sq_desc.h"
#include "fw_sq_flush.h"
#include "fw_sq_priv.h"
#include "fw_sq_rec.h"
#include "fw_sq_srt.h"
#include "fw_sq_stage.h"

/* WQEs the host posted that were never sent complete with WR_FLUSH_ERR, in order. */
void flush_unsent(uint32_t qpn)
{
	uint8_t *c = ctx(qpn);
	FW_LAYOUT_ALIGN uint8_t w[WQEBB];

	while (rnic_qp_ctx_get_sq_next(c) != rnic_qp_ctx_get_sq_pi(c)) {
		uint32_t idx = rnic_qp_ctx_get_sq_next(c);
		stage_empty();
		int32_t b = sq_stage(c, idx);
		if (b < 0)
			return;
		stage_read(b, w);
		if (st_bf && !stage_bf_held(c)) {
			stage_bf_drop();
			continue;
		}
		if (fw_res.qp_run[qpn].sq_skip) {
			if (rnic_wqe_ctrl_get_wqe_index(w) != (idx & 0xFFFFu)) {
				/* not a WQE's first WQEBB: the rest of the one whose fetch failed */
				rnic_qp_ctx_set_sq_next(c, (uint16_t)(idx + 1));
				rnic_qp_ctx_set_sq_ci(c, rnic_qp_ctx_get_sq_next(c));
				continue;
			}
			fw_res.qp_run[qpn].sq_skip = 0;
		}
		struct fw_swqe f = { 0 };
		f.wr_id = rnic_wqe_ctrl_get_wr_id(w);
		f.wqe_index = (uint16_t)idx;
		f.opcode = (uint8_t)rnic_wqe_ctrl_get_opcode(w);
		sq_complete(qpn, &f, RNIC_WC_STATUS_WR_FLUSH_ERR);
		uint32_t nbb = (RNIC_WQE_CTRL_SIZE + 16u * rnic_wqe_ctrl_get_num_ds(w) + WQEBB - 1) / WQEBB;
		rnic_qp_ctx_set_sq_next(c, (uint16_t)(idx + (nbb ? nbb : 1)));
		rnic_qp_ctx_set_sq_ci(c, rnic_qp_ctx_get_sq_next(c));
	}
}


void fw_sq_release(uint32_t qpn)
{
	struct fw_qp_run *r = &fw_res.qp_run[qpn];

	while (r->head >= 0) {
		int16_t i = r->head;
		r->head = fw_res.swqe[i].next;
		swqe_put(qpn, i);
	}
	r->tail = -1;
	if (fw_srt_ok)
		srt_qp_stop(qpn); /* the engine's records go too, without completions */
	r->deadline = 0;
	r->rnr_wait = 0;
	r->rq_posted = 0;
	r->sq_stalled = 0;
	r->rq_stalled = 0;
	r->sq_skip = 0;
	r->part1 = 0;
	r->hi_ok = 0;
	pc_ok = 0;
	if (sq_cont == qpn)
		sq_cont = 0; /* a new QP of this number starts with nothing staged */
}

/* The first half of the move to ERR: no more traffic, the sent WQEs flushed. A move the NIC
 * makes itself (status: the error's wc_status, not SUCCESS) tells the host with one QP_FATAL
 * event (subtype status, data side); the host's own MODIFY_QP to ERR (SUCCESS) does not. */
static void qp_enter_err(uint32_t qpn, uint32_t status, uint32_t side)
{
	fw_res.qp_run[qpn].deadline = 0;
	if (fw_res.qp_run[qpn].part1) {
		/* a WQE sent in part has its record (flushed below): the unsent flush skips it */
		rnic_qp_ctx_set_sq_next(ctx(qpn), (uint16_t)(rnic_qp_ctx_get_sq_next(ctx(qpn)) + fw_res.qp_run[qpn].part_nbb));
		fw_res.qp_run[qpn].part1 = 0;
	}
	if (rnic_qp_ctx_get_state(ctx(qpn)) != RNIC_QP_STATE_ERR) {
		rnic_qp_ctx_set_state(ctx(qpn), RNIC_QP_STATE_ERR);
		if (fw_qpt_program(qpn)) /* no more traffic, and the receive slot is emptied */
			fw_log("qp %u: QP table did not take the ERR entry", (unsigned)qpn);
		if (status != RNIC_WC_STATUS_SUCCESS)
			fw_eq_post(RNIC_EQ_TYPE_QP_FATAL, status, qpn, side);
	}
	if (srt_ctx(ctx(qpn)))
		srt_flush(qpn);
	while (fw_res.qp_run[qpn].head >= 0)
		retire_head(qpn, RNIC_WC_STATUS_WR_FLUSH_ERR);
}

void fw_qp_fatal(uint32_t qpn, uint32_t status, uint32_t side)
{
	qp_enter_err(qpn, status, side);
	flush_unsent(qpn);
	fw_rq_flush(qpn);
}

void fw_qp_to_err(uint32_t qpn) { fw_qp_fatal(qpn, RNIC_WC_STATUS_SUCCESS, 0); }

/* The WQE at idx could not be fetched (the bus answered the read with an error): it completes
 * with LOC_QP_OP_ERR after the older outstanding WQEs (flushed) and the QP goes to ERR (IBTA:
 * a local error while processing a WR completes it in error and moves the QP to ERR). Its wr_id, opcode and size are in the WQE we
 * could not read: the CQE carries wr_id 0, opcode SEND and the WQE's index (wqe_index), and the
 * WQEBBs after the first one are skipped by the flush (no WQE starts there). */
__attribute__((noinline)) uint32_t sq_fetch_failed(uint32_t qpn, uint32_t idx)
{
	uint8_t *c = ctx(qpn);
	struct fw_swqe f = { 0 };

	fw_log("qp %u: SQ WQE %u fetch failed", (unsigned)qpn, (unsigned)idx);
	stage_empty();
	qp_enter_err(qpn, RNIC_WC_STATUS_LOC_QP_OP_ERR, RNIC_EQ_QP_SIDE_REQUESTER);
	if (srt_ctx(c) && (uint16_t)(rnic_qp_ctx_get_sq_next(c) - idx - 1u) < 0x8000u) {
		/* a resend's fetch: the engine held that WQE's record and flushed it (srt_flush moved
		 * sq_next past it), so it has its completion; the rest as any move to ERR */
		flush_unsent(qpn);
		fw_rq_flush(qpn);
		return 0;
	}
	f.wqe_index = (uint16_t)idx;
	f.opcode = RNIC_WQE_OP_SEND;
	sq_complete(qpn, &f, RNIC_WC_STATUS_LOC_QP_OP_ERR);
	rnic_qp_ctx_set_sq_next(c, (uint16_t)(idx + 1));
	rnic_qp_ctx_set_sq_ci(c, rnic_qp_ctx_get_sq_next(c));
	fw_res.qp_run[qpn].sq_skip = 1;
	flush_unsent(qpn); /* the unsent WQEs after it */
	fw_rq_flush(qpn);
	return 0;
}
