// dma_req_ports: the request side of one direction of dma_engine (read or write): one
// dma_req_skid per client, the round-robin arbiter over their heads, and the picked request
// for the engine. The engine's req_ready is eng_ready_i; a head leaves when it is picked and
// the engine takes it.
module dma_req_ports #(
  parameter int N        = 2,
  parameter int TagWidth = 8,
  parameter int IdxW     = (N > 1) ? $clog2(N) : 1,
  parameter int OffW     = 6   // log2 of the engine's bus width in bytes (for one_o)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // the clients' request ports (flat: client i uses bits [i*W +: W])
  input  logic [N-1:0]         req_valid_i,
  output logic [N-1:0]         req_ready_o,
  input  logic [N*64-1:0]      req_addr_i,
  input  logic [N*32-1:0]      req_len_i,
  input  logic [N*TagWidth-1:0] req_tag_i,
  // the picked request, towards the engine
  output logic                 valid_o,
  input  logic                 eng_ready_i,
  output logic [IdxW-1:0]      idx_o,
  output logic [63:0]          addr_o,
  output logic [31:0]          len_o,
  output logic [TagWidth-1:0]  tag_o,
  // of the picked request, worked out per head before the pick (issue 16: behind the pick the
  // write engine's intake compare made a 10-LUT-level path): its length is not 0, and it ends
  // inside its first bus word (length plus the address's offset in the word <= the word)
  output logic                 nz_o,
  output logic                 one_o
);
  localparam int ReqW = 64 + 32 + TagWidth;

  logic [N-1:0]      hd_valid, take, hd_nz, hd_one;
  logic [N*ReqW-1:0] hd_data;  // flat, as the client ports (Yosys 0.23: no array elements on ports)
  for (genvar i = 0; i < N; i++) begin : g_port
    dma_req_skid #(.Width(ReqW)) u_skid (
      .clk_i, .rst_ni,
      .in_valid_i (req_valid_i[i]),
      .in_ready_o (req_ready_o[i]),
      .in_data_i  ({req_tag_i[i*TagWidth +: TagWidth], req_len_i[i*32 +: 32], req_addr_i[i*64 +: 64]}),
      .out_valid_o(hd_valid[i]),
      .out_ready_i(take[i]),
      .out_data_o (hd_data[i*ReqW +: ReqW])
    );
    assign take[i] = eng_ready_i && valid_o && idx_o == IdxW'(i);
    logic [31:0] len;
    logic [OffW-1:0] off;
    assign len = hd_data[i*ReqW + 64 +: 32];
    assign off = hd_data[i*ReqW +: OffW];
    assign hd_nz[i]  = len != '0;
    assign hd_one[i] = len[31:OffW+1] == '0 &&
                       (OffW+2)'(len[OffW:0]) + (OffW+2)'(off) <= (OffW+2)'(1 << OffW);
  end
  dma_arbiter #(.N(N), .IdxW(IdxW)) u_arb (
    .clk_i, .rst_ni,
    .req_i  (hd_valid),
    .ack_i  (eng_ready_i),
    .valid_o(valid_o),
    .idx_o  (idx_o)
  );
  // picked with constant part-selects: ReqW is no power of two, and an index times ReqW
  // would be a multiplier and shifter in front of the engine
  logic [ReqW-1:0] sel;
  always_comb begin
    sel = hd_data[0 +: ReqW];
    nz_o = hd_nz[0];
    one_o = hd_one[0];
    for (int i = 1; i < N; i++)
      if (idx_o == IdxW'(i)) begin
        sel = hd_data[i*ReqW +: ReqW];
        nz_o = hd_nz[i];
        one_o = hd_one[i];
      end
  end
  assign addr_o = sel[63:0];
  assign len_o  = sel[64 +: 32];
  assign tag_o  = sel[96 +: TagWidth];
endmodule
