/* The transmit builder's rule (docs/decisions/tx-build.md) as the firmware's send_fast and
 * rec_srt apply it (firmware/app/fw_sq_desc.c, fw_sq_rec.c), written from the spec's layouts with
 * the generated accessors only: what rtl/tx_build must answer, send and record for one command.
 * C11 and C++, so the firmware's mock (firmware/tests) can use it when the engine is wired. */
#ifndef TXB_REF_H
#define TXB_REF_H

#include <stdint.h>
#include <string.h>

#include "rnic_spec.h"

struct txb_ref_out {
	uint32_t result;   /* txb_result */
	uint32_t next_psn; /* txb_status.next_psn */
	int has_rec;       /* an sr_rec goes to the retirement engine */
	uint8_t txd[RNIC_TX_DESC_SIZE] __attribute__((aligned(8)));
	uint8_t rec[RNIC_SR_REC_SIZE] __attribute__((aligned(8)));
};

/* send_fast's msg_kind() for the four opcodes it takes */
static inline uint32_t txb_ref_kind(uint32_t op)
{
	switch (op) {
	case RNIC_WQE_OP_RDMA_WRITE: return RNIC_MSG_KIND_WRITE;
	case RNIC_WQE_OP_RDMA_WRITE_WITH_IMM: return RNIC_MSG_KIND_WRITE_IMM;
	case RNIC_WQE_OP_SEND_WITH_IMM: return RNIC_MSG_KIND_SEND_IMM;
	default: return RNIC_MSG_KIND_SEND;
	}
}

/* cmd: a txb_cmd; w: the WQEBB as the engine read it; bf_held: the capture still named the
 * doorbell (bf_status valid, seq, page) after the read (used only with cmd.bf); free: the
 * retirement engine's free records when the engine decided (one kept in reserve: tx_build.sv). */
