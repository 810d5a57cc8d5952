// The one walk of a JSON structural index (walk_index), which Reader::parse's indexed runs
// (events.hpp) and json::Document's parser (document_parser.cpp) both are, and what the runs
// need of the index of the stream's window (reader_index.cpp builds it and tells how the runs
// work). Not a public API.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <bufstream/json/reader_core.hpp>

namespace bufstream::json::detail {

/// JSON's whitespace (RFC 8259): space, tab, line feed, carriage return.
constexpr bool is_whitespace(char c) noexcept {
  return c == ' ' || c == '\n' || c == '\t' || c == '\r';
}

/// The bytes that may follow a number or a literal in a text a parser walks by its structural
/// index: whitespace, a structural byte, a quote (which the parser then finds out of place).
inline constexpr std::array<bool, 256> ends_token = [] {
  std::array<bool, 256> t{};
  for (const char c : std::string_view(" \t\r\n{}[]:,\"")) t[static_cast<unsigned char>(c)] = true;
  return t;
}();

/// Whether the literal `word` is at `p`, whole before `stop`, followed by a byte that ends a
/// token (before `stop` too).
inline bool literal_before(const char* p, const char* stop, std::string_view word) noexcept {
  return static_cast<std::size_t>(stop - p) > word.size() &&
         std::string_view(p, word.size()) == word &&
         ends_token[static_cast<unsigned char>(p[word.size()])];
}

/// The one walk of a JSON structural index: from indexed byte to indexed byte, JSON's grammar
/// of values, containers, keys and commas, for a `Walk` that takes what is found. The walk
/// holds the grammar and the innermost container's kind; the Walk holds the rest: where it is
/// in the index and in its output (`Place`, a local of the caller's, passed by reference to
/// hooks that are inlined, so that it stays in registers), its open containers, and what each
/// token becomes (events for Reader::parse, nodes for json::Document). Its hooks:
///
///   const char* next(Place&)                the next indexed byte, nullptr to stop (only
///                                           when `Walk::stops()`, else never null)
///   const char* limit()                     the first byte a literal must end before
///   bool string(Place&, const char* p)      the string whose opening quote is at p
///   void boolean(Place&, const char* p, bool), void null(Place&, const char* p)
///   bool number(Place&, const char* p)      the number at p
///   bool key(Place&, const char* p)         the key whose quote is at p, and its ':'
///   bool open(Place&, const char* p, bool is_object, bool in_object)  a container's opening
///                                           byte, inside one of kind in_object
///   bool close(Place&, const char* p, bool was_object, bool& in_object)  its closing byte;
///                                           in_object becomes the next one out's kind
///   void element(Place&)                    an array's element begins (its ',' consumed)
///   void array_comma(const char* p)         the ',' at p, between two elements, is taken
///   bool at_top(const Place&)               no container the walk opened is open
///
/// A hook that returns false (or null) stops the walk, which returns what is due at the last
/// token taken; `done` when the outermost value is complete. `after_value` starts the walk
/// after a value (at its ',' or closing byte), in a container of kind `in_object`.
template <class Walk>
[[gnu::always_inline]] inline IndexedNext walk_index(Walk& k, typename Walk::Place& s,
                                                     bool after_value, bool in_object) {
  using Next = IndexedNext;
  // A walk over a whole text (Walk::stops() false) always has a next byte: no check of it.
  const auto stop_here = [](const char* p) { return Walk::stops() && p == nullptr; };
  Next then = after_value ? Next::after_value : Next::value;
  const char* p = nullptr;
  if (after_value) goto after_value;
value:
  p = k.next(s);
  if (stop_here(p)) return then;
value_at:
  switch (*p) {
    case '[':
    case '{': {
      const bool is_object = *p == '{';
      if (!k.open(s, p, is_object, in_object)) return then;
      in_object = is_object;
      then = Next::opened;
      p = k.next(s);
      if (stop_here(p)) return then;
      if (*p == (is_object ? '}' : ']')) goto close;
      if (is_object) goto key_at;
      k.element(s);
      goto value_at;
    }
    case '"':
      if (!k.string(s, p)) return then;
      goto after_value;
    case 't':
      if (!literal_before(p, k.limit(), "true")) return then;
      k.boolean(s, p, true);
      goto after_value;
    case 'f':
      if (!literal_before(p, k.limit(), "false")) return then;
      k.boolean(s, p, false);
      goto after_value;
    case 'n':
      if (!literal_before(p, k.limit(), "null")) return then;
      k.null(s, p);
      goto after_value;
    default:
      if (!k.number(s, p)) return then;
      goto after_value;
  }

after_value:
  if (k.at_top(s)) return Next::done;
  then = Next::after_value;
  p = k.next(s);
  if (stop_here(p)) return then;
  if (*p == ',') {
    if (!in_object) {
      k.array_comma(p);
      then = Next::value;
      k.element(s);
      goto value;
    }
    p = k.next(s);
    if (stop_here(p)) return then;
    goto key_at;
  }
  if (*p != (in_object ? '}' : ']')) return then;
close:  // the innermost open container, whose closing byte is at p
  if (!k.close(s, p, in_object, in_object)) return then;
  goto after_value;

key_at:
  if (*p != '"' || !k.key(s, p)) return then;
  then = Next::value;
  goto value;
}

/// A walk's place in the structural index of the window: the current stretch, its next
/// offset and the end of its offsets. A value that a walk keeps in a local, passed by value
/// or by a reference that an inlined function drops, so that it stays in registers (the
/// walk's place as members of the heap-allocated index was reloaded after every store of the
/// handler's that might alias it).
struct IndexedPlace {
  const char* stretch;      // offsets count from here
  const std::uint32_t* at;  // the next offset
  const std::uint32_t* end;
};

/// The structural index of the window: the indexed bytes (structural bytes, quotes, escaping
/// backslashes, the first byte of every other run) one stretch at a time, only those before
/// `stop`.
struct IndexedWindow {
  IndexedPlace place{};        // where a run starts, then the last stretch indexed
  const char* stop = nullptr;  // the first byte a run must not read
  std::string text;            // the last string with escapes, decoded

