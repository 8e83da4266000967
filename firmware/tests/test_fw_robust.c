/* Host unit tests of the firmware's robustness against its host (MOCK_MMIO build): resource
 * lifetimes that must refuse (BUSY), REG_MR bounds, the QUERY_RESOURCES report, and the command
 * handler fed random opcodes and random parameters (seeded): every command answers with a
 * defined status, the tables stay consistent, and freeing everything returns every count to 0.
 * Usage: test_fw_robust [--seed S] [--count N] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fw_cmd.h"
#include "fw_res.h"
#include "fw_xport.h"
#include "../app/fw_sq_srt.h"
#include "hal.h"
#include "mock_mmio.h"

#define A(x) (1u << RNIC_QP_ATTR_##x)

static uint8_t e[RNIC_CMD_ENTRY_SIZE];
#define CMD(op) (memset(e, 0, sizeof(e)), rnic_cmd_entry_set_opcode(e, (op)))

static void boot(void)
{
	/* the command paths with RC QPs on the send-retirement engine (DROP, INIT, enable at RTS;
	 * disable, DROP at RESET/DESTROY; FLUSH at ERR), the mock's model behind them */
	fw_srt_off = 0;
	mock_srt_reset();
	memset(&fw_res, 0, sizeof(fw_res));
	fw_cmd_init();
	fw_xport_init();
}

static uint32_t alloc(uint32_t op)
{
	CMD(op);
	if (fw_cmd_exec(e) != RNIC_CMD_STATUS_OK)
		return 0;
	return op == RNIC_CMD_OP_ALLOC_UCTX ? rnic_cmd_uctx_get_uctx(e) : rnic_cmd_pd_get_pdn(e);
}

static uint32_t destroy(uint32_t op, uint32_t h)
{
	CMD(op);
	if (op == RNIC_CMD_OP_DEALLOC_PD)
		rnic_cmd_pd_set_pdn(e, h);
	else if (op == RNIC_CMD_OP_DEALLOC_UCTX)
		rnic_cmd_uctx_set_uctx(e, h);
	else if (op == RNIC_CMD_OP_DEREG_MR)
		rnic_cmd_dereg_mr_set_lkey(e, h);
	else
		rnic_cmd_destroy_set_handle(e, h);
	return fw_cmd_exec(e);
}

static uint32_t create_cq(uint32_t uctx)
{
	CMD(RNIC_CMD_OP_CREATE_CQ);
	rnic_cmd_create_cq_set_uctx(e, uctx);
	rnic_cmd_create_cq_set_log_size(e, 4);
	rnic_cmd_create_cq_set_buf_addr(e, MOCK_HOST_BASE + 0x10000);
	rnic_cmd_create_cq_set_dbrec_addr(e, MOCK_HOST_BASE + 0xFC0);
	return fw_cmd_exec(e) == RNIC_CMD_STATUS_OK ? rnic_cmd_create_cq_get_cqn(e) : 0;
}

static uint32_t create_qp(uint32_t pd, uint32_t cq, uint32_t uctx)
{
	CMD(RNIC_CMD_OP_CREATE_QP);
	rnic_cmd_create_qp_set_uctx(e, uctx);
	rnic_cmd_create_qp_set_pdn(e, pd);
	rnic_cmd_create_qp_set_send_cqn(e, cq);
	rnic_cmd_create_qp_set_recv_cqn(e, cq);
	rnic_cmd_create_qp_set_qp_type(e, RNIC_QP_TYPE_RC);
	rnic_cmd_create_qp_set_sq_log_size(e, 4);
	rnic_cmd_create_qp_set_rq_log_size(e, 4);
	rnic_cmd_create_qp_set_rq_log_stride(e, 6);
	rnic_cmd_create_qp_set_buf_addr(e, MOCK_HOST_BASE + 0x20000);
	rnic_cmd_create_qp_set_rq_offset(e, 64u << 4);
	return fw_cmd_exec(e) == RNIC_CMD_STATUS_OK ? rnic_cmd_create_qp_get_qpn(e) : 0;
}

static uint32_t create_ah(uint32_t pd)
{
	CMD(RNIC_CMD_OP_CREATE_AH);
	rnic_cmd_create_ah_set_pdn(e, pd);
	rnic_cmd_create_ah_set_dmac(e, 0x020000000022ull);
	return fw_cmd_exec(e) == RNIC_CMD_STATUS_OK ? rnic_cmd_create_ah_get_ahn(e) : 0;
}

/* A page list of n valid 4 KiB pages at mock host offset 0x40000. */
#define MTT_AT (MOCK_HOST_BASE + 0x40000)
static void page_list(uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		rnic_st_le(mock_host + 0x40000 + 8 * i, 8, (MOCK_HOST_BASE + 0x80000 + 4096ull * i) | 1);
}

static uint32_t reg_mr(uint32_t pd, uint64_t iova, uint64_t len, uint32_t fpo, uint32_t n, uint32_t *key)
{
	CMD(RNIC_CMD_OP_REG_MR);
	rnic_cmd_reg_mr_set_pdn(e, pd);
	rnic_cmd_reg_mr_set_access(e, 1u << RNIC_ACCESS_LOCAL_WRITE);
	rnic_cmd_reg_mr_set_page_shift(e, 12);
	rnic_cmd_reg_mr_set_iova(e, iova);
	rnic_cmd_reg_mr_set_length(e, len);
	rnic_cmd_reg_mr_set_first_page_offset(e, fpo);
	rnic_cmd_reg_mr_set_num_pages(e, n);
	rnic_cmd_reg_mr_set_mtt_table_addr(e, MTT_AT);
	uint32_t st = fw_cmd_exec(e);
	if (key)
		*key = rnic_cmd_reg_mr_get_lkey(e);
	return st;
}

