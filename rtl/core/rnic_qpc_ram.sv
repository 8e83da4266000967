// rnic_qpc_ram: the QP-context RAM, the firmware's per-QP state (QP context, requester and
// atomic bookkeeping) for configurations whose QP count does not fit the 64 KiB DMEM. Plain
// memory on the soft core's tightly coupled port: one inferred block RAM, byte-enabled stores,
// registered read data the cycle after the request (the port's fixed one-cycle load).
// NumQps x EntryBytes bytes (fw_tc.qpc_entry_bytes per QP, spec/rnic.toml); addresses wrap.
module rnic_qpc_ram #(
  parameter int unsigned NumQps     = 128,
  parameter int unsigned EntryBytes = 256
) (
  input  logic        clk_i,
  input  logic        req_i,
  input  logic        we_i,
  input  logic [3:0]  be_i,
  input  logic [31:0] addr_i,   // byte offset in the RAM
  input  logic [31:0] wdata_i,
  output logic [31:0] rdata_o
);
  localparam int unsigned Words = NumQps * EntryBytes / 4;
  localparam int unsigned Aw = $clog2(Words);

  (* ram_style = "block" *) logic [31:0] mem [Words];

  logic [Aw-1:0] waddr;
  assign waddr = addr_i[Aw+1:2];
  logic unused_addr;
  assign unused_addr = ^{addr_i[31:Aw+2], addr_i[1:0]};

  always_ff @(posedge clk_i) begin
    if (req_i) begin
      for (int i = 0; i < 4; i++) begin
        if (we_i && be_i[i]) mem[waddr][8*i +: 8] <= wdata_i[8*i +: 8];
      end
      rdata_o <= mem[waddr];
    end
  end
endmodule
