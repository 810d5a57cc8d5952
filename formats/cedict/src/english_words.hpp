// Splitting English glosses into the words that English look-ups match whole.
#pragma once

#include <string>
#include <string_view>

namespace bufstream::cedict {

/// Part of a word: an ASCII letter or digit, or any byte of a non-ASCII character (so that
/// "café" and "拜拜" are words of their own).
constexpr bool is_word_byte(char c) noexcept {
  const auto b = static_cast<unsigned char>(c);
  return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9') || b >= 0x80;
}

/// Calls `on_word(std::string_view)` with each word of `text`, lower-cased (ASCII) into
/// `scratch`; the view is valid until the next call.
template <class OnWord>
void for_each_word(std::string_view text, std::string& scratch, OnWord on_word) {
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && !is_word_byte(text[i])) ++i;
    const std::size_t start = i;
    while (i < text.size() && is_word_byte(text[i])) ++i;
    if (i == start) break;
    scratch.assign(text, start, i - start);
    for (char& c : scratch) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    on_word(std::string_view(scratch));
  }
}

}  // namespace bufstream::cedict
