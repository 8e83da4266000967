// tb_evt_fork: testbench of the receive-event fork in front of the event merge
// (rtl/core/rnic_event_merge_fork.sv), the send-retirement engine's ACK-port wiring. Phase 1,
// fork off (no QP enabled yet): every cycle the output is the input, ready the merge's ready (the
// path without the engine). Phase 2, fork on, QPs enabled and disabled while random events of
// every kind flow, with a model of the engine's ACK port (random ready, at most two operations
// outstanding as in sq_retire, each finished in order after a random delay) and of its events (sr_event, random): the firmware receives
// every event except enabled QPs' ACKs, byte for byte, in order; the engine receives ACK(psn) for
// those ACKs, ACK(psn - 1) for NAK / RNR_NAK and RESP(psn, status) for READ_RESP_DONE /
// ATOMIC_ACK of enabled QPs, in order; such a NAK or RESP event reaches the firmware only after
// the engine finished every operation handed before it and its own; the engine's events arrive
// as SR_BARRIER / SR_RESP_ERR with their qpn, psn and status, in order. Options: --seed, --events.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <random>
#include <vector>

#include "Vrnic_event_merge_fork.h"
#include "rnic_spec.h"
#include "tb_check.h"
#include "verilated.h"

static constexpr unsigned kQps = 16;
using Ev = std::vector<uint8_t>;  // an rx_event's 64 bytes

