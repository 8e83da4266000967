/* Send queues, the transmit builder's use (fw_sq_txb.h; docs/decisions/tx-build.md, "Wiring"). */
#include "fw_sq_txb.h"

#include "fw_sq_priv.h"
#include "fw_sq_srt.h"
#include "fw_sq_stage.h"
#include "fw_sq_timer.h"

uint8_t fw_txb_ok, fw_txb_off, fw_txb_send_runs;
uint32_t fw_txb_sent, fw_txb_not_mine, fw_txb_runs;

void txb_init(void)
{
	fw_txb_ok = fw_srt_ok && !fw_txb_off && (fw_hw_caps & RNIC_HW_CAPS_TX_BUILD_MASK);
}

/* Word k of a txb_cmd holding the given fields: built with the generated setters on a local
 * command, which the compiler folds into shifts (no bit position written here). */
static inline uint32_t txb_w0(uint32_t qpn, uint32_t mtu, uint32_t sig_all)
{
	uint32_t w[RNIC_TXB_CMD_SIZE / 4] __attribute__((aligned(8))) = { 0 };
	rnic_txb_cmd_set_qpn(w, qpn);
	rnic_txb_cmd_set_path_mtu(w, mtu);
	rnic_txb_cmd_set_sig_all(w, sig_all);
	return w[0];
}
static inline uint32_t txb_w1(uint32_t cqn, uint32_t page)
{
	uint32_t w[RNIC_TXB_CMD_SIZE / 4] __attribute__((aligned(8))) = { 0 };
	rnic_txb_cmd_set_send_cqn(w, cqn);
	rnic_txb_cmd_set_page(w, page);
	return w[1];
}
static inline uint32_t txb_w2(uint32_t src_bb, uint32_t bf_seq, uint32_t idx)
{
	uint32_t w[RNIC_TXB_CMD_SIZE / 4] __attribute__((aligned(8))) = { 0 };
	rnic_txb_cmd_set_src_bb(w, src_bb);
	rnic_txb_cmd_set_bf_seq(w, bf_seq);
	rnic_txb_cmd_set_wqe_index(w, idx);
	return w[2];
}
static inline uint32_t txb_w3(uint32_t psn, uint32_t retx, uint32_t bf, uint32_t more, uint32_t wrap_log)
{
	uint32_t w[RNIC_TXB_CMD_SIZE / 4] __attribute__((aligned(8))) = { 0 };
	rnic_txb_cmd_set_psn(w, psn);
	rnic_txb_cmd_set_retx(w, retx);
	rnic_txb_cmd_set_bf(w, bf);
	rnic_txb_cmd_set_more(w, more);
	rnic_txb_cmd_set_wrap_log(w, wrap_log);
	return w[3];
}
/* The longest run a command takes: 1 + the largest txb_cmd.more (folded by the compiler). */
static inline uint32_t txb_run_max(void)
{
	uint32_t w[RNIC_TXB_CMD_SIZE / 4] __attribute__((aligned(8))) = { 0 };
	rnic_txb_cmd_set_more(w, ~0u);
	return 1u + rnic_txb_cmd_get_more(w);
}
/* log2 of a region's WQEBB slots (st_mask + 1: 4, 8 or 16) */
static inline uint32_t txb_wrap_log(uint32_t mask)
{
	return mask >= 15u ? 4u : mask >= 7u ? 3u : 2u;
}
_Static_assert(FW_WQF_BBS == 8 && FW_WQF_DB_BBS == 16 && RNIC_DB_BF_DATA_BYTES / RNIC_WQEBB_BYTES == 4 &&
		       RNIC_FW_TC_WQF_BUF_BASE % (FW_WQF_BBS * RNIC_WQEBB_BYTES) == 0 &&
		       RNIC_FW_TC_WQF_DB_BUF_BASE % (FW_WQF_DB_BBS * RNIC_WQEBB_BYTES) == 0 &&
		       RNIC_FW_TC_BF_DATA_BASE % RNIC_DB_BF_DATA_BYTES == 0,
	       "txb_wrap_log: the staging regions are rings of 4, 8 or 16 slots aligned to their size");

/* The WQE a run stopped at (the engine's "not mine" after sent >= 1 WQEs): the next send_fast
 * of that QP and index hands it to send_one without asking the engine again. */