struct res {
	uint32_t pds, uctxs, cqs, qps, mrs, ahs, mtt, swqe_free, swqe_total, rd;
};

static struct res query(void)
{
	struct res r;
	CMD(RNIC_CMD_OP_QUERY_RESOURCES);
	uint32_t st = fw_cmd_exec(e);
	r.pds = rnic_cmd_query_resources_get_pds(e);
	r.uctxs = rnic_cmd_query_resources_get_uctxs(e);
	r.cqs = rnic_cmd_query_resources_get_cqs(e);
	r.qps = rnic_cmd_query_resources_get_qps(e);
	r.mrs = rnic_cmd_query_resources_get_mrs(e);
	r.ahs = rnic_cmd_query_resources_get_ahs(e);
	r.mtt = rnic_cmd_query_resources_get_mtt_entries(e);
	r.swqe_free = rnic_cmd_query_resources_get_swqe_free(e);
	r.swqe_total = rnic_cmd_query_resources_get_swqe_total(e);
	r.rd = rnic_cmd_query_resources_get_rd_outstanding(e);
	if (st != RNIC_CMD_STATUS_OK)
		r.swqe_total = 0xDEAD;
	return r;
}

static int res_empty(struct res r)
{
	return r.pds == 0 && r.uctxs == 0 && r.cqs == 0 && r.qps == 0 && r.mrs == 0 && r.ahs == 0 && r.mtt == 0 &&
	       r.swqe_free == FW_MAX_SWQE && r.swqe_total == FW_MAX_SWQE && r.rd == 0;
}

static void lifetimes(void)
{
	boot();
	check(res_empty(query()), "fw-res-query-after-boot-empty");
	uint32_t u = alloc(RNIC_CMD_OP_ALLOC_UCTX), pd = alloc(RNIC_CMD_OP_ALLOC_PD);
	uint32_t cq = create_cq(u), qp = create_qp(pd, cq, u);
	CMD(RNIC_CMD_OP_SET_GID);
	rnic_cmd_set_gid_set_mac(e, 0x020000000011ull);
	fw_cmd_exec(e);
	uint32_t ah = create_ah(pd), key = 0;
	page_list(3);
	uint32_t mr_st = reg_mr(pd, 0x1000, 3 * 4096 - 100, 100, 3, &key);
	struct res r = query();
	check(u && pd && cq && qp && ah && mr_st == RNIC_CMD_STATUS_OK && r.uctxs == 1 && r.pds == 1 && r.cqs == 1 &&
		      r.qps == 1 && r.ahs == 1 && r.mrs == 1 && r.mtt == 3 && r.swqe_free == FW_MAX_SWQE,
	      "fw-res-query-counts-each-table");

	/* A user context still owning a CQ or a QP is not freed: it would be handed out again
	 * with a live QP's doorbell page (was: freed, OK). */
	check(destroy(RNIC_CMD_OP_DEALLOC_UCTX, u) == RNIC_CMD_STATUS_BUSY, "fw-uctx-with-qp-busy");
	check(destroy(RNIC_CMD_OP_DESTROY_QP, qp) == RNIC_CMD_STATUS_OK &&
		      destroy(RNIC_CMD_OP_DEALLOC_UCTX, u) == RNIC_CMD_STATUS_BUSY,
	      "fw-uctx-with-cq-busy");
	/* A PD with an address handle is not freed (was: freed, the AH left in a dead PD). */
	check(destroy(RNIC_CMD_OP_DESTROY_CQ, cq) == RNIC_CMD_STATUS_OK &&
		      destroy(RNIC_CMD_OP_DEALLOC_UCTX, u) == RNIC_CMD_STATUS_OK,
	      "fw-uctx-free-after-its-objects");
	check(destroy(RNIC_CMD_OP_DEREG_MR, key) == RNIC_CMD_STATUS_OK &&
		      destroy(RNIC_CMD_OP_DEALLOC_PD, pd) == RNIC_CMD_STATUS_BUSY,
	      "fw-pd-with-ah-busy");
	check(destroy(RNIC_CMD_OP_DESTROY_AH, ah) == RNIC_CMD_STATUS_OK &&
		      destroy(RNIC_CMD_OP_DEALLOC_PD, pd) == RNIC_CMD_STATUS_OK && res_empty(query()),
	      "fw-res-all-freed-counts-back");

	/* REG_MR: a length beyond max_mr_size (2^40) is refused; near 2^64 the page count wraps
	 * and one page stood for the whole length (was: accepted with num_pages 1). */
	pd = alloc(RNIC_CMD_OP_ALLOC_PD);
	page_list(1);
	check(reg_mr(pd, 0, ~0ull, 4095, 1, 0) == RNIC_CMD_STATUS_BAD_PARAM, "fw-mr-length-wrap-refused");
	check(reg_mr(pd, 0, (1ull << 40) + 1, 0, 1, 0) == RNIC_CMD_STATUS_BAD_PARAM, "fw-mr-length-over-max-refused");
	check(reg_mr(pd, 0, 4096, 0, 2, 0) == RNIC_CMD_STATUS_BAD_PARAM, "fw-mr-page-count-mismatch-refused");
	check(reg_mr(pd, ~0ull - 10, 4096, 0, 1, 0) == RNIC_CMD_STATUS_BAD_PARAM, "fw-mr-iova-wrap-refused");
	rnic_st_le(mock_host + 0x40000, 8, MOCK_HOST_BASE + 0x80000); /* valid bit clear */
	check(reg_mr(pd, 0, 4096, 0, 1, 0) == RNIC_CMD_STATUS_BAD_PARAM && query().mrs == 0,
	      "fw-mr-invalid-page-refused");
	page_list(1);
	check(reg_mr(pd, 0, 4096, 0, 1, &key) == RNIC_CMD_STATUS_OK && query().mtt == 1 &&
		      destroy(RNIC_CMD_OP_DEREG_MR, key) == RNIC_CMD_STATUS_OK &&
		      destroy(RNIC_CMD_OP_DEREG_MR, key) == RNIC_CMD_STATUS_BAD_HANDLE,
	      "fw-mr-reg-dereg-twice");
	destroy(RNIC_CMD_OP_DEALLOC_PD, pd);
	check(res_empty(query()), "fw-res-empty-after-mr-cases");
}

