/* Command-queue client: fills slots, rings cmdq_prod, polls done bits with a timeout. */
#include "rnic_cmdq.h"
#include "rnic_compat.h"
#include "rnic_spec.h"

enum { SLOT_FREE = 0, SLOT_POSTED, SLOT_REAPED, SLOT_ABANDONED };

static void cmdq_lock(const struct rnic_os *os)
{
	if (os->lock)
		os->lock(os->ctx, RNIC_LOCK_CMDQ);
}

static void cmdq_unlock(const struct rnic_os *os)
{
	if (os->unlock)
		os->unlock(os->ctx, RNIC_LOCK_CMDQ);
}

static uint8_t *slot_of(const struct rnic_cmdq *q, uint32_t idx)
{
	return q->ring + (size_t)(idx & ((1u << q->log_size) - 1)) * RNIC_CMD_ENTRY_SIZE;
}

/* A done bit written by the device: read it after a fence so the compiler re-reads memory. */
static int slot_done(const uint8_t *slot)
{
	rnic_rmb();
	return rnic_cmd_entry_get_done(slot) != 0;
}

/* Poll-loop time keeping: real time when the OS gives it, else one poll interval per poll. */
struct poll_clock {
	uint64_t start_ns;
	uint64_t counted_us;
};

static void clock_start(const struct rnic_cmdq *q, struct poll_clock *c)
{
	c->start_ns = q->os->now_ns ? q->os->now_ns(q->os->ctx) : 0;
	c->counted_us = 0;
}

static int clock_expired(const struct rnic_cmdq *q, const struct poll_clock *c)
{
	if (q->os->now_ns)
		return q->os->now_ns(q->os->ctx) - c->start_ns >= (uint64_t)q->timeout_us * 1000u;
	return c->counted_us >= q->timeout_us;
}

static void clock_sleep(const struct rnic_cmdq *q, struct poll_clock *c)
{
	if (q->os->sleep_us)
		q->os->sleep_us(q->os->ctx, q->poll_us);
	c->counted_us += q->poll_us ? q->poll_us : 1;
}

int rnic_cmd_status_errno(unsigned status)
{
	switch (status) {
	case RNIC_CMD_STATUS_OK:
		return 0;
	case RNIC_CMD_STATUS_BAD_OPCODE:
		return -EOPNOTSUPP;
	case RNIC_CMD_STATUS_BAD_PARAM:
	case RNIC_CMD_STATUS_BAD_STATE:
		return -EINVAL;
	case RNIC_CMD_STATUS_BAD_HANDLE:
		return -ENOENT;
	case RNIC_CMD_STATUS_NO_RESOURCES:
		return -ENOMEM;
	case RNIC_CMD_STATUS_BUSY:
		return -EBUSY;
	default: /* DMA_ERROR, INTERNAL, unknown */
		return -EIO;
	}
}

int rnic_cmdq_init(struct rnic_cmdq *q, const struct rnic_os *os, unsigned log_size)
{
	size_t bytes;
	void *cpu;
	uint64_t bus;
	int rc;

	memset(q, 0, sizeof(*q));
	if (log_size == 0 || log_size > RNIC_CMDQ_MAX_LOG)
		return -EINVAL;
	if (!os->dma_alloc)
		return -EOPNOTSUPP;
	bytes = (size_t)RNIC_CMD_ENTRY_SIZE << log_size;
	rc = os->dma_alloc(os->ctx, bytes, RNIC_CMD_ENTRY_SIZE, &cpu, &bus);
	if (rc)
		return rc;
	if (bus & (RNIC_CMD_ENTRY_SIZE - 1)) {
		if (os->dma_free)
			os->dma_free(os->ctx, bytes, cpu, bus);
		return -EINVAL;
	}
	memset(cpu, 0, bytes);
	q->os = os;
	q->ring = cpu;
	q->ring_bus = bus;
	q->log_size = log_size;
	q->timeout_us = RNIC_CMDQ_DEFAULT_TIMEOUT_US;
	q->poll_us = 1;
	rnic_wmb();
	rnic_wr32(os, RNIC_REG_CMDQ_CMDQ_BASE_LO, (uint32_t)bus);
	rnic_wr32(os, RNIC_REG_CMDQ_CMDQ_BASE_HI, (uint32_t)(bus >> 32));
	rnic_wr32(os, RNIC_REG_CMDQ_CMDQ_LOG_SIZE, log_size);
	q->prod = q->tail = rnic_rd32(os, RNIC_REG_CMDQ_CMDQ_CONS);
	return 0;
}

void rnic_cmdq_fini(struct rnic_cmdq *q)
{
	const struct rnic_os *os = q->os;

	if (!os)
		return;
	rnic_wr32(os, RNIC_REG_CMDQ_CMDQ_LOG_SIZE, 0);
	rnic_wr32(os, RNIC_REG_CMDQ_CMDQ_BASE_LO, 0);
	rnic_wr32(os, RNIC_REG_CMDQ_CMDQ_BASE_HI, 0);
	if (os->dma_free)
		os->dma_free(os->ctx, (size_t)RNIC_CMD_ENTRY_SIZE << q->log_size, q->ring, q->ring_bus);
	q->os = NULL;
	q->ring = NULL;
}

/* Frees slots from the tail: reaped ones, and abandoned ones the firmware has since finished.
 * Called with the lock held. */
