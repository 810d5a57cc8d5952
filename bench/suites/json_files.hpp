// The json-files suite's parts: what each library reads from and writes to the standard JSON
// benchmark files (bench/data/json/), and the shape of a document that every variant's result
// is checked against.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/options.hpp"
#include "harness/stopwatch.hpp"

namespace bufstream::bench {

/// Why a JSON variant was not measured: the part of the build it needs is missing.
inline constexpr const char* json_format_missing = "bufstream::json not built";
/// The same for RapidJSON.
inline constexpr const char* rapidjson_missing =
    "RapidJSON not found at configure time (apt install rapidjson-dev)";
/// The same for simdjson.
inline constexpr const char* simdjson_missing =
    "simdjson not found at configure time (apt install libsimdjson-dev)";

/// The folder of the standard JSON files: `--json-files`, or else the repository's
/// bench/data/json.
std::filesystem::path json_files_folder(const Options& options);

/// What a parse must have found, counted the same way from every library's result: values by
/// kind, the bytes of the (unescaped) strings and keys, and the numbers added up. Adding them
/// up checks that every library read the same numbers, and keeps a compiler from dropping the
/// conversion of numbers that an event handler would otherwise ignore.
struct JsonShape {
  std::uint64_t nulls = 0;
  std::uint64_t booleans = 0;
  std::uint64_t numbers = 0;
  std::uint64_t strings = 0;
  std::uint64_t string_bytes = 0;
  std::uint64_t keys = 0;
  std::uint64_t key_bytes = 0;
  std::uint64_t arrays = 0;
  std::uint64_t objects = 0;
  double number_sum = 0;        // the numbers (integers as doubles) added up
  double number_magnitude = 0;  // their absolute values added up

