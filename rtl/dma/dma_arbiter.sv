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

  // The pick for each pointer value with constant indices (the scan order (p + i) mod N is
  // folded at elaboration), selected by the pointer: a function of the requests and ptr_q
  // alone. (Scanning from the variable pointer with integer arithmetic left 32-bit adders and
  // compares in the request -> grant -> ready path, where a LUT mapper cannot see past them.)
  always_comb begin : p_pick
    logic found;
    valid_o = |req_i;
    idx_o   = '0;
    for (int p = 0; p < N; p++) begin
      found = 1'b0;
      for (int i = 0; i < N; i++) begin
        if (ptr_q == IdxW'(p) && !found && req_i[(p + i) % N]) begin
          found = 1'b1;
          idx_o = IdxW'((p + i) % N);
        end
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
