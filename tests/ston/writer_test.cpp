// The writer, case by case from STON.md; every text is checked through BufferedWriteStreams of
// 1, 2, 3, 7 and 65536 bytes.
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <type_traits>

#include <gtest/gtest.h>

#include <bufstream/ston/writer.hpp>

#include "ston_test_util.hpp"

namespace bufstream::ston {
namespace {

using test::write_everywhere;

const WriteOptions pretty{.indent = 1};

struct LayoutCase {
  Value value;
  std::string_view compact;
  std::string_view pretty;
};

// Each value in both layouts, and each text read back gives the same value and, written
// again, the same text (both layouts are fixed points).
void expect_layouts(const std::vector<LayoutCase>& cases) {
  for (const LayoutCase& c : cases) {
    SCOPED_TRACE(c.compact);
    EXPECT_EQ(write_everywhere(c.value), c.compact);
    EXPECT_EQ(write_everywhere(c.value, pretty), c.pretty);
    for (bool is_pretty : {false, true}) {
      const std::string_view text = is_pretty ? c.pretty : c.compact;
      const Document back = test::parse_everywhere(text);
      EXPECT_EQ(back.root(), c.value) << text;
      EXPECT_EQ(to_string(back.root(), {.indent = is_pretty ? 1U : 0U}), text);
    }
  }
}

TEST(StonWriter, EveryPrimitiveKind) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  expect_layouts({
      {Value(), "nil", "nil"},
      {true, "true", "true"},
      {false, "false", "false"},
      {0, "0", "0"},
      {-42, "-42", "-42"},
      {INT64_MIN, "-9223372036854775808", "-9223372036854775808"},
      {Integer::from_decimal("-123456789012345678901234567890"), "-123456789012345678901234567890",
       "-123456789012345678901234567890"},
      {1.5, "1.5", "1.5"},
      {1.0, "1.0", "1.0"},
      {-0.0, "-0.0", "-0.0"},
      {0.001, "0.001", "0.001"},
      {0.0001, "0.0001", "0.0001"},
      {0.00001, "1.0e-5", "1.0e-5"},
      {123456.0, "123456.0", "123456.0"},
      {1e6, "1.0e6", "1.0e6"},
      {1e100, "1.0e100", "1.0e100"},
      {1.5e-7, "1.5e-7", "1.5e-7"},
      {0.1, "0.1", "0.1"},
      {nan, "Float[#nan]", "Float [ #nan ]"},
      {inf, "Float[#infinity]", "Float [ #infinity ]"},
      {-inf, "Float[#negativeInfinity]", "Float [ #negativeInfinity ]"},
      {Value::fraction(1, 3), "1/3", "1/3"},
      {Value::fraction(-2, 3), "-2/3", "-2/3"},
      {Value::scaled_decimal(1, 3, 2), "1/3s2", "1/3s2"},
      {Value::scaled_decimal(3, 1, 2), "3/1s2", "3/1s2"},
      {"it's", R"('it\'s')", R"('it\'s')"},
      {Symbol{"foo"}, "#foo", "#foo"},
      {Association(Symbol{"key"}, "value"), "#key:'value'", "#key : 'value'"},
      {Association(Symbol{"a"}, Association(Symbol{"b"}, Symbol{"c"})), "#a:#b:#c", "#a : #b : #c"},
  });
}

TEST(StonWriter, EveryContainerKind) {
  Document d;
  expect_layouts({
      {d.list(), "[]", "[ ]"},
      {d.map(), "{}", "{ }"},
      {d.list({1, 2, 3}), "[1,2,3]", "[\n\t1,\n\t2,\n\t3\n]"},
      {d.map({{Symbol{"a"}, 1}, {Symbol{"b"}, d.list({1, 2})}}), "{#a:1,#b:[1,2]}",
       "{\n\t#a : 1,\n\t#b : [\n\t\t1,\n\t\t2\n\t]\n}"},
      {d.map({{Symbol{"a"}, 1}, {"b", 2}, {d.list({1}), 3}}), "{#a:1,'b':2,[1]:3}",
       "{\n\t#a : 1,\n\t'b' : 2,\n\t[\n\t\t1\n\t] : 3\n}"},
      {d.list({d.list(), d.map()}), "[[],{}]", "[\n\t[ ],\n\t{ }\n]"},
      {d.tagged_list("Point", {1, 2}), "Point[1,2]", "Point [ 1, 2 ]"},
      {d.tagged_list("Point", {}), "Point[]", "Point [ ]"},
      {d.tagged_list("OrderedCollection", {1, 2}), "OrderedCollection[1,2]",
       "OrderedCollection [\n\t1,\n\t2\n]"},
      {d.tagged_list("Set", {}), "Set[]", "Set [ ]"},
      {d.tagged_map("User", {{Symbol{"name"}, "x"}, {Symbol{"age"}, 3}}), "User{#name:'x',#age:3}",
       "User {\n\t#name : 'x',\n\t#age : 3\n}"},
      {d.tagged_map("Empty", {}), "Empty{}", "Empty { }"},
      {d.list({d.tagged_list("Point", {1, 2}), std::numeric_limits<double>::quiet_NaN()}),
       "[Point[1,2],Float[#nan]]", "[\n\tPoint [ 1, 2 ],\n\tFloat [ #nan ]\n]"},
      {d.list({Association(Symbol{"a"}, d.list({1}))}), "[#a:[1]]", "[\n\t#a : [\n\t\t1\n\t]\n]"},
  });
}

TEST(StonWriter, LineEndIsConfigurable) {
  Document d;
  EXPECT_EQ(to_string(d.list({1, 2}), {.indent = 1, .line_end = LineEnd::crlf}),
            "[\r\n\t1,\r\n\t2\r\n]");
}

// `indent` and `indent_char` mean what they mean in every format: N indent_chars per level,
// tabs by default (Pharo's layout), spaces if asked; 0 is compact.
TEST(StonWriter, IndentCountsIndentCharsPerLevel) {
  Document d;
  const List list = d.list({1, d.tagged_map("A", {{Symbol{"k"}, d.list({2})}})});
  EXPECT_EQ(to_string(list, {.indent = 0}), "[1,A{#k:[2]}]");
  EXPECT_EQ(to_string(list, {.indent = 1}), "[\n\t1,\n\tA {\n\t\t#k : [\n\t\t\t2\n\t\t]\n\t}\n]");
  EXPECT_EQ(to_string(list, {.indent = 2, .indent_char = ' '}),
            "[\n  1,\n  A {\n    #k : [\n      2\n    ]\n  }\n]");
  EXPECT_EQ(to_string(list, {.indent = 2}),
            "[\n\t\t1,\n\t\tA {\n\t\t\t\t#k : [\n\t\t\t\t\t\t2\n\t\t\t\t]\n\t\t}\n]");
  // The streaming calls lay out the same way.
  StringWriteStream out;
  Writer w(out, {.indent = 3, .indent_char = ' '});
  w.begin_list();
  w.value(1);
  w.end_list();
  EXPECT_EQ(out.view(), "[\n   1\n]");
  EXPECT_EQ(parse(to_string(list, {.indent = 2, .indent_char = ' '})).root(), list);
}

TEST(StonWriter, AnIndentCharOtherThanTabOrSpaceIsAUsageError) {
  StringWriteStream out;
  for (const char c : {'x', '\n', '\0'}) {
    try {
      Writer w(out, {.indent = 1, .indent_char = c});
      ADD_FAILURE() << "indent_char " << int{c} << " was taken";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("ston::Writer: indent_char must be '\\t' or ' '"),
                std::string::npos)
          << e.what();
    }
  }
}

