#include <bufstream/cedict/line_parser.hpp>

#include "line_parser_detail.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>

#include <bufstream/kernels/cpu.hpp>

#if BUFSTREAM_KERNELS_X86_64
#include <emmintrin.h>
#endif

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

// The bytes of `x` (loaded from memory) that equal `c`, or are >= 0x80, have their high bit
// set in the result; the lowest such bit is exact ("Bit Twiddling Hacks": a borrow can only
// mark bytes above a true match).
inline std::uint64_t match_or_high(std::uint64_t x, std::uint64_t c_everywhere) noexcept {
  constexpr std::uint64_t ones = 0x0101010101010101ULL;
  constexpr std::uint64_t highs = 0x8080808080808080ULL;
  const std::uint64_t y = x ^ c_everywhere;
  return (((y - ones) & ~y) | x) & highs;
}

// Finds the first `c` in [p, end), validating the UTF-8 it passes; `end` if there is none;
// nullptr at invalid UTF-8. Blocks of 16 (SSE2) or 8 (any little-endian machine) bytes that
// hold neither `c` nor a non-ASCII byte are skipped whole, and a block that does tells where.
// Never reads at or beyond `end`.
inline const char* scan_to(const char* p, const char* end, char c) noexcept {
#if BUFSTREAM_KERNELS_X86_64
  const __m128i c16 = _mm_set1_epi8(c);
#endif
  const std::uint64_t c8 = 0x0101010101010101ULL * static_cast<unsigned char>(c);
  for (;;) {
#if BUFSTREAM_KERNELS_X86_64
    while (end - p >= 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
      const auto mask = static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, c16), v)));
      if (mask != 0) {
        p += std::countr_zero(mask);
        goto at_candidate;
      }
      p += 16;
    }
#endif
    if constexpr (std::endian::native == std::endian::little) {
      while (end - p >= 8) {
        std::uint64_t x;
        std::memcpy(&x, p, 8);
        if (const std::uint64_t m = match_or_high(x, c8); m != 0) {
          p += std::countr_zero(m) / 8;
          goto at_candidate;
        }
        p += 8;
      }
    }
    while (p != end && static_cast<unsigned char>(*p) < 0x80 && *p != c) ++p;
    if (p == end) return end;
  at_candidate:
    if (*p == c) return p;
    if ((p = skip_sequence(p, end)) == nullptr) return nullptr;
  }
}

#if BUFSTREAM_KERNELS_X86_64
// ---- The fastest path: short entry lines, classified sixteen bytes at a time ---------------
//
// Nearly every CC-CEDICT line is an entry of at most 128 bytes. For those, SSE2 compares turn
// the line into bit masks (spaces, slashes, ']', UTF-8 lead and continuation bytes), and the
// structure is read from the masks with bit scans instead of a branch per byte. Anything that
// is not a plain, valid entry is left to the byte-by-byte parser below, which then says what
// is wrong; so this path only has to accept exactly the valid lines, never to explain.

constexpr std::size_t short_line = 128;

// 128 bits, one per byte of the line.
struct Bits128 {
  std::uint64_t word[2];

  void place(unsigned block_bits, std::size_t at) noexcept {
    word[at / 64] |= static_cast<std::uint64_t>(block_bits) << (at % 64);
  }
  bool any() const noexcept { return (word[0] | word[1]) != 0; }
  // The first set bit at or after `from`, or 128.
  std::size_t first_from(std::size_t from) const noexcept {
    if (from < 64) {
      if (const std::uint64_t x = word[0] & (~std::uint64_t{0} << from); x != 0) {
        return static_cast<std::size_t>(std::countr_zero(x));
      }
      from = 64;
    }
    if (from < 128) {
      if (const std::uint64_t x = word[1] & (~std::uint64_t{0} << (from - 64)); x != 0) {
        return 64 + static_cast<std::size_t>(std::countr_zero(x));
      }
    }
    return 128;
  }
  // Every bit moved `k` (1 to 3) places up; bits moved past 127 are dropped.
  Bits128 shifted_up(unsigned k) const noexcept {
    Bits128 r{};
    r.word[0] = word[0] << k;
    r.word[1] = (word[1] << k) | (word[0] >> (64 - k));
    return r;
  }
  friend Bits128 operator|(Bits128 a, Bits128 b) noexcept { return {{a.word[0] | b.word[0], a.word[1] | b.word[1]}}; }
  friend bool operator==(const Bits128&, const Bits128&) = default;
};

