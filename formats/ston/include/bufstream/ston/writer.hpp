// STON writer: Values (or a stream of calls) into any WriteStream.
//
//     bufstream::StringWriteStream out;
//     ston::Writer writer(out, {.indent = 1});   // pretty: a tab per level, as Pharo writes
//     writer.write(doc.root());                // a whole value, sharing and cycles included
//
//     writer.begin_list();                     // or piece by piece, with nothing built first
//     writer.value(1); writer.value("two"); writer.symbol("three");
//     writer.end_list();
//
// Layout (STON.md), named as in every format (bufstream/format_options.hpp): `indent` 0, the
// default, is compact, with no whitespace at all: `{#a:1,#b:[1,2]}`. Pretty (`indent` N > 0)
// puts N `indent_char`s (tabs by default: `{.indent = 1}` is Pharo's layout) per nesting level,
// a line break after `[`/`{` and after each `,`, a line break before the closing bracket,
// `key : value`, `[ ]`/`{ }` when empty and a space between a tag and its body.
// Tags that Pharo writes as a short list (Point, Float, Character, ByteArray, Date, Time, ...;
// see `WriteOptions::short_list_tags`) stay on one line in pretty layout: `Point [ 1, 2 ]`.
//
// References: containers are tracked by identity. Under ReferencePolicy::normal a container
// met again is written `@N`, N counting every list, map and tagged object of the top-level value
// in the order written (pre-order, as the reader numbers them); numbering restarts with each
// top-level value. Several top-level values are separated by `line_end`.
//
// The writer never flushes: call `flush()` or `close()` on the stream. Write failures of the
// stream propagate as IoError; values that cannot be written under the options, and calls out of
// order, throw bufstream::UsageError naming the value, and the output is then incomplete.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <bufstream/errors.hpp>
#include <bufstream/format_options.hpp>
#include <bufstream/ston/document.hpp>
#include <bufstream/write_stream.hpp>

namespace bufstream::ston {

/// What the writer does when it meets a container it has already written.
enum class ReferencePolicy : std::uint8_t {
  normal,  ///< write a reference `@N` (shared and cyclic structure round-trips)
  error,   ///< throw UsageError: the value must be a tree
  ignore,  ///< write the container again (sharing is lost); a cycle throws UsageError instead of
           ///< writing forever
};

/// The options of ston::Writer (and ston::to_string).
struct WriteOptions {
  /// 0: compact. N > 0: pretty, N `indent_char`s per nesting level.
  std::size_t indent = 0;
  /// What indents: ``'\t'`` (the default, as Pharo's STONWriter) or ``' '`` (anything else is a
  /// UsageError).
  char indent_char = '\t';
  /// Line end of the pretty layout and between top-level values.
  LineEnd line_end = LineEnd::lf;
  /// Escape every code point above 126 as `\uXXXX` (surrogate pairs above U+FFFF).
  bool ascii_only = false;
  /// What is written for a container met again (see ReferencePolicy).
  ReferencePolicy references = ReferencePolicy::normal;
  /// Containers and associations nested deeper than this throw UsageError (a reference chain
  /// or an accidental deep graph). The writer does not recurse: any limit is safe for the
  /// stack. The default equals ReadOptions::max_depth's, so that what is written by default
  /// reads back by default.
  std::size_t max_depth = bufstream::default_max_depth;
  /// Tags whose list body the pretty layout keeps on one line (`Point [ 1, 2 ]`), as Pharo's
  /// STONWriter does for the classes it writes with a short or singleton list.
  std::vector<std::string> short_list_tags = {
      "Point", "Float",     "Character", "ByteArray", "Date",     "Time", "DateAndTime",
      "Class", "Metaclass", "UUID",      "URL",       "MimeType", "FILE"};
};

/// Deprecated: a value that cannot be written under the writer's options throws
/// bufstream::UsageError (what() names the value), as every misuse of every format does.
using WriteError [[deprecated("use bufstream::UsageError")]] = bufstream::UsageError;

/// Writes STON to any WriteStream, a whole Value at a time or call by call (see the file
/// comment).
class Writer {
 public:
  /// Writes into `out`, which must outlive the writer. Throws UsageError for an `indent_char`
  /// that is not ``'\t'`` or ``' '``.
  explicit Writer(WriteStream& out, WriteOptions options = {});
  ~Writer();
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  /// Writes a whole value: at the top level, or as the next element of an open container (in
  /// an open map, elements alternate between key and value).
  void write(const Value& v);
  /// The same as `write`.
  void value(const Value& v) { write(v); }

