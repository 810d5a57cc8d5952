// The loader's structure masks: what the kernel layer's classifier makes of a chunk (every
// form of which tests/kernels holds to a plain loop), held with zero words after the text,
// which the scan may look at.
#include "structure_masks.hpp"

#include <cstdint>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include <bufstream/kernels/cpu.hpp>

namespace bufstream::cedict::detail {
namespace {

std::uint64_t reference_word(const std::string& text, char c, std::size_t w) {
  std::uint64_t bits = 0;
  for (std::size_t i = w * 64; i < std::min(text.size(), w * 64 + 64); ++i) {
    if (text[i] == c) bits |= std::uint64_t{1} << (i - w * 64);
  }
  return bits;
}

TEST(StructureMasks, LineEndsAndSlashesWithZeroWordsAfter) {
  auto masks = std::make_unique<StructureMasks>();
  for (const kernels::InstructionSet set : kernels::available_sets()) {
    SCOPED_TRACE(kernels::name(set));
    const auto classify = kernels::form_for(kernels::structure::classify_forms(), set);
    std::string text;
    for (int i = 0; text.size() < StructureMasks::max_bytes; ++i) {
      // A long text first, so that the words after a shorter one's end held bits before.
      text = std::string(StructureMasks::max_bytes - static_cast<std::size_t>(i) * 61, '/');
      if (i > 0) text = "好 好 [hao3] /good/well/\n" + text.substr(0, text.size() / 3);
      EXPECT_EQ(masks->classify(classify, text.data(), text.size()), text.size());
      for (std::size_t w = 0; w <= (text.size() + 63) / 64 + 1; ++w) {
        ASSERT_EQ(masks->newline_word(w), reference_word(text, '\n', w)) << w;
        ASSERT_EQ(masks->slash_word(w), reference_word(text, '/', w)) << w;
      }
      if (i == 40) break;
    }
    const std::string bad = "a b [c] /d/\n\xFF\n";
    EXPECT_EQ(masks->classify(classify, bad.data(), bad.size()), 12u);
  }
}

}  // namespace
}  // namespace bufstream::cedict::detail
