/* Host unit tests of the firmware's data path (MOCK_MMIO build): WQEs formatted by the real
 * provider code in mock host memory, fetched by the firmware through the mock DMA, turned into
 * transmit descriptors; ACK/NAK events completing them in order into a CQ that the real
 * provider code polls; receive buffers and receive completions; go-back-N, errors, flushes. */
#include <stdio.h>
#include <string.h>

#include "fw_cmd.h"
#include "fw_res.h"
#include "fw_wqf.h"
#include "../app/fw_sq_desc.h"
#include "../app/fw_sq_stage.h"
#include "../app/fw_sq_srt.h"
#include "../app/fw_sq_timer.h"
#include "../app/fw_sq_txb.h"
#include "fw_panic.h"
#include "fw_xport.h"
#include "hal.h"
#include "mock_mmio.h"
#include "rnicp_cq.h"
#include "rnicp_db.h"
#include "rnicp_wqe.h"

#define A(x) (1u << RNIC_QP_ATTR_##x)
#define H(off) (MOCK_HOST_BASE + (off))      /* bus address of mock host memory */
#define P(off) (mock_host + (off))           /* its CPU pointer */
#define SQ_OFF 0x10000u
#define CQ_OFF 0x20000u
#define DBREC_OFF 0x1F000u
#define DATA_OFF 0x40000u
#define SQ_LOG 4u
#define RQ_LOG 4u
#define RQ_STRIDE_LOG 7u /* room for RNIC_MAX_SGE receive SGEs */

static uint8_t e[RNIC_CMD_ENTRY_SIZE];
#define CMD(op) (memset(e, 0, sizeof(e)), rnic_cmd_entry_set_opcode(e, (op)))

static struct rnicp_sq sq;
static struct rnicp_rq rq;
static struct rnicp_cq cq;
static uint32_t qpn, cqn;
static uint32_t sq_log = SQ_LOG; /* the ring setup_qp gives the next QP (a test may take a larger one) */

static uint32_t db_ev(uint32_t page, uint32_t reg)
{
	uint8_t b[4] = { 0 };
	rnic_db_event_set_page(b, page);
	rnic_db_event_set_which(b, reg / 4);
	return (uint32_t)rnic_ld_le(b, 4);
}

/* An acknowledgement-shaped receive event (the words fw_sq_ack reads). */
static void ev_make(uint8_t *ev, uint32_t kind, uint32_t q, uint32_t psn, uint32_t syndrome, uint32_t status)
{
	memset(ev, 0, RNIC_RX_EVENT_SIZE);
	rnic_rx_event_set_kind(ev, kind);
	rnic_rx_event_set_qpn(ev, q);
	rnic_rx_event_set_psn(ev, psn);
	rnic_rx_event_set_syndrome(ev, syndrome);
	rnic_rx_event_set_status(ev, status);
}

static void event_st(uint32_t kind, uint32_t psn, uint32_t syndrome, uint32_t status)
{
	uint8_t ev[RNIC_RX_EVENT_SIZE];
	ev_make(ev, kind, qpn, psn, syndrome, status);
	fw_rx_event(ev);
}

static void event(uint32_t kind, uint32_t psn, uint32_t syndrome)
{
	event_st(kind, psn, syndrome, RNIC_WC_STATUS_SUCCESS);
}

static void setup_qp(uint32_t retry_cnt)
{
	CMD(RNIC_CMD_OP_SET_GID);
	rnic_cmd_set_gid_set_ipv4(e, 0x0A000011);
	rnic_cmd_set_gid_set_mac(e, 0x020000000011ull);
	fw_cmd_exec(e);
	CMD(RNIC_CMD_OP_ALLOC_PD);
	fw_cmd_exec(e);
	uint32_t pd = rnic_cmd_pd_get_pdn(e);
	CMD(RNIC_CMD_OP_CREATE_CQ);
	rnic_cmd_create_cq_set_log_size(e, 6);
	rnic_cmd_create_cq_set_buf_addr(e, H(CQ_OFF));
	rnic_cmd_create_cq_set_dbrec_addr(e, H(DBREC_OFF));
	fw_cmd_exec(e);
	cqn = rnic_cmd_create_cq_get_cqn(e);
	CMD(RNIC_CMD_OP_CREATE_QP);
	rnic_cmd_create_qp_set_pdn(e, pd);
	rnic_cmd_create_qp_set_send_cqn(e, cqn);
	rnic_cmd_create_qp_set_recv_cqn(e, cqn);
	rnic_cmd_create_qp_set_qp_type(e, RNIC_QP_TYPE_RC);
	rnic_cmd_create_qp_set_sq_log_size(e, sq_log);
	rnic_cmd_create_qp_set_rq_log_size(e, RQ_LOG);
	rnic_cmd_create_qp_set_rq_log_stride(e, RQ_STRIDE_LOG);
	rnic_cmd_create_qp_set_buf_addr(e, H(SQ_OFF));
	rnic_cmd_create_qp_set_rq_offset(e, 64u << sq_log);
	rnic_cmd_create_qp_set_max_inline(e, 64 / 4);
	fw_cmd_exec(e);
	qpn = rnic_cmd_create_qp_get_qpn(e);
	uint32_t steps[3][2] = {
		{ RNIC_QP_STATE_INIT, A(PKEY_INDEX) | A(PORT) | A(ACCESS_FLAGS) },
		{ RNIC_QP_STATE_RTR, A(AV) | A(PATH_MTU) | A(DEST_QPN) | A(RQ_PSN) | A(MAX_DEST_RD_ATOMIC) | A(MIN_RNR_TIMER) },
		{ RNIC_QP_STATE_RTS, A(SQ_PSN) | A(TIMEOUT) | A(RETRY_CNT) | A(RNR_RETRY) | A(MAX_QP_RD_ATOMIC) },
	};
	for (int i = 0; i < 3; i++) {
		CMD(RNIC_CMD_OP_MODIFY_QP);
		rnic_cmd_modify_qp_set_qpn(e, qpn);
		rnic_cmd_modify_qp_set_attr_mask(e, steps[i][1] | A(STATE));
		rnic_cmd_modify_qp_set_state(e, steps[i][0]);
		rnic_cmd_modify_qp_set_path_mtu(e, 3); /* 1024 */
		rnic_cmd_modify_qp_set_dest_qpn(e, 0x33);
		rnic_cmd_modify_qp_set_sq_psn(e, 0xFFFFFE); /* wraps during the test */
		rnic_cmd_modify_qp_set_retry_cnt(e, retry_cnt);
		rnic_cmd_modify_qp_set_timeout(e, 14);
		rnic_cmd_modify_qp_set_rnr_retry(e, 7);
		rnic_cmd_modify_qp_set_access(e, 7);
		fw_cmd_exec(e);
	}
	rnicp_sq_init(&sq, P(SQ_OFF), sq_log, qpn, RNIC_QP_TYPE_RC, 4, 64);
	rnicp_rq_init(&rq, P(SQ_OFF + (64u << sq_log)), RQ_LOG, RQ_STRIDE_LOG, qpn);
	rnicp_cq_init(&cq, P(CQ_OFF), 6, cqn, P(DBREC_OFF));
}

/* PSN of the nth transmit descriptor since mailbox record from; ~0 if there is none. */
static uint32_t txd_psn(unsigned from, unsigned nth)
{
	const struct mock_mbox_rec *t = mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, from, nth);
	return t ? rnic_tx_desc_get_psn(t->data) : ~0u;
}

/* Firmware state, host memory and one QP in RTS, all fresh. */
static void fresh_qp(uint32_t retry_cnt)
{
	memset(&fw_res, 0, sizeof(fw_res));
	fw_cmd_init();
	fw_xport_init();
	memset(mock_host, 0, sizeof(mock_host));
	setup_qp(retry_cnt);
}

static void ring_sq(void)
{
	uint8_t v[4] = { 0 };
	rnic_db_word_set_num(v, qpn);
	rnic_db_word_set_index(v, sq.pi);
	fw_doorbell(db_ev(0, RNIC_DB_SQ_DB), (uint32_t)rnic_ld_le(v, 4));
}

static uint32_t post(uint32_t op, uint32_t flags, const struct rnicp_sge *sg, uint32_t nsge, uint64_t wr_id)
{
	struct rnicp_send_wr wr = { 0 };
	wr.wr_id = wr_id;
	wr.opcode = op;
	wr.flags = flags;
	wr.sg_list = sg;
	wr.num_sge = nsge;
	wr.remote_addr = 0x7000000000ull;
	wr.rkey = 0x1234;
	wr.imm_data = 0xAABBCCDD;
	return (uint32_t)rnicp_sq_post(&sq, &wr, 0);
}

/* The firmware's own fetch commands for n WQEBBs from SQ index first: batches of HALF_BBS (one
 * command each, two where a batch crosses the ring end). */
static unsigned own_fetch_cmds(uint32_t first, unsigned n)
{
	unsigned cmds = 0, ring = 1u << SQ_LOG;
	for (unsigned at = 0; at < n; at += HALF_BBS) {
		unsigned k = n - at < HALF_BBS ? n - at : HALF_BBS;
		cmds += ((first + at) % ring) + k > ring ? 2u : 1u;
	}
	return cmds;
}

static void send_path(void)
{
	unsigned m0 = mock_nmbox;
	struct rnicp_sge sg[2] = { { H(DATA_OFF), 1000, 0x101 }, { H(DATA_OFF + 4096), 2000, 0x102 } };
	char text[20] = "inline payload 0123";
	struct rnicp_sge in = { (uint64_t)(uintptr_t)text, 20, 0 };
	struct rnicp_sge rd = { H(DATA_OFF + 8192), 5000, 0x103 };

	uint32_t first_bb = sq.pi, dma0 = mock_dma_reads;
	post(RNIC_WQE_OP_RDMA_WRITE, RNICP_WR_SIGNALED, sg, 2, 0x1001);
	post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED | RNICP_WR_INLINE, &in, 1, 0x1002);
	post(RNIC_WQE_OP_RDMA_READ, 0, &rd, 1, 0x1003);
	post(RNIC_WQE_OP_SEND_WITH_IMM, RNICP_WR_SIGNALED, sg, 1, 0x1004);
	ring_sq();
	/* Five WQEBBs (the 2-SGE WRITE takes two) from one doorbell: one fetch per batch of HALF_BBS
	 * (the next batch prefetched), two for a batch that crosses the ring end. */
	uint32_t bbs = (uint16_t)(sq.pi - first_bb);
	check(bbs == 5 && mock_dma_reads - dma0 == own_fetch_cmds(first_bb, bbs),
	      "fw-xport-one-wqe-fetch-per-doorbell");

	check(mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == 4, "fw-xport-four-tx-descriptors");
	const uint8_t *d0 = mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m0, 0)->data;
	const uint8_t *d1 = mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m0, 1)->data;
	const uint8_t *d2 = mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m0, 2)->data;
	const uint8_t *d3 = mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m0, 3)->data;
	check(rnic_tx_desc_get_kind(d0) == RNIC_MSG_KIND_WRITE && rnic_tx_desc_get_qpn(d0) == qpn &&
		      rnic_tx_desc_get_psn(d0) == 0xFFFFFE && rnic_tx_desc_get_length(d0) == 3000 &&
		      rnic_tx_desc_get_num_sge(d0) == 2 && rnic_tx_desc_get_sge1_addr(d0) == H(DATA_OFF + 4096) &&
		      rnic_tx_desc_get_sge1_len(d0) == 2000 && rnic_tx_desc_get_sge1_lkey(d0) == 0x102 &&
		      rnic_tx_desc_get_remote_va(d0) == 0x7000000000ull && rnic_tx_desc_get_rkey(d0) == 0x1234,
	      "fw-xport-write-descriptor");
	/* 3000 bytes at MTU 1024: 3 packets, PSNs 0xFFFFFE, 0xFFFFFF, 0 (wrap). */
	check(rnic_tx_desc_get_kind(d1) == RNIC_MSG_KIND_SEND && rnic_tx_desc_get_psn(d1) == 1 &&
		      (rnic_tx_desc_get_flags(d1) & (1u << RNIC_TX_FLAG_PHYS_SGE)) && rnic_tx_desc_get_num_sge(d1) == 1 &&
		      rnic_tx_desc_get_sge0_len(d1) == 20 &&
		      !memcmp(P(rnic_tx_desc_get_sge0_addr(d1) - MOCK_HOST_BASE), text, 20),
	      "fw-xport-inline-send-points-at-ring-bytes");
	check(rnic_tx_desc_get_kind(d2) == RNIC_MSG_KIND_READ_REQ && rnic_tx_desc_get_psn(d2) == 2 &&
		      rnic_tx_desc_get_length(d2) == 5000 && rnic_tx_desc_get_sge0_lkey(d2) == 0x103,
	      "fw-xport-read-descriptor");
	const struct mock_mbox_rec *rdp = mock_mbox_nth(RNIC_FW_TC_RDD_COMMIT, m0, 0);
	check(mock_mbox_count(RNIC_FW_TC_RDD_COMMIT, m0) == 1 && rdp && rnic_rd_desc_get_qpn(rdp->data) == qpn &&
		      rnic_rd_desc_get_first_psn(rdp->data) == 2 && rnic_rd_desc_get_length(rdp->data) == 5000 &&
		      rnic_rd_desc_get_num_sge(rdp->data) == 1 && rnic_rd_desc_get_sge0_addr(rdp->data) == H(DATA_OFF + 8192) &&
		      rnic_rd_desc_get_sge0_lkey(rdp->data) == 0x103 && rdp < mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m0, 2),
	      "fw-xport-read-destination-posted-before-request");
	check(rnic_tx_desc_get_kind(d3) == RNIC_MSG_KIND_SEND_IMM && rnic_tx_desc_get_psn(d3) == 7 &&
		      rnic_tx_desc_get_imm_data(d3) == 0xAABBCCDD,
	      "fw-xport-read-reserves-psns");

	/* ACK of the WRITE's last PSN: one CQE, polled by the provider's own code. */
	struct rnicp_wc wc[8];
	event(RNIC_RX_EVENT_KIND_ACK, 0, 0x1F);
	int n = rnicp_cq_poll(&cq, 8, wc);
	check(n == 1 && wc[0].wr_id == 0x1001 && wc[0].status == RNIC_WC_STATUS_SUCCESS &&
		      wc[0].opcode == RNIC_WC_OPCODE_RDMA_WRITE,
	      "fw-xport-ack-completes-write");
	/* An ACK past everything: the SEND completes, the READ waits for its response and holds
	 * the SEND_IMM behind it (completions stay in order). */
	event(RNIC_RX_EVENT_KIND_ACK, 7, 0x1F);
	n = rnicp_cq_poll(&cq, 8, wc);
	check(n == 1 && wc[0].wr_id == 0x1002 && wc[0].opcode == RNIC_WC_OPCODE_SEND, "fw-xport-read-holds-later-acks");
	event(RNIC_RX_EVENT_KIND_READ_RESP_DONE, 6, 0x1F);
	event(RNIC_RX_EVENT_KIND_ACK, 7, 0x1F);
	n = rnicp_cq_poll(&cq, 8, wc);
	check(n == 1 && wc[0].wr_id == 0x1004, "fw-xport-unsignaled-read-then-send-imm");

	/* Go-back-N: a PSN sequence NAK resends from the message that holds that PSN. */
	m0 = mock_nmbox;
	post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, sg, 1, 0x2001);
	post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, sg, 1, 0x2002);
	ring_sq();
	uint32_t psn2 = rnic_tx_desc_get_psn(mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m0, 1)->data);
	event(RNIC_RX_EVENT_KIND_NAK, psn2, 0x60);
	const struct mock_mbox_rec *re = mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m0, 2);
	n = rnicp_cq_poll(&cq, 8, wc);
	check(re && rnic_tx_desc_get_psn(re->data) == psn2 && mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == 3 &&
		      n == 1 && wc[0].wr_id == 0x2001,
	      "fw-xport-psn-nak-resends-from-that-message");
	event(RNIC_RX_EVENT_KIND_ACK, psn2, 0x1F);
	n = rnicp_cq_poll(&cq, 8, wc);
	check(n == 1 && wc[0].wr_id == 0x2002, "fw-xport-resent-message-completes");

	/* A READ sent again after 3 of its 5 responses were placed resumes at the 4th: the
	 * receive engine's progress query says so, the rd_desc carries resume/resume_psn and the
	 * request asks for the rest (PSN, remote address and length moved by 3 MTUs). */
	m0 = mock_nmbox;
	struct rnicp_sge rd2 = { H(DATA_OFF + 16384), 5000, 0x104 };
	post(RNIC_WQE_OP_RDMA_READ, RNICP_WR_SIGNALED, &rd2, 1, 0x3001);
	ring_sq();
	const struct mock_mbox_rec *r0 = mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m0, 0);
	uint32_t rpsn = r0 ? rnic_tx_desc_get_psn(r0->data) : 0;
	uint64_t rva = r0 ? rnic_tx_desc_get_remote_va(r0->data) : 0;
	regs[RNIC_FW_REG_RDQ_RESULT / 4] = 1u << 31 | ((rpsn + 3) & 0xFFFFFF);
	event(RNIC_RX_EVENT_KIND_NAK, rpsn, 0x60);
	regs[RNIC_FW_REG_RDQ_RESULT / 4] = 0;
	const struct mock_mbox_rec *rr = mock_mbox_nth(RNIC_FW_TC_RDD_COMMIT, m0, 1);
	const struct mock_mbox_rec *rt = mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m0, 1);
	check(r0 && rr && rt && regs[RNIC_FW_REG_RDQ_QPN / 4] == qpn && regs[RNIC_FW_REG_RDQ_PSN / 4] == rpsn &&
		      rnic_rd_desc_get_resume(rr->data) == 1 && rnic_rd_desc_get_resume_psn(rr->data) == ((rpsn + 3) & 0xFFFFFF) &&
		      rnic_rd_desc_get_first_psn(rr->data) == rpsn && rnic_rd_desc_get_length(rr->data) == 5000 &&
		      rnic_rd_desc_get_sge0_addr(rr->data) == H(DATA_OFF + 16384) &&
		      rnic_tx_desc_get_psn(rt->data) == ((rpsn + 3) & 0xFFFFFF) && rnic_tx_desc_get_length(rt->data) == 5000 - 3072 &&
		      rnic_tx_desc_get_remote_va(rt->data) == rva + 3072,
	      "fw-xport-read-retry-resumes-at-first-missing-response");
	event(RNIC_RX_EVENT_KIND_READ_RESP_DONE, (rpsn + 4) & 0xFFFFFF, 0x1F);
	n = rnicp_cq_poll(&cq, 8, wc);
	check(n == 1 && wc[0].wr_id == 0x3001 && wc[0].status == RNIC_WC_STATUS_SUCCESS &&
		      wc[0].opcode == RNIC_WC_OPCODE_RDMA_READ,
	      "fw-xport-resumed-read-completes");

	/* A remote access NAK: that WQE completes with REM_ACCESS_ERR, the QP goes to ERR and the
	 * WQEs behind it, sent or not, are flushed in order. */
	post(RNIC_WQE_OP_RDMA_WRITE, RNICP_WR_SIGNALED, sg, 1, 0x3001);
	ring_sq();
	uint32_t bad_psn = rnic_qp_ctx_get_sq_psn(fw_res.qp_ctx[qpn]) - 1;
	post(RNIC_WQE_OP_SEND, 0, sg, 1, 0x3002);
	ring_sq();
	event(RNIC_RX_EVENT_KIND_NAK, bad_psn, 0x62);
	post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, sg, 1, 0x3003); /* posted after the error */
	ring_sq();
	n = rnicp_cq_poll(&cq, 8, wc);
	/* The receive buffer recv_path left posted (0x5002) is flushed with the move to ERR. */
	check(n == 4 && wc[0].wr_id == 0x3001 && wc[0].status == RNIC_WC_STATUS_REM_ACCESS_ERR &&
		      wc[1].wr_id == 0x3002 && wc[1].status == RNIC_WC_STATUS_WR_FLUSH_ERR &&
		      wc[2].wr_id == 0x5002 && wc[2].status == RNIC_WC_STATUS_WR_FLUSH_ERR && rnicp_wc_is_recv(&wc[2]) &&
		      wc[3].wr_id == 0x3003 && wc[3].status == RNIC_WC_STATUS_WR_FLUSH_ERR &&
		      rnic_qp_ctx_get_state(fw_res.qp_ctx[qpn]) == RNIC_QP_STATE_ERR,
	      "fw-xport-access-nak-error-then-flush");
}

static void recv_path(void)
{
	unsigned m0 = mock_nmbox;
	struct rnicp_sge sg[4] = { { H(DATA_OFF), 100, 0x201 }, { H(DATA_OFF + 256), 200, 0x202 },
				   { H(DATA_OFF + 512), 300, 0x203 }, { H(DATA_OFF + 1024), 400, 0x204 } };
	struct rnicp_recv_wr w1 = { 0x5001, sg, 4 }, w2 = { 0x5002, sg, 1 };
	rnicp_rq_post(&rq, &w1);
	rnicp_rq_post(&rq, &w2);
	uint8_t v[4] = { 0 };
	rnic_db_word_set_num(v, qpn);
	rnic_db_word_set_index(v, rq.pi);
	fw_doorbell(db_ev(0, RNIC_DB_RQ_DB), (uint32_t)rnic_ld_le(v, 4));
	const struct mock_mbox_rec *r = mock_mbox_nth(RNIC_FW_TC_RQD_COMMIT, m0, 0);
	check(mock_mbox_count(RNIC_FW_TC_RQD_COMMIT, m0) == 1 && r && rnic_rq_desc_get_wr_id(r->data) == 0x5001 &&
		      rnic_rq_desc_get_num_sge(r->data) == 4 && rnic_rq_desc_get_sge2_addr(r->data) == H(DATA_OFF + 512) &&
		      rnic_rq_desc_get_sge2_len(r->data) == 300 && rnic_rq_desc_get_sge2_lkey(r->data) == 0x203 &&
		      rnic_rq_desc_get_sge3_addr(r->data) == H(DATA_OFF + 1024) &&
		      rnic_rq_desc_get_sge3_len(r->data) == 400 && rnic_rq_desc_get_sge3_lkey(r->data) == 0x204,
	      "fw-xport-one-receive-buffer-posted");

	uint8_t ev[RNIC_RX_EVENT_SIZE] = { 0 };
	rnic_rx_event_set_kind(ev, RNIC_RX_EVENT_KIND_RECV_DONE);
	rnic_rx_event_set_qpn(ev, qpn);
	rnic_rx_event_set_wr_id(ev, 0x5001);
	rnic_rx_event_set_byte_len(ev, 555);
	rnic_rx_event_set_imm_data(ev, 0x01020304);
	rnic_rx_event_set_flags(ev, 1u << RNIC_CQE_FLAG_WITH_IMM);
	fw_rx_event(ev);
	struct rnicp_wc wc[4];
	int n = rnicp_cq_poll(&cq, 4, wc);
	r = mock_mbox_nth(RNIC_FW_TC_RQD_COMMIT, m0, 1);
	check(n == 1 && wc[0].wr_id == 0x5001 && wc[0].opcode == RNIC_WC_OPCODE_RECV && wc[0].byte_len == 555 &&
		      wc[0].imm_data == 0x01020304 && rnicp_wc_is_recv(&wc[0]) && r &&
		      rnic_rq_desc_get_wr_id(r->data) == 0x5002,
	      "fw-xport-recv-completion-and-next-buffer");
}

#define EQ_OFF 0x30000u
static void eq_checks(void)
{
	regs[RNIC_FW_REG_EQ_BASE_LO / 4] = (uint32_t)H(EQ_OFF);
	regs[RNIC_FW_REG_EQ_BASE_HI / 4] = (uint32_t)(H(EQ_OFF) >> 32);
	regs[RNIC_FW_REG_EQ_LOG_SIZE / 4] = 2; /* 4 entries: the owner bit flips after four */
	fw_eq_init();
	uint8_t v[4] = { 0 };
	rnic_db_cq_arm_set_cqn(v, cqn);
	fw_doorbell(db_ev(0, RNIC_DB_CQ_ARM), (uint32_t)rnic_ld_le(v, 4));
	uint8_t cqe[RNIC_CQE_SIZE] = { 0 };
	unsigned notified0 = mock_eq_notifies;
	fw_cqe_write(cqn, cqe);
	fw_cqe_write(cqn, cqe); /* not armed any more: no second event */
	const uint8_t *e0 = P(EQ_OFF), *e1 = P(EQ_OFF + RNIC_EQ_ENTRY_SIZE);
	unsigned notified = mock_eq_notifies - notified0; /* the CQE writer's notify, one per entry */
	check(rnic_eq_entry_get_event_type(e0) == RNIC_EQ_TYPE_COMPLETION && rnic_eq_entry_get_handle(e0) == cqn &&
		      rnic_eq_entry_get_owner(e0) == 1 && rnic_eq_entry_get_owner(e1) == 0 && notified == 1 &&
		      regs[RNIC_FW_REG_EQ_PROD / 4] == 1,
	      "fw-xport-armed-cq-one-event");
	for (int i = 0; i < 4; i++)
		fw_eq_post(RNIC_EQ_TYPE_PORT_CHANGE, 0, (uint32_t)i, 0);
	check(rnic_eq_entry_get_owner(P(EQ_OFF)) == 0 && rnic_eq_entry_get_handle(P(EQ_OFF)) == 3 &&
		      rnic_eq_entry_get_owner(P(EQ_OFF + 3 * RNIC_EQ_ENTRY_SIZE)) == 1,
	      "fw-xport-eq-owner-flips-on-wrap");
	regs[RNIC_FW_REG_EQ_LOG_SIZE / 4] = 0;
	/* The CQEs written above are consumed so the later checks start from an empty CQ. */
	struct rnicp_wc wc[4];
	rnicp_cq_poll(&cq, 4, wc);
}

