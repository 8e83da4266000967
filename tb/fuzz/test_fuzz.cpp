// Frame fuzzing into a live two-NIC system (issue 13, deliverable 1). nic1 drives live RC
// traffic (WRITE, SEND) and UD SENDs into nic0, nic0 READs from nic1; all of it is checked byte
// for byte with one CQE per WQE. Meanwhile the fuzzer hands hostile frames straight to nic0's
// receive port (as the MAC would): bit flips, truncations and header-field mutations with the
// ICRC recomputed. Targets:
//   live QPs (the RC and UD QPs carrying the traffic above) get only mutations that must be
//     dropped before the transport touches the QP (ICRC, IP/UDP checks, P_Key, TVer, unknown
//     opcode, wrong Q_Key, wrong transport for the QP type, non-existent QPN);
//   victim QPs (an RC responder and an RC requester connected to a QPN nic1 does not have, a UD
//     QP) and a victim MR in their own PD get everything: valid WRITE/READ/atomics/UD SENDs and
//     every mutation (R_Key, VA, DMA length, pad count, PSN ahead and behind, opcode sequence,
//     AETH fields). The model (Victim below) follows the responder rules of docs/conformance.md:
//     for each frame it predicts "dropped" (one drop/reject counter) or "accepted", the bytes an
//     accepted frame writes, and whether the QP goes to ERR.
// Per batch, with the traffic stopped: firmware READY and heartbeat advancing, the DMA port idle
// and nic0's transmitter quiet; frames received = link frames + injected; drop-reason counters
// (summed) = predicted drops, and drops + accepted = injected; the whole host memory of nic0
// equals its shadow (data area byte-exact, unallocated memory untouched; only the driver's rings
// and records may change); each victim QP is in the state the model says (then reset).
// Driven only through BAR0, host memory and the wire (the driver core's commands, the provider's
// WQEs and doorbells), so it does not depend on the data path's internals.
#include <systemc.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "host/pcie_model.h"
#include "main/sim_program.h"
#include "net/eth_link.h"
#include "roce/ref/roce_ref.h"
#include "sys/rdma_qp.h"
#include "tb_check.h"
#include "sys/two_nics.h"

namespace {

using roce_ref::Hdr;
using Frame = std::vector<uint8_t>;

constexpr uint32_t kLiveBuf = 256u << 10;   // nic0: WRITE target, SEND buffers, READ landing
constexpr uint32_t kVictimMr = 64u << 10;   // nic0: the victim MR (own PD)
constexpr uint32_t kAtomicArea = 0x1000;    // first 4 KiB of the victim MR: atomics only
constexpr uint32_t kUdArea = 0x8000;        // victim UD receive buffers from here (1 KiB each)
constexpr uint32_t kUdBufBytes = 1024;
constexpr uint32_t kPmtu = 1024;            // victim RC path MTU (code 3)
constexpr uint32_t kPhantomQpn = 0xFFF000;  // nic1 has no such QP: the victims' replies die there
constexpr uint32_t kQkey = 0x11110000, kVictimQkey = 0x22220000;

// Drop/reject counters: every frame that is not executed lands in exactly one of them.
const uint32_t kDropCounters[] = {
    RNIC_CNT_RX_DROP_ETH,  RNIC_CNT_RX_DROP_IPV4_HDR, RNIC_CNT_RX_DROP_IPV4_CSUM, RNIC_CNT_RX_DROP_UDP,
    RNIC_CNT_RX_DROP_BTH,  RNIC_CNT_RX_DROP_QPN,      RNIC_CNT_RX_DROP_ICRC,      RNIC_CNT_RX_DROP_TRUNC,
    RNIC_CNT_RX_DROP_BAD_QP, RNIC_CNT_RX_PSN_DUP,     RNIC_CNT_RX_PSN_OOO,        RNIC_CNT_RX_NAK_ERR,
    RNIC_CNT_RX_RNR_SENT,  RNIC_CNT_RX_DROP_UNSUP,    RNIC_CNT_RX_DROP_READ_RESP, RNIC_CNT_RX_DROP_UD};
const char *kDropNames[] = {"eth", "ipv4-hdr", "ipv4-csum", "udp", "bth", "qpn", "icrc", "trunc", "bad-qp",
                            "psn-dup", "psn-ooo", "nak-err", "rnr-sent", "unsup", "read-resp", "ud"};
constexpr size_t kNumDrop = sizeof(kDropCounters) / sizeof(kDropCounters[0]);

// Mutation classes, for the per-class tally printed at the end.
enum Mut {
  kValid, kBitFlip, kTrunc, kPkey, kTver, kBadOpcode, kBadQpn, kWrongType, kQkeyMut, kRkey, kVa, kDmaLen, kPad,
  kPsnAhead, kPsnDup, kOpSeq, kAeth, kReadResp, kNoRecv, kNumMut
};
const char *kMutNames[] = {"valid",  "bit-flip", "truncate", "pkey",      "tver",      "opcode-unknown", "qpn",
                           "qp-type", "qkey",    "rkey",     "va",        "dma-len",   "pad-count",      "psn-ahead",
                           "psn-dup", "op-seq",  "aeth",     "read-resp", "no-recv"};

struct Fuzz : sc_module {
  SC_HAS_PROCESS(Fuzz);
  Fuzz(sc_module_name n, RdmaPort *a, RdmaPort *b, EthLink *link, PcieModel *pa, uint64_t seed, unsigned frames,
       unsigned batch)
      : sc_module(n), a(a), b(b), link(link), pa(pa), rng(seed * 0x9E3779B97F4A7C15ull + 7), frames(frames),
        batch(batch) {
    SC_THREAD(run);
  }
  TbResults r;
  RdmaPort *a, *b;
  EthLink *link;
  PcieModel *pa;
  uint64_t rng;
  unsigned frames, batch;
  uint64_t injected_total = 0, accepted_total = 0, dropped_total = 0;
  uint64_t drop_by[kNumDrop] = {}, mut_count[kNumMut] = {};
  bool trace = std::getenv("FUZZ_TRACE") != nullptr;  // one line per injected frame
  unsigned targets = 15;  // --targets: bit 0 live QPs, 1 RC victims, 2 requester victim, 3 UD victim

  uint64_t next() {
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
  }
  uint32_t below(uint32_t n) { return n ? uint32_t(next() % n) : 0; }
  std::vector<uint8_t> rnd(size_t n) {
    std::vector<uint8_t> v(n);
    for (auto &x : v) x = uint8_t(next());
    return v;
  }
  uint32_t cnt(RdmaPort *h, uint32_t i) { return rnic_rd32(&h->os, RNIC_COUNTER_BASE + 4 * i); }

