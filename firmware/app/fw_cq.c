/* Completion queues: the firmware decides each CQE (CQ, contents) and hands it as a cq_rec to the
 * CQE writer (rtl/cqe_write) through the tightly coupled record ring; the writer keeps each CQ's
 * producer, consumer, arming and error, writes the CQE with the owner bit of the pass, holds a
 * record whose CQ looks full until the firmware answers, and writes the EQ entries (its own
 * completion events and the firmware's event records). */
#include "fw_cq_rec.h"
#include "fw_dma.h"
#include "fw_log.h"
#include "fw_res.h"
#include "fw_xport.h"

#include "hal.h"

#define BUF_DBREC 0xCC0u /* staging-buffer slot for a CQ doorbell record */
#define PI_MASK ((1u << RNIC_CQW_INDEX_BITS) - 1u) /* the CQE writer's producer and consumer */

static void cqw_cmd(uint32_t cqn, uint32_t op, uint32_t arg);

/* A consumer index from a cq_db doorbell (16 bits, extended from the last one) goes to the CQE
 * writer, which takes it if it lies between its known consumer and the producer: a consumer
 * that rings cq_db never costs a doorbell-record read. */
void fw_cq_doorbell(uint32_t cqn, uint32_t index16)
{
	struct fw_cq *cq = &fw_res.cqs[cqn];
	cq->ci += (uint16_t)(index16 - cq->ci);
	cqw_cmd(cqn, RNIC_CQW_OP_CI, cq->ci);
}

/* The host's consumer index: its doorbell record, read by DMA (the doorbell's copy if that
 * fails). */
static __attribute__((noinline)) uint32_t cq_read_ci(struct fw_cq *cq)
{
	FW_LAYOUT_ALIGN uint8_t b[4];

	if (fw_dma_xfer(cq->dbrec_addr, BUF_DBREC, 4, FW_DMA_TO_BUF))
		return cq->ci;
	fw_buf_read(BUF_DBREC, b, 4);
	return cq->ci = rnic_ld_le32(b);
}

/* The CQE writer's record ring: records handed over (free-running, 16 bits like the writer's
 * counters), and its event-record ring. */
uint32_t fw_cqw_prod;
uint32_t fw_cqw_free;
static uint32_t eqw_prod;
#define CQW_MASK FW_CQW_MASK /* the writer's free-running counters */
#define CQW_SPIN 200000u /* bounded waits: far longer than any CQE write (a PCIe posted write) */
_Static_assert(RNIC_CQW_STATUS_ERRORS_MASK == CQW_MASK, "cqw_status.errors wraps as the other counters");


/* The writer's command and ring registers are shared: the previous command (cqw_cmd or
 * cqw_cq_cfg) must have been taken before the next is written (bounded wait). */
static void cqw_cmd_taken(void)
{
	for (uint32_t i = 0; i < CQW_SPIN && (rnic_cqw_status_v_cmd(hal_tc_rd32(RNIC_FW_TC_CQW_STATUS))); i++)
		;
}

/* One command to the writer (spec cqw_cmd). */
static void cqw_cmd(uint32_t cqn, uint32_t op, uint32_t arg)
{
	cqw_cmd_taken();
	hal_tc_wr32(RNIC_FW_TC_CQW_CMD_ARG, arg & PI_MASK);
	hal_tc_wr32(RNIC_FW_TC_CQW_CMD, rnic_cqw_cmd_mk_cqn(cqn) | rnic_cqw_cmd_mk_op(op));
}

/* db_cq_arm: one event after the host's consumer index. The writer gives it at once when CQEs
 * past that index were already written ("arm, poll once, sleep" must not sleep on CQEs written
 * after the host's last poll but before its arm reached us), else at the next CQE (any) or the
 * next solicited or failed one (solicited). The index is the doorbell record's: read for an
 * any-arm (whether pending CQEs were solicited is not kept, so a solicited arm waits anyway). */
void fw_cq_arm(uint32_t cqn, int solicited)
{
	struct fw_cq *cq = &fw_res.cqs[cqn];
	uint32_t ci = solicited ? cq->ci : cq_read_ci(cq);
	cqw_cmd(cqn, solicited ? RNIC_CQW_OP_ARM_SOLICITED : RNIC_CQW_OP_ARM_ANY, ci);
}

