// Round-robin arbiter of NumIn streams (one per soft core, docs/decisions/multi-core.md) into
// one engine port. A transfer (beats up to and including last) is never split: the grant stays
// with its input until its last beat is taken; the next grant goes to the first valid input
// after the one served last. An offer the engine has not taken stays the same (the grant is
// held while out_valid_o waits), so the output keeps AXI-Stream's rules. out_src_o tells the
// engine which core the beat came from. The grant depends on the inputs' valid only, never on
// out_ready_i. NumIn = 1 is plain wires (no added cycle).
module rnic_rr_arb #(
  parameter int unsigned NumIn = 2,    // 1, 2 or 4 (a power of two)
  parameter int unsigned Width = 32,
  localparam int unsigned SrcW = NumIn > 1 ? $clog2(NumIn) : 1
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  input  logic [NumIn-1:0]        in_valid_i,
  output logic [NumIn-1:0]        in_ready_o,
  input  logic [NumIn*Width-1:0]  in_data_i,
  input  logic [NumIn-1:0]        in_last_i,
  output logic                    out_valid_o,
  input  logic                    out_ready_i,
  output logic [Width-1:0]        out_data_o,
  output logic                    out_last_o,
  output logic [SrcW-1:0]         out_src_o
);
  if (NumIn == 1) begin : g_one
    assign out_valid_o = in_valid_i;
    assign in_ready_o = out_ready_i;
    assign out_data_o = in_data_i;
    assign out_last_o = in_last_i;
    assign out_src_o = '0;
    logic unused;
    assign unused = ^{clk_i, rst_ni};
  end else begin : g_many
    logic [SrcW-1:0] ptr_q, gnt_q, pick, gnt;
    logic lock_q, any;
    // the first valid input at or after ptr_q (indices wrap: NumIn is a power of two)
    always_comb begin
      pick = ptr_q;
      any = 1'b0;
      for (int i = NumIn - 1; i >= 0; i--)
        if (in_valid_i[ptr_q + SrcW'(i)]) begin
          pick = ptr_q + SrcW'(i);
          any = 1'b1;
        end
    end
    assign gnt = lock_q ? gnt_q : pick;
    assign out_valid_o = lock_q ? in_valid_i[gnt_q] : any;
    assign out_data_o = in_data_i[gnt*Width +: Width];
    assign out_last_o = in_last_i[gnt];
    assign out_src_o = gnt;
    always_comb begin
      in_ready_o = '0;
      in_ready_o[gnt] = out_ready_i;
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        lock_q <= 1'b0;
        gnt_q <= '0;
        ptr_q <= '0;
      end else if (out_valid_o) begin
        gnt_q <= gnt;
        // held while the offer waits and between the beats of a transfer; freed by its last beat
        lock_q <= !(out_ready_i && out_last_o);
        if (out_ready_i && out_last_o) ptr_q <= gnt + 1'b1;
      end
    end
  end
endmodule
