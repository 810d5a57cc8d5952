// StructureMasks: where the line ends and slashes of a CC-CEDICT text are, one bit per byte,
// so that the loader finds lines and glosses with bit scans instead of looking at every byte.
// The kernel layer makes them (kernels::structure, which checks the chunk's UTF-8 in the same
// pass); this holds them for a chunk. (The spaces and ']' before the glosses are found in the
// first 64 bytes of each line, where they are: masks of them over all the text cost more than
// they saved.)
#pragma once

#include <cstddef>
#include <cstdint>

#include <bufstream/kernels/byte_pair.hpp>
#include <bufstream/kernels/structure_masks.hpp>

namespace bufstream::cedict::detail {

/// The line ends and slashes of up to `max_bytes` bytes of text: bit `i % 64` of word `i / 64`
/// of a mask stands for byte `i`.
class StructureMasks {
 public:
  static constexpr std::size_t max_bytes = 4 * 1024;  // masks and text stay in L1
  static constexpr std::size_t max_words = max_bytes / 64;
  /// A position that is not there ("no such byte").
  static constexpr std::size_t none = ~std::size_t{0};

  /// Classifies `text[0, size)`, `size <= max_bytes`, with `form` (a form of
  /// kernels::structure::classify_forms), and returns the offset of its first invalid UTF-8
  /// sequence, or `size` if it has none (a sequence that the end cuts short is not one).
  std::size_t classify(kernels::structure::Classify form, const char* text,
                       std::size_t size) noexcept {
    const std::size_t valid_end = form(text, size, kernels::BytePair('\n', '/'), newline_, slash_);
    const std::size_t words = (size + 63) / 64;
    for (const std::size_t zero : {words, words + 1}) newline_[zero] = slash_[zero] = 0;
    return valid_end;
  }

  /// Word `w` of the line ends: bit `i` for byte `64 * w + i`. `w` is at most one past the
  /// last word of the classified size (zero there).
  std::uint64_t newline_word(std::size_t w) const noexcept { return newline_[w]; }
  /// Word `w` of the slashes, likewise.
  std::uint64_t slash_word(std::size_t w) const noexcept { return slash_[w]; }

 private:
  // Words past the text's, set to zero: a scan may look at the word after its last.
  std::uint64_t newline_[max_words + 2];
  std::uint64_t slash_[max_words + 2];
};

}  // namespace bufstream::cedict::detail
