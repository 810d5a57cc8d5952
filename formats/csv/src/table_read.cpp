// csv::Table::read: the dialect sniffed from the input's first bytes (table_inference.cpp), the
// records tokenized by csv::Reader into columns (the types given by hand converted as they
// come, the others kept as text), then each inferred column given its type and converted,
// widened where a value does not fit.
#include <bufstream/csv/table.hpp>

#include <algorithm>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <bufstream/csv/reader.hpp>
#include <bufstream/csv/row_reader.hpp>
#include <bufstream/errors.hpp>

#include "table_inference.hpp"

namespace bufstream::csv {

namespace {

// The line each row starts on, as runs of rows on consecutive lines (a record over several
// lines, or a skipped empty line, starts a new run).
class RowLines {
 public:
  void add(std::uint64_t line) {
    if (line != next_line_) runs_.emplace_back(next_row_, line);
    ++next_row_;
    next_line_ = line + 1;
  }
  std::uint64_t line_of(std::uint64_t row) const {
    auto run =
        std::upper_bound(runs_.begin(), runs_.end(), row,
                         [](std::uint64_t r, const std::pair<std::uint64_t, std::uint64_t>& start) {
                           return r < start.first;
                         });
    if (run == runs_.begin()) return 0;
    --run;
    return run->second + (row - run->first);
  }

 private:
  std::vector<std::pair<std::uint64_t, std::uint64_t>> runs_;  // (first row, its line)
  std::uint64_t next_row_ = 0;
  std::uint64_t next_line_ = 0;
};

Dialect read_dialect(ReadStream& in, const TableOptions& options) {
  if (options.separator && options.header) return detail::sniff_dialect({}, true, options);
  // Read ahead, not consumed: the reader reads these bytes again from the window.
  const std::size_t wanted = std::max<std::size_t>(options.sniff_bytes, 1);
  const std::string_view window = in.fill(wanted);
  return detail::sniff_dialect(window.substr(0, wanted), window.size() < wanted, options);
}

// Which columns have a type given by hand, and which: by position or by header name.
std::vector<std::optional<ColumnType>> given_types(const TableOptions& options,
                                                   const std::vector<std::string>& names) {
  std::vector<std::optional<ColumnType>> given(names.size());
  if (names.empty()) return given;  // an empty input: no column to give a type
  if (!options.types.empty()) {
    if (options.types.size() != names.size()) {
      throw UsageError(fmt::format(
          "csv::Table::read: {} column types given (TableOptions::types) for {} columns",
          options.types.size(), names.size()));
    }
    std::copy(options.types.begin(), options.types.end(), given.begin());
  }
  for (const NamedColumnType& named : options.named_types) {
    const auto at = std::find(names.begin(), names.end(), named.name);
    if (at == names.end()) {
      throw UsageError(fmt::format(
          "csv::Table::read: a type is given for column '{}', but there is none (there are: {})",
          named.name, fmt::join(names, ", ")));
    }
    given[static_cast<std::size_t>(at - names.begin())] = named.type;
  }
  return given;
}

// The columns as they are read: given types converted, the others as text.
class ColumnsBuilder {
 public:
  explicit ColumnsBuilder(Reader& reader) : reader_(reader) {}

  void start(const std::vector<std::string>& names,
             const std::vector<std::optional<ColumnType>>& given) {
    for (std::size_t c = 0; c < names.size(); ++c) {
      columns_.emplace_back(names[c], given[c].value_or(ColumnType::text));
    }
  }

  void add(const Record& record) {
    const std::size_t n = record.size();
    const std::size_t columns = columns_.size();
    if (n > columns) {
      // No column reads this field: dropping it silently would lose data.
      throw reader_.field_error(columns, fmt::format("no column reads this field: the table has "
                                                     "{} column{}",
                                                     columns, columns == 1 ? "" : "s"));
    }
    std::size_t c = 0;
    try {
      for (; c < n; ++c) columns_[c].append(record[c]);
    } catch (const ConversionError& e) {
      detail::throw_conversion_error(reader_, record, c, columns_[c].name(), e.what());
    }
    for (; c < columns; ++c) columns_[c].append_empty();  // a short record, leniently
    lines_.add(record.line());
    if (++rows_ == reserve_at_) reserve_for_the_rest();
  }

