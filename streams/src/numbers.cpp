#include <bufstream/numbers.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include <fmt/format.h>

#include "numbers_decimal.hpp"

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

// ---- The fast path: fraction digits eight at a time (see detail::leading_digits) -----------
//
// Measured on the benchmark's doubles, plain loops with branches the processor predicts beat
// words whose digit count is computed (detail::leading_digits) everywhere else: the next load
// would wait for that count, and the scan is bound by such latencies, not by instructions.

// True when all eight bytes are ASCII digits: each byte's high nibble is 3, and adding 6 to the
// byte leaves it 3 (the low nibble is at most 9). A byte of 0xFA or more carries into the next
// one when 6 is added, but its own high nibble is F, so the test fails anyway.
constexpr bool all_digits(std::uint64_t bytes) noexcept {
  constexpr std::uint64_t high_nibbles = 0xF0F0F0F0F0F0F0F0;
  return ((bytes & high_nibbles) | (((bytes + 0x0606060606060606) & high_nibbles) >> 4)) ==
         0x3333333333333333;
}

static_assert(all_digits(0x3736353433323130));                                          // "01234567"
static_assert(!all_digits(0x373635342E323130) && !all_digits(0x373635343A323130));      // '.', ':'
static_assert(!all_digits(0x373635342F323130) && !all_digits(0x37363534FA323130));      // '/', 0xFA
static_assert(!all_digits(0x3736353433323120) && !all_digits(0xFF36353433323130));      // ' ', 0xFF

// Scans the digits from `p` to at most `end`, appending each to `w` (modulo 2^64: the caller
// checks that no more than 19 of them count), and returns where they end. Integer parts are
// mostly short ("0.1", "123.4"): byte by byte. Fraction parts are often long ("0.1" printed
// to 17 digits): eight at a time first.
[[gnu::always_inline]] inline const char* scan_digits(const char* p, const char* end, std::uint64_t& w) noexcept {
  for (; p != end; ++p) {
    const unsigned digit = static_cast<unsigned char>(*p) - unsigned{'0'};
    if (digit > 9) break;
    w = w * 10 + digit;
  }
  return p;
}
[[gnu::always_inline]] inline const char* scan_digits_eight_at_a_time(const char* p, const char* end,
                                                                        std::uint64_t& w) noexcept {
  while (end - p >= 8) {
    const std::uint64_t bytes = detail::load_eight(p);
    if (!all_digits(bytes)) break;
    w = w * 100000000 + detail::leading_digits_value(bytes, 8);
    p += 8;
  }
  return scan_digits(p, end, w);
}

// More fraction digits than this go to the full path, which keeps the exponent arithmetic
// below far from int's range (any number of leading zeros is valid text).
constexpr std::ptrdiff_t max_fast_fraction_digits = 100000;

// The full path: `std::from_chars` for what the fast path does not take (more than 19
// significant digits, a midpoint it cannot decide, subnormals, zero after rounding, overflow,
// `.5` and `5.`, and text that is not a number at all).
[[gnu::noinline]] double parse_double_with_from_chars(std::string_view text) noexcept {
  constexpr double none = std::numeric_limits<double>::quiet_NaN();
  if (text.empty()) return none;
  const std::size_t digit_at = text[0] == '-' ? 1 : 0;
  if (digit_at >= text.size()) return none;
  const char first = text[digit_at];
  if (!((first >= '0' && first <= '9') || first == '.')) return none;  // no inf, nan
  double value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value, std::chars_format::general);
  if (ptr != end) return none;
  if (ec == std::errc::result_out_of_range) {
    if (magnitude_exponent(text) > 0) return none;  // overflow
    return text[0] == '-' ? -0.0 : 0.0;             // underflow rounds to zero
  }
  if (ec != std::errc()) return none;
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
  p = scan_digits(p, end, significand);
  std::ptrdiff_t digit_count = p - digits_start;
  if (digit_count == 0) return parse_double_with_from_chars(text);
  std::ptrdiff_t fraction_digits = 0;
  if (p != end && *p == '.') {
    const char* const fraction_start = ++p;
    p = scan_digits_eight_at_a_time(p, end, significand);
    fraction_digits = p - fraction_start;
    if (fraction_digits == 0 || fraction_digits > max_fast_fraction_digits) {
      return parse_double_with_from_chars(text);
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
    if (digit_count > 19) return parse_double_with_from_chars(text);
  }
  const double value = detail::decimal_to_double_inline(significand, exponent);
  if (value != value) return parse_double_with_from_chars(text);
  return negative ? -value : value;
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
