/* Several threads posting to one QP: the SQ lock keeps every WQE whole and its index right. */
#include <pthread.h>
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
}
