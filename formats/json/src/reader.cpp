#include <bufstream/json/reader.hpp>

#include <bufstream/items_left.hpp>

#include <algorithm>

#include <fmt/format.h>

#include <bufstream/kernels/byte_set.hpp>
#include <bufstream/kernels/escapes.hpp>
#include <bufstream/utf8.hpp>

namespace bufstream::json {

namespace {

constexpr int as_byte(char c) noexcept { return static_cast<unsigned char>(c); }

// Where a run of bytes that a string holds as they are ends: at '"', '\\', a control byte or a
// byte of a multi-byte UTF-8 sequence (validated on its own).
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

Reader::Reader(ReadStream& in, ReadOptions options) : in_(in), options_(std::move(options)) {}

SourcePosition Reader::position() const noexcept { return lines_.at(in_.position()); }

std::optional<std::uint64_t> Reader::estimated_elements_left(std::uint64_t start,
                                                             std::size_t count) const {
  if (failure_) return std::nullopt;
  return estimate_items_left(in_, start, count);
}

void Reader::fail_at(std::uint64_t offset, std::string message) {
  ParseError error(lines_.at(offset), std::move(message), options_.source_name);
  failure_ = std::make_exception_ptr(error);
  throw error;
}

void Reader::fail_at_token(std::string message) { fail_at(token_start_, std::move(message)); }

// Every refill goes through here: a read error fails the reader like a parse error does, so
// that a later call throws it again instead of parsing on from the middle of a value.
std::string_view Reader::fill(std::size_t n) {
  try {
    return in_.fill(n);
  } catch (const IoError&) {
    failure_ = std::current_exception();
    throw;
  }
}

void Reader::fail_expected(std::string_view expected, int found) {
  fail_at(in_.position(), fmt::format("expected {} but found {}", expected, describe_byte(found)));
}

int Reader::skip_whitespace() {
  for (;;) {
    const char* p = in_.cursor();
    const char* const end = in_.limit();
    while (p != end) {
      const char c = *p;
      if (c == ' ' || c == '\t' || c == '\r') {
        ++p;
      } else if (c == '\n') {
        ++p;
        lines_.new_line(offset_of(p));
      } else {
        in_.set_cursor(p);
        // A byte-order mark can only be at the very start, and no value starts with 0xEF:
        // the check costs nothing on valid input.
        if (c == '\xEF' && options_.skip_bom && in_.position() == 0 &&
            fill(3).starts_with("\xEF\xBB\xBF")) {
          in_.advance(3);
          break;
        }
        return as_byte(c);
      }
    }
    if (p == end) {
      in_.set_cursor(p);
      if (fill(1).empty()) return -1;
    }
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
  token_start_ = in_.position();
  const std::string_view w = fill(literal.size());
  for (std::size_t i = 0; i < literal.size(); ++i) {
    if (i >= w.size() || w[i] != literal[i]) {
      fail_at(token_start_ + i,
              fmt::format("expected '{}' but found {}", literal, describe_byte(byte_at(w, i))));
    }
  }
  in_.advance(literal.size());
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
  read_string(text_);
  return text_;
}

void Reader::read_string(std::string& out) {
  const int c = next_significant();
  token_start_ = in_.position();
  if (c != '"') fail_expected("a string", c);
  in_.advance(1);
  out.clear();
  read_string_body(out);
}

// Appends the decoded content of a string whose opening quote has been consumed, and
// consumes the closing quote. Runs of plain bytes are found in the window and copied at once.
void Reader::read_string_body(std::string& out) {
  for (;;) {
    const char* const run = in_.cursor();
    const char* const end = in_.limit();
    const char* p = string_stops.find(run, end);
    out.append(run, static_cast<std::size_t>(p - run));
    in_.set_cursor(p);
    if (p == end) {
      if (fill(1).empty()) fail_expected("'\"' to end the string", -1);
      continue;
    }
    const int c = as_byte(*p);
    if (c == '"') {
      in_.advance(1);
      return;
    }
    if (c == '\\') {
      read_escape(out);
    } else if (c < 0x20) {
      fail_expected("'\"' or a string character (control characters must be escaped)", c);
    } else {
      read_non_ascii(out);
    }
  }
}

void Reader::read_non_ascii(std::string& out) {
  const auto lead = static_cast<unsigned char>(*in_.cursor());
  const std::string_view w = fill(std::max<std::size_t>(utf8::sequence_length(lead), 1));
  const utf8::Decoded d = utf8::decode(w.data(), w.data() + w.size());
  if (d.error != utf8::Error::none) {
    fail_at(in_.position(), utf8::describe_invalid_byte(lead, d.error));
  }
  out.append(w.data(), d.length);
  in_.advance(d.length);
}

void Reader::read_escape(std::string& out) {
  const std::uint64_t at = in_.position();  // of the backslash
  std::string_view w = fill(2);
  const int letter = byte_at(w, 1);
  if (letter != 'u') {
    const int decoded = kernels::escapes::short_unescape(letter, kernels::escapes::json);
    if (decoded < 0) {
      fail_at(at + 1, kernels::escapes::describe_bad_escape(letter, kernels::escapes::json));
    }
    out.push_back(static_cast<char>(decoded));
    in_.advance(2);
    return;
  }
  w = fill(kernels::escapes::max_u_length);
  const kernels::escapes::Decoded d = kernels::escapes::decode_u(w);
  if (d.error != kernels::escapes::Decoded::Error::none) {
    fail_at(at + d.at, kernels::escapes::describe(d, w));
  }
  char bytes[4];
  const char* end = utf8::encode(d.code_point, bytes);
  out.append(bytes, static_cast<std::size_t>(end - bytes));
  in_.advance(d.at);
}

// ---- Containers ----------------------------------------------------------------------------

void Reader::enter(char open) {
  token_start_ = in_.position();
  if (depth_ >= options_.max_depth) {
    fail_at(token_start_, fmt::format("expected at most {} nested arrays and objects but found "
                                      "'{}' at depth {}",
                                      options_.max_depth, open, depth_ + 1));
  }
  in_.advance(1);
  ++depth_;
  first_ = true;
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
  token_start_ = in_.position();
  if (c == ']') {
    in_.advance(1);
    --depth_;
    first_ = false;
    return false;
  }
  if (first_) {  // the element itself says what it found if it is not a value
    first_ = false;
    return true;
  }
  if (c != ',') fail_expected("',' or ']'", c);
  in_.advance(1);
  return true;
}

void Reader::end_array() {
  const int c = next_significant();
  token_start_ = in_.position();
  if (c != ']') fail_expected("']'", c);
  in_.advance(1);
  --depth_;
  first_ = false;
}

std::optional<std::string_view> Reader::next_key() {
  int c = next_significant();
  token_start_ = in_.position();
  if (c == '}') {
    in_.advance(1);
    --depth_;
    first_ = false;
    return std::nullopt;
  }
  if (first_) {
    first_ = false;
    if (c != '"') fail_expected("a string key or '}'", c);
  } else {
    if (c != ',') fail_expected("',' or '}'", c);
    in_.advance(1);
    c = next_significant();
    token_start_ = in_.position();
    if (c != '"') fail_expected("a string key", c);
  }
  in_.advance(1);
  key_.clear();
  read_string_body(key_);
  c = next_significant();
  if (c != ':') fail_expected("':' after the key", c);
  in_.advance(1);
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
