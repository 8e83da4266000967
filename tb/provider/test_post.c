/* post_send / post_recv: the WQE bytes each ibv work request becomes, the doorbells and
 * BlueFlame posts, and every request refused at post time. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rnic_spec.h"
#include "tb_prov.h"

static struct rnicp_context *ctx;
static struct ibv_pd *pd;
static struct ibv_cq *cq;
static uint8_t exp_wqe[256];
#define exp_ctrl(...) tb_exp_ctrl(exp_wqe, sizeof(exp_wqe), __VA_ARGS__)

static struct ibv_qp *mkqp(enum ibv_qp_type t, uint32_t swr, uint32_t rwr, uint32_t inl)
{
	struct ibv_qp_init_attr a;

	memset(&a, 0, sizeof(a));
	a.send_cq = a.recv_cq = cq;
	a.qp_type = t;
	a.cap = (struct ibv_qp_cap){ swr, rwr, 4, 4, inl };
	return rnicp_create_qp(pd, &a);
}

static int to_state(struct ibv_qp *qp, enum ibv_qp_state s)
{
	struct ibv_qp_attr a;

	memset(&a, 0, sizeof(a));
	a.qp_state = s;
	return rnicp_modify_qp(qp, &a, IBV_QP_STATE);
}

static void to_rts(struct ibv_qp *qp)
{
	to_state(qp, IBV_QPS_INIT);
	to_state(qp, IBV_QPS_RTR);
	to_state(qp, IBV_QPS_RTS);
}


static void exp_sge(uint8_t *p, const struct ibv_sge *s)
{
	rnic_wqe_sge_set_addr(p, s->addr);
	rnic_wqe_sge_set_length(p, s->length);
	rnic_wqe_sge_set_lkey(p, s->lkey);
}

/* Posts one WR and compares the ring from the old producer index with exp_wqe (nbb WQEBBs),
 * the new producer index and the sq_db doorbell that followed. */
static int post_is(struct ibv_qp *qp, struct ibv_send_wr *wr, unsigned nbb)
{
	struct rnicp_qp *q = to_rqp(qp);
	struct ibv_send_wr *bad = NULL;
	uint32_t pi = q->sq.pi, mask = (1u << q->sq.log_size) - 1;
	unsigned ndb = mock.ndb;
	int rc = rnicp_post_send(qp, wr, &bad);

	return rc == 0 && !bad && q->sq.pi == pi + nbb && (pi & mask) + nbb <= mask + 1 &&
	       !memcmp(q->sq.buf + (size_t)(pi & mask) * 64, exp_wqe, nbb * 64u) && mock.ndb == ndb + 1 &&
	       mock.db_off[ndb] == RNIC_DB_SQ_DB && mock.db_val[ndb] == (q->qpn | (q->sq.pi & 0xFFFF) << 16);
}

