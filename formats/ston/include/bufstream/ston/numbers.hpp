// STON's exact numbers: integers of any size, fractions and Smalltalk's scaled decimals, as
// they appear inside a ston::Value (value.hpp).
#pragma once

#include <compare>
#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace bufstream::ston {

class Value;

class Integer;
namespace detail {
/// `digits`: non-empty, no leading zero (unless "0"). For the reader and the arithmetic.
Integer integer_from_digits(bool negative, std::string_view digits);
}  // namespace detail

/// An exact integer of any size. Values that fit in 64 bits are stored as `std::int64_t`; larger
/// ones as their decimal text, so nothing is ever rounded.
class Integer {
 public:
  Integer() noexcept = default;
  /// Any C++ integer.
  template <std::integral T>
  requires(!std::same_as<T, bool> && !std::same_as<T, char>)
      Integer(T value) {  // NOLINT(google-explicit-constructor): integers convert naturally
    if constexpr (std::is_unsigned_v<T> && sizeof(T) >= sizeof(std::int64_t)) {
      if (value > static_cast<T>(INT64_MAX)) {
        big_ = std::to_string(value);
        return;
      }
    }
    small_ = static_cast<std::int64_t>(value);
  }

  /// Parses an optional '-' followed by decimal digits (leading zeros allowed). Throws
  /// `UsageError` for anything else.
  static Integer from_decimal(std::string_view text);

  /// True when the value fits in an int64.
  bool fits_int64() const noexcept { return big_.empty(); }
  /// The value as an int64, if it fits.
  std::optional<std::int64_t> to_int64() const noexcept {
    if (!big_.empty()) return std::nullopt;
    return small_;
  }
  /// -1, 0 or 1.
  int sign() const noexcept {
    if (!big_.empty()) return big_[0] == '-' ? -1 : 1;
    return (small_ > 0) - (small_ < 0);
  }
  /// Decimal text: "-123".
  std::string to_string() const;
  /// The nearest double (infinity beyond its range).
  double to_double() const noexcept;
  /// The integer with the other sign.
  Integer negated() const;

  /// Equal when the values are.
  friend bool operator==(const Integer&, const Integer&) = default;

 private:
  friend Integer detail::integer_from_digits(bool negative, std::string_view digits);
  std::int64_t small_ = 0;
  std::string big_;  // non-empty exactly when the value is outside int64: "-" and digits
};

/// A reduced fraction with denominator >= 2 (a whole result is an Integer, never a Fraction).
/// Made by `Value::fraction` or the reader.
class Fraction {
 public:
  /// The numerator.
  const Integer& numerator() const noexcept { return numerator_; }
  /// The denominator (at least 2).
  const Integer& denominator() const noexcept { return denominator_; }
  /// The nearest double, correctly rounded.
  double to_double() const;
  /// Equal when numerator and denominator are.
  friend bool operator==(const Fraction&, const Fraction&) = default;

 private:
  friend class Value;
  Fraction(Integer numerator, Integer denominator)
      : numerator_(std::move(numerator)), denominator_(std::move(denominator)) {}
  Integer numerator_;
  Integer denominator_;
};

/// Smalltalk's ScaledDecimal: a reduced fraction (denominator >= 1) and a scale, the number of
/// digits after the point to show. STON writes it `1/3s2`, `3/1s2`.
class ScaledDecimal {
 public:
  /// The numerator.
  const Integer& numerator() const noexcept { return numerator_; }
  /// The denominator (at least 1).
  const Integer& denominator() const noexcept { return denominator_; }
  /// Digits shown after the point.
  std::uint32_t scale() const noexcept { return scale_; }
  /// The nearest double, correctly rounded.
  double to_double() const;
  /// Equal when numerator, denominator and scale are.
  friend bool operator==(const ScaledDecimal&, const ScaledDecimal&) = default;

 private:
  friend class Value;
  ScaledDecimal(Integer numerator, Integer denominator, std::uint32_t scale)
      : numerator_(std::move(numerator)), denominator_(std::move(denominator)), scale_(scale) {}
  Integer numerator_;
  Integer denominator_;
  std::uint32_t scale_;
};

}  // namespace bufstream::ston
