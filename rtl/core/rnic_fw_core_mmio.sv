// The MMIO space of a soft core other than core 0 (docs/decisions/multi-core.md, phase 2): the
// per-core mailboxes of the design's table, i.e. its own QP-table mailbox (its doorbells, routed
// to it by rnic_fw_subsys, go into the doorbell ring of its tile's window) (arbitrated there into
// qp_table's one write port), its own READ progress query registers (rdq_*: the result's read
// waits for the grant of rnic_fw_subsys's query arbiter, one query per cycle reaches the receive
// engine), and the registers every core reads (hw_caps, tx_pause). Every
// other register and the DMA buffer are core 0's: a load answers zero and a store is dropped,
// granted at once, so a core never waits on a register it does not have. Core 0's MMIO space is
// the full one, decoded in rnic_fw_subsys.
module rnic_fw_core_mmio (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [31:0] hw_caps_i,
  input  logic [7:0]  tx_pause_i,
  // the core's MMIO port (rnic_fw_tile): every request granted the cycle it is made, a load's
  // data the next cycle
  input  logic        mmio_req_i,
  input  logic        mmio_we_i,
  input  logic [31:0] mmio_addr_i,
  input  logic [31:0] mmio_wdata_i,
  output logic        mmio_gnt_o,
  output logic        mmio_rvalid_o,
  output logic [31:0] mmio_rdata_o,
  // this core's QP-table entries out (qpt_* registers)
  output logic        qpt_valid_o,
  input  logic        qpt_ready_i,
  output logic [31:0] qpt_qpn_o,
  output logic [rnic_spec_pkg::QPT_ENTRY_BYTES*8-1:0] qpt_data_o,
  // the READ progress query: a read of rdq_result asks (rdq_req_o) and is answered from the
  // engine in the cycle it is granted (rdq_gnt_i), the core's load waiting until then
  output logic        rdq_req_o,
  input  logic        rdq_gnt_i,
  output logic [23:0] rdq_qpn_o,
  output logic [23:0] rdq_psn_o,
  input  logic        rdq_hit_i,
  input  logic [23:0] rdq_nxt_i
);
  // the same decode as core 0's (rnic_fw_subsys): the register page told apart by address bit
  // 12, the mailboxes by bits 11:8
  logic in_fw_block, sel_qpt, sel_rdq, rdq_wait;
  assign in_fw_block = mmio_addr_i[12] == rnic_spec_pkg::FW_MMIO_BASE[12];
  assign sel_qpt = in_fw_block && mmio_addr_i[11:8] == 4'h5;
  assign sel_rdq = in_fw_block && mmio_addr_i[11:8] == 4'h8;
  assign rdq_req_o = mmio_req_i && sel_rdq && !mmio_we_i &&
                     mmio_addr_i[7:0] == rnic_spec_pkg::FW_REG_RDQ_RESULT[7:0];
  assign rdq_wait = rdq_req_o && !rdq_gnt_i;
  assign mmio_gnt_o = mmio_req_i && !rdq_wait;

  logic qpt_rvalid, reg_rvalid;
  logic [31:0] qpt_rdata, reg_rdata;
  rnic_fw_mbox #(
    .Words(rnic_spec_pkg::QPT_ENTRY_BYTES / 4), .DataOff(rnic_spec_pkg::FW_REG_QPT_DATA),
    .CommitOff(rnic_spec_pkg::FW_REG_QPT_COMMIT), .StatusOff(rnic_spec_pkg::FW_REG_QPT_STATUS)
  ) u_qpt_mbox (
    .clk_i, .rst_ni, .mmio_req_i(mmio_req_i && sel_qpt), .mmio_we_i, .mmio_off_i(mmio_addr_i[7:0]),
    .mmio_wdata_i, .mmio_rvalid_o(qpt_rvalid), .mmio_rdata_o(qpt_rdata),
    .out_valid_o(qpt_valid_o), .out_ready_i(qpt_ready_i), .out_arg_o(qpt_qpn_o), .out_data_o(qpt_data_o)
  );

  // everything else: the READ query's result, hw_caps and tx_pause read as on core 0, the rest
  // reads zero; zero except in the cycle it answers, like the mailboxes, so the answers are ORed
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      reg_rvalid <= 1'b0;
      reg_rdata <= '0;
      rdq_qpn_o <= '0;
      rdq_psn_o <= '0;
    end else begin
      reg_rvalid <= mmio_req_i && !mmio_we_i && !sel_qpt && !rdq_wait;
      reg_rdata <= '0;
      if (mmio_req_i && mmio_we_i && sel_rdq && mmio_addr_i[7:0] == rnic_spec_pkg::FW_REG_RDQ_QPN[7:0])
        rdq_qpn_o <= mmio_wdata_i[23:0];
      if (mmio_req_i && mmio_we_i && sel_rdq && mmio_addr_i[7:0] == rnic_spec_pkg::FW_REG_RDQ_PSN[7:0])
        rdq_psn_o <= mmio_wdata_i[23:0];
      if (rdq_req_o && rdq_gnt_i)
        reg_rdata <= {rdq_hit_i, 7'd0, rdq_nxt_i};
      if (mmio_req_i && !mmio_we_i && in_fw_block && mmio_addr_i[11:0] == rnic_spec_pkg::FW_REG_HW_CAPS)
        reg_rdata <= hw_caps_i;
      if (mmio_req_i && !mmio_we_i && in_fw_block && mmio_addr_i[11:0] == rnic_spec_pkg::FW_REG_TX_PAUSE)
        reg_rdata <= {24'd0, tx_pause_i};
    end
  end
  assign mmio_rvalid_o = qpt_rvalid | reg_rvalid;
  assign mmio_rdata_o = qpt_rdata | reg_rdata;

  logic unused;
  assign unused = ^{mmio_addr_i[31:13]};
endmodule
