/* The receive feed's grant mode: the takeover and give-back of a QP, the stops the engine hands
 * over, the rq_db it lost (rtl/wqe_fetch "Grant mode"; docs/firmware.md "wt-rqfw (session 27)").
 * The engine feeds a QP (fw_qp_run.rqg) or the firmware does (fw_rq.c's own refill from the
 * stage, never from the engine's records, which are the engine's in this mode); never both. */
#include "fw_rq_grant.h"

#include "fw_log.h"

#define RQG_POLL_LIMIT 100000u /* the read-back is valid in a few cycles */

/* Counts the main loop's passes (each after the doorbell mailbox was found empty), and the pass
 * in which a ring state was last enabled: an rq_db the firmware takes in a later pass reached
 * the engine after every enable so far (one taken in the same pass may have come before). */
static uint8_t rqg_epoch, rqg_enabled_at;
/* a lost rq_db was cleared: the next pass (after the doorbells that came before the clear were
 * taken) takes over the QPs that may miss it */
static uint8_t rqg_resync;

void fw_rqg_take(uint32_t qpn)
{
	struct fw_qp_run *run = &fw_res.qp_run[qpn];
	if (!run->rqg)
		return;
	hal_tc_wr32(RNIC_FW_TC_RQF_GRANT, rnic_rqf_grant_mk_qpn(qpn));
	hal_tc_wr32(RNIC_FW_TC_RQF_POS, rnic_wqf_sq_qidx_mk_qpn(qpn));
	/* (a WQE of the QP the engine read and had not handed is dropped: this never waits for the
	 * QP table's port, which the receive engine may hold while it waits for the firmware) */
	uint32_t v = 0, n;
	for (n = 0; n < RQG_POLL_LIMIT; n++) {
		v = hal_tc_rd32(RNIC_FW_TC_RQF_POS);
		if (rnic_rqf_pos_v_valid(v) && !rnic_rqf_pos_v_busy(v))
			break;
	}
	if (n == RQG_POLL_LIMIT)
		fw_log("qp %u: grant read-back never valid", (unsigned)qpn);
	run->rqg = 0;
	run->rq_posted = (uint8_t)(rnic_rqf_pos_v_feed(v) - rnic_qp_ctx_get_rq_ci(fw_res.qp_ctx[qpn]));
}

void fw_rqg_doorbell(struct fw_qp_run *run)
{
	/* This doorbell reached the engine after the ring state was enabled (no enable in this
	 * pass), no rq_db was lost since the last clear, none is being resynchronised: the engine
	 * took it (the lost flag is set as it arrives, before the firmware can see it) and has its
	 * producer index, or a later one. */
	if (rqg_enabled_at != rqg_epoch && !rqg_resync && !rnic_rqf_status_v_lost(hal_tc_rd32(RNIC_FW_TC_RQF_STATUS)))
		run->rqg_ok = 1;
}

int fw_rqg_give(uint32_t qpn, uint8_t *c, struct fw_qp_run *run)
{
	uint32_t pos = (rnic_qp_ctx_get_rq_ci(c) + run->rq_posted) & 0xFFFFu;
	if (run->rqg_hold)
		return 0; /* the stop's WQE is not handed or completed yet */
	/* Without the producer index the engine would fetch nothing past what it knows: only when
	 * every posted WQE is handed (the next rq_db tells it the rest). */
	if (!run->rqg_ok && pos != rnic_qp_ctx_get_rq_pi(c))
		return 0;
	fw_rq_release(qpn); /* what the stage holds the engine fetches again */
	/* in this order: a doorbell evaluated between an index store and the enable would leave a
	 * record the disabled QP's rule removes without moving the index back */
	hal_tc_wr32(RNIC_FW_TC_RQF_FEED, rnic_wqf_sq_qidx_mk_qpn(qpn) | rnic_wqf_sq_qidx_mk_index(pos));
	run->rqg = 1;
	run->rq_stalled = 0;
	fw_rqg_grant(qpn, c, run, 0);
	fw_wqf_rq_fidx(qpn, pos);
	return 1;
}

void fw_rqg_ring(struct fw_qp_run *run)
{
	run->rqg_ok = 0;
	run->rqg_hold = 0;
	rqg_enabled_at = rqg_epoch;
}

/* The engine stopped a QP at a WQE (its record's fetch failed, or it names more SGEs than the
 * stride or the rq_desc hold): the firmware takes the QP over and goes on with its own path
 * from there (its own fetch, which reports a real fault; LOC_LEN_ERR in order), then gives it
 * back once past that WQE. */
static __attribute__((noinline)) void rqg_stopped(void)
{
	uint32_t s = hal_tc_rd32(RNIC_FW_TC_RQF_STOP);
	uint32_t qpn = rnic_wqf_sq_qidx_v_qpn(s);
	int ours = qpn >= FW_FIRST_QPN && qpn < FW_MAX_QP && fw_res.qp_used[qpn];
	if (ours) {
		struct fw_qp_run *run = &fw_res.qp_run[qpn];
		fw_rqg_take(qpn);
		/* (its feed is the stop's position: the firmware's refill meets that WQE first) */
		run->rqg_hold = 1;
	}
	hal_tc_wr32(RNIC_FW_TC_RQF_STOP, 0); /* the engine may stop another QP now */
	if (ours)
		fw_rq_service(qpn);
}

/* After a lost rq_db (the engine's doorbell FIFO was full): which QP's it was is not known, so no
 * QP's producer index is trusted any more; a QP the engine feeds with WQEs posted past its feed
 * is taken over (the firmware feeds it until the engine knows its index again, or until every
 * posted WQE is handed), one with nothing waiting is left with a limit at rq_pi. */
static __attribute__((noinline)) void rqg_resynchronise(void)
{
	uint32_t resumed = 0, taken = 0;
	for (uint32_t q = FW_FIRST_QPN; q < FW_QP_SCAN_END; q++) {
		if (!fw_qp_mine(q))
			continue;
		struct fw_qp_run *run = &fw_res.qp_run[q];
		uint8_t *c = fw_res.qp_ctx[q];
		run->rqg_ok = 0;
		if (!run->rqg)
			continue;
		fw_rqg_take(q);
		taken++;
		if (fw_rqg_give(q, c, run))
			resumed++;
		else
			fw_rq_service(q);
	}
	fw_log("rq_db lost in grant mode: %u QPs taken over, %u given back", (unsigned)taken, (unsigned)resumed);
}

void fw_rqg_poll(void)
{
	rqg_epoch++;
	if (rqg_resync) {
		rqg_resync = 0;
		rqg_resynchronise();
	}
	uint32_t v = hal_tc_rd32(RNIC_FW_TC_RQF_STATUS);
	if (__builtin_expect((v & (RNIC_RQF_STATUS_STOP_VALID_MASK | RNIC_RQF_STATUS_LOST_MASK)) == 0, 1))
		return;
	if (rnic_rqf_status_v_lost(v)) {
		hal_tc_wr32(RNIC_FW_TC_WQF_DB_CTL, FW_WQF_DB_CTL_ON); /* clears it */
		rqg_resync = 1;
	}
	if (rnic_rqf_status_v_stop_valid(v))
		rqg_stopped();
}
