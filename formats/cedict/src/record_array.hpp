// RecordArray: a growable array of trivially copyable records that the loader fills through a
// pointer, without a capacity check per element.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace bufstream::cedict::detail {

/// A vector of trivially copyable `T` whose free capacity can be written through `end()` and
/// then taken with `set_end`: the loader makes room for a whole chunk's entries once, then
/// stores them with plain pointer writes. Grows geometrically (realloc), so that appending
/// stays amortised O(1) when the input's size was not known.
template <class T>
class RecordArray {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  RecordArray() = default;
  RecordArray(const RecordArray&) = delete;
  RecordArray& operator=(const RecordArray&) = delete;
  ~RecordArray() { std::free(data_); }

  std::size_t size() const noexcept { return static_cast<std::size_t>(end_ - data_); }
  std::size_t capacity() const noexcept { return static_cast<std::size_t>(capacity_end_ - data_); }
  bool empty() const noexcept { return end_ == data_; }
  const T* data() const noexcept { return data_; }
  const T* begin() const noexcept { return data_; }
  const T* end() const noexcept { return end_; }
  T* end() noexcept { return end_; }
  const T& operator[](std::size_t i) const noexcept { return data_[i]; }
  T& back() noexcept { return end_[-1]; }

  /// Makes room for `n` more elements beyond the current size.
  void reserve_more(std::size_t n) {
    if (static_cast<std::size_t>(capacity_end_ - end_) >= n) return;
    grow(std::max(size() + n, 2 * capacity()));
  }
  /// Makes the capacity at least `n`.
  void reserve(std::size_t n) {
    if (n > capacity()) grow(n);
  }
  /// Takes the elements written up to `new_end`, which lies in `[end(), data() + capacity()]`.
  void set_end(T* new_end) noexcept { end_ = new_end; }
  /// Drops the elements from index `n` on (`n <= size()`).
  void truncate(std::size_t n) noexcept { end_ = data_ + n; }

  void push_back(const T& value) {
    reserve_more(1);
    *end_++ = value;
  }
  void append(const T* first, const T* last) {
    const auto n = static_cast<std::size_t>(last - first);
    reserve_more(n);
    if (n != 0) std::memcpy(static_cast<void*>(end_), first, n * sizeof(T));
    end_ += n;
  }

 private:
  void grow(std::size_t n) {
    const std::size_t used = size();
    void* p = nullptr;
    constexpr std::size_t huge_page = std::size_t{2} << 20;
    if (data_ == nullptr && n * sizeof(T) >= huge_page) {
      // A first table sized for a whole load (from the input's size): aligned to 2 MiB and
      // offered for transparent huge pages, so that filling it takes a few page faults, not
      // one per 4 KiB. (realloc and free take such a block as any other.)
      const std::size_t bytes = (n * sizeof(T) + huge_page - 1) & ~(huge_page - 1);
      p = std::aligned_alloc(huge_page, bytes);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
      if (p != nullptr) static_cast<void>(::madvise(p, bytes, MADV_HUGEPAGE));  // a hint
#endif
    } else {
      p = std::realloc(static_cast<void*>(data_), n * sizeof(T));
    }
    if (p == nullptr) throw std::bad_alloc();
    data_ = static_cast<T*>(p);
    end_ = data_ + used;
    capacity_end_ = data_ + n;
  }

  T* data_ = nullptr;
  T* end_ = nullptr;
  T* capacity_end_ = nullptr;
};

}  // namespace bufstream::cedict::detail
