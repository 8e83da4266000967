// Firmware robustness at the system level: two NICs (nic0 under test, nic1 a peer), driven only
// through the driver core's commands, the provider's WQE/doorbell code, BAR0 and host memory.
//   1. create/destroy cycles on nic0: a user context, PD, MR, CQ, AH and an RC or UD QP, moved to
//      RESET, INIT, RTR, RTS or ERR, with receives posted, a send posted (to a QP that does not
//      exist: it is outstanding when the QP goes) or nothing, then everything destroyed; every
//      50th cycle a real RC pair with nic1 moves 4 KiB byte-exact first. At the end every count
//      of QUERY_RESOURCES is back at its start on both NICs, and the QP, CQ and PD tables fill up
//      again to exactly the QUERY_DEVICE limits;
//   2. the command queue fed random opcodes and random parameters (seeded): every command is
//      answered with a defined status, none times out, the firmware does not panic and its
//      heartbeat advances; after clearing what the stream created, the data path still works.
// Usage: test-robust-fw [--seed S] [--cycles N] [--fuzz N]   (defaults: 1, 200, 1000)
#include <systemc.h>

#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "host/pcie_model.h"
#include "main/sim_program.h"
#include "net/eth_link.h"
#include "sys/rdma_qp.h"
#include "tb_check.h"
extern "C" {
#include "rnic_spec_regs.h"
}
#include "sys/two_nics.h"

namespace {

struct Res {
  uint32_t v[10];
  bool operator==(const Res &o) const { return std::memcmp(v, o.v, sizeof v) == 0; }
  std::string str() const {
    static const char *n[] = {"pds", "uctxs", "cqs", "qps", "mrs", "ahs", "mtt", "swqe_free", "swqe_total", "rd"};
    std::string s;
    for (int i = 0; i < 10; i++) s += std::string(i ? " " : "") + n[i] + "=" + std::to_string(v[i]);
    return s;
  }
};

struct Robust : sc_module {
  SC_HAS_PROCESS(Robust);
  Robust(sc_module_name n, RdmaPort *a, RdmaPort *b, uint64_t seed, unsigned cycles, unsigned fuzz)
      : sc_module(n), a(a), b(b), seed(seed), rng(seed * 0x9E3779B97F4A7C15ull + 1), cycles(cycles), fuzz(fuzz) {
    SC_THREAD(run);
  }
  RdmaPort *a, *b;
  uint64_t seed, rng;
  unsigned cycles, fuzz;
  TbResults r;
  uint64_t abuf = 0, bbuf = 0;
  uint32_t akey = 0, bkey = 0;
  unsigned cmd_fail = 0;  // commands of the cycles that did not do what they must
  std::string first_fail;

  uint64_t next() {
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
  }
  void note(bool ok, const std::string &what) {
    if (ok) return;
    if (!cmd_fail++) first_fail = what;
  }

  bool query_res(RdmaPort *h, Res &out) {
    uint8_t c[RNIC_CMD_ENTRY_SIZE] = {0};
    rnic_cmd_entry_set_opcode(c, RNIC_CMD_OP_QUERY_RESOURCES);
    uint8_t raw = 0;
    if (rnic_cmdq_exec(&h->q, c, &raw)) return false;
    out.v[0] = rnic_cmd_query_resources_get_pds(c), out.v[1] = rnic_cmd_query_resources_get_uctxs(c);
    out.v[2] = rnic_cmd_query_resources_get_cqs(c), out.v[3] = rnic_cmd_query_resources_get_qps(c);
    out.v[4] = rnic_cmd_query_resources_get_mrs(c), out.v[5] = rnic_cmd_query_resources_get_ahs(c);
    out.v[6] = rnic_cmd_query_resources_get_mtt_entries(c), out.v[7] = rnic_cmd_query_resources_get_swqe_free(c);
    out.v[8] = rnic_cmd_query_resources_get_swqe_total(c), out.v[9] = rnic_cmd_query_resources_get_rd_outstanding(c);
    return true;
  }
  uint32_t rd(RdmaPort *h, uint32_t off) { return rnic_rd32(&h->os, off); }
  bool fw_alive(RdmaPort *h, std::string &why) {
    uint32_t hb0 = rd(h, RNIC_REG_CPU_HEARTBEAT);
    wait(sc_time(20, SC_US));
    uint32_t hb1 = rd(h, RNIC_REG_CPU_HEARTBEAT), st = rd(h, RNIC_REG_CPU_FW_STATUS);
    uint32_t cs = rd(h, RNIC_REG_CPU_CPU_STATUS);
    why = "fw_status " + std::to_string(st) + " cpu_status " + std::to_string(cs) + " heartbeat " +
          std::to_string(hb0) + "->" + std::to_string(hb1);
    return st == RNIC_FW_STATUS_READY && !(cs & RNIC_REG_CPU_CPU_STATUS_F_PANICKED) && hb1 != hb0 &&
           rnic_cmd_nop(&h->q) == 0;
  }

