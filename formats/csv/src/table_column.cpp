// csv::TableColumn and the parts of csv::Table that do not read: building a column value by
// value, looking columns up, and the errors of a lookup.
#include <bufstream/csv/table.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <bufstream/csv/field_converter.hpp>
#include <bufstream/errors.hpp>
#include <bufstream/numbers.hpp>

namespace bufstream::csv {

std::string_view to_string(ColumnType type) noexcept {
  switch (type) {
    case ColumnType::boolean: return "boolean";
    case ColumnType::int64: return "int64";
    case ColumnType::float64: return "double";
    case ColumnType::text: break;
  }
  return "text";
}

TableColumn::TableColumn(std::string name, ColumnType type) : name_(std::move(name)), type_(type) {}

void TableColumn::check_type(ColumnType wanted) const {
  if (wanted == type_) return;
  throw AccessError(fmt::format("csv::Table: column '{}' holds {} values, not {}", name_,
                                to_string(type_), to_string(wanted)));
}

void TableColumn::push_validity(bool valid) {
  if (size_ % 64 == 0) validity_.push_back(0);
  if (valid) {
    validity_.back() |= std::uint64_t{1} << (size_ % 64);
  } else {
    ++empty_count_;
  }
  ++size_;
}

void TableColumn::reserve(std::size_t rows) {
  validity_.reserve(rows / 64 + 1);
  switch (type_) {
    case ColumnType::boolean: booleans_.reserve(rows); break;
    case ColumnType::int64: integers_.reserve(rows); break;
    case ColumnType::float64: doubles_.reserve(rows); break;
    case ColumnType::text:
      offsets_.reserve(rows + 1);
      // The text of `rows` values as long as the average so far, and a sixteenth more.
      if (size_ != 0 && rows > size_) {
        const double per_value = static_cast<double>(bytes_.size()) / static_cast<double>(size_);
        bytes_.reserve(static_cast<std::size_t>(per_value * static_cast<double>(rows) * 1.0625));
      }
      break;
  }
}

void TableColumn::append_empty() {
  switch (type_) {
    case ColumnType::boolean: booleans_.push_back(0); break;
    case ColumnType::int64: integers_.push_back(0); break;
    case ColumnType::float64: doubles_.push_back(0.0); break;
    case ColumnType::text: offsets_.push_back(bytes_.size()); break;
  }
  push_validity(false);
}

void TableColumn::append(std::string_view text) {
  if (text.empty()) {
    append_empty();
    return;
  }
  // Converted first: a value that does not convert leaves the column as it was.
  switch (type_) {
    case ColumnType::boolean: booleans_.push_back(FieldConverter<bool>::parse(text) ? 1 : 0); break;
    case ColumnType::int64: integers_.push_back(FieldConverter<std::int64_t>::parse(text)); break;
    case ColumnType::float64: doubles_.push_back(FieldConverter<double>::parse(text)); break;
    case ColumnType::text:
      bytes_.append(text);
      offsets_.push_back(bytes_.size());
      break;
  }
  push_validity(true);
}

std::string TableColumn::text_of(std::size_t i) const {
  if (!is_valid(i)) return {};
  switch (type_) {
    case ColumnType::boolean: return booleans_[i] != 0 ? "true" : "false";
    case ColumnType::int64: {
      char buffer[max_integer_chars];
      return {buffer, format_integer(buffer, integers_[i])};
    }
    case ColumnType::float64: {
      char buffer[max_double_chars];
      return {buffer, format_double(buffer, doubles_[i])};
    }
    case ColumnType::text: break;
  }
  return std::string(as<std::string_view>()[i]);
}

// ---- Table ----------------------------------------------------------------------------------

Table::Table(std::vector<TableColumn> columns, Dialect dialect, std::vector<Widening> widenings)
    : columns_(std::move(columns)), dialect_(dialect), widenings_(std::move(widenings)) {
  rows_ = columns_.empty() ? 0 : columns_.front().size();
  for (const TableColumn& c : columns_) {
    if (c.size() != rows_) {
      throw UsageError(fmt::format("csv::Table: column '{}' has {} values but column '{}' has {}",
                                   c.name(), c.size(), columns_.front().name(), rows_));
    }
  }
}

std::vector<std::string> Table::names() const {
  std::vector<std::string> names;
  names.reserve(columns_.size());
  for (const TableColumn& c : columns_) names.push_back(c.name());
  return names;
}

std::optional<std::size_t> Table::find(std::string_view name) const noexcept {
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    if (columns_[i].name() == name) return i;
  }
  return std::nullopt;
}

const TableColumn& Table::column(std::size_t i) const {
  if (i >= columns_.size()) {
    throw AccessError(fmt::format("csv::Table: no column {} (the table has {} column{})", i,
                                  columns_.size(), columns_.size() == 1 ? "" : "s"));
  }
  return columns_[i];
}

const TableColumn& Table::column(std::string_view name) const {
  if (const std::optional<std::size_t> i = find(name)) return columns_[*i];
  throw AccessError(
      fmt::format("csv::Table: no column '{}' (it has: {})", name, fmt::join(names(), ", ")));
}

}  // namespace bufstream::csv
