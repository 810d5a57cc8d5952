// ston::Document: the arena that owns the containers (lists, maps, tagged objects) of STON
// values, and the root value a parse produced (see value.hpp for the value model).
//
//     ston::Document doc;
//     ston::List list = doc.list({1, "two", ston::Symbol{"three"}, 4.5});
//     list.push_back(list);  // now it contains itself: [1,'two',#three,4.5,@1]
//     doc.set_root(list);
#pragma once

#include <cstddef>
#include <deque>
#include <initializer_list>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include <bufstream/ston/value.hpp>

namespace bufstream::ston {

/// Owns containers. Not copyable (containers have identity); movable, and a move keeps every
/// handle and Value valid (the containers themselves do not move).
class Document {
 public:
  Document();
  ~Document();
  /// Takes over `other`'s containers; handles and Values stay valid.
  Document(Document&&) noexcept;
  /// The same, as an assignment.
  Document& operator=(Document&&) noexcept;
  Document(const Document&) = delete;
  Document& operator=(const Document&) = delete;

  /// A new list holding `items`.
  List list(std::initializer_list<Value> items = {});
  /// The same, from a vector.
  List list(std::vector<Value> items);
  /// A new map holding `entries`, in order.
  Map map(std::initializer_list<std::pair<Value, Value>> entries = {});
  /// A tagged object. The tag must be an upper-case ASCII letter followed by letters, digits
  /// and '_' (UsageError otherwise).
  Tagged tagged_list(std::string_view tag, std::initializer_list<Value> items = {});
  /// The same with a map body.
  Tagged tagged_map(std::string_view tag,
                    std::initializer_list<std::pair<Value, Value>> entries = {});

  /// The value a parse produced, or whatever the user stores there.
  const Value& root() const noexcept { return root_; }
  /// The same, to change it in place.
  Value& root() noexcept { return root_; }
  /// Sets the root value.
  void set_root(Value v) { root_ = std::move(v); }

  /// How many containers this Document owns.
  std::size_t container_count() const noexcept;

 private:
  friend struct detail::Access;
  detail::Node* new_node(std::string_view tag, bool is_map);

  std::unique_ptr<std::deque<detail::Node>> nodes_;  // a deque never moves its elements
  Value root_;
};

/// True for an upper-case ASCII letter followed by ASCII letters, digits and '_'.
bool is_valid_tag(std::string_view tag) noexcept;

}  // namespace bufstream::ston
