// Helpers of the csv::Table tests: every reader setup, a column's values, the types.
#pragma once

#include <bufstream/csv/table.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "test_streams.hpp"

namespace bufstream::csv::table_testing {

// Runs `check(table)` on `text` read with `options` over every reader setup.
template <class Check>
void over_every_setup(std::string_view text, const TableOptions& options, Check check) {
  for (const auto& setup : testing::reader_setups()) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make(text);
    check(Table::read(*in, options));
  }
}

// The values of a column, nullopt where not valid.
template <class T>
std::vector<std::optional<T>> values(const Table& table, std::string_view name) {
  const ColumnView<T> view = table.column<T>(name);
  std::vector<std::optional<T>> out;
  for (std::size_t i = 0; i < view.size(); ++i) out.push_back(view.get(i));
  return out;
}

inline std::vector<ColumnType> types(const Table& table) {
  std::vector<ColumnType> out;
  for (const TableColumn& c : table.columns()) out.push_back(c.type());
  return out;
}

using Ints = std::vector<std::optional<std::int64_t>>;
using Doubles = std::vector<std::optional<double>>;
using Bools = std::vector<std::optional<bool>>;
using Texts = std::vector<std::optional<std::string_view>>;
using Names = std::vector<std::string>;

constexpr auto boolean = ColumnType::boolean;
constexpr auto int64 = ColumnType::int64;
constexpr auto float64 = ColumnType::float64;
constexpr auto text = ColumnType::text;

}  // namespace bufstream::csv::table_testing
