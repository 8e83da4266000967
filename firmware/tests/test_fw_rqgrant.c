/* Host unit tests of the firmware with the receive feed's grant mode (MOCK_MMIO build, the mock
 * engine of mock_rqf.c): the engine, not the firmware, hands the RQ WQEs of its records; a
 * receive event's refill is one grant store; a stop (a failed fetch, too many SGEs) is taken
 * over and completed as the firmware's own path completes it; a takeover and give-back lose no
 * WQE and hand none twice; a lost rq_db's WQEs are fetched on the firmware's rqf_pi store of its
 * checked producer index, with no takeover. Every rq_desc is checked
 * byte for byte against the host's WQE, per QP in ring order. */
#include <stdio.h>
#include <string.h>

#include "fw_cmd.h"
#include "fw_log.h"
#include "fw_res.h"
#include "fw_wqf.h"
#include "fw_xport.h"
#include "hal.h"
#include "mock_mmio.h"
#include "mock_rqf.h"
#include "rnicp_cq.h"
#include "rnicp_db.h"
#include "rnicp_wqe.h"
#include "../app/fw_rq_grant.h"

#define A(x) (1u << RNIC_QP_ATTR_##x)
#define H(off) (MOCK_HOST_BASE + (off))
#define P(off) (mock_host + (off))
#define CQ_OFF 0x20000u
#define DBREC_OFF 0x1F000u
#define DATA_OFF 0x40000u
#define QP_OFF(i) (0x50000u + (i) * 0x8000u) /* each QP's rings */
#define SQ_LOG 4u
#define RQ_LOG 4u
#define RQ_STRIDE_LOG 7u /* 128-byte WQEs: 2 WQEBBs each, up to 7 SGEs fit */
#define SLOTS 4u

static uint8_t e[RNIC_CMD_ENTRY_SIZE];
#define CMD(op) (memset(e, 0, sizeof(e)), rnic_cmd_entry_set_opcode(e, (op)))

struct qp {
	uint32_t qpn;
	struct rnicp_rq rq;
	uint32_t next_desc; /* the next RQ position an rq_desc must carry */
	uint32_t done;      /* completions delivered */
	uint8_t nsge[65536]; /* what each position's WQE was posted with */
};
static struct rnicp_cq cq;
static uint32_t cqn, pdn;

static void modify(uint32_t qpn, uint32_t state, uint32_t mask)
{
	CMD(RNIC_CMD_OP_MODIFY_QP);
	rnic_cmd_modify_qp_set_qpn(e, qpn);
	rnic_cmd_modify_qp_set_attr_mask(e, mask | A(STATE));
	rnic_cmd_modify_qp_set_state(e, state);
	rnic_cmd_modify_qp_set_path_mtu(e, 3);
	rnic_cmd_modify_qp_set_dest_qpn(e, 0x33);
	rnic_cmd_modify_qp_set_retry_cnt(e, 7);
	rnic_cmd_modify_qp_set_timeout(e, 14);
	rnic_cmd_modify_qp_set_rnr_retry(e, 7);
	rnic_cmd_modify_qp_set_access(e, 7);
	fw_cmd_exec(e);
}

static const uint32_t to_rtr = A(AV) | A(PATH_MTU) | A(DEST_QPN) | A(RQ_PSN) | A(MAX_DEST_RD_ATOMIC) | A(MIN_RNR_TIMER);
static const uint32_t to_rts = A(SQ_PSN) | A(TIMEOUT) | A(RETRY_CNT) | A(RNR_RETRY) | A(MAX_QP_RD_ATOMIC);

/* The firmware as the NIC boots it, with the grant mode present, and one CQ. */
static void boot(void)
{
	memset(&fw_res, 0, sizeof(fw_res));
	memset(mock_host, 0, sizeof(mock_host));
	mock_rqg_reset();
	mock_rqg_on = 1;
	regs[RNIC_FW_REG_HW_CAPS / 4] = 3u | rnic_hw_caps_mk_rq_slots(SLOTS); /* engines, READ placement */
	fw_cmd_init();
	fw_xport_init();
	CMD(RNIC_CMD_OP_SET_GID);
	rnic_cmd_set_gid_set_ipv4(e, 0x0A000011);
	rnic_cmd_set_gid_set_mac(e, 0x020000000011ull);
	fw_cmd_exec(e);
	CMD(RNIC_CMD_OP_ALLOC_PD);
	fw_cmd_exec(e);
	pdn = rnic_cmd_pd_get_pdn(e);
	CMD(RNIC_CMD_OP_CREATE_CQ);
	rnic_cmd_create_cq_set_log_size(e, 8);
	rnic_cmd_create_cq_set_buf_addr(e, H(CQ_OFF));
	rnic_cmd_create_cq_set_dbrec_addr(e, H(DBREC_OFF));
	fw_cmd_exec(e);
	cqn = rnic_cmd_create_cq_get_cqn(e);
	rnicp_cq_init(&cq, P(CQ_OFF), 8, cqn, P(DBREC_OFF));
}

/* The main loop's pass after the doorbells were taken (the grant poll). */
static void pass(void)
{
	fw_rqg_poll();
}

static void create(struct qp *q, unsigned i, uint32_t to_state)
{
	CMD(RNIC_CMD_OP_CREATE_QP);
	rnic_cmd_create_qp_set_pdn(e, pdn);
	rnic_cmd_create_qp_set_send_cqn(e, cqn);
	rnic_cmd_create_qp_set_recv_cqn(e, cqn);
	rnic_cmd_create_qp_set_qp_type(e, RNIC_QP_TYPE_RC);
	rnic_cmd_create_qp_set_sq_log_size(e, SQ_LOG);
	rnic_cmd_create_qp_set_rq_log_size(e, RQ_LOG);
	rnic_cmd_create_qp_set_rq_log_stride(e, RQ_STRIDE_LOG);
	rnic_cmd_create_qp_set_buf_addr(e, H(QP_OFF(i)));
	rnic_cmd_create_qp_set_rq_offset(e, 64u << SQ_LOG);
	fw_cmd_exec(e);
	memset(q, 0, sizeof(*q));
	q->qpn = rnic_cmd_create_qp_get_qpn(e);
	rnicp_rq_init(&q->rq, P(QP_OFF(i) + (64u << SQ_LOG)), RQ_LOG, RQ_STRIDE_LOG, q->qpn);
	if (to_state >= RNIC_QP_STATE_INIT)
		modify(q->qpn, RNIC_QP_STATE_INIT, A(PKEY_INDEX) | A(PORT) | A(ACCESS_FLAGS));
	if (to_state >= RNIC_QP_STATE_RTR)
		modify(q->qpn, RNIC_QP_STATE_RTR, to_rtr);
	if (to_state >= RNIC_QP_STATE_RTS)
		modify(q->qpn, RNIC_QP_STATE_RTS, to_rts);
	pass();
}

