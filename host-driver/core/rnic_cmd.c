/* Typed commands over the command queue: spec layouts in, plain structs out. */
#include "rnic_cmd.h"
#include "rnic_compat.h"
#include "rnic_spec.h"

uint64_t rnic_mac_to_u64(const uint8_t mac[6])
{
	uint64_t v = 0;

	for (int i = 0; i < 6; i++)
		v = v << 8 | mac[i];
	return v;
}

void rnic_u64_to_mac(uint64_t v, uint8_t mac[6])
{
	for (int i = 5; i >= 0; i--, v >>= 8)
		mac[i] = (uint8_t)v;
}

static void cmd_init(uint8_t *c, uint32_t opcode)
{
	memset(c, 0, RNIC_CMD_ENTRY_SIZE);
	rnic_cmd_entry_set_opcode(c, opcode);
}

static int exec(struct rnic_cmdq *q, uint8_t *c)
{
	return rnic_cmdq_exec(q, c, NULL);
}

/* A command whose only parameter is one 32-bit handle at the cmd_destroy position. */
static int cmd_handle(struct rnic_cmdq *q, uint32_t opcode, uint32_t handle)
{
	uint8_t c[RNIC_CMD_ENTRY_SIZE];

	cmd_init(c, opcode);
	rnic_cmd_destroy_set_handle(c, handle);
	return exec(q, c);
}

int rnic_cmd_nop(struct rnic_cmdq *q)
{
	uint8_t c[RNIC_CMD_ENTRY_SIZE];

	cmd_init(c, RNIC_CMD_OP_NOP);
	return exec(q, c);
}

int rnic_cmd_query_device(struct rnic_cmdq *q, struct rnic_device_attr *o)
{
	uint8_t c[RNIC_CMD_ENTRY_SIZE];
	int rc;

	cmd_init(c, RNIC_CMD_OP_QUERY_DEVICE);
	rc = exec(q, c);
	if (rc)
		return rc;
	o->fw_version = rnic_cmd_query_device_get_fw_version(c);
	o->max_qp = rnic_cmd_query_device_get_max_qp(c);
	o->max_cq = rnic_cmd_query_device_get_max_cq(c);
	o->max_mr = rnic_cmd_query_device_get_max_mr(c);
	o->max_pd = rnic_cmd_query_device_get_max_pd(c);
	o->max_qp_wr = rnic_cmd_query_device_get_max_qp_wr(c);
	o->max_cqe = rnic_cmd_query_device_get_max_cqe(c);
	o->max_sge = rnic_cmd_query_device_get_max_sge(c);
	o->max_inline = rnic_cmd_query_device_get_max_inline(c) * 4u;
	o->max_rd_atomic = rnic_cmd_query_device_get_max_rd_atomic(c);
	o->page_size_cap = rnic_cmd_query_device_get_page_size_cap(c);
	o->max_mr_size_log2 = rnic_cmd_query_device_get_max_mr_size_log2(c);
	o->num_uctx = rnic_cmd_query_device_get_num_uctx(c);
	return 0;
}

int rnic_cmd_query_port(struct rnic_cmdq *q, struct rnic_port_attr *o)
{
	uint8_t c[RNIC_CMD_ENTRY_SIZE];
	int rc;

	cmd_init(c, RNIC_CMD_OP_QUERY_PORT);
	rc = exec(q, c);
	if (rc)
		return rc;
	o->state = rnic_cmd_query_port_get_state(c);
	o->max_mtu = rnic_cmd_query_port_get_max_mtu(c);
	o->active_mtu = rnic_cmd_query_port_get_active_mtu(c);
	o->gid_tbl_len = rnic_cmd_query_port_get_gid_tbl_len(c);
	o->speed_gbps = rnic_cmd_query_port_get_speed_gbps(c);
	rnic_u64_to_mac(rnic_cmd_query_port_get_mac(c), o->mac);
	return 0;
}

int rnic_cmd_set_gid(struct rnic_cmdq *q, uint32_t index, uint32_t ipv4, const uint8_t mac[6])
{
	uint8_t c[RNIC_CMD_ENTRY_SIZE];

	if (index > 0xFF || !mac)
		return -EINVAL;
	cmd_init(c, RNIC_CMD_OP_SET_GID);
	rnic_cmd_set_gid_set_index(c, index);
	rnic_cmd_set_gid_set_ipv4(c, ipv4);
	rnic_cmd_set_gid_set_mac(c, rnic_mac_to_u64(mac));
	return exec(q, c);
}

