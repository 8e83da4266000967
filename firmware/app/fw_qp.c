/* QPs: creation with its resources checked, the IBTA state machine, query, destruction. The
 * context lives in DMEM in the spec's qp_ctx layout. */
#include "fw_log.h"
#include "fw_mbox.h"
#include "fw_res.h"
#include "fw_rq_grant.h"
#include "fw_sq_srt.h"
#include "fw_xport.h"
#include "hal.h"

#define A(x) (1u << RNIC_QP_ATTR_##x)
#define NQS 7u

struct qp_rule {
	uint32_t rc_req, rc_opt, ud_req, ud_opt;
	uint8_t valid_rc, valid_ud;
};

/* rules[cur][next]: required and optional attributes besides STATE (IBTA 11.2.5 / verbs). */
static const struct qp_rule *rule(uint32_t cur, uint32_t next)
{
	static const struct qp_rule none = { 0, 0, 0, 0, 1, 1 };
	static const struct qp_rule reset_init = { A(PKEY_INDEX) | A(PORT) | A(ACCESS_FLAGS), 0,
						   A(PKEY_INDEX) | A(PORT) | A(QKEY), 0, 1, 1 };
	static const struct qp_rule init_init = { 0, A(PKEY_INDEX) | A(PORT) | A(ACCESS_FLAGS), 0,
						  A(PKEY_INDEX) | A(PORT) | A(QKEY), 1, 1 };
	static const struct qp_rule init_rtr = {
		A(AV) | A(PATH_MTU) | A(DEST_QPN) | A(RQ_PSN) | A(MAX_DEST_RD_ATOMIC) | A(MIN_RNR_TIMER),
		A(ALT_PATH) | A(ACCESS_FLAGS) | A(PKEY_INDEX), 0, A(PKEY_INDEX) | A(QKEY), 1, 1 };
	static const struct qp_rule rtr_rts = {
		A(SQ_PSN) | A(TIMEOUT) | A(RETRY_CNT) | A(RNR_RETRY) | A(MAX_QP_RD_ATOMIC),
		A(CUR_STATE) | A(ALT_PATH) | A(ACCESS_FLAGS) | A(MIN_RNR_TIMER) | A(PATH_MIG_STATE), A(SQ_PSN),
		A(CUR_STATE) | A(QKEY), 1, 1 };
	static const struct qp_rule rts_rts = {
		0, A(CUR_STATE) | A(ACCESS_FLAGS) | A(ALT_PATH) | A(PATH_MIG_STATE) | A(MIN_RNR_TIMER), 0,
		A(CUR_STATE) | A(QKEY), 1, 1 };
	static const struct qp_rule rts_sqd = { 0, A(EN_SQD_ASYNC_NOTIFY), 0, A(EN_SQD_ASYNC_NOTIFY), 1, 1 };
	static const struct qp_rule sqd_sqd = {
		0, A(AV) | A(ALT_PATH) | A(ACCESS_FLAGS) | A(PKEY_INDEX) | A(MIN_RNR_TIMER) | A(PATH_MIG_STATE) |
			   A(TIMEOUT) | A(RETRY_CNT) | A(RNR_RETRY) | A(MAX_QP_RD_ATOMIC) | A(MAX_DEST_RD_ATOMIC),
		0, A(PKEY_INDEX) | A(QKEY), 1, 1 };
	static const struct qp_rule sqe_rts = { 0, 0, 0, A(CUR_STATE) | A(QKEY), 0, 1 };

	if (next == RNIC_QP_STATE_RESET || next == RNIC_QP_STATE_ERR)
		return &none;
	switch (cur * NQS + next) {
	case RNIC_QP_STATE_RESET * NQS + RNIC_QP_STATE_INIT: return &reset_init;
	case RNIC_QP_STATE_INIT * NQS + RNIC_QP_STATE_INIT: return &init_init;
	case RNIC_QP_STATE_INIT * NQS + RNIC_QP_STATE_RTR: return &init_rtr;
	case RNIC_QP_STATE_RTR * NQS + RNIC_QP_STATE_RTS: return &rtr_rts;
	case RNIC_QP_STATE_RTS * NQS + RNIC_QP_STATE_RTS: return &rts_rts;
	case RNIC_QP_STATE_RTS * NQS + RNIC_QP_STATE_SQD: return &rts_sqd;
	case RNIC_QP_STATE_SQD * NQS + RNIC_QP_STATE_RTS: return &rts_rts;
	case RNIC_QP_STATE_SQD * NQS + RNIC_QP_STATE_SQD: return &sqd_sqd;
	case RNIC_QP_STATE_SQE * NQS + RNIC_QP_STATE_RTS: return &sqe_rts;
	default: return 0;
	}
}

