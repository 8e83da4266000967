// Interrupt and device-error sources: which MSI-X vectors to raise and which ctrl.dev_err bits
// to set this cycle. The event-queue vector is raised by a firmware panic, or by the firmware's
// notify when the host has armed the EQ (writing eq_cons with bit 31; a notify disarms it); the
// device-error vector when rnic_dev_err reports a new bit. dev_err bits: the firmware's reports
// (EQ write, command queue), a panic, and the heartbeat watchdog.
module rnic_irq_src (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        fw_panicked_i,
  input  logic        eq_arm_i,           // the host wrote eq_cons with bit 31 set
  input  logic        eq_notify_i,        // the firmware's eq_notify
  input  logic [4:0]  eq_vector_i,        // eq.eq_msix_vector
  input  logic [4:0]  dev_err_vector_i,   // ctrl.dev_err_msix_vector
  input  logic        dev_err_raise_i,    // rnic_dev_err: a new bit was set
  input  logic [31:0] fw_dev_err_set_i,   // the firmware's dev_err_set writes
  input  logic        wdog_fire_i,
  output logic [31:0] msix_raise_o,
  output logic [31:0] dev_err_set_o
);
  logic panicked_q, eq_armed_q, panic;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      panicked_q <= 1'b0;
      eq_armed_q <= 1'b0;
    end else begin
      panicked_q <= fw_panicked_i;
      if (eq_arm_i) eq_armed_q <= 1'b1;
      else if (eq_notify_i) eq_armed_q <= 1'b0;
    end
  end
  assign panic = fw_panicked_i && !panicked_q;
  always_comb begin
    msix_raise_o = '0;
    msix_raise_o[eq_vector_i] = panic || (eq_notify_i && eq_armed_q);
    msix_raise_o[dev_err_vector_i] = msix_raise_o[dev_err_vector_i] | dev_err_raise_i;
    dev_err_set_o = fw_dev_err_set_i;
    dev_err_set_o[rnic_spec_pkg::DEV_ERR_BIT_FW_PANIC[4:0]] = panic;
    dev_err_set_o[rnic_spec_pkg::DEV_ERR_BIT_WATCHDOG[4:0]] = wdog_fire_i;
  end
endmodule
