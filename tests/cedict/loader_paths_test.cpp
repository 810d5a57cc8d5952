// The loader's mask path (plain entries read by bit scans over 4 KiB chunks, UTF-8 checked
// by shape) against the byte-by-byte line parser, on random dictionaries that put every kind
// of line (good, malformed, invalid UTF-8, long) across chunk and 64-byte word boundaries, read
// zero-copy and through every reader setup; each test runs once per compiled version of the
// scan (baseline x86-64, and AVX2/BMI where the processor has them).
#include <bufstream/cedict/dictionary.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <bufstream/cedict/line_parser.hpp>
#include <bufstream/kernels/cpu.hpp>

#include "test_streams.hpp"

namespace bufstream::cedict {
namespace {

struct ExpectedEntry {
  std::string traditional, simplified, pinyin;
  std::vector<std::string> glosses;
};

struct Expected {
  std::vector<ExpectedEntry> entries;
  std::uint64_t lines = 0, glosses = 0, comments = 0, malformed = 0;
  bool crlf = false, missing_final_newline = false;
  std::vector<SourcePosition> errors;  // of the malformed lines
  std::vector<std::string> messages;
};

// What a load must find, line by line with the byte-by-byte parser.
Expected reference(const std::string& text) {
  Expected x;
  ParsedLine parsed;
  std::vector<GlossSpan> glosses;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t lf = text.find('\n', start);
    if (lf == std::string::npos) {
      x.missing_final_newline = true;
      lf = text.size();
    }
    const std::string_view line(text.data() + start, lf - start);
    ++x.lines;
    if (!line.empty() && line.back() == '\r') x.crlf = true;
    parse_line(line, parsed, glosses);
    switch (parsed.kind) {
      case LineKind::entry: {
        ExpectedEntry e{std::string(parsed.traditional),
                        std::string(parsed.simplified),
                        std::string(parsed.pinyin),
                        {}};
        for (const GlossSpan& g : glosses) e.glosses.emplace_back(line.substr(g.offset, g.size));
        x.glosses += glosses.size();
        x.entries.push_back(std::move(e));
        break;
      }
      case LineKind::comment:
      case LineKind::metadata: ++x.comments; break;
      case LineKind::malformed:
        ++x.malformed;
        x.errors.push_back({start + parsed.column - 1, x.lines, parsed.column});
        x.messages.push_back(parsed.message);
        break;
    }
    start = lf + 1;
  }
  return x;
}

void expect_matches(const Dictionary& dict, const Expected& x) {
  ASSERT_EQ(dict.size(), x.entries.size());
  for (std::size_t i = 0; i < dict.size(); ++i) {
    const Entry e = dict[i];
    ASSERT_EQ(e.traditional, x.entries[i].traditional) << "entry " << i;
    ASSERT_EQ(e.simplified, x.entries[i].simplified) << "entry " << i;
    ASSERT_EQ(e.pinyin, x.entries[i].pinyin) << "entry " << i;
    ASSERT_EQ(std::vector<std::string>(e.glosses.begin(), e.glosses.end()), x.entries[i].glosses)
        << "entry " << i;
  }
  const Stats s = dict.stats();
  EXPECT_EQ(s.lines, x.lines);
  EXPECT_EQ(s.entries, x.entries.size());
  EXPECT_EQ(s.glosses, x.glosses);
  EXPECT_EQ(s.comment_lines + s.metadata_lines, x.comments);
  EXPECT_EQ(s.malformed_lines, x.malformed);
  EXPECT_EQ(s.crlf_line_ends, x.crlf);
  EXPECT_EQ(s.missing_final_newline, x.missing_final_newline);
  ASSERT_EQ(s.malformed.size(), x.errors.size());
  for (std::size_t i = 0; i < x.errors.size(); ++i) {
    EXPECT_EQ(s.malformed[i].position().offset, x.errors[i].offset) << "error " << i;
    EXPECT_EQ(s.malformed[i].position().line, x.errors[i].line) << "error " << i;
    EXPECT_EQ(s.malformed[i].position().column, x.errors[i].column) << "error " << i;
    EXPECT_NE(s.malformed[i].message().find(x.messages[i]), std::string::npos)
        << s.malformed[i].message();
  }
}

class RandomText {
 public:
  explicit RandomText(std::uint64_t seed) : state_(seed) {}
  std::size_t below(std::size_t n) {
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::size_t>(state_ >> 33) % n;
  }
  // Pieces 0..8 are valid and hold no structure byte; the rest are structure or invalid.
  std::string field(std::size_t max_pieces, std::size_t kinds) {
    static const std::vector<std::string> pieces{
        "a",
        "bc",
        "好",
        "é",
        "𪨊",
        "\xE0\xA0\x80",
        "\xED\x9F\xBF",
        "\xF4\x8F\xBF\xBF",
        "0123456789abcdef",
        " ",
        "[",
        "]",
        "/",
        "\r",
        "\xED\xA0\x80",
        "\xC0\xAF",
        "\x80",
        "\xFF",
        "\xF0\x9F",
        "\xE4\xBD",
    };
    std::string f;
    for (std::size_t k = below(max_pieces + 1); k > 0; --k) f += pieces[below(kinds)];
    return f;
  }
  // A dictionary of `lines` lines, mostly plain entries of every length up to a few hundred
  // bytes, with comments, malformed lines and invalid UTF-8 here and there.
  std::string dictionary(std::size_t lines, std::size_t long_every) {
    std::string text;
    for (std::size_t line = 0; line < lines; ++line) {
      const std::size_t shape = below(12);
      if (shape == 0) {
        text += field(20, 20);  // anything
      } else if (shape == 1) {
        text += "# comment " + field(3, 9);
      } else {
        const std::size_t kinds = shape == 2 ? 20 : 9;
        // Appended piece by piece: GCC 12's -Wrestrict misjudges `"x" + field(...)` at -O2.
        text += 'x';
        text += field(3, kinds);
        text += " y";
        text += field(3, kinds);
        text += " [";
        text += field(4, kinds);
        text += "] /";
        const std::size_t gloss_pieces = below(long_every) == 0 ? 400 : 12;
        // Mostly one to five glosses; one line in eight has up to twelve (past the eight that
        // the AVX-512 scan writes at once).
        for (std::size_t g = 1 + (below(8) == 0 ? below(12) : below(5)); g > 0; --g) {
          text += 'g';
          text += field(below(gloss_pieces) + 1, kinds);
          text += '/';
        }
      }
      text += below(25) == 0 ? "\r\n" : "\n";
    }
    return text;
  }