static void doorbell_checks(void)
{
	/* A doorbell from another context's page, or for an unknown QP, changes nothing. */
	unsigned m0 = mock_nmbox;
	uint8_t v[4] = { 0 };
	rnic_db_word_set_num(v, qpn);
	rnic_db_word_set_index(v, (uint16_t)(sq.pi + 1));
	fw_doorbell(db_ev(3, RNIC_DB_SQ_DB), (uint32_t)rnic_ld_le(v, 4));
	rnic_db_word_set_num(v, 99);
	fw_doorbell(db_ev(0, RNIC_DB_SQ_DB), (uint32_t)rnic_ld_le(v, 4));
	check(mock_nmbox == m0, "fw-xport-foreign-or-unknown-doorbell-ignored");
	/* The ring path: a doorbell waiting in the doorbell ring is read, its slot freed and served. */
	mock_db_push(db_ev(0, RNIC_DB_CQ_DB), 0);
	uint32_t served = fw_xport_poll();
	check(served == 1 && mock_db_pending() == 0, "fw-xport-doorbell-mailbox-drained");
	/* That doorbell is counted, with the cycles it took (the mock's dbr_cons store advances its
	 * clock). */
	CMD(RNIC_CMD_OP_QUERY_COUNTERS);
	uint32_t st = fw_cmd_exec(e);
	check(st == RNIC_CMD_STATUS_OK && rnic_cmd_query_counters_get_doorbells(e) == 1 &&
		      rnic_cmd_query_counters_get_db_cycles(e) == MOCK_DB_POP_CYCLES &&
		      rnic_cmd_query_counters_get_db_max_cycles(e) == MOCK_DB_POP_CYCLES &&
		      rnic_cmd_query_counters_get_now_cycles(e) == mock_now && rnic_cmd_query_counters_get_events(e) == 0,
	      "fw-xport-query-counters-doorbell-cycles");
}

/* Over the send path (from m0 on, with wqes0 counted before): every tx_desc committed for a
 * WQE is counted once; and every CQE written since boot. */
static void counter_totals(unsigned m0, uint32_t wqes0)
{
	fw_cqw_drain();
	uint32_t cqes = mock_cqw_records; /* the writer's CQEs (none dropped here) */
	CMD(RNIC_CMD_OP_QUERY_COUNTERS);
	check(fw_cmd_exec(e) == RNIC_CMD_STATUS_OK && cqes > 0 &&
		      rnic_cmd_query_counters_get_sq_wqes(e) - wqes0 == mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) &&
		      rnic_cmd_query_counters_get_sq_wqes(e) > wqes0 && rnic_cmd_query_counters_get_cqes(e) == cqes,
	      "fw-xport-query-counters-wqes-and-cqes");
}

static void retry_exhaustion(void)
{
	fresh_qp(1);
	struct rnicp_sge sg = { H(DATA_OFF), 64, 0x101 };
	post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, &sg, 1, 0x6001);
	ring_sq();
	uint32_t psn = rnic_qp_ctx_get_sq_psn(fw_res.qp_ctx[qpn]) - 1;
	event(RNIC_RX_EVENT_KIND_NAK, psn, 0x60); /* one retry allowed */
	event(RNIC_RX_EVENT_KIND_NAK, psn, 0x60); /* exhausted */
	struct rnicp_wc wc[4];
	int n = rnicp_cq_poll(&cq, 4, wc);
	check(n == 1 && wc[0].wr_id == 0x6001 && wc[0].status == RNIC_WC_STATUS_RETRY_EXC_ERR &&
		      rnic_qp_ctx_get_state(fw_res.qp_ctx[qpn]) == RNIC_QP_STATE_ERR,
	      "fw-xport-retry-exceeded");
}

/* Losses spread over a long message: each PSN-sequence NAK that acknowledges new packets is
 * progress and starts the retry count over; NAKs at one PSN still exhaust it. */
static void retry_progress(void)
{
	fresh_qp(1); /* one retry, MTU 1024 */
	struct rnicp_sge sg = { H(DATA_OFF), 100 * 1024, 0x101 };
	post(RNIC_WQE_OP_RDMA_WRITE, RNICP_WR_SIGNALED, &sg, 1, 0x6101);
	unsigned m0 = mock_nmbox;
	ring_sq();
	uint32_t p0 = txd_psn(m0, 0);
	for (uint32_t k = 10; k <= 40; k += 10)
		event(RNIC_RX_EVENT_KIND_NAK, (p0 + k) & 0xFFFFFF, 0x60);
	struct rnicp_wc wc[4];
	check(rnicp_cq_poll(&cq, 4, wc) == 0 && rnic_qp_ctx_get_state(fw_res.qp_ctx[qpn]) == RNIC_QP_STATE_RTS &&
		      txd_psn(m0, mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) - 2) == ((p0 + 40) & 0xFFFFFF),
	      "fw-xport-nak-with-progress-restarts-retry-count");
	event(RNIC_RX_EVENT_KIND_NAK, (p0 + 40) & 0xFFFFFF, 0x60); /* no progress: exhausted */
	int n = rnicp_cq_poll(&cq, 4, wc);
	check(n == 1 && wc[0].wr_id == 0x6101 && wc[0].status == RNIC_WC_STATUS_RETRY_EXC_ERR &&
		      rnic_qp_ctx_get_state(fw_res.qp_ctx[qpn]) == RNIC_QP_STATE_ERR,
	      "fw-xport-nak-without-progress-exhausts-retries");
}

static void ring_rq(void)
{
	uint8_t v[4] = { 0 };
	rnic_db_word_set_num(v, qpn);
	rnic_db_word_set_index(v, rq.pi);
	fw_doorbell(db_ev(0, RNIC_DB_RQ_DB), (uint32_t)rnic_ld_le(v, 4));
}

/* With several receive slots in the engine (hw_caps.rq_slots), the RQ WQEs a doorbell announces go
 * over in one DMA (up to the free slots), in order; a later doorbell fills the remaining slots. */
static void rq_batch(void)
{
	uint32_t caps = regs[RNIC_FW_REG_HW_CAPS / 4];
	regs[RNIC_FW_REG_HW_CAPS / 4] = (caps & ~RNIC_HW_CAPS_RQ_SLOTS_MASK) | rnic_hw_caps_mk_rq_slots(4);
	fresh_qp(7); /* reads hw_caps again */
	struct rnicp_sge sg = { H(DATA_OFF), 64, 0x101 };
	for (uint64_t i = 0; i < 3; i++) {
		struct rnicp_recv_wr w = { 0x8000 + i, &sg, 1 };
		rnicp_rq_post(&rq, &w);
	}
	unsigned m0 = mock_nmbox, r0 = mock_dma_reads;
	ring_rq();
	int ok = mock_mbox_count(RNIC_FW_TC_RQD_COMMIT, m0) == 3 && mock_dma_reads == r0 + 1;
	for (unsigned i = 0; ok && i < 3; i++)
		ok = rnic_rq_desc_get_wr_id(mock_mbox_nth(RNIC_FW_TC_RQD_COMMIT, m0, i)->data) == 0x8000 + i;
	check(ok, "fw-rq-doorbell-batch-one-fetch");
	for (uint64_t i = 3; i < 6; i++) {
		struct rnicp_recv_wr w = { 0x8000 + i, &sg, 1 };
		rnicp_rq_post(&rq, &w);
	}
	m0 = mock_nmbox, r0 = mock_dma_reads;
	ring_rq();
	const struct mock_mbox_rec *r = mock_mbox_nth(RNIC_FW_TC_RQD_COMMIT, m0, 0);
	check(mock_mbox_count(RNIC_FW_TC_RQD_COMMIT, m0) == 1 && mock_dma_reads == r0 + 1 && r &&
		      rnic_rq_desc_get_wr_id(r->data) == 0x8003 && fw_res.qp_run[qpn].rq_posted == 4,
	      "fw-rq-slots-full-rest-waits");
	regs[RNIC_FW_REG_HW_CAPS / 4] = caps;
	fw_xport_init();
}

static void recv_done(uint64_t wr_id)
{
	uint8_t ev[RNIC_RX_EVENT_SIZE] = { 0 };
	rnic_rx_event_set_kind(ev, RNIC_RX_EVENT_KIND_RECV_DONE);
	rnic_rx_event_set_qpn(ev, qpn);
	rnic_rx_event_set_wr_id(ev, wr_id);
	rnic_rx_event_set_byte_len(ev, 64);
	fw_rx_event(ev);
}

/* RQ WQEs through the WQE fetch engine's receive region, ahead of need: a doorbell's fetch reads
 * every posted WQE the region holds (4 of stride 128), the engine's free slots get theirs, and
 * once the stage is used up the next posted ones are fetched before any completion asks; each
 * completion then refills its slot from the region without a fetch. The rq_desc is the WQE's
 * words (wr_id, every SGE) byte for byte. */
static void rq_ahead(void)
{
	uint32_t caps = regs[RNIC_FW_REG_HW_CAPS / 4];
	regs[RNIC_FW_REG_HW_CAPS / 4] = (caps & ~RNIC_HW_CAPS_RQ_SLOTS_MASK) | rnic_hw_caps_mk_rq_slots(4);
	fresh_qp(7);
	struct rnicp_sge sg[3] = { { H(DATA_OFF), 64, 0x101 }, { H(DATA_OFF + 4096), 100, 0x102 }, { H(DATA_OFF + 8192), 7, 0x103 } };
	for (uint64_t i = 0; i < 10; i++) {
		struct rnicp_recv_wr w = { 0xA000 + i, sg, 1 + (uint32_t)(i % 3) };
		rnicp_rq_post(&rq, &w);
	}
	unsigned m0 = mock_nmbox, f0 = mock_wqf_rq_cmds, c0 = mock_wqf_cmds;
	ring_rq();
	check(mock_mbox_count(RNIC_FW_TC_RQD_COMMIT, m0) == 4 && mock_wqf_rq_cmds == f0 + 2 && mock_wqf_cmds == c0 + 2 &&
		      fw_res.qp_run[qpn].rq_posted == 4,
	      "fw-rq-fetch-engine-batch-then-prefetch");
	int ok = 1, fetch_free = 1;
	for (uint64_t i = 0; i < 6; i++) {
		unsigned m1 = mock_nmbox, f1 = mock_wqf_rq_cmds;
		recv_done(0xA000 + i);
		const struct mock_mbox_rec *r = mock_mbox_nth(RNIC_FW_TC_RQD_COMMIT, m1, 0);
		uint64_t k = i + 4; /* the WQE that refills the slot */
		uint32_t n = 1 + (uint32_t)(k % 3);
		ok &= mock_mbox_count(RNIC_FW_TC_RQD_COMMIT, m1) == 1 && r && rnic_rq_desc_get_qpn(r->data) == qpn &&
		      rnic_rq_desc_get_wr_id(r->data) == 0xA000 + k && rnic_rq_desc_get_num_sge(r->data) == n;
		for (uint32_t j = 0; ok && j < n; j++)
			ok &= memcmp(r->data + RNIC_RQ_DESC_SGE0_ADDR_OFF + 16 * j,
				     rq.buf + (k % (1u << rq.log_size)) * (1u << rq.log_stride) + RNIC_RQ_WQE_SIZE + 16 * j,
				     16) == 0;
		/* WQEs 4-7 were fetched ahead by the doorbell's pass; 8-9 when 7 left the stage */
		if (k < 8 || k == 9)
			fetch_free &= mock_wqf_rq_cmds == f1 + (k == 7);
	}
	check(ok, "fw-rq-desc-from-the-region-byte-exact");
	check(fetch_free && mock_wqf_rq_cmds == f0 + 3, "fw-rq-refill-from-stage-without-fetch");
	regs[RNIC_FW_REG_HW_CAPS / 4] = caps;
	fw_xport_init();
}

/* rq_db-started fetches (rtl/wqe_fetch wqf_rq_*): once the QP is live the engine has its RQ's ring
 * state (128-byte WQEs on a 64-byte aligned ring), an rq_db's WQEs come from the engine's record
 * (the mock engine fetches them as the doorbell BAR hands it the word) and the firmware fetches
 * only what no record holds. */
static void rq_db_wqe(uint32_t k, uint32_t *n_out, uint64_t *wr_out)
{
	*n_out = 1 + k % 3;
	*wr_out = 0xB000 + k;
}
static void rq_db_post(uint32_t k)
{
	struct rnicp_sge sg[3] = { { H(DATA_OFF), 64, 0x101 }, { H(DATA_OFF + 4096), 100, 0x102 }, { H(DATA_OFF + 8192), 7, 0x103 } };
	uint32_t n;
	uint64_t wr;
	rq_db_wqe(k, &n, &wr);
	struct rnicp_recv_wr w = { wr, sg, n };
	rnicp_rq_post(&rq, &w);
}
/* the engine's fetch as the doorbell arrives, then the firmware's doorbell pass */
static void rq_db_ring(void)
{
	uint8_t v[4] = { 0 };
	rnic_db_word_set_num(v, qpn);
	rnic_db_word_set_index(v, rq.pi);
	mock_wqf_rdb(rnic_qp_ctx_get_uctx(fw_res.qp_ctx[qpn]), (uint32_t)rnic_ld_le(v, 4));
	ring_rq();
}
/* The rq_desc commits since m: WQEs from..from+cnt-1 in order, byte for byte. */
static int rq_db_descs(unsigned m, uint32_t from, uint32_t cnt)
{
	int ok = mock_mbox_count(RNIC_FW_TC_RQD_COMMIT, m) == cnt;
	for (uint32_t i = 0; ok && i < cnt; i++) {
		const struct mock_mbox_rec *r = mock_mbox_nth(RNIC_FW_TC_RQD_COMMIT, m, i);
		uint32_t k = from + i, n;
		uint64_t wr;
		rq_db_wqe(k, &n, &wr);
		ok = r && rnic_rq_desc_get_qpn(r->data) == qpn && rnic_rq_desc_get_wr_id(r->data) == wr &&
		     rnic_rq_desc_get_num_sge(r->data) == n;
		for (uint32_t j = 0; ok && j < n; j++)
			ok = memcmp(r->data + RNIC_RQ_DESC_SGE0_ADDR_OFF + 16 * j,
				    rq.buf + (k % (1u << rq.log_size)) * (1u << rq.log_stride) + RNIC_RQ_WQE_SIZE + 16 * j, 16) == 0;
	}
	return ok;
}

/* A check's name with a suffix (the feed's run of the same scenario). */
static const char *nm(const char *base, const char *sfx)
{
	static char buf[8][96];
	static unsigned i;
	char *b = buf[i++ % 8];
	snprintf(b, sizeof(buf[0]), "%s%s", base, sfx);
	return b;
}

static void rq_db_records(const char *sfx)
{
	uint32_t caps = regs[RNIC_FW_REG_HW_CAPS / 4];
	regs[RNIC_FW_REG_HW_CAPS / 4] = (caps & ~RNIC_HW_CAPS_RQ_SLOTS_MASK) | rnic_hw_caps_mk_rq_slots(4);
	fresh_qp(7);
	const uint8_t *c = fw_res.qp_ctx[qpn];
	struct mock_rq *mq = &mock_rq[qpn];
	check(mock_wqf_rdb_on && mq->en && mq->lb == RQ_STRIDE_LOG - 6u && mq->log == RQ_LOG && mq->fidx == 0 &&
		      mq->base == rnic_qp_ctx_get_buf_addr(c) + rnic_qp_ctx_get_rq_offset(c) &&
		      mq->page == rnic_qp_ctx_get_uctx(c) && fw_res.qp_run[qpn].rqf_en,
	      nm("fw-rq-db-ring-state-programmed", sfx));

	/* three WQEs: the record holds them, the firmware fetches nothing, the record goes */
	for (uint32_t k = 0; k < 3; k++)
		rq_db_post(k);
	unsigned m0 = mock_nmbox, f0 = mock_wqf_cmds, e0 = mock_wqf_rdb_cmds;
	rq_db_ring();
	check(rq_db_descs(m0, 0, 3) && mock_wqf_cmds == f0 && mock_wqf_rdb_cmds == e0 + 1 && mock_wqf_rrec_n == 0,
	      nm("fw-rq-db-record-used-no-own-fetch-desc-byte-exact", sfx));

	/* more than the receive engine takes: the record's (4 of 128 bytes fill the region) go over
	 * or wait in it for the completions; the ones past it are fetched by the firmware, which moves
	 * the engine's fetch index past them; the next doorbell's record starts there */
	for (uint32_t k = 3; k < 9; k++)
		rq_db_post(k);
	unsigned m1 = mock_nmbox, f1 = mock_wqf_cmds;
	rq_db_ring(); /* record of 3..6, WQE 3 to the free slot */
	int ok = rq_db_descs(m1, 3, 1) && mock_wqf_cmds == f1 && mock_wqf_rrec_n == 1;
	unsigned m2 = mock_nmbox;
	for (uint32_t k = 0; k < 6; k++) /* completions of 0..5 refill with 4..9 */
		recv_done(0xB000 + k), ok &= k < 5 || mock_wqf_rrec_n == 0;
	/* 4..6 from the record, 7..8 fetched by the firmware (one command, when the record was used up) */
	ok &= rq_db_descs(m2, 4, 5) && mock_wqf_cmds == f1 + 1 && mq->fidx == 9;
	rq_db_post(9);
	unsigned m3 = mock_nmbox, e3 = mock_wqf_rdb_cmds;
	rq_db_ring();
	recv_done(0xB006);
	ok &= mock_wqf_rdb_cmds == e3 + 1 && rq_db_descs(m3, 9, 1) && mock_wqf_cmds == f1 + 1 && mock_wqf_rrec_n == 0;
	check(ok, nm("fw-rq-db-region-full-rest-by-firmware-fidx-moved", sfx));

	/* a record of another QP and a stale one of this QP are in the way: removed, this one used */
	fresh_qp(7);
	c = fw_res.qp_ctx[qpn];
	struct mock_rq *other = &mock_rq[qpn + 1];
	other->base = rnic_qp_ctx_get_buf_addr(c), other->log = 4, other->lb = 0, other->page = 0, other->en = 1;
	other->fidx = 0;
	mock_wqf_rdb(0, (qpn + 1) | 1u << 16);
	rq_db_post(0);
	uint8_t v[4] = { 0 };
	rnic_db_word_set_num(v, qpn);
	rnic_db_word_set_index(v, rq.pi);
	mock_wqf_rdb(rnic_qp_ctx_get_uctx(c), (uint32_t)rnic_ld_le(v, 4)); /* WQE 0: stale once handed */
	mq->fidx = 0;
	mock_wqf_rdb(rnic_qp_ctx_get_uctx(c), (uint32_t)rnic_ld_le(v, 4)); /* again: the one in use */
	unsigned m4 = mock_nmbox, f4 = mock_wqf_cmds, n4 = mock_wqf_rrec_n;
	ring_rq();
	rq_db_post(1);
	rnic_db_word_set_index(v, rq.pi);
	mock_wqf_rdb(rnic_qp_ctx_get_uctx(c), (uint32_t)rnic_ld_le(v, 4));
	ring_rq();
	check(n4 == 3 && rq_db_descs(m4, 0, 2) && mock_wqf_cmds == f4 && mock_wqf_rrec_n == 0,
	      nm("fw-rq-db-foreign-and-stale-records-removed", sfx));

	/* a record whose fetch failed: the firmware fetches those WQEs itself */
	fresh_qp(7);
	rq_db_post(0);
	unsigned m5 = mock_nmbox, f5 = mock_wqf_cmds;
	mock_wqf_fail = 1;
	rnic_db_word_set_num(v, qpn);
	rnic_db_word_set_index(v, rq.pi);
	mock_wqf_rdb(rnic_qp_ctx_get_uctx(fw_res.qp_ctx[qpn]), (uint32_t)rnic_ld_le(v, 4));
	mock_wqf_fail = 0;
	ring_rq();
	check(rq_db_descs(m5, 0, 1) && mock_wqf_cmds == f5 + 1 && mock_wqf_rrec_n == 0 &&
		      rnic_qp_ctx_get_state(fw_res.qp_ctx[qpn]) == RNIC_QP_STATE_RTS,
	      nm("fw-rq-db-failed-record-fetched-by-firmware", sfx));

	/* the QP to ERR while the engine holds a record of a doorbell the firmware has not read yet:
	 * the engine's RQ off, its records gone; the doorbell then flushes the WQE, read from the host */
	rq_db_post(1);
	rnic_db_word_set_index(v, rq.pi);
	mock_wqf_rdb(rnic_qp_ctx_get_uctx(fw_res.qp_ctx[qpn]), (uint32_t)rnic_ld_le(v, 4));
	unsigned n6 = mock_wqf_rrec_n;
	recv_done(0xB000);
	int n0 = rnicp_cq_poll(&cq, 4, (struct rnicp_wc[4]){ 0 });
	CMD(RNIC_CMD_OP_MODIFY_QP);
	rnic_cmd_modify_qp_set_qpn(e, qpn);
	rnic_cmd_modify_qp_set_attr_mask(e, A(STATE));
	rnic_cmd_modify_qp_set_state(e, RNIC_QP_STATE_ERR);
	uint32_t st = fw_cmd_exec(e);
	unsigned n7 = mock_wqf_rrec_n;
	ring_rq(); /* the doorbell reaches the firmware after the move */
	struct rnicp_wc wc[4];
	int n = rnicp_cq_poll(&cq, 4, wc);
	check(n0 == 1 && n6 == 1 && n7 == 0 && st == RNIC_CMD_STATUS_OK && !mq->en && !fw_res.qp_run[qpn].rqf_en && mock_wqf_rrec_n == 0 &&
		      n >= 1 && wc[n - 1].wr_id == 0xB001 && wc[n - 1].status == RNIC_WC_STATUS_WR_FLUSH_ERR,
	      nm("fw-rq-db-off-in-err-records-dropped", sfx));
	regs[RNIC_FW_REG_HW_CAPS / 4] = caps;
	fw_xport_init();
}

/* Receive WQEs of a QP that goes to ERR (here by the host's MODIFY_QP) complete with
 * WR_FLUSH_ERR in order, the one with the receive engine included; later posts are flushed at
 * once, and a receive event that raced with the move produces no second completion. */
static void rq_flush(void)
{
	fresh_qp(7);
	struct rnicp_sge sg = { H(DATA_OFF), 64, 0x101 };
	struct rnicp_recv_wr w1 = { 0x7001, &sg, 1 }, w2 = { 0x7002, &sg, 1 }, w3 = { 0x7003, &sg, 1 };
	rnicp_rq_post(&rq, &w1);
	rnicp_rq_post(&rq, &w2);
	ring_rq();
	unsigned q0 = mock_nmbox;
	CMD(RNIC_CMD_OP_MODIFY_QP);
	rnic_cmd_modify_qp_set_qpn(e, qpn);
	rnic_cmd_modify_qp_set_attr_mask(e, A(STATE));
	rnic_cmd_modify_qp_set_state(e, RNIC_QP_STATE_ERR);
	uint32_t st = fw_cmd_exec(e);
	struct rnicp_wc wc[4];
	int n = rnicp_cq_poll(&cq, 4, wc);
	const struct mock_mbox_rec *qe = mock_mbox_nth(RNIC_FW_REG_QPT_COMMIT, q0, 0);
	check(st == RNIC_CMD_STATUS_OK && n == 2 && wc[0].wr_id == 0x7001 && wc[1].wr_id == 0x7002 &&
		      wc[0].status == RNIC_WC_STATUS_WR_FLUSH_ERR && wc[1].status == RNIC_WC_STATUS_WR_FLUSH_ERR &&
		      rnicp_wc_is_recv(&wc[0]) && qe && !rnic_qpt_entry_get_rx_enable(qe->data) &&
		      mock_mbox_count(RNIC_FW_REG_QPT_COMMIT, q0) == 1,
	      "fw-xport-modify-to-err-flushes-receives");
	rnicp_rq_post(&rq, &w3);
	ring_rq();
	uint8_t ev[RNIC_RX_EVENT_SIZE] = { 0 };
	rnic_rx_event_set_kind(ev, RNIC_RX_EVENT_KIND_RECV_DONE);
	rnic_rx_event_set_qpn(ev, qpn);
	rnic_rx_event_set_wr_id(ev, 0x7001);
	fw_rx_event(ev);
	n = rnicp_cq_poll(&cq, 4, wc);
	check(n == 1 && wc[0].wr_id == 0x7003 && wc[0].status == RNIC_WC_STATUS_WR_FLUSH_ERR,
	      "fw-xport-receive-posted-in-err-flushed");
}

