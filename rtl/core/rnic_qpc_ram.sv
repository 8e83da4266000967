// rnic_qpc_ram: the QP-context RAM, the firmware's per-QP state (QP context, requester and
// atomic bookkeeping) for configurations whose QP count does not fit the 64 KiB DMEM. Plain
// memory on the soft core's tightly coupled port: one inferred block RAM, byte-enabled stores,
// registered read data the cycle after the request (the port's fixed one-cycle load).
// NumQps x EntryBytes bytes (fw_tc.qpc_entry_bytes per QP, spec/rnic.toml); addresses wrap.
//
// A store is posted: its address, data and byte enables are registered when the core presents
// it and written the next cycle through the RAM's second port, so the block RAMs' write enables
// (one per cascaded RAM, decoded from the address) come from flops, not from the core's address
// add (issue 16: register file -> forwarding -> add -> enables was 9 LUT levels in the core).
// The read port reads the core's address every cycle. A load right after a store of the same
// word reads the old word (the write port is READ_FIRST); its data is merged from the posted
// store's registers, by a compare of registered addresses, so loads see every earlier store and
// the core's timing is unchanged.
module rnic_qpc_ram #(
  parameter int unsigned NumQps     = 128,
  parameter int unsigned EntryBytes = 256
) (
  input  logic        clk_i,
  input  logic        go_i,     // the core's data request is accepted this cycle (any address)
  input  logic        we_i,
  input  logic [3:0]  be_i,
  input  logic [31:0] addr_i,   // byte offset in the RAM
  input  logic [31:0] wdata_i,
  input  logic        sel_i,    // last cycle's request addressed this RAM (decoded from flops)
  output logic [31:0] rdata_o
);
  localparam int unsigned Words = NumQps * EntryBytes / 4;
  localparam int unsigned Aw = $clog2(Words);

  (* ram_style = "block" *) logic [31:0] mem [Words];

  logic [Aw-1:0] addr;
  assign addr = addr_i[Aw+1:2];
  logic unused_addr;
  assign unused_addr = ^{addr_i[31:Aw+2], addr_i[1:0]};

  // the posted store: loaded by stores only, so after a store and then a load they still hold
  // the store when the load's data is merged
  logic          st_q, wr, wr_q;
  logic [Aw-1:0] wa_q, ra_q;
  logic [31:0]   wd_q, rd_q;
  logic [3:0]    wbe_q;
  assign wr = st_q && sel_i;

  always_ff @(posedge clk_i) begin
    st_q <= go_i && we_i;
    if (go_i && we_i) begin
      wa_q  <= addr;
      wd_q  <= wdata_i;
      wbe_q <= be_i;
    end
    for (int i = 0; i < 4; i++) begin
      if (wr && wbe_q[i]) mem[wa_q][8*i +: 8] <= wd_q[8*i +: 8];
    end
    rd_q <= mem[addr];
    ra_q <= addr;
    wr_q <= wr;
  end

  // last cycle's read and write were the same word: that read returned the word before the write
  logic wr_hit;
  assign wr_hit = wr_q && ra_q == wa_q;
  always_comb begin
    for (int i = 0; i < 4; i++) rdata_o[8*i +: 8] = (wr_hit && wbe_q[i]) ? wd_q[8*i +: 8] : rd_q[8*i +: 8];
  end
endmodule
