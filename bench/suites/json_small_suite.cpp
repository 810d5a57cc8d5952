// The json-small suite: the fixed cost of a parse. Many separate documents of 0.1 to 7 KB,
// the size of API responses and messages, each parsed on its own from memory, one after
// another: each status of twitter.json (`twitter-statuses`) and each event of
// citm_catalog.json (`citm-events`) as a document of its own, written compactly by nlohmann
// (untimed), repeated (each copy a string of its own) to 4 MiB a run. Each variant takes every
// document's shape as it goes, and the sum is checked against nlohmann's reading (untimed).
#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "harness/file_utils.hpp"
#include "harness/progress.hpp"
#include "suites/json_files.hpp"
#include "suites/suites.hpp"

namespace bufstream::bench {
namespace {

// simdjson reads up to 64 bytes past a document's end; room for them in each string's
// capacity spares it a copy (any library may read the bytes it is given, no further).
constexpr std::size_t padding = 64;

struct ReadVariant {
  const char* name;
  SmallDocumentsRead read;  // null: not built, for `missing`
  const char* missing;
};

std::vector<ReadVariant> read_variants() {
  return {
#ifdef BUFSTREAM_BENCH_HAVE_JSON_FORMAT
      {"document", read_small_bufstream_document, nullptr},
      {"events", read_small_bufstream_events, nullptr},
#else
      {"document", nullptr, json_format_missing}, {"events", nullptr, json_format_missing},
#endif
      {"nlohmann", read_small_nlohmann, nullptr},
#ifdef BUFSTREAM_BENCH_HAVE_RAPIDJSON
      {"rapidjson", read_small_rapidjson, nullptr},
#else
      {"rapidjson", nullptr, rapidjson_missing},
#endif
#ifdef BUFSTREAM_BENCH_HAVE_SIMDJSON
      {"simdjson", read_small_simdjson, nullptr},
#else
      {"simdjson", nullptr, simdjson_missing},
#endif
  };
}

// A run parses at least this many bytes: the documents of a set over again, each copy a
// string of its own, so that a run takes milliseconds, not the clock's resolution.
constexpr std::size_t bytes_per_run = std::size_t{4} << 20;

// The documents of one data set: the elements (or members' values) of `list` in `file`, each
// as compact JSON with room for the padding, repeated up to bytes_per_run.
std::vector<std::string> documents_of(const std::filesystem::path& file, const char* list) {
  const nlohmann::json whole = nlohmann::json::parse(read_file(file));
  std::vector<std::string> texts;
  std::size_t bytes = 0;
  for (const nlohmann::json& value : whole.at(list)) {
    bytes += texts.emplace_back(value.dump()).size();
  }
  std::vector<std::string> documents;
  for (std::size_t total = 0; total < bytes_per_run && bytes != 0; total += bytes) {
    for (const std::string& text : texts) {
      std::string& document = documents.emplace_back();
      document.reserve(text.size() + padding);
      document.assign(text);
    }
  }
  return documents;
}

void run_data(SuiteContext& context, const std::string& data,
              const std::vector<std::string>& documents) {
  JsonShape expected;
  std::uint64_t bytes = 0;
  for (const std::string& text : documents) {
    expected += shape_of(nlohmann::json::parse(text));
    bytes += text.size();
  }
  std::vector<InterleavedSuiteVariant> variants;
  for (const ReadVariant& v : read_variants()) {
    InterleavedSuiteVariant variant{.id = {"json-small", "read", data, v.name},
                                    .cost = Cost::normal,
                                    .run = {},
                                    .skip_reason = v.missing != nullptr ? v.missing : "",
                                    .finish = {}};
    if (v.read != nullptr) {
      variant.run = [read = v.read, name = v.name, &documents, &expected](Stopwatch& watch) {
        check_shape(name, read(documents, watch), expected);
      };
      variant.finish = [bytes](Timing timing) {
        return Measurement{
            .timing = std::move(timing), .cost = Cost::normal, .bytes = bytes, .entries = {}};
      };
    }
    variants.push_back(std::move(variant));
  }
  run_variants_interleaved(context, variants);
}

}  // namespace

void run_json_small_suite(SuiteContext& context) {
  progress_note("json-small suite");
  const std::filesystem::path folder = json_files_folder(context.options);
  const struct {
    const char* data;
    const char* file;
    const char* list;
  } sets[] = {{"twitter-statuses", "twitter.json", "statuses"},
              {"citm-events", "citm_catalog.json", "events"}};
  for (const auto& set : sets) {
    const std::filesystem::path file = folder / set.file;
    if (!std::filesystem::is_regular_file(file)) {
      const std::string reason = fmt::format("no {} (see --json-files)", file.string());
      for (const ReadVariant& v : read_variants())
        skip_variant(context, {"json-small", "read", set.data, v.name}, reason);
      continue;
    }
    run_data(context, set.data, documents_of(file, set.list));
  }
}

}  // namespace bufstream::bench
