// PCIe errors on the DMA paths at the system level (issue 13, deliverable 3): nic0's PCIe model
// answers SLVERR on one chosen host range at a time, chosen to hit one DMA path, while an RC QP
// pair (x on nic0, y on nic1) does the operation that needs it. Per path the program prints the
// outcome (the matrix of docs/conformance.md) and checks what must hold whatever the path:
// nothing hangs (the WQE that met the error completes, with an error status, within 6 ms, or
// the path's QP is in ERR), the affected QP ends in ERR, the firmware is alive (heartbeat, NOP),
// and afterwards, with the error range removed, a fresh QP pair moves 4 KiB byte for byte and
// the driver's commands work. The CQE write is its own case: the CQE cannot reach the host, so
// the CQ must go to error with one CQ_ERROR event on the EQ (and drop later CQEs). A WQE whose
// fetch failed has no readable wr_id: its error completion is checked by status and wqe_index.
#include <systemc.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "host/pcie_model.h"
#include "main/sim_program.h"
#include "net/eth_link.h"
#include "sys/rdma_qp.h"
#include "tb_check.h"
#include "robust/err_range.h"
#include "sys/two_nics.h"

namespace {


const char *st_name(int s) {
  // the spec's wc_status enum, in order (RNIC_WC_STATUS_*)
  static const char *n[] = {"SUCCESS",        "LOC_LEN_ERR",    "LOC_QP_OP_ERR",     "LOC_EEC_OP_ERR",
                            "LOC_PROT_ERR",   "WR_FLUSH_ERR",   "MW_BIND_ERR",       "BAD_RESP_ERR",
                            "LOC_ACCESS_ERR", "REM_INV_REQ_ERR", "REM_ACCESS_ERR",   "REM_OP_ERR",
                            "RETRY_EXC_ERR",  "RNR_RETRY_EXC_ERR", "LOC_RDD_VIOL_ERR", "REM_INV_RD_REQ_ERR",
                            "REM_ABORT_ERR",  "INV_EECN_ERR",   "INV_EEC_STATE_ERR", "FATAL_ERR",
                            "RESP_TIMEOUT_ERR", "GENERAL_ERR"};
  static char other[32];
  std::snprintf(other, sizeof other, "status %d", s);
  return s >= 0 && s < int(sizeof n / sizeof n[0]) ? n[s] : other;
}

struct PcieErr : sc_module {
  SC_HAS_PROCESS(PcieErr);
  PcieErr(sc_module_name n, RdmaPort *a, RdmaPort *b) : sc_module(n), a(a), b(b) { SC_THREAD(run); }
  TbResults r;
  RdmaPort *a, *b;
  rnic_eq eq{}, eqb{};  // nic0's and nic1's event queues
  struct QpEvent {
    int nic;
    uint32_t subtype, qpn, side;
  };
  static inline std::vector<QpEvent> qp_events;  // QP_FATAL events of both NICs, per case
  static inline int nic_ids[2] = {0, 1};
  static inline int cq_errors = 0;
  static inline uint32_t cq_err_handle = 0;
  static inline std::vector<uint32_t> cq_err_handles;  // every CQ_ERROR's CQ, in order
  uint64_t abuf = 0, bbuf = 0;
  uint32_t akey = 0, bkey = 0;
  std::vector<std::string> matrix;

  struct Outcome {
    int nx = 0, ny = 0;
    rnicp_wc wx{}, wy{};
    int sx = -1, sy = -1;
  };

  bool pair(RdmaQp &x, RdmaQp &y) {
    RdmaConnOpts o;
    o.access = 0x7, o.min_rnr_timer = 1, o.timeout = 8, o.retry_cnt = 2, o.rnr_retry = 2;
    return x.create(a) && y.create(b) && x.connect(y, 0x100, 0x200, o) && y.connect(x, 0x200, 0x100, o);
  }
  rnicp_send_wr wr(uint32_t op, rnicp_sge *s, uint64_t raddr, uint32_t rkey) {
    rnicp_send_wr w{};
    w.wr_id = 0x500 + op, w.opcode = op, w.flags = RNICP_WR_SIGNALED, w.sg_list = s, w.num_sge = 1;
    w.remote_addr = raddr, w.rkey = rkey;
    return w;
  }

