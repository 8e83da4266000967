// The descriptor mailboxes on the soft core's tightly coupled window (spec fw_tc mbox_regs): the
// three rnic_fw_tcmbox instances (tx_desc to the transmit engine, rq_desc and rd_desc to the
// receive engine) with the spec's offsets, on rnic_fw_subsys's registered request of the
// mailboxes' page (offset bit 12 decided before the register); their status answers ORed (each
// answers zero to every other load of the page).
module rnic_fw_desc_mbox (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        tc_req_i,
  input  logic        tc_we_i,
  input  logic [11:0] tc_addr_i,
  input  logic [31:0] tc_wdata_i,
  output logic [31:0] tc_rdata_o,
  output logic        txd_valid_o,
  input  logic        txd_ready_i,
  output logic [rnic_spec_pkg::TX_DESC_BYTES*8-1:0] txd_data_o,
  output logic        rqd_valid_o,
  input  logic        rqd_ready_i,
  output logic [rnic_spec_pkg::RQ_DESC_BYTES*8-1:0] rqd_data_o,
  output logic        rdd_valid_o,
  input  logic        rdd_ready_i,
  output logic [rnic_spec_pkg::RD_DESC_BYTES*8-1:0] rdd_data_o
);
  logic [31:0] txd_rdata, rqd_rdata, rdd_rdata;
  rnic_fw_tcmbox #(
    .Words(rnic_spec_pkg::TX_DESC_BYTES / 4), .DataOff(rnic_spec_pkg::FW_TC_TXD_DATA),
    .CommitOff(rnic_spec_pkg::FW_TC_TXD_COMMIT), .StatusOff(rnic_spec_pkg::FW_TC_TXD_STATUS)
  ) u_txd (
    .clk_i, .rst_ni, .tc_req_i, .tc_we_i, .tc_addr_i, .tc_wdata_i, .tc_rdata_o(txd_rdata),
    .out_valid_o(txd_valid_o), .out_ready_i(txd_ready_i), .out_data_o(txd_data_o)
  );
  rnic_fw_tcmbox #(
    .Words(rnic_spec_pkg::RQ_DESC_BYTES / 4), .DataOff(rnic_spec_pkg::FW_TC_RQD_DATA),
    .CommitOff(rnic_spec_pkg::FW_TC_RQD_COMMIT), .StatusOff(rnic_spec_pkg::FW_TC_RQD_STATUS)
  ) u_rqd (
    .clk_i, .rst_ni, .tc_req_i, .tc_we_i, .tc_addr_i, .tc_wdata_i, .tc_rdata_o(rqd_rdata),
    .out_valid_o(rqd_valid_o), .out_ready_i(rqd_ready_i), .out_data_o(rqd_data_o)
  );
  rnic_fw_tcmbox #(
    .Words(rnic_spec_pkg::RD_DESC_BYTES / 4), .DataOff(rnic_spec_pkg::FW_TC_RDD_DATA),
    .CommitOff(rnic_spec_pkg::FW_TC_RDD_COMMIT), .StatusOff(rnic_spec_pkg::FW_TC_RDD_STATUS)
  ) u_rdd (
    .clk_i, .rst_ni, .tc_req_i, .tc_we_i, .tc_addr_i, .tc_wdata_i, .tc_rdata_o(rdd_rdata),
    .out_valid_o(rdd_valid_o), .out_ready_i(rdd_ready_i), .out_data_o(rdd_data_o)
  );
  assign tc_rdata_o = txd_rdata | rqd_rdata | rdd_rdata;
endmodule
