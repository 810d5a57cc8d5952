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
  ByteSet(char a, char b, char c, char d) noexcept
      : a_(broadcast(a)), b_(broadcast(b)), c_(broadcast(c)), d_(broadcast(d)) {
#if defined(__SSE2__)
    a16_ = _mm_set1_epi8(a);
    b16_ = _mm_set1_epi8(b);
    c16_ = _mm_set1_epi8(c);
    d16_ = _mm_set1_epi8(d);
#endif
    for (char x : {a, b, c, d}) member_[static_cast<unsigned char>(x)] = true;
  }

  bool contains(char c) const noexcept { return member_[static_cast<unsigned char>(c)]; }

  /// The first byte in `[p, end)` that is in the set, or `end`.
  const char* find(const char* p, const char* end) const noexcept {
#if defined(__SSE2__)
    while (end - p >= 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
      const __m128i hits = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, a16_), _mm_cmpeq_epi8(v, b16_)),
                                        _mm_or_si128(_mm_cmpeq_epi8(v, c16_), _mm_cmpeq_epi8(v, d16_)));
      const auto mask = static_cast<unsigned>(_mm_movemask_epi8(hits));
      if (mask != 0) return p + std::countr_zero(mask);
      p += 16;
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

#if defined(__SSE2__)
  __m128i a16_, b16_, c16_, d16_;
#endif
  std::uint64_t a_, b_, c_, d_;
  bool member_[256] = {};
};

}  // namespace bufstream::csv::detail
