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
/* 1: SENDs go in runs too (off: a SEND ends its run, so the requester hands SENDs over no faster
 * than the responder's firmware hands receive buffers to its engine; fw_sq_txb.c). */
extern uint8_t fw_txb_send_runs;
/* WQEs the engine sent, commands that stopped short of their run ("not mine": the WQE stopped
 * at falls back), commands that sent something (the unit tests look). */
extern uint32_t fw_txb_sent, fw_txb_not_mine, fw_txb_runs;

void txb_init(void);
/* WQE idx of engine QP qpn (context c), staged at tightly coupled address b, and the staged
 * one-WQEBB WQEs after it, a run of at most n (and of what is staged, and of the engine's
 * longest): the WQEs (= WQEBBs) the engine sent (and recorded on a first send), >= 1; -1 when it
 * sent none: the caller sends idx its own way (send_one). A run stopped short leaves its next WQE
 * to send_one: txb_stopped() says so once. */
int32_t txb_send(uint32_t qpn, uint8_t *c, uint32_t idx, int32_t b, uint32_t n);
/* The run of QP qpn stopped at WQE idx: 1 once (the caller sends idx with send_one). */
int txb_stopped(uint32_t qpn, uint32_t idx);

#endif /* FW_SQ_TXB_H */
