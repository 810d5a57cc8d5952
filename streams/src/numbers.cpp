#include <bufstream/numbers.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

namespace bufstream {

namespace {

// Decimal exponent of the first significant digit of a number text that from_chars found out
// of range; it tells overflow (large) from underflow (small).
long magnitude_exponent(std::string_view text) {
  long exponent = 0;
  long point = -1, first_nonzero = -1, position = 0;
  std::size_t i = 0;
  if (i < text.size() && text[i] == '-') ++i;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '.') {
      point = position;
    } else if (c >= '0' && c <= '9') {
      if (c != '0' && first_nonzero < 0) first_nonzero = position;
      ++position;
    } else {
      break;
    }
  }
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool negative = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
    for (; i < text.size() && exponent < 100000; ++i) exponent = exponent * 10 + (text[i] - '0');
    if (negative) exponent = -exponent;
  }
  if (point < 0) point = position;
  if (first_nonzero < 0) return -100000;  // all zeros
  return exponent + (point - first_nonzero - 1);
}

// The common shapes `-?digits(.digits)?([eE][+-]?digits)?` with at most 19 significant digits,
// converted without from_chars; nullopt for anything else (the caller then takes the full path).
std::optional<double> parse_short_decimal(std::string_view text) noexcept {
  const char* p = text.data();
  const char* const end = p + text.size();
  const bool negative = p != end && *p == '-';
  if (negative) ++p;
  std::uint64_t significand = 0;
  int significant_digits = 0;
  int exponent = 0;
  const char* const integer_start = p;
  for (; p != end && *p >= '0' && *p <= '9'; ++p) {
    if (significand != 0 || *p != '0') {
      significand = significand * 10 + static_cast<unsigned>(*p - '0');
      ++significant_digits;
    }
  }
  if (p == integer_start) return std::nullopt;
  if (p != end && *p == '.') {
    const char* const fraction_start = ++p;
    for (; p != end && *p >= '0' && *p <= '9'; ++p) {
      if (significand != 0 || *p != '0') {
        significand = significand * 10 + static_cast<unsigned>(*p - '0');
        ++significant_digits;
      }
      --exponent;
    }
    if (p == fraction_start) return std::nullopt;
  }
  if (p != end && (*p == 'e' || *p == 'E')) {
    ++p;
    bool negative_exponent = false;
    if (p != end && (*p == '+' || *p == '-')) negative_exponent = *p++ == '-';
    const char* const exponent_start = p;
    int e = 0;
    for (; p != end && *p >= '0' && *p <= '9'; ++p) {
      if (e < 100000) e = e * 10 + (*p - '0');
    }
    if (p == exponent_start) return std::nullopt;
    exponent += negative_exponent ? -e : e;
  }
  if (p != end || significant_digits > 19) return std::nullopt;
  const std::optional<double> value = decimal_to_double(significand, exponent);
  if (!value) return std::nullopt;
  return negative ? -*value : *value;
}

}  // namespace

std::optional<double> parse_double(std::string_view text) noexcept {
  if (const std::optional<double> value = parse_short_decimal(text)) return value;
  if (text.empty()) return std::nullopt;
  const std::size_t digit_at = text[0] == '-' ? 1 : 0;
  if (digit_at >= text.size()) return std::nullopt;
  const char first = text[digit_at];
  if (!((first >= '0' && first <= '9') || first == '.')) return std::nullopt;  // no inf, nan
  double value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value, std::chars_format::general);
  if (ptr != end) return std::nullopt;
  if (ec == std::errc::result_out_of_range) {
    if (magnitude_exponent(text) > 0) return std::nullopt;  // overflow
    return text[0] == '-' ? -0.0 : 0.0;                      // underflow rounds to zero
  }
  if (ec != std::errc()) return std::nullopt;
  return value;
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
      case State::leading_point:
        return digit && go(State::fraction);
      case State::fraction:
        return digit || exponent_mark(c);
      case State::exponent:
        if (c == '+' || c == '-') return go(State::exponent_sign);
        [[fallthrough]];
      case State::exponent_sign:
        return digit && go(State::exponent_digits);
      case State::exponent_digits:
        return digit;
    }
    return false;
  }

 private:
  enum class State {
    start, sign, integer, leading_point, fraction, exponent, exponent_sign, exponent_digits
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
