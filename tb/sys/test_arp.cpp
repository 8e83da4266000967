// ARP at the system level (issue 14, deliverable 5): one NIC with its firmware, set up through
// the driver core (SET_GID 10.0.0.1 / 02:00:00:00:00:01), frames handed straight to its receive
// port as the MAC would, its transmit port collected (no link: frames go to tx_frames_out).
// Checks: an ARP request for our address is answered byte for byte and counted (rx_fw_frames,
// tx_fw_frames; roce_rx still counts it as rx_drop_eth); a request for another address is taken
// from the queue and not answered; a frame that is neither RoCEv2 nor ARP is dropped and
// counted (rx_drop_eth) without reaching the firmware's queue; a burst larger than the queue is
// answered as far as the queue holds it, the rest counted in rx_fw_drop_full.
#include <systemc.h>

#include <cstring>
#include <string>
#include <vector>

#include "host/pcie_model.h"
#include "main/sim_program.h"
#include "sys/rdma_port.h"
#include "tb_check.h"

namespace {

using Frame = std::vector<uint8_t>;

const uint8_t kPeerMac[6] = {0x52, 0x54, 0x00, 0x12, 0x34, 0x56};

// Who has tip? asks sip (the peer), padded to 60 bytes (no FCS on the MAC's stream).
Frame arp_request(uint32_t sip, uint32_t tip) {
  Frame f(60, 0);
  std::memset(f.data(), 0xFF, 6);
  std::memcpy(f.data() + 6, kPeerMac, 6);
  const uint8_t hdr[8] = {0x08, 0x06, 0x00, 0x01, 0x08, 0x00, 6, 4};
  std::memcpy(f.data() + 12, hdr, 8);
  f[21] = 1;
  std::memcpy(f.data() + 22, kPeerMac, 6);
  for (int i = 0; i < 4; i++) f[28 + i] = uint8_t(sip >> (24 - 8 * i)), f[38 + i] = uint8_t(tip >> (24 - 8 * i));
  return f;
}

struct Arp : sc_module {
  SC_HAS_PROCESS(Arp);
  Arp(sc_module_name n, RdmaPort *a) : sc_module(n), a(a) { SC_THREAD(run); }
  RdmaPort *a;
  TbResults r;

  uint32_t cnt(uint32_t i) { return rnic_rd32(&a->os, RNIC_COUNTER_BASE + 4 * i); }
  // Frames the NIC sent within us microseconds (taken out of the queue).
  std::vector<Frame> sent(unsigned us) {
    wait(sc_time(us, SC_US));
    std::vector<Frame> v(a->nic->tx_frames_out().begin(), a->nic->tx_frames_out().end());
    a->nic->tx_frames_out().clear();
    return v;
  }

