/* Send queues, transmit descriptors: the service pass over a QP's posted WQEs turns each into a
 * tx_desc for the transmit engine (and an rd_desc for a READ or atomic's responses): the common
 * WQE straight from the staged WQEBB (send_fast), the rest the general way (send_one), long
 * messages in pieces under a window (send_segs). */
#include "fw_log.h"
#include "fw_mbox.h"
#include "fw_sq_desc.h"
#include "fw_sq_flush.h"
#include "fw_sq_priv.h"
#include "fw_sq_rec.h"
#include "fw_sq_srt.h"
#include "fw_sq_stage.h"
#include "fw_sq_txb.h"

/* MMIO polls of the rd_desc mailbox's status before a READ gives up and stalls (~7 cycles each) */
#define RDD_WAIT_POLLS 32u


/* The descriptor of the WQE sent in pieces most recently (one for all QPs: usually one long
 * message is in progress at a time): its next pieces need no new WQE fetch. */
static FW_LAYOUT_ALIGN uint8_t pc_d[RNIC_TX_DESC_SIZE];
uint8_t pc_ok;
static uint32_t pc_qpn, pc_idx, pc_nbb;

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
uint32_t sq_stall(uint32_t qpn)
{
	fw_res.qp_run[qpn].sq_stalled = 1;
	fw_stalled_any = 1;
	return 0;
}

/* An engine QP waits for what only the engine's ACKs free (the window, records): stalled with
 * 2, so that the retry asks the engine first (srt_sync). Polled from the service loop only while
 * some QP waits so: the engine has no event for it. */
static uint32_t sq_stall_srt(uint32_t qpn)
{
	sq_stall(qpn);
	fw_res.qp_run[qpn].sq_stalled = 2;
	return 0;
}

/* A free firmware record; an engine QP's records are freed lazily (srt_sync), so when none is
 * left they are looked for first. */
