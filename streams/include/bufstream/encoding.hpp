// Character encodings: the text encodings bufstream reads and writes besides UTF-8, their
// names, and byte-order marks.
//
// Formats read and write UTF-8 only. Text in another encoding is read through a
// DecodingReadStream (decoding_read_stream.hpp), which presents it as UTF-8, and written
// through an EncodingWriteStream (encoding_write_stream.hpp), which takes UTF-8; as Zinc's
// ZnCharacterEncoder does. The functions here convert a whole buffer at once, with the same
// rules and errors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace bufstream {

/// A text encoding that DecodingReadStream reads and EncodingWriteStream writes.
enum class Encoding : std::uint8_t {
  utf8,     ///< UTF-8 (what the formats read and write)
  utf16le,  ///< UTF-16, little-endian units; above U+FFFF as surrogate pairs
  utf16be,  ///< UTF-16, big-endian units
  utf32le,  ///< UTF-32, little-endian units
  utf32be,  ///< UTF-32, big-endian units
  /// ISO-8859-1 (Latin-1): every byte is the code point of the same value, U+0000..U+00FF.
  /// (Web browsers read text labelled ISO-8859-1 as Windows-1252; this is the real Latin-1.)
  iso_8859_1,
  /// Windows-1252: Latin-1 with printable characters in place of most C1 controls (0x80 is
  /// '€', 0x93 '“'). Its five unassigned bytes, 0x81 0x8D 0x8F 0x90 0x9D, are not text: as
  /// in Unicode's CP1252 table and glibc's iconv (the WHATWG table maps them to C1 controls).
  windows_1252,
};

/// The encoding's usual name: "UTF-8", "UTF-16LE", "UTF-16BE", "UTF-32LE", "UTF-32BE",
/// "ISO-8859-1", "Windows-1252".
std::string_view encoding_name(Encoding encoding) noexcept;

/// The encoding a label names, ignoring case, '-' and '_': the names above and "latin1",
/// "cp1252". "UTF-16" and "UTF-32" without a byte order are not accepted (a byte-order mark
/// says the order: see `detect_bom`).
std::optional<Encoding> parse_encoding(std::string_view label) noexcept;

/// The byte-order mark of the encoding (U+FEFF in it): EF BB BF, FF FE, FE FF, FF FE 00 00,
/// 00 00 FE FF; empty for ISO-8859-1 and Windows-1252, which have none.
std::string_view byte_order_mark(Encoding encoding) noexcept;

/// A byte-order mark found at the start of a text: `detect_bom`'s answer.
struct DetectedBom {
  Encoding encoding;   ///< the encoding the mark names
  std::size_t length;  ///< bytes of the mark: 2, 3 or 4

  /// Equal when both members are.
  friend bool operator==(const DetectedBom&, const DetectedBom&) = default;
};

/// The byte-order mark `start` begins with, if any. Pass the first four bytes of the text (or
/// all of it, if shorter): FF FE 00 00 is UTF-32LE's mark, not UTF-16LE's followed by U+0000
/// (as every detector reads it), so a text of two bytes FF FE is UTF-16LE while one that
/// starts FF FE 00 00 is UTF-32LE.
std::optional<DetectedBom> detect_bom(std::string_view start) noexcept;

/// What a decoder or encoder does with text it cannot convert.
enum class OnInvalid : std::uint8_t {
  /// Throws ParseError at the byte offset of the bad sequence in its input.
  error,
  /// Decoding: each invalid sequence becomes U+FFFD. Encoding: invalid UTF-8 becomes U+FFFD,
  /// and a character the target encoding lacks (U+0100 in ISO-8859-1) becomes '?'.
  replace,
};

/// Converts a whole text in `encoding` to UTF-8; a byte-order mark is read as the character
/// U+FEFF (see `detect_bom`). Throws ParseError (line 0, the byte offset in `bytes`) for
/// invalid input, unless told to replace it.
std::string decode_to_utf8(std::string_view bytes, Encoding encoding,
                           OnInvalid on_invalid = OnInvalid::error);

/// Converts a whole UTF-8 text to `encoding`, without a byte-order mark. Throws ParseError
/// (line 0, the byte offset in `text`) for invalid UTF-8 or a character `encoding` cannot
/// represent, unless told to replace it.
std::string encode_from_utf8(std::string_view text, Encoding encoding,
                             OnInvalid on_invalid = OnInvalid::error);

}  // namespace bufstream
