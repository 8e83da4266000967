// tb_fw_subsys: block testbench of rnic_fw_subsys with NumCores = TB_CORES (2 or 4; the model is
// built with -GNumCores the same; docs/decisions/multi-core.md, phase 2). The test firmware
// (tb/fw_subsys/fw/mc.c, one image) is written through the BAR0 window while the cores are held,
// checked by the loader and run by every core. Checks:
// - the window: writes reach every tile (core 1's DMEM reads back the image), writes into core
//   1's DMEM part and accesses past the last core's fault; while running, each core's DMEM reads
//   back that core's own marker words;
// - the loader accepts the image and releases both cores; each core reads its own mhartid and
//   hw_caps (MMIO of core 1: its own register block) and says so in a hello descriptor;
// - receive events with random QPNs reach the ring of the core owning the QPN (QPN mod 2), in
//   order, every byte: each core copies each event into one transmit, one receive-buffer and one
//   READ descriptor; the three arbiters deliver every one, in each core's order, under random
//   back-pressure;
// - the READ progress query: each core's registers reach the engine port in the cycle its read of
//   the result is granted, one read per cycle (both cores read at once after boot), every answer
//   the engine model's for that core's (QPN, PSN);
// - doorbells reach the doorbell ring of the QP's owner (sq_db, rq_db, bf_db) or core 0 (cq_db,
//   cq_arm); each core turns each into a QP-table entry, which the QP-table arbiter delivers.
// Options: --seed N, --events N, --doorbells N, --fw DIR (imem.hex, dmem.hex of the test image).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "Vrnic_fw_subsys.h"
#include "rnic_spec.h"
#include "tb_check.h"
#include "verilated.h"

#ifndef TB_CORES
#define TB_CORES 2
#endif
static constexpr unsigned kCores = TB_CORES;
static constexpr uint32_t kDmemBytes = 65536;  // rnic_fw_subsys's default
static constexpr uint32_t kWinDmem = 0x80000;  // the window's DMEM half
static constexpr uint32_t kMark = 0x8000;      // the firmware's marker words (DMEM offset)
static constexpr uint32_t kHello = 0x48454C4Fu;

using Words = std::vector<uint32_t>;

static std::vector<uint32_t> read_hex(const std::string &path) {
  std::vector<uint32_t> v;
  std::ifstream f(path);
  std::string line;
  while (std::getline(f, line))
    if (!line.empty()) v.push_back(uint32_t(std::strtoul(line.c_str(), nullptr, 16)));
  return v;
}

template <typename W>
static Words wide(const W &w, unsigned n) {
  Words r(n);
  for (unsigned i = 0; i < n; i++) r[i] = w[i];
  return r;
}

struct Tb {
  Vrnic_fw_subsys m;
  std::mt19937_64 rng;
  TbResults &r;
  uint64_t cycle = 0;
  unsigned ready_pct = 50;
  // what each core should hand over, in its order: events (by owner) and doorbells (by owner)
  std::deque<Words> exp_ev[kCores];
  std::deque<std::pair<uint32_t, uint32_t>> exp_db[kCores];
  // what came out of the engine ports, per source core (from the descriptors' hart word)
  std::vector<Words> txd, rqd, rdd, qpt;
  std::vector<uint32_t> qpt_qpn;
  unsigned txd_switches = 0, last_txd_core = 9;
  uint64_t evt_stall = 0, rdq_reads = 0;
  // the receive engine's READ progress query, a function of (QPN, PSN)
  static uint32_t rdq_answer(uint32_t qpn, uint32_t psn) {
    return ((qpn ^ psn) & 1u) << 31 | ((qpn * 3u + psn) & 0xFFFFFFu);
  }

