/* Registration with libibverbs, device matching, and the device context. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "rnic_spec.h"
#include "rnicp_verbs.h"
#include "../linux/rnic_user_abi.h"

/* The per-device uverbs ABI the kernel module reports (uverbsN/abi_version, from the ABI header
 * both share); the simulator's fake sysfs says the same. */
#define RNICP_UVERBS_ABI RNIC_UVERBS_ABI_VERSION

static void db_write32(void *c, uint32_t off, uint32_t val)
{
	struct rnicp_context *ctx = c;

	ctx->be_ops->db_write32(ctx->be, off, val);
}

static void db_write64(void *c, uint32_t off, const void *src)
{
	struct rnicp_context *ctx = c;

	ctx->be_ops->db_write64(ctx->be, off, src);
}

static void db_write_bf(void *c, const void *wqe, unsigned bytes, uint32_t bf_db_val)
{
	struct rnicp_context *ctx = c;

	ctx->be_ops->bf_write(ctx->be, wqe, bytes, bf_db_val);
}

int rnicp_ctx_init(struct rnicp_context *ctx, const struct rnicp_be_ops *ops, const char *ibdev)
{
	int rc;

	ctx->be_ops = ops;
	rc = ops->open_ctx ? ops->open_ctx(&ctx->vctx, ibdev, &ctx->be) : ops->open(ibdev, &ctx->be);
	if (rc)
		return rc;
	rc = ops->query_device(ctx->be, &ctx->dattr);
	if (!rc)
		rc = ops->query_port(ctx->be, 1, &ctx->pattr);
	if (rc) {
		ops->close(ctx->be);
		ctx->be = NULL;
		return rc;
	}
	ctx->db.ctx = ctx;
	ctx->db.write32 = db_write32;
	ctx->db.write64 = ops->db_write64 ? db_write64 : NULL;
	ctx->db.write_bf = ops->bf_write ? db_write_bf : NULL;
	pthread_mutex_init(&ctx->port_lock, NULL);
	pthread_rwlock_init(&ctx->qp_lock, NULL);
	memset(ctx->qp_hash, 0, sizeof(ctx->qp_hash));
	ctx->vctx.context.num_comp_vectors = 1;
	return 0;
}

void rnicp_ctx_fini(struct rnicp_context *ctx)
{
	if (!ctx->be)
		return;
	ctx->be_ops->close(ctx->be);
	ctx->be = NULL;
	pthread_rwlock_destroy(&ctx->qp_lock);
	pthread_mutex_destroy(&ctx->port_lock);
}

static void rnicp_free_context(struct ibv_context *ibctx)
{
	struct rnicp_context *ctx = to_rctx(ibctx);

	rnicp_ctx_fini(ctx);
	verbs_uninit_context(&ctx->vctx);
	free(ctx);
}

static const struct verbs_context_ops rnicp_ctx_ops = {
	.alloc_pd = rnicp_alloc_pd,
	.create_ah = rnicp_create_ah,
	.create_cq = rnicp_create_cq,
	.create_cq_ex = rnicp_create_cq_ex,
	.create_qp = rnicp_create_qp,
	.create_qp_ex = rnicp_create_qp_ex,
	.dealloc_pd = rnicp_dealloc_pd,
	.dereg_mr = rnicp_dereg_mr,
	.destroy_ah = rnicp_destroy_ah,
	.destroy_cq = rnicp_destroy_cq,
	.destroy_qp = rnicp_destroy_qp,
	.free_context = rnicp_free_context,
	.modify_qp = rnicp_modify_qp,
	.poll_cq = rnicp_poll_cq,
	.post_recv = rnicp_post_recv,
	.post_send = rnicp_post_send,
	.query_device_ex = rnicp_query_device_ex,
	.query_port = rnicp_query_port,
	.query_qp = rnicp_query_qp,
	.reg_mr = rnicp_reg_mr,
	.req_notify_cq = rnicp_req_notify_cq,
};

static struct verbs_context *rnicp_alloc_context(struct ibv_device *ibdev, int cmd_fd,
						 void *private_data)
{
	struct rnicp_context *ctx;
	int rc, efd;

	(void)private_data;
	/* RDMA_DRIVER_UNKNOWN (0): an out-of-tree driver has no enum rdma_driver_id value. */
	ctx = RNICP_ABI_ALLOC_CONTEXT(ibdev, cmd_fd, struct rnicp_context, vctx, 0);
	if (!ctx)
		return NULL;
	rc = rnicp_ctx_init(ctx, rnicp_be_select(), ibdev->name);
	if (rc)
		goto fail;
	/* Without a kernel nobody else provides async_fd, and libibverbs would ask the kernel for
	 * one if it stayed -1. A dup, because verbs_uninit_context closes it and the backend
	 * closes its own. With the kernel backend it stays -1: libibverbs then asks the kernel
	 * for its async event fd, which the ioctl commands (CREATE_CQ, ...) name. */
	if (!ctx->be_ops->open_ctx && ctx->vctx.context.async_fd < 0) {
		efd = ctx->be_ops->event_fd ? ctx->be_ops->event_fd(ctx->be) : -1;
		efd = efd >= 0 ? fcntl(efd, F_DUPFD_CLOEXEC, 0) : eventfd(0, EFD_CLOEXEC);
		if (efd < 0) {
			rc = -errno;
			rnicp_ctx_fini(ctx);
			goto fail;
		}
		ctx->vctx.context.async_fd = efd;
	}
	verbs_set_ops(&ctx->vctx, &rnicp_ctx_ops);
	return &ctx->vctx;
fail:
	verbs_uninit_context(&ctx->vctx);
	free(ctx);
	errno = -rc;
	return NULL;
}

static struct verbs_device *rnicp_alloc_device(struct verbs_sysfs_dev *sysfs_dev)
{
	struct rnicp_device *dev = calloc(1, sizeof(*dev));

	(void)sysfs_dev;
	return dev ? &dev->vdev : NULL;
}

static void rnicp_uninit_device(struct verbs_device *vdev)
{
	free((struct rnicp_device *)vdev);
}

/* By name ("rnic0": the simulator's devices and the kernel module's) and by PCI ID (a board). */
static const struct verbs_match_ent rnicp_match_table[] = {
	{ .u.modalias = "rdma_device:*Nrnic*", .kind = VERBS_MATCH_MODALIAS },
	{ .vendor = RNIC_PCI_VENDOR_ID, .device = RNIC_PCI_DEVICE_ID, .kind = VERBS_MATCH_PCI },
	{ .kind = VERBS_MATCH_SENTINEL },
};

static const struct verbs_device_ops rnicp_dev_ops = {
	.name = "rnic",
	.match_min_abi_version = RNICP_UVERBS_ABI,
	.match_max_abi_version = RNICP_UVERBS_ABI,
	.match_table = rnicp_match_table,
	.alloc_context = rnicp_alloc_context,
	.alloc_device = rnicp_alloc_device,
	.uninit_device = rnicp_uninit_device,
};

/* dlopen runs this; libibverbs matches devices against the table later. */
__attribute__((constructor)) static void rnicp_register(void)
{
	verbs_register_driver_34(&rnicp_dev_ops);
}
