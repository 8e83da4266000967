/* Send queues, acknowledgements: ACKs, NAKs, RNR NAKs, READ responses and atomic ACKs retire the
 * WQEs they cover in order or send again from a PSN (go-back-N from the packet). */
#include "fw_cq_rec.h"
#include "fw_sq_ack.h"
#include "fw_sq_desc.h"
#include "fw_sq_flush.h"
#include "fw_sq_priv.h"
#include "fw_sq_rec.h"
#include "fw_sq_srt.h"
#include "fw_sq_timer.h"

/* RNR NAK timer codes (IBTA table; also min_rnr_timer) in units of 10 us. */
static const uint32_t rnr_10us[32] = { 65536, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192,
				       256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192,
				       12288, 16384, 24576, 32768, 49152 };

/* Marks PSNs below the highest one sent so far as going out again (flagged RETRANSMIT, no new
 * engine record). */
static void resend_mark(struct fw_qp_run *r, const uint8_t *c)
{
	uint32_t sent = r->part1 ? r->part_psn : rnic_qp_ctx_get_sq_psn(c);
	if (!r->hi_ok || psn_lt(r->hi_psn, sent))
		r->hi_psn = sent;
	r->hi_ok = 1;
	r->part1 = 0;
}

/* Frees the QP's records from i on (to be sent again) and ends its list at prev (-1: empty). */
static void swqe_cut(uint32_t qpn, struct fw_qp_run *r, int16_t prev, int16_t i)
{
	while (i >= 0) {
		int16_t nx = fw_res.swqe[i].next;
		swqe_put(qpn, i);
		i = nx;
	}
	if (prev >= 0)
		fw_res.swqe[prev].next = -1;
	else
		r->head = -1;
	r->tail = prev;
}

/* resend_from for an engine QP: the WQE to start at is the engine's (srt_find), since the WQEs
 * send_fast sent have no firmware record. The firmware's records from that WQE on go (send_one
 * writes them again when it sends those WQEs again); a SEND/WRITE resumed inside gets a record for
 * its pieces (send_one fills in its length from the WQE), or, with none free, goes again whole. */
static void resend_srt(uint32_t qpn, uint32_t psn)
{
	struct fw_qp_run *r = &fw_res.qp_run[qpn];
	uint8_t *c = ctx(qpn);

	if (srt_find(qpn, psn) <= 0)
		return;
	resend_mark(r, c);
	int16_t i = r->head, prev = -1;
	while (i >= 0 && idx_before(fw_res.swqe[i].wqe_index, srt_hd.idx))
		prev = i, i = fw_res.swqe[i].next;
	swqe_cut(qpn, r, prev, i);
	rnic_qp_ctx_set_sq_next(c, (uint16_t)srt_hd.idx);
	rnic_qp_ctx_set_sq_psn(c, srt_hd.first);
	if (!srt_hd.barrier && psn_lt(srt_hd.first, psn) && (i = swqe_get()) >= 0) {
		struct fw_swqe *w = &fw_res.swqe[i];
		w->first_psn = srt_hd.first;
		w->last_psn = srt_hd.last;
		w->wqe_index = (uint16_t)srt_hd.idx;
		w->opcode = RNIC_WQE_OP_SEND; /* a SEND or WRITE: sent in pieces; the engine completes it */
		w->len = 0;
		w->next = -1;
		if (prev >= 0)
			fw_res.swqe[prev].next = i;
		else
			r->head = i;
		r->tail = i;
		rnic_qp_ctx_set_sq_psn(c, (srt_hd.last + 1) & PSN_MASK);
		r->part1 = (int16_t)(i + 1);
		r->part_psn = psn;
		pc_ok = 0; /* a cached descriptor of this index may be an older WQE's */
	}
	fw_sq_service(qpn);
}

/* Go-back-N from psn: a SEND or WRITE holding psn resumes at psn itself, inside the message
 * (a piece with CONT from there); a READ or atomic holding it is sent again (a READ asks only
 * for the responses not yet placed, see read_progress); every later WQE is sent again. */
