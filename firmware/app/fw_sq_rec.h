/* Send queues, send records (fw_sq_rec.c): struct fw_swqe per WQE handed to the transmit
 * engine (for a QP on the send-retirement engine only the WQEs send_one sends: rec_srt writes the
 * engine's record alone for send_fast's), the per-QP in-order list, READ/atomic response
 * contexts, completions of a record. */
#ifndef FW_SQ_REC_H
#define FW_SQ_REC_H

#include <stdint.h>

#include "fw_res.h"

/* a QP held a READ/atomic back for want of a response context (cleared when one frees) */
extern uint32_t rd_waiting;

/* A free record (opcode 0xFF: not counted until sent), -1 when none. */
int16_t swqe_get(void);
/* Frees record i of qpn (a READ or atomic that went out frees its response context too). */
void swqe_put(uint32_t qpn, int16_t i);
/* May one more READ / atomic of qpn go out now. */
int rd_room(uint32_t qpn);
uint32_t wc_opcode(uint32_t wqe_op);
/* The CQE of record w with status (none for an unsignaled success). */
void sq_complete(uint32_t qpn, const struct fw_swqe *w, uint32_t status);
/* Removes the oldest outstanding WQE of qpn and completes it with status. */
void retire_head(uint32_t qpn, uint32_t status);
/* The oldest outstanding WQE of qpn, if any, fails with status (retire_head, or the send-retirement
 * engine's POP for its QPs). */
void sq_fail_head(uint32_t qpn, uint32_t status);
/* Fills record ri (wr_id, npkts packets from psn) and links it as the QP's newest. */
void rec_set(uint32_t qpn, int16_t ri, uint64_t wr_id, const uint8_t *c, uint32_t psn, uint32_t npkts,
	     uint32_t len, uint32_t idx, uint32_t op, uint32_t flags);
/* An engine QP's WQE sent whole by send_fast: the engine's record only (on its first send). */
void rec_srt(uint32_t qpn, uint64_t wr_id, uint8_t *c, uint32_t psn, uint32_t npkts, uint32_t len, uint32_t idx,
	     uint32_t op, uint32_t flags);
/* The same from WQE w. */
void rec_fill(uint32_t qpn, int16_t ri, const uint8_t *w, const uint8_t *c, uint32_t psn, uint32_t npkts,
	      uint32_t len, uint32_t idx, uint32_t op, uint32_t flags);

#endif /* FW_SQ_REC_H */
