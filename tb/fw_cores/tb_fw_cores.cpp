// tb_fw_cores: testbench of the multi-core stream blocks (tb/fw_cores/fw_cores_tb_top.sv):
// rnic_qpn_route (one stream to the core owning each beat's QPN) and rnic_rr_arb (one stream per
// core into one engine port, round-robin, transfers never split), each at 1, 2 and 4 cores.
// Sources offer random beats and hold each until taken; sinks take them under random back
// pressure in phases (free, light, heavy, one output or the engine stopped for a long time).
// Router checks: every beat reaches exactly the owner (QPN mod N; a beat of no QP core 0), once,
// byte for byte, in input order per output; an offer waiting for its sink stays the same; with
// one stalled output the others still take beats; at one core the router is wires (a beat passes
// in the cycle it is offered). Arbiter checks: every beat of every source comes out once, byte
// for byte, in order per source, with its source and last flag; a transfer's beats are never
// interleaved with another's; only the granted input sees ready; each grant goes to the first
// valid input after the one served last (a model of the pointer), so no input waits more than
// N-1 transfers; an offer waiting for the engine stays the same; at one core the arbiter is
// wires. Coverage lines count each case. Options: --seed N, --cycles N.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "Vfw_cores_tb_top.h"
#include "main/sim_waves.h"
#include "tb_check.h"
#include "verilated.h"

static std::mt19937_64 rng;
static unsigned pct() { return unsigned(rng() % 100); }

// ---- the router's ports of one instance -----------------------------------------------------
struct RoutePorts {
  unsigned n;
  std::function<void(bool, uint16_t, uint32_t, bool)> drive;  // valid, data, qpn, any
  std::function<bool()> in_ready;
  std::function<unsigned()> out_valid;
  std::function<void(unsigned)> out_ready;
  std::function<uint16_t(unsigned)> out_data;
};

struct RouteTb {
  RoutePorts p;
  std::string tag;
  bool offering = false;
  uint16_t data = 0;
  uint32_t qpn = 0;
  bool any = false;
  unsigned src_pct = 70;
  std::vector<std::deque<uint16_t>> expect;
  std::vector<unsigned> ready_pct, stall_left;
  unsigned prev_valid = 0, prev_ready = 0;
  std::vector<uint16_t> prev_data;
  uint64_t sent = 0, got = 0, bad = 0, unstable = 0, any_sent = 0, same_cycle = 0, not_same = 0,
           passed_stalled = 0, drain_and_take = 0;
  std::vector<uint64_t> per_out;
  std::string first_bad;

  RouteTb(RoutePorts ports, const char *t)
      : p(std::move(ports)), tag(t), expect(p.n), ready_pct(p.n, 80), stall_left(p.n, 0),
        prev_data(p.n, 0), per_out(p.n, 0) {}

