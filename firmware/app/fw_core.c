/* The core's identity: mhartid and the core count (fw_core.h). */
#include "fw_core.h"

#include "hal.h"

uint32_t fw_core_id;
uint32_t fw_core_mask;

void fw_core_init(void)
{
	fw_core_id = hal_hart_id();
	fw_core_mask = (1u << rnic_hw_caps_v_log2_cores(hal_rd32(RNIC_FW_REG_HW_CAPS))) - 1u;
}
