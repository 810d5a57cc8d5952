// The json-select suite: one large document of the shape public data dumps have,
// {"meta": {...}, "rows": [...]}, with a large `meta` before the rows (a history of one entry
// per ten rows), read one row at a time by JSON Pointer (json::Selection of "/rows/*": as
// events in one walk with Selection::parse, `select-events`; row by row with next() and the
// reader's parse, `select-next-events`; or each into a Document) and against reading the whole file
// (into one Document, or as events with a handler that keeps only the rows, what `bufstream check`
// does) and simdjson's On-Demand API (which needs the whole file in memory). Op `seek`: the one
// value "/meta/version" near the file's start.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "data_sets/checksum.hpp"
#include "harness/file_utils.hpp"
#include "harness/progress.hpp"
#include "harness/results.hpp"
#include "suites/json_files.hpp"
#include "suites/suites.hpp"

#ifdef BUFSTREAM_BENCH_HAVE_JSON_FORMAT
#include <bufstream/buffered_read_stream.hpp>
#include <bufstream/buffered_write_stream.hpp>
#include <bufstream/fd_read_stream.hpp>
#include <bufstream/fd_write_stream.hpp>
#include <bufstream/json.hpp>

#include "suites/json_bufstream.hpp"
#endif

#ifdef BUFSTREAM_BENCH_HAVE_SIMDJSON
#include <simdjson.h>
#endif