  unsigned owner() const { return any ? 0u : (qpn & (p.n - 1u)); }
  void new_beat() {
    data = uint16_t(rng());
    qpn = uint32_t(rng()) & 0xFFFFFFu;
    any = pct() < 10;
  }
  // inputs for the coming edge
  void drive() {
    if (!offering && pct() < src_pct) {
      new_beat();
      offering = true;
    }
    p.drive(offering, data, qpn, any);
    unsigned r = 0;
    for (unsigned k = 0; k < p.n; k++) {
      if (pct() < 1) stall_left[k] = 20 + unsigned(rng() % 100);
      bool rd = stall_left[k] ? (stall_left[k]--, false) : pct() < ready_pct[k];
      r |= unsigned(rd) << k;
    }
    p.out_ready(r);
  }
  void step(unsigned ready_now) {
    unsigned v = p.out_valid();
    bool taken_in = offering && p.in_ready();
    // a beat taken now is behind every beat already in its output (at one core it is the one
    // the output shows in this very cycle)
    if (taken_in) {
      expect[owner()].push_back(data);
      sent++;
      any_sent += any;
    }
    // an output that waited must offer the same beat
    for (unsigned k = 0; k < p.n; k++) {
      bool was_wait = (prev_valid >> k & 1) && !(prev_ready >> k & 1);
      if (was_wait && (!(v >> k & 1) || p.out_data(k) != prev_data[k])) unstable++;
    }
    unsigned stalled = 0;
    for (unsigned k = 0; k < p.n; k++)
      if ((v >> k & 1) && !(ready_now >> k & 1)) stalled |= 1u << k;
    for (unsigned k = 0; k < p.n; k++) {
      if ((v >> k & 1) && (ready_now >> k & 1)) {
        uint16_t d = p.out_data(k);
        if (expect[k].empty() || expect[k].front() != d) {
          if (!bad++) first_bad = "output " + std::to_string(k) + " got " + std::to_string(d);
        } else {
          expect[k].pop_front();
        }
        got++;
        per_out[k]++;
        if (stalled & ~(1u << k)) passed_stalled++;
        if (taken_in && owner() == k && p.n > 1) drain_and_take++;
      }
    }
    if (p.n == 1 && offering) {
      if (v & 1) same_cycle++;
      else not_same++;
    }
    if (taken_in) offering = false;
    prev_valid = v;
    prev_ready = ready_now;
    for (unsigned k = 0; k < p.n; k++) prev_data[k] = p.out_data(k);
  }
  void report(TbResults &r) {
    char name[96];
    uint64_t left = 0;
    for (auto &q : expect) left += q.size();
    std::snprintf(name, sizeof name, "route%s-owner-exact-in-order", tag.c_str());
    r.check(bad == 0 && sent > 1000, name, "%llu wrong of %llu (%s)", (unsigned long long)bad,
            (unsigned long long)got, first_bad.c_str());
    std::snprintf(name, sizeof name, "route%s-no-loss", tag.c_str());
    r.check(left == 0 && got == sent, name, "sent %llu got %llu left %llu", (unsigned long long)sent,
            (unsigned long long)got, (unsigned long long)left);
    std::snprintf(name, sizeof name, "route%s-offer-stable", tag.c_str());
    r.check(unstable == 0, name, "%llu offers changed while waiting", (unsigned long long)unstable);
    bool cov = any_sent > 0;
    for (auto c : per_out) cov = cov && c > 100;
    if (p.n > 1) cov = cov && passed_stalled > 0 && drain_and_take > 0;
    std::snprintf(name, sizeof name, "route%s-coverage", tag.c_str());
    r.check(cov, name, "per output / no-QP / past a stalled output / drain+take");
    std::printf("INFO route%s: %llu beats, %llu of no QP, %llu past a stalled output, %llu drain+take;", tag.c_str(),
                (unsigned long long)sent, (unsigned long long)any_sent, (unsigned long long)passed_stalled,
                (unsigned long long)drain_and_take);
    for (unsigned k = 0; k < p.n; k++) std::printf(" out%u %llu", k, (unsigned long long)per_out[k]);
    std::printf("\n");
    if (p.n == 1) {
      std::snprintf(name, sizeof name, "route%s-wires", tag.c_str());
      r.check(not_same == 0 && same_cycle > 0, name, "%llu offers not passed in their cycle", (unsigned long long)not_same);
    }
  }
};

// ---- the arbiter's ports of one instance ----------------------------------------------------
struct ArbPorts {
  unsigned n;
  std::function<void(unsigned, const std::vector<uint16_t> &, unsigned)> drive;  // valid, data, last
  std::function<unsigned()> in_ready;
  std::function<bool()> out_valid;
  std::function<void(bool)> out_ready;
  std::function<uint16_t()> out_data;
  std::function<bool()> out_last;
  std::function<unsigned()> out_src;
};

struct Beat {
  uint16_t d;
  bool last;
};

