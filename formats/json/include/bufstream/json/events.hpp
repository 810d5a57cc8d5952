// The event (SAX-style) interface of json::Reader.
//
// `reader.parse(handler)` reads one value and calls the handler once per token, in document
// order. It is iterative: deep nesting costs a byte per level, not a stack frame. A handler
// stops the parse by throwing.
//
//     struct CountStrings {
//       std::size_t n = 0;
//       void null() {}  void boolean(bool) {}
//       void integer(std::int64_t) {}  void unsigned_integer(std::uint64_t) {}
//       void floating(double) {}
//       void string(std::string_view) { ++n; }
//       void key(std::string_view) {}
//       void begin_array() {}  void end_array() {}  void begin_object() {}  void end_object() {}
//     };
//     CountStrings counter;
//     reader.parse(counter);
//
// Numbers arrive as in json::Number: `integer` for negative integers, `unsigned_integer` for
// the others, `floating` for the rest. Views passed to `string` and `key` are valid only
// during the call. During each call the reader's position() and token_position() are those of
// the event's token, and a handler that throws leaves the reader just after that token.
//
// The reading is the library's (reader_events.cpp: where the stream's window holds enough
// bytes, a walk of its structural index from token to token): `parse` hands it a table of the
// handler's member functions (detail::HandlerCalls), and each token is one call through it.
#pragma once

#include <cstdint>
#include <string_view>

#include <bufstream/json/reader_core.hpp>

namespace bufstream::json {

/// What `Reader::parse` calls: one member function per kind of token.
template <class H>
concept EventHandler = requires(H& h, bool b, std::int64_t i, std::uint64_t u, double d,
                                std::string_view s) {
  h.null();
  h.boolean(b);
  h.integer(i);
  h.unsigned_integer(u);
  h.floating(d);
  h.string(s);
  h.key(s);
  h.begin_array();
  h.end_array();
  h.begin_object();
  h.end_object();
};

namespace detail {

/// A handler's member functions, each behind a plain function of the handler's address: what
/// `Reader::parse` passes to the library's walk. Part of the ABI (a change of it is a new
/// version of the library).
struct HandlerCalls {
  void (*null)(void* handler);
  void (*boolean)(void* handler, bool value);
  void (*integer)(void* handler, std::int64_t value);
  void (*unsigned_integer)(void* handler, std::uint64_t value);
  void (*floating)(void* handler, double value);
  void (*string)(void* handler, std::string_view text);
  void (*key)(void* handler, std::string_view text);
  void (*begin_array)(void* handler);
  void (*end_array)(void* handler);
  void (*begin_object)(void* handler);
  void (*end_object)(void* handler);
};

/// The table for handlers of type H.
template <class H>
inline constexpr HandlerCalls handler_calls{
    [](void* h) { static_cast<H*>(h)->null(); },
    [](void* h, bool v) { static_cast<H*>(h)->boolean(v); },
    [](void* h, std::int64_t v) { static_cast<H*>(h)->integer(v); },
    [](void* h, std::uint64_t v) { static_cast<H*>(h)->unsigned_integer(v); },
    [](void* h, double v) { static_cast<H*>(h)->floating(v); },
    [](void* h, std::string_view s) { static_cast<H*>(h)->string(s); },
    [](void* h, std::string_view s) { static_cast<H*>(h)->key(s); },
    [](void* h) { static_cast<H*>(h)->begin_array(); },
    [](void* h) { static_cast<H*>(h)->end_array(); },
    [](void* h) { static_cast<H*>(h)->begin_object(); },
    [](void* h) { static_cast<H*>(h)->end_object(); },
};

}  // namespace detail

template <class Handler>
void Reader::parse(Handler& handler) {
  static_assert(EventHandler<Handler>, "see events.hpp for the handler's member functions");
  parse_events(&handler, detail::handler_calls<Handler>);
}

}  // namespace bufstream::json
