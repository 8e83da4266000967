// rnic_cdc_frame_fifo across two clocks (DataWidth 64, 16 beats deep): random frames, random
// reader stalls, bad frames (tuser), frames longer than the FIFO and, without backpressure,
// overflow. Every frame that comes out must be an input frame, whole and byte for byte, in
// order; with backpressure exactly the good frames that fit come out.
//   cdc_fifo_tb [seed]     (the model's Backpressure parameter is fixed at verilation: TB_BP)
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <random>
#include <vector>

#include "Vrnic_cdc_frame_fifo.h"
#include "tb_check.h"

struct Beat {
  uint64_t data;
  uint8_t keep;
  bool last, user;
};
using Frame = std::vector<Beat>;

struct Run {
  int in_frames = 0, out_frames = 0, drops = 0, expected_drops = 0;
  bool order_ok = true, exact = true;
  std::vector<Frame> good;  // frames that may come out (good and not longer than the FIFO)
};

static Run run(uint64_t seed, unsigned wper, unsigned rper, int nframes, int bad_pct, int long_pct,
               int ready_pct) {
  std::mt19937_64 rng(seed);
  Vrnic_cdc_frame_fifo m;
  Run r;
  std::vector<Frame> in;
  for (int f = 0; f < nframes; f++) {
    bool lng = (int)(rng() % 100) < long_pct;
    int len = lng ? 17 + (int)(rng() % 8) : 1 + (int)(rng() % 12);
    bool bad = (int)(rng() % 100) < bad_pct;
    int bad_at = (int)(rng() % len);
    Frame fr;
    for (int b = 0; b < len; b++) {
      bool last = b == len - 1;
      fr.push_back({rng(), (uint8_t)(last ? (0xFFu >> (rng() % 8)) : 0xFFu), last, bad && b == bad_at});
    }
    if (bad || lng) r.expected_drops++;
    else r.good.push_back(fr);
    in.push_back(fr);
  }
  r.in_frames = nframes;
  m.rst_w_ni = 0; m.rst_r_ni = 0; m.clk_w_i = 0; m.clk_r_i = 0; m.s_tvalid_i = 0; m.m_tready_i = 0;
  m.eval();
  m.rst_w_ni = 1; m.rst_r_ni = 1;
  m.eval();
  size_t fi = 0, bi = 0, gi = 0;
  Frame cur;
  uint64_t tw = wper, tr = rper;
  auto drive = [&] {
    if (fi < in.size()) {
      const Beat &b = in[fi][bi];
      m.s_tvalid_i = rng() % 8 != 0;  // the writer pauses now and then too
      m.s_tdata_i = b.data; m.s_tkeep_i = b.keep; m.s_tlast_i = b.last; m.s_tuser_i = b.user;
    } else {
      m.s_tvalid_i = 0;
    }
  };
  drive();
  m.eval();
  int idle = 0;
  for (uint64_t steps = 0; steps < 400000 && idle < 200; steps++) {
    bool wedge = tw <= tr;
    if (wedge) {
      bool acc = m.s_tvalid_i && m.s_tready_o;
      m.clk_w_i = 1; m.eval();
      if (m.drop_o) r.drops++;
      if (acc && ++bi == in[fi].size()) { fi++; bi = 0; }
      m.clk_w_i = 0; m.eval();
      drive(); m.eval();
      tw += wper;
    } else {
      bool got = m.m_tvalid_o && m.m_tready_i;
      Beat b{m.m_tdata_o, (uint8_t)m.m_tkeep_o, (bool)m.m_tlast_o, false};
      m.clk_r_i = 1; m.eval();
      m.clk_r_i = 0; m.eval();
      if (got) {
        cur.push_back(b);
        if (b.last) {
          // the next good frame in order that matches: frames between may have been dropped
          // (overflow) only without backpressure
          size_t g = gi;
          auto same = [&](const Frame &a) {
            if (a.size() != cur.size()) return false;
            for (size_t i = 0; i < a.size(); i++)
              if (a[i].data != cur[i].data || a[i].keep != cur[i].keep || a[i].last != cur[i].last) return false;
            return true;
          };
          while (g < r.good.size() && !same(r.good[g])) g++;
          if (g == r.good.size()) r.exact = false;
          else {
            if (TB_BP && g != gi) r.order_ok = false;
            gi = g + 1;
          }
          r.out_frames++;
          cur.clear();
        }
      }
      m.m_tready_i = (int)(rng() % 100) < ready_pct;
      m.eval();
      tr += rper;
    }
    idle = (fi == in.size() && !m.m_tvalid_o) ? idle + 1 : 0;
  }
  if (!cur.empty()) r.exact = false;  // a partial frame came out
  m.final();
  return r;
}

int main(int argc, char **argv) {
  uint64_t seed = argc > 1 ? strtoull(argv[1], nullptr, 0) : 1;
  std::printf("seed %llu backpressure %d\n", (unsigned long long)seed, TB_BP);
  TbResults t;
  const char *bp = TB_BP ? "bp" : "nobp";
  struct { const char *name; unsigned w, r; } ratios[] = {{"w322-r250", 3103, 4000}, {"w250-r322", 4000, 3103}};
  for (auto &q : ratios) {
    char n[96];
    // clean frames, reader stalls half the time
    Run a = run(seed, q.w, q.r, 300, 0, 0, 50);
    std::snprintf(n, sizeof n, "cdcfifo-%s-%s-clean", bp, q.name);
    if (TB_BP)
      t.check(a.exact && a.order_ok && a.out_frames == 300 && a.drops == 0, n,
              "out %d of 300, drops %d, exact %d, order %d", a.out_frames, a.drops, a.exact, a.order_ok);
    else  // without backpressure a slow reader loses whole frames, never parts of them
      t.check(a.exact && a.out_frames + a.drops == 300 && a.out_frames > 0, n,
              "out %d + drops %d != 300 or not exact (%d)", a.out_frames, a.drops, a.exact);
    // bad frames (FCS error marked on any beat) and frames longer than the FIFO
    Run b = run(seed + 1, q.w, q.r, 300, 15, 10, 70);
    std::snprintf(n, sizeof n, "cdcfifo-%s-%s-bad-and-long", bp, q.name);
    if (TB_BP)
      t.check(b.exact && b.order_ok && b.out_frames == (int)b.good.size() && b.drops == b.expected_drops, n,
              "out %d of %zu good, drops %d of %d expected, exact %d, order %d", b.out_frames, b.good.size(),
              b.drops, b.expected_drops, b.exact, b.order_ok);
    else
      t.check(b.exact && b.out_frames + b.drops == 300 && b.drops >= b.expected_drops, n,
              "out %d + drops %d != 300 (expected drops >= %d), exact %d", b.out_frames, b.drops,
              b.expected_drops, b.exact);
    if (!TB_BP) {
      // a reader that takes 1 beat in 5: the FIFO overflows, and still only whole frames leave
      Run c = run(seed + 2, q.w, q.r, 300, 0, 0, 20);
      std::snprintf(n, sizeof n, "cdcfifo-%s-%s-overflow", bp, q.name);
      t.check(c.exact && c.drops > 0 && c.out_frames > 0 && c.out_frames + c.drops == 300, n,
              "out %d, drops %d, exact %d", c.out_frames, c.drops, c.exact);
    }
  }
  return t.exit_code();
}