int rnic_cmd_alloc_pd(struct rnic_cmdq *q, uint32_t uctx, uint32_t *pdn)
{
	uint8_t c[RNIC_CMD_ENTRY_SIZE];
	int rc;

	cmd_init(c, RNIC_CMD_OP_ALLOC_PD);
	rnic_cmd_pd_set_uctx(c, uctx);
	rc = exec(q, c);
	if (!rc)
		*pdn = rnic_cmd_pd_get_pdn(c);
	return rc;
}

int rnic_cmd_dealloc_pd(struct rnic_cmdq *q, uint32_t pdn)
{
	uint8_t c[RNIC_CMD_ENTRY_SIZE];

	cmd_init(c, RNIC_CMD_OP_DEALLOC_PD);
	rnic_cmd_pd_set_pdn(c, pdn);
	return exec(q, c);
}

int rnic_cmd_alloc_uctx(struct rnic_cmdq *q, uint32_t *uctx)
{
	uint8_t c[RNIC_CMD_ENTRY_SIZE];
	int rc;

	cmd_init(c, RNIC_CMD_OP_ALLOC_UCTX);
	rc = exec(q, c);
	if (!rc)
		*uctx = rnic_cmd_uctx_get_uctx(c);
	return rc;
}

int rnic_cmd_dealloc_uctx(struct rnic_cmdq *q, uint32_t uctx)
{
	uint8_t c[RNIC_CMD_ENTRY_SIZE];

	cmd_init(c, RNIC_CMD_OP_DEALLOC_UCTX);
	rnic_cmd_uctx_set_uctx(c, uctx);
	return exec(q, c);
}

int rnic_cmd_reg_mr(struct rnic_cmdq *q, const struct rnic_reg_mr_in *in, uint32_t *lkey,
		    uint32_t *rkey)
{
	uint8_t c[RNIC_CMD_ENTRY_SIZE];
	uint32_t n, fpo;
	int rc;

	if (!in || !in->mtt || !in->mtt->table || in->access > 0xFF)
		return -EINVAL;
	/* The page list must describe exactly this region. */
	rc = rnic_mtt_layout(in->iova, in->length, in->mtt->page_shift, &n, &fpo);
	if (rc || n != in->mtt->num_pages || fpo != in->mtt->first_page_offset)
		return -EINVAL;
	cmd_init(c, RNIC_CMD_OP_REG_MR);
	rnic_cmd_reg_mr_set_pdn(c, in->pdn);
	rnic_cmd_reg_mr_set_access(c, in->access);
	rnic_cmd_reg_mr_set_page_shift(c, in->mtt->page_shift);
	rnic_cmd_reg_mr_set_iova(c, in->iova);
	rnic_cmd_reg_mr_set_length(c, in->length);
	rnic_cmd_reg_mr_set_mtt_table_addr(c, in->mtt->table_bus);
	rnic_cmd_reg_mr_set_num_pages(c, in->mtt->num_pages);
	rnic_cmd_reg_mr_set_first_page_offset(c, in->mtt->first_page_offset);
	rc = exec(q, c);
	if (rc)
		return rc;
	if (lkey)
		*lkey = rnic_cmd_reg_mr_get_lkey(c);
	if (rkey)
		*rkey = rnic_cmd_reg_mr_get_rkey(c);
	return 0;
}

int rnic_cmd_dereg_mr(struct rnic_cmdq *q, uint32_t lkey)
{
	uint8_t c[RNIC_CMD_ENTRY_SIZE];

	cmd_init(c, RNIC_CMD_OP_DEREG_MR);
	rnic_cmd_dereg_mr_set_lkey(c, lkey);
	return exec(q, c);
}

int rnic_cmd_create_cq(struct rnic_cmdq *q, const struct rnic_create_cq_in *in, uint32_t *cqn)
{
	uint8_t c[RNIC_CMD_ENTRY_SIZE];
	int rc;

	if (!in || in->log_size == 0 || in->log_size > 24 || in->eqn > 0xFF || !in->dbrec_addr ||
	    (in->dbrec_addr & 3))
		return -EINVAL;
	cmd_init(c, RNIC_CMD_OP_CREATE_CQ);
	rnic_cmd_create_cq_set_dbrec_addr(c, in->dbrec_addr);
	rnic_cmd_create_cq_set_uctx(c, in->uctx);
	rnic_cmd_create_cq_set_log_size(c, in->log_size);
	rnic_cmd_create_cq_set_eqn(c, in->eqn);
	if (in->mtt) {
		rnic_cmd_create_cq_set_page_shift(c, in->mtt->page_shift);
		rnic_cmd_create_cq_set_buf_addr(c, in->mtt->table_bus);
		rnic_cmd_create_cq_set_num_pages(c, in->mtt->num_pages);
	} else {
		rnic_cmd_create_cq_set_buf_addr(c, in->buf_addr);
	}
	rc = exec(q, c);
	if (!rc)
		*cqn = rnic_cmd_create_cq_get_cqn(c);
	return rc;
}

