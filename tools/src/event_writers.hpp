// json::Reader events turned into output: the same events drive a JSON writer (fmt, json to
// jsonl: json::EventWriter) or a STON writer (json to ston: StonEventWriter), so a document
// streams through in constant memory.
#pragma once

#include <cstdint>
#include <string_view>

#include <bufstream/json/reader.hpp>
#include <bufstream/json/writer.hpp>
#include <bufstream/ston/writer.hpp>

namespace bufstream::cli {

/// JSON to STON: arrays become lists, objects maps with string keys (`'key'`), null nil.
class StonEventWriter {
 public:
  explicit StonEventWriter(ston::Writer& out) : out_(out) {}
  void null() { out_.value(nullptr); }
  void boolean(bool b) { out_.value(b); }
  void integer(std::int64_t i) { out_.value(i); }
  void unsigned_integer(std::uint64_t u) { out_.value(u); }
  void floating(double d) { out_.value(d); }
  void string(std::string_view s) { out_.value(s); }
  void key(std::string_view k) { out_.value(k); }
  void begin_array() { out_.begin_list(); }
  void end_array() { out_.end_list(); }
  void begin_object() { out_.begin_map(); }
  void end_object() { out_.end_map(); }

 private:
  ston::Writer& out_;
};

/// Copies the next value of `reader` into `events`: a top-level array one element at a time,
/// with `end_element()` after each (the units `--flush-each` flushes), any other value whole,
/// followed by `end_element()` too.
template <class Events, class EndElement>
void copy_by_elements(json::Reader& reader, Events& events, EndElement end_element) {
  if (reader.peek() != json::ValueType::array) {
    reader.parse(events);
    end_element();
    return;
  }
  reader.begin_array();
  events.begin_array();
  while (reader.next_element()) {
    reader.parse(events);
    end_element();
  }
  events.end_array();
}

}  // namespace bufstream::cli
