// Doorbell capture: BAR0 writes to the doorbell registers of any user context's page become
// entries {page, register, value} in a FIFO the firmware drains. While the FIFO is full, full_o
// tells the BAR0 port to hold the host's write (PCIe posted writes back up) rather than lose a
// doorbell: a lost SQ doorbell would leave its WQEs unsent for good. A write that arrives
// while full anyway (a bus that cannot wait) is dropped and counted (doorbell.db_dropped).
//
// BlueFlame: writes to a page's bf_data fill one shared 256-byte capture. It is valid only for
// a WQE written in order from offset 0 by one page, in whole 64-byte blocks, and closed by that
// page's bf_db; every bf_db entry carries a sequence number (db_event.bf_seq) and the capture
// remembers the one that closed it. The WQE is in the SQ ring too, so the firmware uses the
// capture only when its status still names the doorbell it serves, checked after reading it,
// and reads the ring otherwise: a capture overtaken by another page or a later WQE costs a
// ring read, never a wrong WQE.
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
  output logic [31:0]             count_o,       // doorbells accepted
  // BlueFlame capture, read by the firmware: word bf_addr_i the next cycle, and its status
  input  logic [5:0]              bf_addr_i,
  output logic [31:0]             bf_rdata_o,
  output rnic_spec_pkg::bf_status_t bf_status_o
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

  // ---- BlueFlame capture -------------------------------------------------------------------
  localparam int unsigned BfWords = rnic_spec_pkg::DB_BF_DATA_BYTES / 4;
  logic [15:0] page;
  logic        is_bf_data, is_bf_db, bf_push;
  logic [5:0]  bf_k;
  assign page       = 16'(rel[BarAddrWidth-1:PageBits]);
  assign is_bf_data = off >= rnic_spec_pkg::DB_BF_DATA &&
                      off < rnic_spec_pkg::DB_BF_DATA + 12'(rnic_spec_pkg::DB_BF_DATA_BYTES);
  assign is_bf_db   = off == rnic_spec_pkg::DB_BF_DB;
  assign bf_k       = 6'((off - rnic_spec_pkg::DB_BF_DATA) >> 2);
  assign bf_push    = push && is_bf_db;

  logic [31:0] bf_mem [BfWords];
  logic        bf_open_q;          // a WQE is being written in order by bf_page_q
  logic [6:0]  bf_next_q;          // the next word expected
  logic [7:0]  bf_seq_q;           // bf_seq of the last bf_db accepted
  rnic_spec_pkg::bf_status_t bf_st_q;

  always_ff @(posedge clk_i) begin
    if (wr_i && is_bf_data) bf_mem[bf_k] <= wdata_i;
    bf_rdata_o <= bf_mem[bf_addr_i];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      bf_open_q <= 1'b0;
      bf_next_q <= '0;
      bf_seq_q <= '0;
      bf_st_q <= '0;
    end else if (wr_i && is_bf_data) begin
      // a WQE starts at word 0; any other write must continue the open one in order
      if (bf_k == 6'd0) begin
        bf_open_q <= 1'b1;
        bf_next_q <= 7'd1;
        bf_st_q.page <= page;
      end else if (bf_open_q && page == bf_st_q.page && 7'(bf_k) == bf_next_q) begin
        bf_next_q <= bf_next_q + 7'd1;
      end else begin
        bf_open_q <= 1'b0;
      end
      bf_st_q.valid <= 1'b0;
    end else if (bf_push) begin
      bf_seq_q <= bf_seq_q + 8'd1;
      bf_open_q <= 1'b0;
      bf_st_q.seq <= bf_seq_q + 8'd1;
      bf_st_q.wqebbs <= 3'(bf_next_q >> 4);
      bf_st_q.valid <= bf_open_q && page == bf_st_q.page && bf_next_q[3:0] == 4'd0 && bf_next_q != 7'd0;
    end
  end
  assign bf_status_o = bf_st_q;

  rnic_spec_pkg::db_event_t ev;
  always_comb begin
    ev = '0;
    ev.page = page;
    ev.which = 8'(off[11:2]);
    ev.bf_seq = is_bf_db ? bf_seq_q + 8'd1 : 8'd0;
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