/* A busy transmit or receive-buffer mailbox (the engines take them only between packets, so
 * not while the receive engine waits for the firmware to take an event) leaves the WQEs posted
 * and the QP stalled; the main loop's poll serves it once the mailbox is free. */
static void stalled_mailboxes(void)
{
	fresh_qp(7);
	unsigned m0 = mock_nmbox;
	struct rnicp_sge sg = { H(DATA_OFF), 64, 0x101 };
	struct rnicp_recv_wr w1 = { 0x8001, &sg, 1 };
	mock_tc[RNIC_FW_TC_TXD_STATUS / 4] = 1;
	mock_tc[RNIC_FW_TC_RQD_STATUS / 4] = 1;
	post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, &sg, 1, 0x8002);
	ring_sq();
	rnicp_rq_post(&rq, &w1);
	ring_rq();
	fw_xport_poll();
	unsigned t_busy = mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0), r_busy = mock_mbox_count(RNIC_FW_TC_RQD_COMMIT, m0);
	mock_tc[RNIC_FW_TC_TXD_STATUS / 4] = 0;
	mock_tc[RNIC_FW_TC_RQD_STATUS / 4] = 0;
	fw_xport_poll();
	const struct mock_mbox_rec *r = mock_mbox_nth(RNIC_FW_TC_RQD_COMMIT, m0, 0);
	check(t_busy == 0 && r_busy == 0 && mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == 1 &&
		      mock_mbox_count(RNIC_FW_TC_RQD_COMMIT, m0) == 1 && r && rnic_rq_desc_get_wr_id(r->data) == 0x8001 &&
		      !fw_res.qp_run[qpn].sq_stalled && !fw_res.qp_run[qpn].rq_stalled,
	      "fw-xport-busy-mailboxes-retried-from-the-main-loop");
}

/* A SEND longer than the posted buffer: the receive engine NAKs it and reports RESP_ERROR
 * LOC_LEN_ERR with the buffer's wr_id; that receive completes with LOC_LEN_ERR, the next posted
 * one is flushed, the responder's QP is in ERR. An access error (no buffer consumed) flushes. */
static void resp_errors(void)
{
	for (int consumed = 1; consumed >= 0; consumed--) {
		fresh_qp(7);
		struct rnicp_sge sg = { H(DATA_OFF), 64, 0x101 };
		struct rnicp_recv_wr w1 = { 0x9001, &sg, 1 }, w2 = { 0x9002, &sg, 1 };
		rnicp_rq_post(&rq, &w1);
		rnicp_rq_post(&rq, &w2);
		ring_rq();
		uint8_t ev[RNIC_RX_EVENT_SIZE] = { 0 };
		rnic_rx_event_set_kind(ev, RNIC_RX_EVENT_KIND_RESP_ERROR);
		rnic_rx_event_set_qpn(ev, qpn);
		rnic_rx_event_set_status(ev, consumed ? RNIC_WC_STATUS_LOC_LEN_ERR : RNIC_WC_STATUS_REM_ACCESS_ERR);
		rnic_rx_event_set_wr_id(ev, consumed ? 0x9001 : 0);
		rnic_rx_event_set_byte_len(ev, consumed ? 100 : 0);
		fw_rx_event(ev);
		struct rnicp_wc wc[4];
		int n = rnicp_cq_poll(&cq, 4, wc);
		check(n == 2 && wc[0].wr_id == 0x9001 &&
			      wc[0].status == (consumed ? RNIC_WC_STATUS_LOC_LEN_ERR : RNIC_WC_STATUS_WR_FLUSH_ERR) &&
			      wc[1].wr_id == 0x9002 && wc[1].status == RNIC_WC_STATUS_WR_FLUSH_ERR &&
			      rnic_qp_ctx_get_state(fw_res.qp_ctx[qpn]) == RNIC_QP_STATE_ERR,
		      consumed ? "fw-xport-resp-error-len-completes-buffer-then-err"
			       : "fw-xport-resp-error-access-flushes-then-err");
	}
}

static void atomics(void)
{
	unsigned m0 = mock_nmbox;
	uint8_t ev[RNIC_RX_EVENT_SIZE] = { 0 };
	rnic_st_le(P(DATA_OFF + 64), 8, 100);
	rnic_rx_event_set_kind(ev, RNIC_RX_EVENT_KIND_ATOMIC_REQ);
	rnic_rx_event_set_qpn(ev, qpn);
	rnic_rx_event_set_psn(ev, 0x40);
	rnic_rx_event_set_msn(ev, 9);
	rnic_rx_event_set_opcode(ev, RNIC_BTH_OPCODE_RC_FETCH_ADD);
	rnic_rx_event_set_va(ev, H(DATA_OFF + 64));
	rnic_rx_event_set_swap_add(ev, 5);
	fw_rx_event(ev);
	fw_rx_event(ev); /* the same request again: answered, not executed twice */
	rnic_rx_event_set_psn(ev, 0x41);
	rnic_rx_event_set_opcode(ev, RNIC_BTH_OPCODE_RC_CMP_SWAP); /* 105 == 105 -> 7 */
	rnic_rx_event_set_compare(ev, 105);
	rnic_rx_event_set_swap_add(ev, 7);
	fw_rx_event(ev);
	const struct mock_mbox_rec *a0 = mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m0, 0);
	const struct mock_mbox_rec *a1 = mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m0, 1);
	const struct mock_mbox_rec *a2 = mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m0, 2);
	check(a0 && a1 && a2 && rnic_tx_desc_get_kind(a0->data) == RNIC_MSG_KIND_ATOMIC_ACK &&
		      rnic_tx_desc_get_swap_add(a0->data) == 100 && rnic_tx_desc_get_psn(a0->data) == 0x40 &&
		      rnic_tx_desc_get_imm_data(a0->data) == 9 && rnic_tx_desc_get_swap_add(a1->data) == 100 &&
		      rnic_tx_desc_get_swap_add(a2->data) == 105 && rnic_ld_le(P(DATA_OFF + 64), 8) == 7,
	      "fw-xport-atomics-and-duplicate-replay");
}

/* Requester atomics: an rd_desc (atomic, 8 bytes, the local SGE) goes to the receive engine
 * before each (re)transmission; the ATOMIC_ACK's status completes the WQE, an error one moves the
 * QP to ERR. A READ_RESP_DONE error does the same. */
static void atomic_requester(void)
{
	fresh_qp(7);
	struct rnicp_sge sg = { H(DATA_OFF + 0x100), 8, 0x105 };
	struct rnicp_wc wc[4];
	unsigned m0 = mock_nmbox;
	post(RNIC_WQE_OP_ATOMIC_CMP_AND_SWP, RNICP_WR_SIGNALED, &sg, 1, 0xA001);
	ring_sq();
	const struct mock_mbox_rec *rd = mock_mbox_nth(RNIC_FW_TC_RDD_COMMIT, m0, 0);
	const struct mock_mbox_rec *tx = mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m0, 0);
	uint32_t psn = tx ? rnic_tx_desc_get_psn(tx->data) : 0;
	check(rd && tx && rd < tx && rnic_rd_desc_get_atomic(rd->data) == 1 && rnic_rd_desc_get_qpn(rd->data) == qpn &&
		      rnic_rd_desc_get_first_psn(rd->data) == psn && rnic_rd_desc_get_length(rd->data) == 8 &&
		      rnic_rd_desc_get_num_sge(rd->data) == 1 && rnic_rd_desc_get_sge0_addr(rd->data) == H(DATA_OFF + 0x100) &&
		      rnic_rd_desc_get_sge0_len(rd->data) == 8 && rnic_rd_desc_get_sge0_lkey(rd->data) == 0x105 &&
		      rnic_rd_desc_get_resume(rd->data) == 0,
	      "fw-xport-atomic-destination-posted-before-request");
	/* lost: a PSN-sequence NAK resends it, and its context is posted again */
	event(RNIC_RX_EVENT_KIND_NAK, psn, 0x60);
	const struct mock_mbox_rec *rd2 = mock_mbox_nth(RNIC_FW_TC_RDD_COMMIT, m0, 1);
	check(mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == 2 && rd2 && rnic_rd_desc_get_atomic(rd2->data) == 1 &&
		      rnic_rd_desc_get_first_psn(rd2->data) == psn,
	      "fw-xport-atomic-retransmission-reposts-destination");
	event(RNIC_RX_EVENT_KIND_ATOMIC_ACK, psn, 0);
	int n = rnicp_cq_poll(&cq, 4, wc);
	check(n == 1 && wc[0].wr_id == 0xA001 && wc[0].status == RNIC_WC_STATUS_SUCCESS &&
		      wc[0].opcode == RNIC_WC_OPCODE_COMP_SWAP && wc[0].byte_len == 8,
	      "fw-xport-atomic-ack-completes");
	/* a SEND then an atomic: the ATOMIC_ACK acknowledges the SEND too (implicit ACK); its
	 * LOC_PROT_ERR (the local key failed) fails the atomic and the QP */
	m0 = mock_nmbox;
	post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, &sg, 1, 0xA003);
	post(RNIC_WQE_OP_ATOMIC_FETCH_AND_ADD, RNICP_WR_SIGNALED, &sg, 1, 0xA004);
	post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, &sg, 1, 0xA005);
	ring_sq();
	psn = txd_psn(m0, 1);
	event_st(RNIC_RX_EVENT_KIND_ATOMIC_ACK, psn, 0, RNIC_WC_STATUS_LOC_PROT_ERR);
	n = rnicp_cq_poll(&cq, 4, wc);
	check(psn != ~0u && n == 3 && wc[0].wr_id == 0xA003 && wc[0].status == RNIC_WC_STATUS_SUCCESS && wc[1].wr_id == 0xA004 &&
		      wc[1].status == RNIC_WC_STATUS_LOC_PROT_ERR && wc[2].wr_id == 0xA005 &&
		      wc[2].status == RNIC_WC_STATUS_WR_FLUSH_ERR &&
		      rnic_qp_ctx_get_state(fw_res.qp_ctx[qpn]) == RNIC_QP_STATE_ERR,
	      "fw-xport-atomic-ack-error-status-fails-wqe-and-qp");

	/* READ_RESP_DONE with LOC_LEN_ERR: the READ fails, the QP goes to ERR */
	fresh_qp(7);
	struct rnicp_sge rs = { H(DATA_OFF), 100, 0x101 };
	m0 = mock_nmbox;
	post(RNIC_WQE_OP_RDMA_READ, RNICP_WR_SIGNALED, &rs, 1, 0xA101);
	ring_sq();
	psn = txd_psn(m0, 0);
	event_st(RNIC_RX_EVENT_KIND_READ_RESP_DONE, psn, 0x1F, RNIC_WC_STATUS_LOC_LEN_ERR);
	n = rnicp_cq_poll(&cq, 4, wc);
	check(psn != ~0u && n == 1 && wc[0].wr_id == 0xA101 && wc[0].status == RNIC_WC_STATUS_LOC_LEN_ERR &&
		      rnic_qp_ctx_get_state(fw_res.qp_ctx[qpn]) == RNIC_QP_STATE_ERR,
	      "fw-xport-read-resp-error-status-fails-wqe-and-qp");
}

/* SGE i (address, length) of a transmit descriptor. */
static uint64_t sge_addr(const uint8_t *d, unsigned i) { return rnic_ld_le(d + RNIC_TX_DESC_SGE0_ADDR_OFF + 16 * i, 8); }
static uint32_t sge_len(const uint8_t *d, unsigned i) { return (uint32_t)rnic_ld_le(d + RNIC_TX_DESC_SGE0_LEN_OFF + 16 * i, 4); }
#define TXF(f) (1u << RNIC_TX_FLAG_##f)

/* A long WRITE goes out in 32-packet pieces, at most 64 packets beyond the oldest unacknowledged
 * one; a PSN-sequence NAK inside it resumes at that PSN (SGE walk from its byte, RETRANSMIT); the
 * ACK timeout resumes at the oldest unacknowledged PSN; a READ_GAP re-issues a READ at once. */
/* Implicit NAK on a plain ACK (IBTA: responses come in PSN order): a (coalesced) ACK beyond a
 * READ or atomic that got no response means the response was lost; the READ/atomic and what
 * follows it go out again at once, as one retry, not after the ACK timeout; the ACKs of the
 * requests sent again behind it do not re-issue it a second time; after a timeout they may. */
static void implicit_nak_plain_ack(uint32_t op, uint64_t id, const char *name_reissue, const char *name_once,
				   const char *name_completes)
{
	fresh_qp(7);
	struct rnicp_sge rs = { H(DATA_OFF), op == RNIC_WQE_OP_RDMA_READ ? 3000u : 8u, 0x101 };
	struct rnicp_sge ws = { H(DATA_OFF + 8192), 100, 0x102 };
	unsigned m0 = mock_nmbox;
	mock_now = 5000;
	post(op, RNICP_WR_SIGNALED, &rs, 1, id);
	post(RNIC_WQE_OP_RDMA_WRITE, RNICP_WR_SIGNALED, &ws, 1, id + 1);
	ring_sq();
	uint32_t p_rd = txd_psn(m0, 0), p_wr = txd_psn(m0, 1);
	uint32_t left0 = rnic_qp_ctx_get_retries_left(fw_res.qp_ctx[qpn]);
	event(RNIC_RX_EVENT_KIND_ACK, p_wr, 0x1F); /* the WRITE's ACK; the READ/atomic's response lost */
	const struct mock_mbox_rec *r0 = mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m0, 2);
	const struct mock_mbox_rec *r1 = mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m0, 3);
	struct rnicp_wc wc[4];
	int early = rnicp_cq_poll(&cq, 4, wc);
	check(p_rd != ~0u && r0 && r1 && mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == 4 &&
		      rnic_tx_desc_get_psn(r0->data) == p_rd && (rnic_tx_desc_get_flags(r0->data) & TXF(RETRANSMIT)) &&
		      rnic_tx_desc_get_kind(r0->data) ==
			      (op == RNIC_WQE_OP_RDMA_READ ? RNIC_MSG_KIND_READ_REQ : RNIC_MSG_KIND_FETCH_ADD) &&
		      rnic_tx_desc_get_psn(r1->data) == p_wr && early == 0 &&
		      rnic_qp_ctx_get_retries_left(fw_res.qp_ctx[qpn]) == left0 - 1,
	      name_reissue);
	/* the duplicate WRITE is acknowledged again: no second re-issue, no retry counted */
	event(RNIC_RX_EVENT_KIND_ACK, p_wr, 0x1F);
	int once = mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == 4 &&
		   rnic_qp_ctx_get_retries_left(fw_res.qp_ctx[qpn]) == left0 - 1;
	/* the re-issued one's response lost as well: the ACK timeout sends it again; after that
	 * a plain ACK may re-issue it once more */
	mock_now += (1024ull << 14) + 1;
	fw_timers_poll();
	unsigned after_to = mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0);
	event(RNIC_RX_EVENT_KIND_ACK, p_wr, 0x1F);
	check(once && after_to == 6 && mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == 8, name_once);
	if (op == RNIC_WQE_OP_RDMA_READ)
		event(RNIC_RX_EVENT_KIND_READ_RESP_DONE, (p_rd + 2) & 0xFFFFFF, 0x1F); /* 3000 B: 3 responses */
	else
		event(RNIC_RX_EVENT_KIND_ATOMIC_ACK, p_rd, 0);
	event(RNIC_RX_EVENT_KIND_ACK, p_wr, 0x1F);
	int n = rnicp_cq_poll(&cq, 4, wc);
	check(n == 2 && wc[0].wr_id == id && wc[0].status == RNIC_WC_STATUS_SUCCESS && wc[1].wr_id == id + 1 &&
		      wc[1].status == RNIC_WC_STATUS_SUCCESS &&
		      rnic_qp_ctx_get_retries_left(fw_res.qp_ctx[qpn]) == rnic_qp_ctx_get_retry_cnt(fw_res.qp_ctx[qpn]),
	      name_completes);
}

static void pieces(void)
{
	fresh_qp(7); /* MTU 1024 */
	struct rnicp_sge sg[3] = { { H(DATA_OFF), 10000, 0x101 }, { H(DATA_OFF + 16384), 50000, 0x102 },
				   { H(DATA_OFF + 0x20000), 42400, 0x103 } }; /* 102400 B = 100 packets */
	unsigned m0 = mock_nmbox;
	mock_now = 1000;
	post(RNIC_WQE_OP_RDMA_WRITE_WITH_IMM, RNICP_WR_SIGNALED, sg, 3, 0xB001);
	ring_sq();
	const struct mock_mbox_rec *t0 = mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m0, 0);
	const struct mock_mbox_rec *t1 = mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m0, 1);
	uint32_t p0 = txd_psn(m0, 0);
	check(mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == 2 && t0 && t1 && rnic_tx_desc_get_length(t0->data) == 32768 &&
		      rnic_tx_desc_get_flags(t0->data) == TXF(MORE) && rnic_tx_desc_get_msg_len(t0->data) == 102400 &&
		      rnic_tx_desc_get_num_sge(t0->data) == 2 && sge_len(t0->data, 0) == 10000 && sge_len(t0->data, 1) == 22768 &&
		      rnic_tx_desc_get_remote_va(t0->data) == 0x7000000000ull,
	      "fw-xport-long-write-first-piece");
	/* piece 2: packets 32..63 from byte 32768 = 22768 into SGE 1 */
	check(t1 && rnic_tx_desc_get_psn(t1->data) == ((p0 + 32) & 0xFFFFFF) &&
		      rnic_tx_desc_get_flags(t1->data) == (TXF(CONT) | TXF(MORE)) && rnic_tx_desc_get_num_sge(t1->data) == 2 &&
		      sge_addr(t1->data, 0) == H(DATA_OFF + 16384 + 22768) && sge_len(t1->data, 0) == 27232 &&
		      sge_addr(t1->data, 1) == H(DATA_OFF + 0x20000) && sge_len(t1->data, 1) == 5536 &&
		      rnic_tx_desc_get_remote_va(t1->data) == 0x7000000000ull + 32768 &&
		      rnic_tx_desc_get_length(t1->data) == 32768,
	      "fw-xport-long-write-window-of-64-packets");
	/* the first piece's AckReq ACK opens the window for packets 64..95 */
	event(RNIC_RX_EVENT_KIND_ACK, (p0 + 31) & 0xFFFFFF, 0x1F);
	check(mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == 3 && txd_psn(m0, 2) == ((p0 + 64) & 0xFFFFFF),
	      "fw-xport-ack-of-a-piece-sends-the-next");
	/* NAK at packet 40: resent from there, 40..71 and (window) 72..99, the last one LAST */
	event(RNIC_RX_EVENT_KIND_NAK, (p0 + 40) & 0xFFFFFF, 0x60);
	const struct mock_mbox_rec *r0 = mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m0, 3);
	const struct mock_mbox_rec *r1 = mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m0, 4);
	check(r0 && r1 && mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == 5 && rnic_tx_desc_get_psn(r0->data) == ((p0 + 40) & 0xFFFFFF) &&
		      rnic_tx_desc_get_flags(r0->data) == (TXF(CONT) | TXF(MORE) | TXF(RETRANSMIT)) &&
		      sge_addr(r0->data, 0) == H(DATA_OFF + 16384 + 30960) && sge_len(r0->data, 0) == 19040 &&
		      sge_len(r0->data, 1) == 13728 && rnic_tx_desc_get_remote_va(r0->data) == 0x7000000000ull + 40960 &&
		      rnic_tx_desc_get_psn(r1->data) == ((p0 + 72) & 0xFFFFFF) && rnic_tx_desc_get_length(r1->data) == 28 * 1024 &&
		      rnic_tx_desc_get_flags(r1->data) == (TXF(CONT) | TXF(RETRANSMIT)),
	      "fw-xport-psn-nak-resumes-inside-the-message");
	/* ACK timeout with packets up to 79 acknowledged: from packet 80 (the last piece, 20 packets) */
	event(RNIC_RX_EVENT_KIND_ACK, (p0 + 79) & 0xFFFFFF, 0x1F);
	mock_now += (1024ull << 14) + 1;
	fw_timers_poll();
	const struct mock_mbox_rec *r2 = mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m0, 5);
	check(r2 && mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == 6 && rnic_tx_desc_get_psn(r2->data) == ((p0 + 80) & 0xFFFFFF) &&
		      rnic_tx_desc_get_length(r2->data) == 20 * 1024 &&
		      rnic_tx_desc_get_flags(r2->data) == (TXF(CONT) | TXF(RETRANSMIT)) &&
		      sge_addr(r2->data, 0) == H(DATA_OFF + 0x20000 + 21920) && sge_len(r2->data, 0) == 20480,
	      "fw-xport-ack-timeout-resumes-at-oldest-unacknowledged-psn");
	struct rnicp_wc wc[4];
	event(RNIC_RX_EVENT_KIND_ACK, (p0 + 99) & 0xFFFFFF, 0x1F);
	int n = rnicp_cq_poll(&cq, 4, wc);
	check(n == 1 && wc[0].wr_id == 0xB001 && wc[0].status == RNIC_WC_STATUS_SUCCESS && wc[0].byte_len == 102400,
	      "fw-xport-long-write-one-cqe");
	/* the next WQE follows the long one's PSNs */
	m0 = mock_nmbox;
	struct rnicp_sge rd = { H(DATA_OFF), 5000, 0x101 };
	post(RNIC_WQE_OP_RDMA_READ, RNICP_WR_SIGNALED, &rd, 1, 0xB002);
	ring_sq();
	uint32_t rp = txd_psn(m0, 0);
	check(rp == ((p0 + 100) & 0xFFFFFF), "fw-xport-psn-after-a-resumed-message");
	/* READ_GAP at its 3rd response: re-issued at once for the rest */
	regs[RNIC_FW_REG_RDQ_RESULT / 4] = 1u << 31 | ((rp + 2) & 0xFFFFFF);
	event(RNIC_RX_EVENT_KIND_READ_GAP, (rp + 2) & 0xFFFFFF, 0);
	regs[RNIC_FW_REG_RDQ_RESULT / 4] = 0;
	const struct mock_mbox_rec *g = mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m0, 1);
	check(g && rnic_tx_desc_get_kind(g->data) == RNIC_MSG_KIND_READ_REQ && rnic_tx_desc_get_psn(g->data) == ((rp + 2) & 0xFFFFFF) &&
		      rnic_tx_desc_get_length(g->data) == 5000 - 2048 && rnic_tx_desc_get_remote_va(g->data) == 0x7000000000ull + 2048 &&
		      (rnic_tx_desc_get_flags(g->data) & TXF(RETRANSMIT)),
	      "fw-xport-read-gap-reissues-at-once");
	event(RNIC_RX_EVENT_KIND_READ_RESP_DONE, (rp + 4) & 0xFFFFFF, 0x1F);
	n = rnicp_cq_poll(&cq, 4, wc);
	check(n == 1 && wc[0].wr_id == 0xB002 && wc[0].status == RNIC_WC_STATUS_SUCCESS, "fw-xport-read-after-gap-completes");
}

/* A response that ends an older READ/atomic retires the later WQEs an earlier ACK covered: that
 * ACK came ahead of the response (this NIC's responder sends ACKs of later requests while a READ
 * response is still read from memory, or before the firmware's atomic ACK) and does not come
 * again; before, the later WQEs waited for the ACK timeout and a resend. */
static void response_after_later_ack(uint32_t op, uint64_t id, const char *name, const char *name_next)
{
	fresh_qp(7);
	struct rnicp_sge rs = { H(DATA_OFF), op == RNIC_WQE_OP_RDMA_READ ? 3000u : 8u, 0x101 };
	struct rnicp_sge ws = { H(DATA_OFF + 8192), 100, 0x102 };
	unsigned m0 = mock_nmbox;
	post(op, RNICP_WR_SIGNALED, &rs, 1, id);
	post(RNIC_WQE_OP_RDMA_WRITE, RNICP_WR_SIGNALED, &ws, 1, id + 1);
	post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, &ws, 1, id + 2);
	ring_sq();
	uint32_t p_rd = txd_psn(m0, 0), p_wr = txd_psn(m0, 1);
	/* The WRITE's ACK ahead of the response (a responder answers in PSN order, so the
	 * response was lost or is late: implicit NAK, the three WQEs go out again), then the
	 * response after all (a reordering link): it retires what the ACK covered. */
	event(RNIC_RX_EVENT_KIND_ACK, p_wr, 0x1F);
	struct rnicp_wc wc[4];
	int early = rnicp_cq_poll(&cq, 4, wc);
	if (op == RNIC_WQE_OP_RDMA_READ)
		event(RNIC_RX_EVENT_KIND_READ_RESP_DONE, (p_rd + 2) & 0xFFFFFF, 0x1F); /* 3000 B: 3 responses */
	else
		event(RNIC_RX_EVENT_KIND_ATOMIC_ACK, p_rd, 0);
	int n = rnicp_cq_poll(&cq, 4, wc);
	check(p_rd != ~0u && early == 0 && n == 1 && wc[0].wr_id == id && wc[0].status == RNIC_WC_STATUS_SUCCESS &&
		      mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == 6,
	      name);
	/* the WRITE and SEND sent again: the ACK of the SEND completes both */
	event(RNIC_RX_EVENT_KIND_ACK, txd_psn(m0, 2), 0x1F);
	n = rnicp_cq_poll(&cq, 4, wc);
	check(n == 2 && wc[0].wr_id == id + 1 && wc[0].status == RNIC_WC_STATUS_SUCCESS && wc[1].wr_id == id + 2,
	      name_next);
}

