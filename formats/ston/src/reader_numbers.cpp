// STON's numbers, read in one place: the grammar is scanned by one function (scan_number) over
// contiguous bytes with the kernel layer's digit words, and what it found is converted by one
// function per kind (an integer, a float, an exact number). A number that straddles the
// stream's window is scanned again over a grown window (`fill`), so there is no second scanner
// for pieces; the window grows at most to the number's length, which `max_number_length`
// bounds per digit group.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include <bufstream/detail/digits.hpp>
#include <bufstream/numbers.hpp>

#include "reader_impl.hpp"

namespace bufstream::ston {

namespace reading {

struct Digits {
  const char* begin;
  const char* end;
  std::size_t size() const noexcept { return static_cast<std::size_t>(end - begin); }
  bool empty() const noexcept { return begin == end; }
  std::string_view view() const noexcept { return {begin, size()}; }
  // Without leading zeros: "0" for zero (an empty group stays empty).
  std::string_view significant() const noexcept {
    const char* p = begin;
    while (end - p > 1 && *p == '0') ++p;
    return {p, static_cast<std::size_t>(end - p)};
  }
};

// The parts of one number, as scan_number finds them in the reference implementation's
// grammar: '-'? digits, then either '/' digits ['s' digits] (a fraction or a scaled decimal),
// or ['.' digits] [('e'|'E') ['-'|'+'] digits]. Pharo accepts a '.' or an exponent marker
// with no digits after it (`1.` is 1.0, `1e` is 1); so do we.
struct ScannedNumber {
  enum Status : std::uint8_t {
    complete,       // `end` is the byte after the number
    need_more,      // the bytes ended inside the number and more may follow
    missing_digit,  // `end` is where a digit must stand, after `missing_after`
    too_long,       // a digit group is longer than max_number_length
  };
  Status status = complete;
  bool negative = false;
  bool dot = false;            // a float
  bool exponent_mark = false;  // 'e' or 'E'
  bool exponent_negative = false;
  bool slash = false;       // a fraction
  bool scale_mark = false;  // a scaled decimal
  const char* missing_after = nullptr;
  const char* end = nullptr;
  // The integer part's digits, then the fraction's, modulo 2^64: exact while they are at most
  // 19. (The value of the integer part alone when there is no fraction.)
  std::uint64_t significand = 0;
  // Set by scan_number; the groups after `whole` only past its short path (below), where they
  // are made empty first: an integer does not pay for the stores.
  Digits whole, fraction, exponent, denominator, scale;
};

}  // namespace reading

using detail::Access;

namespace {

using reading::Digits;
using reading::ScannedNumber;

// After a digit group that ends at `digits.end`: false when the scan must stop there, with
// n.status saying why. `after` names what a required group follows (nullptr: may be empty).
[[gnu::always_inline]] inline bool group_ends(ScannedNumber& n, const Digits& digits,
                                              const char* end, bool final, std::size_t max_length,
                                              const char* after) {
  if (digits.size() > max_length) {
    n.status = ScannedNumber::too_long;
    return false;
  }
  if (digits.end == end && !final) {
    n.status = ScannedNumber::need_more;
    return false;
  }
  if (after != nullptr && digits.empty()) {
    n.status = ScannedNumber::missing_digit;
    n.missing_after = after;
    n.end = digits.end;
    return false;
  }
  return true;
}

// Past a marker ('.', 'e', a sign, '/', 's') at `p`: false when the bytes end there and more
// may follow.
[[gnu::always_inline]] inline bool marker_ends(ScannedNumber& n, const char* p, const char* end,
                                               bool final) {
  if (p == end && !final) {
    n.status = ScannedNumber::need_more;
    return false;
  }
  return true;
}

// Scans the number at `p` (a '-' or a digit) in [p, end). `final` says that the input ends at
// `end`; otherwise a number that reaches `end` may go on, and the scan says `need_more`.
[[gnu::always_inline]] inline ScannedNumber scan_number(const char* p, const char* const end,
                                                        bool final, std::size_t max_length) {
  ScannedNumber n;
  std::uint64_t value = 0;  // a local, not a member of `n`: it stays in a register
  const auto next = [&]() -> char { return p != end ? *p : '\0'; };  // 0: the end
  n.negative = *p == '-';
  p += n.negative ? 1 : 0;
  n.whole.begin = p;
  p = bufstream::detail::scan_integer_part(p, end, value);
  n.whole.end = p;
  // The commonest number, an integer followed by a byte that ends it, leaves here.
  if (p != end && n.whole.size() - 1 < max_length && *p != '.' && *p != '/' && (*p | 0x20) != 'e')
      [[likely]] {
    n.significand = value;
    n.end = p;
    return n;
  }
  n.fraction = n.exponent = n.denominator = n.scale = Digits{p, p};
  if (!marker_ends(n, p, end, final) || !group_ends(n, n.whole, end, final, max_length,
                                                    n.negative ? "'-'" : "the start of a number")) {
    return n;
  }
  std::uint64_t other = 0;  // the value of a group that is not the significand's (unused)
  if (next() == '/') {
    n.slash = true;
    if (!marker_ends(n, ++p, end, final)) return n;
    n.denominator = {p, p = bufstream::detail::scan_digits(p, end, other)};
    if (!group_ends(n, n.denominator, end, final, max_length, "'/'")) return n;
    if (next() == 's') {
      n.scale_mark = true;
      if (!marker_ends(n, ++p, end, final)) return n;
      n.scale = {p, p = bufstream::detail::scan_digits(p, end, other)};
      if (!group_ends(n, n.scale, end, final, max_length, "'s'")) return n;
    }
  } else {
    if (next() == '.') {
      n.dot = true;
      if (!marker_ends(n, ++p, end, final)) return n;
      n.fraction = {p, p = bufstream::detail::scan_digits(p, end, value)};
      if (!group_ends(n, n.fraction, end, final, max_length, nullptr)) return n;
    }
    if ((next() | 0x20) == 'e') {
      n.exponent_mark = true;
      if (!marker_ends(n, ++p, end, final)) return n;
      if (next() == '-' || next() == '+') {
        n.exponent_negative = *p == '-';
        if (!marker_ends(n, ++p, end, final)) return n;
      }
      n.exponent = {p, p = bufstream::detail::scan_digits(p, end, other)};
      if (!group_ends(n, n.exponent, end, final, max_length, nullptr)) return n;
    }
  }
  n.significand = value;
  n.end = p;
  return n;
}

// The double of a float's parts: its digits converted by decimal_to_double when there are at
// most 19 of them and the exponent is small, else its text by parse_double (any length,
// correctly rounded). Too large for a double: an infinity, which the caller refuses (Pharo's
// arithmetic would overflow to infinity; every reader of ours refuses it, as JSON's does).
double float_value(const ScannedNumber& n) {
  // Leading zeros add nothing to the significand (0.000999... of 1/1001 has 19 digits after
  // them): counted only when they matter.
  std::size_t digits = n.whole.size() + n.fraction.size();
  if (digits > 19) {
    const char* p = n.whole.begin;
    while (p != n.whole.end && *p == '0') ++p;
    digits -= static_cast<std::size_t>(p - n.whole.begin);
    if (p == n.whole.end) {
      for (p = n.fraction.begin; p != n.fraction.end && *p == '0'; ++p) --digits;
    }
  }
  if (digits <= 19 && n.exponent.size() <= 5) {
    const long e = n.exponent.empty() ? 0 : *parse_integer<long>(n.exponent.view());
    const long exponent = (n.exponent_negative ? -e : e) - static_cast<long>(n.fraction.size());
    const double d =
        bufstream::detail::decimal_to_double_or_nan(n.significand, static_cast<int>(exponent));
    if (d == d) return n.negative ? -d : d;
  }
  std::string text;
  text.reserve(n.whole.size() + n.fraction.size() + n.exponent.size() + 5);
  if (n.negative) text.push_back('-');
  text.append(n.whole.view());
  text.push_back('.');
  text.append(n.fraction.empty() ? std::string_view("0") : n.fraction.view());
  if (!n.exponent.empty()) {
    text.push_back('e');
    if (n.exponent_negative) text.push_back('-');
    text.append(n.exponent.view());
  }
  if (auto d = parse_double(text)) return *d;
  return n.negative ? -HUGE_VAL : HUGE_VAL;
}

// An integer of any size, a fraction or a scaled decimal, exactly; `fail` reports at the
// number's start.
template <class Fail>
Value exact_number_value(const ScannedNumber& n, std::size_t max_length, Fail&& fail) {
  const std::string_view whole = n.whole.significant();
  if (n.slash) {
    const Integer numerator = detail::integer_from_digits(n.negative, whole);
    const Integer denominator = detail::integer_from_digits(false, n.denominator.significant());
    if (denominator.sign() == 0) fail("a fraction with a zero denominator");
    if (!n.scale_mark) return Value::fraction(numerator, denominator);
    const auto scale = parse_integer<std::uint32_t>(n.scale.significant());
    if (!scale) fail(fmt::format("scale {} is too large", n.scale.view()));
    return Value::scaled_decimal(numerator, denominator, *scale);
  }
  if (!n.exponent_mark || n.exponent.empty() || whole == "0") {
    return detail::integer_from_digits(n.negative, whole);
  }
  // `1e3` is the integer 1000, `1e-2` the fraction 1/100: exact, as in Pharo.
  const std::string_view e = n.exponent.significant();
  const auto k = parse_integer<std::size_t>(e);
  if (!k || *k > max_length) {
    fail(fmt::format("exponent {} is larger than {} (ReadOptions::max_number_length)", e,
                     max_length));
  }
  if (!n.exponent_negative) {
    std::string scaled(whole);
    scaled.append(*k, '0');
    return detail::integer_from_digits(n.negative, scaled);
  }
  std::string power = "1";
  power.append(*k, '0');
  return Value::fraction(detail::integer_from_digits(n.negative, whole),
                         detail::integer_from_digits(false, power));
}

}  // namespace

Value Reader::Impl::parse_number() {
  const char* const start = in.cursor();
  ScannedNumber n = scan_number(start, in.limit(), false, options.max_number_length);
  if (n.status == ScannedNumber::complete) [[likely]] {
    if (!n.dot && !n.exponent_mark && !n.slash) [[likely]] {
      in.set_cursor(n.end);
      if (n.whole.size() <= 18) [[likely]] {  // below 10^18: an int64, negated exactly
        const auto value = static_cast<std::int64_t>(n.significand);
        return Value(n.negative ? -value : value);
      }
      return detail::integer_from_digits(n.negative, n.whole.significant());
    }
    if (n.dot) return float_number(n);
  } else if (n.status == ScannedNumber::need_more) {
    n = scan_number_grown();
  }
  return number_value(n);
}

// The number again, over a window grown until it holds the whole number or the input has ended:
// twice the bytes each time, so that the scans cost in all a few times the number's length.
[[gnu::noinline]] ScannedNumber Reader::Impl::scan_number_grown() {
  std::size_t want = static_cast<std::size_t>(in.limit() - in.cursor());
  for (;;) {
    want = 2 * want + 16;
    const bool final = in.fill(want).size() < want;
    const ScannedNumber n = scan_number(in.cursor(), in.limit(), final, options.max_number_length);
    if (n.status != ScannedNumber::need_more) return n;
  }
}

// Any scanned number but a short integer: errors at the number's start (the cursor), floats,
// exact numbers.
Value Reader::Impl::number_value(const ScannedNumber& n) {
  switch (n.status) {
    case ScannedNumber::complete: break;
    case ScannedNumber::too_long:
      fail(here(), fmt::format("number longer than {} digits (ReadOptions::max_number_length)",
                               options.max_number_length));
    case ScannedNumber::missing_digit:
      in.set_cursor(n.end);
      fail_expected(fmt::format("a digit after {}", n.missing_after));
    case ScannedNumber::need_more: break;  // not returned by scan_number_grown
  }
  if (n.dot) return float_number(n);
  Value v = exact_number_value(n, options.max_number_length,
                               [this](std::string message) { fail(here(), std::move(message)); });
  in.set_cursor(n.end);
  return v;
}

Value Reader::Impl::float_number(const ScannedNumber& n) {
  const double d = float_value(n);
  if (std::isinf(d)) [[unlikely]] {
    const std::string_view text(in.cursor(), static_cast<std::size_t>(n.end - in.cursor()));
    fail(here(), fmt::format("expected a number within the range of double but found {}{}",
                             text.substr(0, 40), text.size() > 40 ? "..." : ""));
  }
  in.set_cursor(n.end);
  return Value(d);
}

Value Reader::Impl::parse_reference() {
  const SourcePosition start = here();
  in.advance(1);  // '@'
  // Pharo's expectChar: skips whitespace after the '@', so `@ 3` is a reference too.
  skip_whitespace();
  // Its digits, over a window grown until they end, as a number's are.
  Digits d;
  for (bool final = false;;) {
    std::uint64_t ignored = 0;
    d.begin = in.cursor();
    d.end = bufstream::detail::scan_digits(d.begin, in.limit(), ignored);
    if (d.size() > options.max_number_length) {
      fail(start, fmt::format("number longer than {} digits (ReadOptions::max_number_length)",
                              options.max_number_length));
    }
    if (d.end != in.limit() || final) break;
    const std::size_t want = 2 * d.size() + 16;
    final = in.fill(want).size() < want;
  }
  if (d.empty()) fail_expected("a reference number after '@'");
  const auto number = parse_integer<std::uint64_t>(d.view());
  if (!number) fail(start, fmt::format("reference @{} does not exist", d.view()));
  in.set_cursor(d.end);
  pending.push_back({*number, start});
  return Access::pending(*number);
}

}  // namespace bufstream::ston
