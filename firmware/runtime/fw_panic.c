#include "fw_panic.h"

#include "fw_log.h"
#include "hal.h"

void fw_panic_record(uint32_t mcause, uint32_t mepc, uint32_t mtval)
{
	hal_wr32(RNIC_FW_REG_PANIC_MCAUSE, mcause);
	hal_wr32(RNIC_FW_REG_PANIC_MEPC, mepc);
	hal_wr32(RNIC_FW_REG_PANIC_MTVAL, mtval); /* last: raises the panic status */
	hal_wr32(RNIC_FW_REG_FW_STATUS, RNIC_FW_STATUS_PANIC);
	fw_log("panic mcause %08x mepc %08x mtval %08x", (unsigned)mcause, (unsigned)mepc, (unsigned)mtval);
}

/* The application may tell the host through its event queue (fw_eq.c); the runtime alone
 * cannot. Best effort: the RTL reports the panic in ctrl.dev_err whatever happens here. */
__attribute__((weak)) void fw_panic_notify(uint32_t mcause, uint32_t mepc, uint32_t mtval)
{
	(void)mcause, (void)mepc, (void)mtval;
}

#ifndef MOCK_MMIO
/* Called from the trap vector in crt0 for any trap the firmware does not expect. */
void fw_trap_handler(uint32_t mcause, uint32_t mepc, uint32_t mtval)
{
	static volatile uint32_t depth;

	if (depth++) /* a trap inside the panic path: stop here, the record of the first stays */
		for (;;)
			;
	fw_panic_record(mcause, mepc, mtval);
	fw_panic_notify(mcause, mepc, mtval);
	for (;;)
		; /* the heartbeat stops: the host watchdog sees it */
}
#endif
