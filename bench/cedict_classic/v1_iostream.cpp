// Step #1 of the classic story: the textbook way. A wide file stream converts UTF-8 to UTF-16
// through a locale facet, `std::getline` reads each line into a wide string, and each field is
// copied into its own `std::u16string`.
#include "classic_loaders.hpp"

#include <cerrno>
#include <codecvt>
#include <fstream>
#include <locale>
#include <string>

#include <bufstream/errors.hpp>

#include "entry_fields.hpp"

namespace bufstream::cedict::classic::v1_iostream {

namespace {

// `std::codecvt_utf8_utf16<wchar_t>` yields UTF-16 code units whatever the width of wchar_t
// (16 bits on Windows, where the story was told; 32 on Linux), so narrowing each unit to
// char16_t is exact.
std::u16string to_u16(std::wstring_view units) {
  std::u16string out(units.size(), u'\0');
  for (std::size_t i = 0; i < units.size(); ++i) out[i] = static_cast<char16_t>(units[i]);
  return out;
}

}  // namespace

EntryView Dictionary::entry(std::size_t i) const {
  const Entry& e = entries_.at(i);
  return {e.traditional, e.simplified, e.pinyin, e.english};
}

Dictionary load(const std::filesystem::path& path) {
  std::wifstream in;
  // This step reproduces the historical approach, and the facet that approach used is
  // deprecated since C++17 (with no standard replacement); the warning is silenced for this
  // one line only, on purpose.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  in.imbue(std::locale(in.getloc(), new std::codecvt_utf8_utf16<wchar_t>));
#pragma GCC diagnostic pop
  in.open(path, std::ios::binary);
  if (!in.is_open()) throw IoError::from_errno(errno != 0 ? errno : ENOENT, "open", path.string());

  Dictionary dict;
  std::wstring line;
  while (std::getline(in, line)) {
    const auto fields = split_entry_line(std::wstring_view(line));
    if (!fields) continue;
    dict.entries_.push_back(Entry{to_u16(fields->traditional), to_u16(fields->simplified),
                                  to_u16(fields->pinyin), to_u16(fields->english)});
  }
  // getline stops at the end of the file (eofbit) or when the facet meets bytes that are not
  // UTF-8 or the file cannot be read (badbit, or failbit without eofbit).
  if (in.bad() || !in.eof()) {
    throw IoError(std::make_error_code(std::errc::illegal_byte_sequence),
                  "read (invalid UTF-8 or read error)", path.string());
  }
  return dict;
}

}  // namespace bufstream::cedict::classic::v1_iostream
