/* Doorbell values and the BlueFlame copy. */
#include <errno.h>

#include "rnic_spec.h"
#include "rnicp_db.h"


static void store_fence(void)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

static uint32_t db_val(uint32_t num, uint32_t idx)
{
	uint8_t w[RNIC_DB_WORD_SIZE] = { 0 };

	rnic_db_word_set_num(w, num);
	rnic_db_word_set_index(w, idx);
	return (uint32_t)rnic_ld_le(w, RNIC_DB_WORD_SIZE);
}

uint32_t rnicp_db_sq_val(uint32_t qpn, uint32_t sq_pi)
{
	return db_val(qpn, sq_pi);
}

uint32_t rnicp_db_rq_val(uint32_t qpn, uint32_t rq_pi)
{
	return db_val(qpn, rq_pi);
}

uint32_t rnicp_db_cq_val(uint32_t cqn, uint32_t cq_ci)
{
	return db_val(cqn, cq_ci);
}

uint32_t rnicp_db_cq_arm_val(uint32_t cqn, int solicited_only)
{
	uint8_t w[RNIC_DB_CQ_ARM_SIZE] = { 0 };

	rnic_db_cq_arm_set_cqn(w, cqn);
	rnic_db_cq_arm_set_solicited(w, solicited_only ? 1 : 0);
	return (uint32_t)rnic_ld_le(w, RNIC_DB_CQ_ARM_SIZE);
}

uint32_t rnicp_db_bf_val(uint32_t qpn, uint32_t sq_pi)
{
	return db_val(qpn, sq_pi);
}

void rnicp_ring_sq(const struct rnicp_db *db, uint32_t qpn, uint32_t sq_pi)
{
	store_fence();
	db->write32(db->ctx, RNIC_DB_SQ_DB, rnicp_db_sq_val(qpn, sq_pi));
}

void rnicp_ring_rq(const struct rnicp_db *db, uint32_t qpn, uint32_t rq_pi)
{
	store_fence();
	db->write32(db->ctx, RNIC_DB_RQ_DB, rnicp_db_rq_val(qpn, rq_pi));
}

void rnicp_ring_cq(const struct rnicp_db *db, uint32_t cqn, uint32_t cq_ci)
{
	store_fence();
	db->write32(db->ctx, RNIC_DB_CQ_DB, rnicp_db_cq_val(cqn, cq_ci));
}

void rnicp_arm_cq(const struct rnicp_db *db, uint32_t cqn, int solicited_only)
{
	store_fence();
	db->write32(db->ctx, RNIC_DB_CQ_ARM, rnicp_db_cq_arm_val(cqn, solicited_only));
}

int rnicp_bf_post(const struct rnicp_db *db, const void *wqe, unsigned bytes, uint32_t qpn,
		  uint32_t sq_pi)
{
	const uint8_t *w = wqe;

	if (!wqe || bytes == 0 || bytes % 64u || bytes > RNIC_DB_BF_DATA_BYTES)
		return -EINVAL;
	if (!db->write_bf && !db->write64)
		return -EOPNOTSUPP;
	store_fence();
	if (db->write_bf) {
		db->write_bf(db->ctx, wqe, bytes, rnicp_db_bf_val(qpn, sq_pi));
		return 0;
	}
	/* one write-combined block per WQEBB, each a single beat at the device; the fence between
	 * the last block and bf_db keeps a CPU from reordering the doorbell ahead of the data */
	for (unsigned i = 0; i < bytes; i += 64)
		db->write64(db->ctx, RNIC_DB_BF_DATA + i, w + i);
	store_fence();
	db->write32(db->ctx, RNIC_DB_BF_DB, rnicp_db_bf_val(qpn, sq_pi));
	return 0;
}
