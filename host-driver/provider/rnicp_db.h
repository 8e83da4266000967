/* Doorbell values of the per-context doorbell page and the BlueFlame copy, written through MMIO
 * callbacks: on a machine the context's page of the doorbell BAR (spec db_bar: its own PCIe BAR,
 * mapped write-combined), in the simulator the service's socket. */
#ifndef RNICP_DB_H
#define RNICP_DB_H

#include <stdint.h>

struct rnicp_db {
	void *ctx;
	/* 32-bit store at byte offset off of this context's doorbell page */
	void (*write32)(void *ctx, uint32_t off, uint32_t val);
	/* One 64-byte store (a whole write-combined block, one beat on the device's 512-bit
	 * doorbell port) of src at byte offset off (64-byte aligned) of the page. */
	void (*write64)(void *ctx, uint32_t off, const void *src);
	/* Optional, taking precedence: the whole BlueFlame post (WQE to bf_data, then bf_db) as one
	 * message, for a doorbell path that carries it in one transfer (the simulator's socket). */
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
 * bf_data) is copied to bf_data as one 64-byte store per WQEBB in ascending order, then bf_db is
 * written with the new producer index sq_pi (the index after this WQE). 0, -EINVAL (size), or
 * -EOPNOTSUPP (neither write_bf nor write64: the caller rings sq_db instead). */
int rnicp_bf_post(const struct rnicp_db *db, const void *wqe, unsigned bytes, uint32_t qpn,
		  uint32_t sq_pi);

#endif /* RNICP_DB_H */
