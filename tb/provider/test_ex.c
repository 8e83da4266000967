/* The extended verbs: create_qp_ex with the ibv_wr_* API (WQE bytes, one doorbell per batch,
 * BlueFlame, abort, errors) and create_cq_ex with the start/next/end_poll API. */
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


static void exp_sge(uint8_t *p, uint64_t addr, uint32_t len, uint32_t lkey)
{
	rnic_wqe_sge_set_addr(p, addr);
	rnic_wqe_sge_set_length(p, len);
	rnic_wqe_sge_set_lkey(p, lkey);
}

static int ring_is(struct rnicp_qp *q, uint32_t idx, unsigned nbb)
{
	return !memcmp(q->sq.buf + (size_t)(idx & ((1u << q->sq.log_size) - 1)) * 64, exp_wqe, nbb * 64u);
}

static struct ibv_qp *mkqpx(enum ibv_qp_type t, uint32_t comp_mask, uint64_t ops)
{
	struct ibv_qp_init_attr_ex a;
	struct ibv_qp_attr m;
	struct ibv_qp *qp;

	memset(&a, 0, sizeof(a));
	a.send_cq = a.recv_cq = cq;
	a.qp_type = t;
	a.cap = (struct ibv_qp_cap){ 16, 16, 4, 4, 64 };
	a.comp_mask = comp_mask;
	a.pd = pd;
	a.send_ops_flags = ops;
	errno = 0;
	qp = rnicp_create_qp_ex(&ctx->vctx.context, &a);
	if (!qp)
		return NULL;
	memset(&m, 0, sizeof(m));
	m.port_num = 1;
	for (enum ibv_qp_state s = IBV_QPS_INIT; s <= IBV_QPS_RTS; s++) {
		m.qp_state = s;
		rnicp_modify_qp(qp, &m, IBV_QP_STATE);
	}
	return qp;
}

