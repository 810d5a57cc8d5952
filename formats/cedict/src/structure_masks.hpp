// StructureMasks: where the line ends and slashes of a CC-CEDICT text are, one bit per byte,
// so that the loader finds lines and glosses with bit scans instead of looking at every byte.
// (The spaces and ']' before the glosses are found in the first 64 bytes of each line, where
// they are: masks of them over all the text cost more than they saved.)
#pragma once

#include <cstddef>
#include <cstdint>

namespace bufstream::cedict::detail {

/// The line ends and slashes of up to `max_bytes` bytes of text: bit `i % 64` of word `i / 64`
/// of a mask stands for byte `i`.
class StructureMasks {
 public:
  static constexpr std::size_t max_bytes = 4 * 1024;  // masks and text stay in L1
  static constexpr std::size_t max_words = max_bytes / 64;
  /// A position that is not there ("no such byte").
  static constexpr std::size_t none = ~std::size_t{0};

  /// Classifies `text[0, size)`, `size <= max_bytes` (SSE2, or AVX2 or AVX-512 when the
  /// processor has it), which must start at a UTF-8 sequence boundary. Checks its UTF-8 on the
  /// way: the AVX2 and AVX-512 classifiers by three nibble-table look-ups per byte (Keiser and
  /// Lemire), the others by shape (the rare bytes C0 C1 E0 ED F0..FF, whose validity depends on
  /// more, go to the decoder): true means that every byte up to the last complete sequence is
  /// valid UTF-8; false means that there is an error somewhere, which the caller finds with
  /// `utf8::find_invalid`.
  bool classify(const char* text, std::size_t size) noexcept;

  /// The implementations `classify` chooses from, for the tests that check each one.
  enum class Classifier : std::uint8_t { portable, sse2, avx2, avx512 };
  /// True if `c` was compiled in and the processor runs it.
  static bool available(Classifier c) noexcept;
  /// `classify` with the implementation `c`. Precondition: `available(c)`.
  bool classify_with(Classifier c, const char* text, std::size_t size) noexcept;

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
