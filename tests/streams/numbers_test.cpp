// Numbers: a million random doubles through print and back, bit for bit; printing compared
// with std::to_chars and parsing with std::from_chars, byte for byte and bit for bit, on
// random and hard cases; the JSON-style and Smalltalk layouts; parsing limits, overflow and
// underflow; and reading numbers from every kind of stream, across window edges.
#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <optional>
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
  for (const double value : values) {
    const std::size_t end = text.find(' ', start);
    const std::string_view token(text.data() + start, end - start);
    const auto parsed = parse_double(token);
    ASSERT_TRUE(parsed) << token;
    ASSERT_EQ(std::bit_cast<std::uint64_t>(*parsed), std::bit_cast<std::uint64_t>(value)) << token;
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

// ---- Shortest printing against std::to_chars, bit for bit ---------------------------------

std::string to_chars_text(double d) {
  char buf[64];
  return std::string(buf, std::to_chars(buf, buf + sizeof buf, d).ptr);
}

// format_double's text is to_chars' text; with force_fraction, ".0" is added exactly when that
// text has neither '.' nor 'e'. Also checks that the text reads back as the same double.
void expect_same_as_to_chars(double d) {
  const std::string expected = to_chars_text(d);
  ASSERT_EQ(format(d), expected) << std::hexfloat << d;
  const bool bare = expected.find_first_of(".e") == std::string::npos && std::isfinite(d);
  ASSERT_EQ(format(d, {.force_fraction = true}), bare ? expected + ".0" : expected);
  if (std::isfinite(d)) {
    const auto parsed = parse_double(expected);
    ASSERT_TRUE(parsed) << expected;
    ASSERT_EQ(std::bit_cast<std::uint64_t>(*parsed), std::bit_cast<std::uint64_t>(d)) << expected;
  }
}

double from_text(std::string_view text) {
  double d = 0;
  std::from_chars(text.data(), text.data() + text.size(), d);
  return d;
}

TEST(FormatDouble, SameTextAsToCharsForAMillionRandomBitPatterns) {
  for (double d : random_finite_doubles(1000000)) {
    expect_same_as_to_chars(d);
    expect_same_as_to_chars(-d);
  }
}

TEST(FormatDouble, SameTextAsToCharsAtTheEdges) {
  using L = std::numeric_limits<double>;
  for (double d : {L::min(), L::max(), L::denorm_min(), L::lowest(), L::epsilon(), L::infinity(),
                   -L::infinity(), 0.0, -0.0, 1.0, 0.1, 0.3, 2.0 / 3.0}) {
    expect_same_as_to_chars(d);
  }
  // Every power of two (the only doubles whose lower gap is half the upper one) and its
  // neighbours: every binary exponent, normal and subnormal.
  for (int e = -1074; e <= 1023; ++e) {
    const double p = std::ldexp(1.0, e);
    expect_same_as_to_chars(p);
    expect_same_as_to_chars(std::nextafter(p, 0.0));
    expect_same_as_to_chars(std::nextafter(p, L::infinity()));
  }
  // The smallest and largest subnormals, by bit pattern.
  for (std::uint64_t bits = 1; bits < 100000; ++bits) {
    expect_same_as_to_chars(std::bit_cast<double>(bits));
    expect_same_as_to_chars(std::bit_cast<double>((std::uint64_t{1} << 52) - bits));
  }
  // Powers of ten (the doubles nearest to them) and their neighbours.
  for (int e = -325; e <= 308; ++e) {
    const double p = from_text("1e" + std::to_string(e));
    expect_same_as_to_chars(p);
    expect_same_as_to_chars(std::nextafter(p, 0.0));
    expect_same_as_to_chars(std::nextafter(p, L::infinity()));
  }
  // Integers: all up to 2^20, random ones up to 2^53 and beyond (where the plain layout
  // prints the exact integer, not the shortest digits padded with zeros).
  for (std::uint64_t i = 0; i <= (1u << 20); ++i) expect_same_as_to_chars(static_cast<double>(i));
  test::SplitMix64 rng(0x1E7);
  for (int i = 0; i < 200000; ++i) {
    expect_same_as_to_chars(static_cast<double>(rng.next() >> 11));
    expect_same_as_to_chars(static_cast<double>(rng.next() >> rng.below(64)));
  }
  for (std::int64_t k = -1000; k <= 1000; ++k) {
    expect_same_as_to_chars(std::ldexp(1.0, 53) + static_cast<double>(k * 2));
  }
  // Values with exactly 17 significant digits, at every decimal exponent.
  for (int i = 0; i < 100000; ++i) {
    std::string text = std::to_string(10000000000000000ULL + rng.below(90000000000000000ULL));
    text.insert(1, ".");
    text += "e" + std::to_string(static_cast<int>(rng.below(616)) - 307);
    expect_same_as_to_chars(from_text(text));
  }
  // Short binary fractions m / 2^k, whose scaled value can be an exact integer or exactly
  // halfway between two candidates.
  for (int m = 1; m < 4096; m += 3) {
    for (int k = 0; k < 90; ++k) expect_same_as_to_chars(std::ldexp(static_cast<double>(m), -k));
  }
}

// format_double_smalltalk as it was defined before its own digit generation: from the
// scientific text of to_chars.
std::string smalltalk_reference(double value) {
  std::string result = std::signbit(value) ? "-" : "";
  const double magnitude = std::fabs(value);
  if (magnitude == 0) return result + "0.0";
  char sci[64];
  const char* sci_end =
      std::to_chars(sci, sci + sizeof sci, magnitude, std::chars_format::scientific).ptr;
  const std::string_view text(sci, static_cast<std::size_t>(sci_end - sci));
  const std::size_t e_at = text.find('e');
  std::string digits;
  for (char c : text.substr(0, e_at)) {
    if (c != '.') digits += c;
  }
  const int exponent = std::stoi(std::string(text.substr(e_at + 1)));
  const int count = static_cast<int>(digits.size());
  if (magnitude >= 1e-4 && magnitude < 1e6) {
    if (exponent < 0)
      return result + "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
    const int whole = exponent + 1;
    std::string out = digits.substr(0, static_cast<std::size_t>(std::min(whole, count)));
    if (whole > count) out += std::string(static_cast<std::size_t>(whole - count), '0');
    out += '.';
    out += count > whole ? digits.substr(static_cast<std::size_t>(whole)) : "0";
    return result + out;
  }
  return result + digits.substr(0, 1) + "." + (count > 1 ? digits.substr(1) : "0") + "e" +
         std::to_string(exponent);
}

TEST(FormatDouble, SmalltalkLayoutMatchesItsDefinition) {
  test::SplitMix64 rng(0x57A1);
  for (double d : random_finite_doubles(300000)) {
    ASSERT_EQ(smalltalk(d), smalltalk_reference(d)) << d;
    // The plain range, where the STON writer prints most numbers.
    const double plain =
        std::ldexp(static_cast<double>(rng.next() >> 11), -static_cast<int>(rng.below(70)));
    ASSERT_EQ(smalltalk(plain), smalltalk_reference(plain)) << plain;
    const double whole = static_cast<double>(rng.below(2000000));
    ASSERT_EQ(smalltalk(whole), smalltalk_reference(whole)) << whole;
  }
  for (int e = -1074; e <= 1023; ++e) {
    const double p = std::ldexp(1.0, e);
    ASSERT_EQ(smalltalk(p), smalltalk_reference(p)) << p;
  }
  for (double d : {1e-4, std::nextafter(1e-4, 0.0), 1e6, std::nextafter(1e6, 0.0), 999999.5}) {
    ASSERT_EQ(smalltalk(d), smalltalk_reference(d)) << d;
  }
}

// ---- Parsing against std::from_chars, bit for bit -----------------------------------------

// parse_double(text) is from_chars' double, or, where from_chars reports out of range, the
// documented result: no value for overflow, a signed zero for underflow.
void expect_same_as_from_chars(const std::string& text) {
  double expected = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), expected);
  ASSERT_EQ(ptr, text.data() + text.size()) << text;
  const auto got = parse_double(text);
  if (ec == std::errc::result_out_of_range) {
    if (got) {
      ASSERT_EQ(*got, 0.0) << text;
      ASSERT_EQ(std::signbit(*got), text[0] == '-') << text;
    }
    return;
  }
  ASSERT_TRUE(got) << text;
  ASSERT_EQ(std::bit_cast<std::uint64_t>(*got), std::bit_cast<std::uint64_t>(expected)) << text;
}

