/* Send queues, what the six job files (fw_sq_stage.c, fw_sq_desc.c, fw_sq_rec.c, fw_sq_ack.c,
 * fw_sq_timer.c, fw_sq_flush.c) share: constants and the small helpers every one of them uses,
 * inline so that the split into files costs no call. Not for the rest of the firmware (its
 * interface is fw_xport.h). */
#ifndef FW_SQ_PRIV_H
#define FW_SQ_PRIV_H

#include <stdint.h>

#include "fw_res.h"
#include "fw_xport.h"
#include "hal.h"
#include "rnic_spec.h"

#define WQEBB RNIC_WQEBB_BYTES
#define PSN_MASK 0xFFFFFFu
/* A SEND or WRITE longer than SEG_PKTS packets goes out in descriptors of SEG_PKTS packets (tx_flag
 * CONT / MORE), the last packet of each with AckReq, and at most WIN_PKTS packets beyond the
 * oldest unacknowledged PSN are sent. Go-back-N loses what was sent after a lost packet: the
 * window bounds that to about WIN_PKTS packets instead of the rest of the message, and a resend
 * starts at the PSN the NAK names (docs/firmware.md, retransmission). */
#define SEG_PKTS RNIC_TX_SEG_PKTS /* the transmit builder (rtl/tx_build) shares it */
#define WIN_PKTS 64u

/* a <= b in 24-bit PSN arithmetic */
static inline int psn_le(uint32_t a, uint32_t b) { return ((b - a) & PSN_MASK) < 0x800000u; }
static inline int psn_lt(uint32_t a, uint32_t b) { return a != b && psn_le(a, b); }
/* Is WQE index a before b in the SQ (16-bit ring counters, fewer than 2^15 WQEs apart)? */
static inline int idx_before(uint32_t a, uint32_t b) { return (uint16_t)(b - a - 1u) < 0x7FFFu; }

static inline uint8_t *ctx(uint32_t qpn) { return fw_res.qp_ctx[qpn]; }

static inline int is_rd_atomic(uint32_t op)
{
	return op == RNIC_WQE_OP_RDMA_READ || op == RNIC_WQE_OP_ATOMIC_CMP_AND_SWP ||
	       op == RNIC_WQE_OP_ATOMIC_FETCH_AND_ADD;
}

/* SENDs and WRITEs may be sent in pieces (segments, a resend from the middle). */
static inline int seg_op(uint32_t op)
{
	return op <= RNIC_WQE_OP_SEND_WITH_IMM; /* RDMA_WRITE(_WITH_IMM), SEND(_WITH_IMM) */
}

/* Did PSN p go out before (a descriptor holding it is a retransmission)? */
static inline int was_sent(const struct fw_qp_run *r, uint32_t p) { return r->hi_ok && psn_lt(p, r->hi_psn); }

#endif /* FW_SQ_PRIV_H */
