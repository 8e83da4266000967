/* The simulator backend: the control path and the doorbells of one device context go to the
 * `rnic-sim run` service over its Unix socket (rnicp_sim_proto.h). Requests wait for their
 * reply; doorbells and BlueFlame writes are sent without one, and the service executes every
 * message of this connection in the order it was sent. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "rnicp_backend.h"
#include "rnicp_sim_proto.h"

struct rnicp_be {
	int fd, ev_fd;		/* requests; asynchronous events (-1 until asked for) */
	uint32_t seq, uctx;
	char ibdev[64];
	pthread_mutex_t lock;	/* one request in flight per connection */
};

/* Sends op with its input and, for requests, waits for the reply and copies its output. */
static int call(struct rnicp_be *be, uint32_t op, const void *in, size_t in_len, void *out, size_t out_len)
{
	uint8_t msg[RNIC_SVC_MAX_MSG];
	struct rnic_svc_hdr h = { .op = op, .flags = RNIC_SVC_F_REPLY };
	ssize_t n;
	int rc;

	if (sizeof(h) + in_len > sizeof(msg))
		return -EINVAL;
	pthread_mutex_lock(&be->lock);
	h.seq = ++be->seq;
	memcpy(msg, &h, sizeof(h));
	if (in_len)
		memcpy(msg + sizeof(h), in, in_len);
	if (send(be->fd, msg, sizeof(h) + in_len, MSG_NOSIGNAL) < 0) {
		rc = -errno;
		goto out;
	}
	do {
		n = recv(be->fd, msg, sizeof(msg), 0);
	} while (n < 0 && errno == EINTR);
	if (n < (ssize_t)sizeof(h)) {
		rc = n < 0 ? -errno : -ECONNRESET; /* the simulator went away */
		goto out;
	}
	memcpy(&h, msg, sizeof(h));
	if (h.op != op || h.seq != be->seq) {
		rc = -EPROTO;
		goto out;
	}
	rc = h.rc;
	if (!rc && out_len) {
		if ((size_t)n < sizeof(h) + out_len)
			rc = -EPROTO;
		else
			memcpy(out, msg + sizeof(h), out_len);
	}
out:
	pthread_mutex_unlock(&be->lock);
	return rc;
}

/* Doorbells: no reply, order kept by the connection. */
static void post(struct rnicp_be *be, uint32_t op, const void *in, size_t in_len)
{
	uint8_t msg[RNIC_SVC_MAX_MSG];
	struct rnic_svc_hdr h = { .op = op };

	pthread_mutex_lock(&be->lock);
	h.seq = ++be->seq;
	memcpy(msg, &h, sizeof(h));
	memcpy(msg + sizeof(h), in, in_len);
	if (send(be->fd, msg, sizeof(h) + in_len, MSG_NOSIGNAL) < 0 && !getenv("RNIC_SIM_QUIET"))
		fprintf(stderr, "rnic: doorbell lost, the simulator is gone: %s\n", strerror(errno));
	pthread_mutex_unlock(&be->lock);
}

/* A new connection to the service, greeted as kind for be->ibdev: its fd or a negative errno.
 * The HELLO goes through call() on be with the new fd swapped in (one request in flight). */
static int sim_connect(struct rnicp_be *be, uint32_t kind, int *fd_out)
{
	const char *path = getenv(RNIC_SVC_ENV);
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	struct rnic_svc_hello hi = { .version = RNIC_SVC_VERSION, .kind = kind, .uctx = be->uctx };
	struct rnic_svc_hello_out ho;
	int fd, saved, rc;

	if (!path || strlen(path) >= sizeof(a.sun_path))
		return -EINVAL;
	strcpy(a.sun_path, path);
	strcpy(hi.ibdev, be->ibdev);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) != 0) {
		rc = -errno;
		close(fd);
		return rc;
	}
	saved = be->fd;
	be->fd = fd;
	rc = call(be, RNIC_SVC_HELLO, &hi, sizeof(hi), &ho, sizeof(ho));
	be->fd = saved;
	if (rc) {
		close(fd);
		return rc;
	}
	if (kind == RNIC_SVC_KIND_VERBS)
		be->uctx = ho.uctx;
	*fd_out = fd;
	return 0;
}

