// The integer-printing kernels: the digit groups against division, and the printers against
// std::to_chars (the public format_integer's tests, in
// tests/streams/numbers_format_integer_test.cpp, cover every integer type).
#include <gtest/gtest.h>

#include <charconv>
#include <cstdint>
#include <limits>
#include <random>
#include <string>

#include <bufstream/kernels/format_integer.hpp>

namespace bufstream::kernels {
namespace {

TEST(KernelFormatInteger, EightDigitValuesHoldEachDigitInItsByte) {
  std::mt19937_64 rng(8);
  const auto check = [](std::uint32_t n) {
    const std::uint64_t values = eight_digit_values(n);
    std::uint32_t rest = n;
    for (int digit = 7; digit >= 0; --digit) {
      ASSERT_EQ((values >> (8 * digit)) & 0xFF, rest % 10) << n;
      rest /= 10;
    }
  };
  for (std::uint32_t n = 0; n < 100000; ++n) check(n);
  for (std::uint32_t n = 99999999; n > 99900000; --n) check(n);
  for (int i = 0; i < 100000; ++i) check(static_cast<std::uint32_t>(rng() % 100000000));
}

TEST(KernelFormatInteger, StoreDigitsWritesTextInMemoryOrder) {
  char text[8];
  store_digits(text, eight_digit_values(1234567));
  EXPECT_EQ(std::string(text, 8), "01234567");
}

template <class T>
std::string to_chars_text(T v) {
  char buf[32];
  return std::string(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}

TEST(KernelFormatInteger, PrintersWriteTheTextOfToChars) {
  char buf[20];
  const auto check = [&buf](std::uint64_t u) {
    ASSERT_EQ(std::string(buf, format_unsigned(buf, u)), to_chars_text(u));
    const auto s = static_cast<std::int64_t>(u);
    ASSERT_EQ(std::string(buf, format_signed(buf, s)), to_chars_text(s));
  };
  std::uint64_t p = 1;
  for (int digits = 1; digits <= 20; ++digits, p *= 10) {
    for (const std::uint64_t v : {p - 1, p, p + 1, p * 9, 0 - p}) check(v);
  }
  check(std::numeric_limits<std::uint64_t>::max());
  check(static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::min()));
  std::mt19937_64 rng(20);
  for (int i = 0; i < 1000000; ++i) check(rng() >> (rng() % 64));
}

TEST(KernelFormatInteger, DecimalLength) {
  std::uint64_t p = 1;
  for (unsigned digits = 1; digits <= 19; ++digits, p *= 10) {
    EXPECT_EQ(decimal_length(p), digits);
    EXPECT_EQ(decimal_length(p * 10 - 1), digits);
  }
  EXPECT_EQ(decimal_length(p), 20u);  // 10^19
  EXPECT_EQ(decimal_length(std::numeric_limits<std::uint64_t>::max()), 20u);
  EXPECT_EQ(decimal_length(0), 1u);
}

}  // namespace
}  // namespace bufstream::kernels
