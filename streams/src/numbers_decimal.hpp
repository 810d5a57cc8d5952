// Decimal to double, correctly rounded, without big numbers for up to 19 significant digits:
// Clinger's exact shortcut when the significand and the power of ten are both exact doubles,
// else the Eisel-Lemire method (D. Lemire, "Number Parsing at a Gigabyte per Second", 2021):
// one or two 64 x 64-bit products with the 128-bit power of ten decide the 53 bits and the
// rounding, except in rare cases that it detects and leaves to the caller's exact fallback.
//
// Internal to the stream library: the core is inline so that parse_double's fast path (numbers.cpp)
// has no call in it; `detail::decimal_to_double_or_nan` (numbers_decimal.cpp) is the same code out
// of line, for the format readers.
#pragma once

#include <bit>
#include <cstdint>
#include <limits>

#include <bufstream/kernels/powers_of_ten.hpp>

namespace bufstream::detail {

using kernels::exact_double_powers_of_ten;
using kernels::floor_log2_pow10;
using kernels::min_power_of_ten;
using kernels::multiply_64x64;
using kernels::Power128;

/// The double nearest to w * 10^q, or NaN where `decimal_to_double` gives nullopt (see
/// numbers.hpp).
[[gnu::always_inline]] inline double decimal_to_double_inline(std::uint64_t w, int q) noexcept {
  constexpr std::uint64_t two_to_53 = std::uint64_t{1} << 53;
  constexpr double declined = std::numeric_limits<double>::quiet_NaN();
  // Clinger: w and 10^|q| are exact doubles, so the one IEEE operation rounds correctly.
  if (w <= two_to_53 && q >= -22 && q <= 22) {
    const double m = static_cast<double>(w);
    return q < 0 ? m / exact_double_powers_of_ten[-q] : m * exact_double_powers_of_ten[q];
  }
  if (w == 0) return 0.0;  // with an exponent out of Clinger's range
  if (q < min_power_of_ten || q > 308) return declined;

  // w * 10^q = (w << lz) * T * 2^(floor_log2_pow10(q) - 127 - lz), T the table's 128 bits
  // (rounded down: the product below is low by less than w << lz in its lowest word). With
  // `product` the top 128 of the 192 bits, w * 10^q ~ product.high * 2^(floor_log2_pow10(q)
  // + 1 - lz).
  const int lz = std::countl_zero(w);
  const std::uint64_t wn = w << lz;
  const Power128& t = kernels::power_of_ten_128(q);
  Power128 product = multiply_64x64(wn, t.high);
  // The bits below the 54 kept ones are all ones: what the first product left out could carry
  // into them. Add the high word of w * T's low word, and give up if that is still unclear.
  if ((product.high & 0x1FF) == 0x1FF && product.low + wn < product.low) [[unlikely]] {
    const Power128 second = multiply_64x64(wn, t.low);
    product.low += second.high;
    if (product.low < second.high) ++product.high;
    if ((product.high & 0x1FF) == 0x1FF && product.low == ~std::uint64_t{0} &&
        second.low + wn < second.low) {
      return declined;
    }
  }
  // product.high has its top bit at 63 or 62: keep 54 bits (53 and a rounding bit).
  const auto top = static_cast<int>(product.high >> 63);
  std::uint64_t m = product.high >> (top + 9);
  // Only the rounding bit set below: maybe exactly halfway, where ties go to even. Round up
  // is right unless the tie is exact and m's kept part is even; leave that to the fallback.
  if (product.low == 0 && (product.high & ((std::uint64_t{1} << (top + 9)) - 1)) == 0 &&
      (m & 3) == 1) [[unlikely]] {
    return declined;
  }
  m = (m + 1) >> 1;  // rounded half up: m in [2^52, 2^53]
  // value = m * 2^(biased - 1075). With m's bit 52 added to it, biased - 1 is the
  // exponent field: a rounding that carried m to 2^53 carries into the field, as it should.
  const int biased = floor_log2_pow10(q) + 1 - lz + top + 9 + 1 + 1075;
  const std::uint64_t bits = (static_cast<std::uint64_t>(biased - 1) << 52) + m;
  constexpr std::uint64_t infinity_bits = std::uint64_t{0x7FF} << 52;
  if (static_cast<unsigned>(biased - 1) > 2045u || bits >= infinity_bits) {
    return declined;  // subnormal or infinite
  }
  return std::bit_cast<double>(bits);
}

}  // namespace bufstream::detail
