// tb_sq_retire: testbench of the send-retirement engine (rtl/sq_retire/sq_retire.sv). A driver
// plays the transmit side (records of random messages on several QPs: signaled or not, READ and
// atomic barriers, PSNs that wrap at 2^24), the receive side (ACKs coalesced at random PSNs,
// duplicate and stale ACKs, NAKs as the ACK of the PSN before them, READ responses / atomic ACKs
// with their verdict, some failed) and the firmware (QUERY on a timeout, POP of a barrier it was
// told about or of a failed head, HALT / RESUME, the error flush and INIT, DROP (a QP reset),
// refused INITs, POPs and FLUSHes of empty QPs, QUERY and FIND). A reference model written from the spec's rules (spec/rnic.toml sr_op,
// sr_event_kind) predicts every completion record byte for byte (cq_rec), every event and every
// QUERY answer; the CQE writer and the firmware's event side take with random back-pressure.
// Checks: the records and events of each QP in order and byte-exact, none missing or extra, each
// QUERY's answer, the free-record count, and the record pool whole again after the final flush.
// Options: --seed N, --ops N (operations driven).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include "Vsq_retire.h"
#include "main/sim_waves.h"
#include "rnic_spec.h"
#include "tb_check.h"
#include "verilated.h"

#ifndef TB_NUM_QPS
#define TB_NUM_QPS 16
#endif
#ifndef TB_NUM_RECS
#define TB_NUM_RECS 64
#endif

static const uint32_t kPsnMask = 0xFFFFFFu;
static bool psn_le(uint32_t a, uint32_t b) { return ((b - a) & kPsnMask) < 0x800000u; }

namespace {

struct Rec {
  uint64_t wr_id;
  uint32_t len, first, last, flags, op, idx, cqn;
};

// one expected output of a QP, in order
struct Bytes {
  alignas(8) uint8_t b[32];
};

// The reference model of one QP: the spec's rules (sr_op, sr_event_kind), kept apart from the RTL.
struct ModelQp {
  std::deque<Rec> recs;
  uint32_t una = 0, ci = 0;
  bool halted = false, told = false;
  std::deque<Bytes> cqes, evs;
};

struct Tb {
  Vsq_retire *m;
  Waves waves;
  TbResults res;
  std::mt19937_64 rng;
  uint64_t cycle = 0;
  ModelQp q[TB_NUM_QPS];
  // the driver's own view of each QP (what the transmit side has sent)
  uint32_t next_psn[TB_NUM_QPS], next_idx[TB_NUM_QPS], cqn[TB_NUM_QPS];
  int inflight[TB_NUM_QPS];  // operations of the QP not yet finished by the engine
  // per port: the QPs of the operations given, oldest first, until the engine says done
  std::deque<int> port_q[3];
  std::deque<uint64_t> pend_cmd, pend_ack;  // not yet accepted (sr_cmd as 64 bits)
  std::deque<int> pend_cmd_qp, pend_ack_qp;
  std::deque<Bytes> pend_rec;
  std::deque<int> pend_rec_qp;
  std::deque<Bytes> qry_expect;
  unsigned cqr_pct = 70, ev_pct = 70;
  uint64_t n_cqe = 0, n_ev = 0, n_qry = 0, n_push = 0, n_ack = 0, n_cmd = 0, n_flush = 0;
  uint64_t n_found = 0, n_dropped = 0, n_full = 0, n_stale = 0, n_wrap = 0, n_bar_told = 0, n_resp_err = 0, n_unsig = 0;
  int used = 0;  // records held by the model
  bool bad = false;
  std::string why;

