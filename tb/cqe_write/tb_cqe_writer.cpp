// tb_cqe_writer: testbench of the CQE writer (rtl/cqe_write/cqe_writer.sv). A firmware model
// stores random completion records (spec cq_rec) and event records (eq_entry) into the writer's
// tightly coupled rings, answers the writer's "CQ looks full" holds from a host consumer model
// (a newer consumer, or error), arms CQs (any / solicited) and puts CQs whose CQE write failed in
// error. A host model takes the DMA writes with random back-pressure and delayed B responses
// (some with bus errors, on CQEs and on EQ entries). A reference model of the engine's rules
// predicts every CQE (slot, owner bit, bytes), every drop, every hold and every EQ entry; the
// host checks each CQE byte for byte, each EQ entry byte for byte in its slot with its owner
// bit, and that no EQ entry write is issued while a CQE write waits for its B response.
// Built at -GDataWidth=512 (one beat per CQE) and 64 (four). Options: --seed N, --records N.
// Built with -GNumCores=2 (TB_CORES=2) the same test runs on core 0's port (core 1 silent), then
// a test of two firmware models storing into their own cores' rings in the same cycles (mc_test
// below: every CQE byte for byte in its CQ's slot, each core's records in order with none lost or
// doubled under back-pressure and slow B responses, round-robin between two full rings, a hold
// of core 1's record answered by core 0, each core's event records in order after its CQEs).
// Every build then runs eng_test: the send-retirement engine's records (cqr_* port, a model of
// rtl/sq_retire's registered output) interleaved with the firmware ring's: each CQE byte for byte
// in its CQ's slot, each source's records once and in order, cqw_cons counting ring records only,
// and a CQ filled by engine records alone held (never overwritten, the engine's output kept)
// until the firmware's CI answer.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "Vcqe_writer.h"
#include "rnic_spec.h"
#include "tb_check.h"
#include "tb_tc_port.h"
#include "verilated.h"

#ifndef TB_DATA_WIDTH
#define TB_DATA_WIDTH 512
#endif
#ifndef TB_CORES
#define TB_CORES 1
#endif
static constexpr unsigned BPB = TB_DATA_WIDTH / 8;
static constexpr uint64_t EQ_BASE = 0x2000000040ull;
static constexpr unsigned EQ_LOG = 3;

template <typename T> static uint64_t getb(const T &s, unsigned lsb, unsigned w) {
  uint64_t m = w >= 64 ? ~0ull : ((1ull << w) - 1);
  if constexpr (std::is_integral_v<T>) {
    return (uint64_t(s) >> lsb) & m;
  } else {
    uint64_t v = 0;
    for (unsigned i = 0; i < w; i++) v |= uint64_t((s[(lsb + i) / 32] >> ((lsb + i) % 32)) & 1) << i;
    return v;
  }
}

// Reference state of one CQ, as the engine should keep it, plus the host's consumer.
struct Cq {
  uint64_t base = 0;
  unsigned log = 0;
  uint32_t pi = 0, ci = 0;  // engine's producer and known consumer (mod 2^17)
  uint32_t hci = 0;         // the host's consumer (its doorbell record)
  unsigned armed = 0;       // 0, 1 any, 2 solicited
  bool err = false;
  uint32_t size() const { return 1u << log; }
};

struct Ev {  // an EQ entry as expected / as seen
  uint8_t type, subtype;
  uint32_t handle, data;
};

struct Tb {
  Vcqe_writer m;
  std::mt19937_64 rng;
  uint64_t cycle = 0;
  // host side
  std::map<uint64_t, uint8_t> host;  // every byte written successfully
  std::map<uint64_t, bool> failed;   // address of a CQE write: its latest attempt failed
  struct Wr { uint64_t addr; uint32_t len; std::vector<uint8_t> data; unsigned beats = 0; bool eq; };
  std::deque<Wr> wr_q;                                  // accepted requests waiting for data
  struct Cpl { uint64_t due; unsigned st; bool eq; bool ring = false; };
  std::deque<Cpl> cpl_q;
  unsigned ready_pct = 70, errors_pct = 0, eq_errors_pct = 0, cpl_delay = 40;
  unsigned reqs = 0, bad_len = 0, cqe_out = 0, max_cqe_out = 0, eq_while_cqe_out = 0;
  uint64_t cqe_cpl_ok = 0, cqe_cpl_all = 0;
  std::vector<uint64_t> cqe_err_addr;  // addresses of failed CQE writes, in completion order
  struct EqWr { uint64_t addr; std::vector<uint8_t> data; bool ok; uint64_t cqe_cpls_before; };
  std::vector<EqWr> eq_writes;
  struct CqeWr { uint64_t addr; std::vector<uint8_t> data; };
  std::vector<CqeWr> cqe_log;  // every CQE write, in issue (= completion) order
  unsigned notify = 0, eq_err_pulses = 0;
  // the send-retirement engine's output (cqr_*): records queued here are offered in order; an
  // offer stays (same data) until taken, as sq_retire's registered output does
  std::deque<std::vector<uint8_t>> eng_q;
  unsigned eng_pct = 0, eng_ready_idle = 0;
  uint64_t eng_taken = 0, ring_cpls = 0;  // engine records taken; B responses of ring records (wr_id byte 0 != kEngTag)
  static constexpr uint8_t kEngTag = 0xE5;

  explicit Tb(uint64_t seed) : rng(seed) {
    m.clk_i = 0;
    m.rst_ni = 0;
    m.tc_req_i = 0;
    m.wr_req_ready_i = 0;
    m.wr_data_ready_i = 0;
    m.wr_cpl_valid_i = 0;
    m.eq_base_lo_i = uint32_t(EQ_BASE);
    m.eq_base_hi_i = uint32_t(EQ_BASE >> 32);
    m.eq_log_size_i = EQ_LOG;
    m.cqr_valid_i = 0;
    m.eval();
    for (int i = 0; i < 4; i++) tick();
    m.rst_ni = 1;
    tick();
  }
  bool coin(unsigned pct) { return rng() % 100 < pct; }

