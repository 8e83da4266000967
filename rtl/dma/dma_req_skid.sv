// dma_req_skid: one client's request port in front of the engine's arbiter, two entries deep.
// The client's ready is a flop (the skid entry is empty), so no path runs from a client's valid
// through the arbiter and the engine back into the client in one cycle (issue 16: 10 LUT levels
// in the 100g core); the arbiter and the engine see only the head register. Two entries keep a
// client's back-to-back requests going one per cycle while the engine takes them: with one
// entry a client could hand over at most every other cycle. Cost: one cycle from the client's
// handshake to the engine's.
module dma_req_skid #(
  parameter int Width = 8
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             in_valid_i,
  output logic             in_ready_o,
  input  logic [Width-1:0] in_data_i,
  output logic             out_valid_o,
  input  logic             out_ready_i,
  output logic [Width-1:0] out_data_o
);
  logic             hd_v_q, sk_v_q;  // head (seen by the arbiter), skid (behind it)
  logic [Width-1:0] hd_q, sk_q;
  logic             in_fire, hd_free;

  assign in_ready_o  = !sk_v_q;
  assign in_fire     = in_valid_i && !sk_v_q;
  // the skid entry is only full while the head is (an empty head loads from the client first)
  assign hd_free     = !hd_v_q || out_ready_i;
  assign out_valid_o = hd_v_q;
  assign out_data_o  = hd_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      hd_v_q <= 1'b0;
      sk_v_q <= 1'b0;
    end else if (hd_free) begin
      hd_v_q <= sk_v_q || in_fire;
      sk_v_q <= 1'b0;
    end else if (in_fire) begin
      sk_v_q <= 1'b1;
    end
  end

  // data registers under their enables only (no reset, no clearing: see docs/development.md)
  always_ff @(posedge clk_i) begin
    if (hd_free && (sk_v_q || in_fire)) hd_q <= sk_v_q ? sk_q : in_data_i;
    if (!hd_free && in_fire) sk_q <= in_data_i;
  end
endmodule