/* At boot: the CQE writer keeps its counts across a firmware reload (only a device reset
 * clears them), so a new image continues from them instead of from 0 (with 0 every drain after
 * a reload timed out and the record slots were reused under the writer). */
static void cqw_errors_init(void);
void fw_cqw_init(void)
{
	fw_cqw_prod = hal_tc_rd32(RNIC_FW_TC_CQW_PROD) & CQW_MASK;
	fw_cqw_free = 0; /* read from the writer at the first record */
	eqw_prod = hal_tc_rd32(RNIC_FW_TC_EQW_PROD) & CQW_MASK;
	cqw_errors_init();
}

int fw_cqw_drain(void)
{
	for (uint32_t i = 0; i < CQW_SPIN; i++) {
		if (fw_cqw_done() == fw_cqw_prod)
			return 0;
		fw_cqw_check(); /* a record held on a full CQ waits for our answer */
	}
	fw_log("cqw: drain timed out");
	return -1;
}

void fw_cqw_program(uint32_t n, uint64_t buf, uint32_t log_size)
{
	fw_cqw_drain();
	cqw_cmd_taken();
	hal_tc_wr32(RNIC_FW_TC_CQW_CQ_BASE_LO, (uint32_t)buf);
	hal_tc_wr32(RNIC_FW_TC_CQW_CQ_BASE_HI, (uint32_t)(buf >> 32));
	hal_tc_wr32(RNIC_FW_TC_CQW_CQ_CFG, rnic_cqw_cq_cfg_mk_cqn(n) | rnic_cqw_cq_cfg_mk_log_size(log_size));
}

/* DESTROY_CQ: the writer drops whatever of this CQ is still queued (a record held on it too),
 * then every earlier record lands before the host frees the ring. */
void fw_cqw_retire(uint32_t n)
{
	cqw_cmd(n, RNIC_CQW_OP_ERR, 0);
	fw_cqw_drain();
}

/* Waits (bounded) only when all slots are still in flight. */
static __attribute__((noinline)) int cqw_wait_slot(void)
{
	for (uint32_t i = 0; i < CQW_SPIN; i++) {
		uint32_t used = (fw_cqw_prod - fw_cqw_done()) & CQW_MASK;
		if (used < RNIC_FW_TC_CQ_REC_NUM) {
			fw_cqw_free = RNIC_FW_TC_CQ_REC_NUM - used; /* the store after this counts it down */
			return 0;
		}
		fw_cqw_check();
	}
	fw_log("cqw: record ring stuck");
	return -1;
}

/* The cq_rec (= the cqe's bytes 0-29, then the CQN) as eight words in registers: the record is stored
 * straight into its slot, no buffer in between (fw_cqe_put). */
_Static_assert(RNIC_CQE_WR_ID_OFF == 0 && RNIC_CQE_BYTE_LEN_OFF == 8 && RNIC_CQE_IMM_DATA_OFF == 12 &&
		       RNIC_CQE_QPN_OFF == 16 && RNIC_CQE_SRC_QP_OFF == 20 && RNIC_CQE_STATUS_OFF == 24 &&
		       RNIC_CQE_OPCODE_OFF == 25 && RNIC_CQE_FLAGS_OFF == 26 && RNIC_CQE_WQE_INDEX_OFF == 28 &&
		       RNIC_CQ_REC_CQN_OFF == 30 && RNIC_CQ_REC_SIZE == 32,
	       "cq_rec words: wr_id, byte_len, imm, qpn, src_qp, status|opcode|flags, wqe_index|cqn");


/* The CQ goes to error in the writer (its later records dropped, a held one too) and the host
 * hears of it once by CQ_ERROR, which the writer puts after every CQE handed before it. */
static __attribute__((noinline)) void cq_to_error(struct fw_cq *cq, uint32_t cqn, const char *why)
{
	if (cq->overflow)
		return;
	cq->overflow = 1;
	fw_log("cq %u: %s", (unsigned)cqn, why);
	cqw_cmd(cqn, RNIC_CQW_OP_ERR, 0);
	fw_eq_post(RNIC_EQ_TYPE_CQ_ERROR, 0, cqn, 0);
}

