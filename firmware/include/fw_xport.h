/* The firmware's share of the data path, per WQE and per message: doorbells, WQE fetch,
 * transmit descriptors, receive buffers, receive events, completions. */
#ifndef FW_XPORT_H
#define FW_XPORT_H

#include <stdint.h>

#include "rnic_spec.h"

void fw_xport_init(void);
/* Takes up the receive-event ring (fw_tc evr_*) where the hardware's consumer count stands. */
void fw_events_init(void);
/* One doorbell (db_event word and the value the host wrote). */
void fw_doorbell(uint32_t ev, uint32_t value);
/* One receive event (spec layout rx_event). */
void fw_rx_event(const uint8_t *ev);
/* Drains the doorbell mailbox and the receive-event ring; returns how much it did. */
uint32_t fw_xport_poll(void);
/* Sends every WQE the host posted on qpn that is not yet with the transmit engine. When an
 * engine mailbox is busy or no send record is free it stops and marks the QP stalled. */
void fw_sq_service(uint32_t qpn);
/* Hands posted receive WQEs of qpn to the receive engine while it has free slots (marks the QP
 * stalled while the mailbox is busy). */
void fw_rq_service(uint32_t qpn);
/* An RQ doorbell of qpn was taken (rq_pi set): fw_rq_service, or nothing when the engine feeds it. */
void fw_rq_doorbell(uint32_t qpn);
/* A bf_db doorbell (BlueFlame) of qpn with its bf_seq: served like an SQ doorbell, the first
 * WQE taken from the capture when it still holds this doorbell's WQE. */
void fw_sq_bf_doorbell(uint32_t qpn, uint32_t seq);
/* Services the stalled QPs again (from the main loop, after the event ring was drained:
 * the receive engine takes buffers and READ destinations only between packets, so never
 * while it waits for the firmware to take an event; busy-waiting there would deadlock). */
void fw_sq_retry_stalled(void);
extern uint8_t fw_stalled_any;
extern uint8_t fw_sq_generic_only; /* tests: every WQE through the general path, not send_fast */
extern uint32_t fw_sq_fast_sent;   /* WQEs the common-case path (send_fast) handed over */ /* some QP has sq_stalled or rq_stalled set */
extern uint32_t fw_hw_caps; /* fw_mmio.hw_caps, read once by fw_xport_init */
/* Hands one CQE for cq to the CQE writer (spec layout cqe; the writer adds the owner bit, and
 * drops it when the CQ is in error). 0, or -1 (no such CQ, or the record ring stuck). */
int fw_cqe_write(uint32_t cqn, const uint8_t *cqe);
/* The same from the record's words (spec cq_rec = the cqe's bytes 0-29 and the CQN, as
 * little-endian words: w6 = status | opcode << 8 | flags << 16, vendor_err 0; w7 = wqe_index |
 * cqn << 16, FW_CQ_REC_W7), stored straight into the CQE writer's record slot: the per-WQE
 * completions use it, so no CQE is built in memory and copied, and its eight arguments stay in
 * registers. */
#define FW_CQ_REC_W7(cqn, wqe_index) (((wqe_index) & 0xFFFFu) | (uint32_t)(cqn) << 16)
int fw_cqe_put(uint32_t w7, uint64_t wr_id, uint32_t byte_len, uint32_t imm, uint32_t qpn, uint32_t src_qp,
	       uint32_t w6);
/* Waits (bounded) until the CQE writer has written (or dropped) every record handed to it, answering
 * its holds meanwhile: before a CQ's ring state is programmed or dropped. 0 or -1. */
int fw_cqw_drain(void);
/* Programs the CQE writer's ring state of CQ n (base, size, producer 0); drains first. */
void fw_cqw_program(uint32_t n, uint64_t buf, uint32_t log_size);
/* Looks at the CQE writer (cqw_status): a record held on a CQ that looks full is answered (the
 * doorbell record's consumer, or overrun: error and CQ_ERROR); CQE writes the bus failed put
 * their CQ in error with a CQ_ERROR event. One tightly coupled load when there is nothing;
 * called from fw_xport_poll and every wait on the writer. */
