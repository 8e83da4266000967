/* Provider verbs-layer tests: result lines, the mock backend that records what the verbs layer
 * asks of the control path and every doorbell, and a context built on it. */
#ifndef TB_PROV_H
#define TB_PROV_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "rnicp_verbs.h"

/* The expected WQE in buf (size bytes, zeroed): its control segment filled; returns where the
 * segments after it start. The rest stays zero up to whole WQEBBs, as the provider leaves it. */
static inline uint8_t *tb_exp_ctrl(uint8_t *buf, size_t size, uint64_t wr_id, uint32_t op, uint32_t flags,
				   uint32_t idx, uint32_t imm, uint32_t num_ds, uint32_t num_sge, uint32_t inl,
				   uint32_t qpn, uint32_t total)
{
	memset(buf, 0, size);
	rnic_wqe_ctrl_set_wr_id(buf, wr_id);
	rnic_wqe_ctrl_set_opcode(buf, op);
	rnic_wqe_ctrl_set_flags(buf, flags);
	rnic_wqe_ctrl_set_wqe_index(buf, idx);
	rnic_wqe_ctrl_set_imm_data(buf, imm);
	rnic_wqe_ctrl_set_num_ds(buf, num_ds);
	rnic_wqe_ctrl_set_num_sge(buf, num_sge);
	rnic_wqe_ctrl_set_inline_len(buf, inl);
	rnic_wqe_ctrl_set_qpn(buf, qpn);
	rnic_wqe_ctrl_set_total_len(buf, total);
	return buf + RNIC_WQE_CTRL_SIZE;
}

extern int tb_failed;
extern unsigned tb_checks;

/* One result line: "PASS name" or "FAIL name why". */
void tb_check(int ok, const char *name, const char *fmt, ...);
#define CHECK(cond, name) tb_check(!!(cond), name, "%s (%s:%d)", #cond, __FILE__, __LINE__)

#define MOCK_MAX_DB 4096
#define MOCK_MAX_BF 64

enum mock_op {
	M_OPEN, M_QUERY_DEVICE, M_QUERY_PORT, M_ALLOC_PD, M_DEALLOC_PD, M_REG_MR, M_DEREG_MR,
	M_CREATE_CQ, M_DESTROY_CQ, M_CREATE_QP, M_MODIFY_QP, M_QUERY_QP, M_DESTROY_QP, M_CREATE_AH,
	M_DESTROY_AH, M_NUM_OPS
};

struct mock_be {
	struct rnic_device_attr dattr;
	struct rnic_port_attr pattr;
	int fail[M_NUM_OPS];		/* a negative errno the op returns (0: succeeds) */
	unsigned calls[M_NUM_OPS];
	char ibdev[64];
	uint32_t next_id;		/* PD, CQ, QP, AH numbers and keys handed out */
	/* the last arguments of each op */
	uint32_t pdn, access, cq_log, modify_mask, destroyed;
	void *mr_addr, *cq_ring, *cq_dbrec;
	uint64_t mr_len, mr_iova;
	struct rnicp_be_qp_in qp_in;
	struct rnic_qp_attr modify_attr, query_out;
	struct rnic_create_ah_in ah_in;
	/* data path: every doorbell-page store and BlueFlame post, in order */
	unsigned ndb;
	uint32_t db_off[MOCK_MAX_DB], db_val[MOCK_MAX_DB];
	/* 64-byte stores (db_write64), also counted in ndb with db_val = their first word */
	unsigned n64;
	uint8_t db64[MOCK_MAX_BF][64];
	unsigned nbf;
	struct {
		uint8_t wqe[256];
		unsigned bytes;
		uint32_t db_val;
	} bf[MOCK_MAX_BF];
	int closed;
	/* called on every doorbell-page store and BlueFlame post (bf: bf_db's value as off 0x10) */
	void (*on_db)(uint32_t off, uint32_t val);
};

extern struct mock_be mock;
extern const struct rnicp_be_ops mock_be_ops;

/* Resets the mock to a device like the simulated one (RNIC_MAX_SGE SGEs, 128 B inline,
 * 16 READs, port ACTIVE at 1024 of 4096, 2 GIDs). */
void mock_reset(void);
/* A context on the mock backend (calloc'ed; rnicp_ctx_init), or NULL. */
struct rnicp_context *tb_ctx_new(void);
void tb_ctx_free(struct rnicp_context *ctx);

/* The provider's rnicp_be_select, built under this name (block.mk): the test binary's own
 * rnicp_be_select hands alloc_context tb_backend (the mock unless a test changes it). */
const struct rnicp_be_ops *tb_real_be_select(void);
extern const struct rnicp_be_ops *tb_backend;

void test_reg(void);
void test_dev(void);
void test_qp(void);
void test_post(void);
void test_cq(void);
void test_mt(void);
void test_ex(void);

#endif /* TB_PROV_H */
