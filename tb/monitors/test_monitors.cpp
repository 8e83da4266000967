// Unit tests of the port protocol checkers (sim/monitors): each rule is broken once on purpose
// and must be reported (with the expected message), and legal traffic, including the legal
// corner cases (W ahead of its AW, R interleaved across IDs, a stall of many cycles, a 4 KiB
// burst ending exactly at the boundary), must pass without a report.
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>

#include "monitors/port_monitors.h"
#include "tb_check.h"

namespace {

TbResults r;

// Runs a stimulus; the monitor must report exactly `want` violations (0: clean) and, if any,
// the first must contain `text`.
template <class M>
void expect(const char *name, M &m, uint64_t want, const char *text) {
  bool ok = m.violation_count() == want;
  std::string first = m.violations().empty() ? "" : m.violations()[0].msg;
  if (want && first.find(text) == std::string::npos) ok = false;
  r.check(ok, name, "%llu violations (want %llu), first: '%s'", (unsigned long long)m.violation_count(),
          (unsigned long long)want, first.c_str());
}

constexpr unsigned kB = 64;

AxiPorts idle() { return AxiPorts(kB); }
AxiPorts ar(uint64_t addr, uint32_t len, uint32_t id, bool ready = true) {
  AxiPorts p(kB);
  p.arvalid = true, p.araddr = addr, p.arlen = len, p.arsize = 6, p.arburst = 1, p.arid = id, p.arready = ready;
  return p;
}
AxiPorts aw(uint64_t addr, uint32_t len, uint32_t id = 0, bool ready = true) {
  AxiPorts p(kB);
  p.awvalid = true, p.awaddr = addr, p.awlen = len, p.awsize = 6, p.awburst = 1, p.awid = id, p.awready = ready;
  return p;
}
AxiPorts w(bool last, uint8_t fill = 0, bool ready = true) {
  AxiPorts p(kB);
  p.wvalid = true, p.wlast = last, p.wready = ready;
  std::memset(p.wdata.data(), fill, kB);
  std::memset(p.wstrb.data(), 1, kB);
  return p;
}
AxiPorts rb(uint32_t id, bool last, uint32_t resp = 0) {
  AxiPorts p(kB);
  p.rvalid = p.rready = true, p.rid = id, p.rlast = last, p.rresp = resp;
  return p;
}
AxiPorts b(uint32_t id) {
  AxiPorts p(kB);
  p.bvalid = p.bready = true, p.bid = id;
  return p;
}

void axi() {
  {  // legal: reads interleaved across IDs, W ahead of its AW, a long AW stall, burst up to 4 KiB
    AxiMonitor m("axi");
    uint64_t c = 0;
    m.cycle(c++, ar(0x1000, 1, 0));
    m.cycle(c++, ar(0x2FC0, 0, 1));  // one beat ending exactly at 0x2FFF
    m.cycle(c++, rb(1, true));
    m.cycle(c++, rb(0, false));
    m.cycle(c++, ar(0x3000, 63, 2));  // 64 beats = 4 KiB, ends at 0x3FFF
    m.cycle(c++, rb(0, true));
    for (int i = 0; i < 64; i++) m.cycle(c++, rb(2, i == 63));
    m.cycle(c++, w(false, 1));  // W beats before the AW
    m.cycle(c++, w(true, 2));
    for (int i = 0; i < 20; i++) m.cycle(c++, aw(0x5000, 1, 0, false));  // AW waits 20 cycles
    m.cycle(c++, aw(0x5000, 1, 0, true));
    m.cycle(c++, b(0));
    expect("mon-axi-legal-traffic-clean", m, 0, "");
    r.check(m.figures().ar == 3 && m.figures().aw == 1 && m.figures().max_rd_outstanding == 2 &&
                m.figures().max_ar_beats == 64 && m.figures().w_beats == 2,
            "mon-axi-figures", "ar %llu aw %llu max rd %u max beats %u", (unsigned long long)m.figures().ar,
            (unsigned long long)m.figures().aw, m.figures().max_rd_outstanding, m.figures().max_ar_beats);
  }
  {
    AxiMonitor m("axi");
    m.cycle(0, ar(0x1000, 0, 0, false));
    m.cycle(1, idle());
    expect("mon-axi-arvalid-dropped", m, 1, "ARVALID dropped");
  }
  {
    AxiMonitor m("axi");
    m.cycle(0, aw(0x1000, 0, 0, false));
    m.cycle(1, aw(0x1040, 0, 0, true));
    expect("mon-axi-awaddr-changed-while-stalled", m, 1, "AW payload changed");
  }
  {
    AxiMonitor m("axi");
    m.cycle(0, w(false, 1, false));
    m.cycle(1, w(false, 9, true));
    expect("mon-axi-wdata-changed-while-stalled", m, 1, "W payload changed");
  }
  {
    AxiMonitor m("axi");
    AxiPorts p = rb(0, true);
    m.cycle(0, ar(0, 0, 0));
    p.rready = false;
    m.cycle(1, p);
    p.rready = true;
    p.rdata[5] ^= 1;
    m.cycle(2, p);
    expect("mon-axi-slave-rdata-changed-while-stalled", m, 1, "R payload changed");
  }
  {
    AxiMonitor m("axi");
    m.cycle(0, ar(0x1FC0, 1, 0));  // 2 beats from 0x1FC0: 0x1FC0..0x203F
    expect("mon-axi-4k-crossing", m, 1, "crosses a 4 KiB boundary");
  }
  {
    AxiMonitor m("axi");
    AxiPorts p = ar(0x1000, 0, 0);
    p.arburst = 0;  // FIXED
    m.cycle(0, p);
    p = aw(0x1000, 0);
    p.awsize = 3;  // 8 bytes on a 64-byte bus
    m.cycle(1, p);
    expect("mon-axi-burst-type-and-size", m, 2, "burst type 0");
  }
  {
    AxiMonitor m("axi");
    m.cycle(0, aw(0x1000, 2));
    m.cycle(1, w(false));
    m.cycle(2, w(true));  // WLAST on beat 2 of 3
    expect("mon-axi-wlast-early", m, 1, "WLAST after 2 beats");
  }
  {
    AxiMonitor m("axi");
    m.cycle(0, aw(0x1000, 1));
    m.cycle(1, w(false));
    m.cycle(2, w(false));
    m.cycle(3, w(true));  // three beats for a 2-beat burst
    expect("mon-axi-wlast-missing", m, 2, "without WLAST");
  }
  {
    AxiMonitor m("axi");
    m.cycle(0, ar(0x1000, 1, 3));
    m.cycle(1, rb(3, true));  // RLAST on the first of two beats
    expect("mon-axi-rlast-early", m, 1, "RLAST on beat 1 of a 2-beat burst");
  }
  {
    AxiMonitor m("axi");
    m.cycle(0, rb(4, true));
    m.cycle(1, b(2));
    expect("mon-axi-response-without-request", m, 2, "R beat on ID 4");
  }
  {
    AxiMonitor m("axi");
    m.cycle(0, ar(0x1000, 0, 1));
    m.cycle(1, ar(0x2000, 0, 1));
    expect("mon-axi-read-id-reused-while-outstanding", m, 1, "while a read on that ID is outstanding");
  }
  {
    AxiLimits lim;
    lim.max_rd_outstanding = 4, lim.max_wr_outstanding = 2;
    AxiMonitor m("axi", lim);
    for (uint32_t i = 0; i < 5; i++) m.cycle(i, ar(0x1000 * (i + 1), 0, i));
    for (uint32_t i = 0; i < 3; i++) m.cycle(10 + i, aw(0x1000 * (i + 1), 0, 0));
    expect("mon-axi-outstanding-limits", m, 2, "5 reads outstanding, limit 4");
  }
}

void axil() {
  {
    AxilMonitor m("bar0");
    AxilSignals s;
    s.awvalid = s.wvalid = true, s.awaddr = 0x10, s.wdata = 5, s.wstrb = 0xF;
    m.cycle(0, s);  // not ready yet
    s.awready = s.wready = true;
    m.cycle(1, s);
    AxilSignals t;
    t.bvalid = true;
    m.cycle(2, t);  // B waits a cycle
    t.bready = true;
    m.cycle(3, t);
    AxilSignals u;
    u.arvalid = u.arready = true, u.araddr = 0x20;
    m.cycle(4, u);
    AxilSignals v;
    v.rvalid = v.rready = true, v.rdata = 7;
    m.cycle(5, v);
    expect("mon-axil-legal-clean", m, 0, "");
  }
  {
    AxilMonitor m("bar0");
    AxilSignals s;
    s.arvalid = true, s.araddr = 0x10;
    m.cycle(0, s);
    s.araddr = 0x14;
    m.cycle(1, s);
    expect("mon-axil-araddr-changed", m, 1, "AR payload changed");
  }
  {
    AxilMonitor m("bar0");
    AxilSignals s;
    s.awvalid = s.awready = true;
    m.cycle(0, s);
    AxilSignals t;
    t.bvalid = t.bready = true;
    m.cycle(1, t);  // no W yet
    expect("mon-axil-b-before-w", m, 1, "B before both");
  }
  {
    AxilMonitor m("bar0");
    AxilSignals s;
    s.rvalid = true, s.rdata = 1;
    m.cycle(0, s);
    s.rdata = 2, s.rready = true;
    m.cycle(1, s);
    expect("mon-axil-rdata-changed-and-unrequested", m, 2, "R payload changed");
  }
}

void axis() {
  uint8_t d[kB] = {}, e[kB] = {};
  e[3] = 1;
  {
    AxisMonitor m("tx", kB);
    AxisSignals s{true, false, false, ~0ull, d};
    m.cycle(0, s);  // stalled
    s.tready = true;
    m.cycle(1, s);
    s = {true, true, true, 0x7, d};
    m.cycle(2, s);
    expect("mon-axis-legal-clean", m, 0, "");
    r.check(m.frames() == 1, "mon-axis-frames-counted");
  }
  {
    AxisMonitor m("tx", kB);
    m.cycle(0, {true, false, false, ~0ull, d});
    m.cycle(1, {true, true, false, ~0ull, e});
    expect("mon-axis-tdata-changed-while-stalled", m, 1, "changed while waiting");
  }
  {
    AxisMonitor m("tx", kB);
    m.cycle(0, {true, false, true, 0x1, d});
    m.cycle(1, {false, true, false, 0, d});
    expect("mon-axis-tvalid-dropped", m, 1, "TVALID dropped");
  }
  {
    AxisMonitor m("rx", kB);
    m.cycle(0, {true, true, false, 0xFF, d});   // partial keep mid-frame
    m.cycle(1, {true, true, true, 0xF0, d});    // keep not from lane 0
    m.cycle(2, {true, true, true, 0, d});       // empty last beat
    expect("mon-axis-tkeep-rules", m, 3, "not the last");
  }
}

void reqack() {
  ReqAckMonitor m("msix");
  m.cycle(0, true, false, 3);
  m.cycle(1, true, true, 3);
  expect("mon-msix-legal-clean", m, 0, "");
  m.cycle(2, true, false, 4);
  m.cycle(3, true, false, 5);
  m.cycle(4, false, false, 5);
  expect("mon-msix-vector-changed-and-req-dropped", m, 2, "vector changed from 4 to 5");
}

}  // namespace

int main() {
  axi();
  axil();
  axis();
  reqack();
  return r.exit_code();
}
