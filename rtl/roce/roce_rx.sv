// RoCEv2 receive parser/validator (Ethernet II + IPv4 without options + UDP 4791 + BTH).
// Store-and-forward: the payload of each frame is realigned (header stripped) and written to
// a frame buffer while the frame arrives; after the last beat the frame is checked (see
// roce_pkg Drop* for the reasons, in priority order) and either committed (parsed header on
// hdr_*, payload on m_* - pad and ICRC stripped, no beats for an empty payload) or rolled
// back and counted under its drop reason. P_Key: 0xFFFF and the limited-member 0x7FFF are
// accepted. DestQP must lie in [qpn_lo_i, qpn_hi_i]. With drop_when_full_i = 0 the MAC side
// is stalled (tready) while the buffer or the header queue is full; with 1, s_tready_o stays
// high (for a MAC without backpressure) and a good frame that finds no room is dropped and
// counted as DropNoBuf.
module roce_rx #(
  parameter int DataWidth = 512,
  parameter int BufBytes = 16384,
  parameter int MaxFrameBytes = 4352,
  parameter int MetaDepth = 16
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic [DataWidth-1:0]   s_tdata_i,
  input  logic [DataWidth/8-1:0] s_tkeep_i,
  input  logic                   s_tlast_i,
  input  logic                   s_tvalid_i,
  output logic                   s_tready_o,
  input  logic [23:0]            qpn_lo_i,
  input  logic [23:0]            qpn_hi_i,
  input  logic                   drop_when_full_i,
  output logic                   hdr_valid_o,
  input  logic                   hdr_ready_i,
  output roce_pkg::roce_hdr_t    hdr_o,
  output logic [DataWidth-1:0]   m_tdata_o,
  output logic [DataWidth/8-1:0] m_tkeep_o,
  output logic                   m_tlast_o,
  output logic                   m_tvalid_o,
  input  logic                   m_tready_i,
  output logic [31:0]            good_count_o,
  output logic [32*roce_pkg::NumDrop-1:0] drop_count_o
);
  localparam int NB = DataWidth / 8;
  localparam int LNB = $clog2(NB);
  localparam int HB = roce_pkg::HdrMaxBytes;
  localparam int Depth = BufBytes / NB;
  localparam int AW = $clog2(Depth);
  localparam int MaxBeats = (MaxFrameBytes + NB - 1) / NB + 1;
  localparam int WW = DataWidth + NB + 1;
  localparam int MAW = $clog2(MetaDepth);

  // ---- header field helpers -----------------------------------------------------------------
  function automatic logic [63:0] be_at(input logic [8*HB-1:0] h, input int off, input int n);
    logic [63:0] r;
    r = '0;
    for (int i = 0; i < n; i++) r = {r[55:0], h[8*(off+i) +: 8]};
    be_at = r;
  endfunction

  function automatic logic [7:0] hbyte(input logic [8*HB-1:0] h, input int off);
    hbyte = h[8*off +: 8];
  endfunction

  // ---- receive side -------------------------------------------------------------------------
  logic               post_q, ovs_q, flush_q, nobuf_q;
  logic [15:0]        b_q;
  logic [23:0]        flen_q;
  logic [8*HB-1:0]    hcap_q;
  logic [DataWidth-1:0] prev_q;
  logic [WW-1:0]      flush_word_q;
  logic [AW:0]        wr_q, wr_commit_q, rd_q;
  logic               space_ok, meta_space;
  logic               mem_we;
  logic [AW-1:0]      mem_waddr;
  logic [WW-1:0]      mem_wdata;
  logic [WW-1:0]      mem [Depth];
  logic               icrc_ok;
  logic               fire;

  roce_pkg::roce_hdr_t meta_q [MetaDepth];
  logic [MAW:0]        mw_q, mr_q;
  logic [31:0]         good_q;
  logic [31:0]         drop_q [roce_pkg::NumDrop];

  assign space_ok   = (wr_q - rd_q) < (AW+1)'(Depth);
  // A new frame may start in the cycle its predecessor is judged (its first beat never writes
  // the buffer: the payload always starts past the first beat's lanes it could fill).
  assign meta_space = (mw_q - mr_q) != (MAW+1)'(MetaDepth);
  // Beats first pass through roce_icrc (a stall-all pipeline they ride along), so that a frame's
  // ICRC verdict is ready in the cycle after its last beat reaches the logic below.
  logic                 in_valid, in_last, in_ready, en;
  logic [DataWidth-1:0] in_data;
  logic [NB-1:0]        in_keep;
  assign in_ready   = drop_when_full_i || (space_ok && (!post_q || meta_space));
  assign en         = !in_valid || in_ready;
  assign s_tready_o = en;
  assign fire       = in_valid && in_ready;

  logic [31:0] icrc_crc_unused;
  logic        icrc_done_unused, unused_icrc;
  assign unused_icrc = ^{icrc_crc_unused, icrc_done_unused};

  roce_icrc #(.DataWidth(DataWidth), .SideW(DataWidth + NB)) u_icrc (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .en_i         (en),
    .valid_i      (s_tvalid_i),
    .data_i       (s_tdata_i),
    .keep_i       (s_tkeep_i),
    .last_i       (s_tlast_i),
    .side_i       ({s_tkeep_i, s_tdata_i}),
    .valid_o      (in_valid),
    .last_o       (in_last),
    .side_o       ({in_keep, in_data}),
    .crc_o        (icrc_crc_unused),
    .residue_ok_o (icrc_ok),
    .done_o       (icrc_done_unused)
  );

  always_ff @(posedge clk_i) begin
    if (mem_we) mem[mem_waddr] <= mem_wdata;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      post_q       <= 1'b0;
      ovs_q        <= 1'b0;
      nobuf_q      <= 1'b0;
      flush_q      <= 1'b0;
      b_q          <= '0;
      flen_q       <= '0;
      hcap_q       <= '0;
      prev_q       <= '0;
      flush_word_q <= '0;
      wr_q         <= '0;
      wr_commit_q  <= '0;
      mw_q         <= '0;
      good_q       <= '0;
      for (int i = 0; i < roce_pkg::NumDrop; i++) drop_q[i] <= '0;
      mem_we       <= 1'b0;
      mem_waddr    <= '0;
      mem_wdata    <= '0;
    end else begin
      mem_we <= 1'b0;
      if (post_q && (drop_when_full_i || !flush_q || space_ok)) begin
        logic [3:0]  reason;
        logic        bad;
        logic [7:0]  f;
        logic [5:0]  el;
        logic [15:0] iplen, udplen;
        logic [17:0] plen;
        logic [23:0] qpn;
        logic [AW:0] wr_next;
        logic [roce_pkg::HdrBits-1:0] h;
        logic [63:0] va, swp, cmp, orig;
        logic [31:0] rkey, dlen, imm, qkey;
        logic [7:0]  syn;
        logic [23:0] msn, sqp;
        f  = roce_pkg::op_hdrs(hbyte(hcap_q, 42));
        el = roce_pkg::ext_len(f);
        iplen  = 16'(be_at(hcap_q, 16, 2));
        udplen = 16'(be_at(hcap_q, 38, 2));
        plen = {2'b0, udplen} - 18'd24 - {12'h0, el} - {16'h0, hcap_q[8*43+5:8*43+4]};
        qpn  = 24'(be_at(hcap_q, 47, 3));
        bad = 1'b1;
        reason = 4'd0;
        if (ovs_q || flen_q > 24'(MaxFrameBytes)) reason = 4'(roce_pkg::DropOversize);
        else if (flen_q < 24'd58) reason = 4'(roce_pkg::DropRunt);
        else if (be_at(hcap_q, 12, 2) != 64'h0800) reason = 4'(roce_pkg::DropEthertype);
        else if (hbyte(hcap_q, 14) != 8'h45 || (hbyte(hcap_q, 20) & 8'hBF) != 8'h00 ||
                 hbyte(hcap_q, 21) != 8'h00) reason = 4'(roce_pkg::DropIpHdr);
        else if (roce_pkg::ip_csum(hcap_q[8*14 +: 160]) != 16'h0)
          reason = 4'(roce_pkg::DropIpCsum);
        else if (hbyte(hcap_q, 23) != 8'd17) reason = 4'(roce_pkg::DropProto);
        else if (flen_q != 24'd14 + {8'h0, iplen} || udplen != iplen - 16'd20 || plen[17:16] != 2'b00)
          reason = 4'(roce_pkg::DropLen);
        else if (16'(be_at(hcap_q, 36, 2)) != roce_pkg::RoceUdpPort)
          reason = 4'(roce_pkg::DropUdpPort);
        else if (hcap_q[8*43+3:8*43+0] != 4'h0) reason = 4'(roce_pkg::DropTver);
        else if (!f[roce_pkg::HfKnown]) reason = 4'(roce_pkg::DropOpcode);
        else if ((16'(be_at(hcap_q, 44, 2)) & 16'h7FFF) != 16'h7FFF)
          reason = 4'(roce_pkg::DropPkey);
        else if (qpn < qpn_lo_i || qpn > qpn_hi_i) reason = 4'(roce_pkg::DropQpn);
        else if (!icrc_ok) reason = 4'(roce_pkg::DropIcrc);
        else if (drop_when_full_i && (nobuf_q || (flush_q && !space_ok) || !meta_space))
          reason = 4'(roce_pkg::DropNoBuf);
        else bad = 1'b0;
        if (bad || meta_space) begin
          wr_next = wr_q + (AW+1)'(flush_q && !bad);
          if (flush_q && !bad) begin
            mem_we    <= 1'b1;
            mem_waddr <= wr_q[AW-1:0];
            mem_wdata <= flush_word_q;
          end
          post_q  <= 1'b0;
          flush_q <= 1'b0;
          ovs_q   <= 1'b0;
          nobuf_q <= 1'b0;
          if (bad) begin
            wr_q <= wr_commit_q;
            drop_q[reason] <= drop_q[reason] + 32'd1;
          end else begin
            wr_q        <= wr_next;
            wr_commit_q <= wr_next;
            good_q      <= good_q + 32'd1;
            va = '0; rkey = '0; dlen = '0; syn = '0; msn = '0; swp = '0; cmp = '0;
            orig = '0; imm = '0; qkey = '0; sqp = '0;
            if (f[roce_pkg::HfReth] || f[roce_pkg::HfAtomic]) begin
              va   = be_at(hcap_q, 54, 8);
              rkey = 32'(be_at(hcap_q, 62, 4));
            end
            if (f[roce_pkg::HfReth]) dlen = 32'(be_at(hcap_q, 66, 4));
            if (f[roce_pkg::HfAtomic]) begin
              swp = be_at(hcap_q, 66, 8);
              cmp = be_at(hcap_q, 74, 8);
            end
            if (f[roce_pkg::HfAeth]) begin
              syn = hbyte(hcap_q, 54);
              msn = 24'(be_at(hcap_q, 55, 3));
            end
            if (f[roce_pkg::HfAtAck]) orig = be_at(hcap_q, 58, 8);
            if (f[roce_pkg::HfDeth]) begin
              qkey = 32'(be_at(hcap_q, 54, 4));
              sqp  = 24'(be_at(hcap_q, 59, 3));
            end
            if (f[roce_pkg::HfImm]) begin
              if (f[roce_pkg::HfReth]) imm = 32'(be_at(hcap_q, 70, 4));
              else if (f[roce_pkg::HfDeth]) imm = 32'(be_at(hcap_q, 62, 4));
              else imm = 32'(be_at(hcap_q, 54, 4));
            end
            // Field order of roce_pkg::roce_hdr_t (built as a vector: Yosys 0.23 does not
            // support member writes to a block-local struct variable).
            h = {48'(be_at(hcap_q, 0, 6)), 48'(be_at(hcap_q, 6, 6)),
                 32'(be_at(hcap_q, 26, 4)), 32'(be_at(hcap_q, 30, 4)),
                 hbyte(hcap_q, 15), hbyte(hcap_q, 22), 16'(be_at(hcap_q, 18, 2)),
                 16'(be_at(hcap_q, 34, 2)), hbyte(hcap_q, 42), hcap_q[8*43+7:8*43+4],
                 16'(be_at(hcap_q, 44, 2)), hcap_q[8*46+7], hcap_q[8*46+6], qpn,
                 hcap_q[8*50+7], 24'(be_at(hcap_q, 51, 3)),
                 va, rkey, dlen, syn, msn, swp, cmp, orig, imm, qkey, sqp, plen[15:0]};
            meta_q[mw_q[MAW-1:0]] <= h;
            mw_q <= mw_q + 1'b1;
          end
        end
      end
      if (fire) begin
        logic [8*HB-1:0] hv;
        logic [7:0]      f;
        logic [5:0]      el;
        logic [6:0]      s;
        logic [LNB-1:0]  sh;
        logic [17:0]     plen;
        logic [17:0]     k;
        logic [DataWidth-1:0] w;
        int              cnt;
        logic            ovs_cur, nobuf_cur;
        ovs_cur   = ovs_q && !post_q;    // a beat taken while judging starts a new frame
        nobuf_cur = nobuf_q && !post_q;
        hv = hcap_q;
        for (int p = 0; p < HB; p++) begin
          if (32'(p >> LNB) == {16'h0, b_q}) hv[8*p +: 8] = in_data[8*(p % NB) +: 8];
        end
        hcap_q <= hv;
        f  = roce_pkg::op_hdrs(hbyte(hv, 42));
        el = roce_pkg::ext_len(f);
        s  = 7'd54 + {1'b0, el};
        sh = LNB'(s);
        plen = {2'b0, hbyte(hv, 38), hbyte(hv, 39)} - 18'd24 - {12'h0, el}
             - {16'h0, hv[8*43+5:8*43+4]};
        k = {2'b0, b_q} - {11'h0, s >> LNB} - ((sh != '0) ? 18'd1 : 18'd0);
        w = (sh == '0) ? in_data
                       : ((prev_q >> (8 * 32'(sh))) | (in_data << (8 * (NB - 32'(sh)))));
        if (!ovs_cur && !nobuf_cur && !k[17] && !plen[17] && (k << LNB) < plen && !space_ok) begin
          nobuf_q <= 1'b1;  // only with drop_when_full_i: without it the beat waits for room
        end else if (!ovs_cur && !nobuf_cur && !k[17] && !plen[17] && (k << LNB) < plen) begin
          cnt = ((k + 18'd1) << LNB) >= plen ? 32'({14'h0, plen - (k << LNB)}) : NB;
          mem_we    <= 1'b1;
          mem_waddr <= wr_q[AW-1:0];
          mem_wdata <= {((k + 18'd1) << LNB) >= plen, keep_of(cnt), w};
          wr_q      <= wr_q + 1'b1;
        end
        prev_q <= in_data;
        if (32'(b_q) >= MaxBeats) ovs_q <= 1'b1;
        if (b_q != 16'hFFFF) b_q <= b_q + 16'd1;
        if (in_last) begin
          logic [17:0] k2;
          int          c2;
          k2 = {2'b0, b_q} - {11'h0, s >> LNB};
          c2 = ((k2 + 18'd1) << LNB) >= plen ? 32'({14'h0, plen - (k2 << LNB)}) : NB;
          flen_q  <= 24'({b_q, LNB'(0)}) + 24'(popcount(in_keep));
          post_q  <= 1'b1;
          b_q     <= '0;
          flush_q <= !ovs_cur && !nobuf_cur && sh != '0 && !k2[17] && !plen[17] && (k2 << LNB) < plen;
          flush_word_q <= {((k2 + 18'd1) << LNB) >= plen, keep_of(c2),
                           in_data >> (8 * 32'(sh))};
        end
      end
    end
  end

  function automatic logic [NB-1:0] keep_of(input int cnt);
    logic [NB-1:0] kp;
    for (int j = 0; j < NB; j++) kp[j] = j < cnt;
    keep_of = kp;
  endfunction

  function automatic int popcount(input logic [NB-1:0] kp);
    int c;
    c = 0;
    for (int j = 0; j < NB; j++) c = c + 32'(kp[j]);
    popcount = c;
  endfunction

  // ---- header output --------------------------------------------------------------------------
  assign hdr_valid_o = mw_q != mr_q;
  assign hdr_o = meta_q[mr_q[MAW-1:0]];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) mr_q <= '0;
    else if (hdr_valid_o && hdr_ready_i) mr_q <= mr_q + 1'b1;
  end

  // ---- payload output: buffer read (1-cycle latency) into a 3-entry output queue --------------
  logic [WW-1:0] rdata_q;
  logic          inflight_q;
  logic [WW-1:0] sk_q [3];
  logic [1:0]    sk_head_q, sk_tail_q, sk_cnt_q;
  logic          issue, pop;
  logic [AW:0]   wr_vis_q;   // commit pointer one cycle late: buffer writes are registered

  assign issue = (wr_vis_q != rd_q) && ({1'b0, sk_cnt_q} + {2'b0, inflight_q} < 3'd3);
  assign pop   = m_tvalid_o && m_tready_i;

  always_ff @(posedge clk_i) begin
    if (issue) rdata_q <= mem[rd_q[AW-1:0]];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_q       <= '0;
      wr_vis_q   <= '0;
      inflight_q <= 1'b0;
      sk_head_q  <= '0;
      sk_tail_q  <= '0;
      sk_cnt_q   <= '0;
      for (int i = 0; i < 3; i++) sk_q[i] <= '0;
    end else begin
      inflight_q <= issue;
      wr_vis_q   <= wr_commit_q;
      if (issue) rd_q <= rd_q + 1'b1;
      if (inflight_q) begin
        sk_q[sk_tail_q] <= rdata_q;
        sk_tail_q <= (sk_tail_q == 2'd2) ? 2'd0 : sk_tail_q + 2'd1;
      end
      if (pop) sk_head_q <= (sk_head_q == 2'd2) ? 2'd0 : sk_head_q + 2'd1;
      sk_cnt_q <= sk_cnt_q + (inflight_q ? 2'd1 : 2'd0) - (pop ? 2'd1 : 2'd0);
    end
  end

  assign m_tvalid_o = sk_cnt_q != 2'd0;
  assign {m_tlast_o, m_tkeep_o, m_tdata_o} = sk_q[sk_head_q];

  assign good_count_o = good_q;
  always_comb begin
    for (int i = 0; i < roce_pkg::NumDrop; i++) drop_count_o[32*i +: 32] = drop_q[i];
  end
endmodule
