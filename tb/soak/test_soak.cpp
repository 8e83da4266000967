// Long random soak (issue 13, deliverable 5): two NICs, Q RC QP pairs with random path MTUs,
// random operations (WRITE, WRITE_IMM, SEND, SEND_IMM, READ, CAS, FAA) in both directions, random
// sizes (0, small, up to 3 x MTU, some up to 64 KiB), random SGE lists on both sides, over a
// link that loses, reorders, duplicates and corrupts frames. A reference model gives what each
// WQE must produce: every byte of every region it touches (its local and remote buffers with the
// gaps between SGEs and a 64-byte tail, all pre-filled with random bytes), the requester's CQE
// (wr_id in order, SUCCESS, opcode, byte_len) and the responder's receive CQE (opcode, byte_len,
// immediate). Batches: per pair up to 6 WQEs posted with one doorbell, then everything checked.
// Deterministic per seed. Usage: rnic_sim test-soak --seed S [--ops N] [--qps Q]
//   [--faults LOSS REORDER DUP CORRUPT] [--pcap FILE | --pcap-rx FILE]
#include <systemc.h>

#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "main/sim_program.h"
#include "net/eth_link.h"
#include "sys/rdma_qp.h"
#include "sys/two_nics.h"
#include "tb_check.h"

namespace {

constexpr uint32_t kWin = 1u << 20;  // per pair and host: the pair's buffers
constexpr int kMaxBatch = 6;

struct Region {  // bytes the model knows: pre-filled, then what the WQE must leave there
  RdmaPort *h;
  uint64_t addr;
  std::vector<uint8_t> expect;
  uint32_t op = 0, len = 0;  // the WQE it belongs to (for the failure message)
};

struct Soak : sc_module {
  SC_HAS_PROCESS(Soak);
  Soak(sc_module_name n, RdmaPort *a, RdmaPort *b, uint64_t seed, int ops, int qps)
      : sc_module(n), a(a), b(b), rng(seed * 0x9E3779B97F4A7C15ull + 7), seed(seed), ops(ops), nq(qps) {
    SC_THREAD(run);
  }
  TbResults r;
  RdmaPort *a, *b;
  uint64_t rng, seed;
  int ops, nq;
  uint64_t abuf = 0, bbuf = 0;
  uint32_t akey = 0, bkey = 0;
  std::vector<std::unique_ptr<RdmaQp>> xs, ys;
  std::vector<uint32_t> mtu;
  std::map<std::string, uint64_t> count;  // operations done, by name
  uint64_t bytes = 0;
  std::string first_cqe_err, first_data_err;
  int cqe_errs = 0, data_errs = 0;

  uint64_t next() {
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
  }
  uint32_t below(uint32_t n) { return n ? uint32_t(next() % n) : 0; }
  uint64_t base(RdmaPort *h, int p) { return (h == a ? abuf : bbuf) + uint64_t(p) * kWin; }
  uint32_t key(RdmaPort *h) { return h == a ? akey : bkey; }

  // A region of n bytes (+ 64-byte tail) at the bump pointer of host h, pre-filled at random.
  Region region(RdmaPort *h, int p, uint32_t &bump, uint32_t n) {
    Region g{h, base(h, p) + bump, std::vector<uint8_t>(n + 64)};
    for (auto &c : g.expect) c = uint8_t(next());
    h->mem->write(g.addr, g.expect.data(), g.expect.size());
    bump += (n + 64 + 63) & ~63u;
    return g;
  }
  // Splits len bytes into 1..3 SGEs inside region g, with random gaps; returns their offsets.
  std::vector<std::pair<uint32_t, uint32_t>> split(uint32_t len, uint32_t &room) {
    std::vector<std::pair<uint32_t, uint32_t>> s;
    uint32_t n = len ? 1 + below(len < 3 ? len : 3) : 0, off = 0, left = len;
    for (uint32_t i = 0; i < n; i++) {
      uint32_t l = i + 1 == n ? left : 1 + below(left - (n - 1 - i));
      s.push_back({off, l});
      off += l + below(3) * 8, left -= l;
    }
    room = off;
    return s;
  }
  uint32_t size(uint32_t m) {
    uint32_t k = below(100);
    if (k < 6) return 0;
    if (k < 30) return 1 + below(64);
    if (k < 94 || m < 2048) return below(3 * m + 1);
    return 16384 + below(49153);  // large: at MTU 2048/4096, 8..32 packets
  }

  struct Wqe {
    rnicp_send_wr wr{};
    std::vector<rnicp_sge> sges;
    uint32_t wc_op = 0, len = 0;
    bool recv = false;  // consumes a receive at the responder
    uint32_t recv_op = 0;
    uint64_t recv_id = 0;
    std::vector<rnicp_sge> rsges;
  };

