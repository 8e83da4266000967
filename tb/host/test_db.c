/* Doorbell values and the BlueFlame copy through a recording MMIO callback. */
#include <errno.h>
#include <string.h>

#include "rnic_spec.h"
#include "rnicp_db.h"
#include "rnicp_wqe.h"
#include "tb_host.h"

struct rec {
	unsigned n;
	uint32_t off[128], val[128];
	uint8_t blk[8][64];
	unsigned nblk;
};

static void rec_write(void *ctx, uint32_t off, uint32_t val)
{
	struct rec *r = ctx;

	if (r->n < 128) {
		r->off[r->n] = off;
		r->val[r->n++] = val;
	}
}

static void rec_write64(void *ctx, uint32_t off, const void *src)
{
	struct rec *r = ctx;

	if (r->nblk < 8)
		memcpy(r->blk[r->nblk++], src, 64);
	rec_write(ctx, off, (uint32_t)rnic_ld_le(src, 4));
}

void test_db(void)
{
	struct rec r;
	struct rnicp_db db = { &r, rec_write, rec_write64, NULL };
	int ok;

	CHECK(rnicp_db_sq_val(0x1234, 0x10005) == 0x00051234u && rnicp_db_rq_val(0xFFFF, 0xABCD) == 0xABCDFFFFu &&
		      rnicp_db_cq_val(0x10001, 0x2) == 0x00020001u && rnicp_db_bf_val(7, 0xFFFF) == 0xFFFF0007u,
	      "db-values-num-low-index-high");
	CHECK(rnicp_db_cq_arm_val(5, 0) == 5u && rnicp_db_cq_arm_val(5, 1) == (5u | 1u << 16), "db-cq-arm-solicited-bit");

	memset(&r, 0, sizeof(r));
	rnicp_ring_sq(&db, 3, 10);
	rnicp_ring_rq(&db, 3, 11);
	rnicp_ring_cq(&db, 4, 12);
	rnicp_arm_cq(&db, 4, 1);
	CHECK(r.n == 4 && r.off[0] == RNIC_DB_SQ_DB && r.val[0] == rnicp_db_sq_val(3, 10) && r.off[1] == RNIC_DB_RQ_DB &&
		      r.off[2] == RNIC_DB_CQ_DB && r.val[2] == rnicp_db_cq_val(4, 12) && r.off[3] == RNIC_DB_CQ_ARM &&
		      r.val[3] == rnicp_db_cq_arm_val(4, 1),
	      "db-ring-offsets");

	/* BlueFlame: a 3-WQEBB inline WQE goes to bf_data as three 64-byte stores, then bf_db. */
	static uint8_t ring[16 * 64], payload[100];
	uint8_t bf[RNICP_MAX_WQE_BYTES];
	struct rnicp_sq sq;
	for (unsigned i = 0; i < sizeof(payload); i++)
		payload[i] = (uint8_t)(i * 7 + 1);
	struct rnicp_sge s = { (uintptr_t)payload, sizeof(payload), 0 };
	struct rnicp_send_wr wr = { .wr_id = 1, .opcode = RNIC_WQE_OP_RDMA_WRITE, .flags = RNICP_WR_INLINE | RNICP_WR_SIGNALED,
				    .sg_list = &s, .num_sge = 1, .remote_addr = 0x1000, .rkey = 5 };
	rnicp_sq_init(&sq, ring, 4, 0x77, RNIC_QP_TYPE_RC, 4, 128);
	int nbb = rnicp_sq_post(&sq, &wr, bf);
	memset(&r, 0, sizeof(r));
	ok = nbb == 3 && rnicp_bf_post(&db, bf, (unsigned)nbb * 64, sq.qpn, sq.pi) == 0 && r.n == (unsigned)nbb + 1 &&
	     r.nblk == (unsigned)nbb;
	for (unsigned i = 0; ok && i < (unsigned)nbb; i++)
		ok &= r.off[i] == RNIC_DB_BF_DATA + 64 * i && !memcmp(r.blk[i], bf + 64 * i, 64);
	CHECK(ok && r.off[r.n - 1] == RNIC_DB_BF_DB && r.val[r.n - 1] == rnicp_db_bf_val(0x77, 3),
	      "db-blueflame-copy-then-doorbell");
	memset(&r, 0, sizeof(r));
	CHECK(rnicp_bf_post(&db, bf, 0, 1, 1) == -EINVAL && rnicp_bf_post(&db, bf, 100, 1, 1) == -EINVAL &&
		      rnicp_bf_post(&db, bf, 320, 1, 1) == -EINVAL && r.n == 0,
	      "db-blueflame-bad-size");
	db.write64 = NULL;
	CHECK(rnicp_bf_post(&db, bf, 64, 1, 1) == -EOPNOTSUPP && r.n == 0, "db-blueflame-needs-a-block-store");
}
