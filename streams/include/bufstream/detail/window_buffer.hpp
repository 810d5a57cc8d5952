// WindowBuffer: the memory behind a read decorator's window (BufferedReadStream, the decoding
// and decompressing streams). Before a refill, the unread bytes move to its start and it grows
// when a caller needs more contiguous bytes than it holds; the decorator then fills the rest.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>

namespace bufstream::detail {

class WindowBuffer {
 public:
  /// `capacity` bytes of window (at least one), and `slack` bytes past it that a decoder may
  /// write into before it stops (a character that does not fit the window whole).
  explicit WindowBuffer(std::size_t capacity, std::size_t slack = 0)
      : capacity_(std::max<std::size_t>(capacity, 1)),
        slack_(slack),
        bytes_(new char[capacity_ + slack_]) {}

  /// Makes room for at least `min` bytes from the start: moves the unread bytes
  /// [cursor, limit) (which may lie in this buffer) to the start, first growing the buffer if
  /// `min` exceeds its capacity (doubling, so that a token growing byte by byte costs
  /// amortised constant time). Returns how many bytes were kept.
  std::size_t keep_unread(const char* cursor, const char* limit, std::size_t min) {
    const auto have = static_cast<std::size_t>(limit - cursor);
    if (min > capacity_) {
      const std::size_t bigger = std::max(min, 2 * capacity_);
      std::unique_ptr<char[]> grown(new char[bigger + slack_]);
      if (have > 0) std::memcpy(grown.get(), cursor, have);
      bytes_ = std::move(grown);
      capacity_ = bigger;
    } else if (have > 0 && cursor != bytes_.get()) {
      std::memmove(bytes_.get(), cursor, have);
    }
    return have;
  }

  char* data() const noexcept { return bytes_.get(); }
  /// The window's size: the size it was made with, or more after a large fill.
  std::size_t capacity() const noexcept { return capacity_; }
  /// The end of the memory a decoder may write into: capacity plus slack.
  char* end() const noexcept { return bytes_.get() + capacity_ + slack_; }

 private:
  std::size_t capacity_;
  std::size_t slack_;
  std::unique_ptr<char[]> bytes_;
};

}  // namespace bufstream::detail
