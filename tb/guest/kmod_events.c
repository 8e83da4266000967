/* Runs inside the guest (tb/guest/kmod.sh, after the traffic): provokes the asynchronous events
 * a QP and a CQ can raise, against two host-side `ibv_rc_pingpong` servers (the simulator's
 * second NIC), and reads them as an application does, with ibv_get_async_event:
 *   qp-access   a receive posted with an lkey that names no region; the server's reply lands
 *               in it: a responder protection error, IBV_EVENT_QP_ACCESS_ERR on that QP;
 *   cq-overrun  six signaled SENDs on a QP whose send CQ holds two, never polled:
 *               IBV_EVENT_CQ_ERR on that CQ;
 *   forged-db   before that, a second context of this process stores an sq_db naming that QP
 *               (the first context's) into its own doorbell page: the firmware must ignore it
 *               (no completion, no event, the QP still RTS).
 * The out-of-band exchange is ibv_rc_pingpong's (rdma-core 44): the client writes
 * "LID:QPN:PSN:GID" (GID as 32 hex digits of its bytes), reads the server's, writes "done".
 *   solicited   a CQ armed for solicited completions only (ibv_req_notify_cq(cq, 1)) against
 *               tb/guest/solicit_peer: no event for a SEND without the solicited flag, one for
 *               a SEND with it, both received byte for byte.
 * Usage: kmod_events HOST PORT_ACCESS PORT_OVERRUN GID_INDEX PORT_SOLICIT. Prints PASS/FAIL lines and an
 * "EVENT <test> <name>" line per event; exit 0 when every check passed. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "rnic_spec.h"
#include "guest_rc.h"

#define BUF 4096

static int failures;

static void check(int ok, const char *name, const char *why)
{
	if (ok) {
		printf("PASS %s\n", name);
	} else {
		printf("FAIL %s %s\n", name, why);
		printf("RERUN tb/guest/test_guest.sh   (outputs in build/guest-kmod/)\n");
		failures++;
	}
	fflush(stdout);
}

struct conn {
	struct ibv_cq *scq, *rcq;
	struct ibv_qp *qp;
};

/* pingpong's client exchange: ours out, the server's in, "done". */
static int exchange(const char *host, const char *port, uint32_t qpn, uint32_t psn,
		    const union ibv_gid *gid, uint32_t *rqpn, uint32_t *rpsn, union ibv_gid *rgid,
		    int *keep)
{
	struct addrinfo hints = { .ai_family = AF_INET, .ai_socktype = SOCK_STREAM }, *res;
	char msg[PP_MSG_LEN];
	int fd, rc = -1;

	if (getaddrinfo(host, port, &hints, &res))
		return -1;
	fd = socket(res->ai_family, res->ai_socktype, 0);
	if (fd < 0 || connect(fd, res->ai_addr, res->ai_addrlen)) {
		freeaddrinfo(res);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	freeaddrinfo(res);
	pp_msg_make(msg, qpn, psn, gid);
	if (write(fd, msg, sizeof msg) != sizeof msg)
		goto out;
	for (size_t got = 0; got < sizeof msg;) {
		ssize_t n = read(fd, msg + got, sizeof msg - got);

		if (n <= 0)
			goto out;
		got += (size_t)n;
	}
	if (write(fd, "done", sizeof "done") != sizeof "done")
		goto out;
	if (pp_msg_parse(msg, rqpn, rpsn, rgid))
		goto out;
	rc = 0;
	if (keep) {	/* the caller talks on: solicit_peer's go bytes */
		*keep = fd;
		return 0;
	}
out:
	close(fd);
	return rc;
}

/* An RC QP (its own CQs of scqe/rcqe entries) connected to the pingpong server at host:port. */
static int connect_qp(struct ibv_context *c, struct ibv_pd *pd, int scqe, int rcqe, int gidx,
		      const char *host, const char *port, struct conn *k, struct ibv_comp_channel *ch,
		      int *keep)
{
	union ibv_gid gid, rgid;
	uint32_t rqpn, rpsn, psn = 0x1234;
	struct ibv_qp_init_attr ia = { .qp_type = IBV_QPT_RC,
				       .cap = { .max_send_wr = 8, .max_recv_wr = 8, .max_send_sge = 1,
						.max_recv_sge = 1 } };
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = 1,
				 .qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE };

	k->scq = ibv_create_cq(c, scqe, NULL, NULL, 0);
	k->rcq = ibv_create_cq(c, rcqe, NULL, ch, 0);
	if (!k->scq || !k->rcq)
		return -1;
	ia.send_cq = k->scq;
	ia.recv_cq = k->rcq;
	k->qp = ibv_create_qp(pd, &ia);
	if (!k->qp || ibv_modify_qp(k->qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
				    IBV_QP_ACCESS_FLAGS))
		return -1;
	if (ibv_query_gid(c, 1, gidx, &gid) ||
	    exchange(host, port, k->qp->qp_num, psn, &gid, &rqpn, &rpsn, &rgid, keep))
		return -1;
	return rc_rtr_rts(k->qp, rqpn, rpsn, &rgid, gidx, psn);
}

