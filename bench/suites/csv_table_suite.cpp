// The csv-table suite (issue 43): the csv suite's reference file read whole into typed values:
// csv::Table::read(path) with the dialect and types inferred (on every core, as by default, and
// on one thread), csv::Table::read(stream) over a 64 KiB BufferedReadStream (every core),
// csv::Table::read(path) with the types given (every core), and over the BufferedReadStream on
// one thread today's typed path (csv::Schema rows into a std::vector<Row>) and csv::Reader's
// zero-copy records with each field converted where it lies and nothing kept (the floor of a
// typed read on one thread).
#include "harness/file_utils.hpp"
#include "harness/results.hpp"
#include "suites/csv_peers.hpp"
#include "suites/serialization_suite.hpp"
#include "suites/stream_variants.hpp"
#include "suites/suites.hpp"

#ifdef BUFSTREAM_BENCH_HAVE_CSV_FORMAT
#include <bufstream/csv.hpp>

#include "suites/csv_bufstream.hpp"
#endif

namespace bufstream::bench {
namespace {

#ifdef BUFSTREAM_BENCH_HAVE_CSV_FORMAT
// A column of numbers as doubles: the integers data set's x and y are inferred int64.
double number_at(const csv::TableColumn& column, std::size_t row) {
  if (column.type() == csv::ColumnType::int64)
    return static_cast<double>(column.as<std::int64_t>()[row]);
  return column.as<double>()[row];
}

// The rows' checksum from the table's columns (untimed).
Checksum table_checksum(const csv::Table& table) {
  if (table.column_count() != 5) throw ValidationError("the table does not have 5 columns");
  const auto i = table.column<std::int64_t>(0);
  const auto minus_i = table.column<std::int64_t>(1);
  const auto words = table.column<std::string_view>(4);
  RowChecksum sum;
  for (std::size_t r = 0; r < table.row_count(); ++r) {
    sum.add(i[r], minus_i[r], number_at(table.column(2), r), number_at(table.column(3), r),
            words[r]);
  }
  return sum.result();
}

void check_no_header(const csv::Table& table) {
  if (table.dialect().header) throw ValidationError("a header was inferred where there is none");
}

// The file by its path (mapped), as a user reads a file: every core, types inferred.
Checksum read_table_inferred(const std::filesystem::path& path, Stopwatch& watch) {
  const csv::Table table = csv::Table::read(path);
  watch.stop();
  check_no_header(table);
  return table_checksum(table);
}

// The same on the calling thread alone: what the chunks on every core win.
Checksum read_table_inferred_one_thread(const std::filesystem::path& path, Stopwatch& watch) {
  const csv::Table table = csv::Table::read(path, {.parallel = {.threads = 1}});
  watch.stop();
  check_no_header(table);
  return table_checksum(table);
}

// Any stream (here the 64 KiB BufferedReadStream), every core: one thread reads the chunks,
// and a double column keeps its text in case it must become text (a stream is read once).
Checksum read_table_inferred_stream(ReadStream& in, Stopwatch& watch) {
  const csv::Table table = csv::Table::read(in);
  watch.stop();
  check_no_header(table);
  return table_checksum(table);
}

Checksum read_table_given_types(const std::filesystem::path& path, Stopwatch& watch) {
  using csv::ColumnType;
  const csv::Table table =
      csv::Table::read(path, {.separator = ',',
                              .header = false,
                              .types = {ColumnType::int64, ColumnType::int64, ColumnType::float64,
                                        ColumnType::float64, ColumnType::text}});
  watch.stop();
  return table_checksum(table);
}

Checksum read_records(ReadStream& in, Stopwatch& watch) {
  csv::Reader reader(in);
  RowChecksum sum;
  add_records(reader, sum);
  watch.stop();
  return sum.result();
}
#endif

void add_readers(SerializationSuite& suite) {
#ifdef BUFSTREAM_BENCH_HAVE_CSV_FORMAT
  suite.readers.push_back({"table-inferred", Cost::normal, read_table_inferred, {}});
  suite.readers.push_back(
      {"table-inferred-1-thread", Cost::normal, read_table_inferred_one_thread, {}});
  suite.readers.push_back(
      {"table-inferred-stream", Cost::normal, over_buffered(read_table_inferred_stream), {}});
  suite.readers.push_back({"table-given-types", Cost::normal, read_table_given_types, {}});
  suite.readers.push_back({"schema-rows", Cost::normal, over_buffered(read_csv_bufstream), {}});
  suite.readers.push_back({"records", Cost::normal, over_buffered(read_records), {}});
#else
  constexpr const char* missing = "bufstream::csv not built";
  for (const char* name : {"table-inferred", "table-inferred-1-thread", "table-inferred-stream",
                           "table-given-types", "schema-rows", "records"})
    suite.readers.push_back({name, Cost::normal, {}, missing});
#endif
}

}  // namespace

void run_csv_table_suite(SuiteContext& context) {
  SerializationSuite suite{
      .name = "csv-table",
      .extension = "csv",
      .writers = {},
      .readers = {},
      .reference_writer = write_csv_stdio,
      .read_back =
          [](const std::filesystem::path& path) {
            return checksum(parse_csv_reference(read_file(path)));
          },
      .measure_writes = false,
  };
  add_readers(suite);
  run_serialization_suite(context, suite);
}

}  // namespace bufstream::bench
