// Reading into a nlohmann::json DOM: an event handler that builds the value bottom-up.
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <bufstream/json/events.hpp>
#include <bufstream/json/read_json.hpp>

namespace bufstream::json {

namespace {

// Builds the value bottom-up, as a SAX-to-DOM builder does: an array's elements gather on a
// scratch stack and become the array, allocated once at its exact size, when it closes (no
// growth by doubling, no moves of the elements while they gather); an object is filled member
// by member in its frame (a member stays where the map put it, so `member` stays valid while
// frames move) and placed in its parent when it closes. The root is assigned last.
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
    Frame& f = frames_.back();
    f.member = &f.object.get_ref<nlohmann::json::object_t&>()[std::string(k)];
  }
  void begin_array() { frames_.push_back({nlohmann::json(), nullptr, elements_.size()}); }
  void begin_object() { frames_.push_back({nlohmann::json::object(), nullptr, 0}); }
  void end_array() {
    const auto first = elements_.begin() + static_cast<std::ptrdiff_t>(frames_.back().first);
    nlohmann::json array(nlohmann::json::array_t(std::make_move_iterator(first),
                                                 std::make_move_iterator(elements_.end())));
    elements_.erase(first, elements_.end());
    frames_.pop_back();
    place(std::move(array));
  }
  void end_object() {
    nlohmann::json object = std::move(frames_.back().object);
    frames_.pop_back();
    place(std::move(object));
  }

 private:
  // An open container: an object (its value, the member the next value goes to) or an array
  // (null `object`; its elements are elements_[first, end)).
  struct Frame {
    nlohmann::json object;
    nlohmann::json* member;
    std::size_t first;
  };

  // Constructs the value where it belongs (no temporary json to move in the common case).
  template <class T>
  void place(T&& value) {
    if (frames_.empty()) [[unlikely]] {
      root_ = std::forward<T>(value);
      return;
    }
    Frame& f = frames_.back();
    if (f.member == nullptr) {
      elements_.emplace_back(std::forward<T>(value));
      return;
    }
    *f.member = std::forward<T>(value);
  }

  nlohmann::json& root_;
  std::vector<Frame> frames_;
  std::vector<nlohmann::json> elements_;
};

}  // namespace

void read_json(Reader& r, nlohmann::json& v) {
  v = nullptr;
  DomBuilder builder(v);
  r.parse(builder);
}

}  // namespace bufstream::json
