// The MSI-X table and pending-bit array of the function, for a PCIe bridge whose MSI-X is
// external to the IP (XDMA in AXI bridge mode): the capability in config space points at BAR2,
// the table at offset 0 (NumVectors x 16 bytes: address low, address high, data, vector control
// with the mask in bit 0) and the PBA at PbaOffset. The host reaches both through this AXI-Lite
// slave (32-bit accesses; the axi_to_axil bridge splits wider ones).
//
// rnic_core's rnic_msix asks for one vector at a time and waits for the acknowledge. Taking the
// request here at once (it becomes a pending bit) keeps a vector the host masked in the table from
// holding up the others; a pending vector is sent when its entry and the function are unmasked
// and MSI-X is enabled (PCIe rule), lowest first, as one cfg_interrupt_msix_int pulse with the
// entry's address and data; the bridge answers sent (pending clears) or fail (sent again).
module rnic_msix_table #(
  parameter int unsigned NumVectors = 32,
  parameter int unsigned AddrWidth  = 16,
  parameter int unsigned PbaOffset  = 'h8000
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  input  logic [AddrWidth-1:0]          s_axil_awaddr_i,
  input  logic                          s_axil_awvalid_i,
  output logic                          s_axil_awready_o,
  input  logic [31:0]                   s_axil_wdata_i,
  input  logic [3:0]                    s_axil_wstrb_i,
  input  logic                          s_axil_wvalid_i,
  output logic                          s_axil_wready_o,
  output logic [1:0]                    s_axil_bresp_o,
  output logic                          s_axil_bvalid_o,
  input  logic                          s_axil_bready_i,
  input  logic [AddrWidth-1:0]          s_axil_araddr_i,
  input  logic                          s_axil_arvalid_i,
  output logic                          s_axil_arready_o,
  output logic [31:0]                   s_axil_rdata_o,
  output logic [1:0]                    s_axil_rresp_o,
  output logic                          s_axil_rvalid_o,
  input  logic                          s_axil_rready_i,
  // from rnic_core
  input  logic                          msix_req_i,
  input  logic [$clog2(NumVectors)-1:0] msix_vector_i,
  output logic                          msix_ack_o,
  // to the bridge's configuration interface (physical function 0)
  input  logic                          cfg_msix_enable_i,
  input  logic                          cfg_msix_mask_i,    // function mask
  output logic                          cfg_msix_int_o,
  output logic [63:0]                   cfg_msix_address_o,
  output logic [31:0]                   cfg_msix_data_o,
  input  logic                          cfg_msix_sent_i,
  input  logic                          cfg_msix_fail_i,
  output logic [31:0]                   fail_count_o       // bridge refusals (diagnostics)
);
  localparam int unsigned VecW = $clog2(NumVectors);
  logic [31:0] addr_lo_q [NumVectors];
  logic [31:0] addr_hi_q [NumVectors];
  logic [31:0] data_q    [NumVectors];
  logic [NumVectors-1:0] mask_q, pending_q;

  // ---- register access ---------------------------------------------------------------------
  function automatic logic [31:0] merge(input logic [31:0] old, input logic [31:0] d, input logic [3:0] s);
    for (int b = 0; b < 4; b++) merge[b*8 +: 8] = s[b] ? d[b*8 +: 8] : old[b*8 +: 8];
  endfunction

  logic wr, in_tbl_w, in_pba_w, in_pba_r, in_tbl_r;
  logic [VecW-1:0] wvec, rvec;
  assign wr = s_axil_awvalid_i && s_axil_wvalid_i && !s_axil_bvalid_o;
  assign s_axil_awready_o = wr;
  assign s_axil_wready_o = wr;
  assign in_tbl_w = s_axil_awaddr_i < AddrWidth'(NumVectors * 16);
  assign wvec = s_axil_awaddr_i[VecW+3:4];
  assign s_axil_arready_o = !s_axil_rvalid_o;
  assign in_tbl_r = s_axil_araddr_i < AddrWidth'(NumVectors * 16);
  assign in_pba_r = s_axil_araddr_i[AddrWidth-1:2] == (AddrWidth-2)'(PbaOffset >> 2);
  assign in_pba_w = s_axil_awaddr_i[AddrWidth-1:2] == (AddrWidth-2)'(PbaOffset >> 2);
  assign rvec = s_axil_araddr_i[VecW+3:4];

  // ---- sending -----------------------------------------------------------------------------
  logic busy_q;
  logic [VecW-1:0] cur_q, pick;
  logic [NumVectors-1:0] ready;
  assign ready = pending_q & ~mask_q & {NumVectors{cfg_msix_enable_i && !cfg_msix_mask_i}};
  always_comb begin
    pick = '0;
    for (int i = NumVectors - 1; i >= 0; i--) if (ready[i]) pick = VecW'(i);
  end
  assign msix_ack_o = msix_req_i;  // taken into pending_q this cycle

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int i = 0; i < NumVectors; i++) begin
        addr_lo_q[i] <= '0;
        addr_hi_q[i] <= '0;
        data_q[i] <= '0;
      end
      mask_q <= '1;  // PCIe: every vector starts masked
      pending_q <= '0;
      s_axil_bvalid_o <= 1'b0;
      s_axil_bresp_o <= 2'b00;
      s_axil_rvalid_o <= 1'b0;
      s_axil_rresp_o <= 2'b00;
      s_axil_rdata_o <= '0;
      busy_q <= 1'b0;
      cur_q <= '0;
      cfg_msix_int_o <= 1'b0;
      cfg_msix_address_o <= '0;
      cfg_msix_data_o <= '0;
      fail_count_o <= '0;
    end else begin
      logic [NumVectors-1:0] set, clr;
      set = '0;
      clr = '0;
      if (msix_req_i) set[msix_vector_i] = 1'b1;
      // writes: table fields; the PBA is read-only
      if (s_axil_bvalid_o && s_axil_bready_i) s_axil_bvalid_o <= 1'b0;
      if (wr) begin
        s_axil_bvalid_o <= 1'b1;
        s_axil_bresp_o <= 2'b00;
        if (in_tbl_w) begin
          unique case (s_axil_awaddr_i[3:2])
            2'd0: addr_lo_q[wvec] <= merge(addr_lo_q[wvec], s_axil_wdata_i, s_axil_wstrb_i) & 32'hFFFF_FFFC;
            2'd1: addr_hi_q[wvec] <= merge(addr_hi_q[wvec], s_axil_wdata_i, s_axil_wstrb_i);
            2'd2: data_q[wvec] <= merge(data_q[wvec], s_axil_wdata_i, s_axil_wstrb_i);
            default: if (s_axil_wstrb_i[0]) mask_q[wvec] <= s_axil_wdata_i[0];
          endcase
        end else if (!in_pba_w) begin
          s_axil_bresp_o <= 2'b10;
        end
      end
      if (s_axil_rvalid_o && s_axil_rready_i) s_axil_rvalid_o <= 1'b0;
      if (s_axil_arvalid_i && s_axil_arready_o) begin
        s_axil_rvalid_o <= 1'b1;
        s_axil_rresp_o <= 2'b00;
        if (in_tbl_r) begin
          unique case (s_axil_araddr_i[3:2])
            2'd0: s_axil_rdata_o <= addr_lo_q[rvec];
            2'd1: s_axil_rdata_o <= addr_hi_q[rvec];
            2'd2: s_axil_rdata_o <= data_q[rvec];
            default: s_axil_rdata_o <= {31'd0, mask_q[rvec]};
          endcase
        end else if (in_pba_r) begin
          s_axil_rdata_o <= 32'(pending_q);
        end else begin
          s_axil_rdata_o <= '0;  // reserved space inside the BAR reads as zero
        end
      end
      // one message at a time
      cfg_msix_int_o <= 1'b0;
      if (!busy_q && |ready) begin
        busy_q <= 1'b1;
        cur_q <= pick;
        cfg_msix_int_o <= 1'b1;
        cfg_msix_address_o <= {addr_hi_q[pick], addr_lo_q[pick]};
        cfg_msix_data_o <= data_q[pick];
      end else if (busy_q && cfg_msix_sent_i) begin
        busy_q <= 1'b0;
        clr[cur_q] = 1'b1;
      end else if (busy_q && cfg_msix_fail_i) begin
        busy_q <= 1'b0;  // still pending: picked again
        fail_count_o <= fail_count_o + 1'b1;
      end
      pending_q <= (pending_q & ~clr) | set;
    end
  end
endmodule
