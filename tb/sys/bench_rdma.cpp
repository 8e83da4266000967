// `make bench`: RDMA figures between two simulated NICs, in simulated time at 250 MHz. Writes a
// table, build/bench/results.json and a gnuplot data file; the same seed gives the same numbers.
// The firmware's own cost per WQE comes from its QUERY_COUNTERS command (mcycle on the soft core).
//   bench-rdma [outdir] [--quick]   (--quick: no goodput sweep, for firmware work)
//   bench-rdma [outdir] --loss      only the goodput under 1 % / 5 % loss (the table rows of it;
//                                   results.json then holds null for everything else)
//   bench-rdma [outdir] --large     only the large-message figures (64 KiB WRITE / SEND / READ
//                                   with 1 and 16 READs outstanding; the rest null)
//   bench-rdma --speed idle|write|msg   set up, run only that speed phase (longer), print its
//                                       rate: what to put under perf (docs/sim-speed.md)
#include <systemc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <random>
#include <string>
#include <vector>

#include "host/pcie_model.h"
#include "main/sim_program.h"
#include "net/eth_link.h"
#include "sys/lat_split.h"
#include "sys/rdma_host.h"
#include "sys/two_nics.h"

namespace {

// The firmware's data-path counters (spec cmd_query_counters).
struct FwCounters {
  uint32_t wqes = 0, cqes = 0, doorbells = 0, events = 0;
  uint64_t db_cycles = 0, ev_cycles = 0;
};

// Firmware cycles per WQE over an interval: doorbell service (doorbell seen until tx_desc
// committed) and event service (ACK seen until CQE written), each divided by the WQEs sent.
struct FwCost {
  double sq = -1, cq = -1, total = -1;
};

FwCost fw_cost(const FwCounters &a, const FwCounters &b) {
  FwCost c;
  uint32_t n = b.wqes - a.wqes;
  if (!n) return c;
  c.sq = double(b.db_cycles - a.db_cycles) / n;
  c.cq = double(b.ev_cycles - a.ev_cycles) / n;
  c.total = c.sq + c.cq;
  return c;
}

// One send queue of a host: the host's own QP or one the bench added.
struct SendQp {
  uint32_t qpn;
  rnicp_sq *sq;
};

struct Bench : sc_module {
  SC_HAS_PROCESS(Bench);
  Bench(sc_module_name n, RdmaHost *a, RdmaHost *b, bool quick, std::string speed_only = "")
      : sc_module(n), speed_only_(speed_only), quick_(quick), a_(a), b_(b) {
    SC_THREAD(run);
  }
  struct Point { uint32_t size; double write, send, read; };
  std::vector<Point> sweep;
  double lat_issue_bf_ns = -1, lat_issue_db_ns = -1;  // host time of the doorbell writes
  double lat_oneway_db_ns = -1, lat_cqe_db_ns = -1;  // posted with sq_db instead of BlueFlame
  double lat_oneway_ns = -1, lat_cqe_ns = -1, rate_64b_mps = -1, rate_64b_8qp_mps = -1;
  // The 8 B WRITE's doorbell-to-remote-memory latency cut at the ports (tb/sys/lat_split.h),
  // means over the phases: [0] BlueFlame, [1] sq_db. ok when every phase had every stamp.
  LatSplit split[2];
  double read_8k_gbps = -1, read_64k_gbps = -1, write_8qp_gbps = -1;
  // 64 KiB READs on a fresh QP pair whose max_rd_atomic allows them: 1 and kReadOut outstanding
  // (the device's max_qp_rd_atom and the receive engine's READ contexts are 16).
  static constexpr unsigned kReadOut = 16;
  double read_64k_out1_gbps = -1, read_64k_out16_gbps = -1;
  // The same three over kLongMsgs messages (WRITE and SEND 16 deep on the host's QP, READ 16
  // outstanding): the 8- and 16-message figures above carry one start-up (doorbell to first
  // byte) and one tail (last byte to CQE) of ~9 us, which these spread over 64 messages.
  static constexpr unsigned kLongMsgs = 64;
  double write_64k_long_gbps = -1, send_64k_long_gbps = -1, read_64k_out16_long_gbps = -1;
  bool large_only_ = false;
  FwCost cost_rate, cost_rate_8qp, cost_lat;
  FwCost cost_recv;  // responder per received 64 B SEND: RQ doorbell (sq) + receive event (cq)
  bool ok = false;
  std::string err;

  // The 8-QP figures use 8 QPs of their own with a short ACK timeout (2^kQpTimeout x 4.096 us):
  // ACKs lost on the requester's receive path (rx_drop_trunc, an open receive-side problem)
  // then cost a retransmission, not the run.
  static constexpr unsigned kExtraQps = 8, kQpDepth = 4, kQpTimeout = 8;
  uint32_t drops_8qp = 0, timeouts_8qp = 0;
  // Simulation speed, NIC cycles per wall second summed over both NICs: the 1-QP 64 B stream
  // above, and three phases added at the very end so no figure before them moves.
  double speed_idle = -1, speed_write_64k = -1, speed_msg_64b = -1;
  double cpu_idle = -1, cpu_write_64k = -1, cpu_msg_64b = -1;
  std::string speed_only_;
  // Goodput under random loss (both directions, this bench's own generator through
  // EthLink::lose_if), after every other figure: [op WRITE/READ][size 64 KiB/1 MiB][1 %/5 %].
  EthLink *link_ = nullptr;
  bool loss_only_ = false;
  double lossy_gbps[2][2][2] = {{{-1, -1}, {-1, -1}}, {{-1, -1}, {-1, -1}}};
  uint64_t lossy_lost = 0;
  // The receive side (after the speed phases, so no figure before them moves; fresh QP pairs):
  // a 16-deep stream of 4 KiB SENDs with the receives posted well ahead (goodput, RNR NAKs the
  // responder sent), and a burst of UD datagrams into a 32-deep RQ the host refills as it polls.
  static constexpr unsigned kRecvDepth = 16, kRecvCount = 128, kUdCount = 256, kUdBytes = 1024;
  double send4k_gbps = -1, send64k_gbps = -1;
  int64_t send4k_rnr = -1, send64k_rnr = -1, ud_received = -1, ud_dropped = -1;
  double ud_us = -1;

 private:
  static constexpr uint32_t kBuf = 4u << 20;
  bool quick_;
  uint64_t abuf_ = 0, bbuf_ = 0;
  uint32_t akey_ = 0, bkey_ = 0;
  // The QPs beyond each host's own, pairwise connected (a's i-th to b's i-th).
  std::vector<RdmaQp> xa_ = std::vector<RdmaQp>(kExtraQps), xb_ = std::vector<RdmaQp>(kExtraQps);

