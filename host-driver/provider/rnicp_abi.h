/* The private provider ABI of libibverbs from rdma-core 44.0 (symbol version IBVERBS_PRIVATE_34,
 * provider file suffix -rdmav34.so), declared by this project.
 *
 * Why our own declaration: Debian ships only the public <infiniband/verbs.h>; the private
 * header (libibverbs/driver.h) needs rdma-core's build tree. The name "34" stayed the same from
 * rdma-core 34 to 56 while these structs changed underneath it (v35 and v36 moved members and
 * added ops), so nothing at load time would catch a mismatch: every size and offset the
 * provider relies on is checked below against the x86_64 layout of 44.0
 * (docs: ../shared/reference/rdma-core-44-provider-abi.md, sections 2 and 4), and mk/provider.mk
 * refuses to build unless the installed libibverbs is 1.14.44.0 and exports
 * verbs_register_driver_34@@IBVERBS_PRIVATE_34.
 *
 * Only what libibverbs and the provider exchange is declared; libibverbs owns the lists
 * (the list_node members) and the reference counts, the provider never touches them. */
#ifndef RNICP_ABI_H
#define RNICP_ABI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include <infiniband/verbs.h>
#include <rdma/ib_user_verbs.h>

#if !defined(__x86_64__) || !defined(__LP64__)
#error "rnicp_abi.h states the x86_64 (LP64) layout of rdma-core 44.0 only"
#endif

/* A doubly linked list link as libibverbs embeds it (two pointers). */
struct rnicp_abi_list_node {
	void *next, *prev;
};

/* ---- device matching ------------------------------------------------------------------- */

enum {
	VERBS_MATCH_SENTINEL = 0,	/* ends a table (all zero) */
	VERBS_MATCH_PCI = 1,		/* vendor/device against device/modalias */
	VERBS_MATCH_MODALIAS = 2,	/* fnmatch pattern against modalias or "rdma_device:N<name>" */
	VERBS_MATCH_DRIVER_ID = 3,	/* the kernel driver's enum rdma_driver_id */
};

struct verbs_match_ent {
	void *driver_data;
	union {
		const char *modalias;
		uint64_t driver_id;
	} u;
	uint16_t vendor;
	uint16_t device;
	uint8_t kind;
};

/* What libibverbs found in sysfs (or netlink) for one device; read-only for the provider. */
struct verbs_sysfs_dev {
	struct rnicp_abi_list_node entry;
	void *provider_data;
	const struct verbs_match_ent *match;	/* the table entry that matched */
	unsigned int flags;
	char sysfs_name[IBV_SYSFS_NAME_MAX];	/* "uverbs0" */
	dev_t sysfs_cdev;
	char ibdev_name[IBV_SYSFS_NAME_MAX];	/* "rnic0" */
	char ibdev_path[IBV_SYSFS_PATH_MAX];
	char modalias[512];
	uint64_t node_guid;
	uint32_t driver_id;
	enum ibv_node_type node_type;
	int ibdev_idx;
	uint32_t num_ports;
	uint32_t abi_ver;			/* compared with match_min/max_abi_version */
	struct timespec time_created;
};

struct verbs_device;
struct verbs_context;

/* The provider's static description, given to verbs_register_driver_34(). */
struct verbs_device_ops {
	const char *name;
	uint32_t match_min_abi_version;
	uint32_t match_max_abi_version;
	const struct verbs_match_ent *match_table;
	const struct verbs_device_ops **static_providers;	/* static builds only */
	bool (*match_device)(struct verbs_sysfs_dev *sysfs_dev);	/* optional: decides alone */
	struct verbs_context *(*alloc_context)(struct ibv_device *device, int cmd_fd,
					       void *private_data);
	struct verbs_context *(*import_context)(struct ibv_device *device, int cmd_fd);
	/* zeroed memory whose first member is struct verbs_device */
	struct verbs_device *(*alloc_device)(struct verbs_sysfs_dev *sysfs_dev);
	void (*uninit_device)(struct verbs_device *device);
};

