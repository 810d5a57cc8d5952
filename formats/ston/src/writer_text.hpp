// How ston::Writer writes text: strings between single quotes with their escapes, and
// symbols (bare when STON allows, else quoted after '#').
#pragma once

#include <string_view>

#include <bufstream/write_stream.hpp>

namespace bufstream::ston::detail {

/// Writes `s` between single quotes, escaping the quote, the backslash, control characters,
/// DEL and U+0080..U+009F, and every non-ASCII character when `ascii_only`. Throws UsageError,
/// having written nothing, when `s` is not valid UTF-8.
void write_quoted(WriteStream& out, std::string_view s, bool ascii_only);

/// Writes `#name`, or `#'name'` when the name is not one STON reads bare.
void write_symbol(WriteStream& out, std::string_view name, bool ascii_only);

}  // namespace bufstream::ston::detail
