// The NIC core: everything between the PCIe bridge and the Ethernet MAC, behind standard
// interfaces only (AXI4-Lite BAR0 slave, AXI4 doorbell-BAR slave, AXI4 DMA master, MSI-X
// requests, AXI-Stream TX/RX),
// one clock domain. Board wrappers in bitstream-scripts/ attach vendor PCIe and MAC IP.
module rnic_core #(
  parameter int unsigned DataWidth    = 512,  // AXI master and AXI-Stream data width
  parameter int unsigned AxiAddrWidth = 64,
  parameter int unsigned AxiIdWidth   = 5,
  parameter int unsigned BarAddrWidth = 22,   // 4 MiB BAR0
  parameter int unsigned DbIdWidth    = 4,    // AXI ID width of the doorbell BAR port
  // firmware soft cores (spec device.max_cores, hw_caps.log2_cores): 1 until the cores share the
  // engines (docs/decisions/multi-core.md, phase 4); any other count stops the elaboration
  parameter int unsigned NumCores     = 1,
  // QP count (QPNs 2 .. NumQps-1): entries of the RTL QP table and of the firmware's QP-context
  // RAM (fw_tc.qpc_entry_bytes each); a power of two up to device.max_num_qps
  parameter int unsigned NumQps       = 128,
  // receive buffers per QP in xport_rx (2, 4 or 8; told in hw_caps.rq_slots): enough for
  // back-to-back SENDs to find one while the firmware refills (a refill is an event, an RQ WQE
  // fetch and a mailbox post). Named sets of these parameters: bitstream-scripts/configs/.
  parameter int unsigned RxRqSlots    = 8,
  parameter              FwImemInit   = "",   // baked-in firmware image ($readmemh files)
  parameter              FwDmemInit   = "",
  // Receive frame buffer and link-level flow control (docs/decisions/link-pause.md). The
  // headroom is what may still arrive after rx_pause_req_o rises: a PAUSE frame waiting behind
  // one maximum frame, 2 x 500 ns of fibre (100 m) at 100 Gb/s, and the frame the far end is
  // finishing; in buffer bytes (whole 64-byte words per frame) and in headers (that time filled
  // with minimum frames). bitstream-scripts/configs/cfg.py checks both rules per configuration.
  parameter int unsigned RxBufBytes          = 65536,
  parameter int unsigned RxMetaDepth         = 256,  // headers of frames waiting in the buffer
  parameter int unsigned PauseHeadroomBytes  = 29696,
  parameter int unsigned PauseHeadroomFrames = 208,
  parameter int unsigned PauseHystBytes      = 2048, // XON this far below XOFF
  parameter int unsigned PauseHystFrames     = 4,
  parameter int unsigned PauseStallCycles    = 4096  // deadlock breaker, see below
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

  // Doorbell BAR (spec db_bar): AXI4 write slave as wide as the DMA, one 4 KiB page per user
  // context; on a board the PCIe bridge's DMA-bypass BAR master (rtl/doorbell)
  input  logic [DbIdWidth-1:0]    s_axi_db_awid_i,
  input  logic [$clog2(rnic_spec_pkg::DB_BAR_SIZE)-1:0] s_axi_db_awaddr_i,
  input  logic [7:0]              s_axi_db_awlen_i,
  input  logic [2:0]              s_axi_db_awsize_i,
  input  logic [1:0]              s_axi_db_awburst_i,
  input  logic                    s_axi_db_awvalid_i,
  output logic                    s_axi_db_awready_o,
  input  logic [DataWidth-1:0]    s_axi_db_wdata_i,
  input  logic [DataWidth/8-1:0]  s_axi_db_wstrb_i,
  input  logic                    s_axi_db_wlast_i,
  input  logic                    s_axi_db_wvalid_i,
  output logic                    s_axi_db_wready_o,
  output logic [DbIdWidth-1:0]    s_axi_db_bid_o,
  output logic [1:0]              s_axi_db_bresp_o,
  output logic                    s_axi_db_bvalid_o,
  input  logic                    s_axi_db_bready_i,
  input  logic [DbIdWidth-1:0]    s_axi_db_arid_i,
  input  logic [$clog2(rnic_spec_pkg::DB_BAR_SIZE)-1:0] s_axi_db_araddr_i,
  input  logic [7:0]              s_axi_db_arlen_i,
  input  logic [2:0]              s_axi_db_arsize_i,
  input  logic [1:0]              s_axi_db_arburst_i,
  input  logic                    s_axi_db_arvalid_i,
  output logic                    s_axi_db_arready_o,
  output logic [DbIdWidth-1:0]    s_axi_db_rid_o,
  output logic [DataWidth-1:0]    s_axi_db_rdata_o,
  output logic [1:0]              s_axi_db_rresp_o,
  output logic                    s_axi_db_rlast_o,
  output logic                    s_axi_db_rvalid_o,
  input  logic                    s_axi_db_rready_i,

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
  output logic                    s_axis_rx_tready_o,
  // Flow control with the MAC, which sends and receives the PAUSE/PFC frames: rx_pause_req_o
  // asks for XOFF while the receive buffer (shared by all priorities) is above its watermark;
  // the MAC maps it to the priorities it pauses (or a link-level PAUSE). tx_pause_i[p] (the MAC's
  // received-pause status of priority p; all eight bits for a link-level PAUSE): no new frame
  // of priority p starts on m_axis_tx, frames of other priorities do (roce_pfc_gate), and the
  // firmware holds back the messages of QPs on p (docs/decisions/link-pause.md).
  output logic                    rx_pause_req_o,
  input  logic [7:0]              tx_pause_i
);
  localparam int unsigned NumCnt = rnic_spec_pkg::NUM_COUNTERS;

  // every priority paused: a link-level PAUSE (or PFC on all eight), which also holds the
  // frame sources themselves between frames; any priority paused: the deadlock breaker's and
  // the tx_paused_cycles counter's "our transmitter is paused"
  logic tx_pause_all, tx_pause_any;
  assign tx_pause_all = &tx_pause_i;
  assign tx_pause_any = |tx_pause_i;
  localparam int unsigned DbAddrWidth = $clog2(rnic_spec_pkg::DB_BAR_SIZE);  // spec db_bar.size
  localparam int XrxMaxReads = rnic_spec_pkg::READ_CONTEXTS;  // READ response contexts in xport_rx (hw_caps.read_ctx)
  localparam int XrxRqSlots = RxRqSlots;

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

  // decoded into the register file and the firmware window; the rest answers SLVERR
  logic regs_req, win_req, win_ack, win_err;
  logic [31:0] win_rdata;
  rnic_bar0_decode #(.AddrWidth(BarAddrWidth)) u_bar0_dec (
    .bus_req_i(bus_req), .bus_addr_i(bus_addr), .bus_ack_o(bus_ack), .bus_err_o(bus_err),
    .bus_rdata_o(bus_rdata), .regs_req_o(regs_req), .regs_rdata_i(regs_rdata),
    .win_req_o(win_req), .win_ack_i(win_ack), .win_err_i(win_err), .win_rdata_i(win_rdata)
  );

  // ---- Firmware subsystem: soft core, image check, firmware registers, BAR0 window ---------
  logic [31:0] ctrl_control, ctrl_scratch, ctrl_vlan, cpu_control;
  logic [31:0] cpu_status, fw_version, fw_status, log_base, log_head, log_size, heartbeat;
  logic [31:0] panic_mcause, panic_mepc, panic_mtval;
  logic fw_ready, fw_panicked;

  // firmware DMA client signals (dma_engine read client 0, write client 0)
  logic                   fd_rd_req_valid, fd_rd_req_ready, fd_rd_data_valid, fd_rd_data_ready;
  logic                   fd_rd_data_last, fd_rd_cpl_valid, fd_rd_cpl_ready;
  logic [63:0]            fd_rd_req_addr, fd_wr_req_addr;
  logic [31:0]            fd_rd_req_len, fd_wr_req_len, cmdq_cons, fw_eq_prod, eq_prod;
  logic                   eq_notify, cqw_eq_notify, cqw_eq_err;
  logic [31:0]            fw_dev_err_set;
  logic [7:0]             fd_rd_req_tag, fd_wr_req_tag, fd_rd_cpl_tag, fd_wr_cpl_tag;
  logic [DataWidth-1:0]   fd_rd_data, fd_wr_data;
  logic [DataWidth/8-1:0] fd_rd_data_keep;
  logic [1:0]             fd_rd_cpl_status, fd_wr_cpl_status;
  logic                   fd_wr_req_valid, fd_wr_req_ready, fd_wr_data_valid, fd_wr_data_ready;
  logic                   fd_wr_cpl_valid, fd_wr_cpl_ready;

  logic mkey_wr_valid, mkey_wr_ready, mkey_init_done;
  logic db_valid, db_ready, evt_valid, evt_ready, qpt_valid, qpt_ready, rqd_valid, rqd_ready;
  logic txd_valid, txd_ready, rdd_valid, rdd_ready;
  logic [rnic_spec_pkg::RD_DESC_BYTES*8-1:0] rdd_data;
  logic [23:0] rdq_qpn, rdq_psn, rdq_nxt;
  logic rdq_hit, rdq_rd;
  logic eth_req, eth_we;
  logic [7:0] eth_off;
  logic [31:0] eth_wdata, eth_rdata;
  logic [63:0] db_data;
  logic [31:0] qpt_qpn;
  logic [rnic_spec_pkg::RX_EVENT_BYTES*8-1:0] evt_data;
  logic [rnic_spec_pkg::QPT_ENTRY_BYTES*8-1:0] qpt_data;
  logic [rnic_spec_pkg::RQ_DESC_BYTES*8-1:0] rqd_data;
  // the firmware's rq_desc mailbox, merged with wqe_fetch's receive feed into rqd_* (the QP table's port)
  logic fw_rqd_valid, fw_rqd_ready;
  logic [rnic_spec_pkg::RQ_DESC_BYTES*8-1:0] fw_rqd_data;
  logic [rnic_spec_pkg::TX_DESC_BYTES*8-1:0] txd_data;
  // the firmware's tx_desc mailbox and the transmit builder's, merged into txd_* (xport_tx's port)
  logic fw_txd_valid, fw_txd_ready, tb_txd_valid, tb_txd_ready;
  logic [rnic_spec_pkg::TX_DESC_BYTES*8-1:0] fw_txd_data, tb_txd_data;
  // transport engine interconnect
  logic                   tx_rd_req_valid, tx_rd_req_ready, tx_rd_data_valid, tx_rd_data_ready;
  logic                   tx_rd_data_last, tx_rd_cpl_valid, tx_rd_cpl_ready;
  logic [63:0]            tx_rd_req_addr, rx_wr_req_addr;
  logic [31:0]            tx_rd_req_len, rx_wr_req_len;
  logic [7:0]             tx_rd_req_tag, tx_rd_cpl_tag, rx_wr_req_tag, rx_wr_cpl_tag;
  logic [DataWidth-1:0]   tx_rd_data, rx_wr_data;
  logic [DataWidth/8-1:0] tx_rd_data_keep;
  logic [1:0]             tx_rd_cpl_status, rx_wr_cpl_status;
  logic                   rx_wr_req_valid, rx_wr_req_ready, rx_wr_data_valid, rx_wr_data_ready;
  logic                   rx_wr_cpl_valid, rx_wr_cpl_ready;
  logic                   tx_mk_req_valid, tx_mk_req_ready, tx_mk_req_local, tx_mk_rsp_valid, tx_mk_rsp_ready;
  logic                   rx_mk_req_valid, rx_mk_req_ready, rx_mk_req_local, rx_mk_rsp_valid, rx_mk_rsp_ready;
  logic [31:0]            tx_mk_req_key, tx_mk_req_pdn, tx_mk_req_len, tx_mk_rsp_page_left;
  logic [31:0]            rx_mk_req_key, rx_mk_req_pdn, rx_mk_req_len, rx_mk_rsp_page_left;
  logic [63:0]            tx_mk_req_va, tx_mk_rsp_addr, rx_mk_req_va, rx_mk_rsp_addr;
  logic [3:0]             tx_mk_req_access, rx_mk_req_access;
  logic [7:0]             tx_mk_req_tag, tx_mk_rsp_tag, rx_mk_req_tag, rx_mk_rsp_tag;
  logic [2:0]             tx_mk_rsp_status, rx_mk_rsp_status;
  logic                   tx_qpt_req_valid;
  logic [23:0]            tx_qpt_req_qpn;
  rnic_spec_pkg::qpt_entry_t tx_qpt_rsp;
  logic                   ack_valid, ack_ready, rdrsp_valid, rdrsp_ready;
  logic [23:0]            ack_qpn, ack_psn, ack_msn, rdrsp_qpn, rdrsp_psn, rdrsp_msn;
  logic [7:0]             ack_syndrome;
  logic                   ack_hold;
  logic [63:0]            rdrsp_va;
  logic [31:0]            rdrsp_rkey, rdrsp_len;
  // responder resources (max_dest_rd_atomic): the receive engine asks, the transmit engine counts
  logic                   rdrsp_new;
  logic [23:0]            rsc_qpn;
  logic [5:0]             rsc_cnt;
  logic [1:0] mkey_wr_op;
  logic [31:0] mkey_wr_index;
  logic [rnic_spec_pkg::MPT_ENTRY_BYTES*8-1:0] mkey_wr_data;

  // what the firmware reads in hw_caps (spec layout hw_caps): engines attached, READ responses
  // placed, the transmit builder, receive slots per QP, the READ contexts, log2 of the QP count (the firmware sizes its
  // tables and the QP-context RAM from it), log2 of the core count (which QPs are a core's own)
  localparam logic [31:0] HwCaps = (32'(1) << rnic_spec_pkg::HW_CAPS_ENGINES_LSB) |
      (32'(1) << rnic_spec_pkg::HW_CAPS_READ_RESP_LSB) |
      (32'(1) << rnic_spec_pkg::HW_CAPS_TX_BUILD_LSB) |
      (32'(XrxRqSlots) << rnic_spec_pkg::HW_CAPS_RQ_SLOTS_LSB) |
      (32'(XrxMaxReads) << rnic_spec_pkg::HW_CAPS_READ_CTX_LSB) |
      (32'($clog2(NumQps)) << rnic_spec_pkg::HW_CAPS_LOG2_QPS_LSB) |
      (32'($clog2(NumCores)) << rnic_spec_pkg::HW_CAPS_LOG2_CORES_LSB);
  // Several cores need the per-core fronts of the engines and the firmware's command forwarding
  // (docs/decisions/multi-core.md, phases 2-4): until they exist no other count is built, rather
  // than a second core that would look wired and share one core's queues.
  if (NumCores != 1) begin : g_num_cores
    $error("rnic_core: NumCores must be 1 until the multi-core phases land (docs/decisions/multi-core.md)");
  end
  rnic_fw_subsys #(
    .NumCores(NumCores), .DataWidth(DataWidth), .NumQps(NumQps), .ImemInit(FwImemInit), .DmemInit(FwDmemInit)
  ) u_fw (
    .clk_i, .rst_ni, .hold_i(cpu_control[rnic_spec_pkg::CPU_CONTROL_HOLD_LSB]),
    .hw_caps_i(HwCaps),
    .win_req_i(win_req), .win_we_i(bus_we),
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
    .eq_prod_o(fw_eq_prod), .eq_notify_o(eq_notify), .dev_err_set_o(fw_dev_err_set),
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
    .rqd_valid_o(fw_rqd_valid), .rqd_ready_i(fw_rqd_ready), .rqd_data_o(fw_rqd_data),
    .txd_valid_o(fw_txd_valid), .txd_ready_i(fw_txd_ready), .txd_data_o(fw_txd_data),
    .rdd_valid_o(rdd_valid), .rdd_ready_i(rdd_ready), .rdd_data_o(rdd_data),
    .rdq_rd_o(rdq_rd), .rdq_qpn_o(rdq_qpn), .rdq_psn_o(rdq_psn), .rdq_hit_i(rdq_hit), .rdq_nxt_i(rdq_nxt),
    .tx_pause_i(tx_pause_i),
    .eth_req_o(eth_req), .eth_we_o(eth_we), .eth_off_o(eth_off), .eth_wdata_o(eth_wdata),
    .eth_rdata_i(eth_rdata),
    .tc_req_o(tc_req_v), .tc_we_o(tc_we_v), .tc_addr_o(tc_addr_v), .tc_wdata_o(tc_wdata_v), .tc_rdata_i(tc_rdata_v)
  );

  // ---- CQE writer: completion records from the firmware's tightly coupled window -> CQEs ----
  // The window's engine page per core (core k at bits k*W): the CQE writer takes every core's;
  // the WQE fetch and the doorbell BAR's BlueFlame capture core 0's (their per-core banks are the
  // next steps of docs/decisions/multi-core.md phase 3), the other cores' loads of them read 0.
  logic [NumCores-1:0]    tc_req_v, tc_we_v;
  logic [NumCores*12-1:0] tc_addr_v;
  logic [NumCores*32-1:0] tc_wdata_v, tc_rdata_v, cqw_tc_rdata;
  logic        tc_req, tc_we;
  logic [11:0] tc_addr;
  logic [31:0] tc_wdata, db_tc_rdata, wf_tc_rdata, sr_tc_rdata, tb_tc_rdata, c0_tc_rdata;
  assign tc_req   = tc_req_v[0];
  assign tc_we    = tc_we_v[0];
  assign tc_addr  = tc_addr_v[11:0];
  assign tc_wdata = tc_wdata_v[31:0];
  // each engine answers a load of an offset it does not own with 0, from its own register
  assign c0_tc_rdata = db_tc_rdata | wf_tc_rdata | sr_tc_rdata | tb_tc_rdata;
  assign tc_rdata_v  = cqw_tc_rdata | (NumCores*32)'(c0_tc_rdata);
  logic                   cw_wr_req_valid, cw_wr_req_ready, cw_wr_data_valid, cw_wr_data_ready;
  logic                   cw_wr_cpl_valid, cw_wr_cpl_ready;
  logic [63:0]            cw_wr_req_addr;
  logic [31:0]            cw_wr_req_len;
  logic [7:0]             cw_wr_req_tag, cw_wr_cpl_tag;
  logic [DataWidth-1:0]   cw_wr_data;
  logic [1:0]             cw_wr_cpl_status;
  cqe_writer #(.DataWidth(DataWidth), .TagWidth(8), .NumCores(NumCores)) u_cqe_writer (
    .clk_i, .rst_ni,
    .tc_req_i(tc_req_v), .tc_we_i(tc_we_v), .tc_addr_i(tc_addr_v), .tc_wdata_i(tc_wdata_v),
    .tc_rdata_o(cqw_tc_rdata),
    .eq_base_lo_i(eq_base_lo), .eq_base_hi_i(eq_base_hi), .eq_log_size_i(eq_log_size),
    .eq_prod_o(eq_prod), .eq_notify_o(cqw_eq_notify), .eq_wr_err_o(cqw_eq_err),
    .wr_req_valid_o(cw_wr_req_valid), .wr_req_ready_i(cw_wr_req_ready), .wr_req_addr_o(cw_wr_req_addr),
    .wr_req_len_o(cw_wr_req_len), .wr_req_tag_o(cw_wr_req_tag), .wr_data_valid_o(cw_wr_data_valid),
    .wr_data_ready_i(cw_wr_data_ready), .wr_data_o(cw_wr_data), .wr_cpl_valid_i(cw_wr_cpl_valid),
    .wr_cpl_ready_o(cw_wr_cpl_ready), .wr_cpl_status_i(cw_wr_cpl_status),
    .cqr_valid_i(sr_cqr_valid), .cqr_ready_o(sr_cqr_ready), .cqr_i(sr_cqr)
  );

  // the transmit builder's signals (its instance follows sq_retire's, below)
  logic tb_cmd_valid, tb_cmd_ready, tb_rd_valid, tb_rd_ready, tb_rd_bf, tb_rvalid;
  logic wf_txb_rd_ready, wf_txb_rvalid, db_txb_rvalid;
  logic [11:0] tb_rd_off;
  logic [DataWidth-1:0] wf_txb_rdata, db_txb_rdata, tb_rdata;
  logic [rnic_spec_pkg::TXB_CMD_BYTES*8-1:0] tb_cmd;
  logic [rnic_spec_pkg::TXB_STATUS_BYTES*8-1:0] tb_status;
  logic [3:0] tb_sent;
  logic [rnic_spec_pkg::BF_STATUS_BYTES*8-1:0] db_bf_status;
  logic tb_rec_valid, tb_rec_ready, fw_sr_rec_valid, fw_sr_rec_ready;
  logic [rnic_spec_pkg::SR_REC_BYTES*8-1:0] tb_rec, fw_sr_rec;

  // ---- WQE fetch: the firmware's fetch commands -> DMA reads of WQEBBs into its TC buffer ----
  logic                   wf_rd_req_valid, wf_rd_req_ready, wf_rd_data_valid, wf_rd_data_ready;
  logic                   wf_rd_data_last, wf_rd_cpl_valid, wf_rd_cpl_ready;
  logic [63:0]            wf_rd_req_addr;
  logic [31:0]            wf_rd_req_len;
  logic [7:0]             wf_rd_req_tag, wf_rd_cpl_tag;
  logic [DataWidth-1:0]   wf_rd_data;
  logic [DataWidth/8-1:0] wf_rd_data_keep;
  logic [1:0]             wf_rd_cpl_status;
  // each sq_db / bf_db the doorbell BAR accepts: the engine starts the fetch of the WQEBBs it announced
  logic        sqdb_valid, sqdb_bf, rqdb_valid;   // (and each rq_db: the RQ's WQEs likewise)
  logic [15:0] sqdb_page;
  logic [31:0] sqdb_value;
  wqe_fetch #(.DataWidth(DataWidth), .TagWidth(8), .NumQps(NumQps)) u_wqe_fetch (
    .clk_i, .rst_ni,
    .tc_req_i(tc_req), .tc_we_i(tc_we), .tc_addr_i(tc_addr), .tc_wdata_i(tc_wdata), .tc_rdata_o(wf_tc_rdata),
    .db_valid_i(sqdb_valid || rqdb_valid), .db_bf_i(sqdb_bf), .db_rq_i(rqdb_valid), .db_page_i(sqdb_page), .db_value_i(sqdb_value),
    .rd_req_valid_o(wf_rd_req_valid), .rd_req_ready_i(wf_rd_req_ready), .rd_req_addr_o(wf_rd_req_addr),
    .rd_req_len_o(wf_rd_req_len), .rd_req_tag_o(wf_rd_req_tag), .rd_data_valid_i(wf_rd_data_valid),
    .rd_data_ready_o(wf_rd_data_ready), .rd_data_i(wf_rd_data), .rd_data_last_i(wf_rd_data_last),
    .rd_cpl_valid_i(wf_rd_cpl_valid), .rd_cpl_ready_o(wf_rd_cpl_ready), .rd_cpl_status_i(wf_rd_cpl_status),
    .fw_rqd_valid_i(fw_rqd_valid), .fw_rqd_ready_o(fw_rqd_ready), .fw_rqd_i(fw_rqd_data),
    .rqd_valid_o(rqd_valid), .rqd_ready_i(rqd_ready), .rqd_o(rqd_data),
    .txb_rd_valid_i(tb_rd_valid && !tb_rd_bf), .txb_rd_ready_o(wf_txb_rd_ready), .txb_rd_off_i(tb_rd_off),
    .txb_rvalid_o(wf_txb_rvalid), .txb_rdata_o(wf_txb_rdata)
  );

  // ---- Doorbell BAR: doorbells into a FIFO the firmware drains, BlueFlame onto its TC window --
  logic [31:0] db_dropped, db_count;
  doorbell_bar #(.DataWidth(DataWidth), .IdWidth(DbIdWidth), .AddrWidth(DbAddrWidth)) u_db (
    .clk_i, .rst_ni,
    .s_axi_awid_i(s_axi_db_awid_i), .s_axi_awaddr_i(s_axi_db_awaddr_i), .s_axi_awlen_i(s_axi_db_awlen_i),
    .s_axi_awsize_i(s_axi_db_awsize_i), .s_axi_awburst_i(s_axi_db_awburst_i),
    .s_axi_awvalid_i(s_axi_db_awvalid_i), .s_axi_awready_o(s_axi_db_awready_o),
    .s_axi_wdata_i(s_axi_db_wdata_i), .s_axi_wstrb_i(s_axi_db_wstrb_i), .s_axi_wlast_i(s_axi_db_wlast_i),
    .s_axi_wvalid_i(s_axi_db_wvalid_i), .s_axi_wready_o(s_axi_db_wready_o),
    .s_axi_bid_o(s_axi_db_bid_o), .s_axi_bresp_o(s_axi_db_bresp_o), .s_axi_bvalid_o(s_axi_db_bvalid_o),
    .s_axi_bready_i(s_axi_db_bready_i),
    .s_axi_arid_i(s_axi_db_arid_i), .s_axi_araddr_i(s_axi_db_araddr_i), .s_axi_arlen_i(s_axi_db_arlen_i),
    .s_axi_arsize_i(s_axi_db_arsize_i), .s_axi_arburst_i(s_axi_db_arburst_i),
    .s_axi_arvalid_i(s_axi_db_arvalid_i), .s_axi_arready_o(s_axi_db_arready_o),
    .s_axi_rid_o(s_axi_db_rid_o), .s_axi_rdata_o(s_axi_db_rdata_o), .s_axi_rresp_o(s_axi_db_rresp_o),
    .s_axi_rlast_o(s_axi_db_rlast_o), .s_axi_rvalid_o(s_axi_db_rvalid_o), .s_axi_rready_i(s_axi_db_rready_i),
    .out_valid_o(db_valid), .out_ready_i(db_ready), .out_data_o(db_data),
    .dropped_o(db_dropped), .count_o(db_count),
    .sq_db_valid_o(sqdb_valid), .sq_db_bf_o(sqdb_bf), .sq_db_page_o(sqdb_page), .sq_db_value_o(sqdb_value),
    .rq_db_valid_o(rqdb_valid),
    .tc_req_i(tc_req), .tc_we_i(tc_we), .tc_addr_i(tc_addr), .tc_rdata_o(db_tc_rdata),
    .txb_rd_valid_i(tb_rd_valid && tb_rd_bf), .txb_rd_off_i(tb_rd_off),
    .txb_rvalid_o(db_txb_rvalid), .txb_rdata_o(db_txb_rdata), .bf_status_o(db_bf_status)
  );




  // ---- Memory keys: programmed by the firmware (REG_MR/DEREG_MR); lookup port 0 serves the
  // transmit engine (lkeys, READ-response rkeys), port 1 the receive engine (rkeys, lkeys).
  mkey_table #(.NumPorts(2)) u_mkey (
    .clk_i, .rst_ni, .init_done_o(mkey_init_done),
    .wr_valid_i(mkey_wr_valid), .wr_ready_o(mkey_wr_ready), .wr_op_i(mkey_wr_op),
    .wr_index_i(mkey_wr_index), .wr_data_i(mkey_wr_data),
    .req_valid_i({rx_mk_req_valid, tx_mk_req_valid}), .req_ready_o({rx_mk_req_ready, tx_mk_req_ready}),
    .req_key_i({rx_mk_req_key, tx_mk_req_key}), .req_pdn_i({rx_mk_req_pdn, tx_mk_req_pdn}),
    .req_va_i({rx_mk_req_va, tx_mk_req_va}), .req_len_i({rx_mk_req_len, tx_mk_req_len}),
    .req_access_i({rx_mk_req_access, tx_mk_req_access}), .req_local_i({rx_mk_req_local, tx_mk_req_local}),
    .req_tag_i({rx_mk_req_tag, tx_mk_req_tag}),
    .rsp_valid_o({rx_mk_rsp_valid, tx_mk_rsp_valid}), .rsp_ready_i({rx_mk_rsp_ready, tx_mk_rsp_ready}),
    .rsp_status_o({rx_mk_rsp_status, tx_mk_rsp_status}), .rsp_addr_o({rx_mk_rsp_addr, tx_mk_rsp_addr}),
    .rsp_page_left_o({rx_mk_rsp_page_left, tx_mk_rsp_page_left}), .rsp_tag_o({rx_mk_rsp_tag, tx_mk_rsp_tag})
  );

  // ---- 802.1Q at the MAC edge (ctrl.vlan): received tags are removed before the parsers;
  // transmitted frames get one with the PCP of their DSCP class when tagging is on
  // (docs/architecture.md, "Priority marking")
  logic [DataWidth-1:0] vr_tdata, vt_tdata;
  logic [DataWidth/8-1:0] vr_tkeep, vt_tkeep;
  logic vr_tlast, vr_tvalid, vr_tready, vt_tlast, vt_tvalid, vt_tready, vlan_rx_tagged;
  roce_vlan_strip #(.DataWidth(DataWidth)) u_vlan_strip (
    .clk_i, .rst_ni,
    .s_tdata_i(s_axis_rx_tdata_i), .s_tkeep_i(s_axis_rx_tkeep_i), .s_tlast_i(s_axis_rx_tlast_i),
    .s_tvalid_i(s_axis_rx_tvalid_i), .s_tready_o(s_axis_rx_tready_o),
    .m_tdata_o(vr_tdata), .m_tkeep_o(vr_tkeep), .m_tlast_o(vr_tlast), .m_tvalid_o(vr_tvalid),
    .m_tready_i(vr_tready), .tagged_o(vlan_rx_tagged)
  );
  // PFC: a frame of a paused priority waits here, frames of the others pass (the firmware keeps
  // the paused priorities' messages back, so they do not queue up behind it)
  logic [DataWidth-1:0] pg_tdata;
  logic [DataWidth/8-1:0] pg_tkeep;
  logic pg_tlast, pg_tvalid, pg_tready;
  roce_pfc_gate #(.DataWidth(DataWidth)) u_pfc_gate (
    .clk_i, .rst_ni, .pause_i(tx_pause_i),
    .s_tdata_i(vt_tdata), .s_tkeep_i(vt_tkeep), .s_tlast_i(vt_tlast), .s_tvalid_i(vt_tvalid),
    .s_tready_o(vt_tready),
    .m_tdata_o(pg_tdata), .m_tkeep_o(pg_tkeep), .m_tlast_o(pg_tlast), .m_tvalid_o(pg_tvalid),
    .m_tready_i(pg_tready)
  );
  roce_vlan_ins #(.DataWidth(DataWidth)) u_vlan_ins (
    .clk_i, .rst_ni, .enable_i(ctrl_vlan[16]), .vid_i(ctrl_vlan[11:0]),
    .s_tdata_i(pg_tdata), .s_tkeep_i(pg_tkeep), .s_tlast_i(pg_tlast), .s_tvalid_i(pg_tvalid),
    .s_tready_o(pg_tready),
    .m_tdata_o(m_axis_tx_tdata_o), .m_tkeep_o(m_axis_tx_tkeep_o), .m_tlast_o(m_axis_tx_tlast_o),
    .m_tvalid_o(m_axis_tx_tvalid_o), .m_tready_i(m_axis_tx_tready_i)
  );

  // ---- Receive: RoCEv2 parser (drops and counts bad frames) into the receive engine ----------
  roce_pkg::roce_hdr_t rx_hdr;
  logic rx_hdr_valid, rx_hdr_ready, rx_pl_valid, rx_pl_ready, rx_pl_last;
  logic [DataWidth-1:0] rx_pl_data;
  logic [DataWidth/8-1:0] rx_pl_keep;
  logic [31:0] rx_good;
  logic [32*roce_pkg::NumDrop-1:0] rx_drops;
  logic rx_pause_raw;
  roce_rx #(
    .DataWidth(DataWidth), .BufBytes(RxBufBytes), .MetaDepth(RxMetaDepth),
    .XoffBytes(RxBufBytes - PauseHeadroomBytes),
    .XonBytes(RxBufBytes - PauseHeadroomBytes - PauseHystBytes),
    .XoffFrames(RxMetaDepth - PauseHeadroomFrames),
    .XonFrames(RxMetaDepth - PauseHeadroomFrames - PauseHystFrames)
  ) u_roce_rx (
    .clk_i, .rst_ni,
    .s_tdata_i(vr_tdata), .s_tkeep_i(vr_tkeep), .s_tlast_i(vr_tlast),
    .s_tvalid_i(vr_tvalid), .s_tready_o(vr_tready),
    .qpn_lo_i(24'd2), .qpn_hi_i(24'(NumQps - 1)), .drop_when_full_i(1'b1),
    .hdr_valid_o(rx_hdr_valid), .hdr_ready_i(rx_hdr_ready), .hdr_o(rx_hdr),
    .m_tdata_o(rx_pl_data), .m_tkeep_o(rx_pl_keep), .m_tlast_o(rx_pl_last), .m_tvalid_o(rx_pl_valid),
    .m_tready_i(rx_pl_ready), .pause_req_o(rx_pause_raw), .good_count_o(rx_good),
    .drop_count_o(rx_drops)
  );

  // ---- Link-pause deadlock breaker: withdraws XOFF when both sides pause each other ----------
  logic [31:0] cnt_pause_xoff, cnt_tx_paused, cnt_pause_brk;
  rnic_pause_breaker #(.StallCycles(PauseStallCycles)) u_pause_brk (
    .clk_i, .rst_ni, .rx_pause_i(rx_pause_raw), .tx_paused_i(tx_pause_any),
    .hdr_taken_i(rx_hdr_valid && rx_hdr_ready), .pause_req_o(rx_pause_req_o),
    .cnt_xoff_o(cnt_pause_xoff), .cnt_tx_paused_o(cnt_tx_paused), .cnt_breaks_o(cnt_pause_brk)
  );

  // ---- QP table: programmed by the firmware, read by both transport engines; the receive
  // engine also keeps each QP's moving state and receive buffers in it (rtl/qp_table)
  logic qpt_hold, qpt_init_done, qpt_rx_rd_en, qpt_rx_hit, qpt_rx_rqv, qpt_st_we, qpt_rqv_clr;
  logic [23:0] qpt_rx_rd_qpn, qpt_st_qpn;
  rnic_spec_pkg::qpt_entry_t qpt_rx_entry;
  rnic_spec_pkg::rq_desc_t   qpt_rx_rqd;
  xport_rx_pkg::qp_state_t   qpt_rx_state, qpt_st;
  logic [33:0] qpt_rx_rqlen;
  logic qp_stop;
  logic [23:0] qp_stop_qpn;
  qp_table #(.NumQps(NumQps), .RqSlots(XrxRqSlots)) u_qpt (
    .clk_i, .rst_ni, .hold_i(qpt_hold), .init_done_o(qpt_init_done),
    .qpt_wr_valid_i(qpt_valid), .qpt_wr_ready_o(qpt_ready), .qpt_wr_qpn_i(qpt_qpn), .qpt_wr_entry_i(qpt_data),
    .rqd_valid_i(rqd_valid), .rqd_ready_o(rqd_ready), .rqd_i(rqd_data),
    .tx_rd_en_i(tx_qpt_req_valid), .tx_rd_qpn_i(tx_qpt_req_qpn), .tx_rd_entry_o(tx_qpt_rsp),
    .rx_rd_en_i(qpt_rx_rd_en), .rx_rd_qpn_i(qpt_rx_rd_qpn), .rx_hit_o(qpt_rx_hit),
    .rx_entry_o(qpt_rx_entry), .rx_state_o(qpt_rx_state), .rx_rqd_o(qpt_rx_rqd), .rx_rqv_o(qpt_rx_rqv),
    .rx_rqlen_o(qpt_rx_rqlen), .st_we_i(qpt_st_we), .st_qpn_i(qpt_st_qpn), .st_i(qpt_st),
    .rqv_clr_i(qpt_rqv_clr), .stop_o(qp_stop), .stop_qpn_o(qp_stop_qpn)
  );

  rnic_spec_pkg::rx_event_t rx_evt;
  logic rx_evt_valid, rx_evt_ready;
  logic [32*xport_rx_pkg::NumCnt-1:0] rx_cnt;
  xport_rx #(.DataWidth(DataWidth), .MaxReads(XrxMaxReads)) u_xport_rx (
    .clk_i, .rst_ni,
    .hdr_valid_i(rx_hdr_valid), .hdr_ready_o(rx_hdr_ready), .hdr_i(rx_hdr),
    .s_tdata_i(rx_pl_data), .s_tvalid_i(rx_pl_valid), .s_tready_o(rx_pl_ready),
    .qpt_wr_valid_i(qpt_valid), .qpt_wr_ready_i(qpt_ready), .qpt_wr_qpn_i(qpt_qpn), .rqd_valid_i(rqd_valid),
    .qpt_hold_o(qpt_hold), .qpt_init_done_i(qpt_init_done), .qpt_rd_en_o(qpt_rx_rd_en),
    .qpt_rd_qpn_o(qpt_rx_rd_qpn), .qpt_hit_i(qpt_rx_hit), .qpt_entry_i(qpt_rx_entry),
    .qpt_state_i(qpt_rx_state), .qpt_rqd_i(qpt_rx_rqd), .qpt_rqv_i(qpt_rx_rqv), .qpt_rqlen_i(qpt_rx_rqlen),
    .qpt_st_we_o(qpt_st_we), .qpt_st_qpn_o(qpt_st_qpn), .qpt_st_o(qpt_st), .qpt_rqv_clr_o(qpt_rqv_clr),
    .rdd_valid_i(rdd_valid), .rdd_ready_o(rdd_ready), .rdd_i(rdd_data),
    .rdq_rd_i(rdq_rd), .rdq_qpn_i(rdq_qpn), .rdq_psn_i(rdq_psn), .rdq_hit_o(rdq_hit), .rdq_nxt_o(rdq_nxt),
    .evt_valid_o(rx_evt_valid), .evt_ready_i(rx_evt_ready), .evt_o(rx_evt),
    .ack_valid_o(ack_valid), .ack_ready_i(ack_ready), .ack_qpn_o(ack_qpn), .ack_psn_o(ack_psn),
    .ack_syndrome_o(ack_syndrome), .ack_msn_o(ack_msn), .ack_hold_o(ack_hold),
    .rdrsp_valid_o(rdrsp_valid), .rdrsp_ready_i(rdrsp_ready), .rdrsp_qpn_o(rdrsp_qpn),
    .rdrsp_psn_o(rdrsp_psn), .rdrsp_va_o(rdrsp_va), .rdrsp_rkey_o(rdrsp_rkey), .rdrsp_len_o(rdrsp_len),
    .rdrsp_msn_o(rdrsp_msn), .rdrsp_new_o(rdrsp_new), .rsc_qpn_o(rsc_qpn), .rsc_cnt_i(rsc_cnt),
    .mk_req_valid_o(rx_mk_req_valid), .mk_req_ready_i(rx_mk_req_ready), .mk_req_key_o(rx_mk_req_key),
    .mk_req_pdn_o(rx_mk_req_pdn), .mk_req_va_o(rx_mk_req_va), .mk_req_len_o(rx_mk_req_len),
    .mk_req_access_o(rx_mk_req_access), .mk_req_local_o(rx_mk_req_local), .mk_req_tag_o(rx_mk_req_tag),
    .mk_rsp_valid_i(rx_mk_rsp_valid), .mk_rsp_ready_o(rx_mk_rsp_ready), .mk_rsp_status_i(rx_mk_rsp_status),
    .mk_rsp_addr_i(rx_mk_rsp_addr), .mk_rsp_page_left_i(rx_mk_rsp_page_left), .mk_rsp_tag_i(rx_mk_rsp_tag),
    .dma_wr_req_valid_o(rx_wr_req_valid), .dma_wr_req_ready_i(rx_wr_req_ready),
    .dma_wr_req_addr_o(rx_wr_req_addr), .dma_wr_req_len_o(rx_wr_req_len), .dma_wr_req_tag_o(rx_wr_req_tag),
    .dma_wr_data_valid_o(rx_wr_data_valid), .dma_wr_data_ready_i(rx_wr_data_ready),
    .dma_wr_data_o(rx_wr_data), .dma_wr_cpl_valid_i(rx_wr_cpl_valid), .dma_wr_cpl_ready_o(rx_wr_cpl_ready),
    .dma_wr_cpl_tag_i(rx_wr_cpl_tag), .dma_wr_cpl_status_i(rx_wr_cpl_status),
    .cnt_o(rx_cnt)
  );

  // ---- Transmit: descriptors, ACK and READ-response jobs into frames -------------------------
  logic tx_done_valid, tx_done_ready, tx_rdrsp_err, tx_done_ud, tx_done_rsp;
  logic [23:0] tx_done_qpn;
  logic [7:0] tx_done_status;
  logic [31:0] tx_cnt_frames, tx_cnt_done, tx_cnt_lkey, tx_cnt_rkey, tx_cnt_dma, tx_cnt_retx;
  logic [DataWidth-1:0] xt_tdata;     // the transport engine's frames, before the firmware's merge in
  logic [DataWidth/8-1:0] xt_tkeep;
  logic xt_tlast, xt_tvalid, xt_tready;
  xport_tx #(.DataWidth(DataWidth)) u_xport_tx (
    .clk_i, .rst_ni,
    .desc_valid_i(txd_valid), .desc_ready_o(txd_ready), .desc_i(txd_data),
    .ack_valid_i(ack_valid), .ack_ready_o(ack_ready), .ack_qpn_i(ack_qpn), .ack_psn_i(ack_psn),
    .ack_syndrome_i(ack_syndrome), .ack_msn_i(ack_msn), .ack_hold_i(ack_hold),
    .qp_stop_i(qp_stop), .qp_stop_qpn_i(qp_stop_qpn),
    .rdrsp_valid_i(rdrsp_valid), .rdrsp_ready_o(rdrsp_ready), .rdrsp_qpn_i(rdrsp_qpn),
    .rdrsp_psn_i(rdrsp_psn), .rdrsp_va_i(rdrsp_va), .rdrsp_rkey_i(rdrsp_rkey), .rdrsp_len_i(rdrsp_len),
    .rdrsp_msn_i(rdrsp_msn), .rdrsp_new_i(rdrsp_new), .rsc_qpn_i(rsc_qpn), .rsc_cnt_o(rsc_cnt),
    .qpt_req_valid_o(tx_qpt_req_valid), .qpt_req_qpn_o(tx_qpt_req_qpn), .qpt_rsp_i(tx_qpt_rsp),
    .mk_req_valid_o(tx_mk_req_valid), .mk_req_ready_i(tx_mk_req_ready), .mk_req_key_o(tx_mk_req_key),
    .mk_req_pdn_o(tx_mk_req_pdn), .mk_req_va_o(tx_mk_req_va), .mk_req_len_o(tx_mk_req_len),
    .mk_req_access_o(tx_mk_req_access), .mk_req_local_o(tx_mk_req_local), .mk_req_tag_o(tx_mk_req_tag),
    .mk_rsp_valid_i(tx_mk_rsp_valid), .mk_rsp_ready_o(tx_mk_rsp_ready), .mk_rsp_status_i(tx_mk_rsp_status),
    .mk_rsp_addr_i(tx_mk_rsp_addr), .mk_rsp_page_left_i(tx_mk_rsp_page_left), .mk_rsp_tag_i(tx_mk_rsp_tag),
    .rd_req_valid_o(tx_rd_req_valid), .rd_req_ready_i(tx_rd_req_ready), .rd_req_addr_o(tx_rd_req_addr),
    .rd_req_len_o(tx_rd_req_len), .rd_req_tag_o(tx_rd_req_tag), .rd_data_valid_i(tx_rd_data_valid),
    .rd_data_ready_o(tx_rd_data_ready), .rd_data_i(tx_rd_data), .rd_data_keep_i(tx_rd_data_keep),
    .rd_data_last_i(tx_rd_data_last), .rd_cpl_valid_i(tx_rd_cpl_valid), .rd_cpl_ready_o(tx_rd_cpl_ready),
    .rd_cpl_tag_i(tx_rd_cpl_tag), .rd_cpl_status_i(tx_rd_cpl_status),
    .m_tdata_o(xt_tdata), .m_tkeep_o(xt_tkeep), .m_tlast_o(xt_tlast),
    .m_tvalid_o(xt_tvalid), .m_tready_i(xt_tready), .pause_i(tx_pause_all),
    .done_valid_o(tx_done_valid), .done_ready_i(tx_done_ready), .done_qpn_o(tx_done_qpn),
    .done_status_o(tx_done_status), .done_ud_o(tx_done_ud), .done_rsp_o(tx_done_rsp), .rdrsp_err_o(tx_rdrsp_err),
    .cnt_frames_o(tx_cnt_frames), .cnt_done_o(tx_cnt_done), .cnt_lkey_err_o(tx_cnt_lkey),
    .cnt_rkey_err_o(tx_cnt_rkey), .cnt_dma_err_o(tx_cnt_dma), .cnt_retx_o(tx_cnt_retx)
  );

  // ---- The firmware's Ethernet path: ARP frames to its queue, its frames merged into the MAC
  // stream between the transport engine's (docs/architecture.md, firmware/app/fw_arp.c)
  logic [31:0] eth_cnt_rx, eth_cnt_full, eth_cnt_tx;
  rnic_fw_eth #(.DataWidth(DataWidth)) u_fw_eth (
    .clk_i, .rst_ni,
    .rx_tdata_i(vr_tdata), .rx_tkeep_i(vr_tkeep), .rx_tlast_i(vr_tlast),
    .rx_tvalid_i(vr_tvalid && vr_tready),
    .mmio_req_i(eth_req), .mmio_we_i(eth_we), .mmio_off_i(eth_off), .mmio_wdata_i(eth_wdata),
    .mmio_rdata_o(eth_rdata),
    .s_tdata_i(xt_tdata), .s_tkeep_i(xt_tkeep), .s_tlast_i(xt_tlast), .s_tvalid_i(xt_tvalid),
    .s_tready_o(xt_tready),
    .m_tdata_o(vt_tdata), .m_tkeep_o(vt_tkeep), .m_tlast_o(vt_tlast),
    .m_tvalid_o(vt_tvalid), .m_tready_i(vt_tready), .pause_i(tx_pause_all),
    .cnt_rx_o(eth_cnt_rx), .cnt_full_o(eth_cnt_full), .cnt_tx_o(eth_cnt_tx)
  );

  // ---- Send retirement (rtl/sq_retire): the requester's send records and their in-order
  // retirement. Records and operations from the firmware's tightly coupled registers, ACK and
  // RESP operations from the receive-event fork (QPs the firmware enabled), completion records
  // to the CQE writer, events to the firmware through the fork (docs/decisions/send-retire.md)
  logic sr_rec_valid, sr_rec_ready, sr_cmd_valid, sr_cmd_ready, sr_ack_valid, sr_ack_ready;
  logic sr_cqr_valid, sr_cqr_ready, sr_ev_valid, sr_ev_ready, sr_qry_valid, sr_done, sr_idle;
  logic [1:0] sr_done_src;
  logic [rnic_spec_pkg::SR_REC_BYTES*8-1:0] sr_rec;
  logic [rnic_spec_pkg::SR_CMD_BYTES*8-1:0] sr_cmd, sr_ack;
  logic [rnic_spec_pkg::CQ_REC_BYTES*8-1:0] sr_cqr;
  logic [rnic_spec_pkg::SR_EVENT_BYTES*8-1:0] sr_ev;
  logic [rnic_spec_pkg::SR_QUERY_BYTES*8-1:0] sr_qry;
  logic [$clog2(rnic_spec_pkg::SQ_RETIRE_RECS):0] sr_free;
  logic sr_en_we, sr_en, sr_fork_on;
  logic [23:0] sr_en_qpn;
  sq_retire #(.NumQps(NumQps)) u_sq_retire (
    .clk_i, .rst_ni,
    .rec_valid_i(sr_rec_valid), .rec_ready_o(sr_rec_ready), .rec_i(sr_rec),
    .ack_valid_i(sr_ack_valid), .ack_ready_o(sr_ack_ready), .ack_i(sr_ack),
    .cmd_valid_i(sr_cmd_valid), .cmd_ready_o(sr_cmd_ready), .cmd_i(sr_cmd),
    .cqr_valid_o(sr_cqr_valid), .cqr_ready_i(sr_cqr_ready), .cqr_o(sr_cqr),
    .ev_valid_o(sr_ev_valid), .ev_ready_i(sr_ev_ready), .ev_o(sr_ev),
    .qry_valid_o(sr_qry_valid), .qry_o(sr_qry),
    .done_o(sr_done), .done_src_o(sr_done_src), .free_o(sr_free), .idle_o(sr_idle)
  );
  sq_retire_tc u_sq_retire_tc (
    .clk_i, .rst_ni,
    .tc_req_i(tc_req), .tc_we_i(tc_we), .tc_addr_i(tc_addr), .tc_wdata_i(tc_wdata), .tc_rdata_o(sr_tc_rdata),
    .rec_valid_o(fw_sr_rec_valid), .rec_ready_i(fw_sr_rec_ready), .rec_o(fw_sr_rec),
    .cmd_valid_o(sr_cmd_valid), .cmd_ready_i(sr_cmd_ready), .cmd_o(sr_cmd),
    .done_i(sr_done), .done_src_i(sr_done_src), .free_i(sr_free), .qry_i(sr_qry),
    .en_we_o(sr_en_we), .en_qpn_o(sr_en_qpn), .en_o(sr_en), .fork_on_o(sr_fork_on)
  );

  // ---- Transmit builder (rtl/tx_build): on one firmware command per WQE it reads the staged
  // WQEBB (the fetch buffer's rows through wqe_fetch, the BlueFlame capture's through doorbell_bar:
  // routed by the window offset) and hands the tx_desc and sr_rec the firmware's send_fast and
  // rec_srt would store (docs/decisions/tx-build.md). Core 0's, as the srt_* registers.
  // the capture is bf_data_base .. + its bytes; every other offset is wqe_fetch's
  assign tb_rd_bf = tb_rd_off >= rnic_spec_pkg::FW_TC_BF_DATA_BASE &&
                    tb_rd_off < rnic_spec_pkg::FW_TC_BF_DATA_BASE + 12'(rnic_spec_pkg::DB_BF_DATA_BYTES);
  assign tb_rd_ready = tb_rd_bf || wf_txb_rd_ready;
  // one source per command (a WQEBB lies in one), each answers in order: the answers never meet
  assign tb_rvalid = wf_txb_rvalid || db_txb_rvalid;
  assign tb_rdata = db_txb_rvalid ? db_txb_rdata : wf_txb_rdata;
  tx_build_tc u_tx_build_tc (
    .clk_i, .rst_ni,
    .tc_req_i(tc_req), .tc_we_i(tc_we), .tc_addr_i(tc_addr), .tc_wdata_i(tc_wdata), .tc_rdata_o(tb_tc_rdata),
    .cmd_valid_o(tb_cmd_valid), .cmd_ready_i(tb_cmd_ready), .cmd_o(tb_cmd), .status_i(tb_status),
    .sent_i(tb_sent)
  );
  tx_build #(.DataWidth(DataWidth)) u_tx_build (
    .clk_i, .rst_ni,
    .cmd_valid_i(tb_cmd_valid), .cmd_ready_o(tb_cmd_ready), .cmd_i(tb_cmd), .status_o(tb_status), .sent_o(tb_sent),
    .rd_valid_o(tb_rd_valid), .rd_ready_i(tb_rd_ready), .rd_off_o(tb_rd_off),
    .rd_rvalid_i(tb_rvalid), .rd_rdata_i(tb_rdata),
    .bf_status_i(db_bf_status), .free_i(sr_free),
    .fw_txd_pend_i(fw_txd_valid), .fw_rec_pend_i(fw_sr_rec_valid),
    .txd_valid_o(tb_txd_valid), .txd_ready_i(tb_txd_ready), .txd_o(tb_txd_data),
    .rec_valid_o(tb_rec_valid), .rec_ready_i(tb_rec_ready), .rec_o(tb_rec)
  );
  // The merges in front of xport_tx's descriptor port and sq_retire's record port: the firmware's
  // first, combinational (a mux on the data). The builder loads its outputs only while the
  // firmware's are empty and the firmware commits nothing while the builder is busy, so the two
  // never wait on each other and SQ order holds; the firmware's path is the one it was (the
  // builder idle: the same cycles).
  assign txd_valid    = fw_txd_valid || tb_txd_valid;
  assign txd_data     = fw_txd_valid ? fw_txd_data : tb_txd_data;
  assign fw_txd_ready = txd_ready;
  assign tb_txd_ready = txd_ready && !fw_txd_valid;
  assign sr_rec_valid    = fw_sr_rec_valid || tb_rec_valid;
  assign sr_rec          = fw_sr_rec_valid ? fw_sr_rec : tb_rec;
  assign fw_sr_rec_ready = sr_rec_ready;
  assign tb_rec_ready    = sr_rec_ready && !fw_sr_rec_valid;

  // ---- Events to the firmware: the receive engine's (through the send-retirement fork) and
  // the transmit engine's verdicts -------------------------------------------------------------
  logic fk_evt_valid, fk_evt_ready;
  rnic_spec_pkg::rx_event_t fk_evt;
  rnic_event_merge_fork #(.NumQps(NumQps)) u_evt_fork (
    .clk_i, .rst_ni, .on_i(sr_fork_on), .en_we_i(sr_en_we), .en_qpn_i(sr_en_qpn), .en_i(sr_en),
    .s_valid_i(rx_evt_valid), .s_ready_o(rx_evt_ready), .s_evt_i(rx_evt),
    .m_valid_o(fk_evt_valid), .m_ready_i(fk_evt_ready), .m_evt_o(fk_evt),
    .ack_valid_o(sr_ack_valid), .ack_ready_i(sr_ack_ready), .ack_o(sr_ack),
    .ack_done_i(sr_done && sr_done_src == 2'd1),
    .sev_valid_i(sr_ev_valid), .sev_ready_o(sr_ev_ready), .sev_i(sr_ev)
  );
  rnic_event_merge #(.Depth(64)) u_evt_merge (
    .clk_i, .rst_ni,
    .rx_evt_valid_i(fk_evt_valid), .rx_evt_ready_o(fk_evt_ready), .rx_evt_i(fk_evt),
    .tx_done_valid_i(tx_done_valid), .tx_done_ready_o(tx_done_ready), .tx_done_qpn_i(tx_done_qpn),
    .tx_done_status_i(tx_done_status), .tx_done_ud_i(tx_done_ud), .tx_done_rsp_i(tx_done_rsp),
    .evt_valid_o(evt_valid), .evt_ready_i(evt_ready), .evt_o(evt_data)
  );


  // ---- DMA engine: the AXI4 master toward host memory -------------------------------------
  // Runtime limits as a PCIe bridge typically grants them: MRRS 512 B, MPS 256 B.
  localparam logic [2:0] CfgMrrs512 = 3'd2;
  localparam logic [2:0] CfgMps256 = 3'd1;
  dma_engine #(
    .DataWidth(DataWidth), .AddrWidth(AxiAddrWidth), .IdWidth(AxiIdWidth), .TagWidth(8),
    .NumRdClients(3), .NumWrClients(3)
  ) u_dma (
    .clk_i, .rst_ni, .cfg_max_read_req_i(CfgMrrs512), .cfg_max_payload_i(CfgMps256),
    // read client 0: firmware; 1: transmit engine; 2: WQE fetch
    .rd_req_valid_i({wf_rd_req_valid, tx_rd_req_valid, fd_rd_req_valid}),
    .rd_req_ready_o({wf_rd_req_ready, tx_rd_req_ready, fd_rd_req_ready}),
    .rd_req_addr_i({wf_rd_req_addr, tx_rd_req_addr, fd_rd_req_addr}),
    .rd_req_len_i({wf_rd_req_len, tx_rd_req_len, fd_rd_req_len}),
    .rd_req_tag_i({wf_rd_req_tag, tx_rd_req_tag, fd_rd_req_tag}),
    .rd_data_valid_o({wf_rd_data_valid, tx_rd_data_valid, fd_rd_data_valid}),
    .rd_data_ready_i({wf_rd_data_ready, tx_rd_data_ready, fd_rd_data_ready}),
    .rd_data_o({wf_rd_data, tx_rd_data, fd_rd_data}),
    .rd_data_keep_o({wf_rd_data_keep, tx_rd_data_keep, fd_rd_data_keep}),
    .rd_data_last_o({wf_rd_data_last, tx_rd_data_last, fd_rd_data_last}),
    .rd_cpl_valid_o({wf_rd_cpl_valid, tx_rd_cpl_valid, fd_rd_cpl_valid}),
    .rd_cpl_ready_i({wf_rd_cpl_ready, tx_rd_cpl_ready, fd_rd_cpl_ready}),
    .rd_cpl_tag_o({wf_rd_cpl_tag, tx_rd_cpl_tag, fd_rd_cpl_tag}),
    .rd_cpl_status_o({wf_rd_cpl_status, tx_rd_cpl_status, fd_rd_cpl_status}),
    // write client 0: firmware; 1: receive engine; 2: CQE writer
    .wr_req_valid_i({cw_wr_req_valid, rx_wr_req_valid, fd_wr_req_valid}),
    .wr_req_ready_o({cw_wr_req_ready, rx_wr_req_ready, fd_wr_req_ready}),
    .wr_req_addr_i({cw_wr_req_addr, rx_wr_req_addr, fd_wr_req_addr}),
    .wr_req_len_i({cw_wr_req_len, rx_wr_req_len, fd_wr_req_len}),
    .wr_req_tag_i({cw_wr_req_tag, rx_wr_req_tag, fd_wr_req_tag}),
    .wr_data_valid_i({cw_wr_data_valid, rx_wr_data_valid, fd_wr_data_valid}),
    .wr_data_ready_o({cw_wr_data_ready, rx_wr_data_ready, fd_wr_data_ready}),
    .wr_data_i({cw_wr_data, rx_wr_data, fd_wr_data}),
    .wr_cpl_valid_o({cw_wr_cpl_valid, rx_wr_cpl_valid, fd_wr_cpl_valid}),
    .wr_cpl_ready_i({cw_wr_cpl_ready, rx_wr_cpl_ready, fd_wr_cpl_ready}),
    .wr_cpl_tag_o({cw_wr_cpl_tag, rx_wr_cpl_tag, fd_wr_cpl_tag}),
    .wr_cpl_status_o({cw_wr_cpl_status, rx_wr_cpl_status, fd_wr_cpl_status}),
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
  logic [31:0] dev_err, dev_err_clear, dev_err_msix_vector, wdog_timeout;
  logic        dev_err_clear_we, dev_err_raise, wdog_fire;
  logic [31:0] msix_pending;
  logic [63:0] cycle_q;  // rnic_counters
  logic [NumCnt*32-1:0] counters;

  // What the host may rely on (id.caps): RC and UD transports, atomics (xport_rx hands them to
  // the firmware), BlueFlame (doorbell_bar captures bf_data), MSI-X, firmware load over BAR0.
  localparam logic [31:0] IdCaps = (32'(1) << rnic_spec_pkg::ID_CAPS_RC) |
      (32'(1) << rnic_spec_pkg::ID_CAPS_UD) | (32'(1) << rnic_spec_pkg::ID_CAPS_ATOMICS) |
      (32'(1) << rnic_spec_pkg::ID_CAPS_BLUEFLAME) | (32'(1) << rnic_spec_pkg::ID_CAPS_MSIX) |
      (32'(1) << rnic_spec_pkg::ID_CAPS_FW_LOAD);
  rnic_regs u_regs (
    .clk_i, .rst_ni,
    .req_i(regs_req), .we_i(bus_we), .addr_i(bus_addr[rnic_spec_pkg::REG_ADDR_W-1:0]),
    .wdata_i(bus_wdata), .wstrb_i(bus_wstrb), .rdata_o(regs_rdata),
    .id_data_width_i(32'(DataWidth)), .id_num_cores_i(32'(NumCores)),
    .id_caps_i(IdCaps),
    .ctrl_control_o(ctrl_control), .ctrl_status_i({29'h0, fw_panicked, fw_ready, ctrl_control[0]}),
    .ctrl_scratch_o(ctrl_scratch), .ctrl_vlan_o(ctrl_vlan), .ctrl_cycle_lo_i(cycle_q[31:0]), .ctrl_cycle_hi_i(cycle_q[63:32]),
    .ctrl_dev_err_i(dev_err), .ctrl_dev_err_clear_o(dev_err_clear), .ctrl_dev_err_clear_we_o(dev_err_clear_we),
    .ctrl_dev_err_msix_vector_o(dev_err_msix_vector), .ctrl_wdog_timeout_o(wdog_timeout),
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

  // ---- Counters (BAR0 block counters) and the cycle counter -------------------------------
  // DMA error counters: read clients firmware, transmit engine, WQE fetch; write clients
  // firmware and receive engine (the CQE writer counts its own in fw_tc cqw_status)
  rnic_counters #(.DataWidth(DataWidth), .NumRdClients(3), .NumWrClients(2)) u_counters (
    .clk_i, .rst_ni,
    .rx_tvalid_i(s_axis_rx_tvalid_i), .rx_tready_i(s_axis_rx_tready_o), .rx_tlast_i(s_axis_rx_tlast_i),
    .rx_tkeep_i(s_axis_rx_tkeep_i),
    .tx_tvalid_i(m_axis_tx_tvalid_o), .tx_tready_i(m_axis_tx_tready_i), .tx_tkeep_i(m_axis_tx_tkeep_o),
    .rd_cpl_valid_i({fd_rd_cpl_valid, tx_rd_cpl_valid, wf_rd_cpl_valid}),
    .rd_cpl_ready_i({fd_rd_cpl_ready, tx_rd_cpl_ready, wf_rd_cpl_ready}),
    .rd_cpl_status_i({fd_rd_cpl_status, tx_rd_cpl_status, wf_rd_cpl_status}),
    .wr_cpl_valid_i({fd_wr_cpl_valid, rx_wr_cpl_valid}),
    .wr_cpl_ready_i({fd_wr_cpl_ready, rx_wr_cpl_ready}),
    .wr_cpl_status_i({fd_wr_cpl_status, rx_wr_cpl_status}),
    .rx_drops_i(rx_drops), .xrx_cnt_i(rx_cnt), .tx_frames_i(tx_cnt_frames), .tx_retx_i(tx_cnt_retx),
    .doorbells_i(db_count), .commands_i(cmdq_cons),
    .pause_xoff_i(cnt_pause_xoff), .tx_paused_i(cnt_tx_paused), .pause_breaks_i(cnt_pause_brk),
    .fw_rx_frames_i(eth_cnt_rx), .fw_rx_drop_full_i(eth_cnt_full), .fw_tx_frames_i(eth_cnt_tx),
    .cycle_o(cycle_q), .counters_o(counters)
  );

  // ---- Interrupts and device errors: MSI-X vectors (event queue, device error) and the
  // ctrl.dev_err bits (the firmware's reports, a panic, the heartbeat watchdog)
  logic [31:0] msix_raise, dev_err_set;
  rnic_irq_src u_irq_src (
    .clk_i, .rst_ni, .fw_panicked_i(fw_panicked), .eq_arm_i(eq_cons_we && bus_wdata[31]),
    .eq_notify_i(eq_notify), .cqw_notify_i(cqw_eq_notify), .cqw_eq_err_i(cqw_eq_err), .eq_vector_i(eq_msix_vector[4:0]), .dev_err_vector_i(dev_err_msix_vector[4:0]),
    .dev_err_raise_i(dev_err_raise), .fw_dev_err_set_i(fw_dev_err_set), .wdog_fire_i(wdog_fire),
    .msix_raise_o(msix_raise), .dev_err_set_o(dev_err_set)
  );

  // heartbeat watchdog: a core that runs without moving its heartbeat
  rnic_heartbeat_watchdog u_wdog (
    .clk_i, .rst_ni, .running_i(cpu_status[rnic_spec_pkg::CPU_STATUS_RUNNING_LSB] && !fw_panicked), .heartbeat_i(heartbeat),
    .timeout_i(wdog_timeout), .fire_o(wdog_fire)
  );
  rnic_dev_err u_dev_err (
    .clk_i, .rst_ni, .set_i(dev_err_set), .clear_i(dev_err_clear), .clear_we_i(dev_err_clear_we),
    .status_o(dev_err), .raise_o(dev_err_raise)
  );
  rnic_msix #(.NumVectors(32)) u_msix (
    .clk_i, .rst_ni, .raise_i(msix_raise), .mask_i(msix_mask), .pending_o(msix_pending),
    .msix_req_o, .msix_vector_o, .msix_ack_i
  );


  logic unused_inputs;
  assign unused_inputs = ^{fd_rd_cpl_tag, wf_rd_cpl_tag, wf_rd_data_keep, fd_wr_cpl_tag, cw_wr_cpl_tag, mkey_init_done, rx_pl_keep, rx_pl_last, rx_good,
                           tx_rdrsp_err, sr_qry_valid, sr_idle, tx_cnt_done, tx_cnt_lkey, tx_cnt_rkey, tx_cnt_dma, s_axis_rx_tdata_i, ctrl_scratch,
                           ctrl_vlan[31:17], ctrl_vlan[15:12], vlan_rx_tagged, cpu_control,
                           cmdq_prod_we,
                           eq_cons, fw_eq_prod,
                           eq_msix_vector[31:5], dev_err_msix_vector[31:5], ctrl_control[31:1], bus_wdata, bus_wstrb};
endmodule
