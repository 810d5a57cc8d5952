// csv::FieldConverter<T>: a field's text as a C++ value, for typed rows.
//
// `FieldConverter<T>::parse(text)` returns the value or throws `ConversionError` (which
// RowReader turns into a ParseError at the field). Provided for:
// - integers (`int`, `std::int64_t`, `unsigned`, ...): an optional '-', then decimal digits, in
//   range for the type; nothing else (no '+', no spaces);
// - `double` and `float`: decimal text as `bufstream::parse_double` reads it (`-1.5e3`, `.5`),
//   correctly rounded, plus `inf`, `-inf` and `nan` as the writer writes them; a number
//   beyond the type's range is an error ("expected a number within the range of double"),
//   one below it is a signed zero;
// - `bool`: `true`/`false`, `TRUE`/`FALSE`, `True`/`False`, `1`/`0`;
// - `std::string`: the text as it is (an empty field is "");
// - `std::optional<T>`: an empty field is `std::nullopt`, anything else is converted as T.
// Text of any length is checked (a field is bounded only by memory).
// Other than for strings and optionals an empty field is an error ("found an empty field");
// `Schema::field_or` gives a default instead. Specialize FieldConverter for your own types.
#pragma once

#include <concepts>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include <bufstream/numbers.hpp>

namespace bufstream::csv {

/// A field's text is not a value of the type it is read as. The message says what was
/// expected and what was found: "expected an integer from 0 to 255 but found '300'".
class ConversionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

template <class T>
struct FieldConverter;

namespace detail {
[[noreturn]] void throw_not_integer(std::string_view text, bool is_signed, std::size_t bytes);
double parse_double_field(std::string_view text);
float parse_float_field(std::string_view text);
bool parse_bool_field(std::string_view text);
/// The value `FieldConverter<double>` reads from `text`, or nullopt where it throws: for
/// callers that try a type without an exception per miss (csv::Table's inference).
std::optional<double> double_field_value(std::string_view text) noexcept;
/// The value `FieldConverter<bool>` reads from `text`, or nullopt where it throws.
std::optional<bool> bool_field_value(std::string_view text) noexcept;
}  // namespace detail

/// Integers: an optional '-', then decimal digits, in range for T.
template <std::integral T>
requires(!std::same_as<T, bool> && !std::same_as<T, char>) struct FieldConverter<T> {
  /// The value of `text`; throws ConversionError if it is not one.
  static T parse(std::string_view text) {
    if (const std::optional<T> value = parse_integer<T>(text)) return *value;
    detail::throw_not_integer(text, std::is_signed_v<T>, sizeof(T));
  }
};

/// `double`: decimal text, correctly rounded, or `inf`, `-inf`, `nan`.
template <>
struct FieldConverter<double> {
  /// The value of `text`; throws ConversionError if it is not one.
  static double parse(std::string_view text) {
    const double value = bufstream::detail::parse_double_or_nan(text);
    if (value == value) [[likely]]
      return value;
    return detail::parse_double_field(text);  // inf, nan, or the error and its message
  }
};

/// `float`: the text `double` takes, rounded once to float (straight from the text).
template <>
struct FieldConverter<float> {
  /// The value of `text`; throws ConversionError if it is not one.
  static float parse(std::string_view text) { return detail::parse_float_field(text); }
};

/// `bool`: `true`/`false`, `TRUE`/`FALSE`, `True`/`False`, `1`/`0`.
template <>
struct FieldConverter<bool> {
  /// The value of `text`; throws ConversionError if it is not one.
  static bool parse(std::string_view text) { return detail::parse_bool_field(text); }
};

/// `std::string`: the text as it is.
template <>
struct FieldConverter<std::string> {
  /// The text, copied.
  static std::string parse(std::string_view text) { return std::string(text); }
};

/// `std::optional<T>`: an empty field is `std::nullopt`, anything else is converted as T.
template <class T>
struct FieldConverter<std::optional<T>> {
  /// `std::nullopt` for an empty field, else the value of `text` as T.
  static std::optional<T> parse(std::string_view text) {
    if (text.empty()) return std::nullopt;
    return FieldConverter<T>::parse(text);
  }
};

namespace detail {
/// Stores the value of `text` in `target`; a string keeps its capacity when a row is reused.
template <class T>
void assign_field(T& target, std::string_view text) {
  if constexpr (std::is_same_v<T, std::string>) {
    target.assign(text);
  } else {
    target = FieldConverter<T>::parse(text);
  }
}
}  // namespace detail

}  // namespace bufstream::csv
