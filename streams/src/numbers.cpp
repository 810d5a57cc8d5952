#include <bufstream/numbers.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include <fast_float/fast_float.h>
#include <fmt/format.h>

#include <bufstream/detail/digits.hpp>
#include <bufstream/kernels/format_integer.hpp>

#include "numbers_decimal.hpp"

namespace bufstream {

namespace {

// More fraction digits than this go to the full path, which keeps the exponent arithmetic
// below far from int's range (any number of leading zeros is valid text).
constexpr std::ptrdiff_t max_fast_fraction_digits = 100000;

// The full path: fast_float's from_chars for what the fast path does not take (more than 19
// significant digits, a midpoint it cannot decide, `.5` and `5.`, and text that is not a number
// at all). It reads `inf` and `nan` too, refused before it, and gives infinity for a number
// too large, refused after it; an underflow is zero, as it should be.
[[gnu::noinline]] double parse_double_in_full(std::string_view text) noexcept {
  constexpr double none = std::numeric_limits<double>::quiet_NaN();
  const std::size_t digit_at = !text.empty() && text[0] == '-' ? 1 : 0;
  if (digit_at >= text.size()) return none;
  const char first = text[digit_at];
  if (!((first >= '0' && first <= '9') || first == '.')) return none;
  double value = 0;
  const char* const end = text.data() + text.size();
  const auto [ptr, ec] = fast_float::from_chars(text.data(), end, value);
  if (ptr != end || ec != std::errc() || std::isinf(value)) return none;
  return value;
}

}  // namespace

// The fast path takes `-?digits(.digits)?([eE][+-]?digits)?` with at most 19 significant
// digits, the significand accumulated as the digits are scanned, and converts it with
// decimal_to_double; anything else, or a case decimal_to_double declines, takes the full path.
double detail::parse_double_or_nan(std::string_view text) noexcept {
  constexpr double none = std::numeric_limits<double>::quiet_NaN();
  const char* p = text.data();
  const char* const end = p + text.size();
  const bool negative = p != end && *p == '-';
  if (negative) ++p;
  const char* const digits_start = p;
  std::uint64_t significand = 0;
  p = bufstream::detail::scan_integer_part(p, end, significand);
  std::ptrdiff_t digit_count = p - digits_start;
  if (digit_count == 0) return parse_double_in_full(text);
  std::ptrdiff_t fraction_digits = 0;
  if (p != end && *p == '.') {
    const char* const fraction_start = ++p;
    p = bufstream::detail::scan_digits(p, end, significand);
    fraction_digits = p - fraction_start;
    if (fraction_digits == 0 || fraction_digits > max_fast_fraction_digits) {
      return parse_double_in_full(text);
    }
    digit_count += fraction_digits;
  }
  int exponent = -static_cast<int>(fraction_digits);
  if (p != end) {
    if (*p != 'e' && *p != 'E') return none;
    ++p;
    bool negative_exponent = false;
    if (p != end && (*p == '+' || *p == '-')) negative_exponent = *p++ == '-';
    const char* const exponent_start = p;
    int e = 0;
    for (; p != end; ++p) {
      const unsigned digit = static_cast<unsigned char>(*p) - unsigned{'0'};
      if (digit > 9) return none;
      if (e < 100000) e = e * 10 + static_cast<int>(digit);  // beyond: overflow or zero anyway
    }
    if (p == exponent_start) return none;
    exponent += negative_exponent ? -e : e;
  }
  if (digit_count > 19) {
    // Leading zeros (and the point among them) add nothing to the significand.
    for (const char* q = digits_start; q != end && (*q == '0' || *q == '.'); ++q) {
      if (*q == '0') --digit_count;
    }
    if (digit_count > 19) return parse_double_in_full(text);
  }
  const double value = detail::decimal_to_double_inline(significand, exponent);
  if (value != value) return parse_double_in_full(text);
  return negative ? -value : value;
}

detail::ParsedDigits detail::parse_digits(const char* p, const char* end) noexcept {
  const bufstream::detail::DigitsValue digits = bufstream::detail::value_of_digits(p, end);
  return {digits.value, digits.ok};
}

char* detail::format_signed(char* out, std::int64_t value) noexcept {
  return kernels::format_signed(out, value);
}

char* detail::format_unsigned(char* out, std::uint64_t value) noexcept {
  return kernels::format_unsigned(out, value);
}

std::string_view next_number_text(ReadStream& in, std::string& spill) {
  return in.next_while(
      [](char c) {
        return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
      },
      spill);
}

namespace {

// Where a decimal number's text stands, byte by byte: `-? (digits (. digits*)? | . digits)
// ([eE] [+-]? digits)?`. It tells `read_double` where the number ends without going back, so
// that "1-2" reads as 1 and leaves "-2".
class NumberScanner {
 public:
  bool accepts(char c) noexcept {
    const bool digit = c >= '0' && c <= '9';
    switch (state_) {
      case State::start:
        if (c == '-') return go(State::sign);
        [[fallthrough]];
      case State::sign:
        if (digit) return go(State::integer);
        if (c == '.') return go(State::leading_point);
        return false;
      case State::integer:
        if (digit) return true;
        if (c == '.') return go(State::fraction);
        return exponent_mark(c);
      case State::leading_point: return digit && go(State::fraction);
      case State::fraction: return digit || exponent_mark(c);
      case State::exponent:
        if (c == '+' || c == '-') return go(State::exponent_sign);
        [[fallthrough]];
      case State::exponent_sign: return digit && go(State::exponent_digits);
      case State::exponent_digits: return digit;
    }
    return false;
  }

 private:
  enum class State {
    start,
    sign,
    integer,
    leading_point,
    fraction,
    exponent,
    exponent_sign,
    exponent_digits
  };
  bool go(State next) noexcept {
    state_ = next;
    return true;
  }
  bool exponent_mark(char c) noexcept { return (c == 'e' || c == 'E') && go(State::exponent); }

  State state_ = State::start;
};

}  // namespace

double read_double(ReadStream& in) {
  std::string spill;
  const std::uint64_t start = in.position();
  NumberScanner scanner;
  const std::string_view text =
      in.next_while([&scanner](char c) { return scanner.accepts(c); }, spill);
  if (auto value = parse_double(text)) return *value;
  detail::throw_bad_number(start, text, "number");
}

namespace detail {

void throw_bad_number(std::uint64_t offset, std::string_view text, std::string_view type) {
  if (text.empty()) throw ParseError({offset, 0, 0}, fmt::format("expected {}", type));
  throw ParseError({offset, 0, 0}, fmt::format("invalid {} '{}'", type, text));
}

}  // namespace detail

}  // namespace bufstream