int fw_qp_transition_ok(uint32_t qp_type, uint32_t cur, uint32_t next, uint32_t mask)
{
	const struct qp_rule *r;
	uint32_t req, opt;

	if (cur >= NQS || next >= NQS)
		return 0;
	r = rule(cur, next);
	if (!r)
		return 0;
	if (qp_type == RNIC_QP_TYPE_UD) {
		if (!r->valid_ud)
			return 0;
		req = r->ud_req, opt = r->ud_opt;
	} else {
		if (!r->valid_rc)
			return 0;
		req = r->rc_req, opt = r->rc_opt;
	}
	mask &= ~A(STATE);
	if (next == RNIC_QP_STATE_RESET || next == RNIC_QP_STATE_ERR)
		opt = ~0u; /* any attribute may accompany a move to RESET or ERR; none is applied */
	return (mask & req) == req && (mask & ~(req | opt)) == 0;
}

static uint8_t *qp_ctx(uint32_t qpn)
{
	if (qpn < FW_FIRST_QPN || qpn >= FW_MAX_QP || !fw_res.qp_used[qpn])
		return 0;
	return fw_res.qp_ctx[qpn];
}

static int cq_ok(uint32_t cqn) { return cqn && cqn < FW_MAX_CQ && fw_res.cqs[cqn].used; }

int fw_pd_in_use(uint32_t pdn)
{
	for (uint32_t q = FW_FIRST_QPN; q < FW_QP_SCAN_END; q++)
		if (fw_res.qp_used[q] && rnic_qp_ctx_get_pdn(fw_res.qp_ctx[q]) == pdn)
			return 1;
	return 0;
}


