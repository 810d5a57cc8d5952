// The reader's and writer's access to the inside of values and documents. Internal.
#pragma once

#include <deque>
#include <memory>

#include <bufstream/ston/document.hpp>

namespace bufstream::ston::detail {

struct Access {
  using Data = decltype(Value::data_);
  static Data& data(Value& v) noexcept { return v.data_; }
  static const Data& data(const Value& v) noexcept { return v.data_; }
  static Value of(Node* node) noexcept { return Value(node); }
  static Value pending(std::uint64_t number) noexcept { return Value(PendingReference{number}); }
  static Node* node(const List& l) noexcept { return l.node_; }
  static Node* node(const Map& m) noexcept { return m.node_; }
  static Node* node(const Tagged& t) noexcept { return t.node_; }
  static Node* new_node(Document& doc, std::string_view tag, bool is_map) {
    return doc.new_node(tag, is_map);
  }
  /// The document's containers, in the order they were made.
  static std::deque<Node>& nodes(Document& doc) {
    if (!doc.nodes_) doc.nodes_ = std::make_unique<std::deque<Node>>();  // after a move
    return *doc.nodes_;
  }
  /// Forgets the newest container (the reader turns `Float[#nan]` into a double).
  static void drop_newest_node(Document& doc) { doc.nodes_->pop_back(); }
};

}  // namespace bufstream::ston::detail
