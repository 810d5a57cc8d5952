// The table of numbers_powers_of_ten.hpp, computed by the compiler with exact big-integer
// arithmetic: positive powers by repeated multiplication by 10, negative ones as
// floor(2^N / 10^j) by repeated division by 10 (floor(floor(x / a) / b) == floor(x / (a b))
// for positive integers, so every step stays exact), then the top 128 bits of each.
#include "numbers_powers_of_ten.hpp"

#include <array>
#include <cstddef>

namespace bufstream::detail {

namespace {

// A non-negative integer of up to 32 * limb_count bits, least significant limb first; each
// limb holds 32 bits in a 64-bit word so that products and carries fit.
constexpr std::size_t limb_count = 48;  // 1536 bits: 2^1344 / 10^j needs 1344, 10^324 1077
struct BigInteger {
  std::array<std::uint64_t, limb_count> limbs{};
};

constexpr void multiply_by_10(BigInteger& x) {
  std::uint64_t carry = 0;
  for (std::uint64_t& limb : x.limbs) {
    const std::uint64_t product = limb * 10 + carry;
    limb = product & 0xFFFFFFFFu;
    carry = product >> 32;
  }
}

constexpr void divide_by_10(BigInteger& x) {
  std::uint64_t remainder = 0;
  for (std::size_t i = limb_count; i-- > 0;) {
    const std::uint64_t current = (remainder << 32) | x.limbs[i];
    x.limbs[i] = current / 10;
    remainder = current % 10;
  }
}

constexpr int bit_length(const BigInteger& x) {
  for (std::size_t i = limb_count; i-- > 0;) {
    if (x.limbs[i] != 0) {
      int bits = 0;
      for (std::uint64_t v = x.limbs[i]; v != 0; v >>= 1) ++bits;
      return static_cast<int>(i) * 32 + bits;
    }
  }
  return 0;
}

constexpr bool bit(const BigInteger& x, int index) {
  if (index < 0) return false;
  const auto i = static_cast<std::size_t>(index);
  return ((x.limbs[i / 32] >> (i % 32)) & 1) != 0;
}

// The 128 bits of x from its top bit down (zeros below its lowest bit if it is shorter).
constexpr Power128 top_128_bits(const BigInteger& x) {
  const int top = bit_length(x) - 1;
  Power128 result{0, 0};
  for (int i = 0; i < 64; ++i) result.high = (result.high << 1) | (bit(x, top - i) ? 1 : 0);
  for (int i = 64; i < 128; ++i) result.low = (result.low << 1) | (bit(x, top - i) ? 1 : 0);
  return result;
}

constexpr int table_size = max_power_of_ten - min_power_of_ten + 1;
constexpr int two_power_for_negatives = 1344;  // 2^1344 / 10^342 still has 208 bits

struct Table {
  std::array<Power128, table_size> entries{};
  bool exponents_agree = true;  // floor_log2_pow10 matches every exact bit length
};

constexpr Table make_table() {
  Table table;
  BigInteger power;
  power.limbs[0] = 1;
  for (int e = 0; e <= max_power_of_ten; ++e) {
    table.entries[static_cast<std::size_t>(e - min_power_of_ten)] = top_128_bits(power);
    if (floor_log2_pow10(e) != bit_length(power) - 1) table.exponents_agree = false;
    multiply_by_10(power);
  }
  BigInteger quotient;  // floor(2^N / 10^j)
  quotient.limbs[two_power_for_negatives / 32] = std::uint64_t{1} << (two_power_for_negatives % 32);
  for (int j = 1; j <= -min_power_of_ten; ++j) {
    divide_by_10(quotient);
    table.entries[static_cast<std::size_t>(-j - min_power_of_ten)] = top_128_bits(quotient);
    // 10^-j = (quotient + fraction) * 2^-N, so floor(log2(10^-j)) = bit length - 1 - N (the
    // fraction cannot carry into a new top bit: quotient + 1 <= 2^N / 10^j would need 10^j
    // to divide 2^N).
    if (floor_log2_pow10(-j) != bit_length(quotient) - 1 - two_power_for_negatives) {
      table.exponents_agree = false;
    }
  }
  return table;
}

constexpr Table table = make_table();
static_assert(table.exponents_agree, "floor_log2_pow10 disagrees with the exact powers of ten");
static_assert(table.entries[-min_power_of_ten].high == 0x8000000000000000u &&
              table.entries[-min_power_of_ten].low == 0, "10^0 is 2^127 * 2^-127");

// floor_log10_pow2(q) == k exactly when 10^k <= 2^q < 10^(k+1); with log2(10^k) never an
// integer for k != 0, that is floor_log2_pow10(k) < q (or k == 0 <= q) and
// floor_log2_pow10(k + 1) >= q.
constexpr bool floor_log10_pow2_is_exact() {
  for (int q = -1100; q <= 1100; ++q) {
    const int k = floor_log10_pow2(q);
    const bool low_ok = k == 0 ? q >= 0 : floor_log2_pow10(k) < q;
    const bool high_ok = k + 1 == 0 ? q < 0 : floor_log2_pow10(k + 1) >= q;
    if (!low_ok || !high_ok) return false;
  }
  return true;
}
static_assert(floor_log10_pow2_is_exact());

}  // namespace

const std::array<Power128, table_size> powers_of_ten = table.entries;

}  // namespace bufstream::detail
