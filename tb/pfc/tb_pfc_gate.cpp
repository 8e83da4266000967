// roce_pfc_gate testbench (TB_DATA_WIDTH bits): random frames (IPv4 with random DSCP/ECN bytes,
// and non-IPv4 frames, priority 0) through the gate under random output backpressure and input
// gaps while each of the eight pause bits flips at random. Checks: every frame leaves whole,
// byte for byte and in order; no first beat is newly offered while its priority was paused in
// the cycle before (the gate's decision is registered; the priority taken from the frame as
// sent, as roce_vlan_ins puts it into the PCP); an offered beat
// is never withdrawn or changed; everything drains once the pauses end. Then a directed case: with
// priority 3 paused a frame of priority 5 passes and a frame of priority 3 waits 2000 cycles
// without being offered, and leaves once released.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include "Vroce_pfc_gate.h"
#include "tb_check.h"
#include "verilated.h"

static constexpr unsigned NB = TB_DATA_WIDTH / 8;

template <class T>
static void put_bytes(T &sig, const uint8_t *b) {
  if constexpr (NB <= 8) {
    uint64_t v = 0;
    for (unsigned i = 0; i < NB; i++) v |= uint64_t(b[i]) << (8 * i);
    sig = v;
  } else {
    for (unsigned i = 0; i < NB / 4; i++)
      sig[i] = uint32_t(b[4 * i]) | uint32_t(b[4 * i + 1]) << 8 | uint32_t(b[4 * i + 2]) << 16 | uint32_t(b[4 * i + 3]) << 24;
  }
}
template <class T>
static void get_bytes(const T &sig, uint8_t *b) {
  if constexpr (NB <= 8) {
    uint64_t v = sig;
    for (unsigned i = 0; i < NB; i++) b[i] = uint8_t(v >> (8 * i));
  } else {
    for (unsigned i = 0; i < NB / 4; i++)
      for (int k = 0; k < 4; k++) b[4 * i + k] = uint8_t(sig[i] >> (8 * k));
  }
}

static int prio_of(const std::vector<uint8_t> &f) { return f[12] == 0x08 && f[13] == 0x00 ? f[15] >> 5 : 0; }

struct Tb {
  Vroce_pfc_gate m;
  std::mt19937_64 rng;
  std::deque<std::vector<uint8_t>> in, expect;  // frames to send; frames sent, not yet out
  size_t in_off = 0;
  std::vector<uint8_t> cur;        // output frame being collected
  bool prev_valid = false, prev_ready = false;
  std::vector<uint8_t> prev_data;  // the beat offered last cycle
  uint64_t offered_paused = 0, withdrawn = 0, bad_frames = 0, out_frames = 0, cycles = 0;
  double p_in = 0.8, p_ready = 0.7, p_flip = 0.01;
  uint8_t pause = 0, pause_prev = 0;  // pause_i this cycle and the last (the gate follows it one cycle late)

