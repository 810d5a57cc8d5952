// NestedByteSets: every form's inner and outer masks are what a plain loop finds, for every
// byte value at positions all over a block, at every alignment.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <vector>

#include <bufstream/kernels/nested_byte_sets.hpp>

namespace bufstream::kernels {
namespace {

struct Sets {
  std::array<char, 3> inner;
  char extra;
};

NestedMasks plain_masks(const Sets& sets, const char* p) {
  NestedMasks m;
  for (int i = 0; i < 64; ++i) {
    const bool inner = p[i] == sets.inner[0] || p[i] == sets.inner[1] || p[i] == sets.inner[2];
    m.inner |= std::uint64_t{inner} << i;
    m.outer |= std::uint64_t{inner || p[i] == sets.extra} << i;
  }
  return m;
}

void expect_equal(const NestedMasks& got, const NestedMasks& expected, const char* form) {
  ASSERT_EQ(got.inner, expected.inner) << form;
  ASSERT_EQ(got.outer, expected.outer) << form;
}

TEST(KernelNestedByteSets, MasksAgreeWithAPlainLoop) {
  // CSV's (comma, tab, NUL and a non-ASCII separator), a set with a repeated byte, and one
  // whose extra byte is also inner.
  const std::vector<Sets> all{{{'"', '\r', '\n'}, ','},  {{'"', '\r', '\n'}, '\t'},
                              {{'"', '\r', '\n'}, '\0'}, {{'"', '\r', '\n'}, '\xa7'},
                              {{'a', 'a', 'b'}, '\xff'}, {{'x', 'y', 'z'}, 'y'}};
  const std::vector<char> others{'"', '\r', '\n', ',', '\t', '\0', '\xa7', '\xff', 'a', 'b', 'y'};
  std::vector<char> block(64 + 16);
  for (const Sets& sets : all) {
    const NestedByteSets kernel(sets.inner[0], sets.inner[1], sets.inner[2], sets.extra);
    SCOPED_TRACE(testing::Message() << "extra " << int{sets.extra});
    for (std::size_t align = 0; align < 16; ++align) {
      char* const p = block.data() + align;
      for (int value = 0; value < 256; ++value) {
        for (std::size_t at = 0; at < 64; at += 1 + static_cast<std::size_t>(value % 5)) {
          for (std::size_t i = 0; i < 64; ++i)
            p[i] = i % 3 == 0 ? others[(i + at) % others.size()] : '.';
          p[at] = static_cast<char>(value);
          const NestedMasks expected = plain_masks(sets, p);
          expect_equal(kernel.mask64_portable(p), expected, "portable");
#if BUFSTREAM_KERNELS_X86_64
          expect_equal(kernel.mask64_sse2(p), expected, "sse2");
#endif
          expect_equal(kernel.mask64(p), expected, "default");
        }
      }
    }
  }
}

}  // namespace
}  // namespace bufstream::kernels
