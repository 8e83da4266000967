// roce_pfc_gate: priority flow control (IEEE 802.1Qbb) at the MAC edge. pause_i[p] is the MAC's
// received-PFC status of priority p (all eight bits for a link-level 802.3x PAUSE); a frame of a
// paused priority does not start, a frame of another priority does. A frame whose first beat was
// offered is finished (AXI-Stream: valid is never withdrawn). The priority of a frame is the one
// roce_vlan_ins puts into its PCP: bits 7:5 of the IPv4 DSCP/ECN byte (frame byte 15), 0 for a
// frame that is not IPv4. Frames arrive untagged (the gate sits before roce_vlan_ins).
// One register stage (one cycle of latency). At 64 bits byte 15 is in the second beat: the first
// beat waits in the register until the second is offered at the input (it is looked at, not
// taken), so a frame's priority is known before anything of it leaves.
module roce_pfc_gate #(
  parameter int DataWidth = 512
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic [7:0]             pause_i,
  input  logic [DataWidth-1:0]   s_tdata_i,
  input  logic [DataWidth/8-1:0] s_tkeep_i,
  input  logic                   s_tlast_i,
  input  logic                   s_tvalid_i,
  output logic                   s_tready_o,
  output logic [DataWidth-1:0]   m_tdata_o,
  output logic [DataWidth/8-1:0] m_tkeep_o,
  output logic                   m_tlast_o,
  output logic                   m_tvalid_o,
  input  logic                   m_tready_i
);
  localparam int NB = DataWidth / 8;

  logic                 o_valid_q, o_first_q, o_last_q, offered_q, s_first_q;
  logic [DataWidth-1:0] o_data_q;
  logic [NB-1:0]        o_keep_q;

  // bytes 12, 13 (EtherType) and 15 (DSCP/ECN) of the frame whose first beat is in the output
  // register
  logic [7:0] et_hi, et_lo;
  logic [2:0] cls;      // DSCP class selector
  logic       b_known;
  if (NB >= 16) begin : g_wide
    assign et_hi   = o_data_q[8*12 +: 8];
    assign et_lo   = o_data_q[8*13 +: 8];
    assign cls     = o_data_q[8*15+5 +: 3];
    assign b_known = 1'b1;
  end else begin : g_narrow
    // 64 bits: bytes 12..15 are bytes 4..7 of the second beat, waiting at the input (a frame of
    // one beat, shorter than any Ethernet frame, is taken as priority 0 rather than waiting)
    assign et_hi   = o_last_q ? 8'h00 : s_tdata_i[8*4 +: 8];
    assign et_lo   = s_tdata_i[8*5 +: 8];
    assign cls     = s_tdata_i[8*7+5 +: 3];
    assign b_known = s_tvalid_i || o_last_q;
  end
  logic [2:0] prio;
  assign prio = (et_hi == 8'h08 && et_lo == 8'h00) ? cls : 3'd0;

  // a first beat goes out once offered, or when its priority is known and not paused
  logic go;
  assign go = !o_first_q || offered_q || (b_known && !pause_i[prio]);
  assign m_tvalid_o = o_valid_q && go;
  assign m_tdata_o  = o_data_q;
  assign m_tkeep_o  = o_keep_q;
  assign m_tlast_o  = o_last_q;
  assign s_tready_o = !o_valid_q || (m_tvalid_o && m_tready_i);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      o_valid_q <= 1'b0;
      o_first_q <= 1'b0;
      o_last_q  <= 1'b0;
      offered_q <= 1'b0;
      s_first_q <= 1'b1;
    end else begin
      if (m_tvalid_o && !m_tready_i) offered_q <= 1'b1;
      else if (m_tvalid_o && m_tready_i) offered_q <= 1'b0;
      if (s_tvalid_i && s_tready_o) begin
        o_valid_q <= 1'b1;
        o_first_q <= s_first_q;
        o_last_q  <= s_tlast_i;
        s_first_q <= s_tlast_i;
      end else if (m_tvalid_o && m_tready_i) begin
        o_valid_q <= 1'b0;
      end
    end
  end

  // data only under the load enable (no reset: SRL/LUT friendly, nothing reads it while invalid)
  always_ff @(posedge clk_i) begin
    if (s_tvalid_i && s_tready_o) begin
      o_data_q <= s_tdata_i;
      o_keep_q <= s_tkeep_i;
    end
  end
endmodule