  void add_number(double value) noexcept {
    ++numbers;
    number_sum += value;
    number_magnitude += value < 0 ? -value : value;
  }
  /// Adds another document's shape to this one (JSON Lines: the shape of all its values).
  JsonShape& operator+=(const JsonShape& other) noexcept;
  std::string describe() const;
};

/// Whether two shapes agree: every count equal, and the sums of the numbers within 10^-12 of
/// their magnitude (not every library rounds doubles correctly, and not every DOM keeps an
/// object's members in the order the sums were taken in).
bool same_shape(const JsonShape& a, const JsonShape& b) noexcept;

/// The shape of an nlohmann DOM.
JsonShape shape_of(const nlohmann::json& value);
/// Throws `ValidationError` naming `who` when `got` differs from `expected`.
void check_shape(std::string_view who, const JsonShape& got, const JsonShape& expected);

/// Reads the file and returns the shape of what it parsed; stops `watch` after the parse. A
/// JSON Lines reader (json-lines suite) reads every value of the file, one after another, and
/// takes each one's shape as it goes (a value is dropped before the next is read).
using JsonFileRead = JsonShape (*)(const std::filesystem::path& path, Stopwatch& watch);
/// Writes a document parsed beforehand (untimed) to the path, closing the file.
using JsonFileWrite = std::function<void(const std::filesystem::path& path)>;

/// Parses each of many small documents held in memory, one after another, on its own, and
/// returns the shape of all of them (json-small suite); stops `watch` after the last. Each
/// document is dropped before the next is parsed, as a server drops each request's.
using SmallDocumentsRead = JsonShape (*)(const std::vector<std::string>& documents,
                                         Stopwatch& watch);

/// nlohmann: `nlohmann::json::parse` of each document.
JsonShape read_small_nlohmann(const std::vector<std::string>& documents, Stopwatch& watch);

/// nlohmann: `nlohmann::json::parse` from a std::ifstream.
JsonShape read_json_file_nlohmann(const std::filesystem::path& path, Stopwatch& watch);
/// nlohmann: `dump()` of the DOM into a std::ofstream.
JsonFileWrite json_file_writer_nlohmann(const nlohmann::json& document);
/// nlohmann, JSON Lines: `std::getline` from a std::ifstream, `nlohmann::json::parse` per line.
JsonShape read_json_lines_nlohmann(const std::filesystem::path& path, Stopwatch& watch);

#ifdef BUFSTREAM_BENCH_HAVE_RAPIDJSON
/// RapidJSON DOM with default flags (as most programs call it), a 64 KiB FileReadStream.
JsonShape read_json_file_rapidjson(const std::filesystem::path& path, Stopwatch& watch);
/// The same with kParseFullPrecisionFlag: doubles correctly rounded, like bufstream's.
JsonShape read_json_file_rapidjson_exact(const std::filesystem::path& path, Stopwatch& watch);
/// RapidJSON's SAX Reader, default flags, a handler that counts and adds up (JsonShape).
JsonShape read_json_file_rapidjson_sax(const std::filesystem::path& path, Stopwatch& watch);
/// RapidJSON's Writer over a 64 KiB FileWriteStream, from its own DOM of `text`.
JsonFileWrite json_file_writer_rapidjson(const std::string& text);
/// RapidJSON, JSON Lines: its DOM, its full-precision DOM and its SAX Reader as above, value
/// after value with kParseStopWhenDoneFlag over one 64 KiB FileReadStream.
JsonShape read_json_lines_rapidjson(const std::filesystem::path& path, Stopwatch& watch);
JsonShape read_json_lines_rapidjson_exact(const std::filesystem::path& path, Stopwatch& watch);
JsonShape read_json_lines_rapidjson_sax(const std::filesystem::path& path, Stopwatch& watch);
/// RapidJSON, small documents: a Document's `Parse(text, length)` of each, default flags.
JsonShape read_small_rapidjson(const std::vector<std::string>& documents, Stopwatch& watch);
#endif

#ifdef BUFSTREAM_BENCH_HAVE_SIMDJSON
/// simdjson's DOM: `dom::parser::load`.
JsonShape read_json_file_simdjson(const std::filesystem::path& path, Stopwatch& watch);
/// simdjson, JSON Lines: `dom::parser::load_many`, its documents in turn.
JsonShape read_json_lines_simdjson(const std::filesystem::path& path, Stopwatch& watch);
/// simdjson, small documents: one `dom::parser` parses each in turn (its buffers kept from one
/// to the next, as its documentation advises); each string has the padding simdjson reads
/// past the end in its capacity already, so nothing is copied.
JsonShape read_small_simdjson(const std::vector<std::string>& documents, Stopwatch& watch);
#endif

#ifdef BUFSTREAM_BENCH_HAVE_JSON_FORMAT
/// bufstream: json::Document::parse over a 64 KiB BufferedReadStream.
JsonShape read_json_file_bufstream_document(const std::filesystem::path& path, Stopwatch& watch);
/// bufstream: json::Writer writing a json::Document of `text` through a 64 KiB
/// BufferedWriteStream.
JsonFileWrite json_file_writer_bufstream_document(const std::string& text);
/// bufstream: json::Reader into nlohmann::json, over a 64 KiB BufferedReadStream.
JsonShape read_json_file_bufstream_nlohmann(const std::filesystem::path& path, Stopwatch& watch);
/// bufstream: json::Reader's events into a handler that counts and adds up (JsonShape).
JsonShape read_json_file_bufstream_events(const std::filesystem::path& path, Stopwatch& watch);
/// bufstream: json::Writer writing an nlohmann DOM through a 64 KiB BufferedWriteStream.
JsonFileWrite json_file_writer_bufstream_nlohmann(const nlohmann::json& document);
/// bufstream, JSON Lines: one json::Reader over a 64 KiB BufferedReadStream, value after value
/// until at_end(): json::Document::parse_next, read() into nlohmann::json, parse(handler).
JsonShape read_json_lines_bufstream_document(const std::filesystem::path& path, Stopwatch& watch);
JsonShape read_json_lines_bufstream_nlohmann(const std::filesystem::path& path, Stopwatch& watch);
JsonShape read_json_lines_bufstream_events(const std::filesystem::path& path, Stopwatch& watch);
/// bufstream, small documents: `json::Document::parse(text)` of each; and a json::Reader over
/// a MemoryReadStream of each into the counting handler.
JsonShape read_small_bufstream_document(const std::vector<std::string>& documents,
                                        Stopwatch& watch);
JsonShape read_small_bufstream_events(const std::vector<std::string>& documents, Stopwatch& watch);
#endif

}  // namespace bufstream::bench
