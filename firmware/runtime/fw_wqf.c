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
/* Commands (by tag) seen to fail and not yet waited for, and the done count up to which errors
 * were looked at: the send and receive sides wait for their own commands, so an error of one
 * side's command may be noticed while the other waits and must not be lost. */
static uint32_t wqf_bad[256 / 32];
static uint32_t wqf_nbad; /* bits set in wqf_bad: 0 on the fast path (no error pending) */
static uint32_t wqf_err_done;

/* Marks (v 1) or clears (v 0) the command with tag's failure; returns what it was. */
static uint32_t bad_set(uint32_t tag, uint32_t v)
{
	tag &= 0xFFu;
	uint32_t m = 1u << (tag % 32), was = (wqf_bad[tag / 32] & m) != 0;
	wqf_bad[tag / 32] = (wqf_bad[tag / 32] & ~m) | (v ? m : 0);
	wqf_nbad += v - was;
	return was;
}

static uint32_t wqf_status(void)
{
	return hal_tc_rd32(RNIC_FW_TC_WQF_STATUS);
}

static uint32_t wqf_issue(uint64_t addr, uint32_t cmd)
{
	FW_LAYOUT_ALIGN uint8_t s[4];
	if (!wqf_synced) {
		rnic_st_le32(s, wqf_status());
		wqf_issued = rnic_wqf_status_get_done(s) + rnic_wqf_status_get_queued(s);
		wqf_done = wqf_issued - rnic_wqf_status_get_queued(s);
		wqf_errs = rnic_wqf_status_get_errors(s);
		wqf_err_done = rnic_wqf_status_get_done(s);
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
	if (wqf_nbad)
		bad_set(wqf_issued, 0);
	hal_tc_wr32(RNIC_FW_TC_WQF_CMD, cmd | (wqf_issued & 0xFFu) << (8 * RNIC_WQF_CMD_TAG_OFF));
	return wqf_issued++;
}

uint32_t fw_wqf_issue(uint64_t addr, uint32_t bbs, uint32_t slot)
{
	return wqf_issue(addr, bbs << (8 * RNIC_WQF_CMD_BBS_OFF) | (slot % FW_WQF_BBS) << (8 * RNIC_WQF_CMD_SLOT_OFF));
}

uint32_t fw_wqf_issue_rq(uint64_t addr, uint32_t bbs, uint32_t slot)
{
	FW_LAYOUT_ALIGN uint8_t c[4] = { 0 };
	rnic_wqf_cmd_set_bbs(c, bbs);
	rnic_wqf_cmd_set_slot(c, slot % FW_WQF_RQ_BBS);
	rnic_wqf_cmd_set_rq(c, 1);
	return wqf_issue(addr, rnic_ld_le32(c));
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
	/* errors moved: the latest failed command is err_tag; with more than one new error it
	 * cannot be told which, so every command completed since the last look counts as failed */
	uint32_t errs = rnic_wqf_status_get_errors(s), n = (errs - wqf_errs) & 0xFFu;
	uint32_t done = rnic_wqf_status_get_done(s);
	if (n == 0 && wqf_nbad == 0) {
		wqf_err_done = done;
		return 0; /* no error anywhere: the usual case */
	}
	wqf_errs = errs;
	if (n == 1)
		bad_set(rnic_wqf_status_get_err_tag(s), 1);
	else if (n > 1)
		for (uint32_t t = wqf_err_done; (t & 0xFFu) != done; t++)
			bad_set(t, 1);
	wqf_err_done = done;
	uint32_t bad = 0;
	for (uint32_t t = first;; t++) {
		bad |= bad_set(t, 0);
		if (t == last)
			break;
	}
	if (bad) {
		fw_log("wqf: fetch %u..%u: bus error", (unsigned)first, (unsigned)last);
		return -1;
	}
	return 0;
}

/* ---- doorbell-started fetches */

/* A QP and a ring index in layout wqf_sq_qidx (wqf_sq_cfg/fidx, wqf_rq_cfg/fidx). */
static uint32_t qidx(uint32_t qpn, uint32_t idx)
{
	return rnic_wqf_sq_qidx_mk_qpn(qpn) | rnic_wqf_sq_qidx_mk_index(idx);
}

void fw_wqf_sq_fidx(uint32_t qpn, uint32_t fidx)
{
	hal_tc_wr32(RNIC_FW_TC_WQF_SQ_FIDX, qidx(qpn, fidx));
}

/* A ring's registers base_lo, base_hi, ring and cfg, one word apart for the SQ and the RQ alike,
 * written in that order (cfg last). */
#define WQF_RING_REGS_CONSECUTIVE(Q)                                                                   \
	(RNIC_FW_TC_WQF_##Q##_BASE_HI == RNIC_FW_TC_WQF_##Q##_BASE_LO + 4 &&                           \
	 RNIC_FW_TC_WQF_##Q##_RING == RNIC_FW_TC_WQF_##Q##_BASE_LO + 8 &&                              \
	 RNIC_FW_TC_WQF_##Q##_CFG == RNIC_FW_TC_WQF_##Q##_BASE_LO + 12)
_Static_assert(WQF_RING_REGS_CONSECUTIVE(SQ) && WQF_RING_REGS_CONSECUTIVE(RQ), "wqf ring registers consecutive");
static void ring_program(uint32_t base_lo, uint64_t base, uint32_t ring, uint32_t cfg)
{
	hal_tc_wr32(base_lo, (uint32_t)base);
	hal_tc_wr32(base_lo + 4, (uint32_t)(base >> 32));
	hal_tc_wr32(base_lo + 8, ring);
	hal_tc_wr32(base_lo + 12, cfg);
}

void fw_wqf_sq_program(uint32_t qpn, uint64_t base, uint32_t log_size, uint32_t page, int en, uint32_t fidx)
{
	FW_LAYOUT_ALIGN uint8_t g[4] = { 0 };
	rnic_wqf_sq_ring_set_page(g, page);
	rnic_wqf_sq_ring_set_log_size(g, log_size);
	rnic_wqf_sq_ring_set_en(g, en ? 1u : 0u);
	ring_program(RNIC_FW_TC_WQF_SQ_BASE_LO, base, rnic_ld_le32(g), qidx(qpn, fidx));
}

uint32_t fw_wqf_dbr_head(uint32_t *qidx)
{
	FW_LAYOUT_ALIGN uint8_t i[4];
	uint32_t v = hal_tc_rd32(RNIC_FW_TC_WQF_DBR_INFO);
	rnic_st_le32(i, v);
	if (!rnic_wqf_dbr_info_get_valid(i))
		return 0;
	*qidx = hal_tc_rd32(RNIC_FW_TC_WQF_DBR_QIDX);
	return v;
}

void fw_wqf_dbr_pop(void) { hal_tc_wr32(RNIC_FW_TC_WQF_DBR_POP, 0); }

int fw_wqf_dbr_wait(void)
{
	FW_LAYOUT_ALIGN uint8_t i[4];
	for (uint32_t n = 0; n < WQF_POLL_LIMIT; n++) {
		rnic_st_le32(i, hal_tc_rd32(RNIC_FW_TC_WQF_DBR_INFO));
		if (rnic_wqf_dbr_info_get_done(i))
			return rnic_wqf_dbr_info_get_err(i) ? -1 : 0;
	}
	fw_log("wqf: doorbell fetch never completed");
	return -1;
}

void fw_wqf_dbr_drop_all(void)
{
	FW_LAYOUT_ALIGN uint8_t i[4];
	for (uint32_t n = 0; n < RNIC_FW_TC_WQF_DB_NUM; n++) {
		rnic_st_le32(i, hal_tc_rd32(RNIC_FW_TC_WQF_DBR_INFO));
		if (!rnic_wqf_dbr_info_get_valid(i))
			return;
		fw_wqf_dbr_pop();
	}
}

void fw_wqf_rq_fidx(uint32_t qpn, uint32_t fidx)
{
	hal_tc_wr32(RNIC_FW_TC_WQF_RQ_FIDX, qidx(qpn, fidx));
}

void fw_wqf_rq_program(uint32_t qpn, uint64_t base, uint32_t log_size, uint32_t log_bbs, uint32_t page, int en,
		       uint32_t fidx)
{
	FW_LAYOUT_ALIGN uint8_t g[4] = { 0 };
	rnic_wqf_rq_ring_set_page(g, page);
	rnic_wqf_rq_ring_set_log_size(g, log_size);
	rnic_wqf_rq_ring_set_log_bbs(g, log_bbs);
	rnic_wqf_rq_ring_set_en(g, en ? 1u : 0u);
	ring_program(RNIC_FW_TC_WQF_RQ_BASE_LO, base, rnic_ld_le32(g), qidx(qpn, fidx));
}

uint32_t fw_wqf_rqr_head(uint32_t *qidx)
{
	uint32_t v = hal_tc_rd32(RNIC_FW_TC_WQF_RQR_INFO);
	if (!rnic_wqf_dbr_info_v_valid(v))
		return 0;
	*qidx = hal_tc_rd32(RNIC_FW_TC_WQF_RQR_QIDX);
	return v;
}

void fw_wqf_rqr_pop(void) { hal_tc_wr32(RNIC_FW_TC_WQF_RQR_POP, 0); }

int fw_wqf_rqr_wait(void)
{
	for (uint32_t n = 0; n < WQF_POLL_LIMIT; n++) {
		uint32_t v = hal_tc_rd32(RNIC_FW_TC_WQF_RQR_INFO);
		if (rnic_wqf_dbr_info_v_done(v))
			return rnic_wqf_dbr_info_v_err(v) ? -1 : 0;
	}
	fw_log("wqf: rq doorbell fetch never completed");
	return -1;
}

void fw_wqf_rqr_drop_all(void)
{
	for (uint32_t n = 0; n < RNIC_FW_TC_WQF_RDB_NUM; n++) {
		if (!rnic_wqf_dbr_info_v_valid(hal_tc_rd32(RNIC_FW_TC_WQF_RQR_INFO)))
			return;
		fw_wqf_rqr_pop();
	}
}

uint8_t fw_wqf_rqf;

uint32_t fw_wqf_rq_feed(uint32_t qpn, uint32_t pos, uint32_t count, uint32_t log_bbs, uint32_t sge_max)
{
	hal_tc_wr32(RNIC_FW_TC_WQF_RQF_ARG, rnic_wqf_rqf_arg_mk_count(count) | rnic_wqf_rqf_arg_mk_log_bbs(log_bbs) |
						    rnic_wqf_rqf_arg_mk_sge_max(sge_max));
	hal_tc_wr32(RNIC_FW_TC_WQF_RQF_CMD, qidx(qpn, pos));
	/* a WQE takes the engine ~5 cycles (its record checked, the WQE read, the rq_desc out) */
	uint32_t v = 0;
	for (uint32_t n = 0; n < WQF_POLL_LIMIT; n++) {
		v = hal_tc_rd32(RNIC_FW_TC_WQF_RQF_STATUS);
		if (!rnic_wqf_rqf_status_v_busy(v))
			return v;
	}
	fw_log("wqf: receive feed never ended");
	return v;
}

uint8_t fw_wqf_rqg;

void fw_wqf_db_init(uint32_t nqps)
{
	hal_tc_wr32(RNIC_FW_TC_WQF_DB_CTL, 0);
	/* an engine without the grant mode reads 0 there (an older core: the firmware feeds) */
	fw_wqf_rqg = rnic_rqf_status_v_present(hal_tc_rd32(RNIC_FW_TC_RQF_STATUS)) != 0;
	for (uint32_t q = 0; q < nqps; q++) {
		fw_wqf_sq_program(q, 0, 0, 0, 0, 0);
		fw_wqf_rq_program(q, 0, 0, 0, 0, 0, 0);
		/* the grant RAM has no reset: every QP's grant off before the mode goes on */
		if (fw_wqf_rqg)
			hal_tc_wr32(RNIC_FW_TC_RQF_GRANT, rnic_rqf_grant_mk_qpn(q));
	}
	fw_wqf_dbr_drop_all();
	fw_wqf_rqr_drop_all();
	/* bit 0: sq_db/bf_db-started fetches, bit 1: rq_db-started ones, bit 2: the grant mode */
	hal_tc_wr32(RNIC_FW_TC_WQF_DB_CTL, FW_WQF_DB_CTL_ON);
	fw_wqf_rqf = rnic_wqf_rqf_status_v_present(hal_tc_rd32(RNIC_FW_TC_WQF_RQF_STATUS)) != 0;
}
