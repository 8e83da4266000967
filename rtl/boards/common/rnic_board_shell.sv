// What every 100G board top shares: the PCIe bridge (rnic_xdma, AXI bridge mode), the 100G MAC
// (rnic_cmac) and rnic_core, joined by the bridges and clock-domain crossings written here.
// A board top adds only its clock buffers, pins and LEDs (rtl/boards/<board>/).
//
// Clocks: the core runs on the bridge's axi_aclk (250 MHz at Gen3 x16 with 512-bit AXI), so the
// PCIe side needs no crossing. The MAC runs on gt_txusrclk2 (322.27 MHz; rx_clk is tied to it,
// so its TX and RX AXI-Stream share one clock): frame FIFOs cross both ways, store and forward
// (rnic_cdc_frame_fifo: the CMAC's TX must not see a gap inside a frame, its RX cannot be held).
//
// Host view (docs/boards.md): BAR0 (4 MiB) = rnic_core's BAR0, BAR2 (64 KiB) = the MSI-X table
// and PBA (rnic_msix_table), BAR4 (2 MiB, prefetchable) = the core's doorbell BAR. The bridge
// translates BAR0 to AXI 0x0000_0000, BAR2 to 0x0100_0000 and BAR4 to 0x0200_0000 on M_AXI_B.
// Address bit 25 splits M_AXI_B per burst (rnic_axi_split): BAR4 goes straight to the core's
// 512-bit doorbell port (a write-combined BlueFlame store stays one beat), BAR0/BAR2 to one
// AXI4-to-AXI-Lite bridge, where address bit 24 selects the core or the MSI-X table.
// The core's DMA master goes to S_AXI_B, whose AXI addresses are PCIe bus addresses.
//
// Flow control: PauseClasses names the lossless classes: bits 7:0 the PFC priorities, or bit 8
// alone an 802.3x global PAUSE. rnic_core's rx_pause_req_o (its receive buffer is shared by all
// priorities) becomes the MAC's pause request for every one of them (one PFC frame with their
// class bits), and a received pause of priority p (stat_rx_pause_req[p]) becomes the core's
// tx_pause_i[p], which holds frames of that priority only; a received global PAUSE sets all
// eight bits.
module rnic_board_shell #(
  // rnic_core parameters that the configuration sets (bitstream-scripts/configs/100g.cfg; the
  // flows pass every one of them: these defaults are rnic_core's)
  parameter int unsigned DataWidth           = 512,
  parameter int unsigned NumQps              = 128,
  parameter int unsigned RxRqSlots           = 8,
  parameter int unsigned RxBufBytes          = 65536,
  parameter int unsigned RxMetaDepth         = 256,
  parameter int unsigned PauseHeadroomBytes  = 29696,
  parameter int unsigned PauseHeadroomFrames = 208,
  parameter int unsigned PauseHystBytes      = 2048,
  parameter int unsigned PauseHystFrames     = 4,
  parameter              FwImemInit          = "",
  parameter              FwDmemInit          = "",
  // board choices
  parameter logic [8:0]  PauseClasses        = 9'h008,  // PFC priority 3: RoCE's usual lossless class
  parameter logic [47:0] PauseSrcMac         = 48'h02_52_4E_49_43_00,  // locally administered
  parameter int unsigned MacFifoAddrWidth    = 8        // 256 beats = 16 KiB each way
) (
  // PCIe
  input  logic        pcie_sys_clk_i,     // 100 MHz reference, ODIV2 through BUFG_GT
  input  logic        pcie_sys_clk_gt_i,  // 100 MHz reference for the GTs
  input  logic        pcie_perst_ni,
  output logic [15:0] pcie_txp_o,
  output logic [15:0] pcie_txn_o,
  input  logic [15:0] pcie_rxp_i,
  input  logic [15:0] pcie_rxn_i,
  // QSFP28 (CAUI-4)
  input  logic        qsfp_refclk_p_i,    // 161.1328125 MHz
  input  logic        qsfp_refclk_n_i,
  output logic [3:0]  qsfp_txp_o,
  output logic [3:0]  qsfp_txn_o,
  input  logic [3:0]  qsfp_rxp_i,
  input  logic [3:0]  qsfp_rxn_i,
  // free-running clock for the MAC's initialisation and DRP (100-125 MHz), and its power-on reset
  input  logic        init_clk_i,
  input  logic        init_rst_ni,
  // status for LEDs: PCIe link up, MAC lanes aligned, core out of reset, pause sent, pause
  // received, a frame dropped at the crossings (each stretched to be visible)
  output logic [5:0]  status_o
);
  localparam int unsigned IdW = 4;  // the bridge's S_AXI_B ID width
  logic core_rst_n;

  // ---- PCIe bridge -------------------------------------------------------------------------
  logic clk, rst_n, lnk_up;
  logic [3:0]   b_awid, b_bid, b_arid, b_rid;
  logic [63:0]  b_awaddr, b_araddr;
  logic [7:0]   b_awlen, b_arlen;
  logic [2:0]   b_awsize, b_arsize, b_awprot, b_arprot;
  logic [1:0]   b_awburst, b_arburst, b_bresp, b_rresp;
  logic [3:0]   b_awcache, b_arcache;
  logic         b_awvalid, b_awready, b_awlock, b_wlast, b_wvalid, b_wready, b_bvalid, b_bready;
  logic         b_arvalid, b_arready, b_arlock, b_rlast, b_rvalid, b_rready;
  logic [511:0] b_wdata, b_rdata;
  logic [63:0]  b_wstrb;
  // core DMA master
  logic [IdW-1:0]         d_awid, d_bid, d_arid, d_rid;
  logic [63:0]            d_awaddr, d_araddr;
  logic [7:0]             d_awlen, d_arlen;
  logic [2:0]             d_awsize, d_arsize;
  logic [1:0]             d_awburst, d_arburst, d_bresp, d_rresp;
  logic                   d_awvalid, d_awready, d_wlast, d_wvalid, d_wready, d_bvalid, d_bready;
  logic                   d_arvalid, d_arready, d_rlast, d_rvalid, d_rready;
  logic [DataWidth-1:0]   d_wdata, d_rdata;
  logic [DataWidth/8-1:0] d_wstrb;
  // MSI-X
  logic [3:0]  msix_en, msix_fmask;
  logic [31:0] msix_data;
  logic [63:0] msix_addr;
  logic        msix_int, msix_sent, msix_fail;
  logic        xl_awready, xl_wready, xl_bvalid, xl_arready, xl_rvalid;
  logic [1:0]  xl_bresp, xl_rresp;
  logic [31:0] xl_rdata;

  rnic_xdma u_xdma (
    .sys_clk(pcie_sys_clk_i), .sys_clk_gt(pcie_sys_clk_gt_i), .sys_rst_n(pcie_perst_ni),
    .user_lnk_up(lnk_up), .pci_exp_txp(pcie_txp_o), .pci_exp_txn(pcie_txn_o),
    .pci_exp_rxp(pcie_rxp_i), .pci_exp_rxn(pcie_rxn_i), .axi_aclk(clk), .axi_aresetn(rst_n),
    .m_axib_awid(b_awid), .m_axib_awaddr(b_awaddr), .m_axib_awlen(b_awlen), .m_axib_awsize(b_awsize),
    .m_axib_awburst(b_awburst), .m_axib_awprot(b_awprot), .m_axib_awvalid(b_awvalid),
    .m_axib_awready(b_awready), .m_axib_awlock(b_awlock), .m_axib_awcache(b_awcache),
    .m_axib_wdata(b_wdata), .m_axib_wstrb(b_wstrb), .m_axib_wlast(b_wlast), .m_axib_wvalid(b_wvalid),
    .m_axib_wready(b_wready), .m_axib_bid(b_bid), .m_axib_bresp(b_bresp), .m_axib_bvalid(b_bvalid),
    .m_axib_bready(b_bready), .m_axib_arid(b_arid), .m_axib_araddr(b_araddr), .m_axib_arlen(b_arlen),
    .m_axib_arsize(b_arsize), .m_axib_arburst(b_arburst), .m_axib_arprot(b_arprot),
    .m_axib_arvalid(b_arvalid), .m_axib_arready(b_arready), .m_axib_arlock(b_arlock),
    .m_axib_arcache(b_arcache), .m_axib_rid(b_rid), .m_axib_rdata(b_rdata), .m_axib_rresp(b_rresp),
    .m_axib_rlast(b_rlast), .m_axib_rvalid(b_rvalid), .m_axib_rready(b_rready),
    .s_axib_awid(d_awid), .s_axib_awaddr(d_awaddr), .s_axib_awregion(4'd0), .s_axib_awlen(d_awlen),
    .s_axib_awsize(d_awsize), .s_axib_awburst(d_awburst), .s_axib_awvalid(d_awvalid),
    .s_axib_awready(d_awready), .s_axib_wdata(d_wdata), .s_axib_wstrb(d_wstrb), .s_axib_wlast(d_wlast),
    .s_axib_wvalid(d_wvalid), .s_axib_wready(d_wready), .s_axib_bid(d_bid), .s_axib_bresp(d_bresp),
    .s_axib_bvalid(d_bvalid), .s_axib_bready(d_bready), .s_axib_arid(d_arid), .s_axib_araddr(d_araddr),
    .s_axib_arregion(4'd0), .s_axib_arlen(d_arlen), .s_axib_arsize(d_arsize), .s_axib_arburst(d_arburst),
    .s_axib_arvalid(d_arvalid), .s_axib_arready(d_arready), .s_axib_rid(d_rid), .s_axib_rdata(d_rdata),
    .s_axib_rresp(d_rresp), .s_axib_rlast(d_rlast), .s_axib_rvalid(d_rvalid), .s_axib_rready(d_rready),
    // the bridge's own register interface is not used
    .s_axil_awaddr(32'd0), .s_axil_awprot(3'd0), .s_axil_awvalid(1'b0), .s_axil_awready(xl_awready),
    .s_axil_wdata(32'd0), .s_axil_wstrb(4'd0), .s_axil_wvalid(1'b0), .s_axil_wready(xl_wready),
    .s_axil_bvalid(xl_bvalid), .s_axil_bresp(xl_bresp), .s_axil_bready(1'b1),
    .s_axil_araddr(32'd0), .s_axil_arprot(3'd0), .s_axil_arvalid(1'b0), .s_axil_arready(xl_arready),
    .s_axil_rdata(xl_rdata), .s_axil_rresp(xl_rresp), .s_axil_rvalid(xl_rvalid), .s_axil_rready(1'b1),
    .cfg_interrupt_msix_enable(msix_en), .cfg_interrupt_msix_mask(msix_fmask),
    .cfg_interrupt_msix_data(msix_data), .cfg_interrupt_msix_address(msix_addr),
    .cfg_interrupt_msix_int(msix_int), .cfg_interrupt_msix_sent(msix_sent),
    .cfg_interrupt_msix_fail(msix_fail), .cfg_interrupt_msi_function_number(8'd0)
  );

  // ---- BAR accesses: bit 25 picks BAR4 (doorbell port) or the AXI-Lite side ----------------
  logic [IdW-1:0]  x_awid, x_arid;
  logic [63:0]     x_awaddr, x_araddr;
  logic [7:0]      x_awlen, x_arlen;
  logic [2:0]      x_awsize, x_arsize;
  logic [1:0]      x_awburst, x_arburst, x_awvalid, x_awready, x_wvalid, x_wready, x_bvalid, x_bready;
  logic [1:0]      x_arvalid, x_arready, x_rvalid, x_rready, x_rlast;
  logic [511:0]    x_wdata;
  logic [63:0]     x_wstrb;
  logic            x_wlast;
  logic [2*IdW-1:0] x_bid, x_rid;
  logic [3:0]      x_bresp, x_rresp;
  logic [1023:0]   x_rdata;
  rnic_axi_split #(.DataWidth(512), .AddrWidth(64), .IdWidth(IdW), .SelBit(25)) u_bar_split (
    .clk_i(clk), .rst_ni(core_rst_n),
    .s_awid_i(b_awid), .s_awaddr_i(b_awaddr), .s_awlen_i(b_awlen), .s_awsize_i(b_awsize),
    .s_awburst_i(b_awburst), .s_awvalid_i(b_awvalid), .s_awready_o(b_awready), .s_wdata_i(b_wdata),
    .s_wstrb_i(b_wstrb), .s_wlast_i(b_wlast), .s_wvalid_i(b_wvalid), .s_wready_o(b_wready),
    .s_bid_o(b_bid), .s_bresp_o(b_bresp), .s_bvalid_o(b_bvalid), .s_bready_i(b_bready),
    .s_arid_i(b_arid), .s_araddr_i(b_araddr), .s_arlen_i(b_arlen), .s_arsize_i(b_arsize),
    .s_arburst_i(b_arburst), .s_arvalid_i(b_arvalid), .s_arready_o(b_arready), .s_rid_o(b_rid),
    .s_rdata_o(b_rdata), .s_rresp_o(b_rresp), .s_rlast_o(b_rlast), .s_rvalid_o(b_rvalid), .s_rready_i(b_rready),
    .m_awid_o(x_awid), .m_awaddr_o(x_awaddr), .m_awlen_o(x_awlen), .m_awsize_o(x_awsize),
    .m_awburst_o(x_awburst), .m_awvalid_o(x_awvalid), .m_awready_i(x_awready), .m_wdata_o(x_wdata),
    .m_wstrb_o(x_wstrb), .m_wlast_o(x_wlast), .m_wvalid_o(x_wvalid), .m_wready_i(x_wready),
    .m_bid_i(x_bid), .m_bresp_i(x_bresp), .m_bvalid_i(x_bvalid), .m_bready_o(x_bready),
    .m_arid_o(x_arid), .m_araddr_o(x_araddr), .m_arlen_o(x_arlen), .m_arsize_o(x_arsize),
    .m_arburst_o(x_arburst), .m_arvalid_o(x_arvalid), .m_arready_i(x_arready), .m_rid_i(x_rid),
    .m_rdata_i(x_rdata), .m_rresp_i(x_rresp), .m_rlast_i(x_rlast), .m_rvalid_i(x_rvalid), .m_rready_o(x_rready)
  );

  // ---- BAR0/BAR2: AXI4 -> AXI-Lite, bit 24 picks BAR0 (core) or BAR2 (MSI-X table) ---------
  logic [24:0] l_awaddr, l_araddr;
  logic        l_awvalid, l_awready, l_wvalid, l_wready, l_bvalid, l_bready;
  logic        l_arvalid, l_arready, l_rvalid, l_rready;
  logic [31:0] l_wdata, l_rdata;
  logic [3:0]  l_wstrb;
  logic [1:0]  l_bresp, l_rresp;
  rnic_axi_to_axil #(.DataWidth(512), .AddrWidth(64), .IdWidth(4), .LiteAddrWidth(25)) u_bar (
    .clk_i(clk), .rst_ni(core_rst_n),
    .s_axi_awid_i(x_awid), .s_axi_awaddr_i(x_awaddr), .s_axi_awlen_i(x_awlen), .s_axi_awsize_i(x_awsize),
    .s_axi_awvalid_i(x_awvalid[0]), .s_axi_awready_o(x_awready[0]), .s_axi_wdata_i(x_wdata),
    .s_axi_wstrb_i(x_wstrb), .s_axi_wlast_i(x_wlast), .s_axi_wvalid_i(x_wvalid[0]), .s_axi_wready_o(x_wready[0]),
    .s_axi_bid_o(x_bid[0 +: IdW]), .s_axi_bresp_o(x_bresp[1:0]), .s_axi_bvalid_o(x_bvalid[0]),
    .s_axi_bready_i(x_bready[0]), .s_axi_arid_i(x_arid), .s_axi_araddr_i(x_araddr), .s_axi_arlen_i(x_arlen),
    .s_axi_arsize_i(x_arsize), .s_axi_arvalid_i(x_arvalid[0]), .s_axi_arready_o(x_arready[0]),
    .s_axi_rid_o(x_rid[0 +: IdW]), .s_axi_rdata_o(x_rdata[511:0]), .s_axi_rresp_o(x_rresp[1:0]),
    .s_axi_rlast_o(x_rlast[0]), .s_axi_rvalid_o(x_rvalid[0]), .s_axi_rready_i(x_rready[0]),
    .m_axil_awaddr_o(l_awaddr), .m_axil_awvalid_o(l_awvalid), .m_axil_awready_i(l_awready),
    .m_axil_wdata_o(l_wdata), .m_axil_wstrb_o(l_wstrb), .m_axil_wvalid_o(l_wvalid), .m_axil_wready_i(l_wready),
    .m_axil_bresp_i(l_bresp), .m_axil_bvalid_i(l_bvalid), .m_axil_bready_o(l_bready),
    .m_axil_araddr_o(l_araddr), .m_axil_arvalid_o(l_arvalid), .m_axil_arready_i(l_arready),
    .m_axil_rdata_i(l_rdata), .m_axil_rresp_i(l_rresp), .m_axil_rvalid_i(l_rvalid), .m_axil_rready_o(l_rready)
  );
  // The bridge holds the address of its one transaction until the response, so the select is
  // stable for the whole access.
  logic wsel, rsel;  // 1: MSI-X table
  assign wsel = l_awaddr[24];
  assign rsel = l_araddr[24];
  logic c_awready, c_wready, c_bvalid, c_arready, c_rvalid, t_awready, t_wready, t_bvalid, t_arready, t_rvalid;
  logic [1:0] c_bresp, c_rresp, t_bresp, t_rresp;
  logic [31:0] c_rdata, t_rdata;
  assign l_awready = wsel ? t_awready : c_awready;
  assign l_wready = wsel ? t_wready : c_wready;
  assign l_bvalid = wsel ? t_bvalid : c_bvalid;
  assign l_bresp = wsel ? t_bresp : c_bresp;
  assign l_arready = rsel ? t_arready : c_arready;
  assign l_rvalid = rsel ? t_rvalid : c_rvalid;
  assign l_rresp = rsel ? t_rresp : c_rresp;
  assign l_rdata = rsel ? t_rdata : c_rdata;

  logic [4:0] msix_vec;
  logic msix_req, msix_ack;
  logic [31:0] msix_fail_count;
  rnic_msix_table #(.NumVectors(32), .AddrWidth(16), .PbaOffset('h8000)) u_msix_table (
    .clk_i(clk), .rst_ni(core_rst_n),
    .s_axil_awaddr_i(l_awaddr[15:0]), .s_axil_awvalid_i(l_awvalid && wsel), .s_axil_awready_o(t_awready),
    .s_axil_wdata_i(l_wdata), .s_axil_wstrb_i(l_wstrb), .s_axil_wvalid_i(l_wvalid && wsel),
    .s_axil_wready_o(t_wready), .s_axil_bresp_o(t_bresp), .s_axil_bvalid_o(t_bvalid),
    .s_axil_bready_i(l_bready && wsel), .s_axil_araddr_i(l_araddr[15:0]),
    .s_axil_arvalid_i(l_arvalid && rsel), .s_axil_arready_o(t_arready), .s_axil_rdata_o(t_rdata),
    .s_axil_rresp_o(t_rresp), .s_axil_rvalid_o(t_rvalid), .s_axil_rready_i(l_rready && rsel),
    .msix_req_i(msix_req), .msix_vector_i(msix_vec), .msix_ack_o(msix_ack),
    .cfg_msix_enable_i(msix_en[0]), .cfg_msix_mask_i(msix_fmask[0]), .cfg_msix_int_o(msix_int),
    .cfg_msix_address_o(msix_addr), .cfg_msix_data_o(msix_data), .cfg_msix_sent_i(msix_sent),
    .cfg_msix_fail_i(msix_fail), .fail_count_o(msix_fail_count)
  );

  // ---- the core ----------------------------------------------------------------------------
  rnic_reset_sync u_core_rst (.clk_i(clk), .rst_ni(rst_n), .rst_no(core_rst_n));

  logic [DataWidth-1:0]   ctx_tdata, crx_tdata;
  logic [DataWidth/8-1:0] ctx_tkeep, crx_tkeep;
  logic ctx_tlast, ctx_tvalid, ctx_tready, crx_tlast, crx_tvalid, crx_tready;
  logic pause_req;
  logic [7:0] tx_pause;
  rnic_core #(
    .DataWidth(DataWidth), .AxiAddrWidth(64), .AxiIdWidth(IdW), .BarAddrWidth(22), .NumQps(NumQps),
    .RxRqSlots(RxRqSlots), .FwImemInit(FwImemInit), .FwDmemInit(FwDmemInit), .RxBufBytes(RxBufBytes),
    .RxMetaDepth(RxMetaDepth), .PauseHeadroomBytes(PauseHeadroomBytes),
    .PauseHeadroomFrames(PauseHeadroomFrames), .PauseHystBytes(PauseHystBytes),
    .PauseHystFrames(PauseHystFrames)
  ) u_core (
    .clk_i(clk), .rst_ni(core_rst_n),
    .s_axil_awaddr_i(l_awaddr[21:0]), .s_axil_awvalid_i(l_awvalid && !wsel), .s_axil_awready_o(c_awready),
    .s_axil_wdata_i(l_wdata), .s_axil_wstrb_i(l_wstrb), .s_axil_wvalid_i(l_wvalid && !wsel),
    .s_axil_wready_o(c_wready), .s_axil_bresp_o(c_bresp), .s_axil_bvalid_o(c_bvalid),
    .s_axil_bready_i(l_bready && !wsel), .s_axil_araddr_i(l_araddr[21:0]),
    .s_axil_arvalid_i(l_arvalid && !rsel), .s_axil_arready_o(c_arready), .s_axil_rdata_o(c_rdata),
    .s_axil_rresp_o(c_rresp), .s_axil_rvalid_o(c_rvalid), .s_axil_rready_i(l_rready && !rsel),
    .m_axi_awid_o(d_awid), .m_axi_awaddr_o(d_awaddr), .m_axi_awlen_o(d_awlen), .m_axi_awsize_o(d_awsize),
    .m_axi_awburst_o(d_awburst), .m_axi_awvalid_o(d_awvalid), .m_axi_awready_i(d_awready),
    .m_axi_wdata_o(d_wdata), .m_axi_wstrb_o(d_wstrb), .m_axi_wlast_o(d_wlast), .m_axi_wvalid_o(d_wvalid),
    .m_axi_wready_i(d_wready), .m_axi_bid_i(d_bid), .m_axi_bresp_i(d_bresp), .m_axi_bvalid_i(d_bvalid),
    .m_axi_bready_o(d_bready), .m_axi_arid_o(d_arid), .m_axi_araddr_o(d_araddr), .m_axi_arlen_o(d_arlen),
    .m_axi_arsize_o(d_arsize), .m_axi_arburst_o(d_arburst), .m_axi_arvalid_o(d_arvalid),
    .m_axi_arready_i(d_arready), .m_axi_rid_i(d_rid), .m_axi_rdata_i(d_rdata), .m_axi_rresp_i(d_rresp),
    .m_axi_rlast_i(d_rlast), .m_axi_rvalid_i(d_rvalid), .m_axi_rready_o(d_rready),
    // Doorbell BAR (BAR4): straight from the split, same clock and width, 21 address bits
    .s_axi_db_awid_i(x_awid), .s_axi_db_awaddr_i(x_awaddr[20:0]), .s_axi_db_awlen_i(x_awlen),
    .s_axi_db_awsize_i(x_awsize), .s_axi_db_awburst_i(x_awburst), .s_axi_db_awvalid_i(x_awvalid[1]),
    .s_axi_db_awready_o(x_awready[1]), .s_axi_db_wdata_i(x_wdata),
    .s_axi_db_wstrb_i(x_wstrb), .s_axi_db_wlast_i(x_wlast), .s_axi_db_wvalid_i(x_wvalid[1]),
    .s_axi_db_wready_o(x_wready[1]), .s_axi_db_bid_o(x_bid[IdW +: IdW]), .s_axi_db_bresp_o(x_bresp[3:2]),
    .s_axi_db_bvalid_o(x_bvalid[1]), .s_axi_db_bready_i(x_bready[1]), .s_axi_db_arid_i(x_arid),
    .s_axi_db_araddr_i(x_araddr[20:0]), .s_axi_db_arlen_i(x_arlen), .s_axi_db_arsize_i(x_arsize),
    .s_axi_db_arburst_i(x_arburst), .s_axi_db_arvalid_i(x_arvalid[1]), .s_axi_db_arready_o(x_arready[1]),
    .s_axi_db_rid_o(x_rid[IdW +: IdW]), .s_axi_db_rdata_o(x_rdata[1023:512]), .s_axi_db_rresp_o(x_rresp[3:2]),
    .s_axi_db_rlast_o(x_rlast[1]), .s_axi_db_rvalid_o(x_rvalid[1]), .s_axi_db_rready_i(x_rready[1]),
    .msix_req_o(msix_req), .msix_vector_o(msix_vec), .msix_ack_i(msix_ack),
    .m_axis_tx_tdata_o(ctx_tdata), .m_axis_tx_tkeep_o(ctx_tkeep), .m_axis_tx_tlast_o(ctx_tlast),
    .m_axis_tx_tvalid_o(ctx_tvalid), .m_axis_tx_tready_i(ctx_tready),
    .s_axis_rx_tdata_i(crx_tdata), .s_axis_rx_tkeep_i(crx_tkeep), .s_axis_rx_tlast_i(crx_tlast),
    .s_axis_rx_tvalid_i(crx_tvalid), .s_axis_rx_tready_o(crx_tready),
    .rx_pause_req_o(pause_req), .tx_pause_i(tx_pause)
  );

  // ---- the MAC -----------------------------------------------------------------------------
  logic mclk, mac_tx_rst, mac_rx_rst, rxusrclk2, refclk_out;
  logic [3:0] rxrecclk, powergood;
  logic mrx_tvalid, mrx_tlast, mrx_tuser, mtx_tready, mtx_tvalid, mtx_tlast, tx_ovf, tx_unf;
  logic [511:0] mrx_tdata, mtx_tdata;
  logic [63:0] mrx_tkeep, mtx_tkeep;
  logic [55:0] rx_preamble;
  logic [15:0] drp_do;
  logic drp_rdy;
  logic stat_aligned, stat_aligned_err, stat_status, stat_lfault, stat_rfault, stat_pkt_bad_fcs;
  logic stat_fec_corr, stat_fec_uncorr, stat_fec_hi_ser, stat_fec_lane_al, stat_tx_pkts, stat_tx_lfault, stat_tx_bad_fcs;
  logic [2:0] stat_bad_fcs, stat_rx_pkts;
  logic stat_rx_pause, stat_rx_user_pause, stat_tx_pause, stat_tx_user_pause;
  logic [8:0] stat_rx_pause_req, stat_rx_pause_valid, stat_tx_pause_valid;
  logic [15:0] stat_rx_quanta [9];
  logic mac_aligned_m, mac_rst_n;
  logic pause_req_m;
  assign mac_rst_n = !mac_tx_rst && !mac_rx_rst;

  localparam logic [8:0] PauseBit = PauseClasses;
  localparam logic [47:0] PauseDa = 48'h01_80_C2_00_00_01;
  localparam logic Global = PauseClasses[8];
  // the request for the configured class; quanta 0xFFFF, refreshed at half of it while XOFF holds
  logic [15:0] tx_quanta [9], tx_refresh [9];
  always_comb begin
    for (int i = 0; i < 9; i++) begin
      tx_quanta[i] = PauseBit[i] ? 16'hFFFF : 16'h0;
      tx_refresh[i] = PauseBit[i] ? 16'h7FFF : 16'h0;
    end
  end

  rnic_cmac u_cmac (
    .gt_ref_clk_p(qsfp_refclk_p_i), .gt_ref_clk_n(qsfp_refclk_n_i),
    .gt_rxp_in(qsfp_rxp_i), .gt_rxn_in(qsfp_rxn_i), .gt_txp_out(qsfp_txp_o), .gt_txn_out(qsfp_txn_o),
    .gt_txusrclk2(mclk), .gt_rxusrclk2(rxusrclk2), .gt_ref_clk_out(refclk_out), .gt_rxrecclkout(rxrecclk),
    .gt_powergoodout(powergood), .gt_loopback_in(12'd0), .gtwiz_reset_tx_datapath(1'b0),
    .gtwiz_reset_rx_datapath(1'b0), .init_clk(init_clk_i), .sys_reset(!init_rst_ni), .rx_clk(mclk),
    .usr_rx_reset(mac_rx_rst), .usr_tx_reset(mac_tx_rst), .core_rx_reset(1'b0), .core_tx_reset(1'b0),
    .core_drp_reset(1'b0), .drp_clk(init_clk_i), .drp_addr(10'd0), .drp_di(16'd0), .drp_en(1'b0),
    .drp_we(1'b0), .drp_do(drp_do), .drp_rdy(drp_rdy),
    .rx_axis_tvalid(mrx_tvalid), .rx_axis_tdata(mrx_tdata), .rx_axis_tlast(mrx_tlast),
    .rx_axis_tkeep(mrx_tkeep), .rx_axis_tuser(mrx_tuser), .rx_preambleout(rx_preamble),
    .tx_axis_tready(mtx_tready), .tx_axis_tvalid(mtx_tvalid), .tx_axis_tdata(mtx_tdata),
    .tx_axis_tlast(mtx_tlast), .tx_axis_tkeep(mtx_tkeep), .tx_axis_tuser(1'b0), .tx_preamblein(56'd0),
    .tx_ovfout(tx_ovf), .tx_unfout(tx_unf),
    // lanes up: RX on; TX sends remote-fault until the receiver is aligned (802.3 clause 82)
    .ctl_rx_enable(1'b1), .ctl_rx_force_resync(1'b0), .ctl_rx_test_pattern(1'b0),
    .ctl_tx_enable(mac_aligned_m), .ctl_tx_send_idle(1'b0), .ctl_tx_send_rfi(!mac_aligned_m),
    .ctl_tx_send_lfi(1'b0), .ctl_tx_test_pattern(1'b0),
    // RS-FEC (clause 91) on: 100GBASE-SR4/CR4 links need it
    .ctl_rsfec_ieee_error_indication_mode(1'b1), .ctl_rx_rsfec_enable(1'b1),
    .ctl_rx_rsfec_enable_correction(1'b1), .ctl_rx_rsfec_enable_indication(1'b1),
    .ctl_tx_rsfec_enable(1'b1),
    // receive: honour PAUSE (global) or PFC (priority) frames for the configured class only
    .ctl_rx_pause_enable(PauseBit), .ctl_rx_pause_ack(9'd0),
    .ctl_rx_enable_gcp(Global), .ctl_rx_check_mcast_gcp(1'b1), .ctl_rx_check_ucast_gcp(1'b0),
    .ctl_rx_check_sa_gcp(1'b0), .ctl_rx_check_etype_gcp(1'b1), .ctl_rx_check_opcode_gcp(1'b1),
    .ctl_rx_enable_pcp(!Global), .ctl_rx_check_mcast_pcp(1'b1), .ctl_rx_check_ucast_pcp(1'b0),
    .ctl_rx_check_sa_pcp(1'b0), .ctl_rx_check_etype_pcp(1'b1), .ctl_rx_check_opcode_pcp(1'b1),
    .ctl_rx_enable_gpp(1'b0), .ctl_rx_check_mcast_gpp(1'b0), .ctl_rx_check_ucast_gpp(1'b0),
    .ctl_rx_check_sa_gpp(1'b0), .ctl_rx_check_etype_gpp(1'b0), .ctl_rx_check_opcode_gpp(1'b0),
    .ctl_rx_enable_ppp(1'b0), .ctl_rx_check_mcast_ppp(1'b0), .ctl_rx_check_ucast_ppp(1'b0),
    .ctl_rx_check_sa_ppp(1'b0), .ctl_rx_check_etype_ppp(1'b0), .ctl_rx_check_opcode_ppp(1'b0),
    .ctl_rx_etype_gcp(16'h8808), .ctl_rx_opcode_min_gcp(16'h0001), .ctl_rx_opcode_max_gcp(16'h0001),
    .ctl_rx_etype_pcp(16'h8808), .ctl_rx_opcode_min_pcp(16'h0101), .ctl_rx_opcode_max_pcp(16'h0101),
    .ctl_rx_etype_gpp(16'h8808), .ctl_rx_opcode_gpp(16'h0001), .ctl_rx_etype_ppp(16'h8808),
    .ctl_rx_opcode_ppp(16'h0101), .ctl_rx_pause_da_ucast(48'd0), .ctl_rx_pause_da_mcast(PauseDa),
    .ctl_rx_pause_sa(48'd0), .ctl_rx_forward_control(1'b0),
    // transmit: XOFF for the configured class while the core asks (see tx_quanta)
    .ctl_tx_pause_enable(PauseBit), .ctl_tx_pause_req(pause_req_m ? PauseBit : 9'd0),
    .ctl_tx_resend_pause(1'b0),
    .ctl_tx_pause_quanta0(tx_quanta[0]), .ctl_tx_pause_quanta1(tx_quanta[1]), .ctl_tx_pause_quanta2(tx_quanta[2]),
    .ctl_tx_pause_quanta3(tx_quanta[3]), .ctl_tx_pause_quanta4(tx_quanta[4]), .ctl_tx_pause_quanta5(tx_quanta[5]),
    .ctl_tx_pause_quanta6(tx_quanta[6]), .ctl_tx_pause_quanta7(tx_quanta[7]), .ctl_tx_pause_quanta8(tx_quanta[8]),
    .ctl_tx_pause_refresh_timer0(tx_refresh[0]), .ctl_tx_pause_refresh_timer1(tx_refresh[1]),
    .ctl_tx_pause_refresh_timer2(tx_refresh[2]), .ctl_tx_pause_refresh_timer3(tx_refresh[3]),
    .ctl_tx_pause_refresh_timer4(tx_refresh[4]), .ctl_tx_pause_refresh_timer5(tx_refresh[5]),
    .ctl_tx_pause_refresh_timer6(tx_refresh[6]), .ctl_tx_pause_refresh_timer7(tx_refresh[7]),
    .ctl_tx_pause_refresh_timer8(tx_refresh[8]),
    .ctl_tx_da_gpp(PauseDa), .ctl_tx_sa_gpp(PauseSrcMac), .ctl_tx_ethertype_gpp(16'h8808),
    .ctl_tx_opcode_gpp(16'h0001), .ctl_tx_da_ppp(PauseDa), .ctl_tx_sa_ppp(PauseSrcMac),
    .ctl_tx_ethertype_ppp(16'h8808), .ctl_tx_opcode_ppp(16'h0101),
    .stat_rx_pause(stat_rx_pause), .stat_rx_pause_req(stat_rx_pause_req), .stat_rx_pause_valid(stat_rx_pause_valid),
    .stat_rx_user_pause(stat_rx_user_pause),
    .stat_rx_pause_quanta0(stat_rx_quanta[0]), .stat_rx_pause_quanta1(stat_rx_quanta[1]),
    .stat_rx_pause_quanta2(stat_rx_quanta[2]), .stat_rx_pause_quanta3(stat_rx_quanta[3]),
    .stat_rx_pause_quanta4(stat_rx_quanta[4]), .stat_rx_pause_quanta5(stat_rx_quanta[5]),
    .stat_rx_pause_quanta6(stat_rx_quanta[6]), .stat_rx_pause_quanta7(stat_rx_quanta[7]),
    .stat_rx_pause_quanta8(stat_rx_quanta[8]),
    .stat_tx_pause(stat_tx_pause), .stat_tx_pause_valid(stat_tx_pause_valid), .stat_tx_user_pause(stat_tx_user_pause),
    .stat_rx_aligned(stat_aligned), .stat_rx_aligned_err(stat_aligned_err), .stat_rx_status(stat_status),
    .stat_rx_local_fault(stat_lfault), .stat_rx_remote_fault(stat_rfault), .stat_rx_bad_fcs(stat_bad_fcs),
    .stat_rx_packet_bad_fcs(stat_pkt_bad_fcs), .stat_rx_total_packets(stat_rx_pkts),
    .stat_rx_rsfec_corrected_cw_inc(stat_fec_corr), .stat_rx_rsfec_uncorrected_cw_inc(stat_fec_uncorr),
    .stat_rx_rsfec_hi_ser(stat_fec_hi_ser), .stat_rx_rsfec_lane_alignment_status(stat_fec_lane_al),
    .stat_tx_total_packets(stat_tx_pkts), .stat_tx_local_fault(stat_tx_lfault), .stat_tx_bad_fcs(stat_tx_bad_fcs)
  );

  // ---- crossings: MAC clock <-> core clock -------------------------------------------------
  // A FIFO's two sides reset together: either side's reset resets both (synchronized into each).
  logic xrst_n, xrst_core_n, xrst_mac_n;
  assign xrst_n = core_rst_n && mac_rst_n;
  rnic_reset_sync u_xrst_core (.clk_i(clk), .rst_ni(xrst_n), .rst_no(xrst_core_n));
  rnic_reset_sync u_xrst_mac (.clk_i(mclk), .rst_ni(xrst_n), .rst_no(xrst_mac_n));

  logic tx_drop, rx_drop, ctx_tready_f;
  rnic_cdc_frame_fifo #(.DataWidth(512), .AddrWidth(MacFifoAddrWidth), .Backpressure(1)) u_tx_fifo (
    .clk_w_i(clk), .rst_w_ni(xrst_core_n), .s_tdata_i(ctx_tdata), .s_tkeep_i(ctx_tkeep),
    .s_tlast_i(ctx_tlast), .s_tuser_i(1'b0), .s_tvalid_i(ctx_tvalid), .s_tready_o(ctx_tready_f),
    .drop_o(tx_drop),
    .clk_r_i(mclk), .rst_r_ni(xrst_mac_n), .m_tdata_o(mtx_tdata), .m_tkeep_o(mtx_tkeep),
    .m_tlast_o(mtx_tlast), .m_tvalid_o(mtx_tvalid), .m_tready_i(mtx_tready)
  );
  // while the FIFO is in reset (MAC down) the core's frames are taken and lost, as on a dead link
  assign ctx_tready = ctx_tready_f || !xrst_core_n;
  rnic_cdc_frame_fifo #(.DataWidth(512), .AddrWidth(MacFifoAddrWidth), .Backpressure(0)) u_rx_fifo (
    .clk_w_i(mclk), .rst_w_ni(xrst_mac_n), .s_tdata_i(mrx_tdata), .s_tkeep_i(mrx_tkeep),
    .s_tlast_i(mrx_tlast), .s_tuser_i(mrx_tuser), .s_tvalid_i(mrx_tvalid), .s_tready_o(rx_fifo_ready),
    .drop_o(rx_drop),
    .clk_r_i(clk), .rst_r_ni(xrst_core_n), .m_tdata_o(crx_tdata), .m_tkeep_o(crx_tkeep),
    .m_tlast_o(crx_tlast), .m_tvalid_o(crx_tvalid), .m_tready_i(crx_tready)
  );

  // pause levels and status bits, each meaningful alone: two-flop synchronizers
  logic [7:0] rx_paused_m;
  logic aligned_c, lnk_c, rx_fifo_ready;
  rnic_cdc_sync #(.Width(1)) u_to_mac (
    .clk_i(mclk), .rst_ni(xrst_mac_n), .d_i(pause_req), .q_o(pause_req_m)
  );
  // per priority, each bit a level of its own; a global PAUSE holds every priority
  assign rx_paused_m = (stat_rx_pause_req[7:0] & PauseBit[7:0]) | {8{stat_rx_pause_req[8] & PauseBit[8]}};
  rnic_cdc_sync #(.Width(9)) u_to_core (
    .clk_i(clk), .rst_ni(core_rst_n), .d_i({rx_paused_m, stat_aligned}), .q_o({tx_pause, aligned_c})
  );
  assign mac_aligned_m = stat_aligned;
  assign lnk_c = lnk_up;

  // ---- status: a dropped frame or a pause lights its LED for ~67 ms at 250 MHz -------------
  logic [23:0] drop_stretch_q, ptx_stretch_q, prx_stretch_q;
  logic rx_drop_c;
  // rx_drop pulses in the MAC clock: a toggle crosses, its edge is the event
  logic rx_drop_tgl_q, rx_drop_tgl_c, rx_drop_tgl_c_q;
  always_ff @(posedge mclk or negedge xrst_mac_n) begin
    if (!xrst_mac_n) rx_drop_tgl_q <= 1'b0;
    else if (rx_drop) rx_drop_tgl_q <= !rx_drop_tgl_q;
  end
  rnic_cdc_sync #(.Width(1)) u_drop_sync (.clk_i(clk), .rst_ni(core_rst_n), .d_i(rx_drop_tgl_q), .q_o(rx_drop_tgl_c));
  assign rx_drop_c = rx_drop_tgl_c != rx_drop_tgl_c_q;
  always_ff @(posedge clk or negedge core_rst_n) begin
    if (!core_rst_n) begin
      rx_drop_tgl_c_q <= 1'b0;
      drop_stretch_q <= '0;
      ptx_stretch_q <= '0;
      prx_stretch_q <= '0;
    end else begin
      rx_drop_tgl_c_q <= rx_drop_tgl_c;
      drop_stretch_q <= (rx_drop_c || tx_drop) ? '1 : drop_stretch_q - 24'(drop_stretch_q != 0);
      ptx_stretch_q <= pause_req ? '1 : ptx_stretch_q - 24'(ptx_stretch_q != 0);
      prx_stretch_q <= |tx_pause ? '1 : prx_stretch_q - 24'(prx_stretch_q != 0);
    end
  end
  assign status_o = {drop_stretch_q != 0, prx_stretch_q != 0, ptx_stretch_q != 0, core_rst_n, aligned_c, lnk_c};

  logic unused;
  assign unused = ^{x_awaddr[63:25], x_araddr[63:25], b_awprot, b_awlock, b_awcache, b_arprot, b_arlock, b_arcache,
                    l_awaddr[23:22], l_araddr[23:22], xl_awready, xl_wready, xl_bvalid, xl_bresp,
                    xl_arready, xl_rvalid, xl_rdata, xl_rresp, msix_en[3:1], msix_fmask[3:1], msix_fail_count,
                    rxusrclk2, refclk_out, rxrecclk, powergood, tx_ovf, tx_unf, rx_preamble, drp_do, drp_rdy,
                    stat_aligned_err, stat_status, stat_lfault, stat_rfault, stat_pkt_bad_fcs, stat_fec_corr,
                    stat_fec_uncorr, stat_fec_hi_ser, stat_fec_lane_al, stat_tx_pkts, stat_tx_lfault,
                    stat_tx_bad_fcs, stat_bad_fcs, stat_rx_pkts, stat_rx_pause, stat_rx_user_pause,
                    stat_tx_pause, stat_tx_user_pause, stat_rx_pause_valid, stat_tx_pause_valid,
                    stat_rx_quanta[0], stat_rx_quanta[1], stat_rx_quanta[2], stat_rx_quanta[3],
                    stat_rx_quanta[4], stat_rx_quanta[5], stat_rx_quanta[6], stat_rx_quanta[7],
                    stat_rx_quanta[8], rx_fifo_ready};
endmodule
