// TextArena: bump-pointer storage for the dictionary's text, one allocation per block.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string_view>
#include <vector>

#include "huge_block.hpp"

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
  /// such blocks); later copies do not use it. A block of 2 MiB or more is a `HugeBlock`: a
  /// loader fills it at once, and a few large page faults cost far less than one per 4 KiB.
  char* allocate_block(std::size_t n) {
    if (n >= detail::huge_page_size) {
      const detail::HugeBlock block = detail::allocate_huge_block(n);
      keep(block.allocation);
      capacity_ += block.size;
      return block.data;
    }
    void* const p = std::malloc(n == 0 ? 1 : n);
    if (p == nullptr) throw std::bad_alloc();
    keep(p);
    capacity_ += n;
    return static_cast<char*>(p);
  }

  /// Bytes allocated from the system.
  std::size_t capacity() const noexcept { return capacity_; }

 private:
  char* allocate_slow(std::size_t n) {
    if (n > block_size / 4) return allocate_block(n);  // the current block stays in use
    next_ = allocate_block(block_size);
    end_ = next_ + block_size;
    char* const out = next_;
    next_ += n;
    return out;
  }

  struct Free {
    void operator()(char* p) const noexcept { std::free(p); }
  };
  // Takes ownership of `allocation` (freed here if the list cannot grow).
  void keep(void* allocation) {
    std::unique_ptr<char, Free> owned(static_cast<char*>(allocation));
    blocks_.push_back(std::move(owned));
  }
  std::vector<std::unique_ptr<char, Free>> blocks_;
  char* next_ = nullptr;
  char* end_ = nullptr;
  std::size_t capacity_ = 0;
};

}  // namespace bufstream::cedict
