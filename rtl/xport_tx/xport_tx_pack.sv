// xport_tx_pack: joins the DMA read streams of a message's chunks (each chunk packed from lane 0,
// ceil(len/NB) beats, last beat partial) into one packed message payload stream for roce_tx.
// Chunk descriptors {len, fake, last} come in DMA request order; a fake chunk (translation
// failure after the first packet was committed) produces len zero bytes and reads no DMA data.
// After the last chunk of a message a partial beat is flushed, so every message starts at lane 0.
module xport_tx_pack #(
  parameter int DataWidth = 512
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // chunk descriptors (FIFO head)
  input  logic                   ch_valid_i,
  output logic                   ch_pop_o,
  input  logic [31:0]            ch_len_i,
  input  logic                   ch_fake_i,
  input  logic                   ch_last_i,
  // DMA read data (packed per request)
  input  logic                   rd_valid_i,
  output logic                   rd_ready_o,
  input  logic [DataWidth-1:0]   rd_data_i,
  // packed message payload toward roce_tx
  output logic                   m_valid_o,
  input  logic                   m_ready_i,
  output logic [DataWidth-1:0]   m_data_o
);
  localparam int NB  = DataWidth / 8;
  localparam int LNB = $clog2(NB);

  logic                 act_q, fake_q, last_q, flush_q, ov_q;
  logic [31:0]          rem_q;
  logic [DataWidth-1:0] acc_q, od_q;
  logic [LNB-1:0]       fill_q;
  logic                 can_out, take;
  // The next beat's byte count n = min(rem_q, NB), its lane mask (lane j kept when j < n) and
  // "it ends the chunk" (rem_q <= NB) kept in registers beside rem_q, set when a chunk is
  // loaded and after each beat (a full beat leaves rem_q - NB, whose low bits are rem_q's when
  // rem_q < 2 NB): the data mask, the shift and the output registers do not wait for rem_q's
  // compares.
  logic [LNB:0]         n_q;
  logic [NB-1:0]        km_q;
  logic                 endb_q;

  assign can_out    = !ov_q || m_ready_i;
  // a beat of the current chunk is consumed this cycle
  assign take       = act_q && !flush_q && can_out && (fake_q || rd_valid_i);
  assign rd_ready_o = act_q && !fake_q && !flush_q && can_out;
  // the next chunk is loaded while the last beat of the current one is taken, except at the end
  // of a message (the flush beat may follow)
  assign ch_pop_o   = ch_valid_i && !flush_q &&
                      (!act_q || (take && endb_q && !last_q));
  assign m_valid_o  = ov_q;
  assign m_data_o   = od_q;

  function automatic logic [DataWidth-1:0] lane_mask(input logic [NB-1:0] k);
    logic [DataWidth-1:0] m;
    for (int j = 0; j < NB; j++) m[8*j +: 8] = {8{k[j]}};
    lane_mask = m;
  endfunction

  // n, its lanes and "last beat" for a byte count: min(x, NB) (x >= NB: full), from x's compare
  // with NB and its low bits
  logic                 ld_full, nx_full;
  logic [LNB:0]         ld_n, nx_n;
  logic [NB-1:0]        ld_k, nx_k;
  assign ld_full = ch_len_i >= 32'(NB);
  assign nx_full = rem_q >= 32'(2 * NB);   // after a full beat: rem_q - NB >= NB
  assign ld_n    = ld_full ? (LNB+1)'(NB) : {1'b0, ch_len_i[LNB-1:0]};
  assign nx_n    = nx_full ? (LNB+1)'(NB) : {1'b0, rem_q[LNB-1:0]};
  // lane j kept when j < n: the lanes below the low bits, as one shift (the simulator evaluates
  // this every cycle; a per-lane compare loop was 64 compares and merges per mask there,
  // docs/sim-speed.md step 13)
  assign ld_k = ld_full ? '1 : ~({NB{1'b1}} << ch_len_i[LNB-1:0]);
  assign nx_k = nx_full ? '1 : ~({NB{1'b1}} << rem_q[LNB-1:0]);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      act_q   <= 1'b0;
      fake_q  <= 1'b0;
      last_q  <= 1'b0;
      flush_q <= 1'b0;
      ov_q    <= 1'b0;
      rem_q   <= '0;
      acc_q   <= '0;
      od_q    <= '0;
      fill_q  <= '0;
      n_q     <= '0;
      km_q    <= '0;
      endb_q  <= 1'b0;
    end else begin
      if (ov_q && m_ready_i) ov_q <= 1'b0;
      if (flush_q && can_out) begin
        ov_q    <= 1'b1;
        od_q    <= acc_q;
        acc_q   <= '0;
        fill_q  <= '0;
        flush_q <= 1'b0;
      end
      if (take) begin : l_take
        logic [LNB:0]         n;
        logic [LNB+1:0]       tot;
        logic [DataWidth-1:0] d, comb;
        logic [2*DataWidth-1:0] wide;
        logic [LNB-1:0]       nfill;
        n    = n_q;
        d    = fake_q ? '0 : (rd_data_i & lane_mask(km_q));
        // one shift: the beat moved up by fill_q lanes, its low half joins acc_q, the high half
        // (the lanes past NB) is what stays for the next output beat
        wide = (2*DataWidth)'(d) << (8 * 32'(fill_q));
        comb = acc_q | wide[DataWidth-1:0];
        tot  = (LNB+2)'(fill_q) + (LNB+2)'(n);
        if (tot >= (LNB+2)'(NB)) begin
          ov_q   <= 1'b1;
          od_q   <= comb;
          acc_q  <= wide[2*DataWidth-1:DataWidth];
          nfill  = LNB'(tot - (LNB+2)'(NB));
        end else begin
          acc_q  <= comb;
          nfill  = LNB'(tot);
        end
        fill_q <= nfill;
        rem_q  <= rem_q - 32'(n);
        n_q    <= nx_n;
        km_q   <= nx_k;
        endb_q <= rem_q <= 32'(2 * NB);
        if (endb_q) begin  // rem_q == n: the chunk's last beat
          act_q <= 1'b0;
          if (last_q && nfill != '0) flush_q <= 1'b1;
        end
      end
      if (ch_pop_o) begin
        act_q  <= 1'b1;
        rem_q  <= ch_len_i;
        n_q    <= ld_n;
        km_q   <= ld_k;
        endb_q <= ch_len_i <= 32'(NB);
        fake_q <= ch_fake_i;
        last_q <= ch_last_i;
      end
    end
  end
endmodule
