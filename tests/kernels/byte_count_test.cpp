// count_byte against a plain loop: every length 0..200 at every alignment (whole rounds of 64
// bytes, pieces of 16 and single bytes), texts dense and sparse in the byte, and runs long
// enough for the byte counters to be added up (63 rounds of 64 bytes) several times.
#include <algorithm>
#include <cstddef>
#include <string>

#include <gtest/gtest.h>

#include <bufstream/kernels/byte_count.hpp>

namespace bufstream::kernels {
namespace {

std::size_t plain_count(const char* p, std::size_t n, char b) {
  return static_cast<std::size_t>(std::count(p, p + n, b));
}

TEST(KernelByteCount, EveryLengthAndAlignment) {
  for (const std::size_t every : {1u, 2u, 3u, 7u, 17u, 64u}) {
    std::string text(200 + 16, 'a');
    for (std::size_t i = 0; i < text.size(); i += every) text[i] = '\n';
    text[5] = '\xff';  // a byte with its top bit set is not counted as a line feed
    for (std::size_t offset = 0; offset < 16; ++offset) {
      for (std::size_t n = 0; n <= 200; ++n) {
        ASSERT_EQ(count_byte(text.data() + offset, n, '\n'),
                  plain_count(text.data() + offset, n, '\n'))
            << "every " << every << " offset " << offset << " length " << n;
      }
    }
  }
}

TEST(KernelByteCount, LongRunsOverflowNoCounter) {
  // All equal: each byte counter reaches 63, and the four together 252, before the sums are
  // taken.
  for (const std::size_t n : {64u * 63, 64u * 63 + 1, 64u * 63 + 17, 64u * 64, 64u * 255,
                              64u * 255 + 1, 64u * 255 + 48, 64u * 256, 100000u}) {
    const std::string same(n, '\n');
    EXPECT_EQ(count_byte(same.data(), n, '\n'), n);
    const std::string none(n, 'x');
    EXPECT_EQ(count_byte(none.data(), n, '\n'), 0u);
  }
  std::string mixed(70001, ' ');
  for (std::size_t i = 0; i < mixed.size(); i += 3) mixed[i] = '\xf0';
  EXPECT_EQ(count_byte(mixed.data(), mixed.size(), '\xf0'),
            plain_count(mixed.data(), mixed.size(), '\xf0'));
}

}  // namespace
}  // namespace bufstream::kernels
