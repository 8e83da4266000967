// Firmware DMA: the soft core moves command entries, contexts and completions between host
// memory and a staging buffer it can read and write word by word on its MMIO port. The buffer
// is one single-port RAM of DataWidth-wide rows: the DMA owns it while a transfer runs, the
// firmware otherwise (its buffer accesses wait for the transfer to finish).
module rnic_fw_dma #(
  parameter int unsigned DataWidth = 512,
  parameter int unsigned TagWidth = 8
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  // MMIO slave: registers at fw_mmio base + 0x100.., buffer at FW_DMA_BUF_BASE
  input  logic                    mmio_req_i,
  input  logic                    mmio_we_i,
  input  logic [31:0]             mmio_addr_i,
  input  logic [31:0]             mmio_wdata_i,
  input  logic [3:0]              mmio_be_i,
  output logic                    mmio_gnt_o,
  output logic                    mmio_rvalid_o,
  output logic [31:0]             mmio_rdata_o,
  // dma_engine read client
  output logic                    rd_req_valid_o,
  input  logic                    rd_req_ready_i,
  output logic [63:0]             rd_req_addr_o,
  output logic [31:0]             rd_req_len_o,
  output logic [TagWidth-1:0]     rd_req_tag_o,
  input  logic                    rd_data_valid_i,
  output logic                    rd_data_ready_o,
  input  logic [DataWidth-1:0]    rd_data_i,
  input  logic [DataWidth/8-1:0]  rd_data_keep_i,
  input  logic                    rd_data_last_i,
  input  logic                    rd_cpl_valid_i,
  output logic                    rd_cpl_ready_o,
  input  logic [1:0]              rd_cpl_status_i,
  // dma_engine write client
  output logic                    wr_req_valid_o,
  input  logic                    wr_req_ready_i,
  output logic [63:0]             wr_req_addr_o,
  output logic [31:0]             wr_req_len_o,
  output logic [TagWidth-1:0]     wr_req_tag_o,
  output logic                    wr_data_valid_o,
  input  logic                    wr_data_ready_i,
  output logic [DataWidth-1:0]    wr_data_o,
  input  logic                    wr_cpl_valid_i,
  output logic                    wr_cpl_ready_o,
  input  logic [1:0]              wr_cpl_status_i
);
  localparam int unsigned Bpb = DataWidth / 8;
  localparam int unsigned BufBytes = rnic_spec_pkg::FW_DMA_BUF_SIZE;
  localparam int unsigned Rows = BufBytes / Bpb;
  localparam int unsigned RowW = $clog2(Rows);
  localparam int unsigned LaneW = $clog2(Bpb / 4);

  // ---- registers ---------------------------------------------------------------------------
  logic [31:0] host_lo_q, host_hi_q, buf_off_q, len_q;
  logic        dir_q, err_q;
  logic [1:0]  resp_q;

  typedef enum logic [2:0] {Idle, RdReq, RdData, RdCpl, WrReq, WrData, WrCpl} state_e;
  state_e state_q;
  logic busy;
  assign busy = state_q != Idle;

  logic is_buf, is_reg;
  assign is_buf = mmio_addr_i[12] == rnic_spec_pkg::FW_DMA_BUF_BASE[12];  // bit 12 alone: rnic_fw_subsys
  assign is_reg = !is_buf;
  assign mmio_gnt_o = mmio_req_i && !(is_buf && busy);

  rnic_spec_pkg::fw_dma_status_t dma_st;  // dma_status (spec layout fw_dma_status)
  always_comb begin
    dma_st = '0;
    dma_st.busy  = busy;
    dma_st.error = err_q;
    dma_st.resp  = resp_q;
  end
  logic start;
  assign start = mmio_req_i && mmio_gnt_o && mmio_we_i && is_reg &&
                 mmio_addr_i[11:0] == rnic_spec_pkg::FW_REG_DMA_CTRL &&
                 mmio_wdata_i[rnic_spec_pkg::FW_DMA_CTRL_START_LSB] && !busy;
  logic args_ok;
  assign args_ok = len_q != 0 && buf_off_q[$clog2(Bpb)-1:0] == '0 && buf_off_q < BufBytes &&
                   len_q <= BufBytes - buf_off_q;

  // ---- the buffer: one port, DMA side while busy ------------------------------------------
  logic [DataWidth-1:0] row_q;
  logic                 port_en, port_we;
  logic [RowW-1:0]      port_row;
  logic [DataWidth-1:0] port_wdata;
  logic [Bpb-1:0]       port_be;
  logic [RowW-1:0]      beat_q;        // rows moved so far in this transfer
  logic [RowW:0]        beats_total;
  assign beats_total = (RowW+1)'((len_q + Bpb - 1) / Bpb);

  logic [RowW-1:0] base_row;
  assign base_row = buf_off_q[RowW+$clog2(Bpb)-1:$clog2(Bpb)];

  // write side of the transfer: a row is read one cycle ahead into row_q, then offered
  logic wr_row_valid_q, wr_fetch;
  assign wr_fetch = state_q == WrData && !wr_row_valid_q;
  always_comb begin
    port_en = 1'b0;
    port_we = 1'b0;
    port_row = mmio_addr_i[RowW+$clog2(Bpb)-1:$clog2(Bpb)];
    port_wdata = {(DataWidth/32){mmio_wdata_i}};
    port_be = '0;
    if (state_q == RdData) begin
      port_en = rd_data_valid_i;
      port_we = 1'b1;
      port_row = base_row + beat_q;
      port_wdata = rd_data_i;
      port_be = rd_data_keep_i;
    end else if (state_q == WrData) begin
      port_en = wr_fetch;
      port_row = base_row + beat_q;
    end else if (!busy && mmio_req_i && is_buf) begin
      port_en = 1'b1;
      port_we = mmio_we_i;
      for (int l = 0; l < Bpb / 4; l++)
        if (mmio_addr_i[LaneW+1:2] == l[LaneW-1:0]) port_be[l*4 +: 4] = mmio_be_i;
    end
  end

  // The buffer as DataWidth/64 RAMs of 8-byte words, each with its byte enables: the same storage
  // and ports as one row-wide RAM, but Yosys's proc/opt passes see 8 masked writes of 64 bits per
  // process instead of 64 masked writes of the whole row (which dominated rnic_core's front end).
  // Each RAM is written as one whole word whose bytes without enable are the word's own (read at
  // the same address): one delayed write per RAM for Verilator (a byte write per lane is one
  // each, whose flags it clears and tests on every clock edge), and Yosys's opt_mem_feedback
  // turns the read-back muxes into the byte enables again (the same LUTRAM).
  localparam int unsigned Words = DataWidth / 64;
  for (genvar w = 0; w < Words; w++) begin : g_word
    logic [63:0] word_mem [Rows];
    always_ff @(posedge clk_i) begin
      if (port_en) begin
        if (port_we) begin
          logic [63:0] nw;
          nw = word_mem[port_row];
          for (int b = 0; b < 8; b++)
            if (port_be[w*8 + b]) nw[b*8 +: 8] = port_wdata[w*64 + b*8 +: 8];
          word_mem[port_row] <= nw;
        end
        row_q[w*64 +: 64] <= word_mem[port_row];
      end
    end
  end

  // ---- transfer state machine --------------------------------------------------------------
  logic rd_is_buf_q;
  logic [LaneW-1:0] lane_q;
  logic [31:0] reg_rdata_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      host_lo_q <= '0;
      host_hi_q <= '0;
      buf_off_q <= '0;
      len_q <= '0;
      dir_q <= 1'b0;
      err_q <= 1'b0;
      resp_q <= '0;
      state_q <= Idle;
      beat_q <= '0;
      wr_row_valid_q <= 1'b0;
      mmio_rvalid_o <= 1'b0;
      rd_is_buf_q <= 1'b0;
      lane_q <= '0;
      reg_rdata_q <= '0;
    end else begin
      mmio_rvalid_o <= mmio_req_i && mmio_gnt_o && !mmio_we_i;
      rd_is_buf_q <= is_buf;
      lane_q <= mmio_addr_i[LaneW+1:2];
      if (mmio_req_i && mmio_gnt_o && !mmio_we_i && is_reg) begin
        unique case (mmio_addr_i[11:0])
          rnic_spec_pkg::FW_REG_DMA_HOST_LO: reg_rdata_q <= host_lo_q;
          rnic_spec_pkg::FW_REG_DMA_HOST_HI: reg_rdata_q <= host_hi_q;
          rnic_spec_pkg::FW_REG_DMA_BUF_OFF: reg_rdata_q <= buf_off_q;
          rnic_spec_pkg::FW_REG_DMA_LEN: reg_rdata_q <= len_q;
          rnic_spec_pkg::FW_REG_DMA_STATUS: reg_rdata_q <= dma_st;
          default: reg_rdata_q <= '0;
        endcase
      end
      if (mmio_req_i && mmio_gnt_o && mmio_we_i && is_reg && !busy && mmio_be_i == 4'hF) begin
        unique case (mmio_addr_i[11:0])
          rnic_spec_pkg::FW_REG_DMA_HOST_LO: host_lo_q <= mmio_wdata_i;
          rnic_spec_pkg::FW_REG_DMA_HOST_HI: host_hi_q <= mmio_wdata_i;
          rnic_spec_pkg::FW_REG_DMA_BUF_OFF: buf_off_q <= mmio_wdata_i;
          rnic_spec_pkg::FW_REG_DMA_LEN: len_q <= mmio_wdata_i;
          default: ;
        endcase
      end
      unique case (state_q)
        Idle: if (start) begin
          beat_q <= '0;
          dir_q <= mmio_wdata_i[rnic_spec_pkg::FW_DMA_CTRL_TO_HOST_LSB];
          if (!args_ok) begin
            err_q <= 1'b1;
          end else begin
            err_q <= 1'b0;
            state_q <= mmio_wdata_i[1] ? WrReq : RdReq;
          end
        end
        RdReq: if (rd_req_ready_i) state_q <= RdData;
        RdData: if (rd_data_valid_i) begin
          beat_q <= beat_q + 1'b1;
          if (rd_data_last_i) state_q <= RdCpl;
        end
        RdCpl: if (rd_cpl_valid_i) begin
          resp_q <= rd_cpl_status_i;
          err_q <= rd_cpl_status_i != 2'b00;
          state_q <= Idle;
        end
        WrReq: if (wr_req_ready_i) state_q <= WrData;
        WrData: begin
          if (wr_fetch) wr_row_valid_q <= 1'b1;
          if (wr_row_valid_q && wr_data_ready_i) begin
            wr_row_valid_q <= 1'b0;
            beat_q <= beat_q + 1'b1;
            if ((RowW+1)'(beat_q) + 1'b1 == beats_total) state_q <= WrCpl;
          end
        end
        WrCpl: if (wr_cpl_valid_i) begin
          resp_q <= wr_cpl_status_i;
          err_q <= wr_cpl_status_i != 2'b00;
          state_q <= Idle;
        end
        default: state_q <= Idle;
      endcase
    end
  end

  always_comb begin
    mmio_rdata_o = reg_rdata_q;
    if (rd_is_buf_q) mmio_rdata_o = row_q[lane_q*32 +: 32];
  end

  assign rd_req_valid_o = state_q == RdReq;
  assign rd_req_addr_o = {host_hi_q, host_lo_q};
  assign rd_req_len_o = len_q;
  assign rd_req_tag_o = '0;
  assign rd_data_ready_o = state_q == RdData;
  assign rd_cpl_ready_o = state_q == RdCpl;
  assign wr_req_valid_o = state_q == WrReq;
  assign wr_req_addr_o = {host_hi_q, host_lo_q};
  assign wr_req_len_o = len_q;
  assign wr_req_tag_o = '0;
  // row_q holds the fetched row while it is offered
  assign wr_data_valid_o = state_q == WrData && wr_row_valid_q;
  assign wr_data_o = row_q;
  assign wr_cpl_ready_o = state_q == WrCpl;

  logic unused_fw_dma;
  assign unused_fw_dma = ^{dir_q, mmio_addr_i[31:13]};
endmodule