  void poll_eqs() {
    rnic_eq_poll(&eq, 16, 0);
    rnic_eq_poll(&eqb, 16, 0);
  }
  // The QP_FATAL events of a case: exactly one for each QP the NIC moved to ERR by itself
  // ({nic, qpn, status (-1: any error), side}), none for any other (the host's own moves to ERR
  // at the end of a case included). Returns the events as text for the matrix.
  std::string qp_fatal_events(const std::vector<std::array<int, 4>> &want, bool *ok) {
    wait(sc_time(20, SC_US));
    poll_eqs();
    std::string txt;
    *ok = qp_events.size() == want.size();
    for (auto &e : qp_events) {
      char b[96];
      std::snprintf(b, sizeof b, "%snic%d qp %u %s %s", txt.empty() ? "" : ", ", e.nic, e.qpn, st_name(int(e.subtype)),
                    e.side == RNIC_EQ_QP_SIDE_RESPONDER ? "responder" : "requester");
      txt += b;
    }
    for (auto &w : want) {
      int n = 0;
      for (auto &e : qp_events)
        n += e.nic == w[0] && int(e.qpn) == w[1] && (w[2] < 0 ? e.subtype != 0 : int(e.subtype) == w[2]) &&
             int(e.side) == w[3];
      *ok = *ok && n == 1;
    }
    qp_events.clear();
    return txt.empty() ? "none" : txt;
  }

  // Health after a case, with the error range gone: firmware alive, commands, a fresh pair.
  bool healthy(std::string *why) {
    uint32_t hb0 = rnic_rd32(&a->os, RNIC_REG_CPU_HEARTBEAT);
    wait(sc_time(20, SC_US));
    uint32_t hb1 = rnic_rd32(&a->os, RNIC_REG_CPU_HEARTBEAT);
    int nop = rnic_cmd_nop(&a->q);
    RdmaQp x, y;
    bool ok = pair(x, y);
    std::vector<uint8_t> d(4096);
    for (size_t i = 0; i < d.size(); i++) d[i] = uint8_t(i * 13 + hb1);
    a->mem->write(abuf + 0x20000, d.data(), d.size());
    rnicp_sge s{abuf + 0x20000, 4096, akey};
    rnicp_send_wr w = wr(RNIC_WQE_OP_RDMA_WRITE, &s, bbuf + 0x20000, bkey);
    rnicp_wc c{};
    int n = ok ? (x.post_send(w) > 0 ? x.poll(&c, 1, sc_time(2, SC_MS)) : -1) : -1;
    ok = ok && n == 1 && c.status == 0 && b->mem->read_vec(bbuf + 0x20000, 4096) == d;
    bool alive = hb1 != hb0 && nop == 0 && rnic_rd32(&a->os, RNIC_REG_CPU_FW_STATUS) == RNIC_FW_STATUS_READY;
    if (!alive) *why = "firmware: heartbeat " + std::to_string(hb0) + "->" + std::to_string(hb1) + " nop " + std::to_string(nop);
    else if (!ok) *why = "a fresh QP pair does not move data (cqes " + std::to_string(n) + ")";
    x.set_state(RNIC_QP_STATE_ERR), y.set_state(RNIC_QP_STATE_ERR);
    return alive && ok;
  }

