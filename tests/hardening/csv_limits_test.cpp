// The limits of csv::Reader: fields and records bounded only by memory (never by the buffer),
// and typed fields holding huge numbers (FieldConverter: an exact error or the correctly
// rounded value).
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include <bufstream/csv.hpp>

#include "limits_support.hpp"

namespace bufstream::csv {
namespace {

using testing::digits;
using testing::letters;
using testing::long_text_setups;

void expect_long_fields(std::size_t size) {
  const std::string value = letters(size);
  std::string quoted = value;
  quoted[size / 2] = '"';  // a doubled quote in the middle of the quoted field
  const std::string text = value + ",\"" + quoted.substr(0, size / 2) + "\"\"" +
                           quoted.substr(size / 2 + 1) + "\"\r\n\"\",x\r\n";
  for (const auto& setup : long_text_setups(text.size())) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make(text);
    Reader reader(*in);
    const Record* r = reader.next();
    ASSERT_NE(r, nullptr);
    ASSERT_EQ(r->size(), 2u);
    EXPECT_EQ((*r)[0].size(), size);
    EXPECT_TRUE((*r)[0] == value);
    EXPECT_TRUE((*r)[1] == quoted);
    std::vector<std::string> fields;
    ASSERT_TRUE(reader.next(fields));
    EXPECT_EQ(fields, (std::vector<std::string>{"", "x"}));
    EXPECT_FALSE(reader.next(fields));
  }
}

TEST(CsvLimits, A16MiBFieldIsBoundedOnlyByMemory) { expect_long_fields(testing::long_token_bytes); }

TEST(CsvLimits, ALongFieldThroughOneByteBuffers) {
  expect_long_fields(testing::medium_token_bytes);
}

TEST(CsvLimits, AHundredThousandFieldsInOneRecord) {
  constexpr std::size_t n = 100000;
  std::string text;
  for (std::size_t i = 0; i < n; ++i) {
    if (i != 0) text += ',';
    text += std::to_string(i);
  }
  text += "\n";
  for (const auto& setup : long_text_setups(text.size())) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make(text);
    Reader reader(*in);
    const Record* r = reader.next();
    ASSERT_NE(r, nullptr);
    ASSERT_EQ(r->size(), n);
    EXPECT_EQ((*r)[n - 1], std::to_string(n - 1));
  }
}

TEST(CsvLimits, AHundredThousandDigitIntegerFieldIsARangeErrorNamingIt) {
  const std::string huge = digits(100000);
  const std::string text = "id\n" + huge + "\n";
  MemoryReadStream in(text);
  Reader reader(in);
  reader.read_header();
  try {
    (void)read_rows<std::tuple<std::int64_t>>(reader);
    FAIL() << "read";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.line(), 2u);
    EXPECT_EQ(e.column(), 1u);
    EXPECT_NE(
        e.message().find(
            "expected an integer from -9223372036854775808 to 9223372036854775807 but found '" +
            huge.substr(0, 40) + "...' (100000 bytes)"),
        std::string::npos)
        << e.what();
  }
}

TEST(CsvLimits, AHundredThousandDigitFloatFieldIsCorrectlyRounded) {
  EXPECT_EQ(FieldConverter<double>::parse("0." + std::string(100000, '3')), 1.0 / 3.0);
  EXPECT_EQ(FieldConverter<double>::parse(digits(100000) + "e-99990"),
            1234567891.23456789123456789);
  EXPECT_EQ(FieldConverter<float>::parse("0." + std::string(100000, '3')), 1.0f / 3.0f);
  EXPECT_EQ(FieldConverter<double>::parse("0." + std::string(100000, '0') + "1"),
            0.0);  // underflow
}

TEST(CsvLimits, AHundredThousandDigitNumberBeyondTheDoubleRangeIsAnError) {
  // A number beyond the double range is an error that says so.
  for (const std::string& text : {digits(100000), digits(100000) + ".5", std::string("-1e999")}) {
    try {
      (void)FieldConverter<double>::parse(text);
      ADD_FAILURE() << text.substr(0, 20) << " was read";
    } catch (const ConversionError& e) {
      EXPECT_NE(
          std::string(e.what()).find("expected a number within the range of double but found '"),
          std::string::npos)
          << e.what();
    }
  }
  EXPECT_THROW((void)FieldConverter<float>::parse(digits(100)), ConversionError);
}

}  // namespace
}  // namespace bufstream::csv
