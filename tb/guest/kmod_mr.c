/* Runs inside the guest against the kernel module (tb/guest/kmod.sh): PDs, memory regions and
 * CQs through uverbs (our provider's kernel backend, the module's ib_umem path, REG_MR whose page
 * list the NIC reads by DMA from guest RAM), and bad input at the kernel boundary. One PASS or
 * FAIL line per check; exit status 1 when any failed. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <infiniband/verbs.h>

static int fails;

#define CHECK(cond, name, ...)                                                                   \
	do {                                                                                     \
		if (cond) {                                                                      \
			printf("PASS %s\n", name);                                               \
		} else {                                                                         \
			printf("FAIL %s ", name);                                                \
			printf(__VA_ARGS__);                                                     \
			printf("\n");                                                            \
			fails++;                                                                 \
		}                                                                                \
	} while (0)

static const int rw = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;

static struct ibv_context *open_dev(const char *name)
{
	struct ibv_device **l = ibv_get_device_list(NULL);
	struct ibv_context *c = NULL;

	for (int i = 0; l && l[i]; i++)
		if (!strcmp(ibv_get_device_name(l[i]), name))
			c = ibv_open_device(l[i]);
	if (l)
		ibv_free_device_list(l);
	return c;
}

int main(void)
{
	struct ibv_context *c = open_dev("rnic0");
	struct ibv_pd *pd, *pd2;
	struct ibv_mr *mr, *mrs[16];
	long pg = sysconf(_SC_PAGESIZE);
	uint8_t *buf, *hole;
	int rc, n = 0;

	CHECK(c != NULL, "mr-open-device", "ibv_open_device(rnic0): %s", strerror(errno));
	if (!c)
		return 1;
	pd = ibv_alloc_pd(c);
	pd2 = ibv_alloc_pd(c);
	CHECK(pd && pd2 && pd->handle != pd2->handle, "mr-alloc-pd", "%s", strerror(errno));
	if (!pd || !pd2)
		return 1;

	/* 64 KiB, touched so the pages exist; registered at its own address and at another iova */
	buf = aligned_alloc(pg, 65536);
	memset(buf, 0x5A, 65536);
	mr = ibv_reg_mr(pd, buf, 65536, rw);
	CHECK(mr && mr->lkey && mr->rkey && mr->addr == buf && mr->length == 65536, "mr-reg-64k",
	      "ibv_reg_mr: %s", strerror(errno));
	{
		struct ibv_mr *m2 = ibv_reg_mr_iova(pd2, buf + 100, 5000, 0x10000064, IBV_ACCESS_LOCAL_WRITE);

		CHECK(m2 && m2->lkey && (!mr || m2->lkey != mr->lkey), "mr-reg-unaligned-iova",
		      "ibv_reg_mr_iova: %s", strerror(errno));
		CHECK(m2 && ibv_dereg_mr(m2) == 0, "mr-dereg-unaligned-iova", "dereg failed");
	}
	/* many regions, distinct keys, all released */
	for (n = 0; n < 16; n++) {
		mrs[n] = ibv_reg_mr(pd, buf + n * 4096, 4096, IBV_ACCESS_LOCAL_WRITE);
		if (!mrs[n])
			break;
	}
	rc = 0;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < i; j++)
			rc |= mrs[i]->lkey == mrs[j]->lkey;
	CHECK(n == 16 && !rc, "mr-reg-16-distinct-keys", "%d registered (%s), duplicate keys %d", n,
	      strerror(errno), rc);
	rc = 0;
	for (int i = 0; i < n; i++)
		rc |= ibv_dereg_mr(mrs[i]);
	CHECK(rc == 0, "mr-dereg-16", "a dereg failed");

	/* bad input at the kernel boundary: unmapped memory, a region running into a hole */
	hole = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	memset(hole, 1, pg);
	munmap(hole + pg, pg);
	errno = 0;
	CHECK(ibv_reg_mr(pd, hole + pg, pg, rw) == NULL && errno == EFAULT, "mr-reg-unmapped-efault",
	      "errno %d (%s)", errno, strerror(errno));
	errno = 0;
	CHECK(ibv_reg_mr(pd, hole, 2 * pg, rw) == NULL && errno == EFAULT, "mr-reg-into-hole-efault",
	      "errno %d (%s)", errno, strerror(errno));
	errno = 0;
	CHECK(ibv_reg_mr(pd, (void *)0xFFFF800000000000ull, pg, rw) == NULL && errno == EFAULT,
	      "mr-reg-kernel-address-efault", "errno %d (%s)", errno, strerror(errno));
	/* CQs: the ring and its doorbell record pinned by the module, CREATE_CQ with their bus
	 * addresses (the firmware takes bus-contiguous rings only: up to one page, 128 CQEs) */
	{
		struct ibv_device_attr da;
		struct ibv_cq *cq = ibv_create_cq(c, 128, NULL, NULL, 0), *cqs[8];
		int k, bad = 0;

		CHECK(cq && cq->cqe >= 128, "cq-create-128", "ibv_create_cq: %s", strerror(errno));
		for (k = 0; k < 8; k++)
			if (!(cqs[k] = ibv_create_cq(c, 1 << k, NULL, NULL, 0)))
				break;
		for (int i = 0; i < k; i++)
			bad |= ibv_destroy_cq(cqs[i]);
		CHECK(k == 8 && !bad, "cq-create-8-sizes-destroy-all", "%d created (%s), destroy %d", k,
		      strerror(errno), bad);
		errno = 0;
		CHECK(ibv_query_device(c, &da) == 0 && ibv_create_cq(c, da.max_cqe + 1, NULL, NULL, 0) == NULL &&
			      errno == EINVAL,
		      "cq-too-large-einval", "errno %d (%s)", errno, strerror(errno));
		/* QPs on it: the queue buffer pinned by the module (one page: bus-contiguous) */
		{
			struct ibv_qp_init_attr qa = {
				.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
				.cap = { .max_send_wr = 8, .max_recv_wr = 8, .max_send_sge = 1, .max_recv_sge = 1 },
			};
			struct ibv_qp *rc_qp = cq ? ibv_create_qp(pd, &qa) : NULL, *ud_qp;

			CHECK(rc_qp && rc_qp->qp_num >= 2, "qp-create-rc", "ibv_create_qp: %s", strerror(errno));
			qa.qp_type = IBV_QPT_UD;
			ud_qp = cq ? ibv_create_qp(pd, &qa) : NULL;
			CHECK(ud_qp && ud_qp->qp_num >= 2 && (!rc_qp || ud_qp->qp_num != rc_qp->qp_num), "qp-create-ud",
			      "ibv_create_qp: %s", strerror(errno));
			/* RESET -> INIT -> RTR (to itself: 10.0.0.2) -> RTS through MODIFY_QP, each
			 * checked with QUERY_QP; out-of-range attributes and a skipped state refused */
			if (rc_qp) {
				struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = 1,
							 .qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE };
				struct ibv_qp_attr q;
				struct ibv_qp_init_attr qi;
				union ibv_gid g;
				int gi = -1;

				rc = ibv_modify_qp(rc_qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
				CHECK(rc == 0 && ibv_query_qp(rc_qp, &q, IBV_QP_STATE, &qi) == 0 && q.qp_state == IBV_QPS_INIT &&
					      q.qp_access_flags == a.qp_access_flags,
				      "qp-modify-init", "modify %d, state %d access 0x%x", rc, q.qp_state, q.qp_access_flags);
				a.qp_state = IBV_QPS_RTS;
				a.sq_psn = 1;
				rc = ibv_modify_qp(rc_qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN);
				CHECK(rc == EINVAL, "qp-modify-init-to-rts-einval", "modify %d (%s)", rc, strerror(rc));
				for (int k = 0; k < 16 && gi < 0; k++)
					if (!ibv_query_gid(c, 1, k, &g) && g.raw[10] == 0xFF && g.raw[11] == 0xFF &&
					    g.raw[12] == 10 && g.raw[15] == 2)
						gi = k;
				memset(&a, 0, sizeof(a));
				a.qp_state = IBV_QPS_RTR;
				a.path_mtu = IBV_MTU_1024;
				a.dest_qp_num = rc_qp->qp_num;
				a.rq_psn = 7;
				a.max_dest_rd_atomic = 1;
				a.min_rnr_timer = 12;
				a.ah_attr.is_global = 1;
				a.ah_attr.port_num = 1;
				a.ah_attr.grh.sgid_index = (uint8_t)gi;
				a.ah_attr.grh.hop_limit = 64;
				a.ah_attr.grh.dgid = g;
				int rtr = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
					  IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
				a.max_dest_rd_atomic = 200;
				rc = ibv_modify_qp(rc_qp, &a, rtr);
				CHECK(rc == EINVAL, "qp-modify-rd-atomic-out-of-range-einval", "modify %d (%s)", rc, strerror(rc));
				a.max_dest_rd_atomic = 1;
				rc = ibv_modify_qp(rc_qp, &a, rtr);
				CHECK(gi >= 0 && rc == 0 && ibv_query_qp(rc_qp, &q, IBV_QP_STATE, &qi) == 0 &&
					      q.qp_state == IBV_QPS_RTR && q.dest_qp_num == rc_qp->qp_num && q.rq_psn == 7,
				      "qp-modify-rtr", "gid %d modify %d (%s) state %d dest %u psn %u", gi, rc, strerror(rc),
				      q.qp_state, q.dest_qp_num, q.rq_psn);
				memset(&a, 0, sizeof(a));
				a.qp_state = IBV_QPS_RTS;
				a.timeout = 14;
				a.retry_cnt = 7;
				a.rnr_retry = 7;
				a.sq_psn = 7;
				a.max_rd_atomic = 1;
				rc = ibv_modify_qp(rc_qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
								   IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
				CHECK(rc == 0 && ibv_query_qp(rc_qp, &q, IBV_QP_STATE, &qi) == 0 && q.qp_state == IBV_QPS_RTS &&
					      q.sq_psn == 7 && q.timeout == 14,
				      "qp-modify-rts", "modify %d (%s) state %d sq_psn %u timeout %u", rc, strerror(rc),
				      q.qp_state, q.sq_psn, q.timeout);
				/* address handles for UD: the same address vector; a RoCE one needs its GRH */
				struct ibv_ah_attr aa = { .is_global = 1, .port_num = 1,
							  .grh = { .dgid = g, .sgid_index = (uint8_t)gi, .hop_limit = 64 } };
				struct ibv_ah *ah = gi >= 0 ? ibv_create_ah(pd, &aa) : NULL;

				CHECK(ah && ibv_destroy_ah(ah) == 0, "ah-create-destroy", "ibv_create_ah: %s", strerror(errno));
				aa.is_global = 0;
				errno = 0;
				CHECK(ibv_create_ah(pd, &aa) == NULL && errno == EINVAL, "ah-without-grh-einval", "errno %d (%s)",
				      errno, strerror(errno));
			}
			rc = cq ? ibv_destroy_cq(cq) : 0;
			CHECK(rc == EBUSY, "cq-destroy-in-use-ebusy", "ibv_destroy_cq %d (%s)", rc, strerror(rc));
			CHECK(rc_qp && ud_qp && ibv_destroy_qp(rc_qp) == 0 && ibv_destroy_qp(ud_qp) == 0, "qp-destroy",
			      "destroy failed");
		}
		/* arming the CQ: REQ_NOTIFY_CQ through uverbs, a doorbell of the module's guest
		 * transport on the context's page (the suite checks the simulator's log) */
		CHECK(cq && ibv_req_notify_cq(cq, 0) == 0, "db-req-notify-cq", "ibv_req_notify_cq failed");
		CHECK(cq && ibv_destroy_cq(cq) == 0, "cq-destroy", "destroy failed");
	}
	/* the doorbell page's mmap: only the context's own key, one page */
	{
		void *p;

		errno = 0;
		p = mmap(NULL, pg, PROT_WRITE, MAP_SHARED, c->cmd_fd, 64 * pg);
		CHECK(p == MAP_FAILED && errno == EINVAL, "db-mmap-not-a-key-einval", "mmap %p errno %d (%s)", p,
		      errno, strerror(errno));
		errno = 0;
		p = mmap(NULL, 2 * pg, PROT_WRITE, MAP_SHARED, c->cmd_fd, 0);
		CHECK(p == MAP_FAILED && errno == EINVAL, "db-mmap-two-pages-einval", "mmap %p errno %d (%s)", p,
		      errno, strerror(errno));
	}
	/* the PD holding an MR cannot go; it can once the MR went */
	errno = 0;
	rc = ibv_dealloc_pd(pd);
	CHECK(rc == EBUSY, "mr-dealloc-pd-in-use-ebusy", "ibv_dealloc_pd %d (%s)", rc, strerror(rc));
	CHECK(mr && ibv_dereg_mr(mr) == 0, "mr-dereg-64k", "dereg failed");
	CHECK(ibv_dealloc_pd(pd) == 0 && ibv_dealloc_pd(pd2) == 0, "mr-dealloc-pd", "dealloc failed");

	/* a process that exits holding a PD, an MR, a CQ and a QP: the kernel releases them (checked by the
	 * suite: rdma resource show is empty before rmmod) */
	pid_t p = fork();
	if (p == 0) {
		struct ibv_context *cc = open_dev("rnic0");
		struct ibv_pd *pp = cc ? ibv_alloc_pd(cc) : NULL;
		void *b = malloc(8192);

		struct ibv_cq *ccq = cc ? ibv_create_cq(cc, 64, NULL, NULL, 0) : NULL;
		struct ibv_qp_init_attr qa = {
			.send_cq = ccq, .recv_cq = ccq, .qp_type = IBV_QPT_RC,
			.cap = { .max_send_wr = 4, .max_recv_wr = 4, .max_send_sge = 1, .max_recv_sge = 1 },
		};

		_exit(pp && ibv_reg_mr(pp, b, 8192, rw) && ccq && ibv_create_qp(pp, &qa) ? 0 : 1);
	}
	int st = 0;
	waitpid(p, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "mr-child-exits-holding-mr", "child status %d", st);
	ibv_close_device(c);
	free(buf);
	return fails ? 1 : 0;
}