static void test_wr_api(void)
{
	const uint64_t rc_ops = IBV_QP_EX_WITH_RDMA_WRITE | IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM | IBV_QP_EX_WITH_SEND |
				IBV_QP_EX_WITH_SEND_WITH_IMM | IBV_QP_EX_WITH_RDMA_READ |
				IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP | IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD;
	const uint32_t cm = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
	struct ibv_qp *qp = mkqpx(IBV_QPT_RC, cm, rc_ops);
	struct ibv_qp_ex *x = qp ? ibv_qp_to_qp_ex(qp) : NULL;
	struct rnicp_qp *q = qp ? to_rqp(qp) : NULL;
	struct ibv_sge sl[2] = { { 0x7000, 30, 0x501 }, { 0x8000, 40, 0x502 } };
	unsigned ndb, nbf;
	uint32_t pi;
	uint8_t *p;
	int rc;

	CHECK(qp && x && x == &q->vqp.qp_ex, "qpex-create-with-send-ops");
	if (!x)
		return;
	/* a batch of three: one doorbell for all at wr_complete, WQEs as ibv_post_send writes them */
	ndb = mock.ndb, nbf = mock.nbf;
	pi = q->sq.pi;
	ibv_wr_start(x);
	x->wr_id = 0x11;
	x->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_rdma_write(x, 0xAA, 0x123456789ull);
	ibv_wr_set_sge(x, 0x500, 0x6000, 100);
	CHECK(mock.ndb == ndb && q->sq.pi == pi, "qpex-nothing-written-before-next-wr");
	x->wr_id = 0x22;
	x->wr_flags = 0;
	ibv_wr_send_imm(x, 0x44332211);
	ibv_wr_set_sge_list(x, 2, sl);
	x->wr_id = 0x33;
	x->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_atomic_fetch_add(x, 0xBB, 0x1008, 7);
	ibv_wr_set_sge(x, 0x503, 0x9000, 8);
	rc = ibv_wr_complete(x);
	CHECK(rc == 0 && q->sq.pi == pi + 1 + 1 + 2 && mock.ndb == ndb + 1 && mock.nbf == nbf &&
		      mock.db_off[ndb] == RNIC_DB_SQ_DB && mock.db_val[ndb] == (q->qpn | (pi + 4) << 16),
	      "qpex-batch-one-doorbell");
	p = exp_ctrl(0x11, RNIC_WQE_OP_RDMA_WRITE, RNICP_WR_SIGNALED, pi, 0, 2, 1, 0, q->qpn, 100);
	rnic_wqe_raddr_set_remote_addr(p, 0x123456789ull);
	rnic_wqe_raddr_set_rkey(p, 0xAA);
	exp_sge(p + 16, 0x6000, 100, 0x500);
	rc = ring_is(q, pi, 1);
	p = exp_ctrl(0x22, RNIC_WQE_OP_SEND_WITH_IMM, 0, pi + 1, 0x44332211, 2, 2, 0, q->qpn, 70);
	exp_sge(p, 0x7000, 30, 0x501);
	exp_sge(p + 16, 0x8000, 40, 0x502);
	rc &= ring_is(q, pi + 1, 1);
	p = exp_ctrl(0x33, RNIC_WQE_OP_ATOMIC_FETCH_AND_ADD, RNICP_WR_SIGNALED, pi + 2, 0, 3, 1, 0, q->qpn, 8);
	rnic_wqe_atomic_set_remote_addr(p, 0x1008);
	rnic_wqe_atomic_set_rkey(p, 0xBB);
	rnic_wqe_atomic_set_swap_add(p, 7);
	exp_sge(p + 32, 0x9000, 8, 0x503);
	rc &= ring_is(q, pi + 2, 2);
	CHECK(rc, "qpex-wqe-bytes-write-send-imm-faa");

	/* READ, CAS and an inline WRITE (data copied at the call) */
	pi = q->sq.pi;
	ibv_wr_start(x);
	x->wr_id = 0x44;
	x->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_rdma_read(x, 0xCC, 0x2000);
	ibv_wr_set_sge(x, 0x504, 0xA000, 4096);
	x->wr_id = 0x55;
	ibv_wr_atomic_cmp_swp(x, 0xDD, 0x3000, 1, 2);
	ibv_wr_set_sge(x, 0x505, 0xB000, 8);
	x->wr_id = 0x66;
	x->wr_flags = 0;
	{
		char data[20] = "inline from a stack";
		struct ibv_data_buf b[2] = { { data, 7 }, { data + 7, 13 } };

		ibv_wr_rdma_write_imm(x, 0xEE, 0x4000, 0x0D0C0B0A);
		ibv_wr_set_inline_data_list(x, 2, b);
		memset(data, 0, sizeof(data));	/* the provider copied it already */
	}
	rc = ibv_wr_complete(x) == 0;
	p = exp_ctrl(0x44, RNIC_WQE_OP_RDMA_READ, RNICP_WR_SIGNALED, pi, 0, 2, 1, 0, q->qpn, 4096);
	rnic_wqe_raddr_set_remote_addr(p, 0x2000);
	rnic_wqe_raddr_set_rkey(p, 0xCC);
	exp_sge(p + 16, 0xA000, 4096, 0x504);
	rc &= ring_is(q, pi, 1);
	p = exp_ctrl(0x55, RNIC_WQE_OP_ATOMIC_CMP_AND_SWP, RNICP_WR_SIGNALED, pi + 1, 0, 3, 1, 0, q->qpn, 8);
	rnic_wqe_atomic_set_remote_addr(p, 0x3000);
	rnic_wqe_atomic_set_rkey(p, 0xDD);
	rnic_wqe_atomic_set_swap_add(p, 2);
	rnic_wqe_atomic_set_compare(p, 1);
	exp_sge(p + 32, 0xB000, 8, 0x505);
	rc &= ring_is(q, pi + 1, 2);
	p = exp_ctrl(0x66, RNIC_WQE_OP_RDMA_WRITE_WITH_IMM, RNICP_WR_INLINE, pi + 3, 0x0D0C0B0A, 3, 0, 20, q->qpn, 20);
	rnic_wqe_raddr_set_remote_addr(p, 0x4000);
	rnic_wqe_raddr_set_rkey(p, 0xEE);
	memcpy(p + 16, "inline from a stack", 20);
	rc &= ring_is(q, pi + 3, 2);
	CHECK(rc, "qpex-wqe-bytes-read-cas-inline-write-imm");

	/* polling the send CQ inside a batch (same thread) retires WQEs without waiting for it */
	{
		struct rnicp_vcq *v = to_rcq(cq);
		uint8_t *e = (uint8_t *)v->buf + (size_t)(v->ring.ci & ((1u << v->ring.log_size) - 1)) * RNIC_CQE_SIZE;
		uint32_t last = q->sq.pi - 1, k = v->ring.ci;
		struct ibv_wc wc;

		ibv_wr_start(x);
		x->wr_id = 0x99;
		ibv_wr_send(x);
		ibv_wr_set_sge(x, 1, 0x1000, 8);
		memset(e, 0, RNIC_CQE_SIZE);
		rnic_cqe_set_wr_id(e, 0x66);
		rnic_cqe_set_qpn(e, q->qpn);
		rnic_cqe_set_wqe_index(e, last - 1);	/* the inline WRITE_IMM (2 WQEBBs) */
		rnic_cqe_set_opcode(e, RNIC_WC_OPCODE_RDMA_WRITE);
		rnic_cqe_set_owner(e, ((k >> v->ring.log_size) & 1u) ^ 1u);
		rc = rnicp_poll_cq(cq, 1, &wc) == 1 && wc.wr_id == 0x66 && q->sq.ci == last + 1;
		CHECK(rc && ibv_wr_complete(x) == 0 && q->sq.pi == last + 2, "qpex-poll-inside-batch-no-deadlock");
	}

	/* a lone WR on an idle QP: BlueFlame */
	q->sq.ci = q->sq.pi;
	pi = q->sq.pi;
	ndb = mock.ndb, nbf = mock.nbf;
	ibv_wr_start(x);
	x->wr_id = 0x77;
	x->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_send(x);
	ibv_wr_set_inline_data(x, "ping", 4);
	CHECK(ibv_wr_complete(x) == 0 && mock.ndb == ndb && mock.nbf == nbf + 1 && mock.bf[nbf].bytes == 64 &&
		      mock.bf[nbf].db_val == (q->qpn | (pi + 1) << 16) && !memcmp(mock.bf[nbf].wqe, q->sq.buf + (size_t)pi * 64, 64),
	      "qpex-lone-wr-blueflame");

	/* abort: nothing announced, the producer index back */
	pi = q->sq.pi;
	ndb = mock.ndb, nbf = mock.nbf;
	ibv_wr_start(x);
	ibv_wr_send(x);
	ibv_wr_set_sge(x, 1, 0x1000, 8);
	ibv_wr_send(x);
	ibv_wr_set_sge(x, 1, 0x1000, 8);
	ibv_wr_abort(x);
	CHECK(q->sq.pi == pi && mock.ndb == ndb && mock.nbf == nbf, "qpex-abort-discards");

	/* an error in the middle: wr_complete reports it, the whole batch is dropped */
	{
		struct ibv_sge five[5] = { { 1, 1, 1 }, { 1, 1, 1 }, { 1, 1, 1 }, { 1, 1, 1 }, { 1, 1, 1 } };

		ibv_wr_start(x);
		ibv_wr_send(x);
		ibv_wr_set_sge(x, 1, 0x1000, 8);
		ibv_wr_send(x);
		ibv_wr_set_sge_list(x, 5, five);
		ibv_wr_send(x);
		ibv_wr_set_sge(x, 1, 0x1000, 8);
		CHECK(ibv_wr_complete(x) == EINVAL && q->sq.pi == pi && mock.ndb == ndb && mock.nbf == nbf,
		      "qpex-too-many-sge-fails-batch");
	}
	ibv_wr_start(x);
	ibv_wr_rdma_write(x, 1, 0x1000);
	ibv_wr_set_inline_data(x, exp_wqe, q->cap.max_inline_data + 1);
	CHECK(ibv_wr_complete(x) == EINVAL && q->sq.pi == pi, "qpex-too-much-inline-fails-batch");
	ibv_wr_start(x);
	ibv_wr_local_inv(x, 5);
	ibv_wr_send_inv(x, 5);
	CHECK(ibv_wr_complete(x) == EOPNOTSUPP && q->sq.pi == pi, "qpex-unsupported-op-eopnotsupp-no-crash");
	{
		struct ibv_qp_attr m;

		memset(&m, 0, sizeof(m));
		m.qp_state = IBV_QPS_RESET;
		rnicp_modify_qp(qp, &m, IBV_QP_STATE);
		ibv_wr_start(x);
		ibv_wr_send(x);
		ibv_wr_set_sge(x, 1, 0x1000, 8);
		CHECK(ibv_wr_complete(x) == EINVAL && q->sq.pi == 0 && mock.ndb == ndb, "qpex-qp-in-reset-einval");
	}
	rnicp_destroy_qp(qp);

	/* UD through the wr API */
	{
		struct ibv_ah_attr aa;
		struct ibv_ah *ah;

		qp = mkqpx(IBV_QPT_UD, cm, IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM);
		x = ibv_qp_to_qp_ex(qp);
		q = to_rqp(qp);
		memset(&aa, 0, sizeof(aa));
		aa.is_global = 1;
		aa.grh.dgid.raw[10] = aa.grh.dgid.raw[11] = 0xFF;
		aa.grh.dgid.raw[12] = 10, aa.grh.dgid.raw[15] = 9;
		ah = rnicp_create_ah(pd, &aa);
		q->sq.ci = q->sq.pi = 5;
		q->sq.ci = 4;
		ibv_wr_start(x);
		x->wr_id = 0x88;
		x->wr_flags = IBV_SEND_SIGNALED;
		ibv_wr_send(x);
		ibv_wr_set_ud_addr(x, ah, 0x4B6801, 0x11111111);
		ibv_wr_set_sge(x, 0x510, 0xC000, 512);
		rc = ibv_wr_complete(x) == 0;
		p = exp_ctrl(0x88, RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, 5, 0, 2, 1, 0, q->qpn, 512);
		rnic_wqe_ud_set_ahn(p, to_rah(ah)->ahn);
		rnic_wqe_ud_set_remote_qpn(p, 0x4B6801);
		rnic_wqe_ud_set_remote_qkey(p, 0x11111111);
		exp_sge(p + 16, 0xC000, 512, 0x510);
		CHECK(rc && ring_is(q, 5, 1), "qpex-ud-send-bytes");
		ibv_wr_start(x);
		ibv_wr_send(x);
		ibv_wr_set_ud_addr(x, ah, 1, 1);
		ibv_wr_set_sge(x, 0x510, 0xC000, 1025);
		CHECK(ibv_wr_complete(x) == EINVAL, "qpex-ud-over-mtu-einval");
		rnicp_destroy_qp(qp);
		rnicp_destroy_ah(ah);
	}

	CHECK(!mkqpx(IBV_QPT_RC, cm, IBV_QP_EX_WITH_LOCAL_INV) && errno == EOPNOTSUPP, "qpex-create-local-inv-eopnotsupp");
	CHECK(!mkqpx(IBV_QPT_UD, cm, IBV_QP_EX_WITH_RDMA_WRITE) && errno == EOPNOTSUPP, "qpex-create-ud-rdma-eopnotsupp");
	CHECK(!mkqpx(IBV_QPT_RC, cm | IBV_QP_INIT_ATTR_CREATE_FLAGS, IBV_QP_EX_WITH_SEND) && errno == EOPNOTSUPP,
	      "qpex-create-flags-eopnotsupp");
	CHECK(!mkqpx(IBV_QPT_RC, IBV_QP_INIT_ATTR_SEND_OPS_FLAGS, IBV_QP_EX_WITH_SEND) && errno == EINVAL,
	      "qpex-create-without-pd-einval");
	qp = mkqpx(IBV_QPT_RC, IBV_QP_INIT_ATTR_PD, 0);
	CHECK(qp && !ibv_qp_to_qp_ex(qp), "qpex-create-pd-only-no-wr-api");
	rnicp_destroy_qp(qp);
}

