// rv_regfile: 31 x 32-bit registers (x0 reads zero), two asynchronous read ports, one write port.
// Infers distributed RAM (LUTRAM).
module rv_regfile (
  input  logic        clk_i,
  input  logic [4:0]  ra_i,
  output logic [31:0] rdata_a_o,
  input  logic [4:0]  rb_i,
  output logic [31:0] rdata_b_o,
  input  logic        we_i,
  input  logic [4:0]  wa_i,
  input  logic [31:0] wdata_i
);
  logic [31:0] regs [32];

  always_ff @(posedge clk_i) begin
    if (we_i) regs[wa_i] <= wdata_i;
  end

  assign rdata_a_o = (ra_i == 5'd0) ? 32'd0 : regs[ra_i];
  assign rdata_b_o = (rb_i == 5'd0) ? 32'd0 : regs[rb_i];
endmodule
