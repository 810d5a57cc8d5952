// The STON value model: everything a STON text can hold, as C++ values.
//
// Primitives (nil, booleans, exact integers, floats, fractions, scaled decimals, strings,
// symbols) and associations are held by value inside `Value`. Containers (lists, maps and
// tagged objects) have identity: STON can share them and make them cyclic (`[1,@1]` is a list
// that contains itself). They therefore live in a `Document`, an arena that owns every container
// made in it; a `Value` only points at a container, so a cycle is just two pointers and never
// leaks: destroying the Document frees everything at once.
//
// The numbers are in numbers.hpp, the Document in document.hpp.
//
// Contract: a Value that refers to a container is valid as long as the Document that owns the
// container lives. A container may hold containers of another Document; keep both alive.
#pragma once

#include <compare>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <bufstream/errors.hpp>
#include <bufstream/format_options.hpp>
#include <bufstream/ston/numbers.hpp>

namespace bufstream::ston {

/// Deprecated: the default nesting limit of ReadOptions::max_depth and WriteOptions::max_depth
/// is every format's, bufstream::default_max_depth (512; it was 1000).
[[deprecated("use bufstream::default_max_depth")]] inline constexpr std::size_t default_max_depth =
    bufstream::default_max_depth;

/// Deprecated: a Value used as the wrong kind (`as_string()` on an integer), a conversion that
/// does not fit (`as_int64()` on 2^70), a missing key or index throws bufstream::AccessError,
/// as every format's values do.
using TypeError [[deprecated("use bufstream::AccessError")]] = bufstream::AccessError;

/// The kind of a STON value.
enum class Kind : std::uint8_t {
  nil,
  boolean,
  integer,         ///< Any size; see Integer.
  floating,        ///< A double, including NaN and the infinities (written as `Float[#nan]` ...).
  fraction,        ///< Reduced, denominator >= 2.
  scaled_decimal,  ///< A fraction with a scale: 1/3s2.
  string,
  symbol,
  list,
  map,
  association,  ///< key : value
  tagged,       ///< Tag[...] or Tag{...}
};

/// "integer", "tagged object", ...: for messages.
std::string_view kind_name(Kind kind) noexcept;

/// A Smalltalk symbol (`#foo`), as distinct from a string (``'foo'``).
struct Symbol {
  std::string name;  ///< The symbol's name, without the `#`.
  /// Equal when the names are.
  friend bool operator==(const Symbol&, const Symbol&) = default;
};

class Value;
class Association;
class List;
class Map;
class Tagged;
class Document;

namespace detail {
struct Node;
struct Access;  // the reader's and writer's way in (src/access.hpp)

/// Owns one T on the heap and copies it deeply: keeps rare, large alternatives out of Value's
/// inline storage.
template <class T>
class Box {
 public:
  explicit Box(T value);
  Box(const Box& other);
  Box(Box&&) noexcept = default;
  Box& operator=(const Box& other);
  Box& operator=(Box&&) noexcept = default;
  ~Box();
  T& operator*() const noexcept { return *p_; }
  T* operator->() const noexcept { return p_.get(); }

