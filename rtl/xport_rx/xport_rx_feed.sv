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
  // Kept in registers beside rem_q/sh_q, so the output valid (and through it the DMA engine's
  // request handshake) does not wait for the byte count and its add: rem_q != 0, and for the
  // next output beat sh_q + k > NB (it needs w1) and sh_q + k >= NB (it consumes w0).
  logic                 nz_q, need_q, shw_q;

  logic [LNB:0]  k;               // bytes in the next output beat (1..NB)
  logic          need_w1, shift, take;
  logic [LNB-1:0] sh_next;        // sh_q after the next output beat

  always_comb begin
    k = (rem_q >= 16'(NB)) ? (LNB+1)'(NB) : rem_q[LNB:0];
    sh_next = sh_q + k[LNB-1:0];  // (k = NB leaves the offset)
    need_w1 = need_q;
    m_valid_o = nz_q && w0v_q && (!need_w1 || w1v_q);
    shift = m_valid_o && m_ready_i && shw_q;
    take = s_tvalid_i && fetch_q != 16'd0 && (drain_i || !w1v_q || shift);
  end
  assign s_tready_o   = take;
  assign chunk_busy_o = nz_q;
  assign idle_o       = fetch_q == 16'd0 && !nz_q;

  // need_q/shw_q for a byte count n at offset sh_q (k = min(n, NB)): a full beat (n >= NB)
  // needs w1 unless the offset is 0 and always consumes w0; a partial one compares the sum.
  // After an output beat of a chunk of rem_q >= NB bytes the offset stays and n = rem_q - NB,
  // whose low bits are rem_q's (rem_q < NB leaves nothing, so the flags do not matter).
  logic [LNB:0] part_sum, chunk_sum;
  logic         next_full, chunk_full;
  assign next_full  = rem_q >= 16'(2 * NB);
  assign part_sum   = {1'b0, sh_q} + {1'b0, rem_q[LNB-1:0]};
  assign chunk_full = chunk_len_i >= 16'(NB);
  assign chunk_sum  = {1'b0, sh_q} + {1'b0, chunk_len_i[LNB-1:0]};

  logic [2*DataWidth-1:0] win;
  assign win = {w1_q, w0_q} >> (8 * sh_q);
  assign m_data_o = win[DataWidth-1:0];
  logic unused_win_hi;
  assign unused_win_hi = ^win[2*DataWidth-1:DataWidth];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      w0_q <= '0; w1_q <= '0; w0v_q <= 1'b0; w1v_q <= 1'b0;
      sh_q <= '0; fetch_q <= '0; rem_q <= '0;
      nz_q <= 1'b0; need_q <= 1'b0; shw_q <= 1'b0;
    end else if (pkt_start_i) begin
      w0v_q   <= 1'b0;
      w1v_q   <= 1'b0;
      sh_q    <= '0;
      rem_q   <= '0;
      nz_q    <= 1'b0;
      fetch_q <= 16'((17'(pkt_len_i) + 17'(NB - 1)) >> LNB);
    end else if (drain_i) begin
      w0v_q <= 1'b0;
      w1v_q <= 1'b0;
      rem_q <= '0;
      nz_q  <= 1'b0;
      if (take) fetch_q <= fetch_q - 16'd1;
    end else begin
      if (chunk_valid_i) begin  // (only with rem_q = 0: no output beat in this cycle)
        rem_q  <= chunk_len_i;
        nz_q   <= chunk_len_i != 16'd0;
        need_q <= chunk_full ? sh_q != '0 : chunk_sum > (LNB+1)'(NB);
        shw_q  <= chunk_full || chunk_sum >= (LNB+1)'(NB);
      end
      if (m_valid_o && m_ready_i) begin
        rem_q  <= rem_q - 16'(k);
        sh_q   <= sh_next;
        nz_q   <= rem_q > 16'(NB);
        need_q <= next_full ? sh_q != '0 : part_sum > (LNB+1)'(NB);
        shw_q  <= next_full || part_sum >= (LNB+1)'(NB);
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
