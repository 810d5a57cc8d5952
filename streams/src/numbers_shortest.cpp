// Shortest round-trip printing of doubles: {fmt}'s Dragonbox (J. Jeon, "Dragonbox: A New
// Floating-Point Binary-to-Decimal Conversion Algorithm", 2020) finds the decimal, then each
// layout (C++ `to_chars`, JSON, Smalltalk) is written from its digits here. Our own Schubfach
// was 0-5% faster in bufstream-bench's numbers suite, short of the 5% a hand-written
// conversion must win everywhere to stay (docs/BENCHMARKS.md, 2e), so the library's is used.
#include <bufstream/numbers.hpp>

#include <array>
#include <bit>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include <bufstream/kernels/format_integer.hpp>
#include <bufstream/kernels/powers_of_ten.hpp>

namespace bufstream {

namespace detail {

namespace {

// The shortest decimal of a finite positive double, significand * 10^exponent, with a
// significand of 16 or 17 digits: Dragonbox's has no trailing zero, and one of fewer than 16
// digits (a round value, or a subnormal) is padded with zeros to 17 (`padded`).
struct ShortestDecimal {
  std::uint64_t significand;
  int exponent;
  bool padded;
};

[[gnu::always_inline]] inline ShortestDecimal shortest_decimal(double value) noexcept {
  const auto decimal = fmt::detail::dragonbox::to_decimal(value);
  const std::uint64_t f = decimal.significand;
  if (f >= 1000000000000000) [[likely]]
    return {f, decimal.exponent, false};
  const unsigned zeros = 17 - kernels::decimal_length(f);
  return {f * kernels::powers_of_ten_u64[zeros], decimal.exponent - static_cast<int>(zeros), true};
}

}  // namespace

}  // namespace detail

namespace {

using kernels::store_digits;

constexpr std::array<char, 200> make_digit_pairs() {
  std::array<char, 200> pairs{};
  for (std::size_t i = 0; i < 100; ++i) {
    pairs[2 * i] = static_cast<char>('0' + i / 10);
    pairs[2 * i + 1] = static_cast<char>('0' + i % 10);
  }
  return pairs;
}
constexpr std::array<char, 200> digit_pairs = make_digit_pairs();

// The digits of a shortest decimal, kept in registers: the significand's 17 digits,
// zero-padded, as `top` and two groups of eight digit values; `count` significant digits from
// digit `first` (no leading or trailing zeros), the first worth 10^exponent.
struct DecimalDigits {
  unsigned top;
  std::uint64_t middle;
  std::uint64_t low;
  int first;
  int count;
  int exponent;
};

// Whole zero bytes in a count of zero bits (0..64). Divided as unsigned: the compiler cannot
// tell that a count of leading zeros is not negative, and a signed division costs a fix-up.
inline int zero_bytes(int zero_bits) noexcept {
  return static_cast<int>(static_cast<unsigned>(zero_bits) / 8);
}

// Inlined into each layout: its result then stays in registers instead of a 40-byte struct
// returned through memory.
[[gnu::always_inline]] inline DecimalDigits decimal_digits(double magnitude) noexcept {
  const detail::ShortestDecimal decimal = detail::shortest_decimal(magnitude);
  const std::uint64_t f = decimal.significand;
  // The three divisions are independent (short dependency chains: the writer waits for the
  // length of this text before it can place the next one).
  const std::uint64_t high = f / 100000000;
  const std::uint64_t top = f / 10000000000000000;
  DecimalDigits d;
  d.top = static_cast<unsigned>(top);
  d.middle = kernels::eight_digit_values(static_cast<std::uint32_t>(high - top * 100000000));
  d.low = kernels::eight_digit_values(static_cast<std::uint32_t>(f - high * 100000000));
  if (!decimal.padded) [[likely]] {
    // 16 or 17 digits, no trailing zero (every normal double but the round ones): the length
    // from two comparisons, without waiting for the digits. (A branch, not a select, which
    // would wait for both sides.)
    d.first = f >= 10000000000000000 ? 0 : 1;
    d.count = 17 - d.first;
  } else {
    // 17 digits, the first one not 0. Byte i of a group is its digit i (lowest byte first):
    // leading zero bits count trailing zero digits.
    d.first = 0;
    const int end_in_low = 17 - zero_bytes(std::countl_zero(d.low));
    const int end_in_middle = 9 - zero_bytes(std::countl_zero(d.middle));
    const int end_above_low = d.middle != 0 ? end_in_middle : 1;
    d.count = d.low != 0 ? end_in_low : end_above_low;
  }
  d.exponent = decimal.exponent + 16 - d.first;
  return d;
}

// Writes the significand's digits from the first significant one to its last digit, trailing
// zeros included (17 - first bytes, at most 17), at `p`. The stores are never read back
// wider than they were written (which would stall store-to-load forwarding): the layouts
// below only move single bytes of them.
//
// `p[-1]` must be writable and is clobbered when the significand has 16 digits.
inline void write_significand(char* p, const DecimalDigits& d) noexcept {
  char* const at = p - d.first;  // the 17 digits from there: a leading 0 lands on p[-1]
  at[0] = static_cast<char>('0' + d.top);
  store_digits(at + 1, d.middle);
  store_digits(at + 9, d.low);
}

// "d.ddd" (or "d" alone when `always_fraction` is false and there is one digit). Writes up
// to 18 bytes.
inline char* scientific_digits(char* p, const DecimalDigits& d, bool always_fraction) noexcept {
  write_significand(p + 1, d);
  p[0] = p[1];
  if (d.count > 1) {
    p[1] = '.';
    return p + d.count + 1;
  }
  if (always_fraction) {
    p[1] = '.';
    p[2] = '0';
    return p + 3;
  }
  return p + 1;
}

// The significand's text from its first significant digit, S[0..17), as two words (S[0..8)
// and S[8..16), byte i of a word in bits 8i..8i+7) and S[16].
struct SignificandText {
  std::uint64_t low_word;
  std::uint64_t high_word;
  char last;
};

inline SignificandText significand_text(const DecimalDigits& d) noexcept {
  const std::uint64_t middle = d.middle + 0x3030303030303030u;
  const std::uint64_t low = d.low + 0x3030303030303030u;
  if (d.first == 0) {
    return {static_cast<std::uint64_t>('0' + d.top) | (middle << 8), (middle >> 56) | (low << 8),
            static_cast<char>(low >> 56)};
  }
  return {middle, low, '0'};
}

inline void store_word(char* p, std::uint64_t word) noexcept {
  if constexpr (std::endian::native == std::endian::big) word = __builtin_bswap64(word);
  std::memcpy(p, &word, 8);
}

// `word` with a '.' at byte `at` (0..7) and the bytes above it taken from `up` (the text
// moved one place up).
inline std::uint64_t insert_point(std::uint64_t word, std::uint64_t up, unsigned at) noexcept {
  const std::uint64_t below = (std::uint64_t{1} << (8 * at)) - 1;
  const std::uint64_t point_byte = std::uint64_t{0xFF} << (8 * at);
  return (word & below) | (up & ~(below | point_byte)) | (std::uint64_t{'.'} << (8 * at));
}

// "ddd" (a whole number below 10^16: its `whole` digits, trailing zeros included) or
// "dd.ddd" (`whole` digits before the point), for values >= 1 with whole <= 16. The point is
// put in by combining the text with itself moved one place up, in registers (moving bytes
// already stored would read them back, and call memmove). Writes up to 18 bytes.
inline char* whole_and_fraction(char* p, const DecimalDigits& d, int whole) noexcept {
  const SignificandText t = significand_text(d);
  if (d.count <= whole) {
    store_word(p, t.low_word);
    store_word(p + 8, t.high_word);
    return p + whole;
  }
  const std::uint64_t low_up = t.low_word << 8;
  const std::uint64_t high_up = (t.high_word << 8) | (t.low_word >> 56);
  const char moved_out = static_cast<char>(t.high_word >> 56);  // S[15], to p[16]
  if (whole < 8) {
    store_word(p, insert_point(t.low_word, low_up, static_cast<unsigned>(whole)));
    store_word(p + 8, high_up);
    p[16] = moved_out;
  } else if (whole < 16) {
    store_word(p, t.low_word);
    store_word(p + 8, insert_point(t.high_word, high_up, static_cast<unsigned>(whole - 8)));
    p[16] = moved_out;
  } else {
    store_word(p, t.low_word);
    store_word(p + 8, t.high_word);
    p[16] = '.';
  }
  p[17] = t.last;
  return p + d.count + 1;
}

// Plain notation of the digits: "0.000ddd", "dd.ddd" or "ddd" (no fraction added), for
// -7 <= exponent and whole numbers below 10^16. Writes up to 8 - exponent + 17 bytes.
inline char* plain_digits(char* p, const DecimalDigits& d) noexcept {
  const int e = d.exponent;
  if (e < 0) {
    std::memcpy(p, "0.000000", 8);
    write_significand(p + 1 - e, d);
    p[1] = '.';  // clobbered when e == -1 and the significand has 16 digits
    return p + 1 - e + d.count;
  }
  return whole_and_fraction(p, d, e + 1);
}

// An exponent of at least `min_digits` digits.
inline char* exponent_digits(char* p, int exponent, int min_digits) noexcept {
  if (exponent >= 100) {
    *p++ = static_cast<char>('0' + exponent / 100);
    exponent %= 100;
    std::memcpy(p, &digit_pairs[static_cast<std::size_t>(exponent) * 2], 2);
    return p + 2;
  }
  if (exponent >= 10 || min_digits == 2) {
    std::memcpy(p, &digit_pairs[static_cast<std::size_t>(exponent) * 2], 2);
    return p + 2;
  }
  *p++ = static_cast<char>('0' + exponent);
  return p;
}

}  // namespace

// The text of std::to_chars(value): the shortest digits in plain (%f) or scientific (%e)
// layout, whichever is shorter, plain at a tie. Plain integers are exact: at equal length the
// text nearest to the value wins, so 2^63 prints as 9223372036854775808, not ...5808000.
char* format_double(char* out, double value, DoubleFormat format) {
  if (!std::isfinite(value)) [[unlikely]] {
    return std::to_chars(out, out + max_double_chars, value).ptr;
  }
  char* p = out;
  if (std::signbit(value)) *p++ = '-';
  const double magnitude = std::fabs(value);
  if (magnitude == 0) {
    std::memcpy(p, "0.0", 3);
    return p + (format.force_fraction ? 3 : 1);
  }
  const DecimalDigits d = decimal_digits(magnitude);
  const int n = d.count;
  const int e = d.exponent;
  if (static_cast<unsigned>(e) < static_cast<unsigned>(n - 1)) [[likely]] {
    // dd.ddd with the point inside the digits (0 <= e < n - 1): always shorter than the
    // scientific text, which has the same digits, a point too and an exponent.
    return whole_and_fraction(p, d, e + 1);
  }
  const int scientific_length = n + (n > 1 ? 1 : 0) + 2 + (e >= 100 || e <= -100 ? 3 : 2);
  const int fraction_length = e < 0 ? n + 1 - e : n + 1;
  const int plain_length = e >= n - 1 ? e + 1 : fraction_length;
  if (plain_length > scientific_length) {
    p = scientific_digits(p, d, false);
    *p++ = 'e';
    *p++ = e < 0 ? '-' : '+';
    return exponent_digits(p, e < 0 ? -e : e, 2);
  }
  // Plain: e >= -4 (else scientific is shorter), so at most 1 + 8 + 4 + 17 bytes are written.
  if (e >= n - 1 && magnitude >= 9007199254740992.0) [[unlikely]] {
    // A whole number from 2^53 up: the digits of the exact integer, as to_chars writes them.
    p = std::to_chars(out, out + max_double_chars, value).ptr;
  } else {
    p = plain_digits(p, d);
  }
  if (e >= n - 1 && format.force_fraction) {
    p[0] = '.';
    p[1] = '0';
    p += 2;
  }
  return p;
}

char* format_double_smalltalk(char* out, double value) {
  char* p = out;
  if (std::signbit(value)) *p++ = '-';
  const double magnitude = std::fabs(value);
  if (magnitude == 0) {
    std::memcpy(p, "0.0", 3);
    return p + 3;
  }
  const DecimalDigits d = decimal_digits(magnitude);
  if (magnitude >= 1e-4 && magnitude < 1e6) {  // plain: -4 <= exponent <= 5
    p = plain_digits(p, d);
    if (d.exponent >= d.count - 1) {  // a whole number: "123.0"
      p[0] = '.';
      p[1] = '0';
      p += 2;
    }
    return p;
  }
  p = scientific_digits(p, d, true);
  *p++ = 'e';
  if (d.exponent < 0) *p++ = '-';
  return exponent_digits(p, d.exponent < 0 ? -d.exponent : d.exponent, 1);
}

}  // namespace bufstream
