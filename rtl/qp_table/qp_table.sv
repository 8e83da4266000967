// qp_table: the fast-path QP table, shared by the receive engine (rtl/xport_rx) and the
// transmit engine (rtl/xport_tx); the firmware programs it from the QP context it owns.
// QPN = index, QPNs >= NumQps are invalid.
// Four memories, each with one write and one registered read port (block-RAM friendly):
//   tx copy   qpt_entry_t bits [399:0]            read by the transmit engine (tx_rd_*)
//   rx copy   the fields the receive engine uses  read by xport_rx (with the Q_Key, for UD)
//   state     xport_rx_pkg::qp_state_t           RTL-owned moving state, written back by xport_rx
//   rq slots  rq_desc_t without its qpn (bits 31:0)  RqSlots posted receive buffers per QP (a ring)
// plus a small memory of ring states {head, count}. After reset every entry is cleared (valid = 0,
// state 0, ring empty), one per cycle (NumQps cycles); init_done_o rises when done and nothing is
// accepted before.
// A firmware entry write (qpt_wr_*) writes both copies and (re)initialises the moving state:
// expected PSN := entry.epsn, MSN := 0, no message in progress, cursors 0, ACK counter 0,
// NAK-sent and error flags clear, ring empty. With the command's keep_state bit (a modify of a
// live QP: access flags, RNR timer, Q_Key, path) it writes only the two copies: the moving state
// and the ring are left as they are, so the QP's PSN sequence and posted buffers carry on. A post
// (rqd_*) appends to the QP's ring (a post to a full ring overwrites its newer buffer); the
// receive engine reads the older one (rx_rqd_o, rx_rqv_o = ring not empty) and an engine clear
// (rqv_clr_i) consumes it. Both are accepted only while hold_i is low (the receive engine is
// between packets); an entry write wins over a post. Writes to QPNs >= NumQps (or with reserved
// command bits set) are accepted and dropped. stop_o tells the transmit engine that an entry
// write (re)initialises a QP or stops it receiving, so it forgets the QP's atomics the firmware
// has not answered (it will not answer them).
module qp_table #(
  parameter int NumQps  = 1024,
  parameter int RqSlots = 2      // receive buffers per QP (a power of two, 2..8)
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  input  logic                       hold_i,
  output logic                       init_done_o,
  // firmware: entry write
  input  logic                       qpt_wr_valid_i,
  output logic                       qpt_wr_ready_o,
  input  logic [31:0]                qpt_wr_qpn_i,   // a qpt_cmd: QPN and keep_state
  input  rnic_spec_pkg::qpt_entry_t  qpt_wr_entry_i,
  // firmware: receive-buffer post (qpn inside the descriptor)
  input  logic                       rqd_valid_i,
  output logic                       rqd_ready_o,
  input  rnic_spec_pkg::rq_desc_t    rqd_i,
  // transmit engine read port, 1-cycle latency (entry all zero for QPNs >= NumQps)
  input  logic                       tx_rd_en_i,
  input  logic [23:0]                tx_rd_qpn_i,
  output rnic_spec_pkg::qpt_entry_t  tx_rd_entry_o,
  // receive engine read port, 1-cycle latency; outputs hold until the next read
  input  logic                       rx_rd_en_i,
  input  logic [23:0]                rx_rd_qpn_i,
  output logic                       rx_hit_o,     // QPN < NumQps
  // only the rx fields are filled; on a miss valid reads 0 (and rx_rqv_o 0), the other fields,
  // the state and the slot's descriptor and length are another QP's: readers test the hit first
  output rnic_spec_pkg::qpt_entry_t  rx_entry_o,
  output xport_rx_pkg::qp_state_t    rx_state_o,
  output rnic_spec_pkg::rq_desc_t    rx_rqd_o,     // qpn field zero
  output logic                       rx_rqv_o,     // rq slot full
  output logic [33:0]                rx_rqlen_o,   // the slot's buffer bytes (its num_sge SGE lengths)
  // receive engine write-back (while hold_i is high)
  input  logic                       st_we_i,
  input  logic [23:0]                st_qpn_i,
  input  xport_rx_pkg::qp_state_t    st_i,
  input  logic                       rqv_clr_i,    // with st_we_i: empty the rq slot
  // transmit engine: an entry write took effect that (re)initialises QP stop_qpn_o or stops it
  // receiving (one-cycle pulse, with the write; whatever the QPN)
  output logic                       stop_o,
  output logic [23:0]                stop_qpn_o
);
  localparam int QW = (NumQps > 1) ? $clog2(NumQps) : 1;
  localparam int TxW = 400;
  localparam int RxW = 114;
  localparam int SW = xport_rx_pkg::QpStateBits;
  localparam int RqdW = rnic_spec_pkg::RQ_DESC_BYTES * 8;
  localparam int DW = RqdW - 32;  // the slot needs no qpn (rq_desc bits 31:0)
  // A slot also keeps its buffer size (sum of the SGE lengths), added up when posted: the receive
  // engine's SEND length check then compares against a RAM output instead of adding four lengths
  // behind it (the longest path of xport_rx before; docs/resources.md).
  localparam int LenW = 34;
  localparam int NSge = rnic_spec_pkg::MAX_SGE;
  localparam int SgeBits = rnic_spec_pkg::RQ_DESC_SGE1_ADDR_LSB - rnic_spec_pkg::RQ_DESC_SGE0_ADDR_LSB;
  localparam int RqL0 = rnic_spec_pkg::RQ_DESC_SGE0_LEN_LSB;

  logic [TxW-1:0] tx_mem [NumQps];
  logic [RxW-1:0] rx_mem [NumQps];
  logic [SW-1:0]  st_mem [NumQps];
  // RqSlots receive-buffer slots per QP, used as a ring: rqs = {head, count 0..RqSlots}. With
  // several, the firmware hands over the next buffers while messages fill the current ones, so
  // back-to-back SENDs do not run into RNR NAKs while a refill is on its way.
  localparam int SL = $clog2(RqSlots);
  localparam int RsW = 2 * SL + 1;
  logic [LenW+DW-1:0] rq_mem [RqSlots*NumQps];
  logic [RsW-1:0] rqs_mem [NumQps];
  logic           init_done_q;
  logic [QW:0]    clr_q;
  logic           clr_we;
  logic [QW-1:0]  clr_idx;

  logic           fw_we, rq_we, st_we_any;
  logic [QW-1:0]  fw_idx, rq_idx, st_idx, tx_idx, rx_idx;
  logic           fw_ok, rq_ok, tx_ok, rx_ok;
  logic [RxW-1:0] rx_wdata;
  rnic_spec_pkg::qpt_cmd_t fw_cmd;
  logic           fw_init;   // an entry write that also resets the moving state and the ring
  xport_rx_pkg::qp_state_t st_init, st_wdata;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      init_done_q <= 1'b0;
      clr_q       <= '0;
    end else if (!init_done_q) begin
      clr_q <= clr_q + 1'b1;
      if (clr_q == (QW+1)'(NumQps - 1)) init_done_q <= 1'b1;
    end
  end
  assign init_done_o = init_done_q;
  assign clr_we  = !init_done_q;
  assign clr_idx = clr_q[QW-1:0];

  assign qpt_wr_ready_o = !hold_i && init_done_q;
  assign rqd_ready_o    = !hold_i && !qpt_wr_valid_i && init_done_q;
  assign fw_cmd = qpt_wr_qpn_i;
  assign fw_ok  = 32'(fw_cmd.qpn) < 32'(NumQps) && fw_cmd.rsvd24 == '0;  // reserved bits: not a command we know
  assign rq_ok  = rqd_i.qpn < 32'(NumQps);
  assign tx_ok  = 32'(tx_rd_qpn_i) < 32'(NumQps);
  assign rx_ok  = 32'(rx_rd_qpn_i) < 32'(NumQps);
  assign fw_idx = fw_cmd.qpn[QW-1:0];
  assign rq_idx = rqd_i.qpn[QW-1:0];
  assign st_idx = st_qpn_i[QW-1:0];
  assign tx_idx = tx_rd_qpn_i[QW-1:0];
  assign rx_idx = rx_rd_qpn_i[QW-1:0];
  assign fw_we  = qpt_wr_valid_i && qpt_wr_ready_o && fw_ok;
  assign rq_we  = rqd_valid_i && rqd_ready_o && rq_ok;
  assign fw_init = fw_we && !fw_cmd.keep_state;
  assign st_we_any = clr_we || fw_init || st_we_i;

  assign rx_wdata = {qpt_wr_entry_i.max_dest_rd_atomic, qpt_wr_entry_i.qkey, qpt_wr_entry_i.min_rnr_timer, qpt_wr_entry_i.ack_coalesce, qpt_wr_entry_i.pdn,
                     qpt_wr_entry_i.access, qpt_wr_entry_i.pmtu_log2, qpt_wr_entry_i.qp_type,
                     qpt_wr_entry_i.rx_enable, qpt_wr_entry_i.valid};

  always_comb begin
    st_init = '0;
    st_init.epsn = qpt_wr_entry_i.epsn[23:0];
    st_wdata = clr_we ? '0 : fw_init ? st_init : st_i;
  end

  // ---- memories ---------------------------------------------------------------------------------
  always_ff @(posedge clk_i) begin
    if (clr_we || fw_we) tx_mem[clr_we ? clr_idx : fw_idx] <= clr_we ? '0 : qpt_wr_entry_i[TxW-1:0];
  end
  always_ff @(posedge clk_i) begin
    if (clr_we || fw_we) rx_mem[clr_we ? clr_idx : fw_idx] <= clr_we ? '0 : rx_wdata;
  end
  always_ff @(posedge clk_i) begin
    if (st_we_any) st_mem[clr_we ? clr_idx : fw_init ? fw_idx : st_idx] <= st_wdata;
  end
  logic [RsW-1:0] rqs_post, rqs_cons, rqs_rx;
  logic [SL-1:0]  rq_wslot;
  logic [SL:0]    post_cnt, cons_cnt;
  assign rqs_post = rqs_mem[rq_idx];
  assign rqs_cons = rqs_mem[st_idx];
  assign rqs_rx   = rqs_mem[rx_idx];
  assign post_cnt = rqs_post[SL:0];
  assign cons_cnt = rqs_cons[SL:0];
  // a post to a full ring overwrites the newest buffer
  assign rq_wslot = rqs_post[RsW-1:SL+1] +
                    ((post_cnt == (SL+1)'(RqSlots)) ? SL'(RqSlots - 1) : post_cnt[SL-1:0]);
  logic [LenW-1:0] rq_len;
  logic [32*NSge-1:0] rq_sgl;
  always_comb begin
    for (int i = 0; i < NSge; i++) rq_sgl[32*i +: 32] = rqd_i[RqL0 + SgeBits * i +: 32];
    rq_len = LenW'(xport_rx_pkg::sge_total(rqd_i.num_sge, (32*xport_rx_pkg::SgeTreeMax)'(rq_sgl)));
  end
  always_ff @(posedge clk_i) begin
    if (rq_we) rq_mem[{rq_idx, rq_wslot}] <= {rq_len, rqd_i[RqdW-1:32]};
  end

  logic [TxW-1:0] tx_rd_q;
  logic           tx_ok_q;
  always_ff @(posedge clk_i) begin
    if (tx_rd_en_i) tx_rd_q <= tx_mem[tx_idx];
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) tx_ok_q <= 1'b0;
    else if (tx_rd_en_i) tx_ok_q <= tx_ok;
  end
  always_comb begin
    tx_rd_entry_o = '0;
    if (tx_ok_q) tx_rd_entry_o[TxW-1:0] = tx_rd_q;
  end

  logic [RxW-1:0] rx_rd_q;
  logic [SW-1:0]  st_rd_q;
  logic [LenW+DW-1:0] rq_rd_q;
  logic           rx_ok_q, rqv_rd_q;
  always_ff @(posedge clk_i) begin
    if (rx_rd_en_i) rx_rd_q <= rx_mem[rx_idx];
  end
  always_ff @(posedge clk_i) begin
    if (rx_rd_en_i) st_rd_q <= st_mem[rx_idx];
  end
  always_ff @(posedge clk_i) begin
    if (rx_rd_en_i) rq_rd_q <= rq_mem[{rx_idx, rqs_rx[RsW-1:SL+1]}];
  end
  // ring state: one write port (clear sweep, entry write, post and engine clear never coincide:
  // posts and entry writes are exclusive and only accepted while hold_i is low)
  logic          rqs_we;
  logic [RsW-1:0] rqs_wd;
  logic [QW-1:0] rqs_wa;
  assign rqs_we = clr_we || fw_init || rq_we || (st_we_i && rqv_clr_i);
  assign rqs_wa = clr_we ? clr_idx : fw_init ? fw_idx : rq_we ? rq_idx : st_idx;
  always_comb begin
    if (clr_we || fw_init) rqs_wd = '0;
    else if (rq_we) rqs_wd = {rqs_post[RsW-1:SL+1],
                              (post_cnt == (SL+1)'(RqSlots)) ? post_cnt : post_cnt + 1'b1};
    else if (cons_cnt == '0) rqs_wd = rqs_cons;  // nothing to consume
    else rqs_wd = {rqs_cons[RsW-1:SL+1] + 1'b1, cons_cnt - 1'b1};
  end
  always_ff @(posedge clk_i) begin
    if (rqs_we) rqs_mem[rqs_wa] <= rqs_wd;
  end
  always_ff @(posedge clk_i) begin
    if (rx_rd_en_i) rqv_rd_q <= rqs_rx[SL:0] != '0;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) rx_ok_q <= 1'b0;
    else if (rx_rd_en_i) rx_ok_q <= rx_ok;
  end

  always_comb begin
    rx_entry_o = '0;
    {rx_entry_o.max_dest_rd_atomic, rx_entry_o.qkey, rx_entry_o.min_rnr_timer, rx_entry_o.ack_coalesce, rx_entry_o.pdn, rx_entry_o.access,
     rx_entry_o.pmtu_log2, rx_entry_o.qp_type, rx_entry_o.rx_enable, rx_entry_o.valid} = rx_rd_q;
    // a miss reads invalid; the other fields are not gated by the hit (timing: an AND in front of
    // every field put one LUT level between rx_ok_q and xport_rx's checks, 9 levels in the core;
    // xport_rx reads no field of a missed QP, its classification tests the hit first)
    rx_entry_o.valid = rx_rd_q[0] && rx_ok_q;
    rx_rqd_o = '0;
    rx_rqd_o[RqdW-1:32] = rq_rd_q[DW-1:0];
    rx_rqlen_o = rq_rd_q[DW +: LenW];
  end
  logic unused_bits;
  assign unused_bits = ^{qpt_wr_entry_i[511:TxW], st_qpn_i};
  assign rx_hit_o   = rx_ok_q;
  assign rx_state_o = st_rd_q;
  assign rx_rqv_o   = rqv_rd_q && rx_ok_q;

  assign stop_o     = qpt_wr_valid_i && qpt_wr_ready_o &&
                      (!fw_cmd.keep_state || !(qpt_wr_entry_i.valid && qpt_wr_entry_i.rx_enable));
  assign stop_qpn_o = qpt_wr_qpn_i[23:0];

endmodule
