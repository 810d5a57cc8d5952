// format_integer: the text of std::to_chars, byte for byte, for every integer type,
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
  char* const end = format_integer(p, v);
  ASSERT_EQ(std::string(p, end), to_chars_text(v)) << "type size " << sizeof(T);
  for (const char* q = buf; q != p; ++q)
    ASSERT_EQ(*q, guard) << "wrote before the start for " << +v;
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

}  // namespace
}  // namespace bufstream
