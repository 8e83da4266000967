// An attached process's memory as a HostMem window: the simulated NIC's DMA reaches it with
// process_vm_readv/writev, and only inside the ranges that process registered (rings, doorbell
// records, MRs). A read outside them reads zero, a write outside them is dropped; both are
// counted. The PCIe model asks allowed() first, so the NIC sees an error response instead.
#pragma once
#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <map>

#include "host/host_mem.h"

class ProcMem : public HostMemWindow {
 public:
  explicit ProcMem(pid_t pid) : pid_(pid) {}

  void add(uint64_t va, uint64_t len) { ranges_[va] = std::max(ranges_[va], len); }
  void remove(uint64_t va) { ranges_.erase(va); }
  // The whole access inside one registered range, widened to the bus width: the DMA engine
  // reads and writes whole 64-byte beats (write strobes narrow them; write() checks exactly).
  bool allowed(uint64_t va, uint64_t len, unsigned beat = 64) const;

  void read(uint64_t va, void *dst, size_t n) override;
  void write(uint64_t va, const void *src, size_t n) override;

  pid_t pid() const { return pid_; }
  // Called after each write that reached the process (the service watches its CQ rings).
  std::function<void(uint64_t va, const void *src, size_t n)> on_write;
  uint64_t refused = 0, faults = 0;  // accesses outside registrations / failed syscalls

 private:
  bool inside(uint64_t va, uint64_t len, uint64_t align) const;
  pid_t pid_;
  std::map<uint64_t, uint64_t> ranges_;  // va -> length
};
