// RoCEv2 ICRC over a streaming Ethernet frame (IPv4, no VLAN), DataWidth bits per cycle,
// pipelined for timing. Covers frame bytes from offset 14 (IP header) on, with the IBTA masking
// of IPv4 TOS (15), TTL (22), header checksum (24, 25), UDP checksum (40, 41) and BTH byte 4
// (46) to 0xFF; the 8 bytes of 0xFF standing for the masked LRH are folded into the seed.
// Bytes are the lanes set in keep_i (packed from lane 0; only the last beat of a frame may be
// partial). Frames of fewer than 15 bytes give no meaningful ICRC (the receiver drops them as
// runts first).
//
// Stall-all pipeline: every register advances when en_i is high. A beat offered with valid_i
// while en_i is high is taken; side_i travels with it and leaves on side_o/valid_o/last_o
// Latency cycles (of en_i) later. crc_o (the ICRC R, wire bytes R[7:0] first) and
// residue_ok_o (the frame ended with its own correct ICRC) of a frame are registered: they
// hold from the first cycle after its last beat left the output with en_i high until the next
// frame's last beat leaves; done_o is high in that first cycle.
//
// Structure (one register between each):
//   a: lane masking (lanes beyond keep and frame bytes 0..13 zeroed, masked fields 0xFF),
//      z = number of empty lanes in the beat
//   b: F = CRC contribution of the masked beat from a zero state (flat XOR per bit)
//   c: state loop, the only feedback: S' = A^NB S ^ F (A^NB: NB zero bytes); a frame starts
//      from the seed run back over 14 zero bytes, so the zeroed bytes 0..13 cost nothing
//   r1..rK: the last beat's state was advanced over its z empty lanes as zero bytes; rewind
//      it by z (one or two bits of z per stage), then compare with the residue / invert.
// Every step is a constant GF(2) matrix built by elaboration-time functions, so each output
// bit is one balanced XOR of the input bits it depends on.
module roce_icrc #(
  parameter int DataWidth = 512,
  parameter int SideW = 1
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   en_i,
  input  logic                   valid_i,
  input  logic [DataWidth-1:0]   data_i,
  input  logic [DataWidth/8-1:0] keep_i,
  input  logic                   last_i,
  input  logic [SideW-1:0]       side_i,
  output logic                   valid_o,
  output logic                   last_o,
  output logic [SideW-1:0]       side_o,
  output logic [31:0]            crc_o,
  output logic                   residue_ok_o,
  output logic                   done_o
);
  localparam int NB = DataWidth / 8;
  localparam int LNB = $clog2(NB);
  localparam int RS = (LNB + 1) / 2;   // rewind stages, two bits of z each
  localparam int Latency = 3 + RS;     // side_i -> side_o
  localparam logic [31:0] P = roce_pkg::CrcPoly;
  localparam logic [31:0] SeedBack14 = 32'hAE0BACAE; // IcrcSeed run back over 14 zero bytes

  // ---- elaboration-time matrices (row i = the input bits that XOR into output bit i) -------
  /* verilator coverage_off */
  function automatic logic [31:0] adv_bits(input logic [31:0] c, input int n);
    logic [31:0] r;
    r = c;
    for (int i = 0; i < n; i++) r = (r >> 1) ^ (P & {32{r[0]}});
    adv_bits = r;
  endfunction

  function automatic logic [31:0] back_bits(input logic [31:0] c, input int n);
    logic [31:0] r;
    r = c;
    for (int i = 0; i < n; i++) r = ((r ^ (P & {32{r[31]}})) << 1) | {31'h0, r[31]};
    back_bits = r;
  endfunction

  // Data bit 8j+k of a beat, from a zero state: byte j, then NB-1-j zero bytes.
  function automatic logic [32*DataWidth-1:0] data_rows();
    logic [32*DataWidth-1:0] m;
    logic [255:0] c;   // column of bit k of the current byte at c[32k +: 32]
    c = '0;            // every bit of m is written below
    for (int j = NB - 1; j >= 0; j--) begin
      for (int k = 0; k < 8; k++) begin
        c[32*k +: 32] = (j == NB - 1) ? adv_bits(32'(1) << k, 8) : adv_bits(c[32*k +: 32], 8);
        for (int i = 0; i < 32; i++) m[i*DataWidth + 8*j + k] = c[32*k + i];
      end
    end
    data_rows = m;
  endfunction

  // State bit b after nbytes zero bytes (fwd = 1) or before them (fwd = 0).
  function automatic logic [1023:0] state_rows(input int nbytes, input bit fwd);
    logic [1023:0] m;
    logic [31:0] c;
    m = '0;
    for (int b = 0; b < 32; b++) begin
      c = fwd ? adv_bits(32'(1) << b, 8 * nbytes) : back_bits(32'(1) << b, 8 * nbytes);
      for (int i = 0; i < 32; i++) m[i*32 + b] = c[i];
    end
    state_rows = m;
  endfunction

  function automatic logic [LNB*1024-1:0] back_rows();
    logic [LNB*1024-1:0] m;
    for (int k = 0; k < LNB; k++) m[k*1024 +: 1024] = state_rows(1 << k, 1'b0);
    back_rows = m;
  endfunction

  // Lanes of the first SpecBeats beats that are zeroed (frame bytes 0..13) or set to 0xFF
  // (masked fields).
  localparam int SpecBeats = 46 / NB + 1;
  function automatic logic [SpecBeats*NB-1:0] spec_lanes(input bit ff);
    logic [SpecBeats*NB-1:0] m;
    for (int n = 0; n < SpecBeats * NB; n++) begin
      m[n] = ff ? (n == 15 || n == 22 || n == 24 || n == 25 || n == 40 || n == 41 || n == 46)
                : (n < 14);
    end
    spec_lanes = m;
  endfunction
  /* verilator coverage_on */

  localparam logic [32*DataWidth-1:0] DataRows = data_rows();
  localparam logic [1023:0] BeatRows = state_rows(NB, 1'b1);
  localparam logic [SpecBeats*NB-1:0] ZeroLanes = spec_lanes(1'b0);
  localparam logic [SpecBeats*NB-1:0] FfLanes = spec_lanes(1'b1);
  // Rewind matrices, 1024 bits per bit k of z: the state before 2^k zero bytes. Built here,
  // not by calls in the clocked process, which Verilator re-runs bit by bit on every cycle.
  localparam logic [LNB*1024-1:0] BackRows = back_rows();

  function automatic logic [31:0] mul32(input logic [1023:0] rows, input logic [31:0] s);
    logic [31:0] r;
    for (int i = 0; i < 32; i++) r[i] = ^(s & rows[i*32 +: 32]);
    mul32 = r;
  endfunction

  // ---- side band ------------------------------------------------------------------------------
  // The data rides in registers without reset (gated by the valid bits), so that synthesis can
  // pack the delay line into shift-register LUTs.
  logic [Latency-1:0] sv_q, sl_q;
  logic [SideW-1:0]   sd_q [Latency];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sv_q <= '0;
      sl_q <= '0;
    end else if (en_i) begin
      sv_q <= {sv_q[Latency-2:0], valid_i};
      sl_q <= {sl_q[Latency-2:0], last_i};
    end
  end

  // The data shifts only while a beat is in the line or entering it: the data of empty slots is
  // never read, and one enable for the whole line keeps it packable. Idle cycles then cost
  // nothing wide in simulation.
  logic sd_en;
  assign sd_en = en_i && (valid_i || sv_q != '0);

  always_ff @(posedge clk_i) begin
    if (sd_en) begin
      sd_q[0] <= side_i;
      for (int i = 1; i < Latency; i++) sd_q[i] <= sd_q[i-1];
    end
  end

  assign valid_o = sv_q[Latency-1];
  assign last_o  = sl_q[Latency-1];
  assign side_o  = sd_q[Latency-1];

  // ---- a: masking ----------------------------------------------------------------------------
  // Beats that hold frame bytes 0..46 are the only ones with special lanes; the beat count
  // saturates past them.
  localparam int BW = $clog2(SpecBeats + 1) + 1;
  logic [BW-1:0]        beat_q;
  logic                 a_v_q, a_last_q;
  logic [DataWidth-1:0] a_d_q;
  logic [LNB:0]         a_z_q;
  logic                 a_e_q;

  // LaneSel[b*NB +: NB]: the lanes whose index has bit b set
  localparam logic [LNB*NB-1:0] LaneSel = (LNB*NB)'(roce_pkg::lane_sel(NB, LNB));

  // Empty lanes of a packed keep: the top set lane, found as the one-hot edge, encoded by ORs.
  // Word-wide (the edge is k without the lanes whose next lane is set; bit b of the index is the
  // OR over the lanes with bit b set), so Verilator evaluates a few word operations per beat
  // instead of a loop per lane; the same gates.
  function automatic logic [LNB:0] empty_lanes(input logic [NB-1:0] k);
    logic [NB-1:0] e;
    logic [LNB:0]  top;
    e = k & ~(k >> 1);
    top = '0;
    for (int b = 0; b < LNB; b++) top[b] = |(e & LaneSel[b*NB +: NB]);
    // top = index of the highest set lane; NB - (top + 1) lanes are empty (none set: NB)
    empty_lanes = (k == '0) ? (LNB+1)'(NB) : (LNB+1)'(NB - 1) - top;
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      beat_q   <= '0;
      a_v_q    <= 1'b0;
      a_last_q <= 1'b0;
      a_d_q    <= '0;
      a_z_q    <= '0;
      a_e_q    <= 1'b0;
    end else if (en_i) begin
      a_v_q    <= valid_i;
      a_last_q <= last_i;
      if (valid_i) begin
        // A full beat past the special ones is taken as it is (what the lane loop gives it too):
        // under a stream Verilator copies the beat instead of running the loop per lane.
        if (keep_i == '1 && 32'(beat_q) >= SpecBeats) begin
          a_d_q <= data_i;
        end else begin
          logic [NB-1:0] zm, fm;
          zm = '0;
          fm = '0;
          for (int b = 0; b < SpecBeats; b++) begin
            if (32'(beat_q) == b) begin
              zm = ZeroLanes[b*NB +: NB];
              fm = FfLanes[b*NB +: NB];
            end
          end
          for (int j = 0; j < NB; j++) begin
            a_d_q[8*j +: 8] <= (!keep_i[j] || zm[j]) ? 8'h00 : fm[j] ? 8'hFF : data_i[8*j +: 8];
          end
        end
        a_z_q  <= empty_lanes(keep_i);
        a_e_q  <= keep_i == '0;
        if (last_i) beat_q <= '0;
        else if (32'(beat_q) < SpecBeats) beat_q <= beat_q + 1'b1;
      end
    end
  end

  // ---- b: data contribution ------------------------------------------------------------------
  logic         b_v_q, b_last_q, b_e_q;
  logic [31:0]  b_f_q;
  logic [LNB:0] b_z_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      b_v_q    <= 1'b0;
      b_last_q <= 1'b0;
      b_f_q    <= '0;
      b_z_q    <= '0;
      b_e_q    <= 1'b0;
    end else if (en_i) begin
      b_v_q    <= a_v_q;
      b_e_q    <= a_e_q;
      b_last_q <= a_last_q;
      b_z_q    <= a_z_q;
      // b_f_q is used only with b_v_q: the wide XOR runs only for a beat (no cost when idle)
      if (a_v_q) begin
        for (int i = 0; i < 32; i++) b_f_q[i] <= ^(a_d_q & DataRows[i*DataWidth +: DataWidth]);
      end
    end
  end

  // ---- c: state loop -------------------------------------------------------------------------
  logic [31:0]  state_q;
  logic [31:0]  r_q [RS+1];   // r_q[0]: end-of-frame state; r_q[s]: after rewind stage s
  logic [LNB:0] rz_q [RS+1];  // empty lanes of the last beat (< NB)
  logic [RS:0]  rv_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= SeedBack14;
      rv_q    <= '0;
      for (int s = 0; s <= RS; s++) begin
        r_q[s]  <= '0;
        rz_q[s] <= '0;
      end
    end else if (en_i) begin
      // r_q/rz_q of a stage are used only while its rv_q is set, so they load only then (idle
      // cycles evaluate nothing wide).
      rv_q[0] <= b_v_q && b_last_q;
      if (b_v_q) begin
        logic [31:0] nxt;
        nxt = mul32(BeatRows, state_q) ^ b_f_q;
        // An empty beat (no lanes) leaves the state as it is.
        if (b_last_q) begin
          r_q[0]  <= b_e_q ? state_q : nxt;
          rz_q[0] <= b_e_q ? '0 : b_z_q;
          state_q <= SeedBack14;
        end else if (!b_e_q) state_q <= nxt;
      end
      // rewind: stage s undoes bits 2(s-1) and 2(s-1)+1 of z (z = NB undoes the whole beat)
      for (int s = 1; s <= RS; s++) begin
        rv_q[s] <= rv_q[s-1];
        if (rv_q[s-1]) begin
          logic [31:0] r;
          r = r_q[s-1];
          if (rz_q[s-1][2*(s-1)]) r = mul32(BackRows[(2*(s-1))*1024 +: 1024], r);
          if (2*(s-1) + 1 < LNB && rz_q[s-1][(2*(s-1) + 1) % LNB])
            r = mul32(BackRows[((2*(s-1) + 1) % LNB)*1024 +: 1024], r);
          r_q[s]  <= r;
          rz_q[s] <= rz_q[s-1];
        end
      end
    end
  end

  // ---- result --------------------------------------------------------------------------------
  logic [31:0] crc_q;
  logic        ok_q, done_q;
  logic [31:0] fin;
  assign fin = r_q[RS];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      crc_q  <= '0;
      ok_q   <= 1'b0;
      done_q <= 1'b0;
    end else begin
      done_q <= en_i && rv_q[RS];
      if (en_i && rv_q[RS]) begin
        crc_q <= ~fin;
        ok_q  <= fin == roce_pkg::IcrcResidue;
      end
    end
  end

  assign crc_o = crc_q;
  assign residue_ok_o = ok_q;
  assign done_o = done_q;
endmodule
