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

// One indexed run (see Reader::parse below). Its state: `w`, the walk's place in the index;
// `then`, how the token reader goes on from the cursor (always just after the last token taken)
// if the run stops there; `open`, the containers this call has open (the run stops when none is
// left) and `in_object`, whether the innermost one is an object. The line feeds are counted
// up to the token taken last, also when the handler throws (`end_run`). Numbers and literals
// may run on past the indexed bytes (their bytes are not indexed, and need no UTF-8 check) up
// to `x.stop`, which leaves the window's last partial block to the token reader. `take(start,
// end)` takes a token: the handler's call that follows sees it as the last (a token's stream
// offset is its address plus `to_offset`, modulo 2^64).
template <class Handler>
detail::IndexedNext Reader::parse_indexed(Handler& handler, std::size_t base, bool after_value) {
  using Next = detail::IndexedNext;
  detail::IndexedWindow& x = start_indexed_run();
  const detail::RunEnd<Reader> end_run{*this};
  const std::uint64_t to_offset = in_.position() - reinterpret_cast<std::uintptr_t>(in_.cursor());
  const auto take = [this, to_offset](const char* start, const char* end) {
    token_start_ = to_offset + reinterpret_cast<std::uintptr_t>(start);
    in_.set_cursor(end);
  };
  detail::IndexedPlace w = x.place;
  Next then = after_value ? Next::after_value : Next::value;
  std::size_t open = kinds_.size() - base;
  bool in_object = !kinds_.empty() && kinds_.back() != 0;

  const char* p = nullptr;
  if (after_value) goto after_value;
value:
  p = detail::next_indexed(x, w);
  if (p == nullptr) goto stop;
value_at:
  switch (*p) {
    case '[':
    case '{': {
      const bool is_object = *p == '{';
      if (depth_ >= options_.max_depth) goto stop;
      take(p, p + 1);
      ++depth_;
      kinds_.push_back(is_object ? 1 : 0);
      ++open;
      in_object = is_object;
      is_object ? handler.begin_object() : handler.begin_array();
      then = Next::opened;
      p = detail::next_indexed(x, w);
      if (p == nullptr) goto stop;
      if (*p == (is_object ? '}' : ']')) goto close;
      if (is_object) goto key_at;
      goto value_at;
    }
    case '"': {
      const detail::IndexedText t = detail::indexed_string(x, w, p);
      if (t.end == nullptr) goto stop;
      take(p, t.end);
      handler.string(t.text);
      goto after_value;
    }
    case 't':
      if (!detail::literal_before(p, x.stop, "true")) goto stop;
      take(p, p + 4);
      handler.boolean(true);
      goto after_value;
    case 'f':
      if (!detail::literal_before(p, x.stop, "false")) goto stop;
      take(p, p + 5);
      handler.boolean(false);
      goto after_value;
    case 'n':
      if (!detail::literal_before(p, x.stop, "null")) goto stop;
      take(p, p + 4);
      handler.null();
      goto after_value;
    default: {
      // A number, scanned here, in the walk: out of line, its call and result cost more than
      // its digits.
      const bool passed = detail::indexed_number(p, x.stop, [&](auto value, const char* end) {
        take(p, end);
        detail::pass_number(handler, value);
      });
      if (!passed) goto stop;
      goto after_value;
    }
  }

after_value:
  if (open == 0) {
    then = Next::done;
    goto stop;
  }
  then = Next::after_value;
  p = detail::next_indexed(x, w);
  if (p == nullptr) goto stop;
  if (*p == ',') {
    if (!in_object) {
      in_.set_cursor(p + 1);
      then = Next::value;
      goto value;
    }
    p = detail::next_indexed(x, w);
    if (p == nullptr) goto stop;
    goto key_at;
  }
  if (*p != (in_object ? '}' : ']')) goto stop;
close:  // the innermost open container, whose closing byte is at p
  take(p, p + 1);
  --depth_;
  kinds_.pop_back();
  --open;
  if (std::exchange(in_object, !kinds_.empty() && kinds_.back() != 0)) {
    handler.end_object();
  } else {
    handler.end_array();
  }
  goto after_value;

key_at : {
  if (*p != '"') goto stop;
  const detail::IndexedText t = detail::indexed_string(x, w, p);
  if (t.end == nullptr) goto stop;
  const char* const colon = detail::next_indexed(x, w);
  if (colon == nullptr || *colon != ':') goto stop;
  take(p, colon + 1);
  handler.key(t.text);
  then = Next::value;
  goto value;
}

stop:
  stop_indexed_run(then);
  return then;
}

template <class Handler>
void Reader::parse(Handler& handler) {
  static_assert(EventHandler<Handler>, "see events.hpp for the handler's member functions");
  // Open containers live in kinds_; the part this call pushed is dropped on any way out.
  struct Restore {
    std::vector<std::uint8_t>& kinds;
    std::size_t size;
    ~Restore() { kinds.resize(size); }
  } restore{kinds_, kinds_.size()};
  constexpr std::uint8_t array = 0;
  constexpr std::uint8_t object = 1;
  using Next = detail::IndexedNext;
  const std::size_t base = kinds_.size();
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
        kinds_.push_back(array);
        handler.begin_array();
        goto next_item;
      case ValueType::object:
        begin_object();
        kinds_.push_back(object);
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
      if (kinds_.size() == base) return;
      if (index_worthwhile()) {
        const Next next = parse_indexed(handler, base, true);
        if (next == Next::done) return;
        if (next == Next::value) goto value;
      }
    next_item:  // the next element or member of the innermost container, or its end
      if (kinds_.back() == array) {
        if (next_element()) break;
        handler.end_array();
      } else {
        if (auto k = next_key()) {
          handler.key(*k);
          break;
        }
        handler.end_object();
      }
      kinds_.pop_back();
    }
  }
}

}  // namespace bufstream::json