/* WQE k of a QP: its wr_id names the QP and the position; 1..3 SGEs (nsge: that many instead) */
static uint64_t wr_of(const struct qp *q, uint32_t k) { return (uint64_t)q->qpn << 32 | 0xD000u | k; }
static void post(struct qp *q, uint32_t nsge)
{
	struct rnicp_sge sg[7];
	uint32_t k = q->rq.pi;
	for (unsigned j = 0; j < 7; j++)
		sg[j] = (struct rnicp_sge){ H(DATA_OFF + 0x1000u * j + k), 64 + j + k, 0x100u + j };
	struct rnicp_recv_wr w = { wr_of(q, k), sg, nsge ? nsge : 1 + k % 3 };
	q->nsge[k & 0xFFFFu] = (uint8_t)w.num_sge;
	if (rnicp_rq_post(&q->rq, &w))
		check(0, "fw-rqg-test-posts-fit-the-ring");
}

/* SGE j of position k's WQE as post() wrote it */
static void sge_of(uint32_t k, uint32_t j, uint8_t *out)
{
	uint8_t s[RNIC_WQE_SGE_SIZE] = { 0 };
	rnic_wqe_sge_set_addr(s, H(DATA_OFF + 0x1000u * j + k));
	rnic_wqe_sge_set_length(s, 64 + j + k);
	rnic_wqe_sge_set_lkey(s, 0x100u + j);
	memcpy(out, s, sizeof(s));
}

/* The rq_db: what the doorbell BAR hands the engine, then the firmware's doorbell pass. */
static void ring(struct qp *q)
{
	uint8_t v[4] = { 0 }, b[4] = { 0 };
	uint32_t page = rnic_qp_ctx_get_uctx(fw_res.qp_ctx[q->qpn]);
	rnic_db_word_set_num(v, q->qpn);
	rnic_db_word_set_index(v, q->rq.pi);
	mock_wqf_rdb(page, (uint32_t)rnic_ld_le(v, 4));
	rnic_db_event_set_page(b, page);
	rnic_db_event_set_which(b, RNIC_DB_RQ_DB / 4);
	fw_doorbell((uint32_t)rnic_ld_le(b, 4), (uint32_t)rnic_ld_le(v, 4));
	mock_rqg_run();
}

static void recv_done(struct qp *q)
{
	uint8_t ev[RNIC_RX_EVENT_SIZE] = { 0 };
	rnic_rx_event_set_kind(ev, RNIC_RX_EVENT_KIND_RECV_DONE);
	rnic_rx_event_set_qpn(ev, q->qpn);
	rnic_rx_event_set_wr_id(ev, wr_of(q, q->done));
	rnic_rx_event_set_byte_len(ev, 64);
	fw_rx_event(ev);
	q->done++;
	q->rq.ci++; /* the host polled it: its ring entry is free */
	mock_rqg_run();
}

/* The rq_descs since mailbox record m: for each QP in order of q[], the next positions, byte for
 * byte against its ring; cnt[i] descriptors of q[i] (-1: any number). 1 if all hold. */
static int descs(unsigned m, struct qp **qs, unsigned nq, const int *cnt)
{
	unsigned seen[8] = { 0 };
	int ok = 1;
	for (unsigned n = 0;; n++) {
		const struct mock_mbox_rec *r = mock_mbox_nth(RNIC_FW_TC_RQD_COMMIT, m, n);
		if (!r)
			break;
		unsigned i;
		for (i = 0; i < nq && qs[i]->qpn != rnic_rq_desc_get_qpn(r->data); i++)
			;
		if (i == nq)
			return 0;
		struct qp *q = qs[i];
		uint32_t k = q->next_desc++, ns = q->nsge[k & 0xFFFFu];
		ok &= rnic_rq_desc_get_wr_id(r->data) == wr_of(q, k) && rnic_rq_desc_get_num_sge(r->data) == ns;
		for (uint32_t j = 0; j < ns && j < RNIC_MAX_SGE; j++) {
			/* the SGEs as posted (the receive engine ignores the words beyond num_sge, which
			 * the firmware's own rq_desc does not write) */
			uint8_t want[RNIC_WQE_SGE_SIZE];
			sge_of(k, j, want);
			ok &= memcmp(r->data + RNIC_RQ_DESC_SGE0_ADDR_OFF + RNIC_WQE_SGE_SIZE * j, want, sizeof(want)) == 0;
		}
		/* never beyond the slots the receive engine has: completions + SLOTS */
		ok &= k < q->done + SLOTS;
		seen[i]++;
	}
	for (unsigned i = 0; i < nq; i++)
		ok &= cnt[i] < 0 || seen[i] == (unsigned)cnt[i];
	return ok;
}

static int cqe(uint64_t wr_id, uint32_t status)
{
	struct rnicp_wc wc;
	return rnicp_cq_poll(&cq, 1, &wc) == 1 && wc.wr_id == wr_id && wc.status == status && rnicp_wc_is_recv(&wc);
}

static unsigned fw_commits(unsigned m, unsigned h0)
{
	return mock_mbox_count(RNIC_FW_TC_RQD_COMMIT, m) - (mock_rqg_handed - h0);
}

/* The mode on at boot, every grant off first; a live QP given to the engine at its limit. */
static void bring_up(void)
{
	boot();
	check(fw_wqf_rqg && mock_rqg_mode && mock_wqf_rdb_on && mock_rqg_violations == 0, "fw-rqg-mode-on-after-every-grant-off");
	struct qp q;
	/* the engine's producer-index RAM as an earlier life of the QPNs left it (no reset): the
	 * give-back's rqf_pi must replace it, or the grant of the slots hands unposted WQEs */
	for (unsigned i = 0; i < 64; i++)
		mock_rqg_qp[i].pi = 0x0123;
	unsigned h0 = mock_rqg_handed, p0 = mock_rqg_pi_stores;
	create(&q, 0, RNIC_QP_STATE_RTS);
	const struct mock_rqg_qp *g = &mock_rqg_qp[q.qpn];
	check(g->en && g->feed == 0 && g->limit == SLOTS && g->pi == 0 && fw_res.qp_run[q.qpn].rqg &&
		      mock_rqg_pi_stores > p0 && mock_rqg_handed == h0,
	      "fw-rqg-live-qp-granted-the-slots-its-pi-stored");
	/* without the mode (an older engine) nothing of it is used */
	mock_rqg_reset();
	mock_rqg_on = 0;
	fw_xport_init();
	check(!fw_wqf_rqg && !mock_rqg_mode, "fw-rqg-absent-not-used");
}