/* A WQE in the host's SQ ring that lies about its inline data: INLINE with inline_len 65535 in
 * a 2-WQEBB WQE on a 2-WQEBB ring. The firmware split inline data at the ring end into one
 * SGE per ring pass with no bound, so this wrote ~500 SGEs past its 128-byte descriptor on the
 * stack (any user process can post it to its own QP). Now it is a malformed WQE: nothing sent,
 * the firmware goes on, and a good WQE on another QP still goes out. */
static uint32_t rts_qp(uint32_t pd, uint32_t cq, uint64_t ring, uint32_t sq_log)
{
	CMD(RNIC_CMD_OP_CREATE_QP);
	rnic_cmd_create_qp_set_pdn(e, pd);
	rnic_cmd_create_qp_set_send_cqn(e, cq);
	rnic_cmd_create_qp_set_recv_cqn(e, cq);
	rnic_cmd_create_qp_set_qp_type(e, RNIC_QP_TYPE_RC);
	rnic_cmd_create_qp_set_sq_log_size(e, sq_log);
	rnic_cmd_create_qp_set_rq_log_size(e, 1);
	rnic_cmd_create_qp_set_rq_log_stride(e, 6);
	rnic_cmd_create_qp_set_buf_addr(e, ring);
	rnic_cmd_create_qp_set_rq_offset(e, 64u << sq_log);
	rnic_cmd_create_qp_set_max_inline(e, 128 / 4);
	if (fw_cmd_exec(e) != RNIC_CMD_STATUS_OK)
		return 0;
	uint32_t q = rnic_cmd_create_qp_get_qpn(e);
	static const uint32_t steps[3][2] = {
		{ RNIC_QP_STATE_INIT, A(PKEY_INDEX) | A(PORT) | A(ACCESS_FLAGS) },
		{ RNIC_QP_STATE_RTR, A(AV) | A(PATH_MTU) | A(DEST_QPN) | A(RQ_PSN) | A(MAX_DEST_RD_ATOMIC) | A(MIN_RNR_TIMER) },
		{ RNIC_QP_STATE_RTS, A(SQ_PSN) | A(TIMEOUT) | A(RETRY_CNT) | A(RNR_RETRY) | A(MAX_QP_RD_ATOMIC) },
	};
	for (int i = 0; i < 3; i++) {
		CMD(RNIC_CMD_OP_MODIFY_QP);
		rnic_cmd_modify_qp_set_qpn(e, q);
		rnic_cmd_modify_qp_set_attr_mask(e, steps[i][1] | A(STATE));
		rnic_cmd_modify_qp_set_state(e, steps[i][0]);
		rnic_cmd_modify_qp_set_path_mtu(e, 3);
		rnic_cmd_modify_qp_set_dest_qpn(e, 0x33);
		rnic_cmd_modify_qp_set_retry_cnt(e, 7);
		rnic_cmd_modify_qp_set_timeout(e, 14);
		rnic_cmd_modify_qp_set_rnr_retry(e, 7);
		rnic_cmd_modify_qp_set_access(e, 7);
		if (fw_cmd_exec(e) != RNIC_CMD_STATUS_OK)
			return 0;
	}
	return q;
}

static void put_wqe(uint64_t ring, uint32_t idx, uint32_t op, uint32_t flags, uint32_t num_ds, uint32_t inline_len,
		    uint32_t total_len)
{
	uint8_t *w = mock_host + (ring - MOCK_HOST_BASE) + 64u * idx;
	memset(w, 0, 64);
	rnic_wqe_ctrl_set_wr_id(w, 0x1000 + idx);
	rnic_wqe_ctrl_set_opcode(w, op);
	rnic_wqe_ctrl_set_flags(w, flags);
	rnic_wqe_ctrl_set_wqe_index(w, idx);
	rnic_wqe_ctrl_set_num_ds(w, num_ds);
	rnic_wqe_ctrl_set_inline_len(w, inline_len);
	rnic_wqe_ctrl_set_total_len(w, total_len);
}