void resend_from(uint32_t qpn, uint32_t psn)
{
	struct fw_qp_run *r = &fw_res.qp_run[qpn];
	uint8_t *c = ctx(qpn);
	int16_t i = r->head, prev = -1;

	if (srt_ctx(c)) {
		resend_srt(qpn, psn);
		return;
	}

	while (i >= 0 && !psn_le(psn, fw_res.swqe[i].last_psn))
		prev = i, i = fw_res.swqe[i].next;
	if (i < 0)
		return;
	resend_mark(r, c);
	struct fw_swqe *w = &fw_res.swqe[i];
	rnic_qp_ctx_set_sq_next(c, w->wqe_index);
	rnic_qp_ctx_set_sq_psn(c, w->first_psn);
	if (seg_op(w->opcode) && rnic_qp_ctx_get_qp_type(c) == RNIC_QP_TYPE_RC) {
		/* the record stays: send_one continues it from psn; new WQEs follow its last PSN */
		rnic_qp_ctx_set_sq_psn(c, (w->last_psn + 1) & PSN_MASK);
		r->part1 = (int16_t)(i + 1);
		r->part_psn = psn_lt(psn, w->first_psn) ? w->first_psn : psn;
		prev = i;
		i = w->next;
	}
	swqe_cut(qpn, r, prev, i);
	fw_sq_service(qpn);
}

/* Retires qpn's WQEs that end at or before psn, oldest first, as acknowledged: a READ or atomic
 * only once its own response came (resp), never on a later message's ACK or response alone
 * (completing it then gave SUCCESS with its data never placed: the soak's READ defect, a lost
 * READ response followed by the next READ's). One whose response failed (local key, length,
 * DMA) completes with that status and the QP stops (returns 1). */
static int retire_upto(uint32_t qpn, uint32_t psn)
{
	struct fw_qp_run *r = &fw_res.qp_run[qpn];
	int16_t i;

	while ((i = r->head) >= 0 && psn_le(fw_res.swqe[i].last_psn, psn)) {
		struct fw_swqe *h = &fw_res.swqe[i];
		if (is_rd_atomic(h->opcode)) {
			if (!h->resp)
				break;
			uint32_t st = h->resp - 1u;
			retire_head(qpn, st);
			if (st != RNIC_WC_STATUS_SUCCESS) {
				fw_qp_fatal(qpn, st, RNIC_EQ_QP_SIDE_REQUESTER);
				return 1;
			}
			continue;
		}
		/* a SEND or WRITE that retire_fast left: the record ring was full (fw_cqe_put waits
		 * for a slot), or it follows a READ/atomic */
		retire_head(qpn, RNIC_WC_STATUS_SUCCESS);
	}
	return 0;
}

/* The common part of retiring: SENDs and WRITEs, their CQE records stored straight into the
 * writer's free slots (the CQ and the room looked at once per ACK), no call per WQE. Returns 1
 * when it stopped before psn for what retire_upto does: a READ or atomic, or no free slot. */
static __attribute__((noinline)) int retire_fast(uint32_t qpn, uint32_t psn)
{
	struct fw_qp_run *r = &fw_res.qp_run[qpn];
	uint8_t *c = ctx(qpn);
	uint32_t cqn = rnic_qp_ctx_get_send_cqn(c), room = fw_cq_rec_room(cqn), w7 = FW_CQ_REC_W7(cqn, 0);
	int16_t i;
	int more = 0;

	while ((i = r->head) >= 0 && psn_le(fw_res.swqe[i].last_psn, psn)) {
		struct fw_swqe *h = &fw_res.swqe[i];
		if (is_rd_atomic(h->opcode)) {
			more = 1;
			break;
		}
		if (h->signaled) {
			if (!room) {
				more = 1;
				break;
			}
			room--;
			fw_cq_rec_store(w7 | h->wqe_index, h->wr_id, h->len, 0, qpn, 0,
					RNIC_WC_STATUS_SUCCESS | wc_opcode(h->opcode) << 8);
		}
		rnic_qp_ctx_set_sq_ci(c, (uint16_t)(h->wqe_index + 1));
		r->head = h->next;
		h->next = fw_res.swqe_free;
		fw_res.swqe_free = i;
	}
	if (r->head < 0)
		r->tail = -1;
	return more;
}

