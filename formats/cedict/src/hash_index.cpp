#include "hash_index.hpp"

#include <algorithm>
#include <stdexcept>

namespace bufstream::cedict::detail {

void HashIndex::too_many() { throw std::length_error("cedict: more than 2^32 index entries"); }

void HashIndex::finish() {
  for (std::size_t g = 1; g < starts_.size(); ++g) starts_[g] += starts_[g - 1];
  const std::size_t n = pairs_.size();
  grouped_.reserve(n);
  Pair* const out = grouped_.end();
  std::array<std::uint32_t, (std::size_t{1} << group_bits)>
      next;  // where each group's next pair goes
  std::copy(starts_.begin(), starts_.end() - 1, next.begin());
  for (const Pair& p : pairs_) out[next[p.hash & group_mask]++] = p;
  grouped_.set_end(out + n);
  pairs_.release();
  finished_ = true;
}

}  // namespace bufstream::cedict::detail