static int post_send(struct ibv_qp *qp, struct ibv_mr *mr, uint64_t id)
{
	struct ibv_sge s = { .addr = (uintptr_t)mr->addr, .length = 64, .lkey = mr->lkey };
	struct ibv_send_wr w = { .wr_id = id, .sg_list = &s, .num_sge = 1, .opcode = IBV_WR_SEND,
				 .send_flags = IBV_SEND_SIGNALED }, *bad;

	return ibv_post_send(qp, &w, &bad);
}

static int post_recv(struct ibv_qp *qp, struct ibv_mr *mr, uint32_t lkey)
{
	struct ibv_sge s = { .addr = (uintptr_t)mr->addr + 2048, .length = 2048, .lkey = lkey };
	struct ibv_recv_wr w = { .wr_id = 99, .sg_list = &s, .num_sge = 1 }, *bad;

	return ibv_post_recv(qp, &w, &bad);
}

/* Waits (up to 60 s) for event `want` naming `obj` (a QP or CQ); prints every event seen. */
static int wait_event(struct ibv_context *c, const char *test, enum ibv_event_type want,
		      const void *obj)
{
	for (;;) {
		struct pollfd p = { .fd = c->async_fd, .events = POLLIN };
		struct ibv_async_event ev;
		int hit;

		if (poll(&p, 1, 60000) <= 0) {
			printf("EVENT %s none within 60 s\n", test);
			return 0;
		}
		if (ibv_get_async_event(c, &ev))
			return 0;
		printf("EVENT %s %s\n", test, ibv_event_type_str(ev.event_type));
		hit = ev.event_type == want &&
		      (want == IBV_EVENT_CQ_ERR ? (const void *)ev.element.cq : (const void *)ev.element.qp) == obj;
		ibv_ack_async_event(&ev);
		if (hit)
			return 1;
	}
}

/* The doorbell pages the provider mapped in this process (write-only shared mappings of the
 * uverbs device, one per context; the kernel-allocated rings are read-write): up to max. */
static int db_pages(uintptr_t *out, int max)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	int n = 0;

	if (!f)
		return 0;
	while (n < max && fgets(line, sizeof line, f)) {
		unsigned long lo, hi;
		char perms[8];

		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) == 3 && !strcmp(perms, "-w-s") &&
		    strstr(line, "/dev/infiniband/uverbs"))
			out[n++] = lo;
	}
	fclose(f);
	return n;
}

/* A second context's page: the mapping that appeared when it was opened. */
static volatile uint32_t *new_db_page(const uintptr_t *before, int nb)
{
	uintptr_t now[16];
	int n = db_pages(now, 16);

	for (int i = 0; i < n; i++) {
		int seen = 0;

		for (int j = 0; j < nb; j++)
			seen |= now[i] == before[j];
		if (!seen)
			return (volatile uint32_t *)now[i];
	}
	return NULL;
}