 private:
  std::unique_ptr<T> p_;
};

/// An association's value may be an association again, as deep as ReadOptions::max_depth allows
/// (`1:2:3:...`): copying and destroying one follows that chain in a loop, not by recursion.
/// (A chain through keys, `(a:b):c`, can only be built in C++; it is copied and destroyed
/// recursively, and the writer refuses it.)
template <>
Box<Association>::Box(const Box& other);
template <>
Box<Association>& Box<Association>::operator=(const Box& other);
template <>
Box<Association>::~Box();

/// A reference `@N` that the reader has not resolved yet; never visible outside the reader.
struct PendingReference {
  std::uint64_t number;
};
}  // namespace detail

/// One STON value. Copying copies primitives and associations and shares containers (the copy
/// refers to the same list). `==` compares structure, including sharing: see `operator==`.
class Value {
 public:
  Value() noexcept = default;  // nil
  /// Copies primitives and associations, and shares containers.
  Value(const Value&) = default;
  /// Takes over `other`'s value; `other` is left valid.
  Value(Value&&) noexcept = default;
  ~Value() = default;
  /// Assignment from a part of the value itself (`v = v.as_association().value()`) is safe.
  Value& operator=(const Value& other) {
    Value copy(other);
    data_ = std::move(copy.data_);
    return *this;
  }
  /// The same as the copy assignment, for a value given up.
  Value& operator=(Value&& other) noexcept {
    Value taken(std::move(other));
    data_ = std::move(taken.data_);
    return *this;
  }
  /// @{
  /// A value of the argument's kind: `nullptr` is nil, a `const char*` or string_view a string.
  /// (Implicit, so that a Value can be written as the value it holds.)
  Value(std::nullptr_t) noexcept {}     // NOLINT: nil
  Value(bool b) noexcept : data_(b) {}  // NOLINT
  template <std::integral T>
  requires(!std::same_as<T, bool> && !std::same_as<T, char>) Value(T i) {  // NOLINT
    if constexpr (std::is_unsigned_v<T> && sizeof(T) >= sizeof(std::int64_t)) {
      if (i > static_cast<T>(INT64_MAX)) {
        data_ = detail::Box<Integer>(Integer(i));
        return;
      }
    }
    data_ = static_cast<std::int64_t>(i);
  }
  Value(Integer i);                                       // NOLINT
  Value(double d) noexcept : data_(d) {}                  // NOLINT
  Value(std::string s) noexcept : data_(std::move(s)) {}  // NOLINT
  Value(std::string_view s) : data_(std::string(s)) {}    // NOLINT
  Value(const char* s) : data_(std::string(s)) {}         // NOLINT
  Value(Symbol s) noexcept : data_(std::move(s)) {}       // NOLINT
  Value(Association a);                                   // NOLINT
  Value(List list) noexcept;                              // NOLINT
  Value(Map map) noexcept;                                // NOLINT
  Value(Tagged tagged) noexcept;                          // NOLINT

  /// @}
  /// numerator / denominator, reduced; an Integer when the result is whole. Throws
  /// UsageError for a zero denominator.
  static Value fraction(const Integer& numerator, const Integer& denominator);
  /// A ScaledDecimal (the fraction is reduced but stays a ScaledDecimal even when whole).
  static Value scaled_decimal(const Integer& numerator, const Integer& denominator,
                              std::uint32_t scale);

  /// The value's kind.
  Kind kind() const noexcept;
  /// @{
  /// True if the value is of that kind (numbers: of any number kind).
  bool is_nil() const noexcept { return kind() == Kind::nil; }
  bool is_bool() const noexcept { return kind() == Kind::boolean; }
  bool is_integer() const noexcept { return kind() == Kind::integer; }
  bool is_float() const noexcept { return kind() == Kind::floating; }
  bool is_number() const noexcept;
  bool is_string() const noexcept { return kind() == Kind::string; }
  bool is_symbol() const noexcept { return kind() == Kind::symbol; }
  bool is_list() const noexcept { return kind() == Kind::list; }
  bool is_map() const noexcept { return kind() == Kind::map; }
  bool is_association() const noexcept { return kind() == Kind::association; }
  bool is_tagged() const noexcept { return kind() == Kind::tagged; }
  /// @}
  /// Lists, maps and tagged objects: the values with identity.
  bool is_container() const noexcept;

  // Accessors throw AccessError when the value is of another kind.
  /// The boolean.
  bool as_bool() const;
  /// An integer that fits in 64 bits.
  std::int64_t as_int64() const;
  /// An integer of any size.
  Integer as_integer() const;
  /// The double of any number kind (integer, float, fraction, scaled decimal).
  double as_double() const;
  /// A fraction.
  const Fraction& as_fraction() const;
  /// A scaled decimal.
  const ScaledDecimal& as_scaled_decimal() const;
  /// A string's text.
  const std::string& as_string() const;
  /// The name of a symbol.
  const std::string& as_symbol() const;
  /// The text of a string or a symbol.
  const std::string& text() const;
  /// An association.
  const Association& as_association() const;
  /// The same, to change it in place.
  Association& as_association();
  /// A list (the value refers to it).
  List as_list() const;
  /// A map (the value refers to it).
  Map as_map() const;
  /// A tagged object (the value refers to it).
  Tagged as_tagged() const;
  /// A tagged object with the given tag; the AccessError names both tags otherwise.
  Tagged as_tagged(std::string_view tag) const;

  /// True when both refer to the same container (identity, not structure).
  bool same_object(const Value& other) const noexcept;

