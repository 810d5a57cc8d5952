// json::Reader::parse's indexed runs: the window, from the cursor on, is indexed a stretch at a
// time by the kernel layer's JSON indexer (bufstream/kernels/json_index.hpp), as a Document's
// text is, and a run walks the index from structural byte to structural byte, recording up to
// Index::max_events tokens for parse() to pass to its handler. Strings without escapes are
// views of the window; strings with escapes are decoded into the run's own buffer.
//
// A run reads only what it can read whole and right: it stops at the last point where the
// token-by-token reader can go on (after a value, after the ',' of an array, after a key's
// ':'), before a token that goes on past the indexed bytes, before anything that is not JSON
// (the reader then reads it and says what is wrong and where), and before any stretch with
// invalid UTF-8 or a control byte in a string. The index of a stretch is kept from one run to
// the next while the window stays as it was.
#include <bufstream/json/reader.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <bufstream/kernels/byte_count.hpp>
#include <bufstream/kernels/json_index.hpp>
#include <bufstream/numbers.hpp>

#include "indexed_strings.hpp"
#include "number_scan.hpp"
#include "reader_index.hpp"

namespace bufstream::json {

namespace {

// How many bytes of [p, end) are line feeds, and where the last one is (nullptr if none).
struct LineFeeds {
  std::uint64_t count;
  const char* last;
};
LineFeeds count_line_feeds(const char* p, const char* const end) noexcept {
  const std::size_t count = kernels::count_byte(p, static_cast<std::size_t>(end - p), '\n');
  if (count == 0) return {0, nullptr};
  const char* last = end - 1;
  while (*last != '\n') --last;
  return {count, last};
}

}  // namespace

void Reader::count_uncounted_lines() const noexcept {
  const char* const cursor = in_.cursor();
  const LineFeeds lf = count_line_feeds(uncounted_, cursor);
  if (lf.count != 0) {
    lines_.new_lines(lf.count, in_.position() - static_cast<std::uint64_t>(cursor - lf.last) + 1);
  }
  uncounted_ = cursor;
}

detail::IndexedRun Reader::index_run(std::size_t base, bool after_value) {
  using E = detail::IndexedEvent;
  using Next = detail::IndexedRun::Next;
  if (!index_) index_ = std::make_unique_for_overwrite<Index>();  // the arrays as they come
  Index& x = *index_;
  const char* const cursor = in_.cursor();
  const std::uint64_t cursor_offset = in_.position();
  if (x.resume != cursor || x.resume_offset != cursor_offset || x.limit != in_.limit()) {
    // A new index from the cursor on: its first byte is not in a string.
    x.limit = in_.limit();
    x.region_end = cursor + (static_cast<std::size_t>(x.limit - cursor) / 64) * 64;
    x.indexed_end = cursor;
    x.stop = x.region_end;
    x.base = cursor;
    x.i = 0;
    x.n = 0;
    x.carry = {};
  }
  x.resume = nullptr;
  x.open.assign(kinds_.begin(), kinds_.end());
  x.text.clear();
  std::size_t depth = depth_;
  const std::size_t max_depth = options_.max_depth;
  E* const events = x.events;
  std::size_t count = 0;
  // The last point where the token-by-token reader can go on.
  struct Safe {
    std::size_t count;
    const char* end;
    const char* base;  // the stretch, and the index of the next offset in it
    std::size_t i;
    Next next;
  } safe{0, cursor, x.base, x.i, after_value ? Next::after_value : Next::value};
  const auto mark = [&](const char* end, Next next) { safe = {count, end, x.base, x.i, next}; };
  const char* last_end = cursor;  // the end of the last value
  const auto push = [&](E::Kind kind, const char* start, const char* end) -> E& {
    last_end = end;
    E& e = events[count++];
    e.kind = kind;
    e.flag = false;
    e.start = start;
    e.end = end;
    return e;
  };
  // The string whose opening quote is at p: its text (data as an offset into x.text when it
  // had escapes, flagged) and the byte after its closing quote; nullptr to stop.
  const auto string = [&](const char* p, E& e) -> const char* {
    const char* q = x.next();
    if (q == nullptr) return nullptr;
    if (*q == '"') [[likely]] {
      e.text = {p + 1, static_cast<std::size_t>(q - p - 1)};
      return q + 1;
    }
    const std::size_t offset = x.text.size();
    q = detail::decode_indexed_string(
        p + 1, q, x.stop, [&x] { return x.next(); }, x.text);
    if (q == nullptr) return nullptr;
    e.flag = true;
    // x.text may still grow and move: its offset stands in the pointer until the run ends.
    // NOLINTNEXTLINE(performance-no-int-to-ptr)
    e.text = {reinterpret_cast<const char*>(offset), x.text.size() - offset};
    return q + 1;
  };
  // Numbers and literals may run on past the indexed bytes (their bytes are not indexed, and
  // need no UTF-8 check) up to `stop`, which leaves the window's last partial block to the
  // reader.
  const auto literal = [&](const char* p, std::string_view word) {
    return static_cast<std::size_t>(x.stop - p) > word.size() &&
           std::string_view(p, word.size()) == word &&
           detail::ends_token[static_cast<unsigned char>(p[word.size()])];
  };

  const char* p = nullptr;
  if (after_value) goto after_value;
value:
  p = x.next();
  if (p == nullptr) goto stop;
value_at:
  if (count + 3 > Index::max_events) goto stop;
  switch (*p) {
    case '[':
    case '{': {
      const bool is_object = *p == '{';
      if (depth >= max_depth) goto stop;
      push(is_object ? E::begin_object : E::begin_array, p, p + 1);
      ++depth;
      x.open.push_back(is_object ? 1 : 0);
      p = x.next();
      if (p == nullptr) goto stop;
      if (*p == (is_object ? '}' : ']')) {
        push(is_object ? E::end_object : E::end_array, p, p + 1);
        --depth;
        x.open.pop_back();
        goto after_value;
      }
      if (is_object) goto key_at;
      goto value_at;
    }
    case '"': {
      E& e = push(E::string, p, nullptr);
      if ((e.end = string(p, e)) == nullptr) goto stop;
      last_end = e.end;
      goto after_value;
    }
    case 't':
      if (!literal(p, "true")) goto stop;
      push(E::boolean, p, p + 4).flag = true;
      goto after_value;
    case 'f':
      if (!literal(p, "false")) goto stop;
      push(E::boolean, p, p + 5).flag = false;
      goto after_value;
    case 'n':
      if (!literal(p, "null")) goto stop;
      push(E::null, p, p + 4);
      goto after_value;
    default: {
      // A number: one whole in the indexed bytes, followed by a byte that ends it.
      E& e = push(E::unsigned_integer, p, nullptr);
      const auto take = [&e](auto value, const char* const end) {
        using T = decltype(value);
        e.end = end;
        if constexpr (std::is_same_v<T, std::uint64_t>) {
          e.u = value;
        } else if constexpr (std::is_same_v<T, std::int64_t>) {
          e.kind = E::signed_integer;
          e.i = value;
        } else {
          e.kind = E::floating;
          e.d = value;
        }
      };
      if (!detail::indexed_number(p, x.stop, take)) goto stop;
      last_end = e.end;
      goto after_value;
    }
  }

after_value:
  if (x.open.size() == base) {
    mark(last_end, Next::done);
    goto stop;
  }
  mark(last_end, Next::after_value);
  // Room for what one step records (at most two events: an empty container).
  if (count + 3 > Index::max_events) goto stop;
  p = x.next();
  if (p == nullptr) goto stop;
  if (*p == ',') {
    if (x.open.back() == 0) {
      mark(p + 1, Next::value);
      goto value;
    }
    p = x.next();
    if (p == nullptr) goto stop;
    goto key_at;
  }
  if (*p != (x.open.back() != 0 ? '}' : ']')) goto stop;
  push(x.open.back() != 0 ? E::end_object : E::end_array, p, p + 1);
  --depth;
  x.open.pop_back();
  goto after_value;

key_at : {
  if (*p != '"' || count + 3 > Index::max_events) goto stop;
  E& e = push(E::key, p, nullptr);
  if (string(p, e) == nullptr) goto stop;
  const char* const colon = x.next();
  if (colon == nullptr || *colon != ':') goto stop;
  e.end = colon + 1;
  mark(colon + 1, Next::value);
  goto value;
}

stop:
  // Back to the last safe point; the index goes on from there if its stretch is still the
  // current one.
  count = safe.count;
  if (safe.base == x.base && safe.next != Next::done) {
    x.resume = safe.end;
    x.resume_offset = cursor_offset + static_cast<std::uint64_t>(safe.end - cursor);
    x.i = safe.i;
  }
  if (count == 0) {
    // Nothing read: the reader reads on by itself for a while.
    no_index_before_ = cursor_offset + 64;
  }
  if (!x.text.empty()) {
    for (E& e : std::span(events, count)) {
      if (e.flag && (e.kind == E::key || e.kind == E::string)) {
        e.text.data = x.text.data() + reinterpret_cast<std::uintptr_t>(e.text.data);
      }
    }
  }
  return {events, count, safe.end, safe.next};
}

}  // namespace bufstream::json
