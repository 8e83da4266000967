/* The provider's verbs layer (rnicp_main.c, rnicp_verbs_*.c): libibverbs objects on top of the
 * OS-independent data path (rnicp_wqe/cq/db) and the control-path backends (rnicp_backend.h).
 * Private to the provider and its tests (tb/provider). Ops return 0 or a positive errno, or
 * NULL with errno set, as libibverbs expects. */
#ifndef RNICP_VERBS_H
#define RNICP_VERBS_H

#include <pthread.h>
#include <stdint.h>

#include "rnicp_abi.h"
#include "rnicp_backend.h"
#include "rnicp_cq.h"
#include "rnicp_db.h"
#include "rnicp_wqe.h"

#define RNICP_PAGE 4096u
#define RNICP_QP_HASH 256u		/* buckets of the context's QPN -> QP table */
#define RNICP_MAX_MSG_SZ 0x80000000u	/* 2^31, the IBTA message size limit */

struct rnicp_device {
	struct verbs_device vdev;
};

struct rnicp_qp;

struct rnicp_context {
	struct verbs_context vctx;
	const struct rnicp_be_ops *be_ops;
	struct rnicp_be *be;
	struct rnicp_db db;		/* doorbells through the backend */
	struct rnic_device_attr dattr;	/* read once at open: limits do not change */
	pthread_mutex_t port_lock;
	struct rnic_port_attr pattr;	/* last query_port answer (UD uses its active MTU) */
	/* A CQ may be shared by QPs, so a completion finds its QP by number. */
	pthread_rwlock_t qp_lock;
	struct rnicp_qp *qp_hash[RNICP_QP_HASH];
};

struct rnicp_pd {
	struct ibv_pd ibv_pd;
	uint32_t pdn;
};

struct rnicp_mr {
	struct verbs_mr vmr;
};

/* (rnicp_vcq: struct rnicp_cq is the data path's ring state) */
struct rnicp_vcq {
	struct verbs_cq vcq;
	pthread_mutex_t lock;
	struct rnicp_cq ring;
	void *buf;
	size_t buf_len;
	uint32_t *dbrec;
	struct rnicp_wc cur;		/* the completion an ibv_cq_ex poll is on */
};

struct rnicp_wrx;

struct rnicp_qp {
	struct verbs_qp vqp;		/* qp_ex part used when created with send_ops_flags */
	struct rnicp_qp *hnext;		/* chain in rnicp_context.qp_hash */
	/* sq_lock: one poster (or ibv_wr_* batch, wr_start to wr_complete) at a time; it also
	 * guards state. ci_lock: the SQ indices, shared with the poller that retires WQEs; held
	 * only around an index update, so polling never waits for a batch (nor deadlocks on a
	 * thread that polls inside one). rq_lock: the RQ, posters and poller alike. */
	pthread_mutex_t sq_lock, ci_lock, rq_lock;
	struct rnicp_sq sq;
	struct rnicp_rq rq;
	void *buf;			/* SQ ring, then RQ ring at rq_offset */
	size_t buf_len;
	uint32_t rq_offset;
	uint32_t qpn, qp_type, state;	/* state: RNIC_QP_STATE_*, as the device last accepted */
	uint32_t sq_sig_all, qkey, path_mtu;
	uint32_t sq_wqebbs;		/* WQEBBs of the largest WQE the caps allow */
	struct ibv_qp_cap cap;		/* as written back at create */
	struct rnicp_wrx *wrx;		/* ibv_wr_* state, NULL without send_ops_flags */
};

struct rnicp_ah {
	struct ibv_ah ibv_ah;
	uint32_t ahn;
};

static inline struct rnicp_context *to_rctx(struct ibv_context *c)
{
	return (struct rnicp_context *)((char *)c - offsetof(struct rnicp_context, vctx.context));
}
static inline struct rnicp_pd *to_rpd(struct ibv_pd *p)
{
	return (struct rnicp_pd *)p;
}
static inline struct rnicp_vcq *to_rcq(struct ibv_cq *c)
{
	return (struct rnicp_vcq *)c;
}
static inline struct rnicp_qp *to_rqp(struct ibv_qp *q)
{
	return (struct rnicp_qp *)q;
}
static inline struct rnicp_ah *to_rah(struct ibv_ah *a)
{
	return (struct rnicp_ah *)a;
}

