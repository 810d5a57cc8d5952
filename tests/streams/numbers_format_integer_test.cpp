// detail::format_integer: the text of std::to_chars, byte for byte, for every integer type,
// at every digit count and its edges, and for millions of random values; and it stays within
// the 20 bytes (max_integer_chars) it is given.
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <iterator>
#include <limits>
#include <string>
#include <type_traits>

#include <gtest/gtest.h>

#include <bufstream/detail/format_integer.hpp>
#include <bufstream/numbers.hpp>

#include "stream_fixtures.hpp"

namespace bufstream {
namespace {

template <class T>
std::string to_chars_text(T v) {
  char buf[32];
  return std::string(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}

// Formats into the middle of a guarded buffer: the text must equal to_chars', and nothing
// outside the 20 bytes it may use is touched.
template <class T>
void expect_same_as_to_chars(T v) {
  constexpr char guard = '#';
  char buf[64];
  std::fill(std::begin(buf), std::end(buf), guard);
  char* const p = buf + 16;
  char* const end = detail::format_integer(p, v);
  ASSERT_EQ(std::string(p, end), to_chars_text(v)) << "type size " << sizeof(T);
  for (const char* q = buf; q != p; ++q) ASSERT_EQ(*q, guard) << "wrote before the start for " << +v;
  for (const char* q = p + max_integer_chars; q != std::end(buf); ++q) {
    ASSERT_EQ(*q, guard) << "wrote past max_integer_chars for " << +v;
  }
}

TEST(FormatInteger, EveryValueBelowAMillion) {
  for (std::uint32_t i = 0; i < 1000000; ++i) expect_same_as_to_chars(i);
  for (std::int32_t i = -1000000; i < 0; ++i) expect_same_as_to_chars(i);
}

TEST(FormatInteger, EachPowerOfTenAndItsNeighbours) {
  std::uint64_t p = 1;
  for (int digits = 1; digits <= 20; ++digits) {
    for (std::uint64_t v : {p - 1, p, p + 1, p * 2 - 1, p * 9}) {
      expect_same_as_to_chars(v);
      if (v <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
        expect_same_as_to_chars(static_cast<std::int64_t>(v));
        expect_same_as_to_chars(-static_cast<std::int64_t>(v));
      }
    }
    if (digits < 20) p *= 10;
  }
}

TEST(FormatInteger, LimitsOfEveryType) {
  const auto limits = [](auto zero) {
    using T = decltype(zero);
    expect_same_as_to_chars(std::numeric_limits<T>::min());
    expect_same_as_to_chars(std::numeric_limits<T>::max());
    expect_same_as_to_chars(static_cast<T>(std::numeric_limits<T>::min() + 1));
    expect_same_as_to_chars(static_cast<T>(std::numeric_limits<T>::max() - 1));
    expect_same_as_to_chars(T{0});
  };
  limits(static_cast<signed char>(0));
  limits(static_cast<unsigned char>(0));
  limits(static_cast<short>(0));
  limits(static_cast<unsigned short>(0));
  limits(0);
  limits(0u);
  limits(0L);
  limits(0UL);
  limits(0LL);
  limits(0ULL);
  limits(std::int64_t{0});
  limits(std::uint64_t{0});
}

TEST(FormatInteger, MillionsOfRandomValuesOfEveryLength) {
  test::SplitMix64 rng(0x1A7E6E5);
  for (int i = 0; i < 2000000; ++i) {
    const std::uint64_t bits = rng.next() >> rng.below(64);  // every digit count
    expect_same_as_to_chars(bits);
    expect_same_as_to_chars(static_cast<std::int64_t>(bits));
    expect_same_as_to_chars(static_cast<std::int32_t>(bits));
    expect_same_as_to_chars(static_cast<std::uint32_t>(bits));
  }
}

TEST(EightDigitValues, EachDigitInItsByte) {
  test::SplitMix64 rng(8);
  for (int i = 0; i < 100000; ++i) {
    const auto n = static_cast<std::uint32_t>(rng.below(100000000));
    const std::uint64_t values = detail::eight_digit_values(n);
    std::uint32_t rest = n;
    for (int digit = 7; digit >= 0; --digit) {
      ASSERT_EQ((values >> (8 * digit)) & 0xFF, rest % 10) << n;
      rest /= 10;
    }
  }
}

}  // namespace
}  // namespace bufstream

namespace bufstream {
namespace {

// The SSE2 version (where there is one) against the scalar one: every value below 10^6 in
// both groups, the edges, and a million random pairs. (An exhaustive run over every value
// below 10^8 was made once by hand.)
TEST(SixteenDigitValues, SameAsTwoEightDigitGroups) {
  const auto expect_same = [](std::uint32_t high, std::uint32_t low) {
    const detail::SixteenDigitValues both = detail::sixteen_digit_values(high, low);
    ASSERT_EQ(both.high, detail::eight_digit_values(high)) << high;
    ASSERT_EQ(both.low, detail::eight_digit_values(low)) << low;
  };
  for (std::uint32_t n = 0; n < 1000000; ++n) expect_same(n, 99999999 - n);
  for (std::uint32_t n : {0u, 1u, 9u, 10u, 9999u, 10000u, 10001u, 99999999u, 50000000u}) {
    expect_same(n, n);
  }
  test::SplitMix64 rng(16);
  for (int i = 0; i < 1000000; ++i) {
    expect_same(static_cast<std::uint32_t>(rng.below(100000000)),
                static_cast<std::uint32_t>(rng.below(100000000)));
  }
}

}  // namespace
}  // namespace bufstream
