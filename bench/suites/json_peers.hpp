// The JSON libraries a C++ user would otherwise pick, writing and reading the same rows.
#pragma once

#include <filesystem>

#include <nlohmann/json.hpp>

#include "data_sets/checksum.hpp"
#include "data_sets/data_set.hpp"
#include "harness/stopwatch.hpp"

namespace bufstream::bench {

/// The rows as an nlohmann DOM: an array of five-element arrays.
nlohmann::json rows_to_dom(const DataSet& set);
/// The checksum of a DOM of that shape; throws `ValidationError` on any other shape.
Checksum checksum_of(const nlohmann::json& rows);

/// nlohmann: builds the DOM and dumps it to a std::ofstream.
void write_json_nlohmann(const DataSet& set, const std::filesystem::path& path);
/// nlohmann: parses from a std::ifstream into the DOM.
Checksum read_json_nlohmann(const std::filesystem::path& path, Stopwatch& watch);

#ifdef BUFSTREAM_BENCH_HAVE_RAPIDJSON
/// RapidJSON: a Writer over a 64 KiB FileWriteStream.
void write_json_rapidjson(const DataSet& set, const std::filesystem::path& path);
/// RapidJSON: parses into a Document through a 64 KiB FileReadStream.
Checksum read_json_rapidjson(const std::filesystem::path& path, Stopwatch& watch);
#endif

#ifdef BUFSTREAM_BENCH_HAVE_SIMDJSON
/// simdjson: DOM parser `load`.
Checksum read_json_simdjson(const std::filesystem::path& path, Stopwatch& watch);
#endif

}  // namespace bufstream::bench
