/* Host unit tests of the firmware command handlers (MOCK_MMIO build): statuses and outputs per
 * the spec layouts, resource lifetimes, and the IBTA QP state machine. */
#include <stdio.h>
#include <string.h>

#include "fw_cmd.h"
#include "fw_panic.h"
#include "fw_res.h"
#include "hal.h"
#include "mock_mmio.h"

static uint8_t e[RNIC_CMD_ENTRY_SIZE];
#define CMD(op) (memset(e, 0, sizeof(e)), rnic_cmd_entry_set_opcode(e, (op)))
#define A(x) (1u << RNIC_QP_ATTR_##x)

static void basic_commands(void)
{
	/* Command handler: statuses and outputs per the spec layouts. */
	fw_cmd_init();
	CMD(RNIC_CMD_OP_NOP);
	check(fw_cmd_exec(e) == RNIC_CMD_STATUS_OK, "fw-cmd-nop");
	CMD(0xEE);
	check(fw_cmd_exec(e) == RNIC_CMD_STATUS_BAD_OPCODE, "fw-cmd-unknown-opcode");
	CMD(RNIC_CMD_OP_QUERY_DEVICE);
	check(fw_cmd_exec(e) == RNIC_CMD_STATUS_OK && rnic_cmd_query_device_get_fw_version(e) == FW_VERSION &&
		      rnic_cmd_query_device_get_max_sge(e) == 4 && rnic_cmd_query_device_get_max_pd(e) == FW_MAX_PD - 1,
	      "fw-cmd-query-device");
	CMD(RNIC_CMD_OP_SET_GID);
	rnic_cmd_set_gid_set_index(e, FW_NUM_GIDS);
	check(fw_cmd_exec(e) == RNIC_CMD_STATUS_BAD_PARAM, "fw-cmd-set-gid-bad-index");
	CMD(RNIC_CMD_OP_SET_GID);
	rnic_cmd_set_gid_set_index(e, 0);
	rnic_cmd_set_gid_set_ipv4(e, 0x0A000001);
	rnic_cmd_set_gid_set_mac(e, 0x020000000001ull);
	uint32_t st = fw_cmd_exec(e);
	CMD(RNIC_CMD_OP_QUERY_PORT);
	check(st == RNIC_CMD_STATUS_OK && fw_cmd_exec(e) == RNIC_CMD_STATUS_OK &&
		      rnic_cmd_query_port_get_mac(e) == 0x020000000001ull && rnic_cmd_query_port_get_state(e) == 4,
	      "fw-cmd-set-gid-then-query-port");
	CMD(RNIC_CMD_OP_ALLOC_PD);
	fw_cmd_exec(e);
	uint32_t pd1 = rnic_cmd_pd_get_pdn(e);
	CMD(RNIC_CMD_OP_ALLOC_PD);
	fw_cmd_exec(e);
	uint32_t pd2 = rnic_cmd_pd_get_pdn(e);
	check(pd1 != 0 && pd2 != 0 && pd1 != pd2, "fw-cmd-alloc-pd-distinct");
	CMD(RNIC_CMD_OP_DEALLOC_PD);
	rnic_cmd_pd_set_pdn(e, pd1);
	st = fw_cmd_exec(e);
	check(st == RNIC_CMD_STATUS_OK && fw_cmd_exec(e) == RNIC_CMD_STATUS_BAD_HANDLE, "fw-cmd-dealloc-pd-double-free");
	CMD(RNIC_CMD_OP_DEALLOC_PD);
	rnic_cmd_pd_set_pdn(e, 0);
	check(fw_cmd_exec(e) == RNIC_CMD_STATUS_BAD_HANDLE, "fw-cmd-dealloc-pd-zero");
	CMD(RNIC_CMD_OP_ALLOC_PD);
	rnic_cmd_pd_set_uctx(e, 7); /* never allocated */
	check(fw_cmd_exec(e) == RNIC_CMD_STATUS_BAD_HANDLE, "fw-cmd-alloc-pd-unknown-uctx");
	unsigned got = 0;
	for (;;) {
		CMD(RNIC_CMD_OP_ALLOC_PD);
		if (fw_cmd_exec(e) != RNIC_CMD_STATUS_OK)
			break;
		got++;
	}
	check(got == FW_MAX_PD - 2 && rnic_cmd_entry_get_opcode(e) == RNIC_CMD_OP_ALLOC_PD,
	      "fw-cmd-alloc-pd-exhaustion-no-resources");
	CMD(RNIC_CMD_OP_ALLOC_UCTX);
	st = fw_cmd_exec(e);
	uint32_t u = rnic_cmd_uctx_get_uctx(e);
	CMD(RNIC_CMD_OP_DEALLOC_UCTX);
	rnic_cmd_uctx_set_uctx(e, u);
	check(st == RNIC_CMD_STATUS_OK && u != 0 && fw_cmd_exec(e) == RNIC_CMD_STATUS_OK, "fw-cmd-uctx-alloc-free");
}

