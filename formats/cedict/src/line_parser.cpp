#include <bufstream/cedict/line_parser.hpp>

#include <bit>
#include <cstdint>
#include <limits>
#include <optional>

#include <bufstream/kernels/byte_pair.hpp>
#include <bufstream/kernels/byte_set.hpp>
#include <bufstream/kernels/structure_masks.hpp>

#include <bufstream/errors.hpp>
#include <bufstream/utf8.hpp>

#include <fmt/format.h>

namespace bufstream::cedict {

namespace {

// An entry line's UTF-8 is checked before its fields are looked at (a line with invalid UTF-8
// is reported as such, whatever else is wrong with it, where utf8::find_invalid says). A line
// of up to `masked_line` bytes (nearly every one) is classified at once by the kernel layer's
// structure classifier: its UTF-8 checked and its spaces and slashes found in one pass, which
// the parser then reads with bit scans; a longer line is validated, then searched with
// ByteSet.
constexpr std::size_t masked_line = 256;
constexpr std::size_t masked_words = masked_line / 64;
constexpr kernels::ByteSet space_byte{' '};
constexpr kernels::ByteSet close_byte{']'};
constexpr kernels::ByteSet slash_byte{'/'};

// The first bit at or after `from` of the masks `words` of `[begin, end)`, as a pointer; `end`
// if there is none (the masks have no bits past the text).
inline const char* next_bit(const std::uint64_t* words, const char* begin, const char* from,
                            const char* end) noexcept {
  if (from >= end) return end;
  const auto i = static_cast<std::size_t>(from - begin);
  const std::size_t last = (static_cast<std::size_t>(end - begin) - 1) / 64;
  std::size_t w = i / 64;
  std::uint64_t m = words[w] & (~std::uint64_t{0} << (i % 64));
  while (m == 0) {
    if (++w > last) return end;
    m = words[w];
  }
  return begin + 64 * w + std::countr_zero(m);
}

// Where the next space and slash of an entry line are: from its masks, or by search.
struct FieldEnds {
  const char* begin;
  const char* end;
  bool masked = false;
  std::uint64_t spaces[masked_words];
  std::uint64_t slashes[masked_words];

