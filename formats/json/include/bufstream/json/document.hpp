// json::Document: an immutable JSON document read from any ReadStream, its values in one arena
// (16-byte nodes in document order, and the bytes of decoded strings, in one block), and
// json::Value, a cheap handle to one of its values.
//
//     json::Document doc = json::Document::parse(in);
//     std::string_view name = doc.at("/statuses/0/user/name").as_string();
//     for (json::Value status : doc.root()["statuses"].elements())
//       total += status["retweet_count"].as_int64();
//
// Numbers are kept exactly as the reader reads them: int64 (negative integers), uint64 (the
// others), correctly rounded doubles; "-0" is the double -0.0. Duplicate keys are kept in
// order; look-ups find the last, as nlohmann::json does. A value used as the wrong type, a
// missing key or an index past the end is an AccessError naming the value's JSON Pointer.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include <nlohmann/json_fwd.hpp>

#include <bufstream/errors.hpp>
#include <bufstream/json/options.hpp>
#include <bufstream/read_stream.hpp>

namespace bufstream::json {

class Reader;

/// Deprecated: a Value used as the wrong type, a number that does not fit, a missing member or
/// an index past the end throws bufstream::AccessError (naming the value by its JSON Pointer,
/// RFC 6901), as every format's values do.
using AccessError [[deprecated("use bufstream::AccessError")]] = bufstream::AccessError;

/// The type of a json::Value: the JSON types, with numbers as the reader reads them.
enum class Type : std::uint8_t { null, boolean, int64, uint64, floating, string, array, object };

/// "null", "boolean", "int64", "uint64", "double", "string", "array", "object".
std::string_view type_name(Type type) noexcept;

namespace detail {
// One value: a scalar, a string (its bytes in the document's text or in its values' block), or
// the start of a container, whose elements follow it (an object's as key, value, key, value...).
struct DocumentNode {
  Type type;
  bool boolean;           // boolean: its value;
                          // string: read without escapes, so a view of the text whose
                          // bytes need none (UTF-8); else its bytes are in the values' block
  std::uint32_t count;    // string: its length; container: its elements or members
  std::uint64_t payload;  // int64/uint64/double bits; string: offset; container: end node
};

// A document's values in one block: its nodes from the front, in document order, and from the
// back the bytes of the strings that are not views of its text (decoded from escapes, or given
// by a conversion). One block, not a vector and a string: glibc's free gives the heap back to
// the system when the blocks freed together reach twice the largest one, and a document parsed
// in a loop then faults all its memory in again at each parse (see Document::parse).
class DocumentValues {
 public:
  DocumentValues() = default;
  DocumentValues(const DocumentValues&) = delete;  // a document's, which owns it by pointer
  DocumentValues& operator=(const DocumentValues&) = delete;
  ~DocumentValues() = default;

  std::size_t size() const noexcept { return size_; }
  const DocumentNode& operator[](std::size_t i) const noexcept { return block_[i]; }
  DocumentNode& operator[](std::size_t i) noexcept { return block_[i]; }
  void push_back(const DocumentNode& node) {
    if (size_ == node_room_) [[unlikely]]
      grow(1, 0);
    block_[size_++] = node;
  }
  /// Room for `nodes` nodes in all, besides the strings already in.
  void reserve(std::size_t nodes);
  /// For a parser that writes its nodes itself: room for `nodes` more nodes, and where the
  /// next one goes (the first of the block is `data()`). The nodes written count once
  /// `set_end` says where they end.
  DocumentNode* room_for(std::size_t nodes) {
    if (node_room_ - size_ < nodes) grow(nodes, 0);
    return block_.get() + size_;
  }
  DocumentNode* data() noexcept { return block_.get(); }
  void set_end(const DocumentNode* end) noexcept {
    size_ = static_cast<std::size_t>(end - block_.get());
  }

  /// Copies `s` (not in this block) in; returns its offset for string().
  std::uint64_t append_string(std::string_view s);
  std::string_view string(std::uint64_t offset, std::size_t size) const noexcept {
    return {end() - offset, size};
  }
  std::size_t string_bytes() const noexcept { return string_bytes_; }
  /// The block's bytes.
  std::size_t capacity_bytes() const noexcept { return capacity_ * node_bytes; }
  /// No nodes and no strings; the block stays, for the next document's.
  void clear() noexcept {
    size_ = 0;
    string_bytes_ = 0;
    node_room_ = capacity_;
  }

