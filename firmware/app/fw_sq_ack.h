/* Send queues, acknowledgements (fw_sq_ack.c): ACK / NAK / RNR NAK / READ response / atomic
 * ACK events, in-order retirement, go-back-N from a PSN, UD transmit completions. */
#ifndef FW_SQ_ACK_H
#define FW_SQ_ACK_H

#include <stdint.h>

/* One requester-side event of qpn; status is the receive engine's placement verdict of a
 * READ_RESP_DONE / ATOMIC_ACK. */
void fw_sq_ack(uint32_t qpn, uint32_t kind, uint32_t psn, uint32_t syndrome, uint32_t status);
/* TX_DONE: a UD message left the NIC (UD sends complete then, in order). */
void fw_sq_tx_done(uint32_t qpn);
/* The transmit engine could not send the QP's oldest message: it completes with status and the
 * QP goes to ERR. */
void fw_sq_tx_error(uint32_t qpn, uint32_t status);
/* Go-back-N from psn (the WQE holding it resumes there, every later one is sent again). */
void resend_from(uint32_t qpn, uint32_t psn);

#endif /* FW_SQ_ACK_H */
