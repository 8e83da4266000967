/* create_qp sizing and rejections, modify_qp attribute mapping, query_qp, destroy_qp. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rnic_spec.h"
#include "tb_prov.h"

static struct rnicp_context *ctx;
static struct ibv_pd *pd;
static struct ibv_cq *cq;

static struct ibv_qp *mkqp(enum ibv_qp_type t, uint32_t swr, uint32_t rwr, uint32_t ssge, uint32_t rsge,
			   uint32_t inl, struct ibv_qp_init_attr *out)
{
	struct ibv_qp_init_attr a;

	memset(&a, 0, sizeof(a));
	a.qp_context = (void *)0x1234;
	a.send_cq = a.recv_cq = cq;
	a.qp_type = t;
	a.cap = (struct ibv_qp_cap){ swr, rwr, ssge, rsge, inl };
	if (out)
		*out = a;
	errno = 0;
	struct ibv_qp *qp = rnicp_create_qp(pd, &a);
	if (out)
		*out = a;
	return qp;
}

static void test_create(void)
{
	struct ibv_qp_init_attr a;
	struct ibv_qp *qp;
	struct rnicp_qp *q;

	/* RC, 1 SGE: an atomic (32 + 32 + 16 bytes) is the largest WQE -> 2 WQEBBs each. */
	qp = mkqp(IBV_QPT_RC, 10, 20, 1, 1, 0, &a);
	q = qp ? to_rqp(qp) : NULL;
	CHECK(qp && mock.qp_in.sq_log_size == 5 && mock.qp_in.rq_log_size == 5 && mock.qp_in.rq_log_stride == 5 &&
		      mock.qp_in.rq_offset == 64 * 32 && mock.qp_in.buf_len == 4096 && mock.qp_in.buf == q->buf &&
		      ((uintptr_t)q->buf & 4095) == 0 && mock.qp_in.qp_type == RNIC_QP_TYPE_RC &&
		      mock.qp_in.pdn == to_rpd(pd)->pdn && mock.qp_in.send_cqn == to_rcq(cq)->ring.cqn &&
		      mock.qp_in.recv_cqn == to_rcq(cq)->ring.cqn && mock.qp_in.user_handle == (uintptr_t)qp,
	      "qp-create-rc-geometry");
	CHECK(qp && a.cap.max_send_wr == 16 && a.cap.max_recv_wr == 32 && a.cap.max_send_sge == 4 &&
		      a.cap.max_recv_sge == 1 && a.cap.max_inline_data == 80 && mock.qp_in.max_inline == 80,
	      "qp-create-rc-caps-written-back");
	CHECK(qp && qp->qp_num == 0x23 && qp->state == IBV_QPS_RESET && qp->qp_type == IBV_QPT_RC && qp->pd == pd &&
		      qp->send_cq == cq && qp->recv_cq == cq && !qp->srq && qp->qp_context == (void *)0x1234 &&
		      qp->context == &ctx->vctx.context,
	      "qp-create-fills-ibv-qp");
	pthread_rwlock_rdlock(&ctx->qp_lock);
	CHECK(qp && rnicp_qp_lookup(ctx, qp->qp_num) == q, "qp-create-in-qpn-table");
	pthread_rwlock_unlock(&ctx->qp_lock);
	CHECK(qp && rnicp_destroy_qp(qp) == 0 && mock.destroyed == 0x23, "qp-destroy");
	pthread_rwlock_rdlock(&ctx->qp_lock);
	CHECK(!rnicp_qp_lookup(ctx, 0x23), "qp-destroy-leaves-table");
	pthread_rwlock_unlock(&ctx->qp_lock);

	/* UD, ibv_ud_pingpong's caps: 1 send WR of 1 WQEBB (the SQ has 2 at least), 500 receives. */
	qp = mkqp(IBV_QPT_UD, 1, 500, 1, 1, 0, &a);
	CHECK(qp && mock.qp_in.sq_log_size == 1 && mock.qp_in.rq_log_size == 9 && a.cap.max_send_wr == 2 &&
		      a.cap.max_recv_wr == 512 && a.cap.max_inline_data == 16 && a.cap.max_send_sge == 1 &&
		      mock.qp_in.qp_type == RNIC_QP_TYPE_UD,
	      "qp-create-ud-geometry");
	rnicp_destroy_qp(qp);
	/* UD with 100 bytes inline: 32 + 16 + 112 = 160 -> 3 WQEBBs per WQE. */
	qp = mkqp(IBV_QPT_UD, 4, 4, 1, 4, 100, &a);
	CHECK(qp && to_rqp(qp)->sq_wqebbs == 3 && mock.qp_in.sq_log_size == 4 && a.cap.max_send_wr == 5 &&
		      a.cap.max_inline_data == 128 && a.cap.max_send_sge == 4 && mock.qp_in.rq_log_stride == 7 &&
		      a.cap.max_recv_sge == 4,
	      "qp-create-inline-sizes-wqebbs");
	rnicp_destroy_qp(qp);
	qp = mkqp(IBV_QPT_RC, 0, 0, 0, 0, 0, &a);
	CHECK(qp && a.cap.max_send_wr >= 1 && a.cap.max_recv_wr >= 1, "qp-create-zero-caps-get-minimum");
	rnicp_destroy_qp(qp);

	CHECK(!mkqp(IBV_QPT_UC, 1, 1, 1, 1, 0, NULL) && errno == EOPNOTSUPP, "qp-create-uc-eopnotsupp");
	CHECK(!mkqp(IBV_QPT_RAW_PACKET, 1, 1, 1, 1, 0, NULL) && errno == EOPNOTSUPP, "qp-create-raw-eopnotsupp");
	CHECK(!mkqp(IBV_QPT_XRC_SEND, 1, 1, 1, 1, 0, NULL) && errno == EOPNOTSUPP, "qp-create-xrc-eopnotsupp");
	CHECK(!mkqp(IBV_QPT_RC, 1, 1, 5, 1, 0, NULL) && errno == EINVAL, "qp-create-too-many-send-sge-einval");
	CHECK(!mkqp(IBV_QPT_RC, 1, 1, 1, 5, 0, NULL) && errno == EINVAL, "qp-create-too-many-recv-sge-einval");
	CHECK(!mkqp(IBV_QPT_RC, 1, 1, 1, 1, 129, NULL) && errno == EINVAL, "qp-create-too-much-inline-einval");
	CHECK(!mkqp(IBV_QPT_RC, (1u << 15) + 1, 1, 1, 1, 0, NULL) && errno == EINVAL, "qp-create-too-many-wr-einval");
	/* 2^15 WQEs of 2 WQEBBs do not fit the 16-bit index space */
	CHECK(!mkqp(IBV_QPT_RC, 1u << 15, 1, 1, 1, 0, NULL) && errno == EINVAL, "qp-create-sq-beyond-index-space-einval");
	{
		struct ibv_qp_init_attr b;
		memset(&b, 0, sizeof(b));
		b.qp_type = IBV_QPT_RC;
		b.send_cq = cq;
		b.cap.max_send_wr = b.cap.max_recv_wr = 1;
		errno = 0;
		CHECK(!rnicp_create_qp(pd, &b) && errno == EINVAL, "qp-create-without-recv-cq-einval");
	}
	mock.fail[M_CREATE_QP] = -ENOMEM;
	CHECK(!mkqp(IBV_QPT_RC, 1, 1, 1, 1, 0, NULL) && errno == ENOMEM, "qp-create-backend-error-in-errno");
	mock.fail[M_CREATE_QP] = 0;
}