// A random decimal: 1 to `max_digits` digits, maybe a point, maybe an exponent.
std::string random_decimal(test::SplitMix64& rng, std::size_t max_digits) {
  std::string text = rng.below(2) == 0 ? "-" : "";
  const std::size_t digits = 1 + rng.below(max_digits);
  std::string body;
  for (std::size_t i = 0; i < digits; ++i) body += static_cast<char>('0' + rng.below(10));
  if (rng.below(2) == 0) body.insert(1 + rng.below(digits), ".");
  if (body.back() == '.') body += '0';
  text += body;
  if (rng.below(3) != 0) {
    text += rng.below(2) == 0 ? 'e' : 'E';
    const int exponent = static_cast<int>(rng.below(760)) - 380;
    if (exponent >= 0 && rng.below(2) == 0) text += '+';
    text += std::to_string(exponent);
  }
  return text;
}

TEST(ParseDouble, SameAsFromCharsForAMillionRandomDecimals) {
  test::SplitMix64 rng(0xDEC1);
  for (int i = 0; i < 1000000; ++i) expect_same_as_from_chars(random_decimal(rng, 19));
  for (int i = 0; i < 100000; ++i) expect_same_as_from_chars(random_decimal(rng, 40));
}

TEST(ParseDouble, SameAsFromCharsForTheShortestTextOfRandomDoubles) {
  for (double d : random_finite_doubles(1000000)) expect_same_as_from_chars(to_chars_text(d));
}

