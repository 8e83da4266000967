/* The receive feed's grant mode: the takeover and give-back of a QP, the stops the engine hands
 * over (rtl/wqe_fetch "Grant mode"; docs/firmware.md "wt-rqfw (session 27)", "wt-rqahead
 * (session 28)").
 * The engine feeds a QP (fw_qp_run.rqg) or the firmware does (fw_rq.c's own refill from the
 * stage, never from the engine's records, which are the engine's in this mode); never both. */
#include "fw_rq_grant.h"

#include "fw_log.h"

#define RQG_POLL_LIMIT 100000u /* the read-back is valid in a few cycles */

uint32_t fw_rqg_slots = 1;
uint32_t fw_rqg_ahead_qpn = FW_RQG_AHEAD_NONE, fw_rqg_ahead_left;

void fw_rqg_take(uint32_t qpn)
{
	struct fw_qp_run *run = &fw_res.qp_run[qpn];
	if (!run->rqg)
		return;
	if (fw_rqg_ahead_qpn == qpn)
		fw_rqg_ahead_qpn = FW_RQG_AHEAD_NONE; /* its counted events take the firmware's path */
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
	uint8_t *c = fw_res.qp_ctx[qpn];
	uint32_t feed = rnic_rqf_pos_v_feed(v);
	run->rq_posted = (uint8_t)(feed - rnic_qp_ctx_get_rq_ci(c));
	/* The engine fetched below the producer index of rq_dbs it took itself, which the firmware
	 * may not have read from its mailbox yet: rq_pi can lag the feed (even rq_ci). The firmware's
	 * own refill and flush count the posted WQEs as rq_pi - feed, so rq_pi catches up first (the
	 * lagging rq_dbs are then behind it: fw_db.c rq_db_in, nothing to take). */
	if (n < RQG_POLL_LIMIT && ((feed - rnic_qp_ctx_get_rq_pi(c) - 1u) & 0xFFFFu) < 0x7FFFu)
		rnic_qp_ctx_set_rq_pi(c, (uint16_t)feed);
}

int fw_rqg_give(uint32_t qpn, uint8_t *c, struct fw_qp_run *run)
{
	uint32_t pos = (rnic_qp_ctx_get_rq_ci(c) + run->rq_posted) & 0xFFFFu;
	if (run->rqg_hold)
		return 0; /* the stop's WQE is not handed or completed yet */
	fw_rq_release(qpn); /* what the stage holds the engine fetches again */
	/* in this order: a doorbell evaluated between an index store and the enable would leave a
	 * record the disabled QP's rule removes without moving the index back; the producer index
	 * before the grant, whose re-evaluation fetches up to it */
	hal_tc_wr32(RNIC_FW_TC_RQF_FEED, rnic_wqf_sq_qidx_mk_qpn(qpn) | rnic_wqf_sq_qidx_mk_index(pos));
	fw_rqg_pi(qpn, rnic_qp_ctx_get_rq_pi(c));
	uint32_t slots = rnic_hw_caps_v_rq_slots(fw_hw_caps);
	fw_rqg_slots = slots ? slots : 1u;
	if (fw_rqg_ahead_qpn == qpn)
		fw_rqg_ahead_qpn = FW_RQG_AHEAD_NONE; /* the grant below is from rq_ci again */
	run->rqg = 1;
	run->rq_stalled = 0;
	fw_rqg_grant(qpn, c, 0);
	fw_wqf_rq_fidx(qpn, pos);
	return 1;
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

void fw_rqg_poll(void)
{
	/* (rqf_status.lost is left set: every rq_db reaches the firmware, whose fw_rqg_pi of it
	 * gives the engine the index its doorbell FIFO dropped) */
	if (__builtin_expect(!rnic_rqf_status_v_stop_valid(hal_tc_rd32(RNIC_FW_TC_RQF_STATUS)), 1))
		return;
	rqg_stopped();
}
