// Host-side RDMA resources over the driver core, written once for every host the simulator has:
// the device service (sim/service, for external processes) and the testbench hosts (tb/sys).
// Each takes bus addresses the NIC can reach and returns 0 or a negative errno.
#pragma once
#include <cstdint>

extern "C" {
#include "rnic_cmd.h"
#include "rnic_mr.h"
}

// A CQ of 2^log_size cqe at ring_bus with its doorbell record at dbrec_bus.
inline int host_create_cq(rnic_cmdq *q, uint32_t uctx, unsigned log_size, uint64_t ring_bus, uint64_t dbrec_bus,
                          uint32_t *cqn) {
  rnic_create_cq_in in{};
  in.uctx = uctx;
  in.log_size = log_size;
  in.buf_addr = ring_bus;
  in.dbrec_addr = dbrec_bus;
  return rnic_cmd_create_cq(q, &in, cqn);
}

// An MR over [iova, iova + len) whose bytes sit bus-contiguously from bus (same offset in a
// page). page_shift 0 picks the page size: 4 KiB pages while the page list fits one page of
// entries (512, what the driver's DMA allocations give), else 2 MiB pages (-ENOMEM past 1 GiB).
inline int host_reg_mr(const rnic_os *os, rnic_cmdq *q, uint32_t pdn, uint32_t access, uint64_t iova, uint64_t len,
                       uint64_t bus, uint32_t *lkey, uint32_t *rkey, unsigned page_shift = 0) {
  if (!page_shift) {
    uint32_t np = 0, fpo = 0;
    page_shift = RNIC_PAGE_SHIFT_4K;
    if (rnic_mtt_layout(iova, len, page_shift, &np, &fpo) || np > 512) {
      page_shift = RNIC_PAGE_SHIFT_2M;
      if (rnic_mtt_layout(iova, len, page_shift, &np, &fpo) || np > 512) return -ENOMEM;
    }
  }
  rnic_mtt mtt{};
  int rc = rnic_mtt_build_contig(os, &mtt, iova, len, page_shift, bus);
  if (rc) return rc;
  rnic_reg_mr_in in{};
  in.pdn = pdn;
  in.access = access;
  in.iova = iova;
  in.length = len;
  in.mtt = &mtt;
  rc = rnic_cmd_reg_mr(q, &in, lkey, rkey);
  rnic_mtt_free(os, &mtt);  // the firmware copied the page list
  return rc;
}
