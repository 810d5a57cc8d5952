// AtomicFileWriteStream: a new version of a file that appears whole or not at all.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <string>

#include <bufstream/fd_write_stream.hpp>
#include <bufstream/write_stream.hpp>

namespace bufstream {

/// Writes a new version of the file at `path` the way `sed -i`, editors and Go's renameio do:
/// the bytes go to a new temporary file in the same directory, and `close()` makes them
/// durable (`fsync`) and renames the temporary file over `path` in one step. Until then `path`
/// keeps its old content, or stays absent if it did not exist: a failed or interrupted program
/// never leaves a truncated or partial file behind, and it may read the old version of `path`
/// while it writes the new one (input and output may be the same file).
///
/// - A symbolic link at `path` is followed: the file it points to is replaced, the link stays.
/// - The new version gets the old one's permission bits, and its owner and group where the
///   process may set them (if it may not, set-user-ID and set-group-ID bits are dropped). A new
///   file gets `permissions` less the umask, as `open(2)` would give it.
/// - Another hard link to the old file keeps the old content: the new version is a new file.
/// - `path` must be a regular file or not exist: a device, a pipe or a directory cannot be
///   replaced (IoError); write those with FdWriteStream.
///
/// Like FdWriteStream it is unbuffered (one `write(2)` per operation, a window that is always
/// empty): wrap it in a BufferedWriteStream, whose `close()` closes, and so commits, this one.
///
/// `close()` commits: fsync, rename, then fsync of the directory so that the rename is durable
/// too. If any step fails the temporary file is removed, `path` is as it was (unless only the
/// directory's fsync failed, after the rename), and the failure is thrown. A stream that failed
/// earlier (a write error) commits nothing at `close()`. Destroying the stream without
/// `close()` removes the temporary file and leaves `path` as it was: silently when an
/// exception is unwinding (the program is abandoning the output) or after `discard()`;
/// otherwise the program forgot to commit, and the lost-data handler is told (errors.hpp).
class AtomicFileWriteStream final : public WriteStream {
 public:
  /// Creates the temporary file beside `path` (after following a symbolic link). Throws
  /// `IoError` naming `path` if the directory cannot take a new file or `path` is not a
  /// regular file.
  explicit AtomicFileWriteStream(const std::filesystem::path& path, ::mode_t permissions = 0666);
  ~AtomicFileWriteStream() override;

  /// Abandons the new version: removes the temporary file; `path` stays as it was. Later
  /// writes throw `IoError`, as after `close()`. Does nothing after `close()`.
  void discard() noexcept;

  /// The file that `close()` replaces: `path` with a symbolic link followed.
  const std::filesystem::path& target() const noexcept { return target_; }
  /// The temporary file, while it exists (empty after `close()` or `discard()`), for a
  /// program that wants to remove it from a signal handler: copy it out first, since a
  /// handler may not touch a std::string that is being changed.
  const std::string& temporary_path() const noexcept { return temporary_; }

 protected:
  void write_slow(const char* data, std::size_t n) override;
  void close_sink() override;

 private:
  void remove_temporary() noexcept;
  [[noreturn]] void fail_commit(int errno_value, const char* operation);

  std::filesystem::path target_;
  std::string temporary_;
  int fd_ = -1;
  FdWriteStream file_;  // writes fd_ (borrowed: this class closes it, to see close's errors)
  int exceptions_at_start_;
};

}  // namespace bufstream
