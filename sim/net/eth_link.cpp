#include "net/eth_link.h"

#include <algorithm>
#include <cmath>

EthLink::EthLink(sc_module_name name, RnicNode *a, RnicNode *b, const EthLinkCfg &cfg)
    : sc_module(name), cfg_(cfg) {
  fifo_ps_ = ser_ps(cfg_.tx_fifo_bytes);
  RnicNode *nodes[2] = {a, b};
  for (int s = 0; s < 2; s++) {
    port_[s].link = this;
    port_[s].side = s;
    if (nodes[s]) nodes[s]->attach_eth(&port_[s]);
    dir_[s].dst = nodes[1 - s];
    // independent streams per direction, both derived from the one seed
    dir_[s].rng.seed(cfg_.seed * 0x9E3779B97F4A7C15ull + uint64_t(s) * 0xD1B54A32D192ED03ull + 1);
  }
  if (!cfg_.pcap_path.empty()) {
    pcap_ = std::fopen(cfg_.pcap_path.c_str(), "wb");
    if (pcap_) {
      const uint32_t hdr[6] = {0xA1B23C4Du, 0x00040002u, 0, 0, 65535, 1};  // ns magic, v2.4, Ethernet
      std::fwrite(hdr, 4, 6, pcap_);
    }
  }
  SC_THREAD(deliver0);
  SC_THREAD(deliver1);
  SC_THREAD(wire0);
  SC_THREAD(wire1);
}

EthLink::~EthLink() {
  if (pcap_) {
    pcap_drain(UINT64_MAX);
    std::fclose(pcap_);
  }
}

void EthLink::flush_pcap() {
  if (!pcap_) return;
  pcap_drain(UINT64_MAX);
  std::fflush(pcap_);
}

void EthLink::pcap_queue(uint64_t t_ps, const std::vector<uint8_t> &f) {
  if (pcap_) pcap_pending_.emplace(std::make_pair(t_ps, pcap_seq_++), f);
}

void EthLink::pcap_drain(uint64_t up_to_ps) {
  while (!pcap_pending_.empty() && pcap_pending_.begin()->first.first <= up_to_ps) {
    pcap_record(pcap_pending_.begin()->first.first, pcap_pending_.begin()->second);
    pcap_pending_.erase(pcap_pending_.begin());
  }
}

// Called several times per NIC cycle: the divisor (what sc_time / sc_time divides by) is
// computed once instead of building an sc_time each call; same arithmetic, same result. At
// SystemC's default resolution (1 ps, the simulator's) the divisor is 1 and the time stamp's
// integer value is already the result (exact below 2^53 ps, ~2.5 hours of simulated time), so
// the conversion to double and the rounding are skipped.
uint64_t EthLink::now_ps() {
  static const double ps = sc_time(1, SC_PS).to_double();
  static const bool ps_resolution = sc_time(1, SC_PS).value() == 1;
  if (ps_resolution) return sc_time_stamp().value();
  return uint64_t(std::llround(sc_time_stamp().to_double() / ps));
}

uint64_t EthLink::ser_ps(size_t bytes) const { return uint64_t(std::llround(double(bytes) * 8000.0 / cfg_.gbps)); }

uint64_t EthLink::slot_ps(size_t len) const { return ser_ps(8 + std::max<size_t>(len, 60) + 4 + 12); }

// tx_ready and tx_paused at a given time (tx_state reads the time once for both)
bool EthLink::dir_ready(const Dir &d, uint64_t now, uint64_t fifo_ps) {
  uint64_t backlog = (d.wire_free_ps > now ? d.wire_free_ps - now : 0) + d.txq_ps;
  return backlog < fifo_ps;
}

uint8_t EthLink::dir_paused(const Dir &d, uint64_t now) {
  if (d.paused_until_ps > now) return 0xFF;
  if (d.pfc_last_ps <= now) return 0;  // the common case (no PFC frame holds a priority): no loop
  uint8_t m = 0;
  for (int p = 0; p < 8; p++) m |= uint8_t((d.pfc_until_ps[p] > now) << p);
  return m;
}

bool EthLink::tx_ready(int side) const { return dir_ready(dir_[side], now_ps(), fifo_ps_); }

uint8_t EthLink::tx_paused(int side) const { return dir_paused(dir_[side], now_ps()); }

void EthLink::tx_state(int side, bool *ready, uint8_t *paused) const {
  uint64_t now = now_ps();
  *ready = dir_ready(dir_[side], now, fifo_ps_);
  *paused = dir_paused(dir_[side], now);
}