// The classes of up to 64 bytes of a line, one bit per byte. Plain scalars, so that they live
// in registers (a zero-initialised array of masks became a `rep stos` costing a seventh of
// the parse).
struct WordMasks {
  std::uint64_t space = 0, slash = 0, close = 0;
  std::uint64_t high = 0;     // >= 0x80: part of a multi-byte sequence
  std::uint64_t lead = 0;     // >= 0xC0: starts one
  std::uint64_t lead3 = 0;    // >= 0xE0: starts one of three bytes or more
  std::uint64_t special = 0;  // C0 C1 E0 ED F0..FF: valid or not depending on more than the shape
                              // (and the rare four-byte sequences, checked one by one)

  // Adds the classes of the 16 bytes `v`; of them, only the top `keep` count, placed at `at`.
  void add(__m128i v, unsigned at, unsigned keep) noexcept {
    const auto eq = [&](int c) { return _mm_cmpeq_epi8(v, _mm_set1_epi8(static_cast<char>(c))); };
    const auto at_least = [&](int c) {  // unsigned v >= c
      return _mm_cmpeq_epi8(_mm_max_epu8(v, _mm_set1_epi8(static_cast<char>(c))), v);
    };
    const unsigned drop = 16 - keep;
    const auto bits = [&](__m128i x) {
      return static_cast<std::uint64_t>((static_cast<unsigned>(_mm_movemask_epi8(x)) & 0xFFFFu) >> drop) << at;
    };
    space |= bits(eq(' '));
    slash |= bits(eq('/'));
    close |= bits(eq(']'));
    const std::uint64_t h = bits(v);
    if (h == 0) return;
    high |= h;
    lead |= bits(at_least(0xC0));
    lead3 |= bits(at_least(0xE0));
    const __m128i c0_c1 = _mm_cmpeq_epi8(_mm_and_si128(v, _mm_set1_epi8(static_cast<char>(0xFE))),
                                         _mm_set1_epi8(static_cast<char>(0xC0)));
    special |= bits(_mm_or_si128(_mm_or_si128(c0_c1, eq(0xE0)), _mm_or_si128(eq(0xED), at_least(0xF0))));
  }
};

// Classifies line[begin, min(begin + 64, n)); `n >= 16`.
inline WordMasks classify(const char* line, std::size_t begin, std::size_t n) noexcept {
  WordMasks w;
  const std::size_t stop = std::min(begin + 64, n);
  std::size_t at = begin;
  for (; at + 16 <= stop; at += 16) {
    w.add(_mm_loadu_si128(reinterpret_cast<const __m128i*>(line + at)), static_cast<unsigned>(at - begin), 16);
  }
  // The last bytes: the sixteen that end this part, of which the ones not seen yet count.
  if (at < stop) {
    w.add(_mm_loadu_si128(reinterpret_cast<const __m128i*>(line + stop - 16)), static_cast<unsigned>(at - begin),
          static_cast<unsigned>(stop - at));
  }
  return w;
}

struct LineMasks {
  Bits128 space, slash, close, high, lead, lead3, special;

  LineMasks(const WordMasks& a, const WordMasks& b) noexcept
      : space{{a.space, b.space}},
        slash{{a.slash, b.slash}},
        close{{a.close, b.close}},
        high{{a.high, b.high}},
        lead{{a.lead, b.lead}},
        lead3{{a.lead3, b.lead3}},
        special{{a.special, b.special}} {}
};

