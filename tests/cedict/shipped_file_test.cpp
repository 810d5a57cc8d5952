// The CC-CEDICT release shipped in bench/data, loaded fully by every loader: bufstream's (over
// an unbuffered descriptor, a buffered one, a mapped file read as a stream, and zero-copy) and
// the four classic steps, which must all agree entry by entry.
#include <bufstream/cedict/dictionary.hpp>

#include <algorithm>
#include <cctype>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <bufstream/buffered_read_stream.hpp>
#include <bufstream/fd_read_stream.hpp>
#include <bufstream/kernels/cpu.hpp>
#include <bufstream/mapped_file.hpp>
#include <bufstream/utf8.hpp>

#include "classic_loaders.hpp"

namespace bufstream::cedict {
namespace {

constexpr const char* cedict_file = BUFSTREAM_CEDICT_FILE;
constexpr std::size_t shipped_entries = 116937;

// The zero-copy load, shared by the tests that only compare against it.
const Dictionary& reference() {
  static const Dictionary dict = Dictionary::map_file(cedict_file);
  return dict;
}

struct Expected {
  std::size_t index;
  const char* traditional;
  const char* simplified;
  const char* pinyin;
  std::vector<std::string> glosses;
};

// Entries checked by hand against the file.
const std::vector<Expected>& hand_checked() {
  static const std::vector<Expected> entries{
      {0, "%", "%", "pa1", {"percent (Tw)"}},  // the first entry
      {2,
       "3C",
       "3C",
       "san1 C",  // Latin letters
       {"abbr. for computers, communications, and consumer electronics",
        "China Compulsory Certificate (CCC)"}},
      {shipped_entries - 1,
       "\U00028B4E",
       "\U0002CB73",
       "xi3",
       {"seaborgium (chemistry)"}},  // the last line, no LF
  };
  return entries;
}

void expect_shipped(const Dictionary& dict) {
  ASSERT_EQ(dict.size(), shipped_entries);
  const Stats s = dict.stats();
  EXPECT_EQ(s.entries, shipped_entries);
  EXPECT_EQ(s.declared_entries, shipped_entries);
  EXPECT_EQ(s.metadata_lines, 9u);
  EXPECT_EQ(s.comment_lines, 21u);
  EXPECT_EQ(s.malformed_lines, 0u);
  EXPECT_EQ(s.lines, 116967u);  // 116,966 LFs and a last line without one
  EXPECT_EQ(s.bytes, 8912821u);
  EXPECT_TRUE(s.missing_final_newline);
  EXPECT_EQ(dict.metadata("date"), "2019-05-27T20:06:35Z");
  for (const Expected& x : hand_checked()) {
    const Entry e = dict[x.index];
    EXPECT_EQ(e.traditional, x.traditional);
    EXPECT_EQ(e.simplified, x.simplified);
    EXPECT_EQ(e.pinyin, x.pinyin);
    EXPECT_EQ(std::vector<std::string>(e.glosses.begin(), e.glosses.end()), x.glosses);
  }
}

// Every entry equal to the reference's, field by field.
void expect_same_entries(const Dictionary& dict) {
  const Dictionary& ref = reference();
  ASSERT_EQ(dict.size(), ref.size());
  for (std::size_t i = 0; i < ref.size(); ++i) {
    const Entry a = dict[i];
    const Entry b = ref[i];
    if (a.traditional != b.traditional || a.simplified != b.simplified || a.pinyin != b.pinyin ||
        a.english() != b.english() || a.glosses.size() != b.glosses.size()) {
      FAIL() << "entry " << i << " differs: " << a.traditional << " / " << b.traditional;
    }
  }
}

TEST(ShippedFile, ZeroCopyMapped) {
  expect_shipped(reference());
  EXPECT_TRUE(reference().zero_copy());
}

// The forms for each instruction set load the same entries as the default ones (the reference).
TEST(ShippedFile, EveryInstructionSetLoadsTheSameEntries) {
  for (const kernels::InstructionSet set : kernels::available_sets()) {
    SCOPED_TRACE(kernels::name(set));
    kernels::detail::force_instruction_set(set);
    const Dictionary mapped = Dictionary::map_file(cedict_file);
    const Dictionary buffered = Dictionary::load_file(cedict_file);
    kernels::detail::force_instruction_set(std::nullopt);
    expect_shipped(mapped);
    expect_same_entries(mapped);
    expect_shipped(buffered);
    expect_same_entries(buffered);
  }
}

TEST(ShippedFile, BufferedDescriptor) {
  FdReadStream file{std::filesystem::path(cedict_file)};
  BufferedReadStream in(file);
  const Dictionary dict = Dictionary::load(in);
  expect_shipped(dict);
  expect_same_entries(dict);
}

TEST(ShippedFile, LoadFile) {
  const Dictionary dict = Dictionary::load_file(cedict_file);
  expect_shipped(dict);
  expect_same_entries(dict);
}

TEST(ShippedFile, SmallBufferedDescriptor) {
  FdReadStream file{std::filesystem::path(cedict_file)};
  BufferedReadStream in(file, {.buffer_size = 61});  // most lines straddle two windows
  const Dictionary dict = Dictionary::load(in);
  expect_shipped(dict);
  expect_same_entries(dict);
}

TEST(ShippedFile, MappedFileReadAsAStream) {
  MappedFile in{std::filesystem::path(cedict_file)};
  const Dictionary dict = Dictionary::load(in);
  expect_shipped(dict);
  expect_same_entries(dict);
  EXPECT_FALSE(dict.zero_copy());
}

TEST(ShippedFile, UnbufferedDescriptor) {
  // One read(2) per byte: nine million system calls, the slow baseline of the benchmark.
  FdReadStream in{std::filesystem::path(cedict_file)};
  const Dictionary dict = Dictionary::load(in);
  expect_shipped(dict);
  expect_same_entries(dict);
}

TEST(ShippedFile, SeveralReadingsAndNonBmpHeadwords) {
  const Dictionary& d = reference();
  const auto le = d.find_traditional("了");
  ASSERT_EQ(le.size(), 2u);
  EXPECT_EQ(le[0].pinyin, "le5");
  EXPECT_EQ(le[1].pinyin, "liao3");
  const auto song = d.find_simplified("𪨊");  // outside the Basic Multilingual Plane
  ASSERT_EQ(song.size(), 1u);
  EXPECT_EQ(song[0].traditional, "㞞");
  EXPECT_EQ(song[0].english(), "(coll.) semen/weak and incompetent");
}

TEST(ShippedFile, Lookups) {
  const Dictionary& d = reference();
  const auto hello = d.find_pinyin("ni hao");
  ASSERT_FALSE(hello.empty());
  EXPECT_EQ(hello[0].simplified, "你好");
  const auto green = d.find_pinyin("lv4");
  bool found_green = false;
  for (const Entry& e : green) found_green = found_green || e.simplified == "绿";
  EXPECT_TRUE(found_green);
  // Tone marks and tone digits find the same entries.
  for (const auto& [marks, digits] :
       {std::pair{"nǐ hǎo", "ni3 hao3"}, std::pair{"Zhōngguó", "Zhong1 guo2"},
        std::pair{"lǜ", "lu:4"}, std::pair{"Xī'ān", "Xi1 an1"}}) {
    std::vector<std::size_t> a, b;
    for (const Entry& e : d.find_pinyin(marks)) a.push_back(e.index);
    for (const Entry& e : d.find_pinyin(digits)) b.push_back(e.index);
    EXPECT_FALSE(a.empty()) << marks;
    EXPECT_EQ(a, b) << marks;
  }
  const auto cats = d.find_english("cat");
  bool found_cat = false;
  for (const Entry& e : cats) {
    found_cat = found_cat || e.simplified == "猫";
    // whole words only: every result has the word "cat" on its own
    std::string lower(e.english());
    for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    bool whole = false;
    for (std::size_t at = lower.find("cat"); at != std::string::npos;
         at = lower.find("cat", at + 1)) {
      const bool left = at == 0 || !std::isalnum(static_cast<unsigned char>(lower[at - 1]));
      const bool right =
          at + 3 == lower.size() || !std::isalnum(static_cast<unsigned char>(lower[at + 3]));
      whole = whole || (left && right);
    }
    EXPECT_TRUE(whole) << e.english();
  }
  EXPECT_TRUE(found_cat);
}

// Every look-up kind against a scan of all entries, for keys taken from entries spread over
// the file.
TEST(ShippedFile, LookupsAgreeWithAFullScan) {
  const Dictionary& d = reference();
  const auto lower = [](std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return out;
  };
  const auto is_word_byte = [](char c) {
    const auto b = static_cast<unsigned char>(c);
    return std::isalnum(b) || b >= 0x80;
  };
  // The glosses joined by '/', lower-cased: '/' is no word byte, so words do not run across.
  std::vector<std::string> lowered(d.size());
  for (std::size_t i = 0; i < d.size(); ++i) lowered[i] = lower(d[i].english());
  const auto has_word = [&](std::size_t entry, const std::string& word) {
    const std::string& text = lowered[entry];
    for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
      const bool left = at == 0 || !is_word_byte(text[at - 1]);
      const bool right = at + word.size() == text.size() || !is_word_byte(text[at + word.size()]);
      if (left && right) return true;
    }
    return false;
  };
  const auto numbers = [](const std::vector<Entry>& found) {
    std::vector<std::size_t> out;
    for (const Entry& e : found) out.push_back(e.index);
    return out;
  };
  for (std::size_t sample = 0; sample < 25; ++sample) {
    const Entry key = d[sample * 2917 % d.size()];
    std::string word;  // the first word of the first gloss that has one
    for (const char c : key.glosses[0]) {
      if (is_word_byte(c)) {
        word += c;
      } else if (!word.empty()) {
        break;
      }
    }
    const std::string lowered_word = lower(word);
    const std::string lowered_pinyin = lower(key.pinyin);
    std::vector<std::size_t> traditional, simplified, english, pinyin;
    for (std::size_t i = 0; i < d.size(); ++i) {
      const Entry e = d[i];
      if (e.traditional == key.traditional) traditional.push_back(i);
      if (e.simplified == key.simplified) simplified.push_back(i);
      if (!word.empty() && has_word(i, lowered_word)) english.push_back(i);
      if (e.pinyin.size() == key.pinyin.size() && lower(e.pinyin) == lowered_pinyin)
        pinyin.push_back(i);  // same spelling: found by any key
    }
    SCOPED_TRACE(std::string(key.traditional) + " " + word);
    EXPECT_EQ(numbers(d.find_traditional(key.traditional)), traditional);
    EXPECT_EQ(numbers(d.find_simplified(key.simplified)), simplified);
    if (!word.empty()) {
      EXPECT_EQ(numbers(d.find_english(word)), english);
    }
    const std::vector<std::size_t> by_pinyin = numbers(d.find_pinyin(key.pinyin));
    for (const std::size_t i : pinyin) {
      EXPECT_NE(std::find(by_pinyin.begin(), by_pinyin.end(), i), by_pinyin.end()) << d[i].pinyin;
    }
  }
}

TEST(ShippedFile, MemoryStaysWellUnderFourTimesTheFile) {
  const Dictionary dict = Dictionary::load_file(cedict_file);
  dict.build_indexes();
  const MemoryUsage m = dict.memory_usage();
  EXPECT_GT(m.text_bytes, 0u);
  EXPECT_GT(m.index_bytes, 0u);
  EXPECT_LT(m.total(), 3 * dict.stats().bytes)
      << "text " << m.text_bytes << ", entries " << m.entry_bytes << ", indexes " << m.index_bytes;
}

// ---- The classic steps agree with bufstream's loader ------------------------------------

template <class Classic>
void expect_classic_agrees(const Classic& classic) {
  const Dictionary& ref = reference();
  ASSERT_EQ(classic.entry_count(), shipped_entries);
  for (std::size_t i = 0; i < ref.size(); ++i) {
    const classic::EntryView c = classic.entry(i);
    const Entry e = ref[i];
    if (c.traditional != utf8::to_utf16(e.traditional) ||
        c.simplified != utf8::to_utf16(e.simplified) || c.pinyin != utf8::to_utf16(e.pinyin) ||
        c.english != utf8::to_utf16(e.english())) {
      FAIL() << "entry " << i << " differs: " << e.traditional;
    }
  }
  // One hand-checked sample, outside the BMP: a surrogate pair in UTF-16.
  const classic::EntryView last = classic.entry(shipped_entries - 1);
  EXPECT_EQ(last.traditional, u"\U00028B4E");
  EXPECT_EQ(last.traditional.size(), 2u);
  EXPECT_EQ(last.simplified, u"\U0002CB73");
  EXPECT_EQ(last.pinyin, u"xi3");
  EXPECT_EQ(last.english, u"seaborgium (chemistry)");
  EXPECT_EQ(classic.entry(0).english, u"percent (Tw)");
}

TEST(ClassicLoaders, V1Iostream) { expect_classic_agrees(classic::v1_iostream::load(cedict_file)); }
TEST(ClassicLoaders, V2MmapWstring) {
  expect_classic_agrees(classic::v2_mmap_wstring::load(cedict_file));
}
TEST(ClassicLoaders, V3RawStrings) {
  expect_classic_agrees(classic::v3_raw_strings::load(cedict_file));
}
TEST(ClassicLoaders, V4Pool) { expect_classic_agrees(classic::v4_pool::load(cedict_file)); }

TEST(ClassicLoaders, V3MoveTransfersOwnership) {
  auto a = classic::v3_raw_strings::load(cedict_file);
  auto b = std::move(a);
  EXPECT_EQ(a.entry_count(), 0u);  // NOLINT(bugprone-use-after-move): moved-from is empty
  EXPECT_EQ(b.entry_count(), shipped_entries);
  a = std::move(b);
  EXPECT_EQ(a.entry_count(), shipped_entries);
}

TEST(ClassicLoaders, ScanLines) {
  const auto scan = classic::scan_lines::load(cedict_file);
  EXPECT_EQ(scan.line_count(), 116967u);
  EXPECT_EQ(scan.entry_count(), shipped_entries);
}

TEST(ClassicLoaders, MissingFileThrowsIoError) {
  EXPECT_THROW((void)classic::v1_iostream::load("/nonexistent/cedict.u8"), IoError);
  EXPECT_THROW((void)classic::v2_mmap_wstring::load("/nonexistent/cedict.u8"), IoError);
  EXPECT_THROW((void)classic::scan_lines::load("/nonexistent/cedict.u8"), IoError);
  EXPECT_THROW((void)Dictionary::load_file("/nonexistent/cedict.u8"), IoError);
  EXPECT_THROW((void)Dictionary::map_file("/nonexistent/cedict.u8"), IoError);
}

}  // namespace
}  // namespace bufstream::cedict