  // 8-byte WRITEs: from the first doorbell-page write the host issues (the bf_data copy with
  // BlueFlame, else sq_db) to its bytes in the remote memory, and to the requester's CQE. Each
  // starts with both NICs idle (20 us after the last), at kLatPhases phases 13 cycles apart of
  // the firmware's main loop: one run alone shows where its doorbell check happened to fall, not
  // the doorbell path (a doorbell 184 ns earlier measured the same). The figures are the means.
  static constexpr int kLatPhases = 8;
  void latency(bool blueflame, double *oneway_ns, double *cqe_ns) {
    double sum_one = 0, sum_cqe = 0, sum_issue = 0;
    int n_one = 0, n_cqe = 0, n_split = 0;
    LatSplit &sp = split[blueflame ? 0 : 1];
    sp = LatSplit();
    sp.host = sp.tx = sp.frame = sp.link = sp.rx = sp.pcie = 0;
    for (int ph = 0; ph < kLatPhases; ph++) {
      uint64_t dst = bbuf_ + kBuf - 64;
      b_->mem->fill(dst, 0, 8);
      uint8_t mark[8] = {1, 2, 3, 4, 5, 6, 7, 8};
      a_->mem->write(abuf_ + kBuf - 64, mark, 8);
      rnicp_sge sge{abuf_ + kBuf - 64, 8, akey_};
      rnicp_send_wr wr{};
      wr.opcode = RNIC_WQE_OP_RDMA_WRITE;
      wr.flags = RNICP_WR_SIGNALED;
      wr.sg_list = &sge;
      wr.num_sge = 1;
      wr.remote_addr = dst;
      wr.rkey = bkey_;
      wait(sc_time(20000 + 52 * ph, SC_NS));
      LatSplit::start(a_->nic, b_->nic);
      sc_time t0 = sc_time_stamp();  // the ring write takes no simulated time; the doorbell does
      if (blueflame) a_->qp.post_send_bf(wr);
      else a_->qp.post_send(wr);
      sum_issue += (sc_time_stamp() - t0).to_seconds() * 1e9;
      sc_time t_land;
      bool landed = false, cqe = false;
      rnicp_wc wc;
      while (sc_time_stamp() - t0 < sc_time(1, SC_MS) && !(landed && cqe)) {
        if (!landed && b_->mem->rd64(dst) == 0x0807060504030201ull) landed = true, t_land = sc_time_stamp();
        if (!cqe && rnicp_cq_poll(&a_->qp.cq, 1, &wc) == 1) {
          cqe = true;
          sum_cqe += (sc_time_stamp() - t0).to_seconds() * 1e9, n_cqe++;
        }
        wait(sc_time(4, SC_NS));
      }
      if (landed) sum_one += (t_land - t0).to_seconds() * 1e9, n_one++;
      LatSplit p = LatSplit::take(a_->nic, b_->nic, t0.to_seconds() * 1e9, landed ? t_land.to_seconds() * 1e9 : -1);
      if (landed && p.ok) {
        sp.host += p.host, sp.tx += p.tx, sp.frame += p.frame, sp.link += p.link, sp.rx += p.rx, sp.pcie += p.pcie;
        n_split++;
      }
      if (cqe) rnicp_sq_complete(&a_->qp.sq, uint16_t(wc.wqe_index));
    }
    if (n_one == kLatPhases) *oneway_ns = sum_one / n_one;
    sp.ok = n_split == kLatPhases;
    if (sp.ok)
      sp.host /= n_split, sp.tx /= n_split, sp.frame /= n_split, sp.link /= n_split, sp.rx /= n_split, sp.pcie /= n_split;
    else sp = LatSplit();
    if (n_cqe == kLatPhases) *cqe_ns = sum_cqe / n_cqe;
    (blueflame ? lat_issue_bf_ns : lat_issue_db_ns) = sum_issue / kLatPhases;
  }

  bool counters(RdmaHost *h, FwCounters *o) {
    uint8_t c[RNIC_CMD_ENTRY_SIZE] = {0};
    rnic_cmd_entry_set_opcode(c, RNIC_CMD_OP_QUERY_COUNTERS);
    if (rnic_cmdq_exec(&h->q, c, nullptr)) return false;
    o->wqes = rnic_cmd_query_counters_get_sq_wqes(c);
    o->cqes = rnic_cmd_query_counters_get_cqes(c);
    o->doorbells = rnic_cmd_query_counters_get_doorbells(c);
    o->events = rnic_cmd_query_counters_get_events(c);
    o->db_cycles = rnic_cmd_query_counters_get_db_cycles(c);
    o->ev_cycles = rnic_cmd_query_counters_get_ev_cycles(c);
    return true;
  }

  // Polls a host's CQ until at least one completion, or timeout; returns how many.
  int poll_some(RdmaHost *h, rnicp_wc *wc, int max, const sc_time &timeout) {
    sc_time end = sc_time_stamp() + timeout;
    int got = 0;
    // no cq_db write: the consumer index goes to the CQ's doorbell record, read by the NIC only
    // when the ring looks full
    while (!(got = rnicp_cq_poll(&h->qp.cq, max, wc)) && sc_time_stamp() < end) wait(sc_time(20, SC_NS));
    return got;
  }

  // Posts count signaled WRITEs (or SENDs) of size bytes back to back, keeping the SQ full;
  // returns the simulated seconds from the first doorbell to the last CQE, or -1.
  double stream(uint32_t op, uint32_t size, unsigned count) {
    rnicp_wc wc[16];
    unsigned posted = 0, done = 0;
    sc_time t0 = sc_time_stamp();
    while (done < count) {
      while (posted < count && rnicp_sq_room(&a_->qp.sq) >= 2 && posted - done < 16) {
        if (op == RNIC_WQE_OP_SEND) {
          rnicp_sge rs{bbuf_ + (posted % 4) * (kBuf / 4), size, bkey_};
          rnicp_recv_wr rwr{posted, &rs, 1};
          if (b_->post_recv(rwr)) return -1;
        }
        rnicp_sge sge{abuf_ + (posted % 4) * (kBuf / 4), size, akey_};
        rnicp_send_wr wr{};
        wr.wr_id = posted;
        wr.opcode = op;
        wr.flags = RNICP_WR_SIGNALED;
        wr.sg_list = &sge;
        wr.num_sge = 1;
        wr.remote_addr = bbuf_ + (posted % 4) * (kBuf / 4);
        wr.rkey = bkey_;
        if (rnicp_sq_post(&a_->qp.sq, &wr, nullptr) <= 0) return -1;
        posted++;
      }
      rnicp_ring_sq(&a_->db, a_->qp.qpn, a_->qp.sq.pi);
      int n = poll_some(a_, wc, 16, sc_time(2, SC_MS));
      if (n <= 0) return fail("stream of " + std::to_string(size) + " B: no completion", posted, done);
      for (int i = 0; i < n; i++) {
        if (wc[i].status || wc[i].qpn != a_->qp.qpn)
          return fail("stream: status " + std::to_string(wc[i].status) + " qpn " + std::to_string(wc[i].qpn), posted, done);
        rnicp_sq_complete(&a_->qp.sq, uint16_t(wc[i].wqe_index));
      }
      done += n;
      if (op == RNIC_WQE_OP_SEND) {  // drain the receiver's completions too
        rnicp_wc bw[16];
        int m = 0;
        while (m < n) {
          int k = b_->poll(bw, n - m, sc_time(2, SC_MS));
          if (k <= 0) return fail("SEND: no receive completion", posted, done);
          for (int i = 0; i < k; i++) rnicp_rq_complete(&b_->qp.rq, uint16_t(bw[i].wqe_index));
          m += k;
        }
      }
    }
    return (sc_time_stamp() - t0).to_seconds();
  }

  // Runs fn and returns the NIC cycles per wall second over it, summed over both NICs.
  // Per CPU second too (*cpu): on a loaded machine the wall figure drops, the CPU one much less.
  template <class F> double speed(F fn, double *cpu) {
    sc_time s0 = sc_time_stamp();
    auto w0 = std::chrono::steady_clock::now();
    std::clock_t c0 = std::clock();
    bool good = fn();
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
    double cs = double(std::clock() - c0) / CLOCKS_PER_SEC;
    double cyc = 2 * (sc_time_stamp() - s0).to_seconds() * 250e6;
    *cpu = good && cs > 0 ? cyc / cs : -1;
    return good && wall > 0 ? cyc / wall : -1;
  }

  double fail(const std::string &why, unsigned posted, unsigned done) {
    std::printf("bench: %s (posted %u, completed %u)\n", why.c_str(), posted, done);
    return -1;
  }

  // count signaled WRITEs of size bytes spread round robin over nqp of the extra QPs of host a,
  // at most kQpDepth outstanding per QP; one doorbell per QP per round. Seconds, or -1.
  double stream_qps(unsigned nqp, uint32_t size, unsigned count) {
    std::vector<SendQp> qps;
    for (unsigned i = 0; i < nqp; i++) qps.push_back({xa_[i].qpn, &xa_[i].sq});
    std::vector<unsigned> out(nqp, 0);
    rnicp_wc wc[32];
    unsigned posted = 0, done = 0;
    sc_time t0 = sc_time_stamp();
    while (done < count) {
      for (unsigned q = 0; q < nqp && posted < count; q++) {
        bool any = false;
        while (posted < count && out[q] < kQpDepth && rnicp_sq_room(qps[q].sq) >= 2) {
          uint64_t off = uint64_t(q) * (kBuf / 8) + (posted % 4) * size;
          rnicp_sge sge{abuf_ + off, size, akey_};
          rnicp_send_wr wr{};
          wr.wr_id = posted;
          wr.opcode = RNIC_WQE_OP_RDMA_WRITE;
          wr.flags = RNICP_WR_SIGNALED;
          wr.sg_list = &sge;
          wr.num_sge = 1;
          wr.remote_addr = bbuf_ + off;
          wr.rkey = bkey_;
          if (rnicp_sq_post(qps[q].sq, &wr, nullptr) <= 0) return -1;
          posted++, out[q]++, any = true;
        }
        if (any) rnicp_ring_sq(&a_->db, qps[q].qpn, qps[q].sq->pi);
      }
      int n = poll_some(a_, wc, 32, sc_time(2, SC_MS));
      if (n <= 0) {
        std::string o;
        for (unsigned q = 0; q < nqp; q++) o += " " + std::to_string(out[q]);
        for (RdmaHost *h : {a_, b_}) {
          o += "; nic" + std::to_string(h == b_) + ": db_dropped " +
               std::to_string(rnic_rd32(&h->os, RNIC_REG_DOORBELL_DB_DROPPED));
          for (unsigned k = 0; k < RNIC_NUM_COUNTERS; k++)
            if (uint32_t v = rnic_rd32(&h->os, RNIC_COUNTER_BASE + 4 * k))
              o += std::string(" ") + rnic_counter_names[k] + " " + std::to_string(v);
        }
        return fail("8 QPs: no completion; outstanding per QP" + o, posted, done);
      }
      for (int i = 0; i < n; i++) {
        if (wc[i].status) return fail("8 QPs: status " + std::to_string(wc[i].status), posted, done);
        unsigned q = 0;
        while (q < nqp && qps[q].qpn != wc[i].qpn) q++;
        if (q == nqp || !out[q]) return fail("8 QPs: CQE of qpn " + std::to_string(wc[i].qpn), posted, done);
        rnicp_sq_complete(qps[q].sq, uint16_t(wc[i].wqe_index));
        out[q]--;
      }
      done += n;
    }
    return (sc_time_stamp() - t0).to_seconds();
  }

