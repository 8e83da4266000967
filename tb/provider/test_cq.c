/* create_cq sizes, poll_cq: CQE bytes -> ibv_wc for send and receive completions, retiring
 * the SQ/RQ entries of the QP each CQE names (a CQ shared by two QPs), the owner phase across
 * passes, the doorbell record; req_notify_cq's doorbell. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rnic_spec.h"
#include "tb_prov.h"

static struct rnicp_context *ctx;
static struct ibv_cq *cq;
static uint32_t nic_k;	/* completions the "NIC" wrote so far */

struct cqe {
	uint64_t wr_id;
	uint32_t status, opcode, vendor_err, byte_len, imm, qpn, src_qp, flags, wqe_index;
};

/* The NIC side: the next CQE with the owner bit of its pass. */
static void nic_write(const struct cqe *c)
{
	struct rnicp_vcq *v = to_rcq(cq);
	uint32_t lg = v->ring.log_size;
	uint8_t *e = (uint8_t *)v->buf + (size_t)(nic_k & ((1u << lg) - 1)) * RNIC_CQE_SIZE;

	memset(e, 0, RNIC_CQE_SIZE);
	rnic_cqe_set_wr_id(e, c->wr_id);
	rnic_cqe_set_status(e, c->status);
	rnic_cqe_set_opcode(e, c->opcode);
	rnic_cqe_set_vendor_err(e, c->vendor_err);
	rnic_cqe_set_byte_len(e, c->byte_len);
	rnic_cqe_set_imm_data(e, c->imm);
	rnic_cqe_set_qpn(e, c->qpn);
	rnic_cqe_set_src_qp(e, c->src_qp);
	rnic_cqe_set_flags(e, c->flags);
	rnic_cqe_set_wqe_index(e, c->wqe_index);
	rnic_cqe_set_owner(e, ((nic_k >> lg) & 1u) ^ 1u);
	nic_k++;
}

static void test_create(void)
{
	struct ibv_cq *c;
	struct rnicp_vcq *v;
	int zero = 1;

	c = rnicp_create_cq(&ctx->vctx.context, 100, NULL, 0);
	v = c ? to_rcq(c) : NULL;
	if (v)
		for (size_t i = 0; i < v->buf_len; i++)
			zero &= ((uint8_t *)v->buf)[i] == 0;
	CHECK(c && c->cqe == 128 && mock.cq_log == 7 && mock.cq_ring == v->buf && mock.cq_dbrec == v->dbrec &&
		      ((uintptr_t)v->buf & 4095) == 0 && v->buf_len == 4096 && zero && ((uintptr_t)v->dbrec & 3) == 0 &&
		      *v->dbrec == 0 && c->context == &ctx->vctx.context,
	      "cq-create-ring-pow2-page-aligned-zeroed");
	CHECK(c && rnicp_destroy_cq(c) == 0 && mock.destroyed == v->ring.cqn, "cq-destroy-by-number");
	c = rnicp_create_cq(&ctx->vctx.context, 1, NULL, 0);
	CHECK(c && c->cqe == 2 && mock.cq_log == 1, "cq-create-one-entry-gets-the-firmware-minimum-2");
	rnicp_destroy_cq(c);
	errno = 0;
	CHECK(!rnicp_create_cq(&ctx->vctx.context, 0, NULL, 0) && errno == EINVAL, "cq-create-zero-einval");
	CHECK(!rnicp_create_cq(&ctx->vctx.context, (1 << 16) + 1, NULL, 0) && errno == EINVAL, "cq-create-over-max-cqe-einval");
	CHECK(!rnicp_create_cq(&ctx->vctx.context, 8, NULL, 1) && errno == EINVAL, "cq-create-bad-comp-vector-einval");
	mock.fail[M_CREATE_CQ] = -ENOMEM;
	CHECK(!rnicp_create_cq(&ctx->vctx.context, 8, NULL, 0) && errno == ENOMEM, "cq-create-backend-error-in-errno");
	mock.fail[M_CREATE_CQ] = 0;
}

static struct ibv_qp *mkqp(struct ibv_pd *pd, enum ibv_qp_type t)
{
	struct ibv_qp_init_attr a;
	struct ibv_qp_attr m;
	struct ibv_qp *qp;

	memset(&a, 0, sizeof(a));
	a.send_cq = a.recv_cq = cq;
	a.qp_type = t;
	a.cap = (struct ibv_qp_cap){ 8, 8, 1, 1, 0 };
	qp = rnicp_create_qp(pd, &a);
	memset(&m, 0, sizeof(m));
	for (enum ibv_qp_state s = IBV_QPS_INIT; s <= IBV_QPS_RTS; s++) {
		m.qp_state = s;
		rnicp_modify_qp(qp, &m, IBV_QP_STATE);
	}
	return qp;
}