TEST(StonWriter, SymbolsAreBareOrQuotedByTheRule) {
  struct Case {
    std::string_view name;
    std::string_view written;
  };
  const std::vector<Case> cases = {
      {"foo", "#foo"},
      {"foo.bar-baz_1/2", "#foo.bar-baz_1/2"},
      {"Foo123", "#Foo123"},
      {"1", "#1"},
      {"with space", "#'with space'"},
      {"", "#''"},
      {"a:b", "#'a:b'"},
      {"it's", R"(#'it\'s')"},
      {"caf\xC3\xA9", "#'caf\xC3\xA9'"},
  };
  for (const Case& c : cases) {
    const Value v = Symbol{std::string(c.name)};
    EXPECT_EQ(write_everywhere(v), c.written);
    EXPECT_EQ(test::parse_everywhere(c.written).root(), v);
  }
}

TEST(StonWriter, StringEscapes) {
  struct Case {
    std::string value;
    std::string_view ston;
    std::string_view ascii_only;
  };
  const std::vector<Case> cases = {
      {"plain", "'plain'", "'plain'"},
      {"it's", R"('it\'s')", R"('it\'s')"},
      {"say \"hi\" a/b", R"('say "hi" a/b')", R"('say "hi" a/b')"},
      {"\\", R"('\\')", R"('\\')"},
      {"\b\t\n\f\r", R"('\b\t\n\f\r')", R"('\b\t\n\f\r')"},
      {std::string("\0\x01\x1f\x7f", 4), R"('\u0000\u0001\u001F\u007F')",
       R"('\u0000\u0001\u001F\u007F')"},
      {"\xC2\x80\xC2\x9F\xC2\xA0", "'\\u0080\\u009F\xC2\xA0'", R"('\u0080\u009F\u00A0')"},
      {"caf\xC3\xA9 \xE2\x82\xAC", "'caf\xC3\xA9 \xE2\x82\xAC'", R"('caf\u00E9 \u20AC')"},
      {"\xF0\x9F\x98\x80", "'\xF0\x9F\x98\x80'", R"('\uD83D\uDE00')"},
      {"~", "'~'", "'~'"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.ston);
    EXPECT_EQ(write_everywhere(c.value), c.ston);
    EXPECT_EQ(write_everywhere(c.value, {.ascii_only = true}), c.ascii_only);
    EXPECT_EQ(test::parse_everywhere(c.ston).root(), Value(c.value));
    EXPECT_EQ(test::parse_everywhere(c.ascii_only).root(), Value(c.value));
  }
}

