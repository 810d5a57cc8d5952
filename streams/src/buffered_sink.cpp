#include <bufstream/buffered_sink.hpp>

#include <algorithm>
#include <cstring>
#include <exception>
#include <utility>

namespace bufstream {

BufferedSink::BufferedSink(WriteStream& sink, std::size_t buffer_size, SinkClose close)
    : sink_(&sink),
      capacity_(std::max<std::size_t>(buffer_size, 1)),
      buffer_(new char[capacity_]),
      close_(close) {
  direct_write_size_ = capacity_ / 2;
  set_window(buffer_.get(), buffer_.get() + capacity_);
}

BufferedSink::BufferedSink(std::unique_ptr<WriteStream> sink, std::size_t buffer_size,
                           SinkClose close)
    : BufferedSink(*sink, buffer_size, close) {
  owned_ = std::move(sink);
}

template <class F>
void BufferedSink::guarded(F f) {
  try {
    f();
  } catch (const IoError& e) {
    fail(e);
  } catch (const ParseError& e) {
    fail(e);
  }
}

void BufferedSink::keep_last(std::size_t kept) noexcept {
  const std::uint64_t accepted = position();
  const char* from = cursor_ - kept;
  if (kept > 0 && from != buffer_.get()) std::memmove(buffer_.get(), from, kept);
  start_ = buffer_.get();
  cursor_ = start_ + kept;
  limit_ = is_closed() || failed() ? cursor_ : start_ + capacity_;
  start_position_ = accepted - kept;
}

void BufferedSink::drain(bool last) {
  const auto pending = static_cast<std::size_t>(cursor_ - start_);
  std::size_t taken = 0;
  if (pending > 0) {
    try {
      consume(std::string_view(start_, pending), taken, last);
    } catch (const IoError& e) {
      keep_last(pending - std::min(taken, pending));
      fail(e);
    } catch (const ParseError& e) {
      keep_last(pending - std::min(taken, pending));
      fail(e);
    }
  }
  keep_last(pending - std::min(taken, pending));
}

void BufferedSink::write_slow(const char* data, std::size_t n) {
  throw_if_unusable();
  if (n > direct_write_size_) {
    // Consumed from the caller's memory, after what is buffered (unless the drain kept a cut
    // character, which must go first: then the bytes go through the buffer).
    drain(false);
    if (cursor_ == start_) {
      std::size_t taken = 0;
      try {
        consume(std::string_view(data, n), taken, false);
      } catch (const IoError& e) {
        add_direct_bytes(std::min(taken, n));
        fail(e);
      } catch (const ParseError& e) {
        add_direct_bytes(std::min(taken, n));
        fail(e);
      }
      taken = std::min(taken, n);
      add_direct_bytes(taken);
      data += taken;  // what is left (a cut character) waits in the buffer
      n -= taken;
    }
  }
  while (n > 0) {
    if (cursor_ == limit_) drain(false);  // keeps less than the buffer: there is room after it
    const std::size_t take = std::min(n, static_cast<std::size_t>(limit_ - cursor_));
    std::memcpy(cursor_, data, take);
    cursor_ += take;
    data += take;
    n -= take;
  }
}

char* BufferedSink::make_room(std::size_t n) {
  if (n > capacity_) return nullptr;
  drain(false);
  return static_cast<std::size_t>(limit_ - cursor_) >= n ? cursor_ : nullptr;
}

void BufferedSink::flush_sink_stream() {
  guarded([this] { sink_->flush(); });
}

void BufferedSink::flush_sink() {
  drain(false);
  guarded([this] { flush_consumed(); });
  flush_sink_stream();
}

void BufferedSink::finish_output() {
  throw_if_unusable();
  drain(true);
  guarded([this] { end_consumed(); });
  flush_sink_stream();
}

void BufferedSink::finish_on_destruction(std::string_view what) noexcept {
  finish_in_destructor(what, [this] {
    drain(true);
    guarded([this] { end_consumed(); });
  });
}

void BufferedSink::close_sink() {
  // close() has flushed, unless the stream had failed: drain what a flush keeps (a cut
  // character) and end the output, then release the sink whatever happened, reporting the
  // first failure.
  std::exception_ptr failure;
  if (!failed()) {
    try {
      drain(true);
      guarded([this] { end_consumed(); });
      if (close_ == SinkClose::if_owned && !owned_) flush_sink_stream();
    } catch (...) {
      failure = std::current_exception();
    }
  }
  if (close_ == SinkClose::always || owned_) {
    try {
      if (failure || failed()) {
        sink_->close();  // the failure to report is already recorded
      } else {
        guarded([this] { sink_->close(); });
      }
    } catch (...) {
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace bufstream
