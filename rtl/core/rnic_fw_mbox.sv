// A firmware-to-hardware mailbox: the firmware fills Words data registers, then writes the
// commit register (an argument such as an index and opcode); the mailbox offers data and
// argument on a valid/ready port until the block takes them. A commit while the previous one
// is still offered is dropped and counted, never stalls the core.
module rnic_fw_mbox #(
  parameter int unsigned Words = 8,
  parameter logic [11:0] DataOff = 12'h200,   // offset of data word 0 in the firmware MMIO block
  parameter logic [11:0] CommitOff = 12'h220,
  parameter logic [11:0] StatusOff = 12'h224
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // already decoded to this mailbox's 256-byte page (every offset below lies in it), so the
  // offsets are compared on [7:0] only: fewer LUT levels behind the core's address add
  input  logic                 mmio_req_i,
  input  logic                 mmio_we_i,
  input  logic [7:0]           mmio_off_i,
  input  logic [31:0]          mmio_wdata_i,
  output logic                 mmio_rvalid_o,
  output logic [31:0]          mmio_rdata_o,
  output logic                 out_valid_o,
  input  logic                 out_ready_i,
  output logic [31:0]          out_arg_o,
  output logic [Words*32-1:0]  out_data_o
);
  logic [Words*32-1:0] data_q;

  logic [31:0] rd_word;
  logic rd_data;
  rnic_fw_mbox_word #(.Words(Words), .DataOff(DataOff)) u_word (
    .off_i(mmio_off_i), .data_i(data_q), .hit_o(rd_data), .word_o(rd_word)
  );
  logic [31:0] st;  // the status register (spec layout mbox_status)
  rnic_fw_mbox_out #(.Width(Words * 32)) u_out (
    .clk_i, .rst_ni, .commit_i(mmio_req_i && mmio_we_i && mmio_off_i == CommitOff[7:0]), .arg_i(mmio_wdata_i),
    .data_i(data_q), .out_valid_o, .out_ready_i, .out_arg_o, .out_data_o, .status_o(st)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      data_q <= '0;
      mmio_rvalid_o <= 1'b0;
      mmio_rdata_o <= '0;
    end else begin
      mmio_rvalid_o <= mmio_req_i && !mmio_we_i;
      mmio_rdata_o <= '0;
      if (mmio_req_i && !mmio_we_i) begin
        if (rd_data) mmio_rdata_o <= rd_word;
        else if (mmio_off_i == StatusOff[7:0]) mmio_rdata_o <= st;
      end
      if (mmio_req_i && mmio_we_i)
        for (int w = 0; w < Words; w++)
          if (mmio_off_i == 8'(DataOff + 12'(4 * w))) data_q[w*32 +: 32] <= mmio_wdata_i;
    end
  end
endmodule