  // One batch on pair p: requester side rq (x or y), up to kMaxBatch WQEs.
  void batch(int p) {
    bool fwd = next() & 1;
    RdmaQp *rq = fwd ? xs[p].get() : ys[p].get(), *sq = fwd ? ys[p].get() : xs[p].get();
    RdmaPort *L = rq->h, *R = sq->h;
    uint32_t lb = 0, rb = 0;
    std::vector<Region> regs;
    std::vector<Wqe> w(1 + below(kMaxBatch));
    static const char *names[] = {"WRITE", "WRITE_IMM", "SEND", "SEND_IMM", "READ", "CAS", "FAA"};
    static const uint32_t wc_ops[] = {RNIC_WC_OPCODE_RDMA_WRITE, RNIC_WC_OPCODE_RDMA_WRITE, RNIC_WC_OPCODE_SEND,
                                      RNIC_WC_OPCODE_SEND,       RNIC_WC_OPCODE_RDMA_READ,  RNIC_WC_OPCODE_COMP_SWAP,
                                      RNIC_WC_OPCODE_FETCH_ADD};
    for (auto &q : w) {
      size_t r0 = regs.size();
      struct Tag {  // marks the regions this WQE added, whichever way the body ends
        std::vector<Region> &v;
        size_t from;
        Wqe &q;
        ~Tag() {
          for (size_t i = from; i < v.size(); i++) v[i].op = q.wr.opcode, v[i].len = q.len;
        }
      } tag{regs, r0, q};
      uint32_t k = below(100);
      uint32_t op = k < 22 ? 0 : k < 34 ? 1 : k < 52 ? 2 : k < 62 ? 3 : k < 84 ? 4 : k < 92 ? 5 : 6;
      count[names[op]]++;
      q.wr.wr_id = next(), q.wr.opcode = op, q.wr.flags = RNICP_WR_SIGNALED, q.wr.imm_data = uint32_t(next());
      q.wc_op = wc_ops[op];
      q.wr.rkey = key(R);
      if (op >= RNIC_WQE_OP_ATOMIC_CMP_AND_SWP) {
        Region lr = region(L, p, lb, 8), rr = region(R, p, rb, 8);
        uint64_t old = 0, nv;
        std::memcpy(&old, rr.expect.data(), 8);
        q.wr.compare_add = op == RNIC_WQE_OP_ATOMIC_FETCH_AND_ADD ? next() : (next() & 1) ? old : next();
        q.wr.swap = next();
        nv = op == RNIC_WQE_OP_ATOMIC_FETCH_AND_ADD ? old + q.wr.compare_add
                                                    : (q.wr.compare_add == old ? q.wr.swap : old);
        std::memcpy(rr.expect.data(), &nv, 8);
        std::memcpy(lr.expect.data(), &old, 8);
        q.sges = {{lr.addr, 8, key(L)}};
        q.wr.remote_addr = rr.addr, q.len = 8;
        regs.push_back(lr), regs.push_back(rr);
        continue;
      }
      uint32_t len = size(128u << mtu[p]), lroom = 0, rroom = 0;
      q.len = len, bytes += len;
      auto ls = split(len, lroom);
      Region lr = region(L, p, lb, lroom);
      for (auto &s : ls) q.sges.push_back({lr.addr + s.first, s.second, key(L)});
      bool send = op == RNIC_WQE_OP_SEND || op == RNIC_WQE_OP_SEND_WITH_IMM;
      std::vector<std::pair<uint32_t, uint32_t>> rs;
      if (send) {  // the receive's own SGE list: the message plus 0..64 bytes of room
        rs = split(len + below(65), rroom);
      } else {
        rs = {{0, len}}, rroom = len;
      }
      Region rr = region(R, p, rb, rroom);
      q.wr.remote_addr = rr.addr;
      // the message's bytes, then where they must land
      std::vector<uint8_t> msg;
      Region &src = op == RNIC_WQE_OP_RDMA_READ ? rr : lr;
      Region &dst = op == RNIC_WQE_OP_RDMA_READ ? lr : rr;
      const auto &ss = op == RNIC_WQE_OP_RDMA_READ ? rs : ls;
      const auto &ds = op == RNIC_WQE_OP_RDMA_READ ? ls : rs;
      for (auto &s : ss) msg.insert(msg.end(), src.expect.begin() + s.first, src.expect.begin() + s.first + s.second);
      msg.resize(len);
      uint32_t at = 0;
      for (auto &s : ds)
        for (uint32_t i = 0; i < s.second && at < len; i++) dst.expect[s.first + i] = msg[at++];
      if (send || op == RNIC_WQE_OP_RDMA_WRITE_WITH_IMM) {
        q.recv = true, q.recv_id = next();
        q.recv_op = send ? RNIC_WC_OPCODE_RECV : RNIC_WC_OPCODE_RECV_RDMA_WITH_IMM;
        if (send)
          for (auto &s : rs) q.rsges.push_back({rr.addr + s.first, s.second, key(R)});
      }
      // a WRITE_IMM's receive and a zero-length SEND's have no SGE (a 0-byte buffer)
      regs.push_back(lr), regs.push_back(rr);
    }
    // receives first (they reach the engine before the requests), then one doorbell
    int nrecv = 0;
    for (auto &q : w)
      if (q.recv) {
        rnicp_recv_wr rw{q.recv_id, q.rsges.data(), uint32_t(q.rsges.size())};
        nrecv++;
        if (sq->post_recv(rw) != 0) note_cqe("post_recv failed");
      }
    wait(sc_time(5, SC_US));
    for (auto &q : w) {
      q.wr.sg_list = q.sges.data(), q.wr.num_sge = uint32_t(q.sges.size());
      if (rq->post_send_nodb(q.wr) <= 0) note_cqe("post_send failed");
    }
    rq->ring();
    std::vector<rnicp_wc> sc(w.size()), rc(nrecv ? nrecv : 1);
    int ns = rq->poll(sc.data(), int(w.size()), sc_time(60, SC_MS));
    int nr = nrecv ? sq->poll(rc.data(), nrecv, sc_time(10, SC_MS)) : 0;
    char why[256];
    for (size_t i = 0; i < w.size(); i++) {
      const Wqe &q = w[i];
      const rnicp_wc *c = int(i) < ns ? &sc[i] : nullptr;
      if (!c || c->wr_id != q.wr.wr_id || c->status != 0 || c->opcode != q.wc_op || c->byte_len != q.len) {
        std::snprintf(why, sizeof why, "pair %d %s op %u len %u mtu %u: cqe %s st %u op %u len %u", p,
                      fwd ? "nic0->nic1" : "nic1->nic0", q.wr.opcode, q.len, 128u << mtu[p], c ? "" : "missing",
                      c ? c->status : 0, c ? c->opcode : 0, c ? c->byte_len : 0);
        note_cqe(why);
      }
    }
    int k = 0;
    for (const Wqe &q : w) {
      if (!q.recv) continue;
      const rnicp_wc *c = k < nr ? &rc[k] : nullptr;
      bool imm = q.wr.opcode != RNIC_WQE_OP_SEND;
      if (!c || c->wr_id != q.recv_id || c->status != 0 || c->opcode != q.recv_op || c->byte_len != q.len ||
          (imm && c->imm_data != q.wr.imm_data)) {
        std::snprintf(why, sizeof why, "pair %d recv for op %u len %u: %s st %u op %u len %u imm %x/%x", p,
                      q.wr.opcode, q.len, c ? "" : "missing", c ? c->status : 0, c ? c->opcode : 0,
                      c ? c->byte_len : 0, c ? c->imm_data : 0, q.wr.imm_data);
        note_cqe(why);
      }
      k++;
    }
    for (auto &g : regs) {
      auto got = g.h->mem->read_vec(g.addr, uint32_t(g.expect.size()));
      if (got != g.expect) {
        size_t i = 0;
        while (got[i] == g.expect[i]) i++;
        std::snprintf(why, sizeof why,
                      "pair %d (%s requester, MTU %u) region %s+0x%llx of op %u len %u: byte %zu of %zu is %02x, "
                      "want %02x", p, fwd ? "nic0" : "nic1", 128u << mtu[p], g.h == a ? "nic0" : "nic1",
                      (unsigned long long)(g.addr - base(g.h, p)), g.op, g.len, i, g.expect.size(), got[i],
                      g.expect[i]);
        if (!data_errs++) first_data_err = why;
      }
    }
  }
  void note_cqe(const char *why) {
    if (!cqe_errs++) first_cqe_err = why;
  }

