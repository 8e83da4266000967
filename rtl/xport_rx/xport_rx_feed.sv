// xport_rx_feed: payload realigner between roce_rx's packed payload stream and the DMA write
// data port. A packet is opened with pkt_start_i (payload bytes pkt_len_i; exactly
// ceil(len/NB) beats of it will be taken from the stream). Chunks (chunk_valid_i, chunk_len_i
// bytes, > 0) are then emitted in order as packed beats (byte 0 of the chunk in lane 0),
// continuing at the packet byte where the previous chunk ended, so a packet split at a page
// boundary needs no extra buffering. drain_i discards the rest of the packet; idle_o is high
// when the packet's beats were all taken and no chunk is active.
// Window: two input beats (w0 = beat holding the current byte, w1 = the next one); output =
// ({w1, w0} >> 8*sh), sh = current byte offset within w0.
module xport_rx_feed #(
  parameter int DataWidth = 512
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic [DataWidth-1:0] s_tdata_i,
  input  logic                 s_tvalid_i,
  output logic                 s_tready_o,
  input  logic                 pkt_start_i,
  input  logic [15:0]          pkt_len_i,
  input  logic                 chunk_valid_i,   // pulse: start a chunk (only while chunk_busy_o = 0)
  input  logic [15:0]          chunk_len_i,
  output logic                 chunk_busy_o,
  input  logic                 drain_i,
  output logic                 idle_o,
  output logic                 m_valid_o,
  input  logic                 m_ready_i,
  output logic [DataWidth-1:0] m_data_o
);
  localparam int NB = DataWidth / 8;
  localparam int LNB = $clog2(NB);

  logic [DataWidth-1:0] w0_q, w1_q;
  logic                 w0v_q, w1v_q;
  logic [LNB-1:0]       sh_q;
  logic [15:0]          fetch_q;   // beats of the packet not yet taken from the stream
  logic [15:0]          rem_q;     // bytes of the active chunk not yet emitted

  logic [LNB:0]  k;               // bytes in the next output beat (1..NB)
  logic          need_w1, shift, take;
  logic [LNB:0]  sh_sum;

  always_comb begin
    k = (rem_q >= 16'(NB)) ? (LNB+1)'(NB) : rem_q[LNB:0];
    sh_sum = {1'b0, sh_q} + k;
    need_w1 = sh_sum > (LNB+1)'(NB);
    m_valid_o = rem_q != 16'd0 && w0v_q && (!need_w1 || w1v_q);
    shift = m_valid_o && m_ready_i && sh_sum >= (LNB+1)'(NB);
    take = s_tvalid_i && fetch_q != 16'd0 && (drain_i || !w1v_q || shift);
  end
  assign s_tready_o   = take;
  assign chunk_busy_o = rem_q != 16'd0;
  assign idle_o       = fetch_q == 16'd0 && rem_q == 16'd0;

  logic [2*DataWidth-1:0] win;
  assign win = {w1_q, w0_q} >> (8 * sh_q);
  assign m_data_o = win[DataWidth-1:0];
  logic unused_win_hi;
  assign unused_win_hi = ^win[2*DataWidth-1:DataWidth];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      w0_q <= '0; w1_q <= '0; w0v_q <= 1'b0; w1v_q <= 1'b0;
      sh_q <= '0; fetch_q <= '0; rem_q <= '0;
    end else if (pkt_start_i) begin
      w0v_q   <= 1'b0;
      w1v_q   <= 1'b0;
      sh_q    <= '0;
      rem_q   <= '0;
      fetch_q <= 16'((17'(pkt_len_i) + 17'(NB - 1)) >> LNB);
    end else if (drain_i) begin
      w0v_q <= 1'b0;
      w1v_q <= 1'b0;
      rem_q <= '0;
      if (take) fetch_q <= fetch_q - 16'd1;
    end else begin
      if (chunk_valid_i) rem_q <= chunk_len_i;
      if (m_valid_o && m_ready_i) begin
        rem_q <= rem_q - 16'(k);
        sh_q  <= sh_sum[LNB-1:0];
      end
      if (take) fetch_q <= fetch_q - 16'd1;
      // window: shift out w0 when consumed, then append the taken beat
      if (shift) begin
        if (take && w1v_q) begin
          w0_q <= w1_q; w0v_q <= 1'b1; w1_q <= s_tdata_i; w1v_q <= 1'b1;
        end else if (take) begin
          w0_q <= s_tdata_i; w0v_q <= 1'b1; w1v_q <= 1'b0;
        end else begin
          w0_q <= w1_q; w0v_q <= w1v_q; w1v_q <= 1'b0;
        end
      end else if (take) begin
        if (!w0v_q) begin
          w0_q <= s_tdata_i; w0v_q <= 1'b1;
        end else begin
          w1_q <= s_tdata_i; w1v_q <= 1'b1;
        end
      end
    end
  end

endmodule
