/* The event queue: the CQE writer (rtl/cqe_write) writes every EQ entry (owner bit per pass,
 * producer in eq.eq_prod) and raises the notify that becomes an MSI-X when the host armed the
 * EQ; the firmware hands its events to it as records (fw_eqw_post, fw_cq.c), so an event never
 * overtakes a CQE handed before it. A write the bus refuses sets ctrl.dev_err EQ_WRITE (RTL); the
 * next event takes the same slot. */
#include "fw_panic.h"
#include "fw_xport.h"
#include "hal.h"

void fw_eq_init(void) { fw_cqw_init(); }

int fw_eq_post(uint32_t type, uint32_t subtype, uint32_t handle, uint32_t data)
{
	return fw_eqw_post(type, subtype, handle, data, 0);
}

/* From the trap handler of a panicked core: the EQ is used once more if it can be (the slot
 * wait is bounded and answers no hold, so this cannot hang); ctrl.dev_err FW_PANIC and its
 * MSI-X, set by the RTL, are the report that does not depend on it. */
void fw_panic_notify(uint32_t mcause, uint32_t mepc, uint32_t mtval)
{
	fw_eqw_post(RNIC_EQ_TYPE_FW_PANIC, mcause & 0xFFu, mepc, mtval, 1);
}