  // RC: INIT -> RTR -> RTS toward a QPN on nic1 that need not exist.
  bool to_state(RdmaQp &q, uint32_t target, uint32_t peer_qpn) {
    const uint32_t S = 1u << RNIC_QP_ATTR_STATE;
    rnic_qp_attr at{};
    int rc = 0;
    if (target == RNIC_QP_STATE_RESET) return true;
    at.state = RNIC_QP_STATE_INIT;
    at.access = 0xF;
    at.qkey = 0x11111111;
    uint32_t m = q.type == RNIC_QP_TYPE_UD ? S | 1u << RNIC_QP_ATTR_PKEY_INDEX | 1u << RNIC_QP_ATTR_PORT |
                                                 1u << RNIC_QP_ATTR_QKEY
                                           : S | 1u << RNIC_QP_ATTR_PKEY_INDEX | 1u << RNIC_QP_ATTR_PORT |
                                                 1u << RNIC_QP_ATTR_ACCESS_FLAGS;
    if ((rc = q.modify(m, at))) return false;
    if (target == RNIC_QP_STATE_INIT) return true;
    at.state = RNIC_QP_STATE_RTR;
    if (q.type == RNIC_QP_TYPE_UD) {
      m = S;
    } else {
      at.path_mtu = 3, at.dest_qpn = peer_qpn, at.rq_psn = 100, at.min_rnr_timer = 1, at.max_dest_rd_atomic = 4;
      at.dest_ipv4 = b->ipv4, at.hop_limit = 64;
      std::memcpy(at.dmac, b->mac, 6);
      m = S | 1u << RNIC_QP_ATTR_AV | 1u << RNIC_QP_ATTR_PATH_MTU | 1u << RNIC_QP_ATTR_DEST_QPN |
          1u << RNIC_QP_ATTR_RQ_PSN | 1u << RNIC_QP_ATTR_MIN_RNR_TIMER | 1u << RNIC_QP_ATTR_MAX_DEST_RD_ATOMIC;
    }
    if ((rc = q.modify(m, at))) return false;
    if (target == RNIC_QP_STATE_RTR) return true;
    at.state = RNIC_QP_STATE_RTS;
    at.sq_psn = 200, at.timeout = 14, at.retry_cnt = 7, at.rnr_retry = 7, at.max_rd_atomic = 4;
    m = q.type == RNIC_QP_TYPE_UD ? S | 1u << RNIC_QP_ATTR_SQ_PSN
                                  : S | 1u << RNIC_QP_ATTR_SQ_PSN | 1u << RNIC_QP_ATTR_TIMEOUT |
                                        1u << RNIC_QP_ATTR_RETRY_CNT | 1u << RNIC_QP_ATTR_RNR_RETRY |
                                        1u << RNIC_QP_ATTR_MAX_QP_RD_ATOMIC;
    return q.modify(m, at) == 0;
  }