 private:
  std::uint64_t state_;
};

// Runs each test with the loads forced onto the forms for one instruction set.
class LoaderPaths : public ::testing::TestWithParam<kernels::InstructionSet> {
 protected:
  void SetUp() override {
    if (!kernels::available(GetParam())) GTEST_SKIP() << "this processor does not run the forms";
    kernels::detail::force_instruction_set(GetParam());
  }
  void TearDown() override { kernels::detail::force_instruction_set(std::nullopt); }
};

INSTANTIATE_TEST_SUITE_P(InstructionSets, LoaderPaths,
                         ::testing::Values(kernels::InstructionSet::portable,
                                           kernels::InstructionSet::sse2,
                                           kernels::InstructionSet::avx2,
                                           kernels::InstructionSet::avx512),
                         [](const ::testing::TestParamInfo<kernels::InstructionSet>& param) {
                           return std::string(kernels::name(param.param));
                         });

const ReadOptions lenient{.errors = ErrorMode::lenient, .max_reported_errors = 100000};

TEST_P(LoaderPaths, ZeroCopyAgreesWithTheLineParserAcrossChunks) {
  RandomText random(11);
  for (int round = 0; round < 12; ++round) {
    std::string text = random.dictionary(1500, 50);  // about 60 KiB: many 4 KiB chunks
    if (round % 2 == 1) text.pop_back();             // no final newline
    SCOPED_TRACE(round);
    const Expected x = reference(text);
    ASSERT_GT(x.entries.size(), 500u);
    ASSERT_GT(x.malformed, 10u);
    expect_matches(Dictionary::load_view(text, lenient), x);
  }
}

TEST_P(LoaderPaths, EveryReaderAgreesWithTheLineParser) {
  RandomText random(12);
  for (int round = 0; round < 3; ++round) {
    std::string text = random.dictionary(600, 40);
    if (round == 1) text.pop_back();
    const Expected x = reference(text);
    for (const auto& setup : testing::reader_setups()) {
      SCOPED_TRACE(setup.name);
      auto in = setup.make(text);
      expect_matches(Dictionary::load(*in, lenient), x);
    }
  }
}

// Plain entries whose every part sits at every offset of a 64-byte word: the windows and the
// scans past them.
TEST_P(LoaderPaths, EntriesAtEveryOffsetAndLength) {
  std::string text;
  for (std::size_t pad = 0; pad < 70; ++pad) {
    const std::string word(pad, 'w');
    text += "A" + word + " B [pin" + word + "] /g1/h" + word + "/g3/\n";
    text += "好" + word + " 好 [hao3] /" + word + "x/" + std::string(pad * 3, 'y') + "z/\n";
    text += "C D [" + std::string(pad * 2, 'p') + "] /" + std::string(70 - pad, 'q') + "/r/\n";
  }
  const Expected x = reference(text);
  ASSERT_EQ(x.malformed, 0u);
  expect_matches(Dictionary::load_view(text), x);
  for (const auto& setup : testing::reader_setups()) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make(text);
    expect_matches(Dictionary::load(*in), x);
  }
}

