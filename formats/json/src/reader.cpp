#include <bufstream/json/reader.hpp>

#include <bufstream/items_left.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>

#include <fmt/format.h>

#include <bufstream/kernels/byte_set.hpp>
#include <bufstream/kernels/escapes.hpp>
#include <bufstream/kernels/structure_masks.hpp>
#include <bufstream/kernels/token_masks.hpp>
#include <bufstream/utf8.hpp>

#include "reader_index.hpp"

namespace bufstream::json {

namespace {

constexpr int as_byte(char c) noexcept { return static_cast<unsigned char>(c); }

// Where a run of bytes that a string holds as they are ends, when no token masks cover it: at
// '"', '\\', a control byte or a non-ASCII byte.
constexpr kernels::ByteSet string_stops({'"', '\\'}, {.controls = true, .non_ascii = true});

int byte_at(std::string_view w, std::size_t i) { return i < w.size() ? as_byte(w[i]) : -1; }

struct SkipHandler {
  void null() {}
  void boolean(bool) {}
  void integer(std::int64_t) {}
  void unsigned_integer(std::uint64_t) {}
  void floating(double) {}
  void string(std::string_view) {}
  void key(std::string_view) {}
  void begin_array() {}
  void end_array() {}
  void begin_object() {}
  void end_object() {}
};

}  // namespace

// The token masks of the window's bytes [base, end), which are the stream's bytes from offset
// `offset` on: at most 1 KiB from where the cursor was when they were made, so that a value
// that ends sooner (a line of JSON Lines) costs little more than its own bytes.
struct Reader::Scan {
  static constexpr std::size_t blocks = 16;
  const char* base = nullptr;
  const char* end = nullptr;
  std::uint64_t offset = 0;
  kernels::tokens::BlockMasks masks[blocks];
};

Reader::Reader(ReadStream& in, ReadOptions options)
    : s_{.in = in, .options = std::move(options)}, scan_(std::make_unique<Scan>()) {}

Reader::~Reader() = default;

namespace {

const kernels::tokens::Scan scan_best = kernels::select(kernels::tokens::scan_forms());

// How many bits `bits` has: most runs of whitespace hold one line feed at most, and
// std::popcount is a library call on x86-64 without POPCNT.
int count_line_feeds(std::uint64_t bits) noexcept {
  return (bits & (bits - 1)) == 0 ? 1 : std::popcount(bits);
}

}  // namespace

// The masks hold while the cursor is among the bytes they were made of: at the same stream
// offset (a refill may have put other bytes at the same address) and still in the window.
inline bool Reader::scan_covers_cursor() const noexcept {
  const Scan& s = *scan_;
  const auto i =
      reinterpret_cast<std::uintptr_t>(s_.in.cursor()) - reinterpret_cast<std::uintptr_t>(s.base);
  return i < static_cast<std::size_t>(s.end - s.base) && s.offset + i == s_.in.position() &&
         s.end <= s_.in.limit();
}

inline const Reader::Scan& Reader::scanned() {
  if (scan_covers_cursor()) [[likely]]
    return *scan_;
  return rescan();
}

const Reader::Scan& Reader::rescan() {
  Scan& s = *scan_;
  const char* const p = s_.in.cursor();
  const std::size_t size = std::min(static_cast<std::size_t>(s_.in.limit() - p), 64 * Scan::blocks);
  scan_best(p, size, s.masks);
  s.base = p;
  s.end = p + size;
  s.offset = s_.in.position();
  return s;
}

// The first byte from the cursor on that is not whitespace, or the end of the scanned bytes;
// the line feeds before it are counted, or, after a run whose bytes are not counted yet, left
// to that count (the whitespace between JSON Lines values read by runs costs no count).
inline const char* Reader::skip_scanned_whitespace() {
  const Scan& s = scanned();
  const auto size = static_cast<std::size_t>(s.end - s.base);
  for (auto i = static_cast<std::size_t>(s_.in.cursor() - s.base);;) {
    const std::size_t b = i / 64;
    const std::uint64_t from = ~std::uint64_t{0} << (i % 64);
    const std::uint64_t stops = ~s.masks[b].whitespace & from;
    // The bytes before the first stop (all of them if there is none).
    const std::uint64_t run = ~stops & (stops - 1);
    const std::uint64_t line_feeds = s.masks[b].line_feed & from & run;
    if (line_feeds != 0 && uncounted_ == nullptr) {
      const auto last = static_cast<std::uint64_t>(63 - std::countl_zero(line_feeds));
      lines_.new_lines(static_cast<std::uint64_t>(count_line_feeds(line_feeds)),
                       s.offset + 64 * b + last + 1);
    }
    if (stops != 0) return s.base + 64 * b + std::countr_zero(stops);
    i = 64 * (b + 1);
    if (i >= size) return s.end;
  }
}

SourcePosition Reader::position() const noexcept {
  count_lines();
  return lines_.at(s_.in.position());
}

SourcePosition Reader::token_position() const noexcept {
  count_lines();
  return lines_.at(s_.token_start);
}

std::optional<std::uint64_t> Reader::estimated_elements_left(std::uint64_t start,
                                                             std::size_t count) const {
  if (s_.failure) return std::nullopt;
  return estimate_items_left(s_.in, start, count);
}

void Reader::fail_at(std::uint64_t offset, std::string message) {
  count_lines();
  ParseError error(lines_.at(offset), std::move(message), s_.options.source_name);
  s_.failure = std::make_exception_ptr(error);
  throw error;
}

void Reader::fail_at_token(std::string message) { fail_at(s_.token_start, std::move(message)); }

// Every refill goes through here: a read error fails the reader like a parse error does, so
// that a later call throws it again instead of parsing on from the middle of a value.
template <class F>
decltype(auto) Reader::reading(F&& f) {
  try {
    return f();
  } catch (const IoError&) {
    s_.failure = std::current_exception();
    throw;
  }
}

std::string_view Reader::fill(std::size_t n) {
  flush_lines();  // before the window moves
  return reading([&] { return s_.in.fill(n); });
}

void Reader::fail_expected(std::string_view expected, int found) {
  fail_at(s_.in.position(),
          fmt::format("expected {} but found {}", expected, describe_byte(found)));
}

int Reader::skip_whitespace() {
  for (;;) {
    if (s_.in.cursor() == s_.in.limit()) {
      if (fill(1).empty()) return -1;
      continue;
    }
    const char c0 = *s_.in.cursor();
    // One space before a token (after ':' or ',' in most pretty-printed JSON), or one line
    // feed (between JSON Lines values): nothing to scan.
    if ((c0 == ' ' || c0 == '\n') && s_.in.limit() - s_.in.cursor() >= 2 &&
        static_cast<signed char>(s_.in.cursor()[1]) > ' ') {
      // (After a run whose bytes are not counted yet, the line feed joins them.)
      if (c0 == '\n' && uncounted_ == nullptr) lines_.new_line(s_.in.position() + 1);
      s_.in.advance(1);
      return as_byte(*s_.in.cursor());
    }
    // No whitespace (the first byte of a refilled window, most often): nothing to scan.
    if (detail::is_whitespace(c0)) {
      const char* const p = skip_scanned_whitespace();
      s_.in.set_cursor(p);
      if (p == scan_->end) continue;  // whitespace up to there: scan on, or refill
    }
    const char c = *s_.in.cursor();
    // A byte-order mark can only be at the very start, and no value starts with 0xEF: the
    // check costs nothing on valid input.
    if (c == '\xEF' && s_.options.skip_bom && s_.in.position() == 0 &&
        reading([this] { return utf8::skip_bom(s_.in); })) {
      continue;
    }
    return as_byte(c);
  }
}

void Reader::finish() {
  const int c = next_significant();
  if (c >= 0) fail_expected("end of input", c);
}

ValueType Reader::peek() {
  const int c = next_significant();
  switch (c) {
    case '[': return ValueType::array;
    case '{': return ValueType::object;
    case '"': return ValueType::string;
    case 't':
    case 'f': return ValueType::boolean;
    case 'n': return ValueType::null;
    case '-':
    case '0':
    case '1':
    case '2':
    case '3':
    case '4':
    case '5':
    case '6':
    case '7':
    case '8':
    case '9': return ValueType::number;
    default: fail_expected("a value", c);
  }
}

void Reader::skip_value() {
  SkipHandler skip;
  parse(skip);
}

// ---- Literals ------------------------------------------------------------------------------

void Reader::read_literal(std::string_view literal) {
  s_.token_start = s_.in.position();
  const std::string_view w = fill(literal.size());
  for (std::size_t i = 0; i < literal.size(); ++i) {
    if (i >= w.size() || w[i] != literal[i]) {
      fail_at(s_.token_start + i,
              fmt::format("expected '{}' but found {}", literal, describe_byte(byte_at(w, i))));
    }
  }
  s_.in.advance(literal.size());
}

void Reader::read_null() {
  const int c = next_significant();
  if (c != 'n') fail_expected("null", c);
  read_literal("null");
}

bool Reader::skip_null() {
  if (next_significant() != 'n') return false;
  read_literal("null");
  return true;
}

bool Reader::read_bool() {
  const int c = next_significant();
  if (c == 't') {
    read_literal("true");
    return true;
  }
  if (c != 'f') fail_expected("true or false", c);
  read_literal("false");
  return false;
}

// ---- Numbers: reader_numbers.cpp -------------------------------------------------------

// ---- Strings -------------------------------------------------------------------------------

std::string_view Reader::read_string() {
  const int c = next_significant();
  s_.token_start = s_.in.position();
  if (c != '"') fail_expected("a string", c);
  s_.in.advance(1);
  return read_string_content(text_);
}

// The content of a string whose opening quote has been consumed, and consumes the closing
// quote: a view of the window when the string lies there whole without escapes (most do), so
// that it is not copied; otherwise decoded into `out`.
std::string_view Reader::read_string_content(std::string& out) {
  out.clear();
  const char* const run = s_.in.cursor();
  if (run == s_.in.limit()) {
    read_string_body(out);
    return out;
  }
  const char* stop;
  if (scan_covers_cursor()) {
    const ScannedRun r = scanned_string_run();
    stop = run + r.length;
    if (r.at_stop && *stop == '"') {
      s_.in.set_cursor(stop + 1);
      return {run, r.length};
    }
  } else {
    stop = string_stops.find(run, s_.in.limit());
    if (stop != s_.in.limit() && *stop == '"') {
      s_.in.set_cursor(stop + 1);
      return {run, static_cast<std::size_t>(stop - run)};
    }
  }
  out.assign(run, stop);
  s_.in.set_cursor(stop);
  read_string_body(out);
  return out;
}

void Reader::read_string(std::string& out) {
  const int c = next_significant();
  s_.token_start = s_.in.position();
  if (c != '"') fail_expected("a string", c);
  s_.in.advance(1);
  out.clear();
  read_string_body(out);
}

// Appends the decoded content of a string whose opening quote has been consumed, and
// consumes the closing quote. Runs of plain bytes are found with the token masks and copied
// at once.
void Reader::read_string_body(std::string& out) {
  for (;;) {
    if (s_.in.cursor() == s_.in.limit()) {
      if (fill(1).empty()) fail_expected("'\"' to end the string", -1);
      continue;
    }
    if (!scan_covers_cursor()) {
      // Compact JSON (no whitespace skipped, so no masks made) with ASCII strings: a search
      // of the string alone costs less than classifying every byte. A non-ASCII byte goes on
      // to the masks, which validate the run it is in at once.
      const char* const run = s_.in.cursor();
      const char* const p = string_stops.find(run, s_.in.limit());
      out.append(run, static_cast<std::size_t>(p - run));
      s_.in.set_cursor(p);
      if (p == s_.in.limit()) continue;
      const int c = as_byte(*p);
      if (c == '"') {
        s_.in.advance(1);
        return;
      }
      if (c == '\\') {
        read_escape(out);
        continue;
      }
      if (c < 0x20)
        fail_expected("'\"' or a string character (control characters must be escaped)", c);
    }
    if (!read_scanned_string_run(out)) {
      // The end of the scanned bytes (scan on, or refill), or a non-ASCII sequence that is
      // invalid (read_non_ascii says how) or goes on past the window.
      if (s_.in.cursor() != scan_->end) read_non_ascii(out);
      continue;
    }
    const int c = as_byte(*s_.in.cursor());
    if (c == '"') {
      s_.in.advance(1);
      return;
    }
    if (c == '\\') {
      read_escape(out);
    } else {
      fail_expected("'\"' or a string character (control characters must be escaped)", c);
    }
  }
}

// Appends the bytes from the cursor up to the first quote, backslash or control byte (true:
// the cursor is left there), or up to the end of the scanned bytes or a non-ASCII sequence
// that is invalid or cut short there (false). Their UTF-8 is validated as one run.
bool Reader::read_scanned_string_run(std::string& out) {
  const ScannedRun r = scanned_string_run();
  out.append(s_.in.cursor(), r.length);
  s_.in.advance(r.length);
  return r.at_stop;
}

// How many bytes from the cursor read_scanned_string_run takes, and whether a quote,
// backslash or control byte comes right after them.
inline Reader::ScannedRun Reader::scanned_string_run() {
  const Scan& s = scanned();
  const char* const run = s_.in.cursor();
  const auto size = static_cast<std::size_t>(s.end - s.base);
  const char* stop = s.end;
  std::uint64_t non_ascii = 0;
  for (auto i = static_cast<std::size_t>(run - s.base);;) {
    const std::size_t b = i / 64;
    const std::uint64_t from = ~std::uint64_t{0} << (i % 64);
    const std::uint64_t stops = s.masks[b].string_stop & from;
    non_ascii |= s.masks[b].non_ascii & from & ~stops & (stops - 1);
    if (stops != 0) {
      stop = s.base + 64 * b + std::countr_zero(stops);
      break;
    }
    i = 64 * (b + 1);
    if (i >= size) break;
  }
  auto n = static_cast<std::size_t>(stop - run);
  if (non_ascii != 0) {
    // A sequence cut short by the end of the scanned bytes is left to read_non_ascii, which
    // sees the bytes after them.
    const std::size_t whole = stop == s.end ? kernels::structure::complete_prefix(run, n) : n;
    const std::optional<utf8::Invalid> bad = utf8::find_invalid({run, whole});
    n = bad ? bad->offset : whole;
  }
  return {n, run + n == stop && stop != s.end};
}

void Reader::read_non_ascii(std::string& out) {
  const auto lead = static_cast<unsigned char>(*s_.in.cursor());
  const std::string_view w = fill(std::max<std::size_t>(utf8::sequence_length(lead), 1));
  const utf8::Decoded d = utf8::decode(w.data(), w.data() + w.size());
  if (d.error != utf8::Error::none) {
    fail_at(s_.in.position(), utf8::describe_invalid_byte(lead, d.error));
  }
  out.append(w.data(), d.length);
  s_.in.advance(d.length);
}

void Reader::read_escape(std::string& out) {
  const std::uint64_t at = s_.in.position();  // of the backslash
  auto bad =
      reading([&] { return kernels::escapes::read_escape(s_.in, out, kernels::escapes::json); });
  if (bad) fail_at(at + bad->at, std::move(bad->message));
}

// ---- Containers ----------------------------------------------------------------------------

void Reader::enter(char open) {
  s_.token_start = s_.in.position();
  if (s_.depth >= s_.options.max_depth) {
    fail_at(s_.token_start, fmt::format("expected at most {} nested arrays and objects but found "
                                        "'{}' at depth {}",
                                        s_.options.max_depth, open, s_.depth + 1));
  }
  s_.in.advance(1);
  ++s_.depth;
  s_.first = true;
}

void Reader::begin_array_slow() {
  const int c = next_significant();
  if (c != '[') fail_expected("'['", c);
  enter('[');
}

void Reader::begin_object() {
  const int c = next_significant();
  if (c != '{') fail_expected("'{'", c);
  enter('{');
}

bool Reader::next_element_slow() {
  const int c = next_significant();
  s_.token_start = s_.in.position();
  if (c == ']') {
    s_.in.advance(1);
    --s_.depth;
    s_.first = false;
    return false;
  }
  if (s_.first) {  // the element itself says what it found if it is not a value
    s_.first = false;
    return true;
  }
  if (c != ',') fail_expected("',' or ']'", c);
  s_.in.advance(1);
  return true;
}

void Reader::end_array() {
  const int c = next_significant();
  s_.token_start = s_.in.position();
  if (c != ']') fail_expected("']'", c);
  s_.in.advance(1);
  --s_.depth;
  s_.first = false;
}

std::optional<std::string_view> Reader::next_key() {
  int c = next_significant();
  s_.token_start = s_.in.position();
  if (c == '}') {
    s_.in.advance(1);
    --s_.depth;
    s_.first = false;
    return std::nullopt;
  }
  if (s_.first) {
    s_.first = false;
    if (c != '"') fail_expected("a string key or '}'", c);
  } else {
    if (c != ',') fail_expected("',' or '}'", c);
    s_.in.advance(1);
    c = next_significant();
    s_.token_start = s_.in.position();
    if (c != '"') fail_expected("a string key", c);
  }
  s_.in.advance(1);
  const std::string_view key = read_string_content(key_);
  // The ':' right after the key, as in most JSON: the view (of the window, or of key_) holds.
  const char* const p = s_.in.cursor();
  if (p != s_.in.limit() && *p == ':') [[likely]] {
    s_.in.advance(1);
    return key;
  }
  // Whitespace first, which may end the window: a refill would take a view of it away.
  if (key.data() != key_.data()) key_.assign(key);
  c = next_significant();
  if (c != ':') fail_expected("':' after the key", c);
  s_.in.advance(1);
  return std::string_view(key_);
}

namespace detail {

void fail_element_count(Reader& r, std::size_t expected, std::size_t found, bool more) {
  if (more)
    r.fail_at_token(fmt::format("expected an array of {} elements but found more", expected));
  r.fail_at_token(fmt::format("expected an array of {} elements but found {}", expected, found));
}

void fail_missing_member(Reader& r, std::string_view name) {
  r.fail_at_token(fmt::format("expected member \"{}\" but found the end of the object", name));
}

}  // namespace detail

}  // namespace bufstream::json