uint32_t fw_cmd_create_qp(uint8_t *e)
{
	uint32_t type = rnic_cmd_create_qp_get_qp_type(e), uctx = rnic_cmd_create_qp_get_uctx(e);
	uint32_t pdn = rnic_cmd_create_qp_get_pdn(e);
	uint64_t buf = rnic_cmd_create_qp_get_buf_addr(e);
	uint32_t sq_log = rnic_cmd_create_qp_get_sq_log_size(e), rq_log = rnic_cmd_create_qp_get_rq_log_size(e);
	uint32_t rq_stride = rnic_cmd_create_qp_get_rq_log_stride(e);

	if (pdn == 0 || pdn >= FW_MAX_PD || !fw_res.pd_used[pdn] || uctx >= FW_MAX_UCTX ||
	    (uctx && !fw_res.uctx_used[uctx]) || !cq_ok(rnic_cmd_create_qp_get_send_cqn(e)) ||
	    !cq_ok(rnic_cmd_create_qp_get_recv_cqn(e)))
		return RNIC_CMD_STATUS_BAD_HANDLE;
	if ((type != RNIC_QP_TYPE_RC && type != RNIC_QP_TYPE_UD) || sq_log < 1 || sq_log > 15 || rq_log > 15 ||
	    rq_stride < 5 || rq_stride > 10 || buf == 0 || (buf & 63) ||
	    rnic_cmd_create_qp_get_rq_offset(e) < (RNIC_WQEBB_BYTES << sq_log) ||
	    (rnic_cmd_create_qp_get_rq_offset(e) & (RNIC_WQEBB_BYTES - 1)) ||
	    rnic_cmd_create_qp_get_max_inline(e) * 4u > 128u)
		return RNIC_CMD_STATUS_BAD_PARAM;
	if (rnic_cmd_create_qp_get_num_pages(e) != 0) /* page-listed queue buffers: not served yet */
		return RNIC_CMD_STATUS_BAD_PARAM;
	/* the lowest free QPN, found from the hint: no QPN below it is free (1022 creates at 1024
	 * QPs would otherwise walk half a million entries) */
	for (uint32_t q = fw_res.qp_free_hint; q < FW_MAX_QP; q++) {
		if (fw_res.qp_used[q])
			continue;
		fw_res.qp_free_hint = q + 1;
		if (q >= fw_res.qp_hi)
			fw_res.qp_hi = q + 1;
		uint8_t *c = fw_res.qp_ctx[q];
		for (uint32_t i = 0; i < RNIC_QP_CTX_SIZE; i++)
			c[i] = 0;
		fw_res.qp_used[q] = 1;
		fw_atomic_reset(q);
		/* No send WQE outstanding (destroy released them), no timer, no receive buffer: the
		 * whole record, since the QP-context RAM is not cleared at boot beyond qp_used. */
		fw_res.qp_run[q] = (struct fw_qp_run){ .head = -1, .tail = -1 };
		rnic_qp_ctx_set_state(c, RNIC_QP_STATE_RESET);
		rnic_qp_ctx_set_qp_type(c, type);
		rnic_qp_ctx_set_pdn(c, pdn);
		rnic_qp_ctx_set_uctx(c, uctx);
		rnic_qp_ctx_set_send_cqn(c, rnic_cmd_create_qp_get_send_cqn(e));
		rnic_qp_ctx_set_recv_cqn(c, rnic_cmd_create_qp_get_recv_cqn(e));
		rnic_qp_ctx_set_sq_log_size(c, sq_log);
		rnic_qp_ctx_set_rq_log_size(c, rq_log);
		rnic_qp_ctx_set_rq_log_stride(c, rq_stride);
		rnic_qp_ctx_set_buf_addr(c, buf);
		rnic_qp_ctx_set_rq_offset(c, rnic_cmd_create_qp_get_rq_offset(e));
		rnic_qp_ctx_set_max_inline(c, rnic_cmd_create_qp_get_max_inline(e));
		rnic_qp_ctx_set_sq_sig_all(c, rnic_cmd_create_qp_get_sq_sig_all(e) ? 1 : 0);
		rnic_qp_ctx_set_path_mtu(c, 5);
		rnic_cmd_create_qp_set_qpn(e, q);
		return RNIC_CMD_STATUS_OK;
	}
	return RNIC_CMD_STATUS_NO_RESOURCES;
}

/* Range checks of the attribute values the mask selects. */
static int attrs_valid(const uint8_t *e, uint32_t mask)
{
	if ((mask & A(PATH_MTU)) && (rnic_cmd_modify_qp_get_path_mtu(e) < 1 || rnic_cmd_modify_qp_get_path_mtu(e) > 5))
		return 0;
	if ((mask & A(TIMEOUT)) && rnic_cmd_modify_qp_get_timeout(e) > 31)
		return 0;
	if ((mask & A(RETRY_CNT)) && rnic_cmd_modify_qp_get_retry_cnt(e) > 7)
		return 0;
	if ((mask & A(RNR_RETRY)) && rnic_cmd_modify_qp_get_rnr_retry(e) > 7)
		return 0;
	if ((mask & A(MIN_RNR_TIMER)) && rnic_cmd_modify_qp_get_min_rnr_timer(e) > 31)
		return 0;
	if ((mask & A(ACCESS_FLAGS)) && (rnic_cmd_modify_qp_get_access(e) & ~0xFu))
		return 0;
	if ((mask & A(DEST_QPN)) && rnic_cmd_modify_qp_get_dest_qpn(e) > 0xFFFFFFu)
		return 0;
	if ((mask & A(RQ_PSN)) && rnic_cmd_modify_qp_get_rq_psn(e) > 0xFFFFFFu)
		return 0;
	if ((mask & A(SQ_PSN)) && rnic_cmd_modify_qp_get_sq_psn(e) > 0xFFFFFFu)
		return 0;
	if ((mask & A(MAX_QP_RD_ATOMIC)) && rnic_cmd_modify_qp_get_max_rd_atomic(e) > RNIC_MAX_RD_ATOMIC)
		return 0;
	if ((mask & A(MAX_DEST_RD_ATOMIC)) && rnic_cmd_modify_qp_get_max_dest_rd_atomic(e) > RNIC_MAX_RD_ATOMIC)
		return 0;
	if ((mask & A(AV)) && ((rnic_cmd_modify_qp_get_dmac(e) >> 48) || rnic_cmd_modify_qp_get_sgid_index(e) >= FW_NUM_GIDS ||
			       !fw_res.gids[rnic_cmd_modify_qp_get_sgid_index(e)].valid))
		return 0;
	/* PKEY_INDEX and PORT need no check: one port, one P_Key (0xFFFF) that every index names. */
	return 1;
}