  // ---- nic0's memory: data area (exact), rings (free), the rest (untouched) -------------------
  uint64_t data_lo = 0, data_hi = 0, ring_hi = 0;
  std::map<uint64_t, std::vector<uint8_t>> shadow;  // page base -> bytes of the data area
  void shadow_write(uint64_t at, const void *src, size_t n) {
    const uint8_t *s = static_cast<const uint8_t *>(src);
    for (size_t i = 0; i < n; i++) {
      uint64_t x = at + i, pg = x & ~(HostMem::kPageSize - 1);
      auto it = shadow.find(pg);
      if (it == shadow.end()) it = shadow.emplace(pg, std::vector<uint8_t>(HostMem::kPageSize, 0)).first;
      it->second[x - pg] = s[i];
    }
  }
  // Host software writes go to memory and shadow alike.
  void host_write(uint64_t at, const std::vector<uint8_t> &v) {
    a->mem->write(at, v.data(), v.size());
    shadow_write(at, v.data(), v.size());
  }
  uint8_t shadow_at(uint64_t x) const {
    auto it = shadow.find(x & ~(HostMem::kPageSize - 1));
    return it == shadow.end() ? 0 : it->second[x & (HostMem::kPageSize - 1)];
  }
  // Every byte of nic0's memory outside the rings equals the shadow; first difference in *why.
  bool memory_matches(std::string *why) {
    uint64_t bad = 0, first = 0;
    a->mem->for_each_page([&](uint64_t base, const uint8_t *p) {
      for (uint64_t i = 0; i < HostMem::kPageSize; i++) {
        uint64_t x = base + i;
        if (x >= data_hi && x < ring_hi) continue;  // the driver's rings, records, command queue
        uint8_t want = (x >= data_lo && x < data_hi) ? shadow_at(x) : 0;
        if (p[i] != want && !bad++) first = x;
      }
    });
    if (bad) {
      char s[200];
      std::snprintf(s, sizeof s, "%llu bytes differ, first at 0x%llx (%s): 0x%02x, model 0x%02x",
                    (unsigned long long)bad, (unsigned long long)first,
                    first >= data_lo && first < data_hi ? "data area" : "outside every allocation",
                    a->mem->rd8(first), first >= data_lo && first < data_hi ? shadow_at(first) : 0);
      *why = s;
    }
    return bad == 0;
  }

  // ---- frames ---------------------------------------------------------------------------------
  Hdr base_hdr(uint32_t qpn, uint8_t op) {
    Hdr h;
    for (int i = 0; i < 6; i++) h.dst_mac = h.dst_mac << 8 | a->mac[i], h.src_mac = h.src_mac << 8 | b->mac[i];
    h.src_ip = b->ipv4, h.dst_ip = a->ipv4;
    h.ttl = 64, h.ip_id = uint16_t(next()), h.udp_sport = uint16_t(0xC000 | (next() & 0x3FFF));
    h.opcode = op, h.pkey = 0xFFFF, h.dest_qp = qpn;
    return h;
  }
  // Rewrites the ICRC after a byte of the frame was changed in place.
  static void fix_icrc(Frame &f) {
    uint32_t c = roce_ref::icrc(f, f.size() - 4);
    for (int i = 0; i < 4; i++) f[f.size() - 4 + i] = uint8_t(c >> (8 * i));
  }
  // 1..3 flipped bits anywhere the ICRC or the IP checksum covers (not the MACs, not the
  // ICRC-masked UDP checksum and BTH FECN/BECN byte, which the receiver ignores by design).
  // Flips no check can see are drawn again (docs/conformance.md row 1): the same bit twice, or
  // bits only in the IPv4 fields the ICRC masks because routers rewrite them (DSCP/ECN, TTL,
  // header checksum) that leave the header checksum valid: that frame is a valid frame.
  void bit_flip(Frame &f) {
    const Frame orig = f;
    do {
      f = orig;
      unsigned n = 1 + below(3);
      for (unsigned k = 0; k < n; k++) {
        size_t at;
        do at = 12 + below(uint32_t(f.size() - 12));
        while (at == 40 || at == 41 || at == 46);
        f[at] ^= uint8_t(1u << below(8));
      }
    } while (undetectable(orig, f));
  }
  static bool undetectable(const Frame &o, const Frame &f) {
    for (size_t i = 0; i < f.size(); i++)
      if (f[i] != o[i] && i != 15 && i != 22 && i != 24 && i != 25) return false;  // TOS, TTL, checksum
    uint32_t s = 0;
    for (size_t i = 14; i < 34; i += 2) s += uint32_t(f[i] << 8 | f[i + 1]);
    while (s >> 16) s = (s & 0xFFFF) + (s >> 16);
    if (s == 0xFFFF) undetectable_flips++;
    return s == 0xFFFF;
  }
  static inline unsigned undetectable_flips = 0;
  // Cut inside the IP datagram: the lengths no longer match (no Ethernet padding is cut).
  void truncate(Frame &f) { f.resize(1 + below(uint32_t(f.size() - 1))); }

  // A mutation that must be dropped before the transport touches the QP (built into f).
  Mut pre_transport(Hdr &h, std::vector<uint8_t> &pay, Frame &f, bool ud_target) {
    switch (below(9)) {
      case 0: f = roce_ref::build(h, pay), bit_flip(f); return kBitFlip;
      case 1: f = roce_ref::build(h, pay), truncate(f); return kTrunc;
      case 2:
        do h.pkey = uint16_t(next());
        while ((h.pkey & 0x7FFF) == 0x7FFF);
        break;
      case 3: f = roce_ref::build(h, pay), f[14 + 20 + 8 + 1] |= uint8_t(1 + below(15)), fix_icrc(f); return kTver;
      case 4: {
        uint8_t op;
        do op = uint8_t(next());
        while (roce_ref::op_hdrs(op));
        h.opcode = op;
        pay.resize(pay.size() & ~size_t(3));
        f = roce_ref::build(h, pay);  // unknown opcodes: no extension headers
        return kBadOpcode;
      }
      case 5: h.dest_qp = 0x100000 + below(0xEFF000); break;
      case 6:  // the other transport's opcode
        if (ud_target) {
          h.opcode = 0x0A, h.va = 0x1000, h.rkey = 1, h.dma_len = uint32_t(pay.size());
        } else {
          h.opcode = 0x64, h.qkey = kQkey, h.src_qp = 0x10;
        }
        f = roce_ref::build(h, pay);
        return kWrongType;
      case 7:
        if (ud_target) {
          h.qkey ^= 1u << below(32);
          f = roce_ref::build(h, pay);
          return kQkeyMut;
        }
        f = roce_ref::build(h, pay), bit_flip(f);
        return kBitFlip;
      default: f = roce_ref::build(h, pay), bit_flip(f); return kBitFlip;
    }
    f = roce_ref::build(h, pay);
    return h.dest_qp >= 0x100000 ? kBadQpn : kPkey;
  }

