// Dictionary::load_lines, the Smalltalk way of reading (a line at a time with next_line): it must
// give what the bulk loader gives, entry by entry, whatever the stream under it.
#include <bufstream/cedict/dictionary.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <unistd.h>

#include <bufstream/buffered_read_stream.hpp>
#include <bufstream/errors.hpp>
#include <bufstream/fd_read_stream.hpp>
#include <bufstream/memory_read_stream.hpp>

#include "test_streams.hpp"

namespace bufstream::cedict {
namespace {

constexpr const char* cedict_file = BUFSTREAM_CEDICT_FILE;

// Every field of every entry, each gloss, and the counts of the load.
void expect_same(const Dictionary& lines, const Dictionary& bulk) {
  ASSERT_EQ(lines.size(), bulk.size());
  for (std::size_t i = 0; i < bulk.size(); ++i) {
    const Entry a = lines[i];
    const Entry b = bulk[i];
    const std::vector<std::string_view> ga(a.glosses.begin(), a.glosses.end());
    const std::vector<std::string_view> gb(b.glosses.begin(), b.glosses.end());
    if (a.traditional != b.traditional || a.simplified != b.simplified || a.pinyin != b.pinyin ||
        ga != gb || a.index != b.index) {
      FAIL() << "entry " << i << " differs: " << a.traditional << " [" << a.pinyin << "] against "
             << b.traditional << " [" << b.pinyin << "]";
    }
  }
  const Stats sa = lines.stats();
  const Stats sb = bulk.stats();
  EXPECT_EQ(sa.bytes, sb.bytes);
  EXPECT_EQ(sa.lines, sb.lines);
  EXPECT_EQ(sa.entries, sb.entries);
  EXPECT_EQ(sa.glosses, sb.glosses);
  EXPECT_EQ(sa.comment_lines, sb.comment_lines);
  EXPECT_EQ(sa.metadata_lines, sb.metadata_lines);
  EXPECT_EQ(sa.malformed_lines, sb.malformed_lines);
  EXPECT_EQ(sa.missing_final_newline, sb.missing_final_newline);
  EXPECT_EQ(sa.crlf_line_ends, sb.crlf_line_ends);
  EXPECT_EQ(sa.metadata, sb.metadata);
  EXPECT_EQ(sa.declared_entries, sb.declared_entries);
  ASSERT_EQ(sa.malformed.size(), sb.malformed.size());
  for (std::size_t i = 0; i < sa.malformed.size(); ++i)
    EXPECT_STREQ(sa.malformed[i].what(), sb.malformed[i].what());
}

TEST(LineLoader, ShippedFileAgreesEntryByEntryWithTheBulkLoader) {
  FdReadStream file(cedict_file);
  BufferedReadStream in(file);
  const Dictionary lines = Dictionary::load_lines(in);
  EXPECT_EQ(lines.size(), 116937u);
  EXPECT_FALSE(lines.zero_copy());
  expect_same(lines, Dictionary::map_file(cedict_file));
}

// Comments, metadata, a BOM, CRLF and LF lines, a last line without a line end, Latin letters
// and a character outside the BMP.
const std::string small_file =
    "\xEF\xBB\xBF# CC-CEDICT\r\n"
    "#! version=1\n"
    "#! entries=4\n"
    "3C 3C [san1 C] /abbr. for computers, communications, and consumer electronics/China Compulsory Certificate (CCC)/\n"
    "了 了 [liao3] /to finish/variant of 瞭|了[liao3]/\r\n"
    "㞞 𪨊 [song2] /(coll.) semen/weak and incompetent/\n"
    "綠 绿 [lu:4] /green/";

TEST(LineLoader, SmallFileOverEveryReader) {
  const Dictionary bulk = Dictionary::load_view(small_file);
  ASSERT_EQ(bulk.size(), 4u);
  EXPECT_TRUE(bulk.stats().crlf_line_ends);
  EXPECT_TRUE(bulk.stats().missing_final_newline);
  for (const auto& setup : testing::reader_setups()) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make(small_file);
    expect_same(Dictionary::load_lines(*in), bulk);
  }
}

TEST(LineLoader, LastLineEndedOrNot) {
  for (const std::string& text :
       {small_file + "\n", small_file + "\r\n", std::string("#! entries=0\n"), std::string()}) {
    MemoryReadStream in(text);
    expect_same(Dictionary::load_lines(in), Dictionary::load_view(text));
  }
}

TEST(LineLoader, EntriesOutliveTheLinesTheyWereReadFrom) {
  Dictionary dict;
  {
    std::string text = small_file;
    testing::ChunkedReadStream in(text, 5);
    dict = Dictionary::load_lines(in);
    text.assign(text.size(), 'x');
  }
  ASSERT_EQ(dict.size(), 4u);
  EXPECT_EQ(dict[1].english(), "to finish/variant of 瞭|了[liao3]");
  EXPECT_EQ(dict[3].simplified, "绿");
}

// Over the unbuffered descriptor stream (one read(2) per byte) the result is the same.
TEST(LineLoader, OverAnUnbufferedDescriptor) {
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() /
      ("bufstream-line-loader-" + std::to_string(::getpid()) + ".u8");
  {
    std::ofstream out(path, std::ios::binary);
    out << small_file;
  }
  FdReadStream in(path);
  const Dictionary lines = Dictionary::load_lines(in);
  std::filesystem::remove(path);
  expect_same(lines, Dictionary::load_view(small_file));
}

TEST(LineLoader, StrictErrorsNameTheSameLineColumnAndByte) {
  const std::string text = "# header\n好 好 [hao3] /good/\n你 你 [ni3 /you/\n";
  std::string bulk_error;
  try {
    (void)Dictionary::load_view(text, {.source_name = "d.u8"});
  } catch (const ParseError& e) {
    bulk_error = e.what();
  }
  ASSERT_FALSE(bulk_error.empty());
  for (const auto& setup : testing::reader_setups()) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make(text);
    try {
      (void)Dictionary::load_lines(*in, {.source_name = "d.u8"});
      FAIL() << "no error";
    } catch (const ParseError& e) {
      EXPECT_EQ(e.line(), 3u);
      EXPECT_EQ(e.what(), bulk_error);
    }
  }
}