int rnic_cmd_destroy_cq(struct rnic_cmdq *q, uint32_t cqn)
{
	return cmd_handle(q, RNIC_CMD_OP_DESTROY_CQ, cqn);
}

int rnic_cmd_create_qp(struct rnic_cmdq *q, const struct rnic_create_qp_in *in, uint32_t *qpn)
{
	uint8_t c[RNIC_CMD_ENTRY_SIZE];
	int rc;

	if (!in || (in->qp_type != RNIC_QP_TYPE_RC && in->qp_type != RNIC_QP_TYPE_UC &&
		    in->qp_type != RNIC_QP_TYPE_UD))
		return -EINVAL;
	if (in->sq_log_size > 15 || in->rq_log_size > 15 || in->rq_log_stride > 12 ||
	    in->max_inline > 4u * 0xFF || in->sq_sig_all > 1)
		return -EINVAL;
	cmd_init(c, RNIC_CMD_OP_CREATE_QP);
	rnic_cmd_create_qp_set_uctx(c, in->uctx);
	rnic_cmd_create_qp_set_pdn(c, in->pdn);
	rnic_cmd_create_qp_set_send_cqn(c, in->send_cqn);
	rnic_cmd_create_qp_set_recv_cqn(c, in->recv_cqn);
	rnic_cmd_create_qp_set_qp_type(c, in->qp_type);
	rnic_cmd_create_qp_set_sq_log_size(c, in->sq_log_size);
	rnic_cmd_create_qp_set_rq_log_size(c, in->rq_log_size);
	rnic_cmd_create_qp_set_rq_log_stride(c, in->rq_log_stride);
	rnic_cmd_create_qp_set_rq_offset(c, in->rq_offset);
	rnic_cmd_create_qp_set_max_inline(c, (in->max_inline + 3u) / 4u);
	rnic_cmd_create_qp_set_sq_sig_all(c, in->sq_sig_all);
	if (in->mtt) {
		rnic_cmd_create_qp_set_page_shift(c, in->mtt->page_shift);
		rnic_cmd_create_qp_set_buf_addr(c, in->mtt->table_bus);
		rnic_cmd_create_qp_set_num_pages(c, in->mtt->num_pages);
	} else {
		rnic_cmd_create_qp_set_buf_addr(c, in->buf_addr);
	}
	rc = exec(q, c);
	if (!rc)
		*qpn = rnic_cmd_create_qp_get_qpn(c);
	return rc;
}

int rnic_cmd_modify_qp(struct rnic_cmdq *q, uint32_t qpn, uint32_t attr_mask,
		       const struct rnic_qp_attr *a)
{
	uint8_t c[RNIC_CMD_ENTRY_SIZE];

	if (!a || a->state > RNIC_QP_STATE_ERR || a->cur_state > RNIC_QP_STATE_ERR ||
	    a->path_mtu > 5 || a->timeout > 31 || a->retry_cnt > 7 || a->rnr_retry > 7 ||
	    a->min_rnr_timer > 31 || a->access > 0xFF || a->max_rd_atomic > 0xFF ||
	    a->max_dest_rd_atomic > 0xFF || a->sgid_index > 0xFF || a->hop_limit > 0xFF ||
	    a->traffic_class > 0xFF)
		return -EINVAL;
	cmd_init(c, RNIC_CMD_OP_MODIFY_QP);
	rnic_cmd_modify_qp_set_qpn(c, qpn);
	rnic_cmd_modify_qp_set_attr_mask(c, attr_mask);
	rnic_cmd_modify_qp_set_state(c, a->state);
	rnic_cmd_modify_qp_set_cur_state(c, a->cur_state);
	rnic_cmd_modify_qp_set_path_mtu(c, a->path_mtu);
	rnic_cmd_modify_qp_set_timeout(c, a->timeout);
	rnic_cmd_modify_qp_set_retry_cnt(c, a->retry_cnt);
	rnic_cmd_modify_qp_set_rnr_retry(c, a->rnr_retry);
	rnic_cmd_modify_qp_set_min_rnr_timer(c, a->min_rnr_timer);
	rnic_cmd_modify_qp_set_access(c, a->access);
	rnic_cmd_modify_qp_set_dest_qpn(c, a->dest_qpn);
	rnic_cmd_modify_qp_set_rq_psn(c, a->rq_psn);
	rnic_cmd_modify_qp_set_sq_psn(c, a->sq_psn);
	rnic_cmd_modify_qp_set_qkey(c, a->qkey);
	rnic_cmd_modify_qp_set_max_rd_atomic(c, a->max_rd_atomic);
	rnic_cmd_modify_qp_set_max_dest_rd_atomic(c, a->max_dest_rd_atomic);
	rnic_cmd_modify_qp_set_sgid_index(c, a->sgid_index);
	rnic_cmd_modify_qp_set_hop_limit(c, a->hop_limit);
	rnic_cmd_modify_qp_set_traffic_class(c, a->traffic_class);
	rnic_cmd_modify_qp_set_dmac(c, rnic_mac_to_u64(a->dmac));
	rnic_cmd_modify_qp_set_dest_ipv4(c, a->dest_ipv4);
	return exec(q, c);
}

