// A QP on an opened RdmaPort: its own CQ, SQ and RQ rings in simulated host memory, created
// through the driver core's commands and driven with the provider's code (WQEs, doorbells,
// BlueFlame, CQ polling).
#pragma once
#include "sys/rdma_port.h"

struct RdmaConnOpts {
  uint32_t path_mtu = 5;  // 1..5: 256..4096 bytes
  uint32_t timeout = 6;   // local ACK timeout 4.096 us * 2^timeout
  uint32_t retry_cnt = 7, rnr_retry = 7, min_rnr_timer = 1;  // RNR timer code 1: 10 us
  uint32_t access = 0xF;  // QP access flags (bits of enum access) the responder grants
  uint32_t traffic_class = 0;  // the path's GRH traffic class: the DSCP/ECN byte of this QP's frames
  uint32_t rd_atomic = 4;  // max_rd_atomic and max_dest_rd_atomic (READs/atomics in flight each way)
};

struct RdmaQp {
  RdmaPort *h = nullptr;
  uint32_t qpn = 0, cqn = 0, pdn = 0, type = RNIC_QP_TYPE_RC;
  rnicp_sq sq{};
  rnicp_rq rq{};
  rnicp_cq cq{};
  uint64_t qp_buf = 0, cq_buf = 0;
  std::string err;

  // RQ stride 128: room for a 16-byte header and RNIC_MAX_SGE (4) SGEs
  static constexpr unsigned kSqLog = 6, kRqLog = 5, kRqStrideLog = 7, kCqLog = 7, kMaxInline = 128;
  unsigned cq_log = kCqLog;  // set before create() for a smaller CQ

  bool fail(const std::string &what, int rc) {
    err = what + " rc " + std::to_string(rc);
    return false;
  }

  // A CQ and a QP (RESET) in PD pd (0: the host's PD); with shared_cqn, the QP completes into
  // that existing CQ instead (polled by its owner: this QP's poll() is not for it).
  bool create(RdmaPort *host, uint32_t pd = 0, uint32_t qp_type = RNIC_QP_TYPE_RC, uint32_t shared_cqn = 0) {
    h = host;
    pdn = pd ? pd : host->pdn;
    type = qp_type;
    int rc = 0;
    if (shared_cqn) {
      cqn = shared_cqn;
    } else {
      if ((rc = rdma_create_cq(h->mem, &h->q, cq_log, &cq, &cq_buf))) return fail("create_cq", rc);
      cqn = cq.cqn;
    }
    uint32_t rq_off = 64u << kSqLog;  // SQ on one page, RQ on the next
    qp_buf = h->mem->alloc(2 * 4096, 4096);
    rnic_create_qp_in qi{};
    qi.pdn = pdn;
    qi.send_cqn = qi.recv_cqn = cqn;
    qi.qp_type = qp_type;
    qi.sq_log_size = kSqLog;
    qi.rq_log_size = kRqLog;
    qi.rq_log_stride = kRqStrideLog;
    qi.rq_offset = rq_off;
    qi.max_inline = kMaxInline;
    qi.buf_addr = qp_buf;
    if ((rc = rnic_cmd_create_qp(&h->q, &qi, &qpn))) return fail("create_qp", rc);
    rc = rnicp_sq_init(&sq, h->mem->span(qp_buf, 64u << kSqLog), kSqLog, qpn, qp_type, 4, kMaxInline);
    if (!rc) rc = rnicp_rq_init(&rq, h->mem->span(qp_buf + rq_off, 1u << (kRqLog + kRqStrideLog)), kRqLog, kRqStrideLog, qpn);
    if (rc) return fail("provider init", rc);
    return true;
  }

  int modify(uint32_t mask, const rnic_qp_attr &a) { return rnic_cmd_modify_qp(&h->q, qpn, mask, &a); }

  // Moves to state with no other attribute (ERR, RESET).
  bool set_state(uint32_t state) {
    rnic_qp_attr a{};
    a.state = state;
    int rc = modify(1u << RNIC_QP_ATTR_STATE, a);
    return rc ? fail("modify state", rc) : true;
  }

  // The state the firmware reports, or -1.
  int state() {
    rnic_qp_attr a{};
    return rnic_cmd_query_qp(&h->q, qpn, &a) ? -1 : int(a.state);
  }