  // ---- QPs ------------------------------------------------------------------------------------
  RdmaQp live_rc0, live_rc1, live_ud0, live_ud1, rd0, rd1;  // *0 on nic0, *1 on nic1
  static constexpr unsigned kVictims = 4;                   // RC responder victims
  RdmaQp vics[kVictims], vreq, vud;                         // victims on nic0
  uint32_t vpd = 0, vkey = 0, live_key0 = 0, live_key1 = 0, ahn = 0;
  uint64_t live0 = 0, live1 = 0, vmr = 0;

  bool connect_phantom(RdmaQp &q, uint32_t rq_psn) {
    RdmaQp ph;
    ph.h = b;
    ph.qpn = kPhantomQpn;
    RdmaConnOpts o;
    o.path_mtu = 3;
    o.timeout = 20;  // the victims post nothing; no timer should fire
    o.min_rnr_timer = 12;
    o.access = 0xF;
    o.max_dest_rd_atomic = kRdBudget;
    return q.connect(ph, 0x10, rq_psn, o);
  }

  // The victim responders' model: expected PSN and whether a NAK moved the QP to ERR.
  struct VictimModel {
    uint32_t epsn = 0;
    bool err = false;
    unsigned rd_reqs = 0;  // valid READ/atomic requests since the last settle()
  } vms[kVictims];
  // A responder answers a new READ/atomic that finds max_dest_rd_atomic of its responses not yet
  // sent with NAK invalid request and ERR (docs/conformance.md row 22): how many are
  // still unsent depends on the transmit engine's timing, which no model predicts. So a victim
  // gets at most kRdBudget valid ones between two settle()s, after which every response is out.
  static constexpr unsigned kRdBudget = 16;
  struct UdPend {  // a valid datagram sent to the UD victim, not yet matched to a completion
    uint32_t imm = 0, byte_len = 0;
    bool fits = true;
    std::vector<uint8_t> grh, pay;
  };
  std::deque<UdPend> vud_pend;
  std::deque<uint64_t> vud_bufs;  // posted receive buffers (wr_id = address), oldest first
  unsigned vud_free = 0;          // posted buffers no pending datagram claims
  unsigned vud_slot = 0;
  uint64_t batch_accept = 0;      // predicted accepted frames of the running batch
  uint64_t ud_nobuf_total = 0;    // valid datagrams to the UD victim that found no buffer loaded

  bool reset_victim(RdmaQp &q, uint32_t psn) {
    return q.set_state(RNIC_QP_STATE_RESET) && connect_phantom(q, psn);
  }
  void post_vud(unsigned n) {
    for (unsigned i = 0; i < n; i++) {
      uint64_t at = vmr + kUdArea + (vud_slot++ % 32) * kUdBufBytes;
      rnicp_sge s{at, kUdBufBytes, vkey};
      rnicp_recv_wr w{at, &s, 1};
      if (vud.post_recv(w) != 0) r.check(false, "fuzz-victim-ud-post", "RQ full: pi %u ci %u", vud.rq.pi, vud.rq.ci);
      vud_bufs.push_back(at);
      vud_free++;
    }
  }
  // The receive engine holds a few receive buffers per QP and the firmware refills them as they
  // complete; a datagram that arrives meanwhile is dropped (UD has no RNR), at a time no model
  // predicts. So the UD victim gets kUdWindow buffers at a time: all of them complete (their CQEs
  // are awaited), then the next window is posted and given time to reach the engine.
  static constexpr unsigned kUdWindow = 4;
  void refill_vud() {
    settle();
    batch_accept -= resolve_vud(false);  // completions may still be on their way: no verdict yet
    unsigned room = 32 - unsigned(vud_bufs.size());  // the RQ ring's entries
    if (vud_free < kUdWindow) post_vud(std::min(room, unsigned(kUdWindow - vud_free)));
    wait(sc_time(50, SC_US));
  }
  // nic0 took every queued frame, its DMA port is idle and the firmware had time for its events.
  void settle() {
    for (int t = 0; t < 1000 && (a->nic->rx_queued() || !pa->idle()); t++) wait(sc_time(1, SC_US));
    wait(sc_time(20, SC_US));
    for (int t = 0; t < 1000 && !pa->idle(); t++) wait(sc_time(1, SC_US));
    for (VictimModel &v : vms) v.rd_reqs = 0;
  }

  // Drains a victim CQ (its entries are not checked: victims complete whatever they complete).
  void drain(RdmaQp &q) {
    rnicp_wc w[16];
    for (int n; (n = q.poll_now(w, 16)) > 0;)
      for (int i = 0; trace && i < n; i++)
        std::printf("TRACE cqe qp %u wr %llx status %u opcode %u len %u\n", q.qpn, (unsigned long long)w[i].wr_id,
                    w[i].status, w[i].opcode, w[i].byte_len);
  }

