// json::Reader::parse for a user's handler: the one walk (reader_events.hpp) over a handler
// whose member functions are called through parse()'s table (events.hpp).
#include "reader_events.hpp"

namespace bufstream::json {

namespace {

struct TableHandler {
  void* handler;
  const detail::HandlerCalls& calls;
  void null() { calls.null(handler); }
  void boolean(bool v) { calls.boolean(handler, v); }
  void integer(std::int64_t v) { calls.integer(handler, v); }
  void unsigned_integer(std::uint64_t v) { calls.unsigned_integer(handler, v); }
  void floating(double v) { calls.floating(handler, v); }
  void string(std::string_view s) { calls.string(handler, s); }
  void key(std::string_view s) { calls.key(handler, s); }
  void begin_array() { calls.begin_array(handler); }
  void end_array() { calls.end_array(handler); }
  void begin_object() { calls.begin_object(handler); }
  void end_object() { calls.end_object(handler); }
};

}  // namespace

void Reader::parse_events(void* handler, const detail::HandlerCalls& calls) {
  TableHandler table{handler, calls};
  walk_events(table);
}

}  // namespace bufstream::json
