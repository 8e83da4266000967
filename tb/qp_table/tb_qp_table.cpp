// tb_qp_table: block testbench of the QP table (rtl/qp_table/qp_table.sv) against a C++ model.
// Random firmware entry writes (with and without keep_state, out-of-range QPNs, reserved command
// bits), receive-buffer posts (rings overfilled), the receive engine's state write-backs and
// slot consumption (only while hold_i is high, as xport_rx does), and reads on both ports every
// cycle: each registered read result is compared with the model as it was before the cycle's
// writes (read-before-write RAMs), field by field for the receive copy, byte for byte for the
// transmit copy, the moving state and the receive slot (with its summed buffer length). Also:
// the reset sweep (nothing accepted, everything zero after it), the ready rules (hold, an entry
// write wins over a post) and the stop pulse to the transmit engine.
// Built at -GNumQps=32 with -GRqSlots=2 and 8. Options: --seed N, --cycles N.
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "Vqp_table.h"
#include "rnic_spec.h"
#include "tb_check.h"
#include "verilated.h"

#ifndef TB_RQ_SLOTS
#define TB_RQ_SLOTS 2
#endif
static constexpr unsigned NQ = 32, SLOTS = TB_RQ_SLOTS;
static constexpr unsigned TXB = 50;           // the transmit copy: qpt_entry bytes 0..49 (bits 399:0)
static constexpr unsigned SW = 7;             // qp_state_t: 220 bits in 7 words
static constexpr unsigned EPSN_LSB = 196;     // qp_state_t.epsn, its first field (bits 219:196)

using Entry = std::array<uint8_t, RNIC_QPT_ENTRY_SIZE>;
using Desc = std::array<uint8_t, RNIC_RQ_DESC_SIZE>;
using State = std::array<uint32_t, SW>;

template <typename W> static void to_port(W &p, const uint8_t *b, unsigned n) {
  for (unsigned i = 0; i < n / 4; i++) p[i] = rnic_ld_le32(b + 4 * i);
}
template <typename W> static void from_port(uint8_t *b, const W &p, unsigned n) {
  for (unsigned i = 0; i < n / 4; i++) rnic_st_le32(b + 4 * i, p[i]);
}

// The receive copy holds these fields only; the rest of rx_entry_o reads zero.
static Entry rx_fields(const Entry &e) {
  Entry r{};
  rnic_qpt_entry_set_valid(r.data(), rnic_qpt_entry_get_valid(e.data()));
  rnic_qpt_entry_set_rx_enable(r.data(), rnic_qpt_entry_get_rx_enable(e.data()));
  rnic_qpt_entry_set_qp_type(r.data(), rnic_qpt_entry_get_qp_type(e.data()));
  rnic_qpt_entry_set_pmtu_log2(r.data(), rnic_qpt_entry_get_pmtu_log2(e.data()));
  rnic_qpt_entry_set_access(r.data(), rnic_qpt_entry_get_access(e.data()));
  rnic_qpt_entry_set_pdn(r.data(), rnic_qpt_entry_get_pdn(e.data()));
  rnic_qpt_entry_set_ack_coalesce(r.data(), rnic_qpt_entry_get_ack_coalesce(e.data()));
  rnic_qpt_entry_set_min_rnr_timer(r.data(), rnic_qpt_entry_get_min_rnr_timer(e.data()));
  rnic_qpt_entry_set_qkey(r.data(), rnic_qpt_entry_get_qkey(e.data()));
  rnic_qpt_entry_set_max_dest_rd_atomic(r.data(), rnic_qpt_entry_get_max_dest_rd_atomic(e.data()));
  return r;
}

static uint64_t sge_total(const Desc &d) {
  static const unsigned len_off[] = {RNIC_RQ_DESC_SGE0_LEN_OFF, RNIC_RQ_DESC_SGE1_LEN_OFF,
                                     RNIC_RQ_DESC_SGE2_LEN_OFF, RNIC_RQ_DESC_SGE3_LEN_OFF};
  uint64_t t = 0;
  for (unsigned i = 0; i < RNIC_MAX_SGE && i < rnic_rq_desc_get_num_sge(d.data()); i++)
    t += rnic_ld_le32(d.data() + len_off[i]);
  return t;
}

struct Model {
  std::array<Entry, NQ> e{};   // the last entry written (transmit copy: bytes 0..TXB-1)
  std::array<State, NQ> st{};
  struct Slot { Desc d; uint64_t len; };
  std::array<std::array<Slot, SLOTS>, NQ> ring{};
  std::array<unsigned, NQ> head{}, count{};
};