TEST(ParseDouble, SameAsFromCharsInHardCases) {
  test::SplitMix64 rng(0x4A2D);
  // Exactly halfway between two doubles (2^53 and up, where they are 2^(s+1) apart): an
  // integer of at most 19 digits; ties go to the even one. And one unit either side.
  for (int i = 0; i < 200000; ++i) {
    const std::uint64_t c = (std::uint64_t{1} << 52) | (rng.next() >> 12);
    const auto s = static_cast<int>(rng.below(10));
    const std::uint64_t midpoint = ((2 * c + 1) << s);
    expect_same_as_from_chars(std::to_string(midpoint));
    expect_same_as_from_chars(std::to_string(midpoint - 1));
    expect_same_as_from_chars(std::to_string(midpoint + 1));
    expect_same_as_from_chars(std::to_string(midpoint) + ".000");
    expect_same_as_from_chars("-" + std::to_string(midpoint) + "e0");
    expect_same_as_from_chars(std::to_string(midpoint) + "0e-1");
  }
  // Halfway cases with many digits: the exact midpoint of two small doubles, then the same
  // text cut short (just below) and with a 1 appended (just above).
  for (const char* text : {"9007199254740993",
                           "9007199254740993.0000000000000000000000001",
                           "9007199254740992.9999999999999999999999999",
                           "2.2250738585072011e-308",
                           "2.2250738585072012e-308",
                           "2.4703282292062327e-324",
                           "2.4703282292062328e-324",
                           "4.9406564584124654e-324",
                           "1.7976931348623157e308",
                           "1.7976931348623158e308",
                           "1.7976931348623158079e308",
                           "0.1000000000000000055511151231257827021181583404541015625",
                           "0.1000000000000000055511151231257827021181583404541015624",
                           "0.1000000000000000055511151231257827021181583404541015626",
                           "1e23",
                           "8.98846567431158e307",
                           "123456789012345678901234567890",
                           "1234567890123456789",
                           "12345678901234567890",
                           "9999999999999999999",
                           "18446744073709551615",
                           "18446744073709551616",
                           "0.000000000000000000000000000000000000000000001e-300",
                           "1e-342",
                           "1e-343",
                           "1e-400",
                           "9e-324",
                           "1e308",
                           "1e309",
                           "-1e309",
                           "1e-307",
                           "1e-308",
                           "1e-309",
                           "1e-320",
                           "1e-323",
                           "3e-324",
                           "2e-324",
                           "7.2057594037927933e16",
                           "4503599627370496.5",
                           "4503599627370497.5",
                           "1.00000000000000011102230246251565404236316680908203125"}) {
    expect_same_as_from_chars(text);
  }
  // Many digits (beyond 19), every exponent.
  for (int i = 0; i < 20000; ++i) expect_same_as_from_chars(random_decimal(rng, 800));
  // Exponents at and past every limit.
  for (int e = -400; e <= 400; ++e) {
    for (const char* mantissa :
         {"1", "9", "4.9", "2.4", "17976931348623157", "123456789012345678"}) {
      expect_same_as_from_chars(std::string(mantissa) + "e" + std::to_string(e));
    }
  }
}

