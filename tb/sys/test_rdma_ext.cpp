// Two simulated NICs, more of the verbs surface than test-rdma: every program opens both hosts,
// registers a 2 MiB buffer on each (all rights) and runs one group of checks on QPs made with
// RdmaQp. Data is compared byte for byte with guard bytes around every destination; every
// signaled WQE must give exactly one CQE, in order, with the exact status, opcode, byte_len and
// immediate.
//   test-rdma-ops  SEND / SEND_IMM / WRITE / WRITE_IMM / READ at 0..4097 B, 1-4 SGEs each way, inline, CAS, FAA
//   test-rdma-err  remote access errors (rkey, bounds, rights on MR and QP, PD), local key error:
//                  error CQE, QP in ERR, later WQEs flushed, another QP unaffected
//   test-rdma-rnr  RNR NAK then success; RNR retries exhausted; peer gone -> RETRY_EXC_ERR
//   test-rdma-mtu  WRITE / SEND / READ at path MTU 256 and 1024
//   test-rdma-qps  N QP pairs (--qps N, default 64) with round-robin interleaved traffic
//   test-rdma-qp-range  every QP of the configuration (1022 per NIC at 100g) created; traffic on
//                  the lowest, highest and random QPNs (--range-sel N, --range-all connects all)
//   test-rdma-ud   UD SEND end to end (not in the default run: see sim/README.md)
//   test-rdma-prio 802.1Q tags on both ports, traffic classes per QP and AH (the capture is
//                  checked by tb/sys/pcap_prio.py)
// Options after the seed: --gaps also runs the checks of known gaps (SKIP lines otherwise);
// --no-pfc turns the link's flow control (PAUSE frames) off.
#define SC_INCLUDE_DYNAMIC_PROCESSES  // sc_spawn: the two NICs' QPs created at once
#include <systemc.h>

#include <cmath>
#include <cstring>
#include <array>
#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <vector>

#include "host/pcie_model.h"
#include "main/sim_program.h"
#include "net/eth_link.h"
#include "sys/lat_split.h"
#include "sys/rdma_qp.h"
#include "tb_check.h"
#include "sys/two_nics.h"

namespace {

constexpr uint32_t kBuf = 2u << 20;
constexpr uint32_t FW_FIRST_QPN_SYS = 2;  // QPNs 0 and 1 are never handed out
constexpr uint32_t kAll = 0xF;
constexpr uint32_t LW = 1u << RNIC_ACCESS_LOCAL_WRITE, RW = 1u << RNIC_ACCESS_REMOTE_WRITE,
                   RR = 1u << RNIC_ACCESS_REMOTE_READ, RA = 1u << RNIC_ACCESS_REMOTE_ATOMIC;

std::string wcs(const rnicp_wc &w) {
  char s[160];
  std::snprintf(s, sizeof s, "[wr %llx st %u op %u len %u imm %x fl %x qp %u]", (unsigned long long)w.wr_id, w.status,
                w.opcode, w.byte_len, w.imm_data, w.flags, w.qpn);
  return s;
}

// Checks of known gaps run only with --gaps (not in the default run); otherwise one SKIP line.
bool g_gaps = false;
bool g_faults = false;   // --faults given: the link loses, reorders, duplicates, corrupts
int g_qps = 64;          // test-rdma-qps: QP pairs (--qps N)
bool g_qps_read = true;  // test-rdma-qps: READs in the mix (--no-read leaves them out)
// test-rdma-qp-range: QPs with traffic (--range-sel N: lowest, highest, N-2 random) and whether
// every pair is connected (--range-all) or only those
int g_range_sel = 8;
bool g_range_all = false;
// test-rdma-qps: simulated time between two doorbells (--pace NS). The NIC's doorbell FIFO (64
// entries) drops doorbells it has no room for and a dropped doorbell is never recovered, so
// unpaced posting on 64 QPs loses WQEs (known gap, run with --pace 0 --gaps).
unsigned g_pace_ns = 1000;

// ---- data-moving cases, shared by the ops, mtu and qps programs ---------------------------------

// Expected CQE: wr_id, status, opcode, byte_len.
bool is(const rnicp_wc &w, uint64_t wr_id, uint32_t st, uint32_t op, uint32_t len) {
  return w.wr_id == wr_id && w.status == st && w.opcode == op && w.byte_len == len;
}

struct Ext : sc_module {
  SC_HAS_PROCESS(Ext);
  Ext(sc_module_name n, RdmaPort *a, RdmaPort *b, uint64_t seed, std::function<void(Ext &)> body)
      : sc_module(n), a(a), b(b), rng(seed), body(std::move(body)) {
    SC_THREAD(run);
  }
  RdmaPort *a, *b;
  uint64_t rng;
  std::function<void(Ext &)> body;
  TbResults r;
  uint64_t abuf = 0, bbuf = 0;
  uint32_t akey = 0, bkey = 0;
  sc_time wait_t = sc_time(2, SC_MS);
  std::vector<std::unique_ptr<RdmaQp>> qps;  // owned here: they live until the end of the run

  uint64_t next() {
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
  }
  std::vector<uint8_t> rnd(size_t n) {
    std::vector<uint8_t> v(n);
    for (auto &x : v) x = uint8_t(next());
    return v;
  }
  void fill(RdmaPort *h, uint64_t addr, uint32_t len) {
    auto v = rnd(len);
    h->mem->write(addr, v.data(), len);
  }
  bool check(bool ok, const std::string &name, const std::string &why) {
    return r.check(ok, name.c_str(), "%s", why.c_str());
  }

  RdmaQp *new_qp(RdmaPort *h, uint32_t pd = 0, uint32_t type = RNIC_QP_TYPE_RC, unsigned cq_log = RdmaQp::kCqLog) {
    qps.emplace_back(new RdmaQp());
    RdmaQp *q = qps.back().get();
    q->cq_log = cq_log;
    if (!q->create(h, pd, type)) {
      r.check(false, "rdma-qp-create", "%s", q->err.c_str());
      return nullptr;
    }
    return q;
  }
  // A connected pair: x on nic0 (requester side in most checks), y on nic1.
  bool pair(RdmaQp *&x, RdmaQp *&y, const RdmaConnOpts &ox = RdmaConnOpts(), const RdmaConnOpts &oy = RdmaConnOpts(),
            uint32_t ypd = 0, unsigned x_cq_log = RdmaQp::kCqLog) {
    x = new_qp(a, 0, RNIC_QP_TYPE_RC, x_cq_log), y = new_qp(b, ypd);
    if (!x || !y) return false;
    uint32_t px = uint32_t(next() & 0xFFFFFF), py = uint32_t(next() & 0xFFFFFF);
    bool ok = x->connect(*y, px, py, ox) && y->connect(*x, py, px, oy);
    return r.check(ok, "rdma-qp-connect", "%s%s", x->err.c_str(), y->err.c_str());
  }

  // QP_FATAL events (errors(), rnr()): an EQ on each NIC, opened by events_on(); every event
  // lands in qp_ev until taken by fatal_events().
  struct QpEv {
    int nic;
    uint32_t st, qpn, side;
  };
  struct EqOf {
    Ext *t;
    int nic;
    rnic_eq eq{};
  } eqs[2] = {{this, 0, {}}, {this, 1, {}}};
  std::vector<QpEv> qp_ev;
  bool events_open = false;
  bool events_on() {
    bool ok = true;
    for (int i = 0; i < 2; i++)
      ok = ok && rnic_eq_init(&eqs[i].eq, &(i ? b : a)->os, 6, 0) == 0 &&
           rnic_eq_set_handler(&eqs[i].eq, RNIC_EQ_TYPE_QP_FATAL, [](void *arg, const rnic_event *ev) {
             auto *e = static_cast<EqOf *>(arg);
             e->t->qp_ev.push_back({e->nic, ev->subtype, ev->handle, ev->data});
           }, &eqs[i]) == 0;
    events_open = ok;
    return r.check(ok, "rdma-events-eq-init");
  }
  // Checks that the QP_FATAL events since the last call are exactly `want` ({nic, qpn, status,
  // side}; status -1: any error), each once; prints what came.
  void fatal_events(const std::string &name, std::initializer_list<std::array<uint32_t, 4>> want) {
    if (!events_open) return;
    wait(sc_time(10, SC_US));
    for (auto &e : eqs) rnic_eq_poll(&e.eq, 64, 0);
    bool ok = qp_ev.size() == want.size();
    std::string got;
    for (auto &e : qp_ev)
      got += " nic" + std::to_string(e.nic) + " qp " + std::to_string(e.qpn) + " st " + std::to_string(e.st) +
             (e.side == RNIC_EQ_QP_SIDE_RESPONDER ? " responder" : " requester");
    for (auto &w : want) {
      int n = 0;
      for (auto &e : qp_ev)
        n += uint32_t(e.nic) == w[0] && e.qpn == w[1] && (w[2] == ~0u ? e.st != 0 : e.st == w[2]) && e.side == w[3];
      ok = ok && n == 1;
    }
    qp_ev.clear();
    if (!got.empty()) std::printf("INFO %s QP_FATAL events:%s\n", name.c_str(), got.c_str());
    r.check(ok, (name + "-qp-fatal-event").c_str(), "events:%s", got.empty() ? " none" : got.c_str());
  }

  // Nothing more on these QPs' CQs after a quiet period.
  bool quiet(std::initializer_list<RdmaQp *> l, sc_time t = sc_time(30, SC_US)) {
    wait(t);
    rnicp_wc w[4];
    bool ok = true;
    for (RdmaQp *q : l) ok = q->poll_now(w, 4) == 0 && ok;
    return ok;
  }

