#include <bufstream/read_stream.hpp>

#include <algorithm>
#include <cstring>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>

namespace bufstream {

bool ReadStream::refill_checked(std::size_t min) {
  if (error_) std::rethrow_exception(error_);
  if (closed_)
    throw IoError(std::make_error_code(std::errc::bad_file_descriptor), "read after close");
  return refill(min);
}

std::optional<char> ReadStream::next_slow() {
  if (!refill_checked(1)) return std::nullopt;
  return *cursor_++;
}

int ReadStream::next_byte_slow() {
  if (!refill_checked(1)) return end_of_stream;
  return static_cast<unsigned char>(*cursor_++);
}

std::optional<char> ReadStream::peek_slow() {
  if (!refill_checked(1)) return std::nullopt;
  return *cursor_;
}

std::size_t ReadStream::read_direct(std::span<char> dst) {
  if (dst.empty() || !refill(1)) return 0;
  const std::size_t n = std::min(dst.size(), static_cast<std::size_t>(limit_ - cursor_));
  std::memcpy(dst.data(), cursor_, n);
  cursor_ += n;
  return n;
}

std::size_t ReadStream::read_some(std::span<char> dst) {
  if (dst.empty()) return 0;
  if (cursor_ != limit_) {
    const std::size_t n = std::min(dst.size(), static_cast<std::size_t>(limit_ - cursor_));
    std::memcpy(dst.data(), cursor_, n);
    cursor_ += n;
    return n;
  }
  if (error_) std::rethrow_exception(error_);
  if (closed_)
    throw IoError(std::make_error_code(std::errc::bad_file_descriptor), "read after close");
  return read_direct(dst);
}

std::size_t ReadStream::read_into(std::span<char> dst) {
  std::size_t done = 0;
  while (done < dst.size()) {
    const std::size_t n = read_some(dst.subspan(done));
    if (n == 0) break;
    done += n;
  }
  return done;
}

std::size_t ReadStream::read_into(std::span<std::byte> dst) {
  return read_into(std::span<char>(reinterpret_cast<char*>(dst.data()), dst.size()));
}

namespace {

// Chunks in which `next(n)` and `skip(n)` read past the window: small enough
// that a short input costs little memory, doubled (up to the maximum) as the input proves long.
constexpr std::size_t first_direct_chunk = 4096;
constexpr std::size_t max_direct_chunk = std::size_t{1} << 20;

}  // namespace

std::string ReadStream::next(std::size_t n) {
  // The result grows as bytes arrive (doubling) rather than trusting `n`, so a huge count does
  // not allocate up front. Buffered bytes are copied from the window; past it, bytes are read
  // straight into the result, so that an unbuffered stream makes one read per chunk.
  std::string result;
  std::size_t filled = 0;
  while (filled < n) {
    if (cursor_ != limit_) {
      const std::size_t take = std::min(n - filled, static_cast<std::size_t>(limit_ - cursor_));
      result.resize(filled);
      result.append(cursor_, take);
      cursor_ += take;
      filled += take;
      continue;
    }
    if (filled == result.size()) {
      result.resize(std::min(n, filled + std::clamp(filled, first_direct_chunk, max_direct_chunk)));
    }
    const std::size_t got =
        read_some(std::span<char>(result.data() + filled, result.size() - filled));
    if (got == 0) break;
    filled += got;
  }
  result.resize(filled);
  return result;
}

std::string ReadStream::up_to(char delimiter) {
  std::string result;
  for (;;) {
    if (cursor_ == limit_ && !refill_checked(1)) return result;
    const auto avail = static_cast<std::size_t>(limit_ - cursor_);
    if (const void* hit = std::memchr(cursor_, delimiter, avail)) {
      const char* p = static_cast<const char*>(hit);
      result.append(cursor_, static_cast<std::size_t>(p - cursor_));
      cursor_ = p + 1;
      return result;
    }
    result.append(cursor_, avail);
    cursor_ = limit_;
  }
}

bool ReadStream::skip_to(char delimiter) {
  for (;;) {
    if (cursor_ == limit_ && !refill_checked(1)) return false;
    const auto avail = static_cast<std::size_t>(limit_ - cursor_);
    if (const void* hit = std::memchr(cursor_, delimiter, avail)) {
      cursor_ = static_cast<const char*>(hit) + 1;
      return true;
    }
    cursor_ = limit_;
  }
}

std::string ReadStream::up_to_end() {
  std::string result;
  append_rest(result);
  return result;
}

namespace {

// What append_rest and read_rest share: reads the rest of `in` into `room`, which holds
// `filled` bytes already, and returns how many it holds then. The window is copied; past it
// the source is read straight into the room. `room.grow(filled, n)` gives the room's bytes,
// the first `filled` kept, with at least `n` more after them; `room.spare(filled)` says how
// many there are already.
template <class Room>
std::size_t read_rest_into(ReadStream& in, std::size_t filled, Room& room) {
  constexpr std::size_t chunk = std::size_t{1} << 16;
  // A size hint is believed up to 64 MiB, beyond that up to what has been read: a compressed
  // frame that declares terabytes is read in growing steps like a pipe.
  constexpr std::uint64_t believed = std::uint64_t{1} << 26;
  const std::size_t start = filled;
  for (;;) {
    if (in.cursor() != in.limit()) {
      const auto n = static_cast<std::size_t>(in.limit() - in.cursor());
      std::memcpy(room.grow(filled, n) + filled, in.cursor(), n);
      filled += n;
      in.set_cursor(in.limit());
      continue;
    }
    // What the stream says is left and one byte more, or up to 64 KiB of the room there is
    // already if that is more: once the stream says nothing is left, that room takes the
    // read that sees the end (a 64 KiB probe would grow a room of the text's size to twice
    // it).
    const std::size_t read = filled - start;
    std::size_t want = std::max(chunk, read);
    if (const std::optional<std::uint64_t> left = in.remaining_hint()) {
      want = std::max(std::min(chunk, room.spare(filled)),
                      static_cast<std::size_t>(
                          std::min<std::uint64_t>(*left, std::max<std::uint64_t>(believed, read))) +
                          1);
    }
    const std::size_t got = in.read_some(std::span<char>(room.grow(filled, want) + filled, want));
    if (got == 0) break;
    filled += got;
  }
  return filled;
}

}  // namespace

std::size_t ReadStream::append_rest(std::string& out) {
  // The string is grown (zero-filled) ahead of the bytes and read into.
  struct Room {
    std::string& out;
    char* grow(std::size_t filled, std::size_t n) {
      if (out.size() < filled + n) out.resize(filled + n);
      return out.data();
    }
    std::size_t spare(std::size_t filled) const noexcept { return out.capacity() - filled; }
  } room{out};
  const std::size_t start = out.size();
  const std::size_t filled = read_rest_into(*this, start, room);
  out.resize(filled);
  return filled - start;
}

ReadStream::Block ReadStream::read_rest(std::size_t padding) {
  // A block of `capacity` bytes and the padding, not written before it is read into.
  struct Room {
    std::size_t padding;
    std::unique_ptr<char[]> bytes;
    std::size_t capacity = 0;
    char* grow(std::size_t filled, std::size_t n) {
      if (capacity - filled < n) resize(filled, std::max(filled + n, 2 * capacity));
      return bytes.get();
    }
    std::size_t spare(std::size_t filled) const noexcept { return capacity - filled; }
    void resize(std::size_t filled, std::size_t to) {
      auto block = std::make_unique_for_overwrite<char[]>(to + padding);
      if (filled != 0) std::memcpy(block.get(), bytes.get(), filled);
      bytes = std::move(block);
      capacity = to;
    }
  } room{padding, nullptr};
  const std::size_t size = read_rest_into(*this, 0, room);
  // A source that could not tell its size leaves up to half the block unused.
  if (room.capacity - size > size / 8) room.resize(size, size);
  if (room.bytes == nullptr) room.resize(0, 0);
  return {std::move(room.bytes), size};
}

std::uint64_t ReadStream::skip(std::int64_t count) {
  if (count < 0) {
    throw UsageError(fmt::format("ReadStream::skip: negative count {}", count));
  }
  auto left = static_cast<std::uint64_t>(count);
  std::uint64_t skipped = 0;
  char scratch[first_direct_chunk];
  while (left > 0) {
    std::uint64_t n = 0;
    if (cursor_ != limit_) {
      n = std::min<std::uint64_t>(left, static_cast<std::uint64_t>(limit_ - cursor_));
      cursor_ += n;
    } else {
      // Through a scratch area, so that an unbuffered stream makes one read per chunk rather
      // than one per byte.
      n = read_some(std::span<char>(scratch, std::min<std::uint64_t>(left, sizeof scratch)));
      if (n == 0) break;
    }
    left -= n;
    skipped += n;
  }
  return skipped;
}

std::optional<std::string> ReadStream::next_line() {
  if (cursor_ == limit_ && !refill_checked(1)) return std::nullopt;
  std::string line;
  for (;;) {
    const char* p = cursor_;
    while (p != limit_ && *p != '\n' && *p != '\r') ++p;
    line.append(cursor_, static_cast<std::size_t>(p - cursor_));
    cursor_ = p;
    if (p != limit_) {
      ++cursor_;
      if (*p == '\r') peek_for('\n');
      return line;
    }
    if (!refill_checked(1)) return line;
  }
}

void ReadStream::close() {
  if (closed_) return;
  closed_ = true;
  limit_position_ = position();
  cursor_ = limit_;
  close_source();
}

void ReadStream::fail(const IoError& error) {
  error_ = std::make_exception_ptr(error);
  throw error;
}

void ReadStream::fail(const ParseError& error) {
  error_ = std::make_exception_ptr(error);
  throw error;
}

void ReadStream::fail_truncated(std::size_t needed, std::size_t got) const {
  throw ParseError({position(), 0, 0},
                   fmt::format("expected {} more bytes but the stream ends after {}", needed, got));
}

}  // namespace bufstream
