#include "writer_text.hpp"

#include <algorithm>
#include <cstring>
#include <optional>

#include <fmt/format.h>

#include <bufstream/kernels/byte_set.hpp>
#include <bufstream/kernels/escapes.hpp>
#include <bufstream/ston/writer.hpp>
#include <bufstream/utf8.hpp>

namespace bufstream::ston::detail {

namespace {

// Bytes a string cannot be written with as they are: controls, the delimiter, the backslash,
// DEL, and every non-ASCII byte (decoded to find U+0080..U+009F, which are escaped, and for
// ASCII-only output).
constexpr kernels::ByteSet string_stops({'\'', '\\', '\x7f'},
                                        {.controls = true, .non_ascii = true});
// How strings are escaped (kernels::escapes::write_escaped): U+0080..U+009F always, every
// other non-ASCII character only for ASCII-only output.
constexpr kernels::escapes::OutputStyle escaped{&kernels::escapes::ston, false, 0xA0,
                                                &string_stops};
constexpr kernels::escapes::OutputStyle escaped_ascii{&kernels::escapes::ston, true, 0xA0,
                                                      &string_stops};

// A string checked as it is copied (see write_string): most are short.
constexpr std::size_t max_short_string = 256;

// A string written with its quotes in one `reserve` (longer ones are written in runs, so that
// an unbuffered stream is not handed a scratch copy of a huge string).
constexpr std::size_t max_string_in_one_piece = 4096;

bool is_bare_symbol(std::string_view name) noexcept {
  if (name.empty()) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_' || c == '.' || c == '/';
  });
}

}  // namespace

// The usual string is short and needs no escape: it is checked by the kernel's byte set as it
// is copied with its quotes (the room is given back when a byte needs escaping or decoding).
void write_quoted(WriteStream& out, std::string_view s, bool ascii_only) {
  constexpr char quote = kernels::escapes::ston.quote;
  const std::size_t n = s.size();
  if (n <= max_short_string) [[likely]] {
    char* o = out.reserve(std::max<std::size_t>(n, 8) + 2);
    o[0] = quote;
    if (!string_stops.copy_finding_any(s.data(), n, o + 1)) [[likely]] {
      o[n + 1] = quote;
      out.commit(n + 2);
      return;
    }
    out.commit(0);
  }
  const char* const p = s.data();
  const char* const stop = string_stops.find(p, p + n);
  if (stop == p + n && n <= max_string_in_one_piece) {
    char* o = out.reserve(n + 2);
    o[0] = quote;
    std::memcpy(o + 1, p, n);
    o[n + 1] = quote;
    out.commit(n + 2);
    return;
  }
  // Checked before a byte is written, so that a string that cannot be written leaves none.
  if (const std::optional<utf8::Invalid> bad =
          utf8::find_invalid(s.substr(static_cast<std::size_t>(stop - p)))) {
    const std::size_t at = static_cast<std::size_t>(stop - p) + bad->offset;
    throw UsageError(fmt::format("cannot write the string '{}...': {} at byte {}",
                                 s.substr(0, std::min<std::size_t>(20, at)),
                                 utf8::describe(bad->error), at));
  }
  out.put(quote);
  kernels::escapes::write_escaped(out, s, ascii_only ? escaped_ascii : escaped);
  out.put(quote);
}

void write_symbol(WriteStream& out, std::string_view name, bool ascii_only) {
  out.put('#');
  if (is_bare_symbol(name)) {
    out.write(name);
  } else {
    write_quoted(out, name, ascii_only);
  }
}

}  // namespace bufstream::ston::detail
