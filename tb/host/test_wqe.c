/* Send/receive WQE byte layouts read back with the generated accessors. */
#include <errno.h>
#include <string.h>

#include "rnic_spec.h"
#include "rnicp_wqe.h"
#include "tb_host.h"

static uint8_t ring[64 * 64];
static uint8_t data[4096];

static int zero_from(const uint8_t *p, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (p[i])
			return 0;
	return 1;
}

static unsigned nbb_for(unsigned bytes)
{
	return (bytes + 63) / 64;
}

/* Checks the WQE at w (contiguous copy) against wr. */
static int check_wqe(const struct rnicp_sq *sq, const struct rnicp_send_wr *wr, const uint8_t *w, uint16_t idx,
		     int nbb)
{
	int inl = (wr->flags & RNICP_WR_INLINE) != 0, ok = 1;
	unsigned seg = 0, off = RNIC_WQE_CTRL_SIZE, data_bytes;
	uint64_t total = 0;

	for (uint32_t i = 0; i < wr->num_sge; i++)
		total += wr->sg_list[i].length;
	switch (wr->opcode) {
	case RNIC_WQE_OP_RDMA_WRITE:
	case RNIC_WQE_OP_RDMA_WRITE_WITH_IMM:
	case RNIC_WQE_OP_RDMA_READ:
		seg = RNIC_WQE_RADDR_SIZE;
		ok &= rnic_wqe_raddr_get_remote_addr(w + off) == wr->remote_addr && rnic_wqe_raddr_get_rkey(w + off) == wr->rkey;
		break;
	case RNIC_WQE_OP_ATOMIC_CMP_AND_SWP:
		seg = RNIC_WQE_ATOMIC_SIZE;
		ok &= rnic_wqe_atomic_get_remote_addr(w + off) == wr->remote_addr &&
		      rnic_wqe_atomic_get_rkey(w + off) == wr->rkey && rnic_wqe_atomic_get_swap_add(w + off) == wr->swap &&
		      rnic_wqe_atomic_get_compare(w + off) == wr->compare_add;
		break;
	case RNIC_WQE_OP_ATOMIC_FETCH_AND_ADD:
		seg = RNIC_WQE_ATOMIC_SIZE;
		ok &= rnic_wqe_atomic_get_remote_addr(w + off) == wr->remote_addr &&
		      rnic_wqe_atomic_get_rkey(w + off) == wr->rkey &&
		      rnic_wqe_atomic_get_swap_add(w + off) == wr->compare_add && rnic_wqe_atomic_get_compare(w + off) == 0;
		break;
	default:
		if (sq->qp_type == RNIC_QP_TYPE_UD) {
			seg = RNIC_WQE_UD_SIZE;
			ok &= rnic_wqe_ud_get_ahn(w + off) == wr->ahn && rnic_wqe_ud_get_remote_qpn(w + off) == wr->remote_qpn &&
			      rnic_wqe_ud_get_remote_qkey(w + off) == wr->remote_qkey;
		}
	}
	off += seg;
	if (inl) {
		const uint8_t *p = w + off;
		for (uint32_t i = 0; i < wr->num_sge; i++) {
			ok &= memcmp(p, (const void *)(uintptr_t)wr->sg_list[i].addr, wr->sg_list[i].length) == 0;
			p += wr->sg_list[i].length;
		}
		data_bytes = (unsigned)((total + 15) & ~15ull);
	} else {
		for (uint32_t i = 0; i < wr->num_sge; i++) {
			const uint8_t *s = w + off + i * RNIC_WQE_SGE_SIZE;
			ok &= rnic_wqe_sge_get_addr(s) == wr->sg_list[i].addr &&
			      rnic_wqe_sge_get_length(s) == wr->sg_list[i].length && rnic_wqe_sge_get_lkey(s) == wr->sg_list[i].lkey;
		}
		data_bytes = RNIC_WQE_SGE_SIZE * wr->num_sge;
	}
	unsigned bytes = RNIC_WQE_CTRL_SIZE + seg + data_bytes;
	int imm = wr->opcode == RNIC_WQE_OP_RDMA_WRITE_WITH_IMM || wr->opcode == RNIC_WQE_OP_SEND_WITH_IMM;
	ok &= rnic_wqe_ctrl_get_wr_id(w) == wr->wr_id && rnic_wqe_ctrl_get_opcode(w) == wr->opcode &&
	      rnic_wqe_ctrl_get_flags(w) == wr->flags && rnic_wqe_ctrl_get_wqe_index(w) == idx &&
	      rnic_wqe_ctrl_get_imm_data(w) == (imm ? wr->imm_data : 0) &&
	      rnic_wqe_ctrl_get_num_ds(w) == (bytes - RNIC_WQE_CTRL_SIZE) / 16 &&
	      rnic_wqe_ctrl_get_num_sge(w) == (inl ? 0 : wr->num_sge) &&
	      rnic_wqe_ctrl_get_inline_len(w) == (inl ? total : 0) && rnic_wqe_ctrl_get_qpn(w) == sq->qpn &&
	      rnic_wqe_ctrl_get_total_len(w) == total;
	/* reserved bytes of the control segment */
	ok &= zero_from(w, 28, 32);
	/* inline padding and the rest of the last WQEBB */
	ok &= inl ? zero_from(w, off + total, (size_t)nbb * 64) : zero_from(w, bytes, (size_t)nbb * 64);
	ok &= nbb == (int)nbb_for(bytes);
	return ok;
}

