// Bit positions and spans: every form against a plain loop, for words with every count of bits
// and spans at every length 0..130 and every alignment.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include <bufstream/kernels/bit_positions.hpp>
#include <bufstream/kernels/x86/bit_positions.hpp>

namespace bufstream::kernels::bits {
namespace {

std::vector<std::uint16_t> plain_positions(std::uint64_t m, unsigned base) {
  std::vector<std::uint16_t> out;
  for (unsigned i = 0; i < 64; ++i) {
    if ((m >> i) & 1) out.push_back(static_cast<std::uint16_t>(base + i));
  }
  return out;
}

std::uint64_t random_word(std::uint64_t& state, unsigned density) {
  std::uint64_t m = 0;
  for (unsigned i = 0; i < 64; ++i) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    if ((state >> 33) % 64 < density) m |= std::uint64_t{1} << i;
  }
  return m;
}

TEST(KernelBitPositions, EveryFormListsWhatAPlainLoopLists) {
  std::uint64_t state = 5;
  for (unsigned density = 0; density <= 64; ++density) {
    for (int round = 0; round < 20; ++round) {
      const std::uint64_t m = random_word(state, density);
      const unsigned base = 64 * static_cast<unsigned>(round);
      const std::vector<std::uint16_t> expected = plain_positions(m, base);
      for (std::uint32_t n : {0u, 1u, 7u}) {
        std::vector<std::uint16_t> out(n + 64 + 32, 0xEEEE);
        const auto check = [&](std::uint32_t got, const char* form) {
          ASSERT_EQ(got, n + expected.size()) << form;
          for (std::size_t k = 0; k < expected.size(); ++k)
            ASSERT_EQ(out[n + k], expected[k]) << form << " " << k;
          for (std::uint32_t k = 0; k < n; ++k)
            ASSERT_EQ(out[k], 0xEEEE) << form << " wrote before n";
        };
        check(append_positions<2>(m, base, out.data(), n), "portable 2");
        std::fill(out.begin(), out.end(), 0xEEEE);
        check(append_positions<4>(m, base, out.data(), n), "portable 4");
#if BUFSTREAM_KERNELS_X86_64
        if (available(InstructionSet::avx512)) {
          std::fill(out.begin(), out.end(), 0xEEEE);
          check(append_positions_avx512(m, base, out.data(), n), "avx512");
        }
#endif
      }
    }
  }
}

struct Span {
  std::uint32_t offset, size;
};

// Positions at every alignment of the list, increasing by 1 (an empty span) to a few.
TEST(KernelBitPositions, SpansAgreeWithAPlainLoopAtEveryLengthAndAlignment) {
  std::uint64_t state = 9;
  for (std::size_t length = 0; length <= 130; ++length) {
    for (std::size_t align = 0; align < 16; ++align) {
      std::vector<std::uint16_t> at(align + 17 + 1);
      std::uint16_t p = static_cast<std::uint16_t>(length + align);
      for (std::size_t k = align; k < at.size(); ++k) {
        at[k] = p;
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        p = static_cast<std::uint16_t>(p + 1 + (state >> 33) % (k % 3 == 0 ? 1 : 9));
      }
      const std::uint16_t* const list = at.data() + align;
      const auto start = static_cast<std::uint32_t>(length);
      Span expected[8];
      unsigned expected_empty = 0;
      for (unsigned k = 0; k < 8; ++k) {
        expected[k] = {list[k] + 1u - start, static_cast<std::uint32_t>(list[k + 1] - list[k] - 1)};
        expected_empty |= static_cast<unsigned>(expected[k].size == 0) << k;
      }
      const auto check = [&](unsigned got_empty, const Span* got, unsigned count,
                             const char* form) {
        ASSERT_EQ(got_empty, expected_empty & ((1u << count) - 1)) << form;
        for (unsigned k = 0; k < count; ++k) {
          ASSERT_EQ(got[k].offset, expected[k].offset) << form << " " << k;
          ASSERT_EQ(got[k].size, expected[k].size) << form << " " << k;
        }
      };
      Span out[8];
      check(spans_portable<4>(list, start, out), out, 4, "portable 4");
      check(spans_portable<8>(list, start, out), out, 8, "portable 8");
      check(spans4(list, start, out), out, 4, "spans4");
#if BUFSTREAM_KERNELS_X86_64
      check(spans4_sse2(list, start, out), out, 4, "sse2");
      if (available(InstructionSet::avx512))
        check(spans8_avx512(list, start, out), out, 8, "avx512");
#endif
    }
  }
}

}  // namespace
}  // namespace bufstream::kernels::bits
