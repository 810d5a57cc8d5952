// csv::Table::read: the dialect sniffed from the input's first bytes (table_inference.cpp),
// then the records tokenized by csv::Reader and each value converted as it comes, to the type
// given by hand or inferred so far (table_builder.cpp) - on one thread, or in chunks on
// several (csv::read_chunks) whose columns are appended to the table's in input order.
#include <bufstream/csv/table.hpp>

#include <algorithm>
#include <mutex>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <bufstream/csv/parallel.hpp>
#include <bufstream/csv/reader.hpp>
#include <bufstream/csv/row_reader.hpp>
#include <bufstream/errors.hpp>
#include <bufstream/mapped_file.hpp>
#include <bufstream/memory_read_stream.hpp>

#include "table_builder.hpp"
#include "table_inference.hpp"

namespace bufstream::csv {

namespace {

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

// The columns of a table, or of one chunk of it, as its records are read.
class ColumnsBuilder {
 public:
  // `text_kept`: which columns keep their doubles' text (empty: all).
  void start(const std::vector<std::string>& names,
             const std::vector<std::optional<ColumnType>>& given,
             const std::vector<bool>& text_kept = {}) {
    columns_.clear();
    for (std::size_t c = 0; c < names.size(); ++c) {
      columns_.emplace_back(c, names[c], given[c], text_kept.empty() || text_kept[c]);
    }
    started_ = true;
  }

  // Appends one record of `reader`; widenings go to `reports` (none for a chunk's columns).
  void add(const Reader& reader, const Record& record, detail::WideningReports* reports) {
    const std::size_t n = record.size();
    const std::size_t columns = columns_.size();
    if (n > columns) {
      // No column reads this field: dropping it silently would lose data.
      throw reader.field_error(columns, fmt::format("no column reads this field: the table has "
                                                    "{} column{}",
                                                    columns, columns == 1 ? "" : "s"));
    }
    lines_.add(record.line());
    std::size_t c = 0;
    try {
      for (; c < n; ++c) columns_[c].append(record[c], reports);
    } catch (const ConversionError& e) {
      detail::throw_conversion_error(reader, record, c, columns_[c].name(), e.what());
    }
    for (; c < columns; ++c) columns_[c].append({}, reports);  // a short record, leniently
    ++rows_;
  }

  // Appends a chunk's columns, its lines numbered `line_offset` below the input's.
  void append(const ColumnsBuilder& chunk, std::uint64_t line_offset,
              detail::WideningReports* reports) {
    lines_.append(chunk.lines_, line_offset);  // first: a widening's report names its line
    for (std::size_t c = 0; c < columns_.size(); ++c)
      columns_[c].append_all(chunk.columns_[c], reports);
    rows_ += chunk.rows_;
  }

  void reserve(std::size_t rows) {
    for (detail::ColumnBuilder& column : columns_) column.reserve(rows);
  }
  // Empties the columns, keeping their memory.
  void clear() {
    for (detail::ColumnBuilder& column : columns_) column.clear();
    lines_.clear();
    rows_ = 0;
  }

  std::uint64_t rows() const noexcept { return rows_; }
  bool started() const noexcept { return started_; }
  const detail::RowLines& lines() const noexcept { return lines_; }

  std::vector<TableColumn> finish() && {
    std::vector<TableColumn> columns;
    columns.reserve(columns_.size());
    for (detail::ColumnBuilder& column : columns_) columns.push_back(std::move(column).finish());
    return columns;
  }

