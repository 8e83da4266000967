/* Send queues, staging: the WQEBBs of the WQE being sent, fetched by the WQE fetch engine into
 * its buffer (two halves: the batch in use and the prefetch of the next), or the BlueFlame
 * capture of the doorbell BAR. */
#include "fw_sq_priv.h"
#include "fw_sq_stage.h"
#include "fw_wqf.h"

/* WQEBBs staged in the WQE fetch engine's buffer (rtl/wqe_fetch, one-cycle loads on the tightly
 * coupled window): SQ indices [st_first, st_first + st_n) of one QP from buffer slot st_slot on.
 * The buffer is used in two halves of HALF_BBS: one fetch serves every WQE a doorbell announced
 * (up to HALF_BBS WQEBBs) instead of a PCIe round trip each, and while the firmware works on one
 * half the WQEBBs announced after it are fetched into the other (pf_*), so a stream of WQEs
 * rarely waits for a fetch. Both are emptied whenever a service pass starts, so nothing stale
 * survives a QP being destroyed, reset or re-created; a fetch forgotten while in flight is
 * harmless, the engine completes commands in order, before any later fetch into its slots. */
uint32_t st_first, st_slot, st_n;
/* sq_cont (fw_sq_stage.h): fw_sq_service keeps the staged WQEBBs and the prefetch of a pass
 * cut at SQ_PASS_MAX instead of fetching them again. */
uint32_t sq_cont;
static const uint8_t *pf_c; /* the prefetch's QP context */
static uint32_t pf_first, pf_n, pf_slot, pf_cmd0, pf_cmd1;

/* Doorbell-started fetches (rtl/wqe_fetch, docs/firmware.md): the staged WQEBBs may be those of
 * the engine's oldest record (st_db), in its doorbell region; the record is removed when the
 * stage moves on, which frees its slots for the engine's next fetch. */
uint8_t st_db;
static uint32_t st_db_qpn; /* the QP of that record */
uint32_t st_base, st_mask;
_Static_assert((FW_WQF_BBS & (FW_WQF_BBS - 1)) == 0 && (FW_WQF_DB_BBS & (FW_WQF_DB_BBS - 1)) == 0 &&
		       RNIC_DB_BF_DATA_BYTES / RNIC_WQEBB_BYTES >= 4 && RNIC_WQEBB_BYTES == 64,
	       "sq_stage's staged address: regions of a power of two WQEBB slots, a capture of 4 WQEBBs");

/* The stage's region (sq_stage's address of a staged WQEBB): from slot on, in the send buffer,
 * the doorbell region or the capture. */
static inline void stage_at(uint32_t base, uint32_t bbs, uint32_t slot)
{
	st_base = base;
	st_mask = bbs - 1u;
	st_slot = slot;
}
/* A used-up record shorter than this stays at the end of a pass (stage_db_used): the engine
 * extends it with the next doorbell of its QP, and the next pass takes that from it with one load
 * instead of a new record's search; a longer one is removed, so its slots are free for the next
 * batch's fetch. */
#define DB_KEEP_BELOW (FW_WQF_DB_BBS / 2u)

static void stage_db_done(void)
{
	if (st_db) {
		st_db = 0;
		fw_wqf_dbr_pop();
	}
}

/* With st_db: does the staged record hold WQEBB idx now? Later doorbells of the QP extend the
 * newest record (rtl/wqe_fetch), so it may have grown since it was read. While st_db it is the
 * oldest record (only the firmware removes records, and it forgets st_db when it does), so one
 * load of its info tells (i: that word). Its count then, or 0. */
static uint32_t stage_db_holds(uint32_t idx, uint8_t *i)
{
	rnic_st_le32(i, hal_tc_rd32(RNIC_FW_TC_WQF_DBR_INFO));
	uint32_t n = rnic_wqf_dbr_info_get_bbs(i);
	return ((idx - st_first) & 0xFFFFu) < n ? n : 0;
}

void stage_db_used(uint32_t idx)
{
	FW_LAYOUT_ALIGN uint8_t i[4];
	if (st_n < DB_KEEP_BELOW)
		return; /* kept: a short record holds few slots, and the next doorbell extends it */
	if (st_db && ((idx - st_first) & 0xFFFFu) >= st_n && !stage_db_holds(idx, i)) {
		st_n = 0;
		stage_db_done();
	}
}

void stage_empty(void)
{
	st_n = 0;
	pf_n = 0;
	stage_db_done();
}

