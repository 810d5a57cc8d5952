#include <bufstream/kernels/byte_set.hpp>
#include <bufstream/kernels/escapes.hpp>
#include <bufstream/utf8.hpp>

#include "reader_impl.hpp"

namespace bufstream::ston {

using reading::is_digit;
using reading::is_letter;

namespace {

// Bytes that end the plain run of a string: its delimiter, a backslash, a line feed (lines are
// counted) and every non-ASCII byte (validated as UTF-8). One set per delimiter.
constexpr kernels::ByteSet single_quote_stops({'\'', '\\', '\n'}, {.non_ascii = true});
constexpr kernels::ByteSet double_quote_stops({'"', '\\', '\n'}, {.non_ascii = true});

// Characters of a bare symbol. Pharo's reader takes any letter (`isLetter`), so bytes of
// non-ASCII UTF-8 sequences are accepted too and validated afterwards; the writer only writes
// ASCII symbols bare.
constexpr bool is_symbol_char(char c) noexcept {
  return is_letter(c) || is_digit(c) || c == '-' || c == '_' || c == '.' || c == '/' ||
         static_cast<unsigned char>(c) >= 0x80;
}

}  // namespace

bool Reader::Impl::skip_comment() {
  const std::string_view w = in.fill(2);
  if (w.size() < 2 || (w[1] != '/' && w[1] != '*')) return false;
  const SourcePosition start = here();
  const bool line_comment = w[1] == '/';
  in.advance(2);
  bool star = false;  // the previous byte of a block comment was '*'
  for (;;) {
    const char* p = in.cursor();
    const char* end = in.limit();
    for (; p != end; ++p) {
      const char c = *p;
      if (c == '\n') {
        lines.new_line(in.position() + static_cast<std::uint64_t>(p + 1 - in.cursor()));
        if (line_comment) {
          in.set_cursor(p + 1);
          return true;
        }
      } else if (!line_comment && star && c == '/') {
        in.set_cursor(p + 1);
        return true;
      }
      star = c == '*';
    }
    in.set_cursor(p);
    if (in.fill(1).empty()) {
      if (line_comment) return true;
      fail(start, "unterminated comment: expected '*/' but found end of input");
    }
  }
}

Value Reader::Impl::parse_symbol() {
  const SourcePosition start = here();
  in.advance(1);  // '#'
  const int c = peek();
  std::string name;
  // Pharo quotes symbols with ' only; a " is accepted too, as for strings.
  if (c == '\'' || c == '"') {
    const SourcePosition quote = here();
    in.advance(1);
    read_string_body(static_cast<char>(c), name, quote);
    return Symbol{std::move(name)};
  }
  name = in.next_while(is_symbol_char, spill);
  if (name.empty()) fail_expected("a symbol name or a quote after '#'");
  if (auto bad = utf8::find_invalid(name)) {
    fail({start.offset + 1 + bad->offset, start.line, start.column + 1 + bad->offset},
         fmt::format("{} in a symbol", utf8::describe(bad->error)));
  }
  return Symbol{std::move(name)};
}

void Reader::Impl::read_string_body(char quote, std::string& out, SourcePosition start) {
  const kernels::ByteSet& stops = quote == '\'' ? single_quote_stops : double_quote_stops;
  for (;;) {
    const char* p = in.cursor();
    const char* end = in.limit();
    p = stops.find(p, end);
    out.append(in.cursor(), static_cast<std::size_t>(p - in.cursor()));
    in.set_cursor(p);
    if (p == end) {
      if (in.fill(1).empty()) {
        fail(start, fmt::format("unterminated string: expected {} but found end of input",
                                describe_byte(static_cast<unsigned char>(quote))));
      }
      continue;
    }
    const char c = *p;
    if (c == quote) {
      in.advance(1);
      return;
    }
    if (c == '\\') {
      read_escape(out);
    } else if (c == '\n') {
      out.push_back('\n');
      in.advance(1);
      lines.new_line(in.position());
    } else {
      read_utf8(out);
    }
  }
}

void Reader::Impl::read_utf8(std::string& out) {
  const std::string_view w = in.fill(4);
  const utf8::Decoded d = utf8::decode(w.data(), w.data() + w.size());
  if (d.error != utf8::Error::none) {
    fail(here(), fmt::format("{} in a string", utf8::describe(d.error)));
  }
  out.append(w.data(), d.length);
  in.advance(d.length);
}

void Reader::Impl::read_escape(std::string& out) {
  const std::uint64_t at = in.position();  // of the backslash
  if (auto bad = kernels::escapes::read_escape(in, out, kernels::escapes::ston))
    fail(lines.at(at + bad->at), std::move(bad->message));
}

}  // namespace bufstream::ston
