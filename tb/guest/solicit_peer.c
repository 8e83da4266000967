/* Runs on the host side of the guest test (tb/guest/test_guest.sh's host.sh, our provider
 * through the simulator's service, device rnic1): the peer of kmod_events' solicited-only test.
 * Takes one connection on 127.0.0.1:PORT, answers ibv_rc_pingpong's exchange as its server does
 * ("LID:QPN:PSN:GID" in, ours out, "done" in), then for each go byte the client writes ('1',
 * '2') sends one signaled 64-byte SEND whose bytes are i * 7 + go (byte i), the solicited flag
 * set on the second only, and waits for its completion. Usage: solicit_peer PORT GID_INDEX.
 * Exit 0 when both SENDs completed successfully. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "guest_rc.h"

static int die(const char *what)
{
	fprintf(stderr, "solicit_peer: %s\n", what);
	return 1;
}

static int read_all(int fd, void *p, size_t n)
{
	for (size_t got = 0; got < n;) {
		ssize_t r = read(fd, (char *)p + got, n - got);

		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct ibv_device **l = ibv_get_device_list(NULL);
	struct ibv_context *c = NULL;
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	char msg[PP_MSG_LEN], done[5];
	uint32_t rqpn, rpsn;
	union ibv_gid gid, rgid;
	int one = 1, ls, fd, gidx;

	if (argc != 3)
		return die("usage: solicit_peer PORT GID_INDEX");
	gidx = atoi(argv[2]);
	sa.sin_port = htons((uint16_t)atoi(argv[1]));
	for (int i = 0; l && l[i]; i++)
		if (!strcmp(ibv_get_device_name(l[i]), "rnic1"))
			c = ibv_open_device(l[i]);
	if (!c)
		return die("rnic1 did not open");
	struct ibv_pd *pd = ibv_alloc_pd(c);
	uint8_t *buf = aligned_alloc(4096, 4096);
	struct ibv_mr *mr = pd && buf ? ibv_reg_mr(pd, buf, 4096, IBV_ACCESS_LOCAL_WRITE) : NULL;
	struct ibv_cq *cq = ibv_create_cq(c, 8, NULL, NULL, 0);
	struct ibv_qp_init_attr ia = { .send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
				       .cap = { .max_send_wr = 4, .max_recv_wr = 4, .max_send_sge = 1,
						.max_recv_sge = 1 } };
	struct ibv_qp *qp = mr && cq ? ibv_create_qp(pd, &ia) : NULL;
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = 1 };

	if (!qp || ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS) ||
	    ibv_query_gid(c, 1, gidx, &gid))
		return die("PD, MR, CQ, QP or GID");
	ls = socket(AF_INET, SOCK_STREAM, 0);
	if (ls < 0 || setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) ||
	    bind(ls, (struct sockaddr *)&sa, sizeof sa) || listen(ls, 1))
		return die("listen");
	fd = accept(ls, NULL, NULL);
	if (fd < 0 || read_all(fd, msg, sizeof msg))
		return die("accept or the client's message");
	if (pp_msg_parse(msg, &rqpn, &rpsn, &rgid))
		return die("the client's message is not pingpong's");
	pp_msg_make(msg, qp->qp_num, 0x4321, &gid);
	if (write(fd, msg, sizeof msg) != sizeof msg || read_all(fd, done, sizeof done))
		return die("exchange");
	if (rc_rtr_rts(qp, rqpn, rpsn, &rgid, gidx, 0x4321))
		return die("RTR or RTS");
	for (int n = 0; n < 2; n++) {
		char go;
		struct ibv_sge s = { .addr = (uintptr_t)buf, .length = 64, .lkey = mr->lkey };
		struct ibv_send_wr w = { .wr_id = (uint64_t)n, .sg_list = &s, .num_sge = 1,
					 .opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED }, *bad;
		struct ibv_wc wc;
		int got = 0;

		if (read_all(fd, &go, 1) || go != '1' + n)
			return die("go byte");
		for (int i = 0; i < 64; i++)
			buf[i] = (uint8_t)(i * 7 + (go - '0'));
		if (n == 1)
			w.send_flags |= IBV_SEND_SOLICITED;
		if (ibv_post_send(qp, &w, &bad))
			return die("post_send");
		for (int t = 0; t < 600000 && !got; t++) {
			got = ibv_poll_cq(cq, 1, &wc);
			if (!got)
				usleep(100);
		}
		if (got != 1 || wc.status != IBV_WC_SUCCESS)
			return die("no successful send completion");
		printf("solicit_peer: SEND %d (%s) completed\n", n + 1, n ? "solicited" : "not solicited");
		fflush(stdout);
	}
	(void)read_all(fd, done, 1);	/* the client closes when done */
	close(fd);
	close(ls);
	ibv_destroy_qp(qp);
	ibv_destroy_cq(cq);
	ibv_dereg_mr(mr);
	ibv_dealloc_pd(pd);
	ibv_close_device(c);
	ibv_free_device_list(l);
	free(buf);
	return 0;
}
