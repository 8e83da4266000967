/* Receive queues: up to hw_caps.rq_slots receive buffers at a time are with the receive engine; each
 * completion event becomes the receive CQE (through the CQE writer) and the next RQ WQE is handed
 * over. RQ WQEs come through the WQE fetch engine's receive region (rtl/wqe_fetch, one-cycle
 * loads on the tightly coupled window): one fetch reads every posted WQE that fits, the ones the
 * engine has no slot for yet stay staged there and refill its slots on later completions without
 * a fetch, and once the stage is used up the next posted WQEs are fetched before they are needed.
 * With the RQ's ring state in the engine (fw_rq_ring_program), an rq_db starts the fetch of the WQEs
 * it announced as it arrives; the firmware takes them from the engine's RQ records (rq_rec_at) and
 * fetches itself only what no record holds. With the engine's grant mode (fw_rq_grant.c) the
 * engine hands the WQEs of its records to the receive engine by itself: a receive event's refill
 * is one grant store, and the firmware's refill below serves only the QPs it took over. */
#include "fw_log.h"
#include "fw_res.h"
#include "fw_rq_grant.h"
#include "fw_rq_recv.h"
#include "fw_wqf.h"
#include "fw_xport.h"
#include "hal.h"

/* The most of a WQE that is read: a longer stride could only hold SGEs beyond the limit. */
#define RQE_MAX_BYTES (RNIC_RQ_WQE_SIZE + RNIC_MAX_SGE * RNIC_WQE_SGE_SIZE)
#define RQ_REGION_BYTES (FW_WQF_RQ_BBS * RNIC_WQEBB_BYTES)

/* An rq_desc is the WQE's words with the QPN in front: wr_id, then the SGEs as they are. */
_Static_assert(RNIC_RQ_WQE_WR_ID_OFF == 0 && RNIC_RQ_DESC_WR_ID_OFF == 8 && RNIC_RQ_DESC_SGE0_ADDR_OFF == RNIC_RQ_WQE_SIZE &&
		       RNIC_RQ_DESC_SGE1_ADDR_OFF == RNIC_RQ_WQE_SIZE + RNIC_WQE_SGE_SIZE &&
		       RNIC_RQ_DESC_SGE0_LEN_OFF - RNIC_RQ_DESC_SGE0_ADDR_OFF == RNIC_WQE_SGE_LENGTH_OFF &&
		       RNIC_RQ_DESC_SGE0_LKEY_OFF - RNIC_RQ_DESC_SGE0_ADDR_OFF == RNIC_WQE_SGE_LKEY_OFF &&
		       RNIC_RQ_WQE_NUM_SGE_OFF == 8 && RNIC_RQ_DESC_NUM_SGE_OFF == 4,
	       "rq_desc = qpn, num_sge, then the RQ WQE's wr_id and SGEs word for word");

static uint8_t *ctx(uint32_t qpn) { return fw_res.qp_ctx[qpn]; }

/* Inlined: a call here costs the receive event ~15 cycles, and LTO's choice flips with the size
 * of unrelated code (it did when retire_upto shrank). */
static inline __attribute__((always_inline)) void recv_cqe(uint32_t qpn, uint64_t wr_id, uint32_t status,
							   uint32_t opcode, uint32_t len, uint32_t imm,
							   uint32_t flags, uint32_t src_qp)
{
	uint8_t *c = ctx(qpn);
	uint32_t ci = rnic_qp_ctx_get_rq_ci(c);

	fw_cqe_put(FW_CQ_REC_W7(rnic_qp_ctx_get_recv_cqn(c), ci), wr_id, len, imm, qpn, src_qp,
		   status | opcode << 8 | (flags & 0xFFu) << 16);
	rnic_qp_ctx_set_rq_ci(c, (uint16_t)(ci + 1));
}

/* Host address of the RQ WQE k places after the consumer index. */
static uint64_t rqe_addr(const uint8_t *c, uint32_t k)
{
	uint32_t idx = (rnic_qp_ctx_get_rq_ci(c) + k) & ((1u << rnic_qp_ctx_get_rq_log_size(c)) - 1);
	return rnic_qp_ctx_get_buf_addr(c) + rnic_qp_ctx_get_rq_offset(c) +
	       ((uint64_t)idx << rnic_qp_ctx_get_rq_log_stride(c));
}