/* rnicp_main.c: the context apart from libibverbs' part, so tests can build one on a mock
 * backend. Opens the backend for ibdev, reads the device limits and the port. Negative errno. */
int rnicp_ctx_init(struct rnicp_context *ctx, const struct rnicp_be_ops *ops, const char *ibdev);
void rnicp_ctx_fini(struct rnicp_context *ctx);

/* rnicp_verbs_dev.c */
int rnicp_query_device_ex(struct ibv_context *context, const struct ibv_query_device_ex_input *input,
			  struct ibv_device_attr_ex *attr, size_t attr_size);
int rnicp_query_port(struct ibv_context *context, uint8_t port, struct ibv_port_attr *attr);
/* ibv_mtu enum value (1..5) -> bytes, 0 for anything else. */
uint32_t rnicp_mtu_bytes(uint32_t ibv_mtu);

/* rnicp_verbs_mr.c */
struct ibv_pd *rnicp_alloc_pd(struct ibv_context *context);
int rnicp_dealloc_pd(struct ibv_pd *pd);
struct ibv_mr *rnicp_reg_mr(struct ibv_pd *pd, void *addr, size_t length, uint64_t hca_va, int access);
int rnicp_dereg_mr(struct verbs_mr *vmr);
/* ibv_access_flags -> enum access bits, or -EINVAL/-EOPNOTSUPP for flags the NIC lacks. */
int rnicp_access_bits(int ibv_access, uint32_t *out);

/* rnicp_verbs_cq.c */
struct ibv_cq *rnicp_create_cq(struct ibv_context *context, int cqe, struct ibv_comp_channel *channel,
			       int comp_vector);
int rnicp_destroy_cq(struct ibv_cq *cq);
int rnicp_poll_cq(struct ibv_cq *cq, int num_entries, struct ibv_wc *wc);
int rnicp_req_notify_cq(struct ibv_cq *cq, int solicited_only);
struct ibv_cq_ex *rnicp_create_cq_ex(struct ibv_context *context, struct ibv_cq_init_attr_ex *attr);

/* rnicp_verbs_qp.c */
struct ibv_qp *rnicp_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *attr);
int rnicp_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask);
int rnicp_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask,
		   struct ibv_qp_init_attr *init_attr);
int rnicp_destroy_qp(struct ibv_qp *qp);
struct ibv_qp *rnicp_create_qp_ex(struct ibv_context *context, struct ibv_qp_init_attr_ex *attr);
/* The QP with number qpn in the table (caller holds ctx->qp_lock), or NULL. */
struct rnicp_qp *rnicp_qp_lookup(struct rnicp_context *ctx, uint32_t qpn);
/* An IPv4-mapped GID (::ffff:a.b.c.d) -> a.b.c.d as a number (a in bits 31:24): 0, or -EINVAL. */
int rnicp_gid_to_ipv4(const union ibv_gid *gid, uint32_t *ipv4);

/* rnicp_verbs_post.c */
/* One WR into the SQ (the caller holds sq_lock and has checked the QP state): the WQEBBs it
 * took, or -errno with the ring unchanged. bf: NULL or a RNICP_MAX_WQE_BYTES copy of the WQE. */
int rnicp_post_one(struct rnicp_context *ctx, struct rnicp_qp *qp, const struct ibv_send_wr *wr, void *bf);
/* The doorbell for everything posted up to sq.pi: BlueFlame with the last WQE (bf, nbb
 * WQEBBs) when it was the only one and the QP was idle before, sq_db otherwise. */
void rnicp_sq_doorbell(struct rnicp_context *ctx, struct rnicp_qp *qp, int lone_on_idle, const void *bf,
		       int nbb);
int rnicp_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr);
int rnicp_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr);

/* rnicp_verbs_wr.c: the ibv_wr_* API of a QP created with send_ops_flags. 0, -EOPNOTSUPP
 * for operations the QP type or the NIC lacks, -ENOMEM. */
int rnicp_wr_init(struct rnicp_qp *qp, uint64_t send_ops_flags);
void rnicp_wr_fini(struct rnicp_qp *qp);

/* rnicp_verbs_ah.c */
struct ibv_ah *rnicp_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr);
int rnicp_destroy_ah(struct ibv_ah *ah);

#endif /* RNICP_VERBS_H */
