/* Send queues, the send-retirement engine's firmware side: records, operations and the lazy
 * freeing of the firmware's own records (docs/decisions/send-retire.md, "Stage 2"). */
#include "fw_core.h"
#include "fw_log.h"
#include "fw_sq_ack.h"
#include "fw_sq_priv.h"
#include "fw_sq_rec.h"
#include "fw_sq_srt.h"
#include "fw_sq_txb.h"

uint8_t fw_srt_ok, fw_srt_off;
struct srt_head srt_hd;

/* the firmware operations handed to the engine, mod 2^16 (srt_status.fw_done counts them done) */
static uint16_t srt_issued;

/* Bounded waits for the engine's ports and answers: its operations take a few cycles, but a walk
 * may wait for the CQE writer, which holds a record whose CQ looks full until the firmware
 * answers (fw_cqw_check, called while waiting). */
#define SRT_SPIN 200000u
#define SRT_REC_POLLS 16u

_Static_assert(RNIC_SR_CMD_QPN_OFF == 0 && RNIC_SR_CMD_OP_OFF == 3 && RNIC_SR_CMD_PSN_OFF == 4 &&
		       RNIC_SR_CMD_STATUS_OFF == 7,
	       "sr_cmd words: qpn | op << 24, psn | status << 24");
_Static_assert(RNIC_SR_REC_WR_ID_OFF == 0 && RNIC_SR_REC_BYTE_LEN_OFF == 8 && RNIC_SR_REC_FIRST_PSN_OFF == 12 &&
		       RNIC_SR_REC_FLAGS_OFF == 15 && RNIC_SR_REC_LAST_PSN_OFF == 16 && RNIC_SR_REC_OPCODE_OFF == 19 &&
		       RNIC_SR_REC_WQE_INDEX_OFF == 20 && RNIC_SR_REC_CQN_OFF == 22,
	       "sr_rec words as srt_rec stores them");

static inline uint32_t srt_status(void) { return hal_tc_rd32(RNIC_FW_TC_SRT_STATUS); }

void srt_init(void)
{
	fw_srt_ok = !fw_srt_off && fw_core_mask == 0 && (fw_hw_caps & RNIC_HW_CAPS_ENGINES_MASK);
	/* the engine keeps counting across a firmware reload */
	srt_issued = (uint16_t)rnic_srt_status_v_fw_done(srt_status());
	txb_init(); /* the transmit builder sends only for QPs this engine retires */
}

static int srt_cmd(uint32_t qpn, uint32_t op, uint32_t psn, uint32_t status)
{
	for (uint32_t i = 0; rnic_srt_status_v_busy(srt_status());) {
		if (++i == SRT_SPIN) {
			fw_log("qp %u: retirement engine not taking operation %u", (unsigned)qpn, (unsigned)op);
			return -1;
		}
		fw_cqw_check();
	}
	hal_tc_wr32(RNIC_FW_TC_SRT_CMD_LO, (qpn & 0xFFFFFFu) | op << 24);
	hal_tc_wr32(RNIC_FW_TC_SRT_CMD_HI, (psn & PSN_MASK) | status << 24);
	srt_issued++;
	return 0;
}

/* Until every operation handed so far is done. */
static int srt_wait(void)
{
	for (uint32_t i = 0; (uint16_t)rnic_srt_status_v_fw_done(srt_status()) != srt_issued;) {
		if (++i == SRT_SPIN) {
			fw_log("retirement engine: operation not done");
			return -1;
		}
		fw_cqw_check();
	}
	return 0;
}

static void srt_en(uint32_t qpn, uint32_t on)
{
	hal_tc_wr32(RNIC_FW_TC_SRT_QP_EN, rnic_srt_qp_en_mk_qpn(qpn) | rnic_srt_qp_en_mk_enable(on));
}

