// ReadStream: the read half of bufstream's one stream protocol.
//
// Every source of bytes (a descriptor, a buffer in memory, a mapped file, a buffered wrapper
// around any of them) is a ReadStream. The base class holds a window of bytes that have been
// read from the source but not yet consumed, `[cursor, limit)`. The protocol's hot operations
// (`next`, `peek`, scanning the window) are inline and touch only the window; when it runs dry,
// one virtual call (`refill`) brings more bytes.
//
// An unbuffered descriptor stream keeps its window empty, so every operation costs one
// `read(2)`. A BufferedReadStream gives any stream a 64 KiB window. Memory streams and mapped
// files expose their whole content as the window and never refill.
//
// Parsers may scan the window directly: `fill(n)` makes at least `n` contiguous bytes
// available (growing the window when `n` exceeds it) and returns them, `advance(n)` consumes.
#pragma once

#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <bufstream/detail/window_buffer.hpp>
#include <bufstream/errors.hpp>

/// Buffered byte streams: the one stream protocol (ReadStream, WriteStream), the streams over
/// descriptors, memory, strings and mapped files, the buffered and encoding decorators, and
/// what the formats share (errors, numbers, UTF-8, options). The formats live in the nested
/// namespaces json, csv, ston and cedict; the compression decorators in compress.
namespace bufstream {

/// The read half of the stream protocol: a window of bytes read from a source and not yet
/// consumed, `[cursor(), limit())`, scanned inline, and one virtual `refill` when it runs dry.
/// Every source of bytes is one; a new source derives from it and implements `refill`.
class ReadStream {
 public:
  ReadStream(const ReadStream&) = delete;
  ReadStream& operator=(const ReadStream&) = delete;
  virtual ~ReadStream() = default;

  // ---- One byte at a time ----------------------------------------------------------------

  /// Consumes and returns the next byte; `std::nullopt` at the end of the stream.
  std::optional<char> next() {
    if (cursor_ != limit_) [[likely]]
      return *cursor_++;
    return next_slow();
  }

  /// The value `next_byte()` returns at the end of the stream.
  static constexpr int end_of_stream = -1;
  /// Consumes and returns the next byte as 0..255, or `end_of_stream` (-1) at the end: the
  /// same as `next()` in the shape `getc` has. Loops that read a byte at a time compile tighter
  /// with it (GCC merges the two paths of an inlined `std::optional<char>` poorly).
  int next_byte() {
    if (cursor_ != limit_) [[likely]]
      return static_cast<unsigned char>(*cursor_++);
    return next_byte_slow();
  }

  /// Returns the next byte without consuming it; `std::nullopt` at the end of the stream.
  std::optional<char> peek() {
    if (cursor_ != limit_) [[likely]]
      return *cursor_;
    return peek_slow();
  }

  /// True when no byte is left. May read from the source to find out (the byte read is kept).
  bool at_end() { return cursor_ == limit_ && !refill_checked(1); }

  /// Consumes the next byte if it equals `c` and says whether it did.
  bool peek_for(char c) {
    if (cursor_ == limit_ && !refill_checked(1)) return false;
    if (*cursor_ != c) return false;
    ++cursor_;
    return true;
  }

  // ---- Many bytes ------------------------------------------------------------------------

  /// Consumes and returns the next `n` bytes; fewer only if the stream ends first. The result
  /// grows as bytes arrive (a huge `n` allocates nothing up front); an unbuffered stream reads
  /// straight into it, with one read from the source per chunk.
  std::string next(std::size_t n);

  /// Reads into `dst` until it is full or the stream ends; returns the number of bytes read.
  /// A request larger than half a buffered stream's buffer bypasses the buffer.
  std::size_t read_into(std::span<char> dst);
  /// The same for binary buffers.
  std::size_t read_into(std::span<std::byte> dst);

  /// Reads at least one byte (unless the stream has ended) and at most `dst.size()`, with at
  /// most one read from the source; returns the count, 0 only at the end (or for an empty dst).
  /// Buffered bytes are handed out first, without reading.
  std::size_t read_some(std::span<char> dst);

  /// Consumes bytes up to and including the first `delimiter`, and returns them without it.
  /// At the end of the stream returns what was left (possibly empty). Scans the window with
  /// `memchr`; a field that straddles windows is collected across refills.
  std::string up_to(char delimiter);

  /// Consumes and returns everything that is left (an empty string at the end).
  std::string up_to_end();

  /// Consumes everything that is left, appends it to `out` and returns how many bytes that
  /// was. The window is copied; past it the source is read straight into `out`: as many bytes
  /// as the stream says are left (remaining_hint, believed up to 64 MiB or as much as has
  /// been read, whichever is more) in one read, then the end seen in the room `out` has
  /// left; or, when it cannot tell, 64 KiB and then as much again as has been read.
  std::size_t append_rest(std::string& out);

