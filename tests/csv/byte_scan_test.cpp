// detail::ByteSet::find agrees with a plain loop at every length and alignment (it switches
// between 16-byte, 8-byte and 1-byte steps); so do detail::StopMasks' look-ups, across its
// 64-byte blocks and the window's last, partial one, and its two ways of making masks.
#include <bufstream/csv/detail/byte_scan.hpp>
#include <bufstream/csv/detail/stop_masks.hpp>

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

TEST(CsvStopMasks, FindStopsLikeAPlainLoop) {
  std::mt19937 random(64);
  for (const char separator : {',', ';', '\0', '\xff'}) {
    const std::string alphabet = std::string("ab\"\r\n\x80") + separator;
    for (int round = 0; round < 400; ++round) {
      std::string text;
      const std::size_t length = random() % 300;
      for (std::size_t i = 0; i < length; ++i) {
        text += random() % 6 == 0 ? alphabet[random() % alphabet.size()] : 'x';
      }
      const char* const end = text.data() + text.size();
      const auto plain = [&](const char* p, bool with_separator) {
        while (p != end && *p != '"' && *p != '\r' && *p != '\n' && !(with_separator && *p == separator)) ++p;
        return p;
      };
      StopMasks stops(separator);
      stops.use_window(end, text.size());
      // Forward from every position, as the reader goes (blocks kept), then from scattered
      // ones (blocks taken again).
      for (std::size_t start = 0; start <= text.size(); ++start) {
        const char* const p = text.data() + start;
        const char* const stop = stops.next_stop(p);
        ASSERT_EQ(stop, plain(p, true)) << "separator " << int{separator} << ", round " << round << ", at " << start;
        if (stop != end) {
          ASSERT_EQ(stops.is_separator(stop), *stop == separator);
        }
        ASSERT_EQ(stops.next_quoted_stop(p), plain(p, false)) << "round " << round << ", at " << start;
      }
      for (int k = 0; k < 20 && !text.empty(); ++k) {
        const char* const p = text.data() + random() % (text.size() + 1);
        ASSERT_EQ(stops.next_stop(p), plain(p, true));
        ASSERT_EQ(stops.next_quoted_stop(p), plain(p, false));
      }
    }
  }
}

TEST(CsvStopMasks, PortableMasksEqualTheVectorOnes) {
  std::mt19937 random(8);
  char bytes[64];
  for (int round = 0; round < 20000; ++round) {
    const char separator = static_cast<char>(random() % 256);
    for (char& b : bytes) b = random() % 3 == 0 ? "\"\r\n"[random() % 3] : static_cast<char>(random() % 256);
    std::uint64_t any = 0, quoted = 0;
    for (int i = 0; i < 64; ++i) {
      const bool in_quotes = bytes[i] == '"' || bytes[i] == '\r' || bytes[i] == '\n';
      quoted |= std::uint64_t{in_quotes} << i;
      any |= std::uint64_t{in_quotes || bytes[i] == separator} << i;
    }
    const StopMasks::Masks portable = StopMasks::masks_portable(bytes, separator);
    ASSERT_EQ(portable.any, any) << round;
    ASSERT_EQ(portable.quoted, quoted) << round;
#if defined(__SSE2__)
    const StopMasks::Masks vector = StopMasks::masks_sse2(bytes, separator);
    ASSERT_EQ(vector.any, any) << round;
    ASSERT_EQ(vector.quoted, quoted) << round;
#endif
  }
}

}  // namespace
}  // namespace bufstream::csv::detail
