// Runs of ASCII for the character encoders (bufstream/decoding_read_stream.hpp and
// encoding_write_stream.hpp): most text in any encoding is mostly ASCII, and there an encoder
// is a copy (Latin-1, Windows-1252, UTF-8), a narrowing of 16-bit units to bytes or a widening
// of bytes to 16-bit units (UTF-16). Each goes a 64-bit word at a time and stops, exactly, at
// the first character that is not ASCII, which the caller then converts on its own.
//
// Portable SWAR only (swar.hpp): a wider form would have to win 5% on a benchmark first.
// UTF-16 units are read and written in the byte order the text names, on any host: words are
// loaded and stored in memory order, so the code is the same on little- and big-endian machines.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include <bufstream/kernels/swar.hpp>

namespace bufstream::kernels::ascii {

/// How many of the `n` bytes at `p`, from the first, are ASCII (below 0x80).
inline std::size_t prefix_length(const char* p, std::size_t n) noexcept {
  std::size_t i = 0;
  for (; n - i >= 8; i += 8) {
    // Whether any byte is non-ASCII does not depend on the byte order of the load.
    std::uint64_t word;
    std::memcpy(&word, p + i, 8);
    if ((word & swar::high_bits) != 0) break;
  }
  while (i < n && static_cast<unsigned char>(p[i]) < 0x80) ++i;
  return i;
}

namespace detail {

/// The four 16-bit units of a memory-order word whose high bytes are zero, as four bytes
/// (the first lowest): the low byte of unit k moves from bit 16k to bit 8k.
constexpr std::uint32_t narrow_units(std::uint64_t units) noexcept {
  units = (units | units >> 8) & 0x0000FFFF0000FFFFULL;
  return static_cast<std::uint32_t>(units | units >> 16);
}

/// The inverse: four bytes (the first lowest) as four 16-bit units with zero high bytes.
constexpr std::uint64_t widen_bytes(std::uint32_t bytes) noexcept {
  std::uint64_t v = bytes;
  v = (v | v << 16) & 0x0000FFFF0000FFFFULL;
  return (v | v << 8) & 0x00FF00FF00FF00FFULL;
}

static_assert(narrow_units(0x0044004300420041ULL) == 0x44434241U);
static_assert(widen_bytes(0x44434241U) == 0x0044004300420041ULL);

inline void store_memory_order(char* p, std::uint64_t word) noexcept {
  if constexpr (std::endian::native == std::endian::big) word = __builtin_bswap64(word);
  std::memcpy(p, &word, 8);
}

inline void store_memory_order(char* p, std::uint32_t word) noexcept {
  if constexpr (std::endian::native == std::endian::big) word = __builtin_bswap32(word);
  std::memcpy(p, &word, 4);
}

}  // namespace detail

/// Narrows the leading ASCII units of the `units` UTF-16 code units at `src` (2 bytes each,
/// in the order `order` names) to one byte each at `dst`; returns how many it narrowed, all of
/// them up to the first unit above 0x7F.
inline std::size_t narrow_utf16(const char* src, std::size_t units, char* dst,
                                std::endian order) noexcept {
  // In a memory-order word a unit's low byte is at bit 16k (little-endian) or 16k + 8.
  const bool big = order == std::endian::big;
  const std::uint64_t non_ascii = big ? 0x80FF80FF80FF80FFULL : 0xFF80FF80FF80FF80ULL;
  std::size_t i = 0;
  for (; units - i >= 4; i += 4) {
    const std::uint64_t word = swar::load_memory_order(src + 2 * i);
    if ((word & non_ascii) != 0) break;
    detail::store_memory_order(dst + i, detail::narrow_units(big ? word >> 8 : word));
  }
  for (; i < units; ++i) {
    const auto hi = static_cast<unsigned char>(src[2 * i + (big ? 0 : 1)]);
    const auto lo = static_cast<unsigned char>(src[2 * i + (big ? 1 : 0)]);
    if (hi != 0 || lo >= 0x80) break;
    dst[i] = static_cast<char>(lo);
  }
  return i;
}

/// Widens the leading ASCII bytes of the `n` bytes at `src` to UTF-16 code units at `dst`
/// (2 bytes each, in the order `order` names); returns how many bytes it widened, all of them
/// up to the first byte above 0x7F.
inline std::size_t widen_to_utf16(const char* src, std::size_t n, char* dst,
                                  std::endian order) noexcept {
  const bool big = order == std::endian::big;
  std::size_t i = 0;
  for (; n - i >= 8; i += 8) {
    const std::uint64_t word = swar::load_memory_order(src + i);
    if ((word & swar::high_bits) != 0) break;
    const std::uint64_t first = detail::widen_bytes(static_cast<std::uint32_t>(word));
    const std::uint64_t second = detail::widen_bytes(static_cast<std::uint32_t>(word >> 32));
    detail::store_memory_order(dst + 2 * i, big ? first << 8 : first);
    detail::store_memory_order(dst + 2 * i + 8, big ? second << 8 : second);
  }
  for (; i < n; ++i) {
    const auto c = static_cast<unsigned char>(src[i]);
    if (c >= 0x80) break;
    dst[2 * i + (big ? 0 : 1)] = '\0';
    dst[2 * i + (big ? 1 : 0)] = static_cast<char>(c);
  }
  return i;
}

}  // namespace bufstream::kernels::ascii