static void sq_doorbell(uint32_t q, uint32_t pi)
{
	uint8_t ev[4] = { 0 }, v[4] = { 0 };
	rnic_db_event_set_page(ev, 0);
	rnic_db_event_set_which(ev, RNIC_DB_SQ_DB / 4);
	rnic_db_word_set_num(v, q);
	rnic_db_word_set_index(v, pi);
	fw_doorbell((uint32_t)rnic_ld_le(ev, 4), (uint32_t)rnic_ld_le(v, 4));
}

static void hostile_wqes(void)
{
	regs[RNIC_FW_REG_HW_CAPS / 4] = 1; /* a transmit engine attached (other registers kept: the
					       * firmware's DMA code caches what it wrote there) */
	boot();
	memset(mock_host, 0, sizeof(mock_host));
	CMD(RNIC_CMD_OP_SET_GID);
	rnic_cmd_set_gid_set_mac(e, 0x020000000011ull);
	fw_cmd_exec(e);
	uint32_t pd = alloc(RNIC_CMD_OP_ALLOC_PD), cq = create_cq(0);
	uint64_t ring_a = MOCK_HOST_BASE + 0x60000, ring_b = MOCK_HOST_BASE + 0x62000;
	uint32_t qa = rts_qp(pd, cq, ring_a, 1), qb = rts_qp(pd, cq, ring_b, 4);
	unsigned m0 = mock_nmbox;
	put_wqe(ring_a, 0, RNIC_WQE_OP_SEND, 1u << RNIC_WQE_FLAG_INLINE | 1u << RNIC_WQE_FLAG_SIGNALED, 2, 65535, 65535);
	sq_doorbell(qa, 2);
	check(qa && mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == 0 && query().swqe_free == FW_MAX_SWQE,
	      "fw-sq-inline-longer-than-wqe-not-sent");
	/* inline data that does fit, wrapping at the ring end: two SGEs, as before */
	put_wqe(ring_b, 15, RNIC_WQE_OP_SEND, 1u << RNIC_WQE_FLAG_INLINE | 1u << RNIC_WQE_FLAG_SIGNALED, 3, 40, 40);
	/* qb's SQ at index 15, as if 15 WQEs had gone before */
	rnic_qp_ctx_set_sq_next(fw_res.qp_ctx[qb], 15);
	rnic_qp_ctx_set_sq_ci(fw_res.qp_ctx[qb], 15);
	sq_doorbell(qb, 16 + 1);
	const struct mock_mbox_rec *t = mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m0, 0);
	check(qb && mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == 1 && t && rnic_tx_desc_get_qpn(t->data) == qb &&
		      rnic_tx_desc_get_num_sge(t->data) == 2 && rnic_tx_desc_get_sge0_len(t->data) == 32 &&
		      rnic_tx_desc_get_sge1_len(t->data) == 8,
	      "fw-sq-inline-wrapping-at-ring-end-two-sges");
}

/* A UD WQE naming an address handle of another PD (another user's AH) gets no destination
 * from it (was: the other PD's destination MAC and IPv4, against the verbs rule that AH and QP
 * share a PD); its own PD's AH still addresses the datagram. */
static void ud_foreign_ah(void)
{
	boot();
	memset(mock_host, 0, sizeof(mock_host));
	CMD(RNIC_CMD_OP_SET_GID);
	rnic_cmd_set_gid_set_mac(e, 0x020000000011ull);
	fw_cmd_exec(e);
	uint32_t pd1 = alloc(RNIC_CMD_OP_ALLOC_PD), pd2 = alloc(RNIC_CMD_OP_ALLOC_PD), cq = create_cq(0);
	uint32_t own = create_ah(pd1), foreign = create_ah(pd2);
	uint64_t ring = MOCK_HOST_BASE + 0x64000;
	CMD(RNIC_CMD_OP_CREATE_QP);
	rnic_cmd_create_qp_set_pdn(e, pd1);
	rnic_cmd_create_qp_set_send_cqn(e, cq);
	rnic_cmd_create_qp_set_recv_cqn(e, cq);
	rnic_cmd_create_qp_set_qp_type(e, RNIC_QP_TYPE_UD);
	rnic_cmd_create_qp_set_sq_log_size(e, 4);
	rnic_cmd_create_qp_set_rq_log_size(e, 1);
	rnic_cmd_create_qp_set_rq_log_stride(e, 6);
	rnic_cmd_create_qp_set_buf_addr(e, ring);
	rnic_cmd_create_qp_set_rq_offset(e, 64u << 4);
	uint32_t st = fw_cmd_exec(e), q = rnic_cmd_create_qp_get_qpn(e);
	static const uint32_t steps[3][2] = { { RNIC_QP_STATE_INIT, A(PKEY_INDEX) | A(PORT) | A(QKEY) },
					      { RNIC_QP_STATE_RTR, 0 },
					      { RNIC_QP_STATE_RTS, A(SQ_PSN) } };
	for (int i = 0; i < 3 && st == RNIC_CMD_STATUS_OK; i++) {
		CMD(RNIC_CMD_OP_MODIFY_QP);
		rnic_cmd_modify_qp_set_qpn(e, q);
		rnic_cmd_modify_qp_set_attr_mask(e, steps[i][1] | A(STATE));
		rnic_cmd_modify_qp_set_state(e, steps[i][0]);
		st = fw_cmd_exec(e);
	}
	unsigned m0 = mock_nmbox;
	for (uint32_t i = 0; i < 2; i++) {
		put_wqe(ring, i, RNIC_WQE_OP_SEND, 1u << RNIC_WQE_FLAG_SIGNALED, 2, 0, 100);
		uint8_t *w = mock_host + (ring - MOCK_HOST_BASE) + 64u * i;
		rnic_wqe_ctrl_set_num_sge(w, 1);
		rnic_wqe_ud_set_ahn(w + RNIC_WQE_CTRL_SIZE, i == 0 ? foreign : own);
		rnic_wqe_ud_set_remote_qpn(w + RNIC_WQE_CTRL_SIZE, 0x44);
		rnic_wqe_sge_set_addr(w + RNIC_WQE_CTRL_SIZE + RNIC_WQE_UD_SIZE, MOCK_HOST_BASE + 0x80000);
		rnic_wqe_sge_set_length(w + RNIC_WQE_CTRL_SIZE + RNIC_WQE_UD_SIZE, 100);
	}
	sq_doorbell(q, 2);
	const struct mock_mbox_rec *t0 = mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m0, 0);
	const struct mock_mbox_rec *t1 = mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m0, 1);
	check(st == RNIC_CMD_STATUS_OK && own && foreign && t0 && t1 && rnic_tx_desc_get_remote_va(t0->data) == 0 &&
		      rnic_tx_desc_get_rkey(t0->data) == 0 && rnic_tx_desc_get_remote_va(t1->data) == 0x020000000022ull,
	      "fw-sq-ud-ah-of-another-pd-not-used");
}

