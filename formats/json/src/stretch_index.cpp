#include "stretch_index.hpp"

#include <algorithm>
#include <optional>
#include <string_view>

#include <bufstream/utf8.hpp>

namespace bufstream::json::detail {

namespace {

const kernels::json_index::Index index_best = kernels::select(kernels::json_index::index_forms());

}  // namespace

void StretchIndex::start(const char* begin, const char* end, std::size_t first_blocks,
                         std::size_t max_blocks, std::uint32_t* offsets) noexcept {
  indexed_end_ = begin;
  stop_ = end;
  utf8_checked_ = begin;
  invalid_utf8_ = false;
  max_blocks_ = std::min(max_blocks, max_stretch_blocks);
  next_blocks_ = std::min(first_blocks, max_blocks_);
  offsets_ = offsets;
  carry_ = {};
}

IndexedPlace StretchIndex::next() noexcept {
  while (indexed_end_ < stop_) {
    const std::size_t blocks =
        std::min(next_blocks_, static_cast<std::size_t>(stop_ - indexed_end_) / 64);
    if (blocks == 0) break;
    next_blocks_ = std::min(2 * next_blocks_, max_blocks_);
    const char* const stretch = indexed_end_;
    const char* const stretch_end = stretch + 64 * blocks;
    const std::size_t n = index_best(stretch, blocks, carry_, offsets_);
    if (carry_.control_in_string != 0) {  // somewhere in this stretch: the reader finds it
      stop_ = stretch;
      break;
    }
    indexed_end_ = stretch_end;
    const std::uint32_t* end = offsets_ + n;
    // Checked from where the last check ended: a sequence cut at the last stretch's end, if
    // any, then this stretch.
    const std::optional<utf8::Invalid> bad = utf8::find_invalid(
        std::string_view(utf8_checked_, static_cast<std::size_t>(stretch_end - utf8_checked_)));
    if (!bad) {
      utf8_checked_ = stretch_end;
    } else {
      utf8_checked_ += bad->offset;
      if (bad->error != utf8::Error::truncated_sequence) {
        // Stop before it (it may lie before this stretch, in a sequence cut at the last one's
        // end), dropping the offsets from there on.
        invalid_utf8_ = true;
        stop_ = utf8_checked_;
        end = stop_ <= stretch ? offsets_
                               : std::lower_bound(static_cast<const std::uint32_t*>(offsets_), end,
                                                  static_cast<std::uint32_t>(stop_ - stretch));
      }
    }
    if (end != offsets_) return {stretch, offsets_, end};
  }
  return {stop_, offsets_, offsets_};
}

}  // namespace bufstream::json::detail
