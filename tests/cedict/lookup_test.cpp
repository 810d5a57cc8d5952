// Look-ups by headword, pinyin and English word, on a small dictionary read through every
// kind of stream and in zero-copy mode.
#include <bufstream/cedict/dictionary.hpp>

#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "test_streams.hpp"

namespace bufstream::cedict {
namespace {

const std::string text =
    "#! entries=12\n"
    "你好 你好 [ni3 hao3] /hello/hi/\n"
    "好 好 [hao3] /good/well/proper/(after a personal pronoun) hello/\n"
    "好 好 [hao4] /to be fond of/\n"
    "呂 吕 [Lu:3] /surname Lü/\n"
    "呂 吕 [lu:3] /pitchpipe/\n"
    "綠 绿 [lu:4] /green/\n"
    "女 女 [nu:3] /female/woman/\n"
    "貓 猫 [mao1] /cat/CL:隻|只[zhi1]/(coll.) modem/\n"
    "捕 捕 [bu3] /to catch/to seize/\n"
    "3C 3C [san1 C] /abbr. for computers, communications, and consumer electronics/\n"
    "AA制 AA制 [A A zhi4] /to split the bill/to go Dutch/\n"
    "西安 西安 [Xi1 an1] /Xi'an, capital of Shaanxi/\n"
    "先 先 [xian1] /early/prior/Cat's Cradle/";

// Entry numbers of the results, in order.
std::vector<std::size_t> numbers(const std::vector<Entry>& found) {
  std::vector<std::size_t> out;
  for (const Entry& e : found) out.push_back(e.index);
  return out;
}

using N = std::vector<std::size_t>;

void expect_lookups(const Dictionary& d) {
  ASSERT_EQ(d.size(), 13u);
  // Headwords, exactly.
  EXPECT_EQ(numbers(d.find_traditional("你好")), N{0});
  EXPECT_EQ(numbers(d.find_traditional("好")), (N{1, 2}));  // both readings
  EXPECT_EQ(numbers(d.find_traditional("绿")), N{});        // simplified only
  EXPECT_EQ(numbers(d.find_simplified("绿")), N{5});
  EXPECT_EQ(numbers(d.find_simplified("綠")), N{});
  EXPECT_EQ(numbers(d.find_headword("綠")), N{5});
  EXPECT_EQ(numbers(d.find_headword("吕")), (N{3, 4}));
  EXPECT_EQ(numbers(d.find_headword("好")), (N{1, 2}));  // found under both forms, listed once
  EXPECT_EQ(numbers(d.find_headword("AA制")), N{10});
  EXPECT_EQ(numbers(d.find_headword("3C")), N{9});
  EXPECT_EQ(numbers(d.find_headword("你")), N{});  // no prefix matches
  EXPECT_EQ(numbers(d.find_headword("")), N{});

  // Pinyin: tones optional, case and spaces ignored, u: / v / ü alike.
  EXPECT_EQ(numbers(d.find_pinyin("ni3 hao3")), N{0});
  EXPECT_EQ(numbers(d.find_pinyin("ni hao")), N{0});
  EXPECT_EQ(numbers(d.find_pinyin("nihao")), N{0});
  EXPECT_EQ(numbers(d.find_pinyin("NiHao")), N{0});
  EXPECT_EQ(numbers(d.find_pinyin("ni3hao")), N{0});
  EXPECT_EQ(numbers(d.find_pinyin("ni hao3")), N{0});
  EXPECT_EQ(numbers(d.find_pinyin("ni2 hao3")), N{});  // a wrong tone
  EXPECT_EQ(numbers(d.find_pinyin("hao")), (N{1, 2}));
  EXPECT_EQ(numbers(d.find_pinyin("hao4")), N{2});
  EXPECT_EQ(numbers(d.find_pinyin("lu:3")), (N{3, 4}));  // case ignored: Lu:3 and lu:3
  EXPECT_EQ(numbers(d.find_pinyin("lv3")), (N{3, 4}));
  EXPECT_EQ(numbers(d.find_pinyin("lü3")), (N{3, 4}));
  EXPECT_EQ(numbers(d.find_pinyin("LÜ")), (N{3, 4, 5}));
  EXPECT_EQ(numbers(d.find_pinyin("lv")), (N{3, 4, 5}));
  EXPECT_EQ(numbers(d.find_pinyin("nv3")), N{6});
  EXPECT_EQ(numbers(d.find_pinyin("lu")), N{});  // u is not ü
  EXPECT_EQ(numbers(d.find_pinyin("a a zhi")), N{10});
  EXPECT_EQ(numbers(d.find_pinyin("san1 c")), N{9});
  EXPECT_EQ(numbers(d.find_pinyin("xian")), (N{11, 12}));  // spaces ignored: xi1 an1 and xian1
  EXPECT_EQ(numbers(d.find_pinyin("xi1an1")), N{11});
  EXPECT_EQ(numbers(d.find_pinyin("xian1")), (N{11, 12}));  // "xi an1" leaves xi's tone open
  EXPECT_EQ(numbers(d.find_pinyin("  ")), N{});

  // Tone marks: the same as the tone digits at the end of their syllables.
  EXPECT_EQ(numbers(d.find_pinyin("nǐ hǎo")), N{0});
  EXPECT_EQ(numbers(d.find_pinyin("nǐhǎo")), N{0});
  EXPECT_EQ(numbers(d.find_pinyin("Nǐ hao")), N{0});
  EXPECT_EQ(numbers(d.find_pinyin("ní hǎo")), N{});  // a wrong tone
  EXPECT_EQ(numbers(d.find_pinyin("hào")), N{2});
  EXPECT_EQ(numbers(d.find_pinyin("lǚ")), (N{3, 4}));
  EXPECT_EQ(numbers(d.find_pinyin("LǙ")), (N{3, 4}));
  EXPECT_EQ(numbers(d.find_pinyin("lǜ")), N{5});
  EXPECT_EQ(numbers(d.find_pinyin("nǚ")), N{6});
  EXPECT_EQ(numbers(d.find_pinyin("Xī'ān")), N{11});
  EXPECT_EQ(numbers(d.find_pinyin("xiān")), (N{11, 12}));  // xi's tone left open, as with xian1
  EXPECT_EQ(numbers(d.find_pinyin("māo")), N{7});

  // English: whole words, ASCII case ignored, every word of the query.
  EXPECT_EQ(numbers(d.find_english("cat")), (N{7, 12}));  // "cat", "Cat's Cradle"; not "to catch"
  EXPECT_EQ(numbers(d.find_english("catch")), N{8});
  EXPECT_EQ(numbers(d.find_english("CAT")), (N{7, 12}));
  EXPECT_EQ(numbers(d.find_english("hello")), (N{0, 1}));
  EXPECT_EQ(numbers(d.find_english("go dutch")), N{10});
  EXPECT_EQ(numbers(d.find_english("dutch bill")), N{10});  // words may be in different glosses
  EXPECT_EQ(numbers(d.find_english("dutch cat")), N{});
  EXPECT_EQ(numbers(d.find_english("Lü")), N{3});
  EXPECT_EQ(numbers(d.find_english("只")), N{7});     // "隻|只[zhi1]": 只 is a word of its own
  EXPECT_EQ(numbers(d.find_english("隻|只")), N{7});  // both words
  EXPECT_EQ(numbers(d.find_english("zhi1")), N{7});
  EXPECT_EQ(numbers(d.find_english("modem")), N{7});
  EXPECT_EQ(numbers(d.find_english("mode")), N{});
  EXPECT_EQ(numbers(d.find_english("...")), N{});
  EXPECT_EQ(numbers(d.find_english("zebra")), N{});

  // Results are full entries.
  const auto hao = d.find_pinyin("hao4");
  ASSERT_EQ(hao.size(), 1u);
  EXPECT_EQ(hao[0].traditional, "好");
  EXPECT_EQ(hao[0].english(), "to be fond of");
}

TEST(Lookup, OverEveryReader) {
  for (const auto& setup : testing::reader_setups()) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make(text);
    expect_lookups(Dictionary::load(*in));
  }
}

TEST(Lookup, ZeroCopy) { expect_lookups(Dictionary::load_view(text)); }

TEST(Lookup, IndexesBuiltAheadGiveTheSameResults) {
  const Dictionary d = Dictionary::load_view(text);
  const std::size_t before = d.memory_usage().index_bytes;
  d.build_indexes();
  EXPECT_EQ(before, 0u);
  EXPECT_GT(d.memory_usage().index_bytes, 0u);
  expect_lookups(d);
}

TEST(Lookup, ConcurrentFirstUse) {
  const Dictionary d = Dictionary::load_view(text);
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) threads.emplace_back([&d] { expect_lookups(d); });
  for (auto& t : threads) t.join();
}

// A pinyin of tone digits only has an empty look-up key (a fuzzer found the index's prefix
// shifting a 64-bit value by 64 for it).
TEST(Lookup, PinyinOfToneDigitsOnly) {
  const Dictionary d = Dictionary::load_view("A A [2] /letter/\n\u4e00 \u4e00 [yi1] /one/\n",
                                             {.errors = ErrorMode::lenient});
  EXPECT_TRUE(d.find_pinyin("yi").size() == 1);
  EXPECT_EQ(d.find_pinyin("2").size(), d.find_pinyin("").size());
}

TEST(Lookup, EmptyDictionary) {
  const Dictionary d;
  EXPECT_TRUE(d.find_headword("好").empty());
  EXPECT_TRUE(d.find_pinyin("hao").empty());
  EXPECT_TRUE(d.find_english("good").empty());
}

}  // namespace
}  // namespace bufstream::cedict
