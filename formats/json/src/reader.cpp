#include <bufstream/json/reader.hpp>

#include <bufstream/items_left.hpp>

#include <algorithm>
#include <bit>
#include <cstring>
#include <array>
#include <charconv>
#include <limits>
#include <system_error>

#include <fmt/format.h>

#include <bufstream/kernels/byte_set.hpp>
#include <bufstream/numbers.hpp>
#include <bufstream/utf8.hpp>

namespace bufstream::json {

namespace {

constexpr int as_byte(char c) noexcept { return static_cast<unsigned char>(c); }

// Where a run of bytes that a string holds as they are ends: at '"', '\\', a control byte or a
// byte of a multi-byte UTF-8 sequence (validated on its own).
constexpr kernels::ByteSet string_stops({'"', '\\'}, {.controls = true, .non_ascii = true});

constexpr bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }

constexpr std::uint64_t repeat_byte(std::uint8_t b) noexcept { return 0x0101010101010101ULL * b; }

// The SWAR loops below number a word's bytes from the low end, as the stream layer's digit
// helpers do.
using bufstream::detail::load_eight;

// The value of eight decimal digits, already reduced to 0..9 per byte, the first digit in the
// low byte: combine pairs, then quads, then halves, with three multiplications.
constexpr std::uint64_t combine_eight_digits(std::uint64_t v) noexcept {
  v = v * 10 + (v >> 8);
  return (((v & 0x000000FF000000FFULL) * (100 + (1000000ULL << 32))) +
          (((v >> 16) & 0x000000FF000000FFULL) * (1 + (10000ULL << 32)))) >>
         32;
}

constexpr std::uint64_t powers_of_ten_u64_19[] = {
    1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000, 10000000000,
    100000000000, 1000000000000, 10000000000000, 100000000000000, 1000000000000000,
    10000000000000000, 100000000000000000, 1000000000000000000, 10000000000000000000u};

// Consumes the digits at p, appending them to `value` (which wraps beyond 19 digits: callers
// count digits); returns where the digits end. Eight bytes at a time while the window has
// them: the high bit of each byte of `non_digit` marks a byte outside '0'..'9' (no carry or
// borrow crosses from a digit byte into the next), so the first marked byte ends the run.
inline const char* scan_digits(const char* p, const char* end, std::uint64_t& value) noexcept {
  while (end - p >= 8) {
    const std::uint64_t v = load_eight(p);
    const std::uint64_t non_digit =
        ((v + repeat_byte(0x46)) | (v - repeat_byte(0x30))) & repeat_byte(0x80);
    if (non_digit == 0) {
      value = value * 100000000 + combine_eight_digits(v - repeat_byte(0x30));
      p += 8;
      continue;
    }
    const auto count = static_cast<unsigned>(std::countr_zero(non_digit)) / 8;
    if (count > 0) {  // shift the digits to the top, zeros (leading digits 0) below them
      const std::uint64_t digits = (v - repeat_byte(0x30)) << (8 * (8 - count));
      value = value * bufstream::detail::powers_of_ten_to_8[count] + combine_eight_digits(digits);
    }
    return p + count;
  }
  while (p != end && is_digit(*p)) value = value * 10 + static_cast<unsigned>(*p++ - '0');
  return p;
}


// The RFC 8259 number grammar as a state machine, so that a number can be scanned in pieces
// when it straddles two windows:  -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
struct NumberScan {
  enum State : std::uint8_t {
    start, minus, zero, integer, dot, fraction, exponent_mark, exponent_sign, exponent
  };
  State state = start;
  bool is_float = false;

