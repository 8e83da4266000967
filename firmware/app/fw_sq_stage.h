/* Send queues, staging (fw_sq_stage.c): the WQEBBs of the WQE being sent, in the WQE fetch
 * engine's buffer or the doorbell BAR's BlueFlame capture, both read with one-cycle loads. */
#ifndef FW_SQ_STAGE_H
#define FW_SQ_STAGE_H

#include <stdint.h>

#include "fw_wqf.h"

#define HALF_BBS (FW_WQF_BBS / 2u) /* one fetch batch; the buffer holds two */

extern uint32_t st_n;     /* WQEBBs staged (from the fetch buffer or the capture) */
extern uint8_t st_bf;     /* the staged WQEBBs are the BlueFlame capture */
extern int bf_seq;        /* the bf_db being served (its bf_seq), -1: none */
extern uint32_t st_bf_seq; /* the bf_seq of the doorbell whose capture is staged (st_bf) */
/* The QP whose last service pass was cut at SQ_PASS_MAX WQEs (0: none): its next pass, if no
 * other pass ran in between, keeps the staged WQEBBs and the prefetch. */
extern uint32_t sq_cont;

/* SQ indices [st_first, st_first + st_n) are staged from slot st_slot on: in the fetch buffer, the
 * BlueFlame capture (st_bf) or the engine's doorbell region (st_db, a record of a doorbell-started
 * fetch). */
extern uint32_t st_first, st_slot;
extern uint8_t st_db;
/* Where the staged WQEBBs lie, whichever region holds them: WQEBB st_first + rel (rel < st_n) at
 * st_base + ((st_slot + rel) & st_mask) * 64 (the regions are rings of a power of two slots; the
 * capture is slot 0 on). Set with the stage (stage_at), so a staged hit is one expression. */
extern uint32_t st_base, st_mask;

void stage_empty(void);
/* At the start of a service pass: the prefetch is forgotten and nothing stays staged, except
 * the engine's record (st_db), which is read again (and may have grown) at the next miss. */
void stage_pass_start(void);
/* The staged WQEBBs are the engine's doorbell record and idx is past them: the record is removed
 * (its doorbell-region slots are free for the engine's next fetch). */
void stage_db_used(uint32_t idx);
int32_t sq_stage_miss(const uint8_t *c, uint32_t idx);
/* The tightly coupled address of WQEBB idx of the QP with context c, fetching it (and what the
 * host announced after it) when it is not staged; -1 on a DMA failure. Inline: most calls find
 * the WQEBB staged, and then cost a few instructions, no call. */
static inline int32_t sq_stage(const uint8_t *c, uint32_t idx)
{
	uint32_t rel = (idx - st_first) & 0xFFFFu; /* SQ indices are 16 bits */
	if (rel < st_n)
		return (int32_t)(st_base + ((st_slot + rel) & st_mask) * RNIC_WQEBB_BYTES);
	return sq_stage_miss(c, idx);
}
/* Copies the staged WQEBB at tightly coupled address b to w (64 bytes). */
void stage_read(int32_t b, uint8_t *w);
/* A bf_db's pass: the capture staged for the WQE at idx before it is asked for, as sq_stage_miss
 * would at the first WQE (bf_seq taken; a capture that does not name it counted a miss, the
 * WQE then read from the ring): the miss path's call and checks are off the BlueFlame WQE's
 * latency. */
void stage_bf_pass(const uint8_t *c, uint32_t idx);
/* After reading a WQE from the capture: was it still this doorbell's the whole time? */
int stage_bf_held(const uint8_t *c);
/* Forgets the capture: the WQE is read again, from the ring. */
void stage_bf_drop(void);
/* The host bus address of WQEBB idx of the SQ with context c. */
uint64_t wqebb_addr(const uint8_t *c, uint32_t idx);

#endif /* FW_SQ_STAGE_H */
