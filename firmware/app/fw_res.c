/* Resource tables, CQs and address handles. */
#include "fw_res.h"

struct fw_res fw_res;

/* The tables are in .bss, zeroed by crt0 at boot: only the reserved handles need marking. */
void fw_res_init(void)
{
	fw_res.pd_used[0] = 1; /* handle 0 means "none" */
	fw_res.uctx_used[0] = 1;
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
	for (uint32_t q = FW_FIRST_QPN; q < FW_MAX_QP; q++)
		if (fw_res.qp_used[q] && (rnic_qp_ctx_get_send_cqn(fw_res.qp_ctx[q]) == n ||
					  rnic_qp_ctx_get_recv_cqn(fw_res.qp_ctx[q]) == n))
			return RNIC_CMD_STATUS_BUSY; /* a QP still completes into it */
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
