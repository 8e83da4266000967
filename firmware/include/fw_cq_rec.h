/* The CQE writer's record ring (fw_cq.c owns it) as the per-WQE paths use it: inline, so a loop
 * that completes several WQEs stores their records with no call and checks the CQ and the free
 * slots once (fw_sq_ack.c retire_fast). Everything else goes through fw_cqe_put. */
#ifndef FW_CQ_REC_H
#define FW_CQ_REC_H

#include <stdint.h>

#include "fw_res.h"
#include "fw_xport.h"
#include "hal.h"
#include "rnic_spec.h"

extern uint32_t fw_cqw_prod; /* records handed over, free-running like the writer's counters */
/* Record slots known to be free: a lower bound (the writer only frees more), counted down by
 * each store and read again from the writer only when it reaches 0, so a record costs no load
 * of cqw_cons while the ring has room (every store goes through fw_cq_rec_store). */
extern uint32_t fw_cqw_free;
#define FW_CQW_MASK ((1u << RNIC_CQW_COUNT_BITS) - 1u)

/* Records the writer has taken (written, or dropped for a CQ in error). */
static inline uint32_t fw_cqw_done(void) { return hal_tc_rd32(RNIC_FW_TC_CQW_CONS) & FW_CQW_MASK; }

/* Free record slots for a CQ known to be ours (a QP's recv_cqn: CREATE_QP checked it and
 * DESTROY_CQ refuses a CQ a QP still names), with no check of the CQ. */
static inline uint32_t fw_cq_rec_free(void)
{
	if (fw_cqw_free == 0)
		fw_cqw_free = RNIC_FW_TC_CQ_REC_NUM - ((fw_cqw_prod - fw_cqw_done()) & FW_CQW_MASK);
	return fw_cqw_free;
}

/* Free record slots, when cqn is a CQ of ours (the writer decides room, error and arming per
 * record); 0 otherwise, so that the caller takes fw_cqe_put, which handles both. */
static inline uint32_t fw_cq_rec_room(uint32_t cqn)
{
	if (cqn == 0 || cqn >= FW_MAX_CQ || !fw_res.cqs[cqn].used)
		return 0;
	return fw_cq_rec_free();
}

/* One record (fw_cqe_put's words) into the next slot, then the producer: eight one-cycle stores,
 * no copy. The caller has seen a free slot (fw_cq_rec_room, or cqw_wait_slot: fw_cqw_free > 0). */
static inline void fw_cq_rec_store(uint32_t w7, uint64_t wr_id, uint32_t byte_len, uint32_t imm, uint32_t qpn,
				   uint32_t src_qp, uint32_t w6)
{
	uint32_t slot = RNIC_FW_TC_CQ_REC_BASE + (fw_cqw_prod % RNIC_FW_TC_CQ_REC_NUM) * RNIC_CQ_REC_SIZE;
	hal_tc_wr32_at(slot, 0, (uint32_t)wr_id);
	hal_tc_wr32_at(slot, 1, (uint32_t)(wr_id >> 32));
	hal_tc_wr32_at(slot, 2, byte_len);
	hal_tc_wr32_at(slot, 3, imm);
	hal_tc_wr32_at(slot, 4, qpn);
	hal_tc_wr32_at(slot, 5, src_qp);
	hal_tc_wr32_at(slot, 6, w6);
	hal_tc_wr32_at(slot, 7, w7);
	fw_cqw_prod = (fw_cqw_prod + 1) & FW_CQW_MASK;
	fw_cqw_free--;
	hal_tc_wr32(RNIC_FW_TC_CQW_PROD, fw_cqw_prod);
	fw_perf.cqes++;
}

#endif /* FW_CQ_REC_H */
