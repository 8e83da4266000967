// The NIC core: everything between the PCIe bridge and the Ethernet MAC, behind standard
// interfaces only (AXI4-Lite BAR0 slave, AXI4 DMA master, MSI-X requests, AXI-Stream TX/RX),
// one clock domain. Board wrappers in bitstream-scripts/ attach vendor PCIe and MAC IP.
module rnic_core #(
  parameter int unsigned DataWidth    = 512,  // AXI master and AXI-Stream data width
  parameter int unsigned AxiAddrWidth = 64,
  parameter int unsigned AxiIdWidth   = 5,
  parameter int unsigned BarAddrWidth = 22,   // 4 MiB BAR0
  parameter int unsigned NumCores     = 1,
  parameter              FwImemInit   = "",   // baked-in firmware image ($readmemh files)
  parameter              FwDmemInit   = ""
) (
  input  logic clk_i,
  input  logic rst_ni,

  // BAR0: AXI4-Lite slave
  input  logic [BarAddrWidth-1:0] s_axil_awaddr_i,
  input  logic                    s_axil_awvalid_i,
  output logic                    s_axil_awready_o,
  input  logic [31:0]             s_axil_wdata_i,
  input  logic [3:0]              s_axil_wstrb_i,
  input  logic                    s_axil_wvalid_i,
  output logic                    s_axil_wready_o,
  output logic [1:0]              s_axil_bresp_o,
  output logic                    s_axil_bvalid_o,
  input  logic                    s_axil_bready_i,
  input  logic [BarAddrWidth-1:0] s_axil_araddr_i,
  input  logic                    s_axil_arvalid_i,
  output logic                    s_axil_arready_o,
  output logic [31:0]             s_axil_rdata_o,
  output logic [1:0]              s_axil_rresp_o,
  output logic                    s_axil_rvalid_o,
  input  logic                    s_axil_rready_i,

  // DMA: AXI4 master toward host memory
  output logic [AxiIdWidth-1:0]   m_axi_awid_o,
  output logic [AxiAddrWidth-1:0] m_axi_awaddr_o,
  output logic [7:0]              m_axi_awlen_o,
  output logic [2:0]              m_axi_awsize_o,
  output logic [1:0]              m_axi_awburst_o,
  output logic                    m_axi_awvalid_o,
  input  logic                    m_axi_awready_i,
  output logic [DataWidth-1:0]    m_axi_wdata_o,
  output logic [DataWidth/8-1:0]  m_axi_wstrb_o,
  output logic                    m_axi_wlast_o,
  output logic                    m_axi_wvalid_o,
  input  logic                    m_axi_wready_i,
  input  logic [AxiIdWidth-1:0]   m_axi_bid_i,
  input  logic [1:0]              m_axi_bresp_i,
  input  logic                    m_axi_bvalid_i,
  output logic                    m_axi_bready_o,
  output logic [AxiIdWidth-1:0]   m_axi_arid_o,
  output logic [AxiAddrWidth-1:0] m_axi_araddr_o,
  output logic [7:0]              m_axi_arlen_o,
  output logic [2:0]              m_axi_arsize_o,
  output logic [1:0]              m_axi_arburst_o,
  output logic                    m_axi_arvalid_o,
  input  logic                    m_axi_arready_i,
  input  logic [AxiIdWidth-1:0]   m_axi_rid_i,
  input  logic [DataWidth-1:0]    m_axi_rdata_i,
  input  logic [1:0]              m_axi_rresp_i,
  input  logic                    m_axi_rlast_i,
  input  logic                    m_axi_rvalid_i,
  output logic                    m_axi_rready_o,

  // MSI-X vector requests to the PCIe bridge
  output logic                    msix_req_o,
  output logic [4:0]              msix_vector_o,
  input  logic                    msix_ack_i,

  // Ethernet MAC: AXI-Stream, byte 0 of the frame in tdata[7:0], no FCS
  output logic [DataWidth-1:0]    m_axis_tx_tdata_o,
  output logic [DataWidth/8-1:0]  m_axis_tx_tkeep_o,
  output logic                    m_axis_tx_tlast_o,
  output logic                    m_axis_tx_tvalid_o,
  input  logic                    m_axis_tx_tready_i,
  input  logic [DataWidth-1:0]    s_axis_rx_tdata_i,
  input  logic [DataWidth/8-1:0]  s_axis_rx_tkeep_i,
  input  logic                    s_axis_rx_tlast_i,
  input  logic                    s_axis_rx_tvalid_i,
  output logic                    s_axis_rx_tready_o
);
  localparam int unsigned NumCnt = rnic_spec_pkg::NUM_COUNTERS;

  // ---- BAR0: AXI4-Lite to the register bus, decoded into regions --------------------------
  logic                    bus_req, bus_we, bus_ack, bus_err;
  logic [BarAddrWidth-1:0] bus_addr;
  logic [31:0]             bus_wdata, bus_rdata, regs_rdata;
  logic [3:0]              bus_wstrb;

  axil_slave #(.AddrWidth(BarAddrWidth)) u_axil (
    .clk_i, .rst_ni,
    .s_axil_awaddr_i, .s_axil_awvalid_i, .s_axil_awready_o,
    .s_axil_wdata_i, .s_axil_wstrb_i, .s_axil_wvalid_i, .s_axil_wready_o,
    .s_axil_bresp_o, .s_axil_bvalid_o, .s_axil_bready_i,
    .s_axil_araddr_i, .s_axil_arvalid_i, .s_axil_arready_o,
    .s_axil_rdata_o, .s_axil_rresp_o, .s_axil_rvalid_o, .s_axil_rready_i,
    .bus_req_o(bus_req), .bus_we_o(bus_we), .bus_addr_o(bus_addr), .bus_wdata_o(bus_wdata),
    .bus_wstrb_o(bus_wstrb), .bus_ack_i(bus_ack), .bus_rdata_i(bus_rdata), .bus_err_i(bus_err)
  );

  logic sel_regs, sel_win, sel_db, db_write;
  assign sel_regs = bus_addr < BarAddrWidth'(1 << rnic_spec_pkg::REG_ADDR_W);
  assign sel_win = bus_addr >= BarAddrWidth'(rnic_spec_pkg::BAR0_FW_WINDOW_BASE) &&
                   bus_addr < BarAddrWidth'(rnic_spec_pkg::BAR0_FW_WINDOW_BASE +
                                            rnic_spec_pkg::BAR0_FW_WINDOW_SIZE);
  // The doorbell pages fill BAR0 from BAR0_DB_BASE to its end.
  assign sel_db = bus_addr >= BarAddrWidth'(rnic_spec_pkg::BAR0_DB_BASE);
  assign db_write = bus_req && bus_we && sel_db;
  // Registers and doorbells answer in the request cycle, the firmware window when its memory
  // does; unmapped space answers SLVERR rather than fake data.
  logic win_ack, win_err;
  logic [31:0] win_rdata;
  assign bus_ack = sel_win ? win_ack : bus_req;
  assign bus_err = sel_win ? win_err : !(sel_regs || sel_db);
  assign bus_rdata = sel_regs ? regs_rdata : sel_win ? win_rdata : 32'h0;

  // ---- Firmware subsystem: soft core, image check, firmware registers, BAR0 window ---------
  logic [31:0] ctrl_control, ctrl_scratch, cpu_control;
  logic [31:0] cpu_status, fw_version, fw_status, log_base, log_head, log_size, heartbeat;
  logic [31:0] panic_mcause, panic_mepc, panic_mtval;
  logic fw_ready, fw_panicked;

  // firmware DMA client signals (dma_engine read client 0, write client 0)
  logic                   fd_rd_req_valid, fd_rd_req_ready, fd_rd_data_valid, fd_rd_data_ready;
  logic                   fd_rd_data_last, fd_rd_cpl_valid, fd_rd_cpl_ready;
  logic [63:0]            fd_rd_req_addr, fd_wr_req_addr;
  logic [31:0]            fd_rd_req_len, fd_wr_req_len, cmdq_cons, eq_prod;
  logic                   eq_notify;
  logic [7:0]             fd_rd_req_tag, fd_wr_req_tag, fd_rd_cpl_tag, fd_wr_cpl_tag;
  logic [DataWidth-1:0]   fd_rd_data, fd_wr_data;
  logic [DataWidth/8-1:0] fd_rd_data_keep;
  logic [1:0]             fd_rd_cpl_status, fd_wr_cpl_status;
  logic                   fd_wr_req_valid, fd_wr_req_ready, fd_wr_data_valid, fd_wr_data_ready;
  logic                   fd_wr_cpl_valid, fd_wr_cpl_ready;

  logic mkey_wr_valid, mkey_wr_ready, mkey_init_done;
  logic db_valid, db_ready, evt_valid, evt_ready, qpt_valid, qpt_ready, rqd_valid, rqd_ready;
  logic txd_valid, txd_ready;
  logic [63:0] db_data;
  logic [31:0] qpt_qpn;
  logic [rnic_spec_pkg::RX_EVENT_BYTES*8-1:0] evt_data;
  logic [rnic_spec_pkg::QPT_ENTRY_BYTES*8-1:0] qpt_data;
  logic [rnic_spec_pkg::RQ_DESC_BYTES*8-1:0] rqd_data;
  logic [rnic_spec_pkg::TX_DESC_BYTES*8-1:0] txd_data;
  logic [1:0] mkey_wr_op;
  logic [31:0] mkey_wr_index;
  logic [rnic_spec_pkg::MPT_ENTRY_BYTES*8-1:0] mkey_wr_data;

  rnic_fw_subsys #(.DataWidth(DataWidth), .ImemInit(FwImemInit), .DmemInit(FwDmemInit)) u_fw (
    .clk_i, .rst_ni, .hold_i(cpu_control[0]),
    .hw_caps_i(32'h0),  // bit0 (transport engines) set once they are attached
    .win_req_i(bus_req && sel_win), .win_we_i(bus_we),
    .win_addr_i(bus_addr[19:0]), .win_wdata_i(bus_wdata), .win_wstrb_i(bus_wstrb),
    .win_ack_o(win_ack), .win_err_o(win_err), .win_rdata_o(win_rdata),
    .irq_ext_i(1'b0),
    .cpu_status_o(cpu_status), .fw_version_o(fw_version), .fw_status_o(fw_status),
    .log_base_o(log_base), .log_head_o(log_head), .log_size_o(log_size), .heartbeat_o(heartbeat),
    .panic_mcause_o(panic_mcause), .panic_mepc_o(panic_mepc), .panic_mtval_o(panic_mtval),
    .fw_ready_o(fw_ready), .panicked_o(fw_panicked),
    .cmdq_base_lo_i(cmdq_base_lo), .cmdq_base_hi_i(cmdq_base_hi), .cmdq_log_size_i(cmdq_log_size),
    .cmdq_prod_i(cmdq_prod), .cmdq_cons_o(cmdq_cons),
    .eq_base_lo_i(eq_base_lo), .eq_base_hi_i(eq_base_hi), .eq_log_size_i(eq_log_size),
    .eq_prod_o(eq_prod), .eq_notify_o(eq_notify),
    .rd_req_valid_o(fd_rd_req_valid), .rd_req_ready_i(fd_rd_req_ready), .rd_req_addr_o(fd_rd_req_addr),
    .rd_req_len_o(fd_rd_req_len), .rd_req_tag_o(fd_rd_req_tag), .rd_data_valid_i(fd_rd_data_valid),
    .rd_data_ready_o(fd_rd_data_ready), .rd_data_i(fd_rd_data), .rd_data_keep_i(fd_rd_data_keep),
    .rd_data_last_i(fd_rd_data_last), .rd_cpl_valid_i(fd_rd_cpl_valid), .rd_cpl_ready_o(fd_rd_cpl_ready),
    .rd_cpl_status_i(fd_rd_cpl_status),
    .wr_req_valid_o(fd_wr_req_valid), .wr_req_ready_i(fd_wr_req_ready), .wr_req_addr_o(fd_wr_req_addr),
    .wr_req_len_o(fd_wr_req_len), .wr_req_tag_o(fd_wr_req_tag), .wr_data_valid_o(fd_wr_data_valid),
    .wr_data_ready_i(fd_wr_data_ready), .wr_data_o(fd_wr_data), .wr_cpl_valid_i(fd_wr_cpl_valid),
    .wr_cpl_ready_o(fd_wr_cpl_ready), .wr_cpl_status_i(fd_wr_cpl_status),
    .mkey_wr_valid_o(mkey_wr_valid), .mkey_wr_ready_i(mkey_wr_ready), .mkey_wr_op_o(mkey_wr_op),
    .mkey_wr_index_o(mkey_wr_index), .mkey_wr_data_o(mkey_wr_data),
    .db_valid_i(db_valid), .db_ready_o(db_ready), .db_data_i(db_data),
    .evt_valid_i(evt_valid), .evt_ready_o(evt_ready), .evt_data_i(evt_data),
    .qpt_valid_o(qpt_valid), .qpt_ready_i(qpt_ready), .qpt_qpn_o(qpt_qpn), .qpt_data_o(qpt_data),
    .rqd_valid_o(rqd_valid), .rqd_ready_i(rqd_ready), .rqd_data_o(rqd_data),
    .txd_valid_o(txd_valid), .txd_ready_i(txd_ready), .txd_data_o(txd_data)
  );

  // ---- Doorbells: captured into a FIFO the firmware drains ----------------------------------
  logic [31:0] db_dropped, db_count;
  rnic_db_capture #(.BarAddrWidth(BarAddrWidth)) u_db (
    .clk_i, .rst_ni, .wr_i(db_write), .addr_i(bus_addr), .wdata_i(bus_wdata),
    .out_valid_o(db_valid), .out_ready_i(db_ready), .out_data_o(db_data),
    .dropped_o(db_dropped), .count_o(db_count)
  );

  // ---- Transport engines: not attached yet. Their mailboxes exist; nothing takes them, so the
  // firmware does not use them until the engines are in (its sends would time out).
  assign evt_valid = 1'b0;
  assign evt_data = '0;
  assign qpt_ready = 1'b0;
  assign rqd_ready = 1'b0;
  assign txd_ready = 1'b0;

  // ---- Memory keys: programmed by the firmware (REG_MR/DEREG_MR); the lookup ports serve the
  // transport engines once they are attached.
  logic [1:0] mk_req_ready, mk_rsp_valid;
  logic [2*3-1:0] mk_rsp_status;
  logic [2*64-1:0] mk_rsp_addr;
  logic [2*32-1:0] mk_rsp_page_left;
  logic [2*8-1:0] mk_rsp_tag;
  mkey_table #(.NumPorts(2)) u_mkey (
    .clk_i, .rst_ni, .init_done_o(mkey_init_done),
    .wr_valid_i(mkey_wr_valid), .wr_ready_o(mkey_wr_ready), .wr_op_i(mkey_wr_op),
    .wr_index_i(mkey_wr_index), .wr_data_i(mkey_wr_data),
    .req_valid_i(2'b00), .req_ready_o(mk_req_ready), .req_key_i('0), .req_pdn_i('0), .req_va_i('0),
    .req_len_i('0), .req_access_i('0), .req_local_i('0), .req_tag_i('0),
    .rsp_valid_o(mk_rsp_valid), .rsp_ready_i(2'b11), .rsp_status_o(mk_rsp_status),
    .rsp_addr_o(mk_rsp_addr), .rsp_page_left_o(mk_rsp_page_left), .rsp_tag_o(mk_rsp_tag)
  );

  // ---- DMA engine: the AXI4 master toward host memory -------------------------------------
  // Runtime limits as a PCIe bridge typically grants them: MRRS 512 B, MPS 256 B.
  localparam logic [2:0] CfgMrrs512 = 3'd2;
  localparam logic [2:0] CfgMps256 = 3'd1;
  dma_engine #(
    .DataWidth(DataWidth), .AddrWidth(AxiAddrWidth), .IdWidth(AxiIdWidth), .TagWidth(8),
    .NumRdClients(1), .NumWrClients(1)
  ) u_dma (
    .clk_i, .rst_ni, .cfg_max_read_req_i(CfgMrrs512), .cfg_max_payload_i(CfgMps256),
    .rd_req_valid_i(fd_rd_req_valid), .rd_req_ready_o(fd_rd_req_ready), .rd_req_addr_i(fd_rd_req_addr),
    .rd_req_len_i(fd_rd_req_len), .rd_req_tag_i(fd_rd_req_tag), .rd_data_valid_o(fd_rd_data_valid),
    .rd_data_ready_i(fd_rd_data_ready), .rd_data_o(fd_rd_data), .rd_data_keep_o(fd_rd_data_keep),
    .rd_data_last_o(fd_rd_data_last), .rd_cpl_valid_o(fd_rd_cpl_valid), .rd_cpl_ready_i(fd_rd_cpl_ready),
    .rd_cpl_tag_o(fd_rd_cpl_tag), .rd_cpl_status_o(fd_rd_cpl_status),
    .wr_req_valid_i(fd_wr_req_valid), .wr_req_ready_o(fd_wr_req_ready), .wr_req_addr_i(fd_wr_req_addr),
    .wr_req_len_i(fd_wr_req_len), .wr_req_tag_i(fd_wr_req_tag), .wr_data_valid_i(fd_wr_data_valid),
    .wr_data_ready_o(fd_wr_data_ready), .wr_data_i(fd_wr_data), .wr_cpl_valid_o(fd_wr_cpl_valid),
    .wr_cpl_ready_i(fd_wr_cpl_ready), .wr_cpl_tag_o(fd_wr_cpl_tag), .wr_cpl_status_o(fd_wr_cpl_status),
    .m_axi_awid(m_axi_awid_o), .m_axi_awaddr(m_axi_awaddr_o), .m_axi_awlen(m_axi_awlen_o),
    .m_axi_awsize(m_axi_awsize_o), .m_axi_awburst(m_axi_awburst_o), .m_axi_awvalid(m_axi_awvalid_o),
    .m_axi_awready(m_axi_awready_i), .m_axi_wdata(m_axi_wdata_o), .m_axi_wstrb(m_axi_wstrb_o),
    .m_axi_wlast(m_axi_wlast_o), .m_axi_wvalid(m_axi_wvalid_o), .m_axi_wready(m_axi_wready_i),
    .m_axi_bid(m_axi_bid_i), .m_axi_bresp(m_axi_bresp_i), .m_axi_bvalid(m_axi_bvalid_i),
    .m_axi_bready(m_axi_bready_o), .m_axi_arid(m_axi_arid_o), .m_axi_araddr(m_axi_araddr_o),
    .m_axi_arlen(m_axi_arlen_o), .m_axi_arsize(m_axi_arsize_o), .m_axi_arburst(m_axi_arburst_o),
    .m_axi_arvalid(m_axi_arvalid_o), .m_axi_arready(m_axi_arready_i), .m_axi_rid(m_axi_rid_i),
    .m_axi_rdata(m_axi_rdata_i), .m_axi_rresp(m_axi_rresp_i), .m_axi_rlast(m_axi_rlast_i),
    .m_axi_rvalid(m_axi_rvalid_i), .m_axi_rready(m_axi_rready_o)
  );

  // ---- Register file (generated from spec/rnic.toml) --------------------------------------
  logic [31:0] cmdq_base_lo, cmdq_base_hi, cmdq_log_size, cmdq_prod;
  logic [31:0] eq_base_lo, eq_base_hi, eq_log_size, eq_cons, eq_msix_vector, msix_mask;
  logic        cmdq_prod_we, eq_cons_we;
  logic [63:0] cycle_q;
  logic [NumCnt*32-1:0] counters;
  logic [31:0] cnt_rx_frames_q, cnt_rx_bytes_q;

  rnic_regs u_regs (
    .clk_i, .rst_ni,
    .req_i(bus_req && sel_regs), .we_i(bus_we), .addr_i(bus_addr[rnic_spec_pkg::REG_ADDR_W-1:0]),
    .wdata_i(bus_wdata), .wstrb_i(bus_wstrb), .rdata_o(regs_rdata),
    .id_data_width_i(32'(DataWidth)), .id_num_cores_i(32'(NumCores)),
    .id_caps_i((32'(1) << rnic_spec_pkg::ID_CAPS_FW_LOAD) | (32'(1) << rnic_spec_pkg::ID_CAPS_MSIX)),
    .ctrl_control_o(ctrl_control), .ctrl_status_i({29'h0, fw_panicked, fw_ready, ctrl_control[0]}),
    .ctrl_scratch_o(ctrl_scratch), .ctrl_cycle_lo_i(cycle_q[31:0]), .ctrl_cycle_hi_i(cycle_q[63:32]),
    .cpu_cpu_control_o(cpu_control), .cpu_cpu_status_i(cpu_status), .cpu_fw_version_i(fw_version),
    .cpu_fw_status_i(fw_status), .cpu_log_base_i(log_base),
    .cpu_log_head_i(log_head), .cpu_heartbeat_i(heartbeat), .cpu_panic_mcause_i(panic_mcause),
    .cpu_panic_mepc_i(panic_mepc), .cpu_panic_mtval_i(panic_mtval), .cpu_log_size_i(log_size),
    .cmdq_cmdq_base_lo_o(cmdq_base_lo), .cmdq_cmdq_base_hi_o(cmdq_base_hi),
    .cmdq_cmdq_log_size_o(cmdq_log_size), .cmdq_cmdq_prod_o(cmdq_prod),
    .cmdq_cmdq_prod_we_o(cmdq_prod_we), .cmdq_cmdq_cons_i(cmdq_cons),
    .eq_eq_base_lo_o(eq_base_lo), .eq_eq_base_hi_o(eq_base_hi), .eq_eq_log_size_o(eq_log_size),
    .eq_eq_cons_o(eq_cons), .eq_eq_cons_we_o(eq_cons_we), .eq_eq_prod_i(eq_prod),
    .eq_eq_msix_vector_o(eq_msix_vector), .msix_msix_mask_o(msix_mask), .msix_msix_pending_i(msix_pending),
    .doorbell_db_dropped_i(db_dropped),
    .counters_i(counters)
  );

  // ---- Counters ----------------------------------------------------------------------------
  // Counted here until their owning blocks (RX parser, TX, command engine) take them over.
  function automatic logic [31:0] keep_bytes(input logic [DataWidth/8-1:0] keep);
    keep_bytes = '0;
    for (int i = 0; i < DataWidth / 8; i++) keep_bytes = keep_bytes + 32'(keep[i]);
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cycle_q <= '0;
      cnt_rx_frames_q <= '0;
      cnt_rx_bytes_q <= '0;
    end else begin
      cycle_q <= cycle_q + 64'd1;
      if (s_axis_rx_tvalid_i) begin
        cnt_rx_bytes_q <= cnt_rx_bytes_q + keep_bytes(s_axis_rx_tkeep_i);
        if (s_axis_rx_tlast_i) cnt_rx_frames_q <= cnt_rx_frames_q + 32'd1;
      end
    end
  end

  always_comb begin
    counters = '0;
    counters[rnic_spec_pkg::CNT_RX_FRAMES*32 +: 32] = cnt_rx_frames_q;
    counters[rnic_spec_pkg::CNT_RX_BYTES*32 +: 32] = cnt_rx_bytes_q;
    counters[rnic_spec_pkg::CNT_DOORBELLS*32 +: 32] = db_count;
  end

  // ---- MSI-X: the event-queue vector, raised by a firmware panic, or by the firmware's notify
  // when the host has armed the EQ (writing eq_cons with bit 31); a notify disarms it.
  logic panicked_q, eq_armed_q;
  logic [31:0] msix_raise, msix_pending;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      panicked_q <= 1'b0;
      eq_armed_q <= 1'b0;
    end else begin
      panicked_q <= fw_panicked;
      if (eq_cons_we && bus_wdata[31]) eq_armed_q <= 1'b1;
      else if (eq_notify) eq_armed_q <= 1'b0;
    end
  end
  always_comb begin
    msix_raise = '0;
    msix_raise[eq_msix_vector[4:0]] = (fw_panicked && !panicked_q) || (eq_notify && eq_armed_q);
  end
  rnic_msix #(.NumVectors(32)) u_msix (
    .clk_i, .rst_ni, .raise_i(msix_raise), .mask_i(msix_mask), .pending_o(msix_pending),
    .msix_req_o, .msix_vector_o, .msix_ack_i
  );

  // ---- Not yet attached: the transmit path --------------------------------------------------
  assign m_axis_tx_tdata_o = '0;
  assign m_axis_tx_tkeep_o = '0;
  assign m_axis_tx_tlast_o = 1'b0;
  assign m_axis_tx_tvalid_o = 1'b0;
  assign s_axis_rx_tready_o = 1'b1;

  logic unused_inputs;
  assign unused_inputs = ^{evt_ready, qpt_valid, qpt_qpn, qpt_data, rqd_valid, rqd_data, txd_valid, txd_data,
                           fd_rd_cpl_tag, fd_wr_cpl_tag, mkey_init_done, mk_req_ready, mk_rsp_valid,
                           mk_rsp_status, mk_rsp_addr, mk_rsp_page_left, mk_rsp_tag, m_axis_tx_tready_i, s_axis_rx_tdata_i, ctrl_scratch, cpu_control[31:1],
                           cmdq_prod_we,
                           eq_cons,
                           eq_msix_vector[31:5], ctrl_control[31:1], bus_wdata, bus_wstrb};
endmodule