static uint32_t new_handle(uint32_t op, uint32_t (*get)(const void *))
{
	CMD(op);
	fw_cmd_exec(e);
	return get(e);
}

static uint32_t create_qp(uint32_t pd, uint32_t cq, uint32_t type)
{
	CMD(RNIC_CMD_OP_CREATE_QP);
	rnic_cmd_create_qp_set_pdn(e, pd);
	rnic_cmd_create_qp_set_send_cqn(e, cq);
	rnic_cmd_create_qp_set_recv_cqn(e, cq);
	rnic_cmd_create_qp_set_qp_type(e, type);
	rnic_cmd_create_qp_set_sq_log_size(e, 6);
	rnic_cmd_create_qp_set_rq_log_size(e, 6);
	rnic_cmd_create_qp_set_rq_log_stride(e, 6);
	rnic_cmd_create_qp_set_buf_addr(e, 0x100000000ull);
	rnic_cmd_create_qp_set_rq_offset(e, 64u << 6);
	return fw_cmd_exec(e) == RNIC_CMD_STATUS_OK ? rnic_cmd_create_qp_get_qpn(e) : 0;
}

static uint32_t modify(uint32_t qpn, uint32_t state, uint32_t mask)
{
	CMD(RNIC_CMD_OP_MODIFY_QP);
	rnic_cmd_modify_qp_set_qpn(e, qpn);
	rnic_cmd_modify_qp_set_attr_mask(e, mask | A(STATE));
	rnic_cmd_modify_qp_set_state(e, state);
	rnic_cmd_modify_qp_set_path_mtu(e, 3);
	rnic_cmd_modify_qp_set_dest_qpn(e, 0x12);
	rnic_cmd_modify_qp_set_rq_psn(e, 0x1234);
	rnic_cmd_modify_qp_set_sq_psn(e, 0xABCDEF);
	rnic_cmd_modify_qp_set_timeout(e, 14);
	rnic_cmd_modify_qp_set_retry_cnt(e, 7);
	rnic_cmd_modify_qp_set_rnr_retry(e, 7);
	rnic_cmd_modify_qp_set_min_rnr_timer(e, 12);
	rnic_cmd_modify_qp_set_access(e, 0x7);
	rnic_cmd_modify_qp_set_dmac(e, 0x020000000022ull);
	rnic_cmd_modify_qp_set_dest_ipv4(e, 0x0A000022);
	rnic_cmd_modify_qp_set_max_rd_atomic(e, 4);
	rnic_cmd_modify_qp_set_max_dest_rd_atomic(e, 4);
	return fw_cmd_exec(e);
}

