#include <bufstream/write_stream.hpp>

#include <fmt/format.h>

namespace bufstream {

char* WriteStream::reserve_slow(std::size_t n) {
  throw_if_unusable();
  if (char* room = make_room(n)) return room;
  aside_.resize(n);
  reserved_aside_ = true;
  return aside_.data();
}

void WriteStream::commit_aside(std::size_t n) {
  reserved_aside_ = false;
  if (n > 0) write_slow(aside_.data(), n);
}

void WriteStream::flush() {
  throw_if_unusable();
  flush_sink();
}

void WriteStream::close() {
  if (closed_) return;
  // The sink is released whatever happens: a failed stream must not keep a descriptor open.
  // Closed is set before anything can throw, so that neither a second close() nor the
  // destructor tries again: the caller has been told.
  std::exception_ptr failure = error_;
  if (!failure) {
    try {
      flush_sink();
    } catch (...) {
      failure = std::current_exception();
    }
  }
  closed_ = true;
  limit_ = cursor_;
  try {
    close_sink();
  } catch (...) {
    if (!failure) failure = std::current_exception();
  }
  if (failure) std::rethrow_exception(failure);
}

void WriteStream::throw_if_unusable() const {
  if (error_) std::rethrow_exception(error_);
  if (closed_)
    throw IoError(std::make_error_code(std::errc::bad_file_descriptor), "write after close");
}

void WriteStream::fail(const IoError& error) {
  error_ = std::make_exception_ptr(error);
  limit_ = cursor_;
  throw error;
}

void WriteStream::fail(const ParseError& error) {
  error_ = std::make_exception_ptr(error);
  limit_ = cursor_;
  throw error;
}

void WriteStream::report_lost_data(std::string_view what, std::string_view reason) noexcept {
  try {
    const std::string text = fmt::format("{} destroyed with {} unwritten bytes: {}", what,
                                         static_cast<std::size_t>(cursor_ - start_), reason);
    get_lost_data_handler()(text);
  } catch (...) {
    get_lost_data_handler()("write stream destroyed with unwritten bytes");
  }
}

}  // namespace bufstream
