#include "pinyin_key.hpp"

namespace bufstream::cedict {

namespace {

constexpr bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }

}  // namespace

void append_pinyin_key(std::string_view pinyin, bool keep_tones, std::string& out) {
  for (std::size_t i = 0; i < pinyin.size(); ++i) {
    const char c = pinyin[i];
    if (c == ' ' || c == '\t') continue;
    if (is_digit(c)) {
      if (keep_tones) out.push_back(c);
      continue;
    }
    if ((c == 'u' || c == 'U') && i + 1 < pinyin.size() && pinyin[i + 1] == ':') {
      out.push_back('v');
      ++i;
      continue;
    }
    // ü is C3 BC, Ü is C3 9C in UTF-8.
    if (c == '\xC3' && i + 1 < pinyin.size() && (pinyin[i + 1] == '\xBC' || pinyin[i + 1] == '\x9C')) {
      out.push_back('v');
      ++i;
      continue;
    }
    out.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c);
  }
}

bool tones_match(std::string_view query_key, std::string_view entry_key) noexcept {
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < query_key.size() || j < entry_key.size()) {
    if (i < query_key.size() && j < entry_key.size() && query_key[i] == entry_key[j]) {
      ++i;
      ++j;
    } else if (j < entry_key.size() && is_digit(entry_key[j]) &&
               (i == query_key.size() || !is_digit(query_key[i]))) {
      ++j;  // the query leaves this syllable's tone open
    } else {
      return false;
    }
  }
  return true;
}

}  // namespace bufstream::cedict
