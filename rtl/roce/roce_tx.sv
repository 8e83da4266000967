// RoCEv2 transmit packet builder. Per packet: a header descriptor (roce_pkg::roce_hdr_t) and
// payload_len bytes on the payload AXI-Stream (packed; beats counted from payload_len, tlast
// not used). Output toward the MAC: Ethernet+IPv4+UDP+BTH+extended headers+payload+pad+ICRC,
// no FCS, byte 0 in tdata[7:0]. Pipeline: roce_tx_hdr (header registered) -> packer (header
// and realigned payload, one beat per cycle) -> s1 register -> roce_icrc pipeline (the beats
// ride along) -> s2 output slot (ICRC appended into the last beat, or one extra beat when
// fewer than 4 lanes remain). pause_i (the MAC's link-level pause status) holds back the next
// frame: a frame whose first beat is already offered is finished, AXI-Stream style.
module roce_tx #(
  parameter int DataWidth = 512
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   desc_valid_i,
  output logic                   desc_ready_o,
  input  roce_pkg::roce_hdr_t    desc_i,
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
  input  logic                   pause_i,
  output logic [31:0]            pkt_count_o
);
  localparam int NB = DataWidth / 8;
  localparam int LNB = $clog2(NB);
  localparam int HB = roce_pkg::HdrMaxBytes;
  localparam int HW = 8 * (HB + NB);

  // ---- header stage -------------------------------------------------------------------------
  logic            h_valid, h_ready;
  logic [8*HB-1:0] h_hdr;
  logic [6:0]      h_len;
  logic [15:0]     h_pay;
  logic [1:0]      h_pad;
  logic [19:0]     h_csum;

  roce_tx_hdr u_hdr (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .desc_valid_i (desc_valid_i),
    .desc_ready_o (desc_ready_o),
    .desc_i       (desc_i),
    .hdr_valid_o  (h_valid),
    .hdr_ready_i  (h_ready),
    .hdr_o        (h_hdr),
    .hdr_len_o    (h_len),
    .pay_len_o    (h_pay),
    .pad_o        (h_pad),
    .csum_o       (h_csum)
  );

  // ---- packer -------------------------------------------------------------------------------
  logic                 busy_q;
  logic [HW-1:0]        hdr_q;
  logic [DataWidth-1:0] carry_q;
  logic [15:0]          k_q, nout_q, q_q, min_q;
  logic [LNB:0]         sh_q, inlast_q, outlast_q;

  logic                 s1_valid_q, s1_last_q;
  logic [DataWidth-1:0] s1_data_q;
  logic [LNB:0]         s1_cnt_q;
  logic                 s1_ready, move;

  logic pk_valid, pk_fire, pk_last, pk_hdr;
  assign pk_hdr   = k_q < q_q;
  assign pk_valid = busy_q && (pk_hdr || min_q == 16'd0 || s_tvalid_i);
  assign pk_fire  = pk_valid && s1_ready;
  assign pk_last  = k_q == nout_q - 16'd1;
  assign h_ready  = h_valid && (!busy_q || (pk_fire && pk_last));
  assign s_tready_o = busy_q && !pk_hdr && min_q != 16'd0 && s1_ready;

  function automatic logic [DataWidth-1:0] byte_mask(input logic [LNB:0] cnt);
    logic [DataWidth-1:0] m;
    for (int j = 0; j < NB; j++) m[8*j +: 8] = (j < 32'(cnt)) ? 8'hFF : 8'h00;
    byte_mask = m;
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q     <= 1'b0;
      hdr_q      <= '0;
      carry_q    <= '0;
      k_q        <= '0;
      nout_q     <= '0;
      q_q        <= '0;
      min_q      <= '0;
      sh_q       <= '0;
      inlast_q   <= '0;
      outlast_q  <= '0;
      s1_valid_q <= 1'b0;
      s1_last_q  <= 1'b0;
      s1_data_q  <= '0;
      s1_cnt_q   <= '0;
    end else begin
      if (move) s1_valid_q <= 1'b0;
      if (pk_fire) begin
        logic [DataWidth-1:0] beat, cur;
        if (pk_hdr) begin
          beat    = hdr_q[DataWidth-1:0];
          hdr_q   <= hdr_q >> DataWidth;
          carry_q <= hdr_q[2*DataWidth-1:DataWidth];
        end else begin
          cur = '0;
          if (min_q != 16'd0) begin
            // masked on the payload's last beat only (simulation speed: the 64-lane mask of a
            // full beat is all ones, and a wide loop per beat costs under a stream)
            cur = (min_q == 16'd1) ? s_tdata_i & byte_mask(inlast_q) : s_tdata_i;
            min_q <= min_q - 16'd1;
          end
          beat    = (cur << (8 * 32'(sh_q))) | carry_q;
          carry_q <= cur >> (8 * (NB - 32'(sh_q)));
        end
        s1_valid_q <= 1'b1;
        s1_data_q  <= beat;
        s1_last_q  <= pk_last;
        s1_cnt_q   <= pk_last ? outlast_q : (LNB+1)'(NB);
        k_q        <= k_q + 16'd1;
        if (pk_last) busy_q <= 1'b0;
      end
      if (h_ready) begin
        logic [16:0] tot;
        logic [HW-1:0] hx;
        hx = {(8*NB)'(0), h_hdr};
        // IPv4 checksum: roce_tx_hdr's sum of the other fields plus the total length
        hx[8*24 +: 16] = roce_pkg::be16(roce_pkg::csum_fold(h_csum + {4'h0, h_hdr[8*16 +: 8],
                                                                      h_hdr[8*17 +: 8]}));
        tot = {10'h0, h_len} + {1'b0, h_pay} + {15'h0, h_pad};
        busy_q    <= 1'b1;
        hdr_q     <= hx;
        carry_q   <= hx[DataWidth-1:0];
        k_q       <= '0;
        nout_q    <= 16'((tot + 17'(NB - 1)) >> LNB);
        q_q       <= {9'h0, h_len >> LNB};
        sh_q      <= (LNB+1)'(h_len & 7'(NB - 1));
        min_q     <= 16'(({1'b0, h_pay} + 17'(NB - 1)) >> LNB);
        inlast_q  <= (LNB+1)'(((h_pay - 16'd1) & 16'(NB - 1)) + 16'd1);
        outlast_q <= (LNB+1)'(((tot - 17'd1) & 17'(NB - 1)) + 17'd1);
      end
    end
  end

  // ---- ICRC pipeline and output slot ---------------------------------------------------------
  // s1 beats enter roce_icrc (a stall-all pipeline) with their data and lane count riding
  // along; they come out when the ICRC of their frame is about to be ready and go to s2.
  logic                 s2_valid_q, s2_last_q, s2_ovf_q;
  logic [DataWidth-1:0] s2_data_q;
  logic [LNB:0]         s2_cnt_q;
  logic                 s2_hold_ovf, s2_accept, en;
  logic                 out_hold, out_ready;
  logic [31:0]          icrc;
  logic [31:0]          pkts_q;
  logic                 ic_valid, ic_last;
  logic [DataWidth-1:0] ic_data;
  logic [LNB:0]         ic_cnt;

  // Lane j kept when j < the lane count, as one shift (all ones from NB on), not a 64-lane
  // compare loop that Verilator evaluates every cycle (docs/sim-speed.md, step 15).
  logic [NB-1:0] s1_keep;
  assign s1_keep = ~({NB{1'b1}} << s1_cnt_q);

  assign s2_hold_ovf = s2_valid_q && s2_last_q && !s2_ovf_q && (32'(s2_cnt_q) > NB - 4);
  assign s2_accept   = !s2_valid_q || (out_ready && !s2_hold_ovf);
  assign en          = !ic_valid || s2_accept;
  assign move        = s1_valid_q && en;
  assign s1_ready    = !s1_valid_q || en;

  // The payload stream's tkeep/tlast are implied by payload_len; the checker outputs of the
  // ICRC unit are for the receive side.
  logic icrc_ok_unused, icrc_done_unused, unused_ins;
  assign unused_ins = ^{s_tkeep_i, s_tlast_i, icrc_ok_unused, icrc_done_unused};

  roce_icrc #(.DataWidth(DataWidth), .SideW(DataWidth + LNB + 1)) u_icrc (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .en_i         (en),
    .valid_i      (s1_valid_q),
    .data_i       (s1_data_q),
    .keep_i       (s1_keep),
    .last_i       (s1_last_q),
    .side_i       ({s1_cnt_q, s1_data_q}),
    .valid_o      (ic_valid),
    .last_o       (ic_last),
    .side_o       ({ic_cnt, ic_data}),
    .crc_o        (icrc),
    .residue_ok_o (icrc_ok_unused),
    .done_o       (icrc_done_unused)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s2_valid_q <= 1'b0;
      s2_last_q  <= 1'b0;
      s2_ovf_q   <= 1'b0;
      s2_data_q  <= '0;
      s2_cnt_q   <= '0;
      pkts_q     <= '0;
    end else begin
      if (s2_valid_q && out_ready) begin
        if (s2_hold_ovf) begin
          s2_ovf_q <= 1'b1;
        end else begin
          s2_valid_q <= 1'b0;
          s2_ovf_q   <= 1'b0;
          if (s2_last_q) pkts_q <= pkts_q + 32'd1;
        end
      end
      if (en && ic_valid) begin
        s2_valid_q <= 1'b1;
        s2_ovf_q   <= 1'b0;
        s2_data_q  <= ic_data;
        s2_last_q  <= ic_last;
        s2_cnt_q   <= ic_cnt;
      end
    end
  end

  // The output keep, lanes 0 .. n-1 for the slot's lane count n: a beat's cnt; a last beat's
  // cnt + 4 (the ICRC appended), at most NB; the overflow beat's cnt + 4 - NB (the ICRC's rest,
  // lanes 0..3). Each branch's mask from s2_cnt_q directly (the shift for cnt, the same moved up
  // four lanes for cnt + 4, four compares for the overflow), not a compare loop against n every
  // cycle (simulation speed) nor a shift by the computed n (two LUT levels more, step 14).
  logic [NB-1:0] k_cnt;
  logic [3:0]    k_ovf;
  assign k_cnt = ~({NB{1'b1}} << s2_cnt_q);
  always_comb
    for (int j = 0; j < 4; j++) k_ovf[j] = 32'(s2_cnt_q) > NB - 4 + j;

  logic unused_wide;
  always_comb begin
    logic [DataWidth+31:0] wide;
    unused_wide = 1'b0;
    wide = '0;
    m_tkeep_o = k_cnt;
    m_tdata_o = s2_data_q;
    m_tlast_o = 1'b0;
    if (s2_ovf_q) begin
      m_tdata_o = {{(DataWidth-32){1'b0}}, icrc >> (8 * (NB - 32'(s2_cnt_q)))};
      m_tkeep_o = {{(NB-4){1'b0}}, k_ovf};
      m_tlast_o = 1'b1;
    end else if (s2_last_q) begin
      wide = {32'h0, s2_data_q} | ({{DataWidth{1'b0}}, icrc} << (8 * 32'(s2_cnt_q)));
      m_tdata_o = wide[DataWidth-1:0];
      unused_wide = ^wide[DataWidth+31:DataWidth];
      m_tkeep_o = {k_cnt[NB-5:0], 4'hF};
      m_tlast_o = 32'(s2_cnt_q) + 4 <= NB;
    end
  end

  // mid_q: the current frame has been offered and its last beat not taken yet.
  logic mid_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) mid_q <= 1'b0;
    else if (m_tvalid_o) mid_q <= !(m_tready_i && m_tlast_o);
  end
  assign out_hold    = pause_i && !mid_q;
  assign out_ready   = m_tready_i && !out_hold;
  assign m_tvalid_o  = s2_valid_q && !out_hold;
  assign pkt_count_o = pkts_q;
endmodule
