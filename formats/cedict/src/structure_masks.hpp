// StructureMasks: where the line ends and slashes of a CC-CEDICT text are, one bit per byte,
// so that the loader finds lines and glosses with bit scans instead of looking at every byte.
// (The spaces and ']' before the glosses are found in the first 64 bytes of each line, where
// they are: masks of them over all the text cost more than they saved.)
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

namespace bufstream::cedict::detail {

/// The line ends and slashes of up to `max_bytes` bytes of text: bit `i % 64` of word `i / 64`
/// of a mask stands for byte `i`.
class StructureMasks {
 public:
  static constexpr std::size_t max_bytes = 4 * 1024;  // masks and text stay in L1
  static constexpr std::size_t max_words = max_bytes / 64;
  /// Returned by the `next_*` functions when there is no such byte.
  static constexpr std::size_t none = ~std::size_t{0};

  /// Classifies `text[0, size)`, `size <= max_bytes` (SSE2, or AVX2 when the processor has it),
  /// which must start at a UTF-8 sequence boundary. Checks its UTF-8 on the way: the AVX2
  /// classifier by three nibble-table look-ups per byte (Keiser and Lemire), the others by
  /// shape (the rare bytes C0 C1 E0 ED F0..FF, whose validity depends on more, go to the decoder):
  /// true means that every byte up to the last complete sequence is valid UTF-8; false means
  /// that there is an error somewhere, which the caller finds with `utf8::find_invalid`.
  bool classify(const char* text, std::size_t size) noexcept;

  /// The implementations `classify` chooses from, for the tests that check each one.
  enum class Classifier : std::uint8_t { portable, sse2, avx2 };
  /// True if `c` was compiled in and the processor runs it.
  static bool available(Classifier c) noexcept;
  /// `classify` with the implementation `c`. Precondition: `available(c)`.
  bool classify_with(Classifier c, const char* text, std::size_t size) noexcept;

  /// The first line end or slash at or after byte `from`, looking no further than the 64-byte
  /// word that holds byte `last` (`none` if there is none that far; a result may still lie
  /// after `last`, within its word). `from` and `last` are below the classified size.
  std::size_t next_newline(std::size_t from, std::size_t last) const noexcept { return next(newline_, from, last); }
  std::size_t next_slash(std::size_t from, std::size_t last) const noexcept { return next(slash_, from, last); }

  /// Word `w` of the line ends: bit `i` for byte `64 * w + i`. `w` is at most one past the
  /// last word of the classified size (zero there).
  std::uint64_t newline_word(std::size_t w) const noexcept { return newline_[w]; }
  /// Word `w` of the slashes, likewise.
  std::uint64_t slash_word(std::size_t w) const noexcept { return slash_[w]; }

  /// The slashes of bytes `[from, from + 64)`: bit `i` for byte `from + i`. `from` is below
  /// the classified size; bits for bytes past it are zero.
  std::uint64_t slash_window(std::size_t from) const noexcept { return window(slash_, from); }

 private:
  static std::size_t next(const std::uint64_t* mask, std::size_t from, std::size_t last) noexcept {
    std::size_t w = from / 64;
    std::uint64_t m = mask[w] & (~std::uint64_t{0} << (from % 64));
    while (m == 0) {
      if (++w > last / 64) return none;
      m = mask[w];
    }
    return w * 64 + static_cast<std::size_t>(std::countr_zero(m));
  }

  static std::uint64_t window(const std::uint64_t* mask, std::size_t from) noexcept {
    const std::size_t w = from / 64;
    const std::size_t k = from % 64;
    return (mask[w] >> k) | ((mask[w + 1] << 1) << (63 - k));  // two shifts: k may be 0
  }

  // Two words more than the text needs, set to zero, for `window`.
  std::uint64_t newline_[max_words + 2];
  std::uint64_t slash_[max_words + 2];
};

}  // namespace bufstream::cedict::detail
