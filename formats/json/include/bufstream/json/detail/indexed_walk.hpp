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

/// A walk's place in the structural index of the window: the indexed bytes (structural bytes,
/// quotes, escaping backslashes, the first byte of every other run) one stretch at a time.
struct IndexedWindow {
  const char* base = nullptr;              // the current stretch: offsets count from here
  const std::uint32_t* offsets = nullptr;  // its offsets
  std::size_t i = 0;                       // the next of them
  std::size_t n = 0;                       // how many it has
  const char* stop = nullptr;              // the first byte a run must not read
  std::string text;                        // the last string with escapes, decoded

  /// The next indexed byte before `stop`, or nullptr.
  const char* next() noexcept {
    if (i == n && !index_more()) return nullptr;
    const char* const p = base + offsets[i++];
    return p < stop ? p : nullptr;
  }
  /// Indexes the next stretch that has indexed bytes; false at the region's end (or stop).
  bool index_more() noexcept;
};

/// The number at `start`, into `n`: whole before `stop` (which is not read), well-formed,
/// followed by a byte that ends a token and within double's range. Returns the byte after it,
/// or nullptr when it is not such a number (the run stops and the token reader reads it and
/// says what is wrong).
const char* read_indexed_number(const char* start, const char* stop, Number& n) noexcept;

/// Passes `n` to the handler as the event of its kind.
template <class Handler>
void pass_number(Handler& handler, const Number& n) {
  switch (n.kind) {
    case Number::Kind::signed_integer: handler.integer(n.i); break;
    case Number::Kind::unsigned_integer: handler.unsigned_integer(n.u); break;
    case Number::Kind::floating: handler.floating(n.d); break;
  }
}

/// The string with escapes whose opening quote is at `p` and whose first escaping backslash,
/// the next indexed byte, at `q`: decoded into `x.text`. Returns the byte after its closing
/// quote, or nullptr when the run must stop before it.
const char* read_indexed_escaped_string(IndexedWindow& x, const char* p, const char* q);

}  // namespace bufstream::json::detail
