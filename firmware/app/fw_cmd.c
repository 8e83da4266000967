/* Command handler: validates every argument, answers with a status, never stops serving. */
#include "fw_cmd.h"

#include "fw_dma.h"
#include "fw_log.h"
#include "fw_panic.h"
#include "fw_res.h"
#include "fw_xport.h"
#include "hal.h"

#define BUF_CMD 0u     /* staging-buffer offset of the command being served */
#define BUF_DONE 64u   /* the first 8 bytes again, with done set */

#define pd_used fw_res.pd_used
#define uctx_used fw_res.uctx_used
#define gids fw_res.gids

static uint32_t cons;

void fw_cmd_init(void)
{
	fw_res_init();
	cons = hal_rd32(RNIC_FW_REG_CMDQ_CONS);
}

/* Lowest free handle of a table, or 0 when full. */
static uint32_t handle_get(uint8_t *used, uint32_t n)
{
	for (uint32_t i = 1; i < n; i++)
		if (!used[i]) {
			used[i] = 1;
			return i;
		}
	return 0;
}

static uint32_t handle_put(uint8_t *used, uint32_t n, uint32_t h)
{
	if (h == 0 || h >= n || !used[h])
		return RNIC_CMD_STATUS_BAD_HANDLE;
	used[h] = 0;
	return RNIC_CMD_STATUS_OK;
}

static void clear_params(uint8_t *e)
{
	for (uint32_t i = 8; i < RNIC_CMD_ENTRY_SIZE; i++)
		e[i] = 0;
}