  // count signaled READs of size bytes (b's memory into a's), up to kReadDepth outstanding;
  // seconds or -1.
  // The data is checked at the end: the last READ's bytes equal the source.
  double stream_read(uint32_t size, unsigned count) {
    rnicp_wc wc[8];
    unsigned posted = 0, done = 0;
    uint64_t dst = abuf_ + kBuf / 2;
    a_->mem->fill(dst, 0, size);
    sc_time t0 = sc_time_stamp();
    while (done < count) {
      bool any = false;
      while (posted < count && rnicp_sq_room(&a_->qp.sq) >= 2 && posted - done < kReadDepth) {
        rnicp_sge sge{dst, size, akey_};
        rnicp_send_wr wr = rdma_wr(RNIC_WQE_OP_RDMA_READ, &sge, posted, bbuf_);
        if (rnicp_sq_post(&a_->qp.sq, &wr, nullptr) <= 0) return -1;
        posted++, any = true;
      }
      if (any) rnicp_ring_sq(&a_->db, a_->qp.qpn, a_->qp.sq.pi);
      int n = poll_some(a_, wc, 8, sc_time(2, SC_MS));
      if (n <= 0) return fail("READ of " + std::to_string(size) + " B: no completion", posted, done);
      for (int i = 0; i < n; i++) {
        if (wc[i].status || wc[i].opcode != RNIC_WC_OPCODE_RDMA_READ)
          return fail("READ: status " + std::to_string(wc[i].status) + " opcode " + std::to_string(wc[i].opcode), posted, done);
        rnicp_sq_complete(&a_->qp.sq, uint16_t(wc[i].wqe_index));
      }
      done += n;
    }
    double t = (sc_time_stamp() - t0).to_seconds();
    return a_->mem->read_vec(dst, size) == b_->mem->read_vec(bbuf_, size) ? t : fail("READ: data differs", posted, done);
  }

  // A signaled WRITE or READ of one SGE at b's remote_addr.
  rnicp_send_wr rdma_wr(uint32_t op, rnicp_sge *sge, uint64_t id, uint64_t remote_addr) const {
    rnicp_send_wr wr{};
    wr.wr_id = id;
    wr.opcode = op;
    wr.flags = RNICP_WR_SIGNALED;
    wr.sg_list = sge;
    wr.num_sge = 1;
    wr.remote_addr = remote_addr;
    wr.rkey = bkey_;
    return wr;
  }

  // count READs of size bytes on a fresh QP pair (max_rd_atomic = depth <= kReadOut), up to depth
  // outstanding, READ i from b's buffer at slot i % kReadOut into a's second half at the same slot
  // (so no two outstanding READs share bytes); every byte of the slots checked at the end. Seconds from the first
  // doorbell to the last CQE, or -1.
  double read_depth(uint32_t size, unsigned count, unsigned depth) {
    RdmaQp x, y;
    RdmaConnOpts o;
    o.max_rd_atomic = o.max_dest_rd_atomic = depth;
    if (!(x.create(a_) && y.create(b_) && x.connect(y, 0x300, 0x400, o) && y.connect(x, 0x400, 0x300, o)))
      return fail("READ depth: QP pair: " + x.err + y.err, 0, 0);
    uint64_t dst = abuf_ + kBuf / 2;
    const unsigned slots = count < kReadOut ? count : kReadOut;
    if (uint64_t(size) * slots > kBuf / 2 || depth > kReadOut) return fail("READ depth: too many bytes", 0, 0);
    a_->mem->fill(dst, 0, size * slots);
    rnicp_wc wc[16];
    unsigned posted = 0, done = 0;
    sc_time t0 = sc_time_stamp();
    while (done < count) {
      bool any = false;
      while (posted < count && posted - done < depth && rnicp_sq_room(&x.sq) >= 2) {
        rnicp_sge sge{dst + uint64_t(posted % slots) * size, size, akey_};
        rnicp_send_wr wr = rdma_wr(RNIC_WQE_OP_RDMA_READ, &sge, posted, bbuf_ + uint64_t(posted % slots) * size);
        if (x.post_send_nodb(wr) <= 0) return fail("READ depth: post", posted, done);
        posted++, any = true;
      }
      if (any) x.ring();
      int n = x.poll(wc, 1, sc_time(2, SC_MS));
      if (n <= 0) return fail("READ depth: no completion", posted, done);
      n += x.poll_now(wc + n, 15);
      for (int i = 0; i < n; i++)
        if (wc[i].status || wc[i].opcode != RNIC_WC_OPCODE_RDMA_READ || wc[i].wr_id != done + unsigned(i))
          return fail("READ depth: status " + std::to_string(wc[i].status) + " wr_id " + std::to_string(wc[i].wr_id),
                      posted, done);
      done += unsigned(n);
    }
    double t = (sc_time_stamp() - t0).to_seconds();
    return a_->mem->read_vec(dst, size * slots) == b_->mem->read_vec(bbuf_, size * slots)
               ? t : fail("READ depth: data differs", posted, done);
  }

  void read_depths() {
    double t = read_depth(65536, 32, 1);
    read_64k_out1_gbps = t > 0 ? 65536 * 8.0 * 32 / t / 1e9 : -1;
    t = read_depth(65536, kReadOut, kReadOut);
    read_64k_out16_gbps = t > 0 ? 65536 * 8.0 * kReadOut / t / 1e9 : -1;
  }

  void long_streams() {
    double t = stream(RNIC_WQE_OP_RDMA_WRITE, 65536, kLongMsgs);
    write_64k_long_gbps = t > 0 ? 65536 * 8.0 * kLongMsgs / t / 1e9 : -1;
    t = stream(RNIC_WQE_OP_SEND, 65536, kLongMsgs);
    send_64k_long_gbps = t > 0 ? 65536 * 8.0 * kLongMsgs / t / 1e9 : -1;
    t = read_depth(65536, kLongMsgs, kReadOut);
    read_64k_out16_long_gbps = t > 0 ? 65536 * 8.0 * kLongMsgs / t / 1e9 : -1;
  }

  // --large: the 64 KiB figures only (WRITE and SEND streams on the host's QP as in the sweep,
  // the 16-deep SEND stream, READ with 1 and 16 outstanding).
  // BENCH_LARGE_ONLY=write|send|send16|read1|read16|long|none runs one of them (none: the set-up
  // alone), so a PC profile minus the set-up's is that phase's (docs/firmware.md).
  void large() {
    const char *e = getenv("BENCH_LARGE_ONLY");
    std::string only = e ? e : "";
    auto want = [&](const char *ph) { return only.empty() || only == ph; };
    Point p{65536, -1, -1, -1};
    double t;
    if (want("write")) {
      t = stream(RNIC_WQE_OP_RDMA_WRITE, 65536, 8);
      p.write = t > 0 ? 65536 * 8.0 * 8 / t / 1e9 : -1;
    }
    if (want("send")) {
      t = stream(RNIC_WQE_OP_SEND, 65536, 8);
      p.send = t > 0 ? 65536 * 8.0 * 8 / t / 1e9 : -1;
    }
    sweep.push_back(p);
    if (want("send16")) recv_stream(65536, 16, &send64k_gbps, &send64k_rnr);
    if (want("read1")) {
      t = read_depth(65536, 32, 1);
      read_64k_out1_gbps = read_64k_gbps = t > 0 ? 65536 * 8.0 * 32 / t / 1e9 : -1;
    }
    if (want("read16")) {
      t = read_depth(65536, kReadOut, kReadOut);
      read_64k_out16_gbps = t > 0 ? 65536 * 8.0 * kReadOut / t / 1e9 : -1;
    }
    if (want("long")) long_streams();
  }

