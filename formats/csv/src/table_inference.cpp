#include "table_inference.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include <bufstream/csv/reader.hpp>
#include <bufstream/errors.hpp>
#include <bufstream/memory_read_stream.hpp>

namespace bufstream::csv::detail {

namespace {

// Which types of the ladder every value so far fits. While every value is an integer, whether
// each also fits a double needs no parse of its own: an integer's text does, unless a double
// cannot hold it exactly (is_inexact_in_double, only for texts of 16 bytes or more).
class TypeCandidates {
 public:
  void add(std::string_view text) noexcept {
    if (text.empty()) return;
    seen_ = true;
    if (boolean_ && !inferred_boolean(text)) boolean_ = false;
    if (integer_) {
      if (inferred_integer(text)) {
        if (double_ && text.size() >= 16 && is_inexact_in_double(text)) double_ = false;
        return;
      }
      integer_ = false;
    }
    if (double_ && !inferred_double(text)) double_ = false;
  }
  // False once only text is left: later values change nothing.
  bool open() const noexcept { return boolean_ || integer_ || double_; }
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

// The part of `sample` whose records are whole: when the input goes on past the sample, up to
// its last line end (a record cut short would have too few fields; where that line end lies
// inside a quoted field, the quote left open at the end is the reader's error, which ends the
// sample before that record). A sample without a line end is one record, kept as it is.
std::string_view whole_records(std::string_view sample, bool whole_input) noexcept {
  if (whole_input) return sample;
  const std::size_t last = sample.find_last_of("\r\n");
  return last == std::string_view::npos ? sample : sample.substr(0, last + 1);
}

// Calls `f(record)` for the records of `sample` as a reader with `separator` reads them, up to
// `max_records` or until `f` returns false. A malformed record ends the sample: the records
// before it are whole.
template <class F>
void for_each_sample_record(std::string_view sample, char separator, const TableOptions& options,
                            std::size_t max_records, F f) {
  MemoryReadStream in(sample);
  Reader reader(in, {.separator = separator,
                     .lazy_quotes = options.lazy_quotes,
                     .variable_field_count = true,
                     .skip_empty_lines = options.skip_empty_lines,
                     .skip_bom = options.skip_bom});
  try {
    for (std::size_t n = 0; n < max_records; ++n) {
      const Record* record = reader.next();
      if (record == nullptr || !f(*record)) return;
    }
  } catch (const ParseError&) {
    return;
  }
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

// The score of `separator`; or, where its first record shows that it cannot beat `best`
// (one column against several), that much of it.
Score score(std::string_view sample, char separator, const TableOptions& options,
            std::size_t max_records, const Score& best) {
  Score s;
  bool first = true;
  for_each_sample_record(sample, separator, options, max_records, [&](const Record& record) {
    if (first) {
      first = false;
      s.columns = record.size();
      s.several_columns = s.columns > 1;
      if (best.several_columns && !s.several_columns) return false;
    } else if (record.size() != s.columns) {
      return false;  // the consistent records are counted from the first on
    }
    ++s.consistent_records;
    return true;
  });
  return s;
}

// DuckDB's rule: the first record is a header when a value of it does not fit the type its
// column has in the records after it. When no column has a type but text (or there is no
// record after it), it is a header when each of its values is non-empty text that is not a
// number or a boolean.
bool detect_header(std::string_view sample, char separator, const TableOptions& options,
                   std::size_t max_records) {
  std::vector<std::string> first;
  std::vector<TypeCandidates> candidates;
  bool have_first = false;
  for_each_sample_record(sample, separator, options, max_records, [&](const Record& record) {
    if (!have_first) {
      have_first = true;
      first = record.to_strings();
      candidates.resize(first.size());
      return true;
    }
    const std::size_t n = std::min(first.size(), record.size());
    for (std::size_t c = 0; c < n; ++c) candidates[c].add(record[c]);
    return std::any_of(candidates.begin(), candidates.end(),
                       [](const TypeCandidates& t) { return t.open(); });
  });
  if (!have_first) return false;
  bool typed = false;
  for (std::size_t c = 0; c < first.size(); ++c) {
    const ColumnType type = candidates[c].type();
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
  const std::string_view records = whole_records(sample, whole_input);
  if (dialect.separator_inferred) {
    Score best;
    bool first = true;
    for (const char separator : {',', ';', '\t', '|'}) {
      const Score s = score(records, separator, options, max_records, best);
      if (first || best < s) {
        best = s;
        dialect.separator = separator;
        first = false;
      }
    }
  }
  if (dialect.header_inferred) {
    dialect.header = detect_header(records, dialect.separator, options, max_records);
  }
  return dialect;
}

}  // namespace bufstream::csv::detail
