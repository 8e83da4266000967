/* Event-queue consumption: owner phase across wraps, dispatch per type, eq_cons writes. */
#include <errno.h>
#include <string.h>

#include "rnic_eq.h"
#include "rnic_spec.h"
#include "tb_host.h"

struct seen {
	unsigned n;
	struct rnic_event ev[256];
	unsigned unknown;
};

static void on_event(void *arg, const struct rnic_event *ev)
{
	struct seen *s = arg;

	if (s->n < 256)
		s->ev[s->n++] = *ev;
}

static void on_unknown(void *arg, const struct rnic_event *ev)
{
	(void)ev;
	((struct seen *)arg)->unknown++;
}

/* The NIC side: writes event number k (free-running) with the owner bit of its pass. */
static void nic_write(struct rnic_eq *eq, uint32_t k, uint32_t type)
{
	uint8_t *e = eq->ring + (size_t)(k & ((1u << eq->log_size) - 1)) * RNIC_EQ_ENTRY_SIZE;

	memset(e, 0, RNIC_EQ_ENTRY_SIZE);
	rnic_eq_entry_set_event_type(e, type);
	rnic_eq_entry_set_subtype(e, k & 0xFF);
	rnic_eq_entry_set_handle(e, 1000 + k);
	rnic_eq_entry_set_data(e, ~k);
	rnic_eq_entry_set_owner(e, ((k >> eq->log_size) & 1u) ^ 1u);
}

