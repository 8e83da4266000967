// Clock inputs every board top has: the PCIe reference (the bridge wants it twice: straight to
// the GTs and, halved by ODIV2, on a global buffer) and a free-running board oscillator divided
// down for the MAC's init/DRP clock, with a power-on reset in that clock.
module rnic_board_clocks #(
  parameter int unsigned InitDivide = 1  // oscillator / InitDivide = init clock (100-125 MHz)
) (
  input  logic pcie_refclk_p_i,
  input  logic pcie_refclk_n_i,
  output logic pcie_sys_clk_o,
  output logic pcie_sys_clk_gt_o,
  input  logic osc_p_i,
  input  logic osc_n_i,
  output logic init_clk_o,
  output logic init_rst_no
);
  logic refclk_div2, osc;
  IBUFDS_GTE4 u_pcie_refclk (
    .I(pcie_refclk_p_i), .IB(pcie_refclk_n_i), .CEB(1'b0), .O(pcie_sys_clk_gt_o), .ODIV2(refclk_div2)
  );
  BUFG_GT u_pcie_refclk_bufg (
    .I(refclk_div2), .CE(1'b1), .CEMASK(1'b0), .CLR(1'b0), .CLRMASK(1'b0), .DIV(3'd0), .O(pcie_sys_clk_o)
  );
  IBUFDS u_osc_ibuf (.I(osc_p_i), .IB(osc_n_i), .O(osc));
  BUFGCE_DIV #(.BUFGCE_DIVIDE(InitDivide)) u_init_bufg (.I(osc), .CE(1'b1), .CLR(1'b0), .O(init_clk_o));
  rnic_por u_por (.clk_i(init_clk_o), .rst_no(init_rst_no));
endmodule