  // Consumes the longest prefix of [p, end) that continues the number; returns where it
  // stopped (`end` when the number may go on in the next window).
  const char* scan(const char* p, const char* end) noexcept {
    for (; p != end; ++p) {
      const char c = *p;
      switch (state) {
        case start:
          if (c == '-') {
            state = minus;
            continue;
          }
          [[fallthrough]];
        case minus:
          if (c == '0') {
            state = zero;
          } else if (is_digit(c)) {
            state = integer;
          } else {
            return p;
          }
          continue;
        case integer:
          while (p != end && is_digit(*p)) ++p;
          if (p == end) return p;
          [[fallthrough]];
        case zero:
          if (*p == '.') {
            state = dot;
            is_float = true;
          } else if (*p == 'e' || *p == 'E') {
            state = exponent_mark;
            is_float = true;
          } else {
            return p;
          }
          continue;
        case dot:
          if (!is_digit(c)) return p;
          state = fraction;
          continue;
        case fraction:
          if (is_digit(c)) continue;
          if (c != 'e' && c != 'E') return p;
          state = exponent_mark;
          continue;
        case exponent_mark:
          if (c == '+' || c == '-') {
            state = exponent_sign;
          } else if (is_digit(c)) {
            state = exponent;
          } else {
            return p;
          }
          continue;
        case exponent_sign:
          if (!is_digit(c)) return p;
          state = exponent;
          continue;
        case exponent:
          if (!is_digit(c)) return p;
          continue;
      }
    }
    return p;
  }

  bool complete() const noexcept {
    return state == zero || state == integer || state == fraction || state == exponent;
  }

  // What the number needed next, when it stopped incomplete.
  const char* expectation() const noexcept {
    switch (state) {
      case minus: return "a digit after '-'";
      case dot: return "a digit after '.'";
      case exponent_mark: return "'+', '-' or a digit in the exponent";
      case exponent_sign: return "a digit in the exponent";
      default: return "a number";
    }
  }
};

// Parses the four hex digits at w[at..at+4) into `unit`; on failure returns the index of the
// first bad byte (which may be w.size(): the input ended).
std::optional<std::size_t> parse_hex4(std::string_view w, std::size_t at, unsigned& unit) {
  unit = 0;
  for (std::size_t i = at; i < at + 4; ++i) {
    if (i >= w.size()) return i;
    const char c = w[i];
    unsigned digit = 0;
    if (c >= '0' && c <= '9') {
      digit = static_cast<unsigned>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      digit = static_cast<unsigned>(c - 'a' + 10);
    } else if (c >= 'A' && c <= 'F') {
      digit = static_cast<unsigned>(c - 'A' + 10);
    } else {
      return i;
    }
    unit = unit * 16 + digit;
  }
  return std::nullopt;
}

int byte_at(std::string_view w, std::size_t i) { return i < w.size() ? as_byte(w[i]) : -1; }

// A number's text for an error message, cut if it is very long.
std::string shorten(std::string_view text) {
  if (text.size() <= 40) return std::string(text);
  return std::string(text.substr(0, 40)) + "...";
}

struct SkipHandler {
  void null() {}
  void boolean(bool) {}
  void integer(std::int64_t) {}
  void unsigned_integer(std::uint64_t) {}
  void floating(double) {}
  void string(std::string_view) {}
  void key(std::string_view) {}
  void begin_array() {}
  void end_array() {}
  void begin_object() {}
  void end_object() {}
};

}  // namespace

Reader::Reader(ReadStream& in, ReadOptions options) : in_(in), options_(std::move(options)) {}

SourcePosition Reader::position() const noexcept { return lines_.at(in_.position()); }

std::optional<std::uint64_t> Reader::estimated_elements_left(std::uint64_t start,
                                                             std::size_t count) const {
  if (failure_) return std::nullopt;
  return estimate_items_left(in_, start, count);
}

void Reader::fail_at(std::uint64_t offset, std::string message) {
  ParseError error(lines_.at(offset), std::move(message), options_.source_name);
  failure_ = std::make_exception_ptr(error);
  throw error;
}

void Reader::fail_at_token(std::string message) { fail_at(token_start_, std::move(message)); }

// Every refill goes through here: a read error fails the reader like a parse error does, so
// that a later call throws it again instead of parsing on from the middle of a value.
std::string_view Reader::fill(std::size_t n) {
  try {
    return in_.fill(n);
  } catch (const IoError&) {
    failure_ = std::current_exception();
    throw;
  }
}

