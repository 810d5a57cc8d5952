// CompressWriteStream: the write half shared by the gzip and Zstandard decorators.
#pragma once

#include <cstddef>
#include <memory>
#include <string_view>

#include <bufstream/buffer_options.hpp>
#include <bufstream/write_stream.hpp>

namespace bufstream {

namespace compress_detail {
class Encoder;
enum class Flush : unsigned char;
}  // namespace compress_detail

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
/// stderr, then abort). Call `close()` to get the failure as an exception instead.
class CompressWriteStream : public WriteStream {
 public:
  ~CompressWriteStream() override;

  /// Ends the current member or frame (trailer, checksum) and flushes the sink.
  void finish();

  /// The stream this one writes to.
  WriteStream& sink() noexcept { return *sink_; }

 protected:
  CompressWriteStream(WriteStream& sink, std::unique_ptr<compress_detail::Encoder> encoder,
                      BufferOptions options);
  CompressWriteStream(std::unique_ptr<WriteStream> sink,
                      std::unique_ptr<compress_detail::Encoder> encoder, BufferOptions options);

  void write_slow(const char* data, std::size_t n) override;
  char* make_room(std::size_t n) override;
  void flush_sink() override;
  void close_sink() override;

  /// For the destructors of the final classes: ends the member or frame into the sink,
  /// reporting a failure to the lost-data handler. `what` names the stream.
  void finish_on_destruction(std::string_view what) noexcept;

 private:
  /// Compresses the window's bytes and sets an empty window.
  void drain();
  /// Compresses `n` bytes at `data` with the given flush into the sink.
  void pump(const char* data, std::size_t n, compress_detail::Flush mode);
  void end_member();

  std::unique_ptr<WriteStream> owned_;
  WriteStream* sink_;
  std::unique_ptr<compress_detail::Encoder> encoder_;
  std::size_t buffer_size_;
  std::unique_ptr<char[]> buffer_;
  bool member_open_ = true;  // bytes (or at least a header) not yet ended by a trailer
  bool unflushed_ = false;   // input given to the encoder since the last flush or finish
};

}  // namespace bufstream
