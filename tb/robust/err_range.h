// The hostile host range of the tb/robust programs: nic0's PCIe model answers SLVERR to the
// requests that touch g_err's range in the chosen direction, counting them; and the main of
// such a program (two NICs, nic0 behind that model, module T driving both hosts).
#pragma once
#include <systemc.h>

#include <cstdint>
#include <cstdio>

#include "host/pcie_model.h"
#include "net/eth_link.h"
#include "sys/rdma_port.h"
#include "sys/two_nics.h"

struct ErrRange {
  uint64_t base = 0, len = 0;
  uint64_t base2 = 0, len2 = 0;  // a second range (len2 0: none), same directions
  bool reads = false, writes = false;
  uint64_t hits = 0;
};
inline ErrRange g_err;

inline uint32_t err_fn(uint64_t a, uint64_t n, bool write) {
  bool in1 = g_err.len && a + n > g_err.base && a < g_err.base + g_err.len;
  bool in2 = g_err.len2 && a + n > g_err.base2 && a < g_err.base2 + g_err.len2;
  if (!in1 && !in2) return 0;
  if (write ? !g_err.writes : !g_err.reads) return 0;
  g_err.hits++;
  return 2;  // SLVERR
}

template <class T>
int err_range_main(const char *module_name, char **argv) {
  PcieCfg ca;
  ca.err_fn = err_fn;
  TwoNics<RdmaPort> s(EthLinkCfg(), ca);
  T t(module_name, &s.a, &s.b);
  sc_start();
  std::printf("INFO %s: simulated %.1f us\n", argv[0], sc_time_stamp().to_seconds() * 1e6);
  return t.r.exit_code();
}