static void mapped(union ibv_gid *g, uint8_t a, uint8_t b, uint8_t c, uint8_t d)
{
	memset(g, 0, sizeof(*g));
	g->raw[10] = g->raw[11] = 0xFF;
	g->raw[12] = a, g->raw[13] = b, g->raw[14] = c, g->raw[15] = d;
}

static void test_modify(void)
{
	struct ibv_qp *qp = mkqp(IBV_QPT_RC, 4, 4, 1, 1, 0, NULL);
	struct rnicp_qp *q = to_rqp(qp);
	struct ibv_qp_attr a;
	const int init = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS;
	const int rtr = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
	const int rts = IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
			IBV_QP_MAX_QP_RD_ATOMIC;
	unsigned calls;

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_INIT;
	a.port_num = 1;
	a.qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
	CHECK(rnicp_modify_qp(qp, &a, init) == 0 && mock.modify_mask == 0x39 &&
		      mock.modify_attr.state == RNIC_QP_STATE_INIT &&
		      mock.modify_attr.access == (1u << RNIC_ACCESS_REMOTE_WRITE | 1u << RNIC_ACCESS_REMOTE_READ) &&
		      q->state == RNIC_QP_STATE_INIT,
	      "modify-init-mask-and-access");

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = 0x4B6A01;
	a.rq_psn = 0x624D4C;
	a.max_dest_rd_atomic = 16;
	a.min_rnr_timer = 12;
	a.ah_attr.is_global = 1;
	a.ah_attr.port_num = 1;
	mapped(&a.ah_attr.grh.dgid, 10, 1, 2, 3);
	a.ah_attr.grh.sgid_index = 1;
	a.ah_attr.grh.hop_limit = 0xFF;
	a.ah_attr.grh.traffic_class = 0x60;
	CHECK(rnicp_modify_qp(qp, &a, rtr) == 0 && mock.modify_mask == 0x129181 &&
		      mock.modify_attr.state == RNIC_QP_STATE_RTR && mock.modify_attr.path_mtu == IBV_MTU_1024 &&
		      mock.modify_attr.dest_qpn == 0x4B6A01 && mock.modify_attr.rq_psn == 0x624D4C &&
		      mock.modify_attr.max_dest_rd_atomic == 16 && mock.modify_attr.min_rnr_timer == 12 &&
		      mock.modify_attr.dest_ipv4 == 0x0A010203u && mock.modify_attr.sgid_index == 1 &&
		      mock.modify_attr.hop_limit == 0xFF && mock.modify_attr.traffic_class == 0x60,
	      "modify-rtr-av-gid-to-ipv4");
	/* no traffic class: the SL's DSCP class selector (the port's PCP follows it) */
	a.ah_attr.grh.traffic_class = 0;
	a.ah_attr.sl = 3;
	CHECK(rnicp_modify_qp(qp, &a, rtr) == 0 && mock.modify_attr.traffic_class == 0x60, "modify-av-sl-to-dscp-class");
	a.ah_attr.grh.traffic_class = 0x8A; /* a traffic class given wins over the SL */
	CHECK(rnicp_modify_qp(qp, &a, rtr) == 0 && mock.modify_attr.traffic_class == 0x8A, "modify-av-traffic-class-over-sl");
	a.ah_attr.grh.traffic_class = 0x60;
	a.ah_attr.sl = 0;

	calls = mock.calls[M_MODIFY_QP];
	a.ah_attr.is_global = 0;
	CHECK(rnicp_modify_qp(qp, &a, rtr) == EINVAL && mock.calls[M_MODIFY_QP] == calls, "modify-non-global-av-einval");
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.dgid.raw[0] = 0xFE;
	CHECK(rnicp_modify_qp(qp, &a, rtr) == EINVAL && mock.calls[M_MODIFY_QP] == calls, "modify-non-ipv4-gid-einval");
	mapped(&a.ah_attr.grh.dgid, 10, 1, 2, 3);
	a.ah_attr.grh.sgid_index = 2;
	CHECK(rnicp_modify_qp(qp, &a, rtr) == EINVAL, "modify-sgid-index-beyond-table-einval");
	a.ah_attr.grh.sgid_index = 1;
	a.path_mtu = 6;
	CHECK(rnicp_modify_qp(qp, &a, rtr) == EINVAL, "modify-bad-path-mtu-einval");
	a.path_mtu = IBV_MTU_1024;
	a.max_dest_rd_atomic = 17;
	CHECK(rnicp_modify_qp(qp, &a, rtr) == EINVAL, "modify-too-many-dest-rd-atomic-einval");
	a.max_dest_rd_atomic = 1;
	CHECK(rnicp_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_ALT_PATH) == EOPNOTSUPP &&
		      rnicp_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_RATE_LIMIT) == EOPNOTSUPP &&
		      mock.calls[M_MODIFY_QP] == calls,
	      "modify-alt-path-rate-limit-eopnotsupp");
	a.port_num = 2;
	CHECK(rnicp_modify_qp(qp, &a, IBV_QP_PORT) == EINVAL, "modify-bad-port-einval");
	a.port_num = 1;
	a.pkey_index = 1;
	CHECK(rnicp_modify_qp(qp, &a, IBV_QP_PKEY_INDEX) == EINVAL, "modify-bad-pkey-index-einval");
	mock.fail[M_MODIFY_QP] = -EINVAL;
	a.qp_state = IBV_QPS_RTS;
	CHECK(rnicp_modify_qp(qp, &a, IBV_QP_STATE) == EINVAL && q->state == RNIC_QP_STATE_RTR,
	      "modify-device-refusal-keeps-state");
	mock.fail[M_MODIFY_QP] = 0;

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.sq_psn = 0xB74B0B;
	a.max_rd_atomic = 1;
	CHECK(rnicp_modify_qp(qp, &a, rts) == 0 && mock.modify_mask == 0x12E01 && mock.modify_attr.timeout == 14 &&
		      mock.modify_attr.retry_cnt == 7 && mock.modify_attr.rnr_retry == 7 &&
		      mock.modify_attr.sq_psn == 0xB74B0B && mock.modify_attr.max_rd_atomic == 1 &&
		      q->state == RNIC_QP_STATE_RTS,
	      "modify-rts");

	/* query: the device's view, the GID rebuilt from the IPv4 address, the caps kept here */
	mock.query_out = (struct rnic_qp_attr){ .state = RNIC_QP_STATE_RTS, .path_mtu = IBV_MTU_1024, .timeout = 14,
						 .retry_cnt = 7, .rnr_retry = 6, .min_rnr_timer = 12,
						 .access = 6, .dest_qpn = 0x99, .rq_psn = 5, .sq_psn = 6, .qkey = 0x11111111,
						 .max_rd_atomic = 3, .max_dest_rd_atomic = 4, .sgid_index = 1,
						 .hop_limit = 64, .traffic_class = 8, .dest_ipv4 = 0xC0A80001u };
	{
		struct ibv_qp_init_attr ia;
		union ibv_gid g;
		mapped(&g, 192, 168, 0, 1);
		memset(&a, 0xEE, sizeof(a));
		CHECK(rnicp_query_qp(qp, &a, IBV_QP_CAP | IBV_QP_STATE, &ia) == 0 && a.qp_state == IBV_QPS_RTS &&
			      a.path_mtu == IBV_MTU_1024 && a.timeout == 14 && a.retry_cnt == 7 && a.rnr_retry == 6 &&
			      a.min_rnr_timer == 12 && a.qp_access_flags == 6 && a.dest_qp_num == 0x99 &&
			      a.rq_psn == 5 && a.sq_psn == 6 && a.qkey == 0x11111111 && a.max_rd_atomic == 3 &&
			      a.max_dest_rd_atomic == 4 && a.ah_attr.is_global == 1 &&
			      !memcmp(&a.ah_attr.grh.dgid, &g, 16) && a.ah_attr.grh.sgid_index == 1 &&
			      a.ah_attr.grh.hop_limit == 64 && a.ah_attr.grh.traffic_class == 8 && a.port_num == 1 &&
			      a.pkey_index == 0,
		      "query-qp-attrs");
		CHECK(!memcmp(&a.cap, &q->cap, sizeof(a.cap)) && !memcmp(&ia.cap, &q->cap, sizeof(a.cap)) &&
			      ia.qp_type == IBV_QPT_RC && ia.send_cq == cq && ia.recv_cq == cq &&
			      ia.qp_context == (void *)0x1234 && a.cap.max_inline_data == 80,
		      "query-qp-caps-and-init-attr");
	}
	/* back to RESET: the rings start over at index 0 as the device's do */
	q->sq.pi = q->sq.ci = 6;
	q->rq.pi = 3;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RESET;
	CHECK(rnicp_modify_qp(qp, &a, IBV_QP_STATE) == 0 && q->sq.pi == 0 && q->sq.ci == 0 && q->rq.pi == 0 &&
		      q->state == RNIC_QP_STATE_RESET,
	      "modify-reset-restarts-rings");
	rnicp_destroy_qp(qp);

	/* UD: INIT with the Q_Key, RTR and RTS with state (and SQ PSN) only */
	qp = mkqp(IBV_QPT_UD, 4, 4, 1, 1, 0, NULL);
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_INIT;
	a.port_num = 1;
	a.qkey = 0x11111111;
	CHECK(rnicp_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY) == 0 &&
		      mock.modify_mask == 0x71 && mock.modify_attr.qkey == 0x11111111 && to_rqp(qp)->qkey == 0x11111111,
	      "modify-ud-init-qkey");
	rnicp_destroy_qp(qp);
}

void test_qp(void)
{
	mock_reset();
	ctx = tb_ctx_new();
	pd = rnicp_alloc_pd(&ctx->vctx.context);
	cq = rnicp_create_cq(&ctx->vctx.context, 64, NULL, 0);
	test_create();
	test_modify();
	mock.fail[M_DESTROY_CQ] = -EBUSY;
	CHECK(rnicp_destroy_cq(cq) == EBUSY, "cq-destroy-busy-keeps-cq");
	mock.fail[M_DESTROY_CQ] = 0;
	CHECK(rnicp_destroy_cq(cq) == 0, "cq-destroy");
	rnicp_dealloc_pd(pd);
	tb_ctx_free(ctx);
}
