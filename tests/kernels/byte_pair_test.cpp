// BytePair: every form's two masks are what a plain loop finds, for every byte value at every
// position of a block, at every alignment.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include <bufstream/kernels/byte_pair.hpp>
#include <bufstream/kernels/x86/byte_pair.hpp>

namespace bufstream::kernels {
namespace {

PairMasks plain_masks(const BytePair& pair, const char* p) {
  PairMasks m;
  for (int i = 0; i < 64; ++i) {
    m.first |= std::uint64_t{p[i] == pair.first()} << i;
    m.second |= std::uint64_t{p[i] == pair.second()} << i;
  }
  return m;
}

void expect_equal(const PairMasks& got, const PairMasks& expected, const char* form) {
  ASSERT_EQ(got.first, expected.first) << form;
  ASSERT_EQ(got.second, expected.second) << form;
}

TEST(KernelBytePair, MasksAgreeWithAPlainLoop) {
  const std::vector<BytePair> pairs{
      {'\n', '/'}, {' ', ']'}, {'\0', '\xff'}, {'\x7f', '\x80'}, {'a', 'a'}};
  const std::vector<char> others{'\n',   '/',    ' ',    ']', '\0',  '\xff',
                                 '\x7f', '\x80', '\x0b', '.', '\xe5'};
  std::vector<char> block(64 + 16);
  for (const BytePair& pair : pairs) {
    SCOPED_TRACE(testing::Message() << int{pair.first()} << " " << int{pair.second()});
    for (std::size_t align = 0; align < 16; ++align) {
      char* const p = block.data() + align;
      for (int value = 0; value < 256; ++value) {
        for (std::size_t at = 0; at < 64; at += 1 + static_cast<std::size_t>(value % 5)) {
          for (std::size_t i = 0; i < 64; ++i)
            p[i] = i % 3 == 0 ? others[(i + at) % others.size()] : 'x';
          p[at] = static_cast<char>(value);
          const PairMasks expected = plain_masks(pair, p);
          expect_equal(pair.mask64_portable(p), expected, "portable");
#if BUFSTREAM_KERNELS_X86_64
          expect_equal(pair.mask64_sse2(p), expected, "sse2");
          if (available(InstructionSet::avx2))
            expect_equal(x86::pair_masks_avx2(pair, p), expected, "avx2");
          if (available(InstructionSet::avx512))
            expect_equal(x86::pair_masks_avx512(pair, p), expected, "avx512");
#endif
          expect_equal(pair.mask64(p), expected, "default");
        }
      }
    }
  }
}

}  // namespace
}  // namespace bufstream::kernels
