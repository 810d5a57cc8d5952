// RecordArray: a growable array of trivially copyable records that the loader fills through a
// pointer, without a capacity check per element.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>

#include "huge_block.hpp"

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
  ~RecordArray() { std::free(allocation_); }

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
  /// Drops every element and frees the memory.
  void release() noexcept {
    std::free(allocation_);
    allocation_ = nullptr;
    data_ = end_ = capacity_end_ = nullptr;
  }

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
    if (n > ~std::size_t{0} / sizeof(T)) throw std::bad_alloc();
    void* allocation = nullptr;
    T* data = nullptr;
    if (data_ == nullptr && n * sizeof(T) >= huge_page_size) {
      // A first table sized for a whole load (from the input's size): a HugeBlock, so that
      // filling it takes a few page faults, not one per 4 KiB.
      const HugeBlock block = allocate_huge_block(n * sizeof(T));
      allocation = block.allocation;
      data = reinterpret_cast<T*>(block.data);
    } else if (allocation_ != static_cast<void*>(data_)) {
      // Growing a HugeBlock, whose data does not start at its allocation: moved by hand.
      allocation = std::malloc(n * sizeof(T));
      if (allocation == nullptr) throw std::bad_alloc();
      if (used != 0) std::memcpy(allocation, static_cast<const void*>(data_), used * sizeof(T));
      std::free(allocation_);
      data = static_cast<T*>(allocation);
    } else {
      allocation = std::realloc(allocation_, n * sizeof(T));
      if (allocation == nullptr) throw std::bad_alloc();
      data = static_cast<T*>(allocation);
    }
    allocation_ = allocation;
    data_ = data;
    end_ = data_ + used;
    capacity_end_ = data_ + n;
  }

  void* allocation_ = nullptr;  // what to free: `data_`, or the HugeBlock it lies in
  T* data_ = nullptr;
  T* end_ = nullptr;
  T* capacity_end_ = nullptr;
};

}  // namespace bufstream::cedict::detail
