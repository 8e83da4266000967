// rnic_fw_eth block testbench: random frames into the receive tap (ARP-typed ones of every length,
// others, runts), a firmware agent on the MMIO port (reads the queue head word by word against a
// model, pops, writes and sends frames of 1..64 bytes, tries writes while busy and bad lengths),
// the transport engine's frames on the merge input with random gaps, a MAC with random ready and
// pause. Checks: queue contents and lengths byte for byte, drops when full, every output frame
// whole and equal to the next expected frame of its source (engine or firmware), AXI-Stream
// stability at the output, no firmware frame started while paused, counters.
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "Vrnic_fw_eth.h"
#include "main/sim_waves.h"
#include "rnic_spec.h"
#include "tb_check.h"
#include "verilated.h"
#include "../dma/vl_bits.h"

#ifndef TB_DW
#define TB_DW 512
#endif
static constexpr unsigned NB = TB_DW / 8;
using Bytes = std::vector<uint8_t>;
static constexpr uint32_t kPage = RNIC_FW_REG_ETH_RX_DATA & ~0xFFu;
static uint8_t off(uint32_t reg) { return uint8_t(reg - kPage); }

struct Tb {
  std::unique_ptr<Vrnic_fw_eth> t{new Vrnic_fw_eth};
  Waves waves;
  std::mt19937_64 rng;
  TbResults r;
  uint64_t cyc = 0;
  explicit Tb(uint64_t seed) : rng(seed) { waves.open(t.get(), "fw_eth"); }
  bool coin(double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; }
  unsigned below(unsigned n) { return unsigned(rng() % n); }

  // receive tap
  std::deque<Bytes> rx_in;
  size_t rx_pos = 0;
  struct Slot { Bytes b; unsigned len; };
  std::deque<Slot> q_model, snap;
  unsigned rx_queued = 0, rx_full = 0, rx_seen_ours = 0;
  // merge input (engine) and output
  std::deque<Bytes> s_in, exp_s, exp_raw;
  size_t s_pos = 0;
  bool s_valid = false;
  Bytes out_cur;
  bool out_offered = false;  // the current output frame's first beat has been offered
  bool out_first = true, out_start_paused = false;
  unsigned raw_sent = 0, eng_sent = 0, frame_errs = 0, stab_errs = 0, pause_errs = 0;
  std::string first_err;
  bool pause_forced = false;
  bool prev_valid = false, prev_ready = false, prev_last = false, pause = false, prev_pause = false;
  Bytes prev_data;
  double p_rx = 0.7, p_s = 0.6, p_mac = 0.8, p_pause = 0.0;
  // firmware agent: one MMIO access per cycle at most
  struct Op { bool we; uint32_t reg; uint32_t data; };
  std::deque<Op> ops;
  bool rd_pending = false;
  uint32_t rd_reg = 0, rd_val = 0;
  bool rd_done = false;

  void err(const std::string &e) {
    if (first_err.empty()) first_err = e;
  }

