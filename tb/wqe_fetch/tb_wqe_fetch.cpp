// tb_wqe_fetch: testbench of the WQE fetch engine (rtl/wqe_fetch/wqe_fetch.sv). A firmware model
// keeps SQ rings of several QPs (ring base, size, producer), turns random doorbells into fetch
// commands as the firmware does (split at the ring end, at most wqf_buf_bbs WQEBBs, buffer slots
// allocated as a ring, up to wqf_cmd_num in flight) and checks every fetched WQEBB byte for byte
// with one-cycle loads against host memory once wqf_status counts its command. The host model
// is the dma_engine read client (packed beats, in-order completions after the last beat) with
// random request/data back-pressure, completion delays and bus errors (counted and tagged in
// wqf_status). Also: count clamping (0 and above the buffer), a command dropped when the queue is
// full, the request of each command one burst at the command's address.
// Doorbell-started fetches (wqf_sq_*, wqf_dbr_*): SQ ring state programmed per QP, sq_db / bf_db
// driven on the doorbell port; a reference model of the engine predicts every record (QP, first
// index, count, doorbell-region slot) and the fetch index, the records' WQEBBs are checked byte
// for byte, with the firmware's own commands interleaved; wrong page, disabled QP, bf_db, index
// moves, ring end, region full, records full, bus errors, a record dropped in flight, bursts.
// RQ doorbells (wqf_rq_*, wqf_rqr_*, wqf_db_ctl bit 1): RQ ring state beside the SQs' (the same QPN
// with both an SQ and an RQ), 64- and 128-byte WQEs; random rq_db interleaved with sq_db and the
// firmware's own commands, a reference model predicts every RQ record (QP, first WQE, WQEBBs, slot,
// more) and the SQ records beside them; every WQEBB byte for byte, ring and region wraps, a disabled
// RQ and the kind disabled, wrong pages, doorbells while the records are full, bus errors.
// The receive feed (wqf_rqf_*): a firmware model refills three RQs' receive slots (8 each, as the
// QP table holds them) with feed commands while hosts post and ring and buffers are consumed; a
// reference model of the feed (the firmware's record rules: use, remove others' and passed ones,
// stop at none or one further on, a failed fetch, too many SGEs) predicts each command's count and
// stop, and every rq_desc on the merged port is checked byte for byte in order, the firmware's
// own mailbox descriptors (its fallback after a stop) interleaved with the feed's, the port's
// ready random.
// Built at -GDataWidth=512 (one beat per WQEBB) and 64 (eight). Options: --seed N, --doorbells N.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <random>
#include <set>
#include <type_traits>
#include <vector>

#include "Vwqe_fetch.h"
#include "Vwqe_fetch___024root.h"
#include "rnic_spec.h"
#include "tb_check.h"
#include "tb_tc_port.h"
#include "verilated.h"

#ifndef TB_DATA_WIDTH
#define TB_DATA_WIDTH 512
#endif
static constexpr unsigned BPB = TB_DATA_WIDTH / 8;
static constexpr unsigned BB = 64;
static constexpr unsigned NBUF = RNIC_FW_TC_WQF_BUF_BBS;
static constexpr unsigned NRQ = RNIC_FW_TC_WQF_RQ_BUF_BBS;  // the receive region (wqf_cmd.rq)
static constexpr unsigned NCMD = RNIC_FW_TC_WQF_CMD_NUM;
static constexpr unsigned NDB = RNIC_FW_TC_WQF_DB_BUF_BBS;  // the doorbell region
static constexpr unsigned NREC = RNIC_FW_TC_WQF_DB_NUM;
static constexpr unsigned NRDB = RNIC_FW_TC_WQF_RDB_BUF_BBS;  // the receive doorbell region
static constexpr unsigned NRREC = RNIC_FW_TC_WQF_RDB_NUM;
static constexpr unsigned TB_NUM_QPS = 128;                 // the engine's default NumQps

template <typename T> static void setb(T &s, unsigned byte, uint8_t v) {
  if constexpr (std::is_integral_v<T>) {
    s = (s & ~(T(0xFF) << (8 * byte))) | (T(v) << (8 * byte));
  } else {
    s[byte / 4] = (s[byte / 4] & ~(0xFFu << (8 * (byte % 4)))) | (uint32_t(v) << (8 * (byte % 4)));
  }
}

// host memory: a byte is a hash of its address and the generation (rings are rewritten between
// doorbells by bumping the generation of the QP's ring, so stale buffer contents are caught)
static uint8_t host_byte(uint64_t a, uint32_t gen) {
  uint64_t x = (a ^ (uint64_t(gen) << 40)) * 0x9E3779B97F4A7C15ull;
  x ^= x >> 29;
  return uint8_t(x >> 17);
}

struct Tb {
  Vwqe_fetch m;
  std::mt19937_64 rng;
  uint64_t cycle = 0;
  struct Req { uint64_t addr; uint32_t len, tag; unsigned beats_left; unsigned sent = 0; };
  std::deque<Req> req_q;                            // accepted, data not all sent
  std::deque<std::pair<uint64_t, unsigned>> cpl_q;  // (due cycle, status), in order
  std::vector<Req> reqs;                            // every accepted request
  unsigned ready_pct = 70, data_pct = 70, err_pct = 0, cpl_delay = 30;
  uint32_t gen_of_addr_hi = 0;                      // generation (see host_byte), set by the caller
  std::function<uint32_t(uint64_t)> gen_of;         // generation of a host address
  unsigned errors = 0, max_outstanding = 0, last_err_tag_idx = ~0u;
  std::vector<unsigned> err_of_req;                 // status of each request
  uint64_t last_cpl_due = 0;
  // the rq_desc port (the receive feed merged with the firmware's mailbox): driven once rqf_on
  static constexpr unsigned DESC = RNIC_RQ_DESC_SIZE;
  bool rqf_on = false;
  unsigned qpt_ready_pct = 70, feed_first = 0;
  unsigned stall = 0;                               // cycles the QP table's port stays held
  std::deque<std::vector<uint8_t>> fw_rqd_q;        // the firmware's mailbox: offered until taken
  std::vector<std::vector<uint8_t>> rqd_out;        // every descriptor the port delivered, in order
  std::vector<uint8_t> fw_rqd_last;                 // the mailbox's last descriptor taken
  uint64_t cpls = 0;                                // DMA completions delivered
  std::function<int(uint64_t)> byte_ovr;            // host bytes other than host_byte (-1: none)
  std::function<void()> on_tick;                    // a look at the engine before each clock edge

  explicit Tb(uint64_t seed) : rng(seed) {
    m.clk_i = 0;
    m.rst_ni = 0;
    m.tc_req_i = 0;
    m.db_valid_i = 0;
    m.db_rq_i = 0;
    m.rd_req_ready_i = 0;
    m.rd_data_valid_i = 0;
    m.rd_cpl_valid_i = 0;
    m.fw_rqd_valid_i = 0;
    m.rqd_ready_i = 1;
    m.eval();
    for (int i = 0; i < 4; i++) tick();
    m.rst_ni = 1;
    tick();
  }
  bool coin(unsigned pct) { return rng() % 100 < pct; }

  void drive_beat() {
    if (req_q.empty() || !coin(data_pct)) {
      m.rd_data_valid_i = 0;
      return;
    }
    Req &r = req_q.front();
    m.rd_data_valid_i = 1;
    m.rd_data_last_i = r.beats_left == 1;
    uint32_t gen = gen_of(r.addr);
    for (unsigned b = 0; b < BPB; b++) {
      uint32_t k = r.sent * BPB + b;
      int o = byte_ovr && k < r.len ? byte_ovr(r.addr + k) : -1;
      setb(m.rd_data_i, b, o >= 0 ? uint8_t(o) : k < r.len ? host_byte(r.addr + k, gen) : uint8_t(rng()));
    }
  }

  void tick() {
    m.eval();
    if (on_tick) on_tick();
    bool req_fire = m.rd_req_valid_o && m.rd_req_ready_i;
    bool dat_fire = m.rd_data_valid_i && m.rd_data_ready_o;
    bool cpl_fire = m.rd_cpl_valid_i && m.rd_cpl_ready_o;
    Req nr{};
    if (req_fire) {
      nr.addr = m.rd_req_addr_o;
      nr.len = m.rd_req_len_o;
      nr.tag = m.rd_req_tag_o;
      nr.beats_left = (nr.len + BPB - 1) / BPB;
      reqs.push_back(nr);
    }
    if (dat_fire) {
      Req &r = req_q.front();
      r.sent++;
      if (--r.beats_left == 0) {
        unsigned st = coin(err_pct) ? (coin(50) ? 2 : 3) : 0;
        if (st) errors++;
        err_of_req.push_back(st);
        last_cpl_due = std::max(last_cpl_due, cycle + 1 + rng() % cpl_delay);
        cpl_q.push_back({last_cpl_due, st});
        req_q.pop_front();
      }
    }
    if (req_fire) req_q.push_back(nr);
    if (cpl_fire) cpl_q.pop_front(), cpls++;
    if (m.rqd_valid_o && m.rqd_ready_i) {
      std::vector<uint8_t> d(DESC);
      for (unsigned b = 0; b < DESC; b++) d[b] = uint8_t(m.rqd_o[b / 4] >> (8 * (b % 4)));
      rqd_out.push_back(d);
    }
    // the mailbox's descriptor held back while the port's register holds one of the feed's (the
    // older): not the last one the mailbox handed in
    if (m.fw_rqd_valid_i && m.rqd_valid_o && !fw_rqd_last.empty()) {
      bool mine = true;
      for (unsigned b = 0; b < DESC && mine; b++) mine = uint8_t(m.rqd_o[b / 4] >> (8 * (b % 4))) == fw_rqd_last[b];
      feed_first += !mine;
    }
    if (m.fw_rqd_valid_i && m.fw_rqd_ready_o) fw_rqd_last = fw_rqd_q.front(), fw_rqd_q.pop_front();
    max_outstanding = std::max<unsigned>(max_outstanding, unsigned(req_q.size() + cpl_q.size()));
    m.clk_i = 1;
    m.eval();
    m.clk_i = 0;
    m.eval();
    cycle++;
    m.rd_req_ready_i = coin(ready_pct);
    drive_beat();
    m.rd_cpl_valid_i = !cpl_q.empty() && cpl_q.front().first <= cycle;
    m.rd_cpl_status_i = cpl_q.empty() ? 0 : cpl_q.front().second;
    m.tc_req_i = 0;
    m.db_valid_i = 0;
    m.db_rq_i = 0;
    if (rqf_on) {
      m.rqd_ready_i = stall ? 0 : coin(qpt_ready_pct);
      stall -= stall != 0;
      m.fw_rqd_valid_i = !fw_rqd_q.empty();
      if (!fw_rqd_q.empty())
        for (unsigned b = 0; b < DESC; b++) setb(m.fw_rqd_i, b, fw_rqd_q.front()[b]);
    }
  }

  // A phase's start: no bus errors, a busy but willing host, what the last phase left in flight done.
  void settle() {
    err_pct = 0;
    ready_pct = 90;
    data_pct = 90;
    cpl_delay = 20;
    for (int i = 0; i < 3000; i++) tick();
  }
  void tc_wr(uint32_t off, uint32_t v) { tb_tc_store(m, [this] { tick(); }, off, v); }
  uint32_t tc_rd(uint32_t off) { return tb_tc_load(m, [this] { tick(); }, off); }
  void cmd(uint64_t addr, unsigned bbs, unsigned slot, unsigned tag, bool rq = false) {
    uint8_t c[4] = {0, 0, 0, 0};
    rnic_wqf_cmd_set_bbs(c, bbs);
    rnic_wqf_cmd_set_slot(c, slot);
    rnic_wqf_cmd_set_rq(c, rq);
    rnic_wqf_cmd_set_tag(c, tag);
    tc_wr(RNIC_FW_TC_WQF_ADDR_LO, uint32_t(addr));
    tc_wr(RNIC_FW_TC_WQF_ADDR_HI, uint32_t(addr >> 32));
    tc_wr(RNIC_FW_TC_WQF_CMD, rnic_ld_le32(c));
  }
};

// Bytes of the WQEBB at offset off of the tightly coupled window that differ from host memory at
// addr (generation gen, see host_byte).
static unsigned wqebb_bad_bytes(Tb &tb, uint32_t off, uint64_t addr, uint32_t gen) {
  unsigned bad = 0;
  for (unsigned w = 0; w < BB; w += 4) {
    uint32_t v = tb.tc_rd(off + w);
    for (unsigned b = 0; b < 4; b++)
      if (uint8_t(v >> (8 * b)) != host_byte(addr + w + b, gen)) bad++;
  }
  return bad;
}

struct Qp {
  uint64_t base;
  unsigned log;
  bool rq = false;    // a receive queue: fetched into the receive region
  uint32_t next = 0;  // next WQEBB index to fetch
  uint32_t gen = 1;
};

// ---- doorbell-started fetches ---------------------------------------------------------------
struct DbQp {
  unsigned qpn, page, log;
  uint64_t base;
  bool en;
  uint32_t pi = 0;    // the host's producer index (16 bits)
};
struct DbRec { unsigned qpn, first, bbs, slot; };

// The engine as the spec describes it: fetch index per QP, the doorbell region's slots, records.
struct DbModel {
  std::vector<uint32_t> fidx = std::vector<uint32_t>(TB_NUM_QPS, 0);
  std::deque<DbRec> recs;
  unsigned dslot = 0, dused = 0;
  unsigned n_page = 0, n_dis = 0, n_bf = 0, n_ring_end = 0, n_free = 0, n_full = 0, n_none = 0, n_ext = 0;
  // the QP and end index of the newest record (valid while a record is held): a doorbell of
  // that QP fetching from there extends it instead of taking a record
  unsigned last_qpn = 0;
  uint32_t last_end = 0;
  void doorbell(const DbQp &q, unsigned page, bool bf) {
    if (!q.en) { n_dis++; return; }
    if (page != q.page) { n_page++; return; }
    uint32_t size = 1u << q.log, f = fidx[q.qpn], n = (q.pi - f) & 0xFFFF;
    if (n == 0 || n > size) { n_none++; return; }
    if (bf) { fidx[q.qpn] = q.pi; n_bf++; return; }
    bool ext = !recs.empty() && last_qpn == q.qpn && last_end == f;
    if (!ext && recs.size() == NREC) { n_full++; return; }
    uint32_t left = size - (f & (size - 1)), free = NDB - dused;
    uint32_t k = std::min({n, left, free});
    if (k < n && k == left) n_ring_end++;
    if (k < n && k == free && k < left) n_free++;
    if (k == 0) return;
    if (ext) recs.back().bbs += k, n_ext++;
    else recs.push_back({q.qpn, f, k, dslot});
    last_qpn = q.qpn;
    last_end = (f + k) & 0xFFFF;
    dslot = (dslot + k) % NDB;
    dused += k;
    fidx[q.qpn] = (f + k) & 0xFFFF;
  }
  void pop() { dused -= recs.front().bbs; recs.pop_front(); }
};

static void db_ring(Tb &tb, unsigned qpn, unsigned page, uint32_t pi, bool bf, bool rq = false) {
  tb.m.db_valid_i = 1;
  tb.m.db_rq_i = rq;
  tb.m.db_bf_i = bf;
  tb.m.db_page_i = page;
  tb.m.db_value_i = (qpn & 0xFFFF) | (pi & 0xFFFF) << 16;
  tb.tick();
}
// The QP/index word of wqf_sq_cfg, wqf_sq_fidx and their RQ twins (layout wqf_sq_qidx).
static uint32_t qidx_word(unsigned qpn, uint32_t fidx) {
  uint8_t x[4] = {0, 0, 0, 0};
  rnic_wqf_sq_qidx_set_qpn(x, qpn);
  rnic_wqf_sq_qidx_set_index(x, fidx);
  return rnic_ld_le32(x);
}
static void db_program(Tb &tb, const DbQp &q, uint32_t fidx) {
  uint8_t g[4] = {0, 0, 0, 0};
  rnic_wqf_sq_ring_set_page(g, q.page);
  rnic_wqf_sq_ring_set_log_size(g, q.log);
  rnic_wqf_sq_ring_set_en(g, q.en);
  tb.tc_wr(RNIC_FW_TC_WQF_SQ_BASE_LO, uint32_t(q.base));
  tb.tc_wr(RNIC_FW_TC_WQF_SQ_BASE_HI, uint32_t(q.base >> 32));
  tb.tc_wr(RNIC_FW_TC_WQF_SQ_RING, rnic_ld_le32(g));
  tb.tc_wr(RNIC_FW_TC_WQF_SQ_CFG, qidx_word(q.qpn, fidx));
}
static void db_set_fidx(Tb &tb, unsigned qpn, uint32_t fidx) { tb.tc_wr(RNIC_FW_TC_WQF_SQ_FIDX, qidx_word(qpn, fidx)); }

// A host posts no more than its ring holds past what the NIC took (else it runs a ring ahead and
// the engine ignores the QP's doorbells from then on): when the ring is full to the fetch index
// the firmware, whose records wait untaken, fetches what is posted itself first (moves the fetch
// index, the model's and the engine's, to the producer). Returns the room for new ring entries.
static unsigned host_room(Tb &tb, void (*set_fidx)(Tb &, unsigned, uint32_t), unsigned qpn, uint32_t pi,
                          uint32_t &fidx, unsigned size) {
  unsigned room = size - ((pi - fidx) & 0xFFFF);
  if (room) return room;
  fidx = pi;
  set_fidx(tb, qpn, pi);
  for (int i = 0; i < 8; i++) tb.tick();
  return size;
}

