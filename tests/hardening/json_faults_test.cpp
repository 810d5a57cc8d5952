// Fault injection over every way json::Reader reads: DOM, events, typed values, the pull API
// and JSON Lines sequences (see fault_harness.hpp for what is checked).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <bufstream/json.hpp>

#include "fault_harness.hpp"

namespace bufstream::json {
namespace {

using testing::again_throws;
using testing::check_reader;
using testing::check_repeats;

// Every kind of token, escapes (a surrogate pair among them), UTF-8, both integer ranges'
// ends, exponents, empty containers, whitespace and line ends.
constexpr std::string_view document =
    "{\"name\": \"Ada \\u00e9\\t\\ud83d\\ude00 \xe4\xb8\xad\",\r\n"
    " \"list\": [1, -2, 3.5e2, true, false, null],\n"
    " \"nested\": {\"a\": [[]], \"b\": {}},\n"
    " \"big\": 18446744073709551615, \"neg\": -9223372036854775808, \"f\": 0.1}\n";

std::string read_dom(ReadStream& in) {
  Reader reader(in);
  const nlohmann::json doc = again_throws([&] { return reader.read(); });
  again_throws([&] { reader.finish(); });
  return doc.dump();
}

TEST(JsonFaults, Dom) { check_reader("json::read DOM", document, read_dom); }
TEST(JsonFaults, DomRepeatedAfterIoError) { check_repeats("json::read DOM", document, read_dom); }

struct EventLog {
  std::string log;
  void null() { log += "null "; }
  void boolean(bool b) { log += b ? "true " : "false "; }
  void integer(std::int64_t i) { log += fmt::format("i{} ", i); }
  void unsigned_integer(std::uint64_t u) { log += fmt::format("u{} ", u); }
  void floating(double d) { log += fmt::format("d{} ", d); }
  void string(std::string_view s) { log += fmt::format("s'{}' ", s); }
  void key(std::string_view k) { log += fmt::format("k'{}' ", k); }
  void begin_array() { log += "[ "; }
  void end_array() { log += "] "; }
  void begin_object() { log += "{ "; }
  void end_object() { log += "} "; }
};

std::string read_events(ReadStream& in) {
  Reader reader(in);
  EventLog events;
  again_throws([&] { reader.parse(events); });
  again_throws([&] { reader.finish(); });
  return events.log;
}

TEST(JsonFaults, Events) { check_reader("json::Reader::parse", document, read_events); }
TEST(JsonFaults, EventsRepeatedAfterIoError) {
  check_repeats("json::Reader::parse", document, read_events);
}

std::string read_skip_value(ReadStream& in) {
  Reader reader(in);
  again_throws([&] { reader.skip_value(); });
  again_throws([&] { reader.finish(); });
  return fmt::format("skipped to {}", reader.position().offset);
}

TEST(JsonFaults, SkipValue) { check_reader("json::Reader::skip_value", document, read_skip_value); }
TEST(JsonFaults, SkipValueRepeatedAfterIoError) {
  check_repeats("json::Reader::skip_value", document, read_skip_value);
}

struct Item {
  std::int64_t id = 0;
  std::string name;
  std::vector<double> scores;
  std::map<std::string, bool> tags;
  std::optional<std::string> note;
};
auto json_members(Item& i) {
  return std::make_tuple(member("id", i.id), member("name", i.name), member("scores", i.scores),
                         member("tags", i.tags), member("note", i.note));
}

constexpr std::string_view items =
    "[{\"id\": 1, \"name\": \"Ada\", \"scores\": [1.5, 2], \"tags\": {\"x\": true}, \"skip\": [1, {}]},\n"
    " {\"id\": -2, \"name\": \"\\u00e9\\\"\", \"scores\": [], \"tags\": {}, \"note\": \"n\"}]";

std::string read_typed(ReadStream& in) {
  Reader reader(in);
  const auto rows = again_throws([&] { return reader.read<std::vector<Item>>(); });
  again_throws([&] { reader.finish(); });
  std::string out;
  for (const Item& i : rows) {
    out += fmt::format("{} {} {} {} {};", i.id, i.name, fmt::join(i.scores, ","), i.tags.size(),
                       i.note.value_or("-"));
  }
  return out;
}

TEST(JsonFaults, Typed) {
  check_reader("json::Reader::read<std::vector<Item>>", items, read_typed);
}
TEST(JsonFaults, TypedRepeatedAfterIoError) {
  check_repeats("json::Reader::read<std::vector<Item>>", items, read_typed);
}

std::string read_pull_api(ReadStream& in) {
  Reader reader(in);
  std::string out;
  again_throws([&] { reader.begin_array(); });
  while (again_throws([&] { return reader.next_element(); })) {
    again_throws([&] { reader.begin_object(); });
    while (auto key = again_throws([&] { return reader.next_key(); })) {
      out += std::string(*key) + "=";
      switch (again_throws([&] { return reader.peek(); })) {
        case ValueType::string:
          out += again_throws([&] { return std::string(reader.read_string()); });
          break;
        case ValueType::number:
          out += std::to_string(again_throws([&] { return reader.read_double(); }));
          break;
        default:
          again_throws([&] { reader.skip_value(); });
          out += "?";
          break;
      }
      out += ";";
    }
  }
  again_throws([&] { reader.finish(); });
  return out;
}

TEST(JsonFaults, PullApi) { check_reader("json::Reader pull API", items, read_pull_api); }
TEST(JsonFaults, PullApiRepeatedAfterIoError) {
  check_repeats("json::Reader pull API", items, read_pull_api);
}

TEST(JsonFaults, JsonLinesSequence) {
  constexpr std::string_view lines = "{\"a\":1}\n[true,\"x\"]\n\"s\"\n-0.5\nnull\n";
  check_reader("json::Reader sequence", lines, [](ReadStream& in) {
    Reader reader(in);
    std::string out;
    while (!again_throws([&] { return reader.at_end(); })) {
      out += again_throws([&] { return reader.read(); }).dump() + "\n";
    }
    return out;
  });
}

}  // namespace
}  // namespace bufstream::json