  void run() {
    abuf = a->mem->alloc(uint64_t(nq) * kWin, 2u << 20), bbuf = b->mem->alloc(uint64_t(nq) * kWin, 2u << 20);
    bool ok = a->open_port() && b->open_port() && rdma_reg_mr(a, abuf, nq * kWin, 0xF, &akey, 0, 21) &&
              rdma_reg_mr(b, bbuf, nq * kWin, 0xF, &bkey, 0, 21);
    for (int p = 0; ok && p < nq; p++) {
      xs.emplace_back(new RdmaQp()), ys.emplace_back(new RdmaQp());
      RdmaConnOpts o;
      o.path_mtu = 1 + below(5), o.timeout = 8, o.retry_cnt = 7, o.rnr_retry = 7, o.min_rnr_timer = 1;
      mtu.push_back(o.path_mtu);
      uint32_t px = uint32_t(next() & 0xFFFFFF), py = uint32_t(next() & 0xFFFFFF);
      ok = xs[p]->create(a) && ys[p]->create(b) && xs[p]->connect(*ys[p], px, py, o) && ys[p]->connect(*xs[p], py, px, o);
    }
    if (!r.check(ok, "soak-setup", "%s%s", a->err.c_str(), b->err.c_str())) return sc_stop();
    int done = 0;
    while (done < ops && cqe_errs == 0) {
      int p = int(below(uint32_t(nq)));
      uint64_t before = 0;
      for (auto &c : count) before += c.second;
      batch(p);
      for (auto &c : count) done += int(c.second);
      done -= int(before);
    }
    std::string mix;
    for (auto &c : count) mix += " " + c.first + " " + std::to_string(c.second);
    std::string mtus;
    for (uint32_t m : mtu) mtus += " " + std::to_string(128u << m);
    std::printf("INFO soak seed %llu: %d operations on %d QP pairs (MTUs%s):%s; %llu payload bytes\n",
                (unsigned long long)seed, done, nq, mtus.c_str(), mix.c_str(), (unsigned long long)bytes);
    int bad_state = 0;
    for (int p = 0; p < nq; p++)
      bad_state += (xs[p]->state() != int(RNIC_QP_STATE_RTS)) + (ys[p]->state() != int(RNIC_QP_STATE_RTS));
    r.check(cqe_errs == 0, ("soak-seed" + std::to_string(seed) + "-completions").c_str(), "%d wrong: first %s",
            cqe_errs, first_cqe_err.c_str());
    r.check(data_errs == 0, ("soak-seed" + std::to_string(seed) + "-data-byte-exact").c_str(), "%d regions: first %s",
            data_errs, first_data_err.c_str());
    r.check(bad_state == 0, ("soak-seed" + std::to_string(seed) + "-qps-still-rts").c_str(), "%d QPs not in RTS",
            bad_state);
    sc_stop();
  }
};

int soak_main(int argc, char **argv) {
  uint64_t seed = 1;
  int ops = 300, qps = 4;
  std::string pcap;
  bool pcap_rx = false;
  EthFaults f;
  f.loss = f.reorder = f.dup = f.corrupt = 0.005;
  for (int i = 1; i < argc; i++) {
    std::string o = argv[i];
    if (o == "--seed" && i + 1 < argc) seed = std::strtoull(argv[++i], nullptr, 0);
    if (o == "--ops" && i + 1 < argc) ops = std::atoi(argv[++i]);
    if (o == "--qps" && i + 1 < argc) qps = std::atoi(argv[++i]);
    if (o == "--pcap" && i + 1 < argc) pcap = argv[++i];  // the link, as sent (lost frames too)
    if (o == "--pcap-rx" && i + 1 < argc) pcap = argv[++i], pcap_rx = true;  // as received
    if (o == "--faults" && i + 4 < argc) {
      f.loss = std::atof(argv[++i]), f.reorder = std::atof(argv[++i]);
      f.dup = std::atof(argv[++i]), f.corrupt = std::atof(argv[++i]);
    }
  }
  std::printf("seed %llu\n", (unsigned long long)seed);
  EthLinkCfg lc;
  lc.seed = seed;
  lc.faults[0] = lc.faults[1] = f;
  lc.pcap_path = pcap;
  if (pcap_rx) lc.pcap_side = EthLinkCfg::Receiver;
  TwoNics<RdmaPort> s(lc);
  Soak t("soak", &s.a, &s.b, seed, ops, qps);
  sc_start();
  std::printf("INFO %s: simulated %.1f us, %llu + %llu frames, lost %llu + %llu, corrupted %llu + %llu\n", argv[0],
              sc_time_stamp().to_seconds() * 1e6, (unsigned long long)s.link.stats(0).tx_frames,
              (unsigned long long)s.link.stats(1).tx_frames, (unsigned long long)s.link.stats(0).lost,
              (unsigned long long)s.link.stats(1).lost, (unsigned long long)s.link.stats(0).corrupted,
              (unsigned long long)s.link.stats(1).corrupted);
  return t.r.exit_code();
}

SimProgram reg("test-soak", "two NICs: random ops, sizes, SGEs, QPs, MTUs over a faulty link against a model "
                            "[--seed S --ops N --qps Q --faults L R D C --pcap F | --pcap-rx F]",
               soak_main);

}  // namespace
