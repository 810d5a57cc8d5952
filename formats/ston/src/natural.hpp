// Natural: the unsigned arbitrary-precision arithmetic behind STON's exact numbers.
//
// STON integers have no size limit and fractions are kept reduced, so the reader and the value
// model need a few operations on big magnitudes: decimal conversion, multiplication, division,
// greatest common divisor and the correctly rounded quotient as a double. Sizes are bounded by
// the reader's `max_number_length`, so plain schoolbook algorithms are enough; this is not a
// general bignum library and is not part of the public API.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bufstream::ston::detail {

/// A non-negative integer of any size: little-endian 32-bit limbs without leading zero limbs.
class Natural {
 public:
  Natural() = default;
  explicit Natural(std::uint64_t value);

  /// `digits` must be non-empty and hold only '0'..'9'; leading zeros are fine.
  static Natural from_decimal(std::string_view digits);
  static Natural power_of_ten(std::size_t exponent);

  /// Decimal digits without leading zeros ("0" for zero).
  std::string to_decimal() const;

  bool is_zero() const noexcept { return limbs_.empty(); }
  bool fits_u64() const noexcept { return limbs_.size() <= 2; }
  std::uint64_t to_u64() const noexcept;  // precondition: fits_u64()
  std::size_t bit_length() const noexcept;

  /// *this = *this * factor + addend.
  void multiply_add(std::uint32_t factor, std::uint32_t addend);
  /// *this /= divisor (non-zero); returns the remainder.
  std::uint32_t divide_small(std::uint32_t divisor);
  void shift_left(std::size_t bits);
  void shift_right(std::size_t bits);
  /// The number of low zero bits (0 for zero).
  std::size_t trailing_zeros() const noexcept;

  friend int compare(const Natural& a, const Natural& b) noexcept;
  friend bool operator==(const Natural& a, const Natural& b) noexcept = default;
  friend Natural operator*(const Natural& a, const Natural& b);
  /// Quotient and remainder of a / b; b must not be zero.
  friend void divide(const Natural& a, const Natural& b, Natural& quotient, Natural& remainder);
  friend Natural gcd(Natural a, Natural b);

 private:
  bool bit(std::size_t index) const noexcept { return (limbs_[index / 32] >> (index % 32)) & 1U; }
  void subtract(const Natural& b);  // precondition: *this >= b
  void trim() noexcept {
    while (!limbs_.empty() && limbs_.back() == 0) limbs_.pop_back();
  }

  std::vector<std::uint32_t> limbs_;
};

/// The double nearest to numerator / denominator (round half to even, subnormals and
/// overflow to infinity included), negated when `negative`. denominator must not be zero.
double quotient_to_double(const Natural& numerator, const Natural& denominator, bool negative);

}  // namespace bufstream::ston::detail