  // ---- Streaming: the same output, built call by call --------------------------------------
  /// Opens a list: the values that follow are its elements.
  void begin_list();
  /// Closes the innermost list (or tagged list).
  void end_list();
  /// Opens a map: the values that follow alternate between key and value.
  void begin_map();  // then alternate key and value calls
  /// Closes the innermost map (or tagged map).
  void end_map();
  /// `Tag[...]` / `Tag{...}`, closed with end_list / end_map. The tag must be valid
  /// (`is_valid_tag`), else UsageError.
  void begin_tagged_list(std::string_view tag);
  /// The same with a map body.
  void begin_tagged_map(std::string_view tag);

  /// Writes `nil`.
  void value(std::nullptr_t);
  /// Writes `true` or `false`.
  void value(bool b);
  /// Writes an integer.
  void value(std::int64_t i) {
    before_element(Kind::integer);
    out_.print(i);
    after_element();
  }
  /// Writes an integer of any other type (one beyond int64 exactly, as an Integer).
  template <std::integral T>
  requires(!std::same_as<T, bool> && !std::same_as<T, char> &&
           !std::same_as<T, std::int64_t>) void value(T i) {
    if constexpr (std::is_unsigned_v<T> && sizeof(T) >= sizeof(std::int64_t)) {
      if (i > static_cast<T>(INT64_MAX)) {
        write(Value(i));
        return;
      }
    }
    value(static_cast<std::int64_t>(i));
  }
  /// Writes a float: the shortest text that reads back as `d`, always with a fraction part
  /// (`Float[#nan]` and the like for the non-finite ones).
  void value(double d);
  /// Writes a string (valid UTF-8, else UsageError).
  void value(std::string_view s);
  /// The same, for a C string.
  void value(const char* s) { value(std::string_view(s)); }
  /// The same, for a string.
  void value(const std::string& s) { value(std::string_view(s)); }
  /// Writes a symbol.
  void value(const Symbol& s) { symbol(s.name); }
  /// Writes the symbol named `name`, bare when it can be, else quoted.
  void symbol(std::string_view name);

  /// True when no container is open (everything written so far is complete).
  bool complete() const noexcept { return frames_.empty(); }

 private:
  struct Impl;
  friend struct Impl;

  // One open streaming container.
  struct Frame {
    bool is_map;
    bool is_short;      // a short list: `Tag [ a, b ]` in pretty layout
    std::size_t count;  // elements written (keys and values both count in a map)
  };

  // What comes before the next element. The common case (an element of a list in compact
  // layout) is inline; everything else is out of line.
  void before_element(Kind kind) {
    if (!frames_.empty()) [[likely]] {
      Frame& f = frames_.back();
      if (!f.is_map && !pretty_) {
        if (f.count++ != 0) out_.put(',');
        return;
      }
    }
    before_element_slow(kind);
  }
  void before_element_slow(Kind kind);
  // A complete top-level value has been written: reference numbering starts again.
  void after_element() {
    if (frames_.empty()) end_top_level();
  }
  void end_top_level();

  WriteStream& out_;
  bool pretty_;
  bool wrote_top_level_ = false;
  std::vector<Frame> frames_;
  std::unique_ptr<Impl> impl_;
};

/// The STON text of `v`.
std::string to_string(const Value& v, const WriteOptions& options = {});

}  // namespace bufstream::ston