static void timers(void)
{
	fresh_qp(2); /* timeout code 14 from setup: 1024 << 14 cycles */
	struct rnicp_sge sg = { H(DATA_OFF), 64, 0x101 };
	unsigned m0 = mock_nmbox;
	mock_now = 1000;
	post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, &sg, 1, 0x7001);
	ring_sq();
	uint32_t psn = rnic_tx_desc_get_psn(mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m0, 0)->data);
	mock_now += (1024ull << 14) - 1;
	fw_timers_poll();
	check(mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == 1, "fw-xport-no-resend-before-timeout");
	mock_now += 2;
	fw_timers_poll();
	const struct mock_mbox_rec *re = mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m0, 1);
	check(re && rnic_tx_desc_get_psn(re->data) == psn, "fw-xport-ack-timeout-resends");
	mock_now += (1024ull << 14) + 1;
	fw_timers_poll(); /* second retry */
	mock_now += (1024ull << 14) + 1;
	fw_timers_poll(); /* retries exhausted */
	struct rnicp_wc wc[4];
	int n = rnicp_cq_poll(&cq, 4, wc);
	check(mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == 3 && n == 1 && wc[0].wr_id == 0x7001 &&
		      wc[0].status == RNIC_WC_STATUS_RETRY_EXC_ERR,
	      "fw-xport-timeout-retries-then-retry-exceeded");

	/* RNR NAK: nothing is resent before the responder's RNR time (code 12: 640 us), then it is. */
	fresh_qp(7);
	m0 = mock_nmbox;
	post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, &sg, 1, 0x7101);
	ring_sq();
	psn = rnic_tx_desc_get_psn(mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m0, 0)->data);
	event(RNIC_RX_EVENT_KIND_RNR_NAK, psn, 0x20 | 12);
	mock_now += 64 * 2500 - 1;
	fw_timers_poll();
	unsigned before = mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0);
	mock_now += 2;
	fw_timers_poll();
	event(RNIC_RX_EVENT_KIND_ACK, psn, 0x1F);
	n = rnicp_cq_poll(&cq, 4, wc);
	check(before == 1 && mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == 2 && n == 1 && wc[0].wr_id == 0x7101 &&
		      wc[0].status == RNIC_WC_STATUS_SUCCESS,
	      "fw-xport-rnr-wait-then-resend");

}

/* The ACK timer per ACK: only noted (ack_progress), the deadline moved at its expiry. */
static void ack_timer_progress(void)
{
	struct rnicp_sge sg = { H(DATA_OFF), 64, 0x101 };
	struct rnicp_wc wc[4];
	int n;
	unsigned m0;
	/* An ACK only notes its time; the timer's expiry moves the deadline there + the timeout, so
	 * the timeout still counts from the last progress, to the cycle. */
	const uint64_t to = 1024ull << 14;
	fresh_qp(7);
	m0 = mock_nmbox;
	mock_now = 100000;
	post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, &sg, 1, 0x7201);
	post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, &sg, 1, 0x7202);
	ring_sq();
	uint32_t p1 = txd_psn(m0, 0), p2 = txd_psn(m0, 1);
	mock_now += to / 2;
	event(RNIC_RX_EVENT_KIND_ACK, p1, 0x1F); /* the first acknowledged halfway */
	mock_now += to / 2 + 1;
	fw_timers_poll(); /* the first deadline is past: moved, nothing sent */
	unsigned sent_at_first = mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0);
	mock_now += to / 2 - 2;
	fw_timers_poll(); /* one cycle before the timeout after the ACK */
	unsigned sent_before = mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0);
	mock_now += 2;
	fw_timers_poll();
	check(sent_at_first == 2 && sent_before == 2 && mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == 3 &&
		      txd_psn(m0, 2) == p2,
	      "fw-xport-ack-timeout-counts-from-the-last-ack");
	event(RNIC_RX_EVENT_KIND_ACK, p2, 0x1F);
	n = rnicp_cq_poll(&cq, 4, wc);
	check(n == 2 && wc[0].wr_id == 0x7201 && wc[1].wr_id == 0x7202 && wc[1].status == RNIC_WC_STATUS_SUCCESS,
	      "fw-xport-ack-timeout-counts-from-the-last-ack-completes");

	/* Everything acknowledged leaves the timer running to its deadline; a WQE sent before it
	 * gets its whole timeout from its own send, and an idle QP's expiry sends nothing. */
	fresh_qp(7);
	m0 = mock_nmbox;
	mock_now = 200000000;
	post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, &sg, 1, 0x7301);
	ring_sq();
	event(RNIC_RX_EVENT_KIND_ACK, txd_psn(m0, 0), 0x1F);
	mock_now += to - 10;
	post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, &sg, 1, 0x7302);
	ring_sq();
	uint32_t p3 = txd_psn(m0, 1);
	mock_now += 20;
	fw_timers_poll(); /* the first WQE's deadline: 10 cycles after the second went out */
	unsigned early = mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0);
	mock_now += to - 20 - 1;
	fw_timers_poll();
	unsigned late = mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0);
	mock_now += 2;
	fw_timers_poll();
	check(early == 2 && late == 2 && mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == 3 && txd_psn(m0, 2) == p3,
	      "fw-xport-ack-timeout-of-a-wqe-sent-behind-an-emptied-list");
	event(RNIC_RX_EVENT_KIND_ACK, p3, 0x1F);
	mock_now += 4 * to;
	fw_timers_poll();
	n = rnicp_cq_poll(&cq, 4, wc);
	check(n == 2 && wc[1].wr_id == 0x7302 && mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == 3,
	      "fw-xport-ack-timer-idle-expiry-sends-nothing");
}

/* Acknowledgements through the receive-event ring (fw_xport_poll), which hands a known QP's straight to
 * fw_sq_ack: the WQEs they cover complete; one for an unknown QP goes the general way and changes
 * nothing; a NAK through the same path sends again. */
static void mbox_event(uint32_t kind, uint32_t q, uint32_t psn, uint32_t syndrome)
{
	uint8_t ev[RNIC_RX_EVENT_SIZE];
	ev_make(ev, kind, q, psn, syndrome, RNIC_WC_STATUS_SUCCESS);
	check(mock_evr_push(ev), "fw-xport-event-ring-has-room");
	fw_xport_poll();
}

static void ack_through_mailbox(void)
{
	struct rnicp_sge sg = { H(DATA_OFF), 64, 0x101 };
	struct rnicp_wc wc[4];
	fresh_qp(7);
	unsigned m0 = mock_nmbox;
	uint32_t ev0 = fw_perf.events;
	for (uint64_t k = 0; k < 3; k++)
		post(RNIC_WQE_OP_RDMA_WRITE, RNICP_WR_SIGNALED, &sg, 1, 0x7401 + k);
	ring_sq();
	uint32_t p0 = txd_psn(m0, 0), p1 = txd_psn(m0, 1), p2 = txd_psn(m0, 2);
	mbox_event(RNIC_RX_EVENT_KIND_ACK, qpn + 1, p2, 0x1F); /* no such QP */
	int n0 = rnicp_cq_poll(&cq, 4, wc);
	mbox_event(RNIC_RX_EVENT_KIND_ACK, qpn, p1, 0x1F);
	int n = rnicp_cq_poll(&cq, 4, wc);
	check(n0 == 0 && n == 2 && wc[0].wr_id == 0x7401 && wc[1].wr_id == 0x7402 &&
		      wc[1].status == RNIC_WC_STATUS_SUCCESS && wc[1].opcode == RNIC_WC_OPCODE_RDMA_WRITE &&
		      mock_tc[RNIC_FW_TC_EVR_CONS / 4] == mock_tc[RNIC_FW_TC_EVR_PROD / 4] && fw_perf.events == ev0 + 2,
	      "fw-xport-mailbox-ack-completes-covered-wqes");
	/* a PSN sequence NAK at the third WQE's PSN: it goes out again from there */
	unsigned m1 = mock_nmbox;
	mbox_event(RNIC_RX_EVENT_KIND_NAK, qpn, p2, RNIC_AETH_SYNDROME_NAK_PSN_SEQ);
	mbox_event(RNIC_RX_EVENT_KIND_ACK, qpn, p2, 0x1F);
	n = rnicp_cq_poll(&cq, 4, wc);
	check(mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m1) == 1 && txd_psn(m1, 0) == p2 && p0 != p2 && n == 1 &&
		      wc[0].wr_id == 0x7403,
	      "fw-xport-mailbox-nak-resends");
}

/* The receive-event ring across its counters' wrap, full: the firmware takes up the count the
 * hardware holds (a reload), reads a full ring of ACKs in order, frees every slot (evr_cons past
 * the wrap) and then takes the event that waited for room. */
static void event_ring_wrap(void)
{
	struct rnicp_sge sg = { H(DATA_OFF), 64, 0x101 };
	struct rnicp_wc wc[8];
	uint8_t ev[RNIC_RX_EVENT_SIZE];
	uint32_t top = (1u << RNIC_FW_TC_EVR_COUNT_BITS) - 2u, psn[RNIC_FW_TC_EVR_NUM + 1];
	mock_tc[RNIC_FW_TC_EVR_PROD / 4] = mock_tc[RNIC_FW_TC_EVR_CONS / 4] = top;
	fw_events_init();
	fresh_qp(7);
	unsigned m0 = mock_nmbox;
	for (uint64_t k = 0; k <= RNIC_FW_TC_EVR_NUM; k++)
		post(RNIC_WQE_OP_RDMA_WRITE, RNICP_WR_SIGNALED, &sg, 1, 0x7501 + k);
	ring_sq();
	int pushed = 1;
	for (unsigned k = 0; k <= RNIC_FW_TC_EVR_NUM; k++) {
		psn[k] = txd_psn(m0, k);
		ev_make(ev, RNIC_RX_EVENT_KIND_ACK, qpn, psn[k], 0x1F, RNIC_WC_STATUS_SUCCESS);
		if (k < RNIC_FW_TC_EVR_NUM)
			pushed &= mock_evr_push(ev);
	}
	int refused = !mock_evr_push(ev); /* the ring is full: the RTL holds the last ACK back */
	fw_xport_poll();
	int n = rnicp_cq_poll(&cq, 8, wc), in_order = n == RNIC_FW_TC_EVR_NUM;
	for (int k = 0; in_order && k < n; k++)
		in_order = wc[k].wr_id == 0x7501u + (unsigned)k && wc[k].status == RNIC_WC_STATUS_SUCCESS;
	uint32_t wrapped = (top + RNIC_FW_TC_EVR_NUM) & ((1u << RNIC_FW_TC_EVR_COUNT_BITS) - 1u);
	check(pushed && refused && in_order && mock_tc[RNIC_FW_TC_EVR_CONS / 4] == wrapped && wrapped < top,
	      "fw-xport-event-ring-full-in-order-across-wrap");
	int again = mock_evr_push(ev);
	fw_xport_poll();
	n = rnicp_cq_poll(&cq, 8, wc);
	check(again && n == 1 && wc[0].wr_id == 0x7501u + RNIC_FW_TC_EVR_NUM &&
		      mock_tc[RNIC_FW_TC_EVR_CONS / 4] == ((wrapped + 1) & ((1u << RNIC_FW_TC_EVR_COUNT_BITS) - 1u)),
	      "fw-xport-event-ring-takes-the-held-event");
}

/* BlueFlame: a bf_db whose capture holds its WQE sends it without reading the ring; a capture
 * of another doorbell, of another WQE, incomplete, or overtaken while read means a ring read,
 * and the WQE sent is the ring's. */
static uint32_t bf_status(uint32_t valid, uint32_t seq, uint32_t page, uint32_t wqebbs)
{
	uint8_t s[4] = { 0 };
	rnic_bf_status_set_valid(s, valid);
	rnic_bf_status_set_seq(s, seq);
	rnic_bf_status_set_page(s, page);
	rnic_bf_status_set_wqebbs(s, wqebbs);
	return (uint32_t)rnic_ld_le(s, 4);
}

static void sev(uint32_t kind, uint32_t psn, uint32_t syndrome, uint32_t status);
static int bf_srt; /* the QP is an engine QP: its ACKs go through the send-retirement fork */

/* Posts a 1000-byte WRITE (wr_id) by BlueFlame: the WQE into the ring and (if capture) into the
 * capture on the tightly coupled window with the given status; then the bf_db with bf_seq seq. Returns whether one
 * tx_desc for wr_id's WRITE went out, and how many ring reads it took. */
static int bf_post(uint64_t wr_id, int capture, uint32_t status, uint32_t seq, unsigned *ring_reads)
{
	uint8_t wqe[RNICP_MAX_WQE_BYTES];
	struct rnicp_sge sg = { H(DATA_OFF), 1000, 0x101 };
	struct rnicp_send_wr wr = { 0 };
	wr.wr_id = wr_id;
	wr.opcode = RNIC_WQE_OP_RDMA_WRITE;
	wr.flags = RNICP_WR_SIGNALED;
	wr.sg_list = &sg;
	wr.num_sge = 1;
	wr.remote_addr = 0x7000000000ull + wr_id;
	wr.rkey = 0x1234;
	int nbb = rnicp_sq_post(&sq, &wr, wqe);
	if (capture)
		for (int i = 0; i < 64 * nbb; i += 4)
			mock_tc[RNIC_FW_TC_BF_DATA_BASE / 4 + i / 4] = (uint32_t)rnic_ld_le(wqe + i, 4);
	mock_tc[RNIC_FW_TC_BF_STATUS / 4] = status;
	unsigned m0 = mock_nmbox, r0 = mock_dma_reads;
	uint8_t v[4] = { 0 }, ev[4] = { 0 };
	rnic_db_word_set_num(v, qpn);
	rnic_db_word_set_index(v, sq.pi);
	rnic_st_le32(ev, db_ev(0, RNIC_DB_BF_DB));
	rnic_db_event_set_bf_seq(ev, seq);
	fw_doorbell(rnic_ld_le32(ev), (uint32_t)rnic_ld_le(v, 4));
	*ring_reads = mock_dma_reads - r0;
	const struct mock_mbox_rec *d = mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m0, 0);
	int ok = nbb == 1 && mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == 1 && d &&
		 rnic_tx_desc_get_kind(d->data) == RNIC_MSG_KIND_WRITE &&
		 rnic_tx_desc_get_remote_va(d->data) == 0x7000000000ull + wr_id && rnic_tx_desc_get_length(d->data) == 1000;
	/* acknowledged and completed, so the next case starts clean */
	if (bf_srt)
		sev(RNIC_RX_EVENT_KIND_ACK, (rnic_qp_ctx_get_sq_psn(fw_res.qp_ctx[qpn]) - 1) & 0xFFFFFFu, 0x1F, 0);
	else
		event(RNIC_RX_EVENT_KIND_ACK, rnic_qp_ctx_get_sq_psn(fw_res.qp_ctx[qpn]) - 1, 0x1F);
	struct rnicp_wc wc[2];
	return ok && rnicp_cq_poll(&cq, 2, wc) == 1 && wc[0].wr_id == wr_id;
}

static void blueflame(void)
{
	unsigned reads;
	uint32_t hits = fw_perf.bf_wqes, misses = fw_perf.bf_misses;
	check(bf_post(0xB001, 1, bf_status(1, 9, 0, 1), 9, &reads) && reads == 0 && fw_perf.bf_wqes == hits + 1,
	      "fw-bf-wqe-from-capture-no-ring-read");
	check(bf_post(0xB002, 1, bf_status(1, 9, 0, 1), 10, &reads) && reads == 1 && fw_perf.bf_misses == misses + 1,
	      "fw-bf-capture-of-another-doorbell-reads-ring");
	check(bf_post(0xB003, 0, bf_status(1, 11, 0, 1), 11, &reads) && reads == 1, /* holds 0xB002's WQE */
	      "fw-bf-capture-of-another-wqe-reads-ring");
	check(bf_post(0xB004, 1, bf_status(0, 12, 0, 1), 12, &reads) && reads == 1, "fw-bf-incomplete-capture-reads-ring");
	check(bf_post(0xB005, 1, bf_status(1, 13, 5, 1), 13, &reads) && reads == 1, "fw-bf-capture-of-another-page-reads-ring");
	mock_bf_reads_left = 4;
	mock_bf_status_after = bf_status(0, 14, 0, 1);
	misses = fw_perf.bf_misses;
	check(bf_post(0xB006, 1, bf_status(1, 14, 0, 1), 14, &reads) && reads == 1 && fw_perf.bf_misses == misses + 1,
	      "fw-bf-capture-overtaken-while-read-reads-ring");
	/* overtaken right after its first word was read (before any descriptor word): the one check
	 * before the commit sees it all the same */
	mock_bf_reads_left = 1;
	mock_bf_status_after = bf_status(0, 15, 0, 1);
	misses = fw_perf.bf_misses;
	check(bf_post(0xB007, 1, bf_status(1, 15, 0, 1), 15, &reads) && reads == 1 && fw_perf.bf_misses == misses + 1,
	      "fw-bf-capture-overtaken-at-first-read-reads-ring");
	mock_bf_reads_left = 0;
}

/* CQ overrun (IBTA 11.6.3): the consumer index comes from the doorbell record (read by DMA
 * only when the ring looks full) or from cq_db; a CQE that finds the ring still full puts the
 * CQ in error with one CQ_ERROR event, and nothing in the ring is overwritten. */
static uint32_t cq_create(uint32_t log, uint32_t ring_off, uint32_t dbrec_off, struct rnicp_cq *c)
{
	CMD(RNIC_CMD_OP_CREATE_CQ);
	rnic_cmd_create_cq_set_log_size(e, log);
	rnic_cmd_create_cq_set_buf_addr(e, H(ring_off));
	rnic_cmd_create_cq_set_dbrec_addr(e, H(dbrec_off));
	if (fw_cmd_exec(e) != RNIC_CMD_STATUS_OK)
		return 0;
	uint32_t n = rnic_cmd_create_cq_get_cqn(e);
	memset(P(ring_off), 0, RNIC_CQE_SIZE << log);
	rnicp_cq_init(c, P(ring_off), log, n, P(dbrec_off));
	return n;
}

/* One CQE handed over, then the main loop's look at the writer (a hold answered, bus errors). */
static int cqe_put(uint32_t n, uint64_t wr_id)
{
	uint8_t c[RNIC_CQE_SIZE] = { 0 };
	rnic_cqe_set_wr_id(c, wr_id);
	int rc = fw_cqe_write(n, c);
	fw_cqw_check();
	return rc;
}

/* Polls at most max; are they exactly want entries, wr_id first, first + 1, ...? */
static int polled(struct rnicp_cq *c, int max, unsigned want, uint64_t first)
{
	struct rnicp_wc wc[8];
	int n = rnicp_cq_poll(c, max, wc), ok = n == (int)want;
	for (int i = 0; i < n && ok; i++)
		ok = wc[i].wr_id == first + (uint64_t)i;
	return ok;
}

/* CQE writes the bus refuses on two CQs before the firmware looks: both CQs go to error, one
 * CQ_ERROR event each (the writer's error FIFO names both; a single "latest" register lost the
 * first), and a CQ whose writes succeed is untouched. */
static void cq_bus_errors(void)
{
	uint32_t n[2];
	struct rnicp_cq g;
	uint32_t cg = cq_create(2, 0x35000u, 0x35800u, &g);
	for (int i = 0; i < 2; i++) {
		CMD(RNIC_CMD_OP_CREATE_CQ);
		rnic_cmd_create_cq_set_log_size(e, 2);
		/* a ring outside the mock's host memory: every write of it is a bus error */
		rnic_cmd_create_cq_set_buf_addr(e, MOCK_HOST_BASE + MOCK_HOST_BYTES + 0x10000u * (uint32_t)(i + 1));
		rnic_cmd_create_cq_set_dbrec_addr(e, H(0x35900u + 8u * (uint32_t)i));
		n[i] = fw_cmd_exec(e) == RNIC_CMD_STATUS_OK ? rnic_cmd_create_cq_get_cqn(e) : 0;
	}
	regs[RNIC_FW_REG_EQ_LOG_SIZE / 4] = 2;
	uint32_t prod = regs[RNIC_FW_REG_EQ_PROD / 4];
	int ok = cg && n[0] && n[1] && cqe_put(n[0], 1) == 0 && cqe_put(cg, 2) == 0 && cqe_put(n[1], 3) == 0;
	fw_cqw_check();
	const uint8_t *e0 = P(EQ_OFF + (prod & 3) * RNIC_EQ_ENTRY_SIZE);
	const uint8_t *e1 = P(EQ_OFF + ((prod + 1) & 3) * RNIC_EQ_ENTRY_SIZE);
	check(ok && regs[RNIC_FW_REG_EQ_PROD / 4] == prod + 2 &&
		      rnic_eq_entry_get_event_type(e0) == RNIC_EQ_TYPE_CQ_ERROR && rnic_eq_entry_get_handle(e0) == n[0] &&
		      rnic_eq_entry_get_event_type(e1) == RNIC_EQ_TYPE_CQ_ERROR && rnic_eq_entry_get_handle(e1) == n[1] &&
		      fw_res.cqs[n[0]].overflow && fw_res.cqs[n[1]].overflow && !fw_res.cqs[cg].overflow,
	      "fw-cqw-bus-errors-two-cqs-both-in-error");
	fw_cqw_check();
	uint32_t dropped = mock_tc_rd32(RNIC_FW_TC_CQW_DROPPED);
	check(regs[RNIC_FW_REG_EQ_PROD / 4] == prod + 2 && cqe_put(n[0], 4) == 0 &&
		      mock_tc_rd32(RNIC_FW_TC_CQW_DROPPED) == dropped + 1 && cqe_put(cg, 5) == 0 &&
		      polled(&g, 1, 1, 2) && polled(&g, 1, 1, 5),
	      "fw-cqw-bus-errors-reported-once");
	regs[RNIC_FW_REG_EQ_LOG_SIZE / 4] = 0;
}

static void cq_overflow(void)
{
	struct rnicp_cq a, b;
	uint32_t ring = 0x34000u, rec = 0x34800u;

	CMD(RNIC_CMD_OP_CREATE_CQ);
	rnic_cmd_create_cq_set_log_size(e, 1);
	rnic_cmd_create_cq_set_buf_addr(e, H(ring));
	check(fw_cmd_exec(e) == RNIC_CMD_STATUS_BAD_PARAM, "fw-cq-create-needs-doorbell-record");
	rnic_cmd_create_cq_set_dbrec_addr(e, H(rec + 2));
	check(fw_cmd_exec(e) == RNIC_CMD_STATUS_BAD_PARAM, "fw-cq-create-doorbell-record-aligned");

	uint32_t ca = cq_create(1, ring, rec, &a); /* two entries */
	unsigned r0 = mock_dma_reads;
	int ok = ca && cqe_put(ca, 1) == 0 && cqe_put(ca, 2) == 0 && mock_dma_reads == r0;
	ok = ok && polled(&a, 1, 1, 1);
	ok = ok && cqe_put(ca, 3) == 0 && mock_dma_reads == r0 + 1 && polled(&a, 8, 2, 2);
	check(ok, "fw-cq-full-ring-rereads-doorbell-record-once");

	regs[RNIC_FW_REG_EQ_LOG_SIZE / 4] = 2;
	uint32_t prod = regs[RNIC_FW_REG_EQ_PROD / 4], dropped = mock_tc_rd32(RNIC_FW_TC_CQW_DROPPED);
	ok = cqe_put(ca, 4) == 0 && cqe_put(ca, 5) == 0;
	/* the writer holds 6 (ring full, the record says 3 consumed): overrun; 7 dropped */
	ok = ok && cqe_put(ca, 6) == 0 && cqe_put(ca, 7) == 0;
	const uint8_t *ev = P(EQ_OFF + (prod & 3) * RNIC_EQ_ENTRY_SIZE);
	check(ok && regs[RNIC_FW_REG_EQ_PROD / 4] == prod + 1 && rnic_eq_entry_get_event_type(ev) == RNIC_EQ_TYPE_CQ_ERROR &&
		      rnic_eq_entry_get_handle(ev) == ca,
	      "fw-cq-overrun-one-cq-error-event");
	check(polled(&a, 8, 2, 4) && polled(&a, 8, 0, 0) && cqe_put(ca, 8) == 0 &&
		      mock_tc_rd32(RNIC_FW_TC_CQW_DROPPED) == dropped + 3,
	      "fw-cq-overrun-keeps-ring-and-drops-after");
	regs[RNIC_FW_REG_EQ_LOG_SIZE / 4] = 0;

	/* A consumer that rings cq_db instead: no DMA read of the record at all. */
	uint32_t cb = cq_create(1, ring + 0x400, rec + 4, &b);
	ok = cb && cqe_put(cb, 1) == 0 && cqe_put(cb, 2) == 0 && polled(&b, 8, 2, 1);
	rnic_st_le32(P(rec + 4), 0); /* the record says nothing */
	uint8_t v[4] = { 0 };
	rnic_db_word_set_num(v, cb);
	rnic_db_word_set_index(v, 2);
	fw_doorbell(db_ev(0, RNIC_DB_CQ_DB), (uint32_t)rnic_ld_le(v, 4));
	r0 = mock_dma_reads;
	ok = ok && cqe_put(cb, 3) == 0 && cqe_put(cb, 4) == 0 && mock_dma_reads == r0 && polled(&b, 8, 2, 3);
	check(ok, "fw-cq-db-reports-consumer-index");

	/* A destroyed CQ's number, reused, starts a new ring (owner 1 at slot 0, not in error). */
	CMD(RNIC_CMD_OP_DESTROY_CQ);
	rnic_cmd_destroy_set_handle(e, ca);
	ok = fw_cmd_exec(e) == RNIC_CMD_STATUS_OK;
	uint32_t cc = cq_create(1, ring, rec, &a);
	check(ok && cc == ca && cqe_put(cc, 9) == 0 && polled(&a, 8, 1, 9), "fw-cq-reused-number-starts-fresh");
}

