// Link-pause deadlock breaker and its counters (docs/decisions/link-pause.md). The receive path
// waits for the transmitter (ACK lane, READ-response jobs), so two NICs that pause each other
// can stop for good: neither buffer drains while its own transmitter is paused (the PFC
// deadlock). When our transmitter is paused, we request XOFF and the receive path has taken no
// header for StallCycles, the request is withdrawn until our transmitter runs again; frames that
// find no room meanwhile are dropped (counted as rx_drop_trunc) and resent by the transport, as
// without flow control. The request to the MAC is registered (one cycle after the buffer's).
module rnic_pause_breaker #(
  parameter int unsigned StallCycles = 4096
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        rx_pause_i,      // the receive buffer asks for XOFF (roce_rx, watermarks)
  input  logic        tx_paused_i,     // our transmitter is paused (any priority)
  input  logic        hdr_taken_i,     // the receive engine took a header this cycle
  output logic        pause_req_o,     // XOFF request to the MAC
  output logic [31:0] cnt_xoff_o,      // counter rx_pause_xoff: XOFF requests raised
  output logic [31:0] cnt_tx_paused_o, // counter tx_paused_cycles
  output logic [31:0] cnt_breaks_o     // counter rx_pause_breaks: requests withdrawn
);
  logic brk_q, req_q;
  logic [$clog2(StallCycles+1)-1:0] stall_q;
  logic stalled;
  assign stalled = 32'(stall_q) == StallCycles;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      brk_q           <= 1'b0;
      req_q           <= 1'b0;
      stall_q         <= '0;
      cnt_xoff_o      <= '0;
      cnt_tx_paused_o <= '0;
      cnt_breaks_o    <= '0;
    end else begin
      if (!tx_paused_i) brk_q <= 1'b0;
      else if (stalled) brk_q <= 1'b1;
      if (!rx_pause_i || !tx_paused_i || hdr_taken_i) stall_q <= '0;
      else if (!stalled) stall_q <= stall_q + 1'b1;
      req_q           <= rx_pause_i && !brk_q;
      cnt_xoff_o      <= cnt_xoff_o + 32'(rx_pause_i && !brk_q && !req_q);
      cnt_tx_paused_o <= cnt_tx_paused_o + 32'(tx_paused_i);
      cnt_breaks_o    <= cnt_breaks_o + 32'(tx_paused_i && !brk_q && stalled);
    end
  end
  assign pause_req_o = req_q;
endmodule
