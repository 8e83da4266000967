// RoCEv2 packetizer/parser shared definitions: the per-packet header record, opcode header
// sets, drop reasons, message kinds, CRC constants and the IPv4 checksum.
package roce_pkg;

  // One packet's header fields (tx descriptor and rx parsed output). Fields of extended
  // headers the opcode does not carry are ignored on tx and returned as zero on rx.
  typedef struct packed {
    logic [47:0] dst_mac;
    logic [47:0] src_mac;
    logic [31:0] src_ip;
    logic [31:0] dst_ip;
    logic [7:0]  tos;
    logic [7:0]  ttl;
    logic [15:0] ip_id;        // rx: received; tx: ignored (the tx numbers packets itself)
    logic [15:0] udp_sport;
    logic [7:0]  opcode;
    logic        se;
    logic        mig;
    logic [1:0]  pad_cnt;      // rx: received; tx: ignored (computed from payload_len)
    logic [15:0] pkey;
    logic        fecn;
    logic        becn;
    logic [23:0] dest_qp;
    logic        ack_req;
    logic [23:0] psn;
    logic [63:0] va;           // RETH or AtomicETH virtual address
    logic [31:0] rkey;         // RETH or AtomicETH R_Key
    logic [31:0] dma_len;      // RETH DMA length
    logic [7:0]  syndrome;     // AETH
    logic [23:0] msn;          // AETH
    logic [63:0] swap_add;     // AtomicETH
    logic [63:0] compare;      // AtomicETH
    logic [63:0] orig;         // AtomicAckETH
    logic [31:0] imm;          // ImmDt, or IETH R_Key for SEND with Invalidate
    logic [31:0] qkey;         // DETH
    logic [23:0] src_qp;       // DETH
    logic [15:0] payload_len;  // payload bytes (without pad)
  } roce_hdr_t;

  localparam int HdrBits = 743;      // $bits(roce_hdr_t), spelled out for Yosys 0.23
  localparam int HdrMaxBytes = 82;  // Eth 14 + IPv4 20 + UDP 8 + BTH 12 + AtomicETH 28
  localparam int BaseHdrBytes = 54; // up to and including the BTH
  localparam logic [15:0] RoceUdpPort = 16'd4791;

  // Header-set flags of an opcode.
  localparam int HfImm = 0;      // ImmDt or IETH (4)
  localparam int HfAtAck = 1;    // AtomicAckETH (8)
  localparam int HfAeth = 2;     // AETH (4)
  localparam int HfAtomic = 3;   // AtomicETH (28)
  localparam int HfReth = 4;     // RETH (16)
  localparam int HfDeth = 5;     // DETH (8)
  localparam int HfCnp = 6;      // CNP reserved area (16)
  localparam int HfKnown = 7;    // opcode supported

  // Drop reasons (index into the rx drop-counter vector), checked in this priority order.
  localparam int DropOversize = 0;
  localparam int DropRunt = 1;
  localparam int DropEthertype = 2;
  localparam int DropIpHdr = 3;
  localparam int DropIpCsum = 4;
  localparam int DropProto = 5;
  localparam int DropLen = 6;
  localparam int DropUdpPort = 7;
  localparam int DropTver = 8;
  localparam int DropOpcode = 9;
  localparam int DropPkey = 10;
  localparam int DropQpn = 11;
  localparam int DropIcrc = 12;
  localparam int DropNoBuf = 13;  // good frame, no room (only with drop_when_full_i)
  localparam int NumDrop = 14;

  // Message kinds of the segmenter (roce_tx_seg).
  localparam logic [3:0] KindSend = 4'd0;
  localparam logic [3:0] KindSendImm = 4'd1;
  localparam logic [3:0] KindSendInv = 4'd2;
  localparam logic [3:0] KindWrite = 4'd3;
  localparam logic [3:0] KindWriteImm = 4'd4;
  localparam logic [3:0] KindReadReq = 4'd5;
  localparam logic [3:0] KindReadResp = 4'd6;
  localparam logic [3:0] KindAck = 4'd7;
  localparam logic [3:0] KindAtomicAck = 4'd8;
  localparam logic [3:0] KindCmpSwap = 4'd9;
  localparam logic [3:0] KindFetchAdd = 4'd10;
  localparam logic [3:0] KindUdSend = 4'd11;
  localparam logic [3:0] KindUdSendImm = 4'd12;
  localparam logic [3:0] KindCnp = 4'd13;

  localparam logic [31:0] CrcPoly = 32'hEDB88320;  // reflected CRC-32
  localparam logic [31:0] IcrcSeed = 32'hDEBB20E3; // state after 8 bytes 0xFF from ~0
  localparam logic [31:0] IcrcResidue = 32'hDEBB20E3; // state after data + its ICRC

  function automatic logic [7:0] op_hdrs(input logic [7:0] op);
    logic [7:0] f;
    case (op)
      rnic_spec_pkg::BTH_OPCODE_RC_SEND_FIRST, rnic_spec_pkg::BTH_OPCODE_RC_SEND_MIDDLE,
      rnic_spec_pkg::BTH_OPCODE_RC_SEND_LAST, rnic_spec_pkg::BTH_OPCODE_RC_SEND_ONLY,
      rnic_spec_pkg::BTH_OPCODE_RC_WRITE_MIDDLE, rnic_spec_pkg::BTH_OPCODE_RC_WRITE_LAST,
      rnic_spec_pkg::BTH_OPCODE_RC_READ_RESP_MIDDLE,
      rnic_spec_pkg::BTH_OPCODE_UC_SEND_FIRST, rnic_spec_pkg::BTH_OPCODE_UC_SEND_MIDDLE,
      rnic_spec_pkg::BTH_OPCODE_UC_SEND_LAST, rnic_spec_pkg::BTH_OPCODE_UC_SEND_ONLY,
      rnic_spec_pkg::BTH_OPCODE_UC_WRITE_MIDDLE, rnic_spec_pkg::BTH_OPCODE_UC_WRITE_LAST: f = 8'h80;
      rnic_spec_pkg::BTH_OPCODE_RC_SEND_LAST_IMM, rnic_spec_pkg::BTH_OPCODE_RC_SEND_ONLY_IMM,
      rnic_spec_pkg::BTH_OPCODE_RC_WRITE_LAST_IMM, rnic_spec_pkg::BTH_OPCODE_RC_SEND_LAST_INV,
      rnic_spec_pkg::BTH_OPCODE_RC_SEND_ONLY_INV,
      rnic_spec_pkg::BTH_OPCODE_UC_SEND_LAST_IMM, rnic_spec_pkg::BTH_OPCODE_UC_SEND_ONLY_IMM,
      rnic_spec_pkg::BTH_OPCODE_UC_WRITE_LAST_IMM: f = 8'h81;
      rnic_spec_pkg::BTH_OPCODE_RC_WRITE_FIRST, rnic_spec_pkg::BTH_OPCODE_RC_WRITE_ONLY,
      rnic_spec_pkg::BTH_OPCODE_RC_READ_REQ,
      rnic_spec_pkg::BTH_OPCODE_UC_WRITE_FIRST, rnic_spec_pkg::BTH_OPCODE_UC_WRITE_ONLY: f = 8'h90;
      rnic_spec_pkg::BTH_OPCODE_RC_WRITE_ONLY_IMM, rnic_spec_pkg::BTH_OPCODE_UC_WRITE_ONLY_IMM: f = 8'h91;
      rnic_spec_pkg::BTH_OPCODE_RC_READ_RESP_FIRST, rnic_spec_pkg::BTH_OPCODE_RC_READ_RESP_LAST,
      rnic_spec_pkg::BTH_OPCODE_RC_READ_RESP_ONLY, rnic_spec_pkg::BTH_OPCODE_RC_ACK: f = 8'h84;
      rnic_spec_pkg::BTH_OPCODE_RC_ATOMIC_ACK: f = 8'h86;
      rnic_spec_pkg::BTH_OPCODE_RC_CMP_SWAP, rnic_spec_pkg::BTH_OPCODE_RC_FETCH_ADD: f = 8'h88;
      rnic_spec_pkg::BTH_OPCODE_UD_SEND_ONLY: f = 8'hA0;
      rnic_spec_pkg::BTH_OPCODE_UD_SEND_ONLY_IMM: f = 8'hA1;
      rnic_spec_pkg::BTH_OPCODE_CNP: f = 8'hC0;
      default: f = 8'h00;
    endcase
    op_hdrs = f;
  endfunction

  function automatic logic [5:0] ext_len(input logic [7:0] f);
    ext_len = (f[HfImm] ? 6'd4 : 6'd0) + (f[HfAtAck] ? 6'd8 : 6'd0) + (f[HfAeth] ? 6'd4 : 6'd0)
            + (f[HfAtomic] ? 6'd28 : 6'd0) + (f[HfReth] ? 6'd16 : 6'd0)
            + (f[HfDeth] ? 6'd8 : 6'd0) + (f[HfCnp] ? 6'd16 : 6'd0);
  endfunction

  // The 802.1p priority of an untagged frame, from its EtherType bytes (12, 13) and the top three
  // bits of its DSCP/ECN byte (15): the DSCP class of an IPv4 frame, else 0. roce_vlan_ins puts
  // it into the PCP, roce_pfc_gate pauses by it.
  function automatic logic [2:0] frame_prio(input logic [7:0] et_hi, input logic [7:0] et_lo,
                                           input logic [2:0] cls);
    frame_prio = (et_hi == 8'h08 && et_lo == 8'h00) ? cls : 3'd0;
  endfunction

  // Big-endian fields as byte vectors with wire byte 0 in bits [7:0].
  function automatic logic [15:0] be16(input logic [15:0] x);
    be16 = {x[7:0], x[15:8]};
  endfunction
  function automatic logic [23:0] be24(input logic [23:0] x);
    be24 = {x[7:0], x[15:8], x[23:16]};
  endfunction
  function automatic logic [31:0] be32(input logic [31:0] x);
    be32 = {x[7:0], x[15:8], x[23:16], x[31:24]};
  endfunction
  function automatic logic [47:0] be48(input logic [47:0] x);
    be48 = {be16(x[15:0]), be32(x[47:16])};
  endfunction
  function automatic logic [63:0] be64(input logic [63:0] x);
    be64 = {be32(x[31:0]), be32(x[63:32])};
  endfunction

  // IPv4 header checksum (one's complement) of the 20 bytes (wire byte 0 in [7:0]); with
  // the checksum field included a valid header yields 0. Summed as a balanced tree (depth: four
  // adders plus two end-around folds instead of ten chained adders).
  // The words are swapped into one local vector rather than taken by a helper per word: each
  // inlined call of such a helper costs a zeroed copy of the 160-bit header in simulation.
  function automatic logic [19:0] csum_sum(input logic [159:0] h);
    logic [159:0] w;   // w[16*i +: 16]: big-endian word i
    logic [16:0] a0, a1, a2, a3, a4;
    logic [18:0] c;
    for (int i = 0; i < 10; i++) w[16*i +: 16] = {h[16*i +: 8], h[16*i+8 +: 8]};
    a0 = {1'b0, w[0 +: 16]} + {1'b0, w[16 +: 16]};
    a1 = {1'b0, w[32 +: 16]} + {1'b0, w[48 +: 16]};
    a2 = {1'b0, w[64 +: 16]} + {1'b0, w[80 +: 16]};
    a3 = {1'b0, w[96 +: 16]} + {1'b0, w[112 +: 16]};
    a4 = {1'b0, w[128 +: 16]} + {1'b0, w[144 +: 16]};
    c  = ({2'b0, a0} + {2'b0, a1}) + ({2'b0, a2} + {2'b0, a3});
    csum_sum = {1'b0, c} + {3'b0, a4};
  endfunction

  // One's-complement fold of a partial sum (at most 20 bits) to the final checksum.
  function automatic logic [15:0] csum_fold(input logic [19:0] s);
    logic [16:0] t;
    logic [15:0] u;
    t = {1'b0, s[15:0]} + {13'h0, s[19:16]};
    u = t[15:0] + {15'h0, t[16]};
    csum_fold = ~u;
  endfunction

  function automatic logic [15:0] ip_csum(input logic [159:0] h);
    ip_csum = csum_fold(csum_sum(h));
  endfunction


  // Lane index bits of an nb-lane beat (nb * lnb <= 1024): bit b * nb + j is set when lane j's
  // index has bit b set. A constant function for the modules' localparams (roce_icrc, roce_rx:
  // the top set lane of a packed keep, encoded by one OR per index bit).
  function automatic logic [1023:0] lane_sel(input int nb, input int lnb);
    logic [1023:0] m;
    m = '0;
    for (int b = 0; b < lnb; b++)
      for (int j = 0; j < nb; j++) m[b*nb + j] = ((j >> b) & 1) != 0;
    lane_sel = m;
  endfunction
endpackage
