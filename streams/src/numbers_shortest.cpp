// Shortest round-trip printing of doubles: Schubfach (R. Giulietti, "The Schubfach way to
// render doubles", 2020) finds the decimal, then each layout (C++ `to_chars`, JSON, Smalltalk)
// is written from its digits.
//
// Schubfach in brief: a finite double v = c * 2^q rounds back from every real number of its
// rounding interval [c - 1/2, c + 1/2] * 2^q (endpoints included when c is even; the lower gap
// of a power of two is half as wide). Scaled by 10^-k, with k chosen so that the interval is
// between 1 and 10 units wide, the interval holds at most one multiple of 10 (the shortest
// decimal when there is one) and else one or two integers s, s + 1 (the nearer one is taken,
// ties to even). The scaled bounds are computed 4 times larger, so that every comparison is
// between integers, with one 64 x 126-bit multiplication each, rounded to odd: the paper
// proves that the result, its comparisons with even integers and its parity against the
// midpoint are then those of the exact values.
#include <bufstream/numbers.hpp>

#include <array>
#include <bit>
#include <cmath>
#include <cstring>

#include "numbers_powers_of_ten.hpp"

namespace bufstream {

namespace detail {

namespace {

constexpr int significand_bits = 52;
constexpr std::uint64_t hidden_bit = std::uint64_t{1} << significand_bits;
constexpr int min_binary_exponent = -1074;  // q of the subnormals and of the smallest normals
constexpr std::uint64_t low_63_bits = (std::uint64_t{1} << 63) - 1;

// Schubfach's multiplier for 10^e: g = floor(10^e * 2^-r) + 1 with 2^125 <= g < 2^126, as
// its two 63-bit halves g = high * 2^63 + low. It is the table's 128-bit floor shifted right
// by 2 (floor(floor(x) / 4) == floor(x / 4)) plus one.
struct Multiplier {
  std::uint64_t high;
  std::uint64_t low;
};

inline Multiplier multiplier_for(int e) noexcept {
  const Power128& t = power_of_ten(e);
  std::uint64_t g_high = t.high >> 2;
  std::uint64_t g_low = (t.high << 62) | (t.low >> 2);
  g_low += 1;
  if (g_low == 0) ++g_high;
  return {(g_high << 1) | (g_low >> 63), g_low & low_63_bits};
}

// Round to odd of g * cp / 2^127, computed as in the paper (section 9): the integer part, with
// the lowest bit set when the discarded fraction is not zero.
inline std::uint64_t round_to_odd(const Multiplier& g, std::uint64_t cp) noexcept {
  const Power128 low_product = multiply_64x64(g.low, cp);
  const Power128 high_product = multiply_64x64(g.high, cp);
  const std::uint64_t middle = (high_product.low >> 1) + low_product.high;
  const std::uint64_t integer = high_product.high + (middle >> 63);
  return integer | ((middle & low_63_bits) != 0 ? 1 : 0);
}

}  // namespace

Decimal shortest_decimal(double value) noexcept {
  const auto bits = std::bit_cast<std::uint64_t>(value);
  const auto biased_exponent = static_cast<int>((bits >> significand_bits) & 0x7FF);
  std::uint64_t c = bits & (hidden_bit - 1);
  int q = min_binary_exponent;
  if (biased_exponent != 0) {
    c |= hidden_bit;
    q = biased_exponent - 1075;
  }

  const std::uint64_t out = c & 1;  // an odd c excludes the interval's endpoints
  const std::uint64_t cb = c << 2;
  const std::uint64_t cbr = cb + 2;
  std::uint64_t cbl;
  int k;
  if (c != hidden_bit || q == min_binary_exponent) {
    cbl = cb - 2;
    k = floor_log10_pow2(q);
  } else {  // a power of two: its lower neighbour is half as far as its upper one
    cbl = cb - 1;
    k = floor_log10_three_quarters_pow2(q);
  }
  const int h = q + floor_log2_pow10(-k) + 2;  // 1 <= h <= 4: cb << h fits in 64 bits
  const Multiplier g = multiplier_for(-k);
  const std::uint64_t vb = round_to_odd(g, cb << h);
  const std::uint64_t vbl = round_to_odd(g, cbl << h);
  const std::uint64_t vbr = round_to_odd(g, cbr << h);

  const std::uint64_t s = vb >> 2;
  // A multiple of 10 inside the interval is the shortest decimal (there is at most one).
  const std::uint64_t sp10 = s / 10 * 10;
  const std::uint64_t tp10 = sp10 + 10;
  const bool sp10_inside = vbl + out <= sp10 << 2;
  const bool tp10_inside = (tp10 << 2) + out <= vbr;
  if (sp10_inside != tp10_inside) return {sp10_inside ? sp10 : tp10, k};

  const std::uint64_t t = s + 1;
  const bool s_inside = vbl + out <= s << 2;
  const bool t_inside = (t << 2) + out <= vbr;
  if (s_inside != t_inside) return {s_inside ? s : t, k};
  // Both inside: the nearer to v, and the even one at a tie.
  const auto distance = static_cast<std::int64_t>(vb - ((s + t) << 1));
  return {distance < 0 || (distance == 0 && (s & 1) == 0) ? s : t, k};
}

}  // namespace detail

namespace {

constexpr std::array<char, 200> make_digit_pairs() {
  std::array<char, 200> pairs{};
  for (int i = 0; i < 100; ++i) {
    pairs[static_cast<std::size_t>(2 * i)] = static_cast<char>('0' + i / 10);
    pairs[static_cast<std::size_t>(2 * i + 1)] = static_cast<char>('0' + i % 10);
  }
  return pairs;
}
constexpr std::array<char, 200> digit_pairs = make_digit_pairs();

// Writes the decimal digits of 0 < n < 10^8 backwards, ending at `end`; returns the first.
inline char* write_digits_below_1e8(char* end, std::uint32_t n) noexcept {
  while (n >= 100) {
    end -= 2;
    std::memcpy(end, &digit_pairs[(n % 100) * 2], 2);
    n /= 100;
  }
  if (n >= 10) {
    end -= 2;
    std::memcpy(end, &digit_pairs[n * 2], 2);
  } else {
    *--end = static_cast<char>('0' + n);
  }
  return end;
}

// Writes exactly eight digits (with leading zeros) of n < 10^8 backwards, ending at `end`.
inline void write_eight_digits(char* end, std::uint32_t n) noexcept {
  for (int i = 0; i < 4; ++i) {
    end -= 2;
    std::memcpy(end, &digit_pairs[(n % 100) * 2], 2);
    n /= 100;
  }
}

// The digits of a shortest decimal, trailing zeros removed: `digits[0..count)` with the first
// digit worth 10^exponent.
struct DecimalDigits {
  char buffer[24];
  const char* digits;
  int count;
  int exponent;
};

void decimal_digits(double magnitude, DecimalDigits& d) noexcept {
  detail::Decimal decimal = detail::shortest_decimal(magnitude);
  std::uint64_t f = decimal.significand;
  int e = decimal.exponent;
  while (f % 10 == 0) {
    f /= 10;
    ++e;
  }
  char* const end = d.buffer + sizeof d.buffer;
  char* first;
  if (f < 100000000) {
    first = write_digits_below_1e8(end, static_cast<std::uint32_t>(f));
  } else {  // at most 17 digits: up to 9 above eight low ones
    write_eight_digits(end, static_cast<std::uint32_t>(f % 100000000));
    first = write_digits_below_1e8(end - 8, static_cast<std::uint32_t>(f / 100000000));
  }
  d.digits = first;
  d.count = static_cast<int>(end - first);
  d.exponent = e + d.count - 1;
}

inline char* copy(char* p, const char* from, int count) noexcept {
  std::memcpy(p, from, static_cast<std::size_t>(count));
  return p + count;
}

inline char* zeros(char* p, int count) noexcept {
  std::memset(p, '0', static_cast<std::size_t>(count));
  return p + count;
}

// "d.ddd" (or "d" alone when `always_fraction` is false and there is one digit).
inline char* scientific_digits(char* p, const DecimalDigits& d, bool always_fraction) noexcept {
  *p++ = d.digits[0];
  if (d.count > 1) {
    *p++ = '.';
    p = copy(p, d.digits + 1, d.count - 1);
  } else if (always_fraction) {
    *p++ = '.';
    *p++ = '0';
  }
  return p;
}

// Plain notation of the digits: "0.000ddd", "dd.ddd" or "ddd" (no fraction added).
inline char* plain_digits(char* p, const DecimalDigits& d) noexcept {
  if (d.exponent < 0) {
    *p++ = '0';
    *p++ = '.';
    p = zeros(p, -d.exponent - 1);
    return copy(p, d.digits, d.count);
  }
  const int whole = d.exponent + 1;  // digits before the point
  if (d.count <= whole) return zeros(copy(p, d.digits, d.count), whole - d.count);
  p = copy(p, d.digits, whole);
  *p++ = '.';
  return copy(p, d.digits + whole, d.count - whole);
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
    *p++ = '0';
    if (format.force_fraction) {
      *p++ = '.';
      *p++ = '0';
    }
    return p;
  }
  DecimalDigits d;
  decimal_digits(magnitude, d);
  const int n = d.count;
  const int e = d.exponent;
  const int scientific_length = n + (n > 1 ? 1 : 0) + 2 + (e >= 100 || e <= -100 ? 3 : 2);
  const int plain_length = e >= n - 1 ? e + 1 : e < 0 ? n + 1 - e : n + 1;
  if (plain_length > scientific_length) {
    p = scientific_digits(p, d, false);
    *p++ = 'e';
    *p++ = e < 0 ? '-' : '+';
    return exponent_digits(p, e < 0 ? -e : e, 2);
  }
  if (e >= n - 1) {  // a whole number
    if (magnitude >= 9007199254740992.0) [[unlikely]] {
      // 2^53 and up: the digits of the exact integer, as to_chars writes them.
      p = std::to_chars(p, out + max_double_chars, magnitude).ptr;
    } else {
      p = zeros(copy(p, d.digits, n), e + 1 - n);
    }
    if (format.force_fraction) {
      *p++ = '.';
      *p++ = '0';
    }
    return p;
  }
  return plain_digits(p, d);
}

char* format_double_smalltalk(char* out, double value) {
  char* p = out;
  if (std::signbit(value)) *p++ = '-';
  const double magnitude = std::fabs(value);
  if (magnitude == 0) {
    std::memcpy(p, "0.0", 3);
    return p + 3;
  }
  DecimalDigits d;
  decimal_digits(magnitude, d);
  if (magnitude >= 1e-4 && magnitude < 1e6) {
    p = plain_digits(p, d);
    if (d.exponent >= d.count - 1) {  // a whole number: "123.0"
      *p++ = '.';
      *p++ = '0';
    }
    return p;
  }
  p = scientific_digits(p, d, true);
  *p++ = 'e';
  if (d.exponent < 0) *p++ = '-';
  return exponent_digits(p, d.exponent < 0 ? -d.exponent : d.exponent, 1);
}

}  // namespace bufstream