void Reader::fail_expected(std::string_view expected, int found) {
  fail_at(in_.position(), fmt::format("expected {} but found {}", expected, describe_byte(found)));
}

void Reader::fail_integer_range(std::string_view range) {
  fail_at(token_start_,
          fmt::format("expected an integer from {} but found {}", range, shorten(number_text_)));
}

int Reader::skip_whitespace() {
  for (;;) {
    const char* p = in_.cursor();
    const char* const end = in_.limit();
    while (p != end) {
      const char c = *p;
      if (c == ' ' || c == '\t' || c == '\r') {
        ++p;
      } else if (c == '\n') {
        ++p;
        lines_.new_line(offset_of(p));
      } else {
        in_.set_cursor(p);
        // A byte-order mark can only be at the very start, and no value starts with 0xEF:
        // the check costs nothing on valid input.
        if (c == '\xEF' && options_.skip_bom && in_.position() == 0 && fill(3).starts_with("\xEF\xBB\xBF")) {
          in_.advance(3);
          break;
        }
        return as_byte(c);
      }
    }
    if (p == end) {
      in_.set_cursor(p);
      if (fill(1).empty()) return -1;
    }
  }
}

void Reader::finish() {
  const int c = next_significant();
  if (c >= 0) fail_expected("end of input", c);
}

ValueType Reader::peek() {
  const int c = next_significant();
  switch (c) {
    case '[': return ValueType::array;
    case '{': return ValueType::object;
    case '"': return ValueType::string;
    case 't':
    case 'f': return ValueType::boolean;
    case 'n': return ValueType::null;
    case '-':
    case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9': return ValueType::number;
    default: fail_expected("a value", c);
  }
}

void Reader::skip_value() {
  SkipHandler skip;
  parse(skip);
}

// ---- Literals ------------------------------------------------------------------------------

void Reader::read_literal(std::string_view literal) {
  token_start_ = in_.position();
  const std::string_view w = fill(literal.size());
  for (std::size_t i = 0; i < literal.size(); ++i) {
    if (i >= w.size() || w[i] != literal[i]) {
      fail_at(token_start_ + i,
              fmt::format("expected '{}' but found {}", literal, describe_byte(byte_at(w, i))));
    }
  }
  in_.advance(literal.size());
}

void Reader::read_null() {
  const int c = next_significant();
  if (c != 'n') fail_expected("null", c);
  read_literal("null");
}

bool Reader::skip_null() {
  if (next_significant() != 'n') return false;
  read_literal("null");
  return true;
}

bool Reader::read_bool() {
  const int c = next_significant();
  if (c == 't') {
    read_literal("true");
    return true;
  }
  if (c != 'f') fail_expected("true or false", c);
  read_literal("false");
  return false;
}

// ---- Numbers -------------------------------------------------------------------------------

std::string_view Reader::scan_number() {
  NumberScan scan;
  const char* const start = in_.cursor();
  const char* p = scan.scan(start, in_.limit());
  std::string_view text;
  if (p != in_.limit()) [[likely]] {  // the whole number lies in this window
    text = std::string_view(start, static_cast<std::size_t>(p - start));
    in_.set_cursor(p);
  } else {
    number_spill_.assign(start, p);
    in_.set_cursor(p);
    while (!fill(1).empty()) {
      const char* q = in_.cursor();
      p = scan.scan(q, in_.limit());
      number_spill_.append(q, p);
      in_.set_cursor(p);
      if (p != in_.limit()) break;
    }
    text = number_spill_;
  }
  number_text_ = text;
  // Either a byte follows in the window or the input has ended: no refill needed here.
  const int next = in_.cursor() != in_.limit() ? as_byte(*in_.cursor()) : -1;
  if (!scan.complete()) fail_expected(scan.expectation(), next);
  if (scan.state == NumberScan::zero && next >= '0' && next <= '9') {
    fail_expected("'.', 'e' or the end of the number after a leading 0", next);
  }
  number_is_float_ = scan.is_float;
  return text;
}

