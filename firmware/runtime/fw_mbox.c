#include "fw_mbox.h"

#include "hal.h"

#define MBOX_POLL_LIMIT 100000u

/* One sender for both kinds of mailbox, given the window's accessors (constants after inlining,
 * so each caller below compiles to direct MMIO or tightly coupled loads and stores). */
static inline __attribute__((always_inline)) int mbox_send(uint32_t (*rd)(uint32_t), void (*wr)(uint32_t, uint32_t),
							    uint32_t data_off, uint32_t commit_off, uint32_t status_off,
							    const uint8_t *data, uint32_t words, uint32_t arg)
{
	uint32_t i = 0;

	while (rnic_mbox_status_v_busy(rd(status_off)))
		if (++i == MBOX_POLL_LIMIT)
			return -1;
	data = (const uint8_t *)RNIC_ASSUME_ALIGNED(data, 4); /* a layout buffer */
	for (uint32_t w = 0; w < words; w++)
		wr(data_off + 4 * w, rnic_ld_le32(data + 4 * w));
	wr(commit_off, arg);
	return 0;
}

int fw_mbox_send(uint32_t data_off, uint32_t commit_off, uint32_t status_off, const uint8_t *data,
		 uint32_t words, uint32_t arg)
{
	return mbox_send(hal_rd32, hal_wr32, data_off, commit_off, status_off, data, words, arg);
}

int fw_tc_mbox_send(uint32_t data_off, uint32_t commit_off, uint32_t status_off, const uint8_t *data,
		    uint32_t words, uint32_t arg)
{
	return mbox_send(hal_tc_rd32, hal_tc_wr32, data_off, commit_off, status_off, data, words, arg);
}

int fw_mkey_write(uint32_t op, uint32_t index, const uint8_t *data)
{
	uint32_t words = op == RNIC_MKEY_WR_OP_WR_MTT ? RNIC_MTT_ENTRY_SIZE / 4 : RNIC_MPT_ENTRY_SIZE / 4;
	return fw_mbox_send(RNIC_FW_REG_MKEY_DATA, RNIC_FW_REG_MKEY_COMMIT, RNIC_FW_REG_MKEY_STATUS, data, words,
			    (op << 30) | (index & 0x3FFFFFFFu));
}