int rnic_cmd_query_qp(struct rnic_cmdq *q, uint32_t qpn, struct rnic_qp_attr *a)
{
	uint8_t c[RNIC_CMD_ENTRY_SIZE];
	int rc;

	cmd_init(c, RNIC_CMD_OP_QUERY_QP);
	rnic_cmd_modify_qp_set_qpn(c, qpn);
	rc = exec(q, c);
	if (rc)
		return rc;
	a->state = rnic_cmd_modify_qp_get_state(c);
	a->cur_state = rnic_cmd_modify_qp_get_cur_state(c);
	a->path_mtu = rnic_cmd_modify_qp_get_path_mtu(c);
	a->timeout = rnic_cmd_modify_qp_get_timeout(c);
	a->retry_cnt = rnic_cmd_modify_qp_get_retry_cnt(c);
	a->rnr_retry = rnic_cmd_modify_qp_get_rnr_retry(c);
	a->min_rnr_timer = rnic_cmd_modify_qp_get_min_rnr_timer(c);
	a->access = rnic_cmd_modify_qp_get_access(c);
	a->dest_qpn = rnic_cmd_modify_qp_get_dest_qpn(c);
	a->rq_psn = rnic_cmd_modify_qp_get_rq_psn(c);
	a->sq_psn = rnic_cmd_modify_qp_get_sq_psn(c);
	a->qkey = rnic_cmd_modify_qp_get_qkey(c);
	a->max_rd_atomic = rnic_cmd_modify_qp_get_max_rd_atomic(c);
	a->max_dest_rd_atomic = rnic_cmd_modify_qp_get_max_dest_rd_atomic(c);
	a->sgid_index = rnic_cmd_modify_qp_get_sgid_index(c);
	a->hop_limit = rnic_cmd_modify_qp_get_hop_limit(c);
	a->traffic_class = rnic_cmd_modify_qp_get_traffic_class(c);
	rnic_u64_to_mac(rnic_cmd_modify_qp_get_dmac(c), a->dmac);
	a->dest_ipv4 = rnic_cmd_modify_qp_get_dest_ipv4(c);
	return 0;
}

int rnic_cmd_destroy_qp(struct rnic_cmdq *q, uint32_t qpn)
{
	return cmd_handle(q, RNIC_CMD_OP_DESTROY_QP, qpn);
}

int rnic_cmd_create_ah(struct rnic_cmdq *q, const struct rnic_create_ah_in *in, uint32_t *ahn)
{
	uint8_t c[RNIC_CMD_ENTRY_SIZE];
	int rc;

	if (!in || in->sgid_index > 0xFF || in->hop_limit > 0xFF || in->traffic_class > 0xFF)
		return -EINVAL;
	cmd_init(c, RNIC_CMD_OP_CREATE_AH);
	rnic_cmd_create_ah_set_pdn(c, in->pdn);
	rnic_cmd_create_ah_set_dest_ipv4(c, in->dest_ipv4);
	rnic_cmd_create_ah_set_sgid_index(c, in->sgid_index);
	rnic_cmd_create_ah_set_hop_limit(c, in->hop_limit);
	rnic_cmd_create_ah_set_traffic_class(c, in->traffic_class);
	rnic_cmd_create_ah_set_dmac(c, rnic_mac_to_u64(in->dmac));
	rc = exec(q, c);
	if (!rc)
		*ahn = rnic_cmd_create_ah_get_ahn(c);
	return rc;
}

int rnic_cmd_destroy_ah(struct rnic_cmdq *q, uint32_t ahn)
{
	return cmd_handle(q, RNIC_CMD_OP_DESTROY_AH, ahn);
}