  // One clock: drive, evaluate, sample, edge.
  void tick() {
    auto &x = *t;
    x.clk_i = 0;
    // receive tap
    x.rx_tvalid_i = 0;
    bool rx_last = false;
    if (!rx_in.empty() && coin(p_rx)) {
      Bytes &f = rx_in.front();
      unsigned n = unsigned(std::min<size_t>(NB, f.size() - rx_pos));
      for (unsigned i = 0; i < NB; i++) vlb::set(x.rx_tdata_i, 8 * i, 8, i < n ? f[rx_pos + i] : uint8_t(rng()));
      x.rx_tkeep_i = 0;
      for (unsigned i = 0; i < n; i++) vlb::set(x.rx_tkeep_i, i, 1, 1);
      rx_last = rx_pos + n == f.size();
      x.rx_tlast_i = rx_last;
      x.rx_tvalid_i = 1;
    }
    // firmware
    x.mmio_req_i = 0;
    Op op{};
    bool have_op = !ops.empty() && coin(0.7);
    if (have_op) {
      op = ops.front();
      ops.pop_front();
      x.mmio_req_i = 1, x.mmio_we_i = op.we, x.mmio_off_i = off(op.reg), x.mmio_wdata_i = op.data;
    }
    // engine frames: AXI-Stream, an offered beat stays until taken
    if (!s_valid && !s_in.empty() && coin(p_s)) s_valid = true;
    if (s_valid) {
      Bytes &f = s_in.front();
      unsigned n = unsigned(std::min<size_t>(NB, f.size() - s_pos));
      for (unsigned i = 0; i < NB; i++) vlb::set(x.s_tdata_i, 8 * i, 8, i < n ? f[s_pos + i] : 0);
      x.s_tkeep_i = 0;
      for (unsigned i = 0; i < n; i++) vlb::set(x.s_tkeep_i, i, 1, 1);
      x.s_tlast_i = s_pos + n == f.size();
    }
    x.s_tvalid_i = s_valid;
    x.m_tready_i = coin(p_mac);
    if (!pause_forced && coin(0.02)) pause = coin(p_pause);
    x.pause_i = pause;
    waves.eval(x);
    if (s_valid && x.s_tready_o) {
      Bytes &f = s_in.front();
      if (s_pos == 0) exp_s.push_back(f);
      s_pos += NB;
      if (s_pos >= f.size()) s_pos = 0, s_in.pop_front();
      s_valid = false;
    }
    // sample the output
    Bytes data(NB);
    vlb::get_bytes(x.m_tdata_o, 0, NB, data.data());
    if (prev_valid && !prev_ready &&
        (!x.m_tvalid_o || data != prev_data || bool(x.m_tlast_o) != prev_last)) {
      stab_errs++;
      err("output beat changed or withdrawn before it was taken at cycle " + std::to_string(cyc));
    }
    prev_valid = x.m_tvalid_o, prev_ready = x.m_tready_i, prev_data = data, prev_last = x.m_tlast_o;
    if (x.m_tvalid_o && out_first && !out_offered) out_start_paused = prev_pause, out_offered = true;
    if (x.m_tvalid_o && x.m_tready_i) {
      out_first = false;
      for (unsigned i = 0; i < NB; i++)
        if (vlb::get(x.m_tkeep_o, i, 1)) out_cur.push_back(data[i]);
      if (x.m_tlast_o) frame_out();
    }
    prev_pause = pause;
    if (have_op && !op.we) snap = q_model;  // a read sees the state before this edge
    // the queue model: a frame is judged at its last beat against the count before this cycle's pop
    if (x.rx_tvalid_i) {
      Bytes &f = rx_in.front();
      rx_pos += NB;
      if (rx_last) {
        bool ours = f.size() >= 14 && f[12] == 0x08 && f[13] == 0x06;
        if (ours) {
          rx_seen_ours++;
          if (q_model.size() == RNIC_FW_ETH_RX_SLOTS) rx_full++;
          else {
            Slot s{Bytes(64, 0), unsigned(f.size())};
            for (size_t i = 0; i < 64 && i < f.size(); i++) s.b[i] = f[i];
            q_model.push_back(s), rx_queued++;
          }
        }
        rx_pos = 0, rx_in.pop_front();
      }
    }
    x.clk_i = 1;
    waves.eval(x);
    cyc++;
    if (have_op && op.we && op.reg == RNIC_FW_REG_ETH_RX_POP && !q_model.empty()) q_model.pop_front();
    if (have_op && !op.we) rd_done = true, rd_val = x.mmio_rdata_o, rd_reg = op.reg;
  }

  void frame_out() {
    bool ok = false;
    if (!exp_s.empty() && out_cur == exp_s.front()) exp_s.pop_front(), eng_sent++, ok = true;
    else if (!exp_raw.empty() && out_cur == exp_raw.front()) {
      exp_raw.pop_front(), raw_sent++, ok = true;
      if (out_start_paused) pause_errs++, err("firmware frame started while paused");
    }
    if (!ok) {
      frame_errs++;
      err("output frame of " + std::to_string(out_cur.size()) + " bytes at cycle " + std::to_string(cyc) +
          " matches neither the next engine frame nor the next firmware frame");
    }
    out_cur.clear();
    out_first = true, out_offered = false;
  }

