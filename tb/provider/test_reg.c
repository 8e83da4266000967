/* The provider as libibverbs sees it: its registration (captured by defining
 * verbs_register_driver_34 here, which the test binary's copy of the constructor then calls),
 * the match table, alloc_device, and alloc_context / the public verbs / ibv_close_device
 * running through the real libibverbs 44 on the mock backend: the layout and the op
 * dispatch checked at run time, not only by the static asserts. ibv_open_device is the real
 * one (with no sysfs entry it opens no device node and passes cmd_fd -1). */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rnic_spec.h"
#include "../linux/rnic_user_abi.h"
#include "tb_prov.h"

static const struct verbs_device_ops *reg_ops;
static int reg_calls;
const struct rnicp_be_ops *tb_backend = &mock_be_ops;

void verbs_register_driver_34(const struct verbs_device_ops *ops)
{
	reg_ops = ops;
	reg_calls++;
}

const struct rnicp_be_ops *rnicp_be_select(void)
{
	return tb_backend;
}

static int fd_closed(int fd)
{
	return fcntl(fd, F_GETFD) == -1 && errno == EBADF;
}

static void test_registration(void)
{
	const struct verbs_match_ent *m = reg_ops ? reg_ops->match_table : NULL;

	CHECK(reg_calls == 1 && reg_ops && !strcmp(reg_ops->name, "rnic") && reg_ops->match_min_abi_version == RNIC_UVERBS_ABI_VERSION &&
		      reg_ops->match_max_abi_version == RNIC_UVERBS_ABI_VERSION && reg_ops->alloc_context && reg_ops->alloc_device &&
		      reg_ops->uninit_device && !reg_ops->match_device && !reg_ops->import_context,
	      "reg-constructor-registers-driver-ops");
	if (!m)
		return;
	/* libibverbs matches names as fnmatch(pattern, "rdma_device:N<ibdev>") */
	CHECK(m[0].kind == VERBS_MATCH_MODALIAS && !fnmatch(m[0].u.modalias, "rdma_device:Nrnic0", 0) &&
		      !fnmatch(m[0].u.modalias, "rdma_device:Nrnic12", 0) &&
		      fnmatch(m[0].u.modalias, "rdma_device:Nmlx5_0", 0) == FNM_NOMATCH,
	      "reg-match-by-name-prefix-rnic");
	CHECK(m[1].kind == VERBS_MATCH_PCI && m[1].vendor == 0x10EE && m[1].device == 0x5252 &&
		      m[2].kind == VERBS_MATCH_SENTINEL,
	      "reg-match-by-pci-id");
}

static struct verbs_device *new_device(void)
{
	static struct verbs_sysfs_dev sysfs;
	struct verbs_device *d = reg_ops->alloc_device(&sysfs);

	int zero = 1;

	for (size_t i = 0; d && i < sizeof(*d); i++)
		zero &= ((uint8_t *)d)[i] == 0;
	CHECK(d && zero, "reg-alloc-device-zeroed");
	/* what libibverbs fills in after alloc_device; one reference is the test's own */
	d->ops = reg_ops;
	d->refcount = 1;
	d->sysfs = NULL;	/* so ibv_open_device opens no /dev/infiniband node (cmd_fd -1) */
	strcpy(d->device.name, "rnic0");
	strcpy(d->device.dev_name, "uverbs0");
	d->device.node_type = IBV_NODE_CA;
	d->device.transport_type = IBV_TRANSPORT_IB;
	return d;
}

static void test_open_fails_cleanly(struct verbs_device *d)
{
	int fd = open("/dev/full", O_RDWR | O_CLOEXEC);
	struct verbs_context *v;

	tb_backend = &rnicp_be_kernel_ops;	/* cmd_fd is no uverbs device: GET_CONTEXT fails */
	errno = 0;
	v = reg_ops->alloc_context(&d->device, fd, NULL);
	CHECK(!v && errno != 0 && fd_closed(fd) && d->refcount == 1, "reg-alloc-context-kernel-without-uverbs-fails-cleanly");
	tb_backend = &mock_be_ops;
}

