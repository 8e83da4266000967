/* Context, query_device(_ex), query_port, PD, MR and AH against the mock backend. */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rnic_spec.h"
#include "tb_prov.h"

static void test_context(void)
{
	struct rnicp_context *ctx;

	mock_reset();
	mock.fail[M_OPEN] = -ENOSYS;
	ctx = calloc(1, sizeof(*ctx));
	CHECK(rnicp_ctx_init(ctx, &mock_be_ops, "rnic0") == -ENOSYS, "ctx-open-failure-is-returned");
	free(ctx);
	mock_reset();
	mock.fail[M_QUERY_PORT] = -EIO;
	ctx = calloc(1, sizeof(*ctx));
	CHECK(rnicp_ctx_init(ctx, &mock_be_ops, "rnic0") == -EIO && mock.closed == 1,
	      "ctx-query-failure-closes-backend");
	free(ctx);
	mock_reset();
	ctx = tb_ctx_new();
	CHECK(ctx && !strcmp(mock.ibdev, "rnic0") && mock.calls[M_QUERY_DEVICE] == 1 &&
		      ctx->vctx.context.num_comp_vectors == 1 && ctx->db.write_bf,
	      "ctx-opens-backend-by-ibdev-name");
	tb_ctx_free(ctx);
	CHECK(mock.closed == 1, "ctx-fini-closes-backend");
	unsetenv("RNIC_SIM_SOCK");
	CHECK(tb_real_be_select() == &rnicp_be_kernel_ops, "backend-select-kernel-without-sim-sock");
	setenv("RNIC_SIM_SOCK", "/nonexistent", 1);
	CHECK(tb_real_be_select() == &rnicp_be_sim_ops, "backend-select-sim-with-sim-sock");
	unsetenv("RNIC_SIM_SOCK");
	{
		struct rnicp_be *be = (struct rnicp_be *)1;
		CHECK(rnicp_be_kernel_ops.open("rnic0", &be) == -ENOSYS && be == NULL,
		      "kernel-backend-stub-enosys");
	}
}

static void test_query_device(void)
{
	struct rnicp_context *ctx;
	struct ibv_device_attr_ex a;
	struct ibv_query_device_ex_input in = { .comp_mask = 1 };
	int rc, untouched = 1;

	mock_reset();
	ctx = tb_ctx_new();
	memset(&a, 0xAB, sizeof(a));
	/* ibv_query_device passes the legacy size: nothing beyond it may be written. */
	rc = rnicp_query_device_ex(&ctx->vctx.context, NULL, &a, sizeof(struct ibv_device_attr));
	for (size_t i = sizeof(struct ibv_device_attr); i < sizeof(a); i++)
		untouched &= ((uint8_t *)&a)[i] == 0xAB;
	CHECK(rc == 0 && untouched, "query-device-writes-only-attr-size");
	CHECK(a.orig_attr.vendor_id == 0x10EE && a.orig_attr.vendor_part_id == 0x5252 &&
		      !strcmp(a.orig_attr.fw_ver, "1.2") && a.orig_attr.phys_port_cnt == 1 &&
		      a.orig_attr.max_pkeys == 1 && a.orig_attr.atomic_cap == IBV_ATOMIC_HCA,
	      "query-device-identity");
	CHECK(a.orig_attr.max_qp_rd_atom == 16 && a.orig_attr.max_qp_init_rd_atom == 16 &&
		      a.orig_attr.max_qp == 126 && a.orig_attr.max_qp_wr == 1 << 15 && a.orig_attr.max_sge == 4 &&
		      a.orig_attr.max_cq == 127 && a.orig_attr.max_cqe == 1 << 16 && a.orig_attr.max_mr == 511 &&
		      a.orig_attr.max_pd == 255 && a.orig_attr.max_mr_size == 1ull << 40 &&
		      a.orig_attr.page_size_cap == 0x201000,
	      "query-device-limits-from-device");
	CHECK(a.orig_attr.node_guid == (__be64)htobe64(0x001122fffe334455ull), "query-device-node-guid-eui64-of-mac");
	memset(&a, 0xAB, sizeof(a));
	rc = rnicp_query_device_ex(&ctx->vctx.context, NULL, &a, sizeof(a));
	CHECK(rc == 0 && a.phys_port_cnt_ex == 1 && a.comp_mask == 0 && a.odp_caps.general_caps == 0,
	      "query-device-ex-full-size");
	CHECK(rnicp_query_device_ex(&ctx->vctx.context, &in, &a, sizeof(a)) == EINVAL,
	      "query-device-ex-unknown-input-einval");
	CHECK(rnicp_query_device_ex(&ctx->vctx.context, NULL, &a, 16) == EINVAL, "query-device-short-size-einval");
	mock.dattr.max_rd_atomic = 0;
	tb_ctx_free(ctx);
	ctx = tb_ctx_new();
	rnicp_query_device_ex(&ctx->vctx.context, NULL, &a, sizeof(a));
	CHECK(a.orig_attr.max_qp_rd_atom >= 1, "query-device-rd-atom-at-least-1");
	tb_ctx_free(ctx);
}

