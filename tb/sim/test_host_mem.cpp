// Host memory: sparse paged bytes over 64-bit addresses, little-endian helpers, DMA allocator.
#include <cstdio>
#include <random>
#include <vector>

#include "host/host_mem.h"
#include "main/sim_program.h"
#include "tb_check.h"

namespace {

int test_host_mem(int, char **) {
  TbResults r;
  const uint64_t seed = 7;
  std::printf("INFO seed %llu\n", (unsigned long long)seed);
  HostMem m;
  r.check(m.rd64(0x1234) == 0 && m.rd8(0xFFFF'FFFF'FFFF'FFFFull) == 0 && m.pages() == 0, "hostmem-unwritten-reads-zero");

  // Random writes across page boundaries and far apart addresses, checked against a flat copy.
  std::mt19937_64 rng(seed);
  const uint64_t bases[3] = {0x0, 0x7FFF'FFFF'F000ull, 0xFFFF'FFFF'FFFF'0000ull};
  bool ok = true;
  for (uint64_t base : bases) {
    std::vector<uint8_t> ref(3 * 4096 + 100, 0);
    for (int i = 0; i < 200; i++) {
      size_t off = rng() % ref.size(), n = 1 + rng() % 3000;
      if (off + n > ref.size()) n = ref.size() - off;
      std::vector<uint8_t> d(n);
      for (auto &b : d) b = uint8_t(rng());
      m.write(base + off, d.data(), n);
      std::copy(d.begin(), d.end(), ref.begin() + off);
    }
    ok = ok && m.read_vec(base, ref.size()) == ref;
  }
  r.check(ok, "hostmem-random-writes-read-back");
  r.check(m.pages() <= 3 * 5, "hostmem-sparse", "%zu pages", m.pages());

  m.wr32(0x2000FFE, 0x11223344u);  // straddles a page boundary
  m.wr64(0x3000, 0x8877665544332211ull);
  m.wr16(0x3010, 0xBEEF);
  r.check(m.rd32(0x2000FFE) == 0x11223344u && m.rd8(0x2000FFE) == 0x44 && m.rd8(0x2001001) == 0x11 &&
              m.rd64(0x3000) == 0x8877665544332211ull && m.rd16(0x3010) == 0xBEEF && m.rd32(0x3004) == 0x88776655u,
          "hostmem-little-endian-helpers");
  m.fill(0x5FF0, 0xAB, 0x20);
  r.check(m.rd8(0x5FEF) == 0 && m.rd8(0x5FF0) == 0xAB && m.rd8(0x600F) == 0xAB && m.rd8(0x6010) == 0, "hostmem-fill");

  HostMem a(0x1'0000'0010ull, 0x1'0001'0000ull);
  uint64_t p1 = a.alloc(100), p2 = a.alloc(10, 4096), p3 = a.alloc(1, 1), p4 = a.alloc(64, 256);
  r.check(p1 == 0x1'0000'0040ull && p2 == 0x1'0000'1000ull && p3 == p2 + 10 && p4 % 256 == 0 && p4 > p3,
          "hostmem-alloc-alignment", "%llx %llx %llx %llx", (unsigned long long)p1, (unsigned long long)p2,
          (unsigned long long)p3, (unsigned long long)p4);
  r.check(a.alloc(0x10000) == 0 && a.alloc(8, 3) == 0 && a.alloc(8) != 0, "hostmem-alloc-exhaustion-and-bad-align");
  HostMem d;
  r.check(d.alloc(1) >= 0x1'0000'0000ull, "hostmem-default-alloc-above-4g");
  return r.exit_code();
}

SimProgram reg("test-hostmem", "host memory model: sparse pages, helpers, DMA allocator", test_host_mem);

}  // namespace
