// AMD VCU118 (XCVU9P-L2FLGA2104E): PCIe Gen3 x16 edge connector, QSFP28 cage 1 (CAUI-4, 100G),
// the 125 MHz system clock for the MAC's init clock, the eight user LEDs. Pin locations come from
// the board file at build time (bitstream-scripts/vivado/vcu118/pins.tcl), not from this file.
module rnic_vcu118_top #(
  // rnic_core parameters: the flows pass bitstream-scripts/configs/100g.cfg
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
  parameter              FwDmemInit          = ""
) (
  input  logic        pcie_refclk_p,
  input  logic        pcie_refclk_n,
  input  logic        pcie_perst_n,
  output logic [15:0] pcie_txp,
  output logic [15:0] pcie_txn,
  input  logic [15:0] pcie_rxp,
  input  logic [15:0] pcie_rxn,
  input  logic        qsfp1_refclk_p,
  input  logic        qsfp1_refclk_n,
  output logic [3:0]  qsfp1_txp,
  output logic [3:0]  qsfp1_txn,
  input  logic [3:0]  qsfp1_rxp,
  input  logic [3:0]  qsfp1_rxn,
  output logic        qsfp1_resetl,
  output logic        qsfp1_lpmode,
  output logic        qsfp1_modsell,
  input  logic        clk_125mhz_p,
  input  logic        clk_125mhz_n,
  output logic [7:0]  led
);
  logic sys_clk, sys_clk_gt, init_clk, init_rst_n;
  rnic_board_clocks #(.InitDivide(1)) u_clocks (
    .pcie_refclk_p_i(pcie_refclk_p), .pcie_refclk_n_i(pcie_refclk_n), .pcie_sys_clk_o(sys_clk),
    .pcie_sys_clk_gt_o(sys_clk_gt), .osc_p_i(clk_125mhz_p), .osc_n_i(clk_125mhz_n), .init_clk_o(init_clk),
    .init_rst_no(init_rst_n)
  );

  logic [5:0] status;
  rnic_board_shell #(
    .DataWidth(DataWidth), .NumQps(NumQps), .RxRqSlots(RxRqSlots), .RxBufBytes(RxBufBytes),
    .RxMetaDepth(RxMetaDepth), .PauseHeadroomBytes(PauseHeadroomBytes),
    .PauseHeadroomFrames(PauseHeadroomFrames), .PauseHystBytes(PauseHystBytes),
    .PauseHystFrames(PauseHystFrames), .FwImemInit(FwImemInit), .FwDmemInit(FwDmemInit)
  ) u_shell (
    .pcie_sys_clk_i(sys_clk), .pcie_sys_clk_gt_i(sys_clk_gt), .pcie_perst_ni(pcie_perst_n),
    .pcie_txp_o(pcie_txp), .pcie_txn_o(pcie_txn), .pcie_rxp_i(pcie_rxp), .pcie_rxn_i(pcie_rxn),
    .qsfp_refclk_p_i(qsfp1_refclk_p), .qsfp_refclk_n_i(qsfp1_refclk_n),
    .qsfp_txp_o(qsfp1_txp), .qsfp_txn_o(qsfp1_txn), .qsfp_rxp_i(qsfp1_rxp), .qsfp_rxn_i(qsfp1_rxn),
    .init_clk_i(init_clk), .init_rst_ni(init_rst_n), .status_o(status)
  );
  // module out of reset, full power, selected for its management interface
  assign qsfp1_resetl = 1'b1;
  assign qsfp1_lpmode = 1'b0;
  assign qsfp1_modsell = 1'b0;
  // LED 0 PCIe link, 1 MAC aligned, 2 core running, 3 pause sent, 4 pause received, 5 frame
  // dropped at a crossing, 7 init clock alive (docs/boards.md)
  logic [24:0] blink_q;
  always_ff @(posedge init_clk) blink_q <= blink_q + 1'b1;
  assign led = {blink_q[24], 1'b0, status};
endmodule