/* The stream: the engine hands every WQE from its records, the firmware none; each RECV_DONE is
 * the CQE and one grant store; never more than the slots. */
static void stream(void)
{
	boot();
	struct qp q, *qs[1] = { &q };
	create(&q, 0, RNIC_QP_STATE_RTS);
	unsigned m = mock_nmbox, h0 = mock_rqg_handed, f0 = mock_wqf_cmds, s0 = mock_rqg_reevals, k0 = mock_rqg_holds;
	for (int i = 0; i < 3; i++)
		post(&q, 0);
	ring(&q);
	int ok3 = descs(m, qs, 1, (int[]){ 3 });
	check(ok3 && fw_commits(m, h0) == 0 && mock_wqf_cmds == f0 && mock_rqg_qp[q.qpn].pi == q.rq.pi,
	      "fw-rqg-engine-hands-the-records-byte-exact");
	/* 40 more, posted in batches of 5 ahead of the completions (the ring is 16 deep) */
	int ok = 1;
	uint32_t grants = 0;
	q.next_desc = 0;
	for (int b = 0; b < 8; b++) {
		for (int i = 0; i < 5; i++) {
			if (q.rq.pi - q.done >= (1u << RQ_LOG))
				break;
			post(&q, 0);
		}
		ring(&q);
		for (int i = 0; i < 5 && q.done < q.rq.pi; i++) {
			recv_done(&q);
			ok &= cqe(wr_of(&q, q.done - 1), RNIC_WC_STATUS_SUCCESS);
			ok &= mock_rqg_qp[q.qpn].limit == ((q.done + SLOTS) & 0xFFFFu);
			grants++;
		}
		ok &= descs(m, qs, 1, (int[]){ -1 });
		q.next_desc = 0;
	}
	ok &= descs(m, qs, 1, (int[]){ (int)(q.done + SLOTS < q.rq.pi ? q.done + SLOTS : q.rq.pi) });
	/* (the engine fetched WQEs past the limit and kept them at the head for the next grant: none
	 * was handed past the slots, descs above) */
	check(ok && fw_commits(m, h0) == 0 && mock_wqf_cmds == f0 && mock_rqg_violations == 0 && mock_rqg_reevals > s0 &&
		      mock_rqg_holds > k0,
	      "fw-rqg-recv-done-one-grant-engine-refills-in-order");
}

/* A WQE naming more SGEs than the rq_desc holds: the engine stops there; the firmware completes it
 * LOC_LEN_ERR in order, hands what follows itself and gives the QP back. */
static void stop_sge(void)
{
	boot();
	struct qp q;
	create(&q, 0, RNIC_QP_STATE_RTS);
	unsigned m = mock_nmbox, st0 = mock_rqg_stops;
	post(&q, 0);
	post(&q, 0);
	post(&q, RNIC_MAX_SGE + 1); /* position 2 */
	post(&q, 0);
	post(&q, 0);
	ring(&q);
	int ok = mock_rqg_stops == st0 + 1 && mock_rqg_qp[q.qpn].stopped;
	pass(); /* the stop: taken over */
	ok &= !fw_res.qp_run[q.qpn].rqg && fw_res.qp_run[q.qpn].rqg_hold && fw_res.qp_run[q.qpn].rq_posted == 2;
	recv_done(&q);
	recv_done(&q); /* now the LOC_LEN_ERR, then 3 and 4 by the firmware */
	ok &= cqe(wr_of(&q, 0), RNIC_WC_STATUS_SUCCESS) && cqe(wr_of(&q, 1), RNIC_WC_STATUS_SUCCESS) &&
	      cqe(wr_of(&q, 2), RNIC_WC_STATUS_LOC_LEN_ERR);
	q.done++; /* (the firmware's own completion of 2) */
	ok &= !fw_res.qp_run[q.qpn].rqg_hold;
	/* the next event gives it back; the engine hands what is posted from then on */
	post(&q, 0);
	post(&q, 0);
	ring(&q);
	recv_done(&q);
	ok &= cqe(wr_of(&q, 3), RNIC_WC_STATUS_SUCCESS) && fw_res.qp_run[q.qpn].rqg && mock_rqg_qp[q.qpn].en;
	unsigned h1 = mock_rqg_handed;
	post(&q, 0);
	ring(&q);
	recv_done(&q);
	ok &= cqe(wr_of(&q, 4), RNIC_WC_STATUS_SUCCESS) && mock_rqg_handed > h1;
	/* positions 0, 1 (engine), 3, 4 (firmware), 5.. (engine): 2 never */
	q.next_desc = 0;
	const struct mock_mbox_rec *r;
	int order = 1;
	uint32_t want[] = { 0, 1, 3, 4, 5, 6, 7 };
	for (unsigned n = 0; n < 7; n++)
		order &= (r = mock_mbox_nth(RNIC_FW_TC_RQD_COMMIT, m, n)) && rnic_rq_desc_get_wr_id(r->data) == wr_of(&q, want[n]);
	order &= mock_mbox_count(RNIC_FW_TC_RQD_COMMIT, m) == 7;
	check(ok && order && mock_rqg_violations == 0 && rnic_qp_ctx_get_state(fw_res.qp_ctx[q.qpn]) == RNIC_QP_STATE_RTS,
	      "fw-rqg-stop-sge-len-err-in-order-then-given-back");
}

/* A record whose fetch failed: the engine stops there, the firmware fetches that WQE itself
 * (the bus answers now) and hands it, then gives the QP back. */
static void stop_fetch(void)
{
	boot();
	struct qp q, *qs[1] = { &q };
	create(&q, 0, RNIC_QP_STATE_RTS);
	post(&q, 0);
	ring(&q);
	recv_done(&q);
	int ok = cqe(wr_of(&q, 0), RNIC_WC_STATUS_SUCCESS);
	unsigned m = mock_nmbox, f0 = mock_wqf_cmds, st0 = mock_rqg_stops;
	post(&q, 0);
	post(&q, 0);
	mock_wqf_fail = 1;
	ring(&q);
	mock_wqf_fail = 0;
	ok &= mock_rqg_stops == st0 + 1 && mock_nmbox == m;
	pass();
	ok &= mock_wqf_cmds > f0 && !fw_res.qp_run[q.qpn].rqg_hold;
	recv_done(&q); /* gives back (the engine knows rq_pi) */
	ok &= cqe(wr_of(&q, 1), RNIC_WC_STATUS_SUCCESS) && fw_res.qp_run[q.qpn].rqg;
	post(&q, 0);
	ring(&q);
	recv_done(&q);
	ok &= cqe(wr_of(&q, 2), RNIC_WC_STATUS_SUCCESS);
	q.next_desc = 1;
	q.done = 1; /* (descs' slot bound from the first completion on) */
	check(ok && descs(m, qs, 1, (int[]){ 3 }) && mock_rqg_violations == 0 &&
		      rnic_qp_ctx_get_state(fw_res.qp_ctx[q.qpn]) == RNIC_QP_STATE_RTS,
	      "fw-rqg-stop-failed-fetch-firmware-fetches-then-given-back");
}

