// detail::ByteSet::find agrees with a plain loop at every length and alignment (it switches
// between 16-byte, 8-byte and 1-byte steps).
#include <bufstream/csv/detail/byte_scan.hpp>

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace bufstream::csv::detail {
namespace {

TEST(CsvByteScan, FindsTheFirstMemberLikeAPlainLoop) {
  const ByteSet set(',', '"', '\r', '\n');
  std::mt19937 random(7);
  const std::string alphabet = std::string("abc,\"\r\n\x80\xff", 10) + std::string(1, '\0');
  for (int round = 0; round < 3000; ++round) {
    const std::size_t length = random() % 70;
    std::string text;
    for (std::size_t i = 0; i < length; ++i) {
      // Mostly plain bytes, so that matches land at every distance from the start.
      text += random() % 8 == 0 ? alphabet[random() % alphabet.size()] : 'x';
    }
    for (std::size_t start = 0; start <= std::min<std::size_t>(length, 17); ++start) {
      const char* begin = text.data() + start;
      const char* end = text.data() + text.size();
      const char* expected = begin;
      while (expected != end && *expected != ',' && *expected != '"' && *expected != '\r' && *expected != '\n') {
        ++expected;
      }
      ASSERT_EQ(set.find(begin, end), expected) << "round " << round << ", start " << start;
    }
  }
}

TEST(CsvByteScan, HighBytesAndNulAreMembersWhenAsked) {
  const ByteSet set('\xff', '\0', '\0', '\0');
  const std::string text = std::string(20, 'a') + std::string(1, '\0') + "\xff";
  EXPECT_EQ(set.find(text.data(), text.data() + text.size()), text.data() + 20);
  EXPECT_EQ(set.find(text.data() + 21, text.data() + text.size()), text.data() + 21);
  EXPECT_TRUE(set.contains('\xff'));
  EXPECT_FALSE(set.contains('a'));
}

}  // namespace
}  // namespace bufstream::csv::detail
