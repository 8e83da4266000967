// Line-rate bursts of small frames against a NIC that pauses its peer (docs/decisions/link-pause.md,
// "Headroom"). A peer's MAC that has a queue of frames sends them back to back; the interop
// bridge does exactly that with what the guest queued (sim/net/eth_ext.cpp). Here the burst is
// N valid RoCEv2 UD SENDs handed to the far side of the link at once; the link honours nic0's
// PAUSE after its wire delays, so whatever arrives after XOFF must fit the receive buffer's
// headroom, in bytes and in headers. The checks: no frame dropped for want of room
// (rx_drop_trunc 0) and no other drop counter moved; every datagram either completed a posted
// receive (status, opcode, length, source QP, GRH flag, its payload byte for byte, each tag once)
// or was counted rx_drop_ud (no receive buffer staged: UD has no RNR); nic0 raised XOFF, so the
// burst did reach the watermark and the check could fail.
#include <systemc.h>

#include <cstring>
#include <string>
#include <vector>

#include "host/pcie_model.h"
#include "main/sim_program.h"
#include "net/eth_link.h"
#include "roce/ref/roce_ref.h"
#include "sys/rdma_qp.h"
#include "sys/two_nics.h"
#include "tb_check.h"

namespace {

using Frame = std::vector<uint8_t>;

constexpr uint32_t kQkey = 0x5A5A0001, kSrcQp = 0x77;
constexpr uint32_t kRecvStride = 2048;  // a receive buffer: the 40-byte GRH area, then the payload

// Counters that drop a frame; none may move in these bursts except rx_drop_ud.
const uint32_t kOtherDrops[] = {RNIC_CNT_RX_DROP_ETH, RNIC_CNT_RX_DROP_IPV4_HDR, RNIC_CNT_RX_DROP_IPV4_CSUM,
                                RNIC_CNT_RX_DROP_UDP, RNIC_CNT_RX_DROP_BTH,       RNIC_CNT_RX_DROP_QPN,
                                RNIC_CNT_RX_DROP_ICRC, RNIC_CNT_RX_DROP_TRUNC,    RNIC_CNT_RX_DROP_BAD_QP,
                                RNIC_CNT_RX_DROP_UNSUP};
const char *kOtherNames[] = {"eth", "ipv4-hdr", "ipv4-csum", "udp", "bth", "qpn", "icrc", "trunc", "bad-qp", "unsup"};
constexpr size_t kNumOther = sizeof(kOtherDrops) / sizeof(kOtherDrops[0]);

struct Burst : sc_module {
  SC_HAS_PROCESS(Burst);
  Burst(sc_module_name n, TwoNics<RdmaPort> *s, uint64_t seed) : sc_module(n), s(s), rng(seed * 0x9E3779B97F4A7C15ull + 3) {
    SC_THREAD(run);
  }
  TwoNics<RdmaPort> *s;
  uint64_t rng;
  TbResults r;
  RdmaQp y;  // the UD QP on nic0
  uint64_t rbuf = 0;
  uint32_t rkey = 0;
  unsigned posted = 0, slot = 0;

  uint64_t next() {
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
  }
  uint32_t cnt(uint32_t i) { return rnic_rd32(&s->a.os, RNIC_COUNTER_BASE + 4 * i); }

  // Keeps the RQ full (as the guest's program does); wr_id = the buffer's address.
  void refill() {
    const unsigned depth = 1u << RdmaQp::kRqLog;
    while (posted < depth) {
      uint64_t at = rbuf + uint64_t(slot++ % (2 * depth)) * kRecvStride;
      s->a.mem->fill(at, 0xEE, kRecvStride);
      rnicp_sge sg{at, kRecvStride, rkey};
      rnicp_recv_wr w{at, &sg, 1};
      if (y.post_recv(w) != 0) break;
      posted++;
    }
  }

