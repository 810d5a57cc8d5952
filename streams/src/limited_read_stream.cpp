#include <bufstream/limited_read_stream.hpp>

#include <algorithm>

#include <fmt/format.h>

namespace bufstream {

LimitedReadStream::LimitedReadStream(ReadStream& source, std::uint64_t limit,
                                     ShortSource short_source)
    : source_(&source), length_(limit), short_source_(short_source) {
  window_start_ = source.cursor();
  set_window(window_start_, window_start_, 0);
}

LimitedReadStream::LimitedReadStream(std::unique_ptr<ReadStream> source, std::uint64_t limit,
                                     ShortSource short_source)
    : LimitedReadStream(*source, limit, short_source) {
  owned_ = std::move(source);
}

LimitedReadStream::~LimitedReadStream() { sync_source(); }

void LimitedReadStream::sync_source() noexcept {
  if (released_) return;
  // After close() the base class has moved the cursor to the window's end; position() still
  // counts only what was consumed, so the consumed part of the window is found from it.
  source_->set_cursor(window_start_ + (position() - window_start_position_));
}

void LimitedReadStream::check_short(std::uint64_t wanted, std::uint64_t got) const {
  if (short_source_ == ShortSource::error && got < wanted) {
    const std::uint64_t delivered = position() + got;
    throw ParseError({delivered, 0, 0},
                     fmt::format("expected a section of {} bytes but its source ends after {}",
                                 length_, delivered));
  }
}

bool LimitedReadStream::refill(std::size_t min) {
  const auto have = static_cast<std::size_t>(limit_ - cursor_);
  const std::uint64_t left = remaining();
  sync_source();
  std::string_view window;
  try {
    window = source_->fill(static_cast<std::size_t>(std::min<std::uint64_t>(min, left)));
  } catch (const IoError& e) {
    set_window(source_->cursor(), source_->cursor(), 0);  // the source's window may have moved
    window_start_ = cursor_;
    window_start_position_ = position();
    fail(e);
  }
  const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(window.size(), left));
  // The source's window starts at our cursor: its first `have` bytes were ours already.
  window_start_ = window.data();
  window_start_position_ = position();
  set_window(window.data(), window.data() + n, n - have);
  if (n < min) check_short(std::min<std::uint64_t>(min, left), n);
  return n >= min;
}

std::size_t LimitedReadStream::read_direct(std::span<char> dst) {
  const std::uint64_t left = remaining();
  sync_source();
  std::size_t got = 0;
  if (left > 0 && !dst.empty()) {
    try {
      got = source_->read_some(
          dst.first(static_cast<std::size_t>(std::min<std::uint64_t>(dst.size(), left))));
    } catch (const IoError& e) {
      window_start_ = source_->cursor();
      window_start_position_ = position();
      set_window(window_start_, window_start_, 0);
      fail(e);
    }
    if (got == 0) check_short(left, 0);
  }
  add_direct_bytes(got);
  window_start_ = source_->cursor();
  window_start_position_ = position();
  set_window(window_start_, window_start_, 0);
  return got;
}

void LimitedReadStream::close_source() {
  sync_source();
  released_ = true;
  if (owned_) owned_->close();
}

std::optional<std::uint64_t> LimitedReadStream::source_remaining_hint() const {
  const std::optional<std::uint64_t> source = source_->remaining_hint();
  if (!source) return std::nullopt;
  // The source counts from its cursor, our window's start; the bytes past our window:
  const auto seen = static_cast<std::uint64_t>(limit_ - window_start_);
  const std::uint64_t beyond = *source > seen ? *source - seen : 0;
  return std::min(beyond, length_ - (position() + static_cast<std::uint64_t>(limit_ - cursor_)));
}

}  // namespace bufstream
