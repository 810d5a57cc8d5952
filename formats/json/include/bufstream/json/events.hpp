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
#include <vector>

#include <bufstream/json/detail/indexed_walk.hpp>
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
detail::IndexedNext Reader::parse_indexed(Handler& handler, std::size_t base, bool after_value) {
  using Next = detail::IndexedNext;
  detail::IndexedWindow& x = start_indexed_run();
  const char* const cursor = in_.cursor();
  const std::uint64_t cursor_offset = in_.position();
  // The line feeds are counted up to the token taken last, also when the handler throws.
  struct EndRun {
    Reader& r;
    ~EndRun() { r.end_run(); }
  } end_run{*this};
  uncounted_ = cursor;
  // The last point where the token-by-token reader can go on: the cursor, and the index's
  // place there.
  struct Safe {
    const char* base;
    std::size_t i;
    Next next;
  } safe{x.base, x.i, after_value ? Next::after_value : Next::value};
  const auto mark = [&safe, &x](Next next) { safe = {x.base, x.i, next}; };
  // Takes the token [start, end): the handler's call that follows sees it as the last.
  const auto take = [this, cursor, cursor_offset](const char* start, const char* end) {
    token_start_ = cursor_offset + static_cast<std::uint64_t>(start - cursor);
    in_.set_cursor(end);
  };
  // The string whose opening quote is at p: its text, and the byte after its closing quote
  // (nullptr to stop).
  struct Text {
    std::string_view text;
    const char* end;
  };
  const auto string = [&x](const char* p) -> Text {
    const char* const q = x.next();
    if (q == nullptr) return {{}, nullptr};
    if (*q == '"') [[likely]]
      return {std::string_view(p + 1, static_cast<std::size_t>(q - p - 1)), q + 1};
    const char* const end = detail::read_indexed_escaped_string(x, p, q);
    return {x.text, end};
  };
  // Numbers and literals may run on past the indexed bytes (their bytes are not indexed, and
  // need no UTF-8 check) up to `stop`, which leaves the window's last partial block to the
  // reader.
  const auto literal = [&x](const char* p, std::string_view word) {
    return static_cast<std::size_t>(x.stop - p) > word.size() &&
           std::string_view(p, word.size()) == word &&
           detail::ends_token[static_cast<unsigned char>(p[word.size()])];
  };
  const std::size_t max_depth = options_.max_depth;

  const char* p = nullptr;
  if (after_value) goto after_value;
value:
  p = x.next();
  if (p == nullptr) goto stop;
value_at:
  switch (*p) {
    case '[':
    case '{': {
      const bool is_object = *p == '{';
      if (depth_ >= max_depth) goto stop;
      take(p, p + 1);
      ++depth_;
      kinds_.push_back(is_object ? 1 : 0);
      if (is_object) {
        handler.begin_object();
      } else {
        handler.begin_array();
      }
      mark(Next::opened);
      p = x.next();
      if (p == nullptr) goto stop;
      if (*p == (is_object ? '}' : ']')) {
        take(p, p + 1);
        --depth_;
        kinds_.pop_back();
        if (is_object) {
          handler.end_object();
        } else {
          handler.end_array();
        }
        goto after_value;
      }
      if (is_object) goto key_at;
      goto value_at;
    }
    case '"': {
      const Text t = string(p);
      if (t.end == nullptr) goto stop;
      take(p, t.end);
      handler.string(t.text);
      goto after_value;
    }
    case 't':
      if (!literal(p, "true")) goto stop;
      take(p, p + 4);
      handler.boolean(true);
      goto after_value;
    case 'f':
      if (!literal(p, "false")) goto stop;
      take(p, p + 5);
      handler.boolean(false);
      goto after_value;
    case 'n':
      if (!literal(p, "null")) goto stop;
      take(p, p + 4);
      handler.null();
      goto after_value;
    default: {
      // A number: one whole before `stop`, followed by a byte that ends it.
      Number n;
      const char* const end = detail::read_indexed_number(p, x.stop, n);
      if (end == nullptr) goto stop;
      take(p, end);
      detail::pass_number(handler, n);
      goto after_value;
    }
  }

after_value:
  if (kinds_.size() == base) {
    mark(Next::done);
    goto stop;
  }
  mark(Next::after_value);
  p = x.next();
  if (p == nullptr) goto stop;
  if (*p == ',') {
    if (kinds_.back() == 0) {
      in_.set_cursor(p + 1);
      mark(Next::value);
      goto value;
    }
    p = x.next();
    if (p == nullptr) goto stop;
    goto key_at;
  }
  if (*p != (kinds_.back() != 0 ? '}' : ']')) goto stop;
  take(p, p + 1);
  --depth_;
  if (kinds_.back() != 0) {
    kinds_.pop_back();
    handler.end_object();
  } else {
    kinds_.pop_back();
    handler.end_array();
  }
  goto after_value;

key_at : {
  if (*p != '"') goto stop;
  const Text t = string(p);
  if (t.end == nullptr) goto stop;
  const char* const colon = x.next();
  if (colon == nullptr || *colon != ':') goto stop;
  take(p, colon + 1);
  handler.key(t.text);
  mark(Next::value);
  goto value;
}

stop:
  stop_indexed_run(safe.base, safe.i, safe.next, cursor);
  return safe.next;
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
    // the index, if the window holds enough, then the next token read by itself.
    // (A run that reads nothing turns runs off for a while: see stop_indexed_run.)
    if (index_worthwhile()) {
      switch (parse_indexed(handler, base, false)) {
        case Next::done: return;
        case Next::after_value: goto after_value;
        case Next::value: continue;
        case Next::opened: goto opened;
      }
    }
    switch (peek()) {  // one value, or the start of a container
      case ValueType::array:
        begin_array();
        kinds_.push_back(array);
        handler.begin_array();
        goto opened;
      case ValueType::object:
        begin_object();
        kinds_.push_back(object);
        handler.begin_object();
        goto opened;
      case ValueType::string: handler.string(read_string()); break;
      case ValueType::number: detail::pass_number(handler, read_number()); break;
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
        if (next == Next::opened) goto opened;
        continue;
      }
    opened:  // also where a container that has just opened (the last of kinds_) goes on
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
