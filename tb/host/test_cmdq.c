/* Command-queue client against a fake firmware that reads the slot from "host memory" and
 * writes outputs, status and done, driven from the client's poll-loop sleeps. */
#include <errno.h>
#include <string.h>

#include "rnic_cmd.h"
#include "rnic_cmdq.h"
#include "rnic_spec.h"
#include "tb_host.h"

enum fw_mode { FW_RESPOND, FW_NEVER, FW_STAGED };

struct fake_fw {
	struct mock_dev *d;
	enum fw_mode mode;
	uint32_t cons;
	unsigned delay, wait_left;	/* sleeps before each answer */
	unsigned stage, staged_status;
	int on_doorbell;		/* answer inside the cmdq_prod write */
	int force_status;		/* >= 0: every command completes with it */
	unsigned token_errors, executed;
	uint8_t last[64];		/* the last command as the firmware read it */
	uint8_t qp_store[64];
	uint32_t next_handle;
	int mtt_ok;
	uint64_t mtt_pages[8];
};

static struct fake_fw fw;

static uint8_t *fw_slot(struct fake_fw *f, uint32_t idx)
{
	uint32_t *r = f->d->regs;
	uint64_t base = r[RNIC_REG_CMDQ_CMDQ_BASE_LO / 4] | (uint64_t)r[RNIC_REG_CMDQ_CMDQ_BASE_HI / 4] << 32;
	uint32_t lg = r[RNIC_REG_CMDQ_CMDQ_LOG_SIZE / 4];
	uint8_t *ring = mock_bus_to_cpu(f->d, base, (size_t)RNIC_CMD_ENTRY_SIZE << lg);

	return ring ? ring + (size_t)(idx & ((1u << lg) - 1)) * RNIC_CMD_ENTRY_SIZE : NULL;
}

