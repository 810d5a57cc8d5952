// The reader, case by case from STON.md; every case runs over every reader setup
// (memory, 1- and 3-byte chunks, buffers of 1, 2, 3, 7 and 65536 bytes).
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include <bufstream/ston/reader.hpp>
#include <bufstream/ston/writer.hpp>

#include <bufstream/buffered_read_stream.hpp>

#include "faulty_read_stream.hpp"
#include "ston_test_util.hpp"

namespace bufstream::ston {
namespace {

using test::parse_error_everywhere;
using test::parse_everywhere;

struct ReadCase {
  std::string_view text;
  Value expected;
};

void expect_reads(const std::vector<ReadCase>& cases) {
  for (const ReadCase& c : cases) {
    SCOPED_TRACE(c.text);
    const Document doc = parse_everywhere(c.text);
    EXPECT_EQ(doc.root(), c.expected);
  }
}

Integer big(std::string_view digits) { return Integer::from_decimal(digits); }

TEST(StonReader, Constants) {
  expect_reads({{"nil", Value()},
                {"null", Value()},  // Pharo's reader takes JSON's null
                {"true", true},
                {"false", false},
                {"  true \n", true}});
}

TEST(StonReader, NumbersFollowTheImplementationRules) {
  expect_reads({
      {"0", 0},
      {"-42", -42},
      {"007", 7},  // leading zeros are accepted
      {"-0", 0},
      {"9223372036854775807", INT64_MAX},
      {"-9223372036854775808", INT64_MIN},
      {"9223372036854775808", big("9223372036854775808")},
      {"123456789012345678901234567890", big("123456789012345678901234567890")},
      {"-123456789012345678901234567890", big("-123456789012345678901234567890")},
      {"1.5", 1.5},
      {"-0.0", -0.0},
      {"0.1", 0.1},
      {"1.0e100", 1e100},
      {"1.0e-50", 1e-50},
      {"1.5e2", 150.0},
      {"1.5E+2", 150.0},
      {"1.0e308", 1.0e308},
      {"1.", 1.0},    // Pharo accepts a point without digits
      {"1e3", 1000},  // no '.': exact
      {"1E3", 1000},
      {"1e+3", 1000},
      {"1e-2", Value::fraction(1, 100)},
      {"12e-1", Value::fraction(6, 5)},
      {"-5e-1", Value::fraction(-1, 2)},
      {"0e-5", 0},
      {"1e", 1},  // Pharo: an exponent without digits is 0
      {"1e20", big("100000000000000000000")},
      {"1/3", Value::fraction(1, 3)},
      {"-2/3", Value::fraction(-2, 3)},
      {"2/4", Value::fraction(1, 2)},
      {"4/2", 2},
      {"100000000000000000000/300000000000000000000", Value::fraction(1, 3)},
      {"1/3s2", Value::scaled_decimal(1, 3, 2)},
      {"-1/3s2", Value::scaled_decimal(-1, 3, 2)},
      {"3/1s2", Value::scaled_decimal(3, 1, 2)},
      {"6/4s0", Value::scaled_decimal(3, 2, 0)},
  });
}

TEST(StonReader, StringsAndEscapes) {
  expect_reads({
      {"''", ""},
      {"'abc'", "abc"},
      {"\"double\"", "double"},
      {R"('it\'s')", "it's"},
      {R"("say \"hi\"")", "say \"hi\""},
      {R"('"' )", "\""},
      {R"("'")", "'"},
      {R"('\' \" \/ \\ \b \f \n \r \t')", "' \" / \\ \b \f \n \r \t"},
      {R"('\u00e9\u00E9')", "\xC3\xA9\xC3\xA9"},
      {R"('\u0000')", std::string(1, '\0')},
      {R"('\ud83d\ude00')", "\xF0\x9F\x98\x80"},
      {R"('\uD83D\uDE00!')", "\xF0\x9F\x98\x80!"},
      {"'line\nbreak\r\nkept'", "line\nbreak\r\nkept"},  // raw newlines stay as they are
      {"'caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80'", "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"},
  });
}

TEST(StonReader, Symbols) {
  expect_reads({
      {"#foo", Symbol{"foo"}},
      {"#foo.bar-baz_1/2", Symbol{"foo.bar-baz_1/2"}},
      {"#Foo123", Symbol{"Foo123"}},
      {"#'with space'", Symbol{"with space"}},
      {"#\"dq\"", Symbol{"dq"}},
      {"#''", Symbol{""}},
      {"#'it\\'s'", Symbol{"it's"}},
      {"#caf\xC3\xA9", Symbol{"caf\xC3\xA9"}},  // Pharo takes any letter
  });
}

TEST(StonReader, ListsMapsAssociationsAndTags) {
  Document d;
  expect_reads({
      {"[]", d.list()},
      {"[ ]", d.list()},
      {"[1,2,3]", d.list({1, 2, 3})},
      {" [ 1 ,\t2\n, 3 ] ", d.list({1, 2, 3})},
      {"[[1],[]]", d.list({d.list({1}), d.list()})},
      {"{}", d.map()},
      {"{ }", d.map()},
      {"{#a:1,'b':2,[1]:3}", d.map({{Symbol{"a"}, 1}, {"b", 2}, {d.list({1}), 3}})},
      {"{ #a : 1 , #b : [ 1, 2 ] }", d.map({{Symbol{"a"}, 1}, {Symbol{"b"}, d.list({1, 2})}})},
      {"{#b:1,#a:2}", d.map({{Symbol{"b"}, 1}, {Symbol{"a"}, 2}})},  // insertion order kept
      {"{#a:1,#a:2}", d.map({{Symbol{"a"}, 1}, {Symbol{"a"}, 2}})},  // duplicates kept as read
      {"#key:'value'", Association(Symbol{"key"}, "value")},
      {"#a : 1", Association(Symbol{"a"}, 1)},
      {"#a:#b:#c", Association(Symbol{"a"}, Association(Symbol{"b"}, Symbol{"c"}))},
      {"[#a:1,2:3]", d.list({Association(Symbol{"a"}, 1), Association(2, 3)})},
      {"{#a:#b:#c}", d.map({{Symbol{"a"}, Association(Symbol{"b"}, Symbol{"c"})}})},
      {"Point[1,2]", d.tagged_list("Point", {1, 2})},
      {"Point [ 1, 2 ]", d.tagged_list("Point", {1, 2})},
      {"User{#name:'x',#age:3}", d.tagged_map("User", {{Symbol{"name"}, "x"}, {Symbol{"age"}, 3}})},
      {"Foo_Bar9[]", d.tagged_list("Foo_Bar9", {})},
      {"Empty{}", d.tagged_map("Empty", {})},
      {"Unknown[OtherTag{#x:[]}]",
       d.tagged_list("Unknown", {d.tagged_map("OtherTag", {{Symbol{"x"}, d.list()}})})},
  });
}

TEST(StonReader, FloatSpecialsBecomeDoubles) {
  const double inf = std::numeric_limits<double>::infinity();
  Document d;
  expect_reads({
      {"Float[#nan]", std::numeric_limits<double>::quiet_NaN()},
      {"Float [ #infinity ]", inf},
      {"Float[#negativeInfinity]", -inf},
      {"Float[#other]", d.tagged_list("Float", {Symbol{"other"}})},  // kept as a tagged object
  });
  const Document doc = parse("Float[#nan]");
  EXPECT_EQ(doc.container_count(), 0U);
}

// ---- References ------------------------------------------------------------------------------

TEST(StonReader, SelfContainingList) {
  const Document doc = parse_everywhere("[1,@1]");
  const List list = doc.root().as_list();
  ASSERT_EQ(list.size(), 2U);
  EXPECT_TRUE(list[1].same_object(doc.root()));
}

TEST(StonReader, SharedListIsOneObject) {
  const Document doc = parse_everywhere("[[#one],@2,@2]");
  const List list = doc.root().as_list();
  ASSERT_EQ(list.size(), 3U);
  EXPECT_TRUE(list[0].same_object(list[1]));
  EXPECT_TRUE(list[0].same_object(list[2]));
  list[0].as_list().push_back(2);
  EXPECT_EQ(list[2].as_list().size(), 2U);
}

TEST(StonReader, NumberingIsDepthFirstPreOrder) {
  struct Case {
    std::string_view text;
    std::size_t reference_index;           // the element of the root list that is the reference
    std::vector<std::size_t> target_path;  // where the referenced object is, from the root
  };
  // Objects: the root list is 1; a container is numbered before its children; the body of a
  // tagged object is not numbered; Float[#nan] takes a number like any tagged object.
  const std::vector<Case> cases = {
      {"[{#a:[1]},[2],@3]", 2, {0, 0}},  // 1 root, 2 map, 3 [1], 4 [2]
      {"[{#a:[1]},[2],@4]", 2, {1}},
      {"[Point[1,2],[3],@2]", 2, {0}},  // 2 Point, 3 [3]
      {"[Point[1,2],[3],@3]", 2, {1}},
      {"[Foo[[1]],@3]", 1, {0, 0}},      // 2 Foo, 3 its element [1]
      {"[Float[#nan],[1],@3]", 2, {1}},  // 2 Float[#nan], 3 [1]
      {"[[[[]]],@4]", 1, {0, 0, 0}},
      {"[@2,[1]]", 0, {1}},        // a reference may come before its object
      {"[#k:[1],@2]", 1, {0, 1}},  // associations are not numbered; their contents are
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    const Document doc = parse_everywhere(c.text);
    const List root = doc.root().as_list();
    Value target = doc.root();
    for (std::size_t i : c.target_path) {
      target = target.is_association()
                   ? (i == 0 ? target.as_association().key() : target.as_association().value())
               : target.is_tagged() ? target.as_tagged().at(i)
               : target.is_map()    ? target.as_map().entries().at(i).value
                                    : target.as_list().at(i);
    }
    EXPECT_TRUE(root.at(c.reference_index).same_object(target));
  }
}

TEST(StonReader, ReferenceToAFloatSpecialIsTheDouble) {
  const Document doc = parse_everywhere("[Float[#infinity],@2]");
  EXPECT_EQ(doc.root().as_list()[1].as_double(), std::numeric_limits<double>::infinity());
}

TEST(StonReader, ReferencesAcrossSeveralFloatSpecials) {
  // Each special takes a number but leaves no container behind: the objects after them must
  // still be found by number, and a reference to a special is its double.
  const Document doc = parse_everywhere(
      "[Float[#nan],[1],Float[#infinity],[[2],Float[#negativeInfinity]],[3],"
      "@3,@5,@6,@8,@4,@7,@2]");
  const List root = doc.root().as_list();
  ASSERT_EQ(root.size(), 12U);
  EXPECT_TRUE(root[5].same_object(root[1]));                                  // @3: [1]
  EXPECT_TRUE(root[6].same_object(root[3]));                                  // @5: [[2],...]
  EXPECT_TRUE(root[7].same_object(root[3].as_list()[0]));                     // @6: [2]
  EXPECT_TRUE(root[8].same_object(root[4]));                                  // @8: [3]
  EXPECT_EQ(root[9].as_double(), std::numeric_limits<double>::infinity());    // @4
  EXPECT_EQ(root[10].as_double(), -std::numeric_limits<double>::infinity());  // @7
  EXPECT_TRUE(std::isnan(root[11].as_double()));                              // @2
}

TEST(StonReader, ReferencesInALaterValueOfTheSameDocument) {
  // The document already holds containers (and a special) from the first value read.
  const std::string_view text = "[[1],Float[#nan],@2] [Float[#infinity],[2],@3,@2,@1]";
  for (const auto& setup : testing::reader_setups()) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make(text);
    Reader reader(*in);
    Document doc;
    const Value first = reader.read(doc);
    const Value second = reader.read(doc);
    EXPECT_TRUE(first.as_list()[2].same_object(first.as_list()[0]));
    const List list = second.as_list();
    EXPECT_TRUE(list[2].same_object(list[1]));
    EXPECT_EQ(list[3].as_double(), std::numeric_limits<double>::infinity());
    EXPECT_TRUE(list[4].same_object(second));
  }
}

TEST(StonReader, MapWithASharedKey) {
  const Document doc = parse_everywhere("{[1]:2,@2:3}");
  const Map map = doc.root().as_map();
  ASSERT_EQ(map.size(), 2U);
  EXPECT_TRUE(map.entries()[0].key.same_object(map.entries()[1].key));
}

TEST(StonReader, ReferenceInsideAnAssociationAndTaggedMap) {
  const Document doc = parse_everywhere("Node{#next:#self:@1,#list:[@1]}");
  const Tagged node = doc.root().as_tagged("Node");
  EXPECT_TRUE(node.at("next").as_association().value().same_object(doc.root()));
  EXPECT_TRUE(node.at("list").as_list()[0].same_object(doc.root()));
}

TEST(StonReader, SeveralValuesInSequenceEachNumberedFromOne) {
  const std::string_view text = "1 'a'\n[1]\t[@1] {#x:@1}";
  for (const auto& setup : testing::reader_setups()) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make(text);
    Reader reader(*in);
    Document doc;
    std::vector<Value> values;
    while (!reader.at_end()) values.push_back(reader.read(doc));
    ASSERT_EQ(values.size(), 5U);
    EXPECT_EQ(values[0], Value(1));
    EXPECT_EQ(values[1], Value("a"));
    EXPECT_EQ(values[2], Value(doc.list({1})));
    EXPECT_TRUE(values[3].as_list()[0].same_object(values[3]));
    EXPECT_TRUE(values[4].as_map().at("x").same_object(values[4]));
  }
}

// A byte-order mark at the very start is skipped (no STON value starts with 0xEF), as the JSON
// and CSV readers do; anywhere else, or when not skipped, it is an error.
TEST(StonReader, SkipsAByteOrderMarkAtTheStart) {
  EXPECT_EQ(parse_everywhere("\xef\xbb\xbf{#a:'\xc3\xa9'}").root(),
            parse("{#a:'\xc3\xa9'}").root());
  EXPECT_EQ(parse_everywhere("\xef\xbb\xbf\n  [1]\n").root(), parse("[1]").root());
  const ParseError again = parse_error_everywhere("\xef\xbb\xbf\xef\xbb\xbf[1]");
  EXPECT_EQ(again.offset(), 3u);
  EXPECT_EQ(again.message(), "expected a value but found byte 0xef");
  const ParseError not_skipped = parse_error_everywhere("\xef\xbb\xbf[1]", {.skip_bom = false});
  EXPECT_EQ(not_skipped.offset(), 0u);
  EXPECT_EQ(not_skipped.message(), "expected a value but found byte 0xef");
  const ParseError only_a_mark = parse_error_everywhere("\xef\xbb\xbf  ");
  EXPECT_EQ(only_a_mark.message(), "expected a value but found end of input");
  EXPECT_EQ(only_a_mark.column(), 6u);
}

// ---- Sticky errors ---------------------------------------------------------------------------

TEST(StonReader, AParseErrorIsThrownAgainByEveryLaterCall) {
  for (const auto& setup : testing::reader_setups()) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make("[1,2 3] [4]");
    Reader reader(*in);
    Document doc;
    std::string first;
    try {
      (void)reader.read(doc);
      FAIL() << "no error";
    } catch (const ParseError& e) {
      first = e.what();
    }
    // The rest of the input is well-formed, but the reader stands in the middle of a value.
    for (int call = 0; call < 3; ++call) {
      try {
        if (call == 0) (void)reader.read(doc);
        if (call == 1) (void)reader.at_end();
        if (call == 2) reader.expect_end();
        ADD_FAILURE() << "call " << call << " did not throw";
      } catch (const ParseError& e) {
        EXPECT_EQ(std::string(e.what()), first) << "call " << call;
      }
    }
  }
}

