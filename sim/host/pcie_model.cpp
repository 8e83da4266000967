#include "host/pcie_model.h"

#include <algorithm>
#include <cstring>

PcieModel::PcieModel(HostMem &mem, const PcieCfg &cfg) : mem_(mem), cfg_(cfg), rng_(cfg.seed) {
  credit_per_cycle_ = cfg_.link_gbytes_s * double(cfg_.clk_ps) / 1000.0;  // bytes per cycle
  credit_cap_ = double(cfg_.max_payload + cfg_.tlp_overhead);
  rd_credit_ = wr_credit_ = credit_cap_;
}

uint32_t PcieModel::err_for(uint64_t a, uint64_t n, bool write) const {
  for (const auto &e : cfg_.errs)
    if ((write ? e.writes : e.reads) && a < e.base + e.len && e.base < a + n) return e.resp;
  return cfg_.err_fn ? cfg_.err_fn(a, n, write) : 0;
}

void PcieModel::violate(const std::string &s) {
  if (violations++ == 0) first_violation = "cycle " + std::to_string(cycle_) + ": " + s;
}

void PcieModel::check_burst(const char *ch, uint64_t addr, uint32_t len, uint32_t size, uint32_t burst) {
  if (burst != 1) violate(std::string(ch) + " burst type not INCR");
  if ((1u << size) != cfg_.data_bytes) violate(std::string(ch) + " size not full width");
  uint64_t base = addr & ~uint64_t(cfg_.data_bytes - 1);
  if ((base & 0xFFF) + uint64_t(len + 1) * cfg_.data_bytes > 4096) violate(std::string(ch) + " burst crosses 4 KiB");
}

void PcieModel::drive(AxiPorts &p) {
  const unsigned B = cfg_.data_bytes;
  p.arready = rd_.size() < cfg_.max_rd_outstanding && coin();
  p.awready = aw_.size() + commits_.size() < cfg_.max_wr_outstanding && coin();
  p.wready = wq_.size() < cfg_.w_buffer && wr_credit_ > 0 && coin();
  if (r_cur_ < 0) pick_r();
  // hostile: a gap may come before any beat not yet shown (a shown beat stays until taken)
  p.rvalid = r_cur_ >= 0 && (r_shown_ || coin());
  if (r_cur_ >= 0 && !p.rvalid) stats.r_gaps++;
  if (p.rvalid) {
    r_shown_ = true;
    const RdReq &r = rd_[r_cur_];
    if (r.resp) std::fill(p.rdata.begin(), p.rdata.end(), 0);
    else mem_.read(r.addr + uint64_t(r.beat) * B, p.rdata.data(), B);
    p.rid = r.id;
    p.rresp = r.resp;
    p.rlast = r.beat == r.beats - 1;
  }
  if (!b_cur_ && !bq_.empty() && coin()) b_cur_ = true;
  p.bvalid = b_cur_;
  if (b_cur_) {
    p.bid = bq_.front().id;
    p.bresp = bq_.front().resp;
  }
}

// Chooses the read whose beat goes out next: reads whose data has arrived, the oldest per ID.
// Polite: the oldest such read, to its end. Hostile: a random one at every chunk boundary.
void PcieModel::pick_r() {
  if (rd_.empty() || rd_credit_ <= 0) return;
  const uint64_t now = now_ps();
  int pick = -1, n = 0;
  for (size_t i = 0; i < rd_.size(); i++) {
    const RdReq &r = rd_[i];
    if (r.ready_ps > now) continue;
    bool oldest = true;
    for (size_t j = 0; j < i && oldest; j++) oldest = rd_[j].id != r.id;
    if (!oldest) continue;
    if (!cfg_.hostile) {
      pick = int(i);
      break;
    }
    if (!chunk_start(r)) {
      pick = int(i);  // inside a chunk: finish it first
      break;
    }
    if (rng_() % ++n == 0) pick = int(i);  // reservoir choice among the eligible
  }
  if (pick < 0) return;
  if (chunk_start(rd_[pick]) && pick > 0) stats.ooo_chunks++;
  r_cur_ = pick;
}

void PcieModel::accept_ar(const AxiPorts &p) {
  const unsigned B = cfg_.data_bytes;
  check_burst("AR", p.araddr, p.arlen, p.arsize, p.arburst);
  RdReq r;
  r.id = p.arid;
  r.addr = p.araddr & ~uint64_t(B - 1);
  r.beats = p.arlen + 1;
  r.resp = err_for(r.addr, uint64_t(r.beats) * B, false);
  r.ready_ps = now_ps() + cfg_.rd_latency_ps + extra_ps();
  // completion chunks: max_payload pieces, or random sizes under hostile
  unsigned b = 0;
  while (b < r.beats) {
    unsigned bytes = cfg_.max_payload;
    if (cfg_.hostile) {
      unsigned lo = std::max(cfg_.chunk_min / B, 1u), hi = std::max(cfg_.chunk_max / B, lo);
      bytes = (lo + unsigned(rng_() % (hi - lo + 1))) * B;
    }
    b = std::min(r.beats, b + std::max(bytes / B, 1u));
    r.chunk_end.push_back(b);
  }
  stats.rd_reqs++;
  stats.rd_bytes += uint64_t(r.beats) * B;
  if (r.resp) stats.err_reads++;
  rd_.push_back(std::move(r));
  stats.max_rd_inflight = std::max<unsigned>(stats.max_rd_inflight, unsigned(rd_.size()));
}