uint32_t fw_cmd_exec(uint8_t *e)
{
	uint32_t h;

	switch (rnic_cmd_entry_get_opcode(e)) {
	case RNIC_CMD_OP_NOP:
		return RNIC_CMD_STATUS_OK;
	case RNIC_CMD_OP_QUERY_DEVICE:
		clear_params(e);
		rnic_cmd_query_device_set_fw_version(e, FW_VERSION);
		rnic_cmd_query_device_set_max_qp(e, FW_MAX_QP - FW_FIRST_QPN);
		rnic_cmd_query_device_set_max_cq(e, FW_MAX_CQ - 1);
		rnic_cmd_query_device_set_max_mr(e, FW_MAX_MR - 1);
		rnic_cmd_query_device_set_max_pd(e, FW_MAX_PD - 1);
		rnic_cmd_query_device_set_max_qp_wr(e, 1u << 15);
		rnic_cmd_query_device_set_max_cqe(e, 1u << 16);
		rnic_cmd_query_device_set_max_sge(e, RNIC_MAX_SGE);
		rnic_cmd_query_device_set_max_inline(e, 128 / 4);
		rnic_cmd_query_device_set_max_rd_atomic(e, RNIC_MAX_RD_ATOMIC);
		rnic_cmd_query_device_set_page_size_cap(e, (1u << 12) | (1u << 21));
		rnic_cmd_query_device_set_max_mr_size_log2(e, 40);
		rnic_cmd_query_device_set_num_uctx(e, FW_MAX_UCTX - 1);
		return RNIC_CMD_STATUS_OK;
	case RNIC_CMD_OP_QUERY_COUNTERS:
		clear_params(e);
		rnic_cmd_query_counters_set_sq_wqes(e, fw_perf.sq_wqes);
		rnic_cmd_query_counters_set_cqes(e, fw_perf.cqes);
		rnic_cmd_query_counters_set_db_cycles(e, fw_perf.db_cycles);
		rnic_cmd_query_counters_set_ev_cycles(e, fw_perf.ev_cycles);
		rnic_cmd_query_counters_set_doorbells(e, fw_perf.doorbells);
		rnic_cmd_query_counters_set_events(e, fw_perf.events);
		rnic_cmd_query_counters_set_now_cycles(e, hal_cycles());
		rnic_cmd_query_counters_set_db_max_cycles(e, fw_perf.db_max);
		rnic_cmd_query_counters_set_ev_max_cycles(e, fw_perf.ev_max);
		rnic_cmd_query_counters_set_bf_wqes(e, fw_perf.bf_wqes);
		rnic_cmd_query_counters_set_bf_misses(e, fw_perf.bf_misses);
		return RNIC_CMD_STATUS_OK;
	case RNIC_CMD_OP_QUERY_RESOURCES:
		return fw_cmd_query_resources(e);
	case RNIC_CMD_OP_QUERY_PORT:
		clear_params(e);
		rnic_cmd_query_port_set_state(e, 4); /* ACTIVE */
		rnic_cmd_query_port_set_max_mtu(e, 5);
		rnic_cmd_query_port_set_active_mtu(e, 5);
		rnic_cmd_query_port_set_gid_tbl_len(e, FW_NUM_GIDS);
		rnic_cmd_query_port_set_speed_gbps(e, 100);
		rnic_cmd_query_port_set_mac(e, gids[0].valid ? gids[0].mac : 0);
		return RNIC_CMD_STATUS_OK;
	case RNIC_CMD_OP_SET_GID:
		h = rnic_cmd_set_gid_get_index(e);
		if (h >= FW_NUM_GIDS || (rnic_cmd_set_gid_get_mac(e) >> 48) != 0)
			return RNIC_CMD_STATUS_BAD_PARAM;
		gids[h].ipv4 = rnic_cmd_set_gid_get_ipv4(e);
		gids[h].mac = rnic_cmd_set_gid_get_mac(e);
		gids[h].valid = 1;
		return RNIC_CMD_STATUS_OK;
	case RNIC_CMD_OP_ALLOC_PD:
		if (rnic_cmd_pd_get_uctx(e) >= FW_MAX_UCTX ||
		    (rnic_cmd_pd_get_uctx(e) && !uctx_used[rnic_cmd_pd_get_uctx(e)]))
			return RNIC_CMD_STATUS_BAD_HANDLE;
		h = handle_get(pd_used, FW_MAX_PD);
		if (!h)
			return RNIC_CMD_STATUS_NO_RESOURCES;
		rnic_cmd_pd_set_pdn(e, h);
		return RNIC_CMD_STATUS_OK;
	case RNIC_CMD_OP_DEALLOC_PD:
		if (rnic_cmd_pd_get_pdn(e) < FW_MAX_PD && rnic_cmd_pd_get_pdn(e) &&
		    (fw_pd_in_use(rnic_cmd_pd_get_pdn(e)) || fw_pd_has_mr(rnic_cmd_pd_get_pdn(e)) ||
		     fw_pd_has_ah(rnic_cmd_pd_get_pdn(e))))
			return RNIC_CMD_STATUS_BUSY;
		return handle_put(pd_used, FW_MAX_PD, rnic_cmd_pd_get_pdn(e));
	case RNIC_CMD_OP_ALLOC_UCTX:
		h = handle_get(uctx_used, FW_MAX_UCTX);
		if (!h)
			return RNIC_CMD_STATUS_NO_RESOURCES;
		rnic_cmd_uctx_set_uctx(e, h);
		return RNIC_CMD_STATUS_OK;
	case RNIC_CMD_OP_DEALLOC_UCTX:
		/* A freed context is handed out again: its doorbell page must not still ring a
		 * live QP's doorbells, nor its CQs take their consumer index from it. */
		h = rnic_cmd_uctx_get_uctx(e);
		if (h && h < FW_MAX_UCTX && uctx_used[h] && fw_uctx_in_use(h))
			return RNIC_CMD_STATUS_BUSY;
		return handle_put(uctx_used, FW_MAX_UCTX, rnic_cmd_uctx_get_uctx(e));
	case RNIC_CMD_OP_REG_MR:
		return fw_cmd_reg_mr(e);
	case RNIC_CMD_OP_DEREG_MR:
		return fw_cmd_dereg_mr(e);
	case RNIC_CMD_OP_CREATE_CQ:
		return fw_cmd_create_cq(e);
	case RNIC_CMD_OP_DESTROY_CQ:
		return fw_cmd_destroy_cq(e);
	case RNIC_CMD_OP_CREATE_QP:
		return fw_cmd_create_qp(e);
	case RNIC_CMD_OP_MODIFY_QP:
		return fw_cmd_modify_qp(e);
	case RNIC_CMD_OP_QUERY_QP:
		return fw_cmd_query_qp(e);
	case RNIC_CMD_OP_DESTROY_QP:
		return fw_cmd_destroy_qp(e);
	case RNIC_CMD_OP_CREATE_AH:
		return fw_cmd_create_ah(e);
	case RNIC_CMD_OP_DESTROY_AH:
		return fw_cmd_destroy_ah(e);
#ifdef FW_TEST_HOOKS
	case RNIC_CMD_OP_TEST_FAULT:
		/* Test images only (a production image has no such command): the faults the host's
		 * recovery must survive. Neither returns. */
		if (rnic_cmd_test_fault_get_kind(e) == RNIC_TEST_FAULT_PANIC)
			__asm__ volatile(".word 0"); /* illegal instruction: trap, panic record */
		for (;;)
			__asm__ volatile(""); /* stuck: the heartbeat stops, the watchdog fires */
#endif
	default:
		/* Unknown opcodes (0x04 and 0x14 included: left free, see the spec). */
		return RNIC_CMD_STATUS_BAD_OPCODE;
	}
}

