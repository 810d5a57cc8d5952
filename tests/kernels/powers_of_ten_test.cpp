// The powers of ten, checked another way than the script that generates the 64-bit table:
// every entry against exact powers computed here with a small big-integer type.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <bufstream/kernels/powers_of_ten.hpp>

namespace bufstream::kernels {
namespace {

// A non-negative integer, least significant 32-bit limb first.
struct Big {
  std::vector<std::uint32_t> limbs;

  explicit Big(std::uint64_t v = 0) {
    for (; v != 0; v >>= 32) limbs.push_back(static_cast<std::uint32_t>(v));
  }
  static Big power_of_two(unsigned n) {
    Big b;
    b.limbs.assign(n / 32 + 1, 0);
    b.limbs.back() = std::uint32_t{1} << (n % 32);
    return b;
  }
  void multiply(std::uint32_t m) {
    std::uint64_t carry = 0;
    for (std::uint32_t& limb : limbs) {
      const std::uint64_t product = std::uint64_t{limb} * m + carry;
      limb = static_cast<std::uint32_t>(product);
      carry = product >> 32;
    }
    if (carry != 0) limbs.push_back(static_cast<std::uint32_t>(carry));
  }
  void add(std::uint32_t a) {
    for (std::uint32_t& limb : limbs) {
      limb += a;
      if (limb >= a) return;
      a = 1;
    }
    limbs.push_back(a);
  }
  unsigned bit_length() const {
    if (limbs.empty()) return 0;
    return static_cast<unsigned>(32 * (limbs.size() - 1)) +
           static_cast<unsigned>(32 - __builtin_clz(limbs.back()));
  }
  bool bit(int i) const {
    if (i < 0) return false;
    const auto index = static_cast<std::size_t>(i);
    return index / 32 < limbs.size() && ((limbs[index / 32] >> (index % 32)) & 1) != 0;
  }
  // The 64 bits from the top bit down (zeros below the lowest).
  std::uint64_t top_64() const {
    const int top = static_cast<int>(bit_length()) - 1;
    std::uint64_t r = 0;
    for (int i = 0; i < 64; ++i) r = (r << 1) | (bit(top - i) ? 1 : 0);
    return r;
  }
  friend bool operator<=(const Big& a, const Big& b) {
    if (a.limbs.size() != b.limbs.size()) return a.limbs.size() < b.limbs.size();
    return !std::lexicographical_compare(b.limbs.rbegin(), b.limbs.rend(), a.limbs.rbegin(),
                                         a.limbs.rend());
  }
  friend bool operator<(const Big& a, const Big& b) { return !(b <= a); }
};

TEST(KernelPowersOfTen, IntegerPowers) {
  std::uint64_t p = 1;
  for (std::size_t i = 0; i < powers_of_ten_u64.size(); ++i, p *= 10)
    EXPECT_EQ(powers_of_ten_u64[i], p) << i;
  EXPECT_EQ(powers_of_ten_u64.back(), 10000000000000000000u);
  double d = 1;
  for (const double exact : exact_double_powers_of_ten) {
    EXPECT_EQ(exact, d);
    d *= 10;  // exact up to 10^22
  }
}

// 10^e for e >= 0: the top 64 bits of the exact power, and floor_log2_pow10 its bit length - 1.
TEST(KernelPowersOfTen, EveryPositiveEntryIsTheTopOfTheExactPower) {
  Big power(1);
  for (int e = 0; e <= max_power_of_ten; ++e, power.multiply(10)) {
    ASSERT_EQ(power_of_ten_64(e), power.top_64()) << e;
    ASSERT_EQ(floor_log2_pow10(e), static_cast<int>(power.bit_length()) - 1) << e;
  }
}

// 10^-j: with N = 63 - floor_log2_pow10(-j), the entry T is floor(2^N / 10^j), that is
// T * 10^j <= 2^N < (T + 1) * 10^j; and its top bit is set.
TEST(KernelPowersOfTen, EveryNegativeEntryIsTheFloorOfTheExactQuotient) {
  for (int j = 1; j <= -min_power_of_ten; ++j) {
    const std::uint64_t t = power_of_ten_64(-j);
    ASSERT_NE(t >> 63, 0u) << j;
    Big low(t), high(t);
    high.add(1);
    for (int i = 0; i < j; ++i) {
      low.multiply(10);
      high.multiply(10);
    }
    const Big two_to_n = Big::power_of_two(static_cast<unsigned>(63 - floor_log2_pow10(-j)));
    ASSERT_TRUE(low <= two_to_n) << j;
    ASSERT_TRUE(two_to_n < high) << j;
  }
}

TEST(KernelPowersOfTen, WideProduct) {
  const Power128 p = multiply_64x64(~std::uint64_t{0}, ~std::uint64_t{0});
  EXPECT_EQ(p.high, ~std::uint64_t{0} - 1);
  EXPECT_EQ(p.low, 1u);
  const Power128 q = multiply_64x64(0x123456789ABCDEF0, 0x10);
  EXPECT_EQ(q.high, 0x1u);
  EXPECT_EQ(q.low, 0x23456789ABCDEF00u);
}

}  // namespace
}  // namespace bufstream::kernels
