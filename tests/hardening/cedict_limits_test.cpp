// The limits of cedict::Dictionary::load: a line is bounded only by memory below 4 GiB (the
// line parser's documented limit), whatever the buffer; a gloss may be megabytes long.
#include <string>

#include <gtest/gtest.h>

#include <bufstream/cedict/dictionary.hpp>

#include "limits_support.hpp"

namespace bufstream::cedict {
namespace {

using testing::letters;
using testing::long_text_setups;

void expect_long_line(std::size_t gloss_bytes) {
  const std::string gloss = letters(gloss_bytes);
  const std::string text = "# head\n\xE4\xBD\xA0 \xE4\xBD\xA0 [ni3] /" + gloss +
                           "/you/\n\xE5\xA5\xBD \xE5\xA5\xBD [hao3] /good/\n";
  for (const auto& setup : long_text_setups(text.size())) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make(text);
    const Dictionary dict = Dictionary::load(*in);
    ASSERT_EQ(dict.size(), 2u);
    ASSERT_EQ(dict[0].glosses.size(), 2u);
    EXPECT_EQ(dict[0].glosses[0].size(), gloss.size());
    EXPECT_TRUE(dict[0].glosses[0] == gloss);
    EXPECT_EQ(dict[0].glosses[1], "you");
    EXPECT_EQ(dict[1].english(), "good");
    EXPECT_EQ(dict.stats().bytes, text.size());
  }
}

TEST(CedictLimits, A16MiBLineIsBoundedOnlyByMemory) { expect_long_line(testing::long_token_bytes); }

TEST(CedictLimits, ALongLineThroughOneByteBuffers) {
  expect_long_line(testing::medium_token_bytes);
}

TEST(CedictLimits, ALongMalformedLineIsReportedAtItsColumn) {
  const std::string text =
      "\xE4\xBD\xA0 \xE4\xBD\xA0 [ni3] /" + letters(testing::medium_token_bytes) + "\n";
  for (const auto& setup : long_text_setups(text.size())) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make(text);
    try {
      (void)Dictionary::load(*in);
      FAIL() << "loaded";
    } catch (const ParseError& e) {
      EXPECT_EQ(e.line(), 1u);
      EXPECT_EQ(e.column(), text.size());  // where the missing '/' should be
    }
  }
}

}  // namespace
}  // namespace bufstream::cedict
