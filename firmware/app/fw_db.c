/* Doorbells and receive events: drained from their rings and dispatched per QP and CQ. */
#include "fw_log.h"
#include "fw_res.h"
#include "fw_xport.h"
#include "hal.h"

#include "fw_rq_recv.h"
#include "fw_sq_ack.h"
#include "fw_sq_srt.h"

/* The doorbell ring on the tightly coupled window (fw_tc dbr_*, rtl/core/rnic_fw_dbring): slots
 * and counts are one-cycle loads. dbr_cons is the next slot to read (stored to the RTL's dbr_cons
 * as soon as a slot is read, so the RTL refills it while the firmware works); dbr_prod the RTL's
 * count as last loaded: the slots below it are known to be filled without loading it again. */
#define DBR_CNT_MASK ((1u << RNIC_FW_TC_DBR_COUNT_BITS) - 1u)
static uint32_t dbr_cons, dbr_prod;

/* word w of the slot of count cons (the slot's address computed once for both words: the same
 * block offset, word w of it) */
static inline uint32_t dbr_word(uint32_t cons, uint32_t w)
{
	return hal_tc_rd32_at(RNIC_FW_TC_DBR_BASE + (cons % RNIC_FW_TC_DBR_NUM) * 8u, w);
}

/* The QP a doorbell names, if it exists and belongs to the user context whose page rang. */
static uint8_t *db_qp(uint32_t qpn, uint32_t page)
{
	if (qpn < FW_FIRST_QPN || qpn >= FW_MAX_QP || !fw_res.qp_used[qpn] ||
	    rnic_qp_ctx_get_uctx(fw_res.qp_ctx[qpn]) != page)
		return 0;
	return fw_res.qp_ctx[qpn];
}

/* A producer index may announce at most a ring's worth of entries past from (what the
 * firmware has not yet taken): a legal provider never has more outstanding. A larger one, from
 * a confused or hostile user, would have the firmware complete or flush up to 65535 stale ring
 * entries in one pass while every other QP and command waits. */
static int db_in_ring(uint32_t index, uint32_t from, uint32_t log_size)
{
	return ((index - from) & 0xFFFFu) <= (1u << log_size);
}

/* An rq_db's producer index against the QP's (docs/firmware.md "rqrace (session 29)"). The
 * engine that feeds a QP in grant mode takes each rq_db from the doorbell block itself, long
 * before the firmware may read it from its doorbell ring, and the receive events move rq_ci past it
 * meanwhile: a correct host's index can be behind rq_ci (the 64 B SEND stream with SEND runs:
 * ~20 behind). What a correct host can write is from the last index taken (rq_pi: doorbells come
 * in order) to rq_ci + the ring (end): taken, rq_pi moves forward (1). One behind rq_pi (within
 * half the index space) is older than what rq_pi covers (a takeover moves rq_pi to the engine's
 * feed): nothing to take, no fault (0). Anything else announces more than the ring (-1). */
static inline uint32_t rq_db_end(const uint8_t *c)
{
	return rnic_qp_ctx_get_rq_ci(c) + (1u << rnic_qp_ctx_get_rq_log_size(c));
}

static inline int rq_db_in(uint32_t index, uint32_t pi, uint32_t end)
{
	uint32_t d = (index - pi) & 0xFFFFu;
	return d <= ((end - pi) & 0xFFFFu) ? 1 : d >= 0x8000u ? 0 : -1;
}

/* The doorbells of one QP served together: the sq_dbs (rq_dbs) of the same QP and page waiting
 * in the doorbell ring behind this one are taken with it (at most DB_BATCH), their producer
 * indices checked and the newest kept, so one service pass (and one WQE fetch) covers the WQEs of
 * several doorbells when the host posts faster than the firmware serves. Taken here, each costs
 * its slot's two one-cycle loads and the ring check (dbr_cons stored once for the batch): served
 * alone, each would go through fw_xport_poll's loop with its whole dispatch and QP checks (in the
 * 1-QP 64 B stream the host rings once per WQE). For the RQ only the newest producer index
 * matters too (the engine's rqf_pi store, or the firmware's own fetch, covers every WQE before
 * it); the host re-posts a receive per completion, so its rq_dbs queue up behind a run of
 * receive events, and served one by one (~150 cycles each) they held the next receive events,
 * whose grants refill the receive engine's slots, long enough for the slots to run dry (an RNR
 * NAK with the WQEs posted: docs/firmware.md "rnr (session 28)"). The QP and page are the first
 * doorbell's, checked by the caller. One body for both queues, inlined into each caller with rq
 * a constant (so each keeps its producer-index store inside the loop, where session 28 found a
 * fold that moved it out costing 13 cycles a doorbell); the ring bounds loaded once (only the
 * producer index changes meanwhile), the slot's words compared in registers under the spec's
 * word masks. */