TEST(LineLoader, LenientModeSkipsAndCountsAsTheBulkLoaderDoes) {
  const std::string text =
      "好 好 [hao3] /good/\nnot an entry\n你 你 [ni3] /you/\n\n他 他 [ta1] /he/";
  const ReadOptions lenient{.errors = ErrorMode::lenient};
  for (const auto& setup : testing::reader_setups()) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make(text);
    const Dictionary lines = Dictionary::load_lines(*in, lenient);
    EXPECT_EQ(lines.size(), 3u);
    EXPECT_EQ(lines.stats().malformed_lines, 2u);
    expect_same(lines, Dictionary::load_view(text, lenient));
  }
}

// The documented difference: next_line ends a line at a CR alone too.
TEST(LineLoader, ACarriageReturnAloneEndsALine) {
  MemoryReadStream in("好 好 [hao3] /good/\r你 你 [ni3] /you/\n");
  const Dictionary dict = Dictionary::load_lines(in);
  ASSERT_EQ(dict.size(), 2u);
  EXPECT_EQ(dict[1].traditional, "你");
  EXPECT_EQ(dict.stats().lines, 2u);
}

TEST(LineLoader, LookUpsWork) {
  MemoryReadStream in(small_file);
  const Dictionary dict = Dictionary::load_lines(in);
  ASSERT_EQ(dict.find_headword("绿").size(), 1u);
  EXPECT_EQ(dict.find_pinyin("lv").size(), 1u);
  EXPECT_EQ(dict.find_english("semen").size(), 1u);
}

}  // namespace
}  // namespace bufstream::cedict
