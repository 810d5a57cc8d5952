// format_double against std::to_chars, byte for byte, where its plain layout puts the point
// inside the digits (1 to 16 digits before it, 1 to 17 digits in all), for round values
// (shortest decimals ending in zeros, whose length is counted from their digits) and the
// others (whose length comes from their magnitude), and with force_fraction.
#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include <bufstream/numbers.hpp>

#include "stream_fixtures.hpp"

namespace bufstream {
namespace {

std::string to_chars_text(double d) {
  char buf[64];
  return std::string(buf, std::to_chars(buf, buf + sizeof buf, d).ptr);
}

void expect_same_as_to_chars(double d) {
  const std::string expected = to_chars_text(d);
  char buf[max_double_chars];
  ASSERT_EQ(std::string(buf, format_double(buf, d)), expected) << expected;
  const bool has_fraction = expected.find_first_of(".e") != std::string::npos;
  ASSERT_EQ(std::string(buf, format_double(buf, d, {.force_fraction = true})),
            has_fraction ? expected : expected + ".0");
}

// m / 10^k for every count of digits before the point and after it.
TEST(FormatDoublePlain, EveryPlaceOfThePoint) {
  test::SplitMix64 rng(0xF0F0);
  for (int total = 1; total <= 17; ++total) {
    const auto limit = static_cast<std::uint64_t>(std::pow(10.0, total));
    for (int after = 0; after <= total; ++after) {
      const double scale = std::pow(10.0, after);
      for (int i = 0; i < 2000; ++i) {
        const std::uint64_t m = rng.next() % limit;
        const double d = static_cast<double>(m) / scale;
        expect_same_as_to_chars(d);
        expect_same_as_to_chars(-d);
        expect_same_as_to_chars(std::nextafter(d, 1e300));
        expect_same_as_to_chars(std::nextafter(d, 0.0));
      }
    }
  }
}

// Doubles between 1 and 10^16 from random bits: mostly 16 and 17 digits.
TEST(FormatDoublePlain, RandomDoublesFromOneToTenToTheSixteen) {
  test::SplitMix64 rng(0xABCD);
  for (int i = 0; i < 1000000; ++i) {
    const double unit = static_cast<double>(rng.next() >> 11) / 9007199254740992.0;  // [0, 1)
    const double d = std::pow(10.0, 16.0 * unit);
    expect_same_as_to_chars(d);
  }
}

// Round values: a shortest decimal with trailing zeros at every length.
TEST(FormatDoublePlain, RoundValues) {
  for (int digits = 1; digits <= 16; ++digits) {
    for (int after = 0; after <= 8; ++after) {
      for (std::uint64_t lead = 1; lead <= 99; ++lead) {
        const double d =
            static_cast<double>(lead) * std::pow(10.0, digits - 2) / std::pow(10.0, after);
        expect_same_as_to_chars(d);
      }
    }
  }
  for (double d : {0.5, 0.25, 0.125, 1.5, 2.5, 100.25, 1e15, 1e16, 123456789012345.6,
                   1234567890123456.7, 9007199254740991.0, 4503599627370495.5, 0.3, 2.0 / 3}) {
    expect_same_as_to_chars(d);
  }
}

}  // namespace
}  // namespace bufstream
