// Numbers: a million random doubles through print and back, bit for bit; the JSON-style and
// Smalltalk layouts; parsing limits, overflow and underflow; and reading numbers from every
// kind of stream, across window edges.
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <bufstream/numbers.hpp>

#include "stream_fixtures.hpp"

namespace bufstream {
namespace {

std::vector<double> random_finite_doubles(std::size_t n) {
  test::SplitMix64 rng(0xD0B1E);
  std::vector<double> values;
  values.reserve(n);
  while (values.size() < n) {
    const double d = std::bit_cast<double>(rng.next());  // every exponent, subnormals too
    if (std::isfinite(d)) values.push_back(d);
  }
  return values;
}

TEST(DoubleRoundTrip, AMillionRandomDoublesBitForBit) {
  const std::vector<double> values = random_finite_doubles(1000000);
  StringWriteStream out;
  {
    BufferedWriteStream buffered(out, {.buffer_size = 7});  // every number across an edge
    for (double d : values) {
      buffered.print(d);
      buffered.space();
    }
  }
  const std::string text = out.take();

  // parse_double on each token.
  std::size_t start = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::size_t end = text.find(' ', start);
    const std::string_view token(text.data() + start, end - start);
    const auto parsed = parse_double(token);
    ASSERT_TRUE(parsed) << token;
    ASSERT_EQ(std::bit_cast<std::uint64_t>(*parsed), std::bit_cast<std::uint64_t>(values[i])) << token;
    start = end + 1;
  }

