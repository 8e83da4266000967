// One soft core's tile of the firmware subsystem (docs/decisions/multi-core.md): the RV32IM core
// with its IMEM and DMEM and its tightly coupled window (the QP-context RAM, the receive-event
// ring, the doorbell ring, the descriptor mailboxes, and the registered request to the engines' page): everything
// a core has of its own. rnic_fw_subsys puts the shared part around it (the loader, the BAR0
// window, the firmware MMIO registers, the firmware DMA, the MMIO mailboxes). HartId is the
// core's mhartid, from which the firmware learns which QPs are its own (spec device.max_cores).
module rnic_fw_tile #(
  parameter int unsigned ImemBytes = 65536,
  parameter int unsigned DmemBytes = 65536,
  parameter int unsigned NumQps    = 128,   // QP-context RAM entries
  parameter              ImemInit  = "",
  parameter              DmemInit  = "",
  parameter logic [31:0] HartId    = 32'd0
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        core_run_i,      // the core's synchronous reset (low: held; ld_* own the memories)
  // load port into IMEM/DMEM while the core is held (loader, BAR0 window): rv_cpu's rules
  input  logic        ld_req_i,
  input  logic        ld_we_i,
  input  logic [31:0] ld_addr_i,
  input  logic [31:0] ld_wdata_i,
  output logic [31:0] ld_rdata_o,
  output logic        ld_rvalid_o,
  // DMEM reads while the core runs (the memory's second port)
  input  logic        dbg_req_i,
  input  logic [31:0] dbg_addr_i,
  output logic [31:0] dbg_rdata_o,
  output logic        dbg_rvalid_o,
  // the core's MMIO port, decoded by rnic_fw_subsys
  output logic        mmio_req_o,
  output logic        mmio_we_o,
  output logic [31:0] mmio_addr_o,
  output logic [31:0] mmio_wdata_o,
  output logic [3:0]  mmio_be_o,
  input  logic        mmio_gnt_i,
  input  logic        mmio_rvalid_i,
  input  logic [31:0] mmio_rdata_i,
  input  logic        irq_ext_i,
  // this core's doorbells in (into the doorbell ring on the window): {value, db_event}
  input  logic        db_valid_i,
  output logic        db_ready_o,
  input  logic [63:0] db_data_i,
  // receive events in (into the ring on the window); descriptors out of the window's mailboxes
  input  logic        evt_valid_i,
  output logic        evt_ready_o,
  input  logic [rnic_spec_pkg::RX_EVENT_BYTES*8-1:0] evt_data_i,
  output logic        rqd_valid_o,
  input  logic        rqd_ready_i,
  output logic [rnic_spec_pkg::RQ_DESC_BYTES*8-1:0] rqd_data_o,
  output logic        txd_valid_o,
  input  logic        txd_ready_i,
  output logic [rnic_spec_pkg::TX_DESC_BYTES*8-1:0] txd_data_o,
  output logic        rdd_valid_o,
  input  logic        rdd_ready_i,
  output logic [rnic_spec_pkg::RD_DESC_BYTES*8-1:0] rdd_data_o,
  // the engines' page of the window (spec fw_tc): byte offset in the 4 KiB page, from registers;
  // a load's data comes from a register of the engine the next cycle
  output logic        tc_req_o,
  output logic        tc_we_o,
  output logic [11:0] tc_addr_o,
  output logic [31:0] tc_wdata_o,
  input  logic [31:0] tc_rdata_i
);
  // Retirement trace: used by the CPU testbenches, left for a debug probe here.
  logic tr_valid, tr_rd_we, tr_trap;
  logic [31:0] tr_pc, tr_insn, tr_rd_wdata;
  logic [4:0] tr_rd;

  // The engines' window is 4 KiB, then the descriptor mailboxes' page (offset bit 12; both
  // aliased up to fw_tc.qpc_base); the engines take whole words (stores are 32-bit). From
  // qpc_base on: the QP-context RAM, byte-enabled like DMEM.
  // The engines' request leaves here from registers (eq_*_q, the cycle after the core presents
  // it): no path runs from the core's address add through an engine's decode into its state
  // (issue 16: that was the core's longest path, 10-12 LUT levels into wqe_fetch, cqe_writer,
  // doorbell_bar and the DMA engine). A store is posted (the engine takes it one cycle later; a
  // later access reaches the engine later still, so program order holds); a load's data comes
  // from the engine's register the cycle after that, two cycles after the request
  // (tc_rvalid). The QP-context RAM, a block RAM whose address port is its own register, keeps
  // the one-cycle load.
  logic [31:0] tc_addr_full, tc_wdata, qpc_rdata;
  logic [3:0]  tc_be;
  logic        tc_req, tc_go, tc_we, sel_qpc, tc_rvalid;
  logic [31:0] tc_rdata;
  logic        eq_go_q, eq_we_q, eng_rv_q, mb_rv_q;
  logic        eq_req, mb_req;
  // a QP-context RAM load's data is valid the cycle after its request: from a load accepted
  // (qpc_ld_q) and an address in the RAM (qpc_ra_q: its region bits and the RAM's bit, raw from
  // the address add, decoded the cycle after), registered apart (see tc_go_o and ra_q in rv_cpu)
  logic        qpc_ld_q, qpc_rv, qpc_at;
  logic [4:0]  qpc_ra_q;
  logic [11-$clog2(rnic_spec_pkg::FW_TC_EVR_NUM * rnic_spec_pkg::RX_EVENT_BYTES):0] evr_ra_q;
  logic [11:0] eq_addr_q;
  logic [31:0] eq_wdata_q;
  // qpc_base is a power of two above the engines' window: its one bit selects the RAM
  localparam logic [31:0] QpcBase = rnic_spec_pkg::FW_TC_QPC_BASE;
  assign sel_qpc = |(tc_addr_full & QpcBase);
  // the receive-event ring's slots (fw_tc evr_base, 256-byte aligned, below qpc_base): read by
  // their own port from the core's address, one-cycle loads like the QP-context RAM's; not
  // passed to the engines (their answer would come a cycle after the ring's)
  localparam int unsigned EvrAw = $clog2(rnic_spec_pkg::FW_TC_EVR_NUM * rnic_spec_pkg::RX_EVENT_BYTES);
  localparam logic [11:0] EvrBase = rnic_spec_pkg::FW_TC_EVR_BASE;
  // Which target a request addresses is decoded the cycle after, from its address bits
  // registered raw (eq_hi_q, eq_qpc_q, eq_mbp_q and eq_addr_q, loaded with the request, eq_go_q:
  // any data request), as rv_cpu's mq_go_q/ra_q do: no logic between the core's address add and
  // these flops. A request flag computed in the request's own cycle put the core's request logic
  // and the window decode behind the add in one cone, which ABC mapped up to 10 LUT levels from
  // the IMEM read (session 24: eq_req_q/mb_req_q). The engines get the decoded request (from
  // flops: two LUT levels) in the same cycle as before.
  logic [3:0] eq_hi_q;   // the region bits [31:28]
  logic       eq_qpc_q;  // the QP-context RAM's bit
  logic       eq_mbp_q;  // offset bit 12 (the mailboxes' page)
  logic       sel_evr, sel_mb, sel_dbr, eq_win, dbr_req;
  // the doorbell ring's region (fw_tc dbr_base: 256 bytes in the mailboxes' page): read by its
  // own port from the core's address like the event ring's slots; its dbr_cons store from the
  // registered request; left out of the mailboxes' and the engines' requests
  localparam logic [12:0] DbrBase = rnic_spec_pkg::FW_TC_DBR_BASE;
  logic [4:0] dbr_ra_q;   // address bits [12:8] of the request, raw
  // the receive-event ring's slots (the ring answers the load itself, a cycle earlier than the
  // engines would), the mailboxes' page (offset bit 12; the ring's slots alias into it, as into
  // the rest of the window, so a load has exactly one answer)
  assign eq_win = eq_go_q && eq_hi_q == rv_pkg::TcBase[31:28] && !eq_qpc_q;
  assign sel_evr = eq_addr_q[11:EvrAw] == EvrBase[11:EvrAw];
  assign sel_mb  = eq_mbp_q == rnic_spec_pkg::FW_TC_MBOX_PAGE[12];
  assign sel_dbr = eq_mbp_q == DbrBase[12] && eq_addr_q[11:8] == DbrBase[11:8];
  assign eq_req  = eq_win && !sel_evr && !sel_mb;
  assign mb_req  = eq_win && !sel_evr && !sel_dbr && sel_mb;
  assign dbr_req = eq_win && sel_dbr && eq_we_q;
  always_ff @(posedge clk_i) begin
    if (!core_run_i) begin
      eq_go_q <= 1'b0;
      qpc_ld_q <= 1'b0;
      eng_rv_q <= 1'b0;
      mb_rv_q <= 1'b0;
    end else begin
      eq_go_q <= tc_go;
      qpc_ld_q <= tc_go && !tc_we;
      eng_rv_q <= eq_req && !eq_we_q;
      mb_rv_q <= mb_req && !eq_we_q;
    end
    qpc_ra_q <= {tc_addr_full[31:28], sel_qpc};
    evr_ra_q <= tc_addr_full[11:EvrAw];
    dbr_ra_q <= tc_addr_full[12:8];
    // loaded by a data request (any address) so an idle core does not toggle the engines'
    // inputs
    if (tc_go) begin
      eq_we_q    <= tc_we;
      eq_addr_q  <= tc_addr_full[11:0];
      eq_wdata_q <= tc_wdata;
      eq_hi_q    <= tc_addr_full[31:28];
      eq_qpc_q   <= sel_qpc;
      eq_mbp_q   <= tc_addr_full[12];
    end
  end
  assign tc_req_o = eq_req;
  assign tc_we_o = eq_we_q;
  assign tc_wdata_o = eq_wdata_q;
  assign tc_addr_o = eq_addr_q;
  logic unused_tc;
  assign unused_tc = ^{tc_req, tc_addr_full[31:13], tr_valid, tr_rd_we, tr_trap, tr_pc, tr_insn, tr_rd_wdata, tr_rd};
  // the receive-event ring: its slots read from the core's address (loaded by any data
  // request, like eq_*_q), its counts on the registered request like the engines' registers
  logic [31:0] evr_rdata, evr_reg_rdata;
  logic        evr_rv;
  rnic_fw_evring u_evring (
    .clk_i, .rst_ni, .in_valid_i(evt_valid_i), .in_ready_o(evt_ready_o), .in_data_i(evt_data_i),
    .rd_en_i(tc_go), .rd_addr_i(tc_addr_full[EvrAw-1:2]), .rd_data_o(evr_rdata),
    .tc_req_i(eq_req), .tc_we_i(eq_we_q), .tc_addr_i(eq_addr_q), .tc_wdata_i(eq_wdata_q),
    .tc_rdata_o(evr_reg_rdata)
  );
  // the doorbell ring: its slots and counts read from the core's address (one-cycle loads)
  logic [31:0] dbr_rdata;
  logic        dbr_rv;
  rnic_fw_dbring u_dbring (
    .clk_i, .rst_ni, .in_valid_i(db_valid_i), .in_ready_o(db_ready_o), .in_data_i(db_data_i),
    .rd_en_i(tc_go), .rd_addr_i(tc_addr_full[7:2]), .rd_data_o(dbr_rdata),
    .wr_i(dbr_req), .wr_off_i(eq_addr_q[7:0]), .wr_data_i(eq_wdata_q)
  );
  rnic_qpc_ram #(.NumQps(NumQps), .EntryBytes(rnic_spec_pkg::FW_TC_QPC_ENTRY_BYTES)) u_qpc (
    .clk_i, .go_i(tc_go), .we_i(tc_we), .be_i(tc_be), .addr_i(tc_addr_full & (QpcBase - 32'd1)),
    .wdata_i(tc_wdata), .sel_i(qpc_at), .rdata_o(qpc_rdata)
  );
  // a load's data: the RAM's in the cycle its valid (qpc_rv) says so, else the engine's
  // register (the core has one load outstanding; no register loaded from the request's address
  // and the request in one cone, issue 16)
  assign qpc_at = qpc_ra_q[4:1] == rv_pkg::TcBase[31:28] && qpc_ra_q[0];
  assign qpc_rv = qpc_ld_q && qpc_at;
  assign evr_rv = qpc_ld_q && qpc_ra_q[4:1] == rv_pkg::TcBase[31:28] && !qpc_ra_q[0] && evr_ra_q == EvrBase[11:EvrAw];
  assign dbr_rv = qpc_ld_q && qpc_ra_q[4:1] == rv_pkg::TcBase[31:28] && !qpc_ra_q[0] && dbr_ra_q == DbrBase[12:8];
  // the mailboxes' status picked by its own valid: the engines' answer registers hold their
  // last answer while the core loads from the mailboxes' page
  logic [31:0] mb_rdata;
  assign tc_rdata = qpc_rv ? qpc_rdata : evr_rv ? evr_rdata : dbr_rv ? dbr_rdata : mb_rv_q ? mb_rdata :
                    tc_rdata_i | evr_reg_rdata;
  assign tc_rvalid = qpc_rv | evr_rv | dbr_rv | eng_rv_q | mb_rv_q;

  // ---- the descriptor mailboxes on the tightly coupled window (spec fw_tc mbox_regs) ----------
  // posted one-cycle stores of the data words and the commit, two-cycle loads of the status
  rnic_fw_desc_mbox u_desc_mbox (
    .clk_i, .rst_ni, .tc_req_i(mb_req), .tc_we_i(eq_we_q), .tc_addr_i(eq_addr_q), .tc_wdata_i(eq_wdata_q),
    .tc_rdata_o(mb_rdata), .txd_valid_o, .txd_ready_i, .txd_data_o, .rqd_valid_o, .rqd_ready_i, .rqd_data_o,
    .rdd_valid_o, .rdd_ready_i, .rdd_data_o
  );
  // The core's reset is core_run_i alone: the loader's state resets asynchronously with rst_ni,
  // so core_run_i is low whenever rst_ni is and `rst_ni && core_run_i` is the same signal. Without the
  // top-level input in it, the core's load muxes and stall logic leave Verilator's input region
  // (evaluated twice per cycle) for the clocked one; no cycle changes (docs/sim-speed.md, step 7).
  rv_cpu #(
    .ImemBytes(ImemBytes), .DmemBytes(DmemBytes), .ImemInit(ImemInit), .DmemInit(DmemInit), .HartId(HartId)
  ) u_cpu (
    .clk_i, .rst_ni(core_run_i),
    .ld_req_i, .ld_we_i, .ld_addr_i, .ld_wdata_i, .ld_rdata_o, .ld_rvalid_o,
    .dbg_req_i, .dbg_addr_i, .dbg_rdata_o, .dbg_rvalid_o,
    .mmio_req_o, .mmio_we_o, .mmio_addr_o, .mmio_wdata_o, .mmio_be_o, .mmio_gnt_i, .mmio_rvalid_i,
    .mmio_rdata_i,
    .tc_req_o(tc_req), .tc_go_o(tc_go), .tc_we_o(tc_we), .tc_addr_o(tc_addr_full), .tc_wdata_o(tc_wdata),
    .tc_be_o(tc_be), .tc_rvalid_i(tc_rvalid), .tc_rdata_i(tc_rdata),
    .irq_ext_i,
    .ret_valid_o(tr_valid), .ret_pc_o(tr_pc), .ret_insn_o(tr_insn), .ret_rd_o(tr_rd),
    .ret_rd_we_o(tr_rd_we), .ret_rd_wdata_o(tr_rd_wdata), .ret_trap_o(tr_trap)
  );

endmodule
