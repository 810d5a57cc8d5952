// The json-files suite: the standard JSON benchmark files (twitter.json, citm_catalog.json,
// canada.json in bench/data/json/), read and written by bufstream and by the libraries a user
// would otherwise pick, side by side. Every read is checked against the shape nlohmann finds
// (untimed), every written file is read back and checked the same way.
//
// The json-lines suite: JSON Lines, a short value per line, the shape of logs and record
// exports. The rows of the serialization data sets, one compact JSON array per line, read value
// after value by the same variants. Each value is dropped before the next is read (a reader
// that keeps only what it needs runs in constant memory), so every variant takes each value's
// shape as it goes; the result is checked against nlohmann's reading of each line (untimed).
#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "harness/file_utils.hpp"
#include "harness/progress.hpp"
#include "suites/json_files.hpp"
#include "suites/json_peers.hpp"
#include "suites/suites.hpp"

#ifndef BUFSTREAM_BENCH_DEFAULT_JSON_FILES
#define BUFSTREAM_BENCH_DEFAULT_JSON_FILES "bench/data/json"
#endif

namespace bufstream::bench {

std::filesystem::path json_files_folder(const Options& options) {
  return options.json_files_path.empty() ? std::filesystem::path(BUFSTREAM_BENCH_DEFAULT_JSON_FILES)
                                         : options.json_files_path;
}

namespace {

struct ReadVariant {
  const char* name;
  JsonFileRead read;  // null: not built, for `missing`
  const char* missing;
};

// The read variants, of whole files or (`lines`) of JSON Lines files.
std::vector<ReadVariant> read_variants(bool lines) {
  return {
#ifdef BUFSTREAM_BENCH_HAVE_JSON_FORMAT
      {"document", lines ? read_json_lines_bufstream_document : read_json_file_bufstream_document,
       nullptr},
      {"nlohmann-dom",
       lines ? read_json_lines_bufstream_nlohmann : read_json_file_bufstream_nlohmann, nullptr},
      {"events", lines ? read_json_lines_bufstream_events : read_json_file_bufstream_events,
       nullptr},
#else
      {"document", nullptr, json_format_missing},
      {"nlohmann-dom", nullptr, json_format_missing},
      {"events", nullptr, json_format_missing},
#endif
      {"nlohmann", lines ? read_json_lines_nlohmann : read_json_file_nlohmann, nullptr},
#ifdef BUFSTREAM_BENCH_HAVE_RAPIDJSON
      {"rapidjson", lines ? read_json_lines_rapidjson : read_json_file_rapidjson, nullptr},
      {"rapidjson-exact", lines ? read_json_lines_rapidjson_exact : read_json_file_rapidjson_exact,
       nullptr},
      {"rapidjson-sax", lines ? read_json_lines_rapidjson_sax : read_json_file_rapidjson_sax,
       nullptr},
#else
      {"rapidjson", nullptr, rapidjson_missing},
      {"rapidjson-exact", nullptr, rapidjson_missing},
      {"rapidjson-sax", nullptr, rapidjson_missing},
#endif
#ifdef BUFSTREAM_BENCH_HAVE_SIMDJSON
      {"simdjson", lines ? read_json_lines_simdjson : read_json_file_simdjson, nullptr},
#else
      {"simdjson", nullptr, simdjson_missing},
#endif
  };
}

// The files of the suite: every *.json in the folder, by name.
std::vector<std::filesystem::path> json_files(const std::filesystem::path& folder) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    if (entry.is_regular_file() && entry.path().extension() == ".json")
      files.push_back(entry.path());
  }
  std::ranges::sort(files);
  return files;
}

Measurement of_size(Timing timing, std::uint64_t bytes) {
  return {.timing = std::move(timing), .cost = Cost::normal, .bytes = bytes, .entries = {}};
}

void run_reads(SuiteContext& context, std::string_view suite, const std::string& data,
               const std::filesystem::path& path, const JsonShape& expected) {
  const std::uint64_t bytes = size_of_file(path);
  std::vector<InterleavedSuiteVariant> variants;
  for (const ReadVariant& v : read_variants(suite == "json-lines")) {
    InterleavedSuiteVariant variant{.id = {suite, "read", data, v.name},
                                    .cost = Cost::normal,
                                    .run = {},
                                    .skip_reason = v.missing != nullptr ? v.missing : "",
                                    .finish = {}};
    if (v.read != nullptr) {
      variant.run = [read = v.read, name = v.name, &path, &expected](Stopwatch& watch) {
        check_shape(name, read(path, watch), expected);
      };
      variant.finish = [bytes](Timing timing) { return of_size(std::move(timing), bytes); };
    }
    variants.push_back(std::move(variant));
  }
  run_variants_interleaved(context, variants);
}