struct ArbTb {
  ArbPorts p;
  std::string tag;
  std::vector<std::deque<Beat>> todo;  // per source: beats not yet offered
  std::vector<bool> offering, open;  // open: a transfer begun and not yet ended at this source
  std::vector<Beat> cur;
  bool draining = false;  // sources offer no new transfer, but end the ones they began
  unsigned src_pct = 60, ready_pct = 80, stall_left = 0;
  unsigned ptr = 0;         // the model's round-robin pointer
  int in_xfer = -1;         // the source whose transfer is under way at the output
  bool prev_wait = false;
  uint16_t prev_d = 0;
  bool prev_last = false;
  unsigned prev_src = 0;
  uint64_t beats = 0, bad = 0, interleaved = 0, wrong_grant = 0, ready_leak = 0, unstable = 0,
           starved = 0, xfers = 0, switches = 0, mid_stall = 0, gaps_in_xfer = 0, wraps = 0,
           same_cycle = 0, not_same = 0, handshake_mismatch = 0;
  std::vector<uint64_t> per_src, waited;
  std::string first_bad;
  unsigned last_src_done = ~0u;

  ArbTb(ArbPorts ports, const char *t)
      : p(std::move(ports)), tag(t), todo(p.n), offering(p.n, false), open(p.n, false), cur(p.n),
        per_src(p.n, 0), waited(p.n, 0) {}

