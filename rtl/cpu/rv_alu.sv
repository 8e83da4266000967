// rv_alu: RV32I integer ALU (combinational), and the EX result select around it.
// One adder serves ADD, SUB, SLT and SLTU (b inverted, carry in 1 for the last three). Its sum
// and the SLT bit leave the ALU unselected: the core registers them beside the other results
// (rest_o: logic ops, shifts, and other_i, the result of an instruction that is no ALU op) and
// picks one in WB (use_sum_o, use_lt_o registered). No logic runs from the carry chain's outputs
// into the WB register but the SLT bit's one LUT (issue 16: with the select behind the adder,
// ABC, which sees a carry chain's outputs as inputs arriving at time 0, mapped the select and
// the decode it meets behind the add, 10 LUT levels in the core; before that, two adders behind
// a 10-way op mux and the core's 6-way result mux made the soft core's longest data path).
module rv_alu (
  input  rv_pkg::alu_op_e op_i,
  input  logic [31:0]     a_i,
  input  logic [31:0]     b_i,
  input  logic            alu_i,     // the instruction is an ALU op (else res_o = other_i)
  input  logic [31:0]     other_i,
  output logic [31:0]     sum_o,     // a + b, or a - b (ADD, SUB)
  output logic            lt_o,      // SLT/SLTU's bit
  output logic [31:0]     rest_o,    // every other result (alu_i ? logic/shift : other_i)
  output logic            use_sum_o, // the result is sum_o
  output logic            use_lt_o   // the result is {31'd0, lt_o}
);
  logic        inv, use_sum, use_lt;
  logic [33:0] t;
  logic [32:0] s;           // {0,a} + {0,b}, or {0,a} - {0,b} when inv
  logic        lt, ltu, lt_bit;
  assign inv     = (op_i == rv_pkg::AluSub) || (op_i == rv_pkg::AluSlt) || (op_i == rv_pkg::AluSltu);
  assign use_sum = alu_i && ((op_i == rv_pkg::AluAdd) || (op_i == rv_pkg::AluSub));
  assign use_lt  = alu_i && ((op_i == rv_pkg::AluSlt) || (op_i == rv_pkg::AluSltu));
  // the carry in rides on an extra low bit: {a,1} + {b^inv,inv}
  assign t   = {1'b0, a_i, 1'b1} + {{1'b0, b_i} ^ {33{inv}}, inv};
  assign s   = t[33:1];
  logic unused_t0;   // the carry-in bit's own sum
  assign unused_t0 = t[0];
  assign ltu = s[32];
  assign lt  = (a_i[31] == b_i[31]) ? s[31] : a_i[31];
  assign lt_bit = (op_i == rv_pkg::AluSlt) ? lt : ltu;

  logic [31:0] rest;
  always_comb begin
    unique case (op_i)
      rv_pkg::AluSll:  rest = a_i << b_i[4:0];
      rv_pkg::AluXor:  rest = a_i ^ b_i;
      rv_pkg::AluSrl:  rest = a_i >> b_i[4:0];
      rv_pkg::AluSra:  rest = $signed(a_i) >>> b_i[4:0];
      rv_pkg::AluOr:   rest = a_i | b_i;
      rv_pkg::AluAnd:  rest = a_i & b_i;
      default:         rest = 32'd0;
    endcase
  end

  assign sum_o     = s[31:0];
  assign lt_o      = lt_bit;
  assign rest_o    = alu_i ? rest : other_i;
  assign use_sum_o = use_sum;
  assign use_lt_o  = use_lt;
endmodule