namespace {

// A number scanned by the fast path (see scan_in_window).
struct WindowNumber {
  std::uint64_t mantissa;  // all significant digits, integer and fraction part
  int exponent;            // of the mantissa's last digit
  const char* end;         // the byte after the number
  bool negative;
  bool is_float;           // has a fraction or an exponent
  bool ok;                 // false: none of the above holds; the general path reads it
};

// The fast path of every number: one that lies in [start, end) with a byte after it (so that
// no refill can continue it), is well-formed, and has at most 19 significant digits (the
// mantissa is exact), scanned and accumulated in one pass. Anything else, malformed numbers
// included, is left to the general path (ok = false), which says what is wrong.
[[gnu::always_inline]] inline WindowNumber scan_in_window(const char* const start,
                                                          const char* const end) noexcept {
  // The fields are kept in locals until the end: a reference to a member of the result
  // (scan_digits') would keep it in memory.
  WindowNumber n{0, 0, nullptr, *start == '-', false, false};
  const char* p = start + (n.negative ? 1 : 0);
  std::uint64_t mantissa = 0;
  bool is_float = false;
  std::size_t digits = 0;  // significant digits in the mantissa (wraps past 19: counted)
  const bool zero_integer_part = p != end && *p == '0';
  if (zero_integer_part) {
    ++p;
  } else {
    const char* const first = p;
    p = scan_digits(p, end, mantissa);
    digits = static_cast<std::size_t>(p - first);
    if (digits == 0) return n;
  }
  if (p == end) return n;
  long exponent = 0;
  if (*p == '.') {
    is_float = true;
    const char* const first = ++p;
    // Leading zeros of 0.000ddd are not significant. (Not `mantissa == 0`: twenty integer
    // digits can wrap the mantissa to exactly 0, as 2^64 does.)
    if (zero_integer_part) {
      while (p != end && *p == '0') ++p;
    }
    const char* const significant = p;
    p = scan_digits(p, end, mantissa);
    if (p == first || p == end) return n;
    digits += static_cast<std::size_t>(p - significant);
    exponent = -static_cast<long>(p - first);
  }
  if ((*p | 0x20) == 'e') {
    is_float = true;
    ++p;
    bool negative_exponent = false;
    if (p != end && (*p == '+' || *p == '-')) negative_exponent = *p++ == '-';
    const char* const first = p;
    long e = 0;
    while (p != end && is_digit(*p)) {
      if (e < 100000) e = e * 10 + (*p - '0');
      ++p;
    }
    if (p == first || p == end) return n;
    exponent += negative_exponent ? -e : e;
  }
  // A digit right after the number means a leading zero ("01"): the general path says so.
  // |exponent| stays below 100000 + the window's size: an int holds it.
  n.ok = !is_digit(*p) && digits <= 19;
  n.mantissa = mantissa;
  n.is_float = is_float;
  n.exponent = static_cast<int>(exponent);
  n.end = p;
  return n;
}

}  // namespace

Number Reader::read_number() {
  const int c = next_significant();
  token_start_ = in_.position();
  if (c != '-' && !(c >= '0' && c <= '9')) fail_expected("a number", c);
  const char* const start = in_.cursor();
  const WindowNumber w = scan_in_window(start, in_.limit());
  if (!w.ok) return read_number_general();
  number_text_ = std::string_view(start, static_cast<std::size_t>(w.end - start));
  in_.set_cursor(w.end);  // well-formed: only the conversion is left
  Number n;
  if (!w.is_float) {
    if (!w.negative) {
      n.kind = Number::Kind::unsigned_integer;
      n.u = w.mantissa;
      return n;
    }
    if (w.mantissa <= std::uint64_t{1} << 63) {
      n.kind = Number::Kind::signed_integer;
      n.i = static_cast<std::int64_t>(0 - w.mantissa);  // two's complement: exact for -2^63 too
      return n;
    }
  } else {
    const double d = bufstream::detail::decimal_to_double_or_nan(w.mantissa, w.exponent);
    if (d == d) {  // not NaN: converted
      n.kind = Number::Kind::floating;
      n.d = w.negative ? -d : d;
      return n;
    }
  }
  return convert_number(number_text_, w.is_float);
}

