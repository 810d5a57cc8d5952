#include "suites/json_bufstream.hpp"

#include <memory>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include <bufstream/buffered_read_stream.hpp>
#include <bufstream/buffered_write_stream.hpp>
#include <bufstream/fd_read_stream.hpp>
#include <bufstream/fd_write_stream.hpp>
#include <bufstream/json.hpp>
#include <bufstream/memory_read_stream.hpp>

#include "suites/json_files.hpp"
#include "suites/json_peers.hpp"

namespace bufstream::bench {

// A row reads from and writes as `[i, -i, x, y, words]` (found by ADL: Row lives here).
auto json_fields(Row& row) { return std::tie(row.i, row.minus_i, row.x, row.y, row.words); }

void write_json_row(json::Writer& writer, const Row& row, bool integral) {
  writer.begin_array().value(row.i).value(row.minus_i);
  if (integral) {
    writer.value(static_cast<std::int64_t>(row.x)).value(static_cast<std::int64_t>(row.y));
  } else {
    writer.value(row.x).value(row.y);
  }
  writer.value(row.words).end_array();
}

void write_json_bufstream(WriteStream& out, const DataSet& set) {
  json::Writer writer(out);
  writer.begin_array();
  for (const Row& row : set.rows) write_json_row(writer, row, set.integral());
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

// ---- The json-files suite ---------------------------------------------------------------

namespace {

// json::Reader's events, counted, and the numbers added up (JsonShape).
struct CountingHandler {
  JsonShape shape;
  void null() { ++shape.nulls; }
  void boolean(bool) { ++shape.booleans; }
  void integer(std::int64_t i) { shape.add_number(static_cast<double>(i)); }
  void unsigned_integer(std::uint64_t u) { shape.add_number(static_cast<double>(u)); }
  void floating(double d) { shape.add_number(d); }
  void string(std::string_view s) {
    ++shape.strings;
    shape.string_bytes += s.size();
  }
  void key(std::string_view k) {
    ++shape.keys;
    shape.key_bytes += k.size();
  }
  void begin_array() { ++shape.arrays; }
  void end_array() {}
  void begin_object() { ++shape.objects; }
  void end_object() {}
};

}  // namespace

namespace {

void add_shape(json::Value v, JsonShape& s) {
  switch (v.type()) {
    case json::Type::null: ++s.nulls; break;
    case json::Type::boolean: ++s.booleans; break;
    case json::Type::int64: s.add_number(static_cast<double>(v.as_int64())); break;
    case json::Type::uint64: s.add_number(static_cast<double>(v.as_uint64())); break;
    case json::Type::floating: s.add_number(v.as_double()); break;
    case json::Type::string:
      ++s.strings;
      s.string_bytes += v.as_string().size();
      break;
    case json::Type::array:
      ++s.arrays;
      for (const json::Value e : v.elements()) add_shape(e, s);
      break;
    case json::Type::object:
      ++s.objects;
      for (const auto& [key, member] : v.members()) {
        ++s.keys;
        s.key_bytes += key.size();
        add_shape(member, s);
      }
      break;
  }
}

}  // namespace

JsonShape read_json_file_bufstream_document(const std::filesystem::path& path, Stopwatch& watch) {
  FdReadStream file(path);
  BufferedReadStream in(file);
  const json::Document document = json::Document::parse(in);
  watch.stop();
  JsonShape s;
  add_shape(document.root(), s);
  return s;
}

JsonFileWrite json_file_writer_bufstream_document(const std::string& text) {
  auto document = std::make_shared<const json::Document>(json::Document::parse(text));
  return [document](const std::filesystem::path& path) {
    FdWriteStream file(path);
    BufferedWriteStream out(file);
    json::Writer writer(out);
    writer.value(document->root());
    writer.finish();
    out.close();
  };
}

JsonShape read_json_file_bufstream_nlohmann(const std::filesystem::path& path, Stopwatch& watch) {
  FdReadStream file(path);
  BufferedReadStream in(file);
  json::Reader reader(in);
  const nlohmann::json document = reader.read();
  reader.finish();
  watch.stop();
  return shape_of(document);
}

JsonShape read_json_file_bufstream_events(const std::filesystem::path& path, Stopwatch& watch) {
  FdReadStream file(path);
  BufferedReadStream in(file);
  json::Reader reader(in);
  CountingHandler handler;
  reader.parse(handler);
  reader.finish();
  watch.stop();
  return handler.shape;
}

namespace {

// Each value of a JSON Lines file in turn, from one json::Reader over a 64 KiB buffer until
// at_end(): `read_one(reader)` reads one.
template <class ReadOne>
void read_each_value(const std::filesystem::path& path, Stopwatch& watch, ReadOne read_one) {
  FdReadStream file(path);
  BufferedReadStream in(file);
  json::Reader reader(in);
  while (!reader.at_end()) read_one(reader);
  watch.stop();
}

}  // namespace

JsonShape read_json_lines_bufstream_document(const std::filesystem::path& path, Stopwatch& watch) {
  JsonShape s;
  read_each_value(path, watch, [&s](json::Reader& reader) {
    add_shape(json::Document::parse_next(reader).root(), s);
  });
  return s;
}

JsonShape read_json_lines_bufstream_nlohmann(const std::filesystem::path& path, Stopwatch& watch) {
  JsonShape s;
  read_each_value(path, watch, [&s](json::Reader& reader) { s += shape_of(reader.read()); });
  return s;
}

JsonShape read_json_lines_bufstream_events(const std::filesystem::path& path, Stopwatch& watch) {
  CountingHandler handler;
  read_each_value(path, watch, [&handler](json::Reader& reader) { reader.parse(handler); });
  return handler.shape;
}

JsonShape read_small_bufstream_document(const std::vector<std::string>& documents,
                                        Stopwatch& watch) {
  JsonShape s;
  for (const std::string& text : documents) add_shape(json::Document::parse(text).root(), s);
  watch.stop();
  return s;
}

JsonShape read_small_bufstream_events(const std::vector<std::string>& documents, Stopwatch& watch) {
  CountingHandler handler;
  for (const std::string& text : documents) {
    MemoryReadStream in(text);
    json::Reader reader(in);
    reader.parse(handler);
    reader.finish();
  }
  watch.stop();
  return handler.shape;
}

JsonFileWrite json_file_writer_bufstream_nlohmann(const nlohmann::json& document) {
  return [&document](const std::filesystem::path& path) {
    FdWriteStream file(path);
    BufferedWriteStream out(file);
    json::Writer writer(out);
    writer.value(document);
    writer.finish();
    out.close();
  };
}

}  // namespace bufstream::bench
