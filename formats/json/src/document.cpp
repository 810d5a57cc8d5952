#include <bufstream/json/document.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <string>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <bufstream/json/events.hpp>
#include <bufstream/json/pointer.hpp>
#include <bufstream/json/reader.hpp>
#include <bufstream/json/writer.hpp>
#include <bufstream/memory_read_stream.hpp>
#include <bufstream/utf8.hpp>

#include "document_parser.hpp"
#include "pointer_text.hpp"

namespace bufstream::json {

using detail::end_of;

using detail::DocumentData;
using detail::DocumentNode;
using detail::DocumentValues;
using detail::string_of;

std::string_view type_name(Type type) noexcept {
  switch (type) {
    case Type::null: return "null";
    case Type::boolean: return "boolean";
    case Type::int64: return "int64";
    case Type::uint64: return "uint64";
    case Type::floating: return "double";
    case Type::string: return "string";
    case Type::array: return "array";
    case Type::object: return "object";
  }
  return "value";
}

// ---- DocumentValues -------------------------------------------------------------------------

void DocumentValues::reserve(std::size_t nodes) {
  if (nodes > node_room_) grow(nodes - size_, 0);
}

std::uint64_t DocumentValues::append_string(std::string_view s) {
  if (s.empty()) return string_bytes_;  // (there may be no block yet)
  if (size_ + units_for(string_bytes_ + s.size()) > capacity_) grow(0, s.size());
  string_bytes_ += s.size();
  std::memcpy(const_cast<char*>(end()) - string_bytes_, s.data(), s.size());
  node_room_ = capacity_ - units_for(string_bytes_);
  return string_bytes_;
}

void DocumentValues::grow(std::size_t nodes, std::size_t bytes) {
  const std::size_t needed = size_ + nodes + units_for(string_bytes_ + bytes);
  const std::size_t capacity = std::max({needed, 2 * capacity_, std::size_t{16}});
  auto block = std::make_unique_for_overwrite<DocumentNode[]>(capacity);
  if (size_ != 0) std::memcpy(block.get(), block_.get(), size_ * node_bytes);
  char* const new_end = reinterpret_cast<char*>(block.get() + capacity);
  if (string_bytes_ != 0)
    std::memcpy(new_end - string_bytes_, end() - string_bytes_, string_bytes_);
  block_ = std::move(block);
  capacity_ = capacity;
  node_room_ = capacity_ - units_for(string_bytes_);
}

namespace {

// Appends nodes in document order, as the reader's events arrive (or as a conversion walks a
// value). A container's node is finished (its end and count) when it closes.
class Builder {
 public:
  explicit Builder(DocumentData& d) : d_(d) {}

  void null() { push({Type::null, false, 0, 0}); }
  void boolean(bool b) { push({Type::boolean, b, 0, 0}); }
  void integer(std::int64_t i) { push(detail::negative_integer_node(i)); }
  void unsigned_integer(std::uint64_t u) { push(detail::unsigned_node(u)); }
  void floating(double x) { push(detail::double_node(x)); }
  void string(std::string_view s) { push_text(Type::string, s); }
  void key(std::string_view k) { push_text(Type::string, k); }
  void begin_array() { open(Type::array); }
  void begin_object() { open(Type::object); }
  void end_array() { close(); }
  void end_object() { close(); }

 private:
  void push(const DocumentNode& node) {
    d_.values.push_back(node);
    count_one();
  }
  void push_text(Type type, std::string_view s) {
    if (s.size() > std::numeric_limits<std::uint32_t>::max())
      throw std::length_error("json::Document: a string longer than 4 GiB");
    const std::uint64_t offset = d_.values.append_string(s);
    d_.values.push_back({type, false, static_cast<std::uint32_t>(s.size()), offset});
    count_one();
  }
  // An element of the innermost array, or a member (counted at its key) of the innermost
  // object: objects count every other node.
  void count_one() {
    if (open_.empty()) return;
    Open& o = open_.back();
    if (o.is_object) {
      o.value_next = !o.value_next;
      if (!o.value_next) return;  // a value just went in; a key counts the member
    }
    std::uint32_t& count = d_.values[o.node].count;
    if (count == std::numeric_limits<std::uint32_t>::max()) [[unlikely]]
      throw std::length_error("json::Document: an array or object of more than 2^32 - 1 items");
    ++count;
  }
  void open(Type type) {
    push({type, false, 0, 0});
    if (open_.size() == open_.capacity()) open_.reserve(open_.size() * 2 + 8);
    open_.push_back({d_.values.size() - 1, type == Type::object, false});
  }
  void close() {
    d_.values[open_.back().node].payload = d_.values.size();
    open_.pop_back();
  }

