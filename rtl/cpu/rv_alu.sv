// rv_alu: RV32I integer ALU (combinational), and the EX result select around it.
// One adder serves ADD, SUB, SLT and SLTU (b inverted, carry in 1 for the last three), and it
// comes last in the result select: everything else (logic ops, shifts, and other_i, the result
// of an instruction that is no ALU op) is chosen first, so the carry chain's outputs pass one
// LUT before the WB register (issue 16: two adders behind a 10-way op mux and the core's 6-way
// result mux made the soft core's longest data path).
module rv_alu (
  input  rv_pkg::alu_op_e op_i,
  input  logic [31:0]     a_i,
  input  logic [31:0]     b_i,
  input  logic            alu_i,     // the instruction is an ALU op (else res_o = other_i)
  input  logic [31:0]     other_i,
  output logic [31:0]     res_o
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

  assign res_o = use_sum ? s[31:0] : use_lt ? {31'd0, lt_bit} : alu_i ? rest : other_i;
endmodule
