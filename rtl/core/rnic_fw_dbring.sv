// The doorbell ring on the soft core's tightly coupled window (spec fw_tc dbr_*): doorbells from
// the doorbell BAR's FIFO (through rnic_qpn_route: this core's) are copied, one per cycle, into
// a small RAM of dbr_num two-word slots (word 0 the db_event, word 1 the value) that the firmware
// reads with one-cycle loads, in place of the MMIO mailbox (three loads of 4-7 cycles and a pop
// per doorbell). The read port takes the core's raw address on a data request and registers the
// word, as the receive-event ring's does; dbr_prod and dbr_cons answer on the same port (the
// region's upper half), so knowing whether doorbells wait is a one-cycle load as well. The
// firmware frees slots with one store of its count to dbr_cons (from the core's registered
// request). When the ring is full the head doorbell waits in the FIFO, and the host's write
// behind it (the BAR's hold): nothing is lost here.
module rnic_fw_dbring #(
  parameter int unsigned Num  = rnic_spec_pkg::FW_TC_DBR_NUM,
  parameter int unsigned CntW = rnic_spec_pkg::FW_TC_DBR_COUNT_BITS
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  // this core's doorbells {value, db_event} (first-word fall-through): popped as they are copied
  input  logic        in_valid_i,
  output logic        in_ready_o,
  input  logic [63:0] in_data_i,
  // the read port: the word the core's data request names (raw, a word index inside the ring's
  // 256 bytes: slots below 0x80, dbr_prod at 0x80, dbr_cons at 0x84; the upper half's other
  // words alias those two), read when rd_en_i; its data the next cycle
  input  logic        rd_en_i,
  input  logic [5:0]  rd_addr_i,
  output logic [31:0] rd_data_o,
  // the core's registered request to the ring's region (store of dbr_cons)
  input  logic        wr_i,
  input  logic [7:0]  wr_off_i,
  input  logic [31:0] wr_data_i
);
  localparam int unsigned SW = $clog2(Num);
  localparam logic [7:0] ProdOff = 8'(rnic_spec_pkg::FW_TC_DBR_PROD - rnic_spec_pkg::FW_TC_DBR_BASE);
  localparam logic [7:0] ConsOff = 8'(rnic_spec_pkg::FW_TC_DBR_CONS - rnic_spec_pkg::FW_TC_DBR_BASE);
  if (Num * 8 > 32'(ProdOff) || ProdOff != 8'h80 || ConsOff != 8'h84) begin : g_layout
    $error("rnic_fw_dbring: the slots must fit below dbr_prod (0x80), dbr_cons at 0x84");
  end

  logic [CntW-1:0] prod_q, cons_q;
  logic            full, copy;
  // occupancy never exceeds Num: SW+1 bits of the counts tell full from empty
  assign full = (SW+1)'(prod_q[SW:0] - cons_q[SW:0]) == (SW+1)'(Num);
  assign copy = in_valid_i && !full;
  assign in_ready_o = !full;

  // two LUT RAMs (word 0 and word 1 of each slot) written in the same cycle; the read port picks
  // the word by the address's bit 0 and the counts by bit 5
  logic [31:0] mem0 [Num];
  logic [31:0] mem1 [Num];
  logic [SW-1:0] rd_slot;
  assign rd_slot = rd_addr_i[SW:1];
  always_ff @(posedge clk_i) begin
    if (copy) begin
      mem0[prod_q[SW-1:0]] <= in_data_i[31:0];
      mem1[prod_q[SW-1:0]] <= in_data_i[63:32];
    end
    if (rd_en_i) begin
      if (rd_addr_i[5]) rd_data_o <= rd_addr_i[0] ? 32'(cons_q) : 32'(prod_q);
      else rd_data_o <= rd_addr_i[0] ? mem1[rd_slot] : mem0[rd_slot];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      prod_q <= '0;
      cons_q <= '0;
    end else begin
      if (copy) prod_q <= prod_q + 1'b1;
      if (wr_i && wr_off_i == ConsOff) cons_q <= wr_data_i[CntW-1:0];
    end
  end

  logic unused;
  assign unused = ^{wr_data_i[31:CntW], rd_addr_i};   // (the slot bits above SW when Num < 16)
endmodule