static uint32_t cqes_written(void)
{
	CMD(RNIC_CMD_OP_QUERY_COUNTERS);
	fw_cmd_exec(e);
	return rnic_cmd_query_counters_get_cqes(e);
}

static void rq_doorbell(uint32_t q, uint32_t pi)
{
	uint8_t ev[4] = { 0 }, v[4] = { 0 };
	rnic_db_event_set_which(ev, RNIC_DB_RQ_DB / 4);
	rnic_db_word_set_num(v, q);
	rnic_db_word_set_index(v, pi);
	fw_doorbell((uint32_t)rnic_ld_le(ev, 4), (uint32_t)rnic_ld_le(v, 4));
}

/* A producer index announcing more entries than the ring holds (any user can ring one) is not
 * served: it made the firmware complete up to 65535 stale ring entries in one pass (receive
 * WQEs as LOC_LEN_ERR, or send WQEs flushed in ERR), every other QP and command waiting. */
static void doorbell_beyond_ring(void)
{
	regs[RNIC_FW_REG_HW_CAPS / 4] = 1 | 8u << 4; /* engines, 8 receive slots per QP */
	boot();
	memset(mock_host, 0, sizeof(mock_host));
	CMD(RNIC_CMD_OP_SET_GID);
	rnic_cmd_set_gid_set_mac(e, 0x020000000011ull);
	fw_cmd_exec(e);
	uint32_t pd = alloc(RNIC_CMD_OP_ALLOC_PD), cq = create_cq(0);
	uint64_t ring = MOCK_HOST_BASE + 0x60000;
	uint32_t q = rts_qp(pd, cq, ring, 1); /* 2 send WQEBBs, 2 receive WQEs, a 16-entry CQ */
	uint8_t *c = fw_res.qp_ctx[q];
	uint32_t c0 = cqes_written();
	rq_doorbell(q, 0xFFFF);
	check(q && cqes_written() == c0 && rnic_qp_ctx_get_rq_ci(c) == 0, "fw-rq-doorbell-beyond-ring-ignored");
	/* a legal one: WQE 0 with more SGEs than the engine takes completes LOC_LEN_ERR, just that
	 * one; WQE 1 (zeroed: no SGE, a legal 0-byte buffer for a WRITE_IMM) goes to the engine */
	rnic_rq_wqe_set_num_sge(mock_host + (ring - MOCK_HOST_BASE) + (64u << 1), RNIC_MAX_SGE + 1);
	rq_doorbell(q, 1);
	check(cqes_written() == c0 + 1 && rnic_qp_ctx_get_rq_ci(c) == 1, "fw-rq-doorbell-within-ring-served");
	rq_doorbell(q, 2);
	check(cqes_written() == c0 + 1 && rnic_qp_ctx_get_rq_ci(c) == 1 && fw_res.qp_run[q].rq_posted == 1,
	      "fw-rq-zero-sge-wqe-to-engine");
	CMD(RNIC_CMD_OP_MODIFY_QP);
	rnic_cmd_modify_qp_set_qpn(e, q);
	rnic_cmd_modify_qp_set_attr_mask(e, A(STATE));
	rnic_cmd_modify_qp_set_state(e, RNIC_QP_STATE_ERR);
	fw_cmd_exec(e);
	uint32_t c2 = cqes_written();
	sq_doorbell(q, 0xFFF0);
	check(cqes_written() == c2 && rnic_qp_ctx_get_sq_next(c) == 0, "fw-sq-doorbell-beyond-ring-ignored-in-err");
	sq_doorbell(q, 2);
	check(cqes_written() == c2 + 2 && rnic_qp_ctx_get_sq_next(c) == 2, "fw-sq-doorbell-within-ring-flushed-in-err");
}

