#include <bufstream/buffered_read_stream.hpp>

#include <algorithm>

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
  return refill_from(buffer_, min, [this](std::span<char> room) { return read_source(room); });
}

std::size_t BufferedReadStream::read_direct(std::span<char> dst) {
  return read_direct_from(dst, buffer_size_,
                          [this](std::span<char> room) { return read_source(room); });
}

std::size_t BufferedReadStream::read_source(std::span<char> room) {
  try {
    return source_->read_some(room);
  } catch (const IoError& e) {
    fail(e);
  }
}

void BufferedReadStream::close_source() { source_->close(); }

}  // namespace bufstream