static int sim_open(const char *ibdev, struct rnicp_be **out)
{
	struct rnicp_be *be;
	int rc;

	if (strlen(ibdev) >= sizeof(be->ibdev))
		return -EINVAL;
	be = calloc(1, sizeof(*be));
	if (!be)
		return -ENOMEM;
	pthread_mutex_init(&be->lock, NULL);
	strcpy(be->ibdev, ibdev);
	be->fd = be->ev_fd = -1;
	rc = sim_connect(be, RNIC_SVC_KIND_VERBS, &be->fd);
	if (rc) {
		pthread_mutex_destroy(&be->lock);
		free(be);
		return rc;
	}
	*out = be;
	return 0;
}

/* Closing the connection is enough: the service destroys what is left of this context. */
static void sim_close(struct rnicp_be *be)
{
	close(be->fd);
	if (be->ev_fd >= 0)
		close(be->ev_fd);
	pthread_mutex_destroy(&be->lock);
	free(be);
}

static uint32_t sim_uctx(struct rnicp_be *be)
{
	return be->uctx;
}

/* A second connection on which the service sends this context's asynchronous events as bare
 * struct ib_uverbs_async_event_desc, what libibverbs reads from async_fd. */
static int sim_event_fd(struct rnicp_be *be)
{
	if (be->ev_fd < 0 && sim_connect(be, RNIC_SVC_KIND_EVENTS, &be->ev_fd))
		be->ev_fd = -1;
	return be->ev_fd;
}

static int sim_query_device(struct rnicp_be *be, struct rnic_device_attr *out)
{
	return call(be, RNIC_SVC_QUERY_DEVICE, NULL, 0, out, sizeof(*out));
}

static int sim_query_port(struct rnicp_be *be, uint32_t port, struct rnic_port_attr *out)
{
	struct rnic_svc_u32 p = { port };

	return call(be, RNIC_SVC_QUERY_PORT, &p, sizeof(p), out, sizeof(*out));
}

static int sim_alloc_pd(struct rnicp_be *be, uint32_t *pdn)
{
	struct rnic_svc_u32 o;
	int rc = call(be, RNIC_SVC_ALLOC_PD, NULL, 0, &o, sizeof(o));

	if (!rc)
		*pdn = o.v;
	return rc;
}

static int put_u32(struct rnicp_be *be, uint32_t op, uint32_t v)
{
	struct rnic_svc_u32 p = { v };

	return call(be, op, &p, sizeof(p), NULL, 0);
}

static int sim_dealloc_pd(struct rnicp_be *be, uint32_t pdn)
{
	return put_u32(be, RNIC_SVC_DEALLOC_PD, pdn);
}

static int sim_reg_mr(struct rnicp_be *be, uint32_t pdn, void *addr, uint64_t len, uint64_t iova,
		      uint32_t access, uint32_t *lkey, uint32_t *rkey)
{
	struct rnic_svc_reg_mr r = { .pdn = pdn, .access = access, .addr = (uintptr_t)addr,
				     .len = len, .iova = iova };
	struct rnic_svc_reg_mr_out o;
	int rc = call(be, RNIC_SVC_REG_MR, &r, sizeof(r), &o, sizeof(o));

	if (!rc) {
		*lkey = o.lkey;
		*rkey = o.rkey;
	}
	return rc;
}

static int sim_dereg_mr(struct rnicp_be *be, uint32_t lkey)
{
	return put_u32(be, RNIC_SVC_DEREG_MR, lkey);
}

static int sim_create_cq(struct rnicp_be *be, uint32_t log_size, void *ring, void *dbrec,
			 uint64_t user_handle, void *channel, uint32_t *cqn)
{
	/* channel: the service delivers no completion events (docs/provider.md) */
	struct rnic_svc_create_cq r = { .log_size = log_size, .ring = (uintptr_t)ring,
					.dbrec = (uintptr_t)dbrec, .user_handle = user_handle };
	struct rnic_svc_u32 o;
	int rc = call(be, RNIC_SVC_CREATE_CQ, &r, sizeof(r), &o, sizeof(o));

	(void)channel;
	if (!rc)
		*cqn = o.v;
	return rc;
}

