// Splitting one entry line into the four classic fields, shared by every classic step so that
// they differ only in what the story changed: how bytes are read, converted and stored.
#pragma once

#include <optional>
#include <string_view>

namespace bufstream::cedict::classic {

template <class Char>
struct FieldViews {
  std::basic_string_view<Char> traditional;
  std::basic_string_view<Char> simplified;
  std::basic_string_view<Char> pinyin;
  std::basic_string_view<Char> english;  // between the first and the last '/'
};

/// Splits `TRADITIONAL SIMPLIFIED [pinyin] /english/` (a trailing CR is ignored). Returns
/// nothing for comment lines ('#'), empty lines and lines without that shape. Works on any
/// code unit type (UTF-8 bytes, UTF-16 units in `char16_t` or `wchar_t`).
template <class Char>
std::optional<FieldViews<Char>> split_entry_line(std::basic_string_view<Char> line) {
  using View = std::basic_string_view<Char>;
  if (!line.empty() && line.back() == Char('\r')) line.remove_suffix(1);
  if (line.empty() || line.front() == Char('#')) return std::nullopt;
  const auto sp1 = line.find(Char(' '));
  if (sp1 == View::npos || sp1 == 0) return std::nullopt;
  const auto sp2 = line.find(Char(' '), sp1 + 1);
  if (sp2 == View::npos || sp2 == sp1 + 1) return std::nullopt;
  const auto open = line.find(Char('['), sp2);
  if (open == View::npos) return std::nullopt;
  const auto close = line.find(Char(']'), open);
  if (close == View::npos) return std::nullopt;
  const auto first_slash = line.find(Char('/'), close);
  const auto last_slash = line.rfind(Char('/'));
  if (first_slash == View::npos || last_slash == first_slash) return std::nullopt;
  return FieldViews<Char>{
      line.substr(0, sp1),
      line.substr(sp1 + 1, sp2 - sp1 - 1),
      line.substr(open + 1, close - open - 1),
      line.substr(first_slash + 1, last_slash - first_slash - 1),
  };
}

}  // namespace bufstream::cedict::classic