// The writer finds the bytes to escape a block at a time (16 or 8 bytes, the last block
// overlapping the one before): every such byte at every position of strings of every length
// around the block sizes must be escaped exactly as the byte-by-byte rule says.
TEST(StonWriter, EscapedByteAtEveryPositionOfEveryLength) {
  // What STON.md says for one byte or character: the delimiter and backslash get a backslash,
  // the named controls their letter, the other controls, DEL and U+0080..U+009F \uXXXX.
  const auto escaped = [](std::string_view c, char quote) -> std::string {
    if (c == "\xC2\x85") return "\\u0085";  // a C1 control
    if (c.size() > 1) return std::string(c);
    switch (c[0]) {
      case '\\': return "\\\\";
      case '\n': return "\\n";
      case '\t': return "\\t";
      case '\x01': return "\\u0001";
      case '\x1f': return "\\u001F";
      case '\x7f': return "\\u007F";
      default: return c[0] == quote ? std::string{'\\', quote} : std::string(c);
    }
  };
  // Escaped or not, each kind of byte the block test looks at, and its neighbours.
  const std::vector<std::string> specials = {"'",    "\"",   "\\", "\n", "\t",       "\x01",
                                             "\x1f", "\x7f", " ",  "~",  "\xC2\x85", "\xC3\xA9"};
  const char quote = '\'';
  for (std::size_t length = 1; length <= 40; ++length) {
    for (const std::string& special : specials) {
      for (std::size_t at = 0; at + special.size() <= length; ++at) {
        std::string value(length - special.size(), 'a');
        value.insert(at, special);
        std::string expected(1, quote);
        expected += std::string(at, 'a') + escaped(special, quote) +
                    std::string(length - special.size() - at, 'a') + quote;
        SCOPED_TRACE(::testing::Message()
                     << "length " << length << ", byte "
                     << static_cast<int>(static_cast<unsigned char>(special[0])) << " at " << at);
        ASSERT_EQ(write_everywhere(Value(value)), expected);
      }
    }
  }
}

