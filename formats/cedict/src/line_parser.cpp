#include <bufstream/cedict/line_parser.hpp>

#include <cstdint>
#include <cstring>
#include <limits>

#include <bufstream/errors.hpp>
#include <bufstream/utf8.hpp>

#include <fmt/format.h>

namespace bufstream::cedict {

namespace {

// ---- The fast path: one pass over the line, validating UTF-8 on the way -------------------

constexpr bool is_continuation(unsigned char b) noexcept { return (b & 0xC0) == 0x80; }

// Skips the multi-byte UTF-8 sequence that starts at `p` (a byte >= 0x80); nullptr if it is
// not valid (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF). The slow
// path then asks utf8::find_invalid what exactly is wrong.
inline const char* skip_sequence(const char* p, const char* end) noexcept {
  const auto lead = static_cast<unsigned char>(p[0]);
  const auto left = end - p;
  if (lead >= 0xE0 && lead <= 0xEF) {  // three bytes: most of CEDICT's non-ASCII text
    if (left < 3) return nullptr;
    const auto b1 = static_cast<unsigned char>(p[1]);
    if (!is_continuation(b1) || !is_continuation(static_cast<unsigned char>(p[2]))) return nullptr;
    if ((lead == 0xE0 && b1 < 0xA0) || (lead == 0xED && b1 > 0x9F)) return nullptr;
    return p + 3;
  }
  if (lead >= 0xC2 && lead <= 0xDF) {
    if (left < 2 || !is_continuation(static_cast<unsigned char>(p[1]))) return nullptr;
    return p + 2;
  }
  if (lead >= 0xF0 && lead <= 0xF4) {
    if (left < 4) return nullptr;
    const auto b1 = static_cast<unsigned char>(p[1]);
    if (!is_continuation(b1) || !is_continuation(static_cast<unsigned char>(p[2])) ||
        !is_continuation(static_cast<unsigned char>(p[3]))) {
      return nullptr;
    }
    if ((lead == 0xF0 && b1 < 0x90) || (lead == 0xF4 && b1 > 0x8F)) return nullptr;
    return p + 4;
  }
  return nullptr;
}

// Eight bytes hold `c` or a byte >= 0x80 (the exact zero-byte test of "Bit Twiddling Hacks").
inline bool has_byte_or_high(std::uint64_t x, std::uint64_t c_everywhere) noexcept {
  constexpr std::uint64_t ones = 0x0101010101010101ULL;
  constexpr std::uint64_t highs = 0x8080808080808080ULL;
  const std::uint64_t y = x ^ c_everywhere;
  return (((y - ones) & ~y) | x) & highs;
}

// Finds the first `c` in [p, end), validating the UTF-8 it passes; `end` if there is none;
// nullptr at invalid UTF-8. ASCII runs are skipped eight bytes at a time.
inline const char* scan_to(const char* p, const char* end, char c) noexcept {
  const std::uint64_t c_everywhere = 0x0101010101010101ULL * static_cast<unsigned char>(c);
  for (;;) {
    while (end - p >= 8) {
      std::uint64_t x;
      std::memcpy(&x, p, 8);
      if (has_byte_or_high(x, c_everywhere)) break;
      p += 8;
    }
    if (p == end) return end;
    const auto b = static_cast<unsigned char>(*p);
    if (b == static_cast<unsigned char>(c)) return p;
    if (b < 0x80) {
      ++p;
    } else if ((p = skip_sequence(p, end)) == nullptr) {
      return nullptr;
    }
  }
}

// ---- The slow path: saying what is wrong ------------------------------------------------

// What was found at `p`, for a message: "' '", "'x'", "'好'", "end of line".
std::string found_at(const char* p, const char* end) {
  if (p == end) return "end of line";
  const auto b = static_cast<unsigned char>(*p);
  if (b < 0x80) return describe_byte(b);
  const std::size_t n = utf8::sequence_length(b);
  if (n != 0 && static_cast<std::size_t>(end - p) >= n) return fmt::format("'{}'", std::string_view(p, n));
  return describe_byte(b);
}

void fail(ParsedLine& out, LineError error, std::string_view line, const char* at, std::string message) {
  out.kind = LineKind::malformed;
  out.error = error;
  out.column = static_cast<std::size_t>(at - line.data()) + 1;
  out.message = std::move(message);
}

void fail_utf8(ParsedLine& out, std::string_view line) {
  const auto bad = utf8::find_invalid(line);
  const std::size_t at = bad ? bad->offset : 0;  // the fast path and find_invalid agree
  fail(out, LineError::invalid_utf8, line, line.data() + at,
       fmt::format("expected UTF-8 text but found {} ({})", describe_byte(static_cast<unsigned char>(line[at])),
                   utf8::describe(bad ? bad->error : utf8::Error::invalid_lead_byte)));
}

void parse_comment(std::string_view line, ParsedLine& out) {
  if (!utf8::is_valid(line)) return fail_utf8(out, line);
  if (line.size() < 2 || line[1] != '!') {
    out.kind = LineKind::comment;
    return;
  }
  std::string_view rest = line.substr(2);
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  const auto eq = rest.find('=');
  out.kind = LineKind::metadata;
  out.key = rest.substr(0, eq);
  out.value = eq == std::string_view::npos ? std::string_view{} : rest.substr(eq + 1);
  while (!out.key.empty() && out.key.back() == ' ') out.key.remove_suffix(1);
}

}  // namespace

std::string_view describe(LineError error) noexcept {
  switch (error) {
    case LineError::none: return "no error";
    case LineError::empty_line: return "empty line";
    case LineError::invalid_utf8: return "invalid UTF-8";
    case LineError::missing_traditional: return "missing traditional headword";
    case LineError::missing_simplified: return "missing simplified headword";
    case LineError::missing_pinyin: return "missing pinyin";
    case LineError::unterminated_pinyin: return "unterminated pinyin";
    case LineError::missing_glosses: return "missing glosses";
    case LineError::unterminated_glosses: return "unterminated glosses";
    case LineError::empty_gloss: return "empty gloss";
    case LineError::line_too_long: return "line too long";
  }
  return "unknown error";
}

namespace {

void parse_entry_or_comment(std::string_view line, ParsedLine& out, std::vector<GlossSpan>& glosses) {
  out.traditional = out.simplified = out.pinyin = out.key = out.value = {};
  out.error = LineError::none;
  out.column = 0;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  const char* const begin = line.data();
  const char* const end = begin + line.size();

  if (line.empty()) {
    return fail(out, LineError::empty_line, line, begin, "expected an entry or a comment but found an empty line");
  }
  if (line.front() == '#') return parse_comment(line, out);
  if (line.size() >= std::numeric_limits<std::uint32_t>::max()) {
    return fail(out, LineError::line_too_long, line, begin, "expected a line shorter than 4 GiB");
  }

  // TRADITIONAL ' '
  const char* p = begin;
  if (*p == ' ') {
    return fail(out, LineError::missing_traditional, line, p, "expected a traditional headword but found ' '");
  }
  const char* sp = scan_to(p, end, ' ');
  if (sp == nullptr) return fail_utf8(out, line);
  if (sp == end) {
    return fail(out, LineError::missing_simplified, line, sp,
                "expected ' ' and a simplified headword after the traditional one but found end of line");
  }
  out.traditional = {p, static_cast<std::size_t>(sp - p)};

  // SIMPLIFIED ' '
  p = sp + 1;
  if (p == end || *p == ' ') {
    if (!utf8::is_valid(line)) return fail_utf8(out, line);
    return fail(out, LineError::missing_simplified, line, p,
                fmt::format("expected a simplified headword but found {}", found_at(p, end)));
  }
  sp = scan_to(p, end, ' ');
  if (sp == nullptr) return fail_utf8(out, line);
  if (sp == end) {
    return fail(out, LineError::missing_pinyin, line, sp,
                "expected ' [' and the pinyin after the simplified headword but found end of line");
  }
  out.simplified = {p, static_cast<std::size_t>(sp - p)};

  // '[' PINYIN ']'
  p = sp + 1;
  if (p == end || *p != '[') {
    if (!utf8::is_valid(line)) return fail_utf8(out, line);
    return fail(out, LineError::missing_pinyin, line, p,
                fmt::format("expected '[' to open the pinyin but found {}", found_at(p, end)));
  }
  ++p;
  const char* close = scan_to(p, end, ']');
  if (close == nullptr) return fail_utf8(out, line);
  if (close == end) {
    return fail(out, LineError::unterminated_pinyin, line, close, "expected ']' to close the pinyin but found end of line");
  }
  out.pinyin = {p, static_cast<std::size_t>(close - p)};

  // ' ' '/' GLOSS ('/' GLOSS)* '/'
  p = close + 1;
  if (p == end || *p != ' ') {
    if (!utf8::is_valid(line)) return fail_utf8(out, line);
    return fail(out, LineError::missing_glosses, line, p,
                fmt::format("expected ' /' and the glosses after the pinyin but found {}", found_at(p, end)));
  }
  ++p;
  if (p == end || *p != '/') {
    if (!utf8::is_valid(line)) return fail_utf8(out, line);
    return fail(out, LineError::missing_glosses, line, p,
                fmt::format("expected '/' to open the glosses but found {}", found_at(p, end)));
  }
  ++p;
  for (;;) {
    const char* slash = scan_to(p, end, '/');
    if (slash == nullptr) return fail_utf8(out, line);
    if (slash == end) {
      const bool no_gloss = glosses.empty() && p == end;
      return fail(out, LineError::unterminated_glosses, line, end,
                  no_gloss ? "expected a gloss and '/' but found end of line"
                           : "expected '/' to close the last gloss but found end of line");
    }
    if (slash == p) {
      if (!utf8::is_valid(line)) return fail_utf8(out, line);
      return fail(out, LineError::empty_gloss, line, p, "expected a gloss but found '/' (an empty gloss)");
    }
    glosses.push_back({static_cast<std::uint32_t>(p - begin), static_cast<std::uint32_t>(slash - p)});
    p = slash + 1;
    if (p == end) break;
  }
  out.kind = LineKind::entry;
}

}  // namespace

void parse_line(std::string_view line, ParsedLine& out, std::vector<GlossSpan>& glosses) {
  glosses.clear();
  parse_entry_or_comment(line, out, glosses);
  if (out.kind == LineKind::malformed) glosses.clear();
}

}  // namespace bufstream::cedict
