// Loading small dictionaries through every kind of stream: entries, comments, metadata, line
// ends, and malformed lines in strict and lenient mode.
#include <bufstream/cedict/dictionary.hpp>

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <bufstream/cedict/stats.hpp>
#include <bufstream/memory_read_stream.hpp>
#include <bufstream/string_write_stream.hpp>

#include "test_streams.hpp"

namespace bufstream::cedict {
namespace {

// A small file shaped like the real one: header comments, metadata, entries with Latin
// letters, digits, bracketed pinyin references, several readings, a character outside the
// BMP, and no newline after the last line.
const std::string small_file =
    "# CC-CEDICT\n"
    "# License: CC BY-SA 4.0\n"
    "#! version=1\n"
    "#! entries=6\n"
    "3C 3C [san1 C] /abbr. for computers, communications, and consumer electronics/China Compulsory Certificate (CCC)/\n"
    "88 88 [ba1 ba1] /(Internet slang) bye-bye (alternative for 拜拜[bai2 bai2])/\n"
    "了 了 [le5] /(modal particle intensifying preceding clause)/(completed action marker)/\n"
    "了 了 [liao3] /to finish/to achieve/variant of 瞭|了[liao3]/to understand clearly/\n"
    "㞞 𪨊 [song2] /(coll.) semen/weak and incompetent/\n"
    "綠 绿 [lu:4] /green/";

std::vector<std::string> glosses_of(const Entry& e) { return {e.glosses.begin(), e.glosses.end()}; }

void expect_small_file(const Dictionary& dict) {
  ASSERT_EQ(dict.size(), 6u);
  EXPECT_EQ(dict[0].traditional, "3C");
  EXPECT_EQ(dict[0].pinyin, "san1 C");
  EXPECT_EQ(
      glosses_of(dict[0]),
      (std::vector<std::string>{"abbr. for computers, communications, and consumer electronics",
                                "China Compulsory Certificate (CCC)"}));
  EXPECT_EQ(dict[1].english(), "(Internet slang) bye-bye (alternative for 拜拜[bai2 bai2])");
  EXPECT_EQ(dict[3].index, 3u);
  EXPECT_EQ(dict[3].pinyin, "liao3");
  EXPECT_EQ(dict[3].english(),
            "to finish/to achieve/variant of 瞭|了[liao3]/to understand clearly");
  EXPECT_EQ(dict[4].simplified, "𪨊");
  EXPECT_EQ(dict[5].traditional, "綠");
  EXPECT_EQ(dict[5].simplified, "绿");
  EXPECT_EQ(glosses_of(dict[5]), std::vector<std::string>{"green"});
  const Stats s = dict.stats();
  EXPECT_EQ(s.lines, 10u);
  EXPECT_EQ(s.entries, 6u);
  EXPECT_EQ(s.glosses, 12u);
  EXPECT_EQ(s.comment_lines, 2u);
  EXPECT_EQ(s.metadata_lines, 2u);
  EXPECT_EQ(s.malformed_lines, 0u);
  EXPECT_TRUE(s.missing_final_newline);
  EXPECT_FALSE(s.crlf_line_ends);
  EXPECT_EQ(s.declared_entries, 6u);
  EXPECT_EQ(s.bytes, small_file.size());
  EXPECT_EQ(dict.metadata("version"), "1");
  EXPECT_EQ(dict.metadata("date"), std::nullopt);
}

TEST(DictionaryRead, SmallFileOverEveryReader) {
  for (const auto& setup : testing::reader_setups()) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make(small_file);
    const Dictionary dict = Dictionary::load(*in);
    expect_small_file(dict);
    EXPECT_FALSE(dict.zero_copy());
  }
}

TEST(DictionaryRead, CopiedTextOutlivesTheStream) {
  Dictionary dict;
  {
    std::string text = small_file;
    auto in = std::make_unique<testing::ChunkedReadStream>(text, 3);
    dict = Dictionary::load(*in);
    text.assign(text.size(), 'x');
  }
  expect_small_file(dict);
}

TEST(DictionaryRead, ZeroCopyViewsPointIntoTheText) {
  const Dictionary dict = Dictionary::load_view(small_file);
  expect_small_file(dict);
  EXPECT_TRUE(dict.zero_copy());
  const char* const begin = small_file.data();
  const char* const end = begin + small_file.size();
  for (std::size_t i = 0; i < dict.size(); ++i) {
    EXPECT_GE(dict[i].traditional.data(), begin);
    EXPECT_LT(dict[i].english().data(), end);
  }
  EXPECT_EQ(dict.memory_usage().text_bytes, 0u);
}

TEST(DictionaryRead, FinalNewlinePresent) {
  for (const auto& setup : testing::reader_setups()) {
    SCOPED_TRACE(setup.name);
    const std::string text = small_file + "\n";
    auto in = setup.make(text);
    const Dictionary dict = Dictionary::load(*in);
    EXPECT_EQ(dict.size(), 6u);
    EXPECT_FALSE(dict.stats().missing_final_newline);
    EXPECT_EQ(dict.stats().lines, 10u);
  }
}

TEST(DictionaryRead, CrlfLineEnds) {
  std::string crlf;
  for (char c : small_file) {
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  crlf += "\r\n";
  for (const auto& setup : testing::reader_setups()) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make(crlf);
    const Dictionary dict = Dictionary::load(*in);
    EXPECT_EQ(dict.size(), 6u);
    EXPECT_EQ(dict[5].english(), "green");
    EXPECT_EQ(dict.metadata("version"), "1");
    EXPECT_TRUE(dict.stats().crlf_line_ends);
    EXPECT_EQ(dict.stats().malformed_lines, 0u);
  }
  EXPECT_EQ(Dictionary::load_view(crlf).size(), 6u);
}

TEST(DictionaryRead, ByteOrderMarkIsSkipped) {
  const std::string text = "\xEF\xBB\xBF" + small_file;
  for (const auto& setup : testing::reader_setups()) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make(text);
    EXPECT_EQ(Dictionary::load(*in).size(), 6u);
  }
  EXPECT_EQ(Dictionary::load_view(text).size(), 6u);
}