  std::vector<TableColumn>& columns() noexcept { return columns_; }
  const RowLines& lines() const noexcept { return lines_; }

 private:
  // Room for every row at once, as soon as the reader can estimate how many are left (after
  // 1 MiB or a sixteenth of the input): growing step by step would copy each column about once
  // more, and fresh memory costs a page fault per 4 KiB (a quarter of a read's time).
  void reserve_for_the_rest() {
    const std::optional<std::uint64_t> left = reader_.estimated_records_left();
    if (!left) {
      reserve_at_ *= 2;  // too early to tell: ask again later
      return;
    }
    reserve_at_ = 0;
    const std::uint64_t rows = rows_ + *left + *left / 8;
    for (TableColumn& column : columns_) column.reserve(static_cast<std::size_t>(rows));
  }

  Reader& reader_;
  std::vector<TableColumn> columns_;
  RowLines lines_;
  std::uint64_t rows_ = 0;
  std::uint64_t reserve_at_ = 1024;  // the row count at which to reserve; 0: done
};

}  // namespace

Table Table::read(ReadStream& in, TableOptions options) {
  if (!options.types.empty() && !options.named_types.empty()) {
    throw UsageError(
        "csv::Table::read: column types are given both by position (TableOptions::types) and by "
        "name (TableOptions::named_types); give one");
  }
  const Dialect dialect = read_dialect(in, options);
  Reader reader(in, {.separator = dialect.separator,
                     .lazy_quotes = options.lazy_quotes,
                     .variable_field_count = options.variable_field_count,
                     .skip_empty_lines = options.skip_empty_lines,
                     .skip_bom = options.skip_bom,
                     .validate_utf8 = options.validate_utf8,
                     .source_name = options.source_name});
  std::vector<std::string> names;
  const Record* first = nullptr;
  if (dialect.header) {
    if (!reader.at_end()) names = reader.read_header().names();
  } else if ((first = reader.next()) != nullptr) {
    for (std::size_t c = 0; c < first->size(); ++c) names.push_back(fmt::format("column{}", c + 1));
  }
  const std::vector<std::optional<ColumnType>> given = given_types(options, names);
  ColumnsBuilder builder(reader);
  builder.start(names, given);
  if (first != nullptr) builder.add(*first);
  while (const Record* record = reader.next()) builder.add(*record);

  std::vector<TableColumn>& columns = builder.columns();
  std::vector<Widening> widenings;
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (given[c] || !options.infer_types) continue;
    // The narrowest type every value of the sample fits, found as the values are converted:
    // a value of the sample that does not fit the type so far widens it (and the column is
    // converted again, which happens at most twice), a later one is a widening of the
    // inferred type, which the table reports, as it does every widening after that one.
    const TableColumn& text = columns[c];
    const std::size_t sample =
        options.sample_rows == 0 ? text.size() : std::min(options.sample_rows, text.size());
    ColumnType type = detail::infer_type(text, options.sample_rows);
    while (type != ColumnType::text) {
      TableColumn typed(text.name(), type);
      const std::size_t row = typed.fill_from_text(text);
      if (row == text.size()) {
        columns[c] = std::move(typed);
        break;
      }
      const std::string_view value = text.as<std::string_view>()[row];
      const ColumnType wider = detail::widened_type(type, value);
      if (row >= sample || (!widenings.empty() && widenings.back().column == c)) {
        widenings.push_back(
            {c, text.name(), type, wider, row, builder.lines().line_of(row), std::string(value)});
      }
      type = wider;
    }
  }
  return Table(std::move(columns), dialect, std::move(widenings));
}

}  // namespace bufstream::csv
