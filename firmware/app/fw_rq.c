/* Receive queues: up to hw_caps.rq_slots receive buffers at a time are with the receive engine; each
 * completion event becomes the receive CQE (through the CQE writer) and the next RQ WQE is handed
 * over. RQ WQEs come through the WQE fetch engine's receive region (rtl/wqe_fetch, one-cycle
 * loads on the tightly coupled window): one fetch reads every posted WQE that fits, the ones the
 * engine has no slot for yet stay staged there and refill its slots on later completions without
 * a fetch, and once the stage is used up the next posted WQEs are fetched before they are needed. */
#include "fw_log.h"
#include "fw_res.h"
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

static void recv_cqe(uint32_t qpn, uint64_t wr_id, uint32_t status, uint32_t opcode, uint32_t len,
		     uint32_t imm, uint32_t flags, uint32_t src_qp)
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

/* The stage: posted RQ WQEs of one QP in the receive region, not handed to the engine yet: ring
 * positions [first, first + n), the first at region byte off, stride apart. They are posted, so
 * the host does not touch them until they complete; whatever else changes the ring (RESET,
 * DESTROY, ERR) forgets the stage (fw_rq_release, fw_rq_flush). One QP at a time: another QP's
 * refill replaces it. While pending, its fetch (command cmd) may still be on the way. */
static struct {
	uint32_t qpn, first, n, off, stride, cmd;
	uint8_t pending;
} rs;

void fw_rq_release(uint32_t qpn)
{
	if (rs.qpn == qpn)
		rs.n = 0;
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

static void rq_stage_pop(void)
{
	rs.n--;
	rs.first = (rs.first + 1) & 0xFFFFu;
	rs.off += rs.stride;
}

/* The WQE at ring position pos of qpn, staged (fetching what is posted from there on when it is
 * not): its tightly coupled address, or 0 when the fetch failed. */
static uint32_t rq_wqe_at(uint32_t qpn, const uint8_t *c, uint32_t k)
{
	uint32_t pos = (rnic_qp_ctx_get_rq_ci(c) + k) & 0xFFFFu;
	if (rs.n == 0 || rs.qpn != qpn || rs.first != pos)
		rq_fetch(qpn, c, k, (uint16_t)(rnic_qp_ctx_get_rq_pi(c) - pos));
	if (rq_staged_ready())
		return 0;
	return RNIC_FW_TC_WQF_RQ_BUF_BASE + rs.off;
}

static uint64_t tc_rd64(uint32_t a)
{
	return (uint64_t)hal_tc_rd32(a + 4) << 32 | hal_tc_rd32(a);
}

void fw_rq_flush(uint32_t qpn)
{
	uint8_t *c = ctx(qpn);

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
	if (slots == 0)
		slots = 1;
	/* The common passes that do nothing return here, before the refill's register saves:
	 * nothing posted beyond what the engine holds (a completion in a stream whose receives are
	 * posted one at a time), or the engine's slots full with WQEs staged (an RQ doorbell of a
	 * host that keeps its RQ full). */
	if ((uint16_t)(rnic_qp_ctx_get_rq_ci(c) + run->rq_posted) == rnic_qp_ctx_get_rq_pi(c) ||
	    (run->rq_posted >= slots && rs.n)) {
		run->rq_stalled = 0;
		return;
	}
	rq_refill(qpn, c, run, slots);
}

static void rq_refill(uint32_t qpn, uint8_t *c, struct fw_qp_run *run, uint32_t slots)
{
	run->rq_stalled = 0;
	uint32_t stride = 1u << rnic_qp_ctx_get_rq_log_stride(c);
	uint32_t bytes = stride < RQE_MAX_BYTES ? stride : RQE_MAX_BYTES;
	while (run->rq_posted < slots &&
	       (uint16_t)(rnic_qp_ctx_get_rq_ci(c) + run->rq_posted) != rnic_qp_ctx_get_rq_pi(c)) {
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
			continue;
		}
		if (rnic_mbox_status_v_busy(hal_rd32(RNIC_FW_REG_RQD_STATUS))) { /* busy: retried after the events are taken */
			run->rq_stalled = 1;
			fw_stalled_any = 1;
			return;
		}
		/* the engine ignores SGEs beyond num_sge: their words are not written */
		hal_wr32(RNIC_FW_REG_RQD_DATA + RNIC_RQ_DESC_QPN_OFF, qpn);
		hal_wr32(RNIC_FW_REG_RQD_DATA + RNIC_RQ_DESC_NUM_SGE_OFF, n);
		hal_wr32(RNIC_FW_REG_RQD_DATA + RNIC_RQ_DESC_WR_ID_OFF, hal_tc_rd32(w));
		hal_wr32(RNIC_FW_REG_RQD_DATA + RNIC_RQ_DESC_WR_ID_OFF + 4, hal_tc_rd32(w + 4));
		for (uint32_t o = RNIC_RQ_WQE_SIZE; o < RNIC_RQ_WQE_SIZE + n * RNIC_WQE_SGE_SIZE; o += RNIC_WQE_SGE_SIZE) {
			/* an SGE's four words unrolled: the loop's own instructions cost as much as the
			 * one-cycle load and the store */
			hal_wr32(RNIC_FW_REG_RQD_DATA + o, hal_tc_rd32(w + o));
			hal_wr32(RNIC_FW_REG_RQD_DATA + o + 4, hal_tc_rd32(w + o + 4));
			hal_wr32(RNIC_FW_REG_RQD_DATA + o + 8, hal_tc_rd32(w + o + 8));
			hal_wr32(RNIC_FW_REG_RQD_DATA + o + 12, hal_tc_rd32(w + o + 12));
		}
		hal_wr32(RNIC_FW_REG_RQD_COMMIT, qpn);
		run->rq_posted++;
		rq_stage_pop();
	}
	/* Ahead of need: with the stage used up and WQEs posted beyond what the engine holds, fetch
	 * them now; the next completion finds them staged instead of waiting for the PCIe read. */
	uint32_t pos = (rnic_qp_ctx_get_rq_ci(c) + run->rq_posted) & 0xFFFFu;
	if (rs.n == 0 && pos != rnic_qp_ctx_get_rq_pi(c))
		rq_fetch(qpn, c, run->rq_posted, (uint16_t)(rnic_qp_ctx_get_rq_pi(c) - pos));
}

