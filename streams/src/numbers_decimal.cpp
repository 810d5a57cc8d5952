// decimal_to_double out of line, for the format readers that scan digits themselves (the code is
// in numbers_decimal.hpp, shared with parse_double).
#include <bufstream/numbers.hpp>

#include <fast_float/fast_float.h>

#include "numbers_decimal.hpp"

namespace bufstream {

double detail::decimal_to_double_or_nan(std::uint64_t w, int q) noexcept {
  return decimal_to_double_inline(w, q);
}

double detail::decimal_to_double_rare(std::uint64_t w, int q) noexcept {
  if (w <= std::uint64_t{1} << 53 && q >= -22 && q <= 22) return clinger(w, q);
  // A negative power of two: compute_float could not decide without the digits.
  using binary = fast_float::binary_format<double>;
  const fast_float::adjusted_mantissa am = fast_float::compute_float<binary>(q, w);
  if (am.power2 < 0 || am.power2 >= binary::infinite_power()) return declined;
  return std::bit_cast<double>(am.mantissa | static_cast<std::uint64_t>(am.power2)
                                                 << binary::mantissa_explicit_bits());
}

}  // namespace bufstream