  // One frame for a victim, with the model's prediction. Returns true when predicted accepted.
  bool victim_frame(Frame &f, Mut &m, unsigned target) {
    if (target == 3) return victim_ud(f, m);
    if (target == 2) return victim_requester(f, m);
    // RC responder
    unsigned vi = below(kVictims);
    for (unsigned k = 0; k < kVictims && vms[vi].err; k++) vi = (vi + 1) % kVictims;  // prefer a live one
    VictimModel &vm = vms[vi];
    uint32_t e = vm.epsn;
    unsigned kind = below(10);  // 0-4 WRITE, 5-6 READ, 7-8 atomic, 9 SEND (no receive: RNR)
    Hdr h = base_hdr(vics[vi].qpn, 0x0A);
    h.psn = e;
    h.ack_req = true;
    std::vector<uint8_t> pay;
    uint32_t len = 0;
    uint64_t off = 0;
    if (kind <= 4) {
      len = below(5) ? 1 + below(kPmtu) : 0;
      off = kAtomicArea + below(kUdArea - kAtomicArea - len);
      pay = rnd(len);
      h.va = vmr + off, h.rkey = vkey, h.dma_len = len;
    } else if (kind <= 6) {
      h.opcode = 0x0C;
      len = 1 + below(3000);
      h.va = vmr + below(kVictimMr - len), h.rkey = vkey, h.dma_len = len;
    } else if (kind <= 8) {
      h.opcode = kind == 7 ? 0x13 : 0x14;
      h.va = vmr + 8 * below(kAtomicArea / 8), h.rkey = vkey;
      h.swap_add = next() % 1000, h.compare = below(2) ? 0 : next() % 4;
    } else {
      h.opcode = 0x04;
      len = below(512);
      pay = rnd(len);
    }
    if (vm.err) {  // the QP is in error: everything that reaches it is dropped (unsup / bad QP)
      f = roce_ref::build(h, pay);
      m = kValid;
      return false;
    }
    unsigned mu = below(100);
    if (mu < 55) {  // valid
      m = kValid;
      f = roce_ref::build(h, pay);
      if (kind == 9) {  // SEND without a posted receive: RNR NAK (nothing written, PSN stays)
        m = kNoRecv;
        return false;
      }
      if (kind <= 4) {
        shadow_write(vmr + off, pay.data(), pay.size());
        vm.epsn = (e + 1) & 0xFFFFFF;
      } else if (kind <= 6) {
        if (vm.rd_reqs == kRdBudget) settle();
        vm.rd_reqs++;
        vm.epsn = (e + std::max<uint32_t>(1, (len + kPmtu - 1) / kPmtu)) & 0xFFFFFF;
      } else {
        if (vm.rd_reqs == kRdBudget) settle();
        vm.rd_reqs++;
        uint64_t at = h.va, old = 0;
        for (int i = 0; i < 8; i++) old |= uint64_t(shadow_at(at + i)) << (8 * i);
        uint64_t nw = h.opcode == 0x14 ? old + h.swap_add : (old == h.compare ? h.swap_add : old);
        uint8_t bytes[8];
        for (int i = 0; i < 8; i++) bytes[i] = uint8_t(nw >> (8 * i));
        shadow_write(at, bytes, 8);
        vm.epsn = (e + 1) & 0xFFFFFF;
      }
      return true;
    }
    if (mu < 75) {
      m = pre_transport(h, pay, f, false);
      return false;
    }
    if (mu < 83) {  // PSN ahead: out of sequence, not executed
      h.psn = (e + 1 + below(0x7FFFFE)) & 0xFFFFFF;
      m = kPsnAhead;
      f = roce_ref::build(h, pay);
      return false;
    }
    if (mu < 90) {  // PSN behind: a duplicate WRITE is re-acknowledged, not placed
      h.opcode = 0x0A;
      len = 1 + below(64);
      pay = rnd(len);
      h.va = vmr + kAtomicArea, h.rkey = vkey, h.dma_len = len;
      h.psn = (e - 1 - below(0x7FFFFF)) & 0xFFFFFF;
      m = kPsnDup;
      f = roce_ref::build(h, pay);
      return false;
    }
    if (kind == 9) {  // SEND: only the checks above apply
      m = kNoRecv;
      f = roce_ref::build(h, pay);
      return false;
    }
    // the rest NAK and move the QP to ERR
    vm.err = true;
    if (mu < 92) {  // R_Key: another index or variant
      m = kRkey;
      h.rkey = vkey ^ (below(2) ? (1 + below(0xFF)) : ((1 + below(0xFF)) << 8));
      if (len == 0 && kind <= 6) h.dma_len = len = 4, pay = rnd(4);  // zero length skips the check
    } else if (mu < 94) {  // VA outside the MR
      m = kVa;
      if (kind >= 7) h.va = vmr - 8 * (1 + below(64));
      else {
        if (len == 0) len = h.dma_len = 4, pay.resize(kind <= 4 ? 4 : 0);
        h.va = below(2) ? vmr + kVictimMr - len + 1 + below(4096) : vmr - 1 - below(4096);
      }
    } else if (mu < 96 && kind <= 4) {  // RETH length differs from the payload
      m = kDmaLen;
      h.dma_len = len + 1 + below(100);
    } else if (mu < 98 && kind <= 4 && len >= 4) {  // pad count: the payload length changes
      m = kPad;
      f = roce_ref::build(h, pay);
      uint8_t &b1 = f[14 + 20 + 8 + 1];
      unsigned pad = b1 >> 4 & 3, np;
      do np = below(4);
      while (np == pad);
      b1 = uint8_t((b1 & ~0x30) | np << 4);
      fix_icrc(f);
      return false;
    } else if (kind <= 4) {  // a MIDDLE or LAST without a FIRST
      m = kOpSeq;
      h.opcode = below(2) ? 0x07 : 0x08;
      pay.resize(len ? len : 4);
      if (h.opcode == 0x07) pay.resize(kPmtu);
    } else if (kind >= 7) {  // misaligned atomic
      m = kVa;
      h.va = vmr + 8 * below(kAtomicArea / 8) + 1 + below(7);
    } else {  // READ: R_Key
      m = kRkey;
      h.rkey = vkey ^ (1 + below(0xFF));
    }
    f = roce_ref::build(h, pay);
    return false;
  }

  // The requester victim has nothing outstanding: an ACK (any AETH) is an event for the
  // firmware (accepted, no counter); READ responses and ATOMIC ACKNOWLEDGEs match no request.
  bool victim_requester(Frame &f, Mut &m) {
    Hdr h = base_hdr(vreq.qpn, 0x11);
    h.psn = uint32_t(next() & 0xFFFFFF);
    h.syndrome = below(2) ? 0x1F : uint8_t(next());
    h.msn = uint32_t(next() & 0xFFFFFF);
    std::vector<uint8_t> pay;
    unsigned k = below(4);
    if (k == 0) {
      m = pre_transport(h, pay, f, false);
      return false;
    }
    if (k == 1) {
      static const uint8_t rr[] = {0x0D, 0x0E, 0x0F, 0x10, 0x12};
      h.opcode = rr[below(5)];
      if (h.opcode != 0x12) pay = rnd(h.opcode == 0x0E ? 0 : 1 + below(kPmtu));
      if (h.opcode == 0x0E) pay = rnd(kPmtu);
      h.orig = next();
      m = kReadResp;
      f = roce_ref::build(h, pay);
      // an ATOMIC ACKNOWLEDGE that matches no atomic is taken as a plain ACK (its AETH goes to
      // the firmware like any ACK's); READ responses that match no READ are dropped
      return h.opcode == 0x12;
    }
    // A NAK syndrome may move the requester to ERR; only ACKs (00x) keep it in RTS, and only
    // ACKs are sent while the model expects it in RTS.
    h.syndrome = uint8_t(below(0x20));
    m = kAeth;
    f = roce_ref::build(h, pay);
    return true;
  }

