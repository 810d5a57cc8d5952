// The two ways a look-up finds its entries, which must agree: a scan of every entry (the first
// few look-ups of a kind) and the hash index (built after them); and the private parts behind
// them, each against a plain reference (private headers of the library).
#include <bufstream/cedict/dictionary.hpp>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "english_words.hpp"
#include "hash_index.hpp"
#include "pinyin_key.hpp"

namespace bufstream::cedict {
namespace {

constexpr const char* cedict_file = BUFSTREAM_CEDICT_FILE;

const std::string& shipped_text() {
  static const std::string text = [] {
    std::ifstream in(cedict_file, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }();
  return text;
}

const Dictionary& shipped() {
  static const Dictionary dict = Dictionary::load_view(shipped_text());
  return dict;
}

std::vector<std::size_t> numbers(const std::vector<Entry>& found) {
  std::vector<std::size_t> out;
  for (const Entry& e : found) out.push_back(e.index);
  return out;
}

// Random text over a small alphabet that has every kind of byte the splitter and the pinyin
// keys tell apart.
std::string random_text(std::mt19937& rng, std::size_t size) {
  static const std::string alphabet = "aZz09 /'-:uU\t.,(AMq\xC3\xBC\xE4\xBD\xA0\x80\xFF";
  std::string s(size, ' ');
  for (char& c : s) c = alphabet[rng() % alphabet.size()];
  return s;
}

// ---- Splitting glosses into words -----------------------------------------------------------

// The words of `text`, byte by byte: the definition the masked splitter must meet.
std::vector<std::string_view> words_bytewise(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && !is_word_byte(text[i])) ++i;
    const std::size_t start = i;
    while (i < text.size() && is_word_byte(text[i])) ++i;
    if (i > start) out.push_back(text.substr(start, i - start));
  }
  return out;
}

std::vector<std::string_view> words_masked(std::string_view text) {
  std::vector<std::string_view> out;
  for_each_word_in(text, [&](std::string_view w) { out.push_back(w); });
  return out;
}

TEST(WordSplitting, EveryByteValueIsClassifiedAsIsWordByte) {
  for (unsigned b = 0; b < 256; ++b) {
    const std::string text(9, static_cast<char>(b));  // a whole eight-byte block and a short one
    const std::vector<std::string_view> words = words_masked(text);
    if (is_word_byte(static_cast<char>(b))) {
      EXPECT_EQ(words, std::vector<std::string_view>{text}) << b;
    } else {
      EXPECT_TRUE(words.empty()) << b;
    }
  }
}

TEST(WordSplitting, WordsAcrossBlockAndWindowEdges) {
  const std::vector<std::string> texts{
      "",
      "a",
      "/",
      "to go Dutch",
      " leading and trailing ",
      std::string(63, 'a') + " " + std::string(70, 'b'),  // a word across the 64-byte window
      std::string(64, 'x'),                               // exactly one window
      std::string(7, ' ') + "ab" + std::string(55, ' ') + "cd",
      std::string(200, 'w'),  // a word over several windows
      "隻|只[zhi1]/(coll.) modem/",
      "caf\xC3\xA9 na\xC3\xAFve",
  };
  for (const std::string& t : texts) EXPECT_EQ(words_masked(t), words_bytewise(t)) << t;
}

TEST(WordSplitting, RandomTextsAndTheShippedGlosses) {
  std::mt19937 rng(1);
  for (int i = 0; i < 3000; ++i) {
    const std::string t = random_text(rng, rng() % 150);
    ASSERT_EQ(words_masked(t), words_bytewise(t)) << t;
  }
  const Dictionary& d = shipped();
  for (std::size_t i = 0; i < d.size(); ++i) {
    const std::string_view english = d[i].english();
    if (words_masked(english) != words_bytewise(english))
      FAIL() << "entry " << i << ": " << english;
  }
}

TEST(WordSplitting, LowerEightIsAsciiLowerOnEachByte) {
  for (unsigned b = 0; b < 256; ++b) {
    const std::uint64_t x = b * 0x0101010101010101ULL;
    const std::uint64_t want =
        static_cast<unsigned char>(ascii_lower(static_cast<char>(b))) * 0x0101010101010101ULL;
    EXPECT_EQ(detail::lower_eight(x), want) << b;
  }
}

TEST(WordSplitting, HashOfAWordAsItStandsIsTheHashOfItsLowerCase) {
  std::mt19937 rng(2);
  for (int i = 0; i < 2000; ++i) {
    const std::string w = random_text(rng, rng() % 40);
    std::string lower = w;
    for (char& c : lower) c = ascii_lower(c);
    ASSERT_EQ(detail::hash_key_lower(w), detail::hash_key(lower)) << w;
  }
}

// The reference: a whole word of the lower-cased text.
bool contains_word_by_splitting(std::string_view text, std::string_view word) {
  bool found = false;
  std::string scratch;
  for_each_word(text, scratch, [&](std::string_view w) { found = found || w == word; });
  return found;
}

TEST(ContainsWord, WholeWordsIgnoringAsciiCase) {
  struct Case {
    const char* text;
    const char* word;
    bool found;
  };
  for (const Case& c : std::vector<Case>{
           {"a cat", "cat", true},
           {"Cat's Cradle", "cat", true},
           {"to catch", "cat", false},
           {"bobcat", "cat", false},
           {"CAT", "cat", true},
           {"hello/hi", "hi", true},
           {"隻只[zhi1]", "只", false},  // 只 is inside a longer word
           {"隻|只[zhi1]", "只", true},
           {"a cat in a hat that is a very long gloss indeed, cat", "cat", true},
           {"catcatcatcat cat", "cat", true},
           {"", "cat", false},
           {"ca", "cat", false},
           {"ABC abd", "abd", true},  // a first candidate rejected in full, the next one found
       }) {
    EXPECT_EQ(contains_word(c.text, c.word), c.found) << c.text << " / " << c.word;
    EXPECT_EQ(contains_word_by_splitting(c.text, c.word), c.found) << c.text << " / " << c.word;
  }
}

TEST(ContainsWord, AgreesWithSplittingOnRandomTexts) {
  std::mt19937 rng(3);
  const std::vector<std::string> words{"a", "az", "z0", "u", "09", "q", "\xC3\xBC", "\xE4\xBD\xA0"};
  for (int i = 0; i < 5000; ++i) {
    const std::string t = random_text(rng, rng() % 80);
    for (const std::string& w : words)
      ASSERT_EQ(contains_word(t, w), contains_word_by_splitting(t, w)) << t << " / " << w;
  }
}

// ---- Pinyin keys ------------------------------------------------------------------------------

std::string key(std::string_view pinyin, bool tones) {
  std::string out;
  append_pinyin_key(pinyin, tones, out);
  return out;
}

std::string key_by_units(std::string_view pinyin, bool tones) {
  std::string out;
  detail::append_pinyin_key_by_units(pinyin, tones, out);
  return out;
}

TEST(PinyinKeyPaths, TheByteTableGivesTheUnitsKey) {
  std::vector<std::string> pinyins{"u:",      "U:",     "u::",  "uu:", "u':", "lu:4 Xun4",
                                   "Xi1 an1", "san1 C", "a\tb", ":",   "u",   ""};
  std::mt19937 rng(4);
  for (int i = 0; i < 3000; ++i) pinyins.push_back(random_text(rng, rng() % 30));
  const Dictionary& d = shipped();
  for (std::size_t i = 0; i < d.size(); ++i) pinyins.emplace_back(d[i].pinyin);
  std::string scratch;
  for (const std::string& p : pinyins) {
    for (const bool tones : {false, true})
      ASSERT_EQ(key(p, tones), key_by_units(p, tones)) << p << " tones " << tones;
    const std::string k = key_by_units(p, false);
    ASSERT_TRUE(toneless_key_is(p, k, scratch)) << p;
    ASSERT_FALSE(toneless_key_is(p, k + "a", scratch)) << p;
    if (!k.empty()) {
      ASSERT_FALSE(toneless_key_is(p, k.substr(0, k.size() - 1), scratch)) << p;
      std::string other = k;
      other.back() = other.back() == 'x' ? 'y' : 'x';
      ASSERT_FALSE(toneless_key_is(p, other, scratch)) << p;
    }
  }
}

// ---- The index ---------------------------------------------------------------------------------

std::vector<std::uint32_t> candidates(const detail::HashIndex& index, std::uint32_t hash) {
  std::vector<std::uint32_t> out;
  index.for_each_candidate(hash, [&](std::uint32_t e) { out.push_back(e); });
  return out;
}

TEST(HashIndex, EachHashGivesItsEntriesOnceInOrder) {
  detail::HashIndex index;
  // 5 and 5 + 2048 share a group; 7 is added twice for entry 1 and for entries far apart.
  index.add(5, 0);
  index.add(7, 1);
  index.add(7, 1);
  index.add(5 + 2048, 1);
  index.add(5, 2);
  index.add(7, 3);
  index.add(7, 4000000000U);
  EXPECT_TRUE(candidates(index, 5).empty());  // nothing before finish
  index.finish();
  EXPECT_EQ(candidates(index, 5), (std::vector<std::uint32_t>{0, 2}));
  EXPECT_EQ(candidates(index, 5 + 2048), (std::vector<std::uint32_t>{1}));
  EXPECT_EQ(candidates(index, 7), (std::vector<std::uint32_t>{1, 3, 4000000000U}));
  EXPECT_TRUE(candidates(index, 6).empty());
  EXPECT_GT(index.memory_bytes(), 0u);
}

TEST(HashIndex, EmptyAndLarge) {
  detail::HashIndex empty;
  empty.finish();
  EXPECT_TRUE(candidates(empty, 0).empty());
  detail::HashIndex index;
  std::mt19937 rng(5);
  std::vector<std::vector<std::uint32_t>> want(300);
  for (std::uint32_t e = 0; e < 20000; ++e) {
    for (int k = 0; k < 3; ++k) {
      const auto h = static_cast<std::uint32_t>(rng() % 300);
      index.add(h * 977, e);  // spread over the groups, with shared groups
      if (want[h].empty() || want[h].back() != e) want[h].push_back(e);
    }
  }
  index.finish();
  for (std::uint32_t h = 0; h < 300; ++h) ASSERT_EQ(candidates(index, h * 977), want[h]) << h;
}

// ---- Scans and indexes agree -------------------------------------------------------------------

// A few look-ups of each kind on a fresh dictionary scan; on one with every index built they
// use the indexes. Every 1999th entry of the shipped file gives the questions: its headwords, its
// pinyin with and without tones, and the words of its first gloss (one, and two together).
TEST(LookupPaths, ScansAndIndexesAgreeOnTheShippedFile) {
  const Dictionary& indexed = shipped();
  indexed.build_indexes();
  const Dictionary& d = shipped();
  std::string scratch;
  for (std::size_t i = 0; i < d.size(); i += 1999) {
    const Entry e = d[i];
    std::vector<std::string> words;
    for_each_word(e.glosses[0], scratch, [&](std::string_view w) { words.emplace_back(w); });
    std::string toneless = std::string(e.pinyin);
    std::erase_if(toneless, [](char c) { return c >= '0' && c <= '9'; });
    const std::string two_words = words.size() >= 2 ? words[0] + " " + words[1] : std::string();
    SCOPED_TRACE(std::to_string(i) + " " + std::string(e.traditional));

    const Dictionary fresh = Dictionary::load_view(shipped_text());
    EXPECT_EQ(numbers(fresh.find_traditional(e.traditional)),
              numbers(indexed.find_traditional(e.traditional)));
    EXPECT_EQ(numbers(fresh.find_simplified(e.simplified)),
              numbers(indexed.find_simplified(e.simplified)));
    EXPECT_EQ(numbers(fresh.find_headword(e.simplified)),
              numbers(indexed.find_headword(e.simplified)));
    EXPECT_EQ(numbers(fresh.find_pinyin(e.pinyin)), numbers(indexed.find_pinyin(e.pinyin)));
    EXPECT_EQ(numbers(fresh.find_pinyin(toneless)), numbers(indexed.find_pinyin(toneless)));
    if (!words.empty()) {
      EXPECT_EQ(numbers(fresh.find_english(words[0])), numbers(indexed.find_english(words[0])));
    }
    if (!two_words.empty()) {
      EXPECT_EQ(numbers(fresh.find_english(two_words)), numbers(indexed.find_english(two_words)));
    }
    // Those were scans: no index was built.
    ASSERT_EQ(fresh.memory_usage().index_bytes, 0u);
  }
}

}  // namespace
}  // namespace bufstream::cedict