/* Completion records (spec cq_rec) through the CQE writer: the CQN rides in the bytes of the
 * cqe's owner, the firmware never has more than the ring's 16 records outstanding (it waits
 * for cqw_cons), and an armed CQ's event is posted only after its CQE is in host memory. */
static void cqe_records(void)
{
	struct rnicp_cq a;
	uint32_t n = cq_create(5, 0x36000u, 0x36800u, &a); /* 32 entries */
	mock_cqw_lag = 40; /* more reads than records: the ring runs full */
	mock_cqw_max_pending = 0;
	unsigned rec0 = mock_cqw_records;
	int ok = n != 0;
	for (uint64_t i = 0; i < 24 && ok; i++) {
		uint8_t c[RNIC_CQE_SIZE] = { 0 };
		rnic_cqe_set_wr_id(c, 0x7700 + i);
		rnic_cqe_set_byte_len(c, (uint32_t)(100 + i));
		rnic_cqe_set_qpn(c, qpn);
		rnic_cqe_set_status(c, RNIC_WC_STATUS_SUCCESS);
		rnic_cqe_set_opcode(c, RNIC_WC_OPCODE_RDMA_WRITE);
		rnic_cqe_set_wqe_index(c, (uint32_t)(0x1230 + i));
		c[30] = 0x55; /* bytes the record's CQN overwrites: never reach the CQE */
		ok = fw_cqe_write(n, c) == 0;
	}
	check(ok && mock_cqw_max_pending == RNIC_FW_TC_CQ_REC_NUM, "fw-cqw-at-most-16-records-outstanding");
	fw_cqw_drain();
	int bytes_ok = mock_cqw_records - rec0 == 24;
	for (unsigned i = 0; i < 24 && bytes_ok; i++) {
		const uint8_t *q = P(0x36000u + i * RNIC_CQE_SIZE);
		bytes_ok = rnic_cqe_get_wr_id(q) == 0x7700 + i && rnic_cqe_get_byte_len(q) == 100 + i &&
			   rnic_cqe_get_qpn(q) == qpn && rnic_cqe_get_wqe_index(q) == 0x1230 + i &&
			   rnic_cqe_get_owner(q) == 1 && q[30] == 0 && (q[31] & 0x7F) == 0;
	}
	check(bytes_ok, "fw-cqw-records-become-cqes-byte-exact");

	/* armed: the writer posts the event itself, after the CQE. The
	 * host consumed the 24 (its doorbell record says so) before it armed. */
	regs[RNIC_FW_REG_EQ_LOG_SIZE / 4] = 2;
	uint32_t prod = regs[RNIC_FW_REG_EQ_PROD / 4];
	uint8_t *dbrec = (uint8_t *)P(0x36800u);
	dbrec[0] = 24, dbrec[1] = dbrec[2] = dbrec[3] = 0;
	uint8_t v[4] = { 0 };
	rnic_db_cq_arm_set_cqn(v, n);
	fw_doorbell(db_ev(0, RNIC_DB_CQ_ARM), (uint32_t)rnic_ld_le(v, 4));
	uint8_t c[RNIC_CQE_SIZE] = { 0 };
	rnic_cqe_set_wr_id(c, 0x7799);
	int wrote = fw_cqe_write(n, c) == 0;
	/* no drain before the event any more: the writer orders it; nothing yet while it lags */
	wrote = wrote && regs[RNIC_FW_REG_EQ_PROD / 4] == prod;
	fw_cqw_drain();
	const uint8_t *q = P(0x36000u + 24 * RNIC_CQE_SIZE);
	check(wrote && regs[RNIC_FW_REG_EQ_PROD / 4] == prod + 1 && rnic_cqe_get_wr_id(q) == 0x7799 &&
		      rnic_cqe_get_owner(q) == 1,
	      "fw-cqw-armed-event-after-its-cqe");
	/* An arm while a CQE the host has not consumed is in the ring (written after its last poll,
	 * before the arm arrived) gives the event at once, and the next CQE none. */
	ok = fw_cqe_write(n, c) == 0;
	fw_cqw_drain();
	dbrec[0] = 25; /* the host polled 0x7799, not the one after it */
	fw_doorbell(db_ev(0, RNIC_DB_CQ_ARM), (uint32_t)rnic_ld_le(v, 4));
	check(ok && regs[RNIC_FW_REG_EQ_PROD / 4] == prod + 2, "fw-cq-arm-with-cqe-pending-fires-at-once");
	ok = fw_cqe_write(n, c) == 0;
	fw_cqw_drain();
	check(ok && regs[RNIC_FW_REG_EQ_PROD / 4] == prod + 2, "fw-cq-arm-fires-once");
	regs[RNIC_FW_REG_EQ_LOG_SIZE / 4] = 0;
	mock_cqw_lag = 0;
	fw_cqw_drain();
}

/* The panic path through the CQE writer's event ring: FW_PANIC lands byte for byte; with the
 * event ring full behind a record held on a full CQ (nobody to answer it), the trap handler's
 * post gives up after its bounded wait without answering the hold; the main loop's look at the
 * writer answers it later and everything drains in order. */
static void eq_panic_path(void)
{
	struct rnicp_cq a;
	regs[RNIC_FW_REG_EQ_LOG_SIZE / 4] = 2;
	uint32_t prod = regs[RNIC_FW_REG_EQ_PROD / 4];
	fw_panic_notify(2, 0x1234, 0xBEEF);
	const uint8_t *ev = P(EQ_OFF + (prod & 3) * RNIC_EQ_ENTRY_SIZE);
	check(regs[RNIC_FW_REG_EQ_PROD / 4] == prod + 1 && rnic_eq_entry_get_event_type(ev) == RNIC_EQ_TYPE_FW_PANIC &&
		      rnic_eq_entry_get_subtype(ev) == 2 && rnic_eq_entry_get_handle(ev) == 0x1234 &&
		      rnic_eq_entry_get_data(ev) == 0xBEEF && rnic_eq_entry_get_owner(ev) == (((prod >> 2) & 1) ^ 1),
	      "fw-eq-panic-event-through-the-writer");

	uint32_t n = cq_create(1, 0x37000u, 0x37800u, &a); /* two entries, nothing consumed */
	rnic_st_le32(P(0x37800u), 0);
	uint8_t c[RNIC_CQE_SIZE] = { 0 };
	unsigned holds = mock_cqw_holds;
	int ok = n && fw_cqe_write(n, c) == 0 && fw_cqe_write(n, c) == 0 && fw_cqe_write(n, c) == 0;
	prod = regs[RNIC_FW_REG_EQ_PROD / 4];
	for (uint32_t i = 0; i < RNIC_FW_TC_EV_REC_NUM; i++)
		ok = ok && fw_eqw_post(RNIC_EQ_TYPE_PORT_CHANGE, 0, i, 0, 1) == 0;
	ok = ok && fw_eqw_post(RNIC_EQ_TYPE_FW_PANIC, 1, 2, 3, 1) == -1; /* bounded, hold not answered */
	check(ok && mock_cqw_holds == holds + 1 && regs[RNIC_FW_REG_EQ_PROD / 4] == prod &&
		      rnic_cqw_status_v_held(mock_tc_rd32(RNIC_FW_TC_CQW_STATUS)),
	      "fw-eq-panic-post-bounded-behind-a-held-record");
	fw_cqw_check(); /* the record still finds no room: overrun, the CQ in error, CQ_ERROR last */
	const uint8_t *last = P(EQ_OFF + ((prod + RNIC_FW_TC_EV_REC_NUM) & 3) * RNIC_EQ_ENTRY_SIZE);
	check(!(rnic_cqw_status_v_held(mock_tc_rd32(RNIC_FW_TC_CQW_STATUS))) &&
		      regs[RNIC_FW_REG_EQ_PROD / 4] == prod + RNIC_FW_TC_EV_REC_NUM + 1 &&
		      rnic_eq_entry_get_event_type(last) == RNIC_EQ_TYPE_CQ_ERROR && rnic_eq_entry_get_handle(last) == n,
	      "fw-cq-hold-answered-later-events-drain-in-order");
	CMD(RNIC_CMD_OP_DESTROY_CQ);
	rnic_cmd_destroy_set_handle(e, n);
	check(fw_cmd_exec(e) == RNIC_CMD_STATUS_OK, "fw-cq-destroy-after-overrun");
	regs[RNIC_FW_REG_EQ_LOG_SIZE / 4] = 0;
}

/* One MODIFY_QP of the test QP; its status. */
static uint32_t modify(uint32_t mask, uint32_t state, uint32_t access, uint32_t rnr_timer)
{
	CMD(RNIC_CMD_OP_MODIFY_QP);
	rnic_cmd_modify_qp_set_qpn(e, qpn);
	rnic_cmd_modify_qp_set_attr_mask(e, mask);
	rnic_cmd_modify_qp_set_state(e, state);
	rnic_cmd_modify_qp_set_access(e, access);
	rnic_cmd_modify_qp_set_min_rnr_timer(e, rnr_timer);
	return fw_cmd_exec(e);
}

/* A modify of a live QP rewrites the RTL entry in place (keep_state): the new access mask and
 * RNR timer reach the RTL, its expected PSN and receive buffers stay; a modify that only
 * changes state between RTS and SQD does the same. */
static void modify_live_checks(void)
{
	uint32_t keep = qpn | 1u << (RNIC_QPT_CMD_KEEP_STATE_OFF * 8 + 7);
	unsigned m0 = mock_nmbox;
	uint32_t st = modify(A(ACCESS_FLAGS) | A(MIN_RNR_TIMER), 0, 1u << RNIC_ACCESS_REMOTE_READ, 12);
	const struct mock_mbox_rec *q = mock_mbox_nth(RNIC_FW_REG_QPT_COMMIT, m0, 0);
	check(st == RNIC_CMD_STATUS_OK && mock_mbox_count(RNIC_FW_REG_QPT_COMMIT, m0) == 1 && q && q->arg == keep &&
		      rnic_qpt_entry_get_access(q->data) == 1u << RNIC_ACCESS_REMOTE_READ &&
		      rnic_qpt_entry_get_min_rnr_timer(q->data) == 12 && rnic_qpt_entry_get_tx_enable(q->data) &&
		      mock_mbox_count(RNIC_FW_TC_RQD_COMMIT, m0) == 0 &&
		      rnic_qp_ctx_get_state(fw_res.qp_ctx[qpn]) == RNIC_QP_STATE_RTS,
	      "fw-qp-modify-rts-to-rts-keeps-rtl-state");
	m0 = mock_nmbox;
	uint32_t s1 = modify(A(STATE), RNIC_QP_STATE_SQD, 0, 0);
	uint32_t s2 = modify(A(STATE) | A(ACCESS_FLAGS), RNIC_QP_STATE_RTS, 7, 0);
	const struct mock_mbox_rec *qd = mock_mbox_nth(RNIC_FW_REG_QPT_COMMIT, m0, 0);
	q = mock_mbox_nth(RNIC_FW_REG_QPT_COMMIT, m0, 1);
	check(s1 == RNIC_CMD_STATUS_OK && s2 == RNIC_CMD_STATUS_OK && mock_mbox_count(RNIC_FW_REG_QPT_COMMIT, m0) == 2 &&
		      qd && q && qd->arg == keep && q->arg == keep && !rnic_qpt_entry_get_tx_enable(qd->data) &&
		      rnic_qpt_entry_get_rx_enable(qd->data) && rnic_qpt_entry_get_tx_enable(q->data) &&
		      rnic_qpt_entry_get_access(q->data) == 7 && rnic_qpt_entry_get_min_rnr_timer(q->data) == 12,
	      "fw-qp-modify-rts-sqd-rts-keeps-rtl-state");
	modify(A(MIN_RNR_TIMER), 0, 0, 0); /* back to the setup's timer for the checks that follow */
}

/* One doorbell announcing 12 WQEs: a fetch of half the engine's buffer, the rest fetched into
 * the other half before the first WQE is sent (one command each, two for a range crossing the
 * ring end); the descriptors come out in order with each WQE's own length. */
static int stream_of(unsigned n0, unsigned cnt, unsigned *cmds)
{
	struct rnicp_sge sg = { H(DATA_OFF), 0, 0x101 };
	unsigned m0 = mock_nmbox, c0 = mock_wqf_cmds;
	for (unsigned k = 0; k < cnt; k++) {
		sg.length = n0 + k;
		post(RNIC_WQE_OP_RDMA_WRITE, RNICP_WR_SIGNALED, &sg, 1, 0x7000 + k);
	}
	ring_sq();
	/* a pass sends at most SQ_PASS_MAX, the rest goes when the main loop retries the QP
	 * after the events, from the WQEBBs already staged and prefetched (no fetch again) */
	int ok = mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == SQ_PASS_MAX && fw_res.qp_run[qpn].sq_stalled && fw_stalled_any;
	fw_sq_retry_stalled();
	*cmds = mock_wqf_cmds - c0;
	ok = ok && mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == cnt && !fw_res.qp_run[qpn].sq_stalled;
	for (unsigned k = 0; ok && k < cnt; k++)
		ok = rnic_tx_desc_get_length(mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m0, k)->data) == n0 + k;
	event(RNIC_RX_EVENT_KIND_ACK, rnic_qp_ctx_get_sq_psn(fw_res.qp_ctx[qpn]) - 1, 0x1F);
	struct rnicp_wc wc[16];
	int n = rnicp_cq_poll(&cq, 16, wc);
	for (int k = 0; ok && k < (int)cnt; k++)
		ok = n == (int)cnt && wc[k].wr_id == 0x7000u + (unsigned)k && wc[k].status == RNIC_WC_STATUS_SUCCESS &&
		     rnicp_sq_complete(&sq, wc[k].wqe_index) == 0; /* the ring space is the host's again */
	return ok;
}

/* Doorbell-started fetches: the doorbell BAR hands the engine the sq_db word (mock_wqf_db) before
 * the firmware reads it from its mailbox. */
static void ring_sq_db(void)
{
	uint8_t v[4] = { 0 };
	rnic_db_word_set_num(v, qpn);
	rnic_db_word_set_index(v, sq.pi);
	mock_wqf_db(rnic_qp_ctx_get_uctx(fw_res.qp_ctx[qpn]), (uint32_t)rnic_ld_le(v, 4), 0);
	ring_sq();
}

/* Acknowledges everything sent; the CQEs of n WQEs from wr_id w0 on, in order, SUCCESS. */
static int ack_all_complete(unsigned n, uint64_t w0)
{
	event(RNIC_RX_EVENT_KIND_ACK, rnic_qp_ctx_get_sq_psn(fw_res.qp_ctx[qpn]) - 1, 0x1F);
	struct rnicp_wc wc[16];
	int got = rnicp_cq_poll(&cq, 16, wc), ok = got == (int)n;
	for (int k = 0; ok && k < got; k++)
		ok = wc[k].wr_id == w0 + (unsigned)k && wc[k].status == RNIC_WC_STATUS_SUCCESS &&
		     rnicp_sq_complete(&sq, wc[k].wqe_index) == 0;
	return ok;
}

/* The engine has the SQ's ring state from RTS on; the WQEBBs of an sq_db come from its record (no
 * fetch command of the firmware's); another QP's record in the way is dropped; what the engine's
 * region could not take the firmware fetches itself and moves the engine's fetch index past it;
 * a record whose fetch met a bus error completes the WQE with LOC_QP_OP_ERR, the QP goes to ERR
 * and the ring state is taken back. */
static void doorbell_fetch(void)
{
	fresh_qp(7);
	const struct mock_sq *m = &mock_sq[qpn];
	check(mock_wqf_db_on && m->en && m->fidx == 0 && m->log == SQ_LOG && m->base == H(SQ_OFF) &&
		      m->page == rnic_qp_ctx_get_uctx(fw_res.qp_ctx[qpn]) && !mock_sq[qpn + 1].en,
	      "fw-sq-ring-state-given-at-rts");

	struct rnicp_sge sg = { H(DATA_OFF), 0, 0x101 };
	unsigned m0 = mock_nmbox, c0 = mock_wqf_cmds, d0 = mock_wqf_db_cmds;
	for (unsigned k = 0; k < 3; k++) {
		sg.length = 300 + k;
		post(RNIC_WQE_OP_RDMA_WRITE, RNICP_WR_SIGNALED, &sg, 1, 0x9000 + k);
	}
	ring_sq_db();
	int ok = mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == 3 && mock_wqf_cmds == c0 && mock_wqf_db_cmds == d0 + 1;
	for (unsigned k = 0; ok && k < 3; k++)
		ok = rnic_tx_desc_get_length(mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m0, k)->data) == 300 + k;
	check(ok && ack_all_complete(3, 0x9000), "fw-sq-doorbell-fetch-used-no-firmware-fetch");

	/* another QP's record at the head of the engine's records (its doorbell came first) */
	fw_wqf_sq_program(qpn + 1, H(SQ_OFF), SQ_LOG, 0, 1, 0);
	mock_wqf_db(0, (qpn + 1) | 1u << 16, 0);
	m0 = mock_nmbox, c0 = mock_wqf_cmds, d0 = mock_wqf_db_cmds;
	sg.length = 400;
	post(RNIC_WQE_OP_RDMA_WRITE, RNICP_WR_SIGNALED, &sg, 1, 0x9100);
	ring_sq_db();
	ok = mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == 1 && mock_wqf_cmds == c0 && mock_wqf_db_cmds == d0 + 1 &&
	     rnic_tx_desc_get_length(mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m0, 0)->data) == 400;
	fw_wqf_sq_program(qpn + 1, 0, 0, 0, 0, 0);
	check(ok && ack_all_complete(1, 0x9200 - 0x100), "fw-sq-doorbell-record-of-another-qp-dropped");

	/* 14 WQEBBs in one doorbell (SQ indices 4..17 of a 16-WQEBB ring): the engine's fetch stops at
	 * the ring end (12), the firmware fetches the other 2 (one command) and moves the engine's fetch
	 * index to the producer */
	m0 = mock_nmbox, c0 = mock_wqf_cmds, d0 = mock_wqf_db_cmds;
	for (unsigned k = 0; k < 14; k++) {
		sg.length = 500 + k;
		post(RNIC_WQE_OP_RDMA_WRITE, RNICP_WR_SIGNALED, &sg, 1, 0x9300 + k);
	}
	ring_sq_db();
	for (int r = 0; r < 4 && fw_stalled_any; r++)
		fw_sq_retry_stalled();
	ok = mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == 14 && mock_wqf_db_cmds == d0 + 1 && mock_wqf_cmds == c0 + 1 &&
	     m->fidx == sq.pi;
	for (unsigned k = 0; ok && k < 14; k++)
		ok = rnic_tx_desc_get_length(mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m0, k)->data) == 500 + k;
	check(ok && ack_all_complete(14, 0x9300), "fw-sq-doorbell-fetch-clamped-rest-by-firmware");

	/* a record that grows after the firmware staged it: 9 WQEs in one doorbell, the pass sends
	 * SQ_PASS_MAX; 2 more posted, their doorbell extends the engine's record (no record of its
	 * own) and the next pass takes them from it, read again: no fetch of the firmware's */
	m0 = mock_nmbox, c0 = mock_wqf_cmds, d0 = mock_wqf_db_cmds;
	unsigned e0 = mock_wqf_db_ext;
	for (unsigned k = 0; k < 9; k++) {
		sg.length = 600 + k;
		post(RNIC_WQE_OP_RDMA_WRITE, RNICP_WR_SIGNALED, &sg, 1, 0x9500 + k);
	}
	ring_sq_db();
	ok = mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == SQ_PASS_MAX;
	for (unsigned k = 9; k < 11; k++) {
		sg.length = 600 + k;
		post(RNIC_WQE_OP_RDMA_WRITE, RNICP_WR_SIGNALED, &sg, 1, 0x9500 + k);
	}
	ring_sq_db();
	fw_sq_retry_stalled();
	ok = ok && mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == 11 && mock_wqf_cmds == c0 && mock_wqf_db_cmds == d0 + 2 &&
	     mock_wqf_db_ext == e0 + 1;
	for (unsigned k = 0; ok && k < 11; k++)
		ok = rnic_tx_desc_get_length(mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m0, k)->data) == 600 + k;
	check(ok && ack_all_complete(11, 0x9500), "fw-sq-doorbell-record-extended-read-again");

	/* a bus error on the engine's fetch */
	mock_wqf_fail = 1;
	post(RNIC_WQE_OP_RDMA_WRITE, RNICP_WR_SIGNALED, &sg, 1, 0x9400);
	ring_sq_db();
	mock_wqf_fail = 0;
	struct rnicp_wc wc[4];
	int n = rnicp_cq_poll(&cq, 4, wc);
	check(n == 1 && wc[0].status == RNIC_WC_STATUS_LOC_QP_OP_ERR &&
		      rnic_qp_ctx_get_state(fw_res.qp_ctx[qpn]) == RNIC_QP_STATE_ERR && !m->en,
	      "fw-sq-doorbell-fetch-error-loc-qp-op-err");
}

/* The firmware behind the host (a 64-WQEBB ring): 16 WQEs on one doorbell (the engine's record
 * fills its 16-WQEBB region), 8 more (16..23) on a doorbell that finds the region full (no
 * record), so at the record's end the firmware fetches 16..19 itself; then 8 more (24..31) on a
 * doorbell: the engine fetches 20..31 into its emptied region and the firmware takes them from
 * that record. Before, the firmware's own fetch also prefetched 20..23 and moved the engine's
 * fetch index past them, so the engine fetched only 24..31 and the firmware, finding its
 * prefetch at 20, prefetched 24..27 beside the engine's record, then 28..31, and so on for every
 * later batch: in the bench's 1-QP 64 B stream 266 of 267 stage misses went to the firmware's
 * own fetches and the engine's records went unused. One fetch command of the firmware's, two
 * of the engine's, every descriptor in order, every CQE. */
static void doorbell_behind(void)
{
	sq_log = 6;
	fresh_qp(7);
	sq_log = SQ_LOG;
	struct rnicp_sge sg = { H(DATA_OFF), 0, 0x101 };
	unsigned m0 = mock_nmbox, c0 = mock_wqf_cmds, d0 = mock_wqf_db_cmds, posted = 0;
	for (unsigned batch = 16; batch; batch = posted < 32 ? 8 : 0) {
		for (unsigned k = 0; k < batch; k++, posted++) {
			sg.length = 700 + posted;
			post(RNIC_WQE_OP_RDMA_WRITE, RNICP_WR_SIGNALED, &sg, 1, 0xA000 + posted);
		}
		ring_sq_db();
		if (posted == 24)
			fw_sq_retry_stalled(); /* 12..15, the record's end, then 16..17 */
	}
	for (int r = 0; r < 8 && fw_stalled_any; r++)
		fw_sq_retry_stalled();
	unsigned sent = mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0);
	event(RNIC_RX_EVENT_KIND_ACK, rnic_qp_ctx_get_sq_psn(fw_res.qp_ctx[qpn]) - 1, 0x1F);
	int ok = sent == 32;
	struct rnicp_wc wc[16];
	for (unsigned got = 0; ok && got < 32;) { /* 16 CQEs a poll */
		int n = rnicp_cq_poll(&cq, 16, wc);
		for (int k = 0; ok && k < n; k++, got++)
			ok = wc[k].wr_id == 0xA000u + got && wc[k].status == RNIC_WC_STATUS_SUCCESS &&
			     rnicp_sq_complete(&sq, wc[k].wqe_index) == 0;
		ok = ok && n > 0;
	}
	for (unsigned k = 0; ok && k < posted; k++)
		ok = rnic_tx_desc_get_length(mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m0, k)->data) == 700 + k;
	printf("# firmware behind the host: %u sent, %u fetch commands of the firmware's, %u of the engine's\n", sent,
	       mock_wqf_cmds - c0, mock_wqf_db_cmds - d0);
	check(ok && mock_wqf_cmds - c0 == 1 && mock_wqf_db_cmds - d0 == 2,
	      "fw-sq-doorbell-behind-record-not-firmware-prefetch");
}

