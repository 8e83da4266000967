// rnic_fifo: small synchronous FIFO built from registers (first-word fall-through), shared by
// the DMA engine, the transmit engine and the core's event queue. Depth must be a power of two
// >= 2. data_o is valid whenever empty_o is low; a push while full or a pop while empty is
// ignored.
module rnic_fifo #(
  parameter int Width = 8,
  parameter int Depth = 2
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  input  logic                       push_i,
  input  logic [Width-1:0]           data_i,
  output logic                       full_o,
  input  logic                       pop_i,
  output logic [Width-1:0]           data_o,
  output logic                       empty_o,
  output logic [$clog2(Depth+1)-1:0] count_o
);
  localparam int PtrW = $clog2(Depth);

  logic [Width-1:0] mem_q [Depth];
  logic [PtrW-1:0]  wptr_q, rptr_q;
  logic [PtrW:0]    cnt_q;
  // full and empty from their own registers, loaded with the next count's compare (issue 16:
  // the compare after cnt_q sat on the paths from a FIFO's level through its users' handshakes
  // back into its own push; the flags' values are the same in every cycle). Held as "not empty"
  // so that both are 0, like the count, before the first reset edge (Verilator's zero initial
  // values: a testbench that samples during reset sees an empty FIFO, as before)
  logic             full_q, nempty_q;

  logic do_push, do_pop;
  assign do_push = push_i && !full_q;
  assign do_pop  = pop_i && nempty_q;

  assign full_o  = full_q;
  assign empty_o = !nempty_q;
  assign data_o  = mem_q[rptr_q];
  assign count_o = cnt_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wptr_q  <= '0;
      rptr_q  <= '0;
      cnt_q   <= '0;
      full_q   <= 1'b0;
      nempty_q <= 1'b0;
    end else begin
      if (do_push) wptr_q <= wptr_q + 1'b1;
      if (do_pop)  rptr_q <= rptr_q + 1'b1;
      if (do_push && !do_pop) begin
        cnt_q   <= cnt_q + 1'b1;
        full_q   <= (cnt_q == (PtrW+1)'(Depth - 1));
        nempty_q <= 1'b1;
      end else if (!do_push && do_pop) begin
        cnt_q   <= cnt_q - 1'b1;
        full_q   <= 1'b0;
        nempty_q <= (cnt_q != (PtrW+1)'(1));
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (do_push) mem_q[wptr_q] <= data_i;
  end
endmodule
