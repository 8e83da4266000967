/* The mock WQE fetch engine's grant mode (mock_rqf.h): the RTL's rules (rtl/wqe_fetch/README.md
 * "Grant mode") on the mock's RQ ring state and records (mock_mmio.c), every WQE it hands recorded
 * as an rq_desc commit, as the QP table sees it. Fetches complete at once; the engine's passes run
 * at the firmware's next load after a store or doorbell (or at mock_rqg_run). */
#include <stdio.h>
#include <string.h>

#include "mock_mmio.h"
#include "mock_rqf.h"

/* mock_mmio.c's RQ records (the same struct there: keep the two in step) */
struct mock_wqf_rec {
	uint32_t qpn, first, bbs, slot, err;
};
extern struct mock_wqf_rec mock_rrec[RNIC_FW_TC_WQF_RDB_NUM];
extern unsigned mock_rrec_rd, mock_rslot, mock_rused;
extern unsigned mock_qp_log2;

#define QPS 4096u /* mock_mmio.c's MOCK_SQS */

unsigned mock_rqg_on, mock_rqg_hold, mock_rqg_fifo_full, mock_rqg_pos_lag = 1, mock_rqg_pos_busy;
unsigned mock_rqg_holds, mock_rqg_pi_stores;
unsigned mock_rqg_grants;
uint32_t mock_rqg_grant_log[MOCK_RQG_GRANT_LOG];
unsigned mock_rqg_handed, mock_rqg_removed, mock_rqg_rewound, mock_rqg_stops, mock_rqg_reevals, mock_rqg_lost,
	mock_rqg_dbs, mock_rqg_pos_loads, mock_rqg_violations, mock_rqg_mode;
struct mock_rqg_qp mock_rqg_qp[QPS];

static unsigned pend, room = 1, lost, stop_v, stop_qpn, stop_pos, stop_rsn, pos_sel, lag_left, busy_left;
/* the re-evaluation queue: each QP at most once */
static uint16_t rw_fifo[QPS];
static uint8_t rw_pend[QPS];
static unsigned rw_rd, rw_n;

static void violation(const char *what, uint32_t qpn)
{
	fprintf(stderr, "mock grant engine: %s (qp %u)\n", what, (unsigned)qpn);
	mock_rqg_violations++;
}

void mock_rqg_reset(void)
{
	memset(mock_rqg_qp, 0, sizeof(mock_rqg_qp));
	memset(rw_pend, 0, sizeof(rw_pend));
	rw_rd = rw_n = 0;
	pend = lost = stop_v = 0;
	room = 1;
	mock_rqg_mode = 0;
	mock_rqg_grants = 0;
}

static void queue(uint32_t qpn)
{
	if (rw_pend[qpn])
		return;
	rw_pend[qpn] = 1;
	rw_fifo[(rw_rd + rw_n++) % QPS] = (uint16_t)qpn;
}

static void pop(void)
{
	mock_rused -= mock_rrec[mock_rrec_rd].bbs;
	mock_rrec_rd = (mock_rrec_rd + 1) % RNIC_FW_TC_WQF_RDB_NUM;
	mock_wqf_rrec_n--;
	room = 1;
}

/* 1 if every RQ record is qpn's (or there is none): the RTL's rdiff_q / rlast_qpn_q */
static int alone(uint32_t qpn)
{
	for (unsigned i = 0; i < mock_wqf_rrec_n; i++)
		if (mock_rrec[(mock_rrec_rd + i) % RNIC_FW_TC_WQF_RDB_NUM].qpn != qpn)
			return 0;
	return 1;
}

/* An rq_db's evaluation (syn: a re-evaluation, the QP's last producer index, its page not
 * checked): the count cut to the grant's limit plus the WQEs fetched ahead (fw_tc.rqf_ahead_bbs,
 * only while the QP is alone in the region), then to the ring end and the free region. */
static void eval(uint32_t qpn, uint32_t pi, int syn, uint32_t page)
{
	struct mock_rq *q = &mock_rq[qpn];
	struct mock_rqg_qp *g = &mock_rqg_qp[qpn];
	if (!q->en || (!syn && q->page != page))
		return;
	if (!syn)
		g->pi = pi;
	uint32_t ahead = alone(qpn) ? RNIC_FW_TC_RQF_AHEAD_BBS >> q->lb : 0;
	uint32_t size = 1u << q->log, n = (pi - q->fidx) & 0xFFFFu, gl = (g->limit + ahead - q->fidx) & 0xFFFFu;
	if (n == 0 || n > size)
		return;
	n = !g->en || (gl & 0x8000u) ? 0 : gl < n ? gl : n;
	if (n == 0)
		return; /* at the limit and ahead: the next grant queues the QP */
	uint32_t left = size - (q->fidx & (size - 1));
	uint32_t free = mock_wqf_rrec_n == RNIC_FW_TC_WQF_RDB_NUM ? 0 : (RNIC_FW_TC_WQF_RDB_BUF_BBS - mock_rused) >> q->lb;
	uint32_t k = n < left ? n : left;
	k = k < free ? k : free;
	if (k < n) {
		queue(qpn);
		if (k < left)
			room = 0; /* retried once a record leaves */
	}
	if (k == 0)
		return;
	mock_wqf_rq_fetch(qpn, k);
}

