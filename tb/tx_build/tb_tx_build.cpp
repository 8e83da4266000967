// tb_tx_build: testbench of the transmit builder (rtl/tx_build/tx_build.sv) against txb_ref.h,
// the firmware's send_fast/rec_srt rule written from the spec's layouts. Random commands, one at
// a time as the firmware gives them, on random WQEBBs in a model of the engines' page of the
// tightly coupled window (the fetch buffer, its doorbell region, the BlueFlame capture): every
// opcode, flag, SGE and segment count, lengths around the packet bound of each path MTU, wrong WQE
// indices, PSNs across the 2^24 wrap, resends, a capture that does not name the doorbell or is
// overwritten while or after it is read, the retirement pool at 0..3 free records. Checked per
// command: the rows read (offsets, in order), the status (busy from the cycle after the command
// is taken until the end; result; next PSN), the tx_desc and the sr_rec word for word, each
// handed exactly once and only for SENT (nothing at all for "not mine"), the outputs never loaded
// while the firmware's own commits are pending. Random ready on the read port (latency 1-3),
// random back-pressure on both outputs, firmware commits pending at random.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include "Vtx_build.h"
#include "main/sim_waves.h"
#include "tb_check.h"
#include "txb_ref.h"
#include "verilated.h"

#ifndef TB_DW
#define TB_DW 512
#endif

namespace {

constexpr unsigned kRowBytes = TB_DW / 8;
constexpr unsigned kRows = RNIC_WQEBB_BYTES / kRowBytes;
constexpr uint32_t kBfBb = RNIC_FW_TC_BF_DATA_BASE / RNIC_WQEBB_BYTES;

struct Row {
  uint64_t due;
  uint8_t b[kRowBytes];
};

struct Tb {
  Vtx_build *m;
  Waves waves;
  TbResults res;
  std::mt19937_64 rng;
  uint64_t cycle = 0;
  uint8_t win[4096];  // the engines' page of the window
  std::deque<Row> rows;
  uint64_t last_due = 0;
  // the current command's observations
  std::vector<uint32_t> rd_offs;
  uint64_t t_last_read = 0;
  std::vector<std::vector<uint8_t>> got_txd, got_rec;
  bool pend_prev = false;  // a firmware commit was pending in the previous cycle
  unsigned txd_pct = 70, rec_pct = 70, rd_pct = 70;
  unsigned pend_left = 0;
  bool directed = false;  // every port ready, answers one cycle late, nothing pending
  bool bad = false;
  std::string why;
  // coverage
  uint64_t n_res[16] = {}, n_sent_sge[3] = {}, n_sent_write = 0, n_sent_send = 0, n_sent_retx = 0, n_sent_bf = 0;
  uint64_t n_sent_zero = 0, n_at_bound = 0, n_over_bound = 0, n_wrap = 0, n_bf_over_early = 0, n_bf_over_late = 0;
  uint64_t n_txd_bp = 0, n_rec_bp = 0, n_rd_bp = 0, n_pend_wait = 0, n_lat[4] = {};
  uint64_t n_bad_rows = 0, n_bad_status = 0, n_bad_order = 0, n_bad_emit = 0, n_bad_res = 0, n_bad_txd = 0, n_bad_rec = 0;
  uint64_t n_bad_wait = 0, n_bad_sent = 0;
  // runs: whole runs of 2 or more sent, runs stopped after a first WQE, runs that went past the
  // region's end, whole runs of 8; WAIT answers
  uint64_t n_run_full = 0, n_run_stop = 0, n_run_wrap = 0, n_run_8 = 0, n_wait = 0;
  // the ports blocked for a whole command (the directed WAIT checks)
  bool block_txd = false, block_rec = false;
  // the engine's wait condition (tx_build.sv S_EM: a firmware commit pending, the ports, the
  // pool) false in this many cycles in a row: a WAIT answer needs TXB_WAIT of them
  uint32_t cur_free = 256;
  bool cur_retx = false;
  uint64_t false_run = 0;

  explicit Tb(uint64_t seed) : rng(seed) {
    m = new Vtx_build;
    waves.open(m, "tx_build");
    for (auto &b : win) b = uint8_t(rng());
  }
  ~Tb() {
    m->final();
    delete m;
  }
  uint64_t r(uint64_t n) { return n ? rng() % n : 0; }
  bool pct(unsigned p) { return r(100) < p; }
  void fail(const std::string &w) {
    if (!bad) why = w;
    bad = true;
  }

