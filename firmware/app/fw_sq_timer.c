/* Send queues, timers: the local ACK timeout and RNR waits of each QP, one next deadline for all
 * so that fw_timers_poll costs a comparison when none is due. */
#include "fw_sq_ack.h"
#include "fw_sq_desc.h"
#include "fw_sq_priv.h"
#include "fw_sq_rec.h"
#include "fw_sq_srt.h"
#include "fw_sq_timer.h"

/* ---- timers: the local ACK timeout is 4.096 us * 2^timeout (1024 cycles at 250 MHz), 0 never */
static uint64_t next_deadline = ~0ull; /* no QP's deadline is earlier */

void sq_arm(uint32_t qpn, uint64_t cycles, int rnr)
{
	struct fw_qp_run *r = &fw_res.qp_run[qpn];
	r->deadline = hal_cycles() + cycles;
	r->rnr_wait = (uint8_t)rnr;
	r->ack_at = 0;
	if (srt_ctx(ctx(qpn)))
		r->tmr_una = r->una; /* the last una the firmware saw (srt_sync) */
	if (r->deadline < next_deadline)
		next_deadline = r->deadline;
}

void arm_ack_timer(uint32_t qpn)
{
	uint8_t *c = ctx(qpn);
	uint32_t t = rnic_qp_ctx_get_timeout(c);
	/* (an engine QP's WQEs may have no firmware record: its expiry asks the engine) */
	if (t == 0 || (fw_res.qp_run[qpn].head < 0 && !srt_ctx(c)))
		fw_res.qp_run[qpn].deadline = 0;
	else
		sq_arm(qpn, 1024ull << t, 0);
}


/* Did responses of qpn's oldest WQE (PSNs first..last), if a READ, arrive since the last time
 * this was asked? */
static int read_flowing(uint32_t qpn, int is_read, uint32_t first, uint32_t last)
{
	struct fw_qp_run *r = &fw_res.qp_run[qpn];
	if (!is_read || !(fw_hw_caps & RNIC_HW_CAPS_READ_RESP_MASK))
		return 0;
	uint32_t k = read_progress(qpn, first, ((last - first) & PSN_MASK) + 1);
	uint32_t at = (first + k) & PSN_MASK;
	if (!k || at == r->rd_seen)
		return 0;
	r->rd_seen = at;
	return 1;
}

