// FdReadStream: an unbuffered read stream over a POSIX file descriptor.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>

#include <bufstream/ownership.hpp>
#include <bufstream/read_stream.hpp>

namespace bufstream {

/// Reads a file descriptor with one `read(2)` per protocol operation and never more bytes
/// than the operation needs: `next()` reads one byte, `next(n)`/`read_into`/`read_some` read
/// straight into the result, `fill(n)` reads until it has `n` (more than one call only when the
/// kernel returns fewer). Byte-scanning operations (`up_to`, `next_line`) read one byte per
/// call. This is the slow, honest baseline; wrap it in a `BufferedReadStream` for speed.
/// `EINTR` is retried; any other failure is an `IoError` that every later read throws again.
/// The descriptor must be in blocking mode (`EAGAIN` is a failure like any other).
class FdReadStream final : public ReadStream {
 public:
  /// Reads `fd`. With `Ownership::owned` the stream closes it, except 0, 1 and 2, which are
  /// only closed by an explicit `close()`. `name` is used in error messages.
  explicit FdReadStream(int fd, Ownership ownership = Ownership::borrowed, std::string name = {});

  /// Opens `path` for reading (`O_RDONLY | O_CLOEXEC`) and owns the descriptor. Throws
  /// `IoError` naming the path.
  explicit FdReadStream(const std::filesystem::path& path);

  /// Closes an owned descriptor above 2 (a failure to close is ignored: nothing can be lost).
  ~FdReadStream() override;

  /// The descriptor, or -1 once an owned one has been closed.
  int fd() const noexcept { return fd_; }
  /// The name used in error messages: the path, the name given, or "descriptor N".
  const std::string& name() const noexcept { return name_; }

 protected:
  bool refill(std::size_t min) override;
  std::size_t read_direct(std::span<char> dst) override;
  void close_source() override;
  std::optional<std::uint64_t> source_remaining_hint() const override;

 private:
  std::size_t read_once(char* dst, std::size_t n);

  int fd_;
  Ownership ownership_;
  std::string name_;
  std::string pending_;  // holds the window: only bytes that were asked for
};

}  // namespace bufstream