 private:
  std::vector<detail::ColumnBuilder> columns_;
  detail::RowLines lines_;
  std::uint64_t rows_ = 0;
  bool started_ = false;
};

ReadOptions reader_options(const Dialect& dialect, const TableOptions& options) {
  return {.separator = dialect.separator,
          .lazy_quotes = options.lazy_quotes,
          .variable_field_count = options.variable_field_count,
          .skip_empty_lines = options.skip_empty_lines,
          .skip_bom = options.skip_bom,
          .validate_utf8 = options.validate_utf8,
          .source_name = options.source_name};
}

// Reads the header, or the first record, which names the columns (nullptr, or that record,
// for the caller to add).
const Record* read_names(Reader& reader, const Dialect& dialect, std::vector<std::string>& names) {
  names.clear();
  if (dialect.header) {
    if (!reader.at_end()) names = reader.read_header().names();
    return nullptr;
  }
  const Record* first = reader.next();
  if (first != nullptr) {
    for (std::size_t c = 0; c < first->size(); ++c) names.push_back(fmt::format("column{}", c + 1));
  }
  return first;
}

class TableRead {
 public:
  // `text_kept`: which of the table's columns keep their doubles' text, for a widening to text
  // (empty: all; see TextNeeded).
  TableRead(const Dialect& dialect, const TableOptions& options, std::vector<bool> text_kept)
      : dialect_(dialect),
        options_(options),
        read_(reader_options(dialect, options)),
        text_kept_(std::move(text_kept)) {
    reports_.sample_rows =
        options.sample_rows == 0 ? static_cast<std::uint64_t>(-1) : options.sample_rows;
    reports_.lines = &table_.lines();
    reports_.widenings = &widenings_;
  }

  // On the calling thread, one reader of the whole input.
  void read_alone(ReadStream& in) {
    Reader reader(in, read_);
    const Record* first = set_columns(reader);
    table_.start(names_, given_, text_kept_);
    if (first != nullptr) table_.add(reader, *first, &reports_);
    // Room for every row at once, as soon as the reader can estimate how many are left (after
    // 1 MiB or a sixteenth of the input): growing step by step would copy each column about
    // once more, and fresh memory costs a page fault per 4 KiB.
    std::uint64_t reserve_at = 1024;
    while (const Record* record = reader.next()) {
      table_.add(reader, *record, &reports_);
      if (table_.rows() == reserve_at) {
        if (const std::optional<std::uint64_t> left = reader.estimated_records_left()) {
          table_.reserve(static_cast<std::size_t>(table_.rows() + *left + *left / 8));
          reserve_at = 0;
        } else {
          reserve_at *= 2;  // too early to tell: ask again later
        }
      }
    }
  }

  // In chunks, on `options.parallel`'s threads.
  template <class ReadChunks>
  void read_in_chunks(std::optional<std::uint64_t> input_size, ReadChunks read_chunks) {
    // Each chunk's columns, converted on a worker: what the sequential reader would have
    // made of its records, without reporting (the merge does, see ColumnBuilder::append_all).
    struct Part {
      ColumnsBuilder columns;
      std::uint64_t end_line = 1;  // the chunk reader's line after the chunk
    };
    std::mutex spare_mutex;
    std::vector<ColumnsBuilder> spares;  // emptied parts, their memory kept for the next
    const auto parse = [&](Reader& reader, const Chunk& chunk) {
      Part part;
      const Record* first = nullptr;
      if (chunk.index == 0) {
        first = set_columns(reader);  // the first record alone, or the whole input again
      } else {
        const std::lock_guard lock(spare_mutex);
        if (!spares.empty()) {
          part.columns = std::move(spares.back());
          spares.pop_back();
        }
      }
      if (chunk.index == 0 || !part.columns.started()) part.columns.start(names_, given_);
      if (first != nullptr) part.columns.add(reader, *first, nullptr);
      while (const Record* record = reader.next()) part.columns.add(reader, *record, nullptr);
      part.end_line = reader.continuation().line;
      return part;
    };
    std::uint64_t next_line = 1;  // the line the next chunk starts on
    std::uint64_t bytes_taken = 0;
    bool reserved = false;
    const auto take = [&](Part&& part, const Chunk& chunk) {
      if (!table_.started()) table_.start(names_, given_, text_kept_);
      // The first chunk's reader and one reading the rest of the input number lines as the
      // input does; the others from their chunk's first line, 1.
      const bool numbered_as_input = chunk.index == 0 || chunk.rest;
      const std::uint64_t line_offset = numbered_as_input ? 0 : next_line - 1;
      table_.append(part.columns, line_offset, &reports_);
      next_line = part.end_line + line_offset;
      bytes_taken += chunk.bytes.size();
      // Room for all the rows once some chunks give their density.
      if (!reserved && input_size && bytes_taken >= (std::uint64_t{1} << 18) &&
          *input_size > bytes_taken && table_.rows() != 0) {
        reserved = true;
        const double per_byte =
            static_cast<double>(table_.rows()) / static_cast<double>(bytes_taken);
        table_.reserve(
            static_cast<std::size_t>(per_byte * static_cast<double>(*input_size) * 1.05) + 16);
      }
      part.columns.clear();
      const std::lock_guard lock(spare_mutex);
      spares.push_back(std::move(part.columns));
    };
    read_chunks(ParallelReadOptions{.read = read_, .header = false, .parallel = options_.parallel},
                parse, take);
  }

