// Routes one stream to the soft core that owns its QP (docs/decisions/multi-core.md): the owner
// is the QPN's low bits (QPN mod NumOut, spec device.max_cores at most), and a beat that belongs
// to no QP (in_any_i) goes to core 0. NumOut = 1 is plain wires (no added cycle). For more cores
// each output has its own one-beat register, so a core whose queue is full stalls only the beats
// routed to it (and, the input being one stream, those behind them); every output sees its beats
// in input order, so the order per QP holds. in_ready_o depends on the beat's QPN (allowed: a
// source holds its beat until taken).
module rnic_qpn_route #(
  parameter int unsigned NumOut = 2,   // 1, 2 or 4 (a power of two)
  parameter int unsigned Width  = 32
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  input  logic                     in_valid_i,
  output logic                     in_ready_o,
  input  logic [Width-1:0]         in_data_i,
  input  logic [23:0]              in_qpn_i,
  input  logic                     in_any_i,    // no QP: core 0's
  output logic [NumOut-1:0]        out_valid_o,
  input  logic [NumOut-1:0]        out_ready_i,
  output logic [NumOut*Width-1:0]  out_data_o
);
  if (NumOut == 1) begin : g_one
    assign out_valid_o = in_valid_i;
    assign in_ready_o = out_ready_i;
    assign out_data_o = in_data_i;
    logic unused;
    assign unused = ^{clk_i, rst_ni, in_qpn_i, in_any_i};
  end else begin : g_many
    localparam int unsigned SelW = $clog2(NumOut);
    logic [SelW-1:0] own;
    logic [NumOut-1:0] v_q, free;
    logic [NumOut*Width-1:0] d_q;  // output k's beat at bits k*Width (a flat vector: Yosys keeps it as flops)
    assign own = in_any_i ? '0 : in_qpn_i[SelW-1:0];
    // an output's register takes a beat when empty or emptied in this cycle
    assign free = ~v_q | out_ready_i;
    assign in_ready_o = free[own];
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) v_q <= '0;
      else for (int k = 0; k < NumOut; k++)
        if (in_valid_i && in_ready_o && own == SelW'(k)) v_q[k] <= 1'b1;
        else if (out_ready_i[k]) v_q[k] <= 1'b0;
    end
    always_ff @(posedge clk_i) begin
      for (int k = 0; k < NumOut; k++)
        if (in_valid_i && free[k] && own == SelW'(k)) d_q[k*Width +: Width] <= in_data_i;
    end
    assign out_valid_o = v_q;
    assign out_data_o = d_q;
    logic unused;
    assign unused = ^in_qpn_i[23:SelW];
  end
endmodule