/* RECV_DONE / WRITE_IMM_DONE: the posted buffer was consumed. */
void fw_rq_done(const uint8_t *ev)
{
	uint32_t qpn = rnic_rx_event_get_qpn(ev);
	uint32_t kind = rnic_rx_event_get_kind(ev);

	if (rnic_qp_ctx_get_state(ctx(qpn)) == RNIC_QP_STATE_ERR)
		return; /* consumed just before the move to ERR: its WQE was flushed already */
	if (fw_res.qp_run[qpn].rq_posted)
		fw_res.qp_run[qpn].rq_posted--;
	recv_cqe(qpn, rnic_rx_event_get_wr_id(ev), rnic_rx_event_get_status(ev),
		 kind == RNIC_RX_EVENT_KIND_WRITE_IMM_DONE ? RNIC_WC_OPCODE_RECV_RDMA_WITH_IMM : RNIC_WC_OPCODE_RECV,
		 rnic_rx_event_get_byte_len(ev), rnic_rx_event_get_imm_data(ev), rnic_rx_event_get_flags(ev),
		 rnic_rx_event_get_src_qpn(ev));
	fw_rq_service(qpn);
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
	if ((st == RNIC_WC_STATUS_LOC_LEN_ERR || st == RNIC_WC_STATUS_LOC_PROT_ERR) && fw_res.qp_run[qpn].rq_posted &&
	    rnic_qp_ctx_get_rq_ci(c) != rnic_qp_ctx_get_rq_pi(c)) {
		fw_res.qp_run[qpn].rq_posted = 0;
		recv_cqe(qpn, rnic_rx_event_get_wr_id(ev), st, RNIC_WC_OPCODE_RECV, rnic_rx_event_get_byte_len(ev), 0, 0,
			 0);
	}
	fw_qp_fatal(qpn, st, RNIC_EQ_QP_SIDE_RESPONDER);
}