  // one clock: the read port's answers and requests, the outputs' handshakes, then the edge
  void tick() {
    // the firmware's commits pending (in stretches), the outputs' and read port's readiness
    if (pend_left == 0 && !directed && pct(3)) pend_left = 1 + unsigned(r(12));
    bool pend = pend_left > 0;
    if (pend_left) pend_left--;
    m->fw_txd_pend_i = pend && pct(70);
    m->fw_rec_pend_i = pend && !m->fw_txd_pend_i;
    m->txd_ready_i = !block_txd && (directed || pct(txd_pct));
    m->rec_ready_i = !block_rec && (directed || pct(rec_pct));
    m->rd_ready_i = directed || pct(rd_pct);
    m->rd_rvalid_i = !rows.empty() && rows.front().due <= cycle;
    if (m->rd_rvalid_i) {
#if TB_DW <= 64
      uint64_t v;
      std::memcpy(&v, rows.front().b, 8);
      m->rd_rdata_i = v;
#else
      for (unsigned i = 0; i < kRowBytes / 4; i++) {
        uint32_t v;
        std::memcpy(&v, rows.front().b + 4 * i, 4);
        m->rd_rdata_i[i] = v;
      }
#endif
    }
    waves.eval(*m);
    bool pend_now = m->fw_txd_pend_i || m->fw_rec_pend_i;
    bool cond = !pend_now && ((m->txd_ready_i && (cur_retx || m->rec_ready_i)) || (!cur_retx && cur_free < 2));
    false_run = cond ? 0 : false_run + 1;
    if (m->rd_rvalid_i) rows.pop_front();
    if (m->rd_valid_o && !m->rd_ready_i) n_rd_bp++;
    if (m->rd_valid_o && m->rd_ready_i) {
      // the row as it is at this edge (a write in this cycle lands after it, as in a LUTRAM)
      Row rw;
      uint64_t lat = directed ? 1 : 1 + r(3);
      n_lat[lat]++;
      rw.due = std::max(cycle + lat, last_due + 1);
      last_due = rw.due;
      uint32_t off = m->rd_off_o;
      rd_offs.push_back(off);
      std::memcpy(rw.b, win + (off & 0xFFF & ~(kRowBytes - 1)), kRowBytes);
      rows.push_back(rw);
      t_last_read = cycle;
    }
    if (m->txd_valid_o) {
      if (m->txd_ready_i) {
        std::vector<uint8_t> v(RNIC_TX_DESC_SIZE);
        for (unsigned i = 0; i < RNIC_TX_DESC_SIZE / 4; i++) {
          uint32_t w = m->txd_o[i];
          std::memcpy(v.data() + 4 * i, &w, 4);
        }
        got_txd.push_back(v);
      } else {
        n_txd_bp++;
      }
    }
    if (m->rec_valid_o) {
      if (m->rec_ready_i) {
        std::vector<uint8_t> v(RNIC_SR_REC_SIZE);
        for (unsigned i = 0; i < RNIC_SR_REC_SIZE / 4; i++) {
          uint32_t w = m->rec_o[i];
          std::memcpy(v.data() + 4 * i, &w, 4);
        }
        got_rec.push_back(v);
      } else {
        n_rec_bp++;
      }
    }
    bool txd_was = m->txd_valid_o, rec_was = m->rec_valid_o;
    m->clk_i = 1;
    waves.eval(*m);
    m->clk_i = 0;
    waves.eval(*m);
    cycle++;
    // an output loaded at this edge: no firmware commit was pending in the cycle before it
    if ((m->txd_valid_o && !txd_was) || (m->rec_valid_o && !rec_was)) {
      if (pend_now) n_bad_order++;
      if (pend_prev) n_pend_wait++;
    }
    pend_prev = pend_now;
  }