  // One burst of n datagrams of len payload bytes; name is the checks' prefix.
  void burst(const std::string &name, unsigned n, uint32_t len) {
    refill();
    wait(sc_time(20, SC_US));  // the receives are staged in the engine before the burst
    uint32_t c_other[kNumOther], rx0 = cnt(RNIC_CNT_RX_FRAMES), ud0 = cnt(RNIC_CNT_RX_DROP_UD),
             xoff0 = cnt(RNIC_CNT_RX_PAUSE_XOFF), brk0 = cnt(RNIC_CNT_RX_PAUSE_BREAKS);
    for (size_t i = 0; i < kNumOther; i++) c_other[i] = cnt(kOtherDrops[i]);
    std::vector<std::vector<uint8_t>> pays(n);
    size_t frame_bytes = 0;
    for (unsigned i = 0; i < n; i++) {
      roce_ref::Hdr h;
      for (int k = 0; k < 6; k++) h.dst_mac = h.dst_mac << 8 | s->a.mac[k], h.src_mac = h.src_mac << 8 | s->b.mac[k];
      h.src_ip = s->b.ipv4, h.dst_ip = s->a.ipv4, h.ttl = 64, h.ip_id = uint16_t(i);
      h.udp_sport = uint16_t(0xC000 | (next() & 0x3FFF));
      h.opcode = 0x64, h.pkey = 0xFFFF, h.dest_qp = y.qpn, h.psn = i, h.qkey = kQkey, h.src_qp = kSrcQp;
      pays[i].resize(len);
      for (uint32_t b = 0; b < len; b++) pays[i][b] = uint8_t(next());
      for (int b = 0; b < 4 && b < int(len); b++) pays[i][b] = uint8_t(i >> (8 * b));  // the tag
      Frame f = roce_ref::build(h, pays[i]);
      frame_bytes = f.size();
      s->link.send(1, std::move(f));
    }
    // Completions as they come, the RQ refilled; done when the port is quiet and no CQE came for 200 us.
    std::vector<int> seen(n, 0);
    unsigned got = 0, bad = 0, dup = 0;
    std::string first_bad;
    sc_time quiet = sc_time_stamp();
    for (int t = 0; t < 20000; t++) {
      rnicp_wc wc[16];
      int k = y.poll_now(wc, 16);
      for (int i = 0; i < k; i++) {
        posted--;
        const rnicp_wc &w = wc[i];
        std::vector<uint8_t> d = s->a.mem->read_vec(w.wr_id + 40, len);
        uint32_t tag = 0;
        for (int b = 0; b < 4 && b < int(len); b++) tag |= uint32_t(d[b]) << (8 * b);
        bool ok = w.status == 0 && w.opcode == RNIC_WC_OPCODE_RECV && w.byte_len == len + 40 && w.src_qp == kSrcQp &&
                  (w.flags & (1u << RNIC_CQE_FLAG_GRH)) && tag < n && d == pays[tag];
        if (ok && len >= 4 && seen[tag]++) dup++;  // a payload shorter than the tag is counted only
        if (!ok && !bad++)
          first_bad = "status " + std::to_string(w.status) + " opcode " + std::to_string(w.opcode) + " len " +
                      std::to_string(w.byte_len) + " src_qp " + std::to_string(w.src_qp) + " tag " + std::to_string(tag);
        got += ok;
      }
      if (k) refill(), quiet = sc_time_stamp();
      if (!s->a.nic->rx_queued() && s->pa.idle() && sc_time_stamp() - quiet > sc_time(200, SC_US)) break;
      wait(sc_time(1, SC_US));
    }
    uint32_t rx = cnt(RNIC_CNT_RX_FRAMES) - rx0, ud = cnt(RNIC_CNT_RX_DROP_UD) - ud0,
             xoff = cnt(RNIC_CNT_RX_PAUSE_XOFF) - xoff0, brk = cnt(RNIC_CNT_RX_PAUSE_BREAKS) - brk0;
    std::string other;
    for (size_t i = 0; i < kNumOther; i++)
      if (uint32_t d = cnt(kOtherDrops[i]) - c_other[i]) other += std::string(" ") + kOtherNames[i] + " " + std::to_string(d);
    std::printf("INFO %s: %u frames of %zu bytes: received %u, rx_drop_ud %u, XOFF %u, pause breaks %u, other drops:%s; "
                "link: %s\n",
                name.c_str(), n, frame_bytes, got, ud, xoff, brk, other.empty() ? " none" : other.c_str(),
                s->link.pause_info().c_str());
    r.check(xoff > 0, (name + "-xoff-raised").c_str(), "nic0 never asked for XOFF: the burst did not test the headroom");
    r.check(rx == n && other.empty(), (name + "-no-drop-but-no-buffer").c_str(),
            "rx_frames +%u of %u; drops:%s", rx, n, other.c_str());
    r.check(bad == 0 && dup == 0 && got + ud == n, (name + "-datagrams-accounted").c_str(),
            "received %u + rx_drop_ud %u != %u, %u wrong (first: %s), %u twice", got, ud, n, bad, first_bad.c_str(), dup);
  }

  void run() {
    bool ok = s->a.open_port() && s->b.open_port();
    const uint32_t rlen = 4u * (1u << RdmaQp::kRqLog) * kRecvStride;
    if (ok) {
      rbuf = s->a.mem->alloc(rlen, 4096);
      ok = rdma_reg_mr(&s->a, rbuf, rlen, 0xF, &rkey) && y.create(&s->a, 0, RNIC_QP_TYPE_UD) && y.ud_ready(kQkey, 0x10);
    }
    if (r.check(ok, "pause-burst-setup", "%s %s %s", s->a.err.c_str(), s->b.err.c_str(), y.err.c_str())) {
      burst("pause-burst-70B", 400, 4);   // 70-byte frames: two 64-byte buffer words each, 94 bytes of wire
      burst("pause-burst-66B", 400, 0);   // the smallest UD SEND (no payload, no tag: counted only)
      burst("pause-burst-1KiB", 96, 1024);
    }
    sc_stop();
  }
};

int pause_burst_main(int argc, char **argv) {
  uint64_t seed = 1;
  for (int i = 1; i + 1 < argc; i++)
    if (std::string(argv[i]) == "--seed") seed = std::strtoull(argv[++i], nullptr, 0);
  std::printf("seed %llu\n", (unsigned long long)seed);
  EthLinkCfg lc;
  lc.seed = seed;
  TwoNics<RdmaPort> s(lc);
  Burst b("burst", &s, seed);
  sc_start();
  std::printf("INFO %s: simulated %.1f us\n", argv[0], sc_time_stamp().to_seconds() * 1e6);
  return b.r.exit_code();
}

SimProgram reg("test-pause-burst",
               "two NICs: line-rate bursts of small UD frames into nic0 while it pauses the link [--seed S]",
               pause_burst_main);

}  // namespace