static void test_wqe_bytes(void)
{
	struct ibv_qp *qp = mkqp(IBV_QPT_RC, 64, 16, 80);
	struct rnicp_qp *q = to_rqp(qp);
	struct ibv_sge s[4] = { { 0x7F0000001000ull, 100, 0x122 }, { 0x7F0000002000ull, 28, 0x123 },
				{ 0x7F0000003000ull, 4096, 0x124 }, { 0x7F0000004000ull, 8, 0x125 } };
	struct ibv_send_wr wr;
	uint8_t *p;
	uint32_t qpn = q->qpn, idx;
	static char text[] = "0123456789abcdefghijklmnopqrstuvwxyz";

	to_rts(qp);
	q->sq.ci = q->sq.pi = 1;	/* not idle: no BlueFlame in this part */

	memset(&wr, 0, sizeof(wr));
	wr.wr_id = 0x1111;
	wr.opcode = IBV_WR_RDMA_WRITE;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.sg_list = s;
	wr.num_sge = 2;
	wr.wr.rdma.remote_addr = 0x5555000012345678ull;
	wr.wr.rdma.rkey = 0xABCDEF;
	idx = q->sq.pi;
	p = exp_ctrl(0x1111, RNIC_WQE_OP_RDMA_WRITE, RNICP_WR_SIGNALED, idx, 0, 3, 2, 0, qpn, 128);
	rnic_wqe_raddr_set_remote_addr(p, 0x5555000012345678ull);
	rnic_wqe_raddr_set_rkey(p, 0xABCDEF);
	exp_sge(p + 16, &s[0]);
	exp_sge(p + 32, &s[1]);
	q->sq.ci = q->sq.pi - 1;	/* one WQEBB outstanding: the QP is busy, no BlueFlame */
	CHECK(post_is(qp, &wr, 2), "wqe-rdma-write-2-sge");

	wr.wr_id = 0x2222;
	wr.opcode = IBV_WR_RDMA_WRITE_WITH_IMM;
	wr.send_flags = IBV_SEND_SIGNALED | IBV_SEND_SOLICITED;
	wr.imm_data = 0x78563412;	/* network order as given */
	wr.num_sge = 1;
	p = exp_ctrl(0x2222, RNIC_WQE_OP_RDMA_WRITE_WITH_IMM, RNICP_WR_SIGNALED | RNICP_WR_SOLICITED, q->sq.pi,
		     0x78563412, 2, 1, 0, qpn, 100);
	rnic_wqe_raddr_set_remote_addr(p, 0x5555000012345678ull);
	rnic_wqe_raddr_set_rkey(p, 0xABCDEF);
	exp_sge(p + 16, &s[0]);
	CHECK(post_is(qp, &wr, 1), "wqe-rdma-write-with-imm");

	wr.wr_id = 0x3333;
	wr.opcode = IBV_WR_SEND;
	wr.send_flags = 0;
	p = exp_ctrl(0x3333, RNIC_WQE_OP_SEND, 0, q->sq.pi, 0, 1, 1, 0, qpn, 100);
	exp_sge(p, &s[0]);
	CHECK(post_is(qp, &wr, 1), "wqe-send-unsignaled");

	wr.wr_id = 0x4444;
	wr.opcode = IBV_WR_SEND_WITH_IMM;
	wr.send_flags = IBV_SEND_FENCE | IBV_SEND_SIGNALED;
	wr.imm_data = 0xDDCCBBAA;
	wr.num_sge = 3;
	p = exp_ctrl(0x4444, RNIC_WQE_OP_SEND_WITH_IMM, RNICP_WR_FENCE | RNICP_WR_SIGNALED, q->sq.pi, 0xDDCCBBAA, 3, 3,
		     0, qpn, 100 + 28 + 4096);
	exp_sge(p, &s[0]);
	exp_sge(p + 16, &s[1]);
	exp_sge(p + 32, &s[2]);
	CHECK(post_is(qp, &wr, 2), "wqe-send-with-imm-3-sge-fence");

	wr.wr_id = 0x5555;
	wr.opcode = IBV_WR_RDMA_READ;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.num_sge = 1;
	wr.sg_list = &s[2];
	wr.wr.rdma.remote_addr = 0x1000;
	wr.wr.rdma.rkey = 0x42;
	p = exp_ctrl(0x5555, RNIC_WQE_OP_RDMA_READ, RNICP_WR_SIGNALED, q->sq.pi, 0, 2, 1, 0, qpn, 4096);
	rnic_wqe_raddr_set_remote_addr(p, 0x1000);
	rnic_wqe_raddr_set_rkey(p, 0x42);
	exp_sge(p + 16, &s[2]);
	CHECK(post_is(qp, &wr, 1), "wqe-rdma-read");

	memset(&wr, 0, sizeof(wr));
	wr.wr_id = 0x6666;
	wr.opcode = IBV_WR_ATOMIC_CMP_AND_SWP;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.sg_list = &s[3];
	wr.num_sge = 1;
	wr.wr.atomic.remote_addr = 0x2008;
	wr.wr.atomic.rkey = 0x43;
	wr.wr.atomic.compare_add = 0x0102030405060708ull;
	wr.wr.atomic.swap = 0x1112131415161718ull;
	p = exp_ctrl(0x6666, RNIC_WQE_OP_ATOMIC_CMP_AND_SWP, RNICP_WR_SIGNALED, q->sq.pi, 0, 3, 1, 0, qpn, 8);
	rnic_wqe_atomic_set_remote_addr(p, 0x2008);
	rnic_wqe_atomic_set_rkey(p, 0x43);
	rnic_wqe_atomic_set_swap_add(p, 0x1112131415161718ull);
	rnic_wqe_atomic_set_compare(p, 0x0102030405060708ull);
	exp_sge(p + 32, &s[3]);
	CHECK(post_is(qp, &wr, 2), "wqe-atomic-cmp-and-swap");

	wr.wr_id = 0x7777;
	wr.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
	wr.wr.atomic.compare_add = 5;
	wr.wr.atomic.swap = 0xFFFF;	/* ignored for FAA */
	p = exp_ctrl(0x7777, RNIC_WQE_OP_ATOMIC_FETCH_AND_ADD, RNICP_WR_SIGNALED, q->sq.pi, 0, 3, 1, 0, qpn, 8);
	rnic_wqe_atomic_set_remote_addr(p, 0x2008);
	rnic_wqe_atomic_set_rkey(p, 0x43);
	rnic_wqe_atomic_set_swap_add(p, 5);
	exp_sge(p + 32, &s[3]);
	CHECK(post_is(qp, &wr, 2), "wqe-atomic-fetch-and-add");

	{
		struct ibv_sge is[2] = { { (uintptr_t)text, 10, 0 }, { (uintptr_t)text + 20, 7, 0 } };

		memset(&wr, 0, sizeof(wr));
		wr.wr_id = 0x8888;
		wr.opcode = IBV_WR_RDMA_WRITE;
		wr.send_flags = IBV_SEND_INLINE | IBV_SEND_SIGNALED;
		wr.sg_list = is;
		wr.num_sge = 2;
		wr.wr.rdma.remote_addr = 0x3000;
		wr.wr.rdma.rkey = 0x44;
		/* 17 bytes padded to 32: num_ds = (16 + 32) / 16, no SGE, inline_len = total */
		p = exp_ctrl(0x8888, RNIC_WQE_OP_RDMA_WRITE, RNICP_WR_INLINE | RNICP_WR_SIGNALED, q->sq.pi, 0, 3, 0, 17,
			     qpn, 17);
		rnic_wqe_raddr_set_remote_addr(p, 0x3000);
		rnic_wqe_raddr_set_rkey(p, 0x44);
		memcpy(p + 16, text, 10);
		memcpy(p + 26, text + 20, 7);
		CHECK(post_is(qp, &wr, 2), "wqe-rdma-write-inline");

		wr.wr_id = 0x9999;
		wr.opcode = IBV_WR_SEND;
		wr.num_sge = 1;
		wr.send_flags = IBV_SEND_INLINE;
		p = exp_ctrl(0x9999, RNIC_WQE_OP_SEND, RNICP_WR_INLINE, q->sq.pi, 0, 1, 0, 10, qpn, 10);
		memcpy(p, text, 10);
		CHECK(post_is(qp, &wr, 1), "wqe-send-inline");
	}
	rnicp_destroy_qp(qp);

	/* sq_sig_all: every WQE asks for a completion */
	{
		struct ibv_qp_init_attr a;
		memset(&a, 0, sizeof(a));
		a.send_cq = a.recv_cq = cq;
		a.qp_type = IBV_QPT_RC;
		a.sq_sig_all = 1;
		a.cap = (struct ibv_qp_cap){ 8, 8, 1, 1, 0 };
		qp = rnicp_create_qp(pd, &a);
		to_rts(qp);
		q = to_rqp(qp);
		q->sq.ci = q->sq.pi = 3;
		q->sq.ci = 2;
		memset(&wr, 0, sizeof(wr));
		wr.opcode = IBV_WR_SEND;
		wr.sg_list = s;
		wr.num_sge = 1;
		p = exp_ctrl(0, RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, 3, 0, 1, 1, 0, q->qpn, 100);
		exp_sge(p, &s[0]);
		CHECK(mock.qp_in.sq_sig_all == 1 && post_is(qp, &wr, 1), "wqe-sq-sig-all-signals");
		rnicp_destroy_qp(qp);
	}
}

