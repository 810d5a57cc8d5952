// json::Reader::parse's indexed runs: the window, from the cursor on, is indexed a stretch at a
// time by the kernel layer's JSON indexer (bufstream/kernels/json_index.hpp), as a Document's
// text is, and a run (Reader::parse_indexed, events.hpp) walks the index from structural byte
// to structural byte, calling the handler for each token as it goes. Strings without escapes
// are views of the window; strings with escapes are decoded into the index's own buffer.
//
// A run reads only what it can read whole and right: it stops at the last point where the
// token-by-token reader can go on (after a value, after a container's opening byte, after the
// ',' of an array, after a key's ':'), before a token that goes on past the indexed bytes,
// before anything that is not JSON (the reader then reads it and says what is wrong and
// where), before invalid UTF-8 and before any stretch with a control byte in a string. Each
// token is read whole before the handler hears of it, so a run never takes back what it
// passed on. Where a run stops, the token reader reads the next token; the next run goes on
// with the same index while the window's bytes stay where they are (a JSON Lines file's
// values are each indexed once, not once per value from its start), else indexes the window
// afresh from there.
#include <bufstream/json/reader.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>

#include <bufstream/kernels/byte_count.hpp>
#include <bufstream/kernels/json_index.hpp>

#include "indexed_strings.hpp"
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
  const char* const cursor = s_.in.cursor();
  const std::uint64_t position = s_.in.position();
  if (position - reinterpret_cast<std::uintptr_t>(cursor) != uncounted_to_offset_ ||
      cursor < uncounted_) {
    // The stream was read around the reader (through stream()), and the window moved: those
    // bytes are gone, and the reader's lines were off from then on anyway.
    uncounted_ = nullptr;
    return;
  }
  const LineFeeds lf = count_line_feeds(uncounted_, cursor);
  if (lf.count != 0) {
    lines_.new_lines(lf.count, position - static_cast<std::uint64_t>(cursor - lf.last) + 1);
  }
  uncounted_ = cursor;
}

// Whether a run that starts at `cursor` can go on with the last run's index: the window's
// bytes are where they were (a refill that moved them, or read others in their place, changed
// the offset of an address), and the cursor lies in the last run's stretch, after its start
// (a run's last token may begin in the stretch before, and those offsets are gone), at an
// indexed byte or whitespace before one. The index is then that of the text from the last
// fresh start on, which was outside any string: the index of the text, whatever the token
// reader read since. Returns the first offset at or after the cursor (nullptr: start afresh).
const std::uint32_t* Reader::Index::resume(const char* cursor,
                                           std::uint64_t offset_of_address) const noexcept {
  if (!resumable || offset_of_address != to_offset || cursor < place.stretch ||
      cursor >= stretches.indexed_end()) {
    return nullptr;
  }
  const auto from = static_cast<std::uint32_t>(cursor - place.stretch);
  const std::uint32_t* at = place.at;
  while (at != place.end && *at < from) ++at;
  if (at == place.end) return nullptr;  // (the next stretch may be far: start afresh)
  // Only whitespace before that offset. Else the token reader stopped inside a run of bytes
  // that the index holds as one ("73true"), whose rest no offset marks, or the last run took
  // an offset (its place is past it) but not its token.
  for (const char* p = cursor; p != place.stretch + *at; ++p) {
    if (!detail::is_whitespace(*p)) return nullptr;
  }
  return at;
}

// The run's place is x.place with the offset returned in `at`: not stored there, so that the
// run loads the place's stretch and end as they were stored, each whole (a load of the place
// that spans a fresh store of `at` waits for the store to reach the cache).
detail::IndexedStart Reader::start_indexed_run() {
  if (!index_) index_ = std::make_unique_for_overwrite<Index>();  // the offsets as they come
  Index& x = *index_;
  const char* const cursor = s_.in.cursor();
  const std::uint64_t to_offset = s_.in.position() - reinterpret_cast<std::uintptr_t>(cursor);
  if (uncounted_ != nullptr && to_offset != uncounted_to_offset_) flush_lines();
  if (uncounted_ == nullptr) {
    uncounted_ = cursor;
    uncounted_to_offset_ = to_offset;
  }
  x.run_start = cursor;
  const std::uint32_t* at = x.resume(cursor, to_offset);
  if (at == nullptr) {
    // A new index from the cursor on: its first byte is not in a string.
    x.to_offset = to_offset;
    x.stop = cursor + (static_cast<std::size_t>(s_.in.limit() - cursor) / 64) * 64;
    x.stretches.start(cursor, x.stop, Index::first_stretch_blocks, Index::stretch_blocks,
                      x.stretch_offsets);
    x.place = {cursor, x.stretch_offsets, x.stretch_offsets};
    at = x.stretch_offsets;
  }
  x.resumable = false;  // until the run ends well
  return {&x, at};
}

void Reader::stop_indexed_run(detail::IndexedNext next, const detail::IndexedPlace& at) noexcept {
  Index& x = *index_;
  if (s_.in.cursor() == x.run_start) {
    // Nothing read: the reader reads on by itself for a while.
    s_.no_index_before = s_.in.position() + 64;
  }
  x.place = at;
  x.resumable = true;
  // After '[' or '{', the token reader's next_element or next_key reads the first item.
  if (next == detail::IndexedNext::opened) s_.first = true;
}

}  // namespace bufstream::json

namespace bufstream::json::detail {

IndexedPlace IndexedWindow::index_more() noexcept {
  auto& x = static_cast<Reader::Index&>(*this);
  const IndexedPlace w = x.stretches.next();
  x.stop = x.stretches.stop();
  if (w.at == w.end) return {x.place.stretch, w.at, w.end};
  x.place = w;
  return w;
}

IndexedString read_indexed_escaped_string(IndexedWindow& x, IndexedPlace w, const char* p,
                                          const char* q) {
  x.text.clear();
  q = decode_indexed_string(
      p + 1, q, x.stop, [&x, &w] { return next_indexed(x, w); }, x.text);
  return {w, q == nullptr ? nullptr : q + 1};
}

}  // namespace bufstream::json::detail