struct Tb {
  Vqp_table m;
  std::mt19937_64 rng;
  TbResults R;
  Model md;
  uint64_t cycle = 0;
  unsigned bad_tx = 0, bad_rx = 0, bad_state = 0, bad_slot = 0, bad_ready = 0, bad_stop = 0;
  unsigned n_wr = 0, n_keep = 0, n_drop = 0, n_post = 0, n_over = 0, n_wb = 0, n_clr = 0, n_stop = 0;
  unsigned n_rx = 0, n_slot = 0, n_tx = 0, n_oor = 0;
  // what a read issued this cycle must return next cycle
  struct Exp { bool v = false; unsigned qpn = 0; Entry tx{}; Entry rx{}; bool hit = false; State st{};
               bool rqv = false; Desc rqd{}; uint64_t len = 0; };
  Exp ex_tx, ex_rx;

  explicit Tb(uint64_t seed) : rng(seed) {}
  bool coin(unsigned pct) { return rng() % 100 < pct; }
  uint32_t r32() { return uint32_t(rng()); }

  void clk() {
    m.clk_i = 1; m.eval();
    m.clk_i = 0; m.eval();
    cycle++;
  }

  void idle_inputs() {
    m.qpt_wr_valid_i = 0; m.rqd_valid_i = 0; m.tx_rd_en_i = 0; m.rx_rd_en_i = 0;
    m.st_we_i = 0; m.rqv_clr_i = 0; m.hold_i = 0;
  }

  void reset() {
    idle_inputs();
    m.rst_ni = 0; m.clk_i = 0; m.eval();
    for (int i = 0; i < 3; i++) clk();
    m.rst_ni = 1; m.eval();
    // the sweep: one entry per cycle, nothing accepted meanwhile
    unsigned n = 0, offered_ok = 1;
    m.qpt_wr_valid_i = 1; m.rqd_valid_i = 1;
    while (!m.init_done_o && n < 10 * NQ) {
      m.eval();
      if (m.qpt_wr_ready_o || m.rqd_ready_o) offered_ok = 0;
      clk(); n++;
    }
    m.qpt_wr_valid_i = 0; m.rqd_valid_i = 0; m.eval();
    R.check(m.init_done_o && n >= NQ && n <= NQ + 2 && offered_ok, "qpt-tb-reset-sweep-accepts-nothing",
            "%u cycles, init_done %d", n, int(m.init_done_o));
    // every entry reads zero on both ports
    unsigned bad = 0;
    for (unsigned q = 0; q < NQ; q++) {
      m.tx_rd_en_i = 1; m.tx_rd_qpn_i = q; m.rx_rd_en_i = 1; m.rx_rd_qpn_i = q;
      m.eval(); clk(); m.tx_rd_en_i = 0; m.rx_rd_en_i = 0; m.eval();
      Entry t{}, r{}; State s{};
      from_port(t.data(), m.tx_rd_entry_o, RNIC_QPT_ENTRY_SIZE);
      from_port(r.data(), m.rx_entry_o, RNIC_QPT_ENTRY_SIZE);
      for (unsigned i = 0; i < SW; i++) s[i] = m.rx_state_o[i];
      if (t != Entry{} || r != Entry{} || s != State{} || m.rx_rqv_o || !m.rx_hit_o) bad++;
    }
    R.check(bad == 0, "qpt-tb-reset-clears-every-entry", "%u entries not clear", bad);
  }

  Entry rand_entry() {
    Entry e;
    for (auto &b : e) b = uint8_t(rng());
    rnic_qpt_entry_set_valid(e.data(), coin(85));
    rnic_qpt_entry_set_rx_enable(e.data(), coin(85));
    return e;
  }
  Desc rand_desc(unsigned qpn) {
    Desc d;
    for (auto &b : d) b = uint8_t(rng());
    rnic_rq_desc_set_qpn(d.data(), qpn);
    rnic_rq_desc_set_num_sge(d.data(), unsigned(rng() % (RNIC_MAX_SGE + 1)));
    return d;
  }
  unsigned rand_qpn() { return coin(8) ? NQ + unsigned(rng() % 1000) : unsigned(rng() % NQ); }

