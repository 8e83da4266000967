// rv_muldiv: M-extension unit.
//   MUL/MULH/MULHSU/MULHU: one 33x33 signed multiply, result registered: done 1 cycle after start.
//   DIV/DIVU/REM/REMU: radix-2 restoring divider, 32 iterations: done 33 cycles after start
//   (division by zero: 1 cycle). kill_i aborts an operation in flight (interrupt taken).
// Handshake: req_i is held by the pipeline until done_o (one cycle); the unit starts when idle.
module rv_muldiv (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        req_i,
  input  logic        kill_i,
  input  logic [2:0]  op_i,      // funct3 of the OP/0000001 instruction
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic        done_o,
  output logic [31:0] result_o
);
  typedef enum logic [1:0] {Idle, Div, Fin, Done} state_e;
  state_e      state_q;
  logic [31:0] res_q;
  logic [31:0] rem_q;
  logic [31:0] quo_q;
  logic [31:0] dvs_q;
  logic [4:0]  cnt_q;
  logic        neg_q, is_rem_q;

  logic [32:0] rem_sh;
  logic [33:0] diff;
  assign rem_sh = {rem_q, quo_q[31]};
  assign diff   = {1'b0, rem_sh} - {2'b0, dvs_q};
  logic unused_diff;   // a non-negative difference is below the divisor: bit 32 is zero
  assign unused_diff = diff[32];

  // signed views for DIV/REM
  logic sa, sb;
  assign sa = !op_i[0] & a_i[31];
  assign sb = !op_i[0] & b_i[31];

  // 33x33 signed product; MULHU treats a unsigned, only MULH treats b signed. Only its low 64
  // bits are used, so it is computed at 64 bits (operands sign-extended, the same bits): the
  // simulator multiplies natively instead of in wide words every idle cycle (docs/sim-speed.md,
  // step 13); Yosys narrows the sign extensions again.
  function automatic logic [31:0] mul_res(input logic [1:0] f, input logic [31:0] a,
                                          input logic [31:0] b);
    logic signed [32:0] ma, mb;
    logic signed [63:0] p;
    ma = {(f != 2'b11) & a[31], a};
    mb = {(f == 2'b01) & b[31], b};
    p  = 64'(ma) * 64'(mb);
    mul_res = (f == 2'b00) ? p[31:0] : p[63:32];
  endfunction

  assign done_o   = (state_q == Done);
  assign result_o = res_q;

  // The state alone sees reset, kill and the request; the operand and result registers load in
  // every idle cycle whatever the request, so their enables depend on state_q only and not on
  // the pipeline's request or the interrupt (issue 16: that made the unit's flops 9 LUT levels
  // behind the instruction RAM). A request in Idle uses what they load in that same cycle.
  always_ff @(posedge clk_i) begin
    if (!rst_ni || kill_i) begin
      state_q <= Idle;
    end else begin
      unique case (state_q)
        Idle:    if (req_i) state_q <= (!op_i[2] || b_i == 32'd0) ? Done : Div;
        Div:     if (cnt_q == 5'd0) state_q <= Fin;
        Fin:     state_q <= Done;
        default: state_q <= Idle;
      endcase
    end
  end

  always_ff @(posedge clk_i) begin
    unique case (state_q)
      Idle: begin
        if (!op_i[2]) res_q <= mul_res(op_i[1:0], a_i, b_i);
        else          res_q <= op_i[1] ? a_i : 32'hFFFF_FFFF;
        quo_q    <= sa ? -a_i : a_i;
        dvs_q    <= sb ? -b_i : b_i;
        rem_q    <= '0;
        neg_q    <= op_i[1] ? sa : (sa ^ sb);
        is_rem_q <= op_i[1];
        cnt_q    <= 5'd31;
      end
      Div: begin
        if (!diff[33]) begin
          rem_q <= diff[31:0];
          quo_q <= {quo_q[30:0], 1'b1};
        end else begin
          rem_q <= rem_sh[31:0];
          quo_q <= {quo_q[30:0], 1'b0};
        end
        cnt_q <= cnt_q - 5'd1;
      end
      Fin: begin
        if (is_rem_q) res_q <= neg_q ? -rem_q : rem_q;
        else          res_q <= neg_q ? -quo_q : quo_q;
      end
      default: ;
    endcase
  end
endmodule
