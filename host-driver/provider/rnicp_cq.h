/* Completion-queue polling: owner-bit phase per pass over the ring, cqe parsing. */
#ifndef RNICP_CQ_H
#define RNICP_CQ_H

#include <stdint.h>

#define RNICP_CQ_MAX_LOG 16u

struct rnicp_wc {
	uint64_t wr_id;
	uint32_t status;	/* RNIC_WC_STATUS_* (ibv_wc_status) */
	uint32_t opcode;	/* RNIC_WC_OPCODE_* (ibv_wc_opcode) */
	uint32_t vendor_err;
	uint32_t byte_len;
	uint32_t imm_data;	/* network order, as ibv_wc.imm_data */
	uint32_t qpn;
	uint32_t src_qp;
	uint32_t flags;		/* cqe_flag bits */
	uint16_t wqe_index;
};

struct rnicp_cq {
	uint8_t *buf;		/* 2^log_size cqe */
	uint8_t *dbrec;		/* doorbell record: the consumer index, 4 bytes little-endian */
	uint32_t log_size;
	uint32_t ci;		/* free-running consumer index */
	uint32_t cqn;
};

/* 0, or -EINVAL (NULL buf or dbrec, log_size > RNICP_CQ_MAX_LOG). The ring must start zeroed
 * (owner 0): the NIC writes owner 1 on the first pass. dbrec is the CPU view of the doorbell
 * record whose bus address CREATE_CQ was given; it is set to 0 here. */
int rnicp_cq_init(struct rnicp_cq *cq, void *buf, unsigned log_size, uint32_t cqn, void *dbrec);

/* Takes up to max completions whose owner bit matches the current pass, in order, and stops at
 * the first entry the NIC has not written. Returns how many (0..max). The new consumer index
 * goes to the doorbell record, where the NIC looks before it declares the CQ overrun; ringing
 * cq_db (rnicp_cq_db_val) is optional. */
int rnicp_cq_poll(struct rnicp_cq *cq, int max, struct rnicp_wc *wc);

/* The cq_db value for the current consumer index. */
uint32_t rnicp_cq_db_val(const struct rnicp_cq *cq);

/* Nonzero for completions of receive WQEs (RECV, RECV_RDMA_WITH_IMM). */
int rnicp_wc_is_recv(const struct rnicp_wc *wc);

#endif /* RNICP_CQ_H */
