// rv_pkg: RV32IM + Zicsr encodings and the rv_cpu memory map.
package rv_pkg;
  // ---- major opcodes (insn[6:0])
  localparam logic [6:0] OpLoad   = 7'b0000011;
  localparam logic [6:0] OpMiscMem= 7'b0001111;
  localparam logic [6:0] OpImm    = 7'b0010011;
  localparam logic [6:0] OpAuipc  = 7'b0010111;
  localparam logic [6:0] OpStore  = 7'b0100011;
  localparam logic [6:0] OpReg    = 7'b0110011;
  localparam logic [6:0] OpLui    = 7'b0110111;
  localparam logic [6:0] OpBranch = 7'b1100011;
  localparam logic [6:0] OpJalr   = 7'b1100111;
  localparam logic [6:0] OpJal    = 7'b1101111;
  localparam logic [6:0] OpSystem = 7'b1110011;

  // ---- ALU operations
  typedef enum logic [3:0] {
    AluAdd  = 4'd0,
    AluSub  = 4'd1,
    AluSll  = 4'd2,
    AluSlt  = 4'd3,
    AluSltu = 4'd4,
    AluXor  = 4'd5,
    AluSrl  = 4'd6,
    AluSra  = 4'd7,
    AluOr   = 4'd8,
    AluAnd  = 4'd9
  } alu_op_e;

  // ---- CSR numbers
  localparam logic [11:0] CsrMstatus  = 12'h300;
  localparam logic [11:0] CsrMisa     = 12'h301;
  localparam logic [11:0] CsrMie      = 12'h304;
  localparam logic [11:0] CsrMtvec    = 12'h305;
  localparam logic [11:0] CsrMscratch = 12'h340;
  localparam logic [11:0] CsrMepc     = 12'h341;
  localparam logic [11:0] CsrMcause   = 12'h342;
  localparam logic [11:0] CsrMtval    = 12'h343;
  localparam logic [11:0] CsrMip      = 12'h344;
  localparam logic [11:0] CsrMcycle   = 12'hB00;
  localparam logic [11:0] CsrMinstret = 12'hB02;
  localparam logic [11:0] CsrMcycleh  = 12'hB80;
  localparam logic [11:0] CsrMinstreth= 12'hB82;
  localparam logic [11:0] CsrCycle    = 12'hC00;
  localparam logic [11:0] CsrTime     = 12'hC01;
  localparam logic [11:0] CsrInstret  = 12'hC02;
  localparam logic [11:0] CsrCycleh   = 12'hC80;
  localparam logic [11:0] CsrTimeh    = 12'hC81;
  localparam logic [11:0] CsrInstreth = 12'hC82;
  localparam logic [11:0] CsrMvendorid= 12'hF11;
  localparam logic [11:0] CsrMarchid  = 12'hF12;
  localparam logic [11:0] CsrMimpid   = 12'hF13;
  localparam logic [11:0] CsrMhartid  = 12'hF14;

  // misa: MXL=1 (RV32), extensions I and M
  localparam logic [31:0] MisaValue = 32'h4000_1100;

  // ---- exception / interrupt causes
  localparam logic [31:0] ExcInsnMisaligned  = 32'd0;
  localparam logic [31:0] ExcIllegal         = 32'd2;
  localparam logic [31:0] ExcBreakpoint      = 32'd3;
  localparam logic [31:0] ExcLoadMisaligned  = 32'd4;
  localparam logic [31:0] ExcStoreMisaligned = 32'd6;
  localparam logic [31:0] ExcEcallM          = 32'd11;
  localparam logic [31:0] IrqTimer           = 32'h8000_0007;
  localparam logic [31:0] IrqExternal        = 32'h8000_000B;

  // ---- rv_cpu memory map (see rtl/cpu/README.md)
  localparam logic [31:0] ImemBase  = 32'h0000_0000;  // 0x0000_0000..0x0FFF_FFFF (aliased)
  localparam logic [31:0] DmemBase  = 32'h1000_0000;  // 0x1000_0000..0x1FFF_FFFF (aliased)
  localparam logic [31:0] TimerBase = 32'h2000_0000;  // 0x2000_0000..0x2FFF_FFFF (aliased, 16 B)
  localparam logic [31:0] TcBase    = 32'h3000_0000;  // 0x3000_0000..0x3FFF_FFFF -> tightly coupled port
  localparam logic [31:0] MmioBase  = 32'h4000_0000;  // 0x4000_0000..0xFFFF_FFFF -> MMIO port
endpackage