/* Executes the command in s (outputs only); returns the cmd_status. */
static unsigned fw_execute(struct fake_fw *f, uint8_t *s)
{
	switch (rnic_cmd_entry_get_opcode(s)) {
	case RNIC_CMD_OP_NOP:
	case RNIC_CMD_OP_SET_GID:
	case RNIC_CMD_OP_DEALLOC_UCTX:
	case RNIC_CMD_OP_DEREG_MR:
	case RNIC_CMD_OP_DESTROY_CQ:
	case RNIC_CMD_OP_DESTROY_QP:
	case RNIC_CMD_OP_DESTROY_AH:
		return RNIC_CMD_STATUS_OK;
	case RNIC_CMD_OP_DEALLOC_PD:
		return rnic_cmd_pd_get_pdn(s) == 0 ? RNIC_CMD_STATUS_BAD_HANDLE : RNIC_CMD_STATUS_OK;
	case RNIC_CMD_OP_QUERY_DEVICE:
		rnic_cmd_query_device_set_fw_version(s, 0x00010002);
		rnic_cmd_query_device_set_max_qp(s, 1024);
		rnic_cmd_query_device_set_max_cq(s, 2048);
		rnic_cmd_query_device_set_max_mr(s, 4096);
		rnic_cmd_query_device_set_max_pd(s, 512);
		rnic_cmd_query_device_set_max_qp_wr(s, 8192);
		rnic_cmd_query_device_set_max_cqe(s, 65535);
		rnic_cmd_query_device_set_max_sge(s, 13);
		rnic_cmd_query_device_set_max_inline(s, 52);
		rnic_cmd_query_device_set_max_rd_atomic(s, 16);
		rnic_cmd_query_device_set_page_size_cap(s, (1u << 12) | (1u << 21));
		rnic_cmd_query_device_set_max_mr_size_log2(s, 40);
		rnic_cmd_query_device_set_num_uctx(s, 512);
		return RNIC_CMD_STATUS_OK;
	case RNIC_CMD_OP_QUERY_PORT:
		rnic_cmd_query_port_set_state(s, 4);
		rnic_cmd_query_port_set_max_mtu(s, 5);
		rnic_cmd_query_port_set_active_mtu(s, 3);
		rnic_cmd_query_port_set_gid_tbl_len(s, 16);
		rnic_cmd_query_port_set_speed_gbps(s, 100);
		rnic_cmd_query_port_set_mac(s, 0x02AABBCCDDEEull);
		return RNIC_CMD_STATUS_OK;
	case RNIC_CMD_OP_ALLOC_PD:
		rnic_cmd_pd_set_pdn(s, f->next_handle++);
		return RNIC_CMD_STATUS_OK;
	case RNIC_CMD_OP_ALLOC_UCTX:
		rnic_cmd_uctx_set_uctx(s, f->next_handle++);
		return RNIC_CMD_STATUS_OK;
	case RNIC_CMD_OP_REG_MR: {
		uint32_t n = rnic_cmd_reg_mr_get_num_pages(s);
		const uint8_t *t = mock_bus_to_cpu(f->d, rnic_cmd_reg_mr_get_mtt_table_addr(s),
						   (size_t)n * RNIC_MTT_ENTRY_SIZE);
		f->mtt_ok = t != NULL;
		for (uint32_t i = 0; t && i < n && i < 8; i++)
			f->mtt_pages[i] = rnic_mtt_entry_get_page_addr(t + i * RNIC_MTT_ENTRY_SIZE);
		rnic_cmd_reg_mr_set_lkey(s, 0x1200 | (f->next_handle & 0xFF));
		rnic_cmd_reg_mr_set_rkey(s, 0x1200 | (f->next_handle++ & 0xFF));
		return RNIC_CMD_STATUS_OK;
	}
	case RNIC_CMD_OP_CREATE_CQ:
		rnic_cmd_create_cq_set_cqn(s, f->next_handle++);
		return RNIC_CMD_STATUS_OK;
	case RNIC_CMD_OP_CREATE_QP:
		rnic_cmd_create_qp_set_qpn(s, f->next_handle++);
		return RNIC_CMD_STATUS_OK;
	case RNIC_CMD_OP_CREATE_AH:
		rnic_cmd_create_ah_set_ahn(s, f->next_handle++);
		return RNIC_CMD_STATUS_OK;
	case RNIC_CMD_OP_MODIFY_QP:
		memcpy(f->qp_store, s, 64);
		return RNIC_CMD_STATUS_OK;
	case RNIC_CMD_OP_QUERY_QP:
		if (rnic_cmd_modify_qp_get_qpn(s) != rnic_cmd_modify_qp_get_qpn(f->qp_store))
			return RNIC_CMD_STATUS_BAD_HANDLE;
		memcpy(s + 12, f->qp_store + 12, 64 - 12);
		return RNIC_CMD_STATUS_OK;
	default:
		return RNIC_CMD_STATUS_BAD_OPCODE;
	}
}

/* One firmware step: at most one command advanced by one stage. */
static void fw_step(struct fake_fw *f)
{
	uint32_t prod = f->d->regs[RNIC_REG_CMDQ_CMDQ_PROD / 4];
	uint8_t *s;
	unsigned st;

	if (f->mode == FW_NEVER || f->cons == prod)
		return;
	if (f->wait_left) {
		f->wait_left--;
		return;
	}
	s = fw_slot(f, f->cons);
	if (!s)
		return;
	if (f->mode == FW_STAGED) {
		switch (f->stage++) {
		case 0: /* junk in the output bytes first */
			memcpy(f->last, s, 64);
			memset(s + 8, 0xA5, 56);
			return;
		case 1: /* the real outputs over the junk, from the command as read */
			memcpy(s, f->last, 64);
			f->staged_status = fw_execute(f, s);
			rnic_cmd_entry_set_status(s, 0x55); /* status not yet final */
			return;
		case 2:
			rnic_cmd_entry_set_status(s, f->force_status >= 0 ? (unsigned)f->force_status
								  : f->staged_status);
			return;
		default:
			f->stage = 0;
			break;
		}
	} else {
		memcpy(f->last, s, 64);
		if ((uint16_t)rnic_cmd_entry_get_token(s) != (uint16_t)f->cons || rnic_cmd_entry_get_done(s))
			f->token_errors++;
		st = fw_execute(f, s);
		rnic_cmd_entry_set_status(s, f->force_status >= 0 ? (unsigned)f->force_status : st);
	}
	rnic_cmd_entry_set_done(s, 1);
	f->executed++;
	f->cons++;
	f->wait_left = f->delay;
	f->d->regs[RNIC_REG_CMDQ_CMDQ_CONS / 4] = f->cons;
}