  const char* space(const char* from) const noexcept {
    return masked ? next_bit(spaces, begin, from, end) : space_byte.find(from, end);
  }
  const char* slash(const char* from) const noexcept {
    return masked ? next_bit(slashes, begin, from, end) : slash_byte.find(from, end);
  }
};

// Prepares `ends` for `line` and returns its first invalid UTF-8 sequence, if any.
std::optional<utf8::Invalid> classify_line(std::string_view line, FieldEnds& ends) noexcept {
  ends.begin = line.data();
  ends.end = line.data() + line.size();
  if (line.size() > masked_line) return utf8::find_invalid(line);
  static const kernels::structure::Classify classify =
      kernels::select(kernels::structure::classify_forms());
  ends.masked = true;
  const std::size_t valid =
      classify(line.data(), line.size(), kernels::BytePair(' ', '/'), ends.spaces, ends.slashes);
  // (The classifier leaves a sequence that the end cuts short to the text after; a line has none.)
  if (valid != line.size() ||
      kernels::structure::complete_prefix(line.data(), line.size()) != line.size()) {
    return utf8::find_invalid(line);
  }
  return std::nullopt;
}

// What was found at `p`, for a message: "' '", "'x'", "'好'", "end of line".
std::string found_at(const char* p, const char* end) {
  if (p == end) return "end of line";
  const auto b = static_cast<unsigned char>(*p);
  if (b < 0x80) return describe_byte(b);
  const std::size_t n = utf8::sequence_length(b);
  if (n != 0 && static_cast<std::size_t>(end - p) >= n)
    return fmt::format("'{}'", std::string_view(p, n));
  return describe_byte(b);
}

void fail(ParsedLine& out, LineError error, std::string_view line, const char* at,
          std::string message) {
  out.kind = LineKind::malformed;
  out.error = error;
  out.column = static_cast<std::size_t>(at - line.data()) + 1;
  out.message = std::move(message);
}

void fail_utf8(ParsedLine& out, std::string_view line, const utf8::Invalid& bad) {
  fail(out, LineError::invalid_utf8, line, line.data() + bad.offset,
       fmt::format("expected UTF-8 text but found {} ({})",
                   describe_byte(static_cast<unsigned char>(line[bad.offset])),
                   utf8::describe(bad.error)));
}

void parse_comment(std::string_view line, ParsedLine& out) {
  if (const auto bad = utf8::find_invalid(line)) return fail_utf8(out, line, *bad);
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

void parse_entry_or_comment(std::string_view line, ParsedLine& out,
                            std::vector<GlossSpan>& glosses) {
  // One field at a time: a chained assignment makes GCC store and reload the pairs (a
  // store-forwarding stall that cost a tenth of the parse).
  out.traditional = {};
  out.simplified = {};
  out.pinyin = {};
  out.key = {};
  out.value = {};
  out.error = LineError::none;
  out.column = 0;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  const char* const begin = line.data();
  const char* const end = begin + line.size();

  if (line.empty()) {
    return fail(out, LineError::empty_line, line, begin,
                "expected an entry or a comment but found an empty line");
  }
  if (line.front() == '#') return parse_comment(line, out);
  if (line.size() >= std::numeric_limits<std::uint32_t>::max()) {
    return fail(out, LineError::line_too_long, line, begin, "expected a line shorter than 4 GiB");
  }

  // TRADITIONAL ' '
  const char* p = begin;
  if (*p == ' ') {
    return fail(out, LineError::missing_traditional, line, p,
                "expected a traditional headword but found ' '");
  }
  FieldEnds ends;
  if (const auto bad = classify_line(line, ends)) return fail_utf8(out, line, *bad);
  const char* sp = ends.space(p);
  if (sp == end) {
    return fail(
        out, LineError::missing_simplified, line, sp,
        "expected ' ' and a simplified headword after the traditional one but found end of line");
  }
  out.traditional = {p, static_cast<std::size_t>(sp - p)};

  // SIMPLIFIED ' '
  p = sp + 1;
  if (p == end || *p == ' ') {
    return fail(out, LineError::missing_simplified, line, p,
                fmt::format("expected a simplified headword but found {}", found_at(p, end)));
  }
  sp = ends.space(p);
  if (sp == end) {
    return fail(out, LineError::missing_pinyin, line, sp,
                "expected ' [' and the pinyin after the simplified headword but found end of line");
  }
  out.simplified = {p, static_cast<std::size_t>(sp - p)};

  // '[' PINYIN ']'
  p = sp + 1;
  if (p == end || *p != '[') {
    return fail(out, LineError::missing_pinyin, line, p,
                fmt::format("expected '[' to open the pinyin but found {}", found_at(p, end)));
  }
  ++p;
  const char* close = close_byte.find(p, end);
  if (close == end) {
    return fail(out, LineError::unterminated_pinyin, line, close,
                "expected ']' to close the pinyin but found end of line");
  }
  out.pinyin = {p, static_cast<std::size_t>(close - p)};

  // ' ' '/' GLOSS ('/' GLOSS)* '/'
  p = close + 1;
  if (p == end || *p != ' ') {
    return fail(out, LineError::missing_glosses, line, p,
                fmt::format("expected ' /' and the glosses after the pinyin but found {}",
                            found_at(p, end)));
  }
  ++p;
  if (p == end || *p != '/') {
    return fail(out, LineError::missing_glosses, line, p,
                fmt::format("expected '/' to open the glosses but found {}", found_at(p, end)));
  }
  ++p;
  for (;;) {
    const char* slash = ends.slash(p);
    if (slash == end) {
      const bool no_gloss = glosses.empty() && p == end;
      return fail(out, LineError::unterminated_glosses, line, end,
                  no_gloss ? "expected a gloss and '/' but found end of line"
                           : "expected '/' to close the last gloss but found end of line");
    }
    if (slash == p) {
      return fail(out, LineError::empty_gloss, line, p,
                  "expected a gloss but found '/' (an empty gloss)");
    }
    glosses.push_back(
        {static_cast<std::uint32_t>(p - begin), static_cast<std::uint32_t>(slash - p)});
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
