/* The kernel <-> user ABI of the rnic uverbs device: the driver-specific tails of uverbs
 * commands (udata), written once and included by the kernel module (host-driver/linux) and the
 * provider's kernel backend (host-driver/provider/rnicp_be_kernel.c). Fixed-width fields,
 * 64-bit ones 8-aligned, every struct a multiple of 8 bytes. Bump RNIC_UVERBS_ABI_VERSION on
 * any change: the kernel reports it (uverbsN/abi_version) and the provider matches it. */
#ifndef RNIC_USER_ABI_H
#define RNIC_USER_ABI_H

#include <linux/types.h>

#define RNIC_UVERBS_ABI_VERSION 2

/* flags of rnic_ureq_cq / rnic_ureq_qp: the kernel allocates the ring (or queue buffer)
 * bus-contiguous instead of pinning the process's buffer, and answers with the mmap key the
 * process maps it at (over its own buffer of the same size). For rings larger than a page: the
 * firmware takes no page lists for them (docs/kernel-module.md). */
#define RNIC_UREQ_KERNEL_BUF 1u

/* GET_CONTEXT response: the context, and the firmware's QUERY_DEVICE answers uverbs has no
 * field for (the provider's verbs layer wants them all, as the simulator backend gives them). */
struct rnic_uresp_ucontext {
	__u32 uctx;		/* the device's user-context number (its doorbell page) */
	__u32 db_page_size;	/* bytes of the context's doorbell page; 0: none to map */
	__aligned_u64 db_mmap_key; /* mmap offset of that page on cmd_fd (one page, write) */
	__u32 fw_version, max_qp, max_cq, max_mr, max_pd, max_qp_wr, max_cqe;
	__u32 max_sge, max_inline, max_rd_atomic, page_size_cap, max_mr_size_log2, num_uctx;
	__u32 speed_gbps;	/* the port's */
	__u8 mac[6];		/* the port's source MAC (the GID netdev's) */
	__u16 flags;		/* RNIC_UCTX_BLUEFLAME */
};

/* rnic_uresp_ucontext.flags: the doorbell page is mapped write-combined and its bf_data takes
 * BlueFlame WQEs. */
#define RNIC_UCTX_BLUEFLAME 0x1

/* ALLOC_PD response */
struct rnic_uresp_pd {
	__u32 pdn;
	__u32 reserved;
};

/* CREATE_CQ request: the ring (2^log_size CQEs of RNIC_CQE_SIZE bytes, page-aligned, in the
 * process's memory) and its consumer's doorbell record (4 bytes, 4-aligned) */
struct rnic_ureq_cq {
	__aligned_u64 buf_addr;
	__aligned_u64 dbrec_addr;
	__u32 log_size;
	__u32 flags;		/* RNIC_UREQ_KERNEL_BUF */
};

/* CREATE_CQ response */
struct rnic_uresp_cq {
	__u32 cqn;
	__u32 reserved;
	__aligned_u64 buf_mmap_key;	/* with RNIC_UREQ_KERNEL_BUF: mmap offset of the ring */
};

/* CREATE_QP request: the queue buffer in the process (SQ ring at 0, RQ ring at rq_offset;
 * page-aligned) and the ring shapes the provider chose (host-driver/core/README.md) */
struct rnic_ureq_qp {
	__aligned_u64 buf_addr;
	__aligned_u64 buf_len;
	__u32 rq_offset;
	__u32 sq_log_size;	/* 64-byte WQEBBs */
	__u32 rq_log_size;
	__u32 rq_log_stride;
	__u32 max_inline;	/* bytes */
	__u32 sq_sig_all;
	__u32 flags;		/* RNIC_UREQ_KERNEL_BUF */
	__u32 reserved;
};

/* CREATE_QP response */
struct rnic_uresp_qp {
	__u32 qpn;
	__u32 reserved;
	__aligned_u64 buf_mmap_key;	/* with RNIC_UREQ_KERNEL_BUF: mmap offset of the buffer */
};

/* CREATE_AH response */
struct rnic_uresp_ah {
	__u32 ahn;
	__u32 reserved;
};

#endif /* RNIC_USER_ABI_H */
