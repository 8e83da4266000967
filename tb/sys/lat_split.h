// The latency of one small RDMA WRITE from the requester's host to the responder's host memory,
// cut at the handshakes both NICs' ports see (sim/monitors HandshakeStamps), in simulated ns:
//   host  the host's first doorbell-page write issued -> its last doorbell burst (the sq_db or
//         bf_db word) taken by the requester's doorbell port
//   tx    -> the first beat of the next frame on the requester's MAC TX port (the NIC's own
//         transmit share: doorbell handling, WQE fetch, descriptor, headers)
//   frame -> the last beat of that frame on the TX port (the payload: for a WRITE from host
//         memory, its DMA read, which the transmit engine waits for after the headers)
//   link  -> the last beat of the next frame into the responder's MAC RX port (the link model:
//         serialization, propagation)
//   rx    -> the responder's next DMA write request (AW handshake; the NIC's receive share)
//   pcie  -> the bytes seen in host memory by the host's poll (the PCIe write)
// The parts add up to (land - t0) by construction; what a check adds is that every stamp exists
// and they come in this order (each part >= 0).
#pragma once
#include <systemc.h>

#include "monitors/port_monitors.h"
#include "nic/rnic_node.h"

struct LatSplit {
  double host = -1, tx = -1, frame = -1, link = -1, rx = -1, pcie = -1;
  bool ok = false;
  double sum() const { return host + tx + frame + link + rx + pcie; }

  static double now_ns() { return sc_time_stamp().to_seconds() * 1e9; }
  // Before the operation is posted: both nodes' stamps empty and on.
  static void start(RnicNode *a, RnicNode *b) {
    for (RnicNode *n : {a, b}) n->stamps().clear(), n->stamps().on = true;
  }
  // After it landed (at land, ns; issued at t0): the parts; the stamps off and cleared.
  static LatSplit take(RnicNode *a, RnicNode *b, double t0, double land) {
    LatSplit s;
    const HandshakeStamps &sa = a->stamps(), &sb = b->stamps();
    double tx = HandshakeStamps::first_from(sa.tx_first, t0), db = -1;
    for (double x : sa.db_write)
      if (x >= t0 && (tx < 0 || x <= tx)) db = x;
    double txl = tx < 0 ? -1 : HandshakeStamps::first_from(sa.tx_last, tx);
    double rx = txl < 0 ? -1 : HandshakeStamps::first_from(sb.rx_last, txl);
    double aw = rx < 0 ? -1 : HandshakeStamps::first_from(sb.dma_aw, rx);
    s.ok = db >= t0 && tx >= db && txl >= tx && rx >= txl && aw >= rx && land >= aw;
    if (s.ok) s.host = db - t0, s.tx = tx - db, s.frame = txl - tx, s.link = rx - txl, s.rx = aw - rx, s.pcie = land - aw;
    for (RnicNode *n : {a, b}) n->stamps().on = false, n->stamps().clear();
    return s;
  }
};
