// Finding the next byte that matters to CSV: the one fast loop both the reader and the writer
// spend their time in.
//
// A field ends at one of a handful of bytes (separator, quote, CR, LF). `ByteSet` finds the
// first of up to four such bytes eight bytes at a time (SWAR: a word-wide "does any byte equal
// b" test), then finishes the tail one byte at a time. Unlike a loop that calls a function per
// byte, it compiles to a few instructions per eight bytes.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace bufstream::csv::detail {

class ByteSet {
 public:
  /// The set {a, b, c, d}; repeat a byte to make a smaller set.
  constexpr ByteSet(char a, char b, char c, char d) noexcept
      : a_(broadcast(a)), b_(broadcast(b)), c_(broadcast(c)), d_(broadcast(d)) {
    for (char x : {a, b, c, d}) member_[static_cast<unsigned char>(x)] = true;
  }

  bool contains(char c) const noexcept { return member_[static_cast<unsigned char>(c)]; }

  /// The first byte in `[p, end)` that is in the set, or `end`.
  const char* find(const char* p, const char* end) const noexcept {
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

  std::uint64_t a_, b_, c_, d_;
  bool member_[256] = {};
};

}  // namespace bufstream::csv::detail
