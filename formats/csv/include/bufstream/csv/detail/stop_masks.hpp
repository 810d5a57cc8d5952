// Where the fields of a record end: the reader's fast path looks them up in bit masks of the
// window, 64 bytes at a time, instead of scanning from each field's start.
//
// For a block of 64 bytes, `StopMasks` keeps two masks, bit i for byte i: the bytes that end an
// unquoted field (separator, quote, CR, LF) and the ones that matter inside quotes (quote, CR,
// LF). Finding the next stop is then a shift and a count of trailing zeros; a record of a few
// fields costs one or two blocks, and the block is kept for the next record while the window
// stays the same. It never reads outside `[p, end)`: a block that would run past the end of
// the window is copied first.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace bufstream::csv::detail {

class StopMasks {
 public:
  static constexpr std::size_t block_size = 64;

  explicit StopMasks(char separator) noexcept : separator_(separator) {}

  /// Forgets the block unless the window is the one it was taken from: the same end, at the
  /// same stream offset (then every byte before the end is the same byte of the input).
  void use_window(const char* end, std::uint64_t end_offset) noexcept {
    if (end != end_ || end_offset != end_offset_) {
      end_ = end;
      end_offset_ = end_offset;
      block_ = nullptr;
      any_ = quoted_ = 0;
    }
  }

  /// The first separator, quote, CR or LF in `[p, end)` (the window's end), or `end`.
  const char* next_stop(const char* p) noexcept { return next<&StopMasks::any_>(p); }
  /// Whether `q`, a stop that `next_stop` found (not the end), is the separator.
  bool is_separator(const char* q) const noexcept {
    const auto offset = static_cast<std::size_t>(q - block_);
    return ((any_ & ~quoted_) >> offset & 1) != 0;
  }
  /// The first quote, CR or LF in `[p, end)`, or `end`.
  const char* next_quoted_stop(const char* p) noexcept { return next<&StopMasks::quoted_>(p); }

 private:
  template <std::uint64_t StopMasks::*Mask>
  const char* next(const char* p) noexcept {
    // p - block_ as an unsigned distance: one compare tells whether p is in the block (a p
    // before it, or no block at all, gives a huge distance).
    auto offset = static_cast<std::size_t>(reinterpret_cast<std::uintptr_t>(p) -
                                           reinterpret_cast<std::uintptr_t>(block_));
    if (offset >= block_size) {
      load(p);
      offset = 0;
    }
    for (;;) {
      const std::uint64_t m = (this->*Mask) >> offset;
      if (m != 0) return p + std::countr_zero(m);
      if (end_ - block_ <= static_cast<std::ptrdiff_t>(block_size)) return end_;
      p = block_ + block_size;
      load(p);
      offset = 0;
    }
  }

  // Makes the block start at `block` (inside the window, or at its end).
  void load(const char* block) noexcept {
    block_ = block;
    const auto available = static_cast<std::size_t>(end_ - block);
    if (available >= block_size) {
      compute(block);
      return;
    }
    // The window's last bytes: copied, and the bits of the padding cleared (the separator may
    // be '\0').
    char padded[block_size] = {};
    if (available != 0) std::memcpy(padded, block, available);
    compute(padded);
    const std::uint64_t valid = (std::uint64_t{1} << available) - 1;  // available < 64
    any_ &= valid;
    quoted_ &= valid;
  }

  void compute(const char* bytes) noexcept {
#if defined(__SSE2__)
    const Masks m = masks_sse2(bytes, separator_);
#else
    const Masks m = masks_portable(bytes, separator_);
#endif
    any_ = m.any;
    quoted_ = m.quoted;
  }

 public:
  struct Masks {
    std::uint64_t any;     // separator, quote, CR, LF
    std::uint64_t quoted;  // quote, CR, LF
  };

#if defined(__SSE2__)
  /// The masks of the 64 bytes at `bytes`, sixteen at a time.
  static Masks masks_sse2(const char* bytes, char separator) noexcept {
    const __m128i separators = _mm_set1_epi8(separator);
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i cr = _mm_set1_epi8('\r');
    const __m128i lf = _mm_set1_epi8('\n');
    Masks m{0, 0};
    for (int i = 0; i < 4; ++i) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + 16 * i));
      const __m128i in_quotes =
          _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_or_si128(_mm_cmpeq_epi8(v, cr), _mm_cmpeq_epi8(v, lf)));
      const __m128i all = _mm_or_si128(in_quotes, _mm_cmpeq_epi8(v, separators));
      m.quoted |= std::uint64_t{static_cast<unsigned>(_mm_movemask_epi8(in_quotes))} << (16 * i);
      m.any |= std::uint64_t{static_cast<unsigned>(_mm_movemask_epi8(all))} << (16 * i);
    }
    return m;
  }
#endif

  /// The same, eight bytes at a time in a 64-bit word (for targets without SSE2): an exact
  /// "byte is zero" flag in bit 7 of each byte (no borrow between bytes), gathered into eight
  /// bits by a multiply.
  static constexpr Masks masks_portable(const char* bytes, char separator) noexcept {
    Masks m{0, 0};
    for (int i = 0; i < 8; ++i) {
      std::uint64_t word = 0;
      for (int k = 0; k < 8; ++k) word |= std::uint64_t{static_cast<unsigned char>(bytes[8 * i + k])} << (8 * k);
      const std::uint64_t in_quotes = equal_bytes(word, '"') | equal_bytes(word, '\r') | equal_bytes(word, '\n');
      m.quoted |= gather(in_quotes) << (8 * i);
      m.any |= gather(in_quotes | equal_bytes(word, separator)) << (8 * i);
    }
    return m;
  }

 private:
  static constexpr std::uint64_t equal_bytes(std::uint64_t word, char c) noexcept {
    constexpr std::uint64_t low7 = 0x7F7F7F7F7F7F7F7F;
    const std::uint64_t x = word ^ (std::uint64_t{0x0101010101010101} * static_cast<unsigned char>(c));
    return ~(((x & low7) + low7) | x | low7);  // 0x80 in each byte of x that is zero
  }
  static constexpr std::uint64_t gather(std::uint64_t flags) noexcept {
    return ((flags >> 7) * 0x0102040810204080) >> 56;  // bit 7 of byte k -> bit k
  }

  char separator_;
  const char* end_ = nullptr;       // the window's end
  std::uint64_t end_offset_ = 0;    // its stream offset
  const char* block_ = nullptr;     // the current block's first byte (nullptr: none)
  std::uint64_t any_ = 0;           // separator, quote, CR, LF
  std::uint64_t quoted_ = 0;        // quote, CR, LF
};

}  // namespace bufstream::csv::detail