  // One create/destroy cycle on nic0 (see the file comment).
  void cycle(unsigned i) {
    static const uint32_t states[] = {RNIC_QP_STATE_RESET, RNIC_QP_STATE_INIT, RNIC_QP_STATE_RTR, RNIC_QP_STATE_RTS,
                                      RNIC_QP_STATE_ERR};
    uint32_t target = states[i % 5], type = (i / 5) % 2 ? RNIC_QP_TYPE_UD : RNIC_QP_TYPE_RC, work = (i / 10) % 3;
    std::string at = "cycle " + std::to_string(i) + ": ";
    uint32_t uctx = 0, pd = 0, mkey = 0, ahn = 0;
    note(rnic_cmd_alloc_uctx(&a->q, &uctx) == 0, at + "alloc_uctx");
    note(rnic_cmd_alloc_pd(&a->q, uctx, &pd) == 0, at + "alloc_pd");
    uint32_t pages = 1 + uint32_t(next() % 16);
    uint64_t mr = a->mem->alloc(pages * 4096, 4096);
    note(rdma_reg_mr(a, mr, pages * 4096 - uint32_t(next() % 4000), 0xF, &mkey, pd), at + "reg_mr " + a->err);
    rnic_create_ah_in ai{};
    ai.pdn = pd, ai.dest_ipv4 = b->ipv4, ai.hop_limit = 64;
    std::memcpy(ai.dmac, b->mac, 6);
    note(rnic_cmd_create_ah(&a->q, &ai, &ahn) == 0, at + "create_ah");
    auto q = std::make_unique<RdmaQp>();
    q->cq_log = 4;
    if (!q->create(a, pd, type)) {
      note(false, at + "create " + q->err);
      return;
    }
    bool up = to_state(*q, target == RNIC_QP_STATE_ERR ? RNIC_QP_STATE_RTS : target, 0xABCDE);
    note(up, at + "to state " + std::to_string(target));
    rnicp_sge sge{mr, 64, mkey};
    if (work == 1 && target != RNIC_QP_STATE_RESET) {
      rnicp_recv_wr rw{1, &sge, 1};
      note(q->post_recv(rw) == 0 && q->post_recv(rw) == 0, at + "post_recv");
    }
    if (work == 2 && target != RNIC_QP_STATE_RESET && target != RNIC_QP_STATE_INIT) {
      rnicp_send_wr sw{};
      sw.wr_id = 7, sw.flags = RNICP_WR_SIGNALED, sw.sg_list = &sge, sw.num_sge = 1;
      if (type == RNIC_QP_TYPE_UD) {
        sw.opcode = RNIC_WQE_OP_SEND, sw.ahn = ahn, sw.remote_qpn = 0xABCDE, sw.remote_qkey = 0x11111111;
      } else {
        sw.opcode = (i / 30) % 2 ? RNIC_WQE_OP_RDMA_READ : RNIC_WQE_OP_RDMA_WRITE;
        sw.remote_addr = bbuf, sw.rkey = 0x1234;
      }
      note(q->post_send(sw) > 0, at + "post_send");
      wait(sc_time(1, SC_US));  // the doorbell is served before the QP goes
    }
    if (target == RNIC_QP_STATE_ERR) note(q->set_state(RNIC_QP_STATE_ERR), at + "to ERR " + q->err);
    int st = q->state();
    note(st == int(target), at + "state " + std::to_string(st) + " wanted " + std::to_string(target));
    note(rnic_cmd_destroy_qp(&a->q, q->qpn) == 0, at + "destroy_qp");
    note(rnic_cmd_destroy_cq(&a->q, q->cqn) == 0, at + "destroy_cq");
    note(rnic_cmd_destroy_ah(&a->q, ahn) == 0, at + "destroy_ah");
    note(rnic_cmd_dereg_mr(&a->q, mkey) == 0, at + "dereg_mr");
    note(rnic_cmd_dealloc_pd(&a->q, pd) == 0, at + "dealloc_pd");
    note(rnic_cmd_dealloc_uctx(&a->q, uctx) == 0, at + "dealloc_uctx");
  }

  // A fresh RC pair moves 4 KiB nic0 -> nic1 byte-exact; both QPs and CQs destroyed after.
  bool data_pair(const std::string &what) {
    RdmaQp x, y;
    x.cq_log = y.cq_log = 4;
    bool ok = x.create(a) && y.create(b);
    uint32_t px = uint32_t(next() & 0xFFFFFF), py = uint32_t(next() & 0xFFFFFF);
    ok = ok && x.connect(y, px, py) && y.connect(x, py, px);
    uint32_t off = uint32_t(next() % (1u << 20)) & ~63u;
    std::vector<uint8_t> v(4096);
    for (auto &c : v) c = uint8_t(next());
    a->mem->write(abuf + off, v.data(), v.size());
    rnicp_sge sge{abuf + off, 4096, akey};
    rnicp_send_wr sw{};
    sw.wr_id = 42, sw.opcode = RNIC_WQE_OP_RDMA_WRITE, sw.flags = RNICP_WR_SIGNALED, sw.sg_list = &sge, sw.num_sge = 1;
    sw.remote_addr = bbuf + off, sw.rkey = bkey;
    rnicp_wc wc[2];
    ok = ok && x.post_send(sw) > 0 && x.poll(wc, 1, sc_time(500, SC_US)) == 1 && wc[0].status == 0 &&
         wc[0].wr_id == 42 && b->mem->read_vec(bbuf + off, 4096) == v;
    bool gone = x.qpn && y.qpn && rnic_cmd_destroy_qp(&a->q, x.qpn) == 0 && rnic_cmd_destroy_qp(&b->q, y.qpn) == 0 &&
                rnic_cmd_destroy_cq(&a->q, x.cqn) == 0 && rnic_cmd_destroy_cq(&b->q, y.cqn) == 0;
    if (!ok || !gone) note(false, what + ": data pair " + x.err + y.err);
    return ok && gone;
  }

