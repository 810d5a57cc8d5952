// A json::Reader::parse handler that only counts its events (for the tests that read without
// looking at what they read).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace bufstream::test {

struct JsonEventCounter {
  std::size_t events = 0;
  void null() { ++events; }
  void boolean(bool) { ++events; }
  void integer(std::int64_t) { ++events; }
  void unsigned_integer(std::uint64_t) { ++events; }
  void floating(double) { ++events; }
  void string(std::string_view) { ++events; }
  void key(std::string_view) { ++events; }
  void begin_array() { ++events; }
  void end_array() { ++events; }
  void begin_object() { ++events; }
  void end_object() { ++events; }
};

}  // namespace bufstream::test