namespace {

// How many of the 8 bytes of v (a load_eight word) are decimal digits before the first other
// byte: 0 to 8.
inline unsigned leading_digits(std::uint64_t v) noexcept {
  return static_cast<unsigned>(bufstream::detail::leading_digits(v));
}

// The value of the first `count` (1 to 8) digits of v.
inline std::uint64_t digits_value(std::uint64_t v, unsigned count) noexcept {
  return combine_eight_digits((v - repeat_byte(0x30)) << (8 * (8 - count)));
}

}  // namespace

// The typed reader's doubles as they usually come, [-]ddd.ddd[e[+-]dd] with at most 7 integer
// digits, 19 significant digits and 3 exponent digits, lying in the window with room after them:
// fixed word loads instead of digit loops, no Number in between. Everything else goes to
// read_double_in_window and from there to the general path.
double Reader::read_double() {
  const char* const p = in_.cursor();
  if (in_.limit() - p >= 40 && !failure_) [[likely]] {  // 40: the longest such number and a byte
    const bool negative = *p == '-';
    const char* q = p + (negative ? 1 : 0);
    const std::uint64_t integer_word = load_eight(q);
    const unsigned integer_digits = leading_digits(integer_word);
    if (integer_digits - 1 < 7 && (*q != '0' || integer_digits == 1)) {
      std::uint64_t mantissa = digits_value(integer_word, integer_digits);
      int exponent = 0;
      bool ok = true;
      q += integer_digits;
      if (*q == '.') {
        // Up to three words of fraction digits (the third is only looked at when the first
        // two are all digits).
        const std::uint64_t first = load_eight(q + 1);
        const unsigned first_digits = leading_digits(first);
        unsigned fraction_digits = first_digits;
        std::uint64_t fraction = first_digits > 0 ? digits_value(first, first_digits) : 0;
        if (first_digits == 8) {
          const std::uint64_t second = load_eight(q + 9);
          const unsigned second_digits = leading_digits(second);
          fraction_digits += second_digits;
          if (second_digits > 0) {
            fraction = fraction * bufstream::detail::powers_of_ten_to_8[second_digits] + digits_value(second, second_digits);
          }
          if (second_digits == 8) {
            const std::uint64_t third = load_eight(q + 17);
            const unsigned third_digits = leading_digits(third);
            fraction_digits += third_digits;
            if (third_digits > 0) {
              fraction = fraction * bufstream::detail::powers_of_ten_to_8[third_digits] + digits_value(third, third_digits);
            }
          }
        }
        // At least one fraction digit, and 19 significant digits at most: the integer part's
        // and the fraction's, or when the integer part is 0 the fraction's without its leading
        // zeros (those of its first word; more are rare), which add nothing to its value.
        if (mantissa == 0) {
          const std::uint64_t zeros = first ^ repeat_byte('0');  // 0 bytes where '0' is
          const unsigned leading_zeros = std::min(static_cast<unsigned>(std::countr_zero(zeros)) / 8, first_digits);
          ok = fraction_digits > 0 && fraction_digits - leading_zeros <= 19;
        } else {
          ok = fraction_digits > 0 && integer_digits + fraction_digits <= 19;
        }
        mantissa = mantissa == 0 ? fraction
                                 : mantissa * powers_of_ten_u64_19[std::min(fraction_digits, 19u)] + fraction;
        exponent = -static_cast<int>(fraction_digits);
        q += 1 + fraction_digits;
      }
      if ((*q | 0x20) == 'e') {
        ++q;
        const bool negative_exponent = *q == '-';
        if (*q == '-' || *q == '+') ++q;
        int e = 0;
        int exponent_digits = 0;
        while (exponent_digits < 4 && is_digit(q[exponent_digits])) {
          e = e * 10 + (q[exponent_digits] - '0');
          ++exponent_digits;
        }
        ok = ok && exponent_digits >= 1 && exponent_digits <= 3;
        exponent += negative_exponent ? -e : e;
        q += exponent_digits;
      }
      if (ok && !is_digit(*q)) [[likely]] {
        const double d = bufstream::detail::decimal_to_double_or_nan(mantissa, exponent);
        if (d == d) [[likely]] {
          token_start_ = in_.position();
          in_.set_cursor(q);
          return negative ? -d : d;
        }
      }
    }
  }
  return read_double_in_window();
}