// ---- Parsing any text: the same answer as from_chars ---------------------------------------

// What parse_double must give for `text`, from std::from_chars and std::strtod: no value unless
// from_chars reads all of it and it starts (after an optional '-') with a digit or a point
// (parse_double reads no inf or nan); where from_chars finds the value out of range, no value
// for overflow and strtod's result (a signed zero or the nearest subnormal) for underflow.
std::optional<double> reference_parse(const std::string& text) {
  const std::size_t at = !text.empty() && text[0] == '-' ? 1 : 0;
  if (at >= text.size() || !((text[at] >= '0' && text[at] <= '9') || text[at] == '.'))
    return std::nullopt;
  double value = 0;
  const char* const end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ptr != end) return std::nullopt;
  if (ec == std::errc::result_out_of_range) {
    const double nearest = std::strtod(text.c_str(), nullptr);
    if (std::isinf(nearest)) return std::nullopt;
    return nearest;
  }
  if (ec != std::errc()) return std::nullopt;
  return value;
}

void expect_same_as_reference(const std::string& text) {
  const std::optional<double> expected = reference_parse(text);
  const std::optional<double> got = parse_double(text);
  ASSERT_EQ(got.has_value(), expected.has_value()) << "'" << text << "'";
  if (got) {
    ASSERT_EQ(std::bit_cast<std::uint64_t>(*got), std::bit_cast<std::uint64_t>(*expected)) << text;
  }
}

std::string random_digits(test::SplitMix64& rng, std::size_t n) {
  std::string digits;
  for (std::size_t i = 0; i < n; ++i) digits += static_cast<char>('0' + rng.below(10));
  return digits;
}

// A decimal of the shapes parse_double's fast path reads and the ones next to them: 1 to 25
// significant digits, maybe after leading zeros (in the integer part or after "0."), the point
// anywhere or absent, an exponent anywhere from well below the subnormals to beyond overflow,
// with either letter, a sign or none, and leading zeros of its own.
std::string shaped_decimal(test::SplitMix64& rng) {
  std::string text = rng.below(2) == 0 ? "-" : "";
  std::string digits = random_digits(rng, 1 + rng.below(25));
  if (digits[0] == '0' && rng.below(2) == 0) digits[0] = '1';
  switch (rng.below(6)) {
    case 0:  // integer
      text += digits;
      break;
    case 1:  // leading zeros, then an integer or a fraction
      text += std::string(1 + rng.below(30), '0') + digits;
      if (rng.below(2) == 0) text.insert(text.size() - rng.below(digits.size() + 1), ".");
      if (text.back() == '.') text += '5';
      break;
    case 2:  // 0.000ddd: a long fraction part
      text += "0." + std::string(rng.below(40), '0') + digits;
      break;
    default:  // the point somewhere inside
      digits.insert(1 + rng.below(digits.size()), ".");
      if (digits.back() == '.') digits += random_digits(rng, 1 + rng.below(20));
      text += digits;
      break;
  }
  if (rng.below(3) != 0) {
    text += rng.below(2) == 0 ? 'e' : 'E';
    int exponent = 0;
    switch (rng.below(4)) {
      case 0: exponent = static_cast<int>(rng.below(60)) - 30; break;
      case 1: exponent = static_cast<int>(rng.below(120)) - 360; break;  // subnormal, underflow
      case 2: exponent = static_cast<int>(rng.below(40)) + 280; break;   // near overflow
      default: exponent = static_cast<int>(rng.below(800)) - 400; break;
    }
    if (exponent < 0) {
      text += '-';
    } else if (rng.below(2) == 0) {
      text += '+';
    }
    if (rng.below(8) == 0) text += std::string(1 + rng.below(3), '0');
    text += std::to_string(std::abs(exponent));
  }
  return text;
}

