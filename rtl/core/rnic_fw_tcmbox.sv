// A firmware-to-engine descriptor mailbox on the soft core's tightly coupled window (spec fw_tc
// mbox_regs: txd_*, rqd_*, rdd_*): the firmware fills Words data words with posted one-cycle
// stores, then stores to the commit register; the mailbox offers the descriptor on a
// valid/ready port until the engine takes it, while the data words may already be filled again.
// A commit while the previous one is still offered is dropped and counted (mbox_status), it
// never stalls the core. The status answers a load the cycle after the request (a two-cycle load
// for the core). Everything is taken from the registered request of rnic_fw_subsys (eq_*_q,
// its page decided there from offset bit 12): no path from the core's address add into the
// mailbox's state (issue 16).
module rnic_fw_tcmbox #(
  parameter int unsigned Words = 32,
  parameter logic [12:0] DataOff = 13'h1000,    // spec offsets in the window (fw_tc mbox_regs)
  parameter logic [12:0] CommitOff = 13'h1080,
  parameter logic [12:0] StatusOff = 13'h1084
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  // the registered request of the core, already decoded to the mailboxes' page (offset bit 12)
  input  logic                tc_req_i,
  input  logic                tc_we_i,
  input  logic [11:0]         tc_addr_i,
  input  logic [31:0]         tc_wdata_i,
  // the status for a load of StatusOff, zero for every other load of the page (the mailboxes'
  // answers are ORed); held between loads
  output logic [31:0]         tc_rdata_o,
  output logic                out_valid_o,
  input  logic                out_ready_i,
  output logic [Words*32-1:0] out_data_o
);
  logic [Words*32-1:0] data_q;
  logic [31:0] st;  // the status register (spec layout mbox_status)
  logic        out_arg;
  // the commit's value is not used (no argument): a 1-bit argument register, removed by synthesis
  rnic_fw_mbox_out #(.Width(Words * 32), .ArgW(1)) u_out (
    .clk_i, .rst_ni, .commit_i(tc_req_i && tc_we_i && tc_addr_i == CommitOff[11:0]), .arg_i(1'b0),
    .data_i(data_q), .out_valid_o, .out_ready_i, .out_arg_o(out_arg), .out_data_o, .status_o(st)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      data_q <= '0;
      tc_rdata_o <= '0;
    end else begin
      if (tc_req_i && !tc_we_i) tc_rdata_o <= tc_addr_i == StatusOff[11:0] ? st : 32'd0;
      if (tc_req_i && tc_we_i)
        for (int w = 0; w < Words; w++)
          if (tc_addr_i == 12'(DataOff + 13'(4 * w))) data_q[w*32 +: 32] <= tc_wdata_i;
    end
  end

  logic unused;
  assign unused = out_arg;
endmodule
