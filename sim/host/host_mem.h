// Host memory of one simulated host: a sparse, paged byte memory over 64-bit bus addresses, plus
// a bump allocator for DMA buffers. Unwritten bytes read as zero. Pages live in an ordered map
// (deterministic iteration); the last page touched is cached, so streaming accesses are cheap.
#pragma once
#include <cstdint>
#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <vector>

// Memory that is not the model's own, seen through a window of bus addresses (the simulator
// service maps each attached process's address space this way). Offsets are window-relative.
struct HostMemWindow {
  virtual ~HostMemWindow() = default;
  virtual void read(uint64_t off, void *dst, size_t n) = 0;  // unreadable bytes read as zero
  virtual void write(uint64_t off, const void *src, size_t n) = 0;
};

class HostMem {
 public:
  // Bus addresses with bits 63:kWindowShift = w (w >= 1) belong to window w, if one is mapped.
  static constexpr unsigned kWindowShift = 48;
  static constexpr unsigned kPageBits = 12;
  static constexpr uint64_t kPageSize = 1ull << kPageBits;

  // DMA buffers are handed out from [alloc_base, alloc_limit). The default base sits above
  // 4 GiB so a DMA engine that truncates addresses to 32 bits fails visibly.
  explicit HostMem(uint64_t alloc_base = 0x1'0000'0000ull, uint64_t alloc_limit = 0x100'0000'0000ull)
      : alloc_next_(alloc_base), alloc_limit_(alloc_limit) {}

  // Bump allocation: returns a bus address aligned to `align` (a power of two), or 0 when the
  // region is exhausted. The bytes are zero (fresh pages) unless `fill` says otherwise.
  uint64_t alloc(uint64_t bytes, uint64_t align = 64);
  uint64_t allocated_bytes() const { return alloc_used_; }

  void read(uint64_t addr, void *dst, size_t n) const;
  void write(uint64_t addr, const void *src, size_t n);
  void fill(uint64_t addr, uint8_t v, size_t n);
  std::vector<uint8_t> read_vec(uint64_t addr, size_t n) const {
    std::vector<uint8_t> v(n);
    read(addr, v.data(), n);
    return v;
  }
  // Little-endian scalar helpers for host-side code (descriptors, CQEs, doorbell records).
  uint8_t rd8(uint64_t a) const { uint8_t v; read(a, &v, 1); return v; }
  uint16_t rd16(uint64_t a) const { return uint16_t(rd_le(a, 2)); }
  uint32_t rd32(uint64_t a) const { return uint32_t(rd_le(a, 4)); }
  uint64_t rd64(uint64_t a) const { return rd_le(a, 8); }
  void wr8(uint64_t a, uint8_t v) { write(a, &v, 1); }
  void wr16(uint64_t a, uint16_t v) { wr_le(a, v, 2); }
  void wr32(uint64_t a, uint32_t v) { wr_le(a, v, 4); }
  void wr64(uint64_t a, uint64_t v) { wr_le(a, v, 8); }

  void map_window(uint64_t w, HostMemWindow *win) {
    if (win) windows_[w] = win;
    else windows_.erase(w);
  }
  // Addresses below 2^kWindowShift go to `win` instead of the model's own pages (a QEMU guest's
  // RAM: a DMA address is a guest-physical address, sim/ivshmem). nullptr: the model's pages.
  void map_base(HostMemWindow *win) { base_ = win; }
  HostMemWindow *window(uint64_t addr) const {
    if (!(addr >> kWindowShift)) return base_;
    auto it = windows_.find(addr >> kWindowShift);
    return it == windows_.end() ? nullptr : it->second;
  }

  size_t pages() const { return pages_.size(); }
  // Every page ever written, in address order: f(page base address, kPageSize bytes). For
  // checkers that compare the whole memory against a shadow copy.
  template <class F> void for_each_page(F f) const {
    for (auto &p : pages_) f(p.first << kPageBits, static_cast<const uint8_t *>(p.second.get()));
  }
  // A stable pointer to [addr, addr + n) when it lies inside one page (host software that
  // shares memory with the device, e.g. the driver core's rings), else nullptr.
  uint8_t *span(uint64_t addr, size_t n) {
    if (n == 0 || (addr >> kPageBits) != ((addr + n - 1) >> kPageBits)) return nullptr;
    return page_rw(addr >> kPageBits) + (addr & (kPageSize - 1));
  }

 private:
  uint64_t rd_le(uint64_t a, unsigned n) const {
    uint8_t b[8];
    read(a, b, n);
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++) v |= uint64_t(b[i]) << (8 * i);
    return v;
  }
  void wr_le(uint64_t a, uint64_t v, unsigned n) {
    uint8_t b[8];
    for (unsigned i = 0; i < n; i++) b[i] = uint8_t(v >> (8 * i));
    write(a, b, n);
  }
  const uint8_t *page_ro(uint64_t pn) const;  // nullptr when never written
  uint8_t *page_rw(uint64_t pn);

  std::map<uint64_t, std::unique_ptr<uint8_t[]>> pages_;
  std::map<uint64_t, HostMemWindow *> windows_;
  HostMemWindow *base_ = nullptr;
  mutable uint64_t last_pn_ = ~0ull;
  mutable uint8_t *last_page_ = nullptr;
  uint64_t alloc_next_, alloc_limit_, alloc_used_ = 0;
};
