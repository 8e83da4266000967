// wqe_fetch: the WQE fetch engine. The firmware keeps each SQ's ring state and decides what to
// fetch; it stores a compact command (host address of the first WQEBB, count, buffer slot, tag)
// on its tightly coupled window, and this engine DMA-reads those WQEBBs in one burst into a
// buffer the firmware reads with one-cycle loads. Commands are served and completed in order,
// several in flight at once (the DMA read client keeps their order); the firmware polls one
// status word (done count, error count, tag of the latest failed fetch). Layouts and offsets:
// spec fw_tc (wqf_*), layouts wqf_cmd and wqf_status; README.md.
module wqe_fetch #(
  parameter int unsigned DataWidth = 512,
  parameter int unsigned TagWidth  = 8
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // tightly coupled slave (soft-core window fw_tc, byte offset): a store takes effect at its
  // request; a load's data is valid the next cycle, from a register
  input  logic                   tc_req_i,
  input  logic                   tc_we_i,
  input  logic [11:0]            tc_addr_i,
  input  logic [31:0]            tc_wdata_i,
  output logic [31:0]            tc_rdata_o,
  // dma_engine read client
  output logic                   rd_req_valid_o,
  input  logic                   rd_req_ready_i,
  output logic [63:0]            rd_req_addr_o,
  output logic [31:0]            rd_req_len_o,
  output logic [TagWidth-1:0]    rd_req_tag_o,
  input  logic                   rd_data_valid_i,
  output logic                   rd_data_ready_o,
  input  logic [DataWidth-1:0]   rd_data_i,
  input  logic                   rd_data_last_i,
  input  logic                   rd_cpl_valid_i,
  output logic                   rd_cpl_ready_o,
  input  logic [1:0]             rd_cpl_status_i
);
  localparam int unsigned BbBytes  = rnic_spec_pkg::WQEBB_BYTES;      // one WQEBB
  localparam int unsigned Bpb      = DataWidth / 8;
  localparam int unsigned Lanes    = DataWidth / 32;                    // 32-bit words per beat
  localparam int unsigned LaneAw   = $clog2(Lanes);
  localparam int unsigned BufBbs   = rnic_spec_pkg::FW_TC_WQF_BUF_BBS;
  localparam int unsigned SlotAw   = $clog2(BufBbs);
  localparam int unsigned BufBytes = BufBbs * BbBytes;
  localparam int unsigned SqRows   = BufBytes / Bpb;                    // beats the send region holds
  localparam int unsigned RqBbs    = rnic_spec_pkg::FW_TC_WQF_RQ_BUF_BBS;
  localparam int unsigned RqBytes  = RqBbs * BbBytes;
  localparam int unsigned RqRows   = RqBytes / Bpb;
  localparam int unsigned RqAw     = $clog2(RqBytes);                   // byte offset in the receive region
  // one RAM: the send region's rows, then the receive region's
  localparam int unsigned Rows     = SqRows + RqRows;
  localparam int unsigned RowAw    = $clog2(Rows);
  localparam int unsigned SqRowAw  = $clog2(SqRows);
  localparam int unsigned RqRowAw  = $clog2(RqRows);
  localparam int unsigned BbBeatAw = $clog2(BbBytes / Bpb);             // 0 at 512 bits
  localparam int unsigned BufAw    = $clog2(BufBytes);                  // byte offset in the buffer
  localparam logic [11:0] RqBase   = rnic_spec_pkg::FW_TC_WQF_RQ_BUF_BASE;
  localparam int unsigned CmdNum   = rnic_spec_pkg::FW_TC_WQF_CMD_NUM;
  localparam int unsigned CmdAw    = $clog2(CmdNum);
  localparam int unsigned BbsW     = $clog2(BufBbs + 1);
  localparam logic [11:0] BufBase  = rnic_spec_pkg::FW_TC_WQF_BUF_BASE;

  // ---- the command ring: one entry per command from its store until its DMA completion. Four
  // pointers walk it: wp (stored), ip (read requested), dp (data placed), cp (completed).
  logic [CmdAw:0]     wp_q, ip_q, dp_q, cp_q;
  logic [63:6]        cmd_addr [CmdNum];
  logic [BbsW-1:0]    cmd_bbs  [CmdNum];
  logic [SlotAw-1:0]  cmd_slot [CmdNum];
  logic               cmd_rq   [CmdNum];   // into the receive region
  logic [7:0]         cmd_tag  [CmdNum];
  logic [31:0]        addr_lo_q, addr_hi_q;
  logic [CmdAw:0]     queued;
  logic               push, full;
  assign queued = wp_q - cp_q;
  assign full = queued == (CmdAw + 1)'(CmdNum);
  assign push = tc_req_i && tc_we_i && tc_addr_i == rnic_spec_pkg::FW_TC_WQF_CMD;

  // The command's count, kept to 1..BufBbs (the spec's range) so every command reads at least one
  // WQEBB (a data beat to close it) and never more than the buffer holds.
  logic [7:0]      cmd_bbs_in;
  logic [BbsW-1:0] bbs_clamped;
  assign cmd_bbs_in = tc_wdata_i[rnic_spec_pkg::WQF_CMD_BBS_LSB +: 8];
  logic            cmd_rq_in;
  assign cmd_rq_in = tc_wdata_i[rnic_spec_pkg::WQF_CMD_RQ_LSB];
  // kept to the region's size as well: a longer command would wrap onto its own first WQEBBs
  assign bbs_clamped = cmd_bbs_in == 8'd0 ? BbsW'(1)
                     : cmd_rq_in && cmd_bbs_in > 8'(RqBbs) ? BbsW'(RqBbs)
                     : cmd_bbs_in > 8'(BufBbs) ? BbsW'(BufBbs) : cmd_bbs_in[BbsW-1:0];

  always_ff @(posedge clk_i) begin
    if (push && !full) begin
      cmd_addr[wp_q[CmdAw-1:0]] <= {addr_hi_q, addr_lo_q[31:6]};
      cmd_bbs[wp_q[CmdAw-1:0]]  <= bbs_clamped;
      cmd_slot[wp_q[CmdAw-1:0]] <= tc_wdata_i[rnic_spec_pkg::WQF_CMD_SLOT_LSB +: SlotAw];
      cmd_tag[wp_q[CmdAw-1:0]]  <= tc_wdata_i[rnic_spec_pkg::WQF_CMD_TAG_LSB +: 8];
      cmd_rq[wp_q[CmdAw-1:0]]   <= cmd_rq_in;
    end
  end

  // ---- read requests: one burst per command, in order
  logic [CmdAw-1:0] ip;
  assign ip = ip_q[CmdAw-1:0];
  assign rd_req_valid_o = ip_q != wp_q;
  assign rd_req_addr_o  = {cmd_addr[ip], 6'd0};
  assign rd_req_len_o   = {{(32 - BbsW - 6){1'b0}}, cmd_bbs[ip], 6'd0};
  assign rd_req_tag_o   = TagWidth'(ip);

  // ---- data: beats into the buffer rows of the command at dp (slot-relative, wrapping)
  // row of the beat inside the command's region (wrapping there), then in the RAM
  logic [SqRowAw-1:0] beat_q, wrel;
  logic [RowAw-1:0]   wrow;
  logic               beat;
  assign rd_data_ready_o = 1'b1;
  assign beat = rd_data_valid_i;
  assign wrel = (SqRowAw'(cmd_slot[dp_q[CmdAw-1:0]]) << BbBeatAw) + beat_q;
  assign wrow = cmd_rq[dp_q[CmdAw-1:0]] ? RowAw'(SqRows) + RowAw'(wrel[RqRowAw-1:0]) : RowAw'(wrel);

  logic [31:0]        lane_rd [Lanes];
  // the buffer is aligned to its size in the window (spec fw_tc.wqf_buf_base): the low address
  // bits are the offset in it, the high ones select it
  // (the receive region likewise, at its own base)
  logic [BufAw-1:0]   boff;
  logic [LaneAw-1:0]  rlane;
  logic [RowAw-1:0]   rrow;
  logic               in_buf, in_rq;
  assign boff  = tc_addr_i[BufAw-1:0];
  assign in_buf = tc_addr_i[11:BufAw] == BufBase[11:BufAw];
  assign in_rq = tc_addr_i[11:RqAw] == RqBase[11:RqAw];
  assign rlane = boff[LaneAw+1:2];
  assign rrow  = in_rq ? RowAw'(SqRows) + RowAw'(boff[RqAw-1:LaneAw+2]) : RowAw'(boff[BufAw-1:LaneAw+2]);
  for (genvar l = 0; l < Lanes; l++) begin : g_lane
    logic [31:0] mem [Rows];
    always_ff @(posedge clk_i) begin
      if (beat) mem[wrow] <= rd_data_i[32*l +: 32];
    end
    assign lane_rd[l] = mem[rrow];
  end

  // ---- completions: in order, one per command
  assign rd_cpl_ready_o = 1'b1;
  logic [7:0] done_q, errors_q, err_tag_q;
  logic       dropped_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wp_q      <= '0;
      ip_q      <= '0;
      dp_q      <= '0;
      cp_q      <= '0;
      beat_q    <= '0;
      addr_lo_q <= '0;
      addr_hi_q <= '0;
      done_q    <= '0;
      errors_q  <= '0;
      err_tag_q <= '0;
      dropped_q <= 1'b0;
    end else begin
      if (tc_req_i && tc_we_i && tc_addr_i == rnic_spec_pkg::FW_TC_WQF_ADDR_LO) addr_lo_q <= tc_wdata_i;
      if (tc_req_i && tc_we_i && tc_addr_i == rnic_spec_pkg::FW_TC_WQF_ADDR_HI) addr_hi_q <= tc_wdata_i;
      if (push) begin
        if (full) dropped_q <= 1'b1;
        else wp_q <= wp_q + 1'b1;
      end
      if (rd_req_valid_o && rd_req_ready_i) ip_q <= ip_q + 1'b1;
      if (beat) begin
        if (rd_data_last_i) begin
          beat_q <= '0;
          dp_q <= dp_q + 1'b1;
        end else begin
          beat_q <= beat_q + 1'b1;
        end
      end
      if (rd_cpl_valid_i) begin
        cp_q <= cp_q + 1'b1;
        done_q <= done_q + 8'd1;
        if (rd_cpl_status_i != 2'b00) begin
          errors_q <= errors_q + 8'd1;
          err_tag_q <= cmd_tag[cp_q[CmdAw-1:0]];
        end
      end
    end
  end

  // ---- loads: the buffer's words and the status, from a register the cycle after the request
  rnic_spec_pkg::wqf_status_t status;
  always_comb begin
    status = '0;
    status.done = done_q;
    status.errors = errors_q;
    status.err_tag = err_tag_q;
    status.queued = 4'(queued);
    status.dropped = dropped_q;
  end
  logic [31:0] tc_rdata_q;
  assign tc_rdata_o = tc_rdata_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tc_rdata_q <= '0;
    end else if (tc_req_i && !tc_we_i) begin
      if (in_buf || in_rq) tc_rdata_q <= lane_rd[rlane];
      else if (tc_addr_i == rnic_spec_pkg::FW_TC_WQF_STATUS) tc_rdata_q <= status;
      else tc_rdata_q <= '0;
    end
  end

  logic unused;
  assign unused = ^{addr_lo_q[5:0], cmd_bbs_in, boff[1:0], BufBase[BufAw-1:0], RqBase[RqAw-1:0]};
endmodule
