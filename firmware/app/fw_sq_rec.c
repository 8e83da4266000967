/* Send queues, send records: one struct fw_swqe per WQE handed to the transmit engine, kept in
 * order per QP until acknowledged, and the READ/atomic response contexts they hold. */
#include "fw_sq_desc.h"
#include "fw_sq_priv.h"
#include "fw_sq_rec.h"
#include "fw_sq_srt.h"
#include "fw_sq_timer.h"
#include "fw_wqf.h"

uint32_t fw_hw_caps;

/* READs and atomics with a context in the receive engine (hw_caps.read_ctx of them, shared by all
 * QPs), and whether a QP had to hold one back for want of a context. */
static uint32_t rd_out;
uint32_t rd_waiting;

uint32_t fw_sq_rd_outstanding(void) { return rd_out; }

int16_t swqe_get(void)
{
	int16_t i = fw_res.swqe_free;
	if (i >= 0) {
		fw_res.swqe_free = fw_res.swqe[i].next;
		fw_res.swqe[i].opcode = 0xFF; /* not counted until it is sent */
		fw_res.swqe[i].resp = 0;
	}
	return i;
}

/* Frees record i of qpn (a READ or atomic that went out frees its response context too). */
void swqe_put(uint32_t qpn, int16_t i)
{
	if (is_rd_atomic(fw_res.swqe[i].opcode)) {
		if (rd_out)
			rd_out--;
		if (fw_res.qp_run[qpn].rd_n)
			fw_res.qp_run[qpn].rd_n--;
	}
	fw_res.swqe[i].next = fw_res.swqe_free;
	fw_res.swqe_free = i;
}

/* May one more READ / atomic of qpn go out: fewer than max_rd_atomic of the QP's are
 * outstanding (IBTA: the responder has only that many resources), and the receive engine has a
 * free response context (an atomic's original value is placed through one too). */
int rd_room(uint32_t qpn)
{
	uint32_t lim = rnic_qp_ctx_get_max_rd_atomic(fw_res.qp_ctx[qpn]);
	if (lim == 0)
		lim = 1;
	if (fw_res.qp_run[qpn].rd_n >= lim)
		return 0;
	if (rd_out >= (rnic_hw_caps_v_read_ctx(fw_hw_caps) ? rnic_hw_caps_v_read_ctx(fw_hw_caps) : 1u)) {
		rd_waiting = 1;
		return 0;
	}
	return 1;
}

void fw_xport_init(void)
{
	fw_hw_caps = hal_rd32(RNIC_FW_REG_HW_CAPS);
	rd_out = rd_waiting = 0;
	pc_ok = 0;
	fw_res.swqe_free = -1;
	for (int16_t i = FW_MAX_SWQE - 1; i >= 0; i--)
		swqe_put(0, i); /* zeroed records: not READs */
	for (uint32_t q = 0; q < FW_MAX_QP; q++) {
		fw_res.qp_run[q].head = fw_res.qp_run[q].tail = -1;
		fw_res.qp_run[q].wqf_en = 0;
	}
	fw_wqf_db_init(FW_MAX_QP); /* every SQ's entry off, the engine's doorbell port on */
	srt_init();
	fw_events_init();
}

uint32_t wc_opcode(uint32_t wqe_op)
{
	switch (wqe_op) {
	case RNIC_WQE_OP_RDMA_WRITE:
	case RNIC_WQE_OP_RDMA_WRITE_WITH_IMM: return RNIC_WC_OPCODE_RDMA_WRITE;
	case RNIC_WQE_OP_RDMA_READ: return RNIC_WC_OPCODE_RDMA_READ;
	case RNIC_WQE_OP_ATOMIC_CMP_AND_SWP: return RNIC_WC_OPCODE_COMP_SWAP;
	case RNIC_WQE_OP_ATOMIC_FETCH_AND_ADD: return RNIC_WC_OPCODE_FETCH_ADD;
	default: return RNIC_WC_OPCODE_SEND;
	}
}

void sq_complete(uint32_t qpn, const struct fw_swqe *w, uint32_t status)
{
	if (!w->signaled && status == RNIC_WC_STATUS_SUCCESS)
		return;
	fw_cqe_put(FW_CQ_REC_W7(rnic_qp_ctx_get_send_cqn(ctx(qpn)), w->wqe_index), w->wr_id, w->len, 0, qpn, 0,
		   status | wc_opcode(w->opcode) << 8);
}

/* Removes the oldest outstanding WQE of qpn and completes it with status. */
void retire_head(uint32_t qpn, uint32_t status)
{
	struct fw_qp_run *r = &fw_res.qp_run[qpn];
	int16_t i = r->head;

	sq_complete(qpn, &fw_res.swqe[i], status);
	rnic_qp_ctx_set_sq_ci(ctx(qpn), (uint16_t)(fw_res.swqe[i].wqe_index + 1));
	r->head = fw_res.swqe[i].next;
	if (r->head < 0)
		r->tail = -1;
	swqe_put(qpn, i);
}

void sq_fail_head(uint32_t qpn, uint32_t status)
{
	if (srt_ctx(ctx(qpn)))
		srt_fail_head(qpn, status);
	else if (fw_res.qp_run[qpn].head >= 0)
		retire_head(qpn, status);
}