static void test_ud(void)
{
	struct ibv_qp *qp = mkqp(IBV_QPT_UD, 8, 8, 0);
	struct rnicp_qp *q = to_rqp(qp);
	struct ibv_ah_attr aa;
	struct ibv_ah *ah;
	struct ibv_sge s = { 0x7F0000001028ull, 1024, 0x130 };
	struct ibv_send_wr wr, *bad;
	struct ibv_qp_attr a;
	uint8_t *p;

	memset(&aa, 0, sizeof(aa));
	aa.is_global = 1;
	aa.port_num = 1;
	aa.grh.dgid.raw[10] = aa.grh.dgid.raw[11] = 0xFF;
	aa.grh.dgid.raw[12] = 127, aa.grh.dgid.raw[15] = 1;
	aa.grh.sgid_index = 1;
	ah = rnicp_create_ah(pd, &aa);
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_INIT;
	a.port_num = 1;
	a.qkey = 0x22222222;
	rnicp_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY);
	to_state(qp, IBV_QPS_RTR);
	to_state(qp, IBV_QPS_RTS);
	q->sq.ci = q->sq.pi = 2;
	q->sq.ci = 1;

	memset(&wr, 0, sizeof(wr));
	wr.wr_id = 0xAAAA;
	wr.opcode = IBV_WR_SEND;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.sg_list = &s;
	wr.num_sge = 1;
	wr.wr.ud.ah = ah;
	wr.wr.ud.remote_qpn = 0x4B6801;
	wr.wr.ud.remote_qkey = 0x11111111;
	p = exp_ctrl(0xAAAA, RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, q->sq.pi, 0, 2, 1, 0, q->qpn, 1024);
	rnic_wqe_ud_set_ahn(p, to_rah(ah)->ahn);
	rnic_wqe_ud_set_remote_qpn(p, 0x4B6801);
	rnic_wqe_ud_set_remote_qkey(p, 0x11111111);
	exp_sge(p + 16, &s);
	CHECK(post_is(qp, &wr, 1), "wqe-ud-send-mtu-sized");

	wr.opcode = IBV_WR_SEND_WITH_IMM;
	wr.imm_data = 0x01020304;
	wr.wr.ud.remote_qkey = 0x80000000;	/* the QP's own Q_Key */
	p = exp_ctrl(0xAAAA, RNIC_WQE_OP_SEND_WITH_IMM, RNICP_WR_SIGNALED, q->sq.pi, 0x01020304, 2, 1, 0, q->qpn, 1024);
	rnic_wqe_ud_set_ahn(p, to_rah(ah)->ahn);
	rnic_wqe_ud_set_remote_qpn(p, 0x4B6801);
	rnic_wqe_ud_set_remote_qkey(p, 0x22222222);
	exp_sge(p + 16, &s);
	CHECK(post_is(qp, &wr, 1), "wqe-ud-send-imm-qp-qkey");

	s.length = 1025;
	bad = NULL;
	CHECK(rnicp_post_send(qp, &wr, &bad) == EINVAL && bad == &wr, "post-ud-longer-than-port-mtu-einval");
	s.length = 10;
	wr.opcode = IBV_WR_RDMA_WRITE;
	CHECK(rnicp_post_send(qp, &wr, &bad) == EINVAL && bad == &wr, "post-ud-rdma-write-einval");
	wr.opcode = IBV_WR_SEND;
	wr.wr.ud.ah = NULL;
	CHECK(rnicp_post_send(qp, &wr, &bad) == EINVAL && bad == &wr, "post-ud-without-ah-einval");
	rnicp_destroy_qp(qp);
	rnicp_destroy_ah(ah);
}