/* Retires what psn acknowledges (retire_upto); 1: the QP stopped. */
static inline int retire_acked(uint32_t qpn, uint32_t psn)
{
	return retire_fast(qpn, psn) && retire_upto(qpn, psn);
}

static void nak(uint32_t qpn, uint32_t kind, uint32_t psn, uint32_t syndrome, int progress);

/* What an acknowledgement made room for: the QP's posted WQEs (records, the window, a READ
 * context); with nothing posted beyond what was sent the pass would do nothing (and empty the
 * staged WQEBBs). After a READ response or atomic ACK (not_ack), the QPs that held a READ back
 * for want of a response context. */
static void ack_room(uint32_t qpn, int not_ack)
{
	uint8_t *c = ctx(qpn);

	if (rnic_qp_ctx_get_sq_next(c) != rnic_qp_ctx_get_sq_pi(c))
		fw_sq_service(qpn);
	if (rd_waiting && not_ack) {
		rd_waiting = 0;
		for (uint32_t q = FW_FIRST_QPN; q < FW_QP_SCAN_END; q++)
			if (q != qpn && fw_qp_mine(q) &&
			    rnic_qp_ctx_get_sq_next(fw_res.qp_ctx[q]) != rnic_qp_ctx_get_sq_pi(fw_res.qp_ctx[q]))
				fw_sq_service(q);
	}
}

/* The same events of a QP whose records the send-retirement engine retires: the engine took
 * the acknowledgement first (ACK itself, psn - 1 of a NAK, RESP of a READ response / atomic
 * ACK) and wrote the completions; plain ACKs do not come here. What the firmware still decides
 * starts from the engine's state (srt_sync: una, its records freed). */
static void srt_ack(uint32_t qpn, uint32_t kind, uint32_t psn, uint32_t syndrome)
{
	struct fw_qp_run *r = &fw_res.qp_run[qpn];
	uint32_t una = r->una;
	int ne = srt_sync(qpn);

	if (ne < 0)
		return;
	if (kind == RNIC_RX_EVENT_KIND_ACK || kind == RNIC_RX_EVENT_KIND_READ_RESP_DONE ||
	    kind == RNIC_RX_EVENT_KIND_ATOMIC_ACK) {
		/* a failed response: the engine's SR_RESP_ERR event follows (fw_sq_srt_event) */
		ack_room(qpn, kind != RNIC_RX_EVENT_KIND_ACK);
		return;
	}
	if (kind == RNIC_RX_EVENT_KIND_READ_GAP) {
		uint8_t *c = ctx(qpn);
		uint32_t left = rnic_qp_ctx_get_retries_left(c);
		if (left == 0 || !ne)
			return; /* the ACK timer decides */
		rnic_qp_ctx_set_retries_left(c, left - 1);
		resend_from(qpn, psn);
		arm_ack_timer(qpn);
		return;
	}
	/* srt_sync restarted the retry counts if the NAK acknowledged new PSNs */
	nak(qpn, kind, psn, syndrome, r->una != una);
}

/* ACK / NAK / RNR NAK / READ response / atomic ACK for the requester side of qpn; status is the
 * receive engine's placement verdict of a READ_RESP_DONE / ATOMIC_ACK. */
