// The csv suite: bufstream's CSV writer and typed reader over unbuffered and buffered streams,
// against stdio, iostreams and libcsv, on the same rows and the same file.
#include "harness/file_utils.hpp"
#include "suites/csv_peers.hpp"
#include "suites/serialization_suite.hpp"
#include "suites/stream_variants.hpp"
#include "suites/suites.hpp"

#ifdef BUFSTREAM_BENCH_HAVE_CSV_FORMAT
#include "suites/csv_bufstream.hpp"
#endif

namespace bufstream::bench {
namespace {

void add_bufstream_variants(SerializationSuite& suite) {
#ifdef BUFSTREAM_BENCH_HAVE_CSV_FORMAT
  suite.writers.push_back({"unbuffered", Cost::slow, over_unbuffered(write_csv_bufstream), {}});
  suite.writers.push_back({"buffered", Cost::normal, over_buffered(write_csv_bufstream), {}});
  suite.readers.push_back({"unbuffered", Cost::slow, over_unbuffered(read_csv_bufstream), {}});
  suite.readers.push_back({"buffered", Cost::normal, over_buffered(read_csv_bufstream), {}});
#else
  constexpr const char* missing = "bufstream::csv not built yet (formats/csv has not landed)";
  for (const char* name : {"unbuffered", "buffered"}) {
    suite.writers.push_back({name, Cost::normal, {}, missing});
    suite.readers.push_back({name, Cost::normal, {}, missing});
  }
#endif
}

void add_peers(SerializationSuite& suite) {
  suite.writers.push_back({"stdio", Cost::normal, write_csv_stdio, {}});
  suite.writers.push_back({"ofstream", Cost::normal, write_csv_ofstream, {}});
#ifdef BUFSTREAM_BENCH_HAVE_LIBCSV
  suite.readers.push_back({"libcsv", Cost::normal, read_csv_libcsv, {}});
#else
  suite.readers.push_back(
      {"libcsv", Cost::normal, {}, "libcsv not found at configure time (apt install libcsv-dev)"});
#endif
  suite.readers.push_back({"getline", Cost::normal, read_csv_getline, {}});
}

}  // namespace

void run_csv_suite(SuiteContext& context) {
  SerializationSuite suite{
      .name = "csv",
      .extension = "csv",
      .writers = {},
      .readers = {},
      .reference_writer = write_csv_stdio,
      .read_back =
          [](const std::filesystem::path& path) {
            return checksum(parse_csv_reference(read_file(path)));
          },
  };
  add_bufstream_variants(suite);
  add_peers(suite);
  run_serialization_suite(context, suite);
}

}  // namespace bufstream::bench
