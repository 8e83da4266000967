/* CQ polling: owner phase across wraps, field parsing, never past the producer. */
#include <errno.h>
#include <string.h>

#include "rnic_spec.h"
#include "rnicp_cq.h"
#include "tb_host.h"

static uint8_t ring[16 * RNIC_CQE_SIZE];
static uint32_t dbrec = 0xFFFFFFFFu; /* the doorbell record, a 4-aligned word */

/* The NIC side: completion k (free-running) with the owner bit of its pass. */
static void nic_cqe(uint32_t log_size, uint32_t k)
{
	uint8_t *e = ring + (size_t)(k & ((1u << log_size) - 1)) * RNIC_CQE_SIZE;

	memset(e, 0, RNIC_CQE_SIZE);
	rnic_cqe_set_wr_id(e, 0x1000000000ull + k);
	rnic_cqe_set_byte_len(e, k * 3);
	rnic_cqe_set_imm_data(e, ~k);
	rnic_cqe_set_qpn(e, 100 + (k & 3));
	rnic_cqe_set_src_qp(e, 0xABCDE);
	rnic_cqe_set_status(e, k % 22);
	rnic_cqe_set_opcode(e, k & 1 ? RNIC_WC_OPCODE_RECV : RNIC_WC_OPCODE_RDMA_WRITE);
	rnic_cqe_set_flags(e, k & 7);
	rnic_cqe_set_vendor_err(e, k & 0xFF);
	rnic_cqe_set_wqe_index(e, (k * 5) & 0xFFFF);
	rnic_cqe_set_owner(e, ((k >> log_size) & 1u) ^ 1u);
}

static int wc_is(const struct rnicp_wc *w, uint32_t k)
{
	return w->wr_id == 0x1000000000ull + k && w->byte_len == k * 3 && w->imm_data == ~k && w->qpn == 100 + (k & 3) &&
	       w->src_qp == 0xABCDE && w->status == k % 22 &&
	       w->opcode == (k & 1 ? RNIC_WC_OPCODE_RECV : RNIC_WC_OPCODE_RDMA_WRITE) && w->flags == (k & 7) &&
	       w->vendor_err == (k & 0xFF) && w->wqe_index == ((k * 5) & 0xFFFF) && rnicp_wc_is_recv(w) == (int)(k & 1);
}

void test_cq(void)
{
	struct rnicp_cq cq;
	struct rnicp_wc wc[16];
	uint32_t produced = 0, consumed = 0;
	int ok = 1;

	CHECK(rnicp_cq_init(&cq, NULL, 3, 1, &dbrec) == -EINVAL && rnicp_cq_init(&cq, ring, 17, 1, &dbrec) == -EINVAL &&
		      rnicp_cq_init(&cq, ring, 3, 1, NULL) == -EINVAL &&
		      rnicp_cq_init(&cq, ring, 3, 1, (uint8_t *)&dbrec + 1) == -EINVAL,
	      "cq-init-checks");
	memset(ring, 0, sizeof(ring));
	rnicp_cq_init(&cq, ring, 3, 0x321, &dbrec);
	CHECK(rnicp_cq_poll(&cq, 16, wc) == 0 && rnic_ld_le32(&dbrec) == 0, "cq-empty");

	/* Never past the producer: 3 written, poll for 10 returns 3. */
	for (; produced < 3; produced++)
		nic_cqe(3, produced);
	int n = rnicp_cq_poll(&cq, 10, wc);
	ok = n == 3 && wc_is(&wc[0], 0) && wc_is(&wc[1], 1) && wc_is(&wc[2], 2);
	consumed = 3;
	CHECK(ok && cq.ci == 3 && rnicp_cq_poll(&cq, 10, wc) == 0, "cq-stops-at-producer");
	CHECK(rnic_ld_le32(&dbrec) == 3, "cq-dbrec-holds-consumer-index");
	CHECK(rnicp_cq_db_val(&cq) == ((3u << 16) | 0x321u), "cq-db-value");

	/* Many passes of an 8-entry ring in random bursts and budgets. */
	ok = 1;
	for (int round = 0; round < 200 && ok; round++) {
		uint32_t room = 8 - (produced - consumed), burst = tb_rand_below(room + 1);
		for (uint32_t i = 0; i < burst; i++, produced++)
			nic_cqe(3, produced);
		int max = (int)tb_rand_below(10);
		n = rnicp_cq_poll(&cq, max, wc);
		uint32_t want = produced - consumed < (uint32_t)max ? produced - consumed : (uint32_t)max;
		ok &= n == (int)want;
		for (int i = 0; i < n && ok; i++)
			ok &= wc_is(&wc[i], consumed + (uint32_t)i);
		consumed += (uint32_t)n;
		ok &= cq.ci == consumed && (rnicp_cq_db_val(&cq) >> 16) == (consumed & 0xFFFF) &&
		      rnic_ld_le32(&dbrec) == consumed;
	}
	CHECK(ok && consumed > 80, "cq-phase-flips-across-wraps");

	/* A stale entry from the previous pass (owner of the old phase) is not consumed. */
	n = rnicp_cq_poll(&cq, 16, wc);
	CHECK(n == (int)(produced - consumed), "cq-drain");
	consumed += (uint32_t)n;
	CHECK(rnicp_cq_poll(&cq, 16, wc) == 0, "cq-stale-owner-ignored");
	CHECK(rnicp_cq_poll(&cq, 0, wc) == 0 && rnicp_cq_poll(&cq, -1, wc) == 0, "cq-zero-or-negative-budget");
}
