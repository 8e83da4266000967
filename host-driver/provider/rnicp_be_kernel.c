/* The kernel backend: uverbs commands to the kernel module (host-driver/linux) through
 * libibverbs' ibv_cmd_* helpers, with the driver parts of host-driver/linux/rnic_user_abi.h.
 * So far the context (GET_CONTEXT; libibverbs then gets the kernel's async fd), the queries,
 * PDs, MRs, CQs, QPs, AHs and the doorbell page (docs/kernel-module.md). The verbs layer names
 * objects by the device's numbers (pdn, lkey, cqn, qpn, ahn); the kernel by its object handles:
 * the backend keeps the kernel's side of each. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rnicp_abi.h"
#include "rnic_spec.h"
#include "rnicp_backend.h"
#include "../linux/rnic_user_abi.h"

/* The kernel's view of one PD or MR (its uverbs handle), found by the device's number. */
struct kobj {
	struct kobj *next;
	uint32_t num;		/* pdn or lkey */
	struct ibv_pd pd;	/* for a PD */
	struct verbs_mr mr;	/* for an MR */
	struct ibv_cq cq;	/* for a CQ */
	struct ibv_qp qp;	/* for a QP */
	struct ibv_ah ah;	/* for an AH */
	/* The application's CQ or QP, which the kernel knows (its user_handle): events name it
	 * and ibv_cmd_destroy_* must count its acknowledged events, not this copy's. */
	struct ibv_cq *app_cq;
	struct ibv_qp *app_qp;
	/* A CQ ring or QP buffer the kernel allocated (RNIC_UREQ_KERNEL_BUF), mapped over the
	 * verbs layer's buffer at kbuf; NULL when the kernel pinned the verbs layer's own. */
	void *kbuf;
	size_t kbuf_len;
};

struct rnicp_be {
	struct verbs_context *vctx;
	volatile uint32_t *db;	/* the context's doorbell page, mmapped from cmd_fd */
	struct rnic_uresp_ucontext uc;
	pthread_mutex_t lock;
	struct kobj *pds, *mrs, *cqs, *qps, *ahs;
	uint32_t arm_sn;	/* CQ arms written (db_cq_arm.sn) */
	int arm_by_store;	/* the kernel has no REQ_NOTIFY_CQ path: arm by the page store */
	int arm_warned;
};

static struct kobj *kobj_take(struct rnicp_be *be, struct kobj **list, uint32_t num, int unlink)
{
	struct kobj **pp, *o = NULL;

	pthread_mutex_lock(&be->lock);
	for (pp = list; *pp; pp = &(*pp)->next)
		if ((*pp)->num == num) {
			o = *pp;
			if (unlink)
				*pp = o->next;
			break;
		}
	pthread_mutex_unlock(&be->lock);
	return o;
}

static void kobj_add(struct rnicp_be *be, struct kobj **list, struct kobj *o)
{
	pthread_mutex_lock(&be->lock);
	o->next = *list;
	*list = o;
	pthread_mutex_unlock(&be->lock);
}

/* After a create command that returned rc (a positive errno): keeps o under the device's number
 * num (also stored to *out), or frees it. */
static int kobj_done(struct rnicp_be *be, struct kobj **list, struct kobj *o, int rc, uint32_t num,
		     uint32_t *out)
{
	if (rc) {
		free(o);
		return -rc;
	}
	o->num = *out = num;
	kobj_add(be, list, o);
	return 0;
}

/* Destroys the kernel's object behind a device number with cmd; the entry goes only when the
 * kernel agreed (a PD in use, say, stays). */
static int kobj_destroy(struct rnicp_be *be, struct kobj **list, uint32_t num, int (*cmd)(struct kobj *o))
{
	struct kobj *o = kobj_take(be, list, num, 0);
	int rc;

	if (!o)
		return -ENOENT;
	rc = cmd(o);
	if (rc)
		return -rc;
	kobj_take(be, list, num, 1);
	free(o);
	return 0;
}

