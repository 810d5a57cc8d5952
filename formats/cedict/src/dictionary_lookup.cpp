// Look-ups: sorted arrays of entry numbers, built on first use, searched by binary search.
#include <algorithm>
#include <cstdint>
#include <string>

#include <bufstream/cedict/dictionary.hpp>

#include "dictionary_data.hpp"
#include "english_words.hpp"
#include "pinyin_key.hpp"

namespace bufstream::cedict {

namespace {

using Data = detail::DictionaryData;

// The first eight bytes of `key`, big-endian, padded with zeros: comparing these orders keys
// as comparing the keys does, except between keys that share them.
std::uint64_t prefix_of(std::string_view key) noexcept {
  std::uint64_t v = 0;
  const std::size_t n = std::min<std::size_t>(key.size(), 8);
  for (std::size_t i = 0; i < n; ++i) v = (v << 8) | static_cast<unsigned char>(key[i]);
  if (n == 0) return 0;  // an empty key (a pinyin of tone digits only): no shift by 64
  return n == 8 ? v : v << (8 * (8 - n));
}

// Entry numbers 0..count-1 sorted by `key_of(number)`, ties in file order. Sorting (prefix,
// number) pairs keeps most comparisons inside the array, away from the text.
template <class KeyOf>
std::vector<std::uint32_t> sorted_by_key(std::size_t count, KeyOf key_of) {
  struct Item {
    std::uint64_t prefix;
    std::uint32_t number;
  };
  std::vector<Item> items(count);
  for (std::uint32_t i = 0; i < count; ++i) items[i] = {prefix_of(key_of(i)), i};
  std::sort(items.begin(), items.end(), [&](const Item& a, const Item& b) {
    if (a.prefix != b.prefix) return a.prefix < b.prefix;
    const std::string_view ka = key_of(a.number);
    const std::string_view kb = key_of(b.number);
    return ka < kb || (ka == kb && a.number < b.number);
  });
  std::vector<std::uint32_t> order(count);
  for (std::size_t i = 0; i < count; ++i) order[i] = items[i].number;
  return order;
}

// Numbers distinct words: open addressing over a flat table, one probe per word in the
// common case (a node-based map cost most of the English index's build in cache misses).
class WordNumbers {
 public:
  /// The number of `word`, new ones numbered in order from 0; `copy` stores a new word.
  template <class Copy>
  std::uint32_t number(std::string_view word, Copy copy) {
    if (2 * (words_.size() + 1) > slots_.size()) grow();
    const std::uint64_t h = hash(word);
    for (std::size_t i = h & (slots_.size() - 1);; i = (i + 1) & (slots_.size() - 1)) {
      Slot& slot = slots_[i];
      if (slot.number == empty) {
        slot = {h, static_cast<std::uint32_t>(words_.size())};
        words_.push_back(copy(word));
        return slot.number;
      }
      if (slot.hash == h && words_[slot.number] == word) return slot.number;
    }
  }
  const std::vector<std::string_view>& words() const noexcept { return words_; }

 private:
  static constexpr std::uint32_t empty = ~std::uint32_t{0};
  struct Slot {
    std::uint64_t hash;
    std::uint32_t number;
  };

  static std::uint64_t hash(std::string_view s) noexcept {  // FNV-1a, then mixed
    std::uint64_t h = 14695981039346656037ULL;
    for (const char c : s) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
    return h ^ (h >> 29);
  }

  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 1024 : 2 * old.size(), Slot{0, empty});
    for (const Slot& slot : old) {
      if (slot.number == empty) continue;
      std::size_t i = slot.hash & (slots_.size() - 1);
      while (slots_[i].number != empty) i = (i + 1) & (slots_.size() - 1);
      slots_[i] = slot;
    }
  }

  std::vector<Slot> slots_;
  std::vector<std::string_view> words_;
};

