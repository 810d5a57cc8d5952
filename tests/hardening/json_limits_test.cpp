// The limits of json::Reader, as reader.hpp documents them: nesting up to
// ReadOptions::max_depth (an error beyond, never a stack overflow), strings bounded only by
// memory, integers beyond 64 bits read as the nearest double, numbers beyond the double range
// an error.
#include <cmath>
#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include <bufstream/json.hpp>

#include "json_event_counter.hpp"
#include "limits_support.hpp"

namespace bufstream::json {
namespace {

using testing::digits;
using testing::letters;
using testing::long_text_setups;

std::string nested_arrays(std::size_t depth) {
  return std::string(depth, '[') + std::string(depth, ']');
}

using CountEvents = test::JsonEventCounter;

TEST(JsonLimits, NestingUpToTheDefaultDepthIsRead) {
  const std::string text = nested_arrays(bufstream::default_max_depth);
  MemoryReadStream in(text);
  const nlohmann::json doc = read(in);
  const nlohmann::json* inner = &doc;
  std::size_t depth = 1;
  while (!inner->empty()) {
    inner = &(*inner)[0];
    ++depth;
  }
  EXPECT_EQ(depth, bufstream::default_max_depth);
}

TEST(JsonLimits, NestingBeyondTheDepthIsAnErrorAtTheBracket) {
  for (const char* open : {"[", "{\"k\":"}) {
    std::string text;
    for (std::size_t i = 0; i <= bufstream::default_max_depth; ++i) text += open;
    MemoryReadStream in(text);
    try {
      (void)read(in);
      FAIL() << "no error for depth " << bufstream::default_max_depth + 1;
    } catch (const ParseError& e) {
      const std::uint64_t bracket = bufstream::default_max_depth * std::string_view(open).size();
      EXPECT_EQ(e.offset(), bracket) << e.what();
      EXPECT_NE(e.message().find("512"), std::string::npos) << e.what();
    }
  }
}

TEST(JsonLimits, DeepNestingWithARaisedLimitIsIterativeInEveryMode) {
  // 100,000 levels: far beyond what a recursive reader's stack would survive.
  constexpr std::size_t depth = 100000;
  const std::string text = nested_arrays(depth);
  {
    MemoryReadStream in(text);
    Reader reader(in, {.max_depth = depth});
    CountEvents events;
    reader.parse(events);
    reader.finish();
    EXPECT_EQ(events.events, 2 * depth);
  }
  {
    MemoryReadStream in(text);
    Reader reader(in, {.max_depth = depth});
    reader.skip_value();
    reader.finish();
  }
  {
    MemoryReadStream in(text);
    Reader reader(in, {.max_depth = depth});
    const nlohmann::json doc = reader.read();  // the DOM is built without recursion too
    std::size_t levels = 1;
    for (const nlohmann::json* inner = &doc; !inner->empty(); inner = &(*inner)[0]) ++levels;
    EXPECT_EQ(levels, depth);
  }
  {
    MemoryReadStream in(text);
    Reader reader(in, {.max_depth = depth - 1});
    EXPECT_THROW(reader.skip_value(), ParseError);
  }
}

TEST(JsonLimits, A16MiBStringIsBoundedOnlyByMemory) {
  const std::string value = letters(testing::long_token_bytes);
  const std::string text = "[\"" + value + "\", \"\\u00e9" + value.substr(0, 1000) + "\"]";
  for (const auto& setup : long_text_setups(text.size())) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make(text);
    Reader reader(*in);
    reader.begin_array();
    ASSERT_TRUE(reader.next_element());
    const std::string_view got = reader.read_string();
    EXPECT_EQ(got.size(), value.size());
    EXPECT_TRUE(got == value);
    ASSERT_TRUE(reader.next_element());
    EXPECT_EQ(reader.read_string(), "\xC3\xA9" + value.substr(0, 1000));
    EXPECT_FALSE(reader.next_element());
    reader.finish();
  }
}

TEST(JsonLimits, ALongStringAndKeyThroughOneByteBuffers) {
  const std::string value = letters(testing::medium_token_bytes);
  const std::string text = "{\"" + value + "\":\"" + value + "\"}";
  for (const auto& setup : long_text_setups(text.size())) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make(text);
    const nlohmann::json doc = read(*in);
    ASSERT_EQ(doc.size(), 1u);
    EXPECT_TRUE(doc.begin().key() == value);
    EXPECT_TRUE(doc.begin().value().get_ref<const std::string&>() == value);
  }
}

TEST(JsonLimits, AHundredThousandDigitIntegerIsBeyondTheDoubleRange) {
  // Beyond 64 bits an integer is read as the nearest double; 10^99999 has none.
  const std::string text = digits(100000);
  for (const auto& setup : long_text_setups(text.size())) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make(text);
    try {
      (void)read(*in);
      FAIL() << "a 100,000-digit integer was read";
    } catch (const ParseError& e) {
      EXPECT_EQ(e.offset(), 0u);
      EXPECT_NE(e.message().find("expected a number within the range of double"), std::string::npos)
          << e.what();
    }
  }
}

TEST(JsonLimits, AHundredThousandDigitNumberInRangeIsCorrectlyRounded) {
  // 0.333...3 (100,000 threes) is the double nearest to 1/3; 1234...e-99990 is about 1.2e9;
  // and 2^64 followed by 99,980 zero digits of fraction is exactly 2^64.
  const std::string thirds = "0." + std::string(100000, '3');
  const std::string scaled = digits(100000) + "e-99990";
  const std::string exact = "18446744073709551616." + std::string(99980, '0');
  for (const auto& setup : long_text_setups(thirds.size())) {
    SCOPED_TRACE(setup.name);
    auto a = setup.make(thirds);
    EXPECT_EQ(read<double>(*a), 1.0 / 3.0);
    auto b = setup.make(scaled);
    EXPECT_EQ(read<double>(*b), 1234567891.23456789123456789);
    auto c = setup.make(exact);
    EXPECT_EQ(read<double>(*c), std::ldexp(1.0, 64));
  }
}

TEST(JsonLimits, IntegersJustBeyond64BitsBecomeDoubles) {
  MemoryReadStream in("[18446744073709551616, -9223372036854775809, 99999999999999999999999]");
  const nlohmann::json doc = read(in);
  EXPECT_TRUE(doc[0].is_number_float());
  EXPECT_EQ(doc[0].get<double>(), 18446744073709551616.0);
  EXPECT_EQ(doc[1].get<double>(), -9223372036854775808.0);
  EXPECT_EQ(doc[2].get<double>(), 1e23);
  MemoryReadStream typed("18446744073709551616");
  Reader reader(typed);
  EXPECT_THROW((void)reader.read_integer<std::uint64_t>(), ParseError);
}

}  // namespace
}  // namespace bufstream::json