  // RC: INIT -> RTR -> RTS toward peer.
  bool connect(const RdmaQp &peer, uint32_t my_psn, uint32_t peer_psn, const RdmaConnOpts &o = RdmaConnOpts()) {
    rnic_qp_attr a{};
    a.state = RNIC_QP_STATE_INIT;
    a.access = o.access;
    int rc = modify(1u << RNIC_QP_ATTR_STATE | 1u << RNIC_QP_ATTR_PKEY_INDEX | 1u << RNIC_QP_ATTR_PORT |
                        1u << RNIC_QP_ATTR_ACCESS_FLAGS,
                    a);
    if (rc) return fail("to INIT", rc);
    a.state = RNIC_QP_STATE_RTR;
    a.path_mtu = o.path_mtu;
    a.dest_qpn = peer.qpn;
    a.rq_psn = peer_psn;
    a.min_rnr_timer = o.min_rnr_timer;
    a.max_dest_rd_atomic = o.rd_atomic;
    a.dest_ipv4 = peer.h->ipv4;
    a.hop_limit = 64;
    a.traffic_class = o.traffic_class;
    std::memcpy(a.dmac, peer.h->mac, 6);
    rc = modify(1u << RNIC_QP_ATTR_STATE | 1u << RNIC_QP_ATTR_AV | 1u << RNIC_QP_ATTR_PATH_MTU |
                    1u << RNIC_QP_ATTR_DEST_QPN | 1u << RNIC_QP_ATTR_RQ_PSN | 1u << RNIC_QP_ATTR_MIN_RNR_TIMER |
                    1u << RNIC_QP_ATTR_MAX_DEST_RD_ATOMIC,
                a);
    if (rc) return fail("to RTR", rc);
    a.state = RNIC_QP_STATE_RTS;
    a.sq_psn = my_psn;
    a.timeout = o.timeout;
    a.retry_cnt = o.retry_cnt;
    a.rnr_retry = o.rnr_retry;
    a.max_rd_atomic = o.rd_atomic;
    rc = modify(1u << RNIC_QP_ATTR_STATE | 1u << RNIC_QP_ATTR_SQ_PSN | 1u << RNIC_QP_ATTR_TIMEOUT |
                    1u << RNIC_QP_ATTR_RETRY_CNT | 1u << RNIC_QP_ATTR_RNR_RETRY | 1u << RNIC_QP_ATTR_MAX_QP_RD_ATOMIC,
                a);
    if (rc) return fail("to RTS", rc);
    return true;
  }

  // UD: INIT (Q_Key) -> RTR -> RTS.
  bool ud_ready(uint32_t qkey, uint32_t sq_psn) {
    rnic_qp_attr a{};
    a.state = RNIC_QP_STATE_INIT;
    a.qkey = qkey;
    int rc = modify(1u << RNIC_QP_ATTR_STATE | 1u << RNIC_QP_ATTR_PKEY_INDEX | 1u << RNIC_QP_ATTR_PORT |
                        1u << RNIC_QP_ATTR_QKEY,
                    a);
    if (rc) return fail("UD to INIT", rc);
    a.state = RNIC_QP_STATE_RTR;
    if ((rc = modify(1u << RNIC_QP_ATTR_STATE, a))) return fail("UD to RTR", rc);
    a.state = RNIC_QP_STATE_RTS;
    a.sq_psn = sq_psn;
    if ((rc = modify(1u << RNIC_QP_ATTR_STATE | 1u << RNIC_QP_ATTR_SQ_PSN, a))) return fail("UD to RTS", rc);
    return true;
  }

  // Posts without ringing (for batches), then ring() once.
  int post_send_nodb(const rnicp_send_wr &wr) { return rnicp_sq_post(&sq, &wr, nullptr); }
  void ring() { rnicp_ring_sq(&h->db, qpn, sq.pi); }
  int post_send(const rnicp_send_wr &wr) {
    int rc = post_send_nodb(wr);
    if (rc > 0) ring();
    return rc;
  }
  // BlueFlame: the WQE goes to the ring and is copied to bf_data, then bf_db.
  int post_send_bf(const rnicp_send_wr &wr) {
    uint8_t copy[RNICP_MAX_WQE_BYTES];
    int rc = rnicp_sq_post(&sq, &wr, copy);
    if (rc > 0) rc = rnicp_bf_post(&h->db, copy, 64u * unsigned(rc), qpn, sq.pi) ? -1 : rc;
    return rc;
  }
  int post_recv(const rnicp_recv_wr &wr) {
    int rc = rnicp_rq_post(&rq, &wr);
    if (rc == 0) rnicp_ring_rq(&h->db, qpn, rq.pi);
    return rc;
  }

  // Takes what the CQ holds now (up to max) without waiting; retires ring entries.
  int poll_now(rnicp_wc *wc, int max) {
    int got = rnicp_cq_poll(&cq, max, wc);
    for (int i = 0; i < got; i++) retire(wc[i]);  // the CQ's doorbell record tells the NIC
    return got;
  }

  // Polls until n completions arrived or timeout; returns how many.
  int poll(rnicp_wc *wc, int n, const sc_time &timeout) {
    int got = 0;
    sc_time end = sc_time_stamp() + timeout;
    while (got < n) {
      got += poll_now(wc + got, n - got);
      if (got >= n || sc_time_stamp() >= end) break;
      wait(sc_time(100, SC_NS));
    }
    return got;
  }

 private:
  // Frees the ring space of a completed WQE (send completions in order; receives in order).
  void retire(const rnicp_wc &w) {
    if (rnicp_wc_is_recv(&w))
      rnicp_rq_complete(&rq, w.wqe_index);
    else
      rnicp_sq_complete(&sq, w.wqe_index);
  }
};