static int forged_doorbell_ignored(struct ibv_device *dev, struct ibv_context *c, struct conn *k)
{
	uintptr_t before[16];
	int nb = db_pages(before, 16);
	struct ibv_context *other = ibv_open_device(dev);
	volatile uint32_t *page = other ? new_db_page(before, nb) : NULL;
	struct pollfd p = { .fd = c->async_fd, .events = POLLIN };
	struct ibv_qp_init_attr ia;
	struct ibv_qp_attr a;
	struct ibv_wc wc;
	uint32_t v = 0;
	int quiet;

	if (!page) {
		printf("forged-db: no second doorbell page found\n");
		if (other)
			ibv_close_device(other);
		return 0;
	}
	rnic_db_word_set_num(&v, k->qp->qp_num);
	rnic_db_word_set_index(&v, 1);
	page[RNIC_DB_SQ_DB / 4] = v;
	quiet = poll(&p, 1, 3000) == 0 && ibv_poll_cq(k->scq, 1, &wc) == 0;
	ibv_close_device(other);
	return quiet && !ibv_query_qp(k->qp, &a, IBV_QP_STATE, &ia) && a.qp_state == IBV_QPS_RTS;
}

static void destroy(struct conn *k);

/* The receive CQ's next completion (up to 60 s of polling): its wc, 1 when one came. */
static int next_wc(struct ibv_cq *cq, struct ibv_wc *wc)
{
	for (int i = 0; i < 60000; i++) {
		int n = ibv_poll_cq(cq, 1, wc);

		if (n)
			return n == 1;
		usleep(1000);
	}
	return 0;
}

/* Solicited-only arming through the kernel (ibv_req_notify_cq(cq, 1)): the host-side
 * solicit_peer sends one 64-byte SEND without the solicited flag at the go byte '1', one with
 * it at '2'. The first completes (byte-exact) without an event; the second raises one. */
static void solicited_only(struct ibv_context *c, struct ibv_pd *pd, struct ibv_mr *mr, int gidx,
			   const char *host, const char *port)
{
	struct ibv_comp_channel *ch = ibv_create_comp_channel(c);
	struct conn k = { 0 };
	struct ibv_wc wc;
	struct pollfd p;
	const uint8_t *rx = (const uint8_t *)mr->addr + 2048;
	int fd = -1, ok, same;

	ok = ch && connect_qp(c, pd, 8, 8, gidx, host, port, &k, ch, &fd) == 0;
	check(ok, "events-solicited-connect", "channel, QP or exchange with solicit_peer failed");
	if (!ok)
		goto out;
	ok = post_recv(k.qp, mr, mr->lkey) == 0 && post_recv(k.qp, mr, mr->lkey) == 0 &&
	     ibv_req_notify_cq(k.rcq, 1) == 0 && write(fd, "1", 1) == 1;
	check(ok, "events-solicited-arm", "post_recv, ibv_req_notify_cq(cq, 1) or the go byte failed");
	if (!ok)
		goto out;
	ok = next_wc(k.rcq, &wc) && wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_RECV &&
	     wc.byte_len == 64;
	same = 1;
	for (int i = 0; i < 64; i++)
		same &= rx[i] == (uint8_t)(i * 7 + 1);
	check(ok && same, "events-unsolicited-received", "no receive completion of 64 bytes with the peer's first pattern");
	sleep(2);	/* an event, if the arm were wrong, comes with the CQE: give it time */
	p = (struct pollfd){ .fd = ch->fd, .events = POLLIN };
	check(poll(&p, 1, 0) == 0, "events-unsolicited-no-event", "a completion event for a SEND without the solicited flag");
	ok = ibv_req_notify_cq(k.rcq, 1) == 0 && write(fd, "2", 1) == 1;
	p = (struct pollfd){ .fd = ch->fd, .events = POLLIN };
	ok = ok && poll(&p, 1, 60000) == 1;
	check(ok, "events-solicited-event", "no completion event within 60 s for the solicited SEND");
	if (ok) {
		struct ibv_cq *ecq = NULL;
		void *ectx;

		ok = ibv_get_cq_event(ch, &ecq, &ectx) == 0 && ecq == k.rcq;
		if (ecq)
			ibv_ack_cq_events(ecq, 1);
		ok = ok && next_wc(k.rcq, &wc) && wc.status == IBV_WC_SUCCESS && wc.byte_len == 64;
		same = 1;
		for (int i = 0; i < 64; i++)
			same &= rx[i] == (uint8_t)(i * 7 + 2);
		check(ok && same, "events-solicited-received", "the event did not name the CQ, or no completion with the peer's second pattern");
	}
out:
	if (fd >= 0)
		close(fd);
	destroy(&k);
	if (ch)
		ibv_destroy_comp_channel(ch);
}