static void fw_on_sleep(struct mock_dev *d)
{
	fw_step(d->user);
}

static void fw_on_write(struct mock_dev *d, uint32_t off, uint32_t val)
{
	struct fake_fw *f = d->user;

	(void)val;
	if (off == RNIC_REG_CMDQ_CMDQ_PROD && f->on_doorbell)
		while (f->cons != d->regs[RNIC_REG_CMDQ_CMDQ_PROD / 4] && f->mode == FW_RESPOND && !f->delay)
			fw_step(f);
}

static struct mock_dev dev;
static struct rnic_os os;
static struct rnic_cmdq q;

static void setup(int with_clock, unsigned log_size, uint32_t start_cons)
{
	mock_init(&dev, &os, with_clock);
	memset(&fw, 0, sizeof(fw));
	fw.d = &dev;
	fw.force_status = -1;
	fw.next_handle = 7;
	fw.cons = start_cons;
	dev.regs[RNIC_REG_CMDQ_CMDQ_CONS / 4] = start_cons;
	dev.user = &fw;
	dev.on_sleep = fw_on_sleep;
	dev.on_write = fw_on_write;
	rnic_cmdq_init(&q, &os, log_size);
}

static void teardown(void)
{
	rnic_cmdq_fini(&q);
	mock_free_all(&dev);
}

static void test_init(void)
{
	struct rnic_cmdq bad;

	setup(0, 3, 0);
	CHECK(q.ring && (q.ring_bus & 63) == 0, "cmdq-init-ring-allocated-aligned");
	CHECK(dev.regs[RNIC_REG_CMDQ_CMDQ_BASE_LO / 4] == (uint32_t)q.ring_bus &&
		      dev.regs[RNIC_REG_CMDQ_CMDQ_BASE_HI / 4] == (uint32_t)(q.ring_bus >> 32) &&
		      dev.regs[RNIC_REG_CMDQ_CMDQ_LOG_SIZE / 4] == 3,
	      "cmdq-init-programs-base-and-size");
	rnic_cmdq_fini(&q);
	CHECK(dev.live_allocs == 0 && dev.regs[RNIC_REG_CMDQ_CMDQ_LOG_SIZE / 4] == 0, "cmdq-fini-frees-and-disables");
	CHECK(rnic_cmdq_init(&bad, &os, 0) == -EINVAL && rnic_cmdq_init(&bad, &os, RNIC_CMDQ_MAX_LOG + 1) == -EINVAL,
	      "cmdq-init-rejects-bad-size");
	dev.fail_alloc = 1;
	CHECK(rnic_cmdq_init(&bad, &os, 2) == -ENOMEM, "cmdq-init-propagates-dma-error");
	teardown();
}

static void test_basic_and_order(void)
{
	uint8_t c[64], st;
	int rc;

	setup(0, 2, 0);
	fw.delay = 3;
	fw.wait_left = 3;
	memset(c, 0, sizeof(c));
	rnic_cmd_entry_set_opcode(c, RNIC_CMD_OP_NOP);
	rc = rnic_cmdq_exec(&q, c, &st);
	CHECK(rc == 0 && st == RNIC_CMD_STATUS_OK && rnic_cmd_entry_get_done(c) == 1, "cmdq-nop-completes");
	CHECK(dev.sleeps >= 4 && fw.token_errors == 0, "cmdq-waits-by-sleeping-until-done");
	CHECK(dev.regs[RNIC_REG_CMDQ_CMDQ_PROD / 4] == 1, "cmdq-prod-register-written");
	CHECK(rnic_cmd_entry_get_token(fw.last) == 0 && rnic_cmd_entry_get_opcode(fw.last) == RNIC_CMD_OP_NOP,
	      "cmdq-slot-holds-opcode-and-token");

	/* Staged firmware: junk outputs, then real outputs with a non-final status, then the
	 * status, then done. The client must return what is there at done. */
	fw.mode = FW_STAGED;
	fw.delay = fw.wait_left = 0;
	struct rnic_device_attr da;
	memset(&da, 0, sizeof(da));
	unsigned sleeps0 = dev.sleeps;
	rc = rnic_cmd_query_device(&q, &da);
	CHECK(rc == 0 && da.max_qp == 1024 && da.max_cqe == 65535 && da.max_inline == 208 &&
		      da.page_size_cap == ((1u << 12) | (1u << 21)) && da.num_uctx == 512,
	      "cmdq-outputs-read-after-done");
	CHECK(dev.sleeps - sleeps0 >= 4, "cmdq-staged-needs-all-stages");
	fw.force_status = RNIC_CMD_STATUS_BUSY;
	rc = rnic_cmd_query_device(&q, &da);
	CHECK(rc == -EBUSY, "cmdq-status-read-after-done");
	CHECK(dev.lock_errors == 0 && dev.lock_depth[RNIC_LOCK_CMDQ] == 0, "cmdq-lock-balanced");
	teardown();
}