static void wqe_fetch(void)
{
	unsigned cmds;
	fresh_qp(7);
	int ok = stream_of(100, 10, &cmds); /* WQEBBs 0..9: three batches */
	check(ok && cmds == own_fetch_cmds(0, 10) && cmds == 3, "fw-xport-wqe-fetch-half-and-prefetch");
	ok = stream_of(200, 12, &cmds); /* WQEBBs 10..21 of a 16-WQEBB ring: the batch 14..17 is two commands */
	check(ok && cmds == own_fetch_cmds(10, 12) && cmds == 4, "fw-xport-wqe-fetch-ring-wrap");
	/* Five sq_dbs of the QP waiting in the doorbell ring, one per WQE, one of them with a producer index
	 * beyond the ring (ignored, as alone), then a doorbell of another kind: the first takes the
	 * other four with it (popped, counted), one pass and one fetch for the three WQEs, the
	 * producer index the last good one's; the CQ doorbell stays for the main loop's next turn. */
	struct rnicp_sge sg1 = { H(DATA_OFF), 64, 0x101 };
	unsigned m1 = mock_nmbox, c1 = mock_wqf_cmds;
	uint8_t v1[4] = { 0 };
	CMD(RNIC_CMD_OP_QUERY_COUNTERS);
	fw_cmd_exec(e);
	uint32_t dbs0 = rnic_cmd_query_counters_get_doorbells(e);
	rnic_db_word_set_num(v1, qpn);
	for (unsigned k = 0; k < 3; k++) {
		post(RNIC_WQE_OP_RDMA_WRITE, RNICP_WR_SIGNALED, &sg1, 1, 0x7080 + k);
		rnic_db_word_set_index(v1, sq.pi);
		mock_db_push(db_ev(0, RNIC_DB_SQ_DB), rnic_ld_le32(v1));
		if (k == 1) {
			rnic_db_word_set_index(v1, (uint16_t)(sq.pi + 100));
			mock_db_push(db_ev(0, RNIC_DB_SQ_DB), rnic_ld_le32(v1));
		}
	}
	uint16_t pi3 = sq.pi;
	rnic_db_word_set_index(v1, pi3);
	mock_db_push(db_ev(0, RNIC_DB_SQ_DB), rnic_ld_le32(v1)); /* the same index again */
	mock_db_push(db_ev(0, RNIC_DB_CQ_DB), 0);
	/* fw_xport_poll: the first read and dispatched, taking the four behind it; the CQ doorbell
	 * dispatched on its own after them: two dispatches, six doorbells counted */
	uint32_t nd = fw_xport_poll();
	ok = nd == 2 && mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m1) == 3 && mock_wqf_cmds - c1 == 1 &&
	     rnic_qp_ctx_get_sq_pi(fw_res.qp_ctx[qpn]) == pi3 && mock_db_pending() == 0;
	for (unsigned k = 0; ok && k < 3; k++)
		ok = rnic_tx_desc_get_length(mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m1, k)->data) == 64;
	CMD(RNIC_CMD_OP_QUERY_COUNTERS);
	fw_cmd_exec(e);
	check(ok && rnic_cmd_query_counters_get_doorbells(e) - dbs0 == 6, "fw-xport-sq-doorbells-of-one-qp-batched");
	/* an sq_db between two CQ doorbells takes neither (three dispatches), also across the ring's
	 * wrap (six rounds: more doorbells than its slots) */
	unsigned wrap_ok = 0;
	for (unsigned r = 0; r < 6; r++) {
		mock_db_push(db_ev(0, RNIC_DB_CQ_DB), 0);
		mock_db_push(db_ev(0, RNIC_DB_SQ_DB), rnic_ld_le32(v1));
		mock_db_push(db_ev(0, RNIC_DB_CQ_DB), 0);
		wrap_ok += fw_xport_poll() == 3 && mock_db_pending() == 0;
	}
	check(wrap_ok == 6, "fw-xport-sq-doorbell-batch-leaves-the-next-kind");
	/* more doorbells than the ring's slots: the rest wait in the doorbell BAR's FIFO and come in
	 * as the firmware frees slots; one poll serves all of them, each once */
	for (unsigned k = 0; k < RNIC_FW_TC_DBR_NUM + 5; k++)
		mock_db_push(db_ev(0, RNIC_DB_CQ_DB), 0);
	uint32_t nfull = fw_xport_poll();
	check(nfull == RNIC_FW_TC_DBR_NUM + 5 && mock_db_pending() == 0, "fw-xport-doorbell-ring-full-then-fifo");
	event(RNIC_RX_EVENT_KIND_ACK, rnic_qp_ctx_get_sq_psn(fw_res.qp_ctx[qpn]) - 1, 0x1F);
	struct rnicp_wc wc2[4];
	int n2 = rnicp_cq_poll(&cq, 4, wc2);
	for (int k = 0; k < n2; k++)
		rnicp_sq_complete(&sq, wc2[k].wqe_index);
	/* a fetch answered with a bus error: the WQE completes with an error, the QP goes to ERR */
	struct rnicp_sge sg = { H(DATA_OFF), 64, 0x101 };
	unsigned m0 = mock_nmbox;
	post(RNIC_WQE_OP_RDMA_WRITE, RNICP_WR_SIGNALED, &sg, 1, 0x7100);
	mock_wqf_fail = 1;
	ring_sq();
	mock_wqf_fail = 0;
	struct rnicp_wc wc[4];
	int n = rnicp_cq_poll(&cq, 4, wc);
	check(n == 1 && wc[0].status == RNIC_WC_STATUS_LOC_QP_OP_ERR && mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == 0 &&
		      rnic_qp_ctx_get_state(fw_res.qp_ctx[qpn]) == RNIC_QP_STATE_ERR,
	      "fw-xport-wqe-fetch-bus-error-qp-err");
}

/* The common-case send path (send_fast: words from the staged WQEBB straight into the mailbox)
 * against the general one (send_one: the WQE copied, the descriptor built in memory, then sent):
 * the same WQEs on a fresh QP through each must give the same transmit descriptors, word for word
 * (the 32 header bytes and the SGEs the engine reads), the same completions and the same PSNs. */
struct fast_run {
	uint8_t d[12][RNIC_TX_DESC_SIZE];
	struct rnicp_wc wc[12];
	unsigned ntx;
	int nwc;
	uint32_t fast;
};

static void fast_run_once(int generic, struct fast_run *r)
{
	struct rnicp_sge sg2[2] = { { H(DATA_OFF), 1000, 0x101 }, { H(DATA_OFF + 4096), 2000, 0x102 } };
	struct rnicp_sge big = { H(DATA_OFF), 40u * 1024, 0x103 }; /* 40 packets at 1024: in pieces */
	char text[20] = "inline payload 0123";
	struct rnicp_sge in = { (uint64_t)(uintptr_t)text, 20, 0 };

	fresh_qp(7);
	for (uint32_t w = 0; w < RNIC_TX_DESC_SIZE / 4; w++)
		mock_tc[RNIC_FW_TC_TXD_DATA / 4 + w] = 0xDEAD0000u + w; /* what an earlier descriptor left */
	fw_sq_generic_only = (uint8_t)generic;
	unsigned m0 = mock_nmbox;
	uint32_t f0 = fw_sq_fast_sent;
	post(RNIC_WQE_OP_RDMA_WRITE, RNICP_WR_SIGNALED, sg2, 1, 0x9001);
	post(RNIC_WQE_OP_RDMA_WRITE_WITH_IMM, RNICP_WR_SIGNALED | RNICP_WR_SOLICITED, sg2, 1, 0x9002);
	post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, sg2, 2, 0x9003);
	post(RNIC_WQE_OP_SEND_WITH_IMM, RNICP_WR_SIGNALED, sg2, 1, 0x9004);
	post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, sg2, 0, 0x9005); /* zero-length SEND */
	post(RNIC_WQE_OP_RDMA_WRITE, 0, sg2, 2, 0x9006);           /* two WQEBBs: the general path */
	post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED | RNICP_WR_INLINE, &in, 1, 0x9007);
	post(RNIC_WQE_OP_RDMA_WRITE, RNICP_WR_SIGNALED, &big, 1, 0x9008);
	ring_sq();
	while (fw_res.qp_run[qpn].sq_stalled)
		fw_sq_retry_stalled();
	r->fast = fw_sq_fast_sent - f0;
	r->ntx = mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0);
	for (unsigned k = 0; k < r->ntx && k < 12; k++)
		memcpy(r->d[k], mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m0, k)->data, RNIC_TX_DESC_SIZE);
	event(RNIC_RX_EVENT_KIND_ACK, rnic_qp_ctx_get_sq_psn(fw_res.qp_ctx[qpn]) - 1, 0x1F);
	r->nwc = rnicp_cq_poll(&cq, 12, r->wc);
	fw_sq_generic_only = 0;
}

static void fast_path(void)
{
	static struct fast_run g, f;
	fast_run_once(1, &g);
	fast_run_once(0, &f);
	int same = g.ntx == f.ntx && g.ntx == 9 && g.nwc == f.nwc && g.nwc == 7;
	for (unsigned k = 0; same && k < g.ntx; k++) {
		uint32_t nsge = rnic_tx_desc_get_num_sge(g.d[k]);
		/* what the engine reads: the header's first 32 bytes (bytes 32-63 only for atomics and
		 * UD) and num_sge SGEs */
		same = memcmp(g.d[k], f.d[k], 32) == 0 &&
		       memcmp(g.d[k] + RNIC_TX_DESC_SGE0_ADDR_OFF, f.d[k] + RNIC_TX_DESC_SGE0_ADDR_OFF, 16u * (nsge < 4 ? nsge : 4)) == 0;
	}
	for (int k = 0; same && k < g.nwc; k++)
		same = g.wc[k].wr_id == f.wc[k].wr_id && g.wc[k].status == RNIC_WC_STATUS_SUCCESS &&
		       f.wc[k].status == RNIC_WC_STATUS_SUCCESS && g.wc[k].opcode == f.wc[k].opcode &&
		       g.wc[k].byte_len == f.wc[k].byte_len && g.wc[k].wqe_index == f.wc[k].wqe_index;
	/* the first five took the common path, the 2-WQEBB WRITE, the inline SEND and the 40-packet
	 * WRITE (two pieces) the general one; the first descriptor as the WQE said */
	const uint8_t *d0 = f.d[0];
	check(same && g.fast == 0 && f.fast == 5 && rnic_tx_desc_get_kind(d0) == RNIC_MSG_KIND_WRITE &&
		      rnic_tx_desc_get_remote_va(d0) == 0x7000000000ull && rnic_tx_desc_get_rkey(d0) == 0x1234 &&
		      rnic_tx_desc_get_length(d0) == 1000 && rnic_tx_desc_get_num_sge(d0) == 1 &&
		      rnic_tx_desc_get_sge0_lkey(d0) == 0x101 && rnic_tx_desc_get_psn(d0) == 0xFFFFFE &&
		      rnic_tx_desc_get_flags(f.d[1]) == 1u << RNIC_TX_FLAG_SOLICITED &&
		      rnic_tx_desc_get_num_sge(f.d[2]) == 2 && rnic_tx_desc_get_sge1_len(f.d[2]) == 2000,
	      "fw-sq-fast-desc-equals-send-one");
}


/* ---- The send-retirement engine (fw_sq_srt.c; the mock's model of rtl/sq_retire): an RC QP's
 * records go to the engine, its ACKs never reach the firmware, the completions are the engine's
 * (mock_srt_cqr: the cq_rec it hands the CQE writer, byte for byte), and the firmware still
 * decides the resends, timeouts and errors. */

/* An acknowledgement through the receive-event fork as the RTL delivers it (the engine's part
 * first, then the event if it goes on), then the engine's own events. */
static void sev(uint32_t kind, uint32_t psn, uint32_t syndrome, uint32_t status)
{
	uint8_t ev[RNIC_RX_EVENT_SIZE];
	unsigned e0 = mock_srt_nev;
	ev_make(ev, kind, qpn, psn, syndrome, status);
	if (mock_srt_fork(ev))
		fw_rx_event(ev);
	for (unsigned i = e0; i < mock_srt_nev; i++) {
		const uint8_t *s = mock_srt_ev[i];
		uint32_t k = rnic_sr_event_get_kind(s) == RNIC_SR_EVENT_KIND_BARRIER ? RNIC_RX_EVENT_KIND_SR_BARRIER
										  : RNIC_RX_EVENT_KIND_SR_RESP_ERR;
		ev_make(ev, k, rnic_sr_event_get_qpn(s), rnic_sr_event_get_psn(s), 0, rnic_sr_event_get_status(s));
		fw_rx_event(ev);
	}
}

/* Completion record n of the engine is exactly this one. */
static int cqr_is(unsigned n, uint64_t wr_id, uint32_t len, uint32_t status, uint32_t wc_op, uint32_t idx)
{
	uint8_t x[RNIC_CQ_REC_SIZE] = { 0 };
	rnic_cq_rec_set_wr_id(x, wr_id);
	rnic_cq_rec_set_byte_len(x, len);
	rnic_cq_rec_set_qpn(x, qpn);
	rnic_cq_rec_set_status(x, status);
	rnic_cq_rec_set_opcode(x, wc_op);
	rnic_cq_rec_set_wqe_index(x, idx);
	rnic_cq_rec_set_cqn(x, cqn);
	return n < mock_srt_ncqr && !memcmp(x, mock_srt_cqr[n], RNIC_CQ_REC_SIZE);
}

static void fresh_srt_qp(uint32_t retry_cnt)
{
	mock_srt_reset();
	fw_srt_off = 0;
	fresh_qp(retry_cnt);
}

/* A fresh engine QP for one case: its context; *cqr0 and *m0 the engine's completion records
 * and the mailbox commits so far. */
static uint8_t *srt_case(uint32_t retry_cnt, unsigned *cqr0, unsigned *m0)
{
	fresh_srt_qp(retry_cnt);
	*cqr0 = mock_srt_ncqr;
	*m0 = mock_nmbox;
	return fw_res.qp_ctx[qpn];
}

/* ---- The transmit builder (fw_sq_txb.c; the mock's model of rtl/tx_build, tb/tx_build/txb_ref.h):
 * on an engine QP with hw_caps.tx_build the common WQE goes by one command; every "not mine" is
 * sent by send_one; the descriptors and the send records are the ones send_fast and send_one
 * give. mode 0: send_one only, 1: send_fast (no builder), 2: the builder. */
struct txb_run {
	uint8_t d[12][RNIC_TX_DESC_SIZE];
	uint32_t arg[12];
	uint32_t rec[12][6];
	unsigned ntx, nrec, cmds, res[16], ncqr;
	uint32_t psn, txb_sent, not_mine;
	unsigned runs; /* commands covering a run of 2 or more WQEs */
};

static void txb_caps(int on)
{
	regs[RNIC_FW_REG_HW_CAPS / 4] = (regs[RNIC_FW_REG_HW_CAPS / 4] & ~RNIC_HW_CAPS_TX_BUILD_MASK) |
					(on ? RNIC_HW_CAPS_TX_BUILD_MASK : 0);
}

static void txb_run_once(int mode, struct txb_run *r)
{
	struct rnicp_sge sg2[2] = { { H(DATA_OFF), 1000, 0x101 }, { H(DATA_OFF + 4096), 2000, 0x102 } };
	struct rnicp_sge big = { H(DATA_OFF), 40u * 1024, 0x103 }; /* 40 packets at 1024: in pieces */
	char text[20] = "inline payload 0123";
	struct rnicp_sge in = { (uint64_t)(uintptr_t)text, 20, 0 };

	txb_caps(mode == 2);
	fresh_srt_qp(7);
	for (uint32_t w = 0; w < RNIC_TX_DESC_SIZE / 4; w++)
		mock_tc[RNIC_FW_TC_TXD_DATA / 4 + w] = 0xDEAD0000u + w; /* what an earlier descriptor left */
	fw_sq_generic_only = (uint8_t)(mode == 0);
	unsigned m0 = mock_nmbox, c0 = mock_txb_cmds, res0[16], rc0[16];
	memcpy(res0, mock_txb_results, sizeof(res0));
	memcpy(rc0, mock_txb_run_counts, sizeof(rc0));
	uint32_t s0 = fw_txb_sent, n0 = fw_txb_not_mine;
	post(RNIC_WQE_OP_RDMA_WRITE, RNICP_WR_SIGNALED, sg2, 1, 0x9001);
	post(RNIC_WQE_OP_RDMA_WRITE_WITH_IMM, RNICP_WR_SIGNALED | RNICP_WR_SOLICITED, sg2, 1, 0x9002);
	post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, sg2, 2, 0x9003);
	post(RNIC_WQE_OP_SEND_WITH_IMM, 0, sg2, 1, 0x9004);
	post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, sg2, 0, 0x9005); /* zero-length SEND */
	post(RNIC_WQE_OP_RDMA_WRITE, 0, sg2, 2, 0x9006);           /* two WQEBBs: SIZE */
	post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED | RNICP_WR_INLINE, &in, 1, 0x9007); /* INLINE */
	post(RNIC_WQE_OP_RDMA_WRITE, RNICP_WR_SIGNALED, &big, 1, 0x9008);           /* PACKETS */
	ring_sq();
	while (fw_res.qp_run[qpn].sq_stalled)
		fw_sq_retry_stalled();
	r->ntx = mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0);
	for (unsigned k = 0; k < r->ntx && k < 12; k++) {
		const struct mock_mbox_rec *t = mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m0, k);
		memcpy(r->d[k], t->data, RNIC_TX_DESC_SIZE);
		r->arg[k] = t->arg;
	}
	r->nrec = 0;
	uint32_t q;
	const uint32_t *w;
	for (unsigned i = 0; (w = mock_srt_rec_words(i, &q)) != 0; i++)
		if (q == qpn && r->nrec < 12)
			memcpy(r->rec[r->nrec++], w, sizeof(r->rec[0]));
	r->cmds = mock_txb_cmds - c0;
	r->runs = 0;
	for (unsigned k = 0; k < 16; k++) {
		r->res[k] = mock_txb_results[k] - res0[k];
		if (k >= 2)
			r->runs += mock_txb_run_counts[k] - rc0[k];
	}
	r->psn = rnic_qp_ctx_get_sq_psn(fw_res.qp_ctx[qpn]);
	r->txb_sent = fw_txb_sent - s0;
	r->not_mine = fw_txb_not_mine - n0;
	sev(RNIC_RX_EVENT_KIND_ACK, (r->psn - 1) & 0xFFFFFFu, 0x1F, 0); /* all acknowledged: no timer left */
	r->ncqr = mock_srt_ncqr;
	fw_sq_generic_only = 0;
	txb_caps(0);
}

/* the descriptors as the transmit engine reads them (the header's first 32 bytes, num_sge SGEs)
 * and the send records, word for word */
static int txb_same(const struct txb_run *a, const struct txb_run *b)
{
	int same = a->ntx == b->ntx && a->nrec == b->nrec && a->psn == b->psn && a->ncqr == b->ncqr;
	for (unsigned k = 0; same && k < a->ntx && k < 12; k++) {
		uint32_t nsge = rnic_tx_desc_get_num_sge(a->d[k]);
		same = memcmp(a->d[k], b->d[k], 32) == 0 &&
		       memcmp(a->d[k] + RNIC_TX_DESC_SGE0_ADDR_OFF, b->d[k] + RNIC_TX_DESC_SGE0_ADDR_OFF, 16u * (nsge < 4 ? nsge : 4)) == 0;
	}
	for (unsigned k = 0; same && k < a->nrec; k++)
		same = memcmp(a->rec[k], b->rec[k], sizeof(a->rec[0])) == 0;
	return same;
}

static void txb_path(void)
{
	static struct txb_run g, f, t, tb;
	unsigned u0 = mock_txb_unexpected;
	txb_run_once(0, &g);
	txb_run_once(1, &f);
	txb_run_once(2, &t);
	int engine_args = t.ntx == 9;
	for (unsigned k = 0; engine_args && k < t.ntx; k++) /* the first five the builder's, the rest send_one's */
		engine_args = t.arg[k] == (k < 5 ? MOCK_TXB_ARG : 0u);
	check(txb_same(&g, &t) && txb_same(&f, &t) && g.ntx == 9 && g.nrec == 8 && g.cmds == 0 && f.cmds == 0 &&
		      mock_txb_unexpected == u0 && engine_args,
	      "fw-sq-txb-desc-equals-send-one");
	/* each "not mine" (SIZE, INLINE, PACKETS) went by send_one, each asked once: the five the
	 * builder sends go in runs (fewer commands than WQEs), the SIZE one stops a run after at
	 * least one WQE (the engine is not asked about it again) */
	check(t.cmds < 8 && t.runs >= 1 && t.res[RNIC_TXB_RESULT_SENT] == 5 && t.res[RNIC_TXB_RESULT_SIZE] == 1 &&
		      t.res[RNIC_TXB_RESULT_INLINE] == 1 && t.res[RNIC_TXB_RESULT_PACKETS] == 1 && t.txb_sent == 5 &&
		      t.not_mine == 3,
	      "fw-sq-txb-not-mine-falls-back-to-send-one");
	printf("INFO fw-sq-txb: %u commands for 8 WQEs, %u of them runs\n", t.cmds, t.runs);
	/* the engine slow to answer: the firmware polls busy and stores nothing meanwhile */
	mock_txb_busy_reads = 3;
	txb_run_once(2, &tb);
	mock_txb_busy_reads = 0;
	check(txb_same(&tb, &t) && tb.res[RNIC_TXB_RESULT_SENT] == 5 && tb.cmds == t.cmds &&
		      !rnic_txb_status_v_dropped(mock_tc_rd32(RNIC_FW_TC_TXB_STATUS)),
	      "fw-sq-txb-polls-busy");

	/* Runs: WRITE, WRITE, SEND, WRITE in one doorbell. A SEND ends its run (fw_txb_send_runs
	 * 0): two commands, of 3 and 1 WQEs; with SEND runs on, one of 4. The same descriptors in SQ
	 * order (their PSNs one after the other) either way. */
	struct rnicp_sge sg = { H(DATA_OFF), 100, 0x101 };
	for (int on = 0; on < 2; on++) {
		txb_caps(1);
		fresh_srt_qp(7);
		fw_txb_send_runs = (uint8_t)on;
		uint32_t psn = rnic_qp_ctx_get_sq_psn(fw_res.qp_ctx[qpn]);
		unsigned m0 = mock_nmbox, c0 = mock_txb_cmds, r1 = mock_txb_run_counts[1], r3 = mock_txb_run_counts[3],
			 r4 = mock_txb_run_counts[4];
		post(RNIC_WQE_OP_RDMA_WRITE, RNICP_WR_SIGNALED, &sg, 1, 0xA001);
		post(RNIC_WQE_OP_RDMA_WRITE, RNICP_WR_SIGNALED, &sg, 1, 0xA002);
		post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, &sg, 1, 0xA003);
		post(RNIC_WQE_OP_RDMA_WRITE, RNICP_WR_SIGNALED, &sg, 1, 0xA004);
		ring_sq();
		int ok = mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == 4 && mock_srt_records(qpn) == 4;
		for (unsigned k = 0; ok && k < 4; k++) {
			const struct mock_mbox_rec *d = mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m0, k);
			ok = d->arg == MOCK_TXB_ARG && rnic_tx_desc_get_psn(d->data) == ((psn + k) & 0xFFFFFFu) &&
			     rnic_tx_desc_get_kind(d->data) == (k == 2 ? RNIC_MSG_KIND_SEND : RNIC_MSG_KIND_WRITE);
		}
		if (on)
			ok = ok && mock_txb_cmds == c0 + 1 && mock_txb_run_counts[4] == r4 + 1;
		else
			ok = ok && mock_txb_cmds == c0 + 2 && mock_txb_run_counts[3] == r3 + 1 && mock_txb_run_counts[1] == r1 + 1;
		check(ok && rnic_qp_ctx_get_sq_psn(fw_res.qp_ctx[qpn]) == ((psn + 4) & 0xFFFFFFu),
		      on ? "fw-sq-txb-run-of-four-with-send-runs" : "fw-sq-txb-send-ends-its-run");
		sev(RNIC_RX_EVENT_KIND_ACK, (psn + 3) & 0xFFFFFFu, 0x1F, 0);
	}
	fw_txb_send_runs = 0;
	txb_caps(0);
}

/* The command words of one WRITE: the QP's (qpn, path_mtu, sig_all, send_cqn, page), the WQE's
 * (where it is staged, the index, the PSN, first send, not BlueFlame), each as the spec lays it out. */
