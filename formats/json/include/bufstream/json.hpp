/// \namespace bufstream::json
/// bufstream::json: JSON over bufstream's streams, interoperable with nlohmann::json.
///
///     #include <bufstream/json.hpp>
///     namespace json = bufstream::json;
///
///     nlohmann::json doc = json::read(in);              // one document from a ReadStream
///     auto rows = json::read<std::vector<Row>>(in);     // typed, no DOM
///     json::write(out, doc, {.indent = 2});             // any writable value
///
///     json::Document d = json::Document::parse(in);     // immutable, in one arena; fast
///     d.at("/statuses/0/user/name").as_string();
///     auto user = json::read<User>(d.at("/statuses/0/user"));  // typed, as from text
///
/// The Writer and Reader classes (writer.hpp, reader.hpp) give finer control: sequences and
/// JSON Lines, events, the pull API, streaming writes.
#pragma once

#include <utility>

#include <nlohmann/json.hpp>

#include <bufstream/json/document.hpp>
#include <bufstream/json/events.hpp>
#include <bufstream/json/options.hpp>
#include <bufstream/json/parallel.hpp>
#include <bufstream/json/read_json.hpp>
#include <bufstream/json/reader.hpp>
#include <bufstream/json/select.hpp>
#include <bufstream/json/write_json.hpp>
#include <bufstream/json/writer.hpp>
#include <bufstream/memory_read_stream.hpp>
#include <bufstream/string_write_stream.hpp>

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

/// Reads a value of a json::Document as T, the way json::read reads T from text (standard
/// types, json_fields, json_members, read_json overloads): the value is written compactly and
/// read back. A value that does not fit T is an AccessError naming its JSON Pointer.
template <class T>
T read(Value value) {
  StringWriteStream text;
  {
    Writer writer(text);
    writer.value(value);
    writer.finish();
  }
  MemoryReadStream in(text.view());
  try {
    return read<T>(in);
  } catch (const ParseError& e) {
    detail::throw_typed_read_error(value, e);
  }
}

/// Writes `value` as one JSON document and flushes `out`.
template <class T>
void write(WriteStream& out, const T& value, WriteOptions options = {}) {
  Writer writer(out, options);
  writer.value(value);
  writer.finish();
}

}  // namespace bufstream::json