static void destroy(struct conn *k)
{
	if (k->qp)
		ibv_destroy_qp(k->qp);
	if (k->scq)
		ibv_destroy_cq(k->scq);
	if (k->rcq)
		ibv_destroy_cq(k->rcq);
}

int main(int argc, char **argv)
{
	struct ibv_device **l = ibv_get_device_list(NULL);
	struct ibv_context *c = NULL;
	struct ibv_device *dev = NULL;
	struct conn acc = { 0 }, ovr = { 0 };
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	char *buf;
	int gidx, ok;

	if (argc != 6) {
		fprintf(stderr, "usage: kmod_events HOST PORT_ACCESS PORT_OVERRUN GID_INDEX PORT_SOLICIT\n");
		return 2;
	}
	gidx = atoi(argv[4]);
	for (int i = 0; l && l[i]; i++)
		if (!strcmp(ibv_get_device_name(l[i]), "rnic0"))
			c = ibv_open_device(dev = l[i]);
	check(c != NULL, "events-open", "rnic0 did not open");
	if (!c)
		return 1;
	pd = ibv_alloc_pd(c);
	buf = aligned_alloc(4096, BUF);
	mr = pd && buf ? ibv_reg_mr(pd, buf, BUF, IBV_ACCESS_LOCAL_WRITE) : NULL;
	check(mr != NULL, "events-setup", "PD or MR");
	if (!mr)
		return 1;
	memset(buf, 0x5A, BUF);

	/* QP access error: the only receive names no region (the key's index moved far past any
	 * region: a key the firmware has not issued). */
	ok = connect_qp(c, pd, 8, 8, gidx, argv[1], argv[2], &acc, NULL, NULL) == 0;
	check(ok, "events-qp-access-connect", "QP or exchange with the pingpong server failed");
	if (ok) {
		check(post_recv(acc.qp, mr, mr->lkey ^ 0x7FFF00u) == 0 && post_send(acc.qp, mr, 1) == 0,
		      "events-qp-access-post", "post_recv/post_send refused");
		check(wait_event(c, "qp-access", IBV_EVENT_QP_ACCESS_ERR, acc.qp), "events-qp-access-err",
		      "no IBV_EVENT_QP_ACCESS_ERR on the QP whose receive had a bad lkey");
	}

	/* CQ overrun: six completions into a send CQ of two entries nobody polls. */
	ok = connect_qp(c, pd, 2, 8, gidx, argv[1], argv[3], &ovr, NULL, NULL) == 0;
	check(ok, "events-cq-overrun-connect", "QP or exchange with the pingpong server failed");
	if (ok)
		check(forged_doorbell_ignored(dev, c, &ovr), "events-forged-doorbell-ignored",
		      "an sq_db naming this QP stored by another context reached it (a completion, an event, or the QP left RTS)");
	if (ok) {
		int rc = post_recv(ovr.qp, mr, mr->lkey);

		for (uint64_t i = 0; i < 6 && !rc; i++)
			rc = post_send(ovr.qp, mr, 10 + i);
		check(rc == 0, "events-cq-overrun-post", "post_send refused");
		check(wait_event(c, "cq-overrun", IBV_EVENT_CQ_ERR, ovr.scq), "events-cq-err",
		      "no IBV_EVENT_CQ_ERR on the overrun send CQ");
	}
	destroy(&acc);
	destroy(&ovr);
	solicited_only(c, pd, mr, gidx, argv[1], argv[5]);
	check(ibv_dereg_mr(mr) == 0 && ibv_dealloc_pd(pd) == 0, "events-teardown",
	      "MR or PD refused after the errors");
	ibv_close_device(c);
	ibv_free_device_list(l);
	free(buf);
	return failures ? 1 : 0;
}