static uint32_t rs_pos_taken; /* the position of the WQE rq_wqe_at returned from a record */

/* The stage: posted RQ WQEs of one QP in the receive region, not handed to the engine yet: ring
 * positions [first, first + n), the first at region byte off, stride apart. They are posted, so
 * the host does not touch them until they complete; whatever else changes the ring (RESET,
 * DESTROY, ERR) forgets the stage (fw_rq_release, fw_rq_flush). One QP at a time: another QP's
 * refill replaces it. While pending, its fetch (command cmd) may still be on the way. */
static struct {
	uint32_t qpn, first, n, off, stride, cmd;
	uint8_t pending;
} rs;

/* The engine's oldest RQ record while the firmware takes WQEs from it (rr.on): RQ positions
 * [first, first + n) of qpn, 2^lb WQEBBs each, from receive-doorbell-region slot slot on. It is
 * removed once the refill moved past it, which frees its slots for the engine's next fetch. */
static struct {
	uint32_t qpn, first, n, slot, lb;
	uint8_t on;
} rr;
/* the WQE rq_wqe_at returned came from rr (else from the stage) */
static uint8_t rq_from_rec;

static void rr_drop(void)
{
	if (rr.on) {
		rr.on = 0;
		fw_wqf_rqr_pop();
	}
}

void fw_rq_release(uint32_t qpn)
{
	if (rs.qpn == qpn)
		rs.n = 0;
}

void fw_rq_ring_program(uint32_t qpn)
{
	uint8_t *c = ctx(qpn);
	struct fw_qp_run *run = &fw_res.qp_run[qpn];
	uint32_t st = rnic_qp_ctx_get_state(c), ls = rnic_qp_ctx_get_rq_log_stride(c);
	uint32_t lg = rnic_qp_ctx_get_rq_log_size(c);
	uint64_t base = rnic_qp_ctx_get_buf_addr(c) + rnic_qp_ctx_get_rq_offset(c);
	/* whole WQEBBs per WQE (a ring of 32-byte WQEs is fetched by the firmware alone) */
	int en = st != RNIC_QP_STATE_RESET && st != RNIC_QP_STATE_ERR && ls >= 6 &&
		 ls - 6 <= (RNIC_WQF_RQ_RING_LOG_BBS_MASK >> RNIC_WQF_RQ_RING_LOG_BBS_LSB) &&
		 lg <= (RNIC_WQF_RQ_RING_LOG_SIZE_MASK >> RNIC_WQF_RQ_RING_LOG_SIZE_LSB) && !(base & 63u) &&
		 rnic_hw_caps_v_engines(fw_hw_caps);

	if (en == run->rqf_en)
		return; /* (the ring does not change while enabled: only RESET and DESTROY change it) */
	fw_rqg_take(qpn); /* (taken already before the QP-table write that led here) */
	fw_rqg_ring(run);
	/* the engine fetches from past what the receive engine holds and what is staged */
	uint32_t fidx = rnic_qp_ctx_get_rq_ci(c) + run->rq_posted + (rs.qpn == qpn ? rs.n : 0);
	fw_wqf_rq_program(qpn, base, lg, en ? ls - 6 : 0, rnic_qp_ctx_get_uctx(c), en, fidx);
	run->rqf_en = (uint8_t)en;
	if (!en && !fw_wqf_rqg) {
		/* its records may name WQEs of a ring that is no more: every RQ record goes (the other
		 * QPs fetch theirs themselves). In grant mode the engine removes a disabled QP's
		 * records itself, and the firmware pops none. */
		rr.on = 0;
		fw_wqf_rqr_drop_all();
	}
}

/* The WQE at RQ position pos of qpn from the engine's records: its tightly coupled address, or 0
 * when no record holds it (the caller fetches it itself). Records of other QPs, and of positions
 * this QP has passed, are in the way and removed; a record of this QP further on stays. A record
 * whose fetch failed is removed and its WQEs fetched by the firmware (which reports a real fault). */