  void tick() {
    m.eval();
    bool req_fire = m.wr_req_valid_o && m.wr_req_ready_i;
    bool dat_fire = m.wr_data_valid_o && m.wr_data_ready_i;
    bool cpl_fire = m.wr_cpl_valid_i && m.wr_cpl_ready_o;
    notify += m.eq_notify_o;
    bool eng_fire = m.cqr_valid_i && m.cqr_ready_o;
    eng_ready_idle += m.cqr_ready_o && !m.cqr_valid_i;
    eq_err_pulses += m.eq_wr_err_o;
    if (cpl_fire) {
      Cpl c = cpl_q.front();
      cpl_q.pop_front();
      if (!c.eq) {
        ring_cpls += c.ring;
        cqe_out--;
        cqe_cpl_all++;
        cqe_cpl_ok += c.st == 0;
      }
    }
    Wr nw;
    if (req_fire) {
      nw.addr = m.wr_req_addr_o;
      nw.len = m.wr_req_len_o;
      nw.eq = nw.len == RNIC_EQ_ENTRY_SIZE;
      if (nw.len != RNIC_CQE_SIZE && nw.len != RNIC_EQ_ENTRY_SIZE) bad_len++;
      if (nw.eq && cqe_out) eq_while_cqe_out++;  // an event must follow its CQEs' B responses
      if (!nw.eq) max_cqe_out = std::max(max_cqe_out, ++cqe_out);
      reqs++;
    }
    if (dat_fire) {
      if (wr_q.empty()) {
        bad_len++;
      } else {
        Wr &w = wr_q.front();
        for (unsigned b = 0; b < BPB && w.data.size() < w.len; b++)
          w.data.push_back(uint8_t(getb(m.wr_data_o, 8 * b, 8)));
        if (++w.beats == (w.len + BPB - 1) / BPB) {
          unsigned st = coin(w.eq ? eq_errors_pct : errors_pct) ? 2 : 0;
          if (w.eq) {
            eq_writes.push_back({w.addr, w.data, st == 0, cqe_cpl_all});
          } else {
            failed[w.addr] = st != 0;
            cqe_log.push_back({w.addr, w.data});
            if (st) cqe_err_addr.push_back(w.addr);
          }
          if (st == 0)
            for (unsigned i = 0; i < w.len; i++) host[w.addr + i] = w.data[i];
          cpl_q.push_back({cycle + 1 + rng() % cpl_delay, st, w.eq, !w.eq && w.data[0] != kEngTag});
          wr_q.pop_front();
        }
      }
    }
    if (req_fire) wr_q.push_back(nw);
    m.clk_i = 1;
    m.eval();
    m.clk_i = 0;
    m.eval();
    cycle++;
    if (eng_fire) {
      eng_q.pop_front();
      eng_taken++;
    }
    if (!(m.cqr_valid_i && !eng_fire)) m.cqr_valid_i = !eng_q.empty() && coin(eng_pct);
    if (m.cqr_valid_i)
      for (unsigned i = 0; i < RNIC_CQ_REC_SIZE / 4; i++) m.cqr_i[i] = rnic_ld_le32(&eng_q.front()[4 * i]);
    m.wr_req_ready_i = coin(ready_pct);
    m.wr_data_ready_i = coin(ready_pct);
    m.wr_cpl_valid_i = !cpl_q.empty() && cpl_q.front().due <= cycle;
    m.wr_cpl_status_i = cpl_q.empty() ? 0 : cpl_q.front().st;
    m.tc_req_i = 0;
  }

  void tc_wr(uint32_t off, uint32_t v) { tb_tc_store(m, [this] { tick(); }, off, v); }
  uint32_t tc_rd(uint32_t off) { return tb_tc_load(m, [this] { tick(); }, off); }
};

// the writer's free-running record and event counters wrap here
static const uint32_t kCntMask = (1u << RNIC_CQW_COUNT_BITS) - 1;

// Every wait on the engine is bounded: a stuck engine fails the test instead of hanging it.
static unsigned g_spin;
static bool stuck(Tb &tb, const char *where) {
  if (++g_spin < 200000) return false;
  std::printf("FAIL cqw-engine-stuck in %s: status 0x%x full 0x%x cons %u eqw_cons %u\n", where,
              tb.tc_rd(RNIC_FW_TC_CQW_STATUS), tb.tc_rd(RNIC_FW_TC_CQW_FULL), tb.tc_rd(RNIC_FW_TC_CQW_CONS),
              tb.tc_rd(RNIC_FW_TC_EQW_CONS));
  tb_print_rerun();
  std::exit(1);
}


#if TB_CORES > 1
static_assert(TB_CORES == 2, "mc_test drives two cores' ports");

// A record's bytes from its core and number: byte 0 the core, bytes 1-3 the number, the rest a hash.
static uint8_t mc_byte(unsigned core, uint32_t seq, unsigned i) {
  if (i == 0) return uint8_t(core);
  if (i < 4) return uint8_t(seq >> (8 * (i - 1)));
  uint64_t x = (uint64_t(core) << 48 | uint64_t(seq) << 8 | i) * 0x9E3779B97F4A7C15ull;
  return uint8_t(x >> 56);
}

