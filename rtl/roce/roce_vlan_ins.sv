// roce_vlan_ins: 802.1Q tag insertion toward the MAC (priority marking for PFC). With enable_i
// (sampled per frame at the beat holding frame bytes 12..15) every frame gets the tag
// 0x8100 | PCP DEI=0 VID after the source MAC: PCP is bits 7:5 of the IPv4 DSCP/ECN byte (the
// DSCP class selector, so the traffic class a QP or address handle sets picks the PFC
// priority), 0 for frames that are not IPv4. Without it frames pass unchanged. AXI-Stream, byte 0
// in bits 7:0, contiguous tkeep; output registered (one cycle of latency); a frame whose last
// beat has more than DataWidth/8 - 4 bytes takes one more beat out.
module roce_vlan_ins #(
  parameter int DataWidth = 512
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   enable_i,
  input  logic [11:0]            vid_i,
  input  logic [DataWidth-1:0]   s_tdata_i,
  input  logic [DataWidth/8-1:0] s_tkeep_i,
  input  logic                   s_tlast_i,
  input  logic                   s_tvalid_i,
  output logic                   s_tready_o,
  output logic [DataWidth-1:0]   m_tdata_o,
  output logic [DataWidth/8-1:0] m_tkeep_o,
  output logic                   m_tlast_o,
  output logic                   m_tvalid_o,
  input  logic                   m_tready_i
);
  localparam int NB = DataWidth / 8;
  localparam int LNB = $clog2(NB);
  localparam int P = 12 % NB;       // byte of the insertion point inside its beat
  localparam int IB = 12 / NB;      // beat of the insertion point (1 at 64 bits, else 0)

  logic                 o_valid_q, o_last_q, tail_q, shift_q;
  logic [DataWidth-1:0] o_data_q;
  logic [NB-1:0]        o_keep_q;
  logic [31:0]          c_data_q;   // the 4 bytes pushed out of the previous beat
  logic [2:0]           c_cnt_q;
  logic [1:0]           beat_q;     // input beat of the frame, saturating at IB + 1

  logic take, fire;
  assign take = !o_valid_q || m_tready_i;
  assign s_tready_o = take && !tail_q;
  assign fire = s_tvalid_i && s_tready_o;

  function automatic logic [NB-1:0] kmask(input logic [LNB+1:0] n);
    logic [NB-1:0] m;
    for (int j = 0; j < NB; j++) m[j] = 32'(j) < 32'(n);
    kmask = m;
  endfunction
  function automatic logic [DataWidth-1:0] dmask(input logic [NB-1:0] k);
    logic [DataWidth-1:0] m;
    for (int j = 0; j < NB; j++) m[8*j +: 8] = {8{k[j]}};
    dmask = m;
  endfunction

  // bytes of the input beat
  logic [LNB+1:0] cnt;
  always_comb begin
    cnt = '0;
    for (int j = 0; j < NB; j++) cnt = cnt + (LNB+2)'(s_tkeep_i[j]);
  end

  // the tag: PCP from the DSCP/ECN byte (frame byte 15) when the ethertype is IPv4
  logic [2:0]  pcp;
  logic [31:0] tag;
  assign pcp = roce_pkg::frame_prio(s_tdata_i[8*P +: 8], s_tdata_i[8*(P+1) +: 8], s_tdata_i[8*(P+3)+5 +: 3]);
  assign tag = {vid_i[7:0], pcp, 1'b0, vid_i[11:8], 8'h00, 8'h81};

  logic [DataWidth-1:0] ins, shf;
  generate
    if (8 * P + 32 < DataWidth) begin : g_ins
      assign ins = {s_tdata_i[DataWidth-33:8*P], tag, s_tdata_i[8*P-1:0]};
    end else begin : g_ins_end
      assign ins = {tag, s_tdata_i[8*P-1:0]};
    end
  endgenerate
  assign shf = {s_tdata_i[DataWidth-33:0], c_data_q};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      o_valid_q <= 1'b0;
      o_last_q  <= 1'b0;
      o_data_q  <= '0;
      o_keep_q  <= '0;
      c_data_q  <= '0;
      c_cnt_q   <= '0;
      tail_q    <= 1'b0;
      shift_q   <= 1'b0;
      beat_q    <= '0;
    end else begin
      if (take) o_valid_q <= 1'b0;
      if (tail_q && take) begin
        // the frame's last bytes, pushed out of its last input beat
        o_valid_q <= 1'b1;
        o_data_q  <= {{(DataWidth-32){1'b0}}, c_data_q} & dmask(kmask((LNB+2)'(c_cnt_q)));
        o_keep_q  <= kmask((LNB+2)'(c_cnt_q));
        o_last_q  <= 1'b1;
        tail_q    <= 1'b0;
        shift_q   <= 1'b0;
      end else if (fire) begin
        logic [DataWidth-1:0] d;
        logic [LNB+2:0]       n;    // output bytes of this beat (up to NB + 4)
        logic                 sh;
        sh = shift_q || (32'(beat_q) == IB && enable_i && 32'(cnt) > P);
        d  = shift_q ? shf : (sh ? ins : s_tdata_i);
        n  = sh ? (LNB+3)'(cnt) + (LNB+3)'(4) : (LNB+3)'(cnt);
        o_valid_q <= 1'b1;
        c_data_q  <= s_tdata_i[DataWidth-32 +: 32];
        if (32'(n) > NB) begin
          o_data_q <= d;
          o_keep_q <= '1;
          o_last_q <= 1'b0;
          c_cnt_q  <= 3'(n - (LNB+3)'(NB));
          tail_q   <= s_tlast_i;
        end else begin
          o_data_q <= d & dmask(kmask((LNB+2)'(n)));
          o_keep_q <= kmask((LNB+2)'(n));
          o_last_q <= s_tlast_i;
        end
        shift_q <= sh && !(s_tlast_i && 32'(n) <= NB);
        if (s_tlast_i) beat_q <= '0;
        else if (32'(beat_q) <= IB) beat_q <= beat_q + 2'd1;
      end
    end
  end

  assign m_tvalid_o = o_valid_q;
  assign m_tdata_o  = o_data_q;
  assign m_tkeep_o  = o_keep_q;
  assign m_tlast_o  = o_last_q;
endmodule
