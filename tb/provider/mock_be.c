/* The mock backend and the test context. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "rnic_spec.h"
#include "tb_prov.h"

int tb_failed;
unsigned tb_checks;
struct mock_be mock;
static struct rnicp_be *const MOCK_BE = (struct rnicp_be *)&mock;

void tb_check(int ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	tb_checks++;
	if (ok) {
		printf("PASS %s\n", name);
		return;
	}
	printf("FAIL %s ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	tb_failed = 1;
}

void mock_reset(void)
{
	memset(&mock, 0, sizeof(mock));
	mock.dattr = (struct rnic_device_attr){ .fw_version = 0x00010002, .max_qp = 126, .max_cq = 127,
						 .max_mr = 511, .max_pd = 255, .max_qp_wr = 1u << 15,
						 .max_cqe = 1u << 16, .max_sge = RNIC_MAX_SGE, .max_inline = 128,
						 .max_rd_atomic = 16, .page_size_cap = 0x201000,
						 .max_mr_size_log2 = 40, .num_uctx = 511 };
	mock.pattr = (struct rnic_port_attr){ .state = IBV_PORT_ACTIVE, .max_mtu = IBV_MTU_4096,
					       .active_mtu = IBV_MTU_1024, .gid_tbl_len = 2, .speed_gbps = 100,
					       .mac = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 } };
	mock.next_id = 0x21;
}

#define ENTER(op)                                                                                  \
	do {                                                                                       \
		mock.calls[op]++;                                                                  \
		if (mock.fail[op])                                                                 \
			return mock.fail[op];                                                      \
	} while (0)

static int m_open(const char *ibdev, struct rnicp_be **out)
{
	ENTER(M_OPEN);
	snprintf(mock.ibdev, sizeof(mock.ibdev), "%s", ibdev);
	*out = MOCK_BE;
	return 0;
}

static void m_close(struct rnicp_be *be)
{
	(void)be;
	mock.closed++;
}

static uint32_t m_uctx(struct rnicp_be *be)
{
	(void)be;
	return 3;
}

static int m_event_fd(struct rnicp_be *be)
{
	(void)be;
	return -1;
}

static int m_query_device(struct rnicp_be *be, struct rnic_device_attr *out)
{
	(void)be;
	ENTER(M_QUERY_DEVICE);
	*out = mock.dattr;
	return 0;
}

static int m_query_port(struct rnicp_be *be, uint32_t port, struct rnic_port_attr *out)
{
	(void)be;
	ENTER(M_QUERY_PORT);
	if (port != 1)
		return -EINVAL;
	*out = mock.pattr;
	return 0;
}

static int m_alloc_pd(struct rnicp_be *be, uint32_t *pdn)
{
	(void)be;
	ENTER(M_ALLOC_PD);
	*pdn = mock.next_id++;
	return 0;
}

static int m_dealloc_pd(struct rnicp_be *be, uint32_t pdn)
{
	(void)be;
	ENTER(M_DEALLOC_PD);
	mock.destroyed = pdn;
	return 0;
}

static int m_reg_mr(struct rnicp_be *be, uint32_t pdn, void *addr, uint64_t len, uint64_t iova,
		    uint32_t access, uint32_t *lkey, uint32_t *rkey)
{
	(void)be;
	ENTER(M_REG_MR);
	mock.pdn = pdn;
	mock.mr_addr = addr;
	mock.mr_len = len;
	mock.mr_iova = iova;
	mock.access = access;
	*lkey = 0x100 + mock.next_id;
	*rkey = 0x200 + mock.next_id++;
	return 0;
}

static int m_dereg_mr(struct rnicp_be *be, uint32_t lkey)
{
	(void)be;
	ENTER(M_DEREG_MR);
	mock.destroyed = lkey;
	return 0;
}

static int m_create_cq(struct rnicp_be *be, uint32_t log_size, void *ring, void *dbrec,
		       uint64_t user_handle, void *channel, uint32_t *cqn)
{
	(void)be;
	(void)user_handle;
	(void)channel;
	ENTER(M_CREATE_CQ);
	mock.cq_log = log_size;
	mock.cq_ring = ring;
	mock.cq_dbrec = dbrec;
	*cqn = mock.next_id++;
	return 0;
}

static int m_destroy_cq(struct rnicp_be *be, uint32_t cqn)
{
	(void)be;
	ENTER(M_DESTROY_CQ);
	mock.destroyed = cqn;
	return 0;
}

static int m_create_qp(struct rnicp_be *be, const struct rnicp_be_qp_in *in, uint32_t *qpn)
{
	(void)be;
	ENTER(M_CREATE_QP);
	mock.qp_in = *in;
	*qpn = mock.next_id++;
	return 0;
}

static int m_modify_qp(struct rnicp_be *be, uint32_t qpn, uint32_t mask, const struct rnic_qp_attr *attr)
{
	(void)be;
	(void)qpn;
	ENTER(M_MODIFY_QP);
	mock.modify_mask = mask;
	mock.modify_attr = *attr;
	return 0;
}

static int m_query_qp(struct rnicp_be *be, uint32_t qpn, struct rnic_qp_attr *out)
{
	(void)be;
	(void)qpn;
	ENTER(M_QUERY_QP);
	*out = mock.query_out;
	return 0;
}

static int m_destroy_qp(struct rnicp_be *be, uint32_t qpn)
{
	(void)be;
	ENTER(M_DESTROY_QP);
	mock.destroyed = qpn;
	return 0;
}

static int m_create_ah(struct rnicp_be *be, const struct rnic_create_ah_in *in, uint32_t *ahn)
{
	(void)be;
	ENTER(M_CREATE_AH);
	mock.ah_in = *in;
	*ahn = mock.next_id++;
	return 0;
}

static int m_destroy_ah(struct rnicp_be *be, uint32_t ahn)
{
	(void)be;
	ENTER(M_DESTROY_AH);
	mock.destroyed = ahn;
	return 0;
}

static void m_db_write32(struct rnicp_be *be, uint32_t off, uint32_t val)
{
	unsigned n = __atomic_fetch_add(&mock.ndb, 1, __ATOMIC_RELAXED);	/* test_mt posts from threads */

	(void)be;
	if (n < MOCK_MAX_DB) {
		mock.db_off[n] = off;
		mock.db_val[n] = val;
	}
	if (mock.on_db)
		mock.on_db(off, val);
}

