#include "suites/ston_bufstream.hpp"

#include <fmt/format.h>

#include <bufstream/memory_read_stream.hpp>
#include <bufstream/ston/document.hpp>
#include <bufstream/ston/reader.hpp>
#include <bufstream/ston/writer.hpp>

#include "harness/file_utils.hpp"
#include "harness/results.hpp"

namespace bufstream::bench {
namespace {

Checksum checksum_of(const ston::Value& root) {
  if (!root.is_list()) throw ValidationError("the STON value is not a list");
  RowChecksum sum;
  std::size_t n = 0;
  for (const ston::Value& item : root.as_list()) {
    if (!item.is_list() || item.as_list().size() != 5) {
      throw ValidationError(fmt::format("row {} is not a list of five values", n));
    }
    const ston::List row = item.as_list();
    if (!row[0].is_integer() || !row[1].is_integer() || !row[2].is_number() ||
        !row[3].is_number() || !row[4].is_string()) {
      throw ValidationError(fmt::format("row {} is not two integers, two numbers and a string", n));
    }
    sum.add(row[0].as_int64(), row[1].as_int64(), row[2].as_double(), row[3].as_double(),
            row[4].as_string());
    ++n;
  }
  return sum.result();
}

}  // namespace

void write_ston_bufstream(WriteStream& out, const DataSet& set) {
  ston::Writer writer(out);
  writer.begin_list();
  for (const Row& row : set.rows) {
    writer.begin_list();
    writer.value(row.i);
    writer.value(row.minus_i);
    if (set.integral()) {
      writer.value(static_cast<std::int64_t>(row.x));
      writer.value(static_cast<std::int64_t>(row.y));
    } else {
      writer.value(row.x);
      writer.value(row.y);
    }
    writer.value(row.words);
    writer.end_list();
  }
  writer.end_list();
  out.flush();
}

Checksum read_ston_bufstream(ReadStream& in, Stopwatch& watch) {
  ston::Reader reader(in);
  ston::Document doc;
  const ston::Value root = reader.read(doc);
  reader.expect_end();
  watch.stop();
  return checksum_of(root);
}

Checksum read_back_ston(const std::filesystem::path& path) {
  const std::string text = read_file(path);
  MemoryReadStream in(text);
  const ston::Document doc = ston::parse(in);
  return checksum_of(doc.root());
}

}  // namespace bufstream::bench
