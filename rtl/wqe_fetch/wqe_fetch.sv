// wqe_fetch: the WQE fetch engine. The firmware keeps each SQ's ring state and decides what to
// fetch; it stores a compact command (host address of the first WQEBB, count, buffer slot, tag)
// on its tightly coupled window, and this engine DMA-reads those WQEBBs in one burst into a
// buffer the firmware reads with one-cycle loads. Commands are served and completed in order,
// several in flight at once (the DMA read client keeps their order); the firmware polls one
// status word (done count, error count, tag of the latest failed fetch). Layouts and offsets:
// spec fw_tc (wqf_*), layouts wqf_cmd and wqf_status; README.md.
//
// Doorbell-started fetches (spec fw_tc wqf_sq_*, wqf_dbr_*, wqf_db_ctl): the firmware may give
// the engine an SQ's ring state (base, size, doorbell page, fetch index; one RAM entry per QP).
// An sq_db of such a QP then starts the DMA read of the WQEBBs it announced into a doorbell
// region of the buffer, before the firmware has read the doorbell, and leaves a record (QP,
// first index, count, slot, done, error) the firmware takes in order; a bf_db moves the fetch
// index past its WQE. The firmware still decides: it enables QPs, may move a fetch index, drops
// records it does not want, and its own commands go on as before (counted apart in wqf_status).
//
// RQ doorbells the same way (spec fw_tc wqf_rq_*, wqf_rqr_*, wqf_db_ctl bit 1): an RQ's ring state
// (base, size in WQEs, WQEBBs per WQE, page, fetch index) sits in the same RAMs beside the SQs'; an
// rq_db of an enabled RQ fetches the whole WQEs it announced into a receive doorbell region of its
// own, with a record in a FIFO of its own, so the send and receive sides never take each other's
// slots or records.
//
// The receive feed (spec fw_tc wqf_rqf_*): on the firmware's command (QP, RQ index, count) the
// engine hands RQ WQEs from those records straight to the receive engine's buffer slots as
// rq_descs, the refill the firmware did word by word; it stops where a WQE needs the firmware
// (no record, a failed fetch, too many SGEs). Its descriptors and the firmware's rq_desc mailbox
// are merged here, the older first, into the QP table's receive-slot port.
//
// Grant mode (spec fw_tc rqf_*, wqf_db_ctl bit 2): the engine refills by itself. Per QP the
// firmware grants positions below a limit (rqf_grant, a store per RECV_DONE); the engine keeps
// the QP's feed position and hands the head RQ record's WQEs while record.first + i == feed and
// feed != limit. It never waits at the head for a QP: a record it cannot use now is removed and,
// for an enabled QP, the fetch index moved back to feed; what was removed or never fetched is
// fetched again by a re-evaluation (a synthetic rq_db with the last producer index accepted),
// queued per QP and retried as the region frees. Failed fetches and num_sge exceptions stop the
// QP (rqf_stop) for the firmware.
module wqe_fetch #(
  parameter int unsigned DataWidth = 512,
  parameter int unsigned TagWidth  = 8,
  parameter int unsigned NumQps    = 128    // entries of the SQ ring-state RAM
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // tightly coupled slave (soft-core window fw_tc, byte offset): a store takes effect at its
  // request; a load's data is valid the next cycle, from a register
  input  logic                   tc_req_i,
  input  logic                   tc_we_i,
  input  logic [11:0]            tc_addr_i,
  input  logic [31:0]            tc_wdata_i,
  output logic [31:0]            tc_rdata_o,
  // every sq_db / bf_db the doorbell BAR accepts into its FIFO (rtl/doorbell), one per cycle
  input  logic                   db_valid_i,
  input  logic                   db_bf_i,       // a bf_db (else an sq_db or rq_db)
  input  logic                   db_rq_i,       // an rq_db
  input  logic [15:0]            db_page_i,
  input  logic [31:0]            db_value_i,    // layout db_word: QPN, producer index
  // dma_engine read client
  output logic                   rd_req_valid_o,
  input  logic                   rd_req_ready_i,
  output logic [63:0]            rd_req_addr_o,
  output logic [31:0]            rd_req_len_o,
  output logic [TagWidth-1:0]    rd_req_tag_o,
  input  logic                   rd_data_valid_i,
  output logic                   rd_data_ready_o,
  input  logic [DataWidth-1:0]   rd_data_i,
  input  logic                   rd_data_last_i,
  input  logic                   rd_cpl_valid_i,
  output logic                   rd_cpl_ready_o,
  input  logic [1:0]             rd_cpl_status_i,
  // the firmware's rq_desc mailbox in, merged with the receive feed's descriptors into the QP
  // table's receive-buffer port (rtl/qp_table rqd_*)
  input  logic                   fw_rqd_valid_i,
  output logic                   fw_rqd_ready_o,
  input  rnic_spec_pkg::rq_desc_t fw_rqd_i,
  output logic                   rqd_valid_o,
  input  logic                   rqd_ready_i,
  output rnic_spec_pkg::rq_desc_t rqd_o,
  // the transmit builder's row reads (rtl/tx_build): a row's window offset (the buffer's or its
  // regions', as the firmware's loads), the whole row 2 cycles later through the receive feed's
  // read port, which keeps priority (docs/decisions/tx-build.md, "Wiring")
  input  logic                   txb_rd_valid_i,
  output logic                   txb_rd_ready_o,
  input  logic [11:0]            txb_rd_off_i,
  output logic                   txb_rvalid_o,
  output logic [DataWidth-1:0]   txb_rdata_o
);
  localparam int unsigned BbBytes  = rnic_spec_pkg::WQEBB_BYTES;      // one WQEBB
  localparam int unsigned Bpb      = DataWidth / 8;
  localparam int unsigned Lanes    = DataWidth / 32;                    // 32-bit words per beat
  localparam int unsigned LaneAw   = $clog2(Lanes);
  localparam int unsigned BufBbs   = rnic_spec_pkg::FW_TC_WQF_BUF_BBS;
  localparam int unsigned BufBytes = BufBbs * BbBytes;
  localparam int unsigned SqRows   = BufBytes / Bpb;                    // beats the send region holds
  localparam int unsigned RqBbs    = rnic_spec_pkg::FW_TC_WQF_RQ_BUF_BBS;
  localparam int unsigned RqBytes  = RqBbs * BbBytes;
  localparam int unsigned RqRows   = RqBytes / Bpb;
  localparam int unsigned RqAw     = $clog2(RqBytes);                   // byte offset in the receive region
  localparam int unsigned DbBbs    = rnic_spec_pkg::FW_TC_WQF_DB_BUF_BBS;
  localparam int unsigned DbBytes  = DbBbs * BbBytes;
  localparam int unsigned DbRows   = DbBytes / Bpb;
  localparam int unsigned DbAw     = $clog2(DbBytes);                   // byte offset in the doorbell region
  localparam int unsigned DbSlotAw = $clog2(DbBbs);
  localparam int unsigned RdbBbs   = rnic_spec_pkg::FW_TC_WQF_RDB_BUF_BBS;  // the receive doorbell region
  localparam int unsigned RdbBytes = RdbBbs * BbBytes;
  localparam int unsigned RdbRows  = RdbBytes / Bpb;
  localparam int unsigned RdbAw    = $clog2(RdbBytes);
  localparam int unsigned RdbSlotAw = $clog2(RdbBbs);
  localparam int unsigned RdbCntW  = $clog2(RdbBbs + 1);
  localparam int unsigned RdbNum   = rnic_spec_pkg::FW_TC_WQF_RDB_NUM;     // its records
  localparam int unsigned RrAw     = $clog2(RdbNum);
  localparam int unsigned RrPw     = RrAw + 2;                         // RQ record numbers (as RecPw)
  localparam int unsigned RrCntW   = $clog2(RdbNum + 1);
  // one RAM: the send region's rows, then the receive region's, the doorbell region's, the
  // receive doorbell region's
  localparam int unsigned Rows     = SqRows + RqRows + DbRows + RdbRows;
  localparam int unsigned RowAw    = $clog2(Rows);
  localparam int unsigned SqRowAw  = $clog2(SqRows);
  localparam int unsigned RqRowAw  = $clog2(RqRows);
  localparam int unsigned DbRowAw  = $clog2(DbRows);
  localparam int unsigned RdbRowAw = $clog2(RdbRows);
  localparam int unsigned BbBeatAw = $clog2(BbBytes / Bpb);             // 0 at 512 bits
  localparam int unsigned BufAw    = $clog2(BufBytes);                  // byte offset in the buffer
  localparam logic [11:0] RqBase   = rnic_spec_pkg::FW_TC_WQF_RQ_BUF_BASE;
  localparam logic [11:0] DbBase   = rnic_spec_pkg::FW_TC_WQF_DB_BUF_BASE;
  localparam logic [11:0] RdbBase  = rnic_spec_pkg::FW_TC_WQF_RDB_BUF_BASE;
  localparam int unsigned CmdNum   = rnic_spec_pkg::FW_TC_WQF_CMD_NUM;  // the firmware's commands
  localparam int unsigned DbNum    = rnic_spec_pkg::FW_TC_WQF_DB_NUM;   // doorbell-started ones (records)
  localparam int unsigned RecAw    = $clog2(DbNum);
  localparam int unsigned RecPw    = RecAw + 2;                         // record numbers (see rec_v_q)
  // the command ring holds both kinds: at most CmdNum of the firmware's and DbNum of the engine's
  // (its pointers wrap at a power of two)
  localparam int unsigned RingNum  = 1 << $clog2(CmdNum + DbNum + RdbNum);
  localparam int unsigned CmdAw    = $clog2(RingNum);
  // the largest region: a command's count and slot fields and the row inside its region
  localparam int unsigned MaxBbs   = BufBbs > DbBbs ? (BufBbs > RqBbs ? BufBbs : RqBbs)
                                                    : (DbBbs > RqBbs ? DbBbs : RqBbs);
  localparam int unsigned BbsW     = $clog2(MaxBbs + 1);
  localparam int unsigned CslotAw  = $clog2(MaxBbs);
  localparam int unsigned RelAw    = $clog2(MaxBbs * BbBytes / Bpb);
  localparam int unsigned DbCntW   = $clog2(DbBbs + 1);               // WQEBBs of the doorbell region
  localparam int unsigned RecCntW  = $clog2(DbNum + 1);
  localparam int unsigned QpAw     = NumQps > 1 ? $clog2(NumQps) : 1;
  localparam logic [11:0] BufBase  = rnic_spec_pkg::FW_TC_WQF_BUF_BASE;
  localparam logic [1:0]  RegSq = 2'd0, RegRq = 2'd1, RegDb = 2'd2, RegRdb = 2'd3;  // buffer regions

  // ---- the command ring: one entry per command from its store until its DMA completion. Four
  // pointers walk it: wp (stored), ip (read requested), dp (data placed), cp (completed).
  logic [CmdAw:0]     wp_q, ip_q, dp_q, cp_q;
  logic [63:6]        cmd_addr [RingNum];
  logic [BbsW-1:0]    cmd_bbs  [RingNum];
  logic [CslotAw-1:0] cmd_slot [RingNum];
  logic [1:0]         cmd_reg  [RingNum];  // region: RegSq, RegRq, RegDb / RegRdb (doorbell-started)
  logic [7:0]         cmd_tag  [RingNum];
  logic [RecPw-1:0]   cmd_rec  [RingNum];  // RegDb / RegRdb: its record's number
  logic [31:0]        addr_lo_q, addr_hi_q;
  logic [3:0]         fw_q;                // the firmware's commands stored and not completed
  logic [RecCntW-1:0] auto_q;              // the engine's commands likewise (sq_db-started)
  logic [RrCntW-1:0]  rauto_q;             // and rq_db-started
  logic               push, full, go_push;
  assign full = fw_q == 4'(CmdNum);
  assign push = tc_req_i && tc_we_i && tc_addr_i == rnic_spec_pkg::FW_TC_WQF_CMD;

  // The command's count, kept to 1..BufBbs (the spec's range) so every command reads at least one
  // WQEBB (a data beat to close it) and never more than the buffer holds.
  logic [7:0]      cmd_bbs_in;
  logic [BbsW-1:0] bbs_clamped;
  assign cmd_bbs_in = tc_wdata_i[rnic_spec_pkg::WQF_CMD_BBS_LSB +: 8];
  logic            cmd_rq_in;
  assign cmd_rq_in = tc_wdata_i[rnic_spec_pkg::WQF_CMD_RQ_LSB];
  // kept to the region's size as well: a longer command would wrap onto its own first WQEBBs
  assign bbs_clamped = cmd_bbs_in == 8'd0 ? BbsW'(1)
                     : cmd_rq_in && cmd_bbs_in > 8'(RqBbs) ? BbsW'(RqBbs)
                     : cmd_bbs_in > 8'(BufBbs) ? BbsW'(BufBbs) : cmd_bbs_in[BbsW-1:0];

  // ---- doorbell-started fetches: the ring-state RAM (one entry per SQ, then one per RQ: address
  // {rq, qpn}; no reset, so the firmware writes every entry of a kind before it enables that kind
  // in wqf_db_ctl) and the fetch index RAM. An entry's unit is a ring entry: a WQEBB of an SQ, a
  // WQE of an RQ (2^lb WQEBBs).
  localparam int unsigned EntW = 58 + 16 + 4 + 2 + 1;                   // base[63:6], page, log size, lb, en
  logic [EntW-1:0]   ring_mem [2*NumQps];
  logic [15:0]       fidx_mem [2*NumQps];
  logic [31:0]       sq_lo_q, sq_hi_q, sq_ring_q, rq_lo_q, rq_hi_q, rq_ring_q;
  logic              db_en_q, rdb_en_q;
  logic              cfg_st, fidx_st;      // the firmware's wqf_sq/rq_cfg / wqf_sq/rq_fidx stores
  logic              st_rq;                // ... of an RQ
  rnic_spec_pkg::wqf_sq_qidx_t st_qidx;
  assign st_rq   = tc_addr_i == rnic_spec_pkg::FW_TC_WQF_RQ_CFG || tc_addr_i == rnic_spec_pkg::FW_TC_WQF_RQ_FIDX;
  assign cfg_st  = tc_req_i && tc_we_i && (tc_addr_i == rnic_spec_pkg::FW_TC_WQF_SQ_CFG ||
                                           tc_addr_i == rnic_spec_pkg::FW_TC_WQF_RQ_CFG);
  assign fidx_st = tc_req_i && tc_we_i && (tc_addr_i == rnic_spec_pkg::FW_TC_WQF_SQ_FIDX ||
                                           tc_addr_i == rnic_spec_pkg::FW_TC_WQF_RQ_FIDX);
  assign st_qidx = tc_wdata_i;
  always_ff @(posedge clk_i) begin
    if (cfg_st && 32'(st_qidx.qpn) < NumQps)
      ring_mem[{st_rq, st_qidx.qpn[QpAw-1:0]}] <=
        st_rq ? {rq_hi_q, rq_lo_q[31:6], rq_ring_q[rnic_spec_pkg::WQF_RQ_RING_PAGE_LSB +: 16],
                 rq_ring_q[rnic_spec_pkg::WQF_RQ_RING_LOG_SIZE_LSB +: 4],
                 rq_ring_q[rnic_spec_pkg::WQF_RQ_RING_LOG_BBS_LSB +: 2], rq_ring_q[rnic_spec_pkg::WQF_RQ_RING_EN_LSB]}
              : {sq_hi_q, sq_lo_q[31:6], sq_ring_q[rnic_spec_pkg::WQF_SQ_RING_PAGE_LSB +: 16],
                 sq_ring_q[rnic_spec_pkg::WQF_SQ_RING_LOG_SIZE_LSB +: 4], 2'd0,
                 sq_ring_q[rnic_spec_pkg::WQF_SQ_RING_EN_LSB]};
  end
  // A fetch index the firmware stores waits in pend_q for the write port (the engine's own
  // write in S_GO goes first); a wqf_sq_cfg stores its index the same way.
  logic              pend_q;
  logic [QpAw:0]     pend_qpn_q;           // {rq, qpn}
  logic [15:0]       pend_idx_q;

  // the doorbells of enabled SQs wait in a small FIFO (one more while it is full is not fetched
  // for: the firmware finds no record and fetches itself)
  localparam int unsigned TrigNum = 4;
  // (bit 50: a re-evaluation of the grant mode, its page not checked; its producer index is
  // the last one an rq_db of the QP brought)
  logic [50:0]       trig_mem [TrigNum];  // {syn, rq, bf, page, value}
  logic [2:0]        tw_q, tr_q;
  logic              trig_full, trig_pop, trig_push, syn_push;
  logic [31:0]       syn_value;
  assign trig_full = tw_q - tr_q == 3'(TrigNum);
  assign trig_push = db_valid_i && (db_rq_i ? rdb_en_q : db_en_q) && !trig_full;
  always_ff @(posedge clk_i) begin
    if (trig_push) trig_mem[tw_q[1:0]] <= {1'b0, db_rq_i, db_bf_i, db_page_i, db_value_i};
    else if (syn_push) trig_mem[tw_q[1:0]] <= {1'b1, 1'b1, 1'b0, 16'd0, syn_value};
  end

  // the evaluation of one doorbell: S_IDLE reads the QP's entries, S_EV the counts, S_K the
  // WQEBBs to fetch, S_GO stores the command and the record
  // (S_LM, grant mode only: an RQ's count is cut to its grant's limit plus the WQEs of
  // fw_tc.rqf_ahead_bbs, fetched ahead and handed only once a grant passes them, so a RECV_DONE's
  // refill needs no DMA read; a QP that far ahead fetches nothing, the next grant store queues it)
  typedef enum logic [2:0] { S_IDLE, S_EV, S_K, S_GO, S_LM } ev_state_e;
  localparam int unsigned AheadBbs = rnic_spec_pkg::FW_TC_RQF_AHEAD_BBS;
  logic [16:0]       glim_ev_q;            // the QP's grant {en, limit} as the evaluation read it
  logic [15:0]       gahead_q;             // its limit plus the WQEs fetched ahead (from S_EV)
  logic [16:0]       glim2_mem [NumQps];   // a copy of glim_mem (below) for the evaluator's read
  logic [15:0]       gleft;                // RQ entries the grant and the ahead leave from the fetch index on
  assign gleft = gahead_q - fidx_q;
  ev_state_e         ev_q;
  logic [EntW-1:0]   ent_q;
  logic [15:0]       fidx_q;
  logic [50:0]       cur_q;                // cur_q[50]: a re-evaluation, [49]: an rq_db, [48]: a bf_db
  logic              cancel_q;
  logic [15:0]       cur_qpn, cur_pi, n_q, left_q, k_q;
  logic [DbCntW-1:0] free_q;
  logic              ok_q;
  logic [63:6]       base_q;
  logic [QpAw:0]     cur_a;                // {rq, qpn}: its RAM entries
  logic              cur_rq;
  logic [1:0]        lb_q;                 // log2 WQEBBs per ring entry (an RQ's WQE)
  logic [BbsW-1:0]   kb;                   // WQEBBs to fetch (k_q ring entries)
  assign cur_qpn = cur_q[15:0];
  assign cur_pi  = cur_q[31:16];
  assign cur_rq  = cur_q[49];
  assign cur_a   = {cur_rq, cur_qpn[QpAw-1:0]};
  assign kb      = BbsW'(k_q << lb_q);
  logic [15:0]       size, fidx_m;             // the ring's entries; the fetch index inside it
  assign size   = 16'd1 << ent_q[6:3];
  assign fidx_m = fidx_q & (size - 16'd1);
  logic [15:0]       trig_qpn;
  logic              trig_rq;
  assign trig_qpn = trig_mem[tr_q[1:0]][15:0];
  assign trig_rq  = trig_mem[tr_q[1:0]][49];
  logic              gmode_q, evq_v_q;     // grant mode; a QP to queue for a re-evaluation
  assign trig_pop = ev_q == S_IDLE && tw_q != tr_q && !(gmode_q && evq_v_q);
  // a store for the ring under evaluation (or its index still pending) drops the evaluation;
  // the grant engine's own fetch-index rewind (eng_st) counts as such a store
  logic              st_hit, any_st, eng_st, any_rq;
  logic [15:0]       any_qpn, any_idx;
  logic [15:0]       rwd_qpn_q, rwd_idx_q;     // the rewind: QP, fetch index
  assign any_st  = cfg_st || fidx_st || eng_st;
  assign any_rq  = cfg_st || fidx_st ? st_rq : 1'b1;
  assign any_qpn = cfg_st || fidx_st ? st_qidx.qpn : rwd_qpn_q;
  assign any_idx = cfg_st || fidx_st ? st_qidx.index : rwd_idx_q;
  assign st_hit = any_st && any_qpn == cur_qpn && any_rq == cur_rq;

  // records of doorbell-started fetches, oldest first
  logic [15:0]       rec_qpn   [DbNum];
  logic [15:0]       rec_first [DbNum];
  logic [DbCntW-1:0] rec_bbs   [DbNum];
  logic [DbSlotAw-1:0] rec_slot [DbNum];
  logic [DbNum-1:0]  rec_err_q;
  // a record's commands not yet completed (done: none). A doorbell of the QP of the newest record
  // whose fetch index is where that record ends extends it (one more command, the same record):
  // the firmware takes a host batch of doorbells as one record instead of one record each.
  // (one flat vector, RecCntW bits per record: written whole every cycle, Verilator keeps one
  // shadow copy instead of a delayed-write flag per element; docs/sim-speed.md)
  logic [DbNum*RecCntW-1:0] rec_pend_q;
  logic [15:0]       last_qpn_q, last_end_q;   // the newest record's QP and the index after it
  logic              ext_q, ext_go;
  logic [RecPw-1:0]  rec_wp_q, rec_rp_q;
  logic [RecPw-1:0]  rec_cnt, rec_cnt_q;
  logic [DbSlotAw-1:0] dslot_q;            // the doorbell region's next free slot
  logic [DbCntW-1:0] dused_q;              // its slots held by records
  logic              rec_pop, go_write;
  // rec_wp_q - rec_rp_q, kept as its own counter: the subtract was the head of a 9-LUT-level
  // path into rec_pend_q (issue 16; through ext_go, go_rec and rec_live)
  assign rec_cnt = rec_cnt_q;
  // records of rq_db-started fetches, oldest first: one fetch each (they do not grow)
  logic [15:0]        rrec_qpn   [RdbNum];
  logic [15:0]        rrec_first [RdbNum];
  logic [RdbCntW-1:0] rrec_bbs   [RdbNum];
  logic [RdbSlotAw-1:0] rrec_slot [RdbNum];
  logic [1:0]         rrec_lb    [RdbNum];  // its RQ's log2 WQEBBs per WQE (the grant mode's unit)
  logic [RdbNum-1:0]  rrec_pend_q, rrec_err_q;
  logic [RrPw-1:0]    rrec_wp_q, rrec_rp_q, rrec_cnt;
  logic [RdbSlotAw-1:0] rslot_q;           // the receive doorbell region's next free slot
  logic [RdbCntW-1:0] rused_q;             // its slots held by records
  logic               rrec_pop, rfull;
  assign rrec_cnt = rrec_wp_q - rrec_rp_q;
  // whether every record behind the head is of the head's QP (grant mode: a QP waiting at its
  // limit keeps the head only then): record i's QP equals that of the record pushed before it
  // (rrec_same_q), and rdiff_q counts the records behind the head where it does not
  logic [RdbNum-1:0]  rrec_same_q;
  logic [15:0]        rlast_qpn_q;         // the newest RQ record's QP
  logic [RrCntW-1:0]  rdiff_q;
  logic               feed_pop;            // the receive feed removes the head record
  assign rrec_pop = ((tc_req_i && tc_we_i && tc_addr_i == rnic_spec_pkg::FW_TC_WQF_RQR_POP) || feed_pop) &&
                    rrec_cnt != '0;
  assign rfull    = rrec_cnt == RrPw'(RdbNum) || rauto_q == RrCntW'(RdbNum);
  assign rec_pop = tc_req_i && tc_we_i && tc_addr_i == rnic_spec_pkg::FW_TC_WQF_DBR_POP && rec_cnt != '0;
  // S_GO stores a command unless the firmware stores one in the same cycle, and writes the fetch
  // index unless the firmware's is being written (then it waits a cycle); a bf_db only moves
  // the index. A store for this QP in that cycle drops it (st_hit).
  logic go_wait;
  assign go_wait  = pend_q || (!cur_q[48] && push);
  assign go_push  = ev_q == S_GO && ok_q && !st_hit && !cur_q[48] && k_q != 16'd0 && !go_wait;
  // the newest record is still there (the firmware may pop it meanwhile: then a record of its own)
  // (an RQ's fetch never extends a record: ext_q is 0)
  assign ext_go   = ext_q && rec_cnt != '0 && !(rec_pop && rec_cnt == RecPw'(1));
  logic [RecPw-1:0]  go_rec;                // the record the command belongs to
  assign go_rec   = ext_go ? rec_wp_q - 1'b1 : rec_wp_q;
  assign go_write = ev_q == S_GO && ok_q && !st_hit && (cur_q[48] || k_q != 16'd0) && !go_wait;

  always_ff @(posedge clk_i) begin
    if (trig_pop) begin
      ent_q  <= ring_mem[{trig_rq, trig_qpn[QpAw-1:0]}];
      fidx_q <= fidx_mem[{trig_rq, trig_qpn[QpAw-1:0]}];
      glim_ev_q <= glim2_mem[trig_qpn[QpAw-1:0]];
    end
    // the fetch index: what the firmware stored (the cycle after its store), else the engine's
    if (pend_q)
      fidx_mem[pend_qpn_q] <= pend_idx_q;
    else if (go_write)
      fidx_mem[cur_a] <= cur_q[48] ? cur_pi : fidx_q + k_q;   // (k_q ring entries)
  end

  // The completing command's region and record number come from registers that always hold
  // cmd_reg/cmd_rec at cp_q (timing: the LUTRAM read at cp_q started the path through rec_hit
  // into rec_pend_q, the core's deepest at 8-9 LUT levels): loaded with the entry at cp_q + 1
  // (cp1_q) when a command completes, with the ring's write when it stores into the entry cp_q
  // points at next. The same values as the RAM reads in every cycle.
  logic [CmdAw-1:0]  cp1_q;                // cp_q + 1 (the RAM's second read address)
  logic [1:0]        cpl_reg_q, cmd_wreg;
  logic [RecPw-1:0]  cpl_rec_q, cmd_wrec;
  logic              cmd_we;
  assign cmd_we   = (push && !full) || go_push;
  assign cmd_wreg = (push && !full) ? (cmd_rq_in ? RegRq : RegSq) : (cur_rq ? RegRdb : RegDb);
  assign cmd_wrec = (push && !full) ? '0 : cur_rq ? RecPw'(rrec_wp_q) : go_rec;
  always_ff @(posedge clk_i) begin
    if (cmd_we && wp_q[CmdAw-1:0] == (rd_cpl_valid_i ? cp1_q : cp_q[CmdAw-1:0])) begin
      cpl_reg_q <= cmd_wreg;
      cpl_rec_q <= cmd_wrec;
    end else if (rd_cpl_valid_i) begin
      cpl_reg_q <= cmd_reg[cp1_q];
      cpl_rec_q <= cmd_rec[cp1_q];
    end
  end
  always_ff @(posedge clk_i) begin
    if (push && !full) begin
      cmd_addr[wp_q[CmdAw-1:0]] <= {addr_hi_q, addr_lo_q[31:6]};
      cmd_bbs[wp_q[CmdAw-1:0]]  <= bbs_clamped;
      cmd_slot[wp_q[CmdAw-1:0]] <= tc_wdata_i[rnic_spec_pkg::WQF_CMD_SLOT_LSB +: CslotAw];
      cmd_tag[wp_q[CmdAw-1:0]]  <= tc_wdata_i[rnic_spec_pkg::WQF_CMD_TAG_LSB +: 8];
      cmd_reg[wp_q[CmdAw-1:0]]  <= cmd_wreg;
      cmd_rec[wp_q[CmdAw-1:0]]  <= cmd_wrec;
    end else if (go_push) begin
      cmd_addr[wp_q[CmdAw-1:0]] <= base_q;
      cmd_bbs[wp_q[CmdAw-1:0]]  <= kb;
      cmd_slot[wp_q[CmdAw-1:0]] <= cur_rq ? CslotAw'(rslot_q) : CslotAw'(dslot_q);
      cmd_tag[wp_q[CmdAw-1:0]]  <= '0;
      cmd_reg[wp_q[CmdAw-1:0]]  <= cmd_wreg;
      cmd_rec[wp_q[CmdAw-1:0]]  <= cmd_wrec;
    end
    if (go_push && cur_rq) begin
      rrec_qpn[rrec_wp_q[RrAw-1:0]]   <= cur_qpn;
      rrec_first[rrec_wp_q[RrAw-1:0]] <= fidx_q;
      rrec_bbs[rrec_wp_q[RrAw-1:0]]   <= RdbCntW'(kb);
      rrec_slot[rrec_wp_q[RrAw-1:0]]  <= rslot_q;
      rrec_lb[rrec_wp_q[RrAw-1:0]]    <= lb_q;
    end else if (go_push && ext_go) begin
      rec_bbs[go_rec[RecAw-1:0]]     <= rec_bbs[go_rec[RecAw-1:0]] + DbCntW'(k_q);
    end else if (go_push) begin
      rec_qpn[rec_wp_q[RecAw-1:0]]   <= cur_qpn;
      rec_first[rec_wp_q[RecAw-1:0]] <= fidx_q;
      rec_bbs[rec_wp_q[RecAw-1:0]]   <= DbCntW'(k_q);
      rec_slot[rec_wp_q[RecAw-1:0]]  <= dslot_q;
    end
  end

  // ---- read requests: one burst per command, in order
  logic [CmdAw-1:0] ip;
  assign ip = ip_q[CmdAw-1:0];
  assign rd_req_valid_o = ip_q != wp_q;
  assign rd_req_addr_o  = {cmd_addr[ip], 6'd0};
  assign rd_req_len_o   = {{(32 - BbsW - 6){1'b0}}, cmd_bbs[ip], 6'd0};
  assign rd_req_tag_o   = TagWidth'(ip);

  // ---- data: beats into the buffer rows of the command at dp (slot-relative, wrapping)
  // row of the beat inside the command's region (wrapping there), then in the RAM
  logic [RelAw-1:0]   beat_q, wrel;
  logic [RowAw-1:0]   wrow;
  logic [1:0]         wreg;
  logic               beat;
  assign rd_data_ready_o = 1'b1;
  assign beat = rd_data_valid_i;
  assign wrel = (RelAw'(cmd_slot[dp_q[CmdAw-1:0]]) << BbBeatAw) + beat_q;
  assign wreg = cmd_reg[dp_q[CmdAw-1:0]];
  assign wrow = wreg == RegRq ? RowAw'(SqRows) + RowAw'(wrel[RqRowAw-1:0])
              : wreg == RegDb ? RowAw'(SqRows + RqRows) + RowAw'(wrel[DbRowAw-1:0])
              : wreg == RegRdb ? RowAw'(SqRows + RqRows + DbRows) + RowAw'(wrel[RdbRowAw-1:0])
              : RowAw'(wrel[SqRowAw-1:0]);

  logic [31:0]        lane_rd [Lanes];
  // the buffer is aligned to its size in the window (spec fw_tc.wqf_buf_base): the low address
  // bits are the offset in it, the high ones select it
  // (the receive and doorbell regions likewise, at their own bases)
  logic [11:0]        boff;
  logic [LaneAw-1:0]  rlane;
  logic [RowAw-1:0]   rrow;
  logic               in_buf, in_rq, in_db, in_rdb;
  assign boff  = tc_addr_i;
  assign in_buf = tc_addr_i[11:BufAw] == BufBase[11:BufAw];
  assign in_rq = tc_addr_i[11:RqAw] == RqBase[11:RqAw];
  assign in_db = tc_addr_i[11:DbAw] == DbBase[11:DbAw];
  assign in_rdb = tc_addr_i[11:RdbAw] == RdbBase[11:RdbAw];
  assign rlane = boff[LaneAw+1:2];
  assign rrow  = in_rq ? RowAw'(SqRows) + RowAw'(boff[RqAw-1:LaneAw+2])
               : in_db ? RowAw'(SqRows + RqRows) + RowAw'(boff[DbAw-1:LaneAw+2])
               : in_rdb ? RowAw'(SqRows + RqRows + DbRows) + RowAw'(boff[RdbAw-1:LaneAw+2])
               : RowAw'(boff[BufAw-1:LaneAw+2]);
  logic [RowAw-1:0]     frow;              // the receive feed's read row (a second read port)
  logic [RowAw-1:0]     frow_m;            // that port's row: the feed's, or the transmit builder's
  logic [DataWidth-1:0] feed_rd;
  for (genvar l = 0; l < Lanes; l++) begin : g_lane
    logic [31:0] mem [Rows];
    always_ff @(posedge clk_i) begin
      if (beat) mem[wrow] <= rd_data_i[32*l +: 32];
    end
    assign lane_rd[l] = mem[rrow];
    assign feed_rd[32*l +: 32] = mem[frow_m];
  end

  // ---- completions: in order, one per command
  assign rd_cpl_ready_o = 1'b1;
  logic [7:0] done_q, errors_q, err_tag_q;
  logic       dropped_q;
  logic       cpl_db, cpl_rdb;             // the completing command is an sq_db- / rq_db-started one
  logic [RecPw-1:0] cpl_rec;
  logic       rrec_live;                   // and its record was not dropped by the firmware
  logic [DbNum-1:0] rec_hit;               // ... and it is record i (SQ records, below)
  assign cpl_db  = cpl_reg_q == RegDb;
  assign cpl_rdb = cpl_reg_q == RegRdb;
  assign cpl_rec = cpl_rec_q;
  // a dropped record's number may be taken again only DbNum pushes later, and at most DbNum
  // engine commands are outstanding: RecPw bits tell a live record from a dropped one (RQ: the same
  // with RdbNum and RrPw)
  // An SQ record's liveness per FIFO slot instead of (cpl_rec - rec_rp_q) < rec_cnt (timing: the
  // subtract and compare in front of the record loops made rec_pend_q the block's deepest
  // endpoint, at the 100g core's ceiling): slot i holds a record (rec_v_q) whose number's upper
  // bits are rec_hi_q. The live numbers rec_rp_q .. rec_rp_q + rec_cnt - 1 (at most DbNum) sit
  // in distinct slots, so a number is live exactly when its slot holds a record with its upper
  // bits. Set at a record's push, cleared at its pop (a push and a pop of one slot in one cycle
  // would need 0 or DbNum + 1 records).
  localparam int unsigned RecHiW = RecPw - RecAw;
  logic [DbNum-1:0]        rec_v_q;
  logic [RecHiW*DbNum-1:0] rec_hi_q;
  always_comb
    for (int i = 0; i < DbNum; i++)
      rec_hit[i] = rec_v_q[i] && cpl_rec[RecAw-1:0] == RecAw'(i) &&
                   rec_hi_q[RecHiW*i +: RecHiW] == cpl_rec[RecPw-1:RecAw];
  assign rrec_live = RrPw'(RrPw'(cpl_rec) - rrec_rp_q) < rrec_cnt;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wp_q      <= '0;
      ip_q      <= '0;
      dp_q      <= '0;
      cp_q      <= '0;
      cp1_q     <= CmdAw'(1);
      fw_q      <= '0;
      auto_q    <= '0;
      rauto_q   <= '0;
      beat_q    <= '0;
      addr_lo_q <= '0;
      addr_hi_q <= '0;
      done_q    <= '0;
      errors_q  <= '0;
      err_tag_q <= '0;
      dropped_q <= 1'b0;
      sq_lo_q   <= '0;
      sq_hi_q   <= '0;
      sq_ring_q <= '0;
      rq_lo_q   <= '0;
      rq_hi_q   <= '0;
      rq_ring_q <= '0;
      db_en_q   <= 1'b0;
      rdb_en_q  <= 1'b0;
      lb_q      <= '0;
      rrec_wp_q <= '0;
      rrec_rp_q <= '0;
      rrec_pend_q <= '0;
      rrec_err_q <= '0;
      rrec_same_q <= '0;
      rlast_qpn_q <= '0;
      rdiff_q   <= '0;
      rslot_q   <= '0;
      rused_q   <= '0;
      pend_q    <= 1'b0;
      pend_qpn_q <= '0;
      pend_idx_q <= '0;
      tw_q      <= '0;
      tr_q      <= '0;
      ev_q      <= S_IDLE;
      cur_q     <= '0;
      cancel_q  <= 1'b0;
      n_q       <= '0;
      left_q    <= '0;
      gahead_q  <= '0;
      free_q    <= '0;
      k_q       <= '0;
      ok_q      <= 1'b0;
      base_q    <= '0;
      rec_wp_q  <= '0;
      rec_rp_q  <= '0;
      rec_cnt_q <= '0;
      rec_err_q <= '0;
      rec_pend_q <= '0;
      rec_v_q   <= '0;
      rec_hi_q  <= '0;
      last_qpn_q <= '0;
      last_end_q <= '0;
      ext_q     <= 1'b0;
      dslot_q   <= '0;
      dused_q   <= '0;
    end else begin
      if (tc_req_i && tc_we_i && tc_addr_i == rnic_spec_pkg::FW_TC_WQF_ADDR_LO) addr_lo_q <= tc_wdata_i;
      if (tc_req_i && tc_we_i && tc_addr_i == rnic_spec_pkg::FW_TC_WQF_ADDR_HI) addr_hi_q <= tc_wdata_i;
      if (tc_req_i && tc_we_i && tc_addr_i == rnic_spec_pkg::FW_TC_WQF_SQ_BASE_LO) sq_lo_q <= tc_wdata_i;
      if (tc_req_i && tc_we_i && tc_addr_i == rnic_spec_pkg::FW_TC_WQF_SQ_BASE_HI) sq_hi_q <= tc_wdata_i;
      if (tc_req_i && tc_we_i && tc_addr_i == rnic_spec_pkg::FW_TC_WQF_SQ_RING) sq_ring_q <= tc_wdata_i;
      if (tc_req_i && tc_we_i && tc_addr_i == rnic_spec_pkg::FW_TC_WQF_RQ_BASE_LO) rq_lo_q <= tc_wdata_i;
      if (tc_req_i && tc_we_i && tc_addr_i == rnic_spec_pkg::FW_TC_WQF_RQ_BASE_HI) rq_hi_q <= tc_wdata_i;
      if (tc_req_i && tc_we_i && tc_addr_i == rnic_spec_pkg::FW_TC_WQF_RQ_RING) rq_ring_q <= tc_wdata_i;
      if (tc_req_i && tc_we_i && tc_addr_i == rnic_spec_pkg::FW_TC_WQF_DB_CTL) begin
        db_en_q  <= tc_wdata_i[0];
        rdb_en_q <= tc_wdata_i[1];
      end
      // the firmware's fetch index (wqf_sq_cfg or wqf_sq_fidx) is written the next cycle, the
      // grant engine's rewind likewise when the firmware stores none
      pend_q <= any_st && 32'(any_qpn) < NumQps;
      if (any_st) begin
        pend_qpn_q <= {any_rq, any_qpn[QpAw-1:0]};
        pend_idx_q <= any_idx;
      end
      if (push) begin
        if (full) dropped_q <= 1'b1;
      end
      // ring occupancy per kind: stored (firmware or engine) and completed
      wp_q <= wp_q + CmdAw'(push && !full) + CmdAw'(go_push);
      fw_q <= fw_q + 4'(push && !full) - 4'(rd_cpl_valid_i && !cpl_db && !cpl_rdb);
      auto_q <= auto_q + RecCntW'(go_push && !cur_rq) - RecCntW'(rd_cpl_valid_i && cpl_db);
      rauto_q <= rauto_q + RrCntW'(go_push && cur_rq) - RrCntW'(rd_cpl_valid_i && cpl_rdb);
      if (rd_req_valid_o && rd_req_ready_i) ip_q <= ip_q + 1'b1;
      if (beat) begin
        if (rd_data_last_i) begin
          beat_q <= '0;
          dp_q <= dp_q + 1'b1;
        end else begin
          beat_q <= beat_q + 1'b1;
        end
      end
      if (rd_cpl_valid_i) begin
        cp_q <= cp_q + 1'b1;
        cp1_q <= cp1_q + 1'b1;
        if (!cpl_db && !cpl_rdb) begin
          done_q <= done_q + 8'd1;
          if (rd_cpl_status_i != 2'b00) begin
            errors_q <= errors_q + 8'd1;
            err_tag_q <= cmd_tag[cp_q[CmdAw-1:0]];
          end
        end
      end

      // ---- doorbells of enabled SQs
      if (trig_push || syn_push) tw_q <= tw_q + 3'd1;
      unique case (ev_q)
        S_IDLE: if (trig_pop) begin
          tr_q <= tr_q + 3'd1;
          cur_q <= trig_mem[tr_q[1:0]];
          // an index stored for this QP and not yet written: the RAM's is stale
          cancel_q <= (any_st && any_qpn == trig_qpn && any_rq == trig_rq) ||
                      (pend_q && pend_qpn_q == {trig_rq, trig_qpn[QpAw-1:0]});
          ev_q <= 32'(trig_qpn) < NumQps ? S_EV : S_IDLE;
        end
        S_EV: begin
          // the entry: enabled, this page, an index that moves forward by at most the ring
          n_q    <= cur_pi - fidx_q;
          left_q <= size - fidx_m;
          // an RQ: the free slots in whole WQEs, none while its records are all taken
          free_q <= !cur_rq ? DbCntW'(DbBbs) - dused_q
                  : rfull ? '0 : DbCntW'((RdbCntW'(RdbBbs) - rused_q) >> ent_q[2:1]);
          lb_q   <= ent_q[2:1];
          base_q <= ent_q[EntW-1:23] + (58'(fidx_m) << ent_q[2:1]);
          ok_q   <= ent_q[0] && (ent_q[22:7] == cur_q[47:32] || cur_q[50]) && !cancel_q && !st_hit;
          ext_q  <= !cur_rq && rec_cnt != '0 && last_qpn_q == cur_qpn && last_end_q == fidx_q;
          // (ahead only while the RQ records are all this QP's: a QP fetched ahead gives the
          // head up to another QP's record behind it, and that record's removal and the fetch
          // again at its next grant would be for nothing)
          gahead_q <= glim_ev_q[15:0] + (rrec_cnt == '0 || (rdiff_q == '0 && rlast_qpn_q == cur_qpn)
                                         ? 16'(AheadBbs >> ent_q[2:1]) : 16'd0);
          ev_q   <= gmode_q && cur_rq ? S_LM : S_K;
        end
        S_LM: begin
          ok_q <= ok_q && !st_hit && n_q != 16'd0 && n_q <= size;
          n_q  <= !glim_ev_q[16] || gleft[15] ? 16'd0 : gleft < n_q ? gleft : n_q;
          ev_q <= S_K;
        end
        S_K: begin
          // WQEBBs to fetch: those announced, to the ring end, into the free slots, a region's
          // worth at most; none when the records are all taken (unless it extends the newest)
          k_q <= n_q > size || (!cur_rq && ((!ext_q && rec_cnt == RecPw'(DbNum)) || auto_q == RecCntW'(DbNum))) ? 16'd0
               : n_q < left_q && n_q < 16'(free_q) ? n_q
               : left_q < 16'(free_q) ? left_q : 16'(free_q);
          // a bf_db's index is taken only when it moves forward within the ring
          ok_q <= ok_q && !st_hit && n_q != 16'd0 && n_q <= size;
          ev_q <= S_GO;
        end
        S_GO: if (!(ok_q && !st_hit && (cur_q[48] || k_q != 16'd0) && go_wait)) ev_q <= S_IDLE;
        default: ev_q <= S_IDLE;
      endcase
      if (st_hit && ev_q != S_IDLE) begin
        cancel_q <= 1'b1;
        ok_q <= 1'b0;
      end

      // ---- records: pushed (or extended) with their command, a command's completion counted in
      // its record, popped by the firmware. A bus error in any command marks the record.
      if (go_push && !cur_rq) begin
        if (!ext_go) rec_wp_q <= rec_wp_q + 1'b1;
        dslot_q <= dslot_q + DbSlotAw'(k_q);
        last_qpn_q <= cur_qpn;
        last_end_q <= fidx_q + k_q;
      end
      if (go_push && cur_rq) begin
        rrec_wp_q <= rrec_wp_q + 1'b1;
        rslot_q <= rslot_q + RdbSlotAw'(kb);
      end
      // The record loops change a record only with a command stored (go_push) or completed
      // (rd_cpl_valid_i): the simulator skips them on the other cycles (docs/sim-speed.md, step
      // 13: the count loop was ~3 % of a NIC cycle's host instructions); the same enable in Yosys.
      if (go_push || rd_cpl_valid_i) for (int i = 0; i < RdbNum; i++) begin
        if (go_push && cur_rq && rrec_wp_q[RrAw-1:0] == RrAw'(i)) begin
          rrec_pend_q[i] <= 1'b1;
          rrec_err_q[i] <= 1'b0;
        end else if (rd_cpl_valid_i && cpl_rdb && rrec_live && cpl_rec[RrAw-1:0] == RrAw'(i)) begin
          rrec_pend_q[i] <= 1'b0;
          if (rd_cpl_status_i != 2'b00) rrec_err_q[i] <= 1'b1;
        end
      end
      if (rrec_pop) rrec_rp_q <= rrec_rp_q + 1'b1;
      if (go_push && cur_rq) begin
        rrec_same_q[rrec_wp_q[RrAw-1:0]] <= cur_qpn == rlast_qpn_q;
        rlast_qpn_q <= cur_qpn;
      end
      // (a record pushed as the only one left is the head: not behind it; a pop makes the record
      // after the head the head)
      rdiff_q <= rdiff_q + RrCntW'(go_push && cur_rq && cur_qpn != rlast_qpn_q &&
                                   rrec_cnt != RrPw'(rrec_pop))
                         - RrCntW'(rrec_pop && rrec_cnt > RrPw'(1) && !rrec_same_q[rrec_rp_q[RrAw-1:0] + 1'b1]);
      rused_q <= rused_q + (go_push && cur_rq ? RdbCntW'(kb) : '0)
                         - (rrec_pop ? rrec_bbs[rrec_rp_q[RrAw-1:0]] : '0);
      if (go_push || rd_cpl_valid_i) for (int i = 0; i < DbNum; i++) begin
        if (go_push && !cur_rq && !ext_go && rec_wp_q[RecAw-1:0] == RecAw'(i)) begin
          rec_pend_q[i*RecCntW +: RecCntW] <= RecCntW'(1);   // (a dropped record's count is stale: restart it)
          rec_err_q[i] <= 1'b0;
        end else begin
          rec_pend_q[i*RecCntW +: RecCntW] <= rec_pend_q[i*RecCntW +: RecCntW]
                         + RecCntW'(go_push && !cur_rq && go_rec[RecAw-1:0] == RecAw'(i))
                         - RecCntW'(rd_cpl_valid_i && cpl_db && rec_hit[i]);
          if (rd_cpl_valid_i && cpl_db && rec_hit[i] && rd_cpl_status_i != 2'b00)
            rec_err_q[i] <= 1'b1;
        end
      end
      if (rec_pop) rec_rp_q <= rec_rp_q + 1'b1;
      if (go_push || rec_pop) for (int i = 0; i < DbNum; i++) begin
        if (go_push && !cur_rq && !ext_go && rec_wp_q[RecAw-1:0] == RecAw'(i)) begin
          rec_v_q[i] <= 1'b1;
          rec_hi_q[RecHiW*i +: RecHiW] <= rec_wp_q[RecPw-1:RecAw];
        end else if (rec_pop && rec_rp_q[RecAw-1:0] == RecAw'(i)) begin
          rec_v_q[i] <= 1'b0;
        end
      end
      rec_cnt_q <= rec_cnt_q + RecPw'(go_push && !cur_rq && !ext_go) - RecPw'(rec_pop);
      dused_q <= dused_q + (go_push && !cur_rq ? DbCntW'(k_q) : '0)
                         - (rec_pop ? rec_bbs[rec_rp_q[RecAw-1:0]] : '0);
    end
  end

  // ---- the receive feed: one command at a time. F_HEAD samples the oldest RQ record, F_DEC
  // decides on those registers (the firmware's rq_rec_take: this QP's record holding the position
  // is used, records of other QPs and of passed positions are removed, one further on or none
  // stops the command), F_RD reads the WQE's first RQ_DESC_BYTES from the receive doorbell region
  // row by row (slots wrap inside the region), F_EMIT checks num_sge and puts the rq_desc into
  // the output register.
  localparam int unsigned DescBytes = rnic_spec_pkg::RQ_DESC_BYTES;
  localparam int unsigned SgeBytes  = rnic_spec_pkg::WQE_SGE_BYTES;
  localparam int unsigned WqeRows   = (DescBytes + Bpb - 1) / Bpb;   // region rows a WQE's first bytes span
  localparam int unsigned WqeRowW   = WqeRows > 1 ? $clog2(WqeRows) : 1;
  typedef enum logic [3:0] { F_IDLE, F_HEAD, F_DEC, F_RD, F_EMIT,
                             G_HEAD, G_CMP, G_DEC, G_WB, G_RW, G_PU } feed_state_e;
  feed_state_e                 fs_q;
  rnic_spec_pkg::wqf_rqf_arg_t farg_q;
  logic [15:0]                 fqpn_q, fpos_q;
  logic [7:0]                  fleft_q, fhand_q;
  logic [1:0]                  fstop_q;
  logic                        h_valid_q, h_mine_q, h_fwd_q, h_pend_q, h_err_q, flast_q;
  logic [15:0]                 h_d_q, h_first_q;
  logic [1:0]                  h_lb_q;
  logic                        gdirty_q, gstp_q, gpu_q, c_off_q, c_pass_q, c_ahead_q, c_lim_q;
  // a QP at its limit gives the head up (its record removed, its fetch index moved back): a
  // record of another QP stands behind it, or another QP waits for room in the region
  logic                        gyield_q;
  logic                        stop_v_q;
  logic [15:0]                 stop_qpn_q, stop_pos_q;
  logic [1:0]                  stop_rsn_q;
  // grant mode (below): the QP's grant and feed as read, the stores that touch them
  logic [16:0]                 glim_rd_q, gfeed_rd_q;
  logic [15:0]                 gpi_rd_q;
  logic                        gst, gst_ok, gfst_ok, gpst, gstop_st, gwb, gpi_we, gpi_st;
  rnic_spec_pkg::rqf_grant_t   gst_w;
  logic                        ghit, ghit_dis, gpu_need, gpu_go;
  logic [15:0]                 gd;          // how far the QP's feed lies past the record's first WQE
  logic [15:0]                 gl;          // the positions the grant leaves from the feed on
  logic [RdbCntW-1:0]          h_n_q;
  logic [RdbSlotAw-1:0]        h_slot_q, fslot_q;
  logic [WqeRowW-1:0]          fj_q;
  logic [8*DescBytes-1:0]      wqe_q;     // the WQE's first DescBytes bytes
  logic                        feed_st;
  rnic_spec_pkg::wqf_sq_qidx_t feed_cmd;
  logic [7:0]                  wqe_nsge;
  // cycles F_EMIT has waited to hand its descriptor over: the receive engine holds the QP table's
  // port while it works on a packet and may wait there for the event ring the firmware drains,
  // so a firmware waiting for the command would deadlock; after wqf_rqf_yield the command ends
  localparam int unsigned YieldW = $clog2(rnic_spec_pkg::FW_TC_WQF_RQF_YIELD);
  logic [YieldW-1:0]           fwait_q;
  assign feed_st  = tc_req_i && tc_we_i && tc_addr_i == rnic_spec_pkg::FW_TC_WQF_RQF_CMD && fs_q == F_IDLE;
  assign feed_cmd = tc_wdata_i;
  assign wqe_nsge = wqe_q[rnic_spec_pkg::RQ_WQE_NUM_SGE_LSB +: 8];
  logic [RdbRowAw-1:0] frel;                // the row inside the receive doorbell region (wrapping)
  assign frel = (RdbRowAw'(fslot_q) << BbBeatAw) + RdbRowAw'(fj_q);
  assign frow = RowAw'(SqRows + RqRows + DbRows) + RowAw'(frel);
  logic [15:0] h_gap;                      // how far the head record starts past the position
  assign h_gap = rrec_first[rrec_rp_q[RrAw-1:0]] - fpos_q;
  // the record at the head holds the position (index d of its n WQEs)
  logic h_hit;
  assign h_hit    = h_valid_q && h_mine_q && h_d_q < 16'(h_n_q);
  // removed: a record in the way (F_DEC), or the one whose last WQE went (F_EMIT), so its slots
  // go back to the engine's next fetch at once
  logic emit;
  logic gdec_pop, gsge_stop;                // grant mode: a record removed in G_DEC; a WQE's num_sge stops its QP
  assign feed_pop = (fs_q == F_DEC && fleft_q != '0 && h_valid_q && !h_hit && !(h_mine_q && h_fwd_q)) ||
                    (emit && flast_q) || gdec_pop || gsge_stop;

  // The merge with the firmware's mailbox ends in one register, the QP table's port (its rq_ok
  // compare and slot writes take the levels a mux in front would add). It loads only while empty,
  // in the order the descriptors come: the mailbox's when both want it (the firmware commits
  // nothing while a feed command runs, so a commit waiting as the feed emits was made before the
  // command), the feed's WQE otherwise. Then the port's order is the order of the loads.
  rnic_spec_pkg::rq_desc_t out_q, desc;
  logic out_valid_q;
  assign rqd_valid_o    = out_valid_q;
  assign rqd_o          = out_q;
  assign fw_rqd_ready_o = !out_valid_q;
  logic gpass_q, gdis_q;                    // a grant-mode pass; its QP's grant disabled meanwhile
  logic sge_over_q;                         // grant mode: the WQE names more SGEs than gsmax (set in F_RD)
  logic [7:0] gsmax;                        // min(MAX_SGE, what the record's stride holds)
  assign emit = fs_q == F_EMIT && !out_valid_q && !fw_rqd_valid_i &&
                (gpass_q ? !sge_over_q && !gdis_q : wqe_nsge <= farg_q.sge_max);
  always_comb begin
    // qpn, num_sge, the WQE's wr_id, then its SGEs as they are (those beyond num_sge zero)
    desc = '0;
    desc[rnic_spec_pkg::RQ_DESC_QPN_LSB +: 32] = 32'(fqpn_q);
    desc[rnic_spec_pkg::RQ_DESC_NUM_SGE_LSB +: 8] = wqe_nsge;
    desc[rnic_spec_pkg::RQ_DESC_WR_ID_LSB +: 64] = wqe_q[rnic_spec_pkg::RQ_WQE_WR_ID_LSB +: 64];
    for (int i = 0; i < rnic_spec_pkg::MAX_SGE; i++)
      if (8'(i) < wqe_nsge)
        desc[rnic_spec_pkg::RQ_DESC_SGE0_ADDR_LSB + 8*SgeBytes*i +: 8*SgeBytes] =
          wqe_q[8*(rnic_spec_pkg::RQ_WQE_BYTES + SgeBytes*i) +: 8*SgeBytes];
  end

  always_ff @(posedge clk_i) begin
    // byte by byte, constant part-selects (an indexed one on the left is a barrel shifter in
    // Yosys), only the bytes a descriptor takes
    for (int k = 0; k < WqeRows; k++)
      for (int b = 0; b < Bpb; b++)
        if (k * Bpb + b < DescBytes && fs_q == F_RD && 32'(fj_q) == k) wqe_q[8*(k*Bpb + b) +: 8] <= feed_rd[8*b +: 8];
    if (fw_rqd_valid_i && !out_valid_q) out_q <= fw_rqd_i;
    else if (emit) out_q <= desc;
    if (fs_q == F_HEAD) begin
      h_d_q    <= fpos_q - rrec_first[rrec_rp_q[RrAw-1:0]];
      h_n_q    <= rrec_bbs[rrec_rp_q[RrAw-1:0]] >> farg_q.log_bbs;
      h_fwd_q  <= !h_gap[15];
      h_mine_q <= rrec_qpn[rrec_rp_q[RrAw-1:0]] == fqpn_q;
      h_slot_q <= rrec_slot[rrec_rp_q[RrAw-1:0]];
    end else if (fs_q == G_HEAD) begin
      h_first_q <= rrec_first[rrh];
      h_n_q     <= rrec_bbs[rrh] >> rrec_lb[rrh];
      h_lb_q    <= rrec_lb[rrh];
      h_slot_q  <= rrec_slot[rrh];
    end
    if (fs_q == G_CMP) h_d_q <= gd;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fs_q        <= F_IDLE;
      farg_q      <= '0;
      fqpn_q      <= '0;
      fpos_q      <= '0;
      fleft_q     <= '0;
      fhand_q     <= '0;
      fstop_q     <= '0;
      h_valid_q   <= 1'b0;
      h_pend_q    <= 1'b0;
      h_err_q     <= 1'b0;
      flast_q     <= 1'b0;
      fslot_q     <= '0;
      fj_q        <= '0;
      fwait_q     <= '0;
      out_valid_q <= 1'b0;
      gpass_q     <= 1'b0;
      sge_over_q  <= 1'b0;
      gdirty_q    <= 1'b0;
      gdis_q      <= 1'b0;
      gstp_q      <= 1'b0;
      gpu_q       <= 1'b0;
      c_off_q     <= 1'b0;
      c_pass_q    <= 1'b0;
      c_ahead_q   <= 1'b0;
      c_lim_q     <= 1'b0;
      rwd_qpn_q   <= '0;
      rwd_idx_q   <= '0;
      stop_v_q    <= 1'b0;
      stop_qpn_q  <= '0;
      stop_pos_q  <= '0;
      stop_rsn_q  <= '0;
    end else begin
      // grant mode: a store to the pass's QP since its state was read: read it again; a disable
      // drops the WQE it holds
      if (fs_q == G_HEAD) begin
        gdirty_q <= ghit;
        gdis_q   <= ghit_dis;
      end else begin
        if (ghit) gdirty_q <= 1'b1;
        if (ghit_dis) gdis_q <= 1'b1;
      end
      if (gstop_st) stop_v_q <= 1'b0;
      if (fs_q == G_CMP) begin
        c_off_q   <= !glim_rd_q[16] || gfeed_rd_q[16];
        c_ahead_q <= gd[15];
        c_pass_q  <= !gd[15] && gd >= 16'(h_n_q);
        c_lim_q   <= gl[15] || gl == 16'd0;     // at the limit (or past it: a limit moved back)
        fpos_q    <= gfeed_rd_q[15:0];
      end
      fwait_q <= fs_q == F_EMIT && !emit ? fwait_q + 1'b1 : '0;
      if (tc_req_i && tc_we_i && tc_addr_i == rnic_spec_pkg::FW_TC_WQF_RQF_ARG) farg_q <= tc_wdata_i;
      if ((fw_rqd_valid_i || emit) && !out_valid_q) out_valid_q <= 1'b1;
      else if (rqd_ready_i) out_valid_q <= 1'b0;
      unique case (fs_q)
        F_IDLE: if (feed_st) begin
          fqpn_q  <= feed_cmd.qpn;
          fpos_q  <= feed_cmd.index;
          fleft_q <= farg_q.count;
          fhand_q <= '0;
          fstop_q <= '0;
          gpass_q <= 1'b0;
          fs_q    <= F_HEAD;
        end else if (gmode_q && rrec_cnt != '0) begin
          fqpn_q  <= rrec_qpn[rrh];          // grant mode: a pass over the head record
          gpass_q <= 1'b1;
          gstp_q  <= 1'b0;
          fs_q    <= G_HEAD;
        end
        G_HEAD: begin                        // the QP's grant and feed are read (ga)
          h_pend_q <= rrec_pend_q[rrh];
          h_err_q  <= rrec_err_q[rrh];
          fs_q     <= G_CMP;
        end
        G_CMP: fs_q <= G_DEC;
        G_DEC: begin
          if (gdirty_q || ghit) begin
            fs_q <= G_HEAD;                  // its state changed since the read
          end else if (c_off_q || c_pass_q) begin
            fs_q <= F_IDLE;                  // removed (gdec_pop): not fed, or passed
          end else if (c_lim_q && !c_ahead_q && !gyield_q) begin
            fs_q <= G_DEC;                   // at its limit, nobody else waits: the WQE is kept
                                             // for the next grant (ghit reads it again)
          end else if (c_ahead_q || c_lim_q) begin
            rwd_qpn_q <= fqpn_q;             // removed: fetched again from feed later
            rwd_idx_q <= fpos_q;
            gpu_q     <= c_ahead_q && !c_lim_q;  // (at its limit: the next grant queues it)
            fs_q      <= G_RW;
          end else if (h_pend_q) begin
            fs_q <= G_HEAD;                  // its fetch is still in flight
          end else if (h_err_q) begin
            if (!stop_v_q) begin             // the fetch failed: the QP stops (gdec_pop)
              stop_v_q   <= 1'b1;
              stop_qpn_q <= fqpn_q;
              stop_pos_q <= fpos_q;
              stop_rsn_q <= 2'd1;
              gstp_q     <= 1'b1;
              fs_q       <= G_WB;
            end else begin
              fs_q <= G_HEAD;                // the firmware has not taken the last stop yet
            end
          end else begin
            fslot_q <= RdbSlotAw'(h_slot_q + RdbSlotAw'(h_d_q << h_lb_q));
            flast_q <= h_d_q + 16'd1 == 16'(h_n_q);
            fj_q    <= '0;
            fs_q    <= F_RD;
          end
        end
        G_WB: if (gwb) fs_q <= F_IDLE;
        G_RW: if (eng_st) fs_q <= G_PU;
        G_PU: if (!gpu_need || gpu_go) fs_q <= F_IDLE;
        F_HEAD: begin
          h_valid_q <= rrec_cnt != '0;
          h_pend_q  <= rrec_pend_q[rrec_rp_q[RrAw-1:0]];
          h_err_q   <= rrec_err_q[rrec_rp_q[RrAw-1:0]];
          fs_q      <= F_DEC;
        end
        F_DEC: begin
          if (fleft_q == '0) begin
            fs_q <= F_IDLE;                          // count reached
          end else if (!h_valid_q || (!h_hit && h_mine_q && h_fwd_q)) begin
            fstop_q <= 2'd1;                         // no record holds the position
            fs_q    <= F_IDLE;
          end else if (!h_hit) begin
            fs_q <= F_HEAD;                          // removed (feed_pop): the next record
          end else if (h_pend_q) begin
            fs_q <= F_HEAD;                          // its fetch is still in flight
          end else if (h_err_q) begin
            fstop_q <= 2'd2;
            fs_q    <= F_IDLE;
          end else begin
            fslot_q <= RdbSlotAw'(h_slot_q + RdbSlotAw'(h_d_q << farg_q.log_bbs));
            flast_q <= h_d_q + 16'd1 == 16'(h_n_q);
            fj_q    <= '0;
            fs_q    <= F_RD;
          end
        end
        F_RD: begin
          fj_q <= fj_q + 1'b1;
          // (num_sge, byte 8, is in the rows read before the last: WqeRows >= 2)
          sge_over_q <= wqe_nsge > gsmax;
          if (32'(fj_q) == WqeRows - 1) fs_q <= F_EMIT;
        end
        F_EMIT: if (gpass_q) begin
          if (gdis_q) begin
            fs_q <= G_WB;                              // disabled: the WQE is not handed
          end else if (sge_over_q) begin
            if (!stop_v_q) begin                       // gsge_stop: the QP stops here
              stop_v_q   <= 1'b1;
              stop_qpn_q <= fqpn_q;
              stop_pos_q <= fpos_q;
              stop_rsn_q <= 2'd2;
              gstp_q     <= 1'b1;
              fs_q       <= G_WB;
            end
          end else if (emit) begin
            fpos_q <= fpos_q + 16'd1;
            fs_q   <= G_WB;
          end
        end else if (wqe_nsge > farg_q.sge_max) begin
          fstop_q <= 2'd3;                           // the firmware completes it (LOC_LEN_ERR)
          fs_q    <= F_IDLE;
        end else if (emit) begin
          fpos_q  <= fpos_q + 16'd1;
          fleft_q <= fleft_q - 8'd1;
          fhand_q <= fhand_q + 8'd1;
          fs_q    <= F_HEAD;
        end else if (&fwait_q) begin
          fs_q    <= F_IDLE;                         // the port held: the firmware goes on from here
        end
        default: fs_q <= F_IDLE;
      endcase
    end
  end
  // ---- grant mode: per-QP state in RAMs (no reset: the firmware writes every QP's rqf_grant
  // before it sets wqf_db_ctl bit 2, and a QP's rqf_feed before it enables it), the stop
  // register, the read-back, and the queue of QPs waiting for a re-evaluation of their fetch
  localparam int unsigned Smax0 = (BbBytes - rnic_spec_pkg::RQ_WQE_BYTES) / SgeBytes;
  localparam int unsigned Smax1 = (2 * BbBytes - rnic_spec_pkg::RQ_WQE_BYTES) / SgeBytes;
  localparam int unsigned Smax2 = (4 * BbBytes - rnic_spec_pkg::RQ_WQE_BYTES) / SgeBytes;
  localparam int unsigned Smax3 = (8 * BbBytes - rnic_spec_pkg::RQ_WQE_BYTES) / SgeBytes;
  localparam int unsigned Mx    = rnic_spec_pkg::MAX_SGE;
  always_comb begin
    unique case (h_lb_q)
      2'd0: gsmax = 8'(Smax0 < Mx ? Smax0 : Mx);
      2'd1: gsmax = 8'(Smax1 < Mx ? Smax1 : Mx);
      2'd2: gsmax = 8'(Smax2 < Mx ? Smax2 : Mx);
      default: gsmax = 8'(Smax3 < Mx ? Smax3 : Mx);
    endcase
  end

  logic [16:0]  glim_mem  [NumQps];         // {en, limit}
  logic [16:0]  gfeed_mem [NumQps];         // {stopped, feed}
  logic [15:0]  gpi_mem   [NumQps];         // producer index of the QP's last rq_db accepted
  assign gst      = tc_req_i && tc_we_i && tc_addr_i == rnic_spec_pkg::FW_TC_RQF_GRANT;
  assign gst_w    = tc_wdata_i;
  assign gst_ok   = gst && 32'(gst_w.qpn) < NumQps;
  assign gfst_ok  = tc_req_i && tc_we_i && tc_addr_i == rnic_spec_pkg::FW_TC_RQF_FEED && 32'(st_qidx.qpn) < NumQps;
  assign gpst     = tc_req_i && tc_we_i && tc_addr_i == rnic_spec_pkg::FW_TC_RQF_POS;
  assign gstop_st = tc_req_i && tc_we_i && tc_addr_i == rnic_spec_pkg::FW_TC_RQF_STOP;
  // the firmware's checked producer index (rqf_pi): the RAM's entry, and a re-evaluation queued
  assign gpi_st   = tc_req_i && tc_we_i && tc_addr_i == rnic_spec_pkg::FW_TC_RQF_PI && 32'(st_qidx.qpn) < NumQps;
  assign gwb      = fs_q == G_WB && !gfst_ok;  // the firmware's rqf_feed store goes first
  // an rq_db of an enabled RQ from its page: its producer index is the re-evaluations'
  assign gpi_we   = ev_q == S_EV && cur_rq && !cur_q[50] && ent_q[0] && ent_q[22:7] == cur_q[47:32];
  // a store to the grant pass's QP
  assign ghit     = (gst_ok && 16'(gst_w.qpn) == fqpn_q) || (gfst_ok && st_qidx.qpn == fqpn_q);
  assign ghit_dis = gst_ok && 16'(gst_w.qpn) == fqpn_q && !gst_w.en;
  assign gd = gfeed_rd_q[15:0] - h_first_q;
  assign gl = glim_rd_q[15:0] - gfeed_rd_q[15:0];
  assign gdec_pop  = fs_q == G_DEC && !(gdirty_q || ghit) &&
                     (c_off_q || c_pass_q || c_ahead_q || (c_lim_q && gyield_q) ||
                      (!c_lim_q && !h_pend_q && h_err_q && !stop_v_q));
  assign gsge_stop = fs_q == F_EMIT && gpass_q && !gdis_q && sge_over_q && !stop_v_q;
  assign eng_st    = fs_q == G_RW && !(cfg_st || fidx_st);

  logic [15:0]  pos_sel_q;                  // the QP rqf_pos reads
  logic [QpAw-1:0] ga;                      // the grant RAMs' read address
  assign ga = fs_q == G_HEAD ? fqpn_q[QpAw-1:0] : pos_sel_q[QpAw-1:0];
  logic [QpAw-1:0] rwf_head;
  always_ff @(posedge clk_i) begin
    if (gst_ok) glim_mem[gst_w.qpn[QpAw-1:0]] <= {gst_w.en, gst_w.limit};
    if (gst_ok) glim2_mem[gst_w.qpn[QpAw-1:0]] <= {gst_w.en, gst_w.limit};  // the evaluator's copy
    if (gfst_ok) gfeed_mem[st_qidx.qpn[QpAw-1:0]] <= {1'b0, st_qidx.index};
    else if (gwb) gfeed_mem[fqpn_q[QpAw-1:0]] <= {gstp_q, fpos_q};
    // (the firmware's store goes first: it takes every rq_db the engine does, later, so the
    // index the engine's write would have left comes again with the firmware's next store)
    if (gpi_st) gpi_mem[st_qidx.qpn[QpAw-1:0]] <= st_qidx.index;
    else if (gpi_we) gpi_mem[cur_qpn[QpAw-1:0]] <= cur_pi;
    glim_rd_q  <= glim_mem[ga];
    gfeed_rd_q <= gfeed_mem[ga];
    gpi_rd_q   <= gpi_mem[rwf_head];
  end

  // the re-evaluation queue: each QP at most once (rwf_pend_q), so NumQps entries never overflow.
  // Pushed by a grant store (en 1), by a record removed ahead of the QP's feed (after the rewind;
  // at the limit only when a grant came meanwhile), and by an rq_db evaluation in grant mode that
  // fetched less than announced or was dropped by a store. Served into the doorbell FIFO as a
  // synthetic rq_db while the evaluator is idle and the region has changed since a
  // re-evaluation last found no room (room_q), so a QP that does not fit waits for a record to go.
  logic [QpAw-1:0]   rwf_mem [NumQps];
  logic [QpAw:0]     rwf_wp_q, rwf_rp_q;
  logic [NumQps-1:0] rwf_pend_q;
  logic              rwf_clr_q;
  logic [QpAw-1:0]   rwf_clr_qpn_q;
  logic              rs_q, room_q, ev_room_q, lost_q;
  logic [QpAw-1:0]   evq_qpn_q;
  logic              src_a, src_b, src_c, rw_push;
  logic [QpAw-1:0]   rw_qpn;
  assign rwf_head = rwf_mem[rwf_rp_q[QpAw-1:0]];
  logic [QpAw:0]     rwf_cnt;
  assign rwf_cnt = rwf_wp_q - rwf_rp_q;
  assign gpu_need = fs_q == G_PU && (gpu_q || gdirty_q);
  // (the grant store's push a cycle later, from registers: the store's QP compare and the
  // pending-bit lookup in one cycle were 10 LUT levels)
  logic              gpush_q;
  logic [QpAw-1:0]   gpush_qpn_q;
  assign src_a    = gpush_q;
  assign src_b    = gpu_need;
  assign src_c    = evq_v_q;
  assign gpu_go   = src_b && !src_a;
  assign rw_qpn   = src_a ? gpush_qpn_q : src_b ? fqpn_q[QpAw-1:0] : evq_qpn_q;
  // (the chosen QP is registered and its pending bit looked up the next cycle: the choice, the
  // 1024-way lookup and the set in one cycle were 8 LUT levels at NumQps 1024)
  logic              rq_v_q;
  logic [QpAw-1:0]   rq_qpn_q;
  assign rw_push  = rq_v_q && !rwf_pend_q[rq_qpn_q];
  assign syn_push = rs_q && !trig_push && !trig_full;
  assign syn_value = {gpi_rd_q, 16'(rwf_head)};
  // the evaluator's end (S_GO leaving) and whether the evaluation fetched less than announced
  logic go_exit;
  assign go_exit = ev_q == S_GO && !(ok_q && !st_hit && (cur_q[48] || k_q != 16'd0) && go_wait);
  always_ff @(posedge clk_i) begin
    if (rw_push) rwf_mem[rwf_wp_q[QpAw-1:0]] <= rq_qpn_q;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      gmode_q    <= 1'b0;
      rwf_wp_q   <= '0;
      rwf_rp_q   <= '0;
      rwf_pend_q <= '0;
      rwf_clr_q  <= 1'b0;
      rq_v_q     <= 1'b0;
      rq_qpn_q   <= '0;
      rwf_clr_qpn_q <= '0;
      rs_q       <= 1'b0;
      room_q     <= 1'b1;
      gyield_q   <= 1'b1;
      ev_room_q  <= 1'b0;
      lost_q     <= 1'b0;
      evq_v_q    <= 1'b0;
      evq_qpn_q  <= '0;
      pos_sel_q  <= '0;
      gpush_q    <= 1'b0;
      gpush_qpn_q <= '0;
    end else begin
      if (tc_req_i && tc_we_i && tc_addr_i == rnic_spec_pkg::FW_TC_WQF_DB_CTL) begin
        gmode_q <= tc_wdata_i[2];
        lost_q  <= 1'b0;
      end else if (gmode_q && db_valid_i && db_rq_i && rdb_en_q && trig_full) begin
        lost_q  <= 1'b1;
      end
      if (gpst) pos_sel_q <= st_qidx.qpn;
      gpush_q <= (gst_ok && gst_w.en == 1'b1) || gpi_st;
      if (gst) gpush_qpn_q <= gst_w.qpn[QpAw-1:0];
      else if (gpi_st) gpush_qpn_q <= st_qidx.qpn[QpAw-1:0];
      rq_v_q <= src_a || src_b || src_c;
      rq_qpn_q <= rw_qpn;
      if (rw_push) rwf_wp_q <= rwf_wp_q + 1'b1;
      // (the served QP's pending bit clears a cycle later, from a register: the LUTRAM read of
      // the queue's head and the 1024-way clear in one cycle were 9 LUT levels in the 100g core.
      // A push of that QP in between is dropped as a duplicate; the evaluation just queued for
      // it runs after whatever made the push: a grant store is in the limit it reads, a rewind
      // drops or precedes it, an evaluation's own push came from before it.)
      rwf_clr_q <= syn_push;
      if (syn_push) begin
        rwf_rp_q <= rwf_rp_q + 1'b1;
        rwf_clr_qpn_q <= rwf_head;
      end
      // (per bit with constant indices: with session 28's fetch ahead, Yosys 0.23 mapped the two
      // indexed writes at NumQps 1024 to a 16-way mux per bit, 9 413 LUT for the block against
      // 7 022 so; the clear goes last, as before)
      if (rw_push || rwf_clr_q)
        for (int i = 0; i < NumQps; i++)
          if (rwf_clr_q && rwf_clr_qpn_q == QpAw'(i)) rwf_pend_q[i] <= 1'b0;
          else if (rw_push && rq_qpn_q == QpAw'(i)) rwf_pend_q[i] <= 1'b1;
      if (!rs_q) rs_q <= gmode_q && rwf_wp_q != rwf_rp_q && room_q && ev_q == S_IDLE && tw_q == tr_q;
      else if (syn_push) rs_q <= 1'b0;
      if (src_c && !src_a && !src_b) evq_v_q <= 1'b0;
      else if (gmode_q && go_exit && cur_rq && (cancel_q || st_hit || (ok_q && k_q < n_q))) begin
        evq_v_q   <= 1'b1;
        evq_qpn_q <= cur_qpn[QpAw-1:0];
      end
      // (the evaluation's free room was counted in S_EV: a record that left since then makes
      // room it did not see)
      // (from registers, a cycle late: the hold is a choice of when, not of what is handed)
      gyield_q <= !gmode_q || rdiff_q != '0 ||
                  (!room_q && (rwf_cnt > (QpAw+1)'(1) || (rwf_cnt != '0 && rwf_head != fqpn_q[QpAw-1:0])));
      if (rrec_pop || (rd_cpl_valid_i && cpl_rdb)) room_q <= 1'b1;
      else if (go_exit && cur_rq && ok_q && !st_hit && k_q < n_q && k_q < left_q && !ev_room_q) room_q <= 1'b0;
      if (trig_pop) ev_room_q <= 1'b0;
      else if (rrec_pop || (rd_cpl_valid_i && cpl_rdb)) ev_room_q <= 1'b1;
    end
  end
  // the read-back of rqf_pos: valid once a read of the selected QP was not overtaken by a write
  logic        pos_rd_q, pos_valid_q, pos_wr;
  logic        pos_en_q;
  logic [16:0] pos_feed_q;
  assign pos_wr = (gst_ok && 16'(gst_w.qpn) == pos_sel_q) || (gfst_ok && st_qidx.qpn == pos_sel_q) ||
                  (gwb && fqpn_q == pos_sel_q);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pos_rd_q    <= 1'b0;
      pos_valid_q <= 1'b0;
      pos_en_q    <= 1'b0;
      pos_feed_q  <= '0;
    end else if (gpst) begin
      pos_rd_q    <= 1'b0;
      pos_valid_q <= 1'b0;
    end else begin
      pos_rd_q <= fs_q != G_HEAD && !pos_wr;
      if (pos_wr) pos_valid_q <= 1'b0;
      else if (pos_rd_q) begin
        pos_valid_q <= 1'b1;
        pos_en_q    <= glim_rd_q[16];
        pos_feed_q  <= gfeed_rd_q;
      end
    end
  end

  // ---- loads: the buffer's words and the status, from a register the cycle after the request
  rnic_spec_pkg::wqf_status_t status;
  rnic_spec_pkg::wqf_sq_qidx_t dbr_qidx;
  rnic_spec_pkg::wqf_dbr_info_t dbr_info;
  rnic_spec_pkg::wqf_sq_qidx_t rqr_qidx;
  rnic_spec_pkg::wqf_dbr_info_t rqr_info;
  rnic_spec_pkg::wqf_rqf_status_t rqf_status;
  rnic_spec_pkg::rqf_status_t g_status;
  rnic_spec_pkg::rqf_pos_t g_pos;
  rnic_spec_pkg::wqf_sq_qidx_t g_stop;
  always_comb begin
    g_status = '0;
    g_status.stop_valid = stop_v_q;
    g_status.reason     = stop_v_q ? stop_rsn_q : 2'd0;
    g_status.lost       = lost_q;
    g_status.busy       = gpass_q && fs_q != F_IDLE;
    g_status.waiting    = 16'(rwf_cnt);
    g_status.present    = 1'b1;
    g_pos = '0;
    g_pos.feed    = pos_feed_q[15:0];
    g_pos.en      = pos_en_q;
    g_pos.stopped = pos_feed_q[16];
    g_pos.busy    = gpass_q && fs_q != F_IDLE && fqpn_q == pos_sel_q;
    g_pos.valid   = pos_valid_q;
    g_stop = '0;
    g_stop.qpn   = stop_qpn_q;
    g_stop.index = stop_pos_q;
  end
  always_comb begin
    rqf_status = '0;
    rqf_status.handed  = fhand_q;
    rqf_status.stop    = fstop_q;
    rqf_status.busy    = fs_q != F_IDLE;
    rqf_status.present = 1'b1;
  end
  logic [RrAw-1:0] rrh;
  assign rrh = rrec_rp_q[RrAw-1:0];
  logic [RecAw-1:0] rh;
  assign rh = rec_rp_q[RecAw-1:0];
  always_comb begin
    status = '0;
    status.done = done_q;
    status.errors = errors_q;
    status.err_tag = err_tag_q;
    status.queued = 4'(fw_q);
    status.dropped = dropped_q;
    dbr_qidx = '0;
    dbr_info = '0;
    if (rec_cnt != '0) begin
      dbr_qidx.qpn = rec_qpn[rh];
      dbr_qidx.index = rec_first[rh];
      dbr_info.bbs = 8'(rec_bbs[rh]);
      dbr_info.slot = 8'(rec_slot[rh]);
      dbr_info.valid = 1'b1;
      dbr_info.done = rec_pend_q[rh*RecCntW +: RecCntW] == '0;
      dbr_info.err = rec_err_q[rh];
      dbr_info.more = rec_cnt > RecPw'(1);
    end
    rqr_qidx = '0;
    rqr_info = '0;
    if (rrec_cnt != '0) begin
      rqr_qidx.qpn = rrec_qpn[rrh];
      rqr_qidx.index = rrec_first[rrh];
      rqr_info.bbs = 8'(rrec_bbs[rrh]);
      rqr_info.slot = 8'(rrec_slot[rrh]);
      rqr_info.valid = 1'b1;
      rqr_info.done = !rrec_pend_q[rrh];
      rqr_info.err = rrec_err_q[rrh];
      rqr_info.more = rrec_cnt > RrPw'(1);
    end
  end
  logic [31:0] tc_rdata_q;
  assign tc_rdata_o = tc_rdata_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tc_rdata_q <= '0;
    end else if (tc_req_i && !tc_we_i) begin
      if (in_buf || in_rq || in_db || in_rdb) tc_rdata_q <= lane_rd[rlane];
      else if (tc_addr_i == rnic_spec_pkg::FW_TC_WQF_STATUS) tc_rdata_q <= status;
      else if (tc_addr_i == rnic_spec_pkg::FW_TC_WQF_DBR_QIDX) tc_rdata_q <= dbr_qidx;
      else if (tc_addr_i == rnic_spec_pkg::FW_TC_WQF_DBR_INFO) tc_rdata_q <= dbr_info;
      else if (tc_addr_i == rnic_spec_pkg::FW_TC_WQF_RQR_QIDX) tc_rdata_q <= rqr_qidx;
      else if (tc_addr_i == rnic_spec_pkg::FW_TC_WQF_RQR_INFO) tc_rdata_q <= rqr_info;
      else if (tc_addr_i == rnic_spec_pkg::FW_TC_WQF_RQF_STATUS) tc_rdata_q <= rqf_status;
      else if (tc_addr_i == rnic_spec_pkg::FW_TC_RQF_STATUS) tc_rdata_q <= g_status;
      else if (tc_addr_i == rnic_spec_pkg::FW_TC_RQF_POS) tc_rdata_q <= g_pos;
      else if (tc_addr_i == rnic_spec_pkg::FW_TC_RQF_STOP) tc_rdata_q <= g_stop;
      else tc_rdata_q <= '0;
    end
  end

  // ---- the transmit builder's row reads: its request registered (the same decode as the
  // firmware's rrow), the row read through the feed's port in a cycle the feed does not read
  // (F_RD), into a register: no second copy of the lanes
  logic                 tv_q, tgo, t_rv_q;
  logic [RowAw-1:0]     trow_q;
  logic [DataWidth-1:0] t_rd_q;
  logic [11:0]          toff;
  assign toff = txb_rd_off_i;
  assign tgo = tv_q && fs_q != F_RD;
  assign frow_m = tgo ? trow_q : frow;
  assign txb_rd_ready_o = !tv_q;
  assign txb_rvalid_o = t_rv_q;
  assign txb_rdata_o = t_rd_q;
  always_ff @(posedge clk_i) begin
    if (txb_rd_valid_i && !tv_q)
      trow_q <= toff[11:RqAw] == RqBase[11:RqAw] ? RowAw'(SqRows) + RowAw'(toff[RqAw-1:LaneAw+2])
              : toff[11:DbAw] == DbBase[11:DbAw] ? RowAw'(SqRows + RqRows) + RowAw'(toff[DbAw-1:LaneAw+2])
              : toff[11:RdbAw] == RdbBase[11:RdbAw] ? RowAw'(SqRows + RqRows + DbRows) + RowAw'(toff[RdbAw-1:LaneAw+2])
              : RowAw'(toff[BufAw-1:LaneAw+2]);
    if (tgo) t_rd_q <= feed_rd;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tv_q   <= 1'b0;
      t_rv_q <= 1'b0;
    end else begin
      if (txb_rd_valid_i && !tv_q) tv_q <= 1'b1;
      else if (tgo) tv_q <= 1'b0;
      t_rv_q <= tgo;
    end
  end

  logic unused;
  assign unused = ^{toff[LaneAw+1:0], addr_lo_q[5:0], cmd_bbs_in, boff[1:0], boff[11:10], BufBase[BufAw-1:0], RqBase[RqAw-1:0],
                    DbBase[DbAw-1:0], RdbBase[RdbAw-1:0], sq_lo_q[5:0], sq_ring_q[30:20], st_qidx.qpn,
                    rq_lo_q[5:0], rq_ring_q[30:22], farg_q.rsvd24, farg_q.rsvd10, h_gap[14:0]};
endmodule