static void test_statuses(void)
{
	static const struct {
		unsigned st;
		int err;
	} map[] = {
		{ RNIC_CMD_STATUS_OK, 0 },
		{ RNIC_CMD_STATUS_BAD_OPCODE, -EOPNOTSUPP },
		{ RNIC_CMD_STATUS_BAD_PARAM, -EINVAL },
		{ RNIC_CMD_STATUS_BAD_HANDLE, -ENOENT },
		{ RNIC_CMD_STATUS_BAD_STATE, -EINVAL },
		{ RNIC_CMD_STATUS_NO_RESOURCES, -ENOMEM },
		{ RNIC_CMD_STATUS_BUSY, -EBUSY },
		{ RNIC_CMD_STATUS_DMA_ERROR, -EIO },
		{ RNIC_CMD_STATUS_INTERNAL, -EIO },
		{ 0xC3, -EIO },
	};
	uint8_t c[64], st;
	int ok = 1;

	setup(0, 2, 0);
	for (unsigned i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		fw.force_status = (int)map[i].st;
		memset(c, 0, sizeof(c));
		int rc = rnic_cmdq_exec(&q, c, &st);
		if (rc != map[i].err || st != map[i].st) {
			printf("INFO status %u: rc %d raw %u\n", map[i].st, rc, st);
			ok = 0;
		}
	}
	CHECK(ok, "cmdq-status-to-errno-all");
	fw.force_status = -1;
	memset(c, 0, sizeof(c));
	rnic_cmd_entry_set_opcode(c, 0x7E);
	CHECK(rnic_cmdq_exec(&q, c, &st) == -EOPNOTSUPP && st == RNIC_CMD_STATUS_BAD_OPCODE,
	      "cmdq-unknown-opcode-eopnotsupp");
	CHECK(rnic_cmd_dealloc_pd(&q, 0) == -ENOENT, "cmdq-bad-handle-enoent");
	teardown();
}

static void test_timeout(void)
{
	uint8_t c[64], st = 0;
	uint16_t tok;

	for (int clk = 0; clk < 2; clk++) {
		setup(clk, 2, 0);
		q.timeout_us = 50;
		fw.mode = FW_NEVER;
		memset(c, 0, sizeof(c));
		int rc = rnic_cmdq_exec(&q, c, &st);
		CHECK(rc == -ETIMEDOUT && st == 0xFF && q.timeouts == 1,
		      clk ? "cmdq-timeout-with-clock" : "cmdq-timeout-counted-polls");
		CHECK(dev.sleeps >= 50 && dev.sleeps <= 52, clk ? "cmdq-timeout-bounded-clock" : "cmdq-timeout-bounded-polls");
		/* The abandoned slot stays the firmware's: 3 more fit, the 4th does not. */
		int ok = 1;
		for (int i = 0; i < 3; i++)
			ok &= rnic_cmdq_post(&q, c, &tok) == 0;
		CHECK(ok && rnic_cmdq_post(&q, c, &tok) == -EBUSY, clk ? "cmdq-abandoned-slot-not-reused-clock"
								   : "cmdq-abandoned-slot-not-reused");
		/* Firmware wakes up: it finishes the abandoned command, the slot is reclaimed. */
		fw.mode = FW_RESPOND;
		ok = 1;
		for (uint16_t t = 1; t < 4; t++)
			ok &= rnic_cmdq_wait(&q, t, NULL, &st) == 0;
		CHECK(ok && rnic_cmdq_post(&q, c, &tok) == 0 && tok == 4 && rnic_cmdq_wait(&q, tok, NULL, NULL) == 0,
		      clk ? "cmdq-abandoned-slot-reclaimed-clock" : "cmdq-abandoned-slot-reclaimed");
		teardown();
	}
}