void EthLink::force_pfc(int side, uint8_t mask) {
  Dir &d = dir_[side];
  d.pfc_forced = mask;
  if (pfc_want(d) != d.pfc_sent) d.pfc_out = true, d.wire_kick.notify(SC_ZERO_TIME);
}

uint64_t EthLink::paused_ps(int dir) const {
  const Dir &d = dir_[dir];
  uint64_t now = now_ps();
  return d.st.paused_ps + (d.paused_until_ps > d.pause_since_ps ? std::min(now, d.paused_until_ps) - d.pause_since_ps : 0);
}

std::string EthLink::pause_info() const {
  if (!cfg_.flow_control) return "flow control off";
  char b[200];
  std::snprintf(b, sizeof b, "dir 0: %llu XOFF %llu XON, paused %.2f us; dir 1: %llu XOFF %llu XON, paused %.2f us",
                (unsigned long long)dir_[0].st.xoff_frames, (unsigned long long)dir_[0].st.xon_frames, paused_ps(0) / 1e6,
                (unsigned long long)dir_[1].st.xoff_frames, (unsigned long long)dir_[1].st.xon_frames, paused_ps(1) / 1e6);
  std::string r = b;
  if (dir_[0].st.pfc_frames || dir_[1].st.pfc_frames)
    r += "; PFC frames: dir 0 " + std::to_string(dir_[0].st.pfc_frames) + ", dir 1 " + std::to_string(dir_[1].st.pfc_frames);
  return r;
}

void EthLink::rx_pause(int side, bool xoff) {
  Dir &d = dir_[side];  // the PAUSE frame leaves from this side
  if (!cfg_.flow_control || xoff == d.xoff_req) return;
  d.xoff_req = xoff;
  if (cfg_.pfc_classes) {  // PFC for the configured priorities instead of a PAUSE
    if (pfc_want(d) != d.pfc_sent) d.pfc_out = true, d.wire_kick.notify(SC_ZERO_TIME);
    return;
  }
  d.pause_out = xoff ? int(cfg_.pause_quanta) : 0;
  d.wire_kick.notify(SC_ZERO_TIME);
}

void EthLink::pcap_record(uint64_t t_ps, const std::vector<uint8_t> &f) {
  if (!pcap_) return;
  uint64_t ns = t_ps / 1000;
  uint32_t rec[4] = {uint32_t(ns / 1000000000ull), uint32_t(ns % 1000000000ull), uint32_t(f.size()),
                     uint32_t(f.size())};
  std::fwrite(rec, 4, 4, pcap_);
  std::fwrite(f.data(), 1, f.size(), pcap_);
}

void EthLink::schedule(Dir &d, uint64_t at_ps, std::vector<uint8_t> f, bool ctrl) {
  d.pending.emplace(std::make_pair(at_ps, d.seq++), Pending{std::move(f), ctrl});
  d.kick.notify(SC_ZERO_TIME);
}

void EthLink::send(int side, std::vector<uint8_t> frame) {
  Dir &d = dir_[side];
  const EthFaults &fl = cfg_.faults[side];
  d.st.tx_frames++;
  d.st.tx_bytes += frame.size();
  if (frame.size() >= 12) std::copy(frame.begin() + 6, frame.begin() + 12, d.src_mac);
  std::uniform_real_distribution<double> u(0, 1);
  double u_loss = u(d.rng), u_reo = u(d.rng), u_dup = u(d.rng), u_cor = u(d.rng);
  uint64_t cpos = d.rng();
  TxItem it;
  it.lost = u_loss < fl.loss || (lose_if && lose_if(side, frame));
  it.dup = !it.lost && u_dup < fl.dup;
  it.corrupt = !it.lost && u_cor < fl.corrupt && !frame.empty();
  it.reorder = u_reo < fl.reorder;
  it.cpos = cpos;
  d.txq_ps += slot_ps(frame.size()) * (it.dup ? 2 : 1);
  it.f = std::move(frame);
  d.txq.push_back(std::move(it));
  d.wire_kick.notify(SC_ZERO_TIME);
}

