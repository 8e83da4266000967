// RoCEv2 ICRC over a streaming Ethernet frame (IPv4, no VLAN), DataWidth bits per cycle.
// Covers frame bytes from offset 14 (IP header) on, with the IBTA masking of IPv4 TOS (15),
// TTL (22), header checksum (24, 25), UDP checksum (40, 41) and BTH byte 4 (46) to 0xFF; the
// 8 bytes of 0xFF standing for the masked LRH are folded into the seed. Bytes are the lanes
// set in keep_i (packed from lane 0). crc_o is the ICRC (R, wire bytes R[7:0] first) of everything fed, including
// the last beat; residue_ok_o says the fed stream ended with its own correct ICRC. Both are
// registered and hold from the cycle after the last beat until the next last beat.
module roce_icrc #(
  parameter int DataWidth = 512
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   valid_i,
  input  logic [DataWidth-1:0]   data_i,
  input  logic [DataWidth/8-1:0] keep_i,
  input  logic                   last_i,
  output logic [31:0]            crc_o,
  output logic                   residue_ok_o,
  output logic                   done_o
);
  localparam int NB = DataWidth / 8;

  logic [31:0] state_q;
  logic [15:0] beat_q;
  logic [31:0] crc_q;
  logic        ok_q;
  logic        done_q;

  // One beat is folded in as a fixed-length, full-width CRC so that the logic is a flat XOR
  // network: the covered bytes (lanes [lo, cnt), lo > 0 only in the beats holding frame bytes
  // 0..13, cnt = valid lanes) are masked, right-justified so that the last one sits in the top
  // lane, and the leading zero lanes are compensated by first running the state backwards by
  // that many zero bytes (log2 stages of constant matrices).
  localparam logic [31:0] P = roce_pkg::CrcPoly;

  function automatic logic [31:0] crc_fwd(input logic [31:0] c, input logic [DataWidth-1:0] d);
    logic [31:0] r;
    r = c;
    for (int j = 0; j < NB; j++) begin
      r = r ^ {24'h0, d[8*j +: 8]};
      for (int i = 0; i < 8; i++) r = (r >> 1) ^ (P & {32{r[0]}});
    end
    crc_fwd = r;
  endfunction

  // Inverse of feeding 2**s zero bytes.
  function automatic logic [31:0] crc_back(input logic [31:0] c, input int s);
    logic [31:0] r;
    r = c;
    for (int i = 0; i < (8 << s); i++) r = ((r ^ (P & {32{r[31]}})) << 1) | {31'h0, r[31]};
    crc_back = r;
  endfunction

  function automatic logic [31:0] crc_beat(input logic [31:0] c, input logic [DataWidth-1:0] d,
                                           input logic [NB-1:0] k, input logic [15:0] beat);
    logic [DataWidth-1:0] dm;
    logic [31:0] n, lo, cnt, z;
    logic [31:0] r;
    n = {16'h0, beat} * NB;
    lo = (n < 32'd14) ? 32'd14 - n : 32'd0;
    cnt = 32'd0;
    for (int j = 0; j < NB; j++) cnt = cnt + {31'h0, k[j]};
    if (cnt <= lo) begin
      crc_beat = c;   // nothing covered in this beat
    end else begin
      for (int j = 0; j < NB; j++) begin
        n = {16'h0, beat} * NB + j;
        dm[8*j +: 8] = d[8*j +: 8];
        if (n == 32'd15 || n == 32'd22 || n == 32'd24 || n == 32'd25 || n == 32'd40 ||
            n == 32'd41 || n == 32'd46) begin
          dm[8*j +: 8] = 8'hFF;
        end
        if (j < lo || j >= cnt) dm[8*j +: 8] = 8'h00;
      end
      dm = dm << (8 * (NB - cnt));
      z = NB - cnt + lo;
      r = c;
      for (int s = 0; s < 7; s++) begin
        if (z[s]) r = crc_back(r, s);
      end
      crc_beat = crc_fwd(r, dm);
    end
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= roce_pkg::IcrcSeed;
      beat_q  <= '0;
      crc_q   <= '0;
      ok_q    <= 1'b0;
      done_q  <= 1'b0;
    end else begin
      done_q <= 1'b0;
      if (valid_i) begin
        logic [31:0] nxt;
        nxt = crc_beat(state_q, data_i, keep_i, beat_q);
        if (last_i) begin
          state_q <= roce_pkg::IcrcSeed;
          beat_q  <= '0;
          crc_q   <= ~nxt;
          ok_q    <= (nxt == roce_pkg::IcrcResidue);
          done_q  <= 1'b1;
        end else begin
          state_q <= nxt;
          beat_q  <= beat_q + 16'd1;
        end
      end
    end
  end

  assign crc_o = crc_q;
  assign residue_ok_o = ok_q;
  assign done_o = done_q;
endmodule
