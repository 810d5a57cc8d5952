// The line grammar, one line at a time: every kind of good line, every kind of bad one.
#include <bufstream/cedict/line_parser.hpp>

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <bufstream/utf8.hpp>

namespace bufstream::cedict {
namespace {

struct GoodLine {
  std::string line;
  std::string traditional, simplified, pinyin;
  std::vector<std::string> glosses;
};

void PrintTo(const GoodLine& c, std::ostream* os) { *os << c.line; }

class GoodLines : public ::testing::TestWithParam<GoodLine> {};

TEST_P(GoodLines, SplitsFields) {
  const GoodLine& c = GetParam();
  ParsedLine p;
  std::vector<GlossSpan> glosses;
  parse_line(c.line, p, glosses);
  ASSERT_EQ(p.kind, LineKind::entry) << p.message;
  EXPECT_EQ(p.error, LineError::none);
  EXPECT_EQ(p.traditional, c.traditional);
  EXPECT_EQ(p.simplified, c.simplified);
  EXPECT_EQ(p.pinyin, c.pinyin);
  std::vector<std::string> texts;
  for (const GlossSpan& g : glosses) texts.push_back(c.line.substr(g.offset, g.size));
  EXPECT_EQ(texts, c.glosses);
}

INSTANTIATE_TEST_SUITE_P(
    Table, GoodLines,
    ::testing::Values(
        GoodLine{"你好 你好 [ni3 hao3] /hello/hi/", "你好", "你好", "ni3 hao3", {"hello", "hi"}},
        GoodLine{"% % [pa1] /percent (Tw)/", "%", "%", "pa1", {"percent (Tw)"}},
        GoodLine{"3C 3C [san1 C] /abbr. for computers/China Compulsory Certificate (CCC)/",
                 "3C",
                 "3C",
                 "san1 C",
                 {"abbr. for computers", "China Compulsory Certificate (CCC)"}},
        GoodLine{"AA制 AA制 [A A zhi4] /to split the bill/to go Dutch/",
                 "AA制",
                 "AA制",
                 "A A zhi4",
                 {"to split the bill", "to go Dutch"}},
        GoodLine{"88 88 [ba1 ba1] /(Internet slang) bye-bye (alternative for 拜拜[bai2 bai2])/",
                 "88",
                 "88",
                 "ba1 ba1",
                 {"(Internet slang) bye-bye (alternative for 拜拜[bai2 bai2])"}},
        GoodLine{"綠 绿 [lu:4] /green/", "綠", "绿", "lu:4", {"green"}},
        GoodLine{"㞞 𪨊 [song2] /(coll.) semen/weak and incompetent/",
                 "㞞",
                 "𪨊",
                 "song2",
                 {"(coll.) semen", "weak and incompetent"}},
        GoodLine{"了 了 [liao3] /variant of 瞭|了[liao3]/",
                 "了",
                 "了",
                 "liao3",
                 {"variant of 瞭|了[liao3]"}},
        GoodLine{"好 好 [hao3] /good/\r", "好", "好", "hao3", {"good"}},  // CRLF line end
        GoodLine{"x y [] /g/", "x", "y", "", {"g"}}));                    // empty pinyin is allowed

TEST(LineParser, CommentLine) {
  ParsedLine p;
  std::vector<GlossSpan> g;
  parse_line("# CC-CEDICT", p, g);
  EXPECT_EQ(p.kind, LineKind::comment);
  parse_line("#", p, g);
  EXPECT_EQ(p.kind, LineKind::comment);
}

TEST(LineParser, MetadataLine) {
  ParsedLine p;
  std::vector<GlossSpan> g;
  parse_line("#! entries=116937", p, g);
  EXPECT_EQ(p.kind, LineKind::metadata);
  EXPECT_EQ(p.key, "entries");
  EXPECT_EQ(p.value, "116937");
  parse_line("#! license=https://creativecommons.org/licenses/by-sa/4.0/", p, g);
  EXPECT_EQ(p.key, "license");
  EXPECT_EQ(p.value, "https://creativecommons.org/licenses/by-sa/4.0/");
  parse_line("#!flag", p, g);
  EXPECT_EQ(p.kind, LineKind::metadata);
  EXPECT_EQ(p.key, "flag");
  EXPECT_EQ(p.value, "");
}

struct BadLine {
  std::string line;
  LineError error;
  std::size_t column;
  std::string message;
};

void PrintTo(const BadLine& c, std::ostream* os) { *os << c.line; }

class BadLines : public ::testing::TestWithParam<BadLine> {};

TEST_P(BadLines, ReportsKindColumnAndMessage) {
  const BadLine& c = GetParam();
  ParsedLine p;
  std::vector<GlossSpan> glosses;
  parse_line(c.line, p, glosses);
  EXPECT_EQ(p.kind, LineKind::malformed);
  EXPECT_TRUE(glosses.empty());
  EXPECT_EQ(p.error, c.error) << describe(p.error);
  EXPECT_EQ(p.column, c.column);
  EXPECT_EQ(p.message, c.message);
}

INSTANTIATE_TEST_SUITE_P(
    Table, BadLines,
    ::testing::Values(
        BadLine{"", LineError::empty_line, 1,
                "expected an entry or a comment but found an empty line"},
        BadLine{"\r", LineError::empty_line, 1,
                "expected an entry or a comment but found an empty line"},
        BadLine{"好 好 [hao3] /g\xFF/", LineError::invalid_utf8, 18,
                "expected UTF-8 text but found byte 0xff (invalid UTF-8: invalid lead byte)"},
        BadLine{
            "\xE5\xA5 好 [hao3] /good/", LineError::invalid_utf8, 1,
            "expected UTF-8 text but found byte 0xe5 (invalid UTF-8: invalid continuation byte)"},
        BadLine{"好 \xED\xA0\x80 [hao3] /good/", LineError::invalid_utf8, 5,
                "expected UTF-8 text but found byte 0xed (invalid UTF-8: encoded surrogate)"},
        BadLine{
            "好 好 [h\xF4\x90\x80\x80] /good/", LineError::invalid_utf8, 11,
            "expected UTF-8 text but found byte 0xf4 (invalid UTF-8: code point beyond U+10FFFF)"},
        BadLine{"好 好 [hao3] /good//\xE0\x80\x80/", LineError::invalid_utf8, 23,
                "expected UTF-8 text but found byte 0xe0 (invalid UTF-8: overlong encoding)"},
        BadLine{"好 好 [hao3] /goo\xF0\x9F\x98", LineError::invalid_utf8, 20,
                "expected UTF-8 text but found byte 0xf0 (invalid UTF-8: truncated sequence)"},
        BadLine{"# comment \xFF", LineError::invalid_utf8, 11,
                "expected UTF-8 text but found byte 0xff (invalid UTF-8: invalid lead byte)"},
        BadLine{" 好 [hao3] /good/", LineError::missing_traditional, 1,
                "expected a traditional headword but found ' '"},
        BadLine{
            "好", LineError::missing_simplified, 4,
            "expected ' ' and a simplified headword after the traditional one but found end of line"},
        BadLine{"好  [hao3] /good/", LineError::missing_simplified, 5,
                "expected a simplified headword but found ' '"},
        BadLine{"好 好", LineError::missing_pinyin, 8,
                "expected ' [' and the pinyin after the simplified headword but found end of line"},
        BadLine{"好 好 hao3] /good/", LineError::missing_pinyin, 9,
                "expected '[' to open the pinyin but found 'h'"},
        BadLine{"好 好 [hao3 /good/", LineError::unterminated_pinyin, 21,
                "expected ']' to close the pinyin but found end of line"},
        BadLine{"好 好 [hao3]/good/", LineError::missing_glosses, 15,
                "expected ' /' and the glosses after the pinyin but found '/'"},
        BadLine{"好 好 [hao3]", LineError::missing_glosses, 15,
                "expected ' /' and the glosses after the pinyin but found end of line"},
        BadLine{"好 好 [hao3] good/", LineError::missing_glosses, 16,
                "expected '/' to open the glosses but found 'g'"},
        BadLine{"好 好 [hao3] /", LineError::unterminated_glosses, 17,
                "expected a gloss and '/' but found end of line"},
        BadLine{"好 好 [hao3] /good", LineError::unterminated_glosses, 21,
                "expected '/' to close the last gloss but found end of line"},
        BadLine{"好 好 [hao3] /good/ ", LineError::unterminated_glosses, 23,
                "expected '/' to close the last gloss but found end of line"},
        BadLine{"好 好 [hao3] //", LineError::empty_gloss, 17,
                "expected a gloss but found '/' (an empty gloss)"},
        BadLine{"好 好 [hao3] /good//well/", LineError::empty_gloss, 22,
                "expected a gloss but found '/' (an empty gloss)"}));

TEST(LineParser, DescribesEveryError) {
  for (auto e :
       {LineError::none, LineError::empty_line, LineError::invalid_utf8,
        LineError::missing_traditional, LineError::missing_simplified, LineError::missing_pinyin,
        LineError::unterminated_pinyin, LineError::missing_glosses, LineError::unterminated_glosses,
        LineError::empty_gloss, LineError::line_too_long}) {
    EXPECT_NE(describe(e), "unknown error");
  }
}

TEST(LineParser, ReusedResultIsReset) {
  ParsedLine p;
  std::vector<GlossSpan> g;
  parse_line("好 好 [hao3] /good/", p, g);
  parse_line("# comment", p, g);
  EXPECT_EQ(p.kind, LineKind::comment);
  EXPECT_TRUE(p.traditional.empty());
  EXPECT_TRUE(g.empty());
}

}  // namespace
}  // namespace bufstream::cedict