void stage_pass_start(void)
{
	pf_n = 0;
	if (st_db) {
		/* the record stays (it names its QP and first index, and a QP that left RTS dropped every
		 * record): the next pass reads it again, and finds it grown by the doorbells since */
		st_n = 0;
		return;
	}
	stage_empty();
}

/* BlueFlame: the staged WQEBBs may instead be the doorbell BAR's capture (st_bf: on the tightly
 * coupled window too; rtl/doorbell), taken for
 * the bf_db being served (bf_seq >= 0) when its status names that doorbell, this QP's page and
 * the WQE at idx. It is checked again after the WQE was read (st_bf_seq): a host write may
 * have overtaken it meanwhile, and then the ring is read after all. */
uint8_t st_bf;
int bf_seq = -1;
uint32_t st_bf_seq;

static int bf_status_names(uint32_t seq, uint32_t page, uint32_t *wqebbs)
{
	FW_LAYOUT_ALIGN uint8_t s[4];
	rnic_st_le32(s, hal_tc_rd32(RNIC_FW_TC_BF_STATUS));
	*wqebbs = rnic_bf_status_get_wqebbs(s);
	return rnic_bf_status_get_valid(s) && rnic_bf_status_get_seq(s) == seq && rnic_bf_status_get_page(s) == page;
}

static inline int32_t stage_bf_in(const uint8_t *c, uint32_t idx)
{
	FW_LAYOUT_ALIGN uint8_t ctl[RNIC_WQE_CTRL_SIZE];
	uint32_t seq = (uint32_t)bf_seq, n;
	const uint32_t wi = RNIC_WQE_CTRL_WQE_INDEX_OFF & ~3u;

	bf_seq = -1; /* one WQE per bf_db */
	if (!bf_status_names(seq, rnic_qp_ctx_get_uctx(c), &n) || n == 0 || n > 4)
		return -1;
	rnic_st_le32(ctl + wi, hal_tc_rd32(RNIC_FW_TC_BF_DATA_BASE + wi));
	if (rnic_wqe_ctrl_get_wqe_index(ctl) != (idx & 0xFFFFu))
		return -1;
	st_first = idx & 0xFFFFu;
	st_n = n;
	st_bf = 1;
	stage_at(RNIC_FW_TC_BF_DATA_BASE, 4u, 0);
	st_bf_seq = seq;
	return (int32_t)RNIC_FW_TC_BF_DATA_BASE;
}

/* Out of line for the miss path (its record and fetch paths stay short); stage_bf_pass has it
 * inline (the BlueFlame WQE's latency). */
static __attribute__((noinline)) int32_t stage_bf(const uint8_t *c, uint32_t idx)
{
	return stage_bf_in(c, idx);
}

/* Out of line: inlined, its code made fw_sq_service's every pass dearer (+13 cycles per WQE in
 * the 1-QP stream); stage_bf's body inline here instead (-50 ns on the BlueFlame WRITE). */
__attribute__((noinline)) void stage_bf_pass(const uint8_t *c, uint32_t idx)
{
	st_n = 0;
	stage_db_done();
	st_bf = 0;
	if (stage_bf_in(c, idx) < 0)
		fw_perf.bf_misses++;
}

/* Copies the staged WQEBB at tightly coupled address b (from sq_stage()) to w: unrolled, a load
 * and a store per word (the loop's counter and branch cost as much as the one-cycle load). */
void stage_read(int32_t b, uint8_t *w)
{
	uint8_t *d = (uint8_t *)RNIC_ASSUME_ALIGNED(w, 4);
#pragma GCC unroll 16
	for (uint32_t i = 0; i < WQEBB; i += 4)
		rnic_st_le32(d + i, hal_tc_rd32((uint32_t)b + i));
}

/* After reading a WQE from the capture: was it still this doorbell's the whole time? */
int stage_bf_held(const uint8_t *c)
{
	uint32_t n;
	return bf_status_names(st_bf_seq, rnic_qp_ctx_get_uctx(c), &n);
}

/* Forgets the capture: the WQE is read again, from the ring. */
void stage_bf_drop(void)
{
	st_bf = 0;
	st_n = 0;
	fw_perf.bf_misses++;
}

/* Queues the fetch of SQ WQEBBs [idx, idx + n) of the QP with context c into the buffer from
 * slot on: one command, two when the range wraps at the ring end. Returns the first command
 * and its last in *last. */
