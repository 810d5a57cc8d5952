// EncodingWriteStream: UTF-8 written as UTF-16, UTF-32, ISO-8859-1 or Windows-1252.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include <bufstream/buffer_options.hpp>
#include <bufstream/buffered_sink.hpp>
#include <bufstream/encoding.hpp>

namespace bufstream {

/// The options of EncodingWriteStream.
struct EncodingOptions {
  /// The encoding the sink receives.
  Encoding encoding = Encoding::utf8;
  /// Write the encoding's byte-order mark first (Excel wants one on UTF-16LE and UTF-8 text).
  /// ISO-8859-1 and Windows-1252 have none: asking for one is a `UsageError`.
  bool bom = false;
  /// Invalid UTF-8, or a character the encoding lacks, is a ParseError; or it is replaced:
  /// invalid UTF-8 by U+FFFD, a missing character by '?' (see OnInvalid).
  OnInvalid on_invalid = OnInvalid::error;
  /// Bytes of UTF-8 collected before they are converted and handed to the sink (at least 4).
  std::size_t buffer_size = default_buffer_size;
  /// The name errors give for the output (a path), or empty.
  std::string sink_name{};
};

/// Takes UTF-8 and writes it to a sink stream in another encoding, as Zinc's
/// ZnCharacterWriteStream with an encoder: a JSON or CSV writer writes into it as into a file.
/// `position()` counts the UTF-8 bytes accepted.
///
/// Bytes are collected in a buffer and converted into the sink when it is full, on `flush()`,
/// `close()` and destruction; so an error in them is found there. A write of more than half
/// the buffer is converted at once, from the caller's memory. A character whose bytes are
/// cut by a flush waits in the buffer for the rest of its bytes; at `close()` (or destruction)
/// a cut character is invalid UTF-8.
///
/// Errors: invalid UTF-8, or a character the encoding cannot represent (U+0100 in ISO-8859-1),
/// is a ParseError at the byte offset of the bad sequence in the UTF-8 written (as
/// `position()` counts), unless OnInvalid::replace was asked for; the text before it is
/// converted and handed to the sink. A failure of the sink is its IoError. Either is sticky,
/// as every write stream's failures are; bytes not yet converted then stay unwritten.
///
/// Destruction converts what the buffer holds. If that fails and no exception has told the
/// caller of a failure yet, the lost-data handler is called (errors.hpp), as
/// BufferedWriteStream does: call `close()` or `flush()` to get the failure as an exception.
/// `flush()` also flushes the sink; `close()` closes a sink it owns and flushes a borrowed one.
/// After a failure, `pending()` holds the bytes not converted (from the invalid sequence on).
class EncodingWriteStream final : public BufferedSink {
 public:
  /// Writes into `sink`, which must outlive this stream.
  explicit EncodingWriteStream(WriteStream& sink, EncodingOptions options = {});
  /// The same, owning `sink`.
  explicit EncodingWriteStream(std::unique_ptr<WriteStream> sink, EncodingOptions options = {});
  /// Converts the buffer into the sink; see the class comment for what happens when that fails.
  ~EncodingWriteStream() override;

  /// The encoding the sink receives.
  Encoding encoding() const noexcept { return options_.encoding; }

 protected:
  /// Converts `bytes` into the sink (BufferedSink's drain calls it).
  void consume(std::string_view bytes, std::size_t& taken, bool last) override;
  /// Writes the byte-order mark if it is due, so that a flushed empty text still has it.
  void flush_consumed() override { write_bom(); }
  /// Writes the byte-order mark if it is due, so that a closed empty text still has it.
  void end_consumed() override { write_bom(); }

 private:
  void write_bom();

  EncodingOptions options_;
  bool bom_pending_;
};

}  // namespace bufstream
