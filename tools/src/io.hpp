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

/// A file (or standard output, for "-" or an empty path) written through a 64 KiB buffer.
/// `finish()` flushes and closes, throwing IoError on failure; call it before reporting
/// success, or a write error could go unnoticed.
class Output {
 public:
  explicit Output(const std::string& path);
  ~Output();

  WriteStream& stream() noexcept { return *buffered_; }
  const std::string& name() const noexcept { return name_; }
  void finish();

 private:
  std::string name_;
  std::unique_ptr<FdWriteStream> sink_;
  std::unique_ptr<BufferedWriteStream> buffered_;
};

}  // namespace bufstream::cli
