#include "suites/json_peers.hpp"

#include <cstdio>
#include <fstream>
#include <memory>
#include <system_error>

#include <fmt/format.h>

#ifdef BUFSTREAM_BENCH_HAVE_RAPIDJSON
#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/filereadstream.h>
#include <rapidjson/filewritestream.h>
#include <rapidjson/writer.h>
#endif
#ifdef BUFSTREAM_BENCH_HAVE_SIMDJSON
#include <simdjson.h>
#endif

#include "harness/file_utils.hpp"
#include "harness/results.hpp"

namespace bufstream::bench {
namespace {

constexpr std::size_t peer_buffer_size = 65536;

[[noreturn]] void bad_shape(std::size_t row) {
  throw ValidationError(
      fmt::format("row {} is not an array of two integers, two numbers and a string", row));
}

}  // namespace

nlohmann::json rows_to_dom(const DataSet& set) {
  nlohmann::json rows = nlohmann::json::array();
  for (const Row& row : set.rows) {
    nlohmann::json item = nlohmann::json::array();
    item.push_back(row.i);
    item.push_back(row.minus_i);
    if (set.integral()) {
      item.push_back(static_cast<std::int64_t>(row.x));
      item.push_back(static_cast<std::int64_t>(row.y));
    } else {
      item.push_back(row.x);
      item.push_back(row.y);
    }
    item.push_back(row.words);
    rows.push_back(std::move(item));
  }
  return rows;
}

Checksum checksum_of(const nlohmann::json& rows) {
  if (!rows.is_array()) throw ValidationError("the document is not an array");
  RowChecksum sum;
  std::size_t n = 0;
  for (const nlohmann::json& row : rows) {
    if (!row.is_array() || row.size() != 5 || !row[0].is_number_integer() ||
        !row[1].is_number_integer() || !row[2].is_number() || !row[3].is_number() ||
        !row[4].is_string()) {
      bad_shape(n);
    }
    sum.add(row[0].get<std::int64_t>(), row[1].get<std::int64_t>(), row[2].get<double>(),
            row[3].get<double>(), row[4].get_ref<const std::string&>());
    ++n;
  }
  return sum.result();
}

void write_json_nlohmann(const DataSet& set, const std::filesystem::path& path) {
  const nlohmann::json rows = rows_to_dom(set);
  std::ofstream out(path, std::ios::binary);
  if (!out) io_failed("open", path);
  out << rows;
  out.close();
  if (!out) io_failed("write", path);
}

Checksum read_json_nlohmann(const std::filesystem::path& path, Stopwatch& watch) {
  std::ifstream in(path, std::ios::binary);
  if (!in) io_failed("open", path);
  const nlohmann::json rows = nlohmann::json::parse(in);
  watch.stop();
  return checksum_of(rows);
}

#ifdef BUFSTREAM_BENCH_HAVE_RAPIDJSON
void write_json_rapidjson(const DataSet& set, const std::filesystem::path& path) {
  StdioFile file = open_stdio(path, "wb");
  auto buffer = std::make_unique_for_overwrite<char[]>(peer_buffer_size);
  rapidjson::FileWriteStream stream(file.get(), buffer.get(), peer_buffer_size);
  rapidjson::Writer<rapidjson::FileWriteStream> writer(stream);
  writer.StartArray();
  for (const Row& row : set.rows) {
    writer.StartArray();
    writer.Int64(row.i);
    writer.Int64(row.minus_i);
    if (set.integral()) {
      writer.Int64(static_cast<std::int64_t>(row.x));
      writer.Int64(static_cast<std::int64_t>(row.y));
    } else {
      writer.Double(row.x);
      writer.Double(row.y);
    }
    writer.String(row.words.data(), static_cast<rapidjson::SizeType>(row.words.size()));
    writer.EndArray();
  }
  writer.EndArray();
  stream.Flush();
  close_stdio(std::move(file), path);
}

Checksum read_json_rapidjson(const std::filesystem::path& path, Stopwatch& watch) {
  StdioFile file = open_stdio(path, "rb");
  auto buffer = std::make_unique_for_overwrite<char[]>(peer_buffer_size);
  rapidjson::FileReadStream stream(file.get(), buffer.get(), peer_buffer_size);
  rapidjson::Document doc;
  doc.ParseStream(stream);
  watch.stop();
  if (doc.HasParseError()) {
    throw ValidationError(fmt::format("RapidJSON: {} at byte {}",
                                      rapidjson::GetParseError_En(doc.GetParseError()),
                                      doc.GetErrorOffset()));
  }
  if (!doc.IsArray()) throw ValidationError("the document is not an array");
  RowChecksum sum;
  std::size_t n = 0;
  for (const auto& row : doc.GetArray()) {
    if (!row.IsArray() || row.Size() != 5 || !row[0].IsInt64() || !row[1].IsInt64() ||
        !row[2].IsNumber() || !row[3].IsNumber() || !row[4].IsString()) {
      bad_shape(n);
    }
    sum.add(row[0].GetInt64(), row[1].GetInt64(), row[2].GetDouble(), row[3].GetDouble(),
            {row[4].GetString(), row[4].GetStringLength()});
    ++n;
  }
  return sum.result();
}
#endif

#ifdef BUFSTREAM_BENCH_HAVE_SIMDJSON
Checksum read_json_simdjson(const std::filesystem::path& path, Stopwatch& watch) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.load(path.string());  // throws simdjson_error
  watch.stop();
  simdjson::dom::array rows;
  if (doc.get_array().get(rows) != simdjson::SUCCESS)
    throw ValidationError("the document is not an array");
  RowChecksum sum;
  std::size_t n = 0;
  for (simdjson::dom::element element : rows) {
    simdjson::dom::array row;
    if (element.get_array().get(row) != simdjson::SUCCESS || row.size() != 5) bad_shape(n);
    std::int64_t fields[2];
    double numbers[2];
    std::string_view words;
    auto it = row.begin();
    for (auto& field : fields) {
      if ((*it).get_int64().get(field) != simdjson::SUCCESS) bad_shape(n);
      ++it;
    }
    for (auto& number : numbers) {
      if ((*it).get_double().get(number) != simdjson::SUCCESS) bad_shape(n);
      ++it;
    }
    if ((*it).get_string().get(words) != simdjson::SUCCESS) bad_shape(n);
    sum.add(fields[0], fields[1], numbers[0], numbers[1], words);
    ++n;
  }
  return sum.result();
}
#endif

}  // namespace bufstream::bench