TEST(DictionaryRead, EmptyInput) {
  for (const auto& setup : testing::reader_setups()) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make("");
    const Dictionary dict = Dictionary::load(*in);
    EXPECT_TRUE(dict.empty());
    EXPECT_EQ(dict.stats().lines, 0u);
    EXPECT_FALSE(dict.stats().missing_final_newline);
  }
}

TEST(DictionaryRead, LongLineLongerThanEveryBuffer) {
  std::string gloss(200000, 'a');
  const std::string text = "長 长 [chang2] /" + gloss + "/short/\n好 好 [hao3] /good/";
  for (const auto& setup : testing::reader_setups()) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make(text);
    const Dictionary dict = Dictionary::load(*in);
    ASSERT_EQ(dict.size(), 2u);
    EXPECT_EQ(dict[0].glosses[0], gloss);
    EXPECT_EQ(dict[0].glosses[1], "short");
    EXPECT_EQ(dict[1].english(), "good");
  }
}

// One malformed line of each kind the issue names, at a known line.
struct Malformed {
  std::string name;
  std::string line;
  std::uint64_t column;
  std::string message;
};

std::vector<Malformed> malformed_lines() {
  return {
      {"missing bracket", "好 好 hao3] /good/", 9, "expected '[' to open the pinyin but found 'h'"},
      {"missing closing bracket", "好 好 [hao3 /good/", 21,
       "expected ']' to close the pinyin but found end of line"},
      {"missing slashes", "好 好 [hao3] good", 16,
       "expected '/' to open the glosses but found 'g'"},
      {"missing final slash", "好 好 [hao3] /good", 21,
       "expected '/' to close the last gloss but found end of line"},
      {"empty line", "", 1, "expected an entry or a comment but found an empty line"},
      {"invalid UTF-8", "好 好 [hao3] /\xC0\x80/", 17,
       "expected UTF-8 text but found byte 0xc0 (invalid UTF-8: overlong encoding)"},
  };
}

const std::string before = "# header\n你好 你好 [ni3 hao3] /hello/hi/\n";  // two lines, 45 bytes
const std::string after = "\n綠 绿 [lu:4] /green/\n";

TEST(DictionaryRead, StrictModeThrowsWithLineColumnAndOffset) {
  for (const Malformed& m : malformed_lines()) {
    SCOPED_TRACE(m.name);
    const std::string text = before + m.line + after;
    for (const auto& setup : testing::reader_setups()) {
      SCOPED_TRACE(setup.name);
      auto in = setup.make(text);
      try {
        (void)Dictionary::load(*in, {.source_name = "small.u8"});
        ADD_FAILURE() << "no ParseError";
      } catch (const ParseError& e) {
        EXPECT_EQ(e.line(), 3u);
        EXPECT_EQ(e.column(), m.column);
        EXPECT_EQ(e.offset(), before.size() + m.column - 1);
        EXPECT_EQ(e.message(), m.message);
        EXPECT_EQ(e.source_name(), "small.u8");
        EXPECT_NE(std::string(e.what()).find("small.u8:3:"), std::string::npos) << e.what();
      }
    }
    EXPECT_THROW((void)Dictionary::load_view(text), ParseError);
  }
}

