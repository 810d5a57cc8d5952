// Number printing and parsing: the one implementation every format uses.
//
// Printing takes the shortest round-trip digits of a double from {fmt}'s Dragonbox and lays
// them out as each format needs (`std::to_chars`' text, JSON's `1.0`, Smalltalk's `1.0e100`)
// in one place; integers are written eight digits at a time (`format_integer`). Parsing reads
// digits eight at a time from 64-bit words and is correctly rounded: Clinger's shortcut and
// Eisel-Lemire's first step inline, fast_float for what they cannot decide and for more than 19
// digits; `decimal_to_double` is the shared core the format readers call with the digits they
// scanned themselves. bufstream-bench's numbers suite measures both against the libraries.
// `read_integer`/`read_double` read a number straight from a stream. The digit loops
// themselves live in the private kernel layer (streams/kernels), behind the out-of-line
// functions declared here.
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

namespace detail {
char* format_signed(char* out, std::int64_t value) noexcept;
char* format_unsigned(char* out, std::uint64_t value) noexcept;
}  // namespace detail

/// Writes `value` in decimal ('-' first when negative), the text of `std::to_chars` byte for
/// byte, and returns the end. `out` needs `max_integer_chars` bytes: the bytes after the text,
/// up to `out + max_integer_chars`, may be overwritten. Every integer that `WriteStream::print`
/// and the formats write goes through here.
template <std::integral T>
requires(!std::same_as<T, bool> && sizeof(T) <= 8) char* format_integer(char* out,
                                                                        T value) noexcept {
  if constexpr (std::is_signed_v<T>) {
    return detail::format_signed(out, static_cast<std::int64_t>(value));
  } else {
    return detail::format_unsigned(out, static_cast<std::uint64_t>(value));
  }
}

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

/// The double nearest to `significand` * 10^`exponent` (ties to even), subnormals and zero
/// included, when it can be found without the digits themselves: `std::nullopt` when the value
/// is too large for a double, or too close to a midpoint between two doubles to decide that
/// way (rare); callers then convert the text with `parse_double`. `significand` must be below
/// 10^19 (19 digits).
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

/// The integer types `parse_integer` reads itself (the others, like __int128, go to
/// std::from_chars).
template <class T>
inline constexpr bool is_parsed_in_64_bits =
    sizeof(T) <= sizeof(std::uint64_t) &&
    (std::is_same_v<T, char> || std::is_same_v<T, signed char> ||
     std::is_same_v<T, unsigned char> || std::is_same_v<T, short> ||
     std::is_same_v<T, unsigned short> || std::is_same_v<T, int> || std::is_same_v<T, unsigned> ||
     std::is_same_v<T, long> || std::is_same_v<T, unsigned long> || std::is_same_v<T, long long> ||
     std::is_same_v<T, unsigned long long>);

/// The value of the digits `[p, end)` and whether there is one: false when a byte is not a
/// digit, there are none, or the value does not fit in 64 bits. (Two registers, not an
/// optional, come back from the call.)
struct ParsedDigits {
  std::uint64_t value;
  bool ok;
};
ParsedDigits parse_digits(const char* p, const char* end) noexcept;

}  // namespace detail

/// Parses all of `text` as an integer of type T (optional leading `-` for signed types, then
/// decimal digits). Empty, partial, or out-of-range text gives `std::nullopt`. The same
/// result as `std::from_chars` on the whole text, without a branch per digit (see
/// the digits kernel).
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
    const detail::ParsedDigits magnitude = detail::parse_digits(p, end);
    // The largest magnitude T holds with this sign (for a negative one, |min| = max + 1).
    const std::uint64_t limit =
        static_cast<std::uint64_t>(std::numeric_limits<T>::max()) + (negative ? 1 : 0);
    if (!magnitude.ok || magnitude.value > limit) return std::nullopt;
    // Negation modulo 2^64, then the conversion to T modulo 2^bits, give -magnitude exactly.
    return static_cast<T>(negative ? std::uint64_t{0} - magnitude.value : magnitude.value);
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

/// The text of a number token (a sign, digits, a point, `e`, `E`) taken from a stream across
/// windows without going back; the view is valid until the next operation on `in` or `spill`.
std::string_view next_number_text(ReadStream& in, std::string& spill);

namespace detail {
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
