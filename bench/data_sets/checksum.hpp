// Checksums that every benchmark read is validated against, so that a reader that skips work
// (or a compiler that removes it) is caught.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "data_sets/data_set.hpp"

namespace bufstream::bench {

/// What a read produced, reduced to a few numbers. For rows: `count` rows, `exact` a hash of
/// the integer fields and strings in order, `sum_x`/`sum_y` the sums of the two numeric
/// columns. For raw bytes: `count` bytes and `exact` their hash (the sums stay 0).
struct Checksum {
  std::uint64_t count = 0;
  std::uint64_t exact = 0;
  double sum_x = 0;
  double sum_y = 0;

  /// Counts and hashes must be equal; the sums may differ by a relative 1e-12, since a
  /// reader that is not correctly rounded (RapidJSON's default) may be off by an ulp.
  bool matches(const Checksum& expected) const noexcept;
  std::string describe() const;
};

/// Builds a row checksum one row at a time, from whatever representation a reader produced.
class RowChecksum {
 public:
  void add(std::int64_t i, std::int64_t minus_i, double x, double y,
           std::string_view words) noexcept;
  void add(const Row& row) noexcept { add(row.i, row.minus_i, row.x, row.y, row.words); }
  Checksum result() const noexcept { return sum_; }

 private:
  void mix(std::uint64_t value) noexcept;
  Checksum sum_;
};

Checksum checksum(const std::vector<Row>& rows) noexcept;
Checksum checksum(const DataSet& set) noexcept;
/// `count` is the size, `exact` an FNV-1a hash of the bytes.
Checksum bytes_checksum(std::string_view bytes) noexcept;

}  // namespace bufstream::bench
