#include <cmath>

#include <bufstream/numbers.hpp>

#include "reader_impl.hpp"

namespace bufstream::ston {

using reading::is_digit;

namespace {

std::string_view strip_zeros(std::string_view d) {
  const std::size_t first = d.find_first_not_of('0');
  return first == std::string_view::npos ? std::string_view("0") : d.substr(first);
}

}  // namespace

void Reader::Impl::append_digits(std::string& out, SourcePosition start) {
  for (;;) {
    const char* p = in.cursor();
    const char* end = in.limit();
    while (p != end && is_digit(*p)) ++p;
    out.append(in.cursor(), static_cast<std::size_t>(p - in.cursor()));
    in.set_cursor(p);
    if (out.size() > options.max_number_length) {
      fail(start, fmt::format("number longer than {} digits (ReadOptions::max_number_length)",
                              options.max_number_length));
    }
    if (p != end || in.fill(1).empty()) return;
  }
}

void Reader::Impl::require_digits(std::string& out, SourcePosition start, std::string_view after) {
  out.clear();
  append_digits(out, start);
  if (out.empty()) fail_expected(fmt::format("a digit after {}", after));
}

Value Reader::Impl::parse_number() {
  if (auto fast = parse_plain_number_in_window()) return *fast;
  return parse_number_slow();
}

std::optional<Value> Reader::Impl::parse_plain_number_in_window() {
  const char* const start = in.cursor();
  const char* const end = in.limit();
  const char* p = start;
  const bool negative = p != end && *p == '-';
  if (negative) ++p;
  const char* const whole = p;
  while (p != end && is_digit(*p)) ++p;
  const auto length = static_cast<std::size_t>(p - whole);
  if (length == 0 || p == end) return std::nullopt;
  if (*p != '.' && *p != '/' && *p != 'e' && *p != 'E') {
    if (length > 18) return std::nullopt;
    std::int64_t value = 0;
    for (const char* d = whole; d != p; ++d) value = value * 10 + (*d - '0');
    in.set_cursor(p);
    return Value(negative ? -value : value);
  }
  if (*p != '.') return std::nullopt;
  const char* const fraction = ++p;
  while (p != end && is_digit(*p)) ++p;
  if (p == fraction || p == end) return std::nullopt;
  if (*p == 'e' || *p == 'E') {
    ++p;
    if (p != end && (*p == '-' || *p == '+')) ++p;
    const char* const exponent = p;
    while (p != end && is_digit(*p)) ++p;
    if (p == exponent || p == end) return std::nullopt;
  }
  const auto d = parse_double(std::string_view(start, static_cast<std::size_t>(p - start)));
  if (!d) return std::nullopt;
  in.set_cursor(p);
  return Value(*d);
}

Value Reader::Impl::parse_number_slow() {
  const SourcePosition start = here();
  const bool negative = peek() == '-';
  if (negative) in.advance(1);
  std::string& whole = digits[0];
  require_digits(whole, start, negative ? "'-'" : "the start of a number");
  int c = peek();
  if (c == '/') {
    in.advance(1);
    std::string& denominator = digits[1];
    require_digits(denominator, start, "'/'");
    const Integer n = detail::integer_from_digits(negative, strip_zeros(whole));
    const Integer d = detail::integer_from_digits(false, strip_zeros(denominator));
    if (d.sign() == 0) fail(start, "a fraction with a zero denominator");
    if (peek() == 's') {
      in.advance(1);
      std::string& scale = digits[2];
      require_digits(scale, start, "'s'");
      const auto s = parse_integer<std::uint32_t>(strip_zeros(scale));
      if (!s) fail(start, fmt::format("scale {} is too large", scale));
      return Value::scaled_decimal(n, d, *s);
    }
    return Value::fraction(n, d);
  }
  bool is_float = false;
  std::string& fraction = digits[1];
  fraction.clear();
  if (c == '.') {
    in.advance(1);
    is_float = true;
    append_digits(fraction, start);
    c = peek();
  }
  bool has_exponent = false, negative_exponent = false;
  std::string& exponent = digits[2];
  exponent.clear();
  if (c == 'e' || c == 'E') {
    in.advance(1);
    has_exponent = true;
    c = peek();
    if (c == '-' || c == '+') {
      negative_exponent = c == '-';
      in.advance(1);
    }
    append_digits(exponent, start);
  }
  if (is_float) return make_float(negative, whole, fraction, negative_exponent, exponent);
  const std::string_view mantissa = strip_zeros(whole);
  if (!has_exponent || exponent.empty() || mantissa == "0") {
    return Value(detail::integer_from_digits(negative, mantissa));
  }
  const std::string_view e = strip_zeros(exponent);
  const auto k = parse_integer<std::size_t>(e);
  if (!k || *k > options.max_number_length) {
    fail(start, fmt::format("exponent {} is larger than {} (ReadOptions::max_number_length)", e,
                            options.max_number_length));
  }
  if (!negative_exponent) {
    std::string scaled(mantissa);
    scaled.append(*k, '0');
    return Value(detail::integer_from_digits(negative, scaled));
  }
  std::string power = "1";
  power.append(*k, '0');
  return Value::fraction(detail::integer_from_digits(negative, mantissa),
                         detail::integer_from_digits(false, power));
}

Value Reader::Impl::make_float(bool negative, const std::string& whole, const std::string& fraction,
                               bool negative_exponent, const std::string& exponent) {
  std::string text;
  text.reserve(whole.size() + fraction.size() + exponent.size() + 5);
  if (negative) text.push_back('-');
  text.append(whole);
  text.push_back('.');
  text.append(fraction.empty() ? std::string_view("0") : std::string_view(fraction));
  if (!exponent.empty()) {
    text.push_back('e');
    if (negative_exponent) text.push_back('-');
    text.append(exponent);
  }
  if (auto d = parse_double(text)) return *d;
  // Too large for a double: Pharo's arithmetic overflows to infinity, and so do we.
  return negative ? -HUGE_VAL : HUGE_VAL;
}

}  // namespace bufstream::ston