// UTF-8 by shape: every continuation byte (10xxxxxx) is exactly where a lead byte says one
// must be. Lines holding a byte whose validity depends on its neighbour's value (overlong,
// surrogate, beyond U+10FFFF) or a four-byte sequence are checked one sequence at a time.
bool valid_utf8(const LineMasks& m, const char* line, std::size_t n) noexcept {
  if (!m.high.any()) return true;
  if (m.special.any()) {
    for (std::size_t at = m.high.first_from(0); at < n; at = m.high.first_from(at)) {
      const char* next = skip_sequence(line + at, line + n);
      if (next == nullptr) return false;
      at = static_cast<std::size_t>(next - line);
    }
    return true;
  }
  Bits128 continuation = m.high;
  continuation.word[0] &= ~m.lead.word[0];
  continuation.word[1] &= ~m.lead.word[1];
  // A sequence cut short by the end of the line expects a continuation at n - 1 at least,
  // where the caller requires the closing '/'; so none is missed by dropping bits past 127.
  return (m.lead.shifted_up(1) | m.lead3.shifted_up(2)) == continuation;
}

bool read_entry(const LineMasks& m, std::string_view line, ParsedLine& out, std::vector<GlossSpan>& glosses);

bool parse_short_entry(std::string_view line, ParsedLine& out, std::vector<GlossSpan>& glosses) {
  const char* const p = line.data();
  const std::size_t n = line.size();
  WordMasks low;
  if (n >= 16) {
    low = classify(p, 0, n);
  } else {
    alignas(16) char padded[16] = {};
    std::memcpy(padded, p, n);
    low.add(_mm_load_si128(reinterpret_cast<const __m128i*>(padded)), 0, 16);  // zeros match nothing
  }
  return read_entry(LineMasks(low, n > 64 ? classify(p, 64, n) : WordMasks{}), line, out, glosses);
}

// The entry of the masks `m` of `line`, or false if it is not a plain, valid one.
bool read_entry(const LineMasks& m, std::string_view line, ParsedLine& out, std::vector<GlossSpan>& glosses) {
  const char* const p = line.data();
  const std::size_t n = line.size();
  // Reads past a field stay below n - 1 or are guarded by a comparison with n first.
  const auto byte_at = [&](std::size_t i) { return i < n ? p[i] : '\0'; };
  if (p[n - 1] != '/') return false;
  const std::size_t t = m.space.first_from(0);  // after the traditional headword
  if (t == 0 || t >= n) return false;
  const std::size_t s = m.space.first_from(t + 1);  // after the simplified headword
  if (s == t + 1 || s >= n || byte_at(s + 1) != '[') return false;
  const std::size_t c = m.close.first_from(s + 2);  // the ']' closing the pinyin
  if (c >= n || byte_at(c + 1) != ' ' || byte_at(c + 2) != '/' || n - 1 <= c + 2) return false;
  if (!valid_utf8(m, p, n)) return false;
  for (std::size_t g = c + 3;;) {
    const std::size_t slash = m.slash.first_from(g);  // at most n - 1: the line ends with '/'
    if (slash == g) {
      glosses.clear();
      return false;
    }
    glosses.push_back({static_cast<std::uint32_t>(g), static_cast<std::uint32_t>(slash - g)});
    if (slash == n - 1) break;
    g = slash + 1;
  }
  out.kind = LineKind::entry;
  out.traditional = line.substr(0, t);
  out.simplified = line.substr(t + 1, s - t - 1);
  out.pinyin = line.substr(s + 2, c - s - 2);
  return true;
}
#endif

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

void parse_entry_or_comment(std::string_view line, ParsedLine& out, std::vector<GlossSpan>& glosses,
                            [[maybe_unused]] bool fast_path) {
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
    return fail(out, LineError::empty_line, line, begin, "expected an entry or a comment but found an empty line");
  }
  if (line.front() == '#') return parse_comment(line, out);
#if BUFSTREAM_KERNELS_X86_64
  if (fast_path && line.size() <= short_line && parse_short_entry(line, out, glosses)) return;
#endif
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
  parse_entry_or_comment(line, out, glosses, true);
  if (out.kind == LineKind::malformed) glosses.clear();
}

void detail::parse_line_bytewise(std::string_view line, ParsedLine& out, std::vector<GlossSpan>& glosses) {
  glosses.clear();
  parse_entry_or_comment(line, out, glosses, false);
  if (out.kind == LineKind::malformed) glosses.clear();
}

}  // namespace bufstream::cedict
