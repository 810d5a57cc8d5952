// UTF-8: strict decoding and validation, encoding, and conversion to and from UTF-16.
//
// Strict means RFC 3629: no overlong forms, no surrogates (U+D800..U+DFFF), nothing beyond
// U+10FFFF, no truncated sequence. Every format validates its text here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <bufstream/read_stream.hpp>
#include <bufstream/write_stream.hpp>

/// UTF-8 as RFC 3629 has it: strict decoding and validation, encoding, and conversion to and
/// from UTF-16.
namespace bufstream::utf8 {

/// What makes a sequence of bytes invalid UTF-8.
enum class Error : std::uint8_t {
  none,                       ///< valid
  invalid_lead_byte,          ///< 0x80..0xBF or 0xF5..0xFF where a sequence starts
  invalid_continuation_byte,  ///< a byte other than 0x80..0xBF inside a sequence
  overlong_encoding,          ///< e.g. C0 80 for U+0000 (C0 and C1 are always overlong leads)
  surrogate,                  ///< U+D800..U+DFFF
  beyond_max_code_point,      ///< above U+10FFFF (F4 90 80 80 and up)
  truncated_sequence,         ///< the input ends inside a sequence
};

/// A readable description: "invalid UTF-8: overlong encoding".
std::string_view describe(Error error) noexcept;

/// The message every reader gives for text that is not UTF-8, naming the byte where the bad
/// sequence starts: "expected UTF-8 text but found byte 0xff (invalid UTF-8: invalid lead
/// byte)".
std::string describe_invalid_byte(unsigned char lead, Error error);

/// One code point decoded from the front of a byte sequence (see `decode`).
struct Decoded {
  char32_t code_point = 0;  ///< The code point; 0 on error.
  /// Bytes consumed; on error, the bytes that form the bad prefix (at least 1).
  std::uint8_t length = 0;
  Error error = Error::none;  ///< What was wrong, or Error::none.
};

/// Decodes the code point that starts at `p` (which must be before `end`).
Decoded decode(const char* p, const char* end) noexcept;

/// The length of the sequence a lead byte starts (1 to 4), or 0 for a byte that cannot lead.
constexpr std::size_t sequence_length(unsigned char lead) noexcept {
  if (lead < 0x80) return 1;
  if (lead < 0xC2) return 0;
  if (lead < 0xE0) return 2;
  if (lead < 0xF0) return 3;
  if (lead < 0xF5) return 4;
  return 0;
}

/// Where a text stops being valid UTF-8, and why (see `find_invalid`).
struct Invalid {
  std::size_t offset;  ///< Where the bad sequence starts.
  Error error;         ///< What is wrong with it.
};

/// The first invalid sequence of `text`, or `std::nullopt` if it is valid UTF-8. Fast: with
/// AVX2 (when the processor has it) 64 bytes at a time by nibble-table look-ups, otherwise runs
/// of ASCII and well-formed multi-byte sequences 16 bytes at a time (SSE2) or 8 (elsewhere);
/// the exact error is found by `decode`, so the answer is always the one a byte-by-byte decode
/// would give.
std::optional<Invalid> find_invalid(std::string_view text) noexcept;
/// True if `text` is valid UTF-8.
inline bool is_valid(std::string_view text) noexcept { return !find_invalid(text); }

/// Writes the UTF-8 form of `cp` (at most 4 bytes) at `out` and returns the end. `cp` must be a
/// Unicode scalar value (not a surrogate, at most U+10FFFF).
char* encode(char32_t cp, char* out) noexcept;

/// True for U+0000..U+10FFFF except surrogates.
constexpr bool is_scalar_value(char32_t cp) noexcept {
  return cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF);
}

/// Writes the UTF-8 form of `cp`. Throws `UsageError` if it is not a scalar value.
void put(WriteStream& out, char32_t cp);

/// Reads one code point; `std::nullopt` at the end of the stream. Throws `ParseError` (at the
/// byte offset of the bad sequence) for invalid UTF-8. Sequences may straddle windows.
std::optional<char32_t> next(ReadStream& in);

/// UTF-8's byte-order mark.
inline constexpr std::string_view bom = "\xEF\xBB\xBF";

/// The length of the byte-order mark that `text` starts with: 3, or 0 when it has none.
constexpr std::size_t bom_length(std::string_view text) noexcept {
  return text.starts_with(bom) ? bom.size() : 0;
}

/// Consumes a leading byte-order mark (EF BB BF) if the stream starts with one and says whether
/// it did. Reads one byte to decide, three only when the first is EF; consumes nothing else.
/// The one way every reader skips a mark (the formats' readers call it where their whitespace
/// skip meets 0xEF at the stream's start; texts in memory use bom_length).
bool skip_bom(ReadStream& in);

/// Converts UTF-8 to UTF-16 (surrogate pairs above U+FFFF). Throws `ParseError` (line 0, the
/// byte offset) for invalid UTF-8.
std::u16string to_utf16(std::string_view text);
/// Appends the UTF-16 form of `text` to `out`; same errors.
void append_utf16(std::string_view text, std::u16string& out);

/// Converts UTF-16 to UTF-8. Throws `ParseError` (offset in code units) for a lone surrogate.
std::string from_utf16(std::u16string_view text);

}  // namespace bufstream::utf8