TEST(StonWriter, LongStringsAreWrittenWhole) {
  // Longer than what is written in one piece, with an escape near each end and none.
  for (const std::size_t length :
       {std::size_t{4095}, std::size_t{4096}, std::size_t{4097}, std::size_t{70000}}) {
    const std::string plain(length, 'x');
    EXPECT_EQ(write_everywhere(Value(plain)), "'" + plain + "'");
    std::string quoted = plain;
    quoted[1] = '\'';
    quoted[length - 2] = '\n';
    EXPECT_EQ(write_everywhere(Value(quoted)), "'x\\'" + std::string(length - 4, 'x') + "\\nx'");
  }
}

TEST(StonWriter, InvalidUtf8IsAnErrorNotSilentGarbage) {
  EXPECT_THROW((void)to_string(Value("ab\xFF")), UsageError);
  EXPECT_THROW((void)to_string(Value(Symbol{"\xC3"})), UsageError);
  // Found before the string's first byte is written (an escape comes before it here), with
  // its byte offset in the string.
  try {
    (void)to_string(Value("a\nb\xFF"));
    ADD_FAILURE() << "no UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string_view(e.what()).find("cannot write the string 'a\nb...'"),
              std::string_view::npos)
        << e.what();
    EXPECT_NE(std::string_view(e.what()).find(" at byte 3"), std::string_view::npos) << e.what();
  }
}

// ---- References ------------------------------------------------------------------------------

TEST(StonWriter, SelfContainingListIsWrittenWithAReference) {
  Document d;
  List list = d.list({1});
  list.push_back(list);
  EXPECT_EQ(write_everywhere(list), "[1,@1]");
  EXPECT_EQ(write_everywhere(list, pretty), "[\n\t1,\n\t@1\n]");
}

TEST(StonWriter, SharedListIsWrittenOnceThenReferenced) {
  Document d;
  List one = d.list({Symbol{"one"}});
  EXPECT_EQ(write_everywhere(d.list({one, one, one})), "[[#one],@2,@2]");
}

TEST(StonWriter, ReferencesCountEveryContainerInPreOrder) {
  Document d;
  List inner = d.list({1});
  Tagged point = d.tagged_list("Point", {1, 2});
  Map map = d.map({{Symbol{"a"}, inner}});
  EXPECT_EQ(write_everywhere(d.list({map, d.list({2}), inner})), "[{#a:[1]},[2],@3]");
  EXPECT_EQ(write_everywhere(d.list({point, d.list({3}), point})), "[Point[1,2],[3],@2]");
  // A special float is a tagged object and takes a number.
  EXPECT_EQ(write_everywhere(d.list({std::numeric_limits<double>::quiet_NaN(), inner, inner})),
            "[Float[#nan],[1],@3]");
  // A shared key.
  EXPECT_EQ(write_everywhere(d.map({{inner, 2}, {inner, 3}})), "{[1]:2,@2:3}");
}

TEST(StonWriter, NumberingRestartsWithEachTopLevelValue) {
  Document d;
  List shared = d.list({1});
  StringWriteStream out;
  Writer writer(out);
  writer.write(d.list({shared, shared}));
  writer.write(d.list({shared, shared}));
  writer.write(42);
  EXPECT_EQ(out.view(), "[[1],@2]\n[[1],@2]\n42");
}