/* A command slot the bus refused (ctrl.dev_err CMDQ_READ): the wait gives up with -EIO after
 * 64 polls, not at the timeout, and clears the bit it reports (write 1 to clear). Another
 * device-error bit (EQ_WRITE) alone is not the command's: that wait times out. */
static void test_dev_error(void)
{
	uint8_t c[64], st = 0;

	setup(0, 2, 0);
	q.timeout_us = 1000;
	fw.mode = FW_NEVER;
	memset(c, 0, sizeof(c));
	dev.regs[RNIC_REG_CTRL_DEV_ERR / 4] = (1u << RNIC_DEV_ERR_BIT_CMDQ_READ) | (1u << RNIC_DEV_ERR_BIT_EQ_WRITE);
	int rc = rnic_cmdq_exec(&q, c, &st);
	CHECK(rc == -EIO && st == 0xFF && q.dev_errors == 1 && q.timeouts == 0 && dev.sleeps >= 63 && dev.sleeps <= 64 &&
		      dev.regs[RNIC_REG_CTRL_DEV_ERR_CLEAR / 4] == (1u << RNIC_DEV_ERR_BIT_CMDQ_READ),
	      "cmdq-dev-error-eio-early-cleared");
	dev.regs[RNIC_REG_CTRL_DEV_ERR / 4] = 1u << RNIC_DEV_ERR_BIT_EQ_WRITE;
	q.timeout_us = 200;
	rc = rnic_cmdq_exec(&q, c, &st);
	CHECK(rc == -ETIMEDOUT && q.dev_errors == 1 && q.timeouts == 1, "cmdq-dev-error-other-bit-not-the-commands");
	teardown();
}

static void test_ring(void)
{
	uint8_t c[64], st;
	uint16_t tok[4], t;
	int ok = 1;

	setup(0, 2, 0);
	/* Wrap: 100 commands through a 4-slot ring, answered inside the doorbell write. */
	fw.on_doorbell = 1;
	for (int i = 0; i < 100; i++) {
		uint32_t pdn = 0;
		ok &= rnic_cmd_alloc_pd(&q, (uint32_t)i, &pdn) == 0 && pdn == 7u + (uint32_t)i &&
		      rnic_cmd_pd_get_uctx(fw.last) == (uint32_t)i;
	}
	CHECK(ok && fw.token_errors == 0 && fw.executed == 100, "cmdq-ring-wraps-100-commands");
	CHECK(dev.regs[RNIC_REG_CMDQ_CMDQ_PROD / 4] == 100 && q.tail == 100, "cmdq-free-running-prod");
	fw.on_doorbell = 0;

	/* Full ring: 4 posted, the 5th is refused; waits in any order. */
	memset(c, 0, sizeof(c));
	fw.mode = FW_NEVER;
	ok = 1;
	for (int i = 0; i < 4; i++)
		ok &= rnic_cmdq_post(&q, c, &tok[i]) == 0 && tok[i] == 100 + i;
	CHECK(ok && rnic_cmdq_post(&q, c, &t) == -EBUSY, "cmdq-ring-full-ebusy");
	fw.mode = FW_RESPOND;
	CHECK(rnic_cmdq_wait(&q, tok[2], NULL, &st) == 0 && q.tail == 100, "cmdq-out-of-order-wait-keeps-tail");
	CHECK(rnic_cmdq_wait(&q, tok[2], NULL, &st) == -EINVAL, "cmdq-wait-twice-einval");
	CHECK(rnic_cmdq_wait(&q, 999, NULL, &st) == -EINVAL, "cmdq-wait-unknown-token-einval");
	ok = rnic_cmdq_wait(&q, tok[0], NULL, &st) == 0 && rnic_cmdq_wait(&q, tok[3], NULL, &st) == 0 &&
	     rnic_cmdq_wait(&q, tok[1], NULL, &st) == 0;
	CHECK(ok && q.tail == 104 && q.prod == 104, "cmdq-all-reaped-tail-catches-up");

	/* exec on a full ring waits for a slot, then gives up with -EBUSY. */
	fw.mode = FW_NEVER;
	for (int i = 0; i < 4; i++)
		rnic_cmdq_post(&q, c, &tok[i]);
	q.timeout_us = 20;
	CHECK(rnic_cmdq_exec(&q, c, &st) == -EBUSY, "cmdq-exec-full-ring-ebusy");
	teardown();

	/* The producer starts at the firmware's consumer index. */
	setup(0, 3, 0xFFFE);
	fw.on_doorbell = 1;
	ok = 1;
	for (int i = 0; i < 20; i++)
		ok &= rnic_cmd_nop(&q) == 0;
	CHECK(ok && fw.token_errors == 0 && dev.regs[RNIC_REG_CMDQ_CMDQ_PROD / 4] == 0xFFFEu + 20,
	      "cmdq-starts-at-cons-and-tokens-wrap-16bit");
	teardown();
}

