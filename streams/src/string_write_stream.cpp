#include <bufstream/string_write_stream.hpp>

#include <algorithm>
#include <cstring>

namespace bufstream {

StringWriteStream::StringWriteStream() : StringWriteStream(std::string()) {}

StringWriteStream::StringWriteStream(std::string initial) : storage_(std::move(initial)) {
  const std::size_t used = storage_.size();
  storage_.resize(std::max(2 * used, initial_capacity));
  set_window(storage_.data(), storage_.data() + storage_.size());
  cursor_ += used;
}

std::string StringWriteStream::take() {
  storage_.resize(static_cast<std::size_t>(cursor_ - storage_.data()));
  std::string text = std::move(storage_);
  storage_ = std::string(initial_capacity, '\0');
  reset_window();
  return text;
}

void StringWriteStream::clear() noexcept { reset_window(); }

void StringWriteStream::reset_window() noexcept {
  set_window(storage_.data(), storage_.data() + storage_.size());
  if (is_closed()) limit_ = cursor_;  // a closed stream stays closed
}

void StringWriteStream::grow(std::size_t extra) {
  const auto used = static_cast<std::size_t>(cursor_ - storage_.data());
  const std::uint64_t pos = position();
  // Drop the unused tail first, so that the reallocation copies only the text.
  const std::size_t wanted = std::max(2 * storage_.size(), used + extra);
  storage_.resize(used);
  storage_.resize(wanted);
  start_ = storage_.data();
  cursor_ = start_ + used;
  limit_ = start_ + storage_.size();
  start_position_ = pos - used;
}

void StringWriteStream::write_slow(const char* data, std::size_t n) {
  throw_if_unusable();
  grow(n);
  std::memcpy(cursor_, data, n);
  cursor_ += n;
}

char* StringWriteStream::make_room(std::size_t n) {
  grow(n);
  return cursor_;
}

}  // namespace bufstream
