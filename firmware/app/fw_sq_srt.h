/* Send queues, the send-retirement engine (fw_sq_srt.c; rtl/sq_retire, docs/decisions/send-retire.md):
 * RC QPs' send records go to the engine, which retires them on the receive engine's ACKs and
 * writes their completions; the firmware keeps its own records for what it still decides
 * (resends, the window, READ/atomic contexts) and frees them lazily from the engine's answer to
 * QUERY (srt_sync). */
#ifndef FW_SQ_SRT_H
#define FW_SQ_SRT_H

#include <stdint.h>

#include "fw_res.h"
#include "hal.h"
#include "rnic_spec.h"

/* The engine serves this firmware's RC QPs: one soft core (its registers are on core 0's engine
 * page) with the transport engines attached, and not switched off (fw_srt_off, the unit tests'
 * old path). Set by fw_xport_init. */
extern uint8_t fw_srt_ok;
extern uint8_t fw_srt_off;

/* Whether QP context c's sends are retired by the engine. */
static inline int srt_ctx(const uint8_t *c)
{
	return fw_srt_ok && rnic_qp_ctx_get_qp_type(c) == RNIC_QP_TYPE_RC;
}

void srt_init(void);
/* RTR -> RTS of an RC QP: its list emptied (DROP: a reloaded firmware may find old records),
 * INIT at the first send PSN, then the fork sends the QP's acknowledgements to the engine. */
void srt_qp_start(uint32_t qpn, uint32_t sq_psn);
/* RESET / DESTROY: the QP's records freed without completions, the QP no longer forked. */
void srt_qp_stop(uint32_t qpn);
/* Room for one more record: the record port free (a short wait) and a free record in the pool. */
int srt_room(void);
/* The same, its usual answer inline: one load of srt_status, the port free and a record free;
 * otherwise srt_room's bounded wait (the call and its loop were ~12 cycles per WQE). */
static inline int srt_room_now(void)
{
	uint32_t s = hal_tc_rd32(RNIC_FW_TC_SRT_STATUS);
	if (!rnic_srt_status_v_rec_busy(s) && rnic_srt_status_v_free(s))
		return 1;
	return srt_room();
}
/* The record of a WQE's first send (7 stores; the last one appends it). */
void srt_rec(uint32_t qpn, uint64_t wr_id, uint32_t len, uint32_t first_psn, uint32_t last_psn, uint32_t flags,
	     uint32_t wc_op, uint32_t idx, uint32_t cqn);
/* The last QUERY / FIND answer's record (srt_sync, srt_find): the QP's oldest outstanding WQE,
 * or the one holding a PSN. */
struct srt_head {
	uint32_t first, last, idx, barrier;
};
extern struct srt_head srt_hd;

/* QUERY: run->una from the engine, srt_hd its oldest record, the firmware's records of WQEs the
 * engine retired freed (their completions are the engine's), the retry counts restarted when
 * una moved (progress). 1: the engine holds records of the QP, 0: none, -1: the engine did not
 * answer. */
int srt_sync(uint32_t qpn);
/* srt_sync of every engine QP holding firmware records (the firmware's record pool ran out). */
void srt_sweep(void);
/* Where a go-back-N resend from psn starts, into srt_hd: the engine's record holding psn (FIND),
 * or the oldest when psn is before it. 1 found, 0 none (psn past everything outstanding), -1 the
 * engine did not answer. */
int srt_find(uint32_t qpn, uint32_t psn);
/* The QP's oldest WQE fails with status (HALT, QUERY, POP): its CQE is the engine's. */
void srt_fail_head(uint32_t qpn, uint32_t status);
/* The move to ERR: every record completes with WR_FLUSH_ERR through the engine (FLUSH, waited
 * for, so that the unsent WQEs' flush comes after), the firmware's records freed, sq_next past
 * every WQE the engine held. */
void srt_flush(uint32_t qpn);
/* SR_BARRIER / SR_RESP_ERR events. */
void fw_sq_srt_event(uint32_t qpn, uint32_t kind, uint32_t psn, uint32_t status);

#endif /* FW_SQ_SRT_H */