static void test_query_port(void)
{
	struct rnicp_context *ctx;
	struct ibv_port_attr p;

	mock_reset();
	ctx = tb_ctx_new();
	memset(&p, 0xCD, sizeof(p));
	CHECK(rnicp_query_port(&ctx->vctx.context, 1, &p) == 0 && p.state == IBV_PORT_ACTIVE &&
		      p.max_mtu == IBV_MTU_4096 && p.active_mtu == IBV_MTU_1024 &&
		      p.link_layer == IBV_LINK_LAYER_ETHERNET && p.gid_tbl_len == 2 && p.pkey_tbl_len == 1 &&
		      p.max_msg_sz == 1u << 31 && p.lid == 0 && p.phys_state == 5 && p.active_width == 2 &&
		      p.active_speed == 32,
	      "query-port-active-ethernet");
	CHECK(rnicp_query_port(&ctx->vctx.context, 2, &p) == EINVAL && rnicp_query_port(&ctx->vctx.context, 0, &p) == EINVAL,
	      "query-port-nonexistent-einval");
	mock.pattr.state = IBV_PORT_DOWN;
	mock.pattr.gid_tbl_len = 3;
	CHECK(rnicp_query_port(&ctx->vctx.context, 1, &p) == 0 && p.state == IBV_PORT_DOWN && p.gid_tbl_len == 3 &&
		      p.phys_state == 3,
	      "query-port-state-and-gids-from-device");
	mock.fail[M_QUERY_PORT] = -EIO;
	CHECK(rnicp_query_port(&ctx->vctx.context, 1, &p) == EIO, "query-port-backend-error-positive-errno");
	tb_ctx_free(ctx);
}

static void test_pd_mr(void)
{
	struct rnicp_context *ctx;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	static char buf[8192];
	uint32_t bits;
	const int all = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
			IBV_ACCESS_REMOTE_ATOMIC;

	mock_reset();
	ctx = tb_ctx_new();
	pd = rnicp_alloc_pd(&ctx->vctx.context);
	CHECK(pd && to_rpd(pd)->pdn == 0x21 && pd->context == &ctx->vctx.context, "pd-alloc");
	mr = rnicp_reg_mr(pd, buf + 100, 5000, 0x7000000064ull, all);
	CHECK(mr && mock.pdn == 0x21 && mock.mr_addr == buf + 100 && mock.mr_len == 5000 &&
		      mock.mr_iova == 0x7000000064ull && mock.access == 0xF && mr->lkey == 0x122 && mr->rkey == 0x222 &&
		      mr->addr == buf + 100 && mr->length == 5000 && mr->pd == pd,
	      "mr-reg-all-rights-map-1to1");
	CHECK(rnicp_access_bits(IBV_ACCESS_LOCAL_WRITE, &bits) == 0 && bits == 1u << RNIC_ACCESS_LOCAL_WRITE &&
		      rnicp_access_bits(IBV_ACCESS_REMOTE_READ, &bits) == 0 && bits == 1u << RNIC_ACCESS_REMOTE_READ &&
		      rnicp_access_bits(IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_ATOMIC, &bits) == 0 &&
		      bits == (1u << RNIC_ACCESS_LOCAL_WRITE | 1u << RNIC_ACCESS_REMOTE_ATOMIC) &&
		      rnicp_access_bits(0, &bits) == 0 && bits == 0,
	      "mr-access-bits");
	CHECK(rnicp_access_bits(IBV_ACCESS_REMOTE_WRITE, &bits) == -EINVAL &&
		      rnicp_access_bits(IBV_ACCESS_REMOTE_ATOMIC, &bits) == -EINVAL,
	      "mr-remote-write-without-local-write-einval");
	CHECK(rnicp_access_bits(IBV_ACCESS_MW_BIND | 1, &bits) == -EOPNOTSUPP &&
		      rnicp_access_bits(IBV_ACCESS_ON_DEMAND | 1, &bits) == -EOPNOTSUPP &&
		      rnicp_access_bits(IBV_ACCESS_ZERO_BASED | 1, &bits) == -EOPNOTSUPP,
	      "mr-mw-odp-zero-based-eopnotsupp");
	CHECK(rnicp_access_bits(IBV_ACCESS_RELAXED_ORDERING | IBV_ACCESS_HUGETLB | 1, &bits) == 0 && bits == 1,
	      "mr-optional-flags-ignored");
	CHECK(rnicp_access_bits(1 << 12, &bits) == -EINVAL, "mr-unknown-flag-einval");
	errno = 0;
	CHECK(!rnicp_reg_mr(pd, buf, sizeof(buf), (uintptr_t)buf, IBV_ACCESS_REMOTE_WRITE) && errno == EINVAL &&
		      mock.calls[M_REG_MR] == 1,
	      "mr-reg-rejected-before-backend");
	CHECK(!rnicp_reg_mr(pd, buf, 0, (uintptr_t)buf, 1) && errno == EINVAL, "mr-zero-length-einval");
	mock.fail[M_REG_MR] = -ENOMEM;
	CHECK(!rnicp_reg_mr(pd, buf, 64, (uintptr_t)buf, 1) && errno == ENOMEM, "mr-backend-error-in-errno");
	CHECK(rnicp_dereg_mr((struct verbs_mr *)mr) == 0 && mock.destroyed == 0x122, "mr-dereg-by-lkey");
	mock.fail[M_DEALLOC_PD] = -EBUSY;
	CHECK(rnicp_dealloc_pd(pd) == EBUSY, "pd-dealloc-busy-keeps-pd");
	mock.fail[M_DEALLOC_PD] = 0;
	CHECK(rnicp_dealloc_pd(pd) == 0 && mock.destroyed == 0x21, "pd-dealloc");
	tb_ctx_free(ctx);
}

