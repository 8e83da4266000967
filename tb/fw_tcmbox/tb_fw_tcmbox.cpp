// tb_fw_tcmbox: testbench of the descriptor mailboxes on the soft core's tightly coupled window
// (rtl/core/rnic_fw_desc_mbox.sv, as rnic_fw_subsys instantiates it: the tx_desc, rq_desc and
// rd_desc instances of rnic_fw_tcmbox on one request of the mailboxes' page, answers ORed).
// A firmware model stores data words (random words of random mailboxes, some not written again
// between two descriptors, so old words must stay), commits, loads the status and other offsets
// of the page, and stores to offsets no register has; three engine models take the offered
// descriptors with random and sometimes long stalls. Checks: every descriptor an engine takes is
// the model's byte for byte (each stored word in its place of out_data, read through the spec's
// C accessors too), in commit order, none lost or duplicated; a commit while the engine has not
// taken the last one is dropped and counted, and the data words stored meanwhile do not disturb
// the offered descriptor; a status load answers busy and dropped as the model has them the cycle
// of the request; other loads answer 0; the 16-bit dropped count wraps; a reset clears the
// mailboxes mid-stream. Options: --seed N, --cycles N.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "Vrnic_fw_desc_mbox.h"
#include "rnic_spec.h"
#include "tb_check.h"
#include "tb_tc_port.h"
#include "verilated.h"

// a mailbox as the firmware sees it: data words, and what the RTL must hold
struct Mbox {
  const char *name;
  uint32_t data_off, commit_off, status_off, words;
  std::vector<uint32_t> data;               // data words as stored (reset: zero)
  bool valid = false;
  std::vector<uint32_t> offered;  // the descriptor on the port while valid
  uint32_t dropped = 0;           // 16-bit count
  uint64_t commits = 0, drops = 0, takes = 0, bad = 0;
  unsigned ready_pct = 50, stall_left = 0;
  Mbox(const char *n, uint32_t d, uint32_t c, uint32_t s, uint32_t bytes)
      : name(n), data_off(d), commit_off(c), status_off(s), words(bytes / 4), data(bytes / 4, 0), offered(bytes / 4, 0) {}
  uint32_t status() const { return rnic_mbox_status_mk_busy(valid) | rnic_mbox_status_mk_dropped(dropped); }
  void reset() {
    std::fill(data.begin(), data.end(), 0);
    std::fill(offered.begin(), offered.end(), 0);
    valid = false;
    dropped = 0;
  }
};

struct Tb {
  Vrnic_fw_desc_mbox m;
  std::mt19937_64 rng;
  Mbox mb[3] = {
      {"txd", RNIC_FW_TC_TXD_DATA, RNIC_FW_TC_TXD_COMMIT, RNIC_FW_TC_TXD_STATUS, RNIC_TX_DESC_SIZE},
      {"rqd", RNIC_FW_TC_RQD_DATA, RNIC_FW_TC_RQD_COMMIT, RNIC_FW_TC_RQD_STATUS, RNIC_RQ_DESC_SIZE},
      {"rdd", RNIC_FW_TC_RDD_DATA, RNIC_FW_TC_RDD_COMMIT, RNIC_FW_TC_RDD_STATUS, RNIC_RD_DESC_SIZE},
  };
  uint64_t cycle = 0, accessor_bad = 0, accessor_checked = 0;

