// BAR0 address decode: the register bus from axil_slave split into the generated register file
// (offsets below 2^REG_ADDR_W) and the firmware window (spec bar0.fw_window_base/size). The
// registers answer in the request cycle, the window when its memory does; unmapped space (the
// doorbell pages are in their own BAR now) answers SLVERR rather than fake data.
module rnic_bar0_decode #(
  parameter int unsigned AddrWidth = 22
) (
  input  logic                 bus_req_i,
  input  logic [AddrWidth-1:0] bus_addr_i,
  output logic                 bus_ack_o,
  output logic                 bus_err_o,
  output logic [31:0]          bus_rdata_o,
  output logic                 regs_req_o,
  input  logic [31:0]          regs_rdata_i,
  output logic                 win_req_o,
  input  logic                 win_ack_i,
  input  logic                 win_err_i,
  input  logic [31:0]          win_rdata_i
);
  logic sel_regs, sel_win;
  assign sel_regs = bus_addr_i < AddrWidth'(1 << rnic_spec_pkg::REG_ADDR_W);
  assign sel_win = bus_addr_i >= AddrWidth'(rnic_spec_pkg::BAR0_FW_WINDOW_BASE) &&
                   bus_addr_i < AddrWidth'(rnic_spec_pkg::BAR0_FW_WINDOW_BASE +
                                           rnic_spec_pkg::BAR0_FW_WINDOW_SIZE);
  assign regs_req_o = bus_req_i && sel_regs;
  assign win_req_o = bus_req_i && sel_win;
  assign bus_ack_o = sel_win ? win_ack_i : bus_req_i;
  assign bus_err_o = sel_win ? win_err_i : !sel_regs;
  assign bus_rdata_o = sel_regs ? regs_rdata_i : sel_win ? win_rdata_i : 32'h0;
endmodule
