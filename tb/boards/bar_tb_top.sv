// Testbench top: the board's BAR path as the shell wires it. The bridge's BAR master goes through
// rnic_axi_split (address bit 25): BAR2 to a 512-bit AXI4 slave (rnic_axi_to_axil) in front of
// the MSI-X table (rnic_msix_table), BAR4 to the core's doorbell BAR (doorbell_bar, as rnic_core
// instantiates it), with the table's bridge and core sides and the doorbell FIFO and BlueFlame
// window as ports. Driven by bar_tb.cpp.
module bar_tb_top (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic [3:0]   awid_i,
  input  logic [63:0]  awaddr_i,
  input  logic [7:0]   awlen_i,
  input  logic [2:0]   awsize_i,
  input  logic [1:0]   awburst_i,
  input  logic         awvalid_i,
  output logic         awready_o,
  input  logic [511:0] wdata_i,
  input  logic [63:0]  wstrb_i,
  input  logic         wlast_i,
  input  logic         wvalid_i,
  output logic         wready_o,
  output logic [3:0]   bid_o,
  output logic [1:0]   bresp_o,
  output logic         bvalid_o,
  input  logic         bready_i,
  input  logic [3:0]   arid_i,
  input  logic [63:0]  araddr_i,
  input  logic [7:0]   arlen_i,
  input  logic [2:0]   arsize_i,
  input  logic [1:0]   arburst_i,
  input  logic         arvalid_i,
  output logic         arready_o,
  output logic [3:0]   rid_o,
  output logic [511:0] rdata_o,
  output logic [1:0]   rresp_o,
  output logic         rlast_o,
  output logic         rvalid_o,
  input  logic         rready_i,
  input  logic         msix_req_i,
  input  logic [4:0]   msix_vector_i,
  output logic         msix_ack_o,
  input  logic         cfg_msix_enable_i,
  input  logic         cfg_msix_mask_i,
  output logic         cfg_msix_int_o,
  output logic [63:0]  cfg_msix_address_o,
  output logic [31:0]  cfg_msix_data_o,
  input  logic         cfg_msix_sent_i,
  input  logic         cfg_msix_fail_i,
  output logic [31:0]  fail_count_o,
  output logic         db_valid_o,
  input  logic         db_ready_i,
  output logic [63:0]  db_data_o,
  output logic [31:0]  db_count_o,
  output logic [31:0]  db_dropped_o,
  input  logic         tc_req_i,
  input  logic [11:0]  tc_addr_i,
  output logic [31:0]  tc_rdata_o
);
  // ---- the split: 0 = AXI-Lite converter (BAR0/BAR2), 1 = doorbell BAR ----------------------
  logic [3:0] x_awid, x_arid;
  logic [63:0] x_awaddr, x_araddr;
  logic [7:0] x_awlen, x_arlen;
  logic [2:0] x_awsize, x_arsize;
  logic [1:0] x_awburst, x_arburst, x_awvalid, x_awready, x_wvalid, x_wready, x_bvalid, x_bready;
  logic [1:0] x_arvalid, x_arready, x_rvalid, x_rready, x_rlast;
  logic [511:0] x_wdata;
  logic [63:0] x_wstrb;
  logic x_wlast;
  logic [7:0] x_bid, x_rid;
  logic [3:0] x_bresp, x_rresp;
  logic [1023:0] x_rdata;
  rnic_axi_split #(.DataWidth(512), .AddrWidth(64), .IdWidth(4), .SelBit(25)) u_split (
    .clk_i, .rst_ni,
    .s_awid_i(awid_i), .s_awaddr_i(awaddr_i), .s_awlen_i(awlen_i), .s_awsize_i(awsize_i), .s_awburst_i(awburst_i),
    .s_awvalid_i(awvalid_i), .s_awready_o(awready_o), .s_wdata_i(wdata_i), .s_wstrb_i(wstrb_i),
    .s_wlast_i(wlast_i), .s_wvalid_i(wvalid_i), .s_wready_o(wready_o), .s_bid_o(bid_o), .s_bresp_o(bresp_o),
    .s_bvalid_o(bvalid_o), .s_bready_i(bready_i), .s_arid_i(arid_i), .s_araddr_i(araddr_i),
    .s_arlen_i(arlen_i), .s_arsize_i(arsize_i), .s_arburst_i(arburst_i), .s_arvalid_i(arvalid_i),
    .s_arready_o(arready_o), .s_rid_o(rid_o), .s_rdata_o(rdata_o), .s_rresp_o(rresp_o), .s_rlast_o(rlast_o),
    .s_rvalid_o(rvalid_o), .s_rready_i(rready_i),
    .m_awid_o(x_awid), .m_awaddr_o(x_awaddr), .m_awlen_o(x_awlen), .m_awsize_o(x_awsize),
    .m_awburst_o(x_awburst), .m_awvalid_o(x_awvalid), .m_awready_i(x_awready), .m_wdata_o(x_wdata),
    .m_wstrb_o(x_wstrb), .m_wlast_o(x_wlast), .m_wvalid_o(x_wvalid), .m_wready_i(x_wready),
    .m_bid_i(x_bid), .m_bresp_i(x_bresp), .m_bvalid_i(x_bvalid), .m_bready_o(x_bready),
    .m_arid_o(x_arid), .m_araddr_o(x_araddr), .m_arlen_o(x_arlen), .m_arsize_o(x_arsize),
    .m_arburst_o(x_arburst), .m_arvalid_o(x_arvalid), .m_arready_i(x_arready), .m_rid_i(x_rid),
    .m_rdata_i(x_rdata), .m_rresp_i(x_rresp), .m_rlast_i(x_rlast), .m_rvalid_i(x_rvalid), .m_rready_o(x_rready)
  );
  // (the WQE fetch engine's doorbell port: not part of this bench)
  logic        sqdb_valid, sqdb_bf, rqdb_valid;
  logic [15:0] sqdb_page;
  logic [31:0] sqdb_value;
  // (the transmit builder's capture read port: not part of this bench either)
  logic                 txb_rvalid;
  logic [511:0]         txb_rdata;
  logic [rnic_spec_pkg::BF_STATUS_BYTES*8-1:0] bf_status;
  doorbell_bar #(.DataWidth(512), .IdWidth(4)) u_db (
    .clk_i, .rst_ni,
    .s_axi_awid_i(x_awid), .s_axi_awaddr_i(x_awaddr[20:0]), .s_axi_awlen_i(x_awlen), .s_axi_awsize_i(x_awsize),
    .s_axi_awburst_i(x_awburst), .s_axi_awvalid_i(x_awvalid[1]), .s_axi_awready_o(x_awready[1]),
    .s_axi_wdata_i(x_wdata), .s_axi_wstrb_i(x_wstrb), .s_axi_wlast_i(x_wlast), .s_axi_wvalid_i(x_wvalid[1]),
    .s_axi_wready_o(x_wready[1]), .s_axi_bid_o(x_bid[7:4]), .s_axi_bresp_o(x_bresp[3:2]),
    .s_axi_bvalid_o(x_bvalid[1]), .s_axi_bready_i(x_bready[1]), .s_axi_arid_i(x_arid),
    .s_axi_araddr_i(x_araddr[20:0]), .s_axi_arlen_i(x_arlen), .s_axi_arsize_i(x_arsize),
    .s_axi_arburst_i(x_arburst), .s_axi_arvalid_i(x_arvalid[1]), .s_axi_arready_o(x_arready[1]),
    .s_axi_rid_o(x_rid[7:4]), .s_axi_rdata_o(x_rdata[1023:512]), .s_axi_rresp_o(x_rresp[3:2]),
    .s_axi_rlast_o(x_rlast[1]), .s_axi_rvalid_o(x_rvalid[1]), .s_axi_rready_i(x_rready[1]),
    .out_valid_o(db_valid_o), .out_ready_i(db_ready_i), .out_data_o(db_data_o), .dropped_o(db_dropped_o),
    .count_o(db_count_o),
    .sq_db_valid_o(sqdb_valid), .sq_db_bf_o(sqdb_bf), .sq_db_page_o(sqdb_page), .sq_db_value_o(sqdb_value),
    .rq_db_valid_o(rqdb_valid),
    .tc_req_i, .tc_we_i(1'b0), .tc_addr_i, .tc_rdata_o,
    .txb_rd_valid_i(1'b0), .txb_rd_off_i(12'd0), .txb_rvalid_o(txb_rvalid), .txb_rdata_o(txb_rdata),
    .bf_status_o(bf_status)
  );
  logic unused;
  assign unused = ^{x_awburst, x_arburst, x_awaddr[63:21], x_araddr[63:21], sqdb_valid, sqdb_bf, sqdb_page, sqdb_value, rqdb_valid,
                    txb_rvalid, txb_rdata, bf_status};

  logic [15:0] l_awaddr, l_araddr;
  logic l_awvalid, l_awready, l_wvalid, l_wready, l_bvalid, l_bready, l_arvalid, l_arready, l_rvalid, l_rready;
  logic [31:0] l_wdata, l_rdata;
  logic [3:0] l_wstrb;
  logic [1:0] l_bresp, l_rresp;
  rnic_axi_to_axil #(.DataWidth(512), .AddrWidth(64), .IdWidth(4), .LiteAddrWidth(16)) u_bridge (
    .clk_i, .rst_ni,
    .s_axi_awid_i(x_awid), .s_axi_awaddr_i(x_awaddr), .s_axi_awlen_i(x_awlen), .s_axi_awsize_i(x_awsize),
    .s_axi_awvalid_i(x_awvalid[0]), .s_axi_awready_o(x_awready[0]), .s_axi_wdata_i(x_wdata), .s_axi_wstrb_i(x_wstrb),
    .s_axi_wlast_i(x_wlast), .s_axi_wvalid_i(x_wvalid[0]), .s_axi_wready_o(x_wready[0]), .s_axi_bid_o(x_bid[3:0]),
    .s_axi_bresp_o(x_bresp[1:0]), .s_axi_bvalid_o(x_bvalid[0]), .s_axi_bready_i(x_bready[0]), .s_axi_arid_i(x_arid),
    .s_axi_araddr_i(x_araddr), .s_axi_arlen_i(x_arlen), .s_axi_arsize_i(x_arsize), .s_axi_arvalid_i(x_arvalid[0]),
    .s_axi_arready_o(x_arready[0]), .s_axi_rid_o(x_rid[3:0]), .s_axi_rdata_o(x_rdata[511:0]), .s_axi_rresp_o(x_rresp[1:0]),
    .s_axi_rlast_o(x_rlast[0]), .s_axi_rvalid_o(x_rvalid[0]), .s_axi_rready_i(x_rready[0]),
    .m_axil_awaddr_o(l_awaddr), .m_axil_awvalid_o(l_awvalid), .m_axil_awready_i(l_awready),
    .m_axil_wdata_o(l_wdata), .m_axil_wstrb_o(l_wstrb), .m_axil_wvalid_o(l_wvalid), .m_axil_wready_i(l_wready),
    .m_axil_bresp_i(l_bresp), .m_axil_bvalid_i(l_bvalid), .m_axil_bready_o(l_bready),
    .m_axil_araddr_o(l_araddr), .m_axil_arvalid_o(l_arvalid), .m_axil_arready_i(l_arready),
    .m_axil_rdata_i(l_rdata), .m_axil_rresp_i(l_rresp), .m_axil_rvalid_i(l_rvalid), .m_axil_rready_o(l_rready)
  );
  rnic_msix_table #(.NumVectors(32), .AddrWidth(16), .PbaOffset('h8000)) u_table (
    .clk_i, .rst_ni,
    .s_axil_awaddr_i(l_awaddr), .s_axil_awvalid_i(l_awvalid), .s_axil_awready_o(l_awready),
    .s_axil_wdata_i(l_wdata), .s_axil_wstrb_i(l_wstrb), .s_axil_wvalid_i(l_wvalid), .s_axil_wready_o(l_wready),
    .s_axil_bresp_o(l_bresp), .s_axil_bvalid_o(l_bvalid), .s_axil_bready_i(l_bready),
    .s_axil_araddr_i(l_araddr), .s_axil_arvalid_i(l_arvalid), .s_axil_arready_o(l_arready),
    .s_axil_rdata_o(l_rdata), .s_axil_rresp_o(l_rresp), .s_axil_rvalid_o(l_rvalid), .s_axil_rready_i(l_rready),
    .msix_req_i, .msix_vector_i, .msix_ack_o, .cfg_msix_enable_i, .cfg_msix_mask_i, .cfg_msix_int_o,
    .cfg_msix_address_o, .cfg_msix_data_o, .cfg_msix_sent_i, .cfg_msix_fail_i, .fail_count_o
  );
endmodule
