// The receive-event fork in front of rnic_event_merge (docs/decisions/send-retire.md, wiring plan
// step 2): for a QP whose send retirement the firmware gave to the engine (fw_tc srt_qp_en), the
// receive engine's ACK events become the engine's ACK operations and no longer reach the
// firmware; NAK and RNR_NAK acknowledge their PSN - 1 in the engine, READ_RESP_DONE and
// ATOMIC_ACK are the engine's RESP (with their placement status), and these events go on to the
// firmware only after the engine finished every ACK-port operation handed before them, so the
// firmware never reads the engine's list before the retirement the event implies. The engine's
// own events (sr_event) join the stream as SR_BARRIER / SR_RESP_ERR.
// Until the firmware enables a QP (on_i low) the events pass straight through: the path without
// the engine, cycle for cycle. With on_i they pass one register (the per-QP enable is read from
// a RAM with the event into it); the register takes a new event when empty, so the fork carries
// at most one event every two cycles, far above the receive engine's rate (one per packet).
module rnic_event_merge_fork #(
  parameter int unsigned NumQps = 1024
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  input  logic                     on_i,        // sticky: some QP was enabled since reset
  input  logic                     en_we_i,     // a QP's enable (srt_qp_en)
  input  logic [23:0]              en_qpn_i,
  input  logic                     en_i,
  // receive engine events (xport_rx)
  input  logic                     s_valid_i,
  output logic                     s_ready_o,
  input  rnic_spec_pkg::rx_event_t s_evt_i,
  // on to rnic_event_merge
  output logic                     m_valid_o,
  input  logic                     m_ready_i,
  output rnic_spec_pkg::rx_event_t m_evt_o,
  // the engine's ACK port (sr_cmd ACK / RESP) and its completion of each
  output logic                     ack_valid_o,
  input  logic                     ack_ready_i,
  output logic [rnic_spec_pkg::SR_CMD_BYTES*8-1:0] ack_o,
  input  logic                     ack_done_i,
  // the engine's events (sr_event)
  input  logic                     sev_valid_i,
  output logic                     sev_ready_o,
  input  logic [rnic_spec_pkg::SR_EVENT_BYTES*8-1:0] sev_i
);
  localparam int unsigned QpAw = $clog2(NumQps);

  // per-QP enables: swept to 0 after reset (NumQps cycles, long before a QP exists)
  logic          en_mem [NumQps];
  logic [QpAw:0] init_q;
  logic          init_done;
  assign init_done = init_q[QpAw];
  always_ff @(posedge clk_i) begin
    if (!init_done) en_mem[init_q[QpAw-1:0]] <= 1'b0;
    else if (en_we_i) en_mem[en_qpn_i[QpAw-1:0]] <= en_i;
  end

  // the stage: one event, its QP's enable, whether its ACK part went to the engine
  logic                     st_valid_q, st_en_q, st_acked_q;
  rnic_spec_pkg::rx_event_t st_q;
  logic [2:0]               pend_q;     // ACK-port operations handed and not yet finished (sq_retire: at most 2, one in progress, one in its input register)
  logic                     load;
  assign load = on_i && s_valid_i && !st_valid_q;
  always_ff @(posedge clk_i) begin
    if (load) begin
      st_q    <= s_evt_i;
      st_en_q <= en_mem[s_evt_i.qpn[QpAw-1:0]];
    end
  end

  // what the engine makes of the event
  logic is_ack, is_nak, is_resp, eng, to_fw;
  assign is_ack  = st_q.kind == rnic_spec_pkg::RX_EVENT_KIND_ACK;
  assign is_nak  = st_q.kind == rnic_spec_pkg::RX_EVENT_KIND_NAK ||
                   st_q.kind == rnic_spec_pkg::RX_EVENT_KIND_RNR_NAK;
  assign is_resp = st_q.kind == rnic_spec_pkg::RX_EVENT_KIND_READ_RESP_DONE ||
                   st_q.kind == rnic_spec_pkg::RX_EVENT_KIND_ATOMIC_ACK;
  assign eng     = st_en_q && (is_ack || is_nak || is_resp);
  assign to_fw   = !(st_en_q && is_ack);
  // the engine's operation: built only while the stage holds an event (ack_o counts only with
  // ack_valid_o, which needs st_valid_q), not on every clock edge in simulation
  rnic_spec_pkg::sr_cmd_t cmd;
  always_comb begin
    cmd = '0;
    if (st_valid_q) begin
      cmd.qpn    = st_q.qpn[23:0];
      cmd.op     = is_resp ? rnic_spec_pkg::SR_OP_RESP : rnic_spec_pkg::SR_OP_ACK;
      cmd.psn    = is_nak ? st_q.psn[23:0] - 24'd1 : st_q.psn[23:0];
      cmd.status = st_q.status;
    end
  end
  assign ack_o       = cmd;
  assign ack_valid_o = st_valid_q && eng && !st_acked_q;

  // to the firmware: the stage's event once the engine is through with it, else the engine's
  logic st_out, ack_fire, st_fire;
  assign st_out   = st_valid_q && to_fw && (!eng || (st_acked_q && pend_q == '0));
  assign ack_fire = ack_valid_o && ack_ready_i;
  assign st_fire  = st_out && m_ready_i;

  // The engine's event as an rx_event: only its low fields are set, so it is built as a vector
  // that ends at the highest of them and zero-extended (a whole 512-bit struct would be cleared
  // on every clock edge in simulation)
  localparam int unsigned EndKind = rnic_spec_pkg::RX_EVENT_KIND_LSB + rnic_spec_pkg::RX_EVENT_KIND_W;
  localparam int unsigned EndStat = rnic_spec_pkg::RX_EVENT_STATUS_LSB + rnic_spec_pkg::RX_EVENT_STATUS_W;
  localparam int unsigned EndQpn  = rnic_spec_pkg::RX_EVENT_QPN_LSB + rnic_spec_pkg::RX_EVENT_QPN_W;
  localparam int unsigned EndPsn  = rnic_spec_pkg::RX_EVENT_PSN_LSB + rnic_spec_pkg::RX_EVENT_PSN_W;
  localparam int unsigned End2a   = EndKind > EndStat ? EndKind : EndStat;
  localparam int unsigned End2b   = EndQpn > EndPsn ? EndQpn : EndPsn;
  localparam int unsigned SevW    = End2a > End2b ? End2a : End2b;
  rnic_spec_pkg::sr_event_t sev;
  logic [SevW-1:0]          sev_lo;
  assign sev = sev_i;
  always_comb begin
    sev_lo = '0;
    sev_lo[rnic_spec_pkg::RX_EVENT_KIND_LSB +: rnic_spec_pkg::RX_EVENT_KIND_W] =
      sev.kind == rnic_spec_pkg::SR_EVENT_KIND_BARRIER ? rnic_spec_pkg::RX_EVENT_KIND_SR_BARRIER
                                                       : rnic_spec_pkg::RX_EVENT_KIND_SR_RESP_ERR;
    sev_lo[rnic_spec_pkg::RX_EVENT_STATUS_LSB +: rnic_spec_pkg::RX_EVENT_STATUS_W] = sev.status;
    sev_lo[rnic_spec_pkg::RX_EVENT_QPN_LSB +: rnic_spec_pkg::RX_EVENT_QPN_W]       = 32'(sev.qpn);
    sev_lo[rnic_spec_pkg::RX_EVENT_PSN_LSB +: rnic_spec_pkg::RX_EVENT_PSN_W]       = 32'(sev.psn);
  end

  assign s_ready_o   = on_i ? !st_valid_q : m_ready_i;
  assign m_valid_o   = on_i ? (st_out || sev_valid_i) : s_valid_i;
  assign m_evt_o     = !on_i ? s_evt_i : st_out ? st_q : (rnic_spec_pkg::RX_EVENT_BYTES*8)'(sev_lo);
  assign sev_ready_o = m_ready_i && !st_out;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      init_q     <= '0;
      st_valid_q <= 1'b0;
      st_acked_q <= 1'b0;
      pend_q     <= '0;
    end else begin
      if (!init_done) init_q <= init_q + 1'b1;
      if (ack_fire && !ack_done_i) pend_q <= pend_q + 1'b1;
      else if (ack_done_i && !ack_fire) pend_q <= pend_q - 1'b1;
      if (load) begin
        st_valid_q <= 1'b1;
        st_acked_q <= 1'b0;
      end else begin
        if (ack_fire) st_acked_q <= 1'b1;
        // an ACK of an enabled QP ends in the engine; every other event with its delivery
        if ((ack_fire && !to_fw) || st_fire) st_valid_q <= 1'b0;
      end
    end
  end

  logic unused;
  assign unused = ^en_qpn_i[23:QpAw];
endmodule
