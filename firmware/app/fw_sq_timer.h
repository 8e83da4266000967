/* Send queues, timers (fw_sq_timer.c): the local ACK timeout (4.096 us * 2^timeout) and RNR
 * waits per QP; fw_timers_poll (fw_xport.h) serves the expired ones. */
#ifndef FW_SQ_TIMER_H
#define FW_SQ_TIMER_H

#include <stdint.h>

#include "fw_res.h"
#include "hal.h"

/* The QP's timer expires cycles from now (rnr: an RNR wait, not an ACK timeout). */
void sq_arm(uint32_t qpn, uint64_t cycles, int rnr);
/* (Re)starts the ACK timer for what is outstanding (stops it when nothing is, or timeout 0). */
void arm_ack_timer(uint32_t qpn);

/* Progress on an armed ACK timer (an ACK; a WQE sent with nothing outstanding): the timeout
 * counts from now. Only noted, not re-armed (a 64-bit deadline per ACK cost ~50 cycles): the
 * expiry moves the deadline to this time + the timeout when it is still ahead (fw_timers_poll),
 * so the timeout fires as before, the timeout after the last progress. Bit 0 set: 0 means
 * none (a progress stamp one cycle early makes the deadline at most one cycle later). */
static inline void ack_progress(struct fw_qp_run *r) { r->ack_at = hal_cycles32() | 1u; }

#endif /* FW_SQ_TIMER_H */
