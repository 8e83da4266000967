/* The provider's control path behind one interface: the verbs layer (rnicp_verbs_*.c) calls
 * these for everything that needs the device's command queue or the doorbell page, and one of
 * two backends serves them:
 *   - the simulator service (rnicp_be_sim.c): a Unix socket to `rnic-sim run` (RNIC_SIM_SOCK);
 *   - the kernel (rnicp_be_kernel.c): uverbs commands to host-driver/linux (so far the context
 *     and the queries; the other ops say they are missing).
 * Memory the device reads or writes (rings, doorbell records, registered buffers) is ordinary
 * process memory given by its virtual address; the backend makes it reachable for the device
 * (the simulator through process_vm_readv/writev, the kernel by pinning it).
 * Every int function returns 0 or a negative errno. */
#ifndef RNICP_BACKEND_H
#define RNICP_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "rnic_cmd.h"

struct rnicp_be;		/* one per opened device context */
struct verbs_context;

struct rnicp_be_qp_in {
	uint32_t pdn, send_cqn, recv_cqn, qp_type; /* RNIC_QP_TYPE_* */
	uint32_t sq_log_size, rq_log_size, rq_log_stride, max_inline, sq_sig_all;
	void *buf;			/* SQ ring at 0, RQ ring at rq_offset; page-aligned */
	size_t buf_len;
	uint32_t rq_offset;
	uint64_t user_handle;		/* echoed in asynchronous events (struct ibv_qp *) */
};

struct rnicp_be_ops {
	const char *name;
	/* Opens device ibdev (the sysfs name, e.g. "rnic0") for a new user context. */
	int (*open)(const char *ibdev, struct rnicp_be **out);
	/* Instead of open when set: a backend that talks through the context's cmd_fd (the
	 * kernel's uverbs; it also sets the context's async_fd). */
	int (*open_ctx)(struct verbs_context *vctx, const char *ibdev, struct rnicp_be **out);
	void (*close)(struct rnicp_be *be);
	/* The user context (its doorbell page) and an fd that becomes readable when an
	 * asynchronous event (struct ib_uverbs_async_event_desc) is queued, or -1. */
	uint32_t (*uctx)(struct rnicp_be *be);
	int (*event_fd)(struct rnicp_be *be);

	int (*query_device)(struct rnicp_be *be, struct rnic_device_attr *out);
	int (*query_port)(struct rnicp_be *be, uint32_t port, struct rnic_port_attr *out);
	int (*alloc_pd)(struct rnicp_be *be, uint32_t *pdn);
	int (*dealloc_pd)(struct rnicp_be *be, uint32_t pdn);
	/* [addr, addr + len) of this process, seen by the device at iova; access: enum access bits. */
	int (*reg_mr)(struct rnicp_be *be, uint32_t pdn, void *addr, uint64_t len, uint64_t iova,
		      uint32_t access, uint32_t *lkey, uint32_t *rkey);
	int (*dereg_mr)(struct rnicp_be *be, uint32_t lkey);
	/* ring: 2^log_size cqe, zeroed, page-aligned; dbrec: 4 bytes, 4-aligned. user_handle is
	 * the application's struct ibv_cq, channel its struct ibv_comp_channel or NULL: the
	 * kernel's completion events name the one and arrive on the other. */
	int (*create_cq)(struct rnicp_be *be, uint32_t log_size, void *ring, void *dbrec,
			 uint64_t user_handle, void *channel, uint32_t *cqn);
	int (*destroy_cq)(struct rnicp_be *be, uint32_t cqn);
	int (*create_qp)(struct rnicp_be *be, const struct rnicp_be_qp_in *in, uint32_t *qpn);
	/* attr_mask: enum qp_attr bits. With RNIC_QP_ATTR_AV, attr->dest_ipv4 is set by the caller
	 * (from the IPv4-mapped destination GID) and the backend resolves attr->dmac itself. */
	int (*modify_qp)(struct rnicp_be *be, uint32_t qpn, uint32_t attr_mask,
			 const struct rnic_qp_attr *attr);
	int (*query_qp)(struct rnicp_be *be, uint32_t qpn, struct rnic_qp_attr *out);
	int (*destroy_qp)(struct rnicp_be *be, uint32_t qpn);
	/* in->dest_ipv4 set by the caller; the backend resolves in->dmac. */
	int (*create_ah)(struct rnicp_be *be, const struct rnic_create_ah_in *in, uint32_t *ahn);
	int (*destroy_ah)(struct rnicp_be *be, uint32_t ahn);

	/* Data path: stores to this context's doorbell page, reaching the device in program order. */
	void (*db_write32)(struct rnicp_be *be, uint32_t off, uint32_t val);
	/* Optional: one 64-byte store at off (64-byte aligned) of the doorbell page. */
	void (*db_write64)(struct rnicp_be *be, uint32_t off, const void *src);
	/* Optional: BlueFlame: bytes (64..256, a multiple of 64) to bf_data, then bf_db_val to bf_db. */
	void (*bf_write)(struct rnicp_be *be, const void *wqe, unsigned bytes, uint32_t bf_db_val);
};

extern const struct rnicp_be_ops rnicp_be_sim_ops;
extern const struct rnicp_be_ops rnicp_be_kernel_ops;

/* The backend this process uses: the simulator's when RNIC_SIM_SOCK is set, else the kernel's. */
const struct rnicp_be_ops *rnicp_be_select(void);

#endif /* RNICP_BACKEND_H */
