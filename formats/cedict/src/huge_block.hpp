// HugeBlock: memory that a load fills at once (a text block, a record table), aligned to 2 MiB
// and offered to the kernel for transparent huge pages.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace bufstream::cedict::detail {

inline constexpr std::size_t huge_page_size = std::size_t{2} << 20;

struct HugeBlock {
  void* allocation;  // what to pass to std::free
  char* data;        // at a 2 MiB boundary
  std::size_t size;  // usable from `data`: the size asked for, rounded up to 2 MiB
};

/// A block of at least `bytes` bytes at a 2 MiB boundary, offered for huge pages (a hint), so
/// that filling it takes a few page faults, not one per 4 KiB page. Throws std::bad_alloc.
///
/// It comes from malloc, 2 MiB more than asked and aligned inside, not from aligned_alloc:
/// glibc serves a large aligned_alloc from a new mapping every time (its request always
/// reaches the mmap threshold that the release of the previous block set), so every load paid
/// for the kernel zeroing fresh pages; a large malloc after such a release comes from the heap,
/// as a std::vector's would, and a repeated load reuses memory.
inline HugeBlock allocate_huge_block(std::size_t bytes) {
  if (bytes > ~std::size_t{0} - 2 * huge_page_size) throw std::bad_alloc();
  const std::size_t size = (bytes + huge_page_size - 1) & ~(huge_page_size - 1);
  void* const allocation = std::malloc(size + huge_page_size);
  if (allocation == nullptr) throw std::bad_alloc();
  const auto address = reinterpret_cast<std::uintptr_t>(allocation);
  char* const data = static_cast<char*>(allocation) +
                     ((huge_page_size - address % huge_page_size) % huge_page_size);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  static_cast<void>(::madvise(data, size, MADV_HUGEPAGE));  // a hint; failure is harmless
#endif
  return {allocation, data, size};
}

}  // namespace bufstream::cedict::detail
