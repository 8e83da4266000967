// Interrupt and device-error sources: which MSI-X vectors to raise and which ctrl.dev_err bits
// to set this cycle. The event-queue vector is raised by a firmware panic, or by a notify (the
// CQE writer's, which writes every EQ entry, or the firmware's register) when the host has armed
// the EQ (writing eq_cons with bit 31; a notify disarms it); the device-error vector when
// rnic_dev_err reports a new bit. dev_err bits: the firmware's reports (command queue), an EQ
// entry write the bus refused (the CQE writer), a panic, and the heartbeat watchdog.
module rnic_irq_src (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        fw_panicked_i,
  input  logic        eq_arm_i,           // the host wrote eq_cons with bit 31 set
  input  logic        eq_notify_i,        // the firmware's eq_notify
  input  logic        cqw_notify_i,       // the CQE writer wrote an EQ entry
  input  logic        cqw_eq_err_i,       // the CQE writer's EQ entry write failed on the bus
  input  logic [4:0]  eq_vector_i,        // eq.eq_msix_vector
  input  logic [4:0]  dev_err_vector_i,   // ctrl.dev_err_msix_vector
  input  logic        dev_err_raise_i,    // rnic_dev_err: a new bit was set
  input  logic [31:0] fw_dev_err_set_i,   // the firmware's dev_err_set writes
  input  logic        wdog_fire_i,
  output logic [31:0] msix_raise_o,
  output logic [31:0] dev_err_set_o
);
  logic panicked_q, eq_armed_q, panic, notify;
  assign notify = eq_notify_i || cqw_notify_i;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      panicked_q <= 1'b0;
      eq_armed_q <= 1'b0;
    end else begin
      panicked_q <= fw_panicked_i;
      if (eq_arm_i) eq_armed_q <= 1'b1;
      else if (notify) eq_armed_q <= 1'b0;
    end
  end
  assign panic = fw_panicked_i && !panicked_q;
  always_comb begin
    msix_raise_o = '0;
    msix_raise_o[eq_vector_i] = panic || (notify && eq_armed_q);
    msix_raise_o[dev_err_vector_i] = msix_raise_o[dev_err_vector_i] | dev_err_raise_i;
    dev_err_set_o = fw_dev_err_set_i;
    dev_err_set_o[rnic_spec_pkg::DEV_ERR_BIT_EQ_WRITE[4:0]] = fw_dev_err_set_i[rnic_spec_pkg::DEV_ERR_BIT_EQ_WRITE[4:0]] |
                                                              cqw_eq_err_i;
    dev_err_set_o[rnic_spec_pkg::DEV_ERR_BIT_FW_PANIC[4:0]] = panic;
    dev_err_set_o[rnic_spec_pkg::DEV_ERR_BIT_WATCHDOG[4:0]] = wdog_fire_i;
  end
endmodule