static uint32_t fetch_issue(const uint8_t *c, uint32_t idx, uint32_t n, uint32_t slot, uint32_t *last)
{
	uint32_t size = 1u << rnic_qp_ctx_get_sq_log_size(c), ring_left = size - (idx & (size - 1));
	uint32_t k = n < ring_left ? n : ring_left;
	uint32_t first = fw_wqf_issue(wqebb_addr(c, idx), k, slot);
	*last = k < n ? fw_wqf_issue(wqebb_addr(c, idx + k), n - k, slot + k) : first;
	return first;
}

/* WQEBBs the host announced from idx on (below the producer index), at most HALF_BBS. */
static uint32_t announced(const uint8_t *c, uint32_t idx)
{
	uint32_t n = (rnic_qp_ctx_get_sq_pi(c) - idx) & 0xFFFFu;
	if (n > (1u << rnic_qp_ctx_get_sq_log_size(c)))
		return 0;
	return n < HALF_BBS ? n : HALF_BBS;
}

/* The engine's record of WQEBB idx of QP qpn, staged: its address, -1 when its fetch failed, -2
 * when the oldest record is not it; *info: the record's wqf_dbr_info (its more bit). Records of
 * other QPs, and of WQEBBs this QP has passed, are in the way and removed (a QP whose record was
 * removed fetches those WQEBBs itself when it gets to them); a record of this QP further on
 * stays for when it is needed. */
static int32_t stage_db(uint32_t qpn, uint32_t idx, uint32_t *info)
{
	uint32_t qx = 0, v;
	while ((v = fw_wqf_dbr_head(&qx)) != 0) {
		if ((qx & 0xFFFFu) == qpn) {
			uint32_t ahead = ((qx >> 16) - idx) & 0xFFFFu;
			if (ahead == 0)
				break;
			if (ahead < 0x8000u)
				return -2;
		}
		fw_wqf_dbr_pop();
	}
	if (!v)
		return -2;
	FW_LAYOUT_ALIGN uint8_t i[4];
	rnic_st_le32(i, v);
	st_first = idx & 0xFFFFu;
	stage_at(RNIC_FW_TC_WQF_DB_BUF_BASE, FW_WQF_DB_BBS, rnic_wqf_dbr_info_get_slot(i));
	st_db = 1;
	st_db_qpn = qpn;
	if (!rnic_wqf_dbr_info_get_done(i) && fw_wqf_dbr_wait())
		return -1; /* (removed with the stage) */
	if (rnic_wqf_dbr_info_get_err(i))
		return -1;
	*info = v;
	st_n = rnic_wqf_dbr_info_get_bbs(i);
	return (int32_t)FW_WQF_DB_SLOT(st_slot);
}

/* What the host announced after a doorbell's record that no record holds (it met the ring end
 * or a full region): prefetched into the send buffer, and the engine's fetch index moved past. */
static __attribute__((noinline)) void prefetch_after(const uint8_t *c, uint32_t qpn, uint32_t after, uint32_t n)
{
	pf_c = c;
	pf_first = after;
	pf_n = n;
	pf_slot = 0;
	pf_cmd0 = fetch_issue(c, pf_first, pf_n, pf_slot, &pf_cmd1);
	fw_wqf_sq_fidx(qpn, pf_first + pf_n);
}

/* The firmware's own fetch of WQEBB idx (or the prefetch that holds it) and the prefetch of what
 * was announced after it; out of line, so that the record path of sq_stage stays short. */
static __attribute__((noinline)) int32_t stage_fetch(const uint8_t *c, uint32_t qpn, uint32_t idx)
{
	uint32_t first, last, n, own = 0;
	if (pf_n && pf_c == c && pf_first == (idx & 0xFFFFu)) {
		/* the prefetch holds idx: its commands are in flight or done */
		n = pf_n, first = pf_cmd0, last = pf_cmd1;
		stage_at(RNIC_FW_TC_WQF_BUF_BASE, FW_WQF_BBS, pf_slot);
	} else {
		own = 1;
		n = announced(c, idx);
		if (n == 0)
			n = 1; /* not announced (a flush reads what is there) */
		stage_at(RNIC_FW_TC_WQF_BUF_BASE, FW_WQF_BBS, 0);
		first = fetch_issue(c, idx, n, st_slot, &last);
	}
	st_first = idx & 0xFFFFu;
	pf_n = 0;
	if (fw_res.qp_run[qpn].wqf_en) {
		/* The engine fetches on later doorbells from where this fetch ends (a prefetch moved
		 * its index when it was issued). No prefetch of what comes after: the engine fetches
		 * that on its doorbells into its region. A firmware prefetch there moved the engine's
		 * index past the host's next WQEs, so each later miss found the prefetch instead of a
		 * record and prefetched again: the 1-QP 64 B stream ran on the firmware's own fetches
		 * alone (266 of 267 stage misses, ~55 cycles per WQE), the engine's records unused. */
		if (own)
			fw_wqf_sq_fidx(qpn, idx + n);
	} else {
		/* the WQEBBs announced after these go into the other half before waiting for these */
		pf_n = announced(c, (idx + n) & 0xFFFFu);
		if (pf_n) {
			pf_c = c;
			pf_first = (idx + n) & 0xFFFFu;
			pf_slot = st_slot ^ HALF_BBS;
			pf_cmd0 = fetch_issue(c, pf_first, pf_n, pf_slot, &pf_cmd1);
		}
	}
	st_n = 0;
	if (fw_wqf_wait(first, last)) {
		pf_n = 0;
		return -1;
	}
	st_n = n;
	return (int32_t)FW_WQF_SLOT(st_slot);
}