 private:
  static constexpr std::size_t node_bytes = sizeof(DocumentNode);
  // The node-sized units that `bytes` of strings take.
  static constexpr std::size_t units_for(std::size_t bytes) noexcept {
    return (bytes + node_bytes - 1) / node_bytes;
  }
  const char* end() const noexcept {
    return reinterpret_cast<const char*>(block_.get() + capacity_);
  }
  // Moves to a block with room for `nodes` more nodes and `bytes` more string bytes.
  void grow(std::size_t nodes, std::size_t bytes);

  std::unique_ptr<DocumentNode[]> block_;
  std::size_t capacity_ = 0;      // in nodes
  std::size_t size_ = 0;          // nodes
  std::size_t node_room_ = 0;     // capacity_ - units_for(string_bytes_), for push_back
  std::size_t string_bytes_ = 0;  // at the block's end
};

struct DocumentData {
  DocumentValues values;
  ReadStream::Block text;  // the JSON text the document was parsed from, if any
};
// A string node's bytes.
inline std::string_view string_of(const DocumentData& d, const DocumentNode& n) noexcept {
  return n.boolean ? d.text.view().substr(n.payload, n.count) : d.values.string(n.payload, n.count);
}
// The node after child `i` of a container and all it holds (after its value, for a member).
std::size_t next_child(const DocumentData& d, std::size_t i, bool member) noexcept;
}  // namespace detail

class Value;
struct KeyValue;

/// The children of a container in document order: an array's elements (`Item` = Value) or an
/// object's members (`Item` = KeyValue; duplicates included).
template <class Item>
class Children {
 public:
  /// A forward iterator over the children.
  class iterator {
   public:
    /// @{
    /// The standard iterator types.
    using iterator_category = std::forward_iterator_tag;
    using value_type = Item;
    using difference_type = std::ptrdiff_t;
    /// @}
    iterator() = default;
    /// The child: a Value, or a KeyValue.
    Item operator*() const;
    /// Moves to the next child.
    iterator& operator++() noexcept {
      i_ = detail::next_child(*d_, i_, std::is_same_v<Item, KeyValue>);
      return *this;
    }
    /// Moves to the next child and returns where it was.
    iterator operator++(int) noexcept {
      iterator old = *this;
      ++*this;
      return old;
    }
    /// True if both point at the same child.
    friend bool operator==(const iterator& a, const iterator& b) noexcept { return a.i_ == b.i_; }

   private:
    friend class Children;
    iterator(const detail::DocumentData* d, std::size_t i) noexcept : d_(d), i_(i) {}
    const detail::DocumentData* d_ = nullptr;
    std::size_t i_ = 0;  // the child's node (a member's key node)
  };
  /// The first child's position.
  iterator begin() const noexcept { return {d_, first_}; }
  /// The position after the last child.
  iterator end() const noexcept { return {d_, end_}; }

 private:
  friend class Value;
  Children(const detail::DocumentData* d, std::size_t first, std::size_t end) noexcept
      : d_(d), first_(first), end_(end) {}
  const detail::DocumentData* d_;
  std::size_t first_;
  std::size_t end_;
};
/// An array's elements.
using Elements = Children<Value>;
/// An object's members.
using Members = Children<KeyValue>;

/// A value of a Document: a handle (two words), valid while the Document lives (a move of the
/// Document keeps it valid).
class Value {
 public:
  /// The value's type.
  Type type() const noexcept { return node().type; }
  /// True if the value is `null`.
  bool is_null() const noexcept { return type() == Type::null; }
  /// True if the value is a number (int64, uint64 or floating).
  bool is_number() const noexcept {
    return type() == Type::int64 || type() == Type::uint64 || type() == Type::floating;
  }

  /// The boolean; AccessError if the value is not one.
  bool as_bool() const;
  /// An int64, or a uint64 up to 2^63 - 1.
  std::int64_t as_int64() const;
  /// A uint64, or a non-negative int64.
  std::uint64_t as_uint64() const;
  /// Any number (an integer converted to the nearest double).
  double as_double() const;
  /// A view of the string's bytes in the document (valid while it lives).
  std::string_view as_string() const;