#define DB_BATCH 8u

static inline __attribute__((always_inline)) void db_take(uint8_t *c, uint32_t ev, uint32_t value, int rq)
{
	const uint32_t same_ev = RNIC_DB_EVENT_PAGE_MASK | RNIC_DB_EVENT_WHICH_MASK;
	uint32_t from = rq ? rq_db_end(c) : rnic_qp_ctx_get_sq_next(c); /* RQ: the end of what rq_db_in takes */
	uint32_t log_size = rq ? 0u : rnic_qp_ctx_get_sq_log_size(c), k;
	uint32_t cons = dbr_cons, prod = dbr_prod;
	for (k = 0; k < (rq ? 2u * DB_BATCH : DB_BATCH); k++) {
		if (cons == prod && cons == (prod = hal_tc_rd32(RNIC_FW_TC_DBR_PROD)))
			break;
		/* both words loaded before either compare: no load-use stall (a slot's load has no
		 * side effect, a doorbell of another kind stays in the ring) */
		uint32_t ne = dbr_word(cons, 0), nv = dbr_word(cons, 1);
		if (((ne ^ ev) & same_ev) | ((nv ^ value) & RNIC_DB_WORD_NUM_MASK))
			break;
		cons = (cons + 1) & DBR_CNT_MASK;
		uint32_t index = (nv & RNIC_DB_WORD_INDEX_MASK) >> RNIC_DB_WORD_INDEX_LSB;
		int in = rq ? rq_db_in(index, rnic_qp_ctx_get_rq_pi(c), from) : db_in_ring(index, from, log_size);
		if (in > 0) {
			if (rq)
				rnic_qp_ctx_set_rq_pi(c, (uint16_t)index);
			else
				rnic_qp_ctx_set_sq_pi(c, (uint16_t)index);
		} else if (in < 0 || !rq) {
			fw_log("doorbell %x value %x ignored", (unsigned)ev, (unsigned)nv);
		}
	}
	dbr_prod = prod;
	if (k) {
		dbr_cons = cons;
		hal_tc_wr32(RNIC_FW_TC_DBR_CONS, cons);
	}
	fw_perf.doorbells += k;
}

void fw_doorbell(uint32_t ev, uint32_t value)
{
	FW_LAYOUT_ALIGN uint8_t e[4], v[4];
	rnic_st_le32(e, ev);
	rnic_st_le32(v, value);
	uint32_t page = rnic_db_event_get_page(e), which = rnic_db_event_get_which(e);
	uint32_t num = rnic_db_word_get_num(v), index = rnic_db_word_get_index(v);
	uint8_t *c;

	/* The send doorbells before the switch: they are the WQE's latency, and the switch's jump
	 * table cost them a table load and an indirect jump (~6 cycles a doorbell). */
	if (which * 4 == RNIC_DB_SQ_DB || which * 4 == RNIC_DB_BF_DB) {
		if ((c = db_qp(num, page)) &&
		    db_in_ring(index, rnic_qp_ctx_get_sq_next(c), rnic_qp_ctx_get_sq_log_size(c))) {
			rnic_qp_ctx_set_sq_pi(c, (uint16_t)index);
			if (which * 4 == RNIC_DB_BF_DB) {
				fw_sq_bf_doorbell(num, rnic_db_event_get_bf_seq(e));
			} else {
				db_take(c, ev, value, 0);
				fw_sq_service(num);
			}
			return;
		}
	} else switch (which * 4) {
	case RNIC_DB_RQ_DB: {
		int in;
		if (!(c = db_qp(num, page)) || (in = rq_db_in(index, rnic_qp_ctx_get_rq_pi(c), rq_db_end(c))) < 0)
			break;
		if (in)
			rnic_qp_ctx_set_rq_pi(c, (uint16_t)index);
		db_take(c, ev, value, 1);
		fw_rq_doorbell(num);
		return;
	}
	case RNIC_DB_CQ_DB:
		if (num == 0 || num >= FW_MAX_CQ || !fw_res.cqs[num].used || fw_res.cqs[num].uctx != page)
			break;
		fw_cq_doorbell(num, index);
		return;
	case RNIC_DB_CQ_ARM: {
		uint32_t cqn = rnic_db_cq_arm_get_cqn(v);
		if (cqn == 0 || cqn >= FW_MAX_CQ || !fw_res.cqs[cqn].used || fw_res.cqs[cqn].uctx != page)
			break;
		fw_cq_arm(cqn, (int)rnic_db_cq_arm_get_solicited(v));
		return;
	}
	default:
		break;
	}
	fw_log("doorbell %x value %x ignored", (unsigned)ev, (unsigned)value);
}

