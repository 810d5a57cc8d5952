#include <bufstream/compress/compress_write_stream.hpp>

#include <algorithm>
#include <cstring>

#include "codec.hpp"

namespace bufstream {

namespace {

// Room asked of the sink for each call of the encoder: large enough that a call does a good
// amount of work, small enough to fit the free part of a 64 KiB buffered sink most of the time.
constexpr std::size_t output_chunk = 16384;

}  // namespace

CompressWriteStream::CompressWriteStream(WriteStream& sink,
                                         std::unique_ptr<compress_detail::Encoder> encoder,
                                         BufferOptions options)
    : sink_(&sink),
      encoder_(std::move(encoder)),
      buffer_size_(std::max<std::size_t>(options.buffer_size, 1)),
      buffer_(new char[buffer_size_]) {
  direct_write_size_ = buffer_size_ / 2;
  set_window(buffer_.get(), buffer_.get() + buffer_size_);
}

CompressWriteStream::CompressWriteStream(std::unique_ptr<WriteStream> sink,
                                         std::unique_ptr<compress_detail::Encoder> encoder,
                                         BufferOptions options)
    : CompressWriteStream(*sink, std::move(encoder), options) {
  owned_ = std::move(sink);
}

CompressWriteStream::~CompressWriteStream() = default;

void CompressWriteStream::finish_on_destruction(std::string_view what) noexcept {
  finish_in_destructor(what, [this] {
    drain();
    if (member_open_) end_member();
  });
}

void CompressWriteStream::pump(const char* data, std::size_t n, compress_detail::Flush mode) {
  if (!member_open_) {
    if (n == 0 && mode != compress_detail::Flush::end) return;
    encoder_->reset();
    member_open_ = true;
  }
  if (n > 0) unflushed_ = true;
  std::span<const char> in(data, n);
  for (;;) {
    compress_detail::Step step;
    try {
      char* room = sink_->reserve(output_chunk);
      step = encoder_->encode(in, std::span<char>(room, output_chunk), mode);
      sink_->commit(step.out_made);
    } catch (const IoError& e) {
      fail(e);
    }
    in = in.subspan(step.in_used);
    if (in.empty() && (mode == compress_detail::Flush::none || step.done)) return;
  }
}

void CompressWriteStream::drain() {
  const auto pending = static_cast<std::size_t>(cursor_ - start_);
  if (pending > 0) pump(start_, pending, compress_detail::Flush::none);
  set_window(buffer_.get(), buffer_.get() + buffer_size_);
}

void CompressWriteStream::end_member() {
  pump(nullptr, 0, compress_detail::Flush::end);
  member_open_ = false;
  unflushed_ = false;
}

void CompressWriteStream::write_slow(const char* data, std::size_t n) {
  throw_if_unusable();
  if (n > buffer_size_ / 2) {
    drain();
    pump(data, n, compress_detail::Flush::none);
    add_direct_bytes(n);
    return;
  }
  const std::size_t first = std::min(n, static_cast<std::size_t>(limit_ - cursor_));
  std::memcpy(cursor_, data, first);
  cursor_ += first;
  if (first == n) return;
  drain();
  std::memcpy(cursor_, data + first, n - first);
  cursor_ += n - first;
}

char* CompressWriteStream::make_room(std::size_t n) {
  if (n > buffer_size_) return nullptr;
  drain();
  return cursor_;
}

void CompressWriteStream::flush_sink() {
  drain();
  if (unflushed_) {
    pump(nullptr, 0, compress_detail::Flush::sync);
    unflushed_ = false;
  }
  try {
    sink_->flush();
  } catch (const IoError& e) {
    fail(e);
  }
}

void CompressWriteStream::finish() {
  throw_if_unusable();
  drain();
  if (member_open_) end_member();
  try {
    sink_->flush();
  } catch (const IoError& e) {
    fail(e);
  }
}

void CompressWriteStream::close_sink() {
  // close() has flushed (unless the stream had failed): end the member, then close the sink
  // whatever happened, reporting the first failure.
  std::exception_ptr failure;
  if (!failed() && member_open_) {
    try {
      end_member();
    } catch (...) {
      failure = std::current_exception();
    }
  }
  try {
    sink_->close();
  } catch (const IoError& e) {
    if (!failure) {
      try {
        fail(e);
      } catch (...) {
        failure = std::current_exception();
      }
    }
  }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace bufstream