/* The writer holds a record whose CQ looks full (producer - consumer = size): the consumer is
 * read from the host's doorbell record; room gives the writer that consumer (it checks again),
 * none is an overrun (IBTA 10.10.2.3 / 11.6.3): the CQ goes to error, the completion is lost,
 * nothing in the ring is overwritten. A consumer outside the ring's last size entries before
 * the producer is bogus and counts as no room. */
static __attribute__((noinline)) void cqw_hold(void)
{
	uint32_t full = hal_tc_rd32(RNIC_FW_TC_CQW_FULL), cqn = rnic_cqw_full_v_cqn(full);
	uint32_t pi = hal_tc_rd32(RNIC_FW_TC_CQW_FULL_PI) & PI_MASK;

	if (!rnic_cqw_full_v_held(full))
		return;
	if (cqn == 0 || cqn >= FW_MAX_CQ || !fw_res.cqs[cqn].used) {
		cqw_cmd(cqn, RNIC_CQW_OP_ERR, 0); /* no CQ of ours: nothing to write it to */
		return;
	}
	struct fw_cq *cq = &fw_res.cqs[cqn];
	uint32_t ci = cq_read_ci(cq), used = (pi - ci) & PI_MASK;
	if (used < (1u << cq->log_size)) {
		cqw_cmd(cqn, RNIC_CQW_OP_CI, ci);
		return;
	}
	cq_to_error(cq, cqn, "overflow");
}

/* CQE writes the bus answered with an error (cqw_status counts them; the writer's error FIFO,
 * cqw_err_cqn, names the CQ of each): those CQEs are lost, so each such CQ is in error as for an
 * overrun (IBTA 11.6.3, CQ error). Every entry is popped, so CQs failing close together all go
 * to error; errors the full FIFO could not name are logged. cqw_named: errors whose entry was
 * popped (16 bits, as the count). */
static uint32_t cqw_errs_seen, cqw_named;

/* Pops the waiting error entries (at most a FIFO's worth); each CQ goes to error when cq_err. */
static void cqw_pop_errors(int cq_err)
{
	for (uint32_t i = 0; i < RNIC_FW_TC_CQ_REC_NUM; i++) {
		uint32_t v = hal_tc_rd32(RNIC_FW_TC_CQW_ERR_CQN), cqn = rnic_cqw_err_cqn_v_cqn(v);
		if (!rnic_cqw_err_cqn_v_valid(v))
			return;
		hal_tc_wr32(RNIC_FW_TC_CQW_ERR_POP, 0);
		cqw_named = (cqw_named + 1) & CQW_MASK;
		if (cq_err && cqn != 0 && cqn < FW_MAX_CQ && fw_res.cqs[cqn].used)
			cq_to_error(&fw_res.cqs[cqn], cqn, "CQE write failed on the bus");
	}
}

static __attribute__((noinline)) void cqw_bus_error(uint32_t errs)
{
	cqw_errs_seen = errs;
	cqw_pop_errors(1);
	/* entries are pushed with the count, so fewer popped than counted means the FIFO was full */
	uint32_t lost = (errs - cqw_named) & CQW_MASK;
	if (lost && lost < 0x8000u) {
		fw_log("cqw: %u CQE write errors without a CQ (error FIFO full)", (unsigned)lost);
		cqw_named = errs;
	}
}

/* At boot: errors from before a reload name CQs of the old image: forgotten. */
static void cqw_errors_init(void)
{
	cqw_errs_seen = cqw_named = rnic_cqw_status_v_errors(hal_tc_rd32(RNIC_FW_TC_CQW_STATUS));
	cqw_pop_errors(0);
	cqw_named = cqw_errs_seen;
}

/* A held record, bus errors; not re-entered (answering a hold posts an event, whose wait calls
 * fw_cqw_check). */
static int cqw_in_check;
static __attribute__((noinline)) void cqw_check_slow(uint32_t st)
{
	if (cqw_in_check)
		return;
	cqw_in_check = 1;
	if (rnic_cqw_status_v_errors(st) != cqw_errs_seen)
		cqw_bus_error(rnic_cqw_status_v_errors(st));
	if (rnic_cqw_status_v_held(st))
		cqw_hold();
	cqw_in_check = 0;
}

