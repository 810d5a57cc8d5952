#include <bufstream/buffered_read_stream.hpp>

#include <algorithm>
#include <cstring>

namespace bufstream {

BufferedReadStream::BufferedReadStream(ReadStream& source, BufferOptions options)
    : source_(&source),
      buffer_size_(std::max<std::size_t>(options.buffer_size, 1)),
      buffer_(buffer_size_) {}

BufferedReadStream::BufferedReadStream(std::unique_ptr<ReadStream> source, BufferOptions options)
    : BufferedReadStream(*source, options) {
  owned_ = std::move(source);
}

BufferedReadStream::~BufferedReadStream() = default;

bool BufferedReadStream::refill(std::size_t min) {
  std::size_t filled = buffer_.keep_unread(cursor_, limit_, min);
  // The window follows every byte as it arrives: if the source throws, the window holds
  // exactly what was read (and never points into a buffer that has been replaced).
  char* const base = buffer_.data();
  const std::size_t capacity = buffer_.capacity();
  set_window(base, base + filled, 0);
  while (filled < min) {
    std::size_t got = 0;
    try {
      got = source_->read_some(std::span<char>(base + filled, capacity - filled));
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
