// The data word of a firmware mailbox (rnic_fw_mbox) a read offset names: picked
// by the offset's bits (a mux tree: LUT6 + MUXF7/F8 in the fabric) instead of one compare per
// word, so the soft core's address add is followed by few LUT levels. Data words start at
// DataOff; whole words only (hit_o low for any other offset).
module rnic_fw_mbox_word #(
  parameter int unsigned Words = 8,
  parameter logic [11:0] DataOff = 12'h200
) (
  input  logic [7:0]          off_i,     // offset inside the mailbox's 256-byte page
  input  logic [Words*32-1:0] data_i,
  output logic                hit_o,
  output logic [31:0]         word_o
);
  localparam int unsigned IW = Words > 1 ? $clog2(Words) : 1;
  localparam int unsigned PadW = (1 << IW) * 32;
  logic [7:0] rel;
  logic [PadW-1:0] words;
  assign rel = off_i - DataOff[7:0];
  assign words = PadW'(data_i);
  assign word_o = words[32 * rel[IW+1:2] +: 32];
  assign hit_o = rel[1:0] == 2'b00 && 32'(rel[7:2]) < Words;
endmodule
