// json::Document's own parser (document_parser.cpp) and the node shapes it shares with the
// event builder (document.cpp).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

#include <bufstream/json/document.hpp>

namespace bufstream::json::detail {

// The nodes of numbers as the reader gives them: a negative integer, a non-negative one
// ("-0" too: the integer 0), a double.
inline DocumentNode negative_integer_node(std::int64_t i) noexcept {
  return {Type::int64, false, 0, static_cast<std::uint64_t>(i)};
}
inline DocumentNode unsigned_node(std::uint64_t u) noexcept { return {Type::uint64, false, 0, u}; }
inline DocumentNode double_node(double x) noexcept {
  return {Type::floating, false, 0, std::bit_cast<std::uint64_t>(x)};
}

// The node after `i` and everything it holds.
inline std::size_t end_of(const DocumentData& d, std::size_t i) noexcept {
  const DocumentNode& n = d.values[i];
  return n.type == Type::array || n.type == Type::object ? static_cast<std::size_t>(n.payload)
                                                         : i + 1;
}

/// Bytes the parser needs after the text, spaces: the indexer reads whole 64-byte blocks, and
/// numbers and literals are read a word at a time.
inline constexpr std::size_t document_padding = 64;

/// Parses the JSON value of `d.text[begin, size)` into `d.values`. `d.text` holds `size` bytes
/// of text, then `document_padding` spaces; the strings that had escapes are decoded
/// into `d.values` too.
/// Returns false, saying nothing more, on anything that is not one JSON value (RFC 8259, at
/// most `max_depth` levels deep) between whitespace: the caller has the event reader read the
/// text again to say what and where.
bool parse_document_text(DocumentData& d, std::size_t begin, std::size_t size,
                         std::size_t max_depth);

}  // namespace bufstream::json::detail
