// AXI4 slave (wide, bursts) to a 32-bit AXI4-Lite master, one transaction at a time. The PCIe
// bridge's BAR master (XDMA M_AXI_B, 512 bits) delivers host MMIO here: a 4- or 8-byte access is
// one beat, a 64-byte write-combined store one beat with 16 strobed lanes. Each beat becomes one
// AXI-Lite access per 32-bit lane it covers (writes: lanes with a strobe; reads: the lanes of
// 2**arsize bytes from the address), in address order; the worst response of the lanes is the
// beat's (reads) or the burst's (writes). MMIO is rare and small, so simplicity beats speed.
// Bursts are INCR (FIXED and WRAP are treated as INCR: the bridge does not issue them to BARs).
module rnic_axi_to_axil #(
  parameter int unsigned DataWidth = 512,
  parameter int unsigned AddrWidth = 64,
  parameter int unsigned IdWidth   = 4,
  parameter int unsigned LiteAddrWidth = 25  // address bits passed on (the rest is the BAR base)
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  input  logic [IdWidth-1:0]       s_axi_awid_i,
  input  logic [AddrWidth-1:0]     s_axi_awaddr_i,
  input  logic [7:0]               s_axi_awlen_i,
  input  logic [2:0]               s_axi_awsize_i,
  input  logic                     s_axi_awvalid_i,
  output logic                     s_axi_awready_o,
  input  logic [DataWidth-1:0]     s_axi_wdata_i,
  input  logic [DataWidth/8-1:0]   s_axi_wstrb_i,
  input  logic                     s_axi_wlast_i,
  input  logic                     s_axi_wvalid_i,
  output logic                     s_axi_wready_o,
  output logic [IdWidth-1:0]       s_axi_bid_o,
  output logic [1:0]               s_axi_bresp_o,
  output logic                     s_axi_bvalid_o,
  input  logic                     s_axi_bready_i,
  input  logic [IdWidth-1:0]       s_axi_arid_i,
  input  logic [AddrWidth-1:0]     s_axi_araddr_i,
  input  logic [7:0]               s_axi_arlen_i,
  input  logic [2:0]               s_axi_arsize_i,
  input  logic                     s_axi_arvalid_i,
  output logic                     s_axi_arready_o,
  output logic [IdWidth-1:0]       s_axi_rid_o,
  output logic [DataWidth-1:0]     s_axi_rdata_o,
  output logic [1:0]               s_axi_rresp_o,
  output logic                     s_axi_rlast_o,
  output logic                     s_axi_rvalid_o,
  input  logic                     s_axi_rready_i,

  output logic [LiteAddrWidth-1:0] m_axil_awaddr_o,
  output logic                     m_axil_awvalid_o,
  input  logic                     m_axil_awready_i,
  output logic [31:0]              m_axil_wdata_o,
  output logic [3:0]               m_axil_wstrb_o,
  output logic                     m_axil_wvalid_o,
  input  logic                     m_axil_wready_i,
  input  logic [1:0]               m_axil_bresp_i,
  input  logic                     m_axil_bvalid_i,
  output logic                     m_axil_bready_o,
  output logic [LiteAddrWidth-1:0] m_axil_araddr_o,
  output logic                     m_axil_arvalid_o,
  input  logic                     m_axil_arready_i,
  input  logic [31:0]              m_axil_rdata_i,
  input  logic [1:0]               m_axil_rresp_i,
  input  logic                     m_axil_rvalid_i,
  output logic                     m_axil_rready_o
);
  localparam int unsigned Lanes = DataWidth / 32;
  localparam int unsigned LaneW = $clog2(Lanes);
  localparam int unsigned ByteW = $clog2(DataWidth / 8);

  typedef enum logic [2:0] {Idle, WData, WLane, WResp, BResp, RLane, RResp, RBeat} state_e;
  state_e st_q;
  logic is_wr_q, aw_done_q, w_done_q;
  logic [IdWidth-1:0] id_q;
  logic [AddrWidth-1:0] addr_q;
  logic [7:0] beats_left_q;
  logic [2:0] size_q;
  logic [1:0] resp_q;
  logic [DataWidth-1:0] data_q;
  logic [DataWidth/8-1:0] strb_q;
  logic [LaneW-1:0] lane_q, last_lane_q;

  // the next lane at or after lane_q with a strobe (writes)
  logic [LaneW-1:0] next_w_lane;
  logic next_w_found;
  always_comb begin
    next_w_lane = '0;
    next_w_found = 1'b0;
    for (int i = Lanes - 1; i >= 0; i--) begin
      if (LaneW'(i) >= lane_q && |strb_q[i*4 +: 4]) begin
        next_w_lane = LaneW'(i);
        next_w_found = 1'b1;
      end
    end
  end

  // lanes a read beat covers: from the address's lane, 2**size bytes (at least one lane)
  logic [LaneW-1:0] first_r_lane, last_r_lane;
  always_comb begin
    logic [ByteW:0] span;
    span = (ByteW + 1)'(1) << size_q;
    first_r_lane = addr_q[ByteW-1:2];
    last_r_lane = first_r_lane;
    if (span > (ByteW + 1)'(4)) last_r_lane = first_r_lane | LaneW'((span >> 2) - 1'b1);
  end

  logic [AddrWidth-1:0] lane_addr;
  assign lane_addr = {addr_q[AddrWidth-1:ByteW], lane_q, 2'b00};
  assign m_axil_awaddr_o = lane_addr[LiteAddrWidth-1:0];
  assign m_axil_araddr_o = lane_addr[LiteAddrWidth-1:0];
  assign m_axil_wdata_o = data_q[lane_q*32 +: 32];
  assign m_axil_wstrb_o = strb_q[lane_q*4 +: 4];
  assign m_axil_awvalid_o = st_q == WLane && !aw_done_q;
  assign m_axil_wvalid_o = st_q == WLane && !w_done_q;
  assign m_axil_bready_o = st_q == WResp;
  assign m_axil_arvalid_o = st_q == RLane;
  assign m_axil_rready_o = st_q == RResp;

  assign s_axi_awready_o = st_q == Idle;
  assign s_axi_arready_o = st_q == Idle && !s_axi_awvalid_i;  // writes first
  assign s_axi_wready_o = st_q == WData;
  assign s_axi_bvalid_o = st_q == BResp;
  assign s_axi_bid_o = id_q;
  assign s_axi_bresp_o = resp_q;
  assign s_axi_rvalid_o = st_q == RBeat;
  assign s_axi_rid_o = id_q;
  assign s_axi_rdata_o = data_q;
  assign s_axi_rresp_o = resp_q;
  assign s_axi_rlast_o = beats_left_q == 8'd0;

  function automatic logic [1:0] worst(input logic [1:0] a, input logic [1:0] b);
    worst = a > b ? a : b;  // OKAY < EXOKAY < SLVERR < DECERR
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= Idle;
      is_wr_q <= 1'b0;
      aw_done_q <= 1'b0;
      w_done_q <= 1'b0;
      id_q <= '0;
      addr_q <= '0;
      beats_left_q <= '0;
      size_q <= '0;
      resp_q <= '0;
      data_q <= '0;
      strb_q <= '0;
      lane_q <= '0;
      last_lane_q <= '0;
    end else begin
      unique case (st_q)
        Idle: begin
          resp_q <= 2'b00;
          if (s_axi_awvalid_i) begin
            is_wr_q <= 1'b1;
            id_q <= s_axi_awid_i;
            addr_q <= s_axi_awaddr_i;
            beats_left_q <= s_axi_awlen_i;
            size_q <= s_axi_awsize_i;
            st_q <= WData;
          end else if (s_axi_arvalid_i) begin
            is_wr_q <= 1'b0;
            id_q <= s_axi_arid_i;
            addr_q <= s_axi_araddr_i;
            beats_left_q <= s_axi_arlen_i;
            size_q <= s_axi_arsize_i;
            lane_q <= s_axi_araddr_i[ByteW-1:2];
            data_q <= '0;
            st_q <= RLane;
          end
        end
        WData: if (s_axi_wvalid_i) begin
          data_q <= s_axi_wdata_i;
          strb_q <= s_axi_wstrb_i;
          lane_q <= '0;
          st_q <= WLane;  // WLane first moves to the first strobed lane
          aw_done_q <= 1'b1;  // nothing issued yet: WLane starts by picking a lane
          w_done_q <= 1'b1;
        end
        WLane: begin
          if (aw_done_q && w_done_q) begin
            // pick the next strobed lane, or end the beat
            if (next_w_found) begin
              lane_q <= next_w_lane;
              aw_done_q <= 1'b0;
              w_done_q <= 1'b0;
            end else begin
              if (beats_left_q == 8'd0) st_q <= BResp;
              else begin
                beats_left_q <= beats_left_q - 1'b1;
                addr_q <= addr_q + (AddrWidth'(1) << size_q);
                st_q <= WData;
              end
            end
          end else begin
            if (m_axil_awvalid_o && m_axil_awready_i) aw_done_q <= 1'b1;
            if (m_axil_wvalid_o && m_axil_wready_i) w_done_q <= 1'b1;
            if ((aw_done_q || m_axil_awready_i) && (w_done_q || m_axil_wready_i)) st_q <= WResp;
          end
        end
        WResp: if (m_axil_bvalid_i) begin
          resp_q <= worst(resp_q, m_axil_bresp_i);
          strb_q[lane_q*4 +: 4] <= 4'h0;  // done: the next pick starts after it
          aw_done_q <= 1'b1;
          w_done_q <= 1'b1;
          st_q <= WLane;
        end
        BResp: if (s_axi_bready_i) st_q <= Idle;
        RLane: begin
          last_lane_q <= last_r_lane;
          if (m_axil_arready_i) st_q <= RResp;
        end
        RResp: if (m_axil_rvalid_i) begin
          data_q[lane_q*32 +: 32] <= m_axil_rdata_i;
          resp_q <= worst(resp_q, m_axil_rresp_i);
          if (lane_q == last_lane_q) st_q <= RBeat;
          else begin
            lane_q <= lane_q + 1'b1;
            st_q <= RLane;
          end
        end
        RBeat: if (s_axi_rready_i) begin
          if (beats_left_q == 8'd0) st_q <= Idle;
          else begin
            beats_left_q <= beats_left_q - 1'b1;
            addr_q <= addr_q + (AddrWidth'(1) << size_q);
            lane_q <= LaneW'((addr_q + (AddrWidth'(1) << size_q)) >> 2);
            resp_q <= 2'b00;
            data_q <= '0;
            st_q <= RLane;
          end
        end
        default: st_q <= Idle;
      endcase
    end
  end

  logic unused;
  assign unused = ^{s_axi_wlast_i, is_wr_q, lane_addr[AddrWidth-1:LiteAddrWidth]};
endmodule
