// The digit kernels against plain loops: every length 0..130 at every alignment 0..7, with a
// non-digit at every position (and none), and every byte value next to the digits.
#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <bufstream/detail/digits.hpp>

namespace bufstream::detail {
namespace {

constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The kernels' results, as a loop over the bytes gives them.
const char* plain_scan(const char* p, const char* end, std::uint64_t& value) {
  for (; p != end && is_digit(*p); ++p) value = value * 10 + static_cast<unsigned>(*p - '0');
  return p;
}

DigitsValue plain_parse(const char* p, const char* end) {
  if (p == end) return {0, false};
  std::uint64_t value = 0;
  for (; p != end; ++p) {
    if (!is_digit(*p)) return {0, false};
    const auto digit = static_cast<unsigned>(*p - '0');
    if (value > (~std::uint64_t{0} - digit) / 10) return {0, false};
    value = value * 10 + digit;
  }
  return {value, true};
}

// Non-digits next to the digits' range and at the ends of the byte range, and the bytes the
// formats put after numbers.
const std::vector<char> non_digits = {'/',    ':',    '.',    'e',    'E',    '-',
                                      '+',    ',',    ' ',    '\0',   '\x80', '\xba',
                                      '\xf9', '\xfa', '\xff', '\x7f', '\xb0', '\xc6'};

TEST(KernelDigits, LeadingDigitsAndValueOfEveryWord) {
  std::mt19937_64 rng(1);
  for (unsigned at = 0; at <= 8; ++at) {  // where the first non-digit is (8: none)
    for (int b = 0; b < 256; ++b) {
      const char stop = static_cast<char>(b);
      if (is_digit(stop) && at < 8) continue;
      for (int round = 0; round < 8; ++round) {
        char bytes[8];
        for (unsigned i = 0; i < 8; ++i) {
          // Digits before `at`, `stop` there, anything after it (or the top digits when round is
          // odd).
          bytes[i] = i < at    ? static_cast<char>('0' + rng() % 10)
                     : i == at ? stop
                               : static_cast<char>(round % 2 ? '9' : rng());
        }
        const std::uint64_t word = swar::load_memory_order(bytes);
        std::uint64_t expected = 0;
        const char* const end = plain_scan(bytes, bytes + 8, expected);
        const auto count = static_cast<unsigned>(end - bytes);
        ASSERT_EQ(leading_digits(word), count) << "at " << at << " byte " << b;
        ASSERT_EQ(digits_value(word, count), expected) << "at " << at << " byte " << b;
        for (unsigned n = 0; n <= count; ++n) {  // any shorter prefix of the digits too
          std::uint64_t prefix = 0;
          plain_scan(bytes, bytes + n, prefix);
          ASSERT_EQ(digits_value(word, n), prefix) << "n " << n;
        }
      }
    }
  }
}

TEST(KernelDigits, PartialLoadReadsOnlyItsBytesInMemoryOrder) {
  const char text[] = "\x01\x02\x03\x04\x05\x06\x07\x08";
  for (std::size_t n = 0; n <= 8; ++n) {
    std::uint64_t expected = 0;
    for (std::size_t i = 0; i < n; ++i)
      expected |= std::uint64_t{static_cast<unsigned char>(text[i])} << (8 * i);
    // A copy of exactly n bytes: a read past them would be seen by AddressSanitizer.
    const std::vector<char> exact(text, text + n);
    EXPECT_EQ(swar::load_memory_order_partial(exact.data(), n), expected) << n;
  }
}

// Digits of every length at every alignment, with each non-digit at each position, scanned
// from each starting value; each scan must stop where the loop stops with the loop's value.
TEST(KernelDigits, DigitScansAreThePlainLoop) {
  using Scan = const char* (*)(const char*, const char*, std::uint64_t&) noexcept;
  const std::array<std::pair<const char*, Scan>, 3> scans{{
      {"scan_digits", [](const char* p, const char* e,
                         std::uint64_t& v) noexcept { return scan_digits(p, e, v); }},
      {"scan_integer_part", [](const char* p, const char* e,
                               std::uint64_t& v) noexcept { return scan_integer_part(p, e, v); }},
      {"scan_short_digits", [](const char* p, const char* e,
                               std::uint64_t& v) noexcept { return scan_short_digits(p, e, v); }},
  }};
  std::mt19937_64 rng(2);
  std::vector<char> buffer(8 + 130 + 8);
  for (std::size_t length = 0; length <= 130; ++length) {
    for (std::size_t alignment = 0; alignment < 8; ++alignment) {
      char* const p = buffer.data() + alignment;
      for (std::size_t i = 0; i < length; ++i) p[i] = static_cast<char>('0' + rng() % 10);
      p[length] = '7';  // past the end: a digit the scan must not take
      for (std::size_t stop = 0; stop <= length; ++stop) {  // stop == length: digits to the end
        const char digit = p[stop];
        for (std::size_t k = 0; k < (stop < length ? non_digits.size() : 1); ++k) {
          if (stop < length) p[stop] = non_digits[k];
          const std::uint64_t start = k % 2 == 0 ? 0 : rng();
          std::uint64_t expected = start;
          const char* const expected_end = plain_scan(p, p + length, expected);
          for (const auto& [name, scan] : scans) {
            std::uint64_t got = start;
            const char* const end = scan(p, p + length, got);
            ASSERT_EQ(end - p, expected_end - p)
                << name << " length " << length << " stop " << stop << " k " << k;
            ASSERT_EQ(got, expected)
                << name << " length " << length << " stop " << stop << " k " << k;
          }
        }
        p[stop] = digit;
      }
    }
  }
}

// Sixteen bytes whose first non-digit is at every position (none: sixteen digits), each
// non-digit, random digits and random bytes after it, at every alignment: sixteen_digits gives
// the plain loop's count and its value scaled to sixteen digits.
TEST(KernelDigits, SixteenDigitsAreThePlainLoopScaled) {
  using Form = ScaledDigits (*)(const char*) noexcept;
  std::vector<std::pair<const char*, Form>> forms{
      {"generic", [](const char* p) noexcept { return sixteen_digits_generic(p); }},
      {"sixteen_digits", [](const char* p) noexcept { return sixteen_digits(p); }}};
#if defined(__SSE2__)
  forms.emplace_back("sse2", [](const char* p) noexcept { return sixteen_digits_sse2(p); });
#endif
  std::mt19937_64 rng(4);
  std::array<char, 16 + 16> buffer{};
  for (std::size_t alignment = 0; alignment < 16; ++alignment) {
    char* const p = buffer.data() + alignment;
    for (unsigned stop = 0; stop <= 16; ++stop) {
      for (std::size_t k = 0; k < (stop < 16 ? non_digits.size() : 1); ++k) {
        for (int round = 0; round < 16; ++round) {
          for (unsigned i = 0; i < 16; ++i) {
            // Digits (all nines in one round: the largest values), the non-digit, then digits
            // or any bytes.
            p[i] = i < stop    ? static_cast<char>(round == 0 ? '9' : '0' + rng() % 10)
                   : i == stop ? non_digits[k]
                               : static_cast<char>(round % 2 ? '0' + rng() % 10 : rng());
          }
          std::uint64_t value = 0;
          const auto count = static_cast<unsigned>(plain_scan(p, p + 16, value) - p);
          ASSERT_EQ(count, stop);
          for (unsigned i = count; i < 16; ++i) value *= 10;
          for (const auto& [name, form] : forms) {
            const ScaledDigits got = form(p);
            ASSERT_EQ(got.count, count) << name << " " << std::string(p, 16);
            ASSERT_EQ(got.value, value) << name << " " << std::string(p, 16);
          }
        }
      }
    }
  }
}

TEST(KernelDigits, ValueOfDigitsIsThePlainLoop) {
  std::mt19937_64 rng(3);
  std::vector<char> buffer(8 + 130 + 8);
  for (std::size_t length = 0; length <= 130; ++length) {
    for (std::size_t alignment = 0; alignment < 8; ++alignment) {
      char* const p = buffer.data() + alignment;
      for (std::size_t stop = 0; stop <= length; ++stop) {
        // Leading zeros so that every length has values that fit (and some that do not).
        const std::size_t zeros = length > 20 ? length - 1 - rng() % 21 : rng() % (length + 1);
        for (std::size_t i = 0; i < length; ++i) {
          p[i] = i < zeros ? '0' : static_cast<char>('0' + rng() % 10);
        }
        if (stop < length) p[stop] = non_digits[rng() % non_digits.size()];
        p[length] = '7';
        const DigitsValue expected = plain_parse(p, p + length);
        const DigitsValue got = value_of_digits(p, p + length);
        ASSERT_EQ(got.ok, expected.ok) << std::string(p, length);
        if (expected.ok) {
          ASSERT_EQ(got.value, expected.value) << std::string(p, length);
        }
      }
    }
  }
}

TEST(KernelDigits, ParseDigitsAtTheEdgeOf64Bits) {
  const auto parse = [](const std::string& text) {
    return value_of_digits(text.data(), text.data() + text.size());
  };
  EXPECT_EQ(parse("18446744073709551615").value, ~std::uint64_t{0});
  EXPECT_TRUE(parse("18446744073709551615").ok);
  EXPECT_FALSE(parse("18446744073709551616").ok);
  EXPECT_FALSE(parse("19999999999999999999").ok);  // wraps to below 10^19
  EXPECT_FALSE(parse("20000000000000000000").ok);
  EXPECT_FALSE(parse("99999999999999999999").ok);
  EXPECT_FALSE(parse("100000000000000000000").ok);
  EXPECT_EQ(parse("10000000000000000000").value, 10000000000000000000u);
  EXPECT_EQ(parse("0000000000000000000000000018446744073709551615").value, ~std::uint64_t{0});
  EXPECT_EQ(parse("00000000000000000000000000000000000000000000").value, 0u);
  EXPECT_TRUE(parse("00000000000000000000000000000000000000000000").ok);
  EXPECT_FALSE(parse("").ok);
  EXPECT_FALSE(parse("-1").ok);
}

}  // namespace
}  // namespace bufstream::detail