// The firmware's own commands beside the doorbell-started fetches (into the send buffer or the
// receive region): counted in wqf_status alone, each one's WQEBBs checked byte for byte (host
// generation 7) once the status counts it; one with a bus error (its request's) is only counted.
struct FwCmds {
  struct Cmd { unsigned slot, bbs; uint64_t addr; };
  std::deque<Cmd> q;
  size_t req_next;
  unsigned done, issued, errs0, n = 0, bad = 0, err_n = 0, slot = 0;
  bool rq;
  FwCmds(Tb &tb, bool rq_) : req_next(tb.reqs.size()), rq(rq_) {
    uint8_t s[4];
    rnic_st_le32(s, tb.tc_rd(RNIC_FW_TC_WQF_STATUS));
    done = issued = rnic_wqf_status_get_done(s);
    errs0 = rnic_wqf_status_get_errors(s);
  }
  unsigned nb() const { return rq ? NRQ : NBUF; }
  unsigned inflight() const {
    unsigned k = 0;
    for (auto &c : q) k += c.bbs;
    return k;
  }
  // one more when the firmware would issue it (never more in flight than the region holds)
  void maybe_issue(Tb &tb, uint64_t a, unsigned bbs) {
    if (q.size() >= NCMD || inflight() + bbs > nb()) return;
    tb.cmd(a, bbs, slot, 0, rq);
    q.push_back({slot, bbs, a});
    slot = (slot + bbs) % nb();
    issued++;
    n++;
  }
  void retire(Tb &tb) {
    uint8_t s[4];
    rnic_st_le32(s, tb.tc_rd(RNIC_FW_TC_WQF_STATUS));
    while (!q.empty() && ((rnic_wqf_status_get_done(s) - done) & 0xFF)) {
      Cmd c = q.front();
      q.pop_front();
      done++;
      // its request: the first not yet matched at its address (requests go out in order)
      size_t i = req_next;
      while (i < tb.reqs.size() && tb.reqs[i].addr != c.addr) i++;
      req_next = i + 1;
      if (i < tb.err_of_req.size() && tb.err_of_req[i]) {
        err_n++;
        continue;
      }
      for (unsigned k = 0; k < c.bbs; k++)
        bad += wqebb_bad_bytes(tb, (rq ? RNIC_FW_TC_WQF_RQ_BUF_BASE : RNIC_FW_TC_WQF_BUF_BASE) + ((c.slot + k) % nb()) * BB,
                               c.addr + k * BB, 7);
    }
  }
  void drain(Tb &tb) {
    for (int i = 0; i < 3000 && !q.empty(); i++) {
      tb.tick();
      retire(tb);
    }
  }
  // all done and exact, the status's counts the firmware's alone
  bool apart(Tb &tb, unsigned at_least, unsigned *errs) {
    uint8_t s[4];
    rnic_st_le32(s, tb.tc_rd(RNIC_FW_TC_WQF_STATUS));
    *errs = (rnic_wqf_status_get_errors(s) - errs0) & 0xFF;
    return q.empty() && bad == 0 && n > at_least && rnic_wqf_status_get_done(s) == (issued & 0xFF) &&
           rnic_wqf_status_get_queued(s) == 0 && *errs == err_n;
  }
};

static void db_tests(TbResults &r, Tb &tb, unsigned doorbells) {
  std::mt19937_64 &rng = tb.rng;
  tb.settle();
  // QPs at the bottom, the middle and the top of the RAM; rings of 4..64 WQEBBs
  std::vector<DbQp> qps;
  qps.reserve(8);  // references into it stay valid when the region-full test adds a QP
  const unsigned qpns[] = {2, 5, 77, TB_NUM_QPS - 1};
  for (unsigned i = 0; i < 4; i++)
    qps.push_back({qpns[i], 100 + qpns[i], i == 1 ? 5u : 2u + unsigned(rng() % 5),
                   (uint64_t(0x2468A) << 36) + uint64_t(i) * 0x400000 + (rng() % 256) * 4096, true});
  auto gen_db = [&](uint64_t a) -> uint32_t {
    for (auto &q : qps)
      if (a >= q.base && a < q.base + (uint64_t(BB) << q.log)) return 5;
    return 7;  // the firmware's own commands below read another range
  };
  tb.gen_of = gen_db;
  uint64_t fw_base = uint64_t(0x13579) << 36;

  // Off after reset: doorbells make no request and no record.
  size_t r0 = tb.reqs.size();
  db_ring(tb, 5, 105, 3, false);
  for (int i = 0; i < 50; i++) tb.tick();
  uint8_t info[4];
  rnic_st_le32(info, tb.tc_rd(RNIC_FW_TC_WQF_DBR_INFO));
  r.check(tb.reqs.size() == r0 && !rnic_wqf_dbr_info_get_valid(info), "wqf-db-off-after-reset",
          "requests %zu, info 0x%x", tb.reqs.size() - r0, rnic_ld_le32(info));

  // every entry written (disabled), then the QPs, then enabled
  DbModel md;
  for (unsigned q = 0; q < TB_NUM_QPS; q++) db_program(tb, {q, 0, 0, 0, false}, 0);
  for (auto &q : qps) {
    q.pi = unsigned(rng() % 65536);  // indices anywhere, wrapping at 16 bits
    md.fidx[q.qpn] = q.pi;
    db_program(tb, q, q.pi);
  }
  DbQp off{9, 109, 3, uint64_t(0x999) << 36, false};  // a programmed but disabled QP
  db_program(tb, off, 0);
  tb.tc_wr(RNIC_FW_TC_WQF_DB_CTL, 1);

  unsigned recs_seen = 0, bad_rec = 0, bad_bytes = 0, checked = 0, err_recs = 0;
  FwCmds fw(tb, false);
  // Takes the oldest record when it is done: compares it with the model's, checks its WQEBBs.
  auto take = [&](bool wait) -> bool {
    if (md.recs.empty()) return false;
    for (int i = 0; i < 20000; i++) {
      rnic_st_le32(info, tb.tc_rd(RNIC_FW_TC_WQF_DBR_INFO));
      if (rnic_wqf_dbr_info_get_done(info) || !wait) break;
      tb.tick();
    }
    if (!rnic_wqf_dbr_info_get_done(info)) return false;
    uint8_t qx[4];
    rnic_st_le32(qx, tb.tc_rd(RNIC_FW_TC_WQF_DBR_QIDX));
    DbRec e = md.recs.front();
    if (!rnic_wqf_dbr_info_get_valid(info) || rnic_wqf_sq_qidx_get_qpn(qx) != e.qpn ||
        rnic_wqf_sq_qidx_get_index(qx) != (e.first & 0xFFFF) || rnic_wqf_dbr_info_get_bbs(info) != e.bbs ||
        rnic_wqf_dbr_info_get_more(info) != (md.recs.size() > 1) ||
        rnic_wqf_dbr_info_get_slot(info) != e.slot) {
      if (!bad_rec)
        std::printf("# record: qpn %u first %u bbs %u slot %u, expected %u %u %u %u\n", rnic_wqf_sq_qidx_get_qpn(qx),
                    rnic_wqf_sq_qidx_get_index(qx), rnic_wqf_dbr_info_get_bbs(info), rnic_wqf_dbr_info_get_slot(info),
                    e.qpn, e.first, e.bbs, e.slot);
      bad_rec++;
    } else if (rnic_wqf_dbr_info_get_err(info)) {
      err_recs++;
    } else {
      const DbQp *q = nullptr;
      for (auto &x : qps) if (x.qpn == e.qpn) q = &x;
      for (unsigned k = 0; k < e.bbs; k++) {
        uint64_t a = q->base + uint64_t((e.first + k) & ((1u << q->log) - 1)) * BB;
        bad_bytes += wqebb_bad_bytes(tb, RNIC_FW_TC_WQF_DB_BUF_BASE + ((e.slot + k) % NDB) * BB, a, 5);
        checked++;
      }
    }
    tb.tc_wr(RNIC_FW_TC_WQF_DBR_POP, 0);
    md.pop();
    recs_seen++;
    return true;
  };

  unsigned nd = std::max(200u, doorbells / 2);
  for (unsigned d = 0; d < nd; d++) {
    tb.err_pct = (d >= nd / 2 && d < nd / 2 + 40) ? 40 : 0;
    tb.ready_pct = (d / 100) % 2 ? 30 : 90;
    unsigned pick = unsigned(rng() % 100);
    if (pick < 4) {  // a disabled QP
      off.pi = (off.pi + 1) & 0xFFFF;
      md.doorbell(off, off.page, false);
      db_ring(tb, off.qpn, off.page, off.pi, false);
    } else {
      DbQp &q = qps[rng() % qps.size()];
      unsigned size = 1u << q.log;
      // the host posts up to a ring's worth (sometimes more: a doorbell the engine ignores)
      unsigned n = pick < 8 ? size + 1 + unsigned(rng() % 5)
                   : rng() % 3 == 0 ? 1u : unsigned(rng() % std::min(size + 1, 12u));
      if (pick >= 8) n = std::min(n, host_room(tb, db_set_fidx, q.qpn, q.pi, md.fidx[q.qpn], size));
      uint32_t pi = (q.pi + n) & 0xFFFF;
      bool bf = pick >= 8 && pick < 14;
      unsigned page = pick >= 14 && pick < 18 ? q.page + 1 : q.page;
      if (pick < 8) {  // ignored: the model's index stays, the host's producer does not move
        DbQp t = q;
        t.pi = pi;
        md.doorbell(t, page, false);
        db_ring(tb, q.qpn, page, pi, false);
      } else {
        q.pi = pi;
        md.doorbell(q, page, bf);
        db_ring(tb, q.qpn, page, pi, bf);
      }
      if (pick >= 18 && pick < 22) {  // the firmware fetched up to the producer itself
        for (int i = 0; i < 8; i++) tb.tick();
        md.fidx[q.qpn] = q.pi;
        db_set_fidx(tb, q.qpn, q.pi);
      }
    }
    for (int i = 0; i < 8; i++) tb.tick();
    unsigned bbs = 1 + unsigned(rng() % 4);
    // one of the firmware's own
    if (rng() % 3 == 0) fw.maybe_issue(tb, fw_base + (rng() % 64) * BB, bbs);
    // the firmware takes records at its pace: all, some, or none this time
    // (none for 40 doorbells of every 160: the region fills, doorbells meet it full; a seed-dependent
    // count of region-full events once failed its threshold at 2 seeds of 40)
    unsigned take_n = (d / 40) % 4 == 3 ? 0 : rng() % 3 == 0 ? 0 : 1 + unsigned(rng() % NREC);
    for (unsigned t = 0; t < take_n && take(true); t++) {
    }
    fw.retire(tb);
  }
  tb.err_pct = 0;
  while (take(true)) {
  }
  fw.drain(tb);
  r.check(bad_rec == 0 && recs_seen > nd / 4 && md.recs.empty(), "wqf-db-records-as-modelled",
          "%u records, %u differ from the model", recs_seen, bad_rec);
  r.check(bad_bytes == 0 && checked > nd / 4, "wqf-db-wqebbs-byte-exact", "%u bad bytes in %u WQEBBs", bad_bytes,
          checked);
  r.check(md.n_page > 3 && md.n_dis > 3 && md.n_bf > 3 && md.n_none > 3, "wqf-db-page-disabled-bf-ignored",
          "wrong page %u, disabled %u, bf_db %u, out of ring %u", md.n_page, md.n_dis, md.n_bf, md.n_none);
  // records full: one-WQEBB doorbells of two QPs in turn (so none extends the record before it)
  // take every record (and the region), one more gets nothing (the model says so too), and
  // after one record is taken it is fetched
  {
    DbQp *fq[2] = {&qps[1], &qps[2]};
    for (DbQp *q : fq) {
      md.fidx[q->qpn] = q->pi;  // the firmware caught up with the producer
      db_set_fidx(tb, q->qpn, q->pi);
    }
    unsigned full0 = md.n_full, seen0 = recs_seen, br = bad_rec, bb = bad_bytes;
    for (unsigned i = 0; i <= NREC; i++) {
      DbQp &f = *fq[i % 2];
      f.pi = (f.pi + 1) & 0xFFFF;
      md.doorbell(f, f.page, false);
      db_ring(tb, f.qpn, f.page, f.pi, false);
      for (int c = 0; c < 8; c++) tb.tick();
    }
    take(true);
    DbQp &f = *fq[NREC % 2];
    f.pi = (f.pi + 1) & 0xFFFF;
    md.doorbell(f, f.page, false);
    db_ring(tb, f.qpn, f.page, f.pi, false);
    while (take(true)) {
    }
    r.check(md.n_full == full0 + 1 && recs_seen == seen0 + NREC + 1 && bad_rec == br && bad_bytes == bb,
            "wqf-db-records-full-then-room", "records %u, bad %u", recs_seen - seen0, bad_rec - br);
  }
  std::printf("# db coverage: ring end %u, region full %u, records full %u, extended %u, out of ring %u\n",
              md.n_ring_end, md.n_free, md.n_full, md.n_ext, md.n_none);
  r.check(md.n_ring_end > 3 && md.n_free > 3, "wqf-db-ring-end-region-full", "ring end %u, region full %u",
          md.n_ring_end, md.n_free);
  // (errors: the bus-error window fails some of the firmware's commands too; they count there)
  unsigned fw_errs = 0;
  bool fw_ok = fw.apart(tb, 20, &fw_errs);
  r.check(fw_ok, "wqf-db-firmware-commands-apart", "%u commands (pending %zu), %u bad bytes, errors %u of %u, issued %u",
          fw.n, fw.q.size(), fw.bad, fw_errs, fw.err_n, fw.issued);
  r.check(err_recs > 0, "wqf-db-bus-error-in-record", "%u records with err", err_recs);

  // A record dropped while its fetch is in flight: the next record reuses its slots and gets its
  // own data; the dropped one's completion marks nothing.
  tb.ready_pct = 0;  // the request waits: the record cannot complete before it is dropped
  DbQp &q = qps[0];
  md.fidx[q.qpn] = q.pi;  // the firmware caught up with the producer
  db_set_fidx(tb, q.qpn, q.pi);
  q.pi = (q.pi + 2) & 0xFFFF;
  md.doorbell(q, q.page, false);
  db_ring(tb, q.qpn, q.page, q.pi, false);
  for (int i = 0; i < 10; i++) tb.tick();
  rnic_st_le32(info, tb.tc_rd(RNIC_FW_TC_WQF_DBR_INFO));
  bool early = rnic_wqf_dbr_info_get_valid(info) && !rnic_wqf_dbr_info_get_done(info);
  tb.tc_wr(RNIC_FW_TC_WQF_DBR_POP, 0);
  md.pop();
  tb.ready_pct = 100;
  q.pi = (q.pi + 1) & 0xFFFF;
  md.doorbell(q, q.page, false);
  db_ring(tb, q.qpn, q.page, q.pi, false);
  unsigned before = recs_seen, bb0 = bad_bytes, br0 = bad_rec;
  while (take(true)) {
  }
  r.check(early && recs_seen == before + 1 && bad_bytes == bb0 && bad_rec == br0, "wqf-db-record-dropped-in-flight",
          "dropped before done %d, records %u, bad bytes %u", early, recs_seen - before, bad_bytes - bb0);

  // A burst: doorbells of one QP on consecutive cycles (some find the doorbell FIFO full and are
  // not fetched for): the records of the QP are contiguous, never overlap, and end at most at the
  // producer; then the firmware catches up with wqf_sq_fidx and one doorbell fetches the rest.
  DbQp &b = qps[1];
  b.pi = md.fidx[b.qpn] = (b.pi + 3) & 0xFFFF;  // the firmware caught up with the producer
  db_set_fidx(tb, b.qpn, b.pi);
  uint32_t start = md.fidx[b.qpn];
  std::vector<DbRec> got;
  for (unsigned i = 0; i < 12; i++) {
    b.pi = (b.pi + 1) & 0xFFFF;
    db_ring(tb, b.qpn, b.page, b.pi, false);
  }
  for (int i = 0; i < 400; i++) tb.tick();
  bool burst_ok = true;
  uint32_t at = start;
  for (;;) {
    rnic_st_le32(info, tb.tc_rd(RNIC_FW_TC_WQF_DBR_INFO));
    if (!rnic_wqf_dbr_info_get_valid(info)) break;
    uint8_t qx[4];
    rnic_st_le32(qx, tb.tc_rd(RNIC_FW_TC_WQF_DBR_QIDX));
    burst_ok &= rnic_wqf_dbr_info_get_done(info) && rnic_wqf_sq_qidx_get_qpn(qx) == b.qpn &&
                rnic_wqf_sq_qidx_get_index(qx) == (at & 0xFFFF);
    at += rnic_wqf_dbr_info_get_bbs(info);
    got.push_back({b.qpn, rnic_wqf_sq_qidx_get_index(qx), rnic_wqf_dbr_info_get_bbs(info), 0});
    tb.tc_wr(RNIC_FW_TC_WQF_DBR_POP, 0);
  }
  md.recs.clear();
  md.dused = 0;
  md.dslot = (md.dslot + (at - start)) % NDB;
  burst_ok &= ((b.pi - at) & 0xFFFF) <= 12 && !got.empty();
  md.fidx[b.qpn] = at & 0xFFFF;
  // a last doorbell fetches whatever is left after the burst (the model takes over)
  b.pi = (b.pi + 1) & 0xFFFF;
  md.doorbell(b, b.page, false);
  db_ring(tb, b.qpn, b.page, b.pi, false);
  unsigned bb1 = bad_bytes, br1 = bad_rec;
  while (take(true)) {
  }
  r.check(burst_ok && !got.empty() && bad_bytes == bb1 && bad_rec == br1, "wqf-db-burst-contiguous",
          "%zu records up to %u of %u", got.size(), at & 0xFFFF, b.pi);

  // Doorbells of one QP while the first one's fetch waits (requests held) grow one record. Where
  // the fetch index stands in the ring is set here, not left to the random stream (a start 5 or
  // fewer WQEBBs before the ring end made the engine stop the third fetch there, as specified,
  // and a check of "6" fail at some seeds). From a place where 1 + 2 + 3 WQEBBs fit: one record
  // of 6, three requests, not done while they wait. From 4 before the ring end: the third stops
  // at the ring end (1 of its 3), and a fourth doorbell's fetch from the ring's start extends the
  // same record (its indices go on across the wrap): one record of 7, four requests.
  // (want: the ring position and WQEBBs of each request, in order)
  auto grow = [&](DbQp &e, unsigned pos, std::vector<unsigned> adds, std::vector<std::pair<unsigned, unsigned>> want,
                  const char *name) {
    unsigned size = 1u << e.log, total = 0;
    for (auto &w : want) total += w.second;
    e.pi = (e.pi + ((pos - e.pi) & (size - 1))) & 0xFFFF;  // the host's next WQEBB at ring position pos
    md.fidx[e.qpn] = e.pi;                                // the firmware caught up with the producer
    db_set_fidx(tb, e.qpn, e.pi);
    for (int i = 0; i < 8; i++) tb.tick();
    uint32_t first = e.pi;
    tb.ready_pct = 0;
    size_t req0 = tb.reqs.size();
    for (unsigned n : adds) {
      e.pi = (e.pi + n) & 0xFFFF;
      md.doorbell(e, e.page, false);
      db_ring(tb, e.qpn, e.page, e.pi, false);
      for (int i = 0; i < 8; i++) tb.tick();
    }
    rnic_st_le32(info, tb.tc_rd(RNIC_FW_TC_WQF_DBR_INFO));
    uint8_t qx[4];
    rnic_st_le32(qx, tb.tc_rd(RNIC_FW_TC_WQF_DBR_QIDX));
    unsigned model_bbs = md.recs.empty() ? 0 : md.recs.front().bbs;
    bool one = md.recs.size() == 1 && md.recs.front().bbs == total && md.recs.front().first == first &&
               rnic_wqf_dbr_info_get_valid(info) && rnic_wqf_dbr_info_get_bbs(info) == total &&
               rnic_wqf_sq_qidx_get_index(qx) == first && !rnic_wqf_dbr_info_get_done(info) &&
               !rnic_wqf_dbr_info_get_more(info);
    tb.ready_pct = 100;
    // done only once the last command completed
    for (int i = 0; i < 20000; i++) {
      rnic_st_le32(info, tb.tc_rd(RNIC_FW_TC_WQF_DBR_INFO));
      if (rnic_wqf_dbr_info_get_done(info)) break;
      tb.tick();
    }
    bool reqs_ok = tb.reqs.size() - req0 == want.size();  // one request per command
    for (size_t i = 0; reqs_ok && i < want.size(); i++)
      reqs_ok = tb.reqs[req0 + i].addr == e.base + uint64_t(want[i].first) * BB && tb.reqs[req0 + i].len == want[i].second * BB;
    unsigned before = recs_seen, bb0 = bad_bytes, br0 = bad_rec;
    take(true);
    r.check(one && reqs_ok && recs_seen == before + 1 && bad_bytes == bb0 && bad_rec == br0, name,
            "ring position %u of %u: one record of %u %d (model %u), requests %zu as expected %d, records %u, bad bytes %u, "
            "bad %u", pos, size, total, int(one), model_bbs, tb.reqs.size() - req0,
            int(reqs_ok), recs_seen - before, bad_bytes - bb0, bad_rec - br0);
  };
  {
    DbQp &e = qps[1];  // a ring of 32 WQEBBs
    unsigned size = 1u << e.log, p = unsigned(rng() % (size - 5));
    grow(e, p, {1, 2, 3}, {{p, 1}, {p + 1, 2}, {p + 3, 3}}, "wqf-db-record-extended");
    grow(e, size - 4, {1, 2, 3, 1}, {{size - 4, 1}, {size - 3, 2}, {size - 1, 1}, {0, 3}},
         "wqf-db-record-extended-across-ring-end");
  }

  // Region full, then the rest: QP A's doorbell of 10 WQEBBs takes 10 of the 16 slots, QP B's of
  // 10 gets the 6 left (a record of 6), B's next doorbell gets nothing (no request, no record),
  // and once A's record is taken B's next doorbell fetches the 6 after its record, extending it
  // to 12. Fixed positions (both fetches fit before their ring ends), exact counts and requests.
  {
    qps.push_back({60, 160, 6, (uint64_t(0x2468A) << 36) + 4 * 0x400000 + (rng() % 256) * 4096, true});
    DbQp &a = qps[1], &b = qps.back();  // rings of 32 and 64 WQEBBs
    b.pi = unsigned(rng() % 65536);
    md.fidx[b.qpn] = b.pi;
    db_program(tb, b, b.pi);
    unsigned pa = unsigned(rng() % 23), pb = unsigned(rng() % 49);
    a.pi = (a.pi + ((pa - a.pi) & 31)) & 0xFFFF;
    b.pi = (b.pi + ((pb - b.pi) & 63)) & 0xFFFF;
    md.fidx[a.qpn] = a.pi;
    md.fidx[b.qpn] = b.pi;
    db_set_fidx(tb, a.qpn, a.pi);
    db_set_fidx(tb, b.qpn, b.pi);
    for (int i = 0; i < 8; i++) tb.tick();
    tb.ready_pct = 100;
    size_t req0 = tb.reqs.size();
    unsigned free0 = md.n_free, before = recs_seen, bb0 = bad_bytes, br0 = bad_rec;
    uint32_t b0 = b.pi;
    auto ring = [&](DbQp &q, unsigned n) {
      q.pi = (q.pi + n) & 0xFFFF;
      md.doorbell(q, q.page, false);
      db_ring(tb, q.qpn, q.page, q.pi, false);
      for (int i = 0; i < 8; i++) tb.tick();
    };
    ring(a, 10);
    ring(b, 10);
    ring(b, 1);
    for (int i = 0; i < 300; i++) tb.tick();
    auto req_is = [&](size_t i, const DbQp &q, uint32_t idx, unsigned bbs) {
      return tb.reqs.size() > req0 + i && tb.reqs[req0 + i].addr == q.base + uint64_t(idx & ((1u << q.log) - 1)) * BB &&
             tb.reqs[req0 + i].len == bbs * BB;
    };
    bool full = md.recs.size() == 2 && md.recs[0].bbs == 10 && md.recs[1].bbs == 6 && md.n_free == free0 + 2 &&
                tb.reqs.size() == req0 + 2 && req_is(0, a, a.pi - 10, 10) && req_is(1, b, b0, 6);
    take(true);  // A's record: its slots are free again
    ring(b, 1);
    for (int i = 0; i < 300; i++) tb.tick();
    bool rest = md.recs.size() == 1 && md.recs[0].first == b0 && md.recs[0].bbs == 12 && tb.reqs.size() == req0 + 3 &&
                req_is(2, b, b0 + 6, 6);
    take(true);
    r.check(full && rest && recs_seen == before + 2 && bad_bytes == bb0 && bad_rec == br0 && md.recs.empty(),
            "wqf-db-region-full-then-rest", "full %d, rest %d, region full %u, requests %zu, records %u, bad bytes %u, bad %u",
            int(full), int(rest), md.n_free - free0, tb.reqs.size() - req0, recs_seen - before, bad_bytes - bb0,
            bad_rec - br0);
  }
}