TEST(DictionaryRead, LenientModeSkipsAndCounts) {
  std::string text = before;
  for (const Malformed& m : malformed_lines()) text += m.line + "\n";
  text += "綠 绿 [lu:4] /green/";
  for (const auto& setup : testing::reader_setups()) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make(text);
    const Dictionary dict =
        Dictionary::load(*in, {.errors = ErrorMode::lenient, .max_reported_errors = 4});
    ASSERT_EQ(dict.size(), 2u);
    EXPECT_EQ(dict[0].traditional, "你好");
    EXPECT_EQ(dict[1].traditional, "綠");
    const Stats s = dict.stats();
    EXPECT_EQ(s.malformed_lines, malformed_lines().size());
    EXPECT_EQ(s.lines, 2 + malformed_lines().size() + 1);
    ASSERT_EQ(s.malformed.size(), 4u);  // only the first four are kept
    for (std::size_t i = 0; i < s.malformed.size(); ++i) {
      EXPECT_EQ(s.malformed[i].line(), 3 + i);
      EXPECT_EQ(s.malformed[i].column(), malformed_lines()[i].column);
      EXPECT_EQ(s.malformed[i].message(), malformed_lines()[i].message);
    }
  }
  const Dictionary view = Dictionary::load_view(text, {.errors = ErrorMode::lenient});
  EXPECT_EQ(view.size(), 2u);
  EXPECT_EQ(view.stats().malformed.size(), malformed_lines().size());
}

TEST(DictionaryRead, LenientModeMalformedLastLineWithoutNewline) {
  const std::string text = before + "好 好 [hao3] /good";
  const Dictionary dict = Dictionary::load_view(text, {.errors = ErrorMode::lenient});
  EXPECT_EQ(dict.size(), 1u);
  EXPECT_EQ(dict.stats().malformed_lines, 1u);
  EXPECT_TRUE(dict.stats().missing_final_newline);
}

TEST(DictionaryRead, PrintStats) {
  const std::string text = small_file + "\nbad line\n";
  const Dictionary dict = Dictionary::load_view(text, {.errors = ErrorMode::lenient});
  StringWriteStream out;
  print_stats(out, dict.stats(), "small.u8");
  const std::string report = std::string(out.view());
  for (const char* expected :
       {"small.u8\n", "entries:              6\n", "declared entries:     6 (matches)\n",
        "malformed lines:      1\n", "#! version:           1\n",
        "malformed: <input>:11:9: expected ' [' and the pinyin"}) {
    EXPECT_NE(report.find(expected), std::string::npos) << expected << "\n---\n" << report;
  }
}

// Twelve megabytes of the shortest entries: the tables, sized for the usual 76 bytes per
// entry, start in 2 MiB-aligned blocks and must grow several times (moved by hand, since their
// data does not start at their allocation), through a zero-copy load and a copying one.
TEST(DictionaryRead, TablesGrowBeyondTheirEstimate) {
  std::string text;
  const std::size_t count = 12 * 1024 * 1024 / 16;
  text.reserve(count * 16);
  for (std::size_t i = 0; i < count; ++i) {
    text += "a b [";
    text += static_cast<char>('a' + i % 26);
    text += "] /x/";
    text += static_cast<char>('a' + i / 26 % 26);
    text += "/z/\n";  // 16 bytes
  }
  const auto check = [&](const Dictionary& dict) {
    ASSERT_EQ(dict.size(), count);
    for (std::size_t i : {std::size_t{0}, std::size_t{1}, count / 2, count - 1}) {
      const Entry e = dict[i];
      EXPECT_EQ(e.traditional, "a");
      EXPECT_EQ(e.simplified, "b");
      EXPECT_EQ(e.pinyin, std::string(1, static_cast<char>('a' + i % 26)));
      EXPECT_EQ(glosses_of(e),
                (std::vector<std::string>{"x", std::string(1, static_cast<char>('a' + i / 26 % 26)),
                                          "z"}));
    }
    EXPECT_EQ(dict.stats().glosses, 3 * count);
  };
  check(Dictionary::load_view(text));
  MemoryReadStream in(text);
  check(Dictionary::load(in));
}

