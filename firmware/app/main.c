/* NIC firmware entry: bring-up, then the service loop. */
#include "fw_arp.h"
#include "fw_cmd.h"
#include "fw_core.h"
#include "fw_log.h"
#include "fw_panic.h"
#include "fw_rq_grant.h"
#include "fw_xport.h"
#include "hal.h"

/* The image header: the loader fills sizes and the IMEM CRC after linking (firmware/tools). */
__attribute__((section(".fw_header"), used)) static const uint32_t fw_header[RNIC_FW_IMAGE_HDR_SIZE / 4] = {
	RNIC_FW_IMAGE_MAGIC, /* 'RNFW' */
	FW_VERSION,
};

int main(void)
{
	hal_wr32(RNIC_FW_REG_FW_STATUS, RNIC_FW_STATUS_BOOTING);
	fw_log_init();
	hal_wr32(RNIC_FW_REG_FW_VERSION, FW_VERSION);
	fw_core_init();
	fw_log("boot ok %u.%u core %u", FW_VERSION >> 16, FW_VERSION & 0xffffu, (unsigned)fw_core_id);
	fw_cmd_init();
	fw_xport_init();
	fw_eq_init();
	hal_wr32(RNIC_FW_REG_FW_STATUS, RNIC_FW_STATUS_READY);
#ifdef FW_TEST_TRAP
	/* Test image only: an illegal instruction must end in a panic record the host can read. */
	__asm__ volatile(".word 0");
#endif
	for (uint32_t beat = 1;; beat++) {
		fw_cmd_poll();
		fw_xport_poll();
		fw_timers_poll();
		if (fw_wqf_rqg)
			fw_rqg_poll(); /* the receive feed's stops (one load) */
		/* ARP can wait microseconds; the loop is latency for every doorbell and event, so the
		 * queue is looked at on one pass in 32 (make bench-rdma --quick, 8 B WRITE doorbell to remote
		 * memory: +128 ns polled on every pass, +16 ns on one in 32). */
		if ((beat & 31u) == 0)
			fw_arp_poll();
		hal_wr32(RNIC_FW_REG_HEARTBEAT, beat);
	}
}