/* The fast-path QP-table entry the RTL works from, built from the context (spec qpt_entry). */
void fw_qpt_build(uint32_t qpn, uint8_t *t)
{
	const uint8_t *c = fw_res.qp_ctx[qpn];
	uint32_t st = rnic_qp_ctx_get_state(c);

	for (uint32_t i = 0; i < RNIC_QPT_ENTRY_SIZE; i++)
		t[i] = 0;
	rnic_qpt_entry_set_valid(t, 1);
	rnic_qpt_entry_set_rx_enable(t, st == RNIC_QP_STATE_RTR || st == RNIC_QP_STATE_RTS || st == RNIC_QP_STATE_SQD);
	rnic_qpt_entry_set_tx_enable(t, st == RNIC_QP_STATE_RTS);
	rnic_qpt_entry_set_qp_type(t, rnic_qp_ctx_get_qp_type(c));
	rnic_qpt_entry_set_pmtu_log2(t, rnic_qp_ctx_get_path_mtu(c) + 7);
	rnic_qpt_entry_set_access(t, rnic_qp_ctx_get_access(c));
	rnic_qpt_entry_set_pdn(t, rnic_qp_ctx_get_pdn(c));
	rnic_qpt_entry_set_dest_qpn(t, rnic_qp_ctx_get_dest_qpn(c));
	rnic_qpt_entry_set_epsn(t, rnic_qp_ctx_get_rq_psn(c));
	rnic_qpt_entry_set_dmac(t, rnic_qp_ctx_get_dmac(c));
	rnic_qpt_entry_set_smac(t, rnic_qp_ctx_get_smac(c));
	rnic_qpt_entry_set_dest_ipv4(t, rnic_qp_ctx_get_dest_ipv4(c));
	rnic_qpt_entry_set_src_ipv4(t, rnic_qp_ctx_get_src_ipv4(c));
	rnic_qpt_entry_set_udp_sport(t, rnic_qp_ctx_get_udp_sport(c));
	rnic_qpt_entry_set_ttl(t, rnic_qp_ctx_get_hop_limit(c) ? rnic_qp_ctx_get_hop_limit(c) : 64);
	rnic_qpt_entry_set_tos(t, rnic_qp_ctx_get_traffic_class(c));
	rnic_qpt_entry_set_qkey(t, rnic_qp_ctx_get_qkey(c));
	rnic_qpt_entry_set_ack_coalesce(t, 16);
	rnic_qpt_entry_set_min_rnr_timer(t, rnic_qp_ctx_get_min_rnr_timer(c));
	rnic_qpt_entry_set_max_dest_rd_atomic(t, rnic_qp_ctx_get_max_dest_rd_atomic(c));
}

/* Hands the entry to the RTL when the transport engines are there; 0 or -1. keep: a modify
 * of a live QP, which replaces only the configured fields (spec qpt_cmd.keep_state) so the
 * responder's expected PSN, MSN and posted receive buffers carry on. */
