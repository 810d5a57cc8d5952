// bufstream::json: JSON over bufstream's streams, interoperable with nlohmann::json.
//
//     #include <bufstream/json.hpp>
//     namespace json = bufstream::json;
//
//     nlohmann::json doc = json::read(in);              // one document from a ReadStream
//     auto rows = json::read<std::vector<Row>>(in);     // typed, no DOM
//     json::write(out, doc, {.indent = 2});             // any writable value
//
//     json::Document d = json::Document::parse(in);     // immutable, in one arena; fast
//     d.at("/statuses/0/user/name").as_string();
//
// The Writer and Reader classes (writer.hpp, reader.hpp) give finer control: sequences and
// JSON Lines, events, the pull API, streaming writes.
#pragma once

#include <utility>

#include <nlohmann/json.hpp>

#include <bufstream/json/document.hpp>
#include <bufstream/json/events.hpp>
#include <bufstream/json/options.hpp>
#include <bufstream/json/read_json.hpp>
#include <bufstream/json/reader.hpp>
#include <bufstream/json/write_json.hpp>
#include <bufstream/json/writer.hpp>

namespace bufstream::json {

/// Reads the one value `in` holds as T (by default a nlohmann::json DOM); anything but
/// whitespace after it is an error.
template <class T = nlohmann::json>
T read(ReadStream& in, ReadOptions options = {}) {
  Reader reader(in, std::move(options));
  T value = reader.read<T>();
  reader.finish();
  return value;
}

/// Writes `value` as one JSON document and flushes `out`.
template <class T>
void write(WriteStream& out, const T& value, WriteOptions options = {}) {
  Writer writer(out, options);
  writer.value(value);
  writer.finish();
}

}  // namespace bufstream::json