/* An rq_db lost in grant mode (the engine's doorbell FIFO full): the firmware's pass of it stores
 * the producer index it checked (rqf_pi), and the engine fetches and hands its WQEs; no QP is
 * taken over, none lost, none handed twice, the other QP untouched. */
static void lost_db(void)
{
	boot();
	struct qp a, b, *qs[2] = { &a, &b };
	create(&a, 0, RNIC_QP_STATE_RTS);
	create(&b, 1, RNIC_QP_STATE_RTS);
	post(&a, 0);
	ring(&a);
	post(&b, 0);
	ring(&b);
	pass();
	unsigned m = mock_nmbox, h0 = mock_rqg_handed, t0 = mock_rqg_pos_loads;
	a.next_desc = b.next_desc = 1;
	post(&a, 0);
	post(&a, 0);
	mock_rqg_fifo_full = 1;
	ring(&a); /* lost to the engine; the firmware's pass of it stores rqf_pi */
	int ok = mock_rqg_lost == 1 && rnic_rqf_status_v_lost(hal_tc_rd32(RNIC_FW_TC_RQF_STATUS)) &&
		 mock_rqg_qp[a.qpn].pi == 3 && mock_rqg_qp[a.qpn].feed == 3;
	pass();
	pass();
	ok &= fw_res.qp_run[a.qpn].rqg && fw_res.qp_run[b.qpn].rqg && mock_rqg_pos_loads == t0;
	recv_done(&a);
	ok &= cqe(wr_of(&a, 0), RNIC_WC_STATUS_SUCCESS);
	post(&a, 0);
	ring(&a);
	recv_done(&a);
	post(&b, 0);
	ring(&b);
	recv_done(&b);
	ok &= cqe(wr_of(&a, 1), RNIC_WC_STATUS_SUCCESS) && cqe(wr_of(&b, 0), RNIC_WC_STATUS_SUCCESS);
	check(ok && descs(m, qs, 2, (int[]){ 3, 1 }) && fw_commits(m, h0) == 0 && mock_rqg_violations == 0,
	      "fw-rqg-lost-rq-db-fetched-on-rqf-pi-no-takeover");
}

/* An rq_db as the doorbell block hands it: to the engine now (it fetches and hands at once), to
 * the firmware's mailbox for later (its two words; ring_fw takes them). The firmware may read it
 * only after the engine consumed past its index (docs/firmware.md "rqrace (session 29)"). */
static uint32_t ring_hw(struct qp *q, uint32_t *ev)
{
	uint8_t v[4] = { 0 }, b[4] = { 0 };
	uint32_t page = rnic_qp_ctx_get_uctx(fw_res.qp_ctx[q->qpn]);
	rnic_db_word_set_num(v, q->qpn);
	rnic_db_word_set_index(v, q->rq.pi);
	mock_wqf_rdb(page, (uint32_t)rnic_ld_le(v, 4));
	mock_rqg_run();
	rnic_db_event_set_page(b, page);
	rnic_db_event_set_which(b, RNIC_DB_RQ_DB / 4);
	*ev = (uint32_t)rnic_ld_le(b, 4);
	return (uint32_t)rnic_ld_le(v, 4);
}

static void ring_fw(uint32_t ev, uint32_t v)
{
	fw_doorbell(ev, v);
	mock_rqg_run();
}

static uint32_t rq_pi_of(const struct qp *q) { return rnic_qp_ctx_get_rq_pi(fw_res.qp_ctx[q->qpn]); }

/* The host's repost races the firmware's mailbox: the engine takes rq_dbs 3 and 4 from the
 * doorbell block, hands their WQEs, and the four receives complete (rq_ci 4) before the firmware
 * reads the two rq_dbs. Index 3 is behind rq_ci but a correct host's: taken, not ignored (no log
 * line), rq_pi moves to 3, then 4, neither stored to the engine (whose index, 4, would move back);
 * the stream goes on, every WQE handed once and completed in
 * order. An index past rq_ci + the ring is still ignored, with its log line, rq_pi unchanged. */
static void stale_db(void)
{
	boot();
	struct qp q, *qs[1] = { &q };
	create(&q, 0, RNIC_QP_STATE_RTS);
	unsigned m = mock_nmbox, h0 = mock_rqg_handed;
	post(&q, 0);
	post(&q, 0);
	ring(&q);
	uint32_t ev3, ev4, v3, v4;
	post(&q, 0);
	v3 = ring_hw(&q, &ev3);
	post(&q, 0);
	v4 = ring_hw(&q, &ev4);
	int ok = mock_rqg_handed == h0 + 4 && rq_pi_of(&q) == 2;
	for (uint32_t i = 0; i < 4; i++) {
		recv_done(&q);
		ok &= cqe(wr_of(&q, i), RNIC_WC_STATUS_SUCCESS);
	}
	/* neither index is ahead of rq_ci: the engine's own index (4) is not moved back */
	uint32_t log0 = fw_log_head(), st0 = mock_rqg_pi_stores;
	ring_fw(ev3, v3);
	ok &= fw_log_head() == log0 && rq_pi_of(&q) == 3 && mock_rqg_qp[q.qpn].pi == 4;
	ring_fw(ev4, v4);
	ok &= fw_log_head() == log0 && rq_pi_of(&q) == 4 && mock_rqg_qp[q.qpn].pi == 4 && mock_rqg_pi_stores == st0;
	for (int i = 0; i < 4; i++)
		post(&q, 0);
	ring(&q);
	for (uint32_t i = 4; i < 8; i++) {
		recv_done(&q);
		ok &= cqe(wr_of(&q, i), RNIC_WC_STATUS_SUCCESS);
	}
	check(ok && fw_log_head() == log0 && descs(m, qs, 1, (int[]){ 8 }) && fw_commits(m, h0) == 0 &&
		      mock_rqg_violations == 0 && fw_res.qp_run[q.qpn].rqg,
	      "fw-rqg-rq-db-behind-rq-ci-taken-not-ignored");

	/* rq_ci 8, rq_pi 8: index 8 + 16 is the ring's end (taken), 8 + 17 past it (ignored, logged) */
	uint8_t v[4] = { 0 }, b[4] = { 0 };
	rnic_db_word_set_num(v, q.qpn);
	rnic_db_word_set_index(v, 8 + (1u << RQ_LOG) + 1);
	rnic_db_event_set_page(b, rnic_qp_ctx_get_uctx(fw_res.qp_ctx[q.qpn]));
	rnic_db_event_set_which(b, RNIC_DB_RQ_DB / 4);
	unsigned p0 = mock_rqg_pi_stores;
	ring_fw((uint32_t)rnic_ld_le(b, 4), (uint32_t)rnic_ld_le(v, 4));
	ok = fw_log_head() > log0 && rq_pi_of(&q) == 8 && mock_rqg_pi_stores == p0;
	log0 = fw_log_head();
	rnic_db_word_set_index(v, 8 + (1u << RQ_LOG));
	ring_fw((uint32_t)rnic_ld_le(b, 4), (uint32_t)rnic_ld_le(v, 4));
	check(ok && fw_log_head() == log0 && rq_pi_of(&q) == 8 + (1u << RQ_LOG),
	      "fw-rqg-rq-db-past-the-ring-still-ignored-and-logged");
}

