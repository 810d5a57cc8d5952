#include "natural.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <utility>

#include <bufstream/detail/digits.hpp>
#include <bufstream/numbers.hpp>

namespace bufstream::ston::detail {

Natural::Natural(std::uint64_t value) {
  while (value != 0) {
    limbs_.push_back(static_cast<std::uint32_t>(value));
    value >>= 32;
  }
}

Natural Natural::from_decimal(std::string_view digits) {
  Natural n;
  // Nine digits at a time (below 10^9 < 2^32): one multiply-add per chunk instead of per digit.
  std::size_t chunk = digits.size() % 9 == 0 ? 9 : digits.size() % 9;
  for (std::size_t i = 0; i < digits.size(); i += chunk, chunk = 9) {
    const auto value = parse_integer<std::uint32_t>(digits.substr(i, chunk));
    n.multiply_add(static_cast<std::uint32_t>(bufstream::detail::powers_of_ten_u64[chunk]), *value);
  }
  return n;
}

Natural Natural::power_of_ten(std::size_t exponent) {
  Natural n(1);
  for (; exponent >= 9; exponent -= 9) n.multiply_add(1000000000U, 0);
  std::uint32_t rest = 1;
  for (; exponent > 0; --exponent) rest *= 10;
  n.multiply_add(rest, 0);
  return n;
}

std::string Natural::to_decimal() const {
  if (is_zero()) return "0";
  Natural n = *this;
  std::string reversed;
  while (!n.is_zero()) {
    std::uint32_t chunk = n.divide_small(1000000000U);
    for (int k = 0; k < 9; ++k) {
      reversed.push_back(static_cast<char>('0' + chunk % 10));
      chunk /= 10;
      if (n.is_zero() && chunk == 0) break;
    }
  }
  while (reversed.size() > 1 && reversed.back() == '0') reversed.pop_back();
  return {reversed.rbegin(), reversed.rend()};
}

std::uint64_t Natural::to_u64() const noexcept {
  std::uint64_t value = 0;
  for (std::size_t i = limbs_.size(); i-- > 0;) value = (value << 32) | limbs_[i];
  return value;
}

std::size_t Natural::bit_length() const noexcept {
  if (limbs_.empty()) return 0;
  std::size_t bits = 32 * (limbs_.size() - 1);
  for (std::uint32_t top = limbs_.back(); top != 0; top >>= 1) ++bits;
  return bits;
}

void Natural::multiply_add(std::uint32_t factor, std::uint32_t addend) {
  std::uint64_t carry = addend;
  for (auto& limb : limbs_) {
    const std::uint64_t t = static_cast<std::uint64_t>(limb) * factor + carry;
    limb = static_cast<std::uint32_t>(t);
    carry = t >> 32;
  }
  if (carry != 0) limbs_.push_back(static_cast<std::uint32_t>(carry));
  trim();
}

std::uint32_t Natural::divide_small(std::uint32_t divisor) {
  std::uint64_t remainder = 0;
  for (std::size_t i = limbs_.size(); i-- > 0;) {
    const std::uint64_t t = (remainder << 32) | limbs_[i];
    limbs_[i] = static_cast<std::uint32_t>(t / divisor);
    remainder = t % divisor;
  }
  trim();
  return static_cast<std::uint32_t>(remainder);
}

void Natural::shift_left(std::size_t bits) {
  if (is_zero() || bits == 0) return;
  const std::size_t limbs = bits / 32, rest = bits % 32;
  limbs_.insert(limbs_.begin(), limbs, 0U);
  if (rest != 0) {
    std::uint32_t carry = 0;
    for (std::size_t i = limbs; i < limbs_.size(); ++i) {
      const std::uint32_t limb = limbs_[i];
      limbs_[i] = (limb << rest) | carry;
      carry = limb >> (32 - rest);
    }
    if (carry != 0) limbs_.push_back(carry);
  }
}

void Natural::shift_right(std::size_t bits) {
  const std::size_t limbs = bits / 32, rest = bits % 32;
  if (limbs >= limbs_.size()) {
    limbs_.clear();
    return;
  }
  limbs_.erase(limbs_.begin(), limbs_.begin() + static_cast<std::ptrdiff_t>(limbs));
  if (rest != 0) {
    for (std::size_t i = 0; i < limbs_.size(); ++i) {
      const std::uint32_t high = i + 1 < limbs_.size() ? limbs_[i + 1] << (32 - rest) : 0U;
      limbs_[i] = (limbs_[i] >> rest) | high;
    }
  }
  trim();
}

std::size_t Natural::trailing_zeros() const noexcept {
  for (std::size_t i = 0; i < limbs_.size(); ++i) {
    if (limbs_[i] != 0) return 32 * i + static_cast<std::size_t>(std::countr_zero(limbs_[i]));
  }
  return 0;
}

int compare(const Natural& a, const Natural& b) noexcept {
  if (a.limbs_.size() != b.limbs_.size()) return a.limbs_.size() < b.limbs_.size() ? -1 : 1;
  for (std::size_t i = a.limbs_.size(); i-- > 0;) {
    if (a.limbs_[i] != b.limbs_[i]) return a.limbs_[i] < b.limbs_[i] ? -1 : 1;
  }
  return 0;
}

void Natural::subtract(const Natural& b) {
  std::int64_t borrow = 0;
  for (std::size_t i = 0; i < limbs_.size(); ++i) {
    std::int64_t t = static_cast<std::int64_t>(limbs_[i]) - borrow -
                     (i < b.limbs_.size() ? static_cast<std::int64_t>(b.limbs_[i]) : 0);
    borrow = t < 0 ? 1 : 0;
    if (t < 0) t += std::int64_t{1} << 32;
    limbs_[i] = static_cast<std::uint32_t>(t);
  }
  trim();
}

Natural operator*(const Natural& a, const Natural& b) {
  Natural product;
  if (a.is_zero() || b.is_zero()) return product;
  product.limbs_.assign(a.limbs_.size() + b.limbs_.size(), 0U);
  for (std::size_t i = 0; i < a.limbs_.size(); ++i) {
    std::uint64_t carry = 0;
    for (std::size_t j = 0; j < b.limbs_.size(); ++j) {
      const std::uint64_t t =
          static_cast<std::uint64_t>(a.limbs_[i]) * b.limbs_[j] + product.limbs_[i + j] + carry;
      product.limbs_[i + j] = static_cast<std::uint32_t>(t);
      carry = t >> 32;
    }
    product.limbs_[i + b.limbs_.size()] = static_cast<std::uint32_t>(carry);
  }
  product.trim();
  return product;
}

void divide(const Natural& a, const Natural& b, Natural& quotient, Natural& remainder) {
  if (b.limbs_.size() == 1) {
    quotient = a;
    remainder = Natural(quotient.divide_small(b.limbs_[0]));
    return;
  }
  // Binary long division: one shift and at most one subtraction per bit of `a`. Quadratic,
  // which the reader's number length limit keeps small.
  Natural q, r;
  const std::size_t bits = a.bit_length();
  q.limbs_.assign((bits + 31) / 32, 0U);
  for (std::size_t i = bits; i-- > 0;) {
    r.shift_left(1);
    if (a.bit(i)) {
      if (r.limbs_.empty()) r.limbs_.push_back(0);
      r.limbs_[0] |= 1U;
    }
    if (compare(r, b) >= 0) {
      r.subtract(b);
      q.limbs_[i / 32] |= 1U << (i % 32);
    }
  }
  q.trim();
  quotient = std::move(q);
  remainder = std::move(r);
}

Natural gcd(Natural a, Natural b) {
  // Binary GCD: each round removes at least one bit at linear cost, so the whole is quadratic
  // in the length (Euclid over the bitwise division above would be cubic).
  if (a.is_zero()) return b;
  if (b.is_zero()) return a;
  const std::size_t shift = std::min(a.trailing_zeros(), b.trailing_zeros());
  a.shift_right(a.trailing_zeros());
  for (;;) {
    b.shift_right(b.trailing_zeros());
    if (a.fits_u64() && b.fits_u64()) {
      std::uint64_t x = a.to_u64(), y = b.to_u64();
      while (y != 0) x = std::exchange(y, x % y);
      Natural g(x);
      g.shift_left(shift);
      return g;
    }
    if (compare(a, b) > 0) std::swap(a, b);
    b.subtract(a);
    if (b.is_zero()) break;
  }
  a.shift_left(shift);
  return a;
}

double quotient_to_double(const Natural& numerator, const Natural& denominator, bool negative) {
  if (numerator.is_zero()) return negative ? -0.0 : 0.0;
  // Scale so that the integer quotient has 63 or 64 bits; the remainder is the sticky bit.
  const auto shift = 63 - (static_cast<long>(numerator.bit_length()) -
                           static_cast<long>(denominator.bit_length()));
  Natural n = numerator, d = denominator;
  if (shift > 0) n.shift_left(static_cast<std::size_t>(shift));
  if (shift < 0) d.shift_left(static_cast<std::size_t>(-shift));
  Natural q, r;
  divide(n, d, q, r);
  std::uint64_t bits = q.to_u64();
  const bool sticky = !r.is_zero();
  const int length = 64 - std::countl_zero(bits);
  // value = bits * 2^-shift; its binary exponent decides how many bits a double can keep.
  const long exponent = length - 1 - shift;
  if (exponent < -1075) return negative ? -0.0 : 0.0;  // below half the smallest subnormal
  long keep = 53;
  if (exponent < -1022) keep = std::max(0L, 53 - (-1022 - exponent));
  const long drop = length - keep;
  std::uint64_t mantissa = drop >= 64 ? 0 : bits >> drop;
  if (drop > 0) {
    const bool half = drop <= 64 && ((bits >> (drop - 1)) & 1U) != 0;
    const std::uint64_t below =
        drop - 1 >= 64 ? bits : bits & ((std::uint64_t{1} << (drop - 1)) - 1);
    if (half && (below != 0 || sticky || (mantissa & 1U) != 0)) ++mantissa;
  }
  const double magnitude =
      std::ldexp(static_cast<double>(mantissa), static_cast<int>(drop - shift));
  return negative ? -magnitude : magnitude;
}

}  // namespace bufstream::ston::detail
