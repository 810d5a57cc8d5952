// BufferedWriteStream: gives any write stream a buffer of 64 KiB.
#pragma once

#include <cstddef>
#include <memory>
#include <string_view>

#include <bufstream/buffer_options.hpp>
#include <bufstream/buffered_sink.hpp>

namespace bufstream {

/// Writes another stream (the sink) through a buffer: bytes are collected and handed on in
/// one `write` when the buffer is full, on `flush()`, `close()` and destruction. A write of
/// more than half the buffer goes straight to the sink (after what is buffered), without a copy.
/// `flush()` also flushes the sink; `close()` also closes it, owned or not.
///
/// On failure the stream keeps the bytes the sink did not take (`pending()`), and
/// `position() - pending().size()` is what the sink accepted. The failure is sticky.
///
/// Destruction writes the buffer out. If that fails and no exception has told the caller of a
/// failure yet, the lost-data handler is called (by default: message on stderr, then abort).
/// Call `close()` or `flush()` to get the failure as an exception instead; after that,
/// destruction is quiet.
///
/// `buffer_size()`, `pending()` and `sink()` come from BufferedSink.
class BufferedWriteStream final : public BufferedSink {
 public:
  /// Writes into `sink`, which must outlive this stream.
  explicit BufferedWriteStream(WriteStream& sink, BufferOptions options = {});
  /// Writes into `sink` and owns it.
  explicit BufferedWriteStream(std::unique_ptr<WriteStream> sink, BufferOptions options = {});
  /// Writes the buffer out; see the class comment for what happens when that fails.
  ~BufferedWriteStream() override;

 protected:
  /// Writes `bytes` to the sink (BufferedSink's drain calls it).
  void consume(std::string_view bytes, std::size_t& taken, bool last) override;
};

}  // namespace bufstream
