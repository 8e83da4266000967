// roce_pfc_gate: priority flow control (IEEE 802.1Qbb) at the MAC edge. pause_i[p] is the MAC's
// received-PFC status of priority p (all eight bits for a link-level 802.3x PAUSE); a frame of a
// paused priority does not start, a frame of another priority does. A frame whose first beat was
// offered is finished (AXI-Stream: valid is never withdrawn). The priority of a frame is the one
// roce_vlan_ins puts into its PCP: bits 7:5 of the IPv4 DSCP/ECN byte (frame byte 15), 0 for a
// frame that is not IPv4. Frames arrive untagged (the gate sits before roce_vlan_ins).
// One register stage (one cycle of latency); the decision follows pause_i one cycle late. At 64
// bits byte 15 is in the second beat: the first beat waits in the register until the second is
// offered at the input (looked at, not taken), so a frame's priority is known before anything of
// it leaves (one more cycle per frame at 64 bits).
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
  logic                 known_q, hold_q;
  logic [2:0]           prio_q;
  logic [DataWidth-1:0] o_data_q;
  logic [NB-1:0]        o_keep_q;

  // The decision is registered (hold_q: this frame may not start), so the stream's valid and
  // ready depend on registers only and the gate adds no logic levels to the ready chain behind
  // it; it follows pause_i one cycle late (4 ns, far below a PFC pause's reaction budget).
  logic load;
  assign load = s_tvalid_i && s_tready_o;

  // the frame's priority as known after this cycle
  logic       known_d;
  logic [2:0] prio_d;
  if (NB >= 16) begin : g_wide
    // bytes 12..15 are in the first beat
    always_comb begin
      known_d = known_q;
      prio_d  = prio_q;
      if (load && s_first_q) begin
        known_d = 1'b1;
        prio_d  = roce_pkg::frame_prio(s_tdata_i[8*12 +: 8], s_tdata_i[8*13 +: 8], s_tdata_i[8*15+5 +: 3]);
      end
    end
  end else begin : g_narrow
    // 64 bits: bytes 12..15 are bytes 4..7 of the second beat, seen at the input while the
    // first waits in the register (a frame of one beat, shorter than any Ethernet frame, is
    // taken as priority 0)
    always_comb begin
      known_d = known_q;
      prio_d  = prio_q;
      if (load && s_first_q) begin
        known_d = s_tlast_i;
        prio_d  = 3'd0;
      end else if (o_valid_q && o_first_q && !known_q && s_tvalid_i) begin
        known_d = 1'b1;
        prio_d  = roce_pkg::frame_prio(s_tdata_i[8*4 +: 8], s_tdata_i[8*5 +: 8], s_tdata_i[8*7+5 +: 3]);
      end
    end
  end

  // a first beat goes out once offered, or when its priority is known and was not paused
  logic go;
  assign go = !o_first_q || offered_q || !hold_q;
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
      known_q   <= 1'b0;
      hold_q    <= 1'b1;
      prio_q    <= 3'd0;
    end else begin
      if (m_tvalid_o && !m_tready_i) offered_q <= 1'b1;
      else if (m_tvalid_o && m_tready_i) offered_q <= 1'b0;
      if (load) begin
        o_valid_q <= 1'b1;
        o_first_q <= s_first_q;
        o_last_q  <= s_tlast_i;
        s_first_q <= s_tlast_i;
      end else if (m_tvalid_o && m_tready_i) begin
        o_valid_q <= 1'b0;
      end
      known_q <= known_d;
      prio_q  <= prio_d;
      hold_q  <= !known_d || pause_i[prio_d];
    end
  end

  // data only under the load enable (no reset: SRL/LUT friendly, nothing reads it while invalid)
  always_ff @(posedge clk_i) begin
    if (load) begin
      o_data_q <= s_tdata_i;
      o_keep_q <= s_tkeep_i;
    end
  end
endmodule