static void test_poll(void)
{
	struct ibv_pd *pd = rnicp_alloc_pd(&ctx->vctx.context);
	struct ibv_qp *a, *b;
	struct rnicp_qp *qa, *qb;
	struct ibv_sge s = { 0x1000, 8, 0x122 };
	struct ibv_send_wr w[3], *bad;
	struct ibv_recv_wr r[2], *rbad;
	struct ibv_wc wc[8];
	struct rnicp_vcq *v;
	int n;

	cq = rnicp_create_cq(&ctx->vctx.context, 4, NULL, 0);	/* 4 entries: wraps quickly */
	v = to_rcq(cq);
	nic_k = 0;
	a = mkqp(pd, IBV_QPT_RC);
	b = mkqp(pd, IBV_QPT_UD);
	qa = to_rqp(a), qb = to_rqp(b);
	memset(w, 0, sizeof(w));
	for (int i = 0; i < 3; i++) {
		w[i].wr_id = 0xA0 + (uint64_t)i;
		w[i].opcode = IBV_WR_RDMA_WRITE;
		w[i].sg_list = &s;
		w[i].num_sge = 1;
		w[i].next = i < 2 ? &w[i + 1] : NULL;
	}
	w[2].send_flags = IBV_SEND_SIGNALED;
	rnicp_post_send(a, &w[0], &bad);
	memset(r, 0, sizeof(r));
	r[0].wr_id = 0xB0, r[0].sg_list = &s, r[0].num_sge = 1, r[0].next = &r[1];
	r[1].wr_id = 0xB1, r[1].sg_list = &s, r[1].num_sge = 1;
	rnicp_post_recv(b, &r[0], &rbad);

	CHECK(rnicp_poll_cq(cq, 8, wc) == 0, "poll-empty-returns-0");

	/* RC WRITE completion for the third WQE: it and the two unsignaled ones are retired */
	nic_write(&(struct cqe){ .wr_id = 0xA2, .opcode = RNIC_WC_OPCODE_RDMA_WRITE, .byte_len = 8,
				 .qpn = qa->qpn, .wqe_index = 2 });
	memset(wc, 0xEE, sizeof(wc));
	n = rnicp_poll_cq(cq, 8, wc);
	CHECK(n == 1 && wc[0].wr_id == 0xA2 && wc[0].status == IBV_WC_SUCCESS && wc[0].opcode == IBV_WC_RDMA_WRITE &&
		      wc[0].qp_num == qa->qpn && wc[0].wc_flags == 0 && wc[0].vendor_err == 0 && wc[0].src_qp == 0 &&
		      wc[0].pkey_index == 0 && wc[0].slid == 0 && wc[0].sl == 0,
	      "poll-send-completion-fields");
	CHECK(qa->sq.ci == 3 && qa->sq.pi == 3, "poll-send-completion-retires-unsignaled-too");
	CHECK(*v->dbrec == 1, "poll-stores-consumer-index-in-dbrec");

	/* UD receive with immediate and GRH, then an error completion on the RC QP */
	nic_write(&(struct cqe){ .wr_id = 0xB0, .opcode = RNIC_WC_OPCODE_RECV, .byte_len = 40 + 1024,
				 .imm = 0x04030201, .qpn = qb->qpn, .src_qp = 0x4B6801,
				 .flags = 1u << RNIC_CQE_FLAG_WITH_IMM | 1u << RNIC_CQE_FLAG_GRH, .wqe_index = 0 });
	nic_write(&(struct cqe){ .wr_id = 0xC0, .status = RNIC_WC_STATUS_REM_ACCESS_ERR,
				 .opcode = RNIC_WC_OPCODE_RDMA_READ, .vendor_err = 0x42, .qpn = qa->qpn, .wqe_index = 7 });
	memset(wc, 0xEE, sizeof(wc));
	n = rnicp_poll_cq(cq, 1, wc);
	CHECK(n == 1 && wc[0].wr_id == 0xB0 && wc[0].opcode == IBV_WC_RECV && wc[0].byte_len == 1064 &&
		      wc[0].wc_flags == (IBV_WC_WITH_IMM | IBV_WC_GRH) && wc[0].imm_data == 0x04030201 &&
		      wc[0].src_qp == 0x4B6801 && wc[0].qp_num == qb->qpn && wc[0].status == IBV_WC_SUCCESS,
	      "poll-ud-recv-imm-grh-src-qp");
	CHECK(qb->rq.ci == 1 && qb->rq.pi == 2, "poll-recv-completion-retires-rq-entry");
	n = rnicp_poll_cq(cq, 8, wc);
	CHECK(n == 1 && wc[0].status == IBV_WC_REM_ACCESS_ERR && wc[0].vendor_err == 0x42 && wc[0].wr_id == 0xC0 &&
		      wc[0].qp_num == qa->qpn && qa->sq.ci == 3,
	      "poll-error-status-and-vendor-err");

	/* RECV_RDMA_WITH_IMM (a WRITE with immediate consumed a receive), with flags only WITH_IMM */
	nic_write(&(struct cqe){ .wr_id = 0xB1, .opcode = RNIC_WC_OPCODE_RECV_RDMA_WITH_IMM, .byte_len = 4096,
				 .imm = 0xFFEEDDCC, .qpn = qb->qpn, .flags = 1u << RNIC_CQE_FLAG_WITH_IMM, .wqe_index = 1 });
	/* second pass over the 4-entry ring: the owner bit flips */
	for (int i = 0; i < 3; i++)
		nic_write(&(struct cqe){ .wr_id = 0xD0 + (uint64_t)i, .opcode = RNIC_WC_OPCODE_SEND,
					 .status = RNIC_WC_STATUS_WR_FLUSH_ERR, .qpn = 0xFFFFFF /* no such QP */ });
	n = rnicp_poll_cq(cq, 8, wc);
	CHECK(n == 4 && wc[0].opcode == IBV_WC_RECV_RDMA_WITH_IMM && wc[0].wc_flags == IBV_WC_WITH_IMM &&
		      wc[0].imm_data == 0xFFEEDDCC && qb->rq.ci == 2 && wc[1].wr_id == 0xD0 && wc[3].wr_id == 0xD2 &&
		      wc[3].status == IBV_WC_WR_FLUSH_ERR && wc[3].qp_num == 0xFFFFFF,
	      "poll-owner-phase-across-wrap-unknown-qp-harmless");
	CHECK(*v->dbrec == 7 && v->ring.ci == 7, "poll-dbrec-free-running");
	CHECK(rnicp_poll_cq(cq, 8, wc) == 0, "poll-stops-at-unwritten-entry");
	/* more than one chunk of the poll loop in one call */
	{
		struct ibv_wc many[40];
		struct ibv_cq *big = cq;
		int ok;

		cq = rnicp_create_cq(&ctx->vctx.context, 64, NULL, 0);
		nic_k = 0;
		for (int i = 0; i < 37; i++)
			nic_write(&(struct cqe){ .wr_id = (uint64_t)i, .qpn = 0xFFFFFF });
		ok = rnicp_poll_cq(cq, 40, many) == 37;
		for (int i = 0; i < 37; i++)
			ok &= many[i].wr_id == (uint64_t)i;
		CHECK(ok && rnicp_poll_cq(cq, 40, many) == 0, "poll-many-in-one-call");
		rnicp_destroy_cq(cq);
		cq = big;
	}
	{
		unsigned ndb = mock.ndb;
		CHECK(rnicp_req_notify_cq(cq, 1) == 0 && mock.ndb == ndb + 1 && mock.db_off[ndb] == RNIC_DB_CQ_ARM &&
			      mock.db_val[ndb] == rnicp_db_cq_arm_val(v->ring.cqn, 1) &&
			      rnicp_req_notify_cq(cq, 0) == 0 && mock.db_val[ndb + 1] == rnicp_db_cq_arm_val(v->ring.cqn, 0),
		      "req-notify-cq-arm-doorbell");
	}
	{
		uint32_t gone = qa->qpn;

		rnicp_destroy_qp(a);
		rnicp_destroy_qp(b);
		/* a CQE of a destroyed QP still polls (nothing to retire) */
		nic_k = 7;
		nic_write(&(struct cqe){ .wr_id = 0xE0, .qpn = gone });
	}
	CHECK(rnicp_poll_cq(cq, 8, wc) == 1 && wc[0].wr_id == 0xE0, "poll-destroyed-qp-cqe-harmless");
	rnicp_destroy_cq(cq);
	rnicp_dealloc_pd(pd);
}

void test_cq(void)
{
	mock_reset();
	ctx = tb_ctx_new();
	test_create();
	test_poll();
	tb_ctx_free(ctx);
}
