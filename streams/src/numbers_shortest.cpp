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

#include <bufstream/kernels/format_integer.hpp>
#include <bufstream/kernels/powers_of_ten.hpp>

namespace bufstream {

namespace detail {

namespace {

using kernels::floor_log10_pow2;
using kernels::floor_log10_three_quarters_pow2;
using kernels::floor_log2_pow10;
using kernels::multiply_64x64;
using kernels::Power128;

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
  const Power128& t = kernels::power_of_ten_128(e);
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

// A shortest decimal, and whether it was found as the multiple of 10 inside the rounding
// interval. When it was not, it does not end in 0 (a candidate s or t that did would be that
// multiple of 10), so its digit count follows from its magnitude alone.
struct ShortestDecimal {
  std::uint64_t significand;
  int exponent;
  bool multiple_of_10;
};

// The shortest decimal of a finite positive double, inlined into format_double and
// format_double_smalltalk (a call would cost a tenth of the conversion).
[[gnu::always_inline]] inline ShortestDecimal shortest_decimal(double value) noexcept {
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
  const std::uint64_t t = s + 1;
  // A multiple of 10 inside the interval is the shortest decimal (there is at most one); else
  // s or t, whichever is inside, or the nearer to v when both are (ties to even). Every
  // candidate is computed and the choice made with selects, not branches: which case applies
  // depends on the value's low digits, which a branch predictor cannot guess.
  const std::uint64_t sp10 = s / 10 * 10;
  const std::uint64_t tp10 = sp10 + 10;
  const bool sp10_inside = vbl + out <= sp10 << 2;
  const bool tp10_inside = (tp10 << 2) + out <= vbr;
  const bool s_inside = vbl + out <= s << 2;
  const bool t_inside = (t << 2) + out <= vbr;
  const auto distance = static_cast<std::int64_t>(vb - ((s + t) << 1));
  const std::uint64_t nearer = distance < 0 || (distance == 0 && (s & 1) == 0) ? s : t;
  const std::uint64_t one_of_two = s_inside != t_inside ? (s_inside ? s : t) : nearer;
  const bool multiple_of_10 = sp10_inside != tp10_inside;
  const std::uint64_t shortest = multiple_of_10 ? (sp10_inside ? sp10 : tp10) : one_of_two;
  return {shortest, k, multiple_of_10};
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
  if (!decimal.multiple_of_10 && f >= 1000000000000000) [[likely]] {
    // No trailing zero, 16 or 17 digits (every normal double but the round ones): the length
    // from two comparisons, without waiting for the digits. (A branch, not a select, which
    // would wait for both sides.)
    d.first = f >= 10000000000000000 ? 0 : 1;
    d.count = 17 - d.first;
  } else {
    // Byte i of a group is its digit i (lowest byte first): trailing zero bits count leading
    // zero digits, leading zero bits trailing zero digits. f > 0: some group is not zero.
    const int lead_in_middle = 1 + zero_bytes(std::countr_zero(d.middle));
    const int lead_in_low = 9 + zero_bytes(std::countr_zero(d.low));
    const int lead_below_top = d.middle != 0 ? lead_in_middle : lead_in_low;
    d.first = d.top != 0 ? 0 : lead_below_top;
    const int end_in_low = 17 - zero_bytes(std::countl_zero(d.low));
    const int end_in_middle = 9 - zero_bytes(std::countl_zero(d.middle));
    const int end_above_low = d.middle != 0 ? end_in_middle : 1;
    const int end = d.low != 0 ? end_in_low : end_above_low;
    d.count = end - d.first;
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
  if (d.first <= 1) [[likely]] {   // every normal double has 16 or 17 digits
    char* const at = p - d.first;  // the 17 digits from there: a leading 0 lands on p[-1]
    at[0] = static_cast<char>('0' + d.top);
    store_digits(at + 1, d.middle);
    store_digits(at + 9, d.low);
  } else {  // subnormals
    char all[17];
    all[0] = static_cast<char>('0' + d.top);
    store_digits(all + 1, d.middle);
    store_digits(all + 9, d.low);
    for (int i = d.first; i < 17; ++i) p[i - d.first] = all[i];
  }
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
// and S[8..16), byte i of a word in bits 8i..8i+7) and S[16]. Normal doubles (first <= 1).
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
