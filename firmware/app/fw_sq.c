/* Send queues: WQEs fetched from the host ring after a doorbell, turned into transmit
 * descriptors for the RTL, kept until acknowledged, completed in order. */
#include "fw_dma.h"
#include "fw_log.h"
#include "fw_mbox.h"
#include "fw_res.h"
#include "fw_wqf.h"
#include "fw_xport.h"
#include "hal.h"

#define WQEBB 64u
#define PSN_MASK 0xFFFFFFu
/* A SEND or WRITE longer than SEG_PKTS packets goes out in descriptors of SEG_PKTS packets (tx_flag
 * CONT / MORE), the last packet of each with AckReq, and at most WIN_PKTS packets beyond the
 * oldest unacknowledged PSN are sent. Go-back-N loses what was sent after a lost packet: the
 * window bounds that to about WIN_PKTS packets instead of the rest of the message, and a resend
 * starts at the PSN the NAK names (docs/firmware.md, retransmission). */
#define SEG_PKTS 32u
#define WIN_PKTS 64u
/* MMIO polls of the rd_desc mailbox's status before a READ gives up and stalls (~7 cycles each) */
#define RDD_WAIT_POLLS 32u

/* a <= b in 24-bit PSN arithmetic */
static int psn_le(uint32_t a, uint32_t b) { return ((b - a) & PSN_MASK) < 0x800000u; }
static int psn_lt(uint32_t a, uint32_t b) { return a != b && psn_le(a, b); }

static uint8_t *ctx(uint32_t qpn) { return fw_res.qp_ctx[qpn]; }

uint32_t fw_hw_caps;

/* ---- timers: the local ACK timeout is 4.096 us * 2^timeout (1024 cycles at 250 MHz), 0 never */
static uint64_t next_deadline = ~0ull; /* no QP's deadline is earlier */

static void arm(uint32_t qpn, uint64_t cycles, int rnr)
{
	struct fw_qp_run *r = &fw_res.qp_run[qpn];
	r->deadline = hal_cycles() + cycles;
	r->rnr_wait = (uint8_t)rnr;
	if (r->deadline < next_deadline)
		next_deadline = r->deadline;
}

static void arm_ack_timer(uint32_t qpn)
{
	uint32_t t = rnic_qp_ctx_get_timeout(ctx(qpn));
	if (t == 0 || fw_res.qp_run[qpn].head < 0)
		fw_res.qp_run[qpn].deadline = 0;
	else
		arm(qpn, 1024ull << t, 0);
}

/* RNR NAK timer codes (IBTA table; also min_rnr_timer) in units of 10 us. */
static const uint32_t rnr_10us[32] = { 65536, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192,
				       256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192,
				       12288, 16384, 24576, 32768, 49152 };

/* The descriptor of the WQE sent in pieces most recently (one for all QPs: usually one long
 * message is in progress at a time): its next pieces need no new WQE fetch. */
static FW_LAYOUT_ALIGN uint8_t pc_d[RNIC_TX_DESC_SIZE];
static uint8_t pc_ok;
static uint32_t pc_qpn, pc_idx, pc_nbb;

/* READs and atomics with a context in the receive engine (hw_caps[15:8] of them, shared by all
 * QPs), and whether a QP had to hold one back for want of a context. */
static uint32_t rd_out, rd_waiting;

static int is_rd_atomic(uint32_t op)
{
	return op == RNIC_WQE_OP_RDMA_READ || op == RNIC_WQE_OP_ATOMIC_CMP_AND_SWP ||
	       op == RNIC_WQE_OP_ATOMIC_FETCH_AND_ADD;
}

uint32_t fw_sq_rd_outstanding(void) { return rd_out; }

static int16_t swqe_get(void)
{
	int16_t i = fw_res.swqe_free;
	if (i >= 0) {
		fw_res.swqe_free = fw_res.swqe[i].next;
		fw_res.swqe[i].opcode = 0xFF; /* not counted until it is sent */
		fw_res.swqe[i].resp = 0;
	}
	return i;
}

/* Frees record i of qpn (a READ or atomic that went out frees its response context too). */
static void swqe_put(uint32_t qpn, int16_t i)
{
	if (is_rd_atomic(fw_res.swqe[i].opcode)) {
		if (rd_out)
			rd_out--;
		if (fw_res.qp_run[qpn].rd_n)
			fw_res.qp_run[qpn].rd_n--;
	}
	fw_res.swqe[i].next = fw_res.swqe_free;
	fw_res.swqe_free = i;
}

/* May one more READ / atomic of qpn go out: fewer than max_rd_atomic of the QP's are
 * outstanding (IBTA: the responder has only that many resources), and the receive engine has a
 * free response context (an atomic's original value is placed through one too). */
static int rd_room(uint32_t qpn)
{
	uint32_t lim = rnic_qp_ctx_get_max_rd_atomic(fw_res.qp_ctx[qpn]);
	if (lim == 0)
		lim = 1;
	if (fw_res.qp_run[qpn].rd_n >= lim)
		return 0;
	if (rd_out >= ((fw_hw_caps >> 8) & 0xFFu ? (fw_hw_caps >> 8) & 0xFFu : 1u)) {
		rd_waiting = 1;
		return 0;
	}
	return 1;
}

void fw_xport_init(void)
{
	fw_hw_caps = hal_rd32(RNIC_FW_REG_HW_CAPS);
	rd_out = rd_waiting = 0;
	pc_ok = 0;
	fw_res.swqe_free = -1;
	for (int16_t i = FW_MAX_SWQE - 1; i >= 0; i--)
		swqe_put(0, i); /* zeroed records: not READs */
	for (uint32_t q = 0; q < FW_MAX_QP; q++)
		fw_res.qp_run[q].head = fw_res.qp_run[q].tail = -1;
}

static uint32_t wc_opcode(uint32_t wqe_op)
{
	switch (wqe_op) {
	case RNIC_WQE_OP_RDMA_WRITE:
	case RNIC_WQE_OP_RDMA_WRITE_WITH_IMM: return RNIC_WC_OPCODE_RDMA_WRITE;
	case RNIC_WQE_OP_RDMA_READ: return RNIC_WC_OPCODE_RDMA_READ;
	case RNIC_WQE_OP_ATOMIC_CMP_AND_SWP: return RNIC_WC_OPCODE_COMP_SWAP;
	case RNIC_WQE_OP_ATOMIC_FETCH_AND_ADD: return RNIC_WC_OPCODE_FETCH_ADD;
	default: return RNIC_WC_OPCODE_SEND;
	}
}

static void complete(uint32_t qpn, const struct fw_swqe *w, uint32_t status)
{
	if (!w->signaled && status == RNIC_WC_STATUS_SUCCESS)
		return;
	fw_cqe_put(FW_CQ_REC_W7(rnic_qp_ctx_get_send_cqn(ctx(qpn)), w->wqe_index), w->wr_id, w->len, 0, qpn, 0,
		   status | wc_opcode(w->opcode) << 8);
}

/* Removes the oldest outstanding WQE of qpn and completes it with status. */
static void retire_head(uint32_t qpn, uint32_t status)
{
	struct fw_qp_run *r = &fw_res.qp_run[qpn];
	int16_t i = r->head;

	complete(qpn, &fw_res.swqe[i], status);
	rnic_qp_ctx_set_sq_ci(ctx(qpn), (uint16_t)(fw_res.swqe[i].wqe_index + 1));
	r->head = fw_res.swqe[i].next;
	if (r->head < 0)
		r->tail = -1;
	swqe_put(qpn, i);
}

static uint64_t wqebb_addr(const uint8_t *c, uint32_t idx);

/* WQEBBs staged in the WQE fetch engine's buffer (rtl/wqe_fetch, one-cycle loads on the tightly
 * coupled window): SQ indices [st_first, st_first + st_n) of one QP from buffer slot st_slot on.
 * The buffer is used in two halves of HALF_BBS: one fetch serves every WQE a doorbell announced
 * (up to HALF_BBS WQEBBs) instead of a PCIe round trip each, and while the firmware works on one
 * half the WQEBBs announced after it are fetched into the other (pf_*), so a stream of WQEs
 * rarely waits for a fetch. Both are emptied whenever a service pass starts, so nothing stale
 * survives a QP being destroyed, reset or re-created; a fetch forgotten while in flight is
 * harmless, the engine completes commands in order, before any later fetch into its slots. */
#define HALF_BBS (FW_WQF_BBS / 2u)
static uint32_t st_first, st_n, st_slot;
/* The QP whose last service pass was cut at SQ_PASS_MAX WQEs (0: none): its next pass, if no
 * other pass ran in between, keeps the staged WQEBBs and the prefetch instead of fetching them
 * again (fw_sq_service). */
static uint32_t sq_cont;
static const uint8_t *pf_c; /* the prefetch's QP context */
static uint32_t pf_first, pf_n, pf_slot, pf_cmd0, pf_cmd1;

static void stage_empty(void)
{
	st_n = 0;
	pf_n = 0;
}

/* BlueFlame: the staged WQEBBs may instead be the doorbell BAR's capture (st_bf: on the tightly
 * coupled window too; rtl/doorbell), taken for
 * the bf_db being served (bf_seq >= 0) when its status names that doorbell, this QP's page and
 * the WQE at idx. It is checked again after the WQE was read (st_bf_seq): a host write may
 * have overtaken it meanwhile, and then the ring is read after all. */