/* Rings larger than a page: the firmware takes no page lists for them, so the kernel allocates
 * them bus-contiguous and the process maps them. The kernel's pages go over the verbs layer's
 * buffer at the same address (MAP_FIXED, the same length, page-aligned): every pointer the
 * verbs layer keeps stays valid, and the buffer held only zeroes, as the kernel's does. */
static int kbuf_wanted(size_t len)
{
	return len > (size_t)sysconf(_SC_PAGESIZE);
}

static int kbuf_map(struct rnicp_be *be, struct kobj *o, void *at, size_t len, uint64_t key)
{
	void *p = mmap(at, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
		       be->vctx->context.cmd_fd, (off_t)key);

	if (p == MAP_FAILED) {
		int rc = -errno;

		/* a failed MAP_FIXED may have unmapped the range: ordinary memory back */
		mmap(at, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
		return rc;
	}
	o->kbuf = at;
	o->kbuf_len = len;
	return 0;
}

/* After the destroy: ordinary zeroed memory back under the verbs layer's buffer, which it frees
 * next (its allocator's bookkeeping lies outside the buffer); the kernel's pages go with the
 * mapping. */
static void kbuf_unmap(struct kobj *o)
{
	if (o->kbuf)
		mmap(o->kbuf, o->kbuf_len, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	o->kbuf = NULL;
}

static int cmd_dealloc_pd(struct kobj *o)
{
	return ibv_cmd_dealloc_pd(&o->pd);
}

static int cmd_dereg_mr(struct kobj *o)
{
	return ibv_cmd_dereg_mr(&o->mr);
}

/* On the application's object, with the kernel's handle for the call (the verbs layer keeps
 * the device's number in ->handle): libibverbs waits there until the application acknowledged
 * every event the kernel reported. */
static int cmd_destroy_cq(struct kobj *o)
{
	uint32_t h;
	int rc;

	if (!o->app_cq) {
		rc = ibv_cmd_destroy_cq(&o->cq);
	} else {
		h = o->app_cq->handle;
		o->app_cq->handle = o->cq.handle;
		rc = ibv_cmd_destroy_cq(o->app_cq);
		o->app_cq->handle = h;
	}
	if (!rc)
		kbuf_unmap(o);
	return rc;
}

static int cmd_destroy_qp(struct kobj *o)
{
	uint32_t h;
	int rc;

	if (!o->app_qp) {
		rc = ibv_cmd_destroy_qp(&o->qp);
	} else {
		h = o->app_qp->handle;
		o->app_qp->handle = o->qp.handle;
		rc = ibv_cmd_destroy_qp(o->app_qp);
		o->app_qp->handle = h;
	}
	if (!rc)
		kbuf_unmap(o);
	return rc;
}

static int cmd_destroy_ah(struct kobj *o)
{
	return ibv_cmd_destroy_ah(&o->ah);
}

static int kernel_open(const char *ibdev, struct rnicp_be **out)
{
	(void)ibdev;
	*out = NULL;
	return -ENOSYS;	/* needs the uverbs context: open_ctx */
}

static int kernel_open_ctx(struct verbs_context *vctx, const char *ibdev, struct rnicp_be **out)
{
	struct {
		struct ibv_get_context ibv;
	} cmd;
	struct {
		struct ib_uverbs_get_context_resp ibv;
		struct rnic_uresp_ucontext drv;
	} resp;
	struct rnicp_be *be;
	int rc;

	(void)ibdev;
	*out = NULL;
	memset(&cmd, 0, sizeof(cmd));
	memset(&resp, 0, sizeof(resp));
	rc = ibv_cmd_get_context(vctx, &cmd.ibv, sizeof(cmd), &resp.ibv, sizeof(resp));
	if (rc)
		return -rc;
	be = calloc(1, sizeof(*be));
	if (!be)
		return -ENOMEM;
	be->vctx = vctx;
	be->uc = resp.drv;
	if (be->uc.db_page_size) {
		void *p = mmap(NULL, be->uc.db_page_size, PROT_WRITE, MAP_SHARED, vctx->context.cmd_fd,
			       (off_t)be->uc.db_mmap_key);

		if (p == MAP_FAILED) {
			rc = -errno;
			free(be);
			return rc;
		}
		be->db = p;
	}
	pthread_mutex_init(&be->lock, NULL);
	*out = be;
	return 0;
}

static void kobj_free_all(struct kobj **head)
{
	struct kobj *o;

	while ((o = *head)) {
		*head = o->next;
		free(o);
	}
}

/* The kernel destroys what is left of the context when libibverbs closes cmd_fd. */
static void kernel_close(struct rnicp_be *be)
{
	kobj_free_all(&be->pds);
	kobj_free_all(&be->mrs);
	kobj_free_all(&be->cqs);
	kobj_free_all(&be->qps);
	kobj_free_all(&be->ahs);
	pthread_mutex_destroy(&be->lock);
	if (be->db)
		munmap((void *)be->db, be->uc.db_page_size);
	free(be);
}

static uint32_t kernel_uctx(struct rnicp_be *be)
{
	return be->uc.uctx;
}

static int kernel_query_device(struct rnicp_be *be, struct rnic_device_attr *o)
{
	const struct rnic_uresp_ucontext *u = &be->uc;

	*o = (struct rnic_device_attr){
		.fw_version = u->fw_version, .max_qp = u->max_qp, .max_cq = u->max_cq,
		.max_mr = u->max_mr, .max_pd = u->max_pd, .max_qp_wr = u->max_qp_wr,
		.max_cqe = u->max_cqe, .max_sge = u->max_sge, .max_inline = u->max_inline,
		.max_rd_atomic = u->max_rd_atomic, .page_size_cap = u->page_size_cap,
		.max_mr_size_log2 = u->max_mr_size_log2, .num_uctx = u->num_uctx,
	};
	return 0;
}

/* Live from the kernel: the port follows the GID netdev's state. */
static int kernel_query_port(struct rnicp_be *be, uint32_t port, struct rnic_port_attr *o)
{
	struct ibv_query_port cmd;
	struct ibv_port_attr a;
	int rc;

	memset(&cmd, 0, sizeof(cmd));
	rc = ibv_cmd_query_port(&be->vctx->context, (uint8_t)port, &a, &cmd, sizeof(cmd));
	if (rc)
		return -rc;
	memset(o, 0, sizeof(*o));
	o->state = a.state;
	o->max_mtu = a.max_mtu;
	o->active_mtu = a.active_mtu;
	o->gid_tbl_len = (uint32_t)a.gid_tbl_len;
	o->speed_gbps = be->uc.speed_gbps;
	memcpy(o->mac, be->uc.mac, sizeof(o->mac));
	return 0;
}

static int missing(const char *what)
{
	fprintf(stderr, "librnic: %s through the kernel module is not implemented yet "
			"(docs/kernel-module.md)\n", what);
	return -EOPNOTSUPP;
}

static int kernel_alloc_pd(struct rnicp_be *be, uint32_t *pdn)
{
	struct ibv_alloc_pd cmd;
	struct {
		struct ib_uverbs_alloc_pd_resp ibv;
		struct rnic_uresp_pd drv;
	} resp;
	struct kobj *o = calloc(1, sizeof(*o));
	int rc;

	if (!o)
		return -ENOMEM;
	memset(&cmd, 0, sizeof(cmd));
	memset(&resp, 0, sizeof(resp));
	rc = ibv_cmd_alloc_pd(&be->vctx->context, &o->pd, &cmd, sizeof(cmd), &resp.ibv, sizeof(resp));
	return kobj_done(be, &be->pds, o, rc, resp.drv.pdn, pdn);
}

static int kernel_dealloc_pd(struct rnicp_be *be, uint32_t pdn)
{
	return kobj_destroy(be, &be->pds, pdn, cmd_dealloc_pd);
}

/* access: enum access bits, which are ibv_access_flags' (the spec numbers them so). */
static int kernel_reg_mr(struct rnicp_be *be, uint32_t pdn, void *addr, uint64_t len, uint64_t iova,
			 uint32_t access, uint32_t *lkey, uint32_t *rkey)
{
	struct kobj *pd = kobj_take(be, &be->pds, pdn, 0);
	struct ibv_reg_mr cmd;
	struct ib_uverbs_reg_mr_resp resp;
	struct kobj *o;
	int rc;

	if (!pd)
		return -ENOENT;
	o = calloc(1, sizeof(*o));
	if (!o)
		return -ENOMEM;
	memset(&cmd, 0, sizeof(cmd));
	memset(&resp, 0, sizeof(resp));
	rc = ibv_cmd_reg_mr(&pd->pd, addr, (size_t)len, iova, (int)access, &o->mr, &cmd, sizeof(cmd),
			    &resp, sizeof(resp));
	if (!rc)
		*rkey = o->mr.ibv_mr.rkey;
	return kobj_done(be, &be->mrs, o, rc, o->mr.ibv_mr.lkey, lkey);
}

static int kernel_dereg_mr(struct rnicp_be *be, uint32_t lkey)
{
	return kobj_destroy(be, &be->mrs, lkey, cmd_dereg_mr);
}

/* The ring and the doorbell record stay the verbs layer's; the kernel pins them. The command
 * carries the application's ibv_cq (user_handle: the kernel's completion and async events name
 * it, ibv_get_cq_event returns it) and its channel; the backend keeps the kernel's handle in
 * its own copy for the destroy. ibv_cmd_create_cq also stores context, handle and cqe into the
 * application's ibv_cq: the verbs layer sets those after this returns and libibverbs'
 * verbs_init_cq the rest. */
static int kernel_create_cq(struct rnicp_be *be, uint32_t log_size, void *ring, void *dbrec,
			    uint64_t user_handle, void *channel, uint32_t *cqn)
{
	struct {
		struct ibv_create_cq ibv;
		struct rnic_ureq_cq drv;
	} cmd;
	struct {
		struct ib_uverbs_create_cq_resp ibv;
		struct rnic_uresp_cq drv;
	} resp;
	struct kobj *o = calloc(1, sizeof(*o));
	size_t len = ((size_t)RNIC_CQE_SIZE << log_size);
	int rc;

	struct ibv_cq *app = (struct ibv_cq *)(uintptr_t)user_handle;

	len = (len + (size_t)sysconf(_SC_PAGESIZE) - 1) & ~((size_t)sysconf(_SC_PAGESIZE) - 1);
	if (!o)
		return -ENOMEM;
	memset(&cmd, 0, sizeof(cmd));
	memset(&resp, 0, sizeof(resp));
	cmd.drv.buf_addr = (uintptr_t)ring;
	cmd.drv.dbrec_addr = (uintptr_t)dbrec;
	cmd.drv.log_size = log_size;
	cmd.drv.flags = kbuf_wanted(len) ? RNIC_UREQ_KERNEL_BUF : 0;
	rc = ibv_cmd_create_cq(&be->vctx->context, 1 << log_size, channel, 0, app ? app : &o->cq,
			       &cmd.ibv, sizeof(cmd), &resp.ibv, sizeof(resp));
	if (!rc && app) {
		o->cq.context = app->context;
		o->cq.handle = app->handle;
		o->app_cq = app;
	}
	if (!rc && cmd.drv.flags) {
		int mrc = kbuf_map(be, o, ring, len, resp.drv.buf_mmap_key);

		if (mrc) {
			cmd_destroy_cq(o);
			free(o);
			return mrc;
		}
	}
	return kobj_done(be, &be->cqs, o, rc, resp.drv.cqn, cqn);
}

static int kernel_destroy_cq(struct rnicp_be *be, uint32_t cqn)
{
	return kobj_destroy(be, &be->cqs, cqn, cmd_destroy_cq);
}

static int kernel_create_qp(struct rnicp_be *be, const struct rnicp_be_qp_in *in, uint32_t *qpn)
{
	struct kobj *pd = kobj_take(be, &be->pds, in->pdn, 0);
	struct kobj *scq = kobj_take(be, &be->cqs, in->send_cqn, 0);
	struct kobj *rcq = kobj_take(be, &be->cqs, in->recv_cqn, 0);
	struct {
		struct ibv_create_qp ibv;
		struct rnic_ureq_qp drv;
	} cmd;
	struct {
		struct ib_uverbs_create_qp_resp ibv;
		struct rnic_uresp_qp drv;
	} resp;
	struct ibv_qp_init_attr a;
	struct ibv_qp *app;
	struct kobj *o;
	int rc;

	if (!pd || !scq || !rcq)
		return -ENOENT;
	o = calloc(1, sizeof(*o));
	if (!o)
		return -ENOMEM;
	memset(&cmd, 0, sizeof(cmd));
	memset(&resp, 0, sizeof(resp));
	memset(&a, 0, sizeof(a));
	a.send_cq = &scq->cq;
	a.recv_cq = &rcq->cq;
	a.qp_type = in->qp_type == RNIC_QP_TYPE_UD ? IBV_QPT_UD :
		    in->qp_type == RNIC_QP_TYPE_UC ? IBV_QPT_UC : IBV_QPT_RC;
	a.sq_sig_all = (int)in->sq_sig_all;
	/* The rings the verbs layer sized: WQEBBs and entries bound the work requests. */
	a.cap.max_send_wr = 1u << in->sq_log_size;
	a.cap.max_recv_wr = 1u << in->rq_log_size;
	a.cap.max_send_sge = a.cap.max_recv_sge = 1;
	a.cap.max_inline_data = in->max_inline;
	cmd.drv = (struct rnic_ureq_qp){
		.buf_addr = (uintptr_t)in->buf, .buf_len = in->buf_len, .rq_offset = in->rq_offset,
		.sq_log_size = in->sq_log_size, .rq_log_size = in->rq_log_size,
		.rq_log_stride = in->rq_log_stride, .max_inline = in->max_inline,
		.sq_sig_all = in->sq_sig_all,
		.flags = kbuf_wanted(in->buf_len) ? RNIC_UREQ_KERNEL_BUF : 0,
	};
	/* As for CQs: the command names the application's ibv_qp (the verbs layer fills it in
	 * after this returns); this copy keeps the kernel's handle. */
	app = (struct ibv_qp *)(uintptr_t)in->user_handle;
	rc = ibv_cmd_create_qp(&pd->pd, app ? app : &o->qp, &a, &cmd.ibv, sizeof(cmd), &resp.ibv,
			       sizeof(resp));
	if (!rc && app) {
		o->qp.context = app->context;
		o->qp.handle = app->handle;
		o->app_qp = app;
	}
	if (!rc && cmd.drv.flags) {
		int mrc = kbuf_map(be, o, in->buf, in->buf_len, resp.drv.buf_mmap_key);

		if (mrc) {
			cmd_destroy_qp(o);
			free(o);
			return mrc;
		}
	}
	return kobj_done(be, &be->qps, o, rc, resp.drv.qpn, qpn);
}

static int kernel_destroy_qp(struct rnicp_be *be, uint32_t qpn)
{
	return kobj_destroy(be, &be->qps, qpn, cmd_destroy_qp);
}

/* The address as the IPv4-mapped GID; the kernel resolves the destination MAC. */
static void ipv4_gid(uint32_t ipv4, union ibv_gid *g)
{
	memset(g, 0, sizeof(*g));
	g->raw[10] = g->raw[11] = 0xFF;
	g->raw[12] = (uint8_t)(ipv4 >> 24);
	g->raw[13] = (uint8_t)(ipv4 >> 16);
	g->raw[14] = (uint8_t)(ipv4 >> 8);
	g->raw[15] = (uint8_t)ipv4;
}

static int kernel_create_ah(struct rnicp_be *be, const struct rnic_create_ah_in *in, uint32_t *ahn)
{
	struct kobj *pd = kobj_take(be, &be->pds, in->pdn, 0);
	struct {
		struct ib_uverbs_create_ah_resp ibv;
		struct rnic_uresp_ah drv;
	} resp;
	struct ibv_ah_attr a;
	struct kobj *o;
	int rc;

	if (!pd)
		return -ENOENT;
	o = calloc(1, sizeof(*o));
	if (!o)
		return -ENOMEM;
	memset(&resp, 0, sizeof(resp));
	memset(&a, 0, sizeof(a));
	a.is_global = 1;
	a.port_num = 1;
	a.grh.sgid_index = (uint8_t)in->sgid_index;
	a.grh.hop_limit = (uint8_t)in->hop_limit;
	a.grh.traffic_class = (uint8_t)in->traffic_class;
	ipv4_gid(in->dest_ipv4, &a.grh.dgid);
	rc = ibv_cmd_create_ah(&pd->pd, &o->ah, &a, &resp.ibv, sizeof(resp));
	return kobj_done(be, &be->ahs, o, rc, resp.drv.ahn, ahn);
}

static int kernel_destroy_ah(struct rnicp_be *be, uint32_t ahn)
{
	return kobj_destroy(be, &be->ahs, ahn, cmd_destroy_ah);
}

/* enum qp_attr bits are ibv_qp_attr_mask's and enum qp_state values ibv_qp_state's (the spec
 * numbers them so). The address vector goes as the IPv4-mapped GID; the kernel resolves the
 * destination MAC. */
static int kernel_modify_qp(struct rnicp_be *be, uint32_t qpn, uint32_t attr_mask,
			    const struct rnic_qp_attr *i)
{
	struct kobj *o = kobj_take(be, &be->qps, qpn, 0);
	struct ibv_modify_qp cmd;
	struct ibv_qp_attr a;

	if (!o)
		return -ENOENT;
	memset(&cmd, 0, sizeof(cmd));
	memset(&a, 0, sizeof(a));
	a.qp_state = (enum ibv_qp_state)i->state;
	a.cur_qp_state = (enum ibv_qp_state)i->cur_state;
	a.path_mtu = (enum ibv_mtu)i->path_mtu;
	a.timeout = (uint8_t)i->timeout;
	a.retry_cnt = (uint8_t)i->retry_cnt;
	a.rnr_retry = (uint8_t)i->rnr_retry;
	a.min_rnr_timer = (uint8_t)i->min_rnr_timer;
	a.qp_access_flags = (unsigned int)i->access;
	a.dest_qp_num = i->dest_qpn;
	a.rq_psn = i->rq_psn;
	a.sq_psn = i->sq_psn;
	a.qkey = i->qkey;
	a.max_rd_atomic = (uint8_t)i->max_rd_atomic;
	a.max_dest_rd_atomic = (uint8_t)i->max_dest_rd_atomic;
	a.port_num = 1;
	if (attr_mask & (1u << RNIC_QP_ATTR_AV)) {
		a.ah_attr.is_global = 1;
		a.ah_attr.port_num = 1;
		a.ah_attr.grh.sgid_index = (uint8_t)i->sgid_index;
		a.ah_attr.grh.hop_limit = (uint8_t)i->hop_limit;
		a.ah_attr.grh.traffic_class = (uint8_t)i->traffic_class;
		ipv4_gid(i->dest_ipv4, &a.ah_attr.grh.dgid);
	}
	return -ibv_cmd_modify_qp(&o->qp, &a, (int)attr_mask, &cmd, sizeof(cmd));
}

static int kernel_query_qp(struct rnicp_be *be, uint32_t qpn, struct rnic_qp_attr *out)
{
	struct kobj *o = kobj_take(be, &be->qps, qpn, 0);
	struct ibv_query_qp cmd;
	struct ibv_qp_attr a;
	struct ibv_qp_init_attr ia;
	int rc;

	if (!o)
		return -ENOENT;
	memset(&cmd, 0, sizeof(cmd));
	rc = ibv_cmd_query_qp(&o->qp, &a, 0x1FFFFF, &ia, &cmd, sizeof(cmd));
	if (rc)
		return -rc;
	memset(out, 0, sizeof(*out));
	out->state = a.qp_state;
	out->cur_state = a.cur_qp_state;
	out->path_mtu = a.path_mtu;
	out->timeout = a.timeout;
	out->retry_cnt = a.retry_cnt;
	out->rnr_retry = a.rnr_retry;
	out->min_rnr_timer = a.min_rnr_timer;
	out->access = (uint32_t)a.qp_access_flags;
	out->dest_qpn = a.dest_qp_num;
	out->rq_psn = a.rq_psn;
	out->sq_psn = a.sq_psn;
	out->qkey = a.qkey;
	out->max_rd_atomic = a.max_rd_atomic;
	out->max_dest_rd_atomic = a.max_dest_rd_atomic;
	return 0;
}

static void kernel_db_write32(struct rnicp_be *be, uint32_t off, uint32_t val)
{
	if (!be->db) {
		missing("the doorbell page");
		return;
	}
	/* A CQ arm goes through uverbs (REQ_NOTIFY_CQ) while the kernel takes it: its front-end
	 * may sample the page by value (the guest transport), where two CQs armed back to back
	 * would leave one arm. A kernel without that path (a card) says EOPNOTSUPP once; then
	 * the store, carrying this context's arm count (db_cq_arm.sn, ignored by the NIC) so
	 * that the same CQ armed twice still writes two values. */
	if (off == RNIC_DB_CQ_ARM && !be->arm_by_store) {
		struct kobj *o = kobj_take(be, &be->cqs, rnic_db_cq_arm_get_cqn(&val), 0);
		int rc = o ? ibv_cmd_req_notify_cq(&o->cq, (int)rnic_db_cq_arm_get_solicited(&val)) : ENOENT;

		if (!rc)
			return;
		if (rc == EOPNOTSUPP)
			be->arm_by_store = 1;
		else if (!be->arm_warned++)
			fprintf(stderr, "rnic: REQ_NOTIFY_CQ of CQ %u failed (%s): arming by the page store\n",
				rnic_db_cq_arm_get_cqn(&val), strerror(rc));
	}
	if (off == RNIC_DB_CQ_ARM)
		rnic_db_cq_arm_set_sn(&val, __atomic_add_fetch(&be->arm_sn, 1, __ATOMIC_RELAXED));
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	be->db[off / 4] = val;
	/* the page is write-combined: flush the store out of the CPU's buffer now, not at the
	 * buffer's next eviction */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/* BlueFlame on the write-combined page: one 64-byte block per WQEBB (a card's CPU flushes each
 * as one burst), the fence, then bf_db. A kernel that does not offer it (no BLUEFLAME flag)
 * gets the same db_word on sq_db: the device reads the WQE from the ring. */
static void kernel_bf_write(struct rnicp_be *be, const void *wqe, unsigned bytes, uint32_t bf_db_val)
{
	volatile uint64_t *d;
	const uint8_t *s = wqe;

	if (!(be->uc.flags & RNIC_UCTX_BLUEFLAME)) {
		kernel_db_write32(be, RNIC_DB_SQ_DB, bf_db_val);
		return;
	}
	if (!be->db) {
		missing("the doorbell page");
		return;
	}
	d = (volatile uint64_t *)(be->db + RNIC_DB_BF_DATA / 4);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	for (unsigned i = 0; i < bytes / 8; i++) {
		uint64_t v;

		memcpy(&v, s + 8 * i, 8);
		d[i] = v;
	}
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	be->db[RNIC_DB_BF_DB / 4] = bf_db_val;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);	/* flushed now, as in kernel_db_write32 */
}

const struct rnicp_be_ops rnicp_be_kernel_ops = {
	.name = "kernel",
	.open = kernel_open,
	.open_ctx = kernel_open_ctx,
	.close = kernel_close,
	.uctx = kernel_uctx,
	.query_device = kernel_query_device,
	.query_port = kernel_query_port,
	.alloc_pd = kernel_alloc_pd,
	.dealloc_pd = kernel_dealloc_pd,
	.reg_mr = kernel_reg_mr,
	.create_cq = kernel_create_cq,
	.create_qp = kernel_create_qp,
	.create_ah = kernel_create_ah,
	.dereg_mr = kernel_dereg_mr,
	.destroy_cq = kernel_destroy_cq,
	.modify_qp = kernel_modify_qp,
	.query_qp = kernel_query_qp,
	.destroy_qp = kernel_destroy_qp,
	.destroy_ah = kernel_destroy_ah,
	.db_write32 = kernel_db_write32,
	.bf_write = kernel_bf_write,
};
