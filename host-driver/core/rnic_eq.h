/* Event-queue consumer: a ring of eq_entry written by the NIC, owner-bit phase tracking,
 * dispatch per event type, eq_cons updates. */
#ifndef RNIC_EQ_H
#define RNIC_EQ_H

#include "rnic_os.h"

#define RNIC_EQ_MAX_LOG 16u
#define RNIC_EQ_NUM_TYPES 8u	/* event_type values dispatched through the table */
#define RNIC_EQ_CONS_ARM 0x80000000u

struct rnic_event {
	uint32_t type, subtype, handle, data;
};

typedef void (*rnic_eq_handler)(void *arg, const struct rnic_event *ev);

struct rnic_eq {
	const struct rnic_os *os;
	uint8_t *ring;
	uint64_t ring_bus;
	uint32_t log_size;
	uint32_t ci;		/* free-running consumer index */
	void *arg;
	rnic_eq_handler handlers[RNIC_EQ_NUM_TYPES];
	rnic_eq_handler unknown;	/* types without a handler (may be NULL: dropped) */
	uint32_t counts[RNIC_EQ_NUM_TYPES + 1]; /* events seen per type; the last: unknown types */
};

/* Allocates 2^log_size entries, programs eq_base_lo/hi, eq_msix_vector, then eq_log_size
 * (which enables the EQ), and arms it. 0 or -EINVAL / the DMA errno. */
int rnic_eq_init(struct rnic_eq *eq, const struct rnic_os *os, unsigned log_size, unsigned msix_vector);
/* Disables (eq_log_size 0) and frees. */
void rnic_eq_fini(struct rnic_eq *eq);
/* Handler for one event type (type < RNIC_EQ_NUM_TYPES) or, with type = RNIC_EQ_NUM_TYPES,
 * for every other type. 0 or -EINVAL. */
int rnic_eq_set_handler(struct rnic_eq *eq, unsigned type, rnic_eq_handler h, void *arg);
/* Consumes at most budget events whose owner bit shows the current pass, dispatching each
 * (handlers run under RNIC_LOCK_EQ: they must not sleep nor poll this EQ);
 * then writes eq_cons = consumer index (bits 30:0) | RNIC_EQ_CONS_ARM when arm. Returns the
 * number consumed. */
int rnic_eq_poll(struct rnic_eq *eq, unsigned budget, int arm);
/* 1 when the entry at the consumer index is written (owner bit of the current pass), without
 * consuming it. The arm of rnic_eq_poll only makes the NIC raise the vector at its next event:
 * an entry written between the poll's last look and the arm raised nothing, so an interrupt
 * handler arms, makes sure the arm reached the NIC (a register read), then looks again. */
int rnic_eq_pending(const struct rnic_eq *eq);

/* The verbs asynchronous event an EQ entry stands for: the values of enum ib_event_type /
 * ibv_event_type (the same numbers in the kernel and in libibverbs), or -1 when the entry is
 * not one (a completion event, a command, an error the application already has in a CQE).
 * QP_FATAL (docs/firmware.md, Events): a responder's invalid request (REM_INV_REQ_ERR, a SEND
 * longer than its buffer: LOC_LEN_ERR) is QP_REQ_ERR, its access violation (REM_ACCESS_ERR, a
 * receive buffer's key: LOC_PROT_ERR) QP_ACCESS_ERR, any other responder error and a WQE the
 * NIC could not read (LOC_QP_OP_ERR, either side) QP_FATAL; the requester's other errors end
 * its WQE with that status in a CQE and raise no event (IBTA: completion errors). */
#define RNIC_IB_EVENT_CQ_ERR 0
#define RNIC_IB_EVENT_QP_FATAL 1
#define RNIC_IB_EVENT_QP_REQ_ERR 2
#define RNIC_IB_EVENT_QP_ACCESS_ERR 3
int rnic_eq_ib_event(const struct rnic_event *ev);

/* Device errors (BAR0 ctrl.dev_err, bits of enum dev_err_bit): the failures no event can
 * report (an EQ entry or a command slot the bus refused, a panic, the heartbeat watchdog).
 * Sticky; rnic_dev_err_take reads them and clears those in mask (write 1 to clear), returning
 * the bits that were set (all of them, not only mask's). rnic_dev_err_init programs the MSI-X
 * vector the device raises when a bit is set and the watchdog timeout (core cycles; 0: off). */
void rnic_dev_err_init(const struct rnic_os *os, unsigned msix_vector, uint32_t wdog_cycles);
uint32_t rnic_dev_err_take(const struct rnic_os *os, uint32_t mask);

#endif /* RNIC_EQ_H */
