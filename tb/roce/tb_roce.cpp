// roce testbench: reference self-check, tx frames vs the C++ reference for every opcode and
// payload sizes around the MTU, tx->rx loopback, segmentation, pcap + tshark decode check,
// malformed-frame fuzzer with drop counters, and (--bench) cycles per packet.
// Usage: Vroce_tb_top [--seed N] [--fuzz N] [--out DIR] [--tag NAME] [--bench]
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "Vroce_tb_top.h"
#include "main/sim_waves.h"
#include "tb_rerun.h"
#include "verilated.h"
#include "ref/roce_ref.h"
#if VM_COVERAGE
#include "verilated_cov.h"
#endif

using namespace roce_ref;
using Bytes = std::vector<uint8_t>;

static int g_pass = 0, g_fail = 0;
static void result(bool ok, const std::string& name, const std::string& why = "") {
  if (ok) {
    printf("PASS %s\n", name.c_str());
    g_pass++;
  } else {
    printf("FAIL %s %s\n", name.c_str(), why.c_str());
    tb_print_rerun();
    g_fail++;
  }
  fflush(stdout);
}

// ---- access to Verilator signals of any width ---------------------------------------------
template <std::size_t N> static void set_byte(VlWide<N>& w, int i, uint8_t b) {
  uint32_t& x = w.at(static_cast<size_t>(i / 4));
  const int s = (i % 4) * 8;
  x = (x & ~(0xffu << s)) | (static_cast<uint32_t>(b) << s);
}
template <std::size_t N> static uint8_t get_byte(const VlWide<N>& w, int i) {
  return static_cast<uint8_t>(w.at(static_cast<size_t>(i / 4)) >> ((i % 4) * 8));
}
template <class T>
static typename std::enable_if<std::is_integral<T>::value>::type set_byte(T& w, int i, uint8_t b) {
  const int s = i * 8;
  w = static_cast<T>((w & ~(static_cast<T>(0xff) << s)) | (static_cast<T>(b) << s));
}
template <class T>
static typename std::enable_if<std::is_integral<T>::value, uint8_t>::type get_byte(const T& w, int i) {
  return static_cast<uint8_t>(w >> (i * 8));
}
template <class T> static T keep_mask(int n) {
  return n >= static_cast<int>(8 * sizeof(T)) ? static_cast<T>(~static_cast<T>(0))
                                              : static_cast<T>((static_cast<uint64_t>(1) << n) - 1);
}
template <class T> static int keep_count(T k) {
  return __builtin_popcountll(static_cast<unsigned long long>(k));
}

static constexpr int NB = static_cast<int>(sizeof(Vroce_tb_top::tx_tdata_o));
static constexpr int kHdrBits = 743;
static const int kFieldW[30] = {48, 48, 32, 32, 8, 8, 16, 16, 8, 1, 1, 2, 16, 1, 1,
                                24, 1, 24, 64, 32, 32, 8, 24, 64, 64, 64, 32, 32, 24, 16};

static std::array<uint64_t, 30> fields(const Hdr& h) {
  return {h.dst_mac, h.src_mac, h.src_ip, h.dst_ip, h.tos, h.ttl, h.ip_id, h.udp_sport,
          h.opcode, h.se, h.mig, h.pad_cnt, h.pkey, h.fecn, h.becn, h.dest_qp, h.ack_req, h.psn,
          h.va, h.rkey, h.dma_len, h.syndrome, h.msn, h.swap_add, h.compare, h.orig, h.imm,
          h.qkey, h.src_qp, h.payload_len};
}
template <class W> static void pack_hdr(W& w, const Hdr& h) {
  auto f = fields(h);
  for (auto& x : w.m_storage) x = 0;
  int pos = kHdrBits;
  for (int i = 0; i < 30; i++) {
    pos -= kFieldW[i];
    for (int b = 0; b < kFieldW[i]; b++)
      if (f[i] >> b & 1) w.m_storage[(pos + b) / 32] |= 1u << ((pos + b) % 32);
  }
}
template <class W> static Hdr unpack_hdr(const W& w) {
  std::array<uint64_t, 30> f{};
  int pos = kHdrBits;
  for (int i = 0; i < 30; i++) {
    pos -= kFieldW[i];
    for (int b = 0; b < kFieldW[i]; b++)
      if (w.m_storage[(pos + b) / 32] >> ((pos + b) % 32) & 1) f[i] |= 1ull << b;
  }
  Hdr h;
  h.dst_mac = f[0]; h.src_mac = f[1]; h.src_ip = uint32_t(f[2]); h.dst_ip = uint32_t(f[3]);
  h.tos = uint8_t(f[4]); h.ttl = uint8_t(f[5]); h.ip_id = uint16_t(f[6]);
  h.udp_sport = uint16_t(f[7]); h.opcode = uint8_t(f[8]); h.se = f[9]; h.mig = f[10];
  h.pad_cnt = uint8_t(f[11]); h.pkey = uint16_t(f[12]); h.fecn = f[13]; h.becn = f[14];
  h.dest_qp = uint32_t(f[15]); h.ack_req = f[16]; h.psn = uint32_t(f[17]); h.va = f[18];
  h.rkey = uint32_t(f[19]); h.dma_len = uint32_t(f[20]); h.syndrome = uint8_t(f[21]);
  h.msn = uint32_t(f[22]); h.swap_add = f[23]; h.compare = f[24]; h.orig = f[25];
  h.imm = uint32_t(f[26]); h.qkey = uint32_t(f[27]); h.src_qp = uint32_t(f[28]);
  h.payload_len = uint16_t(f[29]);
  return h;
}

static std::string hex(uint64_t v) {
  char b[32];
  snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}
static std::string diff_hdr(const Hdr& a, const Hdr& b) {
  auto fa = fields(a), fb = fields(b);
  static const char* nm[30] = {"dst_mac", "src_mac", "src_ip", "dst_ip", "tos", "ttl", "ip_id",
                               "udp_sport", "opcode", "se", "mig", "pad_cnt", "pkey", "fecn",
                               "becn", "dest_qp", "ack_req", "psn", "va", "rkey", "dma_len",
                               "syndrome", "msn", "swap_add", "compare", "orig", "imm", "qkey",
                               "src_qp", "payload_len"};
  for (int i = 0; i < 30; i++)
    if (fa[i] != fb[i]) return std::string(nm[i]) + " got " + hex(fa[i]) + " want " + hex(fb[i]);
  return "";
}
static std::string diff_bytes(const Bytes& a, const Bytes& b) {
  if (a.size() != b.size())
    return "length got " + std::to_string(a.size()) + " want " + std::to_string(b.size());
  for (size_t i = 0; i < a.size(); i++)
    if (a[i] != b[i])
      return "byte " + std::to_string(i) + " got " + hex(a[i]) + " want " + hex(b[i]);
  return "";
}

// ---- simulation harness ---------------------------------------------------------------------
// roce_rx's default watermarks (BufBytes 16384, MetaDepth 16), as instantiated by roce_tb_top.
static constexpr int kXoffBytes = 8192, kXonBytes = 4096, kXoffFrames = 8, kXonFrames = 4;
struct MsgDesc {
  Msg m;
};