  /// Elements of an array or members of an object.
  std::size_t size() const;
  /// An array's elements; AccessError if the value is not an array.
  Elements elements() const;
  /// An object's members (duplicates included); AccessError if the value is not an object.
  Members members() const;
  /// The member named `key` (the last one, if the key is repeated); nullopt if absent.
  /// AccessError if this is not an object.
  std::optional<Value> find(std::string_view key) const;
  /// The member named `key`; AccessError if absent.
  Value operator[](std::string_view key) const;
  /// The same, for a C string.
  Value operator[](const char* key) const { return (*this)[std::string_view(key)]; }
  /// The element at `index`; AccessError if past the end (or negative).
  Value element(std::size_t index) const;
  /// The element at `index`, an integer of any type; AccessError if past the end or negative.
  template <std::integral I>
  requires(!std::same_as<I, bool>) Value operator[](I index) const {
    if constexpr (std::is_signed_v<I>) {
      if (index < 0) return element(static_cast<std::size_t>(-1));
    }
    return element(static_cast<std::size_t>(index));
  }
  /// The value at a JSON Pointer (RFC 6901) relative to this one: "" is this value,
  /// "/a/0/b~1c" the member "b/c" of the first element of member "a". UsageError
  /// for a malformed pointer, AccessError for a path that is not in the document.
  Value at(std::string_view pointer) const;

  /// This value's JSON Pointer from the document's root ("" for the root).
  std::string pointer() const;

 private:
  friend class Document;
  template <class>
  friend class Children;
  friend class Writer;  // writes the nodes in order
  Value(const detail::DocumentData* d, std::size_t i) noexcept : d_(d), i_(i) {}
  const detail::DocumentNode& node() const noexcept { return d_->values[i_]; }
  [[noreturn]] void wrong_type(std::string_view wanted) const;
  void expect(Type type, std::string_view wanted) const;

  const detail::DocumentData* d_;
  std::size_t i_;
};

/// An object's member: its key and its value.
struct KeyValue {
  std::string_view key;  ///< The key (valid while the document lives).
  Value value;           ///< The value.
};

/// An immutable JSON document, its values in one arena: json::Value handles look into it (see
/// the file comment).
class Document {
 public:
  /// Reads one JSON value from `in` (strict RFC 8259; anything but whitespace after it is a
  /// ParseError, with line, column and byte offset). The rest of the stream is read into the
  /// document, in one read when the stream knows its size, and parsed there: the strings
  /// without escapes are views of that text, the others are decoded apart.
  static Document parse(ReadStream& in, ReadOptions options = {});
  /// The same from bytes in memory.
  static Document parse(std::string_view text, ReadOptions options = {});
  /// Reads the next value of `reader`'s sequence (JSON Lines, concatenated values), as
  /// `reader.read()` does into an nlohmann::json: `while (!reader.at_end())
  /// use(Document::parse_next(reader));` keeps one value in memory at a time.
  static Document parse_next(Reader& reader);
  /// A Document holding the same value as `value`.
  static Document from_nlohmann(const nlohmann::json& value);

  /// Takes over `other`'s values; handles into them stay valid.
  Document(Document&&) noexcept = default;
  /// The same, as an assignment.
  Document& operator=(Document&&) noexcept = default;
  ~Document();

  /// The document's value.
  Value root() const noexcept { return {data_.get(), 0}; }
  /// root().at(pointer).
  Value at(std::string_view pointer) const { return root().at(pointer); }

  /// Nodes (one per value and per key) and bytes of text held (what was parsed, and the
  /// strings with escapes decoded), for memory accounting.
  std::size_t node_count() const noexcept { return data_->values.size(); }
  /// Bytes of text held: the parsed text, and the strings with escapes decoded.
  std::size_t text_bytes() const noexcept {
    return data_->text.size + data_->values.string_bytes();
  }

 private:
  Document();
  // Parses the text of `doc` (read from stream offset `start`), padded behind its end.
  static Document parse_text(Document doc, std::uint64_t start, ReadOptions options);
  std::unique_ptr<detail::DocumentData> data_;
};

namespace detail {
/// Throws the AccessError of a typed read of `value` (json::read<T>(Value)) that failed.
[[noreturn]] void throw_typed_read_error(const Value& value, const ParseError& error);
}  // namespace detail

/// The value as an nlohmann::json (duplicate keys: the last wins, as nlohmann's parse does).
nlohmann::json to_nlohmann(Value value);

/// An element is a Value.
template <>
inline Value Children<Value>::iterator::operator*() const {
  return {d_, i_};
}
/// A member is a KeyValue.
template <>
inline KeyValue Children<KeyValue>::iterator::operator*() const {
  return {detail::string_of(*d_, d_->values[i_]), Value(d_, i_ + 1)};
}

}  // namespace bufstream::json
