// Selecting values out of a document as a json::Reader passes them, by JSON Pointer: one
// element of a huge document at a time, in constant memory.
//
//     json::Reader reader(in);                          // {"meta": {...}, "rows": [...]}
//     json::Selection rows(reader, json::Pointer("/rows/*"));
//     while (rows.next()) {
//       Row row = reader.read<Row>();                   // or reader.parse(handler),
//     }                                                 // json::Document::parse_next(reader),
//     reader.finish();                                  // reader.read<nlohmann::json>()
//
//     rows.parse(handler);     // or every row left as events, in one walk (events.hpp)
//
//     json::seek(reader, json::Pointer("/meta/version"));   // one value, or NotFoundError
//     auto version = reader.read<std::string>();           // (the rest is not read)
//
// `*` stands for every element of an array or member of an object, at any depth and several
// times ("/data/*/items/*"). Everything that is not selected is skipped with the reader's
// skip_value(), which validates it without building anything; a selected value is read by the
// caller, with any of the reader's ways, or left (the next `next()` skips it). Errors in the
// document are the reader's own ParseErrors, at the same positions as in a plain read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <bufstream/errors.hpp>
#include <bufstream/json/events.hpp>
#include <bufstream/json/pointer.hpp>
#include <bufstream/json/reader_core.hpp>

namespace bufstream::json {

/// `seek` found no value at the pointer: a ParseError at the place where the document parted
/// from it (the end of the object that has no such member, the value that is no container),
/// which also says how many of its tokens matched.
class NotFoundError : public ParseError {
 public:
  /// The ParseError `error` of a look-up of `pointer` whose first `matched` tokens matched.
  NotFoundError(const ParseError& error, std::string pointer, std::size_t matched);
  /// The pointer that was looked up.
  const std::string& pointer() const noexcept { return pointer_; }
  /// How many of its reference tokens matched: the deepest value found is at
  /// `Pointer(pointer()).prefix(matched())`.
  std::size_t matched() const noexcept { return matched_; }

 private:
  std::string pointer_;
  std::size_t matched_;
};

/// The values a pointer selects in the reader's next value, one at a time, in document order.
/// The reader must outlive the selection; while it runs, the reader is used only to read (or
/// skip) each selected value whole.
class Selection {
 public:
  /// Selects the values `pointer` selects in `reader`'s next value. Nothing is read yet.
  Selection(Reader& reader, Pointer pointer);

  /// Moves to the next selected value and returns true, with the reader right before it; or
  /// returns false when there is none left. Without `*` a pointer selects at most one value,
  /// and reading stops right after it; with `*` the walked value is read to its end (so that
  /// `reader.finish()` or the next value can follow). A selected value the caller did not read
  /// is skipped; one read only in part (a container begun and not ended) is a UsageError.
  bool next();

  /// Reads every selected value that is left as events (see events.hpp): `handler` hears
  /// what `while (next()) reader.parse(handler);` would make it hear, and if it has a member
  /// `selected(const json::Selection&)`, that before each value, where `key()`, `path()` and
  /// `token()` name the value. Where the pointer ends in `*`, the elements or members of each
  /// container it selects from are read in one walk of the reader's, with no stop between
  /// them. Afterwards `next()` returns false. A handler that throws leaves the selection
  /// unusable, as an error in the document does.
  template <class Handler>
  void parse(Handler& handler);

  /// Reads on to the end of the value the selection walks (a selected value the caller did
  /// not read is skipped): after a pointer without `*`, whose selection stops right after its
  /// value, the reader is then where it is after a plain read of the whole value (the next
  /// JSON Lines value, or `finish()`). No value is selected after it.
  void skip_rest();

  /// The pointer the selection follows.
  const Pointer& pointer() const noexcept { return pointer_; }
  /// The reference token that led to the selected value at level `i` (0 to pointer().size()
  /// - 1): the member's key, or the element's index in decimal (where the pointer has `*`).
  std::string token(std::size_t i) const;
  /// The key of the selected value's member in its object, where the pointer's last token
  /// was `*` over an object or a name; nullopt for an array's element and for the root.
  std::optional<std::string_view> key() const;
  /// The selected value's own pointer ("/rows/17" for "/rows/*").
  std::string path() const;

