// roce_vlan_strip: removes an 802.1Q tag (ethertype 0x8100 after the source MAC) from frames
// arriving from the MAC, whatever its VLAN ID and priority, so the parsers behind it see the
// untagged frame; untagged frames pass unchanged. AXI-Stream, byte 0 in bits 7:0, contiguous
// tkeep; output registered (one cycle of latency); the beat holding the tag (frame bytes
// 12..15) is held until the next beat fills the 4 bytes it lost. tagged_o pulses once per
// tagged frame.
// Timing: no byte count. With a contiguous tkeep "more than k bytes" is keep[k], and every output
// keep is the input keep moved by 4 bytes or filled up with held bytes, so the registers' enables
// and masks come from keep bits directly (a popcount carry chain here made an 8-level path).
module roce_vlan_strip #(
  parameter int DataWidth = 512
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic [DataWidth-1:0]   s_tdata_i,
  input  logic [DataWidth/8-1:0] s_tkeep_i,
  input  logic                   s_tlast_i,
  input  logic                   s_tvalid_i,
  output logic                   s_tready_o,
  output logic [DataWidth-1:0]   m_tdata_o,
  output logic [DataWidth/8-1:0] m_tkeep_o,
  output logic                   m_tlast_o,
  output logic                   m_tvalid_o,
  input  logic                   m_tready_i,
  output logic                   tagged_o
);
  localparam int NB = DataWidth / 8;
  localparam int P = 12 % NB;       // byte of the tag inside its beat
  localparam int IB = 12 / NB;      // beat of the tag (1 at 64 bits, else 0)

  logic                 o_valid_q, o_last_q, tail_q, shift_q, tagged_q;
  logic [DataWidth-1:0] o_data_q, h_data_q;  // h: bytes waiting for the next beat (NB-4 at most)
  logic [NB-1:0]        o_keep_q;
  logic [NB-5:0]        h_keep_q;  // which held bytes belong to the frame (the tail beat's keep)
  logic [1:0]           beat_q;

  logic take, fire;
  assign take = !o_valid_q || m_tready_i;
  assign s_tready_o = take && !tail_q;
  assign fire = s_tvalid_i && s_tready_o;

  function automatic logic [DataWidth-1:0] dmask(input logic [NB-1:0] k);
    logic [DataWidth-1:0] m;
    for (int j = 0; j < NB; j++) m[8*j +: 8] = {8{k[j]}};
    dmask = m;
  endfunction

  logic is_tag;
  assign is_tag = 32'(beat_q) == IB && !shift_q && s_tkeep_i[P+3] &&
                  s_tdata_i[8*P +: 8] == 8'h81 && s_tdata_i[8*(P+1) +: 8] == 8'h00;

  // the tag's beat without its 4 bytes, and the next beat's first 4 bytes behind the held ones
  logic [DataWidth-1:0] cut, joined;
  generate
    if (8 * P + 32 < DataWidth) begin : g_cut
      assign cut = {32'h0, s_tdata_i[DataWidth-1:8*P+32], s_tdata_i[8*P-1:0]};
    end else begin : g_cut_end
      assign cut = {{(DataWidth-8*P){1'b0}}, s_tdata_i[8*P-1:0]};
    end
  endgenerate
  assign joined = {s_tdata_i[31:0], h_data_q[DataWidth-33:0]};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      o_valid_q <= 1'b0;
      o_last_q  <= 1'b0;
      o_data_q  <= '0;
      o_keep_q  <= '0;
      h_data_q  <= '0;
      h_keep_q  <= '0;
      tail_q    <= 1'b0;
      shift_q   <= 1'b0;
      tagged_q  <= 1'b0;
      beat_q    <= '0;
    end else begin
      tagged_q <= fire && is_tag;
      if (take) o_valid_q <= 1'b0;
      if (tail_q && take) begin
        o_valid_q <= 1'b1;
        o_data_q  <= h_data_q & dmask(NB'(h_keep_q));
        o_keep_q  <= NB'(h_keep_q);
        o_last_q  <= 1'b1;
        tail_q    <= 1'b0;
        shift_q   <= 1'b0;
      end else if (fire) begin
        if (is_tag) begin
          // held (or, as the frame's last beat, sent as it is, 4 bytes shorter)
          if (s_tlast_i) begin
            o_valid_q <= 1'b1;
            o_data_q  <= cut & dmask(NB'(s_tkeep_i[NB-1:4]));
            o_keep_q  <= NB'(s_tkeep_i[NB-1:4]);
            o_last_q  <= 1'b1;
          end
          h_data_q <= cut;
          shift_q  <= !s_tlast_i;
        end else if (shift_q) begin
          // held NB - 4 bytes + this beat's: more than NB when it has more than 4 (keep[4])
          logic [NB-1:0] k;
          k = {s_tkeep_i[3:0], {(NB-4){1'b1}}};
          o_valid_q <= 1'b1;
          h_data_q  <= {32'h0, s_tdata_i[DataWidth-1:32]};
          if (s_tkeep_i[4]) begin
            o_data_q <= joined;
            o_keep_q <= '1;
            o_last_q <= 1'b0;
            h_keep_q <= s_tkeep_i[NB-1:4];
            tail_q   <= s_tlast_i;
          end else begin
            o_data_q <= joined & dmask(k);
            o_keep_q <= k;
            o_last_q <= s_tlast_i;
            if (s_tlast_i) shift_q <= 1'b0;
          end
        end else begin
          o_valid_q <= 1'b1;
          o_data_q  <= s_tdata_i;
          o_keep_q  <= s_tkeep_i;
          o_last_q  <= s_tlast_i;
        end
        if (s_tlast_i) beat_q <= '0;
        else if (32'(beat_q) <= IB) beat_q <= beat_q + 2'd1;
      end
    end
  end

  assign m_tvalid_o = o_valid_q;
  assign m_tdata_o  = o_data_q;
  assign m_tkeep_o  = o_keep_q;
  assign m_tlast_o  = o_last_q;
  assign tagged_o   = tagged_q;
endmodule