static void stop(uint32_t qpn, uint32_t pos, uint32_t rsn)
{
	stop_v = 1, stop_qpn = qpn, stop_pos = pos, stop_rsn = rsn;
	mock_rqg_qp[qpn].stopped = 1;
	mock_rqg_stops++;
	pop();
}

/* A QP at its limit gives the head up: a record of another QP behind it, or another QP queued
 * while an evaluation found no room (the RTL's gyield_q) */
static int yield(uint32_t qpn)
{
	if (!alone(qpn))
		return 1;
	if (room)
		return 0;
	for (unsigned i = 0; i < rw_n; i++)
		if (rw_fifo[(rw_rd + i) % QPS] != qpn)
			return 1;
	return 0;
}

/* One pass over the head record: 1 if it changed something. */
static int head(void)
{
	if (!mock_wqf_rrec_n)
		return 0;
	const struct mock_wqf_rec *h = &mock_rrec[mock_rrec_rd];
	uint32_t qpn = h->qpn, lb = mock_rq[qpn].lb;
	struct mock_rqg_qp *g = &mock_rqg_qp[qpn];
	uint32_t n = h->bbs >> lb, d = (g->feed - h->first) & 0xFFFFu, gl = (g->limit - g->feed) & 0xFFFFu;
	if (!g->en || g->stopped || (!(d & 0x8000u) && d >= n)) {
		pop(); /* not fed, or every position passed */
		mock_rqg_removed++;
		return 1;
	}
	int lim = gl == 0 || (gl & 0x8000u);
	if (lim && !(d & 0x8000u) && !yield(qpn)) {
		mock_rqg_holds++;
		return 0; /* at its limit: the WQE, fetched ahead, waits for the next grant */
	}
	if ((d & 0x8000u) || lim) {
		/* further on than the feed, or the QP at its limit giving the head up: fetched again
		 * from the feed later (at its limit: at its next grant) */
		pop();
		mock_rq[qpn].fidx = g->feed;
		mock_rqg_rewound++;
		if ((d & 0x8000u) && !lim)
			queue(qpn);
		return 1;
	}
	if (h->err) {
		if (stop_v)
			return 0; /* waits for the firmware to take the last stop */
		stop(qpn, g->feed, 1);
		return 1;
	}
	uint8_t w[RNIC_RQ_DESC_SIZE];
	for (uint32_t i = 0; i < RNIC_RQ_DESC_SIZE; i++) {
		uint32_t a = RNIC_FW_TC_WQF_RDB_BUF_BASE + ((h->slot + (d << lb) + i / 64) % RNIC_FW_TC_WQF_RDB_BUF_BBS) * 64 + i % 64;
		w[i] = (uint8_t)(mock_tc[a / 4] >> (8 * (a % 4)));
	}
	uint32_t ns = w[RNIC_RQ_WQE_NUM_SGE_OFF], smax = ((64u << lb) - RNIC_RQ_WQE_SIZE) / RNIC_WQE_SGE_SIZE;
	if (smax > RNIC_MAX_SGE)
		smax = RNIC_MAX_SGE;
	if (ns > smax) {
		if (stop_v)
			return 0;
		stop(qpn, g->feed, 2);
		return 1;
	}
	mock_rq_desc_post(qpn, w, ns);
	g->feed = (g->feed + 1) & 0xFFFFu;
	mock_rqg_handed++;
	if (d + 1 == n)
		pop();
	return 1;
}

void mock_rqg_run(void)
{
	pend = 0;
	if (!mock_rqg_mode)
		return;
	for (unsigned it = 0; it < 100000; it++) {
		if (head())
			continue;
		if (rw_n && room) {
			uint32_t q = rw_fifo[rw_rd];
			rw_rd = (rw_rd + 1) % QPS, rw_n--;
			rw_pend[q] = 0;
			mock_rqg_reevals++;
			eval(q, mock_rqg_qp[q].pi, 1, 0);
			continue;
		}
		return;
	}
	violation("the engine spins", 0);
}

static void kick(void)
{
	if (pend && !mock_rqg_hold)
		mock_rqg_run();
}

