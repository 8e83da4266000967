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

/* A service pass hands at most SQ_PASS_MAX WQEs to the transmit engine, then the QP is marked
 * stalled and continues after the events and the other doorbells were served
 * (fw_sq_retry_stalled): a host that posts 16 or more at once no longer has the firmware send
 * them all while the ACKs, the receive completions and the other QPs wait. Without it the faster
 * send path let a 16-deep 4 KiB SEND stream outrun the responder's buffer refill at its start
 * (one RNR NAK, docs/firmware.md). Six, not the old fetch batch of 8: with doorbell records that
 * grow to a host batch the requester sends faster, and 8 let that stream meet one RNR NAK again
 * (7 and 6: none, the 64 B stream the same). */
#define SQ_PASS_MAX 6u

#endif /* FW_SQ_DESC_H */