  /// The place at the start of the next stretch that has indexed bytes, indexing it; one with
  /// `at == end` at the region's end (or stop).
  IndexedPlace index_more() noexcept;
};

/// Where a run starts (Reader::start_indexed_run): the window's index, and the offset of its
/// place to go on from (the place's stretch and end are the index's own). Two registers.
struct IndexedStart {
  IndexedWindow* window;
  const std::uint32_t* at;
};

/// The next indexed byte from `w` on, or nullptr; `w` moves past it.
[[gnu::always_inline]] inline const char* next_indexed(IndexedWindow& x, IndexedPlace& w) noexcept {
  if (w.at == w.end) [[unlikely]] {
    w = x.index_more();
    if (w.at == w.end) return nullptr;
  }
  return w.stretch + *w.at++;
}

/// The string with escapes whose opening quote is at `p` and whose first escaping backslash,
/// the next indexed byte, at `q`: decoded into `x.text`. `end` is the byte after its closing
/// quote, or nullptr when the run must stop before it; `w` moves past the string.
struct IndexedString {
  IndexedPlace place;
  const char* end;
};
IndexedString read_indexed_escaped_string(IndexedWindow& x, IndexedPlace w, const char* p,
                                          const char* q);

/// The string whose opening quote is at `p`: its text (a view of the window, or `x.text`), and
/// the byte after its closing quote (nullptr to stop); `w` moves past it.
struct IndexedText {
  std::string_view text;
  const char* end;
};
[[gnu::always_inline]] inline IndexedText indexed_string(IndexedWindow& x, IndexedPlace& w,
                                                         const char* p) {
  const char* const q = next_indexed(x, w);
  if (q == nullptr) return {{}, nullptr};
  if (*q == '"') [[likely]]
    return {std::string_view(p + 1, static_cast<std::size_t>(q - p - 1)), q + 1};
  const IndexedString e = read_indexed_escaped_string(x, w, p, q);
  w = e.place;
  return {x.text, e.end};
}

}  // namespace bufstream::json::detail