  bool victim_ud(Frame &f, Mut &m) {
    Hdr h = base_hdr(vud.qpn, below(2) ? 0x64 : 0x65);
    h.qkey = kVictimQkey, h.src_qp = 0x1234, h.imm = uint32_t(next());
    uint32_t len = below(8) ? below(kUdBufBytes - 40 + 1) : kUdBufBytes - 40 + 1 + below(100);  // some too long
    std::vector<uint8_t> pay = rnd(len);
    if (below(3) == 0) {
      m = pre_transport(h, pay, f, true);
      return false;
    }
    f = roce_ref::build(h, pay);
    if (!vud_free) {
      m = kNoRecv;
      return false;
    }
    m = kValid;
    vud_free--;
    UdPend p;
    p.imm = h.opcode == 0x65 ? roce_ref_be32(h.imm) : 0;
    p.fits = len + 40 <= kUdBufBytes;
    p.byte_len = p.fits ? len + 40 : 0;
    p.grh.assign(20, 0);  // the 40-byte GRH area: zeros, then the datagram's IPv4 header
    p.grh.insert(p.grh.end(), f.begin() + 14, f.begin() + 34);
    p.pay = pay;
    vud_pend.push_back(p);
    return true;  // provisional: resolve_vud() finds out which datagrams found a buffer
  }
  static uint32_t roce_ref_be32(uint32_t x) {  // the CQE carries the immediate in network order
    return (x >> 24) | (x >> 8 & 0xFF00) | (x << 8 & 0xFF0000) | x << 24;
  }

  // Matches the UD victim's completions to the datagrams sent to it, in order: a datagram with no
  // completion before a later one's was dropped (no buffer in the engine yet: counted under "ud").
  // Places the bytes of each completed one in the shadow at the buffer its CQE names. With
  // `final`, datagrams still without a completion were dropped too. Returns the number dropped.
  unsigned resolve_vud(bool final) {
    unsigned dropped = 0;
    rnicp_wc w[16];
    for (int n; (n = vud.poll_now(w, 16)) > 0;)
      for (int i = 0; i < n; i++) {
        // Datagrams of equal immediate and length (plain SENDs all carry immediate 0) are told
        // apart by what the buffer holds: an earlier one may have been dropped for want of a
        // loaded buffer and a later one placed (the long run, seed 1, batch 117).
        bool buf_ok = !vud_bufs.empty() && vud_bufs.front() == w[i].wr_id;
        auto same = [&](const UdPend &p) { return p.imm == w[i].imm_data && p.byte_len == w[i].byte_len; };
        size_t k = 0;
        while (k < vud_pend.size() && !same(vud_pend[k])) k++;
        for (size_t j = k; buf_ok && j < vud_pend.size(); j++) {
          const UdPend &p = vud_pend[j];
          if (!same(p) || !p.fits) continue;
          if (a->mem->read_vec(vud_bufs.front(), 40) == p.grh &&
              a->mem->read_vec(vud_bufs.front() + 40, p.pay.size()) == p.pay) {
            k = j;
            break;
          }
        }
        if (k == vud_pend.size() || !buf_ok) {
          r.check(false, "fuzz-victim-ud-completion", "CQE wr %llx imm %x len %u status %u matches no datagram sent",
                  (unsigned long long)w[i].wr_id, w[i].imm_data, w[i].byte_len, w[i].status);
          continue;
        }
        UdPend &p = vud_pend[k];
        bool st = w[i].status == (p.fits ? RNIC_WC_STATUS_SUCCESS : RNIC_WC_STATUS_LOC_LEN_ERR);
        if (!st) r.check(false, "fuzz-victim-ud-status", "status %u for a datagram of %zu bytes", w[i].status, p.pay.size());
        if (p.fits) shadow_write(vud_bufs.front(), p.grh.data(), 40), shadow_write(vud_bufs.front() + 40, p.pay.data(), p.pay.size());
        vud_bufs.pop_front();
        dropped += unsigned(k);
        ud_nobuf_total += k;
        vud_free += unsigned(k);  // their buffers were not used
        vud_pend.erase(vud_pend.begin(), vud_pend.begin() + long(k) + 1);
      }
    if (final) {
      ud_nobuf_total += vud_pend.size();
      dropped += unsigned(vud_pend.size());
      vud_free += unsigned(vud_pend.size());
      vud_pend.clear();
    }
    return dropped;
  }

  // ---- live traffic ---------------------------------------------------------------------------
  struct LiveWr {
    RdmaQp *q;
    uint64_t wr_id;
    uint32_t op;  // expected WC opcode
    uint32_t len;
    uint64_t dst;  // where on nic0 the bytes land (WRITE, SEND, UD SEND at +40, READ)
    std::vector<uint8_t> data;
  };
  std::vector<LiveWr> live;
  uint64_t wr_seq = 1;