// read_number's fast path without the Number in between, then the general path.
[[gnu::noinline]] double Reader::read_double_in_window() {
  const int c = next_significant();
  if (c == '-' || (c >= '0' && c <= '9')) [[likely]] {
    const char* const start = in_.cursor();
    const WindowNumber w = scan_in_window(start, in_.limit());
    if (w.ok && w.is_float) [[likely]] {
      const double d = bufstream::detail::decimal_to_double_or_nan(w.mantissa, w.exponent);
      if (d == d) {
        token_start_ = in_.position();
        number_text_ = std::string_view(start, static_cast<std::size_t>(w.end - start));
        in_.set_cursor(w.end);
        return w.negative ? -d : d;
      }
    }
  }
  const Number n = read_number();  // integers, the general path, errors
  switch (n.kind) {
    // Only negative integers are signed: 0 here was "-0", the double -0.0 (as strtod reads it).
    case Number::Kind::signed_integer: return n.i == 0 ? -0.0 : static_cast<double>(n.i);
    case Number::Kind::unsigned_integer: return static_cast<double>(n.u);
    case Number::Kind::floating: break;
  }
  return n.d;
}

Reader::FastInteger Reader::read_int64_fast() {
  // The commonest integer, up to 7 digits right at the cursor, from one word: its digits are
  // the bytes before the first non-digit, combined at once. Everything else (whitespace
  // first, longer numbers, fractions, the window's end) goes to read_int64_in_window.
  const char* const p = in_.cursor();
  if (in_.limit() - p >= 9 && !failure_) [[likely]] {
    const bool negative = *p == '-';
    const char* const digits = p + (negative ? 1 : 0);
    const std::uint64_t v = load_eight(digits);
    const std::uint64_t non_digit =
        ((v + repeat_byte(0x46)) | (v - repeat_byte(0x30))) & repeat_byte(0x80);
    const auto count = static_cast<unsigned>(std::countr_zero(non_digit)) / 8;  // 8 if none
    if (count - 1 < 7) {  // 1 to 7 digits: the byte after them is in the word
      const char next = digits[count];
      const std::uint64_t value = combine_eight_digits((v - repeat_byte(0x30)) << (8 * (8 - count)));
      // Not a leading zero ("01"), not a fraction or exponent, not "-0" (a signed zero,
      // which unsigned types refuse): those are the general path's.
      if ((digits[0] != '0' || count == 1) && next != '.' && (next | 0x20) != 'e' &&
          (value != 0 || !negative)) [[likely]] {
        token_start_ = in_.position();
        number_text_ = std::string_view(p, static_cast<std::size_t>(digits + count - p));
        in_.set_cursor(digits + count);
        const auto magnitude = static_cast<std::int64_t>(value);
        return {negative ? -magnitude : magnitude, true};
      }
    }
  }
  return read_int64_in_window();
}

// Out of line, so that read_int64_fast stays a leaf with few registers to save.
[[gnu::noinline]] Reader::FastInteger Reader::read_int64_in_window() {
  const int c = next_significant();
  if (c == '-' || (c >= '0' && c <= '9')) [[likely]] {
    const char* const start = in_.cursor();
    const WindowNumber w = scan_in_window(start, in_.limit());
    const std::uint64_t limit = (std::uint64_t{1} << 63) - (w.negative ? 0 : 1);
    // "-0" is left to the general path too: it is a signed zero, which unsigned types refuse.
    if (w.ok && !w.is_float && w.mantissa <= limit && !(w.negative && w.mantissa == 0)) [[likely]] {
      token_start_ = in_.position();
      number_text_ = std::string_view(start, static_cast<std::size_t>(w.end - start));
      in_.set_cursor(w.end);
      // Two's complement: exact for -2^63 too.
      return {static_cast<std::int64_t>(w.negative ? 0 - w.mantissa : w.mantissa), true};
    }
  }
  return {0, false};
}

