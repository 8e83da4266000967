// dma_rd_realign: turns the in-order stream of address-aligned read beats of one request into
// a packed byte stream (first byte of the request in byte lane 0); the request's completion
// (tag + status) is queued when its last data beat is accepted, so it never overtakes the data.
// Status: the first non-OKAY response among the request's chunks (AXI resp code), else OKAY.
module dma_rd_realign #(
  parameter int DataWidth = 512,
  parameter int TagWidth  = 8,
  parameter int ClientW   = 1,
  localparam int Bpb      = DataWidth / 8,
  localparam int OffW     = $clog2(Bpb)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // request info, in issue order
  input  logic                 info_valid_i,
  output logic                 info_pop_o,
  input  logic [ClientW-1:0]   info_client_i,
  input  logic [TagWidth-1:0]  info_tag_i,
  input  logic [OffW-1:0]      info_off_i,
  input  logic [31:0]          info_len_i,
  // aligned beats, in issue order; status is non-zero only on a chunk's last beat
  input  logic                 beat_valid_i,
  output logic                 beat_pop_o,
  input  logic [DataWidth-1:0] beat_data_i,
  input  logic [1:0]           beat_status_i,
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
  typedef enum logic [1:0] {StIdle, StData, StZero} state_e;
  state_e st_q;

  logic [TagWidth-1:0]  tag_q;
  logic [OffW-1:0]      off_q;
  logic [31:0]          rem_q;   // bytes still to output
  logic [32-OffW:0]     nin_q;   // input beats still to pop
  logic                 hv_q;    // hold register loaded
  logic [DataWidth-1:0] hold_q;
  logic [1:0]           status_q;
  logic [ClientW-1:0]   client_q;

  // output register; the completion of a request travels with its last beat
  logic                 o_valid_q, o_last_q;
  logic [DataWidth-1:0] o_data_q;
  logic [Bpb-1:0]       o_keep_q;
  // the last beat's keep, set when the request is taken: every beat before the last carries Bpb
  // bytes, so the last one's count is the length's low bits (0 meaning a full beat). A register
  // keeps the per-lane compare off the emit path (o_keep_q is one select behind last_beat) and
  // makes the keep one word operation per beat in simulation (docs/sim-speed.md, step 20).
  logic [Bpb-1:0]       lk_q;
  logic [ClientW-1:0]   o_client_q;
  logic [TagWidth-1:0]  o_tag_q;
  logic [1:0]           o_status_q;

  // completion FIFO: an entry is pushed when the request's last beat is accepted (or, for a
  // zero-length request, once every earlier beat has left), so a completion never overtakes data
  localparam int CplW = ClientW + TagWidth + 2;
  logic cf_full, cf_empty, cf_push;
  logic [CplW-1:0] cf_wdata, cf_rdata;
  logic [2:0] unused_cf_cnt;

  logic o_hold_last;  // last beat waits for room in the completion FIFO
  assign o_hold_last = o_last_q && cf_full;
  assign out_valid_o = o_valid_q && !o_hold_last;

  // control decisions (narrow, evaluated every cycle)
  logic can_out, emit, pass, comb, load_hold, last_beat, zero_push;
  logic [OffW:0] cnt;
  logic [1:0]    status_d;
  assign can_out   = !o_valid_q || (out_ready_i && !o_hold_last);
  assign last_beat = (rem_q <= 32'(Bpb));
  assign cnt       = last_beat ? rem_q[OffW:0] : (OffW+1)'(Bpb);
  assign status_d  = (beat_pop_o && status_q == 2'b00) ? beat_status_i : status_q;
  assign zero_push = (st_q == StZero) && !o_valid_q && !cf_full;

  always_comb begin
    beat_pop_o = 1'b0;
    emit = 1'b0;
    pass = 1'b0;
    comb = 1'b0;
    load_hold = 1'b0;
    if (st_q == StData) begin
      if (off_q == '0) begin
        if (can_out && beat_valid_i) begin
          beat_pop_o = 1'b1;
          emit = 1'b1;
          pass = 1'b1;
        end
      end else if (!hv_q) begin
        if (beat_valid_i) begin
          beat_pop_o = 1'b1;
          load_hold = 1'b1;
        end
      end else if (can_out) begin
        if (nin_q != '0) begin
          if (beat_valid_i) begin
            beat_pop_o = 1'b1;
            emit = 1'b1;
            comb = 1'b1;
            load_hold = 1'b1;
          end
        end else begin
          emit = 1'b1;
        end
      end
    end
    // next request: when idle, or right behind the last beat / zero-length completion
    info_pop_o = info_valid_i && ((st_q == StIdle) || (emit && last_beat) || zero_push);
    cf_push  = zero_push || (o_valid_q && o_last_q && out_ready_i && !cf_full);
    cf_wdata = zero_push ? {client_q, tag_q, 2'b00} : {o_client_q, o_tag_q, o_status_q};
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q       <= StIdle;
      client_q   <= '0;
      tag_q      <= '0;
      off_q      <= '0;
      rem_q      <= '0;
      nin_q      <= '0;
      hv_q       <= 1'b0;
      status_q   <= 2'b00;
      o_valid_q  <= 1'b0;
      o_last_q   <= 1'b0;
      o_keep_q   <= '0;
      o_client_q <= '0;
      o_tag_q    <= '0;
      o_status_q <= 2'b00;
    end else begin
      if (beat_pop_o) begin
        nin_q    <= nin_q - 1'b1;
        status_q <= status_d;
      end
      if (load_hold) hv_q <= 1'b1;
      if (emit) begin
        o_valid_q  <= 1'b1;
        o_last_q   <= last_beat;
        o_client_q <= client_q;
        o_tag_q    <= tag_q;
        o_status_q <= status_d;
        o_keep_q   <= last_beat ? lk_q : '1;
        rem_q <= rem_q - 32'(cnt);
        if (last_beat) st_q <= StIdle;
      end else if (out_ready_i && !o_hold_last) begin
        o_valid_q <= 1'b0;
      end
      if (zero_push) st_q <= StIdle;
      if (info_pop_o) begin  // last: a new request overrides the updates above
        client_q <= info_client_i;
        tag_q    <= info_tag_i;
        off_q    <= info_off_i;
        rem_q    <= info_len_i;
        nin_q    <= (33-OffW)'((33'(info_len_i) + 33'(info_off_i) + 33'(Bpb - 1)) >> OffW);
        hv_q     <= 1'b0;
        status_q <= 2'b00;
        st_q     <= (info_len_i == '0) ? StZero : StData;
      end
    end
  end

  // wide datapath: only evaluated when something moves
  always_ff @(posedge clk_i) begin
    if (info_pop_o)
      lk_q <= (info_len_i[OffW-1:0] == '0) ? '1 : ~({Bpb{1'b1}} << info_len_i[OffW-1:0]);
    if (load_hold) hold_q <= beat_data_i;
    if (emit) begin
      if (pass) o_data_q <= beat_data_i;
      else if (comb) o_data_q <= (hold_q >> {off_q, 3'b000})
                               | (beat_data_i << (DataWidth - 8 * 32'(off_q)));
      else o_data_q <= hold_q >> {off_q, 3'b000};
    end
  end

  rnic_fifo #(.Width(CplW), .Depth(4)) u_cpl (
    .clk_i, .rst_ni,
    .push_i (cf_push),
    .data_i (cf_wdata),
    .full_o (cf_full),
    .pop_i  (cpl_ready_i),
    .data_o (cf_rdata),
    .empty_o(cf_empty),
    .count_o(unused_cf_cnt)
  );

  assign out_client_o = o_client_q;
  assign out_data_o   = o_data_q;
  assign out_keep_o   = o_keep_q;
  assign out_last_o   = o_last_q;
  assign cpl_valid_o  = !cf_empty;
  assign cpl_client_o = cf_rdata[CplW-1 -: ClientW];
  assign cpl_tag_o    = cf_rdata[2 +: TagWidth];
  assign cpl_status_o = cf_rdata[1:0];
endmodule