  // One path: `arm` sets the error range given the pair, `go` posts the operation(s); `on_x`:
  // the failing DMA is nic0's own request path (its WQE must complete with an error), else the
  // peer's WQE must; want_status: that completion's status (-1: any error). want_x: nic0's own
  // completion and state are required too (status want_x, QP in ERR; -1: not required).
  // Events: `events` gives the QP_FATAL events the case must raise, given the pair and outcome
  // (see qp_fatal_events).
  using Ev = std::vector<std::array<int, 4>>;
  using EventsFn = std::function<std::vector<std::array<int, 4>>(RdmaQp &, RdmaQp &, const rnicp_wc &, const rnicp_wc &)>;
  void path(const char *name, std::function<void(RdmaQp &, RdmaQp &)> arm, std::function<void(RdmaQp &, RdmaQp &)> go,
            bool on_x, int want_status, int want_x, EventsFn events) {
    RdmaQp x, y;
    if (!pair(x, y)) {
      r.check(false, (std::string("pcie-err-") + name + "-setup").c_str(), "%s%s", x.err.c_str(), y.err.c_str());
      return;
    }
    poll_eqs();
    qp_events.clear();
    g_err = ErrRange();
    arm(x, y);
    uint32_t rde = rnic_rd32(&a->os, RNIC_COUNTER_BASE + 4 * RNIC_CNT_DMA_RD_ERR),
             wre = rnic_rd32(&a->os, RNIC_COUNTER_BASE + 4 * RNIC_CNT_DMA_WR_ERR);
    go(x, y);
    Outcome o;
    // 6 ms: three transport timeouts of 1 ms (timeout 8, retry_cnt 2) and some
    sc_time end = sc_time_stamp() + sc_time(6, SC_MS);
    while (sc_time_stamp() < end && (on_x ? o.nx == 0 : o.ny == 0)) {
      wait(sc_time(5, SC_US));
      if (!o.nx) o.nx = x.poll_now(&o.wx, 1);
      if (!o.ny) o.ny = y.poll_now(&o.wy, 1);
    }
    wait(sc_time(50, SC_US));
    if (!o.nx) o.nx = x.poll_now(&o.wx, 1);
    if (!o.ny) o.ny = y.poll_now(&o.wy, 1);
    uint64_t hits = g_err.hits;
    g_err = ErrRange();  // the error range goes before the state queries and the health check
    o.sx = x.state(), o.sy = y.state();
    uint32_t drde = rnic_rd32(&a->os, RNIC_COUNTER_BASE + 4 * RNIC_CNT_DMA_RD_ERR) - rde,
             dwre = rnic_rd32(&a->os, RNIC_COUNTER_BASE + 4 * RNIC_CNT_DMA_WR_ERR) - wre;
    char row[400];
    std::snprintf(row, sizeof row, "| %s | %llu | %u / %u | %s | %s | %s | %s |", name, (unsigned long long)hits, drde,
                  dwre, o.nx ? st_name(int(o.wx.status)) : "none", o.ny ? st_name(int(o.wy.status)) : "none",
                  o.sx == int(RNIC_QP_STATE_ERR) ? "ERR" : std::to_string(o.sx).c_str(),
                  o.sy == int(RNIC_QP_STATE_ERR) ? "ERR" : std::to_string(o.sy).c_str());
    matrix.push_back(row);
    const rnicp_wc &w = on_x ? o.wx : o.wy;
    int n = on_x ? o.nx : o.ny;
    bool completes = n == 1 && w.status != RNIC_WC_STATUS_SUCCESS && (want_status < 0 || int(w.status) == want_status);
    bool err_state = (on_x ? o.sx : o.sy) == int(RNIC_QP_STATE_ERR);
    std::string why;
    bool health = healthy(&why);
    std::string nm = std::string("pcie-err-") + name;
    bool ok = hits > 0 && completes && err_state;
    if (want_x >= 0)  // nic0's QP: its error completion (wr_id unknown to the NIC) and ERR
      ok = ok && o.nx == 1 && int(o.wx.status) == want_x && o.sx == int(RNIC_QP_STATE_ERR);
    r.check(ok, (nm + "-error-completion-qp-err").c_str(), "%s (hits %llu)", row, (unsigned long long)hits);
    r.check(health, (nm + "-nothing-hung-others-work").c_str(), "%s", why.c_str());
    x.set_state(RNIC_QP_STATE_ERR), y.set_state(RNIC_QP_STATE_ERR);
    bool evok = false;
    std::string ev = qp_fatal_events(events(x, y, o.wx, o.wy), &evok);
    matrix.back() += " " + ev + " |";
    r.check(evok, (nm + "-qp-fatal-event-once").c_str(), "QP_FATAL events: %s (x = nic0 qp %u, y = nic1 qp %u)",
            ev.c_str(), x.qpn, y.qpn);
  }