static __attribute__((noinline)) uint32_t rq_rec_take(uint32_t qpn, uint32_t pos)
{
	uint32_t qx = 0, v, lb = rnic_qp_ctx_get_rq_log_stride(ctx(qpn)) - 6;
	rr_drop();
	while ((v = fw_wqf_rqr_head(&qx)) != 0) {
		uint32_t first = rnic_wqf_sq_qidx_v_index(qx), n = rnic_wqf_dbr_info_v_bbs(v) >> lb;
		if (rnic_wqf_sq_qidx_v_qpn(qx) == qpn) {
			if (((pos - first) & 0xFFFFu) < n) {
				rr.qpn = qpn, rr.first = first, rr.n = n, rr.lb = lb;
				rr.slot = rnic_wqf_dbr_info_v_slot(v);
				rr.on = 1;
				if (rnic_wqf_dbr_info_v_done(v) ? rnic_wqf_dbr_info_v_err(v) != 0 : fw_wqf_rqr_wait() != 0) {
					rr_drop();
					return 0;
				}
				return 1;
			}
			if (((first - pos) & 0xFFFFu) < 0x8000u)
				return 0; /* further on: stays */
		}
		fw_wqf_rqr_pop();
	}
	return 0;
}

static inline __attribute__((always_inline)) uint32_t rq_rec_at(uint32_t qpn, uint32_t pos)
{
	if (!(rr.on && rr.qpn == qpn && ((pos - rr.first) & 0xFFFFu) < rr.n) && !rq_rec_take(qpn, pos))
		return 0;
	uint32_t s = rr.slot + ((pos - rr.first) << rr.lb);
	/* a WQE across the region's end (RQs of different strides took turns in it): not read from
	 * there, fetched by the firmware */
	if ((s % FW_WQF_RDB_BBS) + (1u << rr.lb) > FW_WQF_RDB_BBS)
		return 0;
	return FW_WQF_RDB_SLOT(s);
}

/* Queues the fetch of the posted WQEs from k places after the consumer index on, at most max,
 * stopping at the ring end and at what the region holds (of each WQE its first RQE_MAX_BYTES),
 * into the region from slot 0: the aligned WQEBBs that cover them, one command. */
static void rq_fetch(uint32_t qpn, const uint8_t *c, uint32_t k, uint32_t max)
{
	uint32_t size = 1u << rnic_qp_ctx_get_rq_log_size(c);
	uint32_t first = rnic_qp_ctx_get_rq_ci(c) + k, left = size - (first & (size - 1));
	uint32_t stride = 1u << rnic_qp_ctx_get_rq_log_stride(c);
	uint32_t need = stride < RQE_MAX_BYTES ? stride : RQE_MAX_BYTES;
	uint64_t a = rqe_addr(c, k);
	uint32_t off = (uint32_t)a & 63u;
	uint32_t n = 1 + (RQ_REGION_BYTES - off - need) / stride; /* off < 64, need <= 80: fits */
	if (n > max)
		n = max;
	if (n > left)
		n = left;
	if (n == 0)
		n = 1;
	uint32_t bytes = off + (n - 1) * stride + need;
	rs.cmd = fw_wqf_issue_rq(a - off, (bytes + RNIC_WQEBB_BYTES - 1) / RNIC_WQEBB_BYTES, 0);
	if (fw_res.qp_run[qpn].rqf_en)
		fw_wqf_rq_fidx(qpn, first + n); /* the engine's next rq_db fetches after these */
	rs.qpn = qpn;
	rs.first = first & 0xFFFFu;
	rs.n = n;
	rs.off = off;
	rs.stride = stride;
	rs.pending = 1;
}

/* The staged WQE at the head is in the region: 0, or -1 (the fetch failed: the stage is gone). */
static int rq_staged_ready(void)
{
	if (rs.pending) {
		if (fw_wqf_wait(rs.cmd, rs.cmd)) {
			rs.n = 0;
			return -1;
		}
		rs.pending = 0;
	}
	return 0;
}

static inline __attribute__((always_inline)) void rq_stage_pop(void)
{
	if (rq_from_rec) {
		/* the record's last WQE: its slots go back to the engine at once */
		if (((rr.first + rr.n - 1u - rs_pos_taken) & 0xFFFFu) == 0)
			rr_drop();
		return;
	}
	rs.n--;
	rs.first = (rs.first + 1) & 0xFFFFu;
	rs.off += rs.stride;
}