void PcieModel::pair_w() {
  while (!aw_.empty() && !wq_.empty()) {
    const AwEnt &a = aw_.front();
    WBeat w = std::move(wq_.front());
    wq_.pop_front();
    bool last = wcur_.size() + 1 == a.beats;
    if (w.last != last) violate(last ? "WLAST missing" : "WLAST early");
    if (wcur_.empty()) wcur_.reserve(a.beats);  // one allocation per write, not one per doubling
    wcur_.push_back(std::move(w));
    if (!last) continue;
    Commit c{false, 0, a.id, a.resp, a.addr, std::move(wcur_), 0};
    c.at_ps = posted_at(now_ps() + cfg_.wr_latency_ps + extra_ps());
    wcur_.clear();
    commits_.push_back(std::move(c));
    aw_.pop_front();
  }
}

void PcieModel::post_msix(unsigned vector) {
  Commit c{true, vector, 0, 0, 0, {}, 0};
  c.at_ps = posted_at(now_ps() + cfg_.wr_latency_ps);
  commits_.push_back(std::move(c));
}

bool PcieModel::take_msix(unsigned *vector) {
  if (msix_out_.empty()) return false;
  *vector = msix_out_.front();
  msix_out_.pop_front();
  return true;
}

void PcieModel::retire_commits() {
  const unsigned B = cfg_.data_bytes;
  while (!commits_.empty() && commits_.front().at_ps <= now_ps()) {
    Commit &c = commits_.front();
    if (c.msix) {
      msix_out_.push_back(c.vector);
      stats.msix_msgs++;
    } else {
      if (!c.resp) {
        for (size_t i = 0; i < c.beats.size(); i++) {
          const WBeat &w = c.beats[i];
          uint64_t base = c.addr + i * B;
          const uint8_t *st = w.strb.data();
          for (unsigned k = 0; k < B;) {  // write runs of enabled bytes
            if (!st[k]) { k++; continue; }
            // the run's end is the next disabled byte: memchr instead of a byte loop, most beats
            // of a stream being one full run (docs/sim-speed.md, step 17)
            const void *z = std::memchr(st + k, 0, B - k);
            unsigned e = z ? unsigned(static_cast<const uint8_t *>(z) - st) : B;
            mem_.write(base + k, w.data.data() + k, e - k);
            k = e;
          }
        }
      }
      bq_.push_back({c.id, c.resp});
      for (WBeat &w : c.beats) spare_.push_back(std::move(w));
    }
    commits_.pop_front();
  }
}

void PcieModel::commit(const AxiPorts &p) {
  const unsigned B = cfg_.data_bytes;
  if (p.arvalid && p.arready) accept_ar(p);
  if (p.awvalid && p.awready) {
    check_burst("AW", p.awaddr, p.awlen, p.awsize, p.awburst);
    uint64_t a = p.awaddr & ~uint64_t(B - 1);
    uint32_t e = err_for(a, uint64_t(p.awlen + 1) * B, true);
    aw_.push_back({p.awid, a, p.awlen + 1, e});
    stats.wr_reqs++;
    stats.wr_bytes += uint64_t(p.awlen + 1) * B;
    if (e) stats.err_writes++;
  }
  if (p.wvalid && p.wready) {
    WBeat w;
    if (!spare_.empty()) {
      w = std::move(spare_.back());
      spare_.pop_back();
    }
    w.data.assign(p.wdata.begin(), p.wdata.end());
    w.strb.assign(p.wstrb.begin(), p.wstrb.end());
    w.last = p.wlast;
    wq_.push_back(std::move(w));
    stats.w_beats++;
    wr_credit_ -= B + (w_tlp_bytes_ == 0 ? cfg_.tlp_overhead : 0);
    w_tlp_bytes_ = p.wlast ? 0 : (w_tlp_bytes_ + B) % cfg_.max_payload;
  }
  pair_w();
  if (p.rvalid && p.rready) {
    r_shown_ = false;
    RdReq &r = rd_[r_cur_];
    bool first = chunk_start(r);
    if (first) stats.rd_chunks++;
    rd_credit_ -= B + (first ? cfg_.tlp_overhead : 0);
    stats.r_beats++;
    r.beat++;
    if (r.beat == r.chunk_end[r.chunk]) r.chunk++;
    if (r.beat == r.beats) {
      rd_.erase(rd_.begin() + r_cur_);
      r_cur_ = -1;
    } else if (cfg_.hostile && r.chunk > 0 && r.beat == r.chunk_end[r.chunk - 1]) {
      r_cur_ = -1;  // chunk done: choose again
    } else if (rd_credit_ <= 0) {
      r_cur_ = -1;
    }
  } else if (!p.rvalid && cfg_.hostile) {
    r_cur_ = -1;  // a gap: choose again next cycle (a started chunk is finished first)
  }
  if (p.bvalid && p.bready) {
    bq_.pop_front();
    b_cur_ = false;
  }
  cycle_++;
  retire_commits();
  rd_credit_ = std::min(credit_cap_, rd_credit_ + credit_per_cycle_);
  wr_credit_ = std::min(credit_cap_, wr_credit_ + credit_per_cycle_);
}
