/* BAR0 of a simulated NIC: BAR_READ/BAR_WRITE requests to the simulator service over its Unix
 * SOCK_SEQPACKET socket (protocol: host-driver/provider/rnicp_sim_proto.h). Each access waits
 * for its reply, so accesses take effect in the order the tool makes them. */
#define _GNU_SOURCE
#include "tool_bar.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "rnicp_sim_proto.h"

/* A reply slower than this means the simulator is stuck or gone (a BAR access takes
 * microseconds of simulated time). */
#define SIM_REPLY_TIMEOUT_S 60

struct sim_bar {
	struct tool_bar bar;
	int fd;
	uint32_t seq;
};

static char why_buf[256];

/* One request and its reply: 0 with the reply's payload in out, a negative errno from the
 * transport (-EPROTO for a malformed reply), or the service's rc (> -4096, in *svc_rc). */
static int sim_call(struct sim_bar *s, uint32_t op, const void *in, size_t in_len, void *out, size_t out_len,
		    int32_t *svc_rc)
{
	uint8_t msg[RNIC_SVC_MAX_MSG];
	struct rnic_svc_hdr h = { .op = op, .seq = ++s->seq, .flags = RNIC_SVC_F_REPLY, .rc = 0 };
	ssize_t n;

	memcpy(msg, &h, sizeof(h));
	if (in_len)
		memcpy(msg + sizeof(h), in, in_len);
	do
		n = send(s->fd, msg, sizeof(h) + in_len, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	do
		n = recv(s->fd, msg, sizeof(msg), 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno == EAGAIN || errno == EWOULDBLOCK ? -ETIMEDOUT : -errno;
	if (n == 0)
		return -ECONNRESET;
	if ((size_t)n < sizeof(h))
		return -EPROTO;
	memcpy(&h, msg, sizeof(h));
	if (h.op != op || h.seq != s->seq)
		return -EPROTO;
	*svc_rc = h.rc;
	if (h.rc)
		return 0;
	if ((size_t)n < sizeof(h) + out_len)
		return -EPROTO;
	memcpy(out, msg + sizeof(h), out_len);
	return 0;
}

void tool_bar_fatal(const struct tool_bar *bar, const char *what, int err)
{
	fprintf(stderr, "rnic-tool: %s: %s: %s\n", bar->name, what,
		err == -EPROTO ? "malformed reply from the simulator" : strerror(-err));
	exit(1);
}

static uint32_t sim_rd32(struct tool_bar *bar, uint32_t off)
{
	struct sim_bar *s = (struct sim_bar *)bar;
	/* The protocol header names svc_u32 (the offset) as BAR_READ's input; the service reads a
	 * whole svc_bar. A svc_bar starting with the offset satisfies both. */
	struct rnic_svc_bar in = { off, 0, 0 };
	struct rnic_svc_bar out;
	int32_t rc = 0;
	int err = sim_call(s, RNIC_SVC_BAR_READ, &in, sizeof(in), &out, sizeof(out), &rc);

	bar->reads++;
	if (err)
		tool_bar_fatal(bar, "BAR read", err);
	if (rc || out.resp) {
		bar->errors++;
		return 0xFFFFFFFFu;
	}
	return out.val;
}

static void sim_wr32(struct tool_bar *bar, uint32_t off, uint32_t val)
{
	struct sim_bar *s = (struct sim_bar *)bar;
	struct rnic_svc_bar in = { off, val, 0 };
	struct rnic_svc_bar out;
	int32_t rc = 0;
	int err = sim_call(s, RNIC_SVC_BAR_WRITE, &in, sizeof(in), &out, sizeof(out), &rc);

	bar->writes++;
	if (err)
		tool_bar_fatal(bar, "BAR write", err);
	if (rc || out.resp)
		bar->errors++;
}

static void sim_close(struct tool_bar *bar)
{
	struct sim_bar *s = (struct sim_bar *)bar;

	close(s->fd);
	free(s);
}

static const struct tool_bar_ops sim_ops = { sim_rd32, sim_wr32, sim_close };

int tool_bar_open_sim(struct tool_bar **out, const char *path, const char *ibdev, unsigned *num_nics,
		      const char **why)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct timeval tv = { .tv_sec = SIM_REPLY_TIMEOUT_S };
	struct rnic_svc_hello hello = { .version = RNIC_SVC_VERSION, .kind = RNIC_SVC_KIND_BAR };
	struct rnic_svc_hello_out ho;
	struct sim_bar *s;
	int32_t rc = 0;
	int err;

	*why = why_buf;
	if (strlen(path) >= sizeof(sa.sun_path)) {
		snprintf(why_buf, sizeof(why_buf), "simulator socket path too long: %s", path);
		return -ENAMETOOLONG;
	}
	if (strlen(ibdev) >= sizeof(hello.ibdev)) {
		snprintf(why_buf, sizeof(why_buf), "device name too long: %s", ibdev);
		return -EINVAL;
	}
	strcpy(sa.sun_path, path);
	strcpy(hello.ibdev, ibdev);
	s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(why_buf, sizeof(why_buf), "out of memory");
		return -ENOMEM;
	}
	s->fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (s->fd < 0 || setsockopt(s->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    connect(s->fd, (struct sockaddr *)&sa, sizeof(sa))) {
		err = -errno;
		snprintf(why_buf, sizeof(why_buf), "cannot connect to the simulator at %s: %s", path, strerror(-err));
		goto fail;
	}
	s->bar.ops = &sim_ops;
	snprintf(s->bar.name, sizeof(s->bar.name), "%s (simulator)", ibdev);
	s->bar.size = RNIC_BAR0_SIZE;
	err = sim_call(s, RNIC_SVC_HELLO, &hello, sizeof(hello), &ho, sizeof(ho), &rc);
	if (err) {
		snprintf(why_buf, sizeof(why_buf), "simulator at %s: HELLO failed: %s", path,
			 err == -EPROTO ? "malformed reply" : strerror(-err));
		goto fail;
	}
	if (rc) {
		err = rc;
		snprintf(why_buf, sizeof(why_buf), "simulator at %s refused %s: %s", path, ibdev, strerror(-rc));
		goto fail;
	}
	if (ho.version != RNIC_SVC_VERSION) {
		err = -EPROTONOSUPPORT;
		snprintf(why_buf, sizeof(why_buf), "simulator at %s speaks protocol version %u, this tool %u", path,
			 ho.version, RNIC_SVC_VERSION);
		goto fail;
	}
	if (num_nics)
		*num_nics = ho.num_nics;
	*out = &s->bar;
	*why = NULL;
	return 0;
fail:
	if (s->fd >= 0)
		close(s->fd);
	free(s);
	return err;
}

void tool_bar_close(struct tool_bar *bar)
{
	if (bar)
		bar->ops->close(bar);
}
