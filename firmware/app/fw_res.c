/* Resource tables, CQs and address handles. */
#include "fw_res.h"

#include "fw_xport.h"

struct fw_res fw_res;
uint32_t fw_num_qp;

/* Per QP: context, requester bookkeeping, atomic history, in-use flag; each array 8-byte
 * aligned (the QP count is a power of two >= 4). */
_Static_assert(RNIC_QP_CTX_SIZE + ((sizeof(struct fw_qp_run) + 7u) & ~7u) + FW_QPC_ATOMIC_BYTES + 1u <=
		       RNIC_FW_TC_QPC_ENTRY_BYTES,
	       "per-QP firmware state exceeds fw_tc.qpc_entry_bytes");

/* The DMEM tables are in .bss, zeroed by crt0 at boot: only the reserved handles need marking.
 * The QP-context RAM keeps what an earlier image left: qp_used is cleared here (N/4 stores, not
 * the whole RAM: 62 000 stores at 1024 QPs would add 0.25 ms to every boot); CREATE_QP sets up
 * the rest of a QP's state. */
void fw_res_init(void)
{
	uint32_t lg = rnic_hw_caps_v_log2_qps(hal_rd32(RNIC_FW_REG_HW_CAPS));
	uint8_t *p = hal_qpc_base();

	fw_num_qp = 1u << lg;
	if (fw_num_qp > RNIC_MAX_NUM_QPS)
		fw_num_qp = RNIC_MAX_NUM_QPS;
	fw_res.qp_ctx = (uint8_t(*)[RNIC_QP_CTX_SIZE])(void *)p;
	p += fw_num_qp * RNIC_QP_CTX_SIZE;
	fw_res.qp_run = (struct fw_qp_run *)(void *)p;
	p += fw_num_qp * ((sizeof(struct fw_qp_run) + 7u) & ~7u);
	fw_res.qp_atomic = p;
	p += fw_num_qp * FW_QPC_ATOMIC_BYTES;
	fw_res.qp_used = p;
	p += fw_num_qp;
	for (uint32_t *w = (uint32_t *)(void *)fw_res.qp_used; w < (uint32_t *)(void *)p; w++)
		*w = 0;
	fw_res.qp_free_hint = fw_res.qp_hi = FW_FIRST_QPN;
	fw_res.pd_used[0] = 1; /* handle 0 means "none" */
	fw_res.uctx_used[0] = 1;
}

static uint32_t count_used(const uint8_t *used, uint32_t n)
{
	uint32_t c = 0;
	for (uint32_t i = 1; i < n; i++)
		c += used[i] != 0;
	return c;
}

uint32_t fw_cmd_query_resources(uint8_t *e)
{
	uint32_t cqs = 0, qps = 0, mrs = 0, mtt = 0, ahs = 0, free_n = 0;

	for (uint32_t i = 1; i < FW_MAX_CQ; i++)
		cqs += fw_res.cqs[i].used;
	for (uint32_t q = FW_FIRST_QPN; q < FW_QP_SCAN_END; q++)
		qps += fw_res.qp_used[q] != 0;
	for (uint32_t i = 1; i < FW_MAX_MR; i++)
		if (fw_res.mrs[i].used)
			mrs++, mtt += fw_res.mrs[i].num_pages;
	for (uint32_t i = 1; i < FW_MAX_AH; i++)
		ahs += fw_res.ahs[i].used;
	/* bounded walk: a corrupted list cannot hang the command */
	for (int16_t i = fw_res.swqe_free; i >= 0 && i < (int16_t)FW_MAX_SWQE && free_n <= FW_MAX_SWQE;
	     i = fw_res.swqe[i].next)
		free_n++;
	for (uint32_t i = 8; i < RNIC_CMD_ENTRY_SIZE; i++)
		e[i] = 0;
	rnic_cmd_query_resources_set_pds(e, count_used(fw_res.pd_used, FW_MAX_PD));
	rnic_cmd_query_resources_set_uctxs(e, count_used(fw_res.uctx_used, FW_MAX_UCTX));
	rnic_cmd_query_resources_set_cqs(e, cqs);
	rnic_cmd_query_resources_set_qps(e, qps);
	rnic_cmd_query_resources_set_mrs(e, mrs);
	rnic_cmd_query_resources_set_ahs(e, ahs);
	rnic_cmd_query_resources_set_mtt_entries(e, mtt);
	rnic_cmd_query_resources_set_swqe_free(e, free_n);
	rnic_cmd_query_resources_set_swqe_total(e, FW_MAX_SWQE);
	rnic_cmd_query_resources_set_rd_outstanding(e, fw_sq_rd_outstanding());
	return RNIC_CMD_STATUS_OK;
}

int fw_uctx_in_use(uint32_t u)
{
	for (uint32_t i = 1; i < FW_MAX_CQ; i++)
		if (fw_res.cqs[i].used && fw_res.cqs[i].uctx == u)
			return 1;
	for (uint32_t q = FW_FIRST_QPN; q < FW_QP_SCAN_END; q++)
		if (fw_res.qp_used[q] && rnic_qp_ctx_get_uctx(fw_res.qp_ctx[q]) == u)
			return 1;
	return 0;
}