struct Tb {
  Vroce_tb_top* t;
  Waves waves;  // FST when asked for (sim/main/sim_waves.h)
  std::mt19937_64 rng;
  uint64_t cyc = 0;
  std::deque<Hdr> pkt_q;
  std::deque<Msg> msg_q;
  std::deque<std::pair<Bytes, bool>> pay_q;   // beats (bytes, last)
  std::deque<std::pair<Bytes, bool>> rxin_q;
  bool pkt_packed = false, msg_packed = false, pay_hold = false, rxin_hold = false;
  double p_pay = 1, p_tx_ready = 1, p_hdr_ready = 1, p_rx_ready = 1, p_rxin = 1;
  std::vector<Bytes> tx_frames;
  Bytes tx_cur;
  std::vector<uint64_t> tx_last_cyc;
  std::vector<Hdr> rx_hdrs;
  std::vector<Bytes> rx_pays;
  Bytes rx_cur;
  std::vector<uint32_t> next_psns;   // next_psn_o sampled at each message accept
  uint64_t first_desc_cyc = 0, last_rx_cyc = 0;
  bool seen_desc = false;
  uint64_t rxin_stalls = 0;
  // Flow control. tx: tx_pause_i flips with probability p_pause_flip per cycle; a frame's first
  // beat must not be offered while it is high (a frame already offered is finished). rx: with
  // check_rx_pause, rx_pause_req_o is compared every cycle with the hysteresis of the fill
  // levels seen in the cycle before; with rxin_obey_pause the stream starts no frame while it
  // is high (an ideal far transmitter, no link delay).
  double p_pause_flip = 0;
  bool tx_offered = false, check_rx_pause = false, rxin_obey_pause = false, rxin_in_frame = false;
  bool pause_exp = false;
  uint64_t tx_pause_violations = 0, tx_beats_paused = 0, tx_cycles_paused = 0;
  uint64_t rx_pause_mismatch = 0, rx_pause_rises = 0, rx_pause_falls = 0;

  explicit Tb(uint64_t seed) : t(new Vroce_tb_top), rng(seed) {
    waves.open(t, "roce");
    t->clk_i = 0;
    t->rst_ni = 0;
    t->qpn_lo_i = 0;
    t->qpn_hi_i = 0xffffff;
    t->drop_when_full_i = 0;
    t->tx_pause_i = 0;
    for (int i = 0; i < 4; i++) clock();
    t->rst_ni = 1;
    clock();
  }
  ~Tb() {
    t->final();
#if VM_COVERAGE
    // Each Tb is a fresh model whose counters die with it: write them out (ROCE_COV_FILE.N, merged
    // by tb/roce/coverage.sh) and forget the points before the next model registers its own.
    static int cov_part = 0;
    if (const char* f = getenv("ROCE_COV_FILE"))
      Verilated::threadContextp()->coveragep()->write((std::string(f) + "." + std::to_string(cov_part++) + ".dat").c_str());
    Verilated::threadContextp()->coveragep()->clear();
#endif
    waves.close();  // before the model it reads goes
    delete t;
  }
  bool coin(double p) { return p >= 1.0 || std::uniform_real_distribution<double>(0, 1)(rng) < p; }
  void clock() {
    t->clk_i = 0;
    waves.eval(*t);
    t->clk_i = 1;
    waves.eval(*t);
    cyc++;
  }
  static void push_stream(std::deque<std::pair<Bytes, bool>>& q, const Bytes& b) {
    for (size_t o = 0; o < b.size(); o += NB) {
      size_t n = std::min<size_t>(NB, b.size() - o);
      q.emplace_back(Bytes(b.begin() + long(o), b.begin() + long(o + n)), o + n == b.size());
    }
  }
  template <class D, class K>
  void drive(D& data, K& keep, uint8_t& last, const std::pair<Bytes, bool>& beat) {
    for (int i = 0; i < NB; i++)
      set_byte(data, i, i < int(beat.first.size()) ? beat.first[size_t(i)] : uint8_t(rng()));
    keep = keep_mask<K>(int(beat.first.size()));
    last = beat.second;
  }
  void step() {
    t->pkt_valid_i = !pkt_q.empty();
    if (!pkt_q.empty() && !pkt_packed) { pack_hdr(t->pkt_i, pkt_q.front()); pkt_packed = true; }
    t->msg_valid_i = !msg_q.empty();
    if (!msg_q.empty() && !msg_packed) {
      const Msg& m = msg_q.front();
      pack_hdr(t->msg_hdr_i, m.tmpl);
      t->msg_kind_i = uint8_t(m.kind);
      t->msg_len_i = m.len;
      t->msg_uc_i = m.uc;
      t->msg_pmtu_log2_i = uint8_t(m.pmtu_log2);
      msg_packed = true;
    }
    const bool pv = !pay_q.empty() && (pay_hold || coin(p_pay));
    t->pay_tvalid_i = pv;
    if (pv) drive(t->pay_tdata_i, t->pay_tkeep_i, t->pay_tlast_i, pay_q.front());
    const bool held_off = rxin_obey_pause && !rxin_hold && !rxin_in_frame && t->rx_pause_req_o;
    const bool rv = !rxin_q.empty() && !held_off && (rxin_hold || coin(p_rxin));
    t->rxin_tvalid_i = rv;
    if (rv) drive(t->rxin_tdata_i, t->rxin_tkeep_i, t->rxin_tlast_i, rxin_q.front());
    t->tx_tready_i = coin(p_tx_ready);
    t->hdr_ready_i = coin(p_hdr_ready);
    t->rx_tready_i = coin(p_rx_ready);
    if (p_pause_flip > 0 && coin(p_pause_flip)) t->tx_pause_i = !t->tx_pause_i;
    t->clk_i = 0;
    waves.eval(*t);
    if (t->tx_pause_i) {
      tx_cycles_paused++;
      if (t->tx_tvalid_o && !tx_offered) tx_pause_violations++;
      if (t->tx_fire_o) tx_beats_paused++;
    }
    if (t->tx_tvalid_o) tx_offered = !(t->tx_fire_o && t->tx_tlast_o);
    if (t->rx_fill_words_o >= uint32_t(kXoffBytes / NB) || t->rx_fill_frames_o >= uint32_t(kXoffFrames)) {
      rx_pause_rises += !pause_exp;
      pause_exp = true;
    } else if (t->rx_fill_words_o < uint32_t(kXonBytes / NB) && t->rx_fill_frames_o < uint32_t(kXonFrames)) {
      rx_pause_falls += pause_exp;
      pause_exp = false;
    }
    const bool pkt_fire = t->pkt_valid_i && t->pkt_ready_o;
    const bool msg_fire = t->msg_valid_i && t->msg_ready_o;
    const bool pay_fire = pv && t->pay_tready_o;
    const bool rxin_fire = rv && t->rxin_tready_o;
    if (msg_fire) next_psns.push_back(t->next_psn_o);
    if ((pkt_fire || msg_fire) && !seen_desc) { seen_desc = true; first_desc_cyc = cyc; }
    if (t->tx_fire_o) {
      const int n = keep_count(t->tx_tkeep_o);
      for (int i = 0; i < n; i++) tx_cur.push_back(get_byte(t->tx_tdata_o, i));
      if (t->tx_tlast_o) { tx_frames.push_back(tx_cur); tx_cur.clear(); tx_last_cyc.push_back(cyc); }
    }
    if (t->hdr_valid_o && t->hdr_ready_i) { rx_hdrs.push_back(unpack_hdr(t->hdr_o)); last_rx_cyc = cyc; }
    if (t->rx_tvalid_o && t->rx_tready_i) {
      const int n = keep_count(t->rx_tkeep_o);
      for (int i = 0; i < n; i++) rx_cur.push_back(get_byte(t->rx_tdata_o, i));
      if (t->rx_tlast_o) { rx_pays.push_back(rx_cur); rx_cur.clear(); last_rx_cyc = cyc; }
    }
    t->clk_i = 1;
    waves.eval(*t);
    cyc++;
    if (check_rx_pause && bool(t->rx_pause_req_o) != pause_exp) rx_pause_mismatch++;
    if (rxin_fire) rxin_in_frame = !t->rxin_tlast_i;
    if (pkt_fire) { pkt_q.pop_front(); pkt_packed = false; }
    if (msg_fire) { msg_q.pop_front(); msg_packed = false; }
    pay_hold = pv && !pay_fire;
    if (pay_fire) pay_q.pop_front();
    rxin_hold = rv && !rxin_fire;
    if (rv && !rxin_fire) rxin_stalls++;
    if (rxin_fire) rxin_q.pop_front();
  }
  // Runs until done() or the cycle budget is exhausted; returns false on timeout.
  template <class F> bool run(F done, uint64_t budget) {
    const uint64_t end = cyc + budget;
    while (!done()) {
      if (cyc >= end) return false;
      step();
    }
    return true;
  }
  uint32_t good() { return t->good_count_o; }
  uint32_t drops(int r) { return t->drop_count_o.at(size_t(r)); }
};

