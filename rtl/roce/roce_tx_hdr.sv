// RoCEv2 transmit header builder: one packet descriptor in, the Ethernet+IPv4+UDP+BTH+
// extended-header bytes out (wire byte 0 in bits [7:0], zero beyond hdr_len_o), registered.
// IPv4: version 4/IHL 5, DF, identification from a per-packet counter, valid checksum.
// UDP: destination 4791, checksum 0. PadCnt from the payload length. Two pipeline stages
// (one descriptor per cycle).
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
  output logic [1:0]                    pad_o
);
  localparam int HB = roce_pkg::HdrMaxBytes;

  // Two stages for timing: (a) opcode header set, lengths and the IPv4 checksum over every
  // field but the total length, registered with the descriptor; (b) checksum completed with
  // the length and the header bytes assembled.
  logic                valid_q, a_valid_q, a_adv;
  roce_pkg::roce_hdr_t a_desc_q;
  logic [6:0]          a_f_q;   // header set (bit 7, known opcode, is not used)
  logic [5:0]          a_el_q;
  logic [1:0]          a_pad_q;
  logic [15:0]         a_udp_len_q, a_ip_len_q, a_ip_id_q;
  logic [19:0]         a_csum_q;
  logic [8*HB-1:0]     hdr_q;
  logic [6:0]          len_q;
  logic [15:0]         pay_q;
  logic [1:0]          pad_q;
  logic [15:0]         ip_id_q;

  // ip_id and pad_cnt are rx outputs only: the tx numbers packets and derives PadCnt itself.
  logic unused_desc;
  assign unused_desc = ^{desc_i.ip_id, desc_i.pad_cnt, a_desc_q.ip_id, a_desc_q.pad_cnt};

  assign a_adv        = !valid_q || hdr_ready_i;
  assign desc_ready_o = !a_valid_q || a_adv;

  function automatic logic [159:0] ip_hdr(input logic [31:0] dst, input logic [31:0] src,
                                          input logic [7:0] ttl, input logic [7:0] tos,
                                          input logic [15:0] id, input logic [15:0] len);
    ip_hdr = {roce_pkg::be32(dst), roce_pkg::be32(src), 16'h0000, 8'h11, ttl,
              roce_pkg::be16(16'h4000), roce_pkg::be16(id), roce_pkg::be16(len), tos, 8'h45};
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a_valid_q   <= 1'b0;
      a_desc_q    <= '0;
      a_f_q       <= '0;
      a_el_q      <= '0;
      a_pad_q     <= '0;
      a_udp_len_q <= '0;
      a_ip_len_q  <= '0;
      a_ip_id_q   <= '0;
      a_csum_q    <= '0;
      ip_id_q     <= '0;
    end else begin
      if (a_adv) a_valid_q <= 1'b0;
      if (desc_valid_i && desc_ready_o) begin
        logic [7:0]  f;
        logic [5:0]  el;
        logic [1:0]  pad;
        logic [15:0] udp_len;
        f   = roce_pkg::op_hdrs(desc_i.opcode);
        el  = roce_pkg::ext_len(f);
        pad = 2'(-desc_i.payload_len[1:0]);
        udp_len = 16'd8 + 16'd12 + {10'h0, el} + desc_i.payload_len + {14'h0, pad} + 16'd4;
        a_valid_q   <= 1'b1;
        a_desc_q    <= desc_i;
        a_f_q       <= f[6:0];
        a_el_q      <= el;
        a_pad_q     <= pad;
        a_udp_len_q <= udp_len;
        a_ip_len_q  <= udp_len + 16'd20;
        a_ip_id_q   <= ip_id_q;
        a_csum_q    <= roce_pkg::csum_sum(ip_hdr(desc_i.dst_ip, desc_i.src_ip, desc_i.ttl,
                                                        desc_i.tos, ip_id_q, 16'h0));
        ip_id_q     <= ip_id_q + 16'd1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= 1'b0;
      hdr_q   <= '0;
      len_q   <= '0;
      pay_q   <= '0;
      pad_q   <= '0;
    end else begin
      if (hdr_ready_i) valid_q <= 1'b0;
      if (a_valid_q && a_adv) begin
        logic [159:0] ip;
        logic [63:0]  udp;
        logic [95:0]  bth;
        logic [223:0] ext;
        logic [127:0] reth;
        logic [31:0]  imm;
        logic [31:0]  aeth;
        logic [63:0]  deth;
        ip = ip_hdr(a_desc_q.dst_ip, a_desc_q.src_ip, a_desc_q.ttl, a_desc_q.tos, a_ip_id_q, a_ip_len_q);
        ip[95:80] = roce_pkg::be16(roce_pkg::csum_fold(a_csum_q + {4'h0, a_ip_len_q}));
        udp = {16'h0000, roce_pkg::be16(a_udp_len_q), roce_pkg::be16(roce_pkg::RoceUdpPort),
               roce_pkg::be16(a_desc_q.udp_sport)};
        bth = {roce_pkg::be24(a_desc_q.psn), a_desc_q.ack_req, 7'h0, roce_pkg::be24(a_desc_q.dest_qp),
               a_desc_q.fecn, a_desc_q.becn, 6'h0, roce_pkg::be16(a_desc_q.pkey),
               a_desc_q.se, a_desc_q.mig, a_pad_q, 4'h0, a_desc_q.opcode};
        reth = {roce_pkg::be32(a_desc_q.dma_len), roce_pkg::be32(a_desc_q.rkey), roce_pkg::be64(a_desc_q.va)};
        imm  = roce_pkg::be32(a_desc_q.imm);
        aeth = roce_pkg::be32({a_desc_q.syndrome, a_desc_q.msn});
        deth = {roce_pkg::be32({8'h0, a_desc_q.src_qp}), roce_pkg::be32(a_desc_q.qkey)};
        case (a_f_q)
          7'b0010000: ext = {96'h0, reth};
          7'b0010001: ext = {64'h0, imm, reth};
          7'b0000001: ext = {192'h0, imm};
          7'b0000100: ext = {192'h0, aeth};
          7'b0000110: ext = {128'h0, roce_pkg::be64(a_desc_q.orig), aeth};
          7'b0001000: ext = {roce_pkg::be64(a_desc_q.compare), roce_pkg::be64(a_desc_q.swap_add),
                             roce_pkg::be32(a_desc_q.rkey), roce_pkg::be64(a_desc_q.va)};
          7'b0100000: ext = {160'h0, deth};
          7'b0100001: ext = {128'h0, imm, deth};
          default:    ext = '0;
        endcase
        hdr_q <= {ext, bth, udp, ip, roce_pkg::be16(16'h0800), roce_pkg::be48(a_desc_q.src_mac),
                  roce_pkg::be48(a_desc_q.dst_mac)};
        len_q   <= 7'd54 + {1'b0, a_el_q};
        pay_q   <= a_desc_q.payload_len;
        pad_q   <= a_pad_q;
        valid_q <= 1'b1;
      end
    end
  end

  assign hdr_valid_o = valid_q;
  assign hdr_o = hdr_q;
  assign hdr_len_o = len_q;
  assign pay_len_o = pay_q;
  assign pad_o = pad_q;
endmodule
