// Independent C++ reference of the RoCEv2 packet format (see roce_ref.h).
#include "roce_ref.h"

namespace roce_ref {

bool operator==(const Hdr& a, const Hdr& b) {
  return a.dst_mac == b.dst_mac && a.src_mac == b.src_mac && a.src_ip == b.src_ip &&
         a.dst_ip == b.dst_ip && a.tos == b.tos && a.ttl == b.ttl && a.ip_id == b.ip_id &&
         a.udp_sport == b.udp_sport && a.opcode == b.opcode && a.se == b.se && a.mig == b.mig &&
         a.pad_cnt == b.pad_cnt && a.pkey == b.pkey && a.fecn == b.fecn && a.becn == b.becn &&
         a.dest_qp == b.dest_qp && a.ack_req == b.ack_req && a.psn == b.psn && a.va == b.va &&
         a.rkey == b.rkey && a.dma_len == b.dma_len && a.syndrome == b.syndrome &&
         a.msn == b.msn && a.swap_add == b.swap_add && a.compare == b.compare &&
         a.orig == b.orig && a.imm == b.imm && a.qkey == b.qkey && a.src_qp == b.src_qp &&
         a.payload_len == b.payload_len;
}

uint8_t op_hdrs(uint8_t op) {
  const uint8_t K = 1u << kHfKnown;
  switch (op) {
    case 0x00: case 0x01: case 0x02: case 0x04: case 0x07: case 0x08: case 0x0E:
    case 0x20: case 0x21: case 0x22: case 0x24: case 0x27: case 0x28: return K;
    case 0x03: case 0x05: case 0x09: case 0x16: case 0x17:
    case 0x23: case 0x25: case 0x29: return K | 1u << kHfImm;
    case 0x06: case 0x0A: case 0x0C: case 0x26: case 0x2A: return K | 1u << kHfReth;
    case 0x0B: case 0x2B: return K | 1u << kHfReth | 1u << kHfImm;
    case 0x0D: case 0x0F: case 0x10: case 0x11: return K | 1u << kHfAeth;
    case 0x12: return K | 1u << kHfAeth | 1u << kHfAtAck;
    case 0x13: case 0x14: return K | 1u << kHfAtomic;
    case 0x64: return K | 1u << kHfDeth;
    case 0x65: return K | 1u << kHfDeth | 1u << kHfImm;
    case 0x81: return K | 1u << kHfCnp;
    default: return 0;
  }
}

int ext_len(uint8_t f) {
  return (f >> kHfImm & 1) * 4 + (f >> kHfAtAck & 1) * 8 + (f >> kHfAeth & 1) * 4 +
         (f >> kHfAtomic & 1) * 28 + (f >> kHfReth & 1) * 16 + (f >> kHfDeth & 1) * 8 +
         (f >> kHfCnp & 1) * 16;
}

bool op_has_payload(uint8_t op) {
  switch (op) {
    case 0x0C: case 0x11: case 0x12: case 0x13: case 0x14: case 0x81: return false;
    default: return true;
  }
}

std::vector<uint8_t> known_opcodes() {
  std::vector<uint8_t> v;
  for (int op = 0; op < 256; op++)
    if (op_hdrs(static_cast<uint8_t>(op))) v.push_back(static_cast<uint8_t>(op));
  return v;
}

const char* drop_name(int r) {
  static const char* n[] = {"oversize", "runt", "ethertype", "ip_hdr", "ip_csum", "proto", "len",
                            "udp_port", "tver", "opcode", "pkey", "qpn", "icrc", "nobuf"};
  return (r >= 0 && r < kNumDrop) ? n[r] : "good";
}

uint32_t crc32_reg(uint32_t c, const uint8_t* p, size_t n) {
  for (size_t i = 0; i < n; i++) {
    c ^= p[i];
    for (int b = 0; b < 8; b++) c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
  }
  return c;
}

static uint32_t icrc_reg(const std::vector<uint8_t>& f, size_t end) {
  static const uint8_t ff[8] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
  uint32_t c = crc32_reg(0xFFFFFFFFu, ff, 8);
  for (size_t i = 14; i < end && i < f.size(); i++) {
    uint8_t b = f[i];
    if (i == 15 || i == 22 || i == 24 || i == 25 || i == 40 || i == 41 || i == 46) b = 0xff;
    c = crc32_reg(c, &b, 1);
  }
  return c;
}

uint32_t icrc(const std::vector<uint8_t>& f, size_t end) { return ~icrc_reg(f, end); }

uint16_t ip_checksum(const uint8_t* p) {
  uint32_t s = 0;
  for (int i = 0; i < 20; i += 2) s += static_cast<uint32_t>(p[i] << 8 | p[i + 1]);
  while (s >> 16) s = (s & 0xffff) + (s >> 16);
  return static_cast<uint16_t>(~s);
}

static void put(std::vector<uint8_t>& v, uint64_t x, int n) {
  for (int i = n - 1; i >= 0; i--) v.push_back(static_cast<uint8_t>(x >> (8 * i)));
}
static uint64_t get(const std::vector<uint8_t>& v, size_t off, int n) {
  uint64_t x = 0;
  for (int i = 0; i < n; i++) x = x << 8 | v[off + i];
  return x;
}

std::vector<uint8_t> build(const Hdr& h, const std::vector<uint8_t>& pay) {
  const uint8_t f = op_hdrs(h.opcode);
  const int el = ext_len(f);
  const int pad = (4 - (pay.size() & 3)) & 3;
  const uint16_t udp_len = static_cast<uint16_t>(8 + 12 + el + pay.size() + pad + 4);
  std::vector<uint8_t> v;
  put(v, h.dst_mac, 6);
  put(v, h.src_mac, 6);
  put(v, 0x0800, 2);
  size_t ip = v.size();
  v.push_back(0x45);
  v.push_back(h.tos);
  put(v, udp_len + 20u, 2);
  put(v, h.ip_id, 2);
  put(v, 0x4000, 2);
  v.push_back(h.ttl);
  v.push_back(17);
  put(v, 0, 2);
  put(v, h.src_ip, 4);
  put(v, h.dst_ip, 4);
  uint16_t cs = ip_checksum(&v[ip]);
  v[ip + 10] = static_cast<uint8_t>(cs >> 8);
  v[ip + 11] = static_cast<uint8_t>(cs);
  put(v, h.udp_sport, 2);
  put(v, 4791, 2);
  put(v, udp_len, 2);
  put(v, 0, 2);
  v.push_back(h.opcode);
  v.push_back(static_cast<uint8_t>(h.se << 7 | h.mig << 6 | pad << 4));
  put(v, h.pkey, 2);
  v.push_back(static_cast<uint8_t>(h.fecn << 7 | h.becn << 6));
  put(v, h.dest_qp & 0xffffff, 3);
  v.push_back(static_cast<uint8_t>(h.ack_req << 7));
  put(v, h.psn & 0xffffff, 3);
  if (f >> kHfDeth & 1) { put(v, h.qkey, 4); v.push_back(0); put(v, h.src_qp & 0xffffff, 3); }
  if (f >> kHfReth & 1) { put(v, h.va, 8); put(v, h.rkey, 4); put(v, h.dma_len, 4); }
  if (f >> kHfAtomic & 1) {
    put(v, h.va, 8); put(v, h.rkey, 4); put(v, h.swap_add, 8); put(v, h.compare, 8);
  }
  if (f >> kHfAeth & 1) { v.push_back(h.syndrome); put(v, h.msn & 0xffffff, 3); }
  if (f >> kHfAtAck & 1) put(v, h.orig, 8);
  if (f >> kHfImm & 1) put(v, h.imm, 4);
  if (f >> kHfCnp & 1) put(v, 0, 8), put(v, 0, 8);
  v.insert(v.end(), pay.begin(), pay.end());
  for (int i = 0; i < pad; i++) v.push_back(0);
  uint32_t r = icrc(v, v.size());
  for (int i = 0; i < 4; i++) v.push_back(static_cast<uint8_t>(r >> (8 * i)));
  return v;
}

Parsed parse(const std::vector<uint8_t>& f, uint32_t qlo, uint32_t qhi, size_t max_frame) {
  Parsed p;
  const size_t n = f.size();
  auto drop = [&](int r) { p.reason = r; return p; };
  if (n > max_frame) return drop(kDropOversize);
  if (n < 58) return drop(kDropRunt);
  if (get(f, 12, 2) != 0x0800) return drop(kDropEthertype);
  if (f[14] != 0x45 || (f[20] & 0xBF) != 0 || f[21] != 0) return drop(kDropIpHdr);
  if (ip_checksum(&f[14]) != 0) return drop(kDropIpCsum);
  if (f[23] != 17) return drop(kDropProto);
  const uint8_t fl = op_hdrs(f[42]);
  const int el = ext_len(fl);
  const uint32_t iplen = static_cast<uint32_t>(get(f, 16, 2));
  const uint32_t udplen = static_cast<uint32_t>(get(f, 38, 2));
  const int plen = static_cast<int>(udplen) - 24 - el - (f[43] >> 4 & 3);
  if (n != 14 + iplen || udplen != ((iplen - 20) & 0xffff) || plen < 0) return drop(kDropLen);
  if (get(f, 36, 2) != 4791) return drop(kDropUdpPort);
  if (f[43] & 0xf) return drop(kDropTver);
  if (!(fl >> kHfKnown & 1)) return drop(kDropOpcode);
  if ((get(f, 44, 2) & 0x7fff) != 0x7fff) return drop(kDropPkey);
  const uint32_t qpn = static_cast<uint32_t>(get(f, 47, 3));
  if (qpn < qlo || qpn > qhi) return drop(kDropQpn);
  if (icrc_reg(f, n) != 0xDEBB20E3u) return drop(kDropIcrc);
  Hdr& h = p.h;
  h.dst_mac = get(f, 0, 6);
  h.src_mac = get(f, 6, 6);
  h.tos = f[15];
  h.ip_id = static_cast<uint16_t>(get(f, 18, 2));
  h.ttl = f[22];
  h.src_ip = static_cast<uint32_t>(get(f, 26, 4));
  h.dst_ip = static_cast<uint32_t>(get(f, 30, 4));
  h.udp_sport = static_cast<uint16_t>(get(f, 34, 2));
  h.opcode = f[42];
  h.se = f[43] >> 7 & 1;
  h.mig = f[43] >> 6 & 1;
  h.pad_cnt = f[43] >> 4 & 3;
  h.pkey = static_cast<uint16_t>(get(f, 44, 2));
  h.fecn = f[46] >> 7 & 1;
  h.becn = f[46] >> 6 & 1;
  h.dest_qp = qpn;
  h.ack_req = f[50] >> 7 & 1;
  h.psn = static_cast<uint32_t>(get(f, 51, 3));
  size_t o = 54;
  if (fl >> kHfDeth & 1) {
    h.qkey = static_cast<uint32_t>(get(f, o, 4));
    h.src_qp = static_cast<uint32_t>(get(f, o + 5, 3));
    o += 8;
  }
  if (fl >> kHfReth & 1) {
    h.va = get(f, o, 8); h.rkey = static_cast<uint32_t>(get(f, o + 8, 4));
    h.dma_len = static_cast<uint32_t>(get(f, o + 12, 4));
    o += 16;
  }
  if (fl >> kHfAtomic & 1) {
    h.va = get(f, o, 8); h.rkey = static_cast<uint32_t>(get(f, o + 8, 4));
    h.swap_add = get(f, o + 12, 8); h.compare = get(f, o + 20, 8);
    o += 28;
  }
  if (fl >> kHfAeth & 1) { h.syndrome = f[o]; h.msn = static_cast<uint32_t>(get(f, o + 1, 3)); o += 4; }
  if (fl >> kHfAtAck & 1) { h.orig = get(f, o, 8); o += 8; }
  if (fl >> kHfImm & 1) { h.imm = static_cast<uint32_t>(get(f, o, 4)); o += 4; }
  if (fl >> kHfCnp & 1) o += 16;
  h.payload_len = static_cast<uint16_t>(plen);
  p.payload.assign(f.begin() + static_cast<long>(o), f.begin() + static_cast<long>(o) + plen);
  return p;
}

Hdr expected_rx(const Hdr& d, uint16_t ip_id) {
  Hdr h = d;
  const uint8_t f = op_hdrs(d.opcode);
  h.ip_id = ip_id;
  h.pad_cnt = (4 - (d.payload_len & 3)) & 3;
  h.dest_qp &= 0xffffff;
  h.psn &= 0xffffff;
  h.msn &= 0xffffff;
  h.src_qp &= 0xffffff;
  if (!(f >> kHfReth & 1) && !(f >> kHfAtomic & 1)) { h.va = 0; h.rkey = 0; }
  if (!(f >> kHfReth & 1)) h.dma_len = 0;
  if (!(f >> kHfAtomic & 1)) { h.swap_add = 0; h.compare = 0; }
  if (!(f >> kHfAeth & 1)) { h.syndrome = 0; h.msn = 0; }
  if (!(f >> kHfAtAck & 1)) h.orig = 0;
  if (!(f >> kHfImm & 1)) h.imm = 0;
  if (!(f >> kHfDeth & 1)) { h.qkey = 0; h.src_qp = 0; }
  return h;
}

std::vector<Hdr> segment(const Msg& m, uint32_t* next_psn) {
  std::vector<Hdr> out;
  const uint32_t mtu = 1u << m.pmtu_log2;
  const bool multi = m.kind <= kWriteImm || m.kind == kReadResp;
  uint32_t rem = m.len, psn = m.tmpl.psn & 0xffffff;
  const bool piece = m.kind <= kWriteImm;
  bool first = !(piece && m.cont);
  for (;;) {
    const bool last = !multi || rem <= mtu;
    const bool ends = last && !(piece && m.more);  // the message's own last packet
    const uint32_t plen = !multi ? ((m.kind == kUdSend || m.kind == kUdSendImm) ? rem : 0)
                                 : (last ? rem : mtu);
    const int pos = (first && ends) ? 3 : first ? 0 : ends ? 2 : 1;
    static const uint8_t tab[][4] = {
        {0x00, 0x01, 0x02, 0x04}, {0x00, 0x01, 0x03, 0x05}, {0x00, 0x01, 0x16, 0x17},
        {0x06, 0x07, 0x08, 0x0A}, {0x06, 0x07, 0x09, 0x0B}, {0x0C, 0x0C, 0x0C, 0x0C},
        {0x0D, 0x0E, 0x0F, 0x10}, {0x11, 0x11, 0x11, 0x11}, {0x12, 0x12, 0x12, 0x12},
        {0x13, 0x13, 0x13, 0x13}, {0x14, 0x14, 0x14, 0x14}, {0x64, 0x64, 0x64, 0x64},
        {0x65, 0x65, 0x65, 0x65}, {0x81, 0x81, 0x81, 0x81}};
    Hdr h = m.tmpl;
    h.opcode = tab[m.kind][pos];
    if (m.uc && m.kind <= kWriteImm && m.kind != kSendInv) h.opcode |= 0x20;
    h.psn = psn;
    h.payload_len = static_cast<uint16_t>(plen);
    h.ack_req = m.tmpl.ack_req && last;
    h.se = m.tmpl.se && ends;
    h.dma_len = (op_hdrs(h.opcode) >> kHfReth & 1) ? ((piece && m.more) ? m.msg_len : m.len) : 0;
    out.push_back(h);
    rem -= plen;
    first = false;
    if (last) {
      uint32_t used = 1;
      if (m.kind == kReadReq && m.len) used = (m.len + mtu - 1) / mtu;
      *next_psn = (psn + used) & 0xffffff;
      break;
    }
    psn = (psn + 1) & 0xffffff;
  }
  return out;
}

}  // namespace roce_ref