/* First member of the provider's device; libibverbs fills everything after alloc_device. */
struct verbs_device {
	struct ibv_device device;		/* must be first */
	const struct verbs_device_ops *ops;
	_Atomic int refcount;
	struct rnicp_abi_list_node entry;
	struct verbs_sysfs_dev *sysfs;
	uint64_t core_support;			/* IB_UVERBS_CORE_SUPPORT_* from the kernel */
};

/* ---- objects the provider embeds ----------------------------------------------------- */

enum ibv_mr_type {
	IBV_MR_TYPE_MR,
	IBV_MR_TYPE_NULL_MR,
	IBV_MR_TYPE_IMPORTED_MR,
	IBV_MR_TYPE_DMABUF_MR,
};

struct verbs_mr {
	struct ibv_mr ibv_mr;			/* reg_mr returns &ibv_mr */
	enum ibv_mr_type mr_type;
	int access;
};

enum {
	VERBS_QP_XRCD = 1 << 0,
	VERBS_QP_EX = 1 << 1,			/* ibv_qp_to_qp_ex() works: the wr_* ops are set */
};

struct verbs_xrcd;

struct verbs_qp {
	union {
		struct ibv_qp qp;
		struct ibv_qp_ex qp_ex;
	};
	uint32_t comp_mask;			/* VERBS_QP_* */
	struct verbs_xrcd *xrcd;
};

struct verbs_cq {
	union {
		struct ibv_cq cq;
		struct ibv_cq_ex cq_ex;
	};
};

/* ---- the provider's operations --------------------------------------------------------
 * Every op libibverbs 44 can dispatch, sorted by name (libibverbs keeps them sorted and
 * copies each non-NULL one by name, so the order is the ABI). An op left NULL keeps the
 * library's default: EOPNOTSUPP (returned, or in errno with a NULL result). */