// The general path: scans across windows (with the exact error for a malformed number) and
// converts with std::from_chars.
Number Reader::read_number_general() {
  const std::string_view text = scan_number();
  return convert_number(text, number_is_float_);
}

Number Reader::convert_number(std::string_view text, bool is_float) {
  Number n;
  if (!is_float) {
    const bool negative = text[0] == '-';
    std::uint64_t u = 0;
    const char* const end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data() + (negative ? 1 : 0), end, u);
    if (ec == std::errc()) {
      if (!negative) {
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
  if (!d) {
    fail_at(token_start_, fmt::format("expected a number within the range of double but found {}",
                                      shorten(text)));
  }
  n.kind = Number::Kind::floating;
  n.d = *d;
  return n;
}

// ---- Strings -------------------------------------------------------------------------------

std::string_view Reader::read_string() {
  read_string(text_);
  return text_;
}

void Reader::read_string(std::string& out) {
  const int c = next_significant();
  token_start_ = in_.position();
  if (c != '"') fail_expected("a string", c);
  in_.advance(1);
  out.clear();
  read_string_body(out);
}

// Appends the decoded content of a string whose opening quote has been consumed, and
// consumes the closing quote. Runs of plain bytes are found in the window and copied at once.
void Reader::read_string_body(std::string& out) {
  for (;;) {
    const char* const run = in_.cursor();
    const char* const end = in_.limit();
    const char* p = string_stops.find(run, end);
    out.append(run, static_cast<std::size_t>(p - run));
    in_.set_cursor(p);
    if (p == end) {
      if (fill(1).empty()) fail_expected("'\"' to end the string", -1);
      continue;
    }
    const int c = as_byte(*p);
    if (c == '"') {
      in_.advance(1);
      return;
    }
    if (c == '\\') {
      read_escape(out);
    } else if (c < 0x20) {
      fail_expected("'\"' or a string character (control characters must be escaped)", c);
    } else {
      read_non_ascii(out);
    }
  }
}

void Reader::read_non_ascii(std::string& out) {
  const auto lead = static_cast<unsigned char>(*in_.cursor());
  const std::string_view w = fill(std::max<std::size_t>(utf8::sequence_length(lead), 1));
  const utf8::Decoded d = utf8::decode(w.data(), w.data() + w.size());
  if (d.error != utf8::Error::none) {
    fail_at(in_.position(), utf8::describe_invalid_byte(lead, d.error));
  }
  out.append(w.data(), d.length);
  in_.advance(d.length);
}

void Reader::read_escape(std::string& out) {
  const std::uint64_t at = in_.position();  // of the backslash
  std::string_view w = fill(2);
  char simple = 0;
  switch (byte_at(w, 1)) {
    case '"': simple = '"'; break;
    case '\\': simple = '\\'; break;
    case '/': simple = '/'; break;
    case 'b': simple = '\b'; break;
    case 'f': simple = '\f'; break;
    case 'n': simple = '\n'; break;
    case 'r': simple = '\r'; break;
    case 't': simple = '\t'; break;
    case 'u': break;
    default:
      fail_at(at + 1, fmt::format("expected an escape ('\"', '\\', '/', 'b', 'f', 'n', 'r', 't' "
                                  "or 'u') after '\\' but found {}",
                                  describe_byte(byte_at(w, 1))));
  }
  if (simple != 0) {
    out.push_back(simple);
    in_.advance(2);
    return;
  }
  w = fill(6);
  unsigned unit = 0;
  if (auto bad = parse_hex4(w, 2, unit)) {
    fail_at(at + *bad, fmt::format("expected 4 hex digits after '\\u' but found {}",
                                   describe_byte(byte_at(w, *bad))));
  }
  std::size_t length = 6;
  char32_t code_point = unit;
  if (unit >= 0xDC00 && unit <= 0xDFFF) {
    fail_at(at, fmt::format("expected a character escape but found the lone low surrogate "
                            "\\u{:04X} (a low surrogate must follow a high one)",
                            unit));
  }
  if (unit >= 0xD800 && unit <= 0xDBFF) {
    w = fill(12);
    const std::string expected =
        fmt::format("a low surrogate escape \\uDC00-\\uDFFF after \\u{:04X}", unit);
    if (byte_at(w, 6) != '\\') fail_at(at + 6, fmt::format("expected {} but found {}", expected,
                                                           describe_byte(byte_at(w, 6))));
    if (byte_at(w, 7) != 'u') fail_at(at + 7, fmt::format("expected {} but found {}", expected,
                                                          describe_byte(byte_at(w, 7))));
    unsigned low = 0;
    if (auto bad = parse_hex4(w, 8, low)) {
      fail_at(at + *bad, fmt::format("expected 4 hex digits after '\\u' but found {}",
                                     describe_byte(byte_at(w, *bad))));
    }
    if (low < 0xDC00 || low > 0xDFFF) {
      fail_at(at + 6, fmt::format("expected {} but found \\u{:04X}", expected, low));
    }
    code_point = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
    length = 12;
  }
  char bytes[4];
  const char* end = utf8::encode(code_point, bytes);
  out.append(bytes, static_cast<std::size_t>(end - bytes));
  in_.advance(length);
}

// ---- Containers ----------------------------------------------------------------------------

void Reader::enter(char open) {
  token_start_ = in_.position();
  if (depth_ >= options_.max_depth) {
    fail_at(token_start_, fmt::format("expected at most {} nested arrays and objects but found "
                                      "'{}' at depth {}",
                                      options_.max_depth, open, depth_ + 1));
  }
  in_.advance(1);
  ++depth_;
  first_ = true;
}

void Reader::begin_array_slow() {
  const int c = next_significant();
  if (c != '[') fail_expected("'['", c);
  enter('[');
}

void Reader::begin_object() {
  const int c = next_significant();
  if (c != '{') fail_expected("'{'", c);
  enter('{');
}

bool Reader::next_element_slow() {
  const int c = next_significant();
  token_start_ = in_.position();
  if (c == ']') {
    in_.advance(1);
    --depth_;
    first_ = false;
    return false;
  }
  if (first_) {  // the element itself says what it found if it is not a value
    first_ = false;
    return true;
  }
  if (c != ',') fail_expected("',' or ']'", c);
  in_.advance(1);
  return true;
}

void Reader::end_array() {
  const int c = next_significant();
  token_start_ = in_.position();
  if (c != ']') fail_expected("']'", c);
  in_.advance(1);
  --depth_;
  first_ = false;
}

std::optional<std::string_view> Reader::next_key() {
  int c = next_significant();
  token_start_ = in_.position();
  if (c == '}') {
    in_.advance(1);
    --depth_;
    first_ = false;
    return std::nullopt;
  }
  if (first_) {
    first_ = false;
    if (c != '"') fail_expected("a string key or '}'", c);
  } else {
    if (c != ',') fail_expected("',' or '}'", c);
    in_.advance(1);
    c = next_significant();
    token_start_ = in_.position();
    if (c != '"') fail_expected("a string key", c);
  }
  in_.advance(1);
  key_.clear();
  read_string_body(key_);
  c = next_significant();
  if (c != ':') fail_expected("':' after the key", c);
  in_.advance(1);
  return std::string_view(key_);
}

namespace detail {

void fail_element_count(Reader& r, std::size_t expected, std::size_t found, bool more) {
  if (more) r.fail_at_token(fmt::format("expected an array of {} elements but found more", expected));
  r.fail_at_token(fmt::format("expected an array of {} elements but found {}", expected, found));
}

void fail_missing_member(Reader& r, std::string_view name) {
  r.fail_at_token(fmt::format("expected member \"{}\" but found the end of the object", name));
}

}  // namespace detail

}  // namespace bufstream::json
