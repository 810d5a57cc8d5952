// Decimal digits of integers, eight at a time: the writing side of every number printer (the
// integers of WriteStream::print and of every format, and the digit groups of format_double's
// shortest decimals).
//
// Eight digits come from one value below 10^8 with a few multiplications (no table, no loop),
// as one 64-bit word stored at once; an integer is at most three such groups. The text is
// that of std::to_chars, byte for byte. (An SSE2 form that made two groups at once in one
// register won less than 5% of any write benchmark and was removed.)
#pragma once

#include <bit>
#include <concepts>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <bufstream/kernels/powers_of_ten.hpp>

namespace bufstream::kernels {

/// The eight decimal digits of n < 10^8 (with leading zeros) as one word holding the value
/// 0..9 in each byte, the first digit in the lowest byte. Lanes of one multiplication each:
/// n = 10^4 * a + b becomes the 32-bit lanes [a, b], each of those the 16-bit lanes
/// [x / 100, x % 100], each of those the bytes [y / 10, y % 10]. The quotients come from
/// multiplying by a rounded-up reciprocal and shifting (exact in the ranges used: x < 10^4
/// with 10486 / 2^20, y < 100 with 103 / 2^10), and masking drops what a lane's product spilled
/// into the next.
inline std::uint64_t eight_digit_values(std::uint32_t n) noexcept {
  const std::uint64_t quads = (n / 10000) | (static_cast<std::uint64_t>(n % 10000) << 32);
  const std::uint64_t hundreds = ((quads * 10486) >> 20) & 0x0000007F0000007Fu;
  const std::uint64_t pairs = hundreds | ((quads - hundreds * 100) << 16);
  const std::uint64_t tens = ((pairs * 103) >> 10) & 0x000F000F000F000Fu;
  return tens | ((pairs - tens * 10) << 8);
}

/// Stores the eight digits of `values` (from eight_digit_values) at p[0..8) as text.
inline void store_digits(char* p, std::uint64_t values) noexcept {
  std::uint64_t text = values + 0x3030303030303030u;
  if constexpr (std::endian::native == std::endian::big) text = __builtin_bswap64(text);
  std::memcpy(p, &text, 8);
}

/// The number of decimal digits of n (1 for 0). Computed from n alone, not from its digits:
/// the end of the text, which the next value's position waits for, is known a few cycles
/// after n is, while the digits' multiplications are still running.
inline unsigned decimal_length(std::uint64_t n) noexcept {
  const std::uint64_t m = n | 1;  // the same length, and 1 digit for 0
  // floor(bit_width * log10(2)): the length of 2^(bit_width - 1) or one less.
  const unsigned guess = static_cast<unsigned>(std::bit_width(m)) * 1233u >> 12;
  return guess + (m >= powers_of_ten_u64[guess] ? 1 : 0);
}

/// Writes n < 10^8 without leading zeros ("0" for 0) and returns the end. Stores eight bytes
/// at p: the bytes after the digits are clobbered.
inline char* format_below_1e8(char* p, std::uint32_t n) noexcept {
  const unsigned length = decimal_length(n);
  std::uint64_t text = eight_digit_values(n) + 0x3030303030303030u;
  text >>= 8 * (8 - length);  // drop the leading zeros (the low bytes): the digits to the front
  if constexpr (std::endian::native == std::endian::big) text = __builtin_bswap64(text);
  std::memcpy(p, &text, 8);
  return p + length;
}

/// Writes n < 100 without a leading zero and returns the end: the first group of a long
/// integer, which is most often one or two digits, without format_below_1e8's length and
/// eight digits.
inline char* format_below_100(char* p, std::uint32_t n) noexcept {
  if (n < 10) {
    *p = static_cast<char>('0' + n);
    return p + 1;
  }
  p[0] = static_cast<char>('0' + n / 10);
  p[1] = static_cast<char>('0' + n % 10);
  return p + 2;
}

/// Writes `n` in decimal and returns the end. p needs 20 bytes; bytes past the end may be
/// clobbered within them.
inline char* format_unsigned(char* p, std::uint64_t n) noexcept {
  if (n < 100000000) [[likely]]
    return format_below_1e8(p, static_cast<std::uint32_t>(n));
  const std::uint64_t high = n / 100000000;
  const auto low = static_cast<std::uint32_t>(n - high * 100000000);
  if (high < 100) {  // nine or ten digits (ids, timestamps in seconds)
    p = format_below_100(p, static_cast<std::uint32_t>(high));
  } else if (high < 100000000) {
    p = format_below_1e8(p, static_cast<std::uint32_t>(high));
  } else {  // 17 to 20 digits: at most four before the last sixteen
    const auto top = static_cast<std::uint32_t>(high / 100000000);
    p = top < 100 ? format_below_100(p, top) : format_below_1e8(p, top);
    store_digits(
        p, eight_digit_values(static_cast<std::uint32_t>(high - top * std::uint64_t{100000000})));
    p += 8;
  }
  store_digits(p, eight_digit_values(low));
  return p + 8;
}

/// Writes `v` in decimal ('-' first when negative) and returns the end. p needs 20 bytes;
/// bytes past the end may be clobbered within them.
inline char* format_signed(char* p, std::int64_t v) noexcept {
  auto magnitude = static_cast<std::uint64_t>(v);
  if (v < 0) {
    *p++ = '-';
    magnitude = 0 - magnitude;  // exact for the minimum too, in unsigned arithmetic
  }
  return format_unsigned(p, magnitude);
}

}  // namespace bufstream::kernels
