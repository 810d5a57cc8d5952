// Decimal to double, correctly rounded, without big numbers for up to 19 significant digits:
// Clinger's exact shortcut when the significand and the power of ten are both exact doubles,
// else the first step of the Eisel-Lemire method (D. Lemire, "Number Parsing at a Gigabyte per
// Second", 2021): one 64 x 64-bit product with the power of ten decides the 53 bits and the
// rounding for all but about one input in 256, which go to fast_float's `compute_float` (the
// whole method, subnormals included) and, when even that cannot decide, to the caller's exact
// fallback.
//
// Why this step is ours: in bufstream-bench, fast_float's `compute_float` in its place made
// canada.json's event read 16% slower and its document read 6%, and the numbers suite's parse
// 4-6% (docs/BENCHMARKS.md, 2e); a hand-written conversion stays where it wins 5%.
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
using kernels::multiply_64x64;
using kernels::Power128;

constexpr double declined = std::numeric_limits<double>::quiet_NaN();

/// Clinger: w and 10^|q| are exact doubles (w <= 2^53, |q| <= 22), so the one IEEE operation
/// rounds correctly.
[[gnu::always_inline]] inline double clinger(std::uint64_t w, int q) noexcept {
  const double m = static_cast<double>(w);
  return q < 0 ? m / exact_double_powers_of_ten[-q] : m * exact_double_powers_of_ten[q];
}

/// Eisel-Lemire's first product: w * 10^q ~ (w << lz) * T * 2^(floor_log2_pow10(q) - 63 - lz),
/// T the table's 64 bits (rounded down: the product is low by less than w << lz, so its high
/// word by at most 1). w * 10^q ~ product.high * 2^(floor_log2_pow10(q) + 1 - lz). w != 0,
/// min_power_of_ten <= q <= max_power_of_ten.
struct LemireProduct {
  Power128 product;
  int lz;
};
[[gnu::always_inline]] inline LemireProduct lemire_product(std::uint64_t w, int q) noexcept {
  const int lz = std::countl_zero(w);
  return {multiply_64x64(w << lz, kernels::power_of_ten_64(q)), lz};
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

/// The cases decimal_to_double_inline passes on, every one decided: Clinger's shortcut, then
/// fast_float's compute_float; NaN where `decimal_to_double` gives nullopt (numbers.hpp).
/// Out of line (numbers_decimal.cpp).
double decimal_to_double_rare(std::uint64_t w, int q) noexcept;

/// The double nearest to w * 10^q, or NaN where `decimal_to_double` gives nullopt: the common
/// cases in a few instructions, the rest passed to decimal_to_double_rare. Clinger's shortcut
/// only for significands below 2^50 (up to 15 digits), so that data of 16 and 17 digits (the
/// shortest forms of most doubles) does not alternate between the two methods, a branch the
/// processor mispredicts; Eisel-Lemire is right for small significands too. Its two unclear
/// cases (the low nine bits of the product all ones, where the lower product may carry into
/// them, and all zeros, where the value may lie halfway) are caught by one test, true for
/// about one input in 256, and decimal_to_double_rare decides them. From 10^-307 to 10^288 every w
/// from 1 up gives a normal double (the table's range), so the result needs no check there.
/// Measured on canada.json's 111,080 numbers converted in a loop: 3.0 -> 2.5 ns a number.
[[gnu::always_inline]] inline double decimal_to_double_inline(std::uint64_t w, int q) noexcept {
  if (w < std::uint64_t{1} << 50 && q >= -22 && q <= 22) return clinger(w, q);
  constexpr int min_q = kernels::min_power_of_ten;
  constexpr auto q_range = static_cast<unsigned>(kernels::max_power_of_ten - min_q);
  if (w == 0 || static_cast<unsigned>(q - min_q) > q_range) [[unlikely]]
    return decimal_to_double_rare(w, q);
  const LemireProduct p = lemire_product(w, q);
  if (((p.product.high + 1) & 0x1FF) <= 1) [[unlikely]]
    return decimal_to_double_rare(w, q);
  return std::bit_cast<double>(lemire_bits(p.product.high, p.lz, q));
}

}  // namespace bufstream::detail