TEST(ParseDouble, SameAsFromCharsForAMillionShapedDecimals) {
  test::SplitMix64 rng(0x5AA9ED);
  for (int i = 0; i < 1000000; ++i) expect_same_as_reference(shaped_decimal(rng));
}

// Digits and their neighbours, signs, points and letters in any order: whatever from_chars
// does not read whole, parse_double refuses. Non-digit bytes among eight digits test the check
// of eight bytes at once, with every byte next to '0'..'9' and the ones whose +6 carries.
TEST(ParseDouble, RefusesWhatIsNotADecimalLikeFromChars) {
  test::SplitMix64 rng(0xBAD);
  static constexpr char alphabet[] =
      "0123456789012345678901234567890123456789.-+eE/:\xFA\xFF \x10"
      "x";
  for (int i = 0; i < 300000; ++i) {
    std::string text;
    const std::size_t n = 1 + rng.below(24);
    for (std::size_t k = 0; k < n; ++k) text += alphabet[rng.below(sizeof alphabet - 1)];
    expect_same_as_reference(text);
  }
  for (int i = 0; i < 100000; ++i) {
    std::string text = shaped_decimal(rng);
    text[rng.below(text.size())] = "/:.-eE\xFA\xFF x+"[rng.below(11)];
    expect_same_as_reference(text);
  }
}

// The exact decimal of the midpoint between a double and the next one up, as digits D and an
// exponent X (the value is D * 10^X), by schoolbook arithmetic on decimal digits.
struct ExactDecimal {
  std::string digits;
  int exponent;
};
ExactDecimal midpoint_above(double d) {  // d finite and positive
  const auto bits = std::bit_cast<std::uint64_t>(d);
  const auto biased_exponent = static_cast<int>(bits >> 52);
  std::uint64_t significand = bits & ((std::uint64_t{1} << 52) - 1);  // d = significand * 2^e
  int e = -1074;
  if (biased_exponent != 0) {
    significand |= std::uint64_t{1} << 52;
    e = biased_exponent - 1075;
  }
  std::string digits = std::to_string(2 * significand + 1);  // midpoint = (2m + 1) * 2^(e - 1)
  const auto times = [&digits](unsigned factor) {
    unsigned carry = 0;
    for (std::size_t i = digits.size(); i-- > 0;) {
      const unsigned v = static_cast<unsigned>(digits[i] - '0') * factor + carry;
      digits[i] = static_cast<char>('0' + v % 10);
      carry = v / 10;
    }
    while (carry != 0) {
      digits.insert(digits.begin(), static_cast<char>('0' + carry % 10));
      carry /= 10;
    }
  };
  int power = e - 1;
  int decimal_exponent = 0;
  for (; power > 0; --power) times(2);
  for (; power < 0; ++power) {  // x * 2^-1 = x * 5 * 10^-1
    times(5);
    --decimal_exponent;
  }
  return {digits, decimal_exponent};
}

TEST(ParseDouble, SameAsFromCharsNearMidpoints) {
  // The exact midpoint (ties to even), and the 17, 18 and 19 significant digits just below and
  // just above it, which the fast path must either round right or hand on.
  test::SplitMix64 rng(0x3D1D);
  const auto check = [](double d) {
    const ExactDecimal m = midpoint_above(d);
    const auto text = [](const std::string& digits, int exponent) {
      return digits + "e" + std::to_string(exponent);
    };
    expect_same_as_reference(text(m.digits, m.exponent));
    for (std::size_t n : {std::size_t{17}, std::size_t{18}, std::size_t{19}}) {
      if (m.digits.size() <= n) continue;
      std::string below = m.digits.substr(0, n);
      const int exponent = m.exponent + static_cast<int>(m.digits.size() - n);
      expect_same_as_reference(text(below, exponent));
      std::string above = below;
      for (std::size_t i = above.size(); i-- > 0;) {  // below + 1 unit in the last place
        if (above[i] != '9') {
          ++above[i];
          break;
        }
        above[i] = '0';
        if (i == 0) above.insert(above.begin(), '1');
      }
      expect_same_as_reference(text(above, exponent));
    }
  };
  for (int i = 0; i < 10000; ++i) {  // moderate exponents: most of the numbers people write
    check(std::ldexp(static_cast<double>((rng.next() >> 11) | (std::uint64_t{1} << 52)),
                     static_cast<int>(rng.below(240)) - 172));
  }
  for (int i = 0; i < 300; ++i) {  // any finite double, subnormals included
    const double d = std::bit_cast<double>(rng.next() >> 1);
    if (std::isfinite(d) && d > 0) check(d);
  }
  for (std::uint64_t bits : {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{0xFFFFFFFFFFFFF},
                             std::uint64_t{0x10000000000000}}) {
    check(std::bit_cast<double>(bits));
  }
}

