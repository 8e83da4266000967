// For Verilator lint only: port declarations of the UltraScale+ primitives the board tops
// instantiate (Yosys has them in its Xilinx cell library, Vivado in UNISIM; neither reads this
// file). Ports as in UG974.
/* verilator lint_off UNDRIVEN */
/* verilator lint_off UNUSEDSIGNAL */
/* verilator lint_off UNUSEDPARAM */
/* verilator lint_off DECLFILENAME */
module IBUFDS_GTE4 #(
  parameter [0:0] REFCLK_EN_TX_PATH = 1'b0,
  parameter [1:0] REFCLK_HROW_CK_SEL = 2'b00,
  parameter [1:0] REFCLK_ICNTL_RX = 2'b00
) (
  output logic O,
  output logic ODIV2,
  input  logic CEB,
  input  logic I,
  input  logic IB
);
endmodule

module BUFG_GT (
  output logic       O,
  input  logic       CE,
  input  logic       CEMASK,
  input  logic       CLR,
  input  logic       CLRMASK,
  input  logic [2:0] DIV,
  input  logic       I
);
endmodule

module IBUFDS (
  output logic O,
  input  logic I,
  input  logic IB
);
endmodule

module BUFGCE_DIV #(
  parameter integer BUFGCE_DIVIDE = 1
) (
  output logic O,
  input  logic CE,
  input  logic CLR,
  input  logic I
);
endmodule
/* verilator lint_on DECLFILENAME */
/* verilator lint_on UNUSEDPARAM */
/* verilator lint_on UNUSEDSIGNAL */
/* verilator lint_on UNDRIVEN */
