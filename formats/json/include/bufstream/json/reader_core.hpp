// The json::Reader class itself. Include <bufstream/json/reader.hpp>, which adds the event
// interface (events.hpp) and typed reads (read_json.hpp) and describes the reader.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include <bufstream/errors.hpp>
#include <bufstream/json/options.hpp>
#include <bufstream/read_stream.hpp>

namespace bufstream::json {

/// The kind of the next value, told by its first byte.
enum class ValueType : std::uint8_t { null, boolean, number, string, array, object };

/// A number as read: negative integers as int64, non-negative ones as uint64 (`-0` is the
/// integer 0, as `0` is), everything else (fractions, exponents, integers beyond 64 bits) as
/// double (`-0.0` is the double -0.0).
struct Number {
  /// Which of the three members holds the number.
  enum class Kind : std::uint8_t { signed_integer, unsigned_integer, floating };
  Kind kind = Kind::unsigned_integer;  ///< Which member holds the number.
  std::int64_t i = 0;                  ///< The number, when `kind` is signed_integer.
  std::uint64_t u = 0;                 ///< The number, when `kind` is unsigned_integer.
  double d = 0;                        ///< The number, when `kind` is floating.
};

class Reader;
class Selection;

namespace detail {

struct IndexedWindow;
struct IndexedPlace;
struct IndexedStart;

// Where Reader::parse goes on after an indexed run (events.hpp): at a value, after one, after a
// container's opening byte, or nowhere (the value parse() reads is complete).
enum class IndexedNext : std::uint8_t { value, after_value, opened, done };

/// The part of a json::Reader that code compiled into the user's program reaches: the reader's
/// inline members (`begin_array`, `next_element`, `at_end`) and the event walk (events.hpp, a
/// template over the user's handler). Everything else of the reader is reached only from the
/// library. Its layout is part of the library's ABI (scripts/check-abi compares it), so it
/// changes only with a new major version, and only what such code needs belongs here.
struct ReaderState {
  ReadStream& in;                     ///< The stream read from.
  ReadOptions options;                ///< The options the reader was made with.
  std::exception_ptr failure{};       ///< Set when the reader failed: each later call throws it.
  std::uint64_t token_start = 0;      ///< The stream offset of the last token read.
  std::uint64_t no_index_before = 0;  ///< parse() tries no indexed run before this offset.
  std::size_t depth = 0;              ///< Arrays and objects open.
  std::vector<std::uint8_t> kinds{};  ///< parse()'s open containers: 0 an array, 1 an object.
  bool first = false;                 ///< Inside a container, before its first element or member.
};

}  // namespace detail

/// Reads into `value` with the overload of `read_json` that ADL finds (declared in
/// read_json.hpp for the standard types; users add their own next to their types).
template <class T>
void read_value(Reader& r, T& value);

/// A strict RFC 8259 reader over any ReadStream: whole values (a DOM, typed), events, and a
/// pull API underneath. Include <bufstream/json/reader.hpp>, which describes it.
class Reader {
 public:
  /// Reads from `in`, which must outlive the reader.
  explicit Reader(ReadStream& in, ReadOptions options = {});
  ~Reader();

  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  // ---- Whole values ----------------------------------------------------------------------

  /// Reads the next value as T (by default a nlohmann::json DOM). The value must be there:
  /// at the end of the input this throws "expected a value but found end of input". What
  /// follows the value is left unread (see `finish`).
  template <class T = nlohmann::json>
  T read() {
    T value{};
    read_value(*this, value);
    return value;
  }
  /// Reads the next value into `value`, replacing what it held (containers are cleared).
  template <class T>
  void read(T& value) {
    read_value(*this, value);
  }

  /// True when only whitespace is left: the end of a sequence of values.
  bool at_end() { return next_significant() < 0; }
  /// Checks that only whitespace is left; throws "expected end of input but found ...".
  void finish();

  /// Reads the next value as events (see events.hpp). Iterative: any depth up to max_depth.
  template <class Handler>
  void parse(Handler& handler);

