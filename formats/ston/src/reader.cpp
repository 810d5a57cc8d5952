#include <algorithm>
#include <cmath>
#include <limits>

#include <bufstream/memory_read_stream.hpp>
#include <bufstream/numbers.hpp>
#include <bufstream/utf8.hpp>

#include "reader_impl.hpp"

namespace bufstream::ston {

using detail::Access;
using reading::is_tag_char;
using reading::is_upper;

void Reader::Impl::skip_whitespace_slow() {
  for (;;) {
    const char* p = in.cursor();
    const char* end = in.limit();
    while (p != end) {
      const char c = *p;
      if (c == ' ' || c == '\t' || c == '\f') {
        ++p;
      } else if (c == '\r') {
        // CR alone ends a line too (older Pharo writes CR); CRLF counts once, at the LF.
        if (p + 1 == end) {
          in.set_cursor(p);
          in.fill(2);
          p = in.cursor();
          end = in.limit();
        }
        ++p;
        if (p == end || *p != '\n') {
          lines.new_line(in.position() + static_cast<std::uint64_t>(p - in.cursor()));
        }
      } else if (c == '\n') {
        ++p;
        lines.new_line(in.position() + static_cast<std::uint64_t>(p - in.cursor()));
      } else {
        break;
      }
    }
    in.set_cursor(p);
    if (p != end) {
      if (*p == '/' && options.allow_comments && skip_comment()) continue;
      // A byte-order mark can only be at the very start, where no value starts with 0xEF.
      if (*p == '\xEF' && options.skip_bom && in.position() == 0 && utf8::skip_bom(in)) continue;
      return;
    }
    if (in.fill(1).empty()) return;
  }
}

Value Reader::Impl::read_top(Document& d) {
  doc = &d;
  first_node = d.container_count();
  object_count = 0;
  special_floats.clear();
  pending.clear();
  entries.clear();
  frames.clear();
  keys.clear();
  depth = 0;
  skip_whitespace();
  Value v = parse_value();
  if (!pending.empty()) resolve(v);
  return v;
}

Value Reader::Impl::parse_value() {
  for (;;) {
    // A simple value starts at the cursor (the whitespace before it is skipped).
    bool opened = false;
    Value v = start_simple_value(opened);
    if (opened) continue;  // a container with elements: its first one starts at the cursor
    if (complete(v)) return v;
  }
}

bool Reader::Impl::complete(Value& v) {
  for (;;) {
    if (!frames.empty() && frames.back().open == Open::map_key) {
      skip_whitespace();
      expect(':', "':' after a map key");
      skip_whitespace();
      keys.push_back(std::move(v));
      frames.back().open = Open::map_value;
      return false;
    }
    skip_whitespace();
    if (peek() == ':') {
      open_association(std::move(v));
      return false;
    }
    // `v` is a complete value: an association's right side completes the association.
    while (!frames.empty() && frames.back().open == Open::association) {
      v = Association(std::move(keys.back()), std::move(v));
      keys.pop_back();
      frames.pop_back();
      --depth;
    }
    if (frames.empty()) return true;
    Frame& f = frames.back();
    if (f.open == Open::list) {
      if (!continue_list(f.node, std::move(v))) return false;
    } else {  // Open::map_value
      entries.push_back({std::move(keys.back()), std::move(v)});
      keys.pop_back();
      const int c = peek();
      if (c == ',') {
        in.advance(1);
        skip_whitespace();
        f.open = Open::map_key;
        return false;
      }
      if (c != '}') fail_expected("',' or '}'");
      in.advance(1);
      auto first = entries.begin() + static_cast<std::ptrdiff_t>(f.entries_base);
      f.node->entries.assign(std::make_move_iterator(first),
                             std::make_move_iterator(entries.end()));
      entries.erase(first, entries.end());
    }
    // The container is closed: it is a complete simple value of the frame below.
    Node* const node = f.node;
    const std::uint64_t tagged_number = f.tagged_number;
    frames.pop_back();
    --depth;
    v = closed_container(node, tagged_number);
  }
}

void Reader::Impl::open_association(Value&& key) {
  enter_level();
  in.advance(1);
  skip_whitespace();
  keys.push_back(std::move(key));
  frames.push_back({Open::association, nullptr, 0, 0});
}

bool Reader::Impl::continue_list(Node* node, Value&& v) {
  node->items.push_back(std::move(v));
  for (;;) {
    int c = peek();
    if (c == ',') {
      in.advance(1);
      skip_whitespace();
      c = peek();
      if (c == '[' || c == '{' || is_upper(static_cast<char>(c))) return false;
      node->items.push_back(read_simple_value(c));
      skip_whitespace();
      if (peek() == ':') {
        Value key = std::move(node->items.back());
        node->items.pop_back();
        open_association(std::move(key));
        return false;
      }
      continue;
    }
    if (c != ']') fail_expected("',' or ']'");
    in.advance(1);
    size_hints[depth] = node->items.size();
    // A wrong guess must not cost memory out of proportion to the input.
    if (node->items.capacity() > 2 * node->items.size() + 8) node->items.shrink_to_fit();
    return true;
  }
}

Value Reader::Impl::start_simple_value(bool& opened) {
  const int c = peek();
  if (c == '[') return open_container(nullptr, 0, false, opened);
  if (c == '{') return open_container(nullptr, 0, true, opened);
  if (c >= 'A' && c <= 'Z') return open_tagged(opened);
  return read_simple_value(c);
}

Value Reader::Impl::read_simple_value(int c) {
  switch (c) {
    case '\'':
    case '"': {
      const SourcePosition start = here();
      in.advance(1);
      std::string s;
      read_string_body(static_cast<char>(c), s, start);
      return Value(std::move(s));
    }
    case '#': return parse_symbol();
    case '@': return parse_reference();
    case '-': return parse_number();
    default: break;
  }
  if (c >= '0' && c <= '9') return parse_number();
  if (c >= 'a' && c <= 'z') return parse_constant();
  fail_expected("a value");
}

Value Reader::Impl::parse_constant() {
  const SourcePosition start = here();
  const std::string_view word = in.next_while(is_tag_char, spill);
  if (word == "true") return true;
  if (word == "false") return false;
  // Pharo's reader takes JSON's null for nil.
  if (word == "nil" || word == "null") return nullptr;
  fail(start, fmt::format("expected a value but found '{}'", word));
}

Value Reader::Impl::open_container(Node* node, std::uint64_t tagged_number, bool is_map,
                                   bool& opened) {
  enter_level();
  if (node == nullptr) {
    node = Access::new_node(*doc, {}, is_map);
    ++object_count;
  }
  in.advance(1);  // '[' or '{'
  skip_whitespace();
  if (peek() == (is_map ? '}' : ']')) {
    in.advance(1);
    --depth;
    return closed_container(node, tagged_number);
  }
  if (is_map) {
    frames.push_back({Open::map_key, node, tagged_number, entries.size()});
  } else {
    if (size_hints.size() < depth + 1) size_hints.resize(depth + 1, 0);
    node->items.reserve(std::min<std::size_t>(size_hints[depth], 1024));
    frames.push_back({Open::list, node, tagged_number, 0});
  }
  opened = true;
  return Value();
}

Value Reader::Impl::open_tagged(bool& opened) {
  const std::string_view tag = in.next_while(is_tag_char, spill);
  Node* node = Access::new_node(*doc, tag, false);
  skip_whitespace();
  const int c = peek();
  if (c != '[' && c != '{') fail_expected(fmt::format("'[' or '{{' after the tag {}", node->tag));
  node->is_map = c == '{';
  const std::uint64_t number = ++object_count;
  return open_container(node, number, c == '{', opened);
}

Value Reader::Impl::closed_container(Node* node, std::uint64_t tagged_number) {
  if (tagged_number != 0 && !node->is_map && node->items.size() == 1 &&
      node->items[0].is_symbol() && node->tag == "Float") {
    const std::string& name = node->items[0].as_symbol();
    double special = 0;
    bool known = true;
    if (name == "nan") {
      special = std::numeric_limits<double>::quiet_NaN();
    } else if (name == "infinity") {
      special = HUGE_VAL;
    } else if (name == "negativeInfinity") {
      special = -HUGE_VAL;
    } else {
      known = false;
    }
    if (known) {
      special_floats.push_back({tagged_number, special});
      Access::drop_newest_node(*doc);  // the body held only a symbol: nothing points at it
      return Value(special);
    }
  }
  return Access::of(node);
}

Value Reader::Impl::object(std::uint64_t number) const {
  const auto special =
      std::lower_bound(special_floats.begin(), special_floats.end(), number,
                       [](const SpecialFloat& f, std::uint64_t n) { return f.number < n; });
  if (special != special_floats.end() && special->number == number) return Value(special->value);
  const auto dropped = static_cast<std::uint64_t>(special - special_floats.begin());
  return Access::of(
      &Access::nodes(*doc)[first_node + static_cast<std::size_t>(number - 1 - dropped)]);
}

void Reader::Impl::resolve(Value& root) {
  for (const Pending& p : pending) {
    if (p.number == 0 || p.number > object_count) {
      fail(p.where, fmt::format("reference @{} does not exist: the value has {} object{}", p.number,
                                object_count, object_count == 1 ? "" : "s"));
    }
  }
  resolve_value(root);
  std::deque<Node>& nodes = Access::nodes(*doc);
  for (std::size_t i = first_node; i < nodes.size(); ++i) {
    Node& node = nodes[i];
    for (Value& v : node.items) resolve_value(v);
    for (MapEntry& e : node.entries) {
      resolve_value(e.key);
      resolve_value(e.value);
    }
  }
}

void Reader::Impl::resolve_value(Value& v) {
  auto& data = Access::data(v);
  if (auto* p = std::get_if<detail::PendingReference>(&data)) {
    v = object(p->number);
    return;
  }
  if (!std::holds_alternative<detail::Box<Association>>(data)) return;
  std::vector<Value*>& stack = resolve_stack;
  stack.assign(1, &v);
  while (!stack.empty()) {
    Value& part = *stack.back();
    stack.pop_back();
    auto& d = Access::data(part);
    if (auto* p = std::get_if<detail::PendingReference>(&d)) {
      part = object(p->number);
    } else if (auto* a = std::get_if<detail::Box<Association>>(&d)) {
      stack.push_back(&(*a)->value());
      stack.push_back(&(*a)->key());
    }
  }
}

Reader::Reader(ReadStream& in, ReadOptions options)
    : impl_(std::make_unique<Impl>(in, std::move(options))) {}
Reader::~Reader() = default;
Reader::Reader(Reader&&) noexcept = default;
Reader& Reader::operator=(Reader&&) noexcept = default;

Value Reader::read(Document& doc) {
  return impl_->sticky([&] { return impl_->read_top(doc); });
}

void Reader::expect_end() {
  impl_->sticky([&] {
    impl_->skip_whitespace();
    if (impl_->peek() >= 0) impl_->fail_expected("end of input after the value");
  });
}

bool Reader::at_end() {
  return impl_->sticky([&] {
    impl_->skip_whitespace();
    return impl_->peek() < 0;
  });
}

SourcePosition Reader::position() const noexcept { return impl_->here(); }

Document parse(ReadStream& in, const ReadOptions& options) {
  Reader reader(in, options);
  Document doc;
  doc.set_root(reader.read(doc));
  reader.expect_end();
  return doc;
}

Document parse(std::string_view text, const ReadOptions& options) {
  MemoryReadStream in(text);
  return parse(in, options);
}

}  // namespace bufstream::ston
