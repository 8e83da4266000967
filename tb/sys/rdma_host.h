// A simulated host that uses one NIC the way the kernel module and the provider will: the
// driver core's commands for resources, the provider's code for WQEs, doorbells and CQ polling,
// all in simulated host memory behind the PCIe model.
#pragma once
#include <systemc.h>

#include <cstring>
#include <string>

#include "host/host_mem.h"
#include "host/sim_os.h"
#include "nic/rnic_node.h"
extern "C" {
#include "rnic_cmd.h"
#include "rnic_cmdq.h"
#include "rnic_eq.h"
#include "rnic_mr.h"
#include "rnic_spec.h"
#include "rnicp_cq.h"
#include "rnicp_db.h"
#include "rnicp_wqe.h"
}

// A CQ of 2^log entries in simulated host memory (ring and doorbell record), created through
// the driver core and polled with the provider's code. 0 or the command's errno.
inline int rdma_create_cq(HostMem *mem, rnic_cmdq *q, unsigned log, rnicp_cq *cq, uint64_t *ring = nullptr) {
  uint64_t buf = mem->alloc(32u << log, 4096), dbrec = mem->alloc(64, 64);
  rnic_create_cq_in ci{};
  ci.log_size = log;
  ci.buf_addr = buf;
  ci.dbrec_addr = dbrec;
  uint32_t cqn = 0;
  int rc = rnic_cmd_create_cq(q, &ci, &cqn);
  if (!rc) rc = rnicp_cq_init(cq, mem->span(buf, 32u << log), log, cqn, mem->span(dbrec, 4));
  if (ring) *ring = buf;
  return rc;
}

struct RdmaHost {
  RnicNode *nic;
  HostMem *mem;
  SimOsCtx osc;
  rnic_os os;
  rnic_cmdq q;
  rnicp_db db;
  uint32_t ipv4 = 0, pdn = 0, cqn = 0, qpn = 0;
  uint8_t mac[6] = {0};
  rnicp_sq sq;
  rnicp_rq rq;
  rnicp_cq cq;
  uint64_t qp_buf = 0, cq_buf = 0;
  std::string err;

  static constexpr unsigned kSqLog = 6, kRqLog = 5, kRqStrideLog = 6, kCqLog = 6;

  RdmaHost(RnicNode *n, HostMem *m, uint32_t ip, uint8_t mac_last) : nic(n), mem(m), osc{n, m}, ipv4(ip) {
    os = sim_os_for(&osc);
    const uint8_t mm[6] = {0x02, 0, 0, 0, 0, mac_last};
    std::memcpy(mac, mm, 6);
    db.ctx = this;
    db.write32 = [](void *ctx, uint32_t off, uint32_t v) {
      static_cast<RdmaHost *>(ctx)->nic->bar_write(RNIC_BAR0_DB_BASE + off, v);  // page 0: kernel context
    };
  }

  bool fail(const std::string &what, int rc) {
    err = what + " rc " + std::to_string(rc);
    return false;
  }

  // Firmware up, command queue, GID, PD, CQ, RC QP in RESET. Runs in an SC_THREAD.
  bool open() {
    for (int t = 0; t < 2000 && rnic_rd32(&os, RNIC_REG_CPU_FW_STATUS) != RNIC_FW_STATUS_READY; t++)
      wait(sc_time(1, SC_US));
    int rc = rnic_cmdq_init(&q, &os, 4);
    if (rc) return fail("cmdq", rc);
    q.poll_us = 1;
    q.timeout_us = 5000;
    if ((rc = rnic_cmd_set_gid(&q, 0, ipv4, mac))) return fail("set_gid", rc);
    if ((rc = rnic_cmd_alloc_pd(&q, 0, &pdn))) return fail("alloc_pd", rc);
    if ((rc = rdma_create_cq(mem, &q, kCqLog, &cq, &cq_buf))) return fail("create_cq", rc);
    cqn = cq.cqn;
    uint32_t rq_off = 64u << kSqLog;
    qp_buf = mem->alloc(4096, 4096);  // SQ (4 KiB) ...
    uint64_t rq_buf = mem->alloc(4096, 4096);  // ... and RQ on the next page: one page each
    if (rq_buf != qp_buf + rq_off) return fail("rings not adjacent", -1);
    rnic_create_qp_in qi{};
    qi.pdn = pdn;
    qi.send_cqn = qi.recv_cqn = cqn;
    qi.qp_type = RNIC_QP_TYPE_RC;
    qi.sq_log_size = kSqLog;
    qi.rq_log_size = kRqLog;
    qi.rq_log_stride = kRqStrideLog;
    qi.rq_offset = rq_off;
    qi.max_inline = 64;
    qi.buf_addr = qp_buf;
    if ((rc = rnic_cmd_create_qp(&q, &qi, &qpn))) return fail("create_qp", rc);
    rnicp_sq_init(&sq, mem->span(qp_buf, 64u << kSqLog), kSqLog, qpn, RNIC_QP_TYPE_RC, 4, 64);
    rnicp_rq_init(&rq, mem->span(rq_buf, 1u << (kRqLog + kRqStrideLog)), kRqLog, kRqStrideLog, qpn);
    return true;
  }

