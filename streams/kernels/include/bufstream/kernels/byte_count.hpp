// How many bytes of a text equal a given byte: json::Reader counts with it the line feeds that
// a run over the structural index passed, when a position is asked for and when the run ends
// (Reader::count_uncounted_lines in formats/json/src/reader_index.cpp), for the line numbers
// of its positions.
//
// Why no other classifier: it is the only one whose answer is a count, of any number of bytes
// from any byte, reading nothing past the end. The structural index never indexes whitespace;
// the token masks hold line feeds only for the 1 KiB the token reader classified, and made for
// a run they would classify three other classes and store four words per block before a
// popcount; ByteSet::find would stop at every line feed, and the 64-byte masks need whole
// readable blocks and a movemask and popcount per block.
//
// One form: sixteen bytes at a time with the compiler's generic vectors (SSE2 on x86-64, NEON
// on AArch64, whatever the target has elsewhere): each compare gives -1 per equal byte,
// subtracted into byte counters that are added up before they can overflow (255 rounds). It
// has no SWAR form below it and no wider form; no measurement recorded (1b81303, which added
// it, and 9655e74, its test, give none).
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