/* The requester-side acknowledgements fw_sq_ack takes. */
static inline int ack_kind(uint32_t kind)
{
	return kind == RNIC_RX_EVENT_KIND_ACK || kind == RNIC_RX_EVENT_KIND_NAK || kind == RNIC_RX_EVENT_KIND_RNR_NAK ||
	       kind == RNIC_RX_EVENT_KIND_READ_RESP_DONE || kind == RNIC_RX_EVENT_KIND_ATOMIC_ACK ||
	       kind == RNIC_RX_EVENT_KIND_READ_GAP;
}

static inline int rx_qp_ok(uint32_t qpn) { return qpn >= FW_FIRST_QPN && qpn < FW_MAX_QP && fw_res.qp_used[qpn]; }

void fw_rx_event(const uint8_t *ev)
{
	uint32_t qpn = rnic_rx_event_get_qpn(ev), kind = rnic_rx_event_get_kind(ev);

	if (!rx_qp_ok(qpn)) {
		fw_log("event %u for unknown qp %u", (unsigned)kind, (unsigned)qpn);
		return;
	}
	switch (kind) {
	case RNIC_RX_EVENT_KIND_RECV_DONE:
	case RNIC_RX_EVENT_KIND_WRITE_IMM_DONE:
		fw_rq_done(ev);
		return;
	case RNIC_RX_EVENT_KIND_ACK:
	case RNIC_RX_EVENT_KIND_NAK:
	case RNIC_RX_EVENT_KIND_RNR_NAK:
	case RNIC_RX_EVENT_KIND_READ_RESP_DONE:
	case RNIC_RX_EVENT_KIND_ATOMIC_ACK:
	case RNIC_RX_EVENT_KIND_READ_GAP:
		fw_sq_ack(qpn, kind, rnic_rx_event_get_psn(ev), rnic_rx_event_get_syndrome(ev),
			  rnic_rx_event_get_status(ev));
		return;
	case RNIC_RX_EVENT_KIND_SR_BARRIER:
	case RNIC_RX_EVENT_KIND_SR_RESP_ERR:
		fw_sq_srt_event(qpn, kind, rnic_rx_event_get_psn(ev), rnic_rx_event_get_status(ev));
		return;
	case RNIC_RX_EVENT_KIND_TX_ERROR:
		fw_sq_tx_error(qpn, rnic_rx_event_get_status(ev));
		return;
	case RNIC_RX_EVENT_KIND_TX_DONE:
		fw_sq_tx_done(qpn);
		return;
	case RNIC_RX_EVENT_KIND_ATOMIC_REQ:
		fw_atomic_req(ev);
		return;
	case RNIC_RX_EVENT_KIND_RESP_ERROR:
		fw_log("qp %u: responder error %u at psn %u", (unsigned)qpn, (unsigned)rnic_rx_event_get_status(ev),
		       (unsigned)rnic_rx_event_get_psn(ev));
		fw_rq_resp_error(ev);
		return;
	default:
		/* RNR_SENT: the receive engine already answered; logged. */
		fw_log("qp %u: event %u", (unsigned)qpn, (unsigned)kind);
		return;
	}
}

struct fw_perf fw_perf;

