// WriteStream: the write half of bufstream's one stream protocol.
//
// The base class holds a window of free space, `[cursor, limit)`. `put`, small `write`s and
// in-place formatting store into the window inline; when it is full, one virtual call
// (`write_slow`) takes the bytes on: a buffered stream drains its buffer into the stream it
// wraps, an unbuffered descriptor stream (whose window is always empty) makes one `write(2)`.
//
// Errors are sticky: after a failure the window is closed and every later operation that
// needs the sink throws the same `IoError`. A failed flush keeps the bytes it could not write.
#pragma once

#include <bit>
#include <charconv>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <span>
#include <string>
#include <string_view>

#include <bufstream/errors.hpp>
#include <bufstream/numbers.hpp>

namespace bufstream {

/// The write half of the stream protocol: a window of free space, `[cursor, limit)`, filled
/// inline, and one virtual `write_slow` when it is full. Every sink of bytes is one; a new sink
/// derives from it.
class WriteStream {
 public:
  WriteStream(const WriteStream&) = delete;
  WriteStream& operator=(const WriteStream&) = delete;
  virtual ~WriteStream() = default;

  // ---- Bytes -----------------------------------------------------------------------------

  /// Writes one byte (Smalltalk's nextPut:). Throws `IoError` if the stream has failed or is
  /// closed, or if the sink fails while taking the byte.
  void put(char c) {
    if (cursor_ != limit_) [[likely]] {
      *cursor_++ = c;
      return;
    }
    write_slow(&c, 1);
  }

  /// Writes bytes (Smalltalk's nextPutAll:). A write larger than half a buffered stream's
  /// buffer goes straight to the stream it wraps. On failure `position()` counts the bytes
  /// that were accepted before it.
  void write(std::string_view s) {
    if (s.size() <= static_cast<std::size_t>(limit_ - cursor_) && s.size() <= direct_write_size_)
        [[likely]] {
      if (!s.empty()) std::memcpy(cursor_, s.data(), s.size());
      cursor_ += s.size();
      return;
    }
    write_slow(s.data(), s.size());
  }
  /// Writes `size` bytes from `data`.
  void write(const char* data, std::size_t size) { write(std::string_view(data, size)); }
  /// Writes binary bytes.
  void write(std::span<const std::byte> bytes) {
    write(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  }

  /// Writes a space.
  void space() { put(' '); }
  /// Writes a tab.
  void tab() { put('\t'); }
  /// Writes a line feed.
  void lf() { put('\n'); }
  /// Writes a carriage return and a line feed.
  void crlf() { write(std::string_view("\r\n", 2)); }

  // ---- Numbers as text (Smalltalk's print:) ----------------------------------------------

  /// Writes an integer in decimal. (`char` is a byte, not a number: use `put`.)
  template <std::integral T>
  requires(!std::same_as<T, char> && !std::same_as<T, bool> && sizeof(T) <= 8) void print(T value) {
    char* p = reserve(max_integer_chars);
    commit(static_cast<std::size_t>(format_integer(p, value) - p));
  }
  /// Writes `true` or `false`.
  void print(bool value) { write(value ? std::string_view("true") : std::string_view("false")); }
  /// Writes the shortest text that reads back as the same double (`0.1`, `1e+100`, `nan`).
  void print(double value) {
    char* p = reserve(max_double_chars);
    commit(static_cast<std::size_t>(format_double(p, value) - p));
  }

  // ---- Binary integers (Zinc's uint16:, int32:, ...) --------------------------------------

  /// Writes `value` as `sizeof(T)` bytes in the given byte order.
  template <std::integral T>
  requires(sizeof(T) <= 8) void put_int(T value, std::endian order = std::endian::big) {
    constexpr std::size_t n = sizeof(T);
    char* p = reserve(n);
    const auto u = static_cast<std::uint64_t>(static_cast<std::make_unsigned_t<T>>(value));
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t shift = 8 * (order == std::endian::big ? n - 1 - i : i);
      p[i] = static_cast<char>(static_cast<unsigned char>(u >> shift));
    }
    commit(n);
  }

  // ---- In-place formatting ---------------------------------------------------------------

  /// Returns room for at least `n` bytes. Write into it, then `commit` how many were used
  /// (at most `n`) before any other operation on the stream. When the window cannot hold `n`
  /// bytes (an unbuffered stream, or `n` larger than a buffer) the room is a scratch area and
  /// `commit` hands its bytes to the sink in one write.
  char* reserve(std::size_t n) {
    if (static_cast<std::size_t>(limit_ - cursor_) >= n) [[likely]]
      return cursor_;
    return reserve_slow(n);
  }
  /// Accepts the first `n` bytes of the room `reserve` returned.
  void commit(std::size_t n) {
    if (!reserved_aside_) [[likely]] {
      cursor_ += n;
      return;
    }
    commit_aside(n);
  }