TEST(StonReader, AnIoErrorIsThrownAgainNotParsedAround) {
  // The source fails in the middle of a string: a repeated read must not go on from the bytes
  // still buffered (where a backslash or a quote would start a bogus token).
  const std::string text = R"(['it\'s \\ a \'test\'',['x\\y\'z'],3])";
  for (std::size_t fail_at = 1; fail_at <= text.size(); ++fail_at) {
    for (std::size_t buffer : {std::size_t{1}, std::size_t{3}, std::size_t{7}, std::size_t{16}}) {
      SCOPED_TRACE(::testing::Message() << "read " << fail_at << ", buffer " << buffer);
      testing::FaultyReadStream source(text, {.fail_at = fail_at, .max_per_read = 5});
      BufferedReadStream in(source, {.buffer_size = buffer});
      Reader reader(in);
      Document doc;
      try {
        (void)reader.read(doc);
        continue;  // the fault came after the value (or never)
      } catch (const IoError&) {
      }
      EXPECT_THROW((void)reader.read(doc), IoError);
      EXPECT_THROW((void)reader.at_end(), IoError);
    }
  }
}

// ---- Comments --------------------------------------------------------------------------------

TEST(StonReader, CommentsAreSkippedWhenAllowed) {
  const ReadOptions comments{.allow_comments = true};
  Document d;
  struct Case {
    std::string_view text;
    Value expected;
  };
  const std::vector<Case> cases = {
      {"/* a */ [1, // to the end\n 2 /* ** */]", d.list({1, 2})},
      {"[1 /* , */ ,2]// last", d.list({1, 2})},
      {"'/* not a comment */'", "/* not a comment */"},
      {"{#a /*x*/ : /*y*/ 1}", d.map({{Symbol{"a"}, 1}})},
      {"/**/1", 1},
      {"#a/b", Symbol{"a/b"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    EXPECT_EQ(parse_everywhere(c.text, comments).root(), c.expected);
  }
  EXPECT_EQ(parse_error_everywhere("/* open", comments).message(),
            "unterminated comment: expected '*/' but found end of input");
  EXPECT_EQ(parse_error_everywhere("/* a */ 1").message(),
            "expected a value but found '/'");  // off by default
}

TEST(StonReader, CommentsKeepLineNumbers) {
  const ParseError e =
      parse_error_everywhere("/* one\ntwo */ [1,\n// three\n ?]", {.allow_comments = true});
  EXPECT_EQ(e.line(), 4U);
  EXPECT_EQ(e.column(), 2U);
}

// ---- Errors ----------------------------------------------------------------------------------

TEST(StonReader, ErrorsSayWhereAndWhat) {
  struct Case {
    std::string_view text;
    std::uint64_t offset, line, column;
    std::string_view message;
  };
  const std::vector<Case> cases = {
      {"", 0, 1, 1, "expected a value but found end of input"},
      {"   ", 3, 1, 4, "expected a value but found end of input"},
      {"%", 0, 1, 1, "expected a value but found '%'"},
      {"[1,2", 4, 1, 5, "expected ',' or ']' but found end of input"},
      {"[1,2 ", 5, 1, 6, "expected ',' or ']' but found end of input"},
      {"[1 2]", 3, 1, 4, "expected ',' or ']' but found '2'"},
      {"[1,]", 3, 1, 4, "expected a value but found ']'"},
      {"{#a 1}", 4, 1, 5, "expected ':' after a map key but found '1'"},
      {"{#a:1 #b:2}", 6, 1, 7, "expected ',' or '}' but found '#'"},
      {"\n\n  ]", 4, 3, 3, "expected a value but found ']'"},
      {"[\n'ok',\n  foo]", 10, 3, 3, "expected a value but found 'foo'"},
      {"nul", 0, 1, 1, "expected a value but found 'nul'"},
      {"'abc", 0, 1, 1, "unterminated string: expected ''' but found end of input"},
      {"\"abc", 0, 1, 1, "unterminated string: expected '\"' but found end of input"},
      {"'ab\\x'", 4, 1, 5,
       "expected an escape (''', '\"', '\\', '/', 'b', 'f', 'n', 'r', 't' or 'u') after '\\' "
       "but found 'x'"},
      {"'ab\\", 4, 1, 5,
       "expected an escape (''', '\"', '\\', '/', 'b', 'f', 'n', 'r', 't' or 'u') after '\\' "
       "but found end of input"},
      {"'\\u12'", 5, 1, 6, "expected 4 hex digits after '\\u' but found '''"},
      {"'\\u12", 5, 1, 6, "expected 4 hex digits after '\\u' but found end of input"},
      {"'\\ud83d'", 7, 1, 8,
       "expected a low surrogate escape \\uDC00-\\uDFFF after \\uD83D but found '''"},
      {"'\\ud83d\\u0041'", 7, 1, 8,
       "expected a low surrogate escape \\uDC00-\\uDFFF after \\uD83D but found \\u0041"},
      {"'\\ud83d\\u00'", 11, 1, 12, "expected 4 hex digits after '\\u' but found '''"},
      {"'\\ude00'", 1, 1, 2,
       "expected a character escape but found the lone low surrogate \\uDE00 (a low surrogate "
       "must follow a high one)"},
      {"'a\xFF'", 2, 1, 3, "invalid UTF-8: invalid lead byte in a string"},
      {"'a\xC3'", 2, 1, 3, "invalid UTF-8: invalid continuation byte in a string"},
      {"'a\xE2\x82", 2, 1, 3, "invalid UTF-8: truncated sequence in a string"},
      {"-", 1, 1, 2, "expected a digit after '-' but found end of input"},
      {"-x", 1, 1, 2, "expected a digit after '-' but found 'x'"},
      {"1/", 2, 1, 3, "expected a digit after '/' but found end of input"},
      {"1/0", 0, 1, 1, "a fraction with a zero denominator"},
      {"1/2s", 4, 1, 5, "expected a digit after 's' but found end of input"},
      {"1.5.2", 3, 1, 4, "expected end of input after the value but found '.'"},
      {"1e99999", 0, 1, 1, "exponent 99999 is larger than 10000 (ReadOptions::max_number_length)"},
      {"Point", 5, 1, 6, "expected '[' or '{' after the tag Point but found end of input"},
      {"Point(1)", 5, 1, 6, "expected '[' or '{' after the tag Point but found '('"},
      {"#", 1, 1, 2, "expected a symbol name or a quote after '#' but found end of input"},
      {"# a", 1, 1, 2, "expected a symbol name or a quote after '#' but found ' '"},
      {"#a\xFF", 2, 1, 3, "invalid UTF-8: invalid lead byte in a symbol"},
      {"@", 1, 1, 2, "expected a reference number after '@' but found end of input"},
      {"@1", 0, 1, 1, "reference @1 does not exist: the value has 0 objects"},
      {"[@2]", 1, 1, 2, "reference @2 does not exist: the value has 1 object"},
      {"[[],\n @0]", 6, 2, 2, "reference @0 does not exist: the value has 2 objects"},
      {"1 2", 2, 1, 3, "expected end of input after the value but found '2'"},
      {"#a:", 3, 1, 4, "expected a value but found end of input"},
      {"{[1:2]:3", 8, 1, 9, "expected ',' or '}' but found end of input"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    const ParseError e = parse_error_everywhere(c.text);
    EXPECT_EQ(e.message(), c.message);
    EXPECT_EQ(e.offset(), c.offset);
    EXPECT_EQ(e.line(), c.line);
    EXPECT_EQ(e.column(), c.column);
  }
}

TEST(StonReader, ErrorNamesTheSource) {
  try {
    (void)parse("[1,", {.source_name = "config.ston"});
    FAIL() << "no error";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.source_name(), "config.ston");
    EXPECT_NE(std::string(e.what()).find("config.ston:1:4"), std::string::npos) << e.what();
  }
}

TEST(StonReader, LongNumbersAreLimited) {
  const std::string digits(20000, '7');
  EXPECT_EQ(parse_error_everywhere(digits).message(),
            "number longer than 10000 digits (ReadOptions::max_number_length)");
  const Document doc = parse(digits, {.max_number_length = 30000});
  EXPECT_EQ(doc.root().as_integer().to_string(), digits);
}

TEST(StonReader, DepthLimitIsAClearError) {
  // The default limit is every reader's (it was 1000 before STON took JSON's).
  const std::size_t limit = ReadOptions{}.max_depth;
  EXPECT_EQ(limit, 512U);
  EXPECT_EQ(limit, bufstream::default_max_depth);
  EXPECT_EQ(limit, WriteOptions{}.max_depth);  // what the writer writes by default reads back
  const std::string deep_ok = std::string(limit, '[') + std::string(limit, ']');
  EXPECT_TRUE(parse_everywhere(deep_ok).root().is_list());

  const std::string too_deep = std::string(limit + 1, '[') + std::string(limit + 1, ']');
  const ParseError e = parse_error_everywhere(too_deep);
  EXPECT_EQ(e.message(), "nesting deeper than 512 levels (ReadOptions::max_depth)");
  EXPECT_EQ(e.offset(), limit);

  // Far deeper than any stack: still just an error.
  const std::string hostile(1000000, '[');
  EXPECT_THROW((void)parse(hostile), ParseError);
  std::string maps;
  for (int i = 0; i < 100000; ++i) maps += "{#a:";
  EXPECT_THROW((void)parse(maps), ParseError);
  std::string associations;
  for (int i = 0; i < 100000; ++i) associations += "#a:";
  EXPECT_EQ(parse_error_everywhere(associations + "1").message(),
            "nesting deeper than 512 levels (ReadOptions::max_depth)");
  std::string tags;
  for (int i = 0; i < 100000; ++i) tags += "T[";
  EXPECT_THROW((void)parse(tags), ParseError);

  EXPECT_TRUE(
      parse(std::string(1200, '[') + std::string(1200, ']'), {.max_depth = 1200}).root().is_list());
}

// ---- JSON is STON --------------------------------------------------------------------------

TEST(StonReader, ReadsJsonAsItIs) {
  Document d;
  expect_reads({
      {R"({"a": [1, 2.5, -3.0e2, true, false, null], "b": {"c": "x\u00e9\n"}})",
       d.map({{"a", d.list({1, 2.5, -300.0, true, false, Value()})},
              {"b", d.map({{"c", "x\xC3\xA9\n"}})}})},
      {R"([])", d.list()},
      {R"({})", d.map()},
      {R"("\/\b\f\n\r\t\"\\")", "/\b\f\n\r\t\"\\"},
      {R"(-0)", 0},
      {R"(-0.0)", -0.0},
      {R"(1E2)", 100},  // exact in STON: an integer
      {R"(1.5e-3)", 0.0015},
      {R"(2e-1)", Value::fraction(1, 5)},  // exact in STON: a fraction
      {"[\r\n 1 ,\t2\r\n]", d.list({1, 2})},
      {R"({"": ""})", d.map({{"", ""}})},
      {R"(["\ud834\udd1e"])", d.list({"\xF0\x9D\x84\x9E"})},
      {R"({"a":{"a":{"a":[[[]]]}}})",
       d.map({{"a", d.map({{"a", d.map({{"a", d.list({d.list({d.list()})})}})}})}})},
  });
}

// ---- Pharo metadata --------------------------------------------------------------------------

TEST(StonReader, PharoPropertiesFile) {
  const Document doc = parse_everywhere("{\n\t#format : #tonel\n}");
  EXPECT_EQ(doc.root().as_map().at("format").as_symbol(), "tonel");

  const Document project = parse_everywhere("{\n\t'srcDirectory' : 'src'\n}");
  EXPECT_EQ(project.root().as_map().at("srcDirectory").as_string(), "src");
}

TEST(StonReader, TonelClassHeader) {
  const std::string_view text =
      "Class {\n"
      "\t#name : #Foo,\n"
      "\t#superclass : #Object,\n"
      "\t#instVars : [\n"
      "\t\t'count',\n"
      "\t\t'items'\n"
      "\t],\n"
      "\t#classVars : [\n"
      "\t\t'Default'\n"
      "\t],\n"
      "\t#category : 'Bar'\n"
      "}";
  const Document doc = parse_everywhere(text);
  const Tagged header = doc.root().as_tagged("Class");
  EXPECT_EQ(header.at("name").as_symbol(), "Foo");
  EXPECT_EQ(header.at("superclass").as_symbol(), "Object");
  EXPECT_EQ(header.at("category").as_string(), "Bar");
  ASSERT_EQ(header.at("instVars").as_list().size(), 2U);
  EXPECT_EQ(header.at("instVars").as_list()[1].as_string(), "items");

  const Document one_line =
      parse_everywhere("Class { #name : #Foo, #superclass : #Object, #category : 'Bar' }");
  EXPECT_EQ(one_line.root().as_tagged("Class").at("category").as_string(), "Bar");
}

TEST(StonReader, TonelPackageTraitExtensionAndMethodHeaders) {
  EXPECT_EQ(parse_everywhere("Package { #name : #'Bar-Core' }")
                .root()
                .as_tagged("Package")
                .at("name")
                .as_symbol(),
            "Bar-Core");
  EXPECT_EQ(parse_everywhere("Trait {\n\t#name : #TFoo,\n\t#category : #'Bar-Traits'\n}")
                .root()
                .as_tagged("Trait")
                .at("category")
                .as_symbol(),
            "Bar-Traits");
  EXPECT_EQ(parse_everywhere("Extension { #name : #Object }")
                .root()
                .as_tagged("Extension")
                .at("name")
                .as_symbol(),
            "Object");
  EXPECT_EQ(
      parse_everywhere("{ #category : #accessing }").root().as_map().at("category").as_symbol(),
      "accessing");
  // A whole Tonel method file holds STON headers followed by Smalltalk; a Reader reads just
  // the header and stops after it.
  const std::string_view file = "{ #category : #'as yet unclassified' }\nFoo >> bar [ ^ 1 ]";
  MemoryReadStream in(file);
  Reader reader(in);
  Document doc;
  EXPECT_EQ(reader.read(doc).as_map().at("category").as_symbol(), "as yet unclassified");
  EXPECT_EQ(in.up_to_end(), "Foo >> bar [ ^ 1 ]");
}

}  // namespace
}  // namespace bufstream::ston