  // A blocking MMIO read (ticks until answered).
  uint32_t rd(uint32_t reg) {
    ops.push_back({false, reg, 0});
    rd_done = false;
    for (int i = 0; i < 1000 && !rd_done; i++) tick();
    return rd_val;
  }
  void wr(uint32_t reg, uint32_t v) {
    ops.push_back({true, reg, v});
    for (int i = 0; i < 1000 && !ops.empty(); i++) tick();
  }
  void reset() {
    t->rst_ni = 0;
    for (int i = 0; i < 4; i++) tick();
    t->rst_ni = 1;
    tick();
  }

  Bytes rnd_frame(unsigned len, bool arp) {
    Bytes f(len);
    for (auto &b : f) b = uint8_t(rng());
    if (len >= 14 && arp) f[12] = 0x08, f[13] = 0x06;
    else if (len >= 14 && f[12] == 0x08 && f[13] == 0x06) f[13] = 0x00;
    return f;
  }
  unsigned rnd_len() {
    unsigned k = below(10);
    return k < 3 ? 42 + below(23) : k < 5 ? 1 + below(20) : k < 8 ? 60 + below(200) : 1 + below(1600);
  }

  // The firmware agent's work: serve the queue against the model and send n frames.
  unsigned q_errs = 0, sends_left = 0, bad_sends = 0, busy_errs = 0;
  void fw_step() {
    uint32_t st = rd(RNIC_FW_REG_ETH_RX_STATUS);
    bool have = st & 1;
    if (have != !snap.empty()) {
      q_errs++, err("rx_status waiting bit " + std::to_string(have) + " but the model holds " + std::to_string(snap.size()));
    } else if (have) {
      Slot s = snap.front();  // frames only join behind it while we read
      if ((st >> 16) != s.len) q_errs++, err("rx_status length " + std::to_string(st >> 16) + " want " + std::to_string(s.len));
      for (unsigned w = 0; w < 16; w++) {
        uint32_t v = rd(RNIC_FW_REG_ETH_RX_DATA + 4 * w);
        uint32_t want = uint32_t(s.b[4 * w]) | uint32_t(s.b[4 * w + 1]) << 8 | uint32_t(s.b[4 * w + 2]) << 16 |
                        uint32_t(s.b[4 * w + 3]) << 24;
        if (v != want) {
          q_errs++, err("eth_rx_data word " + std::to_string(w) + " differs");
          break;
        }
      }
      wr(RNIC_FW_REG_ETH_RX_POP, 1);
    }
    if (sends_left && !(rd(RNIC_FW_REG_ETH_TX_STATUS) & 1)) {
      unsigned len = 1 + below(64);
      Bytes f = rnd_frame(len, false);
      Bytes buf(64);
      for (auto &b : buf) b = uint8_t(rng());
      for (unsigned i = 0; i < len; i++) buf[i] = f[i];
      for (unsigned w = 0; w < 16; w++)
        wr(RNIC_FW_REG_ETH_TX_DATA + 4 * w, uint32_t(buf[4 * w]) | uint32_t(buf[4 * w + 1]) << 8 |
                                                 uint32_t(buf[4 * w + 2]) << 16 | uint32_t(buf[4 * w + 3]) << 24);
      if (coin(0.2)) wr(RNIC_FW_REG_ETH_TX_SEND, coin(0.5) ? 0 : 65 + below(1000)), bad_sends++;  // ignored
      // Sometimes held by a pause: then it is still waiting, and the buffer and the send
      // register are not the firmware's (both ignored) until it has left.
      bool hold = coin(0.2), was = pause;
      if (hold) pause = pause_forced = true, tick();
      wr(RNIC_FW_REG_ETH_TX_SEND, len);
      exp_raw.push_back(f);
      sends_left--;
      if (hold) {
        if (!(rd(RNIC_FW_REG_ETH_TX_STATUS) & 1)) busy_errs++, err("tx_status not busy after a send held by pause");
        wr(RNIC_FW_REG_ETH_TX_DATA, 0xDEADBEEF);
        wr(RNIC_FW_REG_ETH_TX_SEND, 64);
        pause = was, pause_forced = false;
      }
    }
  }
};

