#include <bufstream/buffered_write_stream.hpp>

#include <algorithm>
#include <cstring>

namespace bufstream {

BufferedWriteStream::BufferedWriteStream(WriteStream& sink, BufferOptions options)
    : sink_(&sink),
      buffer_size_(std::max<std::size_t>(options.buffer_size, 1)),
      buffer_(new char[buffer_size_]) {
  direct_write_size_ = buffer_size_ / 2;
  set_window(buffer_.get(), buffer_.get() + buffer_size_);
}

BufferedWriteStream::BufferedWriteStream(std::unique_ptr<WriteStream> sink, BufferOptions options)
    : BufferedWriteStream(*sink, options) {
  owned_ = std::move(sink);
}

BufferedWriteStream::~BufferedWriteStream() {
  finish_in_destructor("BufferedWriteStream", [this] { drain(); });
}

void BufferedWriteStream::drain() {
  const auto pending = static_cast<std::size_t>(cursor_ - start_);
  if (pending == 0) return;
  const std::uint64_t before = sink_->position();
  try {
    sink_->write(std::string_view(start_, pending));
  } catch (const IoError& e) {
    // Keep exactly the bytes the sink did not take, at the front of the buffer.
    const std::uint64_t accepted = position();
    const auto taken =
        static_cast<std::size_t>(std::min<std::uint64_t>(sink_->position() - before, pending));
    const std::size_t kept = pending - taken;
    std::memmove(buffer_.get(), start_ + taken, kept);
    start_ = buffer_.get();
    cursor_ = start_ + kept;
    start_position_ = accepted - kept;
    fail(e);
  }
  set_window(buffer_.get(), buffer_.get() + buffer_size_);
}

void BufferedWriteStream::write_slow(const char* data, std::size_t n) {
  throw_if_unusable();
  if (n > buffer_size_ / 2) {
    drain();
    const std::uint64_t before = sink_->position();
    try {
      sink_->write(std::string_view(data, n));
    } catch (const IoError& e) {
      add_direct_bytes(static_cast<std::size_t>(sink_->position() - before));
      fail(e);
    }
    add_direct_bytes(n);
    return;
  }
  // Fill the buffer, hand it on, then keep the rest (which fits: n <= buffer_size_ / 2).
  const std::size_t first = std::min(n, static_cast<std::size_t>(limit_ - cursor_));
  std::memcpy(cursor_, data, first);
  cursor_ += first;
  if (first == n) return;
  drain();
  std::memcpy(cursor_, data + first, n - first);
  cursor_ += n - first;
}

char* BufferedWriteStream::make_room(std::size_t n) {
  if (n > buffer_size_) return nullptr;
  drain();
  return cursor_;
}

void BufferedWriteStream::flush_sink() {
  drain();
  try {
    sink_->flush();
  } catch (const IoError& e) {
    fail(e);
  }
}

void BufferedWriteStream::close_sink() {
  try {
    sink_->close();
  } catch (const IoError& e) {
    fail(e);
  }
}

}  // namespace bufstream