TEST(DictionaryRead, AtChecksBounds) {
  const Dictionary dict = Dictionary::load_view(small_file);
  EXPECT_EQ(dict.at(5).traditional, "綠");
  EXPECT_THROW((void)dict.at(6), AccessError);
}

TEST(DictionaryRead, MovedDictionaryKeepsItsEntries) {
  Dictionary a = Dictionary::load_view(small_file);
  const char* text = a[0].traditional.data();
  Dictionary b = std::move(a);
  EXPECT_EQ(b[0].traditional.data(), text);
  expect_small_file(b);
}

}  // namespace
}  // namespace bufstream::cedict

// ---- Zero-copy loads and loads through a one-byte stream agree ----------------------------

namespace bufstream::cedict {
namespace {

// Random dictionaries of good and bad lines, read zero-copy (whole 4 KiB chunks at a time)
// and through a one-byte-at-a-time stream (which hands the loader one line at a time as its LF
// arrives): the same entries, counts and reported errors. loader_paths_test.cpp compares both
// with the byte-by-byte line parser.
TEST(DictionaryRead, FastPathAgreesOnRandomDictionaries) {
  const std::vector<std::string> pieces{
      " ",    "[",    "]",    "/", "a", "bc", "好", "é", "𪨊", "\xE0\xA0\x80", "\xED\xA0\x80",
      "\xC0", "\x80", "\xFF",
  };
  std::uint64_t state = 7;
  const auto next = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::size_t>(state >> 33);
  };
  const auto field = [&](std::size_t max_pieces, std::size_t kinds) {
    std::string f;
    for (std::size_t k = next() % (max_pieces + 1); k > 0; --k) f += pieces[next() % kinds];
    return f;
  };
  for (int round = 0; round < 40; ++round) {
    std::string text;
    for (int line = 0; line < 200; ++line) {
      const std::size_t shape = next() % 10;
      if (shape == 0) {
        text += field(20, pieces.size());  // anything
      } else if (shape == 1) {
        text += "# comment " + field(3, 7);
      } else {
        // A well-formed skeleton; its fields are mostly valid, sometimes not.
        const std::size_t kinds = shape == 2 ? pieces.size() : 9;
        text += "x" + field(3, kinds) + " y" + field(3, kinds) + " [" + field(3, kinds) + "] /";
        for (std::size_t g = 1 + next() % 4; g > 0; --g) {
          // Appended piece by piece: GCC 12's -Wrestrict misjudges `"g" + field(...)` at -O2.
          text += 'g';
          text += field(1 + next() % 40, kinds);
          text += '/';
        }
      }
      text += next() % 20 == 0 ? "\r\n" : "\n";
    }
    if (next() % 2 == 0) text.pop_back();  // sometimes no final newline
    const ReadOptions lenient{.errors = ErrorMode::lenient, .max_reported_errors = 1000};
    const Dictionary fast = Dictionary::load_view(text, lenient);
    testing::ChunkedReadStream bytes(text, 1);
    const Dictionary slow = Dictionary::load(bytes, lenient);
    ASSERT_EQ(fast.size(), slow.size());
    for (std::size_t i = 0; i < fast.size(); ++i) {
      ASSERT_EQ(fast[i].traditional, slow[i].traditional);
      ASSERT_EQ(fast[i].simplified, slow[i].simplified);
      ASSERT_EQ(fast[i].pinyin, slow[i].pinyin);
      ASSERT_EQ(fast[i].english(), slow[i].english());
      ASSERT_EQ(fast[i].glosses.size(), slow[i].glosses.size());
    }
    const Stats a = fast.stats();
    const Stats b = slow.stats();
    EXPECT_EQ(a.lines, b.lines);
    EXPECT_EQ(a.entries, b.entries);
    EXPECT_EQ(a.glosses, b.glosses);
    EXPECT_EQ(a.comment_lines, b.comment_lines);
    EXPECT_EQ(a.malformed_lines, b.malformed_lines);
    EXPECT_EQ(a.crlf_line_ends, b.crlf_line_ends);
    EXPECT_EQ(a.missing_final_newline, b.missing_final_newline);
    ASSERT_EQ(a.malformed.size(), b.malformed.size());
    for (std::size_t i = 0; i < a.malformed.size(); ++i) {
      EXPECT_EQ(a.malformed[i].position(), b.malformed[i].position());
      EXPECT_EQ(a.malformed[i].message(), b.malformed[i].message());
    }
    EXPECT_GT(a.entries, 0u);
    EXPECT_GT(a.malformed_lines, 0u);
  }
}

}  // namespace
}  // namespace bufstream::cedict
