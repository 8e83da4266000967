// Doorbell capture: BAR0 writes to the doorbell registers of any user context's page become
// entries {page, register, value} in a FIFO the firmware drains. While the FIFO is full, full_o
// tells the BAR0 port to hold the host's write (PCIe posted writes back up) rather than lose a
// doorbell: a lost SQ doorbell would leave its WQEs unsent for good. A write that arrives
// while full anyway (a bus that cannot wait) is dropped and counted (doorbell.db_dropped).
module rnic_db_capture #(
  parameter int unsigned Depth = 64,
  parameter int unsigned BarAddrWidth = 22
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  input  logic                    wr_i,          // a BAR0 write inside the doorbell pages
  input  logic [BarAddrWidth-1:0] addr_i,        // BAR0 byte address
  input  logic [31:0]             wdata_i,
  output logic                    out_valid_o,
  input  logic                    out_ready_i,
  output logic [63:0]             out_data_o,    // {value, db_event}
  output logic                    full_o,
  output logic [31:0]             dropped_o,
  output logic [31:0]             count_o        // doorbells accepted
);
  localparam int unsigned Aw = $clog2(Depth);
  localparam int unsigned PageBits = $clog2(rnic_spec_pkg::BAR0_DB_PAGE_SIZE);

  logic [BarAddrWidth-1:0] rel;
  logic [11:0] off;
  logic is_db;
  assign rel = addr_i - BarAddrWidth'(rnic_spec_pkg::BAR0_DB_BASE);
  assign off = rel[11:0];
  assign is_db = off == rnic_spec_pkg::DB_SQ_DB || off == rnic_spec_pkg::DB_RQ_DB ||
                 off == rnic_spec_pkg::DB_CQ_DB || off == rnic_spec_pkg::DB_CQ_ARM ||
                 off == rnic_spec_pkg::DB_BF_DB;

  logic [63:0] mem [Depth];
  logic [Aw:0] wp_q, rp_q;
  logic full, empty, push, pop;
  assign full = (wp_q[Aw] != rp_q[Aw]) && (wp_q[Aw-1:0] == rp_q[Aw-1:0]);
  assign empty = wp_q == rp_q;
  assign push = wr_i && is_db && !full;
  assign full_o = full;
  assign pop = out_valid_o && out_ready_i;

  logic [31:0] ev;
  always_comb begin
    ev = '0;
    ev[rnic_spec_pkg::DB_EVENT_PAGE_LSB +: rnic_spec_pkg::DB_EVENT_PAGE_W] =
      16'(rel[BarAddrWidth-1:PageBits]);
    ev[rnic_spec_pkg::DB_EVENT_WHICH_LSB +: rnic_spec_pkg::DB_EVENT_WHICH_W] = 8'(off[11:2]);
  end

  always_ff @(posedge clk_i) if (push) mem[wp_q[Aw-1:0]] <= {wdata_i, ev};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wp_q <= '0;
      rp_q <= '0;
      dropped_o <= '0;
      count_o <= '0;
    end else begin
      if (push) begin
        wp_q <= wp_q + 1'b1;
        count_o <= count_o + 32'd1;
      end
      if (wr_i && is_db && full) dropped_o <= dropped_o + 32'd1;
      if (pop) rp_q <= rp_q + 1'b1;
    end
  end
  assign out_valid_o = !empty;
  assign out_data_o = mem[rp_q[Aw-1:0]];
endmodule
