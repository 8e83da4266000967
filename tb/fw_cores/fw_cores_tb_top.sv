// Testbench top of the multi-core stream blocks (docs/decisions/multi-core.md): the QPN router
// (rnic_qpn_route) and the round-robin arbiter (rnic_rr_arb) at 1, 2 and 4 cores, 16-bit beats,
// each instance on its own ports so one model covers every core count.
module fw_cores_tb_top (
  input  logic        clk_i,
  input  logic        rst_ni,
  // routers r1, r2, r4
  input  logic        r1_in_valid_i,
  output logic        r1_in_ready_o,
  input  logic [15:0] r1_in_data_i,
  input  logic [23:0] r1_in_qpn_i,
  input  logic        r1_in_any_i,
  output logic [0:0]  r1_out_valid_o,
  input  logic [0:0]  r1_out_ready_i,
  output logic [15:0] r1_out_data_o,
  input  logic        r2_in_valid_i,
  output logic        r2_in_ready_o,
  input  logic [15:0] r2_in_data_i,
  input  logic [23:0] r2_in_qpn_i,
  input  logic        r2_in_any_i,
  output logic [1:0]  r2_out_valid_o,
  input  logic [1:0]  r2_out_ready_i,
  output logic [31:0] r2_out_data_o,
  input  logic        r4_in_valid_i,
  output logic        r4_in_ready_o,
  input  logic [15:0] r4_in_data_i,
  input  logic [23:0] r4_in_qpn_i,
  input  logic        r4_in_any_i,
  output logic [3:0]  r4_out_valid_o,
  input  logic [3:0]  r4_out_ready_i,
  output logic [63:0] r4_out_data_o,
  // arbiters a1, a2, a4
  input  logic [0:0]  a1_in_valid_i,
  output logic [0:0]  a1_in_ready_o,
  input  logic [15:0] a1_in_data_i,
  input  logic [0:0]  a1_in_last_i,
  output logic        a1_out_valid_o,
  input  logic        a1_out_ready_i,
  output logic [15:0] a1_out_data_o,
  output logic        a1_out_last_o,
  output logic [0:0]  a1_out_src_o,
  input  logic [1:0]  a2_in_valid_i,
  output logic [1:0]  a2_in_ready_o,
  input  logic [31:0] a2_in_data_i,
  input  logic [1:0]  a2_in_last_i,
  output logic        a2_out_valid_o,
  input  logic        a2_out_ready_i,
  output logic [15:0] a2_out_data_o,
  output logic        a2_out_last_o,
  output logic [0:0]  a2_out_src_o,
  input  logic [3:0]  a4_in_valid_i,
  output logic [3:0]  a4_in_ready_o,
  input  logic [63:0] a4_in_data_i,
  input  logic [3:0]  a4_in_last_i,
  output logic        a4_out_valid_o,
  input  logic        a4_out_ready_i,
  output logic [15:0] a4_out_data_o,
  output logic        a4_out_last_o,
  output logic [1:0]  a4_out_src_o
);
  rnic_qpn_route #(.NumOut(1), .Width(16)) u_r1 (
    .clk_i, .rst_ni, .in_valid_i(r1_in_valid_i), .in_ready_o(r1_in_ready_o), .in_data_i(r1_in_data_i),
    .in_qpn_i(r1_in_qpn_i), .in_any_i(r1_in_any_i), .out_valid_o(r1_out_valid_o), .out_ready_i(r1_out_ready_i),
    .out_data_o(r1_out_data_o)
  );
  rnic_qpn_route #(.NumOut(2), .Width(16)) u_r2 (
    .clk_i, .rst_ni, .in_valid_i(r2_in_valid_i), .in_ready_o(r2_in_ready_o), .in_data_i(r2_in_data_i),
    .in_qpn_i(r2_in_qpn_i), .in_any_i(r2_in_any_i), .out_valid_o(r2_out_valid_o), .out_ready_i(r2_out_ready_i),
    .out_data_o(r2_out_data_o)
  );
  rnic_qpn_route #(.NumOut(4), .Width(16)) u_r4 (
    .clk_i, .rst_ni, .in_valid_i(r4_in_valid_i), .in_ready_o(r4_in_ready_o), .in_data_i(r4_in_data_i),
    .in_qpn_i(r4_in_qpn_i), .in_any_i(r4_in_any_i), .out_valid_o(r4_out_valid_o), .out_ready_i(r4_out_ready_i),
    .out_data_o(r4_out_data_o)
  );
  rnic_rr_arb #(.NumIn(1), .Width(16)) u_a1 (
    .clk_i, .rst_ni, .in_valid_i(a1_in_valid_i), .in_ready_o(a1_in_ready_o), .in_data_i(a1_in_data_i),
    .in_last_i(a1_in_last_i), .out_valid_o(a1_out_valid_o), .out_ready_i(a1_out_ready_i),
    .out_data_o(a1_out_data_o), .out_last_o(a1_out_last_o), .out_src_o(a1_out_src_o)
  );
  rnic_rr_arb #(.NumIn(2), .Width(16)) u_a2 (
    .clk_i, .rst_ni, .in_valid_i(a2_in_valid_i), .in_ready_o(a2_in_ready_o), .in_data_i(a2_in_data_i),
    .in_last_i(a2_in_last_i), .out_valid_o(a2_out_valid_o), .out_ready_i(a2_out_ready_i),
    .out_data_o(a2_out_data_o), .out_last_o(a2_out_last_o), .out_src_o(a2_out_src_o)
  );
  rnic_rr_arb #(.NumIn(4), .Width(16)) u_a4 (
    .clk_i, .rst_ni, .in_valid_i(a4_in_valid_i), .in_ready_o(a4_in_ready_o), .in_data_i(a4_in_data_i),
    .in_last_i(a4_in_last_i), .out_valid_o(a4_out_valid_o), .out_ready_i(a4_out_ready_i),
    .out_data_o(a4_out_data_o), .out_last_o(a4_out_last_o), .out_src_o(a4_out_src_o)
  );
endmodule
