// Reset into a clock domain: asserts at once (asynchronously), releases two edges of clk_i after
// rst_ni rises, so every flop of the domain leaves reset in the same cycle.
module rnic_reset_sync (
  input  logic clk_i,
  input  logic rst_ni,
  output logic rst_no
);
  (* ASYNC_REG = "TRUE" *) logic [1:0] q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) q <= 2'b00;
    else q <= {q[0], 1'b1};
  end
  assign rst_no = q[1];
endmodule
