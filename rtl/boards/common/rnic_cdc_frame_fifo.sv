// Frame FIFO between two clock domains (AXI-Stream), store and forward: the reader sees a frame
// only once its last beat is in, so the reader never waits in the middle of a frame. Both uses
// on a board need that: the CMAC's TX port must not see a gap inside a frame (it would underflow
// at 322 MHz while the core fills at 250 MHz), and its RX port cannot be held (no tready), so a
// frame the FIFO cannot take whole, or that the MAC marks bad (s_tuser_i on any beat: FCS error),
// is dropped whole by rolling the write pointer back to the last committed frame.
//
// Backpressure = 1: s_tready_o falls while the FIFO is full (core TX side); 0: s_tready_o stays
// high and a beat that finds the FIFO full drops its frame (MAC RX side). A frame longer than
// the FIFO is dropped either way. drop_o pulses (write clock) once per dropped frame.
//
// Crossing: the read pointer goes to the writer Gray-coded (it steps by one); the commit pointer
// jumps by whole frames, so it crosses as a value held stable under a toggle handshake (the
// reader takes it two edges after it sees the toggle; frames committed meanwhile are taken at
// the next round). Both sides must be reset together (rst_w_ni and rst_r_ni from one source).
module rnic_cdc_frame_fifo #(
  parameter int unsigned DataWidth    = 512,
  parameter int unsigned AddrWidth    = 8,   // depth 2**AddrWidth beats
  parameter int unsigned Backpressure = 1
) (
  input  logic                   clk_w_i,
  input  logic                   rst_w_ni,
  input  logic [DataWidth-1:0]   s_tdata_i,
  input  logic [DataWidth/8-1:0] s_tkeep_i,
  input  logic                   s_tlast_i,
  input  logic                   s_tuser_i,
  input  logic                   s_tvalid_i,
  output logic                   s_tready_o,
  output logic                   drop_o,

  input  logic                   clk_r_i,
  input  logic                   rst_r_ni,
  output logic [DataWidth-1:0]   m_tdata_o,
  output logic [DataWidth/8-1:0] m_tkeep_o,
  output logic                   m_tlast_o,
  output logic                   m_tvalid_o,
  input  logic                   m_tready_i
);
  localparam int unsigned KeepWidth = DataWidth / 8;
  localparam int unsigned EntryWidth = DataWidth + KeepWidth + 1;
  localparam int unsigned Depth = 1 << AddrWidth;
  typedef logic [AddrWidth:0] ptr_t;

  function automatic ptr_t bin2gray(input ptr_t b);
    bin2gray = b ^ (b >> 1);
  endfunction
  function automatic ptr_t gray2bin(input ptr_t g);
    gray2bin = g;
    for (int i = AddrWidth - 1; i >= 0; i--) gray2bin[i] = gray2bin[i + 1] ^ g[i];
  endfunction

  logic [EntryWidth-1:0] mem [Depth];

  // ---- write side --------------------------------------------------------------------------
  ptr_t wr_q, commit_q, rd_w;
  logic dropping_q, frame_bad_q;
  ptr_t rd_gray_w;
  logic [AddrWidth:0] rd_gray_r_q;  // read pointer, Gray-coded, in the reader's domain
  rnic_cdc_sync #(.Width(AddrWidth + 1)) u_rd_sync (
    .clk_i(clk_w_i), .rst_ni(rst_w_ni), .d_i(rd_gray_r_q), .q_o(rd_gray_w)
  );
  // registered after the Gray decode (an XOR chain as long as the pointer): the writer sees the
  // reader one cycle later, which only makes the FIFO look fuller
  always_ff @(posedge clk_w_i or negedge rst_w_ni) begin
    if (!rst_w_ni) rd_w <= '0;
    else rd_w <= gray2bin(rd_gray_w);
  end

  logic full, oversize, accept, write;
  assign full = (wr_q - rd_w) == (AddrWidth + 1)'(Depth);
  assign oversize = (wr_q - commit_q) == (AddrWidth + 1)'(Depth);
  assign s_tready_o = (Backpressure != 0) ? (!full || oversize || dropping_q) : 1'b1;
  assign accept = s_tvalid_i && s_tready_o;
  assign write = accept && !dropping_q && !full;

  always_ff @(posedge clk_w_i) begin
    if (write) mem[wr_q[AddrWidth-1:0]] <= {s_tlast_i, s_tkeep_i, s_tdata_i};
  end

  always_ff @(posedge clk_w_i or negedge rst_w_ni) begin
    if (!rst_w_ni) begin
      wr_q <= '0;
      commit_q <= '0;
      dropping_q <= 1'b0;
      frame_bad_q <= 1'b0;
      drop_o <= 1'b0;
    end else begin
      drop_o <= 1'b0;
      if (accept) begin
        if (dropping_q) begin
          if (s_tlast_i) dropping_q <= 1'b0;
        end else if (full) begin
          // no room (or the frame alone fills the FIFO): forget what it wrote, skip the rest
          wr_q <= commit_q;
          frame_bad_q <= 1'b0;
          dropping_q <= !s_tlast_i;
          drop_o <= 1'b1;
        end else if (s_tlast_i) begin
          if (frame_bad_q || s_tuser_i) begin
            wr_q <= commit_q;
            drop_o <= 1'b1;
          end else begin
            wr_q <= wr_q + 1'b1;
            commit_q <= wr_q + 1'b1;
          end
          frame_bad_q <= 1'b0;
        end else begin
          wr_q <= wr_q + 1'b1;
          frame_bad_q <= frame_bad_q || s_tuser_i;
        end
      end
    end
  end

  // commit pointer handshake: hs_req_q toggles when sent_q takes a new value; sent_q is then
  // stable until the reader's toggle comes back
  ptr_t sent_q;
  logic hs_req_q, hs_ack_w, hs_ack_r_q;
  rnic_cdc_sync #(.Width(1)) u_ack_sync (
    .clk_i(clk_w_i), .rst_ni(rst_w_ni), .d_i(hs_ack_r_q), .q_o(hs_ack_w)
  );
  always_ff @(posedge clk_w_i or negedge rst_w_ni) begin
    if (!rst_w_ni) begin
      sent_q <= '0;
      hs_req_q <= 1'b0;
    end else if (hs_req_q == hs_ack_w && sent_q != commit_q) begin
      sent_q <= commit_q;
      hs_req_q <= !hs_req_q;
    end
  end

  // ---- read side ---------------------------------------------------------------------------
  logic hs_req_r;
  ptr_t commit_r_q, rd_q;
  rnic_cdc_sync #(.Width(1)) u_req_sync (
    .clk_i(clk_r_i), .rst_ni(rst_r_ni), .d_i(hs_req_q), .q_o(hs_req_r)
  );
  always_ff @(posedge clk_r_i or negedge rst_r_ni) begin
    if (!rst_r_ni) begin
      commit_r_q <= '0;
      hs_ack_r_q <= 1'b0;
    end else if (hs_req_r != hs_ack_r_q) begin
      commit_r_q <= sent_q;  // stable for at least two reader edges by now
      hs_ack_r_q <= hs_req_r;
    end
  end

  logic pop, out_valid_q;
  logic [EntryWidth-1:0] out_q;
  assign pop = rd_q != commit_r_q && (!out_valid_q || m_tready_i);
  always_ff @(posedge clk_r_i) begin
    if (pop) out_q <= mem[rd_q[AddrWidth-1:0]];
  end
  always_ff @(posedge clk_r_i or negedge rst_r_ni) begin
    if (!rst_r_ni) begin
      rd_q <= '0;
      rd_gray_r_q <= '0;
      out_valid_q <= 1'b0;
    end else begin
      if (pop) begin
        rd_q <= rd_q + 1'b1;
        rd_gray_r_q <= bin2gray(rd_q + 1'b1);
        out_valid_q <= 1'b1;
      end else if (m_tready_i) begin
        out_valid_q <= 1'b0;
      end
    end
  end
  assign {m_tlast_o, m_tkeep_o, m_tdata_o} = out_q;
  assign m_tvalid_o = out_valid_q;
endmodule
