// csv::Table: a whole CSV input read into typed columns, the types given or inferred.
//
//     bufstream::BufferedReadStream in(file);
//     csv::Table table = csv::Table::read(in);               // dialect and types inferred
//     csv::ColumnView<double> x = table.column<double>("x"); // AccessError if x is not double
//     for (std::size_t i = 0; i < x.size(); ++i)
//       if (x.is_valid(i)) sum += x[i];                      // an empty field is not valid
//
// A column holds 64-bit integers, doubles, booleans or text (one byte buffer and an offset
// per value, handed out as views), and a validity bitmap: an empty field is no value, in every
// type. The records are tokenized by csv::Reader, and numbers converted by the conversions of
// FieldConverter (bufstream::parse_integer, bufstream::parse_double), the one number path.
//
// Inference (see docs/CSV_TABLES.md): the separator (among ',' ';' tab '|') and whether the
// first record is a header are sniffed from the first bytes of the input; each column whose
// type is not given gets the narrowest type of the ladder boolean, integer, double, text that
// every value of its first `sample_rows` values fits, each value converted as it is read. A
// later value that does not fit widens the column (integer to double, anything to text)
// instead of failing, and `Table::widenings()` says where. Every option can be given by hand.
//
// The records are read on every core by default (`TableOptions::parallel`), in chunks that
// are read and converted at the same time and appended in input order: the table, its
// widenings and its errors are those of one reader of the whole input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <bufstream/csv/options.hpp>
#include <bufstream/parallel_chunks.hpp>
#include <bufstream/read_stream.hpp>

namespace bufstream::csv {

namespace detail {
class ColumnBuilder;  // builds a column as Table::read reads it (src/table_builder.hpp)
}  // namespace detail

/// The type of a table column's values.
enum class ColumnType : std::uint8_t {
  boolean,  ///< `bool`: true/false, True/False, TRUE/FALSE (and 1/0 when given by hand)
  int64,    ///< `std::int64_t`
  float64,  ///< `double`
  text,     ///< `std::string_view` into the column's byte buffer
};

/// The type's name as documentation and messages spell it: "boolean", "int64", "double",
/// "text".
std::string_view to_string(ColumnType type) noexcept;

/// The column type that holds values of the C++ type T (bool, std::int64_t, double,
/// std::string_view).
template <class T>
inline constexpr ColumnType column_type_of = ColumnType::text;
/// bool columns.
template <>
inline constexpr ColumnType column_type_of<bool> = ColumnType::boolean;
/// std::int64_t columns.
template <>
inline constexpr ColumnType column_type_of<std::int64_t> = ColumnType::int64;
/// double columns.
template <>
inline constexpr ColumnType column_type_of<double> = ColumnType::float64;

/// A column's type given by hand, by the column's header name.
struct NamedColumnType {
  std::string name;  ///< The header name (exact, case-sensitive).
  ColumnType type;   ///< The type its values are read as.
};

/// The options of `Table::read`: plain struct for designated initializers,
/// `csv::Table::read(in, {.separator = ';', .header = true})`.
struct TableOptions {
  /// The byte between fields; nullopt: inferred among comma, semicolon, tab and '|' (see
  /// CSV_TABLES.md).
  std::optional<char> separator = std::nullopt;
  /// Whether the first record is a header of column names; nullopt: inferred. Without a
  /// header the columns are called "column1", "column2", ...
  std::optional<bool> header = std::nullopt;
  /// Every column's type by position. Empty: by name (`named_types`) or inferred; else it
  /// must have one type per column (a UsageError otherwise).
  std::vector<ColumnType> types = {};
  /// Some columns' types by header name; the others are inferred. A name the header lacks
  /// is a UsageError.
  std::vector<NamedColumnType> named_types = {};
  /// False: columns whose type is not given are text, not inferred.
  bool infer_types = true;
  /// How many values of a column its type is inferred from (DuckDB's sample_size); 0: all.
  std::size_t sample_rows = 20480;
  /// How many bytes from the start of the input the separator and header are sniffed from
  /// (read ahead, not consumed).
  std::size_t sniff_bytes = std::size_t{1} << 18;
  /// As `ReadOptions::lazy_quotes`.
  bool lazy_quotes = false;
  /// As `ReadOptions::variable_field_count`: a short record's missing fields are empty
  /// (not valid); a record longer than the columns is still a ParseError (no field is
  /// dropped).
  bool variable_field_count = false;
  /// As `ReadOptions::skip_empty_lines`.
  bool skip_empty_lines = false;
  /// As `ReadOptions::skip_bom`.
  bool skip_bom = true;
  /// As `ReadOptions::validate_utf8`.
  bool validate_utf8 = false;
  /// Named in error messages, typically the file's path (`Table::read(path)` names the path
  /// when this is empty).
  std::string source_name = {};
  /// The threads the records are read and converted on (`threads` 0, the default: one per
  /// core; 1: on the calling thread alone), in chunks of `chunk_size` bytes, as
  /// csv::read_chunks reads them. The table is the same with any count. With `lazy_quotes`
  /// the input is read on the calling thread.
  ParallelOptions parallel = {};
};

/// How the input was read: what was given and what was inferred.
struct Dialect {
  char separator = ',';             ///< The byte between fields.
  char quote = '"';                 ///< The quote (csv::Reader reads '"' only).
  bool header = false;              ///< Whether the first record was read as the names.
  bool separator_inferred = false;  ///< The separator was sniffed, not given.
  bool header_inferred = false;     ///< Whether there is a header was sniffed, not given.
};

/// A column whose inferred type a later value did not fit, and what it became.
struct Widening {
  std::size_t column = 0;  ///< The column's index.
  std::string name;        ///< The column's name.
  ColumnType from;         ///< The type inferred from the sample.
  ColumnType to;           ///< The wider type that every value fits.
  std::uint64_t row = 0;   ///< The row (from 0, the header not counted) of the value.
  std::uint64_t line = 0;  ///< The line that row starts on, from 1.
  std::string value;       ///< The value that did not fit.
};

/// A typed, read-only view of one column: values of T (bool, std::int64_t, double,
/// std::string_view), valid as long as the table is. An invalid (empty) value reads as
/// false, 0, 0.0 or "".
template <class T>
class ColumnView {
  static_assert(std::is_same_v<T, bool> || std::is_same_v<T, std::int64_t> ||
                    std::is_same_v<T, double> || std::is_same_v<T, std::string_view>,
                "a column holds bool, std::int64_t, double or std::string_view");