void fw_timers_poll(void)
{
	uint64_t now = hal_cycles();

	if (now < next_deadline)
		return;
	next_deadline = ~0ull;
	for (uint32_t q = FW_FIRST_QPN; q < FW_QP_SCAN_END; q++) {
		struct fw_qp_run *r = &fw_res.qp_run[q];
		if (!fw_qp_mine(q) || !r->deadline)
			continue;
		if (now < r->deadline) {
			if (r->deadline < next_deadline)
				next_deadline = r->deadline;
			continue;
		}
		uint8_t *c = ctx(q);
		int srt = srt_ctx(c), ne = 0;
		if (srt && !r->rnr_wait) {
			/* An engine QP: no ACK reaches the firmware, so the expiry asks the engine. una
			 * moved since the timer was armed: progress, the timeout counts again from now
			 * (at most twice the timeout before a real one; IBTA asks for a minimum). */
			uint32_t armed = r->tmr_una;
			ne = srt_sync(q);
			if (!ne || rnic_qp_ctx_get_timeout(c) == 0) {
				r->deadline = 0; /* everything acknowledged: stopped */
				continue;
			}
			/* a READ/atomic at the engine's head without its firmware record: its resend is
			 * pending (send_one stalled on a busy mailbox, or held for a response context),
			 * so it is not asked again: looked at again later, as stage 2 did (without this,
			 * each expiry during the wait cost a retry: 1 MiB READs under 5 % loss ran out) */
			int pending = srt_hd.barrier && !(r->head >= 0 && fw_res.swqe[r->head].wqe_index == srt_hd.idx);
			if (ne < 0 || r->una != armed || (ne > 0 && pending)) {
				/* (no answer, progress or a pending resend: looked at again) */
				arm_ack_timer(q);
				if (r->deadline && r->deadline < next_deadline)
					next_deadline = r->deadline;
				continue;
			}
		} else if (r->ack_at && !r->rnr_wait) {
			/* progress since the timer was armed: the timeout counts from the last one.
			 * The low 32 bits give the time since; when that is 2^32 cycles (17 s) or more
			 * (timeout codes >= 22) the deadline comes a multiple of 2^32 cycles later,
			 * still no earlier than the timeout after the progress (IBTA: a minimum). */
			uint64_t d = now - (uint32_t)((uint32_t)now - r->ack_at) + (1024ull << rnic_qp_ctx_get_timeout(c));
			r->ack_at = 0;
			if (r->head < 0 || rnic_qp_ctx_get_timeout(c) == 0) {
				r->deadline = 0; /* everything acknowledged: stopped */
				continue;
			}
			if (now < d) {
				r->deadline = d;
				if (d < next_deadline)
					next_deadline = d;
				continue;
			}
		}
		r->deadline = 0;
		r->inak_psn = 0; /* after a timeout a plain ACK may re-issue a READ/atomic once more */
		/* the oldest outstanding WQE: the engine's (srt_sync above; a READ has a firmware record
		 * too, send_one's, which srt_sync left at the head), or the firmware's */
		int has = srt ? ne > 0 : r->head >= 0, is_read = 0;
		uint32_t hf = 0, hl = 0;
		if (srt && has) {
			hf = srt_hd.first;
			hl = srt_hd.last;
			is_read = srt_hd.barrier && r->head >= 0 && fw_res.swqe[r->head].wqe_index == srt_hd.idx &&
				  fw_res.swqe[r->head].opcode == RNIC_WQE_OP_RDMA_READ;
		} else if (has) {
			hf = fw_res.swqe[r->head].first_psn;
			hl = fw_res.swqe[r->head].last_psn;
			is_read = fw_res.swqe[r->head].opcode == RNIC_WQE_OP_RDMA_READ;
		}
		if (r->rnr_wait) {
			r->rnr_wait = 0;
			resend_from(q, r->rnr_psn);
		} else if (has && read_flowing(q, is_read, hf, hl)) {
			/* the oldest READ's responses arrived since the last look: no re-issue (each
			 * would cost the responder the whole rest of the READ again). Looked at again
			 * after a sixteenth of the timeout (at least 16 us), not a whole timeout: progress
			 * seen at the timeout may be long over, a stream whose tail was lost with nothing
			 * after it (soak seed 8: the second of two 1 ms timeouts) */
			rnic_qp_ctx_set_retries_left(c, rnic_qp_ctx_get_retry_cnt(c));
			uint64_t per = 1024ull << rnic_qp_ctx_get_timeout(c), chk = per >> 4;
			sq_arm(q, chk < 4000u ? (per < 4000u ? per : 4000u) : chk, 0);
			continue;
		} else if (has) {
			/* Local ACK timeout: resend everything outstanding, or give up. */
			uint32_t left = rnic_qp_ctx_get_retries_left(c);
			if (left == 0) {
				sq_fail_head(q, RNIC_WC_STATUS_RETRY_EXC_ERR);
				fw_qp_fatal(q, RNIC_WC_STATUS_RETRY_EXC_ERR, RNIC_EQ_QP_SIDE_REQUESTER);
				continue;
			}
			rnic_qp_ctx_set_retries_left(c, left - 1);
			/* from the oldest PSN not acknowledged (inside the oldest WQE) */
			resend_from(q, psn_lt(hf, r->una) && psn_le(r->una, hl) ? r->una : hf);
		}
		arm_ack_timer(q);
		if (r->deadline && r->deadline < next_deadline)
			next_deadline = r->deadline;
	}
}