  void run() {
    ok = a_->open() && b_->open();
    abuf_ = a_->mem->alloc(kBuf, 1u << 21);  // 2 MiB pages: a short translation table
    bbuf_ = b_->mem->alloc(kBuf, 1u << 21);
    ok = ok && a_->reg_mr(abuf_, kBuf, &akey_, 21) && b_->reg_mr(bbuf_, kBuf, &bkey_, 21);
    ok = ok && a_->connect(*b_, 0, 0) && b_->connect(*a_, 0, 0);
    // The extra QPs complete into their host's own CQ (one CQ polled for all of them).
    for (unsigned i = 0; ok && i < kExtraQps; i++)
      ok = xa_[i].create(a_, 0, RNIC_QP_TYPE_RC, a_->qp.cqn) && xb_[i].create(b_, 0, RNIC_QP_TYPE_RC, b_->qp.cqn);
    RdmaConnOpts o;  // as RdmaHost::connect, with the bench's ACK timeout
    o.timeout = kQpTimeout;
    o.min_rnr_timer = 12;
    o.access = 0x7;
    for (unsigned i = 0; ok && i < kExtraQps; i++)
      ok = xa_[i].connect(xb_[i], 0, 0, o) && xb_[i].connect(xa_[i], 0, 0, o);
    if (!ok) {
      err = a_->err + b_->err + " (or the extra QPs)";
      sc_stop();
      return;
    }
    std::vector<uint8_t> pat(kBuf);
    for (size_t i = 0; i < pat.size(); i++) pat[i] = uint8_t(i * 7 + 3);
    a_->mem->write(abuf_, pat.data(), kBuf);
    for (size_t i = 0; i < pat.size(); i++) pat[i] = uint8_t(i * 13 + 5);
    b_->mem->write(bbuf_, pat.data(), kBuf);

    double t;
    if (loss_only_) {  // --loss: only the goodput under loss (the other figures stay unmeasured)
      if (link_) lossy();
      sc_stop();
      return;
    }
    if (large_only_) {
      large();
      sc_stop();
      return;
    }
    if (!speed_only_.empty()) {
      if (speed_only_ == "idle") speed_idle = speed([&] { wait(sc_time(2, SC_MS)); return true; }, &cpu_idle);
      if (speed_only_ == "write") speed_write_64k = speed([&] { return stream_qps(1, 65536, 128) > 0; }, &cpu_write_64k);
      if (speed_only_ == "msg") speed_msg_64b = speed([&] { return stream(RNIC_WQE_OP_RDMA_WRITE, 64, 1024) > 0; }, &cpu_msg_64b);
      sc_stop();
      return;
    }

    // Goodput against message size first, on fresh QPs.
    if (!quick_) {
      for (uint32_t size : {64u, 256u, 1024u, 4096u, 8192u, 16384u, 65536u, 262144u, 1048576u}) {
        unsigned count = size >= 65536 ? 8 : 32;
        Point p{size, -1, -1, -1};
        t = stream(RNIC_WQE_OP_RDMA_WRITE, size, count);
        p.write = t > 0 ? size * 8.0 * count / t / 1e9 : -1;
        uint32_t ssize = size > 1048576 / 4 ? 1048576 / 4 : size;
        t = stream(RNIC_WQE_OP_SEND, ssize, count);
        p.send = t > 0 ? ssize * 8.0 * count / t / 1e9 : -1;
        sweep.push_back(p);
      }
    }

    FwCounters c0, c1;
    // 64-byte WRITE message rate, one QP, signaled each; the firmware's cycles per WQE over it.
    counters(a_, &c0);
    speed_msg_64b = speed([&] { return (t = stream(RNIC_WQE_OP_RDMA_WRITE, 64, 256)) > 0; }, &cpu_msg_64b);
    counters(a_, &c1);
    rate_64b_mps = t > 0 ? 256 / t / 1e6 : -1;
    cost_rate = fw_cost(c0, c1);

    // The responder's firmware per received SEND (64 B stream, one QP): the RQ doorbell that
    // hands the receive WQE over plus the RECV_DONE event that completes it.
    counters(b_, &c0);
    t = stream(RNIC_WQE_OP_SEND, 64, 64);
    counters(b_, &c1);
    if (t > 0) {
      cost_recv.sq = double(c1.db_cycles - c0.db_cycles) / 64;
      cost_recv.cq = double(c1.ev_cycles - c0.ev_cycles) / 64;
      cost_recv.total = cost_recv.sq + cost_recv.cq;
    }

    // The same over 8 QPs (the 64-byte rate and the 64 KiB goodput).
    uint32_t drop0 = rnic_rd32(&a_->os, RNIC_COUNTER_BASE + 4 * RNIC_CNT_RX_DROP_TRUNC);
    counters(a_, &c0);
    t = stream_qps(kExtraQps, 64, 512);
    counters(a_, &c1);
    rate_64b_8qp_mps = t > 0 ? 512 / t / 1e6 : -1;
    cost_rate_8qp = fw_cost(c0, c1);
    drops_8qp = rnic_rd32(&a_->os, RNIC_COUNTER_BASE + 4 * RNIC_CNT_RX_DROP_TRUNC) - drop0;
    timeouts_8qp = (c1.wqes - c0.wqes) - 512;  // WQEs sent again after an ACK timeout
    if (!quick_) {
      t = stream_qps(kExtraQps, 65536, 32);
      write_8qp_gbps = t > 0 ? 65536 * 8.0 * 32 / t / 1e9 : -1;
    }

    // 8-byte WRITE latency, posted with an SQ doorbell and with BlueFlame (the WQE in the
    // doorbell write itself, as a provider posts a single small WQE).
    counters(a_, &c0);
    latency(false, &lat_oneway_db_ns, &lat_cqe_db_ns);
    counters(a_, &c1);
    cost_lat = fw_cost(c0, c1);
    latency(true, &lat_oneway_ns, &lat_cqe_ns);

    // READs last: a READ that goes wrong leaves the QP stalled.
    if (!quick_) {
      for (auto &p : sweep) {
        if (p.size > kReadMax) break;
        unsigned count = 32;
        t = stream_read(p.size, count);
        p.read = t > 0 ? p.size * 8.0 * count / t / 1e9 : -1;
        if (p.size == 8192) read_8k_gbps = p.read;
        if (p.size == 65536) read_64k_gbps = p.read;
        if (t <= 0) break;
      }
    }

    if (!quick_) read_depths(), long_streams();

    // Speed phases, last: both NICs idle (firmware polling, links quiet), then 64 KiB WRITEs
    // on the first extra QP (the 1-QP one may be stalled by a READ that went wrong).
    speed_idle = speed([&] { wait(sc_time(400, SC_US)); return true; }, &cpu_idle);
    speed_write_64k = speed([&] { return stream_qps(1, 65536, 32) > 0; }, &cpu_write_64k);
    recv_stream(4096, kRecvCount, &send4k_gbps, &send4k_rnr);
    recv_stream(65536, 16, &send64k_gbps, &send64k_rnr);
    ud_burst();
    if (!quick_ && link_) lossy();
    sc_stop();
  }

  uint32_t counter(RdmaHost *h, uint32_t idx) { return rnic_rd32(&h->os, RNIC_COUNTER_BASE + 4 * idx); }

  // A signaled SEND of one SGE.
  static rnicp_send_wr send_wr(const rnicp_sge *sge, uint64_t id) {
    rnicp_send_wr wr{};
    wr.wr_id = id;
    wr.opcode = RNIC_WQE_OP_SEND;
    wr.flags = RNICP_WR_SIGNALED;
    wr.sg_list = const_cast<rnicp_sge *>(sge);
    wr.num_sge = 1;
    return wr;
  }
  // Takes q's completions now into *n (false on an error status or, with len, another length).
  static bool take(RdmaQp &q, unsigned *n, uint32_t len = 0) {
    rnicp_wc wc[16];
    int k = q.poll_now(wc, 16);
    for (int i = 0; i < k; i++)
      if (wc[i].status || (len && wc[i].byte_len != len)) return false;
    *n += unsigned(k);
    return true;
  }