struct verbs_context_ops {
	int (*advise_mr)(struct ibv_pd *pd, enum ibv_advise_mr_advice advice, uint32_t flags,
			 struct ibv_sge *sg_list, uint32_t num_sges);
	struct ibv_dm *(*alloc_dm)(struct ibv_context *context, struct ibv_alloc_dm_attr *attr);
	struct ibv_mw *(*alloc_mw)(struct ibv_pd *pd, enum ibv_mw_type type);
	struct ibv_mr *(*alloc_null_mr)(struct ibv_pd *pd);
	struct ibv_pd *(*alloc_parent_domain)(struct ibv_context *context,
					      struct ibv_parent_domain_init_attr *attr);
	struct ibv_pd *(*alloc_pd)(struct ibv_context *context);
	struct ibv_td *(*alloc_td)(struct ibv_context *context, struct ibv_td_init_attr *init_attr);
	void (*async_event)(struct ibv_context *context, struct ibv_async_event *event);
	int (*attach_counters_point_flow)(struct ibv_counters *counters,
					  struct ibv_counter_attach_attr *attr, struct ibv_flow *flow);
	int (*attach_mcast)(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid);
	int (*bind_mw)(struct ibv_qp *qp, struct ibv_mw *mw, struct ibv_mw_bind *mw_bind);
	int (*close_xrcd)(struct ibv_xrcd *xrcd);
	void (*cq_event)(struct ibv_cq *cq);
	struct ibv_ah *(*create_ah)(struct ibv_pd *pd, struct ibv_ah_attr *attr);
	struct ibv_counters *(*create_counters)(struct ibv_context *context,
						struct ibv_counters_init_attr *init_attr);
	struct ibv_cq *(*create_cq)(struct ibv_context *context, int cqe,
				    struct ibv_comp_channel *channel, int comp_vector);
	struct ibv_cq_ex *(*create_cq_ex)(struct ibv_context *context,
					  struct ibv_cq_init_attr_ex *init_attr);
	struct ibv_flow *(*create_flow)(struct ibv_qp *qp, struct ibv_flow_attr *flow_attr);
	struct ibv_flow_action *(*create_flow_action_esp)(struct ibv_context *context,
							  struct ibv_flow_action_esp_attr *attr);
	struct ibv_qp *(*create_qp)(struct ibv_pd *pd, struct ibv_qp_init_attr *attr);
	struct ibv_qp *(*create_qp_ex)(struct ibv_context *context,
				       struct ibv_qp_init_attr_ex *qp_init_attr_ex);
	struct ibv_rwq_ind_table *(*create_rwq_ind_table)(struct ibv_context *context,
							  struct ibv_rwq_ind_table_init_attr *init_attr);
	struct ibv_srq *(*create_srq)(struct ibv_pd *pd, struct ibv_srq_init_attr *srq_init_attr);
	struct ibv_srq *(*create_srq_ex)(struct ibv_context *context,
					 struct ibv_srq_init_attr_ex *srq_init_attr_ex);
	struct ibv_wq *(*create_wq)(struct ibv_context *context, struct ibv_wq_init_attr *wq_init_attr);
	int (*dealloc_mw)(struct ibv_mw *mw);
	int (*dealloc_pd)(struct ibv_pd *pd);
	int (*dealloc_td)(struct ibv_td *td);
	int (*dereg_mr)(struct verbs_mr *vmr);
	int (*destroy_ah)(struct ibv_ah *ah);
	int (*destroy_counters)(struct ibv_counters *counters);
	int (*destroy_cq)(struct ibv_cq *cq);
	int (*destroy_flow)(struct ibv_flow *flow);
	int (*destroy_flow_action)(struct ibv_flow_action *action);
	int (*destroy_qp)(struct ibv_qp *qp);
	int (*destroy_rwq_ind_table)(struct ibv_rwq_ind_table *rwq_ind_table);
	int (*destroy_srq)(struct ibv_srq *srq);
	int (*destroy_wq)(struct ibv_wq *wq);
	int (*detach_mcast)(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid);
	void (*free_context)(struct ibv_context *context);
	int (*free_dm)(struct ibv_dm *dm);
	int (*get_srq_num)(struct ibv_srq *srq, uint32_t *srq_num);
	struct ibv_dm *(*import_dm)(struct ibv_context *context, uint32_t dm_handle);
	struct ibv_mr *(*import_mr)(struct ibv_pd *pd, uint32_t mr_handle);
	struct ibv_pd *(*import_pd)(struct ibv_context *context, uint32_t pd_handle);
	int (*modify_cq)(struct ibv_cq *cq, struct ibv_modify_cq_attr *attr);
	int (*modify_flow_action_esp)(struct ibv_flow_action *action,
				      struct ibv_flow_action_esp_attr *attr);
	int (*modify_qp)(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask);
	int (*modify_qp_rate_limit)(struct ibv_qp *qp, struct ibv_qp_rate_limit_attr *attr);
	int (*modify_srq)(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr, int srq_attr_mask);
	int (*modify_wq)(struct ibv_wq *wq, struct ibv_wq_attr *wq_attr);
	struct ibv_qp *(*open_qp)(struct ibv_context *context, struct ibv_qp_open_attr *attr);
	struct ibv_xrcd *(*open_xrcd)(struct ibv_context *context,
				      struct ibv_xrcd_init_attr *xrcd_init_attr);
	int (*poll_cq)(struct ibv_cq *cq, int num_entries, struct ibv_wc *wc);
	int (*post_recv)(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr);
	int (*post_send)(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr);
	int (*post_srq_ops)(struct ibv_srq *srq, struct ibv_ops_wr *op, struct ibv_ops_wr **bad_op);
	int (*post_srq_recv)(struct ibv_srq *srq, struct ibv_recv_wr *recv_wr,
			     struct ibv_recv_wr **bad_recv_wr);
	int (*query_device_ex)(struct ibv_context *context,
			       const struct ibv_query_device_ex_input *input,
			       struct ibv_device_attr_ex *attr, size_t attr_size);
	int (*query_ece)(struct ibv_qp *qp, struct ibv_ece *ece);
	int (*query_port)(struct ibv_context *context, uint8_t port_num,
			  struct ibv_port_attr *port_attr);
	int (*query_qp)(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask,
			struct ibv_qp_init_attr *init_attr);
	int (*query_qp_data_in_order)(struct ibv_qp *qp, enum ibv_wr_opcode op, uint32_t flags);
	int (*query_rt_values)(struct ibv_context *context, struct ibv_values_ex *values);
	int (*query_srq)(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr);
	int (*read_counters)(struct ibv_counters *counters, uint64_t *counters_value,
			     uint32_t ncounters, uint32_t flags);
	struct ibv_mr *(*reg_dm_mr)(struct ibv_pd *pd, struct ibv_dm *dm, uint64_t dm_offset,
				    size_t length, unsigned int access);
	struct ibv_mr *(*reg_dmabuf_mr)(struct ibv_pd *pd, uint64_t offset, size_t length,
					uint64_t iova, int fd, int access);
	struct ibv_mr *(*reg_mr)(struct ibv_pd *pd, void *addr, size_t length, uint64_t hca_va,
				 int access);
	int (*req_notify_cq)(struct ibv_cq *cq, int solicited_only);
	int (*rereg_mr)(struct verbs_mr *vmr, int flags, struct ibv_pd *pd, void *addr,
			size_t length, int access);
	int (*resize_cq)(struct ibv_cq *cq, int cqe);
	int (*set_ece)(struct ibv_qp *qp, struct ibv_ece *ece);
	void (*unimport_dm)(struct ibv_dm *dm);
	void (*unimport_mr)(struct ibv_mr *mr);
	void (*unimport_pd)(struct ibv_pd *pd);
};

