// detail::StopMasks (the reader's fast path) finds every stop a plain loop finds, from every
// position, with its block kept across calls and taken again, over windows of every length
// (its last block padded). The masks themselves come from the kernel layer, whose forms are
// tested in tests/kernels.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>

#include "scanners.hpp"

namespace bufstream::csv::detail {
namespace {

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
        while (p != end && *p != '"' && *p != '\r' && *p != '\n' &&
               !(with_separator && *p == separator))
          ++p;
        return p;
      };
      StopMasks stops(separator);
      stops.use_window(end, text.size());
      // Forward from every position, as the reader goes (blocks kept), then from scattered
      // ones (blocks taken again).
      for (std::size_t start = 0; start <= text.size(); ++start) {
        const char* const p = text.data() + start;
        const char* const stop = stops.next_stop(p);
        ASSERT_EQ(stop, plain(p, true))
            << "separator " << int{separator} << ", round " << round << ", at " << start;
        if (stop != end) {
          ASSERT_EQ(stops.is_separator(stop), *stop == separator);
        }
        ASSERT_EQ(stops.next_quoted_stop(p), plain(p, false))
            << "round " << round << ", at " << start;
      }
      for (int k = 0; k < 20 && !text.empty(); ++k) {
        const char* const p = text.data() + random() % (text.size() + 1);
        ASSERT_EQ(stops.next_stop(p), plain(p, true));
        ASSERT_EQ(stops.next_quoted_stop(p), plain(p, false));
      }
    }
  }
}

}  // namespace
}  // namespace bufstream::csv::detail
