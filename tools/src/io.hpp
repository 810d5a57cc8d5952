// The command's inputs and outputs: a path or `-`, opened as a buffered stream, with progress
// on a terminal and errors that name the path.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <bufstream/buffered_read_stream.hpp>
#include <bufstream/buffered_write_stream.hpp>
#include <bufstream/decoding_read_stream.hpp>
#include <bufstream/encoding.hpp>
#include <bufstream/encoding_write_stream.hpp>
#include <bufstream/fd_read_stream.hpp>
#include <bufstream/fd_write_stream.hpp>
#include <bufstream/write_stream.hpp>

#include "compression.hpp"

namespace bufstream::cli {

/// "bufstream: 12.0 MB of 1.0 GB (1%)" on standard error, rewritten as reading advances (at
/// most every quarter of a second) and erased when destroyed.
class ProgressLine {
 public:
  explicit ProgressLine(std::uint64_t total);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;
  /// `n` more bytes were read.
  void advance(std::uint64_t n);

 private:
  std::uint64_t total_;
  std::uint64_t done_ = 0;
  std::chrono::steady_clock::time_point last_;
  bool shown_ = false;
};

/// A file (or standard input, for "-" or an empty path) read through a 64 KiB buffer. When
/// standard error is a terminal and the file is large, reading shows progress there
/// ("12.0 MB of 1.0 GB"), erased when the input is closed.
///
/// Content that starts with the gzip or Zstandard magic number is decompressed, whatever the
/// name: the constructor reads the first byte (up to four when it can start one). Corrupt or
/// truncated compressed input throws ParseError with the compressed byte offset, naming the
/// input.
class Input {
 public:
  explicit Input(const std::string& path);
  ~Input();

  ReadStream& stream() noexcept { return decoded_ ? static_cast<ReadStream&>(*decoded_) : text(); }
  /// How the input's bytes are compressed.
  Compression compression() const noexcept { return compression_; }
  /// The path as error lines show it: the path given, or "<stdin>".
  const std::string& name() const noexcept { return name_; }

  /// Reads the text as `encoding` says (`--encoding`; a mark of that encoding is skipped), or,
  /// for nullopt, as a UTF-16 or UTF-32 byte-order mark says. Other text goes to the formats
  /// as it is: they read UTF-8 (and skip its mark) themselves, with no copy in between. Call it
  /// before the first read; it reads one byte, and up to four when that one can start a mark.
  void read_as(std::optional<Encoding> encoding);

  /// The path, when the input can be read in parallel by path: a named regular file, neither
  /// compressed nor decoded (call after `read_as`).
  std::optional<std::string> parallel_path() const;
  /// A progress line for a parallel read of the file, when reading shows progress (a large
  /// file, standard error a terminal); nullptr otherwise.
  std::unique_ptr<ProgressLine> parallel_progress() const;

 private:
  // The bytes before any character decoding: decompressed if they were compressed.
  ReadStream& text() noexcept { return decompressed_ ? *decompressed_ : *buffered_; }

  std::string name_;
  std::optional<std::uint64_t> regular_size_;  // a named regular file's size
  std::unique_ptr<ReadStream> source_;
  std::unique_ptr<BufferedReadStream> buffered_;
  Compression compression_ = Compression::none;
  std::unique_ptr<ReadStream> decompressed_;     // over the buffer, for compressed content
  std::unique_ptr<DecodingReadStream> decoded_;  // between the text and the formats, if needed
};

/// What the command writes: standard output (for "-" or an empty path), or a named file,
/// through a 64 KiB buffer.
///
/// A named regular file (or a new one) is never written in place: the bytes go to a temporary
/// file beside it (AtomicFileWriteStream) that `finish()` renames over it, so a run that fails
/// or is interrupted (SIGINT, SIGTERM, SIGHUP, SIGQUIT) leaves the old file as it was and no
/// temporary file behind, and the input may be the output. Other files (a device such as
/// /dev/null, a named pipe) are written directly.
///
/// A path that ends in `.gz` or `.zst` is written compressed (gzip level 6, zstd level 3):
/// the compressor writes into the buffer, and `finish()` writes its trailer before the file is
/// renamed into place.
class Output {
 public:
  /// `flush_each`: `end_record()` hands everything written so far on (for pipelines).
  explicit Output(const std::string& path, bool flush_each = false);
  /// Without `finish()`, drops the new content: a named file keeps its old one.
  ~Output();

  WriteStream& stream() noexcept {
    return encoded_ ? static_cast<WriteStream&>(*encoded_) : bytes();
  }
  const std::string& name() const noexcept { return name_; }
  /// Marks the end of a record or top-level value; flushes when asked to flush each.
  void end_record() {
    if (flush_each_) stream().flush();
  }
  /// Writes the text in `encoding` (`--output-encoding`), with its byte-order mark first if
  /// `bom`, through an EncodingWriteStream. Call it before the first write.
  void write_as(Encoding encoding, bool bom);
  /// Flushes and closes, throwing IoError on failure; a named file is then in place. Call it
  /// before reporting success, or a write error could go unnoticed.
  void finish();

 private:
  // Where the encoded text goes: the compressor (over the buffer), or the buffer.
  WriteStream& bytes() noexcept { return compressed_ ? *compressed_ : *buffered_; }

  std::string name_;
  bool flush_each_;
  std::unique_ptr<WriteStream> sink_;
  std::unique_ptr<BufferedWriteStream> buffered_;
  std::unique_ptr<WriteStream> compressed_;       // over the buffer, for a .gz or .zst path
  std::unique_ptr<EncodingWriteStream> encoded_;  // between the formats and the bytes, if asked
};

}  // namespace bufstream::cli