static void nic_cqe(struct rnicp_vcq *v, uint32_t k, uint64_t wr_id, uint32_t op, uint32_t status, uint32_t qpn,
		    uint32_t flags)
{
	uint8_t *e = (uint8_t *)v->buf + (size_t)(k & ((1u << v->ring.log_size) - 1)) * RNIC_CQE_SIZE;

	memset(e, 0, RNIC_CQE_SIZE);
	rnic_cqe_set_wr_id(e, wr_id);
	rnic_cqe_set_opcode(e, op);
	rnic_cqe_set_status(e, status);
	rnic_cqe_set_qpn(e, qpn);
	rnic_cqe_set_src_qp(e, 0x777);
	rnic_cqe_set_byte_len(e, 333);
	rnic_cqe_set_imm_data(e, 0x99887766);
	rnic_cqe_set_vendor_err(e, status ? 0x12 : 0);
	rnic_cqe_set_flags(e, flags);
	rnic_cqe_set_owner(e, ((k >> v->ring.log_size) & 1u) ^ 1u);
}

static void test_cq_ex(void)
{
	struct ibv_cq_init_attr_ex a;
	struct ibv_cq_ex *x;
	struct rnicp_vcq *v;
	struct ibv_poll_cq_attr pa = { 0 };
	int ok;

	memset(&a, 0, sizeof(a));
	a.cqe = 8;
	a.cq_context = (void *)0xC0FFEE;
	a.wc_flags = IBV_WC_STANDARD_FLAGS;
	a.comp_mask = IBV_CQ_INIT_ATTR_MASK_FLAGS;
	a.flags = IBV_CREATE_CQ_ATTR_SINGLE_THREADED;
	x = rnicp_create_cq_ex(&ctx->vctx.context, &a);
	/* cq_context and channel are libibverbs' to set (its create_cq_ex wrapper calls verbs_init_cq) */
	CHECK(x && x->context == &ctx->vctx.context && x->cqe == 8 && !x->cq_context && !x->channel,
	      "cqex-create-standard-flags");
	if (!x)
		return;
	v = to_rcq(ibv_cq_ex_to_cq(x));
	CHECK(ibv_start_poll(x, &pa) == ENOENT, "cqex-start-poll-empty-enoent");
	nic_cqe(v, 0, 0x51, RNIC_WC_OPCODE_RECV, 0, 0xABC, 1u << RNIC_CQE_FLAG_WITH_IMM | 1u << RNIC_CQE_FLAG_GRH);
	nic_cqe(v, 1, 0x52, RNIC_WC_OPCODE_RDMA_READ, RNIC_WC_STATUS_REM_ACCESS_ERR, 0xABC, 0);
	ok = ibv_start_poll(x, &pa) == 0 && x->wr_id == 0x51 && x->status == IBV_WC_SUCCESS &&
	     ibv_wc_read_opcode(x) == IBV_WC_RECV && ibv_wc_read_byte_len(x) == 333 &&
	     ibv_wc_read_imm_data(x) == 0x99887766 && ibv_wc_read_qp_num(x) == 0xABC && ibv_wc_read_src_qp(x) == 0x777 &&
	     ibv_wc_read_wc_flags(x) == (IBV_WC_WITH_IMM | IBV_WC_GRH) && ibv_wc_read_slid(x) == 0 &&
	     ibv_wc_read_sl(x) == 0 && ibv_wc_read_dlid_path_bits(x) == 0;
	ok &= ibv_next_poll(x) == 0 && x->wr_id == 0x52 && x->status == IBV_WC_REM_ACCESS_ERR &&
	      ibv_wc_read_vendor_err(x) == 0x12 && ibv_wc_read_opcode(x) == IBV_WC_RDMA_READ &&
	      ibv_wc_read_wc_flags(x) == 0;
	ok &= ibv_next_poll(x) == ENOENT;
	ibv_end_poll(x);
	CHECK(ok && *v->dbrec == 2, "cqex-poll-fields");
	nic_cqe(v, 2, 0x53, RNIC_WC_OPCODE_SEND, 0, 0xABC, 0);
	{
		struct ibv_wc wc;
		CHECK(rnicp_poll_cq(ibv_cq_ex_to_cq(x), 1, &wc) == 1 && wc.wr_id == 0x53, "cqex-also-polls-with-poll-cq");
	}
	CHECK(rnicp_destroy_cq(ibv_cq_ex_to_cq(x)) == 0, "cqex-destroy");
	a.wc_flags = IBV_WC_EX_WITH_COMPLETION_TIMESTAMP;
	errno = 0;
	CHECK(!rnicp_create_cq_ex(&ctx->vctx.context, &a) && errno == EOPNOTSUPP, "cqex-timestamp-eopnotsupp");
	a.wc_flags = 0;
	a.flags = IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN;
	CHECK(!rnicp_create_cq_ex(&ctx->vctx.context, &a) && errno == EOPNOTSUPP, "cqex-ignore-overrun-eopnotsupp");
	a.flags = 0;
	a.cqe = 0;
	CHECK(!rnicp_create_cq_ex(&ctx->vctx.context, &a) && errno == EINVAL, "cqex-zero-entries-einval");
}

void test_ex(void)
{
	mock_reset();
	ctx = tb_ctx_new();
	pd = rnicp_alloc_pd(&ctx->vctx.context);
	cq = rnicp_create_cq(&ctx->vctx.context, 64, NULL, 0);
	test_wr_api();
	test_cq_ex();
	rnicp_destroy_cq(cq);
	rnicp_dealloc_pd(pd);
	tb_ctx_free(ctx);
}
