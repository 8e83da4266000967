// The firmware subsystem: the soft core's tile (rnic_fw_tile: the RV32IM core, its memories and
// its tightly coupled window), the image loader/checker, the firmware's MMIO registers, and the
// BAR0 window onto IMEM and DMEM. NumCores tiles (docs/decisions/multi-core.md, phase 2): one
// image loaded into every tile, receive events routed to the owner of their QP (rnic_qpn_route),
// the tiles' descriptors arbitrated into the one engine port of each kind (rnic_rr_arb); with
// one core all of that is wires. While the cores are held (or the image was refused) the host
// reads and writes the memories through the window; while they run, the host may read each
// core's DMEM (log ring, contexts) through a second port and nothing else.
module rnic_fw_subsys #(
  parameter int unsigned NumCores  = 1,     // 1, 2 or 4 (spec device.max_cores)
  parameter int unsigned DataWidth = 512,
  parameter int unsigned TagWidth  = 8,
  parameter int unsigned ImemBytes = 65536,
  parameter int unsigned DmemBytes = 65536,
  parameter int unsigned NumQps    = 128,   // QP-context RAM entries (rnic_core NumQps)
  parameter              ImemInit  = "",
  parameter              DmemInit  = ""
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        hold_i,
  input  logic [31:0] hw_caps_i,       // what the firmware reads in hw_caps
  // BAR0 firmware window: byte offset inside the window, IMEM in the first half, DMEM after
  input  logic        win_req_i,
  input  logic        win_we_i,
  input  logic [19:0] win_addr_i,
  input  logic [31:0] win_wdata_i,
  input  logic [3:0]  win_wstrb_i,
  output logic        win_ack_o,
  output logic        win_err_o,
  output logic [31:0] win_rdata_o,
  input  logic        irq_ext_i,
  // status for BAR0 block cpu
  output logic [31:0] cpu_status_o,
  output logic [31:0] fw_version_o,
  output logic [31:0] fw_status_o,
  output logic [31:0] log_base_o,
  output logic [31:0] log_head_o,
  output logic [31:0] log_size_o,
  output logic [31:0] heartbeat_o,
  output logic [31:0] panic_mcause_o,
  output logic [31:0] panic_mepc_o,
  output logic [31:0] panic_mtval_o,
  output logic        fw_ready_o,
  output logic        panicked_o,
  // command queue registers (BAR0 block cmdq)
  input  logic [31:0] cmdq_base_lo_i,
  input  logic [31:0] cmdq_base_hi_i,
  input  logic [31:0] cmdq_log_size_i,
  input  logic [31:0] cmdq_prod_i,
  output logic [31:0] cmdq_cons_o,
  // event queue registers (BAR0 block eq)
  input  logic [31:0] eq_base_lo_i,
  input  logic [31:0] eq_base_hi_i,
  input  logic [31:0] eq_log_size_i,
  output logic [31:0] eq_prod_o,
  output logic        eq_notify_o,
  output logic [31:0] dev_err_set_o,   // device-error bits the firmware reports (one cycle)
  // firmware DMA: one dma_engine read client and one write client
  output logic                    rd_req_valid_o,
  input  logic                    rd_req_ready_i,
  output logic [63:0]             rd_req_addr_o,
  output logic [31:0]             rd_req_len_o,
  output logic [TagWidth-1:0]     rd_req_tag_o,
  input  logic                    rd_data_valid_i,
  output logic                    rd_data_ready_o,
  input  logic [DataWidth-1:0]    rd_data_i,
  input  logic [DataWidth/8-1:0]  rd_data_keep_i,
  input  logic                    rd_data_last_i,
  input  logic                    rd_cpl_valid_i,
  output logic                    rd_cpl_ready_o,
  input  logic [1:0]              rd_cpl_status_i,
  output logic                    wr_req_valid_o,
  input  logic                    wr_req_ready_i,
  output logic [63:0]             wr_req_addr_o,
  output logic [31:0]             wr_req_len_o,
  output logic [TagWidth-1:0]     wr_req_tag_o,
  output logic                    wr_data_valid_o,
  input  logic                    wr_data_ready_i,
  output logic [DataWidth-1:0]    wr_data_o,
  input  logic                    wr_cpl_valid_i,
  output logic                    wr_cpl_ready_o,
  input  logic [1:0]              wr_cpl_status_i,
  // memory-key table write port, fed by the firmware's mkey mailbox
  output logic                    mkey_wr_valid_o,
  input  logic                    mkey_wr_ready_i,
  output logic [1:0]              mkey_wr_op_o,
  output logic [31:0]             mkey_wr_index_o,
  output logic [rnic_spec_pkg::MPT_ENTRY_BYTES*8-1:0] mkey_wr_data_o,
  // doorbells in and receive events in (into rings on the tightly coupled window); QP-table
  // entries out; receive buffers, transmit descriptors, READ destinations out (their mailboxes
  // on the tightly coupled window)
  input  logic                    db_valid_i,
  output logic                    db_ready_o,
  input  logic [63:0]             db_data_i,
  input  logic                    evt_valid_i,
  output logic                    evt_ready_o,
  input  logic [rnic_spec_pkg::RX_EVENT_BYTES*8-1:0] evt_data_i,
  output logic                    qpt_valid_o,
  input  logic                    qpt_ready_i,
  output logic [31:0]             qpt_qpn_o,
  output logic [rnic_spec_pkg::QPT_ENTRY_BYTES*8-1:0] qpt_data_o,
  output logic                    rqd_valid_o,
  input  logic                    rqd_ready_i,
  output logic [rnic_spec_pkg::RQ_DESC_BYTES*8-1:0] rqd_data_o,
  output logic                    txd_valid_o,
  input  logic                    txd_ready_i,
  output logic [rnic_spec_pkg::TX_DESC_BYTES*8-1:0] txd_data_o,
  output logic                    rdd_valid_o,
  input  logic                    rdd_ready_i,
  output logic [rnic_spec_pkg::RD_DESC_BYTES*8-1:0] rdd_data_o,
  // READ progress query (rdq_* registers) into the receive engine; rdq_rd_o: the result is read
  output logic                    rdq_rd_o,
  output logic [23:0]             rdq_qpn_o,
  output logic [23:0]             rdq_psn_o,
  input  logic                    rdq_hit_i,
  input  logic [23:0]             rdq_nxt_i,
  // the MAC's received-pause status per priority (rnic_core tx_pause_i), register tx_pause
  input  logic [7:0]              tx_pause_i,
  // the firmware's Ethernet path (eth_* registers, rnic_fw_eth): offset in page 0xB00; read data
  // comes from its register the next cycle
  output logic                    eth_req_o,
  output logic                    eth_we_o,
  output logic [7:0]              eth_off_o,
  output logic [31:0]             eth_wdata_o,
  input  logic [31:0]             eth_rdata_i,
  // each core's tightly coupled window (spec fw_tc), core k at bits k*W: byte offset in the
  // 4 KiB window; a load's data comes from a register of the engine the next cycle. Per core
  // until phase 3 gives the engines a bank per core.
  output logic [NumCores-1:0]     tc_req_o,
  output logic [NumCores-1:0]     tc_we_o,
  output logic [NumCores*12-1:0]  tc_addr_o,
  output logic [NumCores*32-1:0]  tc_wdata_o,
  input  logic [NumCores*32-1:0]  tc_rdata_i
);
  localparam logic [31:0] DmemBase = rnic_spec_pkg::FW_DMEM_BASE;
  localparam int unsigned CoreW = NumCores > 1 ? $clog2(NumCores) : 1;
  localparam int unsigned DmemAw = $clog2(DmemBytes);
  // the window's DMEM part: core k's DMEM at k * DmemBytes (core 0 where the one DMEM was)
  localparam logic [18:0] WinDmemEnd = 19'(NumCores * DmemBytes);
  localparam logic [18:0] WinOffMask = NumCores == 1 ? 19'h7FFFF : 19'(DmemBytes - 1);
  localparam int unsigned EvW = rnic_spec_pkg::RX_EVENT_BYTES * 8;
  localparam int unsigned TxdW = rnic_spec_pkg::TX_DESC_BYTES * 8;
  localparam int unsigned RqdW = rnic_spec_pkg::RQ_DESC_BYTES * 8;
  localparam int unsigned RddW = rnic_spec_pkg::RD_DESC_BYTES * 8;
  localparam int unsigned QptW = 32 + rnic_spec_pkg::QPT_ENTRY_BYTES * 8;   // QPN, then the entry

  // the tiles' ports, core k at bits k*W (flat vectors: Yosys 0.23 leaves an unpacked array on a
  // port undriven)
  logic [NumCores-1:0]      t_ld_rvalid, t_dbg_rvalid;
  logic [NumCores*32-1:0]   t_ld_rdata, t_dbg_rdata;
  logic [NumCores-1:0]      t_mmio_req, t_mmio_we, t_mmio_gnt, t_mmio_rvalid;
  logic [NumCores*32-1:0]   t_mmio_addr, t_mmio_wdata, t_mmio_rdata;
  logic [NumCores*4-1:0]    t_mmio_be;
  logic [NumCores-1:0]      t_evt_valid, t_evt_ready, t_txd_valid, t_txd_ready, t_rqd_valid, t_rqd_ready;
  logic [NumCores-1:0]      t_rdd_valid, t_rdd_ready, t_db_valid, t_db_ready, t_qpt_valid, t_qpt_ready;
  logic [NumCores*EvW-1:0]  t_evt_data;
  logic [NumCores*TxdW-1:0] t_txd_data;
  logic [NumCores*RqdW-1:0] t_rqd_data;
  logic [NumCores*RddW-1:0] t_rdd_data;
  logic [NumCores*64-1:0]   t_db_data;
  logic [NumCores*QptW-1:0] t_qpt_data;
  logic [NumCores-1:0]      rdq_req, rdq_gnt;   // the READ query: core k's read of the result
  logic [NumCores*48-1:0]   rdq_args;           // core k's {psn, qpn} at bits 48k

  logic core_run, run_q, busy, accepted, refused;
  logic ldr_req, ld_req, ld_we, ld_rvalid;
  logic [31:0] ldr_addr, ld_addr, ld_rdata, img_version;
  logic mmio_req, mmio_we, mmio_gnt, mmio_rvalid;
  logic [31:0] mmio_addr, mmio_wdata, mmio_rdata;
  logic [3:0] mmio_be;

  rnic_fw_loader #(.ImemBytes(ImemBytes), .DmemBytes(DmemBytes)) u_loader (
    .clk_i, .rst_ni, .hold_i, .core_run_o(core_run), .busy_o(busy), .accepted_o(accepted),
    .refused_o(refused), .version_o(img_version),
    .ld_req_o(ldr_req), .ld_addr_o(ldr_addr), .ld_rdata_i(ld_rdata), .ld_rvalid_i(ld_rvalid)
  );

  // ---- BAR0 window: a two-state handshake (issue, then data) on the load port ----------------
  // The request is looked at from registers (wr_*_q, one cycle after BAR0 presents it; BAR0
  // holds it until acknowledged, and wr_v_q drops in the cycle after the acknowledgement): no
  // path from BAR0's address decode through the window checks into the window's registers or
  // the memories' enables (issue 16). One cycle more per window access.
  logic        wr_v_q, wr_we_q;
  logic [19:0] wr_addr_q;
  logic [3:0]  wr_strb_q;
  always_ff @(posedge clk_i) begin
    wr_we_q   <= win_we_i;
    wr_addr_q <= win_addr_i;
    wr_strb_q <= win_wstrb_i;
  end
  logic in_dmem, win_fault, win_pend_q, win_far_wr;
  logic [CoreW-1:0] win_core;   // the core whose DMEM a window read names
  assign in_dmem = wr_addr_q[19];
  // Writes (the image) go to every tile at once: IMEM and core 0's DMEM part only.
  if (NumCores == 1) begin : g_win1
    assign win_core = '0;
    assign win_far_wr = 1'b0;
  end else begin : g_winn
    assign win_core = in_dmem ? wr_addr_q[DmemAw +: CoreW] : '0;
    assign win_far_wr = wr_we_q && in_dmem && wr_addr_q[18:DmemAw] != '0;
  end
  // Only whole-word accesses while the core is held; reads of DMEM while it runs.
  assign win_fault = wr_addr_q[1:0] != 2'b00 ||
                     (in_dmem ? wr_addr_q[18:0] >= WinDmemEnd : wr_addr_q[18:0] >= 19'(ImemBytes)) ||
                     busy || (core_run && (wr_we_q || !in_dmem)) ||
                     (wr_we_q && wr_strb_q != 4'hF) || win_far_wr;
  // A window access is taken into registers (wq_*) and offered on the load port the next cycle:
  // no path from BAR0's address through the window checks and the core's load-port muxes into
  // the memories' enables (issue 16). One cycle more per window access (a write is acknowledged
  // when it is offered, a read when its data returns). The loader cannot start meanwhile: it
  // starts on reset or on a cpu_control write, which BAR0 serializes after the window access.
  logic win_take, wq_v_q, wq_we_q;
  logic [31:0] wq_addr_q;
  assign win_take = wr_v_q && !win_fault && !win_pend_q && !wq_v_q && !core_run;
  always_ff @(posedge clk_i) begin
    if (win_take) begin
      wq_we_q   <= wr_we_q;
      wq_addr_q <= in_dmem ? DmemBase + {13'h0, wr_addr_q[18:0] & WinOffMask} : {13'h0, wr_addr_q[18:0]};
    end
  end
  assign ld_req = ldr_req || wq_v_q;
  assign ld_we = !ldr_req && wq_we_q;
  assign ld_addr = ldr_req ? ldr_addr : wq_addr_q;

  // DMEM reads while the core runs use the memory's second port.
  logic dbg_req, dbg_rvalid, dbg_pend_q;
  logic [31:0] dbg_rdata;
  assign dbg_req = wr_v_q && !win_fault && core_run && !dbg_pend_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      win_pend_q <= 1'b0;
      wr_v_q <= 1'b0;
      wq_v_q <= 1'b0;
      dbg_pend_q <= 1'b0;
      run_q <= 1'b0;
    end else begin
      run_q <= core_run;
      // A write completes when issued; a read when its data returns (next cycle).
      wr_v_q <= win_req_i && !win_ack_o;
      wq_v_q <= win_take;
      win_pend_q <= wq_v_q && !wq_we_q;
      dbg_pend_q <= dbg_req;
    end
  end
  assign win_ack_o = win_fault ? wr_v_q
                   : (wq_v_q && wq_we_q) || (win_pend_q && ld_rvalid) || (dbg_pend_q && dbg_rvalid);
  assign win_err_o = win_fault;
  // a read's data from the tile it names (BAR0 holds the address until the acknowledgement);
  // the loader reads tile 0 (every tile holds the same image)
  logic [31:0] win_ld_rdata;
  assign win_ld_rdata = t_ld_rdata[32*win_core +: 32];
  assign dbg_rdata = t_dbg_rdata[32*win_core +: 32];
  assign ld_rdata = t_ld_rdata[31:0];
  assign ld_rvalid = t_ld_rvalid[0];
  assign dbg_rvalid = t_dbg_rvalid[0];
  assign win_rdata_o = dbg_pend_q ? dbg_rdata : win_ld_rdata;

  // ---- the cores' tiles: each soft core, its memories and its tightly coupled window ----------
  // Core 0's tile keeps its instance name (u_tile: the simulator's profile and the wave groups
  // name it); cores 1.. are g_more[k].u_tile. The load port (loader, window) reaches every tile
  // at once, so one image lands in every IMEM and DMEM; the window's DMEM reads (ld while held,
  // dbg while running) go to every tile and the answer is taken from the one named (win_core).
  rnic_fw_tile #(
    .ImemBytes(ImemBytes), .DmemBytes(DmemBytes), .NumQps(NumQps), .ImemInit(ImemInit),
    .DmemInit(DmemInit), .HartId(32'd0)
  ) u_tile (
    .clk_i, .rst_ni, .core_run_i(core_run),
    .ld_req_i(ld_req), .ld_we_i(ld_we), .ld_addr_i(ld_addr), .ld_wdata_i(win_wdata_i),
    .ld_rdata_o(t_ld_rdata[31:0]), .ld_rvalid_o(t_ld_rvalid[0]),
    .dbg_req_i(dbg_req), .dbg_addr_i({13'h0, wr_addr_q[18:0] & WinOffMask}), .dbg_rdata_o(t_dbg_rdata[31:0]),
    .dbg_rvalid_o(t_dbg_rvalid[0]),
    .mmio_req_o(t_mmio_req[0]), .mmio_we_o(t_mmio_we[0]), .mmio_addr_o(t_mmio_addr[31:0]),
    .mmio_wdata_o(t_mmio_wdata[31:0]), .mmio_be_o(t_mmio_be[3:0]), .mmio_gnt_i(t_mmio_gnt[0]),
    .mmio_rvalid_i(t_mmio_rvalid[0]), .mmio_rdata_i(t_mmio_rdata[31:0]),
    .irq_ext_i,
    .db_valid_i(t_db_valid[0]), .db_ready_o(t_db_ready[0]), .db_data_i(t_db_data[63:0]),
    .evt_valid_i(t_evt_valid[0]), .evt_ready_o(t_evt_ready[0]), .evt_data_i(t_evt_data[EvW-1:0]),
    .rqd_valid_o(t_rqd_valid[0]), .rqd_ready_i(t_rqd_ready[0]), .rqd_data_o(t_rqd_data[RqdW-1:0]),
    .txd_valid_o(t_txd_valid[0]), .txd_ready_i(t_txd_ready[0]), .txd_data_o(t_txd_data[TxdW-1:0]),
    .rdd_valid_o(t_rdd_valid[0]), .rdd_ready_i(t_rdd_ready[0]), .rdd_data_o(t_rdd_data[RddW-1:0]),
    .tc_req_o(tc_req_o[0]), .tc_we_o(tc_we_o[0]), .tc_addr_o(tc_addr_o[11:0]), .tc_wdata_o(tc_wdata_o[31:0]),
    .tc_rdata_i(tc_rdata_i[31:0])
  );
  assign mmio_req = t_mmio_req[0];
  assign mmio_we = t_mmio_we[0];
  assign mmio_addr = t_mmio_addr[31:0];
  assign mmio_wdata = t_mmio_wdata[31:0];
  assign mmio_be = t_mmio_be[3:0];
  assign t_mmio_gnt[0] = mmio_gnt;
  assign t_mmio_rvalid[0] = mmio_rvalid;
  assign t_mmio_rdata[31:0] = mmio_rdata;

  for (genvar k = 1; k < NumCores; k++) begin : g_more
    rnic_fw_tile #(
      .ImemBytes(ImemBytes), .DmemBytes(DmemBytes), .NumQps(NumQps), .ImemInit(ImemInit),
      .DmemInit(DmemInit), .HartId(32'(k))
    ) u_tile (
      .clk_i, .rst_ni, .core_run_i(core_run),
      .ld_req_i(ld_req), .ld_we_i(ld_we), .ld_addr_i(ld_addr), .ld_wdata_i(win_wdata_i),
      .ld_rdata_o(t_ld_rdata[32*k +: 32]), .ld_rvalid_o(t_ld_rvalid[k]),
      .dbg_req_i(dbg_req), .dbg_addr_i({13'h0, wr_addr_q[18:0] & WinOffMask}),
      .dbg_rdata_o(t_dbg_rdata[32*k +: 32]), .dbg_rvalid_o(t_dbg_rvalid[k]),
      .mmio_req_o(t_mmio_req[k]), .mmio_we_o(t_mmio_we[k]), .mmio_addr_o(t_mmio_addr[32*k +: 32]),
      .mmio_wdata_o(t_mmio_wdata[32*k +: 32]), .mmio_be_o(t_mmio_be[4*k +: 4]), .mmio_gnt_i(t_mmio_gnt[k]),
      .mmio_rvalid_i(t_mmio_rvalid[k]), .mmio_rdata_i(t_mmio_rdata[32*k +: 32]),
      .irq_ext_i,
      .db_valid_i(t_db_valid[k]), .db_ready_o(t_db_ready[k]), .db_data_i(t_db_data[64*k +: 64]),
      .evt_valid_i(t_evt_valid[k]), .evt_ready_o(t_evt_ready[k]), .evt_data_i(t_evt_data[EvW*k +: EvW]),
      .rqd_valid_o(t_rqd_valid[k]), .rqd_ready_i(t_rqd_ready[k]), .rqd_data_o(t_rqd_data[RqdW*k +: RqdW]),
      .txd_valid_o(t_txd_valid[k]), .txd_ready_i(t_txd_ready[k]), .txd_data_o(t_txd_data[TxdW*k +: TxdW]),
      .rdd_valid_o(t_rdd_valid[k]), .rdd_ready_i(t_rdd_ready[k]), .rdd_data_o(t_rdd_data[RddW*k +: RddW]),
      .tc_req_o(tc_req_o[k]), .tc_we_o(tc_we_o[k]), .tc_addr_o(tc_addr_o[12*k +: 12]),
      .tc_wdata_o(tc_wdata_o[32*k +: 32]), .tc_rdata_i(tc_rdata_i[32*k +: 32])
    );
    // the per-core part of the MMIO space (the QP-table mailbox, the READ query,
    // hw_caps, tx_pause)
    // the byte enables: core k's registers take whole words; the valids: every tile answers the
    // load port in the same cycle, tile 0's valid stands for all
    logic unused_k;
    assign unused_k = ^{t_mmio_be[4*k +: 4], t_ld_rvalid[k], t_dbg_rvalid[k]};
    rnic_fw_core_mmio u_mmio (
      .clk_i, .rst_ni, .hw_caps_i, .tx_pause_i,
      .mmio_req_i(t_mmio_req[k]), .mmio_we_i(t_mmio_we[k]), .mmio_addr_i(t_mmio_addr[32*k +: 32]),
      .mmio_wdata_i(t_mmio_wdata[32*k +: 32]), .mmio_gnt_o(t_mmio_gnt[k]), .mmio_rvalid_o(t_mmio_rvalid[k]),
      .mmio_rdata_o(t_mmio_rdata[32*k +: 32]),
      .qpt_valid_o(t_qpt_valid[k]), .qpt_ready_i(t_qpt_ready[k]), .qpt_qpn_o(t_qpt_data[QptW*k +: 32]),
      .qpt_data_o(t_qpt_data[QptW*k + 32 +: QptW - 32]),
      .rdq_req_o(rdq_req[k]), .rdq_gnt_i(rdq_gnt[k]), .rdq_qpn_o(rdq_args[48*k +: 24]),
      .rdq_psn_o(rdq_args[48*k + 24 +: 24]), .rdq_hit_i, .rdq_nxt_i
    );
  end

  // ---- between the one engine port of each kind and the tiles --------------------------------
  // Receive events to the owner of their QP (every rx_event kind names one), doorbells of a QP
  // (sq_db, rq_db, bf_db) to its owner and the CQ doorbells to core 0; the tiles' descriptors
  // and QP-table entries round-robin into the engines' ports, one per grant. Wires at one core.
  rnic_qpn_route #(.NumOut(NumCores), .Width(EvW)) u_evt_route (
    .clk_i, .rst_ni, .in_valid_i(evt_valid_i), .in_ready_o(evt_ready_o), .in_data_i(evt_data_i),
    .in_qpn_i(evt_data_i[rnic_spec_pkg::RX_EVENT_QPN_LSB +: 24]), .in_any_i(1'b0),
    .out_valid_o(t_evt_valid), .out_ready_i(t_evt_ready), .out_data_o(t_evt_data)
  );
  logic [7:0] db_which;
  logic db_of_qp;
  assign db_which = db_data_i[rnic_spec_pkg::DB_EVENT_WHICH_LSB +: 8];
  assign db_of_qp = db_which == rnic_spec_pkg::DB_SQ_DB[9:2] || db_which == rnic_spec_pkg::DB_RQ_DB[9:2] ||
                    db_which == rnic_spec_pkg::DB_BF_DB[9:2];
  rnic_qpn_route #(.NumOut(NumCores), .Width(64)) u_db_route (
    .clk_i, .rst_ni, .in_valid_i(db_valid_i), .in_ready_o(db_ready_o), .in_data_i(db_data_i),
    .in_qpn_i({8'd0, db_data_i[32 + rnic_spec_pkg::DB_WORD_NUM_LSB +: 16]}), .in_any_i(!db_of_qp),
    .out_valid_o(t_db_valid), .out_ready_i(t_db_ready), .out_data_o(t_db_data)
  );
  // one descriptor or entry per transfer (last always set); the engines need no source yet
  logic [4:0] arb_last;
  logic [5*CoreW-1:0] arb_src;
  logic unused_arb;
  assign unused_arb = ^{arb_last, arb_src};
  rnic_rr_arb #(.NumIn(NumCores), .Width(TxdW)) u_txd_arb (
    .clk_i, .rst_ni, .in_valid_i(t_txd_valid), .in_ready_o(t_txd_ready), .in_data_i(t_txd_data),
    .in_last_i('1), .out_valid_o(txd_valid_o), .out_ready_i(txd_ready_i), .out_data_o(txd_data_o),
    .out_last_o(arb_last[0]), .out_src_o(arb_src[CoreW*0 +: CoreW])
  );
  rnic_rr_arb #(.NumIn(NumCores), .Width(RqdW)) u_rqd_arb (
    .clk_i, .rst_ni, .in_valid_i(t_rqd_valid), .in_ready_o(t_rqd_ready), .in_data_i(t_rqd_data),
    .in_last_i('1), .out_valid_o(rqd_valid_o), .out_ready_i(rqd_ready_i), .out_data_o(rqd_data_o),
    .out_last_o(arb_last[1]), .out_src_o(arb_src[CoreW*1 +: CoreW])
  );
  rnic_rr_arb #(.NumIn(NumCores), .Width(RddW)) u_rdd_arb (
    .clk_i, .rst_ni, .in_valid_i(t_rdd_valid), .in_ready_o(t_rdd_ready), .in_data_i(t_rdd_data),
    .in_last_i('1), .out_valid_o(rdd_valid_o), .out_ready_i(rdd_ready_i), .out_data_o(rdd_data_o),
    .out_last_o(arb_last[2]), .out_src_o(arb_src[CoreW*2 +: CoreW])
  );
  rnic_rr_arb #(.NumIn(NumCores), .Width(QptW)) u_qpt_arb (
    .clk_i, .rst_ni, .in_valid_i(t_qpt_valid), .in_ready_o(t_qpt_ready), .in_data_i(t_qpt_data),
    .in_last_i('1), .out_valid_o(qpt_valid_o), .out_ready_i(qpt_ready_i), .out_data_o({qpt_data_o, qpt_qpn_o}),
    .out_last_o(arb_last[3]), .out_src_o(arb_src[CoreW*3 +: CoreW])
  );
  // ---- the firmware's MMIO space: status/queue registers, and the DMA block and its buffer ----
  // Decode: 0x0xx registers, 0x1xx DMA (and its buffer page), 0x2xx and 0x5xx mailboxes (the
  // doorbells, once 0x3xx, are on each tile's tightly coupled window: rnic_fw_dbring).
  logic in_fw_block, sel_dma, sel_mkey, sel_qpt, sel_rdq, sel_reg;
  logic rdq_rvalid, rdq_rd0, rdq_wait0;
  logic [31:0] rdq_rdata;
  logic reg_gnt, reg_rvalid, dma_gnt, dma_rvalid;
  logic mkey_rvalid, qpt_rvalid;
  logic [31:0] reg_rdata, dma_rdata, mkey_rdata, qpt_rdata, mkey_arg;
  // The MMIO space (0x4000_0000 and up, rv_cpu) holds two 4 KiB pages, the registers at
  // FW_MMIO_BASE and the DMA staging buffer right above it: they are told apart by address bit 12
  // alone and alias every 8 KiB above. A 20-bit compare of the upper bits here sat behind the
  // core's address add on the longest path of the core (6 LUT levels of it).
  assign in_fw_block = mmio_addr[12] == rnic_spec_pkg::FW_MMIO_BASE[12];
  assign sel_dma = mmio_addr[12] == rnic_spec_pkg::FW_DMA_BUF_BASE[12] ||
                   (in_fw_block && mmio_addr[11:8] == 4'h1);
  assign sel_mkey = in_fw_block && mmio_addr[11:8] == 4'h2;
  assign sel_qpt = in_fw_block && mmio_addr[11:8] == 4'h5;
  // page 0x800: the READ progress query
  assign sel_rdq = in_fw_block && mmio_addr[11:8] == 4'h8;
  logic sel_eth, eth_rvalid;
  assign sel_eth = in_fw_block && mmio_addr[11:8] == 4'hB;
  assign eth_req_o = mmio_req && sel_eth;
  assign eth_we_o = mmio_we;
  assign eth_off_o = mmio_addr[7:0];
  assign eth_wdata_o = mmio_wdata;
  assign sel_reg = !(sel_dma || sel_mkey || sel_qpt || sel_rdq || sel_eth);
  // Mailboxes answer at once; only the DMA buffer and the register block may hold a request.
  // (and the READ query, which waits while another core's query has the engine: rdq_wait0)
  assign mmio_gnt = (sel_dma ? dma_gnt : sel_reg ? reg_gnt : mmio_req) && !rdq_wait0;
  // The core has at most one load outstanding, so the answers never collide. The register block,
  // the mailboxes and the READ query hold zero except in the cycle they answer, so their data
  // are ORed; only the DMA block and the Ethernet registers hold a value and are gated by their
  // valid (an AND-OR, not a chain of 11 muxes, between the answering flops and the core's load
  // bypass; the same data whenever a valid is high, and reg_rdata, as before, when none is).
  assign mmio_rvalid = reg_rvalid | dma_rvalid | mkey_rvalid | qpt_rvalid |
                       rdq_rvalid | eth_rvalid;
  assign mmio_rdata = reg_rdata | (dma_rvalid ? dma_rdata : 32'd0) | mkey_rdata |
                      qpt_rdata | rdq_rdata | (eth_rvalid ? eth_rdata_i : 32'd0);

  // the Ethernet registers answer a load from their register the next cycle
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) eth_rvalid <= 1'b0;
    else eth_rvalid <= mmio_req && sel_eth && !mmio_we;
  end

  // READ progress query: two written registers per core, the answer read combinationally from
  // the engine in the cycle of the read (rdq_rd_o: the engine evaluates the query only then).
  // One query per cycle: the cores' reads of the result go round-robin (rnic_rr_arb), a core
  // whose read is not granted waits (its MMIO load is not granted: rdq_wait0, rnic_fw_core_mmio).
  // One core: wires, its registers straight to the engine.
  logic [23:0] rdq_qpn0_q, rdq_psn0_q;
  assign rdq_rd0 = mmio_req && sel_rdq && !mmio_we && mmio_addr[7:0] == rnic_spec_pkg::FW_REG_RDQ_RESULT[7:0];
  assign rdq_req[0] = rdq_rd0;
  assign rdq_args[47:0] = {rdq_psn0_q, rdq_qpn0_q};
  assign rdq_wait0 = rdq_rd0 && !rdq_gnt[0];
  rnic_rr_arb #(.NumIn(NumCores), .Width(48)) u_rdq_arb (
    .clk_i, .rst_ni, .in_valid_i(rdq_req), .in_ready_o(rdq_gnt), .in_data_i(rdq_args),
    .in_last_i('1), .out_valid_o(rdq_rd_o), .out_ready_i(1'b1), .out_data_o({rdq_psn_o, rdq_qpn_o}),
    .out_last_o(arb_last[4]), .out_src_o(arb_src[CoreW*4 +: CoreW])
  );
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rdq_qpn0_q <= '0;
      rdq_psn0_q <= '0;
      rdq_rvalid <= 1'b0;
      rdq_rdata <= '0;
    end else begin
      rdq_rvalid <= mmio_req && sel_rdq && !mmio_we && !rdq_wait0;
      rdq_rdata <= '0;
      if (mmio_req && sel_rdq && mmio_we && mmio_addr[7:0] == rnic_spec_pkg::FW_REG_RDQ_QPN[7:0])
        rdq_qpn0_q <= mmio_wdata[23:0];
      if (mmio_req && sel_rdq && mmio_we && mmio_addr[7:0] == rnic_spec_pkg::FW_REG_RDQ_PSN[7:0])
        rdq_psn0_q <= mmio_wdata[23:0];
      if (rdq_rd0 && rdq_gnt[0])
        rdq_rdata <= {rdq_hit_i, 7'd0, rdq_nxt_i};
      if (mmio_req && sel_rdq && !mmio_we && mmio_addr[7:0] == rnic_spec_pkg::FW_REG_TX_PAUSE[7:0])
        rdq_rdata <= {24'd0, tx_pause_i};
    end
  end

  rnic_fw_mbox #(
    .Words(rnic_spec_pkg::MPT_ENTRY_BYTES / 4), .DataOff(rnic_spec_pkg::FW_REG_MKEY_DATA),
    .CommitOff(rnic_spec_pkg::FW_REG_MKEY_COMMIT), .StatusOff(rnic_spec_pkg::FW_REG_MKEY_STATUS)
  ) u_mkey_mbox (
    .clk_i, .rst_ni, .mmio_req_i(mmio_req && sel_mkey), .mmio_we_i(mmio_we), .mmio_off_i(mmio_addr[7:0]),
    .mmio_wdata_i(mmio_wdata), .mmio_rvalid_o(mkey_rvalid), .mmio_rdata_o(mkey_rdata),
    .out_valid_o(mkey_wr_valid_o), .out_ready_i(mkey_wr_ready_i), .out_arg_o(mkey_arg),
    .out_data_o(mkey_wr_data_o)
  );
  rnic_fw_mbox #(
    .Words(rnic_spec_pkg::QPT_ENTRY_BYTES / 4), .DataOff(rnic_spec_pkg::FW_REG_QPT_DATA),
    .CommitOff(rnic_spec_pkg::FW_REG_QPT_COMMIT), .StatusOff(rnic_spec_pkg::FW_REG_QPT_STATUS)
  ) u_qpt_mbox (
    .clk_i, .rst_ni, .mmio_req_i(mmio_req && sel_qpt), .mmio_we_i(mmio_we), .mmio_off_i(mmio_addr[7:0]),
    .mmio_wdata_i(mmio_wdata), .mmio_rvalid_o(qpt_rvalid), .mmio_rdata_o(qpt_rdata),
    .out_valid_o(t_qpt_valid[0]), .out_ready_i(t_qpt_ready[0]), .out_arg_o(t_qpt_data[31:0]),
    .out_data_o(t_qpt_data[QptW-1:32])
  );
  assign mkey_wr_op_o = mkey_arg[31:30];
  assign mkey_wr_index_o = {2'b00, mkey_arg[29:0]};

  rnic_fw_dma #(.DataWidth(DataWidth), .TagWidth(TagWidth)) u_fw_dma (
    .clk_i, .rst_ni,
    .mmio_req_i(mmio_req && sel_dma), .mmio_we_i(mmio_we), .mmio_addr_i(mmio_addr),
    .mmio_wdata_i(mmio_wdata), .mmio_be_i(mmio_be), .mmio_gnt_o(dma_gnt), .mmio_rvalid_o(dma_rvalid),
    .mmio_rdata_o(dma_rdata),
    .rd_req_valid_o, .rd_req_ready_i, .rd_req_addr_o, .rd_req_len_o, .rd_req_tag_o,
    .rd_data_valid_i, .rd_data_ready_o, .rd_data_i, .rd_data_keep_i, .rd_data_last_i,
    .rd_cpl_valid_i, .rd_cpl_ready_o, .rd_cpl_status_i,
    .wr_req_valid_o, .wr_req_ready_i, .wr_req_addr_o, .wr_req_len_o, .wr_req_tag_o,
    .wr_data_valid_o, .wr_data_ready_i, .wr_data_o, .wr_cpl_valid_i, .wr_cpl_ready_o, .wr_cpl_status_i
  );

  rnic_fw_mmio u_fw_mmio (
    .hw_caps_i,
    .clk_i, .rst_ni, .clear_i(core_run && !run_q),
    .mmio_req_i(mmio_req && sel_reg), .mmio_we_i(mmio_we), .mmio_addr_i(mmio_addr),
    .mmio_wdata_i(mmio_wdata), .mmio_be_i(mmio_be), .mmio_gnt_o(reg_gnt), .mmio_rvalid_o(reg_rvalid),
    .mmio_rdata_o(reg_rdata),
    .cmdq_base_lo_i, .cmdq_base_hi_i, .cmdq_log_size_i, .cmdq_prod_i, .cmdq_cons_o,
    .eq_base_lo_i, .eq_base_hi_i, .eq_log_size_i, .eq_prod_o, .eq_notify_o, .dev_err_set_o,
    .fw_version_o, .fw_status_o, .log_base_o, .log_head_o, .log_size_o, .heartbeat_o,
    .panic_mcause_o, .panic_mepc_o, .panic_mtval_o, .panicked_o
  );

  assign fw_ready_o = core_run && fw_status_o == 32'(rnic_spec_pkg::FW_STATUS_READY);
  // cpu_status (spec layout cpu_status)
  rnic_spec_pkg::cpu_status_t cpu_st;
  always_comb begin
    cpu_st = '0;
    cpu_st.running  = core_run;
    cpu_st.accepted = accepted;
    cpu_st.refused  = refused;
    cpu_st.panicked = panicked_o;
  end
  assign cpu_status_o = cpu_st;

  logic unused_fw;
  assign unused_fw = ^img_version;
endmodule