// ---- The parser against a plain reading of the grammar -----------------------------------
//
// The reference finds each field with std::string_view::find, where the parser uses the kernel
// layer's byte search; both report invalid UTF-8 before anything else wrong with an entry line.

namespace bufstream::cedict {
namespace {

struct Reference {
  LineKind kind = LineKind::entry;
  LineError error = LineError::none;
  std::size_t column = 0;
  std::string_view traditional, simplified, pinyin;
  std::vector<std::string_view> glosses;
};

Reference reference_parse(std::string_view line) {
  Reference r;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  const auto fail = [&r](LineError e, std::size_t at) {
    r.kind = LineKind::malformed;
    r.error = e;
    r.column = at + 1;
    r.glosses.clear();
    return r;
  };
  constexpr auto npos = std::string_view::npos;
  if (line.empty()) return fail(LineError::empty_line, 0);
  if (line[0] == '#') {
    if (const auto bad = utf8::find_invalid(line))
      return fail(LineError::invalid_utf8, bad->offset);
    r.kind = line.size() >= 2 && line[1] == '!' ? LineKind::metadata : LineKind::comment;
    return r;
  }
  if (line[0] == ' ') return fail(LineError::missing_traditional, 0);
  if (const auto bad = utf8::find_invalid(line)) return fail(LineError::invalid_utf8, bad->offset);
  const std::size_t t = line.find(' ');
  if (t == npos) return fail(LineError::missing_simplified, line.size());
  if (t + 1 == line.size() || line[t + 1] == ' ') return fail(LineError::missing_simplified, t + 1);
  const std::size_t s = line.find(' ', t + 1);
  if (s == npos) return fail(LineError::missing_pinyin, line.size());
  if (s + 1 == line.size() || line[s + 1] != '[') return fail(LineError::missing_pinyin, s + 1);
  const std::size_t c = line.find(']', s + 2);
  if (c == npos) return fail(LineError::unterminated_pinyin, line.size());
  if (c + 1 == line.size() || line[c + 1] != ' ') return fail(LineError::missing_glosses, c + 1);
  if (c + 2 == line.size() || line[c + 2] != '/') return fail(LineError::missing_glosses, c + 2);
  r.traditional = line.substr(0, t);
  r.simplified = line.substr(t + 1, s - t - 1);
  r.pinyin = line.substr(s + 2, c - s - 2);
  for (std::size_t g = c + 3;;) {
    const std::size_t slash = line.find('/', g);
    if (slash == npos) return fail(LineError::unterminated_glosses, line.size());
    if (slash == g) return fail(LineError::empty_gloss, g);
    r.glosses.push_back(line.substr(g, slash - g));
    g = slash + 1;
    if (g == line.size()) break;
  }
  return r;
}

void expect_same_parse(const std::string& line) {
  ParsedLine got;
  std::vector<GlossSpan> got_glosses;
  parse_line(line, got, got_glosses);
  const Reference expected = reference_parse(line);
  ASSERT_EQ(got.kind, expected.kind) << ::testing::PrintToString(line);
  EXPECT_EQ(got.error, expected.error) << ::testing::PrintToString(line);
  EXPECT_EQ(got.column, expected.column) << ::testing::PrintToString(line);
  if (got.kind != LineKind::entry) return;
  EXPECT_EQ(got.traditional.data(), expected.traditional.data());
  EXPECT_EQ(got.traditional.size(), expected.traditional.size());
  EXPECT_EQ(got.simplified.data(), expected.simplified.data());
  EXPECT_EQ(got.simplified.size(), expected.simplified.size());
  EXPECT_EQ(got.pinyin.data(), expected.pinyin.data());
  EXPECT_EQ(got.pinyin.size(), expected.pinyin.size());
  ASSERT_EQ(got_glosses.size(), expected.glosses.size()) << ::testing::PrintToString(line);
  for (std::size_t i = 0; i < got_glosses.size(); ++i) {
    EXPECT_EQ(line.data() + got_glosses[i].offset, expected.glosses[i].data());
    EXPECT_EQ(got_glosses[i].size, expected.glosses[i].size());
  }
}

TEST(LineParserReference, AgreesOnHandPickedLines) {
  const std::vector<std::string> lines{
      "好 好 [hao3] /good/",
      "a b [c] /d/",
      "é è [e2] /café/",                                     // two-byte sequences
      "㞞 𪨊 [song2] /(coll.) semen/weak and incompetent/",  // a four-byte sequence
      "\xE0\xA0\x80 \xED\x9F\xBF [x] /U+0800 and U+D7FF/",   // E0 and ED, valid
      "\xE0\x9F\xBF \xE5\xA5\xBD [x] /overlong/",            // E0 overlong
      "\xED\xA0\x80 \xE5\xA5\xBD [x] /surrogate/",           // ED surrogate
      "\xF4\x90\x80\x80 x [x] /beyond U+10FFFF/",
      "\xC1\xBF x [x] /overlong two bytes/",
      "x x [x] /stray \x80 continuation/",
      "x x [x] /cut \xE5\xA5/",  // truncated before the final '/'
      "x x [x] /cut at the end \xE5/",
      "x x [x] /lead then ASCII \xE5x\xA5/",
      "好 好 [hao3] /" + std::string(100, 'g') + "/",  // around 128 bytes
      "好 好 [hao3] /" + std::string(108, 'g') + "/",
      "好 好 [hao3] /" + std::string(109, 'g') + "/",
      "好 好 [hao3] /" + std::string(110, 'g') + "/",
      "好 好 [hao3] /" + std::string(200, 'g') + "/",
      "x x [] /a/",
      "x x [x]/a/",
      "x x [x] a/",
      "x x [x] //",
      "x x [x] /a//",
      "x x [x /a/",
      "x  [x] /a/",
      " x [x] /a/",
      "x x x [x] /a/",
      "x x [x] /a",
      "x x [x] /a/ ",
      "x x [x]] /a/",
      "x x [[x] /a/",
      "x x [x/y] /a/",
      "x\tx [x] /a/",
      "x x [x] /a]b/",
  };
  for (const std::string& line : lines) expect_same_parse(line);
}

// Random lines built from the pieces that matter to the grammar and to UTF-8, short and long.
TEST(LineParserReference, AgreesOnRandomLines) {
  const std::vector<std::string> pieces{
      " ",
      " ",
      "[",
      "]",
      "/",
      "/",
      "a",
      "bc",
      "好",
      "é",
      "𪨊",
      "\xE0\xA0\x80",
      "\xED\x9F\xBF",
      "\xE0\x80",
      "\xED\xA0\x80",
      "\xC0",
      "\xC2",
      "\x80",
      "\xBF",
      "\xF0\x90",
      "\xF4\x90\x80\x80",
      "\xFF",
      "#",
  };
  std::uint64_t state = 42;
  const auto next = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::size_t>(state >> 33);
  };
  for (int round = 0; round < 20000; ++round) {
    std::string line;
    // Mostly well-formed skeletons with random fields.
    const auto field = [&](std::size_t max_pieces) {
      std::string f;
      for (std::size_t k = next() % (max_pieces + 1); k > 0; --k)
        f += pieces[next() % pieces.size()];
      return f;
    };
    if (next() % 4 == 0) {
      line = field(60);
    } else {
      line = field(3) + " " + field(3) + " [" + field(4) + "] /";
      for (std::size_t g = 1 + next() % 4; g > 0; --g) line += field(1 + next() % 30) + "/";
    }
    expect_same_parse(line);
    if (::testing::Test::HasFailure()) break;
  }
}

}  // namespace
}  // namespace bufstream::cedict
