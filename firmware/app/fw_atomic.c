/* Atomics at the responder: the receive engine has checked the rkey and translated the
 * address; the firmware reads the 8 bytes, computes, writes back and answers with an ATOMIC
 * ACKNOWLEDGE carrying the original value. A repeated request (same PSN, after a lost ACK) is
 * answered from the history without executing it again (IBTA 9.4.5). */
#include "fw_dma.h"
#include "fw_log.h"
#include "fw_mbox.h"
#include "fw_res.h"
#include "fw_xport.h"

#define BUF_ATOMIC 0xC80u
#define HIST 4u

struct atomic_hist {
	uint32_t psn[HIST];
	uint64_t orig[HIST];
	uint8_t valid[HIST], next;
};
_Static_assert(sizeof(struct atomic_hist) <= FW_QPC_ATOMIC_BYTES, "atomic history exceeds its QPC share");
/* one per QP in the QP-context RAM (fw_res_init) */
#define hist ((struct atomic_hist *)fw_res.qp_atomic)

/* Every ATOMIC_REQ event gets one answer: the transmit engine holds the QP's later responses
 * until it leaves (responses in PSN order, rtl/xport_tx). syndrome AETH_SYNDROME_ACK: the ATOMIC ACKNOWLEDGE
 * (no credit information); else a NAK of that syndrome. */
static int send_ack(uint32_t qpn, uint32_t psn, uint32_t msn, uint64_t orig, uint32_t syndrome)
{
	FW_LAYOUT_ALIGN uint8_t d[RNIC_TX_DESC_SIZE] = { 0 };
	rnic_tx_desc_set_qpn(d, qpn);
	rnic_tx_desc_set_kind(d, syndrome == RNIC_AETH_SYNDROME_ACK ? RNIC_MSG_KIND_ATOMIC_ACK : RNIC_MSG_KIND_ACK);
	rnic_tx_desc_set_psn(d, psn);
	rnic_tx_desc_set_syndrome(d, syndrome);
	rnic_tx_desc_set_imm_data(d, msn);
	rnic_tx_desc_set_swap_add(d, orig);
	return fw_tc_mbox_send(RNIC_FW_TC_TXD_DATA, RNIC_FW_TC_TXD_COMMIT, RNIC_FW_TC_TXD_STATUS, d,
			       RNIC_TX_DESC_SIZE / 4, 0);
}

void fw_atomic_req(const uint8_t *ev)
{
	uint32_t qpn = rnic_rx_event_get_qpn(ev), psn = rnic_rx_event_get_psn(ev);
	uint32_t op = rnic_rx_event_get_opcode(ev);
	uint64_t va = rnic_rx_event_get_va(ev);
	struct atomic_hist *h = &hist[qpn];
	FW_LAYOUT_ALIGN uint8_t b[8];

	for (uint32_t i = 0; i < HIST; i++)
		if (h->valid[i] && h->psn[i] == psn) {
			send_ack(qpn, psn, rnic_rx_event_get_msn(ev), h->orig[i], RNIC_AETH_SYNDROME_ACK);
			return;
		}
	if ((va & 7) || (op != RNIC_BTH_OPCODE_RC_CMP_SWAP && op != RNIC_BTH_OPCODE_RC_FETCH_ADD) ||
	    fw_dma_xfer(va, BUF_ATOMIC, 8, FW_DMA_TO_BUF)) {
		fw_log("qp %u: atomic at %08x failed", (unsigned)qpn, (unsigned)va);
		send_ack(qpn, psn, rnic_rx_event_get_msn(ev), 0, RNIC_AETH_SYNDROME_NAK_REM_OP);
		return;
	}
	fw_buf_read(BUF_ATOMIC, b, 8);
	uint64_t orig = rnic_ld_le(b, 8), val = orig;
	if (op == RNIC_BTH_OPCODE_RC_FETCH_ADD)
		val = orig + rnic_rx_event_get_swap_add(ev);
	else if (orig == rnic_rx_event_get_compare(ev))
		val = rnic_rx_event_get_swap_add(ev);
	if (val != orig) {
		rnic_st_le(b, 8, val);
		fw_buf_write(BUF_ATOMIC, b, 8);
		if (fw_dma_xfer(va, BUF_ATOMIC, 8, FW_DMA_TO_HOST)) {
			send_ack(qpn, psn, rnic_rx_event_get_msn(ev), 0, RNIC_AETH_SYNDROME_NAK_REM_OP);
			return;
		}
	}
	h->psn[h->next] = psn;
	h->orig[h->next] = orig;
	h->valid[h->next] = 1;
	h->next = (uint8_t)((h->next + 1) % HIST);
	send_ack(qpn, psn, rnic_rx_event_get_msn(ev), orig, RNIC_AETH_SYNDROME_ACK);
}

void fw_atomic_reset(uint32_t qpn)
{
	for (uint32_t i = 0; i < HIST; i++)
		hist[qpn].valid[i] = 0;
}
