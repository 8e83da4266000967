// RoCEv2 transmit header builder: one packet descriptor in, the Ethernet+IPv4+UDP+BTH+
// extended-header bytes out (wire byte 0 in bits [7:0], zero beyond hdr_len_o), registered.
// IPv4: version 4/IHL 5, DF, identification from a per-packet counter, valid checksum.
// UDP: destination 4791, checksum 0. PadCnt from the payload length.
// For timing the IPv4 checksum field is left 0 here: csum_o is the one's-complement sum of
// every IPv4 header field but the total length, and the consumer (roce_tx, as it loads the
// header) adds the total length (bytes 16..17) and folds it (roce_pkg::csum_fold).
module roce_tx_hdr (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  input  logic                          desc_valid_i,
  output logic                          desc_ready_o,
  input  roce_pkg::roce_hdr_t           desc_i,
  output logic                          hdr_valid_o,
  input  logic                          hdr_ready_i,
  output logic [8*roce_pkg::HdrMaxBytes-1:0] hdr_o,
  output logic [6:0]                    hdr_len_o,
  output logic [15:0]                   pay_len_o,
  output logic [1:0]                    pad_o,
  output logic [19:0]                   csum_o
);
  localparam int HB = roce_pkg::HdrMaxBytes;

  logic          valid_q;
  logic [8*HB-1:0] hdr_q;
  logic [6:0]    len_q;
  logic [15:0]   pay_q;
  logic [1:0]    pad_q;
  logic [15:0]   ip_id_q;
  logic [19:0]   csum_q;

  // ip_id and pad_cnt are rx outputs only: the tx numbers packets and derives PadCnt itself.
  logic unused_desc;
  assign unused_desc = ^{desc_i.ip_id, desc_i.pad_cnt};

  assign desc_ready_o = !valid_q || hdr_ready_i;

  // Per opcode: the extension headers' length and the UDP / IPv4 lengths less the payload and
  // its pad ({el + 24, el + 44, el}), as a table over the opcode's 256 values (folded at
  // elaboration: a LUT function of the 8 bits). op_hdrs and ext_len's small adds ahead of the
  // length adds cost 9 LUT levels from the packet descriptor to the header register.
  function automatic logic [19:0] op_lens(input logic [7:0] op);
    logic [5:0] e;
    op_lens = '0;
    for (int v = 0; v < 256; v++) begin
      e = roce_pkg::ext_len(roce_pkg::op_hdrs(8'(v)));
      if (op == 8'(v)) op_lens = {7'd24 + {1'b0, e}, 7'd44 + {1'b0, e}, e};
    end
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= 1'b0;
      hdr_q   <= '0;
      len_q   <= '0;
      pay_q   <= '0;
      pad_q   <= '0;
      ip_id_q <= '0;
      csum_q  <= '0;
    end else begin
      if (hdr_ready_i) valid_q <= 1'b0;
      if (desc_valid_i && desc_ready_o) begin
        logic [6:0]   f;   // (bit 7, HfKnown, is not needed here)
        logic [5:0]   el;
        logic [1:0]   pad;
        logic [15:0]  udp_len;
        logic [15:0]  ip_len;
        logic [159:0] ip;
        logic [63:0]  udp;
        logic [95:0]  bth;
        logic [223:0] ext;
        logic [127:0] reth;
        logic [31:0]  imm;
        logic [31:0]  aeth;
        logic [63:0]  deth;
        logic [19:0] lens;
        logic [15:0] rnd;
        f    = 7'(roce_pkg::op_hdrs(desc_i.opcode));
        lens = op_lens(desc_i.opcode);
        el   = lens[5:0];
        pad  = 2'(-desc_i.payload_len[1:0]);
        // 8 (UDP) + 12 (BTH) + el + payload + pad + 4 (ICRC); the IPv4 length 20 more
        rnd  = {desc_i.payload_len[15:2] + {13'h0, desc_i.payload_len[1:0] != 2'b00}, 2'b00};
        udp_len = rnd + {9'h0, lens[19:13]};
        ip_len  = rnd + {9'h0, lens[12:6]};
        ip = {roce_pkg::be32(desc_i.dst_ip), roce_pkg::be32(desc_i.src_ip), 16'h0000, 8'h11,
              desc_i.ttl, roce_pkg::be16(16'h4000), roce_pkg::be16(ip_id_q),
              roce_pkg::be16(ip_len), desc_i.tos, 8'h45};
        udp = {16'h0000, roce_pkg::be16(udp_len), roce_pkg::be16(roce_pkg::RoceUdpPort),
               roce_pkg::be16(desc_i.udp_sport)};
        bth = {roce_pkg::be24(desc_i.psn), desc_i.ack_req, 7'h0, roce_pkg::be24(desc_i.dest_qp),
               desc_i.fecn, desc_i.becn, 6'h0, roce_pkg::be16(desc_i.pkey),
               desc_i.se, desc_i.mig, pad, 4'h0, desc_i.opcode};
        reth = {roce_pkg::be32(desc_i.dma_len), roce_pkg::be32(desc_i.rkey),
                roce_pkg::be64(desc_i.va)};
        imm  = roce_pkg::be32(desc_i.imm);
        aeth = roce_pkg::be32({desc_i.syndrome, desc_i.msn});
        deth = {roce_pkg::be32({8'h0, desc_i.src_qp}), roce_pkg::be32(desc_i.qkey)};
        case (f[6:0])
          7'b0010000: ext = {96'h0, reth};
          7'b0010001: ext = {64'h0, imm, reth};
          7'b0000001: ext = {192'h0, imm};
          7'b0000100: ext = {192'h0, aeth};
          7'b0000110: ext = {128'h0, roce_pkg::be64(desc_i.orig), aeth};
          7'b0001000: ext = {roce_pkg::be64(desc_i.compare), roce_pkg::be64(desc_i.swap_add),
                             roce_pkg::be32(desc_i.rkey), roce_pkg::be64(desc_i.va)};
          7'b0100000: ext = {160'h0, deth};
          7'b0100001: ext = {128'h0, imm, deth};
          default:    ext = '0;
        endcase
        hdr_q <= {ext, bth, udp, ip, roce_pkg::be16(16'h0800), roce_pkg::be48(desc_i.src_mac),
                  roce_pkg::be48(desc_i.dst_mac)};
        len_q   <= 7'd54 + {1'b0, el};
        pay_q   <= desc_i.payload_len;
        csum_q  <= roce_pkg::csum_sum({ip[159:32], 16'h0000, ip[15:0]});
        pad_q   <= pad;
        ip_id_q <= ip_id_q + 16'd1;
        valid_q <= 1'b1;
      end
    end
  end

  assign hdr_valid_o = valid_q;
  assign hdr_o = hdr_q;
  assign hdr_len_o = len_q;
  assign pay_len_o = pay_q;
  assign pad_o = pad_q;
  assign csum_o = csum_q;
endmodule