 private:
  friend Selection seek(Reader& reader, const Pointer& pointer);
  struct Frame {
    bool is_object;
    std::uint64_t count;  // elements or members passed
    bool found;           // a plain token has matched here (it cannot match again)
  };
  // Where the document parted from a plain pointer, for seek's error.
  struct Miss {
    SourcePosition position;
    std::string message;
    std::size_t matched;
  };
  template <class Handler>
  struct Each;
  bool advance(bool to_last_container);
  bool start(bool to_last_container);
  bool enter(std::size_t level);
  void close_unmatched(std::size_t level, const Frame& frame);
  void select();
  void leave_selected();

  Reader& reader_;
  Pointer pointer_;
  // A level of the pointer: its token, and what led to the current value there (a member's
  // key, or an element's index).
  struct Level {
    std::string_view name;               // the token (a view of pointer_'s)
    std::optional<std::uint64_t> index;  // the token as an index
    bool wildcard = false;
    std::string key;
    std::uint64_t at = 0;
    bool is_key = false;
  };
  std::vector<Frame> frames_;  // the containers open at levels 0 to size - 1
  std::vector<Level> levels_;  // one per token
  bool started_ = false;
  bool done_ = false;
  bool selected_ = false;  // a selected value is due, at selected_offset_
  std::uint64_t selected_offset_ = 0;
  std::size_t selected_depth_ = 0;
  std::optional<Miss> miss_;
};

/// Selection::parse's handler over one container whose items a final '*' selects, read in one
/// walk: the container's own key and end events are the selection's, the rest the handler's.
template <class Handler>
struct Selection::Each {
  Selection& selection;
  Handler& handler;
  bool in_object;
  std::uint64_t at;       // elements or members passed
  std::size_t depth = 0;  // containers open inside the selected value

  void item() {  // a selected value begins
    if (depth != 0) return;
    Level& level = selection.levels_.back();
    if (!in_object) {
      level.is_key = false;
      level.at = at;
    }
    ++at;
    if constexpr (requires { handler.selected(selection); }) handler.selected(selection);
  }
  void null() {
    item();
    handler.null();
  }
  void boolean(bool b) {
    item();
    handler.boolean(b);
  }
  void integer(std::int64_t i) {
    item();
    handler.integer(i);
  }
  void unsigned_integer(std::uint64_t u) {
    item();
    handler.unsigned_integer(u);
  }
  void floating(double d) {
    item();
    handler.floating(d);
  }
  void string(std::string_view s) {
    item();
    handler.string(s);
  }
  void key(std::string_view k) {
    if (depth != 0) {
      handler.key(k);
      return;
    }
    Level& level = selection.levels_.back();
    level.is_key = true;
    level.key.assign(k);
  }
  void begin_array() {
    item();
    ++depth;
    handler.begin_array();
  }
  void begin_object() {
    item();
    ++depth;
    handler.begin_object();
  }
  void end_array() {
    if (depth == 0) return;  // the container's own end
    --depth;
    handler.end_array();
  }
  void end_object() {
    if (depth == 0) return;
    --depth;
    handler.end_object();
  }
};

template <class Handler>
void Selection::parse(Handler& handler) {
  static_assert(EventHandler<Handler>, "see events.hpp for the handler's member functions");
  if (levels_.empty() || !levels_.back().wildcard) {
    while (next()) {
      if constexpr (requires { handler.selected(*this); }) handler.selected(*this);
      reader_.parse(handler);
    }
    return;
  }
  while (advance(true)) {  // inside a container whose items the last '*' selects
    const Frame frame = frames_.back();
    Each<Handler> each{*this, handler, frame.is_object, frame.count};
    reader_.s_.kinds.push_back(frame.is_object ? 1 : 0);
    reader_.walk_events<true>(each);
    frames_.pop_back();
  }
}

/// Moves `reader` to the value at `pointer` (without `*`) inside the reader's next value,
/// reading no further than that value's start; a pointer that is not in the document is a
/// NotFoundError naming the pointer and how far it matched (what came before is read). The
/// selection it returns can `skip_rest()` of the document after the value is read.
Selection seek(Reader& reader, const Pointer& pointer);

}  // namespace bufstream::json
