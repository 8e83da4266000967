// Testbench top: the board's BAR path as the shell wires it for BAR2, a 512-bit AXI4 slave
// (rnic_axi_to_axil) in front of the MSI-X table (rnic_msix_table), with the table's bridge and
// core sides as ports. Driven by bar_tb.cpp.
module bar_tb_top (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic [3:0]   awid_i,
  input  logic [63:0]  awaddr_i,
  input  logic [7:0]   awlen_i,
  input  logic [2:0]   awsize_i,
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
  output logic [31:0]  fail_count_o
);
  logic [15:0] l_awaddr, l_araddr;
  logic l_awvalid, l_awready, l_wvalid, l_wready, l_bvalid, l_bready, l_arvalid, l_arready, l_rvalid, l_rready;
  logic [31:0] l_wdata, l_rdata;
  logic [3:0] l_wstrb;
  logic [1:0] l_bresp, l_rresp;
  rnic_axi_to_axil #(.DataWidth(512), .AddrWidth(64), .IdWidth(4), .LiteAddrWidth(16)) u_bridge (
    .clk_i, .rst_ni,
    .s_axi_awid_i(awid_i), .s_axi_awaddr_i(awaddr_i), .s_axi_awlen_i(awlen_i), .s_axi_awsize_i(awsize_i),
    .s_axi_awvalid_i(awvalid_i), .s_axi_awready_o(awready_o), .s_axi_wdata_i(wdata_i), .s_axi_wstrb_i(wstrb_i),
    .s_axi_wlast_i(wlast_i), .s_axi_wvalid_i(wvalid_i), .s_axi_wready_o(wready_o), .s_axi_bid_o(bid_o),
    .s_axi_bresp_o(bresp_o), .s_axi_bvalid_o(bvalid_o), .s_axi_bready_i(bready_i), .s_axi_arid_i(arid_i),
    .s_axi_araddr_i(araddr_i), .s_axi_arlen_i(arlen_i), .s_axi_arsize_i(arsize_i), .s_axi_arvalid_i(arvalid_i),
    .s_axi_arready_o(arready_o), .s_axi_rid_o(rid_o), .s_axi_rdata_o(rdata_o), .s_axi_rresp_o(rresp_o),
    .s_axi_rlast_o(rlast_o), .s_axi_rvalid_o(rvalid_o), .s_axi_rready_i(rready_i),
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
