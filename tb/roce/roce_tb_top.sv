// Testbench top: roce_tx_seg -> roce_tx -> roce_rx, with the tx descriptor taken either from
// the segmenter or directly from the test, and the rx input either the tx output (loopback)
// or a test-driven stream (fuzzer, rx benchmark).
module roce_tb_top #(
  parameter int DataWidth = 512
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   use_seg_i,
  input  logic                   loop_i,
  input  logic                   msg_valid_i,
  output logic                   msg_ready_o,
  input  roce_pkg::roce_hdr_t    msg_hdr_i,
  input  logic [3:0]             msg_kind_i,
  input  logic [31:0]            msg_len_i,
  input  logic                   msg_uc_i,
  input  logic [3:0]             msg_pmtu_log2_i,
  output logic [23:0]            next_psn_o,
  input  logic                   pkt_valid_i,
  output logic                   pkt_ready_o,
  input  roce_pkg::roce_hdr_t    pkt_i,
  input  logic [DataWidth-1:0]   pay_tdata_i,
  input  logic [DataWidth/8-1:0] pay_tkeep_i,
  input  logic                   pay_tlast_i,
  input  logic                   pay_tvalid_i,
  output logic                   pay_tready_o,
  output logic [DataWidth-1:0]   tx_tdata_o,
  output logic [DataWidth/8-1:0] tx_tkeep_o,
  output logic                   tx_tlast_o,
  output logic                   tx_fire_o,
  input  logic                   tx_tready_i,
  input  logic                   tx_pause_i,
  output logic                   tx_tvalid_o,
  input  logic [DataWidth-1:0]   rxin_tdata_i,
  input  logic [DataWidth/8-1:0] rxin_tkeep_i,
  input  logic                   rxin_tlast_i,
  input  logic                   rxin_tvalid_i,
  output logic                   rxin_tready_o,
  input  logic [23:0]            qpn_lo_i,
  input  logic [23:0]            qpn_hi_i,
  input  logic                   drop_when_full_i,
  output logic                   hdr_valid_o,
  input  logic                   hdr_ready_i,
  output roce_pkg::roce_hdr_t    hdr_o,
  output logic [DataWidth-1:0]   rx_tdata_o,
  output logic [DataWidth/8-1:0] rx_tkeep_o,
  output logic                   rx_tlast_o,
  output logic                   rx_tvalid_o,
  input  logic                   rx_tready_i,
  output logic                   rx_pause_req_o,
  output logic [31:0]            rx_fill_words_o,   // roce_rx's buffer and header queue fill,
  output logic [31:0]            rx_fill_frames_o,  // for checking pause_req_o against them
  output logic [31:0]            tx_pkts_o,
  output logic [31:0]            good_count_o,
  output logic [32*roce_pkg::NumDrop-1:0] drop_count_o
);
  logic                seg_valid, seg_ready, d_valid, d_ready;
  roce_pkg::roce_hdr_t seg_pkt, d_pkt;
  logic                tx_valid, tx_ready, tx_last;
  logic [DataWidth-1:0]   tx_data;
  logic [DataWidth/8-1:0] tx_keep;
  logic                rx_ready;

  roce_tx_seg u_seg (
    .clk_i, .rst_ni, .msg_valid_i, .msg_ready_o, .msg_hdr_i, .msg_kind_i, .msg_len_i,
    .msg_uc_i, .msg_pmtu_log2_i, .msg_cont_i(1'b0), .msg_more_i(1'b0),
    .pkt_valid_o (seg_valid), .pkt_ready_i (seg_ready), .pkt_o (seg_pkt), .next_psn_o
  );

  assign d_valid     = use_seg_i ? seg_valid : pkt_valid_i;
  assign d_pkt       = use_seg_i ? seg_pkt : pkt_i;
  assign seg_ready   = use_seg_i && d_ready;
  assign pkt_ready_o = !use_seg_i && d_ready;

  roce_tx #(.DataWidth(DataWidth)) u_tx (
    .clk_i, .rst_ni,
    .desc_valid_i (d_valid), .desc_ready_o (d_ready), .desc_i (d_pkt),
    .s_tdata_i (pay_tdata_i), .s_tkeep_i (pay_tkeep_i), .s_tlast_i (pay_tlast_i),
    .s_tvalid_i (pay_tvalid_i), .s_tready_o (pay_tready_o),
    .m_tdata_o (tx_data), .m_tkeep_o (tx_keep), .m_tlast_o (tx_last),
    .m_tvalid_o (tx_valid), .m_tready_i (tx_ready), .pause_i (tx_pause_i), .pkt_count_o (tx_pkts_o)
  );

  assign tx_ready   = loop_i ? rx_ready : tx_tready_i;
  assign tx_fire_o  = tx_valid && tx_ready;
  assign tx_tvalid_o = tx_valid;
  assign tx_tdata_o = tx_data;
  assign tx_tkeep_o = tx_keep;
  assign tx_tlast_o = tx_last;
  assign rxin_tready_o = !loop_i && rx_ready;

  roce_rx #(.DataWidth(DataWidth)) u_rx (
    .clk_i, .rst_ni,
    .s_tdata_i (loop_i ? tx_data : rxin_tdata_i),
    .s_tkeep_i (loop_i ? tx_keep : rxin_tkeep_i),
    .s_tlast_i (loop_i ? tx_last : rxin_tlast_i),
    .s_tvalid_i (loop_i ? tx_valid : rxin_tvalid_i),
    .s_tready_o (rx_ready),
    .qpn_lo_i, .qpn_hi_i, .drop_when_full_i, .hdr_valid_o, .hdr_ready_i, .hdr_o,
    .m_tdata_o (rx_tdata_o), .m_tkeep_o (rx_tkeep_o), .m_tlast_o (rx_tlast_o),
    .m_tvalid_o (rx_tvalid_o), .m_tready_i (rx_tready_i),
    .pause_req_o (rx_pause_req_o), .good_count_o, .drop_count_o
  );
  assign rx_fill_words_o  = 32'(u_rx.fill_w);
  assign rx_fill_frames_o = 32'(u_rx.fill_f);
endmodule
