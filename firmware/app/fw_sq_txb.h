/* Send queues, the transmit builder (rtl/tx_build; docs/decisions/tx-build.md): an engine QP's
 * common WQE (one WQEBB, SEND/WRITE, not inline, at most tx_seg_pkts packets) sent by one command
 * to the RTL, which reads the staged WQEBB itself and hands the transmit engine the tx_desc and
 * the send-retirement engine the sr_rec that send_fast and rec_srt would store. */
#ifndef FW_SQ_TXB_H
#define FW_SQ_TXB_H

#include <stdint.h>

/* The engine is there (hw_caps.tx_build) and the send-retirement engine retires (fw_srt_ok): set
 * by srt_init. fw_txb_off: the unit tests' and the bench's switch (the firmware's own path). */
extern uint8_t fw_txb_ok;
extern uint8_t fw_txb_off;
/* Commands whose answer was "not mine", by result (the unit tests look; the rest fall back). */
extern uint32_t fw_txb_sent, fw_txb_not_mine;

void txb_init(void);
/* WQE idx of engine QP qpn (context c), staged at tightly coupled address b: 1 when the engine
 * sent it (and recorded it on a first send), -1 when it answered not mine: nothing was sent or
 * recorded, the caller sends it its own way (send_one). */
int32_t txb_send(uint32_t qpn, uint8_t *c, uint32_t idx, int32_t b);

#endif /* FW_SQ_TXB_H */
