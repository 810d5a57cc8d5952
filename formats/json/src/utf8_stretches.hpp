// The UTF-8 check of a text that is indexed a stretch at a time: shared by json::Document's
// parser (document_parser.cpp) and json::Reader's indexed runs (reader_index.cpp). Each
// stretch is checked as it is indexed, while it is in the cache. A sequence cut at a
// stretch's end is checked with the next stretch; after the last one it is left unchecked,
// which is safe: its bytes can only be in a string (outside one they are no token, and the
// parse stops at them), and that string's closing quote would come after them, where nothing
// is indexed, so no parse takes it.
#pragma once

#include <string_view>

#include <bufstream/utf8.hpp>

namespace bufstream::json::detail {

class Utf8Stretches {
 public:
  explicit Utf8Stretches(const char* from = nullptr) noexcept : checked_(from) {}

  /// Checks the text from where the last check ended up to `end`. Returns where it is known
  /// valid up to: `end`, the start of a sequence cut at `end`, or the start of the first
  /// invalid sequence (then `invalid()` is true, for good).
  const char* check(const char* end) noexcept {
    if (invalid_) return checked_;
    const auto bad =
        utf8::find_invalid(std::string_view(checked_, static_cast<std::size_t>(end - checked_)));
    if (!bad) {
      checked_ = end;
    } else {
      checked_ += bad->offset;
      invalid_ = bad->error != utf8::Error::truncated_sequence;
    }
    return checked_;
  }
  bool invalid() const noexcept { return invalid_; }

 private:
  const char* checked_;  // valid up to here
  bool invalid_ = false;
};

}  // namespace bufstream::json::detail
