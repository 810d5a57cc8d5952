// Token masks: every form's masks are what a plain loop finds, on every length 0..130 at every
// alignment, with the bytes around the text ones that would be flagged (which must not be).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include <bufstream/kernels/token_masks.hpp>
#include <split_mix64.hpp>

namespace bufstream::kernels::tokens {
namespace {

BlockMasks reference_block(const char* text, std::size_t size, std::size_t w) {
  BlockMasks m{0, 0, 0, 0};
  for (std::size_t i = 64 * w; i < size && i < 64 * w + 64; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const std::uint64_t bit = std::uint64_t{1} << (i - 64 * w);
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') m.whitespace |= bit;
    if (c == '\n') m.line_feed |= bit;
    if (c == '"' || c == '\\' || c < 0x20) m.string_stop |= bit;
    if (c >= 0x80) m.non_ascii |= bit;
  }
  return m;
}

void expect_forms_agree(const std::string& text, std::size_t align, char around) {
  std::vector<char> buffer(text.size() + 64 + 16, around);
  char* const p = buffer.data() + align;
  std::copy(text.begin(), text.end(), p);
  const std::size_t blocks = (text.size() + 63) / 64;
  const BlockMasks untouched{0x5555, 0x5555, 0x5555, 0x5555};
  for (const InstructionSet set : available_sets()) {
    SCOPED_TRACE(name(set));
    std::vector<BlockMasks> out(blocks + 1, untouched);
    form_for(scan_forms(), set)(p, text.size(), out.data());
    for (std::size_t w = 0; w < blocks; ++w) {
      const BlockMasks want = reference_block(p, text.size(), w);
      ASSERT_EQ(out[w].whitespace, want.whitespace) << testing::PrintToString(text) << " " << w;
      ASSERT_EQ(out[w].line_feed, want.line_feed) << testing::PrintToString(text) << " " << w;
      ASSERT_EQ(out[w].string_stop, want.string_stop) << testing::PrintToString(text) << " " << w;
      ASSERT_EQ(out[w].non_ascii, want.non_ascii) << testing::PrintToString(text) << " " << w;
    }
    ASSERT_EQ(out[blocks].whitespace, 0x5555u) << "wrote past its blocks";
  }
}

using Random = test::SplitMix64;

// Bytes of every class, and their neighbours (0x1F and 0x20, 0x7F and 0x80, '!' and '#').
std::string random_text(Random& random, std::size_t length) {
  static const std::string bytes{' ',    '\t',   '\r',   '\n', '"', '\\',   '\0',   '\x1F',
                                 '\x7F', '!',    '#',    '[',  'a', '\x0B', '\x0C', '\x80',
                                 '\xBF', '\xC3', '\xFF', '{',  ':', ','};
  std::string text(length, ' ');
  for (char& c : text) c = bytes[random.below(bytes.size())];
  return text;
}

TEST(KernelTokenMasks, EveryFormAgreesAtEveryLengthAndAlignment) {
  Random random(5);
  for (std::size_t length = 0; length <= 130; ++length) {
    for (std::size_t align = 0; align < 16; ++align) {
      for (const char around : {' ', '"', '\0', '\xFF'}) {
        expect_forms_agree(random_text(random, length), align, around);
      }
    }
  }
}

TEST(KernelTokenMasks, EveryByteValueInEveryPosition) {
  for (unsigned c = 0; c < 256; ++c) {
    for (const std::size_t at : {0u, 1u, 15u, 16u, 31u, 32u, 63u, 64u, 100u}) {
      std::string text(101, 'a');
      text[at] = static_cast<char>(c);
      expect_forms_agree(text, at % 7, 'a');
    }
  }
}

}  // namespace
}  // namespace bufstream::kernels::tokens
