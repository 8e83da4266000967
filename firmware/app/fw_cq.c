/* Completion queues: CQEs written to the host ring by DMA, owner bit flipping every pass. */
#include "fw_dma.h"
#include "fw_log.h"
#include "fw_res.h"
#include "fw_xport.h"

#define BUF_CQE 0xC00u /* staging-buffer slot for one CQE */

int fw_cqe_write(uint32_t cqn, const uint8_t *cqe)
{
	struct fw_cq *cq;
	uint8_t c[RNIC_CQE_SIZE];

	if (cqn == 0 || cqn >= FW_MAX_CQ || !fw_res.cqs[cqn].used)
		return -1;
	cq = &fw_res.cqs[cqn];
	for (uint32_t i = 0; i < RNIC_CQE_SIZE; i++)
		c[i] = cqe[i];
	/* The first pass over the ring writes owner 1, the next 0, and so on. */
	rnic_cqe_set_owner(c, ((cq->pi >> cq->log_size) & 1u) ^ 1u);
	fw_buf_write(BUF_CQE, c, RNIC_CQE_SIZE);
	uint64_t addr = cq->buf_addr + (uint64_t)(cq->pi & ((1u << cq->log_size) - 1)) * RNIC_CQE_SIZE;
	if (fw_dma_xfer(addr, BUF_CQE, RNIC_CQE_SIZE, FW_DMA_TO_HOST)) {
		fw_log("cq %u: CQE write failed", (unsigned)cqn);
		return -1;
	}
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
