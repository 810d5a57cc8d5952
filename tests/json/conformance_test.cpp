// Conformance with RFC 8259: the RFC's own examples, a table of texts every grammar rule
// accepts, and a table of malformed texts, each rejected at the right place with the right
// message. Every case runs over every reader setup, so each token also straddles windows.
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "json_test_support.hpp"
#include "rfc8259_examples.hpp"

namespace bufstream::json {
namespace {

using testing_support::expect_parse_error;
using testing_support::ExpectedError;
using testing_support::for_each_reader;

nlohmann::json read_one(ReadStream& in) { return json::read(in); }

// ---- RFC 8259 section 13 ---------------------------------------------------------------

TEST(JsonConformance, RfcExampleObject) {
  const std::string text(testing::rfc8259_object_example);
  for_each_reader(text, [&](ReadStream& in) {
    const nlohmann::json doc = read_one(in);
    EXPECT_EQ(doc, nlohmann::json::parse(text));
    EXPECT_EQ(doc["Image"]["Thumbnail"]["Url"], "http://www.example.com/image/481989943");
    EXPECT_EQ(doc["Image"]["IDs"][3], 38793);
  });
}

TEST(JsonConformance, RfcExampleArray) {
  const std::string text(testing::rfc8259_array_example);
  for_each_reader(text, [&](ReadStream& in) {
    const nlohmann::json doc = read_one(in);
    EXPECT_EQ(doc, nlohmann::json::parse(text));
    EXPECT_EQ(doc[1]["Longitude"].get<double>(), -122.026020);
  });
}

TEST(JsonConformance, RfcExampleScalars) {
  for (const std::string text : {R"("Hello world!")", "42", "true"}) {
    for_each_reader(text,
                    [&](ReadStream& in) { EXPECT_EQ(read_one(in), nlohmann::json::parse(text)); });
  }
}

// ---- Must accept -----------------------------------------------------------------------

struct Accept {
  std::string text;
  nlohmann::json expected;
};

std::vector<Accept> accepted() {
  using J = nlohmann::json;
  return {
      // values
      {"null", nullptr},
      {"true", true},
      {"false", false},
      {"[]", J::array()},
      {"{}", J::object()},
      {"[[]]", J::array({J::array()})},
      {"[{}]", J::array({J::object()})},
      {"[null,true,false]", J::array({nullptr, true, false})},
      // whitespace: exactly space, tab, line feed, carriage return, anywhere between tokens
      {" \t\r\n[ \t\r\n1 \t\r\n, \t\r\n2 \t\r\n] \t\r\n", J::array({1, 2})},
      {"{ \"a\" : 1 , \"b\" : 2 }", J{{"a", 1}, {"b", 2}}},
      {"\n\n  7  \n", 7},
      // numbers: int, frac, exp in every form
      {"0", 0},
      {"-0", 0},
      {"1", 1},
      {"-1", -1},
      {"1234567890", 1234567890},
      {"1.5", 1.5},
      {"-1.5", -1.5},
      {"0.5", 0.5},
      {"1e5", 1e5},
      {"1E5", 1e5},
      {"1e+5", 1e5},
      {"1e-5", 1e-5},
      {"1.5e10", 1.5e10},
      {"-0.0e-0", -0.0},
      {"0e0", 0.0},
      {"1E-007", 1e-7},
      {"0.1", 0.1},
      {"1.7976931348623157e308", 1.7976931348623157e308},
      {"4.9e-324", 4.9e-324},
      {"2.2250738585072011e-308", 2.2250738585072011e-308},
      {"1e-400", 0.0},  // below the smallest subnormal: rounds to zero
      {"9223372036854775807", INT64_MAX},
      {"-9223372036854775808", INT64_MIN},
      {"18446744073709551615", UINT64_MAX},
      {"18446744073709551616", 18446744073709551616.0},  // beyond 64 bits: nearest double
      {"-9223372036854775809", -9223372036854775809.0},
      // strings: every escape, \u in both cases, surrogate pairs, raw UTF-8 of every length
      {R"("")", ""},
      {R"("abc")", "abc"},
      {R"("\" \\ \/ \b \f \n \r \t")", "\" \\ / \b \f \n \r \t"},
      {R"("\u0000")", std::string(1, '\0')},
      {R"("\u0041\u00e9\u00E9")", "A\xc3\xa9\xc3\xa9"},
      {R"("\u20AC")", "\xe2\x82\xac"},
      {R"("\uD83D\uDE00")", "\xf0\x9f\x98\x80"},
      {R"("\udbff\udfff")", "\xf4\x8f\xbf\xbf"},
      {R"("\uFFFF")", "\xef\xbf\xbf"},
      {"\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"", "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"},
      {"\"\x7f\"", "\x7f"},  // DEL is not a control character for JSON
      {"\"/ '\"", "/ '"},
      // objects
      {R"({"":0})", J{{"", 0}}},
      {R"({"a":{"b":{"c":[]}}})", J{{"a", {{"b", {{"c", J::array()}}}}}}},
      {R"({"a":1,"a":2})", J{{"a", 2}}},  // duplicate keys: last wins
      {R"({"a":[1],"a":{"b":true}})", J{{"a", {{"b", true}}}}},
      {R"({"\u0061":1})", J{{"a", 1}}},
      {R"([1,[2,[3,[4]]]])", J::array({1, J::array({2, J::array({3, J::array({4})})})})},
      {R"([-1e-2,1.0E+2,0])", J::array({-0.01, 100.0, 0})},
  };
}

TEST(JsonConformance, AcceptsEveryGrammarRule) {
  for (const Accept& c : accepted()) {
    SCOPED_TRACE("input: " + c.text);
    for_each_reader(c.text, [&](ReadStream& in) {
      const nlohmann::json doc = read_one(in);
      EXPECT_EQ(doc, c.expected);
      if (c.expected.is_number_float()) {
        ASSERT_TRUE(doc.is_number_float());
        EXPECT_EQ(std::signbit(doc.get<double>()), std::signbit(c.expected.get<double>()));
      }
    });
  }
}

// The same table through json::Document: the same values.
TEST(JsonConformance, DocumentAcceptsEveryGrammarRule) {
  for (const Accept& c : accepted()) {
    SCOPED_TRACE("input: " + c.text);
    for_each_reader(c.text, [&](ReadStream& in) {
      const Document doc = Document::parse(in);
      const nlohmann::json value = to_nlohmann(doc.root());
      EXPECT_EQ(value, c.expected);
      if (c.expected.is_number_float()) {
        ASSERT_TRUE(value.is_number_float());
        EXPECT_EQ(std::signbit(value.get<double>()), std::signbit(c.expected.get<double>()));
      }
    });
  }
}

TEST(JsonConformance, AgreesWithNlohmannOnAcceptedTexts) {
  for (const Accept& c : accepted()) {
    if (c.text == "1e-400") continue;  // nlohmann keeps the sign and value; both give 0
    SCOPED_TRACE("input: " + c.text);
    MemoryReadStream in(c.text);
    EXPECT_EQ(read_one(in), nlohmann::json::parse(c.text));
  }
}

// ---- Must reject -----------------------------------------------------------------------

struct Reject {
  std::string text;
  ExpectedError error;
};

std::vector<Reject> rejected() {
  const std::string escapes =
      "an escape ('\"', '\\', '/', 'b', 'f', 'n', 'r', 't' or 'u') after '\\'";
  const std::string control = "'\"' or a string character (control characters must be escaped)";
  return {
      // structure
      {"", {1, 1, 0, "expected a value but found end of input"}},
      {"   ", {1, 4, 3, "expected a value but found end of input"}},
      {"[", {1, 2, 1, "expected a value but found end of input"}},
      {"[1", {1, 3, 2, "expected ',' or ']' but found end of input"}},
      {"[1,]", {1, 4, 3, "expected a value but found ']'"}},
      {"[1 2]", {1, 4, 3, "expected ',' or ']' but found '2'"}},
      {"[,1]", {1, 2, 1, "expected a value but found ','"}},
      {"[1,,2]", {1, 4, 3, "expected a value but found ','"}},
      {"]", {1, 1, 0, "expected a value but found ']'"}},
      {"[1}", {1, 3, 2, "expected ',' or ']' but found '}'"}},
      {"[[[]]", {1, 6, 5, "expected ',' or ']' but found end of input"}},
      {"[\"a\",]", {1, 6, 5, "expected a value but found ']'"}},
      {"{", {1, 2, 1, "expected a string key or '}' but found end of input"}},
      {"{\"a\"}", {1, 5, 4, "expected ':' after the key but found '}'"}},
      {"{\"a\" 1}", {1, 6, 5, "expected ':' after the key but found '1'"}},
      {"{\"a\":}", {1, 6, 5, "expected a value but found '}'"}},
      {"{\"a\":1,}", {1, 8, 7, "expected a string key but found '}'"}},
      {"{\"a\":1,,\"b\":2}", {1, 8, 7, "expected a string key but found ','"}},
      {"{\"a\":1 \"b\":2}", {1, 8, 7, "expected ',' or '}' but found '\"'"}},
      {"{\"a\":1]", {1, 7, 6, "expected ',' or '}' but found ']'"}},
      {"{\"a\":[}", {1, 7, 6, "expected a value but found '}'"}},
      {"{a:1}", {1, 2, 1, "expected a string key or '}' but found 'a'"}},
      {"{'a':1}", {1, 2, 1, "expected a string key or '}' but found '''"}},
      {"{1:1}", {1, 2, 1, "expected a string key or '}' but found '1'"}},
      {"{\"a\":1", {1, 7, 6, "expected ',' or '}' but found end of input"}},
      {"{\"a\"", {1, 5, 4, "expected ':' after the key but found end of input"}},
      // trailing content after the one value
      {"[1]x", {1, 4, 3, "expected end of input but found 'x'"}},
      {"[1][2]", {1, 4, 3, "expected end of input but found '['"}},
      {"truex", {1, 5, 4, "expected end of input but found 'x'"}},
      {"nulll", {1, 5, 4, "expected end of input but found 'l'"}},
      {"1 2", {1, 3, 2, "expected end of input but found '2'"}},
      {"0x10", {1, 2, 1, "expected end of input but found 'x'"}},
      // what is not whitespace, and what is not JSON
      {"\xef\xbb\xbf\xef\xbb\xbf[]",
       {1, 4, 3, "expected a value but found byte 0xef"}},                     // one mark only
      {" \xef\xbb\xbf[]", {1, 2, 1, "expected a value but found byte 0xef"}},  // at the start only
      {"\xef\xbb[]", {1, 1, 0, "expected a value but found byte 0xef"}},       // not a whole mark
      {"/* c */ 1", {1, 1, 0, "expected a value but found '/'"}},
      {"[\f]", {1, 2, 1, "expected a value but found byte 0x0c"}},
      {"[1\v]", {1, 3, 2, "expected ',' or ']' but found byte 0x0b"}},
      {std::string(1, '\0'), {1, 1, 0, "expected a value but found '\\0'"}},
      {"\xc2\xa0"
       "1",
       {1, 1, 0, "expected a value but found byte 0xc2"}},
      {"undefined", {1, 1, 0, "expected a value but found 'u'"}},
      // positions on later lines
      {"[1,\n2,\n]", {3, 1, 7, "expected a value but found ']'"}},
      {"\n\n  x", {3, 3, 4, "expected a value but found 'x'"}},
      {"{\r\n\"a\": tru\r\n}", {2, 9, 11, "expected 'true' but found '\\r'"}},
      // literals
      {"tru", {1, 4, 3, "expected 'true' but found end of input"}},
      {"trUe", {1, 3, 2, "expected 'true' but found 'U'"}},
      {"nul", {1, 4, 3, "expected 'null' but found end of input"}},
      {"falsy", {1, 5, 4, "expected 'false' but found 'y'"}},
      {"True", {1, 1, 0, "expected a value but found 'T'"}},
      {"NaN", {1, 1, 0, "expected a value but found 'N'"}},
      {"Infinity", {1, 1, 0, "expected a value but found 'I'"}},
      {"[nan]", {1, 3, 2, "expected 'null' but found 'a'"}},
      // numbers
      {"01",
       {1, 2, 1, "expected '.', 'e' or the end of the number after a leading 0 but found '1'"}},
      {"-01",
       {1, 3, 2, "expected '.', 'e' or the end of the number after a leading 0 but found '1'"}},
      {"00",
       {1, 2, 1, "expected '.', 'e' or the end of the number after a leading 0 but found '0'"}},
      {"-", {1, 2, 1, "expected a digit after '-' but found end of input"}},
      {"-a", {1, 2, 1, "expected a digit after '-' but found 'a'"}},
      {"[-]", {1, 3, 2, "expected a digit after '-' but found ']'"}},
      {"[--1]", {1, 3, 2, "expected a digit after '-' but found '-'"}},
      {"-Infinity", {1, 2, 1, "expected a digit after '-' but found 'I'"}},
      {"+1", {1, 1, 0, "expected a value but found '+'"}},
      {".5", {1, 1, 0, "expected a value but found '.'"}},
      {"[.1]", {1, 2, 1, "expected a value but found '.'"}},
      {"1.", {1, 3, 2, "expected a digit after '.' but found end of input"}},
      {"1.e5", {1, 3, 2, "expected a digit after '.' but found 'e'"}},
      {"1e", {1, 3, 2, "expected '+', '-' or a digit in the exponent but found end of input"}},
      {"1.5e", {1, 5, 4, "expected '+', '-' or a digit in the exponent but found end of input"}},
      {"1e+", {1, 4, 3, "expected a digit in the exponent but found end of input"}},
      {"1e+a", {1, 4, 3, "expected a digit in the exponent but found 'a'"}},
      {"[1e1.5]", {1, 5, 4, "expected ',' or ']' but found '.'"}},
      {"1e400", {1, 1, 0, "expected a number within the range of double but found 1e400"}},
      {"[-1e400]", {1, 2, 1, "expected a number within the range of double but found -1e400"}},
      // strings
      {"\"abc", {1, 5, 4, "expected '\"' to end the string but found end of input"}},
      {"\"a\nb\"", {1, 3, 2, "expected " + control + " but found '\\n'"}},
      {"\"a\tb\"", {1, 3, 2, "expected " + control + " but found '\\t'"}},
      {"\"\x01\"", {1, 2, 1, "expected " + control + " but found byte 0x01"}},
      {"\"\x1f\"", {1, 2, 1, "expected " + control + " but found byte 0x1f"}},
      {"\"\\x\"", {1, 3, 2, "expected " + escapes + " but found 'x'"}},
      {"\"\\'\"", {1, 3, 2, "expected " + escapes + " but found '''"}},
      {"\"\\", {1, 3, 2, "expected " + escapes + " but found end of input"}},
      {"\"\\u", {1, 4, 3, "expected 4 hex digits after '\\u' but found end of input"}},
      {"\"\\u12\"", {1, 6, 5, "expected 4 hex digits after '\\u' but found '\"'"}},
      {"\"\\u12G4\"", {1, 6, 5, "expected 4 hex digits after '\\u' but found 'G'"}},
      {"\"\\U0041\"", {1, 3, 2, "expected " + escapes + " but found 'U'"}},
      {"\"\\uDC00\"",
       {1, 2, 1,
        "expected a character escape but found the lone low surrogate \\uDC00 (a low surrogate must follow a high one)"}},
      {"\"\\uD800\"",
       {1, 8, 7, "expected a low surrogate escape \\uDC00-\\uDFFF after \\uD800 but found '\"'"}},
      {"\"\\uD800\\n\"",
       {1, 9, 8, "expected a low surrogate escape \\uDC00-\\uDFFF after \\uD800 but found 'n'"}},
      {"\"\\uD800\\u0041\"",
       {1, 8, 7,
        "expected a low surrogate escape \\uDC00-\\uDFFF after \\uD800 but found \\u0041"}},
      {"\"\\uD800\\uD800\"",
       {1, 8, 7,
        "expected a low surrogate escape \\uDC00-\\uDFFF after \\uD800 but found \\uD800"}},
      {"\"\\uD800\\u00\"", {1, 12, 11, "expected 4 hex digits after '\\u' but found '\"'"}},
      {"\"\xff\"",
       {1, 2, 1, "expected UTF-8 text but found byte 0xff (invalid UTF-8: invalid lead byte)"}},
      {"\"\x80\"",
       {1, 2, 1, "expected UTF-8 text but found byte 0x80 (invalid UTF-8: invalid lead byte)"}},
      {"\"\xc3(\"",
       {1, 2, 1,
        "expected UTF-8 text but found byte 0xc3 (invalid UTF-8: invalid continuation byte)"}},
      {"\"\xc3",
       {1, 2, 1, "expected UTF-8 text but found byte 0xc3 (invalid UTF-8: truncated sequence)"}},
      {"\"\xe2\x82\"",
       {1, 2, 1,
        "expected UTF-8 text but found byte 0xe2 (invalid UTF-8: invalid continuation byte)"}},
      {"\"\xc0\x80\"",
       {1, 2, 1, "expected UTF-8 text but found byte 0xc0 (invalid UTF-8: overlong encoding)"}},
      {"\"\xe0\x80\xaf\"",
       {1, 2, 1, "expected UTF-8 text but found byte 0xe0 (invalid UTF-8: overlong encoding)"}},
      {"\"\xed\xa0\x80\"",
       {1, 2, 1, "expected UTF-8 text but found byte 0xed (invalid UTF-8: encoded surrogate)"}},
      {"\"\xf4\x90\x80\x80\"",
       {1, 2, 1,
        "expected UTF-8 text but found byte 0xf4 (invalid UTF-8: code point beyond U+10FFFF)"}},
      {"\"ok\xc3\xa9\xff\"",
       {1, 6, 5, "expected UTF-8 text but found byte 0xff (invalid UTF-8: invalid lead byte)"}},
      {"{\"k\xff\":1}",
       {1, 4, 3, "expected UTF-8 text but found byte 0xff (invalid UTF-8: invalid lead byte)"}},
      {"'single'", {1, 1, 0, "expected a value but found '''"}},
  };
}

TEST(JsonConformance, RejectsMalformedTextsAtTheRightPlace) {
  const std::vector<Reject> cases = rejected();
  EXPECT_GE(cases.size(), 60u);
  for (const Reject& c : cases) {
    SCOPED_TRACE("input: " + c.text);
    for_each_reader(c.text,
                    [&](ReadStream& in) { expect_parse_error([&] { read_one(in); }, c.error); });
  }
}

TEST(JsonConformance, DocumentRejectsMalformedTextsAtTheRightPlace) {
  for (const Reject& c : rejected()) {
    SCOPED_TRACE("input: " + c.text);
    for_each_reader(c.text, [&](ReadStream& in) {
      expect_parse_error([&] { static_cast<void>(Document::parse(in)); }, c.error);
    });
  }
}

TEST(JsonConformance, NlohmannRejectsOurRejectedTextsToo) {
  // A cross-check of the table itself: every text we reject, nlohmann rejects as well
  // (except a few limits that are ours to choose).
  for (const Reject& c : rejected()) {
    SCOPED_TRACE("input: " + c.text);
    EXPECT_FALSE(nlohmann::json::accept(c.text));
  }
}

}  // namespace
}  // namespace bufstream::json
