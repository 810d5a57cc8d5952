// StringWriteStream: a write stream into a std::string (Smalltalk's String streamContents:).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <bufstream/write_stream.hpp>

namespace bufstream {

/// Collects everything written into a string that grows as needed. It never fails.
///
///     StringWriteStream out;
///     out.write("x = "); out.print(42);
///     std::string text = out.take();   // "x = 42"
class StringWriteStream final : public WriteStream {
 public:
  /// An empty stream.
  StringWriteStream();
  /// Appends to `initial`; `view()` and `position()` include it.
  explicit StringWriteStream(std::string initial);

  /// What has been written so far; valid until the next write.
  std::string_view view() const noexcept {
    return {storage_.data(), static_cast<std::size_t>(cursor_ - storage_.data())};
  }
  /// Moves the text out and leaves the stream empty, ready for more (`position()` goes on
  /// counting).
  std::string take();
  /// Forgets what has been written, keeping the storage (`position()` goes on counting).
  void clear() noexcept;

 protected:
  void write_slow(const char* data, std::size_t n) override;
  char* make_room(std::size_t n) override;

 private:
  static constexpr std::size_t initial_capacity = 256;

  void grow(std::size_t extra);
  void reset_window() noexcept;

  std::string storage_;  // [data, cursor_) is the text; the rest is the window
};

}  // namespace bufstream
