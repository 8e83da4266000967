// dma_rd_engine: the read path behind the client arbiter.
//  - splitter: cuts each request into chunks that never cross a MaxReadReq-aligned boundary
//    (so never a 4 KiB boundary either, and never more than 256 beats), one AR per chunk;
//  - every chunk owns a slot of a ring of MaxRdOutstanding slots; the slot index is the AXI ID,
//    so all outstanding reads have distinct IDs and R beats may arrive interleaved/reordered;
//  - R beats are written into the slot's buffer area; the ring is drained strictly in issue
//    order, so data leaves in request order; a slot (ID) is reused only once fully drained;
//  - dma_rd_realign packs the aligned beats into the client byte stream plus a completion.
module dma_rd_engine #(
  parameter int DataWidth        = 512,
  parameter int IdWidth          = 4,
  parameter int TagWidth         = 8,
  parameter int ClientW          = 1,
  parameter int MaxReadReq       = 4096,
  parameter int MaxRdOutstanding = 16,
  localparam int Bpb             = DataWidth / 8,
  localparam int OffW            = $clog2(Bpb)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic [2:0]           cfg_max_read_req_i,  // 0:128 1:256 ... 5:4096 bytes
  // request (already arbitrated)
  input  logic                 req_valid_i,
  output logic                 req_ready_o,
  input  logic [63:0]          req_addr_i,
  input  logic [31:0]          req_len_i,
  input  logic [TagWidth-1:0]  req_tag_i,
  input  logic [ClientW-1:0]   req_client_i,
  // AXI AR
  output logic                 ar_valid_o,
  input  logic                 ar_ready_i,
  output logic [IdWidth-1:0]   ar_id_o,
  output logic [63:0]          ar_addr_o,
  output logic [7:0]           ar_len_o,
  // AXI R
  input  logic                 r_valid_i,
  output logic                 r_ready_o,
  input  logic [IdWidth-1:0]   r_id_i,
  input  logic [DataWidth-1:0] r_data_i,
  input  logic [1:0]           r_resp_i,
  // packed data out
  output logic                 out_valid_o,
  input  logic                 out_ready_i,
  output logic [ClientW-1:0]   out_client_o,
  output logic [DataWidth-1:0] out_data_o,
  output logic [Bpb-1:0]       out_keep_o,
  output logic                 out_last_o,
  // completion out
  output logic                 cpl_valid_o,
  input  logic                 cpl_ready_i,
  output logic [ClientW-1:0]   cpl_client_o,
  output logic [TagWidth-1:0]  cpl_tag_o,
  output logic [1:0]           cpl_status_o
);
  localparam int MaxBurst  = 256 * Bpb;
  localparam int SMax      = (MaxReadReq < MaxBurst) ? MaxReadReq : MaxBurst;
  localparam int SMaxLog   = $clog2(SMax);
  localparam int LogLo     = SMaxLog < 7 ? SMaxLog : 7;  // the smallest size cfg_log can name
  localparam int SlotBeats = SMax / Bpb;
  localparam int BeatW     = $clog2(SlotBeats);
  localparam int NSlots    = MaxRdOutstanding;
  localparam int SlotW     = $clog2(NSlots);
  localparam int InfoW     = ClientW + TagWidth + OffW + 32;
  localparam int BfDepth   = 4;

  // ---------------- request intake ----------------
  logic             sp_busy_q;
  logic [63:0]      sp_addr_q;
  logic [31:0]      sp_rem_q;
  logic [3:0]       sp_log_q;
  logic             info_full, info_empty, info_pop;
  logic [InfoW-1:0] info_rdata;
  logic [$clog2(2*NSlots+1)-1:0] unused_info_cnt;

  logic [3:0] cfg_log;
  always_comb begin
    cfg_log = 4'd7 + {1'b0, cfg_max_read_req_i};
    if (cfg_log > 4'(SMaxLog)) cfg_log = 4'(SMaxLog);
  end

  logic req_fire, ar_issue, sp_last;
  // a new request is taken when the splitter is idle or issuing its last chunk
  assign req_ready_o = (!sp_busy_q || (ar_issue && sp_last)) && !info_full;
  assign req_fire = req_valid_i && req_ready_o;

  rnic_fifo #(.Width(InfoW), .Depth(2 * NSlots)) u_info (
    .clk_i, .rst_ni,
    .push_i (req_fire),
    .data_i ({req_client_i, req_tag_i, req_addr_i[OffW-1:0], req_len_i}),
    .full_o (info_full),
    .pop_i  (info_pop),
    .data_o (info_rdata),
    .empty_o(info_empty),
    .count_o(unused_info_cnt)
  );

  // ---------------- splitter / AR ----------------
  // Ring occupancy from the two pointers and their wrap bits, not from a count: a count's
  // add/subtract sat after the drain decision (rd_fire), 9 LUT levels in the 100g core (issue 16);
  // the pointers only step under their enables.
  logic [SlotW-1:0] tail_q, head_q;
  logic             tail_w_q, head_w_q;  // toggled when the pointer wraps
  logic             ring_full, ring_nempty;
  assign ring_full   = tail_q == head_q && tail_w_q != head_w_q;
  assign ring_nempty = tail_q != head_q || tail_w_q != head_w_q;
  logic             ar_valid_q;
  logic [SlotW-1:0] ar_id_q;
  logic [63:0]      ar_addr_q;
  logic [7:0]       ar_len_q;

  // The room to the next MaxReadReq boundary and whether the rest fits in it are kept in
  // registers, computed when the request is taken (per page size in parallel, picked by the
  // setting) and after each chunk (the next one starts on a boundary), so the request handshake
  // does not wait for the page arithmetic.
  logic [13:0] sp_room_q, room_new;   // 1..SMax
  logic        sp_last_q;             // sp_rem_q <= sp_room_q: the next chunk is the last
  logic [12:0] chunk;
  logic [13:0] span;
  logic [8:0]  beats;
  always_comb begin
    chunk  = sp_last_q ? sp_rem_q[12:0] : sp_room_q[12:0];
    span   = 14'(sp_addr_q[OffW-1:0]) + 14'(chunk) + 14'(Bpb - 1);
    beats  = 9'(span >> OffW);
  end
  logic [12:0] req_poff;
  always_comb begin
    room_new = '0;
    req_poff = '0;
    for (int l = LogLo; l <= SMaxLog; l++) begin
      req_poff = req_addr_i[12:0] & 13'((1 << l) - 1);
      if (cfg_log == 4'(l)) room_new = 14'(1 << l) - 14'(req_poff);
    end
  end

  assign sp_last  = sp_last_q;
  assign ar_issue = sp_busy_q && !ring_full && (!ar_valid_q || ar_ready_i);

  // ---------------- slot state ----------------
  logic [BeatW:0] wcnt_q  [NSlots];  // beats received
  logic [BeatW:0] beats_q [NSlots];  // beats expected
  logic [1:0]     st_q    [NSlots];  // first error response of the chunk
  logic [BeatW:0] rbeat_q;           // next beat of the head slot to drain
  logic           rd_inflight_q;
  logic [1:0]     rmeta_q;
  logic [DataWidth-1:0] rdata_q;
  logic [DataWidth-1:0] buf_q [NSlots * SlotBeats];

  logic [SlotW-1:0] r_slot;
  logic unused_r_id;
  assign r_slot      = r_id_i[SlotW-1:0];
  assign unused_r_id = ^r_id_i;  // IDs above the slot range are never issued
  assign r_ready_o   = 1'b1;  // every outstanding burst has its buffer reserved

  logic bf_full, bf_empty, bf_pop;
  logic [$clog2(BfDepth+1)-1:0] bf_cnt;
  logic [DataWidth+1:0] bf_rdata;
  logic rd_fire, head_last;
  assign head_last = (rbeat_q + 1'b1) == beats_q[head_q];
  assign rd_fire = ring_nempty && (wcnt_q[head_q] > rbeat_q) &&
                   ((32'(bf_cnt) + 32'(rd_inflight_q)) < BfDepth);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sp_busy_q     <= 1'b0;
      sp_addr_q     <= '0;
      sp_rem_q      <= '0;
      sp_log_q      <= 4'd7;
      sp_room_q     <= '0;
      sp_last_q     <= 1'b0;
      tail_q        <= '0;
      head_q        <= '0;
      tail_w_q      <= 1'b0;
      head_w_q      <= 1'b0;
      ar_valid_q    <= 1'b0;
      ar_id_q       <= '0;
      ar_addr_q     <= '0;
      ar_len_q      <= '0;
      rbeat_q       <= '0;
      rd_inflight_q <= 1'b0;
      rmeta_q       <= '0;
    end else begin
      if (ar_issue) begin
        ar_valid_q <= 1'b1;
        ar_id_q    <= tail_q;
        ar_addr_q  <= {sp_addr_q[63:OffW], {OffW{1'b0}}};
        ar_len_q   <= 8'(beats - 9'd1);
        sp_addr_q  <= sp_addr_q + 64'(chunk);
        sp_rem_q   <= sp_rem_q - 32'(chunk);
        // not the last: this chunk filled the page, the next starts on a boundary
        sp_room_q  <= 14'd1 << sp_log_q;
        sp_last_q  <= 33'(sp_rem_q) <= 33'(sp_room_q) + (33'd1 << sp_log_q);
        if (sp_last) sp_busy_q <= 1'b0;
        tail_q     <= tail_q + 1'b1;
        if (&tail_q) tail_w_q <= !tail_w_q;
      end else if (ar_ready_i) begin
        ar_valid_q <= 1'b0;
      end
      // after the AR block: a request taken while the last chunk issues overrides it
      if (req_fire && req_len_i != '0) begin
        sp_busy_q <= 1'b1;
        sp_addr_q <= req_addr_i;
        sp_rem_q  <= req_len_i;
        sp_log_q  <= cfg_log;
        sp_room_q <= room_new;
        sp_last_q <= 33'(req_len_i) <= 33'(room_new);
      end
      // drain, strictly in slot order
      rd_inflight_q <= rd_fire;
      if (rd_fire) begin
        rmeta_q <= head_last ? st_q[head_q] : 2'b00;
        if (head_last) begin
          rbeat_q <= '0;
          head_q  <= head_q + 1'b1;
          if (&head_q) head_w_q <= !head_w_q;
        end else begin
          rbeat_q <= rbeat_q + 1'b1;
        end
      end
    end
  end

  // slot bookkeeping (no reset needed: a slot is initialised when allocated)
  always_ff @(posedge clk_i) begin
    if (r_valid_i) begin
      wcnt_q[r_slot] <= wcnt_q[r_slot] + 1'b1;
      if (r_resp_i[1] && st_q[r_slot] == 2'b00) st_q[r_slot] <= r_resp_i;
    end
    if (ar_issue) begin
      wcnt_q[tail_q]  <= '0;
      beats_q[tail_q] <= (BeatW+1)'(beats);
      st_q[tail_q]    <= 2'b00;
    end
  end

  // reorder buffer: one area of SlotBeats beats per slot
  always_ff @(posedge clk_i) begin
    if (r_valid_i) buf_q[{r_slot, wcnt_q[r_slot][BeatW-1:0]}] <= r_data_i;
  end
  always_ff @(posedge clk_i) begin
    if (rd_fire) rdata_q <= buf_q[{head_q, rbeat_q[BeatW-1:0]}];
  end

  rnic_fifo #(.Width(DataWidth + 2), .Depth(BfDepth)) u_beats (
    .clk_i, .rst_ni,
    .push_i (rd_inflight_q),
    .data_i ({rmeta_q, rdata_q}),
    .full_o (bf_full),
    .pop_i  (bf_pop),
    .data_o (bf_rdata),
    .empty_o(bf_empty),
    .count_o(bf_cnt)
  );
  logic unused_bf_full;
  assign unused_bf_full = bf_full;  // cannot fill: reads are issued against free space

  assign ar_valid_o = ar_valid_q;
  assign ar_id_o    = IdWidth'(ar_id_q);
  assign ar_addr_o  = ar_addr_q;
  assign ar_len_o   = ar_len_q;

  // ---------------- realign + completion ----------------
  dma_rd_realign #(.DataWidth(DataWidth), .TagWidth(TagWidth), .ClientW(ClientW)) u_realign (
    .clk_i, .rst_ni,
    .info_valid_i (!info_empty),
    .info_pop_o   (info_pop),
    .info_client_i(info_rdata[InfoW-1 -: ClientW]),
    .info_tag_i   (info_rdata[32+OffW +: TagWidth]),
    .info_off_i   (info_rdata[32 +: OffW]),
    .info_len_i   (info_rdata[31:0]),
    .beat_valid_i (!bf_empty),
    .beat_pop_o   (bf_pop),
    .beat_data_i  (bf_rdata[DataWidth-1:0]),
    .beat_status_i(bf_rdata[DataWidth +: 2]),
    .out_valid_o, .out_ready_i, .out_client_o, .out_data_o, .out_keep_o, .out_last_o,
    .cpl_valid_o, .cpl_ready_i, .cpl_client_o, .cpl_tag_o, .cpl_status_o
  );
endmodule
