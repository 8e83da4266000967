// Testbench top of the receive-event path to the firmware: the event merge (receive events and
// transmit verdicts, its FIFO at a small depth so that back pressure reaches the engines) in front
// of the receive-event ring on the tightly coupled window, wired as in rnic_core/rnic_fw_subsys.
module fw_evring_tb_top #(
  parameter int Depth = 4
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  input  logic                     rx_evt_valid_i,
  output logic                     rx_evt_ready_o,
  input  rnic_spec_pkg::rx_event_t rx_evt_i,
  input  logic                     tx_done_valid_i,
  output logic                     tx_done_ready_o,
  input  logic [23:0]              tx_done_qpn_i,
  input  logic [7:0]               tx_done_status_i,
  input  logic                     tx_done_ud_i,
  input  logic                     tx_done_rsp_i,
  input  logic                     rd_en_i,
  input  logic [$clog2(rnic_spec_pkg::FW_TC_EVR_NUM * rnic_spec_pkg::RX_EVENT_BYTES / 4)-1:0] rd_addr_i,
  output logic [31:0]              rd_data_o,
  input  logic                     tc_req_i,
  input  logic                     tc_we_i,
  input  logic [11:0]              tc_addr_i,
  input  logic [31:0]              tc_wdata_i,
  output logic [31:0]              tc_rdata_o
);
  logic evt_valid, evt_ready;
  rnic_spec_pkg::rx_event_t evt;
  rnic_event_merge #(.Depth(Depth)) u_merge (
    .clk_i, .rst_ni, .rx_evt_valid_i, .rx_evt_ready_o, .rx_evt_i,
    .tx_done_valid_i, .tx_done_ready_o, .tx_done_qpn_i, .tx_done_status_i, .tx_done_ud_i, .tx_done_rsp_i,
    .evt_valid_o(evt_valid), .evt_ready_i(evt_ready), .evt_o(evt)
  );
  rnic_fw_evring u_ring (
    .clk_i, .rst_ni, .in_valid_i(evt_valid), .in_ready_o(evt_ready), .in_data_i(evt),
    .rd_en_i, .rd_addr_i, .rd_data_o,
    .tc_req_i, .tc_we_i, .tc_addr_i, .tc_wdata_i, .tc_rdata_o
  );
endmodule
