// dma_arbiter: round-robin arbiter. The request found first at or after the pointer wins;
// when the winner is taken (ack_i) the pointer moves just past it, so every requester is
// served within N grants (no starvation).
module dma_arbiter #(
  parameter int N    = 2,
  parameter int IdxW = (N > 1) ? $clog2(N) : 1
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic [N-1:0]    req_i,
  input  logic            ack_i,
  output logic            valid_o,
  output logic [IdxW-1:0] idx_o
);
  logic [IdxW-1:0] ptr_q;

  always_comb begin : p_pick
    int c;
    valid_o = 1'b0;
    idx_o   = '0;
    for (int i = 0; i < N; i++) begin
      c = 32'(ptr_q) + i;
      if (c >= N) c = c - N;
      if (!valid_o && req_i[c]) begin
        valid_o = 1'b1;
        idx_o   = IdxW'(c);
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ptr_q <= '0;
    end else if (ack_i && valid_o) begin
      if (32'(idx_o) == N - 1) ptr_q <= '0;
      else ptr_q <= idx_o + 1'b1;
    end
  end
endmodule