  // The CQE write fails: the CQ goes to error with one CQ_ERROR event naming it; the WRITE's
  // data still lands; a later completion on that CQ (range gone) is dropped, not written.
  void cqe_write_path() {
    RdmaQp x, y;
    if (!pair(x, y)) {
      r.check(false, "pcie-err-cqe-write-setup", "%s%s", x.err.c_str(), y.err.c_str());
      return;
    }
    const uint64_t A = abuf + 0x40000, B = bbuf + 0x40000;
    std::vector<uint8_t> d(256);
    for (size_t i = 0; i < d.size(); i++) d[i] = uint8_t(i * 7 + 3);
    a->mem->write(A, d.data(), d.size());
    b->mem->write(B, std::vector<uint8_t>(256, 0).data(), 256);
    poll_eqs();
    qp_events.clear();
    g_err = ErrRange();
    g_err.base = x.cq_buf, g_err.len = 4096, g_err.writes = true;
    uint32_t wre = rnic_rd32(&a->os, RNIC_COUNTER_BASE + 4 * RNIC_CNT_DMA_WR_ERR);
    int ev0 = cq_errors;
    static rnicp_sge s1;
    s1 = {A, 256, akey};
    x.post_send(wr(RNIC_WQE_OP_RDMA_WRITE, &s1, B, bkey));
    sc_time end = sc_time_stamp() + sc_time(2, SC_MS);
    while (sc_time_stamp() < end && cq_errors == ev0) {
      wait(sc_time(5, SC_US));
      rnic_eq_poll(&eq, 16, 0);
    }
    uint64_t hits = g_err.hits;
    g_err = ErrRange();
    int events = cq_errors - ev0;
    uint32_t handle = cq_err_handle;
    // a second signaled WRITE with the range gone: the CQ is in error, its CQE is dropped
    x.post_send(wr(RNIC_WQE_OP_RDMA_WRITE, &s1, B, bkey));
    wait(sc_time(200, SC_US));
    rnic_eq_poll(&eq, 16, 0);
    rnicp_wc w{};
    int n = x.poll_now(&w, 1);
    bool data = b->mem->read_vec(B, 256) == d;
    uint32_t dwre = rnic_rd32(&a->os, RNIC_COUNTER_BASE + 4 * RNIC_CNT_DMA_WR_ERR) - wre;
    char row[400];
    std::snprintf(row, sizeof row, "| cqe-write | %llu | - / %u | %s | none | CQ_ERROR events %d (cq %u, x's cq %u) |",
                  (unsigned long long)hits, dwre, n ? st_name(int(w.status)) : "none", events, handle, x.cqn);
    matrix.push_back(row);
    r.check(hits > 0 && events == 1 && handle == x.cqn && cq_errors - ev0 == 1, "pcie-err-cqe-write-cq-error-event",
            "%s", row);
    r.check(n == 0 && data, "pcie-err-cqe-write-cq-in-error-data-landed", "%s data %s", row, data ? "ok" : "differs");
    std::string why;
    r.check(healthy(&why), "pcie-err-cqe-write-nothing-hung-others-work", "%s", why.c_str());
    x.set_state(RNIC_QP_STATE_ERR), y.set_state(RNIC_QP_STATE_ERR);
    bool evok = false;
    std::string ev = qp_fatal_events({}, &evok);  // the QPs stay usable: the CQ is what failed
    matrix.back() += " " + ev + " |";
    r.check(evok, "pcie-err-cqe-write-no-qp-fatal-event", "QP_FATAL events: %s", ev.c_str());
  }