// ---- rq_db-started fetches ------------------------------------------------------------------
struct RqQp {
  unsigned qpn, page, log, lb;  // ring of 2^log WQEs of 2^lb WQEBBs
  uint64_t base;
  bool en;
  uint32_t pi = 0;
};
struct RqRec { unsigned qpn, first, bbs, slot; };

// The engine's RQ side as the spec describes it: whole WQEs from the fetch index, to the ring end,
// into the receive doorbell region's free slots; records in a FIFO of their own, never extended.
struct RqModel {
  std::vector<uint32_t> fidx = std::vector<uint32_t>(TB_NUM_QPS, 0);
  std::deque<RqRec> recs;
  unsigned rslot = 0, rused = 0;
  uint64_t pushed = 0;                      // rq_db-started fetches stored (one per record)
  unsigned n_page = 0, n_dis = 0, n_none = 0, n_full = 0, n_free = 0, n_ring_end = 0, n_lb1 = 0;
  void doorbell(const RqQp &q, unsigned page) {
    if (!q.en) { n_dis++; return; }
    if (page != q.page) { n_page++; return; }
    uint32_t size = 1u << q.log, f = fidx[q.qpn], n = (q.pi - f) & 0xFFFF;
    if (n == 0 || n > size) { n_none++; return; }
    if (recs.size() == NRREC) { n_full++; return; }
    uint32_t left = size - (f & (size - 1)), free = (NRDB - rused) >> q.lb;
    uint32_t k = std::min({n, left, free});
    if (k < n && k == left) n_ring_end++;
    if (k < n && k == free && k < left) n_free++;
    if (k == 0) return;
    recs.push_back({q.qpn, f, k << q.lb, rslot});
    pushed++;
    n_lb1 += q.lb == 1;
    rslot = (rslot + (k << q.lb)) % NRDB;
    rused += k << q.lb;
    fidx[q.qpn] = (f + k) & 0xFFFF;
  }
  void pop() { rused -= recs.front().bbs; recs.pop_front(); }
};

static void rq_ring(Tb &tb, unsigned qpn, unsigned page, uint32_t pi) { db_ring(tb, qpn, page, pi, false, true); }
static void rq_program(Tb &tb, const RqQp &q, uint32_t fidx) {
  uint8_t g[4] = {0, 0, 0, 0};
  rnic_wqf_rq_ring_set_page(g, q.page);
  rnic_wqf_rq_ring_set_log_size(g, q.log);
  rnic_wqf_rq_ring_set_log_bbs(g, q.lb);
  rnic_wqf_rq_ring_set_en(g, q.en);
  tb.tc_wr(RNIC_FW_TC_WQF_RQ_BASE_LO, uint32_t(q.base));
  tb.tc_wr(RNIC_FW_TC_WQF_RQ_BASE_HI, uint32_t(q.base >> 32));
  tb.tc_wr(RNIC_FW_TC_WQF_RQ_RING, rnic_ld_le32(g));
  tb.tc_wr(RNIC_FW_TC_WQF_RQ_CFG, qidx_word(q.qpn, fidx));
}
static void rq_set_fidx(Tb &tb, unsigned qpn, uint32_t fidx) { tb.tc_wr(RNIC_FW_TC_WQF_RQ_FIDX, qidx_word(qpn, fidx)); }