  // Creates objects with make() until it fails; returns how many, frees them with drop().
  template <class Make, class Drop>
  unsigned fill(Make make, Drop drop, int &last_rc) {
    std::vector<uint32_t> got;
    uint32_t h = 0;
    while (got.size() < 100000 && (last_rc = make(&h)) == 0) got.push_back(h);
    for (uint32_t x : got) note(drop(x) == 0, "fill: free");
    return unsigned(got.size());
  }

  void limits(const Res &base) {
    rnic_device_attr da{};
    r.check(rnic_cmd_query_device(&a->q, &da) == 0, "robust-query-device");
    int rc = 0;
    uint32_t cq0 = 0;
    {
      RdmaQp probe;  // one CQ for the QPs
      probe.cq_log = 2;
      uint64_t ring = 0;
      note(rdma_create_cq(a->mem, &a->q, 2, &probe.cq, &ring) == 0, "limits: cq");
      cq0 = probe.cq.cqn;
    }
    uint64_t qbuf = a->mem->alloc(8192, 4096);
    unsigned nqp = fill(
        [&](uint32_t *h) {
          rnic_create_qp_in qi{};
          qi.pdn = a->pdn, qi.send_cqn = qi.recv_cqn = cq0, qi.qp_type = RNIC_QP_TYPE_RC;
          qi.sq_log_size = 4, qi.rq_log_size = 4, qi.rq_log_stride = 6, qi.rq_offset = 64u << 4, qi.buf_addr = qbuf;
          return rnic_cmd_create_qp(&a->q, &qi, h);
        },
        [&](uint32_t h) { return rnic_cmd_destroy_qp(&a->q, h); }, rc);
    r.check(nqp == da.max_qp - base.v[3] && rc == -ENOMEM, "robust-qp-table-fills-to-max-qp", "%u of %u, then rc %d",
            nqp, da.max_qp - base.v[3], rc);
    unsigned ncq = fill(
        [&](uint32_t *h) {
          rnic_create_cq_in ci{};
          ci.log_size = 2, ci.buf_addr = qbuf, ci.dbrec_addr = qbuf + 4096;
          return rnic_cmd_create_cq(&a->q, &ci, h);
        },
        [&](uint32_t h) { return rnic_cmd_destroy_cq(&a->q, h); }, rc);
    r.check(ncq == da.max_cq - base.v[2] - 1 && rc == -ENOMEM, "robust-cq-table-fills-to-max-cq",
            "%u of %u, then rc %d", ncq, da.max_cq - base.v[2] - 1, rc);
    note(rnic_cmd_destroy_cq(&a->q, cq0) == 0, "limits: destroy cq");
    unsigned npd = fill([&](uint32_t *h) { return rnic_cmd_alloc_pd(&a->q, 0, h); },
                        [&](uint32_t h) { return rnic_cmd_dealloc_pd(&a->q, h); }, rc);
    r.check(npd == da.max_pd - base.v[0] && rc == -ENOMEM, "robust-pd-table-fills-to-max-pd", "%u of %u, then rc %d",
            npd, da.max_pd - base.v[0], rc);
  }

  // A command word: mostly small values (handles, sizes, states), sometimes anything.
  uint32_t word() {
    uint64_t x = next();
    switch (x & 7) {
      case 0: return uint32_t(x >> 32);
      case 1: return uint32_t(x >> 8) & 0xFF;
      case 2: return uint32_t(x >> 8) & 7;
      default: return uint32_t(x >> 8) & 0x1F;
    }
  }

