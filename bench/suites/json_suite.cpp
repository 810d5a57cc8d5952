// The json suite: bufstream's JSON writer and readers over unbuffered and buffered streams,
// against nlohmann, RapidJSON and simdjson, on the same rows and the same file.
#include <nlohmann/json.hpp>

#include "harness/file_utils.hpp"
#include "suites/json_files.hpp"
#include "suites/json_peers.hpp"
#include "suites/serialization_suite.hpp"
#include "suites/stream_variants.hpp"
#include "suites/suites.hpp"

#ifdef BUFSTREAM_BENCH_HAVE_JSON_FORMAT
#include "suites/json_bufstream.hpp"
#endif

namespace bufstream::bench {
namespace {

void add_bufstream_variants(SerializationSuite& suite) {
#ifdef BUFSTREAM_BENCH_HAVE_JSON_FORMAT
  suite.writers.push_back({"unbuffered", Cost::slow, over_unbuffered(write_json_bufstream), {}});
  suite.writers.push_back({"buffered", Cost::normal, over_buffered(write_json_bufstream), {}});
  suite.readers.push_back({"unbuffered", Cost::slow, over_unbuffered(read_json_bufstream_dom), {}});
  suite.readers.push_back({"buffered", Cost::normal, over_buffered(read_json_bufstream_dom), {}});
  suite.readers.push_back(
      {"buffered-typed", Cost::normal, over_buffered(read_json_bufstream_typed), {}});
#else
  for (const char* name : {"unbuffered", "buffered"})
    suite.writers.push_back({name, Cost::normal, {}, json_format_missing});
  for (const char* name : {"unbuffered", "buffered", "buffered-typed"}) {
    suite.readers.push_back({name, Cost::normal, {}, json_format_missing});
  }
#endif
}

void add_peers(SerializationSuite& suite) {
  suite.writers.push_back({"nlohmann", Cost::normal, write_json_nlohmann, {}});
  suite.readers.push_back({"nlohmann", Cost::normal, read_json_nlohmann, {}});
#ifdef BUFSTREAM_BENCH_HAVE_RAPIDJSON
  suite.writers.push_back({"rapidjson", Cost::normal, write_json_rapidjson, {}});
  suite.readers.push_back({"rapidjson", Cost::normal, read_json_rapidjson, {}});
#else
  suite.writers.push_back({"rapidjson",
                           Cost::normal,
                           {},
                           "RapidJSON not found at configure time (apt install rapidjson-dev)"});
  suite.readers.push_back({"rapidjson",
                           Cost::normal,
                           {},
                           "RapidJSON not found at configure time (apt install rapidjson-dev)"});
#endif
#ifdef BUFSTREAM_BENCH_HAVE_SIMDJSON
  suite.readers.push_back({"simdjson", Cost::normal, read_json_simdjson, {}});
#else
  suite.readers.push_back({"simdjson",
                           Cost::normal,
                           {},
                           "simdjson not found at configure time (apt install libsimdjson-dev)"});
#endif
}

}  // namespace

void run_json_suite(SuiteContext& context) {
  SerializationSuite suite{
      .name = "json",
      .extension = "json",
      .writers = {},
      .readers = {},
      .reference_writer = write_json_nlohmann,
      .read_back =
          [](const std::filesystem::path& path) {
            return checksum_of(nlohmann::json::parse(read_file(path)));
          },
  };
  add_bufstream_variants(suite);
  add_peers(suite);
  run_serialization_suite(context, suite);
}

}  // namespace bufstream::bench
