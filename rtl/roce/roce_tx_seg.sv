// RoCEv2 message segmenter: one message descriptor (kind, total length, path MTU, header
// template whose psn is the starting PSN) in, FIRST/MIDDLE/LAST/ONLY packet descriptors out
// for roce_tx, one per cycle. Payload is split at the MTU (MTU is a multiple of the data
// width, so the message payload stream needs no realignment between packets). RETH (dma_len
// = total length) on the FIRST/ONLY of a WRITE, ImmDt/IETH and SE only on the LAST/ONLY,
// AckReq (template ack_req) on the LAST/ONLY, AETH on READ response FIRST/LAST/ONLY.
// READ requests consume ceil(len/MTU) PSNs. Single-packet kinds (READ request, ACK, atomics,
// UD sends, CNP) give one packet; UD sends carry the whole length as payload.
module roce_tx_seg (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 msg_valid_i,
  output logic                 msg_ready_o,
  input  roce_pkg::roce_hdr_t  msg_hdr_i,
  input  logic [3:0]           msg_kind_i,
  input  logic [31:0]          msg_len_i,
  input  logic                 msg_uc_i,
  input  logic [3:0]           msg_pmtu_log2_i,   // 8..12 (256..4096 bytes)
  // The message is a piece of a longer one (multi-packet kinds only): cont, its first packet
  // is not the message's FIRST (a MIDDLE or LAST, no RETH); more, its last packet is not the
  // message's LAST (a MIDDLE: no ImmDt, no SE, but AckReq, so the piece is acknowledged).
  input  logic                 msg_cont_i,
  input  logic                 msg_more_i,
  output logic                 pkt_valid_o,
  input  logic                 pkt_ready_i,
  output roce_pkg::roce_hdr_t  pkt_o,
  output logic [23:0]          next_psn_o
);
  logic                busy_q, first_q, pv_q, uc_q, more_q;
  roce_pkg::roce_hdr_t tmpl_q, pkt_q;
  logic [3:0]          kind_q, mlog_q;
  logic [31:0]         rem_q, len_q;
  logic [23:0]         psn_q, next_psn_q;
  // The MTU, "a multi-packet kind" and "the next packet is the message's last" (rem_q <= MTU)
  // kept in registers, set at intake and after each packet (a packet that is not the last
  // leaves rem_q - MTU, which fits into one more packet when rem_q <= 2 MTU): the packet's
  // opcode and header no longer wait for the PMTU shift and the length compare.
  logic [16:0]         mtu_q;
  logic                multi_q, last_q;

  assign msg_ready_o = !busy_q;
  logic multi_in;
  assign multi_in = msg_kind_i <= roce_pkg::KindWriteImm;
  // opcode, psn, dma_len and payload_len of the template are replaced per packet (the template's
  // dma_len is the whole message's length for a first piece with more: its RETH).
  logic unused_tmpl;
  assign unused_tmpl = ^{tmpl_q.opcode, tmpl_q.psn, tmpl_q.payload_len};

  function automatic logic [7:0] opc(input logic [3:0] kind, input logic f, input logic l,
                                     input logic uc);
    logic [7:0] o;
    logic [1:0] pos; // 0 first, 1 middle, 2 last, 3 only
    pos = (f && l) ? 2'd3 : f ? 2'd0 : l ? 2'd2 : 2'd1;
    // FIRST, MIDDLE, LAST are consecutive opcodes (pos 0, 1, 2), and READ RESPONSE ONLY follows
    // READ RESPONSE LAST (pos 3).
    case (kind)
      roce_pkg::KindSend:      o = (pos == 2'd3) ? rnic_spec_pkg::BTH_OPCODE_RC_SEND_ONLY :
                                   rnic_spec_pkg::BTH_OPCODE_RC_SEND_FIRST + {6'h0, pos};
      roce_pkg::KindSendImm:   o = (pos == 2'd3) ? rnic_spec_pkg::BTH_OPCODE_RC_SEND_ONLY_IMM :
                                   (pos == 2'd2) ? rnic_spec_pkg::BTH_OPCODE_RC_SEND_LAST_IMM :
                                   rnic_spec_pkg::BTH_OPCODE_RC_SEND_FIRST + {6'h0, pos};
      roce_pkg::KindSendInv:   o = (pos == 2'd3) ? rnic_spec_pkg::BTH_OPCODE_RC_SEND_ONLY_INV :
                                   (pos == 2'd2) ? rnic_spec_pkg::BTH_OPCODE_RC_SEND_LAST_INV :
                                   rnic_spec_pkg::BTH_OPCODE_RC_SEND_FIRST + {6'h0, pos};
      roce_pkg::KindWrite:     o = (pos == 2'd3) ? rnic_spec_pkg::BTH_OPCODE_RC_WRITE_ONLY :
                                   rnic_spec_pkg::BTH_OPCODE_RC_WRITE_FIRST + {6'h0, pos};
      roce_pkg::KindWriteImm:  o = (pos == 2'd3) ? rnic_spec_pkg::BTH_OPCODE_RC_WRITE_ONLY_IMM :
                                   (pos == 2'd2) ? rnic_spec_pkg::BTH_OPCODE_RC_WRITE_LAST_IMM :
                                   rnic_spec_pkg::BTH_OPCODE_RC_WRITE_FIRST + {6'h0, pos};
      roce_pkg::KindReadResp:  o = rnic_spec_pkg::BTH_OPCODE_RC_READ_RESP_FIRST + {6'h0, pos};
      roce_pkg::KindReadReq:   o = rnic_spec_pkg::BTH_OPCODE_RC_READ_REQ;
      roce_pkg::KindAck:       o = rnic_spec_pkg::BTH_OPCODE_RC_ACK;
      roce_pkg::KindAtomicAck: o = rnic_spec_pkg::BTH_OPCODE_RC_ATOMIC_ACK;
      roce_pkg::KindCmpSwap:   o = rnic_spec_pkg::BTH_OPCODE_RC_CMP_SWAP;
      roce_pkg::KindFetchAdd:  o = rnic_spec_pkg::BTH_OPCODE_RC_FETCH_ADD;
      roce_pkg::KindUdSend:    o = rnic_spec_pkg::BTH_OPCODE_UD_SEND_ONLY;
      roce_pkg::KindUdSendImm: o = rnic_spec_pkg::BTH_OPCODE_UD_SEND_ONLY_IMM;
      default:                 o = rnic_spec_pkg::BTH_OPCODE_CNP;
    endcase
    // UC: the RC operation under transport bits 001 (UC SEND FIRST is 0x20)
    if (uc && kind <= roce_pkg::KindWriteImm && kind != roce_pkg::KindSendInv) o = o | rnic_spec_pkg::BTH_OPCODE_UC_SEND_FIRST;
    opc = o;
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q     <= 1'b0;
      first_q    <= 1'b0;
      pv_q       <= 1'b0;
      uc_q       <= 1'b0;
      more_q     <= 1'b0;
      tmpl_q     <= '0;
      pkt_q      <= '0;
      kind_q     <= '0;
      mlog_q     <= '0;
      rem_q      <= '0;
      len_q      <= '0;
      psn_q      <= '0;
      next_psn_q <= '0;
      mtu_q      <= '0;
      multi_q    <= 1'b0;
      last_q     <= 1'b0;
    end else begin
      if (pkt_ready_i) pv_q <= 1'b0;
      if (busy_q && (!pv_q || pkt_ready_i)) begin
        logic [31:0] mtu;
        logic        multi, last;
        logic [31:0] plen;
        logic [7:0]  f;
        logic [roce_pkg::HdrBits-1:0] p;
        logic [7:0]  op;
        mtu   = 32'(mtu_q);
        multi = multi_q;
        last  = last_q;
        plen  = !multi ? ((kind_q == roce_pkg::KindUdSend || kind_q == roce_pkg::KindUdSendImm)
                          ? rem_q : 32'd0)
                       : (last ? rem_q : mtu);
        op = opc(kind_q, first_q, last && !more_q, uc_q);
        f  = roce_pkg::op_hdrs(op);
        // Field order of roce_pkg::roce_hdr_t (a vector: Yosys 0.23 does not support member
        // writes to a block-local struct variable).
        p = {tmpl_q.dst_mac, tmpl_q.src_mac, tmpl_q.src_ip, tmpl_q.dst_ip, tmpl_q.tos,
             tmpl_q.ttl, tmpl_q.ip_id, tmpl_q.udp_sport, op, tmpl_q.se && last && !more_q, tmpl_q.mig,
             tmpl_q.pad_cnt, tmpl_q.pkey, tmpl_q.fecn, tmpl_q.becn, tmpl_q.dest_qp,
             tmpl_q.ack_req && last, psn_q, tmpl_q.va, tmpl_q.rkey,
             f[roce_pkg::HfReth] ? (more_q ? tmpl_q.dma_len : len_q) : 32'd0, tmpl_q.syndrome, tmpl_q.msn,
             tmpl_q.swap_add, tmpl_q.compare, tmpl_q.orig, tmpl_q.imm, tmpl_q.qkey,
             tmpl_q.src_qp, plen[15:0]};
        pkt_q   <= p;
        pv_q    <= 1'b1;
        first_q <= 1'b0;
        rem_q   <= rem_q - plen;
        psn_q   <= psn_q + 24'd1;
        last_q  <= rem_q <= {mtu[30:0], 1'b0};  // (read only while busy: after the last, unused)
        if (last) begin
          busy_q <= 1'b0;
          if (kind_q == roce_pkg::KindReadReq) begin
            next_psn_q <= psn_q + ((len_q == 32'd0) ? 24'd1
                                   : 24'((len_q + mtu - 32'd1) >> mlog_q));
          end else begin
            next_psn_q <= psn_q + 24'd1;
          end
        end
      end
      if (msg_valid_i && msg_ready_o) begin
        busy_q  <= 1'b1;
        first_q <= !(msg_cont_i && multi_in);
        more_q  <= msg_more_i && multi_in;
        tmpl_q  <= msg_hdr_i;
        kind_q  <= msg_kind_i;
        uc_q    <= msg_uc_i;
        mlog_q  <= msg_pmtu_log2_i;
        mtu_q   <= 17'd1 << msg_pmtu_log2_i;
        multi_q <= multi_in || msg_kind_i == roce_pkg::KindReadResp;
        last_q  <= !(multi_in || msg_kind_i == roce_pkg::KindReadResp) ||
                   msg_len_i <= (32'd1 << msg_pmtu_log2_i);
        rem_q   <= msg_len_i;
        len_q   <= msg_len_i;
        psn_q   <= msg_hdr_i.psn;
      end
    end
  end

  assign pkt_valid_o = pv_q;
  assign pkt_o = pkt_q;
  assign next_psn_o = next_psn_q;
endmodule