static void test_wrappers(void)
{
	uint8_t mac[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 }, m2[6];
	uint32_t h = 0, lkey = 0, rkey = 0;
	int ok;

	setup(0, 3, 0);
	fw.on_doorbell = 1;
	CHECK(rnic_mac_to_u64(mac) == 0x021122334455ull, "cmd-mac-byte0-in-bits-47-40");
	rnic_u64_to_mac(0x02AABBCCDDEEull, m2);
	CHECK(m2[0] == 0x02 && m2[5] == 0xEE, "cmd-u64-to-mac");

	struct rnic_port_attr pa;
	CHECK(rnic_cmd_query_port(&q, &pa) == 0 && pa.state == 4 && pa.max_mtu == 5 && pa.active_mtu == 3 &&
		      pa.gid_tbl_len == 16 && pa.speed_gbps == 100 && pa.mac[0] == 0x02 && pa.mac[1] == 0xAA &&
		      pa.mac[5] == 0xEE,
	      "cmd-query-port");
	CHECK(rnic_cmd_set_gid(&q, 3, 0x0A000001, mac) == 0 && rnic_cmd_entry_get_opcode(fw.last) == RNIC_CMD_OP_SET_GID &&
		      rnic_cmd_set_gid_get_index(fw.last) == 3 && rnic_cmd_set_gid_get_ipv4(fw.last) == 0x0A000001 &&
		      rnic_cmd_set_gid_get_mac(fw.last) == 0x021122334455ull,
	      "cmd-set-gid-layout");
	CHECK(rnic_cmd_set_gid(&q, 256, 0, mac) == -EINVAL, "cmd-set-gid-bad-index");
	CHECK(rnic_cmd_alloc_uctx(&q, &h) == 0 && h == 7 && rnic_cmd_dealloc_uctx(&q, h) == 0 &&
		      rnic_cmd_uctx_get_uctx(fw.last) == 7 && rnic_cmd_entry_get_opcode(fw.last) == RNIC_CMD_OP_DEALLOC_UCTX,
	      "cmd-uctx-alloc-dealloc");
	CHECK(rnic_cmd_alloc_pd(&q, 5, &h) == 0 && rnic_cmd_pd_get_uctx(fw.last) == 5 &&
		      rnic_cmd_dealloc_pd(&q, h) == 0 && rnic_cmd_pd_get_pdn(fw.last) == h,
	      "cmd-pd-alloc-dealloc");

	/* REG_MR with a 3-page list: the firmware reads the table by bus address. */
	struct rnic_mtt mtt;
	uint64_t pages[3] = { 0x40000000, 0x7000, 0x123456000 };
	ok = rnic_mtt_build_pages(&os, &mtt, 0x10000F00, 0x1200, 12, pages, 3) == 0;
	struct rnic_reg_mr_in mi = { .pdn = 9, .access = 0xF, .iova = 0x10000F00, .length = 0x1200, .mtt = &mtt };
	ok = ok && rnic_cmd_reg_mr(&q, &mi, &lkey, &rkey) == 0;
	CHECK(ok && fw.mtt_ok && fw.mtt_pages[0] == (0x40000000 | 1) && fw.mtt_pages[2] == (0x123456000 | 1) &&
		      rnic_cmd_reg_mr_get_pdn(fw.last) == 9 && rnic_cmd_reg_mr_get_access(fw.last) == 0xF &&
		      rnic_cmd_reg_mr_get_page_shift(fw.last) == 12 && rnic_cmd_reg_mr_get_iova(fw.last) == 0x10000F00 &&
		      rnic_cmd_reg_mr_get_length(fw.last) == 0x1200 && rnic_cmd_reg_mr_get_num_pages(fw.last) == 3 &&
		      rnic_cmd_reg_mr_get_first_page_offset(fw.last) == 0xF00 && lkey == rkey && (lkey & 0xFF00) == 0x1200,
	      "cmd-reg-mr-layout-and-table");
	mi.length = 0x3000; /* no longer 3 pages */
	CHECK(rnic_cmd_reg_mr(&q, &mi, &lkey, &rkey) == -EINVAL, "cmd-reg-mr-table-mismatch-einval");
	CHECK(rnic_cmd_dereg_mr(&q, lkey) == 0 && rnic_cmd_dereg_mr_get_lkey(fw.last) == lkey, "cmd-dereg-mr");
	rnic_mtt_free(&os, &mtt);

	struct rnic_create_cq_in ci = { .uctx = 2, .log_size = 10, .eqn = 0, .buf_addr = 0xABC000, .dbrec_addr = 0xABB004 };
	CHECK(rnic_cmd_create_cq(&q, &ci, &h) == 0 && rnic_cmd_create_cq_get_uctx(fw.last) == 2 &&
		      rnic_cmd_create_cq_get_log_size(fw.last) == 10 && rnic_cmd_create_cq_get_buf_addr(fw.last) == 0xABC000 &&
		      rnic_cmd_create_cq_get_num_pages(fw.last) == 0 && rnic_cmd_create_cq_get_dbrec_addr(fw.last) == 0xABB004,
	      "cmd-create-cq-contiguous");
	CHECK(rnic_cmd_destroy_cq(&q, h) == 0 && rnic_cmd_destroy_get_handle(fw.last) == h &&
		      rnic_cmd_entry_get_opcode(fw.last) == RNIC_CMD_OP_DESTROY_CQ,
	      "cmd-destroy-cq");
	ci.dbrec_addr = 0;
	CHECK(rnic_cmd_create_cq(&q, &ci, &h) == -EINVAL, "cmd-create-cq-no-dbrec");
	ci.dbrec_addr = 0xABB002;
	CHECK(rnic_cmd_create_cq(&q, &ci, &h) == -EINVAL, "cmd-create-cq-dbrec-misaligned");
	ci.dbrec_addr = 0xABB004;
	ci.log_size = 0;
	CHECK(rnic_cmd_create_cq(&q, &ci, &h) == -EINVAL, "cmd-create-cq-bad-size");

	struct rnic_create_qp_in qi = { .uctx = 1, .pdn = 3, .send_cqn = 4, .recv_cqn = 5, .qp_type = RNIC_QP_TYPE_RC,
					.sq_log_size = 8, .rq_log_size = 7, .rq_log_stride = 6, .rq_offset = 0x4000,
					.max_inline = 64, .sq_sig_all = 1, .buf_addr = 0x200000 };
	uint32_t qpn = 0;
	CHECK(rnic_cmd_create_qp(&q, &qi, &qpn) == 0 && rnic_cmd_create_qp_get_pdn(fw.last) == 3 &&
		      rnic_cmd_create_qp_get_send_cqn(fw.last) == 4 && rnic_cmd_create_qp_get_recv_cqn(fw.last) == 5 &&
		      rnic_cmd_create_qp_get_qp_type(fw.last) == RNIC_QP_TYPE_RC &&
		      rnic_cmd_create_qp_get_sq_log_size(fw.last) == 8 && rnic_cmd_create_qp_get_rq_log_size(fw.last) == 7 &&
		      rnic_cmd_create_qp_get_rq_log_stride(fw.last) == 6 && rnic_cmd_create_qp_get_rq_offset(fw.last) == 0x4000 &&
		      rnic_cmd_create_qp_get_max_inline(fw.last) == 16 && rnic_cmd_create_qp_get_sq_sig_all(fw.last) == 1 &&
		      rnic_cmd_create_qp_get_buf_addr(fw.last) == 0x200000,
	      "cmd-create-qp-layout");
	qi.qp_type = 1;
	CHECK(rnic_cmd_create_qp(&q, &qi, &h) == -EINVAL, "cmd-create-qp-bad-type");

	struct rnic_qp_attr a = { .state = RNIC_QP_STATE_RTR, .path_mtu = 5, .timeout = 14, .retry_cnt = 7,
				  .rnr_retry = 7, .min_rnr_timer = 12, .access = 0x7, .dest_qpn = 0x1234,
				  .rq_psn = 0xABCDEF, .sq_psn = 0x123, .qkey = 0x11111111, .max_rd_atomic = 4,
				  .max_dest_rd_atomic = 8, .sgid_index = 1, .hop_limit = 64, .traffic_class = 3,
				  .dest_ipv4 = 0x0A000002, .dmac = { 2, 0, 0, 0, 0, 9 } };
	struct rnic_qp_attr b;
	uint32_t mask = 1u << RNIC_QP_ATTR_STATE | 1u << RNIC_QP_ATTR_AV | 1u << RNIC_QP_ATTR_PATH_MTU;
	memset(&b, 0, sizeof(b));
	CHECK(rnic_cmd_modify_qp(&q, qpn, mask, &a) == 0 && rnic_cmd_modify_qp_get_attr_mask(fw.last) == mask &&
		      rnic_cmd_modify_qp_get_qpn(fw.last) == qpn && rnic_cmd_modify_qp_get_dmac(fw.last) == 0x020000000009ull,
	      "cmd-modify-qp-layout");
	CHECK(rnic_cmd_query_qp(&q, qpn, &b) == 0 && memcmp(&a, &b, sizeof(a)) == 0, "cmd-query-qp-roundtrip");
	CHECK(rnic_cmd_query_qp(&q, qpn + 1, &b) == -ENOENT, "cmd-query-qp-bad-handle");
	a.retry_cnt = 8;
	CHECK(rnic_cmd_modify_qp(&q, qpn, mask, &a) == -EINVAL, "cmd-modify-qp-bad-attr");
	CHECK(rnic_cmd_destroy_qp(&q, qpn) == 0 && rnic_cmd_destroy_get_handle(fw.last) == qpn, "cmd-destroy-qp");

	struct rnic_create_ah_in ai = { .pdn = 3, .dest_ipv4 = 0x0A000003, .sgid_index = 0, .hop_limit = 64,
					.traffic_class = 0, .dmac = { 2, 1, 2, 3, 4, 5 } };
	CHECK(rnic_cmd_create_ah(&q, &ai, &h) == 0 && rnic_cmd_create_ah_get_dest_ipv4(fw.last) == 0x0A000003 &&
		      rnic_cmd_create_ah_get_hop_limit(fw.last) == 64 && rnic_cmd_create_ah_get_dmac(fw.last) == 0x020102030405ull &&
		      rnic_cmd_destroy_ah(&q, h) == 0 && rnic_cmd_destroy_get_handle(fw.last) == h,
	      "cmd-ah-create-destroy");
	CHECK(fw.token_errors == 0 && dev.lock_errors == 0, "cmd-wrappers-protocol-clean");
	rnic_cmdq_fini(&q);
	CHECK(dev.live_allocs == 0, "cmd-no-dma-leak");
	teardown();
}

void test_cmdq(void)
{
	test_init();
	test_basic_and_order();
	test_statuses();
	test_timeout();
	test_dev_error();
	test_ring();
	test_wrappers();
}