/* xorshift64*: the seed fully determines the command stream. */
static uint64_t rng;
static uint64_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545F4914F6CDD1Dull;
}

static const uint8_t ops[] = {
	RNIC_CMD_OP_NOP, RNIC_CMD_OP_QUERY_DEVICE, RNIC_CMD_OP_QUERY_PORT, RNIC_CMD_OP_SET_GID,
	RNIC_CMD_OP_ALLOC_PD, RNIC_CMD_OP_DEALLOC_PD, RNIC_CMD_OP_REG_MR, RNIC_CMD_OP_DEREG_MR,
	RNIC_CMD_OP_CREATE_CQ, RNIC_CMD_OP_DESTROY_CQ, RNIC_CMD_OP_CREATE_QP, RNIC_CMD_OP_MODIFY_QP,
	RNIC_CMD_OP_QUERY_QP, RNIC_CMD_OP_DESTROY_QP, RNIC_CMD_OP_CREATE_AH, RNIC_CMD_OP_DESTROY_AH,
	RNIC_CMD_OP_ALLOC_UCTX, RNIC_CMD_OP_DEALLOC_UCTX, RNIC_CMD_OP_QUERY_COUNTERS, RNIC_CMD_OP_QUERY_RESOURCES,
};

/* A parameter word: mostly small (handles, sizes, states in range), sometimes anything. */
static uint32_t word(void)
{
	uint64_t r = rnd();
	switch (r & 7) {
	case 0: return (uint32_t)(r >> 32);
	case 1: return (uint32_t)((r >> 8) & 0xFF);
	case 2: return (uint32_t)((r >> 8) & 0x7);
	default: return (uint32_t)((r >> 8) & 0x1F);
	}
}

/* A live handle of a table (used[] bytes or a struct's used field through get), or a random one. */
static uint32_t live(uint32_t n, int (*used)(uint32_t))
{
	uint32_t start = (uint32_t)(rnd() % n);
	for (uint32_t k = 0; k < n; k++) {
		uint32_t i = (start + k) % n;
		if (i && used(i))
			return i;
	}
	return (uint32_t)(rnd() % n);
}
static int pd_live(uint32_t i) { return fw_res.pd_used[i]; }
static int cq_live(uint32_t i) { return fw_res.cqs[i].used; }
static int qp_live(uint32_t i) { return i >= FW_FIRST_QPN && fw_res.qp_used[i]; }
static int mr_live(uint32_t i) { return fw_res.mrs[i].used; }
static int ah_live(uint32_t i) { return fw_res.ahs[i].used; }
static int uctx_live(uint32_t i) { return fw_res.uctx_used[i]; }

static const uint32_t masks[] = {
	0,
	A(PKEY_INDEX) | A(PORT) | A(ACCESS_FLAGS),
	A(PKEY_INDEX) | A(PORT) | A(QKEY),
	A(AV) | A(PATH_MTU) | A(DEST_QPN) | A(RQ_PSN) | A(MAX_DEST_RD_ATOMIC) | A(MIN_RNR_TIMER),
	A(SQ_PSN) | A(TIMEOUT) | A(RETRY_CNT) | A(RNR_RETRY) | A(MAX_QP_RD_ATOMIC),
	A(SQ_PSN),
	A(CUR_STATE),
};

