// dma_engine: AXI4-master DMA with NumRdClients read clients and NumWrClients write clients.
// Client ports are flat vectors: client i uses bits [i*W +: W] of a W-bit field.
// See rtl/dma/README.md for the client protocol.
module dma_engine #(
  parameter int DataWidth        = 512,
  parameter int AddrWidth        = 64,
  parameter int IdWidth          = 4,
  parameter int TagWidth         = 8,
  parameter int NumRdClients     = 2,
  parameter int NumWrClients     = 2,
  parameter int MaxReadReq       = 4096,  // bytes, 128..4096, power of two (runtime cap)
  parameter int MaxPayload       = 512,   // bytes, 128..512, power of two (runtime cap)
  parameter int MaxRdOutstanding = 16,    // reads in flight (distinct IDs), power of two
  parameter int MaxWrOutstanding = 32,    // write requests awaiting B responses, power of two
  localparam int Bpb             = DataWidth / 8,
  localparam int NR              = NumRdClients,
  localparam int NW              = NumWrClients,
  localparam int RCW             = (NR > 1) ? $clog2(NR) : 1,
  localparam int WCW             = (NW > 1) ? $clog2(NW) : 1
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  // runtime limits, clamped to the parameters: 0:128 1:256 2:512 3:1024 4:2048 5:4096 bytes
  input  logic [2:0]              cfg_max_read_req_i,
  input  logic [2:0]              cfg_max_payload_i,

  // ---- read clients ----
  input  logic [NR-1:0]           rd_req_valid_i,
  output logic [NR-1:0]           rd_req_ready_o,
  input  logic [NR*64-1:0]        rd_req_addr_i,
  input  logic [NR*32-1:0]        rd_req_len_i,
  input  logic [NR*TagWidth-1:0]  rd_req_tag_i,
  output logic [NR-1:0]           rd_data_valid_o,
  input  logic [NR-1:0]           rd_data_ready_i,
  output logic [NR*DataWidth-1:0] rd_data_o,
  output logic [NR*Bpb-1:0]       rd_data_keep_o,
  output logic [NR-1:0]           rd_data_last_o,
  output logic [NR-1:0]           rd_cpl_valid_o,
  input  logic [NR-1:0]           rd_cpl_ready_i,
  output logic [NR*TagWidth-1:0]  rd_cpl_tag_o,
  output logic [NR*2-1:0]         rd_cpl_status_o,

  // ---- write clients ----
  input  logic [NW-1:0]           wr_req_valid_i,
  output logic [NW-1:0]           wr_req_ready_o,
  input  logic [NW*64-1:0]        wr_req_addr_i,
  input  logic [NW*32-1:0]        wr_req_len_i,
  input  logic [NW*TagWidth-1:0]  wr_req_tag_i,
  input  logic [NW-1:0]           wr_data_valid_i,
  output logic [NW-1:0]           wr_data_ready_o,
  input  logic [NW*DataWidth-1:0] wr_data_i,
  output logic [NW-1:0]           wr_cpl_valid_o,
  input  logic [NW-1:0]           wr_cpl_ready_i,
  output logic [NW*TagWidth-1:0]  wr_cpl_tag_o,
  output logic [NW*2-1:0]         wr_cpl_status_o,

  // ---- AXI4 master ----
  output logic [IdWidth-1:0]      m_axi_awid,
  output logic [AddrWidth-1:0]    m_axi_awaddr,
  output logic [7:0]              m_axi_awlen,
  output logic [2:0]              m_axi_awsize,
  output logic [1:0]              m_axi_awburst,
  output logic                    m_axi_awvalid,
  input  logic                    m_axi_awready,
  output logic [DataWidth-1:0]    m_axi_wdata,
  output logic [Bpb-1:0]          m_axi_wstrb,
  output logic                    m_axi_wlast,
  output logic                    m_axi_wvalid,
  input  logic                    m_axi_wready,
  input  logic [IdWidth-1:0]      m_axi_bid,
  input  logic [1:0]              m_axi_bresp,
  input  logic                    m_axi_bvalid,
  output logic                    m_axi_bready,
  output logic [IdWidth-1:0]      m_axi_arid,
  output logic [AddrWidth-1:0]    m_axi_araddr,
  output logic [7:0]              m_axi_arlen,
  output logic [2:0]              m_axi_arsize,
  output logic [1:0]              m_axi_arburst,
  output logic                    m_axi_arvalid,
  input  logic                    m_axi_arready,
  input  logic [IdWidth-1:0]      m_axi_rid,
  input  logic [DataWidth-1:0]    m_axi_rdata,
  input  logic [1:0]              m_axi_rresp,
  input  logic                    m_axi_rlast,
  input  logic                    m_axi_rvalid,
  output logic                    m_axi_rready
);
  localparam logic [2:0] Size = 3'($clog2(Bpb));

  // Every client request first lands in its own two-entry register (dma_req_skid, in
  // dma_req_ports): the clients' ready outputs are flops and the arbiters and engines see
  // registered requests only.

  // ================= read side =================
  logic           rarb_valid;
  logic [RCW-1:0] rarb_idx;
  logic           rd_req_ready;
  logic [63:0]    rq_addr;
  logic [31:0]    rq_len;
  logic [TagWidth-1:0] rq_tag;
  logic rq_nz_unused, rq_one_unused;  // the read engine works them out itself
  dma_req_ports #(.N(NR), .TagWidth(TagWidth), .IdxW(RCW), .OffW($clog2(Bpb))) u_rd_ports (
    .clk_i, .rst_ni,
    .req_valid_i(rd_req_valid_i), .req_ready_o(rd_req_ready_o),
    .req_addr_i (rd_req_addr_i),  .req_len_i  (rd_req_len_i), .req_tag_i(rd_req_tag_i),
    .valid_o    (rarb_valid), .eng_ready_i(rd_req_ready), .idx_o(rarb_idx),
    .addr_o     (rq_addr), .len_o(rq_len), .tag_o(rq_tag),
    .nz_o       (rq_nz_unused), .one_o(rq_one_unused)
  );

  logic                 rd_out_valid, rd_out_last, rd_cpl_valid;
  logic [RCW-1:0]       rd_out_client, rd_cpl_client;
  logic [DataWidth-1:0] rd_out_data;
  logic [Bpb-1:0]       rd_out_keep;
  logic [TagWidth-1:0]  rd_cpl_tag;
  logic [1:0]           rd_cpl_status;
  logic [AddrWidth-1:0] ar_addr;

  dma_rd_engine #(
    .DataWidth(DataWidth), .IdWidth(IdWidth), .TagWidth(TagWidth), .ClientW(RCW),
    .MaxReadReq(MaxReadReq), .MaxRdOutstanding(MaxRdOutstanding)
  ) u_rd (
    .clk_i, .rst_ni,
    .cfg_max_read_req_i,
    .req_valid_i (rarb_valid),
    .req_ready_o (rd_req_ready),
    .req_addr_i  (rq_addr),
    .req_len_i   (rq_len),
    .req_tag_i   (rq_tag),
    .req_client_i(rarb_idx),
    .ar_valid_o  (m_axi_arvalid),
    .ar_ready_i  (m_axi_arready),
    .ar_id_o     (m_axi_arid),
    .ar_addr_o   (ar_addr),
    .ar_len_o    (m_axi_arlen),
    .r_valid_i   (m_axi_rvalid),
    .r_ready_o   (m_axi_rready),
    .r_id_i      (m_axi_rid),
    .r_data_i    (m_axi_rdata),
    .r_resp_i    (m_axi_rresp),
    .out_valid_o (rd_out_valid),
    .out_ready_i (rd_data_ready_i[rd_out_client]),
    .out_client_o(rd_out_client),
    .out_data_o  (rd_out_data),
    .out_keep_o  (rd_out_keep),
    .out_last_o  (rd_out_last),
    .cpl_valid_o (rd_cpl_valid),
    .cpl_ready_i (rd_cpl_ready_i[rd_cpl_client]),
    .cpl_client_o(rd_cpl_client),
    .cpl_tag_o   (rd_cpl_tag),
    .cpl_status_o(rd_cpl_status)
  );
  assign m_axi_araddr  = ar_addr;
  assign m_axi_arsize  = Size;
  assign m_axi_arburst = 2'b01;  // INCR

  always_comb begin
    rd_data_valid_o = '0;
    rd_cpl_valid_o  = '0;
    rd_data_valid_o[rd_out_client] = rd_out_valid;
    rd_cpl_valid_o[rd_cpl_client]  = rd_cpl_valid;
  end
  for (genvar i = 0; i < NR; i++) begin : g_rd_out
    assign rd_data_o[i*DataWidth +: DataWidth]  = rd_out_data;
    assign rd_data_keep_o[i*Bpb +: Bpb]         = rd_out_keep;
    assign rd_data_last_o[i]                    = rd_out_last;
    assign rd_cpl_tag_o[i*TagWidth +: TagWidth] = rd_cpl_tag;
    assign rd_cpl_status_o[i*2 +: 2]            = rd_cpl_status;
  end

  // ================= write side =================
  logic           warb_valid;
  logic [WCW-1:0] warb_idx;
  logic           wr_req_ready;
  logic [63:0]    wq_addr;
  logic [31:0]    wq_len;
  logic [TagWidth-1:0] wq_tag;
  logic           wq_nz, wq_one;
  dma_req_ports #(.N(NW), .TagWidth(TagWidth), .IdxW(WCW), .OffW($clog2(Bpb))) u_wr_ports (
    .clk_i, .rst_ni,
    .req_valid_i(wr_req_valid_i), .req_ready_o(wr_req_ready_o),
    .req_addr_i (wr_req_addr_i),  .req_len_i  (wr_req_len_i), .req_tag_i(wr_req_tag_i),
    .valid_o    (warb_valid), .eng_ready_i(wr_req_ready), .idx_o(warb_idx),
    .addr_o     (wq_addr), .len_o(wq_len), .tag_o(wq_tag),
    .nz_o       (wq_nz), .one_o(wq_one)
  );

  logic [WCW-1:0]      wr_cur, wr_cpl_client;
  logic                wr_in_ready, wr_cpl_valid;
  logic [TagWidth-1:0] wr_cpl_tag;
  logic [1:0]          wr_cpl_status;
  logic [AddrWidth-1:0] aw_addr;

  dma_wr_engine #(
    .DataWidth(DataWidth), .TagWidth(TagWidth), .ClientW(WCW), .MaxPayload(MaxPayload),
    .MaxWrOutstanding(MaxWrOutstanding)
  ) u_wr (
    .clk_i, .rst_ni,
    .cfg_max_payload_i,
    .req_valid_i (warb_valid),
    .req_ready_o (wr_req_ready),
    .req_addr_i  (wq_addr),
    .req_len_i   (wq_len),
    .req_tag_i   (wq_tag),
    .req_client_i(warb_idx),
    .req_nz_i    (wq_nz),
    .req_one_i   (wq_one),
    .cur_client_o(wr_cur),
    .in_valid_i  (wr_data_valid_i[wr_cur]),
    .in_ready_o  (wr_in_ready),
    .in_data_i   (wr_data_i[wr_cur*DataWidth +: DataWidth]),
    .aw_valid_o  (m_axi_awvalid),
    .aw_ready_i  (m_axi_awready),
    .aw_addr_o   (aw_addr),
    .aw_len_o    (m_axi_awlen),
    .w_valid_o   (m_axi_wvalid),
    .w_ready_i   (m_axi_wready),
    .w_data_o    (m_axi_wdata),
    .w_strb_o    (m_axi_wstrb),
    .w_last_o    (m_axi_wlast),
    .b_valid_i   (m_axi_bvalid),
    .b_ready_o   (m_axi_bready),
    .b_resp_i    (m_axi_bresp),
    .cpl_valid_o (wr_cpl_valid),
    .cpl_ready_i (wr_cpl_ready_i[wr_cpl_client]),
    .cpl_client_o(wr_cpl_client),
    .cpl_tag_o   (wr_cpl_tag),
    .cpl_status_o(wr_cpl_status)
  );
  assign m_axi_awid    = '0;
  assign m_axi_awaddr  = aw_addr;
  assign m_axi_awsize  = Size;
  assign m_axi_awburst = 2'b01;  // INCR

  always_comb begin
    wr_data_ready_o = '0;
    wr_cpl_valid_o  = '0;
    wr_data_ready_o[wr_cur]       = wr_in_ready;
    wr_cpl_valid_o[wr_cpl_client] = wr_cpl_valid;
  end
  for (genvar i = 0; i < NW; i++) begin : g_wr_out
    assign wr_cpl_tag_o[i*TagWidth +: TagWidth] = wr_cpl_tag;
    assign wr_cpl_status_o[i*2 +: 2]            = wr_cpl_status;
  end

  // B IDs are always 0 (single write ID); RLAST is implied by the beat count of each slot.
  logic unused_axi;
  assign unused_axi = ^{m_axi_bid, m_axi_rlast};
endmodule
