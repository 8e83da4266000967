// The firmware's view of the NIC on the soft core's MMIO port (spec section fw_mmio): status
// registers the host reads back through BAR0 block cpu. Writes complete at the grant; reads
// return their data the next cycle.
module rnic_fw_mmio #(
  parameter logic [31:0] CoreId = 32'd0
) (
  input  logic [31:0] hw_caps_i,
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        clear_i,       // a new image starts: forget the previous one's state
  input  logic        mmio_req_i,
  input  logic        mmio_we_i,
  input  logic [31:0] mmio_addr_i,
  input  logic [31:0] mmio_wdata_i,
  input  logic [3:0]  mmio_be_i,
  output logic        mmio_gnt_o,
  output logic        mmio_rvalid_o,
  output logic [31:0] mmio_rdata_o,
  // to BAR0 block cpu
  output logic [31:0] fw_version_o,
  output logic [31:0] fw_status_o,
  output logic [31:0] log_base_o,
  output logic [31:0] log_head_o,
  output logic [31:0] log_size_o,
  output logic [31:0] heartbeat_o,
  output logic [31:0] panic_mcause_o,
  output logic [31:0] panic_mepc_o,
  output logic [31:0] panic_mtval_o,
  output logic        panicked_o,
  // command queue: the host's registers, and the firmware's consumer count
  input  logic [31:0] cmdq_base_lo_i,
  input  logic [31:0] cmdq_base_hi_i,
  input  logic [31:0] cmdq_log_size_i,
  input  logic [31:0] cmdq_prod_i,
  output logic [31:0] cmdq_cons_o,
  // event queue: the host's registers, the firmware's producer count and its notify strobe
  input  logic [31:0] eq_base_lo_i,
  input  logic [31:0] eq_base_hi_i,
  input  logic [31:0] eq_log_size_i,
  output logic [31:0] eq_prod_o,
  output logic        eq_notify_o
);
  logic [11:0] off;
  logic in_block;
  assign off = mmio_addr_i[11:0];
  assign in_block = mmio_addr_i[31:12] == rnic_spec_pkg::FW_MMIO_BASE[31:12];
  assign mmio_gnt_o = mmio_req_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fw_version_o <= '0;
      fw_status_o <= '0;
      log_base_o <= '0;
      log_head_o <= '0;
      log_size_o <= '0;
      heartbeat_o <= '0;
      panic_mcause_o <= '0;
      panic_mepc_o <= '0;
      panic_mtval_o <= '0;
      panicked_o <= 1'b0;
      cmdq_cons_o <= '0;
      eq_prod_o <= '0;
      eq_notify_o <= 1'b0;
      mmio_rvalid_o <= 1'b0;
      mmio_rdata_o <= '0;
    end else if (clear_i) begin
      fw_version_o <= '0;
      fw_status_o <= '0;
      log_base_o <= '0;
      log_head_o <= '0;
      log_size_o <= '0;
      heartbeat_o <= '0;
      panic_mcause_o <= '0;
      panic_mepc_o <= '0;
      panic_mtval_o <= '0;
      panicked_o <= 1'b0;
      cmdq_cons_o <= '0;
      eq_prod_o <= '0;
      eq_notify_o <= 1'b0;
      mmio_rvalid_o <= 1'b0;
    end else begin
      mmio_rvalid_o <= mmio_req_i && !mmio_we_i;
      eq_notify_o <= mmio_req_i && mmio_we_i && in_block && off == rnic_spec_pkg::FW_REG_EQ_NOTIFY;
      mmio_rdata_o <= '0;
      if (mmio_req_i && !mmio_we_i && in_block) begin
        unique case (off)
          rnic_spec_pkg::FW_REG_CORE_ID: mmio_rdata_o <= CoreId;
          rnic_spec_pkg::FW_REG_HW_CAPS: mmio_rdata_o <= hw_caps_i;
          rnic_spec_pkg::FW_REG_CMDQ_BASE_LO: mmio_rdata_o <= cmdq_base_lo_i;
          rnic_spec_pkg::FW_REG_CMDQ_BASE_HI: mmio_rdata_o <= cmdq_base_hi_i;
          rnic_spec_pkg::FW_REG_CMDQ_LOG_SIZE: mmio_rdata_o <= cmdq_log_size_i;
          rnic_spec_pkg::FW_REG_CMDQ_PROD: mmio_rdata_o <= cmdq_prod_i;
          rnic_spec_pkg::FW_REG_CMDQ_CONS: mmio_rdata_o <= cmdq_cons_o;
          rnic_spec_pkg::FW_REG_EQ_BASE_LO: mmio_rdata_o <= eq_base_lo_i;
          rnic_spec_pkg::FW_REG_EQ_BASE_HI: mmio_rdata_o <= eq_base_hi_i;
          rnic_spec_pkg::FW_REG_EQ_LOG_SIZE: mmio_rdata_o <= eq_log_size_i;
          rnic_spec_pkg::FW_REG_EQ_PROD: mmio_rdata_o <= eq_prod_o;
          default: ;
        endcase
      end
      // Registers take whole-word writes; a partial write is a firmware bug and is ignored.
      if (mmio_req_i && mmio_we_i && in_block && mmio_be_i == 4'hF) begin
        unique case (off)
          rnic_spec_pkg::FW_REG_FW_VERSION: fw_version_o <= mmio_wdata_i;
          rnic_spec_pkg::FW_REG_FW_STATUS: fw_status_o <= mmio_wdata_i;
          rnic_spec_pkg::FW_REG_LOG_BASE: log_base_o <= mmio_wdata_i;
          rnic_spec_pkg::FW_REG_LOG_HEAD: log_head_o <= mmio_wdata_i;
          rnic_spec_pkg::FW_REG_LOG_SIZE: log_size_o <= mmio_wdata_i;
          rnic_spec_pkg::FW_REG_HEARTBEAT: heartbeat_o <= mmio_wdata_i;
          rnic_spec_pkg::FW_REG_CMDQ_CONS: cmdq_cons_o <= mmio_wdata_i;
          rnic_spec_pkg::FW_REG_EQ_PROD: eq_prod_o <= mmio_wdata_i;
          rnic_spec_pkg::FW_REG_PANIC_MCAUSE: panic_mcause_o <= mmio_wdata_i;
          rnic_spec_pkg::FW_REG_PANIC_MEPC: panic_mepc_o <= mmio_wdata_i;
          rnic_spec_pkg::FW_REG_PANIC_MTVAL: begin
            panic_mtval_o <= mmio_wdata_i;
            panicked_o <= 1'b1;
          end
          default: ;
        endcase
      end
    end
  end
endmodule