static void rq_db_tests(TbResults &r, Tb &tb, unsigned doorbells) {
  std::mt19937_64 &rng = tb.rng;
  tb.settle();
  uint8_t info[4], qx[4];
  // whatever the SQ tests left: their records go
  for (unsigned i = 0; i < NREC; i++) tb.tc_wr(RNIC_FW_TC_WQF_DBR_POP, 0);
  // SQs beside the RQs: QPN 5 has both (their entries must not mix), QPN 40 only an SQ
  std::vector<DbQp> sqs;
  sqs.push_back({5, 105, 4, uint64_t(0x3579B) << 36, true});
  sqs.push_back({40, 140, 3, (uint64_t(0x3579B) << 36) + 0x400000, true});
  // RQs: 64- and 128-byte WQEs, rings of 4..64 WQEs, QPNs at the bottom and the top of the RAM
  std::vector<RqQp> rqs;
  rqs.push_back({5, 105, 2u + unsigned(rng() % 5), 1, (uint64_t(0x1357A) << 36) + (rng() % 256) * 4096, true});
  rqs.push_back({1, 101, 2u + unsigned(rng() % 5), 0, (uint64_t(0x1357A) << 36) + 0x400000 + (rng() % 256) * 4096,
                 true});
  rqs.push_back({TB_NUM_QPS - 1, 300, 3, 1, (uint64_t(0x1357A) << 36) + 0x800000, true});
  RqQp roff{20, 120, 3, 0, uint64_t(0x777) << 36, false};  // programmed, disabled
  auto in_ring = [](uint64_t a, uint64_t base, unsigned bytes_log) { return a >= base && a < base + (1ull << bytes_log); };
  tb.gen_of = [&](uint64_t a) -> uint32_t {
    for (auto &q : sqs)
      if (in_ring(a, q.base, 6 + q.log)) return 5;
    for (auto &q : rqs)
      if (in_ring(a, q.base, 6 + q.lb + q.log)) return 6;
    return 7;
  };
  DbModel md;
  RqModel mr;
  for (unsigned q = 0; q < TB_NUM_QPS; q++) rq_program(tb, {q, 0, 0, 0, 0, false}, 0);
  for (auto &q : sqs) {
    q.pi = unsigned(rng() % 65536);
    md.fidx[q.qpn] = q.pi;
    db_program(tb, q, q.pi);
  }
  for (auto &q : rqs) {
    q.pi = unsigned(rng() % 65536);
    mr.fidx[q.qpn] = q.pi;
    rq_program(tb, q, q.pi);
  }
  rq_program(tb, roff, 0);

  // The RQ kind off (wqf_db_ctl bit 1 clear) while the SQs' is on: an rq_db fetches nothing.
  tb.tc_wr(RNIC_FW_TC_WQF_DB_CTL, 1);
  size_t r0 = tb.reqs.size();
  rq_ring(tb, rqs[0].qpn, rqs[0].page, (rqs[0].pi + 1) & 0xFFFF);
  for (int i = 0; i < 50; i++) tb.tick();
  rnic_st_le32(info, tb.tc_rd(RNIC_FW_TC_WQF_RQR_INFO));
  uint8_t sinfo[4];
  rnic_st_le32(sinfo, tb.tc_rd(RNIC_FW_TC_WQF_DBR_INFO));
  r.check(tb.reqs.size() == r0 && !rnic_wqf_dbr_info_get_valid(info) && !rnic_wqf_dbr_info_get_valid(sinfo),
          "wqf-rq-db-off-while-its-bit-clear", "requests %zu, rq info 0x%x, sq info 0x%x", tb.reqs.size() - r0,
          rnic_ld_le32(info), rnic_ld_le32(sinfo));
  tb.tc_wr(RNIC_FW_TC_WQF_DB_CTL, 3);

  unsigned rrecs = 0, rbad_rec = 0, rbad = 0, rchecked = 0, rerr = 0, srecs = 0, sbad_rec = 0, sbad = 0;
  FwCmds fw(tb, true);  // the firmware's own, into the receive region
  uint64_t fw_base = uint64_t(0x2468B) << 36;

  auto take_rq = [&](bool wait) -> bool {
    if (mr.recs.empty()) return false;
    for (int i = 0; i < 20000; i++) {
      rnic_st_le32(info, tb.tc_rd(RNIC_FW_TC_WQF_RQR_INFO));
      if (rnic_wqf_dbr_info_get_done(info) || !wait) break;
      tb.tick();
    }
    if (!rnic_wqf_dbr_info_get_done(info)) return false;
    rnic_st_le32(qx, tb.tc_rd(RNIC_FW_TC_WQF_RQR_QIDX));
    RqRec e = mr.recs.front();
    if (!rnic_wqf_dbr_info_get_valid(info) || rnic_wqf_sq_qidx_get_qpn(qx) != e.qpn ||
        rnic_wqf_sq_qidx_get_index(qx) != (e.first & 0xFFFF) || rnic_wqf_dbr_info_get_bbs(info) != e.bbs ||
        rnic_wqf_dbr_info_get_more(info) != (mr.recs.size() > 1) || rnic_wqf_dbr_info_get_slot(info) != e.slot) {
      if (!rbad_rec)
        std::printf("# rq record: qpn %u first %u bbs %u slot %u more %u, expected %u %u %u %u %d\n",
                    rnic_wqf_sq_qidx_get_qpn(qx), rnic_wqf_sq_qidx_get_index(qx), rnic_wqf_dbr_info_get_bbs(info),
                    rnic_wqf_dbr_info_get_slot(info), rnic_wqf_dbr_info_get_more(info), e.qpn, e.first, e.bbs, e.slot,
                    mr.recs.size() > 1);
      rbad_rec++;
    } else if (rnic_wqf_dbr_info_get_err(info)) {
      rerr++;
    } else {
      const RqQp *q = nullptr;
      for (auto &x : rqs) if (x.qpn == e.qpn) q = &x;
      unsigned per = 1u << q->lb;
      for (unsigned k = 0; k < e.bbs; k++) {
        unsigned wqe = (e.first + k / per) & ((1u << q->log) - 1);
        uint64_t a = q->base + (uint64_t(wqe) << (6 + q->lb)) + uint64_t(k % per) * BB;
        rbad += wqebb_bad_bytes(tb, RNIC_FW_TC_WQF_RDB_BUF_BASE + ((e.slot + k) % NRDB) * BB, a, 6);
        rchecked++;
      }
    }
    tb.tc_wr(RNIC_FW_TC_WQF_RQR_POP, 0);
    mr.pop();
    rrecs++;
    return true;
  };
  int sq_slot_off = -1;
  auto take_sq = [&]() -> bool {
    if (md.recs.empty()) return false;
    for (int i = 0; i < 20000; i++) {
      rnic_st_le32(info, tb.tc_rd(RNIC_FW_TC_WQF_DBR_INFO));
      if (rnic_wqf_dbr_info_get_done(info)) break;
      tb.tick();
    }
    rnic_st_le32(qx, tb.tc_rd(RNIC_FW_TC_WQF_DBR_QIDX));
    DbRec e = md.recs.front();
    // the doorbell region's allocation goes on from where the SQ tests left it: learnt once
    if (sq_slot_off < 0) sq_slot_off = int((rnic_wqf_dbr_info_get_slot(info) + NDB - e.slot) % NDB);
    e.slot = (e.slot + unsigned(sq_slot_off)) % NDB;
    if (!rnic_wqf_dbr_info_get_valid(info) || rnic_wqf_sq_qidx_get_qpn(qx) != e.qpn ||
        rnic_wqf_sq_qidx_get_index(qx) != (e.first & 0xFFFF) || rnic_wqf_dbr_info_get_bbs(info) != e.bbs ||
        rnic_wqf_dbr_info_get_slot(info) != e.slot) {
      if (!sbad_rec)
        std::printf("# sq record: qpn %u first %u bbs %u slot %u, expected %u %u %u %u\n", rnic_wqf_sq_qidx_get_qpn(qx),
                    rnic_wqf_sq_qidx_get_index(qx), rnic_wqf_dbr_info_get_bbs(info), rnic_wqf_dbr_info_get_slot(info),
                    e.qpn, e.first, e.bbs, e.slot);
      sbad_rec++;
    } else if (!rnic_wqf_dbr_info_get_err(info)) {
      const DbQp *q = nullptr;
      for (auto &x : sqs) if (x.qpn == e.qpn) q = &x;
      for (unsigned k = 0; k < e.bbs; k++) {
        uint64_t a = q->base + uint64_t((e.first + k) & ((1u << q->log) - 1)) * BB;
        sbad += wqebb_bad_bytes(tb, RNIC_FW_TC_WQF_DB_BUF_BASE + ((e.slot + k) % NDB) * BB, a, 5);
      }
    }
    tb.tc_wr(RNIC_FW_TC_WQF_DBR_POP, 0);
    md.pop();
    srecs++;
    return true;
  };

  unsigned nd = std::max(300u, doorbells / 2);
  for (unsigned d = 0; d < nd; d++) {
    tb.err_pct = (d >= nd / 2 && d < nd / 2 + 80) ? 40 : 0;
    tb.ready_pct = (d / 100) % 2 ? 30 : 90;
    unsigned pick = unsigned(rng() % 100);
    if (pick < 4) {  // the disabled RQ
      roff.pi = (roff.pi + 1) & 0xFFFF;
      mr.doorbell(roff, roff.page);
      rq_ring(tb, roff.qpn, roff.page, roff.pi);
    } else if (pick < 30) {  // an SQ's doorbell between the RQs'
      DbQp &q = sqs[rng() % sqs.size()];
      q.pi = (q.pi + 1 + unsigned(rng() % 4)) & 0xFFFF;
      md.doorbell(q, q.page, false);
      db_ring(tb, q.qpn, q.page, q.pi, false);
    } else {
      RqQp &q = rqs[rng() % rqs.size()];
      unsigned size = 1u << q.log;
      if (pick < 34) {  // more than a ring: ignored, the host's producer stays
        RqQp t = q;
        t.pi = (q.pi + size + 1) & 0xFFFF;
        mr.doorbell(t, t.page);
        rq_ring(tb, t.qpn, t.page, t.pi);
      } else {
        unsigned n = rng() % 3 == 0 ? 1u : 1u + unsigned(rng() % std::min(size, 10u));
        n = std::min(n, host_room(tb, rq_set_fidx, q.qpn, q.pi, mr.fidx[q.qpn], size));
        unsigned page = pick < 38 ? q.page + 1 : q.page;
        q.pi = (q.pi + n) & 0xFFFF;
        mr.doorbell(q, page);
        rq_ring(tb, q.qpn, page, q.pi);
        if (pick >= 38 && pick < 42) {  // the firmware fetched up to the producer itself
          for (int i = 0; i < 8; i++) tb.tick();
          mr.fidx[q.qpn] = q.pi;
          rq_set_fidx(tb, q.qpn, q.pi);
        }
      }
    }
    for (int i = 0; i < 8; i++) tb.tick();
    unsigned bbs = 1 + unsigned(rng() % 3);
    if (rng() % 3 == 0) fw.maybe_issue(tb, fw_base + (rng() % 64) * BB, bbs);
    // records at the firmware's pace; sometimes none for a while, so the RQ records fill up
    unsigned tn = (d / 40) % 4 == 3 ? 0 : rng() % 3 == 0 ? 0 : 1 + unsigned(rng() % NRREC);
    for (unsigned t = 0; t < tn && take_rq(true); t++) {
    }
    if (rng() % 2) while (take_sq()) {
    }
    fw.retire(tb);
  }
  tb.err_pct = 0;
  while (take_rq(true)) {
  }
  while (take_sq()) {
  }
  fw.drain(tb);
  rnic_st_le32(info, tb.tc_rd(RNIC_FW_TC_WQF_RQR_INFO));
  r.check(rbad_rec == 0 && rrecs > nd / 8 && mr.recs.empty() && !rnic_wqf_dbr_info_get_valid(info),
          "wqf-rq-db-records-as-modelled", "%u records, %u differ from the model, %zu left, info 0x%x", rrecs, rbad_rec,
          mr.recs.size(), rnic_ld_le32(info));
  r.check(rbad == 0 && rchecked > nd / 4 && mr.n_lb1 > 10, "wqf-rq-db-wqebbs-byte-exact",
          "%u bad bytes in %u WQEBBs (%u records of 128-byte WQEs)", rbad, rchecked, mr.n_lb1);
  r.check(sbad_rec == 0 && sbad == 0 && srecs > nd / 10 && md.recs.empty(), "wqf-rq-db-sq-records-beside",
          "%u SQ records, %u differ, %u bad bytes", srecs, sbad_rec, sbad);
  r.check(mr.n_page > 3 && mr.n_dis > 3 && mr.n_none > 3 && mr.n_free > 3 && mr.n_ring_end > 3,
          "wqf-rq-db-ignored-region-full-ring-end", "wrong page %u, disabled %u, beyond the ring %u, region full %u, "
          "ring end %u", mr.n_page, mr.n_dis, mr.n_none, mr.n_free, mr.n_ring_end);
  // Records full: single-WQE doorbells of the 64-byte RQ take every record (8 records of one
  // WQEBB fill the region too); one more gets nothing, and after a record is taken it is fetched.
  {
    RqQp &q = rqs[1];
    tb.ready_pct = 100;  // every request accepted at once: they are counted below
    mr.fidx[q.qpn] = q.pi;  // the firmware caught up with the producer
    rq_set_fidx(tb, q.qpn, q.pi);
    for (int i = 0; i < 8; i++) tb.tick();
    unsigned full0 = mr.n_full, seen0 = rrecs, br = rbad_rec, bb = rbad;
    size_t req0 = tb.reqs.size();
    for (unsigned i = 0; i <= NRREC; i++) {
      q.pi = (q.pi + 1) & 0xFFFF;
      mr.doorbell(q, q.page);
      rq_ring(tb, q.qpn, q.page, q.pi);
      for (int c = 0; c < 8; c++) tb.tick();
    }
    for (int c = 0; c < 200; c++) tb.tick();
    bool nine_none = mr.recs.size() == NRREC && tb.reqs.size() == req0 + NRREC;
    take_rq(true);
    // the next doorbell announces two WQEs since the full one; the one slot taking a record freed
    // holds the first (a record of one WQEBB, the engine's compared with it below)
    q.pi = (q.pi + 1) & 0xFFFF;
    mr.doorbell(q, q.page);
    rq_ring(tb, q.qpn, q.page, q.pi);
    for (int c = 0; c < 8; c++) tb.tick();
    bool one_slot = mr.recs.size() == NRREC && mr.recs.back().bbs == 1;
    while (take_rq(true)) {
    }
    r.check(nine_none && one_slot && mr.n_full == full0 + 1 && rrecs == seen0 + NRREC + 1 && rbad_rec == br && rbad == bb,
            "wqf-rq-db-records-full-then-room", "records %u, full %u, requests %zu, bad %u, last %d",
            rrecs - seen0, mr.n_full - full0, tb.reqs.size() - req0, rbad_rec - br, int(one_slot));
  }
  r.check(rerr > 0, "wqf-rq-db-bus-error-in-record", "%u records with err", rerr);
  unsigned fw_errs = 0;
  bool fw_ok = fw.apart(tb, 20, &fw_errs);
  r.check(fw_ok, "wqf-rq-db-firmware-commands-apart", "%u commands (pending %zu), %u bad bytes, errors %u of %u",
          fw.n, fw.q.size(), fw.bad, fw_errs, fw.err_n);
}

// ---- the receive feed ------------------------------------------------------------------------
// An RQ as the feed test's firmware model keeps it: the host's producer, the next position to hand
// to the receive engine, the buffers the engine holds (positions, oldest first).
// The host address of RQ q's WQE at position p, and the rq_desc the firmware builds of it (host
// bytes from hbyte).
static uint64_t rq_wqe_addr(const RqQp &q, uint32_t p) {
  return q.base + (uint64_t(p & ((1u << q.log) - 1)) << (6 + q.lb));
}
static std::vector<uint8_t> rq_desc_of(const RqQp &q, uint32_t p, const std::function<uint8_t(uint64_t)> &hbyte) {
  std::vector<uint8_t> d(RNIC_RQ_DESC_SIZE, 0);
  uint64_t a = rq_wqe_addr(q, p);
  unsigned n = hbyte(a + 8);
  rnic_st_le32(d.data() + RNIC_RQ_DESC_QPN_OFF, q.qpn);
  d[RNIC_RQ_DESC_NUM_SGE_OFF] = uint8_t(n);
  for (unsigned b = 0; b < 8; b++) d[RNIC_RQ_DESC_WR_ID_OFF + b] = hbyte(a + b);
  for (unsigned i = 0; i < std::min(n, unsigned(RNIC_MAX_SGE)); i++)
    for (unsigned b = 0; b < RNIC_WQE_SGE_SIZE; b++)
      d[RNIC_RQ_DESC_SGE0_ADDR_OFF + i * RNIC_WQE_SGE_SIZE + b] = hbyte(a + RNIC_RQ_WQE_SIZE + i * RNIC_WQE_SGE_SIZE + b);
  return d;
}

struct FeedQp {
  RqQp q;
  uint32_t pos = 0;
  std::deque<uint32_t> held;
};
static constexpr unsigned FEED_SLOTS = 8;  // the QP table's receive slots per QP (hw_caps.rq_slots)

// num_sge of the WQE at a (a stride-aligned address): 0..4 mostly, 7 now and then (more than any
// rq_desc holds: the feed stops there)
static int feed_nsge(uint64_t a) {
  uint64_t x = (a * 0x9E3779B97F4A7C15ull) >> 32;
  return x % 23 == 0 ? 7 : int(x % 5);
}

