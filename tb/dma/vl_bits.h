// vl_bits.h: field access on Verilator signals of any width (CData..QData or VlWide<N>),
// so one testbench source serves models built with different parameters.
#pragma once
#include <cstdint>
#include <type_traits>

namespace vlb {
inline uint64_t mask(unsigned w) { return w >= 64 ? ~0ull : ((1ull << w) - 1); }

template <typename T> inline uint64_t get(const T& s, unsigned lsb, unsigned w) {
  if constexpr (std::is_integral_v<T>) {
    return lsb >= 64 ? 0 : (uint64_t(s) >> lsb) & mask(w);
  } else {
    const unsigned words = sizeof(s) / 4, idx = lsb / 32, sh = lsb % 32;
    unsigned __int128 acc = 0;
    for (unsigned k = 0; k < 3 && idx + k < words; k++) acc |= (unsigned __int128)s[idx + k] << (32 * k);
    return uint64_t(acc >> sh) & mask(w);
  }
}
template <typename T> inline void set(T& s, unsigned lsb, unsigned w, uint64_t v) {
  v &= mask(w);
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    uint64_t cur = uint64_t(U(s));
    cur = (cur & ~(mask(w) << lsb)) | (v << lsb);
    s = T(cur);
  } else {
    for (unsigned i = 0; i < w; i++) {
      unsigned b = lsb + i;
      uint32_t m = 1u << (b % 32);
      if ((v >> i) & 1) s[b / 32] |= m; else s[b / 32] &= ~m;
    }
  }
}
// byte-aligned bulk copies (byte_off in bytes)
template <typename T> inline void get_bytes(const T& s, unsigned byte_off, unsigned n, uint8_t* out) {
  if constexpr (std::is_integral_v<T>) {
    for (unsigned i = 0; i < n; i++) out[i] = uint8_t(uint64_t(s) >> (8 * (byte_off + i)));
  } else {
    for (unsigned i = 0; i < n; i++) { unsigned b = byte_off + i; out[i] = uint8_t(s[b / 4] >> (8 * (b % 4))); }
  }
}
template <typename T> inline void set_bytes(T& s, unsigned byte_off, unsigned n, const uint8_t* in) {
  if constexpr (std::is_integral_v<T>) {
    for (unsigned i = 0; i < n; i++) set(s, 8 * (byte_off + i), 8, in[i]);
  } else {
    for (unsigned i = 0; i < n; i++) {
      unsigned b = byte_off + i, sh = 8 * (b % 4);
      s[b / 4] = (s[b / 4] & ~(0xFFu << sh)) | (uint32_t(in[i]) << sh);
    }
  }
}
}  // namespace vlb
