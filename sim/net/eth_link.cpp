#include "net/eth_link.h"

#include <algorithm>
#include <cmath>

EthLink::EthLink(sc_module_name name, RnicNode *a, RnicNode *b, const EthLinkCfg &cfg)
    : sc_module(name), cfg_(cfg) {
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

uint64_t EthLink::now_ps() { return uint64_t(std::llround(sc_time_stamp() / sc_time(1, SC_PS))); }

uint64_t EthLink::ser_ps(size_t bytes) const { return uint64_t(std::llround(double(bytes) * 8000.0 / cfg_.gbps)); }

uint64_t EthLink::slot_ps(size_t len) const { return ser_ps(8 + std::max<size_t>(len, 60) + 4 + 12); }

bool EthLink::tx_ready(int side) const {
  const Dir &d = dir_[side];
  uint64_t now = now_ps();
  return d.wire_free_ps <= now || d.wire_free_ps - now < ser_ps(cfg_.tx_fifo_bytes);
}

void EthLink::pcap_record(uint64_t t_ps, const std::vector<uint8_t> &f) {
  if (!pcap_) return;
  uint64_t ns = t_ps / 1000;
  uint32_t rec[4] = {uint32_t(ns / 1000000000ull), uint32_t(ns % 1000000000ull), uint32_t(f.size()),
                     uint32_t(f.size())};
  std::fwrite(rec, 4, 4, pcap_);
  std::fwrite(f.data(), 1, f.size(), pcap_);
}

void EthLink::schedule(Dir &d, uint64_t at_ps, std::vector<uint8_t> f) {
  d.pending.emplace(std::make_pair(at_ps, d.seq++), std::move(f));
  d.kick.notify(SC_ZERO_TIME);
}

void EthLink::send(int side, std::vector<uint8_t> frame) {
  Dir &d = dir_[side];
  const EthFaults &fl = cfg_.faults[side];
  d.st.tx_frames++;
  d.st.tx_bytes += frame.size();
  std::uniform_real_distribution<double> u(0, 1);
  double u_loss = u(d.rng), u_reo = u(d.rng), u_dup = u(d.rng), u_cor = u(d.rng);
  uint64_t cpos = d.rng();
  bool lost = u_loss < fl.loss, dup = !lost && u_dup < fl.dup;
  bool corrupt = !lost && u_cor < fl.corrupt && !frame.empty();
  std::vector<Copy> copies;
  uint64_t now = now_ps();
  pcap_drain(now);
  for (int k = 0; k < (dup ? 2 : 1); k++) {
    uint64_t start = std::max(now, d.wire_free_ps);
    d.wire_free_ps = start + slot_ps(frame.size());
    d.st.wire_frames++;
    if (cfg_.pcap_side == EthLinkCfg::Sender) pcap_queue(start + ser_ps(8), frame);
    copies.push_back({start + ser_ps(8 + std::max<size_t>(frame.size(), 60) + 4) + cfg_.prop_delay_ps, frame});
  }
  if (lost) {
    d.st.lost++;
    return;
  }
  if (dup) d.st.duplicated++;
  if (corrupt) {
    size_t bit = size_t(cpos % (frame.size() * 8));
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
  if (u_reo < fl.reorder) {
    d.st.reordered++;
    d.held = true;
    d.held_deadline_ps = copies.back().at_ps + fl.reorder_timeout_ps;
    d.held_copies = std::move(copies);
    d.kick.notify(SC_ZERO_TIME);
    return;
  }
  for (auto &c : copies) schedule(d, c.at_ps, std::move(c.f));
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
    std::vector<uint8_t> f = std::move(it->second);
    d.pending.erase(it);
    d.st.delivered++;
    d.st.delivered_bytes += f.size();
    pcap_drain(now);
    if (cfg_.pcap_side == EthLinkCfg::Receiver) pcap_record(now, f);
    if (on_deliver) on_deliver(di, f, now);
    if (d.dst) d.dst->rx_frame(f);
  }
}