  // Handles the random stream learnt from its own successful commands (and the port's PD/MR):
  // half of the commands name them with legal values, so the deep paths run (QP-table and
  // memory-key mailboxes, page-list DMA, state transitions), not only the argument checks.
  struct Live {
    std::vector<uint32_t> pd, uctx, cq, qp, mr, ah;
  } live;
  uint32_t pick(const std::vector<uint32_t> &v) { return v.empty() || next() % 8 == 0 ? word() : v[next() % v.size()]; }
  static void forget(std::vector<uint32_t> &v, uint32_t h) {
    for (size_t i = 0; i < v.size(); i++)
      if (v[i] == h) {
        v.erase(v.begin() + long(i));
        return;
      }
  }
  void plausible(uint8_t *c, uint64_t page_list) {
    uint64_t x = next(), ring = a->mem->alloc(4096, 4096);
    const uint32_t A = 1u << RNIC_QP_ATTR_STATE;
    static const uint32_t masks[] = {
        0,
        1u << RNIC_QP_ATTR_PKEY_INDEX | 1u << RNIC_QP_ATTR_PORT | 1u << RNIC_QP_ATTR_ACCESS_FLAGS,
        1u << RNIC_QP_ATTR_PKEY_INDEX | 1u << RNIC_QP_ATTR_PORT | 1u << RNIC_QP_ATTR_QKEY,
        1u << RNIC_QP_ATTR_AV | 1u << RNIC_QP_ATTR_PATH_MTU | 1u << RNIC_QP_ATTR_DEST_QPN | 1u << RNIC_QP_ATTR_RQ_PSN |
            1u << RNIC_QP_ATTR_MAX_DEST_RD_ATOMIC | 1u << RNIC_QP_ATTR_MIN_RNR_TIMER,
        1u << RNIC_QP_ATTR_SQ_PSN | 1u << RNIC_QP_ATTR_TIMEOUT | 1u << RNIC_QP_ATTR_RETRY_CNT |
            1u << RNIC_QP_ATTR_RNR_RETRY | 1u << RNIC_QP_ATTR_MAX_QP_RD_ATOMIC,
        1u << RNIC_QP_ATTR_SQ_PSN,
    };
    switch (rnic_cmd_entry_get_opcode(c)) {
      case RNIC_CMD_OP_ALLOC_PD: rnic_cmd_pd_set_uctx(c, x & 1 ? pick(live.uctx) : 0); break;
      case RNIC_CMD_OP_DEALLOC_PD: rnic_cmd_pd_set_pdn(c, pick(live.pd)); break;
      case RNIC_CMD_OP_DEALLOC_UCTX: rnic_cmd_uctx_set_uctx(c, pick(live.uctx)); break;
      case RNIC_CMD_OP_DEREG_MR: rnic_cmd_dereg_mr_set_lkey(c, pick(live.mr)); break;
      case RNIC_CMD_OP_DESTROY_CQ: rnic_cmd_destroy_set_handle(c, pick(live.cq)); break;
      case RNIC_CMD_OP_DESTROY_QP: rnic_cmd_destroy_set_handle(c, pick(live.qp)); break;
      case RNIC_CMD_OP_DESTROY_AH: rnic_cmd_destroy_set_handle(c, pick(live.ah)); break;
      case RNIC_CMD_OP_QUERY_QP: rnic_cmd_modify_qp_set_qpn(c, pick(live.qp)); break;
      case RNIC_CMD_OP_REG_MR: {
        uint32_t n = 1 + uint32_t(x >> 8) % 8, fpo = uint32_t(x >> 16) % 4096;
        rnic_cmd_reg_mr_set_pdn(c, pick(live.pd));
        rnic_cmd_reg_mr_set_access(c, uint32_t(x >> 24) & 0xF);
        rnic_cmd_reg_mr_set_page_shift(c, 12);
        rnic_cmd_reg_mr_set_iova(c, x >> 40 << 12);
        rnic_cmd_reg_mr_set_first_page_offset(c, fpo);
        rnic_cmd_reg_mr_set_length(c, uint64_t(n) * 4096 - fpo - (x >> 28) % 4096);
        rnic_cmd_reg_mr_set_num_pages(c, n);
        rnic_cmd_reg_mr_set_mtt_table_addr(c, page_list);
        break;
      }
      case RNIC_CMD_OP_CREATE_CQ:
        rnic_cmd_create_cq_set_uctx(c, x & 1 ? pick(live.uctx) : 0);
        rnic_cmd_create_cq_set_log_size(c, 1 + uint32_t(x >> 8) % 6);
        rnic_cmd_create_cq_set_eqn(c, 0);
        rnic_cmd_create_cq_set_num_pages(c, 0);
        rnic_cmd_create_cq_set_buf_addr(c, ring);
        rnic_cmd_create_cq_set_dbrec_addr(c, ring + 4032);
        break;
      case RNIC_CMD_OP_CREATE_QP:
        rnic_cmd_create_qp_set_uctx(c, x & 1 ? pick(live.uctx) : 0);
        rnic_cmd_create_qp_set_pdn(c, pick(live.pd));
        rnic_cmd_create_qp_set_send_cqn(c, pick(live.cq));
        rnic_cmd_create_qp_set_recv_cqn(c, pick(live.cq));
        rnic_cmd_create_qp_set_qp_type(c, (x >> 8) & 1 ? RNIC_QP_TYPE_RC : RNIC_QP_TYPE_UD);
        rnic_cmd_create_qp_set_sq_log_size(c, 1 + uint32_t(x >> 9) % 5);
        rnic_cmd_create_qp_set_rq_log_size(c, uint32_t(x >> 12) % 5);
        rnic_cmd_create_qp_set_rq_log_stride(c, 5 + uint32_t(x >> 15) % 3);
        rnic_cmd_create_qp_set_buf_addr(c, a->mem->alloc(8192, 4096));
        rnic_cmd_create_qp_set_rq_offset(c, 4096);
        rnic_cmd_create_qp_set_num_pages(c, 0);
        rnic_cmd_create_qp_set_max_inline(c, uint32_t(x >> 20) % 33);
        break;
      case RNIC_CMD_OP_MODIFY_QP:
        rnic_cmd_modify_qp_set_qpn(c, pick(live.qp));
        rnic_cmd_modify_qp_set_attr_mask(c, masks[(x >> 8) % 6] | A | ((x >> 16) % 8 == 0 ? uint32_t(x >> 20) & 0x1FFFFF : 0));
        rnic_cmd_modify_qp_set_state(c, uint32_t(x >> 44) % 8);
        rnic_cmd_modify_qp_set_cur_state(c, uint32_t(x >> 47) % 7);
        rnic_cmd_modify_qp_set_path_mtu(c, 1 + uint32_t(x >> 50) % 5);
        rnic_cmd_modify_qp_set_sgid_index(c, 0);
        rnic_cmd_modify_qp_set_dmac(c, rnic_mac_to_u64(b->mac));
        rnic_cmd_modify_qp_set_dest_ipv4(c, b->ipv4);
        rnic_cmd_modify_qp_set_timeout(c, uint32_t(x >> 56) % 32);
        rnic_cmd_modify_qp_set_retry_cnt(c, uint32_t(x >> 53) % 8);
        rnic_cmd_modify_qp_set_rnr_retry(c, 7);
        rnic_cmd_modify_qp_set_min_rnr_timer(c, uint32_t(x >> 35) % 32);
        rnic_cmd_modify_qp_set_max_rd_atomic(c, uint32_t(x >> 40) % 17);
        rnic_cmd_modify_qp_set_max_dest_rd_atomic(c, uint32_t(x >> 42) % 17);
        rnic_cmd_modify_qp_set_access(c, uint32_t(x >> 60));
        rnic_cmd_modify_qp_set_dest_qpn(c, uint32_t(x >> 20) & 0xFFFFFF);
        rnic_cmd_modify_qp_set_rq_psn(c, uint32_t(x >> 24) & 0xFFFFFF);
        rnic_cmd_modify_qp_set_sq_psn(c, uint32_t(x >> 28) & 0xFFFFFF);
        rnic_cmd_modify_qp_set_qkey(c, uint32_t(x));
        break;
      case RNIC_CMD_OP_CREATE_AH:
        rnic_cmd_create_ah_set_pdn(c, pick(live.pd));
        rnic_cmd_create_ah_set_sgid_index(c, uint32_t(x >> 8) % 2);
        rnic_cmd_create_ah_set_dmac(c, (x >> 9) & 0xFFFFFFFFFFFFull);
        break;
      default: break;
    }
  }
  void learn(const uint8_t *c, uint32_t in_handle) {
    switch (rnic_cmd_entry_get_opcode(c)) {
      case RNIC_CMD_OP_ALLOC_PD: live.pd.push_back(rnic_cmd_pd_get_pdn(c)); break;
      case RNIC_CMD_OP_ALLOC_UCTX: live.uctx.push_back(rnic_cmd_uctx_get_uctx(c)); break;
      case RNIC_CMD_OP_REG_MR: live.mr.push_back(rnic_cmd_reg_mr_get_lkey(c)); break;
      case RNIC_CMD_OP_CREATE_CQ: live.cq.push_back(rnic_cmd_create_cq_get_cqn(c)); break;
      case RNIC_CMD_OP_CREATE_QP: live.qp.push_back(rnic_cmd_create_qp_get_qpn(c)); break;
      case RNIC_CMD_OP_CREATE_AH: live.ah.push_back(rnic_cmd_create_ah_get_ahn(c)); break;
      case RNIC_CMD_OP_DEALLOC_PD: forget(live.pd, in_handle); break;
      case RNIC_CMD_OP_DEALLOC_UCTX: forget(live.uctx, in_handle); break;
      case RNIC_CMD_OP_DEREG_MR: forget(live.mr, in_handle); break;
      case RNIC_CMD_OP_DESTROY_CQ: forget(live.cq, in_handle); break;
      case RNIC_CMD_OP_DESTROY_QP: forget(live.qp, in_handle); break;
      case RNIC_CMD_OP_DESTROY_AH: forget(live.ah, in_handle); break;
      default: break;
    }
  }

