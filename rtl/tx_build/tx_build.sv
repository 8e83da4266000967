// tx_build: the transmit builder (docs/decisions/tx-build.md, issue 12). On one firmware command
// (spec txb_cmd) for a run of 1 + more consecutive WQEs it reads each staged WQEBB itself through
// a row read port (the WQE fetch buffer's or the BlueFlame capture's, addressed by window offset),
// applies the firmware's send_fast rule, and either hands the tx_desc to the transmit engine and
// the sr_rec to the send-retirement engine and goes on with the next WQE of the run, or stops
// there and answers "not mine" (txb_status.result, txb_run.sent) having emitted nothing for that
// WQE, so that the firmware sends it its own way. It never waits longer than TXB_WAIT cycles for
// its output ports (WAIT): they may wait for the firmware, which polls the builder meanwhile.
// Every output is a register; the read rows land in a register with nothing but the row enable
// in front of it.
module tx_build #(
  parameter int unsigned DataWidth = 512,                      // row width of the sources (rnic_core's)
  parameter int unsigned NumRecs = rnic_spec_pkg::SQ_RETIRE_RECS
) (
  input  logic                                          clk_i,
  input  logic                                          rst_ni,
  // the firmware's command (one at a time: ready only while idle) and the answer
  input  logic                                          cmd_valid_i,
  output logic                                          cmd_ready_o,
  input  logic [rnic_spec_pkg::TXB_CMD_BYTES*8-1:0]     cmd_i,
  output logic [rnic_spec_pkg::TXB_STATUS_BYTES*8-1:0]  status_o,
  output logic [3:0]                                    sent_o,      // txb_run.sent
  // row reads of the staged WQEBB: the row's window offset; answers in order, latency >= 1
  output logic                                          rd_valid_o,
  input  logic                                          rd_ready_i,
  output logic [11:0]                                   rd_off_o,
  input  logic                                          rd_rvalid_i,
  input  logic [DataWidth-1:0]                          rd_rdata_i,
  // the BlueFlame capture's status (doorbell_bar's register), the retirement pool's free count
  input  logic [rnic_spec_pkg::BF_STATUS_BYTES*8-1:0]   bf_status_i,
  input  logic [$clog2(NumRecs):0]                      free_i,
  // the firmware's own commits not yet taken (its tx_desc mailbox, its sr_rec register): ours
  // wait behind them, so a merge in front of the engines keeps SQ order
  input  logic                                          fw_txd_pend_i,
  input  logic                                          fw_rec_pend_i,
  output logic                                          txd_valid_o,
  input  logic                                          txd_ready_i,
  output logic [rnic_spec_pkg::TX_DESC_BYTES*8-1:0]     txd_o,
  output logic                                          rec_valid_o,
  input  logic                                          rec_ready_i,
  output logic [rnic_spec_pkg::SR_REC_BYTES*8-1:0]      rec_o
);
  localparam int unsigned BbBits = rnic_spec_pkg::WQEBB_BYTES * 8;
  localparam int unsigned Rows   = BbBits / DataWidth;           // rows per WQEBB (1 at 512 bits)
  localparam int unsigned RowW   = Rows > 1 ? $clog2(Rows) : 1;
  localparam int unsigned PkW    = $clog2(rnic_spec_pkg::TX_SEG_PKTS);
  localparam int unsigned CtlB   = rnic_spec_pkg::WQE_CTRL_BYTES;  // the segments after the control one
  localparam int unsigned SegB   = rnic_spec_pkg::WQE_SGE_BYTES;
  localparam logic [11:0] RowBytes = 12'(DataWidth / 8);
  localparam int unsigned FInl   = 32'(rnic_spec_pkg::WQE_FLAG_INLINE);  // wqe_ctrl.flags bits
  localparam int unsigned FSol   = 32'(rnic_spec_pkg::WQE_FLAG_SOLICITED);
  localparam int unsigned FSig   = 32'(rnic_spec_pkg::WQE_FLAG_SIGNALED);
  localparam int unsigned WaitW  = $clog2(rnic_spec_pkg::TXB_WAIT);

  typedef enum logic [2:0] { S_IDLE, S_RD, S_DEC, S_PK, S_EV, S_EM, S_WT } st_e;
  st_e st_q;

  rnic_spec_pkg::txb_cmd_t    cmd_q;
  rnic_spec_pkg::txb_status_t status_q;
  logic [BbBits-1:0]          wqe_q;
  logic [RowW-1:0]            rq_n_q, rs_n_q;   // rows requested, rows received
  logic                       rd_v_q;
  logic [11:0]                rd_off_q;
  logic                       take;
  // the WQE of the run being worked on: its slot (window offset / 64), SQ index, first PSN, how
  // many of the run went before it, and whether it is the run's last
  logic [5:0]                 bb_q;
  logic [15:0]                idx_q;
  logic [23:0]                psn_q;
  logic [3:0]                 sent_q;
  logic [2:0]                 left_q;
  logic [5:0]                 wrap_q;        // the slot bits that wrap in the region (mask)
  logic [WaitW-1:0]           wait_q;        // cycles waited in S_EM for the output ports
  assign cmd_ready_o = st_q == S_IDLE;
  assign sent_o      = sent_q;
  assign take        = cmd_valid_i && cmd_ready_o;
  assign rd_valid_o  = rd_v_q;
  assign rd_off_o    = rd_off_q;
  assign status_o    = status_q;

  // ---- decode of the WQEBB (S_DEC), all into registers
  rnic_spec_pkg::wqe_ctrl_t   c;
  rnic_spec_pkg::wqe_raddr_t  ra;
  rnic_spec_pkg::bf_status_t  bfs;
  logic                       is_write;
  assign c        = wqe_q[CtlB*8-1:0];
  assign ra       = wqe_q[CtlB*8 +: rnic_spec_pkg::WQE_RADDR_BYTES*8];
  assign bfs      = bf_status_i;
  assign is_write = c.opcode == rnic_spec_pkg::WQE_OP_RDMA_WRITE || c.opcode == rnic_spec_pkg::WQE_OP_RDMA_WRITE_WITH_IMM;

  logic        bf_bad_q, op_bad_q, idx_bad_q, size_bad_q, inl_q, sge_bad_q, zlen_q, write_q, sol_q, sig_q;
  logic [1:0]  nsge_q;                // at most 2 in a WQE that passes
  logic [31:7] lenm1_q;               // (length - 1), the bits above the smallest MTU's
  logic        many_q;                // more than TX_SEG_PKTS packets (S_PK)
  logic [PkW-1:0] pk_q;               // packets - 1 (S_PK)
  logic [23:0] last_q;                // the last PSN (S_EV)
  logic        need_rec;
  assign need_rec = !cmd_q.retx;
  // the next WQEBB of the run: the next slot of its region (a ring of 2^wrap_log slots)
  logic [5:0] bb_next;
  assign bb_next = (bb_q & ~wrap_q) | ((bb_q + 6'd1) & wrap_q);

  // packets - 1 = (length - 1) >> (7 + path_mtu), 0 for an empty message
  logic [24:0] shv;
  assign shv = lenm1_q[31:7] >> cmd_q.path_mtu;

  // the first failing test, in the spec's order (enum txb_result)
  logic [3:0] verdict;
  always_comb begin
    if (bf_bad_q)        verdict = 4'(rnic_spec_pkg::TXB_RESULT_BF_LOST);
    else if (op_bad_q)   verdict = 4'(rnic_spec_pkg::TXB_RESULT_OPCODE);
    else if (idx_bad_q)  verdict = 4'(rnic_spec_pkg::TXB_RESULT_INDEX);
    else if (size_bad_q) verdict = 4'(rnic_spec_pkg::TXB_RESULT_SIZE);
    else if (inl_q)      verdict = 4'(rnic_spec_pkg::TXB_RESULT_INLINE);
    else if (sge_bad_q)  verdict = 4'(rnic_spec_pkg::TXB_RESULT_SGE);
    else if (many_q)     verdict = 4'(rnic_spec_pkg::TXB_RESULT_PACKETS);
    else                 verdict = 4'(rnic_spec_pkg::TXB_RESULT_SENT);
  end

  // ---- the outputs as the firmware's send_fast / rec_srt store them (other words zero)
  rnic_spec_pkg::tx_desc_t d;
  rnic_spec_pkg::sr_rec_t  r;
  rnic_spec_pkg::wqe_sge_t s0, s1;
  // a WRITE's SGE follows its remote-address segment; a second SGE only fits a SEND (num_ds <= 2)
  assign s0 = write_q ? wqe_q[(CtlB + SegB)*8 +: SegB*8] : wqe_q[CtlB*8 +: SegB*8];
  assign s1 = wqe_q[(CtlB + SegB)*8 +: SegB*8];
  always_comb begin
    d = '0;
    d.qpn = 32'(cmd_q.qpn);
    unique case (c.opcode[1:0])
      2'd0:    d.kind = rnic_spec_pkg::MSG_KIND_WRITE;
      2'd1:    d.kind = rnic_spec_pkg::MSG_KIND_WRITE_IMM;
      2'd3:    d.kind = rnic_spec_pkg::MSG_KIND_SEND_IMM;
      default: d.kind = rnic_spec_pkg::MSG_KIND_SEND;
    endcase
    d.flags   = (8'(sol_q) << rnic_spec_pkg::TX_FLAG_SOLICITED) | (8'(cmd_q.retx) << rnic_spec_pkg::TX_FLAG_RETRANSMIT);
    d.num_sge = 8'(nsge_q);
    d.psn     = 32'(psn_q);
    d.length  = c.total_len;
    if (write_q) begin
      d.remote_va = ra.remote_addr;
      d.rkey      = ra.rkey;
    end
    d.imm_data = c.imm_data;
    if (nsge_q != 2'd0) begin
      d.sge0_addr = s0.addr;
      d.sge0_len  = s0.length;
      d.sge0_lkey = s0.lkey;
    end
    if (nsge_q[1]) begin
      d.sge1_addr = s1.addr;
      d.sge1_len  = s1.length;
      d.sge1_lkey = s1.lkey;
    end
    r = '0;
    r.wr_id     = c.wr_id;
    r.byte_len  = c.total_len;
    r.first_psn = psn_q;
    r.flags     = 8'(sig_q) << rnic_spec_pkg::SR_FLAG_SIGNALED;
    r.last_psn  = last_q;
    r.opcode    = write_q ? rnic_spec_pkg::WC_OPCODE_RDMA_WRITE : rnic_spec_pkg::WC_OPCODE_SEND;
    r.wqe_index = idx_q;
    r.cqn       = cmd_q.send_cqn;
    r.qpn       = cmd_q.qpn;
  end

  // ---- data registers (no reset: each is loaded before it is used)
  // the command's per-WQE fields, straight from the port (constant part-selects)
  localparam int unsigned CBb = rnic_spec_pkg::TXB_CMD_SRC_BB_LSB, CIdx = rnic_spec_pkg::TXB_CMD_WQE_INDEX_LSB;
  localparam int unsigned CPsn = rnic_spec_pkg::TXB_CMD_PSN_LSB, CMore = rnic_spec_pkg::TXB_CMD_MORE_LSB;
  localparam int unsigned CBf = rnic_spec_pkg::TXB_CMD_BF_LSB, CRetx = rnic_spec_pkg::TXB_CMD_RETX_LSB;
  localparam int unsigned CWrap = rnic_spec_pkg::TXB_CMD_WRAP_LOG_LSB;
  logic next_wqe;
  assign next_wqe = st_q == S_WT && (!txd_v_q || txd_ready_i) && (!rec_v_q || rec_ready_i) && left_q != 3'd0;
  always_ff @(posedge clk_i) begin
    if (take) begin
      cmd_q  <= cmd_i;
      bb_q   <= cmd_i[CBb +: 6];
      idx_q  <= cmd_i[CIdx +: 16];
      psn_q  <= cmd_i[CPsn +: 24];
      // a BlueFlame capture or a resend is a run of one
      left_q <= cmd_i[CBf] || cmd_i[CRetx] ? 3'd0 : cmd_i[CMore +: 3];
      wrap_q <= 6'((7'd1 << cmd_i[CWrap +: 3]) - 7'd1);
    end
    if (next_wqe) begin
      bb_q   <= bb_next;
      idx_q  <= idx_q + 16'd1;
      psn_q  <= last_q + 24'd1;
      left_q <= left_q - 3'd1;
    end
    wait_q <= st_q == S_EM ? wait_q + 1'b1 : '0;
    // a row lands as it comes (constant part-selects under their own enable: no shifter)
    for (int k = 0; k < Rows; k++)
      if (st_q == S_RD && rd_rvalid_i && rs_n_q == RowW'(k)) wqe_q[k*DataWidth +: DataWidth] <= rd_rdata_i;
    if (st_q == S_DEC) begin
      // sampled a cycle after the last row was read: a bf_data write in or before that read's
      // cycle has cleared valid by now (rtl/doorbell), so a capture still named was read whole
      bf_bad_q   <= cmd_q.bf && !(bfs.valid == 1'b1 && bfs.seq == cmd_q.bf_seq && bfs.page == cmd_q.page);
      op_bad_q   <= c.opcode > rnic_spec_pkg::WQE_OP_SEND_WITH_IMM;
      idx_bad_q  <= c.wqe_index != idx_q;
      size_bad_q <= c.num_ds > 8'd2;
      inl_q      <= c.flags[FInl];
      sge_bad_q  <= 9'(c.num_sge) + 9'(is_write) > 9'(c.num_ds);
      zlen_q     <= c.total_len == 32'd0;
      lenm1_q    <= 25'((c.total_len - 32'd1) >> 7);
      write_q    <= is_write;
      sol_q      <= c.flags[FSol];
      sig_q      <= c.flags[FSig] || cmd_q.sig_all == 1'b1;
      nsge_q     <= c.num_sge[1:0];
    end
    if (st_q == S_PK) begin
      many_q <= !zlen_q && shv[24:PkW] != '0;
      pk_q   <= zlen_q ? '0 : shv[PkW-1:0];
    end
    if (st_q == S_EV) begin
      last_q <= psn_q + 24'(pk_q);
    end
    if (st_q == S_EM) begin
      txd_o <= d;
      rec_o <= r;
    end
  end

  // ---- control
  logic txd_v_q, rec_v_q, em_go;
  assign txd_valid_o = txd_v_q;
  assign rec_valid_o = rec_v_q;
  // The outputs are loaded only when both ports take them at once: an output held valid would
  // hold the firmware, which polls busy, while the port waits for the firmware (sq_retire's
  // record port behind an ACK walk that waits for the CQE writer, which waits for the firmware
  // on a full CQ: the 64 B stream's hang without srt_room, docs/decisions/tx-build.md). Ports
  // ready here stay ready the next cycle: only these two sources fill them, and the firmware
  // commits nothing while busy. One record of margin in free_i: the record sq_retire took last
  // is counted a cycle after its input register frees (S_LOAD).
  logic em_ok, rec_ok;
  assign rec_ok = !need_rec || rec_ready_i;
  assign em_go  = !fw_txd_pend_i && !fw_rec_pend_i;
  assign em_ok  = em_go && txd_ready_i && rec_ok;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q     <= S_IDLE;
      status_q <= '0;
      rd_v_q   <= 1'b0;
      rd_off_q <= '0;
      sent_q   <= '0;
      rq_n_q   <= '0;
      rs_n_q   <= '0;
      txd_v_q  <= 1'b0;
      rec_v_q  <= 1'b0;
    end else begin
      if (txd_v_q && txd_ready_i) txd_v_q <= 1'b0;
      if (rec_v_q && rec_ready_i) rec_v_q <= 1'b0;
      unique case (st_q)
        S_IDLE: if (take) begin
          st_q          <= S_RD;
          status_q.busy <= 1'b1;
          rd_v_q        <= 1'b1;
          rd_off_q      <= {cmd_i[rnic_spec_pkg::TXB_CMD_SRC_BB_LSB +: 6], 6'd0};
          rq_n_q        <= '0;
          rs_n_q        <= '0;
          sent_q        <= '0;
        end
        S_RD: begin
          if (rd_v_q && rd_ready_i) begin
            if (rq_n_q == RowW'(Rows - 1)) rd_v_q <= 1'b0;
            else begin
              rq_n_q   <= rq_n_q + 1'b1;
              rd_off_q <= rd_off_q + RowBytes;
            end
          end
          if (rd_rvalid_i) begin
            rs_n_q <= rs_n_q + 1'b1;
            if (rs_n_q == RowW'(Rows - 1)) st_q <= S_DEC;
          end
        end
        S_DEC: st_q <= S_PK;
        S_PK:  st_q <= S_EV;
        S_EV:  if (verdict != 4'(rnic_spec_pkg::TXB_RESULT_SENT)) begin
          st_q              <= S_IDLE;
          status_q.busy     <= 1'b0;
          status_q.result   <= verdict;
          status_q.next_psn <= psn_q;
        end else st_q <= S_EM;
        S_EM: if (em_go && need_rec && free_i < 2) begin
          st_q              <= S_IDLE;
          status_q.busy     <= 1'b0;
          status_q.result   <= 4'(rnic_spec_pkg::TXB_RESULT_NO_RECORD);
          status_q.next_psn <= psn_q;
        end else if (em_ok) begin
          st_q    <= S_WT;
          txd_v_q <= 1'b1;
          rec_v_q <= need_rec;
        end else if (wait_q == WaitW'(rnic_spec_pkg::TXB_WAIT - 1)) begin
          st_q              <= S_IDLE;
          status_q.busy     <= 1'b0;
          status_q.result   <= 4'(rnic_spec_pkg::TXB_RESULT_WAIT);
          status_q.next_psn <= psn_q;
        end
        S_WT: if ((!txd_v_q || txd_ready_i) && (!rec_v_q || rec_ready_i)) begin
          sent_q <= sent_q + 4'd1;
          if (left_q == 3'd0) begin
            st_q              <= S_IDLE;
            status_q.busy     <= 1'b0;
            status_q.result   <= 4'(rnic_spec_pkg::TXB_RESULT_SENT);
            status_q.next_psn <= last_q + 24'd1;
          end else begin
            // the run's next WQE: its WQEBB read as the first one's was
            st_q     <= S_RD;
            rd_v_q   <= 1'b1;
            rd_off_q <= {bb_next, 6'd0};
            rq_n_q   <= '0;
            rs_n_q   <= '0;
          end
        end
        default: st_q <= S_IDLE;
      endcase
    end
  end

  logic unused;
  assign unused = ^{c.qpn, c.inline_len, c.rsvd224, c.num_sge[7:2], ra.rsvd96, bfs.wqebbs, bfs.rsvd27,
                    cmd_q.rsvd70, cmd_q.rsvd28, cmd_q.src_bb, cmd_q.psn, cmd_q.wqe_index, cmd_q.more,
                    cmd_q.wrap_log};
endmodule