// Every good frame's header and payload as expected, in order, none dropped: "" or what differs.
static std::string rx_exact(Tb& tb, const std::vector<Hdr>& want_h, const std::vector<Bytes>& want_p) {
  if (tb.rx_hdrs.size() < want_h.size() || tb.rx_pays.size() < want_p.size())
    return "timeout, " + std::to_string(tb.rx_hdrs.size()) + " headers " + std::to_string(tb.rx_pays.size()) +
           " payloads";
  for (size_t i = 0; i < want_h.size(); i++) {
    if (!(tb.rx_hdrs[i] == want_h[i])) return "header " + std::to_string(i) + ": " + diff_hdr(tb.rx_hdrs[i], want_h[i]);
    if (tb.rx_pays[i] != want_p[i]) return "payload " + std::to_string(i) + ": " + diff_bytes(tb.rx_pays[i], want_p[i]);
  }
  uint32_t drops = 0;
  for (int d = 0; d < kNumDrop; d++) drops += tb.drops(d);
  if (tb.good() != uint32_t(want_h.size()) || drops != 0)
    return "good " + std::to_string(tb.good()) + " drops " + std::to_string(drops);
  return "";
}

// ---- stimulus helpers -----------------------------------------------------------------------
static Hdr random_hdr(std::mt19937_64& rng, uint8_t opcode, uint16_t plen) {
  Hdr h;
  h.dst_mac = (rng() & 0xfcffffffffffull) | 0x020000000000ull;  // unicast, locally administered
  h.src_mac = (rng() & 0xfcffffffffffull) | 0x020000000000ull;
  h.src_ip = uint32_t(rng());
  h.dst_ip = uint32_t(rng());
  h.tos = uint8_t(rng());
  h.ttl = uint8_t(rng());
  h.udp_sport = uint16_t(0xc000 | (rng() & 0x3fff));
  h.opcode = opcode;
  h.se = rng() & 1;
  h.mig = rng() & 1;
  h.pkey = (rng() & 1) ? 0xffff : 0x7fff;
  h.fecn = (rng() & 7) == 0;
  h.becn = opcode == 0x81 || (rng() & 7) == 0;
  h.dest_qp = uint32_t(rng() & 0xffffff);
  h.ack_req = rng() & 1;
  h.psn = uint32_t(rng() & 0xffffff);
  h.va = rng();
  h.rkey = uint32_t(rng());
  h.dma_len = uint32_t(rng());
  h.syndrome = uint8_t(rng());
  h.msn = uint32_t(rng() & 0xffffff);
  h.swap_add = rng();
  h.compare = rng();
  h.orig = rng();
  h.imm = uint32_t(rng());
  h.qkey = uint32_t(rng());
  h.src_qp = uint32_t(rng() & 0xffffff);
  h.payload_len = plen;
  return h;
}
static Bytes random_bytes(std::mt19937_64& rng, size_t n) {
  Bytes b(n);
  for (auto& x : b) x = uint8_t(rng());
  return b;
}

static void write_pcap(const std::string& path, const std::vector<Bytes>& frames) {
  FILE* f = fopen(path.c_str(), "wb");
  if (!f) return;
  const uint32_t gh[6] = {0xa1b2c3d4u, 0x00040002u, 0, 0, 65535, 1};
  fwrite(gh, 4, 6, f);
  uint32_t i = 0;
  for (const auto& fr : frames) {
    const uint32_t rh[4] = {i / 1000000, i % 1000000, uint32_t(fr.size()), uint32_t(fr.size())};
    fwrite(rh, 4, 4, f);
    fwrite(fr.data(), 1, fr.size(), f);
    i++;
  }
  fclose(f);
}

// ---- tests ----------------------------------------------------------------------------------
static Bytes from_hex(const char* s) {
  Bytes b;
  for (const char* p = s; *p;) {
    while (*p == ' ' || *p == '\n') p++;
    if (!*p) break;
    unsigned v;
    sscanf(p, "%2x", &v);
    b.push_back(uint8_t(v));
    p += 2;
  }
  return b;
}