  void random_commands() {
    static const uint8_t ops[] = {0x00, 0x01, 0x02, 0x03, 0x10, 0x11, 0x12, 0x13, 0x20, 0x21,
                                  0x30, 0x31, 0x32, 0x33, 0x40, 0x41, 0x50, 0x51, 0x60, 0x61};
    std::map<unsigned, unsigned> hist;
    unsigned timeouts = 0, undefined = 0, internal = 0;
    uint32_t hb0 = rd(a, RNIC_REG_CPU_HEARTBEAT);
    sc_time t0 = sc_time_stamp();
    live.pd = {a->pdn};
    live.mr = {akey};
    uint64_t page_list = a->mem->alloc(4096, 4096);  // 8 valid pages of the port's buffer
    for (unsigned k = 0; k < 8; k++) a->mem->wr64(page_list + 8 * k, (abuf + 4096 * k) | 1);
    for (unsigned i = 0; i < fuzz; i++) {
      uint8_t c[RNIC_CMD_ENTRY_SIZE] = {0};
      uint64_t x = next();
      rnic_cmd_entry_set_opcode(c, (x & 3) == 0 ? uint8_t(x >> 8) : ops[(x >> 8) % sizeof ops]);
      rnic_cmd_entry_set_flags(c, uint8_t(x >> 16) & 1);  // CMD_DONE event wanted: no EQ here
      for (uint32_t off = 8; off < RNIC_CMD_ENTRY_SIZE; off += 4) rnic_st_le(c + off, 4, word());
      if ((x >> 40) & 1) {  // a host address: page lists and rings in simulated memory
        uint64_t addr = a->mem->alloc(4096, 4096);
        for (unsigned k = 0; k < 8; k++) a->mem->wr64(addr + 8 * k, (abuf + 4096 * k) | ((x >> 41) & 1));
        rnic_st_le(c + 24, 8, addr);
        rnic_st_le(c + 40, 8, addr);
      }
      if ((x >> 42) & 1) plausible(c, page_list);
      uint32_t in_handle = rnic_ld_le(c + 8, 4);
    uint8_t raw = 0xFF;
      int rc = rnic_cmdq_exec(&a->q, c, &raw);
      if (rc == -ETIMEDOUT) {
        timeouts++;
        break;  // the queue is stuck: nothing more to learn
      }
      hist[raw]++;
      if (raw == RNIC_CMD_STATUS_OK) learn(c, in_handle);
      if (raw > RNIC_CMD_STATUS_INTERNAL) undefined++;
      if (raw == RNIC_CMD_STATUS_INTERNAL) internal++;
    }
    std::string h;
    for (auto &kv : hist) h += " " + std::to_string(kv.first) + ":" + std::to_string(kv.second);
    std::printf("INFO random commands: seed %llu, %u commands in %.1f us simulated; statuses (code:count)%s; "
                "live at the end: %zu PDs %zu uctxs %zu MRs %zu CQs %zu QPs %zu AHs\n",
                (unsigned long long)seed, fuzz, (sc_time_stamp() - t0).to_seconds() * 1e6, h.c_str(), live.pd.size(),
                live.uctx.size(), live.mr.size(), live.cq.size(), live.qp.size(), live.ah.size());
    r.check(timeouts == 0, "robust-random-commands-none-timed-out", "stuck after a command (seed %llu)",
            (unsigned long long)seed);
    r.check(undefined == 0 && internal == 0, "robust-random-commands-defined-status",
            "%u undefined, %u INTERNAL (seed %llu)", undefined, internal, (unsigned long long)seed);
    std::string why;
    bool alive = fw_alive(a, why);
    r.check(alive && rd(a, RNIC_REG_CPU_HEARTBEAT) != hb0, "robust-random-commands-firmware-alive", "%s",
            why.c_str());

    // Clear what the stream made (it may have freed the port's own objects too), restore the
    // port's address, then the data path must still work.
    for (uint32_t qn = 2; qn < 128; qn++) rnic_cmd_destroy_qp(&a->q, qn);
    for (uint32_t n = 1; n < 64; n++) rnic_cmd_destroy_ah(&a->q, n);
    for (uint32_t n = 1; n < 128; n++) rnic_cmd_destroy_cq(&a->q, n);
    Res res{};
    bool q = query_res(a, res);
    r.check(q && res.v[2] == 0 && res.v[3] == 0 && res.v[5] == 0 && res.v[7] == res.v[8] && res.v[9] == 0,
            "robust-random-commands-qps-cqs-ahs-all-freed", "%s", res.str().c_str());
    bool ok = rnic_cmd_set_gid(&a->q, 0, a->ipv4, a->mac) == 0 && rnic_cmd_alloc_pd(&a->q, 0, &a->pdn) == 0 &&
              rdma_reg_mr(a, abuf, 2u << 20, 0xF, &akey);
    r.check(ok && data_pair("after random commands"), "robust-random-commands-data-path-still-works", "%s",
            first_fail.c_str());
  }