  void refill(unsigned i) {
    while (todo[i].size() < 8) {
      unsigned len = 1 + unsigned(rng() % 4);
      for (unsigned b = 0; b < len; b++) todo[i].push_back(Beat{uint16_t(rng()), b + 1 == len});
    }
  }
  void drive() {
    unsigned v = 0, l = 0;
    std::vector<uint16_t> d(p.n, 0);
    for (unsigned i = 0; i < p.n; i++) {
      if (!offering[i] && (draining ? bool(open[i]) : pct() < src_pct)) {
        refill(i);
        cur[i] = todo[i].front();
        todo[i].pop_front();
        offering[i] = true;
        open[i] = !cur[i].last;
      }
      v |= unsigned(offering[i]) << i;
      l |= unsigned(offering[i] && cur[i].last) << i;
      d[i] = cur[i].d;
    }
    p.drive(v, d, l);
    bool rd;
    if (pct() < 1) stall_left = 20 + unsigned(rng() % 100);
    rd = stall_left ? (stall_left--, false) : pct() < ready_pct;
    p.out_ready(rd);
  }
  void step(bool ready_now) {
    bool v = p.out_valid();
    unsigned iv = 0;
    for (unsigned i = 0; i < p.n; i++) iv |= unsigned(offering[i]) << i;
    unsigned irdy = p.in_ready();
    if (prev_wait && (!v || p.out_data() != prev_d || p.out_last() != prev_last || p.out_src() != prev_src)) unstable++;
    if (p.n == 1 && offering[0]) {
      if (v) same_cycle++;
      else not_same++;
    }
    if (v) {
      unsigned s = p.out_src();
      // only the granted input sees ready
      if (irdy & ~(1u << s)) ready_leak++;
      if (in_xfer >= 0 && unsigned(in_xfer) != s) interleaved++;
      if (in_xfer < 0 && !prev_wait) {
        // a new grant: the first valid input at or after the pointer
        unsigned want = ~0u;
        for (unsigned k = 0; k < p.n; k++)
          if (iv >> ((ptr + k) % p.n) & 1) {
            want = (ptr + k) % p.n;
            break;
          }
        if (want != s) wrong_grant++;
        // who waited: every other valid input lost one more grant
        for (unsigned k = 0; k < p.n; k++)
          if (k != s && (iv >> k & 1)) {
            if (++waited[k] > p.n - 1) starved++;
          }
        waited[s] = 0;
        if (last_src_done != ~0u && last_src_done != s) switches++;
      }
      if (!ready_now && in_xfer >= 0) mid_stall++;
      // the beat leaves exactly when its source sees ready
      if (ready_now != bool(irdy >> s & 1)) handshake_mismatch++;
      if (ready_now) {
        if (!offering[s] || p.out_data() != cur[s].d || p.out_last() != cur[s].last) {
          if (!bad++) first_bad = "source " + std::to_string(s) + " beat " + std::to_string(beats);
        }
        beats++;
        per_src[s]++;
        offering[s] = false;
        if (p.out_last()) {
          in_xfer = -1;
          xfers++;
          if (p.n > 1 && s == p.n - 1) wraps++;
          ptr = (s + 1) % p.n;
          last_src_done = s;
        } else {
          in_xfer = int(s);
        }
      }
    } else if (in_xfer >= 0) {
      gaps_in_xfer++;
    }
    if (v && !ready_now) {
      prev_wait = true;
      prev_d = p.out_data();
      prev_last = p.out_last();
      prev_src = p.out_src();
    } else {
      prev_wait = false;
    }
  }
  void report(TbResults &r) {
    char name[96];
    std::snprintf(name, sizeof name, "arb%s-exact-in-order", tag.c_str());
    r.check(bad == 0 && beats > 1000, name, "%llu wrong of %llu (%s)", (unsigned long long)bad,
            (unsigned long long)beats, first_bad.c_str());
    std::snprintf(name, sizeof name, "arb%s-transfers-whole", tag.c_str());
    r.check(interleaved == 0, name, "%llu beats of another transfer inside one", (unsigned long long)interleaved);
    std::snprintf(name, sizeof name, "arb%s-ready-granted-only", tag.c_str());
    r.check(ready_leak == 0 && handshake_mismatch == 0, name,
            "%llu cycles with ready on a non-granted input, %llu output handshakes unlike the input's",
            (unsigned long long)ready_leak, (unsigned long long)handshake_mismatch);
    std::snprintf(name, sizeof name, "arb%s-round-robin", tag.c_str());
    r.check(wrong_grant == 0 && starved == 0, name, "%llu grants off the pointer, %llu waits over N-1",
            (unsigned long long)wrong_grant, (unsigned long long)starved);
    std::snprintf(name, sizeof name, "arb%s-offer-stable", tag.c_str());
    r.check(unstable == 0, name, "%llu offers changed while waiting", (unsigned long long)unstable);
    bool cov = mid_stall > 0 && gaps_in_xfer > 0;
    for (auto c : per_src) cov = cov && c > 100;
    if (p.n > 1) cov = cov && switches > 0 && wraps > 0;
    std::snprintf(name, sizeof name, "arb%s-coverage", tag.c_str());
    r.check(cov, name, "per source / switches / stalls mid-transfer / gaps / pointer wrap");
    std::printf("INFO arb%s: %llu beats in %llu transfers, %llu switches, %llu stalls mid-transfer, %llu gaps, %llu wraps;",
                tag.c_str(), (unsigned long long)beats, (unsigned long long)xfers, (unsigned long long)switches,
                (unsigned long long)mid_stall, (unsigned long long)gaps_in_xfer, (unsigned long long)wraps);
    for (unsigned k = 0; k < p.n; k++) std::printf(" src%u %llu", k, (unsigned long long)per_src[k]);
    std::printf("\n");
    if (p.n == 1) {
      std::snprintf(name, sizeof name, "arb%s-wires", tag.c_str());
      r.check(not_same == 0 && same_cycle > 0, name, "%llu offers not passed in their cycle", (unsigned long long)not_same);
    }
  }
};

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  waves_setup(argc, argv);
  uint64_t seed = 1, cycles = 200000;
  for (int i = 1; i + 1 < argc; i++) {
    if (!std::strcmp(argv[i], "--seed")) seed = std::strtoull(argv[++i], nullptr, 0);
    else if (!std::strcmp(argv[i], "--cycles")) cycles = std::strtoull(argv[++i], nullptr, 0);
  }
  std::printf("INFO seed %llu\n", (unsigned long long)seed);
  rng.seed(seed);
  auto m = std::make_unique<Vfw_cores_tb_top>();
  Waves waves;
  waves.open(m.get(), "fw_cores");
  Vfw_cores_tb_top &t = *m;

