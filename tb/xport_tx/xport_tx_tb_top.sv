// Testbench top: xport_tx with the real mkey_table (small tables) and dma_engine (one read
// client); the AXI master, the QP-table port, the mkey write port and the MAC stream go to C++.
module xport_tx_tb_top #(
  parameter int DataWidth = 512
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   desc_valid_i,
  output logic                   desc_ready_o,
  output logic                   desc_taken_o,  // the control FSM takes the head of its descriptor queue
  input  rnic_spec_pkg::tx_desc_t desc_i,
  input  logic                   ack_valid_i,
  output logic                   ack_ready_o,
  input  logic [23:0]            ack_qpn_i,
  input  logic [23:0]            ack_psn_i,
  input  logic [7:0]             ack_syndrome_i,
  input  logic [23:0]            ack_msn_i,
  input  logic                   ack_hold_i,
  input  logic                   qp_stop_i,
  input  logic [23:0]            qp_stop_qpn_i,
  input  logic                   rdrsp_valid_i,
  output logic                   rdrsp_ready_o,
  input  logic [23:0]            rdrsp_qpn_i,
  input  logic [23:0]            rdrsp_psn_i,
  input  logic [63:0]            rdrsp_va_i,
  input  logic [31:0]            rdrsp_rkey_i,
  input  logic [31:0]            rdrsp_len_i,
  input  logic [23:0]            rdrsp_msn_i,
  input  logic                   rdrsp_new_i,
  input  logic [23:0]            rsc_qpn_i,
  output logic [5:0]             rsc_cnt_o,
  output logic                   qpt_req_valid_o,
  output logic [23:0]            qpt_req_qpn_o,
  input  rnic_spec_pkg::qpt_entry_t qpt_rsp_i,
  output logic                   mk_init_done_o,
  input  logic                   mk_wr_valid_i,
  output logic                   mk_wr_ready_o,
  input  logic [1:0]             mk_wr_op_i,
  input  logic [31:0]            mk_wr_index_i,
  input  logic [255:0]           mk_wr_data_i,
  output logic [3:0]             m_axi_arid,
  output logic [63:0]            m_axi_araddr,
  output logic [7:0]             m_axi_arlen,
  output logic [2:0]             m_axi_arsize,
  output logic [1:0]             m_axi_arburst,
  output logic                   m_axi_arvalid,
  input  logic                   m_axi_arready,
  input  logic [3:0]             m_axi_rid,
  input  logic [DataWidth-1:0]   m_axi_rdata,
  input  logic [1:0]             m_axi_rresp,
  input  logic                   m_axi_rlast,
  input  logic                   m_axi_rvalid,
  output logic                   m_axi_rready,
  output logic [DataWidth-1:0]   m_tdata_o,
  output logic [DataWidth/8-1:0] m_tkeep_o,
  output logic                   m_tlast_o,
  output logic                   m_tvalid_o,
  input  logic                   m_tready_i,
  output logic                   done_valid_o,
  input  logic                   done_ready_i,
  output logic [23:0]            done_qpn_o,
  output logic [7:0]             done_status_o,
  output logic                   done_ud_o,
  output logic                   done_rsp_o,
  output logic                   rdrsp_err_o,
  output logic [31:0]            cnt_frames_o,
  output logic [31:0]            cnt_done_o,
  output logic [31:0]            cnt_lkey_err_o,
  output logic [31:0]            cnt_rkey_err_o,
  output logic [31:0]            cnt_dma_err_o,
  output logic [31:0]            cnt_retx_o
);
  localparam int NB = DataWidth / 8;

  logic        mk_req_valid, mk_req_ready, mk_req_local, mk_rsp_valid, mk_rsp_ready;
  logic [31:0] mk_req_key, mk_req_pdn, mk_req_len, mk_rsp_left;
  logic [63:0] mk_req_va, mk_rsp_addr;
  logic [3:0]  mk_req_access;
  logic [7:0]  mk_req_tag, mk_rsp_tag;
  logic [2:0]  mk_rsp_status;

  logic          rd_req_valid, rd_req_ready, rd_data_valid, rd_data_ready, rd_data_last;
  logic          rd_cpl_valid, rd_cpl_ready;
  logic [63:0]   rd_req_addr;
  logic [31:0]   rd_req_len;
  logic [7:0]    rd_req_tag, rd_cpl_tag;
  logic [DataWidth-1:0] rd_data;
  logic [NB-1:0] rd_keep;
  logic [1:0]    rd_cpl_status;

  xport_tx #(.DataWidth(DataWidth)) u_dut (
    .clk_i, .rst_ni,
    .desc_valid_i, .desc_ready_o, .desc_i,
    .ack_valid_i, .ack_ready_o, .ack_qpn_i, .ack_psn_i, .ack_syndrome_i, .ack_msn_i, .ack_hold_i, .qp_stop_i, .qp_stop_qpn_i,
    .rdrsp_valid_i, .rdrsp_ready_o, .rdrsp_qpn_i, .rdrsp_psn_i, .rdrsp_va_i, .rdrsp_rkey_i,
    .rdrsp_len_i, .rdrsp_msn_i, .rdrsp_new_i, .rsc_qpn_i, .rsc_cnt_o,
    .qpt_req_valid_o, .qpt_req_qpn_o, .qpt_rsp_i,
    .mk_req_valid_o (mk_req_valid), .mk_req_ready_i (mk_req_ready), .mk_req_key_o (mk_req_key),
    .mk_req_pdn_o (mk_req_pdn), .mk_req_va_o (mk_req_va), .mk_req_len_o (mk_req_len),
    .mk_req_access_o (mk_req_access), .mk_req_local_o (mk_req_local), .mk_req_tag_o (mk_req_tag),
    .mk_rsp_valid_i (mk_rsp_valid), .mk_rsp_ready_o (mk_rsp_ready), .mk_rsp_status_i (mk_rsp_status),
    .mk_rsp_addr_i (mk_rsp_addr), .mk_rsp_page_left_i (mk_rsp_left), .mk_rsp_tag_i (mk_rsp_tag),
    .rd_req_valid_o (rd_req_valid), .rd_req_ready_i (rd_req_ready), .rd_req_addr_o (rd_req_addr),
    .rd_req_len_o (rd_req_len), .rd_req_tag_o (rd_req_tag),
    .rd_data_valid_i (rd_data_valid), .rd_data_ready_o (rd_data_ready), .rd_data_i (rd_data),
    .rd_data_keep_i (rd_keep), .rd_data_last_i (rd_data_last),
    .rd_cpl_valid_i (rd_cpl_valid), .rd_cpl_ready_o (rd_cpl_ready), .rd_cpl_tag_i (rd_cpl_tag),
    .rd_cpl_status_i (rd_cpl_status),
    .m_tdata_o, .m_tkeep_o, .m_tlast_o, .m_tvalid_o, .m_tready_i, .pause_i(1'b0),
    .done_valid_o, .done_ready_i, .done_qpn_o, .done_status_o, .done_ud_o, .done_rsp_o,
    .rdrsp_err_o, .cnt_frames_o, .cnt_done_o, .cnt_lkey_err_o, .cnt_rkey_err_o, .cnt_dma_err_o, .cnt_retx_o
  );

  // firmware messages are accepted into a queue; the frames follow the order the FSM takes them
  // in (between READ-response jobs), which the checker needs
  assign desc_taken_o = u_dut.grant[0];

  mkey_table #(.NumKeys(64), .NumMtt(1024), .NumPorts(1), .TagW(8)) u_mkey (
    .clk_i, .rst_ni, .init_done_o (mk_init_done_o),
    .wr_valid_i (mk_wr_valid_i), .wr_ready_o (mk_wr_ready_o), .wr_op_i (mk_wr_op_i),
    .wr_index_i (mk_wr_index_i), .wr_data_i (mk_wr_data_i),
    .req_valid_i (mk_req_valid), .req_ready_o (mk_req_ready), .req_key_i (mk_req_key),
    .req_pdn_i (mk_req_pdn), .req_va_i (mk_req_va), .req_len_i (mk_req_len),
    .req_access_i (mk_req_access), .req_local_i (mk_req_local), .req_tag_i (mk_req_tag),
    .rsp_valid_o (mk_rsp_valid), .rsp_ready_i (mk_rsp_ready), .rsp_status_o (mk_rsp_status),
    .rsp_addr_o (mk_rsp_addr), .rsp_page_left_o (mk_rsp_left), .rsp_tag_o (mk_rsp_tag)
  );

  logic unused_dma;
  logic [3:0] awid_u; logic [63:0] awaddr_u; logic [7:0] awlen_u; logic [2:0] awsize_u;
  logic [1:0] awburst_u; logic awvalid_u, wlast_u, wvalid_u, bready_u, wr_req_ready_u;
  logic wr_data_ready_u, wr_cpl_valid_u; logic [DataWidth-1:0] wdata_u; logic [NB-1:0] wstrb_u;
  logic [7:0] wr_cpl_tag_u; logic [1:0] wr_cpl_status_u;
  assign unused_dma = ^{awid_u, awaddr_u, awlen_u, awsize_u, awburst_u, awvalid_u, wlast_u,
                        wvalid_u, bready_u, wr_req_ready_u, wr_data_ready_u, wr_cpl_valid_u,
                        wdata_u, wstrb_u, wr_cpl_tag_u, wr_cpl_status_u};

  dma_engine #(.DataWidth(DataWidth), .NumRdClients(1), .NumWrClients(1)) u_dma (
    .clk_i, .rst_ni, .cfg_max_read_req_i (3'd5), .cfg_max_payload_i (3'd2),
    .rd_req_valid_i (rd_req_valid), .rd_req_ready_o (rd_req_ready), .rd_req_addr_i (rd_req_addr),
    .rd_req_len_i (rd_req_len), .rd_req_tag_i (rd_req_tag),
    .rd_data_valid_o (rd_data_valid), .rd_data_ready_i (rd_data_ready), .rd_data_o (rd_data),
    .rd_data_keep_o (rd_keep), .rd_data_last_o (rd_data_last),
    .rd_cpl_valid_o (rd_cpl_valid), .rd_cpl_ready_i (rd_cpl_ready), .rd_cpl_tag_o (rd_cpl_tag),
    .rd_cpl_status_o (rd_cpl_status),
    .wr_req_valid_i (1'b0), .wr_req_ready_o (wr_req_ready_u), .wr_req_addr_i (64'h0),
    .wr_req_len_i (32'h0), .wr_req_tag_i (8'h0), .wr_data_valid_i (1'b0),
    .wr_data_ready_o (wr_data_ready_u), .wr_data_i ({DataWidth{1'b0}}),
    .wr_cpl_valid_o (wr_cpl_valid_u), .wr_cpl_ready_i (1'b1), .wr_cpl_tag_o (wr_cpl_tag_u),
    .wr_cpl_status_o (wr_cpl_status_u),
    .m_axi_awid (awid_u), .m_axi_awaddr (awaddr_u), .m_axi_awlen (awlen_u),
    .m_axi_awsize (awsize_u), .m_axi_awburst (awburst_u), .m_axi_awvalid (awvalid_u),
    .m_axi_awready (1'b0), .m_axi_wdata (wdata_u), .m_axi_wstrb (wstrb_u),
    .m_axi_wlast (wlast_u), .m_axi_wvalid (wvalid_u), .m_axi_wready (1'b0),
    .m_axi_bid (4'h0), .m_axi_bresp (2'b00), .m_axi_bvalid (1'b0), .m_axi_bready (bready_u),
    .m_axi_arid, .m_axi_araddr, .m_axi_arlen, .m_axi_arsize, .m_axi_arburst, .m_axi_arvalid,
    .m_axi_arready, .m_axi_rid, .m_axi_rdata, .m_axi_rresp, .m_axi_rlast, .m_axi_rvalid,
    .m_axi_rready
  );
endmodule
