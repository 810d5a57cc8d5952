// json::Reader beyond single documents: sequences and JSON Lines, events, the pull API,
// nesting limits, long tokens, positions and the failed state.
#include <charconv>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <bufstream/json/document.hpp>

#include "json_test_support.hpp"

namespace bufstream::json {
namespace {

using testing_support::expect_parse_error;
using testing_support::ExpectedError;
using testing_support::for_each_reader;

// Every test that reads whole values runs twice: into nlohmann::json (Reader::read,
// json::read) and into a json::Document (Document::parse_next, Document::parse), whose value is
// compared through to_nlohmann. Errors are the same ParseErrors either way.
struct ValueReader {
  std::string name;
  nlohmann::json (*next)(Reader&);
  nlohmann::json (*whole)(ReadStream&, ReadOptions);
};

const ValueReader value_readers[] = {
    {"nlohmann", [](Reader& r) { return r.read(); },
     [](ReadStream& in, ReadOptions options) { return json::read(in, std::move(options)); }},
    {"document", [](Reader& r) { return to_nlohmann(Document::parse_next(r).root()); },
     [](ReadStream& in, ReadOptions options) {
       return to_nlohmann(Document::parse(in, std::move(options)).root());
     }},
};

class JsonReaderValues : public ::testing::TestWithParam<ValueReader> {
 protected:
  /// The next value of a sequence.
  static nlohmann::json next(Reader& r) { return GetParam().next(r); }
  /// A stream's one value; anything after it is an error.
  static nlohmann::json whole(ReadStream& in, ReadOptions options = {}) {
    return GetParam().whole(in, std::move(options));
  }
};

INSTANTIATE_TEST_SUITE_P(Dom, JsonReaderValues, ::testing::ValuesIn(value_readers),
                         [](const ::testing::TestParamInfo<ValueReader>& p) {
                           return p.param.name;
                         });

// ---- Sequences ---------------------------------------------------------------------------

TEST_P(JsonReaderValues, ReadsJsonLines) {
  const std::string text = "{\"a\":1}\n[2,3]\n\"four\"\n5\n\nnull\n";
  for_each_reader(text, [&](ReadStream& in) {
    Reader r(in);
    std::vector<nlohmann::json> values;
    while (!r.at_end()) values.push_back(next(r));
    ASSERT_EQ(values.size(), 5u);
    EXPECT_EQ(values[0], nlohmann::json({{"a", 1}}));
    EXPECT_EQ(values[1], nlohmann::json::array({2, 3}));
    EXPECT_EQ(values[2], "four");
    EXPECT_EQ(values[3], 5);
    EXPECT_TRUE(values[4].is_null());
  });
}

// Twenty integer digits wrap a 64-bit mantissa: 2^64 wraps to exactly 0, which must not be
// taken for an integer part of "0" (a fuzzer found 18446744073709551616.0 read as 0.0).
TEST_P(JsonReaderValues, NumbersWhoseDigitsWrapSixtyFourBits) {
  const struct {
    std::string text;
    double expected;
  } cases[] = {
      {"18446744073709551616.0", 18446744073709551616.0},
      {"18446744073709551616", 18446744073709551616.0},
      {"36893488147419103232.5", 36893488147419103232.0},
      {"-18446744073709551616.25e-3", -18446744073709551.61625},
      {"0.00018446744073709551616", 0.00018446744073709551616},
  };
  for (const auto& c : cases) {
    for_each_reader("[" + c.text + "]", [&](ReadStream& in) {
      const nlohmann::json v = Reader(in).read();
      EXPECT_EQ(v[0].get<double>(), c.expected) << c.text;
    });
  }
}

// RFC 8259 lets a parser ignore a byte-order mark; the reader skips one at the start of the
// stream, unless told not to.
TEST_P(JsonReaderValues, SkipsAByteOrderMarkAtTheStart) {
  for (const std::string text :
       {"\xef\xbb\xbf[1,\"\xc3\xa9\"]", "\xef\xbb\xbf [1,\"\xc3\xa9\"]\n"}) {
    for_each_reader(text, [&](ReadStream& in) {
      Reader r(in);
      EXPECT_EQ(next(r), nlohmann::json::parse("[1,\"\xc3\xa9\"]"));
      r.finish();
    });
  }
  // JSON Lines: the mark before the first value only; positions count its three bytes.
  for_each_reader(
      "\xef\xbb\xbf"
      "1\n2\n\xef\xbb\xbf"
      "3\n",
      [&](ReadStream& in) {
        Reader r(in);
        EXPECT_EQ(next(r), 1);
        EXPECT_EQ(next(r), 2);
        expect_parse_error([&] { next(r); }, {3, 1, 7, "expected a value but found byte 0xef"});
      });
  for_each_reader("\xef\xbb\xbf[1,]", [&](ReadStream& in) {
    expect_parse_error([&] { Reader(in).read(); }, {1, 7, 6, "expected a value but found ']'"});
  });
}

TEST_P(JsonReaderValues, AByteOrderMarkIsAnErrorWhenNotSkipped) {
  for_each_reader("\xef\xbb\xbf[1]", [&](ReadStream& in) {
    Reader r(in, {.skip_bom = false});
    expect_parse_error([&] { next(r); }, {1, 1, 0, "expected a value but found byte 0xef"});
  });
}

TEST_P(JsonReaderValues, ReadsConcatenatedValues) {
  const std::string text = "[1][2]{\"x\":true}\"s\"3 4";
  for_each_reader(text, [&](ReadStream& in) {
    Reader r(in);
    std::vector<nlohmann::json> values;
    while (!r.at_end()) values.push_back(next(r));
    EXPECT_EQ(nlohmann::json(values), nlohmann::json::parse(R"([[1],[2],{"x":true},"s",3,4])"));
  });
}

TEST(JsonReader, EmptySequenceHasNoValues) {
  for_each_reader(" \n\t\r\n", [](ReadStream& in) {
    Reader r(in);
    EXPECT_TRUE(r.at_end());
    EXPECT_NO_THROW(r.finish());
  });
}

TEST_P(JsonReaderValues, ReadPastTheEndOfASequenceIsAnError) {
  for_each_reader("1\n", [&](ReadStream& in) {
    Reader r(in);
    EXPECT_EQ(next(r), 1);
    expect_parse_error([&] { next(r); }, {2, 1, 2, "expected a value but found end of input"});
  });
}

TEST_P(JsonReaderValues, ErrorInALaterLineOfASequence) {
  for_each_reader("[1]\n[2]\n[3,]\n", [&](ReadStream& in) {
    Reader r(in);
    next(r);
    next(r);
    expect_parse_error([&] { next(r); }, {3, 4, 11, "expected a value but found ']'"});
  });
}

TEST(JsonReader, TypedSequence) {
  for_each_reader("[1,2]\n[3]\n[]\n", [](ReadStream& in) {
    Reader r(in);
    std::vector<std::vector<int>> lines;
    while (!r.at_end()) lines.push_back(r.read<std::vector<int>>());
    EXPECT_EQ(lines, (std::vector<std::vector<int>>{{1, 2}, {3}, {}}));
  });
}

// ---- Errors: names, the failed state -----------------------------------------------------

TEST_P(JsonReaderValues, ErrorNamesTheSource) {
  MemoryReadStream in("{\n  \"a\": [1, 2}\n}");
  try {
    whole(in, {.source_name = "data.json"});
    FAIL() << "no error";
  } catch (const ParseError& e) {
    EXPECT_STREQ(e.what(), "data.json:2:13: expected ',' or ']' but found '}' (byte 14)");
    EXPECT_EQ(e.source_name(), "data.json");
  }
}

TEST_P(JsonReaderValues, AfterAnErrorEveryCallThrowsItAgain) {
  MemoryReadStream in("[1,x] [2]");
  Reader r(in);
  EXPECT_THROW(next(r), ParseError);
  expect_parse_error([&] { r.at_end(); }, {1, 4, 3, "expected a value but found 'x'"});
  expect_parse_error([&] { next(r); }, {1, 4, 3, "expected a value but found 'x'"});
}

// ---- Depth -------------------------------------------------------------------------------

std::string nested(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

TEST_P(JsonReaderValues, AcceptsNestingUpToTheLimit) {
  const std::string text = nested(bufstream::default_max_depth);
  for_each_reader(text, [&](ReadStream& in) {
    const nlohmann::json doc = whole(in);
    const nlohmann::json* v = &doc;
    std::size_t depth = 0;
    while (v->is_array() && !v->empty()) {
      v = &(*v)[0];
      ++depth;
    }
    EXPECT_EQ(depth + 1, bufstream::default_max_depth);
  });
}

TEST_P(JsonReaderValues, RejectsNestingBeyondTheLimit) {
  const std::string text = nested(bufstream::default_max_depth + 1);
  for_each_reader(text, [&](ReadStream& in) {
    expect_parse_error(
        [&] { whole(in); },
        {1, 513, 512, "expected at most 512 nested arrays and objects but found '[' at depth 513"});
  });
}

TEST_P(JsonReaderValues, DepthLimitIsAnOption) {
  MemoryReadStream ok(R"({"a":[{"b":1}]})");
  EXPECT_NO_THROW(whole(ok, {.max_depth = 3}));
  MemoryReadStream deep(R"({"a":[{"b":[]}]})");
  expect_parse_error(
      [&] { whole(deep, {.max_depth = 3}); },
      {1, 12, 11, "expected at most 3 nested arrays and objects but found '[' at depth 4"});
}

TEST(JsonReader, HugeNestingFailsCleanlyInEveryInterface) {
  // A hundred thousand levels: an error, not a stack overflow, whatever the consumer.
  const std::string text = std::string(100000, '[') + std::string(100000, ']');
  const ExpectedError error{
      1, 513, 512, "expected at most 512 nested arrays and objects but found '[' at depth 513"};
  {
    MemoryReadStream in(text);
    expect_parse_error([&] { json::read(in); }, error);
  }
  {
    MemoryReadStream in(text);
    Reader r(in);
    expect_parse_error([&] { r.skip_value(); }, error);
  }
  {
    MemoryReadStream in(text);
    expect_parse_error([&] { Document::parse(in); }, error);
  }
  {
    MemoryReadStream in(text);
    expect_parse_error([&] { json::read<std::vector<std::vector<int>>>(in); },
                       {1, 3, 2, "expected a number but found '['"});
  }
  // With the limit lifted, the DOM reader and skip are still iterative.
  MemoryReadStream in(text);
  Reader r(in, {.max_depth = 1000000});
  EXPECT_NO_THROW(r.skip_value());
}

// ---- Long tokens --------------------------------------------------------------------------

TEST(JsonReader, StringsLongerThanAnyBuffer) {
  std::string content;
  for (int i = 0; i < 20000; ++i) content += "abc\xc3\xa9\xf0\x9f\x98\x80";
  std::string text = "[\"" + content + "\",\"";
  std::string escaped_expect;
  for (int i = 0; i < 5000; ++i) {
    text += "\\n\\u00e9\\ud83d\\ude00x";
    escaped_expect += "\n\xc3\xa9\xf0\x9f\x98\x80x";
  }
  text += "\"]";
  for_each_reader(text, [&](ReadStream& in) {
    const auto v = json::read<std::vector<std::string>>(in);
    ASSERT_EQ(v.size(), 2u);
    EXPECT_EQ(v[0], content);
    EXPECT_EQ(v[1], escaped_expect);
  });
  for_each_reader(text, [&](ReadStream& in) {
    const Document doc = Document::parse(in);
    ASSERT_EQ(doc.root().size(), 2u);
    EXPECT_EQ(doc.root()[0].as_string(), content);
    EXPECT_EQ(doc.root()[1].as_string(), escaped_expect);
  });
}

TEST_P(JsonReaderValues, NumbersLongerThanTheBuffer) {
  const std::string digits = "3." + std::string(300, '1') + "e-2";
  const std::string big = "1" + std::string(30, '0');
  const std::string text = "[" + digits + "," + big + ",-" + big + "]";
  for_each_reader(text, [&](ReadStream& in) {
    const nlohmann::json doc = whole(in);
    EXPECT_EQ(doc[0].get<double>(), 0.031111111111111111);
    EXPECT_EQ(doc[1].get<double>(), 1e30);
    EXPECT_EQ(doc[2].get<double>(), -1e30);
  });
}

TEST(JsonReader, StringBytesThatMatterAtEveryPosition) {
  // Strings are scanned sixteen or eight bytes at a time: put the one byte that matters at every
  // position of strings of every length around the word size.
  for (std::size_t length = 1; length <= 40; ++length) {
    for (std::size_t at = 0; at < length; ++at) {
      std::string plain(length, 'a');
      std::string text = plain;
      text.replace(at, 1, "\\n");
      std::string expected = plain;
      expected[at] = '\n';
      text = "\"" + text + "\"";
      MemoryReadStream in1(text);
      EXPECT_EQ(json::read<std::string>(in1), expected) << text;
      EXPECT_EQ(Document::parse(text).root().as_string(), expected) << text;

      text = plain;
      text.replace(at, 1, "\xc3\xa9");
      expected = text;
      text = "\"" + text + "\"";
      MemoryReadStream in2(text);
      EXPECT_EQ(json::read<std::string>(in2), expected) << text;
      EXPECT_EQ(Document::parse(text).root().as_string(), expected) << text;

      text = plain;
      text[at] = '\x01';
      text = "\"" + text + "\"";
      const ExpectedError control{
          1, at + 2, at + 1,
          "expected '\"' or a string character (control characters must be escaped) "
          "but found byte 0x01"};
      MemoryReadStream in3(text);
      expect_parse_error([&] { json::read<std::string>(in3); }, control);
      expect_parse_error([&] { Document::parse(text); }, control);
    }
  }
}

// The reader classifies up to 1 KiB of its window at a time in 64-byte blocks (the token
// masks) and skips whitespace and string bytes with them: runs that end just before, at and
// after a block's or a stretch's end, through every buffer size.
TEST_P(JsonReaderValues, WhitespaceRunsAcrossScanBlocks) {
  std::mt19937 random(3);
  for (const std::size_t n :
       {1u, 2u, 62u, 63u, 64u, 65u, 127u, 128u, 129u, 1022u, 1023u, 1024u, 1025u, 1100u, 2100u}) {
    std::string run;
    for (std::size_t i = 0; i < n; ++i) run += " \t\r\n"[random() % 4];
    const std::string text = "[" + run + "1" + run + "," + run + "\"a\"" + run + "x";
    std::uint64_t line = 1;
    std::uint64_t line_start = 0;
    for (std::size_t i = 0; i + 1 < text.size(); ++i) {
      if (text[i] == '\n') {
        ++line;
        line_start = i + 1;
      }
    }
    const std::uint64_t at = text.size() - 1;
    const ExpectedError error{line, at - line_start + 1, at, "expected ',' or ']' but found 'x'"};
    for_each_reader(text, [&](ReadStream& in) { expect_parse_error([&] { whole(in); }, error); });
  }
}

TEST_P(JsonReaderValues, StringRunsAcrossScanBlocks) {
  // Strings after whitespace are read with the masks from their first byte; in compact JSON,
  // from their first non-ASCII byte.
  for (const std::string space : {"", " "}) {
    for (std::size_t before = 0; before <= 1100; before += before < 140 || before > 1010 ? 1 : 61) {
      const std::string plain(before, 'a');
      // Multi-byte sequences at every place, one cut by each block's end somewhere.
      const std::string content = plain + "\xc3\xa9\xe5\xa5\xbd\xf0\x9f\x98\x80" + plain + "z";
      const std::string text =
          "[" + space + "\"" + content + "\"," + space + "\"" + plain + "\\\"\"]";
      for_each_reader(text, [&](ReadStream& in) {
        const nlohmann::json v = whole(in);
        ASSERT_EQ(v[0].get<std::string>(), content) << before;
        ASSERT_EQ(v[1].get<std::string>(), plain + "\"") << before;
      });
      // An invalid sequence after a valid one, and a control byte, after `before` bytes.
      const std::string bad = "[" + space + "\"" + plain + "\xc3\xa9\xc3(\"]";
      const std::size_t at = space.size() + before + 4;
      const ExpectedError invalid{1, at + 1, at,
                                  "expected UTF-8 text but found byte 0xc3 (invalid UTF-8: invalid "
                                  "continuation byte)"};
      for_each_reader(bad,
                      [&](ReadStream& in) { expect_parse_error([&] { whole(in); }, invalid); });
      const std::string control = "[" + space + "\"" + plain + "\xc3\xa9\x1f\"]";
      const ExpectedError control_error{
          1, at + 1, at,
          "expected '\"' or a string character (control characters must be escaped) but found byte "
          "0x1f"};
      for_each_reader(
          control, [&](ReadStream& in) { expect_parse_error([&] { whole(in); }, control_error); });
    }
  }
}

// Keys and strings are views of the window when they lie there whole: a key followed by
// whitespace, which may end the window before the ':', is kept before the refill.
TEST_P(JsonReaderValues, KeysAndStringsAtEveryWindowEdge) {
  std::string text = "{";
  for (std::size_t n = 0; n < 24; ++n) {
    const std::string name = "k" + std::string(n, static_cast<char>('a' + n % 26));
    text += "\"" + name + "\"" + std::string(n % 4, ' ') + (n % 3 == 0 ? "\n" : "") + ":\"v" +
            std::string(n, 'w') + "\"" + (n % 2 == 0 ? " , " : ",");
  }
  text += "\"last\":[\"\",\"x\"]}";
  const nlohmann::json expected = nlohmann::json::parse(text);
  for_each_reader(text, [&](ReadStream& in) { EXPECT_EQ(whole(in), expected); });
}

// ---- Events ------------------------------------------------------------------------------

struct Recorder {
  std::vector<std::string> events;
  void null() { events.push_back("null"); }
  void boolean(bool b) { events.push_back(b ? "true" : "false"); }
  void integer(std::int64_t i) { events.push_back("int " + std::to_string(i)); }
  void unsigned_integer(std::uint64_t u) { events.push_back("uint " + std::to_string(u)); }
  void floating(double d) { events.push_back("double " + nlohmann::json(d).dump()); }
  void string(std::string_view s) { events.push_back("string " + std::string(s)); }
  void key(std::string_view s) { events.push_back("key " + std::string(s)); }
  void begin_array() { events.push_back("["); }
  void end_array() { events.push_back("]"); }
  void begin_object() { events.push_back("{"); }
  void end_object() { events.push_back("}"); }
};

TEST(JsonReader, EventsInDocumentOrder) {
  const std::string text =
      R"({"a":[1,-2,3.5,"x",true,false,null,{},[]],"b":{"c":18446744073709551615}})";
  for_each_reader(text, [](ReadStream& in) {
    Reader r(in);
    Recorder rec;
    r.parse(rec);
    r.finish();
    const std::vector<std::string> expected{"{",
                                            "key a",
                                            "[",
                                            "uint 1",
                                            "int -2",
                                            "double 3.5",
                                            "string x",
                                            "true",
                                            "false",
                                            "null",
                                            "{",
                                            "}",
                                            "[",
                                            "]",
                                            "]",
                                            "key b",
                                            "{",
                                            "key c",
                                            "uint 18446744073709551615",
                                            "}",
                                            "}"};
    EXPECT_EQ(rec.events, expected);
  });
}

TEST(JsonReader, EventsOfAScalarDocument) {
  for_each_reader("  \"only\"  ", [](ReadStream& in) {
    Reader r(in);
    Recorder rec;
    r.parse(rec);
    r.finish();
    EXPECT_EQ(rec.events, std::vector<std::string>{"string only"});
  });
}

TEST(JsonReader, EventsStopAtTheFirstError) {
  MemoryReadStream in("[1,2,oops]");
  Reader r(in);
  Recorder rec;
  EXPECT_THROW(r.parse(rec), ParseError);
  EXPECT_EQ(rec.events, (std::vector<std::string>{"[", "uint 1", "uint 2"}));
}

// ---- Pull API ----------------------------------------------------------------------------

TEST(JsonReader, PullApiWalksADocument) {
  const std::string text =
      R"( {"name": "Ada", "tags": ["x", "y"], "skip": {"deep": [1, {"a": null}]}, "n": -7} )";
  for_each_reader(text, [](ReadStream& in) {
    Reader r(in);
    EXPECT_EQ(r.peek(), ValueType::object);
    r.begin_object();
    std::vector<std::string> seen;
    while (auto key = r.next_key()) {
      const std::string k(*key);
      seen.push_back(k);
      if (k == "name") {
        EXPECT_EQ(r.peek(), ValueType::string);
        EXPECT_EQ(r.read_string(), "Ada");
      } else if (k == "tags") {
        r.begin_array();
        std::vector<std::string> tags;
        while (r.next_element()) tags.emplace_back(r.read_string());
        EXPECT_EQ(tags, (std::vector<std::string>{"x", "y"}));
      } else if (k == "n") {
        EXPECT_EQ(r.peek(), ValueType::number);
        EXPECT_EQ(r.read_integer<int>(), -7);
      } else {
        r.skip_value();
      }
    }
    EXPECT_EQ(r.depth(), 0u);
    r.finish();
    EXPECT_EQ(seen, (std::vector<std::string>{"name", "tags", "skip", "n"}));
  });
}

TEST(JsonReader, ExplicitEndArray) {
  for_each_reader("[1, 2 ]", [](ReadStream& in) {
    Reader r(in);
    r.begin_array();
    ASSERT_TRUE(r.next_element());
    EXPECT_EQ(r.read_integer<int>(), 1);
    ASSERT_TRUE(r.next_element());
    EXPECT_EQ(r.read_integer<int>(), 2);
    r.end_array();
    r.finish();
  });
  MemoryReadStream in("[1, 2]");
  Reader r(in);
  r.begin_array();
  r.next_element();
  r.read_integer<int>();
  expect_parse_error([&] { r.end_array(); }, {1, 3, 2, "expected ']' but found ','"});
}

TEST(JsonReader, NumbersKeepTheirKind) {
  for_each_reader("[0, -0, 5, -5, 1.0, 1e2, 18446744073709551616]", [](ReadStream& in) {
    Reader r(in);
    r.begin_array();
    std::vector<Number::Kind> kinds;
    while (r.next_element()) kinds.push_back(r.read_number().kind);
    using K = Number::Kind;
    // "-0" is the integer 0, as "0" is.
    EXPECT_EQ(kinds, (std::vector<K>{K::unsigned_integer, K::unsigned_integer, K::unsigned_integer,
                                     K::signed_integer, K::floating, K::floating, K::floating}));
  });
}

TEST(JsonReader, PositionAndTokenPosition) {
  MemoryReadStream in("[\n  10,\n  20\n]");
  Reader r(in);
  r.begin_array();
  r.next_element();
  r.read_integer<int>();
  EXPECT_EQ(r.token_position(), (SourcePosition{4, 2, 3}));
  EXPECT_EQ(r.position(), (SourcePosition{6, 2, 5}));
}

}  // namespace
}  // namespace bufstream::json

namespace bufstream::json {
namespace {

// The reader converts most numbers without std::from_chars (see read_number); whatever path a
// number takes, the result must be the correctly rounded double that from_chars gives.
TEST(JsonReader, NumbersAreCorrectlyRoundedOnEveryPath) {
  std::mt19937_64 rng(12345);
  std::string text = "[";
  std::vector<std::string> numbers;
  for (int i = 0; i < 40000; ++i) {
    const int digits = 1 + static_cast<int>(rng() % 20);
    std::string mantissa;
    for (int d = 0; d < digits; ++d) mantissa += static_cast<char>('0' + rng() % 10);
    // Built with append only: GCC 12 warns falsely (-Wrestrict) on "literal" + std::string.
    std::string n = rng() % 2 ? "-" : "";
    const std::size_t point = rng() % (mantissa.size() + 1);
    if (point == 0) {
      n += '0';
    } else {
      if (point > 1 && mantissa[0] == '0') mantissa[0] = '1';  // no leading zero
      n.append(mantissa, 0, point);
    }
    if (point < mantissa.size()) n.append(".").append(mantissa, point);
    if (rng() % 3 == 0) n.append("e").append(std::to_string(static_cast<int>(rng() % 70) - 35));
    if (n.find_first_of(".e") == std::string::npos) n.append(".0");
    numbers.push_back(n);
    if (i > 0) text += ',';
    text += n;
  }
  // Halfway cases between two doubles, where one rounding too many shows.
  for (const char* n :
       {"9007199254740993", "9007199254740993.0", "0.1000000000000000055511151231257827",
        "2.2250738585072011e-308", "1.00000000000000011102230246251565404236316680908203125",
        "1.0000000000000001110223024625156540423631668090820312", "144115188075855877e-17",
        "7.2057594037927933e+16", "123456789012345678e5", "8.100445524503848e-05",
        "0.30000000000000004"}) {
    numbers.push_back(n);
    text.append(",").append(n);
  }
  text += "]";
  for_each_reader(text, [&](ReadStream& in) {
    const auto values = json::read<std::vector<double>>(in);
    ASSERT_EQ(values.size(), numbers.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
      double expected = 0;
      std::from_chars(numbers[i].data(), numbers[i].data() + numbers[i].size(), expected);
      ASSERT_EQ(values[i], expected) << numbers[i];
    }
  });
  for_each_reader(text, [&](ReadStream& in) {
    const Document doc = Document::parse(in);
    ASSERT_EQ(doc.root().size(), numbers.size());
    std::size_t i = 0;
    for (const Value v : doc.root().elements()) {
      double expected = 0;
      std::from_chars(numbers[i].data(), numbers[i].data() + numbers[i].size(), expected);
      ASSERT_EQ(v.as_double(), expected) << numbers[i];
      ++i;
    }
  });
}

}  // namespace
}  // namespace bufstream::json