static void make_sges(struct rnicp_sge *s, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		s[i].addr = 0x1000000000ull * (i + 1) + tb_rand_below(1u << 20);
		s[i].length = 1 + tb_rand_below(1u << 16);
		s[i].lkey = (uint32_t)tb_rand();
	}
}

static void random_wr(struct rnicp_send_wr *wr, uint32_t opcode, const struct rnicp_sge *s, unsigned n)
{
	memset(wr, 0, sizeof(*wr));
	wr->wr_id = tb_rand();
	wr->opcode = opcode;
	wr->flags = RNICP_WR_SIGNALED | (tb_rand_below(2) ? RNICP_WR_FENCE : 0) | (tb_rand_below(2) ? RNICP_WR_SOLICITED : 0);
	wr->imm_data = (uint32_t)tb_rand();
	wr->sg_list = s;
	wr->num_sge = n;
	wr->remote_addr = tb_rand() & ~7ull;
	wr->rkey = (uint32_t)tb_rand();
	wr->compare_add = tb_rand();
	wr->swap = tb_rand();
	wr->ahn = (uint32_t)tb_rand();
	wr->remote_qpn = tb_rand_below(1u << 24);
	wr->remote_qkey = (uint32_t)tb_rand();
}

static void test_send_layouts(void)
{
	static const uint32_t rc_ops[] = { RNIC_WQE_OP_RDMA_WRITE, RNIC_WQE_OP_RDMA_WRITE_WITH_IMM, RNIC_WQE_OP_SEND,
					   RNIC_WQE_OP_SEND_WITH_IMM, RNIC_WQE_OP_RDMA_READ };
	struct rnicp_sq sq;
	struct rnicp_send_wr wr;
	struct rnicp_sge s[16];
	uint8_t bf[RNICP_MAX_WQE_BYTES];
	char name[96];

	/* Every non-atomic RC opcode with 1..4 SGEs. */
	for (unsigned o = 0; o < 5; o++)
		for (unsigned n = 1; n <= 4; n++) {
			rnicp_sq_init(&sq, ring, 6, 0x1234, RNIC_QP_TYPE_RC, 13, 208);
			sq.pi = sq.ci = 0xFFF0 + n; /* indices near the 16-bit wrap */
			make_sges(s, n);
			random_wr(&wr, rc_ops[o], s, n);
			uint16_t idx = (uint16_t)sq.pi;
			int nbb = rnicp_sq_post(&sq, &wr, bf);
			snprintf(name, sizeof(name), "wqe-rc-op%u-%usge-layout", rc_ops[o], n);
			CHECK(nbb > 0 && check_wqe(&sq, &wr, bf, idx, nbb) &&
				      memcmp(ring + (size_t)(idx & 63) * 64, bf, (size_t)nbb * 64) == 0 &&
				      sq.pi == 0xFFF0u + n + (uint32_t)nbb,
			      name);
		}

	/* Atomics: one 8-byte SGE. */
	for (uint32_t op = RNIC_WQE_OP_ATOMIC_CMP_AND_SWP; op <= RNIC_WQE_OP_ATOMIC_FETCH_AND_ADD; op++) {
		rnicp_sq_init(&sq, ring, 6, 77, RNIC_QP_TYPE_RC, 13, 208);
		make_sges(s, 1);
		s[0].length = 8;
		random_wr(&wr, op, s, 1);
		int nbb = rnicp_sq_post(&sq, &wr, bf);
		snprintf(name, sizeof(name), "wqe-atomic-op%u-layout", op);
		CHECK(nbb == 2 && check_wqe(&sq, &wr, bf, 0, nbb) && rnic_wqe_sge_get_length(bf + 64) == 8, name);
	}

	/* UD sends with 1..4 SGEs. */
	for (uint32_t op = RNIC_WQE_OP_SEND; op <= RNIC_WQE_OP_SEND_WITH_IMM; op++)
		for (unsigned n = 1; n <= 4; n++) {
			rnicp_sq_init(&sq, ring, 6, 0x55, RNIC_QP_TYPE_UD, 13, 208);
			make_sges(s, n);
			random_wr(&wr, op, s, n);
			int nbb = rnicp_sq_post(&sq, &wr, bf);
			snprintf(name, sizeof(name), "wqe-ud-op%u-%usge-layout", op, n);
			CHECK(nbb > 0 && check_wqe(&sq, &wr, bf, 0, nbb), name);
		}

	/* Zero SGEs: a zero-length SEND is legal. */
	rnicp_sq_init(&sq, ring, 6, 1, RNIC_QP_TYPE_RC, 13, 208);
	random_wr(&wr, RNIC_WQE_OP_SEND, NULL, 0);
	CHECK(rnicp_sq_post(&sq, &wr, bf) == 1 && check_wqe(&sq, &wr, bf, 0, 1), "wqe-zero-length-send");

	/* Inline sizes 0/1/15/16/200 for WRITE, SEND (RC) and SEND (UD), split over 2 SGEs. */
	static const unsigned sizes[] = { 0, 1, 15, 16, 200 };
	for (unsigned k = 0; k < 3; k++)
		for (unsigned i = 0; i < 5; i++) {
			uint32_t type = k == 2 ? RNIC_QP_TYPE_UD : RNIC_QP_TYPE_RC;
			uint32_t op = k == 0 ? RNIC_WQE_OP_RDMA_WRITE : RNIC_WQE_OP_SEND;
			for (unsigned b = 0; b < sizeof(data); b++)
				data[b] = (uint8_t)tb_rand();
			rnicp_sq_init(&sq, ring, 6, 9, type, 13, 208);
			memset(ring, 0xEE, sizeof(ring)); /* stale bytes must not leak into padding */
			s[0].addr = (uintptr_t)data;
			s[0].length = sizes[i] / 2;
			s[1].addr = (uintptr_t)(data + 1000);
			s[1].length = sizes[i] - sizes[i] / 2;
			random_wr(&wr, op, s, 2);
			wr.flags |= RNICP_WR_INLINE;
			int nbb = rnicp_sq_post(&sq, &wr, bf);
			snprintf(name, sizeof(name), "wqe-inline-%s-%u-bytes", k == 0 ? "write" : k == 1 ? "send-rc" : "send-ud",
				 sizes[i]);
			CHECK(nbb > 0 && check_wqe(&sq, &wr, bf, 0, nbb) && memcmp(ring, bf, (size_t)nbb * 64) == 0, name);
		}
}

