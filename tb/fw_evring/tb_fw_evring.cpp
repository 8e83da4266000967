// tb_fw_evring: testbench of the receive-event path to the firmware (tb/fw_evring/
// fw_evring_tb_top.sv: rnic_event_merge with a 4-deep FIFO in front of rnic_fw_evring, the ring
// on the soft core's tightly coupled window). A receive-engine model offers events of random
// bytes and holds each until taken; a transmit-engine model offers verdicts (success, errors,
// UD sends, READ responses). A firmware model reads the ring as the firmware does (evr_prod,
// every word of each slot, one evr_cons store for one or several events) with long pauses, so
// the ring and the FIFO fill and the engines stall. Checks: every event arrives once, in the
// order the engines handed them over, every word equal (verdicts converted to TX_ERROR / TX_DONE
// / RESP_ERROR with status and QPN); the ring holds evr_num events when full and the engines
// wait then; the 16-bit counts wrap; a reset empties the ring mid-stream and the stream goes on;
// other window addresses answer 0 (the engines' answers are ORed). Options: --seed N, --events N.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <random>
#include <string>

#include "Vfw_evring_tb_top.h"
#include "rnic_spec.h"
#include "tb_check.h"
#include "tb_tc_port.h"
#include "verilated.h"

static constexpr unsigned kWords = RNIC_RX_EVENT_SIZE / 4;
static constexpr uint32_t kCntMask = (1u << RNIC_FW_TC_EVR_COUNT_BITS) - 1u;

struct Event {
  uint32_t w[kWords];
};

struct Tb {
  Vfw_evring_tb_top m;
  std::mt19937_64 rng;
  std::deque<Event> expect;  // handed over by the engines, not yet read by the firmware
  Event rx_cur{};
  unsigned rx_pct = 60, tx_pct = 30;
  uint64_t cycle = 0, rx_stall = 0, tx_stall = 0, rx_sent = 0, tx_events = 0, tx_silent = 0;
  bool sources_on = true;

