#include "suites/csv_bufstream.hpp"

#include <bufstream/csv.hpp>

namespace bufstream::bench {

void write_csv_bufstream(WriteStream& out, const DataSet& set) {
  csv::Writer writer(
      out,
      {.separator = ',', .quoting = csv::Quoting::as_needed, .line_end = bufstream::LineEnd::lf});
  for (const Row& row : set.rows) {
    writer.field(row.i);
    writer.field(row.minus_i);
    if (set.integral()) {
      writer.field(static_cast<std::int64_t>(row.x));
      writer.field(static_cast<std::int64_t>(row.y));
    } else {
      writer.field(row.x);
      writer.field(row.y);
    }
    writer.field(row.words);
    writer.end_record();
  }
  writer.flush();
}

Checksum read_csv_bufstream(ReadStream& in, Stopwatch& watch) {
  csv::Reader reader(in);
  const auto schema = csv::Schema<Row>()
                          .field(&Row::i)
                          .field(&Row::minus_i)
                          .field(&Row::x)
                          .field(&Row::y)
                          .field(&Row::words);
  const std::vector<Row> rows = csv::read_rows(reader, schema);
  watch.stop();
  return checksum(rows);
}

}  // namespace bufstream::bench