static void test_doorbells(void)
{
	struct ibv_qp *qp = mkqp(IBV_QPT_RC, 16, 16, 64);
	struct rnicp_qp *q = to_rqp(qp);
	struct ibv_sge s = { 0x1000, 64, 0x122 };
	struct ibv_send_wr w[3], *bad = NULL;
	unsigned ndb, nbf;
	uint32_t pi;

	to_rts(qp);
	memset(w, 0, sizeof(w));
	for (int i = 0; i < 3; i++) {
		w[i].wr_id = (uint64_t)i;
		w[i].opcode = IBV_WR_RDMA_WRITE;
		w[i].sg_list = &s;
		w[i].num_sge = 1;
		w[i].next = i < 2 ? &w[i + 1] : NULL;
	}
	w[2].send_flags = IBV_SEND_SIGNALED;
	/* three WRs on an idle QP: one sq_db with the last producer index, no BlueFlame */
	ndb = mock.ndb, nbf = mock.nbf;
	CHECK(rnicp_post_send(qp, &w[0], &bad) == 0 && q->sq.pi == 3 && mock.nbf == nbf && mock.ndb == ndb + 1 &&
		      mock.db_off[ndb] == RNIC_DB_SQ_DB && mock.db_val[ndb] == (q->qpn | 3u << 16),
	      "db-one-doorbell-per-chain");
	/* a lone WR on an idle QP goes by BlueFlame: the same bytes as in the ring, bf_db = new pi */
	q->sq.ci = q->sq.pi;
	w[2].next = NULL;
	w[2].send_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE;
	s.addr = (uintptr_t)"a lone inline WRITE of 48 bytes, BlueFlame post!";
	s.length = 48;
	pi = q->sq.pi;
	ndb = mock.ndb, nbf = mock.nbf;
	CHECK(rnicp_post_send(qp, &w[2], &bad) == 0 && mock.ndb == ndb && mock.nbf == nbf + 1 &&
		      mock.bf[nbf].bytes == 128 && mock.bf[nbf].db_val == (q->qpn | (pi + 2) << 16) &&
		      !memcmp(mock.bf[nbf].wqe, q->sq.buf + (size_t)pi * 64, 128) &&
		      rnic_wqe_ctrl_get_wqe_index(mock.bf[nbf].wqe) == pi,
	      "db-blueflame-lone-wr-idle-qp");
	/* a lone WR on a busy QP: the device reads the ring anyway, plain doorbell */
	ndb = mock.ndb, nbf = mock.nbf;
	CHECK(rnicp_post_send(qp, &w[2], &bad) == 0 && mock.nbf == nbf && mock.ndb == ndb + 1 &&
		      mock.db_off[ndb] == RNIC_DB_SQ_DB,
	      "db-no-blueflame-on-busy-qp");
	/* a backend without bf_write (a mapped doorbell BAR page): bf_data by one 64-byte store per
	 * WQEBB, then bf_db */
	q->sq.ci = q->sq.pi;
	pi = q->sq.pi;
	ctx->db.write_bf = NULL;
	ndb = mock.ndb, nbf = mock.nbf;
	{
		unsigned n64 = mock.n64;
		int ok = rnicp_post_send(qp, &w[2], &bad) == 0 && mock.nbf == nbf && mock.ndb == ndb + 3 &&
			 mock.n64 == n64 + 2;

		for (unsigned i = 0; ok && i < 2; i++)
			ok = mock.db_off[ndb + i] == RNIC_DB_BF_DATA + 64 * i &&
			     !memcmp(mock.db64[n64 + i], q->sq.buf + (size_t)(pi + i) * 64, 64);
		CHECK(ok && mock.db_off[ndb + 2] == RNIC_DB_BF_DB && mock.db_val[ndb + 2] == (q->qpn | (pi + 2) << 16),
		      "db-blueflame-by-64-byte-stores");
	}
	/* neither: a plain sq_db (the device reads the ring) */
	q->sq.ci = q->sq.pi;
	pi = q->sq.pi;
	ctx->db.write64 = NULL;
	ndb = mock.ndb, nbf = mock.nbf;
	CHECK(rnicp_post_send(qp, &w[2], &bad) == 0 && mock.nbf == nbf && mock.ndb == ndb + 1 &&
		      mock.db_off[ndb] == RNIC_DB_SQ_DB && mock.db_val[ndb] == (q->qpn | (pi + 2) << 16),
	      "db-no-block-store-plain-doorbell");
	rnicp_destroy_qp(qp);
	tb_ctx_free(ctx);
	ctx = tb_ctx_new();	/* restores the bf_write path for later tests */
	pd = rnicp_alloc_pd(&ctx->vctx.context);
	cq = rnicp_create_cq(&ctx->vctx.context, 64, NULL, 0);
}

