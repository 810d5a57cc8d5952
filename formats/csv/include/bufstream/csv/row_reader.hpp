// csv::RowReader<Row>: typed rows from a csv::Reader, through a Schema.
//
//     csv::Reader csv(in);
//     csv::RowReader<Trade> rows(csv, trades);         // trades: a csv::Schema<Trade>
//     Trade t;
//     while (rows.next(t)) use(t);                      // one row at a time, t reused
//
//     auto all = csv::read_rows(csv, trades);           // std::vector<Trade>
//     auto tuples = csv::read_rows<std::tuple<std::int64_t, double, std::string>>(csv);
//
// A positional schema reads field i into column i; a record must have exactly as many fields
// as the schema has columns (ignored ones included). A named schema reads the header first
// (unless the reader has read it already) and maps each named column to the header column of
// that name; the header must have each name exactly once. With `variable_field_count`, fields
// missing from a short record are read as empty fields; a field no column reads is an error
// either way, because it would be dropped silently.
//
// A field that does not convert throws ParseError at the field:
// "data.csv:7:12: record 7, field 3 ('price'): expected a number but found 'abc' (byte 93)".
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <limits>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <bufstream/csv/reader.hpp>
#include <bufstream/csv/schema.hpp>
#include <bufstream/parallel_chunks.hpp>

namespace bufstream::csv {

namespace detail {
template <class T>
inline constexpr bool is_tuple = false;
template <class... T>
inline constexpr bool is_tuple<std::tuple<T...>> = true;

// The out-of-line parts of RowReader: message building and the checks that need no Row.
struct RowBinding {
  std::vector<std::size_t> field_of_column;  // which field each column reads (npos: ignored)
  std::size_t fields_allowed = 0;            // fields a record may have
  bool bound = false;
};
void bind_positional(RowBinding& binding, const std::vector<bool>& reads);
void bind_named(RowBinding& binding, Reader& reader, const std::vector<std::string>& names,
                const std::vector<bool>& reads);
void check_record_size(const Reader& reader, const Record& record, const RowBinding& binding);
[[noreturn]] void throw_conversion_error(const Reader& reader, const Record& record,
                                         std::size_t field, std::string_view column_name,
                                         std::string_view message);
}  // namespace detail

template <class Row>
/// Reads records as rows of type Row, through a Schema (or, for a tuple, by the elements' types).
class RowReader {
 public:
  /// Reads `reader` (which must outlive this) through `schema`. Nothing is read yet.
  RowReader(Reader& reader, Schema<Row> schema) : reader_(reader), schema_(std::move(schema)) {}
  /// For a tuple: reads element i from field i, converted by its type. (The conversions are
  /// then compiled in, with no call through a Schema's functions.)
  explicit RowReader(Reader& reader) requires detail::is_tuple<Row>
      : RowReader(reader, tuple_schema<Row>()) {
    direct_ = true;
  }

  /// Reads the next record into `row` (fields no column reads keep their value); false at
  /// the end of the input.
  bool next(Row& row) {
    if (!binding_.bound) bind();
    const Record* record = reader_.next();
    if (record == nullptr) return false;
    if (record->size() != binding_.fields_allowed)
      detail::check_record_size(reader_, *record, binding_);
    if constexpr (detail::is_tuple<Row>) {
      if (direct_) {
        read_tuple(*record, row, std::make_index_sequence<std::tuple_size_v<Row>>());
        return true;
      }
    }
    // The bounds in locals: the compiler would load them again after every call through a
    // column's function, which it must assume may change them.
    const auto& columns = schema_.columns();
    const auto* const column_data = columns.data();
    const std::size_t column_count = columns.size();
    const std::size_t* const field_of_column = binding_.field_of_column.data();
    const std::string_view* const fields = record->fields().data();
    const std::size_t field_count = record->size();
    for (std::size_t c = 0; c < column_count; ++c) {
      const auto& column = column_data[c];
      if (!column.read) continue;
      const std::size_t f = field_of_column[c];
      const std::string_view text = f < field_count ? fields[f] : std::string_view();
      try {
        column.read(text, row);
      } catch (const ParseError&) {
        throw;
      } catch (const std::exception& e) {
        detail::throw_conversion_error(reader_, *record, f, column.name, e.what());
      }
    }
    return true;
  }

  /// Reads every remaining row. When the stream can tell how many bytes it has left (memory, a
  /// regular file), room for all the rows is reserved once an estimate is possible (see
  /// `Reader::estimated_records_left`), a quarter more than estimated: growing step by step
  /// would write about twice the memory, and fresh memory costs a page fault per 4 KiB. The
  /// result's capacity may then exceed its size.
  std::vector<Row> read_all() {
    std::vector<Row> rows;
    bool reserved = false;
    for (;;) {
      if (rows.size() == rows.capacity() && !rows.empty() && !reserved)
        reserved = reserve_for_the_rest(rows);
      rows.emplace_back();
      if (!next(rows.back())) break;
    }
    rows.pop_back();
    return rows;
  }

  /// The schema the rows are read through.
  const Schema<Row>& schema() const noexcept { return schema_; }

 private:
  void bind() {
    std::vector<bool> reads;
    std::vector<std::string> names;
    for (const auto& column : schema_.columns()) {
      reads.push_back(static_cast<bool>(column.read));
      names.push_back(column.name);
    }
    if (schema_.named()) {
      detail::bind_named(binding_, reader_, names, reads);
    } else {
      detail::bind_positional(binding_, reads);
    }
  }

  bool reserve_for_the_rest(std::vector<Row>& rows) {
    const std::optional<std::uint64_t> left = reader_.estimated_records_left();
    if (!left) return false;
    const std::uint64_t room = rows.max_size() - rows.size();
    const std::uint64_t wanted = std::min<std::uint64_t>(*left + *left / 4 + 16, room);
    try {
      rows.reserve(rows.size() + static_cast<std::size_t>(wanted));
      // Huge pages where offered: faulting in a large vector 4 KiB at a time cost about as
      // much as parsing its rows (1,000,000 rows of 64 bytes: 334 -> 180 ms a read).
      advise_huge_pages(rows.data() + rows.size(), (rows.capacity() - rows.size()) * sizeof(Row));
    } catch (const std::bad_alloc&) {
      // Too much to ask at once: the vector grows as it fills instead.
    }
    return true;
  }

  template <std::size_t... I>
  void read_tuple(const Record& record, Row& row, std::index_sequence<I...>) {
    (read_element<I>(record, row), ...);
  }
  template <std::size_t I>
  void read_element(const Record& record, Row& row) {
    const std::string_view text = I < record.size() ? record[I] : std::string_view();
    try {
      detail::assign_field(std::get<I>(row), text);
    } catch (const ConversionError& e) {
      detail::throw_conversion_error(reader_, record, I, {}, e.what());
    }
  }

  Reader& reader_;
  Schema<Row> schema_;
  detail::RowBinding binding_;
  bool direct_ = false;  // a tuple read without a Schema's functions
};

/// Reads every remaining record of `reader` as a Row.
template <class Row>
std::vector<Row> read_rows(Reader& reader, Schema<Row> schema) {
  return RowReader<Row>(reader, std::move(schema)).read_all();
}

/// Reads every remaining record of `reader` as a tuple.
template <class Tuple>
requires detail::is_tuple<Tuple> std::vector<Tuple> read_rows(Reader& reader) {
  return RowReader<Tuple>(reader).read_all();
}

}  // namespace bufstream::csv