  explicit Tb(uint64_t seed) : rng(seed) {
    m.clk_i = 0;
    m.rst_ni = 0;
    m.s_tvalid_i = 0;
    m.m_tready_i = 0;
    m.pause_i = 0;
    m.eval();
    for (int i = 0; i < 3; i++) tick();
    m.rst_ni = 1;
  }
  bool coin(double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; }
  std::vector<uint8_t> frame(int prio) {  // prio < 0: random kind
    size_t len = 60 + rng() % 600;
    std::vector<uint8_t> f(len);
    for (auto &x : f) x = uint8_t(rng());
    if (prio >= 0 || rng() % 5) {
      f[12] = 0x08, f[13] = 0x00;
      if (prio >= 0) f[15] = uint8_t(prio << 5 | (f[15] & 0x1F));
    } else {
      f[12] = 0x08, f[13] = 0x06;  // ARP: priority 0
    }
    return f;
  }
  void tick() {
    m.clk_i = 1;
    m.eval();
    m.clk_i = 0;
    m.eval();
  }
  // One cycle: drive, evaluate, check the output, then the clock edge.
  void cycle(bool flip) {
    pause_prev = pause;
    if (flip)
      for (int p = 0; p < 8; p++)
        if (coin(p_flip)) pause ^= uint8_t(1u << p);
    m.pause_i = pause;
    // input: keep an offered beat until taken (AXI-Stream)
    bool offer = m.s_tvalid_i ? true : (!in.empty() && coin(p_in));
    if (offer && !in.empty()) {
      const auto &f = in.front();
      uint8_t b[NB] = {};
      size_t n = std::min<size_t>(NB, f.size() - in_off);
      std::memcpy(b, f.data() + in_off, n);
      put_bytes(m.s_tdata_i, b);
      m.s_tkeep_i = n == 64 ? ~0ull : (1ull << n) - 1;
      m.s_tlast_i = in_off + n >= f.size();
      m.s_tvalid_i = 1;
    } else {
      m.s_tvalid_i = 0;
    }
    bool ready = coin(p_ready);
    m.m_tready_i = ready;
    m.eval();
    uint8_t ob[NB];
    get_bytes(m.m_tdata_o, ob);
    std::vector<uint8_t> odata(ob, ob + NB);
    // an offered beat that was not taken stays offered, unchanged
    if (prev_valid && !prev_ready && (!m.m_tvalid_o || odata != prev_data)) withdrawn++;
    // a first beat newly offered while its priority is paused
    bool first = cur.empty();
    if (m.m_tvalid_o && first && !(prev_valid && !prev_ready) && !expect.empty() &&
        (pause_prev >> prio_of(expect.front()) & 1))
      offered_paused++;
    if (m.m_tvalid_o && ready) {
      uint64_t keep = m.m_tkeep_o;
      for (unsigned i = 0; i < NB; i++)
        if (keep >> i & 1) cur.push_back(ob[i]);
      if (m.m_tlast_o) {
        if (expect.empty() || cur != expect.front()) bad_frames++;
        if (!expect.empty()) expect.pop_front();
        out_frames++;
        cur.clear();
      }
    }
    prev_valid = m.m_tvalid_o, prev_ready = ready, prev_data = odata;
    if (m.s_tvalid_i && m.s_tready_o) {
      size_t n = std::min<size_t>(NB, in.front().size() - in_off);
      if (in_off == 0) expect.push_back(in.front());
      in_off += n;
      if (in_off >= in.front().size()) in.pop_front(), in_off = 0;
      tick();
      m.s_tvalid_i = 0;  // the next beat is chosen anew next cycle
    } else {
      tick();
    }
    cycles++;
  }
};

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  uint64_t seed = 1, frames = 400;
  for (int i = 1; i + 1 < argc; i++) {
    if (!std::strcmp(argv[i], "--seed")) seed = std::strtoull(argv[++i], nullptr, 0);
    else if (!std::strcmp(argv[i], "--frames")) frames = std::strtoull(argv[++i], nullptr, 0);
  }
  std::printf("seed %llu, %u bits, %llu frames\n", (unsigned long long)seed, TB_DATA_WIDTH, (unsigned long long)frames);
  TbResults r;
  {
    Tb t(seed);
    for (uint64_t i = 0; i < frames; i++) t.in.push_back(t.frame(-1));
    const uint64_t n = frames;
    while ((!t.in.empty() || !t.expect.empty()) && t.cycles < 400 * n) t.cycle(true);
    // whatever is left drains once nothing is paused
    t.pause = 0;
    for (int i = 0; i < 100000 && (!t.in.empty() || !t.expect.empty()); i++) t.cycle(false);
    r.check(t.out_frames == n && t.bad_frames == 0 && t.in.empty() && t.expect.empty(), "pfc-gate-frames-exact",
            "%llu of %llu frames out, %llu differ", (unsigned long long)t.out_frames, (unsigned long long)n,
            (unsigned long long)t.bad_frames);
    r.check(t.offered_paused == 0, "pfc-gate-no-start-while-paused", "%llu first beats offered while paused",
            (unsigned long long)t.offered_paused);
    r.check(t.withdrawn == 0, "pfc-gate-axis-stable", "%llu offered beats withdrawn or changed",
            (unsigned long long)t.withdrawn);
  }
  {
    // directed: priority 3 held, priority 5 passes, 3 released
    Tb t(seed + 1);
    t.p_in = 1.0, t.p_ready = 1.0;
    t.pause = 1u << 3;
    t.in.push_back(t.frame(5));
    for (int i = 0; i < 500 && t.out_frames < 1; i++) t.cycle(false);
    bool five = t.out_frames == 1;
    t.in.push_back(t.frame(3));
    bool offered = false;
    for (int i = 0; i < 2000; i++) {
      t.cycle(false);
      offered = offered || t.prev_valid;
    }
    bool held = t.out_frames == 1 && !offered;
    t.pause = 0;
    for (int i = 0; i < 500 && t.out_frames < 2; i++) t.cycle(false);
    r.check(five && held && t.out_frames == 2 && t.bad_frames == 0 && t.offered_paused == 0, "pfc-gate-directed",
            "priority 5 passed %d, priority 3 held %d, %llu frames out", int(five), int(held),
            (unsigned long long)t.out_frames);
  }
  return r.exit_code();
}