/* Rewrites the random parameters of one command into mostly legal ones with live handles. */
static void plausible(uint8_t *c)
{
	uint64_t r = rnd();
	uint64_t addr = MOCK_HOST_BASE + ((r % (MOCK_HOST_BYTES / 2)) & ~4095ull);
	switch (rnic_cmd_entry_get_opcode(c)) {
	case RNIC_CMD_OP_DEALLOC_PD: rnic_cmd_pd_set_pdn(c, live(FW_MAX_PD, pd_live)); break;
	case RNIC_CMD_OP_ALLOC_PD: rnic_cmd_pd_set_uctx(c, (r & 1) ? live(FW_MAX_UCTX, uctx_live) : 0); break;
	case RNIC_CMD_OP_DEALLOC_UCTX: rnic_cmd_uctx_set_uctx(c, live(FW_MAX_UCTX, uctx_live)); break;
	case RNIC_CMD_OP_DESTROY_CQ: rnic_cmd_destroy_set_handle(c, live(FW_MAX_CQ, cq_live)); break;
	case RNIC_CMD_OP_DESTROY_QP: rnic_cmd_destroy_set_handle(c, live(FW_MAX_QP, qp_live)); break;
	case RNIC_CMD_OP_DESTROY_AH: rnic_cmd_destroy_set_handle(c, live(FW_MAX_AH, ah_live)); break;
	case RNIC_CMD_OP_QUERY_QP: rnic_cmd_modify_qp_set_qpn(c, live(FW_MAX_QP, qp_live)); break;
	case RNIC_CMD_OP_DEREG_MR: {
		uint32_t i = live(FW_MAX_MR, mr_live);
		rnic_cmd_dereg_mr_set_lkey(c, i << 8 | (i < FW_MAX_MR ? fw_res.mrs[i].variant : 0));
		break;
	}
	case RNIC_CMD_OP_REG_MR: {
		uint32_t n = 1 + (uint32_t)(r >> 8) % 64, fpo = (uint32_t)(r >> 16) % 4096;
		rnic_cmd_reg_mr_set_pdn(c, live(FW_MAX_PD, pd_live));
		rnic_cmd_reg_mr_set_access(c, (uint32_t)(r >> 24) & 0xF);
		rnic_cmd_reg_mr_set_page_shift(c, 12);
		rnic_cmd_reg_mr_set_first_page_offset(c, fpo);
		rnic_cmd_reg_mr_set_length(c, (uint64_t)n * 4096 - fpo - (r >> 32) % 4096);
		rnic_cmd_reg_mr_set_num_pages(c, n);
		rnic_cmd_reg_mr_set_mtt_table_addr(c, MTT_AT);
		break;
	}
	case RNIC_CMD_OP_CREATE_CQ:
		rnic_cmd_create_cq_set_uctx(c, (r & 1) ? live(FW_MAX_UCTX, uctx_live) : 0);
		rnic_cmd_create_cq_set_log_size(c, 1 + (uint32_t)(r >> 8) % 16);
		rnic_cmd_create_cq_set_eqn(c, 0);
		rnic_cmd_create_cq_set_num_pages(c, 0);
		rnic_cmd_create_cq_set_buf_addr(c, addr);
		rnic_cmd_create_cq_set_dbrec_addr(c, addr + 64);
		break;
	case RNIC_CMD_OP_CREATE_QP:
		rnic_cmd_create_qp_set_uctx(c, (r & 1) ? live(FW_MAX_UCTX, uctx_live) : 0);
		rnic_cmd_create_qp_set_pdn(c, live(FW_MAX_PD, pd_live));
		rnic_cmd_create_qp_set_send_cqn(c, live(FW_MAX_CQ, cq_live));
		rnic_cmd_create_qp_set_recv_cqn(c, live(FW_MAX_CQ, cq_live));
		rnic_cmd_create_qp_set_qp_type(c, (r >> 8) & 1 ? RNIC_QP_TYPE_RC : RNIC_QP_TYPE_UD);
		rnic_cmd_create_qp_set_sq_log_size(c, 1 + (uint32_t)(r >> 9) % 8);
		rnic_cmd_create_qp_set_rq_log_size(c, (uint32_t)(r >> 12) % 8);
		rnic_cmd_create_qp_set_rq_log_stride(c, 5 + (uint32_t)(r >> 15) % 6);
		rnic_cmd_create_qp_set_buf_addr(c, addr);
		rnic_cmd_create_qp_set_rq_offset(c, 64u << 8);
		rnic_cmd_create_qp_set_num_pages(c, 0);
		rnic_cmd_create_qp_set_max_inline(c, (uint32_t)(r >> 20) % 33);
		break;
	case RNIC_CMD_OP_MODIFY_QP:
		rnic_cmd_modify_qp_set_qpn(c, live(FW_MAX_QP, qp_live));
		rnic_cmd_modify_qp_set_attr_mask(c, masks[(r >> 8) % (sizeof(masks) / 4)] | A(STATE) |
							   ((r >> 16) % 8 == 0 ? (uint32_t)(r >> 20) & 0x1FFFFF : 0));
		rnic_cmd_modify_qp_set_state(c, (uint32_t)(r >> 44) % 8);
		rnic_cmd_modify_qp_set_cur_state(c, (uint32_t)(r >> 47) % 7);
		rnic_cmd_modify_qp_set_path_mtu(c, 1 + (uint32_t)(r >> 50) % 5);
		rnic_cmd_modify_qp_set_sgid_index(c, (uint32_t)(r >> 53) % 2);
		rnic_cmd_modify_qp_set_dmac(c, 0x020000000022ull);
		rnic_cmd_modify_qp_set_timeout(c, (uint32_t)(r >> 56) % 32);
		rnic_cmd_modify_qp_set_retry_cnt(c, 7);
		rnic_cmd_modify_qp_set_rnr_retry(c, 7);
		rnic_cmd_modify_qp_set_min_rnr_timer(c, 12);
		rnic_cmd_modify_qp_set_max_rd_atomic(c, 4);
		rnic_cmd_modify_qp_set_max_dest_rd_atomic(c, 4);
		rnic_cmd_modify_qp_set_access(c, (uint32_t)(r >> 60));
		rnic_cmd_modify_qp_set_dest_qpn(c, (uint32_t)(r >> 20) & 0xFFFFFF);
		rnic_cmd_modify_qp_set_rq_psn(c, (uint32_t)(r >> 24) & 0xFFFFFF);
		rnic_cmd_modify_qp_set_sq_psn(c, (uint32_t)(r >> 28) & 0xFFFFFF);
		break;
	case RNIC_CMD_OP_CREATE_AH:
		rnic_cmd_create_ah_set_pdn(c, live(FW_MAX_PD, pd_live));
		rnic_cmd_create_ah_set_sgid_index(c, (uint32_t)(r >> 8) % 2);
		rnic_cmd_create_ah_set_dmac(c, (r >> 9) & 0xFFFFFFFFFFFFull);
		break;
	case RNIC_CMD_OP_SET_GID:
		rnic_cmd_set_gid_set_index(c, (uint32_t)(r >> 8) % 2);
		rnic_cmd_set_gid_set_mac(c, (r >> 9) & 0xFFFFFFFFFFFFull);
		break;
	default: break;
	}
}

