// How many bytes a stream still holds, for the streams that can tell. Internal.
//
// A stand-in for a `ReadStream::size_hint()` the stream protocol does not have yet: it looks
// through the stream types whose size is known (a memory stream; a regular file read through a
// descriptor stream, directly or through buffered streams). Used to reserve memory only.
#pragma once

#include <cstdint>
#include <optional>

#include <bufstream/read_stream.hpp>

namespace bufstream::csv::detail {

/// The bytes left to read in `in`, or nullopt when the stream cannot know (a pipe, a socket,
/// a stream type not listed above). May be stale if the file changes while it is read.
std::optional<std::uint64_t> remaining_bytes(ReadStream& in);

}  // namespace bufstream::csv::detail