  /// Consumes the next value without keeping it (still fully validated).
  void skip_value();

  // ---- Pull API --------------------------------------------------------------------------
  // Each call skips the whitespace before its token. Mismatches are ParseErrors naming what
  // was expected ("expected '[' but found '{'").

  /// The type of the next value (nothing is consumed). Throws at the end of the input or on a
  /// byte that cannot start a value.
  ValueType peek();

  /// Reads `null`; anything else is a ParseError.
  void read_null();
  /// Reads `null` if it comes next and says whether it did.
  bool skip_null();
  /// Reads `true` or `false`.
  bool read_bool();
  /// Reads a number, as exactly as its kind allows (see Number).
  Number read_number();
  /// An integer that fits T exactly; anything else (a fraction, an exponent, out of range) is
  /// an error at the number.
  template <class T>
  requires std::is_integral_v<T> T read_integer();
  /// Any number, as the nearest double ("-0" is the integer 0, so 0.0; "-0.0" is -0.0).
  double read_double();
  /// The string's decoded bytes (UTF-8); the view (often of the stream's window) is valid
  /// until the next call on the reader or on its stream.
  std::string_view read_string();
  /// Reads a string into `out`, replacing its content.
  void read_string(std::string& out);

  /// Consumes `[`.
  void begin_array() {
    // Inline: '[' next in the window, below the depth limit, on a reader that has not failed.
    const char* p = s_.in.cursor();
    if (p != s_.in.limit() && *p == '[' && s_.depth < s_.options.max_depth && !s_.failure)
        [[likely]] {
      s_.token_start = s_.in.position();
      s_.in.advance(1);
      ++s_.depth;
      s_.first = true;
      return;
    }
    begin_array_slow();
  }
  /// Inside an array: true when an element follows (consuming the `,` before it), false when
  /// the array ends (consuming `]`). Call it before every element.
  bool next_element() {
    // Inline: the three cases of a compact array (',' before an element, ']' after the last,
    // the first element's byte right after '['), as next_element_slow decides them. The rest
    // (whitespace, the window's end, a failed reader, errors) goes there.
    const char* p = s_.in.cursor();
    if (p != s_.in.limit() && !s_.failure) [[likely]] {
      const char c = *p;
      if (c == ',' && !s_.first) {
        s_.token_start = s_.in.position();
        s_.in.advance(1);
        return true;
      }
      if (c == ']') {
        s_.token_start = s_.in.position();
        s_.in.advance(1);
        --s_.depth;
        s_.first = false;
        return false;
      }
      if (s_.first && static_cast<unsigned char>(c) > ' ') {
        s_.token_start = s_.in.position();
        s_.first = false;
        return true;
      }
    }
    return next_element_slow();
  }
  /// Consumes the `]` that ends an array whose last element has been read.
  void end_array();
  /// Consumes `{`.
  void begin_object();
  /// Inside an object: the next member's key (consuming `,` before it and `:` after it), or
  /// nullopt when the object ends (consuming `}`). The view is valid until the next call on
  /// the reader or on its stream.
  std::optional<std::string_view> next_key();

  // ---- Errors and positions --------------------------------------------------------------

  /// Where the next unread byte is.
  SourcePosition position() const noexcept;
  /// Where the last token started (the value, `,`, `]` or key the last call read).
  SourcePosition token_position() const noexcept;
  /// Throws a ParseError with `message` ("expected 5 elements but found 3") at the start of
  /// the last token, for read_json overloads whose input is well-formed JSON of the wrong shape.
  [[noreturn]] void fail_at_token(std::string message);
  /// Throws a ParseError with `message` at byte `offset` (which must be on the current line,
  /// as every offset of an unconsumed or just-consumed token is) and fails the reader.
  [[noreturn]] void fail_at(std::uint64_t offset, std::string message);

  /// The options the reader was made with.
  const ReadOptions& options() const noexcept { return s_.options; }
  /// The stream read from.
  ReadStream& stream() noexcept { return s_.in; }
  /// Arrays and objects open at this point.
  std::size_t depth() const noexcept { return s_.depth; }