static void random_commands(uint64_t seed, unsigned count)
{
	unsigned hist[9] = { 0 }, bad = 0;
	boot();
	rng = seed * 0x9E3779B97F4A7C15ull + 1;
	page_list(64);
	for (unsigned i = 0; i < count; i++) {
		memset(e, 0, sizeof(e));
		uint64_t r = rnd();
		rnic_cmd_entry_set_opcode(e, (r & 3) == 0 ? (uint8_t)(r >> 8) : ops[(r >> 8) % sizeof(ops)]);
		rnic_cmd_entry_set_token(e, (uint16_t)(r >> 24));
		for (uint32_t off = 8; off < RNIC_CMD_ENTRY_SIZE; off += 4)
			rnic_st_le(e + off, 4, word());
		/* addresses: some inside the mock host memory (aligned), so REG_MR reads page lists */
		if ((r >> 40) & 1) {
			uint64_t a = MOCK_HOST_BASE + ((rnd() % (MOCK_HOST_BYTES / 2)) & ~63ull);
			rnic_st_le(e + 24, 8, a);
			rnic_st_le(e + 40, 8, (r >> 41) & 1 ? MTT_AT : a);
		}
		if ((r >> 42) & 3)
			plausible(e); /* mostly live handles and legal values, so deep paths run */
		uint32_t st = fw_cmd_exec(e);
		if (st > RNIC_CMD_STATUS_INTERNAL)
			bad++;
		else
			hist[st]++;
	}
	printf("# random commands seed %llu: %u commands; OK %u BAD_OPCODE %u BAD_PARAM %u BAD_HANDLE %u "
	       "BAD_STATE %u NO_RESOURCES %u BUSY %u DMA_ERROR %u INTERNAL %u\n",
	       (unsigned long long)seed, count, hist[0], hist[1], hist[2], hist[3], hist[4], hist[5], hist[6], hist[7],
	       hist[8]);
	check(bad == 0 && hist[RNIC_CMD_STATUS_INTERNAL] == 0, "fw-random-commands-defined-status");
	unsigned states[8] = { 0 };
	for (uint32_t q = FW_FIRST_QPN; q < FW_MAX_QP; q++)
		if (fw_res.qp_used[q])
			states[rnic_qp_ctx_get_state(fw_res.qp_ctx[q]) & 7]++;
	printf("# QPs at the end by state: RESET %u INIT %u RTR %u RTS %u SQD %u SQE %u ERR %u\n", states[0], states[1],
	       states[2], states[3], states[4], states[5], states[6]);
	struct res q = query();
	printf("# live at the end: %u PDs %u uctxs %u CQs %u QPs %u MRs (%u MTT entries) %u AHs\n", q.pds, q.uctxs, q.cqs,
	       q.qps, q.mrs, q.mtt, q.ahs);

	/* Free everything the stream created, in the order a driver would; then every count is 0. */
	for (uint32_t q = FW_FIRST_QPN; q < FW_MAX_QP; q++)
		if (fw_res.qp_used[q] && destroy(RNIC_CMD_OP_DESTROY_QP, q) != RNIC_CMD_STATUS_OK)
			bad++;
	for (uint32_t i = 1; i < FW_MAX_AH; i++)
		if (fw_res.ahs[i].used && destroy(RNIC_CMD_OP_DESTROY_AH, i) != RNIC_CMD_STATUS_OK)
			bad++;
	for (uint32_t i = 1; i < FW_MAX_CQ; i++)
		if (fw_res.cqs[i].used && destroy(RNIC_CMD_OP_DESTROY_CQ, i) != RNIC_CMD_STATUS_OK)
			bad++;
	for (uint32_t i = 1; i < FW_MAX_MR; i++)
		if (fw_res.mrs[i].used && destroy(RNIC_CMD_OP_DEREG_MR, i << 8 | fw_res.mrs[i].variant) != RNIC_CMD_STATUS_OK)
			bad++;
	for (uint32_t i = 1; i < FW_MAX_PD; i++)
		if (fw_res.pd_used[i] && destroy(RNIC_CMD_OP_DEALLOC_PD, i) != RNIC_CMD_STATUS_OK)
			bad++;
	for (uint32_t i = 1; i < FW_MAX_UCTX; i++)
		if (fw_res.uctx_used[i] && destroy(RNIC_CMD_OP_DEALLOC_UCTX, i) != RNIC_CMD_STATUS_OK)
			bad++;
	check(bad == 0, "fw-random-commands-teardown-in-driver-order");
	check(res_empty(query()), "fw-random-commands-counts-back-to-zero");
	/* RC QPs went through the engine: enabled at RTS, dropped at RESET/DESTROY, no store lost */
	check(mock_srt_ops[RNIC_SR_OP_INIT] > 0 && mock_srt_ops[RNIC_SR_OP_DROP] > mock_srt_ops[RNIC_SR_OP_INIT] &&
		      !mock_srt_dropped(),
	      "fw-random-commands-engine-qps");
}

int main(int argc, char **argv)
{
	uint64_t seed = 1;
	unsigned count = 200000;
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--seed"))
			seed = strtoull(argv[i + 1], 0, 0);
		else if (!strcmp(argv[i], "--count"))
			count = (unsigned)strtoul(argv[i + 1], 0, 0);
	}
	lifetimes();
	hostile_wqes();
	ud_foreign_ah();
	doorbell_beyond_ring();
	random_commands(seed, count);
	return mock_failed;
}
