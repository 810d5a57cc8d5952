// Structure masks: every form's masks are what a plain loop finds, and its UTF-8 answer is
// what a byte-by-byte decode says (a sequence cut short by the end not counting), on every
// length 0..130 at every alignment, and on chunk-sized texts with an error at many places.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include <bufstream/kernels/structure_masks.hpp>
#include <bufstream/utf8.hpp>
#include <split_mix64.hpp>

namespace bufstream::kernels::structure {
namespace {

// The offset of the first invalid sequence, or the size; a sequence that the end cuts short
// is not an error.
std::size_t reference_answer(const std::string& text) {
  const char* const end = text.data() + text.size();
  for (const char* p = text.data(); p != end;) {
    const utf8::Decoded d = utf8::decode(p, end);
    if (d.error == utf8::Error::truncated_sequence) break;
    if (d.error != utf8::Error::none) return static_cast<std::size_t>(p - text.data());
    p += d.length;
  }
  return text.size();
}

std::uint64_t reference_word(const char* text, std::size_t size, char c, std::size_t w) {
  std::uint64_t bits = 0;
  for (std::size_t i = 64 * w; i < size && i < 64 * w + 64; ++i)
    bits |= std::uint64_t{text[i] == c} << (i - 64 * w);
  return bits;
}

// Runs every available form on `text` placed at `align` bytes into a buffer whose other bytes
// are members of the pair (which must not be seen).
void expect_forms_agree(const std::string& text, std::size_t align, BytePair pair) {
  std::vector<char> buffer(text.size() + 64 + 16, pair.first());
  char* const p = buffer.data() + align;
  std::copy(text.begin(), text.end(), p);
  const std::size_t words = (text.size() + 63) / 64;
  const std::size_t expected = reference_answer(text);
  for (const InstructionSet set : available_sets()) {
    SCOPED_TRACE(name(set));
    std::vector<std::uint64_t> first(words + 1, 0x5555), second(words + 1, 0x5555);
    const std::size_t got =
        form_for(classify_forms(), set)(p, text.size(), pair, first.data(), second.data());
    ASSERT_EQ(got, expected) << testing::PrintToString(text) << " align " << align;
    for (std::size_t w = 0; w < words; ++w) {
      ASSERT_EQ(first[w], reference_word(p, text.size(), pair.first(), w)) << w;
      ASSERT_EQ(second[w], reference_word(p, text.size(), pair.second(), w)) << w;
    }
    ASSERT_EQ(first[words], 0x5555u) << "wrote past its words";
  }
}

using Random = test::SplitMix64;

const std::vector<std::string> valid_pieces{"a",
                                            " ",
                                            "/",
                                            "]",
                                            "\n",
                                            std::string(1, '\0'),
                                            "好",
                                            "é",
                                            "𪨊",
                                            "\xE0\xA0\x80",
                                            "\xED\x9F\xBF",
                                            "\xF4\x8F\xBF\xBF",
                                            "\xEF\xBF\xBF"};
const std::vector<std::string> invalid_pieces{"\xED\xA0\x80",
                                              "\xC0\xAF",
                                              "\xC1",
                                              "\x80",
                                              "\xFF",
                                              "\xF5\x80\x80\x80",
                                              "\xF0\x8F\xBF\xBF",
                                              "\xE0\x9F\xBF",
                                              "\xF4\x90\x80\x80",
                                              "\xE4\xBD",
                                              "\xF0\x9F",
                                              "\xE4x"};

std::string random_text(Random& random, std::size_t length, bool with_errors) {
  std::string text;
  while (text.size() < length) {
    const bool bad = with_errors && random.below(40) == 0;
    const auto& pieces = bad ? invalid_pieces : valid_pieces;
    text += pieces[random.below(pieces.size())];
  }
  text.resize(length);  // may cut the last sequence short, or leave part of one
  return text;
}

TEST(KernelStructureMasks, EveryFormAgreesAtEveryLengthAndAlignment) {
  Random random(7);
  for (std::size_t length = 0; length <= 130; ++length) {
    for (std::size_t align = 0; align < 16; ++align) {
      for (int round = 0; round < 4; ++round) {
        expect_forms_agree(random_text(random, length, round % 2 == 1), align, BytePair('\n', '/'));
      }
      expect_forms_agree(random_text(random, length, true), align, BytePair('\0', '\xBF'));
    }
  }
}

TEST(KernelStructureMasks, EveryFormFindsAnErrorAnywhereInAChunk) {
  Random random(11);
  for (std::size_t size : {std::size_t{4096}, std::size_t{4000}, std::size_t{4093}}) {
    for (std::size_t at = 0; at + 4 < size; at += 1 + random.below(97)) {
      std::string text = random_text(random, size, false);
      const std::string& bad =
          invalid_pieces[random.below(invalid_pieces.size() - 3)];  // not cut short
      text.replace(at, bad.size(), bad);
      expect_forms_agree(text, at % 16, BytePair('\n', '/'));
    }
  }
}

// Each lead byte, and a few second bytes, as the last one to four bytes of a text whose
// length is around a block's: a sequence cut short by the end is not an error, one that
// could never be completed is.
TEST(KernelStructureMasks, SequencesCutShortByTheEnd) {
  for (const std::size_t pad : {0u, 1u, 60u, 61u, 62u, 63u, 64u, 125u, 126u, 127u, 128u}) {
    for (unsigned lead = 0x80; lead <= 0xFF; ++lead) {
      for (const std::string tail :
           {"", "\x80", "\xBF", "\x90", "\x80\x80", "\xA0\x80", "\x8F\xBF", "x"}) {
        const std::string text = std::string(pad, 'a') + static_cast<char>(lead) + tail;
        expect_forms_agree(text, 0, BytePair('\n', '/'));
      }
    }
  }
}

TEST(KernelStructureMasks, CompletePrefix) {
  EXPECT_EQ(complete_prefix("", 0), 0u);
  EXPECT_EQ(complete_prefix("ab", 2), 2u);
  EXPECT_EQ(complete_prefix("a\xE5", 2), 1u);
  EXPECT_EQ(complete_prefix("a\xE5\xA5", 3), 1u);
  EXPECT_EQ(complete_prefix("a\xE5\xA5\xBD", 4), 4u);
  EXPECT_EQ(complete_prefix("a\xF0\x9F\x98", 4), 1u);
  EXPECT_EQ(complete_prefix("a\xC0", 2), 2u);  // never a lead: an error, not cut short
  EXPECT_EQ(complete_prefix("a\xFF", 2), 2u);
  EXPECT_EQ(complete_prefix("\x80\x80\x80", 3), 3u);
}

}  // namespace
}  // namespace bufstream::kernels::structure
