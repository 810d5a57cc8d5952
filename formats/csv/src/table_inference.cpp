#include "table_inference.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include <bufstream/csv/reader.hpp>
#include <bufstream/errors.hpp>
#include <bufstream/memory_read_stream.hpp>

namespace bufstream::csv::detail {

namespace {

// Which types of the ladder every value so far fits.
class TypeCandidates {
 public:
  void add(std::string_view text) noexcept {
    if (text.empty()) return;
    seen_ = true;
    if (boolean_ && !inferred_boolean(text)) boolean_ = false;
    if (integer_ && !inferred_integer(text)) integer_ = false;
    if (double_ && !inferred_double(text)) double_ = false;
  }
  // False once only text is left: later values change nothing.
  bool open() const noexcept { return boolean_ || integer_ || double_; }
  bool seen() const noexcept { return seen_; }
  ColumnType type() const noexcept {
    if (!seen_) return ColumnType::text;
    if (boolean_) return ColumnType::boolean;
    if (integer_) return ColumnType::int64;
    if (double_) return ColumnType::float64;
    return ColumnType::text;
  }

 private:
  bool boolean_ = true;
  bool integer_ = true;
  bool double_ = true;
  bool seen_ = false;
};

using SampleRecords = std::vector<std::vector<std::string>>;

// The records of `sample` as a reader with `separator` reads them, up to `max_records`. A
// record the sample may have cut (the last, when the sample is not the whole input) is left
// out unless it is the only one; so are a malformed record and what follows it.
SampleRecords sample_records(std::string_view sample, bool whole_input, char separator,
                             const TableOptions& options, std::size_t max_records) {
  MemoryReadStream in(sample);
  Reader reader(in, {.separator = separator,
                     .lazy_quotes = options.lazy_quotes,
                     .variable_field_count = true,
                     .skip_empty_lines = options.skip_empty_lines,
                     .skip_bom = options.skip_bom});
  SampleRecords records;
  bool at_end = false;
  try {
    while (records.size() < max_records) {
      const Record* record = reader.next();
      if (record == nullptr) {
        at_end = true;
        break;
      }
      records.push_back(record->to_strings());
    }
  } catch (const ParseError&) {
    return records;  // the records before the malformed one are whole
  }
  if (at_end && !whole_input && records.size() > 1) records.pop_back();
  return records;
}

// A separator's score: more columns than one first, then the records that have as many
// fields as the first, then the number of columns.
struct Score {
  bool several_columns = false;
  std::size_t consistent_records = 0;
  std::size_t columns = 0;

  friend bool operator<(const Score& a, const Score& b) noexcept {
    if (a.several_columns != b.several_columns) return !a.several_columns;
    if (a.consistent_records != b.consistent_records)
      return a.consistent_records < b.consistent_records;
    return a.columns < b.columns;
  }
};

Score score(const SampleRecords& records) {
  if (records.empty()) return {};
  const std::size_t columns = records.front().size();
  std::size_t consistent = 0;
  while (consistent < records.size() && records[consistent].size() == columns) ++consistent;
  return {columns > 1, consistent, columns};
}

// DuckDB's rule: the first record is a header when a value of it does not fit the type its
// column has in the records after it. When no column has a type but text (or there is no
// record after it), it is a header when each of its values is non-empty text that is not a
// number or a boolean.
bool detect_header(const SampleRecords& records) {
  if (records.empty()) return false;
  const std::vector<std::string>& first = records.front();
  bool typed = false;
  for (std::size_t c = 0; c < first.size(); ++c) {
    TypeCandidates candidates;
    for (std::size_t r = 1; r < records.size() && candidates.open(); ++r) {
      if (c < records[r].size()) candidates.add(records[r][c]);
    }
    const ColumnType type = candidates.type();
    if (type == ColumnType::text) continue;
    typed = true;
    if (!first[c].empty() && !fits(type, first[c])) return true;
  }
  if (typed) return false;
  return std::all_of(first.begin(), first.end(), [](const std::string& name) {
    return !name.empty() && narrowest_type(name) == ColumnType::text;
  });
}

}  // namespace

bool is_inexact_in_double(std::string_view text) noexcept {
  const std::string_view digits = !text.empty() && text.front() == '-' ? text.substr(1) : text;
  if (digits.empty() ||
      !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return false;  // not an integer's text
  }
  constexpr std::uint64_t exact_limit = std::uint64_t{1} << 53;
  const std::optional<std::uint64_t> magnitude = parse_integer<std::uint64_t>(digits);
  return !magnitude || *magnitude > exact_limit;
}

bool fits(ColumnType type, std::string_view text) noexcept {
  switch (type) {
    case ColumnType::boolean: return inferred_boolean(text).has_value();
    case ColumnType::int64: return inferred_integer(text).has_value();
    case ColumnType::float64: return inferred_double(text).has_value();
    case ColumnType::text: break;
  }
  return true;
}

ColumnType narrowest_type(std::string_view text) noexcept {
  TypeCandidates candidates;
  candidates.add(text);
  return candidates.type();
}

ColumnType infer_type(const TableColumn& column, std::size_t sample_rows) {
  const ColumnView<std::string_view> values = column.as<std::string_view>();
  const std::size_t n = sample_rows == 0 ? values.size() : std::min(sample_rows, values.size());
  TypeCandidates candidates;
  for (std::size_t i = 0; i < n && candidates.open(); ++i) candidates.add(values[i]);
  return candidates.type();
}

ColumnType widened_type(ColumnType type, std::string_view value) noexcept {
  if (type == ColumnType::int64 && fits(ColumnType::float64, value)) return ColumnType::float64;
  return ColumnType::text;
}

Dialect sniff_dialect(std::string_view sample, bool whole_input, const TableOptions& options) {
  Dialect dialect;
  dialect.separator = options.separator.value_or(',');
  dialect.separator_inferred = !options.separator.has_value();
  dialect.header_inferred = !options.header.has_value();
  if (options.header) dialect.header = *options.header;
  if (!dialect.separator_inferred && !dialect.header_inferred) return dialect;

  // One record more than the sample of values: the first may be the header.
  const std::size_t max_records =
      options.sample_rows == 0 ? static_cast<std::size_t>(-1) : options.sample_rows + 1;
  SampleRecords best;
  if (dialect.separator_inferred) {
    Score best_score;
    bool first = true;
    for (const char separator : {',', ';', '\t', '|'}) {
      SampleRecords records = sample_records(sample, whole_input, separator, options, max_records);
      const Score s = score(records);
      if (first || best_score < s) {
        best_score = s;
        best = std::move(records);
        dialect.separator = separator;
        first = false;
      }
    }
  } else {
    best = sample_records(sample, whole_input, dialect.separator, options, max_records);
  }
  if (dialect.header_inferred) dialect.header = detect_header(best);
  return dialect;
}

}  // namespace bufstream::csv::detail
