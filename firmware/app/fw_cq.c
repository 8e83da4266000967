/* Completion queues: the firmware decides each CQE (CQ, contents, overrun, arming) and hands it
 * as a cq_rec to the CQE writer (rtl/cqe_write) through the tightly coupled record ring; the
 * writer adds the owner bit of the pass and DMA-writes it at the CQ's producer slot. */
#include "fw_dma.h"
#include "fw_log.h"
#include "fw_res.h"
#include "fw_xport.h"

#include "hal.h"

#define BUF_DBREC 0xCC0u /* staging-buffer slot for a CQ doorbell record */

/* Takes a consumer index the host reported; one that is behind what we know or ahead of the
 * producer is stale or bogus and ignored (the window is the ring, far below 2^31). */
static void cq_learn_ci(struct fw_cq *cq, uint32_t ci)
{
	if ((int32_t)(ci - cq->ci) > 0 && (int32_t)(cq->pi - ci) >= 0)
		cq->ci = ci;
}

void fw_cq_doorbell(uint32_t cqn, uint32_t index16)
{
	struct fw_cq *cq = &fw_res.cqs[cqn];
	cq_learn_ci(cq, cq->ci + (uint16_t)(index16 - cq->ci));
}

/* Is there room for one more CQE? The consumer index is read from the host's doorbell record
 * only when the ring looks full, so a consumer that keeps up costs no DMA. */
static __attribute__((noinline)) int cq_room_reread(struct fw_cq *cq)
{
	FW_LAYOUT_ALIGN uint8_t b[4];

	if (fw_dma_xfer(cq->dbrec_addr, BUF_DBREC, 4, FW_DMA_TO_BUF))
		return 0;
	fw_buf_read(BUF_DBREC, b, 4);
	cq_learn_ci(cq, rnic_ld_le32(b));
	return cq->pi - cq->ci < (1u << cq->log_size);
}

static inline int cq_room(struct fw_cq *cq)
{
	return cq->pi - cq->ci < (1u << cq->log_size) || cq_room_reread(cq);
}

/* db_cq_arm: one event after the last consumer index. CQEs written after the host's last poll
 * but before its arm reached us (a doorbell is a posted write, and the guest transport's are
 * late) give the event at once: "arm, poll once, sleep" would otherwise sleep on them forever.
 * The consumer index is the doorbell record's, read when ours says CQEs are pending. A
 * solicited-only arm waits for the next CQE: whether the pending ones were solicited is not
 * kept. */
void fw_cq_arm(uint32_t cqn, int solicited)
{
	struct fw_cq *cq = &fw_res.cqs[cqn];

	if (!solicited && cq->pi != cq->ci) {
		cq_room_reread(cq);
		if (cq->pi != cq->ci) {
			cq->armed = 0;
			fw_cqw_drain(); /* the event must not overtake its CQEs */
			fw_eq_post(RNIC_EQ_TYPE_COMPLETION, 0, cqn, 0);
			return;
		}
	}
	cq->armed = solicited ? FW_CQ_ARM_SOLICITED : FW_CQ_ARM_ANY;
}

/* The CQE writer's record ring: records handed over (free-running, 16 bits like the writer's
 * counters). */
static uint32_t cqw_prod;
#define CQW_MASK 0xFFFFu
#define CQW_SPIN 200000u /* bounded waits: far longer than any CQE write (a PCIe posted write) */

static uint32_t cqw_done(void) { return hal_tc_rd32(RNIC_FW_TC_CQW_CONS) & CQW_MASK; }

/* At boot: the CQE writer keeps its counts across a firmware reload (only a device reset
 * clears them), so a new image continues from them instead of from 0 (with 0 every drain after
 * a reload timed out and the record slots were reused under the writer). */
static void cqw_errors_init(void);
void fw_cqw_init(void)
{
	cqw_prod = hal_tc_rd32(RNIC_FW_TC_CQW_PROD) & CQW_MASK;
	cqw_errors_init();
}

int fw_cqw_drain(void)
{
	for (uint32_t i = 0; i < CQW_SPIN; i++)
		if (cqw_done() == cqw_prod)
			return 0;
	fw_log("cqw: drain timed out");
	return -1;
}

void fw_cqw_program(uint32_t n, uint64_t buf, uint32_t log_size)
{
	fw_cqw_drain();
	hal_tc_wr32(RNIC_FW_TC_CQW_CQ_BASE_LO, (uint32_t)buf);
	hal_tc_wr32(RNIC_FW_TC_CQW_CQ_BASE_HI, (uint32_t)(buf >> 32));
	hal_tc_wr32(RNIC_FW_TC_CQW_CQ_CFG, n | log_size << 16);
}

/* Hands one CQE (bytes 0-29 as the spec's cqe, i.e. cq_rec) to the writer: eight one-cycle
 * stores and the producer count. Waits (bounded) only when all slots are still in flight. */