  // ---- Ending ----------------------------------------------------------------------------

  /// Passes every byte written so far on to the sink (for a buffered stream: drains the
  /// buffer and flushes the stream it wraps). Throws `IoError` on failure; the bytes that
  /// could not be written are kept.
  void flush();

  /// Flushes, then releases the sink (closes an owned descriptor; a buffered stream closes
  /// the stream it wraps). The sink is released even when the stream has failed or the flush
  /// fails; the failure is then thrown (the first one, if there are several). Later writes
  /// throw `IoError`; a second `close()` does nothing.
  void close();

  /// True once `close()` has been called.
  bool is_closed() const noexcept { return closed_; }

  /// Bytes accepted since the stream was created (written out or still buffered).
  std::uint64_t position() const noexcept {
    return start_position_ + static_cast<std::uint64_t>(cursor_ - start_);
  }

  /// True once an operation has failed (the failure is then thrown again by every operation).
  bool failed() const noexcept { return static_cast<bool>(error_); }

 protected:
  WriteStream() = default;

  /// Takes `n` bytes that do not fit in the window: writes them out or stores them in a new
  /// window, or throws. Buffered bytes must reach the sink before these.
  virtual void write_slow(const char* data, std::size_t n) = 0;

  /// Makes the window hold at least `n` free bytes and returns `cursor_`, or returns nullptr
  /// when the stream cannot (an unbuffered stream); the base class then lends a scratch area
  /// whose bytes are written with one `write_slow` at `commit`.
  virtual char* make_room(std::size_t n) {
    (void)n;
    return nullptr;
  }

  /// Writes out what the window holds and flushes the sink. Called by `flush()` and `close()`.
  virtual void flush_sink() {}

  /// Releases the sink. Called once by `close()`, after `flush_sink()`.
  virtual void close_sink() {}

  /// Sets the window to `[begin, end)`, with `begin` as the start of what `position()` counts
  /// from. Call it after the bytes before `begin` have been taken on.
  void set_window(char* begin, char* end) noexcept {
    start_position_ = position();
    start_ = cursor_ = begin;
    limit_ = end;
  }

  /// Counts bytes that went straight to the sink, past the window (which must be empty).
  void add_direct_bytes(std::size_t n) noexcept { start_position_ += n; }

  /// Records `error` as this stream's failure, closes the window, and throws it.
  [[noreturn]] void fail(const IoError& error);
  /// The same for bytes the stream cannot take (an encoder's invalid text): sticky too.
  [[noreturn]] void fail(const ParseError& error);

  /// Throws the recorded failure, if any, or an `IoError` if the stream is closed.
  void throw_if_unusable() const;

  /// For destructors of streams that hold bytes: runs `finish` (which writes them out) and
  /// reports a failure that no caller has seen to the lost-data handler instead of throwing.
  /// `what` names the stream in the report.
  template <class Finish>
  void finish_in_destructor(std::string_view what, Finish finish) noexcept {
    if (error_ || closed_) return;  // a failure was already thrown to the caller
    try {
      finish();
    } catch (const std::exception& e) {
      report_lost_data(what, e.what());
    } catch (...) {
      report_lost_data(what, "unknown error");
    }
  }

  /// The window's free space starts here: the next byte written goes to `cursor_`.
  char* cursor_ = nullptr;
  /// The window's end.
  char* limit_ = nullptr;
  char* start_ = nullptr;  ///< The beginning of the current window.
  /// A `write` larger than this takes `write_slow` even when it fits in the window, so that a
  /// buffered stream can pass large transfers on without copying them (Zinc's rule: more than
  /// half the buffer bypasses it).
  std::size_t direct_write_size_ = static_cast<std::size_t>(-1);
  std::uint64_t start_position_ = 0;  ///< The stream offset of `start_`.

 private:
  char* reserve_slow(std::size_t n);
  void commit_aside(std::size_t n);
  void report_lost_data(std::string_view what, std::string_view reason) noexcept;

  std::exception_ptr error_;
  std::string aside_;  // scratch lent by `reserve` when the window cannot make room
  bool reserved_aside_ = false;
  bool closed_ = false;
};

}  // namespace bufstream