namespace bufstream::ston {
namespace {

// The longest numbers the default limit allows reduce in reasonable time (quadratic, not worse).
TEST(StonReader, LongFractionsReduce) {
  std::string x(9998, '0');
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<char>('1' + (i * 7) % 9);
  EXPECT_EQ(parse(x + "0/" + x + "00").root(), Value::fraction(1, 10));
  EXPECT_EQ(parse("-" + x + "/" + x).root(), Value(-1));
  const Document scaled = parse("7" + std::string(9999, '0') + "e-9999");
  EXPECT_EQ(scaled.root(), Value(7));
}

}  // namespace
}  // namespace bufstream::ston

namespace bufstream::ston {
namespace {

TEST(StonReader, LinesEndAtLfCrlfOrCr) {
  struct Case {
    std::string_view text;
    std::uint64_t line, column;
  };
  const std::vector<Case> cases = {
      {"[1,\n2,\n?]", 3, 1},
      {"[1,\r\n2,\r\n?]", 3, 1},
      {"[1,\r2,\r?]", 3, 1},
      {"[1,\r\r\n\n ?]", 4, 2},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    const ParseError e = test::parse_error_everywhere(c.text);
    EXPECT_EQ(e.line(), c.line);
    EXPECT_EQ(e.column(), c.column);
  }
}

}  // namespace
}  // namespace bufstream::ston
