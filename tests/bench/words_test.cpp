// words(i) against the examples of docs/BENCHMARKS.md and Pharo's Integer>>asWords.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "data_sets/words.hpp"

namespace bufstream::bench {
namespace {

struct WordsCase {
  std::int64_t value;
  const char* expected;
};

class WordsTest : public ::testing::TestWithParam<WordsCase> {};

TEST_P(WordsTest, SpellsAsPharoDoes) { EXPECT_EQ(words(GetParam().value), GetParam().expected); }

INSTANTIATE_TEST_SUITE_P(
    SpecifiedExamples, WordsTest,
    ::testing::Values(WordsCase{0, "zero"}, WordsCase{7, "seven"}, WordsCase{13, "thirteen"},
                      WordsCase{21, "twenty-one"}, WordsCase{100, "one hundred"},
                      WordsCase{101, "one hundred one"}, WordsCase{999, "nine hundred ninety-nine"},
                      WordsCase{1000, "one thousand"},
                      WordsCase{1234, "one thousand, two hundred thirty-four"},
                      WordsCase{25000, "twenty-five thousand"},
                      WordsCase{100000, "one hundred thousand"}, WordsCase{1000000, "one million"},
                      WordsCase{-5, "negative five"}));

INSTANTIATE_TEST_SUITE_P(
    MoreShapes, WordsTest,
    ::testing::Values(WordsCase{1, "one"}, WordsCase{10, "ten"}, WordsCase{19, "nineteen"},
                      WordsCase{20, "twenty"}, WordsCase{40, "forty"}, WordsCase{99, "ninety-nine"},
                      WordsCase{110, "one hundred ten"}, WordsCase{1001, "one thousand, one"},
                      WordsCase{1010, "one thousand, ten"},
                      WordsCase{24999, "twenty-four thousand, nine hundred ninety-nine"},
                      WordsCase{1000001, "one million, one"},
                      WordsCase{2000300, "two million, three hundred"},
                      WordsCase{1000000000, "one billion"},
                      WordsCase{-1234, "negative one thousand, two hundred thirty-four"}));

TEST(Words, ExtremesOfSixtyFourBits) {
  EXPECT_EQ(words(std::numeric_limits<std::int64_t>::max()),
            "nine quintillion, two hundred twenty-three quadrillion, three hundred seventy-two "
            "trillion, thirty-six billion, eight hundred fifty-four million, seven hundred "
            "seventy-five thousand, eight hundred seven");
  EXPECT_EQ(words(std::numeric_limits<std::int64_t>::min()),
            "negative nine quintillion, two hundred twenty-three quadrillion, three hundred "
            "seventy-two trillion, thirty-six billion, eight hundred fifty-four million, seven "
            "hundred seventy-five thousand, eight hundred eight");
}

TEST(Words, FromOneThousandOnTheWordsHoldAComma) {
  // The data sets rely on this to exercise CSV quoting.
  EXPECT_EQ(words(999).find(','), std::string::npos);
  EXPECT_NE(words(1001).find(','), std::string::npos);
}

}  // namespace
}  // namespace bufstream::bench