// Puts the first frame of the TX FIFO on the free wire (the fault draws were made in send()).
void EthLink::start_frame(Dir &d, TxItem &&it, uint64_t now) {
  const EthFaults &fl = cfg_.faults[&d - dir_];
  std::vector<uint8_t> &frame = it.f;
  std::vector<Copy> copies;
  pcap_drain(now);
  for (int k = 0; k < (it.dup ? 2 : 1); k++) {
    uint64_t start = std::max(now, d.wire_free_ps);
    d.wire_free_ps = start + slot_ps(frame.size());
    d.st.wire_frames++;
    if (cfg_.pcap_side == EthLinkCfg::Sender) pcap_queue(start + ser_ps(8), frame);
    copies.push_back({start + ser_ps(8 + std::max<size_t>(frame.size(), 60) + 4) + cfg_.prop_delay_ps, frame});
  }
  if (it.lost) {
    d.st.lost++;
    return;
  }
  if (it.dup) d.st.duplicated++;
  if (it.corrupt) {
    size_t bit = size_t(it.cpos % (frame.size() * 8));
    copies[0].f[bit / 8] ^= uint8_t(1u << (bit % 8));
    d.st.corrupted++;
  }
  if (d.held) {  // this frame overtakes the held one, which follows right behind it
    uint64_t t = copies.back().at_ps;
    for (auto &c : copies) schedule(d, c.at_ps, std::move(c.f));
    for (auto &c : d.held_copies) schedule(d, t, std::move(c.f));
    d.held_copies.clear();
    d.held = false;
    return;
  }
  if (it.reorder) {
    d.st.reordered++;
    d.held = true;
    d.held_deadline_ps = copies.back().at_ps + fl.reorder_timeout_ps;
    d.held_copies = std::move(copies);
    d.kick.notify(SC_ZERO_TIME);
    return;
  }
  for (auto &c : copies) schedule(d, c.at_ps, std::move(c.f));
}

void EthLink::start_pause(Dir &d, unsigned quanta, uint64_t now) {
  std::vector<uint8_t> f(60, 0);
  static const uint8_t dst[6] = {0x01, 0x80, 0xC2, 0x00, 0x00, 0x01};
  std::copy(dst, dst + 6, f.begin());
  std::copy(d.src_mac, d.src_mac + 6, f.begin() + 6);
  f[12] = 0x88, f[13] = 0x08, f[14] = 0x00, f[15] = 0x01;
  f[16] = uint8_t(quanta >> 8), f[17] = uint8_t(quanta);
  pcap_drain(now);
  d.wire_free_ps = now + slot_ps(f.size());
  if (cfg_.pcap_side == EthLinkCfg::Sender) pcap_queue(now + ser_ps(8), f);
  if (quanta) d.st.xoff_frames++;
  else d.st.xon_frames++;
  schedule(d, now + ser_ps(8 + 60 + 4) + cfg_.prop_delay_ps, std::move(f), true);
}

// A PFC frame (802.1Qbb): class-enable vector = the priorities paused now and those it releases,
// quanta pause_quanta for the first, 0 for the others.
void EthLink::start_pfc(Dir &d, uint64_t now) {
  uint8_t want = pfc_want(d), en = uint8_t(want | (d.pfc_sent & ~want));
  std::vector<uint8_t> f(60, 0);
  static const uint8_t dst[6] = {0x01, 0x80, 0xC2, 0x00, 0x00, 0x01};
  std::copy(dst, dst + 6, f.begin());
  std::copy(d.src_mac, d.src_mac + 6, f.begin() + 6);
  f[12] = 0x88, f[13] = 0x08, f[14] = 0x01, f[15] = 0x01, f[16] = 0, f[17] = en;
  for (int p = 0; p < 8; p++) {
    unsigned q = want >> p & 1 ? cfg_.pause_quanta : 0;
    f[18 + 2 * p] = uint8_t(q >> 8), f[19 + 2 * p] = uint8_t(q);
  }
  d.pfc_sent = want;
  pcap_drain(now);
  d.wire_free_ps = now + slot_ps(f.size());
  if (cfg_.pcap_side == EthLinkCfg::Sender) pcap_queue(now + ser_ps(8), f);
  d.st.pfc_frames++;
  schedule(d, now + ser_ps(8 + 60 + 4) + cfg_.prop_delay_ps, std::move(f), true);
}

// A PFC frame that travelled in direction dir reached the far MAC: per enabled priority, that
// side's transmitter status for the frame's quanta (0 releases it).
void EthLink::pfc_arrived(int dir, const std::vector<uint8_t> &f, uint64_t now) {
  Dir &t = dir_[1 - dir];
  uint8_t en = f[17], paused = 0;
  for (int p = 0; p < 8; p++) {
    if (!(en >> p & 1)) continue;
    unsigned q = unsigned(f[18 + 2 * p]) << 8 | f[19 + 2 * p];
    t.pfc_until_ps[p] = now + uint64_t(q) * ser_ps(64);
  }
  t.pfc_last_ps = *std::max_element(t.pfc_until_ps, t.pfc_until_ps + 8);
  for (int p = 0; p < 8; p++) paused |= uint8_t((t.pfc_until_ps[p] > now) << p);
  if (on_pfc) on_pfc(dir, paused, now);
}

