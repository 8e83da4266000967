/* Send queues, timers (fw_sq_timer.c): the local ACK timeout (4.096 us * 2^timeout) and RNR
 * waits per QP; fw_timers_poll (fw_xport.h) serves the expired ones. */
#ifndef FW_SQ_TIMER_H
#define FW_SQ_TIMER_H

#include <stdint.h>

/* The QP's timer expires cycles from now (rnr: an RNR wait, not an ACK timeout). */
void sq_arm(uint32_t qpn, uint64_t cycles, int rnr);
/* (Re)starts the ACK timer for what is outstanding (stops it when nothing is, or timeout 0). */
void arm_ack_timer(uint32_t qpn);

#endif /* FW_SQ_TIMER_H */