/* Not staged and no record: the firmware fetches what is posted from pos on itself. */
static __attribute__((noinline)) uint32_t rq_wqe_fetch(uint32_t qpn, const uint8_t *c, uint32_t k, uint32_t pos)
{
	rq_fetch(qpn, c, k, (uint16_t)(rnic_qp_ctx_get_rq_pi(c) - pos));
	if (rq_staged_ready())
		return 0;
	return RNIC_FW_TC_WQF_RQ_BUF_BASE + rs.off;
}

/* The WQE at ring position pos of qpn: staged, or in the engine's record, else fetched (what is
 * posted from there on); its tightly coupled address, or 0 when the fetch failed. Inline: the
 * refill's common case is a few compares, not a call with its register saves. */
static inline __attribute__((always_inline)) uint32_t rq_wqe_at(uint32_t qpn, const uint8_t *c, uint32_t k)
{
	uint32_t pos = (rnic_qp_ctx_get_rq_ci(c) + k) & 0xFFFFu;
	rq_from_rec = 0;
	if (rs.n && rs.qpn == qpn && rs.first == pos)
		return rq_staged_ready() ? 0 : RNIC_FW_TC_WQF_RQ_BUF_BASE + rs.off;
	if (fw_res.qp_run[qpn].rqf_en && !fw_wqf_rqg) {
		uint32_t w = rq_rec_at(qpn, pos);
		if (w) {
			rq_from_rec = 1;
			rs_pos_taken = pos;
			return w;
		}
	}
	return rq_wqe_fetch(qpn, c, k, pos);
}

static uint64_t tc_rd64(uint32_t a)
{
	return (uint64_t)hal_tc_rd32(a + 4) << 32 | hal_tc_rd32(a);
}

void fw_rq_flush(uint32_t qpn)
{
	uint8_t *c = ctx(qpn);

	fw_rqg_take(qpn); /* (the move to ERR took it already) */
	/* The slot's buffer was emptied by the QP-table write that moved the QP to ERR, so every
	 * WQE from rq_ci on is the host's again and completes flushed. */
	fw_res.qp_run[qpn].rq_posted = 0;
	while (rnic_qp_ctx_get_rq_ci(c) != rnic_qp_ctx_get_rq_pi(c)) {
		uint32_t w = rq_wqe_at(qpn, c, 0);
		if (!w)
			break;
		recv_cqe(qpn, tc_rd64(w + RNIC_RQ_WQE_WR_ID_OFF), RNIC_WC_STATUS_WR_FLUSH_ERR, RNIC_WC_OPCODE_RECV, 0, 0, 0,
			 0);
		rq_stage_pop();
	}
	fw_rq_release(qpn);
}

/* The RQ WQE after those with the engine could not be fetched (bus error): the QP goes to ERR
 * (IBTA: a local error while processing a WR). When it is the oldest, it completes with
 * LOC_QP_OP_ERR (wr_id 0: the wr_id is in the WQE we could not read); otherwise the buffers
 * ahead of it are flushed first and it is flushed after them (fw_rq_flush, when it can be read). */
static __attribute__((noinline)) void rq_fetch_failed(uint32_t qpn)
{
	fw_log("qp %u: RQ WQE fetch failed", (unsigned)qpn);
	if (fw_res.qp_run[qpn].rq_posted == 0)
		recv_cqe(qpn, 0, RNIC_WC_STATUS_LOC_QP_OP_ERR, RNIC_WC_OPCODE_RECV, 0, 0, 0, 0);
	fw_qp_fatal(qpn, RNIC_WC_STATUS_LOC_QP_OP_ERR, RNIC_EQ_QP_SIDE_RESPONDER);
}

/* Hands posted RQ WQEs to the receive engine while it has free buffer slots (hw_caps.rq_slots per
 * QP); the engine fills them in the order given, so completions stay in RQ order. Each one goes
 * from the receive region straight into the rq_desc mailbox (one-cycle loads, the stores
 * granted at once): no copy in between. */
static __attribute__((noinline)) void rq_refill(uint32_t qpn, uint8_t *c, struct fw_qp_run *run, uint32_t slots);

