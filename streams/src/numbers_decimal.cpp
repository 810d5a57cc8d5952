// decimal_to_double out of line, for the format readers that scan digits themselves (the code is
// in numbers_decimal.hpp, shared with parse_double).
#include <bufstream/numbers.hpp>

#include "numbers_decimal.hpp"

namespace bufstream {

double detail::decimal_to_double_or_nan(std::uint64_t w, int q) noexcept {
  return decimal_to_double_inline(w, q);
}

double detail::decimal_to_double_rare(std::uint64_t w, int q) noexcept {
  return decimal_to_double_checked(w, q);
}

}  // namespace bufstream