static int qpt_send(uint32_t qpn, uint32_t keep)
{
	FW_LAYOUT_ALIGN uint8_t t[RNIC_QPT_ENTRY_SIZE];
	FW_LAYOUT_ALIGN uint8_t cmd[RNIC_QPT_CMD_SIZE] = {0};

	if (!rnic_hw_caps_v_engines(fw_hw_caps))
		return 0; /* no engines attached: nothing to program */
	fw_qpt_build(qpn, t);
	if (rnic_qp_ctx_get_state(fw_res.qp_ctx[qpn]) == RNIC_QP_STATE_RESET)
		rnic_qpt_entry_set_valid(t, 0);
	rnic_qpt_cmd_set_qpn(cmd, qpn);
	rnic_qpt_cmd_set_keep_state(cmd, keep);
	if (!keep)
		fw_rqg_take(qpn); /* the entry write empties the slots: the engine feeds none meanwhile */
	if (fw_mbox_send(RNIC_FW_REG_QPT_DATA, RNIC_FW_REG_QPT_COMMIT, RNIC_FW_REG_QPT_STATUS, t,
			 RNIC_QPT_ENTRY_SIZE / 4, rnic_ld_le32(cmd)))
		return -1;
	fw_sq_ring_program(qpn); /* doorbell-started fetches while in RTS */
	fw_rq_ring_program(qpn); /* rq_db-started fetches while the RQ is live */
	if (keep)
		return 0;
	/* An entry write empties the engine's receive-buffer slots: hand the posted WQEs over
	 * again (receives are usually posted in INIT, before the move to RTR). */
	fw_res.qp_run[qpn].rq_posted = 0;
	uint32_t st = rnic_qp_ctx_get_state(fw_res.qp_ctx[qpn]);
	if (st == RNIC_QP_STATE_INIT || st == RNIC_QP_STATE_RTR || st == RNIC_QP_STATE_RTS ||
	    st == RNIC_QP_STATE_SQD)
		fw_rq_service(qpn);
	return 0;
}

int fw_qpt_program(uint32_t qpn)
{
	return qpt_send(qpn, 0);
}

/* RTR, RTS and SQD: the RTL's entry holds live responder state. */
static int qp_live(uint32_t st)
{
	return st == RNIC_QP_STATE_RTR || st == RNIC_QP_STATE_RTS || st == RNIC_QP_STATE_SQD;
}

