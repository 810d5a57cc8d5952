// csv::Header: a header record's names, for looking columns up by name.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bufstream::csv {

/// A header record's names, for looking columns up by name.
class Header {
 public:
  Header() = default;
  /// A header with these names, in column order.
  explicit Header(std::vector<std::string> names) : names_(std::move(names)) {}

  /// The names, in column order.
  const std::vector<std::string>& names() const noexcept { return names_; }
  /// The number of columns.
  std::size_t size() const noexcept { return names_.size(); }
  /// True if the header has no column.
  bool empty() const noexcept { return names_.empty(); }

  /// The index of the first column called `name` (exact, case-sensitive), if any.
  std::optional<std::size_t> find(std::string_view name) const noexcept;
  /// The index of the column called `name`; throws `AccessError` listing the names
  /// there are when no column has it.
  std::size_t index(std::string_view name) const;

 private:
  std::vector<std::string> names_;
};

}  // namespace bufstream::csv
