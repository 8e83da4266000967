// The receive-event ring on the soft core's tightly coupled window (spec fw_tc evr_*): events
// from the event merge's FIFO are copied, one 32-bit word per cycle, into a small RAM of
// evr_num rx_event slots the firmware loads word by word with one-cycle loads (the RAM's read
// port takes the core's address the cycle of the request, like the QP-context RAM) instead of
// MMIO reads of a one-entry mailbox. evr_prod counts the slots written whole; the firmware frees
// slots with one store of its count to evr_cons (both registers on the engines' registered
// request, 2-cycle loads). When the ring is full the head event waits in the FIFO, so the
// engines stall behind it and nothing is dropped.
module rnic_fw_evring #(
  parameter int unsigned Num   = rnic_spec_pkg::FW_TC_EVR_NUM,
  parameter int unsigned CntW  = rnic_spec_pkg::FW_TC_EVR_COUNT_BITS
) (
  input  logic                                       clk_i,
  input  logic                                       rst_ni,
  // the event merge's queue head (first-word fall-through): popped once the slot is written
  input  logic                                       in_valid_i,
  output logic                                       in_ready_o,
  input  logic [rnic_spec_pkg::RX_EVENT_BYTES*8-1:0] in_data_i,
  // the slots' read port: the word the core's data request names (raw, a word index inside the
  // ring), read when rd_en_i; its data the next cycle
  input  logic                                       rd_en_i,
  input  logic [$clog2(Num * rnic_spec_pkg::RX_EVENT_BYTES / 4)-1:0] rd_addr_i,
  output logic [31:0]                                rd_data_o,
  // the core's registered tightly coupled request (rnic_fw_subsys eq_*_q): evr_prod, evr_cons
  input  logic                                       tc_req_i,
  input  logic                                       tc_we_i,
  input  logic [11:0]                                tc_addr_i,
  input  logic [31:0]                                tc_wdata_i,
  output logic [31:0]                                tc_rdata_o
);
  localparam int unsigned Words = rnic_spec_pkg::RX_EVENT_BYTES / 4;
  localparam int unsigned WW = $clog2(Words);
  localparam int unsigned SW = $clog2(Num);

  logic [CntW-1:0] prod_q, cons_q;
  logic [WW-1:0]   word_q;                         // next word of the head event to copy
  logic            full, copy, last;
  // occupancy never exceeds Num: SW+1 bits of the counts tell full from empty (few LUT levels
  // from the firmware's count into the merge FIFO's pop)
  assign full = (SW+1)'(prod_q[SW:0] - cons_q[SW:0]) == (SW+1)'(Num);
  assign copy = in_valid_i && !full;
  assign last = word_q == WW'(Words - 1);
  assign in_ready_o = copy && last;

  // one LUT RAM: write port the copy, read port the core's address, read data registered (the
  // core sees no path from the ring's state or the merge's FIFO)
  logic [31:0] mem [Num * Words];
  logic [31:0] in_word;
  assign in_word = in_data_i[32 * word_q +: 32];
  always_ff @(posedge clk_i) begin
    if (copy) mem[{prod_q[SW-1:0], word_q}] <= in_word;
    if (rd_en_i) rd_data_o <= mem[rd_addr_i];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      prod_q <= '0;
      cons_q <= '0;
      word_q <= '0;
    end else begin
      if (copy) word_q <= word_q + 1'b1;           // wraps to 0 after the last word
      if (copy && last) prod_q <= prod_q + 1'b1;
      if (tc_req_i && tc_we_i && tc_addr_i == rnic_spec_pkg::FW_TC_EVR_CONS) cons_q <= tc_wdata_i[CntW-1:0];
    end
  end

  // a register load's answer the next cycle; zero for every other address, so the engines'
  // answers are ORed (rnic_core, rnic_fw_subsys)
  always_ff @(posedge clk_i) begin
    if (tc_req_i && !tc_we_i) begin
      if (tc_addr_i == rnic_spec_pkg::FW_TC_EVR_PROD) tc_rdata_o <= 32'(prod_q);
      else if (tc_addr_i == rnic_spec_pkg::FW_TC_EVR_CONS) tc_rdata_o <= 32'(cons_q);
      else tc_rdata_o <= '0;
    end
  end

  logic unused;
  assign unused = ^{tc_wdata_i[31:CntW]};
endmodule
