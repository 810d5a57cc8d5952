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
// Where the stream's window holds enough bytes, the reader reads a run of tokens ahead of the
// handler (by the kernel layer's structural index, see reader_index.cpp); during each call
// the reader's position() and token_position() are those of the event's token all the same,
// and a handler that throws leaves the reader just after that token.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

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

template <class Handler>
detail::IndexedRun::Next Reader::parse_indexed(Handler& handler, std::size_t base,
                                               bool after_value) {
  using E = detail::IndexedEvent;
  const detail::IndexedRun run = index_run(base, after_value);
  // The line feeds are counted up to the token taken last, also when the handler throws.
  struct EndRun {
    Reader& r;
    ~EndRun() { r.end_run(); }
  } end_run{*this};
  uncounted_ = in_.cursor();
  for (const E& e : std::span(run.events, run.count)) {
    take_indexed(e);
    switch (e.kind) {
      case E::begin_array:
        ++depth_;
        kinds_.push_back(0);
        handler.begin_array();
        break;
      case E::begin_object:
        ++depth_;
        kinds_.push_back(1);
        handler.begin_object();
        break;
      case E::end_array:
        --depth_;
        kinds_.pop_back();
        handler.end_array();
        break;
      case E::end_object:
        --depth_;
        kinds_.pop_back();
        handler.end_object();
        break;
      case E::key: handler.key(std::string_view(e.text.data, e.text.size)); break;
      case E::string: handler.string(std::string_view(e.text.data, e.text.size)); break;
      case E::signed_integer: handler.integer(e.i); break;
      case E::unsigned_integer: handler.unsigned_integer(e.u); break;
      case E::floating: handler.floating(e.d); break;
      case E::boolean: handler.boolean(e.flag); break;
      case E::null: handler.null(); break;
    }
  }
  in_.set_cursor(run.end);
  return run.next;
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
  using Next = detail::IndexedRun::Next;
  const std::size_t base = kinds_.size();
  for (;;) {
    // A value is due (the input's first, or one after '[', ',' or ':'): a run of tokens from
    // the index, if the window holds enough, then the next token read by itself.
    // (A run that reads nothing turns runs off for a while: see index_run.)
    if (index_worthwhile()) {
      switch (parse_indexed(handler, base, false)) {
        case Next::done: return;
        case Next::after_value: goto after_value;
        case Next::value: continue;
      }
    }
    switch (peek()) {  // one value, or the start of a container
      case ValueType::array:
        begin_array();
        handler.begin_array();
        if (next_element()) {
          kinds_.push_back(array);
          continue;
        }
        handler.end_array();
        break;
      case ValueType::object:
        begin_object();
        handler.begin_object();
        if (auto k = next_key()) {
          handler.key(*k);
          kinds_.push_back(object);
          continue;
        }
        handler.end_object();
        break;
      case ValueType::string: handler.string(read_string()); break;
      case ValueType::number: {
        const Number n = read_number();
        switch (n.kind) {
          case Number::Kind::signed_integer: handler.integer(n.i); break;
          case Number::Kind::unsigned_integer: handler.unsigned_integer(n.u); break;
          case Number::Kind::floating: handler.floating(n.d); break;
        }
        break;
      }
      case ValueType::boolean: handler.boolean(read_bool()); break;
      case ValueType::null:
        read_null();
        handler.null();
        break;
    }
  after_value:
    // A value is complete: move on to the next element or member, closing every container
    // that ends here.
    for (;;) {
      if (kinds_.size() == base) return;
      if (index_worthwhile()) {
        const Next next = parse_indexed(handler, base, true);
        if (next == Next::done) return;
        if (next == Next::value) break;
        continue;
      }
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