TEST(StonWriter, ReferencePolicies) {
  Document d;
  List one = d.list({Symbol{"one"}});
  const Value shared = d.list({one, one});
  List cyclic = d.list({1});
  cyclic.push_back(cyclic);

  EXPECT_EQ(to_string(shared, {.references = ReferencePolicy::normal}), "[[#one],@2]");
  EXPECT_EQ(to_string(shared, {.references = ReferencePolicy::ignore}), "[[#one],[#one]]");
  try {
    (void)to_string(shared, {.references = ReferencePolicy::error});
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(),
                 "cannot write list [#one]: it occurs more than once (ReferencePolicy::error)");
  }
  try {
    (void)to_string(cyclic, {.references = ReferencePolicy::ignore});
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(),
                 "cannot write list [1,@1]: it contains itself, and "
                 "ReferencePolicy::ignore cannot write a cycle");
  }
  EXPECT_THROW((void)to_string(cyclic, {.references = ReferencePolicy::error}), UsageError);
  // ignore: a shared tree is fine many times over
  List deep = d.list({one, d.list({one, one})});
  EXPECT_EQ(to_string(deep, {.references = ReferencePolicy::ignore}), "[[#one],[[#one],[#one]]]");
}

// ---- What STON cannot express ---------------------------------------------------------------

TEST(StonWriter, ValuesThatWouldReadBackDifferentlyAreRefused) {
  Document d;
  // (a:b):c would read back as a:(b:c)
  EXPECT_THROW((void)to_string(Association(Association(1, 2), 3)), UsageError);
  // a map key a:b would read back as key a with value b:...
  EXPECT_THROW((void)to_string(d.map({{Association(1, 2), 3}})), UsageError);
}

TEST(StonWriter, DeepGraphIsAnErrorNotAStackOverflow) {
  Document d;
  List top = d.list();
  List current = top;
  for (int i = 0; i < 100000; ++i) {
    List next = d.list();
    current.push_back(next);
    current = next;
  }
  try {
    (void)to_string(top);
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string_view(e.what()).find("nesting deeper than 512 levels"),
              std::string_view::npos)
        << e.what();
  }
}

// ---- Streaming -------------------------------------------------------------------------------

TEST(StonWriter, StreamingGivesTheSameTextAsAValue) {
  Document d;
  const Value expected = d.list({
      d.list({1, -1, 1.0, 1.0, "one"}),
      d.map({{Symbol{"k"}, Value()}, {"s", true}}),
      d.tagged_list("Point", {1, 2}),
      d.tagged_map("User", {{Symbol{"name"}, Symbol{"x"}}}),
      d.list(),
  });
  for (bool is_pretty : {false, true}) {
    for (std::size_t size : testing::tiny_buffer_sizes()) {
      StringWriteStream sink;
      {
        BufferedWriteStream out(sink, {.buffer_size = size});
        Writer w(out, {.indent = is_pretty ? 1U : 0U});
        w.begin_list();
        w.begin_list();
        w.value(1);
        w.value(std::int64_t{-1});
        w.value(1.0);
        w.value(1.0f);
        w.value("one");
        w.end_list();
        w.begin_map();
        w.symbol("k");
        w.value(nullptr);
        w.value(std::string("s"));
        w.value(true);
        w.end_map();
        w.begin_tagged_list("Point");
        w.value(1U);
        w.value(2);
        w.end_list();
        w.begin_tagged_map("User");
        w.value(Symbol{"name"});
        w.value(Value(Symbol{"x"}));
        w.end_map();
        w.begin_list();
        w.end_list();
        EXPECT_FALSE(w.complete());
        w.end_list();
        EXPECT_TRUE(w.complete());
        out.flush();
      }
      EXPECT_EQ(sink.view(), to_string(expected, {.indent = is_pretty ? 1U : 0U})) << size;
    }
  }
}

TEST(StonWriter, StreamingNumbersCountAlongWithValues) {
  Document d;
  List shared = d.list({1});
  StringWriteStream out;
  Writer w(out);
  w.begin_list();  // 1
  w.begin_list();  // 2
  w.end_list();
  w.write(shared);  // 3
  w.write(shared);
  w.end_list();
  EXPECT_EQ(out.view(), "[[],[1],@3]");
  EXPECT_EQ(test::parse_everywhere(out.view()).root().as_list()[2].as_list().size(), 1U);
}