/* ---- functions libibverbs exports under IBVERBS_PRIVATE_34 that the provider calls ----- */

/* Appends ops to the list of known providers (matching happens at device discovery). */
void verbs_register_driver_34(const struct verbs_device_ops *ops);

/* Allocates alloc_size zeroed bytes holding a struct verbs_context at context_offset (an
 * offset disguised as a pointer from NULL), initialises it (cmd_fd, async_fd = -1, default
 * ops) and returns the start of the allocation, or NULL with cmd_fd closed. */
void *_verbs_init_and_alloc_context(struct ibv_device *device, int cmd_fd, size_t alloc_size,
				    struct verbs_context *context_offset, uint32_t driver_id);

/* Frees libibverbs' part, closes cmd_fd and async_fd (unless -1), drops the device reference;
 * the caller frees its own allocation afterwards. */
void verbs_uninit_context(struct verbs_context *context);

/* Installs every non-NULL op of ops into the context. */
void verbs_set_ops(struct verbs_context *vctx, const struct verbs_context_ops *ops);

/* (verbs_init_cq, which sets a CQ's libibverbs-owned fields, is not needed: in 44.0 both
 * ibv_create_cq and ibv_create_cq_ex call it themselves after the provider's op.) */

/* The uverbs command helpers of the kernel backend (rnicp_be_kernel.c). Each command struct is
 * the kernel's command header and core payload (rdma-core kern-abi.h's layout, from the
 * kernel's uapi <rdma/ib_user_verbs.h>), followed in the caller's buffer by the driver's own
 * part (host-driver/linux/rnic_user_abi.h); cmd_size/resp_size cover both. libibverbs chooses
 * ioctl or write() and fills the header itself. */
struct ibv_get_context {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_get_context core_payload;
};
struct ibv_query_port {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_query_port core_payload;
};
struct ibv_alloc_pd {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_alloc_pd core_payload;
};
struct ibv_reg_mr {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_reg_mr core_payload;
};
struct ibv_create_cq {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_create_cq core_payload;
};
struct ibv_create_qp {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_create_qp core_payload;
};
struct ibv_modify_qp {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_modify_qp core_payload;
};
struct ibv_query_qp {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_query_qp core_payload;
};
/* Runs GET_CONTEXT and sets up the context from the answer (async_fd, num_comp_vectors). */
int ibv_cmd_get_context(struct verbs_context *context, struct ibv_get_context *cmd, size_t cmd_size,
			struct ib_uverbs_get_context_resp *resp, size_t resp_size);
