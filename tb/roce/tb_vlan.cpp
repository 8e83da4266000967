// tb_vlan: the 802.1Q blocks (rtl/roce/roce_vlan_ins.sv, roce_vlan_strip.sv) back to back. Random
// frames (IPv4 with random DSCP/ECN, ARP, frames that already carry a tag; 14..1600 bytes) with
// random gaps and random backpressure, tagging on and off: the tagged stream must be the frame
// with 81 00 | PCP (DSCP class, 0 unless IPv4) 0 VID inserted at byte 12, byte for byte, and
// the stripped output the frame again (a frame that came tagged loses its tag).
// Usage: Vroce_vlan_tb_top [--seed S] [--frames N]
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "Vroce_vlan_tb_top.h"
#include "tb_check.h"
#include "verilated.h"

namespace {
constexpr int NB = TB_DATA_WIDTH / 8;
using Frame = std::vector<uint8_t>;

// Verilator's representation of a wide port: 32-bit words (or one scalar up to 64 bits).
template <class T> void put(T &port, const uint8_t *b) {
  if constexpr (std::is_integral_v<T>) {
    T v = 0;
    for (int i = NB - 1; i >= 0; i--) v = T(v << 8) | b[i];
    port = v;
  } else {
    for (int w = 0; w < NB / 4; w++) port[w] = uint32_t(b[4 * w]) | uint32_t(b[4 * w + 1]) << 8 |
                                                uint32_t(b[4 * w + 2]) << 16 | uint32_t(b[4 * w + 3]) << 24;
  }
}
template <class T> void get(const T &port, uint8_t *b) {
  if constexpr (std::is_integral_v<T>) {
    for (int i = 0; i < NB; i++) b[i] = uint8_t(uint64_t(port) >> (8 * i));
  } else {
    for (int w = 0; w < NB / 4; w++)
      for (int k = 0; k < 4; k++) b[4 * w + k] = uint8_t(port[w] >> (8 * k));
  }
}
template <class T> uint64_t keep_of(const T &k) { return uint64_t(k); }

struct Rx {  // collects the frames of one stream
  std::vector<Frame> frames;
  Frame cur;
  bool gap_keep = false;  // a keep that is not contiguous from byte 0, or short before last
  void beat(const uint8_t *b, uint64_t keep, bool last) {
    int n = 0;
    while (n < NB && (keep >> n & 1)) n++;
    if ((n < NB && (keep >> n) != 0) || (!last && n != NB) || n == 0) gap_keep = true;
    cur.insert(cur.end(), b, b + n);
    if (last) frames.push_back(cur), cur.clear();
  }
};
}  // namespace

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  uint64_t seed = 1;
  int nframes = 3000;
  for (int i = 1; i + 1 < argc; i++) {
    if (!std::strcmp(argv[i], "--seed")) seed = std::strtoull(argv[++i], nullptr, 0);
    else if (!std::strcmp(argv[i], "--frames")) nframes = std::atoi(argv[++i]);
  }
  std::printf("# tb_vlan DataWidth %d seed %llu frames %d\n", TB_DATA_WIDTH, (unsigned long long)seed, nframes);
  std::mt19937_64 rng(seed);
  TbResults r;
  Vroce_vlan_tb_top m;
  const uint16_t vid = 0x5A3;

  // the frames, in phases: tagging on (first half), off (second half)
  std::vector<Frame> in;
  std::vector<bool> en;
  for (int i = 0; i < nframes; i++) {
    int kind = int(rng() % 4);  // 0,1 IPv4, 2 ARP, 3 already tagged
    size_t len = (rng() % 8 == 0) ? 14 + rng() % 1587 : 14 + rng() % 140;
    if (kind == 3 && len < 18) len = 18;
    Frame f(len);
    for (auto &b : f) b = uint8_t(rng());
    if (kind <= 1) f[12] = 0x08, f[13] = 0x00;
    if (kind == 2) f[12] = 0x08, f[13] = 0x06;
    if (kind == 3) f[12] = 0x81, f[13] = 0x00;
    in.push_back(f);
    en.push_back(i < nframes / 2);
  }
  auto tagged = [&](const Frame &f) {
    Frame t(f.begin(), f.begin() + 12);
    uint8_t pcp = (f[12] == 0x08 && f[13] == 0x00) ? uint8_t(f[15] >> 5) : 0;
    t.push_back(0x81), t.push_back(0x00), t.push_back(uint8_t(pcp << 5 | (vid >> 8))), t.push_back(uint8_t(vid));
    t.insert(t.end(), f.begin() + 12, f.end());
    return t;
  };
  auto untagged = [](const Frame &f) {
    if (f.size() >= 18 && f[12] == 0x81 && f[13] == 0x00) {
      Frame u(f.begin(), f.begin() + 12);
      u.insert(u.end(), f.begin() + 16, f.end());
      return u;
    }
    return f;
  };

  Rx mid, out;
  size_t fi = 0, off = 0;
  uint64_t cycles = 0, tagged_pulses = 0;
  m.rst_ni = 0, m.clk_i = 0, m.s_tvalid_i = 0, m.m_tready_i = 0, m.enable_i = 0, m.vid_i = vid;
  m.eval();
  for (int i = 0; i < 4; i++) m.clk_i = 1, m.eval(), m.clk_i = 0, m.eval();
  m.rst_ni = 1;
  uint8_t b[NB];
  while (out.frames.size() < in.size() && cycles < 200000ull + 2000ull * in.size()) {
    // drive: the next beat of the current frame (random gaps); the phase changes between frames
    bool drive = fi < in.size() && rng() % 4 != 0;
    if (fi < in.size() && off == 0 && !en[fi] && m.enable_i) {
      drive = drive && mid.frames.size() == fi;  // the last tagged frame has left the inserter
    }
    if (fi < in.size() && off == 0 && drive) m.enable_i = en[fi];
    size_t n = 0;
    if (drive) {
      n = std::min<size_t>(NB, in[fi].size() - off);
      std::memset(b, 0, NB);
      std::memcpy(b, in[fi].data() + off, n);
      put(m.s_tdata_i, b);
      m.s_tkeep_i = std::remove_reference_t<decltype(m.s_tkeep_i)>(n == NB ? ~0ull >> (64 - NB) : (1ull << n) - 1);
      m.s_tlast_i = off + n == in[fi].size();
    }
    m.s_tvalid_i = drive;
    m.m_tready_i = rng() % 3 != 0;
    m.eval();
    bool in_fire = m.s_tvalid_i && m.s_tready_o;
    if (m.mid_tvalid_o && m.mid_tready_o) get(m.mid_tdata_o, b), mid.beat(b, keep_of(m.mid_tkeep_o), m.mid_tlast_o);
    if (m.m_tvalid_o && m.m_tready_i) get(m.m_tdata_o, b), out.beat(b, keep_of(m.m_tkeep_o), m.m_tlast_o);
    m.clk_i = 1, m.eval();
    tagged_pulses += m.tagged_o;
    m.clk_i = 0, m.eval();
    cycles++;
    if (in_fire) {
      off += n;
      if (off == in[fi].size()) fi++, off = 0;
    }
  }
  size_t bad_mid = 0, bad_out = 0, first_mid = SIZE_MAX, first_out = SIZE_MAX, exp_tags = 0;
  for (size_t i = 0; i < in.size(); i++) {
    Frame em = en[i] ? tagged(in[i]) : in[i];
    exp_tags += em.size() >= 18 && em[12] == 0x81 && em[13] == 0x00;
    if (i >= mid.frames.size() || mid.frames[i] != em) bad_mid++, first_mid = std::min(first_mid, i);
    Frame eo = en[i] ? in[i] : untagged(in[i]);
    if (i >= out.frames.size() || out.frames[i] != eo) bad_out++, first_out = std::min(first_out, i);
  }
  std::string w = "w" + std::to_string(TB_DATA_WIDTH) + "-";
  r.check(mid.frames.size() == in.size() && bad_mid == 0 && !mid.gap_keep, (w + "vlan-insert-byte-exact").c_str(),
          "%zu of %zu frames out, %zu wrong (first %zu), keep gaps %d", mid.frames.size(), in.size(), bad_mid, first_mid,
          int(mid.gap_keep));
  r.check(out.frames.size() == in.size() && bad_out == 0 && !out.gap_keep, (w + "vlan-strip-byte-exact").c_str(),
          "%zu of %zu frames out, %zu wrong (first %zu), keep gaps %d", out.frames.size(), in.size(), bad_out, first_out,
          int(out.gap_keep));
  r.check(tagged_pulses == exp_tags, (w + "vlan-strip-counts-tagged-frames").c_str(), "%llu pulses, %zu tagged frames",
          (unsigned long long)tagged_pulses, exp_tags);
  std::printf("# %llu cycles, %zu frames, %zu of them tagged between the blocks\n", (unsigned long long)cycles, in.size(), exp_tags);
  return r.exit_code();
}