void srt_qp_start(uint32_t qpn, uint32_t sq_psn)
{
	srt_cmd(qpn, RNIC_SR_OP_DROP, 0, 0);
	srt_cmd(qpn, RNIC_SR_OP_INIT, sq_psn, 0);
	srt_wait(); /* the QP's state set before its first ACK can reach the engine */
	srt_en(qpn, 1);
}

void srt_qp_stop(uint32_t qpn)
{
	srt_en(qpn, 0);
	srt_cmd(qpn, RNIC_SR_OP_DROP, 0, 0);
	srt_wait();
}

int srt_room(void)
{
	uint32_t s;
	for (uint32_t i = 0; rnic_srt_status_v_rec_busy(s = srt_status());)
		if (++i == SRT_REC_POLLS)
			return 0;
	return rnic_srt_status_v_free(s) != 0;
}

void srt_rec(uint32_t qpn, uint64_t wr_id, uint32_t len, uint32_t first_psn, uint32_t last_psn, uint32_t flags,
	     uint32_t wc_op, uint32_t idx, uint32_t cqn)
{
	hal_tc_wr32(RNIC_FW_TC_SRT_REC0, (uint32_t)wr_id);
	hal_tc_wr32(RNIC_FW_TC_SRT_REC1, (uint32_t)(wr_id >> 32));
	hal_tc_wr32(RNIC_FW_TC_SRT_REC2, len);
	hal_tc_wr32(RNIC_FW_TC_SRT_REC3, first_psn | flags << 24);
	hal_tc_wr32(RNIC_FW_TC_SRT_REC4, last_psn | wc_op << 24);
	hal_tc_wr32(RNIC_FW_TC_SRT_REC5, (idx & 0xFFFFu) | cqn << 16);
	hal_tc_wr32(RNIC_FW_TC_SRT_REC_QPN, qpn);
}

/* The last QUERY/FIND answer into q (the layout sr_query), its record into srt_hd. */
static void srt_answer(uint8_t *q)
{
	for (uint32_t i = 0; i < RNIC_SR_QUERY_SIZE; i += 4)
		rnic_st_le32(q + i, hal_tc_rd32(RNIC_FW_TC_SRT_QRY0 + i));
	srt_hd.first = rnic_sr_query_get_head_first_psn(q);
	srt_hd.last = rnic_sr_query_get_head_last_psn(q);
	srt_hd.idx = rnic_sr_query_get_head_wqe_index(q);
	srt_hd.barrier = rnic_sr_query_get_head_barrier(q);
}

/* QUERY into q (the layout sr_query); 0, or -1 when the engine did not answer. */
static int srt_query(uint32_t qpn, uint8_t *q)
{
	if (srt_cmd(qpn, RNIC_SR_OP_QUERY, 0, 0) || srt_wait())
		return -1;
	srt_answer(q);
	return 0;
}

int srt_sync(uint32_t qpn)
{
	struct fw_qp_run *r = &fw_res.qp_run[qpn];
	uint8_t *c = ctx(qpn);
	FW_LAYOUT_ALIGN uint8_t q[RNIC_SR_QUERY_SIZE];

	if (srt_query(qpn, q))
		return -1;
	uint32_t ne = rnic_sr_query_get_nonempty(q), hidx = srt_hd.idx;
	/* The firmware's records are a subset of the engine's (send_fast's WQEs have none), in SQ
	 * order, with the retired ones still in front: those of WQEs before the engine's oldest go. */
	while (r->head >= 0 && (!ne || idx_before(fw_res.swqe[r->head].wqe_index, hidx))) {
		int16_t i = r->head;
		r->head = fw_res.swqe[i].next;
		swqe_put(qpn, i);
	}
	if (r->head < 0)
		r->tail = -1;
	uint32_t una = rnic_sr_query_get_una(q);
	if (una != r->una) {
		/* progress, as an ACK was before the engine: the retry counts start over */
		rnic_qp_ctx_set_retries_left(c, rnic_qp_ctx_get_retry_cnt(c));
		rnic_qp_ctx_set_rnr_retries_left(c, rnic_qp_ctx_get_rnr_retry(c));
		r->una = una;
	}
	rnic_qp_ctx_set_sq_ci(c, (uint16_t)rnic_sr_query_get_ci(q));
	return (int)ne;
}

