/* Typed commands: each fills its spec cmd_* layout, runs it on the command queue and parses
 * the outputs into a plain struct. Every function returns 0 or a negative errno (argument
 * checks -EINVAL, then rnic_cmdq_exec's codes). */
#ifndef RNIC_CMD_H
#define RNIC_CMD_H

#include "rnic_cmdq.h"
#include "rnic_mr.h"

struct rnic_device_attr {
	uint32_t fw_version, max_qp, max_cq, max_mr, max_pd, max_qp_wr, max_cqe;
	uint32_t max_sge, max_inline /* bytes */, max_rd_atomic, page_size_cap, max_mr_size_log2;
	uint32_t num_uctx;
};

struct rnic_port_attr {
	uint32_t state, max_mtu, active_mtu, gid_tbl_len, speed_gbps;
	uint8_t mac[6];
};

struct rnic_reg_mr_in {
	uint32_t pdn;
	uint32_t access;	/* bits of enum access */
	uint64_t iova, length;
	const struct rnic_mtt *mtt;
};

struct rnic_create_cq_in {
	uint32_t uctx, log_size, eqn;
	uint64_t buf_addr;	/* the ring itself (mtt NULL) */
	const struct rnic_mtt *mtt; /* or its page list */
	uint64_t dbrec_addr;	/* the consumer's doorbell record: 4 bytes, 4-aligned */
};

struct rnic_create_qp_in {
	uint32_t uctx, pdn, send_cqn, recv_cqn, qp_type;
	uint32_t sq_log_size, rq_log_size, rq_log_stride;
	uint32_t rq_offset, max_inline /* bytes */, sq_sig_all;
	uint64_t buf_addr;	/* the buffer itself (mtt NULL) */
	const struct rnic_mtt *mtt; /* or its page list */
};

struct rnic_qp_attr {
	uint32_t state, cur_state, path_mtu, timeout, retry_cnt, rnr_retry, min_rnr_timer, access;
	uint32_t dest_qpn, rq_psn, sq_psn, qkey, max_rd_atomic, max_dest_rd_atomic;
	uint32_t sgid_index, hop_limit, traffic_class, dest_ipv4;
	uint8_t dmac[6];
};

struct rnic_create_ah_in {
	uint32_t pdn, dest_ipv4, sgid_index, hop_limit, traffic_class;
	uint8_t dmac[6];
};

/* The IPv4 DSCP/ECN byte of an address vector (QP path or AH): its GRH traffic class, or, when
 * that is 0 and a service level is given, the DSCP class selector of the SL (sl << 5). The port's
 * 802.1Q tag takes its PCP from bits 7:5 of that byte (BAR0 ctrl.vlan), so an SL becomes the PFC
 * priority of the same number. */
static inline uint32_t rnic_av_tclass(uint32_t traffic_class, uint32_t sl)
{
	return traffic_class ? traffic_class : (sl & 7u) << 5;
}

/* MAC <-> the spec's 48-bit field (byte 0 of the address in bits 47:40). */
uint64_t rnic_mac_to_u64(const uint8_t mac[6]);
void rnic_u64_to_mac(uint64_t v, uint8_t mac[6]);

int rnic_cmd_nop(struct rnic_cmdq *q);
int rnic_cmd_query_device(struct rnic_cmdq *q, struct rnic_device_attr *out);
int rnic_cmd_query_port(struct rnic_cmdq *q, struct rnic_port_attr *out);
int rnic_cmd_set_gid(struct rnic_cmdq *q, uint32_t index, uint32_t ipv4, const uint8_t mac[6]);
int rnic_cmd_alloc_pd(struct rnic_cmdq *q, uint32_t uctx, uint32_t *pdn);
int rnic_cmd_dealloc_pd(struct rnic_cmdq *q, uint32_t pdn);
int rnic_cmd_alloc_uctx(struct rnic_cmdq *q, uint32_t *uctx);
int rnic_cmd_dealloc_uctx(struct rnic_cmdq *q, uint32_t uctx);
int rnic_cmd_reg_mr(struct rnic_cmdq *q, const struct rnic_reg_mr_in *in, uint32_t *lkey,
		    uint32_t *rkey);
int rnic_cmd_dereg_mr(struct rnic_cmdq *q, uint32_t lkey);
int rnic_cmd_create_cq(struct rnic_cmdq *q, const struct rnic_create_cq_in *in, uint32_t *cqn);
int rnic_cmd_destroy_cq(struct rnic_cmdq *q, uint32_t cqn);
int rnic_cmd_create_qp(struct rnic_cmdq *q, const struct rnic_create_qp_in *in, uint32_t *qpn);
/* attr_mask: bits of enum qp_attr selecting the fields of attr that are applied. */
int rnic_cmd_modify_qp(struct rnic_cmdq *q, uint32_t qpn, uint32_t attr_mask,
		       const struct rnic_qp_attr *attr);
int rnic_cmd_query_qp(struct rnic_cmdq *q, uint32_t qpn, struct rnic_qp_attr *out);
int rnic_cmd_destroy_qp(struct rnic_cmdq *q, uint32_t qpn);
int rnic_cmd_create_ah(struct rnic_cmdq *q, const struct rnic_create_ah_in *in, uint32_t *ahn);
int rnic_cmd_destroy_ah(struct rnic_cmdq *q, uint32_t ahn);

#endif /* RNIC_CMD_H */
