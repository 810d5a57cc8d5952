// json::Reader's structural index of its window, for parse()'s indexed runs
// (reader_index.cpp tells how they work).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <bufstream/json/reader_core.hpp>
#include <bufstream/kernels/json_index.hpp>
#include <bufstream/utf8.hpp>

namespace bufstream::json {

struct Reader::Index {
  static constexpr std::size_t stretch_blocks = 256;  // 16 KiB indexed at a time
  static constexpr std::size_t max_events = 256;

  // The window and stretch the offsets belong to.
  const char* limit = nullptr;        // the window's end when it was indexed
  const char* region_end = nullptr;   // the window's whole blocks from the run's first byte
  const char* indexed_end = nullptr;  // the bytes indexed so far end here
  const char* stop = nullptr;         // the first byte a run must not read (none: region_end)
  const char* base = nullptr;         // the current stretch: offsets are from here
  std::size_t i = 0;                  // its next offset
  std::size_t n = 0;                  // its offsets
  kernels::json_index::Carry carry;
  const kernels::json_index::Index best = kernels::select(kernels::json_index::index_forms());
  // Where the last run stopped with the index still good for going on from there.
  const char* resume = nullptr;
  std::uint64_t resume_offset = 0;

  std::vector<std::uint8_t> open;  // the open containers (a copy of the reader's, then the run's)
  std::string text;                // the run's decoded strings
  std::uint32_t offsets[64 * stretch_blocks];
  detail::IndexedEvent events[max_events];

  // The next indexed byte before `stop`, or nullptr.
  const char* next() noexcept {
    if (i == n && !index_more()) return nullptr;
    const char* const p = base + offsets[i++];
    return p < stop ? p : nullptr;
  }

  // Indexes the next stretch that has indexed bytes; false at the region's end (or stop).
  bool index_more() noexcept {
    while (indexed_end < stop) {
      const auto blocks =
          std::min(stretch_blocks, static_cast<std::size_t>(stop - indexed_end) / 64);
      if (blocks == 0) return false;
      const char* const stretch = indexed_end;
      const char* const stretch_end = stretch + 64 * blocks;
      n = best(stretch, blocks, carry, offsets);
      if (carry.control_in_string != 0) {
        // Somewhere in this stretch: the reader finds it.
        stop = stretch;
        n = 0;
        return false;
      }
      // Invalid UTF-8 (or a sequence cut at the stretch's end): stop before it.
      if (const auto bad = utf8::find_invalid(
              std::string_view(stretch, static_cast<std::size_t>(stretch_end - stretch)))) {
        stop = stretch + bad->offset;
      }
      base = stretch;
      i = 0;
      indexed_end = stretch_end;
      if (n != 0) return true;
    }
    return false;
  }
};

}  // namespace bufstream::json
