// The firmware's own Ethernet path (spec fw_mmio eth_*): frames of EtherType
// FW_ETH_RX_ETHERTYPE (ARP) seen on the MAC receive stream are kept (first FW_ETH_SLOT_BYTES
// bytes) in a small queue the firmware reads, and one frame the firmware writes is merged into
// the MAC transmit stream between two frames of the transport engine.
// The receive side only watches the stream (roce_rx still takes every beat and drops what is not
// RoCEv2), so it can neither stall nor lose a RoCE frame. Frames must have packed tkeep with only
// the last beat partial (the MAC's AXI-Stream contract). DataWidth divides the slot (64 bytes).
module rnic_fw_eth #(
  parameter int unsigned DataWidth = 512
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  // MAC receive stream, beats as accepted (valid means valid && ready)
  input  logic [DataWidth-1:0]    rx_tdata_i,
  input  logic [DataWidth/8-1:0]  rx_tkeep_i,
  input  logic                    rx_tlast_i,
  input  logic                    rx_tvalid_i,
  // firmware MMIO, page eth_*: offset within the page; reads answer the next cycle
  input  logic                    mmio_req_i,
  input  logic                    mmio_we_i,
  input  logic [7:0]              mmio_off_i,
  input  logic [31:0]             mmio_wdata_i,
  output logic [31:0]             mmio_rdata_o,
  // transmit merge: the transport engine's frames in, the MAC stream out
  input  logic [DataWidth-1:0]    s_tdata_i,
  input  logic [DataWidth/8-1:0]  s_tkeep_i,
  input  logic                    s_tlast_i,
  input  logic                    s_tvalid_i,
  output logic                    s_tready_o,
  output logic [DataWidth-1:0]    m_tdata_o,
  output logic [DataWidth/8-1:0]  m_tkeep_o,
  output logic                    m_tlast_o,
  output logic                    m_tvalid_o,
  input  logic                    m_tready_i,
  input  logic                    pause_i,     // no new frame starts while high
  output logic [31:0]             cnt_rx_o,    // frames queued (rx_fw_frames)
  output logic [31:0]             cnt_full_o,  // frames dropped, queue full (rx_fw_drop_full)
  output logic [31:0]             cnt_tx_o     // firmware frames sent (tx_fw_frames)
);
  localparam int unsigned NB = DataWidth / 8;
  localparam int unsigned SlotBytes = rnic_spec_pkg::FW_ETH_SLOT_BYTES;
  localparam int unsigned SlotBits = SlotBytes * 8;
  localparam int unsigned Beats = SlotBits / DataWidth;  // beats of a frame that are kept
  localparam int unsigned NSlots = rnic_spec_pkg::FW_ETH_RX_SLOTS;
  localparam int unsigned PW = $clog2(NSlots);
  localparam int unsigned OffData = 32'(rnic_spec_pkg::FW_REG_ETH_RX_DATA) & 32'hFF;
  localparam int unsigned OffTx = 32'(rnic_spec_pkg::FW_REG_ETH_TX_DATA) & 32'hFF;
  localparam int unsigned OffRxSt = 32'(rnic_spec_pkg::FW_REG_ETH_RX_STATUS) & 32'hFF;
  localparam int unsigned OffPop = 32'(rnic_spec_pkg::FW_REG_ETH_RX_POP) & 32'hFF;
  localparam int unsigned OffSend = 32'(rnic_spec_pkg::FW_REG_ETH_TX_SEND) & 32'hFF;
  localparam int unsigned OffTxSt = 32'(rnic_spec_pkg::FW_REG_ETH_TX_STATUS) & 32'hFF;

  function automatic logic [DataWidth-1:0] keep_mask(input logic [NB-1:0] keep);
    for (int i = 0; i < NB; i++) keep_mask[i*8 +: 8] = {8{keep[i]}};
  endfunction
  // Bytes of a beat with a packed tkeep (n low bits set): bit k of n is set when n mod 2^(k+1)
  // is at least 2^k, and "at least m bytes" is keep[m-1], so each bit is an OR of keep-bit pairs
  // keep[a] & !keep[a + 2^k], a = j 2^(k+1) + 2^k - 1 (keep[a] alone where a + 2^k is past the
  // beat): no adder tree over the keep bits; the 16-bit frame length is one add behind it.
  // Word-wide, the pairs of bit k are keep & ~(keep >> 2^k) at the lanes of PairSel (the shift
  // brings zeros past the beat): the same gates, and the simulator, which evaluates this on every
  // cycle, runs a few word operations instead of a term per pair (docs/sim-speed.md step 14).
  localparam int unsigned CW = $clog2(NB) + 1;
  function automatic logic [CW*NB-1:0] pair_sel();
    logic [CW*NB-1:0] m;
    m = '0;
    for (int k = 0; k < CW; k++)
      for (int j = 0; j * (2 << k) + (1 << k) <= NB; j++) m[k*NB + j * (2 << k) + (1 << k) - 1] = 1'b1;
    pair_sel = m;
  endfunction
  localparam logic [CW*NB-1:0] PairSel = pair_sel();
  function automatic logic [CW-1:0] keep_bytes(input logic [NB-1:0] keep);
    for (int k = 0; k < CW; k++)
      keep_bytes[k] = |(keep & ~(keep >> (1 << k)) & PairSel[k*NB +: NB]);
  endfunction

  // ---- receive: capture the frame arriving, queue it at its last beat if it is ours -------------
  logic [SlotBits-1:0] cap_q, cap_d;
  logic [15:0] len_q, len_d;
  logic [7:0] beat_q;
  logic [SlotBits-1:0] slot_q [NSlots];
  logic [15:0] slen_q [NSlots];
  logic [PW-1:0] wr_q, rd_q;
  logic [PW:0] count_q;
  logic [31:0] cnt_rx_q, cnt_full_q;
  logic ours, pop, ge14;

  // The capture is used only with rx_tvalid_i (cap_q loads, the slot is written, ours is
  // tested): without a beat it keeps cap_q, so the simulator skips the lane loops on idle cycles
  // (docs/sim-speed.md, step 13) and the select merges with cap_q's own enable in Yosys. The
  // frame length stays ungated: under the same select it put one more LUT level on len_q's path
  // (the select stayed in front of the slot's write data), and added where it loads, Verilator
  // ordered the model's clocked code differently, 5 % more instructions per cycle.
  always_comb begin
    len_d = len_q + 16'(keep_bytes(rx_tkeep_i));
    cap_d = cap_q;
    ge14 = 1'b0;
    if (rx_tvalid_i) begin
      if (beat_q == 8'd0) cap_d = '0;  // bytes past the frame read as zero
      for (int b = 0; b < Beats; b++)
        if (32'(beat_q) == b) cap_d[b*DataWidth +: DataWidth] = rx_tdata_i & keep_mask(rx_tkeep_i);
      // a frame length >= 14 told without the length: the beats before this one were full (beat_q
      // of them, or more once beat_q stops at Beats), so it is a keep bit of this beat or known
      // from beat_q
      for (int b = 0; b <= Beats; b++)
        if (32'(beat_q) == b) begin
          if (b * NB >= 14) ge14 = 1'b1;
          else if (14 - b * NB <= NB) ge14 = rx_tkeep_i[13 - b * NB];
        end
    end
    ours = {cap_d[12*8 +: 8], cap_d[13*8 +: 8]} == 16'(rnic_spec_pkg::FW_ETH_RX_ETHERTYPE) && ge14;
  end
  assign pop = mmio_req_i && mmio_we_i && 32'(mmio_off_i) == OffPop && count_q != '0;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      len_q <= '0;
      beat_q <= '0;
      wr_q <= '0;
      rd_q <= '0;
      count_q <= '0;
      cnt_rx_q <= '0;
      cnt_full_q <= '0;
    end else begin
      if (rx_tvalid_i) begin
        len_q <= rx_tlast_i ? '0 : len_d;
        beat_q <= rx_tlast_i ? '0 : (32'(beat_q) >= Beats ? beat_q : beat_q + 8'd1);
      end
      if (rx_tvalid_i && rx_tlast_i && ours && 32'(count_q) == NSlots) cnt_full_q <= cnt_full_q + 32'd1;
      if (rx_tvalid_i && rx_tlast_i && ours && 32'(count_q) != NSlots) begin
        wr_q <= wr_q + 1'b1;
        cnt_rx_q <= cnt_rx_q + 32'd1;
        count_q <= count_q + 1'b1 - (PW+1)'(pop);
      end else begin
        count_q <= count_q - (PW+1)'(pop);
      end
      if (pop) rd_q <= rd_q + 1'b1;
    end
  end
  // data registers without reset: their contents are only read behind count_q
  always_ff @(posedge clk_i) begin
    if (rx_tvalid_i) cap_q <= cap_d;
    if (rx_tvalid_i && rx_tlast_i && ours && 32'(count_q) != NSlots) begin
      slot_q[wr_q] <= cap_d;
      slen_q[wr_q] <= len_d;
    end
  end

  // ---- transmit: the firmware's frame buffer and the merge at a frame boundary -----------------
  logic [SlotBits-1:0] txb_q;
  logic [6:0] tx_len_q;
  logic tx_pend_q, raw_act_q, in_frame_q, held_q, start;
  logic [7:0] raw_beat_q;
  logic [31:0] cnt_tx_q;
  logic [DataWidth-1:0] raw_data;
  logic [NB-1:0] raw_keep;
  logic raw_last;
  logic [7:0] remain;

  // Read only while raw_act_q (the output muxes, the beat count): zero otherwise, so the simulator
  // skips the lane loops while no firmware frame leaves; for Yosys the zero is a dead branch of
  // the output muxes on the same select.
  always_comb begin
    raw_data = '0;
    raw_keep = '0;
    raw_last = 1'b0;
    remain = '0;
    if (raw_act_q) begin
      for (int b = 0; b < Beats; b++)
        if (32'(raw_beat_q) == b) raw_data = txb_q[b*DataWidth +: DataWidth];
      remain = 8'(tx_len_q) - 8'(32'(raw_beat_q) * NB);
      raw_last = 32'(remain) <= NB;
      for (int i = 0; i < NB; i++) raw_keep[i] = 32'(remain) > i;
      raw_data = raw_data & keep_mask(raw_keep);
    end
  end

  // A frame starts only when the engine is between frames and has no beat on offer that the MAC
  // has not taken yet (AXI-Stream: an offered beat stays offered), and not while paused.
  assign start = tx_pend_q && !raw_act_q && !in_frame_q && !held_q && !pause_i;
  assign s_tready_o = m_tready_i && !raw_act_q && !start;
  assign m_tvalid_o = raw_act_q || (s_tvalid_i && !start);
  assign m_tdata_o = raw_act_q ? raw_data : s_tdata_i;
  assign m_tkeep_o = raw_act_q ? raw_keep : s_tkeep_i;
  assign m_tlast_o = raw_act_q ? raw_last : s_tlast_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tx_len_q <= '0;
      tx_pend_q <= 1'b0;
      raw_act_q <= 1'b0;
      raw_beat_q <= '0;
      in_frame_q <= 1'b0;
      held_q <= 1'b0;
      cnt_tx_q <= '0;
    end else begin
      if (s_tvalid_i && s_tready_o) in_frame_q <= !s_tlast_i;
      held_q <= !raw_act_q && m_tvalid_o && !m_tready_i;
      if (mmio_req_i && mmio_we_i && 32'(mmio_off_i) == OffSend && !tx_pend_q &&
          mmio_wdata_i[6:0] != 7'd0 && 32'(mmio_wdata_i[6:0]) <= SlotBytes && mmio_wdata_i[31:7] == '0) begin
        tx_len_q <= mmio_wdata_i[6:0];
        tx_pend_q <= 1'b1;
      end
      if (start) begin
        raw_act_q <= 1'b1;
        raw_beat_q <= '0;
      end
      if (raw_act_q && m_tready_i) begin
        raw_beat_q <= raw_beat_q + 8'd1;
        if (raw_last) begin
          raw_act_q <= 1'b0;
          tx_pend_q <= 1'b0;
          cnt_tx_q <= cnt_tx_q + 32'd1;
        end
      end
    end
  end
  always_ff @(posedge clk_i) begin
    // the buffer is the firmware's only while no frame is waiting or leaving
    if (mmio_req_i && mmio_we_i && 32'(mmio_off_i) >= OffTx && 32'(mmio_off_i) < OffTx + SlotBytes && !tx_pend_q)
      for (int w = 0; w < SlotBytes / 4; w++)
        if (32'(mmio_off_i[5:2]) == w) txb_q[w*32 +: 32] <= mmio_wdata_i;
  end

  // ---- MMIO reads ------------------------------------------------------------------------------
  logic [SlotBits-1:0] head;
  logic [31:0] head_word;
  assign head = slot_q[rd_q];
  // the word by the offset's bits (a mux tree), not a compare per word: fewer LUT levels behind
  // the soft core's address add
  assign head_word = head[32 * mmio_off_i[5:2] +: 32];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mmio_rdata_o <= '0;
    end else if (mmio_req_i && !mmio_we_i) begin
      mmio_rdata_o <= '0;
      if (32'(mmio_off_i) - OffData < SlotBytes && count_q != '0) begin
        mmio_rdata_o <= head_word;
      end else if (32'(mmio_off_i) == OffRxSt) begin
        mmio_rdata_o <= {count_q != '0 ? slen_q[rd_q] : 16'd0, 15'd0, count_q != '0};
      end else if (32'(mmio_off_i) == OffTxSt) begin
        mmio_rdata_o <= {31'd0, tx_pend_q};
      end
    end
  end

  assign cnt_rx_o = cnt_rx_q;
  assign cnt_full_o = cnt_full_q;
  assign cnt_tx_o = cnt_tx_q;
endmodule
