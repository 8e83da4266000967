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
  output logic        eq_notify_o,
  // device-error bits the firmware reports (ctrl.dev_err), for one cycle
  output logic [31:0] dev_err_set_o
);
  logic [11:0] off;
  logic in_block;
  assign off = mmio_addr_i[11:0];
  assign in_block = mmio_addr_i[12] == rnic_spec_pkg::FW_MMIO_BASE[12];  // bit 12 alone: rnic_fw_subsys
  assign mmio_gnt_o = mmio_req_i;
  logic unused_addr;
  assign unused_addr = ^mmio_addr_i[31:13];

  // What one firmware image has reported: cleared at reset and when a new image starts.
  typedef struct packed {
    logic [31:0] fw_version, fw_status, log_base, log_head, log_size, heartbeat;
    logic [31:0] panic_mcause, panic_mepc, panic_mtval, cmdq_cons, eq_prod;
    logic        panicked;
  } fw_state_t;
  fw_state_t st_q;

  logic rd, wr;
  assign rd = mmio_req_i && !mmio_we_i && in_block;
  // Registers take whole-word writes; a partial write is a firmware bug and is ignored.
  assign wr = mmio_req_i && mmio_we_i && in_block && mmio_be_i == 4'hF;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= '0;
    end else if (clear_i) begin
      st_q <= '0;
    end else if (wr) begin
      unique case (off)
        rnic_spec_pkg::FW_REG_FW_VERSION: st_q.fw_version <= mmio_wdata_i;
        rnic_spec_pkg::FW_REG_FW_STATUS: st_q.fw_status <= mmio_wdata_i;
        rnic_spec_pkg::FW_REG_LOG_BASE: st_q.log_base <= mmio_wdata_i;
        rnic_spec_pkg::FW_REG_LOG_HEAD: st_q.log_head <= mmio_wdata_i;
        rnic_spec_pkg::FW_REG_LOG_SIZE: st_q.log_size <= mmio_wdata_i;
        rnic_spec_pkg::FW_REG_HEARTBEAT: st_q.heartbeat <= mmio_wdata_i;
        rnic_spec_pkg::FW_REG_CMDQ_CONS: st_q.cmdq_cons <= mmio_wdata_i;
        rnic_spec_pkg::FW_REG_EQ_PROD: st_q.eq_prod <= mmio_wdata_i;
        rnic_spec_pkg::FW_REG_PANIC_MCAUSE: st_q.panic_mcause <= mmio_wdata_i;
        rnic_spec_pkg::FW_REG_PANIC_MEPC: st_q.panic_mepc <= mmio_wdata_i;
        rnic_spec_pkg::FW_REG_PANIC_MTVAL: begin
          st_q.panic_mtval <= mmio_wdata_i;
          st_q.panicked <= 1'b1;
        end
        default: ;
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mmio_rvalid_o <= 1'b0;
      mmio_rdata_o <= '0;
      eq_notify_o <= 1'b0;
      dev_err_set_o <= '0;
    end else begin
      mmio_rvalid_o <= mmio_req_i && !mmio_we_i;
      eq_notify_o <= wr && off == rnic_spec_pkg::FW_REG_EQ_NOTIFY && !clear_i;
      dev_err_set_o <= (wr && off == rnic_spec_pkg::FW_REG_DEV_ERR_SET && !clear_i) ? mmio_wdata_i : 32'd0;
      mmio_rdata_o <= '0;
      if (rd) begin
        unique case (off)
          rnic_spec_pkg::FW_REG_CORE_ID: mmio_rdata_o <= CoreId;
          rnic_spec_pkg::FW_REG_HW_CAPS: mmio_rdata_o <= hw_caps_i;
          rnic_spec_pkg::FW_REG_CMDQ_BASE_LO: mmio_rdata_o <= cmdq_base_lo_i;
          rnic_spec_pkg::FW_REG_CMDQ_BASE_HI: mmio_rdata_o <= cmdq_base_hi_i;
          rnic_spec_pkg::FW_REG_CMDQ_LOG_SIZE: mmio_rdata_o <= cmdq_log_size_i;
          rnic_spec_pkg::FW_REG_CMDQ_PROD: mmio_rdata_o <= cmdq_prod_i;
          rnic_spec_pkg::FW_REG_CMDQ_CONS: mmio_rdata_o <= st_q.cmdq_cons;
          rnic_spec_pkg::FW_REG_EQ_BASE_LO: mmio_rdata_o <= eq_base_lo_i;
          rnic_spec_pkg::FW_REG_EQ_BASE_HI: mmio_rdata_o <= eq_base_hi_i;
          rnic_spec_pkg::FW_REG_EQ_LOG_SIZE: mmio_rdata_o <= eq_log_size_i;
          rnic_spec_pkg::FW_REG_EQ_PROD: mmio_rdata_o <= st_q.eq_prod;
          default: ;
        endcase
      end
    end
  end

  assign fw_version_o = st_q.fw_version;
  assign fw_status_o = st_q.fw_status;
  assign log_base_o = st_q.log_base;
  assign log_head_o = st_q.log_head;
  assign log_size_o = st_q.log_size;
  assign heartbeat_o = st_q.heartbeat;
  assign panic_mcause_o = st_q.panic_mcause;
  assign panic_mepc_o = st_q.panic_mepc;
  assign panic_mtval_o = st_q.panic_mtval;
  assign panicked_o = st_q.panicked;
  assign cmdq_cons_o = st_q.cmdq_cons;
  assign eq_prod_o = st_q.eq_prod;
endmodule
