// sq_retire: the requester's send records and their in-order retirement. It keeps, per QP, the
// list of messages handed to the transmit engine and not yet acknowledged (spec sr_rec: PSN
// range, wr_id, length, opcode, WQE index, CQ, signaled, barrier), in a pool of NumRecs records
// shared by all QPs. An ACK (sr_op ACK, or RESP for a READ response's end / atomic ACK) retires
// the QP's records whose last PSN it covers, oldest first, one per cycle, and hands the CQE
// writer a completion record (spec cq_rec) for every signaled one; a READ/atomic (a barrier)
// retires only with its own response, else the walk stops and the firmware is told (BARRIER).
// The firmware's operations (POP, FLUSH, DROP, HALT, RESUME, INIT, QUERY, FIND) cover the rest:
// errors, flushes, resets, retransmission decisions. Design: docs/decisions/send-retire.md;
// README.md.
module sq_retire #(
  parameter int unsigned NumQps  = 1024,
  parameter int unsigned NumRecs = rnic_spec_pkg::SQ_RETIRE_RECS
) (
  input  logic                                    clk_i,
  input  logic                                    rst_ni,
  // a record to append to its QP's list (sr_rec)
  input  logic                                    rec_valid_i,
  output logic                                    rec_ready_o,
  input  logic [rnic_spec_pkg::SR_REC_BYTES*8-1:0] rec_i,
  // operations from the receive engine: ACK, RESP (sr_cmd)
  input  logic                                    ack_valid_i,
  output logic                                    ack_ready_o,
  input  logic [rnic_spec_pkg::SR_CMD_BYTES*8-1:0] ack_i,
  // operations from the firmware: any sr_op (sr_cmd)
  input  logic                                    cmd_valid_i,
  output logic                                    cmd_ready_o,
  input  logic [rnic_spec_pkg::SR_CMD_BYTES*8-1:0] cmd_i,
  // completion records for the CQE writer (cq_rec)
  output logic                                    cqr_valid_o,
  input  logic                                    cqr_ready_i,
  output logic [rnic_spec_pkg::CQ_REC_BYTES*8-1:0] cqr_o,
  // events for the firmware (sr_event)
  output logic                                    ev_valid_o,
  input  logic                                    ev_ready_i,
  output logic [rnic_spec_pkg::SR_EVENT_BYTES*8-1:0] ev_o,
  // QUERY's answer (sr_query): valid for one cycle, held until the next QUERY
  output logic                                    qry_valid_o,
  output logic [rnic_spec_pkg::SR_QUERY_BYTES*8-1:0] qry_o,
  // an operation finished (one-cycle pulse) and whose it was: 0 a record, 1 the ACK port, 2 the
  // firmware's (so the firmware knows a FLUSH or POP is over before it writes its own CQEs)
  output logic                                    done_o,
  output logic [1:0]                              done_src_o,
  // free records; every operation taken and finished (the reset sweep done, inputs empty)
  output logic [$clog2(NumRecs):0]                free_o,
  output logic                                    idle_o
);
  localparam int unsigned QpAw  = $clog2(NumQps);
  localparam int unsigned RecAw = $clog2(NumRecs);
  localparam int unsigned RecW  = 192;            // sr_rec bytes 0-23: what a record stores
  localparam int unsigned PsnW  = 24;
  localparam int unsigned CiW   = 16;
  // per-QP state: head, tail, nonempty, halted, told, una, ci
  localparam int unsigned QsW   = 2 * RecAw + 3 + PsnW + CiW;

  localparam logic [7:0] StSuccess = rnic_spec_pkg::WC_STATUS_SUCCESS;

  // ---- input registers: every ready is a flop, nothing passes from an input to an output
  logic [RecW+PsnW-1:0] rin_q;                    // bytes 0-23 and the QPN
  logic                 rin_full_q;
  logic [63:0]          ain_q, cin_q;
  logic                 ain_full_q, cin_full_q;
  assign rec_ready_o = !rin_full_q;
  assign ack_ready_o = !ain_full_q;
  assign cmd_ready_o = !cin_full_q;

  // ---- memories (one write and one registered read port each)
  logic [QsW-1:0]   qs_mem [NumQps];
  logic [RecW-1:0]  rec_mem [NumRecs];
  logic [RecAw-1:0] nxt_mem [NumRecs];
  logic [RecAw-1:0] fifo_mem [NumRecs];           // records freed, reused in this order

  typedef enum logic [2:0] { S_INIT, S_IDLE, S_LOAD, S_WALK, S_QRY } state_e;
  state_e state_q;

  // the operation in progress
  logic [7:0]      op_q;
  logic            push_q;                        // the operation is a record (rin_q)
  logic [PsnW-1:0] qpn_q;
  logic [PsnW-1:0] psn_q;
  logic [7:0]      stat_q;
  logic            force_q;                       // POP's first / FLUSH's every record: retire whatever the PSNs
  // the QP's state while it is worked on
  logic [RecAw-1:0] head_q, tail_q;
  logic             ne_q, halt_q, told_q;
  logic [PsnW-1:0]  una_q, upto_q;                // upto = una - 1: the last PSN acknowledged
  logic [CiW-1:0]   ci_q;

  // memory ports
  logic             qs_we;
  logic [QpAw-1:0]  qs_waddr;
  logic [QsW-1:0]   qs_wdata, qs_q;
  logic             qs_re;
  logic [QpAw-1:0]  qs_raddr;
  logic             rd_en;
  logic [RecAw-1:0] rd_addr;
  logic [RecW-1:0]  rec_q;
  logic [RecAw-1:0] nxt_q;
  logic             fifo_we;
  logic [RecAw-1:0] fifo_wp_q, fifo_rp_q, fifo_q;
  logic             fifo_re;
  logic [RecAw:0]   fresh_q;                      // records never used yet: 0..NumRecs-1 first
  logic [RecAw:0]   free_q;
  logic [QpAw:0]    init_q;

  always_ff @(posedge clk_i) begin
    if (qs_we) qs_mem[qs_waddr] <= qs_wdata;
    if (qs_re) qs_q <= qs_mem[qs_raddr];
    if (rd_en) begin
      rec_q <= rec_mem[rd_addr];
      nxt_q <= nxt_mem[rd_addr];
    end
    if (fifo_we) fifo_mem[fifo_wp_q] <= head_q;
    if (fifo_re) fifo_q <= fifo_mem[fifo_rp_q];
  end

  // ---- the record being looked at (rec_q: sr_rec bytes 0-23)
  logic [PsnW-1:0] r_first, r_last;
  logic [7:0]      r_flags, r_op;
  logic [15:0]     r_idx, r_cqn;
  logic [31:0]     r_len;
  logic [63:0]     r_wrid;
  assign r_wrid  = rec_q[rnic_spec_pkg::SR_REC_WR_ID_LSB +: 64];
  assign r_len   = rec_q[rnic_spec_pkg::SR_REC_BYTE_LEN_LSB +: 32];
  assign r_first = rec_q[rnic_spec_pkg::SR_REC_FIRST_PSN_LSB +: PsnW];
  assign r_flags = rec_q[rnic_spec_pkg::SR_REC_FLAGS_LSB +: 8];
  assign r_last  = rec_q[rnic_spec_pkg::SR_REC_LAST_PSN_LSB +: PsnW];
  assign r_op    = rec_q[rnic_spec_pkg::SR_REC_OPCODE_LSB +: 8];
  assign r_idx   = rec_q[rnic_spec_pkg::SR_REC_WQE_INDEX_LSB +: 16];
  assign r_cqn   = rec_q[rnic_spec_pkg::SR_REC_CQN_LSB +: 16];
  logic r_sig, r_bar;
  assign r_sig = r_flags[rnic_spec_pkg::SR_FLAG_SIGNALED[2:0]];
  assign r_bar = r_flags[rnic_spec_pkg::SR_FLAG_BARRIER[2:0]];

  // a <= b in 24-bit PSN arithmetic (b - a in the lower half of the circle)
  function automatic logic psn_le(input logic [PsnW-1:0] a, input logic [PsnW-1:0] b);
    logic [PsnW-1:0] d;
    d = b - a;
    psn_le = !d[PsnW-1];
  endfunction

  // ---- the operation chosen in S_IDLE: firmware first, then records, then ACKs (a record is
  // appended before any ACK that could cover it, which the transmit order guarantees anyway)
  logic take_cmd, take_rec, take_ack;
  assign take_cmd = state_q == S_IDLE && cin_full_q;
  assign take_rec = state_q == S_IDLE && !cin_full_q && rin_full_q && free_q != '0;
  assign take_ack = state_q == S_IDLE && !cin_full_q && !take_rec && ain_full_q;
  logic [63:0] op_in;
  assign op_in = take_cmd ? cin_q : ain_q;

  assign qs_raddr = take_rec ? rin_q[RecW +: QpAw] : op_in[QpAw-1:0];
  assign qs_re   = take_cmd || take_rec || take_ack;
  assign fifo_re = take_rec;

  // ---- the walk's decision on rec_q (S_WALK)
  logic covered, resp_hit, retire, fail, emit, last_one, out_free, stop_bar;
  logic is_drop;                                  // DROP: FLUSH without completion records
  assign is_drop  = op_q == rnic_spec_pkg::SR_OP_DROP;
  logic [7:0] w_stat;
  assign out_free = !cqr_valid_o || cqr_ready_i;
  // head_q is the tail: kept in a flop beside head_q (the 8-bit compare off the walk's paths)
  logic last_q;
  assign last_one = last_q;
  logic ev_free, step_ok;
  assign ev_free  = !ev_valid_o || ev_ready_i;
  logic is_flush, halt_new, walk_more;
  assign is_flush = op_q == rnic_spec_pkg::SR_OP_FLUSH || is_drop;
  // Computed in S_WALK only: every use of these signals is qualified by S_WALK (the register
  // enables, the memory writes, rd_en), so the zeros of the other states change no function,
  // and an idle engine does not evaluate the walk on every clock edge (docs/sim-speed.md, step 20).
  always_comb begin
    covered   = 1'b0;
    resp_hit  = 1'b0;
    retire    = 1'b0;
    w_stat    = StSuccess;
    fail      = 1'b0;
    emit      = 1'b0;
    stop_bar  = 1'b0;
    step_ok   = 1'b0;
    halt_new  = 1'b0;
    walk_more = 1'b0;
    if (state_q == S_WALK) begin
      covered  = psn_le(r_last, upto_q);
      resp_hit = op_q == rnic_spec_pkg::SR_OP_RESP && r_last == psn_q;
      retire   = force_q || (covered && (!r_bar || resp_hit));
      w_stat   = (force_q || r_bar) ? stat_q : StSuccess;
      fail     = w_stat != StSuccess;
      emit     = (r_sig || fail) && !is_drop;
      // a barrier the acknowledgements reach without its response: the firmware is told once
      stop_bar = !retire && covered && r_bar && !told_q;
      // this step can go ahead: room for its CQE record and for its event (RESP_ERR, BARRIER)
      step_ok  = (!(retire && emit) || out_free) &&
                 (!((retire && !force_q && fail) || stop_bar) || ev_free);
      // a failed retirement halts the QP (the firmware flushes the rest); FLUSH goes to the end
      halt_new  = halt_q || (retire && fail) || (is_flush && last_one);
      // retire rec_q and continue with the next record (still in the list, not halted)
      walk_more = step_ok && retire && !last_one && (is_flush || !halt_new);
    end
  end

  // reads of the record memories: the head on entering the walk, the next one while walking
  logic walk_go;                                  // S_LOAD starts a walk
  // QUERY and FIND: the answer is the QP's state and one record, the head (QUERY) or the one
  // holding psn (FIND: records are in PSN order, so the search stops at the first one past psn)
  logic qry_op, q_hit, q_end;
  assign qry_op  = !push_q && (op_q == rnic_spec_pkg::SR_OP_QUERY || op_q == rnic_spec_pkg::SR_OP_FIND);
  // in S_QRY only, as the walk's decision above (every use is qualified by S_QRY)
  always_comb begin
    q_hit = 1'b0;
    q_end = 1'b0;
    if (state_q == S_QRY) begin
      q_hit = op_q == rnic_spec_pkg::SR_OP_QUERY || (psn_le(r_first, psn_q) && psn_le(psn_q, r_last));
      q_end = q_hit || last_one || !psn_le(r_first, psn_q);
    end
  end
  assign rd_en   = walk_go || walk_more || (state_q == S_LOAD && qry_op) || (state_q == S_QRY && !q_end);
  assign rd_addr = (state_q == S_WALK || state_q == S_QRY) ? nxt_q : qs_q[QsW-1 -: RecAw];

  // S_LOAD: the QP's state as stored
  logic [RecAw-1:0] l_head, l_tail;
  logic             l_ne, l_halt, l_told;
  logic [PsnW-1:0]  l_una, l_una_n;
  logic [CiW-1:0]   l_ci;
  assign {l_head, l_tail, l_ne, l_halt, l_told, l_una, l_ci} = qs_q;
  // ACK / RESP: una moves past psn when psn is newer than una - 1 (a stale ACK leaves it)
  logic l_adv;
  assign l_adv   = (op_q == rnic_spec_pkg::SR_OP_ACK || op_q == rnic_spec_pkg::SR_OP_RESP) &&
                   l_ne && !psn_le(psn_q, l_una - 1'b1);
  assign l_una_n = l_adv ? psn_q + 1'b1 : l_una;
  always_comb begin
    walk_go = 1'b0;
    if (state_q == S_LOAD && !push_q && l_ne)
      case (op_q)
        rnic_spec_pkg::SR_OP_ACK, rnic_spec_pkg::SR_OP_RESP: walk_go = !l_halt;
        rnic_spec_pkg::SR_OP_POP, rnic_spec_pkg::SR_OP_FLUSH, rnic_spec_pkg::SR_OP_DROP,
        rnic_spec_pkg::SR_OP_RESUME: walk_go = 1'b1;
        default: walk_go = 1'b0;
      endcase
  end

  // the record being pushed (rin_q)
  logic [PsnW-1:0] p_first;
  assign p_first = rin_q[rnic_spec_pkg::SR_REC_FIRST_PSN_LSB +: PsnW];

  // ---- the state machine
  logic [RecAw-1:0] alloc;
  assign alloc = fresh_q[RecAw] ? fifo_q : fresh_q[RecAw-1:0];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q     <= S_INIT;
      init_q      <= '0;
      rin_full_q  <= 1'b0;
      ain_full_q  <= 1'b0;
      cin_full_q  <= 1'b0;
      cqr_valid_o <= 1'b0;
      ev_valid_o  <= 1'b0;
      qry_valid_o <= 1'b0;
      fifo_wp_q   <= '0;
      fifo_rp_q   <= '0;
      fresh_q     <= '0;
      free_q      <= (RecAw+1)'(NumRecs);
      force_q     <= 1'b0;
      push_q      <= 1'b0;
      done_o      <= 1'b0;
      done_src_o  <= 2'd0;
    end else begin
      qry_valid_o <= 1'b0;
      done_o      <= 1'b0;
      if (cqr_ready_i) cqr_valid_o <= 1'b0;
      if (ev_ready_i) ev_valid_o <= 1'b0;
      if (rec_valid_i && rec_ready_o) rin_full_q <= 1'b1;
      if (ack_valid_i && ack_ready_o) ain_full_q <= 1'b1;
      if (cmd_valid_i && cmd_ready_o) cin_full_q <= 1'b1;
      case (state_q)
        S_INIT: begin
          init_q <= init_q + 1'b1;
          if (init_q == (QpAw+1)'(NumQps - 1)) state_q <= S_IDLE;
        end
        S_IDLE: begin
          if (take_cmd) cin_full_q <= 1'b0;
          if (take_rec) rin_full_q <= 1'b0;
          if (take_ack) ain_full_q <= 1'b0;
          if (take_cmd || take_rec || take_ack) state_q <= S_LOAD;
          push_q <= take_rec;
          done_src_o <= take_cmd ? 2'd2 : take_rec ? 2'd0 : 2'd1;
        end
        S_LOAD: begin
          state_q <= S_IDLE;
          done_o  <= !walk_go && !(qry_op && l_ne);
          if (push_q) begin
            free_q <= free_q - 1'b1;
            if (fresh_q[RecAw]) fifo_rp_q <= fifo_rp_q + 1'b1;
            else fresh_q <= fresh_q + 1'b1;
          end else if (walk_go) begin
            state_q <= S_WALK;
            force_q <= op_q == rnic_spec_pkg::SR_OP_POP || op_q == rnic_spec_pkg::SR_OP_FLUSH ||
                       op_q == rnic_spec_pkg::SR_OP_DROP;
          end else if (qry_op) begin
            state_q <= l_ne ? S_QRY : S_IDLE;
            qry_valid_o <= !l_ne;
          end
        end
        S_WALK: begin
          if (step_ok) begin
            if (retire) begin
              free_q <= free_q + 1'b1;
              fifo_wp_q <= fifo_wp_q + 1'b1;
              if (emit) cqr_valid_o <= 1'b1;
              if (!force_q && fail) ev_valid_o <= 1'b1;
              // POP forces only its first record; FLUSH and DROP all of them
              if (!is_flush) force_q <= 1'b0;
            end else if (stop_bar) begin
              ev_valid_o <= 1'b1;
            end
            if (!walk_more) begin
              state_q <= S_IDLE;
              done_o  <= 1'b1;
            end
          end
        end
        S_QRY: begin                    // rec_q: the record at head_q (the search's cursor)
          if (q_end) begin
            state_q     <= S_IDLE;
            done_o      <= 1'b1;
            qry_valid_o <= 1'b1;
          end
        end
        default: state_q <= S_IDLE;
      endcase
    end
  end

  // ---- the input registers: a process of their own, apart from their readers below (in one
  // process with them Verilator keeps a shadow copy of rin_q, copied on every clock edge)
  always_ff @(posedge clk_i) begin
    if (rec_valid_i && rec_ready_o) rin_q <= {rec_i[RecW +: PsnW], rec_i[RecW-1:0]};
    if (ack_valid_i && ack_ready_o) ain_q <= ack_i;
    if (cmd_valid_i && cmd_ready_o) cin_q <= cmd_i;
  end

  // ---- the operation's fields and the QP's working state (no reset: qualified by state_q)
  always_ff @(posedge clk_i) begin
    if (take_rec) begin
      qpn_q <= rin_q[RecW +: PsnW];
      op_q  <= 8'hFF;
    end else if (take_cmd || take_ack) begin
      qpn_q  <= op_in[rnic_spec_pkg::SR_CMD_QPN_LSB +: PsnW];
      op_q   <= op_in[rnic_spec_pkg::SR_CMD_OP_LSB +: 8];
      psn_q  <= op_in[rnic_spec_pkg::SR_CMD_PSN_LSB +: PsnW];
      stat_q <= op_in[rnic_spec_pkg::SR_CMD_STATUS_LSB +: 8];
    end
    if (state_q == S_LOAD) begin
      head_q <= l_head;
      last_q <= l_head == l_tail;
      tail_q <= l_tail;
      ne_q   <= l_ne;
      told_q <= l_told && op_q != rnic_spec_pkg::SR_OP_RESUME;
      halt_q <= (l_halt || op_q == rnic_spec_pkg::SR_OP_HALT) && op_q != rnic_spec_pkg::SR_OP_RESUME;
      una_q  <= l_una_n;
      upto_q <= l_una_n - 1'b1;
      ci_q   <= l_ci;
    end
    // FIND moves head_q along the list as its cursor (the QP's state is not written back)
    if (state_q == S_QRY && !q_end) begin
      head_q <= nxt_q;
      last_q <= nxt_q == tail_q;
    end
    if (state_q == S_WALK && step_ok) begin
      if (retire) begin
        head_q <= nxt_q;
        last_q <= nxt_q == tail_q;
        ne_q   <= !last_one;
        told_q <= 1'b0;
        ci_q   <= r_idx + 1'b1;
        halt_q <= halt_new;
      end else if (stop_bar) begin
        told_q <= 1'b1;
      end
    end
  end

  // ---- memory writes: the QP's state at the end of an operation, a pushed record, a freed one
  always_comb begin
    qs_we    = 1'b0;
    qs_waddr = qpn_q[QpAw-1:0];
    qs_wdata = {l_head, l_tail, l_ne, l_halt, l_told, l_una_n, l_ci};
    if (state_q == S_INIT) begin
      qs_we    = 1'b1;
      qs_waddr = init_q[QpAw-1:0];
      qs_wdata = '0;
    end else if (state_q == S_LOAD) begin
      if (push_q) begin
        // appended at the tail; into an empty list it becomes the head and una its first PSN
        qs_we    = 1'b1;
        qs_wdata = l_ne ? {l_head, alloc, 1'b1, l_halt, l_told, l_una, l_ci}
                        : {alloc, alloc, 1'b1, l_halt, 1'b0, p_first, l_ci};
      end else if (!walk_go) begin
        case (op_q)
          rnic_spec_pkg::SR_OP_ACK, rnic_spec_pkg::SR_OP_RESP: qs_we = l_ne;
          rnic_spec_pkg::SR_OP_HALT: begin
            qs_we    = 1'b1;
            qs_wdata = {l_head, l_tail, l_ne, 1'b1, l_told, l_una, l_ci};
          end
          rnic_spec_pkg::SR_OP_FLUSH, rnic_spec_pkg::SR_OP_DROP: begin  // an empty list: halted all the same
            qs_we    = 1'b1;
            qs_wdata = {l_head, l_tail, l_ne, 1'b1, l_told, l_una, l_ci};
          end
          rnic_spec_pkg::SR_OP_RESUME: begin
            qs_we    = 1'b1;
            qs_wdata = {l_head, l_tail, l_ne, 1'b0, 1'b0, l_una, l_ci};
          end
          rnic_spec_pkg::SR_OP_INIT: begin   // refused while records are held (FLUSH first)
            qs_we    = !l_ne;
            qs_wdata = {l_head, l_tail, 1'b0, 1'b0, 1'b0, psn_q, CiW'(0)};
          end
          default: qs_we = 1'b0;
        endcase
      end
    end else if (state_q == S_WALK && step_ok && !walk_more) begin
      // the walk ends: after this step's retirement (or stop) the state goes back
      qs_we = 1'b1;
      if (retire)
        qs_wdata = {nxt_q, tail_q, !last_one, halt_new, 1'b0, una_q, r_idx + 1'b1};
      else
        qs_wdata = {head_q, tail_q, ne_q, halt_q, told_q || stop_bar, una_q, ci_q};
    end
  end
  assign fifo_we = state_q == S_WALK && step_ok && retire;

  // the pushed record into its slot, linked behind the tail
  always_ff @(posedge clk_i) begin
    if (state_q == S_LOAD && push_q) begin
      rec_mem[alloc] <= rin_q[RecW-1:0];
      if (l_ne) nxt_mem[l_tail] <= alloc;
    end
  end

  // ---- outputs: the completion record, the event, the query's answer (registers), each built
  // under its register's enable, so an idle engine does not assemble them on every clock edge
  // (docs/sim-speed.md, step 20). Vectors written through the spec's field offsets: Yosys 0.23
  // does not resolve fields of a struct declared in a block.
  logic qry_st, qry_rec;                         // the answer from the working state; with a record
  assign qry_st  = state_q == S_QRY;
  assign qry_rec = qry_st && q_hit;
  // The data registers load whenever their valid may rise or is free (a walk step with the output
  // free, the query states), not on the exact condition: their valid says when they count, and
  // the enables stay off the decision's LUT levels.
  always_ff @(posedge clk_i) begin
    logic [rnic_spec_pkg::CQ_REC_BYTES*8-1:0]   c;
    logic [rnic_spec_pkg::SR_EVENT_BYTES*8-1:0] e;
    logic [rnic_spec_pkg::SR_QUERY_BYTES*8-1:0] q;
    if (state_q == S_WALK && out_free) begin
      c = '0;
      c[rnic_spec_pkg::CQ_REC_WR_ID_LSB +: rnic_spec_pkg::CQ_REC_WR_ID_W]         = r_wrid;
      c[rnic_spec_pkg::CQ_REC_BYTE_LEN_LSB +: rnic_spec_pkg::CQ_REC_BYTE_LEN_W]   = r_len;
      c[rnic_spec_pkg::CQ_REC_QPN_LSB +: rnic_spec_pkg::CQ_REC_QPN_W]             = 32'(qpn_q);
      c[rnic_spec_pkg::CQ_REC_STATUS_LSB +: rnic_spec_pkg::CQ_REC_STATUS_W]       = w_stat;
      c[rnic_spec_pkg::CQ_REC_OPCODE_LSB +: rnic_spec_pkg::CQ_REC_OPCODE_W]       = r_op;
      c[rnic_spec_pkg::CQ_REC_WQE_INDEX_LSB +: rnic_spec_pkg::CQ_REC_WQE_INDEX_W] = r_idx;
      c[rnic_spec_pkg::CQ_REC_CQN_LSB +: rnic_spec_pkg::CQ_REC_CQN_W]             = r_cqn;
      cqr_o <= c;
    end
    if (state_q == S_WALK && ev_free) begin
      e = '0;
      e[rnic_spec_pkg::SR_EVENT_QPN_LSB +: rnic_spec_pkg::SR_EVENT_QPN_W]       = qpn_q;
      e[rnic_spec_pkg::SR_EVENT_KIND_LSB +: rnic_spec_pkg::SR_EVENT_KIND_W]     =
        stop_bar ? rnic_spec_pkg::SR_EVENT_KIND_BARRIER : rnic_spec_pkg::SR_EVENT_KIND_RESP_ERR;
      e[rnic_spec_pkg::SR_EVENT_PSN_LSB +: rnic_spec_pkg::SR_EVENT_PSN_W]       = r_first;
      e[rnic_spec_pkg::SR_EVENT_STATUS_LSB +: rnic_spec_pkg::SR_EVENT_STATUS_W] = stop_bar ? StSuccess : w_stat;
      ev_o <= e;
    end
    if ((state_q == S_LOAD && qry_op) || qry_st) begin
      q = '0;
      q[rnic_spec_pkg::SR_QUERY_UNA_LSB +: rnic_spec_pkg::SR_QUERY_UNA_W]             = qry_st ? una_q : l_una;
      q[rnic_spec_pkg::SR_QUERY_NONEMPTY_LSB]                                         = qry_st ? ne_q : l_ne;
      q[rnic_spec_pkg::SR_QUERY_HALTED_LSB]                                           = qry_st ? halt_q : l_halt;
      q[rnic_spec_pkg::SR_QUERY_TOLD_LSB]                                             = qry_st ? told_q : l_told;
      q[rnic_spec_pkg::SR_QUERY_FOUND_LSB]                                            = qry_rec;
      q[rnic_spec_pkg::SR_QUERY_HEAD_BARRIER_LSB]                                     = qry_rec && r_bar;
      q[rnic_spec_pkg::SR_QUERY_HEAD_FIRST_PSN_LSB +: rnic_spec_pkg::SR_QUERY_HEAD_FIRST_PSN_W] =
        qry_rec ? r_first : '0;
      q[rnic_spec_pkg::SR_QUERY_HEAD_LAST_PSN_LSB +: rnic_spec_pkg::SR_QUERY_HEAD_LAST_PSN_W] =
        qry_rec ? r_last : '0;
      q[rnic_spec_pkg::SR_QUERY_CI_LSB +: rnic_spec_pkg::SR_QUERY_CI_W]               = qry_st ? ci_q : l_ci;
      q[rnic_spec_pkg::SR_QUERY_HEAD_WQE_INDEX_LSB +: rnic_spec_pkg::SR_QUERY_HEAD_WQE_INDEX_W] =
        qry_rec ? r_idx : '0;
      qry_o <= q;
    end
  end

  assign free_o = free_q;
  assign idle_o = state_q == S_IDLE && !rin_full_q && !ain_full_q && !cin_full_q;

  logic unused;
  assign unused = ^{rec_i[rnic_spec_pkg::SR_REC_BYTES*8-1:RecW+PsnW], qpn_q[PsnW-1:QpAw]};
endmodule
