// The two data sets of the serialization benchmarks (BENCHMARKS.md section 1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bufstream::bench {

/// `floats`: row i is `[i, -i, 1.0 / i, sqrt(i), words(i)]`.
/// `integers`: row i is `[i, -i, i + 100000, i - 100000, words(i)]`.
enum class DataKind { floats, integers };

std::string_view to_string(DataKind kind) noexcept;
/// `"floats"` or `"integers"`; anything else gives `std::nullopt`.
std::optional<DataKind> parse_data_kind(std::string_view name) noexcept;

/// One row as the readers build it: two integers, two numbers, one string. In the `integers`
/// set `x` and `y` hold integers (exactly: they are far below 2^53); writers print them as
/// integers and readers may parse them as integers or as doubles.
struct Row {
  std::int64_t i = 0;
  std::int64_t minus_i = 0;
  double x = 0;
  double y = 0;
  std::string words;

  friend bool operator==(const Row&, const Row&) = default;
};

/// Row `i` (counting from 1) of a data set.
Row make_row(DataKind kind, std::int64_t i);

struct DataSet {
  DataKind kind = DataKind::floats;
  std::vector<Row> rows;

  /// True when `x` and `y` are integers, to be written without a fraction part.
  bool integral() const noexcept { return kind == DataKind::integers; }
};

/// Rows 1 .. `count` of the data set.
DataSet make_data_set(DataKind kind, std::size_t count);

}  // namespace bufstream::bench
