// What Reader::parse's indexed runs (events.hpp) need of the structural index of the stream's
// window; reader_index.cpp builds the index and tells how the runs work. Not a public API.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <bufstream/json/reader_core.hpp>

namespace bufstream::json::detail {

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

/// Calls `r.end_run()` when it goes out of scope: an indexed run's line feeds are counted up
/// to the token taken last, however the run ends (a handler may throw).
template <class R>
struct RunEnd {
  R& r;
  ~RunEnd() { r.end_run(); }
};

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
