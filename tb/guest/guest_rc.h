/* What kmod_events (in the guest) and solicit_peer (on the host side) share: ibv_rc_pingpong's
 * out-of-band message ("LID:QPN:PSN:GID", GID as 32 hex digits of its bytes) and an RC QP's
 * INIT->RTR->RTS with the peer's numbers, as pingpong does it. */
#ifndef GUEST_RC_H
#define GUEST_RC_H

#include <stdio.h>
#include <string.h>

#include <infiniband/verbs.h>

#define PP_MSG_LEN 52	/* sizeof "0000:000000:000000:" + 32 hex digits + NUL, as pingpong */

static inline void pp_msg_make(char msg[PP_MSG_LEN], uint32_t qpn, uint32_t psn, const union ibv_gid *gid)
{
	char hex[33];

	for (int i = 0; i < 16; i++)
		sprintf(hex + 2 * i, "%02x", gid->raw[i]);
	snprintf(msg, PP_MSG_LEN, "%04x:%06x:%06x:%s", 0u, qpn, psn, hex);
}

/* 0, or -1 when msg is not pingpong's. */
static inline int pp_msg_parse(char msg[PP_MSG_LEN], uint32_t *qpn, uint32_t *psn, union ibv_gid *gid)
{
	char hex[33];
	unsigned lid, q, p;

	msg[PP_MSG_LEN - 1] = 0;
	if (sscanf(msg, "%x:%x:%x:%32s", &lid, &q, &p, hex) != 4 || strlen(hex) != 32)
		return -1;
	for (int i = 0; i < 16; i++) {
		unsigned b;

		sscanf(hex + 2 * i, "%2x", &b);
		gid->raw[i] = (uint8_t)b;
	}
	*qpn = q;
	*psn = p;
	return 0;
}

/* RTR to the peer (rqpn, rpsn, rgid through our GID gidx), then RTS sending from psn. */
static inline int rc_rtr_rts(struct ibv_qp *qp, uint32_t rqpn, uint32_t rpsn, const union ibv_gid *rgid,
			     int gidx, uint32_t psn)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_RTR, .path_mtu = IBV_MTU_1024, .dest_qp_num = rqpn,
				 .rq_psn = rpsn, .max_dest_rd_atomic = 1, .min_rnr_timer = 12 };

	a.ah_attr.is_global = 1;
	a.ah_attr.grh.dgid = *rgid;
	a.ah_attr.grh.sgid_index = (uint8_t)gidx;
	a.ah_attr.grh.hop_limit = 1;
	a.ah_attr.port_num = 1;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
			  IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
		return -1;
	memset(&a, 0, sizeof a);
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.sq_psn = psn;
	a.max_rd_atomic = 1;
	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			     IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
}

#endif
