// bufstream stats: each CSV file read into a csv::Table, with the dialect and types inferred as
// the library infers them; prints the dialect, then per column its type, the count of values,
// of empty fields, the least and the greatest value, and the columns a value widened.
#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <CLI/Error.hpp>

#include <bufstream/csv/table.hpp>

#include "commands.hpp"
#include "io.hpp"

namespace bufstream::cli {

namespace {

// A value as the table prints it, cut to `shown` bytes, with its line ends and tabs escaped so
// that a row of the table stays on one line.
std::string printable(std::string text) {
  constexpr std::size_t shown = 40;
  std::string out;
  for (const char c : text.substr(0, std::min(text.size(), shown))) {
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else {
      out += c;
    }
  }
  if (text.size() > shown) out += "...";
  return out;
}

// The rows of the least and the greatest valid value (numbers by value, booleans false before
// true, text by its bytes), or nullopt for a column without one. NaN is neither.
std::optional<std::pair<std::size_t, std::size_t>> extremes(const csv::TableColumn& column) {
  const auto find = [&](auto view) -> std::optional<std::pair<std::size_t, std::size_t>> {
    std::optional<std::pair<std::size_t, std::size_t>> found;
    for (std::size_t i = 0; i < view.size(); ++i) {
      if (!view.is_valid(i)) continue;
      const auto v = view[i];
      if constexpr (std::is_same_v<decltype(v), const double>) {
        if (v != v) continue;
      }
      if (!found) {
        found.emplace(i, i);
        continue;
      }
      if (v < view[found->first]) found->first = i;
      if (view[found->second] < v) found->second = i;
    }
    return found;
  };
  switch (column.type()) {
    case csv::ColumnType::boolean: return find(column.as<bool>());
    case csv::ColumnType::int64: return find(column.as<std::int64_t>());
    case csv::ColumnType::float64: return find(column.as<double>());
    case csv::ColumnType::text: break;
  }
  return find(column.as<std::string_view>());
}

std::string describe_separator(char separator) {
  if (separator == '\t') return "tab";
  return fmt::format("'{}'", separator);
}

std::string how(bool inferred) { return inferred ? "inferred" : "given"; }

// The lines of one file's report.
std::string report(const csv::Table& table, const std::string& name) {
  const csv::Dialect& d = table.dialect();
  std::string out = fmt::format("{}: separator {} ({}), quote '{}', header {} ({}), {} row{}\n",
                                name, describe_separator(d.separator), how(d.separator_inferred),
                                d.quote, d.header ? "yes" : "no", how(d.header_inferred),
                                table.row_count(), table.row_count() == 1 ? "" : "s");
  std::vector<std::vector<std::string>> rows{{"column", "type", "count", "empty", "min", "max"}};
  for (const csv::TableColumn& column : table.columns()) {
    const auto range = extremes(column);
    rows.push_back({printable(column.name()), std::string(csv::to_string(column.type())),
                    std::to_string(column.size() - column.empty_count()),
                    std::to_string(column.empty_count()),
                    range ? printable(column.text_of(range->first)) : "-",
                    range ? printable(column.text_of(range->second)) : "-"});
  }
  std::vector<std::size_t> widths(rows.front().size(), 0);
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  }
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      line += i + 1 < row.size() ? fmt::format("{:<{}}  ", row[i], widths[i]) : row[i];
    }
    out += line + '\n';
  }
  for (const csv::Widening& w : table.widenings()) {
    out += fmt::format("widened: column '{}' from {} to {} at row {} (line {}): '{}'\n",
                       printable(w.name), csv::to_string(w.from), csv::to_string(w.to), w.row + 1,
                       w.line, printable(w.value));
  }
  return out;
}

}  // namespace

int run_stats(const StatsArgs& args) {
  if (args.header && args.no_header)
    throw CLI::ValidationError("--header and --no-header exclude each other");
  Output output("-");
  const int status = read_each_input(args.paths, [&](Input& input, std::size_t) {
    input.read_as(args.read.encoding);
    csv::TableOptions options{.separator = args.read.separator,
                              .sample_rows = args.sample_rows,
                              .validate_utf8 = !args.read.bytes,
                              .source_name = input.name()};
    if (args.header) options.header = true;
    if (args.no_header) options.header = false;
    const csv::Table table = csv::Table::read(input.stream(), options);
    output.stream().write(report(table, input.name()));
  });
  output.finish();
  return status;
}

}  // namespace bufstream::cli
