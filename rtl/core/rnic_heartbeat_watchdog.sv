// Heartbeat watchdog: the firmware writes cpu.heartbeat on every pass of its main loop, so a
// core that runs but leaves it unchanged for timeout_i cycles is stuck (an infinite loop, a wait
// that never ends). Fires once per stall; the count starts again when the heartbeat moves, the
// core stops running (held for a reload, panicked) or the watchdog is turned off; timeout 0 (the
// reset value of ctrl.wdog_timeout) turns it off.
module rnic_heartbeat_watchdog (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        running_i,    // the core runs an accepted image and has not panicked
  input  logic [31:0] heartbeat_i,
  input  logic [31:0] timeout_i,    // cycles; 0: off
  output logic        fire_o        // one-cycle pulse: the heartbeat stood still for timeout_i cycles
);
  logic [31:0] hb_q, count_q;
  logic        fired_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      hb_q <= '0;
      count_q <= '0;
      fired_q <= 1'b0;
      fire_o <= 1'b0;
    end else begin
      hb_q <= heartbeat_i;
      fire_o <= 1'b0;
      if (!running_i || timeout_i == 32'd0 || heartbeat_i != hb_q) begin
        count_q <= '0;
        fired_q <= 1'b0;
      end else if (!fired_q) begin
        count_q <= count_q + 32'd1;
        if (count_q + 32'd1 >= timeout_i) begin
          fire_o <= 1'b1;
          fired_q <= 1'b1;
        end
      end
    end
  end
endmodule
