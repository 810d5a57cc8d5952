#include <bufstream/encoding_write_stream.hpp>

#include <algorithm>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "transcode.hpp"

namespace bufstream {

namespace {

// The most bytes of a UTF-8 character that a drain keeps back, waiting for the rest.
constexpr std::size_t max_cut = 3;
// The most converted bytes handed to the sink in one piece.
constexpr std::size_t max_piece = std::size_t{1} << 16;

}  // namespace

EncodingWriteStream::EncodingWriteStream(WriteStream& sink, EncodingOptions options)
    : sink_(&sink),
      options_(options),
      capacity_(std::max(options.buffer_size, max_cut + 1)),
      buffer_(new char[capacity_]),
      bom_pending_(options.bom) {
  if (options.bom && byte_order_mark(options.encoding).empty()) {
    throw std::invalid_argument(
        fmt::format("{} has no byte-order mark", encoding_name(options.encoding)));
  }
  set_window(buffer_.get(), buffer_.get() + capacity_);
}

EncodingWriteStream::EncodingWriteStream(std::unique_ptr<WriteStream> sink, EncodingOptions options)
    : EncodingWriteStream(*sink, options) {
  owned_ = std::move(sink);
}

EncodingWriteStream::~EncodingWriteStream() {
  finish_in_destructor("EncodingWriteStream", [this] { drain(true); });
}

void EncodingWriteStream::drain(bool last) {
  const Encoding encoding = options_.encoding;
  const bool replace = options_.on_invalid == OnInvalid::replace;
  const char* p = start_;
  const char* const end = cursor_;
  try {
    if (bom_pending_) {
      bom_pending_ = false;
      sink_->write(byte_order_mark(encoding));
    }
    // Converted in pieces straight into the sink's window (or, when that cannot hold a piece,
    // into room the sink lends and writes at commit).
    while (p != end) {
      const std::size_t room = std::min(
          static_cast<std::size_t>(end - p) * transcode::encode_growth(encoding) + 4, max_piece);
      char* const out = sink_->reserve(room);
      const transcode::Step step =
          transcode::encode(encoding, std::string_view(p, static_cast<std::size_t>(end - p)), out,
                            out + room, last, replace);
      sink_->commit(step.written);
      p += step.read;
      if (step.stop == transcode::Stop::invalid) {
        const std::uint64_t offset = start_position_ + static_cast<std::uint64_t>(p - start_);
        fail(ParseError({offset, 0, 0}, transcode::describe(step, encoding, false),
                        options_.sink_name));
      }
      if (step.stop == transcode::Stop::incomplete) break;
    }
  } catch (const IoError& e) {
    fail(e);
  }
  // A character cut by the buffer's end moves to its front, to wait for its other bytes.
  const auto kept = static_cast<std::size_t>(end - p);
  const std::uint64_t accepted = position();
  if (kept > 0) std::memmove(buffer_.get(), p, kept);
  start_ = buffer_.get();
  cursor_ = start_ + kept;
  limit_ = is_closed() ? cursor_ : buffer_.get() + capacity_;
  start_position_ = accepted - kept;
}

void EncodingWriteStream::write_slow(const char* data, std::size_t n) {
  throw_if_unusable();
  while (n > 0) {
    if (cursor_ == limit_) drain(false);  // keeps at most max_cut bytes: there is room after it
    const std::size_t take = std::min(n, static_cast<std::size_t>(limit_ - cursor_));
    std::memcpy(cursor_, data, take);
    cursor_ += take;
    data += take;
    n -= take;
  }
}

char* EncodingWriteStream::make_room(std::size_t n) {
  if (n > capacity_ - max_cut) return nullptr;
  drain(false);
  return static_cast<std::size_t>(limit_ - cursor_) >= n ? cursor_ : nullptr;
}

void EncodingWriteStream::flush_sink() {
  drain(false);
  try {
    sink_->flush();
  } catch (const IoError& e) {
    fail(e);
  }
}

void EncodingWriteStream::close_sink() {
  // flush_sink() has run, unless the stream had failed: what is left is a cut character, which
  // no more bytes will complete.
  std::exception_ptr failure;
  try {
    if (!failed() && cursor_ != start_) {
      drain(true);
      if (!owned_) sink_->flush();
    }
  } catch (...) {
    failure = std::current_exception();
  }
  if (owned_) {
    try {
      owned_->close();
    } catch (...) {
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace bufstream