uint32_t fw_cmd_modify_qp(uint8_t *e)
{
	uint8_t *c = qp_ctx(rnic_cmd_modify_qp_get_qpn(e));
	uint32_t mask = rnic_cmd_modify_qp_get_attr_mask(e);

	if (!c)
		return RNIC_CMD_STATUS_BAD_HANDLE;
	uint32_t cur = rnic_qp_ctx_get_state(c);
	uint32_t next = (mask & A(STATE)) ? rnic_cmd_modify_qp_get_state(e) : cur;
	if ((mask & A(CUR_STATE)) && rnic_cmd_modify_qp_get_cur_state(e) != cur)
		return RNIC_CMD_STATUS_BAD_STATE;
	if (!fw_qp_transition_ok(rnic_qp_ctx_get_qp_type(c), cur, next, mask))
		return next >= NQS ? RNIC_CMD_STATUS_BAD_PARAM : RNIC_CMD_STATUS_BAD_STATE;
	if (next != RNIC_QP_STATE_RESET && next != RNIC_QP_STATE_ERR && !attrs_valid(e, mask))
		return RNIC_CMD_STATUS_BAD_PARAM;

	if (next == RNIC_QP_STATE_RESET) {
		/* Back to the state creation left: queues empty, PSNs and path forgotten. */
		fw_sq_release(rnic_cmd_modify_qp_get_qpn(e));
		fw_rq_release(rnic_cmd_modify_qp_get_qpn(e));
		rnic_qp_ctx_set_sq_pi(c, 0), rnic_qp_ctx_set_sq_ci(c, 0), rnic_qp_ctx_set_sq_next(c, 0);
		rnic_qp_ctx_set_rq_pi(c, 0), rnic_qp_ctx_set_rq_ci(c, 0);
	} else if (next != RNIC_QP_STATE_ERR) {
		if (mask & A(ACCESS_FLAGS))
			rnic_qp_ctx_set_access(c, rnic_cmd_modify_qp_get_access(e));
		if (mask & A(QKEY))
			rnic_qp_ctx_set_qkey(c, rnic_cmd_modify_qp_get_qkey(e));
		if (mask & A(PATH_MTU))
			rnic_qp_ctx_set_path_mtu(c, rnic_cmd_modify_qp_get_path_mtu(e));
		if (mask & A(DEST_QPN))
			rnic_qp_ctx_set_dest_qpn(c, rnic_cmd_modify_qp_get_dest_qpn(e));
		if (mask & A(RQ_PSN))
			rnic_qp_ctx_set_rq_psn(c, rnic_cmd_modify_qp_get_rq_psn(e));
		if (mask & A(SQ_PSN)) {
			rnic_qp_ctx_set_sq_psn(c, rnic_cmd_modify_qp_get_sq_psn(e));
			rnic_qp_ctx_set_sq_una_psn(c, rnic_cmd_modify_qp_get_sq_psn(e));
		}
		if (mask & A(TIMEOUT))
			rnic_qp_ctx_set_timeout(c, rnic_cmd_modify_qp_get_timeout(e));
		if (mask & A(RETRY_CNT))
			rnic_qp_ctx_set_retry_cnt(c, rnic_cmd_modify_qp_get_retry_cnt(e));
		if (mask & A(RNR_RETRY))
			rnic_qp_ctx_set_rnr_retry(c, rnic_cmd_modify_qp_get_rnr_retry(e));
		if (mask & A(MIN_RNR_TIMER))
			rnic_qp_ctx_set_min_rnr_timer(c, rnic_cmd_modify_qp_get_min_rnr_timer(e));
		if (mask & A(MAX_QP_RD_ATOMIC))
			rnic_qp_ctx_set_max_rd_atomic(c, rnic_cmd_modify_qp_get_max_rd_atomic(e));
		if (mask & A(MAX_DEST_RD_ATOMIC))
			rnic_qp_ctx_set_max_dest_rd_atomic(c, rnic_cmd_modify_qp_get_max_dest_rd_atomic(e));
		if (mask & A(AV)) {
			const struct fw_gid *g = &fw_res.gids[rnic_cmd_modify_qp_get_sgid_index(e)];
			uint32_t lqpn = rnic_cmd_modify_qp_get_qpn(e), rqpn = rnic_qp_ctx_get_dest_qpn(c);
			if (mask & A(DEST_QPN))
				rqpn = rnic_cmd_modify_qp_get_dest_qpn(e);
			rnic_qp_ctx_set_dmac(c, rnic_cmd_modify_qp_get_dmac(e));
			rnic_qp_ctx_set_dest_ipv4(c, rnic_cmd_modify_qp_get_dest_ipv4(e));
			rnic_qp_ctx_set_src_ipv4(c, g->ipv4);
			rnic_qp_ctx_set_smac(c, g->mac);
			rnic_qp_ctx_set_hop_limit(c, rnic_cmd_modify_qp_get_hop_limit(e));
			rnic_qp_ctx_set_traffic_class(c, rnic_cmd_modify_qp_get_traffic_class(e));
			/* Source-port entropy from the QPN pair (the Linux flow-label convention). */
			uint64_t v = (uint64_t)lqpn * rqpn;
			v ^= v >> 20;
			v ^= v >> 40;
			uint32_t fl = (uint32_t)v & 0xFFFFFu;
			uint32_t low = (fl & 0x3FFFu) ^ ((fl & 0xFC000u) >> 14);
			rnic_qp_ctx_set_udp_sport(c, 0xC000u | low);
		}
		if (rnic_qp_ctx_get_qp_type(c) == RNIC_QP_TYPE_UD && fw_res.gids[0].valid) {
			/* UD has no path: datagrams leave from the port's address (GID 0), their
			 * destination comes with each WQE's address handle. */
			rnic_qp_ctx_set_src_ipv4(c, fw_res.gids[0].ipv4);
			rnic_qp_ctx_set_smac(c, fw_res.gids[0].mac);
			rnic_qp_ctx_set_udp_sport(c, 0xC000u | (rnic_cmd_modify_qp_get_qpn(e) & 0x3FFFu));
		}
	}
	rnic_qp_ctx_set_state(c, next);
	rnic_qp_ctx_set_retries_left(c, rnic_qp_ctx_get_retry_cnt(c));
	rnic_qp_ctx_set_rnr_retries_left(c, rnic_qp_ctx_get_rnr_retry(c));
	/* Between live states (RTR->RTS, RTS->RTS, RTS<->SQD, SQD->SQD) the entry is rewritten in
	 * place: a new access mask or RNR timer applies to the next request, the PSN sequence
	 * goes on. Out of RESET/INIT, or to RESET/ERR, the entry starts over. */
	int qrc = 0;
	if (qp_live(cur) && qp_live(next))
		qrc = qpt_send(rnic_cmd_modify_qp_get_qpn(e), 1);
	else if (next != cur)
		qrc = fw_qpt_program(rnic_cmd_modify_qp_get_qpn(e));
	if (qrc) {
		fw_log("qp %u: QP table did not take the entry", (unsigned)rnic_cmd_modify_qp_get_qpn(e));
		return RNIC_CMD_STATUS_INTERNAL;
	}
	if (cur == RNIC_QP_STATE_RTR && next == RNIC_QP_STATE_RTS && srt_ctx(c))
		srt_qp_start(rnic_cmd_modify_qp_get_qpn(e), rnic_qp_ctx_get_sq_psn(c));
	if (next == RNIC_QP_STATE_ERR && cur != RNIC_QP_STATE_ERR)
		fw_qp_to_err(rnic_cmd_modify_qp_get_qpn(e)); /* the host's move to ERR flushes too */
	return RNIC_CMD_STATUS_OK;
}