static uint8_t st_bf;
static int bf_seq = -1;
static uint32_t st_bf_seq;

static int bf_status_names(uint32_t seq, uint32_t page, uint32_t *wqebbs)
{
	FW_LAYOUT_ALIGN uint8_t s[4];
	rnic_st_le32(s, hal_tc_rd32(RNIC_FW_TC_BF_STATUS));
	*wqebbs = rnic_bf_status_get_wqebbs(s);
	return rnic_bf_status_get_valid(s) && rnic_bf_status_get_seq(s) == seq && rnic_bf_status_get_page(s) == page;
}

static int32_t stage_bf(const uint8_t *c, uint32_t idx)
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
	st_bf_seq = seq;
	return (int32_t)RNIC_FW_TC_BF_DATA_BASE;
}

/* Copies the staged WQEBB at tightly coupled address b (from stage()) to w: unrolled, a load
 * and a store per word (the loop's counter and branch cost as much as the one-cycle load). */
static void stage_read(int32_t b, uint8_t *w)
{
	uint8_t *d = (uint8_t *)RNIC_ASSUME_ALIGNED(w, 4);
#pragma GCC unroll 16
	for (uint32_t i = 0; i < WQEBB; i += 4)
		rnic_st_le32(d + i, hal_tc_rd32((uint32_t)b + i));
}

/* After reading a WQE from the capture: was it still this doorbell's the whole time? */
static int stage_bf_held(const uint8_t *c)
{
	uint32_t n;
	return bf_status_names(st_bf_seq, rnic_qp_ctx_get_uctx(c), &n);
}

/* Forgets the capture: the WQE is read again, from the ring. */
static void stage_bf_drop(void)
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

/* The tightly coupled address of WQEBB idx of the QP with context c, fetching from idx on (up to
 * the producer index and HALF_BBS) when it is not staged; -1 on a DMA failure. */
static int32_t stage(const uint8_t *c, uint32_t idx)
{
	uint32_t rel = (idx - st_first) & 0xFFFFu; /* SQ indices are 16 bits */
	if (rel < st_n)
		return (int32_t)(st_bf ? RNIC_FW_TC_BF_DATA_BASE + rel * WQEBB : FW_WQF_SLOT(st_slot + rel));
	st_bf = 0;
	if (bf_seq >= 0) {
		int32_t b = stage_bf(c, idx);
		if (b >= 0)
			return b;
		fw_perf.bf_misses++;
	}
	uint32_t first, last, n;
	if (pf_n && pf_c == c && pf_first == (idx & 0xFFFFu)) {
		/* the prefetch holds idx: its commands are in flight or done */
		n = pf_n, st_slot = pf_slot, first = pf_cmd0, last = pf_cmd1;
	} else {
		n = announced(c, idx);
		if (n == 0)
			n = 1; /* not announced (a flush reads what is there) */
		st_slot = 0;
		first = fetch_issue(c, idx, n, st_slot, &last);
	}
	st_first = idx & 0xFFFFu;
	/* the WQEBBs announced after these go into the other half before waiting for these */
	pf_n = announced(c, (idx + n) & 0xFFFFu);
	if (pf_n) {
		pf_c = c;
		pf_first = (idx + n) & 0xFFFFu;
		pf_slot = st_slot ^ HALF_BBS;
		pf_cmd0 = fetch_issue(c, pf_first, pf_n, pf_slot, &pf_cmd1);
	}
	st_n = 0;
	if (fw_wqf_wait(first, last)) {
		pf_n = 0;
		return -1;
	}
	st_n = n;
	return (int32_t)FW_WQF_SLOT(st_slot);
}

/* WQEs the host posted that were never sent complete with WR_FLUSH_ERR, in order. */
static void flush_unsent(uint32_t qpn)
{
	uint8_t *c = ctx(qpn);
	FW_LAYOUT_ALIGN uint8_t w[WQEBB];

	while (rnic_qp_ctx_get_sq_next(c) != rnic_qp_ctx_get_sq_pi(c)) {
		uint32_t idx = rnic_qp_ctx_get_sq_next(c);
		stage_empty();
		int32_t b = stage(c, idx);
		if (b < 0)
			return;
		stage_read(b, w);
		if (st_bf && !stage_bf_held(c)) {
			stage_bf_drop();
			continue;
		}
		if (fw_res.qp_run[qpn].sq_skip) {
			if (rnic_wqe_ctrl_get_wqe_index(w) != (idx & 0xFFFFu)) {
				/* not a WQE's first WQEBB: the rest of the one whose fetch failed */
				rnic_qp_ctx_set_sq_next(c, (uint16_t)(idx + 1));
				rnic_qp_ctx_set_sq_ci(c, rnic_qp_ctx_get_sq_next(c));
				continue;
			}
			fw_res.qp_run[qpn].sq_skip = 0;
		}
		struct fw_swqe f = { 0 };
		f.wr_id = rnic_wqe_ctrl_get_wr_id(w);
		f.wqe_index = (uint16_t)idx;
		f.opcode = (uint8_t)rnic_wqe_ctrl_get_opcode(w);
		complete(qpn, &f, RNIC_WC_STATUS_WR_FLUSH_ERR);
		uint32_t nbb = (RNIC_WQE_CTRL_SIZE + 16u * rnic_wqe_ctrl_get_num_ds(w) + WQEBB - 1) / WQEBB;
		rnic_qp_ctx_set_sq_next(c, (uint16_t)(idx + (nbb ? nbb : 1)));
		rnic_qp_ctx_set_sq_ci(c, rnic_qp_ctx_get_sq_next(c));
	}
}


void fw_sq_release(uint32_t qpn)
{
	struct fw_qp_run *r = &fw_res.qp_run[qpn];

	while (r->head >= 0) {
		int16_t i = r->head;
		r->head = fw_res.swqe[i].next;
		swqe_put(qpn, i);
	}
	r->tail = -1;
	r->deadline = 0;
	r->rnr_wait = 0;
	r->rq_posted = 0;
	r->sq_stalled = 0;
	r->rq_stalled = 0;
	r->sq_skip = 0;
	r->part1 = 0;
	r->hi_ok = 0;
	pc_ok = 0;
	if (sq_cont == qpn)
		sq_cont = 0; /* a new QP of this number starts with nothing staged */
}

/* The first half of the move to ERR: no more traffic, the sent WQEs flushed. A move the NIC
 * makes itself (status: the error's wc_status, not SUCCESS) tells the host with one QP_FATAL
 * event (subtype status, data side); the host's own MODIFY_QP to ERR (SUCCESS) does not. */
static void qp_enter_err(uint32_t qpn, uint32_t status, uint32_t side)
{
	fw_res.qp_run[qpn].deadline = 0;
	if (fw_res.qp_run[qpn].part1) {
		/* a WQE sent in part has its record (flushed below): the unsent flush skips it */
		rnic_qp_ctx_set_sq_next(ctx(qpn), (uint16_t)(rnic_qp_ctx_get_sq_next(ctx(qpn)) + fw_res.qp_run[qpn].part_nbb));
		fw_res.qp_run[qpn].part1 = 0;
	}
	if (rnic_qp_ctx_get_state(ctx(qpn)) != RNIC_QP_STATE_ERR) {
		rnic_qp_ctx_set_state(ctx(qpn), RNIC_QP_STATE_ERR);
		if (fw_qpt_program(qpn)) /* no more traffic, and the receive slot is emptied */
			fw_log("qp %u: QP table did not take the ERR entry", (unsigned)qpn);
		if (status != RNIC_WC_STATUS_SUCCESS)
			fw_eq_post(RNIC_EQ_TYPE_QP_FATAL, status, qpn, side);
	}
	while (fw_res.qp_run[qpn].head >= 0)
		retire_head(qpn, RNIC_WC_STATUS_WR_FLUSH_ERR);
}

void fw_qp_fatal(uint32_t qpn, uint32_t status, uint32_t side)
{
	qp_enter_err(qpn, status, side);
	flush_unsent(qpn);
	fw_rq_flush(qpn);
}

void fw_qp_to_err(uint32_t qpn) { fw_qp_fatal(qpn, RNIC_WC_STATUS_SUCCESS, 0); }

/* The WQE at idx could not be fetched (the bus answered the read with an error): it completes
 * with LOC_QP_OP_ERR after the older outstanding WQEs (flushed) and the QP goes to ERR (IBTA:
 * a local error while processing a WR completes it in error and moves the QP to ERR). Its wr_id, opcode and size are in the WQE we
 * could not read: the CQE carries wr_id 0, opcode SEND and the WQE's index (wqe_index), and the
 * WQEBBs after the first one are skipped by the flush (no WQE starts there). */
static __attribute__((noinline)) uint32_t sq_fetch_failed(uint32_t qpn, uint32_t idx)
{
	uint8_t *c = ctx(qpn);
	struct fw_swqe f = { 0 };

	fw_log("qp %u: SQ WQE %u fetch failed", (unsigned)qpn, (unsigned)idx);
	stage_empty();
	qp_enter_err(qpn, RNIC_WC_STATUS_LOC_QP_OP_ERR, RNIC_EQ_QP_SIDE_REQUESTER);
	f.wqe_index = (uint16_t)idx;
	f.opcode = RNIC_WQE_OP_SEND;
	complete(qpn, &f, RNIC_WC_STATUS_LOC_QP_OP_ERR);
	rnic_qp_ctx_set_sq_next(c, (uint16_t)(idx + 1));
	rnic_qp_ctx_set_sq_ci(c, rnic_qp_ctx_get_sq_next(c));
	fw_res.qp_run[qpn].sq_skip = 1;
	flush_unsent(qpn); /* the unsent WQEs after it */
	fw_rq_flush(qpn);
	return 0;
}

