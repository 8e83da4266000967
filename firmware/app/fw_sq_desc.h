/* Send queues, transmit descriptors (fw_sq_desc.c): the service pass over a QP's posted WQEs,
 * tx_desc / rd_desc to the engines (the common WQE without copies, the general path, long
 * messages in pieces), stalls. The pass itself is fw_sq_service (fw_xport.h). */
#ifndef FW_SQ_DESC_H
#define FW_SQ_DESC_H

#include <stdint.h>

/* The cached descriptor of the message sent in pieces (pc_d) is valid. */
extern uint8_t pc_ok;
/* The QP cannot go on for a reason that passes: marked stalled, retried after the events. 0. */
uint32_t sq_stall(uint32_t qpn);
/* How many of the READ at psn's npkts responses the receive engine placed (a re-issue asks for
 * the rest); 0 when none or the READ is new to it. */
uint32_t read_progress(uint32_t qpn, uint32_t psn, uint32_t npkts);

#endif /* FW_SQ_DESC_H */
