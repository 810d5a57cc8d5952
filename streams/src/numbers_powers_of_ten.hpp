// The 128-bit powers of ten behind the double <-> decimal conversions (numbers_shortest.cpp,
// numbers_decimal.cpp). Internal to the stream library.
//
// Entry e holds the 128 most significant bits of 10^e, rounded down:
//     powers_of_ten[e - min_power_of_ten] = floor(10^e * 2^(127 - floor_log2_pow10(e)))
// so the top bit is always set and 10^e lies in [T, T + 1) * 2^(floor_log2_pow10(e) - 127).
// The table is computed at compile time from exact big-integer arithmetic
// (numbers_powers_of_ten.cpp): it is a mathematical fact, not data copied from anywhere.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace bufstream::detail {

struct Power128 {
  std::uint64_t high;
  std::uint64_t low;
};

/// Reading needs 10^-342 (19 digits times 10^-342 is below half the smallest subnormal) to
/// 10^308; shortest printing needs 10^-292 to 10^324.
inline constexpr int min_power_of_ten = -342;
inline constexpr int max_power_of_ten = 324;

extern const std::array<Power128, max_power_of_ten - min_power_of_ten + 1> powers_of_ten;

inline const Power128& power_of_ten(int e) noexcept {
  return powers_of_ten[static_cast<std::size_t>(e - min_power_of_ten)];
}

/// The full 128-bit product of two 64-bit numbers.
inline Power128 multiply_64x64(std::uint64_t a, std::uint64_t b) noexcept {
#ifdef __SIZEOF_INT128__
  __extension__ using uint128 = unsigned __int128;
  const uint128 product = static_cast<uint128>(a) * b;
  return {static_cast<std::uint64_t>(product >> 64), static_cast<std::uint64_t>(product)};
#else
  const std::uint64_t a_low = a & 0xFFFFFFFFu, a_high = a >> 32;
  const std::uint64_t b_low = b & 0xFFFFFFFFu, b_high = b >> 32;
  const std::uint64_t low_low = a_low * b_low;
  const std::uint64_t high_low = a_high * b_low;
  const std::uint64_t low_high = a_low * b_high;
  const std::uint64_t middle = (low_low >> 32) + (high_low & 0xFFFFFFFFu) + low_high;
  return {a_high * b_high + (high_low >> 32) + (middle >> 32),
          (middle << 32) | (low_low & 0xFFFFFFFFu)};
#endif
}

/// floor(log2(10^e)) for |e| <= 1233 (checked against the exact table at compile time).
constexpr int floor_log2_pow10(int e) noexcept { return (e * 1741647) >> 19; }

/// floor(log10(2^q)) for |q| <= 1650 (checked at compile time for the range used).
constexpr int floor_log10_pow2(int q) noexcept { return (q * 315653) >> 20; }

/// floor(log10(3/4 * 2^q)) for |q| <= 1650 (the lower gap of a power of two is half the upper
/// one). The tests print every power of two, which exercises each q this is used for.
constexpr int floor_log10_three_quarters_pow2(int q) noexcept {
  return (q * 1262611 - 524031) >> 22;
}

}  // namespace bufstream::detail