  // One random cycle: drive, predict from the model as it is, clock, check last cycle's reads.
  void step() {
    idle_inputs();
    bool hold = coin(40);
    m.hold_i = hold;
    Entry we{}; Desc pd{}; State sw{};
    uint32_t wcmd = 0; unsigned pq = 0;
    if (coin(15)) {
      we = rand_entry();
      unsigned q = rand_qpn();
      bool keep = coin(40);
      wcmd = q;
      if (keep) wcmd |= 1u << (RNIC_QPT_CMD_KEEP_STATE_OFF * 8 + 7);
      if (coin(4)) wcmd |= 1u << 25;  // a reserved bit: the command is dropped
      m.qpt_wr_valid_i = 1; m.qpt_wr_qpn_i = wcmd;
      to_port(m.qpt_wr_entry_i, we.data(), RNIC_QPT_ENTRY_SIZE);
    }
    if (coin(25)) {
      pq = rand_qpn();
      pd = rand_desc(pq);
      m.rqd_valid_i = 1;
      to_port(m.rqd_i, pd.data(), RNIC_RQ_DESC_SIZE);
    }
    unsigned sq = unsigned(rng() % NQ);
    bool wb = hold && coin(30), clr = wb && coin(50);
    if (wb) {
      for (auto &w : sw) w = r32();
      sw[SW - 1] &= 0x0FFFFFFFu;
      m.st_we_i = 1; m.st_qpn_i = sq; m.rqv_clr_i = clr;
      for (unsigned i = 0; i < SW; i++) m.st_i[i] = sw[i];
    }
    unsigned tq = rand_qpn(), rq = rand_qpn();
    bool tx_rd = coin(60), rx_rd = coin(60);
    m.tx_rd_en_i = tx_rd; m.tx_rd_qpn_i = tq;
    m.rx_rd_en_i = rx_rd; m.rx_rd_qpn_i = rq;
    m.eval();

    // ready rules and the stop pulse (combinational, this cycle)
    bool wr_ok = m.qpt_wr_valid_i && !hold, post_ok = m.rqd_valid_i && !hold && !m.qpt_wr_valid_i;
    if (bool(m.qpt_wr_ready_o) != !hold || bool(m.rqd_ready_o) != (!hold && !m.qpt_wr_valid_i)) bad_ready++;
    bool keep = (wcmd >> (RNIC_QPT_CMD_KEEP_STATE_OFF * 8 + 7)) & 1;
    bool stop = wr_ok && (!keep || !(rnic_qpt_entry_get_valid(we.data()) && rnic_qpt_entry_get_rx_enable(we.data())));
    if (bool(m.stop_o) != stop || (stop && m.stop_qpn_o != (wcmd & 0xFFFFFFu))) bad_stop++;
    n_stop += stop;

    // reads: the model before this cycle's writes
    Exp nt, nr;
    if (tx_rd) {
      nt.v = true; nt.qpn = tq;
      if (tq < NQ) std::memcpy(nt.tx.data(), md.e[tq].data(), TXB);
    }
    if (rx_rd) {
      nr.v = true; nr.qpn = rq; nr.hit = rq < NQ;
      if (nr.hit) {
        nr.rx = rx_fields(md.e[rq]);
        nr.st = md.st[rq];
        nr.rqv = md.count[rq] != 0;
        if (nr.rqv) {
          const auto &s = md.ring[rq][md.head[rq]];
          nr.rqd = s.d; rnic_rq_desc_set_qpn(nr.rqd.data(), 0); nr.len = s.len;
        }
      }
    }

    // writes into the model (the RTL's rules)
    if (wr_ok) {
      unsigned q = wcmd & 0xFFFFFFu;
      bool ok = q < NQ && ((wcmd >> 24) & 0x7Fu) == 0;  // qpt_cmd bits 30:24 reserved
      n_wr++;
      if (!ok) n_drop++;
      if (ok) {
        md.e[q] = we;
        if (keep) n_keep++;
        else {
          md.st[q] = State{};
          uint32_t epsn = rnic_qpt_entry_get_epsn(we.data()) & 0xFFFFFFu;
          for (unsigned b = 0; b < 24; b++)
            if (epsn >> b & 1) md.st[q][(EPSN_LSB + b) / 32] |= 1u << ((EPSN_LSB + b) % 32);
          md.head[q] = md.count[q] = 0;
        }
      }
    } else if (post_ok) {
      n_post++;
      if (pq < NQ) {
        unsigned c = md.count[pq];
        unsigned slot = (md.head[pq] + (c == SLOTS ? SLOTS - 1 : c)) % SLOTS;  // a full ring: the newest is overwritten
        if (c == SLOTS) n_over++;
        md.ring[pq][slot] = {pd, sge_total(pd) & ((1ull << 34) - 1)};
        if (c < SLOTS) md.count[pq]++;
      }
    }
    if (wb) {
      n_wb++;
      md.st[sq] = sw;
      if (clr && md.count[sq]) { md.head[sq] = (md.head[sq] + 1) % SLOTS; md.count[sq]--; n_clr++; }
    }
    clk();
    m.eval();
    check_reads(nt, nr);
  }