  /// Structural equality over the whole graph. Numbers are equal only within one kind
  /// (1 != 1.0 != 1/1s0); doubles compare by value except that NaN equals NaN and 0.0 differs
  /// from -0.0. Containers are equal when they have the same tag, elements and entries (in
  /// order) and the same sharing: matching containers pair up one to one, so `[1,@1]` equals
  /// another self-containing `[1,@1]` but not `[1,[1,@2]]`, and `[[],@2]` differs from `[[],[]]`.
  /// Cycles terminate. Runs without recursion.
  friend bool operator==(const Value& a, const Value& b);

 private:
  friend class Document;
  friend class List;
  friend class Map;
  friend class Tagged;
  friend struct detail::Access;

  explicit Value(detail::Node* node) noexcept : data_(node) {}
  explicit Value(detail::PendingReference r) noexcept : data_(r) {}
  [[noreturn]] void type_error(std::string_view expected) const;

  std::variant<std::monostate, bool, std::int64_t, double, detail::Box<Integer>,
               detail::Box<Fraction>, detail::Box<ScaledDecimal>, std::string, Symbol,
               detail::Box<Association>, detail::Node*, detail::PendingReference>
      data_;
};

/// `key : value`. Plain associations have no identity (STON never numbers them).
class Association {
 public:
  /// The association `key : value`.
  Association(Value key, Value value) : key_(std::move(key)), value_(std::move(value)) {}
  /// The key.
  const Value& key() const noexcept { return key_; }
  /// The value.
  const Value& value() const noexcept { return value_; }
  /// The key, to change it in place.
  Value& key() noexcept { return key_; }
  /// The value, to change it in place.
  Value& value() noexcept { return value_; }

 private:
  Value key_;
  Value value_;
};

/// One entry of a map.
struct MapEntry {
  Value key;    ///< The key (any value).
  Value value;  ///< The value.
};

namespace detail {
/// A container: a list or a map, tagged or not. One Node is one STON object (one number).
struct Node {
  std::string tag;  // empty: a plain list or map
  bool is_map = false;
  std::vector<Value> items;       // list body
  std::vector<MapEntry> entries;  // map body
};
}  // namespace detail

/// A handle to a list owned by a Document (or to the list body of a tagged object, which is
/// that same object). Copying the handle does not copy the list.
class List {
 public:
  /// The number of elements.
  std::size_t size() const noexcept { return node_->items.size(); }
  /// True if the list has no element.
  bool empty() const noexcept { return node_->items.empty(); }
  /// Element `i`. Precondition: `i < size()`.
  Value& operator[](std::size_t i) const noexcept { return node_->items[i]; }
  /// Throws AccessError past the end.
  Value& at(std::size_t i) const;
  /// Appends `v`.
  void push_back(Value v) const { node_->items.push_back(std::move(v)); }
  /// Reserves room for `n` elements.
  void reserve(std::size_t n) const { node_->items.reserve(n); }
  /// The elements, to read or change in place.
  std::vector<Value>& items() const noexcept { return node_->items; }
  /// The first element's position.
  auto begin() const noexcept { return node_->items.begin(); }
  /// The position after the last element.
  auto end() const noexcept { return node_->items.end(); }
  /// Identity: both handles refer to the same list.
  bool is(const List& other) const noexcept { return node_ == other.node_; }

 private:
  friend class Value;
  friend class Document;
  friend class Tagged;
  friend struct detail::Access;
  explicit List(detail::Node* node) noexcept : node_(node) {}
  detail::Node* node_;
};

/// A handle to a map owned by a Document (or to the map body of a tagged object). Entries keep
/// insertion order; keys may be any value. Lookup is a linear scan (maps in STON texts are
/// object-sized); when a key occurs more than once the last one wins, as in Pharo's Dictionary.
class Map {
 public:
  /// The number of entries.
  std::size_t size() const noexcept { return node_->entries.size(); }
  /// True if the map has no entry.
  bool empty() const noexcept { return node_->entries.empty(); }
  /// The entries in insertion order, to read or change in place.
  std::vector<MapEntry>& entries() const noexcept { return node_->entries; }
  /// The first entry's position.
  auto begin() const noexcept { return node_->entries.begin(); }
  /// The position after the last entry.
  auto end() const noexcept { return node_->entries.end(); }

