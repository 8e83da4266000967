// mkey_table: on-chip memory-key (MPT) and translation (MTT) tables with NumPorts lookup ports.
// Each port owns a copy of both tables (one BRAM read port each); the firmware write port writes
// all copies. After reset the tables are cleared (one entry per cycle, max(NumKeys, NumMtt)
// cycles) before init_done_o rises and requests or writes are accepted.
// Ordering: a write is accepted only when no lookup sits between its MPT and MTT reads, and a
// pending write (wr_valid_i) holds off new lookups, so each lookup sees exactly the writes
// accepted before it. See rtl/mkey/README.md for the interfaces.
module mkey_table #(
  parameter int unsigned NumKeys  = 4096,
  parameter int unsigned NumMtt   = 65536,
  parameter int unsigned NumPorts = 1,
  parameter int unsigned TagW     = 8
) (
  input  logic                                   clk_i,
  input  logic                                   rst_ni,
  output logic                                   init_done_o,
  // firmware write port
  input  logic                                   wr_valid_i,
  output logic                                   wr_ready_o,
  input  logic [1:0]                             wr_op_i,     // 2'(rnic_spec_pkg::MKEY_WR_OP_WR_MPT)/WR_MTT/INV_MPT
  input  logic [31:0]                            wr_index_i,  // out of range: dropped
  input  logic [(rnic_spec_pkg::MPT_ENTRY_BYTES * 8)-1:0]             wr_data_i,   // mpt_entry_t, or mtt_entry_t in [63:0]
  // lookup ports, port p in bits [p*W +: W]
  input  logic [NumPorts-1:0]                    req_valid_i,
  output logic [NumPorts-1:0]                    req_ready_o,
  input  logic [NumPorts*32-1:0]                 req_key_i,
  input  logic [NumPorts*32-1:0]                 req_pdn_i,
  input  logic [NumPorts*64-1:0]                 req_va_i,
  input  logic [NumPorts*32-1:0]                 req_len_i,
  input  logic [NumPorts*4-1:0]                  req_access_i,
  input  logic [NumPorts-1:0]                    req_local_i,
  input  logic [NumPorts*TagW-1:0]               req_tag_i,
  output logic [NumPorts-1:0]                    rsp_valid_o,
  input  logic [NumPorts-1:0]                    rsp_ready_i,
  output logic [NumPorts*3-1:0] rsp_status_o,
  output logic [NumPorts*64-1:0]                 rsp_addr_o,
  output logic [NumPorts*32-1:0]                 rsp_page_left_o,
  output logic [NumPorts*TagW-1:0]               rsp_tag_o
);
  localparam int unsigned KeyIdxW = $clog2(NumKeys);
  localparam int unsigned MttIdxW = $clog2(NumMtt);
  localparam int unsigned ClrN    = NumKeys > NumMtt ? NumKeys : NumMtt;
  localparam int unsigned ClrW    = $clog2(ClrN) + 1;

  // ---- clear after reset ----------------------------------------------------------------------
  logic            init_done_q;
  logic [ClrW-1:0] clr_idx_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      init_done_q <= 1'b0;
      clr_idx_q   <= '0;
    end else if (!init_done_q) begin
      clr_idx_q <= clr_idx_q + 1'b1;
      if (clr_idx_q == ClrW'(ClrN - 1)) init_done_q <= 1'b1;
    end
  end
  assign init_done_o = init_done_q;

  // ---- firmware writes ------------------------------------------------------------------------
  logic [NumPorts-1:0] busy;
  logic wr_fire, wr_mpt_ok, wr_mtt_ok;
  assign wr_ready_o = init_done_q && busy == '0;
  assign wr_fire = wr_valid_i && wr_ready_o;
  assign wr_mpt_ok = (wr_op_i == 2'(rnic_spec_pkg::MKEY_WR_OP_WR_MPT) || wr_op_i == 2'(rnic_spec_pkg::MKEY_WR_OP_INV_MPT)) && wr_index_i < NumKeys;
  assign wr_mtt_ok = wr_op_i == 2'(rnic_spec_pkg::MKEY_WR_OP_WR_MTT) && wr_index_i < NumMtt;

  logic                       mpt_we, mtt_we;
  logic [KeyIdxW-1:0]         mpt_waddr;
  logic [MttIdxW-1:0]         mtt_waddr;
  logic [(rnic_spec_pkg::MPT_ENTRY_BYTES * 8)-1:0] mpt_wdata;
  logic [(rnic_spec_pkg::MTT_ENTRY_BYTES * 8)-1:0] mtt_wdata;
  always_comb begin
    if (!init_done_q) begin
      mpt_we    = {{(32 - ClrW){1'b0}}, clr_idx_q} < NumKeys;
      mtt_we    = {{(32 - ClrW){1'b0}}, clr_idx_q} < NumMtt;
      mpt_waddr = clr_idx_q[KeyIdxW-1:0];
      mtt_waddr = clr_idx_q[MttIdxW-1:0];
      mpt_wdata = '0;
      mtt_wdata = '0;
    end else begin
      mpt_we    = wr_fire && wr_mpt_ok;
      mtt_we    = wr_fire && wr_mtt_ok;
      mpt_waddr = wr_index_i[KeyIdxW-1:0];
      mtt_waddr = wr_index_i[MttIdxW-1:0];
      mpt_wdata = wr_op_i == 2'(rnic_spec_pkg::MKEY_WR_OP_INV_MPT) ? '0 : wr_data_i;
      mtt_wdata = wr_data_i[(rnic_spec_pkg::MTT_ENTRY_BYTES * 8)-1:0];
    end
  end

  // ---- lookup ports ---------------------------------------------------------------------------
  logic en;
  assign en = init_done_q && !wr_valid_i;

  for (genvar p = 0; p < NumPorts; p++) begin : g_port
    logic                       mpt_re, mtt_re;
    logic [KeyIdxW-1:0]         mpt_raddr;
    logic [MttIdxW-1:0]         mtt_raddr;
    logic [(rnic_spec_pkg::MPT_ENTRY_BYTES * 8)-1:0] mpt_rdata;
    logic [(rnic_spec_pkg::MTT_ENTRY_BYTES * 8)-1:0] mtt_rdata;

    mkey_ram #(.Depth(NumKeys), .Width((rnic_spec_pkg::MPT_ENTRY_BYTES * 8))) u_mpt (
      .clk_i   (clk_i),
      .we_i    (mpt_we),
      .waddr_i (mpt_waddr),
      .wdata_i (mpt_wdata),
      .re_i    (mpt_re),
      .raddr_i (mpt_raddr),
      .rdata_o (mpt_rdata)
    );
    mkey_ram #(.Depth(NumMtt), .Width((rnic_spec_pkg::MTT_ENTRY_BYTES * 8))) u_mtt (
      .clk_i   (clk_i),
      .we_i    (mtt_we),
      .waddr_i (mtt_waddr),
      .wdata_i (mtt_wdata),
      .re_i    (mtt_re),
      .raddr_i (mtt_raddr),
      .rdata_o (mtt_rdata)
    );
    mkey_check #(.NumKeys(NumKeys), .NumMtt(NumMtt), .TagW(TagW)) u_check (
      .clk_i           (clk_i),
      .rst_ni          (rst_ni),
      .en_i            (en),
      .busy_o          (busy[p]),
      .req_valid_i     (req_valid_i[p]),
      .req_ready_o     (req_ready_o[p]),
      .req_key_i       (req_key_i[p*32 +: 32]),
      .req_pdn_i       (req_pdn_i[p*32 +: 32]),
      .req_va_i        (req_va_i[p*64 +: 64]),
      .req_len_i       (req_len_i[p*32 +: 32]),
      .req_access_i    (req_access_i[p*4 +: 4]),
      .req_local_i     (req_local_i[p]),
      .req_tag_i       (req_tag_i[p*TagW +: TagW]),
      .mpt_re_o        (mpt_re),
      .mpt_raddr_o     (mpt_raddr),
      .mpt_rdata_i     (mpt_rdata),
      .mtt_re_o        (mtt_re),
      .mtt_raddr_o     (mtt_raddr),
      .mtt_rdata_i     (mtt_rdata),
      .rsp_valid_o     (rsp_valid_o[p]),
      .rsp_ready_i     (rsp_ready_i[p]),
      .rsp_status_o    (rsp_status_o[p*3 +: 3]),
      .rsp_addr_o      (rsp_addr_o[p*64 +: 64]),
      .rsp_page_left_o (rsp_page_left_o[p*32 +: 32]),
      .rsp_tag_o       (rsp_tag_o[p*TagW +: TagW])
    );
  end
endmodule