void fw_sq_ack(uint32_t qpn, uint32_t kind, uint32_t psn, uint32_t syndrome, uint32_t status)
{
	uint8_t *c = ctx(qpn);
	struct fw_qp_run *r = &fw_res.qp_run[qpn];

	if (srt_ctx(c)) {
		srt_ack(qpn, kind, psn, syndrome);
		return;
	}

	if (kind == RNIC_RX_EVENT_KIND_ACK || kind == RNIC_RX_EVENT_KIND_READ_RESP_DONE ||
	    kind == RNIC_RX_EVENT_KIND_ATOMIC_ACK) {
		/* everything up to psn arrived (a piece's AckReq acknowledges inside a message) */
		if (r->head >= 0 && psn_lt(r->una, (psn + 1) & PSN_MASK))
			r->una = (psn + 1) & PSN_MASK;
		/* A READ_RESP_DONE / ATOMIC_ACK belongs to the READ or atomic ending at psn; an older
		 * one still waiting keeps it for later (its own responses were lost and are asked
		 * again: READ_GAP, timeout), so it is noted on its record. */
		if (kind != RNIC_RX_EVENT_KIND_ACK)
			for (int16_t i = r->head; i >= 0; i = fw_res.swqe[i].next)
				if (fw_res.swqe[i].last_psn == psn && is_rd_atomic(fw_res.swqe[i].opcode)) {
					fw_res.swqe[i].resp = (uint8_t)(1 + status);
					break;
				}
		/* up to everything acknowledged so far: a response that ends an older READ/atomic
		 * also retires the later WQEs an earlier ACK covered (that ACK found them behind
		 * the unanswered READ/atomic and will not come again) */
		uint32_t upto = r->head >= 0 && psn_lt(psn, (r->una - 1) & PSN_MASK) ? (r->una - 1) & PSN_MASK : psn;
		if (retire_acked(qpn, upto))
			return;
		uint32_t left = rnic_qp_ctx_get_retries_left(c);
		if (r->head >= 0 && psn_lt(fw_res.swqe[r->head].last_psn, psn)) {
			/* Implicit NAK (IBTA: a responder answers in PSN order, docs/conformance.md rows
			 * 37, 54): an acknowledgement beyond the oldest WQE, a READ or atomic still without
			 * its response (retire_upto stopped there), means that response was lost. A later
			 * READ/atomic's response (the receive engine's READ_GAP does not see this when the
			 * later READ has a context) or a plain, maybe coalesced, ACK of later requests:
			 * asked again now, a retry, instead of after the ACK timeout. A plain ACK re-issues
			 * a READ/atomic once (as rxe's started_retry): the ACKs of the requests sent again
			 * behind it must not re-issue it again and again; the timer decides after that. */
			uint32_t first = fw_res.swqe[r->head].first_psn;
			int again = kind == RNIC_RX_EVENT_KIND_ACK && r->inak_psn == (FW_INAK | first);
			if (left && !again) {
				rnic_qp_ctx_set_retries_left(c, left - 1);
				if (kind == RNIC_RX_EVENT_KIND_ACK)
					r->inak_psn = FW_INAK | first;
				resend_from(qpn, first);
			}
		} else {
			rnic_qp_ctx_set_retries_left(c, rnic_qp_ctx_get_retry_cnt(c));
		}
		rnic_qp_ctx_set_rnr_retries_left(c, rnic_qp_ctx_get_rnr_retry(c));
		if (!r->rnr_wait)
			ack_progress(r); /* the timer restarts for what is still out (at its expiry) */
		ack_room(qpn, kind != RNIC_RX_EVENT_KIND_ACK);
		return;
	}
	if (kind == RNIC_RX_EVENT_KIND_READ_GAP) {
		/* A READ response was lost (a later one arrived): the READ is asked again from the
		 * missing PSN now, not after the ACK timeout; a retry like a PSN sequence NAK. */
		uint32_t left = rnic_qp_ctx_get_retries_left(c);
		if (left == 0 || r->head < 0)
			return; /* the ACK timeout decides */
		rnic_qp_ctx_set_retries_left(c, left - 1);
		resend_from(qpn, psn);
		arm_ack_timer(qpn);
		return;
	}
	/* Every NAK acknowledges the messages wholly before its PSN (and the PSNs before it). */
	int progress = r->head >= 0 && psn_lt(r->una, psn);
	if (progress)
		r->una = psn;
	if (retire_acked(qpn, (psn - 1) & PSN_MASK))
		return;
	nak(qpn, kind, psn, syndrome, progress);
}