static void test_send_errors(void)
{
	struct rnicp_sq sq;
	struct rnicp_send_wr wr;
	struct rnicp_sge s[16];

	CHECK(rnicp_sq_init(&sq, ring, 16, 1, RNIC_QP_TYPE_RC, 4, 64) == -EINVAL &&
		      rnicp_sq_init(&sq, ring, 4, 1, RNIC_QP_TYPE_RC, 14, 64) == -EINVAL &&
		      rnicp_sq_init(&sq, ring, 4, 1, RNIC_QP_TYPE_RC, 4, 209) == -EINVAL &&
		      rnicp_sq_init(&sq, ring, 4, 1, 1, 4, 64) == -EINVAL && rnicp_sq_init(&sq, NULL, 4, 1, 2, 4, 64) == -EINVAL,
	      "wqe-sq-init-checks");
	rnicp_sq_init(&sq, ring, 4, 1, RNIC_QP_TYPE_RC, 4, 64);
	make_sges(s, 16);
	random_wr(&wr, RNIC_WQE_OP_SEND, s, 5);
	CHECK(rnicp_sq_post(&sq, &wr, NULL) == -EINVAL && sq.pi == 0, "wqe-too-many-sges");
	wr.num_sge = 1;
	s[0].addr = (uintptr_t)data;
	s[0].length = 65;
	wr.flags |= RNICP_WR_INLINE;
	CHECK(rnicp_sq_post(&sq, &wr, NULL) == -EINVAL, "wqe-inline-too-long");
	s[0].length = 8;
	random_wr(&wr, RNIC_WQE_OP_RDMA_READ, s, 1);
	wr.flags |= RNICP_WR_INLINE;
	CHECK(rnicp_sq_post(&sq, &wr, NULL) == -EINVAL, "wqe-inline-read-einval");
	random_wr(&wr, RNIC_WQE_OP_ATOMIC_FETCH_AND_ADD, s, 1);
	wr.remote_addr |= 4;
	CHECK(rnicp_sq_post(&sq, &wr, NULL) == -EINVAL, "wqe-atomic-unaligned");
	wr.remote_addr &= ~7ull;
	s[0].length = 4;
	CHECK(rnicp_sq_post(&sq, &wr, NULL) == -EINVAL, "wqe-atomic-length-not-8");
	s[0].length = 8;
	wr.num_sge = 2;
	CHECK(rnicp_sq_post(&sq, &wr, NULL) == -EINVAL, "wqe-atomic-two-sges");
	wr.num_sge = 1;
	CHECK(rnicp_sq_post(&sq, &wr, NULL) == 2, "wqe-atomic-ok-after-fixes");
	wr.opcode = 7;
	CHECK(rnicp_sq_post(&sq, &wr, NULL) == -EINVAL, "wqe-unknown-opcode");
	wr.opcode = RNIC_WQE_OP_SEND;
	wr.flags = 0x10;
	CHECK(rnicp_sq_post(&sq, &wr, NULL) == -EINVAL, "wqe-unknown-flag");
	rnicp_sq_init(&sq, ring, 4, 1, RNIC_QP_TYPE_UD, 4, 64);
	random_wr(&wr, RNIC_WQE_OP_RDMA_WRITE, s, 1);
	CHECK(rnicp_sq_post(&sq, &wr, NULL) == -EINVAL, "wqe-ud-rdma-write-einval");
	rnicp_sq_init(&sq, ring, 4, 1, RNIC_QP_TYPE_UC, 4, 64);
	random_wr(&wr, RNIC_WQE_OP_RDMA_READ, s, 1);
	CHECK(rnicp_sq_post(&sq, &wr, NULL) == -EINVAL, "wqe-uc-read-einval");
	rnicp_sq_init(&sq, ring, 4, 1, RNIC_QP_TYPE_RC, 4, 64);
	s[0].length = 0x80000000u;
	s[1].length = 1;
	random_wr(&wr, RNIC_WQE_OP_SEND, s, 2);
	CHECK(rnicp_sq_post(&sq, &wr, NULL) == -EINVAL, "wqe-message-over-2g");
}

