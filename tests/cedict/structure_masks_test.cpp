// The structure masks of every implementation (portable, SSE2, AVX2, AVX-512) against a byte-by-byte
// reading of the text, and their UTF-8 verdict against utf8::is_valid.
#include "structure_masks.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <bufstream/utf8.hpp>

namespace bufstream::cedict::detail {
namespace {

using Classifier = StructureMasks::Classifier;

std::vector<Classifier> classifiers() {
  std::vector<Classifier> out;
  for (Classifier c : {Classifier::portable, Classifier::sse2, Classifier::avx2, Classifier::avx512}) {
    if (StructureMasks::available(c)) out.push_back(c);
  }
  return out;
}

// The mask of byte `c` in word `w` of `text`, byte by byte.
std::uint64_t reference_word(const std::string& text, char c, std::size_t w) {
  std::uint64_t bits = 0;
  for (std::size_t i = w * 64; i < std::min(text.size(), w * 64 + 64); ++i) {
    if (text[i] == c) bits |= std::uint64_t{1} << (i - w * 64);
  }
  return bits;
}

void expect_masks(const std::string& text) {
  ASSERT_LE(text.size(), StructureMasks::max_bytes);
  auto masks = std::make_unique<StructureMasks>();
  for (Classifier c : classifiers()) {
    SCOPED_TRACE(static_cast<int>(c));
    const bool valid = masks->classify_with(c, text.data(), text.size());
    // A text ending in ASCII: the verdict is exactly UTF-8 validity.
    if (text.empty() || static_cast<unsigned char>(text.back()) < 0x80) {
      EXPECT_EQ(valid, utf8::is_valid(text));
    } else if (valid) {
      const auto bad = utf8::find_invalid(text);
      EXPECT_TRUE(!bad || bad->error == utf8::Error::truncated_sequence);
    }
    // Every word of the text, and the word after it (zero).
    for (std::size_t w = 0; w <= (text.size() + 63) / 64; ++w) {
      ASSERT_EQ(masks->newline_word(w), reference_word(text, '\n', w)) << w;
      ASSERT_EQ(masks->slash_word(w), reference_word(text, '/', w)) << w;
    }
  }
}

TEST(StructureMasks, EveryImplementationAgreesOnRandomText) {
  const std::vector<std::string> pieces{"a", " ", "/", "]", "\n", "[", "好", "é", "𪨊", "\xE0\xA0\x80", "\xED\x9F\xBF",
                                        "\xF4\x8F\xBF\xBF", "\xED\xA0\x80", "\xC0\xAF", "\x80", "\xFF", "\xF0\x9F", "\xE4\xBD"};
  std::uint64_t state = 3;
  const auto below = [&state](std::size_t n) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::size_t>(state >> 33) % n;
  };
  for (int round = 0; round < 300; ++round) {
    std::string text;
    const std::size_t kinds = round % 3 == 0 ? pieces.size() : 12;  // mostly valid
    for (std::size_t n = below(120); n > 0; --n) text += pieces[below(kinds)];
    if (round % 2 == 0) text += '\n';
    expect_masks(text);
  }
}

TEST(StructureMasks, ValidSequencesAcrossEveryBlockEdge) {
  for (const std::string seq : {"\xC3\xA9", "\xE4\xBD\xA0", "\xF0\xAA\xA8\x8A", "\xE0\xA0\x80", "\xED\x9F\xBF"}) {
    for (std::size_t pad = 0; pad < 70; ++pad) {
      std::string text = std::string(pad, 'x') + seq + " / ] " + seq + seq + "\n";
      expect_masks(text);
      std::string bad = std::string(pad, 'x') + seq.substr(0, seq.size() - 1) + "\n";
      expect_masks(bad);
    }
  }
}

// Every pair of a byte >= 0x80 and any byte, and every lead of three or four bytes with every
// second byte and a few third and fourth bytes, at the start, middle and end of a 64-byte block
// and across it: each classifier's verdict is exactly utf8::is_valid's.
TEST(StructureMasks, Utf8VerdictOnEveryLeadAndSecondByte) {
  auto masks = std::make_unique<StructureMasks>();
  std::vector<std::string> sequences;
  for (unsigned lead = 0x80; lead <= 0xFF; ++lead) {
    for (unsigned second = 0; second <= 0xFF; ++second) {
      const std::string pair{static_cast<char>(lead), static_cast<char>(second)};
      sequences.push_back(pair);
      if (lead >= 0xE0) {
        for (const unsigned third : {0x41u, 0x80u, 0xBFu, 0xC0u}) {
          sequences.push_back(pair + static_cast<char>(third));
          if (lead >= 0xF0) {
            for (const unsigned fourth : {0x41u, 0x8Fu, 0xC3u}) sequences.push_back(pair + static_cast<char>(third) + static_cast<char>(fourth));
          }
        }
      }
    }
  }
  for (const std::size_t pad : {std::size_t{0}, std::size_t{30}, std::size_t{62}, std::size_t{63}, std::size_t{64}}) {
    for (const std::string& seq : sequences) {
      const std::string text = std::string(pad, 'a') + seq + "z\n" + std::string(pad % 3 == 0 ? 70 : 0, 'b');
      const bool expected = utf8::is_valid(text);
      for (Classifier c : classifiers()) {
        ASSERT_EQ(masks->classify_with(c, text.data(), text.size()), expected)
            << "classifier " << static_cast<int>(c) << " pad " << pad << " byte " << std::hex
            << static_cast<unsigned>(static_cast<unsigned char>(seq[0])) << " "
            << static_cast<unsigned>(static_cast<unsigned char>(seq[1]));
      }
    }
  }
}

}  // namespace
}  // namespace bufstream::cedict::detail
