// The json::Writer class itself. Include <bufstream/json/writer.hpp>, which adds the writing
// of standard and user types (write_json.hpp) and describes the writer.
#pragma once

#include <cmath>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include <bufstream/json/options.hpp>
#include <bufstream/numbers.hpp>
#include <bufstream/write_stream.hpp>

namespace bufstream::json {

/// Deprecated: a Writer used against its grammar throws bufstream::UsageError, as every misuse
/// of every format does.
using UsageError [[deprecated("use bufstream::UsageError")]] = bufstream::UsageError;

class Writer;
class Value;  // document.hpp
namespace detail {
struct DocumentData;  // document.hpp
}

/// Writes `value` with the overload of `write_json` that ADL finds (declared in
/// write_json.hpp for the standard types; users add their own next to their types).
template <class T>
void write_value(Writer& w, const T& value);

/// Writes JSON to any WriteStream, a container, key or value at a time, checked against JSON's
/// grammar. Include <bufstream/json/writer.hpp>, which describes it.
class Writer {
 public:
  /// Writes into `out`, which must outlive the writer. Throws UsageError for options that
  /// contradict each other (`json_lines` with `indent`) and an `indent_char` that is not ``' '``
  /// or ``'\t'``.
  explicit Writer(WriteStream& out, WriteOptions options = {});

  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  // ---- Containers ------------------------------------------------------------------------

  /// Writes `[`: the values that follow are the array's elements.
  Writer& begin_array() {
    // The common case inline (an array after an element of a compact array: a table's rows);
    // everything else, checks included, in begin_container.
    if (state_ == State::array_next && !pretty_) [[likely]] {
      char* p = out_.reserve(2);
      p[0] = ',';
      p[1] = '[';
      out_.commit(2);
      stack_.push_back(State::array_next);
      state_ = State::array_first;
      return *this;
    }
    return begin_container(State::array_first, '[');
  }
  /// Writes `]`, closing the innermost array.
  Writer& end_array() {
    // The common case inline: a compact array with elements, inside another array.
    if (state_ == State::array_next && !pretty_ && stack_.size() > 1) [[likely]] {
      out_.put(']');
      state_ = stack_.back();
      stack_.pop_back();
      return *this;
    }
    return end_container(true);
  }
  /// Writes `{`: keys and values follow, each key with its value.
  Writer& begin_object();
  /// Writes `}`, closing the innermost object.
  Writer& end_object();
  /// The key of the next member; the value follows with `value` or a container.
  Writer& key(std::string_view name);

  // ---- Values ----------------------------------------------------------------------------

  /// Writes `null`.
  Writer& null();
  /// Writes `null`.
  Writer& value(std::nullptr_t) { return null(); }
  /// Writes `true` or `false`.
  Writer& value(bool b);
  /// The shortest text that reads back as exactly `d`, always with a fraction or exponent
  /// (`1.0`, `0.1`, `1e+100`) so that it reads back as a floating-point number. NaN and the
  /// infinities follow `WriteOptions::non_finite`.
  Writer& value(double d) {
    // Inline: an element of a compact array (a table's cells), its comma (after the first)
    // and digits in one reserved room; everything else in write_double.
    if (in_compact_array() && std::isfinite(d)) [[likely]] {
      char* p = out_.reserve(1 + max_double_chars);
      p[0] = ',';  // overwritten by the number when no comma is due
      char* const end =
          format_double(p + (state_ == State::array_next ? 1 : 0), d, {.force_fraction = true});
      out_.commit(static_cast<std::size_t>(end - p));
      state_ = State::array_next;
      return *this;
    }
    return write_double(d);
  }
  /// As for double, with the shortest text that reads back as the same float.
  Writer& value(float f);
  /// A string: valid UTF-8, or UsageError is thrown (before anything is written).
  Writer& value(std::string_view s) {
    if (write_plain_string(s)) [[likely]]
      return *this;
    return write_string_general(s);
  }
  /// The same, for a C string.
  Writer& value(const char* s) { return value(std::string_view(s)); }
  /// The same, for a string.
  Writer& value(const std::string& s) { return value(std::string_view(s)); }
  /// A whole nlohmann::json value (written iteratively: any depth is fine). A binary or
  /// discarded value inside it throws UsageError, after what precedes it has been
  /// written; so does a string or key that is not valid UTF-8.
  Writer& value(const nlohmann::json& j);
  /// A value of a json::Document, and all it holds (written iteratively; document.hpp).
  Writer& value(const Value& v);
  /// Integers of every type exactly; anything else through `write_json` (see write_json.hpp).
  template <class T>
  Writer& value(const T& v) {
    if constexpr (std::is_same_v<T, char>) {
      static_assert(!std::is_same_v<T, char>, "a char is not a JSON value: write a string");
    } else if constexpr (std::is_integral_v<T>) {
      write_integer(v);
    } else {
      write_value(*this, v);
    }
    return *this;
  }

  /// `key(name)` then `value(v)`.
  template <class T>
  Writer& member(std::string_view name, const T& v) {
    key(name);
    return value(v);
  }