static void test_reference() {
  Hdr a;
  a.dst_mac = 0x020000000002ull; a.src_mac = 0x020000000001ull;
  a.src_ip = 0xc0a80101; a.dst_ip = 0xc0a80102; a.tos = 2; a.ttl = 64; a.udp_sport = 0xc132;
  a.opcode = 0x04; a.pkey = 0xffff; a.dest_qp = 0x12; a.ack_req = true; a.psn = 0x100;
  a.payload_len = 5;
  const Bytes hello = {'H', 'e', 'l', 'l', 'o'};
  const Bytes ex_a = from_hex(
      "02 00 00 00 00 02 02 00 00 00 00 01 08 00 45 02 00 34 00 00 40 00 40 11 b7 63 c0 a8 01 01"
      " c0 a8 01 02 c1 32 12 b7 00 20 00 00 04 30 ff ff 00 00 00 12 80 00 01 00 48 65 6c 6c 6f 00"
      " 00 00 65 eb ae 43");
  result(build(a, hello) == ex_a, "ref_example_A_send_only", diff_bytes(build(a, hello), ex_a));
  Hdr b = a;
  b.dst_mac = 0x020000000001ull; b.src_mac = 0x020000000002ull; b.src_ip = 0xc0a80102;
  b.dst_ip = 0xc0a80101; b.opcode = 0x11; b.dest_qp = 0x11; b.ack_req = false;
  b.syndrome = 0x1f; b.msn = 1; b.payload_len = 0;
  const Bytes ex_b = from_hex(
      "02 00 00 00 00 01 02 00 00 00 00 02 08 00 45 02 00 30 00 00 40 00 40 11 b7 67 c0 a8 01 02"
      " c0 a8 01 01 c1 32 12 b7 00 1c 00 00 11 00 ff ff 00 00 00 11 00 00 01 00 1f 00 00 01 11 ae"
      " 5a ac");
  result(build(b, {}) == ex_b, "ref_example_B_ack", diff_bytes(build(b, {}), ex_b));
  Hdr c = a;
  c.opcode = 0x0a; c.psn = 0x101; c.va = 0x00007f0000001000ull; c.rkey = 0x1234; c.dma_len = 8;
  c.payload_len = 8;
  const Bytes ex_c = from_hex(
      "02 00 00 00 00 02 02 00 00 00 00 01 08 00 45 02 00 44 00 00 40 00 40 11 b7 53 c0 a8 01 01"
      " c0 a8 01 02 c1 32 12 b7 00 30 00 00 0a 00 ff ff 00 00 00 12 80 00 01 01 00 00 7f 00 00 00"
      " 10 00 00 00 12 34 00 00 00 08 01 02 03 04 05 06 07 08 0d b6 8e d6");
  const Bytes p8 = {1, 2, 3, 4, 5, 6, 7, 8};
  result(build(c, p8) == ex_c, "ref_example_C_write_only", diff_bytes(build(c, p8), ex_c));
  const Bytes cnp = from_hex(
      "e4 1d 2d ab 2b c2 7c fe 90 64 3b 32 08 00 45 c2 00 3c 71 8c 40 00 40 11 91 61 0a 00 11 01"
      " 0a 00 12 01 00 00 12 b7 00 28 00 00 81 00 ff ff 40 00 01 18 00 00 00 00 00 00 00 00 00 00"
      " 00 00 00 00 00 00 00 00 00 00 82 fd 00 2a");
  result(icrc(cnp, cnp.size() - 4) == 0x2A00FD82u, "ref_icrc_connectx_cnp");
  Parsed pc = parse(cnp, 0, 0xffffff, 4352);
  result(pc.reason == -1 && pc.h.opcode == 0x81 && pc.h.becn && pc.h.dest_qp == 0x118,
         "ref_parse_connectx_cnp", drop_name(pc.reason));
  Bytes v = ex_a;
  v[15] = 0x03; v[22] = 1; v[46] = 0xc0;
  result(icrc(v, v.size() - 4) == 0x43AEEB65u, "ref_icrc_masking_invariance");
  Hdr a2 = a;
  a2.ip_id = 0x1234;
  Bytes fa2 = build(a2, hello);
  result(icrc(fa2, fa2.size() - 4) == 0x3A8A42F4u, "ref_icrc_covers_ip_id");
  Parsed pa = parse(ex_a, 0, 0xffffff, 4352);
  result(pa.reason == -1 && pa.payload == hello && pa.h.payload_len == 5 && pa.h.pad_cnt == 3,
         "ref_parse_example_A");
}

struct Expect {
  std::vector<Bytes> frames;   // tx frames
  std::vector<Hdr> hdrs;       // rx headers
  std::vector<Bytes> pays;     // rx payloads (non-empty only)
  std::vector<std::string> group;  // check name of each frame
};

// Compares tx frames and rx outputs with expectations; one PASS/FAIL line per group.
static void check_groups(Tb& tb, const Expect& e, const std::string& prefix, bool check_tx,
                         bool check_rx) {
  std::map<std::string, std::string> tx_err, rx_err;
  std::vector<std::string> order;
  for (const auto& g : e.group)
    if (std::find(order.begin(), order.end(), g) == order.end()) order.push_back(g);
  size_t pay_i = 0;
  for (size_t i = 0; i < e.frames.size(); i++) {
    const std::string& g = e.group[i];
    if (check_tx && tx_err[g].empty()) {
      if (i >= tb.tx_frames.size()) tx_err[g] = "frame " + std::to_string(i) + " missing";
      else {
        std::string d = diff_bytes(tb.tx_frames[i], e.frames[i]);
        if (!d.empty()) tx_err[g] = "frame " + std::to_string(i) + ": " + d;
      }
    }
    if (check_rx) {
      const bool has_pay = e.hdrs[i].payload_len > 0;
      if (rx_err[g].empty()) {
        if (i >= tb.rx_hdrs.size()) rx_err[g] = "header " + std::to_string(i) + " missing";
        else {
          std::string d = diff_hdr(tb.rx_hdrs[i], e.hdrs[i]);
          if (!d.empty()) rx_err[g] = "header " + std::to_string(i) + ": " + d;
        }
        if (rx_err[g].empty() && has_pay) {
          if (pay_i >= tb.rx_pays.size()) rx_err[g] = "payload " + std::to_string(i) + " missing";
          else {
            std::string d = diff_bytes(tb.rx_pays[pay_i], e.pays[pay_i]);
            if (!d.empty()) rx_err[g] = "payload " + std::to_string(i) + ": " + d;
          }
        }
      }
      if (has_pay) pay_i++;
    }
  }
  for (const auto& g : order) {
    if (check_tx) result(tx_err[g].empty(), prefix + "tx_" + g, tx_err[g]);
    if (check_rx) result(rx_err[g].empty(), prefix + "loop_" + g, rx_err[g]);
  }
}

static std::string ophex(uint8_t op) {
  char b[8];
  snprintf(b, sizeof b, "op%02x", op);
  return b;
}

static void tshark_check(const std::string& pcap, const std::vector<Bytes>& frames,
                         const std::string& tag) {
  // tshark's payload heuristics (RPCoRDMA, SMB Direct, ...) guess at random payload bytes and
  // flag them malformed; they are disabled so that only the RoCE layers are judged.
  std::string dis;
  for (const char* d : {"rpcordma", "smc", "smb_direct", "nvme-rdma", "lnet", "iser",
                        "infiniband_sdp", "fcoib", "infiniband.eoib"})
    dis += std::string(" --disable-protocol ") + d;
  dis += " --disable-heuristic eth_over_ib";
  std::string cmd = "tshark -n -r " + pcap + dis +
                    " -T fields -e frame.protocols -e infiniband.bth.opcode -e udp.dstport"
                    " -e infiniband.bth.destqp -e infiniband.bth.psn 2>/dev/null";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) { result(false, tag + "tshark_run", "popen"); return; }
  std::vector<std::string> lines;
  char buf[4096];
  while (fgets(buf, sizeof buf, p)) lines.emplace_back(buf);
  const int rc = pclose(p);
  result(rc == 0 && lines.size() == frames.size(), tag + "tshark_reads_all_frames",
         std::to_string(lines.size()) + " lines for " + std::to_string(frames.size()) +
             " frames, rc " + std::to_string(rc));
  size_t bad_proto = 0, bad_op = 0, bad_fields = 0;
  std::string first_err;
  for (size_t i = 0; i < lines.size() && i < frames.size(); i++) {
    const Bytes& f = frames[i];
    char want[128];
    snprintf(want, sizeof want, "\t%u\t4791\t0x%06x\t%u", f[42], (f[47] << 16) | (f[48] << 8) | f[49],
             (f[51] << 16) | (f[52] << 8) | f[53]);
    if (lines[i].find("eth:ethertype:ip:udp:infiniband") == std::string::npos) {
      if (!bad_proto++) first_err = "frame " + std::to_string(i + 1) + ": " + lines[i];
    } else if (lines[i].find(want) == std::string::npos) {
      if (!bad_op++ && first_err.empty()) first_err = "frame " + std::to_string(i + 1) + ": " + lines[i];
      bad_fields++;
    }
  }
  result(bad_proto == 0, tag + "tshark_all_decode_as_rroce_infiniband", first_err);
  result(bad_fields == 0, tag + "tshark_opcode_qpn_psn_match", first_err);
  cmd = "tshark -n -r " + pcap + dis + " -V 2>&1";
  p = popen(cmd.c_str(), "r");
  size_t malformed = 0, expert_err = 0, rroce = 0;
  std::string ex;
  while (p && fgets(buf, sizeof buf, p)) {
    std::string l(buf);
    if (l.find("Malformed") != std::string::npos) { malformed++; if (ex.empty()) ex = l; }
    if (l.find("Expert Info (Error") != std::string::npos ||
        l.find("Expert Info (Warning") != std::string::npos) { expert_err++; if (ex.empty()) ex = l; }
    if (l.rfind("InfiniBand", 0) == 0) rroce++;
  }
  if (p) pclose(p);
  result(malformed == 0, tag + "tshark_no_malformed", ex);
  result(expert_err == 0, tag + "tshark_no_expert_errors_or_warnings", ex);
  result(rroce == frames.size(), tag + "tshark_infiniband_layer_per_frame",
         std::to_string(rroce) + "/" + std::to_string(frames.size()));
}

