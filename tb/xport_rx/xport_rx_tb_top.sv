// Testbench top for xport_rx: the engine with its QP table (rtl/qp_table, wired as in rnic_core:
// the firmware and transmit-engine ports of the table are this top's), a real mkey_table (1 lookup port) and dma_engine
// (one write client; the read client is idle). The C++ testbench drives parsed headers and the
// payload stream directly (the roce_rx output format), or, with use_parser_i = 1, whole frames
// through a real roce_rx (f_t*); it plays host memory on the AXI port.
module xport_rx_tb_top #(
  parameter int DataWidth = 512,
  parameter int NumQps    = 32
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  input  logic                       use_parser_i,
  input  logic [DataWidth-1:0]       f_tdata_i,
  input  logic [DataWidth/8-1:0]     f_tkeep_i,
  input  logic                       f_tlast_i,
  input  logic                       f_tvalid_i,
  output logic                       f_tready_o,
  input  logic                       hdr_valid_i,
  output logic                       hdr_ready_o,
  input  roce_pkg::roce_hdr_t        hdr_i,
  input  logic [DataWidth-1:0]       s_tdata_i,
  input  logic                       s_tvalid_i,
  output logic                       s_tready_o,
  input  logic                       qpt_wr_valid_i,
  output logic                       qpt_wr_ready_o,
  input  logic [31:0]                qpt_wr_qpn_i,
  input  rnic_spec_pkg::qpt_entry_t  qpt_wr_entry_i,
  input  logic                       rqd_valid_i,
  output logic                       rqd_ready_o,
  input  rnic_spec_pkg::rq_desc_t    rqd_i,
  input  logic                       rdd_valid_i,
  output logic                       rdd_ready_o,
  input  rnic_spec_pkg::rd_desc_t    rdd_i,
  input  logic                       rdq_rd_i,
  input  logic [23:0]                rdq_qpn_i,
  input  logic [23:0]                rdq_psn_i,
  output logic                       rdq_hit_o,
  output logic [23:0]                rdq_nxt_o,
  output logic                       evt_valid_o,
  input  logic                       evt_ready_i,
  output rnic_spec_pkg::rx_event_t   evt_o,
  input  logic                       tx_rd_en_i,
  input  logic [23:0]                tx_rd_qpn_i,
  output rnic_spec_pkg::qpt_entry_t  tx_rd_entry_o,
  output logic                       qp_stop_o,      // the table's stop_o / stop_qpn_o
  output logic [23:0]                qp_stop_qpn_o,
  output logic                       ack_valid_o,
  input  logic                       ack_ready_i,
  output logic [23:0]                ack_qpn_o,
  output logic [23:0]                ack_psn_o,
  output logic [7:0]                 ack_syndrome_o,
  output logic [23:0]                ack_msn_o,
  output logic                       ack_hold_o,
  output logic                       rdrsp_valid_o,
  input  logic                       rdrsp_ready_i,
  output logic [23:0]                rdrsp_qpn_o,
  output logic [23:0]                rdrsp_psn_o,
  output logic [63:0]                rdrsp_va_o,
  output logic [31:0]                rdrsp_rkey_o,
  output logic [31:0]                rdrsp_len_o,
  output logic [23:0]                rdrsp_msn_o,
  output logic                       rdrsp_new_o,
  output logic [23:0]                rsc_qpn_o,
  input  logic [5:0]                 rsc_cnt_i,
  output logic [32*xport_rx_pkg::NumCnt-1:0] cnt_o,
  // memory-key table firmware port
  output logic                       mk_init_done_o,
  input  logic                       mk_wr_valid_i,
  output logic                       mk_wr_ready_o,
  input  logic [1:0]                 mk_wr_op_i,
  input  logic [31:0]                mk_wr_index_i,
  input  logic [255:0]               mk_wr_data_i,
  // AXI4 master (host memory)
  output logic [3:0]                 m_axi_awid,
  output logic [63:0]                m_axi_awaddr,
  output logic [7:0]                 m_axi_awlen,
  output logic [2:0]                 m_axi_awsize,
  output logic [1:0]                 m_axi_awburst,
  output logic                       m_axi_awvalid,
  input  logic                       m_axi_awready,
  output logic [DataWidth-1:0]       m_axi_wdata,
  output logic [DataWidth/8-1:0]     m_axi_wstrb,
  output logic                       m_axi_wlast,
  output logic                       m_axi_wvalid,
  input  logic                       m_axi_wready,
  input  logic [3:0]                 m_axi_bid,
  input  logic [1:0]                 m_axi_bresp,
  input  logic                       m_axi_bvalid,
  output logic                       m_axi_bready
);
  logic        mk_req_valid, mk_req_ready, mk_req_local, mk_rsp_valid, mk_rsp_ready;
  logic [31:0] mk_req_key, mk_req_pdn, mk_req_len, mk_rsp_page_left;
  logic [63:0] mk_req_va, mk_rsp_addr;
  logic [3:0]  mk_req_access;
  logic [7:0]  mk_req_tag, mk_rsp_tag;
  logic [2:0]  mk_rsp_status;
  logic        wr_req_valid, wr_req_ready, wr_data_valid, wr_data_ready, wr_cpl_valid, wr_cpl_ready;
  logic [63:0] wr_req_addr;
  logic [31:0] wr_req_len;
  logic [7:0]  wr_req_tag, wr_cpl_tag;
  logic [DataWidth-1:0] wr_data;
  logic [1:0]  wr_cpl_status;

  // optional real parser in front
  logic                 p_hdr_valid, p_hdr_ready, p_tvalid, p_tready, p_tlast_unused;
  roce_pkg::roce_hdr_t  p_hdr;
  logic [DataWidth-1:0] p_tdata;
  logic [DataWidth/8-1:0] p_tkeep_unused;
  logic [31:0]          p_good_unused;
  logic [32*roce_pkg::NumDrop-1:0] p_drop_unused;
  logic                 p_pause_unused;
  logic                 x_hdr_valid, x_hdr_ready, x_tvalid, x_tready;
  roce_pkg::roce_hdr_t  x_hdr;
  logic [DataWidth-1:0] x_tdata;

  roce_rx #(.DataWidth(DataWidth)) u_parser (
    .clk_i, .rst_ni,
    .s_tdata_i(f_tdata_i), .s_tkeep_i(f_tkeep_i), .s_tlast_i(f_tlast_i), .s_tvalid_i(f_tvalid_i),
    .s_tready_o(f_tready_o), .qpn_lo_i(24'd0), .qpn_hi_i(24'hFFFFFF), .drop_when_full_i(1'b0),
    .hdr_valid_o(p_hdr_valid), .hdr_ready_i(p_hdr_ready), .hdr_o(p_hdr),
    .m_tdata_o(p_tdata), .m_tkeep_o(p_tkeep_unused), .m_tlast_o(p_tlast_unused),
    .m_tvalid_o(p_tvalid), .m_tready_i(p_tready),
    .pause_req_o(p_pause_unused), .good_count_o(p_good_unused), .drop_count_o(p_drop_unused)
  );
  assign x_hdr_valid = use_parser_i ? p_hdr_valid : hdr_valid_i;
  assign x_hdr       = use_parser_i ? p_hdr : hdr_i;
  assign x_tvalid    = use_parser_i ? p_tvalid : s_tvalid_i;
  assign x_tdata     = use_parser_i ? p_tdata : s_tdata_i;
  assign p_hdr_ready = use_parser_i && x_hdr_ready;
  assign hdr_ready_o = !use_parser_i && x_hdr_ready;
  assign p_tready    = use_parser_i && x_tready;
  assign s_tready_o  = !use_parser_i && x_tready;

  logic qpt_hold, qpt_init_done, qpt_rx_rd_en, qpt_rx_hit, qpt_rx_rqv, qpt_st_we, qpt_rqv_clr;
  logic [23:0] qpt_rx_rd_qpn, qpt_st_qpn;
  rnic_spec_pkg::qpt_entry_t qpt_rx_entry;
  rnic_spec_pkg::rq_desc_t   qpt_rx_rqd;
  xport_rx_pkg::qp_state_t   qpt_rx_state, qpt_st;
  logic [33:0] qpt_rx_rqlen;
  qp_table #(.NumQps(NumQps)) u_qpt (
    .clk_i, .rst_ni, .hold_i(qpt_hold), .init_done_o(qpt_init_done),
    .qpt_wr_valid_i, .qpt_wr_ready_o, .qpt_wr_qpn_i, .qpt_wr_entry_i,
    .rqd_valid_i, .rqd_ready_o, .rqd_i,
    .tx_rd_en_i, .tx_rd_qpn_i, .tx_rd_entry_o,
    .rx_rd_en_i(qpt_rx_rd_en), .rx_rd_qpn_i(qpt_rx_rd_qpn), .rx_hit_o(qpt_rx_hit),
    .rx_entry_o(qpt_rx_entry), .rx_state_o(qpt_rx_state), .rx_rqd_o(qpt_rx_rqd), .rx_rqv_o(qpt_rx_rqv),
    .rx_rqlen_o(qpt_rx_rqlen), .st_we_i(qpt_st_we), .st_qpn_i(qpt_st_qpn), .st_i(qpt_st),
    .rqv_clr_i(qpt_rqv_clr), .stop_o(qp_stop_o), .stop_qpn_o(qp_stop_qpn_o)
  );

  xport_rx #(.DataWidth(DataWidth)) u_dut (
    .clk_i, .rst_ni,
    .hdr_valid_i(x_hdr_valid), .hdr_ready_o(x_hdr_ready), .hdr_i(x_hdr),
    .s_tdata_i(x_tdata), .s_tvalid_i(x_tvalid), .s_tready_o(x_tready),
    .qpt_wr_valid_i, .qpt_wr_ready_i(qpt_wr_ready_o), .qpt_wr_qpn_i, .rqd_valid_i,
    .qpt_hold_o(qpt_hold), .qpt_init_done_i(qpt_init_done), .qpt_rd_en_o(qpt_rx_rd_en),
    .qpt_rd_qpn_o(qpt_rx_rd_qpn), .qpt_hit_i(qpt_rx_hit), .qpt_entry_i(qpt_rx_entry),
    .qpt_state_i(qpt_rx_state), .qpt_rqd_i(qpt_rx_rqd), .qpt_rqv_i(qpt_rx_rqv), .qpt_rqlen_i(qpt_rx_rqlen),
    .qpt_st_we_o(qpt_st_we), .qpt_st_qpn_o(qpt_st_qpn), .qpt_st_o(qpt_st), .qpt_rqv_clr_o(qpt_rqv_clr),
    .rdd_valid_i, .rdd_ready_o, .rdd_i,
    .rdq_rd_i, .rdq_qpn_i, .rdq_psn_i, .rdq_hit_o, .rdq_nxt_o,
    .evt_valid_o, .evt_ready_i, .evt_o,
    .ack_valid_o, .ack_ready_i, .ack_qpn_o, .ack_psn_o, .ack_syndrome_o, .ack_msn_o, .ack_hold_o,
    .rdrsp_valid_o, .rdrsp_ready_i, .rdrsp_qpn_o, .rdrsp_psn_o, .rdrsp_va_o, .rdrsp_rkey_o,
    .rdrsp_len_o, .rdrsp_msn_o, .rdrsp_new_o, .rsc_qpn_o, .rsc_cnt_i,
    .mk_req_valid_o(mk_req_valid), .mk_req_ready_i(mk_req_ready), .mk_req_key_o(mk_req_key),
    .mk_req_pdn_o(mk_req_pdn), .mk_req_va_o(mk_req_va), .mk_req_len_o(mk_req_len),
    .mk_req_access_o(mk_req_access), .mk_req_local_o(mk_req_local), .mk_req_tag_o(mk_req_tag),
    .mk_rsp_valid_i(mk_rsp_valid), .mk_rsp_ready_o(mk_rsp_ready), .mk_rsp_status_i(mk_rsp_status),
    .mk_rsp_addr_i(mk_rsp_addr), .mk_rsp_page_left_i(mk_rsp_page_left), .mk_rsp_tag_i(mk_rsp_tag),
    .dma_wr_req_valid_o(wr_req_valid), .dma_wr_req_ready_i(wr_req_ready),
    .dma_wr_req_addr_o(wr_req_addr), .dma_wr_req_len_o(wr_req_len), .dma_wr_req_tag_o(wr_req_tag),
    .dma_wr_data_valid_o(wr_data_valid), .dma_wr_data_ready_i(wr_data_ready), .dma_wr_data_o(wr_data),
    .dma_wr_cpl_valid_i(wr_cpl_valid), .dma_wr_cpl_ready_o(wr_cpl_ready),
    .dma_wr_cpl_tag_i(wr_cpl_tag), .dma_wr_cpl_status_i(wr_cpl_status),
    .cnt_o
  );

  mkey_table #(.NumKeys(64), .NumMtt(1024), .NumPorts(1), .TagW(8)) u_mkey (
    .clk_i, .rst_ni, .init_done_o(mk_init_done_o),
    .wr_valid_i(mk_wr_valid_i), .wr_ready_o(mk_wr_ready_o), .wr_op_i(mk_wr_op_i),
    .wr_index_i(mk_wr_index_i), .wr_data_i(mk_wr_data_i),
    .req_valid_i(mk_req_valid), .req_ready_o(mk_req_ready), .req_key_i(mk_req_key),
    .req_pdn_i(mk_req_pdn), .req_va_i(mk_req_va), .req_len_i(mk_req_len),
    .req_access_i(mk_req_access), .req_local_i(mk_req_local), .req_tag_i(mk_req_tag),
    .rsp_valid_o(mk_rsp_valid), .rsp_ready_i(mk_rsp_ready), .rsp_status_o(mk_rsp_status),
    .rsp_addr_o(mk_rsp_addr), .rsp_page_left_o(mk_rsp_page_left), .rsp_tag_o(mk_rsp_tag)
  );

  logic [3:0] arid_unused;
  logic [63:0] araddr_unused;
  logic [7:0] arlen_unused;
  logic [2:0] arsize_unused;
  logic [1:0] arburst_unused;
  logic arvalid_unused, rready_unused, rd_req_ready_unused, rd_data_valid_unused, rd_data_last_unused;
  logic rd_cpl_valid_unused;
  logic [DataWidth-1:0] rd_data_unused;
  logic [DataWidth/8-1:0] rd_keep_unused;
  logic [7:0] rd_cpl_tag_unused;
  logic [1:0] rd_cpl_status_unused;

  dma_engine #(.DataWidth(DataWidth), .NumRdClients(1), .NumWrClients(1)) u_dma (
    .clk_i, .rst_ni,
    .cfg_max_read_req_i(3'd5), .cfg_max_payload_i(3'd2),
    .rd_req_valid_i(1'b0), .rd_req_ready_o(rd_req_ready_unused), .rd_req_addr_i(64'd0),
    .rd_req_len_i(32'd0), .rd_req_tag_i(8'd0), .rd_data_valid_o(rd_data_valid_unused),
    .rd_data_ready_i(1'b1), .rd_data_o(rd_data_unused), .rd_data_keep_o(rd_keep_unused),
    .rd_data_last_o(rd_data_last_unused), .rd_cpl_valid_o(rd_cpl_valid_unused), .rd_cpl_ready_i(1'b1),
    .rd_cpl_tag_o(rd_cpl_tag_unused), .rd_cpl_status_o(rd_cpl_status_unused),
    .wr_req_valid_i(wr_req_valid), .wr_req_ready_o(wr_req_ready), .wr_req_addr_i(wr_req_addr),
    .wr_req_len_i(wr_req_len), .wr_req_tag_i(wr_req_tag), .wr_data_valid_i(wr_data_valid),
    .wr_data_ready_o(wr_data_ready), .wr_data_i(wr_data), .wr_cpl_valid_o(wr_cpl_valid),
    .wr_cpl_ready_i(wr_cpl_ready), .wr_cpl_tag_o(wr_cpl_tag), .wr_cpl_status_o(wr_cpl_status),
    .m_axi_awid, .m_axi_awaddr, .m_axi_awlen, .m_axi_awsize, .m_axi_awburst, .m_axi_awvalid,
    .m_axi_awready, .m_axi_wdata, .m_axi_wstrb, .m_axi_wlast, .m_axi_wvalid, .m_axi_wready,
    .m_axi_bid, .m_axi_bresp, .m_axi_bvalid, .m_axi_bready,
    .m_axi_arid(arid_unused), .m_axi_araddr(araddr_unused), .m_axi_arlen(arlen_unused),
    .m_axi_arsize(arsize_unused), .m_axi_arburst(arburst_unused), .m_axi_arvalid(arvalid_unused),
    .m_axi_arready(1'b1), .m_axi_rid(4'd0), .m_axi_rdata('0), .m_axi_rresp(2'd0),
    .m_axi_rlast(1'b0), .m_axi_rvalid(1'b0), .m_axi_rready(rready_unused)
  );
endmodule