#define EVR_CNT_MASK ((1u << RNIC_FW_TC_EVR_COUNT_BITS) - 1u)
/* the firmware's copy of fw_tc evr_cons: the next event of the ring to read */
static uint32_t evr_cons;

void fw_events_init(void)
{
	/* the ring keeps its events across a firmware reload: go on from the hardware's count */
	evr_cons = hal_tc_rd32(RNIC_FW_TC_EVR_CONS) & EVR_CNT_MASK;
	/* the doorbell ring likewise */
	dbr_cons = dbr_prod = hal_tc_rd32(RNIC_FW_TC_DBR_CONS) & DBR_CNT_MASK;
}

/* Adds the cycles since t0 to a counter pair (sum, maximum). */
static inline void perf_add(uint32_t t0, uint64_t *sum, uint32_t *max)
{
	uint32_t d = hal_cycles32() - t0;
	*sum += d;
	if (d > *max)
		*max = d;
}

uint32_t fw_xport_poll(void)
{
	uint32_t n = 0;

	fw_cqw_check();
	/* the doorbell ring: dbr_prod loaded (a one-cycle load) before each doorbell, as the
	 * mailbox's status was; each doorbell's slot freed before its dispatch, which may take the
	 * doorbells behind it (db_take: dbr_cons moves on) */
	uint32_t dprod;
	while ((dprod = hal_tc_rd32(RNIC_FW_TC_DBR_PROD)) != dbr_cons) {
		uint32_t cons = dbr_cons;
		uint32_t t0 = hal_cycles32();
		uint32_t e = dbr_word(cons, 0), v = dbr_word(cons, 1);
		dbr_prod = dprod;
		dbr_cons = cons = (cons + 1) & DBR_CNT_MASK;
		hal_tc_wr32(RNIC_FW_TC_DBR_CONS, cons);
		fw_doorbell(e, v);
		fw_perf.doorbells++;
		perf_add(t0, &fw_perf.db_cycles, &fw_perf.db_max);
		n++;
	}
	/* the receive-event ring on the tightly coupled window (fw_tc evr_*): evr_prod loaded before
	 * each event as the mailbox's status was; the event is read where it lies (one-cycle loads,
	 * only the fields its handler uses) and its slot freed after the dispatch. The consumer count
	 * lives in a register here (the calls below could not change it, GCC cannot know) */
	uint32_t cons = evr_cons, prod;
	while ((prod = hal_tc_rd32(RNIC_FW_TC_EVR_PROD)) != cons) {
		uint32_t t0 = hal_cycles32();
		const uint8_t *e = hal_tc_ptr(RNIC_FW_TC_EVR_BASE + (cons % RNIC_FW_TC_EVR_NUM) * RNIC_RX_EVENT_SIZE);
		uint32_t kind = rnic_rx_event_get_kind(e);
		uint32_t qpn = rnic_rx_event_get_qpn(e);
		if (ack_kind(kind) && rx_qp_ok(qpn))
			/* an acknowledgement of a known QP: straight to fw_sq_ack, fw_rx_event's checks
			 * and dispatch not made again */
			fw_sq_ack(qpn, kind, rnic_rx_event_get_psn(e), rnic_rx_event_get_syndrome(e),
				  rnic_rx_event_get_status(e));
		else if (fw_rq_recv_kind(kind) && rx_qp_ok(qpn))
			/* a receive completion of a known QP: its grant and CQE inline (fw_rq_recv.h) */
			fw_rq_recv(qpn, kind, e, cons, prod);
		else
			fw_rx_event(e);
		/* every load from the slot before the store that frees it */
		__asm__ volatile("" ::: "memory");
		cons = (cons + 1) & EVR_CNT_MASK;
		hal_tc_wr32(RNIC_FW_TC_EVR_CONS, cons);
		fw_perf.events++;
		perf_add(t0, &fw_perf.ev_cycles, &fw_perf.ev_max);
		n++;
	}
	evr_cons = cons;
	if (fw_stalled_any) {
		/* a pass cut short (SQ_PASS_MAX, a busy mailbox, no free record) goes on here: the
		 * doorbell's work, so its cycles count on the doorbell side */
		uint32_t t0 = hal_cycles32();
		fw_sq_retry_stalled();
		perf_add(t0, &fw_perf.db_cycles, &fw_perf.db_max);
	}
	return n;
}
