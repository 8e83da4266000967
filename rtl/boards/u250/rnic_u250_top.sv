// AMD Alveo U250 (XCU250-FIGD2104-2L-E): PCIe Gen3 x16 edge connector, QSFP28 cage 0 (CAUI-4,
// 100G), the 300 MHz DDR reference 0 divided by 3 for the MAC's init clock. The card has no user
// LEDs wired here: the status goes to the board's debug (docs/boards.md says how to read it).
// Pin locations come from the board file at build time (bitstream-scripts/vivado/u250/pins.tcl).
module rnic_u250_top #(
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
  input  logic        qsfp0_refclk_p,
  input  logic        qsfp0_refclk_n,
  output logic [3:0]  qsfp0_txp,
  output logic [3:0]  qsfp0_txn,
  input  logic [3:0]  qsfp0_rxp,
  input  logic [3:0]  qsfp0_rxn,
  output logic        qsfp0_resetl,
  output logic        qsfp0_lpmode,
  output logic        qsfp0_modsell,
  input  logic        clk_300mhz_p,
  input  logic        clk_300mhz_n
);
  logic sys_clk, sys_clk_gt, init_clk, init_rst_n;
  rnic_board_clocks #(.InitDivide(3)) u_clocks (
    .pcie_refclk_p_i(pcie_refclk_p), .pcie_refclk_n_i(pcie_refclk_n), .pcie_sys_clk_o(sys_clk),
    .pcie_sys_clk_gt_o(sys_clk_gt), .osc_p_i(clk_300mhz_p), .osc_n_i(clk_300mhz_n), .init_clk_o(init_clk),
    .init_rst_no(init_rst_n)
  );

  (* MARK_DEBUG = "TRUE" *) logic [5:0] status;
  rnic_board_shell #(
    .DataWidth(DataWidth), .NumQps(NumQps), .RxRqSlots(RxRqSlots), .RxBufBytes(RxBufBytes),
    .RxMetaDepth(RxMetaDepth), .PauseHeadroomBytes(PauseHeadroomBytes),
    .PauseHeadroomFrames(PauseHeadroomFrames), .PauseHystBytes(PauseHystBytes),
    .PauseHystFrames(PauseHystFrames), .FwImemInit(FwImemInit), .FwDmemInit(FwDmemInit)
  ) u_shell (
    .pcie_sys_clk_i(sys_clk), .pcie_sys_clk_gt_i(sys_clk_gt), .pcie_perst_ni(pcie_perst_n),
    .pcie_txp_o(pcie_txp), .pcie_txn_o(pcie_txn), .pcie_rxp_i(pcie_rxp), .pcie_rxn_i(pcie_rxn),
    .qsfp_refclk_p_i(qsfp0_refclk_p), .qsfp_refclk_n_i(qsfp0_refclk_n),
    .qsfp_txp_o(qsfp0_txp), .qsfp_txn_o(qsfp0_txn), .qsfp_rxp_i(qsfp0_rxp), .qsfp_rxn_i(qsfp0_rxn),
    .init_clk_i(init_clk), .init_rst_ni(init_rst_n), .status_o(status)
  );
  assign qsfp0_resetl = 1'b1;
  assign qsfp0_lpmode = 1'b0;
  assign qsfp0_modsell = 1'b0;
  logic unused;
  assign unused = ^status;
endmodule