static void mapped(union ibv_gid *g, uint8_t a, uint8_t b, uint8_t c, uint8_t d)
{
	memset(g, 0, sizeof(*g));
	g->raw[10] = g->raw[11] = 0xFF;
	g->raw[12] = a, g->raw[13] = b, g->raw[14] = c, g->raw[15] = d;
}

static void test_ah(void)
{
	struct rnicp_context *ctx;
	struct ibv_pd *pd;
	struct ibv_ah *ah;
	struct ibv_ah_attr at;
	uint32_t ip;

	mock_reset();
	ctx = tb_ctx_new();
	pd = rnicp_alloc_pd(&ctx->vctx.context);
	memset(&at, 0, sizeof(at));
	at.is_global = 1;
	at.port_num = 1;
	mapped(&at.grh.dgid, 10, 0, 0, 2);
	at.grh.sgid_index = 1;
	at.grh.hop_limit = 64;
	at.grh.traffic_class = 0x28;
	ah = rnicp_create_ah(pd, &at);
	CHECK(ah && to_rah(ah)->ahn == 0x22 && mock.ah_in.pdn == 0x21 && mock.ah_in.dest_ipv4 == 0x0A000002u &&
		      mock.ah_in.sgid_index == 1 && mock.ah_in.hop_limit == 64 && mock.ah_in.traffic_class == 0x28 &&
		      ah->pd == pd,
	      "ah-global-ipv4-mapped");
	CHECK(rnicp_destroy_ah(ah) == 0 && mock.destroyed == 0x22, "ah-destroy");
	at.is_global = 0;
	errno = 0;
	CHECK(!rnicp_create_ah(pd, &at) && errno == EINVAL && mock.calls[M_CREATE_AH] == 1, "ah-non-global-einval");
	at.is_global = 1;
	at.grh.dgid.raw[0] = 0xFE, at.grh.dgid.raw[1] = 0x80;
	CHECK(!rnicp_create_ah(pd, &at) && errno == EINVAL, "ah-non-ipv4-gid-einval");
	mapped(&at.grh.dgid, 10, 0, 0, 2);
	at.grh.sgid_index = 2;
	CHECK(!rnicp_create_ah(pd, &at) && errno == EINVAL, "ah-sgid-index-beyond-table-einval");
	mapped(&at.grh.dgid, 192, 168, 1, 7);
	CHECK(rnicp_gid_to_ipv4(&at.grh.dgid, &ip) == 0 && ip == 0xC0A80107u, "gid-to-ipv4");
	at.grh.dgid.raw[11] = 0xFE;
	CHECK(rnicp_gid_to_ipv4(&at.grh.dgid, &ip) == -EINVAL, "gid-not-v4-mapped-einval");
	rnicp_dealloc_pd(pd);
	tb_ctx_free(ctx);
}

void test_dev(void)
{
	test_context();
	test_query_device();
	test_query_port();
	test_pd_mr();
	test_ah();
}
