/* Doorbell values of the per-context doorbell page and the BlueFlame copy, written through an
 * MMIO callback (the mapped page on a machine, the simulator's shared page otherwise). */
#ifndef RNICP_DB_H
#define RNICP_DB_H

#include <stdint.h>

struct rnicp_db {
	void *ctx;
	/* 32-bit store at byte offset off of this context's doorbell page */
	void (*write32)(void *ctx, uint32_t off, uint32_t val);
	/* Optional: the whole BlueFlame post (WQE to bf_data, then bf_db) as one transfer, for a
	 * doorbell path that carries a block in one write (the simulator's socket, a wide BAR). */
	void (*write_bf)(void *ctx, const void *wqe, unsigned bytes, uint32_t bf_db_val);
};

/* The 32-bit values: number in bits 15:0, index in bits 31:16 (free-running indices are
 * truncated to their low 16 bits). */
uint32_t rnicp_db_sq_val(uint32_t qpn, uint32_t sq_pi);
uint32_t rnicp_db_rq_val(uint32_t qpn, uint32_t rq_pi);
uint32_t rnicp_db_cq_val(uint32_t cqn, uint32_t cq_ci);
uint32_t rnicp_db_cq_arm_val(uint32_t cqn, int solicited_only);
uint32_t rnicp_db_bf_val(uint32_t qpn, uint32_t sq_pi);

/* Each issues a store fence (the WQE/CQ memory is visible first), then the doorbell write. */
void rnicp_ring_sq(const struct rnicp_db *db, uint32_t qpn, uint32_t sq_pi);
void rnicp_ring_rq(const struct rnicp_db *db, uint32_t qpn, uint32_t rq_pi);
void rnicp_ring_cq(const struct rnicp_db *db, uint32_t cqn, uint32_t cq_ci);
void rnicp_arm_cq(const struct rnicp_db *db, uint32_t cqn, int solicited_only);

/* BlueFlame: the WQE (already in the SQ ring too, bytes a multiple of 64 up to the size of
 * bf_data) is copied to bf_data in ascending 32-bit stores, then bf_db is written with the new
 * producer index sq_pi (the index after this WQE). 0 or -EINVAL. */
int rnicp_bf_post(const struct rnicp_db *db, const void *wqe, unsigned bytes, uint32_t qpn,
		  uint32_t sq_pi);

#endif /* RNICP_DB_H */
