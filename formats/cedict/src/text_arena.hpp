// TextArena: bump-pointer storage for the dictionary's text, one allocation per block.
#pragma once

#include <cstddef>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

namespace bufstream::cedict {

/// Copies strings into large blocks and hands back views of the copies, which stay valid (and
/// never move) until the arena is destroyed. A string longer than a quarter of a block gets a
/// block of its own, so that little is wasted at the end of a block.
class TextArena {
 public:
  static constexpr std::size_t block_size = 256 * 1024;

  std::string_view copy(std::string_view s) {
    char* out;
    if (s.size() <= static_cast<std::size_t>(end_ - next_)) [[likely]] {
      out = next_;
      next_ += s.size();
    } else {
      out = allocate_slow(s.size());
    }
    if (!s.empty()) std::memcpy(out, s.data(), s.size());
    return {out, s.size()};
  }

  /// A block of `n` bytes of its own, for the caller to fill (a loader reads its input into
  /// such blocks); later copies do not use it.
  char* allocate_block(std::size_t n) {
    blocks_.push_back(std::make_unique_for_overwrite<char[]>(n));
    capacity_ += n;
    return blocks_.back().get();
  }

  /// Bytes allocated from the system.
  std::size_t capacity() const noexcept { return capacity_; }

 private:
  char* allocate_slow(std::size_t n) {
    if (n > block_size / 4) return allocate_block(n);  // the current block stays in use
    blocks_.push_back(std::make_unique_for_overwrite<char[]>(block_size));
    capacity_ += block_size;
    next_ = blocks_.back().get();
    end_ = next_ + block_size;
    char* const out = next_;
    next_ += n;
    return out;
  }

  std::vector<std::unique_ptr<char[]>> blocks_;
  char* next_ = nullptr;
  char* end_ = nullptr;
  std::size_t capacity_ = 0;
};

}  // namespace bufstream::cedict
