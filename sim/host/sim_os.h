// The driver core's OS interface bound to a simulated NIC: MMIO becomes BAR0 accesses that
// take simulated time, DMA memory comes from the host's memory model, sleeping lets simulated
// time pass, so driver code runs unchanged from a host SC_THREAD.
#pragma once
#include <systemc.h>

#include <cerrno>
#include <cstdio>

#include "host/host_mem.h"
#include "nic/rnic_node.h"
extern "C" {
#include "rnic_os.h"
}

struct SimOsCtx {
  RnicNode *node;
  HostMem *mem;
};

inline rnic_os sim_os_for(SimOsCtx *c) {
  rnic_os os{};
  os.ctx = c;
  os.mmio_read32 = [](void *ctx, uint32_t off) { return static_cast<SimOsCtx *>(ctx)->node->bar_read(off); };
  os.mmio_write32 = [](void *ctx, uint32_t off, uint32_t v) {
    static_cast<SimOsCtx *>(ctx)->node->bar_write(off, v);
  };
  os.log = [](void *ctx, const char *msg) {
    std::printf("[%s] %s\n", static_cast<SimOsCtx *>(ctx)->node->name(), msg);
  };
  // Driver rings and tables are at most a page here, so a page of the model is contiguous.
  os.dma_alloc = [](void *ctx, size_t size, size_t align, void **cpu, uint64_t *bus) -> int {
    HostMem *m = static_cast<SimOsCtx *>(ctx)->mem;
    if (!m || size == 0 || size > HostMem::kPageSize || align > HostMem::kPageSize) return -ENOMEM;
    uint64_t a = m->alloc(HostMem::kPageSize, HostMem::kPageSize);
    if (!a) return -ENOMEM;
    *cpu = m->span(a, size);
    *bus = a;
    return 0;
  };
  os.dma_free = [](void *, size_t, void *, uint64_t) {};  // bump allocator: freed with the model
  os.sleep_us = [](void *, unsigned us) { wait(sc_time(us ? us : 1, SC_US)); };
  os.now_ns = [](void *) { return uint64_t(sc_time_stamp().to_seconds() * 1e9); };
  return os;
}