// Every misuse, the streaming calls' and the values the options refuse alike, is the one
// UsageError of every format (once a std::logic_error, a std::invalid_argument or a
// ston::WriteError, a std::runtime_error).
TEST(StonWriter, StreamingMisuseIsAUsageError) {
  StringWriteStream out;
  Writer w(out);
  EXPECT_THROW(w.end_list(), UsageError);
  w.begin_map();
  EXPECT_THROW(w.end_list(), UsageError);
  w.value(1);
  EXPECT_THROW(w.end_map(), UsageError);  // a key without a value
  EXPECT_THROW(w.begin_tagged_list("lower"), UsageError);
  w.value(2);
  EXPECT_THROW(w.value(Association(3, 4)), UsageError);  // a key that would read back otherwise
  try {
    w.end_list();
    ADD_FAILURE() << "end_list closed a map";
  } catch (const std::logic_error& e) {  // a UsageError is a logic error, not a runtime error
    EXPECT_STREQ(e.what(), "ston::Writer::end_list() without a matching begin");
  }
  static_assert(!std::is_base_of_v<std::runtime_error, UsageError>);
}

// ---- Failing sinks ---------------------------------------------------------------------------

TEST(StonWriter, SinkFailuresPropagate) {
  Document d;
  List row = d.list({1, "two", 3.5});
  const Value value = d.list({row, row, d.map({{Symbol{"k"}, "a longer string value"}})});
  const std::string expected = to_string(value);
  for (std::size_t fail_at = 1; fail_at <= 4; ++fail_at) {
    for (std::size_t size : {std::size_t{1}, std::size_t{3}, std::size_t{7}}) {
      SCOPED_TRACE(fail_at);
      testing::FaultyWriteStream sink({.fail_at = fail_at, .error_number = ENOSPC});
      bool failed = false;
      {
        BufferedWriteStream out(sink, {.buffer_size = size});
        try {
          Writer w(out);
          w.write(value);
          out.flush();
        } catch (const IoError& e) {
          failed = true;
          EXPECT_EQ(e.code().value(), ENOSPC);
        }
      }
      EXPECT_TRUE(failed) << "size " << size << " fail_at " << fail_at;
      EXPECT_LT(sink.written().size(), expected.size());
      EXPECT_EQ(sink.written(), expected.substr(0, sink.written().size()));
    }
  }
  // Short writes and EINTR lose nothing.
  testing::FaultyWriteStream sink({.max_per_call = 2, .interrupt_every = 3});
  {
    BufferedWriteStream out(sink, {.buffer_size = 7});
    Writer w(out, {.indent = 1});
    w.write(value);
    out.flush();
  }
  EXPECT_EQ(sink.written(), to_string(value, {.indent = 1}));
  // Unbuffered: every piece is one call to the sink.
  testing::FaultyWriteStream direct;
  Writer w(direct);
  w.write(value);
  EXPECT_EQ(direct.written(), expected);
}

}  // namespace
}  // namespace bufstream::ston

namespace bufstream::ston {
namespace {

// The writer formats floats of the plain range itself (faster); it must agree with the stream
// layer's format_double_smalltalk everywhere.
TEST(StonWriter, FloatsAgreeWithFormatDoubleSmalltalk) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<double> values = {1e-4,
                                0.0001000000000000001,
                                9.999999999999999e-5,
                                1e6,
                                999999.9999999999,
                                123456.0,
                                0.5,
                                1.0,
                                3.0,
                                100.0};
  for (int i = 0; i < 20000; ++i) {
    values.push_back(std::ldexp(unit(rng), static_cast<int>(rng() % 60) - 30));
    values.push_back(static_cast<double>(rng() % 2000000) / 2.0);
    std::uint64_t bits = rng();
    double any;
    std::memcpy(&any, &bits, sizeof any);
    if (std::isfinite(any)) values.push_back(any);
  }
  for (double v : values) {
    for (double x : {v, -v}) {
      char expected[max_double_chars];
      const std::string_view want(
          expected, static_cast<std::size_t>(format_double_smalltalk(expected, x) - expected));
      ASSERT_EQ(to_string(x), want) << x;
    }
  }
}

}  // namespace
}  // namespace bufstream::ston
