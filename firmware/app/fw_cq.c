/* Completion queues: CQEs written to the host ring by DMA, owner bit flipping every pass. */
#include "fw_dma.h"
#include "fw_log.h"
#include "fw_res.h"
#include "fw_xport.h"

#define BUF_CQE 0xC00u /* staging-buffer slot for one CQE */

int fw_cqe_write(uint32_t cqn, const uint8_t *cqe)
{
	struct fw_cq *cq;
	FW_LAYOUT_ALIGN uint8_t c[RNIC_CQE_SIZE];

	if (cqn == 0 || cqn >= FW_MAX_CQ || !fw_res.cqs[cqn].used)
		return -1;
	cq = &fw_res.cqs[cqn];
	for (uint32_t i = 0; i < RNIC_CQE_SIZE; i += 4)
		rnic_st_le32(c + i, rnic_ld_le32(RNIC_ASSUME_ALIGNED(cqe + i, 4)));
	/* The first pass over the ring writes owner 1, the next 0, and so on. */
	rnic_cqe_set_owner(c, ((cq->pi >> cq->log_size) & 1u) ^ 1u);
	/* The slot is free once the previous posted write (maybe a CQE) has read it. The write
	 * is posted: the firmware goes on while it travels; later DMA writes stay behind it. */
	fw_dma_wait();
	fw_buf_write(BUF_CQE, c, RNIC_CQE_SIZE);
	uint64_t addr = cq->buf_addr + (uint64_t)(cq->pi & ((1u << cq->log_size) - 1)) * RNIC_CQE_SIZE;
	fw_dma_post(addr, BUF_CQE, RNIC_CQE_SIZE);
	cq->pi++;
	fw_perf.cqes++;
	/* An armed CQ gives one completion event: for any CQE, or (solicited arming) for a
	 * solicited or failed one. */
	if (cq->armed == FW_CQ_ARM_ANY ||
	    (cq->armed == FW_CQ_ARM_SOLICITED && ((rnic_cqe_get_flags(c) & (1u << RNIC_CQE_FLAG_SOLICITED)) ||
						  rnic_cqe_get_status(c) != RNIC_WC_STATUS_SUCCESS))) {
		cq->armed = 0;
		fw_eq_post(RNIC_EQ_TYPE_COMPLETION, 0, cqn, 0);
	}
	return 0;
}