static void m_db_write64(struct rnicp_be *be, uint32_t off, const void *src)
{
	unsigned n = __atomic_fetch_add(&mock.n64, 1, __ATOMIC_RELAXED);

	if (n < MOCK_MAX_BF)
		memcpy(mock.db64[n], src, 64);
	m_db_write32(be, off, (uint32_t)rnic_ld_le(src, 4));
}

static void m_bf_write(struct rnicp_be *be, const void *wqe, unsigned bytes, uint32_t bf_db_val)
{
	unsigned n = __atomic_fetch_add(&mock.nbf, 1, __ATOMIC_RELAXED);

	(void)be;
	if (n < MOCK_MAX_BF && bytes <= 256) {
		memcpy(mock.bf[n].wqe, wqe, bytes);
		mock.bf[n].bytes = bytes;
		mock.bf[n].db_val = bf_db_val;
	}
	if (mock.on_db)
		mock.on_db(RNIC_DB_BF_DB, bf_db_val);
}

const struct rnicp_be_ops mock_be_ops = {
	.name = "mock",
	.open = m_open,
	.close = m_close,
	.uctx = m_uctx,
	.event_fd = m_event_fd,
	.query_device = m_query_device,
	.query_port = m_query_port,
	.alloc_pd = m_alloc_pd,
	.dealloc_pd = m_dealloc_pd,
	.reg_mr = m_reg_mr,
	.dereg_mr = m_dereg_mr,
	.create_cq = m_create_cq,
	.destroy_cq = m_destroy_cq,
	.create_qp = m_create_qp,
	.modify_qp = m_modify_qp,
	.query_qp = m_query_qp,
	.destroy_qp = m_destroy_qp,
	.create_ah = m_create_ah,
	.destroy_ah = m_destroy_ah,
	.db_write32 = m_db_write32,
	.db_write64 = m_db_write64,
	.bf_write = m_bf_write,
};

struct rnicp_context *tb_ctx_new(void)
{
	struct rnicp_context *ctx = calloc(1, sizeof(*ctx));

	if (ctx && rnicp_ctx_init(ctx, &mock_be_ops, "rnic0")) {
		free(ctx);
		return NULL;
	}
	return ctx;
}

void tb_ctx_free(struct rnicp_context *ctx)
{
	rnicp_ctx_fini(ctx);
	free(ctx);
}