static uint64_t wqebb_addr(const uint8_t *c, uint32_t idx)
{
	uint32_t mask = (1u << rnic_qp_ctx_get_sq_log_size(c)) - 1;
	return rnic_qp_ctx_get_buf_addr(c) + (uint64_t)(idx & mask) * WQEBB;
}

static uint32_t msg_kind(uint32_t op)
{
	switch (op) {
	case RNIC_WQE_OP_RDMA_WRITE: return RNIC_MSG_KIND_WRITE;
	case RNIC_WQE_OP_RDMA_WRITE_WITH_IMM: return RNIC_MSG_KIND_WRITE_IMM;
	case RNIC_WQE_OP_SEND_WITH_IMM: return RNIC_MSG_KIND_SEND_IMM;
	case RNIC_WQE_OP_RDMA_READ: return RNIC_MSG_KIND_READ_REQ;
	case RNIC_WQE_OP_ATOMIC_CMP_AND_SWP: return RNIC_MSG_KIND_CMP_SWAP;
	case RNIC_WQE_OP_ATOMIC_FETCH_AND_ADD: return RNIC_MSG_KIND_FETCH_ADD;
	default: return RNIC_MSG_KIND_SEND;
	}
}

static void set_sge(uint8_t *d, uint32_t i, uint64_t addr, uint32_t len, uint32_t lkey)
{
	/* tx_desc SGEs are 16 bytes apart from sge0 */
	uint8_t *s = (uint8_t *)RNIC_ASSUME_ALIGNED(d, 8) + RNIC_TX_DESC_SGE0_ADDR_OFF + 16 * i;
	rnic_st_le64(s, addr);
	rnic_st_le32(s + 8, len);
	rnic_st_le32(s + 12, lkey);
}

uint8_t fw_stalled_any;

/* send_one could not go on for a reason that passes (busy mailbox, no free record, a paused
 * priority). */
static uint32_t stall(uint32_t qpn)
{
	fw_res.qp_run[qpn].sq_stalled = 1;
	fw_stalled_any = 1;
	return 0;
}

/* Priority flow control: the priorities the MAC holds (tx_pause register, bit p = priority p),
 * read once per fw_sq_service and again before each piece of a long message. A message of a
 * paused priority is not handed to the transmit engine: there it would hold the frames of every
 * other priority behind it. Its QP stalls and is retried with the other stalled ones. */
static uint32_t sq_paused;

static int tc_paused(uint32_t traffic_class)
{
	return (int)((sq_paused >> (traffic_class >> 5)) & 1u);
}

/* Before a READ request (or an atomic: atomic 1, len 8) leaves, the receive engine learns where
 * its responses (the original value) go: the local SGEs of the descriptor. 0, or -1 when it
 * cannot take it. */
static int post_read_dest(uint32_t qpn, uint32_t psn, uint32_t len, const uint8_t *d, uint32_t k, int atomic)
{
	FW_LAYOUT_ALIGN uint8_t r[RNIC_RD_DESC_SIZE];
	uint32_t n = rnic_tx_desc_get_num_sge(d);

	if (!(fw_hw_caps & 2u) || n > RNIC_MAX_SGE) {
		fw_log("qp %u: READ not served (engine or SGE count)", (unsigned)qpn);
		return -1;
	}
	/* The receive engine takes a rd_desc between packets, so while READ responses stream in it
	 * is busy for up to one packet (~85 cycles at 4 KiB). Waiting that long is cheaper than a
	 * stalled QP (its retry fetches the WQEs again) and keeps the next READ request close
	 * behind the last; a longer wait means the engine may be waiting for us to take an event. */
	for (uint32_t i = 0; hal_rd32(RNIC_FW_REG_RDD_STATUS) & 1u;)
		if (++i == RDD_WAIT_POLLS)
			return -1;
	/* only the header is cleared: SGEs beyond num_sge are not written (the engine ignores them) */
	for (uint32_t i = 0; i < RNIC_RD_DESC_SGE0_ADDR_OFF; i += 4)
		rnic_st_le32(r + i, 0);
	rnic_rd_desc_set_qpn(r, qpn);
	rnic_rd_desc_set_num_sge(r, n);
	rnic_rd_desc_set_first_psn(r, psn);
	rnic_rd_desc_set_length(r, len);
	rnic_rd_desc_set_atomic(r, (uint32_t)atomic);
	if (k) {
		rnic_rd_desc_set_resume(r, 1);
		rnic_rd_desc_set_resume_psn(r, (psn + k) & PSN_MASK);
	}
	for (uint32_t i = 0; i < n * 16; i += 4) /* same SGE layout from offset 16 / 64 */
		rnic_st_le32(r + RNIC_RD_DESC_SGE0_ADDR_OFF + i,
			     rnic_ld_le32((const uint8_t *)RNIC_ASSUME_ALIGNED(d, 8) + RNIC_TX_DESC_SGE0_ADDR_OFF + i));
	return fw_mbox_send(RNIC_FW_REG_RDD_DATA, RNIC_FW_REG_RDD_COMMIT, RNIC_FW_REG_RDD_STATUS, r,
			    (RNIC_RD_DESC_SGE0_ADDR_OFF + 16 * n) / 4, qpn);
}

/* Hands descriptor d to the transmit engine through its mailbox; 0, or -1 if the engine never
 * took the previous one. Every word is an MMIO store of several cycles, so only the words the
 * engine reads are written: bytes 32-63 (atomic operands, UD addressing) only for atomics and
 * UD (with_ext), and no SGE beyond num_sge; the mailbox keeps whatever the rest held. */
static int txd_send(const uint8_t *d, int with_ext)
{
	const uint8_t *p = (const uint8_t *)RNIC_ASSUME_ALIGNED(d, 8);
	uint32_t nsge = rnic_tx_desc_get_num_sge(p), i = 0;
	uint32_t hdr_end = with_ext ? RNIC_TX_DESC_SGE0_ADDR_OFF : RNIC_TX_DESC_SWAP_ADD_OFF;
	uint32_t end = RNIC_TX_DESC_SGE0_ADDR_OFF + 16u * (nsge < 4 ? nsge : 4);

	while (hal_rd32(RNIC_FW_REG_TXD_STATUS) & 1u)
		if (++i == 100000u)
			return -1;
	for (i = 0; i < hdr_end; i += 4)
		hal_wr32(RNIC_FW_REG_TXD_DATA + i, rnic_ld_le32(p + i));
	for (i = RNIC_TX_DESC_SGE0_ADDR_OFF; i < end; i += 4)
		hal_wr32(RNIC_FW_REG_TXD_DATA + i, rnic_ld_le32(p + i));
	hal_wr32(RNIC_FW_REG_TXD_COMMIT, 0);
	return 0;
}

/* A READ sent again (go-back-N) whose first k responses the receive engine already placed
 * resumes at PSN psn + k (IBTA: the responder answers a READ at any PSN of its range); 0 when it
 * is new or nothing of it arrived. */
static uint32_t read_progress(uint32_t qpn, uint32_t psn, uint32_t npkts)
{
	hal_wr32(RNIC_FW_REG_RDQ_QPN, qpn);
	hal_wr32(RNIC_FW_REG_RDQ_PSN, psn);
	uint32_t r = hal_rd32(RNIC_FW_REG_RDQ_RESULT);
	if (!(r >> 31))
		return 0;
	uint32_t k = (r - psn) & PSN_MASK;
	return k < npkts ? k : 0;
}

/* SENDs and WRITEs may be sent in pieces (segments, a resend from the middle). */
static int seg_op(uint32_t op)
{
	return op <= RNIC_WQE_OP_SEND_WITH_IMM; /* RDMA_WRITE(_WITH_IMM), SEND(_WITH_IMM) */
}

/* Did PSN p go out before (a descriptor holding it is a retransmission)? */
static int was_sent(const struct fw_qp_run *r, uint32_t p) { return r->hi_ok && psn_lt(p, r->hi_psn); }

/* Record ri (fields filled) becomes the QP's newest outstanding WQE. */
static void rec_link(uint32_t qpn, int16_t ri)
{
	struct fw_qp_run *run = &fw_res.qp_run[qpn];
	struct fw_swqe *r = &fw_res.swqe[ri];

	if (is_rd_atomic(r->opcode)) {
		rd_out++;
		run->rd_n++;
	}
	r->next = -1;
	if (run->tail >= 0) {
		fw_res.swqe[run->tail].next = ri;
	} else {
		run->head = ri;
		run->una = r->first_psn;
	}
	run->tail = ri;
	rnic_qp_ctx_set_sq_psn(ctx(qpn), (r->last_psn + 1) & PSN_MASK);
	if (!run->deadline)
		arm_ack_timer(qpn);
}

