/* verbs_check: our own libibverbs program for what the stock clients do not exercise: bad
 * input at post time, error completions, and isolation between processes attached to the
 * simulated NICs. Runs under `rnic-sim run` (needs rnic0 and rnic1 linked back to back) and
 * prints one line per check, `PASS name` or `FAIL name why`.
 *   verbs_check neg        bad work requests, a bad lkey, a too-long UD message
 *   verbs_check atomic     FETCH_AND_ADD and CMP_AND_SWP, values checked on both sides (with
 *                          ATOMIC_NO_MR_ACCESS=1: the target MR lacks REMOTE_ATOMIC, REM_ACCESS_ERR)
 *   verbs_check async      a CQ overrun arrives as IBV_EVENT_CQ_ERR on the context's async_fd
 *   verbs_check isolation  a second process (this program, mode attacker) tries to reach this
 *                          one's QP and memory, then dies holding resources; traffic goes on
 * Exit status: 0 when every check passed. */
#define _GNU_SOURCE
#include <errno.h>
#include <infiniband/verbs.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rnicp_sim_proto.h"

static int failures;

static void check(int ok, const char *name, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
#include <stdarg.h>
static void check(int ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		printf("PASS %s\n", name);
	} else {
		printf("FAIL %s ", name);
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		printf("\n");
		failures++;
	}
	fflush(stdout);
}

static void die(const char *what)
{
	printf("FAIL setup %s: %s\n", what, strerror(errno));
	exit(1);
}

struct end {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	uint8_t *buf;
	union ibv_gid gid;
	int type;
};

static struct ibv_context *open_dev(const char *name)
{
	int n;
	struct ibv_device **l = ibv_get_device_list(&n);
	struct ibv_context *c = NULL;

	if (!l)
		die("ibv_get_device_list");
	for (int i = 0; i < n; i++)
		if (!strcmp(ibv_get_device_name(l[i]), name))
			c = ibv_open_device(l[i]);
	ibv_free_device_list(l);
	if (!c)
		die(name);
	return c;
}

static int cq_entries = 64;	/* CQ size make_end asks for */
static int qp_access = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ; /* what connect_end grants */
static int rd_atomic = 1;	/* max_rd_atomic and max_dest_rd_atomic connect_end sets */

static void make_end(struct end *e, const char *dev, int type, size_t len)
{
	struct ibv_qp_init_attr qa = { 0 };

	e->type = type;
	e->ctx = open_dev(dev);
	if (!(e->pd = ibv_alloc_pd(e->ctx)))
		die("ibv_alloc_pd");
	if (posix_memalign((void **)&e->buf, 4096, len))
		die("posix_memalign");
	memset(e->buf, 0, len);
	e->mr = ibv_reg_mr(e->pd, e->buf, len, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			   IBV_ACCESS_REMOTE_READ);
	if (!e->mr)
		die("ibv_reg_mr");
	if (!(e->cq = ibv_create_cq(e->ctx, cq_entries, NULL, NULL, 0)))
		die("ibv_create_cq");
	qa.send_cq = qa.recv_cq = e->cq;
	qa.qp_type = type;
	qa.cap.max_send_wr = 16;
	qa.cap.max_recv_wr = 16;
	qa.cap.max_send_sge = 4;
	qa.cap.max_recv_sge = 1;
	qa.cap.max_inline_data = 64;
	if (!(e->qp = ibv_create_qp(e->pd, &qa)))
		die("ibv_create_qp");
	if (ibv_query_gid(e->ctx, 1, 1, &e->gid))
		die("ibv_query_gid");
}

/* Destroys what make_end created, through the verbs: 0 when every call succeeded. */
static int destroy_end(struct end *e)
{
	int rc = ibv_destroy_qp(e->qp) | ibv_dereg_mr(e->mr) | ibv_destroy_cq(e->cq) | ibv_dealloc_pd(e->pd) |
		 ibv_close_device(e->ctx);

	free(e->buf);
	return rc;
}

/* RC: INIT -> RTR -> RTS toward peer (GID index 1, the IPv4 one); UD: with Q_Key 0x11111111.
 * With only_rtr the QP stays in RTR: a passive responder, as perftest's servers leave theirs. */
