/* Driver-to-firmware command queue client: a ring of 64-byte cmd_entry slots in DMA memory,
 * registered through the cmdq register block. Protocol: host-driver/core/README.md. */
#ifndef RNIC_CMDQ_H
#define RNIC_CMDQ_H

#include "rnic_os.h"
#include "rnic_spec.h"

#define RNIC_CMDQ_MAX_LOG 8u			/* at most 256 slots */
#define RNIC_CMDQ_DEFAULT_TIMEOUT_US 1000000u	/* 1 s per command */
#define RNIC_CMDQ_FLAG_EVENT (1u << RNIC_CMD_FLAG_EVENT) /* post a CMD_DONE event */

struct rnic_cmdq {
	const struct rnic_os *os;
	uint8_t *ring;		/* CPU address of 2^log_size slots */
	uint64_t ring_bus;
	uint32_t log_size;
	uint32_t prod;		/* free-running count of posted commands (what cmdq_prod holds) */
	uint32_t tail;		/* free-running index of the oldest slot not yet free */
	uint32_t timeout_us;	/* per command, and for waiting on a full ring */
	uint32_t poll_us;	/* sleep between polls of a done bit */
	uint32_t timeouts;	/* commands abandoned after a timeout */
	uint32_t dev_errors;	/* commands abandoned on a device error (ctrl.dev_err CMDQ_*) */
	uint8_t state[1u << RNIC_CMDQ_MAX_LOG];
};

/* Allocates the ring, programs cmdq_base_lo/hi then cmdq_log_size, and starts the producer at
 * the firmware's cmdq_cons. 0, -EINVAL (log_size 0 or > RNIC_CMDQ_MAX_LOG), or the DMA errno. */
int rnic_cmdq_init(struct rnic_cmdq *q, const struct rnic_os *os, unsigned log_size);

/* Disables the ring (cmdq_log_size 0) and frees it. Do not call with commands in flight. */
void rnic_cmdq_fini(struct rnic_cmdq *q);

/* Copies a 64-byte command (opcode, flags and parameters filled with the cmd_* accessors) into
 * the next slot, sets its token, clears status/done, and writes cmdq_prod. On success *token
 * (also the value echoed in CMD_DONE events) names the command for rnic_cmdq_wait.
 * -EBUSY when every slot is in flight, -EINVAL for a NULL command. */
int rnic_cmdq_post(struct rnic_cmdq *q, const void *cmd, uint16_t *token);

/* Polls the slot of token until the firmware sets done, then copies the whole slot (outputs
 * included) into out (64 bytes, may be NULL) and returns rnic_cmd_status_errno(status); the
 * raw cmd_status goes to *raw_status when not NULL. -ETIMEDOUT after q->timeout_us (the slot
 * stays owned by the firmware until it completes; *raw_status is then 0xFF); -EINVAL for a
 * token that is not in flight. */
int rnic_cmdq_wait(struct rnic_cmdq *q, uint16_t token, void *out, uint8_t *raw_status);

/* post + wait; cmd is both the input and, on return, the completed slot. If the ring is full
 * it waits up to q->timeout_us for a slot (-EBUSY after that). */
int rnic_cmdq_exec(struct rnic_cmdq *q, void *cmd, uint8_t *raw_status);

/* cmd_status to a negative errno: OK 0, BAD_OPCODE -EOPNOTSUPP, BAD_PARAM and BAD_STATE
 * -EINVAL, BAD_HANDLE -ENOENT, NO_RESOURCES -ENOMEM, BUSY -EBUSY, DMA_ERROR, INTERNAL and any
 * unknown value -EIO. */
int rnic_cmd_status_errno(unsigned status);

#endif /* RNIC_CMDQ_H */
