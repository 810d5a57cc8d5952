#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <tuple>

#include <fmt/format.h>

#ifdef BUFSTREAM_BENCH_HAVE_RAPIDJSON
#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/filereadstream.h>
#include <rapidjson/filewritestream.h>
#include <rapidjson/reader.h>
#include <rapidjson/writer.h>
#endif
#ifdef BUFSTREAM_BENCH_HAVE_SIMDJSON
#include <simdjson.h>
#endif

#include "harness/file_utils.hpp"
#include "harness/results.hpp"
#include "suites/json_files.hpp"

namespace bufstream::bench {

std::string JsonShape::describe() const {
  return fmt::format(
      "{} nulls, {} booleans, {} numbers (sum {}), {} strings ({} bytes), {} keys ({} bytes), "
      "{} arrays, {} objects",
      nulls, booleans, numbers, number_sum, strings, string_bytes, keys, key_bytes, arrays,
      objects);
}

bool same_shape(const JsonShape& a, const JsonShape& b) noexcept {
  const auto counts = [](const JsonShape& s) {
    return std::tuple(s.nulls, s.booleans, s.numbers, s.strings, s.string_bytes, s.keys,
                      s.key_bytes, s.arrays, s.objects);
  };
  return counts(a) == counts(b) && std::abs(a.number_sum - b.number_sum) <=
                                       1e-12 * std::max(a.number_magnitude, b.number_magnitude);
}

JsonShape& JsonShape::operator+=(const JsonShape& other) noexcept {
  nulls += other.nulls;
  booleans += other.booleans;
  numbers += other.numbers;
  strings += other.strings;
  string_bytes += other.string_bytes;
  keys += other.keys;
  key_bytes += other.key_bytes;
  arrays += other.arrays;
  objects += other.objects;
  number_sum += other.number_sum;
  number_magnitude += other.number_magnitude;
  return *this;
}

void check_shape(std::string_view who, const JsonShape& got, const JsonShape& expected) {
  if (!same_shape(got, expected)) {
    throw ValidationError(
        fmt::format("{} found {}; expected {}", who, got.describe(), expected.describe()));
  }
}

namespace {

void add_shape(const nlohmann::json& v, JsonShape& s) {
  switch (v.type()) {
    case nlohmann::json::value_t::null: ++s.nulls; break;
    case nlohmann::json::value_t::boolean: ++s.booleans; break;
    case nlohmann::json::value_t::string:
      ++s.strings;
      s.string_bytes += v.get_ref<const std::string&>().size();
      break;
    case nlohmann::json::value_t::array:
      ++s.arrays;
      for (const nlohmann::json& e : v) add_shape(e, s);
      break;
    case nlohmann::json::value_t::object:
      ++s.objects;
      for (const auto& [key, member] : v.items()) {
        ++s.keys;
        s.key_bytes += key.size();
        add_shape(member, s);
      }
      break;
    default: s.add_number(v.get<double>()); break;  // integer, unsigned, float (not binary)
  }
}

}  // namespace

JsonShape shape_of(const nlohmann::json& value) {
  JsonShape s;
  add_shape(value, s);
  return s;
}

JsonShape read_json_file_nlohmann(const std::filesystem::path& path, Stopwatch& watch) {
  std::ifstream in(path, std::ios::binary);
  if (!in) io_failed("open", path);
  const nlohmann::json document = nlohmann::json::parse(in);
  watch.stop();
  return shape_of(document);
}

JsonShape read_json_lines_nlohmann(const std::filesystem::path& path, Stopwatch& watch) {
  std::ifstream in(path, std::ios::binary);
  if (!in) io_failed("open", path);
  JsonShape s;
  std::string line;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") != std::string::npos)
      s += shape_of(nlohmann::json::parse(line));
  }
  if (in.bad()) io_failed("read", path);
  watch.stop();
  return s;
}

JsonShape read_small_nlohmann(const std::vector<std::string>& documents, Stopwatch& watch) {
  JsonShape s;
  for (const std::string& text : documents) s += shape_of(nlohmann::json::parse(text));
  watch.stop();
  return s;
}

JsonFileWrite json_file_writer_nlohmann(const nlohmann::json& document) {
  return [&document](const std::filesystem::path& path) {
    std::ofstream out(path, std::ios::binary);
    if (!out) io_failed("open", path);
    out << document.dump();
    out.close();
    if (!out) io_failed("write", path);
  };
}

