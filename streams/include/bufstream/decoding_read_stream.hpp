// DecodingReadStream: text in UTF-16, UTF-32, ISO-8859-1 or Windows-1252, read as UTF-8.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <bufstream/buffer_options.hpp>
#include <bufstream/detail/window_buffer.hpp>
#include <bufstream/encoding.hpp>
#include <bufstream/errors.hpp>
#include <bufstream/read_stream.hpp>

namespace bufstream {

/// What a DecodingReadStream does with a byte-order mark at the start of its source.
enum class BomPolicy : std::uint8_t {
  /// A mark (UTF-8, UTF-16LE/BE, UTF-32LE/BE: see `detect_bom`) names the encoding, whatever
  /// the options say, and is skipped; without one the text is in the options' encoding.
  detect,
  /// The text is in the options' encoding; a mark of that encoding is skipped.
  skip,
  /// Nothing is looked for: a mark is read as the character U+FEFF.
  keep,
};

/// The options of DecodingReadStream.
struct DecodingOptions {
  /// The text's encoding (with BomPolicy::detect: when it has no byte-order mark).
  Encoding encoding = Encoding::utf8;
  /// Whether a byte-order mark is looked for, and what it does (see BomPolicy).
  BomPolicy bom = BomPolicy::detect;
  /// Invalid text is a ParseError (naming the byte offset in the source), or U+FFFD.
  OnInvalid on_invalid = OnInvalid::error;
  /// Bytes of UTF-8 in the window (at least 1; `fill(n)` grows it, as BufferedReadStream's).
  std::size_t buffer_size = default_buffer_size;
  /// The name errors give for the input (a path), or empty.
  std::string source_name{};
};

/// Reads text in another encoding from a source stream and presents it as UTF-8, as Zinc's
/// ZnCharacterReadStream with an encoder: a JSON or CSV reader reads it as it reads a UTF-8
/// file. `position()` counts the UTF-8 bytes handed out; the byte-order mark is not among them.
///
/// Each refill decodes what the source's window holds (a character that straddles two of the
/// source's windows is completed with `fill`) into this stream's own window, reading the source
/// only when the caller needs more than is decoded. So, the source is consumed ahead of what
/// this stream has handed out, by as much as its window holds: do not read the source beside it.
/// With BomPolicy::detect or skip the first read looks for the mark: one byte, and more only when
/// that one can start a mark (EF, FE, FF, 00: up to four bytes).
///
/// Invalid text (an unpaired surrogate, a code point above U+10FFFF or a surrogate in UTF-32, a
/// code unit cut by the end of the input, one of Windows-1252's unassigned bytes, invalid UTF-8)
/// is a ParseError whose offset is the source's `position()` at the first byte of the bad
/// sequence and whose message names the encoding and what is wrong; the text before it is handed
/// out first (a `fill(n)` that reaches the error throws it with that text in the window). Like a
/// failure of the source (an IoError), it is sticky. With OnInvalid::replace each bad sequence (one
/// UTF-16 or UTF-32 unit, one byte, a cut unit at the end) reads as U+FFFD instead.
///
/// `close()` closes a source it owns and leaves a borrowed one open.
class DecodingReadStream final : public ReadStream {
 public:
  /// Reads `source`, which must outlive this stream.
  explicit DecodingReadStream(ReadStream& source, DecodingOptions options = {});
  /// The same, owning `source`.
  explicit DecodingReadStream(std::unique_ptr<ReadStream> source, DecodingOptions options = {});
  ~DecodingReadStream() override;

  /// The encoding the text is read in: the one the byte-order mark named, if the options let
  /// it, else the options'. Looks for the mark first if no read has yet (and may throw IoError).
  Encoding encoding();
  /// The length of the byte-order mark that was skipped: 0 if none (looks for it first, too).
  std::size_t bom_length();
  /// The stream the text is read from.
  ReadStream& source() noexcept { return *source_; }

 protected:
  bool refill(std::size_t min) override;
  void close_source() override;

 private:
  void start();

  std::unique_ptr<ReadStream> owned_;
  ReadStream* source_;
  DecodingOptions options_;
  detail::WindowBuffer buffer_;
  std::size_t need_ = 1;  // source bytes the next step needs (more within a straddling character)
  std::size_t bom_length_ = 0;
  bool started_ = false;
  std::optional<ParseError> pending_;  // found after text the caller has not read yet
};

}  // namespace bufstream
