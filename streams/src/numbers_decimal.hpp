// Decimal to double, correctly rounded, without big numbers for up to 19 significant digits:
// Clinger's exact shortcut when the significand and the power of ten are both exact doubles,
// else the Eisel-Lemire method (D. Lemire, "Number Parsing at a Gigabyte per Second", 2021):
// one or two 64 x 64-bit products with the 128-bit power of ten decide the 53 bits and the
// rounding, except in rare cases that it detects and leaves to the caller's exact fallback.
//
// Internal to the stream library: the common cases are inline so that parse_double's fast path
// (numbers.cpp) has no call in it; `detail::decimal_to_double_or_nan` (numbers_decimal.cpp) is
// the same code out of line, for the format readers.
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

constexpr double declined = std::numeric_limits<double>::quiet_NaN();

/// Clinger: w and 10^|q| are exact doubles (w <= 2^53, |q| <= 22), so the one IEEE operation
/// rounds correctly.
[[gnu::always_inline]] inline double clinger(std::uint64_t w, int q) noexcept {
  const double m = static_cast<double>(w);
  return q < 0 ? m / exact_double_powers_of_ten[-q] : m * exact_double_powers_of_ten[q];
}

/// Eisel-Lemire's first product: w * 10^q = (w << lz) * T * 2^(floor_log2_pow10(q) - 127 - lz),
/// T the table's 128 bits (rounded down: the product is low by less than w << lz in its lowest
/// word). With `product` the top 128 of the 192 bits, w * 10^q ~ product.high *
/// 2^(floor_log2_pow10(q) + 1 - lz). w != 0, min_power_of_ten <= q <= max_power_of_ten.
struct LemireProduct {
  Power128 product;
  std::uint64_t wn;  // w << lz
  int lz;
};
[[gnu::always_inline]] inline LemireProduct lemire_product(std::uint64_t w, int q) noexcept {
  const int lz = std::countl_zero(w);
  const std::uint64_t wn = w << lz;
  return {multiply_64x64(wn, kernels::power_of_ten_128(q).high), wn, lz};
}

/// The double's bits from the product's high word (its top bit at 63 or 62): 54 bits kept (53
/// and a rounding bit), rounded half up to m in [2^52, 2^53]; value = m * 2^(biased - 1075).
/// With m's bit 52 added to it, biased - 1 is the exponent field: a rounding that carried m to
/// 2^53 carries into the field, as it should.
[[gnu::always_inline]] inline int lemire_biased(std::uint64_t high, int lz, int q) noexcept {
  return floor_log2_pow10(q) + 1 - lz + static_cast<int>(high >> 63) + 9 + 1 + 1075;
}
[[gnu::always_inline]] inline std::uint64_t lemire_bits(std::uint64_t high, int lz,
                                                        int q) noexcept {
  const std::uint64_t m = ((high >> ((high >> 63) + 9)) + 1) >> 1;
  return (static_cast<std::uint64_t>(lemire_biased(high, lz, q) - 1) << 52) + m;
}
constexpr std::uint64_t infinity_bits = std::uint64_t{0x7FF} << 52;

/// The double nearest to w * 10^q, or NaN where `decimal_to_double` gives nullopt (see
/// numbers.hpp), every case decided: Clinger's shortcut, then Eisel-Lemire with each of its
/// checks. The form for the rare inputs that decimal_to_double_inline passes on.
[[gnu::always_inline]] inline double decimal_to_double_checked(std::uint64_t w, int q) noexcept {
  if (w <= std::uint64_t{1} << 53 && q >= -22 && q <= 22) return clinger(w, q);
  if (w == 0) return 0.0;  // with an exponent out of Clinger's range
  if (q < min_power_of_ten || q > 308) return declined;
  auto [product, wn, lz] = lemire_product(w, q);
  // The bits below the 54 kept ones are all ones: what the first product left out could carry
  // into them. Add the high word of w * T's low word, and give up if that is still unclear.
  if ((product.high & 0x1FF) == 0x1FF && product.low + wn < product.low) {
    const Power128 second = multiply_64x64(wn, kernels::power_of_ten_128(q).low);
    product.low += second.high;
    if (product.low < second.high) ++product.high;
    if ((product.high & 0x1FF) == 0x1FF && product.low == ~std::uint64_t{0} &&
        second.low + wn < second.low) {
      return declined;
    }
  }
  // Only the rounding bit set below the kept bits: maybe exactly halfway, where ties go to
  // even. Round up is right unless the tie is exact and the kept part is even; leave that to
  // the fallback.
  const auto below = static_cast<int>(product.high >> 63) + 9;
  if (product.low == 0 && (product.high & ((std::uint64_t{1} << below) - 1)) == 0 &&
      ((product.high >> below) & 3) == 1) {
    return declined;
  }
  const std::uint64_t bits = lemire_bits(product.high, lz, q);
  if (static_cast<unsigned>(lemire_biased(product.high, lz, q) - 1) > 2045u ||
      bits >= infinity_bits) {
    return declined;  // subnormal or infinite
  }
  return std::bit_cast<double>(bits);
}

/// decimal_to_double_checked out of line (numbers_decimal.cpp).
double decimal_to_double_rare(std::uint64_t w, int q) noexcept;

/// The double nearest to w * 10^q, or NaN where `decimal_to_double` gives nullopt: the common
/// cases in a few instructions, the rest passed to decimal_to_double_rare. Clinger's shortcut
/// only for significands below 2^50 (up to 15 digits), so that data of 16 and 17 digits (the
/// shortest forms of most doubles) does not alternate between the two methods, a branch the
/// processor mispredicts; Eisel-Lemire is right for small significands too. Its two unclear
/// cases (the low nine bits of the product all ones, where the lower product may carry into
/// them, and all zeros, where the value may lie halfway) are caught by one test, true for
/// about one input in 256, and the checked form decides them. From 10^-307 to 10^288 every w
/// from 1 up gives a normal double, so the result's range needs no check there. Measured on
/// canada.json's 111,080 numbers converted in a loop: 3.0 -> 2.5 ns a number.
[[gnu::always_inline]] inline double decimal_to_double_inline(std::uint64_t w, int q) noexcept {
  if (w < std::uint64_t{1} << 50 && q >= -22 && q <= 22) return clinger(w, q);
  if (w == 0 || static_cast<unsigned>(q + 307) > 307u + 288u) [[unlikely]]
    return decimal_to_double_rare(w, q);
  const LemireProduct p = lemire_product(w, q);
  if (((p.product.high + 1) & 0x1FF) <= 1) [[unlikely]]
    return decimal_to_double_rare(w, q);
  return std::bit_cast<double>(lemire_bits(p.product.high, p.lz, q));
}

}  // namespace bufstream::detail