// The run of `order` whose key equals `key`.
template <class Key>
std::pair<const std::uint32_t*, const std::uint32_t*> equal_run(const std::vector<std::uint32_t>& order,
                                                                std::string_view key, Key key_of) {
  const auto lo = std::partition_point(order.begin(), order.end(),
                                       [&](std::uint32_t i) { return key_of(i) < key; });
  const auto hi = std::partition_point(lo, order.end(), [&](std::uint32_t i) { return key_of(i) == key; });
  return {order.data() + (lo - order.begin()), order.data() + (hi - order.begin())};
}

void build_pinyin(Data& d) {
  PinyinIndex& index = d.pinyin;
  index.ends.reserve(d.records.size());
  for (const Record& r : d.records) {
    append_pinyin_key(r.pinyin(), /*keep_tones=*/false, index.keys);
    index.ends.push_back(static_cast<std::uint32_t>(index.keys.size()));
  }
  index.keys.shrink_to_fit();
  index.order = sorted_by_key(d.records.size(), [&](std::uint32_t i) { return index.key(i); });
}

void build_english(Data& d) {
  EnglishIndex& index = d.english;
  // First pass: number the distinct words and list (word, entry) pairs, each pair once.
  WordNumbers numbers;
  std::vector<std::uint32_t> last_entry;  // per word: the last entry it was listed for, plus one
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  std::string scratch;
  const auto copy = [&](std::string_view word) { return index.text.copy(word); };
  for (std::uint32_t e = 0; e < d.records.size(); ++e) {
    const Record& r = d.records[e];
    for (std::uint32_t g = r.first_gloss, end = d.gloss_end(e); g < end; ++g) {
      for_each_word(d.gloss(r, g), scratch, [&](std::string_view word) {
        const std::uint32_t w = numbers.number(word, copy);
        if (w == last_entry.size()) last_entry.push_back(0);
        if (last_entry[w] != e + 1) {
          last_entry[w] = e + 1;
          pairs.emplace_back(w, e);
        }
      });
    }
  }
  // Second pass: words in sorted order, each with its entries (already ascending).
  const std::vector<std::string_view>& words = numbers.words();
  const std::vector<std::uint32_t> sorted = sorted_by_key(words.size(), [&](std::uint32_t w) { return words[w]; });
  std::vector<std::uint32_t> rank(sorted.size());
  index.words.reserve(sorted.size());
  for (std::uint32_t k = 0; k < sorted.size(); ++k) {
    rank[sorted[k]] = k;
    index.words.push_back(words[sorted[k]]);
  }
  index.starts.assign(sorted.size() + 1, 0);
  for (const auto& [word, entry] : pairs) ++index.starts[rank[word] + 1];
  for (std::size_t k = 1; k < index.starts.size(); ++k) index.starts[k] += index.starts[k - 1];
  index.postings.resize(pairs.size());
  std::vector<std::uint32_t> fill(index.starts.begin(), index.starts.end() - 1);
  for (const auto& [word, entry] : pairs) index.postings[fill[rank[word]]++] = entry;
}

void ensure_traditional(Data& d) {
  std::call_once(d.traditional_once, [&] {
    d.by_traditional = sorted_by_key(d.records.size(), [&](std::uint32_t i) { return d.records[i].traditional(); });
    d.traditional_built = true;
  });
}

void ensure_simplified(Data& d) {
  std::call_once(d.simplified_once, [&] {
    d.by_simplified = sorted_by_key(d.records.size(), [&](std::uint32_t i) { return d.records[i].simplified(); });
    d.simplified_built = true;
  });
}

void ensure_pinyin(Data& d) {
  std::call_once(d.pinyin_once, [&] {
    build_pinyin(d);
    d.pinyin_built = true;
  });
}

void ensure_english(Data& d) {
  std::call_once(d.english_once, [&] {
    build_english(d);
    d.english_built = true;
  });
}