/* A takeover while the firmware's mailbox lags: the engine took rq_dbs 3, 4 and 6 itself, handed
 * 2 and 3 and stopped at 4 (too many SGEs); the firmware's rq_pi is still 2. At the takeover rq_pi
 * catches up with the engine's feed (4): the firmware's own refill fetches nothing it was not
 * told of (without it, rq_pi - feed wraps and the refill hands unposted ring entries). Then the
 * rq_dbs are read: 3 is behind rq_pi now (nothing to take, no log line), 4 and 6 are taken; 4
 * completes LOC_LEN_ERR in order, 5 is handed by the firmware, none twice. */
static void stale_takeover(void)
{
	boot();
	struct qp q;
	create(&q, 0, RNIC_QP_STATE_RTS);
	unsigned m = mock_nmbox;
	post(&q, 0);
	post(&q, 0);
	ring(&q);
	recv_done(&q);
	recv_done(&q);
	int ok = cqe(wr_of(&q, 0), RNIC_WC_STATUS_SUCCESS) && cqe(wr_of(&q, 1), RNIC_WC_STATUS_SUCCESS);
	uint32_t ev3, ev4, ev6, v3, v4, v6;
	post(&q, 0);
	v3 = ring_hw(&q, &ev3);
	post(&q, 0);
	v4 = ring_hw(&q, &ev4);
	post(&q, RNIC_MAX_SGE + 1); /* position 4 */
	post(&q, 0);
	v6 = ring_hw(&q, &ev6);
	ok &= mock_rqg_qp[q.qpn].stopped && rq_pi_of(&q) == 2;
	uint32_t log0 = fw_log_head();
	pass(); /* the stop: taken over */
	ok &= !fw_res.qp_run[q.qpn].rqg && fw_res.qp_run[q.qpn].rq_posted == 2 && rq_pi_of(&q) == 4 &&
	      mock_mbox_count(RNIC_FW_TC_RQD_COMMIT, m) == 4;
	ring_fw(ev3, v3);
	ok &= rq_pi_of(&q) == 4 && fw_log_head() == log0;
	ring_fw(ev4, v4);
	ring_fw(ev6, v6);
	ok &= rq_pi_of(&q) == 6 && fw_log_head() == log0;
	recv_done(&q);
	recv_done(&q); /* 2, 3, then the firmware's LOC_LEN_ERR of 4 */
	ok &= cqe(wr_of(&q, 2), RNIC_WC_STATUS_SUCCESS) && cqe(wr_of(&q, 3), RNIC_WC_STATUS_SUCCESS) &&
	      cqe(wr_of(&q, 4), RNIC_WC_STATUS_LOC_LEN_ERR);
	q.done++;
	recv_done(&q);
	ok &= cqe(wr_of(&q, 5), RNIC_WC_STATUS_SUCCESS);
	const struct mock_mbox_rec *r;
	uint32_t want[] = { 0, 1, 2, 3, 5 };
	for (unsigned n = 0; n < 5; n++)
		ok &= (r = mock_mbox_nth(RNIC_FW_TC_RQD_COMMIT, m, n)) && rnic_rq_desc_get_wr_id(r->data) == wr_of(&q, want[n]);
	check(ok && mock_mbox_count(RNIC_FW_TC_RQD_COMMIT, m) == 5 && mock_rqg_violations == 0 &&
		      rnic_qp_ctx_get_state(fw_res.qp_ctx[q.qpn]) == RNIC_QP_STATE_RTS,
	      "fw-rqg-takeover-rq-pi-catches-up-with-the-feed");
}

/* Receives posted in INIT: the engine hands the slots' worth; the move to RTR writes the QP-table
 * entry (which empties the slots): the QP is taken over before it and given back after, the
 * engine hands the same WQEs again from rq_ci and then the rest, each once after the write. */
static void modify_rewrite(void)
{
	boot();
	struct qp q, *qs[1] = { &q };
	create(&q, 0, RNIC_QP_STATE_INIT);
	for (int i = 0; i < 6; i++)
		post(&q, 0);
	ring(&q);
	unsigned m0 = mock_nmbox;
	int ok = descs(m0 - SLOTS, qs, 1, (int[]){ SLOTS });
	mock_rqg_pos_busy = 3; /* the engine still on the QP for three loads: the read-back waits */
	unsigned p0 = mock_rqg_pos_loads, q0 = mock_nmbox;
	modify(q.qpn, RNIC_QP_STATE_RTR, to_rtr);
	mock_rqg_run();
	mock_rqg_pos_busy = 0;
	const struct mock_mbox_rec *qe = mock_mbox_nth(RNIC_FW_REG_QPT_COMMIT, q0, 0);
	/* nothing of the engine's between the takeover and the entry write */
	ok &= qe && mock_rqg_pos_loads - p0 >= 5 && fw_res.qp_run[q.qpn].rqg && mock_rqg_qp[q.qpn].feed == SLOTS;
	q.next_desc = 0;
	unsigned nq = 0;
	for (unsigned n = 0; mock_mbox_nth(RNIC_FW_REG_QPT_COMMIT, q0, n); n++)
		nq++;
	ok &= descs(m0, qs, 1, (int[]){ SLOTS });
	/* the descriptors after the write: the first SLOTS of the ring again */
	int after = 1;
	for (unsigned n = 0; n < mock_nmbox - q0; n++) {
		const struct mock_mbox_rec *r = &mock_mbox[q0 + n];
		if (r->commit_off == RNIC_FW_REG_QPT_COMMIT)
			after = 0;
		else if (r->commit_off == RNIC_FW_TC_RQD_COMMIT && after)
			ok = 0; /* an rq_desc before the entry write: the write would have emptied it */
	}
	modify(q.qpn, RNIC_QP_STATE_RTS, to_rts);
	unsigned m1 = mock_nmbox;
	for (int i = 0; i < 6; i++)
		recv_done(&q), ok &= cqe(wr_of(&q, (uint32_t)i), RNIC_WC_STATUS_SUCCESS);
	q.next_desc = SLOTS;
	ok &= descs(m1, qs, 1, (int[]){ 2 });
	check(ok && nq == 1 && mock_rqg_violations == 0, "fw-rqg-entry-rewrite-takeover-give-back-no-wqe-lost-or-twice");
}