  /// Bytes read whole by `read_rest`: `size` of them, then at least the room asked for.
  struct Block {
    /// The bytes; the block has room for the padding after them.
    std::unique_ptr<char[]> bytes;
    std::size_t size = 0;  ///< How many bytes were read.
    /// The bytes read, as a view.
    std::string_view view() const noexcept { return {bytes.get(), size}; }
  };
  /// Consumes everything that is left into a block of its own, read as `append_rest` reads,
  /// with room for `padding` more bytes after it (not written: for a parser that reads a
  /// little past the end). The source is read straight into the block, which no byte is
  /// written to first; a stream that tells its size gets a block of that size and the
  /// padding, one that cannot tell one at most an eighth larger.
  Block read_rest(std::size_t padding);

  /// Consumes bytes up to and including the first `delimiter`; says whether one was found
  /// (if not, the stream is at its end).
  bool skip_to(char delimiter);

  /// Consumes `count` bytes (fewer at the end) and returns how many were skipped. A negative
  /// count throws `UsageError`: streams do not go back.
  std::uint64_t skip(std::int64_t count);

  /// Consumes one line and returns it without its line end (LF, CRLF or CR). An empty line is
  /// an empty string; at the end of the stream there is no line (`std::nullopt`). A last line
  /// without a line end is returned as a line. After a CR the stream reads one more byte to see
  /// whether an LF follows (on an interactive descriptor this waits for that byte).
  std::optional<std::string> next_line();

  /// Consumes the longest run of bytes for which `pred(char)` holds and returns it. The view
  /// points into the window when the run lies in one window, otherwise into `spill` (cleared
  /// first); it stays valid until the next operation on the stream or on `spill`. This is how
  /// a token that straddles two windows is read without going back.
  template <class Pred>
  std::string_view next_while(Pred pred, std::string& spill);

  // ---- Binary integers (Zinc's uint16, int32, ...) ---------------------------------------

  /// Reads an integer of `sizeof(T)` bytes in the given byte order. Throws `ParseError` (at the
  /// integer's offset, consuming nothing) if the stream ends first.
  template <std::integral T>
  T next_int(std::endian order = std::endian::big);

  // ---- The window, for parsers -----------------------------------------------------------

  /// The bytes read from the source and not yet consumed. May be empty; never reads.
  std::string_view buffered() const noexcept {
    return {cursor_, static_cast<std::size_t>(limit_ - cursor_)};
  }

  /// Makes at least `min` contiguous bytes available and returns the window. The window is
  /// shorter than `min` only when the stream ends first (it then holds everything left). When
  /// `min` exceeds a buffer's size the buffer grows: a long token is never an error.
  std::string_view fill(std::size_t min = 1) {
    if (static_cast<std::size_t>(limit_ - cursor_) < min) refill_checked(min);
    return buffered();
  }

  /// Consumes `n` bytes of the window. Precondition: `n <= buffered().size()`.
  void advance(std::size_t n) noexcept { cursor_ += n; }

  /// The window's start (the next byte to consume), for loops that scan the window in place.
  const char* cursor() const noexcept { return cursor_; }
  /// The window's end: one past the last byte read from the source.
  const char* limit() const noexcept { return limit_; }
  /// Consumes the window up to `p`, which must lie in `[cursor(), limit()]`.
  void set_cursor(const char* p) noexcept { cursor_ = p; }

  /// Bytes consumed since the stream was created.
  std::uint64_t position() const noexcept {
    return limit_position_ - static_cast<std::uint64_t>(limit_ - cursor_);
  }

  /// How many bytes are left to read, when the stream can tell without reading: the window
  /// plus what the source reports (a memory stream, a buffered stream over one that can tell,
  /// a descriptor on a regular file: its size less the descriptor's offset). A hint for sizing
  /// tables up front, never a promise: a file may grow or shrink while it is read. `nullopt`
  /// for pipes, sockets, terminals and closed or failed streams.
  std::optional<std::uint64_t> remaining_hint() const {
    if (closed_ || error_) return std::nullopt;
    const std::optional<std::uint64_t> source = source_remaining_hint();
    if (!source) return std::nullopt;
    return static_cast<std::uint64_t>(limit_ - cursor_) + *source;
  }

  /// Releases the source (closes an owned descriptor) and drops the window; `position()` keeps
  /// its value. Later reads throw `IoError`; a second `close()` does nothing. Throws `IoError`
  /// if releasing the source fails (the stream is closed anyway).
  void close();

  /// True once `close()` has been called.
  bool is_closed() const noexcept { return closed_; }

  /// True once reading from the source has failed, or its bytes could not be decoded (every
  /// later read throws that failure again).
  bool failed() const noexcept { return static_cast<bool>(error_); }

 protected:
  ReadStream() = default;

  /// Makes `[cursor_, limit_)` hold at least `min` bytes, keeping the unconsumed ones, and
  /// returns true; or, if the stream ends first, leaves everything that is left in the window
  /// and returns false. Throws `IoError` on failure. Called only when the window holds fewer
  /// than `min` bytes. `limit_position_` must follow `limit_` (see `set_window`).
  virtual bool refill(std::size_t min) = 0;

