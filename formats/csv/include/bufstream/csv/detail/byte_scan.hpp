// Finding the next byte that matters to CSV: the one fast loop both the reader and the writer
// spend their time in.
//
// A field ends at one of a handful of bytes (separator, quote, CR, LF). `ByteSet` finds the
// first of up to four such bytes sixteen bytes at a time with SSE2 where the target has it
// (every x86-64), then eight at a time (SWAR: a word-wide "does any byte equal b" test), then
// one at a time for the last few. It never reads outside `[p, end)`.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace bufstream::csv::detail {

class ByteSet {
 public:
  /// The set {a, b, c, d}; repeat a byte to make a smaller set.
  constexpr ByteSet(char a, char b, char c, char d) noexcept
      : bytes_{a, b, c, d}, a_(broadcast(a)), b_(broadcast(b)), c_(broadcast(c)), d_(broadcast(d)) {
    for (char x : {a, b, c, d}) member_[static_cast<unsigned char>(x)] = true;
  }

  bool contains(char c) const noexcept { return member_[static_cast<unsigned char>(c)]; }

  /// The first byte in `[p, end)` that is in the set, or `end`.
  const char* find(const char* p, const char* end) const noexcept {
#if defined(__SSE2__)
    if (end - p >= 16) {
      const __m128i a = _mm_set1_epi8(bytes_[0]);
      const __m128i b = _mm_set1_epi8(bytes_[1]);
      const __m128i c = _mm_set1_epi8(bytes_[2]);
      const __m128i d = _mm_set1_epi8(bytes_[3]);
      do {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        const __m128i hits = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, a), _mm_cmpeq_epi8(v, b)),
                                          _mm_or_si128(_mm_cmpeq_epi8(v, c), _mm_cmpeq_epi8(v, d)));
        const auto mask = static_cast<unsigned>(_mm_movemask_epi8(hits));
        if (mask != 0) return p + std::countr_zero(mask);
        p += 16;
      } while (end - p >= 16);
    }
#endif
    if constexpr (std::endian::native == std::endian::little) {
      while (end - p >= 8) {
        std::uint64_t word;
        std::memcpy(&word, p, 8);
        const std::uint64_t hits =
            zero_bytes(word ^ a_) | zero_bytes(word ^ b_) | zero_bytes(word ^ c_) | zero_bytes(word ^ d_);
        // The lowest flagged byte is always a true match (a borrow can only flag bytes above
        // a true zero byte), and on a little-endian machine the lowest byte comes first.
        if (hits != 0) return p + (std::countr_zero(hits) / 8);
        p += 8;
      }
    }
    while (p != end && !contains(*p)) ++p;
    return p;
  }

 private:
  static constexpr std::uint64_t broadcast(char c) noexcept {
    return 0x0101010101010101ULL * static_cast<unsigned char>(c);
  }
  // High bit set in the bytes of `x` that are zero (and possibly in bytes above one that is).
  static constexpr std::uint64_t zero_bytes(std::uint64_t x) noexcept {
    return (x - 0x0101010101010101ULL) & ~x & 0x8080808080808080ULL;
  }

  char bytes_[4];
  std::uint64_t a_, b_, c_, d_;
  bool member_[256] = {};
};

}  // namespace bufstream::csv::detail