  /// For sizing a container once instead of growing it by doubling (each growth of a large
  /// block costs fresh pages, i.e. page faults): how many more elements the array being read
  /// probably holds, given that its first `count` elements took the bytes from stream
  /// position `start` to here. It divides the bytes the stream says are left
  /// (`ReadStream::remaining_hint`) by the bytes per element so far, so it assumes that the
  /// array runs to the end of the input and that its elements are alike; it is a hint, never
  /// more than the bytes left (an element takes at least one byte). `nullopt` when the stream
  /// cannot tell (pipes, chunked or unbuffered sources without a size), before any element,
  /// and until enough has been read for the average to mean something: 1 MiB, or a sixteenth
  /// of the input, whichever comes first (so that a small array at the start of a large
  /// document is not sized after the document).
  std::optional<std::uint64_t> estimated_elements_left(std::uint64_t start,
                                                       std::size_t count) const;

 private:
  // Skips whitespace and returns the next byte (not consumed) as 0..255, or -1 at the end.
  int next_significant() {
    if (s_.failure) [[unlikely]]
      std::rethrow_exception(s_.failure);
    const char* p = s_.in.cursor();
    // Printable ASCII is returned here; whitespace, the window's end and bytes from 0x80 up
    // (which start no value, but may start a byte-order mark) go to skip_whitespace.
    if (p != s_.in.limit() && static_cast<signed char>(*p) > ' ') [[likely]] {
      return static_cast<unsigned char>(*p);
    }
    return skip_whitespace();
  }
  int skip_whitespace();
  // The token masks of the window's bytes from the cursor on (reader.cpp): whitespace runs
  // and string runs are found with bit scans. `scanned` makes them cover the cursor, which
  // must not be at the window's end.
  struct Scan;
  bool scan_covers_cursor() const noexcept;
  const Scan& scanned();
  const Scan& rescan();
  const char* skip_scanned_whitespace();
  bool read_scanned_string_run(std::string& out);
  struct ScannedRun {
    std::size_t length;
    bool at_stop;
  };
  ScannedRun scanned_string_run();
  std::string_view read_string_content(std::string& out);
  // The stream's fill(n); a read error fails the reader (every later call throws it again).
  std::string_view fill(std::size_t n);
  // Runs `f`, which reads from the stream; a read error fails the reader, as in fill.
  template <class F>
  decltype(auto) reading(F&& f);
  bool next_element_slow();
  void begin_array_slow();

  void read_string_body(std::string& out);
  void read_escape(std::string& out);
  void read_non_ascii(std::string& out);
  void read_literal(std::string_view literal);
  // Numbers (reader_numbers.cpp): the window path, then the general path.
  // An integer in the window that fits int64, consumed; else `ok` is false and nothing is.
  struct FastInteger {
    std::int64_t value;
    bool ok;
  };
  FastInteger read_int64();
  // Behind read_int64 and read_double: whitespace first, and every number that is not a short
  // integer right at the cursor. Out of line, so that the short path saves no registers.
  FastInteger read_int64_in_window();
  double read_double_in_window();
  void take_window_number(const char* start, const char* end);
  Number read_number_general();
  std::string_view scan_number();
  Number convert_number(std::string_view text, bool is_float);
  [[noreturn]] void fail_expected(std::string_view expected, int found);
  [[noreturn]] void fail_integer_range(std::string_view range);
  void enter(char open);

  template <class T>
  static std::string integer_range();