 public:
  /// The number of values (the table's rows).
  std::size_t size() const noexcept { return size_; }
  /// Value `i`. Precondition: `i < size()`.
  T operator[](std::size_t i) const noexcept {
    if constexpr (std::is_same_v<T, std::string_view>) {
      return {bytes_ + offsets_[i], static_cast<std::size_t>(offsets_[i + 1] - offsets_[i])};
    } else if constexpr (std::is_same_v<T, bool>) {
      return values_[i] != 0;
    } else {
      return values_[i];
    }
  }
  /// False where the field was empty. Precondition: `i < size()`.
  bool is_valid(std::size_t i) const noexcept { return (validity_[i / 64] >> (i % 64) & 1) != 0; }
  /// Value `i`, or nullopt where the field was empty. Precondition: `i < size()`.
  std::optional<T> get(std::size_t i) const noexcept {
    if (!is_valid(i)) return std::nullopt;
    return (*this)[i];
  }

 private:
  friend class TableColumn;
  using Stored = std::conditional_t<std::is_same_v<T, bool>, std::uint8_t, T>;

  std::size_t size_ = 0;
  const std::uint64_t* validity_ = nullptr;
  const Stored* values_ = nullptr;          // numbers and booleans
  const char* bytes_ = nullptr;             // text
  const std::uint64_t* offsets_ = nullptr;  // text: size_ + 1 offsets into bytes_
};

/// One column of a Table: its name, its type, its values and which are valid.
class TableColumn {
 public:
  /// An empty column of `type` called `name`.
  TableColumn(std::string name, ColumnType type);

  /// The column's name (from the header, or "columnN").
  const std::string& name() const noexcept { return name_; }
  /// The type of its values.
  ColumnType type() const noexcept { return type_; }
  /// The number of values.
  std::size_t size() const noexcept { return size_; }
  /// The number of empty fields (values that are not valid).
  std::size_t empty_count() const noexcept { return empty_count_; }
  /// False where the field was empty. Precondition: `i < size()`.
  bool is_valid(std::size_t i) const noexcept { return (validity_[i / 64] >> (i % 64) & 1) != 0; }

