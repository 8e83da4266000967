#include "monitors/port_monitors.h"

#include <cstdio>

void MonitorBase::violate(uint64_t cycle, const std::string &msg) {
  if (v_.size() < kKeep) v_.push_back({cycle, port_, msg});
  count_++;
}

uint64_t monitor_hash(const uint8_t *p, size_t n, uint64_t h) {
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

static std::string fmt(const char *f, unsigned long long a = 0, unsigned long long b = 0, unsigned long long c = 0) {
  char s[200];
  std::snprintf(s, sizeof s, f, a, b, c);
  return s;
}

// ---- AXI4 ---------------------------------------------------------------------------------------

void MonitorBase::held_check(uint64_t cyc, const char *ch, const Held &s, bool valid, uint64_t h) {
  if (!valid) violate(cyc, std::string(ch) + "VALID dropped before " + ch + "READY");
  else if (h != s.h) violate(cyc, std::string(ch) + " payload changed while waiting for " + ch + "READY");
}

void AxiMonitor::check_burst(uint64_t cyc, const char *ch, uint64_t addr, uint32_t len, uint32_t size, uint32_t burst) {
  std::string c(ch);
  if (burst != 1) violate(cyc, c + fmt(" burst type %llu (only INCR is issued)", burst));
  if ((1u << size) != lim_.data_bytes) violate(cyc, c + fmt(" size %llu bytes on a %llu-byte bus", 1ull << size, lim_.data_bytes));
  if (len > 255) violate(cyc, c + fmt(" LEN %llu: more than 256 beats", len));
  uint64_t aligned = addr & ~uint64_t((1u << size) - 1);
  uint64_t last = aligned + (uint64_t(len) + 1) * (1u << size) - 1;
  if ((addr >> 12) != (last >> 12))
    violate(cyc, c + fmt(" burst 0x%llx..0x%llx crosses a 4 KiB boundary", addr, last));
}

void AxiMonitor::match_w(uint64_t cyc) {
  while (!aw_beats_.empty() && !w_bursts_.empty()) {
    if (aw_beats_.front() != w_bursts_.front())
      violate(cyc, fmt("WLAST after %llu beats, its AW burst has %llu", w_bursts_.front(), aw_beats_.front()));
    aw_beats_.pop_front();
    w_bursts_.pop_front();
  }
}

void AxiMonitor::cycle(uint64_t cyc, const AxiPorts &p) {
  // A cycle without VALID and without a stall going on checks nothing: hold() would only clear
  // flags that are clear (a Held's hash is read only while its flag is set), and every other
  // check needs a handshake. The doorbell port is such a cycle nearly always (step 17).
  if (!(p.awvalid || p.wvalid || p.arvalid || p.rvalid || p.bvalid) && !stalled()) return;
  const unsigned nb = lim_.data_bytes;
  // handshake stability, master channels then slave channels
  hold(cyc, "AW", aw_, p.awvalid, p.awready,
       p.awvalid ? (p.awaddr * 31 + p.awid) * 1000003 + (p.awlen << 16 | p.awsize << 8 | p.awburst) : 0);
  uint64_t wh = 0;
  if (needs_hash(w_, p.wvalid, p.wready)) wh = monitor_hash(p.wstrb.data(), nb, monitor_hash(p.wdata.data(), nb)) ^ p.wlast;
  hold(cyc, "W", w_, p.wvalid, p.wready, wh);
  hold(cyc, "AR", ar_, p.arvalid, p.arready,
       p.arvalid ? (p.araddr * 31 + p.arid) * 1000003 + (p.arlen << 16 | p.arsize << 8 | p.arburst) : 0);
  uint64_t rh = 0;
  if (needs_hash(r_, p.rvalid, p.rready)) rh = monitor_hash(p.rdata.data(), nb, p.rid * 7 + p.rresp * 3 + p.rlast);
  hold(cyc, "R", r_, p.rvalid, p.rready, rh);
  hold(cyc, "B", b_, p.bvalid, p.bready, p.bvalid ? p.bid * 4 + p.bresp : 0);

  if (p.arvalid && p.arready) {
    check_burst(cyc, "AR", p.araddr, p.arlen, p.arsize, p.arburst);
    auto &q = rd_out_[p.arid];
    if (lim_.distinct_read_ids && !q.empty())
      violate(cyc, fmt("AR on ID %llu while a read on that ID is outstanding", p.arid));
    q.push_back(p.arlen + 1);
    rd_n_++;
    fig_.ar++;
    fig_.ar_beats_hist[p.arlen + 1]++;
    if (p.arlen + 1 > fig_.max_ar_beats) fig_.max_ar_beats = p.arlen + 1;
    if (rd_n_ > fig_.max_rd_outstanding) fig_.max_rd_outstanding = rd_n_;
    if (rd_n_ > lim_.max_rd_outstanding)
      violate(cyc, fmt("%llu reads outstanding, limit %llu", rd_n_, lim_.max_rd_outstanding));
  }
  if (p.rvalid && p.rready) {
    fig_.r_beats++;
    auto it = rd_out_.find(p.rid);
    if (it == rd_out_.end() || it->second.empty()) {
      violate(cyc, fmt("R beat on ID %llu with no read outstanding on it", p.rid));
    } else {
      unsigned &got = r_count_[p.rid];
      got++;
      bool end = got == it->second.front();
      if (p.rlast != end)
        violate(cyc, fmt(p.rlast ? "RLAST on beat %llu of a %llu-beat burst (ID %llu)"
                                 : "no RLAST on beat %llu of a %llu-beat burst (ID %llu)",
                         got, it->second.front(), p.rid));
      if (p.rresp) fig_.r_err += end;
      if (p.rlast || end) {
        it->second.pop_front();
        got = 0;
        rd_n_--;
      }
    }
  }
  if (p.awvalid && p.awready) {
    check_burst(cyc, "AW", p.awaddr, p.awlen, p.awsize, p.awburst);
    aw_beats_.push_back(p.awlen + 1);
    wr_out_[p.awid]++;
    wr_n_++;
    fig_.aw++;
    fig_.aw_beats_hist[p.awlen + 1]++;
    if (p.awlen + 1 > fig_.max_aw_beats) fig_.max_aw_beats = p.awlen + 1;
    if (wr_n_ > fig_.max_wr_outstanding) fig_.max_wr_outstanding = wr_n_;
    if (lim_.max_wr_outstanding && wr_n_ > lim_.max_wr_outstanding)
      violate(cyc, fmt("%llu writes outstanding, limit %llu", wr_n_, lim_.max_wr_outstanding));
  }
  if (p.wvalid && p.wready) {
    fig_.w_beats++;
    w_count_++;
    size_t idx = w_bursts_.size();  // the AW this burst belongs to, if it has been seen
    if (idx < aw_beats_.size() && w_count_ > aw_beats_[idx])
      violate(cyc, fmt("W beat %llu of a %llu-beat burst without WLAST before it", w_count_, aw_beats_[idx]));
    if (p.wlast) {
      w_bursts_.push_back(w_count_);
      w_count_ = 0;
    }
  }
  // Only a new AW or WLAST can make a pair: with none this cycle both queues are as the last
  // call left them, one of them empty (docs/sim-speed.md, step 17).
  if ((p.awvalid && p.awready) || (p.wvalid && p.wready && p.wlast)) match_w(cyc);
  if (p.bvalid && p.bready) {
    auto it = wr_out_.find(p.bid);
    if (it == wr_out_.end() || it->second == 0) {
      violate(cyc, fmt("B on ID %llu with no write outstanding on it", p.bid));
    } else {
      it->second--;
      wr_n_--;
      fig_.b_err += p.bresp != 0;
    }
  }
}

// ---- AXI4-Lite ----------------------------------------------------------------------------------

void AxilMonitor::cycle(uint64_t cyc, const AxilSignals &s) {
  hold(cyc, "AW", aw_, s.awvalid, s.awready, s.awaddr);
  hold(cyc, "W", w_, s.wvalid, s.wready, uint64_t(s.wdata) << 8 | s.wstrb);
  hold(cyc, "B", b_, s.bvalid, s.bready, s.bresp);
  hold(cyc, "AR", ar_, s.arvalid, s.arready, s.araddr);
  hold(cyc, "R", r_, s.rvalid, s.rready, uint64_t(s.rdata) << 2 | s.rresp);
  if (s.awvalid && s.awready) aw_n_++;
  if (s.wvalid && s.wready) w_n_++;
  if (s.arvalid && s.arready) ar_n_++;
  if (s.bvalid && s.bready) {
    if (!aw_n_ || !w_n_) violate(cyc, "B before both the AW and the W handshake of its write");
    else aw_n_--, w_n_--;
  }
  if (s.rvalid && s.rready) {
    if (!ar_n_) violate(cyc, "R with no read outstanding");
    else ar_n_--;
  }
}

// ---- AXI-Stream ---------------------------------------------------------------------------------

void AxisMonitor::cycle(uint64_t cyc, const AxisSignals &s) {
  uint64_t h = 0;
  if (needs_data(s.tvalid, s.tready)) h = monitor_hash(s.tdata, bytes_, s.tkeep * 2 + s.tlast);
  if (held_) {
    if (!s.tvalid) violate(cyc, "TVALID dropped before TREADY");
    else if (h != h_) violate(cyc, "TDATA/TKEEP/TLAST changed while waiting for TREADY");
  }
  held_ = s.tvalid && !s.tready;
  h_ = h;
  if (!s.tvalid || !s.tready) return;
  const uint64_t all = bytes_ >= 64 ? ~0ull : ((1ull << bytes_) - 1);
  if (!s.tlast && s.tkeep != all) violate(cyc, fmt("TKEEP 0x%llx on a beat that is not the last", s.tkeep));
  if (s.tlast && (s.tkeep == 0 || (s.tkeep & (s.tkeep + 1)) != 0 || (s.tkeep & ~all)))
    violate(cyc, fmt("TKEEP 0x%llx on the last beat: not a run of ones from lane 0", s.tkeep));
  frames_ += s.tlast;
}

// ---- request/acknowledge ------------------------------------------------------------------------

void ReqAckMonitor::cycle(uint64_t cyc, bool req, bool ack, uint32_t payload) {
  if (held_) {
    if (!req) violate(cyc, "REQ dropped before ACK");
    else if (payload != p_) violate(cyc, fmt("vector changed from %llu to %llu while waiting for ACK", p_, payload));
  }
  held_ = req && !ack;
  p_ = payload;
}