// Two firmware models, one per core, each a queue of tightly coupled accesses (one per cycle); a
// load's callback gets its data after the edge and may queue the next accesses.
static void mc_test(uint64_t seed, unsigned records, TbResults &r) {
  constexpr unsigned N = TB_CORES;
  std::printf("# mc_test cores %u seed %llu records per core %u\n", N, (unsigned long long)seed, records);
  Tb tb(seed);
  std::mt19937_64 &rng = tb.rng;
  struct Op { bool we; uint32_t off, val; std::function<void(uint32_t)> cb; };
  std::deque<Op> ops[N];
  auto cycle = [&] {
    uint32_t req = 0, we = 0, addr = 0;
    uint64_t wdata = 0;
    bool drove[N];
    for (unsigned c = 0; c < N; c++) {
      drove[c] = !ops[c].empty();
      if (!drove[c]) continue;
      const Op &o = ops[c].front();
      req |= 1u << c;
      we |= uint32_t(o.we) << c;
      addr |= o.off << (12 * c);
      wdata |= uint64_t(o.val) << (32 * c);
    }
    tb.m.tc_req_i = req;
    tb.m.tc_we_i = we;
    tb.m.tc_addr_i = addr;
    tb.m.tc_wdata_i = wdata;
    tb.tick();
    tb.m.eval();
    for (unsigned c = 0; c < N; c++) {
      if (!drove[c]) continue;
      Op o = std::move(ops[c].front());
      ops[c].pop_front();
      if (!o.we && o.cb) o.cb(uint32_t(tb.m.tc_rdata_o >> (32 * c)));
    }
  };
  auto st = [&](unsigned c, uint32_t off, uint32_t v) { ops[c].push_back({true, off, v, nullptr}); };
  auto ld = [&](unsigned c, uint32_t off, std::function<void(uint32_t)> cb) {
    ops[c].push_back({false, off, 0, std::move(cb)});
  };
  auto run_until_empty = [&] {
    for (g_spin = 0; !ops[0].empty() || !ops[1].empty();) {
      cycle();
      if (++g_spin > 200000) {
        r.check(false, "mc-firmware-models-stuck");
        std::exit(1);
      }
    }
  };

  // CQs on core 0's page: two large ones and a small one that runs full (holds)
  struct McCq { uint32_t n; unsigned log; uint64_t base; uint32_t writes = 0; };
  std::vector<McCq> cqs = {{3, 12, 0x3000000000ull}, {70, 11, 0x3100000020ull}, {127, 2, 0x3200000040ull}};
  for (auto &c : cqs) {
    st(0, RNIC_FW_TC_CQW_CQ_BASE_LO, uint32_t(c.base));
    st(0, RNIC_FW_TC_CQW_CQ_BASE_HI, uint32_t(c.base >> 32));
    st(0, RNIC_FW_TC_CQW_CQ_CFG, rnic_cqw_cq_cfg_mk_cqn(c.n) | rnic_cqw_cq_cfg_mk_log_size(c.log));
    run_until_empty();
    for (int i = 0; i < 4; i++) cycle();  // the configuration is taken in Idle
  }

  std::vector<std::vector<uint8_t>> recs[N];  // each core's records, in its order
  uint32_t prod[N] = {}, evp[N] = {};
  auto queue_record = [&](unsigned c, unsigned cq) {
    uint32_t seq = uint32_t(recs[c].size());
    std::vector<uint8_t> b(RNIC_CQ_REC_SIZE);
    for (unsigned i = 0; i < RNIC_CQ_REC_SIZE; i++) b[i] = mc_byte(c, seq, i);
    rnic_cq_rec_set_cqn(b.data(), cqs[cq].n);
    recs[c].push_back(b);
    uint32_t slot = RNIC_FW_TC_CQ_REC_BASE + (prod[c] % RNIC_FW_TC_CQ_REC_NUM) * RNIC_CQ_REC_SIZE;
    for (unsigned i = 0; i < RNIC_CQ_REC_SIZE; i += 4) st(c, slot + i, rnic_ld_le32(&b[i]));
    prod[c] = (prod[c] + 1) & kCntMask;
    st(c, RNIC_FW_TC_CQW_PROD, prod[c]);
  };

  // 1. round-robin: both rings filled while the DMA engine takes no request, then released
  tb.ready_pct = 0;
  for (unsigned k = 0; k < RNIC_FW_TC_CQ_REC_NUM; k++)
    for (unsigned c = 0; c < N; c++) queue_record(c, k % 2);
  run_until_empty();
  for (int i = 0; i < 100; i++) cycle();
  tb.ready_pct = 90;

  // 2. both cores at once: records to all three CQs, event records, core 0 answering holds
  struct McEv { unsigned core; uint32_t seq, need; uint8_t type; uint32_t data; };
  std::vector<McEv> evs[N];
  unsigned holds = 0, core1_shared_nonzero = 0, core1_shared_reads = 0;
  bool hold_busy = false;
  auto service_hold = [&] {
    hold_busy = true;
    ld(0, RNIC_FW_TC_CQW_FULL, [&](uint32_t full) {
      if (!rnic_cqw_full_v_held(full)) {
        hold_busy = false;
        return;
      }
      uint32_t cqn = rnic_cqw_full_v_cqn(full);
      ld(0, RNIC_FW_TC_CQW_FULL_PI, [&, cqn](uint32_t pi) {
        ld(0, RNIC_FW_TC_CQW_STATUS, [&, cqn, pi](uint32_t s) {
          hold_busy = false;
          if (rnic_cqw_status_v_cmd(s)) return;
          // the host polled every CQE of it: the consumer is the producer
          st(0, RNIC_FW_TC_CQW_CMD_ARG, pi);
          st(0, RNIC_FW_TC_CQW_CMD, rnic_cqw_cmd_mk_cqn(cqn) | rnic_cqw_cmd_mk_op(RNIC_CQW_OP_CI));
          holds++;
        });
      });
    });
  };
  for (g_spin = 0;; g_spin++) {
    if (g_spin > 50u * records * N + 200000) {
      r.check(false, "mc-records-stuck", "core 0 %zu core 1 %zu of %u", recs[0].size(), recs[1].size(), records);
      return;
    }
    uint64_t ph = tb.cycle / 2000;
    tb.ready_pct = ph % 2 ? 25 : 90;
    tb.cpl_delay = ph % 3 == 2 ? 600 : 40;
    bool more = false;
    for (unsigned c = 0; c < N; c++) {
      more |= recs[c].size() < records;
      if (!ops[c].empty() || rng() % 4 == 0) continue;
      if (c == 0 && rng() % 3 == 0) {
        service_hold();
        continue;
      }
      if (c == 1 && rng() % 50 == 0) {
        // the shared registers are core 0's: core 1 reads 0 there
        ld(1, RNIC_FW_TC_CQW_STATUS, [&](uint32_t v) {
          core1_shared_reads++;
          core1_shared_nonzero += v != 0;
        });
        continue;
      }
      // events are rare (each waits for every CQE write in flight): the rings fill between them
      if (rng() % 200 == 0) {
        ld(c, RNIC_FW_TC_EQW_CONS, [&, c](uint32_t cons) {
          if (((evp[c] - cons) & kCntMask) >= RNIC_FW_TC_EV_REC_NUM) return;
          McEv e{c, uint32_t(evs[c].size()), uint32_t(recs[c].size()), uint8_t(rng() % 2 ? RNIC_EQ_TYPE_QP_FATAL : RNIC_EQ_TYPE_PORT_CHANGE),
                 uint32_t(rng())};
          evs[c].push_back(e);
          uint32_t slot = RNIC_FW_TC_EV_REC_BASE + (evp[c] % RNIC_FW_TC_EV_REC_NUM) * RNIC_EQ_ENTRY_SIZE;
          st(c, slot, e.type);
          st(c, slot + 4, c << 16 | e.seq);
          st(c, slot + 8, e.data);
          st(c, slot + 12, 0);
          evp[c] = (evp[c] + 1) & kCntMask;
          st(c, RNIC_FW_TC_EQW_PROD, evp[c]);
        });
        continue;
      }
      if (recs[c].size() >= records) continue;
      ld(c, RNIC_FW_TC_CQW_CONS, [&, c](uint32_t cons) {
        if (((prod[c] - cons) & kCntMask) < RNIC_FW_TC_CQ_REC_NUM) queue_record(c, unsigned(rng() % 8 == 0 ? 2 : rng() % 2));
      });
    }
    cycle();
    if (!more && ops[0].empty() && ops[1].empty()) break;
  }
  // drain: holds answered until the writer is idle and every record is taken
  bool idle = false;
  uint32_t cons_end[N] = {};
  for (g_spin = 0; !idle && g_spin < 400000; g_spin++) {
    if (ops[0].empty() && !hold_busy) {
      service_hold();
      ld(0, RNIC_FW_TC_CQW_STATUS, [&](uint32_t v) { idle = rnic_cqw_status_v_idle(v); });
    }
    cycle();
  }
  tb.ready_pct = 100;
  for (int i = 0; i < 3000; i++) cycle();
  for (unsigned c = 0; c < N; c++) ld(c, RNIC_FW_TC_CQW_CONS, [&, c](uint32_t v) { cons_end[c] = v; });
  run_until_empty();
  r.check(idle && cons_end[0] == prod[0] && cons_end[1] == prod[1], "mc-both-rings-drained",
          "idle %d cons %u/%u prod %u/%u", idle, cons_end[0], cons_end[1], prod[0], prod[1]);

  // every CQE write: its CQ's next slot and owner bit, the bytes of the record it names
  bool bytes_ok = true, order_ok = true;
  std::string why;
  uint32_t next[N] = {};
  std::vector<unsigned> src;  // core of each CQE write, in order
  for (auto &w : tb.cqe_log) {
    unsigned c = w.data[0];
    uint32_t seq = uint32_t(w.data[1]) | uint32_t(w.data[2]) << 8 | uint32_t(w.data[3]) << 16;
    if (c >= N || seq >= recs[c].size()) {
      bytes_ok = false;
      why = "a CQE names no record";
      break;
    }
    src.push_back(c);
    if (seq != next[c]) {
      if (order_ok) why = "core " + std::to_string(c) + " record " + std::to_string(seq) + " where " + std::to_string(next[c]) + " was due";
      order_ok = false;
    }
    next[c] = seq + 1;
    const std::vector<uint8_t> &rc = recs[c][seq];
    uint32_t n = rnic_cq_rec_get_cqn(rc.data());
    McCq *q = nullptr;
    for (auto &x : cqs)
      if (x.n == n) q = &x;
    std::vector<uint8_t> want(rc.begin(), rc.begin() + RNIC_CQE_SIZE);
    want[30] = want[31] = 0;
    rnic_cqe_set_owner(want.data(), ((q->writes >> q->log) & 1) ^ 1);
    uint64_t addr = q->base + uint64_t(q->writes & ((1u << q->log) - 1)) * RNIC_CQE_SIZE;
    if (w.addr != addr || w.data != want) {
      if (bytes_ok) why = "core " + std::to_string(c) + " record " + std::to_string(seq) + " cq " + std::to_string(n) +
                          (w.addr != addr ? " at the wrong slot" : " bytes differ");
      bytes_ok = false;
    }
    q->writes++;
  }
  r.check(bytes_ok, "mc-cqes-in-their-cq-slot-byte-exact", "%s", why.c_str());
  r.check(order_ok && next[0] == records && next[1] == records, "mc-each-core-in-order-none-lost-or-doubled",
          "%s; core 0 %u core 1 %u of %u", why.c_str(), next[0], next[1], records);
  // phase 1: with both rings full the grants alternate (the first record was taken before core 1's
  // ring had one, so at most one pair from the same core)
  unsigned same = 0;
  for (size_t i = 1; i < 2 * RNIC_FW_TC_CQ_REC_NUM && i < src.size(); i++) same += src[i] == src[i - 1];
  r.check(src.size() >= 2 * RNIC_FW_TC_CQ_REC_NUM && same <= 1, "mc-full-rings-round-robin", "%u repeats", same);
  r.check(tb.eq_while_cqe_out == 0 && tb.bad_len == 0, "mc-eq-after-cqe-b-responses-lengths", "early %u bad %u",
          tb.eq_while_cqe_out, tb.bad_len);
  // event records: each core's in order, byte exact in successive EQ slots, after the CQEs its core
  // handed before posting it
  {
    bool ok = true;
    uint32_t k = 0, nev[N] = {};
    for (auto &w : tb.eq_writes) {
      uint8_t e[RNIC_EQ_ENTRY_SIZE];
      std::memcpy(e, w.data.data(), RNIC_EQ_ENTRY_SIZE);
      uint32_t h = rnic_eq_entry_get_handle(e);
      unsigned c = h >> 16;
      if (c >= N || nev[c] >= evs[c].size() || (h & 0xFFFF) != nev[c]) {
        ok = false;
        why = "event handle " + std::to_string(h) + " out of order";
        break;
      }
      const McEv &x = evs[c][nev[c]++];
      uint32_t done_c = 0;
      for (uint64_t i = 0; i < w.cqe_cpls_before; i++) done_c += tb.cqe_log[i].data[0] == c;
      uint8_t want[RNIC_EQ_ENTRY_SIZE] = {0};
      rnic_eq_entry_set_event_type(want, x.type);
      rnic_eq_entry_set_handle(want, h);
      rnic_eq_entry_set_data(want, x.data);
      rnic_eq_entry_set_owner(want, ((k >> EQ_LOG) & 1) ^ 1);
      uint64_t addr = EQ_BASE + uint64_t(k & ((1u << EQ_LOG) - 1)) * RNIC_EQ_ENTRY_SIZE;
      // x.need: the records core c had handed (its cqw_prod, not wrapped) when it posted the event
      if (w.addr != addr || std::memcmp(want, e, RNIC_EQ_ENTRY_SIZE) || !w.ok || done_c < x.need) {
        ok = false;
        why = "event of core " + std::to_string(c) + " number " + std::to_string(x.seq) +
              (done_c < x.need ? " before its CQEs" : " bytes or slot differ");
        break;
      }
      k++;
    }
    r.check(ok && nev[0] == evs[0].size() && nev[1] == evs[1].size() && nev[0] > 5 && nev[1] > 5,
            "mc-event-records-per-core-in-order-after-their-cqes", "%s; core 0 %u/%zu core 1 %u/%zu", why.c_str(), nev[0],
            evs[0].size(), nev[1], evs[1].size());
  }
  std::printf("# mc coverage: holds answered %u, max CQE writes awaiting B %u, core-1 shared reads %u\n", holds,
              tb.max_cqe_out, core1_shared_reads);
  r.check(holds > 10 && tb.max_cqe_out > RNIC_FW_TC_CQ_REC_NUM && core1_shared_reads > 0 && core1_shared_nonzero == 0,
          "mc-coverage-holds-both-rings-in-flight-core1-shared-reads-0", "holds %u max in flight %u core 1 nonzero %u",
          holds, tb.max_cqe_out, core1_shared_nonzero);
}
#endif

