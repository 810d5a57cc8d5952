// Step #2 of the classic story: stop using iostreams. The file is mapped, lines are found with
// memchr, each line is converted from UTF-8 to UTF-16 once into a reused buffer, and the fields
// are copied out of that buffer into `std::u16string`s.
#include "classic_loaders.hpp"

#include <cstring>
#include <string>

#include <bufstream/mapped_file.hpp>
#include <bufstream/utf8.hpp>

#include "entry_fields.hpp"

namespace bufstream::cedict::classic::v2_mmap_wstring {

EntryView Dictionary::entry(std::size_t i) const {
  const Entry& e = entries_.at(i);
  return {e.traditional, e.simplified, e.pinyin, e.english};
}

Dictionary load(const std::filesystem::path& path) {
  const MappedFile file(path);
  const std::string_view text = file.contents();
  Dictionary dict;
  std::u16string line16;
  const char* p = text.data();
  const char* const end = p + text.size();
  while (p != end) {
    const auto* nl =
        static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
    const char* const line_end = nl != nullptr ? nl : end;
    const std::string_view line(p, static_cast<std::size_t>(line_end - p));
    p = nl != nullptr ? nl + 1 : end;
    if (line.empty() || line.front() == '#') continue;  // skipped before converting, as #2 did
    line16.clear();
    utf8::append_utf16(line, line16);
    const auto fields = split_entry_line(std::u16string_view(line16));
    if (!fields) continue;
    dict.entries_.push_back(Entry{std::u16string(fields->traditional),
                                  std::u16string(fields->simplified),
                                  std::u16string(fields->pinyin), std::u16string(fields->english)});
  }
  return dict;
}

}  // namespace bufstream::cedict::classic::v2_mmap_wstring