  Tb(uint64_t seed, TbResults &res) : rng(seed), r(res) {
    m.clk_i = 0;
    m.rst_ni = 0;
    m.hold_i = 1;
    m.hw_caps_i = uint32_t(rng()) | uint32_t(1) << RNIC_HW_CAPS_LOG2_CORES_LSB;
    m.tx_pause_i = 0;
    m.eval();
    for (int i = 0; i < 4; i++) tick();
    m.rst_ni = 1;
    m.eval();
  }
  unsigned pct() { return unsigned(rng() % 100); }
  void tick() {
    m.clk_i = 0;
    m.eval();
    m.clk_i = 1;
    m.eval();
    cycle++;
  }
  // one BAR0 window access (BAR0 holds the request until acknowledged); false on a timeout
  bool win(bool we, uint32_t addr, uint32_t wdata, uint32_t &rdata, bool &err) {
    m.win_req_i = 1;
    m.win_we_i = we;
    m.win_addr_i = addr;
    m.win_wdata_i = wdata;
    m.win_wstrb_i = 0xF;
    for (int i = 0; i < 100; i++) {
      prep();
      bool ack = m.win_ack_o;
      if (ack) {
        rdata = m.win_rdata_o;
        err = m.win_err_o;
      }
      commit();
      if (ack) {
        m.win_req_i = 0;
        step();
        return true;
      }
    }
    m.win_req_i = 0;
    return false;
  }
  // the engines' side for one cycle: ports sampled before the edge
  uint32_t db_seq = 0;
  void step() {
    prep();
    commit();
  }
  void prep() {
    m.txd_ready_i = pct() < ready_pct;
    m.rqd_ready_i = pct() < ready_pct;
    m.rdd_ready_i = pct() < ready_pct;
    m.qpt_ready_i = pct() < ready_pct;
    m.eval();
    uint32_t a = rdq_answer(m.rdq_qpn_o, m.rdq_psn_o);
    m.rdq_hit_i = a >> 31;
    m.rdq_nxt_i = a & 0xFFFFFFu;
    m.eval();
  }
  void commit() {
    if (m.txd_valid_o && m.txd_ready_i) {
      Words w = wide(m.txd_data_o, RNIC_TX_DESC_SIZE / 4);
      unsigned c = w[0] == kHello ? w[1] : w[16];
      if (last_txd_core != 9 && c != last_txd_core) txd_switches++;
      last_txd_core = c;
      txd.push_back(w);
    }
    if (m.rqd_valid_o && m.rqd_ready_i) rqd.push_back(wide(m.rqd_data_o, RNIC_RQ_DESC_SIZE / 4));
    if (m.rdd_valid_o && m.rdd_ready_i) rdd.push_back(wide(m.rdd_data_o, RNIC_RD_DESC_SIZE / 4));
    if (m.qpt_valid_o && m.qpt_ready_i) {
      qpt.push_back(wide(m.qpt_data_o, RNIC_QPT_ENTRY_SIZE / 4));
      qpt_qpn.push_back(m.qpt_qpn_o);
    }
    if (m.evt_valid_i && !m.evt_ready_o) evt_stall++;
    rdq_reads += m.rdq_rd_o;
    bool evt_taken = m.evt_valid_i && m.evt_ready_o, db_taken = m.db_valid_i && m.db_ready_o;
    tick();
    if (evt_taken) m.evt_valid_i = 0;
    if (db_taken) m.db_valid_i = 0;
  }
  void offer_event() {
    Words e(RNIC_RX_EVENT_SIZE / 4);
    for (auto &x : e) x = uint32_t(rng());
    e[RNIC_RX_EVENT_QPN_OFF / 4] &= 0xFFFFFFu;
    for (unsigned i = 0; i < e.size(); i++) m.evt_data_i[i] = e[i];
    m.evt_valid_i = 1;
    exp_ev[e[RNIC_RX_EVENT_QPN_OFF / 4] % kCores].push_back(e);
  }
  void offer_doorbell() {
    static const uint32_t which[] = {RNIC_DB_SQ_DB / 4, RNIC_DB_RQ_DB / 4, RNIC_DB_CQ_DB / 4, RNIC_DB_CQ_ARM / 4,
                                     RNIC_DB_BF_DB / 4};
    uint32_t wh = which[rng() % 5];
    uint32_t ev = (uint32_t(rng()) & 0xFF00FFFFu) | wh << RNIC_DB_EVENT_WHICH_LSB, v = uint32_t(rng());
    m.db_data_i = uint64_t(v) << 32 | ev;
    m.db_valid_i = 1;
    bool of_qp = wh == RNIC_DB_SQ_DB / 4 || wh == RNIC_DB_RQ_DB / 4 || wh == RNIC_DB_BF_DB / 4;
    exp_db[of_qp ? (v & 0xFFFFu) % kCores : 0].push_back({ev, v});
  }
};

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  uint64_t seed = 1;
  unsigned events = 300, doorbells = 200;
  std::string fw = "build/fw_subsys/fw";
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string a = argv[i];
    if (a == "--seed") seed = std::strtoull(argv[i + 1], nullptr, 0);
    else if (a == "--events") events = unsigned(std::strtoul(argv[i + 1], nullptr, 0));
    else if (a == "--doorbells") doorbells = unsigned(std::strtoul(argv[i + 1], nullptr, 0));
    else if (a == "--fw") fw = argv[i + 1];
  }
  TbResults r;
  Tb tb(seed, r);
  auto imem = read_hex(fw + "/imem.hex"), dmem = read_hex(fw + "/dmem.hex");
  if (!r.check(!imem.empty() && dmem.size() >= 8 && dmem[0] == RNIC_FW_IMAGE_MAGIC, "fw-image-read",
               "%s: imem %zu words, dmem %zu words", fw.c_str(), imem.size(), dmem.size()))
    return r.exit_code();

  // ---- the image through the window, while held: one write reaches every tile ----
  uint32_t rd = 0;
  bool err = false, ok = true;
  for (size_t i = 0; i < imem.size() && ok; i++) ok = tb.win(true, uint32_t(4 * i), imem[i], rd, err) && !err;
  for (size_t i = 0; i < dmem.size() && ok; i++) ok = tb.win(true, kWinDmem + uint32_t(4 * i), dmem[i], rd, err) && !err;
  r.check(ok, "window-image-written", "a write faulted or timed out");
  bool same = true;
  for (size_t i = 0; i < dmem.size() && same; i += 7)
    for (unsigned c = 0; c < kCores; c++)
      same = same && tb.win(false, kWinDmem + c * kDmemBytes + uint32_t(4 * i), 0, rd, err) && !err && rd == dmem[i];
  r.check(same, "window-dmem-broadcast", "a core's DMEM does not read back the image");
  uint32_t imem_rd = 0;
  r.check(tb.win(false, uint32_t(4 * (imem.size() - 1)), 0, imem_rd, err) && !err && imem_rd == imem.back(),
          "window-imem-readback", "read 0x%08x", imem_rd);
  bool far_wr = tb.win(true, kWinDmem + kDmemBytes + 0x100, 0x12345678u, rd, err) && err;
  r.check(far_wr, "window-core1-write-faults", "a write into core 1's DMEM part was taken");
  bool past = tb.win(false, kWinDmem + kCores * kDmemBytes, 0, rd, err) && err;
  r.check(past, "window-past-last-core-faults");

  // ---- release: the loader checks the image and runs both cores ----
  tb.m.hold_i = 0;
  uint64_t t0 = tb.cycle;
  while (!(tb.m.cpu_status_o & RNIC_CPU_STATUS_RUNNING_MASK) && tb.cycle - t0 < 200000) tb.step();
  r.check((tb.m.cpu_status_o & (RNIC_CPU_STATUS_RUNNING_MASK | RNIC_CPU_STATUS_ACCEPTED_MASK)) ==
              (RNIC_CPU_STATUS_RUNNING_MASK | RNIC_CPU_STATUS_ACCEPTED_MASK),
          "loader-accepts-and-runs", "cpu_status 0x%08x", tb.m.cpu_status_o);

  // ---- traffic: events and doorbells at random, the engine ports back-pressured ----
  unsigned ev_sent = 0, db_sent = 0;
  uint64_t t1 = tb.cycle;
  while ((ev_sent < events || db_sent < doorbells || tb.m.evt_valid_i || tb.m.db_valid_i) && tb.cycle - t1 < 2000000) {
    // phases: the engines mostly ready, then mostly stalled
    tb.ready_pct = (tb.cycle / 2000) % 3 == 2 ? 10 : 70;
    if (!tb.m.evt_valid_i && ev_sent < events && tb.pct() < 30) { tb.offer_event(); ev_sent++; }
    if (!tb.m.db_valid_i && db_sent < doorbells && tb.pct() < 20) { tb.offer_doorbell(); db_sent++; }
    tb.step();
  }
  size_t exp_evs = 0, exp_dbs = 0;
  bool all_cores = true;
  std::string per_core;
  for (unsigned c = 0; c < kCores; c++) {
    exp_evs += tb.exp_ev[c].size();
    exp_dbs += tb.exp_db[c].size();
    all_cores = all_cores && tb.exp_ev[c].size() > 0 && tb.exp_db[c].size() > 0;
    per_core += " core " + std::to_string(c) + ": " + std::to_string(tb.exp_ev[c].size()) + " events, " +
                std::to_string(tb.exp_db[c].size()) + " doorbells;";
  }
  tb.ready_pct = 60;
  uint64_t t2 = tb.cycle;
  while ((tb.txd.size() < exp_evs + kCores || tb.rqd.size() < exp_evs || tb.rdd.size() < exp_evs ||
          tb.qpt.size() < exp_dbs) && tb.cycle - t2 < 2000000)
    tb.step();
  for (int i = 0; i < 2000; i++) tb.step();  // nothing more may come
  r.check(ev_sent == events && db_sent == doorbells, "traffic-offered", "%u events, %u doorbells", ev_sent, db_sent);
  r.check(tb.evt_stall > 0, "events-back-pressured", "the rings never filled");
  r.check(all_cores, "traffic-for-every-core");

  // ---- hello descriptors: each core once, its own mhartid and hw_caps ----
  unsigned hello[kCores] = {};
  bool hello_ok = true;
  for (auto &w : tb.txd)
    if (w[0] == kHello) {
      uint32_t h = w[1];
      if (h >= kCores) { hello_ok = false; continue; }
      hello[h]++;
      hello_ok = hello_ok && w[2] == tb.m.hw_caps_i;
      for (unsigned i = 0; i < 16; i++) hello_ok = hello_ok && w[3 + i] == Tb::rdq_answer(h << 20 | i * 7u, i * 13u + h);
      for (unsigned i = 19; i < 32; i++) hello_ok = hello_ok && w[i] == (h << 24 | i);
    }
  bool once = true;
  for (unsigned c = 0; c < kCores; c++) once = once && hello[c] == 1;
  r.check(hello_ok && once, "mhartid-each-core", "hello from core 0 x%u, core 1 x%u, words %s", hello[0], hello[1],
          hello_ok ? "ok" : "wrong");

  // ---- events: per core, in order, byte for byte, on all three descriptor ports ----
  auto check_desc = [&](const std::vector<Words> &got, unsigned words, const char *name) {
    std::vector<Words> per[kCores];
    bool ok2 = true;
    for (auto &w : got) {
      if (w[0] == kHello && words == 32) continue;
      if (w[16] >= kCores) { ok2 = false; continue; }
      per[w[16]].push_back(w);
    }
    unsigned bad = 0, where = 0;
    for (unsigned c = 0; c < kCores; c++) {
      ok2 = ok2 && per[c].size() == tb.exp_ev[c].size();
      for (size_t k = 0; k < per[c].size() && k < tb.exp_ev[c].size(); k++) {
        const Words &w = per[c][k], &e = tb.exp_ev[c][k];
        bool same2 = w[17] == k;
        for (unsigned i = 0; i < 16; i++) same2 = same2 && w[i] == e[i];
        for (unsigned i = 18; i < words; i++) same2 = same2 && w[i] == ~w[i - 18];
        if (!same2 && !bad++) where = unsigned(k);
      }
    }
    r.check(ok2 && !bad, name, "core 0 %zu/%zu, core 1 %zu/%zu, %u differ (first at %u)", per[0].size(),
            tb.exp_ev[0].size(), per[1].size(), tb.exp_ev[1].size(), bad, where);
  };
  check_desc(tb.txd, RNIC_TX_DESC_SIZE / 4, "events-to-owner-txd-exact");
  check_desc(tb.rqd, RNIC_RQ_DESC_SIZE / 4, "events-to-owner-rqd-exact");
  check_desc(tb.rdd, RNIC_RD_DESC_SIZE / 4, "events-to-owner-rdd-exact");
  r.check(tb.txd_switches > 10, "txd-arbiter-interleaves", "%u switches between cores", tb.txd_switches);

  // ---- doorbells: to the QP's owner (CQ doorbells to core 0), in order, every word ----
  {
    std::vector<size_t> idx[kCores];
    bool ok2 = tb.qpt.size() == tb.qpt_qpn.size();
    for (size_t i = 0; i < tb.qpt.size(); i++) {
      uint32_t h = tb.qpt_qpn[i] >> 24;
      if (h >= kCores || tb.qpt[i][2] != h) { ok2 = false; continue; }
      idx[h].push_back(i);
    }
    unsigned bad = 0;
    for (unsigned c = 0; c < kCores; c++) {
      ok2 = ok2 && idx[c].size() == tb.exp_db[c].size();
      for (size_t k = 0; k < idx[c].size() && k < tb.exp_db[c].size(); k++) {
        const Words &w = tb.qpt[idx[c][k]];
        uint32_t e = tb.exp_db[c][k].first, v = tb.exp_db[c][k].second;
        bool s = (tb.qpt_qpn[idx[c][k]] & 0xFFFFFFu) == k && w[0] == e && w[1] == v;
        s = s && w[3] == Tb::rdq_answer(v & 0xFFFFFFu, e & 0xFFFFFFu);
        for (unsigned i = 4; i < 16; i++) s = s && w[i] == (e ^ v ^ i);
        bad += !s;
      }
    }
    r.check(ok2 && !bad, "doorbells-to-owner-qpt-exact", "core 0 %zu/%zu, core 1 %zu/%zu, %u differ",
            idx[0].size(), tb.exp_db[0].size(), idx[1].size(), tb.exp_db[1].size(), bad);
  }

  r.check(tb.rdq_reads == 16 * kCores + exp_dbs, "rdq-one-read-per-query", "%llu reads for %zu queries",
          (unsigned long long)tb.rdq_reads, 16 * kCores + exp_dbs);

  // ---- the window while running: each core's own DMEM ----
  bool marks = true;
  for (unsigned c = 0; c < kCores; c++) {
    uint32_t m0 = 0, m1 = 0, m2 = 0;
    bool e0 = true, e1 = true, e2 = true;
    marks = marks && tb.win(false, kWinDmem + c * kDmemBytes + kMark, 0, m0, e0) && !e0 && m0 == (0xC0DE0000u | c);
    marks = marks && tb.win(false, kWinDmem + c * kDmemBytes + kMark + 4, 0, m1, e1) && !e1 && m1 == tb.exp_ev[c].size();
    marks = marks && tb.win(false, kWinDmem + c * kDmemBytes + kMark + 8, 0, m2, e2) && !e2 && m2 == tb.exp_db[c].size();
    if (!marks) std::printf("INFO core %u markers 0x%08x %u %u\n", c, m0, m1, m2);
  }
  r.check(marks, "window-reads-each-core-dmem");
  bool run_wr = tb.win(true, kWinDmem + kMark, 0, rd, err) && err;
  r.check(run_wr, "window-write-while-running-faults");
  std::printf("INFO %u cores, %zu events, %zu doorbells (%s), %llu cycles, %llu event stalls\n", kCores, exp_evs,
              exp_dbs, per_core.c_str(), (unsigned long long)tb.cycle,
              (unsigned long long)tb.evt_stall);
  std::printf("%d passed, %d failed\n", r.passed, r.failed);
  return r.exit_code();
}