/* Fills record ri (wr_id, npkts packets from psn) and links it as the QP's newest. */
static void rec_set(uint32_t qpn, int16_t ri, uint64_t wr_id, const uint8_t *c, uint32_t psn, uint32_t npkts,
		    uint32_t len, uint32_t idx, uint32_t op, uint32_t flags)
{
	struct fw_swqe *r = &fw_res.swqe[ri];

	r->wr_id = wr_id;
	r->first_psn = psn;
	r->last_psn = (psn + npkts - 1) & PSN_MASK;
	r->len = len;
	r->wqe_index = (uint16_t)idx;
	r->opcode = (uint8_t)op;
	r->signaled = (flags & (1u << RNIC_WQE_FLAG_SIGNALED)) || rnic_qp_ctx_get_sq_sig_all(c);
	rec_link(qpn, ri);
}

/* The same from WQE w. */
static void rec_fill(uint32_t qpn, int16_t ri, const uint8_t *w, const uint8_t *c, uint32_t psn,
		     uint32_t npkts, uint32_t len, uint32_t idx, uint32_t op, uint32_t flags)
{
	rec_set(qpn, ri, rnic_wqe_ctrl_get_wr_id(w), c, psn, npkts, len, idx, op, flags);
}

/* s = the piece of message descriptor d from byte off, bytes long: the SGE walk starts at the
 * right byte of the right SGE (remote_va and psn are the caller's). */
static void seg_desc(uint8_t *s, const uint8_t *d, uint32_t off, uint32_t bytes)
{
	uint32_t n = rnic_tx_desc_get_num_sge(d), out = 0;
	const uint8_t *dd = (const uint8_t *)RNIC_ASSUME_ALIGNED(d, 8);

	for (uint32_t i = 0; i < RNIC_TX_DESC_SGE0_ADDR_OFF; i += 4)
		rnic_st_le32((uint8_t *)RNIC_ASSUME_ALIGNED(s, 8) + i, rnic_ld_le32(dd + i));
	for (uint32_t i = 0; i < n && i < 4 && bytes; i++) {
		const uint8_t *g = dd + RNIC_TX_DESC_SGE0_ADDR_OFF + 16 * i;
		uint32_t len = rnic_ld_le32(g + 8);
		if (off >= len) {
			off -= len;
			continue;
		}
		uint32_t take = len - off < bytes ? len - off : bytes;
		set_sge(s, out++, rnic_ld_le64(g) + off, take, rnic_ld_le32(g + 12));
		bytes -= take;
		off = 0;
	}
	rnic_tx_desc_set_num_sge(s, out);
}

/* Sends the next pieces of record ri (message descriptor d, nbb WQEBBs) from run->part_psn, at
 * most SEG_PKTS packets each, while the window allows. nbb once the whole message is out, 0 while
 * it waits (for an ACK, or a busy mailbox). */
static uint32_t send_segs(uint32_t qpn, const uint8_t *d, uint32_t nbb, int16_t ri)
{
	struct fw_qp_run *run = &fw_res.qp_run[qpn];
	const struct fw_swqe *w = &fw_res.swqe[ri];
	uint32_t mtu_log = 7u + rnic_qp_ctx_get_path_mtu(ctx(qpn));
	uint32_t npkts = ((w->last_psn - w->first_psn) & PSN_MASK) + 1, next = run->part_psn;
	uint32_t kind = rnic_tx_desc_get_kind(d);
	FW_LAYOUT_ALIGN uint8_t s[RNIC_TX_DESC_SIZE];

	run->part1 = (int16_t)(ri + 1);
	run->part_nbb = (uint8_t)nbb;
	/* the responder already has what was acknowledged */
	if (psn_lt(next, run->una) && psn_le(run->una, w->last_psn))
		next = run->una;
	for (;;) {
		uint32_t k = (next - w->first_psn) & PSN_MASK;
		if (k >= npkts) {
			run->part1 = 0;
			return nbb;
		}
		uint32_t ahead = (next - run->una) & PSN_MASK;
		if (ahead >= WIN_PKTS && ahead < 0x800000u) {
			run->part_psn = next; /* the next ACK goes on */
			return 0;
		}
		if (hal_rd32(RNIC_FW_REG_TXD_STATUS) & 1u) {
			run->part_psn = next;
			return stall(qpn);
		}
		sq_paused = hal_rd32(RNIC_FW_REG_TX_PAUSE);
		if (tc_paused(rnic_qp_ctx_get_traffic_class(ctx(qpn)))) {
			run->part_psn = next;
			return stall(qpn);
		}
		uint32_t n = npkts - k < SEG_PKTS ? npkts - k : SEG_PKTS;
		uint32_t off = k << mtu_log, bytes = w->len - off;
		if (bytes > (n << mtu_log))
			bytes = n << mtu_log;
		seg_desc(s, d, off, bytes);
		rnic_tx_desc_set_length(s, bytes);
		rnic_tx_desc_set_psn(s, next);
		if (kind == RNIC_MSG_KIND_WRITE || kind == RNIC_MSG_KIND_WRITE_IMM)
			rnic_tx_desc_set_remote_va(s, rnic_tx_desc_get_remote_va(d) + off);
		uint32_t f = rnic_tx_desc_get_flags(d);
		if (k)
			f |= 1u << RNIC_TX_FLAG_CONT;
		if (k + n < npkts)
			f |= 1u << RNIC_TX_FLAG_MORE;
		if (was_sent(run, next))
			f |= 1u << RNIC_TX_FLAG_RETRANSMIT;
		rnic_tx_desc_set_flags(s, f);
		/* a first WRITE piece of several: the RETH carries the whole length (bytes 32-63) */
		int ext = !k && k + n < npkts && (kind == RNIC_MSG_KIND_WRITE || kind == RNIC_MSG_KIND_WRITE_IMM);
		if (ext)
			rnic_tx_desc_set_msg_len(s, w->len);
		if (txd_send(s, ext)) {
			run->part_psn = next;
			fw_log("qp %u: transmit engine not taking descriptors", (unsigned)qpn);
			return 0;
		}
		fw_perf.sq_wqes++;
		next = (next + n) & PSN_MASK;
		run->part_psn = next;
	}
}