  // a random WQEBB for the command (and its fields), written at its slot
  void make_wqe(uint8_t *cmd, uint8_t *w, uint32_t &len_class, bool good = false) {
    for (unsigned i = 0; i < RNIC_WQEBB_BYTES; i++) w[i] = uint8_t(rng());
    if (good) {  // one the engine sends (a run's usual WQE)
      uint32_t op = uint32_t(r(4)), is_write = op <= RNIC_WQE_OP_RDMA_WRITE_WITH_IMM, nsge = uint32_t(r(3 - is_write));
      rnic_wqe_ctrl_set_opcode(w, op);
      rnic_wqe_ctrl_set_flags(w, uint32_t(r(256)) & ~(1u << RNIC_WQE_FLAG_INLINE));
      rnic_wqe_ctrl_set_wqe_index(w, rnic_txb_cmd_get_wqe_index(cmd));
      rnic_wqe_ctrl_set_num_ds(w, nsge + is_write);
      rnic_wqe_ctrl_set_num_sge(w, nsge);
      rnic_wqe_ctrl_set_total_len(w, pct(10) ? 0 : uint32_t(r(4 << (7 + rnic_txb_cmd_get_path_mtu(cmd)))));
      len_class = 0;
      return;
    }
    uint32_t op = pct(85) ? uint32_t(r(4)) : pct(70) ? 4 + uint32_t(r(3)) : uint32_t(r(256));
    uint32_t is_write = op <= RNIC_WQE_OP_RDMA_WRITE_WITH_IMM;
    rnic_wqe_ctrl_set_opcode(w, op);
    uint32_t fl = uint32_t(r(8));  // SIGNALED, FENCE, SOLICITED at random
    if (pct(8)) fl |= 1u << RNIC_WQE_FLAG_INLINE;
    if (pct(5)) fl |= uint32_t(r(256)) & ~(1u << RNIC_WQE_FLAG_INLINE);  // bits no rule reads
    rnic_wqe_ctrl_set_flags(w, fl);
    uint32_t idx = rnic_txb_cmd_get_wqe_index(cmd);
    rnic_wqe_ctrl_set_wqe_index(w, pct(90) ? idx : pct(50) ? (idx + 1 + uint32_t(r(0xFFFE))) & 0xFFFF : idx ^ (1u << r(16)));
    uint32_t nsge = uint32_t(r(3)), num_ds = nsge + is_write;
    if (pct(10)) num_ds = uint32_t(r(4));
    if (pct(3)) num_ds = uint32_t(r(256));
    if (pct(5)) nsge = uint32_t(r(pct(50) ? 5 : 256));
    rnic_wqe_ctrl_set_num_ds(w, num_ds);
    rnic_wqe_ctrl_set_num_sge(w, nsge);
    // lengths around the packet bound of the command's MTU
    uint32_t mtu = 1u << (7 + rnic_txb_cmd_get_path_mtu(cmd)), bound = RNIC_TX_SEG_PKTS * mtu;
    uint32_t len;
    switch (r(9)) {
    case 0: len = 0; break;
    case 1: len = 1 + uint32_t(r(64)); break;
    case 2: len = bound - uint32_t(r(3)); break;  // at or just under the bound
    case 3: len = bound + 1 + uint32_t(r(2)); break;
    case 4: len = mtu * (1 + uint32_t(r(RNIC_TX_SEG_PKTS))) + uint32_t(r(3)) - 1; break;
    case 5: len = uint32_t(rng()); break;
    case 6: len = 0xFFFFFFFFu - uint32_t(r(mtu)); break;  // where len + mtu - 1 wraps 32 bits
    default: len = uint32_t(r(bound + 1)); break;
    }
    len_class = len == bound ? 1 : len == bound + 1 ? 2 : 0;
    rnic_wqe_ctrl_set_total_len(w, len);
  }