static void feed_tests(TbResults &r, Tb &tb, unsigned steps) {
  std::mt19937_64 &rng = tb.rng;
  tb.settle();
  for (unsigned i = 0; i < NRREC; i++) tb.tc_wr(RNIC_FW_TC_WQF_RQR_POP, 0);  // what the RQ tests left
  std::vector<FeedQp> fq(3);
  fq[0].q = {7, 207, 4, 1, (uint64_t(0x2468A) << 36) + (rng() % 256) * 4096, true};
  fq[1].q = {9, 209, 3, 0, (uint64_t(0x2468A) << 36) + 0x400000 + (rng() % 256) * 4096, true};
  fq[2].q = {TB_NUM_QPS - 2, 300, 5, 1, (uint64_t(0x2468A) << 36) + 0x800000, true};
  auto ring_bytes = [](const RqQp &q) { return uint64_t(1) << (6 + q.lb + q.log); };
  tb.gen_of = [](uint64_t) -> uint32_t { return 6; };
  std::set<uint64_t> nsge7;  // WQEs written with 7 SGEs on purpose (below)
  tb.byte_ovr = [&](uint64_t a) -> int {
    if (nsge7.count(a - 8)) return 7;
    for (auto &f : fq)
      if (a >= f.q.base && a < f.q.base + ring_bytes(f.q) && ((a - f.q.base) & ((64u << f.q.lb) - 1)) == 8)
        return feed_nsge(a - 8);
    return -1;
  };
  RqModel mr;
  // Every completion of this phase is an rq_db-started fetch's. The engine takes no doorbell while
  // RNIC_FW_TC_WQF_RDB_NUM of those are in flight (records popped or not), which the model does
  // not time: a doorbell waits until one completed, so the model's records stay the engine's
  // (session 22's registered merge moved the bench's pace at 64 bits onto that limit: records the
  // model lacked, commands stopping where it saw none).
  const uint64_t cpl0 = tb.cpls;
  unsigned n_inflight_wait = 0;
  auto ring = [&](RqQp &q) {
    bool waited = false;
    for (int c = 0; c < 100000 && mr.pushed - (tb.cpls - cpl0) >= NRREC; c++) tb.tick(), waited = true;
    n_inflight_wait += waited;
    mr.doorbell(q, q.page);
    rq_ring(tb, q.qpn, q.page, q.pi);
  };
  for (auto &f : fq) {
    f.q.pi = f.pos = unsigned(rng() % 65536);
    mr.fidx[f.q.qpn] = f.q.pi;
    rq_program(tb, f.q, f.q.pi);
  }
  tb.tc_wr(RNIC_FW_TC_WQF_DB_CTL, 2);
  tb.rqf_on = true;
  tb.rqd_out.clear();

  auto wqe_addr = rq_wqe_addr;
  auto hbyte = [&](uint64_t a) {
    int o = tb.byte_ovr(a);
    return o >= 0 ? uint8_t(o) : host_byte(a, 6);
  };
  auto desc_of = [&](const RqQp &q, uint32_t p) { return rq_desc_of(q, p, hbyte); };
  std::vector<std::vector<uint8_t>> expect;
  unsigned bad_cmd = 0, n_cmd = 0, n_stop[4] = {0, 0, 0, 0}, n_other = 0, n_passed = 0, n_wrap = 0, n_fw = 0;
  unsigned n_handed = 0, n_pend = 0, max_held = 0, n_rec_bad = 0;
  bool slot_known = false;
  unsigned last_polls = 0;
  bool present = true;

  // one feed command for f (count want), checked against the model; then the firmware's fallback
  auto feed = [&](FeedQp &f, unsigned want, int err_rec) {
    unsigned sge_max = f.q.lb == 0 ? 3 : RNIC_MAX_SGE;
    // the engine's oldest RQ record is the model's (a record gained or lost shows here, at the
    // command after it, not hundreds of commands later as a stop the model cannot explain)
    {
      uint8_t ri[4], rx[4];
      rnic_st_le32(ri, tb.tc_rd(RNIC_FW_TC_WQF_RQR_INFO));
      rnic_st_le32(rx, tb.tc_rd(RNIC_FW_TC_WQF_RQR_QIDX));
      bool same = (rnic_wqf_dbr_info_get_valid(ri) != 0) == !mr.recs.empty();
      if (same && !mr.recs.empty() && !slot_known) {
        // the region's next slot is where the RQ tests left it: the model's slots move by the
        // engine's first (from then on they are exact, so are the wraps counted below)
        unsigned off = (rnic_wqf_dbr_info_get_slot(ri) + NRDB - mr.recs.front().slot) % NRDB;
        for (auto &h : mr.recs) h.slot = (h.slot + off) % NRDB;
        mr.rslot = (mr.rslot + off) % NRDB;
        slot_known = true;
      }
      if (same && !mr.recs.empty()) {
        const RqRec &h = mr.recs.front();
        same = rnic_wqf_sq_qidx_get_qpn(rx) == h.qpn && rnic_wqf_sq_qidx_get_index(rx) == h.first &&
               rnic_wqf_dbr_info_get_bbs(ri) == h.bbs && rnic_wqf_dbr_info_get_slot(ri) == h.slot &&
               (rnic_wqf_dbr_info_get_more(ri) != 0) == (mr.recs.size() > 1);
      }
      if (!same && !n_rec_bad)
        std::printf("# before feed command %u (cycle %llu): the engine's oldest RQ record (valid %u qpn %u index %u "
                    "bbs %u slot %u more %u) is not the model's (%zu records: qpn %u index %u bbs %u slot %u)\n",
                    n_cmd, (unsigned long long)tb.cycle, rnic_wqf_dbr_info_get_valid(ri), rnic_wqf_sq_qidx_get_qpn(rx),
                    rnic_wqf_sq_qidx_get_index(rx), rnic_wqf_dbr_info_get_bbs(ri), rnic_wqf_dbr_info_get_slot(ri),
                    rnic_wqf_dbr_info_get_more(ri), mr.recs.size(), mr.recs.empty() ? 0 : mr.recs.front().qpn,
                    mr.recs.empty() ? 0 : mr.recs.front().first, mr.recs.empty() ? 0 : mr.recs.front().bbs,
                    mr.recs.empty() ? 0 : mr.recs.front().slot);
      n_rec_bad += !same;
    }
    // the model: the firmware's record rules
    unsigned hand = 0, stop = 0;
    uint32_t p = f.pos;
    while (hand < want) {
      if (mr.recs.empty()) { stop = 1; break; }
      RqRec h = mr.recs.front();
      unsigned n = h.bbs >> f.q.lb;
      if (h.qpn == f.q.qpn && ((p - h.first) & 0xFFFF) < n) {
        if (err_rec) { stop = 2; break; }
        unsigned d = (p - h.first) & 0xFFFF;
        if ((h.slot + (d << f.q.lb)) % NRDB + (1u << f.q.lb) > NRDB) n_wrap++;
        if (unsigned(hbyte(wqe_addr(f.q, p) + 8)) > sge_max) { stop = 3; break; }
        expect.push_back(desc_of(f.q, p));
        p = (p + 1) & 0xFFFF;
        hand++;
        if (d + 1 == n) mr.pop();
      } else if (h.qpn == f.q.qpn && ((h.first - p) & 0xFFFF) < 0x8000) {
        stop = 1;
        break;
      } else {
        (h.qpn == f.q.qpn ? n_passed : n_other)++;
        mr.pop();
      }
    }
    uint8_t arg[4] = {0, 0, 0, 0};
    rnic_wqf_rqf_arg_set_count(arg, want);
    rnic_wqf_rqf_arg_set_log_bbs(arg, f.q.lb);
    rnic_wqf_rqf_arg_set_sge_max(arg, sge_max);
    tb.tc_wr(RNIC_FW_TC_WQF_RQF_ARG, rnic_ld_le32(arg));
    tb.tc_wr(RNIC_FW_TC_WQF_RQF_CMD, qidx_word(f.q.qpn, f.pos));
    uint8_t st[4];
    unsigned polls = 0;
    do {
      rnic_st_le32(st, tb.tc_rd(RNIC_FW_TC_WQF_RQF_STATUS));
    } while (rnic_wqf_rqf_status_get_busy(st) && ++polls < 20000);
    n_pend += polls > 12;
    last_polls = polls;
    present &= rnic_wqf_rqf_status_get_present(st) != 0;
    n_cmd++;
    if (rnic_wqf_rqf_status_get_handed(st) != hand || rnic_wqf_rqf_status_get_stop(st) != stop) {
      if (!bad_cmd)
        std::printf("# feed qpn %u pos %u want %u: handed %u stop %u, expected %u %u\n", f.q.qpn, f.pos, want,
                    rnic_wqf_rqf_status_get_handed(st), rnic_wqf_rqf_status_get_stop(st), hand, stop);
      bad_cmd++;
    }
    n_stop[stop]++;
    n_handed += hand;
    for (unsigned k = 0; k < hand; k++) f.held.push_back((f.pos + k) & 0xFFFF);
    f.pos = p;
    if (stop == 0 || f.pos == f.q.pi) return;
    // the firmware's fallback at the position the feed stopped at
    if (stop == 2) tb.tc_wr(RNIC_FW_TC_WQF_RQR_POP, 0), mr.pop();  // (its own fetch reports the fault)
    if (stop == 3) {  // completed LOC_LEN_ERR in order: no buffer for it
      f.pos = (f.pos + 1) & 0xFFFF;
    } else {  // no record (or a failed one): what is posted is fetched and handed by the firmware
      while (f.held.size() < FEED_SLOTS && f.pos != f.q.pi) {
        while (!tb.fw_rqd_q.empty()) tb.tick();  // (its mailbox's busy check)
        if (unsigned(hbyte(wqe_addr(f.q, f.pos) + 8)) <= sge_max) {
          std::vector<uint8_t> d = desc_of(f.q, f.pos);
          expect.push_back(d);
          tb.fw_rqd_q.push_back(d);
          f.held.push_back(f.pos);
          n_fw++;
        }
        f.pos = (f.pos + 1) & 0xFFFF;
      }
    }
    // the engine's fetch index moves past what the firmware took (when it is behind)
    if (((f.pos - mr.fidx[f.q.qpn]) & 0xFFFF) - 1 < 0x8000) {
      mr.fidx[f.q.qpn] = f.pos;
      rq_set_fidx(tb, f.q.qpn, f.pos);
    }
  };

  // the firmware refills: the free slots, no more than posted
  auto refill = [&](FeedQp &f) {
    unsigned want = std::min<unsigned>(FEED_SLOTS - unsigned(f.held.size()), (f.q.pi - f.pos) & 0xFFFF);
    if (want) feed(f, want, 0);
  };
  // as the firmware's passes: an RQ doorbell and a receive completion refill that QP (mostly), a
  // QP's slots may also wait and be refilled later (its records then stand in other QPs' way)
  for (unsigned i = 0; i < steps; i++) {
    FeedQp &f = fq[rng() % fq.size()];
    uint32_t size = 1u << f.q.log;
    unsigned act = unsigned(rng() % 10);
    if (i % 64 == 0) tb.qpt_ready_pct = 10 + unsigned(rng() % 91);  // the QP table busy with packets, or not
    if (act < 4) {  // the host posts 1..4 and rings (no more than the ring holds past the oldest held)
      uint32_t oldest = f.held.empty() ? f.pos : f.held.front();
      unsigned room = size - ((f.q.pi - oldest) & 0xFFFF);
      unsigned k = std::min<unsigned>(room, 1 + unsigned(rng() % 4));
      if (!k) continue;
      f.q.pi = (f.q.pi + k) & 0xFFFF;
      if (rng() % 8) {  // (now and then a post whose doorbell is lost: no record, the firmware fetches)
        ring(f.q);
      }
      for (int c = 0; c < 8; c++) tb.tick();
      if (rng() % 5) refill(f);
    } else if (act < 8) {  // the receive engine consumes the oldest buffer
      if (!f.held.empty()) f.held.pop_front();
      if (rng() % 5) refill(f);
    } else {
      refill(f);
    }
    max_held = std::max<unsigned>(max_held, unsigned(f.held.size()));
  }
  // everything posted taken and the records gone: the engine fetches f's WQEs from its producer on
  auto settle = [&](FeedQp &f) {
    while (!mr.recs.empty()) tb.tc_wr(RNIC_FW_TC_WQF_RQR_POP, 0), mr.pop();
    f.held.clear();
    f.pos = f.q.pi;
    mr.fidx[f.q.qpn] = f.q.pi;
    rq_set_fidx(tb, f.q.qpn, f.q.pi);
    for (int c = 0; c < 8; c++) tb.tick();
  };
  // WQEs across the receive doorbell region's end, whatever the random stream left: one-WQEBB
  // records of the 64-byte RQ move the region's next slot to the last, then a 128-byte WQE there
  for (int t = 0; t < 3; t++) {
    FeedQp &a = fq[0], &b = fq[1];
    settle(a);
    settle(b);
    while (mr.rslot != NRDB - 1) {
      b.q.pi = (b.q.pi + 1) & 0xFFFF;
      ring(b.q);
      for (int c = 0; c < 100; c++) tb.tick();
      settle(b);
    }
    a.q.pi = (a.q.pi + 1) & 0xFFFF;
    ring(a.q);
    for (int c = 0; c < 100; c++) tb.tick();
    feed(a, 1, 0);
  }
  // The cases the random stream may leave out, each made on purpose (settled QPs: no records, no
  // buffers held). sge_bad: the WQE at p names more SGEs than the feed may hand.
  auto sge_bad = [&](const FeedQp &f, uint32_t p) {
    return unsigned(hbyte(wqe_addr(f.q, p) + 8)) > (f.q.lb == 0 ? 3u : unsigned(RNIC_MAX_SGE));
  };
  // the QP at a position from which the next n WQEs are all ones the feed hands
  auto good_run = [&](FeedQp &f, unsigned n) {
    settle(f);
    for (unsigned i = 0; i < (1u << f.q.log); i++) {
      bool ok = true;
      for (unsigned k = 0; k < n; k++) ok &= !sge_bad(f, (f.q.pi + k) & 0xFFFF);
      if (ok) break;
      f.q.pi = (f.q.pi + 1) & 0xFFFF;
    }
    settle(f);
  };
  // the firmware hands the WQE at f.pos itself (its mailbox's busy check first)
  auto fw_hand = [&](FeedQp &f) {
    while (!tb.fw_rqd_q.empty()) tb.tick();
    std::vector<uint8_t> d = desc_of(f.q, f.pos);
    expect.push_back(d);
    tb.fw_rqd_q.push_back(d);
    f.held.push_back(f.pos);
    f.pos = (f.pos + 1) & 0xFFFF;
    n_fw++;
  };
  // The merge's order across its register, the QP table's port held meanwhile. (1) Two WQEs whose
  // doorbell was lost, handed by the firmware: the first goes into the register, the second waits
  // in the mailbox while the feed's next WQE is ready; the mailbox's is older and goes first.
  // (2) The feed's WQE left in the register when its command ended, then the firmware's next
  // descriptor: the feed's goes first. The byte-exact order check below tells.
  unsigned n_mb_first = 0, fed0 = n_handed;
  // (the QPs of 128-byte WQEs: a run of good ones is all but certain in their rings)
  for (int t = 0; t < 2; t++) {
    FeedQp &f = fq[2 * t];
    good_run(f, 4);
    tb.stall = 3000;
    f.q.pi = (f.q.pi + 2) & 0xFFFF;
    fw_hand(f);
    fw_hand(f);
    mr.fidx[f.q.qpn] = f.pos;
    rq_set_fidx(tb, f.q.qpn, f.pos);
    for (int c = 0; c < 8; c++) tb.tick();  // (a store for the QP drops an evaluation of its doorbell)
    f.q.pi = (f.q.pi + 1) & 0xFFFF;
    ring(f.q);
    for (int c = 0; c < 1000; c++) {  // the record's fetch done: the feed's WQE is ready at once
      uint8_t ri[4];
      rnic_st_le32(ri, tb.tc_rd(RNIC_FW_TC_WQF_RQR_INFO));
      if (rnic_wqf_dbr_info_get_done(ri)) break;
    }
    bool mb_waits = !tb.fw_rqd_q.empty() && tb.stall != 0;
    tb.stall = RNIC_FW_TC_WQF_RQF_YIELD / 2;  // (held less long than the feed waits for the port)
    feed(f, 1, 0);
    n_mb_first += mb_waits && last_polls > 20;
    // (the register empty first: the feed's WQE goes into it at once, however long the port is
    // held, rather than waiting past the feed's yield behind one the port has not taken yet)
    for (int c = 0; c < 1000 && tb.m.rqd_valid_o; c++) tb.tick();
    tb.stall = 300;
    f.q.pi = (f.q.pi + 1) & 0xFFFF;
    ring(f.q);
    for (int c = 0; c < 8; c++) tb.tick();
    feed(f, 1, 0);
    f.q.pi = (f.q.pi + 1) & 0xFFFF;
    fw_hand(f);
    mr.fidx[f.q.qpn] = f.pos;
    rq_set_fidx(tb, f.q.qpn, f.pos);
    for (int c = 0; c < 400; c++) tb.tick();
  }
  // The QP table's port held past wqf_rqf_yield cycles with the register full (the receive engine
  // holds it while it waits for the event ring the firmware drains: a firmware waiting for the
  // command deadlocked, session 23's test-fuzz stall): the command ends without handing the WQE
  // (stop 0, handed 0, the port still held), its record stays, and a later command hands it once
  // (the byte-exact order check below tells a WQE handed twice or lost).
  unsigned n_yield = 0, yield_cycles = 0;
  for (int t = 0; t < 2; t++) {
    FeedQp &f = fq[2 * t];
    good_run(f, 2);
    tb.stall = 8 * RNIC_FW_TC_WQF_RQF_YIELD;
    f.q.pi = (f.q.pi + 1) & 0xFFFF;
    fw_hand(f);  // into the register, which the held port keeps full
    mr.fidx[f.q.qpn] = f.pos;
    rq_set_fidx(tb, f.q.qpn, f.pos);
    for (int c = 0; c < 8; c++) tb.tick();
    f.q.pi = (f.q.pi + 1) & 0xFFFF;
    ring(f.q);
    for (int c = 0; c < 1000; c++) {
      uint8_t ri[4];
      rnic_st_le32(ri, tb.tc_rd(RNIC_FW_TC_WQF_RQR_INFO));
      if (rnic_wqf_dbr_info_get_done(ri)) break;
    }
    uint8_t arg[4] = {0, 0, 0, 0}, st[4];
    rnic_wqf_rqf_arg_set_count(arg, 1);
    rnic_wqf_rqf_arg_set_log_bbs(arg, f.q.lb);
    rnic_wqf_rqf_arg_set_sge_max(arg, f.q.lb == 0 ? 3 : RNIC_MAX_SGE);
    tb.tc_wr(RNIC_FW_TC_WQF_RQF_ARG, rnic_ld_le32(arg));
    uint64_t c0 = tb.cycle;
    tb.tc_wr(RNIC_FW_TC_WQF_RQF_CMD, qidx_word(f.q.qpn, f.pos));
    unsigned polls = 0;
    do {
      rnic_st_le32(st, tb.tc_rd(RNIC_FW_TC_WQF_RQF_STATUS));
    } while (rnic_wqf_rqf_status_get_busy(st) && ++polls < 20000);
    yield_cycles = unsigned(tb.cycle - c0);
    n_yield += rnic_wqf_rqf_status_get_handed(st) == 0 && rnic_wqf_rqf_status_get_stop(st) == 0 &&
               !rnic_wqf_rqf_status_get_busy(st) && tb.stall != 0 && yield_cycles >= RNIC_FW_TC_WQF_RQF_YIELD &&
               yield_cycles < RNIC_FW_TC_WQF_RQF_YIELD + 64;
    while (tb.stall) tb.tick();
    feed(f, 1, 0);  // the record still holds it: handed now
  }
  // A record of positions the firmware handed itself is passed and removed: two WQEs rung, handed
  // by the firmware, then one more rung and fed (the head record is behind the position).
  for (int t = 0; t < 4; t++) {
    FeedQp &f = fq[2 * (t % 2)];
    good_run(f, 3);
    f.q.pi = (f.q.pi + 2) & 0xFFFF;
    ring(f.q);
    for (int c = 0; c < 8; c++) tb.tick();
    fw_hand(f);
    fw_hand(f);
    f.q.pi = (f.q.pi + 1) & 0xFFFF;
    ring(f.q);
    for (int c = 0; c < 8; c++) tb.tick();
    refill(f);
  }
  // A WQE naming more SGEs than the feed may hand: the host writes one with 7 at the next
  // position of each QP, twice (those addresses keep it from then on)
  for (int t = 0; t < 6; t++) {
    FeedQp &f = fq[t % 3];
    settle(f);
    nsge7.insert(wqe_addr(f.q, f.q.pi));
    f.q.pi = (f.q.pi + 1) & 0xFFFF;
    ring(f.q);
    for (int c = 0; c < 8; c++) tb.tick();
    refill(f);
  }
  // a record whose fetch failed: the feed stops there, the firmware removes it and hands the WQE
  unsigned err_stops = n_stop[2];
  for (int t = 0; t < 4; t++) {
    FeedQp &f = fq[t % 2];
    while (!f.held.empty()) f.held.pop_front();
    refill(f);  // what is posted goes first
    settle(f);
    tb.err_pct = 100;
    f.q.pi = (f.q.pi + 1) & 0xFFFF;
    ring(f.q);
    for (int c = 0; c < 300; c++) tb.tick();
    tb.err_pct = 0;
    feed(f, 1, 1);
  }
  for (int c = 0; c < 2000 && !tb.fw_rqd_q.empty(); c++) tb.tick();
  for (int c = 0; c < 50; c++) tb.tick();
  unsigned bad_bytes = 0, first_bad = ~0u;
  for (size_t k = 0; k < std::max(expect.size(), tb.rqd_out.size()); k++) {
    if (k >= expect.size() || k >= tb.rqd_out.size()) { bad_bytes += Tb::DESC; continue; }
    for (unsigned b = 0; b < Tb::DESC; b++)
      if (expect[k][b] != tb.rqd_out[k][b]) bad_bytes++, first_bad = std::min<unsigned>(first_bad, unsigned(k));
  }
  if (first_bad != ~0u) std::printf("# first bad rq_desc %u of %zu\n", first_bad, expect.size());
  std::printf("# feed coverage: commands %u, stops count %u / no record %u / failed fetch %u / SGEs %u, others' "
              "records removed %u, passed ones %u, across the region's end %u, mailbox behind the feed %u cycles, "
              "doorbells waiting for a fetch in flight %u\n", n_cmd, n_stop[0], n_stop[1], n_stop[2], n_stop[3],
              n_other, n_passed, n_wrap, tb.feed_first, n_inflight_wait);
  r.check(n_rec_bad == 0, "wqf-rqf-records-as-modelled",
          "%u of %u commands found the engine's oldest RQ record not the model's (%u doorbells waited for a "
          "fetch in flight to complete)", n_rec_bad, n_cmd, n_inflight_wait);
  r.check(bad_cmd == 0 && n_cmd > steps / 10 && present, "wqf-rqf-counts-and-stops-as-modelled",
          "%u of %u commands differ", bad_cmd, n_cmd);
  r.check(bad_bytes == 0 && expect.size() == tb.rqd_out.size() && n_handed > steps / 20 && n_fw > 3,
          "wqf-rqf-rq-desc-byte-exact-in-order", "%u bad bytes, %zu descriptors expected, %zu delivered (%u fed, "
          "%u by the firmware)", bad_bytes, expect.size(), tb.rqd_out.size(), n_handed, n_fw);
  r.check(n_stop[0] > 10 && n_stop[1] > 3 && n_stop[3] > 3 && n_stop[2] == err_stops + 4, "wqf-rqf-every-stop",
          "count %u, no record %u, failed fetch %u, SGEs %u", n_stop[0], n_stop[1], n_stop[2], n_stop[3]);
  r.check(n_other > 3 && n_passed > 3 && n_wrap >= 3 && max_held == FEED_SLOTS, "wqf-rqf-removes-wraps-fills",
          "others' records removed %u, passed ones %u, WQEs across the region's end %u, most buffers held %u",
          n_other, n_passed, n_wrap, max_held);
  r.check(tb.feed_first > 0 && n_mb_first == 2 && n_handed > fed0, "wqf-rqf-merge-older-first",
          "mailbox held behind the feed's descriptor %u cycles, the feed's WQE behind the mailbox's %u of 2 times",
          tb.feed_first, n_mb_first);
  r.check(n_yield == 2, "wqf-rqf-yields-to-a-held-port",
          "%u of 2 commands ended unhanded while the port stayed held (the last after %u cycles, yield %u)", n_yield,
          yield_cycles, RNIC_FW_TC_WQF_RQF_YIELD);
  tb.rqf_on = false;
  tb.byte_ovr = nullptr;
}

