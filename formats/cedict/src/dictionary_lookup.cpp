// Look-ups: sorted arrays of entry numbers, built on first use, searched by binary search.
#include <algorithm>
#include <string>
#include <unordered_map>

#include <bufstream/cedict/dictionary.hpp>

#include "dictionary_data.hpp"
#include "english_words.hpp"
#include "pinyin_key.hpp"

namespace bufstream::cedict {

namespace {

using Data = detail::DictionaryData;

// Entry numbers sorted by one headword field, ties in file order.
template <class Field>
std::vector<std::uint32_t> sort_by(const std::vector<Record>& records, Field field) {
  std::vector<std::uint32_t> order(records.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    const std::string_view fa = field(records[a]);
    const std::string_view fb = field(records[b]);
    return fa < fb || (fa == fb && a < b);
  });
  return order;
}

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
  index.order.resize(d.records.size());
  for (std::uint32_t i = 0; i < index.order.size(); ++i) index.order[i] = i;
  std::sort(index.order.begin(), index.order.end(), [&](std::uint32_t a, std::uint32_t b) {
    const std::string_view ka = index.key(a);
    const std::string_view kb = index.key(b);
    return ka < kb || (ka == kb && a < b);
  });
}

void build_english(Data& d) {
  EnglishIndex& index = d.english;
  // First pass: number the distinct words and list (word, entry) pairs, each pair once.
  std::unordered_map<std::string_view, std::uint32_t> ids;
  std::vector<std::uint32_t> last_entry;  // per word: the last entry it was listed for, plus one
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  std::string scratch;
  for (std::uint32_t e = 0; e < d.records.size(); ++e) {
    const Record& r = d.records[e];
    for (std::uint32_t g = r.first_gloss; g < r.first_gloss + r.gloss_count; ++g) {
      for_each_word(d.gloss(r, g), scratch, [&](std::string_view word) {
        auto it = ids.find(word);
        if (it == ids.end()) {
          it = ids.emplace(index.text.copy(word), static_cast<std::uint32_t>(ids.size())).first;
          last_entry.push_back(0);
        }
        if (last_entry[it->second] != e + 1) {
          last_entry[it->second] = e + 1;
          pairs.emplace_back(it->second, e);
        }
      });
    }
  }
  // Second pass: words in sorted order, each with its entries (already ascending).
  std::vector<std::pair<std::string_view, std::uint32_t>> sorted(ids.begin(), ids.end());
  std::sort(sorted.begin(), sorted.end());
  std::vector<std::uint32_t> rank(sorted.size());
  index.words.reserve(sorted.size());
  for (std::uint32_t w = 0; w < sorted.size(); ++w) {
    rank[sorted[w].second] = w;
    index.words.push_back(sorted[w].first);
  }
  index.starts.assign(sorted.size() + 1, 0);
  for (const auto& [word, entry] : pairs) ++index.starts[rank[word] + 1];
  for (std::size_t w = 1; w < index.starts.size(); ++w) index.starts[w] += index.starts[w - 1];
  index.postings.resize(pairs.size());
  std::vector<std::uint32_t> fill(index.starts.begin(), index.starts.end() - 1);
  for (const auto& [word, entry] : pairs) index.postings[fill[rank[word]]++] = entry;
}

void ensure_traditional(Data& d) {
  std::call_once(d.traditional_once, [&] {
    d.by_traditional = sort_by(d.records, [](const Record& r) { return r.traditional(); });
    d.traditional_built = true;
  });
}

void ensure_simplified(Data& d) {
  std::call_once(d.simplified_once, [&] {
    d.by_simplified = sort_by(d.records, [](const Record& r) { return r.simplified(); });
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