  explicit Tb(uint64_t seed) : rng(seed) {
    m.clk_i = 0;
    m.rst_ni = 0;
    m.eval();
    m.rst_ni = 1;
    m.eval();
    new_rx();
    new_tx();
  }
  unsigned pct() { return unsigned(rng() % 100); }
  void new_rx() {
    for (unsigned i = 0; i < kWords; i++) rx_cur.w[i] = uint32_t(rng());
    m.rx_evt_valid_i = sources_on && pct() < rx_pct;
    for (unsigned i = 0; i < kWords; i++) m.rx_evt_i[i] = rx_cur.w[i];
  }
  void new_tx() {
    static const uint8_t st[] = {RNIC_WC_STATUS_SUCCESS, RNIC_WC_STATUS_LOC_PROT_ERR, RNIC_WC_STATUS_LOC_LEN_ERR,
                                 RNIC_WC_STATUS_GENERAL_ERR};
    m.tx_done_valid_i = sources_on && pct() < tx_pct;
    m.tx_done_qpn_i = uint32_t(rng()) & 0xFFFFFFu;
    m.tx_done_status_i = pct() < 60 ? RNIC_WC_STATUS_SUCCESS : st[rng() % 4];
    m.tx_done_ud_i = pct() < 30;
    m.tx_done_rsp_i = pct() < 20;
  }
  // the event a verdict becomes (rnic_event_merge's rules), or none
  bool tx_event(Event &e) {
    bool err = m.tx_done_status_i != RNIC_WC_STATUS_SUCCESS;
    if (!err && !m.tx_done_ud_i) return false;
    std::memset(&e, 0, sizeof(e));
    uint32_t kind = m.tx_done_rsp_i ? RNIC_RX_EVENT_KIND_RESP_ERROR
                    : err           ? RNIC_RX_EVENT_KIND_TX_ERROR
                                    : RNIC_RX_EVENT_KIND_TX_DONE;
    e.w[0] = kind | uint32_t(m.tx_done_status_i) << 8;
    e.w[RNIC_RX_EVENT_QPN_OFF / 4] = m.tx_done_qpn_i;
    return true;
  }
  // one clock: the engines' handshakes as the RTL sees them before the edge
  void tick() {
    m.eval();
    bool rx_x = m.rx_evt_valid_i && m.rx_evt_ready_o;
    bool tx_x = m.tx_done_valid_i && m.tx_done_ready_o;
    rx_stall += m.rx_evt_valid_i && !m.rx_evt_ready_o;
    tx_stall += m.tx_done_valid_i && !m.tx_done_ready_o;
    if (rx_x) {
      expect.push_back(rx_cur);
      rx_sent++;
    }
    Event te;
    if (tx_x) {
      if (tx_event(te)) {
        expect.push_back(te);  // never in the same cycle as a receive event (the merge waits)
        tx_events++;
      } else {
        tx_silent++;
      }
    }
    m.clk_i = 1;
    m.eval();
    m.clk_i = 0;
    m.eval();
    cycle++;
    m.tc_req_i = 0;
    m.tc_we_i = 0;
    if (rx_x || !m.rx_evt_valid_i) new_rx();  // a waiting event stays offered, unchanged
    if (tx_x || !m.tx_done_valid_i) new_tx();
  }
  uint32_t load(uint32_t off) { return tb_tc_load(m, [&] { tick(); }, off); }
  // a slot word through the ring's own read port (rnic_fw_subsys: the core's address, one cycle)
  uint32_t load_slot(uint32_t off) {
    m.rd_en_i = 1;
    m.rd_addr_i = ((off - RNIC_FW_TC_EVR_BASE) / 4) % (RNIC_FW_TC_EVR_NUM * kWords);
    tick();
    m.rd_en_i = 0;
    m.eval();
    return m.rd_data_o;
  }
  void store(uint32_t off, uint32_t v) { tb_tc_store(m, [&] { tick(); }, off, v); }
  void idle(unsigned n) {
    for (unsigned i = 0; i < n; i++) tick();
  }
  void reset() {
    m.rst_ni = 0;
    m.eval();
    m.rst_ni = 1;
    m.eval();
    expect.clear();  // what the FIFO and the ring held is gone with the reset
    new_rx();        // the engines start over too
    new_tx();
  }
};

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  uint64_t seed = 1, events = 70000;
  for (int i = 1; i + 1 < argc; i++) {
    if (!std::strcmp(argv[i], "--seed")) seed = std::strtoull(argv[++i], nullptr, 0);
    else if (!std::strcmp(argv[i], "--events")) events = std::strtoull(argv[++i], nullptr, 0);
  }
  TbResults r;
  Tb tb(seed);

  // the firmware's side: its own consumer count, as firmware/app/fw_db.c keeps it
  uint32_t cons = tb.load(RNIC_FW_TC_EVR_CONS);
  r.check(cons == 0 && tb.load(RNIC_FW_TC_EVR_PROD) == 0, "evring-reset-counts-zero");

  uint64_t got = 0, bad_words = 0, missing = 0, full_seen = 0, full_bad = 0, wraps = 0, other_nonzero = 0;
  uint32_t last_prod = 0;
  bool reset_done = false, reset_ok = false;
  std::string first_bad;
  while (got < events) {
    // phases of receive load: the merge takes a verdict only while no receive event waits
    if (tb.pct() < 2) {
      static const unsigned loads[] = {0, 10, 60, 95};
      tb.rx_pct = loads[tb.rng() % 4];
    }
    // a pause now and then: the ring and the FIFO fill, the engines wait
    if (tb.pct() < 3) tb.idle(40 + unsigned(tb.rng() % 200));
    uint32_t prod = tb.load(RNIC_FW_TC_EVR_PROD);
    if (prod < last_prod) wraps++;
    last_prod = prod;
    uint32_t n = (prod - cons) & kCntMask;
    if (n > RNIC_FW_TC_EVR_NUM) {
      full_bad++;
      n = RNIC_FW_TC_EVR_NUM;
    }
    if (n == RNIC_FW_TC_EVR_NUM) {
      full_seen++;
      // full: nothing more is written (evr_prod stays) while the engines wait
      tb.idle(20);
      if (tb.load(RNIC_FW_TC_EVR_PROD) != prod) full_bad++;
    }
    // other addresses on the registered request answer 0 (rnic_core ORs the engines' answers),
    // the slots' among them (rnic_fw_subsys reads those from the ring's own port)
    if (tb.pct() < 2) {
      static const uint32_t others[] = {RNIC_FW_TC_CQW_PROD, RNIC_FW_TC_EVR_BASE,
                                        RNIC_FW_TC_EVR_BASE + RNIC_FW_TC_EVR_NUM * RNIC_RX_EVENT_SIZE - 4, 0x000};
      other_nonzero += tb.load(others[tb.rng() % 4]) != 0;
    }
    // read some of them (one, several, or all), then free them with one store
    uint32_t take = n ? 1 + uint32_t(tb.rng() % n) : 0;
    for (uint32_t k = 0; k < take; k++) {
      uint32_t slot = RNIC_FW_TC_EVR_BASE + (cons % RNIC_FW_TC_EVR_NUM) * RNIC_RX_EVENT_SIZE;
      Event e;
      for (unsigned w = 0; w < kWords; w++) e.w[w] = tb.load_slot(slot + 4 * w);
      if (tb.expect.empty()) {
        missing++;
      } else {
        const Event &x = tb.expect.front();
        for (unsigned w = 0; w < kWords; w++)
          if (e.w[w] != x.w[w]) {
            if (!bad_words) {
              char b[128];
              std::snprintf(b, sizeof b, "event %llu word %u: got %08x want %08x", (unsigned long long)got, w,
                            e.w[w], x.w[w]);
              first_bad = b;
            }
            bad_words++;
          }
        tb.expect.pop_front();
      }
      cons = (cons + 1) & kCntMask;
      got++;
    }
    if (take) tb.store(RNIC_FW_TC_EVR_CONS, cons);
    // once, early (the counts still wrap after it), with events in the ring: a reset empties it, the counts start at 0
    if (!reset_done && got > 1000 && n >= 2) {
      tb.idle(30);
      tb.reset();
      reset_done = true;
      uint32_t p0 = tb.load(RNIC_FW_TC_EVR_PROD), c0 = tb.load(RNIC_FW_TC_EVR_CONS);
      cons = c0;
      last_prod = 0;
      reset_ok = p0 <= 1 && c0 == 0;  // one event may already be copied since the reset
    }
  }
  // drain: stop the engines, read what is left
  tb.sources_on = false;
  tb.m.rx_evt_valid_i = 0;
  tb.m.tx_done_valid_i = 0;
  tb.idle(200);
  uint64_t tail = 0;
  for (;;) {
    uint32_t prod = tb.load(RNIC_FW_TC_EVR_PROD);
    if (prod == cons) break;
    uint32_t slot = RNIC_FW_TC_EVR_BASE + (cons % RNIC_FW_TC_EVR_NUM) * RNIC_RX_EVENT_SIZE;
    Event e;
    for (unsigned w = 0; w < kWords; w++) e.w[w] = tb.load_slot(slot + 4 * w);
    if (tb.expect.empty() || std::memcmp(&e, &tb.expect.front(), sizeof e)) bad_words++;
    if (!tb.expect.empty()) tb.expect.pop_front();
    cons = (cons + 1) & kCntMask;
    tb.store(RNIC_FW_TC_EVR_CONS, cons);
    tb.idle(20);
    tail++;
  }
  uint32_t cons_rd = tb.load(RNIC_FW_TC_EVR_CONS);

  r.check(bad_words == 0 && missing == 0, "evring-events-in-order-byte-exact", "%llu bad words, %llu missing: %s",
          (unsigned long long)bad_words, (unsigned long long)missing, first_bad.c_str());
  r.check(tb.expect.empty(), "evring-nothing-lost", "%zu events handed over never reached the ring", tb.expect.size());
  r.check(full_seen > 100 && full_bad == 0 && tb.rx_stall > 1000 && tb.tx_stall > 100, "evring-full-stalls-engines",
          "full %llu times (bad %llu), rx stalled %llu cycles, tx %llu", (unsigned long long)full_seen,
          (unsigned long long)full_bad, (unsigned long long)tb.rx_stall, (unsigned long long)tb.tx_stall);
  r.check(tb.tx_events > 1000 && tb.tx_silent > 1000, "evring-tx-verdicts-converted", "%llu verdict events, %llu silent",
          (unsigned long long)tb.tx_events, (unsigned long long)tb.tx_silent);
  r.check(events < 70000 || wraps >= 1, "evring-counts-wrap", "%llu wraps in %llu events", (unsigned long long)wraps,
          (unsigned long long)got);
  r.check(reset_done && reset_ok, "evring-reset-mid-stream-empties");
  r.check(other_nonzero == 0 && cons_rd == cons, "evring-other-addresses-zero-cons-reads-back");
  std::printf("# %llu events read (+%llu drained), %llu cycles, %llu receive events, %llu verdict events\n",
              (unsigned long long)got, (unsigned long long)tail, (unsigned long long)tb.cycle,
              (unsigned long long)tb.rx_sent, (unsigned long long)tb.tx_events);
  return r.exit_code();
}