  // nic0's receives are posted (and their doorbells given time to arrive) before nic1 sends, so
  // the live traffic never meets an empty receive queue (an RNR NAK or a dropped datagram would
  // be a live frame in the drop counters).
  void post_live() {
    live.clear();
    uint64_t region = live0 + (wr_seq & 1) * (kLiveBuf / 2);  // alternate halves per batch
    uint32_t used = 0;
    auto take = [&](uint32_t n) {
      uint64_t at = region + used;
      used += (n + 63) & ~63u;
      return at;
    };
    struct Send {
      RdmaQp *q;
      rnicp_send_wr w;
      rnicp_sge s;
    };
    std::vector<Send> sends;
    for (unsigned i = 0; i < 4; i++) {  // nic1 WRITEs into nic0
      uint32_t len = 1 + below(8192);
      uint64_t dst = take(len);
      auto d = rnd(len);
      Send x{&live_rc1, {}, {live1 + 0x10000 * i, len, live_key1}};
      b->mem->write(x.s.addr, d.data(), len);
      x.w.wr_id = wr_seq++, x.w.opcode = RNIC_WQE_OP_RDMA_WRITE, x.w.flags = RNICP_WR_SIGNALED;
      x.w.num_sge = 1, x.w.remote_addr = dst, x.w.rkey = live_key0;
      live.push_back({&live_rc1, x.w.wr_id, RNIC_WC_OPCODE_RDMA_WRITE, len, dst, d});
      sends.push_back(x);
    }
    for (unsigned i = 0; i < 2; i++) {  // nic1 SENDs into receives posted on nic0
      uint32_t len = 1 + below(6000);
      uint64_t dst = take(len);
      rnicp_sge rs{dst, len, live_key0};
      rnicp_recv_wr rw{wr_seq++, &rs, 1};
      if (live_rc0.post_recv(rw) != 0) r.check(false, "fuzz-live-post-recv");
      auto d = rnd(len);
      Send x{&live_rc1, {}, {live1 + 0x40000 + 0x2000 * i, len, live_key1}};
      b->mem->write(x.s.addr, d.data(), len);
      x.w.wr_id = wr_seq++, x.w.opcode = RNIC_WQE_OP_SEND, x.w.flags = RNICP_WR_SIGNALED, x.w.num_sge = 1;
      live.push_back({&live_rc0, rw.wr_id, RNIC_WC_OPCODE_RECV, len, dst, d});
      live.push_back({&live_rc1, x.w.wr_id, RNIC_WC_OPCODE_SEND, len, 0, {}});
      sends.push_back(x);
    }
    for (unsigned i = 0; i < 2; i++) {  // UD SENDs nic1 -> nic0
      uint32_t len = 1 + below(1000);
      uint64_t dst = take(len + 40);
      rnicp_sge rs{dst, len + 40, live_key0};
      rnicp_recv_wr rw{wr_seq++, &rs, 1};
      if (live_ud0.post_recv(rw) != 0) r.check(false, "fuzz-live-post-ud-recv");
      auto d = rnd(len);
      Send x{&live_ud1, {}, {live1 + 0x60000 + 0x1000 * i, len, live_key1}};
      b->mem->write(x.s.addr, d.data(), len);
      x.w.wr_id = wr_seq++, x.w.opcode = RNIC_WQE_OP_SEND, x.w.flags = RNICP_WR_SIGNALED, x.w.num_sge = 1;
      x.w.ahn = ahn, x.w.remote_qpn = live_ud0.qpn, x.w.remote_qkey = kQkey;
      live.push_back({&live_ud0, rw.wr_id, RNIC_WC_OPCODE_RECV, len + 40, dst + 40, d});
      live.push_back({&live_ud1, x.w.wr_id, RNIC_WC_OPCODE_SEND, len, 0, {}});
      sends.push_back(x);
    }
    {  // nic0 READs from nic1
      uint32_t len = 1 + below(12000);
      uint64_t dst = take(len);
      auto d = rnd(len);
      b->mem->write(live1 + 0x80000, d.data(), len);
      Send x{&rd0, {}, {dst, len, live_key0}};
      x.w.wr_id = wr_seq++, x.w.opcode = RNIC_WQE_OP_RDMA_READ, x.w.flags = RNICP_WR_SIGNALED;
      x.w.num_sge = 1, x.w.remote_addr = live1 + 0x80000, x.w.rkey = live_key1;
      live.push_back({&rd0, x.w.wr_id, RNIC_WC_OPCODE_RDMA_READ, len, dst, d});
      sends.push_back(x);
    }
    wait(sc_time(50, SC_US));  // 10 us was measured too short for the firmware to load a receive
    for (auto &x : sends) {
      x.w.sg_list = &x.s;
      if (x.q->post_send_nodb(x.w) <= 0) r.check(false, "fuzz-live-post-send");
    }
    for (RdmaQp *q : {&live_rc1, &live_ud1, &rd0}) q->ring();
  }

  // Every live WQE completes once, successfully, with its bytes in place; nothing more.
  bool check_live(std::string *why) {
    std::map<RdmaQp *, std::vector<rnicp_wc>> got;
    sc_time end = sc_time_stamp() + sc_time(5, SC_MS);
    size_t have = 0;
    while (have < live.size() && sc_time_stamp() < end) {
      wait(sc_time(1, SC_US));
      for (RdmaQp *q : {&live_rc0, &live_rc1, &live_ud0, &live_ud1, &rd0}) {
        rnicp_wc w[16];
        int n = q->poll_now(w, 16);
        for (int i = 0; i < n; i++) got[q].push_back(w[i]), have++;
      }
    }
    bool ok = have == live.size();
    if (!ok) *why = "completions " + std::to_string(have) + " of " + std::to_string(live.size());
    for (auto &l : live) {
      auto &v = got[l.q];
      auto it = std::find_if(v.begin(), v.end(), [&](const rnicp_wc &w) { return w.wr_id == l.wr_id; });
      if (it == v.end()) {
        if (ok) *why = "no CQE for wr " + std::to_string(l.wr_id);
        ok = false;
        continue;
      }
      bool good = it->status == RNIC_WC_STATUS_SUCCESS && it->opcode == l.op &&
                  (l.op == RNIC_WC_OPCODE_RDMA_WRITE || l.op == RNIC_WC_OPCODE_SEND || it->byte_len == l.len);
      if (!good && ok) {
        char s[160];
        std::snprintf(s, sizeof s, "wr %llu: status %u opcode %u len %u, want opcode %u len %u",
                      (unsigned long long)l.wr_id, it->status, it->opcode, it->byte_len, l.op, l.len);
        *why = s;
      }
      ok = ok && good;
      if (!l.data.empty()) {
        if (l.op == RNIC_WC_OPCODE_RECV && l.q == &live_ud0) {  // GRH area: the sender's IPv4 header
          auto g = a->mem->read_vec(l.dst - 40, 40);
          shadow_write(l.dst - 40, g.data(), 40);
          bool grh = g[20] == 0x45 && g[32] == uint8_t(b->ipv4 >> 24) && g[35] == uint8_t(b->ipv4);
          if (!grh && ok) *why = "UD GRH area wrong";
          ok = ok && grh;
        }
        bool same = a->mem->read_vec(l.dst, l.data.size()) == l.data;
        if (!same && ok) *why = "wr " + std::to_string(l.wr_id) + " bytes differ";
        ok = ok && same;
        shadow_write(l.dst, l.data.data(), l.data.size());
      }
    }
    return ok;
  }

  // Engines idle: the DMA port has nothing in flight and nic0 sends nothing for 20 us.
  bool quiesce() {
    uint32_t tx = cnt(a, RNIC_CNT_TX_FRAMES);
    for (int t = 0; t < 200; t++) {
      wait(sc_time(20, SC_US));
      uint32_t now = cnt(a, RNIC_CNT_TX_FRAMES);
      if (now == tx && pa->idle() && a->nic->rx_queued() == 0) return true;
      tx = now;
    }
    return false;
  }

