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

/// Parses the line that starts at `p` without finding its end first, when it is a plain, valid
/// entry of fewer than 128 bytes followed by LF, and `[p, end)` holds at least 128 bytes.
/// Returns the line's length (without the LF), having filled `out` and `glosses` as
/// `parse_line` would; or 0, leaving the line to `parse_line`. Always 0 without SSE2.
std::size_t parse_entry_before_lf(const char* p, const char* end, ParsedLine& out, std::vector<GlossSpan>& glosses);

}  // namespace bufstream::cedict::detail