void fw_rq_service(uint32_t qpn)
{
	uint8_t *c = ctx(qpn);
	struct fw_qp_run *run = &fw_res.qp_run[qpn];
	uint32_t slots = rnic_hw_caps_v_rq_slots(fw_hw_caps);

	if (rnic_qp_ctx_get_state(c) == RNIC_QP_STATE_ERR) {
		fw_rq_flush(qpn);
		return;
	}
	if (!rnic_hw_caps_v_engines(fw_hw_caps))
		return; /* no receive engine attached: the buffers wait */
	if (fw_wqf_rqg && run->rqf_en) {
		/* grant mode: the engine refills a QP it feeds by itself (a limit that stopped at
		 * rq_pi moves with it); one the firmware took over goes back when it may */
		if (run->rqg) {
			fw_rqg_grant(qpn, c, 0);
			return;
		}
		if (fw_rqg_give(qpn, c, run))
			return;
	}
	if (slots == 0)
		slots = 1;
	/* The common passes that do nothing return here, before the refill's register saves:
	 * nothing posted beyond what the engine holds (a completion in a stream whose receives are
	 * posted one at a time), or the engine's slots full with WQEs staged or the engine's feed
	 * there to hand them later (an RQ doorbell of a host that keeps its RQ full). */
	if ((uint16_t)(rnic_qp_ctx_get_rq_ci(c) + run->rq_posted) == rnic_qp_ctx_get_rq_pi(c) ||
	    (run->rq_posted >= slots && (rs.n || (fw_wqf_rqf && run->rqf_en)))) {
		run->rq_stalled = 0;
		return;
	}
	rq_refill(qpn, c, run, slots);
	if (fw_wqf_rqg && run->rqf_en)
		fw_rqg_give(qpn, c, run); /* (the refill may have handed what kept it) */
}

/* With the engine fetching this RQ: does a record (the one in use, or the oldest) hold pos already? */
static int rq_rec_ahead(uint32_t qpn, uint32_t pos)
{
	uint32_t qx = 0, v;
	if (!fw_res.qp_run[qpn].rqf_en)
		return 0;
	if (rr.on && rr.qpn == qpn && ((pos - rr.first) & 0xFFFFu) < rr.n)
		return 1;
	if (rr.on || (v = fw_wqf_rqr_head(&qx)) == 0)
		return 0;
	/* (the receive feed leaves a record it took only the first WQEs of at the head) */
	return rnic_wqf_sq_qidx_v_qpn(qx) == qpn &&
	       ((pos - rnic_wqf_sq_qidx_v_index(qx)) & 0xFFFFu) <
		       (rnic_wqf_dbr_info_v_bbs(v) >> (rnic_qp_ctx_get_rq_log_stride(ctx(qpn)) - 6));
}