static std::vector<uint16_t> sizes_around(uint16_t mtu) {
  std::vector<uint16_t> s = {0, 1, 2, 3, 4, 5, 7, 8, 9, 63, 64, 65, 255, 256, 257};
  for (int d = -1; d <= 1; d++) s.push_back(uint16_t(mtu + d));
  return s;
}

int main(int argc, char** argv) {
  waves_setup(argc, argv);
  uint64_t seed = 1;
  long fuzz_n = 100000;
  std::string out = "build/roce", tag = "w" + std::to_string(NB * 8);
  bool bench = false;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    if (a == "--seed" && i + 1 < argc) seed = strtoull(argv[++i], nullptr, 0);
    else if (a == "--fuzz" && i + 1 < argc) fuzz_n = strtol(argv[++i], nullptr, 0);
    else if (a == "--out" && i + 1 < argc) out = argv[++i];
    else if (a == "--tag" && i + 1 < argc) tag = argv[++i];
    else if (a == "--bench") bench = true;
  }
  Verilated::commandArgs(argc, argv);
  printf("roce testbench: data width %d bits, seed %llu\n", NB * 8, (unsigned long long)seed);
  extern int run_bench(const std::string&);
  if (bench) return run_bench(tag);

  test_reference();
  const std::string pre = tag + "_";
  std::vector<Bytes> pcap_frames;

  // ---- tx every opcode x payload sizes, tx->rx loopback -------------------------------------
  {
    Tb tb(seed);
    tb.p_pay = 0.8; tb.p_hdr_ready = 0.7; tb.p_rx_ready = 0.7;
    tb.t->loop_i = 1;
    tb.t->use_seg_i = 0;
    Expect e;
    uint16_t id = 0;
    for (uint8_t op : known_opcodes()) {
      std::vector<uint16_t> sz = {0};
      if (op_has_payload(op)) sz = sizes_around(4096);
      for (size_t k = 0; k < sz.size(); k++) {
        Hdr h = random_hdr(tb.rng, op, sz[k]);
        Bytes pay = random_bytes(tb.rng, sz[k]);
        tb.pkt_q.push_back(h);
        Tb::push_stream(tb.pay_q, pay);
        Hdr hb = h;
        hb.ip_id = id;
        e.frames.push_back(build(hb, pay));
        e.hdrs.push_back(expected_rx(h, id));
        if (!pay.empty()) e.pays.push_back(pay);
        e.group.push_back(ophex(op));
        id++;
      }
    }
    const size_t n = e.frames.size(), np = e.pays.size();
    bool ok = tb.run([&] { return tb.rx_hdrs.size() >= n && tb.rx_pays.size() >= np; }, 4000000);
    for (int i = 0; i < 200; i++) tb.step();
    result(ok, pre + "opcodes_no_hang", "rx " + std::to_string(tb.rx_hdrs.size()) + "/" +
                                          std::to_string(n));
    result(tb.tx_frames.size() == n, pre + "tx_frame_count",
           std::to_string(tb.tx_frames.size()) + "/" + std::to_string(n));
    check_groups(tb, e, pre, true, true);
    uint32_t drops = 0;
    for (int r = 0; r < kNumDrop; r++) drops += tb.drops(r);
    result(tb.good() == n && drops == 0, pre + "loop_counters",
           "good " + std::to_string(tb.good()) + " drops " + std::to_string(drops));
    pcap_frames.insert(pcap_frames.end(), tb.tx_frames.begin(), tb.tx_frames.end());
  }

  // ---- tx alone under output backpressure and payload gaps; then again with tx_pause_i flipping:
  // no frame starts while it is high, a started frame is finished ------------------------------
  for (int paused = 0; paused < 2; paused++) {
    Tb tb(seed + (paused ? 7 : 4));
    tb.p_pay = paused ? 0.8 : 0.5; tb.p_tx_ready = paused ? 0.7 : 0.5;
    tb.p_pause_flip = paused ? 0.05 : 0;
    tb.t->loop_i = 0;
    tb.t->use_seg_i = 0;
    std::vector<Bytes> want;
    const std::vector<uint8_t> ops = known_opcodes();
    for (int i = 0; i < 300; i++) {
      const uint8_t op = ops[tb.rng() % ops.size()];
      const uint16_t plen = op_has_payload(op) ? uint16_t(tb.rng() % 1100) : 0;
      Hdr h = random_hdr(tb.rng, op, plen);
      Bytes pay = random_bytes(tb.rng, plen);
      tb.pkt_q.push_back(h);
      Tb::push_stream(tb.pay_q, pay);
      h.ip_id = uint16_t(i);
      want.push_back(build(h, pay));
    }
    const bool ok = tb.run([&] { return tb.tx_frames.size() >= want.size(); }, 2000000);
    std::string why = ok ? "" : "timeout";
    for (size_t i = 0; why.empty() && i < want.size(); i++) {
      std::string d = diff_bytes(tb.tx_frames[i], want[i]);
      if (!d.empty()) why = "frame " + std::to_string(i) + ": " + d;
    }
    result(why.empty(), pre + (paused ? "tx_pause_300_frames_exact" : "tx_backpressure_300_random_frames"), why);
    if (!paused) {
      result(tb.t->tx_pkts_o == want.size(), pre + "tx_pkt_count_port", std::to_string(tb.t->tx_pkts_o));
      continue;
    }
    result(tb.tx_pause_violations == 0 && tb.tx_beats_paused > 0 && tb.tx_cycles_paused > 1000,
           pre + "tx_pause_holds_between_frames_only",
           "frame starts offered while paused " + std::to_string(tb.tx_pause_violations) +
               ", beats of started frames sent while paused " + std::to_string(tb.tx_beats_paused) +
               ", paused cycles " + std::to_string(tb.tx_cycles_paused));
    printf("INFO tx pause: %llu of %llu cycles paused, %llu beats of started frames sent meanwhile\n",
           (unsigned long long)tb.tx_cycles_paused, (unsigned long long)tb.cyc, (unsigned long long)tb.tx_beats_paused);
  }

  // ---- segmentation: message kinds x lengths x MTU, through tx and rx -----------------------
  {
    Tb tb(seed + 1);
    tb.p_pay = 0.9; tb.p_hdr_ready = 0.8; tb.p_rx_ready = 0.8;
    tb.t->loop_i = 1;
    tb.t->use_seg_i = 1;
    Expect e;
    std::vector<uint32_t> want_psn;
    uint16_t id = 0;
    static const char* kn[] = {"send", "send_imm", "send_inv", "write", "write_imm", "read_req",
                               "read_resp", "ack", "atomic_ack", "cmp_swap", "fetch_add",
                               "ud_send", "ud_send_imm", "cnp"};
    for (int mlog : {8, 10, 12}) {
      const uint32_t mtu = 1u << mlog;
      for (int kind = kSend; kind <= kCnp; kind++) {
        for (int uc = 0; uc < 2; uc++) {
          const bool uc_ok = kind == kSend || kind == kSendImm || kind == kWrite || kind == kWriteImm;
          if (uc && !uc_ok) continue;
          std::vector<uint32_t> lens = {0, 1, 255, 256, 257, mtu - 1, mtu, mtu + 1, 3 * mtu,
                                        3 * mtu + 5};
          if (kind == kReadReq) lens = {0, 1, mtu, mtu + 1, 10 * mtu + 3};
          else if (kind >= kAck && kind != kUdSend && kind != kUdSendImm) lens = {0};
          else if (kind == kUdSend || kind == kUdSendImm) lens = {0, 1, 255, mtu - 1, mtu};
          for (uint32_t len : lens) {
            Msg m;
            m.tmpl = random_hdr(tb.rng, 0, 0);
            m.kind = kind;
            m.len = len;
            m.uc = uc;
            m.pmtu_log2 = mlog;
            uint32_t npsn = 0;
            std::vector<Hdr> pk = segment(m, &npsn);
            want_psn.push_back(npsn);
            const bool carries = kind <= kWriteImm || kind == kReadResp || kind == kUdSend ||
                                 kind == kUdSendImm;
            Bytes msg_pay = random_bytes(tb.rng, carries ? len : 0);
            Tb::push_stream(tb.pay_q, msg_pay);
            tb.msg_q.push_back(m);
            size_t off = 0;
            std::string g = std::string(uc ? "uc_" : "") + kn[kind] + "_mtu" + std::to_string(mtu);
            for (const Hdr& h : pk) {
              Bytes pay(msg_pay.begin() + long(off), msg_pay.begin() + long(off + h.payload_len));
              off += h.payload_len;
              Hdr hb = h;
              hb.ip_id = id;
              e.frames.push_back(build(hb, pay));
              e.hdrs.push_back(expected_rx(h, id));
              if (!pay.empty()) e.pays.push_back(pay);
              e.group.push_back(g);
              id++;
            }
          }
        }
      }
    }
    const size_t n = e.frames.size(), np = e.pays.size();
    bool ok = tb.run([&] { return tb.rx_hdrs.size() >= n && tb.rx_pays.size() >= np; }, 8000000);
    for (int i = 0; i < 200; i++) tb.step();
    tb.next_psns.push_back(tb.t->next_psn_o);
    result(ok, pre + "seg_no_hang", "rx " + std::to_string(tb.rx_hdrs.size()) + "/" +
                                        std::to_string(n));
    check_groups(tb, e, pre + "seg_", true, true);
    bool psn_ok = tb.next_psns.size() == want_psn.size() + 1;
    std::string why;
    for (size_t i = 0; psn_ok && i < want_psn.size(); i++)
      if (tb.next_psns[i + 1] != want_psn[i]) {
        psn_ok = false;
        why = "message " + std::to_string(i) + " next psn " + hex(tb.next_psns[i + 1]) +
              " want " + hex(want_psn[i]);
      }
    result(psn_ok, pre + "seg_next_psn", why);
    pcap_frames.insert(pcap_frames.end(), tb.tx_frames.begin(), tb.tx_frames.end());
  }

  // ---- pcap and tshark ---------------------------------------------------------------------
  {
    const std::string path = out + "/tx_" + tag + ".pcap";
    write_pcap(path, pcap_frames);
    printf("wrote %zu frames to %s\n", pcap_frames.size(), path.c_str());
    tshark_check(path, pcap_frames, pre);
  }

  // ---- header queue full: a good frame waits for room, the MAC is stalled meanwhile ---------------
  // With hdr_ready held low, MetaDepth (16) good frames fill the header queue; the 17th is judged
  // good but has no slot, so it stays in judgement and the MAC side stops (drop_when_full_i = 0).
  // Then the queue drains and every frame arrives, header and payload byte-exact, none dropped.
  {
    Tb tb(seed + 5);
    tb.t->loop_i = 0;
    tb.t->use_seg_i = 0;
    tb.p_hdr_ready = 0;
    std::mt19937_64 r(seed + 6);
    std::vector<Hdr> want_h;
    std::vector<Bytes> want_p;
    const int nfr = 24;
    for (int i = 0; i < nfr; i++) {
      Hdr h = random_hdr(r, 0x04, uint16_t(1 + i * 7));
      const Bytes f = build(h, random_bytes(r, size_t(1 + i * 7)));
      const Parsed pr = parse(f, 0, 0xffffff, 4352);
      want_h.push_back(pr.h);
      want_p.push_back(pr.payload);
      Tb::push_stream(tb.rxin_q, f);
    }
    tb.run([&] { return false; }, 3000);
    const bool held = tb.rx_hdrs.empty() && tb.good() == 16 && !tb.rxin_q.empty() && tb.rxin_stalls > 0;
    result(held, pre + "hdrq_full_stalls_mac",
           "good " + std::to_string(tb.good()) + " hdrs " + std::to_string(tb.rx_hdrs.size()) +
           " left " + std::to_string(tb.rxin_q.size()) + " stalls " + std::to_string(tb.rxin_stalls));
    tb.p_hdr_ready = 1;
    const bool ok = tb.run([&] { return tb.rx_hdrs.size() >= size_t(nfr) && tb.rx_pays.size() >= size_t(nfr); },
                           100000);
    const std::string why = rx_exact(tb, want_h, want_p);
    result(ok && why.empty(), pre + "hdrq_full_then_all_delivered_exact", why);
  }

  // ---- rx pause request: watermarks with hysteresis, lossless with an obeying sender -------------
  // drop_when_full_i = 1 (never stalls the MAC), slow consumer: only the pause request keeps the
  // buffer from overflowing. Every frame arrives exact, none dropped, the request follows the fill.
  {
    Tb tb(seed + 8);
    tb.p_hdr_ready = 0.05; tb.p_rx_ready = 0.2;
    tb.t->drop_when_full_i = 1;
    tb.t->loop_i = 0;
    tb.t->use_seg_i = 0;
    tb.check_rx_pause = tb.rxin_obey_pause = true;
    std::mt19937_64 r(seed + 9);
    std::vector<Hdr> want_h;
    std::vector<Bytes> want_p;
    const int nfr = 400;
    for (int i = 0; i < nfr; i++) {
      const uint16_t plen = uint16_t(100 + r() % ((i % 3) ? 400 : 2000));
      Hdr h = random_hdr(r, 0x04, plen);
      const Bytes f = build(h, random_bytes(r, plen));
      const Parsed pr = parse(f, 0, 0xffffff, 4352);
      want_h.push_back(pr.h);
      want_p.push_back(pr.payload);
      Tb::push_stream(tb.rxin_q, f);
    }
    const bool ok = tb.run([&] { return tb.rx_hdrs.size() >= size_t(nfr) && tb.rx_pays.size() >= size_t(nfr); },
                           4000000);
    const std::string why = rx_exact(tb, want_h, want_p);
    result(ok && why.empty(), pre + "rx_pause_lossless_400_frames", why);
    result(tb.rx_pause_mismatch == 0 && tb.rx_pause_rises >= 5 && tb.rx_pause_falls >= 5,
           pre + "rx_pause_follows_watermarks",
           "mismatching cycles " + std::to_string(tb.rx_pause_mismatch) + ", XOFF " +
               std::to_string(tb.rx_pause_rises) + " XON " + std::to_string(tb.rx_pause_falls));
    printf("INFO rx pause: %llu XOFF / %llu XON over %llu cycles\n", (unsigned long long)tb.rx_pause_rises,
           (unsigned long long)tb.rx_pause_falls, (unsigned long long)tb.cyc);
  }

  // ---- malformed-frame fuzzer ------------------------------------------------------------------
  // mode 0: the receiver may stall the MAC (tready); mode 1 (drop_when_full_i): the MAC is never
  // stalled, heavy output backpressure, good frames that find no room are dropped as nobuf.
  for (int mode = 0; mode < 2; mode++) {
    const std::string fz = mode ? "fuzzdrop_" : "fuzz_";
    const long fuzz_frames = mode ? std::max(1L, fuzz_n / 4) : fuzz_n;
    Tb tb(seed + 2 + 10 * uint64_t(mode));
    tb.p_rxin = mode ? 1.0 : 0.9;
    tb.p_hdr_ready = mode ? 0.03 : 0.6;
    tb.p_rx_ready = mode ? 0.03 : 0.6;
    tb.t->drop_when_full_i = uint8_t(mode);
    tb.t->loop_i = 0;
    tb.t->use_seg_i = 0;
    const uint32_t qlo = 0x000100, qhi = 0x00ffff;
    tb.t->qpn_lo_i = qlo;
    tb.t->qpn_hi_i = qhi;
    const std::vector<uint8_t> ops = known_opcodes();
    std::vector<Hdr> want_h;
    std::vector<Bytes> want_p, want_pg;   // payloads: non-empty ones / one per good frame
    std::array<uint32_t, kNumDrop> want_drop{};
    std::map<std::string, long> kinds;
    auto gen = [&](std::mt19937_64& r) -> Bytes {
      const uint8_t op = ops[r() % ops.size()];
      uint16_t plen = 0;
      if (op_has_payload(op)) plen = uint16_t((r() % 8) ? r() % 300 : r() % 4200);
      Hdr h = random_hdr(r, op, plen);
      h.dest_qp = qlo + uint32_t(r() % (qhi - qlo + 1));
      h.ip_id = uint16_t(r());
      const int kind = int(r() % 18);
      Bytes f;
      switch (kind) {
        case 0: h.dest_qp = (r() & 1) ? uint32_t(r() % qlo) : qhi + 1 + uint32_t(r() % 1000);
          kinds["bad_qpn"]++; break;
        case 1: h.pkey = uint16_t(r() & 0x7ffe); kinds["bad_pkey"]++; break;
        case 2: h.opcode = uint8_t(0x15 + (r() % 3) * 0x30); kinds["bad_opcode"]++; break;
        default: break;
      }
      f = build(h, random_bytes(r, plen));
      switch (kind) {
        case 3: f.resize(r() % f.size()); kinds["truncated"]++; break;
        case 4: f[24 + (r() & 1)] ^= uint8_t(1 + r() % 255); kinds["bad_ip_csum"]++; break;
        case 5: f[54 + r() % (f.size() - 54)] ^= uint8_t(1 << (r() % 8)); kinds["bad_icrc"]++; break;
        case 6: f[36] = uint8_t(r()); kinds["bad_udp_port"]++; break;
        case 7: if (r() & 1) f[14] = uint8_t(0x46 + r() % 16 * 0x10); else f[43] |= uint8_t(1 + r() % 15);
          kinds["bad_version"]++; break;
        case 8: f = random_bytes(r, 1 + r() % 700); kinds["random_bytes"]++; break;
        case 9: f[r() % f.size()] ^= uint8_t(1 + r() % 255); kinds["random_corrupt"]++; break;
        case 10: f[12] = 0x86; f[13] = 0xdd; kinds["bad_ethertype"]++; break;
        case 11: { Bytes x = random_bytes(r, 1 + r() % 40); f.insert(f.end(), x.begin(), x.end());
          kinds["trailing_bytes"]++; break; }
        case 13: case 14: {
          if (kind == 13) { f[23] = uint8_t(r() % 2 ? 6 : r()); kinds["bad_proto"]++; }
          else { const int d = int(r() % 9) - 4; const int l = (f[16] << 8 | f[17]) + d;
                 f[16] = uint8_t(l >> 8); f[17] = uint8_t(l); kinds["bad_ip_len"]++; }
          f[24] = 0; f[25] = 0;
          const uint16_t cs = ip_checksum(&f[14]);
          f[24] = uint8_t(cs >> 8); f[25] = uint8_t(cs);
          break;
        }
        case 12: if (r() % 4 == 0) { f.resize(4353 + r() % 3000); kinds["oversize"]++; }
          else kinds["good"]++; break;
        default: if (kind >= 3) kinds["good"]++; break;
      }
      return f;
    };
    std::mt19937_64 gr(seed + 3 + 10 * uint64_t(mode));
    size_t queued = 0;
    auto feed = [&](long count) {
      for (long i = 0; i < count; i++) {
        Bytes f = gen(gr);
        Parsed p = parse(f, qlo, qhi, 4352);
        if (p.reason < 0) {
          want_h.push_back(p.h);
          want_pg.push_back(p.payload);
          if (!p.payload.empty()) want_p.push_back(p.payload);
        } else {
          want_drop[size_t(p.reason)]++;
        }
        if (f.empty()) f.push_back(0);   // an AXI-Stream frame has at least one byte
        Tb::push_stream(tb.rxin_q, f);
        queued++;
      }
    };
    // Feed in chunks so the stimulus queue stays small; check for progress (no hang).
    bool progress = true;
    long fed = 0;
    while (fed < fuzz_frames && progress) {
      const long c = std::min<long>(2000, fuzz_frames - fed);
      feed(c);
      fed += c;
      progress = tb.run([&] { return tb.rxin_q.size() < 4000; }, 20000000);
    }
    bool drained = progress && tb.run([&] { return tb.rxin_q.empty(); }, 20000000);
    if (mode == 0)
      drained = drained && tb.run([&] { return tb.rx_hdrs.size() >= want_h.size() &&
                                               tb.rx_pays.size() >= want_p.size(); }, 2000000);
    if (mode) { tb.p_hdr_ready = 1; tb.p_rx_ready = 1; }   // drain what was accepted
    for (int i = 0; i < (mode ? 20000 : 200); i++) tb.step();
    printf("%s %ld frames, %zu good, %llu cycles, %zu delivered; generated:", fz.c_str(), fed,
           want_h.size(), (unsigned long long)tb.cyc, tb.rx_hdrs.size());
    for (auto& k : kinds) printf(" %s=%ld", k.first.c_str(), k.second);
    printf("\n");
    result(drained, pre + fz + "no_hang", "rx " + std::to_string(tb.rx_hdrs.size()) + "/" +
                                             std::to_string(want_h.size()));
    for (int r = 0; r < kNumDrop; r++) {
      if (mode && r == kDropNoBuf) continue;
      printf("  drop %-10s want %6u got %6u\n", drop_name(r), want_drop[size_t(r)], tb.drops(r));
      result(tb.drops(r) == want_drop[size_t(r)], pre + fz + "drop_count_" + drop_name(r),
             "got " + std::to_string(tb.drops(r)) + " want " + std::to_string(want_drop[size_t(r)]));
    }
    const uint32_t nobuf = mode ? tb.drops(kDropNoBuf) : 0;
    result(tb.good() + nobuf == want_h.size() && tb.good() == tb.rx_hdrs.size(),
           pre + fz + "good_count" + (mode ? "_plus_nobuf" : ""),
           "good " + std::to_string(tb.good()) + " nobuf " + std::to_string(nobuf) + " delivered " +
               std::to_string(tb.rx_hdrs.size()) + " want " + std::to_string(want_h.size()));
    if (mode) {
      printf("  drop %-10s %u (good frames without room)\n", drop_name(kDropNoBuf), nobuf);
      result(nobuf > 0, pre + fz + "nobuf_path_exercised", "no nobuf drop happened");
      result(tb.rxin_stalls == 0, pre + fz + "mac_never_stalled",
             std::to_string(tb.rxin_stalls) + " stalled beats");
    }
    // Delivered frames: an in-order subsequence (mode 1) or exactly (mode 0) the good frames,
    // headers and payloads byte-exact, nothing from a bad frame.
    std::string why;
    size_t j = 0, pi = 0;
    for (size_t i = 0; why.empty() && i < tb.rx_hdrs.size(); i++) {
      while (j < want_h.size() && !(tb.rx_hdrs[i] == want_h[j]) && mode) j++;
      if (j >= want_h.size()) { why = "header " + std::to_string(i) + " matches no good frame"; break; }
      if (!(tb.rx_hdrs[i] == want_h[j])) { why = "header " + std::to_string(i) + ": " + diff_hdr(tb.rx_hdrs[i], want_h[j]); break; }
      if (!want_pg[j].empty()) {
        if (pi >= tb.rx_pays.size()) why = "payload of header " + std::to_string(i) + " missing";
        else if (tb.rx_pays[pi] != want_pg[j]) why = "payload of header " + std::to_string(i) + ": " + diff_bytes(tb.rx_pays[pi], want_pg[j]);
        pi++;
      }
      j++;
    }
    if (why.empty() && mode == 0 && tb.rx_hdrs.size() != want_h.size()) why = "header count";
    if (why.empty() && pi != tb.rx_pays.size()) why = "extra payloads (bad frame delivered)";
    result(why.empty(), pre + fz + "delivered_headers_and_payloads_exact", why);
  }

  printf("%d passed, %d failed\n", g_pass, g_fail);
  return g_fail ? 1 : 0;
}

