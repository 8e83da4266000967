// The driver core's OS interface bound to a simulated NIC: MMIO becomes BAR0 accesses that
// take simulated time, so driver code runs unchanged from a host SC_THREAD.
#pragma once
#include <cstdio>

#include "nic/rnic_node.h"
extern "C" {
#include "rnic_os.h"
}

inline rnic_os sim_os_for(RnicNode *node) {
  rnic_os os{};
  os.ctx = node;
  os.mmio_read32 = [](void *ctx, uint32_t off) { return static_cast<RnicNode *>(ctx)->bar_read(off); };
  os.mmio_write32 = [](void *ctx, uint32_t off, uint32_t v) { static_cast<RnicNode *>(ctx)->bar_write(off, v); };
  os.log = [](void *ctx, const char *msg) { std::printf("[%s] %s\n", static_cast<RnicNode *>(ctx)->name(), msg); };
  return os;
}
