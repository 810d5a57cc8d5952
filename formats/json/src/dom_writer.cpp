// Writing a whole nlohmann::json value. Iterative, with an explicit stack, so that a value of
// any depth is written without deep recursion.
#include <stdexcept>
#include <vector>

#include <nlohmann/json.hpp>

#include <bufstream/json/writer.hpp>

namespace bufstream::json {

Writer& Writer::value(const nlohmann::json& root) {
  using Json = nlohmann::json;
  struct Frame {
    const Json* container;
    Json::const_iterator next;
  };
  std::vector<Frame> stack;
  const Json* v = &root;
  for (;;) {
    switch (v->type()) {
      case Json::value_t::null: null(); break;
      case Json::value_t::boolean: value(v->get<bool>()); break;
      case Json::value_t::number_integer: write_integer(v->get<std::int64_t>()); break;
      case Json::value_t::number_unsigned: write_integer(v->get<std::uint64_t>()); break;
      case Json::value_t::number_float: value(v->get<double>()); break;
      case Json::value_t::string: value(std::string_view(v->get_ref<const std::string&>())); break;
      case Json::value_t::array:
        begin_array();
        stack.push_back({v, v->cbegin()});
        break;
      case Json::value_t::object:
        begin_object();
        stack.push_back({v, v->cbegin()});
        break;
      case Json::value_t::binary:
        throw bufstream::UsageError("json::Writer: JSON has no binary values");
      case Json::value_t::discarded:
        throw bufstream::UsageError("json::Writer: a discarded nlohmann::json value");
    }
    // Find the next value to write, closing every container that has none left.
    for (;;) {
      if (stack.empty()) return *this;
      Frame& top = stack.back();
      if (top.next == top.container->cend()) {
        if (top.container->is_array()) {
          end_array();
        } else {
          end_object();
        }
        stack.pop_back();
        continue;
      }
      if (top.container->is_object()) key(top.next.key());
      v = &*top.next;
      ++top.next;
      break;
    }
  }
}

}  // namespace bufstream::json
