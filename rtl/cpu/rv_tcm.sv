// rv_tcm: tightly coupled memory, one inferred block RAM with two synchronous ports.
//   port A: read only (instruction fetch), read enable holds the output when low.
//   port B: read/write with byte enables (data accesses, host loader).
// Read data appears one cycle after the address (registered BRAM output, no output register).
module rv_tcm #(
  parameter int unsigned Bytes    = 65536,
  parameter              InitFile = ""
) (
  input  logic                           clk_i,
  input  logic                           a_en_i,
  input  logic [$clog2(Bytes/4)-1:0]     a_addr_i,
  output logic [31:0]                    a_rdata_o,
  input  logic                           b_en_i,
  input  logic [3:0]                     b_we_i,
  input  logic [$clog2(Bytes/4)-1:0]     b_addr_i,
  input  logic [31:0]                    b_wdata_i,
  output logic [31:0]                    b_rdata_o
);
  localparam int unsigned Words = Bytes / 4;

  (* ram_style = "block" *) logic [31:0] mem [Words];

  initial begin
    if (InitFile != "") $readmemh(InitFile, mem);
  end

  always_ff @(posedge clk_i) begin
    if (a_en_i) a_rdata_o <= mem[a_addr_i];
  end

  always_ff @(posedge clk_i) begin
    if (b_en_i) begin
      for (int i = 0; i < 4; i++) begin
        if (b_we_i[i]) mem[b_addr_i][8*i +: 8] <= b_wdata_i[8*i +: 8];
      end
      b_rdata_o <= mem[b_addr_i];
    end
  end
endmodule