#define ROUTE(P, N, DT)                                                                              \
  RoutePorts{N,                                                                                      \
             [&](bool v, uint16_t d, uint32_t q, bool a) {                                           \
               t.P##_in_valid_i = v;                                                                 \
               t.P##_in_data_i = d;                                                                  \
               t.P##_in_qpn_i = q;                                                                   \
               t.P##_in_any_i = a;                                                                   \
             },                                                                                      \
             [&] { return bool(t.P##_in_ready_o); }, [&] { return unsigned(t.P##_out_valid_o); },    \
             [&](unsigned r) { t.P##_out_ready_i = r; },                                             \
             [&](unsigned k) { return uint16_t(DT(t.P##_out_data_o) >> (16 * k)); }}
#define ARB(P, N, DT)                                                                                \
  ArbPorts{N,                                                                                        \
           [&](unsigned v, const std::vector<uint16_t> &d, unsigned l) {                             \
             DT x = 0;                                                                               \
             for (unsigned i = 0; i < N; i++) x |= DT(d[i]) << (16 * i);                             \
             t.P##_in_valid_i = v;                                                                   \
             t.P##_in_data_i = x;                                                                    \
             t.P##_in_last_i = l;                                                                    \
           },                                                                                        \
           [&] { return unsigned(t.P##_in_ready_o); }, [&] { return bool(t.P##_out_valid_o); },      \
           [&](bool r) { t.P##_out_ready_i = r; }, [&] { return uint16_t(t.P##_out_data_o); },       \
           [&] { return bool(t.P##_out_last_o); }, [&] { return unsigned(t.P##_out_src_o); }}

  std::vector<RouteTb> routes;
  routes.emplace_back(ROUTE(r1, 1, uint64_t), "1");
  routes.emplace_back(ROUTE(r2, 2, uint64_t), "2");
  routes.emplace_back(ROUTE(r4, 4, uint64_t), "4");
  std::vector<ArbTb> arbs;
  arbs.emplace_back(ARB(a1, 1, uint16_t), "1");
  arbs.emplace_back(ARB(a2, 2, uint32_t), "2");
  arbs.emplace_back(ARB(a4, 4, uint64_t), "4");

  // one clock: the models see the handshakes before the rising edge (the sinks' ready as driven)
  auto clock = [&] {
    t.clk_i = 0;
    waves.eval(t);
    routes[0].step(t.r1_out_ready_i);
    routes[1].step(t.r2_out_ready_i);
    routes[2].step(t.r4_out_ready_i);
    arbs[0].step(t.a1_out_ready_i);
    arbs[1].step(t.a2_out_ready_i);
    arbs[2].step(t.a4_out_ready_i);
    t.clk_i = 1;
    waves.eval(t);
  };
  t.clk_i = 0;
  t.rst_ni = 0;
  waves.eval(t);
  t.rst_ni = 1;
  waves.eval(t);
  static const unsigned loads[][2] = {{95, 95}, {70, 40}, {40, 90}, {95, 15}, {10, 95}};
  for (uint64_t c = 0; c < cycles; c++) {
    if (pct() < 1 && rng() % 20 == 0) {
      // a new load phase for every instance: source rate, sink rate
      const unsigned *ld = loads[rng() % 5];
      for (auto &r : routes) {
        r.src_pct = ld[0];
        for (auto &x : r.ready_pct) x = ld[1];
      }
      for (auto &a : arbs) a.src_pct = ld[0], a.ready_pct = ld[1];
    }
    for (auto &r : routes) r.drive();
    for (auto &a : arbs) a.drive();
    clock();
  }
  // drain: sources stop, sinks take everything
  for (unsigned c = 0; c < 2000; c++) {
    for (auto &r : routes) {
      r.src_pct = 0;
      for (auto &x : r.ready_pct) x = 100;
      std::fill(r.stall_left.begin(), r.stall_left.end(), 0u);
      r.drive();
    }
    for (auto &a : arbs) {
      a.draining = true;
      a.ready_pct = 100;
      a.stall_left = 0;
      a.drive();
    }
    for (auto &r : routes) r.p.out_ready((1u << r.p.n) - 1u);
    for (auto &a : arbs) a.p.out_ready(true);
    clock();
  }
  TbResults res;
  for (auto &r : routes) r.report(res);
  for (auto &a : arbs) {
    uint64_t left = 0;
    for (unsigned i = 0; i < a.p.n; i++) left += a.offering[i];
    char name[64];
    std::snprintf(name, sizeof name, "arb%s-no-loss", a.tag.c_str());
    res.check(left == 0, name, "%llu beats still offered after the drain", (unsigned long long)left);
    a.report(res);
  }
  std::printf("%d passed, %d failed\n", res.passed, res.failed);
  return res.exit_code();
}
