// A hardware-to-firmware mailbox: the head of an incoming valid/ready stream, held in Words
// registers the firmware reads; writing the pop register frees it for the next entry.
module rnic_fw_mbox_in #(
  parameter int unsigned Words = 2,
  parameter logic [11:0] DataOff = 12'h300,
  parameter logic [11:0] StatusOff = 12'h308,
  parameter logic [11:0] PopOff = 12'h30C
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // already decoded to this mailbox's 256-byte page (every offset below lies in it), so the
  // offsets are compared on [7:0] only: fewer LUT levels behind the core's address add
  input  logic                 mmio_req_i,
  input  logic                 mmio_we_i,
  input  logic [7:0]           mmio_off_i,
  output logic                 mmio_rvalid_o,
  output logic [31:0]          mmio_rdata_o,
  input  logic                 in_valid_i,
  output logic                 in_ready_o,
  input  logic [Words*32-1:0]  in_data_i
);
  logic full_q;
  logic [Words*32-1:0] data_q;

  logic [31:0] rd_word;
  logic rd_data;
  rnic_fw_mbox_word #(.Words(Words), .DataOff(DataOff)) u_word (
    .off_i(mmio_off_i), .data_i(data_q), .hit_o(rd_data), .word_o(rd_word)
  );
  assign in_ready_o = !full_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      full_q <= 1'b0;
      data_q <= '0;
      mmio_rvalid_o <= 1'b0;
      mmio_rdata_o <= '0;
    end else begin
      if (in_valid_i && !full_q) begin
        full_q <= 1'b1;
        data_q <= in_data_i;
      end
      if (mmio_req_i && mmio_we_i && mmio_off_i == PopOff[7:0]) full_q <= 1'b0;
      mmio_rvalid_o <= mmio_req_i && !mmio_we_i;
      mmio_rdata_o <= '0;
      if (mmio_req_i && !mmio_we_i) begin
        if (rd_data) mmio_rdata_o <= rd_word;
        else if (mmio_off_i == StatusOff[7:0]) mmio_rdata_o <= 32'(full_q) << rnic_spec_pkg::MBOX_IN_STATUS_VALID_LSB;
      end
    end
  end
endmodule