  /// Reads at most `dst.size()` bytes from the source straight into `dst`, bypassing the
  /// window, with at most one read from the source; 0 means the end. Called only when the
  /// window is empty. Bytes that bypass the window are counted with `add_direct_bytes`. The
  /// default goes through `refill`.
  virtual std::size_t read_direct(std::span<char> dst);

  /// Releases the source. Called once, by `close()`.
  virtual void close_source() {}

  /// Bytes the source still holds beyond the window, if it can tell without reading (see
  /// `remaining_hint`). The default cannot tell.
  virtual std::optional<std::uint64_t> source_remaining_hint() const { return std::nullopt; }

  /// Sets the window. `new_bytes` is how many bytes of it were just read from the source (the
  /// others were already in the previous window), to keep `position()` exact.
  void set_window(const char* cursor, const char* limit, std::size_t new_bytes) noexcept {
    cursor_ = cursor;
    limit_ = limit;
    limit_position_ += new_bytes;
  }

  /// Counts bytes that went past the window straight to the caller.
  void add_direct_bytes(std::size_t n) noexcept { limit_position_ += n; }

  /// `refill` for a decorator whose window lies in `buffer`: keeps the unconsumed bytes, then
  /// appends what `produce(room)` puts at the start of `room` (the buffer's free part; 0 when
  /// the source has ended) until the window holds `min`. The window follows every byte as it
  /// arrives: if `produce` throws, it holds exactly the bytes produced before.
  template <class Produce>
  bool refill_from(detail::WindowBuffer& buffer, std::size_t min, Produce&& produce) {
    std::size_t filled = buffer.keep_unread(cursor_, limit_, min);
    char* const base = buffer.data();
    const std::size_t capacity = buffer.capacity();
    set_window(base, base + filled, 0);
    while (filled < min) {
      // The whole free part: one call per buffer, not per byte asked.
      const std::size_t got = produce(std::span<char>(base + filled, capacity - filled));
      if (got == 0) return false;
      filled += got;
      set_window(base, base + filled, got);
    }
    return true;
  }

  /// `read_direct` for the same decorators: a read of more than half of `buffer_size` goes
  /// straight into the caller's memory, with one `produce(dst)`; a smaller one through the
  /// window.
  template <class Produce>
  std::size_t read_direct_from(std::span<char> dst, std::size_t buffer_size, Produce&& produce) {
    if (dst.size() <= buffer_size / 2) return ReadStream::read_direct(dst);
    const std::size_t got = produce(dst);
    add_direct_bytes(got);
    return got;
  }

  /// Records `error` as this stream's failure and throws it. Every later operation that needs
  /// the source throws it again (errors are sticky).
  [[noreturn]] void fail(const IoError& error);
  /// The same for input the stream cannot make sense of (a decoder's invalid text): sticky too.
  [[noreturn]] void fail(const ParseError& error);

  /// A ParseError at the current position, for binary reads that run out of input.
  [[noreturn]] void fail_truncated(std::size_t needed, std::size_t got) const;

  /// The window's start: the next byte to consume.
  const char* cursor_ = nullptr;
  /// The window's end.
  const char* limit_ = nullptr;
  std::uint64_t limit_position_ = 0;  ///< The stream offset of `limit_`.

 private:
  bool refill_checked(std::size_t min);
  std::optional<char> next_slow();
  int next_byte_slow();
  std::optional<char> peek_slow();

  std::exception_ptr error_;
  bool closed_ = false;
};

template <class Pred>
std::string_view ReadStream::next_while(Pred pred, std::string& spill) {
  spill.clear();
  if (cursor_ == limit_ && !refill_checked(1)) return {};
  const char* p = cursor_;
  while (p != limit_ && pred(*p)) ++p;
  if (p != limit_) {  // the whole run lies in this window
    std::string_view run(cursor_, static_cast<std::size_t>(p - cursor_));
    cursor_ = p;
    return run;
  }
  for (;;) {
    spill.append(cursor_, static_cast<std::size_t>(p - cursor_));
    cursor_ = p;
    if (!refill_checked(1)) break;
    p = cursor_;
    while (p != limit_ && pred(*p)) ++p;
    if (p != limit_) {
      spill.append(cursor_, static_cast<std::size_t>(p - cursor_));
      cursor_ = p;
      break;
    }
  }
  return spill;
}

template <std::integral T>
T ReadStream::next_int(std::endian order) {
  constexpr std::size_t n = sizeof(T);
  std::string_view w = fill(n);
  if (w.size() < n) fail_truncated(n, w.size());
  using U = std::make_unsigned_t<T>;
  U value = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t k = order == std::endian::big ? i : n - 1 - i;
    value =
        static_cast<U>((static_cast<std::uint64_t>(value) << 8) | static_cast<unsigned char>(w[k]));
  }
  cursor_ += n;
  return static_cast<T>(value);
}

}  // namespace bufstream