  explicit Tb(uint64_t seed) : rng(seed) {
    m.clk_i = 0;
    m.rst_ni = 0;
    m.eval();
    m.rst_ni = 1;
    m.eval();
  }
  unsigned pct() { return unsigned(rng() % 100); }
  bool port_valid(int i) { return i == 0 ? m.txd_valid_o : i == 1 ? m.rqd_valid_o : m.rdd_valid_o; }
  uint32_t port_word(int i, unsigned w) {
    return i == 0 ? m.txd_data_o[w] : i == 1 ? m.rqd_data_o[w] : m.rdd_data_o[w];
  }
  void set_ready(int i, bool r) {
    if (i == 0) m.txd_ready_i = r;
    else if (i == 1) m.rqd_ready_i = r;
    else m.rdd_ready_i = r;
  }
  // the taken descriptor, byte for byte, and a few fields through the spec's C accessors
  void check_taken(Mbox &b, int i) {
    std::vector<uint8_t> bytes(b.words * 4);
    for (unsigned w = 0; w < b.words; w++) {
      uint32_t v = port_word(i, w);
      for (unsigned k = 0; k < 4; k++) bytes[4 * w + k] = uint8_t(v >> (8 * k));
      if (v != b.offered[w]) b.bad++;
    }
    accessor_checked++;
    const uint8_t *p = bytes.data();
    const std::vector<uint32_t> &o = b.offered;
    if (i == 0) {
      accessor_bad += rnic_tx_desc_get_qpn(p) != o[RNIC_TX_DESC_QPN_OFF / 4] ||
                      rnic_tx_desc_get_psn(p) != o[RNIC_TX_DESC_PSN_OFF / 4] ||
                      rnic_tx_desc_get_sge3_lkey(p) != o[RNIC_TX_DESC_SGE3_LKEY_OFF / 4] ||
                      rnic_tx_desc_get_remote_va(p) != (uint64_t(o[RNIC_TX_DESC_REMOTE_VA_OFF / 4 + 1]) << 32 |
                                                        o[RNIC_TX_DESC_REMOTE_VA_OFF / 4]);
    } else if (i == 1) {
      accessor_bad += rnic_rq_desc_get_qpn(p) != o[RNIC_RQ_DESC_QPN_OFF / 4] ||
                      rnic_rq_desc_get_sge3_lkey(p) != o[RNIC_RQ_DESC_SGE3_LKEY_OFF / 4] ||
                      rnic_rq_desc_get_wr_id(p) != (uint64_t(o[RNIC_RQ_DESC_WR_ID_OFF / 4 + 1]) << 32 |
                                                    o[RNIC_RQ_DESC_WR_ID_OFF / 4]);
    } else {
      accessor_bad += rnic_rd_desc_get_first_psn(p) != o[RNIC_RD_DESC_FIRST_PSN_OFF / 4] ||
                      rnic_rd_desc_get_length(p) != o[RNIC_RD_DESC_LENGTH_OFF / 4] ||
                      rnic_rd_desc_get_sge0_addr(p) != (uint64_t(o[RNIC_RD_DESC_SGE0_ADDR_OFF / 4 + 1]) << 32 |
                                                        o[RNIC_RD_DESC_SGE0_ADDR_OFF / 4]);
    }
  }
  // one clock: the engines take what is offered when ready; the model follows the request
  void tick() {
    for (int i = 0; i < 3; i++) {
      Mbox &b = mb[i];
      bool r;
      if (b.stall_left) {
        b.stall_left--;
        r = false;
      } else {
        r = pct() < b.ready_pct;
        if (pct() == 0) b.stall_left = unsigned(rng() % 200);  // a long stall: commits get dropped
      }
      set_ready(i, r);
    }
    m.eval();
    bool take[3];
    for (int i = 0; i < 3; i++) {
      Mbox &b = mb[i];
      bool ready = i == 0 ? m.txd_ready_i : i == 1 ? m.rqd_ready_i : m.rdd_ready_i;
      if (port_valid(i) != b.valid) b.bad++;
      take[i] = b.valid && ready;
      if (take[i]) {
        check_taken(b, i);
        b.takes++;
      }
    }
    // the request, as the RTL takes it at this edge
    if (m.tc_req_i && m.tc_we_i) {
      uint32_t a = m.tc_addr_i | RNIC_FW_TC_MBOX_PAGE;
      for (int i = 0; i < 3; i++) {
        Mbox &b = mb[i];
        if (a >= b.data_off && a < b.data_off + 4 * b.words && a % 4 == 0) b.data[(a - b.data_off) / 4] = m.tc_wdata_i;
        if (a == b.commit_off) {
          b.commits++;
          if (b.valid && !take[i]) {
            b.dropped = (b.dropped + 1) & 0xFFFFu;
            b.drops++;
          } else {
            b.offered = b.data;
            b.valid = true;
            take[i] = false;
          }
        }
      }
    }
    for (int i = 0; i < 3; i++)
      if (take[i]) mb[i].valid = false;
    m.clk_i = 1;
    m.eval();
    m.clk_i = 0;
    m.eval();
    cycle++;
    m.tc_req_i = 0;
    m.tc_we_i = 0;
  }
  uint32_t load(uint32_t off) { return tb_tc_load(m, [&] { tick(); }, off & 0xFFFu); }
  void store(uint32_t off, uint32_t v) { tb_tc_store(m, [&] { tick(); }, off & 0xFFFu, v); }
  void idle(unsigned n) {
    for (unsigned i = 0; i < n; i++) tick();
  }
  void reset() {
    m.rst_ni = 0;
    m.eval();
    m.rst_ni = 1;
    m.eval();
    for (Mbox &b : mb) b.reset();
  }
  // an offset of the page that no register of the mailboxes has
  uint32_t hole() {
    for (;;) {
      uint32_t a = RNIC_FW_TC_MBOX_PAGE + 4 * uint32_t(rng() % 1024);
      bool used = false;
      for (Mbox &b : mb)
        used |= (a >= b.data_off && a < b.data_off + 4 * b.words) || a == b.commit_off || a == b.status_off;
      if (!used) return a;
    }
  }
};

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  uint64_t seed = 1, cycles = 400000;
  for (int i = 1; i + 1 < argc; i++) {
    if (!std::strcmp(argv[i], "--seed")) seed = std::strtoull(argv[++i], nullptr, 0);
    else if (!std::strcmp(argv[i], "--cycles")) cycles = std::strtoull(argv[++i], nullptr, 0);
  }
  std::printf("INFO seed %llu\n", (unsigned long long)seed);
  TbResults r;
  Tb tb(seed);

  // the spec: the mailboxes lie in their page, the data words hold the whole layout
  r.check(RNIC_FW_TC_TXD_DATA >= RNIC_FW_TC_MBOX_PAGE && RNIC_FW_TC_RDD_STATUS < 2 * RNIC_FW_TC_MBOX_PAGE &&
              RNIC_FW_TC_TXD_COMMIT == RNIC_FW_TC_TXD_DATA + RNIC_TX_DESC_SIZE &&
              RNIC_FW_TC_RQD_COMMIT == RNIC_FW_TC_RQD_DATA + RNIC_RQ_DESC_SIZE &&
              RNIC_FW_TC_RDD_COMMIT == RNIC_FW_TC_RDD_DATA + RNIC_RD_DESC_SIZE,
          "tcmbox-spec-offsets");
  bool zero = true;
  for (Mbox &b : tb.mb) zero &= tb.load(b.status_off) == 0 && !tb.port_valid(int(&b - tb.mb));
  r.check(zero, "tcmbox-reset-idle");

  // 1. one descriptor of each, every word written in order, back to back, then the commit the
  // next cycle: the engines (not ready) hold it, the status says busy
  for (Mbox &b : tb.mb) b.ready_pct = 0;
  for (Mbox &b : tb.mb) {
    for (uint32_t w = 0; w < b.words; w++) tb.store(b.data_off + 4 * w, uint32_t(tb.rng()));
    tb.store(b.commit_off, 0);
  }
  bool busy = true;
  for (Mbox &b : tb.mb) busy &= (tb.load(b.status_off) & 1u) && b.valid;
  r.check(busy, "tcmbox-commit-offers-busy");
  // a second commit while busy: dropped and counted; the data stored meanwhile does not reach the port
  for (Mbox &b : tb.mb) {
    tb.store(b.data_off, 0xDEAD0000u);
    tb.store(b.commit_off, 0);
  }
  bool dropped = true;
  for (Mbox &b : tb.mb) {
    uint32_t s = tb.load(b.status_off);
    dropped &= rnic_mbox_status_v_dropped(s) == 1 && rnic_mbox_status_v_busy(s) == 1 &&
               tb.port_word(int(&b - tb.mb), 0) != 0xDEAD0000u;
  }
  r.check(dropped, "tcmbox-commit-while-busy-dropped-counted");
  for (Mbox &b : tb.mb) b.ready_pct = 100, b.stall_left = 0;
  tb.idle(1);
  bool taken = true;
  for (Mbox &b : tb.mb) taken &= b.takes == 1 && (tb.load(b.status_off) & 1u) == 0;
  r.check(taken, "tcmbox-engine-takes-status-free");

  // 2. random traffic: stores of random words (often only some words), commits, loads of the
  // status, loads and stores of holes, engines with random and long stalls
  for (Mbox &b : tb.mb) b.ready_pct = 35;
  uint64_t status_loads = 0, status_bad = 0, hole_loads = 0, hole_bad = 0;
  bool reset_done = false, reset_ok = false;
  while (tb.cycle < cycles) {
    Mbox &b = tb.mb[tb.rng() % 3];
    unsigned p = tb.pct();
    if (p < 55) {
      tb.store(b.data_off + 4 * uint32_t(tb.rng() % b.words), uint32_t(tb.rng()));
    } else if (p < 67) {
      tb.store(b.commit_off, uint32_t(tb.rng()));
    } else if (p < 85) {
      uint32_t want = b.status();  // the status the cycle of the request
      uint32_t got = tb.load(b.status_off);
      status_loads++;
      status_bad += got != want;
    } else if (p < 92) {
      hole_loads++;
      uint32_t a = tb.pct() < 50 ? tb.hole() : b.data_off + 4 * uint32_t(tb.rng() % b.words);  // data: write only
      hole_bad += tb.load(a) != 0;
    } else if (p < 96) {
      tb.store(tb.hole(), uint32_t(tb.rng()));
    } else {
      tb.idle(1 + unsigned(tb.rng() % 4));
    }
    if (!reset_done && tb.cycle > cycles / 2) {
      tb.reset();
      reset_done = true;
      reset_ok = !tb.m.txd_valid_o && !tb.m.rqd_valid_o && !tb.m.rdd_valid_o && tb.m.txd_data_o[0] == 0 &&
                 tb.load(RNIC_FW_TC_TXD_STATUS) == 0;
    }
  }
  uint64_t bad = 0, commits = 0, drops = 0, takes = 0;
  for (Mbox &b : tb.mb) {
    bad += b.bad;
    commits += b.commits;
    drops += b.drops;
    takes += b.takes;
    std::printf("INFO %s: %llu commits, %llu taken, %llu dropped\n", b.name, (unsigned long long)b.commits,
                (unsigned long long)b.takes, (unsigned long long)b.drops);
  }
  r.check(bad == 0 && takes > 10000, "tcmbox-descriptors-byte-exact-in-order", "%llu bad, %llu taken",
          (unsigned long long)bad, (unsigned long long)takes);
  r.check(tb.accessor_bad == 0 && tb.accessor_checked == takes, "tcmbox-fields-through-spec-accessors",
          "%llu of %llu wrong", (unsigned long long)tb.accessor_bad, (unsigned long long)tb.accessor_checked);
  r.check(drops > 1000 && status_bad == 0 && status_loads > 10000, "tcmbox-status-busy-dropped",
          "%llu of %llu status loads wrong, %llu drops", (unsigned long long)status_bad,
          (unsigned long long)status_loads, (unsigned long long)drops);
  r.check(hole_bad == 0 && hole_loads > 1000, "tcmbox-other-loads-zero", "%llu of %llu nonzero",
          (unsigned long long)hole_bad, (unsigned long long)hole_loads);
  r.check(reset_done && reset_ok, "tcmbox-reset-mid-stream-clears");

  // 3. the dropped count wraps at 16 bits: 65 540 commits into a mailbox whose engine waits
  Mbox &t = tb.mb[1];
  t.ready_pct = 0;
  t.stall_left = 0;
  tb.store(t.commit_off, 0);
  uint32_t d0 = rnic_mbox_status_v_dropped(tb.load(t.status_off));
  for (unsigned i = 0; i < 65540; i++) tb.store(t.commit_off, i);
  uint32_t s = tb.load(t.status_off);
  r.check(rnic_mbox_status_v_busy(s) && rnic_mbox_status_v_dropped(s) == ((d0 + 65540) & 0xFFFFu) && s == t.status(),
          "tcmbox-dropped-count-wraps", "status 0x%08x, dropped before %u", s, d0);
  return r.exit_code();
}