  // Two CQs whose CQE writes fail back to back (two QPs' WRITEs rung together): each CQ goes to
  // error with its own CQ_ERROR event (the CQE writer's error FIFO names both; a single "latest
  // CQ" register could name only the second), the data of both WRITEs lands.
  void cqe_write_two_cqs() {
    RdmaQp x1, y1, x2, y2;
    if (!pair(x1, y1) || !pair(x2, y2)) {
      r.check(false, "pcie-err-cqe-write-two-cqs-setup", "%s%s%s%s", x1.err.c_str(), y1.err.c_str(), x2.err.c_str(),
              y2.err.c_str());
      return;
    }
    const uint64_t A = abuf + 0x40000, B = bbuf + 0x40000;
    std::vector<uint8_t> d(512);
    for (size_t i = 0; i < d.size(); i++) d[i] = uint8_t(i * 11 + 5);
    a->mem->write(A, d.data(), d.size());
    b->mem->write(B, std::vector<uint8_t>(512, 0).data(), 512);
    poll_eqs();
    qp_events.clear();
    cq_err_handles.clear();
    g_err = ErrRange();
    g_err.base = x1.cq_buf, g_err.len = 4096, g_err.base2 = x2.cq_buf, g_err.len2 = 4096, g_err.writes = true;
    int ev0 = cq_errors;
    static rnicp_sge s1, s2;
    s1 = {A, 256, akey}, s2 = {A + 256, 256, akey};
    int p1 = x1.post_send_nodb(wr(RNIC_WQE_OP_RDMA_WRITE, &s1, B, bkey));
    int p2 = x2.post_send_nodb(wr(RNIC_WQE_OP_RDMA_WRITE, &s2, B + 256, bkey));
    x1.ring(), x2.ring();
    sc_time end = sc_time_stamp() + sc_time(2, SC_MS);
    while (sc_time_stamp() < end && cq_errors - ev0 < 2) {
      wait(sc_time(5, SC_US));
      rnic_eq_poll(&eq, 16, 0);
    }
    wait(sc_time(50, SC_US));
    rnic_eq_poll(&eq, 16, 0);
    uint64_t hits = g_err.hits;
    g_err = ErrRange();
    std::string hs;
    for (uint32_t h : cq_err_handles) hs += " " + std::to_string(h);
    int n1 = std::count(cq_err_handles.begin(), cq_err_handles.end(), x1.cqn),
        n2 = std::count(cq_err_handles.begin(), cq_err_handles.end(), x2.cqn);
    rnicp_wc w{};
    int c1 = x1.poll_now(&w, 1), c2 = x2.poll_now(&w, 1);
    bool data = b->mem->read_vec(B, 512) == d;
    char row[400];
    std::snprintf(row, sizeof row, "| cqe-write, two CQs | %llu | - / - | none | none | CQ_ERROR events on cq%s (x1's cq %u, x2's cq %u) |",
                  (unsigned long long)hits, hs.c_str(), x1.cqn, x2.cqn);
    matrix.push_back(row);
    r.check(p1 > 0 && p2 > 0 && hits >= 2 && cq_errors - ev0 == 2 && n1 == 1 && n2 == 1,
            "pcie-err-cqe-write-two-cqs-each-cq-error-event", "%s", row);
    r.check(c1 == 0 && c2 == 0 && data, "pcie-err-cqe-write-two-cqs-in-error-data-landed", "cqes %d %d data %s", c1, c2,
            data ? "ok" : "differs");
    std::string why;
    r.check(healthy(&why), "pcie-err-cqe-write-two-cqs-nothing-hung-others-work", "%s", why.c_str());
    for (RdmaQp *q : {&x1, &y1, &x2, &y2}) q->set_state(RNIC_QP_STATE_ERR);
    bool evok = false;
    std::string ev = qp_fatal_events({}, &evok);
    matrix.back() += " " + ev + " |";
    r.check(evok, "pcie-err-cqe-write-two-cqs-no-qp-fatal-event", "QP_FATAL events: %s", ev.c_str());
  }