// Strict mode stops at the first bad line with its line number and offset, however many
// entries before it took the mask path.
TEST_P(LoaderPaths, StrictErrorAfterManyChunksHasItsLineAndOffset) {
  std::string text;
  for (int i = 0; i < 3000; ++i) text += "你好 你好 [ni3 hao3] /hello/hi/\n";
  const std::size_t offset = text.size();
  const std::string good_part = "你好 你好 [ni3 hao3] /hello/";
  text += good_part + "\xE4\xBD/\n";
  for (int i = 0; i < 10; ++i) text += "你好 你好 [ni3 hao3] /hello/hi/\n";
  for (const bool zero_copy : {true, false}) {
    try {
      if (zero_copy) {
        (void)Dictionary::load_view(text);
      } else {
        testing::ChunkedReadStream in(text, 7);
        (void)Dictionary::load(in);
      }
      FAIL() << "loaded";
    } catch (const ParseError& e) {
      EXPECT_EQ(e.line(), 3001u);
      EXPECT_EQ(e.column(), good_part.size() + 1);  // the truncated sequence
      EXPECT_EQ(e.position().offset, offset + good_part.size());
      EXPECT_NE(std::string(e.what()).find("UTF-8"), std::string::npos) << e.what();
    }
  }
}

// A line longer than a chunk (4 KiB) goes to the line parser, good or bad.
TEST_P(LoaderPaths, LinesLongerThanAChunk) {
  const std::string gloss(40000, 'g');
  const std::string text =
      "a b [c] /x/\n"
      "L L [l] /" +
      gloss +
      "/y/\n"
      "d e [f] /z/\n"
      "M M [m] /" +
      gloss +
      "\n"
      "g h [i] /w/";
  const Expected x = reference(text);
  ASSERT_EQ(x.entries.size(), 4u);
  ASSERT_EQ(x.malformed, 1u);
  expect_matches(Dictionary::load_view(text, lenient), x);
  for (const auto& setup : testing::reader_setups()) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make(text);
    expect_matches(Dictionary::load(*in, lenient), x);
  }
}

// Entries with CR LF take the mask path too, and say so.
TEST_P(LoaderPaths, CrlfEntries) {
  std::string text;
  for (int i = 0; i < 2000; ++i) text += "你好 你好 [ni3 hao3] /hello/hi/\r\n";
  const Dictionary dict = Dictionary::load_view(text);
  EXPECT_EQ(dict.size(), 2000u);
  EXPECT_EQ(dict[1999].english(), "hello/hi");
  EXPECT_TRUE(dict.stats().crlf_line_ends);
  expect_matches(dict, reference(text));
}

}  // namespace
}  // namespace bufstream::cedict