  Table finish() && {
    // In column order; each column's in the order they happened.
    std::stable_sort(widenings_.begin(), widenings_.end(),
                     [](const Widening& a, const Widening& b) { return a.column < b.column; });
    return Table(std::move(table_).finish(), dialect_, std::move(widenings_));
  }

 private:
  // The column names and given types, from the header or the first record (returned).
  const Record* set_columns(Reader& reader) {
    const Record* first = read_names(reader, dialect_, names_);
    given_ = given_types(options_, names_);
    if (!text_kept_.empty()) text_kept_.resize(names_.size(), false);
    if (!options_.infer_types) {
      for (std::optional<ColumnType>& type : given_) type = type.value_or(ColumnType::text);
    }
    return first;
  }

  Dialect dialect_;
  const TableOptions& options_;
  ReadOptions read_;
  std::vector<bool> text_kept_;
  std::vector<std::string> names_;
  std::vector<std::optional<ColumnType>> given_;
  ColumnsBuilder table_;
  std::vector<Widening> widenings_;
  detail::WideningReports reports_;
};

void check_options(const TableOptions& options) {
  if (!options.types.empty() && !options.named_types.empty()) {
    throw UsageError(
        "csv::Table::read: column types are given both by position (TableOptions::types) and by "
        "name (TableOptions::named_types); give one");
  }
}

// Whether one reader on the calling thread reads the input (no chunks).
bool one_reader(const TableOptions& options) {
  return options.lazy_quotes ||
         (parallel_threads(options.parallel) == 1 && options.parallel.chunk_size == 0);
}

}  // namespace

Table Table::read(ReadStream& in, TableOptions options) {
  check_options(options);
  const Dialect dialect = read_dialect(in, options);
  TableRead read(dialect, options, {});  // a stream is read once: every column keeps its text
  if (one_reader(options)) {
    read.read_alone(in);
  } else {
    read.read_in_chunks(in.remaining_hint(),
                        [&](const ParallelReadOptions& o, auto parse, auto take) {
                          detail::read_chunks_from(in, nullptr, o, parse, take);
                        });
  }
  return std::move(read).finish();
}

Table Table::read(const std::filesystem::path& path, TableOptions options) {
  check_options(options);
  if (options.source_name.empty()) options.source_name = path.string();
  const MappedFile file(path);
  Dialect dialect;
  {
    MemoryReadStream in(file.contents());
    dialect = read_dialect(in, options);
  }
  // A file can be read again: its double columns keep no text, and the rare one that must
  // become text past the sample (a value that is no number) is read with its text kept by a
  // second read, which gives what one read keeping every text gives.
  std::vector<bool> text_kept(1, false);
  for (;;) {
    MemoryReadStream in(file.contents());
    TableRead read(dialect, options, text_kept);
    try {
      if (one_reader(options)) {
        read.read_alone(in);
      } else {
        read.read_in_chunks(file.size(), [&](const ParallelReadOptions& o, auto parse, auto take) {
          detail::read_chunks_from(in, &file, o, parse, take);
        });
      }
      return std::move(read).finish();
    } catch (const detail::TextNeeded& needed) {
      if (text_kept.size() <= needed.column) text_kept.resize(needed.column + 1, false);
      text_kept[needed.column] = true;
    }
  }
}

}  // namespace bufstream::csv