// The engine as a second record source. CQs: A and C take ring and engine records, B (4 CQEs)
// engine records only, so each of B's holds is an engine record's; the host consumes CQ B's
// CQEs only through the firmware's CI answers. Records carry their source and number in wr_id.
static void eng_test(uint64_t seed, unsigned records, TbResults &r) {
  std::printf("# eng_test seed %llu records per source %u\n", (unsigned long long)seed, records);
  Tb tb(seed);
  std::mt19937_64 &rng = tb.rng;
  struct ECq { uint32_t n; unsigned log; uint64_t base; uint32_t ci_given = 0; };
  ECq cqs[3] = {{7, 9, 0x4000000000ull}, {33, 2, 0x4100000020ull}, {100, 6, 0x4200000060ull}};
  for (auto &c : cqs) {
    tb.tc_wr(RNIC_FW_TC_CQW_CQ_BASE_LO, uint32_t(c.base));
    tb.tc_wr(RNIC_FW_TC_CQW_CQ_BASE_HI, uint32_t(c.base >> 32));
    tb.tc_wr(RNIC_FW_TC_CQW_CQ_CFG, rnic_cqw_cq_cfg_mk_cqn(c.n) | rnic_cqw_cq_cfg_mk_log_size(c.log));
    for (g_spin = 0; rnic_cqw_status_v_cmd(tb.tc_rd(RNIC_FW_TC_CQW_STATUS));) stuck(tb, "eng configuration");
  }
  // records of both sources: [source][seq]
  std::vector<std::vector<uint8_t>> recs[2];
  auto make = [&](unsigned src, unsigned cq) {
    std::vector<uint8_t> b(RNIC_CQ_REC_SIZE);
    for (auto &x : b) x = uint8_t(rng());
    uint32_t seq = uint32_t(recs[src].size());
    b[0] = src ? Tb::kEngTag : 0x51;
    b[1] = uint8_t(seq), b[2] = uint8_t(seq >> 8), b[3] = uint8_t(seq >> 16);
    b[RNIC_CQE_STATUS_OFF] = 0;
    rnic_cq_rec_set_cqn(b.data(), cqs[cq].n);
    recs[src].push_back(b);
    return b;
  };
  uint32_t prod = 0;
  unsigned cons_reads = 0, cons_ahead = 0, holds_b = 0, holds_other = 0;
  // the firmware's answer to a hold: the host consumed everything written (its consumer is the
  // producer the writer reports)
  auto service = [&] {
    uint32_t full = tb.tc_rd(RNIC_FW_TC_CQW_FULL);
    if (!rnic_cqw_full_v_held(full)) return;
    uint32_t cqn = rnic_cqw_full_v_cqn(full), pi = tb.tc_rd(RNIC_FW_TC_CQW_FULL_PI);
    for (g_spin = 0; rnic_cqw_status_v_cmd(tb.tc_rd(RNIC_FW_TC_CQW_STATUS));) stuck(tb, "eng command");
    for (auto &c : cqs)
      if (c.n == cqn) c.ci_given = pi;
    (cqn == cqs[1].n ? holds_b : holds_other)++;
    tb.tc_wr(RNIC_FW_TC_CQW_CMD_ARG, pi);
    tb.tc_wr(RNIC_FW_TC_CQW_CMD, rnic_cqw_cmd_mk_cqn(cqn) | rnic_cqw_cmd_mk_op(RNIC_CQW_OP_CI));
  };
  auto cons = [&] {
    uint32_t v = tb.tc_rd(RNIC_FW_TC_CQW_CONS) & kCntMask;
    cons_reads++;
    cons_ahead += ((uint32_t(tb.ring_cpls) - v) & kCntMask) > (kCntMask >> 1);  // cons > ring B responses
    return v;
  };
  // 1. both sources full while the DMA engine takes no request, then released: the writer
  // alternates between them (the first 2 x cq_rec_num CQEs switch source every time)
  tb.ready_pct = 0;
  tb.eng_pct = 100;
  for (unsigned i = 0; i < RNIC_FW_TC_CQ_REC_NUM; i++) tb.eng_q.push_back(make(1, (i % 2) * 2));
  for (unsigned i = 0; i < RNIC_FW_TC_CQ_REC_NUM; i++) {
    std::vector<uint8_t> b = make(0, (i % 2) * 2);
    uint32_t slot = RNIC_FW_TC_CQ_REC_BASE + (prod % RNIC_FW_TC_CQ_REC_NUM) * RNIC_CQ_REC_SIZE;
    for (unsigned j = 0; j < RNIC_CQ_REC_SIZE; j += 4) tb.tc_wr(slot + j, rnic_ld_le32(&b[j]));
    prod = (prod + 1) & kCntMask;
  }
  tb.tc_wr(RNIC_FW_TC_CQW_PROD, prod);
  for (int i = 0; i < 100; i++) tb.tick();
  tb.ready_pct = 100;
  for (int i = 0; i < 2000; i++) tb.tick();
  unsigned alt = 0;
  for (size_t i = 1; i < tb.cqe_log.size() && i < 2 * RNIC_FW_TC_CQ_REC_NUM; i++)
    alt += (tb.cqe_log[i].data[0] == Tb::kEngTag) != (tb.cqe_log[i - 1].data[0] == Tb::kEngTag);
  r.check(tb.cqe_log.size() == 2 * RNIC_FW_TC_CQ_REC_NUM && alt == 2 * RNIC_FW_TC_CQ_REC_NUM - 1,
          "eng-both-waiting-alternate", "%zu CQEs, %u switches", tb.cqe_log.size(), alt);

  // 2. random traffic of both sources
  for (unsigned k = 0; recs[0].size() < records || recs[1].size() < records; k++) {
    uint64_t ph = k / 400;
    tb.ready_pct = ph % 2 ? 30 : 95;
    tb.cpl_delay = ph % 3 == 2 ? 300 : 30;
    tb.eng_pct = ph % 4 == 3 ? 20 : 90;
    // the engine: a burst of records, a third of them to CQ B
    if (recs[1].size() < records && tb.eng_q.size() < 8 && rng() % 3 == 0)
      for (unsigned b = 1 + rng() % 4; b && recs[1].size() < records; b--)
        tb.eng_q.push_back(make(1, rng() % 3 == 0 ? 1 : (rng() % 2) * 2));
    // the firmware's ring: CQs A and C
    if (recs[0].size() < records && ((prod - cons()) & kCntMask) < RNIC_FW_TC_CQ_REC_NUM) {
      std::vector<uint8_t> b = make(0, (rng() % 2) * 2);
      uint32_t slot = RNIC_FW_TC_CQ_REC_BASE + (prod % RNIC_FW_TC_CQ_REC_NUM) * RNIC_CQ_REC_SIZE;
      for (unsigned i = 0; i < RNIC_CQ_REC_SIZE; i += 4) tb.tc_wr(slot + i, rnic_ld_le32(&b[i]));
      prod = (prod + 1) & kCntMask;
      tb.tc_wr(RNIC_FW_TC_CQW_PROD, prod);
    }
    if (rng() % 4 == 0) service();
    if (++g_spin > 400000u + 200u * records) {
      r.check(false, "eng-records-stuck", "ring %zu engine %zu queued %zu", recs[0].size(), recs[1].size(), tb.eng_q.size());
      return;
    }
  }
  bool idle = false;
  for (g_spin = 0; !idle && g_spin < 200000; g_spin++) {
    service();
    idle = rnic_cqw_status_v_idle(tb.tc_rd(RNIC_FW_TC_CQW_STATUS)) && tb.eng_q.empty() && !tb.m.cqr_valid_i;
  }
  for (int i = 0; i < 2000; i++) tb.tick();
  uint32_t cons_end = cons();
  r.check(idle && tb.eng_taken == records && cons_end == prod, "eng-ring-and-engine-drained",
          "idle %d engine taken %llu of %u cons %u prod %u", idle, (unsigned long long)tb.eng_taken, records, cons_end, prod);
  r.check(cons_ahead == 0 && cons_reads > 100 && tb.ring_cpls == records, "eng-cqw-cons-counts-ring-records-only",
          "%u of %u reads ahead of the ring's B responses; ring B responses %llu", cons_ahead, cons_reads,
          (unsigned long long)tb.ring_cpls);
  r.check(tb.eng_ready_idle == 0, "eng-ready-only-with-valid", "%u cycles", tb.eng_ready_idle);

  // every CQE: a record of one source, in that source's order, at its CQ's next slot with the
  // owner bit of the pass, bytes exact; CQ B never written past the consumer the firmware gave
  bool ok = true, b_ok = true;
  std::string why;
  uint32_t next[2] = {}, written[3] = {};
  unsigned switches = 0, prev_src = 2, shared_cq_both[2] = {};
  for (auto &w : tb.cqe_log) {
    unsigned src = w.data[0] == Tb::kEngTag ? 1 : 0;
    uint32_t seq = uint32_t(w.data[1]) | uint32_t(w.data[2]) << 8 | uint32_t(w.data[3]) << 16;
    if (seq >= recs[src].size()) { ok = false; why = "a CQE names no record"; break; }
    if (seq != next[src]) { ok = false; why = std::string(src ? "engine" : "ring") + " record " + std::to_string(seq) + " where " + std::to_string(next[src]) + " was due"; break; }
    next[src]++;
    switches += prev_src != 2 && prev_src != src;
    prev_src = src;
    const std::vector<uint8_t> &rc = recs[src][seq];
    uint32_t n = rnic_cq_rec_get_cqn(rc.data());
    unsigned qi = n == cqs[0].n ? 0 : n == cqs[1].n ? 1 : 2;
    const ECq &q = cqs[qi];
    if (qi != 1) shared_cq_both[src]++;
    uint32_t pi = written[qi]++;
    std::vector<uint8_t> want(rc.begin(), rc.begin() + RNIC_CQE_SIZE);
    want[30] = want[31] = 0;
    rnic_cqe_set_owner(want.data(), ((pi >> q.log) & 1) ^ 1);
    uint64_t addr = q.base + uint64_t(pi & ((1u << q.log) - 1)) * RNIC_CQE_SIZE;
    if (w.addr != addr || w.data != want) {
      ok = false;
      why = std::string(src ? "engine" : "ring") + " record " + std::to_string(seq) + " CQ " + std::to_string(n) + " pi " + std::to_string(pi);
      break;
    }
  }
  // CQ B (4 CQEs, engine records only): every record written once (above) needed the firmware's
  // CI answers to holds: at least one per 4 CQEs past the first 4
  uint32_t b_recs = 0;
  for (auto &rc : recs[1]) b_recs += rnic_cq_rec_get_cqn(rc.data()) == cqs[1].n;
  b_ok = written[1] == b_recs && holds_b >= (b_recs > 4 ? (b_recs - 4) / 4 : 0) && holds_b > 10;
  r.check(ok && next[0] == records && next[1] == records, "eng-cqes-both-sources-once-in-order-byte-exact", "%s; ring %u engine %u",
          why.c_str(), next[0], next[1]);
  r.check(b_ok, "eng-held-cq-holds-engine-output", "CQ B: %u writes of %u records, %u holds answered", written[1], b_recs, holds_b);
  r.check(switches > records / 4 && shared_cq_both[0] > 0 && shared_cq_both[1] > 0, "eng-sources-interleaved",
          "%u source switches", switches);
  std::printf("# eng_test: %u source switches, CQ B holds %u (other CQs %u), cons reads %u\n", switches, holds_b, holds_other, cons_reads);
}

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  uint64_t seed = 1;
  unsigned records = 3000;
  for (int i = 1; i + 1 < argc; i++) {
    if (!std::strcmp(argv[i], "--seed")) seed = std::strtoull(argv[++i], nullptr, 0);
    else if (!std::strcmp(argv[i], "--records")) records = std::strtoul(argv[++i], nullptr, 0);
  }
  std::printf("# tb_cqe_writer DataWidth %u seed %llu records %u\n", TB_DATA_WIDTH, (unsigned long long)seed,
              records);
  TbResults r;
  Tb tb(seed);
  std::mt19937_64 &rng = tb.rng;

  uint32_t st0 = tb.tc_rd(RNIC_FW_TC_CQW_STATUS);
  r.check(tb.tc_rd(RNIC_FW_TC_CQW_PROD) == 0 && tb.tc_rd(RNIC_FW_TC_CQW_CONS) == 0 && st0 == RNIC_CQW_STATUS_IDLE_MASK &&
              tb.tc_rd(RNIC_FW_TC_EQW_CONS) == 0 && tb.m.eq_prod_o == 0,
          "cqw-reset-state-and-one-cycle-loads", "status 0x%x", st0);

  // CQ numbers of every width the writer decodes; ring sizes 2..16 CQEs wrap often.
  const uint32_t cqns[] = {1, 2, 5, 64, 127};
  std::map<uint32_t, Cq> cqs;
  auto cq_of_addr = [&](uint64_t a) -> uint32_t {
    for (auto &kv : cqs)
      if (a >= kv.second.base && a < kv.second.base + (uint64_t(RNIC_CQE_SIZE) << kv.second.log)) return kv.first;
    return 0;
  };
  auto program = [&](uint32_t n, unsigned log) {
    Cq c;
    c.base = 0x1000000000ull + uint64_t(n) * 0x100000 + (rng() % 64) * 32;  // 32-byte aligned
    c.log = log;
    cqs[n] = c;
    for (g_spin = 0; rnic_cqw_status_v_cmd(tb.tc_rd(RNIC_FW_TC_CQW_STATUS));) stuck(tb, "configuration");
    tb.tc_wr(RNIC_FW_TC_CQW_CQ_BASE_LO, uint32_t(c.base));
    tb.tc_wr(RNIC_FW_TC_CQW_CQ_BASE_HI, uint32_t(c.base >> 32));
    tb.tc_wr(RNIC_FW_TC_CQW_CQ_CFG, rnic_cqw_cq_cfg_mk_cqn(n) | rnic_cqw_cq_cfg_mk_log_size(log));
  };
  for (uint32_t n : cqns) program(n, 1 + rng() % 4);

  // coverage
  unsigned cov_full_wait = 0, cov_hold_ci = 0, cov_hold_err = 0, cov_drop = 0, cov_arm_now = 0, cov_arm_any = 0,
           cov_arm_sol_hit = 0, cov_arm_sol_fail = 0, cov_arm_sol_skip = 0, cov_fw_ev = 0, cov_owner_flip = 0,
           cov_reprog = 0, cov_cq_err = 0;
  uint32_t prod = 0, evp = 0;
  std::vector<uint8_t> rec(RNIC_CQ_REC_SIZE);
  // what the reference expects, checked at each drain
  struct Exp { uint64_t addr; std::vector<uint8_t> bytes; };
  std::vector<Exp> exp_cqes;           // CQEs written since the last drain
  std::vector<Ev> exp_ce, exp_fw;      // expected events of each source, in order
  std::vector<uint64_t> fw_ev_need;    // CQE writes that must have completed before each fw event
  uint64_t exp_written = 0;            // CQE writes the reference expects so far
  struct Hold { uint32_t cqn, pi; bool err; };
  std::deque<Hold> holds;              // holds the reference predicts, in order
  bool ok_hold = true, ok_drain = true;
  std::string hold_why;
  unsigned drops_exp = 0;

  std::function<void()> service_hold;
  auto post_fw_event = [&](Ev e) {
    for (g_spin = 0; ((evp - tb.tc_rd(RNIC_FW_TC_EQW_CONS)) & kCntMask) >= RNIC_FW_TC_EV_REC_NUM;)
      if (!stuck(tb, "event slot")) service_hold();
    uint32_t slot = RNIC_FW_TC_EV_REC_BASE + (evp % RNIC_FW_TC_EV_REC_NUM) * RNIC_EQ_ENTRY_SIZE;
    tb.tc_wr(slot, e.type | uint32_t(e.subtype) << 8 | (rng() & 0xFFFF0000u));  // bytes 2-3 ignored
    tb.tc_wr(slot + 4, e.handle);
    tb.tc_wr(slot + 8, e.data);
    tb.tc_wr(slot + 12, uint32_t(rng()));  // owner byte ignored
    evp = (evp + 1) & kCntMask;
    tb.tc_wr(RNIC_FW_TC_EQW_PROD, evp);
    exp_fw.push_back(e);
    fw_ev_need.push_back(exp_written);
    cov_fw_ev++;
  };
  // The firmware's answer to a hold: the host's consumer, or error (then CQ_ERROR) when even
  // that leaves no room.
  service_hold = [&]() {
    uint32_t full = tb.tc_rd(RNIC_FW_TC_CQW_FULL);
    if (!rnic_cqw_full_v_held(full)) return;
    uint32_t cqn = rnic_cqw_full_v_cqn(full), pi = tb.tc_rd(RNIC_FW_TC_CQW_FULL_PI);
    if (holds.empty() || holds.front().cqn != cqn || holds.front().pi != pi) {
      if (ok_hold) std::printf("# hold mismatch at record %u\n", prod), hold_why = "held cq " + std::to_string(cqn) + " pi " + std::to_string(pi) + ", expected " +
                              (holds.empty() ? std::string("none")
                                             : std::to_string(holds.front().cqn) + "/" + std::to_string(holds.front().pi));
      if (ok_hold) {
        Cq &c = cqs[cqn];
        std::printf("# %s; reference: pi %u ci %u hci %u log %u err %d armed %u\n", hold_why.c_str(), c.pi, c.ci,
                    c.hci, c.log, c.err, c.armed);
      }
      ok_hold = false;
      holds.clear();
      return;
    }
    Hold h = holds.front();
    holds.pop_front();
    if (getenv("CQW_DEBUG")) std::printf("# hold cq %u pi %u -> %s (hci %u) at record %u\n", cqn, pi, h.err ? "ERR" : "CI", cqs[cqn].hci, prod);
    for (g_spin = 0; rnic_cqw_status_v_cmd(tb.tc_rd(RNIC_FW_TC_CQW_STATUS));) stuck(tb, "command");
    if (!h.err) {
      tb.tc_wr(RNIC_FW_TC_CQW_CMD_ARG, cqs[cqn].hci & ((1u << RNIC_CQW_INDEX_BITS) - 1));
      tb.tc_wr(RNIC_FW_TC_CQW_CMD, rnic_cqw_cmd_mk_cqn(cqn) | rnic_cqw_cmd_mk_op(RNIC_CQW_OP_CI));
      cov_hold_ci++;
    } else {
      tb.tc_wr(RNIC_FW_TC_CQW_CMD, rnic_cqw_cmd_mk_cqn(cqn) | rnic_cqw_cmd_mk_op(RNIC_CQW_OP_ERR));
      post_fw_event({RNIC_EQ_TYPE_CQ_ERROR, 0, cqn, 0});
      cov_hold_err++;
    }
  };
  auto cons = [&] { return tb.tc_rd(RNIC_FW_TC_CQW_CONS) & kCntMask; };
  auto cmd = [&](uint32_t cqn, uint32_t op, uint32_t arg) {
    for (g_spin = 0; rnic_cqw_status_v_cmd(tb.tc_rd(RNIC_FW_TC_CQW_STATUS));) stuck(tb, "command");
    tb.tc_wr(RNIC_FW_TC_CQW_CMD_ARG, arg);
    tb.tc_wr(RNIC_FW_TC_CQW_CMD, rnic_cqw_cmd_mk_cqn(cqn) | rnic_cqw_cmd_mk_op(op));
  };
  // drain: every record taken and written, every event out; then check every CQE byte for byte
  auto drain = [&]() -> bool {
    for (int i = 0; i < 200000; i++) {
      service_hold();
      uint32_t st = tb.tc_rd(RNIC_FW_TC_CQW_STATUS);
      if (rnic_cqw_status_v_idle(st)) break;
    }
    bool idle = rnic_cqw_status_v_idle(tb.tc_rd(RNIC_FW_TC_CQW_STATUS));
    bool ok = idle && cons() == prod && holds.empty();
    for (auto &e : exp_cqes) {
      auto f = tb.failed.find(e.addr);
      if (f == tb.failed.end()) {
        ok = false;
        break;
      }
      if (f->second) continue;  // this write was refused by the bus: checked through the error FIFO
      for (unsigned i = 0; i < RNIC_CQE_SIZE; i++) {
        auto it = tb.host.find(e.addr + i);
        if (it == tb.host.end() || it->second != e.bytes[i]) {
          r.check(false, "cqw-cqe-bytes", "addr 0x%llx byte %u", (unsigned long long)e.addr, i);
          ok = false;
          break;
        }
      }
      if (!ok) break;
    }
    exp_cqes.clear();
    tb.failed.clear();
    return ok;
  };
  // the reference for one record: hold(s), drop, or a CQE at the producer slot (+ event)
  auto ref_record = [&](uint32_t n, const std::vector<uint8_t> &rc) {
    Cq &c = cqs[n];
    if (!c.err && ((c.pi - c.ci) & 0x1FFFF) >= c.size()) {
      bool room_after = ((c.pi - c.hci) & 0x1FFFF) < c.size();
      holds.push_back({n, c.pi & 0x1FFFF, !room_after});
      if (getenv("CQW_DEBUG")) std::printf("# ref hold cq %u pi %u ci %u hci %u err %d record %u\n", n, c.pi, c.ci, c.hci, !room_after, prod);
      c.ci = c.hci;
      if (!room_after) c.err = true;
      else cov_full_wait++;
    }
    if (c.err) {
      drops_exp++;
      cov_drop++;
      return;
    }
    Exp e;
    e.addr = c.base + uint64_t(c.pi & (c.size() - 1)) * RNIC_CQE_SIZE;
    e.bytes.assign(rc.begin(), rc.begin() + RNIC_CQE_SIZE);
    e.bytes[30] = e.bytes[31] = 0;
    rnic_cqe_set_owner(e.bytes.data(), ((c.pi >> c.log) & 1) ^ 1);
    if (c.pi && (c.pi & (c.size() - 1)) == 0) cov_owner_flip++;
    exp_cqes.push_back(e);
    exp_written++;
    c.pi = (c.pi + 1) & 0x1FFFF;
    bool sol = rc[RNIC_CQE_FLAGS_OFF] >> RNIC_CQE_FLAG_SOLICITED & 1, fail = rc[RNIC_CQE_STATUS_OFF] != 0;
    if (c.armed == 1 || (c.armed == 2 && (sol || fail))) {
      if (c.armed == 2) (sol ? cov_arm_sol_hit : cov_arm_sol_fail)++;
      exp_ce.push_back({RNIC_EQ_TYPE_COMPLETION, 0, n, 0});
      c.armed = 0;
    } else if (c.armed == 2) {
      cov_arm_sol_skip++;
    }
  };

  for (unsigned k = 0; k < records; k++) {
    tb.ready_pct = (k / 500) % 2 ? 25 : 90;
    tb.cpl_delay = (k / 300) % 3 == 2 ? 600 : 40;  // slow B responses: rings run full, events wait
    tb.errors_pct = (k >= records / 2 && k < records / 2 + 150) ? 20 : 0;
    tb.eq_errors_pct = (k >= records / 3 && k < records / 3 + 300) ? 30 : 0;
    if (k % 17 == 16) {
      // a drain point: the host consumes, bus errors are handled, CQs armed or reprogrammed
      ok_drain &= drain();
      // errors: pop the FIFO, each CQ to error (ERR), one CQ_ERROR each
      for (unsigned i = 0; i <= RNIC_FW_TC_CQ_REC_NUM; i++) {
        uint32_t v = tb.tc_rd(RNIC_FW_TC_CQW_ERR_CQN);
        if (!rnic_cqw_err_cqn_v_valid(v)) break;
        tb.tc_wr(RNIC_FW_TC_CQW_ERR_POP, 0);
        uint32_t n = rnic_cqw_err_cqn_v_cqn(v);
        if (!cqs[n].err) {
          cqs[n].err = true;
          cmd(n, RNIC_CQW_OP_ERR, 0);
          post_fw_event({RNIC_EQ_TYPE_CQ_ERROR, 0, n, 0});
          cov_cq_err++;
        }
      }
      for (uint32_t n : cqns) {
        Cq &c = cqs[n];
        if (c.err && rng() % 2) {
          program(n, 1 + rng() % 4);
          cov_reprog++;
          continue;
        }
        if (rng() % 3 != 0) c.hci = c.pi;  // the host polled everything
        else if (rng() % 2) c.hci = (c.hci + uint32_t(rng() % (((c.pi - c.hci) & 0x1FFFF) + 1))) & 0x1FFFF;
        if (!c.err && !c.armed && rng() % 3 == 0) {
          bool sol = rng() % 3 == 0;
          cmd(n, sol ? RNIC_CQW_OP_ARM_SOLICITED : RNIC_CQW_OP_ARM_ANY, c.hci);
          if (getenv("CQW_DEBUG")) std::printf("# arm cq %u sol %d pi %u ci %u hci %u record %u\n", n, sol, c.pi, c.ci, c.hci, prod);
          c.ci = c.hci;
          if (!sol && c.pi != c.ci) {
            exp_ce.push_back({RNIC_EQ_TYPE_COMPLETION, 0, n, 0});
            cov_arm_now++;
          } else {
            c.armed = sol ? 2 : 1;
            cov_arm_any += !sol;
          }
        }
      }
      if (rng() % 2) post_fw_event({uint8_t(rng() % 2 ? RNIC_EQ_TYPE_QP_FATAL : RNIC_EQ_TYPE_CMD_DONE),
                                    uint8_t(rng()), uint32_t(rng()), uint32_t(rng())});
    }
    uint32_t n = cqns[rng() % 5];
    for (auto &b : rec) b = uint8_t(rng());
    rec[RNIC_CQE_STATUS_OFF] = rng() % 8 ? 0 : uint8_t(rng() % 20);
    rnic_cq_rec_set_cqn(rec.data(), n);
    for (g_spin = 0; ((prod - cons()) & kCntMask) >= RNIC_FW_TC_CQ_REC_NUM;)
      if (!stuck(tb, "record slot")) service_hold();
    uint32_t slot = RNIC_FW_TC_CQ_REC_BASE + (prod % RNIC_FW_TC_CQ_REC_NUM) * RNIC_CQ_REC_SIZE;
    for (unsigned i = 0; i < RNIC_CQ_REC_SIZE; i += 4) tb.tc_wr(slot + i, rnic_ld_le32(&rec[i]));
    prod = (prod + 1) & kCntMask;
    tb.tc_wr(RNIC_FW_TC_CQW_PROD, prod);
    ref_record(n, rec);
    if (rng() % 50 == 0) post_fw_event({RNIC_EQ_TYPE_PORT_CHANGE, uint8_t(rng()), uint32_t(rng()), 0});
    for (unsigned g = rng() % 3; g; g--) tb.tick();
    service_hold();
  }
  ok_drain &= drain();
  for (int i = 0; i < 5000; i++) tb.tick();  // the last EQ writes complete

  r.check(ok_drain, "cqw-drain-completes-cqes-byte-exact");
  r.check(ok_hold, "cqw-holds-as-reference", "%s", hold_why.c_str());
  r.check(tb.bad_len == 0, "cqw-write-lengths", "bad %u", tb.bad_len);
  r.check(tb.tc_rd(RNIC_FW_TC_CQW_DROPPED) == (drops_exp & kCntMask), "cqw-drops-counted", "dropped %u expected %u",
          tb.tc_rd(RNIC_FW_TC_CQW_DROPPED), drops_exp);
  r.check(tb.eq_while_cqe_out == 0, "cqw-eq-entry-never-before-cqe-b-response", "%u EQ writes issued early",
          tb.eq_while_cqe_out);
  // EQ entries: each write at the slot of the successes before it, owner of its pass, bytes
  // exact; the engine's and the firmware's events each in their order; a failed one is lost
  {
    bool ok = true;
    std::string why;
    uint32_t succ = 0, fails = 0;
    size_t ice = 0, ifw = 0;
    for (auto &w : tb.eq_writes) {
      uint8_t e[RNIC_EQ_ENTRY_SIZE];
      std::memcpy(e, w.data.data(), RNIC_EQ_ENTRY_SIZE);
      uint64_t want_addr = EQ_BASE + uint64_t(succ & ((1u << EQ_LOG) - 1)) * RNIC_EQ_ENTRY_SIZE;
      unsigned owner = ((succ >> EQ_LOG) & 1) ^ 1;
      Ev want{};
      bool is_ce = e[0] == RNIC_EQ_TYPE_COMPLETION;
      if (is_ce) {
        if (ice >= exp_ce.size()) { ok = false; why = "unexpected completion event"; break; }
        want = exp_ce[ice++];
      } else {
        if (ifw >= exp_fw.size()) { ok = false; why = "unexpected firmware event"; break; }
        if (w.cqe_cpls_before < fw_ev_need[ifw]) {
          ok = false;
          why = "firmware event " + std::to_string(ifw) + " before the CQEs handed before it";
          break;
        }
        want = exp_fw[ifw++];
      }
      uint8_t x[RNIC_EQ_ENTRY_SIZE] = {0};
      rnic_eq_entry_set_event_type(x, want.type);
      rnic_eq_entry_set_subtype(x, want.subtype);
      rnic_eq_entry_set_handle(x, want.handle);
      rnic_eq_entry_set_data(x, want.data);
      rnic_eq_entry_set_owner(x, owner);
      if (w.addr != want_addr || std::memcmp(x, e, RNIC_EQ_ENTRY_SIZE)) {
        ok = false;
        why = "entry " + std::to_string(succ + fails) + " type " + std::to_string(e[0]) + " handle " +
              std::to_string(rnic_eq_entry_get_handle(e)) + " expected " + std::to_string(want.type) + "/" +
              std::to_string(want.handle);
        break;
      }
      (w.ok ? succ : fails)++;
    }
    if (ok && (ice != exp_ce.size() || ifw != exp_fw.size())) {
      ok = false;
      why = "events missing: completion " + std::to_string(ice) + "/" + std::to_string(exp_ce.size()) +
            " firmware " + std::to_string(ifw) + "/" + std::to_string(exp_fw.size());
    }
    r.check(ok, "cqw-eq-entries-both-sources-in-order-byte-exact", "%s", why.c_str());
    uint32_t est = tb.tc_rd(RNIC_FW_TC_EQW_STATUS);
    r.check(tb.m.eq_prod_o == succ && tb.notify == succ && tb.eq_err_pulses == fails && fails > 0 &&
                rnic_eqw_status_v_errors(est) == fails && rnic_eqw_status_v_written(est) == (succ & RNIC_EQW_STATUS_WRITTEN_MASK >> RNIC_EQW_STATUS_WRITTEN_LSB) && tb.tc_rd(RNIC_FW_TC_EQW_CONS) == evp,
            "cqw-eq-prod-notify-and-write-errors", "prod %u notify %u ok %u; err pulses %u fails %u status 0x%x",
            tb.m.eq_prod_o, tb.notify, succ, tb.eq_err_pulses, fails, est);
    r.check(succ > 2 * (1u << EQ_LOG), "cqw-eq-ring-wrapped", "%u entries", succ);
  }
  {
    // The error FIFO named each failed CQE write's CQ, in order (each popped at a drain point).
    uint32_t st = tb.tc_rd(RNIC_FW_TC_CQW_STATUS);
    r.check(!tb.cqe_err_addr.empty() && rnic_cqw_status_v_errors(st) == (tb.cqe_err_addr.size() & RNIC_CQW_STATUS_ERRORS_MASK) && cov_cq_err > 0,
            "cqw-cqe-bus-errors-counted-cq-to-error", "status 0x%x injected %zu cqs to error %u", st,
            tb.cqe_err_addr.size(), cov_cq_err);
  }
  std::printf("# coverage: full-then-room %u, holds answered CI %u, ERR %u, drops %u, arm-any-at-once %u, "
              "arm-any %u, sol-hit %u, sol-fail %u, sol-skipped %u, fw events %u, owner flips %u, reprogrammed %u, "
              "cq errors %u, max CQE writes awaiting B %u\n",
              cov_full_wait, cov_hold_ci, cov_hold_err, cov_drop, cov_arm_now, cov_arm_any, cov_arm_sol_hit,
              cov_arm_sol_fail, cov_arm_sol_skip, cov_fw_ev, cov_owner_flip, cov_reprog, cov_cq_err, tb.max_cqe_out);
  r.check(cov_full_wait > 0 && cov_hold_ci > 0 && cov_hold_err > 0 && cov_drop > 0 && cov_arm_now > 0 &&
              cov_arm_any > 0 && cov_arm_sol_hit > 0 && cov_arm_sol_fail > 0 && cov_arm_sol_skip > 0 &&
              cov_owner_flip > 100 && cov_reprog > 0 && tb.max_cqe_out > 4,
          "cqw-coverage");
  r.check(tb.tc_rd(RNIC_FW_TC_CQW_PROD) == prod, "cqw-prod-reads-back");
#if TB_CORES > 1
  mc_test(seed + 1, records, r);
#endif
  eng_test(seed + 2, records, r);
  return r.exit_code();
}