  void run() {
    bool ok = a->open_port() && b->open_port();
    r.check(ok, "rdma-open", "%s%s", a->err.c_str(), b->err.c_str());
    if (ok) {
      abuf = a->mem->alloc(kBuf, 4096), bbuf = b->mem->alloc(kBuf, 4096);
      ok = rdma_reg_mr(a, abuf, kBuf, kAll, &akey) && rdma_reg_mr(b, bbuf, kBuf, kAll, &bkey);
      r.check(ok, "rdma-reg-mr");
    }
    // On a faulty link (rdma-faults) every loss must be recovered: no QP may go to ERR, which
    // the absence of QP_FATAL events on both NICs shows.
    if (ok && g_faults) ok = events_on();
    if (ok) body(*this);
    if (ok && g_faults) fatal_events("rdma-faults-no-qp-error", {});
    // Non-zero receive-side drop and error counters of both NICs (diagnostics).
    const char *cn[] = {"rx-frames", "rx-bytes", "drop-eth", "drop-ipv4-hdr", "drop-ipv4-csum", "drop-udp", "drop-bth",
                        "drop-qpn", "drop-icrc", "drop-trunc", "tx-frames", "tx-bytes", "doorbells", "commands",
                        "dma-rd-err", "dma-wr-err", "drop-bad-qp", "psn-dup", "psn-ooo", "nak-err", "rnr-sent",
                        "drop-unsup", "drop-read-resp", "drop-ud", "pause-xoff", "tx-paused-cycles",
                        "pause-breaks"};
    for (RdmaPort *h : {a, b}) {
      std::string line;
      for (uint32_t i = 2; i <= RNIC_CNT_RX_PAUSE_BREAKS; i++) {
        if (i >= RNIC_CNT_TX_FRAMES && i <= RNIC_CNT_COMMANDS) continue;
        uint32_t v = rnic_rd32(&h->os, RNIC_COUNTER_BASE + 4 * i);
        if (v) line += std::string(" ") + cn[i] + " " + std::to_string(v);
      }
      uint32_t dbd = rnic_rd32(&h->os, RNIC_REG_DOORBELL_DB_DROPPED);
      if (dbd) line += " doorbells-dropped " + std::to_string(dbd);
      std::printf("INFO %s counters:%s\n", h == a ? "nic0" : "nic1", line.empty() ? " none" : line.c_str());
    }
    sc_stop();
  }
};

// Local SGEs of the given lengths at x's host, each in its own 16 KiB slot of area (so gaps
// separate them), filled with random bytes; returns the message they form.
std::vector<uint8_t> make_sges(Ext &t, RdmaPort *h, uint64_t area, uint32_t key, const std::vector<uint32_t> &lens,
                               std::vector<rnicp_sge> &sges) {
  std::vector<uint8_t> msg;
  sges.clear();
  for (size_t i = 0; i < lens.size(); i++) {
    uint64_t at = area + i * 0x4000 + t.next() % 0x800;
    auto v = t.rnd(lens[i]);
    h->mem->write(at, v.data(), v.size());
    msg.insert(msg.end(), v.begin(), v.end());
    sges.push_back({at, lens[i], key});
  }
  return msg;
}

// The destination SGEs (plus 64 guard bytes after each) as they are now.
std::vector<uint8_t> snapshot(RdmaPort *h, const std::vector<rnicp_sge> &s) {
  std::vector<uint8_t> v;
  for (auto &g : s) {
    auto x = h->mem->read_vec(g.addr, g.length + 64);
    v.insert(v.end(), x.begin(), x.end());
  }
  return v;
}

// What the destination SGEs must hold after msg was scattered into them.
std::vector<uint8_t> expect_scatter(std::vector<uint8_t> before, const std::vector<rnicp_sge> &s,
                                    const std::vector<uint8_t> &msg) {
  size_t off = 0, pos = 0;
  for (auto &g : s) {
    for (uint32_t i = 0; i < g.length && off < msg.size(); i++) before[pos + i] = msg[off++];
    pos += g.length + 64;
  }
  return before;
}

// SEND (or SEND_IMM) from x to y: x's SGE lengths, y's receive SGE lengths; inline from a
// host-side copy when inl.
void send_case(Ext &t, const std::string &name, RdmaQp *x, RdmaQp *y, uint32_t op, const std::vector<uint32_t> &slens,
               const std::vector<uint32_t> &rlens, bool inl = false) {
  std::vector<rnicp_sge> ss, rs;
  std::vector<uint8_t> msg = make_sges(t, x->h, x->h == t.a ? t.abuf : t.bbuf, x->h == t.a ? t.akey : t.bkey, slens, ss);
  std::vector<std::vector<uint8_t>> inl_copy;
  if (inl)  // the provider copies inline bytes from CPU pointers
    for (auto &s : ss) {
      inl_copy.push_back(x->h->mem->read_vec(s.addr, s.length));
      s.addr = s.length ? uint64_t(uintptr_t(inl_copy.back().data())) : 0;
    }
  uint64_t yarea = (y->h == t.a ? t.abuf : t.bbuf) + 0x80000;
  make_sges(t, y->h, yarea, y->h == t.a ? t.akey : t.bkey, rlens, rs);
  auto before = snapshot(y->h, rs);
  uint64_t rid = t.next(), sid = t.next();
  rnicp_recv_wr rwr{rid, rs.data(), uint32_t(rs.size())};
  int rrc = y->post_recv(rwr);
  rnicp_send_wr wr{};
  wr.wr_id = sid;
  wr.opcode = op;
  wr.imm_data = uint32_t(t.next());
  wr.flags = RNICP_WR_SIGNALED | (inl ? RNICP_WR_INLINE : 0);
  wr.sg_list = ss.data();
  wr.num_sge = uint32_t(ss.size());
  int src = x->post_send(wr);
  rnicp_wc wx{}, wy{};
  int nx = x->poll(&wx, 1, t.wait_t), ny = y->poll(&wy, 1, t.wait_t);
  bool imm = op == RNIC_WQE_OP_SEND_WITH_IMM;
  uint32_t len = uint32_t(msg.size());
  bool data = snapshot(y->h, rs) == expect_scatter(before, rs, msg);
  bool ok = rrc == 0 && src > 0 && nx == 1 && ny == 1 && is(wx, sid, 0, RNIC_WC_OPCODE_SEND, len) && wx.qpn == x->qpn &&
            is(wy, rid, 0, RNIC_WC_OPCODE_RECV, len) && wy.qpn == y->qpn &&
            bool(wy.flags & (1u << RNIC_CQE_FLAG_WITH_IMM)) == imm && (!imm || wy.imm_data == wr.imm_data) && data;
  t.r.check(ok, name.c_str(),
          "post %d/%d cqes %d/%d %s %s data %d", rrc, src, nx, ny, wcs(wx).c_str(), wcs(wy).c_str(), int(data));
}

// WRITE (or WRITE_IMM, which consumes a receive buffer of y that must stay untouched).
void write_case(Ext &t, const std::string &name, RdmaQp *x, RdmaQp *y, uint32_t op, const std::vector<uint32_t> &slens,
                bool inl = false, bool blueflame = false) {
  std::vector<rnicp_sge> ss;
  std::vector<uint8_t> msg = make_sges(t, x->h, x->h == t.a ? t.abuf : t.bbuf, x->h == t.a ? t.akey : t.bkey, slens, ss);
  std::vector<std::vector<uint8_t>> inl_copy;
  if (inl)
    for (auto &s : ss) {
      inl_copy.push_back(x->h->mem->read_vec(s.addr, s.length));
      s.addr = s.length ? uint64_t(uintptr_t(inl_copy.back().data())) : 0;
    }
  uint32_t len = uint32_t(msg.size());
  uint64_t ybase = y->h == t.a ? t.abuf : t.bbuf;
  uint32_t ykey = y->h == t.a ? t.akey : t.bkey;
  uint64_t dst = ybase + 0x40000 + t.next() % 0x1000;
  t.fill(y->h, dst - 64, len + 128);
  auto pre = y->h->mem->read_vec(dst - 64, 64), post = y->h->mem->read_vec(dst + len, 64);
  bool imm = op == RNIC_WQE_OP_RDMA_WRITE_WITH_IMM;
  std::vector<rnicp_sge> rs;
  uint64_t rid = t.next();
  int rrc = 0;
  if (imm) {
    make_sges(t, y->h, ybase + 0x80000, ykey, {256}, rs);
    rnicp_recv_wr rwr{rid, rs.data(), 1};
    rrc = y->post_recv(rwr);
  }
  auto rbefore = snapshot(y->h, rs);
  rnicp_send_wr wr{};
  wr.wr_id = t.next();
  wr.opcode = op;
  wr.imm_data = uint32_t(t.next());
  wr.flags = RNICP_WR_SIGNALED | (inl ? RNICP_WR_INLINE : 0);
  wr.sg_list = ss.data();
  wr.num_sge = uint32_t(ss.size());
  wr.remote_addr = dst;
  wr.rkey = ykey;
  int src = blueflame ? x->post_send_bf(wr) : x->post_send(wr);
  rnicp_wc wx{}, wy{};
  int nx = x->poll(&wx, 1, t.wait_t), ny = imm ? y->poll(&wy, 1, t.wait_t) : 0;
  bool data = y->h->mem->read_vec(dst, len) == msg && y->h->mem->read_vec(dst - 64, 64) == pre &&
              y->h->mem->read_vec(dst + len, 64) == post && snapshot(y->h, rs) == rbefore;
  bool ok = rrc == 0 && src > 0 && nx == 1 && is(wx, wr.wr_id, 0, RNIC_WC_OPCODE_RDMA_WRITE, len) && data &&
            (!imm || (ny == 1 && is(wy, rid, 0, RNIC_WC_OPCODE_RECV_RDMA_WITH_IMM, len) && wy.imm_data == wr.imm_data &&
                      (wy.flags & (1u << RNIC_CQE_FLAG_WITH_IMM)) && wy.qpn == y->qpn));
  t.r.check(ok, name.c_str(), "post %d/%d cqes %d/%d %s %s data %d", rrc, src, nx, ny, wcs(wx).c_str(), wcs(wy).c_str(), int(data));
}

// READ len bytes of y's memory into x's SGEs of the given lengths (sum = len).
void read_case(Ext &t, const std::string &name, RdmaQp *x, RdmaQp *y, const std::vector<uint32_t> &dlens) {
  std::vector<rnicp_sge> ds;
  make_sges(t, x->h, (x->h == t.a ? t.abuf : t.bbuf) + 0x80000, x->h == t.a ? t.akey : t.bkey, dlens, ds);
  auto before = snapshot(x->h, ds);
  uint32_t len = 0;
  for (uint32_t l : dlens) len += l;
  uint64_t src = (y->h == t.a ? t.abuf : t.bbuf) + 0x40000 + t.next() % 0x1000;
  auto msg = t.rnd(len);
  y->h->mem->write(src, msg.data(), len);
  rnicp_send_wr wr{};
  wr.wr_id = t.next();
  wr.opcode = RNIC_WQE_OP_RDMA_READ;
  wr.flags = RNICP_WR_SIGNALED;
  wr.sg_list = ds.data();
  wr.num_sge = uint32_t(ds.size());
  wr.remote_addr = src;
  wr.rkey = y->h == t.a ? t.akey : t.bkey;
  int rc = x->post_send(wr);
  rnicp_wc wx{};
  int nx = x->poll(&wx, 1, t.wait_t);
  bool data = snapshot(x->h, ds) == expect_scatter(before, ds, msg);
  t.r.check(rc > 0 && nx == 1 && is(wx, wr.wr_id, 0, RNIC_WC_OPCODE_RDMA_READ, len) && data, name.c_str(),
          "post %d cqes %d %s data %d", rc, nx, wcs(wx).c_str(), int(data));
}

// One atomic at y's 8-aligned address holding init: the old value must come back into x's
// 8-byte SGE, y's word must become expect, the words around it unchanged.
void atomic_case(Ext &t, const std::string &name, RdmaQp *x, RdmaQp *y, uint32_t op, uint64_t init, uint64_t cmp_add,
                 uint64_t swap, uint64_t expect) {
  uint64_t ybase = y->h == t.a ? t.abuf : t.bbuf, xbase = x->h == t.a ? t.abuf : t.bbuf;
  uint64_t at = ybase + 0xC0000 + (t.next() % 0x200) * 8, res = xbase + 0xC0000 + (t.next() % 0x200) * 8;
  t.fill(y->h, at - 8, 24);
  y->h->mem->wr64(at, init);
  t.fill(x->h, res - 8, 24);
  auto ynb = y->h->mem->read_vec(at - 8, 24), xnb = x->h->mem->read_vec(res - 8, 24);
  rnicp_sge s{res, 8, x->h == t.a ? t.akey : t.bkey};
  rnicp_send_wr wr{};
  wr.wr_id = t.next();
  wr.opcode = op;
  wr.flags = RNICP_WR_SIGNALED;
  wr.sg_list = &s;
  wr.num_sge = 1;
  wr.remote_addr = at;
  wr.rkey = y->h == t.a ? t.akey : t.bkey;
  wr.compare_add = cmp_add;
  wr.swap = swap;
  int rc = x->post_send(wr);
  rnicp_wc wx{};
  int nx = x->poll(&wx, 1, t.wait_t);
  uint64_t got_old = x->h->mem->rd64(res), now = y->h->mem->rd64(at);
  // Neighbours: the bytes before and after the two words.
  auto yn = y->h->mem->read_vec(at - 8, 24), xn = x->h->mem->read_vec(res - 8, 24);
  bool nb = std::equal(yn.begin(), yn.begin() + 8, ynb.begin()) && std::equal(yn.begin() + 16, yn.end(), ynb.begin() + 16) &&
            std::equal(xn.begin(), xn.begin() + 8, xnb.begin()) && std::equal(xn.begin() + 16, xn.end(), xnb.begin() + 16);
  uint32_t wop = op == RNIC_WQE_OP_ATOMIC_CMP_AND_SWP ? RNIC_WC_OPCODE_COMP_SWAP : RNIC_WC_OPCODE_FETCH_ADD;
  t.r.check(rc > 0 && nx == 1 && is(wx, wr.wr_id, 0, wop, 8) && now == expect && nb, name.c_str(),
            "post %d cqes %d %s remote %llx (want %llx) neighbours %d", rc, nx, wcs(wx).c_str(),
            (unsigned long long)now, (unsigned long long)expect, int(nb));
  t.r.check(got_old == init, (name + "-old-value").c_str(), "old %llx want %llx", (unsigned long long)got_old,
            (unsigned long long)init);
}

// 16 READs of 64 KiB (8 KiB on a faulty link: each lost response costs the rest of its READ)
// posted with one doorbell on a pair whose max_rd_atomic / max_dest_rd_atomic
// are 16 (the device's max_qp_rd_atom and the receive engine's READ contexts): all in flight at
// once, the later ones' responses placed while earlier ones' still arrive; completions in order,
// every byte of the 1 MiB in place (on a faulty link, rdma-faults, through re-issues from gaps).
void reads_outstanding(Ext &t) {
  RdmaQp *x, *y;
  RdmaConnOpts o;
  o.max_rd_atomic = o.max_dest_rd_atomic = 16;
  if (!t.pair(x, y, o, o)) return;
  const uint32_t n = 16, len = g_faults ? 8192 : 65536;
  uint64_t dst = t.abuf + 0x100000, src = t.bbuf + 0x100000;
  auto msg = t.rnd(size_t(n) * len);
  t.b->mem->write(src, msg.data(), msg.size());
  t.a->mem->fill(dst, 0, size_t(n) * len);
  std::vector<rnicp_sge> sg(n);
  std::vector<uint64_t> ids(n);
  int posted = 0;
  for (uint32_t i = 0; i < n; i++) {
    sg[i] = rnicp_sge{dst + uint64_t(i) * len, len, t.akey};
    rnicp_send_wr wr{};
    wr.wr_id = ids[i] = t.next();
    wr.opcode = RNIC_WQE_OP_RDMA_READ;
    wr.flags = RNICP_WR_SIGNALED;
    wr.sg_list = &sg[i];
    wr.num_sge = 1;
    wr.remote_addr = src + uint64_t(i) * len;
    wr.rkey = t.bkey;
    posted += x->post_send_nodb(wr) > 0;
  }
  x->ring();
  std::vector<rnicp_wc> wc(n);
  int got = x->poll(wc.data(), int(n), t.wait_t * 4);
  bool order = got == int(n);
  for (int i = 0; order && i < got; i++) order = is(wc[i], ids[i], 0, RNIC_WC_OPCODE_RDMA_READ, len);
  bool data = t.a->mem->read_vec(dst, size_t(n) * len) == msg;
  t.r.check(posted == int(n) && order && data, "rdma-read-16-outstanding", "posted %d cqes %d in order %d data %d",
            posted, got, int(order), int(data));
  t.check(t.quiet({x, y}), "rdma-read-16-outstanding-no-extra-cqes", "");
}

// ---- programs ----------------------------------------------------------------------------------

// make bench's latency split of an 8 B WRITE (tb/sys/lat_split.h), once with sq_db and once with
// BlueFlame, from idle: every port stamp found and in order, the parts adding up to the latency
// the host measures (doorbell write issued -> bytes in the remote memory, polled every 4 ns), the
// link part at least the link's propagation delay and the PCIe part at least the model's posted
// write latency less two cycles (the stamps are taken at the clock's sampling point, the host
// polls every 4 ns), so a stamp taken at the wrong handshake shows.
void lat_split_case(Ext &t, RdmaQp *x, RdmaQp *y, bool bf) {
  std::string name = std::string("rdma-write-8-latency-split-") + (bf ? "blueflame" : "sq-db");
  wait(sc_time(20, SC_US));
  uint64_t dst = t.bbuf + 0x60000, src = t.abuf + 0x60000;
  auto msg = t.rnd(8);
  t.a->mem->write(src, msg.data(), 8);
  y->h->mem->fill(dst, 0, 8);
  rnicp_sge sge{src, 8, t.akey};
  rnicp_send_wr wr{};
  wr.wr_id = t.next();
  wr.opcode = RNIC_WQE_OP_RDMA_WRITE;
  wr.flags = RNICP_WR_SIGNALED;
  wr.sg_list = &sge;
  wr.num_sge = 1;
  wr.remote_addr = dst;
  wr.rkey = t.bkey;
  LatSplit::start(x->h->nic, y->h->nic);
  double t0 = LatSplit::now_ns();
  int rc = bf ? x->post_send_bf(wr) : x->post_send(wr);
  double land = -1;
  while (LatSplit::now_ns() - t0 < 1e6) {
    if (y->h->mem->read_vec(dst, 8) == msg) {
      land = LatSplit::now_ns();
      break;
    }
    wait(sc_time(4, SC_NS));
  }
  LatSplit p = LatSplit::take(x->h->nic, y->h->nic, t0, land);
  rnicp_wc wc{};
  int n = x->poll(&wc, 1, t.wait_t);
  double total = land - t0;
  bool ok = rc > 0 && land > 0 && p.ok && n == 1 && wc.status == 0 && std::fabs(p.sum() - total) < 1e-6 &&
            p.link >= EthLinkCfg().prop_delay_ps / 1e3 && p.pcie >= PcieCfg().wr_latency_ps / 1e3 - 8 && p.tx > 0 && p.frame > 0 && p.rx > 0;
  t.r.check(ok, name.c_str(), "post %d landed %d stamps %d cqe %d/%u: %.1f = %.1f + %.1f + %.1f + %.1f + %.1f + %.1f ns",
            rc, land > 0, int(p.ok), n, wc.status, total, p.host, p.tx, p.frame, p.link, p.rx, p.pcie);
}

void ops(Ext &t) {
  RdmaQp *x, *y;
  if (!t.pair(x, y)) return;
  const uint32_t sizes[] = {0, 1, 63, 64, 4095, 4096, 4097};
  for (uint32_t n : sizes) {
    std::string s = std::to_string(n);
    send_case(t, "rdma-send-" + s, x, y, RNIC_WQE_OP_SEND, {n}, {8192});
    write_case(t, "rdma-write-imm-" + s, x, y, RNIC_WQE_OP_RDMA_WRITE_WITH_IMM, {n});
    read_case(t, "rdma-read-" + s, x, y, {n});
  }
  send_case(t, "rdma-send-imm-0", x, y, RNIC_WQE_OP_SEND_WITH_IMM, {0}, {64});
  // The other direction on the same QPs.
  send_case(t, "rdma-send-back-4097", y, x, RNIC_WQE_OP_SEND_WITH_IMM, {4097}, {8192});
  write_case(t, "rdma-write-back-4097", y, x, RNIC_WQE_OP_RDMA_WRITE, {4097});
  // Scatter/gather: 1-4 SGEs to send, to receive and as READ destinations.
  send_case(t, "rdma-send-sge-2x2", x, y, RNIC_WQE_OP_SEND, {100, 4000}, {2000, 3000});
  send_case(t, "rdma-send-sge-3x1", x, y, RNIC_WQE_OP_SEND_WITH_IMM, {1, 4095, 64}, {8192});
  send_case(t, "rdma-send-sge-4x3", x, y, RNIC_WQE_OP_SEND, {100, 4000, 1, 3000}, {2000, 5000, 1000});
  send_case(t, "rdma-send-sge-1x3-short", x, y, RNIC_WQE_OP_SEND, {3000}, {1000, 1000, 4000});
  send_case(t, "rdma-send-sge-4x4", x, y, RNIC_WQE_OP_SEND_WITH_IMM, {100, 4000, 1, 3000}, {3000, 1, 100, 4000});
  send_case(t, "rdma-send-sge-2x4-short", x, y, RNIC_WQE_OP_SEND, {4097, 900}, {64, 4096, 1, 2000});
  write_case(t, "rdma-write-sge-4", x, y, RNIC_WQE_OP_RDMA_WRITE, {1, 63, 4096, 4097});
  write_case(t, "rdma-write-imm-sge-3", x, y, RNIC_WQE_OP_RDMA_WRITE_WITH_IMM, {4000, 0, 200});
  read_case(t, "rdma-read-sge-2", x, y, {3000, 1096});
  read_case(t, "rdma-read-sge-3", x, y, {1, 4095, 4000});
  read_case(t, "rdma-read-sge-4", x, y, {4000, 1, 63, 4097});
  read_case(t, "rdma-read-sge-4-empty-sge", x, y, {700, 0, 1, 3000});
  // Inline: the bytes travel in the WQE (up to the QP's 128-byte max_inline).
  for (uint32_t n : {0u, 1u, 63u, 64u, 100u, 128u})
    send_case(t, "rdma-send-inline-" + std::to_string(n), x, y, RNIC_WQE_OP_SEND, {n}, {256}, true);
  send_case(t, "rdma-send-imm-inline-2sge", x, y, RNIC_WQE_OP_SEND_WITH_IMM, {20, 44}, {256}, true);
  for (uint32_t n : {1u, 64u, 128u})
    write_case(t, "rdma-write-inline-" + std::to_string(n), x, y, RNIC_WQE_OP_RDMA_WRITE, {n}, true);
  write_case(t, "rdma-write-imm-inline-3sge", x, y, RNIC_WQE_OP_RDMA_WRITE_WITH_IMM, {1, 2, 61}, true);
  // BlueFlame posts (bf_data, then bf_db): the firmware takes the WQE from the capture.
  auto bf_wqes = [&](RdmaPort *h) {
    uint8_t c[RNIC_CMD_ENTRY_SIZE] = {0};
    rnic_cmd_entry_set_opcode(c, RNIC_CMD_OP_QUERY_COUNTERS);
    return rnic_cmdq_exec(&h->q, c, nullptr) ? ~0u : rnic_cmd_query_counters_get_bf_wqes(c);
  };
  uint32_t bf0 = bf_wqes(t.a);
  write_case(t, "rdma-write-blueflame-1000", x, y, RNIC_WQE_OP_RDMA_WRITE, {1000}, false, true);
  write_case(t, "rdma-write-imm-blueflame-inline-100", x, y, RNIC_WQE_OP_RDMA_WRITE_WITH_IMM, {100}, true, true);
  write_case(t, "rdma-write-blueflame-4-sge", x, y, RNIC_WQE_OP_RDMA_WRITE, {1, 63, 4096, 4097}, false, true);
  uint32_t bf1 = bf_wqes(t.a);
  t.check(bf1 - bf0 == 3, "rdma-blueflame-wqes-from-capture", "bf_wqes " + std::to_string(bf1 - bf0));
  // Atomics on 8-byte aligned words.
  atomic_case(t, "rdma-cas-hit", x, y, RNIC_WQE_OP_ATOMIC_CMP_AND_SWP, 0x1122334455667788ull, 0x1122334455667788ull,
              0xA5A5A5A55A5A5A5Aull, 0xA5A5A5A55A5A5A5Aull);
  atomic_case(t, "rdma-cas-miss", x, y, RNIC_WQE_OP_ATOMIC_CMP_AND_SWP, 0x1122334455667788ull, 0x1122334455667789ull,
              0xA5A5A5A55A5A5A5Aull, 0x1122334455667788ull);
  atomic_case(t, "rdma-faa", x, y, RNIC_WQE_OP_ATOMIC_FETCH_AND_ADD, 0xFFFFFFFF00000001ull, 0x1000000FFull, 0,
              0x0000000000000100ull);
  atomic_case(t, "rdma-faa-back", y, x, RNIC_WQE_OP_ATOMIC_FETCH_AND_ADD, 41, 1, 0, 42);
  if (!g_faults) {  // a lost or reordered frame would cut the latency at another frame
    lat_split_case(t, x, y, false);
    lat_split_case(t, x, y, true);
  }
  t.check(t.quiet({x, y}), "rdma-ops-no-extra-cqes", "");
  reads_outstanding(t);
}


uint32_t counter(RdmaPort *h, uint32_t idx) { return rnic_rd32(&h->os, RNIC_COUNTER_BASE + 4 * idx); }

// One erroneous WR, then two good WRITEs in the same doorbell: the first completes with st,
// the other two with WR_FLUSH_ERR; the QP is in ERR; a WRITE and a receive posted afterwards are
// flushed too; nothing changed in the responder's window [win, win + win_len) (which holds the
// target and the good WRITEs' destinations) nor in the requester's [lwin, lwin + 16 KiB); and
// the witness pair still works.
// resp: the responder's QP state afterwards: 1 ERR (it NAK-ed the request), 0 unchanged (it never
// saw an error), -1 ERR too, for a READ failing its R_Key check in the responder's receive engine. With
// small_recv the responder first posts a 64-byte receive that the bad SEND overflows: it must
// complete with LOC_LEN_ERR.
void err_case(Ext &t, const std::string &name, RdmaQp *x, RdmaQp *y, rnicp_send_wr bad, uint32_t st, uint64_t win,
              uint32_t win_len, RdmaQp *wx, RdmaQp *wy, int resp, bool small_recv = false) {
  rnicp_recv_wr yr{t.next(), nullptr, 0};
  rnicp_sge ys{win, 64, t.bkey};
  if (small_recv) {
    yr.sg_list = &ys, yr.num_sge = 1;
    t.r.check(y->post_recv(yr) == 0, (name + "-post-recv").c_str());
    wait(sc_time(5, SC_US));  // the buffer reaches the receive engine first (else: RNR)
  }
  uint64_t lwin = t.abuf + 0x80000;
  auto rb = y->h->mem->read_vec(win, win_len), lb = x->h->mem->read_vec(lwin, 0x4000);
  bad.wr_id = t.next();
  bad.flags |= RNICP_WR_SIGNALED;
  rnicp_sge g{t.abuf, 256, t.akey};
  rnicp_send_wr good{};
  good.opcode = RNIC_WQE_OP_RDMA_WRITE;
  good.flags = RNICP_WR_SIGNALED;
  good.sg_list = &g;
  good.num_sge = 1;
  good.rkey = t.bkey;
  uint64_t ids[4] = {bad.wr_id, t.next(), t.next(), t.next()};
  int p0 = x->post_send_nodb(bad);
  good.wr_id = ids[1], good.remote_addr = win + win_len - 1024;
  int p1 = x->post_send_nodb(good);
  good.wr_id = ids[2], good.remote_addr = win + win_len - 512;
  int p2 = x->post_send_nodb(good);
  x->ring();
  rnicp_wc w[4] = {};
  int n = x->poll(w, 3, t.wait_t);
  bool ok = p0 > 0 && p1 > 0 && p2 > 0 && n == 3 && w[0].wr_id == ids[0] && w[0].status == st && w[0].qpn == x->qpn &&
            w[1].wr_id == ids[1] && w[1].status == RNIC_WC_STATUS_WR_FLUSH_ERR && w[2].wr_id == ids[2] &&
            w[2].status == RNIC_WC_STATUS_WR_FLUSH_ERR;
  t.r.check(ok, name.c_str(), "post %d/%d/%d cqes %d %s %s %s", p0, p1, p2, n, wcs(w[0]).c_str(), wcs(w[1]).c_str(),
            wcs(w[2]).c_str());
  int s = x->state();
  t.r.check(s == RNIC_QP_STATE_ERR, (name + "-qp-err").c_str(), "state %d", s);
  good.wr_id = ids[3], good.remote_addr = win;
  int p3 = x->post_send(good);
  n = x->poll(w, 1, sc_time(200, SC_US));
  t.r.check(p3 > 0 && n == 1 && w[0].wr_id == ids[3] && w[0].status == RNIC_WC_STATUS_WR_FLUSH_ERR,
            (name + "-later-flushed").c_str(), "post %d cqes %d %s", p3, n, wcs(w[0]).c_str());
  rnicp_sge rs{t.abuf + 0x80000, 64, t.akey};
  rnicp_recv_wr rwr{t.next(), &rs, 1};
  int pr = x->post_recv(rwr);
  n = x->poll(w, 1, sc_time(200, SC_US));
  t.r.check(pr == 0 && n == 1 && w[0].wr_id == rwr.wr_id && w[0].status == RNIC_WC_STATUS_WR_FLUSH_ERR &&
                w[0].opcode == RNIC_WC_OPCODE_RECV,
            (name + "-recv-flushed").c_str(), "post %d cqes %d %s", pr, n, n ? wcs(w[0]).c_str() : "");
  auto ra = y->h->mem->read_vec(win, win_len), la = x->h->mem->read_vec(lwin, 0x4000);
  size_t rd = 0, ld = 0;
  while (rd < ra.size() && ra[rd] == rb[rd]) rd++;
  while (ld < la.size() && la[ld] == lb[ld]) ld++;
  const char *fmt = "first changed byte: responder window +0x%zx of 0x%x, requester window +0x%zx";
  t.r.check(rd == ra.size() && ld == la.size(), (name + "-memory-untouched").c_str(), fmt, rd, win_len, ld);
  int ys_state = y->state();
  t.r.check(ys_state == (resp ? RNIC_QP_STATE_ERR : RNIC_QP_STATE_RTS),
            (name + (resp < 0 ? "-responder-qp-err" : "-responder-qp-state")).c_str(), "state %d", ys_state);
  if (small_recv) {
    rnicp_wc w2{};
    int n2 = y->poll(&w2, 1, sc_time(100, SC_US));
    t.r.check(n2 == 1 && w2.wr_id == yr.wr_id && w2.status == RNIC_WC_STATUS_LOC_LEN_ERR && w2.qpn == y->qpn,
              (name + "-responder-recv-len-err").c_str(), "cqes %d %s", n2, wcs(w2).c_str());
  }
  write_case(t, name + "-other-qp-works", wx, wy, RNIC_WQE_OP_RDMA_WRITE, {3000});
  t.r.check(t.quiet({x, y, wx, wy}), (name + "-no-extra-cqes").c_str());
  // One QP_FATAL per QP the NICs moved to ERR: the requester's with its CQE's status, the
  // responder's (when it stopped) with the status of its NAK's cause.
  const uint32_t REQ = RNIC_EQ_QP_SIDE_REQUESTER, RSP = RNIC_EQ_QP_SIDE_RESPONDER;
  if (resp)
    t.fatal_events(name, {{0, x->qpn, st, REQ}, {1, y->qpn, small_recv ? uint32_t(RNIC_WC_STATUS_LOC_LEN_ERR) : st, RSP}});
  else
    t.fatal_events(name, {{0, x->qpn, st, REQ}});
}

void errors(Ext &t) {
  RdmaQp *wx, *wy, *x, *y;
  if (!t.events_on() || !t.pair(wx, wy)) return;
  write_case(t, "rdma-err-witness-before", wx, wy, RNIC_WQE_OP_RDMA_WRITE, {3000});
  // Responder-side regions: a small MR with every right, MRs each missing one right, an MR in
  // another PD; each in its own 16 KiB window of bbuf (0xA0000..).
  uint64_t win[6];
  uint32_t key[6];
  const uint32_t acc[5] = {kAll, LW | RR | RA, LW | RW | RA, LW | RW | RR, kAll};
  uint32_t pd2 = 0;
  bool ok = rnic_cmd_alloc_pd(&t.b->q, 0, &pd2) == 0;
  for (int i = 0; i < 6; i++) {
    win[i] = t.bbuf + 0xA0000 + 0x4000u * i;
    t.fill(t.b, win[i], 0x4000);
    if (i < 5) ok = ok && rdma_reg_mr(t.b, win[i] + 0x1000, 0x1000, acc[i], &key[i], i == 4 ? pd2 : 0);
  }
  if (!t.r.check(ok, "rdma-err-setup")) return;
  rnicp_sge ls{t.abuf + 0x1000, 64, t.akey};
  rnicp_sge l8{t.abuf + 0x2000, 8, t.akey};
  rnicp_sge big{t.abuf + 0x3000, 200, t.akey};
  auto wr = [&](uint32_t op, uint64_t va, uint32_t rkey) {
    rnicp_send_wr w{};
    w.opcode = op;
    w.sg_list = op == RNIC_WQE_OP_ATOMIC_CMP_AND_SWP || op == RNIC_WQE_OP_ATOMIC_FETCH_AND_ADD ? &l8 : &ls;
    w.num_sge = 1;
    w.remote_addr = va;
    w.rkey = rkey;
    w.compare_add = 0, w.swap = 1;
    return w;
  };
  const uint32_t W = RNIC_WQE_OP_RDMA_WRITE, R = RNIC_WQE_OP_RDMA_READ, C = RNIC_WQE_OP_ATOMIC_CMP_AND_SWP,
                 F = RNIC_WQE_OP_ATOMIC_FETCH_AND_ADD;
  const uint32_t RAE = RNIC_WC_STATUS_REM_ACCESS_ERR;
  struct Case {
    const char *name;
    rnicp_send_wr w;
    uint32_t qp_access, status;
    int window, resp;
  } cases[] = {
      {"rdma-err-write-bad-rkey-variant", wr(W, win[0] + 0x1000, key[0] ^ 1), kAll, RAE, 0, 1},
      {"rdma-err-write-bad-rkey-index", wr(W, win[0] + 0x1000, (300u << 8) | 1), kAll, RAE, 0, 1},
      {"rdma-err-write-out-of-bounds", wr(W, win[0] + 0x2000 - 32, key[0]), kAll, RAE, 0, 1},
      {"rdma-err-write-before-start", wr(W, win[0] + 0x1000 - 8, key[0]), kAll, RAE, 0, 1},
      {"rdma-err-read-out-of-bounds", wr(R, win[0] + 0x2000 - 32, key[0]), kAll, RAE, 0, -1},
      {"rdma-err-read-bad-rkey", wr(R, win[0] + 0x1000, key[0] + 0x100), kAll, RAE, 0, -1},
      {"rdma-err-cas-out-of-bounds", wr(C, win[0] + 0x2000, key[0]), kAll, RAE, 0, 1},
      {"rdma-err-mr-no-remote-write", wr(W, win[1] + 0x1000, key[1]), kAll, RAE, 1, 1},
      {"rdma-err-mr-no-remote-read", wr(R, win[2] + 0x1000, key[2]), kAll, RAE, 2, -1},
      {"rdma-err-mr-no-remote-atomic", wr(F, win[3] + 0x1000, key[3]), kAll, RAE, 3, 1},
      {"rdma-err-mr-other-pd", wr(W, win[4] + 0x1000, key[4]), kAll, RAE, 4, 1},
      {"rdma-err-read-mr-other-pd", wr(R, win[4] + 0x1000, key[4]), kAll, RAE, 4, -1},
      {"rdma-err-qp-no-remote-write", wr(W, win[0] + 0x1000, key[0]), RR | RA, RAE, 0, 1},
      {"rdma-err-qp-no-remote-read", wr(R, win[0] + 0x1000, key[0]), RW | RA, RAE, 0, 1},
      {"rdma-err-qp-no-remote-atomic", wr(C, win[0] + 0x1000, key[0]), RW | RR, RAE, 0, 1},
      {"rdma-err-local-bad-lkey", wr(W, win[0] + 0x1000, key[0]), kAll, RNIC_WC_STATUS_LOC_PROT_ERR, 0, 0},
      {"rdma-err-send-longer-than-recv", wr(RNIC_WQE_OP_SEND, 0, 0), kAll, RNIC_WC_STATUS_REM_INV_REQ_ERR, 0, 1},
  };
  for (auto &c : cases) {
    RdmaConnOpts oy;
    oy.access = c.qp_access;
    if (!t.pair(x, y, RdmaConnOpts(), oy)) return;
    rnicp_sge bad_l{t.abuf + 0x1000, 64, t.akey + 0x100};
    if (c.status == RNIC_WC_STATUS_LOC_PROT_ERR) c.w.sg_list = &bad_l;
    // The window of the target, the good WRITEs go to the last KiB of window 5 (all rights, bkey).
    uint64_t w0 = win[c.window];
    uint32_t wl = uint32_t(win[5] + 0x4000 - w0);
    if (c.w.opcode == RNIC_WQE_OP_SEND) c.w.sg_list = &big;  // 200 bytes into a 64-byte buffer
    err_case(t, c.name, x, y, c.w, c.status, w0, wl, wx, wy, c.resp, c.w.opcode == RNIC_WQE_OP_SEND);
  }
}

// ibv_modify_qp of a live QP (IBTA RTS->RTS and SQD->RTS: access flags, min RNR timer) takes
// effect on the next request while the QP's PSN sequence, MSN and posted receive buffers carry on:
// a responder that drops REMOTE_WRITE answers the next WRITE with an access NAK, READs still work,
// and one that gains it accepts WRITEs; no PSN sequence error on the way.
void modify_live(Ext &t) {
  RdmaQp *wx, *wy, *x, *y;
  if (!t.events_on() || !t.pair(wx, wy)) return;
  auto ooo = [&]() { return rnic_rd32(&t.b->os, RNIC_COUNTER_BASE + 4 * RNIC_CNT_RX_PSN_OOO); };
  uint32_t ooo0 = ooo();
  rnic_qp_attr a{};
  // Drop REMOTE_WRITE in RTS (with a new RNR timer), after traffic moved the PSNs on; a receive
  // posted before the modify must still be there after it.
  if (!t.pair(x, y)) return;
  write_case(t, "rdma-modify-drop-write-before", x, y, RNIC_WQE_OP_RDMA_WRITE, {3000});
  read_case(t, "rdma-modify-drop-read-before", x, y, {5000});
  std::vector<rnicp_sge> ss, rs;
  std::vector<uint8_t> msg = make_sges(t, t.a, t.abuf + 0x20000, t.akey, {700}, ss);
  make_sges(t, t.b, t.bbuf + 0x80000, t.bkey, {1024}, rs);
  auto rbefore = snapshot(t.b, rs);
  rnicp_recv_wr rwr{t.next(), rs.data(), 1};
  int rrc = y->post_recv(rwr);
  wait(sc_time(5, SC_US));  // the buffer reaches the receive engine before the modify
  a.access = LW | RR | RA;
  a.min_rnr_timer = 14;
  int rc = y->modify(1u << RNIC_QP_ATTR_ACCESS_FLAGS | 1u << RNIC_QP_ATTR_MIN_RNR_TIMER, a);
  t.check(rc == 0 && y->state() == RNIC_QP_STATE_RTS, "rdma-modify-rts-to-rts-drop-write", "rc " + std::to_string(rc));
  read_case(t, "rdma-modify-drop-read-after", x, y, {3000, 100});
  {
    rnicp_send_wr wr{};
    wr.wr_id = t.next();
    wr.opcode = RNIC_WQE_OP_SEND;
    wr.flags = RNICP_WR_SIGNALED;
    wr.sg_list = ss.data();
    wr.num_sge = 1;
    int src = x->post_send(wr);
    rnicp_wc wx{}, wy{};
    int nx = x->poll(&wx, 1, t.wait_t), ny = y->poll(&wy, 1, t.wait_t);
    uint64_t rnr = rnic_rd32(&t.b->os, RNIC_COUNTER_BASE + 4 * RNIC_CNT_RX_RNR_SENT);
    bool data = snapshot(t.b, rs) == expect_scatter(rbefore, rs, msg);
    t.r.check(rrc == 0 && src > 0 && nx == 1 && ny == 1 && is(wx, wr.wr_id, 0, RNIC_WC_OPCODE_SEND, 700) &&
                  is(wy, rwr.wr_id, 0, RNIC_WC_OPCODE_RECV, 700) && data && rnr == 0,
              "rdma-modify-drop-receive-posted-before-kept", "post %d/%d cqes %d/%d %s %s data %d rnr-sent %llu", rrc,
              src, nx, ny, wcs(wx).c_str(), wcs(wy).c_str(), int(data), (unsigned long long)rnr);
  }
  t.check(ooo() == ooo0, "rdma-modify-drop-no-psn-sequence-error", "psn-ooo " + std::to_string(ooo() - ooo0));
  uint64_t win = t.bbuf + 0xC0000;
  t.fill(t.b, win, 0x4000);
  rnicp_sge ls{t.abuf + 0x1000, 64, t.akey};
  rnicp_send_wr bad{};
  bad.opcode = RNIC_WQE_OP_RDMA_WRITE;
  bad.sg_list = &ls;
  bad.num_sge = 1;
  bad.remote_addr = win + 0x100;
  bad.rkey = t.bkey;
  err_case(t, "rdma-modify-dropped-write-rem-access-err", x, y, bad, RNIC_WC_STATUS_REM_ACCESS_ERR, win, 0x4000, wx,
           wy, 1);

  // Gain REMOTE_WRITE: in RTS, and through SQD -> RTS.
  for (int via_sqd = 0; via_sqd < 2; via_sqd++) {
    std::string n = via_sqd ? "rdma-modify-sqd-to-rts-grant-write" : "rdma-modify-rts-to-rts-grant-write";
    RdmaConnOpts oy;
    oy.access = LW | RR;
    if (!t.pair(x, y, RdmaConnOpts(), oy)) return;
    read_case(t, n + "-read-before", x, y, {2000});
    send_case(t, n + "-send-before", x, y, RNIC_WQE_OP_SEND, {300}, {512});
    ooo0 = ooo();
    rc = 0;
    if (via_sqd) {
      a = rnic_qp_attr{};
      a.state = RNIC_QP_STATE_SQD;
      rc = y->modify(1u << RNIC_QP_ATTR_STATE, a);
      int s = y->state();
      t.check(rc == 0 && s == RNIC_QP_STATE_SQD, n + "-to-sqd", "rc " + std::to_string(rc) + " state " + std::to_string(s));
    }
    a = rnic_qp_attr{};
    a.state = RNIC_QP_STATE_RTS;
    a.access = kAll;
    rc = y->modify((via_sqd ? 1u << RNIC_QP_ATTR_STATE : 0u) | 1u << RNIC_QP_ATTR_ACCESS_FLAGS, a);
    t.check(rc == 0 && y->state() == RNIC_QP_STATE_RTS, n, "rc " + std::to_string(rc));
    write_case(t, n + "-write-after", x, y, RNIC_WQE_OP_RDMA_WRITE, {4000});
    write_case(t, n + "-write-imm-after", x, y, RNIC_WQE_OP_RDMA_WRITE_WITH_IMM, {100});
    read_case(t, n + "-read-after", x, y, {1500});
    send_case(t, n + "-send-after", x, y, RNIC_WQE_OP_SEND, {64}, {64});
    t.check(ooo() == ooo0, n + "-no-psn-sequence-error", "psn-ooo " + std::to_string(ooo() - ooo0));
    t.check(t.quiet({x, y}), n + "-no-extra-cqes", "");
  }
  t.fatal_events("rdma-modify-only-the-dropped-write-failed", {});
}

// y posts no receive buffer: x's SEND is RNR-NAKed until y posts one (rnr_retry 7: forever).
void rnr(Ext &t) {
  RdmaQp *x, *y;
  if (!t.events_on() || !t.pair(x, y)) return;
  for (uint32_t op : {RNIC_WQE_OP_SEND, RNIC_WQE_OP_RDMA_WRITE_WITH_IMM}) {
    bool send = op == RNIC_WQE_OP_SEND;
    std::string name = send ? "rdma-rnr-send-then-success" : "rdma-rnr-write-imm-then-success";
    uint32_t len = 3000, rnr0 = counter(t.b, RNIC_CNT_RX_RNR_SENT);
    auto msg = t.rnd(len);
    t.a->mem->write(t.abuf, msg.data(), len);
    uint64_t dst = t.bbuf + 0x10000;
    t.fill(t.b, dst, len + 64);
    auto guard = t.b->mem->read_vec(dst + len, 64);
    rnicp_sge s{t.abuf, len, t.akey};
    rnicp_send_wr wr{};
    wr.wr_id = t.next();
    wr.opcode = op;
    wr.imm_data = 0xC0FFEE01;
    wr.flags = RNICP_WR_SIGNALED;
    wr.sg_list = &s;
    wr.num_sge = 1;
    wr.remote_addr = dst;
    wr.rkey = t.bkey;
    int ps = x->post_send(wr);
    rnicp_wc wx{}, wy{};
    int early = x->poll(&wx, 1, sc_time(200, SC_US));
    uint32_t naks = counter(t.b, RNIC_CNT_RX_RNR_SENT) - rnr0;
    t.r.check(ps > 0 && early == 0 && naks >= 2, (name + "-waits").c_str(), "post %d early cqes %d %s RNR NAKs %u", ps,
              early, early ? wcs(wx).c_str() : "", naks);
    rnicp_sge rs{send ? dst : t.bbuf + 0x20000, 4096, t.bkey};
    rnicp_recv_wr rwr{t.next(), &rs, 1};
    int pr = y->post_recv(rwr);
    int nx = x->poll(&wx, 1, t.wait_t), ny = y->poll(&wy, 1, t.wait_t);
    bool data = t.b->mem->read_vec(dst, len) == msg && t.b->mem->read_vec(dst + len, 64) == guard;
    t.r.check(pr == 0 && nx == 1 && ny == 1 &&
                  is(wx, wr.wr_id, 0, send ? RNIC_WC_OPCODE_SEND : RNIC_WC_OPCODE_RDMA_WRITE, len) &&
                  is(wy, rwr.wr_id, 0, send ? RNIC_WC_OPCODE_RECV : RNIC_WC_OPCODE_RECV_RDMA_WITH_IMM, len) &&
                  (send || wy.imm_data == wr.imm_data) && data,
              name.c_str(), "cqes %d/%d %s %s data %d", nx, ny, wcs(wx).c_str(), wcs(wy).c_str(), int(data));
  }
  t.r.check(t.quiet({x, y}), "rdma-rnr-no-extra-cqes");
  t.fatal_events("rdma-rnr-then-success", {});  // RNR NAKs that end in success move no QP to ERR

  // Finite RNR retries: the first NAK and three retries, then RNR_RETRY_EXC_ERR.
  RdmaConnOpts o;
  o.rnr_retry = 3;
  if (!t.pair(x, y, o)) return;
  {
    uint32_t rnr0 = counter(t.b, RNIC_CNT_RX_RNR_SENT);
    rnicp_sge s{t.abuf, 100, t.akey};
    rnicp_send_wr wr{};
    wr.wr_id = t.next();
    wr.opcode = RNIC_WQE_OP_SEND;
    wr.flags = RNICP_WR_SIGNALED;
    wr.sg_list = &s;
    wr.num_sge = 1;
    int p0 = x->post_send_nodb(wr);
    uint64_t id0 = wr.wr_id;
    wr.wr_id = t.next();
    int p1 = x->post_send_nodb(wr);
    x->ring();
    rnicp_wc w[2] = {};
    int n = x->poll(w, 2, t.wait_t);
    uint32_t naks = counter(t.b, RNIC_CNT_RX_RNR_SENT) - rnr0;
    t.r.check(p0 > 0 && p1 > 0 && n == 2 && w[0].wr_id == id0 && w[0].status == RNIC_WC_STATUS_RNR_RETRY_EXC_ERR &&
                  w[1].wr_id == wr.wr_id && w[1].status == RNIC_WC_STATUS_WR_FLUSH_ERR && naks == 4,
              "rdma-rnr-retry-exceeded", "cqes %d %s %s RNR NAKs %u (want 4)", n, wcs(w[0]).c_str(), wcs(w[1]).c_str(),
              naks);
    int st = x->state();
    t.r.check(st == RNIC_QP_STATE_ERR, "rdma-rnr-retry-exceeded-qp-err", "state %d", st);
    t.r.check(t.quiet({x, y}), "rdma-rnr-retry-exceeded-no-extra-cqes");
    t.fatal_events("rdma-rnr-retry-exceeded", {{0, x->qpn, RNIC_WC_STATUS_RNR_RETRY_EXC_ERR, RNIC_EQ_QP_SIDE_REQUESTER}});
  }

  // The peer disappears (destroyed, or moved to ERR): requests go unanswered, the local ACK
  // timeout resends them retry_cnt times, then RETRY_EXC_ERR.
  for (int destroy = 1; destroy >= 0; destroy--) {
    std::string name = destroy ? "rdma-retry-exceeded-peer-destroyed" : "rdma-retry-exceeded-peer-err";
    RdmaConnOpts ot;
    ot.timeout = 5;  // 131 us
    ot.retry_cnt = 2;
    if (!t.pair(x, y, ot)) return;
    write_case(t, name + "-before", x, y, RNIC_WQE_OP_RDMA_WRITE, {100});
    bool ok = destroy ? rnic_cmd_destroy_qp(&t.b->q, y->qpn) == 0 : y->set_state(RNIC_QP_STATE_ERR);
    uint32_t d0 = counter(t.b, RNIC_CNT_RX_DROP_BAD_QP);
    uint64_t dst = t.bbuf + 0x30000;
    t.fill(t.b, dst, 256);
    auto before = t.b->mem->read_vec(dst, 256);
    rnicp_sge s{t.abuf, 200, t.akey};
    rnicp_send_wr wr{};
    wr.wr_id = t.next();
    wr.opcode = RNIC_WQE_OP_RDMA_WRITE;
    wr.flags = RNICP_WR_SIGNALED;
    wr.sg_list = &s;
    wr.num_sge = 1;
    wr.remote_addr = dst;
    wr.rkey = t.bkey;
    int p = x->post_send(wr);
    rnicp_wc w{};
    int n = x->poll(&w, 1, t.wait_t);
    uint32_t drops = counter(t.b, RNIC_CNT_RX_DROP_BAD_QP) - d0;
    t.r.check(ok && p > 0 && n == 1 && w.wr_id == wr.wr_id && w.status == RNIC_WC_STATUS_RETRY_EXC_ERR && drops == 3 &&
                  t.b->mem->read_vec(dst, 256) == before,
              name.c_str(), "peer %d post %d cqes %d %s dropped at the peer %u (want 3)", int(ok), p, n,
              wcs(w).c_str(), drops);
    int st = x->state();
    t.r.check(st == RNIC_QP_STATE_ERR, (name + "-qp-err").c_str(), "state %d", st);
    t.r.check(t.quiet({x}), (name + "-no-extra-cqes").c_str());
    // the peer's move to ERR was the host's (no event); x's was the NIC's
    t.fatal_events(name, {{0, x->qpn, RNIC_WC_STATUS_RETRY_EXC_ERR, RNIC_EQ_QP_SIDE_REQUESTER}});
  }
}

// Path MTU 256 and 1024: multi-packet WRITE, SEND, WRITE_IMM and READ.
void mtu(Ext &t) {
  for (uint32_t code : {1u, 3u}) {
    uint32_t m = 128u << code;
    RdmaQp *x, *y;
    RdmaConnOpts o;
    o.path_mtu = code;
    if (!t.pair(x, y, o, o)) return;
    std::string p = "rdma-mtu" + std::to_string(m) + "-";
    // Long bursts at these MTUs outrun the receive path (about 30 cycles per packet against 7-22
    // of wire time): they pass because the link's flow control pauses the sender.
    for (uint32_t n : {1u, m - 1, m, m + 1, 3 * m + 5, 8 * m, 16384u})
      write_case(t, p + "write-" + std::to_string(n), x, y, RNIC_WQE_OP_RDMA_WRITE, {n});
    write_case(t, p + "write-sge-3", x, y, RNIC_WQE_OP_RDMA_WRITE, {m / 2, m + 3, 2 * m});
    for (uint32_t n : {1u, m, m + 1, 4 * m + 3})
      send_case(t, p + "send-" + std::to_string(n), x, y, RNIC_WQE_OP_SEND, {n}, {8192});
    send_case(t, p + "send-16384", x, y, RNIC_WQE_OP_SEND, {16384}, {16384});
    send_case(t, p + "send-imm-sge-2x3", x, y, RNIC_WQE_OP_SEND_WITH_IMM, {m + 7, 3 * m}, {m, m / 2, 4 * m});
    write_case(t, p + "write-imm-" + std::to_string(2 * m), x, y, RNIC_WQE_OP_RDMA_WRITE_WITH_IMM, {2 * m});
    for (uint32_t n : {1u, m, m + 1, 2 * m, 2 * m + 1, 8 * m})
      read_case(t, p + "read-" + std::to_string(n), x, y, {n});
    // 1024 packets either way: 256 KiB at MTU 256, 1 MiB at MTU 1024; on a clean link only (with
    // 5 % loss about 50 packets are lost and go-back-N resends the rest after each: too slow)
    uint32_t big = m * 1024;
    if (!g_faults) write_case(t, p + "write-" + std::to_string(big), x, y, RNIC_WQE_OP_RDMA_WRITE, {big});
    t.r.check(t.quiet({x, y}), (p + "no-extra-cqes").c_str());
  }
}

// 64 QP pairs, traffic interleaved round robin: per round and QP, nic0 WRITEs and READs, nic1
// SENDs back into a posted buffer; every CQ checked in order, every destination byte for byte.
void many_qps(Ext &t) {
  const int N = g_qps;
  auto pace = [] {
    if (g_pace_ns) wait(sc_time(g_pace_ns, SC_NS));
  };
  constexpr int kSlot = 0x4000;
  std::vector<RdmaQp *> xs(N), ys(N);
  const uint32_t bytes = 4u << 20;  // 2 MiB pages: a short page list
  uint64_t am = t.a->mem->alloc(bytes, 1u << 21), bm = t.b->mem->alloc(bytes, 1u << 21);
  uint32_t ak = 0, bk = 0;
  bool ok = rdma_reg_mr(t.a, am, bytes, kAll, &ak, 0, 21) && rdma_reg_mr(t.b, bm, bytes, kAll, &bk, 0, 21);
  int made = 0;
  for (; made < N && ok; made++) ok = t.pair(xs[made], ys[made]);
  if (!t.r.check(ok, "rdma-qps-64-connect", "QP pair %d failed %s%s", made - 1, t.a->err.c_str(), t.b->err.c_str())) return;
  for (int round = 0; round < 3; round++) {
    // Slot layout per QP i: [i] WRITE source/READ destination (nic0) and WRITE destination /
    // READ source (nic1), [N + i] SEND source (nic1) / receive buffer (nic0).
    struct Exp {
      std::vector<uint8_t> wmsg, rmsg, smsg;
      uint32_t wlen, rlen, slen;
      uint64_t wid, rid, sid, rcv_id;
    };
    std::vector<Exp> e(N);
    int bad_post = 0;
    for (int i = 0; i < N; i++) {  // receive buffers first, so no RNR
      Exp &x = e[i];
      x.rcv_id = t.next();
      rnicp_sge rs{am + uint64_t(N + i) * kSlot, kSlot / 2, ak};
      t.a->mem->fill(rs.addr, 0xEE, kSlot);
      rnicp_recv_wr rwr{x.rcv_id, &rs, 1};
      bad_post += xs[i]->post_recv(rwr) != 0;
      pace();
    }
    for (int i = 0; i < N; i++) {
      Exp &x = e[i];
      x.wlen = uint32_t((i * 613 + round * 1777) % 6000);
      x.rlen = uint32_t(1 + (i * 211 + round * 3001) % 4096);
      x.slen = uint32_t(1 + (i * 97 + round * 401) % 2000);
      x.wmsg = t.rnd(x.wlen), x.rmsg = t.rnd(x.rlen), x.smsg = t.rnd(x.slen);
      uint64_t aslot = am + uint64_t(i) * kSlot, bslot = bm + uint64_t(i) * kSlot;
      t.a->mem->write(aslot, x.wmsg.data(), x.wlen);
      t.a->mem->fill(aslot + 0x2000, 0x11, 0x2000);  // READ lands at +0x2000
      t.b->mem->fill(bslot, 0x22, kSlot);
      t.b->mem->write(bslot + 0x2000, x.rmsg.data(), x.rlen);
      t.b->mem->write(bm + uint64_t(N + i) * kSlot, x.smsg.data(), x.slen);
    }
    for (int i = 0; i < N; i++) {  // round robin: one WQE per QP at a time, each rung at once
      Exp &x = e[i];
      uint64_t aslot = am + uint64_t(i) * kSlot, bslot = bm + uint64_t(i) * kSlot;
      rnicp_sge s{aslot, x.wlen, ak};
      rnicp_send_wr wr{};
      wr.wr_id = x.wid = t.next();
      wr.opcode = RNIC_WQE_OP_RDMA_WRITE;
      wr.flags = RNICP_WR_SIGNALED;
      wr.sg_list = &s;
      wr.num_sge = x.wlen ? 1 : 0;
      wr.remote_addr = bslot;
      wr.rkey = bk;
      bad_post += xs[i]->post_send(wr) <= 0;
      pace();
    }
    for (int i = 0; i < N; i++) {
      Exp &x = e[i];
      rnicp_sge s{bm + uint64_t(N + i) * kSlot, x.slen, bk};
      rnicp_send_wr wr{};
      wr.wr_id = x.sid = t.next();
      wr.opcode = RNIC_WQE_OP_SEND;
      wr.flags = RNICP_WR_SIGNALED;
      wr.sg_list = &s;
      wr.num_sge = 1;
      bad_post += ys[i]->post_send(wr) <= 0;
      pace();
    }
    for (int i = 0; i < N && g_qps_read; i++) {
      Exp &x = e[i];
      uint64_t aslot = am + uint64_t(i) * kSlot, bslot = bm + uint64_t(i) * kSlot;
      rnicp_sge s{aslot + 0x2000, x.rlen, ak};
      rnicp_send_wr wr{};
      wr.wr_id = x.rid = t.next();
      wr.opcode = RNIC_WQE_OP_RDMA_READ;
      wr.flags = RNICP_WR_SIGNALED;
      wr.sg_list = &s;
      wr.num_sge = 1;
      wr.remote_addr = bslot + 0x2000;
      wr.rkey = bk;
      bad_post += xs[i]->post_send(wr) <= 0;
      pace();
    }
    // Collect from every CQ until each has its completions or the round's deadline passes.
    const int nsend = g_qps_read ? 2 : 1;
    std::vector<std::array<rnicp_wc, 4>> ca(N), cb(N);
    std::vector<int> nas(N, 0), nbs(N, 0);
    sc_time end = sc_time_stamp() + sc_time(20, SC_MS);
    for (bool all = false; !all && sc_time_stamp() < end;) {
      all = true;
      for (int i = 0; i < N; i++) {
        nas[i] += xs[i]->poll_now(ca[i].data() + nas[i], 4 - nas[i]);
        nbs[i] += ys[i]->poll_now(cb[i].data() + nbs[i], 4 - nbs[i]);
        all = all && nas[i] >= nsend + 1 && nbs[i] >= 1;
      }
      if (!all) wait(sc_time(1, SC_US));
    }
    std::string first_bad;
    int bad = 0;
    for (int i = 0; i < N; i++) {
      Exp &x = e[i];
      rnicp_wc *wa = ca[i].data(), wb = cb[i][0];
      int na = nas[i], nb = nbs[i];
      // nic0's CQ: the receive completes whenever the SEND arrives; the WRITE then the READ in order.
      std::vector<rnicp_wc> sends, recvs;
      for (int k = 0; k < na; k++) (rnicp_wc_is_recv(&wa[k]) ? recvs : sends).push_back(wa[k]);
      uint64_t aslot = am + uint64_t(i) * kSlot, bslot = bm + uint64_t(i) * kSlot;
      bool good = na == nsend + 1 && nb == 1 && int(sends.size()) == nsend && recvs.size() == 1 &&
                  is(sends[0], x.wid, 0, RNIC_WC_OPCODE_RDMA_WRITE, x.wlen) &&
                  (!g_qps_read || is(sends[1], x.rid, 0, RNIC_WC_OPCODE_RDMA_READ, x.rlen)) &&
                  is(recvs[0], x.rcv_id, 0, RNIC_WC_OPCODE_RECV, x.slen) && recvs[0].qpn == xs[i]->qpn &&
                  is(wb, x.sid, 0, RNIC_WC_OPCODE_SEND, x.slen) && sends[0].qpn == xs[i]->qpn &&
                  wb.qpn == ys[i]->qpn;
      bool data = t.b->mem->read_vec(bslot, x.wlen) == x.wmsg &&
                  t.b->mem->read_vec(bslot + x.wlen, 0x2000 - x.wlen) == std::vector<uint8_t>(0x2000 - x.wlen, 0x22) &&
                  (!g_qps_read || (t.a->mem->read_vec(aslot + 0x2000, x.rlen) == x.rmsg &&
                                   t.a->mem->read_vec(aslot + 0x2000 + x.rlen, 64) == std::vector<uint8_t>(64, 0x11))) &&
                  t.a->mem->read_vec(am + uint64_t(N + i) * kSlot, x.slen) == x.smsg &&
                  t.a->mem->read_vec(am + uint64_t(N + i) * kSlot + x.slen, 64) == std::vector<uint8_t>(64, 0xEE);
      if (!(good && data) && !bad++) {
        char s[400];
        std::snprintf(s, sizeof s, "qp %d: cqes %d/%d %s %s %s / %s data %d", i, na, nb, na > 0 ? wcs(wa[0]).c_str() : "",
                      na > 1 ? wcs(wa[1]).c_str() : "", na > 2 ? wcs(wa[2]).c_str() : "", wcs(wb).c_str(), int(data));
        first_bad = s;
      }
    }
    t.r.check(bad == 0 && bad_post == 0, ("rdma-qps-64-round-" + std::to_string(round)).c_str(),
              "%d of %d QPs wrong, %d posts refused; first: %s", bad, N, bad_post, first_bad.c_str());
  }
  std::vector<RdmaQp *> all(xs);
  all.insert(all.end(), ys.begin(), ys.end());
  wait(sc_time(30, SC_US));
  rnicp_wc w[4];
  int extra = 0;
  for (RdmaQp *q : all) extra += q->poll_now(w, 4);
  t.r.check(extra == 0, "rdma-qps-64-no-extra-cqes", "%d extra", extra);
}

// The whole QP range of the configuration (1022 QPs per NIC in the 100g core, QPNs 2..1023):
// QUERY_DEVICE reports it, every QP is created (one more is refused), the pairs that carry
// traffic (or, with --range-all, every pair) are connected RC, then WRITE, SEND and READ run on
// the lowest, the highest and random QPs in between (--range-sel N in all), completions through
// one shared CQ per side (the firmware has 127 CQs), data byte for byte.
void qp_range(Ext &t) {
  rnic_device_attr da{}, db{};
  int rca = rnic_cmd_query_device(&t.a->q, &da), rcb = rnic_cmd_query_device(&t.b->q, &db);
  const int N = int(da.max_qp);
  std::printf("INFO qp-range: max_qp %u / %u\n", da.max_qp, db.max_qp);
  if (!t.r.check(rca == 0 && rcb == 0 && N >= 1022 && db.max_qp == da.max_qp, "rdma-qp-range-query-device",
                 "rc %d/%d max_qp %u/%u (the 100g core has 1024 QPs, QPNs 2..1023)", rca, rcb, da.max_qp, db.max_qp))
    return;
  std::vector<std::unique_ptr<RdmaQp>> xs, ys;
  // both NICs' QPs created at once (one thread each): half the simulated time
  bool side_ok[2] = {true, true};
  sc_event side_done[2];
  for (int side = 0; side < 2; side++)
    sc_spawn(
        [&, side] {
          auto &v = side ? ys : xs;
          RdmaPort *h = side ? t.b : t.a;
          for (int i = 0; i < N && side_ok[side]; i++) {
            v.emplace_back(new RdmaQp());
            // the first QP's CQ (128 entries, one host page) is every QP's: 3 x 32 CQEs at most
            side_ok[side] = v[i]->create(h, 0, RNIC_QP_TYPE_RC, i ? v[0]->cqn : 0);
            if (!side_ok[side]) std::printf("INFO qp-range: side %d QP %d: %s\n", side, i, v[i]->err.c_str());
          }
          side_done[side].notify();
        },
        sc_gen_unique_name("qp_range_create"));
  wait(side_done[0] & side_done[1]);
  bool ok = side_ok[0] && side_ok[1];
  bool span = ok && xs.front()->qpn == FW_FIRST_QPN_SYS && xs.back()->qpn == uint32_t(N + 1) &&
              ys.front()->qpn == FW_FIRST_QPN_SYS && ys.back()->qpn == uint32_t(N + 1);
  if (!t.r.check(span, "rdma-qp-range-create-all", "%zu/%zu QPs created, QPNs %u..%u", xs.size(), ys.size(),
                 xs.empty() ? 0 : xs.front()->qpn, xs.empty() ? 0 : xs.back()->qpn))
    return;
  std::printf("INFO qp-range: %d QPs per NIC created by %.1f us\n", N, sc_time_stamp().to_seconds() * 1e6);
  RdmaQp extra;
  t.r.check(!extra.create(t.a, 0, RNIC_QP_TYPE_RC, xs[0]->cqn), "rdma-qp-range-one-more-refused", "QP %u created",
            extra.qpn);
  // lowest, highest, then random distinct QPs in between
  std::vector<int> sel = {0, N - 1};
  while (int(sel.size()) < std::min(g_range_sel, N)) {
    int i = int(t.next() % uint64_t(N));
    if (std::find(sel.begin(), sel.end(), i) == sel.end()) sel.push_back(i);
  }
  const int S = int(sel.size());
  // every pair (--range-all), or the pairs that carry traffic
  std::vector<int> conn = sel;
  if (g_range_all) {
    conn.clear();
    for (int i = 0; i < N; i++) conn.push_back(i);
  }
  int made = 0;
  for (; made < int(conn.size()) && ok; made++) {
    uint32_t px = uint32_t(t.next() & 0xFFFFFF), py = uint32_t(t.next() & 0xFFFFFF);
    RdmaQp &qx = *xs[conn[made]], &qy = *ys[conn[made]];
    ok = qx.connect(qy, px, py) && qy.connect(qx, py, px);
  }
  if (!t.r.check(ok, "rdma-qp-range-connect", "pair %d: %s%s", made - 1, xs[conn[made - 1]]->err.c_str(),
                 ys[conn[made - 1]]->err.c_str()))
    return;
  std::printf("INFO qp-range: %zu pairs connected by %.1f us\n", conn.size(), sc_time_stamp().to_seconds() * 1e6);
  constexpr int kSlot = 0x4000;
  const uint32_t bytes = 4u << 20;
  uint64_t am = t.a->mem->alloc(bytes, 1u << 21), bm = t.b->mem->alloc(bytes, 1u << 21);
  uint32_t ak = 0, bk = 0;
  ok = rdma_reg_mr(t.a, am, bytes, kAll, &ak, 0, 21) && rdma_reg_mr(t.b, bm, bytes, kAll, &bk, 0, 21);
  if (!t.r.check(ok, "rdma-qp-range-reg-mr", "%s%s", t.a->err.c_str(), t.b->err.c_str())) return;
  struct Exp {
    std::vector<uint8_t> wmsg, rmsg, smsg;
    uint64_t wid, rid, sid, rcv_id;
  };
  std::vector<Exp> e(S);
  int bad_post = 0;
  auto pace = [] { wait(sc_time(500, SC_NS)); };
  for (int k = 0; k < S; k++) {  // slots: [k] WRITE/READ, [S + k] SEND
    Exp &x = e[k];
    x.wmsg = t.rnd(1 + t.next() % 5000), x.rmsg = t.rnd(1 + t.next() % 4096), x.smsg = t.rnd(1 + t.next() % 2000);
    uint64_t aslot = am + uint64_t(k) * kSlot, bslot = bm + uint64_t(k) * kSlot;
    t.a->mem->write(aslot, x.wmsg.data(), x.wmsg.size());
    t.a->mem->fill(aslot + 0x2000, 0x11, 0x2000);
    t.b->mem->fill(bslot, 0x22, 0x2000);
    t.b->mem->write(bslot + 0x2000, x.rmsg.data(), x.rmsg.size());
    t.b->mem->write(bm + uint64_t(S + k) * kSlot, x.smsg.data(), x.smsg.size());
    t.a->mem->fill(am + uint64_t(S + k) * kSlot, 0xEE, kSlot);
    RdmaQp &qa = *xs[sel[k]], &qb = *ys[sel[k]];
    rnicp_sge rs{am + uint64_t(S + k) * kSlot, kSlot / 2, ak};
    rnicp_recv_wr rwr{x.rcv_id = t.next(), &rs, 1};
    bad_post += qa.post_recv(rwr) != 0;
    pace();
    rnicp_sge ws{aslot, uint32_t(x.wmsg.size()), ak};
    rnicp_send_wr wr{};
    wr.wr_id = x.wid = t.next();
    wr.opcode = RNIC_WQE_OP_RDMA_WRITE;
    wr.flags = RNICP_WR_SIGNALED;
    wr.sg_list = &ws;
    wr.num_sge = 1;
    wr.remote_addr = bslot;
    wr.rkey = bk;
    bad_post += qa.post_send(wr) <= 0;
    pace();
    rnicp_sge rds{aslot + 0x2000, uint32_t(x.rmsg.size()), ak};
    wr.wr_id = x.rid = t.next();
    wr.opcode = RNIC_WQE_OP_RDMA_READ;
    wr.sg_list = &rds;
    wr.remote_addr = bslot + 0x2000;
    bad_post += qa.post_send(wr) <= 0;
    pace();
    rnicp_sge ss{bm + uint64_t(S + k) * kSlot, uint32_t(x.smsg.size()), bk};
    rnicp_send_wr sw{};
    sw.wr_id = x.sid = t.next();
    sw.opcode = RNIC_WQE_OP_SEND;
    sw.flags = RNICP_WR_SIGNALED;
    sw.sg_list = &ss;
    sw.num_sge = 1;
    bad_post += qb.post_send(sw) <= 0;
    pace();
  }
  // Both shared CQs until every selected QP has its completions (3 on nic0, 1 on nic1).
  std::map<uint32_t, std::vector<rnicp_wc>> got_a, got_b;
  auto drain = [&](std::vector<std::unique_ptr<RdmaQp>> &v, std::map<uint32_t, std::vector<rnicp_wc>> &got) {
    rnicp_wc w[64];
    int n = rnicp_cq_poll(&v[0]->cq, 64, w);
    for (int i = 0; i < n; i++) {
      got[w[i].qpn].push_back(w[i]);
      uint32_t idx = w[i].qpn - FW_FIRST_QPN_SYS;
      if (idx < v.size()) {
        if (rnicp_wc_is_recv(&w[i]))
          rnicp_rq_complete(&v[idx]->rq, w[i].wqe_index);
        else
          rnicp_sq_complete(&v[idx]->sq, w[i].wqe_index);
      }
    }
    return n;
  };
  sc_time end = sc_time_stamp() + sc_time(20, SC_MS);
  int total_a = 0, total_b = 0;
  while ((total_a < 3 * S || total_b < S) && sc_time_stamp() < end) {
    total_a += drain(xs, got_a), total_b += drain(ys, got_b);
    if (total_a < 3 * S || total_b < S) wait(sc_time(1, SC_US));
  }
  int bad = 0;
  std::string first_bad;
  for (int k = 0; k < S; k++) {
    Exp &x = e[k];
    uint32_t qpn = xs[sel[k]]->qpn;
    auto &ga = got_a[qpn], &gb = got_b[ys[sel[k]]->qpn];
    std::vector<rnicp_wc> sends, recvs;
    for (auto &w : ga) (rnicp_wc_is_recv(&w) ? recvs : sends).push_back(w);
    uint64_t aslot = am + uint64_t(k) * kSlot, bslot = bm + uint64_t(k) * kSlot;
    uint32_t wl = uint32_t(x.wmsg.size()), rl = uint32_t(x.rmsg.size()), sl = uint32_t(x.smsg.size());
    bool good = ga.size() == 3 && gb.size() == 1 && sends.size() == 2 && recvs.size() == 1 &&
                is(sends[0], x.wid, 0, RNIC_WC_OPCODE_RDMA_WRITE, wl) && is(sends[1], x.rid, 0, RNIC_WC_OPCODE_RDMA_READ, rl) &&
                is(recvs[0], x.rcv_id, 0, RNIC_WC_OPCODE_RECV, sl) && is(gb[0], x.sid, 0, RNIC_WC_OPCODE_SEND, sl);
    bool data = t.b->mem->read_vec(bslot, wl) == x.wmsg &&
                t.b->mem->read_vec(bslot + wl, 0x2000 - wl) == std::vector<uint8_t>(0x2000 - wl, 0x22) &&
                t.a->mem->read_vec(aslot + 0x2000, rl) == x.rmsg &&
                t.a->mem->read_vec(aslot + 0x2000 + rl, 64) == std::vector<uint8_t>(64, 0x11) &&
                t.a->mem->read_vec(am + uint64_t(S + k) * kSlot, sl) == x.smsg &&
                t.a->mem->read_vec(am + uint64_t(S + k) * kSlot + sl, 64) == std::vector<uint8_t>(64, 0xEE);
    if (!(good && data) && !bad++) {
      char s[300];
      std::snprintf(s, sizeof s, "QPN %u: cqes %zu/%zu data %d %s", qpn, ga.size(), gb.size(), int(data),
                    ga.empty() ? "" : wcs(ga[0]).c_str());
      first_bad = s;
    }
  }
  std::string qpns;
  for (int k = 0; k < S; k++) qpns += (k ? "," : "") + std::to_string(xs[sel[k]]->qpn);
  std::printf("INFO qp-range: traffic on QPNs %s\n", qpns.c_str());
  t.r.check(bad == 0 && bad_post == 0 && total_a == 3 * S && total_b == S, "rdma-qp-range-traffic-lowest-highest-random",
            "%d of %d QPs wrong, %d posts refused, %d/%d CQEs; first: %s", bad, S, bad_post, total_a, total_b,
            first_bad.c_str());
  wait(sc_time(30, SC_US));
  t.r.check(drain(xs, got_a) == 0 && drain(ys, got_b) == 0, "rdma-qp-range-no-extra-cqes", "extra CQEs");
}

// UD SEND from x to y with an address handle: y's buffer gets the 40-byte GRH area then the
// payload, its CQE names the source QP; a wrong Q_Key is dropped silently.
void ud(Ext &t) {
  RdmaQp *x = t.new_qp(t.a, 0, RNIC_QP_TYPE_UD), *y = t.new_qp(t.b, 0, RNIC_QP_TYPE_UD);
  if (!x || !y) return;
  const uint32_t qkey = 0x11111111;
  bool ok = x->ud_ready(qkey, 0x10) && y->ud_ready(qkey, 0x20);
  rnic_create_ah_in ah{};
  ah.pdn = t.a->pdn;
  ah.dest_ipv4 = t.b->ipv4;
  ah.hop_limit = 64;
  std::memcpy(ah.dmac, t.b->mac, 6);
  uint32_t ahn = 0;
  int arc = rnic_cmd_create_ah(&t.a->q, &ah, &ahn);
  if (!t.r.check(ok && arc == 0, "rdma-ud-setup", "%s%s ah rc %d", x->err.c_str(), y->err.c_str(), arc)) return;
  for (uint32_t len : {1u, 1000u, 4096u}) {
    std::string name = "rdma-ud-send-" + std::to_string(len);
    uint32_t rx0 = counter(t.b, RNIC_CNT_RX_FRAMES), unsup0 = counter(t.b, RNIC_CNT_RX_DROP_UNSUP),
             badqp0 = counter(t.b, RNIC_CNT_RX_DROP_BAD_QP), eth0 = counter(t.b, RNIC_CNT_RX_DROP_ETH),
             ip0 = counter(t.b, RNIC_CNT_RX_DROP_IPV4_HDR);
    auto msg = t.rnd(len);
    t.a->mem->write(t.abuf, msg.data(), len);
    uint64_t rbuf = t.bbuf + 0x80000;
    t.b->mem->fill(rbuf, 0xEE, len + 40 + 64);
    rnicp_sge rs{rbuf, len + 40, t.bkey};
    rnicp_recv_wr rwr{t.next(), &rs, 1};
    int pr = y->post_recv(rwr);
    rnicp_sge s{t.abuf, len, t.akey};
    rnicp_send_wr wr{};
    wr.wr_id = t.next();
    wr.opcode = RNIC_WQE_OP_SEND_WITH_IMM;
    wr.imm_data = 0x01020304;
    wr.flags = RNICP_WR_SIGNALED;
    wr.sg_list = &s;
    wr.num_sge = 1;
    wr.ahn = ahn;
    wr.remote_qpn = y->qpn;
    wr.remote_qkey = qkey;
    int ps = x->post_send(wr);
    rnicp_wc wx{}, wy{};
    int nx = x->poll(&wx, 1, t.wait_t), ny = y->poll(&wy, 1, sc_time(100, SC_US));
    bool data = t.b->mem->read_vec(rbuf + 40, len) == msg;
    // the GRH area holds the datagram's IPv4 header: version 4, source = nic0, destination = nic1
    auto g = t.b->mem->read_vec(rbuf + 20, 20);
    auto be = [&](size_t o) { return uint32_t(g[o]) << 24 | uint32_t(g[o + 1]) << 16 | uint32_t(g[o + 2]) << 8 | g[o + 3]; };
    bool grh = g[0] == 0x45 && be(12) == t.a->ipv4 && be(16) == t.b->ipv4;
    // the reads in a fixed order (each takes cycles; GCC's order of the former printf arguments)
    uint32_t unsup = counter(t.b, RNIC_CNT_RX_DROP_UNSUP) - unsup0, badqp = counter(t.b, RNIC_CNT_RX_DROP_BAD_QP) - badqp0;
    uint32_t ip = counter(t.b, RNIC_CNT_RX_DROP_IPV4_HDR) - ip0, eth = counter(t.b, RNIC_CNT_RX_DROP_ETH) - eth0;
    uint32_t rx = counter(t.b, RNIC_CNT_RX_FRAMES) - rx0;
    std::printf("INFO %s: nic1 rx frames +%u, dropped: eth +%u ipv4 +%u bad-qp +%u unsupported +%u\n", name.c_str(), rx,
                eth, ip, badqp, unsup);
    t.r.check(pr == 0 && ps > 0 && nx == 1 && is(wx, wr.wr_id, 0, RNIC_WC_OPCODE_SEND, len), (name + "-sender").c_str(),
              "post %d/%d cqes %d %s", pr, ps, nx, wcs(wx).c_str());
    t.r.check(ny == 1 && is(wy, rwr.wr_id, 0, RNIC_WC_OPCODE_RECV, len + 40) && wy.src_qp == x->qpn &&
                  (wy.flags & (1u << RNIC_CQE_FLAG_GRH)) && wy.imm_data == wr.imm_data && data && grh,
              (name + "-receiver").c_str(), "cqes %d %s src_qp %u data %d grh %d", ny, wcs(wy).c_str(), wy.src_qp,
              int(data), int(grh));
  }
  // Controlled Q_Key (docs/conformance.md row 46): a WR's Q_Key with bit 31 set is replaced by
  // the sending QP's own. The WQEs here are written by rnicp_sq_post, below the provider's verbs
  // layer (which substitutes too), so this is the NIC's rule. x's own Q_Key is y's: delivered.
  // y2's Q_Key is 0x80000000 itself: x's WR naming it sends x's 0x11111111 and is dropped and
  // counted; x2, whose own Q_Key is 0x80000000, reaches y2 with the same WR value.
  RdmaQp *y2 = t.new_qp(t.b, 0, RNIC_QP_TYPE_UD), *x2 = t.new_qp(t.a, 0, RNIC_QP_TYPE_UD);
  if (!y2 || !x2) return;
  const uint32_t ctl = 0x80000000u;
  if (!t.r.check(y2->ud_ready(ctl, 0x30) && x2->ud_ready(ctl, 0x40), "rdma-ud-controlled-qkey-setup", "%s%s",
                 y2->err.c_str(), x2->err.c_str()))
    return;
  struct Case {
    const char *name;
    RdmaQp *src, *dst;
    bool delivered;
  };
  bool y2_posted = false;
  for (const Case &k : {Case{"rdma-ud-controlled-qkey-uses-own-qkey", x, y, true},
                        Case{"rdma-ud-controlled-qkey-not-sent-as-is-dropped", x, y2, false},
                        Case{"rdma-ud-controlled-qkey-own-controlled-qkey", x2, y2, true}}) {
    const uint32_t len = 200;
    auto msg = t.rnd(len);
    t.a->mem->write(t.abuf, msg.data(), len);
    uint64_t rbuf = t.bbuf + 0x80000;
    t.b->mem->fill(rbuf, 0xEE, len + 40 + 64);
    uint32_t dud0 = counter(t.b, RNIC_CNT_RX_DROP_UD);
    // A buffer is posted for the dropped datagram too (a UD drop for want of one is counted
    // alike); it stays posted and takes the next case's datagram.
    rnicp_sge rs{rbuf, len + 40, t.bkey};
    rnicp_recv_wr rwr{t.next(), &rs, 1};
    int pr = 0;
    if (k.dst != y2 || !y2_posted) pr = k.dst->post_recv(rwr), y2_posted = k.dst == y2;
    if (k.dst == y2 && k.delivered) y2_posted = false;
    rnicp_sge s{t.abuf, len, t.akey};
    rnicp_send_wr wr{};
    wr.wr_id = t.next();
    wr.opcode = RNIC_WQE_OP_SEND;
    wr.flags = RNICP_WR_SIGNALED;
    wr.sg_list = &s;
    wr.num_sge = 1;
    wr.ahn = ahn;
    wr.remote_qpn = k.dst->qpn;
    wr.remote_qkey = ctl;
    int ps = k.src->post_send(wr);
    rnicp_wc wx{}, wy{};
    int nx = k.src->poll(&wx, 1, t.wait_t), ny = k.dst->poll(&wy, 1, sc_time(100, SC_US));
    uint32_t dud = counter(t.b, RNIC_CNT_RX_DROP_UD) - dud0;
    bool sent = pr == 0 && ps > 0 && nx == 1 && is(wx, wr.wr_id, 0, RNIC_WC_OPCODE_SEND, len);
    if (k.delivered) {  // the buffer of this case (or the one the dropped datagram left posted)
      bool data = t.b->mem->read_vec(rbuf + 40, len) == msg;
      t.r.check(sent && ny == 1 && wy.status == 0 && wy.byte_len == len + 40 && wy.src_qp == k.src->qpn && data &&
                    dud == 0,
                k.name, "post %d/%d cqes %d/%d %s %s data %d ud drops +%u", pr, ps, nx, ny, wcs(wx).c_str(),
                wcs(wy).c_str(), int(data), dud);
    } else {
      auto after = t.b->mem->read_vec(rbuf, len + 40);
      bool untouched = std::all_of(after.begin(), after.end(), [](uint8_t b) { return b == 0xEE; });
      t.r.check(sent && ny == 0 && dud == 1 && untouched, k.name,
                "post %d/%d sender cqes %d %s, receiver cqes %d (want 0), ud drops +%u (want 1), buffer untouched %d",
                pr, ps, nx, wcs(wx).c_str(), ny, dud, int(untouched));
    }
  }
}

// Priority marking (docs/architecture.md): both ports tag with VLAN 0x123 (ctrl.vlan); three RC
// pairs with their own traffic classes per side (requests carry the requester QP's, ACKs and
// READ responses the responder QP's) and a UD send through an AH with a traffic class run
// WRITE/READ/SEND byte for byte through the tagged link. The link capture is checked afterwards
// by tb/sys/pcap_prio.py against build/sys/test-rdma-prio.expect (written here): every RoCE
// frame tagged, VID, PCP = DSCP class, the DSCP/ECN byte per (source MAC, destination QP).
void prio(Ext &t) {
  const uint32_t vid = 0x123;
  t.a->nic->bar_write(RNIC_REG_CTRL_VLAN, 1u << 16 | vid);
  t.b->nic->bar_write(RNIC_REG_CTRL_VLAN, 1u << 16 | vid);
  t.r.check(t.a->nic->bar_read(RNIC_REG_CTRL_VLAN) == (1u << 16 | vid), "rdma-prio-vlan-register");
  // (nic0 side, nic1 side) traffic classes: DSCP 26 (AF31, PCP 3) both ways; EF 46 with ECT(0)
  // toward CS1; CS6 toward 0 (untouched traffic class, PCP 0)
  const uint32_t tc[3][2] = {{0x68, 0x68}, {0xBA, 0x20}, {0xC0, 0x00}};
  FILE *ex = std::fopen("build/sys/test-rdma-prio.expect", "w");
  bool ok = ex != nullptr;
  if (ex) std::fprintf(ex, "vid %u\n", vid);
  auto mac = [](const uint8_t *m) {
    char s[20];
    std::snprintf(s, sizeof s, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
    return std::string(s);
  };
  for (int p = 0; p < 3 && ok; p++) {
    RdmaConnOpts ox, oy;
    ox.traffic_class = tc[p][0], oy.traffic_class = tc[p][1];
    RdmaQp *x, *y;
    if (!t.pair(x, y, ox, oy)) return;
    // frames from nic0 to y carry x's class, frames from nic1 to x carry y's
    if (ex) std::fprintf(ex, "%s %u %u\n%s %u %u\n", mac(t.a->mac).c_str(), y->qpn, tc[p][0], mac(t.b->mac).c_str(),
                         x->qpn, tc[p][1]);
    std::string n = "rdma-prio-pair-" + std::to_string(p);
    auto wmsg = t.rnd(3000 + 700 * p), rmsg = t.rnd(5000 + 100 * p), smsg = t.rnd(1200);
    uint64_t ao = t.abuf + 0x40000u * p, bo = t.bbuf + 0x40000u * p;
    t.a->mem->write(ao, wmsg.data(), wmsg.size());
    t.b->mem->write(bo + 0x10000, rmsg.data(), rmsg.size());
    t.b->mem->write(bo + 0x20000, smsg.data(), smsg.size());
    t.a->mem->fill(ao + 0x10000, 0x11, 0x2000);
    t.a->mem->fill(ao + 0x20000, 0x33, 0x2000);
    rnicp_sge rs{ao + 0x20000, 0x2000, t.akey};
    rnicp_recv_wr rwr{t.next(), &rs, 1};
    bool posted = x->post_recv(rwr) == 0;
    rnicp_sge ws{ao, uint32_t(wmsg.size()), t.akey}, rds{ao + 0x10000, uint32_t(rmsg.size()), t.akey};
    rnicp_send_wr wr{};
    wr.wr_id = 1, wr.opcode = RNIC_WQE_OP_RDMA_WRITE, wr.flags = RNICP_WR_SIGNALED, wr.sg_list = &ws, wr.num_sge = 1;
    wr.remote_addr = bo, wr.rkey = t.bkey;
    posted = x->post_send(wr) > 0 && posted;
    wr.wr_id = 2, wr.opcode = RNIC_WQE_OP_RDMA_READ, wr.sg_list = &rds, wr.remote_addr = bo + 0x10000;
    posted = x->post_send(wr) > 0 && posted;
    rnicp_sge ss{bo + 0x20000, uint32_t(smsg.size()), t.bkey};
    rnicp_send_wr sw{};
    sw.wr_id = 3, sw.opcode = RNIC_WQE_OP_SEND, sw.flags = RNICP_WR_SIGNALED, sw.sg_list = &ss, sw.num_sge = 1;
    posted = y->post_send(sw) > 0 && posted;
    rnicp_wc wx[3]{}, wy{};
    int nx = x->poll(wx, 3, t.wait_t), ny = y->poll(&wy, 1, t.wait_t);
    std::vector<rnicp_wc> sends, recvs;
    for (int k = 0; k < nx; k++) (rnicp_wc_is_recv(&wx[k]) ? recvs : sends).push_back(wx[k]);
    bool cqes = nx == 3 && ny == 1 && sends.size() == 2 && recvs.size() == 1 &&
                is(sends[0], 1, 0, RNIC_WC_OPCODE_RDMA_WRITE, uint32_t(wmsg.size())) &&
                is(sends[1], 2, 0, RNIC_WC_OPCODE_RDMA_READ, uint32_t(rmsg.size())) &&
                is(recvs[0], rwr.wr_id, 0, RNIC_WC_OPCODE_RECV, uint32_t(smsg.size())) &&
                is(wy, 3, 0, RNIC_WC_OPCODE_SEND, uint32_t(smsg.size()));
    bool data = t.b->mem->read_vec(bo, wmsg.size()) == wmsg && t.a->mem->read_vec(ao + 0x10000, rmsg.size()) == rmsg &&
                t.a->mem->read_vec(ao + 0x10000 + rmsg.size(), 64) == std::vector<uint8_t>(64, 0x11) &&
                t.a->mem->read_vec(ao + 0x20000, smsg.size()) == smsg &&
                t.a->mem->read_vec(ao + 0x20000 + smsg.size(), 64) == std::vector<uint8_t>(64, 0x33);
    t.r.check(posted && cqes && data, (n + "-write-read-send").c_str(), "posted %d cqes %d/%d data %d", int(posted), nx,
              ny, int(data));
  }
  // UD through an address handle with traffic class 0x48 (DSCP 18, PCP 2): the receiver's GRH
  // area holds the IPv4 header as it arrived, TOS included
  RdmaQp *ux = t.new_qp(t.a, 0, RNIC_QP_TYPE_UD), *uy = t.new_qp(t.b, 0, RNIC_QP_TYPE_UD);
  if (!ux || !uy) return;
  const uint32_t qkey = 0x22222222, utc = 0x48;
  ok = ux->ud_ready(qkey, 0x10) && uy->ud_ready(qkey, 0x20) && ok;
  rnic_create_ah_in ah{};
  ah.pdn = t.a->pdn, ah.dest_ipv4 = t.b->ipv4, ah.hop_limit = 64, ah.traffic_class = utc;
  std::memcpy(ah.dmac, t.b->mac, 6);
  uint32_t ahn = 0;
  ok = rnic_cmd_create_ah(&t.a->q, &ah, &ahn) == 0 && ok;
  if (ex) std::fprintf(ex, "%s %u %u\n", mac(t.a->mac).c_str(), uy->qpn, utc), std::fclose(ex);
  auto msg = t.rnd(700);
  t.a->mem->write(t.abuf + 0x100000, msg.data(), msg.size());
  uint64_t rbuf = t.bbuf + 0x100000;
  t.b->mem->fill(rbuf, 0xEE, 1024);
  rnicp_sge rs{rbuf, 700 + 40, t.bkey};
  rnicp_recv_wr rwr{t.next(), &rs, 1};
  ok = uy->post_recv(rwr) == 0 && ok;
  rnicp_sge s{t.abuf + 0x100000, 700, t.akey};
  rnicp_send_wr wr{};
  wr.wr_id = 9, wr.opcode = RNIC_WQE_OP_SEND, wr.flags = RNICP_WR_SIGNALED, wr.sg_list = &s, wr.num_sge = 1;
  wr.ahn = ahn, wr.remote_qpn = uy->qpn, wr.remote_qkey = qkey;
  ok = ux->post_send(wr) > 0 && ok;
  rnicp_wc wx{}, wy{};
  int nx = ux->poll(&wx, 1, t.wait_t), ny = uy->poll(&wy, 1, t.wait_t);
  auto g = t.b->mem->read_vec(rbuf + 20, 20);
  t.r.check(ok && nx == 1 && ny == 1 && is(wy, rwr.wr_id, 0, RNIC_WC_OPCODE_RECV, 740) &&
                t.b->mem->read_vec(rbuf + 40, 700) == msg && g[0] == 0x45 && g[1] == utc,
            "rdma-prio-ud-ah-traffic-class", "cqes %d/%d %s tos in GRH 0x%02x", nx, ny, wcs(wy).c_str(), g[1]);
}

// Priority flow control (docs/decisions/link-pause.md): both ports tag (VLAN 0x124, so the
// capture shows each frame's PCP); nic0 has two RC QPs, x3 on priority 3 (traffic class 0x68,
// DSCP 26) and x5 on priority 5 (0xA0, DSCP 40). nic1's MAC pauses priority 3 and holds it (the
// link sends PFC frames and refreshes them): the WRITE posted on x5 completes byte for byte while
// the one posted on x3 sends nothing (no frame of priority 3 leaves nic0; nic1's buffer keeps its
// old bytes); released, x3's WRITE completes byte for byte. The capture is checked afterwards by
// tb/sys/pcap_prio.py (tags, DSCP per QP, and the "pfc" line: no PCP-3 frame from nic0 between
// the XOFF and the XON, PCP-5 frames meanwhile, PCP-3 frames after).
EthLink *g_link = nullptr;
void pfc(Ext &t) {
  EthLink &L = *g_link;
  const uint32_t vid = 0x124, len = 128 * 1024;
  t.a->nic->bar_write(RNIC_REG_CTRL_VLAN, 1u << 16 | vid);
  t.b->nic->bar_write(RNIC_REG_CTRL_VLAN, 1u << 16 | vid);
  RdmaConnOpts o3, o5;
  o3.traffic_class = 0x68, o5.traffic_class = 0xA0;
  RdmaQp *x3, *y3, *x5, *y5;
  if (!t.pair(x3, y3, o3, o3) || !t.pair(x5, y5, o5, o5)) return;
  FILE *ex = std::fopen("build/sys/test-rdma-pfc.expect", "w");
  auto mac = [](const uint8_t *m) {
    char s[20];
    std::snprintf(s, sizeof s, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
    return std::string(s);
  };
  if (ex) {
    std::fprintf(ex, "vid %u\n", vid);
    std::fprintf(ex, "%s %u %u\n%s %u %u\n", mac(t.a->mac).c_str(), y3->qpn, 0x68u, mac(t.a->mac).c_str(), y5->qpn, 0xA0u);
    std::fprintf(ex, "%s %u %u\n%s %u %u\n", mac(t.b->mac).c_str(), x3->qpn, 0x68u, mac(t.b->mac).c_str(), x5->qpn, 0xA0u);
    std::fprintf(ex, "pfc %s 3\n", mac(t.a->mac).c_str());
    std::fclose(ex);
  }
  // what nic0 hands its MAC while priority 3 is paused at nic0, per PCP
  uint8_t paused0 = 0;
  uint64_t during[8] = {};
  L.on_pfc = [&paused0](int dir, uint8_t m, uint64_t) { if (dir == 1) paused0 = m; };
  L.lose_if = [&](int side, const std::vector<uint8_t> &f) {
    if (side == 0 && (paused0 & 8) && f.size() > 16 && f[12] == 0x81 && f[13] == 0x00) during[f[14] >> 5]++;
    return false;
  };
  uint64_t paused_cyc0 = rnic_rd32(&t.a->os, RNIC_COUNTER_BASE + 4 * RNIC_CNT_TX_PAUSED_CYCLES);
  L.force_pfc(1, 1u << 3);
  for (int i = 0; i < 50 && !(paused0 & 8); i++) wait(sc_time(1, SC_US));
  t.r.check(paused0 == 8, "rdma-pfc-xoff-reaches-nic0", "paused priorities 0x%02x", paused0);

  auto m3 = t.rnd(len), m5 = t.rnd(len);
  uint64_t a3 = t.abuf, a5 = t.abuf + 0x40000, b3 = t.bbuf, b5 = t.bbuf + 0x40000;
  t.a->mem->write(a3, m3.data(), len);
  t.a->mem->write(a5, m5.data(), len);
  t.b->mem->fill(b3, 0x5A, len);
  t.b->mem->fill(b5, 0x5A, len);
  auto post = [&](RdmaQp *q, uint64_t src, uint64_t dst, uint64_t id) {
    rnicp_sge sg{src, len, t.akey};
    rnicp_send_wr wr{};
    wr.wr_id = id, wr.opcode = RNIC_WQE_OP_RDMA_WRITE, wr.flags = RNICP_WR_SIGNALED, wr.sg_list = &sg, wr.num_sge = 1;
    wr.remote_addr = dst, wr.rkey = t.bkey;
    return q->post_send(wr) > 0;
  };
  bool posted = post(x3, a3, b3, 3) && post(x5, a5, b5, 5);
  rnicp_wc w5{}, w3{};
  int n5 = x5->poll(&w5, 1, t.wait_t);
  bool d5 = t.b->mem->read_vec(b5, len) == m5;
  t.r.check(posted && n5 == 1 && is(w5, 5, 0, RNIC_WC_OPCODE_RDMA_WRITE, len) && d5,
            "rdma-pfc-other-priority-completes", "posted %d cqes %d %s data %d", int(posted), n5, wcs(w5).c_str(),
            int(d5));
  int n3 = x3->poll(&w3, 1, sc_time(30, SC_US));
  bool untouched = t.b->mem->read_vec(b3, len) == std::vector<uint8_t>(len, 0x5A);
  uint64_t paused_cyc = rnic_rd32(&t.a->os, RNIC_COUNTER_BASE + 4 * RNIC_CNT_TX_PAUSED_CYCLES) - paused_cyc0;
  std::printf("INFO pfc: while priority 3 was paused nic0 sent %llu frames of PCP 5, %llu of PCP 3, %llu of others; "
              "tx_paused_cycles +%llu\n", (unsigned long long)during[5], (unsigned long long)during[3],
              (unsigned long long)(during[0] + during[1] + during[2] + during[4] + during[6] + during[7]),
              (unsigned long long)paused_cyc);
  t.r.check(n3 == 0 && untouched && during[3] == 0 && during[5] > 0 && (paused0 & 8) && paused_cyc > 0,
            "rdma-pfc-paused-priority-held", "cqes %d remote untouched %d PCP-3 frames %llu PCP-5 frames %llu",
            n3, int(untouched), (unsigned long long)during[3], (unsigned long long)during[5]);

  L.force_pfc(1, 0);
  n3 = x3->poll(&w3, 1, t.wait_t);
  bool d3 = t.b->mem->read_vec(b3, len) == m3;
  t.r.check(n3 == 1 && is(w3, 3, 0, RNIC_WC_OPCODE_RDMA_WRITE, len) && d3 && paused0 == 0,
            "rdma-pfc-released-priority-completes", "cqes %d %s data %d paused 0x%02x", n3, wcs(w3).c_str(),
            int(d3), paused0);
  t.r.check(L.stats(1).pfc_frames >= 2 && L.stats(0).pfc_frames == 0, "rdma-pfc-frames-on-the-link",
            "PFC frames from nic1 %llu, from nic0 %llu", (unsigned long long)L.stats(1).pfc_frames,
            (unsigned long long)L.stats(0).pfc_frames);
  L.lose_if = nullptr;
  L.on_pfc = nullptr;
}

// Two NICs and their hosts; runs body in a thread after both are opened.
// CQ overrun: a 4-entry CQ whose consumer does not poll. The NIC reads the CQ's doorbell record
// when the ring looks full; still full, the CQ goes to error with one CQ_ERROR event on the
// EQ, the completion is dropped and the ring keeps the four entries. The data path is not
// affected. A consumer that keeps up passes many times the ring size through the same CQ size.
void cq_overrun(Ext &t) {
  rnic_eq eq;
  static int cq_errors = 0;
  static uint32_t cq_err_handle = 0;
  bool ok = rnic_eq_init(&eq, &t.a->os, 4, 0) == 0 &&
            rnic_eq_set_handler(&eq, RNIC_EQ_TYPE_CQ_ERROR, [](void *, const rnic_event *ev) {
              cq_errors++;
              cq_err_handle = ev->handle;
            }, nullptr) == 0;
  RdmaQp *x, *y, *kx, *ky;
  if (!t.r.check(ok, "rdma-cq-eq-setup") || !t.pair(x, y, RdmaConnOpts(), RdmaConnOpts(), 0, 2) ||
      !t.pair(kx, ky, RdmaConnOpts(), RdmaConnOpts(), 0, 2))
    return;
  auto write = [&](RdmaQp *q, uint32_t i, uint64_t base) {
    rnicp_sge sg{t.abuf + 0x1000u * i, 1000, t.akey};
    rnicp_send_wr w{};
    w.wr_id = 100 + i;
    w.opcode = RNIC_WQE_OP_RDMA_WRITE;
    w.flags = RNICP_WR_SIGNALED;
    w.sg_list = &sg;
    w.num_sge = 1;
    w.remote_addr = base + 0x1000u * i;
    w.rkey = t.bkey;
    return q->post_send(w) > 0;
  };
  // A consumer that keeps up: 40 WRITEs through a 4-entry CQ, at most 3 outstanding.
  bool kept = true;
  uint32_t got = 0;
  for (uint32_t i = 0; i < 40 && kept; i++) {
    t.fill(t.a, t.abuf + 0x1000u * (i % 16), 1000);
    kept = write(kx, i % 16, t.bbuf + 0x40000);
    rnicp_wc w;
    if (i % 3 == 2 || i == 39)
      for (; kept && got <= i; got++) kept = kx->poll(&w, 1, t.wait_t) == 1 && is(w, 100 + got % 16, 0, RNIC_WC_OPCODE_RDMA_WRITE, 1000);
  }
  t.check(kept && got == 40 && cq_errors == 0, "rdma-cq-consumer-keeps-up-40-through-4",
          "got " + std::to_string(got) + " cq errors " + std::to_string(cq_errors));

  // Six WRITEs, no polling: the 5th completion finds the ring full.
  std::vector<std::vector<uint8_t>> msg;
  for (uint32_t i = 0; i < 6; i++) {
    t.fill(t.a, t.abuf + 0x1000u * i, 1000);
    msg.push_back(t.a->mem->read_vec(t.abuf + 0x1000u * i, 1000));
  }
  for (uint32_t i = 0; i < 4; i++) ok = write(x, i, t.bbuf) && ok;
  wait(sc_time(50, SC_US));
  for (uint32_t i = 4; i < 6; i++) ok = write(x, i, t.bbuf) && ok;
  wait(sc_time(50, SC_US));
  rnic_eq_poll(&eq, 16, 0);
  t.check(ok && cq_errors == 1 && cq_err_handle == x->cqn, "rdma-cq-overrun-one-cq-error-event",
          "events " + std::to_string(cq_errors) + " handle " + std::to_string(cq_err_handle));
  bool data = true;
  for (uint32_t i = 0; i < 6; i++) data = data && t.b->mem->read_vec(t.bbuf + 0x1000u * i, 1000) == msg[i];
  t.check(data, "rdma-cq-overrun-data-path-unaffected", "remote bytes differ");
  rnicp_wc w[8];
  int n = x->poll(w, 8, sc_time(20, SC_US));
  bool four = n == 4;
  for (int i = 0; i < n && four; i++) four = is(w[i], 100 + uint32_t(i), 0, RNIC_WC_OPCODE_RDMA_WRITE, 1000);
  t.check(four && t.quiet({x}), "rdma-cq-overrun-ring-keeps-four-entries", "polled " + std::to_string(n));
  rnic_eq_fini(&eq);
}

int rdma_ext_main(int argc, char **argv, std::function<void(Ext &)> body) {
  if (argc > 2 && !std::strcmp(argv[1], "--seed")) argv[1] = argv[0], argv++, argc--;  // = the positional seed
  uint64_t seed = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : 1;
  std::printf("seed %llu\n", (unsigned long long)seed);
  EthFaults f;
  bool faults = false, no_pfc = false;
  for (int i = 1; i < argc; i++) {
    std::string o = argv[i];
    g_gaps = g_gaps || o == "--gaps";
    if (o == "--no-pfc") no_pfc = true;
    if (o == "--no-read") g_qps_read = false;
    if (o == "--range-all") g_range_all = true;
    if (o == "--range-sel" && i + 1 < argc) g_range_sel = std::max(2, std::atoi(argv[++i]));
    if (o == "--qps" && i + 1 < argc) g_qps = std::atoi(argv[++i]);
    if (o == "--pace" && i + 1 < argc) g_pace_ns = unsigned(std::atoi(argv[++i]));
    if (o == "--faults" && i + 4 < argc) {  // loss reorder dup corrupt, per frame, both directions
      f.loss = std::atof(argv[++i]), f.reorder = std::atof(argv[++i]);
      f.dup = std::atof(argv[++i]), f.corrupt = std::atof(argv[++i]);
      faults = g_faults = true;
    }
  }
  EthLinkCfg lc;
  lc.seed = seed;
  lc.pcap_path = std::string("build/sys/") + argv[0] + (faults ? "-faults" : "") + ".pcap";
  lc.faults[0] = lc.faults[1] = f;
  lc.flow_control = !no_pfc;
  TwoNics<RdmaPort> s(lc);
  EthLink &link = s.link;
  g_link = &link;
  Ext t("rdma_ext", &s.a, &s.b, seed * 0x9E3779B97F4A7C15ull + 1, std::move(body));
  sc_start();

  std::printf("INFO %s: simulated %.1f us, %llu + %llu frames\n", argv[0], sc_time_stamp().to_seconds() * 1e6,
              (unsigned long long)link.stats(0).tx_frames, (unsigned long long)link.stats(1).tx_frames);
  std::printf("INFO link pause (dir d: PAUSE frames sent by side d, side d's transmitter paused): %s\n",
              link.pause_info().c_str());
  return t.r.exit_code();
}

SimProgram reg_err("test-rdma-err", "two NICs: remote/local access errors, QP to ERR, flush, other QP unaffected [seed]",
                   [](int c, char **v) { return rdma_ext_main(c, v, errors); });
SimProgram reg_modify("test-rdma-modify",
                      "two NICs: RTS->RTS and SQD->RTS modify of access flags and RNR timer on live QPs [seed]",
                      [](int c, char **v) { return rdma_ext_main(c, v, modify_live); });
SimProgram reg_cq("test-rdma-cq", "two NICs: CQ overrun (CQ_ERROR event, ring kept), a consumer keeping up [seed]",
                  [](int c, char **v) { return rdma_ext_main(c, v, cq_overrun); });
SimProgram reg_rnr("test-rdma-rnr", "two NICs: RNR NAK then success, RNR and transport retries exceeded [seed]",
                   [](int c, char **v) { return rdma_ext_main(c, v, rnr); });
SimProgram reg_mtu("test-rdma-mtu", "two NICs: WRITE/SEND/READ at path MTU 256 and 1024 [seed]",
                   [](int c, char **v) { return rdma_ext_main(c, v, mtu); });
SimProgram reg_qps("test-rdma-qps", "two NICs: 64 QP pairs, interleaved WRITE/READ/SEND [seed]",
                   [](int c, char **v) { return rdma_ext_main(c, v, many_qps); });
SimProgram reg_qp_range("test-rdma-qp-range",
                        "two NICs: every QP of the configuration created and connected, traffic on the lowest, highest and random QPNs [seed]",
                        [](int c, char **v) { return rdma_ext_main(c, v, qp_range); });
SimProgram reg_prio("test-rdma-prio",
                    "two NICs: 802.1Q tagging on both ports, per-QP and per-AH traffic classes, WRITE/READ/SEND/UD [seed]",
                    [](int c, char **v) { return rdma_ext_main(c, v, prio); });
SimProgram reg_pfc("test-rdma-pfc",
                   "two NICs: priority flow control, the far MAC pauses priority 3, priority 5 goes on [seed]",
                   [](int c, char **v) { return rdma_ext_main(c, v, pfc); });
SimProgram reg_ud("test-rdma-ud", "two NICs: UD SEND end to end (known gap: no UD receive) [seed]",
                  [](int c, char **v) { return rdma_ext_main(c, v, ud); });
SimProgram reg_ops("test-rdma-ops", "two NICs: SEND/WRITE_IMM/READ 0..4097 B, SGEs, inline, CAS/FAA [seed]",
                   [](int c, char **v) { return rdma_ext_main(c, v, ops); });
}  // namespace
