// dma_wr_engine: the write path behind the client arbiter.
//  - takes one request at a time and pulls the client's packed data stream
//    (ceil(len/Bpb) beats, request byte 0 in lane 0);
//  - AW generator: bursts never cross a MaxPayload-aligned boundary (so never 4 KiB), at most
//    256 beats, AWADDR aligned to the bus width, all on AXI ID 0 (B responses come in order);
//  - W realigner: shifts the stream to the address, WSTRB set only on requested bytes, WLAST
//    on the last beat of every burst. W is never held back waiting for AW (AXI rule);
//  - B collector: counts the bursts of each request and reports tag + first error status.
module dma_wr_engine #(
  parameter int DataWidth  = 512,
  parameter int TagWidth   = 8,
  parameter int ClientW    = 1,
  parameter int MaxPayload = 512,
  parameter int MaxWrOutstanding = 32,  // requests awaiting their B responses, power of two
  localparam int Bpb       = DataWidth / 8,
  localparam int OffW      = $clog2(Bpb)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic [2:0]           cfg_max_payload_i,  // 0:128 1:256 2:512 bytes
  // request (already arbitrated)
  input  logic                 req_valid_i,
  output logic                 req_ready_o,
  input  logic [63:0]          req_addr_i,
  input  logic [31:0]          req_len_i,
  input  logic [TagWidth-1:0]  req_tag_i,
  input  logic [ClientW-1:0]   req_client_i,
  // worked out by the request port from its head register, before the pick: req_len_i != 0,
  // and the request ends inside its first bus word (req_len_i + req_addr_i's offset <= Bpb)
  input  logic                 req_nz_i,
  input  logic                 req_one_i,
  // data of the current request (muxed from client cur_client_o)
  output logic [ClientW-1:0]   cur_client_o,
  input  logic                 in_valid_i,
  output logic                 in_ready_o,
  input  logic [DataWidth-1:0] in_data_i,
  // AXI AW / W / B
  output logic                 aw_valid_o,
  input  logic                 aw_ready_i,
  output logic [63:0]          aw_addr_o,
  output logic [7:0]           aw_len_o,
  output logic                 w_valid_o,
  input  logic                 w_ready_i,
  output logic [DataWidth-1:0] w_data_o,
  output logic [Bpb-1:0]       w_strb_o,
  output logic                 w_last_o,
  input  logic                 b_valid_i,
  output logic                 b_ready_o,
  input  logic [1:0]           b_resp_i,
  // completion out
  output logic                 cpl_valid_o,
  input  logic                 cpl_ready_i,
  output logic [ClientW-1:0]   cpl_client_o,
  output logic [TagWidth-1:0]  cpl_tag_o,
  output logic [1:0]           cpl_status_o
);
  localparam int MaxBurst = 256 * Bpb;
  localparam int PMax     = (MaxPayload < MaxBurst) ? MaxPayload : MaxBurst;
  localparam int PMaxLog  = $clog2(PMax);
  localparam int LogLo    = PMaxLog < 7 ? PMaxLog : 7;  // the smallest page cfg_log can name
  localparam int CplW     = ClientW + TagWidth + 32;
  localparam int CplDepth = MaxWrOutstanding;
  localparam int WfDepth  = 4;
  localparam int BeatCW   = 33 - OffW;

  logic [3:0] cfg_log;
  always_comb begin
    cfg_log = 4'd7 + {1'b0, cfg_max_payload_i};
    if (cfg_log > 4'(PMaxLog)) cfg_log = 4'(PMaxLog);
  end

  // ---------------- request intake ----------------
  logic aw_busy_q, w_busy_q, cf_full, cf_empty, cf_pop;
  logic [CplW-1:0] cf_rdata;
  logic [$clog2(CplDepth+1)-1:0] unused_cf_cnt;
  logic [ClientW-1:0] client_q;
  logic [3:0] p_log_q;

  logic req_fire, aw_done, w_done;
  // a new request is taken when both generators are idle or finishing in this cycle
  assign req_ready_o = (!aw_busy_q || aw_done) && (!w_busy_q || w_done) && !cf_full;
  assign req_fire = req_valid_i && req_ready_o;

  // bursts of the request: the MaxPayload pages from the start's offset in its page to the last
  // byte (the offset and the length only, no 64-bit end address), and the room left in the first
  // page, computed for each page size in parallel and picked by the setting: no variable shift
  // behind the request mux
  logic [12:0] req_poff;
  logic [13:0] room_new;
  logic [32:0] req_span;
  logic [31:0] req_nb;
  always_comb begin
    req_nb = '0;
    room_new = '0;
    req_span = '0;
    req_poff = '0;
    for (int l = LogLo; l <= PMaxLog; l++) begin
      req_poff = req_addr_i[12:0] & 13'((1 << l) - 1);
      req_span = 33'(req_poff) + 33'(req_len_i) - 33'd1;
      if (cfg_log == 4'(l)) begin
        req_nb = 32'(req_span >> l) + 32'd1;
        room_new = 14'(1 << l) - 14'(req_poff);
      end
    end
    if (req_len_i == '0) req_nb = '0;
  end

  rnic_fifo #(.Width(CplW), .Depth(CplDepth)) u_cpl (
    .clk_i, .rst_ni,
    .push_i (req_fire),
    .data_i ({req_client_i, req_tag_i, req_nb}),
    .full_o (cf_full),
    .pop_i  (cf_pop),
    .data_o (cf_rdata),
    .empty_o(cf_empty),
    .count_o(unused_cf_cnt)
  );

  // ---------------- AW generator ----------------
  logic [63:0] aw_a_q;
  logic [31:0] aw_rem_q;
  logic        aw_valid_q;
  logic [63:0] aw_addr_q;
  logic [7:0]  aw_len_q;

  // The room left in the current MaxPayload page and whether the rest fits in it are kept in
  // registers, computed when the request is taken and after each burst (the next burst starts
  // page-aligned), so the request handshake does not wait for the page arithmetic.
  logic [13:0] aw_room_q;             // bytes to the next page boundary, 1..PMax (room_new: at intake)
  logic        aw_last_q;             // aw_rem_q <= aw_room_q: the next burst is the last
  logic [12:0] chunk;
  logic [13:0] span;
  logic [8:0]  beats;
  always_comb begin
    chunk  = aw_last_q ? aw_rem_q[12:0] : aw_room_q[12:0];
    span   = 14'(aw_a_q[OffW-1:0]) + 14'(chunk) + 14'(Bpb - 1);
    beats  = 9'(span >> OffW);
  end
  logic aw_issue;
  assign aw_issue = aw_busy_q && (!aw_valid_q || aw_ready_i);
  assign aw_done  = aw_issue && aw_last_q;

  // ---------------- W realigner ----------------
  logic [OffW-1:0]   w_off_q;
  logic [BeatCW-1:0] w_k_q, w_nin_q, w_nout_q;
  logic [OffW:0]     w_endoff_q;
  logic [12:0]       w_baddr_q;
  logic [DataWidth-1:0] prev_q;
  logic wf_full, wf_empty;
  logic [$clog2(WfDepth+1)-1:0] unused_wf_cnt;
  logic [DataWidth+Bpb:0] wf_rdata;
  logic need_in, w_push, w_is_last;
  logic [12:0] p_mask;
  logic        w_need_q, w_last_q;  // w_k_q < w_nin_q, w_k_q == w_nout_q - 1: kept registered
  assign p_mask    = (13'd1 << p_log_q) - 13'd1;
  assign need_in   = w_need_q;
  assign in_ready_o = w_busy_q && !wf_full && need_in;
  assign w_push    = w_busy_q && !wf_full && (!need_in || in_valid_i);
  assign w_is_last = w_last_q;
  assign w_done    = w_push && w_is_last;

  logic [DataWidth-1:0] w_d;
  logic [Bpb-1:0]       w_s;
  logic                 w_l;
  always_comb begin
    w_d = '0;
    w_s = '0;
    w_l = 1'b0;
    if (w_push) begin  // wide shift only when a beat is produced
      if (need_in) w_d = in_data_i << {w_off_q, 3'b000};
      if (w_k_q != '0 && w_off_q != '0)
        w_d = w_d | (prev_q >> (DataWidth - 8 * 32'(w_off_q)));
      for (int b = 0; b < Bpb; b++) begin
        w_s[b] = ((w_k_q != '0) || (b >= 32'(w_off_q))) &&
                 (!w_is_last || (b < 32'(w_endoff_q)));
      end
      w_l = w_is_last || ((w_baddr_q & p_mask) == (p_mask - 13'(Bpb - 1)));
    end
  end

  rnic_fifo #(.Width(DataWidth + Bpb + 1), .Depth(WfDepth)) u_w (
    .clk_i, .rst_ni,
    .push_i (w_push),
    .data_i ({w_l, w_s, w_d}),
    .full_o (wf_full),
    .pop_i  (w_valid_o && w_ready_i),
    .data_o (wf_rdata),
    .empty_o(wf_empty),
    .count_o(unused_wf_cnt)
  );
  assign w_valid_o = !wf_empty;
  assign w_data_o  = wf_rdata[DataWidth-1:0];
  assign w_strb_o  = wf_rdata[DataWidth +: Bpb];
  assign w_last_o  = wf_rdata[DataWidth+Bpb];

  always_ff @(posedge clk_i) begin
    if (in_ready_o && in_valid_i) prev_q <= in_data_i;
  end

  logic [OffW:0] req_off;
  logic [BeatCW-1:0] w_nin_d, w_nout_d;
  assign req_off = (OffW+1)'(req_addr_i[OffW-1:0]);
  assign w_nin_d  = BeatCW'((33'(req_len_i) + 33'(Bpb - 1)) >> OffW);
  assign w_nout_d = BeatCW'((33'(req_len_i) + 33'(req_off) + 33'(Bpb - 1)) >> OffW);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      aw_busy_q  <= 1'b0;
      w_busy_q   <= 1'b0;
      client_q   <= '0;
      p_log_q    <= 4'd7;
      aw_a_q     <= '0;
      aw_rem_q   <= '0;
      aw_room_q  <= '0;
      aw_last_q  <= 1'b0;
      aw_valid_q <= 1'b0;
      aw_addr_q  <= '0;
      aw_len_q   <= '0;
      w_off_q    <= '0;
      w_k_q      <= '0;
      w_nin_q    <= '0;
      w_nout_q   <= '0;
      w_endoff_q <= '0;
      w_baddr_q  <= '0;
      w_need_q   <= 1'b0;
      w_last_q   <= 1'b0;
    end else begin
      if (aw_issue) begin
        aw_valid_q <= 1'b1;
        aw_addr_q  <= {aw_a_q[63:OffW], {OffW{1'b0}}};
        aw_len_q   <= 8'(beats - 9'd1);
        aw_a_q     <= aw_a_q + 64'(chunk);
        aw_rem_q   <= aw_rem_q - 32'(chunk);
        // not the last: this burst filled the page, the next starts on a boundary
        aw_room_q  <= 14'd1 << p_log_q;
        aw_last_q  <= 33'(aw_rem_q) <= 33'(aw_room_q) + (33'd1 << p_log_q);
        if (aw_done) aw_busy_q <= 1'b0;
      end else if (aw_ready_i) begin
        aw_valid_q <= 1'b0;
      end
      if (w_push) begin
        w_k_q     <= w_k_q + 1'b1;
        w_baddr_q <= w_baddr_q + 13'(Bpb);
        w_need_q  <= 33'(w_k_q) + 33'd1 < 33'(w_nin_q);
        w_last_q  <= 33'(w_k_q) + 33'd2 == 33'(w_nout_q);
        if (w_is_last) w_busy_q <= 1'b0;
      end
      // last: a request taken while the previous one finishes overrides the updates above
      if (req_fire && req_nz_i) begin
        aw_busy_q  <= 1'b1;
        w_busy_q   <= 1'b1;
        client_q   <= req_client_i;
        p_log_q    <= cfg_log;
        aw_a_q     <= req_addr_i;
        aw_rem_q   <= req_len_i;
        aw_room_q  <= room_new;
        aw_last_q  <= 33'(req_len_i) <= 33'(room_new);
        w_off_q    <= req_addr_i[OffW-1:0];
        w_k_q      <= '0;
        w_nin_q    <= w_nin_d;
        w_nout_q   <= w_nout_d;
        w_endoff_q <= (OffW+1)'(((33'(req_len_i) + 33'(req_off) - 33'd1) & 33'(Bpb - 1)) + 33'd1);
        w_baddr_q  <= {req_addr_i[12:OffW], {OffW{1'b0}}};
        // (req_len_i != 0 here, so at least one input beat; one output beat when the request
        // ends inside the first bus word: req_one_i, from the request port's head register)
        w_need_q   <= 1'b1;
        w_last_q   <= req_one_i;
      end
    end
  end

  assign cur_client_o = client_q;
  assign aw_valid_o   = aw_valid_q;
  assign aw_addr_o    = aw_addr_q;
  assign aw_len_o     = aw_len_q;

  // ---------------- B collector ----------------
  logic [31:0] bcnt_q;
  logic [1:0]  bst_q;
  logic        head_done;
  assign head_done    = (bcnt_q == cf_rdata[31:0]);
  assign b_ready_o    = !cf_empty && !head_done;
  assign cpl_valid_o  = !cf_empty && head_done;
  assign cf_pop       = cpl_valid_o && cpl_ready_i;
  assign cpl_client_o = cf_rdata[CplW-1 -: ClientW];
  assign cpl_tag_o    = cf_rdata[32 +: TagWidth];
  assign cpl_status_o = bst_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      bcnt_q <= '0;
      bst_q  <= 2'b00;
    end else if (cf_pop) begin
      bcnt_q <= '0;
      bst_q  <= 2'b00;
    end else if (b_valid_i && b_ready_o) begin
      bcnt_q <= bcnt_q + 32'd1;
      if (b_resp_i[1] && bst_q == 2'b00) bst_q <= b_resp_i;
    end
  end
endmodule
