/* Send and receive WQE formatting into the SQ/RQ rings of a QP (userspace data path, no
 * libibverbs dependency). Indices are free-running; the hardware sees their low 16 bits. */
#ifndef RNICP_WQE_H
#define RNICP_WQE_H

#include <stddef.h>
#include <stdint.h>

#include "rnic_spec.h"

#define RNICP_WQEBB RNIC_WQEBB_BYTES	/* send WQE basic block */
#define RNICP_MAX_WQEBBS RNIC_MAX_WQEBBS
#define RNICP_MAX_WQE_BYTES (RNICP_WQEBB * RNICP_MAX_WQEBBS)
#define RNICP_SQ_MAX_LOG 15u		/* 16-bit indices stay unambiguous */
#define RNICP_RQ_MAX_LOG 15u
/* What fits in 4 WQEBBs behind the control segment and one address segment. */
#define RNICP_MAX_SGE ((RNICP_MAX_WQE_BYTES - RNIC_WQE_CTRL_SIZE - RNIC_WQE_RADDR_SIZE) / RNIC_WQE_SGE_SIZE)
#define RNICP_MAX_INLINE (RNICP_MAX_WQE_BYTES - RNIC_WQE_CTRL_SIZE - RNIC_WQE_RADDR_SIZE)

/* Work-request flags: the wqe_flag bits. */
#define RNICP_WR_SIGNALED (1u << RNIC_WQE_FLAG_SIGNALED)
#define RNICP_WR_FENCE (1u << RNIC_WQE_FLAG_FENCE)
#define RNICP_WR_SOLICITED (1u << RNIC_WQE_FLAG_SOLICITED)
#define RNICP_WR_INLINE (1u << RNIC_WQE_FLAG_INLINE)

struct rnicp_sge {
	uint64_t addr;		/* bus/virtual address; for inline sends a pointer to the bytes */
	uint32_t length;
	uint32_t lkey;
};

struct rnicp_send_wr {
	uint64_t wr_id;
	uint32_t opcode;	/* RNIC_WQE_OP_* */
	uint32_t flags;		/* RNICP_WR_* */
	uint32_t imm_data;	/* network order, as ibv_send_wr.imm_data */
	const struct rnicp_sge *sg_list;
	uint32_t num_sge;
	uint64_t remote_addr;	/* RDMA and atomics */
	uint32_t rkey;
	uint64_t compare_add;	/* CAS: compare; FAA: the addend */
	uint64_t swap;		/* CAS: the new value */
	uint32_t ahn, remote_qpn, remote_qkey; /* UD */
};

struct rnicp_sq {
	uint8_t *buf;		/* 2^log_size WQEBBs */
	uint32_t log_size;
	uint32_t pi, ci;	/* free-running, in WQEBBs */
	uint32_t qpn, qp_type;
	uint32_t max_sge, max_inline;
};

struct rnicp_recv_wr {
	uint64_t wr_id;
	const struct rnicp_sge *sg_list;
	uint32_t num_sge;
};

struct rnicp_rq {
	uint8_t *buf;		/* 2^log_size entries of 2^log_stride bytes */
	uint32_t log_size, log_stride;
	uint32_t pi, ci;	/* free-running, in entries */
	uint32_t qpn, max_sge;
};

/* 0, or -EINVAL: log_size > RNICP_SQ_MAX_LOG, max_sge > RNICP_MAX_SGE, max_inline >
 * RNICP_MAX_INLINE, unknown qp_type, NULL buf. */
int rnicp_sq_init(struct rnicp_sq *sq, void *buf, unsigned log_size, uint32_t qpn, uint32_t qp_type,
		  uint32_t max_sge, uint32_t max_inline);

/* WQEBBs a work request needs (1..4), or -EINVAL when it is malformed: unknown opcode, an
 * opcode the QP type does not allow (UD: SEND/SEND_WITH_IMM only), more SGEs than max_sge,
 * inline data longer than max_inline or on READ/atomics, an atomic whose remote address is not
 * 8-byte aligned or whose single SGE is not 8 bytes, a total length over 2^31. */
int rnicp_wqe_size(const struct rnicp_sq *sq, const struct rnicp_send_wr *wr);

/* Formats the WQE for wr at SQ index wqe_index into out (RNICP_MAX_WQE_BYTES, zero-padded to
 * whole WQEBBs): the number of bytes written (64..256) or -EINVAL. */
int rnicp_wqe_format(const struct rnicp_sq *sq, const struct rnicp_send_wr *wr, uint16_t wqe_index,
		     void *out);

/* Writes the WQE into the ring at pi (WQEBBs wrap at the ring end) and advances pi. Returns the
 * WQEBBs used; -EINVAL as above; -ENOMEM when the ring lacks room. bf_copy (NULL or
 * RNICP_MAX_WQE_BYTES) receives the WQE bytes for a BlueFlame write. */
int rnicp_sq_post(struct rnicp_sq *sq, const struct rnicp_send_wr *wr, void *bf_copy);

/* WQEBBs free in the ring. */
uint32_t rnicp_sq_room(const struct rnicp_sq *sq);

/* A send completion for the WQE at wqe_index (cqe.wqe_index): it and every WQE before it are
 * retired (ci moves past it). 0, or -EINVAL if that index is not outstanding. */
int rnicp_sq_complete(struct rnicp_sq *sq, uint16_t wqe_index);

/* log2 of the RQ stride for max_sge SGEs: 16 + 16 * max_sge rounded up to a power of two. */
unsigned rnicp_rq_log_stride(uint32_t max_sge);

/* 0, or -EINVAL: log_size > RNICP_RQ_MAX_LOG, stride below 32 bytes or above 4096, NULL buf. */
int rnicp_rq_init(struct rnicp_rq *rq, void *buf, unsigned log_size, unsigned log_stride, uint32_t qpn);

/* Writes rq_wqe + SGEs at pi (unused SGE space zeroed) and advances pi: 0, -EINVAL (more SGEs
 * than fit the stride, NULL list with num_sge > 0), -ENOMEM when the RQ is full. */
int rnicp_rq_post(struct rnicp_rq *rq, const struct rnicp_recv_wr *wr);

/* A receive completion for the entry at wqe_index: 0 or -EINVAL when it is not the oldest
 * outstanding entry (receives complete in order). */
int rnicp_rq_complete(struct rnicp_rq *rq, uint16_t wqe_index);

#endif /* RNICP_WQE_H */
