// The one indexer of JSON text that the walks read (json::Document's parser and json::Reader's
// indexed runs): the kernel layer's structural index (kernels/json_index.hpp) of a text, one
// stretch at a time, each stretch's UTF-8 checked as it is indexed, while it is in the cache.
//
// A stretch's offsets are given only where the text is JSON's so far: the index stops before
// a stretch that holds a control byte in a string, and at the first invalid UTF-8 sequence
// (the offsets from it on are dropped); the walk then stops there, and the token reader says
// what is wrong. A sequence cut at a stretch's end is checked with the next stretch; after the
// last one it is left unchecked, which is safe: its bytes can only be in a string (outside
// one they are no token, and the parse stops at them), and that string's closing quote would
// come after them, where nothing is indexed, so no parse takes it.
#pragma once

#include <cstddef>
#include <cstdint>

#include <bufstream/json/detail/indexed_walk.hpp>
#include <bufstream/kernels/json_index.hpp>

namespace bufstream::json::detail {

class StretchIndex {
 public:
  /// The longest stretch: 16 KiB of text.
  static constexpr std::size_t max_stretch_blocks = 256;

  /// Starts an index of [begin, end), whose size is a multiple of 64 (the caller pads its
  /// text): stretches of `first_blocks` blocks of 64 bytes, each next one twice as long up to
  /// `max_blocks` (at most max_stretch_blocks), their offsets written to `offsets`, which has
  /// room for 64 * max_blocks of them. The first byte is not in a string.
  void start(const char* begin, const char* end, std::size_t first_blocks, std::size_t max_blocks,
             std::uint32_t* offsets) noexcept;

  /// The next stretch that has indexed bytes, indexed; an empty place (at == end) when none is
  /// left before stop().
  IndexedPlace next() noexcept;

  /// Where a walk must stop: the end, or where the text was found not to be JSON's.
  const char* stop() const noexcept { return stop_; }
  /// The end of the stretches indexed so far.
  const char* indexed_end() const noexcept { return indexed_end_; }
  /// Whether the text indexed so far is JSON's: valid UTF-8, no control byte in a string.
  bool clean() const noexcept { return !invalid_utf8_ && carry_.control_in_string == 0; }

 private:
  const char* indexed_end_ = nullptr;  // the stretches indexed so far end here
  const char* stop_ = nullptr;
  const char* utf8_checked_ = nullptr;  // valid UTF-8 up to here
  bool invalid_utf8_ = false;
  std::size_t next_blocks_ = 0;
  std::size_t max_blocks_ = 0;
  std::uint32_t* offsets_ = nullptr;
  kernels::json_index::Carry carry_;
};

}  // namespace bufstream::json::detail