int ibv_cmd_query_port(struct ibv_context *context, uint8_t port_num, struct ibv_port_attr *port_attr,
		       struct ibv_query_port *cmd, size_t cmd_size);
/* These set pd->handle / the MR's handle, lkey and rkey from the kernel's answer. */
int ibv_cmd_alloc_pd(struct ibv_context *context, struct ibv_pd *pd, struct ibv_alloc_pd *cmd,
		     size_t cmd_size, struct ib_uverbs_alloc_pd_resp *resp, size_t resp_size);
int ibv_cmd_dealloc_pd(struct ibv_pd *pd);
int ibv_cmd_reg_mr(struct ibv_pd *pd, void *addr, size_t length, uint64_t hca_va, int access,
		   struct verbs_mr *vmr, struct ibv_reg_mr *cmd, size_t cmd_size,
		   struct ib_uverbs_reg_mr_resp *resp, size_t resp_size);
int ibv_cmd_dereg_mr(struct verbs_mr *vmr);
int ibv_cmd_create_cq(struct ibv_context *context, int cqe, struct ibv_comp_channel *channel,
		      int comp_vector, struct ibv_cq *cq, struct ibv_create_cq *cmd, size_t cmd_size,
		      struct ib_uverbs_create_cq_resp *resp, size_t resp_size);
int ibv_cmd_destroy_cq(struct ibv_cq *cq);
/* REQ_NOTIFY_CQ (legacy write command): the kernel driver's req_notify_cq. */
int ibv_cmd_req_notify_cq(struct ibv_cq *cq, int solicited_only);
int ibv_cmd_create_qp(struct ibv_pd *pd, struct ibv_qp *qp, struct ibv_qp_init_attr *attr,
		      struct ibv_create_qp *cmd, size_t cmd_size, struct ib_uverbs_create_qp_resp *resp,
		      size_t resp_size);
int ibv_cmd_destroy_qp(struct ibv_qp *qp);
int ibv_cmd_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask,
		      struct ibv_modify_qp *cmd, size_t cmd_size);
int ibv_cmd_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask,
		     struct ibv_qp_init_attr *init_attr, struct ibv_query_qp *cmd, size_t cmd_size);
int ibv_cmd_create_ah(struct ibv_pd *pd, struct ibv_ah *ah, struct ibv_ah_attr *attr,
		      struct ib_uverbs_create_ah_resp *resp, size_t resp_size);
int ibv_cmd_destroy_ah(struct ibv_ah *ah);

/* The allocation for provider struct type T whose struct verbs_context member is M. */
#define RNICP_ABI_ALLOC_CONTEXT(ibdev, cmd_fd, T, M, driver_id)                                    \
	((T *)_verbs_init_and_alloc_context((ibdev), (cmd_fd), sizeof(T),                          \
					    (struct verbs_context *)(uintptr_t)offsetof(T, M),    \
					    (driver_id)))

/* ---- the layout of rdma-core 44.0 on x86_64 ------------------------------------------- */

#define RNICP_ABI_AT(T, m, off) _Static_assert(offsetof(struct T, m) == (off), #T "." #m " moved")
#define RNICP_ABI_SIZE(T, n) _Static_assert(sizeof(struct T) == (n), "size of struct " #T)

