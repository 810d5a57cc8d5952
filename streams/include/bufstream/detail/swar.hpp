// SWAR ("SIMD within a register"): eight bytes tested at once in a 64-bit word, the portable
// form of the byte kernels (which name it kernels::swar) and of the digit words (digits.hpp).
// A test leaves 0x80 in each byte it flags. Not a public API: installed because the digit
// words are (see digits.hpp).
//
// Words are loaded in memory order: the first byte in the lowest bits, on every target (a
// big-endian load is byte-swapped), so that the first flagged byte is the lowest one. The
// borrowing tests (`zero_bytes`, `below_bytes`) are exact for the lowest flagged byte only: a
// borrow runs upwards from a true match and may flag bytes above it, never below. The `_exact`
// tests flag every byte exactly, at a few more instructions.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace bufstream::detail::swar {

inline constexpr std::uint64_t low_bits = 0x0101010101010101ULL;
inline constexpr std::uint64_t high_bits = 0x8080808080808080ULL;
inline constexpr std::uint64_t low_seven_bits = 0x7F7F7F7F7F7F7F7FULL;

/// `b` in every byte.
constexpr std::uint64_t broadcast(unsigned char b) noexcept { return low_bits * b; }

/// The eight bytes at `p`, the first in the lowest bits.
inline std::uint64_t load_memory_order(const char* p) noexcept {
  std::uint64_t word;
  std::memcpy(&word, p, 8);
  if constexpr (std::endian::native == std::endian::big) word = __builtin_bswap64(word);
  return word;
}

/// Stores `word` (in memory order, as the loads give it) as the eight bytes at `p`.
inline void store_memory_order(char* p, std::uint64_t word) noexcept {
  if constexpr (std::endian::native == std::endian::big) word = __builtin_bswap64(word);
  std::memcpy(p, &word, 8);
}

/// The first `n` bytes at `p` (n <= 8) in memory order, zeros above them. Reads only
/// [p, p + n): two overlapping four-byte loads for 4 to 8 bytes; the first, middle and last
/// byte for 1 to 3.
inline std::uint64_t load_memory_order_partial(const char* p, std::size_t n) noexcept {
  if (n >= 4) {
    std::uint32_t first, last;
    std::memcpy(&first, p, 4);
    std::memcpy(&last, p + n - 4, 4);
    if constexpr (std::endian::native == std::endian::big) {
      first = __builtin_bswap32(first);
      last = __builtin_bswap32(last);
    }
    // `last` holds bytes n-4 .. n-1; bytes 4 .. n-1 are its top n-4.
    return first | (std::uint64_t{last} >> (8 * (8 - n))) << 32;
  }
  if (n == 0) return 0;
  const auto byte = [p](std::size_t i) { return std::uint64_t{static_cast<unsigned char>(p[i])}; };
  return byte(0) | byte(n / 2) << (8 * (n / 2)) | byte(n - 1) << (8 * (n - 1));
}

/// The index of the first (lowest) flagged byte of a non-zero `flags`.
constexpr unsigned first_flagged(std::uint64_t flags) noexcept {
  return static_cast<unsigned>(std::countr_zero(flags)) / 8;
}

/// Flags the bytes of `x` that are zero (exact for the lowest; mask with high_bits).
constexpr std::uint64_t zero_bytes(std::uint64_t x) noexcept { return (x - low_bits) & ~x; }

/// Flags the bytes of `v` below `n` (n <= 0x80; exact for the lowest; mask with high_bits).
constexpr std::uint64_t below_bytes(std::uint64_t v, unsigned char n) noexcept {
  return (v - broadcast(n)) & ~v;
}

/// 0x80 in each byte of `v` that equals the byte broadcast in `word`, exactly.
constexpr std::uint64_t equal_bytes_exact(std::uint64_t v, std::uint64_t word) noexcept {
  const std::uint64_t x = v ^ word;
  return ~(((x & low_seven_bits) + low_seven_bits) | x | low_seven_bits);
}

/// 0x80 in each byte of `v` below `n` (n <= 0x80), exactly: its top bit clear and its low
/// seven bits below n.
constexpr std::uint64_t below_bytes_exact(std::uint64_t v, unsigned char n) noexcept {
  return ~(((v & low_seven_bits) + broadcast(static_cast<unsigned char>(0x80 - n))) | v) &
         high_bits;
}

/// Bit k set for each byte k of `flags` whose 0x80 is set (the other bits of `flags` clear).
constexpr std::uint64_t gather_flags(std::uint64_t flags) noexcept {
  return ((flags >> 7) * 0x0102040810204080ULL) >> 56;
}

}  // namespace bufstream::detail::swar
