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
    m->txd_ready_i = directed || pct(txd_pct);
    m->rec_ready_i = directed || pct(rec_pct);
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
  void make_wqe(uint8_t *cmd, uint8_t *w, uint32_t &len_class) {
    for (unsigned i = 0; i < RNIC_WQEBB_BYTES; i++) w[i] = uint8_t(rng());
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

    uint64_t lat_cycles[2] = {0, 0};
    for (unsigned k = 0; k < ops + 2 && !bad; k++) {
      // the last two: a SENT and a "not mine" WQE with every port ready (the latency figure)
      directed = k >= ops;
      if (k % 500 == 0) {
        // a new back-pressure mix: stretches of a stalled output now and then
        txd_pct = pct(20) ? 5 : 30 + unsigned(r(71));
        rec_pct = pct(20) ? 5 : 30 + unsigned(r(71));
        rd_pct = 30 + unsigned(r(71));
      }
      alignas(8) uint8_t cmd[RNIC_TXB_CMD_SIZE] = {};
      rnic_txb_cmd_set_qpn(cmd, uint32_t(rng()) & 0xFFFFFF);
      uint32_t pm = pct(95) ? 1 + uint32_t(r(5)) : uint32_t(r(8));
      rnic_txb_cmd_set_path_mtu(cmd, pm);
      rnic_txb_cmd_set_sig_all(cmd, pct(30));
      rnic_txb_cmd_set_send_cqn(cmd, uint32_t(rng()) & 0xFFFF);
      rnic_txb_cmd_set_page(cmd, uint32_t(rng()) & 0xFFFF);
      bool bf = pct(25);
      uint32_t src = bf ? kBfBb
                   : pct(50) ? RNIC_FW_TC_WQF_BUF_BASE / 64 + uint32_t(r(RNIC_FW_TC_WQF_BUF_BBS))
                             : RNIC_FW_TC_WQF_DB_BUF_BASE / 64 + uint32_t(r(RNIC_FW_TC_WQF_DB_BUF_BBS));
      rnic_txb_cmd_set_src_bb(cmd, src);
      rnic_txb_cmd_set_bf(cmd, bf);
      uint32_t seq = uint32_t(r(256));
      rnic_txb_cmd_set_bf_seq(cmd, seq);
      rnic_txb_cmd_set_wqe_index(cmd, uint32_t(rng()) & 0xFFFF);
      uint32_t psn = pct(15) ? 0xFFFFFFu - uint32_t(r(40)) : uint32_t(rng()) & 0xFFFFFF;
      rnic_txb_cmd_set_psn(cmd, psn);
      rnic_txb_cmd_set_retx(cmd, pct(20));
      // bits no field holds: random (the engine must not read them)
      if (pct(30)) {
        cmd[3] = uint8_t(cmd[3] | r(16) << 4);
        cmd[8] = uint8_t(cmd[8] | r(4) << 6);
        cmd[15] = uint8_t(cmd[15] | r(64) << 2);
      }
      alignas(8) uint8_t w[RNIC_WQEBB_BYTES];
      uint32_t len_class;
      make_wqe(cmd, w, len_class);
      if (directed) {
        bf = false;
        rnic_txb_cmd_set_bf(cmd, 0);
        rnic_txb_cmd_set_src_bb(cmd, src = RNIC_FW_TC_WQF_DB_BUF_BASE / 64);
        rnic_txb_cmd_set_path_mtu(cmd, pm = 5);
        rnic_wqe_ctrl_set_opcode(w, RNIC_WQE_OP_RDMA_WRITE);
        rnic_wqe_ctrl_set_flags(w, 1u << RNIC_WQE_FLAG_SIGNALED);
        rnic_wqe_ctrl_set_wqe_index(w, rnic_txb_cmd_get_wqe_index(cmd) + (k == ops ? 0 : 1));  // the second: INDEX
        rnic_wqe_ctrl_set_num_ds(w, 2);
        rnic_wqe_ctrl_set_num_sge(w, 1);
        rnic_wqe_ctrl_set_total_len(w, 64);
      }
      std::memcpy(win + src * 64, w, RNIC_WQEBB_BYTES);
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
      if (!done) {
        fail("command " + std::to_string(k) + " never finished");
        break;
      }
      // busy was seen in the first cycle after the command (t0): the loop ran at least once
      if (cycle == t0) n_bad_status++;
      if (directed) lat_cycles[k - ops] = cycle - t0 + 1;  // counted from the cycle the command is taken
      // the rows read: the WQEBB's, in order, each once
      bool rows_ok = rd_offs.size() == kRows;
      for (unsigned i = 0; rows_ok && i < kRows; i++) rows_ok = rd_offs[i] == src * 64 + i * kRowBytes;
      if (!rows_ok) n_bad_rows++;
      // what the reference says
      alignas(4) uint8_t st[4];
      uint32_t sv = m->status_o;
      std::memcpy(st, &sv, 4);
      uint32_t got_res = rnic_txb_status_get_result(st), got_next = rnic_txb_status_get_next_psn(st);
      txb_ref_out o;
      bool over_early = over_cycle >= 0 && uint64_t(over_cycle) <= t_last_read;
      bool over_late = over_cycle >= 0 && !over_early;
      txb_ref(cmd, w, named && !over_early, fr, &o);
      if (over_late && got_res == RNIC_TXB_RESULT_BF_LOST) {
        // overwritten after the last read: the engine may or may not have seen it yet
        txb_ref(cmd, w, 0, fr, &o);
      }
      if (over_early) n_bf_over_early++;
      if (over_late) n_bf_over_late++;
      bool res_ok = got_res == o.result && got_next == o.next_psn;
      if (!res_ok) {
        n_bad_res++;
        if (n_bad_res < 4)
          std::printf("# cmd %u: result %u next 0x%x, expected %u 0x%x (op %u len 0x%x mtu %u ds %u sge %u)\n", k, got_res,
                      got_next, o.result, o.next_psn, rnic_wqe_ctrl_get_opcode(w), rnic_wqe_ctrl_get_total_len(w), pm,
                      rnic_wqe_ctrl_get_num_ds(w), rnic_wqe_ctrl_get_num_sge(w));
      }
      // exactly what was sent and recorded: nothing for "not mine"
      bool sent = o.result == RNIC_TXB_RESULT_SENT;
      if (got_txd.size() != (sent ? 1u : 0u) || got_rec.size() != (o.has_rec ? 1u : 0u)) {
        n_bad_emit++;
      } else if (sent) {
        if (std::memcmp(got_txd[0].data(), o.txd, RNIC_TX_DESC_SIZE)) {
          n_bad_txd++;
          if (n_bad_txd < 4)
            for (unsigned i = 0; i < RNIC_TX_DESC_SIZE / 4; i++) {
              uint32_t a, b;
              std::memcpy(&a, got_txd[0].data() + 4 * i, 4);
              std::memcpy(&b, o.txd + 4 * i, 4);
              if (a != b) std::printf("# cmd %u tx_desc word %u: 0x%08x expected 0x%08x\n", k, i, a, b);
            }
        }
        if (o.has_rec && std::memcmp(got_rec[0].data(), o.rec, RNIC_SR_REC_SIZE)) {
          n_bad_rec++;
          if (n_bad_rec < 4)
            for (unsigned i = 0; i < RNIC_SR_REC_SIZE / 4; i++) {
              uint32_t a, b;
              std::memcpy(&a, got_rec[0].data() + 4 * i, 4);
              std::memcpy(&b, o.rec + 4 * i, 4);
              if (a != b) std::printf("# cmd %u sr_rec word %u: 0x%08x expected 0x%08x\n", k, i, a, b);
            }
        }
      }
      // the outputs are idle once the status says done
      if (m->txd_valid_o || m->rec_valid_o || m->rd_valid_o || !rows.empty()) n_bad_emit++;
      if (directed) {
        if (o.result != (k == ops ? RNIC_TXB_RESULT_SENT : RNIC_TXB_RESULT_INDEX)) n_bad_res++;
        continue;
      }
      n_res[o.result & 15]++;
      if (sent) {
        uint32_t nsge = rnic_wqe_ctrl_get_num_sge(w), op = rnic_wqe_ctrl_get_opcode(w);
        n_sent_sge[nsge]++;
        (op <= RNIC_WQE_OP_RDMA_WRITE_WITH_IMM ? n_sent_write : n_sent_send)++;
        n_sent_retx += rnic_txb_cmd_get_retx(cmd);
        n_sent_bf += bf;
        n_sent_zero += rnic_wqe_ctrl_get_total_len(w) == 0;
        n_at_bound += len_class == 1;
        n_wrap += o.next_psn < psn;
      }
      if (o.result == RNIC_TXB_RESULT_PACKETS && len_class == 2) n_over_bound++;
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
                " %llu (not mine)\n", (unsigned long long)lat_cycles[0], (unsigned long long)lat_cycles[1]);
    std::printf("INFO cycles %llu commands %u; results", (unsigned long long)cycle, ops);
    for (unsigned i = 0; i <= RNIC_TXB_RESULT_NO_RECORD; i++) std::printf(" %llu", (unsigned long long)n_res[i]);
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
