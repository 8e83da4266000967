// cqe_writer: turns the firmware's completion records into CQEs in host memory and writes the
// event queue. The firmware decides each completion and stores a cq_rec into a ring in its
// tightly coupled window; this engine keeps each CQ's ring state (base, size, producer, last
// known consumer, arming, error), holds a record whose CQ looks full until the firmware answers
// (a newer consumer, or error: dropped), adds the owner bit of the pass, DMA-writes the CQE, and
// writes the EQ entries: its own completion events of armed CQs and the firmware's event records,
// each only after the B response of every CQE it follows. Layouts and registers: spec fw_tc,
// cq_rec, cqw_cmd, eq_entry; README.md.
// Several soft cores (docs/decisions/multi-core.md, phase 3): each core has its own record ring,
// event-record ring and their counts on its own tightly coupled page; a round-robin arbiter takes
// one record (or one event record) per grant. The per-CQ state, the CQ configuration, the
// commands, the hold and the error FIFO are one, core 0's. NumCores = 1 is the one-core engine.
// The send-retirement engine (rtl/sq_retire) is one more record source (cqr_*): its records go
// through the same sequencer, alternating with the rings' when both wait; cqw_cons counts the
// rings' records only (docs/decisions/send-retire.md, decision 9).
module cqe_writer #(
  parameter int unsigned DataWidth = 512,
  parameter int unsigned TagWidth  = 8,
  parameter int unsigned NumCq     = 128,
  parameter int unsigned NumCores  = 1      // 1, 2 or 4
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // tightly coupled slave per core (soft-core window fw_tc, byte offset; core k at bits k*W): a
  // store takes effect at its request; a load's data is valid the next cycle, from a register
  input  logic [NumCores-1:0]    tc_req_i,
  input  logic [NumCores-1:0]    tc_we_i,
  input  logic [NumCores*12-1:0] tc_addr_i,
  input  logic [NumCores*32-1:0] tc_wdata_i,
  output logic [NumCores*32-1:0] tc_rdata_o,
  // the host's event queue (registers eq.*) and what the engine tells the interrupt logic
  input  logic [31:0]            eq_base_lo_i,
  input  logic [31:0]            eq_base_hi_i,
  input  logic [31:0]            eq_log_size_i,
  output logic [31:0]            eq_prod_o,       // eq.eq_prod
  output logic                   eq_notify_o,     // an entry landed: MSI-X if the host armed the EQ
  output logic                   eq_wr_err_o,     // an entry write failed: ctrl.dev_err EQ_WRITE
  // dma_engine write client
  output logic                   wr_req_valid_o,
  input  logic                   wr_req_ready_i,
  output logic [63:0]            wr_req_addr_o,
  output logic [31:0]            wr_req_len_o,
  output logic [TagWidth-1:0]    wr_req_tag_o,
  output logic                   wr_data_valid_o,
  input  logic                   wr_data_ready_i,
  output logic [DataWidth-1:0]   wr_data_o,
  input  logic                   wr_cpl_valid_i,
  output logic                   wr_cpl_ready_o,
  input  logic [1:0]             wr_cpl_status_i,
  // the send-retirement engine's completion records (cq_rec; taken when written or dropped,
  // held like a ring's record while its CQ looks full)
  input  logic                   cqr_valid_i,
  output logic                   cqr_ready_o,
  input  logic [rnic_spec_pkg::CQ_REC_BYTES*8-1:0] cqr_i
);
  localparam int unsigned RecNum   = rnic_spec_pkg::FW_TC_CQ_REC_NUM;
  localparam int unsigned RecAw    = $clog2(RecNum);
  localparam int unsigned RecBytes = rnic_spec_pkg::CQ_REC_BYTES;   // = CQE_BYTES
  localparam int unsigned RecWords = RecBytes / 4;
  localparam int unsigned EvNum    = rnic_spec_pkg::FW_TC_EV_REC_NUM;
  localparam int unsigned EvAw     = $clog2(EvNum);
  localparam int unsigned EvBytes  = rnic_spec_pkg::EQ_ENTRY_BYTES;
  localparam int unsigned Bpb      = DataWidth / 8;
  localparam int unsigned Beats    = (RecBytes + Bpb - 1) / Bpb;
  localparam int unsigned EvBeats  = (EvBytes + Bpb - 1) / Bpb;
  localparam int unsigned BeatW    = (Beats > 1) ? $clog2(Beats) : 1;
  localparam int unsigned CqAw     = $clog2(NumCq);
  localparam int unsigned IdxW     = rnic_spec_pkg::CQW_INDEX_BITS;  // producer/consumer mod 2^IdxW
  // per-CQ state: ring base (bits 63:5), log2 size, producer and consumer mod 2^IdxW, armed, error
  localparam int unsigned CqeSh    = $clog2(RecBytes);                  // a CQE's bytes: ring addresses
  localparam int unsigned BaseW    = 64 - CqeSh;                        // ring base, CQE aligned
  localparam int unsigned LogW     = rnic_spec_pkg::CQW_CQ_CFG_LOG_SIZE_W;
  localparam int unsigned CqStW    = BaseW + LogW + IdxW + IdxW + 2 + 1;
  localparam int unsigned CntW     = rnic_spec_pkg::CQW_COUNT_BITS;  // record counters (>> RecNum)
  localparam int unsigned CqnLsb   = rnic_spec_pkg::CQ_REC_CQN_LSB;
  localparam int unsigned StLsb    = rnic_spec_pkg::CQE_STATUS_LSB;
  localparam int unsigned SolBit   = rnic_spec_pkg::CQE_FLAGS_LSB + 32'(rnic_spec_pkg::CQE_FLAG_SOLICITED);
  localparam logic [1:0]  ArmNone = 2'd0, ArmAny = 2'd1, ArmSol = 2'd2;

  // a record's source: core k's ring is k, the send-retirement engine NumCores
  localparam int unsigned ArbW     = NumCores > 1 ? $clog2(NumCores) : 1;
  localparam int unsigned SrcW     = $clog2(NumCores + 1);
  localparam logic [SrcW-1:0] EngSrc = SrcW'(NumCores);
  // CQE writes in flight: every ring's records, and as many of the engine's at most (a power of two)
  localparam int unsigned EngMax   = RecNum * NumCores;
  localparam int unsigned InflN    = 2 * EngMax;
  localparam int unsigned IfAw     = $clog2(InflN);

  // core 0's port also carries the CQ configuration, the commands and the error FIFO
  logic            t0_st, t0_ld;
  logic [11:0]     t0_addr;
  logic [31:0]     t0_wdata;
  assign t0_st    = tc_req_i[0] && tc_we_i[0];
  assign t0_ld    = tc_req_i[0] && !tc_we_i[0];
  assign t0_addr  = tc_addr_i[11:0];
  assign t0_wdata = tc_wdata_i[31:0];

  // the sequencer's view of the cores' rings
  logic [NumCores-1:0]            rec_pend, ev_pend, drained;
  logic [NumCores*RecBytes*8-1:0] rec_rows;     // each core's record at its take count
  logic [NumCores*96-1:0]         ev_rows;      // each core's event record at its take count
  logic [RecBytes*8-1:0]          rec_row;
  logic [95:0]                    ev_row;
  logic [SrcW-1:0]                rec_src, rec_src_q, cpl_src;
  logic [ArbW-1:0]                arb_src, ev_src, ev_src_q;
  logic                           arb_valid;
  // the engine's record: taken in its turn (alternating with the rings when both wait) while
  // fewer than EngMax of its CQE writes await their B response
  logic                           eng_pick, eng_turn_q, eng_room;
  logic [IfAw:0]                  eng_infl_q;
  logic                           rec_ok, ev_ok, rec_take, rec_issue, evc_inc;
  logic [NumCores*32-1:0]         c_rdata;      // each core's own registers (counts)
  logic [31:0]                    sh_rdata;     // core 0's registers of the shared state

  logic                  rd_en;
  logic [RecBytes*8-1:0] rec_q;
  logic [95:0]           evr_q;                // the record being taken: type/subtype, handle, data
  logic                  ev_rd;

  // ---- registers on core 0's tightly coupled port (the shared state)
  logic [IfAw:0]   infl_cnt_q;              // CQE writes issued, B response not yet in
  logic [CntW-1:0] err_q, drop_q;
  logic [CntW-1:0] eq_err_q, eq_done_q;
  logic [31:0]     eq_prod_q;
  // error FIFO: the CQ of every CQE write answered with an error, oldest first
  logic [CqAw-1:0] ef_mem [RecNum];
  logic [RecAw-1:0] ef_rd_q, ef_wr_q;
  logic [RecAw:0]  ef_cnt_q;
  logic            ef_push, ef_pop;
  // CQN and core of each CQE write in flight (issued in order, completed in order)
  logic [CqAw-1:0] infl_cqn [InflN];
  logic [SrcW-1:0] infl_src [InflN];
  logic [IfAw-1:0] if_wr_q, if_rd_q;
  logic [31:0]     base_lo_q, base_hi_q;
  logic            cfg_pend_q;
  logic [CqAw-1:0] cfg_cqn_q;
  logic [LogW-1:0] cfg_log_q;
  // firmware commands (cqw_cmd) and the held record
  logic            cmd_pend_q;
  logic [CqAw-1:0] cmd_cqn_q;
  logic [2:0]      cmd_op_q;
  logic [IdxW-1:0] cmd_arg_q;
  logic            held_q;
  logic [CqAw-1:0] held_cqn_q;
  logic [IdxW-1:0] held_pi_q;
  // a completion event of the engine's own (an armed CQ), written before anything else
  logic            ce_pend_q;
  logic [CqAw-1:0] ce_cqn_q;
  logic            ev_fw_q;                 // the event being written is the firmware's
  logic            eq_infl_q;               // the EQ entry write awaits its B response
  logic            idle;
  logic            cqe_cpl;

  // a hold is shown only while no command is pending: the answer just given may release it
  logic held_vis;
  assign held_vis = held_q && !cmd_pend_q;

  // the loadable registers in their spec layouts, each built in its own case arm: in simulation
  // only the addressed one is assembled, not all four on every clock edge (docs/sim-speed.md,
  // step 20); Yosys maps the same function
  always_comb begin
    sh_rdata = 32'd0;
    unique case (t0_addr)
      rnic_spec_pkg::FW_TC_CQW_STATUS: begin
        sh_rdata[rnic_spec_pkg::CQW_STATUS_ERRORS_LSB +: rnic_spec_pkg::CQW_STATUS_ERRORS_W] =
          rnic_spec_pkg::CQW_STATUS_ERRORS_W'(err_q);
        sh_rdata[rnic_spec_pkg::CQW_STATUS_IDLE_LSB] = idle;
        sh_rdata[rnic_spec_pkg::CQW_STATUS_HELD_LSB] = held_vis;
        sh_rdata[rnic_spec_pkg::CQW_STATUS_CMD_LSB]  = cmd_pend_q || cfg_pend_q;
      end
      rnic_spec_pkg::FW_TC_CQW_ERR_CQN: begin
        sh_rdata[rnic_spec_pkg::CQW_ERR_CQN_CQN_LSB +: CqAw] = ef_mem[ef_rd_q];
        sh_rdata[rnic_spec_pkg::CQW_ERR_CQN_VALID_LSB]      = ef_cnt_q != '0;
      end
      rnic_spec_pkg::FW_TC_CQW_FULL: begin
        sh_rdata[rnic_spec_pkg::CQW_FULL_CQN_LSB +: CqAw] = held_cqn_q;
        sh_rdata[rnic_spec_pkg::CQW_FULL_HELD_LSB]       = held_vis;
      end
      rnic_spec_pkg::FW_TC_CQW_FULL_PI: sh_rdata = 32'(held_pi_q);
      rnic_spec_pkg::FW_TC_CQW_DROPPED: sh_rdata = 32'(drop_q);
      rnic_spec_pkg::FW_TC_EQW_STATUS: begin
        sh_rdata[rnic_spec_pkg::EQW_STATUS_ERRORS_LSB +: rnic_spec_pkg::EQW_STATUS_ERRORS_W] =
          rnic_spec_pkg::EQW_STATUS_ERRORS_W'(eq_err_q);
        sh_rdata[rnic_spec_pkg::EQW_STATUS_WRITTEN_LSB +: rnic_spec_pkg::EQW_STATUS_WRITTEN_W] =
          rnic_spec_pkg::EQW_STATUS_WRITTEN_W'(eq_done_q);
      end
      default: sh_rdata = 32'd0;
    endcase
  end
  logic unused_t0;
  assign unused_t0 = t0_ld;

  // ---- per core: the record ring (RecWords lanes of 32-bit words, written by the core, read as
  // rows), the event-record ring (words 0-2 of each eq_entry-shaped record) and their counts
  for (genvar k = 0; k < NumCores; k++) begin : g_core
    logic        st, ld;
    logic [11:0] addr;
    logic [31:0] wdata;
    assign st    = tc_req_i[k] && tc_we_i[k];
    assign ld    = tc_req_i[k] && !tc_we_i[k];
    assign addr  = tc_addr_i[12*k +: 12];
    assign wdata = tc_wdata_i[32*k +: 32];
    logic [CntW-1:0] prod_q, take_q;        // records written by the firmware / taken (written or dropped)
    logic [CntW-1:0] evp_q, evc_q;          // event records: written / taken
    logic [IfAw:0]   infl_q;                // this core's CQE writes awaiting their B response
    logic [11:0]     rec_off, ev_off;
    logic            rec_wr, ev_wr;
    assign rec_off = addr - rnic_spec_pkg::FW_TC_CQ_REC_BASE;
    assign rec_wr  = st && rec_off < 12'(RecNum * RecBytes);
    assign ev_off  = addr - rnic_spec_pkg::FW_TC_EV_REC_BASE;
    assign ev_wr   = st && ev_off < 12'(EvNum * EvBytes);
    for (genvar l = 0; l < RecWords; l++) begin : g_lane
      logic [31:0] mem [RecNum];
      always_ff @(posedge clk_i) begin
        if (rec_wr && rec_off[4:2] == 3'(l)) mem[rec_off[RecAw+4:5]] <= wdata;
      end
      assign rec_rows[(k*RecWords + l)*32 +: 32] = mem[take_q[RecAw-1:0]];
    end
    for (genvar l = 0; l < 3; l++) begin : g_ev_lane
      logic [31:0] mem [EvNum];
      always_ff @(posedge clk_i) begin
        if (ev_wr && ev_off[3:2] == 2'(l)) mem[ev_off[EvAw+3:4]] <= wdata;
      end
      assign ev_rows[(k*3 + l)*32 +: 32] = mem[evc_q[EvAw-1:0]];
    end

    // the CQE-record count each event record waits for (cqw_prod when eqw_prod counted it)
    // (one flat vector, CntW bits per entry, written under one condition: Verilator keeps one
    // shadow copy instead of a delayed-write flag per element; docs/sim-speed.md)
    logic [EvNum*CntW-1:0] ev_mark;
    // this core's event at evc_q may go once every CQE record of its ring before it was taken
    // (registered: a cycle late is safe, except right after evc_q moved, when it is masked)
    logic [CntW-1:0] mark_gap;
    logic            fw_ev_rdy_q, evc_moved_q;
    assign mark_gap   = take_q - ev_mark[evc_q[EvAw-1:0]*CntW +: CntW];
    assign rec_pend[k] = take_q != prod_q;
    assign ev_pend[k]  = fw_ev_rdy_q && !evc_moved_q;
    assign drained[k]  = take_q == prod_q && evc_q == evp_q;

    logic mine_rec, mine_ev, mine_cpl, inc, dec;
    assign mine_rec = rec_src_q == SrcW'(k);
    assign mine_ev  = ev_src_q == ArbW'(k);
    assign mine_cpl = cpl_src == SrcW'(k);
    assign inc = rec_issue && mine_rec;
    assign dec = cqe_cpl && mine_cpl;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        prod_q      <= '0;
        take_q      <= '0;
        evp_q       <= '0;
        evc_q       <= '0;
        infl_q      <= '0;
        fw_ev_rdy_q <= 1'b0;
        evc_moved_q <= 1'b0;
      end else begin
        fw_ev_rdy_q <= evc_q != evp_q && !mark_gap[CntW-1];
        evc_moved_q <= evc_inc && mine_ev;
        if (st && addr == rnic_spec_pkg::FW_TC_CQW_PROD) prod_q <= wdata[CntW-1:0];
        if (st && addr == rnic_spec_pkg::FW_TC_EQW_PROD) evp_q <= wdata[CntW-1:0];
        if (rec_take && mine_rec) take_q <= take_q + 1'b1;
        if (evc_inc && mine_ev) evc_q <= evc_q + 1'b1;
        if (inc && !dec) infl_q <= infl_q + 1'b1;
        else if (dec && !inc) infl_q <= infl_q - 1'b1;
      end
    end

    // event marks: every record eqw_prod adds waits for the CQE records handed before the store.
    // The differences are computed under the store's enable (locals of the process), so they are
    // not evaluated on every clock edge in simulation (docs/sim-speed.md, step 20).
    always_ff @(posedge clk_i) begin
      logic [CntW-1:0] ev_new;           // records the store adds
      logic [EvAw-1:0] ev_rel;           // an entry's place after the oldest (wraps at EvNum)
      if (st && addr == rnic_spec_pkg::FW_TC_EQW_PROD) begin
        ev_new = wdata[CntW-1:0] - evp_q;
        for (int i = 0; i < EvNum; i++) begin
          ev_rel = EvAw'(i) - evp_q[EvAw-1:0];
          if (CntW'(ev_rel) < ev_new) ev_mark[i*CntW +: CntW] <= prod_q;
        end
      end
    end

    // loads: the counts are each core's own; the shared registers answer on core 0's page only
    logic [CntW-1:0] cons;
    assign cons = take_q - CntW'(infl_q);
    logic [31:0] rdata_q;
    always_ff @(posedge clk_i) begin
      if (ld) begin
        unique case (addr)
          rnic_spec_pkg::FW_TC_CQW_PROD: rdata_q <= 32'(prod_q);
          rnic_spec_pkg::FW_TC_CQW_CONS: rdata_q <= 32'(cons);
          rnic_spec_pkg::FW_TC_EQW_PROD: rdata_q <= 32'(evp_q);
          rnic_spec_pkg::FW_TC_EQW_CONS: rdata_q <= 32'(evc_q);
          default:                       rdata_q <= k == 0 ? sh_rdata : 32'd0;
        endcase
      end
    end
    assign c_rdata[32*k +: 32] = rdata_q;
    logic unused;
    assign unused = ^{rec_off[1:0], rec_off[11:RecAw+5], ev_off[1:0], ev_off[11:EvAw+4], wdata[31:CntW]};
  end
  assign tc_rdata_o = c_rdata;

  // ---- the arbiters: one record / one event record per grant, round-robin between the cores.
  // Each offer is made only in a cycle the sequencer takes it (valid gated by rec_ok / ev_ok,
  // ready high), so the arbiter never holds a grant on a ring whose offer is withdrawn.
  logic [NumCores-1:0] rec_arb_rdy, ev_arb_rdy;   // always the grant: every offer is taken
  logic                rec_arb_last, ev_arb_last;
  logic                unused_arb;
  assign unused_arb = ^{rec_arb_rdy, ev_arb_rdy, rec_arb_last, ev_arb_last};
  rnic_rr_arb #(.NumIn(NumCores), .Width(RecBytes*8)) u_rec_arb (
    .clk_i, .rst_ni,
    .in_valid_i(rec_pend & {NumCores{rec_ok && !eng_pick}}), .in_ready_o(rec_arb_rdy), .in_data_i(rec_rows),
    .in_last_i({NumCores{1'b1}}),
    .out_valid_o(arb_valid), .out_ready_i(1'b1), .out_data_o(rec_row), .out_last_o(rec_arb_last), .out_src_o(arb_src)
  );
  rnic_rr_arb #(.NumIn(NumCores), .Width(96)) u_ev_arb (
    .clk_i, .rst_ni,
    .in_valid_i(ev_pend & {NumCores{ev_ok}}), .in_ready_o(ev_arb_rdy), .in_data_i(ev_rows),
    .in_last_i({NumCores{1'b1}}),
    .out_valid_o(ev_rd), .out_ready_i(1'b1), .out_data_o(ev_row), .out_last_o(ev_arb_last), .out_src_o(ev_src)
  );
  // the engine's record or the arbiter's: the multiplexer in front of rec_q
  assign eng_room = eng_infl_q < (IfAw+1)'(EngMax);
  // decided only with a record offered (the same function: cqr_valid_i is one of its terms), so
  // an idle engine costs one test per clock edge in simulation (docs/sim-speed.md, step 20)
  always_comb begin
    eng_pick = 1'b0;
    if (cqr_valid_i) eng_pick = rec_ok && eng_room && (rec_pend == '0 || eng_turn_q);
  end
  assign rd_en    = arb_valid || eng_pick;
  assign rec_src  = eng_pick ? EngSrc : SrcW'(arb_src);
  always_ff @(posedge clk_i) begin
    if (rd_en) begin
      rec_q     <= eng_pick ? cqr_i : rec_row;
      rec_src_q <= rec_src;
    end
    if (ev_rd) begin
      evr_q    <= ev_row;
      ev_src_q <= ev_src;
    end
  end

  // ---- per-CQ ring state: one RAM, read and written by the sequencer only
  logic [CqStW-1:0] cq_mem [NumCq];
  logic [CqStW-1:0] cq_q;             // state of the record's (or command's) CQ
  logic             cq_we;
  logic [CqAw-1:0]  cq_waddr, cq_raddr;
  logic             cq_re;
  logic [CqStW-1:0] cq_wdata;
  always_ff @(posedge clk_i) begin
    if (cq_we) cq_mem[cq_waddr] <= cq_wdata;
    if (cq_re) cq_q <= cq_mem[cq_raddr];
  end

  typedef enum logic [3:0] {Idle, RdRec, RdCq, Chk, Req, Data, CmdRd, CmdCq, CmdWr, EvWait, EvFmt,
                            EvReq, EvData, EvCpl} state_e;
  state_e          state_q;
  logic [BeatW-1:0] beat_q, last_beat_q;
  logic [CqAw-1:0] cqn_q;
  logic [Beats*DataWidth-1:0] cqe_q;
  logic [63:0]     addr_q;
  logic [31:0]     len_q;

  // the CQ's state as read
  logic [BaseW-1:0] st_base;
  logic [LogW-1:0] st_log;
  logic [IdxW-1:0] st_pi, st_ci, st_mask;
  logic [1:0]  st_arm;
  logic        st_err;
  assign {st_base, st_log, st_pi, st_ci, st_arm, st_err} = cq_q;
  assign st_mask = IdxW'((IdxW'(1) << st_log) - IdxW'(1));

  // registered between RdCq/CmdCq and the decision cycle: the ring's fill, the consumer's moves
  logic [IdxW-1:0] fill_q, size_q, d_arg_q, d_pi_q;
  logic        ne_arg_q, ne_ci_q;            // producer != the argument / != the known consumer
  logic        room, ci_ok, evt_now;
  assign room  = fill_q < size_q;
  assign ci_ok = d_arg_q <= d_pi_q;            // the new consumer lies between the old and the producer

  assign idle = state_q == Idle && &drained && !cqr_valid_i && infl_cnt_q == '0 && !cfg_pend_q && !cmd_pend_q &&
                !ce_pend_q && !held_q;
  // a core's event record goes before records (as its mark requires); the arbiters offer in Idle
  assign ev_ok  = state_q == Idle && !cfg_pend_q && !ce_pend_q && !cmd_pend_q;
  assign rec_ok = ev_ok && ev_pend == '0 && !held_q;
  // the sequencer's moves on the cores' counts
  assign rec_take  = state_q == Chk && (st_err || room);       // written or dropped
  assign rec_issue = state_q == Chk && !st_err && room;
  assign evc_inc   = (state_q == EvWait && infl_cnt_q == '0 && !eq_on && ev_fw_q) ||
                     (state_q == EvCpl && wr_cpl_valid_i && ev_fw_q);
  assign cpl_src   = infl_src[if_rd_q];
  // the engine's record is consumed when the ring's would be: written or dropped
  assign cqr_ready_o = rec_take && rec_src_q == EngSrc;

  // the record's event rule: an armed CQ's next CQE (any), or its next solicited or failed one
  assign evt_now = st_arm == ArmAny ||
                   (st_arm == ArmSol && (rec_q[SolBit] || rec_q[StLsb +: 8] != rnic_spec_pkg::WC_STATUS_SUCCESS));

  // next-state values of the CQ at the decision cycles
  logic [1:0]  cmd_arm;
  logic [IdxW-1:0] cmd_ci;
  logic cmd_learn;
  assign cmd_learn = ci_ok && cmd_op_q != 3'(rnic_spec_pkg::CQW_OP_ERR);
  assign cmd_ci  = cmd_learn ? cmd_arg_q : st_ci;
  assign cmd_arm = cmd_op_q == 3'(rnic_spec_pkg::CQW_OP_ARM_ANY) ? ArmAny :
                   cmd_op_q == 3'(rnic_spec_pkg::CQW_OP_ARM_SOLICITED) ? ArmSol : st_arm;
  logic cmd_is_arm, arm_now;
  assign cmd_is_arm = cmd_op_q == 3'(rnic_spec_pkg::CQW_OP_ARM_ANY) ||
                      cmd_op_q == 3'(rnic_spec_pkg::CQW_OP_ARM_SOLICITED);
  // "arm, poll once, sleep": CQEs past the consumer the host armed at give the event at once
  assign arm_now = cmd_op_q == 3'(rnic_spec_pkg::CQW_OP_ARM_ANY) && (cmd_learn ? ne_arg_q : ne_ci_q);

  always_comb begin
    cq_we    = 1'b0;
    cq_waddr = cfg_cqn_q;
    cq_wdata = {base_hi_q, base_lo_q[31:CqeSh], cfg_log_q, IdxW'(0), IdxW'(0), ArmNone, 1'b0};
    cq_re    = 1'b0;
    cq_raddr = rec_q[CqnLsb +: CqAw];
    if (state_q == Idle && cfg_pend_q) begin
      cq_we = 1'b1;
    end else if (state_q == Chk && !st_err && room) begin
      cq_we    = 1'b1;
      cq_waddr = cqn_q;
      cq_wdata = {st_base, st_log, IdxW'(st_pi + IdxW'(1)), st_ci, evt_now ? ArmNone : st_arm, 1'b0};
    end else if (state_q == CmdWr) begin
      cq_we    = 1'b1;
      cq_waddr = cmd_cqn_q;
      cq_wdata = {st_base, st_log, st_pi, cmd_ci, (cmd_is_arm && !arm_now) ? cmd_arm : (arm_now ? ArmNone : st_arm),
                  st_err || cmd_op_q == 3'(rnic_spec_pkg::CQW_OP_ERR)};
    end
    if (state_q == RdRec) cq_re = 1'b1;
    if (state_q == CmdRd) begin
      cq_re    = 1'b1;
      cq_raddr = cmd_cqn_q;
    end
  end

  assign cqe_cpl = wr_cpl_valid_i && !eq_infl_q;

  // the EQ as the host set it up
  logic [4:0]  eq_log;
  logic        eq_on;
  assign eq_log = eq_log_size_i[4:0];
  // the entry slots the producers name
  logic [IdxW-1:0] pi_slot;
  logic [31:0]     eq_slot;
  assign pi_slot = st_pi & st_mask;
  assign eq_slot = eq_prod_q & ((32'd1 << eq_log) - 32'd1);
  assign eq_on  = eq_log_size_i != 32'd0 && eq_log_size_i <= 32'd16;

  // control (reset)
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q    <= Idle;
      infl_cnt_q <= '0;
      err_q      <= '0;
      drop_q     <= '0;
      ef_rd_q    <= '0;
      ef_wr_q    <= '0;
      ef_cnt_q   <= '0;
      if_wr_q    <= '0;
      if_rd_q    <= '0;
      cfg_pend_q <= 1'b0;
      cmd_pend_q <= 1'b0;
      held_q     <= 1'b0;
      ce_pend_q  <= 1'b0;
      eq_infl_q  <= 1'b0;
      eq_err_q   <= '0;
      eq_done_q  <= '0;
      eq_prod_q  <= '0;
      beat_q     <= '0;
      last_beat_q <= '0;
      ev_fw_q    <= 1'b0;
      eng_turn_q <= 1'b0;
      eng_infl_q <= '0;
    end else begin
      // after an engine record the rings' turn, after a ring's record the engine's
      if (rd_en) eng_turn_q <= !eng_pick;
      if (rec_issue && rec_src_q == EngSrc && !(cqe_cpl && cpl_src == EngSrc)) eng_infl_q <= eng_infl_q + 1'b1;
      else if (cqe_cpl && cpl_src == EngSrc && !(rec_issue && rec_src_q == EngSrc)) eng_infl_q <= eng_infl_q - 1'b1;
      if (t0_st && t0_addr == rnic_spec_pkg::FW_TC_CQW_CQ_CFG) cfg_pend_q <= 1'b1;
      else if (state_q == Idle) cfg_pend_q <= 1'b0;   // cq_mem written this cycle
      if (t0_st && t0_addr == rnic_spec_pkg::FW_TC_CQW_CMD) cmd_pend_q <= 1'b1;
      else if (state_q == CmdWr) cmd_pend_q <= 1'b0;
      if (cqe_cpl && wr_cpl_status_i != 2'd0) err_q <= err_q + 1'b1;
      if (cqe_cpl) if_rd_q <= if_rd_q + 1'b1;
      // writes issued at Chk, completed by cqe_cpl
      if (rec_issue && !cqe_cpl) infl_cnt_q <= infl_cnt_q + 1'b1;
      else if (!rec_issue && cqe_cpl) infl_cnt_q <= infl_cnt_q - 1'b1;
      if (ef_push) ef_wr_q <= ef_wr_q + 1'b1;
      if (ef_pop) ef_rd_q <= ef_rd_q + 1'b1;
      if (ef_push && !ef_pop) ef_cnt_q <= ef_cnt_q + 1'b1;
      else if (ef_pop && !ef_push) ef_cnt_q <= ef_cnt_q - 1'b1;
      unique case (state_q)
        Idle: begin
          if (cfg_pend_q) state_q <= Idle;
          else if (ce_pend_q) begin
            ev_fw_q <= 1'b0;
            state_q <= EvWait;
          end else if (cmd_pend_q) state_q <= CmdRd;
          else if (ev_rd) begin
            ev_fw_q <= 1'b1;
            state_q <= EvWait;
          end else if (rd_en) state_q <= RdRec;
        end
        RdRec: state_q <= RdCq;                        // rec_q holds the record
        RdCq:  state_q <= Chk;                         // cq_q holds the CQ's state
        Chk: begin                                     // fill_q: room or not
          beat_q <= '0;
          last_beat_q <= BeatW'(Beats - 1);
          if (st_err) begin                            // the CQ is in error: dropped
            drop_q  <= drop_q + 1'b1;
            held_q  <= 1'b0;
            state_q <= Idle;
          end else if (!room) begin                    // looks full: ask the firmware
            held_q  <= 1'b1;
            state_q <= Idle;
          end else begin
            if_wr_q <= if_wr_q + 1'b1;
            held_q  <= 1'b0;
            if (evt_now) ce_pend_q <= 1'b1;
            state_q <= Req;
          end
        end
        Req: if (wr_req_ready_i) state_q <= Data;
        Data: if (wr_data_ready_i) begin
          if (beat_q == last_beat_q) state_q <= Idle;
          else beat_q <= beat_q + 1'b1;
        end
        CmdRd: state_q <= CmdCq;
        CmdCq: state_q <= CmdWr;
        CmdWr: begin
          // the held record of this CQ is checked again (new consumer) or dropped (error)
          if (held_q && held_cqn_q == cmd_cqn_q &&
              (cmd_op_q == 3'(rnic_spec_pkg::CQW_OP_CI) || cmd_op_q == 3'(rnic_spec_pkg::CQW_OP_ERR) || cmd_is_arm))
            held_q <= 1'b0;
          if (cmd_is_arm && arm_now) ce_pend_q <= 1'b1;
          state_q <= Idle;
        end
        EvWait: if (infl_cnt_q == '0) begin            // every CQE before it has its B response
          if (!ev_fw_q) ce_pend_q <= 1'b0;
          if (eq_on) state_q <= EvFmt;
          else begin                                   // no EQ: the event is dropped, as before
            state_q <= Idle;
          end
        end
        EvFmt: begin
          beat_q <= '0;
          last_beat_q <= BeatW'(EvBeats - 1);
          state_q <= EvReq;
        end
        EvReq: if (wr_req_ready_i) begin
          eq_infl_q <= 1'b1;
          state_q   <= EvData;
        end
        EvData: if (wr_data_ready_i) begin
          if (beat_q == last_beat_q) state_q <= EvCpl;
          else beat_q <= beat_q + 1'b1;
        end
        EvCpl: if (wr_cpl_valid_i) begin
          eq_infl_q <= 1'b0;
          if (wr_cpl_status_i == 2'd0) begin
            eq_prod_q <= eq_prod_q + 1'b1;
            eq_done_q <= eq_done_q + 1'b1;
          end else begin
            eq_err_q <= eq_err_q + 1'b1;               // the next event takes the same slot
          end
          state_q <= Idle;
        end
        default: state_q <= Idle;
      endcase
    end
  end

  assign eq_notify_o = state_q == EvCpl && wr_cpl_valid_i && wr_cpl_status_i == 2'd0;
  assign eq_wr_err_o = state_q == EvCpl && wr_cpl_valid_i && wr_cpl_status_i != 2'd0;
  assign eq_prod_o   = eq_prod_q;

  assign ef_push = cqe_cpl && wr_cpl_status_i != 2'd0 && ef_cnt_q != (RecAw+1)'(RecNum);
  assign ef_pop  = t0_st && t0_addr == rnic_spec_pkg::FW_TC_CQW_ERR_POP && ef_cnt_q != '0;
  always_ff @(posedge clk_i) begin
    if (ef_push) ef_mem[ef_wr_q] <= infl_cqn[if_rd_q];
  end


  // data (no reset)
  localparam int unsigned EvTyL = rnic_spec_pkg::EQ_ENTRY_EVENT_TYPE_LSB, EvTyW = rnic_spec_pkg::EQ_ENTRY_EVENT_TYPE_W;
  localparam int unsigned EvSubL = rnic_spec_pkg::EQ_ENTRY_SUBTYPE_LSB, EvSubW = rnic_spec_pkg::EQ_ENTRY_SUBTYPE_W;
  localparam int unsigned EvHL = rnic_spec_pkg::EQ_ENTRY_HANDLE_LSB, EvHW = rnic_spec_pkg::EQ_ENTRY_HANDLE_W;
  localparam int unsigned EvDL = rnic_spec_pkg::EQ_ENTRY_DATA_LSB, EvDW = rnic_spec_pkg::EQ_ENTRY_DATA_W;
  logic [EvBytes*8-1:0] ev_entry;
  always_comb begin
    ev_entry = '0;
    if (ev_fw_q) begin
      // the firmware's record is eq_entry-shaped: its fields where the entry has them
      ev_entry[EvTyL +: EvTyW]   = evr_q[EvTyL +: EvTyW];
      ev_entry[EvSubL +: EvSubW] = evr_q[EvSubL +: EvSubW];
      ev_entry[EvHL +: EvHW]     = evr_q[EvHL +: EvHW];
      ev_entry[EvDL +: EvDW]     = evr_q[EvDL +: EvDW];
    end else begin
      ev_entry[EvTyL +: EvTyW] = rnic_spec_pkg::EQ_TYPE_COMPLETION;
      ev_entry[EvHL +: EvHW]   = EvHW'(ce_cqn_q);
    end
    ev_entry[rnic_spec_pkg::EQ_ENTRY_OWNER_LSB] = ~eq_prod_q[eq_log];   // first pass writes 1
  end

  always_ff @(posedge clk_i) begin
    if (t0_st) begin
      if (t0_addr == rnic_spec_pkg::FW_TC_CQW_CQ_BASE_LO) base_lo_q <= t0_wdata;
      if (t0_addr == rnic_spec_pkg::FW_TC_CQW_CQ_BASE_HI) base_hi_q <= t0_wdata;
      if (t0_addr == rnic_spec_pkg::FW_TC_CQW_CQ_CFG) begin
        cfg_cqn_q <= t0_wdata[rnic_spec_pkg::CQW_CQ_CFG_CQN_LSB +: CqAw];
        cfg_log_q <= t0_wdata[rnic_spec_pkg::CQW_CQ_CFG_LOG_SIZE_LSB +: rnic_spec_pkg::CQW_CQ_CFG_LOG_SIZE_W];
      end
      if (t0_addr == rnic_spec_pkg::FW_TC_CQW_CMD) begin
        cmd_cqn_q <= t0_wdata[rnic_spec_pkg::CQW_CMD_CQN_LSB +: CqAw];
        cmd_op_q  <= t0_wdata[rnic_spec_pkg::CQW_CMD_OP_LSB +: 3];
      end
      if (t0_addr == rnic_spec_pkg::FW_TC_CQW_CMD_ARG) cmd_arg_q <= t0_wdata[IdxW-1:0];
    end
    if (state_q == RdRec) cqn_q <= rec_q[CqnLsb +: CqAw];
    if (state_q == RdCq) begin
      fill_q <= st_pi - st_ci;
      size_q <= IdxW'(1) << st_log;
    end
    if (state_q == CmdCq) begin
      d_arg_q <= cmd_arg_q - st_ci;
      d_pi_q  <= st_pi - st_ci;
      ne_arg_q <= st_pi != cmd_arg_q;
      ne_ci_q  <= st_pi != st_ci;
    end
    if (state_q == Chk) begin
      held_cqn_q <= cqn_q;
      held_pi_q  <= st_pi;
      if (!st_err && room) begin
        infl_cqn[if_wr_q] <= cqn_q;
        infl_src[if_wr_q] <= rec_src_q;
      end
      if (evt_now && !st_err && room) ce_cqn_q <= cqn_q;
      cqe_q <= '0;
      cqe_q[CqnLsb-1:0] <= rec_q[CqnLsb-1:0];
      // the first pass over the ring writes owner 1, the next 0, and so on
      cqe_q[rnic_spec_pkg::CQE_OWNER_LSB] <= ~|(st_pi & (IdxW'(1) << st_log));
      addr_q <= {st_base, CqeSh'(0)} + (64'(pi_slot) << CqeSh);
      len_q  <= 32'(RecBytes);
    end
    if (state_q == CmdWr && cmd_is_arm && arm_now) ce_cqn_q <= cmd_cqn_q;
    if (state_q == EvFmt) begin
      cqe_q <= '0;
      cqe_q[EvBytes*8-1:0] <= ev_entry;
      addr_q <= {eq_base_hi_i, eq_base_lo_i} +
                (64'(eq_slot) << $clog2(EvBytes));
      len_q  <= 32'(EvBytes);
    end
  end

  assign wr_req_valid_o  = state_q == Req || state_q == EvReq;
  assign wr_req_addr_o   = addr_q;
  assign wr_req_len_o    = len_q;
  assign wr_req_tag_o    = '0;
  assign wr_data_valid_o = state_q == Data || state_q == EvData;
  assign wr_data_o       = cqe_q[32'(beat_q) * DataWidth +: DataWidth];
  assign wr_cpl_ready_o  = 1'b1;

  logic unused;
  assign unused = ^{base_lo_q[CqeSh-1:0], rec_q[RecBytes*8-1:CqnLsb+CqAw], eq_log_size_i[31:5], evr_q[31:16]};
endmodule
