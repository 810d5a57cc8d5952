// json::Selection: a pointer's values picked out of a stream with the pull API. One frame per
// level of the pointer that the reader is inside; each element or member of the innermost
// frame is matched against that level's token, and what does not match is skipped whole.
#include <bufstream/json/select.hpp>

#include <utility>

#include <fmt/format.h>

#include <bufstream/json/reader.hpp>

#include "pointer_text.hpp"

namespace bufstream::json {

namespace {

// A value's kind with its article, for messages.
std::string_view described(ValueType type) noexcept {
  switch (type) {
    case ValueType::null: return "null";
    case ValueType::boolean: return "a boolean";
    case ValueType::number: return "a number";
    case ValueType::string: return "a string";
    case ValueType::array: return "an array";
    case ValueType::object: return "an object";
  }
  return "a value";
}

}  // namespace

NotFoundError::NotFoundError(const ParseError& error, std::string pointer, std::size_t matched)
    : ParseError(error), pointer_(std::move(pointer)), matched_(matched) {}

Selection::Selection(Reader& reader, Pointer pointer)
    : reader_(reader), pointer_(std::move(pointer)), levels_(pointer_.size()) {
  frames_.reserve(pointer_.size());
  for (std::size_t i = 0; i < levels_.size(); ++i) {
    levels_[i].name = pointer_.token(i);
    levels_[i].index = pointer_.index(i);
    levels_[i].wildcard = pointer_.is_wildcard(i);
  }
}

std::string Selection::token(std::size_t i) const {
  const Level& level = levels_.at(i);
  return level.is_key ? level.key : std::to_string(level.at);
}

std::optional<std::string_view> Selection::key() const {
  if (levels_.empty() || !levels_.back().is_key) return std::nullopt;
  return levels_.back().key;
}

std::string Selection::path() const {
  std::string out;
  for (std::size_t i = 0; i < levels_.size(); ++i) Pointer::append_token(out, token(i));
  return out;
}

bool Selection::next() { return advance(false); }

// Moves to the next selected value; or, `to_last_container`, into the next container whose
// items the pointer's last token is matched against (parse reads them itself), staying there
// while the reader is inside it.
bool Selection::advance(bool to_last_container) {
  if (selected_) leave_selected();
  if (done_) return false;
  if (!started_) return start(to_last_container);
  while (!frames_.empty()) {
    if (to_last_container && frames_.size() == levels_.size()) return true;
    const std::size_t level = frames_.size() - 1;
    Frame& frame = frames_.back();
    Level& want = levels_[level];
    std::optional<std::string_view> key;
    bool more;
    if (frame.is_object) {
      key = reader_.next_key();
      more = key.has_value();
    } else {
      more = reader_.next_element();
    }
    if (!more) {
      close_unmatched(level, frame);
      frames_.pop_back();
      if (miss_) break;  // a plain pointer's token is not here: nothing more can match
      continue;
    }
    const std::uint64_t at = frame.count++;
    const bool match =
        !frame.found && (want.wildcard || (frame.is_object ? *key == want.name : want.index == at));
    if (!match) {
      reader_.skip_value();
      continue;
    }
    frame.found = !want.wildcard;
    want.is_key = frame.is_object;
    if (frame.is_object) {
      want.key.assign(*key);
    } else {
      want.at = at;
    }
    if (level + 1 == levels_.size()) {
      select();
      return true;
    }
    if (!enter(level + 1)) {
      if (miss_) break;  // a plain pointer goes on into no container: it is not here
      reader_.skip_value();
    }
  }
  done_ = true;
  return false;
}

bool Selection::start(bool to_last_container) {
  started_ = true;
  if (pointer_.empty()) {
    select();
    return true;
  }
  if (!enter(0)) {
    if (!miss_) reader_.skip_value();
    done_ = true;
    return false;
  }
  return advance(to_last_container);
}

// Enters the value at the reader (whose tokens 0 to level - 1 matched), when it is a container
// for the pointer's token `level`; else leaves it unread and says why in miss_.
bool Selection::enter(std::size_t level) {
  const ValueType type = reader_.peek();
  if (type == ValueType::object) {
    reader_.begin_object();
  } else if (type == ValueType::array) {
    reader_.begin_array();
  } else {
    if (!pointer_.has_wildcards()) {
      miss_ = Miss{reader_.position(),
                   fmt::format("{} is {}, which has no \"{}\"",
                               detail::shown_pointer(pointer_.prefix(level)), described(type),
                               pointer_.token(level)),
                   level};
    }
    return false;
  }
  frames_.push_back({type == ValueType::object, 0, false});
  return true;
}

// A container at `level` has ended (its closing byte the reader's last token) without the
// pointer's plain token there: for seek's error.
void Selection::close_unmatched(std::size_t level, const Frame& frame) {
  if (frame.found || pointer_.has_wildcards()) return;
  const std::string at = detail::shown_pointer(pointer_.prefix(level));
  const std::string& token = pointer_.token(level);
  std::string message;
  if (frame.is_object) {
    message = fmt::format("the object at {} has no member \"{}\"", at, token);
  } else if (pointer_.index(level)) {
    message = fmt::format("the array at {} has {} element{}, none at index {}", at, frame.count,
                          frame.count == 1 ? "" : "s", token);
  } else {
    message = fmt::format("the value at {} is an array, and \"{}\" is not an index", at, token);
  }
  miss_ = Miss{reader_.token_position(), std::move(message), level};
}

void Selection::select() {
  // Past the whitespace before it, so that a peek of the caller's then moves nothing.
  const std::string_view window = reader_.stream().buffered();
  if (window.empty() || static_cast<unsigned char>(window.front()) <= ' ') reader_.peek();
  selected_ = true;
  selected_offset_ = reader_.stream().position();
  selected_depth_ = reader_.depth();
}

// After a selected value: skipped if the caller left it, an error if it was left half read.
void Selection::leave_selected() {
  selected_ = false;
  if (reader_.depth() != selected_depth_) {
    throw bufstream::UsageError(fmt::format(
        "json::Selection: the value at \"{}\" was read only in part; read a selected value "
        "whole, or not at all",
        path()));
  }
  if (reader_.stream().position() == selected_offset_) reader_.skip_value();
  if (!pointer_.has_wildcards()) done_ = true;
}

void Selection::skip_rest() {
  if (!started_) reader_.skip_value();
  if (selected_) leave_selected();
  while (!frames_.empty()) {
    if (frames_.back().is_object) {
      while (reader_.next_key()) reader_.skip_value();
    } else {
      while (reader_.next_element()) reader_.skip_value();
    }
    frames_.pop_back();
  }
  started_ = true;
  done_ = true;
}

Selection seek(Reader& reader, const Pointer& pointer) {
  if (pointer.has_wildcards()) {
    throw bufstream::UsageError(
        fmt::format("json::seek: \"{}\" has a '*', which selects many values; use json::Selection",
                    pointer.text()));
  }
  Selection selection(reader, pointer);
  if (selection.next()) return selection;          // the caller reads the value
  const Selection::Miss& miss = *selection.miss_;  // a plain pointer always says why
  throw NotFoundError(
      ParseError(miss.position,
                 fmt::format("JSON Pointer \"{}\" not found: {}", pointer.text(), miss.message),
                 reader.options().source_name),
      pointer.text(), miss.matched);
}

}  // namespace bufstream::json