/* The move to ERR: the QP taken over, every posted receive flushed in order, none handed after. */
static void to_err(void)
{
	boot();
	struct qp q;
	create(&q, 0, RNIC_QP_STATE_RTS);
	for (int i = 0; i < 7; i++)
		post(&q, 0);
	ring(&q);
	unsigned m = mock_nmbox, h0 = mock_rqg_handed;
	modify(q.qpn, RNIC_QP_STATE_ERR, 0);
	int ok = !fw_res.qp_run[q.qpn].rqg && !mock_rqg_qp[q.qpn].en;
	for (int i = 0; i < 7; i++)
		ok &= cqe(wr_of(&q, (uint32_t)i), RNIC_WC_STATUS_WR_FLUSH_ERR);
	post(&q, 0);
	ring(&q);
	ok &= cqe(wr_of(&q, 7), RNIC_WC_STATUS_WR_FLUSH_ERR);
	check(ok && mock_rqg_handed == h0 && mock_rqg_violations == 0 && mock_mbox_count(RNIC_FW_TC_RQD_COMMIT, m) == 0,
	      "fw-rqg-err-takeover-flush-in-order-none-handed");
}

/* Two QPs interleaved, one of them at its limit with WQEs posted: the other's records are not held
 * behind it (the engine removes the head record it cannot hand), each QP's WQEs in order, once. */
static void two_qps(void)
{
	boot();
	struct qp a, b, *qs[2] = { &a, &b };
	create(&a, 0, RNIC_QP_STATE_RTS);
	create(&b, 1, RNIC_QP_STATE_RTS);
	unsigned m = mock_nmbox;
	for (int i = 0; i < 12; i++)
		post(&a, 0);
	ring(&a);
	pass();
	for (int i = 0; i < 12; i++)
		post(&b, 0);
	ring(&b);
	int ok = 1;
	for (int i = 0; i < 8; i++) {
		recv_done(&b);
		ok &= cqe(wr_of(&b, (uint32_t)i), RNIC_WC_STATUS_SUCCESS);
	}
	for (int i = 0; i < 12; i++) {
		recv_done(&a);
		ok &= cqe(wr_of(&a, (uint32_t)i), RNIC_WC_STATUS_SUCCESS);
	}
	for (int i = 8; i < 12; i++) {
		recv_done(&b);
		ok &= cqe(wr_of(&b, (uint32_t)i), RNIC_WC_STATUS_SUCCESS);
	}
	check(ok && descs(m, qs, 2, (int[]){ 12, 12 }) && mock_rqg_violations == 0, "fw-rqg-two-qps-each-in-order-once");
}

/* rq_dbs queued in the firmware's doorbell mailbox (the host re-posts one receive per completion
 * while the firmware works through receive events): one pass takes the QP's run of them, keeps the
 * newest producer index it checked (one out of the ring ignored) and stores it once (rqf_pi); the
 * doorbell of another QP behind the run is its own. The engine lost them all (its FIFO full), so
 * what it hands comes from that one store: every WQE, byte for byte, none twice. */
static void db_batch(void)
{
	boot();
	struct qp a, b, *qs[2] = { &a, &b };
	create(&a, 0, RNIC_QP_STATE_RTS);
	create(&b, 1, RNIC_QP_STATE_RTS);
	unsigned m = mock_nmbox, h0 = mock_rqg_handed, p0 = mock_rqg_pi_stores, l0 = mock_rqg_lost;
	uint32_t page = rnic_qp_ctx_get_uctx(fw_res.qp_ctx[a.qpn]);
	mock_rqg_fifo_full = 4; /* the engine's FIFO drops the next four */
	for (unsigned k = 0; k < 3; k++) {
		post(&a, 0);
		uint8_t v[4] = { 0 }, ev[4] = { 0 };
		rnic_db_word_set_num(v, a.qpn);
		rnic_db_word_set_index(v, a.rq.pi);
		mock_wqf_rdb(page, (uint32_t)rnic_ld_le(v, 4));
		rnic_db_event_set_page(ev, page);
		rnic_db_event_set_which(ev, RNIC_DB_RQ_DB / 4);
		mock_db_push((uint32_t)rnic_ld_le(ev, 4), (uint32_t)rnic_ld_le(v, 4));
		if (k == 1) { /* past the ring: ignored, the next still taken */
			rnic_db_word_set_index(v, (uint16_t)(a.rq.pi + 100));
			mock_db_push((uint32_t)rnic_ld_le(ev, 4), (uint32_t)rnic_ld_le(v, 4));
		}
	}
	post(&b, 0);
	uint8_t v[4] = { 0 }, ev[4] = { 0 };
	rnic_db_word_set_num(v, b.qpn);
	rnic_db_word_set_index(v, b.rq.pi);
	mock_wqf_rdb(page, (uint32_t)rnic_ld_le(v, 4));
	rnic_db_event_set_page(ev, page);
	rnic_db_event_set_which(ev, RNIC_DB_RQ_DB / 4);
	mock_db_push((uint32_t)rnic_ld_le(ev, 4), (uint32_t)rnic_ld_le(v, 4));
	fw_xport_poll();
	mock_rqg_run();
	int ok = mock_rqg_lost - l0 == 4 && mock_rqg_fifo_full == 0 && mock_rqg_pi_stores - p0 == 2 && rnic_qp_ctx_get_rq_pi(fw_res.qp_ctx[a.qpn]) == 3 &&
		 mock_rqg_qp[a.qpn].pi == 3 && mock_rqg_qp[b.qpn].pi == 1 && mock_db_pending() == 0;
	for (unsigned k = 0; k < 3; k++)
		recv_done(&a), ok &= cqe(wr_of(&a, k), RNIC_WC_STATUS_SUCCESS);
	recv_done(&b);
	ok &= cqe(wr_of(&b, 0), RNIC_WC_STATUS_SUCCESS);
	check(ok && descs(m, qs, 2, (int[]){ 3, 1 }) && fw_commits(m, h0) == 0 && mock_rqg_violations == 0,
	      "fw-rqg-rq-dbs-of-one-qp-one-rqf-pi-store");
}

/* The host keeps the RQ full and reposts after each completion (as the bench's SEND streams do);
 * rq_dbs are lost now and then: the receive engine's slots never run dry, every WQE once, in
 * order, and the engine feeds the QP again after each loss. */