/* Fetches the WQE at idx, sends its descriptor; returns the WQEBBs it used, 0 to stop. */
static uint32_t send_one(uint32_t qpn, uint32_t idx)
{
	uint8_t *c = ctx(qpn);
	FW_LAYOUT_ALIGN uint8_t w[4 * WQEBB], d[RNIC_TX_DESC_SIZE];
	struct fw_qp_run *run = &fw_res.qp_run[qpn];
	/* the WQE at sq_next may be part-sent (record part): its next pieces */
	int16_t part = (run->part1 && fw_res.swqe[run->part1 - 1].wqe_index == (idx & 0xFFFFu)) ? run->part1 - 1 : -1;
	if (rnic_qp_ctx_get_qp_type(c) != RNIC_QP_TYPE_UD && tc_paused(rnic_qp_ctx_get_traffic_class(c)))
		return stall(qpn);
	/* The transmit engine takes a descriptor once the one before has issued its payload DMA, so
	 * behind a long message the mailbox stays full for microseconds. Stall before the WQE is
	 * fetched: the retry would fetch it again (a PCIe round trip waited for each time). */
	if (hal_rd32(RNIC_FW_REG_TXD_STATUS) & 1u)
		return stall(qpn);
	if (part >= 0 && pc_ok && pc_qpn == qpn && pc_idx == (idx & 0xFFFFu))
		return send_segs(qpn, pc_d, pc_nbb, part);

	uint32_t nbb;
	for (;;) {
		int32_t b = stage(c, idx);
		if (b < 0)
			return sq_fetch_failed(qpn, idx);
		stage_read(b, w);
		uint32_t bytes = RNIC_WQE_CTRL_SIZE + 16u * rnic_wqe_ctrl_get_num_ds(w);
		nbb = (bytes + WQEBB - 1) / WQEBB;
		uint8_t from_bf = st_bf;
		int ok = nbb <= 4 && rnic_wqe_ctrl_get_wqe_index(w) == (idx & 0xFFFFu) && (!from_bf || nbb <= st_n);
		for (uint32_t k = 1; ok && k < nbb; k++) { /* later WQEBBs may wrap to the ring start */
			if ((b = stage(c, idx + k)) < 0)
				return sq_fetch_failed(qpn, idx);
			stage_read(b, w + k * WQEBB);
		}
		/* From the capture, it must have been whole and this doorbell's all along: otherwise
		 * read the WQE again from the ring. */
		if (from_bf && !(ok && stage_bf_held(c))) {
			stage_bf_drop();
			continue;
		}
		if (!ok) {
			fw_log("qp %u: malformed WQE at %u", (unsigned)qpn, (unsigned)idx);
			return 0;
		}
		break;
	}
	if (st_bf)
		fw_perf.bf_wqes++;
	int16_t ri = part >= 0 ? part : swqe_get();
	if (ri < 0)
		return stall(qpn); /* every record in use: resume when completions free some */
	/* Only the descriptor's first 64 bytes are cleared: txd_send sends no SGE beyond num_sge.
	 * Unrolled: 16 stores instead of a 3-instruction loop per word (~35 cycles per WQE). */
#pragma GCC unroll 16
	for (uint32_t i = 0; i < RNIC_TX_DESC_SGE0_ADDR_OFF; i += 4)
		rnic_st_le32((uint8_t *)RNIC_ASSUME_ALIGNED(d, 8) + i, 0);

	uint32_t op = rnic_wqe_ctrl_get_opcode(w), flags = rnic_wqe_ctrl_get_flags(w);
	if (is_rd_atomic(op) && !rd_room(qpn)) {
		swqe_put(qpn, ri); /* held back: sent when an outstanding one completes */
		return 0;
	}
	uint32_t len = rnic_wqe_ctrl_get_total_len(w), off = RNIC_WQE_CTRL_SIZE;
	uint32_t psn = part >= 0 ? fw_res.swqe[part].first_psn : rnic_qp_ctx_get_sq_psn(c);
	uint32_t mtu_log = 7u + rnic_qp_ctx_get_path_mtu(c);
	rnic_tx_desc_set_qpn(d, qpn);
	rnic_tx_desc_set_kind(d, msg_kind(op));
	rnic_tx_desc_set_psn(d, psn);
	rnic_tx_desc_set_length(d, len);
	rnic_tx_desc_set_imm_data(d, rnic_wqe_ctrl_get_imm_data(w));
	uint32_t tflags = (flags & (1u << RNIC_WQE_FLAG_SOLICITED)) ? 1u << RNIC_TX_FLAG_SOLICITED : 0;
	if (op == RNIC_WQE_OP_RDMA_WRITE || op == RNIC_WQE_OP_RDMA_WRITE_WITH_IMM || op == RNIC_WQE_OP_RDMA_READ) {
		rnic_tx_desc_set_remote_va(d, rnic_wqe_raddr_get_remote_addr(w + off));
		rnic_tx_desc_set_rkey(d, rnic_wqe_raddr_get_rkey(w + off));
		off += RNIC_WQE_RADDR_SIZE;
	} else if (op == RNIC_WQE_OP_ATOMIC_CMP_AND_SWP || op == RNIC_WQE_OP_ATOMIC_FETCH_AND_ADD) {
		rnic_tx_desc_set_remote_va(d, rnic_wqe_atomic_get_remote_addr(w + off));
		rnic_tx_desc_set_rkey(d, rnic_wqe_atomic_get_rkey(w + off));
		rnic_tx_desc_set_swap_add(d, rnic_wqe_atomic_get_swap_add(w + off));
		rnic_tx_desc_set_compare(d, rnic_wqe_atomic_get_compare(w + off));
		off += RNIC_WQE_ATOMIC_SIZE;
	} else if (rnic_qp_ctx_get_qp_type(c) == RNIC_QP_TYPE_UD) {
		uint32_t ahn = rnic_wqe_ud_get_ahn(w + off);
		rnic_tx_desc_set_ahn(d, ahn);
		/* the datagram's destination; an AH of another PD (another user's) is not one */
		if (ahn < FW_MAX_AH && fw_res.ahs[ahn].used && fw_res.ahs[ahn].pdn == rnic_qp_ctx_get_pdn(c)) {
			rnic_tx_desc_set_remote_va(d, fw_res.ahs[ahn].dmac);
			rnic_tx_desc_set_rkey(d, fw_res.ahs[ahn].dest_ipv4);
			rnic_tx_desc_set_traffic_class(d, fw_res.ahs[ahn].traffic_class);
		}
		rnic_tx_desc_set_dest_qpn(d, rnic_wqe_ud_get_remote_qpn(w + off));
		rnic_tx_desc_set_qkey(d, rnic_wqe_ud_get_remote_qkey(w + off));
		off += RNIC_WQE_UD_SIZE;
	}
	if (flags & (1u << RNIC_WQE_FLAG_INLINE)) {
		/* Inline data stays in the host ring: the RTL reads it by bus address. The part in
		 * the WQE's first WQEBBs before the ring end, then the part after it. */
		uint32_t left = rnic_wqe_ctrl_get_inline_len(w), n = 0;
		if (off + left > RNIC_WQE_CTRL_SIZE + 16u * rnic_wqe_ctrl_get_num_ds(w)) {
			/* The data must lie inside the WQE (so it wraps at most once, n <= 2):
			 * a longer inline_len, from any user's WQE, made one SGE per ring pass
			 * past the end of d. */
			if (part < 0)
				swqe_put(qpn, ri);
			fw_log("qp %u: malformed WQE at %u", (unsigned)qpn, (unsigned)idx);
			return 0;
		}
		while (left) {
			uint32_t bb = off / WQEBB, in = off % WQEBB;
			uint32_t ring_left = ((1u << rnic_qp_ctx_get_sq_log_size(c)) - ((idx + bb) & ((1u << rnic_qp_ctx_get_sq_log_size(c)) - 1))) * WQEBB - in;
			uint32_t chunk = left < ring_left ? left : ring_left;
			set_sge(d, n++, wqebb_addr(c, idx + bb) + in, chunk, 0);
			off += chunk;
			left -= chunk;
		}
		rnic_tx_desc_set_num_sge(d, n);
		tflags |= 1u << RNIC_TX_FLAG_PHYS_SGE;
	} else {
		uint32_t n = rnic_wqe_ctrl_get_num_sge(w);
		for (uint32_t i = 0; i < n && i < 4; i++, off += RNIC_WQE_SGE_SIZE)
			set_sge(d, i, rnic_wqe_sge_get_addr(w + off), rnic_wqe_sge_get_length(w + off),
				rnic_wqe_sge_get_lkey(w + off));
		rnic_tx_desc_set_num_sge(d, n);
	}
	rnic_tx_desc_set_flags(d, tflags);

	uint32_t npkts = (op == RNIC_WQE_OP_ATOMIC_CMP_AND_SWP || op == RNIC_WQE_OP_ATOMIC_FETCH_AND_ADD || len == 0)
				 ? 1 : (len + (1u << mtu_log) - 1) >> mtu_log; /* no divide: 34 cycles */
	/* RC only: the window moves on ACKs (UC has none, UD sends one packet) */
	if (seg_op(op) && rnic_qp_ctx_get_qp_type(c) == RNIC_QP_TYPE_RC && (npkts > SEG_PKTS || part >= 0)) {
		if (part < 0) {
			rec_fill(qpn, ri, w, c, psn, npkts, len, idx, op, flags);
			run->part_psn = psn;
		}
		uint32_t ns = rnic_tx_desc_get_num_sge(d);
		for (uint32_t i = 0; i < RNIC_TX_DESC_SGE0_ADDR_OFF + 16u * (ns < 4 ? ns : 4); i += 4)
			rnic_st_le32(pc_d + i, rnic_ld_le32((uint8_t *)RNIC_ASSUME_ALIGNED(d, 8) + i));
		pc_ok = 1;
		pc_qpn = qpn;
		pc_idx = idx & 0xFFFFu;
		pc_nbb = nbb;
		return send_segs(qpn, pc_d, nbb, ri);
	}
	if (was_sent(run, psn))
		tflags |= 1u << RNIC_TX_FLAG_RETRANSMIT;
	rnic_tx_desc_set_flags(d, tflags);
	if (op == RNIC_WQE_OP_RDMA_READ) {
		/* a READ never sent before has nothing placed: no query */
		uint32_t k = (fw_hw_caps & 2u) && was_sent(run, psn) ? read_progress(qpn, psn, npkts) : 0;
		if (post_read_dest(qpn, psn, len, d, k, 0)) {
			swqe_put(qpn, ri);
			return (fw_hw_caps & 2u) && rnic_tx_desc_get_num_sge(d) <= RNIC_MAX_SGE ? stall(qpn) : 0;
		}
		if (k && ((psn + k) & PSN_MASK) != fw_res.qp_run[qpn].rd_resume) {
			/* responses arrived since the last try: progress, as an ACK would be */
			fw_res.qp_run[qpn].rd_resume = (psn + k) & PSN_MASK;
			rnic_qp_ctx_set_retries_left(c, rnic_qp_ctx_get_retry_cnt(c));
		}
		if (k) { /* the request asks for the rest only */
			rnic_tx_desc_set_psn(d, (psn + k) & PSN_MASK);
			rnic_tx_desc_set_remote_va(d, rnic_tx_desc_get_remote_va(d) + ((uint64_t)k << mtu_log));
			rnic_tx_desc_set_length(d, len - (k << mtu_log));
		}
	}
	int is_atomic = op == RNIC_WQE_OP_ATOMIC_CMP_AND_SWP || op == RNIC_WQE_OP_ATOMIC_FETCH_AND_ADD;
	/* The ATOMIC ACKNOWLEDGE's original value goes to the local SGE (the engine writes it; the
	 * firmware cannot translate an lkey). Without an SGE the value is not wanted. Posted on
	 * every (re)transmission; a re-post replaces the context. */
	if (is_atomic && rnic_tx_desc_get_num_sge(d) && (fw_hw_caps & 2u) &&
	    post_read_dest(qpn, psn, 8, d, 0, 1)) {
		swqe_put(qpn, ri);
		return (fw_hw_caps & 2u) && rnic_tx_desc_get_num_sge(d) <= RNIC_MAX_SGE ? stall(qpn) : 0;
	}
	if (hal_rd32(RNIC_FW_REG_TXD_STATUS) & 1u) { /* busy: retried after the events are taken */
		swqe_put(qpn, ri);
		return stall(qpn);
	}
	/* UD: the address handle's priority (RC was checked before the WQE was fetched) */
	if (rnic_qp_ctx_get_qp_type(c) == RNIC_QP_TYPE_UD && tc_paused(rnic_tx_desc_get_traffic_class(d))) {
		swqe_put(qpn, ri);
		return stall(qpn);
	}
	int ext = is_atomic || rnic_qp_ctx_get_qp_type(c) == RNIC_QP_TYPE_UD;
	if (txd_send(d, ext)) {
		swqe_put(qpn, ri);
		fw_log("qp %u: transmit engine not taking descriptors", (unsigned)qpn);
		return 0;
	}
	rec_fill(qpn, ri, w, c, psn, npkts, len, idx, op, flags);
	fw_perf.sq_wqes++;
	return nbb;
}

