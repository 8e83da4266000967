// Device-error status (BAR0 ctrl.dev_err): sticky bits for the failures no event can report
// (the event queue itself, the command queue, a panicked or stuck core). A bit is set by its
// source, cleared only by the host writing 1s to ctrl.dev_err_clear or by reset (a firmware
// reload keeps them, so the host still sees why it reloaded). Any bit going from 0 to 1 raises
// the device-error MSI-X vector once.
module rnic_dev_err (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [31:0] set_i,        // bits to set (one-cycle pulses; several sources OR-ed)
  input  logic [31:0] clear_i,      // ctrl.dev_err_clear as written ...
  input  logic        clear_we_i,   // ... and its write strobe (the register holds the value a cycle later)
  output logic [31:0] status_o,
  output logic        raise_o       // one-cycle pulse: a new bit is set
);
  // Only the bits the spec names exist; the rest read 0.
  localparam int unsigned NBits = 32'(rnic_spec_pkg::DEV_ERR_BIT_WATCHDOG) + 1;
  logic [NBits-1:0] st_q, set;
  logic             clear_q;
  assign set = set_i[NBits-1:0];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= '0;
      clear_q <= 1'b0;
      raise_o <= 1'b0;
    end else begin
      clear_q <= clear_we_i;
      // a bit set in the same cycle as its clear stays set: the newer failure wins
      st_q <= (st_q & ~(clear_q ? clear_i[NBits-1:0] : '0)) | set;
      raise_o <= |(set & ~st_q);
    end
  end
  assign status_o = 32'(st_q);

  logic unused;
  assign unused = ^{set_i[31:NBits], clear_i[31:NBits]};
endmodule