void run_writes(SuiteContext& context, const std::string& data, const std::string& text,
                const nlohmann::json& document, const JsonShape& expected) {
  struct WriteVariant {
    const char* name;
    JsonFileWrite write;  // empty: not built, for `missing`
    const char* missing;
  };
  std::vector<WriteVariant> writers;
#ifdef BUFSTREAM_BENCH_HAVE_JSON_FORMAT
  writers.push_back({"document", json_file_writer_bufstream_document(text), nullptr});
  writers.push_back({"nlohmann-dom", json_file_writer_bufstream_nlohmann(document), nullptr});
#else
  writers.push_back({"document", {}, json_format_missing});
  writers.push_back({"nlohmann-dom", {}, json_format_missing});
#endif
  writers.push_back({"nlohmann", json_file_writer_nlohmann(document), nullptr});
#ifdef BUFSTREAM_BENCH_HAVE_RAPIDJSON
  writers.push_back({"rapidjson", json_file_writer_rapidjson(text), nullptr});
#else
  static_cast<void>(text);
  writers.push_back({"rapidjson", {}, rapidjson_missing});
#endif
  std::vector<InterleavedSuiteVariant> variants;
  for (const WriteVariant& w : writers) {
    InterleavedSuiteVariant variant{.id = {"json-files", "write", data, w.name},
                                    .cost = Cost::normal,
                                    .run = {},
                                    .skip_reason = w.missing != nullptr ? w.missing : "",
                                    .finish = {}};
    if (w.write) {
      const std::filesystem::path out =
          context.temp.path() / fmt::format("json-files-{}-{}.json", data, w.name);
      variant.run = [write = w.write, out](Stopwatch& watch) {
        start_on_new_files(watch, {out});
        write(out);
      };
      variant.finish = [out, name = w.name, &expected](Timing timing) {
        check_shape(fmt::format("{}'s output read back by nlohmann", name),
                    shape_of(nlohmann::json::parse(read_file(out))), expected);
        return of_size(std::move(timing), size_of_file(out));
      };
    }
    variants.push_back(std::move(variant));
  }
  run_variants_interleaved(context, variants);
}

// Writes the data set as JSON Lines (nlohmann's compact dump of each row) and returns the
// shape of all its values.
JsonShape write_json_lines(const DataSet& set, const std::filesystem::path& path) {
  std::ofstream out(path, std::ios::binary);
  if (!out) io_failed("open", path);
  JsonShape shape;
  for (const nlohmann::json& row : rows_to_dom(set)) {
    out << row.dump() << '\n';
    shape += shape_of(row);
  }
  out.close();
  if (!out) io_failed("write", path);
  return shape;
}

}  // namespace

void run_json_files_suite(SuiteContext& context) {
  const std::filesystem::path folder = json_files_folder(context.options);
  progress_note(fmt::format("json-files suite, {}", folder.string()));
  std::vector<std::filesystem::path> files;
  if (std::filesystem::is_directory(folder)) files = json_files(folder);
  if (files.empty()) {
    const std::string reason =
        fmt::format("no *.json file in {} (see --json-files)", folder.string());
    for (const ReadVariant& v : read_variants(false))
      skip_variant(context, {"json-files", "read", "files", v.name}, reason);
    for (const char* name : {"document", "nlohmann-dom", "nlohmann", "rapidjson"})
      skip_variant(context, {"json-files", "write", "files", name}, reason);
    return;
  }
  for (const std::filesystem::path& path : files) {
    const std::string data = path.stem().string();
    const std::string text = read_file(path);
    const nlohmann::json document = nlohmann::json::parse(text);
    const JsonShape expected = shape_of(document);
    run_reads(context, "json-files", data, path, expected);
    run_writes(context, data, text, document, expected);
  }
}

void run_json_lines_suite(SuiteContext& context) {
  progress_note("json-lines suite");
  for (const DataKind kind : context.options.data) {
    const std::string data(to_string(kind));
    const std::filesystem::path path = context.temp.path() / fmt::format("rows-{}.jsonl", data);
    const JsonShape expected = write_json_lines(make_data_set(kind, context.options.rows), path);
    run_reads(context, "json-lines", data, path, expected);
  }
}

}  // namespace bufstream::bench
