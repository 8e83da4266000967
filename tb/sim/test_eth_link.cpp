// Ethernet link model without NICs (deliveries observed through on_deliver): serialization and
// propagation timing of a 4154-byte frame at 100 Gb/s, back-to-back spacing, TX backpressure,
// loss/reorder/duplication/corruption statistics for a seed, exact reproducibility (two links
// with the same seed and traffic in one simulation), pcap captures read back with tshark, and
// flow control: PAUSE frame timing and bytes, the far transmitter held between frames until
// XON, XOFF refresh with short quanta, and no pausing with flow control off.
#include <systemc.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "main/sim_program.h"
#include "net/eth_link.h"
#include "tb_check.h"

namespace {

struct Rx { int dir; std::vector<uint8_t> f; uint64_t t; };

// Frame `seq` of 64 bytes: the 32-bit sequence number repeated; a flipped bit is outvoted.
std::vector<uint8_t> seq_frame(uint32_t seq) {
  std::vector<uint8_t> f(64);
  for (int i = 0; i < 64; i++) f[i] = uint8_t(seq >> (8 * (i % 4)));
  return f;
}
uint32_t seq_of(const std::vector<uint8_t> &f, int *flipped) {
  uint32_t s = 0;
  for (int b = 0; b < 32; b++) {
    int ones = 0;
    for (int k = 0; k < 16; k++) ones += f[4 * k + b / 8] >> (b % 8) & 1;
    if (ones > 8) s |= 1u << b;
  }
  std::vector<uint8_t> e = seq_frame(s);
  *flipped = 0;
  for (size_t i = 0; i < f.size(); i++) *flipped += __builtin_popcount(f[i] ^ e[i]);
  return s;
}

uint64_t now_ps() { return uint64_t(std::llround(sc_time_stamp() / sc_time(1, SC_PS))); }

struct Logger {
  std::vector<Rx> rx;
  void attach(EthLink &l) { l.on_deliver = [this](int d, const std::vector<uint8_t> &f, uint64_t t) { rx.push_back({d, f, t}); }; }
  // Per direction: the two directions' threads may run in either order at one instant.
  uint64_t hash(int dir) const {
    uint64_t h = 1469598103934665603ull;
    for (auto &x : rx) {
      if (x.dir != dir) continue;
      h = (h ^ x.t ^ uint64_t(x.dir) << 63) * 1099511628211ull;
      for (auto b : x.f) h = (h ^ b) * 1099511628211ull;
    }
    return h;
  }
};

long tshark_count(const std::string &path) {
  std::string cmd = "tshark -r '" + path + "' -T fields -e frame.number 2>/dev/null | wc -l";
  FILE *p = popen(cmd.c_str(), "r");
  if (!p) return -1;
  long n = -1;
  if (std::fscanf(p, "%ld", &n) != 1) n = -1;
  pclose(p);
  return n;
}
// Reads a capture directly: nanosecond magic, Ethernet, record count, timestamps in order.
bool pcap_ok(const std::string &path, long *count) {
  FILE *f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  uint32_t h[6];
  bool ok = std::fread(h, 4, 6, f) == 6 && h[0] == 0xA1B23C4Du && h[5] == 1;
  uint64_t last = 0;
  *count = 0;
  uint32_t rec[4];
  while (ok && std::fread(rec, 4, 4, f) == 4) {
    uint64_t t = uint64_t(rec[0]) * 1000000000ull + rec[1];
    ok = t >= last && rec[1] < 1000000000u && rec[2] == rec[3] && std::fseek(f, rec[2], SEEK_CUR) == 0;
    last = t;
    ++*count;
  }
  std::fclose(f);
  return ok;
}

std::string tshark_first_time(const std::string &path) {
  std::string cmd = "tshark -r '" + path + "' -c 1 -T fields -e frame.time_epoch 2>/dev/null";
  FILE *p = popen(cmd.c_str(), "r");
  char buf[64] = {};
  if (p) {
    if (!std::fgets(buf, sizeof buf, p)) buf[0] = 0;
    pclose(p);
  }
  std::string s(buf);
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

struct EthTest : sc_module {
  SC_HAS_PROCESS(EthTest);
  EthTest(sc_module_name n, uint64_t seed, std::string dir) : sc_module(n), seed_(seed), dir_(dir) {
    EthLinkCfg t;
    t.pcap_path = dir_ + "/timing.pcap";
    timing_.reset(new EthLink("timing", nullptr, nullptr, t));
    lt_.attach(*timing_);
    for (int i = 0; i < 3; i++) {
      EthLinkCfg c;
      c.seed = i < 2 ? seed_ : seed_ + 1;
      for (int d = 0; d < 2; d++) c.faults[d] = {0.05, 0.05, 0.05, 0.05};
      c.faults[1].loss = 0.2;
      c.pcap_path = dir_ + "/faults" + std::to_string(i) + ".pcap";
      c.pcap_side = i == 1 ? EthLinkCfg::Receiver : EthLinkCfg::Sender;
      fl_[i].reset(new EthLink(("faults" + std::to_string(i)).c_str(), nullptr, nullptr, c));
      lf_[i].attach(*fl_[i]);
    }
    for (int i = 0; i < 3; i++) {  // flow control: default, short quanta, off
      EthLinkCfg c;
      if (i == 0) c.pcap_path = dir_ + "/pause.pcap";
      if (i == 1) c.pause_quanta = 100;  // 512 ns at 100 Gb/s
      if (i == 2) c.flow_control = false;
      pl_[i].reset(new EthLink(("pause" + std::to_string(i)).c_str(), nullptr, nullptr, c));
      lp_[i].attach(*pl_[i]);
      pl_[i]->on_pause = [this, i](int d, unsigned q, uint64_t t) { pauses_[i].push_back({d, q, t}); };
    }
    SC_THREAD(run);
  }
  TbResults r;

  // After the run: the captures hold what the link counted, and tshark reads them.
  void check_pcaps() {
    timing_->flush_pcap();
    long n = tshark_count(dir_ + "/timing.pcap");
    std::string t = tshark_first_time(dir_ + "/timing.pcap");
    r.check(n == 11 && t == "0.000001000", "eth-pcap-timing-readable", "%ld frames, first at '%s'", n, t.c_str());
    for (int i = 0; i < 2; i++) {
      fl_[i]->flush_pcap();
      const EthDirStats &a = fl_[i]->stats(0), &b = fl_[i]->stats(1);
      long expect = long(i == 0 ? a.wire_frames + b.wire_frames : a.delivered + b.delivered);
      n = tshark_count(fl_[i]->cfg().pcap_path);
      long direct = -1;
      bool ordered = pcap_ok(fl_[i]->cfg().pcap_path, &direct);
      r.check(n == expect && direct == expect && ordered,
              i == 0 ? "eth-pcap-sender-side-count-and-order" : "eth-pcap-receiver-side-count-and-order",
              "tshark %ld direct %ld expected %ld ordered %d", n, direct, expect, ordered);
    }
  }

 private:
  void run() {
    EthLink &L = *timing_;
    // 1. One 4154-byte frame on an idle link.
    wait(sc_time(1, SC_US));
    uint64_t t0 = now_ps();
    L.send(0, std::vector<uint8_t>(4154, 0xA5));
    wait(sc_time(2, SC_US));
    uint64_t expect = t0 + (8 + 4154 + 4) * 80 + 500000;
    r.check(lt_.rx.size() == 1 && lt_.rx[0].t == expect && lt_.rx[0].dir == 0, "eth-4154B-serialization-plus-delay",
            "arrived %.3f ns after tx, expected %.3f", lt_.rx.empty() ? -1.0 : (lt_.rx[0].t - t0) / 1000.0,
            (expect - t0) / 1000.0);
    std::printf("INFO eth 4154-byte frame: %.2f ns on the wire (preamble+IFG+FCS), delivered %.2f ns after TX\n",
                L.slot_ps(4154) / 1000.0, (expect - t0) / 1000.0);
    // 2. Back to back: 10 frames at once; arrivals one wire slot apart (334.24 ns).
    t0 = now_ps();
    for (int i = 0; i < 10; i++) L.send(1, std::vector<uint8_t>(4154, uint8_t(i)));
    bool ready_drops = !L.tx_ready(1);  // 10 x 4178 B queued > 16 KiB FIFO
    wait(sc_time(5, SC_US));
    bool spacing = lt_.rx.size() == 11;
    for (size_t i = 2; spacing && i < lt_.rx.size(); i++)
      spacing = lt_.rx[i].t - lt_.rx[i - 1].t == (4154 + 24) * 80 && lt_.rx[i].f[0] == uint8_t(i - 1) && lt_.rx[i].dir == 1;
    r.check(spacing && lt_.rx[1].t == t0 + (8 + 4154 + 4) * 80 + 500000, "eth-back-to-back-line-rate", "%zu frames",
            lt_.rx.size());
    r.check(ready_drops && L.tx_ready(1), "eth-tx-backpressure-when-fifo-full");
    // Short frames occupy at least the 64-byte minimum slot.
    r.check(L.slot_ps(20) == (60 + 24) * 80, "eth-min-frame-slot");
    r.check(L.stats(0).tx_frames == 1 && L.stats(1).tx_frames == 10 && L.stats(1).delivered_bytes == 41540,
            "eth-counters");

    // 3. Faults: 20000 frames per direction on three links (two with the same seed).
    const int N = 20000;
    for (int i = 0; i < N; i++) {
      for (int k = 0; k < 3; k++) {
        fl_[k]->send(0, seq_frame(uint32_t(i)));
        fl_[k]->send(1, seq_frame(uint32_t(i)));
      }
      wait(sc_time(20, SC_NS));  // a little above line rate for 64 B with faults
    }
    wait(sc_time(50, SC_US));
    for (int d = 0; d < 2; d++) check_faults(d, N, d == 0 ? 0.05 : 0.2);
    r.check(lf_[0].hash(0) == lf_[1].hash(0) && lf_[0].hash(1) == lf_[1].hash(1) && lf_[0].rx.size() == lf_[1].rx.size() &&
                fl_[0]->stats(0).corrupted == fl_[1]->stats(0).corrupted,
            "eth-faults-reproducible-same-seed");
    r.check(lf_[2].hash(0) != lf_[0].hash(0) && lf_[2].hash(1) != lf_[0].hash(1), "eth-faults-other-seed-differs");
    std::printf("INFO eth fault trace hash %016llx %016llx (seed %llu)\n", (unsigned long long)lf_[0].hash(0),
                (unsigned long long)lf_[0].hash(1),
                (unsigned long long)seed_);

    // 4. Flow control on three more links at once.
    t0p_ = now_ps();
    pause_queue(0, 20);
    pause_queue(1, 60);
    pause_queue(2, 20);
    wait(sc_time(1, SC_NS));
    for (int i = 0; i < 3; i++) pl_[i]->rx_pause(1, true);
    wait(sc_time(3, SC_US) - sc_time(1, SC_NS));
    pl_[0]->rx_pause(1, false);
    pl_[2]->rx_pause(1, false);
    bool xoff_state = pl_[0]->tx_paused(0) && pl_[1]->tx_paused(0) && !pl_[2]->tx_paused(0) && !pl_[0]->tx_paused(1);
    wait(sc_time(2, SC_US));  // link 0's XON has arrived
    r.check(xoff_state && !pl_[0]->tx_paused(0) && pl_[1]->tx_paused(0), "eth-pause-tx-paused-state");
    pl_[1]->rx_pause(1, false);
    wait(sc_time(15, SC_US));
    check_pause();
    sc_stop();
  }

  void check_faults(int d, int N, double loss_p) {
    const EthDirStats &s = fl_[0]->stats(d);
    std::map<uint32_t, int> seen;
    uint64_t dups = 0, inversions = 0, bad_flip = 0, flipped1 = 0;
    uint32_t maxseq = 0;
    bool any = false;
    for (auto &x : lf_[0].rx) {
      if (x.dir != d) continue;
      int fl;
      uint32_t q = seq_of(x.f, &fl);
      if (fl == 1) flipped1++;
      else if (fl != 0) bad_flip++;
      if (seen[q]++) { dups++; continue; }
      if (any && q < maxseq) inversions++;
      if (!any || q > maxseq) maxseq = q;
      any = true;
    }
    auto within = [&](uint64_t got, double p, uint64_t n) {
      double sd = std::sqrt(n * p * (1 - p));
      return std::fabs(double(got) - n * p) <= 5 * sd;
    };
    std::string nm = "eth-dir" + std::to_string(d) + "-";
    r.check(s.tx_frames == uint64_t(N) && s.delivered == N - s.lost + s.duplicated, (nm + "delivered-count").c_str(),
            "tx %llu lost %llu dup %llu delivered %llu", (unsigned long long)s.tx_frames, (unsigned long long)s.lost,
            (unsigned long long)s.duplicated, (unsigned long long)s.delivered);
    r.check(seen.size() == N - s.lost && within(s.lost, loss_p, N), (nm + "loss-rate").c_str(), "lost %llu",
            (unsigned long long)s.lost);
    r.check(dups == s.duplicated && within(s.duplicated, 0.05 * (1 - loss_p), N), (nm + "duplication").c_str(),
            "seen %llu counted %llu", (unsigned long long)dups, (unsigned long long)s.duplicated);
    r.check(inversions + 1 >= s.reordered && inversions <= s.reordered && within(s.reordered, 0.05 * (1 - loss_p), N),
            (nm + "reorder").c_str(), "inversions %llu held %llu", (unsigned long long)inversions,
            (unsigned long long)s.reordered);
    r.check(flipped1 == s.corrupted && bad_flip == 0 && within(s.corrupted, 0.05 * (1 - loss_p), N),
            (nm + "single-bit-corruption").c_str(), "one-bit %llu counted %llu other %llu", (unsigned long long)flipped1,
            (unsigned long long)s.corrupted, (unsigned long long)bad_flip);
  }

  // Flow control on link i: side 1 queues two 4154-byte frames and side 0 n frames of 1000 B;
  // 1 ns later (the first 4154-byte frame is on the wire) side 1's receiver asks for XOFF.
  struct PauseRx { int dir; unsigned quanta; uint64_t t; };
  void pause_queue(int i, int n) {
    EthLink &L = *pl_[i];
    for (int k = 0; k < 2; k++) L.send(1, std::vector<uint8_t>(4154, 0x11));
    for (int k = 0; k < n; k++) L.send(0, std::vector<uint8_t>(1000, uint8_t(k)));
  }
  // Wire start times of the 1000-byte frames side 0 sent (from their arrivals).
  std::vector<uint64_t> starts0(int i) const {
    std::vector<uint64_t> v;
    for (auto &x : lp_[i].rx)
      if (x.dir == 0) v.push_back(x.t - pl_[i]->ser_ps(8 + 1000 + 4) - pl_[i]->cfg().prop_delay_ps);
    return v;
  }
  void check_pause() {
    const uint64_t slot_big = (4154 + 24) * 80, slot1k = 1024 * 80, pause_arr = 72 * 80 + 500000;
    // Link 0: XOFF leaves after the 4154-byte frame, XON at once (the wire is idle by then).
    {
      EthLink &L = *pl_[0];
      const auto &p = pauses_[0];
      std::vector<uint64_t> s = starts0(0);
      bool timing = p.size() == 2 && p[0].dir == 1 && p[0].quanta == 0xFFFF && p[0].t == t0p_ + slot_big + pause_arr &&
                    p[1].quanta == 0 && p[1].t == t0p_ + 3000000 + pause_arr;
      r.check(timing, "eth-pause-xoff-after-current-frame-plus-delay", "%zu PAUSE frames, first %.3f ns after t0",
              p.size(), p.empty() ? -1.0 : (p[0].t - t0p_) / 1000.0);
      // the PAUSE frame went ahead of side 1's second queued frame
      std::vector<uint64_t> a1;
      for (auto &x : lp_[0].rx)
        if (x.dir == 1) a1.push_back(x.t);
      const uint64_t fly = (8 + 4154 + 4) * 80 + 500000;
      r.check(a1.size() == 2 && a1[0] == t0p_ + fly && a1[1] == t0p_ + slot_big + (60 + 24) * 80 + fly,
              "eth-pause-frame-ahead-of-queued-frames", "%zu frames", a1.size());
      // frames 0..10 started before the XOFF arrived (frame 10 at 819.2 ns finishes), 11.. at XON
      bool held = s.size() == 20 && p.size() == 2;
      for (size_t k = 0; held && k < s.size(); k++)
        held = k <= 10 ? s[k] == t0p_ + k * slot1k : s[k] == p[1].t + (k - 11) * slot1k;
      r.check(held, "eth-pause-holds-far-tx-between-frames-until-xon", "%zu frames", s.size());
      r.check(L.stats(1).xoff_frames == 1 && L.stats(1).xon_frames == 1 && p.size() == 2 &&
                  L.paused_ps(0) == p[1].t - p[0].t && L.stats(0).delivered == 20 && L.stats(1).delivered == 2,
              "eth-pause-counters", "xoff %llu xon %llu paused %llu ps", (unsigned long long)L.stats(1).xoff_frames,
              (unsigned long long)L.stats(1).xon_frames, (unsigned long long)L.paused_ps(0));
      L.flush_pcap();
      std::string cmd = "tshark -r '" + L.cfg().pcap_path +
                        "' -Y 'eth.type == 0x8808' -T fields -e eth.dst -e eth.src -e macc.opcode -e macc.pause_time "
                        "-e frame.len 2>/dev/null";
      std::string out;
      if (FILE *f = popen(cmd.c_str(), "r")) {
        char b[256];
        while (std::fgets(b, sizeof b, f)) out += b;
        pclose(f);
      }
      // side 1 never sent a frame with another source MAC: its PAUSE frames carry that one (0x11..)
      const std::string src = "11:11:11:11:11:11";
      r.check(out == "01:80:c2:00:00:01\t" + src + "\t0x0001\t65535\t60\n01:80:c2:00:00:01\t" + src + "\t0x0001\t0\t60\n",
              "eth-pause-frames-in-pcap-tshark", "tshark: '%s'", out.c_str());
    }
    // Link 1: quanta of 512 ns, XOFF held 5 us: refreshed every 256 ns, no frame starts meanwhile.
    {
      EthLink &L = *pl_[1];
      const auto &p = pauses_[1];
      std::vector<uint64_t> s = starts0(1);
      uint64_t xon = p.empty() ? 0 : p.back().t;
      bool held = !p.empty() && p.back().quanta == 0 && s.size() == 60;
      for (size_t k = 0; held && k < s.size(); k++) held = s[k] < p[0].t || s[k] >= xon;
      r.check(held && L.stats(1).xoff_frames >= 18 && L.paused_ps(0) == xon - p[0].t, "eth-pause-xoff-refreshed-within-quanta",
              "%llu XOFF, paused %.1f ns", (unsigned long long)L.stats(1).xoff_frames, L.paused_ps(0) / 1000.0);
    }
    // Link 2: flow control off: no PAUSE frame, side 0's frames back to back.
    {
      EthLink &L = *pl_[2];
      std::vector<uint64_t> s = starts0(2);
      bool b2b = s.size() == 20;
      for (size_t k = 0; b2b && k < s.size(); k++) b2b = s[k] == t0p_ + k * slot1k;
      r.check(b2b && pauses_[2].empty() && L.stats(1).xoff_frames == 0 && !L.tx_paused(0), "eth-pause-off-no-pausing",
              "%zu frames", s.size());
    }
    std::printf("INFO eth pause trace hash %016llx %016llx\n", (unsigned long long)lp_[1].hash(0),
                (unsigned long long)lp_[0].hash(0));
  }

  uint64_t seed_;
  std::string dir_;
  std::unique_ptr<EthLink> timing_, fl_[3], pl_[3];
  Logger lt_, lf_[3], lp_[3];
  std::vector<PauseRx> pauses_[3];
  uint64_t t0p_ = 0;
};

int test_eth_link(int argc, char **argv) {
  uint64_t seed = 1;
  std::string dir = "build/sim";
  for (int i = 1; i < argc; i++) {
    if (!std::strcmp(argv[i], "--seed") && i + 1 < argc) seed = std::strtoull(argv[++i], nullptr, 0);
    else if (!std::strcmp(argv[i], "--out") && i + 1 < argc) dir = argv[++i];
  }
  std::printf("INFO seed %llu\n", (unsigned long long)seed);
  std::unique_ptr<EthTest> t(new EthTest("eth_test", seed, dir));
  sc_start();
  t->check_pcaps();
  return t->r.exit_code();
}

SimProgram reg("test-eth", "Ethernet link model: timing, faults, reproducibility, pcap [--seed S --out DIR]", test_eth_link);

}  // namespace
