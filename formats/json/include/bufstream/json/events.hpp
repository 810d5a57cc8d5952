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
// during the call.
//
// Where the stream's window holds enough bytes, the reader walks the window's structural index
// (the kernel layer's, see reader_index.cpp) from token to token, calling the handler as it
// goes; during each call the reader's position() and token_position() are those of the
// event's token, and a handler that throws leaves the reader just after that token.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include <bufstream/json/detail/indexed_walk.hpp>
#include <bufstream/json/detail/number_scan.hpp>
#include <bufstream/json/reader_core.hpp>

namespace bufstream::json {

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

/// Passes a number to the handler as the event its type, or its kind, says.
template <class Handler>
void pass_number(Handler& handler, std::uint64_t value) {
  handler.unsigned_integer(value);
}
template <class Handler>
void pass_number(Handler& handler, std::int64_t value) {
  handler.integer(value);
}
template <class Handler>
void pass_number(Handler& handler, double value) {
  handler.floating(value);
}
template <class Handler>
void pass_number(Handler& handler, const Number& n) {
  switch (n.kind) {
    case Number::Kind::signed_integer: handler.integer(n.i); break;
    case Number::Kind::unsigned_integer: handler.unsigned_integer(n.u); break;
    case Number::Kind::floating: handler.floating(n.d); break;
  }
}

}  // namespace detail

// One indexed run (see Reader::parse below): detail::walk_index over the window's index, each
// token taken (`take(start, end)`: the handler's call that follows sees it as the last; a
// token's stream offset is its address plus `to_offset`, modulo 2^64) and passed to the
// handler. `opened`: the containers this call has open (the run stops when none is left). The
// line feeds are counted when needed (count_lines), up to the cursor, so also when the handler
// throws.
// Numbers and literals may run on past the indexed bytes (their bytes are not indexed, and need
// no UTF-8 check) up to `x.stop`, which leaves the window's last partial block to the token
// reader, which goes on from the cursor (always just after the last token taken) with what the
// walk says is due there.
template <class Handler>
detail::IndexedNext Reader::parse_indexed(Handler& handler, std::size_t base, bool after_value) {
  struct Run {
    using Place = detail::IndexedPlace;
    static constexpr bool stops() { return true; }  // at the window's end, or the index's
    detail::ReaderState& s;  // the reader's state: the only part of it a run reaches
    Handler& handler;
    detail::IndexedWindow& x;
    std::uint64_t to_offset;
    std::size_t opened;  // the containers this call has open

    [[gnu::always_inline]] void take(const char* start, const char* end) {
      s.token_start = to_offset + reinterpret_cast<std::uintptr_t>(start);
      s.in.set_cursor(end);
    }
    [[gnu::always_inline]] const char* next(Place& w) { return detail::next_indexed(x, w); }
    [[gnu::always_inline]] const char* limit() const { return x.stop; }
    [[gnu::always_inline]] bool string(Place& w, const char* p) {
      const detail::IndexedText t = detail::indexed_string(x, w, p);
      if (t.end == nullptr) return false;
      take(p, t.end);
      handler.string(t.text);
      return true;
    }
    [[gnu::always_inline]] void boolean(Place&, const char* p, bool value) {
      take(p, p + (value ? 4 : 5));
      handler.boolean(value);
    }
    [[gnu::always_inline]] void null(Place&, const char* p) {
      take(p, p + 4);
      handler.null();
    }
    [[gnu::always_inline]] bool number(Place&, const char* p) {
      // Scanned here, in the walk: out of line, its call and result cost more than its digits.
      return detail::indexed_number(p, x.stop, [&](auto value, const char* end) {
        take(p, end);
        detail::pass_number(handler, value);
      });
    }
    [[gnu::always_inline]] bool key(Place& w, const char* p) {
      const detail::IndexedText t = detail::indexed_string(x, w, p);
      if (t.end == nullptr) return false;
      const char* const colon = detail::next_indexed(x, w);
      if (colon == nullptr || *colon != ':') return false;
      take(p, colon + 1);
      handler.key(t.text);
      return true;
    }
    [[gnu::always_inline]] bool open(Place&, const char* p, bool is_object, bool) {
      if (s.depth >= s.options.max_depth) return false;
      take(p, p + 1);
      ++s.depth;
      s.kinds.push_back(is_object ? 1 : 0);
      ++opened;
      is_object ? handler.begin_object() : handler.begin_array();
      return true;
    }
    [[gnu::always_inline]] bool close(Place&, const char* p, bool was_object, bool& in_object) {
      take(p, p + 1);
      --s.depth;
      s.kinds.pop_back();
      --opened;
      in_object = !s.kinds.empty() && s.kinds.back() != 0;
      was_object ? handler.end_object() : handler.end_array();
      return true;
    }
    [[gnu::always_inline]] void element(Place&) {}
    [[gnu::always_inline]] void array_comma(const char* p) { s.in.set_cursor(p + 1); }
    [[gnu::always_inline]] bool at_top(const Place&) const { return opened == 0; }
  };
  const detail::IndexedStart start = start_indexed_run();
  detail::IndexedWindow& x = *start.window;
  Run run{s_, handler, x, s_.in.position() - reinterpret_cast<std::uintptr_t>(s_.in.cursor()),
          s_.kinds.size() - base};
  detail::IndexedPlace w{x.place.stretch, start.at, x.place.end};
  const detail::IndexedNext then =
      detail::walk_index(run, w, after_value, !s_.kinds.empty() && s_.kinds.back() != 0);
  stop_indexed_run(then, w);
  return then;
}