  void run() {
    // Data buffers first: everything the NIC may write below data_hi is modelled byte for byte.
    live0 = a->mem->alloc(kLiveBuf, 4096);
    vmr = a->mem->alloc(kVictimMr, 4096);
    data_lo = live0, data_hi = vmr + kVictimMr;
    live1 = b->mem->alloc(1u << 20, 4096);
    {
      auto v = rnd(kVictimMr);
      host_write(vmr, v);
    }
    bool ok = a->open_port() && b->open_port();
    ok = ok && rdma_reg_mr(a, live0, kLiveBuf, 0xF, &live_key0) && rdma_reg_mr(b, live1, 1u << 20, 0xF, &live_key1);
    ok = ok && rnic_cmd_alloc_pd(&a->q, 0, &vpd) == 0 && rdma_reg_mr(a, vmr, kVictimMr, 0xF, &vkey, vpd);
    live_rc0.cq_log = live_rc1.cq_log = 7;  // a CQ ring must fit one page (32 B << 7)
    ok = ok && live_rc0.create(a) && live_rc1.create(b) && rd0.create(a) && rd1.create(b);
    ok = ok && live_ud0.create(a, 0, RNIC_QP_TYPE_UD) && live_ud1.create(b, 0, RNIC_QP_TYPE_UD);
    for (RdmaQp &v : vics) v.cq_log = 7, ok = ok && v.create(a, vpd);
    vreq.cq_log = vud.cq_log = 7;
    ok = ok && vreq.create(a, vpd) && vud.create(a, vpd, RNIC_QP_TYPE_UD);
    RdmaConnOpts o;
    o.timeout = 14;
    o.min_rnr_timer = 12;
    o.access = 0x7;
    ok = ok && live_rc0.connect(live_rc1, 0x100, 0x200, o) && live_rc1.connect(live_rc0, 0x200, 0x100, o);
    ok = ok && rd0.connect(rd1, 0x300, 0x400, o) && rd1.connect(rd0, 0x400, 0x300, o);
    ok = ok && live_ud0.ud_ready(kQkey, 0x10) && live_ud1.ud_ready(kQkey, 0x20) && vud.ud_ready(kVictimQkey, 0x30);
    for (unsigned i = 0; i < kVictims; i++)
      vms[i].epsn = uint32_t(next() & 0xFFFFFF), ok = ok && connect_phantom(vics[i], vms[i].epsn);
    ok = ok && connect_phantom(vreq, 0x55);
    rnic_create_ah_in ah{};
    ah.pdn = b->pdn, ah.dest_ipv4 = a->ipv4, ah.hop_limit = 64;
    std::memcpy(ah.dmac, a->mac, 6);
    ok = ok && rnic_cmd_create_ah(&b->q, &ah, &ahn) == 0;
    ring_hi = a->mem->alloc(0, 1);
    std::string e = a->err + b->err + live_rc0.err + live_rc1.err + rd0.err + live_ud0.err + vics[0].err + vud.err;
    if (!r.check(ok, "fuzz-setup", "%s", e.c_str())) {
      sc_stop();
      return;
    }
    std::printf("INFO nic0 qpns: live rc %u ud %u read %u; victims rc %u..%u requester %u ud %u\n", live_rc0.qpn,
                live_ud0.qpn, rd0.qpn, vics[0].qpn, vics[kVictims - 1].qpn, vreq.qpn, vud.qpn);

    unsigned nb = 0, bad_batches = 0;
    for (unsigned done = 0; done < frames; nb++) {
      unsigned n = std::min(batch, frames - done);
      if (!run_batch(nb, n)) bad_batches++;
      done += n;
      if (bad_batches >= 3) break;  // the first failures say it all
    }
    std::printf("INFO frames injected %llu: accepted %llu, dropped %llu\n", (unsigned long long)injected_total,
                (unsigned long long)accepted_total, (unsigned long long)dropped_total);
    std::string line;
    for (size_t i = 0; i < kNumDrop; i++)
      if (drop_by[i]) line += std::string(" ") + kDropNames[i] + " " + std::to_string(drop_by[i]);
    std::printf("INFO drops by reason:%s\n", line.c_str());
    std::printf("INFO valid datagrams to the UD victim dropped before the engine had their buffer: %llu\n",
                (unsigned long long)ud_nobuf_total);
    std::printf("INFO bit flips no check could see (drawn again): %u\n", undetectable_flips);
    line.clear();
    for (int i = 0; i < kNumMut; i++)
      if (mut_count[i]) line += std::string(" ") + kMutNames[i] + " " + std::to_string(mut_count[i]);
    std::printf("INFO frames by mutation:%s\n", line.c_str());
    r.check(injected_total == frames && bad_batches == 0, "fuzz-all-batches",
            "%llu of %u frames injected, %u batches failed", (unsigned long long)injected_total, frames, bad_batches);
    sc_stop();
  }

  // Waits until nic0 took every queued frame and the firmware had time for its events, checks
  // each victim's state against the model and brings the ones in ERR back (RESET..RTS, a new
  // expected PSN). False (with *why) when a state differs from the model.
  bool recover_victims(std::string *why) {
    settle();
    int rs = vreq.state(), us = vud.state();
    bool states = rs == int(RNIC_QP_STATE_RTS) && us == int(RNIC_QP_STATE_RTS);
    std::string sw = "requester " + std::to_string(rs) + " ud " + std::to_string(us);
    for (unsigned i = 0; i < kVictims; i++) {
      int vs = vics[i].state();
      bool good = vs == int(vms[i].err ? RNIC_QP_STATE_ERR : RNIC_QP_STATE_RTS);
      states = states && good;
      sw += " rc" + std::to_string(i) + " " + std::to_string(vs) + (vms[i].err ? " (model ERR)" : " (model RTS)");
      if (vms[i].err || !good) {
        vms[i].epsn = uint32_t(next() & 0xFFFFFF);
        vms[i].err = false;
        if (!reset_victim(vics[i], vms[i].epsn)) r.check(false, "fuzz-victim-reset", "%s", vics[i].err.c_str());
        drain(vics[i]);
      }
    }
    if (rs != int(RNIC_QP_STATE_RTS)) reset_victim(vreq, 0x55);
    if (!states && why->empty()) *why = sw;
    return states;
  }