static void qp_commands(void)
{
	uint32_t st;

	CMD(RNIC_CMD_OP_SET_GID);
	rnic_cmd_set_gid_set_index(e, 0);
	rnic_cmd_set_gid_set_ipv4(e, 0x0A000011);
	rnic_cmd_set_gid_set_mac(e, 0x020000000011ull);
	fw_cmd_exec(e);
	uint32_t pd = new_handle(RNIC_CMD_OP_ALLOC_PD, rnic_cmd_pd_get_pdn);
	CMD(RNIC_CMD_OP_CREATE_CQ);
	rnic_cmd_create_cq_set_log_size(e, 8);
	rnic_cmd_create_cq_set_buf_addr(e, 0x200000000ull);
	rnic_cmd_create_cq_set_dbrec_addr(e, 0x200000000ull - 64);
	st = fw_cmd_exec(e);
	uint32_t cq = rnic_cmd_create_cq_get_cqn(e);
	check(st == RNIC_CMD_STATUS_OK && cq != 0, "fw-cmd-create-cq");
	CMD(RNIC_CMD_OP_CREATE_CQ);
	rnic_cmd_create_cq_set_log_size(e, 0);
	rnic_cmd_create_cq_set_buf_addr(e, 0x200000000ull);
	rnic_cmd_create_cq_set_dbrec_addr(e, 0x200000000ull - 64);
	check(fw_cmd_exec(e) == RNIC_CMD_STATUS_BAD_PARAM, "fw-cmd-create-cq-bad-size");

	check(create_qp(pd, 99, RNIC_QP_TYPE_RC) == 0, "fw-cmd-create-qp-unknown-cq");
	check(create_qp(pd, cq, 7) == 0, "fw-cmd-create-qp-bad-type");
	uint32_t qp = create_qp(pd, cq, RNIC_QP_TYPE_RC);
	check(qp >= FW_FIRST_QPN, "fw-cmd-create-qp-rc");

	/* RESET -> RTR skips INIT: refused; RESET -> INIT without its required attributes: refused. */
	check(modify(qp, RNIC_QP_STATE_RTR, A(AV) | A(PATH_MTU) | A(DEST_QPN) | A(RQ_PSN) |
						  A(MAX_DEST_RD_ATOMIC) | A(MIN_RNR_TIMER)) == RNIC_CMD_STATUS_BAD_STATE,
	      "fw-qp-reset-to-rtr-refused");
	check(modify(qp, RNIC_QP_STATE_INIT, A(PKEY_INDEX) | A(PORT)) == RNIC_CMD_STATUS_BAD_STATE,
	      "fw-qp-init-missing-access-refused");
	check(modify(qp, RNIC_QP_STATE_INIT, A(PKEY_INDEX) | A(PORT) | A(ACCESS_FLAGS) | A(SQ_PSN)) ==
		      RNIC_CMD_STATUS_BAD_STATE,
	      "fw-qp-init-extra-attribute-refused");
	check(modify(qp, RNIC_QP_STATE_INIT, A(PKEY_INDEX) | A(PORT) | A(ACCESS_FLAGS)) == RNIC_CMD_STATUS_OK,
	      "fw-qp-reset-to-init");
	st = modify(qp, RNIC_QP_STATE_RTR,
		    A(AV) | A(PATH_MTU) | A(DEST_QPN) | A(RQ_PSN) | A(MAX_DEST_RD_ATOMIC) | A(MIN_RNR_TIMER));
	check(st == RNIC_CMD_STATUS_OK, "fw-qp-init-to-rtr");
	st = modify(qp, RNIC_QP_STATE_RTS, A(SQ_PSN) | A(TIMEOUT) | A(RETRY_CNT) | A(RNR_RETRY) | A(MAX_QP_RD_ATOMIC));
	check(st == RNIC_CMD_STATUS_OK, "fw-qp-rtr-to-rts");

	CMD(RNIC_CMD_OP_QUERY_QP);
	rnic_cmd_modify_qp_set_qpn(e, qp);
	st = fw_cmd_exec(e);
	check(st == RNIC_CMD_STATUS_OK && rnic_cmd_modify_qp_get_state(e) == RNIC_QP_STATE_RTS &&
		      rnic_cmd_modify_qp_get_sq_psn(e) == 0xABCDEF && rnic_cmd_modify_qp_get_rq_psn(e) == 0x1234 &&
		      rnic_cmd_modify_qp_get_dest_qpn(e) == 0x12 && rnic_cmd_modify_qp_get_path_mtu(e) == 3 &&
		      rnic_cmd_modify_qp_get_dmac(e) == 0x020000000022ull,
	      "fw-qp-query-after-rts");
	uint16_t sport = (uint16_t)rnic_qp_ctx_get_udp_sport(fw_res.qp_ctx[qp]);
	check(sport >= 0xC000, "fw-qp-udp-source-port-entropy");

	/* A bad value is refused even on an allowed transition; a wrong CUR_STATE too. */
	CMD(RNIC_CMD_OP_MODIFY_QP);
	rnic_cmd_modify_qp_set_qpn(e, qp);
	rnic_cmd_modify_qp_set_attr_mask(e, A(STATE) | A(MIN_RNR_TIMER));
	rnic_cmd_modify_qp_set_state(e, RNIC_QP_STATE_RTS);
	rnic_cmd_modify_qp_set_min_rnr_timer(e, 40);
	check(fw_cmd_exec(e) == RNIC_CMD_STATUS_BAD_PARAM, "fw-qp-bad-value-refused");
	CMD(RNIC_CMD_OP_MODIFY_QP);
	rnic_cmd_modify_qp_set_qpn(e, qp);
	rnic_cmd_modify_qp_set_attr_mask(e, A(STATE) | A(CUR_STATE));
	rnic_cmd_modify_qp_set_state(e, RNIC_QP_STATE_RTS);
	rnic_cmd_modify_qp_set_cur_state(e, RNIC_QP_STATE_INIT);
	check(fw_cmd_exec(e) == RNIC_CMD_STATUS_BAD_STATE, "fw-qp-wrong-cur-state-refused");

	check(modify(qp, RNIC_QP_STATE_SQD, 0) == RNIC_CMD_STATUS_OK &&
		      modify(qp, RNIC_QP_STATE_RTS, 0) == RNIC_CMD_STATUS_OK,
	      "fw-qp-rts-sqd-rts");
	check(modify(qp, RNIC_QP_STATE_ERR, 0) == RNIC_CMD_STATUS_OK &&
		      modify(qp, RNIC_QP_STATE_RTS, 0) == RNIC_CMD_STATUS_BAD_STATE &&
		      modify(qp, RNIC_QP_STATE_RESET, 0) == RNIC_CMD_STATUS_OK,
	      "fw-qp-err-only-to-reset");

	/* UD: RESET->INIT needs QKEY; RTR needs nothing; RTS needs SQ_PSN; SQE->RTS is allowed. */
	uint32_t ud = create_qp(pd, cq, RNIC_QP_TYPE_UD);
	check(ud && modify(ud, RNIC_QP_STATE_INIT, A(PKEY_INDEX) | A(PORT) | A(ACCESS_FLAGS)) ==
			    RNIC_CMD_STATUS_BAD_STATE &&
		      modify(ud, RNIC_QP_STATE_INIT, A(PKEY_INDEX) | A(PORT) | A(QKEY)) == RNIC_CMD_STATUS_OK &&
		      modify(ud, RNIC_QP_STATE_RTR, 0) == RNIC_CMD_STATUS_OK &&
		      modify(ud, RNIC_QP_STATE_RTS, A(SQ_PSN)) == RNIC_CMD_STATUS_OK,
	      "fw-qp-ud-transitions");
	check(fw_qp_transition_ok(RNIC_QP_TYPE_UD, RNIC_QP_STATE_SQE, RNIC_QP_STATE_RTS, A(STATE)) &&
		      !fw_qp_transition_ok(RNIC_QP_TYPE_RC, RNIC_QP_STATE_SQE, RNIC_QP_STATE_RTS, A(STATE)),
	      "fw-qp-sqe-to-rts-ud-only");

	/* Lifetimes: a CQ or PD used by a QP cannot go; after the QPs are destroyed it can. */
	CMD(RNIC_CMD_OP_DESTROY_CQ);
	rnic_cmd_destroy_set_handle(e, cq);
	check(fw_cmd_exec(e) == RNIC_CMD_STATUS_BUSY, "fw-cq-in-use-busy");
	CMD(RNIC_CMD_OP_DEALLOC_PD);
	rnic_cmd_pd_set_pdn(e, pd);
	check(fw_cmd_exec(e) == RNIC_CMD_STATUS_BUSY, "fw-pd-in-use-busy");
	CMD(RNIC_CMD_OP_DESTROY_QP);
	rnic_cmd_destroy_set_handle(e, qp);
	st = fw_cmd_exec(e);
	CMD(RNIC_CMD_OP_DESTROY_QP);
	rnic_cmd_destroy_set_handle(e, ud);
	uint32_t st2 = fw_cmd_exec(e);
	check(st == RNIC_CMD_STATUS_OK && st2 == RNIC_CMD_STATUS_OK && fw_cmd_exec(e) == RNIC_CMD_STATUS_BAD_HANDLE,
	      "fw-qp-destroy-twice");
	CMD(RNIC_CMD_OP_DESTROY_CQ);
	rnic_cmd_destroy_set_handle(e, cq);
	check(fw_cmd_exec(e) == RNIC_CMD_STATUS_OK, "fw-cq-destroy-after-qps");

	/* Address handles need a valid PD and GID. */
	CMD(RNIC_CMD_OP_CREATE_AH);
	rnic_cmd_create_ah_set_pdn(e, pd);
	rnic_cmd_create_ah_set_sgid_index(e, 5);
	check(fw_cmd_exec(e) == RNIC_CMD_STATUS_BAD_PARAM, "fw-ah-unset-gid-refused");
	CMD(RNIC_CMD_OP_CREATE_AH);
	rnic_cmd_create_ah_set_pdn(e, pd);
	rnic_cmd_create_ah_set_dmac(e, 0x020000000022ull);
	st = fw_cmd_exec(e);
	uint32_t ah = rnic_cmd_create_ah_get_ahn(e);
	CMD(RNIC_CMD_OP_DESTROY_AH);
	rnic_cmd_destroy_set_handle(e, ah);
	check(st == RNIC_CMD_STATUS_OK && ah && fw_cmd_exec(e) == RNIC_CMD_STATUS_OK &&
		      fw_cmd_exec(e) == RNIC_CMD_STATUS_BAD_HANDLE,
	      "fw-ah-create-destroy");

	/* QP exhaustion answers NO_RESOURCES, and the table is whole again after freeing. */
	CMD(RNIC_CMD_OP_CREATE_CQ);
	rnic_cmd_create_cq_set_log_size(e, 4);
	rnic_cmd_create_cq_set_buf_addr(e, 0x300000000ull);
	rnic_cmd_create_cq_set_dbrec_addr(e, 0x300000000ull - 64);
	fw_cmd_exec(e);
	cq = rnic_cmd_create_cq_get_cqn(e);
	unsigned n = 0;
	while (create_qp(pd, cq, RNIC_QP_TYPE_RC))
		n++;
	check(n == FW_MAX_QP - FW_FIRST_QPN && rnic_cmd_entry_get_status(e) == 0, "fw-qp-exhaustion");
	CMD(RNIC_CMD_OP_CREATE_QP);
	check(create_qp(pd, cq, RNIC_QP_TYPE_RC) == 0 && fw_cmd_exec(e) != RNIC_CMD_STATUS_OK, "fw-qp-exhausted-no-resources");
}