static void lost_in_stream(void)
{
	boot();
	struct qp q, *qs[1] = { &q };
	create(&q, 0, RNIC_QP_STATE_RTS);
	unsigned m = mock_nmbox, l0 = mock_rqg_lost;
	while (q.rq.pi < (1u << RQ_LOG))
		post(&q, 0);
	ring(&q);
	pass();
	int ok = 1, dry = 0, back = 1;
	for (unsigned i = 0; i < 64; i++) {
		recv_done(&q);
		ok &= cqe(wr_of(&q, q.done - 1), RNIC_WC_STATUS_SUCCESS);
		post(&q, 0);
		if (i % 9 == 4)
			mock_rqg_fifo_full = 1;
		ring(&q);
		pass();
		/* buffers with the receive engine: handed - completed */
		unsigned handed = mock_mbox_count(RNIC_FW_TC_RQD_COMMIT, m);
		dry |= handed - q.done < SLOTS;
		if (i % 9 == 8)
			back &= fw_res.qp_run[q.qpn].rqg;
	}
	check(ok && !dry && back && mock_rqg_lost - l0 >= 7 && descs(m, qs, 1, (int[]){ (int)(q.done + SLOTS) }) &&
		      mock_rqg_violations == 0,
	      "fw-rqg-lost-in-stream-slots-full-none-lost-none-twice");
}

/* RESP_ERROR for a SEND that consumed a buffer the engine handed (LOC_LEN_ERR): the firmware takes
 * the QP over (its count of handed buffers is the engine's feed), completes that buffer with the
 * error and flushes the rest in order. */
static void resp_error(void)
{
	boot();
	struct qp q;
	create(&q, 0, RNIC_QP_STATE_RTS);
	for (int i = 0; i < 3; i++)
		post(&q, 0);
	ring(&q);
	uint8_t ev[RNIC_RX_EVENT_SIZE] = { 0 };
	rnic_rx_event_set_kind(ev, RNIC_RX_EVENT_KIND_RESP_ERROR);
	rnic_rx_event_set_qpn(ev, q.qpn);
	rnic_rx_event_set_wr_id(ev, wr_of(&q, 0));
	rnic_rx_event_set_status(ev, RNIC_WC_STATUS_LOC_LEN_ERR);
	fw_rx_event(ev);
	int ok = cqe(wr_of(&q, 0), RNIC_WC_STATUS_LOC_LEN_ERR) && cqe(wr_of(&q, 1), RNIC_WC_STATUS_WR_FLUSH_ERR) &&
		 cqe(wr_of(&q, 2), RNIC_WC_STATUS_WR_FLUSH_ERR);
	check(ok && !fw_res.qp_run[q.qpn].rqg && !mock_rqg_qp[q.qpn].en && mock_rqg_violations == 0 &&
		      rnic_qp_ctx_get_state(fw_res.qp_ctx[q.qpn]) == RNIC_QP_STATE_ERR,
	      "fw-rqg-resp-error-takeover-consumed-buffer-then-flush");
}

/* RESP_ERROR while the firmware's mailbox lags (rqrace): the engine took rq_db 4 itself and three
 * receives completed (rq_ci 3, rq_pi still 2). The takeover moves rq_pi to the engine's feed (4),
 * so the flush completes exactly the one buffer posted and not consumed (3); without it the flush
 * runs from rq_ci to rq_pi the long way round the index space (stale ring entries flushed as
 * CQEs). The rq_db read afterwards (4) is behind nothing new: no log line, no more CQEs. */
static void stale_flush(void)
{
	boot();
	struct qp q;
	create(&q, 0, RNIC_QP_STATE_RTS);
	post(&q, 0);
	post(&q, 0);
	ring(&q);
	uint32_t ev4;
	post(&q, 0);
	post(&q, 0);
	uint32_t v4 = ring_hw(&q, &ev4);
	int ok = 1;
	for (uint32_t i = 0; i < 3; i++) {
		recv_done(&q);
		ok &= cqe(wr_of(&q, i), RNIC_WC_STATUS_SUCCESS);
	}
	ok &= rq_pi_of(&q) == 2;
	uint8_t ev[RNIC_RX_EVENT_SIZE] = { 0 };
	rnic_rx_event_set_kind(ev, RNIC_RX_EVENT_KIND_RESP_ERROR);
	rnic_rx_event_set_qpn(ev, q.qpn);
	rnic_rx_event_set_status(ev, RNIC_WC_STATUS_REM_INV_REQ_ERR);
	fw_rx_event(ev);
	ok &= cqe(wr_of(&q, 3), RNIC_WC_STATUS_WR_FLUSH_ERR) && rq_pi_of(&q) == 4;
	uint32_t log0 = fw_log_head(); /* (after the RESP_ERROR's own line) */
	ring_fw(ev4, v4);
	struct rnicp_wc wc;
	check(ok && rnicp_cq_poll(&cq, 1, &wc) == 0 && fw_log_head() == log0 &&
		      rnic_qp_ctx_get_rq_ci(fw_res.qp_ctx[q.qpn]) == 4 &&
		      rnic_qp_ctx_get_state(fw_res.qp_ctx[q.qpn]) == RNIC_QP_STATE_ERR,
	      "fw-rqg-resp-error-with-rq-pi-behind-flushes-only-the-posted");
}

/* A receive event of q as the receive engine puts it into the event ring: kind, wr_id of its
 * position k, and fields that each land in a CQE word (status, flags, byte_len, imm, src_qpn). */
static void ring_push(const struct qp *q, uint32_t kind, uint32_t k)
{
	uint8_t ev[RNIC_RX_EVENT_SIZE] = { 0 };
	rnic_rx_event_set_kind(ev, kind);
	rnic_rx_event_set_qpn(ev, q->qpn);
	rnic_rx_event_set_wr_id(ev, wr_of(q, k));
	rnic_rx_event_set_byte_len(ev, 64 + k);
	rnic_rx_event_set_syndrome(ev, 0x5A); /* not a CQE field: must not leak into it */
	rnic_rx_event_set_psn(ev, 0xABCDEF);
	if (kind == RNIC_RX_EVENT_KIND_WRITE_IMM_DONE) {
		rnic_rx_event_set_imm_data(ev, 0x11223300u | k);
		rnic_rx_event_set_flags(ev, 1u << RNIC_CQE_FLAG_WITH_IMM | 1u << RNIC_CQE_FLAG_SOLICITED);
	}
	rnic_rx_event_set_src_qpn(ev, 0x7700u + k);
	if (!mock_evr_push(ev))
		fprintf(stderr, "event ring full\n");
}