// ---- benchmark: cycles per packet ---------------------------------------------------------------
int run_bench(const std::string& tag) {
  const int n = 64;
  struct Case { const char* name; uint8_t op; uint16_t plen; };
  const Case cases[] = {{"4096B WRITE MIDDLE", 0x07, 4096}, {"64B SEND ONLY", 0x04, 64},
                        {"ACK (no payload)", 0x11, 0}};
  printf("| width | direction | packet | frame bytes | cycles/packet | line Gb/s at 250 MHz (frame+FCS+preamble+IFG) |"
         " cycles/packet at 100G line rate |\n");
  printf("|---|---|---|---|---|---|---|\n");
  for (const Case& c : cases) {
    std::mt19937_64 rng(7);
    std::vector<Bytes> frames;
    double line = 0;
    // tx: descriptors and payload always ready, output always ready.
    {
      Tb tb(7);
      tb.t->loop_i = 0;
      tb.t->use_seg_i = 0;
      for (int i = 0; i < n; i++) {
        Hdr h = random_hdr(rng, c.op, c.plen);
        Bytes pay = random_bytes(rng, c.plen);
        tb.pkt_q.push_back(h);
        Tb::push_stream(tb.pay_q, pay);
        Hdr hb = h;
        hb.ip_id = uint16_t(i);
        frames.push_back(build(hb, pay));
      }
      tb.run([&] { return tb.tx_frames.size() >= size_t(n); }, 1000000);
      const double cpp = double(tb.tx_last_cyc.back() - tb.tx_last_cyc.front()) / (n - 1);
      // Ethernet: frame + FCS 4 + preamble/SFD 8 + IFG 12, at 100 Gb/s, 250 MHz clock.
      line = (frames[0].size() + 24) * 8.0 / 100e9 * 250e6;
      printf("| %d | tx | %s | %zu | %.2f | %.1f | %.2f |\n", NB * 8, c.name, frames[0].size(), cpp,
             (frames[0].size() + 24) * 8.0 * 250e6 / cpp / 1e9, line);
    }
    {
      Tb tb(7);
      tb.t->loop_i = 0;
      for (const Bytes& f : frames) Tb::push_stream(tb.rxin_q, f);
      std::vector<uint64_t> done;
      size_t seen = 0;
      while (seen < size_t(n) && tb.cyc < 1000000) {
        tb.step();
        if (tb.rx_hdrs.size() > seen) { seen = tb.rx_hdrs.size(); done.push_back(tb.cyc); }
      }
      const double cpp = done.size() > 1 ? double(done.back() - done.front()) / double(done.size() - 1) : 0;
      printf("| %d | rx | %s | %zu | %.2f | %.1f | %.2f |\n", NB * 8, c.name, frames[0].size(), cpp,
             (frames[0].size() + 24) * 8.0 * 250e6 / cpp / 1e9, line);
    }
  }
  {
    // 64 KiB RDMA WRITE through the segmenter at MTU 4096 (16 packets), tx output always ready.
    std::mt19937_64 rng(9);
    Tb tb(9);
    tb.t->loop_i = 0;
    tb.t->use_seg_i = 1;
    const int msgs = 4;
    for (int i = 0; i < msgs; i++) {
      Msg m;
      m.tmpl = random_hdr(rng, 0, 0);
      m.kind = kWrite;
      m.len = 65536;
      m.pmtu_log2 = 12;
      tb.msg_q.push_back(m);
      Tb::push_stream(tb.pay_q, random_bytes(rng, m.len));
    }
    tb.run([&] { return tb.tx_frames.size() >= size_t(16 * msgs); }, 1000000);
    const double cpp = double(tb.tx_last_cyc.back() - tb.tx_last_cyc.front()) / (16 * msgs - 1);
    printf("| %d | tx (segmenter) | 64 KiB WRITE, MTU 4096 (FIRST/MIDDLE/LAST) | 4154-4170 | %.2f | %.1f | %.2f |\n",
           NB * 8, cpp, (4154 + 24) * 8.0 * 250e6 / cpp / 1e9, (4154 + 24) * 8.0 / 100e9 * 250e6);
  }
  (void)tag;
  return 0;
}
