// MSI-X request interface toward the PCIe bridge (which owns the MSI-X table). Sources raise a
// vector; it stays pending until requested and acknowledged; a masked vector stays pending
// and is requested once unmasked. Lowest pending vector first.
module rnic_msix #(
  parameter int unsigned NumVectors = 32
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic [NumVectors-1:0] raise_i,    // one-cycle pulses
  input  logic [NumVectors-1:0] mask_i,
  output logic [NumVectors-1:0] pending_o,
  output logic                  msix_req_o,
  output logic [$clog2(NumVectors)-1:0] msix_vector_o,
  input  logic                  msix_ack_i
);
  logic [NumVectors-1:0] pending_q, ready;
  logic [$clog2(NumVectors)-1:0] pick;
  assign ready = pending_q & ~mask_i;

  // The loop only when a vector is ready (with none it leaves pick at 0 anyway, so the function
  // is the same): Verilator runs it on every cycle otherwise (docs/sim-speed.md, step 21).
  always_comb begin
    pick = '0;
    if (|ready)
      for (int i = NumVectors - 1; i >= 0; i--) if (ready[i]) pick = i[$clog2(NumVectors)-1:0];
  end

  // The vector on the interface is held while a request is outstanding.
  logic busy_q;
  logic [$clog2(NumVectors)-1:0] vec_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pending_q <= '0;
      busy_q <= 1'b0;
      vec_q <= '0;
    end else begin
      logic [NumVectors-1:0] clr;
      clr = '0;
      if (busy_q && msix_ack_i) begin
        busy_q <= 1'b0;
        clr[vec_q] = 1'b1;
      end else if (!busy_q && |ready) begin
        busy_q <= 1'b1;
        vec_q <= pick;
      end
      pending_q <= (pending_q & ~clr) | raise_i;
    end
  end
  assign msix_req_o = busy_q;
  assign msix_vector_o = vec_q;
  assign pending_o = pending_q;
endmodule