static void rq_refill(uint32_t qpn, uint8_t *c, struct fw_qp_run *run, uint32_t slots)
{
	run->rq_stalled = 0;
	uint32_t stride = 1u << rnic_qp_ctx_get_rq_log_stride(c);
	uint32_t bytes = stride < RQE_MAX_BYTES ? stride : RQE_MAX_BYTES;
	while (run->rq_posted < slots &&
	       (uint16_t)(rnic_qp_ctx_get_rq_ci(c) + run->rq_posted) != rnic_qp_ctx_get_rq_pi(c)) {
		uint32_t pos = (rnic_qp_ctx_get_rq_ci(c) + run->rq_posted) & 0xFFFFu;
		if (fw_wqf_rqf && !fw_wqf_rqg && run->rqf_en && !(rs.n && rs.qpn == qpn && rs.first == pos)) {
			/* The engine's receive feed hands what its records hold (the record rules below,
			 * in RTL); the firmware goes on at the position it stopped at, if any. The record
			 * in use may be removed by it: taken up again from the head. */
			uint32_t want = slots - run->rq_posted, posted = (uint16_t)(rnic_qp_ctx_get_rq_pi(c) - pos);
			if (want > posted)
				want = posted;
			rr.on = 0;
			uint32_t k = rnic_wqf_rqf_status_v_handed(
				fw_wqf_rq_feed(qpn, pos, want, rnic_qp_ctx_get_rq_log_stride(c) - 6,
					       (bytes - RNIC_RQ_WQE_SIZE) / RNIC_WQE_SGE_SIZE));
			run->rq_posted += k;
			if (k == want)
				continue;
		}
		uint32_t w = rq_wqe_at(qpn, c, run->rq_posted);
		if (!w) {
			rq_fetch_failed(qpn);
			return;
		}
		uint32_t n = hal_tc_rd32(w + RNIC_RQ_WQE_NUM_SGE_OFF) & 0xFFu;
		/* num_sge 0 is a legal buffer of 0 bytes (IBTA): it takes a WRITE_IMM or a zero-length
		 * SEND, so it goes to the engine like any other (completing it LOC_LEN_ERR here left
		 * the ring empty and a WRITE_IMM RNR-NAKed until the requester gave up). */
		if (n > RNIC_MAX_SGE || RNIC_RQ_WQE_SIZE + n * RNIC_WQE_SGE_SIZE > bytes) {
			/* More SGEs than the rq_desc holds (or than the stride has room for). Completed
			 * in order: only once the buffers ahead of it are done (it stays staged). */
			if (run->rq_posted)
				return;
			recv_cqe(qpn, tc_rd64(w + RNIC_RQ_WQE_WR_ID_OFF), RNIC_WC_STATUS_LOC_LEN_ERR, RNIC_WC_OPCODE_RECV, 0, 0, 0,
				 0);
			rq_stage_pop();
			run->rqg_hold = 0; /* past the WQE a grant-mode stop left to the firmware */
			continue;
		}
		if (rnic_mbox_status_v_busy(hal_tc_rd32(RNIC_FW_TC_RQD_STATUS))) { /* busy: retried after the events are taken */
			run->rq_stalled = 1;
			fw_stalled_any = 1;
			return;
		}
		/* the engine ignores SGEs beyond num_sge: their words are not written */
		hal_tc_wr32(RNIC_FW_TC_RQD_DATA + RNIC_RQ_DESC_QPN_OFF, qpn);
		hal_tc_wr32(RNIC_FW_TC_RQD_DATA + RNIC_RQ_DESC_NUM_SGE_OFF, n);
		hal_tc_wr32(RNIC_FW_TC_RQD_DATA + RNIC_RQ_DESC_WR_ID_OFF, hal_tc_rd32(w));
		hal_tc_wr32(RNIC_FW_TC_RQD_DATA + RNIC_RQ_DESC_WR_ID_OFF + 4, hal_tc_rd32(w + 4));
		for (uint32_t o = RNIC_RQ_WQE_SIZE; o < RNIC_RQ_WQE_SIZE + n * RNIC_WQE_SGE_SIZE; o += RNIC_WQE_SGE_SIZE) {
			/* an SGE's four words unrolled: the loop's own instructions cost as much as the
			 * one-cycle load and the store */
			hal_tc_wr32(RNIC_FW_TC_RQD_DATA + o, hal_tc_rd32(w + o));
			hal_tc_wr32(RNIC_FW_TC_RQD_DATA + o + 4, hal_tc_rd32(w + o + 4));
			hal_tc_wr32(RNIC_FW_TC_RQD_DATA + o + 8, hal_tc_rd32(w + o + 8));
			hal_tc_wr32(RNIC_FW_TC_RQD_DATA + o + 12, hal_tc_rd32(w + o + 12));
		}
		hal_tc_wr32(RNIC_FW_TC_RQD_COMMIT, qpn);
		run->rq_posted++;
		run->rqg_hold = 0;
		rq_stage_pop();
	}
	/* Ahead of need: with the stage used up and WQEs posted beyond what the engine holds, fetch
	 * them now; the next completion finds them staged instead of waiting for the PCIe read. */
	uint32_t pos = (rnic_qp_ctx_get_rq_ci(c) + run->rq_posted) & 0xFFFFu;
	if (rs.n == 0 && pos != rnic_qp_ctx_get_rq_pi(c) && !(fw_wqf_rqf && run->rqf_en) && !rq_rec_ahead(qpn, pos))
		rq_fetch(qpn, c, run->rq_posted, (uint16_t)(rnic_qp_ctx_get_rq_pi(c) - pos));
}

