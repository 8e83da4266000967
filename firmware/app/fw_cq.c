/* Completion queues: CQEs written to the host ring by DMA, owner bit flipping every pass. */
#include "fw_dma.h"
#include "fw_log.h"
#include "fw_res.h"
#include "fw_xport.h"

#define BUF_CQE 0xC00u   /* staging-buffer slot for one CQE */
#define BUF_DBREC 0xCC0u /* staging-buffer slot for a CQ doorbell record */

/* Takes a consumer index the host reported; one that is behind what we know or ahead of the
 * producer is stale or bogus and ignored (the window is the ring, far below 2^31). */
static void cq_learn_ci(struct fw_cq *cq, uint32_t ci)
{
	if ((int32_t)(ci - cq->ci) > 0 && (int32_t)(cq->pi - ci) >= 0)
		cq->ci = ci;
}

void fw_cq_doorbell(uint32_t cqn, uint32_t index16)
{
	struct fw_cq *cq = &fw_res.cqs[cqn];
	cq_learn_ci(cq, cq->ci + (uint16_t)(index16 - cq->ci));
}

/* Is there room for one more CQE? The consumer index is read from the host's doorbell record
 * only when the ring looks full, so a consumer that keeps up costs no DMA. */
static int cq_room(struct fw_cq *cq)
{
	FW_LAYOUT_ALIGN uint8_t b[4];

	if (cq->pi - cq->ci < (1u << cq->log_size))
		return 1;
	fw_dma_wait(); /* the staging slot of a posted CQE write may still be read */
	if (fw_dma_xfer(cq->dbrec_addr, BUF_DBREC, 4, FW_DMA_TO_BUF))
		return 0;
	fw_buf_read(BUF_DBREC, b, 4);
	cq_learn_ci(cq, rnic_ld_le32(b));
	return cq->pi - cq->ci < (1u << cq->log_size);
}

int fw_cqe_write(uint32_t cqn, const uint8_t *cqe)
{
	struct fw_cq *cq;
	FW_LAYOUT_ALIGN uint8_t c[RNIC_CQE_SIZE];

	if (cqn == 0 || cqn >= FW_MAX_CQ || !fw_res.cqs[cqn].used)
		return -1;
	cq = &fw_res.cqs[cqn];
	/* Overrun (IBTA 10.10.2.3 / 11.6.3): the CQ goes to error and the host hears of it once
	 * by a CQ_ERROR event; the completion is lost, nothing in the ring is overwritten. */
	if (cq->overflow || !cq_room(cq)) {
		if (!cq->overflow) {
			cq->overflow = 1;
			fw_log("cq %u: overflow", (unsigned)cqn);
			fw_eq_post(RNIC_EQ_TYPE_CQ_ERROR, 0, cqn, 0);
		}
		cq->dropped++;
		return -1;
	}
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