/* ---- The common WQE without copies. An RC or UC SEND, SEND_IMM, WRITE or WRITE_IMM in one
 * WQEBB (a WRITE with at most one SGE, a SEND with at most two), not inline, sent whole (at most
 * SEG_PKTS packets), with no priority paused and no piece of a message in progress: its words
 * are loaded from the staged WQEBB (fetch buffer or BlueFlame capture, one-cycle loads) into
 * registers and the tx_desc words stored from them into the transmit mailbox, the same words
 * txd_send writes; no WQE copy, no descriptor in memory. Everything else, and every reason to
 * stall or to look again (busy mailbox, no free record, a capture overtaken, a malformed WQE),
 * returns -1 before anything was changed but the staging, and send_one does it the general way.
 * The unit test fw-sq-fast-desc-equals-send-one compares the two word for word. */
uint8_t fw_sq_generic_only;

/* byte / 16-bit field at spec offset OFF of a layout, from the word that holds it */
#define W8(w, OFF) (((w) >> (8u * ((OFF) % 4u))) & 0xFFu)
#define W16(w, OFF) (((w) >> (8u * ((OFF) % 4u))) & 0xFFFFu)
_Static_assert(RNIC_WQE_CTRL_OPCODE_OFF / 4 == RNIC_WQE_CTRL_WQE_INDEX_OFF / 4 &&
		       RNIC_WQE_CTRL_FLAGS_OFF / 4 == RNIC_WQE_CTRL_WQE_INDEX_OFF / 4 && RNIC_WQE_CTRL_WQE_INDEX_OFF % 4 == 2 &&
		       RNIC_WQE_CTRL_NUM_SGE_OFF / 4 == RNIC_WQE_CTRL_NUM_DS_OFF / 4 && RNIC_WQE_CTRL_WR_ID_OFF == 0 &&
		       RNIC_WQE_CTRL_IMM_DATA_OFF % 4 == 0 && RNIC_WQE_CTRL_TOTAL_LEN_OFF % 4 == 0 &&
		       RNIC_WQE_RADDR_REMOTE_ADDR_OFF == 0 && RNIC_WQE_RADDR_RKEY_OFF == 8 && RNIC_WQE_SGE_ADDR_OFF == 0 &&
		       RNIC_WQE_SGE_LENGTH_OFF == 8 && RNIC_WQE_SGE_LKEY_OFF == 12 && RNIC_WQE_SGE_SIZE == 16 &&
		       RNIC_WQE_RADDR_SIZE == 16 && RNIC_WQE_CTRL_SIZE == 32,
	       "send_fast reads the WQE by words");
_Static_assert(RNIC_TX_DESC_KIND_OFF % 4 == 0 && RNIC_TX_DESC_FLAGS_OFF == RNIC_TX_DESC_KIND_OFF + 1 &&
		       RNIC_TX_DESC_NUM_SGE_OFF == RNIC_TX_DESC_KIND_OFF + 2 && RNIC_TX_DESC_SYNDROME_OFF == RNIC_TX_DESC_KIND_OFF + 3 &&
		       RNIC_TX_DESC_REMOTE_VA_OFF % 8 == 0 && RNIC_TX_DESC_SGE1_ADDR_OFF == RNIC_TX_DESC_SGE0_ADDR_OFF + 16 &&
		       RNIC_TX_DESC_SGE0_LEN_OFF == RNIC_TX_DESC_SGE0_ADDR_OFF + 8 &&
		       RNIC_TX_DESC_SGE0_LKEY_OFF == RNIC_TX_DESC_SGE0_ADDR_OFF + 12 && RNIC_TX_DESC_SWAP_ADD_OFF == 32,
	       "send_fast writes the tx_desc by words, the header's first 32 bytes as txd_send does");

/* SGE k of the WQE (words from w) into the descriptor's SGE k */
static inline void fast_sge(uint32_t b, uint32_t w, uint32_t k)
{
	uint32_t t = RNIC_FW_REG_TXD_DATA + RNIC_TX_DESC_SGE0_ADDR_OFF + 16u * k;
	hal_wr32(t, hal_tc_rd32_at((uint32_t)b, w));
	hal_wr32(t + 4, hal_tc_rd32_at((uint32_t)b, w + 1));
	hal_wr32(t + 8, hal_tc_rd32_at((uint32_t)b, w + 2));
	hal_wr32(t + 12, hal_tc_rd32_at((uint32_t)b, w + 3));
}

static int32_t send_fast(uint32_t qpn, uint8_t *c, uint32_t idx)
{
	struct fw_qp_run *run = &fw_res.qp_run[qpn];
	uint32_t type = rnic_qp_ctx_get_qp_type(c);

	if (fw_sq_generic_only || sq_paused || run->part1 || fw_res.swqe_free < 0 ||
	    (type != RNIC_QP_TYPE_RC && type != RNIC_QP_TYPE_UC))
		return -1;
	int32_t b = stage(c, idx);
	if (b < 0)
		return (int32_t)sq_fetch_failed(qpn, idx);
	uint32_t ctl = hal_tc_rd32_at((uint32_t)b, RNIC_WQE_CTRL_OPCODE_OFF / 4);
	uint32_t ds = hal_tc_rd32_at((uint32_t)b, RNIC_WQE_CTRL_NUM_DS_OFF / 4);
	uint32_t op = W8(ctl, RNIC_WQE_CTRL_OPCODE_OFF), flags = W8(ctl, RNIC_WQE_CTRL_FLAGS_OFF);
	uint32_t num_ds = W8(ds, RNIC_WQE_CTRL_NUM_DS_OFF), nsge = W8(ds, RNIC_WQE_CTRL_NUM_SGE_OFF);
	uint32_t is_write = op == RNIC_WQE_OP_RDMA_WRITE || op == RNIC_WQE_OP_RDMA_WRITE_WITH_IMM;
	/* one WQEBB: the control segment and at most two 16-byte segments, all of them read here */
	if (!seg_op(op) || W16(ctl, RNIC_WQE_CTRL_WQE_INDEX_OFF) != (idx & 0xFFFFu) || num_ds > 2 ||
	    (flags & (1u << RNIC_WQE_FLAG_INLINE)) || nsge + is_write > num_ds)
		return -1;
	uint32_t len = hal_tc_rd32_at((uint32_t)b, RNIC_WQE_CTRL_TOTAL_LEN_OFF / 4);
	uint32_t mtu_log = 7u + rnic_qp_ctx_get_path_mtu(c);
	uint32_t npkts = len == 0 ? 1 : (len + (1u << mtu_log) - 1) >> mtu_log;
	if (type == RNIC_QP_TYPE_RC && npkts > SEG_PKTS)
		return -1; /* in pieces under the window: send_one */
	uint64_t wr_id = (uint64_t)hal_tc_rd32_at((uint32_t)b, 1) << 32 | hal_tc_rd32_at((uint32_t)b, 0);
	uint32_t imm = hal_tc_rd32_at((uint32_t)b, RNIC_WQE_CTRL_IMM_DATA_OFF / 4);
	uint32_t g = RNIC_WQE_CTRL_SIZE / 4, va_lo = 0, va_hi = 0, rkey = 0;
	if (is_write) {
		va_lo = hal_tc_rd32_at((uint32_t)b, g);
		va_hi = hal_tc_rd32_at((uint32_t)b, g + 1);
		rkey = hal_tc_rd32_at((uint32_t)b, g + 2);
		g += RNIC_WQE_RADDR_SIZE / 4;
	}
	/* a BlueFlame WQE must have stayed this doorbell's while it was read (as in send_one): checked
	 * here and again after the SGE words, before the commit */
	if ((st_bf && !stage_bf_held(c)) || (hal_rd32(RNIC_FW_REG_TXD_STATUS) & 1u))
		return -1;
	uint32_t psn = rnic_qp_ctx_get_sq_psn(c);
	uint32_t tflags = (flags & (1u << RNIC_WQE_FLAG_SOLICITED)) ? 1u << RNIC_TX_FLAG_SOLICITED : 0;
	if (was_sent(run, psn))
		tflags |= 1u << RNIC_TX_FLAG_RETRANSMIT;
	const uint32_t t = RNIC_FW_REG_TXD_DATA;
	hal_wr32(t + RNIC_TX_DESC_QPN_OFF, qpn);
	hal_wr32(t + RNIC_TX_DESC_KIND_OFF, msg_kind(op) | tflags << 8 | nsge << 16);
	hal_wr32(t + RNIC_TX_DESC_PSN_OFF, psn);
	hal_wr32(t + RNIC_TX_DESC_LENGTH_OFF, len);
	hal_wr32(t + RNIC_TX_DESC_REMOTE_VA_OFF, va_lo);
	hal_wr32(t + RNIC_TX_DESC_REMOTE_VA_OFF + 4, va_hi);
	hal_wr32(t + RNIC_TX_DESC_RKEY_OFF, rkey);
	hal_wr32(t + RNIC_TX_DESC_IMM_DATA_OFF, imm);
	if (nsge)
		fast_sge((uint32_t)b, g, 0);
	if (nsge > 1)
		fast_sge((uint32_t)b, g + 4, 1);
	if (st_bf && !stage_bf_held(c))
		return -1; /* overtaken while the SGEs were read: nothing committed, send_one reads the ring */
	hal_wr32(RNIC_FW_REG_TXD_COMMIT, 0);
	if (st_bf)
		fw_perf.bf_wqes++;
	rec_set(qpn, swqe_get(), wr_id, c, psn, npkts, len, idx, op, flags);
	fw_perf.sq_wqes++;
	fw_sq_fast_sent++;
	return 1;
}