/* Posts multi-WQEBB WQEs round a small ring, retiring them through completions. */
static void test_send_ring(void)
{
	struct rnicp_sq sq;
	struct rnicp_send_wr wr;
	struct rnicp_sge s[8];
	uint8_t bf[RNICP_MAX_WQE_BYTES];
	uint16_t outstanding[64];
	unsigned head = 0, tail = 0, wrapped = 0;
	int ok = 1;

	memset(ring, 0, sizeof(ring));
	rnicp_sq_init(&sq, ring, 3, 42, RNIC_QP_TYPE_RC, 8, 64); /* 8 WQEBBs */
	/* Fill: 8 SGEs = 160 bytes = 3 WQEBBs; two fit, the third does not. */
	make_sges(s, 8);
	random_wr(&wr, RNIC_WQE_OP_SEND, s, 8);
	ok &= rnicp_sq_post(&sq, &wr, NULL) == 3 && rnicp_sq_post(&sq, &wr, NULL) == 3;
	CHECK(ok && rnicp_sq_room(&sq) == 2 && rnicp_sq_post(&sq, &wr, NULL) == -ENOMEM && sq.pi == 6, "wqe-sq-full-enomem");
	CHECK(rnicp_sq_complete(&sq, 6) == -EINVAL && rnicp_sq_complete(&sq, 1) == -EINVAL, "wqe-sq-complete-bad-index");
	CHECK(rnicp_sq_complete(&sq, 3) == 0 && sq.ci == 6 && rnicp_sq_room(&sq) == 8, "wqe-sq-complete-retires-earlier");

	/* Random sizes round the ring many times; every WQE read back across the wrap. */
	for (int i = 0; i < 400 && ok; i++) {
		unsigned n = tb_rand_below(9);
		make_sges(s, n);
		random_wr(&wr, tb_rand_below(2) ? RNIC_WQE_OP_RDMA_WRITE : RNIC_WQE_OP_SEND, s, n);
		uint32_t pi = sq.pi;
		int nbb = rnicp_sq_post(&sq, &wr, bf);
		if (nbb == -ENOMEM) {
			/* complete one or more of the oldest, signaled at a random one */
			unsigned k = 1 + tb_rand_below(head - tail);
			tail += k;
			ok &= rnicp_sq_complete(&sq, outstanding[(tail - 1) % 64]) == 0;
			continue;
		}
		ok &= nbb > 0;
		for (int b = 0; b < nbb && ok; b++)
			ok &= memcmp(ring + ((pi + (uint32_t)b) & 7) * 64, bf + b * 64, 64) == 0;
		wrapped += ((pi & 7) + (uint32_t)nbb > 8);
		ok &= check_wqe(&sq, &wr, bf, (uint16_t)pi, nbb);
		outstanding[head++ % 64] = (uint16_t)pi;
	}
	CHECK(ok && wrapped > 10, "wqe-ring-wrap-multi-wqebb");
}

