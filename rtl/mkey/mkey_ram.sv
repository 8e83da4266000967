// mkey_ram: simple dual-port RAM (one write port, one registered read port with enable), written
// so that Yosys and Vivado infer block RAM (RAMB36E2/RAMB18E2).
// Read-during-write to the same address returns undefined data: mkey_table never does it.
module mkey_ram #(
  parameter int unsigned Depth = 4096,
  parameter int unsigned Width = 256,
  parameter int unsigned AddrW = $clog2(Depth)
) (
  input  logic             clk_i,
  input  logic             we_i,
  input  logic [AddrW-1:0] waddr_i,
  input  logic [Width-1:0] wdata_i,
  input  logic             re_i,
  input  logic [AddrW-1:0] raddr_i,
  output logic [Width-1:0] rdata_o
);
  logic [Width-1:0] mem_q [0:Depth-1];

  always_ff @(posedge clk_i) begin
    if (we_i) mem_q[waddr_i] <= wdata_i;
  end

  always_ff @(posedge clk_i) begin
    if (re_i) rdata_o <= mem_q[raddr_i];
  end
endmodule