static void test_send_errors(void)
{
	struct ibv_qp *qp = mkqp(IBV_QPT_RC, 4, 4, 32);
	struct rnicp_qp *q = to_rqp(qp);
	struct ibv_sge s[5] = { { 0x1000, 8, 1 }, { 0x2000, 8, 1 }, { 0x3000, 8, 1 }, { 0x4000, 8, 1 }, { 0x5000, 8, 1 } };
	static char big[200];
	struct ibv_sge is = { (uintptr_t)big, 0, 0 };
	struct ibv_send_wr w[2], *bad;
	unsigned ndb = mock.ndb;
	uint32_t pi;

	memset(w, 0, sizeof(w));
	w[0].opcode = IBV_WR_SEND;
	w[0].sg_list = s;
	w[0].num_sge = 1;
	w[1] = w[0];
	w[0].next = &w[1];

	bad = NULL;
	CHECK(rnicp_post_send(qp, &w[0], &bad) == EINVAL && bad == &w[0] && q->sq.pi == 0 && mock.ndb == ndb,
	      "post-send-in-reset-einval");
	to_state(qp, IBV_QPS_INIT);
	CHECK(rnicp_post_send(qp, &w[0], &bad) == EINVAL && bad == &w[0] && mock.ndb == ndb, "post-send-in-init-einval");
	to_state(qp, IBV_QPS_RTR);
	CHECK(rnicp_post_send(qp, &w[0], &bad) == EINVAL && bad == &w[0] && mock.ndb == ndb, "post-send-in-rtr-einval");
	to_state(qp, IBV_QPS_RTS);

	/* the first WR goes, the second has 5 SGEs (the QP has 4): it is bad_wr, the doorbell
	 * covers the first */
	w[1].num_sge = 5;
	pi = q->sq.pi;
	bad = NULL;
	CHECK(rnicp_post_send(qp, &w[0], &bad) == EINVAL && bad == &w[1] && q->sq.pi == pi + 1 &&
		      mock.ndb == ndb + 1 && mock.db_val[ndb] == (q->qpn | (pi + 1) << 16),
	      "post-send-too-many-sge-einval-after-first");
	w[1].num_sge = -1;
	CHECK(rnicp_post_send(qp, &w[1], &bad) == EINVAL && bad == &w[1], "post-send-negative-sge-einval");
	w[1].num_sge = 1;

	is.length = q->cap.max_inline_data + 1;
	w[1].sg_list = &is;
	w[1].send_flags = IBV_SEND_INLINE;
	CHECK(rnicp_post_send(qp, &w[1], &bad) == EINVAL && bad == &w[1], "post-send-too-much-inline-einval");
	is.length = q->cap.max_inline_data;
	CHECK(rnicp_post_send(qp, &w[1], &bad) == 0, "post-send-max-inline-ok");
	w[1].sg_list = s;
	w[1].send_flags = IBV_SEND_IP_CSUM;
	CHECK(rnicp_post_send(qp, &w[1], &bad) == EINVAL && bad == &w[1], "post-send-unsupported-flag-einval");
	w[1].send_flags = 0;

	{
		static const enum ibv_wr_opcode ops[] = { IBV_WR_LOCAL_INV, IBV_WR_BIND_MW, IBV_WR_SEND_WITH_INV,
							  IBV_WR_TSO, IBV_WR_DRIVER1, IBV_WR_ATOMIC_WRITE,
							  (enum ibv_wr_opcode)99 };
		int ok = 1;

		pi = q->sq.pi;
		for (unsigned i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
			w[1].opcode = ops[i];
			bad = NULL;
			ok &= rnicp_post_send(qp, &w[1], &bad) == EINVAL && bad == &w[1];
		}
		CHECK(ok && q->sq.pi == pi, "post-send-unknown-opcode-einval");
	}
	w[1].opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
	w[1].num_sge = 2;
	CHECK(rnicp_post_send(qp, &w[1], &bad) == EINVAL, "post-atomic-two-sge-einval");
	w[1].num_sge = 1;
	w[1].wr.atomic.remote_addr = 0x1004;
	CHECK(rnicp_post_send(qp, &w[1], &bad) == EINVAL, "post-atomic-misaligned-einval");
	w[1].opcode = IBV_WR_SEND;

	/* fill the SQ: the WR that does not fit is refused with ENOMEM */
	{
		int rc = 0, n = 0;

		while (!(rc = rnicp_post_send(qp, &w[1], &bad)) && n < 100)
			n++;
		CHECK(rc == ENOMEM && bad == &w[1] && rnicp_sq_room(&q->sq) < q->sq_wqebbs, "post-send-sq-full-enomem");
	}
	/* a QP in ERR takes WRs (the device flushes them) */
	to_state(qp, IBV_QPS_ERR);
	q->sq.ci = q->sq.pi;
	CHECK(rnicp_post_send(qp, &w[1], &bad) == 0, "post-send-in-err-accepted");
	rnicp_destroy_qp(qp);
}