static int16_t swqe_get_srt(void)
{
	if (fw_res.swqe_free < 0 && fw_srt_ok)
		srt_sweep();
	return swqe_get();
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

/* the transmit mailbox has not handed its last descriptor to the engine (a two-cycle load) */
static inline int txd_busy(void)
{
	return (int)rnic_mbox_status_v_busy(hal_tc_rd32(RNIC_FW_TC_TXD_STATUS));
}

/* Before a READ request (or an atomic: atomic 1, len 8) leaves, the receive engine learns where
 * its responses (the original value) go: the local SGEs of the descriptor. 0, or -1 when it
 * cannot take it. */
static int post_read_dest(uint32_t qpn, uint32_t psn, uint32_t len, const uint8_t *d, uint32_t k, int atomic)
{
	FW_LAYOUT_ALIGN uint8_t r[RNIC_RD_DESC_SIZE];
	uint32_t n = rnic_tx_desc_get_num_sge(d);

	if (!(fw_hw_caps & RNIC_HW_CAPS_READ_RESP_MASK) || n > RNIC_MAX_SGE) {
		fw_log("qp %u: READ not served (engine or SGE count)", (unsigned)qpn);
		return -1;
	}
	/* The receive engine takes a rd_desc between packets, so while READ responses stream in it
	 * is busy for up to one packet (~85 cycles at 4 KiB). Waiting that long is cheaper than a
	 * stalled QP (its retry fetches the WQEs again) and keeps the next READ request close
	 * behind the last; a longer wait means the engine may be waiting for us to take an event. */
	for (uint32_t i = 0; rnic_mbox_status_v_busy(hal_tc_rd32(RNIC_FW_TC_RDD_STATUS));)
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
	return fw_tc_mbox_send(RNIC_FW_TC_RDD_DATA, RNIC_FW_TC_RDD_COMMIT, RNIC_FW_TC_RDD_STATUS, r,
			       (RNIC_RD_DESC_SGE0_ADDR_OFF + 16 * n) / 4, qpn);
}

/* Hands descriptor d to the transmit engine through its mailbox (tightly coupled window); 0, or
 * -1 if the engine never took the previous one. Only the words the engine reads are stored (a
 * load and a store each): bytes 32-63 (atomic operands, UD addressing) only for atomics and UD
 * (with_ext), and no SGE beyond num_sge; the mailbox keeps whatever the rest held. */
static int txd_send(const uint8_t *d, int with_ext)
{
	const uint8_t *p = (const uint8_t *)RNIC_ASSUME_ALIGNED(d, 8);
	uint32_t nsge = rnic_tx_desc_get_num_sge(p), i = 0;
	uint32_t hdr_end = with_ext ? RNIC_TX_DESC_SGE0_ADDR_OFF : RNIC_TX_DESC_SWAP_ADD_OFF;
	uint32_t end = RNIC_TX_DESC_SGE0_ADDR_OFF + 16u * (nsge < 4 ? nsge : 4);

	while (txd_busy())
		if (++i == 100000u)
			return -1;
	for (i = 0; i < hdr_end; i += 4)
		hal_tc_wr32(RNIC_FW_TC_TXD_DATA + i, rnic_ld_le32(p + i));
	for (i = RNIC_TX_DESC_SGE0_ADDR_OFF; i < end; i += 4)
		hal_tc_wr32(RNIC_FW_TC_TXD_DATA + i, rnic_ld_le32(p + i));
	hal_tc_wr32(RNIC_FW_TC_TXD_COMMIT, 0);
	return 0;
}

/* A READ sent again (go-back-N) whose first k responses the receive engine already placed
 * resumes at PSN psn + k (IBTA: the responder answers a READ at any PSN of its range); 0 when it
 * is new or nothing of it arrived. */
uint32_t read_progress(uint32_t qpn, uint32_t psn, uint32_t npkts)
{
	hal_wr32(RNIC_FW_REG_RDQ_QPN, qpn);
	hal_wr32(RNIC_FW_REG_RDQ_PSN, psn);
	uint32_t r = hal_rd32(RNIC_FW_REG_RDQ_RESULT);
	if (!(r >> 31))
		return 0;
	uint32_t k = (r - psn) & PSN_MASK;
	return k < npkts ? k : 0;
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
		/* An engine QP's una is the last one synced, maybe older than this message (its
		 * firmware records do not say what is outstanding): the window counts from the message's
		 * first PSN at least, as the list's una did when the message was the oldest record. */
		uint32_t una = run->una;
		if (srt_ctx(ctx(qpn)) && psn_lt(una, w->first_psn))
			una = w->first_psn;
		uint32_t ahead = (next - una) & PSN_MASK;
		if (ahead >= WIN_PKTS && ahead < 0x800000u) {
			run->part_psn = next; /* the next ACK goes on (an engine QP's: polled) */
			return srt_ctx(ctx(qpn)) ? sq_stall_srt(qpn) : 0;
		}
		if (txd_busy()) {
			run->part_psn = next;
			return sq_stall(qpn);
		}
		sq_paused = hal_rd32(RNIC_FW_REG_TX_PAUSE);
		if (tc_paused(rnic_qp_ctx_get_traffic_class(ctx(qpn)))) {
			run->part_psn = next;
			return sq_stall(qpn);
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
	FW_LAYOUT_ALIGN uint8_t w[RNIC_MAX_WQEBBS * WQEBB], d[RNIC_TX_DESC_SIZE];
	struct fw_qp_run *run = &fw_res.qp_run[qpn];
	/* the WQE at sq_next may be part-sent (record part): its next pieces */
	int16_t part = (run->part1 && fw_res.swqe[run->part1 - 1].wqe_index == (idx & 0xFFFFu)) ? run->part1 - 1 : -1;
	if (rnic_qp_ctx_get_qp_type(c) != RNIC_QP_TYPE_UD && tc_paused(rnic_qp_ctx_get_traffic_class(c)))
		return sq_stall(qpn);
	/* The transmit engine takes a descriptor once the one before has issued its payload DMA, so
	 * behind a long message the mailbox stays full for microseconds. Stall before the WQE is
	 * fetched: the retry would fetch it again (a PCIe round trip waited for each time). */
	if (txd_busy())
		return sq_stall(qpn);
	/* an engine QP's first send of a WQE needs a record there */
	if (part < 0 && srt_ctx(c) && !was_sent(run, rnic_qp_ctx_get_sq_psn(c)) && !srt_room())
		return sq_stall_srt(qpn);
	if (part >= 0 && pc_ok && pc_qpn == qpn && pc_idx == (idx & 0xFFFFu))
		return send_segs(qpn, pc_d, pc_nbb, part);

	uint32_t nbb;
	for (;;) {
		int32_t b = sq_stage(c, idx);
		if (b < 0)
			return sq_fetch_failed(qpn, idx);
		stage_read(b, w);
		uint32_t bytes = RNIC_WQE_CTRL_SIZE + 16u * rnic_wqe_ctrl_get_num_ds(w);
		nbb = (bytes + WQEBB - 1) / WQEBB;
		uint8_t from_bf = st_bf;
		int ok = nbb <= 4 && rnic_wqe_ctrl_get_wqe_index(w) == (idx & 0xFFFFu) && (!from_bf || nbb <= st_n);
		for (uint32_t k = 1; ok && k < nbb; k++) { /* later WQEBBs may wrap to the ring start */
			if ((b = sq_stage(c, idx + k)) < 0)
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
	int16_t ri = part >= 0 ? part : swqe_get_srt();
	if (ri < 0)
		return sq_stall(qpn); /* every record in use: resume when completions free some */
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
	if (part >= 0)
		fw_res.swqe[part].len = len; /* a resend's record inside a WQE send_fast sent has none yet */
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
		uint32_t k = (fw_hw_caps & RNIC_HW_CAPS_READ_RESP_MASK) && was_sent(run, psn) ? read_progress(qpn, psn, npkts) : 0;
		if (post_read_dest(qpn, psn, len, d, k, 0)) {
			swqe_put(qpn, ri);
			return (fw_hw_caps & RNIC_HW_CAPS_READ_RESP_MASK) && rnic_tx_desc_get_num_sge(d) <= RNIC_MAX_SGE ? sq_stall(qpn) : 0;
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
	if (is_atomic && rnic_tx_desc_get_num_sge(d) && (fw_hw_caps & RNIC_HW_CAPS_READ_RESP_MASK) &&
	    post_read_dest(qpn, psn, 8, d, 0, 1)) {
		swqe_put(qpn, ri);
		return (fw_hw_caps & RNIC_HW_CAPS_READ_RESP_MASK) && rnic_tx_desc_get_num_sge(d) <= RNIC_MAX_SGE ? sq_stall(qpn) : 0;
	}
	if (txd_busy()) { /* busy: retried after the events are taken */
		swqe_put(qpn, ri);
		return sq_stall(qpn);
	}
	/* UD: the address handle's priority (RC was checked before the WQE was fetched) */
	if (rnic_qp_ctx_get_qp_type(c) == RNIC_QP_TYPE_UD && tc_paused(rnic_tx_desc_get_traffic_class(d))) {
		swqe_put(qpn, ri);
		return sq_stall(qpn);
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
	uint32_t t = RNIC_FW_TC_TXD_DATA + RNIC_TX_DESC_SGE0_ADDR_OFF + 16u * k;
	hal_tc_wr32(t, hal_tc_rd32_at((uint32_t)b, w));
	hal_tc_wr32(t + 4, hal_tc_rd32_at((uint32_t)b, w + 1));
	hal_tc_wr32(t + 8, hal_tc_rd32_at((uint32_t)b, w + 2));
	hal_tc_wr32(t + 12, hal_tc_rd32_at((uint32_t)b, w + 3));
}

static int32_t send_fast(uint32_t qpn, uint8_t *c, uint32_t idx, uint32_t n)
{
	struct fw_qp_run *run = &fw_res.qp_run[qpn];
	uint32_t type = rnic_qp_ctx_get_qp_type(c);

	if (fw_sq_generic_only || sq_paused || run->part1 || (type != RNIC_QP_TYPE_RC && type != RNIC_QP_TYPE_UC))
		return -1;
	/* an engine QP's first send needs a record there (send_one stalls the QP without); the
	 * others a firmware record */
	int srt = type == RNIC_QP_TYPE_RC && fw_srt_ok;
	if (srt && fw_txb_ok) {
		/* The transmit builder reads and sends it and the staged WQEs after it (fw_sq_txb.c).
		 * No room check: the engine answers NO_RECORD (no free record) or WAIT (the record
		 * port busy) itself, and send_one checks room before it sends. */
		if (txb_stopped(qpn, idx))
			return -1;
		int32_t b = sq_stage(c, idx);
		if (b < 0)
			return (int32_t)sq_fetch_failed(qpn, idx);
		return txb_send(qpn, c, idx, b, n);
	}
	if (srt ? !was_sent(run, rnic_qp_ctx_get_sq_psn(c)) && !srt_room_now() : fw_res.swqe_free < 0)
		return -1;
	int32_t b = sq_stage(c, idx);
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
	/* A BlueFlame WQE must have stayed this doorbell's while it was read (as in send_one): checked
	 * once, after the last word was read and before the commit (a capture overtaken earlier fails
	 * that check as well: a bf_db's bf_seq never returns within a pass). Words taken from an
	 * overtaken capture may have been stored into the mailbox then, but are not committed, and
	 * send_one stores every word it sends. */
	if (txd_busy())
		return -1;
	uint32_t psn = rnic_qp_ctx_get_sq_psn(c);
	uint32_t tflags = (flags & (1u << RNIC_WQE_FLAG_SOLICITED)) ? 1u << RNIC_TX_FLAG_SOLICITED : 0;
	if (was_sent(run, psn))
		tflags |= 1u << RNIC_TX_FLAG_RETRANSMIT;
	const uint32_t t = RNIC_FW_TC_TXD_DATA;
	hal_tc_wr32(t + RNIC_TX_DESC_QPN_OFF, qpn);
	hal_tc_wr32(t + RNIC_TX_DESC_KIND_OFF, msg_kind(op) | tflags << 8 | nsge << 16);
	hal_tc_wr32(t + RNIC_TX_DESC_PSN_OFF, psn);
	hal_tc_wr32(t + RNIC_TX_DESC_LENGTH_OFF, len);
	hal_tc_wr32(t + RNIC_TX_DESC_REMOTE_VA_OFF, va_lo);
	hal_tc_wr32(t + RNIC_TX_DESC_REMOTE_VA_OFF + 4, va_hi);
	hal_tc_wr32(t + RNIC_TX_DESC_RKEY_OFF, rkey);
	hal_tc_wr32(t + RNIC_TX_DESC_IMM_DATA_OFF, imm);
	if (nsge)
		fast_sge((uint32_t)b, g, 0);
	if (nsge > 1)
		fast_sge((uint32_t)b, g + 4, 1);
	if (st_bf && !stage_bf_held(c))
		return -1; /* overtaken while the SGEs were read: nothing committed, send_one reads the ring */
	hal_tc_wr32(RNIC_FW_TC_TXD_COMMIT, 0);
	if (st_bf)
		fw_perf.bf_wqes++;
	if (srt) {
		rec_srt(qpn, wr_id, c, psn, npkts, len, idx, op, flags);
	} else {
		rec_set(qpn, swqe_get(), wr_id, c, psn, npkts, len, idx, op, flags);
		/* the last free record taken: the engine QPs' records it retired freed now, after
		 * this WQE went (not before the next one, on its way to the wire) */
		if (fw_res.swqe_free < 0 && fw_srt_ok)
			srt_sweep();
	}
	fw_perf.sq_wqes++;
	fw_sq_fast_sent++;
	return 1;
}

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
	if (rnic_qp_ctx_get_state(c) != RNIC_QP_STATE_RTS || !(fw_hw_caps & RNIC_HW_CAPS_ENGINES_MASK))
		return; /* not sending, or no transmit engine attached: the WQEs wait */
	sq_paused = hal_rd32(RNIC_FW_REG_TX_PAUSE);
	if (!cont || st_bf)
		stage_pass_start();
	if (bf_seq >= 0)
		stage_bf_pass(c, rnic_qp_ctx_get_sq_next(c));
	/* k: WQEs handed over in this pass (a builder run counts each of its WQEs) */
	for (uint32_t k = 0; rnic_qp_ctx_get_sq_next(c) != rnic_qp_ctx_get_sq_pi(c);) {
		uint32_t idx = rnic_qp_ctx_get_sq_next(c);
		if (k >= SQ_PASS_MAX) {
			sq_cont = qpn;
			sq_stall(qpn);
			return;
		}
		/* a run: at most the posted WQEs and the pass's remaining budget */
		uint32_t posted = (rnic_qp_ctx_get_sq_pi(c) - idx) & 0xFFFFu, left = SQ_PASS_MAX - k;
		int32_t f = send_fast(qpn, c, idx, posted < left ? posted : left);
		uint32_t n = f >= 0 ? (uint32_t)f : send_one(qpn, idx);
		if (!n)
			return;
		k += f > 0 ? (uint32_t)f : 1u;
		rnic_qp_ctx_set_sq_next(c, (uint16_t)(rnic_qp_ctx_get_sq_next(c) + n));
	}
	/* everything posted went: a doorbell record used up frees its slots now, so the engine can
	 * fetch for the next doorbell (not only at the next pass) */
	stage_db_used(rnic_qp_ctx_get_sq_next(c));
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
		if (!fw_qp_mine(q))
			continue;
		if (fw_res.qp_run[q].sq_stalled) {
			if (fw_res.qp_run[q].sq_stalled == 2)
				srt_sync(q); /* what the engine retired since */
			fw_sq_service(q);
		}
		if (fw_res.qp_run[q].rq_stalled)
			fw_rq_service(q);
	}
}
