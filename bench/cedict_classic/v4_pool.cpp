// Step #4 of the classic story: most of #3's time went to the allocator, one `new[]` per field.
// A bump-pointer pool makes a field's allocation a pointer increment, takes memory from the
// system one 64 KiB chunk at a time, and frees it all at once. Everything else is step #3.
#include "classic_loaders.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include <bufstream/mapped_file.hpp>
#include <bufstream/utf8.hpp>

#include "entry_fields.hpp"

namespace bufstream::cedict::classic::v4_pool {

const char16_t* StringPool::add(std::u16string_view s) {
  const std::size_t need = s.size() + 1;
  if (static_cast<std::size_t>(end_ - next_) < need) {
    const std::size_t units = std::max(need, chunk_units);
    chunks_.push_back(std::make_unique_for_overwrite<char16_t[]>(units));
    next_ = chunks_.back().get();
    end_ = next_ + units;
  }
  char16_t* const out = next_;
  std::copy(s.begin(), s.end(), out);
  out[s.size()] = u'\0';
  next_ += need;
  return out;
}

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
    if (line.empty() || line.front() == '#') continue;
    line16.clear();
    utf8::append_utf16(line, line16);
    const auto fields = split_entry_line(std::u16string_view(line16));
    if (!fields) continue;
    dict.entries_.push_back(Entry{dict.pool_.add(fields->traditional),
                                  dict.pool_.add(fields->simplified),
                                  dict.pool_.add(fields->pinyin), dict.pool_.add(fields->english)});
  }
  return dict;
}

}  // namespace bufstream::cedict::classic::v4_pool
