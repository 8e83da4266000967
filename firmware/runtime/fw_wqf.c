#include "fw_wqf.h"

#include "fw_log.h"
#include "hal.h"

#define WQF_POLL_LIMIT 1000000u /* ~ms of core time: a fetch that takes longer is an error */

static uint32_t wqf_issued; /* commands issued (its low byte is the next command's tag) */
static uint32_t wqf_errs;   /* wqf_status.errors when last looked at */
/* The engine is not reset with the soft core (a reloaded image finds its counts where the last
 * one left them, commands perhaps still in flight): the counts are taken from it at first use. */
static uint8_t wqf_synced, wqf_hi_set;
static uint32_t wqf_done; /* commands known complete */
static uint32_t wqf_hi;   /* what wqf_addr_hi holds */

static uint32_t wqf_status(void)
{
	return hal_tc_rd32(RNIC_FW_TC_WQF_STATUS);
}

uint32_t fw_wqf_issue(uint64_t addr, uint32_t bbs, uint32_t slot)
{
	FW_LAYOUT_ALIGN uint8_t s[4];
	if (!wqf_synced) {
		rnic_st_le32(s, wqf_status());
		wqf_issued = rnic_wqf_status_get_done(s) + rnic_wqf_status_get_queued(s);
		wqf_done = wqf_issued - rnic_wqf_status_get_queued(s);
		wqf_errs = rnic_wqf_status_get_errors(s);
		wqf_synced = 1;
	}
	/* the queue has room unless wqf_cmd_num were issued since the last done count seen */
	for (uint32_t i = 0; i < WQF_POLL_LIMIT && ((wqf_issued - wqf_done) & 0xFFu) >= RNIC_FW_TC_WQF_CMD_NUM; i++) {
		rnic_st_le32(s, wqf_status());
		wqf_done = wqf_issued - rnic_wqf_status_get_queued(s);
	}
	hal_tc_wr32(RNIC_FW_TC_WQF_ADDR_LO, (uint32_t)addr);
	if (wqf_hi != (uint32_t)(addr >> 32) || !wqf_hi_set) /* it keeps its value: stored when it changes */
		hal_tc_wr32(RNIC_FW_TC_WQF_ADDR_HI, wqf_hi = (uint32_t)(addr >> 32)), wqf_hi_set = 1;
	hal_tc_wr32(RNIC_FW_TC_WQF_CMD, bbs << (8 * RNIC_WQF_CMD_BBS_OFF) | (slot % FW_WQF_BBS) << (8 * RNIC_WQF_CMD_SLOT_OFF) |
						(wqf_issued & 0xFFu) << (8 * RNIC_WQF_CMD_TAG_OFF));
	return wqf_issued++;
}

/* Polls wqf_status until command last has completed (into s); 0, or -1 after WQF_POLL_LIMIT. */
static int wqf_poll(uint32_t last, uint8_t *s)
{
	for (uint32_t i = 0; i < WQF_POLL_LIMIT; i++) {
		rnic_st_le32(s, wqf_status());
		/* done counts commands mod 256: last is in when done is at most 127 past it */
		if (((rnic_wqf_status_get_done(s) - (last + 1u)) & 0xFFu) < 0x80u) {
			wqf_done = last + 1u;
			return 0;
		}
	}
	return -1;
}

int fw_wqf_wait(uint32_t first, uint32_t last)
{
	FW_LAYOUT_ALIGN uint8_t s[4];
	if (wqf_poll(last, s)) {
		fw_log("wqf: fetch %u never completed", (unsigned)last);
		return -1;
	}
	/* errors moved: the latest failed command is err_tag, one of ours if in range; with more
	 * than one new error it cannot be told which, so ours count as failed */
	uint32_t errs = rnic_wqf_status_get_errors(s), n = (errs - wqf_errs) & 0xFFu;
	wqf_errs = errs;
	if (n == 0)
		return 0;
	uint32_t tag = rnic_wqf_status_get_err_tag(s);
	if (n > 1 || ((tag - first) & 0xFFu) <= ((last - first) & 0xFFu)) {
		fw_log("wqf: fetch %u..%u: bus error", (unsigned)first, (unsigned)last);
		return -1;
	}
	return 0;
}
