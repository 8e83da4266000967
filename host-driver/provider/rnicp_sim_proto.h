/* The simulator service's socket protocol: what a process attached to `rnic-sim run` (the
 * provider's simulator backend, the board tool) says to the simulated NICs.
 *
 * Transport: a Unix SOCK_SEQPACKET socket at $RNIC_SIM_SOCK; one connection is one client
 * (a device context of the provider, or a board-tool session). Every message starts with
 * struct rnic_svc_hdr. Requests with RNIC_SVC_F_REPLY get exactly one reply (same op and seq,
 * rc = 0 or a negative errno, then the op's output struct); the others (doorbells) get none.
 * Messages of one connection are executed in the order they were sent, in simulated time.
 * The service learns the client's pid from SO_PEERCRED and reaches its memory with
 * process_vm_readv/writev; the device can reach only ranges the client registered on this
 * connection (rings, doorbell records, MRs): any other DMA address answers an error.
 * A connection that closes (the process exited or died) has every resource it created
 * destroyed by the service. Layout: host byte order, both ends are on one machine. */
#ifndef RNICP_SIM_PROTO_H
#define RNICP_SIM_PROTO_H

#include <stdint.h>

#include "rnic_cmd.h"

#define RNIC_SVC_VERSION 1u
#define RNIC_SVC_ENV "RNIC_SIM_SOCK"
#define RNIC_SVC_MAX_MSG 512u
#define RNIC_SVC_F_REPLY 1u

enum rnic_svc_op {
	RNIC_SVC_HELLO = 1,	/* in: svc_hello; out: svc_hello_out. First message, always */
	RNIC_SVC_QUERY_DEVICE,	/* out: rnic_device_attr (rnic_cmd.h) */
	RNIC_SVC_QUERY_PORT,	/* in: svc_u32 (port); out: rnic_port_attr */
	RNIC_SVC_ALLOC_PD,	/* out: svc_u32 (pdn) */
	RNIC_SVC_DEALLOC_PD,	/* in: svc_u32 */
	RNIC_SVC_REG_MR,	/* in: svc_reg_mr; out: svc_reg_mr_out */
	RNIC_SVC_DEREG_MR,	/* in: svc_u32 (lkey) */
	RNIC_SVC_CREATE_CQ,	/* in: svc_create_cq; out: svc_u32 (cqn) */
	RNIC_SVC_DESTROY_CQ,	/* in: svc_u32 */
	RNIC_SVC_CREATE_QP,	/* in: svc_create_qp; out: svc_u32 (qpn) */
	RNIC_SVC_MODIFY_QP,	/* in: svc_modify_qp (dmac resolved by the service) */
	RNIC_SVC_QUERY_QP,	/* in: svc_u32; out: rnic_qp_attr */
	RNIC_SVC_DESTROY_QP,	/* in: svc_u32 */
	RNIC_SVC_CREATE_AH,	/* in: rnic_create_ah_in (dmac resolved by the service, mtt unused); out: svc_u32 */
	RNIC_SVC_DESTROY_AH,	/* in: svc_u32 */
	RNIC_SVC_DB,		/* in: svc_db. No reply */
	RNIC_SVC_BF,		/* in: svc_bf. No reply */
	RNIC_SVC_BAR_READ,	/* in: svc_bar (off); out: svc_bar (val, AXI resp). Board tool */
	RNIC_SVC_BAR_WRITE,	/* in: svc_bar; out: svc_bar (resp). Board tool */
	RNIC_SVC_SYNC,		/* no input; replies once every earlier message took effect */
	RNIC_SVC_NUM_OPS
};

enum rnic_svc_kind {
	RNIC_SVC_KIND_VERBS = 0,	/* a device context: gets a user context (doorbell page) */
	RNIC_SVC_KIND_BAR = 1,		/* raw BAR0 access (board tool), no user context */
	/* The asynchronous events of the verbs connection whose user context hello.uctx names (same
	 * process, same device). After the HELLO reply the service sends on this connection only
	 * bare 16-byte struct ib_uverbs_async_event_desc messages (element = the object's
	 * user_handle, event_type = enum ibv_event_type), so it can serve as a context's async_fd. */
	RNIC_SVC_KIND_EVENTS = 2,
};

struct rnic_svc_hdr {
	uint32_t op, seq, flags;
	int32_t rc;		/* replies */
};

struct rnic_svc_u32 {
	uint32_t v;
};

struct rnic_svc_hello {
	uint32_t version;	/* RNIC_SVC_VERSION */
	uint32_t kind;		/* rnic_svc_kind */
	char ibdev[64];		/* "rnic0", ... */
	uint32_t uctx;		/* RNIC_SVC_KIND_EVENTS: whose events */
};

struct rnic_svc_hello_out {
	uint32_t version, uctx, nic, num_nics;
};

struct rnic_svc_reg_mr {
	uint32_t pdn, access;
	uint64_t addr, len, iova;	/* addr: virtual address in the client */
};

struct rnic_svc_reg_mr_out {
	uint32_t lkey, rkey;
};

struct rnic_svc_create_cq {
	uint32_t log_size, pad;
	uint64_t ring, dbrec, user_handle;
};

struct rnic_svc_create_qp {
	uint32_t pdn, send_cqn, recv_cqn, qp_type;
	uint32_t sq_log_size, rq_log_size, rq_log_stride, max_inline, sq_sig_all, rq_offset;
	uint64_t buf, buf_len, user_handle;
};

struct rnic_svc_modify_qp {
	uint32_t qpn, attr_mask;
	struct rnic_qp_attr attr;
};

struct rnic_svc_db {
	uint32_t off, val;	/* doorbell page offset, 32-bit value */
};

struct rnic_svc_bf {
	uint32_t bytes, db_val;
	uint8_t wqe[256];
};

struct rnic_svc_bar {
	uint32_t off, val, resp;
};

#endif /* RNICP_SIM_PROTO_H */
