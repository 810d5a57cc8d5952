// json::Reader's numbers: from text to an integer or a double, by two paths.
//
//   - The window path (scan_in_window): a well-formed number with at most 19 significant
//     digits that lies in the stream's window with a byte after it, scanned and accumulated in
//     one pass with the kernel layer's digit words, then converted exactly (an integer as it
//     is, a fraction or exponent by decimal_to_double).
//   - The general path (scan_number, convert_number): everything else. It scans across
//     windows, says exactly what is wrong with a malformed number, and converts with
//     std::from_chars and parse_double (any number of digits, correctly rounded).
//
// read_number, read_double and read_int64 (behind read_integer<T>) each try the window path
// and hand anything it declines to the general path.
#include <bufstream/json/reader.hpp>

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>

#include <fmt/format.h>

#include <bufstream/detail/digits.hpp>
#include <bufstream/numbers.hpp>

#include <bufstream/json/detail/number_scan.hpp>

namespace bufstream::json {

namespace {

using detail::is_digit;
using detail::NumberScan;
using detail::scan_in_window;
using detail::WindowNumber;

// A number's text for an error message, cut if it is very long.
std::string shorten(std::string_view text) {
  if (text.size() <= 40) return std::string(text);
  return std::string(text.substr(0, 40)) + "...";
}

// A short integer right at `p`: an optional '-', 1 to 7 digits (not a leading zero), and a
// byte after them that ends the number (not '.', 'e' or 'E'), all in the eight bytes after
// the sign; `p` has at least nine readable bytes. The commonest number of a data file, read
// from one word without the window path's fraction and exponent states. `ok` is false when the
// number is anything else (the window path reads it).
struct ShortInteger {
  std::uint64_t magnitude;
  const char* end;
  bool negative;
  bool ok;
};
[[gnu::always_inline]] inline ShortInteger short_integer(const char* p) noexcept {
  const bool negative = *p == '-';
  const char* const digits = p + (negative ? 1 : 0);
  const bufstream::detail::WordDigits run = bufstream::detail::short_digit_run(digits);
  const char next = digits[run.count];
  const bool ok =
      run.count != 0 && (digits[0] != '0' || run.count == 1) && next != '.' && (next | 0x20) != 'e';
  return {run.value, digits + run.count, negative, ok};
}

}  // namespace

void Reader::fail_integer_range(std::string_view range) {
  fail_at(s_.token_start,
          fmt::format("expected an integer from {} but found {}", range, shorten(number_text_)));
}

// Consumes the window path's number: its text is kept for error messages.
inline void Reader::take_window_number(const char* start, const char* end) {
  s_.token_start = s_.in.position();
  number_text_ = std::string_view(start, static_cast<std::size_t>(end - start));
  s_.in.set_cursor(end);
}

Number Reader::read_number() {
  if (next_significant() >= 0) [[likely]] {  // a byte in the window: the path checks it
    const char* const start = s_.in.cursor();
    const WindowNumber w = scan_in_window(start, s_.in.limit());
    Number n;
    const auto take = [&n](auto value) { n = detail::as_number(value); };
    if (w.ok && detail::window_number_value(w, take)) [[likely]] {
      take_window_number(start, w.end);
      return n;
    }
  }
  return read_number_general();
}

double Reader::read_double() {
  if (const char* const p = s_.in.cursor(); s_.in.limit() - p >= 9 && !s_.failure) [[likely]] {
    if (const ShortInteger n = short_integer(p); n.ok) {
      take_window_number(p, n.end);
      // Exact: below 10^7. Negated as an integer: "-0" is the integer 0, so the double 0.0.
      return static_cast<double>(
          static_cast<std::int64_t>(n.negative ? 0 - n.magnitude : n.magnitude));
    }
  }
  return read_double_in_window();
}

[[gnu::noinline]] double Reader::read_double_in_window() {
  if (next_significant() >= 0) [[likely]] {  // a byte in the window: the path checks it
    const char* const start = s_.in.cursor();
    const WindowNumber w = scan_in_window(start, s_.in.limit());
    if (w.ok) [[likely]] {
      // An integer of at most 19 digits converts exactly rounded. "-0" is the integer 0, so
      // the double 0.0; "-0.0" is the double -0.0.
      const double d = w.is_float
                           ? bufstream::detail::decimal_to_double_or_nan(w.mantissa, w.exponent)
                           : static_cast<double>(w.mantissa);
      if (d == d) [[likely]] {
        take_window_number(start, w.end);
        return w.negative && (w.is_float || w.mantissa != 0) ? -d : d;
      }
    }
  }
  const Number n = read_number_general();
  switch (n.kind) {
    case Number::Kind::signed_integer: return static_cast<double>(n.i);
    case Number::Kind::unsigned_integer: return static_cast<double>(n.u);
    case Number::Kind::floating: break;
  }
  return n.d;
}

Reader::FastInteger Reader::read_int64() {
  if (const char* const p = s_.in.cursor(); s_.in.limit() - p >= 9 && !s_.failure) [[likely]] {
    if (const ShortInteger n = short_integer(p); n.ok) {
      take_window_number(p, n.end);
      const auto magnitude = static_cast<std::int64_t>(n.magnitude);
      return {n.negative ? -magnitude : magnitude, true};  // "-0" is the integer 0
    }
  }
  return read_int64_in_window();
}

[[gnu::noinline]] Reader::FastInteger Reader::read_int64_in_window() {
  if (next_significant() >= 0) [[likely]] {  // a byte in the window: the path checks it
    const char* const start = s_.in.cursor();
    const WindowNumber w = scan_in_window(start, s_.in.limit());
    const std::uint64_t limit = (std::uint64_t{1} << 63) - (w.negative ? 0 : 1);
    // (One branch: `&`, not `&&`.) "-0" is the integer 0.
    if (w.ok & !w.is_float & (w.mantissa <= limit)) [[likely]] {
      take_window_number(start, w.end);
      // Two's complement: exact for -2^63 too.
      return {static_cast<std::int64_t>(w.negative ? 0 - w.mantissa : w.mantissa), true};
    }
  }
  return {0, false};
}

// ---- The general path ----------------------------------------------------------------------

std::string_view Reader::scan_number() {
  NumberScan scan;
  const char* const start = s_.in.cursor();
  const char* p = scan.scan(start, s_.in.limit());
  std::string_view text;
  if (p != s_.in.limit()) [[likely]] {  // the whole number lies in this window
    text = std::string_view(start, static_cast<std::size_t>(p - start));
    s_.in.set_cursor(p);
  } else {
    number_spill_.assign(start, p);
    s_.in.set_cursor(p);
    while (!fill(1).empty()) {
      const char* q = s_.in.cursor();
      p = scan.scan(q, s_.in.limit());
      number_spill_.append(q, p);
      s_.in.set_cursor(p);
      if (p != s_.in.limit()) break;
    }
    text = number_spill_;
  }
  number_text_ = text;
  // Either a byte follows in the window or the input has ended: no refill needed here.
  const int next =
      s_.in.cursor() != s_.in.limit() ? static_cast<unsigned char>(*s_.in.cursor()) : -1;
  if (!scan.complete()) fail_expected(scan.expectation(), next);
  if (scan.state == NumberScan::zero && next >= '0' && next <= '9') {
    fail_expected("'.', 'e' or the end of the number after a leading 0", next);
  }
  number_is_float_ = scan.is_float;
  return text;
}

Number Reader::read_number_general() {
  const int c = next_significant();
  s_.token_start = s_.in.position();
  if (c != '-' && !is_digit(static_cast<char>(c))) fail_expected("a number", c);
  const std::string_view text = scan_number();
  return convert_number(text, number_is_float_);
}

std::optional<Number> detail::convert_number_text(std::string_view text, bool is_float) {
  Number n;
  if (!is_float) {
    const bool negative = text[0] == '-';
    std::uint64_t u = 0;
    const char* const end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data() + (negative ? 1 : 0), end, u);
    if (ec == std::errc()) {
      if (!negative || u == 0) {  // "-0" is the integer 0 (docs/ARCHITECTURE.md, "Numbers")
        n.kind = Number::Kind::unsigned_integer;
        n.u = u;
        return n;
      }
      constexpr auto magnitude_of_min = std::uint64_t{1} << 63;
      if (u <= magnitude_of_min) {
        n.kind = Number::Kind::signed_integer;
        n.i = static_cast<std::int64_t>(0 - u);
        return n;
      }
    }
    // Beyond 64 bits: the nearest double, below.
  }
  const std::optional<double> d = parse_double(text);
  if (!d) return std::nullopt;
  n.kind = Number::Kind::floating;
  n.d = *d;
  return n;
}

std::optional<Number> detail::indexed_number_text(const char* start, const char* end,
                                                  const char*& number_end) noexcept {
  NumberScan scan;
  number_end = scan.scan(start, end);
  if (number_end == end || !scan.complete() ||
      !ends_token[static_cast<unsigned char>(*number_end)]) {
    return std::nullopt;
  }
  return convert_number_text(std::string_view(start, static_cast<std::size_t>(number_end - start)),
                             scan.is_float);
}

Number Reader::convert_number(std::string_view text, bool is_float) {
  const std::optional<Number> n = detail::convert_number_text(text, is_float);
  if (!n) {
    fail_at(s_.token_start, fmt::format("expected a number within the range of double but found {}",
                                        shorten(text)));
  }
  return *n;
}

}  // namespace bufstream::json