  // ---- Ending ----------------------------------------------------------------------------

  /// Checks that the document is complete (every container closed, and, outside JSON Lines
  /// mode, one value written) and flushes the stream. Throws UsageError or IoError.
  void finish();
  /// `finish()`, then closes the stream.
  void close();

  /// Arrays and objects open at this point.
  std::size_t depth() const noexcept { return stack_.size(); }
  /// The options the writer was made with.
  const WriteOptions& options() const noexcept { return options_; }
  /// The stream written to.
  WriteStream& stream() noexcept { return out_; }

 private:
  // Where the writer is in the grammar.
  enum class State : std::uint8_t {
    top,           // a top-level value is due
    done,          // the one top-level value has been written (not in JSON Lines mode)
    array_first,   // inside an array, no element yet
    array_next,    // inside an array, after an element
    object_first,  // inside an object, a key is due, no member yet
    object_next,   // inside an object, a key is due, after a member
    member_value,  // inside an object, after a key: its value is due
  };

  // Inside a compact array, where a value needs a comma before it or nothing.
  bool in_compact_array() const noexcept {
    return (state_ == State::array_next || state_ == State::array_first) && !pretty_;
  }

  // Writes what must precede a value (comma, line break and indent) or throws UsageError.
  void before_value() {
    switch (state_) {
      case State::array_next:
        if (!pretty_) {
          out_.put(',');
          return;
        }
        out_.put(',');
        new_line(stack_.size());
        return;
      case State::array_first:
        state_ = State::array_next;
        if (pretty_) new_line(stack_.size());
        return;
      case State::member_value: state_ = State::object_next; return;
      case State::top: return;
      default: misplaced_value();
    }
  }
  // Marks a top-level value as complete when nothing is open any more.
  void after_value() {
    if (stack_.empty()) top_value_done();
  }

  template <class T>
  void write_integer(T v) {
    if (in_compact_array()) [[likely]] {  // as in value(double)
      char* p = out_.reserve(1 + max_integer_chars);
      p[0] = ',';  // overwritten by the first digit when no comma is due
      char* const end = bufstream::format_integer(p + (state_ == State::array_next ? 1 : 0), v);
      out_.commit(static_cast<std::size_t>(end - p));
      state_ = State::array_next;
      return;
    }
    write_integer_general(v);
  }
  // Out of line: keeps write_integer small enough to be inlined into the caller's loop.
  template <class T>
  [[gnu::noinline]] void write_integer_general(T v) {
    before_value();
    char* p = out_.reserve(max_integer_chars);
    out_.commit(static_cast<std::size_t>(bufstream::format_integer(p, v) - p));
    after_value();
  }

  Writer& begin_container(State inside, char open);
  Writer& end_container(bool is_array);
  struct StringTraits {
    bool needs_escape;  // holds '"', '\\' or a control character
    bool non_ascii;     // holds a byte above 127
  };
  static StringTraits classify(std::string_view s) noexcept;
  // classify(s), after checking that `s` is UTF-8 (UsageError naming `what`).
  static StringTraits checked_traits(std::string_view s, std::string_view what);
  bool write_plain_string(std::string_view s);
  Writer& write_double(double d);
  Writer& write_string_general(std::string_view s);
  void write_string(std::string_view s, StringTraits traits);
  // The key `name` of the object being written (checked by the caller), and its ':'.
  void write_key(std::string_view name, StringTraits traits);
  void write_non_finite();
  // Throws unless options_.non_finite lets a non-finite double be written as null.
  void refuse_non_finite() const;
  // The compact text of a Document's nodes [first, end) (one whole value), placed after
  // before_value() by value(const Value&).
  void write_document_compact(const detail::DocumentData& d, std::size_t first, std::size_t end);
  void new_line(std::size_t level);
  void top_value_done();
  [[noreturn]] void misplaced_value() const;

  WriteStream& out_;
  WriteOptions options_;
  bool pretty_;
  State state_ = State::top;
  // The state to return to when each open container ends.
  std::vector<State> stack_;
};

/// An event handler (events.hpp) that writes each event with a Writer: `reader.parse(h)`
/// copies the reader's next value to the writer, in the writer's layout, in constant memory
/// (what `bufstream fmt` does).
class EventWriter {
 public:
  /// Writes the events it receives with `out`, which must outlive it.
  explicit EventWriter(Writer& out) noexcept : out_(out) {}
  /// @{
  /// Writes the event with the Writer.
  void null() { out_.null(); }
  void boolean(bool b) { out_.value(b); }
  void integer(std::int64_t i) { out_.value(i); }
  void unsigned_integer(std::uint64_t u) { out_.value(u); }
  void floating(double d) { out_.value(d); }
  void string(std::string_view s) { out_.value(s); }
  void key(std::string_view k) { out_.key(k); }
  void begin_array() { out_.begin_array(); }
  void end_array() { out_.end_array(); }
  void begin_object() { out_.begin_object(); }
  void end_object() { out_.end_object(); }
  /// @}

 private:
  Writer& out_;
};

}  // namespace bufstream::json
