// Reading into a nlohmann::json DOM: an event handler that builds the value in place.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <bufstream/json/events.hpp>
#include <bufstream/json/read_json.hpp>

namespace bufstream::json {

namespace {

// Places each value where it belongs: the root, the end of the innermost open array, or the
// member named by the last key of the innermost open object (replacing an earlier member of
// the same name: last wins). Pointers into the DOM stay valid because a container is only
// appended to after the element last pushed onto `open_` has been closed.
class DomBuilder {
 public:
  explicit DomBuilder(nlohmann::json& root) : root_(root) {}

  void null() { place(nullptr); }
  void boolean(bool b) { place(b); }
  void integer(std::int64_t i) { place(i); }
  void unsigned_integer(std::uint64_t u) { place(u); }
  void floating(double d) { place(d); }
  void string(std::string_view s) { place(s); }
  void key(std::string_view k) {
    member_ = &open_.back()->get_ref<nlohmann::json::object_t&>()[std::string(k)];
  }
  void begin_array() { open_.push_back(&place(nlohmann::json::array())); }
  void begin_object() { open_.push_back(&place(nlohmann::json::object())); }
  void end_array() { open_.pop_back(); }
  void end_object() { open_.pop_back(); }

 private:
  // Constructs the value where it belongs (no temporary json to move in the common case).
  template <class T>
  nlohmann::json& place(T&& value) {
    if (open_.empty()) [[unlikely]]
      return root_ = std::forward<T>(value);
    nlohmann::json& container = *open_.back();
    if (container.is_array()) {
      return container.get_ref<nlohmann::json::array_t&>().emplace_back(std::forward<T>(value));
    }
    return *member_ = std::forward<T>(value);
  }

  nlohmann::json& root_;
  std::vector<nlohmann::json*> open_;
  nlohmann::json* member_ = nullptr;
};

}  // namespace

void read_json(Reader& r, nlohmann::json& v) {
  v = nullptr;
  DomBuilder builder(v);
  r.parse(builder);
}

}  // namespace bufstream::json
