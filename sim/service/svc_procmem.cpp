#include "service/svc_procmem.h"

#include <sys/uio.h>

#include <algorithm>
#include <cstring>

bool ProcMem::inside(uint64_t va, uint64_t len, uint64_t align) const {
  if (len == 0) return true;
  auto it = ranges_.upper_bound(va + align - 1);  // ranges starting at or before the widened va
  while (it != ranges_.begin()) {
    --it;
    uint64_t lo = it->first & ~(align - 1), hi = (it->first + it->second + align - 1) & ~(align - 1);
    if (va >= lo && va + len <= hi) return true;
  }
  return false;
}

bool ProcMem::allowed(uint64_t va, uint64_t len, unsigned beat) const { return inside(va, len, beat); }

void ProcMem::read(uint64_t va, void *dst, size_t n) {
  std::memset(dst, 0, n);
  if (!inside(va, n, 64)) {
    refused++;
    return;
  }
  iovec local{dst, n}, remote{reinterpret_cast<void *>(va), n};
  if (process_vm_readv(pid_, &local, 1, &remote, 1, 0) != ssize_t(n)) faults++;
}

void ProcMem::write(uint64_t va, const void *src, size_t n) {
  if (!inside(va, n, 1)) {
    refused++;
    return;
  }
  iovec local{const_cast<void *>(src), n}, remote{reinterpret_cast<void *>(va), n};
  if (process_vm_writev(pid_, &local, 1, &remote, 1, 0) != ssize_t(n)) faults++;
  else if (on_write) on_write(va, src, n);
}
