/* Threads: several posting to one QP (the SQ lock keeps every WQE whole and its index right),
 * and one posting into a small SQ while a "device" thread completes and polls, so the SQ
 * refills from retired WQEs concurrently with posting. */
#include <pthread.h>
#include <sched.h>
#include <string.h>

#include "rnic_spec.h"
#include "tb_prov.h"

#define THREADS 4
#define PER_THREAD 300

static struct ibv_qp *qp;
static int post_errors;

static void *poster(void *arg)
{
	uintptr_t t = (uintptr_t)arg;
	struct ibv_sge s = { 0x1000, 8, 0x122 };
	struct ibv_send_wr w, *bad;

	for (int i = 0; i < PER_THREAD; i++) {
		memset(&w, 0, sizeof(w));
		w.wr_id = t << 32 | (uint64_t)i;
		w.opcode = IBV_WR_RDMA_WRITE;
		w.sg_list = &s;
		w.num_sge = 1;
		if (rnicp_post_send(qp, &w, &bad))
			__atomic_fetch_add(&post_errors, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static void test_stream(void);

void test_mt(void)
{
	struct rnicp_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp_init_attr a;
	struct ibv_qp_attr m;
	struct rnicp_qp *q;
	pthread_t th[THREADS];
	static uint8_t seen[THREADS][PER_THREAD];
	int ok = 1;

	mock_reset();
	ctx = tb_ctx_new();
	pd = rnicp_alloc_pd(&ctx->vctx.context);
	cq = rnicp_create_cq(&ctx->vctx.context, 16, NULL, 0);
	memset(&a, 0, sizeof(a));
	a.send_cq = a.recv_cq = cq;
	a.qp_type = IBV_QPT_RC;
	a.cap = (struct ibv_qp_cap){ THREADS * PER_THREAD, 1, 1, 1, 0 };
	qp = rnicp_create_qp(pd, &a);
	q = to_rqp(qp);
	memset(&m, 0, sizeof(m));
	for (enum ibv_qp_state s = IBV_QPS_INIT; s <= IBV_QPS_RTS; s++) {
		m.qp_state = s;
		rnicp_modify_qp(qp, &m, IBV_QP_STATE);
	}
	for (uintptr_t t = 0; t < THREADS; t++)
		pthread_create(&th[t], NULL, poster, (void *)t);
	for (int t = 0; t < THREADS; t++)
		pthread_join(th[t], NULL);
	for (uint32_t i = 0; i < q->sq.pi && ok; i++) {
		const uint8_t *w = q->sq.buf + (size_t)i * 64;
		uint64_t id = rnic_wqe_ctrl_get_wr_id(w);

		ok = rnic_wqe_ctrl_get_wqe_index(w) == i && rnic_wqe_ctrl_get_num_ds(w) == 2 &&
		     (id >> 32) < THREADS && (uint32_t)id < PER_THREAD && !seen[id >> 32][(uint32_t)id];
		if (ok)
			seen[id >> 32][(uint32_t)id] = 1;
	}
	CHECK(!post_errors && q->sq.pi == THREADS * PER_THREAD && ok && mock.ndb + mock.nbf >= THREADS * PER_THREAD,
	      "mt-concurrent-posts-whole-and-ordered");
	rnicp_destroy_qp(qp);
	rnicp_destroy_cq(cq);
	rnicp_dealloc_pd(pd);
	tb_ctx_free(ctx);
	test_stream();
}

/* ---- poster against a device + poller thread ------------------------------------------ */
#define STREAM 3000

static uint32_t announced;	/* the SQ producer index of the last doorbell */
static int stream_done;

static void on_db(uint32_t off, uint32_t val)
{
	if (off == RNIC_DB_SQ_DB || off == RNIC_DB_BF_DB)
		__atomic_store_n(&announced, val >> 16, __ATOMIC_RELEASE);
}

static void *device_and_poller(void *arg)
{
	struct ibv_cq *cq = arg;
	struct rnicp_vcq *v = to_rcq(cq);
	uint32_t k = 0, done = 0, next_wqe = 0;
	struct ibv_wc wc;
	int bad = 0;

	while (done < STREAM && !bad) {
		uint32_t pi = __atomic_load_n(&announced, __ATOMIC_ACQUIRE);

		if ((uint16_t)(pi - next_wqe) == 0) {
			sched_yield();
			continue;
		}
		/* complete the WQE at next_wqe (one WQEBB each, all signaled) */
		{
			const uint8_t *w = to_rqp(qp)->sq.buf + (size_t)(next_wqe & ((1u << to_rqp(qp)->sq.log_size) - 1)) * 64;
			uint8_t *e = (uint8_t *)v->buf + (size_t)(k & ((1u << v->ring.log_size) - 1)) * RNIC_CQE_SIZE;

			memset(e, 0, RNIC_CQE_SIZE);
			rnic_cqe_set_wr_id(e, rnic_wqe_ctrl_get_wr_id(w));
			rnic_cqe_set_qpn(e, to_rqp(qp)->qpn);
			rnic_cqe_set_wqe_index(e, rnic_wqe_ctrl_get_wqe_index(w));
			rnic_cqe_set_opcode(e, RNIC_WC_OPCODE_RDMA_WRITE);
			__atomic_thread_fence(__ATOMIC_RELEASE);
			rnic_cqe_set_owner(e, ((k >> v->ring.log_size) & 1u) ^ 1u);
			k++;
			next_wqe++;
		}
		if (rnicp_poll_cq(cq, 1, &wc) != 1 || wc.wr_id != done)
			bad = 1;
		done++;
	}
	__atomic_store_n(&stream_done, bad ? -1 : 1, __ATOMIC_RELEASE);
	return NULL;
}

static void test_stream(void)
{
	struct rnicp_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp_init_attr a;
	struct ibv_qp_attr m;
	struct ibv_sge s = { 0x1000, 8, 0x122 };
	struct ibv_send_wr w, *bad;
	pthread_t th;
	int full = 0, errors = 0;

	mock_reset();
	mock.on_db = on_db;
	announced = 0;
	ctx = tb_ctx_new();
	pd = rnicp_alloc_pd(&ctx->vctx.context);
	cq = rnicp_create_cq(&ctx->vctx.context, 16, NULL, 0);
	memset(&a, 0, sizeof(a));
	a.send_cq = a.recv_cq = cq;
	a.qp_type = IBV_QPT_RC;
	a.cap = (struct ibv_qp_cap){ 4, 1, 1, 1, 0 };	/* 8 WQEBBs */
	qp = rnicp_create_qp(pd, &a);
	memset(&m, 0, sizeof(m));
	for (enum ibv_qp_state st = IBV_QPS_INIT; st <= IBV_QPS_RTS; st++) {
		m.qp_state = st;
		rnicp_modify_qp(qp, &m, IBV_QP_STATE);
	}
	pthread_create(&th, NULL, device_and_poller, cq);
	for (uint64_t i = 0; i < STREAM;) {
		int rc;

		memset(&w, 0, sizeof(w));
		w.wr_id = i;
		w.opcode = IBV_WR_RDMA_WRITE;
		w.send_flags = IBV_SEND_SIGNALED;
		w.sg_list = &s;
		w.num_sge = 1;
		rc = rnicp_post_send(qp, &w, &bad);
		if (rc == ENOMEM) {
			full++;
			sched_yield();
		} else if (rc) {
			errors++;
			break;
		} else {
			i++;
		}
	}
	pthread_join(th, NULL);
	CHECK(!errors && stream_done == 1 && full > 0 && to_rqp(qp)->sq.ci == to_rqp(qp)->sq.pi &&
		      to_rqp(qp)->sq.pi == STREAM,
	      "mt-post-while-polling-refills-small-sq");
	mock.on_db = NULL;
	rnicp_destroy_qp(qp);
	rnicp_destroy_cq(cq);
	rnicp_dealloc_pd(pd);
	tb_ctx_free(ctx);
}