/* The QP count comes from hw_caps.log2_qps (the configuration's NumQps): QUERY_DEVICE reports it,
 * exactly that many QPs can be created, their state lies inside the QP-context RAM of that size,
 * and what an earlier image left there is cleared at boot. */
static void qp_count_from_hw(void)
{
	static const unsigned lgs[] = { 2, 8, 10, 12 };
	for (unsigned k = 0; k < sizeof(lgs) / sizeof(lgs[0]); k++) {
		unsigned lg = lgs[k], nq = 1u << lg;
		char name[64];
		mock_qp_log2 = lg;
		memset(mock_qpc, 0xA5, sizeof(mock_qpc)); /* stale contents: every QP "used" */
		memset(&fw_res, 0, sizeof(fw_res));
		fw_cmd_init();
		CMD(RNIC_CMD_OP_QUERY_DEVICE);
		snprintf(name, sizeof(name), "fw-qp-count-%u-query-device", nq);
		check(fw_cmd_exec(e) == RNIC_CMD_STATUS_OK && rnic_cmd_query_device_get_max_qp(e) == nq - FW_FIRST_QPN,
		      name);
		CMD(RNIC_CMD_OP_ALLOC_PD);
		fw_cmd_exec(e);
		uint32_t pd = rnic_cmd_pd_get_pdn(e);
		CMD(RNIC_CMD_OP_CREATE_CQ);
		rnic_cmd_create_cq_set_log_size(e, 4);
		rnic_cmd_create_cq_set_buf_addr(e, 0x300000000ull);
		rnic_cmd_create_cq_set_dbrec_addr(e, 0x300000000ull - 64);
		fw_cmd_exec(e);
		uint32_t cq = rnic_cmd_create_cq_get_cqn(e), n = 0, q, first = 0, last = 0;
		while ((q = create_qp(pd, cq, RNIC_QP_TYPE_RC)) != 0) {
			if (!first)
				first = q;
			last = q;
			n++;
		}
		snprintf(name, sizeof(name), "fw-qp-count-%u-all-created", nq);
		check(n == nq - FW_FIRST_QPN && first == FW_FIRST_QPN && last == nq - 1, name);
		/* every per-QP array inside NumQps x qpc_entry_bytes of the RAM */
		const uint8_t *lo = mock_qpc, *hi = mock_qpc + (size_t)nq * RNIC_FW_TC_QPC_ENTRY_BYTES;
		int inside = (const uint8_t *)fw_res.qp_ctx >= lo && (const uint8_t *)fw_res.qp_ctx[nq - 1] + RNIC_QP_CTX_SIZE <= hi &&
			     (const uint8_t *)&fw_res.qp_run[nq] <= hi &&
			     (const uint8_t *)fw_res.qp_atomic + (size_t)nq * FW_QPC_ATOMIC_BYTES <= hi &&
			     fw_res.qp_used + nq <= hi && (const uint8_t *)fw_res.qp_run >= (const uint8_t *)fw_res.qp_ctx[nq - 1] + RNIC_QP_CTX_SIZE &&
			     (const uint8_t *)fw_res.qp_atomic >= (const uint8_t *)&fw_res.qp_run[nq] &&
			     fw_res.qp_used >= (const uint8_t *)fw_res.qp_atomic + (size_t)nq * FW_QPC_ATOMIC_BYTES;
		snprintf(name, sizeof(name), "fw-qp-count-%u-state-in-qpc-ram", nq);
		check(inside, name);
	}
	mock_qp_log2 = 7;
}

int main(void)
{
	qp_count_from_hw();
	memset(&fw_res, 0, sizeof(fw_res));
	fw_cmd_init();
	basic_commands();
	memset(&fw_res, 0, sizeof(fw_res)); /* as after a boot: basic_commands used up the PDs */
	fw_cmd_init();
	qp_commands();
	return mock_failed;
}
