// tb_sr_tc: testbench of the send-retirement engine's tightly coupled registers
// (rtl/sq_retire/sq_retire_tc.sv) against a model of the engine's ports (random ready on the
// record and operation ports, done pulses, free count, query word). A firmware model stores
// random records (srt_rec0-5, srt_rec_qpn) and operations (srt_cmd_lo/hi), some deliberately while
// the port is busy: every committed record / operation reaches the engine once, byte for byte, in
// order; a commit stored while srt_status says busy is dropped and sets the sticky dropped bit;
// srt_status shows the engine's free count, the firmware-port done count (done_src 2 only) and the
// busy bits; srt_qry0-3 read the engine's query word; srt_qp_en stores reach the fork a cycle later
// and the first enable turns fork_on on for good; offsets the block does not own read 0.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <random>
#include <vector>

#include "Vsq_retire_tc.h"
#include "rnic_spec.h"
#include "tb_check.h"
#include "verilated.h"

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  uint64_t seed = 1;
  unsigned ops = 20000;
  for (int i = 1; i + 1 < argc; i++) {
    if (!std::strcmp(argv[i], "--seed")) seed = std::strtoull(argv[++i], nullptr, 0);
    else if (!std::strcmp(argv[i], "--ops")) ops = std::strtoul(argv[++i], nullptr, 0);
  }
  std::printf("# tb_sr_tc seed %llu ops %u\n", (unsigned long long)seed, ops);
  std::mt19937_64 rng(seed);
  auto coin = [&](unsigned pct) { return rng() % 100 < pct; };
  TbResults r;
  Vsq_retire_tc m;
  m.clk_i = 0;
  m.rst_ni = 0;
  m.tc_req_i = 0;
  m.rec_ready_i = 1;
  m.cmd_ready_i = 1;
  m.done_i = 0;
  m.free_i = 256;
  m.eval();
  // engine model: one-entry input registers emptied at random
  bool rin_full = false, cin_full = false;
  std::vector<std::vector<uint32_t>> got_rec, got_cmd;
  unsigned fw_done = 0, en_writes_seen = 0, en_bad = 0;
  int en_pend_q = -1;  // the srt_qp_en store of the last cycle: seen on en_* now
  uint32_t en_pend_v = 0;
  auto tick = [&] {
    m.rec_ready_i = !rin_full;
    m.cmd_ready_i = !cin_full;
    m.done_i = coin(20);
    m.done_src_i = rng() % 3;
    m.eval();
    if (m.rec_valid_o && m.rec_ready_i) {
      std::vector<uint32_t> w(8);
      for (int i = 0; i < 8; i++) w[i] = m.rec_o[i];
      got_rec.push_back(w);
      rin_full = true;
    }
    if (m.cmd_valid_o && m.cmd_ready_i) {
      got_cmd.push_back({uint32_t(m.cmd_o), uint32_t(m.cmd_o >> 32)});
      cin_full = true;
    }
    if (m.rst_ni && m.done_i && m.done_src_i == 2) fw_done++;
    if (m.en_we_o) {
      en_writes_seen++;
      en_bad += en_pend_q < 0 || m.en_qpn_o != (en_pend_v & 0xFFFFFF) || m.en_o != (en_pend_v >> 24 & 1);
    } else {
      en_bad += en_pend_q >= 0;
    }
    en_pend_q = -1;
    if (m.tc_req_i && m.tc_we_i && m.tc_addr_i == RNIC_FW_TC_SRT_QP_EN) en_pend_q = 0, en_pend_v = m.tc_wdata_i;
    m.clk_i = 1;
    m.eval();
    m.clk_i = 0;
    m.eval();
    if (rin_full && coin(30)) rin_full = false;
    if (cin_full && coin(30)) cin_full = false;
    m.tc_req_i = 0;
  };
  for (int i = 0; i < 4; i++) tick();
  m.rst_ni = 1;
  auto st = [&](uint32_t off, uint32_t v) {
    m.tc_req_i = 1, m.tc_we_i = 1, m.tc_addr_i = off, m.tc_wdata_i = v;
    tick();
  };
  auto ld = [&](uint32_t off) {
    m.tc_req_i = 1, m.tc_we_i = 0, m.tc_addr_i = off;
    tick();
    m.eval();
    return uint32_t(m.tc_rdata_o);
  };
  uint32_t s0 = ld(RNIC_FW_TC_SRT_STATUS);
  r.check(rnic_srt_status_v_fw_done(s0) == 0 && rnic_srt_status_v_free(s0) == 256 && !rnic_srt_status_v_dropped(s0) &&
              !rnic_srt_status_v_fork_on(s0) && !m.fork_on_o,
          "srt-reset-status", "0x%x", s0);

  std::vector<std::vector<uint32_t>> exp_rec, exp_cmd;
  unsigned drops_exp = 0, status_bad = 0, qry_bad = 0, other_bad = 0, forced_drops = 0;
  bool dropped_seen_early = false, on_before = false, on_bad = false;
  for (unsigned k = 0; k < ops; k++) {
    unsigned what = rng() % 10;
    if (what < 4) {
      // a record: the firmware checks srt_status first, except now and then (a dropped commit)
      std::vector<uint32_t> w(8, 0);
      for (int i = 0; i < 6; i++) w[i] = uint32_t(rng());
      w[6] = uint32_t(rng()) & 0xFFFFFF;
      uint32_t s = ld(RNIC_FW_TC_SRT_STATUS);
      bool busy = rnic_srt_status_v_rec_busy(s);
      bool force = coin(5);
      if (busy && !force) continue;
      for (int i = 0; i < 6; i++) st(RNIC_FW_TC_SRT_REC0 + 4 * i, w[i]);
      // busy as the status showed it may have cleared meanwhile: decide from the port's state
      m.eval();
      bool now_busy = rin_full || m.rec_valid_o;  // the ready the commit cycle will see
      st(RNIC_FW_TC_SRT_REC_QPN, w[6] | (uint32_t(rng()) & 0xFF000000u));  // bits 31:24 ignored
      if (now_busy) drops_exp++, forced_drops++;
      else exp_rec.push_back(w);
      if (!now_busy && coin(force ? 50 : 2)) {
        // a second commit in the very next cycle: the first is still in the port, it is dropped
        m.eval();
        bool busy2 = rin_full || m.rec_valid_o;
        st(RNIC_FW_TC_SRT_REC_QPN, uint32_t(rng()) & 0xFFFFFF);
        if (busy2) drops_exp++, forced_drops++;
        else other_bad++;  // the port cannot be free right after a commit
      }
    } else if (what < 7) {
      uint32_t lo = uint32_t(rng()), hi = uint32_t(rng());
      uint32_t s = ld(RNIC_FW_TC_SRT_STATUS);
      bool force = coin(5);
      if (rnic_srt_status_v_busy(s) && !force) continue;
      st(RNIC_FW_TC_SRT_CMD_LO, lo);
      m.eval();
      bool now_busy = cin_full || m.cmd_valid_o;
      st(RNIC_FW_TC_SRT_CMD_HI, hi);
      if (now_busy) drops_exp++, forced_drops++;
      else exp_cmd.push_back({lo, hi});
      if (!now_busy && coin(force ? 50 : 2)) {
        m.eval();
        bool busy2 = cin_full || m.cmd_valid_o;
        st(RNIC_FW_TC_SRT_CMD_HI, uint32_t(rng()));
        if (busy2) drops_exp++, forced_drops++;
        else other_bad++;
      }
    } else if (what == 7) {
      // the query word and the free count, as the engine shows them
      for (int i = 0; i < 4; i++) m.qry_i[i] = uint32_t(rng());
      m.free_i = uint32_t(rng() % 257);
      for (int i = 0; i < 4; i++) qry_bad += ld(RNIC_FW_TC_SRT_QRY0 + 4 * i) != m.qry_i[i];
      uint32_t s = ld(RNIC_FW_TC_SRT_STATUS);
      unsigned b0 = status_bad;
      status_bad += rnic_srt_status_v_free(s) != m.free_i;
      // the done count: loaded one cycle after the request, so it counts dones up to that edge
      status_bad += rnic_srt_status_v_fw_done(s) != (fw_done & 0xFFFF) && rnic_srt_status_v_fw_done(s) + 1 != (fw_done & 0xFFFF);
      if (drops_exp && !rnic_srt_status_v_dropped(s)) status_bad++;
      if (status_bad != b0 && status_bad < 3)
        std::printf("# status 0x%x free %u done %u drops %u\n", s, unsigned(m.free_i), fw_done, drops_exp);
      if (!drops_exp && rnic_srt_status_v_dropped(s)) dropped_seen_early = true;
      on_bad |= rnic_srt_status_v_fork_on(s) != on_before || m.fork_on_o != on_before;
    } else if (what == 8) {
      uint32_t q = uint32_t(rng()) & 0xFFFFFF;
      bool e = coin(k > ops / 2 ? 50 : 0);  // enables only in the second half: fork_on off before
      st(RNIC_FW_TC_SRT_QP_EN, q | uint32_t(e) << 24);
      on_before |= e;
    } else {
      // an offset it does not own: 0 (the others' registers are OR'd into the window's data)
      uint32_t off = 0x800 + 4 * uint32_t(rng() % 0x40);
      if (off >= RNIC_FW_TC_SRT_REC0 && off <= RNIC_FW_TC_SRT_QP_EN) off = 0x900;
      other_bad += ld(off) != 0;
    }
  }
  for (int i = 0; i < 200; i++) tick();
  r.check(got_rec == exp_rec, "srt-records-once-in-order-byte-exact", "got %zu expected %zu", got_rec.size(), exp_rec.size());
  r.check(got_cmd == exp_cmd, "srt-ops-once-in-order-byte-exact", "got %zu expected %zu", got_cmd.size(), exp_cmd.size());
  r.check(status_bad == 0 && !dropped_seen_early && forced_drops > 10, "srt-status-free-done-dropped",
          "%u bad, early %d, drops %u", status_bad, dropped_seen_early, forced_drops);
  r.check(qry_bad == 0, "srt-query-words", "%u", qry_bad);
  r.check(en_bad == 0 && en_writes_seen > ops / 20, "srt-qp-en-to-fork-a-cycle-later", "%u bad of %u", en_bad, en_writes_seen);
  r.check(!on_bad && on_before && m.fork_on_o, "srt-fork-on-sticky-from-first-enable");
  r.check(other_bad == 0, "srt-other-offsets-read-0", "%u", other_bad);
  std::printf("# records %zu ops %zu dropped %u enables %u\n", got_rec.size(), got_cmd.size(), forced_drops, en_writes_seen);
  return r.exit_code();
}