/* public structs, from the installed <infiniband/verbs.h> */
RNICP_ABI_SIZE(ibv_get_context, 16);
RNICP_ABI_SIZE(ibv_query_port, 24);
RNICP_ABI_SIZE(ibv_alloc_pd, 16);
RNICP_ABI_SIZE(ibv_reg_mr, 48);
RNICP_ABI_SIZE(ibv_create_cq, 40);
RNICP_ABI_SIZE(ibv_create_qp, 64);
RNICP_ABI_SIZE(ibv_modify_qp, 120);
RNICP_ABI_SIZE(ibv_query_qp, 24);
RNICP_ABI_SIZE(verbs_mr, 56);
RNICP_ABI_SIZE(ibv_device, 664);
RNICP_ABI_AT(ibv_device, _ops, 0);
RNICP_ABI_AT(ibv_device, node_type, 16);
RNICP_ABI_AT(ibv_device, transport_type, 20);
RNICP_ABI_AT(ibv_device, name, 24);
RNICP_ABI_AT(ibv_device, dev_name, 88);
RNICP_ABI_AT(ibv_device, dev_path, 152);
RNICP_ABI_AT(ibv_device, ibdev_path, 408);
RNICP_ABI_SIZE(ibv_context, 328);
RNICP_ABI_AT(ibv_context, device, 0);
RNICP_ABI_AT(ibv_context, ops, 8);
RNICP_ABI_AT(ibv_context, cmd_fd, 264);
RNICP_ABI_AT(ibv_context, async_fd, 268);
RNICP_ABI_AT(ibv_context, num_comp_vectors, 272);
RNICP_ABI_AT(ibv_context, mutex, 280);
RNICP_ABI_AT(ibv_context, abi_compat, 320);
RNICP_ABI_SIZE(ibv_context_ops, 256);
RNICP_ABI_SIZE(verbs_context, 648);
RNICP_ABI_AT(verbs_context, sz, 312);
RNICP_ABI_AT(verbs_context, context, 320);
RNICP_ABI_SIZE(ibv_pd, 16);
RNICP_ABI_SIZE(ibv_ah, 24);
RNICP_ABI_SIZE(ibv_mr, 48);
RNICP_ABI_SIZE(ibv_qp, 160);
RNICP_ABI_SIZE(ibv_qp_ex, 352);
RNICP_ABI_SIZE(ibv_cq, 128);
RNICP_ABI_SIZE(ibv_cq_ex, 288);
RNICP_ABI_SIZE(ibv_srq, 128);
RNICP_ABI_SIZE(ibv_port_attr, 52);
RNICP_ABI_SIZE(ibv_device_attr, 232);
RNICP_ABI_SIZE(ibv_device_attr_ex, 400);

/* private structs, declared above */
RNICP_ABI_SIZE(verbs_match_ent, 24);
RNICP_ABI_AT(verbs_match_ent, driver_data, 0);
RNICP_ABI_AT(verbs_match_ent, u, 8);
RNICP_ABI_AT(verbs_match_ent, vendor, 16);
RNICP_ABI_AT(verbs_match_ent, device, 18);
RNICP_ABI_AT(verbs_match_ent, kind, 20);

RNICP_ABI_SIZE(verbs_sysfs_dev, 992);
RNICP_ABI_AT(verbs_sysfs_dev, entry, 0);
RNICP_ABI_AT(verbs_sysfs_dev, provider_data, 16);
RNICP_ABI_AT(verbs_sysfs_dev, match, 24);
RNICP_ABI_AT(verbs_sysfs_dev, flags, 32);
RNICP_ABI_AT(verbs_sysfs_dev, sysfs_name, 36);
RNICP_ABI_AT(verbs_sysfs_dev, sysfs_cdev, 104);
RNICP_ABI_AT(verbs_sysfs_dev, ibdev_name, 112);
RNICP_ABI_AT(verbs_sysfs_dev, ibdev_path, 176);
RNICP_ABI_AT(verbs_sysfs_dev, modalias, 432);
RNICP_ABI_AT(verbs_sysfs_dev, node_guid, 944);
RNICP_ABI_AT(verbs_sysfs_dev, driver_id, 952);
RNICP_ABI_AT(verbs_sysfs_dev, node_type, 956);
RNICP_ABI_AT(verbs_sysfs_dev, ibdev_idx, 960);
RNICP_ABI_AT(verbs_sysfs_dev, num_ports, 964);
RNICP_ABI_AT(verbs_sysfs_dev, abi_ver, 968);
RNICP_ABI_AT(verbs_sysfs_dev, time_created, 976);

