// json::Writer: exact output of every kind of value, escaping, pretty printing, JSON Lines,
// misuse, and write errors. Every output is produced through buffers of 1, 2, 3, 7 and 65536
// bytes and through a sink with no window.
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "json_test_support.hpp"

namespace bufstream::json {
namespace {

using testing_support::write_everywhere;

template <class T>
std::string written(const T& value, WriteOptions options = {}) {
  return write_everywhere([&](Writer& w) { w.value(value); }, options);
}

TEST(JsonWriter, Scalars) {
  EXPECT_EQ(written(nullptr), "null");
  EXPECT_EQ(written(true), "true");
  EXPECT_EQ(written(false), "false");
  EXPECT_EQ(written("text"), "\"text\"");
  EXPECT_EQ(written(std::string("s")), "\"s\"");
  EXPECT_EQ(written(std::string_view("")), "\"\"");
}

TEST(JsonWriter, IntegersOfEveryTypeExactly) {
  EXPECT_EQ(written(std::int8_t{-128}), "-128");
  EXPECT_EQ(written(std::uint8_t{255}), "255");
  EXPECT_EQ(written(short{-32768}), "-32768");
  EXPECT_EQ(written(0), "0");
  EXPECT_EQ(written(-1), "-1");
  EXPECT_EQ(written(std::numeric_limits<std::int64_t>::min()), "-9223372036854775808");
  EXPECT_EQ(written(std::numeric_limits<std::int64_t>::max()), "9223372036854775807");
  EXPECT_EQ(written(std::numeric_limits<std::uint64_t>::max()), "18446744073709551615");
  EXPECT_EQ(written(std::numeric_limits<unsigned long long>::max()), "18446744073709551615");
}

TEST(JsonWriter, DoublesShortestRoundTripAlwaysAsFloats) {
  EXPECT_EQ(written(1.0), "1.0");
  EXPECT_EQ(written(-0.0), "-0.0");
  EXPECT_EQ(written(0.0), "0.0");
  EXPECT_EQ(written(0.1), "0.1");
  EXPECT_EQ(written(-1.5), "-1.5");
  EXPECT_EQ(written(1e100), "1e+100");
  EXPECT_EQ(written(1.0 / 3), "0.3333333333333333");
  EXPECT_EQ(written(5e-324), "5e-324");
  EXPECT_EQ(written(1.7976931348623157e308), "1.7976931348623157e+308");
  EXPECT_EQ(written(123456789012345680.0), "123456789012345680.0");  // to_chars: plain when shorter
  EXPECT_EQ(written(1e22), "1e+22");
  EXPECT_EQ(written(0.1f), "0.1");
  EXPECT_EQ(written(2.0f), "2.0");
}

// Numbers as the first and as later elements of compact arrays (written inline with their
// comma) and of pretty ones, for every kind of number and nesting.
TEST(JsonWriter, NumbersAsFirstAndLaterArrayElements) {
  const auto numbers = [](Writer& w) {
    w.begin_array().value(1.5).value(-2).value(std::numeric_limits<std::uint64_t>::max());
    w.begin_array().value(std::int8_t{-128}).end_array();
    w.begin_array().value(0.1).value(7).end_array();
    w.begin_array().end_array().value(1e300).end_array();
  };
  EXPECT_EQ(write_everywhere(numbers), "[1.5,-2,18446744073709551615,[-128],[0.1,7],[],1e+300]");
  EXPECT_EQ(
      write_everywhere(numbers, {.indent = 1}),
      "[\n 1.5,\n -2,\n 18446744073709551615,\n [\n  -128\n ],\n [\n  0.1,\n  7\n ],\n [],\n 1e+300\n]");
  const WriteOptions nulls{.non_finite = NonFinite::write_null};
  EXPECT_EQ(
      write_everywhere(
          [](Writer& w) { w.begin_array().value(std::nan("")).value(2.0).end_array(); }, nulls),
      "[null,2.0]");
  EXPECT_EQ(write_everywhere([](Writer& w) {
              w.begin_object().key("n").value(3).key("d").value(0.5).end_object();
            }),
            R"({"n":3,"d":0.5})");
}

TEST(JsonWriter, NonFiniteIsAnErrorByDefault) {
  for (double d : {std::nan(""), std::numeric_limits<double>::infinity(),
                   -std::numeric_limits<double>::infinity()}) {
    StringWriteStream out;
    Writer w(out);
    w.begin_array();
    EXPECT_THROW(w.value(d), bufstream::UsageError);
    EXPECT_THROW(w.value(static_cast<float>(d)), bufstream::UsageError);
    w.value(1);  // the writer is still usable, and nothing of the refused value was written
    w.end_array();
    w.finish();
    EXPECT_EQ(out.view(), "[1]");
  }
}

TEST(JsonWriter, NonFiniteAsNullOnRequest) {
  const std::vector<double> values{std::nan(""), std::numeric_limits<double>::infinity(), 2.5};
  EXPECT_EQ(written(values, {.non_finite = NonFinite::write_null}), "[null,null,2.5]");
}

TEST(JsonWriter, StringEscapes) {
  EXPECT_EQ(written("\" \\ / \b \f \n \r \t"), R"("\" \\ / \b \f \n \r \t")");
  EXPECT_EQ(written(std::string("\0\x01\x1f\x7f", 4)), "\"\\u0000\\u0001\\u001f\x7f\"");
  EXPECT_EQ(written("caf\xc3\xa9 \xf0\x9f\x98\x80"), "\"caf\xc3\xa9 \xf0\x9f\x98\x80\"");
  const std::string long_text = std::string(100, 'a') + "\"" + std::string(100, 'b');
  EXPECT_EQ(written(long_text),
            "\"" + std::string(100, 'a') + "\\\"" + std::string(100, 'b') + "\"");
}

TEST(JsonWriter, EscapesAtEveryPositionOfEveryLength) {
  // Strings are classified eight bytes at a time: put the one byte that matters at every
  // position of strings of every length around the word size, and compare with nlohmann.
  for (std::size_t length = 1; length <= 24; ++length) {
    for (std::size_t at = 0; at < length; ++at) {
      for (const std::string& special :
           std::vector<std::string>{"\"", "\\", "\n", std::string(1, '\0'), "\x1f", "\xc3\xa9"}) {
        std::string s(length, 'a');
        s.replace(at, 1, special);
        EXPECT_EQ(written(s), nlohmann::json(s).dump()) << "length " << length << " at " << at;
      }
      std::string bad(length, 'a');
      bad[at] = '\xff';
      StringWriteStream out;
      Writer w(out);
      EXPECT_THROW(w.value(bad), bufstream::UsageError) << "length " << length << " at " << at;
    }
  }
}

TEST(JsonWriter, AsciiOnlyEscapesEverythingAbove126) {
  const WriteOptions ascii{.ascii_only = true};
  EXPECT_EQ(written("caf\xc3\xa9", ascii), R"("caf\u00e9")");
  EXPECT_EQ(written("\xe2\x82\xac", ascii), R"("\u20ac")");
  EXPECT_EQ(written("\xf0\x9f\x98\x80", ascii), R"("\ud83d\ude00")");
  EXPECT_EQ(written("\xf4\x8f\xbf\xbf", ascii), R"("\udbff\udfff")");
  EXPECT_EQ(written("~\x7f\n", ascii), R"("~\u007f\n")");
}

// Strings short enough for the writer's one-pass copy, of every length around its word size,
// with one byte that needs attention at every position, in each place a string can stand
// (first and later element of an array, a member's value, the top level): written exactly as
// the general path writes them, and with nothing left of a refused one.
TEST(JsonWriter, ShortStringsWithASpecialByteAtEveryPosition) {
  struct Special {
    std::string raw;
    std::string escaped;        // default options
    std::string escaped_ascii;  // ascii_only
  };
  const std::vector<Special> specials = {
      {"\"", R"(\")", R"(\")"},
      {"\\", R"(\\)", R"(\\)"},
      {"\n", R"(\n)", R"(\n)"},
      {std::string(1, '\0'), R"(\u0000)", R"(\u0000)"},
      {"\x01", R"(\u0001)", R"(\u0001)"},
      {"\x1f", R"(\u001f)", R"(\u001f)"},
      {"\x7f", "\x7f", R"(\u007f)"},
      {"\xc3\xa9", "\xc3\xa9", R"(\u00e9)"},
      {" ", " ", " "},
      {"~", "~", "~"},
  };
  for (const bool ascii_only : {false, true}) {
    const WriteOptions options{.ascii_only = ascii_only};
    for (std::size_t length :
         {0u, 1u, 2u, 3u, 4u, 5u, 7u, 8u, 9u, 15u, 16u, 17u, 23u, 24u, 25u, 40u, 255u, 256u}) {
      for (const Special& special : specials) {
        for (std::size_t at = 0; at + special.raw.size() <= length; ++at) {
          std::string s(length, 'a');
          s.replace(at, special.raw.size(), special.raw);
          const std::string quoted = "\"" + std::string(at, 'a') +
                                     (ascii_only ? special.escaped_ascii : special.escaped) +
                                     std::string(length - at - special.raw.size(), 'a') + "\"";
          SCOPED_TRACE("length " + std::to_string(length) + " at " + std::to_string(at));
          EXPECT_EQ(written(s, options), quoted);
          EXPECT_EQ(write_everywhere(
                        [&](Writer& w) { w.begin_array().value(s).value(s).end_array(); }, options),
                    "[" + quoted + "," + quoted + "]");
          EXPECT_EQ(
              write_everywhere([&](Writer& w) { w.begin_object().key("k").value(s).end_object(); },
                               options),
              "{\"k\":" + quoted + "}");
        }
      }
    }
  }
}

TEST(JsonWriter, ShortInvalidStringsLeaveNoTrace) {
  for (std::size_t length : {1u, 3u, 7u, 8u, 9u, 16u, 30u}) {
    for (std::size_t at = 0; at < length; ++at) {
      std::string s(length, 'b');
      s[at] = '\x80';  // a continuation byte with no lead
      StringWriteStream out;
      Writer w(out);
      w.begin_array().value("x");
      EXPECT_THROW(w.value(s), bufstream::UsageError);
      w.value(1).end_array();
      w.finish();
      EXPECT_EQ(out.view(), R"(["x",1])");
    }
  }
}

TEST(JsonWriter, InvalidUtf8IsRefusedBeforeAnythingIsWritten) {
  for (std::string bad : {"\xff", "a\xc3", "\xc0\x80", "\xed\xa0\x80", "ok\xf4\x90\x80\x80",
                          "twenty bytes of text\xff", "\xc3\xa9 eight+ bytes then \xc0\x80"}) {
    StringWriteStream out;
    Writer w(out);
    w.begin_object();
    EXPECT_THROW(w.key(bad), bufstream::UsageError);
    w.key("k");
    EXPECT_THROW(w.value(bad), bufstream::UsageError);
    w.value(1).end_object();
    w.finish();
    EXPECT_EQ(out.view(), R"({"k":1})");
  }
}

TEST(JsonWriter, ContainersCompact) {
  const std::string text = write_everywhere([](Writer& w) {
    w.begin_object();
    w.key("a").begin_array().value(1).value(2.5).value("x").null().end_array();
    w.key("b").begin_object().end_object();
    w.key("c").begin_array().end_array();
    w.member("d", true);
    w.end_object();
  });
  EXPECT_EQ(text, R"({"a":[1,2.5,"x",null],"b":{},"c":[],"d":true})");
}

TEST(JsonWriter, PrettyPrinting) {
  const auto doc = [](Writer& w) {
    w.begin_object();
    w.key("a").begin_array().value(1).begin_object().member("b", nullptr).end_object().end_array();
    w.key("e").begin_array().end_array();
    w.key("o").begin_object().end_object();
    w.end_object();
  };
  EXPECT_EQ(write_everywhere(doc, {.indent = 2}),
            "{\n"
            "  \"a\": [\n"
            "    1,\n"
            "    {\n"
            "      \"b\": null\n"
            "    }\n"
            "  ],\n"
            "  \"e\": [],\n"
            "  \"o\": {}\n"
            "}");
  EXPECT_EQ(write_everywhere([](Writer& w) { w.begin_array().value(1).value(2).end_array(); },
                             {.indent = 3, .line_end = LineEnd::crlf}),
            "[\r\n   1,\r\n   2\r\n]");
}

TEST(JsonWriter, PrettyPrintingWithTabs) {
  const auto doc = [](Writer& w) {
    w.begin_object().key("a").value(std::vector<int>{1}).end_object();
  };
  EXPECT_EQ(write_everywhere(doc, {.indent = 1, .indent_char = '\t'}),
            "{\n\t\"a\": [\n\t\t1\n\t]\n}");
  EXPECT_EQ(write_everywhere(doc, {.indent = 2, .indent_char = '\t'}),
            "{\n\t\t\"a\": [\n\t\t\t\t1\n\t\t]\n}");
}

TEST(JsonWriter, AnIndentCharOtherThanSpaceOrTabIsAUsageError) {
  StringWriteStream out;
  for (const char c : {'x', '\n', '\0'}) {
    try {
      Writer w(out, {.indent = 2, .indent_char = c});
      ADD_FAILURE() << "indent_char " << int{c} << " was taken";
    } catch (const bufstream::UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("json::Writer: indent_char must be ' ' or '\\t'"),
                std::string::npos)
          << e.what();
    }
  }
}

TEST(JsonWriter, PrettyPrintingMatchesNlohmannDump) {
  const nlohmann::json doc = nlohmann::json::parse(
      R"({"list":[1,2,{"x":[],"y":{}}],"name":"n","nested":{"deeper":{"deepest":[true,false]}}})");
  EXPECT_EQ(written(doc, {.indent = 4}), doc.dump(4));
  EXPECT_EQ(written(doc, {.indent = 1, .indent_char = '\t'}), doc.dump(1, '\t'));
  EXPECT_EQ(written(doc), doc.dump());
}

TEST(JsonWriter, JsonLines) {
  const std::string text = write_everywhere(
      [](Writer& w) {
        w.begin_object().member("a", 1).end_object();
        w.value(std::vector<int>{1, 2});
        w.value("three");
        w.null();
      },
      {.json_lines = true});
  EXPECT_EQ(text, "{\"a\":1}\n[1,2]\n\"three\"\nnull\n");
  EXPECT_EQ(written(std::vector<int>{1}, {.line_end = LineEnd::crlf, .json_lines = true}),
            "[1]\r\n");
  StringWriteStream out;
  EXPECT_THROW(Writer(out, {.indent = 2, .json_lines = true}), bufstream::UsageError);
}

TEST(JsonWriter, StandardContainers) {
  EXPECT_EQ(written(std::vector<int>{1, 2, 3}), "[1,2,3]");
  EXPECT_EQ(written(std::vector<bool>{true, false}), "[true,false]");
  EXPECT_EQ(written(std::vector<std::string>{}), "[]");
  EXPECT_EQ(written(std::array<double, 2>{0.5, 2}), "[0.5,2.0]");
  EXPECT_EQ(written(std::map<std::string, int>{{"b", 2}, {"a", 1}}), R"({"a":1,"b":2})");
  EXPECT_EQ(written(std::unordered_map<std::string, int>{{"only", 1}}), R"({"only":1})");
  EXPECT_EQ(written(std::tuple<int, std::string, bool>{1, "x", true}), R"([1,"x",true])");
  EXPECT_EQ(written(std::pair<std::string, double>{"p", 1}), R"(["p",1.0])");
  EXPECT_EQ(written(std::optional<int>{}), "null");
  EXPECT_EQ(written(std::optional<int>{4}), "4");
  EXPECT_EQ(
      written(std::vector<std::optional<std::vector<int>>>{std::nullopt, std::vector<int>{7}}),
      "[null,[7]]");
  EXPECT_EQ(written(std::map<std::string, std::vector<std::map<std::string, int>>>{
                {"k", {{{"x", 1}}, {}}}}),
            R"({"k":[{"x":1},{}]})");
}

TEST(JsonWriter, NlohmannValues) {
  const nlohmann::json doc = {
      {"i", -3},           {"u", 18446744073709551615ull}, {"f", 1.0},
      {"s", "\xc3\xa9\n"}, {"a", {1, nullptr, false}},     {"o", nlohmann::json::object()}};
  EXPECT_EQ(written(doc),
            R"({"a":[1,null,false],"f":1.0,"i":-3,"o":{},"s":"é\n","u":18446744073709551615})");
  EXPECT_THROW(written(nlohmann::json::binary({1, 2})), bufstream::UsageError);
  StringWriteStream out;
  Writer w(out);
  EXPECT_THROW(w.value(nlohmann::json::array({1, "ok", "bad\xff"})), bufstream::UsageError);
  EXPECT_EQ(out.view(), R"([1,"ok")");  // what precedes the bad string is written
}

TEST(JsonWriter, DeepNlohmannValueIsWrittenIteratively) {
  nlohmann::json doc = nlohmann::json::array();
  nlohmann::json* v = &doc;
  for (int i = 0; i < 20000; ++i) v = &v->emplace_back(nlohmann::json::array());
  StringWriteStream out;
  json::write(out, doc);
  EXPECT_EQ(out.view(), std::string(20001, '[') + std::string(20001, ']'));
}

// ---- Misuse --------------------------------------------------------------------------------

TEST(JsonWriter, MisuseThrowsUsageError) {
  const auto misuse = [](auto f) {
    StringWriteStream out;
    Writer w(out);
    EXPECT_THROW(f(w), bufstream::UsageError);
  };
  misuse([](Writer& w) { w.begin_object().value(1); });  // value where a key is due
  misuse([](Writer& w) { w.begin_object().key("a").value(1).value(2); });  // again
  misuse([](Writer& w) { w.key("a"); });                                   // key outside an object
  misuse([](Writer& w) { w.begin_array().key("a"); });                     // key in an array
  misuse([](Writer& w) { w.begin_object().key("a").key("b"); });           // two keys in a row
  misuse([](Writer& w) { w.end_array(); });                                // nothing open
  misuse([](Writer& w) { w.begin_array().end_object(); });                 // wrong closer
  misuse([](Writer& w) { w.begin_object().end_array(); });
  misuse([](Writer& w) { w.begin_object().key("a").end_object(); });  // key without value
  misuse([](Writer& w) { w.value(1).value(2); });                     // two documents
  misuse([](Writer& w) { w.begin_array().finish(); });                // unclosed at finish
  misuse([](Writer& w) { w.begin_object().key("a").begin_array().close(); });
  misuse([](Writer& w) { w.finish(); });  // nothing written
}

TEST(JsonWriter, MisuseLeavesTheOutputIntact) {
  StringWriteStream out;
  Writer w(out);
  w.begin_object().key("a").value(1);
  EXPECT_THROW(w.value(2), bufstream::UsageError);
  EXPECT_THROW(w.end_array(), bufstream::UsageError);
  w.key("b").value(2).end_object();
  w.finish();
  EXPECT_EQ(out.view(), R"({"a":1,"b":2})");
}

TEST(JsonWriter, FinishReportsTheOpenContainer) {
  StringWriteStream out;
  Writer w(out);
  w.begin_array().begin_object();
  try {
    w.finish();
    FAIL() << "no error";
  } catch (const bufstream::UsageError& e) {
    EXPECT_STREQ(e.what(), "json::Writer: finish() with 2 unclosed containers (an object is open)");
  }
}

// ---- Write errors --------------------------------------------------------------------------

TEST(JsonWriter, WriteErrorsSurface) {
  // Fail the sink at each of its first calls in turn: the failure always reaches the caller
  // as an IoError, from a write call or at the latest from finish().
  const std::vector<int> values(30000, 123456);  // 210 kB: several buffers of 64 KiB
  for (std::size_t fail_at = 1; fail_at <= 4; ++fail_at) {
    for (std::size_t size : bufstream::testing::tiny_buffer_sizes()) {
      SCOPED_TRACE("fail at call " + std::to_string(fail_at) + ", buffer " + std::to_string(size));
      bufstream::testing::FaultyWriteStream sink({.fail_at = fail_at, .error_number = ENOSPC});
      BufferedWriteStream out(sink, BufferOptions{.buffer_size = size});
      Writer w(out);
      try {
        w.value(values);
        w.finish();
        FAIL() << "the failure was not reported";
      } catch (const IoError& e) {
        EXPECT_EQ(e.code(), std::errc::no_space_on_device);
      }
      EXPECT_THROW(out.flush(), IoError);  // sticky
    }
  }
}

TEST(JsonWriter, UnbufferedFailureSurfacesAtTheFailingCall) {
  bufstream::testing::FaultyWriteStream sink({.fail_at = 3, .error_number = EIO});
  Writer w(sink);
  w.begin_array();
  w.value(1);
  EXPECT_THROW(w.value(2), IoError);
}

TEST(JsonWriter, ShortWritesAndInterruptsLoseNothing) {
  bufstream::testing::FaultyWriteStream sink({.max_per_call = 3, .interrupt_every = 2});
  {
    BufferedWriteStream out(sink, BufferOptions{.buffer_size = 7});
    json::write(out, nlohmann::json::parse(R"({"a":[1,2,3],"b":"long enough to span calls"})"));
  }
  EXPECT_EQ(sink.written(), R"({"a":[1,2,3],"b":"long enough to span calls"})");
}

TEST(JsonWriter, CloseClosesTheStream) {
  bufstream::testing::FaultyWriteStream sink;
  Writer w(sink);
  w.value(1);
  w.close();
  EXPECT_TRUE(sink.closed());
  EXPECT_EQ(sink.written(), "1");
}

}  // namespace
}  // namespace bufstream::json