void srt_sweep(void)
{
	for (uint32_t q = FW_FIRST_QPN; q < FW_QP_SCAN_END; q++)
		if (fw_qp_mine(q) && fw_res.qp_run[q].head >= 0 && srt_ctx(ctx(q)))
			srt_sync(q);
}

int srt_find(uint32_t qpn, uint32_t psn)
{
	FW_LAYOUT_ALIGN uint8_t q[RNIC_SR_QUERY_SIZE];

	if (srt_cmd(qpn, RNIC_SR_OP_FIND, psn, 0) || srt_wait())
		return -1;
	srt_answer(q);
	if (rnic_sr_query_get_found(q))
		return 1;
	/* no record holds psn: the oldest if psn is before it (a stale NAK), none if past them all */
	int ne = srt_sync(qpn);
	if (ne <= 0)
		return ne;
	return psn_lt(psn, srt_hd.first);
}

void srt_fail_head(uint32_t qpn, uint32_t status)
{
	/* halted first: no ACK retires the head between the QUERY and the POP */
	srt_cmd(qpn, RNIC_SR_OP_HALT, 0, 0);
	if (srt_sync(qpn) > 0)
		srt_cmd(qpn, RNIC_SR_OP_POP, 0, status);
}

void srt_flush(uint32_t qpn)
{
	struct fw_qp_run *r = &fw_res.qp_run[qpn];
	uint8_t *c = ctx(qpn);
	FW_LAYOUT_ALIGN uint8_t q[RNIC_SR_QUERY_SIZE];

	int held = srt_sync(qpn) > 0;
	srt_cmd(qpn, RNIC_SR_OP_FLUSH, 0, RNIC_WC_STATUS_WR_FLUSH_ERR);
	if (srt_query(qpn, q)) /* after the FLUSH: its CQE records are handed on */
		return;
	while (r->head >= 0) {
		int16_t i = r->head;
		r->head = fw_res.swqe[i].next;
		swqe_put(qpn, i);
	}
	r->tail = -1;
	if (held) {
		/* ci: the newest WQE sent (a resend may have moved sq_next back before it) + 1; the
		 * unsent flush skips the rest of that WQE's WQEBBs (sq_skip: no WQE starts there) */
		uint32_t ci = rnic_sr_query_get_ci(q);
		rnic_qp_ctx_set_sq_next(c, (uint16_t)ci);
		rnic_qp_ctx_set_sq_ci(c, (uint16_t)ci);
		r->sq_skip = 1;
	}
}

void fw_sq_srt_event(uint32_t qpn, uint32_t kind, uint32_t psn, uint32_t status)
{
	uint8_t *c = ctx(qpn);
	int ne;

	(void)psn;
	if (!srt_ctx(c) || (ne = srt_sync(qpn)) < 0)
		return;
	if (kind == RNIC_RX_EVENT_KIND_SR_RESP_ERR) {
		/* the READ/atomic's CQE is out with status and the QP halted: the rest flushed */
		fw_qp_fatal(qpn, status, RNIC_EQ_QP_SIDE_REQUESTER);
		return;
	}
	/* BARRIER, the implicit NAK (fw_sq_ack): acknowledgements passed the oldest WQE, a READ or
	 * atomic without its response, so the response was lost: asked again now, a retry. The
	 * engine tells once per oldest record; after that the ACK timer decides. */
	uint32_t left = rnic_qp_ctx_get_retries_left(c);
	if (ne > 0 && left && rnic_qp_ctx_get_state(c) == RNIC_QP_STATE_RTS) {
		rnic_qp_ctx_set_retries_left(c, left - 1);
		resend_from(qpn, srt_hd.first);
	}
}
