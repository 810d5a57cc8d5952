// Fault injection over every way csv::Reader reads: record views, records into strings,
// read_all, the header, typed rows through a named Schema and tuples (see fault_harness.hpp).
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <bufstream/csv.hpp>

#include "fault_harness.hpp"

namespace bufstream::csv {
namespace {

using testing::again_throws;
using testing::check_reader;
using testing::check_repeats;

// A byte-order mark, quoted fields with doubled quotes, separators and line ends inside them,
// an empty field, CRLF, LF and CR line ends, UTF-8, and a last record without a line end.
constexpr std::string_view document =
    "\xEF\xBB\xBFname,age,note\r\n"
    "\"Ada \"\"A\"\" L\",36,\"multi\nline, too\"\r\n"
    "Bob,7,\n"
    "\xC3\xA9\xE4\xB8\xAD,-1,x\r"
    "\"\",0,\"\"\"\"";

std::string join(const std::vector<std::string>& fields) {
  return fmt::format("{}|", fmt::join(fields, "^"));
}

std::string read_record_views(ReadStream& in) {
  Reader reader(in);
  std::string out;
  while (const Record* r = again_throws([&] { return reader.next(); }))
    out += join(r->to_strings());
  return out;
}

TEST(CsvFaults, RecordViews) {
  check_reader("csv::Reader::next() views", document, read_record_views);
}
TEST(CsvFaults, RecordViewsRepeatedAfterIoError) {
  check_repeats("csv::Reader::next() views", document, read_record_views);
}

std::string read_records_into_strings(ReadStream& in) {
  Reader reader(in);
  std::vector<std::string> fields;
  std::string out;
  while (again_throws([&] { return reader.next(fields); })) out += join(fields);
  return out;
}

TEST(CsvFaults, RecordsIntoStrings) {
  check_reader("csv::Reader::next(fields)", document, read_records_into_strings);
}
TEST(CsvFaults, RecordsIntoStringsRepeatedAfterIoError) {
  check_repeats("csv::Reader::next(fields)", document, read_records_into_strings);
}

std::string read_read_all_and_at_end(ReadStream& in) {
  Reader reader(in);
  std::string out;
  for (const auto& r : again_throws([&] { return reader.read_all(); })) out += join(r);
  if (!again_throws([&] { return reader.at_end(); })) out += "not at end";
  return out;
}

TEST(CsvFaults, ReadAllAndAtEnd) {
  check_reader("csv::Reader::read_all", document, read_read_all_and_at_end);
}
TEST(CsvFaults, ReadAllAndAtEndRepeatedAfterIoError) {
  check_repeats("csv::Reader::read_all", document, read_read_all_and_at_end);
}

std::string read_header_then_records(ReadStream& in) {
  Reader reader(in);
  const Header& header = again_throws([&]() -> const Header& { return reader.read_header(); });
  std::string out = join(header.names());
  while (const Record* r = again_throws([&] { return reader.next(); })) {
    out += std::string((*r)[header.index("note")]) + "|";
  }
  return out;
}

TEST(CsvFaults, HeaderThenRecords) {
  check_reader("csv::Reader::read_header", document, read_header_then_records);
}
TEST(CsvFaults, HeaderThenRecordsRepeatedAfterIoError) {
  check_repeats("csv::Reader::read_header", document, read_header_then_records);
}

struct Person {
  std::string name;
  std::int64_t age = 0;
  std::optional<std::string> note;
};

std::string read_named_schema_rows(ReadStream& in) {
  Reader reader(in);
  const auto schema = Schema<Person>()
                          .field("note", &Person::note)
                          .field("age", &Person::age)
                          .field("name", &Person::name);
  RowReader<Person> rows(reader, schema);
  Person p;
  std::string out;
  while (again_throws([&] { return rows.next(p); }))
    out += fmt::format("{}/{}/{}|", p.name, p.age, p.note.value_or("-"));
  return out;
}

TEST(CsvFaults, NamedSchemaRows) {
  check_reader("csv::RowReader<Person>", document, read_named_schema_rows);
}
TEST(CsvFaults, NamedSchemaRowsRepeatedAfterIoError) {
  check_repeats("csv::RowReader<Person>", document, read_named_schema_rows);
}

std::string read_tuple_rows(ReadStream& in) {
  Reader reader(in);
  again_throws([&]() -> const Header& { return reader.read_header(); });
  const auto rows =
      again_throws([&] { return read_rows<std::tuple<std::string, int, std::string>>(reader); });
  std::string out;
  for (const auto& [a, b, c] : rows) out += fmt::format("{}/{}/{}|", a, b, c);
  return out;
}

TEST(CsvFaults, TupleRows) { check_reader("csv::read_rows<tuple>", document, read_tuple_rows); }
TEST(CsvFaults, TupleRowsRepeatedAfterIoError) {
  check_repeats("csv::read_rows<tuple>", document, read_tuple_rows);
}

TEST(CsvFaults, LenientReading) {
  constexpr std::string_view sloppy = "a\"b,\"c\"d\"\r\n1\n\n\"open,2";
  check_reader("csv::Reader lenient", sloppy, [](ReadStream& in) {
    Reader reader(in,
                  {.lazy_quotes = true, .variable_field_count = true, .skip_empty_lines = true});
    std::vector<std::string> fields;
    std::string out;
    while (again_throws([&] { return reader.next(fields); })) out += join(fields);
    return out;
  });
}

}  // namespace
}  // namespace bufstream::csv