static void txb_words(void)
{
	struct rnicp_sge sg = { H(DATA_OFF), 100, 0x101 };
	txb_caps(1);
	fresh_srt_qp(7);
	uint8_t *c = fw_res.qp_ctx[qpn];
	uint32_t psn = rnic_qp_ctx_get_sq_psn(c);
	uint32_t idx = rnic_qp_ctx_get_sq_next(c);
	unsigned c0 = mock_txb_cmds;
	post(RNIC_WQE_OP_RDMA_WRITE, RNICP_WR_SIGNALED, &sg, 1, 0xC0DE0001u);
	ring_sq();
	const uint32_t *w = mock_txb_cmd_words;
	uint32_t src = rnic_txb_cmd_get_src_bb(w) * RNIC_WQEBB_BYTES;
	check(mock_txb_cmds == c0 + 1 && rnic_txb_cmd_get_qpn(w) == qpn &&
		      rnic_txb_cmd_get_path_mtu(w) == rnic_qp_ctx_get_path_mtu(c) &&
		      rnic_txb_cmd_get_sig_all(w) == (rnic_qp_ctx_get_sq_sig_all(c) != 0) &&
		      rnic_txb_cmd_get_send_cqn(w) == cqn && rnic_txb_cmd_get_page(w) == rnic_qp_ctx_get_uctx(c) &&
		      rnic_txb_cmd_get_wqe_index(w) == (idx & 0xFFFFu) && rnic_txb_cmd_get_psn(w) == psn &&
		      !rnic_txb_cmd_get_retx(w) && !rnic_txb_cmd_get_bf(w) &&
		      mock_tc[src / 4] == 0xC0DE0001u && rnic_qp_ctx_get_sq_psn(c) == ((psn + 1) & 0xFFFFFFu),
	      "fw-sq-txb-command-words");
	/* no record room in the engine (one free: the builder keeps one in reserve): NO_RECORD, and
	 * send_one sends it with the firmware's own record */
	unsigned n0 = mock_nmbox, r0 = mock_txb_results[RNIC_TXB_RESULT_NO_RECORD], k0 = mock_srt_records(qpn);
	mock_txb_free = 1;
	post(RNIC_WQE_OP_RDMA_WRITE, RNICP_WR_SIGNALED, &sg, 1, 0xC0DE0002u);
	ring_sq();
	mock_txb_free = -1;
	const struct mock_mbox_rec *d = mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, n0, 0);
	check(mock_txb_results[RNIC_TXB_RESULT_NO_RECORD] == r0 + 1 && d && d->arg == 0 &&
		      mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, n0) == 1 && rnic_tx_desc_get_psn(d->data) == ((psn + 1) & 0xFFFFFFu) &&
		      mock_srt_records(qpn) == k0 + 1 && rnic_qp_ctx_get_sq_psn(c) == ((psn + 2) & 0xFFFFFFu),
	      "fw-sq-txb-no-record-falls-back");
	/* without hw_caps.tx_build no command is stored (an image runs on a core without it) */
	txb_caps(0);
	fresh_srt_qp(7);
	c0 = mock_txb_cmds;
	unsigned u0 = mock_txb_unexpected;
	post(RNIC_WQE_OP_RDMA_WRITE, RNICP_WR_SIGNALED, &sg, 1, 0xC0DE0003u);
	ring_sq();
	check(mock_txb_cmds == c0 && mock_txb_unexpected == u0 && fw_txb_ok == 0, "fw-sq-txb-off-without-hw-caps");
	sev(RNIC_RX_EVENT_KIND_ACK, (rnic_qp_ctx_get_sq_psn(fw_res.qp_ctx[qpn]) - 1) & 0xFFFFFFu, 0x1F, 0);
	/* BlueFlame through the builder: the capture's WQE sent by the engine (the command names the
	 * capture and its doorbell's bf_seq, no ring read); a capture overtaken while the engine
	 * reads it is BF_LOST, and send_one reads the ring */
	txb_caps(1);
	fresh_srt_qp(7);
	bf_srt = 1;
	unsigned reads, s0 = mock_txb_results[RNIC_TXB_RESULT_SENT], l0 = mock_txb_results[RNIC_TXB_RESULT_BF_LOST];
	uint32_t hits = fw_perf.bf_wqes, misses = fw_perf.bf_misses;
	int ok = bf_post(0xB101, 1, bf_status(1, 21, 0, 1), 21, &reads);
	const uint32_t *bw = mock_txb_cmd_words;
	check(ok && reads == 0 && fw_perf.bf_wqes == hits + 1 && mock_txb_results[RNIC_TXB_RESULT_SENT] == s0 + 1 &&
		      rnic_txb_cmd_get_bf(bw) && rnic_txb_cmd_get_bf_seq(bw) == 21 &&
		      rnic_txb_cmd_get_src_bb(bw) * RNIC_WQEBB_BYTES == RNIC_FW_TC_BF_DATA_BASE,
	      "fw-sq-txb-bf-wqe-from-capture");
	mock_bf_reads_left = 6; /* the control-segment read of the staging, then the engine's reads */
	mock_bf_status_after = bf_status(0, 22, 0, 1);
	ok = bf_post(0xB102, 1, bf_status(1, 22, 0, 1), 22, &reads);
	mock_bf_reads_left = 0;
	check(ok && reads == 1 && fw_perf.bf_misses == misses + 1 && mock_txb_results[RNIC_TXB_RESULT_BF_LOST] == l0 + 1,
	      "fw-sq-txb-bf-overtaken-falls-back-to-the-ring");
	bf_srt = 0;
	txb_caps(0);
	check(!mock_srt_dropped(), "fw-sq-txb-no-store-dropped");
	fw_srt_off = 1; /* the tests after these: the firmware's own send path, a fresh QP */
	mock_srt_reset();
	fresh_qp(7);
}

/* Free firmware send records (fw_res.swqe's free list). */
static unsigned swqe_free_n(void)
{
	unsigned n = 0;
	for (int16_t i = fw_res.swqe_free; i >= 0 && n <= FW_MAX_SWQE; i = fw_res.swqe[i].next)
		n++;
	return n;
}

/* Transmit descriptor nth since mailbox record from is psn, length bytes, remote_va 0x7000000000 +
 * va_off, first SGE at host DATA_OFF + sge_off, flags exactly f. */
static int txd_is(unsigned from, unsigned nth, uint32_t psn, uint32_t len, uint32_t va_off, uint32_t sge_off, uint32_t f)
{
	const struct mock_mbox_rec *t = mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, from, nth);
	return t && rnic_tx_desc_get_psn(t->data) == (psn & 0xFFFFFF) && rnic_tx_desc_get_length(t->data) == len &&
	       (rnic_tx_desc_get_kind(t->data) == RNIC_MSG_KIND_SEND ||
		rnic_tx_desc_get_remote_va(t->data) == 0x7000000000ull + va_off) &&
	       sge_addr(t->data, 0) == H(DATA_OFF + sge_off) && rnic_tx_desc_get_flags(t->data) == f;
}

/* Stage 3 (session 27): an engine QP's WQEs that send_fast sends keep no firmware record; every
 * resend starts from the engine's records (FIND / QUERY): a NAK, an RNR NAK and a timeout inside
 * or at such a WQE, a stale NAK before the oldest, READ resume after a lost response behind them,
 * the window, and the move to ERR. Each with the descriptors sent again and the completions byte
 * for byte. */
static void srt_no_swqe(void)
{
	struct rnicp_sge w8 = { H(DATA_OFF), 8000, 0x101 }, s1 = { H(DATA_OFF), 1000, 0x101 };
	struct rnicp_sge rd = { H(DATA_OFF + 8192), 5000, 0x103 };
	struct rnicp_wc wc[8];
	unsigned cqr0, m0;
	const uint32_t RT = TXF(RETRANSMIT);

	/* three WQEs send_fast sends (an 8-packet WRITE, two SENDs): the engine's records only */
	uint8_t *c = srt_case(7, &cqr0, &m0);
	struct fw_qp_run *r = &fw_res.qp_run[qpn];
	unsigned free0 = swqe_free_n(), fast0 = fw_sq_fast_sent;
	uint32_t ia = sq.pi;
	post(RNIC_WQE_OP_RDMA_WRITE, RNICP_WR_SIGNALED, &w8, 1, 0xA001);
	uint32_t ib = sq.pi;
	post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, &s1, 1, 0xA002);
	uint32_t ic = sq.pi;
	post(RNIC_WQE_OP_SEND, 0, &s1, 1, 0xA003);
	ring_sq();
	uint32_t pa = txd_psn(m0, 0);
	check(fw_sq_fast_sent == fast0 + 3 && mock_srt_records(qpn) == 3 && r->head < 0 && swqe_free_n() == free0 &&
		      txd_psn(m0, 1) == ((pa + 8) & 0xFFFFFF) && txd_psn(m0, 2) == ((pa + 9) & 0xFFFFFF) && r->deadline,
	      "fw-srt3-fast-wqes-no-firmware-record");
	/* PSN sequence NAK at the WRITE's 4th packet: the engine acknowledged 3 (nothing retires),
	 * the firmware resends the WRITE from packet 3 (a piece: CONT, from byte 3072) and the two
	 * SENDs whole, with no new engine record */
	unsigned m1 = mock_nmbox, f0 = mock_srt_ops[RNIC_SR_OP_FIND];
	uint32_t left = rnic_qp_ctx_get_retries_left(c);
	sev(RNIC_RX_EVENT_KIND_NAK, (pa + 3) & 0xFFFFFF, 0x60, 0);
	check(mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m1) == 3 && txd_is(m1, 0, pa + 3, 8000 - 3072, 3072, 3072, TXF(CONT) | RT) &&
		      txd_is(m1, 1, pa + 8, 1000, 0, 0, RT) && txd_is(m1, 2, pa + 9, 1000, 0, 0, RT) &&
		      mock_srt_records(qpn) == 3 && mock_srt_ncqr == cqr0 && mock_srt_ops[RNIC_SR_OP_FIND] == f0 + 1 &&
		      rnic_qp_ctx_get_retries_left(c) == left - 1 && rnic_qp_ctx_get_sq_psn(c) == ((pa + 10) & 0xFFFFFF),
	      "fw-srt3-psn-nak-inside-fast-write-resumes-there");
	/* an RNR NAK at the first SEND: after the RNR time, the SENDs again from there (whole) */
	m1 = mock_nmbox;
	sev(RNIC_RX_EVENT_KIND_RNR_NAK, (pa + 8) & 0xFFFFFF, 0x20 | 1, 0); /* code 1: 10 us */
	unsigned before = mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m1);
	unsigned ncqr_rnr = mock_srt_ncqr;
	mock_now += 2 * 2500 + 1;
	fw_timers_poll();
	check(before == 0 && ncqr_rnr == cqr0 + 1 && cqr_is(cqr0, 0xA001, 8000, 0, RNIC_WC_OPCODE_RDMA_WRITE, ia) &&
		      mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m1) == 2 && txd_is(m1, 0, pa + 8, 1000, 0, 0, RT) &&
		      txd_is(m1, 1, pa + 9, 1000, 0, 0, RT) && mock_srt_records(qpn) == 2 && r->head < 0,
	      "fw-srt3-rnr-nak-resends-fast-sends-from-the-engine");
	sev(RNIC_RX_EVENT_KIND_ACK, (pa + 9) & 0xFFFFFF, 0x1F, 0);
	int n = rnicp_cq_poll(&cq, 8, wc);
	check(n == 2 && wc[0].wr_id == 0xA001 && wc[1].wr_id == 0xA002 && mock_srt_ncqr == cqr0 + 2 &&
		      cqr_is(cqr0 + 1, 0xA002, 1000, 0, RNIC_WC_OPCODE_SEND, ib) && mock_srt_records(qpn) == 0,
	      "fw-srt3-resent-fast-wqes-complete-once");
	(void)ic;

	/* the ACK timer inside a fast WRITE: packets 0-4 acknowledged (progress: re-armed), then no
	 * progress: resent from una, packet 5, as a piece */
	m1 = mock_nmbox;
	mock_now = 1000;
	uint32_t id = sq.pi;
	post(RNIC_WQE_OP_RDMA_WRITE, RNICP_WR_SIGNALED, &w8, 1, 0xA101);
	ring_sq();
	uint32_t pd = txd_psn(m1, 0);
	r->deadline = 0;
	arm_ack_timer(qpn);
	sev(RNIC_RX_EVENT_KIND_ACK, (pd + 4) & 0xFFFFFF, 0x1F, 0);
	mock_now += (1024ull << 14) + 1;
	fw_timers_poll();
	unsigned after1 = mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m1);
	mock_now += (1024ull << 14) + 1;
	fw_timers_poll();
	check(r->head < 0 || fw_res.swqe[r->head].wqe_index == (id & 0xFFFF), "fw-srt3-timer-part-record-only-for-the-resent-wqe");
	check(after1 == 1 && mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m1) == 2 &&
		      txd_is(m1, 1, pd + 5, 8000 - 5120, 5120, 5120, TXF(CONT) | RT) && mock_srt_records(qpn) == 1,
	      "fw-srt3-timeout-resends-fast-write-from-una");
	sev(RNIC_RX_EVENT_KIND_ACK, (pd + 7) & 0xFFFFFF, 0x1F, 0);
	n = rnicp_cq_poll(&cq, 8, wc);
	check(n == 1 && wc[0].wr_id == 0xA101 && cqr_is(mock_srt_ncqr - 1, 0xA101, 8000, 0, RNIC_WC_OPCODE_RDMA_WRITE, id),
	      "fw-srt3-timeout-resent-write-completes");

	/* a stale NAK (its PSN before the oldest WQE's): the engine's oldest WQE is sent again whole */
	m1 = mock_nmbox;
	post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, &s1, 1, 0xA201);
	ring_sq();
	uint32_t pe = txd_psn(m1, 0);
	sev(RNIC_RX_EVENT_KIND_NAK, (pe - 3) & 0xFFFFFF, 0x60, 0);
	check(mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m1) == 2 && txd_is(m1, 1, pe, 1000, 0, 0, RT) && mock_srt_records(qpn) == 1,
	      "fw-srt3-stale-nak-resends-the-oldest");
	/* no free firmware record for the piece: the fast WRITE goes again whole from its first PSN */
	sev(RNIC_RX_EVENT_KIND_ACK, pe, 0x1F, 0);
	rnicp_cq_poll(&cq, 8, wc);
	m1 = mock_nmbox;
	post(RNIC_WQE_OP_RDMA_WRITE, RNICP_WR_SIGNALED, &w8, 1, 0xA301);
	ring_sq();
	uint32_t pf = txd_psn(m1, 0);
	int16_t keep = fw_res.swqe_free;
	fw_res.swqe_free = -1;
	sev(RNIC_RX_EVENT_KIND_NAK, (pf + 2) & 0xFFFFFF, 0x60, 0);
	fw_res.swqe_free = keep;
	check(mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m1) == 2 && txd_is(m1, 1, pf, 8000, 0, 0, RT) && r->head < 0,
	      "fw-srt3-no-free-record-resends-whole");
	sev(RNIC_RX_EVENT_KIND_ACK, (pf + 7) & 0xFFFFFF, 0x1F, 0);
	check(rnicp_cq_poll(&cq, 8, wc) == 1 && wc[0].wr_id == 0xA301 && swqe_free_n() == free0, "fw-srt3-records-all-free");

	/* READ resume after a lost response, behind a fast SEND and before another: the READ keeps
	 * its firmware record (its context); READ_GAP at its 3rd response asks for the rest, the SEND
	 * behind it goes again, then the response and the ACK complete all three in order */
	c = srt_case(7, &cqr0, &m0);
	r = &fw_res.qp_run[qpn];
	uint32_t ja = sq.pi;
	post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, &s1, 1, 0xA401);
	uint32_t jb = sq.pi;
	post(RNIC_WQE_OP_RDMA_READ, RNICP_WR_SIGNALED, &rd, 1, 0xA402);
	uint32_t jc = sq.pi;
	post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, &s1, 1, 0xA403);
	ring_sq();
	uint32_t qa = txd_psn(m0, 0), qr = (qa + 1) & 0xFFFFFF;
	check(mock_srt_records(qpn) == 3 && r->head >= 0 && fw_res.swqe[r->head].wqe_index == (jb & 0xFFFF) &&
		      fw_res.swqe[r->head].next < 0 && fw_sq_rd_outstanding() == 1,
	      "fw-srt3-read-keeps-its-record-alone");
	/* a sync while the engine's oldest is the SEND before it keeps it (and its context) */
	check(srt_sync(qpn) == 1 && r->head >= 0 && fw_res.swqe[r->head].wqe_index == (jb & 0xFFFF) &&
		      fw_sq_rd_outstanding() == 1,
	      "fw-srt3-sync-keeps-records-behind-the-engines-oldest");
	sev(RNIC_RX_EVENT_KIND_ACK, qa, 0x1F, 0);
	m1 = mock_nmbox;
	regs[RNIC_FW_REG_RDQ_RESULT / 4] = 1u << 31 | ((qr + 2) & 0xFFFFFF);
	sev(RNIC_RX_EVENT_KIND_READ_GAP, (qr + 2) & 0xFFFFFF, 0, 0);
	regs[RNIC_FW_REG_RDQ_RESULT / 4] = 0;
	const struct mock_mbox_rec *g = mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m1, 0);
	check(g && rnic_tx_desc_get_kind(g->data) == RNIC_MSG_KIND_READ_REQ && rnic_tx_desc_get_psn(g->data) == ((qr + 2) & 0xFFFFFF) &&
		      rnic_tx_desc_get_length(g->data) == 5000 - 2048 && rnic_tx_desc_get_remote_va(g->data) == 0x7000000000ull + 2048 &&
		      (rnic_tx_desc_get_flags(g->data) & RT) && txd_is(m1, 1, qr + 5, 1000, 0, 0, RT) &&
		      mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m1) == 2 && mock_srt_records(qpn) == 2 && fw_sq_rd_outstanding() == 1,
	      "fw-srt3-read-gap-resumes-the-read-behind-fast-wqes");
	sev(RNIC_RX_EVENT_KIND_READ_RESP_DONE, (qr + 4) & 0xFFFFFF, 0x1F, 0);
	sev(RNIC_RX_EVENT_KIND_ACK, (qr + 5) & 0xFFFFFF, 0x1F, 0);
	n = rnicp_cq_poll(&cq, 8, wc);
	check(n == 3 && cqr_is(cqr0, 0xA401, 1000, 0, RNIC_WC_OPCODE_SEND, ja) &&
		      cqr_is(cqr0 + 1, 0xA402, 5000, 0, RNIC_WC_OPCODE_RDMA_READ, jb) &&
		      cqr_is(cqr0 + 2, 0xA403, 1000, 0, RNIC_WC_OPCODE_SEND, jc) && mock_srt_ncqr == cqr0 + 3 &&
		      fw_sq_rd_outstanding() == 0 && mock_srt_records(qpn) == 0,
	      "fw-srt3-read-resumed-completes-in-order");

	/* the window after fast WQEs the engine acknowledged (no event: the firmware's una, from
	 * its last sync, is 64 PSNs older than the long WRITE): 64 packets from the WRITE's first
	 * PSN at once, then on as una moves, empty at the end */
	c = srt_case(7, &cqr0, &m0);
	r = &fw_res.qp_run[qpn];
	struct rnicp_sge w32 = { H(DATA_OFF), 32 * 1024, 0x101 };
	post(RNIC_WQE_OP_RDMA_WRITE, RNICP_WR_SIGNALED, &w32, 1, 0xA501);
	post(RNIC_WQE_OP_RDMA_WRITE, RNICP_WR_SIGNALED, &w32, 1, 0xA502);
	ring_sq();
	uint32_t w0 = txd_psn(m0, 0);
	sev(RNIC_RX_EVENT_KIND_ACK, (w0 + 63) & 0xFFFFFF, 0x1F, 0);
	struct rnicp_sge big = { H(DATA_OFF), 100 * 1024, 0x101 };
	uint32_t ibig = sq.pi;
	post(RNIC_WQE_OP_RDMA_WRITE, RNICP_WR_SIGNALED, &big, 1, 0xA503);
	ring_sq();
	uint32_t b0 = txd_psn(m0, 2);
	check(b0 == ((w0 + 64) & 0xFFFFFF) && mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == 4 &&
		      txd_psn(m0, 3) == ((b0 + 32) & 0xFFFFFF) && r->sq_stalled == 2 && mock_srt_records(qpn) == 1,
	      "fw-srt3-window-full-after-fast-wqes");
	sev(RNIC_RX_EVENT_KIND_ACK, (b0 + 31) & 0xFFFFFF, 0x1F, 0);
	fw_sq_retry_stalled();
	check(mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == 5 && txd_is(m0, 4, b0 + 64, 32 * 1024, 65536, 65536, TXF(CONT) | TXF(MORE)),
	      "fw-srt3-window-moves-on");
	sev(RNIC_RX_EVENT_KIND_ACK, (b0 + 63) & 0xFFFFFF, 0x1F, 0);
	fw_sq_retry_stalled();
	sev(RNIC_RX_EVENT_KIND_ACK, (b0 + 99) & 0xFFFFFF, 0x1F, 0);
	fw_sq_retry_stalled();
	n = rnicp_cq_poll(&cq, 8, wc);
	check(mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == 6 && txd_is(m0, 5, b0 + 96, 4 * 1024, 98304, 98304, TXF(CONT)) &&
		      n == 3 && wc[2].wr_id == 0xA503 && cqr_is(cqr0 + 2, 0xA503, 100 * 1024, 0, RNIC_WC_OPCODE_RDMA_WRITE, ibig) &&
		      mock_srt_records(qpn) == 0 && r->sq_stalled == 0 && !fw_stalled_any,
	      "fw-srt3-window-empty-all-complete");

	/* the ACK timer started by a fast WQE on an idle QP (the firmware's una, from no sync at
	 * all, is not the engine's): the response never comes, so the first expiry is a timeout and
	 * resends, not a progress re-arm (one timeout, not two) */
	c = srt_case(7, &cqr0, &m0);
	r = &fw_res.qp_run[qpn];
	mock_now = 5000;
	post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, &s1, 1, 0xA701);
	ring_sq();
	uint32_t ph = txd_psn(m0, 0);
	left = rnic_qp_ctx_get_retries_left(c);
	uint32_t una_before = r->una;
	mock_now += (1024ull << 14) + 8;
	fw_timers_poll();
	check(una_before != ph && mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == 2 && txd_is(m0, 1, ph, 1000, 0, 0, RT) &&
		      rnic_qp_ctx_get_retries_left(c) == left - 1,
	      "fw-srt3-timer-from-idle-first-expiry-resends");
	sev(RNIC_RX_EVENT_KIND_ACK, ph, 0x1F, 0);
	check(rnicp_cq_poll(&cq, 8, wc) == 1 && wc[0].wr_id == 0xA701 && cqr_is(cqr0, 0xA701, 1000, 0, RNIC_WC_OPCODE_SEND, sq.pi - 1),
	      "fw-srt3-timer-from-idle-completes");

	/* a READ whose resend waits (READ_GAP while the rd_desc mailbox is busy: its firmware record
	 * freed, send_one stalled): the ACK timer's expiry meanwhile neither asks it again nor
	 * counts a retry; once the mailbox is free the stalled QP resends it for the rest, and its
	 * response completes it */
	c = srt_case(7, &cqr0, &m0);
	r = &fw_res.qp_run[qpn];
	mock_now = 9000;
	uint32_t jr = sq.pi;
	post(RNIC_WQE_OP_RDMA_READ, RNICP_WR_SIGNALED, &rd, 1, 0xA801);
	ring_sq();
	uint32_t pr = txd_psn(m0, 0);
	mock_tc[RNIC_FW_TC_RDD_STATUS / 4] = 1;
	regs[RNIC_FW_REG_RDQ_RESULT / 4] = 1u << 31 | ((pr + 3) & 0xFFFFFF);
	sev(RNIC_RX_EVENT_KIND_READ_GAP, (pr + 3) & 0xFFFFFF, 0, 0);
	left = rnic_qp_ctx_get_retries_left(c);
	m1 = mock_nmbox;
	mock_now += (1024ull << 14) + 8;
	fw_timers_poll();
	check(r->head < 0 && r->sq_stalled && mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m1) == 0 &&
		      rnic_qp_ctx_get_retries_left(c) == left && r->deadline > mock_now,
	      "fw-srt3-timer-waits-for-a-pending-read-resend");
	mock_tc[RNIC_FW_TC_RDD_STATUS / 4] = 0;
	fw_sq_retry_stalled();
	regs[RNIC_FW_REG_RDQ_RESULT / 4] = 0;
	g = mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m1, 0);
	check(g && rnic_tx_desc_get_kind(g->data) == RNIC_MSG_KIND_READ_REQ && rnic_tx_desc_get_psn(g->data) == ((pr + 3) & 0xFFFFFF) &&
		      rnic_tx_desc_get_length(g->data) == 5000 - 3072 && mock_srt_records(qpn) == 1 && fw_sq_rd_outstanding() == 1,
	      "fw-srt3-pending-read-resent-when-the-mailbox-frees");
	sev(RNIC_RX_EVENT_KIND_READ_RESP_DONE, (pr + 4) & 0xFFFFFF, 0x1F, 0);
	check(rnicp_cq_poll(&cq, 8, wc) == 1 && wc[0].wr_id == 0xA801 && cqr_is(cqr0, 0xA801, 5000, 0, RNIC_WC_OPCODE_RDMA_READ, jr) &&
		      fw_sq_rd_outstanding() == 0,
	      "fw-srt3-pending-read-completes");

	/* the move to ERR with only fast WQEs out: each flushed by the engine, in order, then the
	 * WQE posted after it by the firmware's flush */
	c = srt_case(7, &cqr0, &m0);
	r = &fw_res.qp_run[qpn];
	uint32_t ka = sq.pi;
	post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, &s1, 1, 0xA601);
	uint32_t kb = sq.pi;
	post(RNIC_WQE_OP_RDMA_WRITE, 0, &w8, 1, 0xA602);
	ring_sq();
	check(r->head < 0 && mock_srt_records(qpn) == 2, "fw-srt3-err-case-fast-only");
	fw_qp_to_err(qpn);
	post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, &s1, 1, 0xA603);
	ring_sq();
	n = rnicp_cq_poll(&cq, 8, wc);
	check(n == 3 && wc[0].wr_id == 0xA601 && wc[1].wr_id == 0xA602 && wc[2].wr_id == 0xA603 &&
		      wc[0].status == RNIC_WC_STATUS_WR_FLUSH_ERR && wc[1].status == RNIC_WC_STATUS_WR_FLUSH_ERR &&
		      wc[2].status == RNIC_WC_STATUS_WR_FLUSH_ERR &&
		      cqr_is(cqr0, 0xA601, 1000, RNIC_WC_STATUS_WR_FLUSH_ERR, RNIC_WC_OPCODE_SEND, ka) &&
		      cqr_is(cqr0 + 1, 0xA602, 8000, RNIC_WC_STATUS_WR_FLUSH_ERR, RNIC_WC_OPCODE_RDMA_WRITE, kb) &&
		      mock_srt_ncqr == cqr0 + 2 && mock_srt_records(qpn) == 0 && rnic_qp_ctx_get_state(c) == RNIC_QP_STATE_ERR,
	      "fw-srt3-err-flushes-fast-wqes-in-engine-order");
}