// A PAUSE frame that travelled in direction dir reached the far MAC: it holds that side's
// transmitter (direction 1 - dir).
void EthLink::pause_arrived(int dir, unsigned quanta, uint64_t now) {
  Dir &t = dir_[1 - dir];
  if (t.paused_until_ps > t.pause_since_ps) t.st.paused_ps += std::min(now, t.paused_until_ps) - t.pause_since_ps;
  t.pause_since_ps = now;
  t.paused_until_ps = now + uint64_t(quanta) * ser_ps(64);
  t.wire_kick.notify(SC_ZERO_TIME);
  if (on_pause) on_pause(dir, quanta, now);
}

// A side's MAC transmitter: a pending PAUSE frame first (even while paused itself), then the
// TX FIFO in order while not paused; one frame at a time on the wire.
void EthLink::wire_thread(int di) {
  Dir &d = dir_[di];
  const uint64_t refresh_ps = uint64_t(cfg_.pause_quanta) * ser_ps(64) / 2;
  for (;;) {
    uint64_t now = now_ps();
    if (d.wire_free_ps > now) {
      wait(sc_time(double(d.wire_free_ps - now), SC_PS));
      continue;
    }
    if (d.xoff_req && !cfg_.pfc_classes && d.pause_out < 0 && now >= d.xoff_refresh_ps) d.pause_out = int(cfg_.pause_quanta);
    if (pfc_want(d) && !d.pfc_out && now >= d.pfc_refresh_ps) d.pfc_out = true;  // refresh
    if (d.pfc_out) {
      d.pfc_out = false;
      if (pfc_want(d)) d.pfc_refresh_ps = now + refresh_ps;
      start_pfc(d, now);
      continue;
    }
    if (d.pause_out >= 0) {
      unsigned q = unsigned(d.pause_out);
      d.pause_out = -1;
      if (q) d.xoff_refresh_ps = now + refresh_ps;
      start_pause(d, q, now);
      continue;
    }
    uint64_t next = d.xoff_req && !cfg_.pfc_classes ? d.xoff_refresh_ps : UINT64_MAX;
    if (pfc_want(d)) next = std::min(next, d.pfc_refresh_ps);
    if (!d.txq.empty() && d.paused_until_ps <= now) {
      TxItem it = std::move(d.txq.front());
      d.txq.pop_front();
      d.txq_ps -= slot_ps(it.f.size()) * (it.dup ? 2 : 1);
      start_frame(d, std::move(it), now);
      continue;
    }
    if (!d.txq.empty()) next = std::min(next, d.paused_until_ps);
    if (next == UINT64_MAX) wait(d.wire_kick);
    else wait(sc_time(double(next - now), SC_PS), d.wire_kick);
  }
}

void EthLink::deliver_thread(int di) {
  Dir &d = dir_[di];
  for (;;) {
    uint64_t next = UINT64_MAX;
    if (!d.pending.empty()) next = d.pending.begin()->first.first;
    if (d.held) next = std::min(next, d.held_deadline_ps);
    if (next == UINT64_MAX) {
      wait(d.kick);
      continue;
    }
    uint64_t now = now_ps();
    if (next > now) {
      wait(sc_time(double(next - now), SC_PS), d.kick);
      continue;
    }
    if (d.held && d.held_deadline_ps <= now) {  // nobody overtook it in time: release it
      for (auto &c : d.held_copies) schedule(d, now, std::move(c.f));
      d.held_copies.clear();
      d.held = false;
      continue;
    }
    auto it = d.pending.begin();
    Pending p = std::move(it->second);
    d.pending.erase(it);
    pcap_drain(now);
    if (cfg_.pcap_side == EthLinkCfg::Receiver) pcap_record(now, p.f);
    if (p.ctrl && p.f[14] == 0x01) {  // opcode 0x0101: PFC
      pfc_arrived(di, p.f, now);
      continue;
    }
    if (p.ctrl) {
      pause_arrived(di, unsigned(p.f[16]) << 8 | p.f[17], now);
      continue;
    }
    d.st.delivered++;
    d.st.delivered_bytes += p.f.size();
    if (on_deliver) on_deliver(di, p.f, now);
    if (d.dst) d.dst->rx_frame(p.f);
  }
}