// ---- grant mode: the engine refills the receive slots by itself --------------------------------
// The firmware grants each QP RQ positions below a limit (rq_ci + the QP table's slots) with one
// store per RECV_DONE; the engine hands the head record's WQEs while record.first + i == feed and
// feed != limit, removes what it cannot use now (rewinding the fetch index for an enabled QP) and
// fetches it again on a re-evaluation. The model here is the QP table (8 slots per QP; a post to a
// full ring is an error: "beyond the grant") and every RQ ring: each rq_desc on the port is checked
// byte for byte against the next position of its QP's ring, stops against the WQE there.
struct GrantQp {
  RqQp q;
  uint32_t exp = 0;           // the next RQ position the port must deliver (or the engine stop at)
  std::deque<uint32_t> held;  // buffers in the QP table's slots, oldest first
  bool quiet = false;         // its receive engine consumes nothing for a while (slots full)
  std::set<uint32_t> skip;    // positions the firmware completed without a buffer, not yet reached
  bool clean = false;         // its WQEs name 0..3 SGEs (a directed case's host, set while settled)
  void norm() {               // exp past the skipped positions it reached
    while (skip.count(exp)) skip.erase(exp), exp = (exp + 1) & 0xFFFF;
  }
};
static void grant_store(Tb &tb, unsigned qpn, uint32_t limit, bool en) {
  uint8_t g[4] = {0, 0, 0, 0};
  rnic_rqf_grant_set_limit(g, limit & 0xFFFF);
  rnic_rqf_grant_set_qpn(g, qpn);
  rnic_rqf_grant_set_en(g, en);
  tb.tc_wr(RNIC_FW_TC_RQF_GRANT, rnic_ld_le32(g));
}