/* From the main loop and every wait on the writer: one load and one compare when there is
 * nothing (cqw_errs_seen never has the held bit, so a hold differs too); small enough to inline
 * into the main loop. */
void fw_cqw_check(void)
{
	uint32_t st = hal_tc_rd32(RNIC_FW_TC_CQW_STATUS);
	if ((st & (RNIC_CQW_STATUS_ERRORS_MASK | RNIC_CQW_STATUS_HELD_MASK)) != cqw_errs_seen)
		cqw_check_slow(st);
}

/* Events: one eq_entry-shaped record into the writer's event ring; the writer puts it into the
 * EQ after every CQE handed before it (and raises the MSI-X when the host armed the EQ). The
 * wait for a free slot is bounded; from the trap handler (panicking) it answers no hold. */
int fw_eqw_post(uint32_t type, uint32_t subtype, uint32_t handle, uint32_t data, int panicking)
{
	uint32_t i = 0;
	for (; i < CQW_SPIN; i++) {
		if (((eqw_prod - hal_tc_rd32(RNIC_FW_TC_EQW_CONS)) & CQW_MASK) < RNIC_FW_TC_EV_REC_NUM)
			break;
		if (!panicking)
			fw_cqw_check();
	}
	if (i == CQW_SPIN)
		return -1;
	uint32_t slot = RNIC_FW_TC_EV_REC_BASE + (eqw_prod % RNIC_FW_TC_EV_REC_NUM) * RNIC_EQ_ENTRY_SIZE;
	_Static_assert(RNIC_EQ_ENTRY_EVENT_TYPE_OFF == 0 && RNIC_EQ_ENTRY_SUBTYPE_OFF == 1 &&
			       RNIC_EQ_ENTRY_HANDLE_OFF == 4 && RNIC_EQ_ENTRY_DATA_OFF == 8,
		       "eq_entry words: type|subtype, handle, data");
	hal_tc_wr32_at(slot, 0, (type & 0xFFu) | (subtype & 0xFFu) << 8);
	hal_tc_wr32_at(slot, 1, handle);
	hal_tc_wr32_at(slot, 2, data);
	eqw_prod = (eqw_prod + 1) & CQW_MASK;
	hal_tc_wr32(RNIC_FW_TC_EQW_PROD, eqw_prod);
	return 0;
}

static __attribute__((noinline)) int cqe_put_slow(uint32_t w7, uint64_t wr_id, uint32_t byte_len, uint32_t imm,
						  uint32_t qpn, uint32_t src_qp, uint32_t w6)
{
	uint32_t cqn = w7 >> 16;

	if (cqn == 0 || cqn >= FW_MAX_CQ || !fw_res.cqs[cqn].used || cqw_wait_slot())
		return -1;
	fw_cq_rec_store(w7, wr_id, byte_len, imm, qpn, src_qp, w6);
	return 0;
}

/* The common case: a known CQ and a free record slot; the writer decides room, error and the
 * armed CQ's event. */
int fw_cqe_put(uint32_t w7, uint64_t wr_id, uint32_t byte_len, uint32_t imm, uint32_t qpn, uint32_t src_qp,
	       uint32_t w6)
{
	if (!fw_cq_rec_room(w7 >> 16))
		return cqe_put_slow(w7, wr_id, byte_len, imm, qpn, src_qp, w6);
	fw_cq_rec_store(w7, wr_id, byte_len, imm, qpn, src_qp, w6);
	return 0;
}

int fw_cqe_write(uint32_t cqn, const uint8_t *cqe)
{
	const uint8_t *q = RNIC_ASSUME_ALIGNED(cqe, 4);
	return fw_cqe_put(FW_CQ_REC_W7(cqn, rnic_cqe_get_wqe_index(q)), rnic_cqe_get_wr_id(q), rnic_ld_le32(q + 8),
			  rnic_ld_le32(q + 12), rnic_ld_le32(q + 16), rnic_ld_le32(q + 20), rnic_ld_le32(q + 24));
}