int mock_rqg_load(uint32_t off, uint32_t *v)
{
	kick();
	if (off == RNIC_FW_TC_RQF_STATUS) {
		*v = !mock_rqg_on ? 0
				  : rnic_rqf_status_mk_present(1) | rnic_rqf_status_mk_stop_valid(stop_v) |
					    rnic_rqf_status_mk_reason(stop_v ? stop_rsn : 0) | rnic_rqf_status_mk_lost(lost) |
					    rnic_rqf_status_mk_waiting(rw_n);
		return 1;
	}
	if (off == RNIC_FW_TC_RQF_POS) {
		const struct mock_rqg_qp *g = &mock_rqg_qp[pos_sel % QPS];
		mock_rqg_pos_loads++;
		if (!mock_rqg_on)
			*v = 0;
		else if (lag_left)
			lag_left--, *v = 0;
		else
			*v = rnic_rqf_pos_mk_feed(g->feed) | rnic_rqf_pos_mk_en(g->en) | rnic_rqf_pos_mk_stopped(g->stopped) |
			     rnic_rqf_pos_mk_busy(busy_left != 0) | rnic_rqf_pos_mk_valid(1);
		if (busy_left && *v)
			busy_left--;
		return 1;
	}
	if (off == RNIC_FW_TC_RQF_STOP) {
		*v = mock_rqg_on ? stop_qpn | stop_pos << 16 : 0;
		return 1;
	}
	return 0;
}

void mock_rqg_store(uint32_t off, uint32_t v)
{
	if (!mock_rqg_on)
		return;
	if (off == RNIC_FW_TC_WQF_DB_CTL) {
		unsigned on = (v >> 2) & 1u;
		if (on && !mock_rqg_mode)
			for (uint32_t q = 0; q < (1u << mock_qp_log2) && q < QPS; q++)
				if (!mock_rqg_qp[q].written) {
					violation("grant mode on before every QP's grant was written", q);
					break;
				}
		mock_rqg_mode = on;
		lost = 0;
		pend = 1;
		return;
	}
	if (off == RNIC_FW_TC_RQF_GRANT) {
		uint32_t q = rnic_rqf_grant_v_qpn(v);
		struct mock_rqg_qp *g = &mock_rqg_qp[q];
		if (mock_rqg_grants < MOCK_RQG_GRANT_LOG)
			mock_rqg_grant_log[mock_rqg_grants] = v;
		mock_rqg_grants++;
		g->written = 1;
		g->en = rnic_rqf_grant_v_en(v);
		g->limit = rnic_rqf_grant_v_limit(v);
		if (g->en && mock_rqg_mode)
			queue(q);
		pend = 1;
		return;
	}
	if (off == RNIC_FW_TC_RQF_FEED) {
		uint32_t q = rnic_wqf_sq_qidx_v_qpn(v);
		if (mock_rqg_qp[q].en)
			violation("rqf_feed while the grant is enabled", q);
		mock_rqg_qp[q].feed = rnic_wqf_sq_qidx_v_index(v);
		mock_rqg_qp[q].stopped = 0;
		pend = 1;
		return;
	}
	if (off == RNIC_FW_TC_RQF_PI) {
		/* the firmware's checked producer index: the re-evaluations' from now on, one queued */
		uint32_t q = rnic_wqf_sq_qidx_v_qpn(v);
		mock_rqg_qp[q].pi = rnic_wqf_sq_qidx_v_index(v);
		mock_rqg_pi_stores++;
		if (mock_rqg_mode)
			queue(q);
		pend = 1;
		return;
	}
	if (off == RNIC_FW_TC_RQF_POS) {
		pos_sel = rnic_wqf_sq_qidx_v_qpn(v);
		lag_left = mock_rqg_pos_lag;
		busy_left = mock_rqg_pos_busy;
		return;
	}
	if (off == RNIC_FW_TC_RQF_STOP) {
		stop_v = 0;
		pend = 1;
		return;
	}
	if (!mock_rqg_mode)
		return;
	if (off == RNIC_FW_TC_WQF_RQR_POP)
		violation("RQ record popped by the firmware in grant mode", 0);
	if (off == RNIC_FW_TC_WQF_RQF_CMD)
		violation("receive-feed command in grant mode", v & 0xFFFFu);
	if (off == RNIC_FW_TC_RQD_COMMIT && mock_rqg_qp[v % QPS].en)
		violation("rq_desc committed for a QP the engine feeds", v);
}

int mock_rqg_rdb(uint32_t page, uint32_t value)
{
	if (!mock_rqg_mode)
		return 0;
	uint32_t qpn = value & 0xFFFFu;
	if (!mock_wqf_rdb_on || qpn >= QPS)
		return 1;
	if (mock_rqg_fifo_full) {
		mock_rqg_fifo_full--;
		lost = 1;
		mock_rqg_lost++;
		return 1;
	}
	mock_rqg_dbs++;
	eval(qpn, value >> 16, 0, page);
	pend = 1;
	kick();
	return 1;
}