  int run(unsigned ops) {
    m->clk_i = 0;
    m->rst_ni = 1;
    m->cmd_valid_i = 0;
    m->rd_rvalid_i = 0;
    waves.eval(*m);
    m->rst_ni = 0;
    waves.eval(*m);
    for (int i = 0; i < 2; i++) {
      m->clk_i = 1;
      waves.eval(*m);
      m->clk_i = 0;
      waves.eval(*m);
    }
    m->rst_ni = 1;
    waves.eval(*m);
    bool first_status_idle = m->status_o == 0 && m->cmd_ready_o && !m->txd_valid_o && !m->rec_valid_o && !m->rd_valid_o;
    res.check(first_status_idle, "txb-reset-idle", "status 0x%x", unsigned(m->status_o));

    uint64_t lat_cycles[5] = {0, 0, 0, 0, 0};
    // the last five: a SENT and a "not mine" WQE with every port ready (the latency figures), a
    // command whose record port, then one whose descriptor port stays blocked (WAIT, bounded),
    // a run of eight with every port ready
    const unsigned kDirected = 5;
    for (unsigned k = 0; k < ops + kDirected && !bad; k++) {
      directed = k >= ops;
      unsigned dk = directed ? k - ops : 0;
      if (k % 500 == 0) {
        // a new back-pressure mix: stretches of a stalled output now and then
        txd_pct = pct(20) ? 5 : 30 + unsigned(r(71));
        rec_pct = pct(20) ? 5 : 30 + unsigned(r(71));
        rd_pct = 30 + unsigned(r(71));
      }
      bool run_mode = directed ? dk == 4 : pct(40);
      alignas(8) uint8_t cmd[RNIC_TXB_CMD_SIZE] = {};
      rnic_txb_cmd_set_qpn(cmd, uint32_t(rng()) & 0xFFFFFF);
      uint32_t pm = pct(95) ? 1 + uint32_t(r(5)) : uint32_t(r(8));
      rnic_txb_cmd_set_path_mtu(cmd, pm);
      rnic_txb_cmd_set_sig_all(cmd, pct(30));
      rnic_txb_cmd_set_send_cqn(cmd, uint32_t(rng()) & 0xFFFF);
      rnic_txb_cmd_set_page(cmd, uint32_t(rng()) & 0xFFFF);
      bool bf = !directed && pct(run_mode ? 10 : 25);
      uint32_t wl, rbase;  // the region: log2 of its slots, its first slot
      if (bf) {
        wl = 2;
        rbase = kBfBb;
      } else if (pct(50)) {
        wl = 3;
        rbase = RNIC_FW_TC_WQF_BUF_BASE / 64;
      } else {
        wl = 4;
        rbase = RNIC_FW_TC_WQF_DB_BUF_BASE / 64;
      }
      static_assert(RNIC_FW_TC_WQF_BUF_BBS == 8 && RNIC_FW_TC_WQF_DB_BUF_BBS == 16, "the regions' wrap_log");
      uint32_t src = bf ? kBfBb : rbase + uint32_t(r(1u << wl));
      if (directed) src = RNIC_FW_TC_WQF_DB_BUF_BASE / 64 + (dk == 4 ? 13 : 0), wl = 4;
      rnic_txb_cmd_set_src_bb(cmd, src);
      rnic_txb_cmd_set_bf(cmd, bf);
      rnic_txb_cmd_set_more(cmd, dk == 4 ? 7 : run_mode ? uint32_t(r(8)) : pct(10) ? uint32_t(r(8)) : 0);
      // wrap_log of a single WQE is not read: at random then
      rnic_txb_cmd_set_wrap_log(cmd, rnic_txb_cmd_get_more(cmd) == 0 && pct(50) ? uint32_t(r(8)) : wl);
      uint32_t seq = uint32_t(r(256));
      rnic_txb_cmd_set_bf_seq(cmd, seq);
      rnic_txb_cmd_set_wqe_index(cmd, uint32_t(rng()) & 0xFFFF);
      uint32_t psn = pct(15) ? 0xFFFFFFu - uint32_t(r(40)) : uint32_t(rng()) & 0xFFFFFF;
      rnic_txb_cmd_set_psn(cmd, psn);
      rnic_txb_cmd_set_retx(cmd, !directed && pct(run_mode ? 10 : 20));
      // bits no field holds: random (the engine must not read them)
      if (pct(30)) {
        cmd[3] = uint8_t(cmd[3] | r(16) << 4);
        cmd[8] = uint8_t(cmd[8] | r(4) << 6);
      }
      uint32_t count = txb_ref_count(cmd);
      alignas(8) uint8_t w[8][RNIC_WQEBB_BYTES];
      uint32_t len_class[8];
      for (uint32_t i = 0; i < count; i++) {
        alignas(8) uint8_t ci[RNIC_TXB_CMD_SIZE];
        txb_ref_wqe_cmd(cmd, i, psn, ci);
        make_wqe(ci, w[i], len_class[i], dk == 4 || (run_mode && (i > 0 || pct(70)) && pct(93)));
      }
      if (directed && dk != 4) {
        rnic_txb_cmd_set_path_mtu(cmd, pm = 5);
        rnic_wqe_ctrl_set_opcode(w[0], RNIC_WQE_OP_RDMA_WRITE);
        rnic_wqe_ctrl_set_flags(w[0], 1u << RNIC_WQE_FLAG_SIGNALED);
        rnic_wqe_ctrl_set_wqe_index(w[0], rnic_txb_cmd_get_wqe_index(cmd) + (dk == 1 ? 1 : 0));  // the second: INDEX
        rnic_wqe_ctrl_set_num_ds(w[0], 2);
        rnic_wqe_ctrl_set_num_sge(w[0], 1);
        rnic_wqe_ctrl_set_total_len(w[0], 64);
      }
      for (uint32_t i = 0; i < count; i++) std::memcpy(win + txb_ref_bb(cmd, i) * 64, w[i], RNIC_WQEBB_BYTES);
      // the capture's status: names this doorbell, or not (valid, seq or page off)
      alignas(4) uint8_t bs[4] = {};
      bool named = !bf || pct(85);
      rnic_bf_status_set_page(bs, rnic_txb_cmd_get_page(cmd));
      rnic_bf_status_set_seq(bs, seq);
      rnic_bf_status_set_wqebbs(bs, 1 + uint32_t(r(4)));
      rnic_bf_status_set_valid(bs, 1);
      if (!named) {
        switch (r(3)) {
        case 0: rnic_bf_status_set_valid(bs, 0); break;
        case 1: rnic_bf_status_set_seq(bs, (seq + 1 + uint32_t(r(255))) & 0xFF); break;
        default: rnic_bf_status_set_page(bs, rnic_txb_cmd_get_page(cmd) ^ (1u << r(16))); break;
        }
      }
      uint32_t bsv;
      std::memcpy(&bsv, bs, 4);
      m->bf_status_i = bsv;
      // an overwrite of the capture by the host at some cycle of the command (bf only)
      int64_t over_at = bf && named && pct(25) ? int64_t(r(kRows + 8)) : -1;
      uint32_t fr = directed || pct(70) ? 256 : uint32_t(r(4));
      m->free_i = fr;
      cur_free = fr;
      cur_retx = rnic_txb_cmd_get_retx(cmd);
      block_rec = dk == 2;
      block_txd = dk == 3;
      // the command, after a few idle cycles
      for (unsigned i = directed ? 2 : unsigned(r(3)); i; i--) tick();
      for (unsigned i = 0; i < 4; i++) {
        uint32_t v;
        std::memcpy(&v, cmd + 4 * i, 4);
        m->cmd_i[i] = v;
      }
      m->cmd_valid_i = 1;
      rd_offs.clear();
      got_txd.clear();
      got_rec.clear();
      if (!m->cmd_ready_o) fail("not ready when idle");
      tick();
      m->cmd_valid_i = 0;
      uint64_t t0 = cycle;
      int64_t over_cycle = -1;
      bool done = false;
      for (unsigned n = 0; n < 4000 && !done; n++) {
        if (over_at >= 0 && int64_t(cycle - t0) == over_at) {
          // the write lands at this edge: a read at the same edge gets the old bytes
          over_cycle = int64_t(cycle);
          uint8_t *cw = win + kBfBb * 64;
          cw[r(RNIC_WQEBB_BYTES)] ^= uint8_t(1 + r(255));
        }
        alignas(4) uint8_t st[4];
        uint32_t sv = m->status_o;
        std::memcpy(st, &sv, 4);
        if (!rnic_txb_status_get_busy(st)) {
          done = true;
          break;
        }
        tick();
        if (over_cycle >= 0 && int64_t(cycle) == over_cycle + 1) {
          rnic_bf_status_set_valid(bs, 0);  // doorbell_bar clears valid the cycle after the write
          std::memcpy(&bsv, bs, 4);
          m->bf_status_i = bsv;
        }
      }
      block_rec = block_txd = false;
      if (!done) {
        fail("command " + std::to_string(k) + " never finished");
        break;
      }
      // busy was seen in the first cycle after the command (t0): the loop ran at least once
      if (cycle == t0) n_bad_status++;
      if (directed) lat_cycles[dk] = cycle - t0 + 1;  // counted from the cycle the command is taken
      alignas(4) uint8_t st[4];
      uint32_t sv = m->status_o;
      std::memcpy(st, &sv, 4);
      uint32_t got_res = rnic_txb_status_get_result(st), got_next = rnic_txb_status_get_next_psn(st);
      uint32_t got_sent = m->sent_o;
      // what the reference says, WQE by WQE
      bool over_early = over_cycle >= 0 && uint64_t(over_cycle) <= t_last_read;
      bool over_late = over_cycle >= 0 && !over_early;
      std::vector<txb_ref_out> outs;
      uint32_t exp_res = RNIC_TXB_RESULT_SENT, exp_next = psn, stop_res = RNIC_TXB_RESULT_SENT;
      auto reference = [&](bool held) {
        outs.clear();
        exp_res = RNIC_TXB_RESULT_SENT;
        exp_next = psn;
        for (uint32_t i = 0; i < count; i++) {
          alignas(8) uint8_t ci[RNIC_TXB_CMD_SIZE];
          txb_ref_wqe_cmd(cmd, i, exp_next, ci);
          txb_ref_out o;
          txb_ref(ci, w[i], held, fr, &o);
          if (o.result != RNIC_TXB_RESULT_SENT) {
            exp_res = o.result;
            break;
          }
          outs.push_back(o);
          exp_next = o.next_psn;
        }
      };
      reference(named && !over_early);
      if (over_late && got_res == RNIC_TXB_RESULT_BF_LOST) reference(false);  // the engine may or may not have seen it yet
      if (over_early) n_bf_over_early++;
      if (over_late) n_bf_over_late++;
      uint32_t exp_sent = uint32_t(outs.size());
      stop_res = exp_res;
      if (got_res == RNIC_TXB_RESULT_WAIT) {
        // the ports did not free for TXB_WAIT cycles at a WQE that passed its checks
        n_wait++;
        bool ok = (got_sent < exp_sent || (got_sent == exp_sent && exp_res == RNIC_TXB_RESULT_NO_RECORD)) &&
                  false_run + 1 >= RNIC_TXB_WAIT;
        if (!ok) n_bad_wait++;
        if (got_sent <= exp_sent) {
          exp_sent = got_sent;
          outs.resize(got_sent);
          exp_next = got_sent ? outs[got_sent - 1].next_psn : psn;
          exp_res = RNIC_TXB_RESULT_WAIT;
        }
      }
      // the rows read: each WQEBB's up to the one it stopped at, in order, each once
      uint32_t n_read = exp_res == RNIC_TXB_RESULT_SENT ? count : exp_sent + 1;
      bool rows_ok = rd_offs.size() == n_read * kRows;
      for (unsigned i = 0; rows_ok && i < n_read * kRows; i++)
        rows_ok = rd_offs[i] == txb_ref_bb(cmd, i / kRows) * 64 + (i % kRows) * kRowBytes;
      if (!rows_ok) n_bad_rows++;
      bool res_ok = got_res == exp_res && got_next == exp_next;
      if (got_sent != exp_sent) n_bad_sent++;
      if (!res_ok) {
        n_bad_res++;
        if (n_bad_res < 4)
          std::printf("# cmd %u: result %u next 0x%x sent %u, expected %u 0x%x %u (count %u; first op %u len 0x%x mtu %u ds %u sge %u)\n",
                      k, got_res, got_next, got_sent, exp_res, exp_next, exp_sent, count, rnic_wqe_ctrl_get_opcode(w[0]),
                      rnic_wqe_ctrl_get_total_len(w[0]), pm, rnic_wqe_ctrl_get_num_ds(w[0]), rnic_wqe_ctrl_get_num_sge(w[0]));
      }
      // exactly what was sent and recorded, in order: nothing for the WQE it stopped at
      unsigned n_rec = 0;
      for (auto &o : outs) n_rec += o.has_rec;
      if (got_txd.size() != exp_sent || got_rec.size() != n_rec) {
        n_bad_emit++;
      } else {
        for (unsigned i = 0, j = 0; i < exp_sent; i++) {
          if (std::memcmp(got_txd[i].data(), outs[i].txd, RNIC_TX_DESC_SIZE)) {
            n_bad_txd++;
            if (n_bad_txd < 4)
              for (unsigned q = 0; q < RNIC_TX_DESC_SIZE / 4; q++) {
                uint32_t a, b;
                std::memcpy(&a, got_txd[i].data() + 4 * q, 4);
                std::memcpy(&b, outs[i].txd + 4 * q, 4);
                if (a != b) std::printf("# cmd %u wqe %u tx_desc word %u: 0x%08x expected 0x%08x\n", k, i, q, a, b);
              }
          }
          if (outs[i].has_rec && std::memcmp(got_rec[j++].data(), outs[i].rec, RNIC_SR_REC_SIZE)) {
            n_bad_rec++;
            if (n_bad_rec < 4)
              for (unsigned q = 0; q < RNIC_SR_REC_SIZE / 4; q++) {
                uint32_t a, b;
                std::memcpy(&a, got_rec[j - 1].data() + 4 * q, 4);
                std::memcpy(&b, outs[i].rec + 4 * q, 4);
                if (a != b) std::printf("# cmd %u wqe %u sr_rec word %u: 0x%08x expected 0x%08x\n", k, i, q, a, b);
              }
          }
        }
      }
      // the outputs are idle once the status says done
      if (m->txd_valid_o || m->rec_valid_o || m->rd_valid_o || !rows.empty()) n_bad_emit++;
      if (directed) {
        static const uint32_t want[kDirected] = {RNIC_TXB_RESULT_SENT, RNIC_TXB_RESULT_INDEX, RNIC_TXB_RESULT_WAIT,
                                                 RNIC_TXB_RESULT_WAIT, RNIC_TXB_RESULT_SENT};
        if (got_res != want[dk] || (dk == 4 && got_sent != 8)) n_bad_res++;
        // WAIT: the command ends TXB_WAIT cycles after its WQE was checked, not when the port frees
        if ((dk == 2 || dk == 3) && lat_cycles[dk] > lat_cycles[0] + RNIC_TXB_WAIT) n_bad_wait++;
        continue;
      }
      n_res[got_res & 15]++;
      if (count >= 2 && exp_res == RNIC_TXB_RESULT_SENT) n_run_full++;
      if (count == 8 && exp_res == RNIC_TXB_RESULT_SENT) n_run_8++;
      if (count >= 2 && exp_sent >= 1 && exp_res != RNIC_TXB_RESULT_SENT) n_run_stop++;
      for (uint32_t i = 1; i < exp_sent; i++)
        if (txb_ref_bb(cmd, i) < txb_ref_bb(cmd, 0)) {
          n_run_wrap++;
          break;
        }
      for (uint32_t i = 0; i < exp_sent; i++) {
        uint32_t nsge = rnic_wqe_ctrl_get_num_sge(w[i]), op = rnic_wqe_ctrl_get_opcode(w[i]);
        n_sent_sge[nsge]++;
        (op <= RNIC_WQE_OP_RDMA_WRITE_WITH_IMM ? n_sent_write : n_sent_send)++;
        n_sent_retx += rnic_txb_cmd_get_retx(cmd);
        n_sent_bf += bf;
        n_sent_zero += rnic_wqe_ctrl_get_total_len(w[i]) == 0;
        n_at_bound += len_class[i] == 1;
        n_wrap += outs[i].next_psn < (i ? outs[i - 1].next_psn : psn);
      }
      if (stop_res == RNIC_TXB_RESULT_PACKETS && exp_sent < count && len_class[exp_sent] == 2) n_over_bound++;
    }
    for (int i = 0; i < 20; i++) tick();
    if (m->txd_valid_o || m->rec_valid_o || m->rd_valid_o) n_bad_emit++;

    res.check(!bad, "txb-commands-finish", "%s", why.c_str());
    res.check(n_bad_rows == 0, "txb-reads-the-staged-wqebb-rows-in-order", "%llu commands", (unsigned long long)n_bad_rows);
    res.check(n_bad_status == 0, "txb-busy-from-the-cycle-after-the-command", "%llu", (unsigned long long)n_bad_status);
    res.check(n_bad_res == 0, "txb-result-and-next-psn-as-send-fast", "%llu commands", (unsigned long long)n_bad_res);
    res.check(n_bad_emit == 0, "txb-one-desc-one-record-when-sent-nothing-when-not-mine", "%llu commands",
              (unsigned long long)n_bad_emit);
    res.check(n_bad_txd == 0, "txb-tx-desc-word-for-word", "%llu commands", (unsigned long long)n_bad_txd);
    res.check(n_bad_rec == 0, "txb-sr-rec-word-for-word", "%llu commands", (unsigned long long)n_bad_rec);
    res.check(n_bad_order == 0, "txb-no-output-while-firmware-commit-pending", "%llu", (unsigned long long)n_bad_order);
    res.check(n_bad_sent == 0, "txb-run-sent-count", "%llu commands", (unsigned long long)n_bad_sent);
    res.check(n_bad_wait == 0, "txb-wait-only-after-txb-wait-blocked-cycles-and-bounded", "%llu commands",
              (unsigned long long)n_bad_wait);
    res.check(n_run_full && n_run_stop && n_run_wrap && n_run_8 && n_wait, "txb-coverage-runs",
              "whole %llu stopped %llu past-the-region-end %llu eight %llu wait %llu", (unsigned long long)n_run_full,
              (unsigned long long)n_run_stop, (unsigned long long)n_run_wrap, (unsigned long long)n_run_8,
              (unsigned long long)n_wait);
    // coverage: every result, every shape of a sent WQE, every back-pressure
    bool cov_res = true;
    for (unsigned i = RNIC_TXB_RESULT_SENT; i <= RNIC_TXB_RESULT_NO_RECORD; i++) cov_res &= n_res[i] >= (ops >= 2000 ? 5u : 1u);
    res.check(cov_res, "txb-coverage-every-result", "sent %llu bf %llu op %llu idx %llu size %llu inl %llu sge %llu pk %llu rec %llu",
              (unsigned long long)n_res[0], (unsigned long long)n_res[1], (unsigned long long)n_res[2],
              (unsigned long long)n_res[3], (unsigned long long)n_res[4], (unsigned long long)n_res[5],
              (unsigned long long)n_res[6], (unsigned long long)n_res[7], (unsigned long long)n_res[8]);
    bool cov_sent = n_sent_sge[0] && n_sent_sge[1] && n_sent_sge[2] && n_sent_write && n_sent_send && n_sent_retx &&
                    n_sent_bf && n_sent_zero && n_at_bound && n_over_bound && n_wrap;
    res.check(cov_sent, "txb-coverage-sent-shapes",
              "sge %llu/%llu/%llu write %llu send %llu retx %llu bf %llu zero %llu at-bound %llu over %llu wrap %llu",
              (unsigned long long)n_sent_sge[0], (unsigned long long)n_sent_sge[1], (unsigned long long)n_sent_sge[2],
              (unsigned long long)n_sent_write, (unsigned long long)n_sent_send, (unsigned long long)n_sent_retx,
              (unsigned long long)n_sent_bf, (unsigned long long)n_sent_zero, (unsigned long long)n_at_bound,
              (unsigned long long)n_over_bound, (unsigned long long)n_wrap);
    res.check(n_txd_bp && n_rec_bp && n_rd_bp && n_pend_wait && n_bf_over_early && n_bf_over_late && n_lat[1] && n_lat[3],
              "txb-coverage-back-pressure-and-capture-overwrites",
              "txd %llu rec %llu rd %llu pend-waits %llu overwrite early %llu late %llu", (unsigned long long)n_txd_bp,
              (unsigned long long)n_rec_bp, (unsigned long long)n_rd_bp, (unsigned long long)n_pend_wait,
              (unsigned long long)n_bf_over_early, (unsigned long long)n_bf_over_late);
    std::printf("INFO latency with every port ready, rows answered a cycle late: %llu cycles from the command to busy 0 (SENT),"
                " %llu (not mine), %llu (a run of 8 sent); WAIT with the record / descriptor port blocked: %llu / %llu\n",
                (unsigned long long)lat_cycles[0], (unsigned long long)lat_cycles[1], (unsigned long long)lat_cycles[4],
                (unsigned long long)lat_cycles[2], (unsigned long long)lat_cycles[3]);
    std::printf("INFO cycles %llu commands %u; results", (unsigned long long)cycle, ops);
    for (unsigned i = 0; i <= RNIC_TXB_RESULT_WAIT; i++) std::printf(" %llu", (unsigned long long)n_res[i]);
    std::printf("; sent: sge %llu/%llu/%llu write %llu send %llu retx %llu bf %llu zero-len %llu at-bound %llu psn-wrap %llu;"
                " over-bound %llu; capture overwritten before/after the last read %llu/%llu; back-pressure cycles txd %llu"
                " rec %llu rd %llu; loads after a pending commit %llu\n",
                (unsigned long long)n_sent_sge[0], (unsigned long long)n_sent_sge[1], (unsigned long long)n_sent_sge[2],
                (unsigned long long)n_sent_write, (unsigned long long)n_sent_send, (unsigned long long)n_sent_retx,
                (unsigned long long)n_sent_bf, (unsigned long long)n_sent_zero, (unsigned long long)n_at_bound,
                (unsigned long long)n_wrap, (unsigned long long)n_over_bound, (unsigned long long)n_bf_over_early,
                (unsigned long long)n_bf_over_late, (unsigned long long)n_txd_bp, (unsigned long long)n_rec_bp,
                (unsigned long long)n_rd_bp, (unsigned long long)n_pend_wait);
    return res.exit_code();
  }
};

}  // namespace

int main(int argc, char **argv) {
  waves_setup(argc, argv);
  Verilated::commandArgs(argc, argv);
  uint64_t seed = 1;
  unsigned ops = 4000;
  for (int i = 1; i + 1 < argc; i++) {
    if (!std::strcmp(argv[i], "--seed")) seed = std::strtoull(argv[++i], nullptr, 0);
    else if (!std::strcmp(argv[i], "--ops")) ops = unsigned(std::strtoul(argv[++i], nullptr, 0));
  }
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::printf("INFO seed %llu ops %u data width %d\n", (unsigned long long)seed, ops, TB_DW);
  Tb tb(seed);
  return tb.run(ops);
}