static uint32_t txb_stop_qpn, txb_stop_idx;
static uint8_t txb_stop;
int txb_stopped(uint32_t qpn, uint32_t idx)
{
	if (txb_stop && txb_stop_qpn == qpn && txb_stop_idx == (idx & 0xFFFFu)) {
		txb_stop = 0;
		return 1;
	}
	return 0;
}
_Static_assert(RNIC_TXB_CMD_QPN_OFF / 4 == 0 && RNIC_TXB_CMD_SIG_ALL_OFF / 4 == 0 && RNIC_TXB_CMD_SEND_CQN_OFF / 4 == 1 &&
		       RNIC_TXB_CMD_PAGE_OFF / 4 == 1 && RNIC_TXB_CMD_SRC_BB_OFF / 4 == 2 &&
		       RNIC_TXB_CMD_WQE_INDEX_OFF / 4 == 2 && RNIC_TXB_CMD_PSN_OFF / 4 == 3 && RNIC_TXB_CMD_BF_OFF / 4 == 3,
	       "txb_cmd: the words fw_sq_txb.c builds");

int32_t txb_send(uint32_t qpn, uint8_t *c, uint32_t idx, int32_t b, uint32_t n)
{
	struct fw_qp_run *run = &fw_res.qp_run[qpn];
	uint32_t psn = rnic_qp_ctx_get_sq_psn(c);
	uint32_t retx = (uint32_t)was_sent(run, psn);

	/* A run: the WQEs staged from idx on, first sends only (a resend's later PSNs may cross
	 * hi_psn), never the BlueFlame capture (one WQE per doorbell). */
	uint32_t staged = st_n - ((idx - st_first) & 0xFFFFu);
	if (n > staged)
		n = staged;
	if (n > txb_run_max())
		n = txb_run_max();
	if (retx || st_bf || n == 0)
		n = 1;
	/* A SEND ends its run (unless fw_txb_send_runs): each uses a receive buffer the responder
	 * must have handed to its receive engine, and the responder's firmware takes longer per
	 * received SEND (~190 cycles) than a run per WQE: a 16-deep 4 KiB SEND stream sent in runs
	 * outpaced its RQ handover (14 RNR NAKs, 33 -> 8 Gb/s). One load per WQE of the run. */
	uint32_t rel = (idx - st_first) & 0xFFFFu;
	for (uint32_t i = 0; !fw_txb_send_runs && i + 1 < n; i++) {
		uint32_t ctl = hal_tc_rd32(st_base + ((st_slot + rel + i) & st_mask) * RNIC_WQEBB_BYTES +
					   (RNIC_WQE_CTRL_OPCODE_OFF & ~3u));
		uint32_t op = (ctl >> (8u * (RNIC_WQE_CTRL_OPCODE_OFF % 4u))) & 0xFFu;
		if (op != RNIC_WQE_OP_RDMA_WRITE && op != RNIC_WQE_OP_RDMA_WRITE_WITH_IMM)
			n = i + 1;
	}

	/* the QP's words each time: a MODIFY_QP may change them between two commands */
	hal_tc_wr32(RNIC_FW_TC_TXB_CMD0, txb_w0(qpn, rnic_qp_ctx_get_path_mtu(c), rnic_qp_ctx_get_sq_sig_all(c) != 0));
	hal_tc_wr32(RNIC_FW_TC_TXB_CMD1, txb_w1(rnic_qp_ctx_get_send_cqn(c), rnic_qp_ctx_get_uctx(c)));
	hal_tc_wr32(RNIC_FW_TC_TXB_CMD2, txb_w2((uint32_t)b / RNIC_WQEBB_BYTES, st_bf_seq, idx));
	hal_tc_wr32(RNIC_FW_TC_TXB_CMD3, txb_w3(psn, retx, st_bf, n - 1u, txb_wrap_log(st_mask)));
	uint32_t s;
	/* bounded by the engine: it answers WAIT rather than hold this loop (rtl/tx_build) */
	while (rnic_txb_status_v_busy(s = hal_tc_rd32(RNIC_FW_TC_TXB_STATUS)))
		;
	if (rnic_txb_status_v_result(s) != RNIC_TXB_RESULT_SENT) {
		fw_txb_not_mine++;
		n = rnic_txb_run_v_sent(hal_tc_rd32(RNIC_FW_TC_TXB_RUN));
		if (!n)
			return -1; /* nothing sent or recorded: send_one (a lost capture, no record, a WQE not its) */
		/* the run went up to the one it stopped at: that one is send_one's, next */
		txb_stop = 1;
		txb_stop_qpn = qpn;
		txb_stop_idx = (idx + n) & 0xFFFFu;
	}
	/* what rec_srt does after the record: the next PSN, the resend bound, the ACK timer */
	if (!retx)
		run->hi_ok = 0;
	rnic_qp_ctx_set_sq_psn(c, rnic_txb_status_v_next_psn(s));
	if (!run->deadline) {
		arm_ack_timer(qpn);
		if (!retx)
			run->tmr_una = psn; /* see rec_srt */
	}
	if (st_bf)
		fw_perf.bf_wqes++;
	fw_perf.sq_wqes += n;
	fw_txb_sent += n;
	fw_txb_runs++;
	return (int32_t)n;
}