  void check_reads(const Exp &nt, const Exp &nr) {
    if (nt.v) {
      Entry t{};
      from_port(t.data(), m.tx_rd_entry_o, RNIC_QPT_ENTRY_SIZE);
      if (t != nt.tx) bad_tx++;
      n_tx++;
      if (nt.qpn >= NQ) n_oor++;
    }
    if (nr.v) {
      Entry r{};
      from_port(r.data(), m.rx_entry_o, RNIC_QPT_ENTRY_SIZE);
      // a miss reads invalid; its other fields are another QP's (not gated by the hit)
      if (bool(m.rx_hit_o) != nr.hit || (nr.hit ? r != nr.rx : rnic_qpt_entry_get_valid(r.data()) != 0))
        bad_rx++;
      if (nr.hit) {
        State s{};
        for (unsigned i = 0; i < SW; i++) s[i] = m.rx_state_o[i];
        if (s != nr.st) bad_state++;
        if (bool(m.rx_rqv_o) != nr.rqv) bad_slot++;
        if (nr.rqv) {
          Desc d{};
          from_port(d.data(), m.rx_rqd_o, RNIC_RQ_DESC_SIZE);
          if (d != nr.rqd || uint64_t(m.rx_rqlen_o) != nr.len) bad_slot++;
          n_slot++;
        }
      } else if (m.rx_rqv_o) {
        bad_slot++;
      }
      n_rx++;
    }
  }
};

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  uint64_t seed = 1, cycles = 40000;
  for (int i = 1; i < argc; i++) {
    if (!std::strcmp(argv[i], "--seed") && i + 1 < argc) seed = std::strtoull(argv[++i], nullptr, 0);
    else if (!std::strcmp(argv[i], "--cycles") && i + 1 < argc) cycles = std::strtoull(argv[++i], nullptr, 0);
  }
  std::printf("INFO seed %llu, NumQps %u, RqSlots %u, %llu cycles\n", (unsigned long long)seed, NQ, SLOTS,
              (unsigned long long)cycles);
  Tb t(seed);
  t.reset();
  for (uint64_t c = 0; c < cycles; c++) t.step();
  std::printf("INFO %u entry writes (%u keep_state, %u dropped), %u posts (%u onto a full ring), %u write-backs "
              "(%u slots consumed), %u stop pulses; %u tx reads (%u out of range), %u rx reads, %u slots compared\n",
              t.n_wr, t.n_keep, t.n_drop, t.n_post, t.n_over, t.n_wb, t.n_clr, t.n_stop, t.n_tx, t.n_oor, t.n_rx,
              t.n_slot);
  auto &R = t.R;
  R.check(t.bad_ready == 0, "qpt-tb-ready-rules", "%u cycles wrong", t.bad_ready);
  R.check(t.bad_stop == 0 && t.n_stop > 50, "qpt-tb-stop-pulse", "%u wrong of %u", t.bad_stop, t.n_stop);
  R.check(t.bad_tx == 0 && t.n_tx > 1000 && t.n_oor > 50, "qpt-tb-tx-read-matches-model", "%u of %u", t.bad_tx, t.n_tx);
  R.check(t.bad_rx == 0 && t.n_rx > 1000, "qpt-tb-rx-entry-matches-model", "%u of %u", t.bad_rx, t.n_rx);
  R.check(t.bad_state == 0 && t.n_wb > 500 && t.n_keep > 100, "qpt-tb-moving-state-matches-model", "%u wrong", t.bad_state);
  R.check(t.bad_slot == 0 && t.n_slot > 500 && t.n_over > 10 && t.n_clr > 100, "qpt-tb-receive-ring-matches-model",
          "%u wrong of %u (overfilled %u, consumed %u)", t.bad_slot, t.n_slot, t.n_over, t.n_clr);
  R.check(t.n_drop > 20, "qpt-tb-dropped-writes-exercised", "%u", t.n_drop);
  std::printf("INFO %d passed, %d failed\n", R.passed, R.failed);
  return R.exit_code();
}