static void test_recv(void)
{
	struct rnicp_rq rq;
	struct rnicp_recv_wr wr;
	struct rnicp_sge s[8];
	int ok = 1;

	CHECK(rnicp_rq_log_stride(0) == 5 && rnicp_rq_log_stride(1) == 5 && rnicp_rq_log_stride(3) == 6 &&
		      rnicp_rq_log_stride(4) == 7,
	      "rq-stride");
	CHECK(rnicp_rq_init(&rq, ring, 16, 6, 1) == -EINVAL && rnicp_rq_init(&rq, ring, 3, 4, 1) == -EINVAL, "rq-init-checks");
	rnicp_rq_init(&rq, ring, 3, 6, 9); /* 8 entries of 64 bytes: 3 SGEs */
	CHECK(rq.max_sge == 3, "rq-max-sge-from-stride");
	memset(ring, 0xCC, 8 * 64);
	for (uint32_t i = 0; i < 8; i++) {
		unsigned n = i % 4;
		make_sges(s, n);
		wr.wr_id = 0xABC0 + i;
		wr.sg_list = s;
		wr.num_sge = n;
		ok &= rnicp_rq_post(&rq, &wr) == 0;
		const uint8_t *e = ring + i * 64;
		ok &= rnic_rq_wqe_get_wr_id(e) == 0xABC0 + i && rnic_rq_wqe_get_num_sge(e) == n && zero_from(e, 9, 16);
		for (unsigned k = 0; k < n; k++) {
			const uint8_t *g = e + RNIC_RQ_WQE_SIZE + k * RNIC_WQE_SGE_SIZE;
			ok &= rnic_wqe_sge_get_addr(g) == s[k].addr && rnic_wqe_sge_get_length(g) == s[k].length &&
			      rnic_wqe_sge_get_lkey(g) == s[k].lkey;
		}
		ok &= zero_from(e, RNIC_RQ_WQE_SIZE + n * RNIC_WQE_SGE_SIZE, 64);
	}
	CHECK(ok, "rq-wqe-layout");
	wr.num_sge = 0;
	CHECK(rnicp_rq_post(&rq, &wr) == -ENOMEM && rq.pi == 8, "rq-full-enomem");
	wr.num_sge = 4;
	CHECK(rnicp_rq_post(&rq, &wr) == -EINVAL, "rq-too-many-sges");
	CHECK(rnicp_rq_complete(&rq, 1) == -EINVAL && rnicp_rq_complete(&rq, 0) == 0 && rnicp_rq_complete(&rq, 1) == 0,
	      "rq-complete-in-order");
	wr.num_sge = 1;
	wr.wr_id = 77;
	CHECK(rnicp_rq_post(&rq, &wr) == 0 && rnic_rq_wqe_get_wr_id(ring) == 77 && rq.pi == 9, "rq-wraps");
}

void test_wqe(void)
{
	test_send_layouts();
	test_send_errors();
	test_send_ring();
	test_recv();
}
