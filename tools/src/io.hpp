// The command's inputs and outputs: a path or `-`, opened as a buffered stream, with progress
// on a terminal and errors that name the path.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include <bufstream/buffered_read_stream.hpp>
#include <bufstream/buffered_write_stream.hpp>
#include <bufstream/fd_read_stream.hpp>
#include <bufstream/fd_write_stream.hpp>
#include <bufstream/write_stream.hpp>

namespace bufstream::cli {

/// A file (or standard input, for "-" or an empty path) read through a 64 KiB buffer. When
/// standard error is a terminal and the file is large, reading shows progress there
/// ("12.0 MB of 1.0 GB"), erased when the input is closed.
class Input {
 public:
  explicit Input(const std::string& path);
  ~Input();

  ReadStream& stream() noexcept { return *buffered_; }
  /// The path as error lines show it: the path given, or "<stdin>".
  const std::string& name() const noexcept { return name_; }

 private:
  std::string name_;
  std::unique_ptr<ReadStream> source_;
  std::unique_ptr<BufferedReadStream> buffered_;
};

/// What the command writes: standard output (for "-" or an empty path), or a named file,
/// through a 64 KiB buffer.
///
/// A named regular file (or a new one) is never written in place: the bytes go to a temporary
/// file beside it (AtomicFileWriteStream) that `finish()` renames over it, so a run that fails
/// or is interrupted (SIGINT, SIGTERM, SIGHUP, SIGQUIT) leaves the old file as it was and no
/// temporary file behind, and the input may be the output. Other files (a device such as
/// /dev/null, a named pipe) are written directly.
class Output {
 public:
  /// `flush_each`: `end_record()` hands everything written so far on (for pipelines).
  explicit Output(const std::string& path, bool flush_each = false);
  /// Without `finish()`, drops the new content: a named file keeps its old one.
  ~Output();

  WriteStream& stream() noexcept { return *buffered_; }
  const std::string& name() const noexcept { return name_; }
  /// Marks the end of a record or top-level value; flushes when asked to flush each.
  void end_record() {
    if (flush_each_) buffered_->flush();
  }
  /// Flushes and closes, throwing IoError on failure; a named file is then in place. Call it
  /// before reporting success, or a write error could go unnoticed.
  void finish();

 private:
  std::string name_;
  bool flush_each_;
  std::unique_ptr<WriteStream> sink_;
  std::unique_ptr<BufferedWriteStream> buffered_;
};

}  // namespace bufstream::cli