// ---- Integers: the same answer as from_chars for every integer type ----------------------

template <class T>
void expect_integer_same_as_from_chars(const std::string& text) {
  T expected{};
  const char* const end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, expected);
  const bool readable = ec == std::errc() && ptr == end && !text.empty();
  const std::optional<T> got = parse_integer<T>(text);
  ASSERT_EQ(got.has_value(), readable) << "'" << text << "'";
  if (got) {
    ASSERT_EQ(+*got, +expected) << "'" << text << "'";
  }
}

__extension__ using Int128 = __int128;

std::string int128_text(Int128 v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  std::string digits;
  while (v != 0) {
    const auto digit = static_cast<int>(v % 10);
    digits.insert(digits.begin(), static_cast<char>('0' + (negative ? -digit : digit)));
    v /= 10;
  }
  return negative ? "-" + digits : digits;
}

template <class T>
void compare_integers_with_from_chars(std::uint64_t seed) {
  test::SplitMix64 rng(seed);
  // Around both limits (and zero), one by one.
  if constexpr (sizeof(T) < sizeof(Int128)) {
    for (Int128 center : {Int128{std::numeric_limits<T>::min()},
                          Int128{std::numeric_limits<T>::max()}, Int128{0}}) {
      for (Int128 k = -1000; k <= 1000; ++k)
        expect_integer_same_as_from_chars<T>(int128_text(center + k));
    }
  }
  // Random: a sign or not, leading zeros or not, 1 to 25 digits, sometimes a byte that is not
  // a digit anywhere.
  for (int i = 0; i < 100000; ++i) {
    std::string text = rng.below(3) == 0 ? "-" : "";
    if (rng.below(8) == 0) text += std::string(1 + rng.below(25), '0');
    text += random_digits(rng, 1 + rng.below(25));
    if (rng.below(16) == 0) text[rng.below(text.size())] = "+- .x/:\xFA"[rng.below(8)];
    if (rng.below(64) == 0) text.clear();
    expect_integer_same_as_from_chars<T>(text);
  }
}

TEST(ParseInteger, SameAsFromCharsForEveryType) {
  compare_integers_with_from_chars<char>(1);
  compare_integers_with_from_chars<signed char>(2);
  compare_integers_with_from_chars<unsigned char>(3);
  compare_integers_with_from_chars<short>(4);
  compare_integers_with_from_chars<unsigned short>(5);
  compare_integers_with_from_chars<int>(6);
  compare_integers_with_from_chars<unsigned>(7);
  compare_integers_with_from_chars<long>(8);
  compare_integers_with_from_chars<unsigned long>(9);
  compare_integers_with_from_chars<long long>(10);
  compare_integers_with_from_chars<unsigned long long>(11);
  compare_integers_with_from_chars<Int128>(12);  // the from_chars path
}

// decimal_to_double's value for w and q, checked against strtod (correctly rounded, subnormals
// and zero included); false when declined.
bool decimal_to_double_as_from_chars(std::uint64_t w, int q) {
  const std::string text = std::to_string(w) + "e" + std::to_string(q);
  const auto got = decimal_to_double(w, q);
  if (!got) return false;
  const double expected = std::strtod(text.c_str(), nullptr);
  EXPECT_TRUE(std::isfinite(expected)) << text;
  EXPECT_EQ(std::bit_cast<std::uint64_t>(*got), std::bit_cast<std::uint64_t>(expected)) << text;
  return true;
}

