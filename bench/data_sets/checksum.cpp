#include "data_sets/checksum.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace bufstream::bench {
namespace {

constexpr std::uint64_t fnv_offset = 14695981039346656037ULL;
constexpr std::uint64_t fnv_prime = 1099511628211ULL;

std::uint64_t fnv1a(std::uint64_t hash, std::string_view bytes) noexcept {
  for (char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= fnv_prime;
  }
  return hash;
}

bool close_enough(double got, double expected) noexcept {
  return std::abs(got - expected) <= 1e-12 * std::max(1.0, std::abs(expected));
}

}  // namespace

bool Checksum::matches(const Checksum& expected) const noexcept {
  return count == expected.count && exact == expected.exact &&
         close_enough(sum_x, expected.sum_x) && close_enough(sum_y, expected.sum_y);
}

std::string Checksum::describe() const {
  return fmt::format("count {}, hash {:016x}, sums {:.17g} / {:.17g}", count, exact, sum_x, sum_y);
}

void RowChecksum::mix(std::uint64_t value) noexcept {
  sum_.exact = (sum_.exact ^ value) * fnv_prime + (value >> 29);
}

void RowChecksum::add(std::int64_t i, std::int64_t minus_i, double x, double y,
                      std::string_view words) noexcept {
  if (sum_.count == 0) sum_.exact = fnv_offset;
  ++sum_.count;
  mix(static_cast<std::uint64_t>(i));
  mix(static_cast<std::uint64_t>(minus_i));
  mix(fnv1a(fnv_offset, words));
  sum_.sum_x += x;
  sum_.sum_y += y;
}

Checksum checksum(const std::vector<Row>& rows) noexcept {
  RowChecksum sum;
  for (const Row& row : rows) sum.add(row);
  return sum.result();
}

Checksum checksum(const DataSet& set) noexcept { return checksum(set.rows); }

Checksum bytes_checksum(std::string_view bytes) noexcept {
  return {.count = bytes.size(), .exact = fnv1a(fnv_offset, bytes), .sum_x = 0, .sum_y = 0};
}

}  // namespace bufstream::bench