namespace bufstream::bench {
namespace {

constexpr std::int64_t meta_version = 3;

#ifdef BUFSTREAM_BENCH_HAVE_JSON_FORMAT

// Writes the document: the meta object (its version first), then the rows as the json suite
// writes them, [i, -i, x, y, words].
void write_select_document(const DataSet& set, const std::filesystem::path& path) {
  FdWriteStream file(path);
  BufferedWriteStream out(file);
  json::Writer w(out);
  w.begin_object().key("meta").begin_object();
  w.key("version").value(meta_version);
  w.key("columns").begin_array();
  for (const char* c : {"i", "minus_i", "x", "y", "words"}) w.value(c);
  w.end_array();
  w.key("history").begin_array();
  for (std::size_t n = 0; n < set.rows.size(); n += 10) {
    const Row& row = set.rows[n];
    w.begin_object().key("at").value(row.i).key("note").value(row.words).end_object();
  }
  w.end_array().end_object();
  w.key("rows").begin_array();
  for (const Row& row : set.rows) write_json_row(w, row, set.integral());
  w.end_array().end_object();
  w.finish();
  out.close();
}

// A row's events: five values of an array whose begin_array the caller has counted.
struct RowFields {
  RowChecksum sum;
  double numbers[4] = {};
  int field = 0;
  void number(double v) {
    if (field < 4) numbers[field] = v;
    ++field;
  }
  void words(std::string_view s) {
    sum.add(static_cast<std::int64_t>(numbers[0]), static_cast<std::int64_t>(numbers[1]),
            numbers[2], numbers[3], s);
    ++field;
  }
  void end_row() {
    if (field != 5) throw ValidationError("a row without five fields");
    field = 0;
  }
};

// The events of one selected row.
struct RowHandler {
  RowFields& row;
  void null() { throw ValidationError("null in a row"); }
  void boolean(bool) { throw ValidationError("a boolean in a row"); }
  void integer(std::int64_t v) { row.number(static_cast<double>(v)); }
  void unsigned_integer(std::uint64_t v) { row.number(static_cast<double>(v)); }
  void floating(double v) { row.number(v); }
  void string(std::string_view s) { row.words(s); }
  void key(std::string_view) { throw ValidationError("an object in a row"); }
  void begin_array() {}
  void end_array() { row.end_row(); }
  void begin_object() { throw ValidationError("an object in a row"); }
  void end_object() {}
};

// The events of the whole document: the rows are the arrays two levels under "rows".
struct DocumentHandler {
  RowFields row;
  int depth = 0;
  bool in_rows = false;
  bool at_row() const { return in_rows && depth == 3; }
  void null() {}
  void boolean(bool) {}
  void integer(std::int64_t v) { at_row() ? row.number(static_cast<double>(v)) : void(); }
  void unsigned_integer(std::uint64_t v) { at_row() ? row.number(static_cast<double>(v)) : void(); }
  void floating(double v) { at_row() ? row.number(v) : void(); }
  void string(std::string_view s) { at_row() ? row.words(s) : void(); }
  void key(std::string_view k) {
    if (depth == 1) in_rows = k == "rows";
  }
  void begin_array() { ++depth; }
  void end_array() {
    if (at_row()) row.end_row();
    --depth;
  }
  void begin_object() { ++depth; }
  void end_object() { --depth; }
};

void add_row(RowChecksum& sum, json::Value row) {
  if (row.size() != 5) throw ValidationError("a row without five fields");
  sum.add(row[0].as_int64(), row[1].as_int64(), row[2].as_double(), row[3].as_double(),
          row[4].as_string());
}

// The rows' events: in one walk (Selection::parse), or row by row (next(), then parse()).
template <bool OneWalk>
Checksum select_events(const std::filesystem::path& path, Stopwatch& watch) {
  FdReadStream file(path);
  BufferedReadStream in(file);
  json::Reader reader(in);
  json::Selection rows(reader, json::Pointer("/rows/*"));
  RowFields fields;
  RowHandler handler{fields};
  if constexpr (OneWalk) {
    rows.parse(handler);
  } else {
    while (rows.next()) reader.parse(handler);
  }
  reader.finish();
  watch.stop();
  return fields.sum.result();
}

Checksum select_document(const std::filesystem::path& path, Stopwatch& watch) {
  FdReadStream file(path);
  BufferedReadStream in(file);
  json::Reader reader(in);
  json::Selection rows(reader, json::Pointer("/rows/*"));
  RowChecksum sum;
  while (rows.next()) add_row(sum, json::Document::parse_next(reader).root());
  reader.finish();
  watch.stop();
  return sum.result();
}

Checksum whole_document(const std::filesystem::path& path, Stopwatch& watch) {
  FdReadStream file(path);
  BufferedReadStream in(file);
  const json::Document d = json::Document::parse(in);
  RowChecksum sum;
  for (const json::Value row : d.at("/rows").elements()) add_row(sum, row);
  watch.stop();
  return sum.result();
}

Checksum whole_events(const std::filesystem::path& path, Stopwatch& watch) {
  FdReadStream file(path);
  BufferedReadStream in(file);
  json::Reader reader(in);
  DocumentHandler handler;
  reader.parse(handler);
  reader.finish();
  watch.stop();
  return handler.row.sum.result();
}

std::int64_t seek_version(const std::filesystem::path& path, Stopwatch& watch) {
  FdReadStream file(path);
  BufferedReadStream in(file);
  json::Reader reader(in);
  json::seek(reader, json::Pointer("/meta/version"));
  const auto version = reader.read_integer<std::int64_t>();
  watch.stop();
  return version;
}

std::int64_t whole_document_version(const std::filesystem::path& path, Stopwatch& watch) {
  FdReadStream file(path);
  BufferedReadStream in(file);
  const std::int64_t version = json::Document::parse(in).at("/meta/version").as_int64();
  watch.stop();
  return version;
}

#endif  // BUFSTREAM_BENCH_HAVE_JSON_FORMAT

#ifdef BUFSTREAM_BENCH_HAVE_SIMDJSON

Checksum simdjson_ondemand(const std::filesystem::path& path, Stopwatch& watch) {
  const simdjson::padded_string text = simdjson::padded_string::load(path.string());
  simdjson::ondemand::parser parser;
  simdjson::ondemand::document doc = parser.iterate(text);
  RowChecksum sum;
  for (simdjson::ondemand::array row : doc["rows"].get_array()) {
    auto it = row.begin();
    const std::int64_t i = (*it).get_int64();
    const std::int64_t minus_i = (*++it).get_int64();
    const double x = (*++it).get_double();
    const double y = (*++it).get_double();
    const std::string_view words = (*++it).get_string();
    sum.add(i, minus_i, x, y, words);
  }
  watch.stop();
  return sum.result();
}

std::int64_t simdjson_ondemand_version(const std::filesystem::path& path, Stopwatch& watch) {
  const simdjson::padded_string text = simdjson::padded_string::load(path.string());
  simdjson::ondemand::parser parser;
  simdjson::ondemand::document doc = parser.iterate(text);
  const std::int64_t version = doc["meta"]["version"].get_int64();
  watch.stop();
  return version;
}

#endif  // BUFSTREAM_BENCH_HAVE_SIMDJSON

using ReadRows = Checksum (*)(const std::filesystem::path&, Stopwatch&);
using ReadVersion = std::int64_t (*)(const std::filesystem::path&, Stopwatch&);

template <class Read, class Check>
InterleavedSuiteVariant variant_of(const VariantId& id, Read read, const char* missing,
                                   const std::filesystem::path& path, std::uint64_t bytes,
                                   Check check) {
  InterleavedSuiteVariant v{
      .id = id, .cost = Cost::normal, .run = {}, .skip_reason = {}, .finish = {}};
  if (read == nullptr) {
    v.skip_reason = missing;
    return v;
  }
  v.run = [read, &path, check, name = id.variant](Stopwatch& watch) {
    check(name, read(path, watch));
  };
  v.finish = [bytes](Timing timing) {
    return Measurement{
        .timing = std::move(timing), .cost = Cost::normal, .bytes = bytes, .entries = {}};
  };
  return v;
}

void run_data(SuiteContext& context, DataKind kind) {
  const std::string data(to_string(kind));
  const DataSet set = make_data_set(kind, context.options.rows);
  const std::filesystem::path path = context.temp.path() / fmt::format("select-{}.json", data);
  ReadRows select_events_read = nullptr, select_next_events_read = nullptr;
  ReadRows select_document_read = nullptr;
  ReadRows whole_document_read = nullptr, whole_events_read = nullptr, ondemand_read = nullptr;
  ReadVersion seek_read = nullptr, whole_version_read = nullptr, ondemand_version = nullptr;
#ifdef BUFSTREAM_BENCH_HAVE_JSON_FORMAT
  write_select_document(set, path);
  select_events_read = select_events<true>;
  select_next_events_read = select_events<false>;
  select_document_read = select_document;
  whole_document_read = whole_document;
  whole_events_read = whole_events;
  seek_read = seek_version;
  whole_version_read = whole_document_version;
#ifdef BUFSTREAM_BENCH_HAVE_SIMDJSON  // with bufstream's writer only: it makes the file
  ondemand_read = simdjson_ondemand;
  ondemand_version = simdjson_ondemand_version;
#endif
#endif
  const std::uint64_t bytes = std::filesystem::exists(path) ? size_of_file(path) : 0;
  const Checksum expected = checksum(set);
  const auto check_rows = [&expected](std::string_view name, const Checksum& got) {
    if (!got.matches(expected)) {
      throw ValidationError(
          fmt::format("{}: got {}, expected {}", name, got.describe(), expected.describe()));
    }
  };
  const auto check_version = [](std::string_view name, std::int64_t got) {
    if (got != meta_version)
      throw ValidationError(fmt::format("{}: version {}, expected {}", name, got, meta_version));
  };
  const std::vector<InterleavedSuiteVariant> reads{
      variant_of({"json-select", "read", data, "select-events"}, select_events_read,
                 json_format_missing, path, bytes, check_rows),
      variant_of({"json-select", "read", data, "select-next-events"}, select_next_events_read,
                 json_format_missing, path, bytes, check_rows),
      variant_of({"json-select", "read", data, "select-document"}, select_document_read,
                 json_format_missing, path, bytes, check_rows),
      variant_of({"json-select", "read", data, "whole-events"}, whole_events_read,
                 json_format_missing, path, bytes, check_rows),
      variant_of({"json-select", "read", data, "whole-document"}, whole_document_read,
                 json_format_missing, path, bytes, check_rows),
      variant_of({"json-select", "read", data, "simdjson-ondemand"}, ondemand_read,
                 simdjson_missing, path, bytes, check_rows)};
  run_variants_interleaved(context, reads);
  const std::vector<InterleavedSuiteVariant> seeks{
      variant_of({"json-select", "seek", data, "seek"}, seek_read, json_format_missing, path, bytes,
                 check_version),
      variant_of({"json-select", "seek", data, "whole-document"}, whole_version_read,
                 json_format_missing, path, bytes, check_version),
      variant_of({"json-select", "seek", data, "simdjson-ondemand"}, ondemand_version,
                 simdjson_missing, path, bytes, check_version)};
  run_variants_interleaved(context, seeks);
}

}  // namespace

void run_json_select_suite(SuiteContext& context) {
  progress_note("json-select suite");
  for (const DataKind kind : context.options.data) run_data(context, kind);
}

}  // namespace bufstream::bench
