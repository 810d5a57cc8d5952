// STON numbers, every form and edge, through every reader setup (memory, 1- and 3-byte chunks,
// buffers of 1, 2, 3, 7 and 65536 bytes): each number is scanned in one place, over a window
// grown when the number reaches its end, so every case here also crosses buffer boundaries.
#include <cmath>
#include <limits>
#include <string>

#include <gtest/gtest.h>

#include <bufstream/ston/reader.hpp>

#include "ston_test_util.hpp"

namespace bufstream::ston {
namespace {

using test::parse_error_everywhere;
using test::parse_everywhere;

struct NumberCase {
  std::string text;
  Value expected;
};

void expect_numbers(const std::vector<NumberCase>& cases) {
  for (const NumberCase& c : cases) {
    SCOPED_TRACE(c.text);
    EXPECT_EQ(parse_everywhere(c.text).root(), c.expected);
    // The same number inside a list, between other tokens, and as a map value.
    const Document in_list = parse_everywhere("[ " + c.text + " ,7]");
    ASSERT_TRUE(in_list.root().is_list());
    EXPECT_EQ(in_list.root().as_list()[0], c.expected);
    EXPECT_EQ(parse_everywhere("{#k:" + c.text + "}").root().as_map().at("k"), c.expected);
  }
}

Integer big(std::string_view digits) { return Integer::from_decimal(digits); }

TEST(StonNumbers, Integers) {
  expect_numbers({
      {"0", 0},
      {"-0", 0},  // an integer: there is no negative zero
      {"7", 7},
      {"-42", -42},
      {"0007", 7},
      {"-0000000000000000000000000000042", -42},
      {"999999999999999999", 999999999999999999},    // 18 digits
      {"1000000000000000000", 1000000000000000000},  // 19 digits
      {"9223372036854775807", INT64_MAX},
      {"-9223372036854775808", INT64_MIN},
      {"9223372036854775808", big("9223372036854775808")},
      {"-9223372036854775809", big("-9223372036854775809")},
      {"18446744073709551616", big("18446744073709551616")},  // 2^64: wraps 64 bits to 0
      {"99999999999999999999999999999999999999", big("99999999999999999999999999999999999999")},
  });
}

TEST(StonNumbers, Floats) {
  expect_numbers({
      {"1.5", 1.5},
      {"-0.0", -0.0},
      {"0.0", 0.0},
      {"007.25", 7.25},
      {"0.3333333333333333", 0.3333333333333333},
      {"158.11388300841898", 158.11388300841898},
      {"4.0e-5", 4.0e-5},
      {"1.5E2", 150.0},
      {"1.5e+2", 150.0},
      {"1.0e00002", 100.0},
      {"1.", 1.0},      // Pharo: a point without digits
      {"1.e2", 100.0},  // the same, before an exponent
      {"1.5e", 1.5},    // an exponent marker without digits is 0
      {"1.5e-", 1.5},
      {"1.5e+", 1.5},
      {"1.0e308", 1e308},
      {"1.0e-320", 1e-320},                                // subnormal
      {"1.7976931348623157e308", 1.7976931348623157e308},  // the largest double
      {"-1.7976931348623157e308", -1.7976931348623157e308},
      {"0.1e-400", 0.0},
      {"-0.1e-400", -0.0},
      {"1.0e-000000000000000000000001", 0.1},
      {"0.0009990009990009991", 0.0009990009990009991},  // 19 digits after the zeros
      {"000.00000000000000000000000000001", 1e-29},
      {"-0000000000000000000001.25", -1.25},
      {"0.30000000000000000000000000001", 0.3},  // more than 19 digits
      {"123456789012345678901.5", 123456789012345678901.5},
      {"9007199254740993.0", 9007199254740992.0},  // halfway: ties to even
  });
}

TEST(StonNumbers, ExactExponentsFractionsAndScaledDecimals) {
  std::string power = "1";
  power.append(400, '0');
  expect_numbers({
      {"1e3", 1000},
      {"1E3", 1000},
      {"1e+3", 1000},
      {"1e00003", 1000},
      {"-0e5", 0},
      {"0e-99999", 0},  // zero: the exponent does not matter
      {"1e", 1},
      {"1e-", 1},
      {"1e+", 1},
      {"1e400", big(power)},
      {"1e-400", Value::fraction(1, big(power))},
      {"25e-2", Value::fraction(1, 4)},
      {"1/3", Value::fraction(1, 3)},
      {"-6/4", Value::fraction(-3, 2)},
      {"0/5", 0},
      {"-0/5", 0},
      {"0010/0004", Value::fraction(5, 2)},
      {"9/3", 3},
      {"1/3s2", Value::scaled_decimal(1, 3, 2)},
      {"-1/3s0", Value::scaled_decimal(-1, 3, 0)},
      {"4/2s00003", Value::scaled_decimal(2, 1, 3)},
      {"1/3s4294967295", Value::scaled_decimal(1, 3, 4294967295U)},
      {"100000000000000000000/300000000000000000000s1", Value::scaled_decimal(1, 3, 1)},
  });
}

TEST(StonNumbers, ManyNumbersAcrossBufferBoundaries) {
  // Every form in one list: under buffers of 1 to 7 bytes each number starts and ends at
  // every place of a window.
  std::string text = "[";
  std::vector<Value> expected;
  for (int i = 0; i < 40; ++i) {
    text += std::to_string(i * 37) + ",-" + std::to_string(i) + ".5," + std::to_string(i + 1) +
            "/3s2,1e" + std::to_string(i % 5) + ",";
    expected.emplace_back(i * 37);
    expected.emplace_back(-(i + 0.5));
    expected.push_back(Value::scaled_decimal(i + 1, 3, 2));
    expected.emplace_back(static_cast<std::int64_t>(std::pow(10, i % 5)));
  }
  text += "123456789012345678901234567890]";
  expected.emplace_back(big("123456789012345678901234567890"));
  const Document doc = parse_everywhere(text);
  const List list = doc.root().as_list();
  ASSERT_EQ(list.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(list[i], expected[i]) << i;
}

TEST(StonNumbers, Errors) {
  struct Case {
    std::string text;
    std::uint64_t offset;
    std::uint64_t column;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"-", 1, 2, "expected a digit after '-' but found end of input"},
      {"[-]", 2, 3, "expected a digit after '-' but found ']'"},
      {"-/", 1, 2, "expected a digit after '-' but found '/'"},
      {"-.5", 1, 2, "expected a digit after '-' but found '.'"},
      {"1/", 2, 3, "expected a digit after '/' but found end of input"},
      {"[1/-2]", 3, 4, "expected a digit after '/' but found '-'"},
      {"1/2s", 4, 5, "expected a digit after 's' but found end of input"},
      {"[1/2s,3]", 5, 6, "expected a digit after 's' but found ','"},
      {"1/0", 0, 1, "a fraction with a zero denominator"},
      {"[7, 0/0]", 4, 5, "a fraction with a zero denominator"},
      {"-1/000s2", 0, 1, "a fraction with a zero denominator"},
      {"1/3s4294967296", 0, 1, "scale 4294967296 is too large"},
      {"1/3s99999999999999999999", 0, 1, "scale 99999999999999999999 is too large"},
      {"1e10001", 0, 1, "exponent 10001 is larger than 10000 (ReadOptions::max_number_length)"},
      {"[1e-10001]", 1, 2, "exponent 10001 is larger than 10000 (ReadOptions::max_number_length)"},
      {"1e99999999999999999999", 0, 1,
       "exponent 99999999999999999999 is larger than 10000 (ReadOptions::max_number_length)"},
      // A float beyond the range of double is an error at the number, as in every reader
      // (Pharo's arithmetic would overflow to infinity).
      {"1.0e400", 0, 1, "expected a number within the range of double but found 1.0e400"},
      {"[2, -1.0e400]", 4, 5, "expected a number within the range of double but found -1.0e400"},
      {"1.8e308", 0, 1, "expected a number within the range of double but found 1.8e308"},
      {"{#a:1.0e99999999999999999999}", 4, 5,
       "expected a number within the range of double but found 1.0e99999999999999999999"},
      {"123456789012345678901234567890123456789012345.0e300", 0, 1,
       "expected a number within the range of double but found "
       "1234567890123456789012345678901234567890..."},
      // Not numbers in STON: a scaled decimal is a fraction with a scale; a fraction has no
      // exponent; a float has one point.
      {"1.5s2", 3, 4, "expected end of input after the value but found 's'"},
      {"1/2e3", 3, 4, "expected end of input after the value but found 'e'"},
      {"1.5.2", 3, 4, "expected end of input after the value but found '.'"},
      {"1s2", 1, 2, "expected end of input after the value but found 's'"},
      {"+1", 0, 1, "expected a value but found '+'"},
      {".5", 0, 1, "expected a value but found '.'"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    const ParseError e = parse_error_everywhere(c.text);
    EXPECT_EQ(e.message(), c.message);
    EXPECT_EQ(e.offset(), c.offset);
    EXPECT_EQ(e.line(), 1U);
    EXPECT_EQ(e.column(), c.column);
  }
}

TEST(StonNumbers, EveryDigitGroupIsLimited) {
  const std::string limit = "number longer than 10000 digits (ReadOptions::max_number_length)";
  const std::string d(10001, '3');
  for (const std::string& text :
       {d, "-" + d, "1." + d, "1.5e" + d, "1/" + d, "1/3s" + d, "[0," + d + "]", "[@" + d + "]"}) {
    SCOPED_TRACE(text.substr(0, 8));
    const ParseError e = parse_error_everywhere(text);
    EXPECT_EQ(e.message(), limit);
    EXPECT_EQ(e.offset(), text[0] == '[' ? (text[1] == '@' ? 1U : 3U) : 0U);
  }
  // At the limit: read whole.
  const std::string at_limit(10000, '3');
  EXPECT_EQ(parse_everywhere(at_limit).root(), big(at_limit));
  EXPECT_EQ(parse_everywhere("0." + at_limit).root(), Value(1.0 / 3));
  EXPECT_EQ(parse_everywhere("1/" + at_limit).root().as_fraction().denominator(), big(at_limit));
  // A smaller limit applies to each group, not to the whole number.
  const ReadOptions short_numbers{.max_number_length = 3};
  EXPECT_EQ(parse_everywhere("-123.456e-12", short_numbers).root(), Value(-123.456e-12));
  EXPECT_EQ(parse_error_everywhere("12.3456", short_numbers).offset(), 0U);
}

TEST(StonNumbers, ReferencesReadTheirDigitsAsNumbersDo) {
  const Document doc = parse_everywhere("[[1],@ 0000002,@1]");
  const List list = doc.root().as_list();
  EXPECT_TRUE(list[1].same_object(list[0]));
  EXPECT_TRUE(list[2].same_object(doc.root()));
  EXPECT_EQ(parse_error_everywhere("[@99999999999999999999]").message(),
            "reference @99999999999999999999 does not exist");
  EXPECT_EQ(parse_error_everywhere("[@-1]").message(),
            "expected a reference number after '@' but found '-'");
}

}  // namespace
}  // namespace bufstream::ston
