// sq_retire_tc: the send-retirement engine's registers on the firmware's tightly coupled window
// (spec fw_tc srt_*; docs/decisions/send-retire.md, "Wiring plan"). One-cycle stores build a
// record (srt_rec0-5, committed by srt_rec_qpn) or an operation (srt_cmd_lo, committed by
// srt_cmd_hi) and hand it to the engine's input register; a commit that finds its port still
// busy is dropped and flagged (the firmware checks srt_status first, as it checks txd_status).
// Loads answer from a register the next cycle (0 for offsets it does not own). srt_qp_en
// stores go to the receive-event fork (rnic_event_merge_fork) a cycle later.
module sq_retire_tc #(
  parameter int unsigned NumRecs = rnic_spec_pkg::SQ_RETIRE_RECS
) (
  input  logic                                      clk_i,
  input  logic                                      rst_ni,
  // tightly coupled slave (core 0's engine page, byte offset)
  input  logic                                      tc_req_i,
  input  logic                                      tc_we_i,
  input  logic [11:0]                               tc_addr_i,
  input  logic [31:0]                               tc_wdata_i,
  output logic [31:0]                               tc_rdata_o,
  // to the engine (sq_retire): records and the firmware's operations
  output logic                                      rec_valid_o,
  input  logic                                      rec_ready_i,
  output logic [rnic_spec_pkg::SR_REC_BYTES*8-1:0]  rec_o,
  output logic                                      cmd_valid_o,
  input  logic                                      cmd_ready_i,
  output logic [rnic_spec_pkg::SR_CMD_BYTES*8-1:0]  cmd_o,
  // from the engine
  input  logic                                      done_i,
  input  logic [1:0]                                done_src_i,
  input  logic [$clog2(NumRecs):0]                  free_i,
  input  logic [rnic_spec_pkg::SR_QUERY_BYTES*8-1:0] qry_i,
  // per-QP enables for the receive-event fork
  output logic                                      en_we_o,
  output logic [23:0]                               en_qpn_o,
  output logic                                      en_o,
  output logic                                      fork_on_o
);
  localparam int unsigned RecWords = 6;                       // sr_rec bytes 0-23
  logic st, ld;
  assign st = tc_req_i && tc_we_i;
  assign ld = tc_req_i && !tc_we_i;

  logic [RecWords*32-1:0] rw_q;
  logic [23:0]            rqpn_q;
  logic [31:0]            cw_lo_q, cw_hi_q;
  logic                   rec_pend_q, cmd_pend_q, dropped_q, on_q;
  logic [15:0]            fw_done_q;
  logic                   rec_commit, cmd_commit, rec_busy, cmd_busy;
  assign rec_busy   = rec_pend_q || !rec_ready_i;
  assign cmd_busy   = cmd_pend_q || !cmd_ready_i;
  assign rec_commit = st && tc_addr_i == rnic_spec_pkg::FW_TC_SRT_REC_QPN;
  assign cmd_commit = st && tc_addr_i == rnic_spec_pkg::FW_TC_SRT_CMD_HI;

  // the data words: written by their stores (a word stored in the cycle a committed record or
  // operation goes to the engine is the next one's: the engine samples the old value)
  always_ff @(posedge clk_i) begin
    if (st) begin
      for (int w = 0; w < RecWords; w++)
        if (tc_addr_i == rnic_spec_pkg::FW_TC_SRT_REC0 + 12'(4 * w)) rw_q[32*w +: 32] <= tc_wdata_i;
      if (tc_addr_i == rnic_spec_pkg::FW_TC_SRT_CMD_LO) cw_lo_q <= tc_wdata_i;
    end
    if (rec_commit && !rec_busy) rqpn_q <= tc_wdata_i[23:0];
    if (cmd_commit && !cmd_busy) cw_hi_q <= tc_wdata_i;
  end
  assign rec_o = {32'd0, 8'd0, rqpn_q, rw_q};
  assign cmd_o = {cw_hi_q, cw_lo_q};
  assign rec_valid_o = rec_pend_q;
  assign cmd_valid_o = cmd_pend_q;

  rnic_spec_pkg::srt_qp_en_t en_w;
  assign en_w = tc_wdata_i;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rec_pend_q <= 1'b0;
      cmd_pend_q <= 1'b0;
      dropped_q  <= 1'b0;
      fw_done_q  <= '0;
      on_q       <= 1'b0;
      en_we_o    <= 1'b0;
    end else begin
      // a pending commit goes in its next cycle: the port was free when it was stored, and only
      // this block fills it
      if (rec_pend_q && rec_ready_i) rec_pend_q <= 1'b0;
      if (cmd_pend_q && cmd_ready_i) cmd_pend_q <= 1'b0;
      if (rec_commit && !rec_busy) rec_pend_q <= 1'b1;
      if (cmd_commit && !cmd_busy) cmd_pend_q <= 1'b1;
      if ((rec_commit && rec_busy) || (cmd_commit && cmd_busy)) dropped_q <= 1'b1;
      if (done_i && done_src_i == 2'd2) fw_done_q <= fw_done_q + 1'b1;
      en_we_o <= st && tc_addr_i == rnic_spec_pkg::FW_TC_SRT_QP_EN;
      if (st && tc_addr_i == rnic_spec_pkg::FW_TC_SRT_QP_EN && en_w.enable) on_q <= 1'b1;
    end
  end
  always_ff @(posedge clk_i) begin
    if (st && tc_addr_i == rnic_spec_pkg::FW_TC_SRT_QP_EN) begin
      en_qpn_o <= en_w.qpn;
      en_o     <= en_w.enable;
    end
  end
  assign fork_on_o = on_q;

  rnic_spec_pkg::srt_status_t status;
  always_comb begin
    status          = '0;
    status.fw_done  = fw_done_q;
    status.free     = 9'(free_i);
    status.busy     = cmd_busy;
    status.rec_busy = rec_busy;
    status.dropped  = dropped_q;
    status.fork_on  = on_q;
  end
  logic [31:0] rdata_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) rdata_q <= '0;
    else if (ld) begin
      unique case (tc_addr_i)
        rnic_spec_pkg::FW_TC_SRT_STATUS: rdata_q <= status;
        rnic_spec_pkg::FW_TC_SRT_QRY0:   rdata_q <= qry_i[31:0];
        rnic_spec_pkg::FW_TC_SRT_QRY1:   rdata_q <= qry_i[63:32];
        rnic_spec_pkg::FW_TC_SRT_QRY2:   rdata_q <= qry_i[95:64];
        rnic_spec_pkg::FW_TC_SRT_QRY3:   rdata_q <= qry_i[127:96];
        default:                         rdata_q <= 32'd0;
      endcase
    end
  end
  assign tc_rdata_o = rdata_q;

  logic unused;
  assign unused = ^en_w[31:25];
endmodule