  struct Open {
    std::size_t node;
    bool is_object;
    bool value_next;  // an object's key is in, its value is next
  };
  DocumentData& d_;
  std::vector<Open> open_;
};

void add_nlohmann(Builder& b, const nlohmann::json& v) {
  switch (v.type()) {
    case nlohmann::json::value_t::null:
    case nlohmann::json::value_t::discarded: b.null(); break;
    case nlohmann::json::value_t::boolean: b.boolean(v.get<bool>()); break;
    case nlohmann::json::value_t::number_integer: {
      const auto i = v.get<std::int64_t>();
      if (i >= 0) {
        b.unsigned_integer(static_cast<std::uint64_t>(i));
      } else {
        b.integer(i);
      }
      break;
    }
    case nlohmann::json::value_t::number_unsigned:
      b.unsigned_integer(v.get<std::uint64_t>());
      break;
    case nlohmann::json::value_t::number_float: b.floating(v.get<double>()); break;
    case nlohmann::json::value_t::string: b.string(v.get_ref<const std::string&>()); break;
    case nlohmann::json::value_t::array:
      b.begin_array();
      for (const nlohmann::json& e : v) add_nlohmann(b, e);
      b.end_array();
      break;
    case nlohmann::json::value_t::object:
      b.begin_object();
      for (const auto& [key, member] : v.items()) {
        b.key(key);
        add_nlohmann(b, member);
      }
      b.end_object();
      break;
    case nlohmann::json::value_t::binary:
      throw bufstream::UsageError("json::Document: nlohmann binary values have no JSON form");
  }
}

// A type with its article, for messages: "an array", "a string", "null".
std::string_view described(Type type) noexcept {
  switch (type) {
    case Type::null: return "null";
    case Type::boolean: return "a boolean";
    case Type::int64: return "an int64";
    case Type::uint64: return "a uint64";
    case Type::floating: return "a double";
    case Type::string: return "a string";
    case Type::array: return "an array";
    case Type::object: return "an object";
  }
  return "a value";
}

}  // namespace

// ---- Value ----------------------------------------------------------------------------------

void Value::wrong_type(std::string_view wanted) const {
  throw bufstream::AccessError(fmt::format("json::Document: {} is {}, not {}",
                                           detail::shown_pointer(pointer()), described(type()),
                                           wanted));
}

void Value::expect(Type t, std::string_view wanted) const {
  if (type() != t) wrong_type(wanted);
}

bool Value::as_bool() const {
  expect(Type::boolean, "a boolean");
  return node().boolean;
}

std::int64_t Value::as_int64() const {
  const DocumentNode& n = node();
  if (n.type == Type::int64) return static_cast<std::int64_t>(n.payload);
  if (n.type == Type::uint64) {
    if (n.payload <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      return static_cast<std::int64_t>(n.payload);
    throw bufstream::AccessError(fmt::format("json::Document: {} is {}, out of the range of int64",
                                             detail::shown_pointer(pointer()), n.payload));
  }
  wrong_type("an integer");
}

std::uint64_t Value::as_uint64() const {
  const DocumentNode& n = node();
  if (n.type == Type::uint64) return n.payload;
  if (n.type == Type::int64) {
    throw bufstream::AccessError(fmt::format("json::Document: {} is {}, out of the range of uint64",
                                             detail::shown_pointer(pointer()),
                                             static_cast<std::int64_t>(n.payload)));
  }
  wrong_type("an integer");
}

double Value::as_double() const {
  const DocumentNode& n = node();
  switch (n.type) {
    case Type::floating: return std::bit_cast<double>(n.payload);
    case Type::int64: return static_cast<double>(static_cast<std::int64_t>(n.payload));
    case Type::uint64: return static_cast<double>(n.payload);
    default: wrong_type("a number");
  }
}

std::string_view Value::as_string() const {
  expect(Type::string, "a string");
  return string_of(*d_, node());
}

std::size_t Value::size() const {
  if (type() != Type::array && type() != Type::object) wrong_type("an array or an object");
  return node().count;
}

Elements Value::elements() const {
  expect(Type::array, "an array");
  return {d_, i_ + 1, end_of(*d_, i_)};
}

Members Value::members() const {
  expect(Type::object, "an object");
  return {d_, i_ + 1, end_of(*d_, i_)};
}

std::size_t detail::next_child(const DocumentData& d, std::size_t i, bool member) noexcept {
  return end_of(d, member ? i + 1 : i);
}

std::optional<Value> Value::find(std::string_view key) const {
  expect(Type::object, "an object");
  std::optional<Value> found;
  const std::size_t end = end_of(*d_, i_);
  for (std::size_t k = i_ + 1; k < end; k = end_of(*d_, k + 1)) {
    if (string_of(*d_, d_->values[k]) == key) found = Value(d_, k + 1);
  }
  return found;
}

Value Value::operator[](std::string_view key) const {
  if (std::optional<Value> v = find(key)) return *v;
  throw bufstream::AccessError(fmt::format("json::Document: {} has no member \"{}\"",
                                           detail::shown_pointer(pointer()), key));
}

Value Value::element(std::size_t index) const {
  expect(Type::array, "an array");
  if (index >= node().count) {
    throw bufstream::AccessError(fmt::format("json::Document: {} has {} element{}, no index {}",
                                             detail::shown_pointer(pointer()), node().count,
                                             node().count == 1 ? "" : "s", index));
  }
  std::size_t e = i_ + 1;
  for (std::size_t n = 0; n < index; ++n) e = end_of(*d_, e);
  return {d_, e};
}

Value Value::at(std::string_view pointer) const {
  // A wildcard is only a member name here: at() looks up one value.
  const Pointer parsed(pointer);
  Value v = *this;
  for (std::size_t i = 0; i < parsed.size(); ++i) {
    const std::string& token = parsed.token(i);
    if (v.type() == Type::object) {
      v = v[std::string_view(token)];
    } else if (v.type() == Type::array) {
      const std::optional<std::uint64_t> index = parsed.index(i);
      if (!index) {
        throw bufstream::AccessError(
            fmt::format("json::Document: {} is an array; \"{}\" is not an index",
                        detail::shown_pointer(v.pointer()), token));
      }
      v = v[static_cast<std::size_t>(std::min<std::uint64_t>(*index, SIZE_MAX))];
    } else {
      throw bufstream::AccessError(fmt::format("json::Document: {} is {}; it has no \"{}\"",
                                               detail::shown_pointer(v.pointer()),
                                               described(v.type()), token));
    }
  }
  return v;
}

std::string Value::pointer() const {
  // Down from the root: in each container, the child whose nodes hold this one.
  std::string out;
  std::size_t c = 0;
  while (c != i_) {
    if (d_->values[c].type == Type::array) {
      std::size_t index = 0;
      std::size_t e = c + 1;
      while (end_of(*d_, e) <= i_) {
        e = end_of(*d_, e);
        ++index;
      }
      out += '/';
      out += std::to_string(index);
      c = e;
    } else {
      std::size_t k = c + 1;
      while (end_of(*d_, k + 1) <= i_) k = end_of(*d_, k + 1);
      Pointer::append_token(out, string_of(*d_, d_->values[k]));
      c = k + 1;
    }
  }
  return out;
}

// ---- Document -------------------------------------------------------------------------------

namespace {

// The values of the last document destroyed on this thread, cleared, for the next one: a loop
// of Document::parse_next (JSON Lines, rows picked by a json::Selection) then allocates nothing
// per value once its block is large enough. Only a block of up to 64 KiB is kept, and no text.
thread_local std::unique_ptr<detail::DocumentData> spare_data;
constexpr std::size_t max_spare_bytes = 64 * 1024;

}  // namespace

Document::Document()
    : data_(spare_data ? std::move(spare_data) : std::make_unique<DocumentData>()) {}

Document::~Document() {
  if (data_ == nullptr || spare_data != nullptr ||
      data_->values.capacity_bytes() > max_spare_bytes) {
    return;
  }
  data_->values.clear();
  data_->text = {};
  spare_data = std::move(data_);
}

Document Document::parse(ReadStream& in, ReadOptions options) {
  const std::uint64_t start = in.position();
  Document doc;
  doc.data_->text = in.read_rest(detail::document_padding);
  return parse_text(std::move(doc), start, std::move(options));
}

Document Document::parse(std::string_view text, ReadOptions options) {
  // The text's size is known: one block of it and the padding, one copy.
  Document doc;
  auto bytes = std::make_unique_for_overwrite<char[]>(text.size() + detail::document_padding);
  if (!text.empty()) std::memcpy(bytes.get(), text.data(), text.size());
  doc.data_->text = {std::move(bytes), text.size()};
  return parse_text(std::move(doc), 0, std::move(options));
}

Document Document::parse_text(Document doc, std::uint64_t start, ReadOptions options) {
  // The text and its padding, in a block of their size (read into, not written first); the
  // strings with escapes are decoded into the values' block, behind the nodes. Two blocks,
  // the values' the larger (its room for nodes is two bytes per byte of text): glibc's free
  // gives the heap back to the system when the blocks freed together reach twice the largest
  // one, and each parse of a loop then faults all its pages in again (16 ms instead of 2.3 ms
  // a parse of canada.json when the text reserved its size again for decoded strings; ten
  // times slower for a text of escaped strings when they had a buffer of their own).
  const ReadStream::Block& text = doc.data_->text;
  const std::size_t size = text.size;
  std::memset(text.bytes.get() + size, ' ', detail::document_padding);
  const std::size_t begin = options.skip_bom && start == 0 ? utf8::bom_length(text.view()) : 0;
  if (detail::parse_document_text(*doc.data_, begin, size, options.max_depth)) return doc;

  // Not one JSON value: the event reader reads the same bytes and says what is wrong where,
  // as it would have over the stream (positions counted from the stream's, which the text
  // started at).
  MemoryReadStream again(text.view());
  if (start != 0) options.skip_bom = false;
  try {
    Document checked;
    Reader reader(again, std::move(options));
    Builder builder(*checked.data_);
    reader.parse(builder);
    reader.finish();
    return checked;  // the reader's verdict stands (no text is known that only it takes)
  } catch (const ParseError& e) {
    if (start == 0) throw;
    SourcePosition at = e.position();
    at.offset += start;
    if (at.line == 1) at.column += start;
    throw ParseError(at, e.message(), e.source_name());
  }
}

Document Document::parse_next(Reader& reader) {
  Document doc;
  Builder builder(*doc.data_);
  reader.parse(builder);
  return doc;
}

Document Document::from_nlohmann(const nlohmann::json& value) {
  Document doc;
  Builder builder(*doc.data_);
  add_nlohmann(builder, value);
  return doc;
}

void detail::throw_typed_read_error(const Value& value, const ParseError& error) {
  throw bufstream::AccessError(
      fmt::format("json::Document: {} cannot be read as the type asked for: {}",
                  detail::shown_pointer(value.pointer()), error.message()));
}

nlohmann::json to_nlohmann(Value value) {
  switch (value.type()) {
    case Type::null: return nullptr;
    case Type::boolean: return value.as_bool();
    case Type::int64: return value.as_int64();
    case Type::uint64: return value.as_uint64();
    case Type::floating: return value.as_double();
    case Type::string: return std::string(value.as_string());
    case Type::array: {
      nlohmann::json out = nlohmann::json::array();
      auto& elements = out.get_ref<nlohmann::json::array_t&>();
      elements.reserve(value.size());
      for (const Value e : value.elements()) elements.push_back(to_nlohmann(e));
      return out;
    }
    case Type::object: {
      nlohmann::json out = nlohmann::json::object();
      auto& members = out.get_ref<nlohmann::json::object_t&>();
      for (const auto& [key, v] : value.members()) members[std::string(key)] = to_nlohmann(v);
      return out;
    }
  }
  return nullptr;
}

}  // namespace bufstream::json