static void test_through_libibverbs(struct verbs_device *d)
{
	int afd;
	struct ibv_context *c;
	struct ibv_device_attr da;
	struct ibv_port_attr pa;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_qp_init_attr qa;
	struct ibv_qp_attr m;
	struct ibv_cq_init_attr_ex cxa;
	struct ibv_cq_ex *cx;
	static char buf[4096];
	int ok;

	mock_reset();
	c = ibv_open_device(&d->device);
	CHECK(c && c->device == &d->device && c->cmd_fd == -1 && c->async_fd >= 0 && c->num_comp_vectors == 1 &&
		      d->refcount == 2 && !strcmp(mock.ibdev, "rnic0"),
	      "ibv-open-device-alloc-context");
	if (!c)
		return;
	afd = c->async_fd;
	CHECK(ibv_query_device(c, &da) == 0 && da.vendor_id == 0x10EE && da.vendor_part_id == 0x5252 &&
		      da.phys_port_cnt == 1 && !strcmp(da.fw_ver, "1.2"),
	      "ibv-query-device-dispatches");
	CHECK(ibv_query_port(c, 1, &pa) == 0 && pa.state == IBV_PORT_ACTIVE && pa.link_layer == IBV_LINK_LAYER_ETHERNET &&
		      ibv_query_port(c, 2, &pa) == EINVAL,
	      "ibv-query-port-dispatches");
	pd = ibv_alloc_pd(c);
	mr = pd ? ibv_reg_mr(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE) : NULL;
	CHECK(pd && mr && mr->lkey == mock.next_id - 1 + 0x100 && mock.access == 3, "ibv-alloc-pd-reg-mr-dispatch");
	cq = ibv_create_cq(c, 10, (void *)0xC0DE, NULL, 0);
	CHECK(cq && cq->cqe == 16 && cq->cq_context == (void *)0xC0DE && cq->context == c, "ibv-create-cq-dispatches");
	memset(&qa, 0, sizeof(qa));
	qa.send_cq = qa.recv_cq = cq;
	qa.qp_type = IBV_QPT_RC;
	qa.cap = (struct ibv_qp_cap){ 4, 4, 1, 1, 16 };
	qp = cq ? ibv_create_qp(pd, &qa) : NULL;
	CHECK(qp && qp->state == IBV_QPS_RESET && qp->context == c && qa.cap.max_send_wr >= 4, "ibv-create-qp-dispatches");
	if (qp) {
		struct ibv_sge s = { (uintptr_t)"inline!", 7, 0 };
		struct ibv_send_wr w = { .wr_id = 9, .sg_list = &s, .num_sge = 1, .opcode = IBV_WR_SEND,
					 .send_flags = IBV_SEND_INLINE | IBV_SEND_SIGNALED }, *bad;
		struct ibv_wc wc;
		unsigned nbf = mock.nbf;

		CHECK(ibv_post_send(qp, &w, &bad) == EINVAL && bad == &w, "ibv-post-send-in-reset-einval");
		memset(&m, 0, sizeof(m));
		ok = 1;
		for (enum ibv_qp_state st = IBV_QPS_INIT; st <= IBV_QPS_RTS; st++) {
			m.qp_state = st;
			ok &= ibv_modify_qp(qp, &m, IBV_QP_STATE) == 0 && qp->state == st;
		}
		CHECK(ok && ibv_post_send(qp, &w, &bad) == 0 && mock.nbf == nbf + 1, "ibv-modify-qp-and-post-send-dispatch");
		CHECK(ibv_poll_cq(cq, 1, &wc) == 0, "ibv-poll-cq-dispatches");
		CHECK(ibv_req_notify_cq(cq, 0) == 0, "ibv-req-notify-cq-dispatches");
		CHECK(ibv_destroy_qp(qp) == 0, "ibv-destroy-qp-dispatches");
	}
	memset(&cxa, 0, sizeof(cxa));
	cxa.cqe = 4;
	cxa.cq_context = (void *)0xBEEF;
	cxa.wc_flags = IBV_WC_EX_WITH_BYTE_LEN | IBV_WC_EX_WITH_QP_NUM;
	cx = ibv_create_cq_ex(c, &cxa);
	CHECK(cx && cx->cq_context == (void *)0xBEEF && cx->start_poll && ibv_start_poll(cx, &(struct ibv_poll_cq_attr){ 0 }) == ENOENT,
	      "ibv-create-cq-ex-dispatches");
	if (cx)
		ibv_destroy_cq(ibv_cq_ex_to_cq(cx));
	{
		struct ibv_srq_init_attr sa = { .attr = { .max_wr = 1, .max_sge = 1 } };
		struct ibv_mw *mw;

		errno = 0;
		CHECK(!ibv_create_srq(pd, &sa) && errno == EOPNOTSUPP, "ibv-unsupported-srq-eopnotsupp");
		errno = 0;
		mw = ibv_alloc_mw(pd, IBV_MW_TYPE_1);
		CHECK(!mw && errno == EOPNOTSUPP, "ibv-unsupported-mw-eopnotsupp");
		CHECK(ibv_resize_cq(cq, 100) == EOPNOTSUPP, "ibv-unsupported-resize-cq-eopnotsupp");
	}
	CHECK(ibv_destroy_cq(cq) == 0 && ibv_dereg_mr(mr) == 0 && ibv_dealloc_pd(pd) == 0, "ibv-destroy-objects-dispatch");
	CHECK(ibv_close_device(c) == 0 && mock.closed == 1 && fd_closed(afd) && d->refcount == 1,
	      "ibv-close-device-frees-context");
}

void test_reg(void)
{
	struct verbs_device *d;

	test_registration();
	if (!reg_ops)
		return;
	d = new_device();
	if (!d)
		return;
	test_open_fails_cleanly(d);
	test_through_libibverbs(d);
	reg_ops->uninit_device(d);
}
