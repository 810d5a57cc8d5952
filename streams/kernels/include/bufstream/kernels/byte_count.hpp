// How many bytes of a text equal a given byte: json::Reader counts a stretch's line feeds with
// it (for the line numbers of its positions) after reading the stretch by its structural index.
//
// Sixteen bytes at a time with the compiler's generic vectors (SSE2 on x86-64, NEON on AArch64,
// whatever the target has elsewhere): each compare gives -1 per equal byte, subtracted into
// byte counters that are added up before they can overflow (255 rounds).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace bufstream::kernels {

/// How many of the `n` bytes at `p` equal `b`.
inline std::size_t count_byte(const char* p, std::size_t n, char b) noexcept {
  using Bytes = std::uint8_t __attribute__((vector_size(16)));
  using Words = std::uint64_t __attribute__((vector_size(16)));
  const Bytes target = Bytes{} + static_cast<std::uint8_t>(b);  // b in every lane
  std::size_t count = 0;
  while (n >= 16) {
    const std::size_t rounds = std::min<std::size_t>(n / 16, 255);
    Bytes counters{};
    for (std::size_t r = 0; r < rounds; ++r, p += 16) {
      Bytes v;
      std::memcpy(&v, p, 16);
      counters -= reinterpret_cast<Bytes>(v == target);  // -1 per equal byte
    }
    n -= 16 * rounds;
    // Bytes to 16-bit sums, then the four of each word by one multiplication.
    Words w = reinterpret_cast<Words>(counters);
    w = (w & 0x00FF00FF00FF00FF) + ((w >> 8) & 0x00FF00FF00FF00FF);
    w = (w * 0x0001000100010001) >> 48;
    count += static_cast<std::size_t>(w[0] + w[1]);
  }
  for (; n != 0; --n, ++p) count += *p == b ? 1 : 0;
  return count;
}

}  // namespace bufstream::kernels
