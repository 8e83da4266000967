/* The receive feed's grant mode (rtl/wqe_fetch "Grant mode", spec fw_tc rqf_*): the engine hands
 * the RQ WQEs its rq_db-started records hold to the receive engine by itself, below a limit per QP
 * the firmware grants; a receive event's refill is one store. fw_rq.c calls these; the
 * protocol is docs/firmware.md "wt-rqgrant (session 26)" and "wt-rqfw (session 27)". */
#ifndef FW_RQ_GRANT_H
#define FW_RQ_GRANT_H

#include <stdint.h>

#include "fw_res.h"
#include "fw_wqf.h"
#include "fw_xport.h"
#include "hal.h"

/* The receive events of one QP the last grant counted and that are still to come (their grant is
 * made): fw_rqg_recv's look-ahead; a takeover or give-back of that QP forgets it. */
extern uint32_t fw_rqg_ahead_qpn, fw_rqg_ahead_left;
#define FW_RQG_AHEAD_NONE 0xFFFFFFFFu
/* hw_caps.rq_slots (at least 1), taken at each give-back: every QP the engine feeds was given */
extern uint32_t fw_rqg_slots;

/* The grant store: the engine may hand the QP's WQEs below rq_ci + the receive engine's slots
 * (a hard bound: its slots take no more). The engine fetches no further than the producer index
 * the firmware stored (fw_rqg_pi), so the limit needs no clip at rq_pi. */
static inline __attribute__((always_inline)) void fw_rqg_grant(uint32_t qpn, const uint8_t *c, uint32_t consumed)
{
	/* consumed: the buffers from rq_ci on that were used up and whose CQEs are still to be
	 * written (the grant goes first, so that the engine's fetch of the refill starts that much
	 * earlier) */
	uint32_t lim = rnic_qp_ctx_get_rq_ci(c) + consumed + fw_rqg_slots;
	if (fw_rqg_ahead_qpn == qpn)
		fw_rqg_ahead_qpn = FW_RQG_AHEAD_NONE; /* this limit counts none of them: they grant again */
	hal_tc_wr32(RNIC_FW_TC_RQF_GRANT, rnic_rqf_grant_mk_limit(lim) | rnic_rqf_grant_mk_qpn(qpn) | rnic_rqf_grant_mk_en(1));
}


/* The grant of a receive event of qpn (the buffer at rq_ci consumed) read from event-ring slot
 * cons, the ring filled up to prod: the buffers of the QP's later RECV_DONE / WRITE_IMM_DONE
 * events in the ring are consumed too (the receive engine fills the slots in RQ order), so one
 * grant covers them all: rq_ci + 1 + those + slots, and their own passes store none. The slots
 * refill as soon as the firmware looks at the ring, not one by one after each CQE (the 4 KiB SEND
 * stream's margin against RNR NAKs, docs/firmware.md "rnr (session 28)"). */
static inline __attribute__((always_inline)) void fw_rqg_recv(uint32_t qpn, uint32_t ci, uint32_t cons, uint32_t prod)
{
	if (fw_rqg_ahead_left && qpn == fw_rqg_ahead_qpn) {
		fw_rqg_ahead_left--; /* counted by the grant of an earlier event of this run */
		return;
	}
	_Static_assert((RNIC_FW_TC_EVR_NUM & (RNIC_FW_TC_EVR_NUM - 1)) == 0, "evr_num a power of two");
	/* the events after this one: prod - cons - 1 < evr_num (the mask only bounds the loop) */
	uint32_t more = 0, n = (prod - cons - 1u) & (RNIC_FW_TC_EVR_NUM - 1u);
	for (uint32_t k = 1; k <= n; k++) {
		const uint8_t *e = hal_tc_ptr(RNIC_FW_TC_EVR_BASE + ((cons + k) % RNIC_FW_TC_EVR_NUM) * RNIC_RX_EVENT_SIZE);
		uint32_t kind = rnic_rx_event_get_kind(e);
		more += rnic_rx_event_get_qpn(e) == qpn &&
			(kind == RNIC_RX_EVENT_KIND_RECV_DONE || kind == RNIC_RX_EVENT_KIND_WRITE_IMM_DONE);
	}
	if (more) {
		/* (another QP's run still counted is forgotten: its events grant again, never less) */
		fw_rqg_ahead_qpn = qpn;
		fw_rqg_ahead_left = more;
	}
	hal_tc_wr32(RNIC_FW_TC_RQF_GRANT, rnic_rqf_grant_mk_limit(ci + 1u + more + fw_rqg_slots) |
						  rnic_rqf_grant_mk_qpn(qpn) | rnic_rqf_grant_mk_en(1));
}

/* The producer index the firmware checked (page binding, ring bound) becomes the engine's: at
 * the give-back (the engine's RAM has no reset and keeps an earlier life's index) and on every
 * rq_db of a QP it feeds (one the engine's doorbell FIFO dropped is fetched all the same). */
static inline __attribute__((always_inline)) void fw_rqg_pi(uint32_t qpn, uint32_t pi)
{
	hal_tc_wr32(RNIC_FW_TC_RQF_PI, rnic_wqf_sq_qidx_mk_qpn(qpn) | rnic_wqf_sq_qidx_mk_index(pi));
}

/* The engine stops feeding qpn (a no-op when it does not): the grant off, its feed read back
 * once the engine holds nothing of the QP, rq_posted = feed - rq_ci. */
void fw_rqg_take(uint32_t qpn);
/* Gives a QP the firmware feeds back to the engine when it may (the stop's WQE passed): 1 if it
 * did. Its feed is rq_ci + rq_posted, its producer index rq_pi; what the stage holds is dropped. */
int fw_rqg_give(uint32_t qpn, uint8_t *c, struct fw_qp_run *run);
/* The engine's ring state of the QP was enabled or disabled: a stop's hold goes. */
static inline void fw_rqg_ring(struct fw_qp_run *run)
{
	run->rqg_hold = 0;
}
/* The main loop's poll (one load): a stop to complete. (An rq_db lost to the engine needs
 * nothing: the firmware's fw_rqg_pi of it fetches its WQEs.) */
void fw_rqg_poll(void);

#endif /* FW_RQ_GRANT_H */