  void run() {
    bool ok = a->open_port() && b->open_port();
    r.check(ok, "robust-open", "%s%s", a->err.c_str(), b->err.c_str());
    if (ok) {
      abuf = a->mem->alloc(2u << 20, 4096), bbuf = b->mem->alloc(2u << 20, 4096);
      ok = rdma_reg_mr(a, abuf, 2u << 20, 0xF, &akey) && rdma_reg_mr(b, bbuf, 2u << 20, 0xF, &bkey);
      r.check(ok, "robust-reg-mr");
    }
    Res base_a{}, base_b{};
    ok = ok && query_res(a, base_a) && query_res(b, base_b);
    r.check(ok, "robust-query-resources", "%s", base_a.str().c_str());
    if (ok) {
      std::printf("INFO nic0 resources at start: %s\n", base_a.str().c_str());
      sc_time t0 = sc_time_stamp();
      unsigned pairs = 0, pairs_ok = 0;
      for (unsigned i = 0; i < cycles; i++) {
        cycle(i);
        if (i % 50 == 25) pairs++, pairs_ok += data_pair("cycle " + std::to_string(i));
      }
      wait(sc_time(100, SC_US));  // anything still in flight lands
      std::printf("INFO %u create/destroy cycles (%u with a data pair) in %.1f us simulated\n", cycles, pairs,
                  (sc_time_stamp() - t0).to_seconds() * 1e6);
      r.check(cmd_fail == 0, "robust-cycles-every-command-ok", "%u failed, first: %s", cmd_fail, first_fail.c_str());
      r.check(pairs_ok == pairs, "robust-cycles-data-pairs-byte-exact", "%u of %u", pairs_ok, pairs);
      Res end_a{}, end_b{};
      bool qa = query_res(a, end_a), qb = query_res(b, end_b);
      r.check(qa && end_a == base_a, "robust-cycles-nic0-resources-back", "start %s end %s", base_a.str().c_str(),
              end_a.str().c_str());
      r.check(qb && end_b == base_b, "robust-cycles-nic1-resources-back", "start %s end %s", base_b.str().c_str(),
              end_b.str().c_str());
      std::string why;
      r.check(fw_alive(a, why), "robust-cycles-nic0-firmware-alive", "%s", why.c_str());
      r.check(fw_alive(b, why), "robust-cycles-nic1-firmware-alive", "%s", why.c_str());
      limits(base_a);
      Res after{};
      r.check(query_res(a, after) && after == base_a, "robust-limits-resources-back", "%s", after.str().c_str());
      if (fuzz) random_commands();
    }
    std::printf("INFO drops at nic1 (frames to QPs that were gone): drop-bad-qp %u drop-qpn %u\n",
                rd(b, RNIC_COUNTER_BASE + 4 * RNIC_CNT_RX_DROP_BAD_QP), rd(b, RNIC_COUNTER_BASE + 4 * RNIC_CNT_RX_DROP_QPN));
    sc_stop();
  }
};

int robust_fw_main(int argc, char **argv) {
  uint64_t seed = 1;
  unsigned cycles = 200, fuzz = 1000;
  for (int i = 1; i + 1 < argc; i++) {
    std::string o = argv[i];
    if (o == "--seed") seed = std::strtoull(argv[++i], nullptr, 0);
    else if (o == "--cycles") cycles = unsigned(std::atoi(argv[++i]));
    else if (o == "--fuzz") fuzz = unsigned(std::atoi(argv[++i]));
  }
  std::printf("INFO test-robust-fw: seed %llu, %u cycles, %u random commands\n", (unsigned long long)seed, cycles, fuzz);
  EthLinkCfg lc;
  lc.seed = seed;
  TwoNics<RdmaPort> s(lc);
  Robust t("robust", &s.a, &s.b, seed, cycles, fuzz);
  sc_start();
  std::printf("INFO test-robust-fw: simulated %.1f us\n", sc_time_stamp().to_seconds() * 1e6);
  return t.r.exit_code();
}

SimProgram reg("test-robust-fw",
               "two NICs: create/destroy cycles of every resource, resource counts back, random commands "
               "[--seed S] [--cycles N] [--fuzz N]",
               robust_fw_main);
}  // namespace
