// The line parser without its SSE2 fast path (private; for the tests that check that both
// paths agree on every line).
#pragma once

#include <string_view>
#include <vector>

#include <bufstream/cedict/line_parser.hpp>

namespace bufstream::cedict::detail {

/// `parse_line`, byte by byte: the same results, more slowly.
void parse_line_bytewise(std::string_view line, ParsedLine& out, std::vector<GlossSpan>& glosses);

}  // namespace bufstream::cedict::detail