/* The CQE of that event, every field the record carries. */
static int ring_cqe(const struct qp *q, uint32_t kind, uint32_t k)
{
	struct rnicp_wc wc;
	int imm = kind == RNIC_RX_EVENT_KIND_WRITE_IMM_DONE;
	return rnicp_cq_poll(&cq, 1, &wc) == 1 && wc.wr_id == wr_of(q, k) && wc.status == RNIC_WC_STATUS_SUCCESS &&
	       wc.opcode == (imm ? RNIC_WC_OPCODE_RECV_RDMA_WITH_IMM : RNIC_WC_OPCODE_RECV) && wc.byte_len == 64 + k &&
	       wc.imm_data == (imm ? 0x11223300u | k : 0) && wc.qpn == q->qpn && wc.src_qp == 0x7700u + k &&
	       wc.flags == (imm ? 1u << RNIC_CQE_FLAG_WITH_IMM | 1u << RNIC_CQE_FLAG_SOLICITED : 0) && wc.wqe_index == k;
}

/* The grant stores of qpn in the log from index g0 on: how many, and the limit of the first. */
static unsigned grants_of(uint32_t qpn, unsigned g0, uint32_t *first)
{
	unsigned n = 0;
	for (unsigned i = g0; i < mock_rqg_grants && i < MOCK_RQG_GRANT_LOG; i++)
		if (rnic_rqf_grant_v_qpn(mock_rqg_grant_log[i]) == qpn && rnic_rqf_grant_v_en(mock_rqg_grant_log[i]))
			if (n++ == 0)
				*first = rnic_rqf_grant_v_limit(mock_rqg_grant_log[i]);
	return n;
}

/* A full event ring holding three receive events of one QP (a RECV_DONE, a WRITE_IMM_DONE, a
 * RECV_DONE) with another QP's between them: one pass grants the first QP once, past all three
 * (rq_ci + 3 + slots) at its first event, before its first CQE; the other QP once; the CQEs in
 * ring order, each field as the event carried it; the engine hands up to the new limits. */
static void ring_run(void)
{
	boot();
	struct qp a, b, *qs[2] = { &a, &b };
	create(&a, 0, RNIC_QP_STATE_RTS);
	create(&b, 1, RNIC_QP_STATE_RTS);
	unsigned m = mock_nmbox, h0 = mock_rqg_handed;
	for (int i = 0; i < 10; i++)
		post(&a, 0);
	post(&b, 0);
	post(&b, 0);
	ring(&a);
	ring(&b);
	int ok = descs(m, qs, 2, (int[]){ SLOTS, 2 });
	a.next_desc = b.next_desc = 0;
	ring_push(&a, RNIC_RX_EVENT_KIND_RECV_DONE, 0);
	ring_push(&a, RNIC_RX_EVENT_KIND_WRITE_IMM_DONE, 1);
	ring_push(&b, RNIC_RX_EVENT_KIND_RECV_DONE, 0);
	ring_push(&a, RNIC_RX_EVENT_KIND_RECV_DONE, 2);
	unsigned g0 = mock_rqg_grants, c0 = fw_perf.cqes;
	fw_xport_poll();
	a.done = 3, a.rq.ci = 3;
	b.done = 1, b.rq.ci = 1;
	mock_rqg_run();
	uint32_t la = 0, lb = 0;
	unsigned na = grants_of(a.qpn, g0, &la), nb = grants_of(b.qpn, g0, &lb);
	/* the first QP's grant came before any CQE: it is the first store of the pass */
	int first = mock_rqg_grants > g0 && rnic_rqf_grant_v_qpn(mock_rqg_grant_log[g0]) == a.qpn;
	ok &= ring_cqe(&a, RNIC_RX_EVENT_KIND_RECV_DONE, 0) && ring_cqe(&a, RNIC_RX_EVENT_KIND_WRITE_IMM_DONE, 1);
	ok &= ring_cqe(&b, RNIC_RX_EVENT_KIND_RECV_DONE, 0) && ring_cqe(&a, RNIC_RX_EVENT_KIND_RECV_DONE, 2);
	check(ok && na == 1 && la == 3 + SLOTS && nb == 1 && lb == 1 + SLOTS && first && fw_perf.cqes == c0 + 4 &&
		      descs(m, qs, 2, (int[]){ 3 + SLOTS, 2 }) && fw_commits(m, h0) == 0 && mock_rqg_violations == 0 &&
		      rnic_qp_ctx_get_rq_ci(fw_res.qp_ctx[a.qpn]) == 3,
	      "fw-rqg-ring-run-one-grant-past-the-qps-events");
}

/* 60 receives through the event ring in runs of 1..4 (more than the CQE writer's record slots,
 * so the firmware's count of free slots is read again from the writer): every CQE byte for
 * byte in order, the limit rq_ci + slots after each pass, at most one grant per run, the engine
 * never past the slots. */
static void ring_stream(void)
{
	boot();
	struct qp q, *qs[1] = { &q };
	create(&q, 0, RNIC_QP_STATE_RTS);
	unsigned m = mock_nmbox, h0 = mock_rqg_handed;
	while (q.rq.pi < (1u << RQ_LOG))
		post(&q, 0);
	ring(&q);
	int ok = 1;
	unsigned runs = 0, g0 = mock_rqg_grants;
	for (uint32_t k = 0, r = 1; k < 60; r = r % 4 + 1) {
		uint32_t k0 = k;
		for (uint32_t i = 0; i < r && k < 60; i++, k++)
			ring_push(&q, (k % 3) == 1 ? RNIC_RX_EVENT_KIND_WRITE_IMM_DONE : RNIC_RX_EVENT_KIND_RECV_DONE, k);
		fw_xport_poll();
		runs++;
		q.done = k, q.rq.ci = k;
		ok &= mock_rqg_qp[q.qpn].limit == ((k + SLOTS) & 0xFFFFu);
		for (uint32_t j = k0; j < k; j++) {
			ok &= ring_cqe(&q, (j % 3) == 1 ? RNIC_RX_EVENT_KIND_WRITE_IMM_DONE : RNIC_RX_EVENT_KIND_RECV_DONE, j);
			post(&q, 0);
		}
		ring(&q);
		ok &= descs(m, qs, 1, (int[]){ -1 });
		q.next_desc = 0;
	}
	uint32_t l0;
	check(ok && grants_of(q.qpn, g0, &l0) == runs && descs(m, qs, 1, (int[]){ 60 + SLOTS }) && fw_commits(m, h0) == 0 &&
		      mock_rqg_violations == 0,
	      "fw-rqg-ring-stream-cqes-byte-exact-one-grant-per-run");
}

int main(void)
{
	bring_up();
	stream();
	stop_sge();
	stop_fetch();
	lost_db();
	stale_db();
	stale_takeover();
	stale_flush();
	db_batch();
	lost_in_stream();
	modify_rewrite();
	to_err();
	resp_error();
	two_qps();
	ring_run();
	ring_stream();
	return mock_failed;
}
