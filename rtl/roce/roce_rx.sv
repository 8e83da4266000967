// RoCEv2 receive parser/validator (Ethernet II + IPv4 without options + UDP 4791 + BTH).
// Store-and-forward: the payload of each frame is realigned (header stripped) and written to
// a frame buffer while the frame arrives; after the last beat the frame is checked (see
// roce_pkg Drop* for the reasons, in priority order) and either committed (parsed header on
// hdr_*, payload on m_* - pad and ICRC stripped, no beats for an empty payload) or rolled
// back and counted under its drop reason. P_Key: 0xFFFF and the limited-member 0x7FFF are
// accepted. DestQP must lie in [qpn_lo_i, qpn_hi_i] (configuration: compared as the header
// beats are taken, so change it only between frames). With drop_when_full_i = 0 the MAC side
// is stalled (tready) while the buffer or the header queue is full; with 1, s_tready_o stays
// high (for a MAC without backpressure) and a good frame that finds no room is dropped and
// counted as DropNoBuf. Pipelined for timing: beats pass two front stages and roce_icrc
// (stall-all, one beat per cycle) before the buffer logic; s_tready_o is that pipeline's
// advance. tkeep is taken as packed (lanes from 0), partial only in a frame's last beat.
// Link-level flow control: pause_req_o (toward the MAC, which sends the PAUSE/PFC frames) rises
// when the buffer fill reaches XoffBytes or the header queue XoffFrames, and falls once both are
// below XonBytes / XonFrames. Whoever sets XoffBytes/XoffFrames leaves headroom above them for
// everything still arriving after the XOFF (round trip of the link plus two maximum frames).
module roce_rx #(
  parameter int DataWidth = 512,
  parameter int BufBytes = 16384,
  parameter int MaxFrameBytes = 4352,
  parameter int MetaDepth = 16,
  parameter int XoffBytes = BufBytes / 2,
  parameter int XonBytes = BufBytes / 4,
  parameter int XoffFrames = MetaDepth / 2,
  parameter int XonFrames = MetaDepth / 4
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
  output logic                   pause_req_o,
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
  // be_at(h[8*off +: 64], n): the n bytes from offset off, big-endian. The caller passes the
  // 8-byte window, not the whole header: Verilator gives every inlined call its own zeroed copy
  // of a wide argument, on every cycle.
  function automatic logic [63:0] be_at(input logic [63:0] w, input int n);
    logic [63:0] r;
    r = '0;
    for (int i = 0; i < n; i++) r = {r[55:0], w[8*i +: 8]};
    be_at = r;
  endfunction

  // ---- receive side -------------------------------------------------------------------------
  logic               post_q, ovs_q, flush_q, nobuf_q;
  logic [15:0]        b_q;
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
  logic               flen_big_q, flen_bad_q, runt_q;
  logic [roce_pkg::DropQpn:roce_pkg::DropEthertype] chk_q;  // header checks, by drop reason

  // Header FIFO: plain vectors (Yosys 0.23 synthesizes an unpacked array of a struct type
  // without storage), written from its own process one cycle after the header is judged (a
  // memory written inside the reset process would become flip-flops, not LUT RAM); the reader
  // sees an entry one cycle after that (mw_vis_q).
  logic [roce_pkg::HdrBits-1:0] meta_q [MetaDepth];
  logic                         meta_we;
  logic [MAW-1:0]               meta_waddr;
  logic [roce_pkg::HdrBits-1:0] meta_wdata;
  logic [MAW:0]        mw_q, mw_vis_q, mr_q;
  logic [31:0]         good_q;
  logic [31:0]         drop_q [roce_pkg::NumDrop];

  assign space_ok   = (wr_q - rd_q) < (AW+1)'(Depth);
  // A new frame may start in the cycle its predecessor is judged (its first beat never writes
  // the buffer: the payload always starts past the first beat's lanes it could fill).
  // The header FIFO's full flag in a flop (timing: the pointer subtract and compare ahead of the
  // verdict and wr_q's update was a 9-level path in the core); the same value as
  // mw_q - mr_q == MetaDepth in every cycle: set by the post that fills the last entry, cleared
  // by every pop (a post and a pop together leave the count below MetaDepth, as a post needs room).
  logic meta_full_q, hdr_pop;
  assign hdr_pop    = hdr_valid_o && hdr_ready_i;
  assign meta_space = !meta_full_q;
  // ---- front: framing values per beat, ahead of the ICRC -------------------------------------
  // Beats pass two stall-all stages (p1, p2) and then roce_icrc, whose side band carries them
  // with everything the back end needs precomputed per beat: which header beat it is, its lane
  // count, and where its realigned payload goes (write, last word, lanes; and the same for the
  // flush word should it end the frame). Those come from the frame's bytes 38..43 (UDP length,
  // opcode, PadCnt), which are complete in the beat that holds byte 43; earlier beats never
  // write (the payload starts past byte 53) and a frame that ends before byte 43 is a runt.
  // All stages advance together (en), so the back end sees the stream as it arrived, later.
  // The IPv4 header checksum is computed here too, in two registered steps (the 20 header bytes
  // as captured so far, then their sum), and travels as one flag: the 12 LUT levels of the sum,
  // its fold and the compare behind the header capture mux are then off the frame's judgement.
  localparam int HBeats = (HB + NB - 1) / NB;   // beats holding header bytes
  localparam int HLast = HB - NB * (HBeats - 1); // header bytes in the last of them
  // The lane masks of the payload and flush words travel as their byte counts (18 bits each)
  // and are expanded behind the ICRC, where they meet the buffer's write register: the shift
  // of the mask is then not behind the count's subtract and compare.
  localparam int SW = DataWidth + HBeats + (LNB + 1) + LNB + 2 + 18 + 2 + 18 + 2;

  logic                 in_valid, in_last, in_ready, en;
  assign in_ready   = drop_when_full_i || (space_ok && (!post_q || meta_space));
  assign en         = !in_valid || in_ready;
  assign s_tready_o = en;
  assign fire       = in_valid && in_ready;

  // LaneSel[b*NB +: NB]: the lanes whose index has bit b set
  localparam logic [LNB*NB-1:0] LaneSel = (LNB*NB)'(roce_pkg::lane_sel(NB, LNB));

  // Lanes of a packed keep (the count of its set lanes), from the top set lane by OR encoding.
  // Word-wide, as roce_icrc's empty_lanes: the edge is k without the lanes whose next lane is
  // set, bit b of the top lane's index the OR over the edge's lanes with bit b set (the same
  // gates; a loop over 6 x 64 lanes per beat in simulation before, docs/sim-speed.md step 15).
  function automatic logic [LNB:0] lanes(input logic [NB-1:0] k);
    logic [NB-1:0] e;
    logic [LNB:0]  top;
    e = k & ~(k >> 1);
    top = '0;
    for (int b = 0; b < LNB; b++) top[b] = |(e & LaneSel[b*NB +: NB]);
    lanes = (k == '0) ? '0 : top + 1'b1;
  endfunction

  logic [15:0]          fb_q;       // index of the next beat taken
  logic [47:0]          fraw_q;     // bytes 38..43 of the current frame so far
  logic [159:0]         fiph_q;     // bytes 14..33 (the IPv4 header) of the current frame so far
  logic [19:0]          p2_csum_q;  // their one's-complement sum before the fold (csum_sum)
  logic                 p1_v_q, p1_last_q, p2_v_q, p2_last_q;
  logic [DataWidth-1:0] p1_d_q, p2_d_q;
  logic [NB-1:0]        p1_k_q, p2_k_q;
  logic [47:0]          p1_raw_q;
  logic [15:0]          p1_b_q, p2_b_q;
  logic [LNB:0]         p1_kc_q, p2_kc_q;
  logic [HBeats-1:0]    p1_hb_q, p2_hb_q;
  logic [LNB-1:0]       p2_sh_q;
  logic [6:0]           p2_sb_q;    // s >> LNB (s = header bytes before the payload)
  logic [17:0]          p2_plen_q;
  logic                 p2_lenne_q; // UDP length != IPv4 length - 20 (the length check's half)
  logic                 unused_raw;
  assign unused_raw = ^{p1_raw_q[47:46], p1_raw_q[43:40], p1_raw_q[31:16]};  // UDP csum, TVer...

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fb_q      <= '0;
      fraw_q    <= '0;
      fiph_q    <= '0;
      p2_csum_q <= '0;
      p1_v_q    <= 1'b0;
      p1_last_q <= 1'b0;
      p1_d_q    <= '0;
      p1_k_q    <= '0;
      p1_raw_q  <= '0;
      p1_b_q    <= '0;
      p1_kc_q   <= '0;
      p1_hb_q   <= '0;
      p2_v_q    <= 1'b0;
      p2_last_q <= 1'b0;
      p2_d_q    <= '0;
      p2_k_q    <= '0;
      p2_b_q    <= '0;
      p2_kc_q   <= '0;
      p2_hb_q   <= '0;
      p2_sh_q   <= '0;
      p2_sb_q   <= '0;
      p2_plen_q <= '0;
      p2_lenne_q <= 1'b0;
    end else if (en) begin
      logic [47:0] raw;
      logic [159:0] iph;
      logic [7:0]  f;
      logic [5:0]  el;
      logic [6:0]  s;
      raw = fraw_q;
      for (int i = 0; i < 6; i++) begin
        if (fb_q == 16'((38 + i) / NB)) raw[8*i +: 8] = s_tdata_i[8*((38 + i) % NB) +: 8];
      end
      iph = fiph_q;
      for (int i = 0; i < 20; i++) begin
        if (fb_q == 16'((14 + i) / NB)) iph[8*i +: 8] = s_tdata_i[8*((14 + i) % NB) +: 8];
      end
      // A stage's data registers load only with a beat: they are read only with its valid bit
      // (idle cycles cost nothing wide in simulation).
      p1_v_q    <= s_tvalid_i;
      p1_last_q <= s_tlast_i;
      if (s_tvalid_i) begin
        p1_d_q   <= s_tdata_i;
        p1_k_q   <= s_tkeep_i;
        p1_raw_q <= raw;
        p1_b_q   <= fb_q;
        p1_kc_q  <= lanes(s_tkeep_i);
        for (int i = 0; i < HBeats; i++) p1_hb_q[i] <= fb_q == 16'(i);
        fraw_q <= raw;
        fiph_q <= iph;   // (p1's copy: it loads with the beat, as p1 does)
        if (s_tlast_i) fb_q <= '0;
        else if (fb_q != 16'hFFFF) fb_q <= fb_q + 16'd1;
      end
      // p2: the frame's payload geometry from its bytes 38..43
      f  = roce_pkg::op_hdrs(p1_raw_q[8*4 +: 8]);
      el = roce_pkg::ext_len(f);
      s  = 7'd54 + {1'b0, el};
      p2_v_q    <= p1_v_q;
      p2_last_q <= p1_last_q;
      if (p1_v_q) begin
        p2_d_q    <= p1_d_q;
        p2_k_q    <= p1_k_q;
        p2_b_q    <= p1_b_q;
        p2_kc_q   <= p1_kc_q;
        p2_hb_q   <= p1_hb_q;
        p2_sh_q   <= LNB'(s);
        p2_sb_q   <= s >> LNB;
        p2_csum_q <= roce_pkg::csum_sum(fiph_q);
        // (fiph_q holds the same beat's bytes as p1_raw_q: both load with the beat)
        p2_lenne_q <= {p1_raw_q[7:0], p1_raw_q[15:8]} != {fiph_q[8*2 +: 8], fiph_q[8*3 +: 8]} - 16'd20;
        p2_plen_q <= {2'b0, p1_raw_q[7:0], p1_raw_q[15:8]} - 18'd24 - {12'h0, el}
                   - {16'h0, p1_raw_q[8*5+5 : 8*5+4]};
      end
    end
  end

  // p2 -> side band: this beat's payload word (k = payload word index) and, should the beat end
  // the frame, the flush word (what is left of it past the last full word).
  logic [SW-1:0] side_in, side_out;
  always_comb begin
    logic [17:0]   k, k2, c, c2;
    logic          wr, wl, fl, fwl, cbad, lbad;
    k   = {2'b0, p2_b_q} - {11'h0, p2_sb_q} - ((p2_sh_q != '0) ? 18'd1 : 18'd0);
    k2  = {2'b0, p2_b_q} - {11'h0, p2_sb_q};
    wr  = !k[17] && !p2_plen_q[17] && (k << LNB) < p2_plen_q;
    wl  = ((k + 18'd1) << LNB) >= p2_plen_q;
    c   = wl ? p2_plen_q - (k << LNB) : 18'(NB);
    fl  = p2_sh_q != '0 && !k2[17] && !p2_plen_q[17] && (k2 << LNB) < p2_plen_q;
    fwl = ((k2 + 18'd1) << LNB) >= p2_plen_q;
    c2  = fwl ? p2_plen_q - (k2 << LNB) : 18'(NB);
    // (not zeroed without a beat: a zeroed side band would become flops with a synchronous
    // reset in front of the ICRC delay line, which then no longer packs into SRLs)
    // the IPv4 checksum of the header bytes up to this beat (complete from byte 33 on)
    cbad = roce_pkg::csum_fold(p2_csum_q) != 16'h0;
    // the length check of the same bytes: UDP length against the IPv4 length - 20, or shorter
    // than the headers (a negative payload length)
    lbad = p2_lenne_q || p2_plen_q[17];
    side_in = {p2_d_q, p2_hb_q, p2_kc_q, p2_sh_q, wr, wl, c, fl, fwl, c2, cbad, lbad};
  end

  logic [DataWidth-1:0] in_data;
  logic [HBeats-1:0]    in_hb;
  logic [LNB:0]         in_kc;
  logic [LNB-1:0]       in_sh;
  logic                 in_wr, in_wl, in_fl, in_fwl, in_cbad, in_lbad;
  logic [17:0]          in_c, in_c2;   // bytes of the payload / flush word (NB or more: all)
  assign {in_data, in_hb, in_kc, in_sh, in_wr, in_wl, in_c, in_fl, in_fwl, in_c2, in_cbad, in_lbad} =
    side_out;

  logic [31:0] icrc_crc_unused;
  logic        icrc_done_unused, unused_icrc;
  assign unused_icrc = ^{icrc_crc_unused, icrc_done_unused};

  roce_icrc #(.DataWidth(DataWidth), .SideW(SW)) u_icrc (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .en_i         (en),
    .valid_i      (p2_v_q),
    .data_i       (p2_d_q),
    .keep_i       (p2_k_q),
    .last_i       (p2_last_q),
    .side_i       (side_in),
    .valid_o      (in_valid),
    .last_o       (in_last),
    .side_o       (side_out),
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
      flen_big_q   <= 1'b0;
      flen_bad_q   <= 1'b0;
      runt_q       <= 1'b0;
      chk_q        <= '0;
      hcap_q       <= '0;
      prev_q       <= '0;
      flush_word_q <= '0;
      wr_q         <= '0;
      wr_commit_q  <= '0;
      mw_q         <= '0;
      meta_full_q  <= 1'b0;
      meta_we      <= 1'b0;
      meta_waddr   <= '0;
      meta_wdata   <= '0;
      good_q       <= '0;
      for (int i = 0; i < roce_pkg::NumDrop; i++) drop_q[i] <= '0;
      mem_we       <= 1'b0;
      mem_waddr    <= '0;
      mem_wdata    <= '0;
    end else begin
      mem_we <= 1'b0;
      meta_we <= 1'b0;
      if (hdr_pop) meta_full_q <= 1'b0;
      if (post_q && (drop_when_full_i || !flush_q || space_ok)) begin
        logic [3:0]  reason;
        logic        bad;
        logic [7:0]  f;
        logic [5:0]  el;
        logic [15:0] udplen;
        logic [15:0] plen;
        logic [23:0] qpn;
        logic [AW:0] wr_next;
        logic [roce_pkg::HdrBits-1:0] h;
        logic [63:0] va, swp, cmp, orig;
        logic [31:0] rkey, dlen, imm, qkey;
        logic [7:0]  syn;
        logic [23:0] msn, sqp;
        f  = roce_pkg::op_hdrs(hcap_q[8*42 +: 8]);
        el = roce_pkg::ext_len(f);
        udplen = 16'(be_at(hcap_q[8*38 +: 64], 2));
        plen = udplen - 16'd24 - {10'h0, el} - {14'h0, hcap_q[8*43+5:8*43+4]};
        qpn  = 24'(be_at(hcap_q[8*47 +: 64], 3));
        // The verdict as one OR of the registered flags, apart from the reason's priority chain
        // (which only picks the drop counter): wr_q waits for bad alone (timing: through the
        // chain and the add of wr_next it was 9 LUT levels in the core).
        bad = ovs_q || flen_big_q || runt_q || flen_bad_q || (|chk_q) || !icrc_ok ||
              (drop_when_full_i && (nobuf_q || (flush_q && !space_ok) || !meta_space));
        reason = 4'(roce_pkg::DropNoBuf);
        if (ovs_q || flen_big_q) reason = 4'(roce_pkg::DropOversize);
        else if (runt_q) reason = 4'(roce_pkg::DropRunt);
        else if (chk_q[roce_pkg::DropEthertype]) reason = 4'(roce_pkg::DropEthertype);
        else if (chk_q[roce_pkg::DropIpHdr]) reason = 4'(roce_pkg::DropIpHdr);
        else if (chk_q[roce_pkg::DropIpCsum]) reason = 4'(roce_pkg::DropIpCsum);
        else if (chk_q[roce_pkg::DropProto]) reason = 4'(roce_pkg::DropProto);
        else if (flen_bad_q || chk_q[roce_pkg::DropLen]) reason = 4'(roce_pkg::DropLen);
        else if (chk_q[roce_pkg::DropUdpPort]) reason = 4'(roce_pkg::DropUdpPort);
        else if (chk_q[roce_pkg::DropTver]) reason = 4'(roce_pkg::DropTver);
        else if (chk_q[roce_pkg::DropOpcode]) reason = 4'(roce_pkg::DropOpcode);
        else if (chk_q[roce_pkg::DropPkey]) reason = 4'(roce_pkg::DropPkey);
        else if (chk_q[roce_pkg::DropQpn]) reason = 4'(roce_pkg::DropQpn);
        else if (!icrc_ok) reason = 4'(roce_pkg::DropIcrc);
        if (bad || meta_space) begin
          // (used only when !bad: the increment from wr_q alone, bad picks behind it)
          wr_next = flush_q ? wr_q + 1'b1 : wr_q;
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
              va   = be_at(hcap_q[8*54 +: 64], 8);
              rkey = 32'(be_at(hcap_q[8*62 +: 64], 4));
            end
            if (f[roce_pkg::HfReth]) dlen = 32'(be_at(hcap_q[8*66 +: 64], 4));
            if (f[roce_pkg::HfAtomic]) begin
              swp = be_at(hcap_q[8*66 +: 64], 8);
              cmp = be_at(hcap_q[8*74 +: 64], 8);
            end
            if (f[roce_pkg::HfAeth]) begin
              syn = hcap_q[8*54 +: 8];
              msn = 24'(be_at(hcap_q[8*55 +: 64], 3));
            end
            if (f[roce_pkg::HfAtAck]) orig = be_at(hcap_q[8*58 +: 64], 8);
            if (f[roce_pkg::HfDeth]) begin
              qkey = 32'(be_at(hcap_q[8*54 +: 64], 4));
              sqp  = 24'(be_at(hcap_q[8*59 +: 64], 3));
            end
            if (f[roce_pkg::HfImm]) begin
              if (f[roce_pkg::HfReth]) imm = 32'(be_at(hcap_q[8*70 +: 64], 4));
              else if (f[roce_pkg::HfDeth]) imm = 32'(be_at(hcap_q[8*62 +: 64], 4));
              else imm = 32'(be_at(hcap_q[8*54 +: 64], 4));
            end
            // Field order of roce_pkg::roce_hdr_t (built as a vector: Yosys 0.23 does not
            // support member writes to a block-local struct variable).
            h = {48'(be_at(hcap_q[8*0 +: 64], 6)), 48'(be_at(hcap_q[8*6 +: 64], 6)),
                 32'(be_at(hcap_q[8*26 +: 64], 4)), 32'(be_at(hcap_q[8*30 +: 64], 4)),
                 hcap_q[8*15 +: 8], hcap_q[8*22 +: 8], 16'(be_at(hcap_q[8*18 +: 64], 2)),
                 16'(be_at(hcap_q[8*34 +: 64], 2)), hcap_q[8*42 +: 8], hcap_q[8*43+7:8*43+4],
                 16'(be_at(hcap_q[8*44 +: 64], 2)), hcap_q[8*46+7], hcap_q[8*46+6], qpn,
                 hcap_q[8*50+7], 24'(be_at(hcap_q[8*51 +: 64], 3)),
                 va, rkey, dlen, syn, msn, swp, cmp, orig, imm, qkey, sqp, plen[15:0]};
            meta_we    <= 1'b1;
            meta_waddr <= mw_q[MAW-1:0];
            meta_wdata <= h;
            mw_q <= mw_q + 1'b1;
            if (!hdr_pop && mw_q - mr_q == (MAW+1)'(MetaDepth - 1)) meta_full_q <= 1'b1;
          end
        end
      end
      if (fire) begin
        logic [8*HB-1:0] hv;
        logic [7:0]      f;
        logic [15:0]     iplen;
        logic [23:0]     flen;
        logic [DataWidth-1:0] w;
        logic            ovs_cur, nobuf_cur;
        logic [NB-1:0]   in_wk, in_fk;
        ovs_cur   = ovs_q && !post_q;    // a beat taken while judging starts a new frame
        nobuf_cur = nobuf_q && !post_q;
        hv = hcap_q;
        // header beat i's bytes as one part-select per beat, not a loop per byte (the same
        // muxes; the last header beat holds HB - NB * (HBeats - 1) of them)
        for (int i = 0; i < HBeats - 1; i++)
          if (in_hb[i]) hv[8*NB*i +: 8*NB] = in_data;
        if (in_hb[HBeats-1]) hv[8*NB*(HBeats-1) +: 8*HLast] = in_data[0 +: 8*HLast];
        hcap_q <= hv;
        // Header checks of the frame as captured so far (complete after its last beat), so that
        // the verdict after the last beat only combines registered flags.
        f      = roce_pkg::op_hdrs(hv[8*42 +: 8]);
        iplen  = 16'(be_at(hv[8*16 +: 64], 2));
        chk_q[roce_pkg::DropEthertype] <= be_at(hv[8*12 +: 64], 2) != 64'h0800;
        chk_q[roce_pkg::DropIpHdr]     <= hv[8*14 +: 8] != 8'h45 || (hv[8*20 +: 8] & 8'hBF) != 8'h00 ||
                                          hv[8*21 +: 8] != 8'h00;
        chk_q[roce_pkg::DropIpCsum]    <= in_cbad;  // of the same bytes, computed in the front
        chk_q[roce_pkg::DropProto]     <= hv[8*23 +: 8] != 8'd17;
        chk_q[roce_pkg::DropLen]       <= in_lbad;  // of the same bytes, computed in the front
        chk_q[roce_pkg::DropUdpPort]   <= 16'(be_at(hv[8*36 +: 64], 2)) != roce_pkg::RoceUdpPort;
        chk_q[roce_pkg::DropTver]      <= hv[8*43+3:8*43+0] != 4'h0;
        chk_q[roce_pkg::DropOpcode]    <= !f[roce_pkg::HfKnown];
        chk_q[roce_pkg::DropPkey]      <= (16'(be_at(hv[8*44 +: 64], 2)) & 16'h7FFF) != 16'h7FFF;
        // (timing: the range compares behind the capture were the verdict's longest input)
        chk_q[roce_pkg::DropQpn]       <= 24'(be_at(hv[8*47 +: 64], 3)) < qpn_lo_i ||
                                          24'(be_at(hv[8*47 +: 64], 3)) > qpn_hi_i;
        // Lane j set when j < c: the ones shifted up by c, inverted (a shift of NB or more leaves
        // none, so all lanes are set, as j < c is then for every j). One shift instead of NB
        // compares per cycle in Verilator (docs/sim-speed.md, step 9).
        in_wk = ~({NB{1'b1}} << in_c);
        in_fk = ~({NB{1'b1}} << in_c2);
        w = (in_sh == '0) ? in_data
                          : ((prev_q >> (8 * 32'(in_sh))) | (in_data << (8 * (NB - 32'(in_sh)))));
        if (!ovs_cur && !nobuf_cur && in_wr && !space_ok) begin
          nobuf_q <= 1'b1;  // only with drop_when_full_i: without it the beat waits for room
        end else if (!ovs_cur && !nobuf_cur && in_wr) begin
          mem_we    <= 1'b1;
          mem_waddr <= wr_q[AW-1:0];
          mem_wdata <= {in_wl, in_wk, w};
          wr_q      <= wr_q + 1'b1;
        end
        prev_q <= in_data;
        if (32'(b_q) >= MaxBeats) ovs_q <= 1'b1;
        if (b_q != 16'hFFFF) b_q <= b_q + 16'd1;
        if (in_last) begin
          flen = 24'({b_q, LNB'(0)}) + 24'(in_kc);
          flen_big_q <= flen > 24'(MaxFrameBytes);
          flen_bad_q <= flen != 24'd14 + {8'h0, iplen};
          runt_q     <= flen < 24'd58;   // (registered with the length: the verdict reads flags)
          post_q     <= 1'b1;
          b_q        <= '0;
          flush_q    <= !ovs_cur && !nobuf_cur && in_fl;
          flush_word_q <= {in_fwl, in_fk, in_data >> (8 * 32'(in_sh))};
        end
      end
    end
  end

  // ---- header output --------------------------------------------------------------------------
  always_ff @(posedge clk_i) begin
    if (meta_we) meta_q[meta_waddr] <= meta_wdata;
  end
  assign hdr_valid_o = mw_vis_q != mr_q;
  assign hdr_o = meta_q[mr_q[MAW-1:0]];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mr_q <= '0;
      mw_vis_q <= '0;
    end else begin
      mw_vis_q <= mw_q;
      if (hdr_pop) mr_q <= mr_q + 1'b1;
    end
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

  // ---- flow control: hysteresis between the watermarks -----------------------------------------
  // The fill counts the frame still arriving (wr_q, not the commit pointer): it occupies the room.
  localparam int XoffW = XoffBytes / NB, XonW = XonBytes / NB;
  logic [AW:0]  fill_w;
  logic [MAW:0] fill_f;
  logic         pause_q;
  assign fill_w = wr_q - rd_q;
  assign fill_f = mw_q - mr_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) pause_q <= 1'b0;
    else if (32'(fill_w) >= XoffW || 32'(fill_f) >= XoffFrames) pause_q <= 1'b1;
    else if (32'(fill_w) < XonW && 32'(fill_f) < XonFrames) pause_q <= 1'b0;
  end
  assign pause_req_o = pause_q;

  assign good_count_o = good_q;
  always_comb begin
    for (int i = 0; i < roce_pkg::NumDrop; i++) drop_count_o[32*i +: 32] = drop_q[i];
  end
endmodule
