// csv::Schema<Row>: a record type declared once, for reading and writing typed rows (what
// NeoCSV's addIntegerField:/addFloatField:/addField:/addIgnoredField: declare).
//
//     struct Trade { std::int64_t id; double price; std::optional<double> fee; std::string note; };
//
//     auto trades = csv::Schema<Trade>()          // columns by position
//                       .field(&Trade::id)
//                       .field(&Trade::price)
//                       .field(&Trade::fee)        // an empty field is std::nullopt
//                       .ignore()                  // a column nobody reads
//                       .field(&Trade::note);
//
//     auto by_name = csv::Schema<Trade>()         // columns by header name, in any order
//                        .field("id", &Trade::id)
//                        .field_or("price", &Trade::price, 0.0)   // an empty field is 0.0
//                        .field_with("note", &Trade::note,
//                                    [](std::string_view s) { return upper(s); });
//
// A member is converted by `FieldConverter<M>` (field_converter.hpp) unless the column has a
// function of its own. Columns are all positional or all named: a named schema maps header
// names to members, and header columns it does not name are skipped.
#pragma once

#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <bufstream/csv/field_converter.hpp>
#include <bufstream/csv/writer.hpp>
#include <bufstream/errors.hpp>

namespace bufstream::csv {

/// The columns of a row type Row: how each field is read into a member and written from it
/// (see the file comment).
template <class Row>
class Schema {
 public:
  /// Sets the member a field is read into, from the field's text; throws ConversionError (or
  /// any std::exception) when the text does not fit.
  using ReadFunction = std::function<void(std::string_view text, Row& row)>;
  /// Writes the member as one field.
  using WriteFunction = std::function<void(Writer& writer, const Row& row)>;

  /// One column: its name, and how it is read and written.
  struct Column {
    std::string name;     ///< Empty in a positional schema.
    ReadFunction read;    ///< Empty for an ignored column.
    WriteFunction write;  ///< Empty when the member has no writable form.
  };

  // ---- Columns converted by the member's type --------------------------------------------

  /// The next column is `member`. An empty field is "" for strings, nullopt for optionals and
  /// an error for other types.
  template <class M>
  Schema& field(M Row::*member) {
    return add({}, member,
               [member](std::string_view text, Row& row) { assign(row.*member, text); });
  }
  /// The same, for the column called `name` in the header.
  template <class M>
  Schema& field(std::string name, M Row::*member) {
    return add(std::move(name), member,
               [member](std::string_view text, Row& row) { assign(row.*member, text); });
  }

  /// Like `field`, but an empty field gives `if_empty`.
  template <class M, class D>
  Schema& field_or(M Row::*member, D if_empty) {
    return field_or(std::string(), member, std::move(if_empty));
  }
  /// The same, for the column called `name` in the header.
  template <class M, class D>
  Schema& field_or(std::string name, M Row::*member, D if_empty) {
    return add(std::move(name), member,
               [member, value = M(std::move(if_empty))](std::string_view text, Row& row) {
                 if (text.empty()) {
                   row.*member = value;
                 } else {
                   assign(row.*member, text);
                 }
               });
  }

  // ---- Columns with a conversion of their own ---------------------------------------------

  /// `parse(std::string_view)` gives the member's value (it sees empty fields too). Writing
  /// uses `format(const M&)` if given (it returns anything `Writer::field` takes), else the
  /// member's type.
  template <class M, class Parse>
  Schema& field_with(M Row::*member, Parse parse) {
    return field_with(std::string(), member, std::move(parse));
  }
  /// The same, for the column called `name` in the header.
  template <class M, class Parse>
  Schema& field_with(std::string name, M Row::*member, Parse parse) {
    return add(std::move(name), member,
               [member, parse = std::move(parse)](std::string_view text, Row& row) {
                 row.*member = parse(text);
               });
  }
  /// The same, and the member is written as `format(member)` gives it.
  template <class M, class Parse, class Format>
  Schema& field_with(M Row::*member, Parse parse, Format format) {
    return field_with(std::string(), member, std::move(parse), std::move(format));
  }
  /// The same, for the column called `name` in the header.
  template <class M, class Parse, class Format>
  Schema& field_with(std::string name, M Row::*member, Parse parse, Format format) {
    field_with(std::move(name), member, std::move(parse));
    columns_.back().write = [member, format = std::move(format)](Writer& w, const Row& row) {
      w.field(format(row.*member));
    };
    return *this;
  }

  /// A column that is read and dropped (NeoCSV's addIgnoredField), written as an empty field.
  Schema& ignore(std::string name = {}) {
    columns_.push_back(
        {std::move(name), nullptr, [](Writer& w, const Row&) { w.field(std::string_view()); }});
    return *this;
  }

  // ---- Using it ---------------------------------------------------------------------------

  /// Adds a column with functions of the caller's own (the others build on this).
  Schema& column(std::string name, ReadFunction read, WriteFunction write) {
    columns_.push_back({std::move(name), std::move(read), std::move(write)});
    return *this;
  }

  /// The columns, in order.
  const std::vector<Column>& columns() const noexcept { return columns_; }
  /// The number of columns.
  std::size_t size() const noexcept { return columns_.size(); }
  /// True when the columns have names (a schema mapped through the header).
  bool named() const noexcept {
    for (const Column& c : columns_) {
      if (!c.name.empty()) return true;
    }
    return false;
  }

  /// Writes the column names as a record.
  void write_header(Writer& writer) const {
    for (const Column& c : columns_) writer.field(c.name);
    writer.end_record();
  }

  /// Writes `row` as a record. Throws `UsageError` for a column whose member type the
  /// writer cannot write and that has no format function.
  void write_row(Writer& writer, const Row& row) const {
    for (std::size_t i = 0; i < columns_.size(); ++i) {
      if (!columns_[i].write) {
        throw UsageError("csv::Schema::write_row: column " + std::to_string(i + 1) +
                         (columns_[i].name.empty() ? "" : " ('" + columns_[i].name + "')") +
                         " has a type the writer cannot write and no format function");
      }
      columns_[i].write(writer, row);
    }
    writer.end_record();
  }

 private:
  template <class M>
  static void assign(M& target, std::string_view text) {
    detail::assign_field(target, text);
  }

  template <class M>
  Schema& add(std::string name, M Row::*member, ReadFunction read) {
    WriteFunction write;
    if constexpr (requires(Writer & w, const M& m) { w.field(m); }) {
      write = [member](Writer& w, const Row& row) { w.field(row.*member); };
    }
    columns_.push_back({std::move(name), std::move(read), std::move(write)});
    return *this;
  }

  std::vector<Column> columns_;
};

/// The schema of a tuple: element i is column i, converted by its type.
template <class Tuple>
Schema<Tuple> tuple_schema() {
  Schema<Tuple> schema;
  [&schema]<std::size_t... I>(std::index_sequence<I...>) {
    (schema.column(
         {},
         [](std::string_view text, Tuple& row) { detail::assign_field(std::get<I>(row), text); },
         [](Writer& w, const Tuple& row) { w.field(std::get<I>(row)); }),
     ...);
  }
  (std::make_index_sequence<std::tuple_size_v<Tuple>>());
  return schema;
}

/// Writes every row of `rows` with `schema`.
template <class Row, class Range>
void write_rows(Writer& writer, const Schema<Row>& schema, const Range& rows) {
  for (const Row& row : rows) schema.write_row(writer, row);
}

}  // namespace bufstream::csv