/* RECV_DONE / WRITE_IMM_DONE: the posted buffer was consumed. A QP the engine feeds takes
 * fw_rq_recv (fw_rq_recv.h, inlined into the event ring's loop); this is the rest. */
void fw_rq_done_slow(uint32_t qpn, uint32_t kind, const uint8_t *ev)
{
	struct fw_qp_run *run = &fw_res.qp_run[qpn];

	if (rnic_qp_ctx_get_state(ctx(qpn)) == RNIC_QP_STATE_ERR)
		return; /* consumed just before the move to ERR: its WQE was flushed already */
	if (run->rqg) {
		/* not from the ring (fw_rx_event): no look-ahead, the grant one past this buffer */
		fw_rqg_grant(qpn, ctx(qpn), 1);
	} else if (run->rq_posted) {
		run->rq_posted--;
	}
	recv_cqe(qpn, rnic_rx_event_get_wr_id(ev), rnic_rx_event_get_status(ev),
		 kind == RNIC_RX_EVENT_KIND_WRITE_IMM_DONE ? RNIC_WC_OPCODE_RECV_RDMA_WITH_IMM : RNIC_WC_OPCODE_RECV,
		 rnic_rx_event_get_byte_len(ev), rnic_rx_event_get_imm_data(ev), rnic_rx_event_get_flags(ev),
		 rnic_rx_event_get_src_qpn(ev));
	if (!run->rqg)
		fw_rq_service(qpn);
}

void fw_rq_done(const uint8_t *ev)
{
	fw_rq_done_slow(rnic_rx_event_get_qpn(ev), rnic_rx_event_get_kind(ev), ev);
}

/* RESP_ERROR: the receive engine NAK-ed a request of qpn (invalid request, access or operational
 * error, or a SEND its buffer could not take) and stopped the QP. The responder's QP goes to ERR
 * as well (IBTA); a buffer the failing SEND consumed (LOC_LEN_ERR, LOC_PROT_ERR: placement
 * errors only SENDs have) completes with that status, the rest are flushed. */
void fw_rq_resp_error(const uint8_t *ev)
{
	uint32_t qpn = rnic_rx_event_get_qpn(ev), st = rnic_rx_event_get_status(ev);
	uint8_t *c = ctx(qpn);

	if (rnic_qp_ctx_get_state(c) == RNIC_QP_STATE_ERR)
		return;
	fw_rqg_take(qpn); /* rq_posted from the engine's feed */
	if ((st == RNIC_WC_STATUS_LOC_LEN_ERR || st == RNIC_WC_STATUS_LOC_PROT_ERR) && fw_res.qp_run[qpn].rq_posted &&
	    rnic_qp_ctx_get_rq_ci(c) != rnic_qp_ctx_get_rq_pi(c)) {
		fw_res.qp_run[qpn].rq_posted = 0;
		recv_cqe(qpn, rnic_rx_event_get_wr_id(ev), st, RNIC_WC_OPCODE_RECV, rnic_rx_event_get_byte_len(ev), 0, 0,
			 0);
	}
	fw_qp_fatal(qpn, st, RNIC_EQ_QP_SIDE_RESPONDER);
}

/* The RQ doorbell's pass (rq_pi just set): a QP the engine feeds gets the checked producer index
 * (the engine fetched on the doorbell itself, unless its doorbell FIFO dropped it: then on this
 * store); otherwise the refill as before. */
void fw_rq_doorbell(uint32_t qpn)
{
	if (fw_res.qp_run[qpn].rqg) {
		/* Only an index ahead of rq_ci can tell the engine something (an rq_db its FIFO
		 * dropped): the engine's own index is at least rq_ci (it handed those WQEs). One the
		 * firmware reads after the engine consumed past it (fw_db.c rq_db_in) would move the
		 * engine's index back below its feed and hide the WQEs posted since until the next
		 * store (the 4 KiB SEND stream with SEND runs: an RNR NAK). */
		uint8_t *c = ctx(qpn);
		uint32_t pi = rnic_qp_ctx_get_rq_pi(c);
		if (((pi - rnic_qp_ctx_get_rq_ci(c) - 1u) & 0xFFFFu) < 0x7FFFu)
			fw_rqg_pi(qpn, pi);
		return;
	}
	fw_rq_service(qpn);
}
