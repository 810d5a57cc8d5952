// Number printing and parsing: the one implementation every format uses.
//
// Printing finds the shortest round-trip digits of a double with Schubfach (exact, one table
// of 128-bit powers of ten) and lays them out as each format needs (`std::to_chars`' text,
// JSON's `1.0`, Smalltalk's `1.0e100`) in one place. Parsing reads digits eight at a time from
// 64-bit words where that pays (see detail::leading_digits) and is correctly rounded: exact
// shortcuts (Clinger, Eisel-Lemire) for up to 19 significant digits, `std::from_chars` for the
// rest; `decimal_to_double` is the shared core the format readers call with the digits they
// scanned themselves. `read_integer`/`read_double` read a number straight from a stream.
#pragma once

#include <bit>
#include <charconv>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>

#include <bufstream/read_stream.hpp>

namespace bufstream {

/// Enough room for any integer up to 64 bits in decimal, with its sign.
inline constexpr std::size_t max_integer_chars = 20;
/// Enough room for any double as `format_double` or `format_double_smalltalk` writes it.
inline constexpr std::size_t max_double_chars = 32;

/// How `format_double` lays out a finite double.
struct DoubleFormat {
  /// Append ".0" to integral values so that they read back as floating point (`1.0`, not
  /// `1`), as JSON writers that keep the integer/float distinction do.
  bool force_fraction = false;
};

/// Writes the shortest text that reads back as exactly `value` (`0.1`, `1e+100`, `-0`) and
/// returns the end: the text of `std::to_chars(out, end, value)`, byte for byte. Infinities
/// and NaN are written `inf`, `-inf`, `nan`; formats that cannot hold them check
/// `std::isfinite` first. `out` needs `max_double_chars` bytes.
char* format_double(char* out, double value, DoubleFormat format = {});

/// Writes `value` the way Smalltalk prints a Float (and STON expects it): the shortest
/// round-trip digits, always with a fraction part; plain notation when
/// 1e-4 <= |value| < 1e6 (and for 0), otherwise mantissa `e` exponent with no `+`:
/// `1.0`, `0.001`, `1.0e100`, `1.5e-7`, `-0.0`. Finite values only.
char* format_double_smalltalk(char* out, double value);

/// The double nearest to `significand` * 10^`exponent` (ties to even), when it can be found
/// exactly without big numbers: `std::nullopt` when the value is zero after rounding, subnormal,
/// infinite, or too close to a midpoint between two doubles to decide (rare); callers then
/// convert the text with `parse_double`. `significand` must be below 10^19 (19 digits).
inline std::optional<double> decimal_to_double(std::uint64_t significand, int exponent) noexcept;

namespace detail {
/// `decimal_to_double` for hot loops: NaN where that gives nullopt. (A plain double comes back
/// in one register; an optional<double> is reassembled through memory.)
double decimal_to_double_or_nan(std::uint64_t significand, int exponent) noexcept;
}  // namespace detail

inline std::optional<double> decimal_to_double(std::uint64_t significand, int exponent) noexcept {
  const double value = detail::decimal_to_double_or_nan(significand, exponent);
  if (value != value) return std::nullopt;
  return value;
}

namespace detail {

// ---- Digits eight at a time (parse_integer here, parse_double in numbers.cpp) --------------
//
// A number's digits are read as one 64-bit word of eight bytes, the first byte in the lowest
// position: one load (or two, or three for the shortest texts), a count of the leading digit
// bytes from the word's trailing zeros, and their value from three multiply-and-mask steps. No
// loop and no branch per digit: the loops they replace ended at a different digit count for
// nearly every number, and each such end was a mispredicted branch.

inline std::uint64_t little_endian(std::uint64_t word) noexcept {
  if constexpr (std::endian::native == std::endian::big) {
    std::uint64_t swapped = 0;
    for (int i = 0; i < 8; ++i) swapped = swapped << 8 | (word >> (8 * i) & 0xFF);
    return swapped;
  }
  return word;
}

/// The eight bytes at `p`, the first in the lowest position.
inline std::uint64_t load_eight(const char* p) noexcept {
  std::uint64_t word = 0;
  std::memcpy(&word, p, sizeof word);
  return little_endian(word);
}

/// The first `n` bytes at `p` (`n` <= 8), the first in the lowest position, zeros above. Reads
/// only `[p, p + n)`: two overlapping four-byte loads for 4 to 8 bytes, the first, middle and
/// last byte for 1 to 3.
inline std::uint64_t load_up_to_eight(const char* p, std::size_t n) noexcept {
  if (n >= 4) {
    std::uint32_t first = 0, last = 0;
    std::memcpy(&first, p, 4);
    std::memcpy(&last, p + n - 4, 4);
    const std::uint64_t low = little_endian(first) >> (std::endian::native == std::endian::big ? 32 : 0);
    const std::uint64_t high = little_endian(last) >> (std::endian::native == std::endian::big ? 32 : 0);
    // `high` holds bytes n-4 .. n-1; bytes 4 .. n-1 are its top n-4.
    return low | (high >> (8 * (8 - n))) << 32;
  }
  if (n == 0) return 0;
  const auto byte = [p](std::size_t i) { return std::uint64_t{static_cast<unsigned char>(p[i])}; };
  return byte(0) | byte(n / 2) << (8 * (n / 2)) | byte(n - 1) << (8 * (n - 1));
}

/// How many of the word's bytes, from the first, are ASCII digits (0 to 8). A byte's top bit
/// is set by subtracting '0' when it is below '0', and by adding 0x46 when it is above '9'
/// (0x3A + 0x46 = 0x80; a byte of 0xBA or more carries out instead, but subtracting '0' sets
/// its top bit). A borrow or carry only changes bytes after the first non-digit, which do not
/// count.
constexpr int leading_digits(std::uint64_t word) noexcept {
  const std::uint64_t not_digits =
      ((word + 0x4646464646464646) | (word - 0x3030303030303030)) & 0x8080808080808080;
  return std::countr_zero(not_digits) / 8;  // 64 / 8 when all are digits
}

/// The value of the first `n` bytes of the word (0 to 8 digits), the first the most
/// significant. They are moved to the top of the word, zeros below them as leading zeros, and
/// combined pairwise in the register: digits into 2-digit values in 16-bit lanes, those into
/// 4-digit values in 32-bit lanes, those into one; no lane overflows into the next (99 < 2^8,
/// 9999 < 2^16). The bytes after the n digits may borrow from each other when '0' is taken
/// away, never from the digits below them, and are shifted out.
constexpr std::uint64_t leading_digits_value(std::uint64_t word, int n) noexcept {
  const int shift = 32 - 4 * n;  // two shifts of half the distance: n = 0 shifts out all 64 bits
  std::uint64_t v = ((word - 0x3030303030303030) << shift) << shift;
  v = (v * 10 + (v >> 8)) & 0x00FF00FF00FF00FF;
  v = (v * 100 + (v >> 16)) & 0x0000FFFF0000FFFF;
  return (v * 10000 + (v >> 32)) & 0xFFFFFFFF;
}

static_assert(leading_digits(0x3736353433323130) == 8);  // "01234567"
static_assert(leading_digits(0x373635342E323130) == 3);  // "012.4567"
static_assert(leading_digits(0x373635343A323130) == 3 && leading_digits(0x373635342F323130) == 3);
static_assert(leading_digits(0x37363534FA323130) == 3 && leading_digits(0x3736353433323120) == 0);
static_assert(leading_digits(0x0000000000003231) == 2 && leading_digits(0) == 0);
static_assert(leading_digits(0x3736353480323130) == 3 && leading_digits(0x37363534BA323130) == 3);
static_assert(leading_digits(0x37363534FF323130) == 3 && leading_digits(0x39393939393939FF) == 0);
static_assert(leading_digits_value(0x3837363534333231, 8) == 12345678);
static_assert(leading_digits_value(0x3837363534FF3231, 2) == 12);
static_assert(leading_digits_value(0x3939393939393939, 8) == 99999999);
static_assert(leading_digits_value(0x0000000000000039, 1) == 9);
static_assert(leading_digits_value(0x3939393939393939, 0) == 0);

inline constexpr std::uint64_t powers_of_ten_to_8[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000,
                                                        100000000};

/// The integer types `parse_integer` reads itself (the others, like __int128, go to
/// std::from_chars).
template <class T>
inline constexpr bool is_parsed_in_64_bits =
    sizeof(T) <= sizeof(std::uint64_t) &&
    (std::is_same_v<T, char> || std::is_same_v<T, signed char> || std::is_same_v<T, unsigned char> ||
     std::is_same_v<T, short> || std::is_same_v<T, unsigned short> || std::is_same_v<T, int> ||
     std::is_same_v<T, unsigned> || std::is_same_v<T, long> || std::is_same_v<T, unsigned long> ||
     std::is_same_v<T, long long> || std::is_same_v<T, unsigned long long>);

/// The value of the digits `[p, end)`, or nullopt when one is not a digit, there are none, or
/// the value does not fit in 64 bits.
inline std::optional<std::uint64_t> parse_digits(const char* p, const char* end) noexcept {
  const auto n = static_cast<std::size_t>(end - p);
  if (n - 1 < 8) {  // 1 to 8 digits: one word
    const std::uint64_t word = load_up_to_eight(p, n);
    if (leading_digits(word) != static_cast<int>(n)) return std::nullopt;
    return leading_digits_value(word, static_cast<int>(n));
  }
  if (n - 1 < 16) {  // 9 to 16: two
    const std::uint64_t high = load_eight(p);
    const std::uint64_t low = load_up_to_eight(p + 8, n - 8);
    if (leading_digits(high) != 8 || leading_digits(low) != static_cast<int>(n - 8)) return std::nullopt;
    return leading_digits_value(high, 8) * powers_of_ten_to_8[n - 8] +
           leading_digits_value(low, static_cast<int>(n - 8));
  }
  if (n == 0) return std::nullopt;
  // 17 or more: digit by digit. Any 19 fit in 64 bits, a 20th only sometimes, more only as
  // leading zeros.
  while (end - p > 20 && *p == '0') ++p;
  if (end - p > 20) return std::nullopt;  // a non-digit, or too large
  std::uint64_t value = 0;
  for (; p != end; ++p) {
    const unsigned digit = static_cast<unsigned char>(*p) - unsigned{'0'};
    if (digit > 9) return std::nullopt;
    if (value > (~std::uint64_t{0} - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
  }
  return value;
}

}  // namespace detail

/// Parses all of `text` as an integer of type T (optional leading `-` for signed types, then
/// decimal digits). Empty, partial, or out-of-range text gives `std::nullopt`. The same
/// result as `std::from_chars` on the whole text, without a branch per digit (see
/// `detail::parse_digits`).
template <std::integral T>
std::optional<T> parse_integer(std::string_view text) noexcept {
  if constexpr (detail::is_parsed_in_64_bits<T>) {
    const char* p = text.data();
    const char* const end = p + text.size();
    bool negative = false;
    if constexpr (std::is_signed_v<T>) {
      negative = p != end && *p == '-';
      p += negative ? 1 : 0;
    }
    const std::optional<std::uint64_t> magnitude = detail::parse_digits(p, end);
    // The largest magnitude T holds with this sign (for a negative one, |min| = max + 1).
    const std::uint64_t limit = static_cast<std::uint64_t>(std::numeric_limits<T>::max()) + (negative ? 1 : 0);
    if (!magnitude || *magnitude > limit) return std::nullopt;
    // Negation modulo 2^64, then the conversion to T modulo 2^bits, give -magnitude exactly.
    return static_cast<T>(negative ? std::uint64_t{0} - *magnitude : *magnitude);
  } else {
    T value{};
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr != end || text.empty()) return std::nullopt;
    return value;
  }
}

/// Parses all of `text` as a decimal floating-point number (`-1.5e3`, `0.1`, `7`), correctly
/// rounded. A value too large for a double gives `std::nullopt`; too small gives 0 (or the
/// nearest subnormal). No leading `+`, no spaces, no `inf`/`nan`, no hexadecimal.
inline std::optional<double> parse_double(std::string_view text) noexcept;

namespace detail {
/// `parse_double` for hot loops: NaN where that gives nullopt (it never gives NaN itself). The
/// optional is built inline by the caller: returned from a function, GCC assembles it in
/// memory with a one-byte store that the caller's eight-byte load cannot take from the store
/// buffer (a quarter of parse_double's profile samples sat on that return).
double parse_double_or_nan(std::string_view text) noexcept;
}  // namespace detail

inline std::optional<double> parse_double(std::string_view text) noexcept {
  const double value = detail::parse_double_or_nan(text);
  if (value != value) return std::nullopt;
  return value;
}

/// Reads an integer straight from a stream: an optional `-`, then digits, stopping at the
/// first other byte (which is not consumed). Throws `ParseError` (at the number's start) when
/// there is no digit or the value does not fit in T.
template <std::integral T>
T read_integer(ReadStream& in);

/// Reads a decimal number straight from a stream (sign, digits, fraction, exponent), stopping
/// at the first byte that cannot continue it. Throws `ParseError` if the text is not a number.
double read_double(ReadStream& in);

/// The text of a number token (`-`, `+`, digits, `.`, `e`, `E`) taken from a stream across
/// windows without going back; the view is valid until the next operation on `in` or `spill`.
std::string_view next_number_text(ReadStream& in, std::string& spill);

namespace detail {
/// The shortest decimal `significand` * 10^`exponent` that reads back as a finite positive
/// double, the nearest one when several are as short (ties to an even significand). The
/// significand has at most 17 digits and may end in zeros.
struct Decimal {
  std::uint64_t significand;
  int exponent;
};
Decimal shortest_decimal(double positive) noexcept;

[[noreturn]] void throw_bad_number(std::uint64_t offset, std::string_view text,
                                   std::string_view type);
}

template <std::integral T>
T read_integer(ReadStream& in) {
  std::string spill;
  const std::uint64_t start = in.position();
  bool first = true;
  std::string_view text = in.next_while(
      [&first](char c) {
        const bool ok = (c >= '0' && c <= '9') || (first && c == '-');
        first = false;
        return ok;
      },
      spill);
  if (auto value = parse_integer<T>(text)) return *value;
  detail::throw_bad_number(start, text, "integer");
}

}  // namespace bufstream
