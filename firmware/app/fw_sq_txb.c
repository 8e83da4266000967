/* Send queues, the transmit builder's use (fw_sq_txb.h; docs/decisions/tx-build.md, "Wiring"). */
#include "fw_sq_txb.h"

#include "fw_sq_priv.h"
#include "fw_sq_srt.h"
#include "fw_sq_stage.h"
#include "fw_sq_timer.h"

uint8_t fw_txb_ok, fw_txb_off;
uint32_t fw_txb_sent, fw_txb_not_mine;

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
static inline uint32_t txb_w3(uint32_t psn, uint32_t retx, uint32_t bf)
{
	uint32_t w[RNIC_TXB_CMD_SIZE / 4] __attribute__((aligned(8))) = { 0 };
	rnic_txb_cmd_set_psn(w, psn);
	rnic_txb_cmd_set_retx(w, retx);
	rnic_txb_cmd_set_bf(w, bf);
	return w[3];
}
_Static_assert(RNIC_TXB_CMD_QPN_OFF / 4 == 0 && RNIC_TXB_CMD_SIG_ALL_OFF / 4 == 0 && RNIC_TXB_CMD_SEND_CQN_OFF / 4 == 1 &&
		       RNIC_TXB_CMD_PAGE_OFF / 4 == 1 && RNIC_TXB_CMD_SRC_BB_OFF / 4 == 2 &&
		       RNIC_TXB_CMD_WQE_INDEX_OFF / 4 == 2 && RNIC_TXB_CMD_PSN_OFF / 4 == 3 && RNIC_TXB_CMD_BF_OFF / 4 == 3,
	       "txb_cmd: the words fw_sq_txb.c builds");

int32_t txb_send(uint32_t qpn, uint8_t *c, uint32_t idx, int32_t b)
{
	struct fw_qp_run *run = &fw_res.qp_run[qpn];
	uint32_t psn = rnic_qp_ctx_get_sq_psn(c);
	uint32_t retx = (uint32_t)was_sent(run, psn);

	/* the QP's words each time: a MODIFY_QP may change them between two commands */
	hal_tc_wr32(RNIC_FW_TC_TXB_CMD0, txb_w0(qpn, rnic_qp_ctx_get_path_mtu(c), rnic_qp_ctx_get_sq_sig_all(c) != 0));
	hal_tc_wr32(RNIC_FW_TC_TXB_CMD1, txb_w1(rnic_qp_ctx_get_send_cqn(c), rnic_qp_ctx_get_uctx(c)));
	hal_tc_wr32(RNIC_FW_TC_TXB_CMD2, txb_w2((uint32_t)b / RNIC_WQEBB_BYTES, st_bf_seq, idx));
	hal_tc_wr32(RNIC_FW_TC_TXB_CMD3, txb_w3(psn, retx, st_bf));
	uint32_t s;
	while (rnic_txb_status_v_busy(s = hal_tc_rd32(RNIC_FW_TC_TXB_STATUS)))
		;
	if (rnic_txb_status_v_result(s) != RNIC_TXB_RESULT_SENT) {
		fw_txb_not_mine++;
		return -1; /* nothing sent or recorded: send_one (a lost capture, no record, a WQE not its) */
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
	fw_perf.sq_wqes++;
	fw_txb_sent++;
	return 1;
}