static void test_recv(void)
{
	struct ibv_qp *qp = mkqp(IBV_QPT_RC, 4, 4, 0);
	struct rnicp_qp *q = to_rqp(qp);
	struct ibv_sge s[5] = { { 0x1000, 100, 7 }, { 0x2000, 200, 8 }, { 0x3000, 300, 9 }, { 0x4000, 1, 1 }, { 0, 0, 0 } };
	struct ibv_recv_wr r[3], *bad;
	unsigned ndb = mock.ndb, stride = 1u << q->rq.log_stride;
	uint8_t e[128];
	int ok = 1;

	memset(r, 0, sizeof(r));
	for (int i = 0; i < 3; i++) {
		r[i].wr_id = 0xB000 + (uint64_t)i;
		r[i].sg_list = s;
		r[i].num_sge = i + 1;
		r[i].next = i < 2 ? &r[i + 1] : NULL;
	}
	bad = NULL;
	CHECK(rnicp_post_recv(qp, &r[0], &bad) == EINVAL && bad == &r[0] && mock.ndb == ndb, "post-recv-in-reset-einval");
	to_state(qp, IBV_QPS_INIT);
	CHECK(stride == 128 && rnicp_post_recv(qp, &r[0], &bad) == 0 && q->rq.pi == 3 && mock.ndb == ndb + 1 &&
		      mock.db_off[ndb] == RNIC_DB_RQ_DB && mock.db_val[ndb] == (q->qpn | 3u << 16),
	      "post-recv-chain-one-doorbell");
	for (int i = 0; i < 3; i++) {
		memset(e, 0, sizeof(e));
		rnic_rq_wqe_set_wr_id(e, 0xB000 + (uint64_t)i);
		rnic_rq_wqe_set_num_sge(e, (uint32_t)i + 1);
		for (int k = 0; k <= i; k++)
			exp_sge(e + 16 + 16 * k, &s[k]);
		ok &= !memcmp(q->rq.buf + (size_t)i * stride, e, stride);
	}
	CHECK(ok, "post-recv-entry-bytes");
	r[0].num_sge = 5;
	r[0].next = NULL;
	CHECK(rnicp_post_recv(qp, &r[0], &bad) == EINVAL && bad == &r[0], "post-recv-too-many-sge-einval");
	r[0].num_sge = 0;
	CHECK(rnicp_post_recv(qp, &r[0], &bad) == 0, "post-recv-zero-sge-ok");
	{
		int rc, n = 0;

		while (!(rc = rnicp_post_recv(qp, &r[0], &bad)) && n < 100)
			n++;
		CHECK(rc == ENOMEM && bad == &r[0] && q->rq.pi - q->rq.ci == 1u << q->rq.log_size, "post-recv-rq-full-enomem");
	}
	rnicp_destroy_qp(qp);
}

void test_post(void)
{
	mock_reset();
	ctx = tb_ctx_new();
	pd = rnicp_alloc_pd(&ctx->vctx.context);
	cq = rnicp_create_cq(&ctx->vctx.context, 64, NULL, 0);
	test_wqe_bytes();
	test_ud();
	test_doorbells();
	test_send_errors();
	test_recv();
	rnicp_destroy_cq(cq);
	rnicp_dealloc_pd(pd);
	tb_ctx_free(ctx);
}
