// tb_cqe_writer: testbench of the CQE writer (rtl/cqe_write/cqe_writer.sv). A firmware model
// stores random completion records (spec cq_rec) into the tightly coupled ring of the writer and
// a host model takes its DMA writes with random back-pressure and completion delays (some with
// bus errors); every CQE is checked byte for byte, with its slot and owner bit, against a
// reference ring per CQ. Small rings wrap many times (owner flips), several CQs interleave, the
// record ring runs full, a CQ is reprogrammed, loads return in exactly one cycle.
// Built at -GDataWidth=512 (one beat per CQE) and 64 (four). Options: --seed N, --records N.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
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
static constexpr unsigned BPB = TB_DATA_WIDTH / 8;
static constexpr unsigned BEATS = (RNIC_CQE_SIZE + BPB - 1) / BPB;

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

struct Cq {
  uint64_t base = 0;
  unsigned log = 0;
  uint32_t pi = 0;            // reference producer
  std::vector<uint8_t> ring;  // what the host should see
  std::vector<bool> written;  // slots written since the CQ was programmed
};

struct Tb {
  Vcqe_writer m;
  std::mt19937_64 rng;
  uint64_t cycle = 0;
  // host side
  std::map<uint64_t, uint8_t> host;  // every byte written
  struct Wr { uint64_t addr; uint32_t len; std::vector<uint8_t> data; unsigned beats = 0; };
  std::deque<Wr> wr_q;               // accepted requests waiting for data
  std::deque<std::pair<uint64_t, unsigned>> cpl_q;  // (due cycle, status)
  unsigned ready_pct = 70, errors_pct = 0, cpl_delay = 40;
  unsigned bus_errors = 0, reqs = 0, bad_len = 0;
  const std::map<uint32_t, Cq> *cqmap = nullptr;  // to name the CQ of a failed write
  std::vector<uint32_t> err_cqns;  // CQ of every injected bus error, in completion order
  bool cpl_valid_prev = false;

  explicit Tb(uint64_t seed) : rng(seed) {
    m.clk_i = 0;
    m.rst_ni = 0;
    m.tc_req_i = 0;
    m.wr_req_ready_i = 0;
    m.wr_data_ready_i = 0;
    m.wr_cpl_valid_i = 0;
    m.eval();
    for (int i = 0; i < 4; i++) tick();
    m.rst_ni = 1;
    tick();
  }
  bool coin(unsigned pct) { return rng() % 100 < pct; }

  // One clock: inputs were set by the caller for this cycle; the host model samples the
  // handshakes at the edge and drives its next inputs after it.
  void tick() {
    m.eval();
    bool req_fire = m.wr_req_valid_o && m.wr_req_ready_i;
    bool dat_fire = m.wr_data_valid_o && m.wr_data_ready_i;
    bool cpl_fire = m.wr_cpl_valid_i && m.wr_cpl_ready_o;
    Wr nw;
    if (req_fire) {
      nw.addr = m.wr_req_addr_o;
      nw.len = m.wr_req_len_o;
      if (nw.len != RNIC_CQE_SIZE) bad_len++;
      reqs++;
    }
    if (dat_fire) {
      if (wr_q.empty()) {
        bad_len++;
      } else {
        Wr &w = wr_q.front();
        for (unsigned b = 0; b < BPB && w.data.size() < w.len; b++)
          w.data.push_back(uint8_t(getb(m.wr_data_o, 8 * b, 8)));
        if (++w.beats == BEATS) {
          unsigned st = coin(errors_pct) ? 2 : 0;
          if (st == 0)
            for (unsigned i = 0; i < w.len; i++) host[w.addr + i] = w.data[i];
          else {
            bus_errors++;
            for (auto &kv : *cqmap)
              if (w.addr >= kv.second.base && w.addr < kv.second.base + (uint64_t(RNIC_CQE_SIZE) << kv.second.log))
                err_cqns.push_back(kv.first);
          }
          cpl_q.push_back({cycle + 1 + rng() % cpl_delay, st});
          wr_q.pop_front();
        }
      }
    }
    if (req_fire) wr_q.push_back(nw);
    if (cpl_fire) cpl_q.pop_front();
    m.clk_i = 1;
    m.eval();
    m.clk_i = 0;
    m.eval();
    cycle++;
    // next inputs
    m.wr_req_ready_i = coin(ready_pct);
    m.wr_data_ready_i = coin(ready_pct);
    m.wr_cpl_valid_i = !cpl_q.empty() && cpl_q.front().first <= cycle;
    m.wr_cpl_status_i = cpl_q.empty() ? 0 : cpl_q.front().second;
    m.tc_req_i = 0;
  }

