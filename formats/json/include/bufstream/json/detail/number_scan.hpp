// json's number grammar, scanned: shared by json::Reader (reader_numbers.cpp, and the event
// walk of events.hpp) and json::Document's parser (document_parser.cpp). Not a public API: it
// is installed because the event walk, a template over the user's handler, scans its numbers
// inline, with the digit words of <bufstream/detail/digits.hpp> (portable code, installed for
// the same reason; see streams/CMakeLists.txt).
//
//   - NumberScan: the RFC 8259 grammar as a state machine that can stop at a window's end and
//     go on in the next; it says what a malformed number needed.
//   - scan_in_window: one pass over a number that lies whole in memory with a byte after it,
//     accumulating up to 19 significant digits with the digit words.
//   - convert_number_text: a number's whole text to a Number (std::from_chars, parse_double),
//     for what scan_in_window declines.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>

#include <bufstream/detail/digits.hpp>
#include <bufstream/json/detail/indexed_walk.hpp>
#include <bufstream/json/reader_core.hpp>
#include <bufstream/numbers.hpp>

namespace bufstream::json::detail {

constexpr bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }

// The RFC 8259 number grammar as a state machine, so that a number can be scanned in pieces
// when it straddles two windows:  -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
struct NumberScan {
  enum State : std::uint8_t {
    start,
    minus,
    zero,
    integer,
    dot,
    fraction,
    exponent_mark,
    exponent_sign,
    exponent
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

// A number scanned by the window path.
struct WindowNumber {
  std::uint64_t mantissa;  // all significant digits, integer and fraction part
  int exponent;            // of the mantissa's last digit
  const char* end;         // the byte after the number
  bool negative;
  bool is_float;  // has a fraction or an exponent
  bool ok;        // false: none of the above holds; the general path reads it
};

// The window path: a number that lies in [start, end) with a byte after it (so that no refill
// can continue it), is well-formed, and has at most 19 significant digits (the mantissa is
// exact), scanned and accumulated in one pass. Anything else, malformed numbers included, is
// left to the general path (ok = false), which says what is wrong.
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
    p = bufstream::detail::scan_integer_part(p, end, mantissa);
    digits = static_cast<std::size_t>(p - first);
    if (digits == 0) return n;
  }
  if (p == end) return n;
  long exponent = 0;
  if (*p == '.') {
    is_float = true;
    const char* const first = ++p;
    // Most fractions: up to fifteen digits after up to three integer digits (nineteen digits
    // scaled to sixteen decimals still fit), with more bytes to read than the sixteen.
    const bufstream::detail::ScaledDigits f = end - p >= 16 && digits <= 3
                                                  ? bufstream::detail::sixteen_digits(p)
                                                  : bufstream::detail::ScaledDigits{0, 16};
    if (f.count - 1 < 15) {
      mantissa = mantissa * bufstream::detail::powers_of_ten_u64[16] + f.value;
      p += f.count;
      digits += 16;
      exponent = -16;
    } else {
      p = bufstream::detail::scan_digits(p, end, mantissa);
      if (p == first || p == end) return n;
      digits += static_cast<std::size_t>(p - first);
      exponent = -static_cast<long>(p - first);
    }
    // Leading zeros of 0.000ddd are not significant (they add nothing to the mantissa). Only
    // counted when they matter. (Not `mantissa == 0`: twenty integer digits can wrap the
    // mantissa to exactly 0, as 2^64 does.)
    if (digits > 19 && zero_integer_part) [[unlikely]] {
      for (const char* q = first; q != p && *q == '0'; ++q) --digits;
    }
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

// The window path's number as the readers give it (see convert_number_text), passed to
// `take`: an std::uint64_t, an std::int64_t or a double. False, taking nothing, when the path
// declines it (a negative integer beyond int64, "-0", a double beyond its range) and the
// general path must read it. `w.ok` must hold.
template <class Take>
[[gnu::always_inline]] inline bool window_number_value(const WindowNumber& w, Take&& take) {
  if (!w.is_float) {
    if (!w.negative) {
      take(w.mantissa);
      return true;
    }
    // Magnitudes 1 to 2^63; 0 ("-0", the integer 0) wraps around to the general path.
    if (w.mantissa - 1 >= std::uint64_t{1} << 63) return false;
    take(static_cast<std::int64_t>(0 - w.mantissa));  // two's complement: exact for -2^63 too
    return true;
  }
  const double d = bufstream::detail::decimal_to_double_or_nan(w.mantissa, w.exponent);
  if (d != d) return false;
  take(w.negative ? -d : d);
  return true;
}

// A value of the window path (an std::uint64_t, an std::int64_t or a double) as a Number.
template <class T>
Number as_number(T value) noexcept {
  Number n;
  if constexpr (std::is_same_v<T, std::uint64_t>) {
    n.kind = Number::Kind::unsigned_integer;
    n.u = value;
  } else if constexpr (std::is_same_v<T, std::int64_t>) {
    n.kind = Number::Kind::signed_integer;
    n.i = value;
  } else {
    n.kind = Number::Kind::floating;
    n.d = value;
  }
  return n;
}

// A number that a parser walking a structural index finds at `start`: whole before `end`
// (which is not read), well-formed, followed by a byte that ends a token, and within double's
// range, given to `take(value, end)` as the readers give it (an std::uint64_t, an std::int64_t
// or a double, as convert_number_text says). Returns false, taking nothing, when it is none of
// these: the caller stops and leaves the bytes to the token reader, which says what is wrong.
std::optional<Number> indexed_number_text(const char* start, const char* end,
                                          const char*& number_end) noexcept;
template <class Take>
[[gnu::always_inline]] inline bool indexed_number(const char* start, const char* end, Take&& take) {
  const WindowNumber w = scan_in_window(start, end);
  if (w.ok && ends_token[static_cast<unsigned char>(*w.end)] &&
      window_number_value(w, [&](auto value) { take(value, w.end); })) [[likely]] {
    return true;
  }
  // Long, huge or malformed: out of line, and `take` stays here (a closure passed out of
  // line would keep what it refers to in memory).
  const char* number_end = nullptr;
  const std::optional<Number> n = indexed_number_text(start, end, number_end);
  if (!n) [[unlikely]]
    return false;
  switch (n->kind) {
    case Number::Kind::signed_integer: take(n->i, number_end); break;
    case Number::Kind::unsigned_integer: take(n->u, number_end); break;
    case Number::Kind::floating: take(n->d, number_end); break;
  }
  return true;
}

/// The number `text` (well-formed: NumberScan complete), as the reader gives it: non-negative
/// integers as uint64 ("-0" too: it is the integer 0), negative ones as int64, the rest
/// (fractions, exponents, integers beyond 64 bits) as the nearest double; nullopt when that
/// double is infinite.
std::optional<Number> convert_number_text(std::string_view text, bool is_float);

}  // namespace bufstream::json::detail
