/* The event queue: entries written to the host ring by DMA (owner bit per pass), then a notify
 * that becomes an MSI-X when the host has armed the EQ. */
#include "fw_dma.h"
#include "fw_log.h"
#include "fw_panic.h"
#include "fw_xport.h"
#include "hal.h"

#define BUF_EQE 0xC40u /* staging-buffer slot for one event */

static uint32_t eq_prod;

void fw_eq_init(void)
{
	eq_prod = hal_rd32(RNIC_FW_REG_EQ_PROD);
	fw_cqw_init();
}

int fw_eq_post(uint32_t type, uint32_t subtype, uint32_t handle, uint32_t data)
{
	uint32_t log = hal_rd32(RNIC_FW_REG_EQ_LOG_SIZE);
	FW_LAYOUT_ALIGN uint8_t ev[RNIC_EQ_ENTRY_SIZE] = { 0 };

	if (log == 0 || log > 16)
		return -1; /* the host has no event queue */
	uint64_t base = ((uint64_t)hal_rd32(RNIC_FW_REG_EQ_BASE_HI) << 32) | hal_rd32(RNIC_FW_REG_EQ_BASE_LO);
	rnic_eq_entry_set_event_type(ev, type);
	rnic_eq_entry_set_subtype(ev, subtype);
	rnic_eq_entry_set_handle(ev, handle);
	rnic_eq_entry_set_data(ev, data);
	rnic_eq_entry_set_owner(ev, ((eq_prod >> log) & 1u) ^ 1u);
	fw_buf_write(BUF_EQE, ev, RNIC_EQ_ENTRY_SIZE);
	if (fw_dma_xfer(base + (uint64_t)(eq_prod & ((1u << log) - 1)) * RNIC_EQ_ENTRY_SIZE, BUF_EQE,
			RNIC_EQ_ENTRY_SIZE, FW_DMA_TO_HOST)) {
		/* The event cannot reach the host: say so where no event is needed (ctrl.dev_err,
		 * sticky, with its own MSI-X). eq_prod stays: the next event takes the same slot. */
		fw_log("eq: event write failed");
		hal_wr32(RNIC_FW_REG_DEV_ERR_SET, 1u << RNIC_DEV_ERR_BIT_EQ_WRITE);
		return -1;
	}
	eq_prod++;
	hal_wr32(RNIC_FW_REG_EQ_PROD, eq_prod);
	hal_wr32(RNIC_FW_REG_EQ_NOTIFY, 1);
	return 0;
}

/* From the trap handler of a panicked core: the EQ is used once more if it can be (the DMA
 * waits are bounded, so this cannot hang); ctrl.dev_err FW_PANIC and its MSI-X, set by the RTL,
 * are the report that does not depend on it. */
void fw_panic_notify(uint32_t mcause, uint32_t mepc, uint32_t mtval)
{
	fw_eq_post(RNIC_EQ_TYPE_FW_PANIC, mcause & 0xFFu, mepc, mtval);
}
