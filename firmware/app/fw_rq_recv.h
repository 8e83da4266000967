/* The receive event's common case, inlined into the event ring's loop (fw_db.c fw_xport_poll):
 * RECV_DONE / WRITE_IMM_DONE of a QP the receive feed's engine feeds. Its whole work is the grant
 * store and the receive CQE's record, stored straight from the event's words; everything else
 * (a QP the firmware feeds, a QP in ERR) goes to fw_rq_done_slow (fw_rq.c).
 * docs/firmware.md "rxfw (session 29)". */
#ifndef FW_RQ_RECV_H
#define FW_RQ_RECV_H

#include <stdint.h>

#include "fw_cq_rec.h"
#include "fw_res.h"
#include "fw_rq_grant.h"
#include "fw_xport.h"
#include "hal.h"

static inline int fw_rq_recv_kind(uint32_t kind)
{
	return kind == RNIC_RX_EVENT_KIND_RECV_DONE || kind == RNIC_RX_EVENT_KIND_WRITE_IMM_DONE;
}

/* The RECV_DONE path of a QP the firmware feeds, of a QP in ERR, and of an event not read from
 * the ring (fw_rx_event): fw_rq.c. */
void fw_rq_done_slow(uint32_t qpn, uint32_t kind, const uint8_t *ev);

/* The cqe_flag bits and the status come from the event's first word as they lie: status | flags
 * << 16 is that word shifted by 8 with the syndrome masked out (the record's byte 1 is the
 * opcode). */
_Static_assert(RNIC_RX_EVENT_KIND_OFF == 0 && RNIC_RX_EVENT_STATUS_OFF == 1 && RNIC_RX_EVENT_SYNDROME_OFF == 2 &&
		       RNIC_RX_EVENT_FLAGS_OFF == 3 && RNIC_CQE_STATUS_OFF == 24 && RNIC_CQE_OPCODE_OFF == 25 &&
		       RNIC_CQE_FLAGS_OFF == 26,
	       "rx_event word 0 = kind, status, syndrome, flags; cq_rec word 6 = status, opcode, flags");
_Static_assert(RNIC_RX_EVENT_KIND_WRITE_IMM_DONE - RNIC_RX_EVENT_KIND_RECV_DONE ==
		       RNIC_WC_OPCODE_RECV_RDMA_WITH_IMM - RNIC_WC_OPCODE_RECV,
	       "the receive kinds and their CQE opcodes in the same order, one apart");

/* ev: the event in ring slot cons; the ring holds the events up to prod (not included). */
static inline __attribute__((always_inline)) void fw_rq_recv(uint32_t qpn, uint32_t kind, const uint8_t *ev,
							     uint32_t cons, uint32_t prod)
{
	uint8_t *c = fw_res.qp_ctx[qpn];
	if (__builtin_expect(!fw_res.qp_run[qpn].rqg || rnic_qp_ctx_get_state(c) == RNIC_QP_STATE_ERR, 0)) {
		fw_rq_done_slow(qpn, kind, ev);
		return;
	}
	uint32_t ci = rnic_qp_ctx_get_rq_ci(c);
	/* The grant first (the engine's refill fetch starts earlier), once per run of this QP's
	 * receive events in the ring: it counts them and grants past all of them at once. */
	fw_rqg_recv(qpn, ci, cons, prod);
	uint32_t w0 = rnic_ld_le32(ev);
	/* (the opcode from the kind with no branch: the static assertion above) */
	uint32_t w6 = ((w0 >> 8) & 0x00FF00FFu) | (RNIC_WC_OPCODE_RECV + kind - RNIC_RX_EVENT_KIND_RECV_DONE) << 8;
	uint32_t w7 = FW_CQ_REC_W7(rnic_qp_ctx_get_recv_cqn(c), ci);
	uint64_t wr_id = rnic_rx_event_get_wr_id(ev);
	uint32_t len = rnic_rx_event_get_byte_len(ev), imm = rnic_rx_event_get_imm_data(ev);
	uint32_t src = rnic_rx_event_get_src_qpn(ev);
	if (__builtin_expect(fw_cq_rec_free() != 0, 1))
		fw_cq_rec_store(w7, wr_id, len, imm, qpn, src, w6);
	else
		fw_cqe_put(w7, wr_id, len, imm, qpn, src, w6);
	rnic_qp_ctx_set_rq_ci(c, (uint16_t)(ci + 1));
}

#endif /* FW_RQ_RECV_H */
