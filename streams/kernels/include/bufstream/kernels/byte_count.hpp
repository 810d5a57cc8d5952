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
// One form: the compiler's generic vectors of sixteen bytes (SSE2 on x86-64, NEON on AArch64,
// whatever the target has elsewhere), four of them per 64 bytes: each compare gives -1 per
// equal byte, subtracted into byte counters that are added up before they can overflow (63
// rounds, so that the four add up in one). The four counters are independent, so that a round is
// not one subtraction waiting for the last: over canada.json's 2.2 MB in 64 KiB pieces, 0.055 ->
// 0.026 ms against one counter of sixteen bytes; an AVX2 build of the same loop was no faster
// (0.025 ms: the bytes come from the cache no faster), so there is no wider form. No SWAR form
// below it. The last partial sixteen bytes are one load that overlaps the bytes before it, their
// lanes masked off: a run of an event read over a JSON Lines value or a selected row counts 80-odd
// bytes, where a byte loop for the tail took more than the rest.
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
  const auto equal = [&target](const char* q) {                 // -1 per equal byte
    Bytes v;
    std::memcpy(&v, q, 16);
    return reinterpret_cast<Bytes>(v == target);
  };
  // Byte counters to 16-bit sums, then the four of each word by one multiplication.
  const auto sum = [](Bytes counters) {
    Words w = reinterpret_cast<Words>(counters);
    w = (w & 0x00FF00FF00FF00FF) + ((w >> 8) & 0x00FF00FF00FF00FF);
    w = (w * 0x0001000100010001) >> 48;
    return static_cast<std::size_t>(w[0] + w[1]);
  };
  const char* const begin = p;
  std::size_t count = 0;
  while (n >= 64) {
    // Four counters of at most 63 each add up to at most 252: one sum for the four.
    const std::size_t rounds = std::min<std::size_t>(n / 64, 63);
    Bytes c0{}, c1{}, c2{}, c3{};
    for (std::size_t r = 0; r < rounds; ++r, p += 64) {
      c0 -= equal(p);
      c1 -= equal(p + 16);
      c2 -= equal(p + 32);
      c3 -= equal(p + 48);
    }
    n -= 64 * rounds;
    count += sum(c0 + c1 + c2 + c3);
  }
  Bytes c{};  // at most four rounds
  for (; n >= 16; n -= 16, p += 16) c -= equal(p);
  if (n != 0 && p - begin >= 16) {
    // The last sixteen bytes of the text, of which the first 16 - n are counted already.
    constexpr Bytes lanes{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    const Bytes uncounted = reinterpret_cast<Bytes>(lanes >= static_cast<std::uint8_t>(16 - n));
    c -= equal(p + n - 16) & uncounted;
    n = 0;
  }
  count += sum(c);
  for (; n != 0; --n, ++p) count += *p == b ? 1 : 0;  // a text shorter than sixteen bytes
  return count;
}

}  // namespace bufstream::kernels
