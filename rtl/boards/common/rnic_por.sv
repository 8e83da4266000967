// Power-on reset for a free-running clock that has no reset of its own (the MAC's init clock):
// low for 2**Bits - 1 cycles after configuration, then high for good. Relies on the FPGA's
// configured flop values (the declaration's initial value), which Vivado and Yosys both keep.
module rnic_por #(
  parameter int unsigned Bits = 8
) (
  input  logic clk_i,
  output logic rst_no
);
  logic [Bits-1:0] cnt_q = '0;
  always_ff @(posedge clk_i) begin
    if (!(&cnt_q)) cnt_q <= cnt_q + 1'b1;
  end
  assign rst_no = &cnt_q;
endmodule