std::vector<Entry> entries_of(const Data& d, const std::uint32_t* first, const std::uint32_t* last) {
  std::vector<Entry> out;
  out.reserve(static_cast<std::size_t>(last - first));
  for (; first != last; ++first) out.push_back(d.entry(*first));
  return out;
}

}  // namespace

void Dictionary::build_indexes() const {
  ensure_traditional(*data_);
  ensure_simplified(*data_);
  ensure_pinyin(*data_);
  ensure_english(*data_);
}

std::vector<Entry> Dictionary::find_traditional(std::string_view headword) const {
  Data& d = *data_;
  ensure_traditional(d);
  const auto [first, last] =
      equal_run(d.by_traditional, headword, [&](std::uint32_t i) { return d.records[i].traditional(); });
  return entries_of(d, first, last);
}

std::vector<Entry> Dictionary::find_simplified(std::string_view headword) const {
  Data& d = *data_;
  ensure_simplified(d);
  const auto [first, last] =
      equal_run(d.by_simplified, headword, [&](std::uint32_t i) { return d.records[i].simplified(); });
  return entries_of(d, first, last);
}

std::vector<Entry> Dictionary::find_headword(std::string_view headword) const {
  Data& d = *data_;
  ensure_traditional(d);
  ensure_simplified(d);
  const auto [t0, t1] =
      equal_run(d.by_traditional, headword, [&](std::uint32_t i) { return d.records[i].traditional(); });
  const auto [s0, s1] =
      equal_run(d.by_simplified, headword, [&](std::uint32_t i) { return d.records[i].simplified(); });
  std::vector<std::uint32_t> both;
  std::set_union(t0, t1, s0, s1, std::back_inserter(both));  // both runs ascend, in file order
  return entries_of(d, both.data(), both.data() + both.size());
}

std::vector<Entry> Dictionary::find_pinyin(std::string_view query) const {
  Data& d = *data_;
  ensure_pinyin(d);
  std::string toneless;
  append_pinyin_key(query, /*keep_tones=*/false, toneless);
  if (toneless.empty()) return {};
  const auto [first, last] = equal_run(d.pinyin.order, toneless, [&](std::uint32_t i) { return d.pinyin.key(i); });
  std::string toned_query;
  append_pinyin_key(query, /*keep_tones=*/true, toned_query);
  const bool any_tone = toned_query.size() != toneless.size();
  // Candidates share the toneless key; with tones in the query, those must match as well.
  std::vector<std::uint32_t> found;
  std::string toned_entry;
  for (const std::uint32_t* p = first; p != last; ++p) {
    if (any_tone) {
      toned_entry.clear();
      append_pinyin_key(d.records[*p].pinyin(), /*keep_tones=*/true, toned_entry);
      if (!tones_match(toned_query, toned_entry)) continue;
    }
    found.push_back(*p);
  }
  return entries_of(d, found.data(), found.data() + found.size());
}

std::vector<Entry> Dictionary::find_english(std::string_view query) const {
  Data& d = *data_;
  ensure_english(d);
  const EnglishIndex& index = d.english;
  std::vector<std::uint32_t> result;
  bool first_word = true;
  bool any_word = false;
  std::string scratch;
  for_each_word(query, scratch, [&](std::string_view word) {
    any_word = true;
    const auto it = std::lower_bound(index.words.begin(), index.words.end(), word);
    std::vector<std::uint32_t> next;
    if (it != index.words.end() && *it == word) {
      const auto w = static_cast<std::size_t>(it - index.words.begin());
      const std::uint32_t* p0 = index.postings.data() + index.starts[w];
      const std::uint32_t* p1 = index.postings.data() + index.starts[w + 1];
      if (first_word) {
        next.assign(p0, p1);
      } else {
        std::set_intersection(result.begin(), result.end(), p0, p1, std::back_inserter(next));
      }
    }
    result.swap(next);
    first_word = false;
  });
  if (!any_word) return {};
  return entries_of(d, result.data(), result.data() + result.size());
}

}  // namespace bufstream::cedict
