// A simulated host with one NIC port and one RC QP on it (its own CQ): what the single-QP
// system tests, the demo and the benchmark drive. More QPs: RdmaQp on the same port.
#pragma once
#include "sys/rdma_qp.h"

struct RdmaHost : RdmaPort {
  RdmaQp qp;

  static constexpr unsigned kCqLog = 6;

  RdmaHost(RnicNode *n, HostMem *m, uint32_t ip, uint8_t mac_last) : RdmaPort(n, m, ip, mac_last) {}

  // Firmware up, command queue, GID, PD, and the QP (RESET) with its CQ. Runs in an SC_THREAD.
  bool open() {
    qp.cq_log = kCqLog;
    if (!open_port()) return false;
    if (!qp.create(this)) return fail("qp: " + qp.err, -1);
    return true;
  }

  // Registers [addr, addr + len) of host memory (contiguous) with every access right.
  bool reg_mr(uint64_t addr, uint32_t len, uint32_t *key, unsigned page_shift = 12) {
    return rdma_reg_mr(this, addr, len, 0xF, key, 0, page_shift);
  }

  // INIT -> RTR -> RTS toward the peer's QP (responder access: remote write, read, atomic... as
  // the QP's access flags 0x7; RNR timer code 12).
  bool connect(const RdmaHost &peer, uint32_t my_psn, uint32_t peer_psn, uint32_t timeout = 14) {
    RdmaConnOpts o;
    o.timeout = timeout;
    o.min_rnr_timer = 12;
    o.access = 0x7;
    return qp.connect(peer.qp, my_psn, peer_psn, o) || fail("connect: " + qp.err, -1);
  }

  int post_send(const rnicp_send_wr &wr) { return qp.post_send(wr); }
  int post_recv(const rnicp_recv_wr &wr) { return qp.post_recv(wr); }
  int poll(rnicp_wc *wc, int n, const sc_time &timeout) { return qp.poll(wc, n, timeout); }
};