template <class Handler>
void Reader::parse(Handler& handler) {
  static_assert(EventHandler<Handler>, "see events.hpp for the handler's member functions");
  walk_events<false>(handler);
}

template <bool Inside, class Handler>
void Reader::walk_events(Handler& handler) {
  // Open containers live in s_.kinds; the part this call pushed is dropped on any way out.
  const std::size_t base = s_.kinds.size() - (Inside ? 1 : 0);
  struct Restore {
    std::vector<std::uint8_t>& kinds;
    std::size_t size;
    ~Restore() { kinds.resize(size); }
  } restore{s_.kinds, base};
  constexpr std::uint8_t array = 0;
  constexpr std::uint8_t object = 1;
  using Next = detail::IndexedNext;
  if constexpr (Inside) goto next_item;
  for (;;) {
    // A value is due (the input's first, or one after '[', ',' or ':'): a run of tokens from
    // the index, if the window holds enough. Where a run stops, the token reader reads the
    // next token by itself (a run started there again would stop there again), and the next
    // run starts after it. (A run that reads nothing turns runs off for a while: see
    // stop_indexed_run.)
    if (index_worthwhile()) {
      switch (parse_indexed(handler, base, false)) {
        case Next::done: return;
        case Next::after_value:
        case Next::opened: goto next_item;
        case Next::value: break;
      }
    }
  value:
    switch (peek()) {  // one value, or the start of a container
      case ValueType::array:
        begin_array();
        s_.kinds.push_back(array);
        handler.begin_array();
        goto next_item;
      case ValueType::object:
        begin_object();
        s_.kinds.push_back(object);
        handler.begin_object();
        goto next_item;
      case ValueType::string: handler.string(read_string()); break;
      case ValueType::number: detail::pass_number(handler, read_number()); break;
      case ValueType::boolean: handler.boolean(read_bool()); break;
      case ValueType::null:
        read_null();
        handler.null();
        break;
    }
    // A value is complete: move on to the next element or member, closing every container
    // that ends here.
    for (;;) {
      if (s_.kinds.size() == base) return;
      if (index_worthwhile()) {
        const Next next = parse_indexed(handler, base, true);
        if (next == Next::done) return;
        if (next == Next::value) goto value;
      }
    next_item:  // the next element or member of the innermost container, or its end
      if (s_.kinds.back() == array) {
        if (next_element()) break;
        handler.end_array();
      } else {
        if (auto k = next_key()) {
          handler.key(*k);
          break;
        }
        handler.end_object();
      }
      s_.kinds.pop_back();
    }
  }
}

}  // namespace bufstream::json
