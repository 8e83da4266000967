/* Event-queue consumer. */
#include "rnic_eq.h"
#include "rnic_compat.h"
#include "rnic_spec.h"

int rnic_eq_init(struct rnic_eq *eq, const struct rnic_os *os, unsigned log_size, unsigned msix_vector)
{
	size_t bytes;
	void *cpu;
	uint64_t bus;
	int rc;

	memset(eq, 0, sizeof(*eq));
	if (log_size == 0 || log_size > RNIC_EQ_MAX_LOG)
		return -EINVAL;
	if (!os->dma_alloc)
		return -EOPNOTSUPP;
	bytes = (size_t)RNIC_EQ_ENTRY_SIZE << log_size;
	rc = os->dma_alloc(os->ctx, bytes, 64, &cpu, &bus);
	if (rc)
		return rc;
	memset(cpu, 0, bytes); /* owner 0 everywhere: the first pass writes 1 */
	eq->os = os;
	eq->ring = cpu;
	eq->ring_bus = bus;
	eq->log_size = log_size;
	rnic_wmb();
	rnic_wr32(os, RNIC_REG_EQ_EQ_BASE_LO, (uint32_t)bus);
	rnic_wr32(os, RNIC_REG_EQ_EQ_BASE_HI, (uint32_t)(bus >> 32));
	rnic_wr32(os, RNIC_REG_EQ_EQ_MSIX_VECTOR, msix_vector);
	rnic_wr32(os, RNIC_REG_EQ_EQ_LOG_SIZE, log_size);
	rnic_wr32(os, RNIC_REG_EQ_EQ_CONS, RNIC_EQ_CONS_ARM);
	return 0;
}

void rnic_eq_fini(struct rnic_eq *eq)
{
	const struct rnic_os *os = eq->os;

	if (!os)
		return;
	rnic_wr32(os, RNIC_REG_EQ_EQ_LOG_SIZE, 0);
	if (os->dma_free)
		os->dma_free(os->ctx, (size_t)RNIC_EQ_ENTRY_SIZE << eq->log_size, eq->ring, eq->ring_bus);
	eq->os = NULL;
	eq->ring = NULL;
}

int rnic_eq_set_handler(struct rnic_eq *eq, unsigned type, rnic_eq_handler h, void *arg)
{
	if (type > RNIC_EQ_NUM_TYPES)
		return -EINVAL;
	if (type == RNIC_EQ_NUM_TYPES)
		eq->unknown = h;
	else
		eq->handlers[type] = h;
	eq->arg = arg;
	return 0;
}

int rnic_eq_poll(struct rnic_eq *eq, unsigned budget, int arm)
{
	uint32_t mask = (1u << eq->log_size) - 1;
	int n = 0;

	if (!eq->ring)
		return 0;
	if (eq->os->lock)
		eq->os->lock(eq->os->ctx, RNIC_LOCK_EQ);
	while ((unsigned)n < budget) {
		const uint8_t *e = eq->ring + (size_t)(eq->ci & mask) * RNIC_EQ_ENTRY_SIZE;
		/* Pass 0 (ci < size) expects owner 1, pass 1 expects 0, and so on. */
		uint32_t expect = ((eq->ci >> eq->log_size) & 1u) ^ 1u;
		struct rnic_event ev;
		rnic_eq_handler h;

		rnic_rmb();
		if (rnic_eq_entry_get_owner(e) != expect)
			break;
		rnic_rmb(); /* the rest of the entry after its owner bit */
		ev.type = rnic_eq_entry_get_event_type(e);
		ev.subtype = rnic_eq_entry_get_subtype(e);
		ev.handle = rnic_eq_entry_get_handle(e);
		ev.data = rnic_eq_entry_get_data(e);
		eq->ci++;
		n++;
		h = ev.type < RNIC_EQ_NUM_TYPES ? eq->handlers[ev.type] : NULL;
		eq->counts[ev.type < RNIC_EQ_NUM_TYPES ? ev.type : RNIC_EQ_NUM_TYPES]++;
		if (!h)
			h = eq->unknown;
		if (h)
			h(eq->arg, &ev);
	}
	if (n || arm)
		rnic_wr32(eq->os, RNIC_REG_EQ_EQ_CONS,
			  (eq->ci & ~RNIC_EQ_CONS_ARM) | (arm ? RNIC_EQ_CONS_ARM : 0));
	if (eq->os->unlock)
		eq->os->unlock(eq->os->ctx, RNIC_LOCK_EQ);
	return n;
}

int rnic_eq_pending(const struct rnic_eq *eq)
{
	const uint8_t *e;

	if (!eq->ring)
		return 0;
	e = eq->ring + (size_t)(eq->ci & ((1u << eq->log_size) - 1)) * RNIC_EQ_ENTRY_SIZE;
	rnic_rmb();
	return rnic_eq_entry_get_owner(e) == (((eq->ci >> eq->log_size) & 1u) ^ 1u);
}

int rnic_eq_ib_event(const struct rnic_event *ev)
{
	if (ev->type == RNIC_EQ_TYPE_CQ_ERROR)
		return RNIC_IB_EVENT_CQ_ERR;
	if (ev->type != RNIC_EQ_TYPE_QP_FATAL)
		return -1;
	if (ev->subtype == RNIC_WC_STATUS_LOC_QP_OP_ERR)
		return RNIC_IB_EVENT_QP_FATAL; /* a WQE the NIC could not read: its wr_id is lost */
	if (ev->data != RNIC_EQ_QP_SIDE_RESPONDER)
		return -1;
	switch (ev->subtype) {
	case RNIC_WC_STATUS_REM_INV_REQ_ERR:
	case RNIC_WC_STATUS_LOC_LEN_ERR:
		return RNIC_IB_EVENT_QP_REQ_ERR;
	case RNIC_WC_STATUS_REM_ACCESS_ERR:
	case RNIC_WC_STATUS_LOC_PROT_ERR:
		return RNIC_IB_EVENT_QP_ACCESS_ERR;
	default:
		return RNIC_IB_EVENT_QP_FATAL;
	}
}

void rnic_dev_err_init(const struct rnic_os *os, unsigned msix_vector, uint32_t wdog_cycles)
{
	rnic_wr32(os, RNIC_REG_CTRL_DEV_ERR_MSIX_VECTOR, msix_vector);
	rnic_wr32(os, RNIC_REG_CTRL_WDOG_TIMEOUT, wdog_cycles);
}

uint32_t rnic_dev_err_take(const struct rnic_os *os, uint32_t mask)
{
	uint32_t bits = rnic_rd32(os, RNIC_REG_CTRL_DEV_ERR);

	if (bits & mask)
		rnic_wr32(os, RNIC_REG_CTRL_DEV_ERR_CLEAR, bits & mask);
	return bits;
}