  // count SENDs of size bytes from a to b on a fresh RC pair, kRecvDepth outstanding; b keeps
  // its RQ (32) full, so an RNR NAK means the NIC had not handed a posted WQE to the receive
  // engine in time. The last SEND's bytes are checked. Goodput and RNR NAKs into *gbps, *rnr.
  void recv_stream(const uint32_t size, const unsigned count, double *gbps, int64_t *rnr) {
    RdmaQp x, y;
    RdmaConnOpts o;
    o.min_rnr_timer = 1;  // 10 us: an RNR costs a little time, not the run
    if (!(x.create(a_) && y.create(b_) && x.connect(y, 0x100, 0x200, o) && y.connect(x, 0x200, 0x100, o))) return;
    const uint32_t rq = 1u << RdmaQp::kRqLog;
    uint64_t dst = bbuf_ + kBuf / 2;
    unsigned posted = 0, done = 0, rposted = 0, rdone = 0;
    auto post_recvs = [&] {
      while (rposted - rdone < rq && rposted < count) {
        rnicp_sge rs{dst + (rposted % 8) * size, size, bkey_};
        rnicp_recv_wr rwr{rposted, &rs, 1};
        if (y.post_recv(rwr)) break;
        rposted++;
      }
    };
    post_recvs();
    wait(sc_time(20, SC_US));  // the receives are with the NIC before the first SEND
    uint32_t rnr0 = counter(b_, RNIC_CNT_RX_RNR_SENT);
    sc_time t0 = sc_time_stamp(), end = t0 + sc_time(20, SC_MS);
    while ((done < count || rdone < count) && sc_time_stamp() < end) {
      bool any = false;
      while (posted < count && posted - done < kRecvDepth && rnicp_sq_room(&x.sq) >= 2) {
        rnicp_sge sge{abuf_ + (posted % 8) * size, size, akey_};
        if (x.post_send_nodb(send_wr(&sge, posted)) <= 0) break;
        posted++, any = true;
      }
      if (any) x.ring();
      unsigned r0 = rdone;
      if (!take(x, &done) || !take(y, &rdone, size)) return;
      if (rdone != r0) post_recvs();
      else wait(sc_time(20, SC_NS));
    }
    if (done < count || rdone < count) return;
    double t = (sc_time_stamp() - t0).to_seconds();
    unsigned last = count - 1;
    if (b_->mem->read_vec(dst + (last % 8) * size, size) != a_->mem->read_vec(abuf_ + (last % 8) * size, size)) return;
    *gbps = size * 8.0 * count / t / 1e9;
    *rnr = counter(b_, RNIC_CNT_RX_RNR_SENT) - rnr0;
  }

  // kUdCount UD SENDs of kUdBytes from a to b, posted as fast as a's SQ takes them (signaled, so
  // its ring frees); b's RQ (32 WQEs) starts full and the host reposts every completed one at
  // once. Received = b's receive CQEs; the rest were dropped for want of a handed-over buffer.
  void ud_burst() {
    RdmaQp x, y;
    const uint32_t qkey = 0x2222;
    if (!(x.create(a_, 0, RNIC_QP_TYPE_UD) && y.create(b_, 0, RNIC_QP_TYPE_UD) && x.ud_ready(qkey, 0x10) &&
          y.ud_ready(qkey, 0x20)))
      return;
    rnic_create_ah_in ah{};
    ah.pdn = a_->pdn;
    ah.dest_ipv4 = b_->ipv4;
    ah.hop_limit = 64;
    std::memcpy(ah.dmac, b_->mac, 6);
    uint32_t ahn = 0;
    if (rnic_cmd_create_ah(&a_->q, &ah, &ahn)) return;
    const uint32_t rq = 1u << RdmaQp::kRqLog, rlen = kUdBytes + 40;
    uint64_t dst = bbuf_ + kBuf / 2;
    unsigned rposted = 0, rdone = 0, posted = 0, done = 0;
    auto post_recvs = [&] {
      while (rposted - rdone < rq) {
        rnicp_sge rs{dst + (rposted % rq) * 2048, rlen, bkey_};
        rnicp_recv_wr rwr{rposted, &rs, 1};
        if (y.post_recv(rwr)) break;
        rposted++;
      }
    };
    post_recvs();
    wait(sc_time(20, SC_US));
    sc_time t0 = sc_time_stamp(), end = t0 + sc_time(20, SC_MS), t_last = t0;
    while (done < kUdCount && sc_time_stamp() < end) {
      bool any = false;
      while (posted < kUdCount && rnicp_sq_room(&x.sq) >= 4) {
        rnicp_sge sge{abuf_ + (posted % 8) * kUdBytes, kUdBytes, akey_};
        rnicp_send_wr wr = send_wr(&sge, posted);
        wr.ahn = ahn;
        wr.remote_qpn = y.qpn;
        wr.remote_qkey = qkey;
        if (x.post_send_nodb(wr) <= 0) break;
        posted++, any = true;
      }
      if (any) x.ring();
      unsigned d0 = done, r0 = rdone;
      if (!take(x, &done) || !take(y, &rdone, rlen)) return;
      if (rdone != r0) t_last = sc_time_stamp(), post_recvs();
      if (done == d0 && rdone == r0) wait(sc_time(20, SC_NS));
    }
    if (done < kUdCount) return;
    sc_time quiet = sc_time_stamp() + sc_time(50, SC_US);  // the last datagrams land
    while (sc_time_stamp() < quiet) {
      unsigned r0 = rdone;
      if (!take(y, &rdone, rlen)) return;
      if (rdone != r0) t_last = sc_time_stamp(), post_recvs();
      wait(sc_time(100, SC_NS));
    }
    ud_received = rdone;
    ud_dropped = int64_t(kUdCount) - int64_t(rdone);
    ud_us = (t_last - t0).to_seconds() * 1e6;
  }

  // count WQEs of op (WRITE or READ, size bytes) on x, one READ / up to 4 WRITEs in flight; the
  // last one's bytes checked; seconds or -1.
  double lossy_stream(RdmaQp &x, uint32_t op, uint32_t size, unsigned count) {
    bool rd = op == RNIC_WQE_OP_RDMA_READ;
    uint64_t dst = rd ? abuf_ + kBuf / 2 : bbuf_ + kBuf / 2;
    (rd ? a_ : b_)->mem->fill(dst, 0, size);
    unsigned posted = 0, done = 0, depth = rd ? 1 : 4;
    rnicp_wc wc[8];
    sc_time t0 = sc_time_stamp();
    while (done < count) {
      while (posted < count && posted - done < depth) {
        rnicp_sge sge{rd ? dst : abuf_, size, akey_};
        rnicp_send_wr wr{};
        wr.wr_id = posted;
        wr.opcode = op;
        wr.flags = RNICP_WR_SIGNALED;
        wr.sg_list = &sge;
        wr.num_sge = 1;
        wr.remote_addr = rd ? bbuf_ : dst;
        wr.rkey = bkey_;
        if (x.post_send(wr) <= 0) return -1;
        posted++;
      }
      int n = x.poll(wc, 1, sc_time(20, SC_MS));  // the first one (or 20 ms), then what is there
      if (n <= 0) return -1;
      n += x.poll_now(wc + 1, 7);
      for (int i = 0; i < n; i++)
        if (wc[i].status != RNIC_WC_STATUS_SUCCESS) return -1;
      done += unsigned(n);
    }
    double t = (sc_time_stamp() - t0).to_seconds();
    bool same = rd ? a_->mem->read_vec(dst, size) == b_->mem->read_vec(bbuf_, size)
                   : b_->mem->read_vec(dst, size) == a_->mem->read_vec(abuf_, size);
    return same ? t : -1;
  }