int fw_pd_has_ah(uint32_t pdn)
{
	for (uint32_t i = 1; i < FW_MAX_AH; i++)
		if (fw_res.ahs[i].used && fw_res.ahs[i].pdn == pdn)
			return 1;
	return 0;
}

static int uctx_ok(uint32_t u) { return u < FW_MAX_UCTX && (u == 0 || fw_res.uctx_used[u]); }

uint32_t fw_cmd_create_cq(uint8_t *e)
{
	uint32_t log = rnic_cmd_create_cq_get_log_size(e), uctx = rnic_cmd_create_cq_get_uctx(e);
	uint64_t buf = rnic_cmd_create_cq_get_buf_addr(e), dbrec = rnic_cmd_create_cq_get_dbrec_addr(e);

	if (!uctx_ok(uctx))
		return RNIC_CMD_STATUS_BAD_HANDLE;
	if (log < 1 || log > 16 || buf == 0 || (buf & 63) || dbrec == 0 || (dbrec & 3) ||
	    rnic_cmd_create_cq_get_eqn(e) != 0 ||
	    rnic_cmd_create_cq_get_num_pages(e) != 0 /* page-listed CQ buffers: not served yet */)
		return RNIC_CMD_STATUS_BAD_PARAM;
	for (uint32_t n = 1; n < FW_MAX_CQ; n++) {
		struct fw_cq *cq = &fw_res.cqs[n];
		if (cq->used)
			continue;
		/* A reused number starts a new ring: producer, consumer, arming, error all cleared. */
		*cq = (struct fw_cq){ 0 };
		cq->used = 1;
		cq->buf_addr = buf;
		cq->dbrec_addr = dbrec;
		cq->log_size = (uint8_t)log;
		cq->eqn = 0;
		cq->uctx = uctx;
		fw_cqw_program(n, buf, log);
		rnic_cmd_create_cq_set_cqn(e, n);
		return RNIC_CMD_STATUS_OK;
	}
	return RNIC_CMD_STATUS_NO_RESOURCES;
}

uint32_t fw_cmd_destroy_cq(uint8_t *e)
{
	uint32_t n = rnic_cmd_destroy_get_handle(e);

	if (n == 0 || n >= FW_MAX_CQ || !fw_res.cqs[n].used)
		return RNIC_CMD_STATUS_BAD_HANDLE;
	for (uint32_t q = FW_FIRST_QPN; q < FW_QP_SCAN_END; q++)
		if (fw_res.qp_used[q] && (rnic_qp_ctx_get_send_cqn(fw_res.qp_ctx[q]) == n ||
					  rnic_qp_ctx_get_recv_cqn(fw_res.qp_ctx[q]) == n))
			return RNIC_CMD_STATUS_BUSY; /* a QP still completes into it */
	fw_cqw_retire(n); /* no CQE of it still on its way into the ring the host frees */
	fw_res.cqs[n].used = 0;
	return RNIC_CMD_STATUS_OK;
}

uint32_t fw_cmd_create_ah(uint8_t *e)
{
	uint32_t pdn = rnic_cmd_create_ah_get_pdn(e), sgid = rnic_cmd_create_ah_get_sgid_index(e);

	if (pdn == 0 || pdn >= FW_MAX_PD || !fw_res.pd_used[pdn])
		return RNIC_CMD_STATUS_BAD_HANDLE;
	if (sgid >= FW_NUM_GIDS || !fw_res.gids[sgid].valid || (rnic_cmd_create_ah_get_dmac(e) >> 48))
		return RNIC_CMD_STATUS_BAD_PARAM;
	for (uint32_t n = 1; n < FW_MAX_AH; n++) {
		struct fw_ah *ah = &fw_res.ahs[n];
		if (ah->used)
			continue;
		ah->used = 1;
		ah->pdn = pdn;
		ah->dest_ipv4 = rnic_cmd_create_ah_get_dest_ipv4(e);
		ah->dmac = rnic_cmd_create_ah_get_dmac(e);
		ah->sgid_index = (uint8_t)sgid;
		ah->hop_limit = (uint8_t)rnic_cmd_create_ah_get_hop_limit(e);
		ah->traffic_class = (uint8_t)rnic_cmd_create_ah_get_traffic_class(e);
		rnic_cmd_create_ah_set_ahn(e, n);
		return RNIC_CMD_STATUS_OK;
	}
	return RNIC_CMD_STATUS_NO_RESOURCES;
}

uint32_t fw_cmd_destroy_ah(uint8_t *e)
{
	uint32_t n = rnic_cmd_destroy_get_handle(e);

	if (n == 0 || n >= FW_MAX_AH || !fw_res.ahs[n].used)
		return RNIC_CMD_STATUS_BAD_HANDLE;
	fw_res.ahs[n].used = 0;
	return RNIC_CMD_STATUS_OK;
}
