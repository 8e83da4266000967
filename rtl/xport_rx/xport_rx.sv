// xport_rx: receive-side transport engine (RC responder + requester-side ACK reception).
// Consumes roce_rx's parsed headers (hdr_*) and packed payload stream (s_t*), one packet at a
// time: QP lookup (rtl/qp_table), PSN classification, opcode-sequence/length/access checks, R_Key
// and L_Key checks through one mkey_table lookup port, payload placement through one
// dma_engine write client, then ACK/NAK jobs for the transmit engine (ack_*), READ response
// jobs (rdrsp_*) and rx_event records for the firmware (evt_*). See rtl/xport_rx/README.md.
module xport_rx #(
  parameter int DataWidth = 512,
  parameter int MkTagW    = 8,
  parameter int DmaTagW   = 8,
  parameter int MaxReads  = 16   // outstanding RDMA READs (requester side), all QPs together
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  // parsed packets from roce_rx
  input  logic                       hdr_valid_i,
  output logic                       hdr_ready_o,
  input  roce_pkg::roce_hdr_t        hdr_i,
  input  logic [DataWidth-1:0]       s_tdata_i,
  input  logic                       s_tvalid_i,
  output logic                       s_tready_o,
  // firmware: QP-table entry writes and receive-buffer posts as the QP table (rtl/qp_table)
  // takes them: a pending one keeps the next header out, an entry write retires READ contexts
  input  logic                       qpt_wr_valid_i,
  input  logic                       qpt_wr_ready_i,
  input  logic [31:0]                qpt_wr_qpn_i,
  input  logic                       rqd_valid_i,
  // QP table (rtl/qp_table): the receive engine's read port (registered, 1-cycle latency) and
  // write-back of the moving state; hold keeps firmware writes out while a packet is in flight
  output logic                       qpt_hold_o,
  input  logic                       qpt_init_done_i,
  output logic                       qpt_rd_en_o,
  output logic [23:0]                qpt_rd_qpn_o,
  input  logic                       qpt_hit_i,
  input  rnic_spec_pkg::qpt_entry_t  qpt_entry_i,
  input  xport_rx_pkg::qp_state_t    qpt_state_i,
  input  rnic_spec_pkg::rq_desc_t    qpt_rqd_i,
  input  logic                       qpt_rqv_i,
  input  logic [33:0]                qpt_rqlen_i,
  output logic                       qpt_st_we_o,
  output logic [23:0]                qpt_st_qpn_o,
  output xport_rx_pkg::qp_state_t    qpt_st_o,
  output logic                       qpt_rqv_clr_o,
  // firmware: where the responses of an RDMA READ go (one per READ request, before it is sent)
  input  logic                       rdd_valid_i,
  output logic                       rdd_ready_o,
  input  rnic_spec_pkg::rd_desc_t    rdd_i,
  // firmware: READ progress query (combinational): is READ (qpn, first PSN) outstanding, and
  // which response PSN does it expect next; answered while rdq_rd_i (the firmware's read of the
  // result), zero otherwise
  input  logic                       rdq_rd_i,
  input  logic [23:0]                rdq_qpn_i,
  input  logic [23:0]                rdq_psn_i,
  output logic                       rdq_hit_o,
  output logic [23:0]                rdq_nxt_o,
  // firmware: receive events
  output logic                       evt_valid_o,
  input  logic                       evt_ready_i,
  output rnic_spec_pkg::rx_event_t   evt_o,
  // transmit engine: ACK / NAK jobs
  output logic                       ack_valid_o,
  input  logic                       ack_ready_i,
  output logic [23:0]                ack_qpn_o,
  output logic [23:0]                ack_psn_o,
  output logic [7:0]                 ack_syndrome_o,
  output logic [23:0]                ack_msn_o,
  output logic                       ack_hold_o,   // no frame: an atomic the firmware answers (PSN ack_psn_o)
  // transmit engine: READ response jobs
  output logic                       rdrsp_valid_o,
  input  logic                       rdrsp_ready_i,
  output logic [23:0]                rdrsp_qpn_o,
  output logic [23:0]                rdrsp_psn_o,
  output logic [63:0]                rdrsp_va_o,
  output logic [31:0]                rdrsp_rkey_o,
  output logic [31:0]                rdrsp_len_o,
  output logic [23:0]                rdrsp_msn_o,
  output logic                       rdrsp_new_o,  // the READ is a new request (not a duplicate)
  // responder resources (max_dest_rd_atomic): the transmit engine counts, for the QP of
  // rsc_qpn_o (h_q), its READ responses and atomic answers of new requests not yet sent (two cycles later)
  output logic [23:0]                rsc_qpn_o,
  input  logic [5:0]                 rsc_cnt_i,
  // mkey_table lookup port
  output logic                       mk_req_valid_o,
  input  logic                       mk_req_ready_i,
  output logic [31:0]                mk_req_key_o,
  output logic [31:0]                mk_req_pdn_o,
  output logic [63:0]                mk_req_va_o,
  output logic [31:0]                mk_req_len_o,
  output logic [3:0]                 mk_req_access_o,
  output logic                       mk_req_local_o,
  output logic [MkTagW-1:0]          mk_req_tag_o,
  input  logic                       mk_rsp_valid_i,
  output logic                       mk_rsp_ready_o,
  input  logic [2:0]                 mk_rsp_status_i,
  input  logic [63:0]                mk_rsp_addr_i,
  input  logic [31:0]                mk_rsp_page_left_i,
  input  logic [MkTagW-1:0]          mk_rsp_tag_i,
  // dma_engine write client
  output logic                       dma_wr_req_valid_o,
  input  logic                       dma_wr_req_ready_i,
  output logic [63:0]                dma_wr_req_addr_o,
  output logic [31:0]                dma_wr_req_len_o,
  output logic [DmaTagW-1:0]         dma_wr_req_tag_o,
  output logic                       dma_wr_data_valid_o,
  input  logic                       dma_wr_data_ready_i,
  output logic [DataWidth-1:0]       dma_wr_data_o,
  input  logic                       dma_wr_cpl_valid_i,
  output logic                       dma_wr_cpl_ready_o,
  input  logic [DmaTagW-1:0]         dma_wr_cpl_tag_i,
  input  logic [1:0]                 dma_wr_cpl_status_i,
  // counters (xport_rx_pkg::Cnt*), 32-bit wrapping
  output logic [32*xport_rx_pkg::NumCnt-1:0] cnt_o
);
  // ---- states ----------------------------------------------------------------------------------
  localparam logic [4:0] SIdle   = 5'd0;
  localparam logic [4:0] SCls    = 5'd1;   // classify (table read data valid)
  localparam logic [4:0] SChk    = 5'd2;   // message-level mkey check (WRITE FIRST/ONLY, READ, atomics)
  localparam logic [4:0] SChkW   = 5'd3;
  localparam logic [4:0] SPlReq  = 5'd4;   // placement: lookup of the next piece
  localparam logic [4:0] SPlRsp  = 5'd5;
  localparam logic [4:0] SDmaReq = 5'd6;   // placement: DMA write request
  localparam logic [4:0] SFeed   = 5'd7;   // placement: payload beats of the piece
  localparam logic [4:0] SCpl    = 5'd8;   // wait for DMA completions before any output
  localparam logic [4:0] SFin    = 5'd9;   // apply a failure
  localparam logic [4:0] SDrain  = 5'd10;  // discard the rest of the payload
  localparam logic [4:0] SOut    = 5'd11;  // present ACK / event / READ job
  localparam logic [4:0] SWb     = 5'd12;  // write the moving state back
  localparam logic [4:0] SSync   = 5'd13;  // other QP than the pending writes: wait for them
  localparam logic [4:0] SErrRd  = 5'd14;  // pending writes failed: read that QP
  localparam logic [4:0] SErrFix = 5'd15;  // ... NAK it, set its error flag
  localparam logic [4:0] SReRd   = 5'd16;  // ... then read the current packet's QP again
  localparam logic [4:0] SRrM    = 5'd17;  // READ response / ATOMIC ACK: context match registered
  localparam logic [4:0] SRrA    = 5'd18;  // ... context arithmetic registered, then SCls
  localparam logic [4:0] SRsc1   = 5'd19;  // READ / atomic request: the transmit engine matches
  localparam logic [4:0] SRsc2   = 5'd20;  // ... and counts the QP's responder resources, then SCls

  localparam logic [7:0] SynAck    = rnic_spec_pkg::AETH_SYNDROME_ACK;  // ACK, no credit information
  localparam logic [7:0] SynPsnSeq = rnic_spec_pkg::AETH_SYNDROME_NAK_PSN_SEQ;
  localparam logic [7:0] SynInvReq = rnic_spec_pkg::AETH_SYNDROME_NAK_INV_REQ;
  localparam logic [7:0] SynRemAcc = rnic_spec_pkg::AETH_SYNDROME_NAK_REM_ACCESS;
  localparam logic [7:0] SynRemOp  = rnic_spec_pkg::AETH_SYNDROME_NAK_REM_OP;
  // BTH opcodes (spec enum bth_opcode) this block tells apart by name
  localparam logic [7:0] OpRdReq     = rnic_spec_pkg::BTH_OPCODE_RC_READ_REQ;
  localparam logic [7:0] OpRrFirst   = rnic_spec_pkg::BTH_OPCODE_RC_READ_RESP_FIRST;
  localparam logic [7:0] OpRrMiddle  = rnic_spec_pkg::BTH_OPCODE_RC_READ_RESP_MIDDLE;
  localparam logic [7:0] OpRrLast    = rnic_spec_pkg::BTH_OPCODE_RC_READ_RESP_LAST;
  localparam logic [7:0] OpRrOnly    = rnic_spec_pkg::BTH_OPCODE_RC_READ_RESP_ONLY;
  localparam logic [7:0] OpAck       = rnic_spec_pkg::BTH_OPCODE_RC_ACK;
  localparam logic [7:0] OpAtomicAck = rnic_spec_pkg::BTH_OPCODE_RC_ATOMIC_ACK;
  localparam logic [7:0] OpCmpSwap   = rnic_spec_pkg::BTH_OPCODE_RC_CMP_SWAP;
  localparam logic [7:0] OpFetchAdd  = rnic_spec_pkg::BTH_OPCODE_RC_FETCH_ADD;
  localparam logic [7:0] OpUdSend    = rnic_spec_pkg::BTH_OPCODE_UD_SEND_ONLY;
  localparam logic [7:0] OpUdSendImm = rnic_spec_pkg::BTH_OPCODE_UD_SEND_ONLY_IMM;
  localparam logic [31:0] UdGrhBytes = 32'd40;  // GRH area at the start of a UD receive buffer
  // mkey_table access bits (rnic_spec_pkg::ACCESS_* positions)
  localparam logic [3:0] AccLocWr = 4'(32'd1 << rnic_spec_pkg::ACCESS_LOCAL_WRITE);
  localparam logic [3:0] AccRemWr = 4'(32'd1 << rnic_spec_pkg::ACCESS_REMOTE_WRITE);
  localparam logic [3:0] AccRemRd = 4'(32'd1 << rnic_spec_pkg::ACCESS_REMOTE_READ);
  localparam logic [3:0] AccRemAt = 4'(32'd1 << rnic_spec_pkg::ACCESS_REMOTE_ATOMIC);
  // Descriptor SGEs are taken by index: SGE i sits i * SgeBits above SGE 0 in rq_desc and rd_desc
  // (spec/gen checks that every SGE list is evenly spaced and MAX_SGE long).
  localparam int NSge    = rnic_spec_pkg::MAX_SGE;
  localparam int SgeBits = rnic_spec_pkg::RQ_DESC_SGE1_ADDR_LSB - rnic_spec_pkg::RQ_DESC_SGE0_ADDR_LSB;
  localparam int RqA0 = rnic_spec_pkg::RQ_DESC_SGE0_ADDR_LSB, RqL0 = rnic_spec_pkg::RQ_DESC_SGE0_LEN_LSB;
  localparam int RqK0 = rnic_spec_pkg::RQ_DESC_SGE0_LKEY_LSB;
  localparam int RdA0 = rnic_spec_pkg::RD_DESC_SGE0_ADDR_LSB, RdL0 = rnic_spec_pkg::RD_DESC_SGE0_LEN_LSB;
  localparam int RdK0 = rnic_spec_pkg::RD_DESC_SGE0_LKEY_LSB;

  logic [4:0] state_q;
  roce_pkg::roce_hdr_t h_q;

  // ---- QP table ----------------------------------------------------------------------------------
  logic                      hdr_fire;
  logic                      q_hit, q_rqv;
  rnic_spec_pkg::qpt_entry_t q_e;
  xport_rx_pkg::qp_state_t   q_st;
  rnic_spec_pkg::rq_desc_t   q_rqd;
  logic [33:0]               buf_total;  // the rq slot's buffer bytes (summed when posted)
  logic                      st_we, rqv_clr;
  xport_rx_pkg::qp_state_t   stn_q;
  // writes of packets that needed no output are not waited for ("pending"); they are waited for
  // before the next output, before a packet of another QP, or when the engine is idle
  logic        pend_v_q, errfix_q, refetch_q;
  logic [23:0] pend_qp_q, pend_psn_q;
  // pending writes belong either to QP pend_qp's requests or (pend_rr) to READ context pend_slot
  logic        pend_rr_q, pend_same;
  logic        rx_rd_en;
  logic [23:0] rx_rd_qpn;
  assign rx_rd_en  = hdr_fire || state_q == SErrRd || state_q == SReRd;
  assign rx_rd_qpn = state_q == SErrRd ? pend_qp_q : state_q == SReRd ? h_q.dest_qp : hdr_i.dest_qp;

  logic qpt_init_done;
  logic rdd_fire, hdr_rr, qpt_fire;
  assign hdr_ready_o = state_q == SIdle && !qpt_wr_valid_i && !rqd_valid_i && qpt_init_done && !rdd_fire;
  assign hdr_fire    = hdr_valid_i && hdr_ready_o;

  // the table itself is rtl/qp_table (shared with the transmit engine), wired in rnic_core
  assign qpt_hold_o    = state_q != SIdle || pend_v_q;  // no table change under unchecked writes
  assign qpt_init_done = qpt_init_done_i;
  assign qpt_rd_en_o   = rx_rd_en;
  assign qpt_rd_qpn_o  = rx_rd_qpn;
  assign q_hit         = qpt_hit_i;
  assign q_e           = qpt_entry_i;
  assign q_st          = qpt_state_i;
  assign q_rqd         = qpt_rqd_i;
  assign q_rqv         = qpt_rqv_i;
  assign buf_total     = qpt_rqlen_i;
  assign qpt_st_we_o   = st_we;
  assign qpt_st_qpn_o  = errfix_q ? pend_qp_q : h_q.dest_qp;
  assign qpt_st_o      = stn_q;
  assign qpt_rqv_clr_o = rqv_clr;

  // ---- payload realigner ------------------------------------------------------------------------
  logic        feed_chunk, feed_busy, feed_drain, feed_idle, fd_valid;
  logic [DataWidth-1:0] fd_data;
  // Header-sourced chunks: bytes written from the packet header, not from the payload stream:
  // a UD buffer's GRH area (the rebuilt IPv4 header) and an ATOMIC ACKNOWLEDGE's original value.
  // The image is indexed by the placement offset (both start at offset 0 of their SGEs).
  localparam int HsW = (DataWidth > 320) ? DataWidth : 320;
  logic               dma_req_fire, hs_chunk, hs_act, pl_aa;
  logic [HsW-1:0]     hs_q;
  logic [15:0]        hs_left_q;
  logic [319:0]       grh_img, hs_img;
  assign hs_act = hs_left_q != 16'd0;
  // little-endian: the host reads the numeric value h_q.orig
  assign hs_img = pl_aa ? 320'(h_q.orig) : grh_img;
  logic [159:0] grh_ip_q;
  logic [15:0]  grh_ip_len_q;
  logic         ud_op;
  // Registered in two steps (timing: length, checksum and the byte shift into hs_q made a
  // 14-level path). Both follow h_q, which loads in SIdle; the GRH chunk is the first piece of a
  // UD packet, its DMA request comes no earlier than SCls -> SPlReq -> SPlRsp -> SDmaReq, 3
  // cycles after h_q, when both registers hold this packet's values. They load only while h_q
  // holds a UD datagram (ud_op, registered with h_q; a GRH chunk needs pl_ud_q, set in SCls for
  // such a packet alone), so the checksum is not computed on every cycle (simulation speed,
  // docs/sim-speed.md step 15).
  always_ff @(posedge clk_i)
    if (ud_op) begin
      logic [159:0] ip;
      // the datagram's IPv4 header as it came (no options, DF): what verbs read the source from
      grh_ip_len_q <= 16'd20 + 16'd8 + 16'd12 + 16'd8 + ((h_q.opcode == OpUdSendImm) ? 16'd4 : 16'd0) +
                      h_q.payload_len + {14'd0, h_q.pad_cnt} + 16'd4;
      ip = {roce_pkg::be32(h_q.dst_ip), roce_pkg::be32(h_q.src_ip), 16'h0000, 8'h11, h_q.ttl,
            roce_pkg::be16(16'h4000), roce_pkg::be16(h_q.ip_id), roce_pkg::be16(grh_ip_len_q), h_q.tos, 8'h45};
      ip[95:80] = roce_pkg::be16(roce_pkg::ip_csum(ip));
      grh_ip_q <= ip;
    end
  assign grh_img = {grh_ip_q, 160'd0};
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      hs_q <= '0;
      hs_left_q <= '0;
    end else if (dma_req_fire && hs_chunk) begin
      hs_q <= HsW'(hs_img) >> (8 * pl_off_q[5:0]);
      hs_left_q <= ch_n_q;
    end else if (hs_act && dma_wr_data_ready_i) begin
      hs_q <= hs_q >> DataWidth;
      hs_left_q <= (hs_left_q > 16'(DataWidth / 8)) ? hs_left_q - 16'(DataWidth / 8) : 16'd0;
    end
  end
  logic [15:0] ch_n_q;
  xport_rx_feed #(.DataWidth(DataWidth)) u_feed (
    .clk_i, .rst_ni,
    .s_tdata_i, .s_tvalid_i, .s_tready_o,
    .pkt_start_i   (hdr_fire),
    .pkt_len_i     (hdr_i.payload_len),
    .chunk_valid_i (feed_chunk),
    .chunk_len_i   (ch_n_q),
    .chunk_busy_o  (feed_busy),
    .drain_i       (feed_drain),
    .idle_o        (feed_idle),
    .m_valid_o     (fd_valid),
    .m_ready_i     (dma_wr_data_ready_i && !hs_act),
    .m_data_o      (fd_data)
  );
  assign dma_wr_data_valid_o = hs_act || fd_valid;
  assign dma_wr_data_o       = hs_act ? hs_q[DataWidth-1:0] : fd_data;

  // ---- outstanding READs (requester side): MaxReads contexts shared by all QPs ------------------
  // A context is the rd_desc plus the next expected response PSN, the running offset into its
  // SGEs and a sticky status. Only the valid bits are reset; the rest is written at allocation.
  localparam int RrW = (MaxReads > 1) ? $clog2(MaxReads) : 1;
  logic [MaxReads-1:0]      rr_v_q;
  // Context i's fields are slices [W*i +: W] of flat vectors, not unpacked arrays: each context
  // has its own write enables, and Verilator gives every element write of an unpacked array a
  // set flag cleared and tested on every clock edge (144 of them here), a vector none
  // (docs/sim-speed.md, step 10). The same flip-flops either way.
  logic [24*MaxReads-1:0]   rr_qpn_q;
  logic [24*MaxReads-1:0]   rr_first_q;
  logic [24*MaxReads-1:0]   rr_nxt_q;
  logic [MaxReads-1:0]      rr_atb_q;               // next PSN is the resume point (FIRST/ONLY expected)
  // {resumed: offset to be recomputed from the PSN, running offset}: LUTRAM beside rr_d_q, read
  // at m_idx_q (timing: a 16:1 mux of flops, 3 LUT levels, ahead of rr_lenerr's add and compare;
  // written at allocation and in SFin, never in one cycle)
  logic [32:0]              rr_or_q [MaxReads];
  logic [32:0]              m_or;
  logic [8*MaxReads-1:0]    rr_stat_q;
  // (plain vectors: Yosys 0.23 synthesizes an unpacked array of a struct type without storage)
  logic [rnic_spec_pkg::RD_DESC_BYTES*8-1:0] rr_d_q [MaxReads];
  // What the READ-response checks need of the descriptor, computed when it is posted (timing:
  // the packet count ceil(length / PMTU) by a variable shift and the SGE total behind the context
  // read made SRrA the block's longest path): per PMTU 2^(8+j) the PSN of the last response,
  // length - 1 (its low bits are the last response's length - 1), length == 0, the SGE total and
  // a resumed READ's first PSN offset (resume_psn - first_psn). LUTRAM beside rr_d_q.
  localparam int NPm = 5;  // PMTU 256 .. 4096
  localparam int RxW = NPm * 24 + 12 + 1 + 34 + 24;
  logic [RxW-1:0]           rr_x_q [MaxReads];
  logic [RxW-1:0]           rr_x_d, m_x;
  logic [MaxReads-1:0]      rr_atom_q;              // the context is an atomic's (rd_desc.atomic)
  logic [MaxReads-1:0]      rr_gap_q;               // a gap was reported (READ_GAP) since it last advanced
  // the response is ahead of a READ's next PSN: per context (g_vec), registered in SRrM
  // (g_vec_q), then the pick (g_hit/g_idx) registered in SRrA for SCls (timing, below)
  logic [MaxReads-1:0]      g_vec, g_vec_q;
  logic                     g_hit;
  logic [RrW-1:0]           g_idx;
  logic                     w_rep, w_free, m_hit;
  logic [RrW-1:0]           w_rep_idx, w_free_idx, w_idx, m_idx, rr_slot_q, pend_slot_q;
  logic                     rr_settle_err, rr_gap_set;
  logic [MaxReads-1:0]      w_rep_m, w_rep_oh, w_free_oh, w_oh;
  logic                     hdr_rrm, h_rrm;         // (assigned below, with the opcode classes)

  // The searches run only when their result is used (simulation speed: Verilator evaluates an
  // always_comb after every clock edge, docs/sim-speed.md step 9): the response matches while
  // h_q holds a READ response or ATOMIC ACKNOWLEDGE (their only readers, m_hit_q/g_hit_q and the
  // m_idx_q reads, act for those packets alone: SRrM/SRrA/SCls and the rr_* registers loaded in
  // SCls are read only under p_rr_q/pl_rd_q), the re-post match and the one-hot choice while a
  // READ descriptor is offered (rdd_ready_o is taken only with rdd_valid_i, in rnic_fw_mbox;
  // w_idx and w_oh are used only with rdd_fire). The same values whenever they are read.
  always_comb begin
    w_rep = 1'b0; w_rep_idx = '0; w_free = 1'b0; w_free_idx = '0; m_hit = 1'b0; m_idx = '0;
    g_vec = '0;
    if (h_rrm) begin
      for (int i = MaxReads - 1; i >= 0; i--) begin
        // a response of this QP beyond the next one a READ expects: one was lost (the responder
        // answers in PSN order); reported once until the READ advances
        g_vec[i] = rr_v_q[i] && !rr_atom_q[i] && !rr_gap_q[i] && rr_qpn_q[24*i +: 24] == h_q.dest_qp &&
                   h_q.psn != rr_nxt_q[24*i +: 24] && !(h_q.psn - rr_nxt_q[24*i +: 24] >= 24'h400000);
        if (rr_v_q[i] && rr_qpn_q[24*i +: 24] == h_q.dest_qp && rr_nxt_q[24*i +: 24] == h_q.psn &&
            rr_atom_q[i] == (h_q.opcode == OpAtomicAck)) begin
          m_hit = 1'b1; m_idx = RrW'(i);
        end
      end
    end
    if (rdd_valid_i) begin
      for (int i = MaxReads - 1; i >= 0; i--) begin
        if (rr_v_q[i] && rr_qpn_q[24*i +: 24] == rdd_i.qpn[23:0] && rr_first_q[24*i +: 24] == rdd_i.first_psn[23:0]) begin
          w_rep = 1'b1; w_rep_idx = RrW'(i);
        end
        if (!rr_v_q[i]) begin
          w_free = 1'b1; w_free_idx = RrW'(i);
        end
      end
    end
    w_idx = w_rep ? w_rep_idx : w_free_idx;
  end
  always_comb begin
    // the same choice one-hot (lowest index first), for the contexts' own write enables
    w_rep_m = '0; w_rep_oh = '0; w_free_oh = '0;
    if (rdd_valid_i) begin
      for (int i = 0; i < MaxReads; i++)
        w_rep_m[i] = rr_v_q[i] && rr_qpn_q[24*i +: 24] == rdd_i.qpn[23:0] && rr_first_q[24*i +: 24] == rdd_i.first_psn[23:0];
      for (int i = 0; i < MaxReads; i++) begin
        w_rep_oh[i] = w_rep_m[i];
        w_free_oh[i] = !rr_v_q[i];
        for (int j = 0; j < i; j++) begin
          if (w_rep_m[j]) w_rep_oh[i] = 1'b0;
          if (!rr_v_q[j]) w_free_oh[i] = 1'b0;
        end
      end
    end
  end
  assign w_oh = {MaxReads{rdd_fire}} & (w_rep ? w_rep_oh : w_free_oh);
  always_comb begin
    // only while the firmware reads the answer, its one reader (simulation speed: 16 x two
    // 24-bit compares on every cycle otherwise)
    rdq_hit_o = 1'b0; rdq_nxt_o = '0;
    if (rdq_rd_i)
      for (int i = 0; i < MaxReads; i++)
        if (rr_v_q[i] && rr_qpn_q[24*i +: 24] == rdq_qpn_i && rr_first_q[24*i +: 24] == rdq_psn_i) begin
          rdq_hit_o = 1'b1; rdq_nxt_o = rr_nxt_q[24*i +: 24];
        end
  end
  // served between packets like the other firmware ports (a QP-table write goes first)
  // (not while a READ's writes are unsettled: a re-post may replace that very context)
  assign rdd_ready_o = state_q == SIdle && qpt_init_done && !qpt_wr_valid_i && (w_rep || w_free) &&
                       !(pend_v_q && pend_rr_q);
  assign rdd_fire    = rdd_valid_i && rdd_ready_o;
  assign qpt_fire    = qpt_wr_valid_i && qpt_wr_ready_i;
  assign hdr_rr      = hdr_i.opcode >= OpRrFirst && hdr_i.opcode <= OpRrOnly;
  // packets classified through a READ context (READ responses, ATOMIC ACKNOWLEDGE): SRrM first
  assign hdr_rrm     = hdr_rr || hdr_i.opcode == OpAtomicAck;
  assign h_rrm       = (h_q.opcode >= OpRrFirst && h_q.opcode <= OpRrOnly) || h_q.opcode == OpAtomicAck;
  // READ and atomic requests wait two cycles before SCls for the responder-resource count of
  // their QP (rsc_cnt_i: xport_tx matches rsc_qpn_o, then counts, each registered)
  logic hdr_rsc, h_rsc;
  assign hdr_rsc     = hdr_i.opcode == OpRdReq || hdr_i.opcode == OpCmpSwap || hdr_i.opcode == OpFetchAdd;
  assign h_rsc       = h_q.opcode == OpRdReq || h_q.opcode == OpCmpSwap || h_q.opcode == OpFetchAdd;
  // The next packet continues the owner of the pending writes: same QP's requests, or the next
  // response of the same READ (then their writes need not be settled in between). An ATOMIC
  // ACKNOWLEDGE may place through a context: it settles them first.
  assign pend_same   = hdr_i.dest_qp == pend_qp_q && hdr_i.opcode != OpAtomicAck &&
                       (pend_rr_q ? (hdr_rr && rr_nxt_q[24*32'(pend_slot_q) +: 24] == hdr_i.psn) : !hdr_rr);

  // ---- opcode classes: decoded from the arriving header, registered with it in h_q (timing) -----
  localparam int OpdW = 18;
  logic [OpdW-1:0] opd_q;
  // Called where the classes are registered, inside the clocked processes under the header's
  // load (simulation speed: as an always_comb it ran 18 opcode compares on every cycle; the
  // same logic in front of the same flip-flops).
  function automatic logic [OpdW-1:0] opd_of(input logic [7:0] o);
    logic sf, sm, sl, sli, so, soi, wf, wm, wl, wli, wo, woi, rq, at;
    sf  = o == rnic_spec_pkg::BTH_OPCODE_RC_SEND_FIRST;
    sm  = o == rnic_spec_pkg::BTH_OPCODE_RC_SEND_MIDDLE;
    sl  = o == rnic_spec_pkg::BTH_OPCODE_RC_SEND_LAST;
    sli = o == rnic_spec_pkg::BTH_OPCODE_RC_SEND_LAST_IMM;
    so  = o == rnic_spec_pkg::BTH_OPCODE_RC_SEND_ONLY;
    soi = o == rnic_spec_pkg::BTH_OPCODE_RC_SEND_ONLY_IMM;
    wf  = o == rnic_spec_pkg::BTH_OPCODE_RC_WRITE_FIRST;
    wm  = o == rnic_spec_pkg::BTH_OPCODE_RC_WRITE_MIDDLE;
    wl  = o == rnic_spec_pkg::BTH_OPCODE_RC_WRITE_LAST;
    wli = o == rnic_spec_pkg::BTH_OPCODE_RC_WRITE_LAST_IMM;
    wo  = o == rnic_spec_pkg::BTH_OPCODE_RC_WRITE_ONLY;
    woi = o == rnic_spec_pkg::BTH_OPCODE_RC_WRITE_ONLY_IMM;
    rq = o == OpRdReq;
    at = o == OpCmpSwap || o == OpFetchAdd;
    opd_of = {o == OpAck || o == OpAtomicAck,                // is_ack
             (o <= OpRdReq) || at,                           // is_rc_req
             o >= OpRrFirst && o <= OpRrOnly,                // is_rr (READ response)
             o == OpUdSend || o == OpUdSendImm,              // ud_op: UD SEND ONLY (with immediate)
             rq, at,                                         // rd_req, atomic
             wf || wm || wl || wli || wo || woi,             // is_write
             sf || sm || sl || sli || so || soi,             // is_send
             wf || wo || woi,                                // wstart
             wf || wo || woi || sf || so || soi || rq || at, // starts
             wl || wli || wo || woi || sl || sli || so || soi,  // lastish
             sf || so || soi || wli || woi,                  // needs_rq
             sli || soi || wli || woi,                       // has_imm
             sf || sm || wf || wm,                           // len_full: exactly PMTU
             sl || sli || wl || wli,                         // len_last: 1..PMTU
             so || soi || wo || woi,                         // len_only: 0..PMTU
             wm || wl || wli,                                // cont_w: continues a WRITE
             sm || sl || sli};                               // cont_s: continues a SEND
  endfunction
  // ATOMIC ACKNOWLEDGE (the classification's first branches, aa), DMA length and payload length
  // not zero (the next state's check and placement): registered with the header too
  logic aack_q, hdnz_q, hpnz_q;
  always_ff @(posedge clk_i or negedge rst_ni)
    if (!rst_ni) begin
      opd_q <= '0; aack_q <= 1'b0; hdnz_q <= 1'b0; hpnz_q <= 1'b0;
    end else if (state_q == SIdle && hdr_fire) begin
      opd_q <= opd_of(hdr_i.opcode); aack_q <= hdr_i.opcode == OpAtomicAck;
      hdnz_q <= hdr_i.dma_len != 32'd0; hpnz_q <= hdr_i.payload_len != 16'd0;
    end

  // Per PMTU 2^(8+j), registered with the header (timing: the QP's PMTU comes out of the table RAM
  // in SCls itself, and a variable shift behind it made the length check and a READ request's
  // packet count the classification's longest paths): the payload-length check of the opcode
  // class, and ceil(DMA length / PMTU) (1 for a zero-length READ). SCls picks one by the PMTU.
  // (computed under the load, as opd_q: not on every cycle)
  logic [NPm-1:0]    hlen_ok_q;
  logic [NPm*24-1:0] hnpk_q;
  logic              hwlen_ok_q;  // WRITE FIRST/ONLY: the payload fits the DMA length
  always_ff @(posedge clk_i)
    if (state_q == SIdle && hdr_fire) begin
      logic [15:0] pl;
      logic [OpdW-1:0] od;
      pl = hdr_i.payload_len;
      od = opd_of(hdr_i.opcode);
      hwlen_ok_q <= {16'd0, pl} <= hdr_i.dma_len && (!od[7] || {16'd0, pl} == hdr_i.dma_len);
      for (int j = 0; j < NPm; j++) begin
        if (od[4]) hlen_ok_q[j] <= 32'(pl) == (32'd1 << (8 + j));                    // len_full
        else if (od[3]) hlen_ok_q[j] <= pl != 16'd0 && 32'(pl) <= (32'd1 << (8 + j));  // len_last
        else if (od[2]) hlen_ok_q[j] <= 32'(pl) <= (32'd1 << (8 + j));                 // len_only
        else hlen_ok_q[j] <= pl == 16'd0;
        hnpk_q[24*j +: 24] <= (hdr_i.dma_len == 32'd0) ? 24'd1 :
                              24'((33'(hdr_i.dma_len) + (33'd1 << (8 + j)) - 33'd1) >> (8 + j));
      end
    end

  // ---- classification (combinational, from the registered header and the QP table read) --------
  logic [7:0]  op;
  logic [15:0] plen;
  logic [3:0]  pl2;
  logic [16:0] pmtu;
  logic [23:0] psn_d;
  logic        qp_ok, is_ack, is_rc_req, inorder, dup, ahead;
  logic        len_full, len_last, len_only, cont_w, cont_s;
  logic        rd_req, atomic, is_write, is_send, wstart, starts, lastish, needs_rq, has_imm;
  logic        ud_qp, ud_fits;
  logic        seq_ok, len_ok, acc_ok, wlen_ok, slen_ok, ack_now, e_inv;
  logic [31:0] rem0, boff;
  logic [33:0] sroom;   // a SEND's buffer bytes left after this packet (state va, see slen_ok)
  logic [23:0] rd_epsn;   // the PSN after a READ request: epsn + its response packets at the QP's PMTU
  logic [NPm-1:0] pl_oh;   // the QP's PMTU one-hot (256 .. 4096), clamped as pl2
  // READ response of the matched context
  logic        is_rr, aa, rr_lastp, rr_firstp, rr_seq_ok, rr_len_ok, rr_lenerr, rr_rest_ok;
  logic [31:0] rr_off, rr_krs_sh;
  logic [33:0] rr_tot, rr_avail;
  logic [23:0] rr_lpsn, rr_krsm;
  logic [11:0] rr_lm1;
  logic        rr_lz;
  logic [15:0] rr_plen, rr_need;
  rnic_spec_pkg::rd_desc_t m_d;
  // registered by the two READ-response stages (SRrM, SRrA; below)
  logic           m_hit_q, g_hit_q, aa_m;
  logic [RrW-1:0] m_idx_q, g_idx_q;
  logic [NPm-1:0] rr_pl_oh_q;   // the QP's PMTU one-hot (256 .. 4096)
  logic [11:0]    rr_pmsk_q;    // PMTU - 1
  logic [11:0]    rr_pm1_q;     // payload length - 1
  logic           rr_pz_q, rr_pfit_q, rr_peq_q;  // payload length == 0, <= PMTU, == PMTU
  logic           rr_seq_ok_q, rr_len_ok_q, rr_lastp_q, rr_lenerr_v_q;
  logic [31:0]    rr_off_v_q;
  logic [15:0]    rr_plen_q;
  logic           rr_stok_q;    // the matched context's status is SUCCESS (rr_stat_q at m_idx_q)

  // n <= room as gates, not as a compare (timing: Yosys maps a compare to a carry chain, whose
  // output ABC takes as arriving at once, so it put slen_ok, behind the rq-slot RAM's output mux
  // and the chain, at the start of the decision's LUTs: 9 levels into state_q; as gates ABC sees
  // the whole path). n > room[15:0] where the highest differing bit is set in n: the bits
  // differing above bit i are smeared down by ORs of shifted words (wiring and OR gates, no
  // carry chain), so that Verilator evaluates a few word operations, not a 16-step bit loop, in
  // this always_comb on every cycle (docs/sim-speed.md, step 15)
  function automatic logic fits(input logic [15:0] n, input logic [33:0] room);
    logic [15:0] d, s;
    d = n ^ room[15:0];
    s = d | (d >> 1);
    s = s | (s >> 2);
    s = s | (s >> 4);
    s = s | (s >> 8);
    // s[i]: some bit at or above i differs; the first difference from the top has n set there
    fits = room[33:16] != 18'd0 || (n & ~room[15:0] & ~(s >> 1)) == 16'd0;
  endfunction

  always_comb begin
    op   = h_q.opcode;
    plen = h_q.payload_len;
    pl2  = (q_e.pmtu_log2 < 8'd8) ? 4'd8 : (q_e.pmtu_log2 > 8'd12) ? 4'd12 : q_e.pmtu_log2[3:0];
    pmtu = 17'd1 << pl2;
    psn_d = h_q.psn - q_st.epsn;
    qp_ok = q_hit && q_e.valid[0] && q_e.rx_enable[0];
    {is_ack, is_rc_req, is_rr, ud_op, rd_req, atomic, is_write, is_send, wstart, starts, lastish,
     needs_rq, has_imm, len_full, len_last, len_only, cont_w, cont_s} = opd_q;
    inorder = h_q.psn == q_st.epsn;   // (psn_d == 0 without the subtraction in front)
    dup     = psn_d[23];
    ahead   = !inorder && !dup;
    ud_qp  = q_e.qp_type == rnic_spec_pkg::QP_TYPE_UD;
    seq_ok = (q_st.msg == xport_rx_pkg::MsgIdle && starts)
          || (q_st.msg == xport_rx_pkg::MsgWrite && cont_w)
          || (q_st.msg == xport_rx_pkg::MsgSend && cont_s);
    for (int j = 0; j < NPm; j++)
      pl_oh[j] = (j == 0) ? q_e.pmtu_log2 <= 8'd8 : (j == NPm - 1) ? q_e.pmtu_log2 >= 8'(8 + j) :
                 q_e.pmtu_log2 == 8'(8 + j);
    len_ok = |(pl_oh & hlen_ok_q);
    if (is_write) acc_ok = q_e.access[3'(rnic_spec_pkg::ACCESS_REMOTE_WRITE)];
    else if (rd_req) acc_ok = q_e.access[3'(rnic_spec_pkg::ACCESS_REMOTE_READ)];
    else if (atomic) acc_ok = q_e.access[3'(rnic_spec_pkg::ACCESS_REMOTE_ATOMIC)];
    else acc_ok = 1'b1;
    rem0 = wstart ? h_q.dma_len : q_st.rem;
    // the length checks as compares in parallel, picked by the opcode class (timing: the class
    // ahead of an adder and a compare, then the decision, was the block's longest path); a
    // message's first packet against its own header, registered with it
    wlen_ok = wstart ? hwlen_ok_q : {16'd0, plen} <= q_st.rem && (!lastish || {16'd0, plen} == q_st.rem);
    boff = starts ? 32'd0 : q_st.bcnt;
    // a SEND's continuing packet against the buffer's bytes left, kept in the state's va field
    // (unused by a SEND; timing: bcnt + plen <= size put an adder's chain and a compare's chain in
    // series behind the state and rq-slot RAMs, then the decision: 9 levels in the core). The rq
    // slot does not change within a message (consumed at its end; a post to a full ring replaces
    // the newest slot, never the head), so size - bcnt is the same value. The two compares are
    // picked by AND/OR, not a mux: Yosys (opt_share) merges compares picked by a mux into one
    // behind a mux of their operands, a LUT level ahead of the compare.
    slen_ok = (starts && fits(plen, buf_total)) || (!starts && fits(plen, q_st.va[33:0]));
    sroom = (starts ? buf_total : q_st.va[33:0]) - 34'(plen);
    ud_fits = 34'(plen) + 34'(UdGrhBytes) <= buf_total;
    // one sum per PMTU, picked after the carry chains by AND/OR (timing: the PMTU decode from the
    // QP-table RAM ahead of the adder, then the state's multiplexer, mapped at 9 LUT levels in a
    // larger core; a mux would let opt_share fold the sums back into one behind it)
    rd_epsn = '0;
    for (int j = 0; j < NPm; j++) if (pl_oh[j]) rd_epsn = rd_epsn | 24'(q_st.epsn + hnpk_q[24*j +: 24]);
    aa = aack_q && m_hit_q;   // ATOMIC ACKNOWLEDGE of an atomic's context (SRrM match)
    // NAK invalid request (IBTA): opcode sequence, length, atomic alignment, or a new READ or
    // atomic beyond the QP's responder resources
    e_inv = !seq_ok || !len_ok || (is_write && !wlen_ok) || (atomic && h_q.va[2:0] != 3'd0) ||
            ((rd_req || atomic) && {2'b0, rsc_cnt_i} >= q_e.max_dest_rd_atomic);
    ack_now = lastish || h_q.ack_req ||
              (q_e.ack_coalesce != 8'd0 && (9'(q_st.ack_cnt) + 9'd1) >= 9'(q_e.ack_coalesce));
  end

  // ---- READ response / ATOMIC ACKNOWLEDGE: matched context and its arithmetic (two stages) ------
  // These packets pass SRrM and SRrA before SCls (+2 cycles for them only; other packets go
  // straight to SCls and do not look at these registers). The registers load every cycle; their
  // inputs (h_q, the held QP-table read, the READ contexts) do not change from SRrM to SCls:
  // READ descriptors and QP-table writes are taken only in SIdle, contexts advance only in SFin,
  // and rr_stat_q changes by a settle in SSync or SIdle only, before SRrM (rr_stok_q: its status
  // registered in SRrA; SCls also reads it itself for rr_nst_q).
  // The READ-gap search in two of these stages (timing: the 24-bit QPN compare, the PSN
  // difference's sign and the pick over the contexts in series were the core's deepest path,
  // 8-9 LUT levels from rr_nxt_q into g_idx_q/g_hit_q): the per-context test registered from
  // SRrM (g_vec_q), the lowest-index pick from that in SRrA. SCls, the only reader of
  // g_hit_q/g_idx_q (rr_gap_set, the READ_GAP event), sees the same values as with one stage.
  always_comb begin
    g_hit = 1'b0; g_idx = '0;
    // the loop only with a context flagged (with none it leaves both at 0: the same function;
    // the model would run it on every cycle, docs/sim-speed.md, step 21)
    if (g_vec_q != '0) for (int i = MaxReads - 1; i >= 0; i--)
      if (g_vec_q[i]) begin
        g_hit = 1'b1; g_idx = RrW'(i);
      end
  end
  always_ff @(posedge clk_i) begin
    m_hit_q <= m_hit; m_idx_q <= m_idx; g_vec_q <= g_vec; g_hit_q <= g_hit; g_idx_q <= g_idx;
    for (int j = 0; j < NPm; j++) rr_pl_oh_q[j] <= 32'(pl2) == 8 + j;
    rr_pmsk_q <= 12'(pmtu - 17'd1);
    rr_pm1_q <= 12'(h_q.payload_len - 16'd1);
    rr_pz_q <= h_q.payload_len == 16'd0;
    rr_pfit_q <= {1'b0, h_q.payload_len} <= pmtu;
    rr_peq_q <= {1'b0, h_q.payload_len} == pmtu;
    rr_seq_ok_q <= rr_seq_ok; rr_len_ok_q <= rr_len_ok; rr_lastp_q <= rr_lastp;
    rr_lenerr_v_q <= rr_lenerr; rr_off_v_q <= rr_off; rr_plen_q <= rr_plen;
    rr_stok_q <= rr_stat_q[8*32'(m_idx_q) +: 8] == rnic_spec_pkg::WC_STATUS_SUCCESS;
  end
  always_comb begin
    aa_m = aack_q && m_hit_q;   // (aack_q: h_q.opcode == OpAtomicAck, registered with it)
    m_d = rr_d_q[m_idx_q];
    m_x = rr_x_q[m_idx_q];
    m_or = rr_or_q[m_idx_q];
    rr_lpsn = '0;
    for (int j = 0; j < NPm; j++) if (rr_pl_oh_q[j]) rr_lpsn = rr_lpsn | m_x[24*j +: 24];
    {rr_krsm, rr_tot, rr_lz, rr_lm1} = m_x[RxW-1:NPm*24];
    // (the matched context expects this PSN: it is the resume point until the context advances)
    rr_firstp = rr_atb_q[m_idx_q];
    rr_lastp = h_q.psn == rr_lpsn;
    // A resumed READ (a retry from mid-message) may also be answered with a replay that goes on
    // with the original message's opcodes: Linux rxe answers such a duplicate READ with MIDDLE
    // or LAST at the resume PSN (docs/interop.md). PSN and length checks apply as for FIRST/ONLY.
    rr_seq_ok = (h_q.opcode == OpRrFirst && rr_firstp && !rr_lastp) || (h_q.opcode == OpRrMiddle && !rr_firstp && !rr_lastp) ||
                (h_q.opcode == OpRrLast && !rr_firstp && rr_lastp) || (h_q.opcode == OpRrOnly && rr_firstp && rr_lastp) ||
                (m_or[32] && rr_firstp && ((h_q.opcode == OpRrMiddle && !rr_lastp) || (h_q.opcode == OpRrLast && rr_lastp)));
    // the last response carries length - (packets - 1) * PMTU = ((length - 1) mod PMTU) + 1
    // bytes (0 for a zero-length READ)
    rr_rest_ok = rr_lz ? rr_pz_q : !rr_pz_q && rr_pfit_q && ((rr_pm1_q ^ rr_lm1) & rr_pmsk_q) == 12'd0;
    rr_len_ok = rr_lastp ? rr_rest_ok : rr_peq_q;
    // all responses before this one carried a full PMTU: a resumed READ continues at k * PMTU
    // (a resumed context expects its resume PSN: k = resume_psn - first_psn)
    // (the shift by the PMTU as a one-hot select of five constant shifts: 4 LUT levels as a
    // variable shift in front of rr_lenerr's add and compare)
    rr_krs_sh = '0;
    for (int j = 0; j < NPm; j++) if (rr_pl_oh_q[j]) rr_krs_sh = rr_krs_sh | (32'(rr_krsm) << (8 + j));
    rr_off = m_or[32] ? rr_krs_sh : m_or[31:0];
    rr_avail = (34'(rr_off) < rr_tot) ? rr_tot - 34'(rr_off) : 34'd0;
    // an ATOMIC ACKNOWLEDGE places its 8-byte original value (its payload stream is empty);
    // more than the SGEs' bytes left: need > avail, i.e. need + off > total unless need is 0
    // (the compare does not wait for avail: one adder level less behind rr_off)
    rr_need = aa_m ? 16'd8 : h_q.payload_len;
    rr_lenerr = (aa_m || !rr_pz_q) && 35'(rr_need) + 35'(rr_off) > 35'(rr_tot);
    rr_plen = rr_lenerr ? rr_avail[15:0] : rr_need;
  end

  // Decision for the packet (valid in state SCls).
  logic        c_ack, c_evt, c_rd, c_wb, c_rqclr, c_chk, c_place, c_rr, c_ud;
  logic        c_atq;   // the event is an ATOMIC_REQ (c_ev.kind), set beside it, not compared after it
  logic        c_slb, slb_q;   // a SEND past its buffer: its state is set the cycle after SCls
  logic [23:0] c_ack_psn, c_ack_msn;
  logic [7:0]  c_ack_syn;
  logic [xport_rx_pkg::NumCnt-1:0] c_cnt;  // the counter the packet increments, one-hot
  rnic_spec_pkg::rx_event_t c_ev;
  xport_rx_pkg::qp_state_t  c_st;

  always_comb begin
    c_ack = 1'b0; c_evt = 1'b0; c_rd = 1'b0; c_wb = 1'b0; c_rqclr = 1'b0; c_chk = 1'b0;
    c_place = 1'b0; c_cnt = '0; c_rr = 1'b0; c_ud = 1'b0; c_atq = 1'b0;
    c_ack_psn = h_q.psn; c_ack_msn = q_st.msn; c_ack_syn = SynAck;
    c_st = q_st;
    c_ev = '0;
    c_ev.qpn = {8'd0, h_q.dest_qp};
    c_ev.psn = {8'd0, h_q.psn};
    c_ev.msn = {8'd0, q_st.msn};
    c_ev.opcode = op;   // request opcode (rx_event.opcode)
    if (!qp_ok) begin
      c_cnt[xport_rx_pkg::CntBadQp] = 1'b1;
    end else if (is_ack && !aa) begin
      c_evt = 1'b1;
      c_ev.syndrome = h_q.syndrome;
      c_ev.msn = {8'd0, h_q.msn};
      if (op == OpAtomicAck) begin
        c_ev.kind = rnic_spec_pkg::RX_EVENT_KIND_ATOMIC_ACK;
        c_ev.swap_add = h_q.orig;
      end else if (h_q.syndrome[6:5] == 2'b00) c_ev.kind = rnic_spec_pkg::RX_EVENT_KIND_ACK;
      else if (h_q.syndrome[6:5] == 2'b01) c_ev.kind = rnic_spec_pkg::RX_EVENT_KIND_RNR_NAK;
      else c_ev.kind = rnic_spec_pkg::RX_EVENT_KIND_NAK;
    end else if (is_rr || aa) begin
      // READ response (requester side): the next PSN of an outstanding READ of this QP; or the
      // ATOMIC ACKNOWLEDGE of an atomic's context (one packet, done at once)
      if (!m_hit_q || (!aa && (!rr_seq_ok_q || !rr_len_ok_q))) begin
        c_cnt[xport_rx_pkg::CntRdRsp] = 1'b1;
        if (rr_gap_set) begin
          // READ_GAP: the requester re-issues the READ from the missing PSN at once
          c_evt = 1'b1;
          c_ev.kind = rnic_spec_pkg::RX_EVENT_KIND_READ_GAP;
          c_ev.psn = {8'd0, rr_nxt_q[24*32'(g_idx_q) +: 24]};
        end
      end else begin
        c_rr = 1'b1;
        c_place = rr_stok_q && rr_plen_q != 16'd0;
        c_evt = rr_lastp_q || aa;
        c_ev.kind = aa ? rnic_spec_pkg::RX_EVENT_KIND_ATOMIC_ACK : rnic_spec_pkg::RX_EVENT_KIND_READ_RESP_DONE;
        c_ev.swap_add = aa ? h_q.orig : 64'd0;
        c_ev.syndrome = h_q.syndrome;
        c_ev.msn = {8'd0, h_q.msn};
      end
    end else if (ud_qp && ud_op) begin
      // UD datagram: Q_Key and a posted buffer, else dropped silently; no PSN rules, no ACK.
      // The buffer gets the 40-byte GRH area (the IPv4 header in its last 20 bytes), then the
      // payload; a buffer too small completes with LOC_LEN_ERR.
      if (h_q.qkey != q_e.qkey || !q_rqv) begin
        c_cnt[xport_rx_pkg::CntUd] = 1'b1;
      end else begin
        c_ud = 1'b1;
        c_wb = 1'b1;
        c_rqclr = 1'b1;
        c_place = ud_fits;
        c_evt = 1'b1;
        c_ev.kind = rnic_spec_pkg::RX_EVENT_KIND_RECV_DONE;
        c_ev.status = ud_fits ? rnic_spec_pkg::WC_STATUS_SUCCESS : rnic_spec_pkg::WC_STATUS_LOC_LEN_ERR;
        c_ev.wr_id = q_rqd.wr_id;
        c_ev.byte_len = ud_fits ? 32'(plen) + UdGrhBytes : 32'd0;
        c_ev.imm_data = op == OpUdSendImm ? roce_pkg::be32(h_q.imm) : 32'd0;
        c_ev.flags = {5'd0, h_q.se, 1'b1, op == OpUdSendImm};
        c_ev.src_qpn = {8'd0, h_q.src_qp};
      end
    end else if (!is_rc_req || q_e.qp_type != rnic_spec_pkg::QP_TYPE_RC || q_st.err) begin
      c_cnt[xport_rx_pkg::CntUnsup] = 1'b1;
    end else if (ahead) begin
      c_cnt[xport_rx_pkg::CntOoo] = 1'b1;
      if (!q_st.nak_sent) begin
        c_ack = 1'b1; c_ack_psn = q_st.epsn; c_ack_syn = SynPsnSeq;
        c_st.nak_sent = 1'b1; c_wb = 1'b1;
      end
    end else if (dup) begin
      c_cnt[xport_rx_pkg::CntDup] = 1'b1;
      if (rd_req) c_rd = 1'b1;           // re-execute the READ
      else if (atomic) begin             // firmware replays the saved ATOMIC ACKNOWLEDGE
        c_evt = 1'b1; c_atq = 1'b1;
        c_ev.kind = rnic_spec_pkg::RX_EVENT_KIND_ATOMIC_REQ;
        c_ev.va = h_q.va; c_ev.swap_add = h_q.swap_add; c_ev.compare = h_q.compare;
      end else begin
        c_ack = 1'b1; c_ack_psn = q_st.epsn - 24'd1;
      end
    end else begin
      c_wb = 1'b1;
      c_st.nak_sent = 1'b0;
      if (e_inv) begin
        c_ack = 1'b1; c_ack_syn = SynInvReq;
        c_evt = 1'b1; c_ev.kind = rnic_spec_pkg::RX_EVENT_KIND_RESP_ERROR;
        c_ev.status = rnic_spec_pkg::WC_STATUS_REM_INV_REQ_ERR;
        c_st.err = 1'b1;
        c_cnt[xport_rx_pkg::CntAccess] = 1'b1;
      end else if (!acc_ok) begin
        c_ack = 1'b1; c_ack_syn = SynRemAcc;
        c_evt = 1'b1; c_ev.kind = rnic_spec_pkg::RX_EVENT_KIND_RESP_ERROR;
        c_ev.status = rnic_spec_pkg::WC_STATUS_REM_ACCESS_ERR;
        c_st.err = 1'b1;
        c_cnt[xport_rx_pkg::CntAccess] = 1'b1;
      end else if (needs_rq && !q_rqv) begin
        c_ack = 1'b1; c_ack_syn = {3'b001, q_e.min_rnr_timer[4:0]};
        c_evt = 1'b1; c_ev.kind = rnic_spec_pkg::RX_EVENT_KIND_RNR_SENT;
        c_st.nak_sent = 1'b1;
        c_cnt[xport_rx_pkg::CntRnr] = 1'b1;
      end else if (rd_req) begin
        // R_Key, bounds and REMOTE_READ before the PSN advances (IBTA: a zero-length READ is
        // not checked); a failure NAKs here and no READ job is issued
        c_chk = hdnz_q;   // (h_q.dma_len != 0)
        c_rd = 1'b1;
        c_st.epsn = rd_epsn;
        c_st.msn = q_st.msn + 24'd1;
        c_st.ack_cnt = 8'd0;
      end else if (atomic) begin
        c_chk = 1'b1;
        c_evt = 1'b1; c_atq = 1'b1; c_ev.kind = rnic_spec_pkg::RX_EVENT_KIND_ATOMIC_REQ;
        c_ev.swap_add = h_q.swap_add; c_ev.compare = h_q.compare; c_ev.byte_len = 32'd8;
        c_ev.msn = {8'd0, q_st.msn + 24'd1};
        c_st.epsn = q_st.epsn + 24'd1;
        c_st.msn = q_st.msn + 24'd1;
        c_st.ack_cnt = 8'd0;
      end else begin
        // WRITE / SEND packet: check (FIRST/ONLY WRITE), place, acknowledge. A zero-length
        // WRITE (ONLY; a FIRST is never empty) is not checked: C9-88, R_Key and VA are ignored.
        // (a SEND past its buffer: c_slb below)
        c_st.epsn = q_st.epsn + 24'd1;
        c_st.va = is_send ? 64'(sroom) : (wstart ? h_q.va : q_st.va) + 64'(plen);
        c_st.rkey = wstart ? h_q.rkey : q_st.rkey;
        c_st.rem = rem0 - {16'd0, plen};
        c_st.bcnt = boff + {16'd0, plen};
        c_st.msg = lastish ? xport_rx_pkg::MsgIdle : (is_write ? xport_rx_pkg::MsgWrite : xport_rx_pkg::MsgSend);
        if (lastish) c_st.msn = q_st.msn + 24'd1;
        c_chk = wstart && hdnz_q;   // (h_q.dma_len != 0)
        c_place = hpnz_q;           // (plen != 0)
        if (ack_now) begin
          c_ack = 1'b1; c_ack_msn = lastish ? q_st.msn + 24'd1 : q_st.msn;
          c_st.ack_cnt = 8'd0;
        end else begin
          c_st.ack_cnt = q_st.ack_cnt + 8'd1;
        end
        if (lastish && (is_send || has_imm)) begin
          c_evt = 1'b1;
          c_ev.kind = is_send ? rnic_spec_pkg::RX_EVENT_KIND_RECV_DONE : rnic_spec_pkg::RX_EVENT_KIND_WRITE_IMM_DONE;
          c_ev.wr_id = q_rqd.wr_id;
          c_ev.byte_len = boff + {16'd0, plen};
          // Kept in wire byte order, as the spec field (and verbs) want it.
          c_ev.imm_data = has_imm ? roce_pkg::be32(h_q.imm) : 32'd0;
          c_ev.flags = {5'd0, h_q.se, 1'b0, has_imm};
          c_ev.msn = {8'd0, q_st.msn + 24'd1};
          c_rqclr = 1'b1;
        end
      end
    end
    // A SEND past its buffer: NAK invalid request, LOC_LEN_ERR, decided after the chain above
    // (which takes the SEND as fitting) with its reach as one AND beside it (timing: slen_ok behind
    // the rq-slot RAM, as a branch of the chain, was 9 levels into ev_q, state_q and stn_q in the
    // core; a SEND is an RC request, not an ACK, READ response or UD datagram, and in order is
    // neither ahead nor a duplicate). c_st stays the fitting packet's: stn_q takes the QP's state,
    // in error, a cycle after SCls (slb_q; stn_q is read no earlier than SWb, two cycles later).
    c_slb = is_send && qp_ok && q_e.qp_type == rnic_spec_pkg::QP_TYPE_RC && !q_st.err && inorder &&
            !e_inv && acc_ok && !(needs_rq && !q_rqv) && !slen_ok;
    if (c_slb) begin
      c_place = 1'b0;
      c_ack = 1'b1; c_ack_msn = q_st.msn; c_ack_syn = SynInvReq;
      c_evt = 1'b1; c_ev.kind = rnic_spec_pkg::RX_EVENT_KIND_RESP_ERROR;
      c_ev.status = rnic_spec_pkg::WC_STATUS_LOC_LEN_ERR;
      c_ev.wr_id = q_rqd.wr_id;
      c_ev.byte_len = boff + {16'd0, plen};
      c_ev.imm_data = 32'd0; c_ev.flags = 8'd0; c_ev.msn = {8'd0, q_st.msn};
      c_rqclr = 1'b1;
      c_cnt[xport_rx_pkg::CntAccess] = 1'b1;
    end
  end

  // ---- placement chunk (combinational from the placement registers) ----------------------------
  logic        pl_write_q, pl_send_q, pl_ud_q;
  logic [15:0] pl_rem_q;
  logic [63:0] pl_va_q;
  logic [31:0] pl_off_q;
  // the packet's end in the buffer, pl_off_q + pl_rem_q (a piece moves both by its bytes), set
  // with them (timing: "the SGE ends before the packet does" compares an SGE end with it instead
  // of the SGE's bytes left, which waited for the SGE pick, with pl_rem_q)
  logic [33:0] pl_end_q;
  logic [63:0] ch_va;
  logic [31:0] ch_key;
  logic [15:0] ch_len;
  logic [31:0] ch_n;
  logic [15:0] ch_n_first;
  logic        pl_rd_q;
  // The SGE list of the buffer being placed, registered once per packet (timing: the prefix sums
  // behind the RAM read made the placement piece the block's longest path): SGE i holds message
  // bytes [start(i), sgt_end(i)) and starts at host address sgt_base(i) + start(i). The SGEs
  // past num_sge are summed too, their lengths as the descriptor holds them (timing: the
  // num_sge compare in front of the adds was 8 LUT levels alone, 9 in the core): SGEs below
  // num_sge get the same ends and bases as with those lengths zeroed, and a piece is placed
  // only with the cursor inside the buffer (pl_rem_q != 0 and the length checks: cursor + rest
  // <= the buffer's bytes, the sum of its num_sge SGE lengths), so the pick below, the first
  // SGE ending beyond the cursor, is always below num_sge. Loaded in SRrA from the matched READ
  // context (READ responses, ATOMIC ACKNOWLEDGE) and in SCls from the rq slot (every other
  // packet); neither source changes before the packet's placement ends (see the SRrM/SRrA note
  // above).
  logic [NSge*34-1:0] sgt_end_q, sgt_end_d;
  logic [NSge*64-1:0] sgt_base_q, sgt_base_d;
  logic [NSge*32-1:0] sgt_key_q, sgt_key_d;
  logic [NSge*34-1:0] sgt_l;
  logic [NSge*64-1:0] sgt_a;
  logic               sgt_rd, sgt_load, sgt_rd_q;
  // state_q == SRrA a cycle early (SRrM always goes on to SRrA): the source select from a flop
  // (timing: the state decode led the prefix sums, 9 LUT levels in the core)
  always_ff @(posedge clk_i or negedge rst_ni)
    if (!rst_ni) sgt_rd_q <= 1'b0;
    else sgt_rd_q <= state_q == SRrM;
  always_comb begin
    sgt_rd = sgt_rd_q;
    sgt_load = sgt_rd || (state_q == SCls && !h_rrm);
    for (int i = 0; i < NSge; i++) begin
      if (sgt_rd) begin
        sgt_l[34*i +: 34] = 34'(m_d[RdL0 + SgeBits * i +: 32]);
        sgt_a[64*i +: 64] = m_d[RdA0 + SgeBits * i +: 64];
        sgt_key_d[32*i +: 32] = m_d[RdK0 + SgeBits * i +: 32];
      end else begin
        sgt_l[34*i +: 34] = 34'(q_rqd[RqL0 + SgeBits * i +: 32]);
        sgt_a[64*i +: 64] = q_rqd[RqA0 + SgeBits * i +: 64];
        sgt_key_d[32*i +: 32] = q_rqd[RqK0 + SgeBits * i +: 32];
      end
    end
    // The prefix sums as a tree (timing: chained, SGE 3's end was three adds behind the source
    // select): end(i) = len(0) + ... + len(i) by Sklansky's parallel prefix (log2(NSge) adds
    // deep); base(i) = addr(i) - end(i-1), taken as (addr(i) - len(i-1)) - end(i-2) so that
    // it is no deeper than the ends.
    sgt_end_d = sgt_l;
    for (int k = 1; k < NSge; k = k * 2)
      for (int i = 0; i < NSge; i++)
        if ((i & k) != 0)
          sgt_end_d[34*i +: 34] = sgt_end_d[34*i +: 34] + sgt_end_d[34*((i / k) * k - 1) +: 34];
    for (int i = 0; i < NSge; i++) begin
      if (i == 0) sgt_base_d[64*i +: 64] = sgt_a[64*i +: 64];
      else if (i == 1) sgt_base_d[64*i +: 64] = sgt_a[64*i +: 64] - 64'(sgt_l[0 +: 34]);
      else sgt_base_d[64*i +: 64] = (sgt_a[64*i +: 64] - 64'(sgt_l[34*(i-1) +: 34])) -
                                    64'(sgt_end_d[34*(i-2) +: 34]);
    end
  end
  always_ff @(posedge clk_i)
    if (sgt_load) begin
      sgt_end_q <= sgt_end_d; sgt_base_q <= sgt_base_d; sgt_key_q <= sgt_key_d;
    end

  // The piece at the cursor, flat: every SGE's bytes left after the cursor and its piece length
  // (the smallest of that, the packet's rest and (UD) the GRH area's rest) in parallel, then a
  // pick of the first SGE ending beyond the cursor (the last one if none: the length checks keep
  // the cursor inside the buffer).
  logic [NSge-1:0]    sg_in, sg_oh, sg_lt;
  logic [NSge*34-1:0] sg_left;
  logic [63:0]        sg_base;
  logic               ud_cut, rem_gt_cap;
  logic [NSge-1:0]    sg_gt;   // the SGE ends beyond the UD GRH area
  logic [15:0]        ud_cap;
  logic [NSge*16-1:0] sg_len;  // the piece's length if SGE i is the one at the cursor
  logic [NSge-1:0]    sg_ud;   // ... and it is cut at the UD GRH area's end
  always_comb begin
    for (int i = 0; i < NSge; i++) begin
      sg_in[i] = 34'(pl_off_q) < sgt_end_q[34*i +: 34];
      sg_left[34*i +: 34] = sgt_end_q[34*i +: 34] - 34'(pl_off_q);
      sg_lt[i] = sgt_end_q[34*i +: 34] < pl_end_q;
      sg_gt[i] = sgt_end_q[34*i +: 34] > 34'(UdGrhBytes);
    end
    for (int i = 0; i < NSge; i++) begin
      sg_oh[i] = (i == NSge - 1) || sg_in[i];
      for (int j = 0; j < i; j++) if (sg_in[j]) sg_oh[i] = 1'b0;
    end
    sg_base = '0; ch_key = '0;
    for (int i = 0; i < NSge; i++)
      if (sg_oh[i]) begin
        sg_base = sg_base | sgt_base_q[64*i +: 64];
        ch_key  = ch_key | sgt_key_q[32*i +: 32];
      end
    // UD: the GRH area comes from the header, the payload from the stream: a chunk holds one
    ud_cut = pl_ud_q && pl_off_q < UdGrhBytes;
    ud_cap = 16'(UdGrhBytes - pl_off_q);
    // Where they are used (a piece to place: the cursor inside the buffer, so SGE i, if picked,
    // ends beyond it; UD cut: the cursor below the GRH area's end) sg_lt[i], sg_gt[i] and
    // rem_gt_cap are SGE i's bytes left < pl_rem_q, its bytes left > ud_cap and
    // pl_rem_q > ud_cap, without the subtraction in front of the compare. Every SGE's piece
    // length is ready before the pick (timing: the pick, then the smallest and the UD cut behind
    // it, was 9 LUT levels from pl_off_q into mkey_check's len1_q in the core); the pick by
    // sg_in is sg_oh's SGE.
    rem_gt_cap = pl_end_q > 34'(UdGrhBytes);
    for (int i = 0; i < NSge; i++) begin
      sg_ud[i] = ud_cut && (sg_lt[i] ? sg_gt[i] : rem_gt_cap);
      // (a WRITE's piece is the packet's rest: its candidates all are, so the pick passes it)
      sg_len[16*i +: 16] = (!pl_write_q && sg_ud[i]) ? ud_cap :
                           (!pl_write_q && sg_lt[i]) ? sg_left[34*i +: 16] : pl_rem_q;
    end
    ch_len = sg_len[16*(NSge-1) +: 16];
    for (int i = NSge - 2; i >= 0; i--) if (sg_in[i]) ch_len = sg_len[16*i +: 16];
    if (pl_write_q) begin
      ch_va = pl_va_q; ch_key = stn_q.rkey;
    end else begin
      ch_va = sg_base + 64'(pl_off_q);
    end
    ch_n = (rsp_page_left < {16'd0, ch_len_q}) ? rsp_page_left : {16'd0, ch_len_q};
    // first piece of a WRITE FIRST/ONLY straight from the message check (same va)
    ch_n_first = (mk_rsp_page_left_i < {16'd0, pl_rem_q}) ? mk_rsp_page_left_i[15:0] : pl_rem_q;
  end

  // ---- mkey / DMA request ports -----------------------------------------------------------------
  logic [15:0] ch_len_q;
  logic [63:0] ch_addr_q;
  logic        is_atomic_q;
  // state_q == SDmaReq in a flop of its own, set and cleared with the state (timing: the DMA
  // write request valid leaves the block from a flop, not through the state decode, on the
  // path into the DMA arbiter and back through its ready)
  logic        dwr_q;
  // Lookahead: while a piece's payload is fed, the lookup of the next piece of the same packet
  // (page or SGE split) is already issued; its response is kept until the feed ends.
  logic        la_q, la_v_q, la_issue;
  logic [2:0]  la_st_q;
  logic [63:0] la_addr_q;
  logic [31:0] la_pl_q;
  logic        rsp_valid;
  logic [2:0]  rsp_status;
  logic [63:0] rsp_addr;
  logic [31:0] rsp_page_left;
  assign la_issue      = state_q == SFeed && pl_rem_q != 16'd0 && !la_q && !la_v_q;
  assign rsp_valid     = la_v_q || mk_rsp_valid_i;
  assign rsp_status    = la_v_q ? la_st_q : mk_rsp_status_i;
  assign rsp_addr      = la_v_q ? la_addr_q : mk_rsp_addr_i;
  assign rsp_page_left = la_v_q ? la_pl_q : mk_rsp_page_left_i;

  always_comb begin
    mk_req_valid_o  = state_q == SChk || state_q == SPlReq || la_issue;
    mk_req_pdn_o    = q_e.pdn;
    mk_req_tag_o    = '0;
    if (state_q == SChk) begin
      mk_req_key_o    = h_q.rkey;
      mk_req_va_o     = h_q.va;
      mk_req_len_o    = is_atomic_q ? 32'd8 : h_q.dma_len;
      mk_req_access_o = is_atomic_q ? AccRemAt : rd_req ? AccRemRd : AccRemWr;
      mk_req_local_o  = 1'b0;
    end else begin
      mk_req_key_o    = ch_key;
      mk_req_va_o     = ch_va;
      mk_req_len_o    = {16'd0, ch_len};
      mk_req_access_o = pl_write_q ? AccRemWr : AccLocWr;
      mk_req_local_o  = !pl_write_q;
    end
  end
  assign mk_rsp_ready_o     = state_q == SChkW || (state_q == SPlRsp && !la_v_q) || (state_q == SFeed && la_q);
  assign dma_wr_req_valid_o = dwr_q;
  assign dma_wr_req_addr_o  = ch_addr_q;
  assign dma_wr_req_len_o   = {16'd0, ch_n_q};
  assign dma_wr_req_tag_o   = '0;
  assign dma_wr_cpl_ready_o = 1'b1;
  assign feed_drain         = state_q == SDrain;

  // ---- outputs ------------------------------------------------------------------------------------
  logic        ack_v_q, evt_v_q, rd_v_q;
  logic        p_ack_q, p_evt_q, p_rd_q, p_wb_q, p_rqclr_q, p_place_q, p_rr_q, rr_lenerr_q, rd_new_q;
  logic [7:0]  rr_nst_q, rr_fin;
  assign rr_fin = (rr_nst_q != rnic_spec_pkg::WC_STATUS_SUCCESS) ? rr_nst_q :
                  rr_lenerr_q ? rnic_spec_pkg::WC_STATUS_LOC_LEN_ERR : rnic_spec_pkg::WC_STATUS_SUCCESS;
  logic [23:0] ack_psn_q, ack_msn_q, ack_qpn_q, fail_psn_q;
  logic [7:0]  ack_syn_q;
  logic        ack_hold_q, evt_gate;
  rnic_spec_pkg::rx_event_t ev_q;
  logic        fail_q, dma_err_q;
  logic [7:0]  fail_syn_q, fail_status_q;
  logic [7:0]  out_cnt_q;
  logic [32*xport_rx_pkg::NumCnt-1:0] cnt_q;

  assign ack_valid_o    = ack_v_q;
  assign ack_qpn_o      = ack_qpn_q;
  assign ack_psn_o      = ack_psn_q;
  assign ack_syndrome_o = ack_syn_q;
  assign ack_msn_o      = ack_msn_q;
  assign ack_hold_o     = ack_hold_q;
  // an atomic's event waits for its marker job: the transmit engine must know of the atomic
  // before the firmware can answer it (responses leave in PSN order, xport_tx)
  assign evt_gate       = ack_v_q && ack_hold_q;
  assign evt_valid_o    = evt_v_q && !evt_gate;
  assign evt_o          = ev_q;
  assign rdrsp_valid_o  = rd_v_q;
  assign rdrsp_qpn_o    = h_q.dest_qp;
  assign rdrsp_psn_o    = h_q.psn;
  assign rdrsp_va_o     = h_q.va;
  assign rdrsp_rkey_o   = h_q.rkey;
  assign rdrsp_len_o    = h_q.dma_len;
  assign rdrsp_msn_o    = stn_q.msn;
  assign rdrsp_new_o    = rd_new_q;
  assign rsc_qpn_o      = h_q.dest_qp;
  assign st_we          = state_q == SWb && p_wb_q;
  assign rqv_clr        = p_rqclr_q;
  assign dma_req_fire   = dwr_q && dma_wr_req_ready_i;
  assign pl_aa          = pl_rd_q && aack_q;
  assign hs_chunk       = (pl_ud_q && pl_off_q < UdGrhBytes) || pl_aa;
  assign feed_chunk     = dma_req_fire && !hs_chunk;

  assign cnt_o = cnt_q;

  // ---- main FSM -----------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= SIdle;
      h_q <= '0; stn_q <= '0;
      ack_v_q <= 1'b0; evt_v_q <= 1'b0; rd_v_q <= 1'b0;
      p_ack_q <= 1'b0; p_evt_q <= 1'b0; p_rd_q <= 1'b0; p_wb_q <= 1'b0; p_rqclr_q <= 1'b0; rd_new_q <= 1'b0;
      p_place_q <= 1'b0; is_atomic_q <= 1'b0; dwr_q <= 1'b0; slb_q <= 1'b0;
      p_rr_q <= 1'b0; rr_lenerr_q <= 1'b0; rr_nst_q <= '0; rr_slot_q <= '0; pl_rd_q <= 1'b0;
      rr_v_q <= '0;
      ack_psn_q <= '0; ack_msn_q <= '0; ack_syn_q <= '0; ev_q <= '0; ack_qpn_q <= '0; fail_psn_q <= '0;
      ack_hold_q <= 1'b0;
      pend_v_q <= 1'b0; errfix_q <= 1'b0; refetch_q <= 1'b0; pend_qp_q <= '0; pend_psn_q <= '0;
      pend_rr_q <= 1'b0; pend_slot_q <= '0;
      fail_q <= 1'b0; dma_err_q <= 1'b0; fail_syn_q <= '0; fail_status_q <= '0; out_cnt_q <= '0;
      pl_write_q <= 1'b0; pl_send_q <= 1'b0; pl_ud_q <= 1'b0; pl_rem_q <= '0; pl_va_q <= '0; pl_off_q <= '0;
      pl_end_q <= '0;
      ch_len_q <= '0; ch_addr_q <= '0; ch_n_q <= '0;
      la_q <= 1'b0; la_v_q <= 1'b0; la_st_q <= '0; la_addr_q <= '0; la_pl_q <= '0;
    end else begin
      // DMA write completions (counted in any state)
      if (dma_wr_cpl_valid_i && dma_wr_cpl_status_i != 2'd0) dma_err_q <= 1'b1;
      if (dma_req_fire && !dma_wr_cpl_valid_i) out_cnt_q <= out_cnt_q + 8'd1;
      else if (!dma_req_fire && dma_wr_cpl_valid_i) out_cnt_q <= out_cnt_q - 8'd1;

      // READ contexts: allocation / replacement by the firmware, freed by a QP-table write
      // (qpt_fire tested once, not inside the loop: 16 compares per edge otherwise)
      if (qpt_fire)
        for (int i = 0; i < MaxReads; i++)
          if ({8'd0, rr_qpn_q[24*i +: 24]} == qpt_wr_qpn_i) rr_v_q[i] <= 1'b0;
      for (int i = 0; i < MaxReads; i++) if (w_oh[i]) rr_v_q[i] <= 1'b1;

      // a SEND past its buffer (c_slb, SCls): the QP's state, in error (no state after SCls
      // writes stn_q)
      slb_q <= state_q == SCls && c_slb;
      if (slb_q) begin
        stn_q <= q_st;
        stn_q.err <= 1'b1;
        stn_q.nak_sent <= 1'b0;
      end

      case (state_q)
        SIdle: begin
          if (hdr_fire) begin
            h_q <= hdr_i;
            // another owner's packet: settle the pending writes first
            state_q <= (pend_v_q && !pend_same) ? SSync : hdr_rrm ? SRrM : hdr_rsc ? SRsc1 : SCls;
          end else if (pend_v_q && out_cnt_q == 8'd0 && !dma_wr_cpl_valid_i) begin
            if (dma_err_q && pend_rr_q) begin
              dma_err_q <= 1'b0;  // the READ's status took it (rr_settle_err)
              pend_v_q <= 1'b0;
            end else if (dma_err_q) begin
              refetch_q <= 1'b0;
              state_q <= SErrRd;
            end else begin
              pend_v_q <= 1'b0;
            end
          end
        end
        SSync: if (out_cnt_q == 8'd0 && !dma_wr_cpl_valid_i) begin
          if (dma_err_q && pend_rr_q) begin
            dma_err_q <= 1'b0;  // the READ's status took it (rr_settle_err)
            pend_v_q <= 1'b0;
            state_q <= h_rrm ? SRrM : h_rsc ? SRsc1 : SCls;
          end else if (dma_err_q) begin
            refetch_q <= 1'b1;
            state_q <= SErrRd;
          end else begin
            pend_v_q <= 1'b0;
            state_q <= h_rrm ? SRrM : h_rsc ? SRsc1 : SCls;
          end
        end
        SErrRd: state_q <= SErrFix;
        SErrFix: begin
          // a write of an earlier packet of QP pend_qp failed: NAK its last packet, QP in error
          stn_q <= q_st;
          stn_q.err <= 1'b1;
          stn_q.nak_sent <= 1'b0;
          ack_v_q <= 1'b1; ack_qpn_q <= pend_qp_q; ack_psn_q <= pend_psn_q; ack_syn_q <= SynRemOp;
          ack_hold_q <= 1'b0;
          ack_msn_q <= q_st.msn;
          evt_v_q <= 1'b1;
          ev_q <= '0;
          ev_q.kind <= rnic_spec_pkg::RX_EVENT_KIND_RESP_ERROR;
          ev_q.status <= rnic_spec_pkg::WC_STATUS_REM_OP_ERR;
          ev_q.qpn <= {8'd0, pend_qp_q};
          ev_q.psn <= {8'd0, pend_psn_q};
          ev_q.msn <= {8'd0, q_st.msn};
          ev_q.wr_id <= (q_st.msg == xport_rx_pkg::MsgSend) ? q_rqd.wr_id : 64'd0;
          rd_v_q <= 1'b0;
          p_wb_q <= 1'b1;
          p_rqclr_q <= q_st.msg == xport_rx_pkg::MsgSend;
          errfix_q <= 1'b1;
          dma_err_q <= 1'b0;
          pend_v_q <= 1'b0;
          state_q <= SOut;
        end
        SReRd: state_q <= h_rrm ? SRrM : h_rsc ? SRsc1 : SCls;
        SRrM: state_q <= SRrA;
        SRrA: state_q <= SCls;
        SRsc1: state_q <= SRsc2;
        SRsc2: state_q <= SCls;
        SCls: begin
          stn_q <= c_st;
          p_ack_q <= c_ack; ack_psn_q <= c_ack_psn; ack_msn_q <= c_ack_msn; ack_syn_q <= c_ack_syn;
          // an atomic for the firmware (new or repeated): a marker job at its PSN
          ack_hold_q <= c_atq;
          if (c_atq) p_ack_q <= 1'b1;
          p_evt_q <= c_evt; ev_q <= c_ev;
          p_rd_q <= c_rd; p_wb_q <= c_wb; p_rqclr_q <= c_rqclr; p_place_q <= c_place;
          rd_new_q <= !dup;
          is_atomic_q <= atomic;
          fail_q <= 1'b0;
          ack_qpn_q <= h_q.dest_qp;
          fail_psn_q <= h_q.psn;
          pl_write_q <= is_write;
          pl_send_q <= is_send;
          pl_ud_q <= c_ud;
          pl_rem_q <= c_ud ? plen + UdGrhBytes[15:0] : plen;
          pl_va_q <= wstart ? h_q.va : q_st.va;
          pl_off_q <= c_ud ? 32'd0 : boff;
          pl_end_q <= c_ud ? {18'd0, plen + UdGrhBytes[15:0]} : 34'(boff) + 34'(plen);
          p_rr_q <= c_rr;
          pl_rd_q <= c_rr;
          rr_slot_q <= m_idx_q;
          rr_nst_q <= rr_stat_q[8*32'(m_idx_q) +: 8];
          rr_lenerr_q <= rr_lenerr_v_q;
          if (c_rr) begin
            pl_rem_q <= rr_plen_q;
            pl_off_q <= rr_off_v_q;
            pl_end_q <= 34'(rr_off_v_q) + 34'(rr_plen_q);
          end
          if (c_chk) state_q <= SChk;
          else if (c_place) state_q <= SPlReq;
          else state_q <= SCpl;
        end
        SChk: if (mk_req_ready_i) state_q <= SChkW;
        SChkW: if (mk_rsp_valid_i) begin
          if (mk_rsp_status_i != 3'(rnic_spec_pkg::MKEY_STATUS_OK)) begin
            fail_q <= 1'b1; fail_syn_q <= SynRemAcc;
            fail_status_q <= rnic_spec_pkg::WC_STATUS_REM_ACCESS_ERR;
            state_q <= SCpl;
          end else if (is_atomic_q) begin
            ev_q.va <= mk_rsp_addr_i;
            state_q <= SCpl;
          end else if (p_place_q) begin
            ch_addr_q <= mk_rsp_addr_i;
            ch_n_q <= ch_n_first;
            state_q <= SDmaReq; dwr_q <= 1'b1;
          end else begin
            state_q <= SCpl;
          end
        end
        SPlReq: if (mk_req_ready_i) begin
          ch_len_q <= ch_len;
          state_q <= SPlRsp;
        end
        SPlRsp: if (rsp_valid) begin
          la_q <= 1'b0; la_v_q <= 1'b0;
          if (rsp_status != 3'(rnic_spec_pkg::MKEY_STATUS_OK) && pl_rd_q) begin
            if (rr_nst_q == rnic_spec_pkg::WC_STATUS_SUCCESS) rr_nst_q <= rnic_spec_pkg::WC_STATUS_LOC_PROT_ERR;
            state_q <= SCpl;
          end else if (rsp_status != 3'(rnic_spec_pkg::MKEY_STATUS_OK)) begin
            fail_q <= 1'b1;
            fail_syn_q <= pl_write_q ? SynRemAcc : SynRemOp;
            fail_status_q <= pl_write_q ? rnic_spec_pkg::WC_STATUS_REM_ACCESS_ERR
                                        : rnic_spec_pkg::WC_STATUS_LOC_PROT_ERR;
            state_q <= SCpl;
          end else begin
            ch_addr_q <= rsp_addr;
            ch_n_q <= ch_n[15:0];
            state_q <= SDmaReq; dwr_q <= 1'b1;
          end
        end
        SDmaReq: if (dma_wr_req_ready_i) begin
          pl_rem_q <= pl_rem_q - ch_n_q;
          pl_va_q  <= pl_va_q + 64'(ch_n_q);
          pl_off_q <= pl_off_q + 32'(ch_n_q);
          state_q <= SFeed; dwr_q <= 1'b0;
        end
        SFeed: begin
          if (la_issue && mk_req_ready_i) begin
            la_q <= 1'b1;
            ch_len_q <= ch_len;
          end
          if (la_q && mk_rsp_valid_i) begin
            la_q <= 1'b0; la_v_q <= 1'b1;
            la_st_q <= mk_rsp_status_i; la_addr_q <= mk_rsp_addr_i; la_pl_q <= mk_rsp_page_left_i;
          end
          // with the next lookup issued (or answered) go straight to its response
          if (!feed_busy && !hs_act)
            state_q <= (pl_rem_q == 16'd0) ? SCpl : (la_q || la_v_q || (la_issue && mk_req_ready_i)) ? SPlRsp : SPlReq;
        end
        SCpl: begin
          if (p_rr_q && !p_evt_q) begin
            // READ response FIRST/MIDDLE: its writes stay pending until the LAST (or another
            // owner's packet); the context advances now
            pend_v_q <= 1'b1; pend_rr_q <= 1'b1; pend_slot_q <= rr_slot_q;
            pend_qp_q <= h_q.dest_qp; pend_psn_q <= h_q.psn;
            state_q <= SFin;
          end else if (!(p_ack_q || p_evt_q || p_rd_q || fail_q || p_rr_q)) begin
            // no output: do not wait, remember the packet
            if (p_place_q) begin
              pend_v_q <= 1'b1; pend_rr_q <= 1'b0; pend_qp_q <= h_q.dest_qp; pend_psn_q <= h_q.psn;
            end
            state_q <= feed_idle ? SWb : SDrain;  // fail_q is clear here: nothing for SFin to do
          end else if (out_cnt_q == 8'd0 && !dma_wr_cpl_valid_i) begin
            if (dma_err_q && p_rr_q) begin
              if (rr_nst_q == rnic_spec_pkg::WC_STATUS_SUCCESS) rr_nst_q <= rnic_spec_pkg::WC_STATUS_GENERAL_ERR;
            end else if (dma_err_q && !fail_q) begin
              fail_q <= 1'b1; fail_syn_q <= SynRemOp;
              fail_status_q <= pl_ud_q ? rnic_spec_pkg::WC_STATUS_GENERAL_ERR : rnic_spec_pkg::WC_STATUS_REM_OP_ERR;
              fail_psn_q <= p_place_q ? h_q.psn : pend_psn_q;
            end
            dma_err_q <= 1'b0;
            pend_v_q <= 1'b0;
            state_q <= SFin;
          end
        end
        SFin: begin
          if (p_rr_q) begin
            // READ response placed: advance the context; DONE event and free at LAST/ONLY
            if (p_evt_q) begin
              ev_q.status <= rr_fin;
              ev_q.byte_len <= pl_off_q;
              rr_v_q[rr_slot_q] <= 1'b0;
            end
          end else if (fail_q && pl_ud_q) begin
            // UD: the receive completes in error; no NAK, the QP goes on
            ev_q.status <= fail_status_q;
          end else if (fail_q) begin
            // the request failed: NAK, error event, QP stops accepting requests
            p_ack_q <= 1'b1; ack_psn_q <= fail_psn_q; ack_msn_q <= q_st.msn; ack_syn_q <= fail_syn_q;
            ack_hold_q <= 1'b0;
            p_evt_q <= 1'b1;
            ev_q.kind <= rnic_spec_pkg::RX_EVENT_KIND_RESP_ERROR;
            ev_q.status <= fail_status_q;
            ev_q.msn <= {8'd0, q_st.msn};
            ev_q.psn <= {8'd0, fail_psn_q};
            ev_q.wr_id <= (pl_send_q || q_st.msg == xport_rx_pkg::MsgSend) ? q_rqd.wr_id : 64'd0;
            ev_q.va <= '0;
            p_rd_q <= 1'b0;
            p_wb_q <= 1'b1;
            p_rqclr_q <= pl_send_q || q_st.msg == xport_rx_pkg::MsgSend;
            stn_q <= q_st;
            stn_q.err <= 1'b1;
            stn_q.nak_sent <= 1'b0;
          end
          state_q <= SDrain;
        end
        SDrain: if (feed_idle) begin
          ack_v_q <= p_ack_q; evt_v_q <= p_evt_q; rd_v_q <= p_rd_q;
          state_q <= (p_ack_q || p_evt_q || p_rd_q) ? SOut : SWb;
        end
        SOut: begin
          if (ack_ready_i) ack_v_q <= 1'b0;
          if (evt_ready_i && !evt_gate) evt_v_q <= 1'b0;
          if (rdrsp_ready_i) rd_v_q <= 1'b0;
          if ((!ack_v_q || ack_ready_i) && (!evt_v_q || (evt_ready_i && !evt_gate)) && (!rd_v_q || rdrsp_ready_i))
            state_q <= SWb;
        end
        SWb: begin
          errfix_q <= 1'b0;
          state_q <= (errfix_q && refetch_q) ? SReRd : SIdle;
        end
        default: state_q <= SIdle;
      endcase
    end
  end

  // Counters: the increment is registered one-hot and applied a cycle later (timing: selecting
  // and writing back counter c_cnt right behind the classification was the block's longest
  // path); each counter has its own incrementer.
  logic [xport_rx_pkg::NumCnt-1:0] cnt_inc_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt_inc_q <= '0;
      cnt_q <= '0;
    end else begin
      for (int k = 0; k < xport_rx_pkg::NumCnt; k++) begin
        cnt_inc_q[k] <= (state_q == SCls && c_cnt[k]) ||
                        (k == xport_rx_pkg::CntAccess &&
                         (state_q == SErrFix || (state_q == SFin && !p_rr_q && fail_q && !pl_ud_q)));
        if (cnt_inc_q[k]) cnt_q[32*k +: 32] <= cnt_q[32*k +: 32] + 32'd1;
      end
    end
  end

  // a failed write of an earlier response of READ context pend_slot, found while settling
  assign rr_settle_err = pend_v_q && pend_rr_q && dma_err_q && out_cnt_q == 8'd0 && !dma_wr_cpl_valid_i &&
                         (state_q == SSync || (state_q == SIdle && !hdr_fire));

  // READ context memories (no reset): allocation and per-response update. Each context has its
  // own write enables (timing: a write through the encoded index w_idx put the encoder and the
  // decoder behind the descriptor match); the descriptor RAM keeps its address.
  assign rr_gap_set = state_q == SCls && qp_ok && is_rr && !m_hit_q && g_hit_q;  // c_ev READ_GAP
  always_comb begin
    logic [31:0] len, lm1;
    logic [33:0] tot;
    logic [32*NSge-1:0] sgl;
    len = rdd_i.length;
    lm1 = len - 32'd1;
    for (int j = 0; j < NPm; j++)
      rr_x_d[24*j +: 24] = rdd_i.first_psn[23:0] + ((len == 32'd0) ? 24'd0 : 24'(lm1 >> (8 + j)));
    for (int i = 0; i < NSge; i++) sgl[32*i +: 32] = rdd_i[RdL0 + SgeBits * i +: 32];
    tot = xport_rx_pkg::sge_total(rdd_i.num_sge, (32*xport_rx_pkg::SgeTreeMax)'(sgl));
    rr_x_d[RxW-1:NPm*24] = {rdd_i.resume_psn - rdd_i.first_psn[23:0], tot, len == 32'd0, lm1[11:0]};
  end
  // The per-context loop is entered only when one of its branches can act (each branch's
  // condition implies this one): Verilator gives every context array its own copy of the loop,
  // evaluated on every clock edge otherwise (docs/sim-speed.md, step 9).
  logic rr_upd;
  assign rr_upd = rdd_fire || rr_gap_set || (state_q == SFin && p_rr_q) || rr_settle_err;
  always_ff @(posedge clk_i) begin
    if (rdd_fire) begin
      rr_d_q[w_idx] <= rdd_i;
      rr_x_q[w_idx] <= rr_x_d;
    end
    if (rdd_fire || (state_q == SFin && p_rr_q))
      rr_or_q[rdd_fire ? w_idx : rr_slot_q] <= rdd_fire ? {rdd_i.resume[0], 32'd0} : {1'b0, pl_off_q};
    if (rr_upd) for (int i = 0; i < MaxReads; i++) begin
      if (w_oh[i]) begin
        rr_qpn_q[24*i +: 24] <= rdd_i.qpn[23:0];
        rr_first_q[24*i +: 24] <= rdd_i.first_psn[23:0];
        rr_nxt_q[24*i +: 24] <= rdd_i.resume[0] ? rdd_i.resume_psn : rdd_i.first_psn[23:0];
        rr_atb_q[i] <= 1'b1;
        rr_stat_q[8*i +: 8] <= rnic_spec_pkg::WC_STATUS_SUCCESS;
        rr_atom_q[i] <= rdd_i.atomic[0];
        // a re-post keeps the mark: the rest of the old response stream must not report again
        rr_gap_q[i] <= w_rep && rr_gap_q[i];
      end else if (rr_gap_set && g_idx_q == RrW'(i)) begin
        rr_gap_q[i] <= 1'b1;
      end else if (state_q == SFin && p_rr_q && rr_slot_q == RrW'(i)) begin
        rr_gap_q[i] <= 1'b0;
        rr_nxt_q[24*i +: 24] <= rr_nxt_q[24*i +: 24] + 24'd1;
        rr_atb_q[i] <= 1'b0;
        rr_stat_q[8*i +: 8] <= rr_fin;
      end else if (rr_settle_err && pend_slot_q == RrW'(i) && rr_stat_q[8*i +: 8] == rnic_spec_pkg::WC_STATUS_SUCCESS) begin
        rr_stat_q[8*i +: 8] <= rnic_spec_pkg::WC_STATUS_GENERAL_ERR;
      end
    end
  end

  logic unused_in;
  assign unused_in = ^{mk_rsp_tag_i, dma_wr_cpl_tag_i, h_q, q_e, q_rqd, ch_n, len_full, len_last, len_only, psn_d,
                       buf_total, rr_avail, m_d, sg_in, sg_left};

endmodule
