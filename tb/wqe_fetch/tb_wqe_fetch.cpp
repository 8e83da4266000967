// tb_wqe_fetch: testbench of the WQE fetch engine (rtl/wqe_fetch/wqe_fetch.sv). A firmware model
// keeps SQ rings of several QPs (ring base, size, producer), turns random doorbells into fetch
// commands as the firmware does (split at the ring end, at most wqf_buf_bbs WQEBBs, buffer slots
// allocated as a ring, up to wqf_cmd_num in flight) and checks every fetched WQEBB byte for byte
// with one-cycle loads against host memory once wqf_status counts its command. The host model
// is the dma_engine read client (packed beats, in-order completions after the last beat) with
// random request/data back-pressure, completion delays and bus errors (counted and tagged in
// wqf_status). Also: count clamping (0 and above the buffer), a command dropped when the queue is
// full, the request of each command one burst at the command's address.
// Built at -GDataWidth=512 (one beat per WQEBB) and 64 (eight). Options: --seed N, --doorbells N.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <random>
#include <type_traits>
#include <vector>

#include "Vwqe_fetch.h"
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

  explicit Tb(uint64_t seed) : rng(seed) {
    m.clk_i = 0;
    m.rst_ni = 0;
    m.tc_req_i = 0;
    m.rd_req_ready_i = 0;
    m.rd_data_valid_i = 0;
    m.rd_cpl_valid_i = 0;
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
      setb(m.rd_data_i, b, k < r.len ? host_byte(r.addr + k, gen) : uint8_t(rng()));
    }
  }

  void tick() {
    m.eval();
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
    if (cpl_fire) cpl_q.pop_front();
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

struct Qp {
  uint64_t base;
  unsigned log;
  bool rq = false;    // a receive queue: fetched into the receive region
  uint32_t next = 0;  // next WQEBB index to fetch
  uint32_t gen = 1;
};

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
        for (unsigned w = 0; w < BB; w += 4) {
          uint32_t v = tb.tc_rd((c.rq ? RNIC_FW_TC_WQF_RQ_BUF_BASE : RNIC_FW_TC_WQF_BUF_BASE) + slot * BB + w);
          for (unsigned b = 0; b < 4; b++)
            if (uint8_t(v >> (8 * b)) != host_byte(a + w + b, c.gen)) bad_bytes++;
        }
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
    for (unsigned w = 0; w < BB; w += 4) {
      uint32_t v = tb.tc_rd(RNIC_FW_TC_WQF_BUF_BASE + k * BB + w);
      uint64_t a = q0.base + uint64_t(k + 1) * BB;
      uint32_t gen = gen0;
      for (unsigned b = 0; b < 4; b++)
        if (uint8_t(v >> (8 * b)) != host_byte(a + w + b, gen)) bad2++;
    }
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
  for (unsigned k = 0; k < NRQ; k++)
    for (unsigned w = 0; w < BB; w += 4) {
      uint32_t v = tb.tc_rd(RNIC_FW_TC_WQF_RQ_BUF_BASE + ((5 + k) % NRQ) * BB + w);
      uint64_t a = q4.base + uint64_t(k) * BB;  // (the host model: one generation per burst)
      for (unsigned b = 0; b < 4; b++)
        if (uint8_t(v >> (8 * b)) != host_byte(a + w + b, q4.gen)) bad3++;
    }
  for (unsigned k = 0; k < NBUF; k++)
    for (unsigned w = 0; w < BB; w += 4) {
      uint32_t v = tb.tc_rd(RNIC_FW_TC_WQF_BUF_BASE + k * BB + w);
      uint64_t a = q0.base + uint64_t(k + 1) * BB;
      for (unsigned b = 0; b < 4; b++)
        if (uint8_t(v >> (8 * b)) != host_byte(a + w + b, gen0)) bad3++;
    }
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
  return r.exit_code();
}