  // Registers [addr, addr + len) of host memory (contiguous) with every access right.
  bool reg_mr(uint64_t addr, uint32_t len, uint32_t *key, unsigned page_shift = 12) {
    rnic_mtt mtt{};
    int rc = rnic_mtt_build_contig(&os, &mtt, addr, len, page_shift, addr);
    if (rc) return fail("mtt", rc);
    rnic_reg_mr_in in{};
    in.pdn = pdn;
    in.access = 0xF;
    in.iova = addr;
    in.length = len;
    in.mtt = &mtt;
    uint32_t rkey = 0;
    if ((rc = rnic_cmd_reg_mr(&q, &in, key, &rkey))) return fail("reg_mr", rc);
    return true;
  }

  // INIT -> RTR -> RTS toward the peer's QP.
  bool connect(const RdmaHost &peer, uint32_t my_psn, uint32_t peer_psn, uint32_t timeout = 14) {
    rnic_qp_attr a{};
    a.state = RNIC_QP_STATE_INIT;
    a.access = 0x7;
    int rc = rnic_cmd_modify_qp(&q, qpn, 1u << RNIC_QP_ATTR_STATE | 1u << RNIC_QP_ATTR_PKEY_INDEX |
                                             1u << RNIC_QP_ATTR_PORT | 1u << RNIC_QP_ATTR_ACCESS_FLAGS, &a);
    if (rc) return fail("to INIT", rc);
    a.state = RNIC_QP_STATE_RTR;
    a.path_mtu = 5;
    a.dest_qpn = peer.qpn;
    a.rq_psn = peer_psn;
    a.min_rnr_timer = 12;
    a.max_dest_rd_atomic = 4;
    a.dest_ipv4 = peer.ipv4;
    a.hop_limit = 64;
    std::memcpy(a.dmac, peer.mac, 6);
    rc = rnic_cmd_modify_qp(&q, qpn, 1u << RNIC_QP_ATTR_STATE | 1u << RNIC_QP_ATTR_AV | 1u << RNIC_QP_ATTR_PATH_MTU |
                                         1u << RNIC_QP_ATTR_DEST_QPN | 1u << RNIC_QP_ATTR_RQ_PSN |
                                         1u << RNIC_QP_ATTR_MIN_RNR_TIMER | 1u << RNIC_QP_ATTR_MAX_DEST_RD_ATOMIC,
                            &a);
    if (rc) return fail("to RTR", rc);
    a.state = RNIC_QP_STATE_RTS;
    a.sq_psn = my_psn;
    a.timeout = timeout;
    a.retry_cnt = 7;
    a.rnr_retry = 7;
    a.max_rd_atomic = 4;
    rc = rnic_cmd_modify_qp(&q, qpn, 1u << RNIC_QP_ATTR_STATE | 1u << RNIC_QP_ATTR_SQ_PSN | 1u << RNIC_QP_ATTR_TIMEOUT |
                                         1u << RNIC_QP_ATTR_RETRY_CNT | 1u << RNIC_QP_ATTR_RNR_RETRY |
                                         1u << RNIC_QP_ATTR_MAX_QP_RD_ATOMIC,
                            &a);
    if (rc) return fail("to RTS", rc);
    return true;
  }

  int post_send(const rnicp_send_wr &wr) {
    int rc = rnicp_sq_post(&sq, &wr, nullptr);
    if (rc > 0) rnicp_ring_sq(&db, qpn, sq.pi);
    return rc;
  }

  int post_recv(const rnicp_recv_wr &wr) {
    int rc = rnicp_rq_post(&rq, &wr);
    if (rc == 0) rnicp_ring_rq(&db, qpn, rq.pi);
    return rc;
  }

  // Polls the CQ until n completions arrived or timeout; returns how many.
  int poll(rnicp_wc *wc, int n, const sc_time &timeout) {
    int got = 0;
    sc_time end = sc_time_stamp() + timeout;
    while (got < n && sc_time_stamp() < end) {
      got += rnicp_cq_poll(&cq, n - got, wc + got);
      if (got < n) wait(sc_time(100, SC_NS));
    }
    return got;  // the consumer index reaches the NIC through the CQ's doorbell record
  }
};