RNICP_ABI_SIZE(verbs_device_ops, 72);
RNICP_ABI_AT(verbs_device_ops, name, 0);
RNICP_ABI_AT(verbs_device_ops, match_min_abi_version, 8);
RNICP_ABI_AT(verbs_device_ops, match_max_abi_version, 12);
RNICP_ABI_AT(verbs_device_ops, match_table, 16);
RNICP_ABI_AT(verbs_device_ops, static_providers, 24);
RNICP_ABI_AT(verbs_device_ops, match_device, 32);
RNICP_ABI_AT(verbs_device_ops, alloc_context, 40);
RNICP_ABI_AT(verbs_device_ops, import_context, 48);
RNICP_ABI_AT(verbs_device_ops, alloc_device, 56);
RNICP_ABI_AT(verbs_device_ops, uninit_device, 64);

RNICP_ABI_SIZE(verbs_device, 712);
RNICP_ABI_AT(verbs_device, device, 0);
RNICP_ABI_AT(verbs_device, ops, 664);
RNICP_ABI_AT(verbs_device, refcount, 672);
RNICP_ABI_AT(verbs_device, entry, 680);
RNICP_ABI_AT(verbs_device, sysfs, 696);
RNICP_ABI_AT(verbs_device, core_support, 704);

RNICP_ABI_SIZE(verbs_mr, 56);
RNICP_ABI_AT(verbs_mr, ibv_mr, 0);
RNICP_ABI_AT(verbs_mr, mr_type, 48);
RNICP_ABI_AT(verbs_mr, access, 52);
RNICP_ABI_SIZE(verbs_qp, 368);
RNICP_ABI_AT(verbs_qp, qp, 0);
RNICP_ABI_AT(verbs_qp, qp_ex, 0);
RNICP_ABI_AT(verbs_qp, comp_mask, 352);
RNICP_ABI_AT(verbs_qp, xrcd, 360);
RNICP_ABI_SIZE(verbs_cq, 288);
RNICP_ABI_AT(verbs_cq, cq, 0);
RNICP_ABI_AT(verbs_cq, cq_ex, 0);
_Static_assert(offsetof(struct ibv_qp_ex, qp_base) == 0, "ibv_qp_ex starts with its ibv_qp");