/* sq_stage (fw_sq_stage.h) when idx is not staged: the BlueFlame capture, the engine's record of
 * the doorbell (doorbell-started fetch), the prefetch, or fetched now (up to the producer index
 * and HALF_BBS); -1 on a DMA failure. */
int32_t sq_stage_miss(const uint8_t *c, uint32_t idx)
{
	uint32_t qpn = (uint32_t)((const uint8_t (*)[RNIC_QP_CTX_SIZE])c - fw_res.qp_ctx);
	if (st_db && fw_res.qp_run[qpn].wqf_en) {
		/* the record staged, grown by later doorbells of this QP: no pop, no search */
		FW_LAYOUT_ALIGN uint8_t i[4];
		uint32_t n = st_db_qpn == qpn ? stage_db_holds(idx, i) : 0;
		if (n) {
			if (!rnic_wqf_dbr_info_get_done(i) && fw_wqf_dbr_wait())
				return -1; /* (removed with the stage) */
			if (rnic_wqf_dbr_info_get_err(i))
				return -1;
			st_n = n;
			return (int32_t)FW_WQF_DB_SLOT(st_slot + ((idx - st_first) & 0xFFFFu));
		}
	}
	st_n = 0;
	stage_db_done();
	st_bf = 0;
	if (bf_seq >= 0) {
		int32_t b = stage_bf(c, idx);
		if (b >= 0)
			return b;
		fw_perf.bf_misses++;
	}
	if (fw_res.qp_run[qpn].wqf_en && !(pf_n && pf_c == c && pf_first == (idx & 0xFFFFu))) {
		/* the doorbell started this fetch (rtl/wqe_fetch): nothing to issue. What the host
		 * announced beyond the record is prefetched unless more records follow. */
		uint32_t info = 0;
		int32_t b = stage_db(qpn, idx, &info);
		if (b != -2) {
			FW_LAYOUT_ALIGN uint8_t i[4];
			rnic_st_le32(i, info);
			if (b >= 0 && !rnic_wqf_dbr_info_get_more(i)) {
				uint32_t after = (idx + st_n) & 0xFFFFu, n = announced(c, after);
				if (n && !(pf_n && pf_c == c && pf_first == after))
					prefetch_after(c, qpn, after, n);
			}
			return b;
		}
	}
	return stage_fetch(c, qpn, idx);
}

void fw_sq_ring_program(uint32_t qpn)
{
	uint8_t *c = ctx(qpn);
	struct fw_qp_run *r = &fw_res.qp_run[qpn];
	int en = rnic_qp_ctx_get_state(c) == RNIC_QP_STATE_RTS;

	if (!en && !r->wqf_en)
		return;
	fw_wqf_sq_program(qpn, rnic_qp_ctx_get_buf_addr(c), rnic_qp_ctx_get_sq_log_size(c), rnic_qp_ctx_get_uctx(c), en,
			  rnic_qp_ctx_get_sq_next(c));
	r->wqf_en = (uint8_t)en;
	if (!en) {
		/* its records may name WQEBBs of a ring that is no more (RESET, DESTROY): every
		 * record goes (the other QPs fetch theirs themselves), the stage with them */
		stage_empty();
		fw_wqf_dbr_drop_all();
	}
}

uint64_t wqebb_addr(const uint8_t *c, uint32_t idx)
{
	uint32_t mask = (1u << rnic_qp_ctx_get_sq_log_size(c)) - 1;
	return rnic_qp_ctx_get_buf_addr(c) + (uint64_t)(idx & mask) * WQEBB;
}