static __attribute__((noinline)) int cqw_wait_slot(void)
{
	for (uint32_t i = 0; i < CQW_SPIN; i++)
		if (((cqw_prod - cqw_done()) & CQW_MASK) < RNIC_FW_TC_CQ_REC_NUM)
			return 0;
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

static inline void cqw_store(uint32_t w7, uint64_t wr_id, uint32_t byte_len, uint32_t imm, uint32_t qpn,
			     uint32_t src_qp, uint32_t w6)
{
	uint32_t slot = RNIC_FW_TC_CQ_REC_BASE + (cqw_prod % RNIC_FW_TC_CQ_REC_NUM) * RNIC_CQ_REC_SIZE;
	/* eight one-cycle stores, no copy */
	hal_tc_wr32_at(slot, 0, (uint32_t)wr_id);
	hal_tc_wr32_at(slot, 1, (uint32_t)(wr_id >> 32));
	hal_tc_wr32_at(slot, 2, byte_len);
	hal_tc_wr32_at(slot, 3, imm);
	hal_tc_wr32_at(slot, 4, qpn);
	hal_tc_wr32_at(slot, 5, src_qp);
	hal_tc_wr32_at(slot, 6, w6);
	hal_tc_wr32_at(slot, 7, w7);
	cqw_prod = (cqw_prod + 1) & CQW_MASK;
	hal_tc_wr32(RNIC_FW_TC_CQW_PROD, cqw_prod);
}

/* The CQ goes to error (later CQEs dropped) and the host hears of it once by CQ_ERROR. */
static __attribute__((noinline)) void cq_to_error(struct fw_cq *cq, uint32_t cqn, const char *why)
{
	if (cq->overflow)
		return;
	cq->overflow = 1;
	fw_log("cq %u: %s", (unsigned)cqn, why);
	fw_cqw_drain(); /* the CQEs before it land first */
	fw_eq_post(RNIC_EQ_TYPE_CQ_ERROR, 0, cqn, 0);
}

static __attribute__((noinline)) int cq_overrun(struct fw_cq *cq, uint32_t cqn)
{
	cq_to_error(cq, cqn, "overflow");
	cq->dropped++;
	return -1;
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
		uint32_t v = hal_tc_rd32(RNIC_FW_TC_CQW_ERR_CQN), cqn = v & CQW_MASK;
		if (!(v >> 31))
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
	cqw_errs_seen = cqw_named = hal_tc_rd32(RNIC_FW_TC_CQW_STATUS) & CQW_MASK;
	cqw_pop_errors(0);
	cqw_named = cqw_errs_seen;
}

void fw_cqw_check(void)
{
	uint32_t errs = hal_tc_rd32(RNIC_FW_TC_CQW_STATUS) & CQW_MASK;
	if (errs != cqw_errs_seen)
		cqw_bus_error(errs);
}

/* Every case but the common one: an unknown CQ, overrun, a ring that looks full (its consumer
 * index read again), no free record slot, an armed CQ (the event after the CQE). */
static __attribute__((noinline)) int cqe_put_slow(uint32_t w7, uint64_t wr_id, uint32_t byte_len, uint32_t imm,
						  uint32_t qpn, uint32_t src_qp, uint32_t w6)
{
	uint32_t cqn = w7 >> 16;
	struct fw_cq *cq;

	if (cqn == 0 || cqn >= FW_MAX_CQ || !fw_res.cqs[cqn].used)
		return -1;
	cq = &fw_res.cqs[cqn];
	/* Overrun (IBTA 10.10.2.3 / 11.6.3): the CQ goes to error and the host hears of it once
	 * by a CQ_ERROR event; the completion is lost, nothing in the ring is overwritten. */
	if (cq->overflow || !cq_room(cq))
		return cq_overrun(cq, cqn);
	if (((cqw_prod - cqw_done()) & CQW_MASK) >= RNIC_FW_TC_CQ_REC_NUM && cqw_wait_slot())
		return -1;
	cqw_store(w7, wr_id, byte_len, imm, qpn, src_qp, w6);
	cq->pi++;
	fw_perf.cqes++;
	/* An armed CQ gives one completion event: for any CQE, or (solicited arming) for a
	 * solicited or failed one (status: w6 bits 7:0, flags: bits 23:16). */
	if (cq->armed == FW_CQ_ARM_ANY ||
	    (cq->armed == FW_CQ_ARM_SOLICITED && (((w6 >> 16) & (1u << RNIC_CQE_FLAG_SOLICITED)) ||
						  (w6 & 0xFFu) != RNIC_WC_STATUS_SUCCESS))) {
		cq->armed = 0;
		fw_cqw_drain(); /* the event must not overtake its CQE */
		fw_eq_post(RNIC_EQ_TYPE_COMPLETION, 0, cqn, 0);
	}
	return 0;
}

/* The common case calls nothing, so it saves no registers: a known CQ with room, not in error,
 * not armed, and a free record slot; everything else is cqe_put_slow. */
int fw_cqe_put(uint32_t w7, uint64_t wr_id, uint32_t byte_len, uint32_t imm, uint32_t qpn, uint32_t src_qp,
	       uint32_t w6)
{
	uint32_t cqn = w7 >> 16;
	struct fw_cq *cq = &fw_res.cqs[cqn < FW_MAX_CQ ? cqn : 0];

	if (cqn == 0 || cqn >= FW_MAX_CQ || !cq->used || cq->overflow || cq->armed ||
	    cq->pi - cq->ci >= (1u << cq->log_size) || ((cqw_prod - cqw_done()) & CQW_MASK) >= RNIC_FW_TC_CQ_REC_NUM)
		return cqe_put_slow(w7, wr_id, byte_len, imm, qpn, src_qp, w6);
	cqw_store(w7, wr_id, byte_len, imm, qpn, src_qp, w6);
	cq->pi++;
	fw_perf.cqes++;
	return 0;
}

int fw_cqe_write(uint32_t cqn, const uint8_t *cqe)
{
	const uint8_t *q = RNIC_ASSUME_ALIGNED(cqe, 4);
	return fw_cqe_put(FW_CQ_REC_W7(cqn, rnic_cqe_get_wqe_index(q)), rnic_cqe_get_wr_id(q), rnic_ld_le32(q + 8),
			  rnic_ld_le32(q + 12), rnic_ld_le32(q + 16), rnic_ld_le32(q + 20), rnic_ld_le32(q + 24));
}