  // WRITE and READ goodput of 64 KiB and 1 MiB messages with 1 % and 5 % of the frames lost in
  // each direction, on a fresh QP pair (MTU 4096, local ACK timeout 4.096 us * 2^3 = 33 us).
  void lossy() {
    std::mt19937_64 rng(1);
    double p = 0;
    uint64_t lost = 0;
    link_->lose_if = [&](int, const std::vector<uint8_t> &) {
      bool l = p > 0 && std::uniform_real_distribution<double>(0, 1)(rng) < p;
      lost += l;
      return l;
    };
    RdmaQp x, y;
    RdmaConnOpts o;
    o.timeout = 3;
    bool ok = x.create(a_) && y.create(b_) && x.connect(y, 0x10, 0x20, o) && y.connect(x, 0x20, 0x10, o);
    const uint32_t sizes[2] = {65536, 1u << 20};
    const double rates[2] = {0.01, 0.05};
    for (int k = 0; ok && k < 2; k++)
      for (int s = 0; ok && s < 2; s++)
        for (int o2 = 0; o2 < 2; o2++) {
          p = rates[k];
          unsigned count = sizes[s] > 65536 ? 2 : 8;
          double t = lossy_stream(x, o2 ? RNIC_WQE_OP_RDMA_READ : RNIC_WQE_OP_RDMA_WRITE, sizes[s], count);
          lossy_gbps[o2][s][k] = t > 0 ? sizes[s] * 8.0 * count / t / 1e9 : -1;
          if (t <= 0) ok = false;  // a QP that failed stays in error: the rest is null
        }
    p = 0;
    lossy_lost = lost;
    link_->lose_if = nullptr;
  }

 public:
  static constexpr uint32_t kReadMax = 65536;
  // READs in flight: the firmware does not hold READs back to the QP's max_rd_atomic (4) yet,
  // and more than that outstanding stalls the QP.
  static unsigned read_depth() { const char *e = getenv("BENCH_READ_DEPTH"); return e ? unsigned(atoi(e)) : 1; }
  const unsigned kReadDepth = read_depth();