  /// The values as T; throws `AccessError` naming the column and both types when the column
  /// does not hold T.
  template <class T>
  ColumnView<T> as() const {
    check_type(column_type_of<T>);
    ColumnView<T> view;
    view.size_ = size_;
    view.validity_ = validity_.data();
    if constexpr (std::is_same_v<T, std::string_view>) {
      view.bytes_ = bytes_.data();
      view.offsets_ = offsets_.data();
    } else if constexpr (std::is_same_v<T, bool>) {
      view.values_ = booleans_.data();
    } else if constexpr (std::is_same_v<T, std::int64_t>) {
      view.values_ = integers_.data();
    } else {
      view.values_ = doubles_.data();
    }
    return view;
  }

  /// Value `i` written as text: the text itself, an integer in decimal, a double in its
  /// shortest form, "true" or "false"; "" where it is not valid. Precondition: `i < size()`.
  std::string text_of(std::size_t i) const;

  // ---- Building (Table::read uses these; a column may also be built by hand) -------------

  /// Appends an empty field (a value that is not valid).
  void append_empty();
  /// Appends `text` as a value of the column's type; throws `ConversionError` (from
  /// FieldConverter) when it is not one. An empty `text` appends an empty field.
  void append(std::string_view text);
  /// Makes room for `rows` values (for text, of the average length of those so far).
  void reserve(std::size_t rows);

 private:
  friend class detail::ColumnBuilder;

  void check_type(ColumnType wanted) const;
  void push_validity(bool valid);

  std::string name_;
  ColumnType type_;
  std::size_t size_ = 0;
  std::size_t empty_count_ = 0;
  std::vector<std::uint64_t> validity_;
  std::vector<std::int64_t> integers_;
  std::vector<double> doubles_;
  std::vector<std::uint8_t> booleans_;
  std::string bytes_;
  std::vector<std::uint64_t> offsets_{0};
};

/// A CSV input read into typed columns (see the file comment).
class Table {
 public:
  /// Reads every record of `in` into columns, inferring what `options` leaves open. Throws
  /// `ParseError` for malformed CSV and for a value that does not fit a type given by hand
  /// (at the field, as csv::RowReader does), `UsageError` for contradictory options.
  static Table read(ReadStream& in, TableOptions options = {});
  /// The same for the regular file at `path`, mapped (IoError if it cannot be).
  static Table read(const std::filesystem::path& path, TableOptions options = {});

  /// A table of these columns (all of one size, else UsageError).
  explicit Table(std::vector<TableColumn> columns, Dialect dialect = {},
                 std::vector<Widening> widenings = {});

  /// The number of rows (the header not counted).
  std::size_t row_count() const noexcept { return rows_; }
  /// The number of columns.
  std::size_t column_count() const noexcept { return columns_.size(); }
  /// The columns, in order.
  const std::vector<TableColumn>& columns() const noexcept { return columns_; }
  /// The column names, in order.
  std::vector<std::string> names() const;
  /// The index of the first column called `name`, if any.
  std::optional<std::size_t> find(std::string_view name) const noexcept;

  /// Column `i`; throws `AccessError` when there is none.
  const TableColumn& column(std::size_t i) const;
  /// The first column called `name`; throws `AccessError` listing the names there are.
  const TableColumn& column(std::string_view name) const;
  /// Column `i` as T; throws `AccessError` naming the column and the types on a mismatch.
  template <class T>
  ColumnView<T> column(std::size_t i) const {
    return column(i).as<T>();
  }
  /// The column called `name` as T; throws `AccessError` naming the column and the types on a
  /// mismatch, or listing the names when there is none.
  template <class T>
  ColumnView<T> column(std::string_view name) const {
    return column(name).as<T>();
  }

  /// The separator, quote and header, and which of them were inferred.
  const Dialect& dialect() const noexcept { return dialect_; }
  /// The columns a value widened beyond the type inferred from the sample, in column order.
  const std::vector<Widening>& widenings() const noexcept { return widenings_; }

 private:
  std::vector<TableColumn> columns_;
  std::size_t rows_ = 0;
  Dialect dialect_;
  std::vector<Widening> widenings_;
};

}  // namespace bufstream::csv
