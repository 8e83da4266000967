// rv_alu: RV32I integer ALU (combinational).
module rv_alu (
  input  rv_pkg::alu_op_e op_i,
  input  logic [31:0]     a_i,
  input  logic [31:0]     b_i,
  output logic [31:0]     res_o
);
  logic [32:0] sub;
  logic        lt, ltu;
  assign sub = {1'b0, a_i} - {1'b0, b_i};
  assign ltu = sub[32];
  assign lt  = (a_i[31] == b_i[31]) ? sub[31] : a_i[31];

  always_comb begin
    unique case (op_i)
      rv_pkg::AluAdd:  res_o = a_i + b_i;
      rv_pkg::AluSub:  res_o = sub[31:0];
      rv_pkg::AluSll:  res_o = a_i << b_i[4:0];
      rv_pkg::AluSlt:  res_o = {31'd0, lt};
      rv_pkg::AluSltu: res_o = {31'd0, ltu};
      rv_pkg::AluXor:  res_o = a_i ^ b_i;
      rv_pkg::AluSrl:  res_o = a_i >> b_i[4:0];
      rv_pkg::AluSra:  res_o = $signed(a_i) >>> b_i[4:0];
      rv_pkg::AluOr:   res_o = a_i | b_i;
      rv_pkg::AluAnd:  res_o = a_i & b_i;
      default:         res_o = a_i + b_i;
    endcase
  end
endmodule