/* Serves one slot; a DMA failure is reported through the log and ctrl.dev_err (CMDQ_READ /
 * CMDQ_WRITE, with its MSI-X: the host's wait gives up with a device error instead of timing
 * out), and the slot is skipped so the queue keeps moving. */
static void serve_slot(uint64_t addr)
{
	FW_LAYOUT_ALIGN uint8_t e[RNIC_CMD_ENTRY_SIZE];

	if (fw_dma_xfer(addr, BUF_CMD, RNIC_CMD_ENTRY_SIZE, FW_DMA_TO_BUF)) {
		fw_log("cmd: fetch from %08x%08x failed", (unsigned)(addr >> 32), (unsigned)addr);
		hal_wr32(RNIC_FW_REG_DEV_ERR_SET, 1u << RNIC_DEV_ERR_BIT_CMDQ_READ);
		return;
	}
	fw_buf_read(BUF_CMD, e, RNIC_CMD_ENTRY_SIZE);
	uint32_t status = fw_cmd_exec(e);
	rnic_cmd_entry_set_status(e, status);
	rnic_cmd_entry_set_done(e, 0);
	fw_buf_write(BUF_CMD, e, RNIC_CMD_ENTRY_SIZE);
	/* Outputs and status first, then the header word again with done set: the host may act
	 * as soon as it sees done. Writes of one client reach host memory in order. */
	rnic_cmd_entry_set_done(e, 1);
	fw_buf_write(BUF_DONE, e, 8);
	if (fw_dma_xfer(addr, BUF_CMD, RNIC_CMD_ENTRY_SIZE, FW_DMA_TO_HOST) ||
	    fw_dma_xfer(addr, BUF_DONE, 8, FW_DMA_TO_HOST)) {
		fw_log("cmd: completion to %08x%08x failed", (unsigned)(addr >> 32), (unsigned)addr);
		hal_wr32(RNIC_FW_REG_DEV_ERR_SET, 1u << RNIC_DEV_ERR_BIT_CMDQ_WRITE);
		return;
	}
	if (rnic_cmd_entry_get_flags(e) & (1u << RNIC_CMD_FLAG_EVENT))
		fw_eq_post(RNIC_EQ_TYPE_CMD_DONE, status, rnic_cmd_entry_get_token(e), 0);
}

uint32_t fw_cmd_poll(void)
{
	/* The producer count first: the idle main loop then costs one MMIO load here, not four,
	 * and picks doorbells up sooner. */
	uint32_t prod = hal_rd32(RNIC_FW_REG_CMDQ_PROD);
	if (prod == cons)
		return 0;
	uint32_t log_size = hal_rd32(RNIC_FW_REG_CMDQ_LOG_SIZE);
	uint32_t n = 0;

	if (log_size == 0 || log_size > 12)
		return 0;
	uint64_t base = ((uint64_t)hal_rd32(RNIC_FW_REG_CMDQ_BASE_HI) << 32) | hal_rd32(RNIC_FW_REG_CMDQ_BASE_LO);
	while (cons != prod) {
		serve_slot(base + (uint64_t)(cons & ((1u << log_size) - 1)) * RNIC_CMD_ENTRY_SIZE);
		cons++;
		n++;
		hal_wr32(RNIC_FW_REG_CMDQ_CONS, cons);
	}
	return n;
}
