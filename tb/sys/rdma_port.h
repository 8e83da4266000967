// The host side of one simulated NIC, used the way the kernel module and the provider will:
// the driver core's commands for resources (command queue, GID, PD, MRs, CQs), the provider's
// doorbell code, all in simulated host memory behind the PCIe model. QPs are RdmaQp
// (rdma_qp.h); RdmaHost (rdma_host.h) is a port with one QP.
#pragma once
#include <systemc.h>

#include <cstring>
#include <string>

#include "host/host_mem.h"
#include "host/host_rdma.h"
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
  uint32_t cqn = 0;
  int rc = host_create_cq(q, 0, log, buf, dbrec, &cqn);
  if (!rc) rc = rnicp_cq_init(cq, mem->span(buf, 32u << log), log, cqn, mem->span(dbrec, 4));
  if (ring) *ring = buf;
  return rc;
}

struct RdmaPort {
  RnicNode *nic;
  HostMem *mem;
  SimOsCtx osc;
  rnic_os os;
  rnic_cmdq q;
  rnicp_db db{};
  uint32_t ipv4 = 0, pdn = 0;
  uint8_t mac[6] = {0};
  std::string err;

  RdmaPort(RnicNode *n, HostMem *m, uint32_t ip, uint8_t mac_last) : nic(n), mem(m), osc{n, m}, ipv4(ip) {
    os = sim_os_for(&osc);
    const uint8_t mm[6] = {0x02, 0, 0, 0, 0, mac_last};
    std::memcpy(mac, mm, 6);
    db.ctx = this;
    // page 0 of the doorbell BAR: the kernel context
    db.write32 = [](void *ctx, uint32_t off, uint32_t v) { static_cast<RdmaPort *>(ctx)->nic->db_write32(off, v); };
    db.write64 = [](void *ctx, uint32_t off, const void *src) {
      static_cast<RdmaPort *>(ctx)->nic->db_write(off, src, 64);
    };
  }
  RdmaPort(const RdmaPort &) = delete;  // db.ctx points at this object
  RdmaPort &operator=(const RdmaPort &) = delete;

  bool fail(const std::string &what, int rc) {
    err = what + " rc " + std::to_string(rc);
    return false;
  }

  // Firmware up, command queue, GID, PD. Runs in an SC_THREAD.
  bool open_port() {
    for (int t = 0; t < 2000 && rnic_rd32(&os, RNIC_REG_CPU_FW_STATUS) != RNIC_FW_STATUS_READY; t++)
      wait(sc_time(1, SC_US));
    int rc = rnic_cmdq_init(&q, &os, 4);
    if (rc) return fail("cmdq", rc);
    q.poll_us = 1;
    q.timeout_us = 5000;
    if ((rc = rnic_cmd_set_gid(&q, 0, ipv4, mac))) return fail("set_gid", rc);
    if ((rc = rnic_cmd_alloc_pd(&q, 0, &pdn))) return fail("alloc_pd", rc);
    return true;
  }
};

// An MR on host h in PD pd (0: the host's PD) with the given access bits; lkey == rkey.
// page_shift 12 or 21 (the page list of a large region must fit the driver's one-page tables).
inline bool rdma_reg_mr(RdmaPort *h, uint64_t addr, uint32_t len, uint32_t access, uint32_t *key, uint32_t pd = 0,
                        unsigned page_shift = 12) {
  uint32_t rkey = 0;
  int rc = host_reg_mr(&h->os, &h->q, pd ? pd : h->pdn, access, addr, len, addr, key, &rkey, page_shift);
  if (rc) h->err = "reg_mr rc " + std::to_string(rc);
  return rc == 0;
}
