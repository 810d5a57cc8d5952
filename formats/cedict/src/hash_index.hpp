// HashIndex: the entries that have a key (a headword, a pinyin without tones, an English word),
// found by the key's hash (private to the library).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <bufstream/numbers.hpp>

#include "english_words.hpp"
#include "record_array.hpp"

namespace bufstream::cedict::detail {

/// The hash of `key`'s eight-byte chunks (the last one shorter), each passed through
/// `chunk(std::uint64_t)` first: mixed by multiplications, 32 bits kept. Inline: the index
/// builds call it once per key, hundreds of thousands of times.
template <class Chunk>
std::uint32_t hash_chunks(std::string_view key, Chunk chunk) noexcept {
  constexpr auto mix = [](std::uint64_t h) {
    h *= 0xFF51AFD7ED558CCDULL;
    return h ^ (h >> 32);
  };
  const char* p = key.data();
  std::size_t n = key.size();
  std::uint64_t h = mix(0x9E3779B97F4A7C15ULL ^ n);
  for (; n > 8; p += 8, n -= 8) h = mix(h ^ chunk(swar::load_memory_order(p)));
  h = mix(h ^ chunk(swar::load_memory_order_partial(p, n)));
  h ^= h >> 29;
  h *= 0xC4CEB9FE1A85EC53ULL;
  return static_cast<std::uint32_t>(h ^ (h >> 32));
}

/// A 32-bit hash of `key`.
inline std::uint32_t hash_key(std::string_view key) noexcept {
  return hash_chunks(key, [](std::uint64_t x) { return x; });
}

/// `hash_key` of `key` with its ASCII capitals lower-cased, without making that copy (the
/// English index hashes the words where they stand in the glosses).
inline std::uint32_t hash_key_lower(std::string_view key) noexcept {
  return hash_chunks(key, lower_eight);
}

/// The (key hash, entry) pairs of every entry's keys, grouped by the low 11 bits of the hash.
/// The index keeps no keys: a look-up takes the entries of the pairs whose hash is the query's
/// and checks each one's key (at hand in its text), so a hash shared by two keys costs a check
/// more, never a wrong answer.
///
/// Built by `add` in entry order, which appends the pair and counts its group, then `finish`,
/// which moves the pairs into their groups in one pass (a counting sort: each group keeps the
/// entries in ascending order). A look-up reads its group, on average a 2048th of the pairs
/// (a few hundred for CC-CEDICT's English words; a group holding a word found in thousands of
/// entries costs the questions that fall into it microseconds). What this avoids: a hash table
/// of the distinct keys, whose probes missed the caches once or twice per word of the glosses,
/// and any sort of the pairs, which cost more than the rest of the build; the pass's writes go
/// to 2048 places at a time, which the caches hold.
///
/// Read-only, and safe to read from several threads, after `finish`.
class HashIndex {
 public:
  /// Makes room for `pairs` calls of `add` (a hint: more may come).
  void reserve(std::size_t pairs) { pairs_.reserve(pairs); }

  /// Adds `hash` for `entry`. Entries come in ascending order; an entry may add several
  /// hashes, and one more than once (it is reported once). Throws `std::length_error` past
  /// 2^32 - 1 pairs.
  void add(std::uint32_t hash, std::uint32_t entry) {
    if (pairs_.size() == max_pairs) too_many();
    pairs_.push_back({hash, entry});
    ++starts_[(hash & group_mask) + 1];
  }

  /// Moves the pairs into their groups. `add` must not be called after this.
  void finish();

  /// Calls `on_entry(std::uint32_t)` with each entry added with `hash`, once each, in ascending
  /// order (nothing before `finish`).
  template <class OnEntry>
  void for_each_candidate(std::uint32_t hash, OnEntry on_entry) const {
    if (!finished_) return;
    const std::size_t group = hash & group_mask;
    std::uint32_t last = 0;
    bool any = false;
    for (const Pair *p = grouped_.data() + starts_[group],
                    *end = grouped_.data() + starts_[group + 1];
         p != end; ++p) {
      if (p->hash != hash || (any && p->entry == last)) continue;
      last = p->entry;
      any = true;
      on_entry(last);
    }
  }

  /// Bytes held (capacities).
  std::size_t memory_bytes() const noexcept {
    return (pairs_.capacity() + grouped_.capacity()) * sizeof(Pair) + sizeof starts_;
  }

 private:
  static constexpr std::size_t group_bits = 11;
  static constexpr std::uint32_t group_mask = (std::uint32_t{1} << group_bits) - 1;
  static constexpr std::size_t max_pairs = 0xFFFFFFFF;
  [[noreturn]] static void too_many();

  struct Pair {
    std::uint32_t hash;
    std::uint32_t entry;
  };

  // Megabytes filled at once: RecordArrays, in huge pages where the system has them.
  RecordArray<Pair> pairs_;    // as added (only while building)
  RecordArray<Pair> grouped_;  // group g is grouped_[starts_[g], starts_[g + 1])
  // Before `finish`: group g's count at [g + 1]; after, where each group starts.
  std::array<std::uint32_t, (std::size_t{1} << group_bits) + 1> starts_{};
  bool finished_ = false;
};

}  // namespace bufstream::cedict::detail