  void run() {
    abuf = a->mem->alloc(1 << 20, 4096), bbuf = b->mem->alloc(1 << 20, 4096);
    bool ok = a->open_port() && b->open_port() && rdma_reg_mr(a, abuf, 1 << 20, 0xF, &akey) &&
              rdma_reg_mr(b, bbuf, 1 << 20, 0xF, &bkey);
    auto on_qp = [](void *arg, const rnic_event *ev) {
      qp_events.push_back({*static_cast<int *>(arg), ev->subtype, ev->handle, ev->data});
    };
    ok = ok && rnic_eq_init(&eq, &a->os, 4, 0) == 0 && rnic_eq_init(&eqb, &b->os, 4, 0) == 0 &&
         rnic_eq_set_handler(&eq, RNIC_EQ_TYPE_CQ_ERROR, [](void *, const rnic_event *ev) {
           cq_errors++;
           cq_err_handle = ev->handle;
           cq_err_handles.push_back(ev->handle);
         }, &nic_ids[0]) == 0 &&
         rnic_eq_set_handler(&eq, RNIC_EQ_TYPE_QP_FATAL, on_qp, &nic_ids[0]) == 0 &&
         rnic_eq_set_handler(&eqb, RNIC_EQ_TYPE_QP_FATAL, on_qp, &nic_ids[1]) == 0;
    if (!r.check(ok, "pcie-err-setup", "%s%s", a->err.c_str(), b->err.c_str())) return sc_stop();
    static rnicp_sge s1, s2;
    const uint64_t A = abuf + 0x40000, B = bbuf + 0x40000;  // the buffers of each case
    auto range = [](uint64_t base, uint64_t len, bool rd, bool wr) {
      g_err.base = base, g_err.len = len, g_err.reads = rd, g_err.writes = wr;
    };
    // nic0 as requester
    path("sq-wqe-fetch", [&](RdmaQp &x, RdmaQp &) { range(x.qp_buf, 4096, true, false); },
         [&](RdmaQp &x, RdmaQp &) {
           s1 = {A, 256, akey};
           x.post_send(wr(RNIC_WQE_OP_RDMA_WRITE, &s1, B, bkey));
         }, true, int(RNIC_WC_STATUS_LOC_QP_OP_ERR), -1, [](RdmaQp &x, RdmaQp &, const rnicp_wc &, const rnicp_wc &) { return Ev{{0, int(x.qpn), int(RNIC_WC_STATUS_LOC_QP_OP_ERR), int(RNIC_EQ_QP_SIDE_REQUESTER)}}; });
    path("payload-read", [&](RdmaQp &, RdmaQp &) { range(A, 8192, true, false); },
         [&](RdmaQp &x, RdmaQp &) {
           s1 = {A, 8192, akey};
           x.post_send(wr(RNIC_WQE_OP_RDMA_WRITE, &s1, B, bkey));
         }, true, -1, -1, [](RdmaQp &x, RdmaQp &, const rnicp_wc &wx, const rnicp_wc &) { return Ev{{0, int(x.qpn), int(wx.status), int(RNIC_EQ_QP_SIDE_REQUESTER)}}; });
    path("read-response-placement", [&](RdmaQp &, RdmaQp &) { range(A, 8192, false, true); },
         [&](RdmaQp &x, RdmaQp &) {
           s1 = {A, 8192, akey};
           x.post_send(wr(RNIC_WQE_OP_RDMA_READ, &s1, B, bkey));
         }, true, -1, -1, [](RdmaQp &x, RdmaQp &, const rnicp_wc &wx, const rnicp_wc &) { return Ev{{0, int(x.qpn), int(wx.status), int(RNIC_EQ_QP_SIDE_REQUESTER)}}; });
    cqe_write_path();
    cqe_write_two_cqs();
    // nic0 as responder
    path("write-placement", [&](RdmaQp &, RdmaQp &) { range(A, 8192, false, true); },
         [&](RdmaQp &, RdmaQp &y) {
           s2 = {B, 8192, bkey};
           y.post_send(wr(RNIC_WQE_OP_RDMA_WRITE, &s2, A, akey));
         }, false, int(RNIC_WC_STATUS_REM_OP_ERR), -1, [](RdmaQp &x, RdmaQp &y, const rnicp_wc &, const rnicp_wc &wy) { return Ev{{0, int(x.qpn), -1, int(RNIC_EQ_QP_SIDE_RESPONDER)}, {1, int(y.qpn), int(wy.status), int(RNIC_EQ_QP_SIDE_REQUESTER)}}; });
    path("read-response-source", [&](RdmaQp &, RdmaQp &) { range(A, 8192, true, false); },
         [&](RdmaQp &, RdmaQp &y) {
           s2 = {B, 8192, bkey};
           y.post_send(wr(RNIC_WQE_OP_RDMA_READ, &s2, A, akey));
         }, false, int(RNIC_WC_STATUS_REM_OP_ERR), -1, [](RdmaQp &x, RdmaQp &y, const rnicp_wc &, const rnicp_wc &wy) { return Ev{{0, int(x.qpn), -1, int(RNIC_EQ_QP_SIDE_RESPONDER)}, {1, int(y.qpn), int(wy.status), int(RNIC_EQ_QP_SIDE_REQUESTER)}}; });
    // only the second page fails: the first frames are good, the last is poisoned, then the NAK
    path("read-response-source-tail", [&](RdmaQp &, RdmaQp &) { range(A + 4096, 4096, true, false); },
         [&](RdmaQp &, RdmaQp &y) {
           s2 = {B, 8192, bkey};
           y.post_send(wr(RNIC_WQE_OP_RDMA_READ, &s2, A, akey));
         }, false, int(RNIC_WC_STATUS_REM_OP_ERR), -1, [](RdmaQp &x, RdmaQp &y, const rnicp_wc &, const rnicp_wc &wy) { return Ev{{0, int(x.qpn), -1, int(RNIC_EQ_QP_SIDE_RESPONDER)}, {1, int(y.qpn), int(wy.status), int(RNIC_EQ_QP_SIDE_REQUESTER)}}; });
    path("rq-wqe-fetch", [&](RdmaQp &x, RdmaQp &) { range(x.qp_buf + 4096, 4096, true, false); },
         [&](RdmaQp &x, RdmaQp &y) {
           static rnicp_sge rs;
           rs = {A, 4096, akey};
           rnicp_recv_wr rw{0x99, &rs, 1};
           x.post_recv(rw);
           wait(sc_time(50, SC_US));
           s2 = {B, 1000, bkey};
           rnicp_send_wr w = wr(RNIC_WQE_OP_SEND, &s2, 0, 0);
           y.post_send(w);
         }, false, -1, int(RNIC_WC_STATUS_LOC_QP_OP_ERR), [](RdmaQp &x, RdmaQp &y, const rnicp_wc &, const rnicp_wc &wy) { return Ev{{0, int(x.qpn), int(RNIC_WC_STATUS_LOC_QP_OP_ERR), int(RNIC_EQ_QP_SIDE_RESPONDER)}, {1, int(y.qpn), int(wy.status), int(RNIC_EQ_QP_SIDE_REQUESTER)}}; });
    std::printf("INFO PCIe error matrix (nic0's PCIe answers SLVERR on the range of the path; hits = requests that "
                "met it; dma errors = nic0's dma_rd_err / dma_wr_err counters; x on nic0, y on nic1):\n");
    std::printf("INFO | path | hits | dma errors rd / wr | x CQE | y CQE | x state | y state | QP_FATAL events |\n");
    for (auto &m : matrix) std::printf("INFO %s\n", m.c_str());
    rnic_eq_fini(&eq);
    rnic_eq_fini(&eqb);
    sc_stop();
  }
};

int pcie_err_main(int, char **argv) { return err_range_main<PcieErr>("pcie_err", argv); }

SimProgram reg("test-pcie-errors", "two NICs: SLVERR on each DMA path of nic0, outcome matrix", pcie_err_main);

}  // namespace