  // parse()'s indexed runs (reader_index.cpp, events.hpp): while the window holds enough
  // bytes, parse() walks the window's structural index (json_index.hpp) from token to token
  // instead of reading the tokens one by one; the run stops before anything it does not read
  // whole (a token that goes on past the window, anything wrong), which parse() then reads
  // token by token, so that every error is this reader's. The line feeds of the runs' bytes,
  // and of the whitespace the token reader skips after them, are counted only when a position
  // is asked for and before the window moves (count_lines, flush_lines): a run of a small
  // value (a JSON Lines value, a selected row) costs no count of its own.
  struct Index;
  friend struct detail::IndexedWindow;
  bool index_worthwhile() const noexcept {
    return s_.in.limit() - s_.in.cursor() >= 128 && s_.in.position() >= s_.no_index_before &&
           !s_.failure;
  }
  // The index of the window from the cursor on, for a run (the last run's, or a new one).
  detail::IndexedStart start_indexed_run();
  // After a run that stopped at the cursor, where the token reader goes on as `next` says.
  void stop_indexed_run(detail::IndexedNext next, const detail::IndexedPlace& at) noexcept;
  // Counts the line feeds of the runs' bytes up to the cursor; runs go on counting from there.
  void count_lines() const noexcept {
    if (uncounted_ != nullptr) count_uncounted_lines();
  }
  // count_lines, and no run bytes are left: before the window moves.
  void flush_lines() const noexcept {
    if (uncounted_ != nullptr) {
      count_uncounted_lines();
      uncounted_ = nullptr;
    }
  }
  void count_uncounted_lines() const noexcept;
  template <class Handler>
  detail::IndexedNext parse_indexed(Handler& handler, std::size_t base, bool after_value);
  // parse()'s walk: one value, or (Inside) the rest of the container the token reader is in,
  // through its end, whose kind is already on s_.kinds (Selection::parse reads the elements a
  // '*' selects with one walk).
  template <bool Inside, class Handler>
  void walk_events(Handler& handler);
  friend class Selection;

  detail::ReaderState s_;  // first: what inline code reaches (see ReaderState)
  mutable LineTracker lines_;
  // The runs' bytes from here to the cursor (their line feeds not yet counted), and the
  // window's offset of an address then: a reader whose stream was read around it (the window
  // moved) cannot count them any more, and never reads them.
  mutable const char* uncounted_ = nullptr;
  mutable std::uint64_t uncounted_to_offset_ = 0;
  std::unique_ptr<Index> index_;
  std::string_view number_text_;  // the last number, for error messages
  bool number_is_float_ = false;  // it has a fraction or an exponent
  std::string number_spill_;      // a number that straddled two windows
  std::string text_;              // the last string read by read_string()
  std::string key_;               // the last key
  std::unique_ptr<Scan> scan_;
};

template <class T>
std::string Reader::integer_range() {
  return std::to_string(std::numeric_limits<T>::min()) + " to " +
         std::to_string(std::numeric_limits<T>::max());
}

template <class T>
requires std::is_integral_v<T> T Reader::read_integer() {
  if constexpr (!std::is_same_v<T, bool> && sizeof(T) <= 8 &&
                (std::is_signed_v<T> || sizeof(T) < 8)) {
    // The common case, an integer in the window that fits int64: no Number in between.
    const FastInteger fast = read_int64();
    if (fast.ok && fast.value >= static_cast<std::int64_t>(std::numeric_limits<T>::min()) &&
        fast.value <= static_cast<std::int64_t>(std::numeric_limits<T>::max())) [[likely]] {
      return static_cast<T>(fast.value);
    }
    // Read but out of T's range: an error at the number. Not read (nothing was consumed):
    // the general path below reads it, and says what is wrong with it if anything is.
    if (fast.ok) fail_integer_range(integer_range<T>());
  }
  const Number n = read_number();
  if constexpr (std::is_same_v<T, bool>) {
    static_assert(!std::is_same_v<T, bool>, "read a bool with read_bool()");
  } else if constexpr (std::is_signed_v<T>) {
    if (n.kind == Number::Kind::signed_integer && n.i >= std::numeric_limits<T>::min()) {
      return static_cast<T>(n.i);
    }
    if (n.kind == Number::Kind::unsigned_integer &&
        n.u <= static_cast<std::uint64_t>(std::numeric_limits<T>::max())) {
      return static_cast<T>(n.u);
    }
  } else {
    if (n.kind == Number::Kind::unsigned_integer && n.u <= std::numeric_limits<T>::max()) {
      return static_cast<T>(n.u);
    }
  }
  fail_integer_range(integer_range<T>());
}

}  // namespace bufstream::json