  // read_double straight from a stream with a tiny buffer.
  MemoryReadStream source(text);
  BufferedReadStream in(source, {.buffer_size = 3});
  for (double expected : values) {
    const double got = read_double(in);
    ASSERT_EQ(std::bit_cast<std::uint64_t>(got), std::bit_cast<std::uint64_t>(expected));
    ASSERT_TRUE(in.peek_for(' '));
  }
  EXPECT_TRUE(in.at_end());
}

std::string format(double d, DoubleFormat f = {}) {
  char buf[max_double_chars];
  return std::string(buf, format_double(buf, d, f));
}

std::string smalltalk(double d) {
  char buf[max_double_chars];
  return std::string(buf, format_double_smalltalk(buf, d));
}

TEST(FormatDouble, ShortestTextAndForcedFraction) {
  struct Case {
    double value;
    std::string plain;
    std::string with_fraction;
  };
  const std::vector<Case> cases{
      {0.0, "0", "0.0"},
      {-0.0, "-0", "-0.0"},
      {1.0, "1", "1.0"},
      {-7.0, "-7", "-7.0"},
      {123.0, "123", "123.0"},
      {0.1, "0.1", "0.1"},
      {1.5, "1.5", "1.5"},
      {1e100, "1e+100", "1e+100"},
      {1e21, "1e+21", "1e+21"},
      {123456789.0, "123456789", "123456789.0"},
      {5e-324, "5e-324", "5e-324"},
      {1.7976931348623157e308, "1.7976931348623157e+308", "1.7976931348623157e+308"},
      {-2.2250738585072014e-308, "-2.2250738585072014e-308", "-2.2250738585072014e-308"},
      {std::numeric_limits<double>::infinity(), "inf", "inf"},
      {-std::numeric_limits<double>::infinity(), "-inf", "-inf"},
      {std::numeric_limits<double>::quiet_NaN(), "nan", "nan"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(format(c.value), c.plain);
    EXPECT_EQ(format(c.value, {.force_fraction = true}), c.with_fraction);
    EXPECT_LE(c.with_fraction.size(), max_double_chars);
  }
}

TEST(FormatDouble, SmalltalkLayout) {
  const std::vector<std::pair<double, std::string>> cases{
      {0.0, "0.0"},
      {-0.0, "-0.0"},
      {1.0, "1.0"},
      {-1.0, "-1.0"},
      {0.1, "0.1"},
      {0.5, "0.5"},
      {1e-4, "0.0001"},
      {1.25e-4, "0.000125"},
      {9.99e-5, "9.99e-5"},
      {123456.0, "123456.0"},
      {123456.789, "123456.789"},
      {999999.0, "999999.0"},
      {1e6, "1.0e6"},
      {1234567.0, "1.234567e6"},
      {1e100, "1.0e100"},
      {-1e100, "-1.0e100"},
      {1.5e-7, "1.5e-7"},
      {5e-324, "5.0e-324"},
      {1.7976931348623157e308, "1.7976931348623157e308"},
      {-2.2250738585072014e-308, "-2.2250738585072014e-308"},
      {100.0, "100.0"},
      {3.14159, "3.14159"},
  };
  for (const auto& [value, text] : cases) EXPECT_EQ(smalltalk(value), text) << value;
}

TEST(FormatDouble, SmalltalkLayoutRoundTrips) {
  for (double d : random_finite_doubles(100000)) {
    const std::string text = smalltalk(d);
    ASSERT_LE(text.size(), max_double_chars);
    // Smalltalk's exponent has no 'e+' sign, which from_chars reads as well.
    const auto parsed = parse_double(text);
    ASSERT_TRUE(parsed) << text;
    ASSERT_EQ(std::bit_cast<std::uint64_t>(*parsed), std::bit_cast<std::uint64_t>(d)) << text;
  }
}

TEST(ParseDouble, ValuesLimitsAndRefusals) {
  struct Case {
    std::string text;
    std::optional<double> value;
  };
  const std::vector<Case> cases{
      {"0", 0.0},
      {"-0", -0.0},
      {"7", 7.0},
      {"-1.5e3", -1500.0},
      {"0.1", 0.1},
      {"1E5", 1e5},
      {"1e+5", 1e5},
      {"1e-5", 1e-5},
      {".5", 0.5},
      {"5.", 5.0},
      {"00012", 12.0},
      {"1.7976931348623157e308", 1.7976931348623157e308},
      {"4.9e-324", 5e-324},
      {"2.5e-324", 5e-324},
      // Overflow: no value.
      {"1e309", std::nullopt},
      {"-1e309", std::nullopt},
      {"1.7976931348623159e308", std::nullopt},
      {"1e99999999999", std::nullopt},
      // Underflow: zero, with the sign.
      {"1e-400", 0.0},
      {"-1e-400", -0.0},
      {"2.4e-324", 0.0},
      {"1e-99999999999", 0.0},
      {"0e999999", 0.0},
      // Not numbers.
      {"", std::nullopt},
      {"-", std::nullopt},
      {"+1", std::nullopt},
      {".", std::nullopt},
      {"-.", std::nullopt},
      {"1e", std::nullopt},
      {"1e+", std::nullopt},
      {"1.2.3", std::nullopt},
      {" 1", std::nullopt},
      {"1 ", std::nullopt},
      {"inf", std::nullopt},
      {"-inf", std::nullopt},
      {"nan", std::nullopt},
      {"infinity", std::nullopt},
      {"0x10", std::nullopt},
      {"1,5", std::nullopt},
  };
  for (const auto& c : cases) {
    const auto got = parse_double(c.text);
    ASSERT_EQ(got.has_value(), c.value.has_value()) << "'" << c.text << "'";
    if (got) {
      EXPECT_EQ(std::bit_cast<std::uint64_t>(*got), std::bit_cast<std::uint64_t>(*c.value))
          << "'" << c.text << "' gave " << *got;
    }
  }
}

template <class T>
void check_integer_limits() {
  using L = std::numeric_limits<T>;
  const std::string min = std::to_string(+L::min());
  const std::string max = std::to_string(+L::max());
  EXPECT_EQ(parse_integer<T>(min), L::min()) << min;
  EXPECT_EQ(parse_integer<T>(max), L::max()) << max;
  EXPECT_EQ(parse_integer<T>("0"), T{0});
  // One beyond each end.
  std::string above = max;
  for (std::size_t i = above.size(); i-- > 0;) {
    if (above[i] != '9') {
      ++above[i];
      break;
    }
    above[i] = '0';
    if (i == 0) above.insert(above.begin(), '1');
  }
  EXPECT_EQ(parse_integer<T>(above), std::nullopt) << above;
  if constexpr (L::is_signed) {
    std::string below = min;  // "-128" -> "-129"
    ++below.back();
    EXPECT_EQ(parse_integer<T>(below), std::nullopt) << below;
  } else {
    EXPECT_EQ(parse_integer<T>("-1"), std::nullopt);
    EXPECT_EQ(parse_integer<T>("-0"), std::nullopt);
  }
  for (const char* bad : {"", "-", "+1", " 1", "1 ", "1a", "0x1", "1.0", "--1"}) {
    EXPECT_EQ(parse_integer<T>(bad), std::nullopt) << "'" << bad << "'";
  }
}

TEST(ParseInteger, LimitsOfEveryType) {
  check_integer_limits<std::int8_t>();
  check_integer_limits<std::uint8_t>();
  check_integer_limits<std::int16_t>();
  check_integer_limits<std::uint16_t>();
  check_integer_limits<std::int32_t>();
  check_integer_limits<std::uint32_t>();
  check_integer_limits<std::int64_t>();
  check_integer_limits<std::uint64_t>();
  EXPECT_EQ(parse_integer<int>("007"), 7);
}

class NumberStreams : public ::testing::TestWithParam<test::ReadSetup> {
 protected:
  test::OwningReader open(std::string_view text) {
    texts_.push_back(std::make_unique<std::string>(text));
    return GetParam().make(*texts_.back());
  }

 private:
  std::vector<std::unique_ptr<std::string>> texts_;
};

INSTANTIATE_TEST_SUITE_P(AllStreams, NumberStreams, ::testing::ValuesIn(test::all_read_setups()),
                         test::setup_name);

TEST_P(NumberStreams, ReadIntegerAcrossWindows) {
  auto r = open("123 -45 18446744073709551615 -9223372036854775808 0 007,x");
  ReadStream& in = *r.stream;
  EXPECT_EQ(read_integer<int>(in), 123);
  EXPECT_TRUE(in.peek_for(' '));
  EXPECT_EQ(read_integer<short>(in), -45);
  EXPECT_TRUE(in.peek_for(' '));
  EXPECT_EQ(read_integer<std::uint64_t>(in), std::numeric_limits<std::uint64_t>::max());
  EXPECT_TRUE(in.peek_for(' '));
  EXPECT_EQ(read_integer<std::int64_t>(in), std::numeric_limits<std::int64_t>::min());
  EXPECT_TRUE(in.peek_for(' '));
  EXPECT_EQ(read_integer<unsigned>(in), 0u);
  EXPECT_TRUE(in.peek_for(' '));
  EXPECT_EQ(read_integer<int>(in), 7);
  EXPECT_EQ(in.next(), ',');  // the byte after the number is not consumed
  try {
    (void)read_integer<int>(in);
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_EQ(e.offset(), 56u);
    EXPECT_EQ(e.message(), "expected integer");
  }
}

TEST_P(NumberStreams, ReadIntegerOutOfRangeNamesTheText) {
  auto r = open("300;-1;");
  try {
    (void)read_integer<std::uint8_t>(*r.stream);
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_EQ(e.offset(), 0u);
    EXPECT_EQ(e.message(), "invalid integer '300'");
  }
  EXPECT_TRUE(r.stream->peek_for(';'));
  EXPECT_THROW((void)read_integer<unsigned>(*r.stream), ParseError);
}

TEST_P(NumberStreams, ReadDoubleAcrossWindows) {
  auto r = open("3.25e2 -0.5 1e400 7 .5 1-2 0.1e-2x 12345678901234567890.5;");
  ReadStream& in = *r.stream;
  const auto next_double = [&in] {
    const double d = read_double(in);
    (void)in.peek_for(' ');
    return d;
  };
  EXPECT_EQ(next_double(), 325.0);
  EXPECT_EQ(next_double(), -0.5);
  try {
    (void)read_double(in);
    FAIL() << "1e400 read as a double";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.offset(), 12u);
    EXPECT_EQ(e.message(), "invalid number '1e400'");
  }
  EXPECT_TRUE(in.peek_for(' '));
  EXPECT_EQ(next_double(), 7.0);
  EXPECT_EQ(next_double(), 0.5);
  EXPECT_EQ(read_double(in), 1.0);  // the number ends where its grammar ends
  EXPECT_EQ(next_double(), -2.0);
  EXPECT_EQ(read_double(in), 0.001);
  EXPECT_EQ(in.next(), 'x');
  EXPECT_TRUE(in.peek_for(' '));
  EXPECT_EQ(read_double(in), 12345678901234567890.5);
  EXPECT_EQ(in.next(), ';');
  EXPECT_THROW((void)read_double(in), ParseError);  // at the end: no number
}

TEST_P(NumberStreams, NextNumberTextTakesTheToken) {
  auto r = open("-12.5e+3,rest");
  std::string spill;
  EXPECT_EQ(next_number_text(*r.stream, spill), "-12.5e+3");
  EXPECT_EQ(r.stream->next(), ',');
}

}  // namespace
}  // namespace bufstream
