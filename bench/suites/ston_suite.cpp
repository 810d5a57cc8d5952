// The ston suite: bufstream's STON writer and reader over unbuffered and buffered streams.
// There is no other C++ STON library, so the peers are the limits only; the file every reader
// reads is rendered here, the way Pharo's STON writes a list of lists.
#include <bufstream/numbers.hpp>
#include <bufstream/string_write_stream.hpp>

#include "harness/file_utils.hpp"
#include "suites/serialization_suite.hpp"
#include "suites/stream_variants.hpp"
#include "suites/suites.hpp"

#ifdef BUFSTREAM_BENCH_HAVE_STON_FORMAT
#include "suites/ston_bufstream.hpp"
#endif

namespace bufstream::bench {
namespace {

// `[[1,-1,1.0,1.0,'one'],...]`: integers as they are, floats as Smalltalk prints them (always
// with a fraction part), strings in single quotes with `'` and `\` escaped by a backslash.
void write_ston_reference(const DataSet& set, const std::filesystem::path& path) {
  StringWriteStream out;
  out.put('[');
  bool first = true;
  for (const Row& row : set.rows) {
    if (!first) out.put(',');
    first = false;
    out.put('[');
    out.print(row.i);
    out.put(',');
    out.print(row.minus_i);
    for (double value : {row.x, row.y}) {
      out.put(',');
      if (set.integral()) {
        out.print(static_cast<std::int64_t>(value));
      } else {
        char* p = out.reserve(max_double_chars);
        out.commit(static_cast<std::size_t>(format_double_smalltalk(p, value) - p));
      }
    }
    out.write(",'");
    for (char c : row.words) {
      if (c == '\'' || c == '\\') out.put('\\');
      out.put(c);
    }
    out.write("']");
  }
  out.put(']');
  write_file(path, out.view());
}

void add_bufstream_variants(SerializationSuite& suite) {
#ifdef BUFSTREAM_BENCH_HAVE_STON_FORMAT
  suite.writers.push_back({"unbuffered", Cost::slow, over_unbuffered(write_ston_bufstream), {}});
  suite.writers.push_back({"buffered", Cost::normal, over_buffered(write_ston_bufstream), {}});
  suite.readers.push_back({"unbuffered", Cost::slow, over_unbuffered(read_ston_bufstream), {}});
  suite.readers.push_back({"buffered", Cost::normal, over_buffered(read_ston_bufstream), {}});
  suite.read_back = read_back_ston;
#else
  constexpr const char* missing = "bufstream::ston not built yet (formats/ston has not landed)";
  for (const char* name : {"unbuffered", "buffered"}) {
    suite.writers.push_back({name, Cost::normal, {}, missing});
    suite.readers.push_back({name, Cost::normal, {}, missing});
  }
#endif
}

}  // namespace

void run_ston_suite(SuiteContext& context) {
  SerializationSuite suite{
      .name = "ston",
      .extension = "ston",
      .writers = {},
      .readers = {},
      .reference_writer = write_ston_reference,
      .read_back = {},  // STON has no reader but bufstream's (set with the format's variants)
  };
  add_bufstream_variants(suite);
  run_serialization_suite(context, suite);
}

}  // namespace bufstream::bench
