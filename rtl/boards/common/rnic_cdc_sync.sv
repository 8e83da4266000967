// Two-flop synchronizer for level signals that are each meaningful alone (status bits, pause
// requests). Not for buses whose bits must be seen together: use rnic_cdc_frame_fifo's
// handshake or a Gray-coded counter for those. The XDC marks ASYNC_REG cells for placement.
module rnic_cdc_sync #(
  parameter int unsigned Width = 1
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic [Width-1:0] d_i,
  output logic [Width-1:0] q_o
);
  (* ASYNC_REG = "TRUE" *) logic [Width-1:0] s1_q, s2_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s1_q <= '0;
      s2_q <= '0;
    end else begin
      s1_q <= d_i;
      s2_q <= s1_q;
    end
  end
  assign q_o = s2_q;
endmodule
