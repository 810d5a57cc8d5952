// Parts of the line parser that the loader and the tests use (private to the library).
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include <bufstream/cedict/line_parser.hpp>

namespace bufstream::cedict::detail {

/// `parse_line` without its SSE2 fast path: the same results, byte by byte (for the tests that
/// check that both paths agree).
void parse_line_bytewise(std::string_view line, ParsedLine& out, std::vector<GlossSpan>& glosses);

}  // namespace bufstream::cedict::detail
