// cqe_writer: turns the firmware's completion records into CQEs in host memory. The firmware
// decides each completion (which CQ, what status, overrun, arming) and stores a cq_rec into a
// ring in its tightly coupled window; this engine keeps each CQ's ring state (base, size,
// producer), adds the owner bit of the current pass, and DMA-writes the CQE at the producer
// slot. Port rules and the record/register layout: spec fw_tc and layout cq_rec; README.md.
module cqe_writer #(
  parameter int unsigned DataWidth = 512,
  parameter int unsigned TagWidth  = 8,
  parameter int unsigned NumCq     = 128
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
  // dma_engine write client
  output logic                   wr_req_valid_o,
  input  logic                   wr_req_ready_i,
  output logic [63:0]            wr_req_addr_o,
  output logic [31:0]            wr_req_len_o,
  output logic [TagWidth-1:0]    wr_req_tag_o,
  output logic                   wr_data_valid_o,
  input  logic                   wr_data_ready_i,
  output logic [DataWidth-1:0]   wr_data_o,
  input  logic                   wr_cpl_valid_i,
  output logic                   wr_cpl_ready_o,
  input  logic [1:0]             wr_cpl_status_i
);
  localparam int unsigned RecNum   = rnic_spec_pkg::FW_TC_CQ_REC_NUM;
  localparam int unsigned RecAw    = $clog2(RecNum);
  localparam int unsigned RecBytes = rnic_spec_pkg::CQ_REC_BYTES;   // = CQE_BYTES
  localparam int unsigned RecWords = RecBytes / 4;
  localparam int unsigned Bpb      = DataWidth / 8;
  localparam int unsigned Beats    = (RecBytes + Bpb - 1) / Bpb;
  localparam int unsigned BeatW    = (Beats > 1) ? $clog2(Beats) : 1;
  localparam int unsigned CqAw     = $clog2(NumCq);
  // per-CQ state: ring base (bits 63:5, a CQE is 32 bytes), log2 size, producer mod 2^17
  localparam int unsigned CqStW    = 59 + 5 + 17;
  localparam int unsigned CntW     = 16;                  // record counters (>> RecNum)
  localparam int unsigned CqnLsb   = rnic_spec_pkg::CQ_REC_CQN_LSB;

  // ---- the record ring: RecWords lanes of 32-bit words, written by the firmware, read as rows
  logic [RecAw-1:0]      rd_slot;
  logic                  rd_en;
  logic [RecBytes*8-1:0] rec_q;
  logic                  rec_wr;
  logic [2:0]            rec_lane;
  logic [11:0]           rec_off;
  assign rec_off  = tc_addr_i - rnic_spec_pkg::FW_TC_CQ_REC_BASE;
  assign rec_wr   = tc_req_i && tc_we_i && rec_off < 12'(RecNum * RecBytes);
  assign rec_lane = rec_off[4:2];
  for (genvar l = 0; l < RecWords; l++) begin : g_lane
    logic [31:0] mem [RecNum];
    always_ff @(posedge clk_i) begin
      if (rec_wr && rec_lane == 3'(l)) mem[rec_off[RecAw+4:5]] <= tc_wdata_i;
      if (rd_en) rec_q[32*l +: 32] <= mem[rd_slot];
    end
  end

  // ---- registers on the tightly coupled port
  logic [CntW-1:0] prod_q, take_q, cons_q;   // written / taken into the engine / completed
  logic [15:0]     err_q;
  // error FIFO: the CQ of every write answered with an error, oldest first, until the firmware
  // pops it (a single "latest CQ" register lost one of two CQs failing close together)
  logic [CqAw-1:0] ef_mem [RecNum];
  logic [RecAw-1:0] ef_rd_q, ef_wr_q;
  logic [RecAw:0]  ef_cnt_q;
  logic            ef_push, ef_pop;
  // CQN of each record between take and cons (writes complete in order, slot = count mod RecNum)
  logic [CqAw-1:0] infl_cqn [RecNum];
  logic [31:0]     base_lo_q, base_hi_q;
  logic            cfg_pend_q;
  logic [CqAw-1:0] cfg_cqn_q;
  logic [4:0]      cfg_log_q;
  logic [31:0]     tc_rdata_q;
  logic            idle;
  assign tc_rdata_o = tc_rdata_q;

  always_ff @(posedge clk_i) begin
    if (tc_req_i && !tc_we_i) begin
      unique case (tc_addr_i)
        rnic_spec_pkg::FW_TC_CQW_PROD:   tc_rdata_q <= 32'(prod_q);
        rnic_spec_pkg::FW_TC_CQW_CONS:   tc_rdata_q <= 32'(cons_q);
        rnic_spec_pkg::FW_TC_CQW_STATUS: tc_rdata_q <= {15'd0, idle, err_q};
        rnic_spec_pkg::FW_TC_CQW_ERR_CQN: tc_rdata_q <= {ef_cnt_q != '0, 15'd0, 16'(ef_mem[ef_rd_q])};
        default:                         tc_rdata_q <= 32'd0;
      endcase
    end
  end

  // ---- per-CQ ring state (one write port: a pending configuration goes in while idle)
  logic [CqStW-1:0] cq_mem [NumCq];
  logic [CqStW-1:0] cq_q;             // state of the record's CQ, read with the record
  logic             cq_we;
  logic [CqAw-1:0]  cq_waddr;
  logic [CqStW-1:0] cq_wdata;
  always_ff @(posedge clk_i) begin
    if (cq_we) cq_mem[cq_waddr] <= cq_wdata;
  end

  typedef enum logic [2:0] {Idle, RdRec, RdCq, Req, Data} state_e;
  state_e          state_q;
  logic [BeatW-1:0] beat_q;
  logic [CqAw-1:0] cqn_q;
  logic [Beats*DataWidth-1:0] cqe_q;
  logic [63:0]     addr_q;
  logic [CqStW-1:0] nxt_q;           // the CQ's state after this CQE

  assign idle = state_q == Idle && take_q == prod_q && cons_q == take_q && !cfg_pend_q;
  assign rd_slot = take_q[RecAw-1:0];
  assign rd_en   = state_q == Idle && !cfg_pend_q && take_q != prod_q;

  // the CQ's state as read: base, log2 size, producer
  logic [58:0] st_base;
  logic [4:0]  st_log;
  logic [16:0] st_pi, st_mask;
  assign st_base = cq_q[CqStW-1 -: 59];
  assign st_log  = cq_q[21:17];
  assign st_pi   = cq_q[16:0];
  assign st_mask = 17'((17'd1 << st_log) - 17'd1);

  always_comb begin
    cq_we    = 1'b0;
    cq_waddr = cfg_cqn_q;
    cq_wdata = {base_hi_q, base_lo_q[31:5], cfg_log_q, 17'd0};
    if (state_q == Idle && cfg_pend_q) begin
      cq_we = 1'b1;
    end else if (state_q == Data && wr_data_ready_i && beat_q == BeatW'(Beats - 1)) begin
      cq_we    = 1'b1;
      cq_waddr = cqn_q;
      cq_wdata = nxt_q;
    end
  end

  // control (reset)
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q    <= Idle;
      prod_q     <= '0;
      take_q     <= '0;
      cons_q     <= '0;
      err_q      <= '0;
      ef_rd_q    <= '0;
      ef_wr_q    <= '0;
      ef_cnt_q   <= '0;
      cfg_pend_q <= 1'b0;
      beat_q     <= '0;
    end else begin
      if (tc_req_i && tc_we_i && tc_addr_i == rnic_spec_pkg::FW_TC_CQW_PROD) prod_q <= tc_wdata_i[CntW-1:0];
      if (tc_req_i && tc_we_i && tc_addr_i == rnic_spec_pkg::FW_TC_CQW_CQ_CFG) cfg_pend_q <= 1'b1;
      else if (state_q == Idle) cfg_pend_q <= 1'b0;   // cq_mem written this cycle
      if (wr_cpl_valid_i) begin
        cons_q <= cons_q + 1'b1;
        if (wr_cpl_status_i != 2'd0) err_q <= err_q + 1'b1;
      end
      if (ef_push) ef_wr_q <= ef_wr_q + 1'b1;
      if (ef_pop) ef_rd_q <= ef_rd_q + 1'b1;
      if (ef_push && !ef_pop) ef_cnt_q <= ef_cnt_q + 1'b1;
      else if (ef_pop && !ef_push) ef_cnt_q <= ef_cnt_q - 1'b1;
      unique case (state_q)
        Idle:  if (!cfg_pend_q && take_q != prod_q) state_q <= RdRec;
        RdRec: state_q <= RdCq;                        // rec_q holds the record
        RdCq: begin                                    // cq_q holds the CQ's state
          take_q  <= take_q + 1'b1;
          beat_q  <= '0;
          state_q <= Req;
        end
        Req: if (wr_req_ready_i) state_q <= Data;
        Data: if (wr_data_ready_i) begin
          if (beat_q == BeatW'(Beats - 1)) state_q <= Idle;
          else beat_q <= beat_q + 1'b1;
        end
        default: state_q <= Idle;
      endcase
    end
  end

  assign ef_push = wr_cpl_valid_i && wr_cpl_status_i != 2'd0 && ef_cnt_q != (RecAw+1)'(RecNum);
  assign ef_pop  = tc_req_i && tc_we_i && tc_addr_i == rnic_spec_pkg::FW_TC_CQW_ERR_POP && ef_cnt_q != '0;
  always_ff @(posedge clk_i) begin
    if (ef_push) ef_mem[ef_wr_q] <= infl_cqn[cons_q[RecAw-1:0]];
  end

  // data (no reset)
  always_ff @(posedge clk_i) begin
    if (tc_req_i && tc_we_i) begin
      if (tc_addr_i == rnic_spec_pkg::FW_TC_CQW_CQ_BASE_LO) base_lo_q <= tc_wdata_i;
      if (tc_addr_i == rnic_spec_pkg::FW_TC_CQW_CQ_BASE_HI) base_hi_q <= tc_wdata_i;
      if (tc_addr_i == rnic_spec_pkg::FW_TC_CQW_CQ_CFG) begin
        cfg_cqn_q <= tc_wdata_i[CqAw-1:0];
        cfg_log_q <= tc_wdata_i[20:16];
      end
    end
    if (state_q == RdRec) cqn_q <= rec_q[CqnLsb +: CqAw];
    if (state_q == RdCq) infl_cqn[take_q[RecAw-1:0]] <= cqn_q;
    if (state_q == RdCq) begin
      cqe_q <= '0;
      cqe_q[CqnLsb-1:0] <= rec_q[CqnLsb-1:0];
      // the first pass over the ring writes owner 1, the next 0, and so on
      cqe_q[rnic_spec_pkg::CQE_OWNER_LSB] <= ~|(st_pi & (17'd1 << st_log));
      addr_q <= {st_base, 5'd0} + {42'd0, st_pi & st_mask, 5'd0};
      nxt_q  <= {st_base, st_log, 17'(st_pi + 17'd1)};
    end
  end

  always_ff @(posedge clk_i) begin
    if (state_q == RdRec) cq_q <= cq_mem[rec_q[CqnLsb +: CqAw]];
  end

  assign wr_req_valid_o  = state_q == Req;
  assign wr_req_addr_o   = addr_q;
  assign wr_req_len_o    = 32'(RecBytes);
  assign wr_req_tag_o    = '0;
  assign wr_data_valid_o = state_q == Data;
  assign wr_data_o       = cqe_q[32'(beat_q) * DataWidth +: DataWidth];
  assign wr_cpl_ready_o  = 1'b1;

  logic unused;
  assign unused = ^{rec_off[1:0], rec_off[11:RecAw+5], base_lo_q[4:0], rec_q[RecBytes*8-1:CqnLsb+CqAw]};
endmodule