static int sim_destroy_cq(struct rnicp_be *be, uint32_t cqn)
{
	return put_u32(be, RNIC_SVC_DESTROY_CQ, cqn);
}

static int sim_create_qp(struct rnicp_be *be, const struct rnicp_be_qp_in *in, uint32_t *qpn)
{
	struct rnic_svc_create_qp r = {
		.pdn = in->pdn, .send_cqn = in->send_cqn, .recv_cqn = in->recv_cqn,
		.qp_type = in->qp_type, .sq_log_size = in->sq_log_size,
		.rq_log_size = in->rq_log_size, .rq_log_stride = in->rq_log_stride,
		.max_inline = in->max_inline, .sq_sig_all = in->sq_sig_all,
		.rq_offset = in->rq_offset, .buf = (uintptr_t)in->buf, .buf_len = in->buf_len,
		.user_handle = in->user_handle,
	};
	struct rnic_svc_u32 o;
	int rc = call(be, RNIC_SVC_CREATE_QP, &r, sizeof(r), &o, sizeof(o));

	if (!rc)
		*qpn = o.v;
	return rc;
}

static int sim_modify_qp(struct rnicp_be *be, uint32_t qpn, uint32_t attr_mask,
			 const struct rnic_qp_attr *attr)
{
	struct rnic_svc_modify_qp r = { .qpn = qpn, .attr_mask = attr_mask, .attr = *attr };

	return call(be, RNIC_SVC_MODIFY_QP, &r, sizeof(r), NULL, 0);
}

static int sim_query_qp(struct rnicp_be *be, uint32_t qpn, struct rnic_qp_attr *out)
{
	struct rnic_svc_u32 p = { qpn };

	return call(be, RNIC_SVC_QUERY_QP, &p, sizeof(p), out, sizeof(*out));
}

static int sim_destroy_qp(struct rnicp_be *be, uint32_t qpn)
{
	return put_u32(be, RNIC_SVC_DESTROY_QP, qpn);
}

static int sim_create_ah(struct rnicp_be *be, const struct rnic_create_ah_in *in, uint32_t *ahn)
{
	struct rnic_svc_u32 o;
	int rc = call(be, RNIC_SVC_CREATE_AH, in, sizeof(*in), &o, sizeof(o));

	if (!rc)
		*ahn = o.v;
	return rc;
}

static int sim_destroy_ah(struct rnicp_be *be, uint32_t ahn)
{
	return put_u32(be, RNIC_SVC_DESTROY_AH, ahn);
}

static void sim_db_write32(struct rnicp_be *be, uint32_t off, uint32_t val)
{
	struct rnic_svc_db d = { off, val };

	post(be, RNIC_SVC_DB, &d, sizeof(d));
}

static void sim_bf_write(struct rnicp_be *be, const void *wqe, unsigned bytes, uint32_t bf_db_val)
{
	struct rnic_svc_bf b = { .bytes = bytes, .db_val = bf_db_val };

	if (bytes > sizeof(b.wqe))
		return;
	memcpy(b.wqe, wqe, bytes);
	post(be, RNIC_SVC_BF, &b, sizeof(b));
}

const struct rnicp_be_ops rnicp_be_sim_ops = {
	.name = "simulator",
	.open = sim_open,
	.close = sim_close,
	.uctx = sim_uctx,
	.event_fd = sim_event_fd,
	.query_device = sim_query_device,
	.query_port = sim_query_port,
	.alloc_pd = sim_alloc_pd,
	.dealloc_pd = sim_dealloc_pd,
	.reg_mr = sim_reg_mr,
	.dereg_mr = sim_dereg_mr,
	.create_cq = sim_create_cq,
	.destroy_cq = sim_destroy_cq,
	.create_qp = sim_create_qp,
	.modify_qp = sim_modify_qp,
	.query_qp = sim_query_qp,
	.destroy_qp = sim_destroy_qp,
	.create_ah = sim_create_ah,
	.destroy_ah = sim_destroy_ah,
	.db_write32 = sim_db_write32,
	.bf_write = sim_bf_write,
};
