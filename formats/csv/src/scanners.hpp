// What csv::Reader and csv::Writer scan with, kept out of the public headers: the kernel
// layer's byte sets, and the reader's 64-byte masks of where fields end.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <bufstream/kernels/byte_set.hpp>
#include <bufstream/kernels/nested_byte_sets.hpp>

namespace bufstream::csv::detail {

// Where the fields of a record end: the reader's fast path looks them up in bit masks of the
// window, 64 bytes at a time, instead of scanning from each field's start.
//
// For a block of 64 bytes it keeps two masks, bit i for byte i: the bytes that end an unquoted
// field (separator, quote, CR, LF) and the ones that matter inside quotes (quote, CR, LF).
// Finding the next stop is then a shift and a count of trailing zeros; a record of a few fields
// costs one or two blocks, and the block is kept for the next record while the window stays the
// same. It never reads outside the window: a block that would run past its end is copied first.
class StopMasks {
 public:
  static constexpr std::size_t block_size = 64;

  explicit StopMasks(char separator) noexcept : stops_('"', '\r', '\n', separator) {}

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
    const kernels::NestedMasks m = stops_.mask64(bytes);
    quoted_ = m.inner;
    any_ = m.outer;
  }

  kernels::NestedByteSets stops_;  // inner: quote, CR, LF; outer: and the separator
  const char* end_ = nullptr;      // the window's end
  std::uint64_t end_offset_ = 0;   // its stream offset
  const char* block_ = nullptr;    // the current block's first byte (nullptr: none)
  std::uint64_t any_ = 0;          // separator, quote, CR, LF
  std::uint64_t quoted_ = 0;       // quote, CR, LF
};

/// The reader's scanners.
struct ReaderScanners {
  explicit ReaderScanners(char separator) noexcept
      : unquoted_stops({separator, '"', '\r', '\n'}), stops(separator) {}
  kernels::ByteSet unquoted_stops;  // separator, quote, CR, LF
  kernels::ByteSet quoted_stops{'"', '\r', '\n'};
  StopMasks stops;  // the fast path's view of the window
};

/// The writer's: the bytes that force a field into quotes.
struct WriterScanners {
  explicit WriterScanners(char separator) noexcept : specials({separator, '"', '\r', '\n'}) {}
  kernels::ByteSet specials;
};

}  // namespace bufstream::csv::detail