 private:
  RdmaHost *a_, *b_;
};

std::string num(double v, const char *fmt = "%.3f") {
  if (v < 0) return "null";
  char b[64];
  std::snprintf(b, sizeof(b), fmt, v);
  return b;
}

int bench_rdma(int argc, char **argv) {
  const char *out = "build/bench";
  bool quick = false, loss_only = false, large_only = false;
  std::string speed_only;
  for (int i = 1; i < argc; i++) {
    if (!std::strcmp(argv[i], "--quick")) quick = true;
    else if (!std::strcmp(argv[i], "--speed") && i + 1 < argc) speed_only = argv[++i];
    else if (!std::strcmp(argv[i], "--loss")) loss_only = true;
    else if (!std::strcmp(argv[i], "--large")) large_only = true;
    else out = argv[i];
  }
  EthLinkCfg lc;  // BENCH_PCAP=FILE: a capture of the run (frame spacing, docs/firmware.md)
  if (const char *pc = getenv("BENCH_PCAP")) lc.pcap_path = pc;
  TwoNics<RdmaHost> s(lc);
  Bench bench("bench", &s.a, &s.b, quick, speed_only);
  bench.link_ = &s.link;
  bench.loss_only_ = loss_only;
  bench.large_only_ = large_only;
  auto w0 = std::chrono::steady_clock::now();
  sc_start();
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
  if (!bench.ok) {
    std::printf("bench: setup failed: %s\n", bench.err.c_str());
    return 1;
  }
  double cycles = sc_time_stamp().to_seconds() * 250e6;
  if (!speed_only.empty()) {
    double v = std::max(bench.speed_idle, std::max(bench.speed_write_64k, bench.speed_msg_64b));
    double c = std::max(bench.cpu_idle, std::max(bench.cpu_write_64k, bench.cpu_msg_64b));
    std::printf("INFO speed %s: %.3f M NIC cycles per wall second summed over both NICs (%.3f M per CPU second)\n",
                speed_only.c_str(), v / 1e6, c / 1e6);
    return v > 0 ? 0 : 1;
  }
  std::printf("\n## RDMA between two simulated NICs (250 MHz, 512-bit datapath, MTU 4096, PCIe model 500 ns read / 250 ns write, seed 1)\n\n");
  if (!quick && !large_only) {
    std::printf("| message | WRITE Gb/s (1 QP) | SEND Gb/s (1 QP) | READ Gb/s (1 QP) |\n|---|---|---|---|\n");
    for (auto &p : bench.sweep)
      std::printf("| %u B | %.2f | %.2f | %s |\n", p.size, p.write, p.send,
                  p.size <= Bench::kReadMax ? num(p.read, "%.2f").c_str() : "n/a");
  }
  std::printf("\n| figure | value | target |\n|---|---|---|\n");
  double w64k = -1, s64k = -1;
  for (auto &p : bench.sweep)
    if (p.size == 65536) w64k = p.write, s64k = p.send;
  if (!quick) {
    std::printf("| 64 KiB WRITE goodput, 1 QP | %s Gb/s | >= 97 |\n", num(w64k, "%.2f").c_str());
    std::printf("| 64 KiB WRITE goodput, 8 QPs | %s Gb/s | |\n", num(bench.write_8qp_gbps, "%.2f").c_str());
    std::printf("| 64 KiB SEND goodput, 1 QP | %s Gb/s | >= 95 |\n", num(s64k, "%.2f").c_str());
    std::printf("| 8 KiB READ goodput, 1 QP (one in flight) | %s Gb/s | |\n", num(bench.read_8k_gbps, "%.2f").c_str());
    std::printf("| 64 KiB READ goodput, 1 QP (one in flight) | %s Gb/s | >= 95 |\n", num(bench.read_64k_gbps, "%.2f").c_str());
    std::printf("| 64 KiB READ goodput, 1 QP, 1 outstanding (32 READs, fresh QP) | %s Gb/s | |\n",
                num(bench.read_64k_out1_gbps, "%.2f").c_str());
    std::printf("| 64 KiB READ goodput, 1 QP, %u outstanding (%u READs, max_rd_atomic %u) | %s Gb/s | >= 95 |\n",
                Bench::kReadOut, Bench::kReadOut, Bench::kReadOut, num(bench.read_64k_out16_gbps, "%.2f").c_str());
    std::printf("| 64 KiB WRITE goodput, 1 QP, %u messages 16 deep | %s Gb/s | >= 97 |\n", Bench::kLongMsgs,
                num(bench.write_64k_long_gbps, "%.2f").c_str());
    std::printf("| 64 KiB SEND goodput, 1 QP, %u messages 16 deep | %s Gb/s | >= 95 |\n", Bench::kLongMsgs,
                num(bench.send_64k_long_gbps, "%.2f").c_str());
    std::printf("| 64 KiB READ goodput, 1 QP, %u READs %u outstanding | %s Gb/s | >= 95 |\n", Bench::kLongMsgs,
                Bench::kReadOut, num(bench.read_64k_out16_long_gbps, "%.2f").c_str());
  }
  if (!quick && !large_only) {
    const char *op[2] = {"WRITE", "READ"}, *sz[2] = {"64 KiB", "1 MiB"}, *lr[2] = {"1 %", "5 %"};
    for (int o = 0; o < 2; o++)
      for (int s = 0; s < 2; s++)
        for (int k = 0; k < 2; k++)
          std::printf("| %s %s goodput, 1 QP, %s of frames lost each way | %s Gb/s | |\n", sz[s], op[o], lr[k],
                      num(bench.lossy_gbps[o][s][k], "%.2f").c_str());
  }
  std::printf("| 8 B WRITE (BlueFlame), doorbell to remote memory | %.0f ns | <= 1050 |\n", bench.lat_oneway_ns);
  std::printf("| 8 B WRITE (BlueFlame), doorbell to requester CQE | %.0f ns | |\n", bench.lat_cqe_ns);
  std::printf("| 8 B WRITE (sq_db, WQE read from the ring), doorbell to remote memory | %.0f ns | |\n", bench.lat_oneway_db_ns);
  std::printf("| 8 B WRITE (sq_db, WQE read from the ring), doorbell to requester CQE | %.0f ns | |\n", bench.lat_cqe_db_ns);
  std::printf("| 8 B WRITE: host time of the doorbell writes, BlueFlame (bf_data + bf_db) / sq_db | %.0f / %.0f ns | |\n",
              bench.lat_issue_bf_ns, bench.lat_issue_db_ns);
  for (int k = 0; k < 2; k++) {
    const LatSplit &p = bench.split[k];
    const char *how = k ? "sq_db" : "BlueFlame";
    std::printf("| 8 B WRITE (%s) split: host doorbell write / doorbell at the NIC to first byte on the wire / first to"
                " last byte sent (payload DMA read) / link (last byte sent to last byte received) / last byte received"
                " to remote DMA write issued / PCIe write | %s / %s / %s / %s / %s / %s ns | |\n",
                how, num(p.host, "%.0f").c_str(), num(p.tx, "%.0f").c_str(), num(p.frame, "%.0f").c_str(),
                num(p.link, "%.0f").c_str(), num(p.rx, "%.0f").c_str(), num(p.pcie, "%.0f").c_str());
    std::printf("| 8 B WRITE (%s): the NIC's own share (doorbell to first byte on the wire + last byte received to DMA"
                " write issued) | %s ns | <= 300 |\n",
                how, num(p.ok ? p.tx + p.rx : -1, "%.0f").c_str());
  }
  std::printf("| 64 B WRITE message rate, 1 QP | %.3f M/s | >= 3 |\n", bench.rate_64b_mps);
  std::printf("| 64 B WRITE message rate, 8 QPs | %.3f M/s | >= 10 |\n", bench.rate_64b_8qp_mps);
  std::printf("| firmware cycles per WQE, 64 B WRITE stream, 1 QP (doorbell + completion) | %.0f (%.0f + %.0f) | <= 60 |\n",
              bench.cost_rate.total, bench.cost_rate.sq, bench.cost_rate.cq);
  std::printf("| firmware cycles per WQE, 64 B WRITE stream, 8 QPs (resends included) | %.0f (%.0f + %.0f) | |\n",
              bench.cost_rate_8qp.total, bench.cost_rate_8qp.sq, bench.cost_rate_8qp.cq);
  std::printf("| 8 QPs, 64 B stream: ACKs dropped at the requester (rx_drop_trunc) / WQEs resent | %u / %u | 0 |\n",
              bench.drops_8qp, bench.timeouts_8qp);
  std::printf("| firmware cycles, the single 8 B WRITE | %.0f (%.0f + %.0f) | |\n", bench.cost_lat.total,
              bench.cost_lat.sq, bench.cost_lat.cq);
  std::printf("| responder firmware cycles per received 64 B SEND (RQ doorbell + receive event) | %.0f (%.0f + %.0f) | <= 60 |\n",
              bench.cost_recv.total, bench.cost_recv.sq, bench.cost_recv.cq);
  std::printf("| 4 KiB SEND stream, %u deep, 1 QP: goodput / RNR NAKs sent by the responder | %s Gb/s / %lld | 0 RNR NAK |\n",
              Bench::kRecvDepth, num(bench.send4k_gbps, "%.2f").c_str(), (long long)bench.send4k_rnr);
  std::printf("| 64 KiB SEND stream, %u deep, 1 QP (16 messages, receives posted ahead): goodput / RNR NAKs | %s Gb/s / %lld | |\n",
              Bench::kRecvDepth, num(bench.send64k_gbps, "%.2f").c_str(), (long long)bench.send64k_rnr);
  std::printf("| UD burst, %u x %u B datagrams into a 32-deep RQ the host refills: received / dropped (first to last receive) | %lld / %lld (%s us) | 0 dropped |\n",
              Bench::kUdCount, Bench::kUdBytes, (long long)bench.ud_received, (long long)bench.ud_dropped,
              num(bench.ud_us, "%.1f").c_str());
  std::printf("| simulated NIC cycles per wall second (2 NICs) | %.2f M | >= 1 |\n", cycles / wall / 1e6);
  std::printf("| simulation speed, NIC cycles per wall second summed over both NICs: idle (per CPU second) | %.3f M (%.3f M) | |\n",
              bench.speed_idle / 1e6, bench.cpu_idle / 1e6);
  std::printf("| simulation speed, summed over both NICs: 64 KiB WRITE stream, 1 QP (per CPU second) | %.3f M (%.3f M) | >= 1 |\n",
              bench.speed_write_64k / 1e6, bench.cpu_write_64k / 1e6);
  std::printf("| simulation speed, summed over both NICs: 64 B WRITE stream, 1 QP (per CPU second) | %.3f M (%.3f M) | >= 1 |\n",
              bench.speed_msg_64b / 1e6, bench.cpu_msg_64b / 1e6);
  std::string dir(out);
  FILE *j = std::fopen((dir + "/results.json").c_str(), "w");
  if (j) {
    // the 8 B WRITE's latency split (tb/sys/lat_split.h): BlueFlame, then the _sq_db keys
    std::fprintf(j, "{\n");
    for (int k = 0; k < 2; k++) {
      const LatSplit &p = bench.split[k];
      const char *sfx = k ? "_sq_db" : "";
      std::fprintf(j,
                   "  \"write_latency_ns_8B_oneway_host%s\": %s,\n  \"write_latency_ns_8B_oneway_nic_tx%s\": %s,\n"
                   "  \"write_latency_ns_8B_oneway_tx_frame%s\": %s,\n"
                   "  \"write_latency_ns_8B_oneway_link%s\": %s,\n  \"write_latency_ns_8B_oneway_nic_rx%s\": %s,\n"
                   "  \"write_latency_ns_8B_oneway_pcie_write%s\": %s,\n  \"write_latency_ns_8B_nic_share%s\": %s,\n",
                   sfx, num(p.host, "%.1f").c_str(), sfx, num(p.tx, "%.1f").c_str(), sfx, num(p.frame, "%.1f").c_str(),
                   sfx, num(p.link, "%.1f").c_str(),
                   sfx, num(p.rx, "%.1f").c_str(), sfx, num(p.pcie, "%.1f").c_str(), sfx,
                   num(p.ok ? p.tx + p.rx : -1, "%.1f").c_str());
    }
    std::fprintf(j,
                 "  \"write_goodput_gbps_64KiB_1qp\": %s,\n  \"read_goodput_gbps_64KiB_1qp\": %s,\n"
                 "  \"read_goodput_gbps_8KiB_1qp\": %s,\n  \"write_goodput_gbps_64KiB_8qp\": %s,\n"
                 "  \"send_goodput_gbps_64KiB_1qp\": %s,\n"
                 "  \"read_goodput_gbps_64KiB_out1\": %s,\n  \"read_goodput_gbps_64KiB_out16\": %s,\n"
                 "  \"write_goodput_gbps_64KiB_1qp_64msg\": %s,\n  \"send_goodput_gbps_64KiB_1qp_64msg\": %s,\n"
                 "  \"read_goodput_gbps_64KiB_out16_64msg\": %s,\n"
                 "  \"write_latency_ns_8B_oneway\": %s,\n"
                 "  \"write_latency_ns_8B_to_cqe\": %s,\n  \"write_latency_ns_8B_oneway_sq_db\": %s,\n"
                 "  \"write_latency_ns_8B_to_cqe_sq_db\": %s,\n  \"msg_rate_mps_64B_1qp\": %s,\n"
                 "  \"msg_rate_mps_64B_8qp\": %s,\n  \"fw_cycles_per_wqe\": %s,\n"
                 "  \"fw_cycles_per_wqe_doorbell\": %s,\n  \"fw_cycles_per_wqe_completion\": %s,\n"
                 "  \"fw_cycles_per_wqe_8qp\": %s,\n  \"fw_cycles_single_8B_write\": %s,\n"
                 "  \"fw_cycles_per_recv_send\": %s,\n  \"fw_cycles_per_recv_send_doorbell\": %s,\n"
                 "  \"fw_cycles_per_recv_send_event\": %s,\n"
                 "  \"send_goodput_gbps_4KiB_stream16\": %s,\n  \"send_rnr_naks_4KiB_stream16\": %s,\n"
                 "  \"send_goodput_gbps_64KiB_stream16\": %s,\n  \"send_rnr_naks_64KiB_stream16\": %s,\n"
                 "  \"ud_burst_received\": %s,\n  \"ud_burst_dropped\": %s,\n"
                 "  \"sim_cycles_per_sec\": %.0f,\n  \"sim_cycles_per_sec_idle\": %s,\n"
                 "  \"sim_cycles_per_sec_write_64KiB\": %s,\n  \"sim_cycles_per_sec_msg_64B\": %s,\n"
                 "  \"sim_cycles_per_cpu_sec_idle\": %s,\n  \"sim_cycles_per_cpu_sec_write_64KiB\": %s,\n"
                 "  \"sim_cycles_per_cpu_sec_msg_64B\": %s,\n"
                 "  \"write_goodput_gbps_64KiB_loss1pct\": %s,\n  \"write_goodput_gbps_64KiB_loss5pct\": %s,\n"
                 "  \"write_goodput_gbps_1MiB_loss1pct\": %s,\n  \"write_goodput_gbps_1MiB_loss5pct\": %s,\n"
                 "  \"read_goodput_gbps_64KiB_loss1pct\": %s,\n  \"read_goodput_gbps_64KiB_loss5pct\": %s,\n"
                 "  \"read_goodput_gbps_1MiB_loss1pct\": %s,\n  \"read_goodput_gbps_1MiB_loss5pct\": %s,\n"
                 "  \"params\": {\"clock_mhz\": 250, \"data_width\": 512, \"mtu\": 4096,"
                 " \"pcie\": \"read 500 ns, posted write 250 ns, 16 GB/s, polite\", \"seed\": 1, \"quick\": %s},\n"
                 "  \"notes\": \"write_latency_ns_8B_*: the WQE posted by BlueFlame (bf_data as one 64-byte doorbell-BAR beat,"
                 " then bf_db, as a provider posts a single small WQE); the _sq_db figures post it with sq_db, the firmware"
                 " reading it from the ring. Clock from the host issuing the first doorbell write; mean of 8 WRITEs, each"
                 " from idle at a phase of the firmware's main loop 13 cycles after the last."
                 " write_latency_ns_8B_oneway_{host,nic_tx,tx_frame,link,nic_rx,pcie_write}[_sq_db]: the same latency cut"
                 " at the ports (means over the 8): the host's doorbell writes until the NIC took the doorbell burst; to"
                 " the first beat of the request frame on the requester's MAC TX port; to its last beat there (the payload's"
                 " DMA read); to the last beat of it into the responder's MAC RX port; to the responder's DMA write request"
                 " (AW); to the bytes seen in host memory (the host polls every 4 ns). They add up to"
                 " write_latency_ns_8B_oneway[_sq_db]; nic_share = nic_tx + nic_rx (the issue's definition)."
                 " fw_cycles_per_wqe: requester firmware mcycle per WQE over the 64 B WRITE stream (1 QP),"
                 " doorbell seen to tx_desc committed plus ACK event seen to CQE written, from QUERY_COUNTERS."
                 " fw_cycles_per_recv_send: responder firmware mcycle per received SEND over a 64 B SEND stream (1 QP):"
                 " RQ doorbells served plus RECV_DONE events served (CQE written, RQ refilled)."
                 " send_*_4KiB_stream16: 128 SENDs of 4 KiB on a fresh RC pair, 16 outstanding, the receiver's RQ (32)"
                 " kept full by its host; RNR NAKs = the responder's rx_rnr_sent over it. send_*_64KiB_stream16: the same"
                 " with 16 SENDs of 64 KiB (in quick runs too, unlike send_goodput_gbps_64KiB_1qp of the sweep)."
                 " ud_burst_*: 256 UD SENDs of 1 KiB posted as fast as the sender's SQ takes them into a 32-deep RQ"
                 " the receiving host refills on every completion; dropped = 256 - receive CQEs."
                 " READ goodput is measured up to 64 KiB with one READ in flight (null: that READ did not complete)."
                 " read_goodput_gbps_64KiB_out1 / _out16: a fresh QP pair with max_rd_atomic 1 / 16, 32 READs one at a"
                 " time / 16 READs posted at once (16 = the device's max_qp_rd_atom and the receive engine's READ"
                 " contexts), each into its own 64 KiB, every byte checked; first doorbell to last CQE."
                 " *_64msg: the same over 64 messages (WRITE/SEND 16 deep on the 1-QP pair, READ 16 outstanding on a"
                 " fresh pair), so the one start-up and tail weigh 4x (8 msgs) / 8x (16 msgs) less."
                 " --large runs only the 64 KiB figures (the rest null)."
                 " 8 QPs: 8 QPs besides the 1-QP one, one CQ, %u outstanding WQEs per QP,"
                 " ACK timeout %.0f us; in the 64 B run %u ACKs were dropped at the requester (rx_drop_trunc) and %u WQEs"
                 " resent after ACK timeouts, which the 8-QP figures include."
                 " sim_cycles_per_sec: simulated time x 250 MHz per wall second over the whole run (one clock, both NICs"
                 " on it); sim_cycles_per_sec_*: NIC cycles summed over both NICs per wall second while both NICs idle"
                 " (400 us), while 32 WRITEs of 64 KiB run on one QP, and over the 1-QP 64 B WRITE stream;"
                 " sim_cycles_per_cpu_sec_*: the same per second of this process's CPU time (less sensitive to load)."
                 " *_goodput_gbps_*_loss*: after everything else, a fresh QP pair (MTU 4096, ACK timeout 33 us) with 1 %% or 5 %%"
                 " of the frames lost in each direction: 8 messages of 64 KiB or 2 of 1 MiB, up to 4 WRITEs or 1 READ in"
                 " flight (null: not completed; %llu frames lost in all).\"\n}\n",
                 num(w64k).c_str(), num(bench.read_64k_gbps).c_str(), num(bench.read_8k_gbps).c_str(), num(bench.write_8qp_gbps).c_str(),
                 num(s64k).c_str(), num(bench.read_64k_out1_gbps).c_str(), num(bench.read_64k_out16_gbps).c_str(),
                 num(bench.write_64k_long_gbps).c_str(), num(bench.send_64k_long_gbps).c_str(),
                 num(bench.read_64k_out16_long_gbps).c_str(),
                 num(bench.lat_oneway_ns, "%.1f").c_str(), num(bench.lat_cqe_ns, "%.1f").c_str(),
                 num(bench.lat_oneway_db_ns, "%.1f").c_str(), num(bench.lat_cqe_db_ns, "%.1f").c_str(),
                 num(bench.rate_64b_mps).c_str(), num(bench.rate_64b_8qp_mps).c_str(),
                 num(bench.cost_rate.total, "%.1f").c_str(), num(bench.cost_rate.sq, "%.1f").c_str(),
                 num(bench.cost_rate.cq, "%.1f").c_str(), num(bench.cost_rate_8qp.total, "%.1f").c_str(),
                 num(bench.cost_lat.total, "%.1f").c_str(), num(bench.cost_recv.total, "%.1f").c_str(),
                 num(bench.cost_recv.sq, "%.1f").c_str(), num(bench.cost_recv.cq, "%.1f").c_str(),
                 num(bench.send4k_gbps, "%.2f").c_str(), num(double(bench.send4k_rnr), "%.0f").c_str(),
                 num(bench.send64k_gbps, "%.2f").c_str(), num(double(bench.send64k_rnr), "%.0f").c_str(),
                 num(double(bench.ud_received), "%.0f").c_str(), num(double(bench.ud_dropped), "%.0f").c_str(), cycles / wall, num(bench.speed_idle, "%.0f").c_str(),
                 num(bench.speed_write_64k, "%.0f").c_str(), num(bench.speed_msg_64b, "%.0f").c_str(),
                 num(bench.cpu_idle, "%.0f").c_str(), num(bench.cpu_write_64k, "%.0f").c_str(),
                 num(bench.cpu_msg_64b, "%.0f").c_str(),
                 num(bench.lossy_gbps[0][0][0]).c_str(), num(bench.lossy_gbps[0][0][1]).c_str(),
                 num(bench.lossy_gbps[0][1][0]).c_str(), num(bench.lossy_gbps[0][1][1]).c_str(),
                 num(bench.lossy_gbps[1][0][0]).c_str(), num(bench.lossy_gbps[1][0][1]).c_str(),
                 num(bench.lossy_gbps[1][1][0]).c_str(), num(bench.lossy_gbps[1][1][1]).c_str(),
                 quick ? "true" : "false",
                 Bench::kQpDepth, 4.096 * (1u << Bench::kQpTimeout), bench.drops_8qp, bench.timeouts_8qp,
                 (unsigned long long)bench.lossy_lost);
    std::fclose(j);
  }
  if (quick) std::remove((dir + "/goodput.dat").c_str());  // no sweep: no stale plot either
  FILE *d = quick ? nullptr : std::fopen((dir + "/goodput.dat").c_str(), "w");
  if (d) {
    for (auto &p : bench.sweep) {
      std::string r = p.size <= Bench::kReadMax && p.read >= 0 ? num(p.read) : "?";
      std::fprintf(d, "%u %.3f %.3f %s\n", p.size, p.write, p.send, r.c_str());
    }
    std::fclose(d);
  }
  return 0;
}

SimProgram reg("bench-rdma", "RDMA goodput, latency, message rate and firmware cycles per WQE between two NICs [outdir] [--quick]",
               bench_rdma);

}  // namespace