#ifdef BUFSTREAM_BENCH_HAVE_RAPIDJSON
namespace {

constexpr std::size_t peer_buffer_size = 65536;

void add_shape(const rapidjson::Value& v, JsonShape& s) {
  switch (v.GetType()) {
    case rapidjson::kNullType: ++s.nulls; break;
    case rapidjson::kFalseType:
    case rapidjson::kTrueType: ++s.booleans; break;
    case rapidjson::kNumberType: s.add_number(v.GetDouble()); break;
    case rapidjson::kStringType:
      ++s.strings;
      s.string_bytes += v.GetStringLength();
      break;
    case rapidjson::kArrayType:
      ++s.arrays;
      for (const rapidjson::Value& e : v.GetArray()) add_shape(e, s);
      break;
    case rapidjson::kObjectType:
      ++s.objects;
      for (const auto& member : v.GetObject()) {
        ++s.keys;
        s.key_bytes += member.name.GetStringLength();
        add_shape(member.value, s);
      }
      break;
  }
}

[[noreturn]] void rapidjson_failed(rapidjson::ParseErrorCode code, std::size_t offset) {
  throw ValidationError(
      fmt::format("RapidJSON: {} at byte {}", rapidjson::GetParseError_En(code), offset));
}

template <unsigned Flags>
JsonShape read_rapidjson_dom(const std::filesystem::path& path, Stopwatch& watch) {
  StdioFile file = open_stdio(path, "rb");
  auto buffer = std::make_unique_for_overwrite<char[]>(peer_buffer_size);
  rapidjson::FileReadStream stream(file.get(), buffer.get(), peer_buffer_size);
  rapidjson::Document document;
  document.ParseStream<Flags>(stream);
  watch.stop();
  if (document.HasParseError())
    rapidjson_failed(document.GetParseError(), document.GetErrorOffset());
  JsonShape s;
  add_shape(document, s);
  return s;
}

// Each value of a JSON Lines file in turn: `parse(stream)` reads one value (with
// kParseStopWhenDoneFlag) and takes its shape; false when it failed.
template <class Parse>
JsonShape read_rapidjson_lines(const std::filesystem::path& path, Stopwatch& watch, Parse parse) {
  StdioFile file = open_stdio(path, "rb");
  auto buffer = std::make_unique_for_overwrite<char[]>(peer_buffer_size);
  rapidjson::FileReadStream stream(file.get(), buffer.get(), peer_buffer_size);
  JsonShape s;
  for (;;) {
    rapidjson::SkipWhitespace(stream);
    if (stream.Peek() == '\0') break;
    parse(stream, s);
  }
  watch.stop();
  return s;
}

template <unsigned Flags>
JsonShape read_rapidjson_dom_lines(const std::filesystem::path& path, Stopwatch& watch) {
  return read_rapidjson_lines(path, watch, [](rapidjson::FileReadStream& stream, JsonShape& s) {
    rapidjson::Document document;
    document.ParseStream<Flags | rapidjson::kParseStopWhenDoneFlag>(stream);
    if (document.HasParseError())
      rapidjson_failed(document.GetParseError(), document.GetErrorOffset());
    add_shape(document, s);
  });
}

// A RapidJSON SAX handler that counts what it is given and adds up the numbers (JsonShape).
struct CountingHandler : rapidjson::BaseReaderHandler<rapidjson::UTF8<>, CountingHandler> {
  JsonShape shape;
  bool Null() { return ++shape.nulls, true; }
  bool Bool(bool) { return ++shape.booleans, true; }
  bool Int(int i) { return shape.add_number(i), true; }
  bool Uint(unsigned u) { return shape.add_number(u), true; }
  bool Int64(std::int64_t i) { return shape.add_number(static_cast<double>(i)), true; }
  bool Uint64(std::uint64_t u) { return shape.add_number(static_cast<double>(u)), true; }
  bool Double(double d) { return shape.add_number(d), true; }
  bool String(const char*, rapidjson::SizeType length, bool) {
    ++shape.strings;
    shape.string_bytes += length;
    return true;
  }
  bool Key(const char*, rapidjson::SizeType length, bool) {
    ++shape.keys;
    shape.key_bytes += length;
    return true;
  }
  bool StartObject() { return ++shape.objects, true; }
  bool EndObject(rapidjson::SizeType) { return true; }
  bool StartArray() { return ++shape.arrays, true; }
  bool EndArray(rapidjson::SizeType) { return true; }
};

}  // namespace

JsonShape read_json_file_rapidjson(const std::filesystem::path& path, Stopwatch& watch) {
  return read_rapidjson_dom<rapidjson::kParseDefaultFlags>(path, watch);
}

JsonShape read_json_file_rapidjson_exact(const std::filesystem::path& path, Stopwatch& watch) {
  return read_rapidjson_dom<rapidjson::kParseFullPrecisionFlag>(path, watch);
}

JsonShape read_json_file_rapidjson_sax(const std::filesystem::path& path, Stopwatch& watch) {
  StdioFile file = open_stdio(path, "rb");
  auto buffer = std::make_unique_for_overwrite<char[]>(peer_buffer_size);
  rapidjson::FileReadStream stream(file.get(), buffer.get(), peer_buffer_size);
  rapidjson::Reader reader;
  CountingHandler handler;
  const rapidjson::ParseResult result = reader.Parse(stream, handler);
  watch.stop();
  if (result.IsError()) rapidjson_failed(result.Code(), result.Offset());
  return handler.shape;
}

