// What a Dictionary holds (private to the library).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include <bufstream/cedict/dictionary.hpp>
#include <bufstream/cedict/stats.hpp>
#include <bufstream/mapped_file.hpp>

#include "hash_index.hpp"
#include "record_array.hpp"
#include "text_arena.hpp"

namespace bufstream::cedict {

/// An entry as stored: 24 bytes. The grammar fixes where the fields lie in the entry's line
/// ("TRAD SIMP [PINYIN] /..."), so sizes are enough. The glosses are byte ranges of the line,
/// `glosses[first_gloss, next record's first_gloss)` (the last record's run ends at
/// `glosses.size()`), so no count is stored.
struct Record {
  const char* text;  // the line, from the traditional headword to the closing '/'
  std::uint32_t traditional_size;
  std::uint32_t simplified_size;
  std::uint32_t pinyin_size;
  std::uint32_t first_gloss;

  std::string_view traditional() const noexcept { return {text, traditional_size}; }
  std::string_view simplified() const noexcept {
    return {text + traditional_size + 1, simplified_size};
  }
  std::string_view pinyin() const noexcept {
    return {text + traditional_size + simplified_size + 3, pinyin_size};
  }
};
static_assert(sizeof(Record) <= 24);

struct detail::DictionaryData {
  std::unique_ptr<MappedFile> mapping;  // zero-copy over a mapped file
  bool zero_copy = false;
  TextArena text;
  detail::RecordArray<Record> records;
  detail::RecordArray<GlossSpan> glosses;
  Stats stats;  // without `memory`, which is computed when asked

  // Look-up indexes, each built once, when its kind of look-up has been asked often enough
  // (dictionary_lookup.cpp); until then look-ups scan the entries. `*_lookups` count the
  // look-ups of each kind so far.
  std::once_flag traditional_once;
  std::once_flag simplified_once;
  std::once_flag pinyin_once;
  std::once_flag english_once;
  // Set once an index is complete, so that look-ups and memory_usage() never read one being built.
  std::atomic<bool> traditional_built{false};
  std::atomic<bool> simplified_built{false};
  std::atomic<bool> pinyin_built{false};
  std::atomic<bool> english_built{false};
  std::atomic<std::uint32_t> traditional_lookups{0};
  std::atomic<std::uint32_t> simplified_lookups{0};
  std::atomic<std::uint32_t> pinyin_lookups{0};
  std::atomic<std::uint32_t> english_lookups{0};
  // Each entry under the hash of its key or keys (a look-up checks the entries it gets).
  detail::HashIndex traditional;  // the traditional headword
  detail::HashIndex simplified;   // the simplified headword
  detail::HashIndex pinyin;       // the pinyin without tones (append_pinyin_key)
  detail::HashIndex english;      // each word of the glosses, lower-cased (for_each_word)

  /// Entry i's glosses: `glosses[first, end)`.
  std::uint32_t gloss_end(std::size_t i) const noexcept {
    return i + 1 < records.size() ? records[i + 1].first_gloss
                                  : static_cast<std::uint32_t>(glosses.size());
  }

  Entry entry(std::size_t i) const noexcept {
    const Record& r = records[i];
    return Entry{i, r.traditional(), r.simplified(), r.pinyin(),
                 GlossList(r.text, std::span<const GlossSpan>(glosses.data() + r.first_gloss,
                                                              gloss_end(i) - r.first_gloss))};
  }

  /// Entry i's glosses as they stand in its line, between the first and the last '/'.
  std::string_view english_text(std::size_t i) const noexcept {
    const Record& r = records[i];
    const GlossSpan& first = glosses[r.first_gloss];
    const GlossSpan& last = glosses[gloss_end(i) - 1];
    return {r.text + first.offset, last.offset + last.size - first.offset};
  }

  std::string_view gloss(const Record& r, std::uint32_t g) const noexcept {
    return {r.text + glosses[g].offset, glosses[g].size};
  }
};

}  // namespace bufstream::cedict
