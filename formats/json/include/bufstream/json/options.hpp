// Options of json::Writer and json::Reader: plain structs for designated initializers,
//
//     json::Writer w(out, {.indent = 2});
//     json::Reader r(in, {.max_depth = 64, .source_name = "data.json"});
//
// The layout (`indent`, `indent_char`, `line_end`) and the nesting limit (`max_depth`) are
// named and meant as in every format (bufstream/format_options.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <bufstream/format_options.hpp>

namespace bufstream::json {

/// What the writer does with a NaN or an infinity, which JSON cannot represent.
enum class NonFinite : std::uint8_t {
  error,       ///< throw UsageError (the default: nothing is changed silently)
  write_null,  ///< write `null` instead, as JavaScript's JSON.stringify does
};

/// The options of json::Writer (and json::write).
struct WriteOptions {
  /// `indent_char`s per nesting level. 0 writes compact JSON (no whitespace at all); more puts
  /// every element and member on its own line, nlohmann::json::dump(indent) style.
  std::size_t indent = 0;
  /// What indents: ``' '`` (the default) or ``'\t'`` (anything else is a UsageError), as
  /// nlohmann::json::dump's `indent_char`.
  char indent_char = ' ';
  /// What ends a line when pretty printing (and after each value in JSON Lines mode).
  LineEnd line_end = LineEnd::lf;
  /// Escape every byte above 126 as `\uXXXX` (a surrogate pair above U+FFFF), so the output is
  /// plain ASCII.
  bool ascii_only = false;
  /// What is written for a NaN or an infinity.
  NonFinite non_finite = NonFinite::error;
  /// JSON Lines: any number of top-level values, each compact and followed by `line_end`.
  /// Cannot be combined with `indent`.
  bool json_lines = false;
};

/// Deprecated: the default nesting limit is every reader's, bufstream::default_max_depth.
[[deprecated("use bufstream::default_max_depth")]] inline constexpr std::size_t default_max_depth =
    bufstream::default_max_depth;

/// The options of json::Reader (and json::read, json::Document::parse).
struct ReadOptions {
  /// Arrays and objects nested deeper than this are a ParseError.
  std::size_t max_depth = bufstream::default_max_depth;
  /// Skip a UTF-8 byte-order mark (EF BB BF) at the very start of the stream (position 0), as
  /// Windows tools write them and RFC 8259 lets a parser ignore them (nlohmann::json and our
  /// CSV reader skip it too). False makes the mark an error ("expected a value but found byte
  /// 0xef"). A mark anywhere else is always an error.
  bool skip_bom = true;
  /// Names the input in error messages ("data.json:3:17: ..."); may be empty.
  std::string source_name{};
};

}  // namespace bufstream::json