static void grant_tests(TbResults &r, Tb &tb, unsigned steps) {
  std::mt19937_64 &rng = tb.rng;
  tb.settle();
  for (unsigned i = 0; i < NRREC; i++) tb.tc_wr(RNIC_FW_TC_WQF_RQR_POP, 0);  // what the feed tests left
  // every QP's grant off first (the grant RAMs have no reset), as the firmware does
  for (unsigned q = 0; q < TB_NUM_QPS; q++) grant_store(tb, q, 0, false);
  std::vector<GrantQp> gq(5);
  const uint64_t gb = uint64_t(0x1357A) << 36;
  gq[0].q = {3, 403, 4, 0, gb + (rng() % 256) * 4096, true};
  gq[1].q = {9, 409, 3, 1, gb + 0x400000 + (rng() % 256) * 4096, true};
  gq[2].q = {17, 417, 5, 0, gb + 0x800000, true};
  gq[3].q = {64, 464, 4, 1, gb + 0xC00000 + (rng() % 256) * 4096, true};
  gq[4].q = {TB_NUM_QPS - 1, 499, 3, 0, gb + 0x1000000, true};
  auto ring_bytes = [](const RqQp &q) { return uint64_t(1) << (6 + q.lb + q.log); };
  tb.gen_of = [](uint64_t) -> uint32_t { return 8; };
  tb.byte_ovr = [&](uint64_t a) -> int {
    for (auto &f : gq)
      if (a >= f.q.base && a < f.q.base + ring_bytes(f.q) && ((a - f.q.base) & ((64u << f.q.lb) - 1)) == 8)
        return f.clean ? feed_nsge(a - 8) & 3 : feed_nsge(a - 8);
    return -1;
  };
  auto hbyte = [&](uint64_t a) {
    int o = tb.byte_ovr(a);
    return o >= 0 ? uint8_t(o) : host_byte(a, 8);
  };
  auto wqe_addr = rq_wqe_addr;
  auto sge_bad = [&](const RqQp &q, uint32_t p) {
    return unsigned(hbyte(wqe_addr(q, p) + 8)) > (q.lb == 0 ? 3u : unsigned(RNIC_MAX_SGE));
  };
  auto desc_of = [&](const RqQp &q, uint32_t p) { return rq_desc_of(q, p, hbyte); };
  // what the engine decided on a head record (coverage; the engine's own registers)
  // (at the limit: removed only when another QP waits, gyield_q; else held there, counted per cycle)
  unsigned n_off = 0, n_pass = 0, n_ahead = 0, n_lim = 0, n_reeval = 0, max_wait = 0, n_hold = 0;
  auto *root = tb.m.rootp;
  tb.on_tick = [&]() {
    if (root->wqe_fetch__DOT__fs_q == 7 && !root->wqe_fetch__DOT__gdirty_q) {  // G_DEC
      if (root->wqe_fetch__DOT__c_off_q) n_off++;
      else if (root->wqe_fetch__DOT__c_pass_q) n_pass++;
      else if (root->wqe_fetch__DOT__c_ahead_q) n_ahead++;
      else if (root->wqe_fetch__DOT__c_lim_q && root->wqe_fetch__DOT__gyield_q) n_lim++;
      else if (root->wqe_fetch__DOT__c_lim_q) n_hold++;
    }
    n_reeval += root->wqe_fetch__DOT__syn_push;
  };
  // the firmware's limit for f: its oldest buffer not completed plus the QP table's slots
  auto limit_of = [](const GrantQp &f) { return ((f.held.empty() ? f.exp : f.held.front()) + FEED_SLOTS) & 0xFFFF; };
  auto find = [&](unsigned qpn) -> GrantQp * {
    for (auto &f : gq)
      if (f.q.qpn == qpn) return &f;
    return nullptr;
  };
  for (auto &f : gq) {
    f.q.pi = f.exp = unsigned(rng() % 65536);
    tb.tc_wr(RNIC_FW_TC_RQF_FEED, qidx_word(f.q.qpn, f.exp));
    grant_store(tb, f.q.qpn, limit_of(f), true);
    rq_program(tb, f.q, f.q.pi);
  }
  size_t req_g0 = tb.reqs.size();
  tb.tc_wr(RNIC_FW_TC_WQF_DB_CTL, 2 | 4);
  tb.rqf_on = true;
  tb.fw_rqd_q.clear();
  tb.rqd_out.clear();
  size_t seen = 0;
  unsigned bad_bytes = 0, n_over = 0, n_handed = 0, n_fw = 0, bad_qp = 0, n_sge_handed = 0;
  // every descriptor the port delivered since the last look, against its QP's ring
  auto check_out = [&]() {
    for (; seen < tb.rqd_out.size(); seen++) {
      const std::vector<uint8_t> &d = tb.rqd_out[seen];
      GrantQp *f = find(rnic_ld_le32(d.data() + RNIC_RQ_DESC_QPN_OFF));
      if (!f) { bad_qp++; continue; }
      f->norm();
      if (f->held.size() >= FEED_SLOTS) {  // the QP table's ring would overwrite a buffer
        if (!n_over)
          std::printf("# grant: qpn %u position %u delivered at cycle %llu with %zu buffers held (oldest %u)\n",
                      f->q.qpn, f->exp, (unsigned long long)tb.cycle, f->held.size(), f->held.front());
        n_over++;
      }
      n_sge_handed += sge_bad(f->q, f->exp);
      std::vector<uint8_t> e = desc_of(f->q, f->exp);
      unsigned bad = 0;
      for (unsigned b = 0; b < Tb::DESC; b++) bad += e[b] != d[b];
      if (bad && !bad_bytes)
        std::printf("# grant: rq_desc %zu of qpn %u differs from its RQ position %u in %u bytes\n", seen, f->q.qpn,
                    f->exp, bad);
      bad_bytes += bad;
      f->held.push_back(f->exp);
      f->exp = (f->exp + 1) & 0xFFFF;
      f->norm();
      n_handed++;
    }
  };
  // the receive engine consumes f's oldest buffer; the firmware's RECV_DONE grants one more
  auto consume = [&](GrantQp &f, bool grant) {
    if (f.held.empty()) return;
    f.held.pop_front();
    if (grant) grant_store(tb, f.q.qpn, limit_of(f), true);
  };
  // the takeover: disable, wait until the engine holds nothing of the QP, read its feed back
  unsigned n_pos_bad = 0, n_takeover = 0;
  auto disable_read = [&](GrantQp &f, uint8_t *pos_out = nullptr) -> uint32_t {
    grant_store(tb, f.q.qpn, limit_of(f), false);
    tb.tc_wr(RNIC_FW_TC_RQF_POS, qidx_word(f.q.qpn, 0));
    uint8_t ps[4];
    unsigned polls = 0;
    do {
      rnic_st_le32(ps, tb.tc_rd(RNIC_FW_TC_RQF_POS));
    } while ((!rnic_rqf_pos_get_valid(ps) || rnic_rqf_pos_get_busy(ps)) && ++polls < 20000);
    // what the engine emitted reaches the port (its output register drained)
    for (int c = 0; c < 20000 && (tb.m.rqd_valid_o || !tb.fw_rqd_q.empty()); c++) tb.tick();
    check_out();
    if (rnic_rqf_pos_get_en(ps) || rnic_rqf_pos_get_feed(ps) != f.exp || polls >= 20000) {
      if (!n_pos_bad)
        std::printf("# grant: qpn %u read back feed %u en %u (polls %u), the port delivered up to %u\n", f.q.qpn,
                    rnic_rqf_pos_get_feed(ps), rnic_rqf_pos_get_en(ps), polls, f.exp);
      n_pos_bad++;
    }
    if (pos_out) std::memcpy(pos_out, ps, 4);
    return rnic_rqf_pos_get_feed(ps);
  };
  // the firmware hands WQEs from f.exp on itself (a slot free for each), then gives the QP back
  auto fw_take = [&](GrantQp &f, unsigned n, uint32_t from) {
    uint32_t p = from;
    for (unsigned k = 0; k < n && p != f.q.pi; k++) {
      if (sge_bad(f.q, p)) {  // completed LOC_LEN_ERR, no buffer
        f.skip.insert(p);
        f.norm();
        p = (p + 1) & 0xFFFF;
        continue;
      }
      // (no further than the limit it grants afterwards: the oldest buffer plus the slots)
      while (!f.held.empty() && ((p - f.held.front()) & 0xFFFF) >= FEED_SLOTS) consume(f, false);
      if (((p - (f.held.empty() ? f.exp : f.held.front())) & 0xFFFF) >= FEED_SLOTS) break;
      tb.fw_rqd_q.push_back(desc_of(f.q, p));
      p = (p + 1) & 0xFFFF;
      n_fw++;
    }
    // (the mailbox's descriptors go to the port before any of the engine's after the enable)
    tb.tc_wr(RNIC_FW_TC_RQF_FEED, qidx_word(f.q.qpn, p));
    grant_store(tb, f.q.qpn, limit_of(f), true);
    rq_set_fidx(tb, f.q.qpn, p);
  };
  unsigned n_stop_sge = 0, n_stop_err = 0, n_stop_bad = 0, n_stop_in_takeover = 0;
  auto handle_stop = [&]() {
    uint8_t st[4], sq[4];
    rnic_st_le32(st, tb.tc_rd(RNIC_FW_TC_RQF_STATUS));
    max_wait = std::max(max_wait, unsigned(rnic_rqf_status_get_waiting(st)));
    if (!rnic_rqf_status_get_stop_valid(st)) return;
    rnic_st_le32(sq, tb.tc_rd(RNIC_FW_TC_RQF_STOP));
    unsigned reason = rnic_rqf_status_get_reason(st);
    GrantQp *f = find(rnic_wqf_sq_qidx_get_qpn(sq));
    if (!f) { n_stop_bad++; tb.tc_wr(RNIC_FW_TC_RQF_STOP, 0); return; }
    uint32_t pos = rnic_wqf_sq_qidx_get_index(sq);
    uint8_t ps[4];
    uint32_t fb = disable_read(*f, ps);
    if (pos != f->exp || fb != pos || !rnic_rqf_pos_get_stopped(ps) || (reason == 2 && !sge_bad(f->q, pos)) ||
        (reason != 1 && reason != 2)) {
      if (!n_stop_bad)
        std::printf("# grant: stop of qpn %u at %u reason %u, expected at %u (read back %u, SGEs bad %d)\n", f->q.qpn,
                    pos, reason, f->exp, fb, int(sge_bad(f->q, pos)));
      n_stop_bad++;
    }
    tb.tc_wr(RNIC_FW_TC_RQF_STOP, 0);
    (reason == 2 ? n_stop_sge : n_stop_err)++;
    fw_take(*f, 1, pos);  // a failed fetch: the firmware fetches and hands it; too many SGEs: LOC_LEN_ERR
  };

  // the host posts, the receive engines consume, the firmware grants on each RECV_DONE; some QPs
  // go quiet with full slots (their records stand at the head: removed, fetched again later)
  for (unsigned i = 0; i < steps; i++) {
    GrantQp &f = gq[rng() % gq.size()];
    uint32_t size = 1u << f.q.log;
    unsigned act = unsigned(rng() % 20);
    if (i % 64 == 0) tb.qpt_ready_pct = 10 + unsigned(rng() % 91);
    if (i % 200 == 0) {
      GrantQp &g = gq[rng() % gq.size()];
      g.quiet = !g.quiet;
    }
    tb.err_pct = i % 600 >= 400 && i % 600 < 420 ? 25 : 0;
    if (act < 8) {  // the host posts 1..4 (at most a ring past its oldest buffer not completed)
      uint32_t oldest = f.held.empty() ? f.exp : f.held.front();
      unsigned room = size - ((f.q.pi - oldest) & 0xFFFF);
      unsigned k = std::min<unsigned>(room, 1 + unsigned(rng() % 4));
      if (k) {
        f.q.pi = (f.q.pi + k) & 0xFFFF;
        if (rng() % 8) rq_ring(tb, f.q.qpn, f.q.page, f.q.pi);  // (now and then its doorbell comes later)
      }
    } else if (act < 17) {
      if (!f.quiet) consume(f, true);
    } else if (act == 17 && !f.quiet && rng() % 4 == 0) {  // the firmware takes the QP over for a while
      uint8_t ps[4];
      disable_read(f, ps);
      n_takeover++;
      if (rnic_rqf_pos_get_stopped(ps)) {  // the engine stopped it as the grant went: rqf_stop holds it
        uint8_t st[4], sq[4];
        rnic_st_le32(st, tb.tc_rd(RNIC_FW_TC_RQF_STATUS));
        rnic_st_le32(sq, tb.tc_rd(RNIC_FW_TC_RQF_STOP));
        unsigned reason = rnic_rqf_status_get_reason(st);
        if (!rnic_rqf_status_get_stop_valid(st) || rnic_wqf_sq_qidx_get_qpn(sq) != f.q.qpn ||
            rnic_wqf_sq_qidx_get_index(sq) != f.exp || (reason == 2 && !sge_bad(f.q, f.exp)))
          n_stop_bad++;
        (reason == 2 ? n_stop_sge : n_stop_err)++;
        n_stop_in_takeover++;
        tb.tc_wr(RNIC_FW_TC_RQF_STOP, 0);
      }
      fw_take(f, 1 + unsigned(rng() % 2), f.exp);
    }
    for (unsigned c = 0, n = 4 + unsigned(rng() % 24); c < n; c++) tb.tick();
    check_out();
    handle_stop();
  }
  // The removals the stream rarely makes, on purpose, each from a settled QP (everything posted
  // handed, its buffers consumed and granted, the engine quiet: no re-evaluation queued, no
  // record, no fetch in flight).
  tb.err_pct = 0;
  auto settle_qp = [&](GrantQp &f) {
    f.quiet = false;
    rq_ring(tb, f.q.qpn, f.q.page, f.q.pi);
    for (int c = 0; c < 2000 && f.exp != f.q.pi; c++) {
      consume(f, true);
      for (int k = 0; k < 16; k++) tb.tick();
      check_out();
      handle_stop();
    }
    while (!f.held.empty()) consume(f, true);
    for (int c = 0; c < 1000; c++) {
      for (int k = 0; k < 16; k++) tb.tick();
      uint8_t st[4], ri[4];
      rnic_st_le32(st, tb.tc_rd(RNIC_FW_TC_RQF_STATUS));
      rnic_st_le32(ri, tb.tc_rd(RNIC_FW_TC_WQF_RQR_INFO));
      if (!rnic_rqf_status_get_waiting(st) && !rnic_wqf_dbr_info_get_valid(ri) && tb.req_q.empty() &&
          tb.cpl_q.empty() && !rnic_rqf_status_get_busy(st))
        break;
    }
  };
  auto run = [&](unsigned cycles) {
    for (unsigned c = 0; c < cycles; c += 16) {
      for (int k = 0; k < 16; k++) tb.tick();
      check_out();
      handle_stop();
    }
  };
  unsigned pass0 = n_pass, ahead0 = n_ahead, lim0 = n_lim;
  for (int t = 0; t < 2; t++) {
    GrantQp &f = gq[2 * t];
    // passed: the fetch index moved back two WQEs already handed, a doorbell with nothing new
    settle_qp(f);
    rq_set_fidx(tb, f.q.qpn, (f.exp - 2) & 0xFFFF);
    for (int c = 0; c < 8; c++) tb.tick();
    rq_ring(tb, f.q.qpn, f.q.page, f.q.pi);
    run(600);
    // ahead of the feed: the fetch index moved two past it, three posted: the record of the third
    // is removed, the index moved back to the feed, all three fetched again and handed in order
    settle_qp(f);
    rq_set_fidx(tb, f.q.qpn, (f.exp + 2) & 0xFFFF);
    for (int c = 0; c < 8; c++) tb.tick();
    f.q.pi = (f.q.pi + 3) & 0xFFFF;
    rq_ring(tb, f.q.qpn, f.q.page, f.q.pi);
    run(1500);
    // at the limit: the QP table's port held while the engine hands the first of six WQEs, the
    // limit moved back to two past the feed meanwhile: two handed, the record removed there; the
    // limit given back, the rest fetched again and handed
    settle_qp(f);
    for (int g = 0; g < 64; g++) {  // (two WQEs the engine hands: a stop would give the limit back)
      bool ok = true;
      for (unsigned k = 0; k < 2; k++) ok &= !sge_bad(f.q, (f.q.pi + k) & 0xFFFF);
      if (ok) break;
      f.q.pi = (f.q.pi + 1) & 0xFFFF;
      settle_qp(f);
    }
    uint32_t e0 = f.exp;
    tb.stall = 2000;
    f.q.pi = (f.q.pi + 6) & 0xFFFF;
    rq_ring(tb, f.q.qpn, f.q.page, f.q.pi);
    for (int c = 0; c < 600; c++) tb.tick();
    grant_store(tb, f.q.qpn, (e0 + 2) & 0xFFFF, true);
    while (tb.stall) tb.tick();
    run(600);
    if (f.exp != ((e0 + 2) & 0xFFFF)) {
      std::printf("# grant: qpn %u handed up to %u with its limit moved back to %u\n", f.q.qpn, f.exp, (e0 + 2) & 0xFFFF);
      n_over++;
    }
    grant_store(tb, f.q.qpn, limit_of(f), true);
    run(1500);
  }
  std::printf("# grant directed removals: passed %u, ahead %u, at the limit %u\n", n_pass - pass0, n_ahead - ahead0,
              n_lim - lim0);
  // The takeover never waits for the QP table's port (session 24: xport_rx holds it while it
  // waits for the event ring the firmware drains): the port held, the engine's first WQE in the
  // register and its second waiting, the grant disabled: the read-back is valid and not busy
  // within a few cycles with the port still held, the second WQE not handed.
  unsigned n_quick = 0, quick_cycles = 0;
  auto good_ahead = [&](GrantQp &f, unsigned n) {
    for (unsigned g = 0; g < (1u << f.q.log); g++) {
      bool ok = true;
      for (unsigned k = 0; k < n; k++) ok &= !sge_bad(f.q, (f.q.pi + k) & 0xFFFF);
      if (ok) return;
      f.q.pi = (f.q.pi + 1) & 0xFFFF;
      settle_qp(f);
    }
  };
  for (int t = 0; t < 2; t++) {
    GrantQp &f = gq[1 + 2 * t];
    settle_qp(f);
    good_ahead(f, 2);
    uint32_t e0 = f.exp;
    tb.stall = 6000;
    f.q.pi = (f.q.pi + 2) & 0xFFFF;
    rq_ring(tb, f.q.qpn, f.q.page, f.q.pi);
    for (int c = 0; c < 800; c++) tb.tick();
    uint64_t c0 = tb.cycle;
    grant_store(tb, f.q.qpn, limit_of(f), false);
    tb.tc_wr(RNIC_FW_TC_RQF_POS, qidx_word(f.q.qpn, 0));
    uint8_t ps[4];
    do {
      rnic_st_le32(ps, tb.tc_rd(RNIC_FW_TC_RQF_POS));
    } while ((!rnic_rqf_pos_get_valid(ps) || rnic_rqf_pos_get_busy(ps)) && tb.cycle - c0 < 20000);
    quick_cycles = unsigned(tb.cycle - c0);
    bool held = tb.stall > 0 && tb.m.rqd_valid_o;
    while (tb.stall) tb.tick();
    run(200);
    n_quick += held && quick_cycles < 64 && rnic_rqf_pos_get_feed(ps) == ((e0 + 1) & 0xFFFF) &&
               f.exp == ((e0 + 1) & 0xFFFF);
    fw_take(f, 0, f.exp);  // given back from the read-back position: the second WQE is fetched again
    run(1500);
  }
  // An evaluation that fetches less than it may (the receive doorbell region holds 4 WQEs of
  // 128 bytes) queues its QP again: 8 posted and rung once, no buffer consumed, all 8 handed (the
  // first QP's 16-entry ring has a run of 8 the engine hands; the other's 8 entries may not).
  unsigned n_requeue = 0;
  for (int t = 0; t < 2; t++) {
    GrantQp &f = gq[3 - 2 * t];
    settle_qp(f);
    good_ahead(f, 8);
    uint32_t e0 = f.exp;
    f.q.pi = (f.q.pi + 8) & 0xFFFF;
    rq_ring(tb, f.q.qpn, f.q.page, f.q.pi);
    run(4000);
    // (a WQE naming too many SGEs among them is completed by the firmware: 7 buffers then)
    n_requeue += f.exp == ((e0 + 8) & 0xFFFF);
  }
  // Fetched ahead (fw_tc.rqf_ahead_bbs): a QP alone in the receive doorbell region fetches its
  // posted WQEs up to that many WQEBBs past its limit and hands each once a grant passes it.
  // (1) 8 + ahead + 1 posted and rung once: 8 handed, the rest not; then the host takes no read
  // request, and each of `ahead` grants hands the next WQE from the region (cycles from the grant
  // store to the port counted, no request taken), the grant after them hands nothing until the
  // host reads again. (2) ahead + 2 more posted, fetched ahead, the QP taken over: the read-back is
  // its limit, the firmware hands one itself and gives it back: every WQE once, in order. (The
  // QPs' WQEs name 0..3 SGEs meanwhile.) (3) held
  // at its limit with WQEs ahead, the QP yields the head to another QP's record (removed at the
  // limit, fetched again at its next grant).
  unsigned n_ahead_ok = 0, ahead_cycles = 0, n_ahead_take = 0, n_yield_ok = 0, n_solo_ok = 0;
  {
    // (a QP of 512-byte WQEs, for (4): one WQE takes the whole region; only in the directed cases)
    GrantQp d;
    d.q = {100, 500, 3, 3, gb + 0x1400000, true};
    d.q.pi = d.exp = unsigned(rng() % 65536);
    d.clean = true;
    gq.push_back(d);
    tb.tc_wr(RNIC_FW_TC_RQF_FEED, qidx_word(d.q.qpn, d.exp));
    grant_store(tb, d.q.qpn, limit_of(d), true);
    rq_program(tb, d.q, d.q.pi);
  }
  for (int t = 0; t < 2; t++) {
    GrantQp &f = gq[3 * t];  // (64- and 128-byte WQEs, rings of 16)
    const unsigned ahead = RNIC_FW_TC_RQF_AHEAD_BBS >> f.q.lb;
    settle_qp(f);
    f.clean = true;
    const uint32_t e0 = f.exp;
    tb.qpt_ready_pct = 100;
    f.q.pi = (f.q.pi + FEED_SLOTS + ahead + 1) & 0xFFFF;
    rq_ring(tb, f.q.qpn, f.q.page, f.q.pi);
    run(3000);
    bool ok = f.exp == ((e0 + FEED_SLOTS) & 0xFFFF) && f.held.size() == FEED_SLOTS;
    size_t req0 = tb.reqs.size();
    tb.ready_pct = 0;
    unsigned worst = 0;
    for (unsigned k = 0; k < ahead; k++) {
      size_t n0 = tb.rqd_out.size();
      uint64_t c0 = tb.cycle;
      consume(f, true);
      while (tb.rqd_out.size() == n0 && tb.cycle - c0 < 3000) tb.tick();
      worst = std::max(worst, unsigned(tb.cycle - c0));
      check_out();
    }
    ok &= f.exp == ((e0 + FEED_SLOTS + ahead) & 0xFFFF) && tb.reqs.size() == req0;
    consume(f, true);  // past the WQEs fetched ahead: this one waits for the host's read
    run(800);
    ok &= f.exp == ((e0 + FEED_SLOTS + ahead) & 0xFFFF) && tb.reqs.size() == req0;
    tb.ready_pct = 90;
    run(3000);
    ok &= f.exp == f.q.pi && worst <= 32;
    if (!ok)
      std::printf("# grant: fetch ahead of qpn %u: handed up to %u of %u (from %u, ahead %u), %zu requests while the "
                  "host took none, the slowest refill %u cycles\n", f.q.qpn, f.exp, f.q.pi, e0, ahead,
                  tb.reqs.size() - req0, worst);
    n_ahead_ok += ok;
    ahead_cycles = std::max(ahead_cycles, worst);
    // (2) the takeover with WQEs fetched ahead: the read-back is the limit (disable_read checks
    // it against the port), the firmware hands the WQE there, the engine the rest
    f.q.pi = (f.q.pi + 2) & 0xFFFF;
    rq_ring(tb, f.q.qpn, f.q.page, f.q.pi);
    run(3000);
    uint32_t lim = f.exp;
    uint32_t fb = disable_read(f);
    consume(f, false);
    fw_take(f, 1, f.exp);
    for (int c = 0; c < 64 && f.exp != f.q.pi; c++) {
      consume(f, true);
      run(200);
    }
    n_ahead_take += fb == lim && f.exp == f.q.pi;
    settle_qp(f);
    f.clean = false;
  }
  for (int t = 0; t < 2; t++) {
    // (3) B settled and idle; A held at its limit with WQEs fetched ahead; B posts one.
    // (4) the same with B's WQEs of 512 bytes (the whole region: no room while A holds half of
    // it, B waits in the re-evaluation queue)
    GrantQp &a = gq[0], &b = gq[t ? 5 : 2];
    settle_qp(b);
    b.clean = true;
    settle_qp(a);
    a.clean = true;
    a.q.pi = (a.q.pi + FEED_SLOTS + RNIC_FW_TC_RQF_AHEAD_BBS) & 0xFFFF;
    rq_ring(tb, a.q.qpn, a.q.page, a.q.pi);
    run(3000);
    unsigned lim0 = n_lim;
    uint32_t ea = a.exp, eb = b.exp;
    b.q.pi = (b.q.pi + 1) & 0xFFFF;
    rq_ring(tb, b.q.qpn, b.q.page, b.q.pi);
    run(1500);
    bool ok = b.exp == b.q.pi && n_lim > lim0 && a.exp == ea;
    consume(a, true);  // A's next grant fetches its WQE again
    run(1500);
    ok &= a.exp == ((ea + 1) & 0xFFFF);
    if (!ok)
      std::printf("# grant: yield: qpn %u handed %u of 1, qpn %u %u (at its limit %u), removals at the limit %u\n",
                  b.q.qpn, (b.exp - eb) & 0xFFFF, a.q.qpn, (a.exp - ea) & 0xFFFF, ea, n_lim - lim0);
    n_yield_ok += ok;
    settle_qp(a);
    settle_qp(b);
    a.clean = b.clean = false;
  }
  {
    // (5) no fetch ahead while another QP's record is in the region: B's two WQEs, the QP
    // table's port held (the first in its register, the second's record at the head); A, 6 of
    // its 8 slots full, posts 6: 2 fetched (its limit), not 6
    GrantQp &a = gq[0], &b = gq[2];
    settle_qp(b);
    settle_qp(a);
    a.clean = b.clean = true;
    a.q.pi = (a.q.pi + 6) & 0xFFFF;
    rq_ring(tb, a.q.qpn, a.q.page, a.q.pi);
    run(2000);
    tb.stall = 4000;
    b.q.pi = (b.q.pi + 2) & 0xFFFF;
    rq_ring(tb, b.q.qpn, b.q.page, b.q.pi);
    for (int c = 0; c < 600; c++) tb.tick();
    size_t r0 = tb.reqs.size();
    a.q.pi = (a.q.pi + 6) & 0xFFFF;
    rq_ring(tb, a.q.qpn, a.q.page, a.q.pi);
    for (int c = 0; c < 600; c++) tb.tick();
    uint32_t abytes = 0;
    for (size_t i = r0; i < tb.reqs.size(); i++)
      if (tb.reqs[i].addr >= a.q.base && tb.reqs[i].addr < a.q.base + ring_bytes(a.q)) abytes += tb.reqs[i].len;
    bool held = tb.stall > 0;
    while (tb.stall) tb.tick();
    run(1000);
    for (int c = 0; c < 64 && (a.exp != a.q.pi || b.exp != b.q.pi); c++) {
      consume(a, true);
      consume(b, true);
      run(200);
    }
    n_solo_ok += held && abytes == 2 * 64 && a.exp == a.q.pi && b.exp == b.q.pi;
    if (!(held && abytes == 2 * 64))
      std::printf("# grant: qpn %u fetched %u bytes with qpn %u's record in the region (2 WQEs to its limit)\n",
                  a.q.qpn, abytes, b.q.qpn);
    settle_qp(a);
    settle_qp(b);
    a.clean = b.clean = false;
  }
  // The firmware's checked producer index (rqf_pi). (1) The engine's producer-index RAM keeps
  // the index of an earlier life of the QPN (an rq_db 10 past, taken while the grant was off);
  // the QP given back with rqf_pi at its real index and its limit 8 past it: nothing handed;
  // then 2 posted: those 2. (2) 8 posted, their rq_db dropped by the full doorbell FIFO
  // (rqf_status.lost): nothing fetched; the firmware's rqf_pi store of that index fetches them.
  unsigned n_pi_stale = 0, n_pi_lost = 0;
  {
    GrantQp &f = gq[2];
    settle_qp(f);
    f.clean = true;
    disable_read(f);
    rq_ring(tb, f.q.qpn, f.q.page, (f.q.pi + 10) & 0xFFFF);
    run(200);
    tb.tc_wr(RNIC_FW_TC_RQF_FEED, qidx_word(f.q.qpn, f.exp));
    tb.tc_wr(RNIC_FW_TC_RQF_PI, qidx_word(f.q.qpn, f.q.pi));
    grant_store(tb, f.q.qpn, limit_of(f), true);
    rq_set_fidx(tb, f.q.qpn, f.exp);
    run(1500);
    bool ok = f.exp == f.q.pi;
    f.q.pi = (f.q.pi + 2) & 0xFFFF;
    rq_ring(tb, f.q.qpn, f.q.page, f.q.pi);
    run(1500);
    ok &= f.exp == f.q.pi;
    if (!ok) std::printf("# grant: rqf_pi at the give-back: qpn %u handed up to %u, posted %u\n", f.q.qpn, f.exp, f.q.pi);
    n_pi_stale += ok;
    settle_qp(f);
    uint32_t e0 = f.exp;
    // (six doorbells of another QP from a wrong page fill the FIFO: the next one, the QP's, is dropped)
    for (int k = 0; k < 6; k++) rq_ring(tb, gq[0].q.qpn, gq[0].q.page ^ 1, 0);
    f.q.pi = (e0 + 8) & 0xFFFF;
    rq_ring(tb, f.q.qpn, f.q.page, f.q.pi);
    run(1500);
    uint8_t st[4];
    rnic_st_le32(st, tb.tc_rd(RNIC_FW_TC_RQF_STATUS));
    bool lost = rnic_rqf_status_get_lost(st), short_of = f.exp != f.q.pi;
    tb.tc_wr(RNIC_FW_TC_RQF_PI, qidx_word(f.q.qpn, f.q.pi));
    run(1500);
    for (int c = 0; c < 16 && f.exp != f.q.pi; c++) {
      consume(f, true);
      run(200);
    }
    tb.tc_wr(RNIC_FW_TC_WQF_DB_CTL, 2 | 4);  // (clears lost)
    if (!(lost && short_of && f.exp == f.q.pi))
      std::printf("# grant: lost rq_db: lost %d, short before rqf_pi %d, qpn %u handed up to %u of %u\n", int(lost),
                  int(short_of), f.q.qpn, f.exp, f.q.pi);
    n_pi_lost += lost && short_of && f.exp == f.q.pi;
    settle_qp(f);
    f.clean = false;
  }
  // a record whose fetch failed holding a QP's feed, made on purpose: one WQE posted and fetched
  // with a bus error
  for (int t = 0; t < 2; t++) {
    GrantQp &f = gq[t];
    settle_qp(f);
    unsigned e0 = n_stop_err;
    size_t r0 = tb.err_of_req.size();
    tb.err_pct = 100;
    f.q.pi = (f.q.pi + 1) & 0xFFFF;
    rq_ring(tb, f.q.qpn, f.q.page, f.q.pi);
    for (int c = 0; c < 3000 && tb.err_of_req.size() == r0; c++) tb.tick();
    tb.err_pct = 0;
    for (int c = 0; c < 100 && n_stop_err == e0; c++) {
      for (int k = 0; k < 16; k++) tb.tick();
      check_out();
      handle_stop();
    }
    if (n_stop_err == e0)
      std::printf("# grant: no stop for a failed fetch of qpn %u at %u (exp %u, %zu held, %zu requests, last err %u)\n",
                  f.q.qpn, (f.q.pi - 1) & 0xFFFF, f.exp, f.held.size(), tb.reqs.size(),
                  tb.err_of_req.empty() ? 9 : tb.err_of_req.back());
  }
  // the end: every doorbell rung, every QP consuming, until all that was posted was handed
  for (auto &f : gq) {
    f.quiet = false;
    rq_ring(tb, f.q.qpn, f.q.page, f.q.pi);
    for (int c = 0; c < 8; c++) tb.tick();
  }
  unsigned rounds = 0;
  auto all_done = [&]() {
    for (auto &f : gq)
      if (f.exp != f.q.pi) return false;
    return tb.fw_rqd_q.empty();
  };
  for (; rounds < 20000 && !all_done(); rounds++) {
    GrantQp &f = gq[rounds % gq.size()];
    consume(f, true);
    for (int c = 0; c < 16; c++) tb.tick();
    check_out();
    handle_stop();
  }
  for (int c = 0; c < 200; c++) tb.tick();
  check_out();
  unsigned left = 0;
  for (auto &f : gq) left += (f.q.pi - f.exp) & 0xFFFF;
  if (left)
    std::printf("# grant: stalled: room %u rs %u fs %u ev %u rrec %u rauto %u stop %u evq %u gmode %u tw %u tr %u\n",
                root->wqe_fetch__DOT__room_q, root->wqe_fetch__DOT__rs_q, root->wqe_fetch__DOT__fs_q,
                root->wqe_fetch__DOT__ev_q, unsigned(root->wqe_fetch__DOT__rrec_cnt), root->wqe_fetch__DOT__rauto_q,
                root->wqe_fetch__DOT__stop_v_q, root->wqe_fetch__DOT__evq_v_q, root->wqe_fetch__DOT__gmode_q,
                root->wqe_fetch__DOT__tw_q, root->wqe_fetch__DOT__tr_q);
  uint8_t st[4];
  rnic_st_le32(st, tb.tc_rd(RNIC_FW_TC_RQF_STATUS));
  std::printf("# grant fetch ahead: the slowest refill from WQEs fetched ahead %u cycles from the grant store to the "
              "port\n", ahead_cycles);
  std::printf("# grant coverage: handed %u (%u by the firmware), removed: not fed %u, passed %u, ahead of the feed %u, "
              "at the limit %u (held there %u cycles); re-evaluations %u (most queued %u); stops: SGEs %u, failed fetch %u; "
              "takeovers %u; DMA requests %zu\n",
              n_handed, n_fw, n_off, n_pass, n_ahead, n_lim, n_hold, n_reeval, max_wait, n_stop_sge, n_stop_err, n_takeover, tb.reqs.size() - req_g0);
  r.check(bad_bytes == 0 && bad_qp == 0 && n_sge_handed == 0 && n_handed > steps / 8, "wqf-grant-rq-desc-byte-exact-in-ring-order",
          "%u bad bytes, %u of another QP, %u naming too many SGEs, %u handed", bad_bytes, bad_qp, n_sge_handed, n_handed);
  r.check(n_over == 0, "wqf-grant-none-beyond-the-grant", "%u descriptors into a QP's full slots", n_over);
  r.check(left == 0 && rnic_rqf_status_get_waiting(st) == 0 && !rnic_rqf_status_get_lost(st),
          "wqf-grant-every-posted-wqe-handed", "%u posted WQEs never handed (after %u rounds), %u QPs still queued",
          left, rounds, rnic_rqf_status_get_waiting(st));
  r.check(n_stop_bad == 0 && n_stop_sge > 2 && n_stop_err > 1, "wqf-grant-stops-at-the-position",
          "%u stops wrong, %u for SGEs, %u for failed fetches (%u met by a takeover)", n_stop_bad, n_stop_sge,
          n_stop_err, n_stop_in_takeover);
  r.check(n_pos_bad == 0 && n_takeover > 3 && n_fw > 3, "wqf-grant-takeover-reads-feed-back",
          "%u read-backs wrong, %u takeovers, %u handed by the firmware", n_pos_bad, n_takeover, n_fw);
  r.check(n_quick == 2, "wqf-grant-disable-never-waits-on-the-port",
          "%u of 2 read-backs valid with the port held (the last after %u cycles)", n_quick, quick_cycles);
  r.check(n_requeue == 2, "wqf-grant-short-fetch-queued-again", "%u of 2 QPs got all 8 WQEs from one doorbell",
          n_requeue);
  r.check(n_ahead_ok == 2, "wqf-grant-fetched-ahead-refill-without-a-read",
          "%u of 2 QPs refilled from WQEs fetched ahead with the host's reads held (the slowest %u cycles from the "
          "grant store to the port), none past the ahead, the rest after the read", n_ahead_ok, ahead_cycles);
  r.check(n_ahead_take == 2, "wqf-grant-fetched-ahead-takeover-exact",
          "%u of 2 takeovers with WQEs fetched ahead read back the limit and lost none", n_ahead_take);
  r.check(n_yield_ok == 2, "wqf-grant-held-limit-yields-to-another-qp",
          "%u of 2: a QP held at its limit with WQEs ahead gave the head to another QP's record / to another QP "
          "waiting for room", n_yield_ok);
  r.check(n_pi_stale == 1 && n_pi_lost == 1, "wqf-grant-rqf-pi-stale-index-and-lost-doorbell",
          "rqf_pi: a stale index not fetched past %u of 1, the WQEs of a dropped rq_db fetched %u of 1", n_pi_stale,
          n_pi_lost);
  r.check(n_solo_ok == 1, "wqf-grant-ahead-only-alone",
          "a QP fetched ahead while another QP's record was in the region");
  r.check(n_off > 0 && n_pass > 0 && n_ahead > 0 && n_lim > 0 && n_reeval > 0 && rnic_rqf_status_get_present(st),
          "wqf-grant-every-removal", "not fed %u, passed %u, ahead %u, at the limit %u, re-evaluations %u", n_off,
          n_pass, n_ahead, n_lim, n_reeval);
  tb.on_tick = nullptr;
  tb.rqf_on = false;
  tb.byte_ovr = nullptr;
  tb.tc_wr(RNIC_FW_TC_WQF_DB_CTL, 0);
}

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  uint64_t seed = 1;
  unsigned doorbells = 1500;
  for (int i = 1; i + 1 < argc; i++) {
    if (!std::strcmp(argv[i], "--seed")) seed = std::strtoull(argv[++i], nullptr, 0);
    else if (!std::strcmp(argv[i], "--doorbells")) doorbells = std::strtoul(argv[++i], nullptr, 0);
  }
  std::printf("# tb_wqe_fetch DataWidth %u seed %llu doorbells %u\n", TB_DATA_WIDTH, (unsigned long long)seed,
              doorbells);
  TbResults r;
  Tb tb(seed);
  std::mt19937_64 &rng = tb.rng;

  // SQ rings: sizes 4..256 WQEBBs, bases anywhere in 64-bit space (page aligned)
  std::vector<Qp> qps;
  // (the last two are receive queues: their commands go to the receive region, interleaved with
  // the send queues' in the one command queue)
  for (unsigned q = 0; q < 6; q++)
    qps.push_back({(uint64_t(0x12345) << 36) + uint64_t(q) * 0x200000 + (rng() % 512) * 4096, 2u + unsigned(rng() % 7),
                   q >= 4});
  tb.gen_of = [&](uint64_t a) -> uint32_t {
    for (auto &q : qps)
      if (a >= q.base && a < q.base + (uint64_t(BB) << q.log)) return q.gen;
    return 0;
  };

  uint32_t st0 = tb.tc_rd(RNIC_FW_TC_WQF_STATUS);
  uint32_t b0 = tb.tc_rd(RNIC_FW_TC_WQF_BUF_BASE);
  r.check(st0 == 0 && b0 == 0, "wqf-reset-state", "status 0x%x", st0);

  // the firmware model's view of its commands
  struct Cmd { unsigned qp, idx, bbs, slot, tag; uint32_t gen; uint64_t addr; bool rq; };
  std::deque<Cmd> inflight;
  std::vector<std::pair<uint64_t, unsigned>> all_cmds;  // (address, bbs) of every command
  unsigned issued = 0, completed = 0, buf_head = 0, buf_used = 0, ring_splits = 0, buf_wraps = 0;
  unsigned rq_head = 0, rq_used = 0, rq_wraps = 0, rq_checked = 0;
  unsigned checked_bbs = 0, bad_bytes = 0, err_cmds = 0, err_tag_bad = 0, max_queued = 0, tagn = 0;
  unsigned last_err_tag = 0;
  bool status_ok = true;

  // Retires the oldest command if wqf_status counts it: checks its WQEBBs (when it met no
  // error) and frees its buffer slots. Returns whether it did.
  auto retire = [&]() -> bool {
    uint8_t s[4];
    rnic_st_le32(s, tb.tc_rd(RNIC_FW_TC_WQF_STATUS));
    unsigned done = rnic_wqf_status_get_done(s), queued = rnic_wqf_status_get_queued(s);
    max_queued = std::max(max_queued, queued);
    if (queued > NCMD || rnic_wqf_status_get_dropped(s)) status_ok = false;
    if (inflight.empty() || ((done - completed) & 0xFF) == 0) return false;
    Cmd c = inflight.front();
    inflight.pop_front();
    unsigned st = tb.err_of_req.at(completed);
    completed++;
    if (st) {
      err_cmds++;
      last_err_tag = c.tag;
      if (rnic_wqf_status_get_err_tag(s) != c.tag && done == (completed & 0xFF)) err_tag_bad++;
    } else {
      Qp &q = qps[c.qp];
      for (unsigned k = 0; k < c.bbs; k++) {
        uint32_t slot = (c.slot + k) % (c.rq ? NRQ : NBUF);
        uint64_t a = c.addr + uint64_t(k) * BB;
        rq_checked += c.rq;
        bad_bytes +=
            wqebb_bad_bytes(tb, (c.rq ? RNIC_FW_TC_WQF_RQ_BUF_BASE : RNIC_FW_TC_WQF_BUF_BASE) + slot * BB, a, c.gen);
        checked_bbs++;
      }
      (void)q;
    }
    (c.rq ? rq_used : buf_used) -= c.bbs;
    return true;
  };

  for (unsigned d = 0; d < doorbells; d++) {
    // phases: heavy back-pressure, slow completions, a window with bus errors
    tb.ready_pct = (d / 200) % 2 ? 20 : 90;
    tb.data_pct = (d / 300) % 2 ? 30 : 95;
    tb.cpl_delay = (d / 250) % 3 == 2 ? 300 : 20;
    tb.err_pct = (d >= doorbells / 2 && d < doorbells / 2 + 150) ? 30 : 0;
    unsigned qi = unsigned(rng() % qps.size());
    Qp &q = qps[qi];
    // the host rewrote the ring since the last fetch of this QP (only once nothing of it is in flight)
    bool busy = false;
    for (auto &c : inflight) busy |= c.qp == qi;
    if (!busy) q.gen++;
    unsigned size = 1u << q.log, n = 1 + unsigned(rng() % std::min(size, 24u));
    unsigned nb = q.rq ? NRQ : NBUF;
    unsigned &head = q.rq ? rq_head : buf_head, &used = q.rq ? rq_used : buf_used;
    while (n) {
      unsigned ring_left = size - (q.next & (size - 1));
      unsigned k = std::min({n, ring_left, nb});
      if (k == ring_left && k < n) ring_splits++;
      while (inflight.size() == NCMD || used + k > nb)
        if (!retire()) tb.tick();
      uint64_t addr = q.base + uint64_t(q.next & (size - 1)) * BB;
      unsigned tag = (tagn++) & 0xFF;
      if (head + k > nb) (q.rq ? rq_wraps : buf_wraps)++;
      tb.cmd(addr, k, head, tag, q.rq);
      inflight.push_back({qi, q.next, k, head, tag, q.gen, addr, q.rq});
      all_cmds.push_back({addr, k});
      issued++;
      head = (head + k) % nb;
      used += k;
      q.next += k;
      n -= k;
    }
    for (unsigned g = unsigned(rng() % 4); g; g--) tb.tick();
    while (!inflight.empty() && retire()) {
    }
  }
  for (int i = 0; i < 200000 && !inflight.empty(); i++)
    if (!retire()) tb.tick();
  r.check(inflight.empty() && completed == issued, "wqf-all-commands-complete", "%u of %u", completed, issued);
  r.check(bad_bytes == 0 && checked_bbs > 0, "wqf-wqebbs-byte-exact", "%u bad bytes in %u WQEBBs", bad_bytes,
          checked_bbs);
  // every request one burst: the command's address and bbs x 64 bytes
  bool burst_ok = tb.reqs.size() == issued;
  for (size_t i = 0; burst_ok && i < all_cmds.size(); i++)
    burst_ok = tb.reqs[i].addr == all_cmds[i].first && tb.reqs[i].len == all_cmds[i].second * BB;
  r.check(burst_ok, "wqf-one-burst-per-command", "%zu requests for %u commands", tb.reqs.size(), issued);
  r.check(ring_splits > 20 && buf_wraps > 20, "wqf-ring-and-buffer-wrap", "ring splits %u, buffer wraps %u",
          ring_splits, buf_wraps);
  r.check(rq_checked > 100 && rq_wraps > 10 && checked_bbs > rq_checked, "wqf-rq-region-interleaved",
          "receive-region WQEBBs checked %u of %u, its wraps %u", rq_checked, checked_bbs, rq_wraps);
  r.check(max_queued == NCMD && tb.max_outstanding >= 2, "wqf-commands-in-flight",
          "most queued %u, most requests outstanding at the host %u", max_queued, tb.max_outstanding);
  uint8_t s[4];
  rnic_st_le32(s, tb.tc_rd(RNIC_FW_TC_WQF_STATUS));
  r.check(status_ok && tb.errors > 10 && err_cmds == tb.errors && rnic_wqf_status_get_errors(s) == (tb.errors & 0xFF) &&
              rnic_wqf_status_get_err_tag(s) == last_err_tag && err_tag_bad == 0 &&
              rnic_wqf_status_get_done(s) == (issued & 0xFF) && rnic_wqf_status_get_queued(s) == 0,
          "wqf-dma-errors-counted-and-tagged", "status 0x%x, injected %u, seen %u, last tag %u, bad tags %u",
          rnic_ld_le32(s), tb.errors, err_cmds, last_err_tag, err_tag_bad);

  // Clamping and the request's form: bbs 0 reads one WQEBB, bbs above the buffer reads the buffer.
  tb.err_pct = 0;
  tb.ready_pct = 100;
  size_t r0 = tb.reqs.size();
  Qp &q0 = qps[0];
  q0.gen++;
  tb.cmd(q0.base, 0, 3, 7);
  tb.cmd(q0.base + BB, 200, 0, 8);
  for (int i = 0; i < 2000; i++) tb.tick();
  bool clamp_ok = tb.reqs.size() == r0 + 2 && tb.reqs[r0].len == BB && tb.reqs[r0].addr == q0.base &&
                  tb.reqs[r0 + 1].len == NBUF * BB && tb.reqs[r0 + 1].addr == q0.base + BB;
  r.check(clamp_ok, "wqf-count-clamped-one-burst", "lens %u %u", tb.reqs.size() > r0 ? tb.reqs[r0].len : 0,
          tb.reqs.size() > r0 + 1 ? tb.reqs[r0 + 1].len : 0);
  // the second command overwrote the whole buffer with WQEBBs 1..16 of the ring (slot k = WQEBB k+1,
  // the ring wraps at its size)
  // (the host model answers a burst with the generation of its first address, also beyond a
  // ring shorter than the burst)
  unsigned bad2 = 0;
  const uint32_t gen0 = tb.gen_of(q0.base + BB);
  for (unsigned k = 0; k < NBUF; k++)
    bad2 += wqebb_bad_bytes(tb, RNIC_FW_TC_WQF_BUF_BASE + k * BB, q0.base + uint64_t(k + 1) * BB, gen0);
  r.check(bad2 == 0, "wqf-whole-buffer-fetch-exact", "%u bad bytes", bad2);

  // The receive region: a count above it reads the region's size (a longer burst would wrap onto
  // its own first WQEBBs), from slot 5 on it wraps inside the region, and the send region keeps
  // what the command above put there.
  size_t r1 = tb.reqs.size();
  Qp &q4 = qps[4];
  q4.gen++;
  tb.cmd(q4.base, 200, 5, 9, true);
  for (int i = 0; i < 2000; i++) tb.tick();
  unsigned bad3 = 0;
  for (unsigned k = 0; k < NRQ; k++)  // (the host model: one generation per burst)
    bad3 += wqebb_bad_bytes(tb, RNIC_FW_TC_WQF_RQ_BUF_BASE + ((5 + k) % NRQ) * BB, q4.base + uint64_t(k) * BB, q4.gen);
  for (unsigned k = 0; k < NBUF; k++)
    bad3 += wqebb_bad_bytes(tb, RNIC_FW_TC_WQF_BUF_BASE + k * BB, q0.base + uint64_t(k + 1) * BB, gen0);
  bool rq_clamp = tb.reqs.size() == r1 + 1 && tb.reqs[r1].len == NRQ * BB && tb.reqs[r1].addr == q4.base;
  r.check(rq_clamp && bad3 == 0, "wqf-rq-region-clamped-wraps-exact", "len %u, %u bad bytes",
          tb.reqs.size() > r1 ? tb.reqs[r1].len : 0, bad3);

  // Queue full: with the host refusing requests, wqf_cmd_num commands queue, one more is dropped.
  tb.ready_pct = 0;
  for (unsigned k = 0; k <= NCMD; k++) tb.cmd(q0.base, 1, k, 100 + k);
  rnic_st_le32(s, tb.tc_rd(RNIC_FW_TC_WQF_STATUS));
  bool drop_ok = rnic_wqf_status_get_dropped(s) && rnic_wqf_status_get_queued(s) == NCMD;
  tb.ready_pct = 100;
  for (int i = 0; i < 3000; i++) tb.tick();
  rnic_st_le32(s, tb.tc_rd(RNIC_FW_TC_WQF_STATUS));
  drop_ok &= rnic_wqf_status_get_queued(s) == 0 && rnic_wqf_status_get_dropped(s) &&
             tb.reqs.size() == r1 + 1 + NCMD;
  r.check(drop_ok, "wqf-full-queue-drops-and-flags", "status 0x%x, requests %zu", rnic_ld_le32(s),
          tb.reqs.size() - r0);
  db_tests(r, tb, doorbells);
  rq_db_tests(r, tb, doorbells);
  feed_tests(r, tb, doorbells * 2);
  grant_tests(r, tb, doorbells * 2);
  return r.exit_code();
}