  explicit Tb(uint64_t seed) : rng(seed) {
    m = new Vsq_retire;
    waves.open(m, "sq_retire");
    for (int i = 0; i < TB_NUM_QPS; i++) {
      next_psn[i] = 0;
      next_idx[i] = 0;
      cqn[i] = 1 + (unsigned)(rng() % 200);
      inflight[i] = 0;
    }
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

  // ---- the model
  Bytes cqe_of(int qpn, const Rec &x, uint32_t status) {
    Bytes o;
    std::memset(o.b, 0, sizeof o.b);
    rnic_cq_rec_set_wr_id(o.b, x.wr_id);
    rnic_cq_rec_set_byte_len(o.b, x.len);
    rnic_cq_rec_set_qpn(o.b, (uint32_t)qpn);
    rnic_cq_rec_set_status(o.b, status);
    rnic_cq_rec_set_opcode(o.b, x.op);
    rnic_cq_rec_set_wqe_index(o.b, x.idx);
    rnic_cq_rec_set_cqn(o.b, x.cqn);
    return o;
  }
  Bytes ev_of(int qpn, uint32_t kind, uint32_t psn, uint32_t status) {
    Bytes o;
    std::memset(o.b, 0, sizeof o.b);
    rnic_sr_event_set_qpn(o.b, (uint32_t)qpn);
    rnic_sr_event_set_kind(o.b, kind);
    rnic_sr_event_set_psn(o.b, psn);
    rnic_sr_event_set_status(o.b, status);
    return o;
  }
  static bool sig(const Rec &x) { return x.flags >> RNIC_SR_FLAG_SIGNALED & 1; }
  static bool bar(const Rec &x) { return x.flags >> RNIC_SR_FLAG_BARRIER & 1; }

  // the oldest record retires with status
  void retire(int qpn, uint32_t status) {
    ModelQp &s = q[qpn];
    Rec x = s.recs.front();
    s.recs.pop_front();
    used--;
    if (sig(x) || status != RNIC_WC_STATUS_SUCCESS)
      s.cqes.push_back(cqe_of(qpn, x, status));
    else
      n_unsig++;
    s.ci = (x.idx + 1) & 0xFFFF;
    s.told = false;
    if (status != RNIC_WC_STATUS_SUCCESS) s.halted = true;
  }
  // the walk of ACK, RESP, RESUME and POP's continuation
  void walk(int qpn, bool resp, uint32_t rpsn, uint32_t rstat) {
    ModelQp &s = q[qpn];
    uint32_t upto = (s.una - 1) & kPsnMask;
    while (!s.halted && !s.recs.empty()) {
      const Rec &h = s.recs.front();
      bool cov = psn_le(h.last, upto);
      if (!cov) break;
      if (!bar(h)) {
        retire(qpn, RNIC_WC_STATUS_SUCCESS);
        continue;
      }
      if (resp && h.last == rpsn) {
        uint32_t first = h.first;
        retire(qpn, rstat);
        if (rstat != RNIC_WC_STATUS_SUCCESS) {
          s.evs.push_back(ev_of(qpn, RNIC_SR_EVENT_KIND_RESP_ERR, first, rstat));
          n_resp_err++;
        }
        continue;
      }
      if (!s.told) {
        s.evs.push_back(ev_of(qpn, RNIC_SR_EVENT_KIND_BARRIER, h.first, 0));
        s.told = true;
        n_bar_told++;
      }
      break;
    }
  }
  void model_op(int qpn, uint32_t op, uint32_t psn, uint32_t status) {
    ModelQp &s = q[qpn];
    switch (op) {
      case RNIC_SR_OP_ACK:
      case RNIC_SR_OP_RESP:
        if (s.recs.empty()) return;
        if (!psn_le(psn, (s.una - 1) & kPsnMask))
          s.una = (psn + 1) & kPsnMask;
        else
          n_stale++;
        walk(qpn, op == RNIC_SR_OP_RESP, psn, status);
        return;
      case RNIC_SR_OP_POP:
        if (s.recs.empty()) return;
        retire(qpn, status);
        walk(qpn, false, 0, 0);
        return;
      case RNIC_SR_OP_FLUSH:
        while (!s.recs.empty()) retire(qpn, status);
        s.halted = true;
        return;
      case RNIC_SR_OP_DROP:  // freed without completions
        while (!s.recs.empty()) {
          s.ci = (s.recs.front().idx + 1) & 0xFFFF;
          s.recs.pop_front();
          used--;
          n_dropped++;
        }
        s.told = false;
        s.halted = true;
        return;
      case RNIC_SR_OP_HALT:
        s.halted = true;
        return;
      case RNIC_SR_OP_RESUME:
        s.halted = false;
        s.told = false;
        walk(qpn, false, 0, 0);
        return;
      case RNIC_SR_OP_INIT:
        if (!s.recs.empty()) return;
        s.una = psn;
        s.ci = 0;
        s.halted = s.told = false;
        return;
      case RNIC_SR_OP_QUERY:
      case RNIC_SR_OP_FIND: {
        Bytes o;
        std::memset(o.b, 0, sizeof o.b);
        rnic_sr_query_set_una(o.b, s.una);
        rnic_sr_query_set_nonempty(o.b, !s.recs.empty());
        rnic_sr_query_set_halted(o.b, s.halted);
        rnic_sr_query_set_told(o.b, s.told);
        // QUERY: the oldest record; FIND: the one whose PSN range holds psn
        const Rec *f = nullptr;
        for (const Rec &x : s.recs)
          if (op == RNIC_SR_OP_QUERY || (psn_le(x.first, psn) && psn_le(psn, x.last))) {
            f = &x;
            break;
          }
        if (f) {
          rnic_sr_query_set_found(o.b, 1);
          rnic_sr_query_set_head_barrier(o.b, bar(*f));
          rnic_sr_query_set_head_first_psn(o.b, f->first);
          rnic_sr_query_set_head_last_psn(o.b, f->last);
          rnic_sr_query_set_head_wqe_index(o.b, f->idx);
          if (op == RNIC_SR_OP_FIND) n_found++;
        }
        rnic_sr_query_set_ci(o.b, s.ci);
        qry_expect.push_back(o);
        return;
      }
      default:
        return;
    }
  }
  void model_push(int qpn, const Rec &x) {
    ModelQp &s = q[qpn];
    if (s.recs.empty()) {
      s.una = x.first;
      s.told = false;
    }
    s.recs.push_back(x);
    used++;
  }

  // ---- the driver: one operation for a QP with nothing in flight
  void give_cmd(int qpn, uint32_t op, uint32_t psn, uint32_t status, bool ack_port) {
    alignas(8) uint8_t b[8] = {};
    rnic_sr_cmd_set_qpn(b, (uint32_t)qpn);
    rnic_sr_cmd_set_op(b, op);
    rnic_sr_cmd_set_psn(b, psn & kPsnMask);
    rnic_sr_cmd_set_status(b, status);
    uint64_t w;
    std::memcpy(&w, b, 8);
    model_op(qpn, op, psn & kPsnMask, status);
    inflight[qpn]++;
    if (ack_port) {
      pend_ack.push_back(w);
      pend_ack_qp.push_back(qpn);
      n_ack++;
    } else {
      pend_cmd.push_back(w);
      pend_cmd_qp.push_back(qpn);
      n_cmd++;
    }
  }
  void give_rec(int qpn) {
    Rec x;
    x.wr_id = rng();
    x.len = (uint32_t)r(1u << 20);
    uint32_t n = pct(10) ? 1 + (uint32_t)r(300) : 1 + (uint32_t)r(6);
    x.first = next_psn[qpn];
    x.last = (x.first + n - 1) & kPsnMask;
    if (x.last < x.first) n_wrap++;  // the record spans the 2^24 wrap
    next_psn[qpn] = (x.last + 1) & kPsnMask;
    bool b = pct(15);
    static const uint32_t bar_ops[3] = {RNIC_WC_OPCODE_RDMA_READ, RNIC_WC_OPCODE_COMP_SWAP, RNIC_WC_OPCODE_FETCH_ADD};
    static const uint32_t ops[2] = {RNIC_WC_OPCODE_SEND, RNIC_WC_OPCODE_RDMA_WRITE};
    x.op = b ? bar_ops[r(3)] : ops[r(2)];
    x.flags = (pct(60) ? 1u << RNIC_SR_FLAG_SIGNALED : 0) | (b ? 1u << RNIC_SR_FLAG_BARRIER : 0);
    x.idx = next_idx[qpn];
    next_idx[qpn] = (next_idx[qpn] + 1 + (uint32_t)r(3)) & 0xFFFF;  // multi-WQEBB WQEs skip indexes
    x.cqn = cqn[qpn];
    Bytes o;
    std::memset(o.b, 0, sizeof o.b);
    rnic_sr_rec_set_wr_id(o.b, x.wr_id);
    rnic_sr_rec_set_byte_len(o.b, x.len);
    rnic_sr_rec_set_first_psn(o.b, x.first);
    rnic_sr_rec_set_flags(o.b, x.flags);
    rnic_sr_rec_set_last_psn(o.b, x.last);
    rnic_sr_rec_set_opcode(o.b, x.op);
    rnic_sr_rec_set_wqe_index(o.b, x.idx);
    rnic_sr_rec_set_cqn(o.b, x.cqn);
    rnic_sr_rec_set_qpn(o.b, (uint32_t)qpn);
    model_push(qpn, x);
    inflight[qpn]++;
    pend_rec.push_back(o);
    pend_rec_qp.push_back(qpn);
    n_push++;
  }
  // a fresh QP: PSNs start anywhere, often just before the wrap
  void qp_start(int qpn) {
    uint32_t p = pct(50) ? (uint32_t)((0x1000000u - 1 - r(400)) & kPsnMask) : (uint32_t)r(1u << 24);
    next_psn[qpn] = p;
    next_idx[qpn] = (uint32_t)r(0x10000);
    give_cmd(qpn, RNIC_SR_OP_INIT, p, 0, false);
  }
  void drive(int qpn) {
    ModelQp &s = q[qpn];
    uint32_t sent_last = (next_psn[qpn] - 1) & kPsnMask;
    unsigned k = (unsigned)r(100);
    if (s.recs.size() < 12 && used + (int)pend_rec.size() < TB_NUM_RECS + 4 && k < 35) {
      give_rec(qpn);
    } else if (k < 70) {
      // an ACK up to a random PSN between una - 4 (stale, duplicate) and the last one sent
      uint32_t span = (sent_last - s.una + 5) & kPsnMask;
      if (s.recs.empty() || span > 100000) span = 5;
      uint32_t p = (s.una - 4 + (uint32_t)r(span + 1)) & kPsnMask;
      if (!s.recs.empty() && psn_le(p, sent_last) == false) p = sent_last;
      give_cmd(qpn, RNIC_SR_OP_ACK, p, 0, true);
    } else if (k < 80) {
      // a READ response / atomic ACK for one of the outstanding barriers (or a stale one)
      const Rec *b = nullptr;
      for (const Rec &x : s.recs)
        if (bar(x) && pct(60)) {
          b = &x;
          break;
        }
      uint32_t st = pct(4) ? (pct(50) ? RNIC_WC_STATUS_LOC_LEN_ERR : RNIC_WC_STATUS_LOC_PROT_ERR) : RNIC_WC_STATUS_SUCCESS;
      give_cmd(qpn, RNIC_SR_OP_RESP, b ? b->last : (s.una - 1 - (uint32_t)r(3)) & kPsnMask, st, true);
    } else if (k < 84) {
      // a NAK at psn: the receive side acknowledges psn - 1; the firmware looks (timeout-like)
      uint32_t p = (s.una + (uint32_t)r(4)) & kPsnMask;
      give_cmd(qpn, RNIC_SR_OP_ACK, (p - 1) & kPsnMask, 0, true);
    } else if (k < 88) {
      if (pct(50)) {
        give_cmd(qpn, RNIC_SR_OP_QUERY, 0, 0, false);
      } else {
        // FIND a PSN around the outstanding range (READ_GAP names one inside a READ)
        uint32_t span = (next_psn[qpn] - s.una + 8) & kPsnMask;
        if (span > 100000) span = 8;
        give_cmd(qpn, RNIC_SR_OP_FIND, (s.una - 4 + (uint32_t)r(span + 1)) & kPsnMask, 0, false);
      }
      n_qry++;
    } else if (k < 93) {
      // the firmware on a barrier it was told about (or on a halted QP): completes the head
      if (s.told || (s.halted && pct(30)))
        give_cmd(qpn, RNIC_SR_OP_POP, 0, pct(85) ? RNIC_WC_STATUS_SUCCESS : RNIC_WC_STATUS_RETRY_EXC_ERR, false);
      else if (s.halted)
        give_cmd(qpn, RNIC_SR_OP_RESUME, 0, 0, false);
      else if (pct(20))
        give_cmd(qpn, RNIC_SR_OP_HALT, 0, 0, false);
      else
        give_cmd(qpn, RNIC_SR_OP_POP, 0, RNIC_WC_STATUS_SUCCESS, false);
    } else if (k < 95) {
      // the move to ERR: flush, then (as a new QP) INIT; or the QP reset: its records dropped
      if (pct(25))
        give_cmd(qpn, RNIC_SR_OP_DROP, 0, 0, false);
      else
        give_cmd(qpn, RNIC_SR_OP_FLUSH, 0, RNIC_WC_STATUS_WR_FLUSH_ERR, false);
      n_flush++;
    } else if (k < 97) {
      // INIT: refused while records are held; starts the QP over on an empty list
      if (s.recs.empty() && pct(60))
        qp_start(qpn);
      else
        give_cmd(qpn, RNIC_SR_OP_INIT, (uint32_t)r(1u << 24), 0, false);
    } else if (s.halted) {
      give_cmd(qpn, RNIC_SR_OP_RESUME, 0, 0, false);
    } else {
      give_cmd(qpn, RNIC_SR_OP_ACK, sent_last, 0, true);
    }
  }

  // ---- the clock: inputs set, then an edge; outputs sampled before the edge
  void step() {
    // completion records and events leave when ready is high with valid (sampled before the edge)
    bool cqr_take = m->cqr_valid_o && m->cqr_ready_i;
    bool ev_take = m->ev_valid_o && m->ev_ready_i;
    if (cqr_take) {
      Bytes o;
      for (int w = 0; w < 8; w++) {
        uint32_t v = m->cqr_o[w];
        std::memcpy(o.b + 4 * w, &v, 4);
      }
      uint32_t qpn = rnic_cq_rec_get_qpn(o.b);
      n_cqe++;
      if (qpn >= TB_NUM_QPS) {
        fail("completion record of QPN " + std::to_string(qpn));
      } else if (q[qpn].cqes.empty()) {
        fail("extra completion record, QP " + std::to_string(qpn));
      } else {
        if (std::memcmp(o.b, q[qpn].cqes.front().b, 32) != 0) {
          char t[200];
          std::snprintf(t, sizeof t, "QP %u completion record differs: wr_id %llx status %u idx %u, want wr_id %llx status %u idx %u",
                        qpn, (unsigned long long)rnic_cq_rec_get_wr_id(o.b), rnic_cq_rec_get_status(o.b),
                        rnic_cq_rec_get_wqe_index(o.b), (unsigned long long)rnic_cq_rec_get_wr_id(q[qpn].cqes.front().b),
                        rnic_cq_rec_get_status(q[qpn].cqes.front().b), rnic_cq_rec_get_wqe_index(q[qpn].cqes.front().b));
          fail(t);
        }
        q[qpn].cqes.pop_front();
      }
    }
    if (ev_take) {
      Bytes o;
      std::memset(o.b, 0, 32);
      uint64_t v = m->ev_o;
      std::memcpy(o.b, &v, 8);
      uint32_t qpn = rnic_sr_event_get_qpn(o.b);
      n_ev++;
      if (qpn >= TB_NUM_QPS || q[qpn].evs.empty()) {
        fail("unexpected event kind " + std::to_string(rnic_sr_event_get_kind(o.b)) + " QP " + std::to_string(qpn));
      } else {
        if (std::memcmp(o.b, q[qpn].evs.front().b, 8) != 0)
          fail("QP " + std::to_string(qpn) + " event differs: kind " + std::to_string(rnic_sr_event_get_kind(o.b)) +
               " psn " + std::to_string(rnic_sr_event_get_psn(o.b)) + ", want kind " +
               std::to_string(rnic_sr_event_get_kind(q[qpn].evs.front().b)) + " psn " +
               std::to_string(rnic_sr_event_get_psn(q[qpn].evs.front().b)));
        q[qpn].evs.pop_front();
      }
    }
    if (m->qry_valid_o) {
      Bytes o;
      std::memset(o.b, 0, 32);
      for (int w = 0; w < 4; w++) {
        uint32_t v = m->qry_o[w];
        std::memcpy(o.b + 4 * w, &v, 4);
      }
      if (qry_expect.empty()) {
        fail("unexpected QUERY answer");
      } else {
        if (std::memcmp(o.b, qry_expect.front().b, 16) != 0) {
          char t[300];
          const uint8_t *e = qry_expect.front().b;
          std::snprintf(t, sizeof t, "QUERY/FIND answer differs: una %06x ne %u halt %u told %u bar %u found %u first %06x last %06x ci %u head %u; want %06x %u %u %u %u %u %06x %06x %u %u",
                        rnic_sr_query_get_una(o.b), rnic_sr_query_get_nonempty(o.b), rnic_sr_query_get_halted(o.b),
                        rnic_sr_query_get_told(o.b), rnic_sr_query_get_head_barrier(o.b), rnic_sr_query_get_found(o.b),
                        rnic_sr_query_get_head_first_psn(o.b),
                        rnic_sr_query_get_head_last_psn(o.b), rnic_sr_query_get_ci(o.b),
                        rnic_sr_query_get_head_wqe_index(o.b), rnic_sr_query_get_una(e),
                        rnic_sr_query_get_nonempty(e), rnic_sr_query_get_halted(e), rnic_sr_query_get_told(e),
                        rnic_sr_query_get_head_barrier(e), rnic_sr_query_get_found(e), rnic_sr_query_get_head_first_psn(e),
                        rnic_sr_query_get_head_last_psn(e), rnic_sr_query_get_ci(e), rnic_sr_query_get_head_wqe_index(e));
          fail(t);
        }
        qry_expect.pop_front();
      }
    }
    if (m->free_o == 0) n_full++;
    if (m->done_o) {
      unsigned src = m->done_src_o;
      if (src > 2 || port_q[src].empty()) {
        fail("done from port " + std::to_string(src) + " with nothing given there");
      } else {
        inflight[port_q[src].front()]--;
        port_q[src].pop_front();
      }
    }
    // handshakes of this edge
    if (m->rec_valid_i && m->rec_ready_o) {
      port_q[0].push_back(pend_rec_qp.front());
      pend_rec.pop_front();
      pend_rec_qp.pop_front();
    }
    if (m->ack_valid_i && m->ack_ready_o) {
      port_q[1].push_back(pend_ack_qp.front());
      pend_ack.pop_front();
      pend_ack_qp.pop_front();
    }
    if (m->cmd_valid_i && m->cmd_ready_o) {
      port_q[2].push_back(pend_cmd_qp.front());
      pend_cmd.pop_front();
      pend_cmd_qp.pop_front();
    }
    m->clk_i = 1;
    waves.eval(*m);
    m->clk_i = 0;
    waves.eval(*m);
    cycle++;
    // next cycle's inputs
    m->rec_valid_i = !pend_rec.empty() && pct(80);
    if (!pend_rec.empty())
      for (int w = 0; w < 8; w++) {
        uint32_t v;
        std::memcpy(&v, pend_rec.front().b + 4 * w, 4);
        m->rec_i[w] = v;
      }
    m->ack_valid_i = !pend_ack.empty() && pct(80);
    m->ack_i = pend_ack.empty() ? 0 : pend_ack.front();
    m->cmd_valid_i = !pend_cmd.empty() && pct(80);
    m->cmd_i = pend_cmd.empty() ? 0 : pend_cmd.front();
    m->cqr_ready_i = pct(cqr_pct);
    m->ev_ready_i = pct(ev_pct);
    waves.eval(*m);
  }

  bool all_quiet() {
    for (int i = 0; i < TB_NUM_QPS; i++)
      if (inflight[i] || !q[i].cqes.empty() || !q[i].evs.empty()) return false;
    return pend_rec.empty() && pend_ack.empty() && pend_cmd.empty() && !m->cqr_valid_o && !m->ev_valid_o;
  }

  int run(uint64_t ops) {
    m->clk_i = 0;
    m->rst_ni = 1;
    waves.eval(*m);
    m->rst_ni = 0;  // a falling edge: the asynchronous reset
    waves.eval(*m);
    for (int i = 0; i < 2; i++) {
      m->clk_i = 1;
      waves.eval(*m);
      m->clk_i = 0;
      waves.eval(*m);
    }
    m->rst_ni = 1;
    waves.eval(*m);
    cqr_pct = 20 + (unsigned)r(80);
    ev_pct = 20 + (unsigned)r(80);
    // the reset sweep, then every QP started
    uint64_t guard = 0;
    while (!m->idle_o && guard++ < 10000) step();
    res.check(m->idle_o && m->free_o == TB_NUM_RECS, "reset-sweep", "idle %d free %d", m->idle_o, (int)m->free_o);
    for (int i = 0; i < TB_NUM_QPS; i++) qp_start(i);
    uint64_t given = 0, idle = 0, last_done = 0;
    while (given < ops && !bad) {
      if (m->done_o) last_done = cycle;
      if (cycle - last_done > 20000) {
        fail("no operation finished for 20000 cycles (cycle " + std::to_string(cycle) + ")");
        break;
      }
      // every cycle, a few QPs with nothing in flight get their next operation
      for (int t = 0; t < 2; t++) {
        int qpn = (int)r(TB_NUM_QPS);
        if (inflight[qpn] == 0 && pend_rec.size() + pend_ack.size() + pend_cmd.size() < 6) {
          drive(qpn);
          given++;
        }
      }
      step();
      if (cycle % 50000 == 0) {  // the back-pressure changes now and then
        cqr_pct = 5 + (unsigned)r(96);
        ev_pct = 5 + (unsigned)r(96);
      }
    }
    // the end: everything acknowledged or flushed, every record back in the pool
    // (each QP as soon as it has nothing in flight: a record waiting for a free one gets it
    // from the other QPs' flushes)
    std::vector<bool> flushed(TB_NUM_QPS, false);
    for (int left = TB_NUM_QPS; left && !bad && idle++ < 100000;) {
      for (int i = 0; i < TB_NUM_QPS; i++)
        if (!flushed[i] && !inflight[i]) {
          give_cmd(i, RNIC_SR_OP_FLUSH, 0, RNIC_WC_STATUS_WR_FLUSH_ERR, false);
          n_flush++;
          flushed[i] = true;
          left--;
        }
      step();
    }
    cqr_pct = ev_pct = 100;
    idle = 0;
    while (!all_quiet() && !bad && idle++ < 200000) step();
    for (int i = 0; i < 10; i++) step();
    res.check(!bad, "streams", "%s", why.c_str());
    if (!all_quiet())
      for (int i = 0; i < TB_NUM_QPS; i++)
        if (inflight[i] || !q[i].cqes.empty() || !q[i].evs.empty())
          std::printf("INFO QP %d: %d operations in flight, %zu records and %zu events expected\n", i, inflight[i],
                      q[i].cqes.size(), q[i].evs.size());
    res.check(all_quiet(), "all-delivered", "records, events or operations left (cycle %llu)", (unsigned long long)cycle);
    res.check(m->free_o == TB_NUM_RECS && used == 0, "pool-whole", "free %d, model holds %d", (int)m->free_o, used);
    res.check(!m->cqr_valid_o && !m->ev_valid_o && !m->qry_valid_o, "no-extra-output");
    // the stimulus reached what it is meant to reach (so the checks above could fail)
    res.check(n_cqe > 100 && n_unsig > 50 && n_bar_told > 5 && n_resp_err > 0 && n_stale > 20 && n_wrap > 0 &&
                  n_flush > 10 && n_qry > 50 && n_full > 0 && n_dropped > 0 && n_found > 20,
              "coverage", "found %llu dropped %llu pool-full cycles %llu cqe %llu unsignaled %llu barrier-events %llu resp-errors %llu stale %llu wraps %llu flushes %llu queries %llu",
              (unsigned long long)n_found, (unsigned long long)n_dropped, (unsigned long long)n_full,
              (unsigned long long)n_cqe,
              (unsigned long long)n_unsig,
              (unsigned long long)n_bar_told, (unsigned long long)n_resp_err, (unsigned long long)n_stale, (unsigned long long)n_wrap,
              (unsigned long long)n_flush, (unsigned long long)n_qry);
    std::printf("INFO cycles %llu pool-full cycles %llu records %llu acks %llu commands %llu cqes %llu events %llu (unsignaled %llu, barrier events %llu, "
                "resp errors %llu, stale acks %llu, wrapping records %llu, flushes %llu, queries %llu, found %llu, dropped %llu)\n",
                (unsigned long long)cycle, (unsigned long long)n_full, (unsigned long long)n_push, (unsigned long long)n_ack,
                (unsigned long long)n_cmd, (unsigned long long)n_cqe, (unsigned long long)n_ev,
                (unsigned long long)n_unsig, (unsigned long long)n_bar_told, (unsigned long long)n_resp_err,
                (unsigned long long)n_stale, (unsigned long long)n_wrap, (unsigned long long)n_flush,
                (unsigned long long)n_qry, (unsigned long long)n_found, (unsigned long long)n_dropped);
    return res.exit_code();
  }
};

}  // namespace

int main(int argc, char **argv) {
  waves_setup(argc, argv);
  Verilated::commandArgs(argc, argv);
  uint64_t seed = 1, ops = 20000;
  for (int i = 1; i + 1 < argc; i++) {
    if (!std::strcmp(argv[i], "--seed")) seed = std::strtoull(argv[++i], nullptr, 0);
    else if (!std::strcmp(argv[i], "--ops")) ops = std::strtoull(argv[++i], nullptr, 0);
  }
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::printf("INFO seed %llu ops %llu qps %d records %d\n", (unsigned long long)seed, (unsigned long long)ops,
              TB_NUM_QPS, TB_NUM_RECS);
  Tb tb(seed);
  return tb.run(ops);
}