static int connect_end_to(struct end *e, const struct end *peer, int only_rtr)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = 1,
				 .qp_access_flags = qp_access, .qkey = 0x11111111 };
	int ud = e->type == IBV_QPT_UD;

	if (ibv_modify_qp(e->qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
			  (ud ? IBV_QP_QKEY : IBV_QP_ACCESS_FLAGS)))
		return -1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = peer->qp->qp_num;
	a.rq_psn = 0x100;
	a.max_dest_rd_atomic = rd_atomic;
	a.min_rnr_timer = 12;
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.dgid = peer->gid;
	a.ah_attr.grh.sgid_index = 1;
	a.ah_attr.grh.hop_limit = 64;
	a.ah_attr.port_num = 1;
	if (ibv_modify_qp(e->qp, &a, ud ? IBV_QP_STATE : IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
			  IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
		return -1;
	if (only_rtr)
		return 0;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = 0x100;
	a.timeout = 10;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = rd_atomic;
	return ibv_modify_qp(e->qp, &a, ud ? IBV_QP_STATE | IBV_QP_SQ_PSN : IBV_QP_STATE | IBV_QP_SQ_PSN |
			     IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC);
}

static int connect_end(struct end *e, const struct end *peer)
{
	return connect_end_to(e, peer, 0);
}

/* One completion within ~wall seconds (the simulation is slow), or -1. */
static int poll_one(struct ibv_cq *cq, struct ibv_wc *wc, int wall_s)
{
	for (long i = 0; i < wall_s * 20000L; i++) {
		int n = ibv_poll_cq(cq, 1, wc);

		if (n)
			return n > 0 ? 0 : -1;
		usleep(50);
	}
	return -1;
}

static int post_write(struct end *e, uint32_t lkey, void *local, uint32_t len, uint64_t raddr, uint32_t rkey,
		      uint64_t wr_id)
{
	struct ibv_sge s = { (uintptr_t)local, len, lkey };
	struct ibv_send_wr wr = { .wr_id = wr_id, .sg_list = &s, .num_sge = 1, .opcode = IBV_WR_RDMA_WRITE,
				  .send_flags = IBV_SEND_SIGNALED }, *bad = NULL;

	wr.wr.rdma.remote_addr = raddr;
	wr.wr.rdma.rkey = rkey;
	return ibv_post_send(e->qp, &wr, &bad);
}

static int mode_neg(void)
{
	struct end a, b;
	struct ibv_sge sg[5];
	struct ibv_send_wr wr, *bad;
	struct ibv_wc wc;
	int rc;

	make_end(&a, "rnic0", IBV_QPT_RC, 65536);
	make_end(&b, "rnic1", IBV_QPT_RC, 65536);
	for (int i = 0; i < 5; i++)
		sg[i] = (struct ibv_sge){ (uintptr_t)a.buf + 64 * i, 64, a.mr->lkey };

	memset(&wr, 0, sizeof(wr));
	wr.sg_list = sg;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_RDMA_WRITE;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.wr.rdma.remote_addr = (uintptr_t)b.buf;
	wr.wr.rdma.rkey = b.mr->rkey;
	bad = NULL;
	rc = ibv_post_send(a.qp, &wr, &bad);
	check(rc != 0 && bad == &wr, "post-send-in-reset", "ibv_post_send on a RESET QP returned %d", rc);

	check(!connect_end(&a, &b) && !connect_end(&b, &a), "rc-connect", "modify to RTS: %s", strerror(errno));

	wr.num_sge = 5;
	bad = NULL;
	rc = ibv_post_send(a.qp, &wr, &bad);
	check(rc == EINVAL && bad == &wr, "post-too-many-sge", "5 SGEs on a QP of 4: %d", rc);

	struct ibv_qp_attr qa;
	struct ibv_qp_init_attr qi;
	ibv_query_qp(a.qp, &qa, IBV_QP_CAP, &qi);
	static uint8_t big[4096];
	struct ibv_sge is = { (uintptr_t)big, qa.cap.max_inline_data + 1, 0 };
	wr.sg_list = &is;
	wr.num_sge = 1;
	wr.send_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE;
	bad = NULL;
	rc = ibv_post_send(a.qp, &wr, &bad);
	check(rc == EINVAL && bad == &wr, "post-inline-too-long", "%u inline bytes (max %u): %d",
	      qa.cap.max_inline_data + 1, qa.cap.max_inline_data, rc);

	wr.sg_list = sg;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.opcode = (enum ibv_wr_opcode)0x7f;
	bad = NULL;
	rc = ibv_post_send(a.qp, &wr, &bad);
	check(rc != 0 && bad == &wr, "post-unknown-opcode", "opcode 0x7f: %d", rc);

	/* A good WRITE, checked byte for byte, then one with a key that was never issued. */
	for (int i = 0; i < 4096; i++)
		a.buf[i] = (uint8_t)(i * 7 + 3);
	rc = post_write(&a, a.mr->lkey, a.buf, 4096, (uintptr_t)b.buf + 8192, b.mr->rkey, 1);
	check(!rc && !poll_one(a.cq, &wc, 120) && wc.status == IBV_WC_SUCCESS && wc.wr_id == 1 &&
	      !memcmp(a.buf, b.buf + 8192, 4096), "write-4k-byte-exact", "rc %d status %d", rc, wc.status);

	memset(b.buf + 16384, 0xEE, 4096);
	rc = post_write(&a, a.mr->lkey ^ 0x800000, a.buf, 4096, (uintptr_t)b.buf + 16384, b.mr->rkey, 2);
	wc.status = IBV_WC_SUCCESS;
	int got = !rc ? poll_one(a.cq, &wc, 120) : -1;
	int untouched = 1;
	for (int i = 0; i < 4096; i++)
		untouched &= b.buf[16384 + i] == 0xEE;
	check(!got && wc.status == IBV_WC_LOC_PROT_ERR && wc.wr_id == 2 && untouched, "write-bad-lkey-error-completion",
	      "post %d poll %d status %s (%d), target untouched %d", rc, got, ibv_wc_status_str(wc.status), wc.status,
	      untouched);

	/* UD: a message longer than the path MTU is refused at post time. */
	struct end ua, ub;
	struct ibv_port_attr pa;
	make_end(&ua, "rnic0", IBV_QPT_UD, 16384);
	make_end(&ub, "rnic1", IBV_QPT_UD, 16384);
	ibv_query_port(ua.ctx, 1, &pa);
	check(!connect_end(&ua, &ub), "ud-ready", "UD to RTS: %s", strerror(errno));
	struct ibv_ah_attr ah_attr = { .is_global = 1, .port_num = 1,
				       .grh = { .dgid = ub.gid, .sgid_index = 1, .hop_limit = 64 } };
	struct ibv_ah *ah = ibv_create_ah(ua.pd, &ah_attr);
	ah_attr.is_global = 0;
	struct ibv_ah *ah_local = ibv_create_ah(ua.pd, &ah_attr);
	check(ah && !ah_local, "ud-ah-must-be-global", "global AH %p, non-global AH %p (must fail)", (void *)ah,
	      (void *)ah_local);
	uint32_t mtu = 128u << pa.active_mtu;
	struct ibv_sge us = { (uintptr_t)ua.buf, mtu + 1, ua.mr->lkey };
	struct ibv_send_wr uw = { .wr_id = 9, .sg_list = &us, .num_sge = 1, .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED };
	uw.wr.ud.ah = ah;
	uw.wr.ud.remote_qpn = ub.qp->qp_num;
	uw.wr.ud.remote_qkey = 0x11111111;
	bad = NULL;
	rc = ah ? ibv_post_send(ua.qp, &uw, &bad) : -1;
	check(rc != 0 && bad == &uw, "ud-too-long", "%u bytes on a %u-byte MTU: %d", mtu + 1, mtu, rc);
	return failures ? 1 : 0;
}

/* One request on a raw service connection: the reply's rc. */
static int raw_call(int fd, uint32_t op, const void *in, size_t len)
{
	uint8_t m[RNIC_SVC_MAX_MSG];
	struct rnic_svc_hdr h = { .op = op, .seq = 1, .flags = RNIC_SVC_F_REPLY };

	memcpy(m, &h, sizeof(h));
	memcpy(m + sizeof(h), in, len);
	if (send(fd, m, sizeof(h) + len, 0) < 0 || recv(fd, m, sizeof(m), 0) < (ssize_t)sizeof(h))
		return -EPIPE;
	memcpy(&h, m, sizeof(h));
	return h.rc;
}

/* The attacker: a second process on rnic0 with its own context, handed the victim's QPN and
 * lkey. It must not be able to modify or destroy the victim's QP, nor read the victim's memory
 * through the victim's lkey; then it exits holding its resources. */
static int mode_attacker(uint32_t vqpn, uint32_t vlkey, uint64_t vaddr)
{
	struct end x, y;
	struct ibv_wc wc;
	int rc;

	make_end(&x, "rnic0", IBV_QPT_RC, 16384);
	make_end(&y, "rnic1", IBV_QPT_RC, 16384);
	/* Forged commands straight on the service's socket, naming the victim's QP and MR: the
	 * service must refuse what this connection did not create. */
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", getenv(RNIC_SVC_ENV) ? getenv(RNIC_SVC_ENV) : "");
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
		die("connect to the service");
	struct rnic_svc_hello hi = { .version = RNIC_SVC_VERSION, .kind = RNIC_SVC_KIND_VERBS, .ibdev = "rnic0" };
	struct rnic_svc_modify_qp mq = { .qpn = vqpn, .attr_mask = 1u << 0 /* STATE */ };
	struct rnic_svc_u32 vq = { vqpn }, vk = { vlkey };
	mq.attr.state = IBV_QPS_ERR;
	check(raw_call(fd, RNIC_SVC_HELLO, &hi, sizeof(hi)) == 0, "isolation-raw-hello", "HELLO refused");
	rc = raw_call(fd, RNIC_SVC_MODIFY_QP, &mq, sizeof(mq));
	check(rc == -ENOENT, "isolation-forged-modify-qp-refused", "MODIFY_QP of QP 0x%x: %d", vqpn, rc);
	rc = raw_call(fd, RNIC_SVC_QUERY_QP, &vq, sizeof(vq));
	check(rc == -ENOENT, "isolation-forged-query-qp-refused", "QUERY_QP: %d", rc);
	rc = raw_call(fd, RNIC_SVC_DESTROY_QP, &vq, sizeof(vq));
	check(rc == -ENOENT, "isolation-forged-destroy-qp-refused", "DESTROY_QP: %d", rc);
	rc = raw_call(fd, RNIC_SVC_DEREG_MR, &vk, sizeof(vk));
	check(rc == -ENOENT, "isolation-forged-dereg-mr-refused", "DEREG_MR of lkey 0x%x: %d", vlkey, rc);
	close(fd);

	check(!connect_end(&x, &y) && !connect_end(&y, &x), "isolation-attacker-connect", "%s", strerror(errno));
	/* Reads through the victim's lkey: another PD's key, so the NIC refuses it. */
	rc = post_write(&x, vlkey, (void *)(uintptr_t)vaddr, 4096, (uintptr_t)y.buf, y.mr->rkey, 7);
	wc.status = IBV_WC_SUCCESS;
	int got = !rc ? poll_one(x.cq, &wc, 120) : -1;
	int leaked = 0;
	for (int i = 0; i < 4096; i++)
		leaked |= y.buf[i] != 0;
	check(!got && wc.status != IBV_WC_SUCCESS && !leaked, "isolation-foreign-lkey-refused",
	      "post %d poll %d status %s, bytes copied %d", rc, got, ibv_wc_status_str(wc.status), leaked);
	fflush(stdout);
	_exit(failures ? 1 : 0); /* no cleanup: the service must destroy what is left */
}

static int mode_isolation(const char *self)
{
	struct end v, w;
	struct ibv_wc wc;
	char q[32], l[32], ad[32];
	int st = 0, rc;

	make_end(&v, "rnic0", IBV_QPT_RC, 65536);
	make_end(&w, "rnic1", IBV_QPT_RC, 65536);
	check(!connect_end(&v, &w) && !connect_end(&w, &v), "isolation-victim-connect", "%s", strerror(errno));
	for (int i = 0; i < 65536; i++)
		v.buf[i] = (uint8_t)(i ^ 0x5A);
	snprintf(q, sizeof(q), "%u", v.qp->qp_num);
	snprintf(l, sizeof(l), "%u", v.mr->lkey);
	snprintf(ad, sizeof(ad), "%llu", (unsigned long long)(uintptr_t)v.buf);
	fflush(stdout);
	pid_t p = fork();
	if (p == 0) {
		execl(self, self, "attacker", q, l, ad, (char *)NULL);
		_exit(127);
	}
	waitpid(p, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "isolation-attacker-exited", "status 0x%x", st);

	/* The victim's QP still works after all that, and its data arrives intact. */
	struct ibv_qp_attr qa;
	struct ibv_qp_init_attr qi;
	rc = ibv_query_qp(v.qp, &qa, IBV_QP_STATE, &qi);
	check(!rc && qa.qp_state == IBV_QPS_RTS, "isolation-victim-qp-still-rts", "rc %d state %d", rc, qa.qp_state);
	rc = post_write(&v, v.mr->lkey, v.buf, 65536, (uintptr_t)w.buf, w.mr->rkey, 3);
	check(!rc && !poll_one(v.cq, &wc, 300) && wc.status == IBV_WC_SUCCESS && !memcmp(v.buf, w.buf, 65536),
	      "isolation-victim-traffic-after", "rc %d status %d", rc, wc.status);
	/* The victim cleans up: the service then has only the attacker's leftovers to destroy. */
	check(!destroy_end(&v) && !destroy_end(&w), "destroy-through-verbs", "a destroy call failed");
	return failures ? 1 : 0;
}

/* Atomics through the verbs: FETCH_AND_ADD then CMP_AND_SWP on an 8-byte word of the peer,
 * the original values landing in local memory, the target updated. */
static int mode_atomic(void)
{
	struct end a, b;
	struct ibv_wc wc;
	struct ibv_sge s;
	struct ibv_send_wr wr, *bad;
	uint64_t *target, *orig;
	int rc;

	make_end(&a, "rnic0", IBV_QPT_RC, 65536);
	make_end(&b, "rnic1", IBV_QPT_RC, 65536);
	ibv_dereg_mr(b.mr); /* the target needs REMOTE_ATOMIC */
	b.mr = ibv_reg_mr(b.pd, b.buf, 65536, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			  IBV_ACCESS_REMOTE_READ | (getenv("ATOMIC_NO_MR_ACCESS") ? 0 : IBV_ACCESS_REMOTE_ATOMIC));
	if (!b.mr)
		die("ibv_reg_mr atomic");
	qp_access = IBV_ACCESS_REMOTE_ATOMIC; /* as perftest's ib_atomic_bw grants */
	rd_atomic = 16;
	/* the responder stays in RTR, as ib_atomic_bw's server does: it must answer from there */
	check(!connect_end(&a, &b) && !connect_end_to(&b, &a, 1), "atomic-connect-responder-in-rtr", "%s",
	      strerror(errno));
	target = (uint64_t *)(b.buf + 4096);
	orig = (uint64_t *)(a.buf + 8192);
	*target = 1000;
	*orig = 0xdeadbeef;
	s = (struct ibv_sge){ (uintptr_t)orig, 8, a.mr->lkey };
	memset(&wr, 0, sizeof(wr));
	wr.wr_id = 21;
	wr.sg_list = &s;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.wr.atomic.remote_addr = (uintptr_t)target;
	wr.wr.atomic.rkey = b.mr->rkey;
	wr.wr.atomic.compare_add = 5;
	rc = ibv_post_send(a.qp, &wr, &bad);
	memset(&wc, 0, sizeof(wc));
	if (getenv("ATOMIC_NO_MR_ACCESS")) {
		int got = !rc ? poll_one(a.cq, &wc, 120) : -1;
		check(!got && wc.wr_id == 21 && wc.status == IBV_WC_REM_ACCESS_ERR && *orig == 0xdeadbeef &&
		      *target == 1000, "atomic-without-access-rem-access-err",
		      "poll %d wr_id %llu status %s opcode %d orig 0x%llx target %llu", got, (unsigned long long)wc.wr_id,
		      ibv_wc_status_str(wc.status), wc.opcode, (unsigned long long)*orig, (unsigned long long)*target);
		return failures ? 1 : 0;
	}
	check(!rc && !poll_one(a.cq, &wc, 120) && wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_FETCH_ADD &&
	      wc.wr_id == 21 && *orig == 1000 && *target == 1005, "atomic-fetch-add",
	      "rc %d wr_id %llu status %s orig %llu target %llu", rc, (unsigned long long)wc.wr_id,
	      ibv_wc_status_str(wc.status), (unsigned long long)*orig, (unsigned long long)*target);
	wr.wr_id = 22;
	wr.opcode = IBV_WR_ATOMIC_CMP_AND_SWP;
	wr.wr.atomic.compare_add = 1005;
	wr.wr.atomic.swap = 77;
	rc = ibv_post_send(a.qp, &wr, &bad);
	check(!rc && !poll_one(a.cq, &wc, 120) && wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_COMP_SWAP &&
	      *orig == 1005 && *target == 77, "atomic-cmp-swap", "rc %d status %s orig %llu target %llu", rc,
	      ibv_wc_status_str(wc.status), (unsigned long long)*orig, (unsigned long long)*target);
	check(!destroy_end(&a) && !destroy_end(&b), "atomic-destroy", "a destroy call failed");
	return failures ? 1 : 0;
}

/* Asynchronous events: a CQ of 2 entries takes 4 signaled completions without being polled;
 * the NIC declares it overrun (CQ_ERROR event), and the process reads IBV_EVENT_CQ_ERR for that
 * CQ from its context's async_fd with ibv_get_async_event. */
static int mode_async(void)
{
	struct end a, b;
	struct ibv_async_event ev;
	struct pollfd p;
	int rc = 0;

	cq_entries = 2;
	make_end(&a, "rnic0", IBV_QPT_RC, 65536);
	cq_entries = 64;
	make_end(&b, "rnic1", IBV_QPT_RC, 65536);
	check(!connect_end(&a, &b) && !connect_end(&b, &a), "async-connect", "%s", strerror(errno));
	for (int i = 0; i < 4 && !rc; i++)
		rc = post_write(&a, a.mr->lkey, a.buf, 64, (uintptr_t)b.buf, b.mr->rkey, 10 + i);
	check(!rc, "async-post-4", "post: %d", rc);
	p.fd = a.ctx->async_fd;
	p.events = POLLIN;
	int ready = poll(&p, 1, 120000);
	rc = ready == 1 ? ibv_get_async_event(a.ctx, &ev) : -1;
	check(!rc && ev.event_type == IBV_EVENT_CQ_ERR && ev.element.cq == a.cq, "async-cq-overrun-event",
	      "poll %d, ibv_get_async_event %d, type %d (%s), cq %p (ours %p)", ready, rc, rc ? -1 : (int)ev.event_type,
	      rc ? "-" : ibv_event_type_str(ev.event_type), rc ? NULL : (void *)ev.element.cq, (void *)a.cq);
	if (!rc)
		ibv_ack_async_event(&ev);
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 2 && !strcmp(argv[1], "neg"))
		return mode_neg();
	if (argc == 2 && !strcmp(argv[1], "atomic"))
		return mode_atomic();
	if (argc == 2 && !strcmp(argv[1], "async"))
		return mode_async();
	if (argc == 2 && !strcmp(argv[1], "isolation"))
		return mode_isolation(argv[0]);
	if (argc == 5 && !strcmp(argv[1], "attacker"))
		return mode_attacker((uint32_t)strtoul(argv[2], NULL, 0), (uint32_t)strtoul(argv[3], NULL, 0),
				     strtoull(argv[4], NULL, 0));
	fprintf(stderr, "usage: verbs_check neg|isolation\n");
	return 2;
}
