// tx_build_tc: the transmit builder's registers on the firmware's tightly coupled window (spec
// fw_tc txb_*; docs/decisions/tx-build.md, "Wiring"). One-cycle stores fill the command words
// (txb_cmd0-2 kept, so the QP's words 0-1 are stored once per QP); the store of txb_cmd3 hands
// the command to the engine in its own cycle (the engine is busy from the next one, so a status
// load right after the commit already reads busy), or, while the engine still works on the
// previous command, is dropped and flagged (txb_status.dropped, as sq_retire_tc). Loads answer
// from a register the next cycle (txb_status, txb_run; 0 for offsets it does not own).
module tx_build_tc (
  input  logic                                          clk_i,
  input  logic                                          rst_ni,
  // tightly coupled slave (core 0's engine page, byte offset)
  input  logic                                          tc_req_i,
  input  logic                                          tc_we_i,
  input  logic [11:0]                                   tc_addr_i,
  input  logic [31:0]                                   tc_wdata_i,
  output logic [31:0]                                   tc_rdata_o,
  // to the engine (tx_build)
  output logic                                          cmd_valid_o,
  input  logic                                          cmd_ready_i,
  output logic [rnic_spec_pkg::TXB_CMD_BYTES*8-1:0]     cmd_o,
  input  logic [rnic_spec_pkg::TXB_STATUS_BYTES*8-1:0]  status_i,
  input  logic [3:0]                                    sent_i
);
  logic st, commit;
  assign st     = tc_req_i && tc_we_i;
  assign commit = st && tc_addr_i == rnic_spec_pkg::FW_TC_TXB_CMD3;

  // the kept words (no reset: the firmware stores them before its first command)
  logic [95:0] w_q;
  always_ff @(posedge clk_i) begin
    if (st && tc_addr_i == rnic_spec_pkg::FW_TC_TXB_CMD0) w_q[31:0]  <= tc_wdata_i;
    if (st && tc_addr_i == rnic_spec_pkg::FW_TC_TXB_CMD1) w_q[63:32] <= tc_wdata_i;
    if (st && tc_addr_i == rnic_spec_pkg::FW_TC_TXB_CMD2) w_q[95:64] <= tc_wdata_i;
  end
  assign cmd_valid_o = commit;
  assign cmd_o       = {tc_wdata_i, w_q};

  rnic_spec_pkg::txb_status_t s;
  logic dropped_q;
  always_comb begin
    s = status_i;
    s.dropped = dropped_q;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      dropped_q  <= 1'b0;
      tc_rdata_o <= '0;
    end else begin
      if (commit) dropped_q <= !cmd_ready_i;
      if (tc_req_i && !tc_we_i)
        tc_rdata_o <= tc_addr_i == rnic_spec_pkg::FW_TC_TXB_STATUS ? 32'(s) :
                      tc_addr_i == rnic_spec_pkg::FW_TC_TXB_RUN ? 32'(sent_i) : 32'd0;
    end
  end
endmodule
