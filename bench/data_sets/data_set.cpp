#include "data_sets/data_set.hpp"

#include <cmath>

#include "data_sets/words.hpp"

namespace bufstream::bench {

std::string_view to_string(DataKind kind) noexcept {
  return kind == DataKind::floats ? "floats" : "integers";
}

std::optional<DataKind> parse_data_kind(std::string_view name) noexcept {
  if (name == "floats") return DataKind::floats;
  if (name == "integers") return DataKind::integers;
  return std::nullopt;
}

Row make_row(DataKind kind, std::int64_t i) {
  Row row{.i = i, .minus_i = -i, .words = words(i)};
  const auto as_double = static_cast<double>(i);
  if (kind == DataKind::floats) {
    row.x = 1.0 / as_double;
    row.y = std::sqrt(as_double);
  } else {
    row.x = static_cast<double>(i + 100000);
    row.y = static_cast<double>(i - 100000);
  }
  return row;
}

DataSet make_data_set(DataKind kind, std::size_t count) {
  DataSet set{.kind = kind, .rows = {}};
  set.rows.reserve(count);
  for (std::size_t i = 1; i <= count; ++i)
    set.rows.push_back(make_row(kind, static_cast<std::int64_t>(i)));
  return set;
}

}  // namespace bufstream::bench