static inline void txb_ref(const uint8_t *cmd, const uint8_t *w, int bf_held, uint32_t free, struct txb_ref_out *o)
{
	uint32_t op = rnic_wqe_ctrl_get_opcode(w), flags = rnic_wqe_ctrl_get_flags(w);
	uint32_t num_ds = rnic_wqe_ctrl_get_num_ds(w), nsge = rnic_wqe_ctrl_get_num_sge(w);
	uint32_t len = rnic_wqe_ctrl_get_total_len(w), psn = rnic_txb_cmd_get_psn(cmd);
	uint32_t is_write = op == RNIC_WQE_OP_RDMA_WRITE || op == RNIC_WQE_OP_RDMA_WRITE_WITH_IMM;
	uint32_t retx = rnic_txb_cmd_get_retx(cmd);
	/* packets at the path MTU, without the 32-bit wrap of len + mtu - 1 */
	uint32_t mtu_log = 7u + rnic_txb_cmd_get_path_mtu(cmd);
	uint64_t npkts = len == 0 ? 1 : ((uint64_t)len + (1ull << mtu_log) - 1) >> mtu_log;

	memset(o, 0, sizeof(*o));
	o->next_psn = psn;
	if (rnic_txb_cmd_get_bf(cmd) && !bf_held)
		o->result = RNIC_TXB_RESULT_BF_LOST;
	else if (op > RNIC_WQE_OP_SEND_WITH_IMM)
		o->result = RNIC_TXB_RESULT_OPCODE;
	else if (rnic_wqe_ctrl_get_wqe_index(w) != rnic_txb_cmd_get_wqe_index(cmd))
		o->result = RNIC_TXB_RESULT_INDEX;
	else if (num_ds > 2)
		o->result = RNIC_TXB_RESULT_SIZE;
	else if (flags & (1u << RNIC_WQE_FLAG_INLINE))
		o->result = RNIC_TXB_RESULT_INLINE;
	else if (nsge + is_write > num_ds)
		o->result = RNIC_TXB_RESULT_SGE;
	else if (npkts > RNIC_TX_SEG_PKTS)
		o->result = RNIC_TXB_RESULT_PACKETS;
	else if (!retx && free < 2)
		o->result = RNIC_TXB_RESULT_NO_RECORD;
	else
		o->result = RNIC_TXB_RESULT_SENT;
	if (o->result != RNIC_TXB_RESULT_SENT)
		return;

	uint32_t last = (psn + (uint32_t)npkts - 1) & 0xFFFFFFu;
	o->next_psn = (last + 1) & 0xFFFFFFu;
	uint8_t *d = o->txd;
	uint32_t tflags = (flags & (1u << RNIC_WQE_FLAG_SOLICITED) ? 1u << RNIC_TX_FLAG_SOLICITED : 0) |
			  (retx ? 1u << RNIC_TX_FLAG_RETRANSMIT : 0);
	rnic_tx_desc_set_qpn(d, rnic_txb_cmd_get_qpn(cmd));
	rnic_tx_desc_set_kind(d, txb_ref_kind(op));
	rnic_tx_desc_set_flags(d, tflags);
	rnic_tx_desc_set_num_sge(d, nsge);
	rnic_tx_desc_set_psn(d, psn);
	rnic_tx_desc_set_length(d, len);
	if (is_write) {
		const uint8_t *ra = w + RNIC_WQE_CTRL_SIZE;
		rnic_tx_desc_set_remote_va(d, rnic_wqe_raddr_get_remote_addr(ra));
		rnic_tx_desc_set_rkey(d, rnic_wqe_raddr_get_rkey(ra));
	}
	rnic_tx_desc_set_imm_data(d, rnic_wqe_ctrl_get_imm_data(w));
	const uint8_t *g = w + RNIC_WQE_CTRL_SIZE + (is_write ? RNIC_WQE_RADDR_SIZE : 0);
	if (nsge >= 1) {
		rnic_tx_desc_set_sge0_addr(d, rnic_wqe_sge_get_addr(g));
		rnic_tx_desc_set_sge0_len(d, rnic_wqe_sge_get_length(g));
		rnic_tx_desc_set_sge0_lkey(d, rnic_wqe_sge_get_lkey(g));
	}
	if (nsge >= 2) {
		g += RNIC_WQE_SGE_SIZE;
		rnic_tx_desc_set_sge1_addr(d, rnic_wqe_sge_get_addr(g));
		rnic_tx_desc_set_sge1_len(d, rnic_wqe_sge_get_length(g));
		rnic_tx_desc_set_sge1_lkey(d, rnic_wqe_sge_get_lkey(g));
	}
	if (retx)
		return; /* a resend: the engine still holds the first send's record */
	o->has_rec = 1;
	uint8_t *r = o->rec;
	uint32_t sig = ((flags >> RNIC_WQE_FLAG_SIGNALED) & 1u) | rnic_txb_cmd_get_sig_all(cmd);
	rnic_sr_rec_set_wr_id(r, rnic_wqe_ctrl_get_wr_id(w));
	rnic_sr_rec_set_byte_len(r, len);
	rnic_sr_rec_set_first_psn(r, psn);
	rnic_sr_rec_set_flags(r, sig << RNIC_SR_FLAG_SIGNALED);
	rnic_sr_rec_set_last_psn(r, last);
	rnic_sr_rec_set_opcode(r, is_write ? RNIC_WC_OPCODE_RDMA_WRITE : RNIC_WC_OPCODE_SEND);
	rnic_sr_rec_set_wqe_index(r, rnic_txb_cmd_get_wqe_index(cmd));
	rnic_sr_rec_set_cqn(r, rnic_txb_cmd_get_send_cqn(cmd));
	rnic_sr_rec_set_qpn(r, rnic_txb_cmd_get_qpn(cmd));
}

/* Runs (txb_cmd.more): the WQEs the command covers (a BlueFlame capture or a resend is a run of
 * one), the slot of WQE i (consecutive slots of the region holding src_bb, a ring of 2^wrap_log
 * slots aligned to its size), and the single-WQE command the engine applies to WQE i (its slot,
 * SQ index and first PSN: the previous WQE's next PSN). */
static inline uint32_t txb_ref_count(const uint8_t *cmd)
{
	if (rnic_txb_cmd_get_bf(cmd) || rnic_txb_cmd_get_retx(cmd))
		return 1;
	return 1 + rnic_txb_cmd_get_more(cmd);
}
static inline uint32_t txb_ref_bb(const uint8_t *cmd, uint32_t i)
{
	uint32_t bb = rnic_txb_cmd_get_src_bb(cmd), mask = (1u << rnic_txb_cmd_get_wrap_log(cmd)) - 1u;
	return ((bb & ~mask) | ((bb + i) & mask)) & 0x3Fu;
}
static inline void txb_ref_wqe_cmd(const uint8_t *cmd, uint32_t i, uint32_t psn, uint8_t *out)
{
	memcpy(out, cmd, RNIC_TXB_CMD_SIZE);
	rnic_txb_cmd_set_src_bb(out, txb_ref_bb(cmd, i));
	rnic_txb_cmd_set_wqe_index(out, (rnic_txb_cmd_get_wqe_index(cmd) + i) & 0xFFFFu);
	rnic_txb_cmd_set_psn(out, psn);
	rnic_txb_cmd_set_more(out, 0);
}

#endif /* TXB_REF_H */
