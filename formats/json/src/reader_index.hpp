// json::Reader's structural index of its window, for parse()'s indexed runs
// (reader_index.cpp tells how they work).
#pragma once

#include <cstddef>
#include <cstdint>

#include <bufstream/json/detail/indexed_walk.hpp>
#include <bufstream/json/reader_core.hpp>
#include <bufstream/kernels/json_index.hpp>

#include "stretch_index.hpp"

namespace bufstream::json {

struct Reader::Index : detail::IndexedWindow {
  // A new index starts with a stretch of 256 bytes and doubles each next one up to 16 KiB: a
  // value that ends soon (a line of JSON Lines) costs about its own bytes.
  static constexpr std::size_t first_stretch_blocks = 4;
  static constexpr std::size_t stretch_blocks = detail::StretchIndex::max_stretch_blocks;

  Index() noexcept = default;
  Index(const Index&) = delete;
  Index& operator=(const Index&) = delete;

  // The run's index of the window (place and stop: see IndexedWindow), from the cursor where
  // the run started up to the window's last whole block.
  const char* run_start = nullptr;
  detail::StretchIndex stretches;
  // After a run that ended well, `place` is where it stopped in the index, which the next run
  // goes on with while the window's bytes stay where they were: while a window address plus
  // `to_offset` is still the same stream offset (reader_index.cpp).
  bool resumable = false;
  std::uint64_t to_offset = 0;
  // The first offset at or after the cursor, or nullptr (see reader_index.cpp).
  const std::uint32_t* resume(const char* cursor, std::uint64_t offset_of_address) const noexcept;

  std::uint32_t stretch_offsets[64 * stretch_blocks];
};

}  // namespace bufstream::json