/* A service pass hands at most SQ_PASS_MAX WQEs (one fetch batch, HALF_BBS) to the transmit
 * engine, then the QP is marked stalled and continues after the events and the other doorbells
 * were served (fw_sq_retry_stalled): a host that posts 16 or more at once no longer has the
 * firmware send them all while the ACKs, the receive completions and the other QPs wait. Without
 * it the faster send path let a 16-deep 4 KiB SEND stream outrun the responder's buffer refill
 * at its start (one RNR NAK, docs/firmware.md). */
#define SQ_PASS_MAX HALF_BBS
uint32_t fw_sq_fast_sent; /* WQEs send_fast handed over (the unit tests look) */
void fw_sq_service(uint32_t qpn)
{
	uint8_t *c = ctx(qpn);
	uint32_t cont = sq_cont == qpn;

	fw_res.qp_run[qpn].sq_stalled = 0;
	sq_cont = 0;
	if (rnic_qp_ctx_get_state(c) == RNIC_QP_STATE_ERR) {
		flush_unsent(qpn);
		return;
	}
	if (rnic_qp_ctx_get_state(c) != RNIC_QP_STATE_RTS || !(fw_hw_caps & 1u))
		return; /* not sending, or no transmit engine attached: the WQEs wait */
	sq_paused = hal_rd32(RNIC_FW_REG_TX_PAUSE);
	if (!cont || st_bf)
		stage_empty();
	for (uint32_t k = 0; rnic_qp_ctx_get_sq_next(c) != rnic_qp_ctx_get_sq_pi(c); k++) {
		uint32_t idx = rnic_qp_ctx_get_sq_next(c);
		if (k == SQ_PASS_MAX) {
			sq_cont = qpn;
			stall(qpn);
			return;
		}
		int32_t f = send_fast(qpn, c, idx);
		uint32_t n = f >= 0 ? (uint32_t)f : send_one(qpn, idx);
		if (!n)
			return;
		rnic_qp_ctx_set_sq_next(c, (uint16_t)(rnic_qp_ctx_get_sq_next(c) + n));
	}
}

void fw_sq_bf_doorbell(uint32_t qpn, uint32_t seq)
{
	bf_seq = (int)seq;
	fw_sq_service(qpn);
	bf_seq = -1;
}

void fw_sq_retry_stalled(void)
{
	if (!fw_stalled_any)
		return;
	fw_stalled_any = 0;
	for (uint32_t q = FW_FIRST_QPN; q < FW_QP_SCAN_END; q++) {
		if (!fw_res.qp_used[q])
			continue;
		if (fw_res.qp_run[q].sq_stalled)
			fw_sq_service(q);
		if (fw_res.qp_run[q].rq_stalled)
			fw_rq_service(q);
	}
}

/* Go-back-N from psn: a SEND or WRITE holding psn resumes at psn itself, inside the message
 * (a piece with CONT from there); a READ or atomic holding it is sent again (a READ asks only
 * for the responses not yet placed, see read_progress); every later WQE is sent again. */
static void resend_from(uint32_t qpn, uint32_t psn)
{
	struct fw_qp_run *r = &fw_res.qp_run[qpn];
	uint8_t *c = ctx(qpn);
	int16_t i = r->head, prev = -1;

	while (i >= 0 && !psn_le(psn, fw_res.swqe[i].last_psn))
		prev = i, i = fw_res.swqe[i].next;
	if (i < 0)
		return;
	/* PSNs below the highest one sent so far go out again: flagged RETRANSMIT */
	uint32_t sent = r->part1 ? r->part_psn : rnic_qp_ctx_get_sq_psn(c);
	if (!r->hi_ok || psn_lt(r->hi_psn, sent))
		r->hi_psn = sent;
	r->hi_ok = 1;
	r->part1 = 0;
	struct fw_swqe *w = &fw_res.swqe[i];
	rnic_qp_ctx_set_sq_next(c, w->wqe_index);
	rnic_qp_ctx_set_sq_psn(c, w->first_psn);
	if (seg_op(w->opcode) && rnic_qp_ctx_get_qp_type(c) == RNIC_QP_TYPE_RC) {
		/* the record stays: send_one continues it from psn; new WQEs follow its last PSN */
		rnic_qp_ctx_set_sq_psn(c, (w->last_psn + 1) & PSN_MASK);
		r->part1 = (int16_t)(i + 1);
		r->part_psn = psn_lt(psn, w->first_psn) ? w->first_psn : psn;
		prev = i;
		i = w->next;
	}
	while (i >= 0) {
		int16_t nx = fw_res.swqe[i].next;
		swqe_put(qpn, i);
		i = nx;
	}
	if (prev >= 0)
		fw_res.swqe[prev].next = -1;
	else
		r->head = -1;
	r->tail = prev;
	fw_sq_service(qpn);
}

/* Retires qpn's WQEs that end at or before psn, oldest first, as acknowledged: a READ or atomic
 * only once its own response came (resp), never on a later message's ACK or response alone
 * (completing it then gave SUCCESS with its data never placed: the soak's READ defect, a lost
 * READ response followed by the next READ's). One whose response failed (local key, length,
 * DMA) completes with that status and the QP stops (returns 1). */
static int retire_upto(uint32_t qpn, uint32_t psn)
{
	struct fw_qp_run *r = &fw_res.qp_run[qpn];
	uint8_t *c = ctx(qpn);
	uint32_t w7 = FW_CQ_REC_W7(rnic_qp_ctx_get_send_cqn(c), 0);
	int16_t i;

	while ((i = r->head) >= 0 && psn_le(fw_res.swqe[i].last_psn, psn)) {
		struct fw_swqe *h = &fw_res.swqe[i];
		if (is_rd_atomic(h->opcode)) {
			if (!h->resp)
				break;
			uint32_t st = h->resp - 1u;
			retire_head(qpn, st);
			if (st != RNIC_WC_STATUS_SUCCESS) {
				fw_qp_fatal(qpn, st, RNIC_EQ_QP_SIDE_REQUESTER);
				return 1;
			}
			continue;
		}
		/* a SEND or WRITE: retire_head, complete and swqe_put in one, the CQ looked up once */
		if (h->signaled)
			fw_cqe_put(w7 | h->wqe_index, h->wr_id, h->len, 0, qpn, 0,
				   RNIC_WC_STATUS_SUCCESS | wc_opcode(h->opcode) << 8);
		rnic_qp_ctx_set_sq_ci(c, (uint16_t)(h->wqe_index + 1));
		r->head = h->next;
		h->next = fw_res.swqe_free;
		fw_res.swqe_free = i;
	}
	if (r->head < 0)
		r->tail = -1;
	return 0;
}

/* ACK / NAK / RNR NAK / READ response / atomic ACK for the requester side of qpn; status is the
 * receive engine's placement verdict of a READ_RESP_DONE / ATOMIC_ACK. */