/* Record ri (fields filled) becomes the QP's newest outstanding WQE. */
static void rec_link(uint32_t qpn, int16_t ri)
{
	struct fw_qp_run *run = &fw_res.qp_run[qpn];
	struct fw_swqe *r = &fw_res.swqe[ri];

	if (is_rd_atomic(r->opcode)) {
		rd_out++;
		run->rd_n++;
	}
	r->next = -1;
	if (run->tail >= 0) {
		fw_res.swqe[run->tail].next = ri;
	} else {
		run->head = ri;
		/* the timer, still running after the last ACK emptied the list, counts from now. An
		 * engine QP's una is the engine's (srt_sync): its firmware records are a subset of the
		 * outstanding WQEs, so an empty list says nothing, and its timer compares una (tmr_una). */
		if (!srt_ctx(ctx(qpn))) {
			run->una = r->first_psn;
			ack_progress(run);
		}
	}
	run->tail = ri;
	rnic_qp_ctx_set_sq_psn(ctx(qpn), (r->last_psn + 1) & PSN_MASK);
	if (!run->deadline)
		arm_ack_timer(qpn);
}

/* Fills record ri (wr_id, npkts packets from psn) and links it as the QP's newest. */
void rec_set(uint32_t qpn, int16_t ri, uint64_t wr_id, const uint8_t *c, uint32_t psn, uint32_t npkts,
		    uint32_t len, uint32_t idx, uint32_t op, uint32_t flags)
{
	struct fw_swqe *r = &fw_res.swqe[ri];

	r->wr_id = wr_id;
	r->first_psn = psn;
	r->last_psn = (psn + npkts - 1) & PSN_MASK;
	r->len = len;
	r->wqe_index = (uint16_t)idx;
	r->opcode = (uint8_t)op;
	r->signaled = (flags & (1u << RNIC_WQE_FLAG_SIGNALED)) || rnic_qp_ctx_get_sq_sig_all(c);
	struct fw_qp_run *run = &fw_res.qp_run[qpn];
	int srt_first = srt_ctx(c) && !was_sent(run, psn), idle = !run->deadline;
	if (srt_first) {
		/* the WQE's first send: its record in the engine (never again for a resend; the
		 * caller checked srt_room). After the descriptor's commit: its ACK needs the packet's
		 * round trip, and the engine takes records before ACKs. PSNs from here on are new, so
		 * was_sent is off (hi_psn would look ahead again after 2^23 more PSNs). */
		srt_rec(qpn, wr_id, len, psn, r->last_psn,
			(uint32_t)r->signaled << RNIC_SR_FLAG_SIGNALED | (uint32_t)is_rd_atomic(op) << RNIC_SR_FLAG_BARRIER,
			wc_opcode(op), idx, rnic_qp_ctx_get_send_cqn(c));
		run->hi_ok = 0;
	}
	rec_link(qpn, ri);
	if (srt_first && idle)
		run->tmr_una = psn; /* see rec_srt */
}

_Static_assert(RNIC_WQE_OP_RDMA_WRITE == 0 && RNIC_WQE_OP_RDMA_WRITE_WITH_IMM == 1 && RNIC_WQE_OP_SEND == 2 &&
		       RNIC_WQE_OP_SEND_WITH_IMM == 3,
	       "rec_srt: the WRITEs are the SEND/WRITE opcodes below 2");

/* A WQE of an engine QP that send_fast sent whole: no firmware record (a resend finds it in the
 * engine, srt_find), only the engine's record on its first send (as rec_set), the next PSN and the
 * ACK timer. */
void rec_srt(uint32_t qpn, uint64_t wr_id, uint8_t *c, uint32_t psn, uint32_t npkts, uint32_t len, uint32_t idx,
	     uint32_t op, uint32_t flags)
{
	struct fw_qp_run *run = &fw_res.qp_run[qpn];
	uint32_t last = (psn + npkts - 1) & PSN_MASK;

	int first = !was_sent(run, psn);
	if (first) {
		uint32_t sig = (flags >> RNIC_WQE_FLAG_SIGNALED & 1u) | rnic_qp_ctx_get_sq_sig_all(c);
		srt_rec(qpn, wr_id, len, psn, last, sig << RNIC_SR_FLAG_SIGNALED,
			op <= RNIC_WQE_OP_RDMA_WRITE_WITH_IMM ? RNIC_WC_OPCODE_RDMA_WRITE : RNIC_WC_OPCODE_SEND, idx,
			rnic_qp_ctx_get_send_cqn(c));
		run->hi_ok = 0;
	}
	rnic_qp_ctx_set_sq_psn(c, (last + 1) & PSN_MASK);
	if (!run->deadline) {
		arm_ack_timer(qpn);
		/* The timer was stopped: the engine held nothing (a stop finds it empty, and every send
		 * arms it), so this first send's PSN is the engine's una now. The expiry compares with
		 * it: the firmware's una, from its last sync, may be older and would pass for progress,
		 * a second whole timeout (retx-lost-last-read-response-one-timeout). A resend's own arm
		 * (arm_ack_timer after resend_from) follows this and takes the una it just synced. */
		if (first)
			run->tmr_una = psn;
	}
}

/* The same from WQE w. */
void rec_fill(uint32_t qpn, int16_t ri, const uint8_t *w, const uint8_t *c, uint32_t psn,
		     uint32_t npkts, uint32_t len, uint32_t idx, uint32_t op, uint32_t flags)
{
	rec_set(qpn, ri, rnic_wqe_ctrl_get_wr_id(w), c, psn, npkts, len, idx, op, flags);
}
