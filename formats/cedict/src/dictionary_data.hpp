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
  std::string_view simplified() const noexcept { return {text + traditional_size + 1, simplified_size}; }
  std::string_view pinyin() const noexcept {
    return {text + traditional_size + simplified_size + 3, pinyin_size};
  }
};
static_assert(sizeof(Record) <= 24);

/// Pinyin keys without tones, one per entry, and the entries ordered by them.
struct PinyinIndex {
  std::string keys;                 // all keys, back to back
  std::vector<std::uint32_t> ends;  // entry i's key is keys[ends[i-1], ends[i]) (ends[-1] = 0)
  std::vector<std::uint32_t> order; // entry numbers sorted by key, then by number

  std::string_view key(std::uint32_t i) const noexcept {
    const std::uint32_t begin = i == 0 ? 0 : ends[i - 1];
    return std::string_view(keys).substr(begin, ends[i] - begin);
  }
};

/// Every word of the glosses (lower-cased), with the entries that contain it.
struct EnglishIndex {
  TextArena text;                        // the words' bytes
  std::vector<std::string_view> words;   // sorted
  std::vector<std::uint32_t> starts;     // word w's entries: postings[starts[w], starts[w + 1])
  std::vector<std::uint32_t> postings;   // entry numbers, ascending for each word
};

struct detail::DictionaryData {
  std::unique_ptr<MappedFile> mapping;  // zero-copy over a mapped file
  bool zero_copy = false;
  TextArena text;
  detail::RecordArray<Record> records;
  detail::RecordArray<GlossSpan> glosses;
  Stats stats;  // without `memory`, which is computed when asked

  // Look-up indexes, each built once, on first use.
  std::once_flag traditional_once;
  std::once_flag simplified_once;
  std::once_flag pinyin_once;
  std::once_flag english_once;
  // Set once an index is complete, so that memory_usage() never reads one being built.
  std::atomic<bool> traditional_built{false};
  std::atomic<bool> simplified_built{false};
  std::atomic<bool> pinyin_built{false};
  std::atomic<bool> english_built{false};
  std::vector<std::uint32_t> by_traditional;  // entry numbers sorted by headword, then number
  std::vector<std::uint32_t> by_simplified;
  PinyinIndex pinyin;
  EnglishIndex english;

  /// Entry i's glosses: `glosses[first, end)`.
  std::uint32_t gloss_end(std::size_t i) const noexcept {
    return i + 1 < records.size() ? records[i + 1].first_gloss : static_cast<std::uint32_t>(glosses.size());
  }

  Entry entry(std::size_t i) const noexcept {
    const Record& r = records[i];
    return Entry{i, r.traditional(), r.simplified(), r.pinyin(),
                 GlossList(r.text, std::span<const GlossSpan>(glosses.data() + r.first_gloss, gloss_end(i) - r.first_gloss))};
  }

  std::string_view gloss(const Record& r, std::uint32_t g) const noexcept {
    return {r.text + glosses[g].offset, glosses[g].size};
  }
};

}  // namespace bufstream::cedict
