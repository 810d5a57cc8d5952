// What the options of every format share, defined once: the layout of a writer's output and the
// nesting limit of a reader. Each format's `WriteOptions` spells its layout with these names,
//
//     std::size_t indent = 0;         // 0: compact; N: pretty, N indent_char per nesting level
//     char indent_char = ' ';         // ' ' or '\t' (the format's convention by default)
//     LineEnd line_end = LineEnd::lf; // what ends a line (the format's convention by default)
//
// and each reader's `ReadOptions` has `std::size_t max_depth = default_max_depth`
// (docs/ARCHITECTURE.md, "Naming").
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace bufstream {

/// What ends a line of a writer's output (`WriteOptions::line_end` of every format).
enum class LineEnd : std::uint8_t {
  lf,    ///< "\n", as Unix tools write it (the default of JSON and STON)
  crlf,  ///< "\r\n", as RFC 4180 says for CSV (its default) and Windows tools write it
};

/// The bytes of `line_end`.
constexpr std::string_view line_end_bytes(LineEnd line_end) noexcept {
  return line_end == LineEnd::crlf ? std::string_view("\r\n", 2) : std::string_view("\n", 1);
}

/// The default nesting limit of every reader (`ReadOptions::max_depth`) and of the writers that
/// have one: deep enough for any sane document, shallow enough that the code that consumes the
/// result does not overflow its stack either (the readers themselves never recurse).
inline constexpr std::size_t default_max_depth = 512;

}  // namespace bufstream