TEST(DecimalToDouble, ExactOrNothing) {
  // Whatever it answers is the correctly rounded value; it declines only rare cases.
  test::SplitMix64 rng(0x5EED);
  int declined = 0;
  for (int i = 0; i < 200000; ++i) {
    const std::uint64_t w = rng.next() % 10000000000000000000ULL;
    const int q = static_cast<int>(rng.below(680)) - 350;
    if (!decimal_to_double_as_from_chars(w, q)) ++declined;
  }
  // Infinite results are declined: about 6% of these exponents; the hard-rounding cases are
  // far rarer.
  EXPECT_LT(declined, 200000 / 12);
  EXPECT_EQ(decimal_to_double(0, 5), 0.0);
  EXPECT_EQ(decimal_to_double(15, -1), 1.5);
  EXPECT_EQ(decimal_to_double(1, 308), 1e308);
  EXPECT_EQ(decimal_to_double(1, 309), std::nullopt);
  EXPECT_EQ(decimal_to_double(1, -324), 0.0);  // below half the smallest subnormal
  EXPECT_EQ(decimal_to_double(5, -324), 4.9406564584124654e-324);
  EXPECT_EQ(decimal_to_double(22250738585072011, -324), 2.2250738585072011e-308);
  EXPECT_EQ(decimal_to_double(17976931348623157, 292), 1.7976931348623157e308);
  // Rounding that carries into the exponent: up to 2^54, and from the largest double's binade
  // past it (infinite, so declined).
  EXPECT_EQ(decimal_to_double(180143985094819831, -1), 18014398509481984.0);
  EXPECT_EQ(decimal_to_double(17976931348623159, 292), std::nullopt);
}

TEST(DecimalToDouble, EveryWayThroughIsExact) {
  // Clinger's shortcut (significands below 2^50), Eisel-Lemire's first step in line, and
  // fast_float for its unclear cases and the exponents near the ends of the range: significands of
  // every length, and the values where one way hands over to the next.
  test::SplitMix64 rng(0xD1617);
  std::uint64_t limit = 1;
  for (int digits = 1; digits <= 19; ++digits) {
    limit *= 10;
    for (int i = 0; i < 4000; ++i) {
      const std::uint64_t w = limit / 10 + rng.next() % (limit - limit / 10);
      const int near = static_cast<int>(rng.below(51)) - 25;
      const int far = static_cast<int>(rng.below(620)) - 310;
      // Up to 2^53, and 10^|q| an exact double: Clinger's shortcut, in line or in the rare path,
      // decides every value.
      const bool exact_operands = w <= (std::uint64_t{1} << 53) && near >= -22 && near <= 22;
      EXPECT_TRUE(decimal_to_double_as_from_chars(w, near) || !exact_operands) << w << "e" << near;
      decimal_to_double_as_from_chars(w, far);
    }
  }
  // Short decimals of exact binary value ("2.5", "0.125"): Eisel-Lemire's product falls just
  // short of them, its low bits all ones, where fast_float takes over.
  for (std::uint64_t w = 1; w <= 2000; ++w) {
    for (int q = -22; q <= 22; ++q) EXPECT_TRUE(decimal_to_double_as_from_chars(w, q));
  }
  for (const std::uint64_t w : {(std::uint64_t{1} << 50) - 1, std::uint64_t{1} << 50,
                                (std::uint64_t{1} << 50) + 1, (std::uint64_t{1} << 53) - 1,
                                std::uint64_t{1} << 53, std::uint64_t{4503599627370497} * 5}) {
    for (int q = -22; q <= 22; ++q) decimal_to_double_as_from_chars(w, q);
  }
  // Around the exponents from which every value is a normal double (10^-307 to 10^288).
  for (int q = -312; q <= -302; ++q) {
    for (const std::uint64_t w : {std::uint64_t{1}, std::uint64_t{22250738585072014},
                                  std::uint64_t{9999999999999999999ULL}}) {
      decimal_to_double_as_from_chars(w, q);
    }
  }
  for (int q = 284; q <= 292; ++q) {
    for (const std::uint64_t w : {std::uint64_t{1}, std::uint64_t{17976931348623157},
                                  std::uint64_t{18446744073709551615ULL}}) {
      decimal_to_double_as_from_chars(w, q);
    }
  }
  EXPECT_EQ(decimal_to_double(1, -307), 1e-307);
  EXPECT_EQ(decimal_to_double(18446744073709551615ULL, 288), 18446744073709551615e288);
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

class NumberStreams : public test::ReadSetupTest {};

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