JsonShape read_small_rapidjson(const std::vector<std::string>& documents, Stopwatch& watch) {
  JsonShape s;
  for (const std::string& text : documents) {
    rapidjson::Document document;
    document.Parse(text.data(), text.size());
    if (document.HasParseError())
      rapidjson_failed(document.GetParseError(), document.GetErrorOffset());
    add_shape(document, s);
  }
  watch.stop();
  return s;
}

JsonShape read_json_lines_rapidjson(const std::filesystem::path& path, Stopwatch& watch) {
  return read_rapidjson_dom_lines<rapidjson::kParseDefaultFlags>(path, watch);
}

JsonShape read_json_lines_rapidjson_exact(const std::filesystem::path& path, Stopwatch& watch) {
  return read_rapidjson_dom_lines<rapidjson::kParseFullPrecisionFlag>(path, watch);
}

JsonShape read_json_lines_rapidjson_sax(const std::filesystem::path& path, Stopwatch& watch) {
  rapidjson::Reader reader;
  CountingHandler handler;
  read_rapidjson_lines(path, watch, [&](rapidjson::FileReadStream& stream, JsonShape&) {
    const rapidjson::ParseResult result =
        reader.Parse<rapidjson::kParseStopWhenDoneFlag>(stream, handler);
    if (result.IsError()) rapidjson_failed(result.Code(), result.Offset());
  });
  return handler.shape;
}

JsonFileWrite json_file_writer_rapidjson(const std::string& text) {
  auto document = std::make_shared<rapidjson::Document>();
  document->Parse<rapidjson::kParseFullPrecisionFlag>(text.data(), text.size());
  if (document->HasParseError())
    rapidjson_failed(document->GetParseError(), document->GetErrorOffset());
  return [document](const std::filesystem::path& path) {
    StdioFile file = open_stdio(path, "wb");
    auto buffer = std::make_unique_for_overwrite<char[]>(peer_buffer_size);
    rapidjson::FileWriteStream stream(file.get(), buffer.get(), peer_buffer_size);
    rapidjson::Writer<rapidjson::FileWriteStream> writer(stream);
    if (!document->Accept(writer)) throw ValidationError("RapidJSON: the Writer refused the DOM");
    stream.Flush();
    close_stdio(std::move(file), path);
  };
}
#endif

#ifdef BUFSTREAM_BENCH_HAVE_SIMDJSON
namespace {

void add_shape(simdjson::dom::element v, JsonShape& s) {
  switch (v.type()) {
    case simdjson::dom::element_type::NULL_VALUE: ++s.nulls; break;
    case simdjson::dom::element_type::BOOL: ++s.booleans; break;
    case simdjson::dom::element_type::INT64:
      s.add_number(static_cast<double>(std::int64_t(v)));
      break;
    case simdjson::dom::element_type::UINT64:
      s.add_number(static_cast<double>(std::uint64_t(v)));
      break;
    case simdjson::dom::element_type::DOUBLE: s.add_number(double(v)); break;
    case simdjson::dom::element_type::STRING:
      ++s.strings;
      s.string_bytes += std::string_view(v).size();
      break;
    case simdjson::dom::element_type::ARRAY:
      ++s.arrays;
      for (simdjson::dom::element e : simdjson::dom::array(v)) add_shape(e, s);
      break;
    case simdjson::dom::element_type::OBJECT:
      ++s.objects;
      for (simdjson::dom::key_value_pair member : simdjson::dom::object(v)) {
        ++s.keys;
        s.key_bytes += member.key.size();
        add_shape(member.value, s);
      }
      break;
  }
}

}  // namespace

JsonShape read_json_file_simdjson(const std::filesystem::path& path, Stopwatch& watch) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  const simdjson::error_code error = parser.load(path.string()).get(root);
  watch.stop();
  if (error) throw ValidationError(fmt::format("simdjson: {}", simdjson::error_message(error)));
  JsonShape s;
  add_shape(root, s);
  return s;
}

JsonShape read_small_simdjson(const std::vector<std::string>& documents, Stopwatch& watch) {
  simdjson::dom::parser parser;
  JsonShape s;
  for (const std::string& text : documents) {
    simdjson::dom::element root;
    if (const simdjson::error_code error = parser.parse(text).get(root))
      throw ValidationError(fmt::format("simdjson: {}", simdjson::error_message(error)));
    add_shape(root, s);
  }
  watch.stop();
  return s;
}

JsonShape read_json_lines_simdjson(const std::filesystem::path& path, Stopwatch& watch) {
  simdjson::dom::parser parser;
  simdjson::dom::document_stream documents;
  if (const simdjson::error_code error = parser.load_many(path.string()).get(documents))
    throw ValidationError(fmt::format("simdjson: {}", simdjson::error_message(error)));
  JsonShape s;
  for (auto document : documents) {
    simdjson::dom::element root;
    if (const simdjson::error_code error = document.get(root))
      throw ValidationError(fmt::format("simdjson: {}", simdjson::error_message(error)));
    add_shape(root, s);
  }
  watch.stop();
  return s;
}
#endif

}  // namespace bufstream::bench
