#include <bufstream/json/writer.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include <bufstream/kernels/byte_set.hpp>
#include <bufstream/kernels/escapes.hpp>
#include <bufstream/numbers.hpp>
#include <bufstream/utf8.hpp>

namespace bufstream::json {

namespace {

const char* state_name(bool is_array) { return is_array ? "array" : "object"; }

// The bytes a string's text cannot hold as they are: kernel byte sets, one scan each.
constexpr kernels::ByteSet escape_stops({'"', '\\'}, {.controls = true});
// ascii_only: DEL and every byte of a multi-byte sequence are escaped too.
constexpr kernels::ByteSet ascii_escape_stops({'"', '\\', '\x7f'},
                                              {.controls = true, .non_ascii = true});
constexpr kernels::ByteSet non_ascii_bytes({'\x80'}, {.non_ascii = true});
// How strings are escaped (kernels::escapes::write_escaped), without and with ascii_only.
constexpr kernels::escapes::OutputStyle escaped{&kernels::escapes::json, false, 0x80,
                                                &escape_stops};
constexpr kernels::escapes::OutputStyle escaped_ascii{&kernels::escapes::json, true, 0x80,
                                                      &ascii_escape_stops};
// The plain string's: an escape, or a byte above 127 (UTF-8 to validate); with ascii_only DEL too.
constexpr kernels::ByteSet plain_stops({'"', '\\'}, {.controls = true, .non_ascii = true});
constexpr kernels::ByteSet ascii_plain_stops({'"', '\\', '\x7f'},
                                             {.controls = true, .non_ascii = true});

}  // namespace

// Does a byte of `s` need an escape ('"', '\\', a control character), is a byte outside ASCII?
Writer::StringTraits Writer::classify(std::string_view s) noexcept {
  const char* const end = s.data() + s.size();
  return {escape_stops.find(s.data(), end) != end, non_ascii_bytes.find(s.data(), end) != end};
}

Writer::StringTraits Writer::checked_traits(std::string_view s, std::string_view what) {
  const StringTraits traits = classify(s);
  if (traits.non_ascii) {
    if (auto bad = utf8::find_invalid(s)) {
      throw bufstream::UsageError(fmt::format("json::Writer: {} with {} at byte {}", what,
                                              utf8::describe(bad->error), bad->offset));
    }
  }
  return traits;
}

Writer::Writer(WriteStream& out, WriteOptions options)
    : out_(out), options_(options), pretty_(options.indent > 0) {
  if (options_.json_lines && pretty_) {
    throw bufstream::UsageError("json::Writer: JSON Lines output cannot be indented");
  }
  if (options_.indent_char != ' ' && options_.indent_char != '\t') {
    throw bufstream::UsageError(
        fmt::format("json::Writer: indent_char must be ' ' or '\\t', not {}",
                    describe_byte(static_cast<unsigned char>(options_.indent_char))));
  }
}

void Writer::new_line(std::size_t level) {
  out_.write(line_end_bytes(options_.line_end));
  std::size_t left = level * options_.indent;  // indent_chars
  while (left > 0) {
    const std::size_t n = std::min<std::size_t>(left, 64);
    char* p = out_.reserve(n);
    std::memset(p, options_.indent_char, n);
    out_.commit(n);
    left -= n;
  }
}

void Writer::top_value_done() {
  if (options_.json_lines) {
    out_.write(line_end_bytes(options_.line_end));  // state_ stays `top`: the next line may follow
  } else {
    state_ = State::done;
  }
}

void Writer::misplaced_value() const {
  switch (state_) {
    case State::object_first:
    case State::object_next:
      throw bufstream::UsageError(
          "json::Writer: a value where an object key is due (call key() first)");
    case State::done:
      throw bufstream::UsageError(
          "json::Writer: a second top-level value (a document holds one; set json_lines to "
          "write one value per line)");
    default: throw bufstream::UsageError("json::Writer: a value is not allowed here");
  }
}

Writer& Writer::begin_container(State inside, char open) {
  before_value();
  // The parent's state after this container is the one before_value() left.
  stack_.push_back(state_);
  state_ = inside;
  out_.put(open);
  return *this;
}

Writer& Writer::begin_object() { return begin_container(State::object_first, '{'); }

Writer& Writer::end_container(bool is_array) {
  const bool in_array = state_ == State::array_first || state_ == State::array_next;
  const bool in_object = state_ == State::object_first || state_ == State::object_next;
  if (stack_.empty()) {
    throw bufstream::UsageError(fmt::format("json::Writer: end_{}() with no open {}",
                                            state_name(is_array), state_name(is_array)));
  }
  if (state_ == State::member_value) {
    throw bufstream::UsageError("json::Writer: end_object() after a key with no value");
  }
  if ((is_array && !in_array) || (!is_array && !in_object)) {
    throw bufstream::UsageError(fmt::format("json::Writer: end_{}() while an {} is open",
                                            state_name(is_array), state_name(!is_array)));
  }
  const bool empty = state_ == State::array_first || state_ == State::object_first;
  if (pretty_ && !empty) new_line(stack_.size() - 1);
  out_.put(is_array ? ']' : '}');
  state_ = stack_.back();
  stack_.pop_back();
  after_value();
  return *this;
}

Writer& Writer::end_object() { return end_container(false); }

Writer& Writer::key(std::string_view name) {
  // Every check comes before the first byte is written: a refused key leaves no trace.
  if (state_ == State::member_value) {
    throw bufstream::UsageError(
        fmt::format("json::Writer: key \"{}\" where the value of the previous key is due", name));
  }
  if (state_ != State::object_first && state_ != State::object_next) {
    throw bufstream::UsageError(fmt::format("json::Writer: key \"{}\" outside an object", name));
  }
  write_key(name, checked_traits(name, "key"));
  return *this;
}

void Writer::write_key(std::string_view name, StringTraits traits) {
  if (state_ == State::object_next) out_.put(',');
  if (pretty_) new_line(stack_.size());
  write_string(name, traits);
  if (pretty_) {
    out_.write(std::string_view(": ", 2));
  } else {
    out_.put(':');
  }
  state_ = State::member_value;
}

Writer& Writer::null() {
  before_value();
  out_.write(std::string_view("null", 4));
  after_value();
  return *this;
}

Writer& Writer::value(bool b) {
  before_value();
  out_.write(b ? std::string_view("true", 4) : std::string_view("false", 5));
  after_value();
  return *this;
}

void Writer::refuse_non_finite() const {
  if (options_.non_finite != NonFinite::write_null) {
    throw bufstream::UsageError(
        "json::Writer: JSON cannot represent NaN or infinity (set non_finite to write null)");
  }
}

void Writer::write_non_finite() {
  refuse_non_finite();
  null();
}

// value(double) when it is not an element after another in a compact array.
Writer& Writer::write_double(double d) {
  if (!std::isfinite(d)) [[unlikely]] {
    write_non_finite();
    return *this;
  }
  before_value();
  char* p = out_.reserve(max_double_chars);
  out_.commit(static_cast<std::size_t>(format_double(p, d, {.force_fraction = true}) - p));
  after_value();
  return *this;
}

Writer& Writer::value(float f) {
  if (!std::isfinite(f)) [[unlikely]] {
    write_non_finite();
    return *this;
  }
  before_value();
  char* p = out_.reserve(max_double_chars);
  char* end = std::to_chars(p, p + max_double_chars, f).ptr;
  if (std::find_if(p, end, [](char c) { return c == '.' || c == 'e'; }) == end) {
    *end++ = '.';
    *end++ = '0';
  }
  out_.commit(static_cast<std::size_t>(end - p));
  after_value();
  return *this;
}

// The common string, short and with nothing to escape or validate: checked by the kernel's
// byte set as it is copied with its quotes (and the ',' the position needs) into
// reserved room. Returns false having written and changed nothing when the string needs the
// general path (an escape, a byte above 126 under ascii_only, any byte above 127: UTF-8 to
// validate), when it is long, or when the position needs more than a comma (pretty output, a
// misplaced value).
bool Writer::write_plain_string(std::string_view s) {
  const std::size_t n = s.size();
  if (n > 256) return false;
  std::size_t separator = 0;
  State after = state_;
  switch (state_) {
    case State::array_next:
      if (pretty_) return false;
      separator = 1;
      break;
    case State::array_first:
      if (pretty_) return false;
      after = State::array_next;
      break;
    case State::member_value: after = State::object_next; break;
    case State::top: break;
    default: return false;
  }
  // Copied while it is checked; the room is given back (a scratch area over an unbuffered
  // stream) when a byte needs the general path.
  char* const room = out_.reserve(std::max<std::size_t>(n, 8) + 3);
  room[0] = ',';
  room[separator] = '"';
  const kernels::ByteSet& stops = options_.ascii_only ? ascii_plain_stops : plain_stops;
  if (stops.copy_finding_any(s.data(), n, room + separator + 1)) {
    out_.commit(0);
    return false;
  }
  room[separator + 1 + n] = '"';
  out_.commit(separator + n + 2);
  state_ = after;
  after_value();
  return true;
}

// value(std::string_view) for what write_plain_string leaves: escapes, UTF-8 to validate, long
// strings, pretty output, misplaced values.
Writer& Writer::write_string_general(std::string_view s) {
  const StringTraits traits = checked_traits(s, "string");
  before_value();
  write_string(s, traits);
  after_value();
  return *this;
}

// Writes `s` (valid UTF-8) quoted and escaped. Runs of bytes that need no escape are copied
// with one write each.
void Writer::write_string(std::string_view s, StringTraits traits) {
  // The common case, nothing to escape: one copy (for a short string, into reserved room).
  if (!traits.needs_escape && !options_.ascii_only) {
    if (s.size() <= 256) {
      char* out = out_.reserve(s.size() + 2);
      out[0] = '"';
      if (!s.empty()) std::memcpy(out + 1, s.data(), s.size());
      out[s.size() + 1] = '"';
      out_.commit(s.size() + 2);
    } else {
      out_.put('"');
      out_.write(s);
      out_.put('"');
    }
    return;
  }
  out_.put('"');
  kernels::escapes::write_escaped(out_, s, options_.ascii_only ? escaped_ascii : escaped);
  out_.put('"');
}

void Writer::finish() {
  if (!stack_.empty()) {
    const bool is_array = state_ == State::array_first || state_ == State::array_next;
    throw bufstream::UsageError(
        fmt::format("json::Writer: finish() with {} unclosed container{} (an {} is open)",
                    stack_.size(), stack_.size() == 1 ? "" : "s", state_name(is_array)));
  }
  if (state_ == State::top && !options_.json_lines) {
    throw bufstream::UsageError("json::Writer: finish() before any value was written");
  }
  out_.flush();
}

void Writer::close() {
  finish();
  out_.close();
}

}  // namespace bufstream::json
