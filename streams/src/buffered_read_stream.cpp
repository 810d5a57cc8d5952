#include <bufstream/buffered_read_stream.hpp>

#include <algorithm>
#include <cstring>

namespace bufstream {

BufferedReadStream::BufferedReadStream(ReadStream& source, BufferOptions options)
    : source_(&source),
      buffer_size_(std::max<std::size_t>(options.buffer_size, 1)),
      capacity_(buffer_size_),
      buffer_(new char[capacity_]) {}

BufferedReadStream::BufferedReadStream(std::unique_ptr<ReadStream> source, BufferOptions options)
    : BufferedReadStream(*source, options) {
  owned_ = std::move(source);
}

BufferedReadStream::~BufferedReadStream() = default;

bool BufferedReadStream::refill(std::size_t min) {
  const auto have = static_cast<std::size_t>(limit_ - cursor_);
  if (min > capacity_) {
    // A caller needs more contiguous bytes than the buffer holds: grow it (by doubling, so
    // that a token growing byte by byte costs amortised constant time).
    const std::size_t bigger = std::max(min, 2 * capacity_);
    std::unique_ptr<char[]> grown(new char[bigger]);
    if (have > 0) std::memcpy(grown.get(), cursor_, have);
    buffer_ = std::move(grown);
    capacity_ = bigger;
  } else if (have > 0 && cursor_ != buffer_.get()) {
    std::memmove(buffer_.get(), cursor_, have);
  }
  // The window follows every byte as it arrives: if the source throws, the window holds
  // exactly what was read (and never points into a buffer that has been replaced).
  char* const base = buffer_.get();
  std::size_t filled = have;
  set_window(base, base + filled, 0);
  while (filled < min) {
    std::size_t got = 0;
    try {
      got = source_->read_some(std::span<char>(base + filled, capacity_ - filled));
    } catch (const IoError& e) {
      fail(e);
    }
    if (got == 0) return false;
    filled += got;
    set_window(base, base + filled, got);
  }
  return true;
}

std::size_t BufferedReadStream::read_direct(std::span<char> dst) {
  // Large reads go straight into the caller's memory; small ones through the buffer.
  if (dst.size() > buffer_size_ / 2) {
    std::size_t got = 0;
    try {
      got = source_->read_some(dst);
    } catch (const IoError& e) {
      fail(e);
    }
    add_direct_bytes(got);
    return got;
  }
  return ReadStream::read_direct(dst);
}

void BufferedReadStream::close_source() { source_->close(); }

}  // namespace bufstream