  void run() {
    bool ok = a->open_port();
    r.check(ok, "arp-open", "%s", a->err.c_str());
    if (!ok) {
      sc_stop();
      return;
    }
    // The answer to arp_request(10.0.0.2, 10.0.0.1), written out field by field.
    const Frame want = {0x52, 0x54, 0x00, 0x12, 0x34, 0x56, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06,
                        0x00, 0x01, 0x08, 0x00, 0x06, 0x04, 0x00, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01,
                        10,   0,    0,    1,    0x52, 0x54, 0x00, 0x12, 0x34, 0x56, 10,   0,    0,    2,
                        0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
                        0,    0,    0,    0};
    sent(1);
    uint32_t q0 = cnt(RNIC_CNT_RX_FW_FRAMES), t0 = cnt(RNIC_CNT_TX_FW_FRAMES), e0 = cnt(RNIC_CNT_RX_DROP_ETH);
    uint32_t rx0 = cnt(RNIC_CNT_RX_FRAMES), tf0 = cnt(RNIC_CNT_TX_FRAMES);

    a->nic->rx_frame(arp_request(0x0A000002, 0x0A000001));
    sc_time t_in = sc_time_stamp();
    std::vector<Frame> out;
    for (int i = 0; i < 100 && out.empty(); i++) out = sent(1);
    double us = (sc_time_stamp() - t_in).to_seconds() * 1e6;
    r.check(out.size() == 1 && out[0] == want, "arp-reply-byte-for-byte", "%zu frames, first %zu bytes",
            out.size(), out.empty() ? size_t(0) : out[0].size());
    std::printf("INFO ARP reply within %.0f us of the request\n", us);
    r.check(cnt(RNIC_CNT_RX_FW_FRAMES) == q0 + 1 && cnt(RNIC_CNT_TX_FW_FRAMES) == t0 + 1 &&
                cnt(RNIC_CNT_RX_DROP_ETH) == e0 + 1 && cnt(RNIC_CNT_RX_FRAMES) == rx0 + 1 &&
                cnt(RNIC_CNT_TX_FRAMES) == tf0,
            "arp-reply-counters", "rx_fw %u tx_fw %u drop_eth %u rx %u tx %u", cnt(RNIC_CNT_RX_FW_FRAMES) - q0,
            cnt(RNIC_CNT_TX_FW_FRAMES) - t0, cnt(RNIC_CNT_RX_DROP_ETH) - e0, cnt(RNIC_CNT_RX_FRAMES) - rx0,
            cnt(RNIC_CNT_TX_FRAMES) - tf0);

    // For 10.0.0.9: queued, read, not answered.
    a->nic->rx_frame(arp_request(0x0A000002, 0x0A000009));
    out = sent(100);
    r.check(out.empty() && cnt(RNIC_CNT_RX_FW_FRAMES) == q0 + 2 && cnt(RNIC_CNT_TX_FW_FRAMES) == t0 + 1 &&
                (rnic_rd32(&a->os, RNIC_REG_CPU_HEARTBEAT) != 0),
            "arp-other-ip-ignored", "%zu frames sent", out.size());

    // IPv6 (neither RoCEv2 nor ARP): dropped by the parser, never queued.
    Frame v6 = arp_request(0x0A000002, 0x0A000001);
    v6[12] = 0x86, v6[13] = 0xDD;
    uint32_t e1 = cnt(RNIC_CNT_RX_DROP_ETH);
    a->nic->rx_frame(v6);
    out = sent(100);
    r.check(out.empty() && cnt(RNIC_CNT_RX_DROP_ETH) == e1 + 1 && cnt(RNIC_CNT_RX_FW_FRAMES) == q0 + 2,
            "arp-non-arp-non-roce-dropped", "%zu frames sent, drop_eth +%u rx_fw +%u", out.size(),
            cnt(RNIC_CNT_RX_DROP_ETH) - e1, cnt(RNIC_CNT_RX_FW_FRAMES) - q0);

    // A burst of 12 requests back to back: the queue holds RNIC_FW_ETH_RX_SLOTS while the
    // firmware serves them; every one is answered or counted as dropped.
    uint32_t q1 = cnt(RNIC_CNT_RX_FW_FRAMES), full1 = cnt(RNIC_CNT_RX_FW_DROP_FULL), t1 = cnt(RNIC_CNT_TX_FW_FRAMES);
    for (int i = 0; i < 12; i++) a->nic->rx_frame(arp_request(0x0A000002, 0x0A000001));
    out = sent(300);
    uint32_t queued = cnt(RNIC_CNT_RX_FW_FRAMES) - q1, full = cnt(RNIC_CNT_RX_FW_DROP_FULL) - full1;
    bool all_want = true;
    for (auto &f : out) all_want = all_want && f == want;
    r.check(queued + full == 12 && full > 0 && queued >= RNIC_FW_ETH_RX_SLOTS && out.size() == queued && all_want &&
                cnt(RNIC_CNT_TX_FW_FRAMES) - t1 == queued,
            "arp-burst-queue-full-counted", "queued %u dropped %u replies %zu (byte-exact %d)", queued, full,
            out.size(), int(all_want));
    std::printf("INFO burst of 12: %u queued and answered, %u dropped (queue full)\n", queued, full);
    sc_stop();
  }
};

int arp_main(int, char **) {
  HostMem ma;
  PcieModel pa(ma);
  RnicNode na("nic0");
  na.attach_pcie(&pa);
  RdmaPort a(&na, &ma, 0x0A000001u, 1);
  Arp t("arp", &a);
  sc_start();
  return t.r.exit_code();
}

SimProgram reg("test-arp", "one NIC: ARP requests answered by the firmware byte for byte, others ignored or dropped",
               arp_main);
}  // namespace
