// elf32.h: minimal ELF32 little-endian RISC-V loader (PT_LOAD segments by physical address).
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

struct Elf32Image {
  std::map<uint32_t, uint32_t> words;  // word address -> data (bytes merged)
  uint32_t entry = 0;
  std::string error;

  void put_byte(uint32_t a, uint8_t b) {
    uint32_t& w = words[a & ~3u];
    w = (w & ~(0xFFu << (8 * (a & 3)))) | ((uint32_t)b << (8 * (a & 3)));
  }

  bool load(const char* path) {
    FILE* f = fopen(path, "rb");
    if (!f) { error = "cannot open"; return false; }
    std::vector<uint8_t> d;
    uint8_t buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) d.insert(d.end(), buf, buf + n);
    fclose(f);
    auto u16 = [&](size_t o) { return (uint32_t)d[o] | ((uint32_t)d[o + 1] << 8); };
    auto u32 = [&](size_t o) { return u16(o) | (u16(o + 2) << 16); };
    if (d.size() < 52 || memcmp(d.data(), "\x7f" "ELF", 4) != 0) { error = "not ELF"; return false; }
    if (d[4] != 1 || d[5] != 1) { error = "not ELF32 little-endian"; return false; }
    if (u16(18) != 243) { error = "not RISC-V"; return false; }
    entry = u32(24);
    uint32_t phoff = u32(28), phentsize = u16(42), phnum = u16(44);
    for (uint32_t i = 0; i < phnum; i++) {
      size_t ph = phoff + (size_t)i * phentsize;
      if (ph + 32 > d.size()) { error = "truncated phdr"; return false; }
      if (u32(ph) != 1) continue;  // PT_LOAD
      uint32_t off = u32(ph + 4), paddr = u32(ph + 12), filesz = u32(ph + 16), memsz = u32(ph + 20);
      if ((size_t)off + filesz > d.size()) { error = "truncated segment"; return false; }
      for (uint32_t j = 0; j < memsz; j++) put_byte(paddr + j, j < filesz ? d[off + j] : 0);
    }
    return true;
  }
};