template <typename W> static void put(W &w, const Ev &e) {
  for (unsigned i = 0; i < RNIC_RX_EVENT_SIZE / 4; i++) w[i] = rnic_ld_le32(&e[4 * i]);
}
template <typename W> static Ev get(const W &w) {
  Ev e(RNIC_RX_EVENT_SIZE);
  for (unsigned i = 0; i < RNIC_RX_EVENT_SIZE; i++) e[i] = uint8_t(w[i / 4] >> (8 * (i % 4)));
  return e;
}

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  uint64_t seed = 1;
  unsigned events = 20000;
  for (int i = 1; i + 1 < argc; i++) {
    if (!std::strcmp(argv[i], "--seed")) seed = std::strtoull(argv[++i], nullptr, 0);
    else if (!std::strcmp(argv[i], "--events")) events = std::strtoul(argv[++i], nullptr, 0);
  }
  std::printf("# tb_evt_fork seed %llu events %u\n", (unsigned long long)seed, events);
  std::mt19937_64 rng(seed);
  auto coin = [&](unsigned pct) { return rng() % 100 < pct; };
  TbResults r;
  Vrnic_event_merge_fork m;
  m.clk_i = 0;
  m.rst_ni = 0;
  m.on_i = 0;
  m.en_we_i = 0;
  m.s_valid_i = 0;
  m.m_ready_i = 0;
  m.ack_ready_i = 0;
  m.ack_done_i = 0;
  m.sev_valid_i = 0;
  m.eval();
  uint64_t cycle = 0;
  auto edge = [&] {
    m.clk_i = 1;
    m.eval();
    m.clk_i = 0;
    m.eval();
    cycle++;
  };
  for (int i = 0; i < 4; i++) edge();
  m.rst_ni = 1;
  m.eval();

  const uint8_t kinds[] = {RNIC_RX_EVENT_KIND_ACK, RNIC_RX_EVENT_KIND_NAK, RNIC_RX_EVENT_KIND_RNR_NAK,
                           RNIC_RX_EVENT_KIND_READ_RESP_DONE, RNIC_RX_EVENT_KIND_ATOMIC_ACK,
                           RNIC_RX_EVENT_KIND_RECV_DONE, RNIC_RX_EVENT_KIND_READ_GAP, RNIC_RX_EVENT_KIND_RESP_ERROR};
  auto rand_ev = [&] {
    Ev e(RNIC_RX_EVENT_SIZE);
    for (auto &b : e) b = uint8_t(rng());
    rnic_rx_event_set_kind(e.data(), kinds[rng() % 8]);
    rnic_rx_event_set_qpn(e.data(), uint32_t(rng() % kQps));
    rnic_rx_event_set_psn(e.data(), rng() % 8 == 0 ? 0 : uint32_t(rng()) & 0xFFFFFF);  // PSN 0: NAK's psn - 1 wraps
    return e;
  };

  // 1. fork off: a wire
  unsigned wire_bad = 0;
  for (unsigned k = 0; k < 2000; k++) {
    Ev e = rand_ev();
    m.s_valid_i = coin(70);
    put(m.s_evt_i, e);
    m.m_ready_i = coin(60);
    m.eval();
    wire_bad += m.m_valid_o != m.s_valid_i || m.s_ready_o != m.m_ready_i || m.ack_valid_o ||
                (m.s_valid_i && get(m.m_evt_o) != e);
    edge();
  }
  r.check(wire_bad == 0, "fork-off-is-a-wire", "%u cycles differ", wire_bad);

  // 2. fork on
  bool en[kQps] = {};
  // an enable written at an edge is seen by events taken after it (one taken at that edge reads
  // the old value): the model applies it after the cycle's events
  int en_pend = -1;
  bool en_pend_v = false;
  auto set_en = [&](unsigned q, bool v) {
    m.en_we_i = 1;
    m.en_qpn_i = q;
    m.en_i = v;
    en_pend = int(q);
    en_pend_v = v;
  };
  std::deque<Ev> in_q;                  // events still to offer
  std::deque<Ev> exp_fw;                // expected at the firmware (stage events), in order
  std::deque<uint64_t> exp_ops;         // expected engine operations (sr_cmd), in order
  std::deque<std::pair<int64_t, bool>> fw_need;  // per expected fw event: its op's index (-1 none)
  std::deque<uint64_t> sev_q, exp_sev;  // the engine's events: to offer / expected at the firmware
  int64_t ops_handed = 0, ops_done = 0;
  std::deque<uint64_t> op_due;          // completion cycle of each handed op, in order
  unsigned bad_fw = 0, bad_op = 0, bad_order = 0, bad_sev = 0, extra = 0;
  unsigned n_ack_eng = 0, n_nak_eng = 0, n_resp_eng = 0, n_fw_waited = 0, n_toggles = 0, n_sev = 0;
  uint64_t last_done = 0;
  unsigned offered = 0;
  bool on_set = false;
  for (uint64_t k = 0; (offered < events || !in_q.empty() || !exp_fw.empty() || !exp_ops.empty() ||
                        !exp_sev.empty() || ops_done < ops_handed) && k < 60ull * events + 100000; k++) {
    m.en_we_i = 0;
    // the enables: the reset sweep is over after kQps cycles; then the first enable turns it on
    if (k > kQps + 2 && (k == kQps + 3 || rng() % 500 == 0)) {
      set_en(unsigned(rng() % kQps), k == kQps + 3 || coin(60));
      n_toggles++;
    }
    if (k == kQps + 5) on_set = true;  // srt_qp_en's sticky on, a cycle after the first enable
    m.on_i = on_set;
    // events: offered only once on (the wire was checked above)
    if (on_set && offered < events && in_q.size() < 4 && coin(60)) {
      in_q.push_back(rand_ev());
      offered++;
    }
    if (on_set && sev_q.size() < 2 && coin(3)) {
      Ev s(8);
      for (auto &b : s) b = uint8_t(rng());
      rnic_sr_event_set_kind(s.data(), rng() % 2 ? RNIC_SR_EVENT_KIND_BARRIER : RNIC_SR_EVENT_KIND_RESP_ERR);
      uint64_t v = uint64_t(rnic_ld_le32(&s[0])) | uint64_t(rnic_ld_le32(&s[4])) << 32;
      sev_q.push_back(v);
    }
    m.s_valid_i = !in_q.empty();
    if (!in_q.empty()) put(m.s_evt_i, in_q.front());
    m.sev_valid_i = !sev_q.empty();
    m.sev_i = sev_q.empty() ? 0 : sev_q.front();
    m.m_ready_i = coin(70);
    // like sq_retire: an input register and one operation in progress
    m.ack_ready_i = coin(50) && ops_handed - ops_done < 2;
    // the engine finishes its operations in order, one per cycle at most
    m.ack_done_i = !op_due.empty() && op_due.front() <= cycle && cycle > last_done;
    m.eval();
    bool s_fire = m.s_valid_i && m.s_ready_o, m_fire = m.m_valid_o && m.m_ready_i;
    bool a_fire = m.ack_valid_o && m.ack_ready_i, sev_fire = m.sev_valid_i && m.sev_ready_o;
    if (m.ack_done_i) {
      op_due.pop_front();
      ops_done++;
      last_done = cycle;
    }
    if (s_fire) {
      Ev e = in_q.front();
      in_q.pop_front();
      unsigned q = rnic_rx_event_get_qpn(e.data()), kind = rnic_rx_event_get_kind(e.data());
      uint32_t psn = rnic_rx_event_get_psn(e.data()) & 0xFFFFFF;
      bool ack = kind == RNIC_RX_EVENT_KIND_ACK, nak = kind == RNIC_RX_EVENT_KIND_NAK || kind == RNIC_RX_EVENT_KIND_RNR_NAK;
      bool resp = kind == RNIC_RX_EVENT_KIND_READ_RESP_DONE || kind == RNIC_RX_EVENT_KIND_ATOMIC_ACK;
      int64_t op = -1;
      if (en[q] && (ack || nak || resp)) {
        uint8_t c[8] = {};
        rnic_sr_cmd_set_qpn(c, q);
        rnic_sr_cmd_set_op(c, resp ? RNIC_SR_OP_RESP : RNIC_SR_OP_ACK);
        rnic_sr_cmd_set_psn(c, nak ? (psn - 1) & 0xFFFFFF : psn);
        rnic_sr_cmd_set_status(c, rnic_rx_event_get_status(e.data()));
        exp_ops.push_back(uint64_t(rnic_ld_le32(c)) | uint64_t(rnic_ld_le32(c + 4)) << 32);
        op = ops_handed + int64_t(exp_ops.size());  // its op's count once handed (1-based)
        (ack ? n_ack_eng : nak ? n_nak_eng : n_resp_eng)++;
      }
      if (!(en[q] && ack)) {
        exp_fw.push_back(e);
        fw_need.push_back({op, op >= 0});
      }
    }
    if (a_fire) {
      if (exp_ops.empty() || m.ack_o != exp_ops.front()) bad_op++;
      if (!exp_ops.empty()) exp_ops.pop_front();
      ops_handed++;
      op_due.push_back(cycle + 1 + rng() % 12);
    }
    if (sev_fire) {
      exp_sev.push_back(sev_q.front());
      sev_q.pop_front();
    }
    if (m_fire) {
      Ev got = get(m.m_evt_o);
      unsigned kind = rnic_rx_event_get_kind(got.data());
      if (kind == RNIC_RX_EVENT_KIND_SR_BARRIER || kind == RNIC_RX_EVENT_KIND_SR_RESP_ERR) {
        n_sev++;
        if (exp_sev.empty()) {
          extra++;
        } else {
          uint8_t s[8];
          uint64_t v = exp_sev.front();
          exp_sev.pop_front();
          for (int i = 0; i < 8; i++) s[i] = uint8_t(v >> (8 * i));
          Ev want(RNIC_RX_EVENT_SIZE, 0);
          rnic_rx_event_set_kind(want.data(), rnic_sr_event_get_kind(s) == RNIC_SR_EVENT_KIND_BARRIER ? RNIC_RX_EVENT_KIND_SR_BARRIER
                                                                                                 : RNIC_RX_EVENT_KIND_SR_RESP_ERR);
          rnic_rx_event_set_status(want.data(), rnic_sr_event_get_status(s));
          rnic_rx_event_set_qpn(want.data(), rnic_sr_event_get_qpn(s));
          rnic_rx_event_set_psn(want.data(), rnic_sr_event_get_psn(s));
          bad_sev += got != want;
        }
      } else if (exp_fw.empty()) {
        extra++;
      } else {
        bad_fw += got != exp_fw.front();
        auto need = fw_need.front();
        // its own operation and every one before it finished before the event goes on
        if (need.second) {
          n_fw_waited++;
          bad_order += ops_done < need.first || ops_done != ops_handed;
        }
        exp_fw.pop_front();
        fw_need.pop_front();
      }
    }
    if (en_pend >= 0) en[en_pend] = en_pend_v;
    en_pend = -1;
    edge();
  }
  r.check(offered == events && in_q.empty() && exp_fw.empty() && exp_ops.empty() && exp_sev.empty() && extra == 0,
          "fork-all-delivered", "offered %u left: in %zu fw %zu ops %zu sev %zu extra %u", offered, in_q.size(),
          exp_fw.size(), exp_ops.size(), exp_sev.size(), extra);
  r.check(bad_fw == 0, "fork-firmware-events-byte-exact-in-order", "%u", bad_fw);
  r.check(bad_op == 0, "fork-engine-ops-ack-nak-resp-in-order", "%u", bad_op);
  r.check(bad_order == 0, "fork-nak-resp-after-engine-done", "%u", bad_order);
  r.check(bad_sev == 0, "fork-engine-events-as-rx-events", "%u", bad_sev);
  std::printf("# coverage: engine ACKs %u NAKs %u RESPs %u, events that waited %u, enable writes %u, engine events %u\n",
              n_ack_eng, n_nak_eng, n_resp_eng, n_fw_waited, n_toggles, n_sev);
  r.check(n_ack_eng > events / 40 && n_nak_eng > events / 80 && n_resp_eng > events / 80 && n_sev > 50 && n_toggles > 10,
          "fork-coverage");
  return r.exit_code();
}