void fw_cqw_check(void);
/* A cq_db doorbell: the consumer index (low 16 bits) of an existing CQ. */
void fw_cq_doorbell(uint32_t cqn, uint32_t index16);
void fw_cq_arm(uint32_t cqn, int solicited);
/* Event queue: one event record to the CQE writer, which writes the eq_entry after the CQEs
 * handed before it and notifies (MSI-X if armed). 0 or -1 (no free record slot in time). */
void fw_eq_init(void);
/* The CQE writer's record count as the RTL holds it (called by fw_eq_init at boot). */
void fw_cqw_init(void);
int fw_eq_post(uint32_t type, uint32_t subtype, uint32_t handle, uint32_t data);
/* An event record to the CQE writer's EQ path; panicking: from the trap handler (no hold answered). */
int fw_eqw_post(uint32_t type, uint32_t subtype, uint32_t handle, uint32_t data, int panicking);
/* DESTROY_CQ: drop what is queued for CQ n, then drain. */
void fw_cqw_retire(uint32_t n);
/* Expired ACK timers (resend or RETRY_EXC_ERR) and RNR waits; cheap when none is due. */
void fw_timers_poll(void);
/* Moves a QP to ERR (the RTL's QP-table entry too, which stops its traffic and empties its
 * receive-buffer slot): outstanding and posted send WQEs and every posted receive WQE complete
 * with WR_FLUSH_ERR, in order. */
void fw_qp_to_err(uint32_t qpn);
/* The same move made by the NIC because of an error (status: its wc_status, side: eq_qp_side):
 * one QP_FATAL event when the QP was not in ERR yet. */
void fw_qp_fatal(uint32_t qpn, uint32_t status, uint32_t side);
/* READ / atomic response contexts held by the requesters (QUERY_RESOURCES). */
uint32_t fw_sq_rd_outstanding(void);
/* Gives the WQE fetch engine the SQ's ring state when the QP is in RTS (its doorbells then start
 * the fetch of the WQEBBs they announce), takes it back otherwise (with every record it made);
 * called whenever the QP-table entry is written. */
void fw_sq_ring_program(uint32_t qpn);
/* Forgets the QP's outstanding send WQEs without completions (destroy, RESET). */
void fw_sq_release(uint32_t qpn);
/* A RESP_ERROR event: the responder's QP goes to ERR (the consumed buffer, if any, completes
 * with the event's status). */
void fw_rq_resp_error(const uint8_t *ev);
/* A RECV_DONE / WRITE_IMM_DONE event: the receive CQE, the slot refilled (fw_rq.c). */
void fw_rq_done(const uint8_t *ev);
/* An atomic request event: executed (or replayed from the QP's history) and answered
 * (fw_atomic.c); fw_atomic_reset forgets the QP's history. */
void fw_atomic_req(const uint8_t *ev);
void fw_atomic_reset(uint32_t qpn);
/* Posted receive WQEs of a QP in ERR complete with WR_FLUSH_ERR. */
void fw_rq_flush(uint32_t qpn);
/* The QP's ring starts over (RESET) or goes away (DESTROY): RQ WQEs staged ahead are forgotten. */
void fw_rq_release(uint32_t qpn);
/* The WQE fetch engine's ring state of qpn's RQ (rq_db-started fetches): enabled while the QP is
 * between INIT and SQE with WQEs of 64 to 512 bytes on a 64-byte aligned ring, else off (its
 * records then go). From every QP-table programming, as fw_sq_ring_program. */
void fw_rq_ring_program(uint32_t qpn);
/* Writes the RTL's QP-table entry from the context (invalid in RESET). 0 or -1. */
int fw_qpt_program(uint32_t qpn);

/* Data-path counters, read by the host with QUERY_COUNTERS (spec cmd_query_counters): what the
 * firmware costs per WQE, counted in mcycle from the start. */
struct fw_perf {
	uint64_t db_cycles, ev_cycles;
	uint32_t sq_wqes, cqes, doorbells, events, db_max, ev_max;
	uint32_t bf_wqes, bf_misses; /* WQEs taken from the BlueFlame capture; bf_db that read the ring */
};
extern struct fw_perf fw_perf;

#endif /* FW_XPORT_H */
