// The doorbell BAR: a wide AXI4 write slave (on a board the PCIe bridge's DMA-bypass BAR master)
// holding one 4 KiB doorbell page per user context (spec db_bar, doorbell_page). It turns the
// doorbell registers written into events {db_event, value} in a FIFO the firmware drains, and
// keeps the last BlueFlame WQE written to a page's bf_data in a buffer the soft core reads on its
// tightly coupled window (spec fw_tc bf_data_base / bf_status): a 64-byte write-combined store
// arrives as one 512-bit beat and costs the firmware single-cycle loads, no host read.
//
// Writes: one burst at a time (AW, its W beats, B), INCR or FIXED, any size up to the bus width,
// byte strobes honoured. The first beat may go in the cycle its AW is taken (a lone doorbell
// word costs one cycle at the port). A doorbell register counts only with all four byte strobes set; several
// in one beat become events in ascending offset order, one per cycle (W waits meanwhile). While
// the FIFO is full a doorbell word waits (W back-pressure, as a posted write backs up) for at
// most HoldCycles, then is dropped and counted: a posted write held for ever could stall the
// PCIe completions the firmware itself waits for. WRAP bursts and sizes wider than the bus are
// answered SLVERR and their data ignored. Reads: zeros, OKAY (a host read of a write-combined
// page must not fault), any burst length.
//
// BlueFlame: writes to bf_data fill one shared 256-byte buffer. It holds a valid WQE only when
// one page wrote it from offset 0 upward, each beat's strobes one run of bytes continuing where
// the last stopped, in whole 64-byte blocks, and that page's bf_db closed it; every bf_db event
// carries a sequence number (db_event.bf_seq) that bf_status repeats. Any bf_data write clears
// the valid bit, so the firmware, which reads bf_status again after the WQE, never sends a WQE
// a later write changed under it (it reads the SQ ring instead).
module doorbell_bar #(
  parameter int unsigned DataWidth  = 512,  // 64..512: the core's DMA width
  parameter int unsigned IdWidth    = 4,
  parameter int unsigned AddrWidth  = $clog2(rnic_spec_pkg::DB_BAR_SIZE),
  parameter int unsigned Depth      = 64,   // doorbell FIFO entries
  parameter int unsigned HoldCycles = rnic_spec_pkg::DB_BAR_HOLD_CYCLES
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // AXI4 slave: the doorbell BAR
  input  logic [IdWidth-1:0]     s_axi_awid_i,
  input  logic [AddrWidth-1:0]   s_axi_awaddr_i,
  input  logic [7:0]             s_axi_awlen_i,
  input  logic [2:0]             s_axi_awsize_i,
  input  logic [1:0]             s_axi_awburst_i,
  input  logic                   s_axi_awvalid_i,
  output logic                   s_axi_awready_o,
  input  logic [DataWidth-1:0]   s_axi_wdata_i,
  input  logic [DataWidth/8-1:0] s_axi_wstrb_i,
  input  logic                   s_axi_wlast_i,
  input  logic                   s_axi_wvalid_i,
  output logic                   s_axi_wready_o,
  output logic [IdWidth-1:0]     s_axi_bid_o,
  output logic [1:0]             s_axi_bresp_o,
  output logic                   s_axi_bvalid_o,
  input  logic                   s_axi_bready_i,
  input  logic [IdWidth-1:0]     s_axi_arid_i,
  input  logic [AddrWidth-1:0]   s_axi_araddr_i,
  input  logic [7:0]             s_axi_arlen_i,
  input  logic [2:0]             s_axi_arsize_i,
  input  logic [1:0]             s_axi_arburst_i,
  input  logic                   s_axi_arvalid_i,
  output logic                   s_axi_arready_o,
  output logic [IdWidth-1:0]     s_axi_rid_o,
  output logic [DataWidth-1:0]   s_axi_rdata_o,
  output logic [1:0]             s_axi_rresp_o,
  output logic                   s_axi_rlast_o,
  output logic                   s_axi_rvalid_o,
  input  logic                   s_axi_rready_i,
  // doorbell events to the firmware's db mailbox: {value, db_event}
  output logic                   out_valid_o,
  input  logic                   out_ready_i,
  output logic [63:0]            out_data_o,
  output logic [31:0]            dropped_o,      // doorbell.db_dropped
  output logic [31:0]            count_o,        // doorbells accepted (counter doorbells)
  // each sq_db / bf_db as it enters the FIFO, to the WQE fetch engine (doorbell-started fetch)
  output logic                   sq_db_valid_o,
  output logic                   sq_db_bf_o,     // a bf_db (else an sq_db)
  output logic [15:0]            sq_db_page_o,
  output logic [31:0]            sq_db_value_o,
  output logic                   rq_db_valid_o,  // an rq_db entered the FIFO (page and value as above)
  // the soft core's tightly coupled window: loads of bf_data / bf_status answer from a register
  // the next cycle; any other offset reads 0 (so the core ORs this with the other engines)
  input  logic                   tc_req_i,
  input  logic                   tc_we_i,
  input  logic [11:0]            tc_addr_i,
  output logic [31:0]            tc_rdata_o,
  // the transmit builder's row reads of the capture (rtl/tx_build): a row's window offset in,
  // the whole row from a register the next cycle (a second read port: a second LUTRAM copy);
  // a row read in the cycle of a bf_data write returns the old bytes, and bf_status_o, which
  // that write invalidates a cycle later, tells the builder whether the capture still holds the
  // doorbell's WQE (docs/decisions/tx-build.md)
  input  logic                   txb_rd_valid_i,
  input  logic [11:0]            txb_rd_off_i,
  output logic                   txb_rvalid_o,
  output logic [DataWidth-1:0]   txb_rdata_o,
  output logic [rnic_spec_pkg::BF_STATUS_BYTES*8-1:0] bf_status_o
);
  localparam int unsigned DataBytes = DataWidth / 8;
  localparam int unsigned LaneBits  = $clog2(DataBytes);
  localparam int unsigned PageBits  = AddrWidth - 12;
  localparam int unsigned BfBytes   = rnic_spec_pkg::DB_BF_DATA_BYTES;   // 256
  localparam int unsigned BfRows    = BfBytes / DataBytes;
  localparam int unsigned RowBits   = $clog2(BfRows);
  localparam int unsigned WordBits  = LaneBits - 2;                      // 32-bit words per row
  localparam int unsigned NumDb     = 5;  // sq_db, rq_db, cq_db, cq_arm, bf_db at 4 * k
  localparam int unsigned Aw        = $clog2(Depth);
  localparam int unsigned HoldW     = $clog2(HoldCycles + 1);
  localparam logic [11:0] RowMask   = ~12'(DataBytes - 1);

  // ---- write burst state --------------------------------------------------------------------
  logic                 act_q, ign_q, bvalid_q;
  logic [AddrWidth-1:0] addr_q;
  logic [7:0]           left_q;       // beats after the current one
  logic [2:0]           size_q;
  logic                 fixed_q;
  logic [IdWidth-1:0]   id_q;
  logic [NumDb-1:0]     done_q;       // doorbell words of the current beat already taken
  logic [HoldW-1:0]     hold_q;       // cycles the current doorbell word has waited

  assign s_axi_awready_o = !act_q && !bvalid_q;
  assign s_axi_bvalid_o  = bvalid_q;
  assign s_axi_bid_o     = id_q;
  assign s_axi_bresp_o   = ign_q ? 2'b10 : 2'b00;

  // ---- the current beat: from the burst state, or straight from AW in the cycle it is taken --
  logic                 aw_fire, act, cur_ign, aw_ign;
  logic [AddrWidth-1:0] cur_addr;
  logic [7:0]           cur_left;
  logic [2:0]           cur_size;
  logic                 cur_fixed;
  assign aw_fire   = s_axi_awvalid_i && s_axi_awready_o;
  assign aw_ign    = s_axi_awburst_i == 2'b10 || s_axi_awburst_i == 2'b11 || 32'(s_axi_awsize_i) > LaneBits;
  assign act       = act_q || aw_fire;
  assign cur_addr  = act_q ? addr_q : s_axi_awaddr_i;
  assign cur_left  = act_q ? left_q : s_axi_awlen_i;
  assign cur_size  = act_q ? size_q : s_axi_awsize_i;
  assign cur_fixed = act_q ? fixed_q : s_axi_awburst_i == 2'b00;
  assign cur_ign   = act_q ? ign_q : aw_ign;

  logic [11:0]          row_base;     // page offset of the beat's row
  logic [PageBits-1:0]  page;
  logic                 is_bf_row;
  logic [NumDb-1:0]     db_mask, pend;
  logic [2:0]           pick;
  logic [31:0]          pick_val;
  logic                 full, push, drop, beat_ok, beat;
  assign row_base  = cur_addr[11:0] & RowMask;
  assign page      = cur_addr[AddrWidth-1:12];
  assign is_bf_row = row_base >= rnic_spec_pkg::DB_BF_DATA &&
                     row_base < rnic_spec_pkg::DB_BF_DATA + 12'(BfBytes);

  always_comb begin
    db_mask = '0;
    for (int k = 0; k < NumDb; k++) begin
      if (row_base == (12'(4 * k) & RowMask) &&
          &s_axi_wstrb_i[(4 * k) % DataBytes +: 4])
        db_mask[k] = 1'b1;
    end
    if (!act || cur_ign || !s_axi_wvalid_i) db_mask = '0;
  end
  assign pend = db_mask & ~done_q;

  always_comb begin
    pick = 3'd0;
    pick_val = 32'd0;
    for (int k = NumDb - 1; k >= 0; k--) begin
      if (pend[k]) begin
        pick = 3'(k);
        pick_val = s_axi_wdata_i[8 * ((4 * k) % DataBytes) +: 32];
      end
    end
  end

  assign push = pend != '0 && !full;
  assign drop = pend != '0 && full && 32'(hold_q) >= HoldCycles;
  // the beat is taken once its last pending doorbell word goes (pushed or dropped)
  assign beat_ok = pend == '0 || ((push || drop) && (pend & ~(NumDb'(1) << pick)) == '0);
  assign s_axi_wready_o = act && beat_ok;
  assign beat = s_axi_wvalid_i && s_axi_wready_o;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      act_q <= 1'b0;
      ign_q <= 1'b0;
      bvalid_q <= 1'b0;
      addr_q <= '0;
      left_q <= '0;
      size_q <= '0;
      fixed_q <= 1'b0;
      id_q <= '0;
      done_q <= '0;
      hold_q <= '0;
    end else begin
      if (s_axi_awvalid_i && s_axi_awready_o) begin
        act_q <= 1'b1;
        addr_q <= s_axi_awaddr_i;
        left_q <= s_axi_awlen_i;
        size_q <= s_axi_awsize_i;
        fixed_q <= s_axi_awburst_i == 2'b00;
        id_q <= s_axi_awid_i;
        ign_q <= aw_ign;
      end
      if (s_axi_bvalid_o && s_axi_bready_i) bvalid_q <= 1'b0;
      hold_q <= (pend != '0 && !push && !drop) ? hold_q + 1'b1 : '0;
      if (beat) begin
        done_q <= '0;
        // the next beat's address: aligned to the transfer size, then one transfer on (the
        // page bits stay: an AXI burst never crosses 4 KiB)
        if (!cur_fixed)
          addr_q[11:0] <= (cur_addr[11:0] & ~((12'd1 << cur_size) - 12'd1)) + (12'd1 << cur_size);
        left_q <= cur_left - 8'd1;
        if (cur_left == 8'd0) begin
          act_q <= 1'b0;
          bvalid_q <= 1'b1;
        end
      end else if (push || drop) begin
        done_q <= done_q | (NumDb'(1) << pick);
      end
    end
  end

  // ---- doorbell FIFO ------------------------------------------------------------------------
  logic [63:0] mem [Depth];
  logic [Aw:0] wp_q, rp_q;
  logic [7:0]  bf_seq_q;      // bf_seq of the last bf_db accepted
  assign full = (wp_q[Aw] != rp_q[Aw]) && (wp_q[Aw-1:0] == rp_q[Aw-1:0]);

  rnic_spec_pkg::db_event_t ev;
  always_comb begin
    ev = '0;
    ev.page = 16'(page);
    ev.which = 8'(pick);
    ev.bf_seq = pick == 3'd4 ? bf_seq_q + 8'd1 : 8'd0;
  end

  always_ff @(posedge clk_i) if (push) mem[wp_q[Aw-1:0]] <= {pick_val, ev};
  // registered: no combinational path from the AXI W channel into the fetch engine
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) sq_db_valid_o <= 1'b0;
    else sq_db_valid_o <= push && (pick == 3'd0 || pick == 3'd4);
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) rq_db_valid_o <= 1'b0;
    else rq_db_valid_o <= push && pick == 3'd1;
  end
  always_ff @(posedge clk_i) begin
    if (push) begin
      sq_db_bf_o    <= pick == 3'd4;
      sq_db_page_o  <= 16'(page);
      sq_db_value_o <= pick_val;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wp_q <= '0;
      rp_q <= '0;
      dropped_o <= '0;
      count_o <= '0;
    end else begin
      if (push) begin
        wp_q <= wp_q + 1'b1;
        count_o <= count_o + 32'd1;
      end
      if (drop) dropped_o <= dropped_o + 32'd1;
      if (out_valid_o && out_ready_i) rp_q <= rp_q + 1'b1;
    end
  end
  assign out_valid_o = wp_q != rp_q;
  assign out_data_o = mem[rp_q[Aw-1:0]];

  // ---- BlueFlame buffer ---------------------------------------------------------------------
  logic [DataWidth-1:0] bf_mem [BfRows];
  logic [RowBits-1:0]   bf_row;
  logic [DataBytes-1:0] bf_strb;
  logic                 bf_wr;
  assign bf_row  = RowBits'((row_base - rnic_spec_pkg::DB_BF_DATA) >> LaneBits);
  assign bf_strb = s_axi_wstrb_i;
  assign bf_wr   = beat && !cur_ign && is_bf_row && bf_strb != '0;

  // One write of the whole row, whose lanes without strobe are the row's own (read at the same
  // address): Verilator keeps one delayed write instead of one per lane (each a flag it clears
  // and tests on every clock edge), and Yosys's opt_mem_feedback turns the read-back muxes into
  // the lanes' write enables again (the same LUTRAM).
  always_ff @(posedge clk_i) begin
    if (bf_wr) begin
      logic [DataWidth-1:0] nr;
      nr = bf_mem[bf_row];
      for (int b = 0; b < DataBytes; b++)
        if (bf_strb[b]) nr[8 * b +: 8] = s_axi_wdata_i[8 * b +: 8];
      bf_mem[bf_row] <= nr;
    end
  end

  // where the beat's strobes start, how many there are, and whether they form one run
  // LaneSel[k]: the lanes whose index has bit k set
  function automatic logic [LaneBits*DataBytes-1:0] lane_sel();
    lane_sel = '0;
    for (int k = 0; k < LaneBits; k++)
      for (int b = 0; b < DataBytes; b++) lane_sel[k * DataBytes + b] = ((b >> k) & 1) != 0;
  endfunction
  localparam logic [LaneBits*DataBytes-1:0] LaneSel = lane_sel();
  logic [LaneBits-1:0] lo;
  logic [LaneBits:0]   n;
  logic [DataBytes-1:0] run;
  logic                 contig;
  // The strobes are a top-level input, so Verilator evaluates this in its input region twice per
  // cycle: the lowest strobe is isolated (s & -s) and encoded with constant masks, and the count
  // is one $countones, instead of 64-step loops (same values: lo = 0 without strobes).
  logic [DataBytes-1:0] low1;
  always_comb begin
    low1 = bf_strb & (~bf_strb + 1'b1);
    for (int k = 0; k < LaneBits; k++) lo[k] = |(low1 & LaneSel[k * DataBytes +: DataBytes]);
    n = (LaneBits + 1)'($countones(bf_strb));
    run = bf_strb >> lo;
    contig = (run & (run + 1'b1)) == '0;
  end
  logic [8:0] start;
  assign start = 9'(row_base - rnic_spec_pkg::DB_BF_DATA) + 9'(lo);

  logic                bf_open_q;   // a WQE is being written in order by bf_page_q
  logic [8:0]          bf_next_q;   // bytes written so far in order
  logic [PageBits-1:0] bf_page_q;
  rnic_spec_pkg::bf_status_t bf_st_q;
  logic bf_db_push, bf_db_drop;
  assign bf_db_push = push && pick == 3'd4;
  assign bf_db_drop = drop && pick == 3'd4;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      bf_open_q <= 1'b0;
      bf_next_q <= '0;
      bf_page_q <= '0;
      bf_seq_q <= '0;
      bf_st_q <= '0;
    end else if (bf_wr) begin
      if (start == 9'd0 && contig) begin
        bf_open_q <= 1'b1;
        bf_next_q <= 9'(n);
        bf_page_q <= page;
      end else if (bf_open_q && page == bf_page_q && start == bf_next_q && contig) begin
        bf_next_q <= bf_next_q + 9'(n);
      end else begin
        bf_open_q <= 1'b0;
      end
      bf_st_q.valid <= 1'b0;
    end else if (bf_db_push) begin
      bf_seq_q <= bf_seq_q + 8'd1;
      bf_open_q <= 1'b0;
      bf_st_q.page <= 16'(bf_page_q);
      bf_st_q.seq <= bf_seq_q + 8'd1;
      bf_st_q.wqebbs <= bf_next_q[8:6];
      bf_st_q.valid <= bf_open_q && page == bf_page_q && bf_next_q[5:0] == 6'd0 && bf_next_q != 9'd0;
    end else if (bf_db_drop) begin
      bf_open_q <= 1'b0;
    end
  end

  // ---- the firmware's loads -----------------------------------------------------------------
  logic [11:0] tc_off;
  logic [5:0]  tc_word;
  assign tc_off = tc_addr_i - rnic_spec_pkg::FW_TC_BF_DATA_BASE;
  assign tc_word = tc_off[7:2];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tc_rdata_o <= '0;
    end else if (tc_req_i && !tc_we_i) begin
      if (tc_addr_i >= rnic_spec_pkg::FW_TC_BF_DATA_BASE &&
          tc_addr_i < rnic_spec_pkg::FW_TC_BF_DATA_BASE + 12'(BfBytes))
        tc_rdata_o <= bf_mem[tc_word[5:WordBits]][32 * tc_word[WordBits-1:0] +: 32];
      else if (tc_addr_i == rnic_spec_pkg::FW_TC_BF_STATUS)
        tc_rdata_o <= bf_st_q;
      else
        tc_rdata_o <= '0;
    end
  end

  // ---- the transmit builder's row reads (data under their valid: nothing evaluated when idle)
  // (the capture's window base is aligned to its size: the row is the offset's own bits)
  if (32'(rnic_spec_pkg::FW_TC_BF_DATA_BASE) % BfBytes != 0) begin : g_bf_align
    $error("doorbell_bar: fw_tc.bf_data_base must be aligned to the capture's size");
  end
  logic [11:0] txb_off;
  assign txb_off = txb_rd_off_i;
  always_ff @(posedge clk_i) begin
    if (txb_rd_valid_i) txb_rdata_o <= bf_mem[txb_off[LaneBits +: RowBits]];
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) txb_rvalid_o <= 1'b0;
    else txb_rvalid_o <= txb_rd_valid_i;
  end
  assign bf_status_o = bf_st_q;

  // ---- reads: zeros ---------------------------------------------------------------------------
  logic               rd_act_q;
  logic [7:0]         rd_left_q;
  logic [IdWidth-1:0] rd_id_q;
  assign s_axi_arready_o = !rd_act_q;
  assign s_axi_rvalid_o = rd_act_q;
  assign s_axi_rid_o = rd_id_q;
  assign s_axi_rdata_o = '0;
  assign s_axi_rresp_o = 2'b00;
  assign s_axi_rlast_o = rd_left_q == 8'd0;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_act_q <= 1'b0;
      rd_left_q <= '0;
      rd_id_q <= '0;
    end else if (s_axi_arvalid_i && s_axi_arready_o) begin
      rd_act_q <= 1'b1;
      rd_left_q <= s_axi_arlen_i;
      rd_id_q <= s_axi_arid_i;
    end else if (s_axi_rvalid_o && s_axi_rready_i) begin
      rd_left_q <= rd_left_q - 8'd1;
      if (rd_left_q == 8'd0) rd_act_q <= 1'b0;
    end
  end

  logic unused;
  assign unused = ^{s_axi_wlast_i, s_axi_araddr_i, s_axi_arsize_i, s_axi_arburst_i, tc_off[11:8], tc_off[1:0],
                    txb_off[11:LaneBits+RowBits], txb_off[LaneBits-1:0]};
endmodule
