// The CC-CEDICT line grammar, on one line at a time.
//
//   entry    := TRADITIONAL ' ' SIMPLIFIED ' ' '[' PINYIN ']' ' ' '/' GLOSS ('/' GLOSS)* '/'
//   comment  := '#' anything          metadata := '#!' KEY '=' VALUE
//
// Headwords are runs of bytes other than ' ' (they may hold Latin letters and digits: "3C",
// "AA制"); the pinyin is anything but ']'; a gloss is anything but '/', and may hold bracketed
// pinyin references ("拜拜[bai2 bai2]"). The whole line must be valid UTF-8. One trailing CR is
// ignored, so CRLF files read like LF files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <bufstream/cedict/entry.hpp>

namespace bufstream::cedict {

/// What a line of a CC-CEDICT file is.
enum class LineKind : std::uint8_t { entry, comment, metadata, malformed };

/// What is wrong with a malformed line.
enum class LineError : std::uint8_t {
  none,
  empty_line,            // nothing on the line
  invalid_utf8,          // bytes that are not UTF-8
  missing_traditional,   // the line starts with ' '
  missing_simplified,    // no ' ' after the traditional headword, or an empty simplified one
  missing_pinyin,        // no " [" after the simplified headword
  unterminated_pinyin,   // no ']' after '['
  missing_glosses,       // no " /" after ']'
  unterminated_glosses,  // the line does not end with '/', or has no gloss
  empty_gloss,           // "//"
  line_too_long,         // 4 GiB or more
};

/// A short name for the kind of error: "missing pinyin".
std::string_view describe(LineError error) noexcept;

/// One line, split. Views point into the line given to `parse_line`.
struct ParsedLine {
  LineKind kind = LineKind::malformed;  ///< What the line is: which of the others are set.
  std::string_view traditional;         ///< Entry: the traditional headword.
  std::string_view simplified;          ///< Entry: the simplified headword.
  std::string_view pinyin;              ///< Entry: the pinyin, between the brackets.
  std::string_view key;                 ///< Metadata: "entries" in "#! entries=116937".
  std::string_view value;               ///< Metadata: "116937".
  LineError error = LineError::none;    ///< Malformed: what is wrong.
  std::size_t column = 0;               ///< Malformed: byte column of the problem, from 1.
  std::string message;  ///< Malformed: "expected ']' to close the pinyin but found end of line".
};

/// Parses one line, given without its line end (LF). For an entry, the glosses are stored in
/// `glosses` (cleared first) as byte ranges of `line` (an entry's line starts with its
/// traditional headword). The line is validated completely, UTF-8 included, in one pass.
/// Never throws for bad input: a malformed line is reported in the result.
void parse_line(std::string_view line, ParsedLine& out, std::vector<GlossSpan>& glosses);

}  // namespace bufstream::cedict