  bool run_batch(unsigned nb, unsigned n) {
    std::string tag = "fuzz-batch-" + std::to_string(nb);
    std::string state_why;
    bool states_ok = true;
    if (!targets) n = 0;  // --targets 0: the live traffic alone
    uint32_t c0[kNumDrop], rx0 = cnt(a, RNIC_CNT_RX_FRAMES), hb0 = rnic_rd32(&a->os, RNIC_REG_CPU_HEARTBEAT);
    for (size_t i = 0; i < kNumDrop; i++) c0[i] = cnt(a, kDropCounters[i]);
    uint64_t link0 = link->stats(1).delivered;
    batch_accept = 0;
    if (!vud_free) refill_vud();
    post_live();
    wait(sc_time(10, SC_US));  // the receives' doorbells reach the NIC before the frames do
    // The hostile frames, a few at a time, interleaved with the live traffic on the port.
    for (unsigned i = 0; i < n && targets; i++) {
      Frame f;
      Mut m = kValid;
      bool acc;
      unsigned t;  // target: 0 live, 1 RC victims, 2 requester victim, 3 UD victim (allowed by --targets)
      do t = below(100) < 30 ? 0 : 1 + below(9) / 3;  // 30 % live, the rest as victim_frame spreads them
      while (!(targets >> t & 1));
      if (t == 0) {  // a live QP: only what must be dropped before the transport
        bool ud = below(3) == 0;
        RdmaQp &q = ud ? live_ud0 : live_rc0;
        Hdr h = base_hdr(q.qpn, ud ? 0x64 : 0x0A);
        std::vector<uint8_t> pay = rnd(1 + below(1024));
        h.psn = uint32_t(next() & 0xFFFFFF), h.va = live0 + below(kLiveBuf - 1024), h.rkey = live_key0;
        h.dma_len = uint32_t(pay.size()), h.qkey = kQkey, h.src_qp = live_ud1.qpn;
        m = pre_transport(h, pay, f, ud);
        acc = false;
      } else {
        bool all_err = true;
        for (auto &v : vms) all_err = all_err && v.err;
        if (t == 1 && all_err) states_ok = recover_victims(&state_why) && states_ok;
        if (t == 3 && !vud_free) refill_vud();
        acc = victim_frame(f, m, t);
      }
      mut_count[m]++;
      if (trace) std::printf("TRACE %u.%u target %u %s %s len %zu\n", nb, i, t, kMutNames[m], acc ? "accept" : "drop", f.size());
      batch_accept += acc;
      // The injector honours nic0's pause request as the link does (802.3x): a receiver that
      // is flooded regardless drops frames for want of buffer (DropNoBuf), which no model of
      // the transport can predict; the peer that ignores PAUSE is the link model's business.
      while (a->nic->rx_pause_req()) wait(sc_time(100, SC_NS));
      a->nic->rx_frame(f);
      if (i % 8 == 7) wait(sc_time(200 + below(800), SC_NS));
    }
    std::string why;
    bool live_ok = check_live(&why);
    r.check(live_ok, (tag + "-live-traffic").c_str(), "%s", why.c_str());
    bool idle = quiesce();
    r.check(idle, (tag + "-engines-idle").c_str(), "tx still moving or DMA busy after 4 ms");
    uint32_t hb1 = rnic_rd32(&a->os, RNIC_REG_CPU_HEARTBEAT), st = rnic_rd32(&a->os, RNIC_REG_CPU_FW_STATUS);
    r.check(hb1 != hb0 && st == RNIC_FW_STATUS_READY, (tag + "-firmware-alive").c_str(), "heartbeat %u -> %u status %u",
            hb0, hb1, st);
    wait(sc_time(50, SC_US));  // the last receive completions (firmware events) are written
    batch_accept -= resolve_vud(true);
    const uint64_t accept = batch_accept;
    uint32_t rx = cnt(a, RNIC_CNT_RX_FRAMES) - rx0;
    uint64_t linkn = link->stats(1).delivered - link0;
    uint64_t drops = 0;
    std::string by;
    for (size_t i = 0; i < kNumDrop; i++) {
      uint32_t d = cnt(a, kDropCounters[i]) - c0[i];
      drops += d, drop_by[i] += d;
      if (d) by += std::string(" ") + kDropNames[i] + " " + std::to_string(d);
    }
    uint64_t accepted = rx - linkn - drops;  // what the port took that no counter dropped
    bool acct = rx == linkn + n && drops == n - accept && accepted + drops == n;
    r.check(acct, (tag + "-accounting").c_str(),
            "rx %u = link %llu + injected %u? dropped %llu (model %llu) + accepted %llu (model %llu):%s", rx,
            (unsigned long long)linkn, n, (unsigned long long)drops, (unsigned long long)(n - accept),
            (unsigned long long)accepted, (unsigned long long)accept, by.c_str());
    injected_total += n, accepted_total += accepted, dropped_total += drops;
    // Victim states as the model says, then back to a known state for the next batch.
    bool states = recover_victims(&state_why) && states_ok;
    r.check(states, (tag + "-victim-states").c_str(), "%s", state_why.c_str());
    wait(sc_time(20, SC_US));
    for (RdmaQp &v : vics) drain(v);
    drain(vreq);
    bool mem = memory_matches(&why);
    r.check(mem, (tag + "-host-memory").c_str(), "%s", why.c_str());
    if (!mem) {  // report each difference once
      a->mem->for_each_page([&](uint64_t base, const uint8_t *p) {
        for (uint64_t i = 0; i < HostMem::kPageSize; i++)
          if (base + i >= data_lo && base + i < data_hi) shadow_write(base + i, p + i, 1);
      });
    }
    bool ok = live_ok && idle && hb1 != hb0 && acct && states && mem;
    if (nb % 5 == 0 || !ok)
      std::printf("INFO %s: %u frames, accepted %llu, dropped %llu:%s\n", tag.c_str(), n, (unsigned long long)accepted,
                  (unsigned long long)drops, by.c_str());
    return ok;
  }
};

int fuzz_main(int argc, char **argv) {
  uint64_t seed = 1;
  unsigned frames = 10000, batch = 500, targets = 15;
  for (int i = 1; i + 1 < argc; i++) {
    std::string o = argv[i];
    if (o == "--seed") seed = std::strtoull(argv[++i], nullptr, 0);
    else if (o == "--frames") frames = unsigned(std::strtoul(argv[++i], nullptr, 0));
    else if (o == "--batch") batch = unsigned(std::strtoul(argv[++i], nullptr, 0));
    else if (o == "--targets") targets = unsigned(std::strtoul(argv[++i], nullptr, 0));
  }
  std::printf("seed %llu frames %u batch %u\n", (unsigned long long)seed, frames, batch);
  EthLinkCfg lc;
  lc.seed = seed;
  TwoNics<RdmaPort> s(lc);
  Fuzz t("fuzz", &s.a, &s.b, &s.link, &s.pa, seed, frames, batch);
  t.targets = targets;
  sc_start();
  std::printf("INFO %s: simulated %.1f us\n", argv[0], sc_time_stamp().to_seconds() * 1e6);
  return t.r.exit_code();
}

SimProgram reg("test-fuzz", "two NICs, live RC/UD traffic, hostile frames into nic0 [--seed S --frames N --batch B]",
               fuzz_main);

}  // namespace
