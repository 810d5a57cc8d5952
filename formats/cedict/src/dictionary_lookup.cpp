// Look-ups: by scanning the entries for the first few questions of a kind, then by an index
// of the entries by the hash of their keys (HashIndex), whose candidates are checked the same
// way a scan checks every entry.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <iterator>
#include <mutex>
#include <string>
#include <vector>

#include <bufstream/cedict/dictionary.hpp>

#include "dictionary_data.hpp"
#include "english_words.hpp"
#include "pinyin_key.hpp"

namespace bufstream::cedict {

namespace {

using Data = detail::DictionaryData;

// Each index: every entry's key or keys, hashed.
void build_traditional(Data& d) {
  d.traditional.reserve(d.records.size());
  for (std::uint32_t e = 0; e < d.records.size(); ++e)
    d.traditional.add(detail::hash_key(d.records[e].traditional()), e);
  d.traditional.finish();
}

void build_simplified(Data& d) {
  d.simplified.reserve(d.records.size());
  for (std::uint32_t e = 0; e < d.records.size(); ++e)
    d.simplified.add(detail::hash_key(d.records[e].simplified()), e);
  d.simplified.finish();
}

void build_pinyin(Data& d) {
  d.pinyin.reserve(d.records.size());
  std::string key;
  for (std::uint32_t e = 0; e < d.records.size(); ++e) {
    key.clear();
    append_pinyin_key(d.records[e].pinyin(), /*keep_tones=*/false, key);
    d.pinyin.add(detail::hash_key(key), e);
  }
  d.pinyin.finish();
}

void build_english(Data& d) {
  // CC-CEDICT's glosses average under four words; a larger dictionary's pairs grow the list.
  d.english.reserve(4 * d.glosses.size());
  for (std::uint32_t e = 0; e < d.records.size(); ++e) {
    for_each_word_in(d.english_text(e), [&](std::string_view word) {
      d.english.add(detail::hash_key_lower(word), e);
    });
  }
  d.english.finish();
}

// How many look-ups of a kind scan the entries before the next one builds the kind's index:
// about what the index costs in scans, measured on the shipped file (116,937 entries; Release,
// shared machine, best of nine): a scan of the traditional or the simplified headwords takes
// 0.78 ms and building its index 2.5 ms; pinyin 0.51 against 4.7 ms; English words 5.1 against
// 22.5 ms. A program that asks a handful of questions never pays for an index (`bufstream
// cedict lookup` answers in milliseconds), and one that asks thousands pays for each index
// once and, all told, at most about twice what it would have paid knowing the number of
// questions in advance (the ski-rental rule: rent until the rent paid would have bought).
constexpr std::uint32_t traditional_scans = 3;
constexpr std::uint32_t simplified_scans = 3;
constexpr std::uint32_t pinyin_scans = 9;
constexpr std::uint32_t english_scans = 4;

// Builds an index once, for every thread; `built` tells look-ups it is complete.
template <class Build>
void build_once(std::once_flag& once, std::atomic<bool>& built, Build build) {
  std::call_once(once, [&] {
    build();
    built.store(true, std::memory_order_release);
  });
}

// Whether this look-up uses the index (building it if this is the look-up that should) rather
// than scan the entries. Both give the same entries.
template <class Build>
bool use_index(std::atomic<std::uint32_t>& lookups, std::uint32_t scans, std::once_flag& once,
               std::atomic<bool>& built, Build build) {
  if (built.load(std::memory_order_acquire)) return true;
  if (lookups.fetch_add(1, std::memory_order_relaxed) < scans) return false;
  build_once(once, built, build);
  return true;
}

// The entries whose `field` is exactly `key`, in file order: among those of the key's hash in
// `index` if `indexed`, else among all.
template <class Field>
std::vector<std::uint32_t> headword_numbers(const Data& d, std::string_view key, bool indexed,
                                            const detail::HashIndex& index, Field field) {
  std::vector<std::uint32_t> out;
  const auto take = [&](std::uint32_t e) {
    if (field(d.records[e]) == key) out.push_back(e);
  };
  if (indexed) {
    index.for_each_candidate(detail::hash_key(key), take);
  } else {
    for (std::uint32_t e = 0; e < d.records.size(); ++e) take(e);
  }
  return out;
}

std::vector<std::uint32_t> traditional_numbers(Data& d, std::string_view key) {
  const bool indexed = use_index(d.traditional_lookups, traditional_scans, d.traditional_once,
                                 d.traditional_built, [&] { build_traditional(d); });
  return headword_numbers(d, key, indexed, d.traditional,
                          [](const Record& r) { return r.traditional(); });
}

std::vector<std::uint32_t> simplified_numbers(Data& d, std::string_view key) {
  const bool indexed = use_index(d.simplified_lookups, simplified_scans, d.simplified_once,
                                 d.simplified_built, [&] { build_simplified(d); });
  return headword_numbers(d, key, indexed, d.simplified,
                          [](const Record& r) { return r.simplified(); });
}

std::vector<Entry> entries_of(const Data& d, const std::vector<std::uint32_t>& numbers) {
  std::vector<Entry> out;
  out.reserve(numbers.size());
  for (const std::uint32_t i : numbers) out.push_back(d.entry(i));
  return out;
}

}  // namespace

void Dictionary::build_indexes() const {
  Data& d = *data_;
  build_once(d.traditional_once, d.traditional_built, [&] { build_traditional(d); });
  build_once(d.simplified_once, d.simplified_built, [&] { build_simplified(d); });
  build_once(d.pinyin_once, d.pinyin_built, [&] { build_pinyin(d); });
  build_once(d.english_once, d.english_built, [&] { build_english(d); });
}

std::vector<Entry> Dictionary::find_traditional(std::string_view headword) const {
  return entries_of(*data_, traditional_numbers(*data_, headword));
}

std::vector<Entry> Dictionary::find_simplified(std::string_view headword) const {
  return entries_of(*data_, simplified_numbers(*data_, headword));
}

std::vector<Entry> Dictionary::find_headword(std::string_view headword) const {
  const std::vector<std::uint32_t> traditional = traditional_numbers(*data_, headword);
  const std::vector<std::uint32_t> simplified = simplified_numbers(*data_, headword);
  std::vector<std::uint32_t> both;
  // Both lists ascend, in file order; an entry in both is listed once.
  std::set_union(traditional.begin(), traditional.end(), simplified.begin(), simplified.end(),
                 std::back_inserter(both));
  return entries_of(*data_, both);
}

std::vector<Entry> Dictionary::find_pinyin(std::string_view query) const {
  Data& d = *data_;
  std::string toneless;
  append_pinyin_key(query, /*keep_tones=*/false, toneless);
  if (toneless.empty()) return {};
  // The entries with the query's key: those of its hash in the index, or any entry, checked.
  std::vector<std::uint32_t> candidates;
  std::string scratch;
  const auto take = [&](std::uint32_t e) {
    if (toneless_key_is(d.records[e].pinyin(), toneless, scratch)) candidates.push_back(e);
  };
  if (use_index(d.pinyin_lookups, pinyin_scans, d.pinyin_once, d.pinyin_built,
                [&] { build_pinyin(d); })) {
    d.pinyin.for_each_candidate(detail::hash_key(toneless), take);
  } else {
    for (std::uint32_t e = 0; e < d.records.size(); ++e) take(e);
  }
  // With tones in the query, the entries' tones must match as well.
  std::string toned_query;
  append_pinyin_key(query, /*keep_tones=*/true, toned_query);
  if (toned_query.size() == toneless.size()) return entries_of(d, candidates);
  std::vector<std::uint32_t> found;
  for (const std::uint32_t e : candidates) {
    scratch.clear();
    append_pinyin_key(d.records[e].pinyin(), /*keep_tones=*/true, scratch);
    if (tones_match(toned_query, scratch)) found.push_back(e);
  }
  return entries_of(d, found);
}

std::vector<Entry> Dictionary::find_english(std::string_view query) const {
  Data& d = *data_;
  std::vector<std::string> words;
  std::string scratch;
  for_each_word(query, scratch, [&](std::string_view word) { words.emplace_back(word); });
  if (words.empty()) return {};
  // The entries with every word: among those of the first word's hash in the index, or among
  // all entries, those whose glosses have each word.
  std::vector<std::uint32_t> found;
  const auto take = [&](std::uint32_t e) {
    const std::string_view text = d.english_text(e);
    if (std::all_of(words.begin(), words.end(),
                    [&](const std::string& w) { return contains_word(text, w); })) {
      found.push_back(e);
    }
  };
  if (use_index(d.english_lookups, english_scans, d.english_once, d.english_built,
                [&] { build_english(d); })) {
    d.english.for_each_candidate(detail::hash_key(words[0]), take);
  } else {
    for (std::uint32_t e = 0; e < d.records.size(); ++e) take(e);
  }
  return entries_of(d, found);
}

}  // namespace bufstream::cedict