void test_eq(void)
{
	struct mock_dev dev;
	struct rnic_os os;
	struct rnic_eq eq;
	static struct seen s;
	int ok;

	mock_init(&dev, &os, 0);
	CHECK(rnic_eq_init(&eq, &os, 0, 0) == -EINVAL, "eq-init-bad-size");
	CHECK(rnic_eq_init(&eq, &os, 3, 5) == 0 && dev.regs[RNIC_REG_EQ_EQ_LOG_SIZE / 4] == 3 &&
		      dev.regs[RNIC_REG_EQ_EQ_MSIX_VECTOR / 4] == 5 &&
		      dev.regs[RNIC_REG_EQ_EQ_BASE_LO / 4] == (uint32_t)eq.ring_bus &&
		      dev.regs[RNIC_REG_EQ_EQ_BASE_HI / 4] == (uint32_t)(eq.ring_bus >> 32) &&
		      dev.regs[RNIC_REG_EQ_EQ_CONS / 4] == RNIC_EQ_CONS_ARM,
	      "eq-init-programs-registers-armed");
	for (unsigned t = 0; t < RNIC_EQ_NUM_TYPES; t++)
		rnic_eq_set_handler(&eq, t, on_event, &s);
	rnic_eq_set_handler(&eq, RNIC_EQ_NUM_TYPES, on_unknown, &s);
	CHECK(rnic_eq_set_handler(&eq, RNIC_EQ_NUM_TYPES + 1, on_event, &s) == -EINVAL, "eq-set-handler-bad-type");
	CHECK(rnic_eq_poll(&eq, 16, 0) == 0, "eq-empty-poll");

	/* 5 passes over an 8-entry ring in random bursts, consumed in random budgets. */
	uint32_t produced = 0, consumed = 0;
	ok = 1;
	for (int round = 0; round < 40 && ok; round++) {
		uint32_t room = 8 - (produced - consumed), burst = tb_rand_below(room + 1);
		for (uint32_t i = 0; i < burst; i++, produced++)
			nic_write(&eq, produced, produced % 7);
		s.n = 0;
		unsigned budget = 1 + tb_rand_below(8);
		int got = rnic_eq_poll(&eq, budget, round & 1);
		uint32_t want = produced - consumed < budget ? produced - consumed : budget;
		ok &= (uint32_t)got == want && s.n == want;
		for (unsigned i = 0; i < s.n && ok; i++) {
			uint32_t k = consumed + i;
			ok &= s.ev[i].type == k % 7 && s.ev[i].subtype == (k & 0xFF) && s.ev[i].handle == 1000 + k &&
			      s.ev[i].data == ~k;
		}
		consumed += (uint32_t)got;
		if (got || (round & 1))
			ok &= dev.regs[RNIC_REG_EQ_EQ_CONS / 4] == (consumed | ((round & 1) ? RNIC_EQ_CONS_ARM : 0));
	}
	CHECK(ok && consumed > 16, "eq-phase-across-wraps-in-order");
	CHECK(eq.ci == consumed, "eq-consumer-index");

	/* An unknown event type goes to the catch-all handler. */
	consumed += (uint32_t)rnic_eq_poll(&eq, 16, 0);
	CHECK(consumed == produced, "eq-drain");
	s.n = 0;
	nic_write(&eq, consumed, 0xEE);
	CHECK(rnic_eq_poll(&eq, 4, 1) == 1 && s.unknown == 1 && s.n == 0 && eq.counts[RNIC_EQ_NUM_TYPES] == 1,
	      "eq-unknown-type-catch-all");
	/* A stale entry from the previous pass is not consumed. */
	CHECK(rnic_eq_poll(&eq, 4, 0) == 0, "eq-stale-entry-not-consumed");
	CHECK(dev.lock_errors == 0 && dev.lock_depth[RNIC_LOCK_EQ] == 0, "eq-lock-balanced");
	/* The verbs event of each QP_FATAL (subtype, side), the table of docs/firmware.md. */
	{
		static const struct {
			uint32_t type, st, side;
			int want;
		} m[] = {
			{ RNIC_EQ_TYPE_CQ_ERROR, 0, 0, RNIC_IB_EVENT_CQ_ERR },
			{ RNIC_EQ_TYPE_COMPLETION, 0, 0, -1 },
			{ RNIC_EQ_TYPE_QP_FATAL, RNIC_WC_STATUS_LOC_QP_OP_ERR, RNIC_EQ_QP_SIDE_REQUESTER, RNIC_IB_EVENT_QP_FATAL },
			{ RNIC_EQ_TYPE_QP_FATAL, RNIC_WC_STATUS_LOC_QP_OP_ERR, RNIC_EQ_QP_SIDE_RESPONDER, RNIC_IB_EVENT_QP_FATAL },
			{ RNIC_EQ_TYPE_QP_FATAL, RNIC_WC_STATUS_RETRY_EXC_ERR, RNIC_EQ_QP_SIDE_REQUESTER, -1 },
			{ RNIC_EQ_TYPE_QP_FATAL, RNIC_WC_STATUS_REM_ACCESS_ERR, RNIC_EQ_QP_SIDE_REQUESTER, -1 },
			{ RNIC_EQ_TYPE_QP_FATAL, RNIC_WC_STATUS_REM_ACCESS_ERR, RNIC_EQ_QP_SIDE_RESPONDER, RNIC_IB_EVENT_QP_ACCESS_ERR },
			{ RNIC_EQ_TYPE_QP_FATAL, RNIC_WC_STATUS_LOC_PROT_ERR, RNIC_EQ_QP_SIDE_RESPONDER, RNIC_IB_EVENT_QP_ACCESS_ERR },
			{ RNIC_EQ_TYPE_QP_FATAL, RNIC_WC_STATUS_REM_INV_REQ_ERR, RNIC_EQ_QP_SIDE_RESPONDER, RNIC_IB_EVENT_QP_REQ_ERR },
			{ RNIC_EQ_TYPE_QP_FATAL, RNIC_WC_STATUS_LOC_LEN_ERR, RNIC_EQ_QP_SIDE_RESPONDER, RNIC_IB_EVENT_QP_REQ_ERR },
			{ RNIC_EQ_TYPE_QP_FATAL, RNIC_WC_STATUS_REM_OP_ERR, RNIC_EQ_QP_SIDE_RESPONDER, RNIC_IB_EVENT_QP_FATAL },
		};
		int good = 1;
		for (unsigned i = 0; i < sizeof m / sizeof m[0]; i++) {
			struct rnic_event ev = { m[i].type, m[i].st, 7, m[i].side };
			good &= rnic_eq_ib_event(&ev) == m[i].want;
		}
		CHECK(good, "eq-qp-fatal-verbs-event-mapping");
	}
	rnic_eq_fini(&eq);
	CHECK(dev.live_allocs == 0 && dev.regs[RNIC_REG_EQ_EQ_LOG_SIZE / 4] == 0, "eq-fini");
	mock_free_all(&dev);
}
