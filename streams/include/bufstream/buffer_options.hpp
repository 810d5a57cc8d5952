// Options of BufferedReadStream and BufferedWriteStream.
#pragma once

#include <cstddef>

namespace bufstream {

/// The default buffer: 64 KiB, as Zinc's buffered streams and Go's bufio have it.
inline constexpr std::size_t default_buffer_size = 65536;

/// The options of BufferedReadStream and BufferedWriteStream.
struct BufferOptions {
  /// Bytes in the buffer; 0 is taken as 1. A read buffer grows beyond this only when a caller
  /// asks `fill(n)` for more contiguous bytes than it holds.
  std::size_t buffer_size = default_buffer_size;
};

}  // namespace bufstream