static void cmdq_reclaim(struct rnic_cmdq *q)
{
	uint32_t mask = (1u << q->log_size) - 1;

	while (q->tail != q->prod) {
		uint8_t *st = &q->state[q->tail & mask];

		if (*st == SLOT_ABANDONED && slot_done(slot_of(q, q->tail)))
			*st = SLOT_REAPED;
		if (*st != SLOT_REAPED)
			break;
		*st = SLOT_FREE;
		q->tail++;
	}
}

int rnic_cmdq_post(struct rnic_cmdq *q, const void *cmd, uint16_t *token)
{
	uint32_t idx;
	uint8_t *slot;

	if (!cmd || !q->ring)
		return -EINVAL;
	cmdq_lock(q->os);
	cmdq_reclaim(q);
	if (q->prod - q->tail >= (1u << q->log_size)) {
		cmdq_unlock(q->os);
		return -EBUSY;
	}
	idx = q->prod;
	slot = slot_of(q, idx);
	/* The whole slot is rewritten: this clears the previous status and done bit. */
	memcpy(slot, cmd, RNIC_CMD_ENTRY_SIZE);
	rnic_cmd_entry_set_token(slot, (uint16_t)idx);
	rnic_cmd_entry_set_status(slot, 0);
	rnic_cmd_entry_set_done(slot, 0);
	q->state[idx & ((1u << q->log_size) - 1)] = SLOT_POSTED;
	q->prod = idx + 1;
	rnic_wmb(); /* the slot is in memory before the firmware hears of it */
	rnic_wr32(q->os, RNIC_REG_CMDQ_CMDQ_PROD, q->prod);
	cmdq_unlock(q->os);
	if (token)
		*token = (uint16_t)idx;
	return 0;
}

int rnic_cmdq_wait(struct rnic_cmdq *q, uint16_t token, void *out, uint8_t *raw_status)
{
	uint32_t mask, idx;
	uint8_t *slot;
	struct poll_clock clk;
	unsigned status;

	if (raw_status)
		*raw_status = 0xFF;
	if (!q->ring)
		return -EINVAL;
	mask = (1u << q->log_size) - 1;
	cmdq_lock(q->os);
	/* The in-flight command whose free-running index has these low 16 bits. */
	idx = q->prod - (uint16_t)((uint16_t)q->prod - token);
	slot = slot_of(q, idx);
	if (idx - q->tail >= q->prod - q->tail || q->state[idx & mask] != SLOT_POSTED ||
	    rnic_cmd_entry_get_token(slot) != token) {
		cmdq_unlock(q->os);
		return -EINVAL;
	}
	cmdq_unlock(q->os);

	clock_start(q, &clk);
	for (unsigned polls = 1; !slot_done(slot); polls++) {
		/* A command slot the bus refused to the device (ctrl.dev_err CMDQ_READ / CMDQ_WRITE)
		 * never completes: give up with -EIO instead of waiting for the timeout. Looked at
		 * every 64 polls only, so a normal command costs no register read. The bits are
		 * cleared here (write 1 to clear): this wait reports them. All-ones is no status but a
		 * device that stopped answering (surprise removal): that one ends in the timeout, which
		 * the OS layer turns into "device dead". */
		if (!(polls & 63)) {
			uint32_t cmd_bits = (1u << RNIC_DEV_ERR_BIT_CMDQ_READ) | (1u << RNIC_DEV_ERR_BIT_CMDQ_WRITE);
			uint32_t raw = rnic_rd32(q->os, RNIC_REG_CTRL_DEV_ERR);
			uint32_t bits = raw == 0xFFFFFFFFu ? 0 : raw & cmd_bits;
			if (bits) {
				rnic_wr32(q->os, RNIC_REG_CTRL_DEV_ERR_CLEAR, bits);
				cmdq_lock(q->os);
				q->state[idx & mask] = SLOT_ABANDONED;
				q->dev_errors++;
				cmdq_unlock(q->os);
				return -EIO;
			}
		}
		if (clock_expired(q, &clk)) {
			cmdq_lock(q->os);
			q->state[idx & mask] = SLOT_ABANDONED;
			q->timeouts++;
			cmdq_unlock(q->os);
			return -ETIMEDOUT;
		}
		clock_sleep(q, &clk);
	}
	/* done is set last by the firmware: outputs and status are valid after the fence. */
	rnic_rmb();
	status = rnic_cmd_entry_get_status(slot);
	if (out)
		memcpy(out, slot, RNIC_CMD_ENTRY_SIZE);
	if (raw_status)
		*raw_status = (uint8_t)status;
	cmdq_lock(q->os);
	q->state[idx & mask] = SLOT_REAPED;
	cmdq_reclaim(q);
	cmdq_unlock(q->os);
	return rnic_cmd_status_errno(status);
}

int rnic_cmdq_exec(struct rnic_cmdq *q, void *cmd, uint8_t *raw_status)
{
	struct poll_clock clk;
	uint16_t token;
	int rc;

	if (raw_status)
		*raw_status = 0xFF;
	clock_start(q, &clk);
	while ((rc = rnic_cmdq_post(q, cmd, &token)) == -EBUSY) {
		if (clock_expired(q, &clk))
			return -EBUSY;
		clock_sleep(q, &clk);
	}
	if (rc)
		return rc;
	return rnic_cmdq_wait(q, token, cmd, raw_status);
}