static int run(uint64_t seed, unsigned n, const char *tag, double p_rx, double p_s, double p_mac, double p_pause) {
  Tb tb(seed);
  tb.p_rx = p_rx, tb.p_s = p_s, tb.p_mac = p_mac, tb.p_pause = p_pause;
  tb.reset();
  for (unsigned i = 0; i < n; i++) {
    unsigned len = tb.rnd_len();
    tb.rx_in.push_back(tb.rnd_frame(len, tb.coin(0.6)));
    tb.s_in.push_back(tb.rnd_frame(1 + tb.below(300), false));
  }
  tb.sends_left = n / 2;
  for (int guard = 0; guard < 200000 && (!tb.rx_in.empty() || !tb.q_model.empty() || tb.sends_left || !tb.s_in.empty() ||
                                         !tb.exp_raw.empty() || !tb.exp_s.empty());
       guard++) {
    tb.fw_step();
    if (tb.rx_in.empty() && tb.s_in.empty()) tb.pause = false, tb.p_pause = 0;  // let the tail leave
  }
  for (int i = 0; i < 200; i++) tb.tick();
  std::string p = std::string("fw-eth-w") + std::to_string(TB_DW) + "-" + tag + "-";
  TbResults &r = tb.r;
  r.check(tb.q_errs == 0 && tb.q_model.empty() && tb.rx_in.empty(), (p + "rx-queue-byte-for-byte").c_str(), "%s",
          tb.first_err.c_str());
  r.check(tb.rx_full > 0 || std::string(tag) != "busy", (p + "rx-queue-full-seen").c_str(), "no frame found the queue full");
  r.check(tb.t->cnt_rx_o == tb.rx_queued && tb.t->cnt_full_o == tb.rx_full, (p + "rx-counters").c_str(),
          "queued %u (model %u) dropped %u (model %u)", tb.t->cnt_rx_o, tb.rx_queued, tb.t->cnt_full_o, tb.rx_full);
  r.check(tb.frame_errs == 0 && tb.exp_s.empty() && tb.eng_sent == n, (p + "tx-engine-frames-whole-in-order").c_str(),
          "%u of %u, %s", tb.eng_sent, n, tb.first_err.c_str());
  r.check(tb.exp_raw.empty() && tb.raw_sent == n / 2 && tb.t->cnt_tx_o == n / 2, (p + "tx-firmware-frames-byte-for-byte").c_str(),
          "%u of %u sent, counter %u, %u bad sends ignored", tb.raw_sent, n / 2, tb.t->cnt_tx_o, tb.bad_sends);
  r.check(tb.busy_errs == 0, (p + "tx-busy-while-waiting").c_str(), "%s", tb.first_err.c_str());
  r.check(tb.stab_errs == 0, (p + "tx-axis-stable").c_str(), "%s", tb.first_err.c_str());
  r.check(tb.pause_errs == 0, (p + "tx-no-start-while-paused").c_str(), "%s", tb.first_err.c_str());
  std::printf("INFO %s: %llu cycles, %u ARP-typed frames (%u queued, %u dropped full), %u engine + %u firmware frames out\n",
              p.c_str(), (unsigned long long)tb.cyc, tb.rx_seen_ours, tb.rx_queued, tb.rx_full, tb.eng_sent, tb.raw_sent);
  return r.exit_code();
}

int main(int argc, char **argv) {
  waves_setup(argc, argv);
  uint64_t seed = 1;
  unsigned n = 300;
  for (int i = 1; i + 1 < argc; i++) {
    std::string a = argv[i];
    if (a == "--seed") seed = std::strtoull(argv[++i], nullptr, 0);
    else if (a == "--frames") n = unsigned(std::atoi(argv[++i]));
  }
  Verilated::commandArgs(argc, argv);
  std::printf("INFO rnic_fw_eth testbench: data width %u, seed %llu, %u frames per run\n", TB_DW,
              (unsigned long long)seed, n);
  int rc = 0;
  rc |= run(seed, n, "busy", 0.9, 0.9, 0.9, 0.0);
  rc |= run(seed + 1, n, "paused", 0.5, 0.5, 0.6, 0.5);
  rc |= run(seed + 2, n, "slow-mac", 0.3, 0.9, 0.2, 0.1);
  return rc;
}
