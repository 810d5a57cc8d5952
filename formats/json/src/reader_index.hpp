// json::Reader's structural index of its window, for parse()'s indexed runs
// (reader_index.cpp tells how they work).
#pragma once

#include <cstddef>
#include <cstdint>

#include <bufstream/json/detail/indexed_walk.hpp>
#include <bufstream/json/reader_core.hpp>
#include <bufstream/kernels/json_index.hpp>

namespace bufstream::json {

struct Reader::Index : detail::IndexedWindow {
  // A new index starts with a stretch of 256 bytes and doubles each next one up to 16 KiB: a
  // value that ends soon (a line of JSON Lines) costs about its own bytes.
  static constexpr std::size_t first_stretch_blocks = 4;
  static constexpr std::size_t stretch_blocks = 256;

  Index() noexcept { offsets = stretch_offsets; }
  Index(const Index&) = delete;
  Index& operator=(const Index&) = delete;

  // The window and stretch the offsets belong to (base, i, n and stop: see IndexedWindow).
  const char* limit = nullptr;        // the window's end when it was indexed
  const char* region_end = nullptr;   // the window's whole blocks from the run's first byte
  const char* indexed_end = nullptr;  // the bytes indexed so far end here
  kernels::json_index::Carry carry;
  std::size_t next_blocks = first_stretch_blocks;  // the next stretch's size
  const kernels::json_index::Index best = kernels::select(kernels::json_index::index_forms());
  // Where the last run stopped with the index still good for going on from there.
  const char* resume = nullptr;
  std::uint64_t resume_offset = 0;

  std::uint32_t stretch_offsets[64 * stretch_blocks];
};

}  // namespace bufstream::json
