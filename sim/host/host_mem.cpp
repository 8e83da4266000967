#include "host/host_mem.h"

uint64_t HostMem::alloc(uint64_t bytes, uint64_t align) {
  if (align == 0 || (align & (align - 1))) return 0;
  uint64_t a = (alloc_next_ + align - 1) & ~(align - 1);
  if (a < alloc_next_ || a + bytes < a || a + bytes > alloc_limit_) return 0;
  alloc_next_ = a + bytes;
  alloc_used_ += bytes;
  return a;
}

const uint8_t *HostMem::page_ro(uint64_t pn) const {
  if (pn == last_pn_) return last_page_;
  auto it = pages_.find(pn);
  if (it == pages_.end()) return nullptr;
  last_pn_ = pn;
  last_page_ = it->second.get();
  return last_page_;
}

uint8_t *HostMem::page_rw(uint64_t pn) {
  if (pn == last_pn_) return last_page_;
  auto &p = pages_[pn];
  if (!p) {
    p.reset(new uint8_t[kPageSize]);
    std::memset(p.get(), 0, kPageSize);
  }
  last_pn_ = pn;
  last_page_ = p.get();
  return last_page_;
}

void HostMem::read(uint64_t addr, void *dst, size_t n) const {
  if (HostMemWindow *w = window(addr)) return w->read(addr & ((1ull << kWindowShift) - 1), dst, n);
  uint8_t *d = static_cast<uint8_t *>(dst);
  while (n) {
    uint64_t off = addr & (kPageSize - 1);
    size_t k = size_t(std::min<uint64_t>(n, kPageSize - off));
    const uint8_t *p = page_ro(addr >> kPageBits);
    if (p) std::memcpy(d, p + off, k);
    else std::memset(d, 0, k);
    addr += k, d += k, n -= k;
  }
}

void HostMem::write(uint64_t addr, const void *src, size_t n) {
  if (HostMemWindow *w = window(addr)) return w->write(addr & ((1ull << kWindowShift) - 1), src, n);
  const uint8_t *s = static_cast<const uint8_t *>(src);
  while (n) {
    uint64_t off = addr & (kPageSize - 1);
    size_t k = size_t(std::min<uint64_t>(n, kPageSize - off));
    std::memcpy(page_rw(addr >> kPageBits) + off, s, k);
    addr += k, s += k, n -= k;
  }
}

void HostMem::fill(uint64_t addr, uint8_t v, size_t n) {
  while (n) {
    uint64_t off = addr & (kPageSize - 1);
    size_t k = size_t(std::min<uint64_t>(n, kPageSize - off));
    std::memset(page_rw(addr >> kPageBits) + off, v, k);
    addr += k, n -= k;
  }
}