uint32_t fw_cmd_query_qp(uint8_t *e)
{
	uint32_t qpn = rnic_cmd_modify_qp_get_qpn(e);
	const uint8_t *c = qp_ctx(qpn);

	if (!c)
		return RNIC_CMD_STATUS_BAD_HANDLE;
	for (uint32_t i = 8; i < RNIC_CMD_ENTRY_SIZE; i++)
		e[i] = 0;
	rnic_cmd_modify_qp_set_qpn(e, qpn);
	rnic_cmd_modify_qp_set_state(e, rnic_qp_ctx_get_state(c));
	rnic_cmd_modify_qp_set_cur_state(e, rnic_qp_ctx_get_state(c));
	rnic_cmd_modify_qp_set_path_mtu(e, rnic_qp_ctx_get_path_mtu(c));
	rnic_cmd_modify_qp_set_timeout(e, rnic_qp_ctx_get_timeout(c));
	rnic_cmd_modify_qp_set_retry_cnt(e, rnic_qp_ctx_get_retry_cnt(c));
	rnic_cmd_modify_qp_set_rnr_retry(e, rnic_qp_ctx_get_rnr_retry(c));
	rnic_cmd_modify_qp_set_min_rnr_timer(e, rnic_qp_ctx_get_min_rnr_timer(c));
	rnic_cmd_modify_qp_set_access(e, rnic_qp_ctx_get_access(c));
	rnic_cmd_modify_qp_set_dest_qpn(e, rnic_qp_ctx_get_dest_qpn(c));
	rnic_cmd_modify_qp_set_rq_psn(e, rnic_qp_ctx_get_rq_psn(c));
	rnic_cmd_modify_qp_set_sq_psn(e, rnic_qp_ctx_get_sq_psn(c));
	rnic_cmd_modify_qp_set_qkey(e, rnic_qp_ctx_get_qkey(c));
	rnic_cmd_modify_qp_set_max_rd_atomic(e, rnic_qp_ctx_get_max_rd_atomic(c));
	rnic_cmd_modify_qp_set_max_dest_rd_atomic(e, rnic_qp_ctx_get_max_dest_rd_atomic(c));
	rnic_cmd_modify_qp_set_hop_limit(e, rnic_qp_ctx_get_hop_limit(c));
	rnic_cmd_modify_qp_set_traffic_class(e, rnic_qp_ctx_get_traffic_class(c));
	rnic_cmd_modify_qp_set_dmac(e, rnic_qp_ctx_get_dmac(c));
	rnic_cmd_modify_qp_set_dest_ipv4(e, rnic_qp_ctx_get_dest_ipv4(c));
	return RNIC_CMD_STATUS_OK;
}

uint32_t fw_cmd_destroy_qp(uint8_t *e)
{
	uint32_t qpn = rnic_cmd_destroy_get_handle(e);

	if (!qp_ctx(qpn))
		return RNIC_CMD_STATUS_BAD_HANDLE;
	rnic_qp_ctx_set_state(fw_res.qp_ctx[qpn], RNIC_QP_STATE_RESET);
	fw_sq_release(qpn);
	fw_rq_release(qpn);
	fw_qpt_program(qpn); /* invalidates the RTL's entry */
	fw_res.qp_used[qpn] = 0;
	if (qpn < fw_res.qp_free_hint)
		fw_res.qp_free_hint = qpn;
	return RNIC_CMD_STATUS_OK;
}