static void srt_paths(void)
{
	struct rnicp_sge sg[2] = { { H(DATA_OFF), 1000, 0x101 }, { H(DATA_OFF + 4096), 2000, 0x102 } };
	struct rnicp_sge rd = { H(DATA_OFF + 8192), 5000, 0x103 };
	struct rnicp_wc wc[8];
	unsigned init0 = mock_srt_ops[RNIC_SR_OP_INIT];

	fresh_srt_qp(7);
	uint8_t *c = fw_res.qp_ctx[qpn];
	struct fw_qp_run *r = &fw_res.qp_run[qpn];
	check(fw_srt_ok && mock_srt_ops[RNIC_SR_OP_INIT] == init0 + 1 && rnic_srt_status_v_fork_on(hal_tc_rd32(RNIC_FW_TC_SRT_STATUS)),
	      "fw-srt-rts-inits-and-enables");

	/* WRITE (3 packets from 0xFFFFFE, wrapping), an unsignaled SEND, a READ (5), a SEND_IMM */
	unsigned m0 = mock_nmbox, cqr0 = mock_srt_ncqr;
	uint32_t prod0 = mock_tc[RNIC_FW_TC_CQW_PROD / 4], i0 = sq.pi;
	post(RNIC_WQE_OP_RDMA_WRITE, RNICP_WR_SIGNALED, sg, 2, 0x1001);
	uint32_t i1 = sq.pi;
	post(RNIC_WQE_OP_SEND, 0, sg, 1, 0x1002);
	uint32_t i2 = sq.pi;
	post(RNIC_WQE_OP_RDMA_READ, RNICP_WR_SIGNALED, &rd, 1, 0x1003);
	uint32_t i3 = sq.pi;
	post(RNIC_WQE_OP_SEND_WITH_IMM, RNICP_WR_SIGNALED, sg, 1, 0x1004);
	ring_sq();
	check(mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == 4 && mock_srt_records(qpn) == 4 && !mock_srt_dropped(),
	      "fw-srt-one-record-per-wqe");
	/* an ACK of the WRITE: retired by the engine, no event for the firmware */
	sev(RNIC_RX_EVENT_KIND_ACK, 0, 0x1F, 0);
	int n = rnicp_cq_poll(&cq, 8, wc);
	check(n == 1 && wc[0].wr_id == 0x1001 && cqr_is(cqr0, 0x1001, 3000, 0, RNIC_WC_OPCODE_RDMA_WRITE, i0) &&
		      mock_srt_ncqr == cqr0 + 1 && mock_tc[RNIC_FW_TC_CQW_PROD / 4] == prod0,
	      "fw-srt-ack-completes-in-engine-byte-exact");
	/* an ACK past the READ: the unsignaled SEND retires without a CQE, the READ stops the walk
	 * and the firmware, told (SR_BARRIER), asks it again (and the SEND_IMM after it) with no
	 * new record */
	uint32_t left = rnic_qp_ctx_get_retries_left(c);
	m0 = mock_nmbox;
	sev(RNIC_RX_EVENT_KIND_ACK, 7, 0x1F, 0);
	const uint8_t *re = mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m0, 0) ? mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m0, 0)->data : 0;
	check(rnicp_cq_poll(&cq, 8, wc) == 0 && mock_srt_ncqr == cqr0 + 1 && re && rnic_tx_desc_get_psn(re) == 2 &&
		      rnic_tx_desc_get_kind(re) == RNIC_MSG_KIND_READ_REQ &&
		      (rnic_tx_desc_get_flags(re) & (1u << RNIC_TX_FLAG_RETRANSMIT)) &&
		      mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == 2 && mock_srt_records(qpn) == 2 &&
		      rnic_qp_ctx_get_retries_left(c) == left - 1 && fw_sq_rd_outstanding() == 1,
	      "fw-srt-barrier-reissues-read-without-new-record");
	/* its response: the READ and the SEND_IMM complete, the context and records freed */
	sev(RNIC_RX_EVENT_KIND_READ_RESP_DONE, 6, 0x1F, 0);
	n = rnicp_cq_poll(&cq, 8, wc);
	check(n == 2 && wc[0].wr_id == 0x1003 && wc[1].wr_id == 0x1004 &&
		      cqr_is(cqr0 + 1, 0x1003, 5000, 0, RNIC_WC_OPCODE_RDMA_READ, i2) &&
		      cqr_is(cqr0 + 2, 0x1004, 1000, 0, RNIC_WC_OPCODE_SEND, i3) && mock_srt_records(qpn) == 0 &&
		      fw_sq_rd_outstanding() == 0 && r->head < 0 && rnic_qp_ctx_get_sq_ci(c) == ((i3 + 1) & 0xFFFF),
	      "fw-srt-read-response-completes-and-frees");
	(void)i1;

	/* PSN sequence NAK: the engine retires what it acknowledges, the firmware resends from it */
	m0 = mock_nmbox;
	cqr0 = mock_srt_ncqr;
	post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, sg, 1, 0x2001);
	uint32_t j1 = sq.pi;
	post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, sg, 1, 0x2002);
	ring_sq();
	uint32_t psn2 = txd_psn(m0, 1);
	sev(RNIC_RX_EVENT_KIND_NAK, psn2, 0x60, 0);
	const struct mock_mbox_rec *rs = mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m0, 2);
	n = rnicp_cq_poll(&cq, 8, wc);
	check(rs && rnic_tx_desc_get_psn(rs->data) == psn2 && mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == 3 && n == 1 &&
		      wc[0].wr_id == 0x2001 && mock_srt_records(qpn) == 1 && mock_srt_ncqr == cqr0 + 1,
	      "fw-srt-psn-nak-resends-from-there");
	sev(RNIC_RX_EVENT_KIND_ACK, psn2, 0x1F, 0);
	n = rnicp_cq_poll(&cq, 8, wc);
	check(n == 1 && wc[0].wr_id == 0x2002 && cqr_is(cqr0 + 1, 0x2002, 1000, 0, RNIC_WC_OPCODE_SEND, j1),
	      "fw-srt-resent-message-completes-once");
	/* the resend's mark (hi_psn) goes at the first new PSN: 2^23 PSNs later (the context's PSN
	 * moved there) a first send still gets its record instead of passing for a resend */
	m0 = mock_nmbox;
	post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, sg, 1, 0x2101);
	ring_sq();
	sev(RNIC_RX_EVENT_KIND_ACK, txd_psn(m0, 0), 0x1F, 0);
	uint32_t far = (txd_psn(m0, 0) + 0x800002u) & 0xFFFFFF;
	rnic_qp_ctx_set_sq_psn(c, far);
	post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, sg, 1, 0x2102);
	ring_sq();
	check(txd_psn(m0, 1) == far && mock_srt_records(qpn) == 1 &&
		      !(rnic_tx_desc_get_flags(mock_mbox_nth(RNIC_FW_TC_TXD_COMMIT, m0, 1)->data) & (1u << RNIC_TX_FLAG_RETRANSMIT)),
	      "fw-srt-first-send-after-psn-half-circle-recorded");
	sev(RNIC_RX_EVENT_KIND_ACK, far, 0x1F, 0);
	n = rnicp_cq_poll(&cq, 8, wc);
	check(n == 2 && wc[0].wr_id == 0x2101 && wc[1].wr_id == 0x2102, "fw-srt-far-psn-completes");

	/* the ACK timer: at its expiry the firmware asks the engine; una moved is progress (no
	 * resend, re-armed), not moved a timeout (resent from una) */
	m0 = mock_nmbox;
	mock_now = 1000;
	post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, sg, 1, 0x3001);
	post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, sg, 1, 0x3002);
	ring_sq();
	uint32_t t0 = txd_psn(m0, 0), t1 = txd_psn(m0, 1);
	r->deadline = 0; /* armed afresh now (the earlier WQEs' timer still ran) */
	arm_ack_timer(qpn);
	sev(RNIC_RX_EVENT_KIND_ACK, t0, 0x1F, 0); /* the first one: progress the firmware does not see */
	mock_now += (1024ull << 14) + 1;
	fw_timers_poll();
	check(mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == 2 && r->deadline > mock_now && r->una == t1,
	      "fw-srt-timer-progress-rearms");
	mock_now += (1024ull << 14) + 1;
	left = rnic_qp_ctx_get_retries_left(c);
	fw_timers_poll();
	check(mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == 3 && txd_psn(m0, 2) == t1 &&
		      rnic_qp_ctx_get_retries_left(c) == left - 1 && mock_srt_records(qpn) == 1,
	      "fw-srt-timer-no-progress-resends");
	sev(RNIC_RX_EVENT_KIND_ACK, t1, 0x1F, 0);
	check(rnicp_cq_poll(&cq, 8, wc) == 2 && wc[0].wr_id == 0x3001 && wc[1].wr_id == 0x3002, "fw-srt-timer-case-completes");

	/* the record port full: the QP waits (polled: no event wakes it), then goes on */
	m0 = mock_nmbox;
	mock_srt_rec_busy = 1;
	post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, sg, 1, 0x4001);
	ring_sq();
	check(mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == 0 && r->sq_stalled == 2 && fw_stalled_any,
	      "fw-srt-pool-full-stalls");
	mock_srt_rec_busy = 0;
	fw_sq_retry_stalled();
	check(mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == 1 && mock_srt_records(qpn) == 1 && !mock_srt_dropped(),
	      "fw-srt-pool-free-resumes");
	sev(RNIC_RX_EVENT_KIND_ACK, txd_psn(m0, 0), 0x1F, 0);
	check(rnicp_cq_poll(&cq, 8, wc) == 1 && wc[0].wr_id == 0x4001, "fw-srt-stalled-wqe-completes");

	/* a long WRITE under the window: the QP stalls at WIN_PKTS beyond una, the ACKs go to the
	 * engine only, and the poll of the stalled QP sends on */
	m0 = mock_nmbox;
	struct rnicp_sge big = { H(DATA_OFF), 100 * 1024, 0x101 };
	post(RNIC_WQE_OP_RDMA_WRITE, RNICP_WR_SIGNALED, &big, 1, 0x4101);
	ring_sq();
	uint32_t b0 = txd_psn(m0, 0);
	unsigned pieces = mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0);
	check(pieces == 2 && r->sq_stalled == 2 && mock_srt_records(qpn) == 1, "fw-srt-window-stalls-polled");
	sev(RNIC_RX_EVENT_KIND_ACK, (b0 + 31) & 0xFFFFFF, 0x1F, 0);
	fw_sq_retry_stalled();
	check(mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == 3 && txd_psn(m0, 2) == ((b0 + 64) & 0xFFFFFF),
	      "fw-srt-window-moves-on-engine-una");
	sev(RNIC_RX_EVENT_KIND_ACK, (b0 + 63) & 0xFFFFFF, 0x1F, 0);
	fw_sq_retry_stalled();
	sev(RNIC_RX_EVENT_KIND_ACK, (b0 + 99) & 0xFFFFFF, 0x1F, 0);
	check(mock_mbox_count(RNIC_FW_TC_TXD_COMMIT, m0) == 4 && rnicp_cq_poll(&cq, 8, wc) == 1 && wc[0].wr_id == 0x4101 &&
		      wc[0].byte_len == 100 * 1024 && mock_srt_records(qpn) == 0,
	      "fw-srt-long-write-completes");

	/* a remote access NAK: that WQE fails (POP), the unsignaled one behind it flushes in the
	 * engine (FLUSH), the one posted after the error in the firmware's flush, in order */
	c = srt_case(7, &cqr0, &m0); /* (a ring with room for the WQEs below) */
	r = &fw_res.qp_run[qpn];
	uint32_t k0 = sq.pi;
	post(RNIC_WQE_OP_RDMA_WRITE, RNICP_WR_SIGNALED, sg, 1, 0x5001);
	uint32_t k1 = sq.pi;
	post(RNIC_WQE_OP_RDMA_WRITE, 0, sg, 2, 0x5002); /* two WQEBBs: the unsent flush starts behind it */
	ring_sq();
	sev(RNIC_RX_EVENT_KIND_NAK, txd_psn(m0, 0), 0x62, 0);
	n = rnicp_cq_poll(&cq, 8, wc); /* (the 16-entry SQ has room again) */
	post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, sg, 1, 0x5003);
	ring_sq();
	n += rnicp_cq_poll(&cq, 8 - n, wc + n);
	check(n == 3 && wc[0].wr_id == 0x5001 && wc[0].status == RNIC_WC_STATUS_REM_ACCESS_ERR &&
		      wc[1].wr_id == 0x5002 && wc[1].status == RNIC_WC_STATUS_WR_FLUSH_ERR &&
		      wc[2].wr_id == 0x5003 && wc[2].status == RNIC_WC_STATUS_WR_FLUSH_ERR &&
		      cqr_is(cqr0, 0x5001, 1000, RNIC_WC_STATUS_REM_ACCESS_ERR, RNIC_WC_OPCODE_RDMA_WRITE, k0) &&
		      cqr_is(cqr0 + 1, 0x5002, 3000, RNIC_WC_STATUS_WR_FLUSH_ERR, RNIC_WC_OPCODE_RDMA_WRITE, k1) &&
		      mock_srt_ncqr == cqr0 + 2 && mock_srt_records(qpn) == 0 && r->head < 0 &&
		      rnic_qp_ctx_get_state(c) == RNIC_QP_STATE_ERR,
	      "fw-srt-remote-error-pop-then-flush-in-order");

	/* RESET: the engine's records dropped without completions, the QP no longer forked */
	c = srt_case(7, &cqr0, &m0);
	r = &fw_res.qp_run[qpn];
	post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, sg, 1, 0x6001);
	ring_sq();
	unsigned d0 = mock_srt_ops[RNIC_SR_OP_DROP];
	CMD(RNIC_CMD_OP_MODIFY_QP);
	rnic_cmd_modify_qp_set_qpn(e, qpn);
	rnic_cmd_modify_qp_set_attr_mask(e, A(STATE));
	rnic_cmd_modify_qp_set_state(e, RNIC_QP_STATE_RESET);
	fw_cmd_exec(e);
	uint8_t ev[RNIC_RX_EVENT_SIZE];
	ev_make(ev, RNIC_RX_EVENT_KIND_ACK, qpn, 0, 0x1F, 0);
	check(mock_srt_ops[RNIC_SR_OP_DROP] == d0 + 1 && mock_srt_records(qpn) == 0 && mock_srt_ncqr == cqr0 &&
		      rnicp_cq_poll(&cq, 8, wc) == 0 && mock_srt_fork(ev) == 1 && r->head < 0,
	      "fw-srt-reset-drops-without-completions");

	/* a READ whose response failed: its CQE from the engine with that status, the QP to ERR,
	 * the WQE behind it flushed */
	c = srt_case(7, &cqr0, &m0);
	uint32_t x0 = sq.pi;
	post(RNIC_WQE_OP_RDMA_READ, RNICP_WR_SIGNALED, &rd, 1, 0x7001);
	post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, sg, 1, 0x7002);
	ring_sq();
	sev(RNIC_RX_EVENT_KIND_READ_RESP_DONE, (txd_psn(m0, 0) + 4) & 0xFFFFFF, 0x1F, RNIC_WC_STATUS_LOC_PROT_ERR);
	n = rnicp_cq_poll(&cq, 8, wc);
	check(n == 2 && wc[0].wr_id == 0x7001 && wc[0].status == RNIC_WC_STATUS_LOC_PROT_ERR && wc[1].wr_id == 0x7002 &&
		      wc[1].status == RNIC_WC_STATUS_WR_FLUSH_ERR &&
		      cqr_is(cqr0, 0x7001, 5000, RNIC_WC_STATUS_LOC_PROT_ERR, RNIC_WC_OPCODE_RDMA_READ, x0) &&
		      rnic_qp_ctx_get_state(c) == RNIC_QP_STATE_ERR && fw_sq_rd_outstanding() == 0,
	      "fw-srt-read-response-error");

	/* retries exhausted (NAKs without progress): RETRY_EXC_ERR through the engine's POP */
	c = srt_case(1, &cqr0, &m0);
	post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, sg, 1, 0x8001);
	ring_sq();
	sev(RNIC_RX_EVENT_KIND_NAK, txd_psn(m0, 0), 0x60, 0);
	sev(RNIC_RX_EVENT_KIND_NAK, txd_psn(m0, 0), 0x60, 0);
	n = rnicp_cq_poll(&cq, 8, wc);
	check(n == 1 && wc[0].wr_id == 0x8001 && wc[0].status == RNIC_WC_STATUS_RETRY_EXC_ERR &&
		      mock_srt_ncqr == cqr0 + 1 && rnic_qp_ctx_get_state(c) == RNIC_QP_STATE_ERR,
	      "fw-srt-retry-exceeded");
	/* a resend whose WQE fetch fails: the engine's FLUSH completes the WQEs it held, once each
	 * (the failed fetch adds no completion of its own for a WQE the engine had) */
	c = srt_case(7, &cqr0, &m0);
	post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, sg, 1, 0x9001);
	post(RNIC_WQE_OP_SEND, RNICP_WR_SIGNALED, sg, 1, 0x9002);
	ring_sq();
	stage_empty();
	mock_wqf_fail = 1;
	sev(RNIC_RX_EVENT_KIND_NAK, txd_psn(m0, 0), 0x60, 0);
	mock_wqf_fail = 0;
	n = rnicp_cq_poll(&cq, 8, wc);
	check(n == 2 && wc[0].wr_id == 0x9001 && wc[0].status == RNIC_WC_STATUS_WR_FLUSH_ERR && wc[1].wr_id == 0x9002 &&
		      wc[1].status == RNIC_WC_STATUS_WR_FLUSH_ERR && mock_srt_ncqr == cqr0 + 2 &&
		      rnic_qp_ctx_get_state(c) == RNIC_QP_STATE_ERR,
	      "fw-srt-resend-fetch-failure-completes-once");
	srt_no_swqe();
	check(!mock_srt_dropped(), "fw-srt-no-store-dropped");
	fw_srt_off = 1;
	mock_srt_reset();
}

int main(void)
{
	regs[RNIC_FW_REG_HW_CAPS / 4] = 3; /* transport engines present, READ responses placed */
	fw_cmd_init();
	fw_xport_init();
	unsigned q0 = mock_nmbox;
	setup_qp(7);
	const struct mock_mbox_rec *qe = mock_mbox_nth(RNIC_FW_REG_QPT_COMMIT, q0, 2); /* INIT, RTR, RTS */
	const struct mock_mbox_rec *qi = mock_mbox_nth(RNIC_FW_REG_QPT_COMMIT, q0, 0);
	const struct mock_mbox_rec *qr = mock_mbox_nth(RNIC_FW_REG_QPT_COMMIT, q0, 1);
	/* INIT and RTR start the entry over (RTR from rq_psn); RTR->RTS keeps what RTR received. */
	check(mock_mbox_count(RNIC_FW_REG_QPT_COMMIT, q0) == 3 && qe && qi && qr && qi->arg == qpn && qr->arg == qpn &&
		      qe->arg == (qpn | 1u << (RNIC_QPT_CMD_KEEP_STATE_OFF * 8 + 7)) &&
		      rnic_qpt_entry_get_valid(qe->data) && rnic_qpt_entry_get_tx_enable(qe->data) &&
		      rnic_qpt_entry_get_rx_enable(qe->data) && rnic_qpt_entry_get_pmtu_log2(qe->data) == 10 &&
		      rnic_qpt_entry_get_dest_qpn(qe->data) == 0x33 && rnic_qpt_entry_get_smac(qe->data) == 0x020000000011ull &&
		      rnic_qpt_entry_get_src_ipv4(qe->data) == 0x0A000011 && rnic_qpt_entry_get_udp_sport(qe->data) >= 0xC000,
	      "fw-xport-qp-table-programmed-on-transitions");
	check(qpn >= FW_FIRST_QPN && cqn != 0 &&
		      rnic_qp_ctx_get_state(fw_res.qp_ctx[qpn]) == RNIC_QP_STATE_RTS,
	      "fw-xport-setup-rts");
	modify_live_checks();
	doorbell_checks();
	eq_checks();
	recv_path();
	atomics();
	/* The atomics above sent ATOMIC ACKs through the transmit mailbox too: not WQEs. */
	unsigned m_send = mock_nmbox;
	uint32_t wqes0 = fw_perf.sq_wqes;
	send_path();
	counter_totals(m_send, wqes0);
	fast_path();
	unsigned nmbox = mock_nmbox; /* the mailbox log is bounded: the tests after these see it as before */
	txb_path();
	txb_words();
	mock_nmbox = nmbox;
	retry_exhaustion();
	retry_progress();
	rq_flush();
	rq_batch();
	rq_ahead();
	rq_db_records("");
	/* the same with the engine's receive feed (rtl/wqe_fetch wqf_rqf_*): every check must hold
	 * as it did with the firmware taking the records itself */
	mock_rqf_on = 1;
	unsigned h0 = mock_rqf_handed, c0 = mock_rqf_cmds;
	rq_db_records("-feed");
	check(mock_rqf_handed - h0 >= 8 && mock_rqf_cmds - c0 >= 6, "fw-rq-db-feed-hands-the-records");
	/* and with the QP table's port held, so that each command ends after one WQE without
	 * handing the next (session 23's test-fuzz stall: the firmware waited for a feed the
	 * receive engine's port hold kept from ending, while that engine waited for the events the
	 * firmware drains): the firmware hands the rest itself from the position the feed left,
	 * every check holding (each WQE once, in ring order, byte for byte) */
	mock_rqf_hold_after = 1;
	unsigned y0 = mock_rqf_yields;
	h0 = mock_rqf_handed;
	rq_db_records("-feed-port-held");
	check(mock_rqf_yields - y0 >= 1 && mock_rqf_handed - h0 >= 2, "fw-rq-db-feed-yield-rest-by-firmware");
	mock_rqf_hold_after = 0;
	mock_rqf_on = 0;
	fw_xport_init();
	stalled_mailboxes();
	resp_errors();
	atomic_requester();
	timers();
	cq_overflow();
	cq_bus_errors();
	cqe_records();
	eq_panic_path();
	setup_qp(7); /* a fresh QP in RTS */
	blueflame();
	pieces();
	implicit_nak_plain_ack(RNIC_WQE_OP_RDMA_READ, 0xC001, "fw-xport-ack-beyond-unanswered-read-reissues-at-once",
			       "fw-xport-ack-beyond-read-reissues-once-until-timeout",
			       "fw-xport-read-after-ack-implicit-nak-completes");
	implicit_nak_plain_ack(RNIC_WQE_OP_ATOMIC_FETCH_AND_ADD, 0xC101,
			       "fw-xport-ack-beyond-unanswered-atomic-reissues-at-once",
			       "fw-xport-ack-beyond-atomic-reissues-once-until-timeout",
			       "fw-xport-atomic-after-ack-implicit-nak-completes");
	response_after_later_ack(RNIC_WQE_OP_RDMA_READ, 0xC001, "fw-xport-late-read-response-after-implicit-nak-completes",
				 "fw-xport-read-then-ack-then-send-completes");
	response_after_later_ack(RNIC_WQE_OP_ATOMIC_FETCH_AND_ADD, 0xC101,
				 "fw-xport-late-atomic-ack-after-implicit-nak-completes",
				 "fw-xport-atomic-then-ack-then-send-completes");
	wqe_fetch();
	doorbell_fetch();
	doorbell_behind();
	ack_through_mailbox();
	event_ring_wrap();
	ack_timer_progress(); /* last: it adds CQEs to the shared test CQ (BlueFlame's checks count them) */
	srt_paths(); /* on fresh QPs and CQs of its own */
	return mock_failed;
}