/* A NAK or RNR NAK at psn once what it acknowledges retired (progress: it acknowledged new PSNs):
 * wait and resend, resend now, or fail the oldest WQE and the QP. */
static void nak(uint32_t qpn, uint32_t kind, uint32_t psn, uint32_t syndrome, int progress)
{
	uint8_t *c = ctx(qpn);
	struct fw_qp_run *r = &fw_res.qp_run[qpn];

	if (kind == RNIC_RX_EVENT_KIND_RNR_NAK) {
		uint32_t left = rnic_qp_ctx_get_rnr_retries_left(c);
		if (left == 0) {
			sq_fail_head(qpn, RNIC_WC_STATUS_RNR_RETRY_EXC_ERR);
			fw_qp_fatal(qpn, RNIC_WC_STATUS_RNR_RETRY_EXC_ERR, RNIC_EQ_QP_SIDE_REQUESTER);
			return;
		}
		if (rnic_qp_ctx_get_rnr_retry(c) != 7) /* 7 means retry forever */
			rnic_qp_ctx_set_rnr_retries_left(c, left - 1);
		/* Resend after the responder's RNR timer (its code is in the syndrome). */
		r->rnr_psn = psn;
		sq_arm(qpn, (uint64_t)rnr_10us[syndrome & RNIC_AETH_CODE_CODE_MASK] * 2500u, 1);
		return;
	}
	/* NAK: a PSN sequence error is resent; the others end the WQE and the QP. */
	uint32_t code = syndrome & RNIC_AETH_CODE_CODE_MASK;
	if (code == (RNIC_AETH_SYNDROME_NAK_PSN_SEQ & RNIC_AETH_CODE_CODE_MASK)) {
		/* A NAK that acknowledges new PSNs is progress, as an ACK is: the count starts over, so
		 * a long message on a lossy link is not failed by losses spread over its packets. */
		uint32_t left = progress ? rnic_qp_ctx_get_retry_cnt(c) : rnic_qp_ctx_get_retries_left(c);
		if (left == 0) {
			sq_fail_head(qpn, RNIC_WC_STATUS_RETRY_EXC_ERR);
			fw_qp_fatal(qpn, RNIC_WC_STATUS_RETRY_EXC_ERR, RNIC_EQ_QP_SIDE_REQUESTER);
			return;
		}
		rnic_qp_ctx_set_retries_left(c, left - 1);
		resend_from(qpn, psn);
		arm_ack_timer(qpn);
		return;
	}
	uint32_t st = code == (RNIC_AETH_SYNDROME_NAK_INV_REQ & RNIC_AETH_CODE_CODE_MASK)
			      ? RNIC_WC_STATUS_REM_INV_REQ_ERR
		      : code == (RNIC_AETH_SYNDROME_NAK_REM_ACCESS & RNIC_AETH_CODE_CODE_MASK)
			      ? RNIC_WC_STATUS_REM_ACCESS_ERR
			      : RNIC_WC_STATUS_REM_OP_ERR;
	sq_fail_head(qpn, st);
	fw_qp_fatal(qpn, st, RNIC_EQ_QP_SIDE_REQUESTER);
}

/* The transmit engine could not send the QP's oldest message (a local key, length or DMA
 * failure): that WQE completes with the engine's status and the QP goes to ERR. */
/* TX_DONE: a UD message left the NIC; UD sends complete then (no ACK), in order. */
void fw_sq_tx_done(uint32_t qpn)
{
	if (fw_res.qp_run[qpn].head >= 0)
		retire_head(qpn, RNIC_WC_STATUS_SUCCESS);
	fw_sq_service(qpn);
}

void fw_sq_tx_error(uint32_t qpn, uint32_t status)
{
	sq_fail_head(qpn, status);
	fw_qp_fatal(qpn, status, RNIC_EQ_QP_SIDE_REQUESTER);
}
