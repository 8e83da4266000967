// xport_tx: transmit transport engine. Takes firmware messages (rnic_spec_pkg::tx_desc_t), ACK
// jobs and READ-response jobs from the receive engine, one at a time (round robin), looks up the
// QP entry, checks local keys (lkey per SGE, or the rkey of a READ response) in mkey_table,
// hands the message to roce_tx_seg, fetches the payload by DMA chunk by chunk (split where the
// translated page ends), packs the chunks into one message stream for roce_tx, and reports a
// done verdict per firmware message once its last frame left. See rtl/xport_tx/README.md.
module xport_tx #(
  parameter int DataWidth  = 512,
  parameter int MkTagW     = 8,   // mkey_table TagW
  parameter int DmaTagW    = 8,   // dma_engine TagWidth
  parameter int ChunkDepth = 32,  // DMA chunks in flight ahead of the packer (power of two)
  parameter int RecDepth   = 8,   // messages between launch and done (power of two)
  parameter int MsgDepth   = 4,   // messages queued for the segmenter (power of two)
  parameter int HoldSlots  = 4,   // QPs whose responses wait behind a READ response or an atomic
  parameter int DescDepth  = 4    // firmware messages queued in front of the control FSM (power of two >= 2)
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // firmware messages
  input  logic                   desc_valid_i,
  output logic                   desc_ready_o,
  input  rnic_spec_pkg::tx_desc_t desc_i,
  // ACK jobs from the receive engine
  input  logic                   ack_valid_i,
  output logic                   ack_ready_o,
  input  logic [23:0]            ack_qpn_i,
  input  logic [23:0]            ack_psn_i,
  input  logic [7:0]             ack_syndrome_i,
  input  logic [23:0]            ack_msn_i,
  input  logic                   ack_hold_i,      // no frame: the firmware answers an atomic at ack_psn_i
  // a QP-table write that stops the QP receiving (reset, error, destroy): its pending atomics are
  // forgotten (the firmware will not answer them)
  input  logic                   qp_stop_i,
  input  logic [23:0]            qp_stop_qpn_i,
  // READ response jobs from the receive engine
  input  logic                   rdrsp_valid_i,
  output logic                   rdrsp_ready_o,
  input  logic [23:0]            rdrsp_qpn_i,
  input  logic [23:0]            rdrsp_psn_i,
  input  logic [63:0]            rdrsp_va_i,
  input  logic [31:0]            rdrsp_rkey_i,
  input  logic [31:0]            rdrsp_len_i,
  input  logic [23:0]            rdrsp_msn_i,
  input  logic                   rdrsp_new_i,     // a new READ request (a duplicate's re-read is not counted)
  // responder resources of QP rsc_qpn_i, two cycles later: READ responses of new requests and atomic
  // answers (unanswered, or answered and not yet sent) of the QP (receive engine: max_dest_rd_atomic)
  input  logic [23:0]            rsc_qpn_i,
  output logic [5:0]             rsc_cnt_o,
  // QP table read port (response valid the cycle after the request)
  output logic                   qpt_req_valid_o,
  output logic [23:0]            qpt_req_qpn_o,
  input  rnic_spec_pkg::qpt_entry_t qpt_rsp_i,
  // mkey_table lookup port
  output logic                   mk_req_valid_o,
  input  logic                   mk_req_ready_i,
  output logic [31:0]            mk_req_key_o,
  output logic [31:0]            mk_req_pdn_o,
  output logic [63:0]            mk_req_va_o,
  output logic [31:0]            mk_req_len_o,
  output logic [3:0]             mk_req_access_o,
  output logic                   mk_req_local_o,
  output logic [MkTagW-1:0]      mk_req_tag_o,
  input  logic                   mk_rsp_valid_i,
  output logic                   mk_rsp_ready_o,
  input  logic [2:0]             mk_rsp_status_i,
  input  logic [63:0]            mk_rsp_addr_i,
  input  logic [31:0]            mk_rsp_page_left_i,
  input  logic [MkTagW-1:0]      mk_rsp_tag_i,
  // dma_engine read client
  output logic                   rd_req_valid_o,
  input  logic                   rd_req_ready_i,
  output logic [63:0]            rd_req_addr_o,
  output logic [31:0]            rd_req_len_o,
  output logic [DmaTagW-1:0]     rd_req_tag_o,
  input  logic                   rd_data_valid_i,
  output logic                   rd_data_ready_o,
  input  logic [DataWidth-1:0]   rd_data_i,
  input  logic [DataWidth/8-1:0] rd_data_keep_i,
  input  logic                   rd_data_last_i,
  input  logic                   rd_cpl_valid_i,
  output logic                   rd_cpl_ready_o,
  input  logic [DmaTagW-1:0]     rd_cpl_tag_i,
  input  logic [1:0]             rd_cpl_status_i,
  // frames toward the MAC
  output logic [DataWidth-1:0]   m_tdata_o,
  output logic [DataWidth/8-1:0] m_tkeep_o,
  output logic                   m_tlast_o,
  output logic                   m_tvalid_o,
  input  logic                   m_tready_i,
  input  logic                   pause_i,       // link-level pause: no new frame starts
  // transmit verdict per firmware message, in descriptor order
  output logic                   done_valid_o,
  input  logic                   done_ready_i,
  output logic [23:0]            done_qpn_o,
  output logic [7:0]             done_status_o,   // rnic_spec_pkg::WC_STATUS_*
  output logic                   done_ud_o,       // the message was on a UD QP (no ACK will come)
  output logic                   done_rsp_o,      // a READ response's payload read failed (not a message)
  // errors and counters
  output logic                   rdrsp_err_o,     // pulse: a READ response job failed its rkey check
  output logic [31:0]            cnt_frames_o,
  output logic [31:0]            cnt_done_o,
  output logic [31:0]            cnt_lkey_err_o,
  output logic [31:0]            cnt_rkey_err_o,
  output logic [31:0]            cnt_dma_err_o,
  output logic [31:0]            cnt_retx_o       // packets of RETRANSMIT messages launched
);
  localparam int NB = DataWidth / 8;

  typedef enum logic [3:0] {
    SIdle, SQreq, SQrsp, SCheck, SKeys, SLaunch, SPick, SLreq, SLrsp, SIssue, SRec
  } state_e;

  // job sources
  localparam logic [1:0] SrcFw = 2'd0;
  localparam logic [1:0] SrcAk = 2'd1;   // an ACK held behind earlier responses of its QP
  localparam logic [1:0] SrcRd = 2'd2;

  state_e                    st_q;
  logic [1:0]                src_q;
  logic                      rr_q;           // 1: READ-response jobs first
  rnic_spec_pkg::tx_desc_t   d_q;
  rnic_spec_pkg::qpt_entry_t qp_q;
  logic [7:0]                status_q;       // verdict known before the packets (0: none)
  logic                      nak_q;          // READ response job turned into a NAK
  logic                      rd_new_q;       // the READ response job answers a new request
  logic [2:0]                si_q;           // SGE index
  logic [2:0]                nout_q;         // key lookups outstanding
  logic                      kfail_q;
  logic [63:0]               res_addr_q [4];
  logic [31:0]               res_left_q [4];
  logic [31:0]               off_q, msg_rem_q, ch_len_q;
  logic [63:0]               ch_addr_q;
  logic                      ch_fake_q;
  logic [15:0]               dma_seq_q, cpl_seq_q;
  logic                      err_pulse_q;

  // ---- responses in PSN order ---------------------------------------------------------------
  // A responder answers in the PSN order of the requests (IBTA: an ACK of PSN n acknowledges
  // every earlier request, so a requester that sees it before the response of an earlier READ
  // or atomic takes that response as lost). READ responses and the firmware's atomic answers go
  // through the message path, in order; ACK jobs take the ACK lane, which overtakes the message
  // path. So an ACK job whose QP has a response in the message path (the job in the control FSM
  // or a done record not yet retired: its frames have not all left) or an atomic the firmware
  // has not answered yet (xport_rx's marker job, ack_hold_i) is parked in a hold slot of its QP
  // and later sent through the message path, behind those responses; a later ACK job of the same
  // QP replaces it there (ACKs are cumulative: coalesced). A READ-response job of a QP with a
  // hold slot waits for the slot to empty. Without READ responses or atomics nothing changes.
  localparam int HsW = (HoldSlots > 1) ? $clog2(HoldSlots) : 1;
  logic [HoldSlots-1:0] hs_v_q, hs_ack_q;
  logic [23:0]          hs_qpn_q [HoldSlots];
  logic [4:0]           hs_at_q  [HoldSlots];   // atomics the firmware has still to answer
  logic [4:0]           hs_need_q [HoldSlots];  // ... of which before the parked ACK
  logic [23:0]          hs_psn_q [HoldSlots];
  logic [23:0]          hs_msn_q [HoldSlots];
  logic [7:0]           hs_syn_q [HoldSlots];
  logic [HoldSlots-1:0] hs_m_ack, hs_m_rd, hs_m_fw, hs_elig;
  logic                 hs_free, hs_hit, ak_valid, rd_block, ack_park;
  logic [HsW-1:0]       ak_idx;
  // the same picks one-hot (lowest index first), for the per-slot updates
  logic [HoldSlots-1:0] hs_free_oh, hs_hit_oh, ak_oh;
  // ---- firmware messages wait in a queue in front of the control FSM: the FSM takes the next
  // one only once the previous one's payload DMA is issued (microseconds behind a long message),
  // and without the queue the firmware would find its mailbox full and have to come back
  // (docs/firmware.md, "Large messages"). Behaviour is the mailbox's, only deeper.
  logic dq_full, dq_empty;
  logic [rnic_spec_pkg::TX_DESC_BYTES*8-1:0] dq_data;
  logic [$clog2(DescDepth+1)-1:0] unused_dq_cnt;
  rnic_spec_pkg::tx_desc_t dq_desc;
  logic [2:0] grant;   // [0] firmware message, [1] READ-response job, [2] parked ACK
  rnic_fifo #(.Width(rnic_spec_pkg::TX_DESC_BYTES * 8), .Depth(DescDepth)) u_descq (
    .clk_i, .rst_ni,
    .push_i (desc_valid_i),
    .data_i (desc_i),
    .full_o (dq_full),
    .pop_i  (grant[0]),
    .data_o (dq_data),
    .empty_o(dq_empty),
    .count_o(unused_dq_cnt)
  );
  assign dq_desc      = dq_data;
  assign desc_ready_o = !dq_full;

  always_comb begin
    hs_free = 1'b0; hs_hit = 1'b0; ak_valid = 1'b0; ak_idx = '0;
    for (int i = HoldSlots - 1; i >= 0; i--) begin
      hs_m_ack[i] = hs_v_q[i] && hs_qpn_q[i] == ack_qpn_i;
      hs_m_rd[i]  = hs_v_q[i] && hs_qpn_q[i] == rdrsp_qpn_i;
      hs_m_fw[i]  = hs_v_q[i] && hs_qpn_q[i] == dq_desc.qpn[23:0];
      // a parked ACK goes once no atomic before it waits for the firmware
      hs_elig[i]  = hs_v_q[i] && hs_ack_q[i] && hs_need_q[i] == 5'd0;
      if (!hs_v_q[i]) hs_free = 1'b1;
      if (hs_m_ack[i]) hs_hit = 1'b1;
      if (hs_elig[i]) begin ak_valid = 1'b1; ak_idx = HsW'(i); end
    end
    rd_block = |hs_m_rd;
    for (int i = 0; i < HoldSlots; i++) begin
      hs_free_oh[i] = !hs_v_q[i]; hs_hit_oh[i] = hs_m_ack[i]; ak_oh[i] = hs_elig[i];
      for (int j = 0; j < i; j++) begin
        if (!hs_v_q[j]) hs_free_oh[i] = 1'b0;
        if (hs_m_ack[j]) hs_hit_oh[i] = 1'b0;
        if (hs_elig[j]) ak_oh[i] = 1'b0;
      end
    end
  end

  // ---- job intake: parked ACKs first, then round robin between firmware messages and
  // READ-response jobs ------------------------------------------------------------------------------
  logic       rd_ok;
  assign rd_ok = rdrsp_valid_i && !rd_block;
  always_comb begin
    grant = 3'b000;
    if (st_q == SIdle) begin
      if (ak_valid) grant = 3'b100;
      else if (rr_q) grant = rd_ok ? 3'b010 : !dq_empty ? 3'b001 : 3'b000;
      else grant = !dq_empty ? 3'b001 : rd_ok ? 3'b010 : 3'b000;
    end
  end
  assign rdrsp_ready_o = grant[1];

  // ---- ACK lane: ACK jobs bypass the message path and enter roce_tx between packets ---------
  typedef enum logic [1:0] {AIdle, AReq, ARsp, AOut} ack_e;
  ack_e                a_st_q;
  logic [23:0]         a_qpn_q, a_psn_q, a_msn_q;
  logic [7:0]          a_syn_q;
  roce_pkg::roce_hdr_t a_hdr_q;
  logic                a_qreq;
  // a READ response whose payload read failed: its NAK (remote operational error) goes first
  logic                nak_pend_q;
  logic [23:0]         nak_qpn_q, nak_psn_q, nak_msn_q;
  // an ACK job is taken when it could go either way (lane idle, a hold slot free)
  assign ack_ready_o = a_st_q == AIdle && !nak_pend_q && hs_free;
  // the control FSM's QP request wins; the ACK lane asks in a cycle the FSM does not
  assign a_qreq          = a_st_q == AReq && st_q != SQreq;
  assign qpt_req_valid_o = st_q == SQreq || a_qreq;
  assign qpt_req_qpn_o   = (st_q == SQreq) ? d_q.qpn[23:0] : a_qpn_q;

  // ---- decoded job ------------------------------------------------------------------------------
  logic        is_fw, is_rd, ud, uc, rc, pay, phys, multi, fw_rsp;
  logic [7:0]  kind;
  logic [2:0]  nsge;
  logic [3:0]  seg_kind;
  logic [4:0]  mlog;
  assign kind  = d_q.kind;
  assign is_fw = src_q == SrcFw;
  assign fw_rsp = kind == rnic_spec_pkg::MSG_KIND_ATOMIC_ACK || kind == rnic_spec_pkg::MSG_KIND_ACK;
  assign is_rd = src_q == SrcRd && !nak_q;
  assign ud    = qp_q.qp_type == rnic_spec_pkg::QP_TYPE_UD;
  assign uc    = qp_q.qp_type == rnic_spec_pkg::QP_TYPE_UC;
  assign rc    = !ud && !uc;
  assign phys  = is_fw && d_q.flags[3'(rnic_spec_pkg::TX_FLAG_PHYS_SGE)];
  assign mlog  = (qp_q.pmtu_log2 < 8'd8) ? 5'd8 : (qp_q.pmtu_log2 > 8'd12) ? 5'd12
               : qp_q.pmtu_log2[4:0];
  // kinds with a payload fetched from the SGEs
  assign pay   = is_rd || (is_fw && kind <= rnic_spec_pkg::MSG_KIND_WRITE_IMM);
  assign multi = pay && !ud;
  assign nsge  = (d_q.num_sge > 8'd4) ? 3'd4 : d_q.num_sge[2:0];

  always_comb begin
    seg_kind = roce_pkg::KindAck;
    if (is_rd) seg_kind = roce_pkg::KindReadResp;
    else if (is_fw) begin
      case (kind)
        rnic_spec_pkg::MSG_KIND_SEND:       seg_kind = ud ? roce_pkg::KindUdSend : roce_pkg::KindSend;
        rnic_spec_pkg::MSG_KIND_SEND_IMM:   seg_kind = ud ? roce_pkg::KindUdSendImm : roce_pkg::KindSendImm;
        rnic_spec_pkg::MSG_KIND_WRITE:      seg_kind = roce_pkg::KindWrite;
        rnic_spec_pkg::MSG_KIND_WRITE_IMM:  seg_kind = roce_pkg::KindWriteImm;
        rnic_spec_pkg::MSG_KIND_READ_REQ:   seg_kind = roce_pkg::KindReadReq;
        rnic_spec_pkg::MSG_KIND_CMP_SWAP:   seg_kind = roce_pkg::KindCmpSwap;
        rnic_spec_pkg::MSG_KIND_FETCH_ADD:  seg_kind = roce_pkg::KindFetchAdd;
        rnic_spec_pkg::MSG_KIND_ATOMIC_ACK: seg_kind = roce_pkg::KindAtomicAck;
        default:                            seg_kind = roce_pkg::KindAck;
      endcase
    end
  end

  // SGE i of the job
  logic [63:0] s_addr;
  logic [31:0] s_len, s_key;
  always_comb begin
    case (si_q[1:0])
      2'd0: begin s_addr = d_q.sge0_addr; s_len = d_q.sge0_len; s_key = d_q.sge0_lkey; end
      2'd1: begin s_addr = d_q.sge1_addr; s_len = d_q.sge1_len; s_key = d_q.sge1_lkey; end
      2'd2: begin s_addr = d_q.sge2_addr; s_len = d_q.sge2_len; s_key = d_q.sge2_lkey; end
      default: begin s_addr = d_q.sge3_addr; s_len = d_q.sge3_len; s_key = d_q.sge3_lkey; end
    endcase
  end

  // ---- header template for roce_tx_seg (field order of roce_pkg::roce_hdr_t) ---------------
  logic        t_ackreq, t_se;
  logic [7:0]  t_syn;
  logic [23:0] t_dqp;
  logic [31:0] seg_len, t_qkey;
  roce_pkg::roce_hdr_t tmpl;
  assign t_ackreq = is_fw && rc && kind <= rnic_spec_pkg::MSG_KIND_FETCH_ADD;
  assign t_se     = is_fw && d_q.flags[3'(rnic_spec_pkg::TX_FLAG_SOLICITED)] &&
                    (kind == rnic_spec_pkg::MSG_KIND_SEND || kind == rnic_spec_pkg::MSG_KIND_SEND_IMM ||
                     kind == rnic_spec_pkg::MSG_KIND_WRITE_IMM);
  assign t_syn    = is_rd ? rnic_spec_pkg::AETH_SYNDROME_ACK : d_q.syndrome;
  assign t_dqp    = (is_fw && ud) ? d_q.dest_qpn[23:0] : qp_q.dest_qpn[23:0];
  // controlled Q_Key: a descriptor Q_Key with bit 31 set means the QP's own Q_Key
  assign t_qkey   = d_q.qkey[31] ? qp_q.qkey : d_q.qkey;
  assign seg_len  = (pay || (is_fw && kind == rnic_spec_pkg::MSG_KIND_READ_REQ)) ? d_q.length : 32'd0;
  // UD: the destination MAC, IPv4 and DSCP/ECN byte come with the descriptor (from the address
  // handle)
  assign tmpl = {(is_fw && ud) ? d_q.remote_va[47:0] : qp_q.dmac[47:0], qp_q.smac[47:0], qp_q.src_ipv4,
                 (is_fw && ud) ? d_q.rkey : qp_q.dest_ipv4, (is_fw && ud) ? d_q.traffic_class : qp_q.tos,
                 qp_q.ttl, 16'h0, qp_q.udp_sport, 8'h0, t_se, 1'b0, 2'b00, 16'hFFFF, 1'b0, 1'b0,
                 t_dqp, t_ackreq, d_q.psn[23:0], d_q.remote_va, d_q.rkey, d_q.msg_len, t_syn,
                 d_q.imm_data[23:0], d_q.swap_add, d_q.compare, d_q.swap_add,
                 roce_pkg::be32(d_q.imm_data), t_qkey, d_q.qpn[23:0], 16'h0};

  // packets of the message (for the done tracker and the retransmit counter): the count at each
  // of the five PMTUs from d_q.length (constant adds and shifts), the QP's picked and registered
  // in SCheck (qp_q is loaded in SQrsp, d_q.length in SIdle; both hold until the next job), and
  // npkts is read in SLaunch and SRec only, which come after SCheck (timing: the QP's PMTU ->
  // mask -> add -> shift in front of the counter add and the record FIFO's LUTRAM was 9 levels).
  // The count fits 24 bits: the PMTU is at least 2^8.
  logic [31:0] npkts;
  logic [23:0] np_q;
  logic [23:0] np_k [5];
  always_comb
    for (int k = 0; k < 5; k++) np_k[k] = 24'((d_q.length + ((32'd1 << (8 + k)) - 32'd1)) >> (8 + k));
  always_ff @(posedge clk_i)
    if (st_q == SCheck)
      case (mlog)
        5'd8:    np_q <= np_k[0];
        5'd9:    np_q <= np_k[1];
        5'd10:   np_q <= np_k[2];
        5'd11:   np_q <= np_k[3];
        default: np_q <= np_k[4];
      endcase
  assign npkts  = (!multi || d_q.length == 32'd0) ? 32'd1 : {8'h0, np_q};

  // ---- segmenter and packet builder --------------------------------------------------------------
  // message queue in front of the segmenter, so that the next messages' keys and DMA reads
  // overlap the transmission of the current one
  localparam int MsgW = roce_pkg::HdrBits + 4 + 32 + 1 + 4 + 2;
  logic                seg_ready, mq_full, mq_empty, mq_pop;
  logic [MsgW-1:0]     mq_out;
  roce_pkg::roce_hdr_t mq_hdr;
  logic [3:0]          mq_kind, mq_mlog;
  logic [31:0]         mq_len;
  logic                mq_uc, mq_cont, mq_more, t_cont, t_more;
  // a piece of a longer message (tx_flag CONT / MORE): only multi-packet RC/UC kinds
  assign t_cont = is_fw && multi && d_q.flags[3'(rnic_spec_pkg::TX_FLAG_CONT)];
  assign t_more = is_fw && multi && d_q.flags[3'(rnic_spec_pkg::TX_FLAG_MORE)];
  assign seg_ready = !mq_full;
  // FIFO fill levels: not needed here (full/empty suffice), but for the chunk FIFO's registered full
  logic [$clog2(MsgDepth+1)-1:0]   mq_cnt;
  logic [3:0]                      lf_cnt;
  logic [$clog2(ChunkDepth+1)-1:0] cf_cnt;
  logic [$clog2(RecDepth+1)-1:0]   rec_cnt;
  rnic_fifo #(.Width(MsgW), .Depth(MsgDepth)) u_mq (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .push_i  (st_q == SLaunch),
    .data_i  ({tmpl, seg_kind, seg_len, uc, mlog[3:0], t_cont, t_more}),
    .full_o  (mq_full),
    .pop_i   (mq_pop),
    .data_o  (mq_out),
    .empty_o (mq_empty),
    .count_o (mq_cnt)
  );
  assign {mq_hdr, mq_kind, mq_len, mq_uc, mq_mlog, mq_cont, mq_more} = mq_out;

  logic                seg_mready, pkt_valid, pkt_ready;
  roce_pkg::roce_hdr_t pkt;
  logic [23:0]         next_psn_unused;
  assign mq_pop = !mq_empty && seg_mready;
  roce_tx_seg u_seg (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .msg_valid_i     (!mq_empty),
    .msg_ready_o     (seg_mready),
    .msg_hdr_i       (mq_hdr),
    .msg_kind_i      (mq_kind),
    .msg_len_i       (mq_len),
    .msg_uc_i        (mq_uc),
    .msg_pmtu_log2_i (mq_mlog),
    .msg_cont_i      (mq_cont),
    .msg_more_i      (mq_more),
    .pkt_valid_o     (pkt_valid),
    .pkt_ready_i     (pkt_ready),
    .pkt_o           (pkt),
    .next_psn_o      (next_psn_unused)
  );

  logic                 p_valid, p_ready;
  logic [DataWidth-1:0] p_data;
  logic [31:0]          tx_pkts_unused;
  // packet mux: an ACK-lane packet (no payload) goes before the segmenter's next packet; a FIFO of
  // two bits per accepted packet tells the done tracker which frames belong to messages and
  // which end a READ response
  logic                tx_dvalid, tx_dready, sel_ack, lf_full, lf_empty, lf_out, tx_dfire;
  logic                tx_valid, tx_last, frame_fire, pkt_rr_last, lf_rr_last, rr_hold, rr_ok;
  logic [DataWidth-1:0] tx_data;
  // The last frame of a READ response (LAST/ONLY) ends only once every DMA completion of the
  // response is in (its record is the head, cpl_seq_q reached it): a payload read that failed
  // must not end in a frame the requester accepts as the end of a good READ. Holding the last
  // beat cannot deadlock: the completions need no further frame, only the DMA data already
  // taken. The frame is then poisoned (ICRC broken: the requester drops it) and a NAK follows.
  assign pkt_rr_last = !sel_ack && (pkt.opcode == rnic_spec_pkg::BTH_OPCODE_RC_READ_RESP_LAST || pkt.opcode == rnic_spec_pkg::BTH_OPCODE_RC_READ_RESP_ONLY);
  assign rr_hold    = tx_valid && tx_last && lf_rr_last && !rr_ok;
  assign frame_fire = tx_valid && m_tready_i && tx_last && !rr_hold;
  roce_pkg::roce_hdr_t tx_desc;
  assign sel_ack   = a_st_q == AOut;
  assign tx_dvalid = (sel_ack || pkt_valid) && !lf_full;
  assign tx_desc   = sel_ack ? a_hdr_q : pkt;
  assign pkt_ready = tx_dready && !sel_ack && !lf_full;
  assign tx_dfire  = tx_dvalid && tx_dready;
  rnic_fifo #(.Width(2), .Depth(8)) u_lane (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .push_i  (tx_dfire),
    .data_i  ({pkt_rr_last, sel_ack}),
    .full_o  (lf_full),
    .pop_i   (frame_fire),
    .data_o  ({lf_rr_last, lf_out}),
    .empty_o (lf_empty),
    .count_o (lf_cnt)
  );

  roce_tx #(.DataWidth(DataWidth)) u_tx (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .desc_valid_i (tx_dvalid),
    .desc_ready_o (tx_dready),
    .desc_i       (tx_desc),
    .s_tdata_i    (p_data),
    .s_tkeep_i    ({NB{1'b1}}),
    .s_tlast_i    (1'b0),
    .s_tvalid_i   (p_valid),
    .s_tready_o   (p_ready),
    .m_tdata_o    (tx_data),
    .m_tkeep_o    (m_tkeep_o),
    .m_tlast_o    (tx_last),
    .m_tvalid_o   (tx_valid),
    .m_tready_i   (m_tready_i && !rr_hold),
    .pause_i      (pause_i),
    .pkt_count_o  (tx_pkts_unused)
  );
  assign m_tlast_o  = tx_last;
  assign m_tvalid_o = tx_valid && !rr_hold;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a_st_q  <= AIdle;
      a_qpn_q <= '0;
      a_psn_q <= '0;
      a_msn_q <= '0;
      a_syn_q <= '0;
      a_hdr_q <= '0;
    end else begin
      case (a_st_q)
        AIdle: begin
          if (nak_pend_q) begin
            a_qpn_q <= nak_qpn_q;
            a_psn_q <= nak_psn_q;
            a_msn_q <= nak_msn_q;
            a_syn_q <= rnic_spec_pkg::AETH_SYNDROME_NAK_REM_OP;
            a_st_q  <= AReq;
          end else if (ack_valid_i && ack_ready_o && !ack_park) begin
            a_qpn_q <= ack_qpn_i;
            a_psn_q <= ack_psn_i;
            a_msn_q <= ack_msn_i;
            a_syn_q <= ack_syndrome_i;
            a_st_q  <= AReq;
          end
        end
        AReq: if (a_qreq) a_st_q <= ARsp;
        ARsp: begin
          // field order of roce_pkg::roce_hdr_t; a job for an invalid QP entry is dropped
          a_hdr_q <= {qpt_rsp_i.dmac[47:0], qpt_rsp_i.smac[47:0], qpt_rsp_i.src_ipv4,
                      qpt_rsp_i.dest_ipv4, qpt_rsp_i.tos, qpt_rsp_i.ttl, 16'h0, qpt_rsp_i.udp_sport,
                      8'h11, 1'b0, 1'b0, 2'b00, 16'hFFFF, 1'b0, 1'b0, qpt_rsp_i.dest_qpn[23:0],
                      1'b0, a_psn_q, 64'h0, 32'h0, 32'h0, a_syn_q, a_msn_q, 64'h0, 64'h0, 64'h0,
                      32'h0, 32'h0, 24'h0, 16'h0};
          a_st_q  <= qpt_rsp_i.valid ? AOut : AIdle;
        end
        default: if (tx_dfire) a_st_q <= AIdle;
      endcase
    end
  end

  // ---- chunk FIFO and packer ---------------------------------------------------------------
  logic        cf_full, cf_empty, cf_pop, cf_push;
  logic [33:0] cf_in, cf_out;
  assign cf_push = rd_req_valid_o && rd_req_ready_i;
  assign cf_in   = {msg_rem_q == ch_len_q, ch_fake_q, ch_len_q};
  rnic_fifo #(.Width(34), .Depth(ChunkDepth)) u_cf (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .push_i  (cf_push),
    .data_i  (cf_in),
    .full_o  (cf_full),
    .pop_i   (cf_pop),
    .data_o  (cf_out),
    .empty_o (cf_empty),
    .count_o (cf_cnt)
  );

  xport_tx_pack #(.DataWidth(DataWidth)) u_pack (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .ch_valid_i (!cf_empty),
    .ch_pop_o   (cf_pop),
    .ch_len_i   (cf_out[31:0]),
    .ch_fake_i  (cf_out[32]),
    .ch_last_i  (cf_out[33]),
    .rd_valid_i (rd_data_valid_i),
    .rd_ready_o (rd_data_ready_o),
    .rd_data_i  (rd_data_i),
    .m_valid_o  (p_valid),
    .m_ready_i  (p_ready),
    .m_data_o   (p_data)
  );
  // the packer counts bytes from the chunk lengths; keep/last are implied
  logic unused_rd;
  assign unused_rd = ^{lf_empty, mq_cnt, lf_cnt, cf_full, rec_cnt, rd_data_keep_i, rd_data_last_i, next_psn_unused, tx_pkts_unused,
                       mk_rsp_tag_i, rd_cpl_tag_i, d_q.ahn, d_q.rsvd472, qp_q, d_q.psn[31:24]};

  // ---- mkey lookups -----------------------------------------------------------------------
  logic [31:0] rem_sge;
  assign rem_sge         = s_len - off_q;
  assign mk_req_valid_o  = (st_q == SKeys && si_q < nsge && s_len != 32'd0) || st_q == SLreq;
  assign mk_req_key_o    = s_key;
  assign mk_req_pdn_o    = qp_q.pdn;
  assign mk_req_va_o     = s_addr + {32'h0, off_q};
  assign mk_req_len_o    = rem_sge;
  assign mk_req_access_o = (src_q == SrcRd) ? 4'b0100 : 4'b0000;
  assign mk_req_local_o  = src_q != SrcRd;
  assign mk_req_tag_o    = MkTagW'(si_q);
  assign mk_rsp_ready_o  = 1'b1;

  // ---- DMA requests -------------------------------------------------------------------------
  // The chunk FIFO's full flag kept in a flop beside its count (timing: the count compare sat in
  // front of the DMA read arbiter, whose ready comes back into off_q): the FIFO's own full_o one
  // cycle ahead, from the same push and pop (a push never meets a full FIFO: the valid waits).
  logic cf_full_q;
  always_ff @(posedge clk_i or negedge rst_ni)
    if (!rst_ni) cf_full_q <= 1'b0;
    else if (cf_cnt == ($clog2(ChunkDepth+1))'(ChunkDepth)) cf_full_q <= !cf_pop;
    else cf_full_q <= cf_cnt == ($clog2(ChunkDepth+1))'(ChunkDepth - 1) && cf_push && !cf_pop;
  assign rd_req_valid_o = st_q == SIssue && !cf_full_q;
  assign rd_req_addr_o  = ch_addr_q;
  assign rd_req_len_o   = ch_fake_q ? 32'd0 : ch_len_q;
  assign rd_req_tag_o   = DmaTagW'(ch_fake_q);

  // ---- done records ---------------------------------------------------------------------------
  // {ud, emit, qpn, status, npkts, dma request sequence number after the message, psn, msn}
  localparam int RecW = 1 + 1 + 24 + 8 + 32 + 16 + 24 + 24;
  logic            rec_push, rec_full, rec_empty, rec_pop;
  logic [RecW-1:0] rec_in, rec_out;
  assign rec_push = st_q == SRec && !rec_full;
  assign rec_in   = {ud, src_q == SrcFw, d_q.qpn[23:0], status_q,
                     (status_q != 8'd0) ? 32'd0 : npkts, dma_seq_q, d_q.psn[23:0], d_q.imm_data[23:0]};
  rnic_fifo #(.Width(RecW), .Depth(RecDepth)) u_rec (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .push_i  (rec_push),
    .data_i  (rec_in),
    .full_o  (rec_full),
    .pop_i   (rec_pop),
    .data_o  (rec_out),
    .empty_o (rec_empty),
    .count_o (rec_cnt)
  );
  logic        h_emit, h_ud;
  logic [23:0] h_qpn;
  logic [7:0]  h_status;
  logic [31:0] h_npkts;
  logic [15:0] h_seq;
  logic [23:0] h_psn, h_msn;
  assign {h_ud, h_emit, h_qpn, h_status, h_npkts, h_seq, h_psn, h_msn} = rec_out;

  // which done records are responses (READ response, parked ACK, firmware ATOMIC_ACK / ACK) and
  // of which QP: a copy beside the record FIFO, same push and pop
  localparam int RsW = $clog2(RecDepth);
  logic [RecDepth-1:0] rs_v_q, rs_m, rs_res_q;
  logic [23:0]         rs_qpn_q [RecDepth];
  logic [RsW-1:0]      rs_wr_q, rs_rd_q;
  logic                f_resp;
  assign f_resp = st_q != SIdle && (src_q != SrcFw || fw_rsp);
  always_comb
    for (int i = 0; i < RecDepth; i++) rs_m[i] = rs_v_q[i] && rs_qpn_q[i] == ack_qpn_i;
  // Responder resources (IBTA max_dest_rd_atomic; the receive engine compares): per QP, the READ
  // responses of new requests and the atomics from the marker on until the answer's frame left:
  // the job in the control FSM, the done records (their frames have not all left), and the
  // atomics the firmware has still to answer (hold slots). A duplicate READ's re-read is not
  // counted: its original may still be streaming after the requester took it as answered.
  // Two registered steps (LUT levels: a chain of per-record increments behind the QPN compares
  // was 11 levels on top of the receive engine's): the matches against rsc_qpn_i (a register in
  // the receive engine, which waits two cycles for the count: SRsc1/SRsc2), then their count.
  logic            f_res;
  logic [15:0]     rsc_m, rsc_m_q;   // matches, padded: RecDepth (<= 15) records + the FSM's job
  logic [4:0]      rsc_at, rsc_at_q;
  logic [5:0]      rsc_q;
  logic [6:0]      rsc_sum;
  logic [11:0]     rsc_c4;           // four 3-bit counts of 4 matches each
  logic [3:0]      rsc_c8a, rsc_c8b; // two counts of 8
  assign f_res = st_q != SIdle && ((src_q == SrcRd && rd_new_q) ||
                                   (is_fw && kind == rnic_spec_pkg::MSG_KIND_ATOMIC_ACK));
  always_comb begin
    rsc_m = '0;
    rsc_m[RecDepth] = f_res && d_q.qpn[23:0] == rsc_qpn_i;
    for (int i = 0; i < RecDepth; i++) rsc_m[i] = rs_v_q[i] && rs_res_q[i] && rs_qpn_q[i] == rsc_qpn_i;
    rsc_at = '0;
    for (int i = 0; i < HoldSlots; i++)
      if (hs_v_q[i] && hs_qpn_q[i] == rsc_qpn_i) rsc_at = hs_at_q[i];
    // count of 4 bits as logic (one LUT level), then a tree of three adds
    for (int g = 0; g < 4; g++) begin
      logic [3:0] v;
      v = rsc_m_q[4*g +: 4];
      rsc_c4[3*g]     = ^v;
      rsc_c4[3*g + 2] = &v;
      rsc_c4[3*g + 1] = !(&v) && ((v[0] && v[1]) || (v[0] && v[2]) || (v[0] && v[3]) ||
                                  (v[1] && v[2]) || (v[1] && v[3]) || (v[2] && v[3]));
    end
    rsc_c8a = 4'(rsc_c4[2:0]) + 4'(rsc_c4[5:3]);
    rsc_c8b = 4'(rsc_c4[8:6]) + 4'(rsc_c4[11:9]);
    rsc_sum = 7'(rsc_c8a) + 7'(rsc_c8b) + 7'(rsc_at_q);
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rsc_m_q <= '0; rsc_at_q <= '0; rsc_q <= '0;
    end else begin
      rsc_m_q <= rsc_m; rsc_at_q <= rsc_at;
      rsc_q <= rsc_sum[6] ? 6'd63 : rsc_sum[5:0];
    end
  end
  assign rsc_cnt_o = rsc_q;

  // an ACK job parks when its QP has a response ahead of it (or it is an atomic's marker)
  assign ack_park = ack_hold_i || hs_hit || |rs_m || (f_resp && d_q.qpn[23:0] == ack_qpn_i);

  // A parked NAK (PSN sequence, RNR, error) is not replaced by a plain ACK of an earlier PSN (a
  // duplicate's re-ACK after the NAK): the requester would never learn of the gap
  // Per slot, then picked by the hit's one-hot (timing: the encoded hit index, a mux of the slots'
  // PSNs and the subtraction behind the ACK lane's QPN compares made the slots' update 10 levels)
  logic        ack_acc, fw_ans, hs_keep_nak, unused_psn_d;
  logic [HoldSlots-1:0]    hs_kn;
  logic [24*HoldSlots-1:0] psn_d_nak;   // bit 23 of each: the ACK's PSN lies behind the slot's (modulo 2^24)
  always_comb
    for (int i = 0; i < HoldSlots; i++) begin
      psn_d_nak[24*i +: 24] = ack_psn_i - hs_psn_q[i];
      hs_kn[i] = hs_ack_q[i] && !(grant[2] && ak_oh[i]) && hs_syn_q[i][6:5] != 2'b00 && psn_d_nak[24*i + 23];
    end
  assign unused_psn_d = ^psn_d_nak;
  assign hs_keep_nak  = ack_syndrome_i[6:5] == 2'b00 && |(hs_hit_oh & hs_kn);
  assign ack_acc = ack_valid_i && ack_ready_o;
  assign fw_ans  = grant[0] && (dq_desc.kind == rnic_spec_pkg::MSG_KIND_ATOMIC_ACK ||
                                dq_desc.kind == rnic_spec_pkg::MSG_KIND_ACK);
  // next state of the hold slots
  logic [HoldSlots-1:0] hs_v_d, hs_ack_d, hs_new, hs_stop, hs_none, hs_dec;
  logic [4:0]           hs_at_d [HoldSlots];
  logic [4:0]           hs_at_b [HoldSlots];   // the count before a marker's increment
  logic [4:0]           hs_need_d [HoldSlots];
  always_comb begin
    for (int i = 0; i < HoldSlots; i++) begin
      hs_ack_d[i] = hs_ack_q[i];
      hs_at_b[i] = hs_at_q[i]; hs_need_d[i] = hs_need_q[i];
      hs_new[i] = ack_acc && ack_park && (hs_hit ? hs_hit_oh[i] : hs_free_oh[i]);
      if (grant[2] && ak_oh[i]) hs_ack_d[i] = 1'b0;
      // the firmware answers a QP's atomics in order: the oldest one was answered
      hs_dec[i] = fw_ans && hs_m_fw[i] && hs_at_q[i] != 5'd0;
      if (hs_dec[i]) begin
        hs_at_b[i] = hs_at_b[i] - 5'd1;
        if (hs_need_d[i] != 5'd0) hs_need_d[i] = hs_need_d[i] - 5'd1;
      end
      hs_stop[i] = qp_stop_i && hs_v_q[i] && hs_qpn_q[i] == qp_stop_qpn_i;
      if (hs_stop[i]) begin
        hs_at_b[i] = 5'd0; hs_need_d[i] = 5'd0;
      end
      if (hs_new[i]) begin
        if (!hs_hit) begin
          hs_ack_d[i] = 1'b0; hs_at_b[i] = 5'd0; hs_need_d[i] = 5'd0;
        end
        // (an atomic's marker is counted in hs_at_d below)
        if (!ack_hold_i && !(hs_hit && hs_keep_nak)) begin
          // a later ACK replaces the parked one and waits for the atomics before it
          hs_ack_d[i] = 1'b1; hs_need_d[i] = hs_at_b[i];
        end
      end
      // The atomics count as the steps above give it (answered, stopped, a new slot, plus one
      // for a marker, saturating), as a pick by the two late selects, hs_new and hs_dec, among
      // values computed beside them (timing: the QPN compares -> fw_ans -> decrement -> the
      // stop/new muxes -> increment -> hs_at_q was 8 levels alone). In a slot written this
      // cycle, "hit" is the slot's own valid bit: a hit writes the valid slot, a miss a free one.
      unique case ({hs_new[i], hs_dec[i]})
        2'b00: hs_at_d[i] = hs_stop[i] ? 5'd0 : hs_at_q[i];
        2'b01: hs_at_d[i] = hs_stop[i] ? 5'd0 : hs_at_q[i] - 5'd1;
        2'b10: hs_at_d[i] = (!hs_v_q[i] || hs_stop[i]) ? 5'(ack_hold_i)
                          : !ack_hold_i ? hs_at_q[i] : hs_at_q[i] + 5'(hs_at_q[i] != 5'd31);
        default: hs_at_d[i] = (!hs_v_q[i] || hs_stop[i]) ? 5'(ack_hold_i)
                            : ack_hold_i ? hs_at_q[i] : hs_at_q[i] - 5'd1;
      endcase
      // The slot is valid while an atomic is unanswered or an ACK parked (hs_at_d != 0 or
      // hs_ack_d), written beside them rather than behind them (timing: the QPN compares ->
      // hs_new -> hs_at_d's muxes and increment -> "== 0" -> hs_v_q was 9 levels). A slot
      // written this cycle stays valid (a new atomic counts one, a new ACK parks, a kept NAK
      // stays parked); otherwise it empties when no atomic is left (stopped, none, or the last
      // one answered now) and no ACK stays parked (the one there not granted now).
      hs_none[i] = hs_stop[i] || hs_at_q[i] == 5'd0 || (fw_ans && hs_m_fw[i] && hs_at_q[i] == 5'd1);
      hs_v_d[i]  = hs_new[i] || (hs_v_q[i] && !(hs_none[i] && !(hs_ack_q[i] && !(grant[2] && ak_oh[i]))));
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      hs_v_q <= '0; hs_ack_q <= '0;
      for (int i = 0; i < HoldSlots; i++) begin hs_at_q[i] <= '0; hs_need_q[i] <= '0; end
      rs_v_q <= '0; rs_res_q <= '0; rs_wr_q <= '0; rs_rd_q <= '0;
    end else begin
      hs_v_q <= hs_v_d; hs_ack_q <= hs_ack_d;
      for (int i = 0; i < HoldSlots; i++) begin hs_at_q[i] <= hs_at_d[i]; hs_need_q[i] <= hs_need_d[i]; end
      // rec_pop needs a record and rec_push room: never the same index in one cycle
      if (rec_pop) begin
        rs_v_q[rs_rd_q] <= 1'b0;
        rs_rd_q <= rs_rd_q + RsW'(1);
      end
      if (rec_push) begin
        rs_v_q[rs_wr_q] <= src_q != SrcFw || fw_rsp;
        rs_res_q[rs_wr_q] <= f_res;
        rs_wr_q <= rs_wr_q + RsW'(1);
      end
    end
  end
  always_ff @(posedge clk_i) begin
    if (rec_push) rs_qpn_q[rs_wr_q] <= d_q.qpn[23:0];
    for (int i = 0; i < HoldSlots; i++)
      if (hs_new[i]) begin
        if (!hs_hit) hs_qpn_q[i] <= ack_qpn_i;
        if (!ack_hold_i && !(hs_hit && hs_keep_nak)) begin
          hs_psn_q[i] <= ack_psn_i;
          hs_msn_q[i] <= ack_msn_i;
          hs_syn_q[i] <= ack_syndrome_i;
        end
      end
  end

  logic [31:0] fr_q;          // frames sent since the head record's first one
  logic        sticky_prot_q, sticky_dma_q;
  logic        head_ready;
  logic [7:0]  fin_status;
  logic  msg_frame;
  assign msg_frame  = frame_fire && !lf_out;
  // completions beyond the head record's requests wait until the head is retired
  assign rd_cpl_ready_o = rec_empty || cpl_seq_q != h_seq;
  assign head_ready = !rec_empty && fr_q >= h_npkts && cpl_seq_q == h_seq;
  assign rr_ok      = !rec_empty && fr_q + 32'd1 == h_npkts && cpl_seq_q == h_seq;
  // a READ response (not a firmware message) whose payload read failed: a verdict for the
  // firmware (the responder QP goes to ERR) and a NAK; one such NAK pending at a time
  logic rr_err, rr_ok_pop;
  assign rr_err     = !h_emit && sticky_dma_q;
  assign rr_ok_pop  = !(rr_err && nak_pend_q);
  assign rec_pop    = head_ready && rr_ok_pop && (!(h_emit || rr_err) || done_ready_i);
  assign fin_status = (h_status != 8'd0) ? h_status
                    : sticky_prot_q ? rnic_spec_pkg::WC_STATUS_LOC_PROT_ERR
                    : sticky_dma_q ? (h_emit ? rnic_spec_pkg::WC_STATUS_GENERAL_ERR
                                            : rnic_spec_pkg::WC_STATUS_REM_OP_ERR)
                    : rnic_spec_pkg::WC_STATUS_SUCCESS;
  assign done_valid_o  = head_ready && rr_ok_pop && (h_emit || rr_err);
  assign done_rsp_o    = !h_emit;
  // poison: byte 0 of the last beat (payload or ICRC, always kept) flipped breaks the ICRC
  assign m_tdata_o     = (tx_last && lf_rr_last && sticky_dma_q) ? {tx_data[DataWidth-1:8], ~tx_data[7:0]} : tx_data;
  assign done_qpn_o    = h_qpn;
  assign done_status_o = fin_status;
  assign done_ud_o     = h_ud;
  assign rdrsp_err_o   = err_pulse_q;

  logic [31:0] c_frames_q, c_done_q, c_lkey_q, c_rkey_q, c_dma_q;
  assign cnt_frames_o   = c_frames_q;
  assign cnt_done_o     = c_done_q;
  assign cnt_lkey_err_o = c_lkey_q;
  assign cnt_rkey_err_o = c_rkey_q;
  assign cnt_dma_err_o  = c_dma_q;
  logic [31:0] c_retx_q;
  assign cnt_retx_o     = c_retx_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fr_q          <= '0;
      nak_pend_q    <= 1'b0;
      nak_qpn_q     <= '0;
      nak_psn_q     <= '0;
      nak_msn_q     <= '0;
      sticky_prot_q <= 1'b0;
      sticky_dma_q  <= 1'b0;
      cpl_seq_q     <= '0;
      c_frames_q    <= '0;
      c_done_q      <= '0;
      c_lkey_q      <= '0;
      c_dma_q       <= '0;
    end else begin
      fr_q <= fr_q + (msg_frame ? 32'd1 : 32'd0) - (rec_pop ? h_npkts : 32'd0);
      if (frame_fire) c_frames_q <= c_frames_q + 32'd1;
      if (rd_cpl_valid_i && rd_cpl_ready_o) begin
        cpl_seq_q <= cpl_seq_q + 16'd1;
        if (rd_cpl_tag_i[0]) sticky_prot_q <= 1'b1;
        if (rd_cpl_status_i != 2'b00) begin
          sticky_dma_q <= 1'b1;
          c_dma_q      <= c_dma_q + 32'd1;
        end
      end
      if (a_st_q == AIdle && nak_pend_q) nak_pend_q <= 1'b0;   // the ACK lane took it
      if (rec_pop && rr_err) begin   // rr_err pops only while no NAK is pending
        nak_pend_q <= 1'b1;
        nak_qpn_q  <= h_qpn;
        nak_psn_q  <= h_psn;
        nak_msn_q  <= h_msn;
      end
      if (rec_pop) begin
        sticky_prot_q <= 1'b0;
        sticky_dma_q  <= 1'b0;
        if (h_emit) begin
          c_done_q <= c_done_q + 32'd1;
          if (fin_status == rnic_spec_pkg::WC_STATUS_LOC_PROT_ERR) c_lkey_q <= c_lkey_q + 32'd1;
        end
      end
    end
  end

  // ---- control FSM --------------------------------------------------------------------------
  // SCheck's length checks come from registers: d_q is loaded in SIdle and holds through SQreq
  // and SQrsp (the QP-table read), so the SGE lengths are summed there in two steps (pairs, then
  // the total against the message length) and "longer than the PMTU" is compared for each of the
  // five PMTUs, picked by the QP's in SCheck. The four adds chained into SCheck's decision in
  // one cycle were rnic_core's longest path (bitstream-scripts/synth/timing.md). No added cycle.
  logic [32:0] sge_p01_q, sge_p23_q;
  logic        sge_bad_q;                // more than 4 SGEs, or their lengths do not sum to length
  logic [4:0]  ud_long_q;                // [k]: length > 2^(8+k) bytes
  always_ff @(posedge clk_i) begin
    if (st_q == SQreq) begin
      sge_p01_q <= ((nsge > 3'd0) ? {1'b0, d_q.sge0_len} : 33'd0) +
                   ((nsge > 3'd1) ? {1'b0, d_q.sge1_len} : 33'd0);
      sge_p23_q <= ((nsge > 3'd2) ? {1'b0, d_q.sge2_len} : 33'd0) +
                   ((nsge > 3'd3) ? {1'b0, d_q.sge3_len} : 33'd0);
      for (int k = 0; k < 5; k++) ud_long_q[k] <= d_q.length > (32'd1 << (8 + k));
    end
    if (st_q == SQrsp)
      sge_bad_q <= d_q.num_sge > 8'd4 || {1'b0, sge_p01_q} + {1'b0, sge_p23_q} != {2'b0, d_q.length};
  end

  logic mk_fire;
  assign mk_fire = mk_req_valid_o && mk_req_ready_i;

  // check results per SGE (address and bytes to the page end of its first byte)
  always_ff @(posedge clk_i) begin
    if (st_q == SKeys && mk_rsp_valid_i) begin
      res_addr_q[mk_rsp_tag_i[1:0]] <= mk_rsp_addr_i;
      res_left_q[mk_rsp_tag_i[1:0]] <= mk_rsp_page_left_i;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q        <= SIdle;
      src_q       <= SrcFw;
      rr_q        <= 1'b0;
      d_q         <= '0;
      qp_q        <= '0;
      status_q    <= '0;
      nak_q       <= 1'b0;
      si_q        <= '0;
      nout_q      <= '0;
      kfail_q     <= 1'b0;
      off_q       <= '0;
      msg_rem_q   <= '0;
      ch_len_q    <= '0;
      ch_addr_q   <= '0;
      ch_fake_q   <= 1'b0;
      dma_seq_q   <= '0;
      err_pulse_q <= 1'b0;
      c_rkey_q    <= '0;
      c_retx_q    <= '0;
      rd_new_q    <= 1'b0;
    end else begin
      err_pulse_q <= 1'b0;
      case (st_q)
        SIdle: begin
          status_q <= '0;
          nak_q    <= 1'b0;
          si_q     <= '0;
          nout_q   <= '0;
          kfail_q  <= 1'b0;
          off_q    <= '0;
          if (grant[0]) begin
            d_q   <= dq_desc;
            src_q <= SrcFw;
            rr_q  <= 1'b1;
            st_q  <= SQreq;
          end else if (grant[2]) begin
            // a parked ACK (field order of the ACK lane's job)
            d_q           <= '0;
            d_q.qpn       <= {8'h0, hs_qpn_q[ak_idx]};
            d_q.kind      <= rnic_spec_pkg::MSG_KIND_ACK;
            d_q.psn       <= {8'h0, hs_psn_q[ak_idx]};
            d_q.syndrome  <= hs_syn_q[ak_idx];
            d_q.imm_data  <= {8'h0, hs_msn_q[ak_idx]};
            src_q         <= SrcAk;
            st_q          <= SQreq;
          end else if (grant[1]) begin
            d_q           <= '0;
            d_q.qpn       <= {8'h0, rdrsp_qpn_i};
            d_q.kind      <= rnic_spec_pkg::MSG_KIND_ACK;
            d_q.psn       <= {8'h0, rdrsp_psn_i};
            d_q.imm_data  <= {8'h0, rdrsp_msn_i};
            d_q.length    <= rdrsp_len_i;
            d_q.num_sge   <= 8'd1;
            d_q.sge0_addr <= rdrsp_va_i;
            d_q.sge0_len  <= rdrsp_len_i;
            d_q.sge0_lkey <= rdrsp_rkey_i;
            rd_new_q      <= rdrsp_new_i;
            src_q         <= SrcRd;
            rr_q          <= 1'b0;
            st_q          <= SQreq;
          end
        end
        SQreq: st_q <= SQrsp;
        SQrsp: begin
          qp_q <= qpt_rsp_i;
          st_q <= SCheck;
        end
        SCheck: begin
          // an invalid QP: firmware messages get LOC_QP_OP_ERR, receive-engine jobs are dropped.
          // Responses (ACK, ATOMIC ACKNOWLEDGE) go out from RTR too: a responder answers there.
          if (!qp_q.valid || (is_fw && !qp_q.tx_enable && !(fw_rsp && qp_q.rx_enable)) ||
              (is_fw && kind > rnic_spec_pkg::MSG_KIND_ACK) ||
              (is_fw && !rc && kind >= rnic_spec_pkg::MSG_KIND_READ_REQ)) begin
            status_q <= rnic_spec_pkg::WC_STATUS_LOC_QP_OP_ERR;
            st_q     <= SRec;
          end else if (pay && (sge_bad_q || (ud && ud_long_q[3'(mlog - 5'd8)]))) begin
            status_q <= rnic_spec_pkg::WC_STATUS_LOC_LEN_ERR;
            st_q     <= SRec;
          end else if (pay && !phys) begin
            st_q <= SKeys;
          end else begin
            st_q <= SLaunch;
          end
        end
        SKeys: begin
          // one lookup per non-empty SGE, pipelined; results kept for the first chunk of each
          if (si_q < nsge && (s_len == 32'd0 || mk_fire)) si_q <= si_q + 3'd1;
          nout_q <= nout_q + (mk_fire ? 3'd1 : 3'd0) - (mk_rsp_valid_i ? 3'd1 : 3'd0);
          if (mk_rsp_valid_i && mk_rsp_status_i != 3'd0) kfail_q <= 1'b1;
          if (si_q >= nsge && nout_q == 3'd0) begin
            si_q <= '0;
            if (kfail_q) begin
              if (src_q == SrcRd) begin
                // READ response with a bad rkey: a NAK remote access error instead
                nak_q         <= 1'b1;
                d_q.syndrome  <= rnic_spec_pkg::AETH_SYNDROME_NAK_REM_ACCESS;
                err_pulse_q   <= 1'b1;
                c_rkey_q      <= c_rkey_q + 32'd1;
                st_q          <= SLaunch;
              end else begin
                status_q <= rnic_spec_pkg::WC_STATUS_LOC_PROT_ERR;
                st_q     <= SRec;
              end
            end else begin
              st_q <= SLaunch;
            end
          end
        end
        SLaunch: begin
          if (seg_ready) begin
            // packets sent again (the firmware flags PSNs it sent before)
            if (is_fw && d_q.flags[3'(rnic_spec_pkg::TX_FLAG_RETRANSMIT)]) c_retx_q <= c_retx_q + npkts;
            si_q      <= '0;
            off_q     <= '0;
            msg_rem_q <= d_q.length;
            st_q      <= (pay && d_q.length != 32'd0) ? SPick : SRec;
          end
        end
        SPick: begin
          if (si_q >= nsge) begin
            st_q <= SRec;
          end else if (s_len == 32'd0) begin
            si_q <= si_q + 3'd1;
          end else if (phys) begin
            ch_addr_q <= s_addr;
            ch_len_q  <= s_len;
            ch_fake_q <= 1'b0;
            st_q      <= SIssue;
          end else if (off_q == 32'd0) begin
            ch_addr_q <= res_addr_q[si_q[1:0]];
            ch_len_q  <= (s_len < res_left_q[si_q[1:0]]) ? s_len : res_left_q[si_q[1:0]];
            ch_fake_q <= 1'b0;
            st_q      <= SIssue;
          end else begin
            st_q <= SLreq;
          end
        end
        SLreq: if (mk_fire) st_q <= SLrsp;
        SLrsp: begin
          if (mk_rsp_valid_i) begin
            if (mk_rsp_status_i == 3'd0) begin
              ch_addr_q <= mk_rsp_addr_i;
              ch_len_q  <= (rem_sge < mk_rsp_page_left_i) ? rem_sge : mk_rsp_page_left_i;
              ch_fake_q <= 1'b0;
            end else begin
              // translation failed after packets were committed: zeros, LOC_PROT_ERR verdict
              ch_addr_q <= '0;
              ch_len_q  <= rem_sge;
              ch_fake_q <= 1'b1;
            end
            st_q <= SIssue;
          end
        end
        SIssue: begin
          if (rd_req_ready_i && !cf_full_q) begin
            dma_seq_q <= dma_seq_q + 16'd1;
            msg_rem_q <= msg_rem_q - ch_len_q;
            if (off_q + ch_len_q == s_len) begin
              si_q  <= si_q + 3'd1;
              off_q <= '0;
            end else begin
              off_q <= off_q + ch_len_q;
            end
            st_q <= SPick;
          end
        end
        SRec: if (!rec_full) st_q <= SIdle;
        default: st_q <= SIdle;
      endcase
    end
  end
endmodule
