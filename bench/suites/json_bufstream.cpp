#include "suites/json_bufstream.hpp"

#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include <bufstream/json.hpp>

#include "suites/json_peers.hpp"

namespace bufstream::bench {

// A row reads from and writes as `[i, -i, x, y, words]` (found by ADL: Row lives here).
auto json_fields(Row& row) { return std::tie(row.i, row.minus_i, row.x, row.y, row.words); }

void write_json_bufstream(WriteStream& out, const DataSet& set) {
  json::Writer writer(out);
  writer.begin_array();
  for (const Row& row : set.rows) {
    writer.begin_array().value(row.i).value(row.minus_i);
    if (set.integral()) {
      writer.value(static_cast<std::int64_t>(row.x)).value(static_cast<std::int64_t>(row.y));
    } else {
      writer.value(row.x).value(row.y);
    }
    writer.value(row.words).end_array();
  }
  writer.end_array();
  writer.finish();
}

Checksum read_json_bufstream_dom(ReadStream& in, Stopwatch& watch) {
  json::Reader reader(in);
  const nlohmann::json rows = reader.read();
  reader.finish();
  watch.stop();
  return checksum_of(rows);
}

Checksum read_json_bufstream_typed(ReadStream& in, Stopwatch& watch) {
  json::Reader reader(in);
  const auto rows = reader.read<std::vector<Row>>();
  reader.finish();
  watch.stop();
  return checksum(rows);
}

}  // namespace bufstream::bench