void fw_sq_ack(uint32_t qpn, uint32_t kind, uint32_t psn, uint32_t syndrome, uint32_t status)
{
	uint8_t *c = ctx(qpn);
	struct fw_qp_run *r = &fw_res.qp_run[qpn];

	if (kind == RNIC_RX_EVENT_KIND_ACK || kind == RNIC_RX_EVENT_KIND_READ_RESP_DONE ||
	    kind == RNIC_RX_EVENT_KIND_ATOMIC_ACK) {
		/* everything up to psn arrived (a piece's AckReq acknowledges inside a message) */
		if (r->head >= 0 && psn_lt(r->una, (psn + 1) & PSN_MASK))
			r->una = (psn + 1) & PSN_MASK;
		/* A READ_RESP_DONE / ATOMIC_ACK belongs to the READ or atomic ending at psn; an older
		 * one still waiting keeps it for later (its own responses were lost and are asked
		 * again: READ_GAP, timeout), so it is noted on its record. */
		if (kind != RNIC_RX_EVENT_KIND_ACK)
			for (int16_t i = r->head; i >= 0; i = fw_res.swqe[i].next)
				if (fw_res.swqe[i].last_psn == psn && is_rd_atomic(fw_res.swqe[i].opcode)) {
					fw_res.swqe[i].resp = (uint8_t)(1 + status);
					break;
				}
		/* up to everything acknowledged so far: a response that ends an older READ/atomic
		 * also retires the later WQEs an earlier ACK covered (that ACK found them behind
		 * the unanswered READ/atomic and will not come again) */
		uint32_t upto = r->head >= 0 && psn_lt(psn, (r->una - 1) & PSN_MASK) ? (r->una - 1) & PSN_MASK : psn;
		if (retire_upto(qpn, upto))
			return;
		uint32_t left = rnic_qp_ctx_get_retries_left(c);
		if (r->head >= 0 && psn_lt(fw_res.swqe[r->head].last_psn, psn)) {
			/* Implicit NAK (IBTA: a responder answers in PSN order, docs/conformance.md rows
			 * 37, 54): an acknowledgement beyond the oldest WQE, a READ or atomic still without
			 * its response (retire_upto stopped there), means that response was lost. A later
			 * READ/atomic's response (the receive engine's READ_GAP does not see this when the
			 * later READ has a context) or a plain, maybe coalesced, ACK of later requests:
			 * asked again now, a retry, instead of after the ACK timeout. A plain ACK re-issues
			 * a READ/atomic once (as rxe's started_retry): the ACKs of the requests sent again
			 * behind it must not re-issue it again and again; the timer decides after that. */
			uint32_t first = fw_res.swqe[r->head].first_psn;
			int again = kind == RNIC_RX_EVENT_KIND_ACK && r->inak && r->inak_psn == first;
			if (left && !again) {
				rnic_qp_ctx_set_retries_left(c, left - 1);
				if (kind == RNIC_RX_EVENT_KIND_ACK)
					r->inak = 1, r->inak_psn = first;
				resend_from(qpn, first);
			}
		} else {
			rnic_qp_ctx_set_retries_left(c, rnic_qp_ctx_get_retry_cnt(c));
		}
		rnic_qp_ctx_set_rnr_retries_left(c, rnic_qp_ctx_get_rnr_retry(c));
		if (!r->rnr_wait)
			arm_ack_timer(qpn); /* progress: the timer restarts for what is still out */
		/* what the ACK made room for (records, the window, READ contexts); with nothing posted
		 * beyond what was sent the pass would do nothing (and empty the staged WQEBBs) */
		if (rnic_qp_ctx_get_sq_next(c) != rnic_qp_ctx_get_sq_pi(c))
			fw_sq_service(qpn);
		if (rd_waiting && kind != RNIC_RX_EVENT_KIND_ACK) {
			/* a response context is free again: QPs that held a READ back may go on */
			rd_waiting = 0;
			for (uint32_t q = FW_FIRST_QPN; q < FW_QP_SCAN_END; q++)
				if (q != qpn && fw_res.qp_used[q] &&
				    rnic_qp_ctx_get_sq_next(fw_res.qp_ctx[q]) != rnic_qp_ctx_get_sq_pi(fw_res.qp_ctx[q]))
					fw_sq_service(q);
		}
		return;
	}
	if (kind == RNIC_RX_EVENT_KIND_READ_GAP) {
		/* A READ response was lost (a later one arrived): the READ is asked again from the
		 * missing PSN now, not after the ACK timeout; a retry like a PSN sequence NAK. */
		uint32_t left = rnic_qp_ctx_get_retries_left(c);
		if (left == 0 || r->head < 0)
			return; /* the ACK timeout decides */
		rnic_qp_ctx_set_retries_left(c, left - 1);
		resend_from(qpn, psn);
		arm_ack_timer(qpn);
		return;
	}
	/* Every NAK acknowledges the messages wholly before its PSN (and the PSNs before it). */
	int progress = r->head >= 0 && psn_lt(r->una, psn);
	if (progress)
		r->una = psn;
	if (retire_upto(qpn, (psn - 1) & PSN_MASK))
		return;
	if (kind == RNIC_RX_EVENT_KIND_RNR_NAK) {
		uint32_t left = rnic_qp_ctx_get_rnr_retries_left(c);
		if (left == 0) {
			if (r->head >= 0)
				retire_head(qpn, RNIC_WC_STATUS_RNR_RETRY_EXC_ERR);
			fw_qp_fatal(qpn, RNIC_WC_STATUS_RNR_RETRY_EXC_ERR, RNIC_EQ_QP_SIDE_REQUESTER);
			return;
		}
		if (rnic_qp_ctx_get_rnr_retry(c) != 7) /* 7 means retry forever */
			rnic_qp_ctx_set_rnr_retries_left(c, left - 1);
		/* Resend after the responder's RNR timer (its code is in the syndrome). */
		r->rnr_psn = psn;
		arm(qpn, (uint64_t)rnr_10us[syndrome & 0x1F] * 2500u, 1);
		return;
	}
	/* NAK: a PSN sequence error is resent; the others end the WQE and the QP. */
	uint32_t code = syndrome & 0x1Fu;
	if (code == 0) {
		/* A NAK that acknowledges new PSNs is progress, as an ACK is: the count starts over, so
		 * a long message on a lossy link is not failed by losses spread over its packets. */
		uint32_t left = progress ? rnic_qp_ctx_get_retry_cnt(c) : rnic_qp_ctx_get_retries_left(c);
		if (left == 0) {
			if (r->head >= 0)
				retire_head(qpn, RNIC_WC_STATUS_RETRY_EXC_ERR);
			fw_qp_fatal(qpn, RNIC_WC_STATUS_RETRY_EXC_ERR, RNIC_EQ_QP_SIDE_REQUESTER);
			return;
		}
		rnic_qp_ctx_set_retries_left(c, left - 1);
		resend_from(qpn, psn);
		arm_ack_timer(qpn);
		return;
	}
	uint32_t st = code == 1 ? RNIC_WC_STATUS_REM_INV_REQ_ERR
		      : code == 2 ? RNIC_WC_STATUS_REM_ACCESS_ERR : RNIC_WC_STATUS_REM_OP_ERR;
	if (r->head >= 0)
		retire_head(qpn, st);
	fw_qp_fatal(qpn, st, RNIC_EQ_QP_SIDE_REQUESTER);
}

/* Did responses of qpn's oldest WQE, a READ, arrive since the last time this was asked? */
static int read_flowing(uint32_t qpn)
{
	struct fw_qp_run *r = &fw_res.qp_run[qpn];
	const struct fw_swqe *h = &fw_res.swqe[r->head];
	if (h->opcode != RNIC_WQE_OP_RDMA_READ || !(fw_hw_caps & 2u))
		return 0;
	uint32_t k = read_progress(qpn, h->first_psn, ((h->last_psn - h->first_psn) & PSN_MASK) + 1);
	uint32_t at = (h->first_psn + k) & PSN_MASK;
	if (!k || at == r->rd_seen)
		return 0;
	r->rd_seen = at;
	return 1;
}

void fw_timers_poll(void)
{
	uint64_t now = hal_cycles();

	if (now < next_deadline)
		return;
	next_deadline = ~0ull;
	for (uint32_t q = FW_FIRST_QPN; q < FW_QP_SCAN_END; q++) {
		struct fw_qp_run *r = &fw_res.qp_run[q];
		if (!fw_res.qp_used[q] || !r->deadline)
			continue;
		if (now < r->deadline) {
			if (r->deadline < next_deadline)
				next_deadline = r->deadline;
			continue;
		}
		uint8_t *c = ctx(q);
		r->deadline = 0;
		r->inak = 0; /* after a timeout a plain ACK may re-issue a READ/atomic once more */
		if (r->rnr_wait) {
			r->rnr_wait = 0;
			resend_from(q, r->rnr_psn);
		} else if (r->head >= 0 && read_flowing(q)) {
			/* the oldest READ's responses arrived since the last look: no re-issue (each
			 * would cost the responder the whole rest of the READ again). Looked at again
			 * after a sixteenth of the timeout (at least 16 us), not a whole timeout: progress
			 * seen at the timeout may be long over, a stream whose tail was lost with nothing
			 * after it (soak seed 8: the second of two 1 ms timeouts) */
			rnic_qp_ctx_set_retries_left(c, rnic_qp_ctx_get_retry_cnt(c));
			uint64_t per = 1024ull << rnic_qp_ctx_get_timeout(c), chk = per >> 4;
			arm(q, chk < 4000u ? (per < 4000u ? per : 4000u) : chk, 0);
			continue;
		} else if (r->head >= 0) {
			/* Local ACK timeout: resend everything outstanding, or give up. */
			uint32_t left = rnic_qp_ctx_get_retries_left(c);
			if (left == 0) {
				retire_head(q, RNIC_WC_STATUS_RETRY_EXC_ERR);
				fw_qp_fatal(q, RNIC_WC_STATUS_RETRY_EXC_ERR, RNIC_EQ_QP_SIDE_REQUESTER);
				continue;
			}
			rnic_qp_ctx_set_retries_left(c, left - 1);
			/* from the oldest PSN not acknowledged (inside the oldest WQE) */
			const struct fw_swqe *h = &fw_res.swqe[r->head];
			resend_from(q, psn_lt(h->first_psn, r->una) && psn_le(r->una, h->last_psn) ? r->una : h->first_psn);
		}
		arm_ack_timer(q);
		if (r->deadline && r->deadline < next_deadline)
			next_deadline = r->deadline;
	}
}

/* The transmit engine could not send the QP's oldest message (a local key, length or DMA
 * failure): that WQE completes with the engine's status and the QP goes to ERR. */
/* TX_DONE: a UD message left the NIC; UD sends complete then (no ACK), in order. */
void fw_sq_tx_done(uint32_t qpn)
{
	if (fw_res.qp_run[qpn].head >= 0)
		retire_head(qpn, RNIC_WC_STATUS_SUCCESS);
	fw_sq_service(qpn);
}

void fw_sq_tx_error(uint32_t qpn, uint32_t status)
{
	if (fw_res.qp_run[qpn].head >= 0)
		retire_head(qpn, status);
	fw_qp_fatal(qpn, status, RNIC_EQ_QP_SIDE_REQUESTER);
}
