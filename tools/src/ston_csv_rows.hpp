// STON to CSV: the rules of STON to JSON (symbols are strings, nil is null, fractions and
// scaled decimals are floats; tags, associations, special floats and shared containers have
// no JSON form) followed by those of JSON to CSV (the records are lists, or maps whose keys
// give the header; fields are scalars; null and nested containers have no CSV form).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_set>

#include <bufstream/csv/writer.hpp>
#include <bufstream/errors.hpp>
#include <bufstream/ston/document.hpp>
#include <bufstream/ston/reader.hpp>

#include "csv_records.hpp"

namespace bufstream::cli {

/// Writes STON values as CSV records, each of the shape of the first (CsvRecords). A value
/// that CSV cannot hold, or a record of another shape, is a ParseError at `where` (the start
/// of the top-level value that holds it) naming the record, the column and the value.
class StonCsvRows {
 public:
  StonCsvRows(csv::Writer& writer, std::string source_name);

  /// Writes `record` (a list or a map) as the next record.
  void record(const ston::Value& record, const SourcePosition& where);
  /// The next records belong to another Document (sharing cannot reach across Documents).
  void new_document() { seen_.clear(); }

 private:
  void list_record(const ston::List& list);
  void map_record(const ston::Map& map);
  std::string field_text(const ston::Value& v, const std::string& column);
  [[noreturn]] void fail(const std::string& column, const std::string& message) const;

  std::string source_name_;
  CsvRecords records_;
  SourcePosition where_;
  std::uint64_t number_ = 0;              // of the record being written, from 1
  std::unordered_set<const void*> seen_;  // the records' containers: one met twice is an error
};

/// Converts everything `reader` holds: one top-level list, whose elements are the records, or
/// several top-level values, each a record (as STON to JSON makes them one JSON array). Every
/// top-level value is read into memory on its own; an input with none is an error ("expected a
/// value but found end of input"). `end_record` is called after each record.
void convert_ston_to_csv(ston::Reader& reader, csv::Writer& writer, const std::string& source_name,
                         const std::function<void()>& end_record);

}  // namespace bufstream::cli
