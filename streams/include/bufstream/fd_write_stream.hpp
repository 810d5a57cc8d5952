// FdWriteStream: an unbuffered write stream over a POSIX file descriptor.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <string>

#include <bufstream/ownership.hpp>
#include <bufstream/write_stream.hpp>

namespace bufstream {

/// How `FdWriteStream` opens a path.
struct OpenOptions {
  /// What is done to a file that exists: cut it to nothing, write at its end, or fail (a new file
  /// only).
  enum class Mode { truncate, append, create_new };
  Mode mode = Mode::truncate;   ///< What is done to a file that exists (truncate by default).
  ::mode_t permissions = 0644;  ///< for a new file, before the umask
};

/// Writes a file descriptor with exactly one `write(2)` per protocol operation (continued
/// when the kernel takes fewer bytes; `EINTR` retried; a `write` that returns 0 is an error).
/// Its window is always empty, so nothing is ever buffered here: wrap it in a
/// `BufferedWriteStream` for speed.
///
/// SIGPIPE: bufstream never changes signal dispositions or masks. Writing to a socket whose
/// peer has gone uses `send(MSG_NOSIGNAL)` and always throws `IoError` (EPIPE). Writing to a
/// pipe whose reader has gone raises SIGPIPE, which by default ends the process as it does for
/// any Unix tool; a program that ignores SIGPIPE (or blocks it in the writing thread) gets
/// `IoError` (EPIPE) instead.
///
/// The descriptor must be in blocking mode (`EAGAIN` is a failure like any other).
class FdWriteStream final : public WriteStream {
 public:
  /// Writes `fd`. With `Ownership::owned` the stream closes it, except 0, 1 and 2, which are
  /// only closed by an explicit `close()`. `name` is used in error messages.
  explicit FdWriteStream(int fd, Ownership ownership = Ownership::borrowed, std::string name = {});

  /// Opens `path` for writing (`O_WRONLY | O_CREAT | O_CLOEXEC`, plus the mode's flag) and owns
  /// the descriptor. Throws `IoError` naming the path.
  explicit FdWriteStream(const std::filesystem::path& path, OpenOptions options = {});

  /// Closes an owned descriptor above 2. Nothing is ever buffered here, but a file system may
  /// report a delayed write error at `close(2)`: unless the stream has already thrown a
  /// failure, that goes to the lost-data handler (see errors.hpp). Call `close()` to get it as
  /// an exception instead.
  ~FdWriteStream() override;

  /// The descriptor, or -1 once an owned one has been closed.
  int fd() const noexcept { return fd_; }
  /// The name used in error messages: the path, the name given, or "descriptor N".
  const std::string& name() const noexcept { return name_; }

 protected:
  void write_slow(const char* data, std::size_t n) override;
  void close_sink() override;

 private:
  int fd_;
  Ownership ownership_;
  std::string name_;
  int is_socket_ = -1;  // unknown until the first write
};

}  // namespace bufstream
