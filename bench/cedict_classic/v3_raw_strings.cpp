// Step #3 of the classic story: `std::u16string` costs more than the text it holds (a size, a
// capacity, a small buffer), so each field becomes a bare NUL-terminated array from `new[]`.
// Everything else is step #2.
#include "classic_loaders.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <utility>

#include <bufstream/mapped_file.hpp>
#include <bufstream/utf8.hpp>

#include "entry_fields.hpp"

namespace bufstream::cedict::classic::v3_raw_strings {

namespace {

char16_t* copy_field(std::u16string_view s) {
  auto* out = new char16_t[s.size() + 1];
  std::copy(s.begin(), s.end(), out);
  out[s.size()] = u'\0';
  return out;
}

}  // namespace

Dictionary::Dictionary(Dictionary&& other) noexcept : entries_(std::move(other.entries_)) {
  other.entries_.clear();
}

Dictionary& Dictionary::operator=(Dictionary&& other) noexcept {
  if (this != &other) {
    free_all();
    entries_ = std::move(other.entries_);
    other.entries_.clear();
  }
  return *this;
}

Dictionary::~Dictionary() { free_all(); }

void Dictionary::free_all() noexcept {
  for (Entry& e : entries_) {
    delete[] e.traditional;
    delete[] e.simplified;
    delete[] e.pinyin;
    delete[] e.english;
  }
  entries_.clear();
}

EntryView Dictionary::entry(std::size_t i) const {
  const Entry& e = entries_.at(i);
  return {e.traditional, e.simplified, e.pinyin, e.english};
}

Dictionary load(const std::filesystem::path& path) {
  const MappedFile file(path);
  const std::string_view text = file.contents();
  Dictionary dict;  // frees what was copied so far if a later line throws
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
    // Owned until the entry is stored, so that nothing leaks if an allocation throws.
    std::unique_ptr<char16_t[]> traditional(copy_field(fields->traditional));
    std::unique_ptr<char16_t[]> simplified(copy_field(fields->simplified));
    std::unique_ptr<char16_t[]> pinyin(copy_field(fields->pinyin));
    std::unique_ptr<char16_t[]> english(copy_field(fields->english));
    dict.entries_.push_back(
        Entry{traditional.get(), simplified.get(), pinyin.get(), english.get()});
    traditional.release();
    simplified.release();
    pinyin.release();
    english.release();
  }
  return dict;
}

}  // namespace bufstream::cedict::classic::v3_raw_strings
