// Independent C++ reference of the RoCEv2 (IPv4) packet format used by the roce testbench:
// ICRC, frame builder, receive parser/validator (same drop-reason priority as roce_rx) and the
// message segmenter (same rules as roce_tx_seg). Written from the wire-format reference.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace roce_ref {

struct Hdr {
  uint64_t dst_mac = 0, src_mac = 0;
  uint32_t src_ip = 0, dst_ip = 0;
  uint8_t tos = 0, ttl = 0;
  uint16_t ip_id = 0, udp_sport = 0;
  uint8_t opcode = 0;
  bool se = false, mig = false;
  uint8_t pad_cnt = 0;
  uint16_t pkey = 0;
  bool fecn = false, becn = false;
  uint32_t dest_qp = 0;
  bool ack_req = false;
  uint32_t psn = 0;
  uint64_t va = 0;
  uint32_t rkey = 0, dma_len = 0;
  uint8_t syndrome = 0;
  uint32_t msn = 0;
  uint64_t swap_add = 0, compare = 0, orig = 0;
  uint32_t imm = 0, qkey = 0, src_qp = 0;
  uint16_t payload_len = 0;
};
bool operator==(const Hdr& a, const Hdr& b);

// Header-set flags (same bit numbers as roce_pkg::Hf*).
enum { kHfImm = 0, kHfAtAck = 1, kHfAeth = 2, kHfAtomic = 3, kHfReth = 4, kHfDeth = 5,
       kHfCnp = 6, kHfKnown = 7 };
uint8_t op_hdrs(uint8_t opcode);
int ext_len(uint8_t flags);
bool op_has_payload(uint8_t opcode);
std::vector<uint8_t> known_opcodes();

// Drop reasons (same numbers as roce_pkg::Drop*), -1 = accepted. kDropNoBuf depends on timing
// (receiver in drop_when_full mode) and is never returned by parse().
enum { kDropOversize, kDropRunt, kDropEthertype, kDropIpHdr, kDropIpCsum, kDropProto, kDropLen,
       kDropUdpPort, kDropTver, kDropOpcode, kDropPkey, kDropQpn, kDropIcrc, kDropNoBuf, kNumDrop };
const char* drop_name(int reason);

uint32_t crc32_reg(uint32_t reg, const uint8_t* p, size_t n);  // reflected, no inversion
// ICRC R of a frame (Ethernet header first) over bytes [14, end).
uint32_t icrc(const std::vector<uint8_t>& frame, size_t end);
uint16_t ip_checksum(const uint8_t* ip20);

// Full frame without FCS: headers from h (h.ip_id used, h.pad_cnt ignored), payload, pad, ICRC.
std::vector<uint8_t> build(const Hdr& h, const std::vector<uint8_t>& payload);

struct Parsed {
  int reason = -1;
  Hdr h;
  std::vector<uint8_t> payload;
};
Parsed parse(const std::vector<uint8_t>& f, uint32_t qpn_lo, uint32_t qpn_hi, size_t max_frame);

// What the receiver reports for a frame built from descriptor d with identification ip_id.
Hdr expected_rx(const Hdr& d, uint16_t ip_id);

enum { kSend, kSendImm, kSendInv, kWrite, kWriteImm, kReadReq, kReadResp, kAck, kAtomicAck,
       kCmpSwap, kFetchAdd, kUdSend, kUdSendImm, kCnp };
struct Msg {
  Hdr tmpl;  // psn = first PSN
  int kind = kSend;
  uint32_t len = 0;
  bool uc = false;
  int pmtu_log2 = 12;
  // a piece of a longer SEND/WRITE (tx_flag CONT/MORE): cont, the first packet continues the
  // message (MIDDLE or LAST); more, the last packet is a MIDDLE (no ImmDt, no SE; AckReq kept)
  bool cont = false, more = false;
  uint32_t msg_len = 0;  // with more and not cont: the whole message's length (the RETH's)
};
std::vector<Hdr> segment(const Msg& m, uint32_t* next_psn);

}  // namespace roce_ref
