// Events to the firmware: the receive engine's events and the transmit engine's verdicts merged
// into one queue (the event ring, rnic_fw_evring, takes its head). A transmit verdict becomes an
// event only when the firmware has work with it: a failure (TX_ERROR; RESP_ERROR for a READ
// response whose payload read failed, the QP goes to ERR) or a UD send that left (TX_DONE: no
// ACK will complete it); an RC message that left needs none, its completion follows the ACK.
// Receive events first, a transmit verdict waits. The FIFO lets a burst of ACKs (many QPs,
// small messages) wait here instead of stalling the receive engine and overflowing the
// parser's frame buffer.
module rnic_event_merge #(
  parameter int Depth = 64
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  // receive engine events (xport_rx)
  input  logic                     rx_evt_valid_i,
  output logic                     rx_evt_ready_o,
  input  rnic_spec_pkg::rx_event_t rx_evt_i,
  // transmit engine verdicts (xport_tx done_*)
  input  logic                     tx_done_valid_i,
  output logic                     tx_done_ready_o,
  input  logic [23:0]              tx_done_qpn_i,
  input  logic [7:0]               tx_done_status_i,
  input  logic                     tx_done_ud_i,
  input  logic                     tx_done_rsp_i,   // the verdict of a READ response
  // to the firmware
  output logic                     evt_valid_o,
  input  logic                     evt_ready_i,
  output rnic_spec_pkg::rx_event_t evt_o
);
  logic tx_evt, tx_err;
  rnic_spec_pkg::rx_event_t tx_evt_data;
  assign tx_err = tx_done_status_i != rnic_spec_pkg::WC_STATUS_SUCCESS;
  assign tx_evt = tx_done_valid_i && (tx_err || tx_done_ud_i);
  always_comb begin
    tx_evt_data = '0;
    tx_evt_data.kind = tx_err ? rnic_spec_pkg::RX_EVENT_KIND_TX_ERROR : rnic_spec_pkg::RX_EVENT_KIND_TX_DONE;
    if (tx_done_rsp_i) tx_evt_data.kind = rnic_spec_pkg::RX_EVENT_KIND_RESP_ERROR;
    tx_evt_data.status = tx_done_status_i;
    tx_evt_data.qpn = {8'h0, tx_done_qpn_i};
  end

  logic q_full, q_empty, push;
  logic [$clog2(Depth+1)-1:0] q_cnt;
  rnic_spec_pkg::rx_event_t push_data;
  assign push = rx_evt_valid_i || tx_evt;
  assign push_data = rx_evt_valid_i ? rx_evt_i : tx_evt_data;
  assign rx_evt_ready_o = !q_full;
  assign tx_done_ready_o = !tx_done_valid_i || !tx_evt || (!q_full && !rx_evt_valid_i);
  rnic_fifo #(.Width(rnic_spec_pkg::RX_EVENT_BYTES * 8), .Depth(Depth)) u_evq (
    .clk_i, .rst_ni,
    .push_i(push), .data_i(push_data), .full_o(q_full),
    .pop_i(evt_ready_i), .data_o(evt_o), .empty_o(q_empty), .count_o(q_cnt)
  );
  assign evt_valid_o = !q_empty;

  logic unused;
  assign unused = ^q_cnt;
endmodule