  /// The value of the last entry whose key equals `key` (structurally), or nullptr.
  Value* find(const Value& key) const;
  /// The value of the last entry whose key is a symbol or a string with this text, or nullptr.
  Value* find(std::string_view name) const;
  /// The same, for a C string.
  Value* find(const char* name) const { return find(std::string_view(name)); }
  /// Like find, but throws AccessError naming the key.
  Value& at(std::string_view name) const;
  /// Appends an entry (even if the key is already present: the reader keeps what it read).
  void append(Value key, Value value) const {
    node_->entries.push_back({std::move(key), std::move(value)});
  }
  /// Replaces the value of the last entry with an equal key, or appends; returns the value.
  Value& set(Value key, Value value) const;
  /// Identity: both handles refer to the same map.
  bool is(const Map& other) const noexcept { return node_ == other.node_; }

 private:
  friend class Value;
  friend class Document;
  friend class Tagged;
  friend struct detail::Access;
  explicit Map(detail::Node* node) noexcept : node_(node) {}
  detail::Node* node_;
};

/// A handle to a tagged object (`Point[1,2]`, ``User{#name:'x'}``): a tag and a list or map body.
/// The body is the object's representation, not an object of its own (it has no number).
class Tagged {
 public:
  /// The tag: `Point` in `Point[1,2]`.
  const std::string& tag() const noexcept { return node_->tag; }
  /// True if the body is a list: `Tag[...]`.
  bool has_list_body() const noexcept { return !node_->is_map; }
  /// True if the body is a map: `Tag{...}`.
  bool has_map_body() const noexcept { return node_->is_map; }
  /// The body; throws AccessError when it is of the other kind.
  List list() const;
  /// The same for a map body.
  Map map() const;
  /// Shortcuts: element `i` of a list body, the value for `name` in a map body.
  Value& at(std::size_t i) const { return list().at(i); }
  /// The same for a map body: the value for `name`; AccessError if absent.
  Value& at(std::string_view name) const { return map().at(name); }
  /// The number of elements or entries of the body.
  std::size_t size() const noexcept {
    return node_->is_map ? node_->entries.size() : node_->items.size();
  }
  /// Identity: both handles refer to the same tagged object.
  bool is(const Tagged& other) const noexcept { return node_ == other.node_; }

 private:
  friend class Value;
  friend class Document;
  friend struct detail::Access;
  explicit Tagged(detail::Node* node) noexcept : node_(node) {}
  detail::Node* node_;
};

// ---- Box, out of line (needs the complete types) -------------------------------------------

namespace detail {
template <class T>
Box<T>::Box(T value) : p_(std::make_unique<T>(std::move(value))) {}
template <class T>
Box<T>::Box(const Box& other) : p_(std::make_unique<T>(*other.p_)) {}
template <class T>
Box<T>& Box<T>::operator=(const Box& other) {
  if (this != &other) p_ = std::make_unique<T>(*other.p_);
  return *this;
}
template <class T>
Box<T>::~Box() = default;  // inside the namespace: Clang's -Wdtor-name rejects detail::Box<T>::~Box
}  // namespace detail

inline Value::Value(Integer i) {
  if (auto small = i.to_int64()) {
    data_ = *small;
  } else {
    data_ = detail::Box<Integer>(std::move(i));
  }
}
inline Value::Value(Association a) : data_(detail::Box<Association>(std::move(a))) {}
inline Value::Value(List list) noexcept : data_(list.node_) {}
inline Value::Value(Map map) noexcept : data_(map.node_) {}
inline Value::Value(Tagged tagged) noexcept : data_(tagged.node_) {}

inline Kind Value::kind() const noexcept {
  switch (data_.index()) {
    case 0: return Kind::nil;
    case 1: return Kind::boolean;
    case 2: return Kind::integer;
    case 3: return Kind::floating;
    case 4: return Kind::integer;
    case 5: return Kind::fraction;
    case 6: return Kind::scaled_decimal;
    case 7: return Kind::string;
    case 8: return Kind::symbol;
    case 9: return Kind::association;
    case 10: {
      const detail::Node* n = *std::get_if<detail::Node*>(&data_);
      if (!n->tag.empty()) return Kind::tagged;
      return n->is_map ? Kind::map : Kind::list;
    }
    default: return Kind::nil;  // a pending reference: only ever seen inside the reader
  }
}

/// Not `==`.
inline bool operator!=(const Value& a, const Value& b) { return !(a == b); }

}  // namespace bufstream::ston
