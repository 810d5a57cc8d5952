// CompressWriteStream: the write half shared by the gzip and Zstandard decorators.
#pragma once

#include <cstddef>
#include <memory>
#include <string_view>

#include <bufstream/buffer_options.hpp>
#include <bufstream/buffered_sink.hpp>

namespace bufstream::compress {

namespace detail {
class Encoder;
enum class Flush : unsigned char;
}  // namespace detail

/// Compresses what is written to it into another stream (the sink). Bytes are collected in a
/// buffer and compressed when it is full (a write of more than half the buffer is compressed
/// from the caller's memory); the encoder writes straight into the sink's window (`reserve`).
///
/// - `flush()` compresses everything written so far and ends the current deflate or zstd
///   block, so that a reader can decode every byte, then flushes the sink.
/// - `finish()` ends the member (gzip) or frame (zstd): trailer and checksum. Writing after it
///   begins a new one; readers take concatenated members and frames as one stream.
/// - `close()` finishes (unless `finish()` came last) and closes the sink, owned or not.
///
/// Errors follow BufferedWriteStream's rules: a sink failure is sticky and thrown by the
/// operation that met it, by `flush()` and by `close()`. Destruction finishes the stream into
/// the sink (it neither flushes nor closes the sink); if that fails and no exception has told
/// the caller of a failure yet, the lost-data handler is called (by default: message on
/// stderr, then abort). Call `close()` to get the failure as an exception instead. After a
/// failure, `pending()` holds the buffered bytes the encoder did not take.
class CompressWriteStream : public bufstream::BufferedSink {
 public:
  ~CompressWriteStream() override;

  /// Ends the current member or frame (trailer, checksum) and flushes the sink.
  void finish();

 protected:
  /// For the format classes: compresses with `encoder` into `sink`, which must outlive this
  /// stream, through a buffer of `options.buffer_size` bytes.
  CompressWriteStream(WriteStream& sink, std::unique_ptr<detail::Encoder> encoder,
                      BufferOptions options);
  /// The same, owning `sink`.
  CompressWriteStream(std::unique_ptr<WriteStream> sink, std::unique_ptr<detail::Encoder> encoder,
                      BufferOptions options);

  /// Compresses `bytes` into the sink (BufferedSink's drain calls it).
  void consume(std::string_view bytes, std::size_t& taken, bool last) override;
  /// Ends the current deflate or zstd block, so that a reader can decode every byte so far.
  void flush_consumed() override;
  /// Ends the member or frame: trailer and checksum.
  void end_consumed() override;

 private:
  /// Compresses `in` with the given flush into the sink, adding the input used to `taken`.
  void pump(std::string_view in, std::size_t& taken, detail::Flush mode);

  std::unique_ptr<detail::Encoder> encoder_;
  bool member_open_ = true;  // bytes (or at least a header) not yet ended by a trailer
  bool unflushed_ = false;   // input given to the encoder since the last flush or finish
};

}  // namespace bufstream::compress

// Deprecated names of one version ago: the decorators live in bufstream::compress.
namespace bufstream {
/// Deprecated name of one version ago: compress::CompressWriteStream.
using CompressWriteStream [[deprecated("use bufstream::compress::CompressWriteStream")]] =
    compress::CompressWriteStream;
}  // namespace bufstream