  // firmware side: a store takes one cycle, a load returns the next cycle
  void tc_wr(uint32_t off, uint32_t v) { tb_tc_store(m, [this] { tick(); }, off, v); }
  uint32_t tc_rd(uint32_t off) { return tb_tc_load(m, [this] { tick(); }, off); }
};

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

  // CQ numbers of every width the writer decodes; ring sizes 2..16 CQEs wrap often.
  const uint32_t cqns[] = {1, 2, 5, 64, 127};
  std::map<uint32_t, Cq> cqs;
  tb.cqmap = &cqs;
  auto program = [&](uint32_t n, unsigned log) {
    Cq c;
    c.base = 0x1000000000ull + uint64_t(n) * 0x100000 + (rng() % 64) * 32;  // 32-byte aligned
    c.log = log;
    c.ring.assign(RNIC_CQE_SIZE << log, 0);
    c.written.assign(1u << log, false);
    cqs[n] = c;
    tb.tc_wr(RNIC_FW_TC_CQW_CQ_BASE_LO, uint32_t(c.base));
    tb.tc_wr(RNIC_FW_TC_CQW_CQ_BASE_HI, uint32_t(c.base >> 32));
    tb.tc_wr(RNIC_FW_TC_CQW_CQ_CFG, n | log << 16);
  };
  for (uint32_t n : cqns) program(n, 1 + rng() % 4);

  // reset state and single-cycle loads
  tb.tick();  // the last configuration goes in while the writer is idle
  uint32_t st0 = tb.tc_rd(RNIC_FW_TC_CQW_STATUS);
  r.check(tb.tc_rd(RNIC_FW_TC_CQW_PROD) == 0 && tb.tc_rd(RNIC_FW_TC_CQW_CONS) == 0 && st0 == (1u << 16),
          "cqw-reset-state-and-one-cycle-loads", "status 0x%x", st0);

  uint32_t prod = 0, full_waits = 0, owner_flips = 0, reprograms = 0;
  std::vector<uint8_t> rec(RNIC_CQ_REC_SIZE);
  auto cons = [&] { return tb.tc_rd(RNIC_FW_TC_CQW_CONS) & 0xFFFF; };
  auto drain = [&] {
    for (int i = 0; i < 100000 && cons() != prod; i++) {
    }
    return cons() == prod;
  };
  bool ok_drain = true;
  for (unsigned k = 0; k < records; k++) {
    // phases: back-pressure heavy, bursts that fill the record ring, errors in a window
    tb.ready_pct = (k / 500) % 2 ? 25 : 90;
    tb.cpl_delay = (k / 300) % 3 == 2 ? 600 : 40;  // slow completions: the record ring runs full
    tb.errors_pct = (k >= records / 2 && k < records / 2 + 200) ? 30 : 0;
    if (k % 700 == 699) {  // reprogram one CQ (the firmware drains first, as at CREATE_CQ)
      ok_drain &= drain();
      program(cqns[rng() % 5], 1 + rng() % 4);
      reprograms++;
    }
    uint32_t n = cqns[rng() % 5];
    for (auto &b : rec) b = uint8_t(rng());
    rnic_cq_rec_set_cqn(rec.data(), n);
    while (((prod - cons()) & 0xFFFF) >= RNIC_FW_TC_CQ_REC_NUM) full_waits++;
    uint32_t slot = RNIC_FW_TC_CQ_REC_BASE + (prod % RNIC_FW_TC_CQ_REC_NUM) * RNIC_CQ_REC_SIZE;
    for (unsigned i = 0; i < RNIC_CQ_REC_SIZE; i += 4) tb.tc_wr(slot + i, rnic_ld_le32(&rec[i]));
    prod = (prod + 1) & 0xFFFF;
    tb.tc_wr(RNIC_FW_TC_CQW_PROD, prod);
    // reference
    Cq &c = cqs[n];
    uint8_t exp[RNIC_CQE_SIZE];
    std::memcpy(exp, rec.data(), RNIC_CQE_SIZE);
    exp[30] = exp[31] = 0;
    unsigned owner = ((c.pi >> c.log) & 1) ^ 1;
    rnic_cqe_set_owner(exp, owner);
    if (c.pi && (c.pi & ((1u << c.log) - 1)) == 0) owner_flips++;
    std::memcpy(&c.ring[(c.pi & ((1u << c.log) - 1)) * RNIC_CQE_SIZE], exp, RNIC_CQE_SIZE);
    c.written[c.pi & ((1u << c.log) - 1)] = true;
    c.pi++;
    // a small random gap between records
    for (unsigned g = rng() % 3; g; g--) tb.tick();
    // every so often, drain and compare every ring byte for byte
    if (k % 97 == 96 || k + 1 == records) {
      ok_drain &= drain();
      for (auto &[cn, cq] : cqs) {
        for (size_t i = 0; i < cq.ring.size(); i++) {
          if (!cq.written[i / RNIC_CQE_SIZE]) continue;
          auto it = tb.host.find(cq.base + i);
          if (it == tb.host.end() || it->second != cq.ring[i]) {
            // a bus error leaves the old bytes: accept only if an error was injected
            if (tb.bus_errors == 0) {
              r.check(false, "cqw-cqe-bytes", "cq %u byte %zu after record %u", cn, i, k);
              return r.exit_code();
            }
          }
        }
      }
    }
  }
  r.check(ok_drain, "cqw-drain-completes");
  r.check(tb.reqs == records && tb.bad_len == 0, "cqw-one-32-byte-write-per-record", "reqs %u of %u, bad %u",
          tb.reqs, records, tb.bad_len);
  r.check(full_waits > 0, "cqw-record-ring-ran-full", "%u waits", full_waits);
  r.check(owner_flips > 100 && reprograms >= 2, "cqw-rings-wrapped-and-reprogrammed", "flips %u reprograms %u",
          owner_flips, reprograms);
  uint32_t st = tb.tc_rd(RNIC_FW_TC_CQW_STATUS);
  r.check(tb.bus_errors > 0 && (st & 0xFFFF) == (tb.bus_errors & 0xFFFF) && (st >> 16 & 1),
          "cqw-bus-errors-counted-idle", "status 0x%x, injected %u", st, tb.bus_errors);
  // The error FIFO holds the CQs of the first cq_rec_num failed writes (nobody popped), in order;
  // popping it empty gives exactly those, then bit 31 clear.
  {
    size_t want = std::min<size_t>(tb.err_cqns.size(), RNIC_FW_TC_CQ_REC_NUM), got = 0;
    bool in_order = true;
    std::string seen;
    for (unsigned i = 0; i <= RNIC_FW_TC_CQ_REC_NUM; i++) {
      uint32_t v = tb.tc_rd(RNIC_FW_TC_CQW_ERR_CQN);
      if (!(v >> 31)) break;
      seen += " " + std::to_string(v & 0xFFFF);
      in_order &= got < want && (v & 0xFFFF) == tb.err_cqns[got];
      got++;
      tb.tc_wr(RNIC_FW_TC_CQW_ERR_POP, 0);
    }
    r.check(want > 1 && got == want && in_order, "cqw-err-fifo-names-each-failed-cq-in-order",
            "popped %zu of %zu:%s", got, want, seen.c_str());
  }
  r.check(tb.tc_rd(RNIC_FW_TC_CQW_PROD) == prod, "cqw-prod-reads-back");

  // Byte-exact check without injected errors: a fresh run of the same writer over one CQ,
  // every CQE compared after each wrap.
  tb.errors_pct = 0;
  tb.bus_errors = 0;
  tb.host.clear();
  program(3, 2);
  Cq &c3 = cqs[3];
  bool exact = true;
  for (unsigned k = 0; k < 64 && exact; k++) {
    for (auto &b : rec) b = uint8_t(rng());
    rnic_cq_rec_set_cqn(rec.data(), 3);
    while (((prod - cons()) & 0xFFFF) >= RNIC_FW_TC_CQ_REC_NUM) {
    }
    uint32_t slot = RNIC_FW_TC_CQ_REC_BASE + (prod % RNIC_FW_TC_CQ_REC_NUM) * RNIC_CQ_REC_SIZE;
    for (unsigned i = 0; i < RNIC_CQ_REC_SIZE; i += 4) tb.tc_wr(slot + i, rnic_ld_le32(&rec[i]));
    prod = (prod + 1) & 0xFFFF;
    tb.tc_wr(RNIC_FW_TC_CQW_PROD, prod);
    uint8_t exp[RNIC_CQE_SIZE];
    std::memcpy(exp, rec.data(), RNIC_CQE_SIZE);
    exp[30] = exp[31] = 0;
    rnic_cqe_set_owner(exp, ((c3.pi >> c3.log) & 1) ^ 1);
    uint64_t a = c3.base + (c3.pi & 3) * RNIC_CQE_SIZE;
    c3.pi++;
    exact &= drain();
    for (unsigned i = 0; i < RNIC_CQE_SIZE; i++) {
      auto it = tb.host.find(a + i);
      if (it == tb.host.end() || it->second != exp[i]) {
        exact = false;
        r.check(false, "cqw-exact-slot-owner-bytes", "record %u byte %u", k, i);
        break;
      }
    }
  }
  if (exact) r.check(true, "cqw-exact-slot-owner-bytes");
  return r.exit_code();
}
