// roce_vlan_ins: 802.1Q tag insertion toward the MAC (priority marking for PFC). With enable_i
// (sampled per frame at the beat holding frame bytes 12..15) every frame gets the tag
// 0x8100 | PCP DEI=0 VID after the source MAC: PCP is bits 7:5 of the IPv4 DSCP/ECN byte (the
// DSCP class selector, so the traffic class a QP or address handle sets picks the PFC
// priority), 0 for frames that are not IPv4. Without it frames pass unchanged. AXI-Stream, byte 0
// in bits 7:0, contiguous tkeep; output registered (one cycle of latency); a frame whose last
// beat has more than DataWidth/8 - 4 bytes takes one more beat out.
// Timing: no byte count. With a contiguous tkeep every question about a beat's length is one
// keep bit (more than k bytes: keep[k]) and the output keep of a shifted beat is the input keep
// moved up 4 bytes, so the data register's enable and mask come from the input keep in a LUT or
// two (the popcount carry chain that was here made the 100g core's longest path, 18 levels).
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
  localparam int P = 12 % NB;       // byte of the insertion point inside its beat
  localparam int IB = 12 / NB;      // beat of the insertion point (1 at 64 bits, else 0)

  logic                 o_valid_q, o_last_q, tail_q, shift_q;
  logic [DataWidth-1:0] o_data_q;
  logic [NB-1:0]        o_keep_q;
  logic [31:0]          c_data_q;   // the 4 bytes pushed out of the previous beat
  logic [3:0]           c_keep_q;   // which of them are frame bytes (the tail beat's keep)
  logic [1:0]           beat_q;     // input beat of the frame, saturating at IB + 1

  logic take, fire;
  assign take = !o_valid_q || m_tready_i;
  assign s_tready_o = take && !tail_q;
  assign fire = s_tvalid_i && s_tready_o;

  function automatic logic [DataWidth-1:0] dmask(input logic [NB-1:0] k);
    logic [DataWidth-1:0] m;
    for (int j = 0; j < NB; j++) m[8*j +: 8] = {8{k[j]}};
    dmask = m;
  endfunction

  // the input beat's keep with the tag's 4 bytes in front: the output keep of a shifted beat
  // (its top 4 bits are the bytes that spill into the next beat)
  logic [NB+3:0] skeep;
  assign skeep = {s_tkeep_i, 4'hf};

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
      c_keep_q  <= '0;
      tail_q    <= 1'b0;
      shift_q   <= 1'b0;
      beat_q    <= '0;
    end else begin
      if (take) o_valid_q <= 1'b0;
      if (tail_q && take) begin
        // the frame's last bytes, pushed out of its last input beat
        o_valid_q <= 1'b1;
        o_data_q  <= {{(DataWidth-32){1'b0}}, c_data_q & {{8{c_keep_q[3]}}, {8{c_keep_q[2]}},
                                                       {8{c_keep_q[1]}}, {8{c_keep_q[0]}}}};
        o_keep_q  <= NB'(c_keep_q);
        o_last_q  <= 1'b1;
        tail_q    <= 1'b0;
        shift_q   <= 1'b0;
      end else if (fire) begin
        logic [DataWidth-1:0] d;
        logic [NB-1:0]        k;    // output keep of this beat
        logic                 sh, over;
        // the tag goes in at byte P of this beat when the beat reaches past it (keep[P])
        sh   = shift_q || (32'(beat_q) == IB && enable_i && s_tkeep_i[P]);
        d    = shift_q ? shf : (sh ? ins : s_tdata_i);
        k    = sh ? skeep[NB-1:0] : s_tkeep_i;
        // more than NB bytes out: a shifted beat of more than NB - 4 bytes (keep[NB-4])
        over = sh && s_tkeep_i[NB-4];
        o_valid_q <= 1'b1;
        c_data_q  <= s_tdata_i[DataWidth-32 +: 32];
        c_keep_q  <= skeep[NB +: 4];
        if (over) begin
          o_data_q <= d;
          o_keep_q <= '1;
          o_last_q <= 1'b0;
          tail_q   <= s_tlast_i;
        end else begin
          o_data_q <= d & dmask(k);
          o_keep_q <= k;
          o_last_q <= s_tlast_i;
        end
        shift_q <= sh && !(s_tlast_i && !over);
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
