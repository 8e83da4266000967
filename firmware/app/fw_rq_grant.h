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

/* The grant store: the engine may hand the QP's WQEs below rq_ci + the receive engine's slots
 * (a hard bound: its slots take no more). Until the engine has the QP's producer index
 * (rqg_ok) the limit is also rq_pi: an index it kept from an earlier life of the QPN, or none,
 * must not make it hand what was never posted. */
static inline __attribute__((always_inline)) void fw_rqg_grant(uint32_t qpn, const uint8_t *c,
							       const struct fw_qp_run *run, uint32_t consumed)
{
	/* consumed: the buffer at rq_ci was used up and its CQE is still to be written (the grant
	 * goes first, so that the engine's fetch of the refill starts that much earlier) */
	uint32_t ci = rnic_qp_ctx_get_rq_ci(c) + consumed, slots = rnic_hw_caps_v_rq_slots(fw_hw_caps);
	uint32_t lim = ci + (slots ? slots : 1u);
	if (!run->rqg_ok && (uint16_t)(lim - rnic_qp_ctx_get_rq_pi(c)) < 0x8000u)
		lim = rnic_qp_ctx_get_rq_pi(c);
	hal_tc_wr32(RNIC_FW_TC_RQF_GRANT, rnic_rqf_grant_mk_limit(lim) | rnic_rqf_grant_mk_qpn(qpn) | rnic_rqf_grant_mk_en(1));
}

/* The engine stops feeding qpn (a no-op when it does not): the grant off, its feed read back
 * once the engine holds nothing of the QP, rq_posted = feed - rq_ci. */
void fw_rqg_take(uint32_t qpn);
/* The firmware's RQ doorbell pass of a QP whose ring the engine has (rq_pi just set): learns
 * whether the engine saw this doorbell (rqg_ok). */
void fw_rqg_doorbell(struct fw_qp_run *run);
/* Gives a QP the firmware feeds back to the engine when it may (the stop's WQE passed; the
 * engine knows the producer index, or every posted WQE was handed): 1 if it did. Its feed is
 * rq_ci + rq_posted; what the stage holds is dropped. */
int fw_rqg_give(uint32_t qpn, uint8_t *c, struct fw_qp_run *run);
/* The engine's ring state of the QP was enabled or disabled: what it knew of the RQ goes. */
void fw_rqg_ring(struct fw_qp_run *run);
/* The main loop's poll (one load): a stop to complete, a lost rq_db. */
void fw_rqg_poll(void);

#endif /* FW_RQ_GRANT_H */
