// estimate_items_left: how many more items (records, array elements) a stream holds, judged
// from the bytes its first items took, so that a reader can size its result once instead of
// growing it step by step.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include <bufstream/read_stream.hpp>

namespace bufstream {

/// `count` items took the bytes from offset `start` to `in.position()`; the rest of the
/// stream (`in.remaining_hint()`) is expected to hold items of that average size. Answers only
/// once a fair sample is in (1 MiB, or a sixteenth of the whole), never more than the bytes
/// left (an item is at least one byte), and `nullopt` when the stream cannot tell its size.
inline std::optional<std::uint64_t> estimate_items_left(const ReadStream& in, std::uint64_t start,
                                                        std::size_t count) {
  const std::uint64_t here = in.position();
  if (count == 0 || here <= start) return std::nullopt;
  const std::optional<std::uint64_t> left = in.remaining_hint();
  if (!left) return std::nullopt;
  const std::uint64_t consumed = here - start;
  constexpr std::uint64_t enough = std::uint64_t{1} << 20;
  if (consumed < enough && consumed < (consumed + *left) / 16) return std::nullopt;
  const double per_item = static_cast<double>(consumed) / static_cast<double>(count);
  const double estimate = static_cast<double>(*left) / per_item;
  return estimate >= static_cast<double>(*left) ? *left : static_cast<std::uint64_t>(estimate) + 1;
}

}  // namespace bufstream