/* the 76 ops, 8 bytes apart in name order */
RNICP_ABI_SIZE(verbs_context_ops, 608);
RNICP_ABI_AT(verbs_context_ops, advise_mr, 0);
RNICP_ABI_AT(verbs_context_ops, alloc_dm, 8);
RNICP_ABI_AT(verbs_context_ops, alloc_mw, 16);
RNICP_ABI_AT(verbs_context_ops, alloc_null_mr, 24);
RNICP_ABI_AT(verbs_context_ops, alloc_parent_domain, 32);
RNICP_ABI_AT(verbs_context_ops, alloc_pd, 40);
RNICP_ABI_AT(verbs_context_ops, alloc_td, 48);
RNICP_ABI_AT(verbs_context_ops, async_event, 56);
RNICP_ABI_AT(verbs_context_ops, attach_counters_point_flow, 64);
RNICP_ABI_AT(verbs_context_ops, attach_mcast, 72);
RNICP_ABI_AT(verbs_context_ops, bind_mw, 80);
RNICP_ABI_AT(verbs_context_ops, close_xrcd, 88);
RNICP_ABI_AT(verbs_context_ops, cq_event, 96);
RNICP_ABI_AT(verbs_context_ops, create_ah, 104);
RNICP_ABI_AT(verbs_context_ops, create_counters, 112);
RNICP_ABI_AT(verbs_context_ops, create_cq, 120);
RNICP_ABI_AT(verbs_context_ops, create_cq_ex, 128);
RNICP_ABI_AT(verbs_context_ops, create_flow, 136);
RNICP_ABI_AT(verbs_context_ops, create_flow_action_esp, 144);
RNICP_ABI_AT(verbs_context_ops, create_qp, 152);
RNICP_ABI_AT(verbs_context_ops, create_qp_ex, 160);
RNICP_ABI_AT(verbs_context_ops, create_rwq_ind_table, 168);
RNICP_ABI_AT(verbs_context_ops, create_srq, 176);
RNICP_ABI_AT(verbs_context_ops, create_srq_ex, 184);
RNICP_ABI_AT(verbs_context_ops, create_wq, 192);
RNICP_ABI_AT(verbs_context_ops, dealloc_mw, 200);
RNICP_ABI_AT(verbs_context_ops, dealloc_pd, 208);
RNICP_ABI_AT(verbs_context_ops, dealloc_td, 216);
RNICP_ABI_AT(verbs_context_ops, dereg_mr, 224);
RNICP_ABI_AT(verbs_context_ops, destroy_ah, 232);
RNICP_ABI_AT(verbs_context_ops, destroy_counters, 240);
RNICP_ABI_AT(verbs_context_ops, destroy_cq, 248);
RNICP_ABI_AT(verbs_context_ops, destroy_flow, 256);
RNICP_ABI_AT(verbs_context_ops, destroy_flow_action, 264);
RNICP_ABI_AT(verbs_context_ops, destroy_qp, 272);
RNICP_ABI_AT(verbs_context_ops, destroy_rwq_ind_table, 280);
RNICP_ABI_AT(verbs_context_ops, destroy_srq, 288);
RNICP_ABI_AT(verbs_context_ops, destroy_wq, 296);
RNICP_ABI_AT(verbs_context_ops, detach_mcast, 304);
RNICP_ABI_AT(verbs_context_ops, free_context, 312);
RNICP_ABI_AT(verbs_context_ops, free_dm, 320);
RNICP_ABI_AT(verbs_context_ops, get_srq_num, 328);
RNICP_ABI_AT(verbs_context_ops, import_dm, 336);
RNICP_ABI_AT(verbs_context_ops, import_mr, 344);
RNICP_ABI_AT(verbs_context_ops, import_pd, 352);
RNICP_ABI_AT(verbs_context_ops, modify_cq, 360);
RNICP_ABI_AT(verbs_context_ops, modify_flow_action_esp, 368);
RNICP_ABI_AT(verbs_context_ops, modify_qp, 376);
RNICP_ABI_AT(verbs_context_ops, modify_qp_rate_limit, 384);
RNICP_ABI_AT(verbs_context_ops, modify_srq, 392);
RNICP_ABI_AT(verbs_context_ops, modify_wq, 400);
RNICP_ABI_AT(verbs_context_ops, open_qp, 408);
RNICP_ABI_AT(verbs_context_ops, open_xrcd, 416);
RNICP_ABI_AT(verbs_context_ops, poll_cq, 424);
RNICP_ABI_AT(verbs_context_ops, post_recv, 432);
RNICP_ABI_AT(verbs_context_ops, post_send, 440);
RNICP_ABI_AT(verbs_context_ops, post_srq_ops, 448);
RNICP_ABI_AT(verbs_context_ops, post_srq_recv, 456);
RNICP_ABI_AT(verbs_context_ops, query_device_ex, 464);
RNICP_ABI_AT(verbs_context_ops, query_ece, 472);
RNICP_ABI_AT(verbs_context_ops, query_port, 480);
RNICP_ABI_AT(verbs_context_ops, query_qp, 488);
RNICP_ABI_AT(verbs_context_ops, query_qp_data_in_order, 496);
RNICP_ABI_AT(verbs_context_ops, query_rt_values, 504);
RNICP_ABI_AT(verbs_context_ops, query_srq, 512);
RNICP_ABI_AT(verbs_context_ops, read_counters, 520);
RNICP_ABI_AT(verbs_context_ops, reg_dm_mr, 528);
RNICP_ABI_AT(verbs_context_ops, reg_dmabuf_mr, 536);
RNICP_ABI_AT(verbs_context_ops, reg_mr, 544);
RNICP_ABI_AT(verbs_context_ops, req_notify_cq, 552);
RNICP_ABI_AT(verbs_context_ops, rereg_mr, 560);
RNICP_ABI_AT(verbs_context_ops, resize_cq, 568);
RNICP_ABI_AT(verbs_context_ops, set_ece, 576);
RNICP_ABI_AT(verbs_context_ops, unimport_dm, 584);
RNICP_ABI_AT(verbs_context_ops, unimport_mr, 592);
RNICP_ABI_AT(verbs_context_ops, unimport_pd, 600);

#endif /* RNICP_ABI_H */
