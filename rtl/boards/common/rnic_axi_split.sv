// One AXI4 master to two AXI4 slaves, chosen per burst by one address bit (SelBit: 0 -> m0,
// 1 -> m1). The board shell uses it on the PCIe bridge's BAR master: BAR0/BAR2 go to the
// AXI-Lite converter, BAR4 (the doorbell pages) straight to rnic_core's doorbell port, so a
// 64-byte write-combined BlueFlame store stays one beat.
//
// Order: up to Depth bursts per direction may be outstanding. A queue of the slave chosen for
// each accepted AW steers the W beats (in AW order, as AXI requires of the master) and takes
// the B responses back in the same order; reads likewise with R, popped on RLAST. Responses
// therefore come back in request order whatever the IDs, which is what the bridge expects of
// one slave. No combinational path from a slave's ready to the other slave.
module rnic_axi_split #(
  parameter int unsigned DataWidth = 512,
  parameter int unsigned AddrWidth = 64,
  parameter int unsigned IdWidth   = 4,
  parameter int unsigned SelBit    = 25,
  parameter int unsigned Depth     = 4   // outstanding bursts per direction, a power of two
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // from the master
  input  logic [IdWidth-1:0]     s_awid_i,
  input  logic [AddrWidth-1:0]   s_awaddr_i,
  input  logic [7:0]             s_awlen_i,
  input  logic [2:0]             s_awsize_i,
  input  logic [1:0]             s_awburst_i,
  input  logic                   s_awvalid_i,
  output logic                   s_awready_o,
  input  logic [DataWidth-1:0]   s_wdata_i,
  input  logic [DataWidth/8-1:0] s_wstrb_i,
  input  logic                   s_wlast_i,
  input  logic                   s_wvalid_i,
  output logic                   s_wready_o,
  output logic [IdWidth-1:0]     s_bid_o,
  output logic [1:0]             s_bresp_o,
  output logic                   s_bvalid_o,
  input  logic                   s_bready_i,
  input  logic [IdWidth-1:0]     s_arid_i,
  input  logic [AddrWidth-1:0]   s_araddr_i,
  input  logic [7:0]             s_arlen_i,
  input  logic [2:0]             s_arsize_i,
  input  logic [1:0]             s_arburst_i,
  input  logic                   s_arvalid_i,
  output logic                   s_arready_o,
  output logic [IdWidth-1:0]     s_rid_o,
  output logic [DataWidth-1:0]   s_rdata_o,
  output logic [1:0]             s_rresp_o,
  output logic                   s_rlast_o,
  output logic                   s_rvalid_o,
  input  logic                   s_rready_i,
  // to the slaves: index 0 and 1 (address, ID, length, size, burst and data go to both)
  output logic [IdWidth-1:0]     m_awid_o,
  output logic [AddrWidth-1:0]   m_awaddr_o,
  output logic [7:0]             m_awlen_o,
  output logic [2:0]             m_awsize_o,
  output logic [1:0]             m_awburst_o,
  output logic [1:0]             m_awvalid_o,
  input  logic [1:0]             m_awready_i,
  output logic [DataWidth-1:0]   m_wdata_o,
  output logic [DataWidth/8-1:0] m_wstrb_o,
  output logic                   m_wlast_o,
  output logic [1:0]             m_wvalid_o,
  input  logic [1:0]             m_wready_i,
  input  logic [2*IdWidth-1:0]   m_bid_i,
  input  logic [3:0]             m_bresp_i,
  input  logic [1:0]             m_bvalid_i,
  output logic [1:0]             m_bready_o,
  output logic [IdWidth-1:0]     m_arid_o,
  output logic [AddrWidth-1:0]   m_araddr_o,
  output logic [7:0]             m_arlen_o,
  output logic [2:0]             m_arsize_o,
  output logic [1:0]             m_arburst_o,
  output logic [1:0]             m_arvalid_o,
  input  logic [1:0]             m_arready_i,
  input  logic [2*IdWidth-1:0]   m_rid_i,
  input  logic [2*DataWidth-1:0] m_rdata_i,
  input  logic [3:0]             m_rresp_i,
  input  logic [1:0]             m_rlast_i,
  input  logic [1:0]             m_rvalid_i,
  output logic [1:0]             m_rready_o
);
  localparam int unsigned PtrW = $clog2(Depth);

  // ---- writes: one queue of choices, read at two places (W and B) ----------------------------
  logic [Depth-1:0] wq_q;             // slave chosen per accepted AW
  logic [PtrW:0]    aw_ptr_q, w_ptr_q, b_ptr_q;
  logic             aw_sel, aw_full, aw_go, w_sel, w_pending, w_go, b_sel, b_pending, b_go;
  assign aw_sel = s_awaddr_i[SelBit];
  assign aw_full = (aw_ptr_q - b_ptr_q) == (PtrW + 1)'(Depth);
  assign s_awready_o = !aw_full && m_awready_i[aw_sel];
  assign m_awvalid_o = {s_awvalid_i && !aw_full && aw_sel, s_awvalid_i && !aw_full && !aw_sel};
  assign aw_go = s_awvalid_i && s_awready_o;
  assign {m_awid_o, m_awaddr_o, m_awlen_o, m_awsize_o, m_awburst_o} =
         {s_awid_i, s_awaddr_i, s_awlen_i, s_awsize_i, s_awburst_i};

  // W beats wait for their AW (AXI lets a slave do that)
  assign w_pending = w_ptr_q != aw_ptr_q;
  assign w_sel = wq_q[w_ptr_q[PtrW-1:0]];
  assign s_wready_o = w_pending && m_wready_i[w_sel];
  assign m_wvalid_o = {s_wvalid_i && w_pending && w_sel, s_wvalid_i && w_pending && !w_sel};
  assign w_go = s_wvalid_i && s_wready_o && s_wlast_i;
  assign {m_wdata_o, m_wstrb_o, m_wlast_o} = {s_wdata_i, s_wstrb_i, s_wlast_i};

  // B in AW order: only the slave of the oldest open write may answer
  assign b_pending = b_ptr_q != w_ptr_q;
  assign b_sel = wq_q[b_ptr_q[PtrW-1:0]];
  assign s_bvalid_o = b_pending && m_bvalid_i[b_sel];
  assign s_bid_o = b_sel ? m_bid_i[IdWidth +: IdWidth] : m_bid_i[0 +: IdWidth];
  assign s_bresp_o = b_sel ? m_bresp_i[3:2] : m_bresp_i[1:0];
  assign m_bready_o = {s_bready_i && b_pending && b_sel, s_bready_i && b_pending && !b_sel};
  assign b_go = s_bvalid_o && s_bready_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wq_q <= '0;
      aw_ptr_q <= '0;
      w_ptr_q <= '0;
      b_ptr_q <= '0;
    end else begin
      if (aw_go) begin
        wq_q[aw_ptr_q[PtrW-1:0]] <= aw_sel;
        aw_ptr_q <= aw_ptr_q + 1'b1;
      end
      if (w_go) w_ptr_q <= w_ptr_q + 1'b1;
      if (b_go) b_ptr_q <= b_ptr_q + 1'b1;
    end
  end

  // ---- reads: R in AR order, a burst's beats from one slave until RLAST ----------------------
  logic [Depth-1:0] rq_q;
  logic [PtrW:0]    ar_ptr_q, r_ptr_q;
  logic             ar_sel, ar_full, ar_go, r_sel, r_pending, r_go;
  assign ar_sel = s_araddr_i[SelBit];
  assign ar_full = (ar_ptr_q - r_ptr_q) == (PtrW + 1)'(Depth);
  assign s_arready_o = !ar_full && m_arready_i[ar_sel];
  assign m_arvalid_o = {s_arvalid_i && !ar_full && ar_sel, s_arvalid_i && !ar_full && !ar_sel};
  assign ar_go = s_arvalid_i && s_arready_o;
  assign {m_arid_o, m_araddr_o, m_arlen_o, m_arsize_o, m_arburst_o} =
         {s_arid_i, s_araddr_i, s_arlen_i, s_arsize_i, s_arburst_i};

  assign r_pending = r_ptr_q != ar_ptr_q;
  assign r_sel = rq_q[r_ptr_q[PtrW-1:0]];
  assign s_rvalid_o = r_pending && m_rvalid_i[r_sel];
  assign s_rid_o = r_sel ? m_rid_i[IdWidth +: IdWidth] : m_rid_i[0 +: IdWidth];
  assign s_rdata_o = r_sel ? m_rdata_i[DataWidth +: DataWidth] : m_rdata_i[0 +: DataWidth];
  assign s_rresp_o = r_sel ? m_rresp_i[3:2] : m_rresp_i[1:0];
  assign s_rlast_o = m_rlast_i[r_sel];
  assign m_rready_o = {s_rready_i && r_pending && r_sel, s_rready_i && r_pending && !r_sel};
  assign r_go = s_rvalid_o && s_rready_i && s_rlast_o;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rq_q <= '0;
      ar_ptr_q <= '0;
      r_ptr_q <= '0;
    end else begin
      if (ar_go) begin
        rq_q[ar_ptr_q[PtrW-1:0]] <= ar_sel;
        ar_ptr_q <= ar_ptr_q + 1'b1;
      end
      if (r_go) r_ptr_q <= r_ptr_q + 1'b1;
    end
  end
endmodule
