#include <bufstream/ston/writer.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include <bufstream/numbers.hpp>
#include <bufstream/string_write_stream.hpp>
#include <bufstream/utf8.hpp>

#include "access.hpp"
#include "writer_text.hpp"

namespace bufstream::ston {

namespace {

using detail::Access;
using detail::Node;

}  // namespace

struct Writer::Impl {
  WriteStream& out;
  WriteOptions options;
  Writer* writer = nullptr;   // the streaming state (null in a preview)
  std::size_t level = 0;      // indentation level
  std::size_t depth = 0;      // nesting, for max_depth
  std::uint64_t objects = 0;  // numbered so far in this top-level value
  std::unordered_map<const Node*, std::uint64_t> numbers;  // written containers
  std::unordered_set<const Node*> open_nodes;              // ReferencePolicy::ignore: the path
  bool previewing = false;  // writing a value for an error message: no checks
  bool pretty;              // options.indent > 0

  Impl(WriteStream& stream, WriteOptions opts)
      : out(stream), options(std::move(opts)), pretty(options.indent > 0) {}

  bool tracks_identity() const noexcept { return options.references != ReferencePolicy::ignore; }

  // ---- Layout -----------------------------------------------------------------------------

  void newline_indent() {
    out.write(line_end_bytes(options.line_end));
    for (std::size_t i = level * options.indent; i > 0; --i) out.put(options.indent_char);
  }

  bool is_short_tag(std::string_view tag) const {
    return std::find(options.short_list_tags.begin(), options.short_list_tags.end(), tag) !=
           options.short_list_tags.end();
  }

  void reset_identity() {
    objects = 0;
    numbers.clear();
    open_nodes.clear();
  }

  void write_colon() {
    if (pretty) {
      out.write(" : ");
    } else {
      out.put(':');
    }
  }

  bool in_map_key_position() const noexcept {
    if (writer == nullptr) return false;
    const auto& frames = writer->frames_;
    return !frames.empty() && frames.back().is_map && frames.back().count % 2 == 0;
  }

  // ---- Errors -----------------------------------------------------------------------------

  [[noreturn]] static void fail(const std::string& message) { throw UsageError(message); }

  // "tagged object Point[1,2]": the kind and the start of the compact text.
  static std::string describe(const Value& v) {
    // A preview writer that never refuses (it would describe the refused value again) and
    // stops early on deep values.
    StringWriteStream s;
    Impl preview(s, {.max_depth = 8});
    preview.previewing = true;
    std::string text;
    try {
      preview.write_value(v);
      text = s.take();
    } catch (const UsageError&) {
      text = s.take() + "...";
    }
    if (text.size() > 40) {
      text.resize(37);
      text += "...";
    }
    return fmt::format("{} {}", kind_name(v.kind()), text);
  }

  void enter(const Value& v) {
    if (++depth > options.max_depth) {
      --depth;
      if (previewing) fail("");
      fail(fmt::format("cannot write {}: nesting deeper than {} levels (WriteOptions::max_depth)",
                       describe(v), options.max_depth));
    }
  }

  // ---- Scalars ----------------------------------------------------------------------------

  void write_double(double d) {
    if (std::isfinite(d)) [[likely]] {
      char* p = out.reserve(max_double_chars);
      out.commit(static_cast<std::size_t>(format_double_smalltalk(p, d) - p));
      return;
    }
    const char* name = std::isnan(d) ? "nan" : d > 0 ? "infinity" : "negativeInfinity";
    // Float[#nan] is a tagged object: it takes a number, as the reader counts it.
    ++objects;
    out.write(pretty ? "Float [ #" : "Float[#");
    out.write(name);
    out.write(pretty ? " ]" : "]");
  }

  void write_string(std::string_view s) { detail::write_quoted(out, s, options.ascii_only); }

  void write_symbol(std::string_view name) { detail::write_symbol(out, name, options.ascii_only); }

  void write_text(std::string_view s) { write_string(s); }

  void write_integer(const Integer& i) {
    if (auto small = i.to_int64()) {
      out.print(*small);
    } else {
      out.write(i.to_string());
    }
  }

  // ---- Whole values -----------------------------------------------------------------------
  //
  // A Value is written without recursion: each open association and container is an Open on
  // an explicit stack, so nesting is bounded by WriteOptions::max_depth (and memory), never by
  // the call stack. The bytes, and the order of the checks, are those of the recursive
  // definition: a container is its tag, its brackets and its parts with their separators.

  enum class Body : std::uint8_t { items, short_items, entries, association };
  struct Open {
    Body body;
    const Node* node;                // containers
    const Association* association;  // associations
    std::size_t next;  // items: the element being written; entries: 2 * entry + (0 key, 1 value)
  };
  std::vector<Open> open;  // innermost last; write_value is not re-entered (previews own an Impl)

  void write_value(const Value& root) {
    open.clear();
    const Value* v = &root;
    for (;;) {
      v = start_value(*v);
      if (v != nullptr) continue;  // an association or a container: `v` is its first part
      // The value is complete: write what follows it in the innermost open one.
      for (;;) {
        if (open.empty()) return;
        v = next_part(open.back());
        if (v != nullptr) break;
      }
    }
  }

  // Writes `v` whole if it has no parts; otherwise writes its opening, pushes it on `open` and
  // returns its first part (null when it was complete: a scalar, a reference, an empty body).
  const Value* start_value(const Value& v) {
    const auto& data = Access::data(v);
    if (const auto* a = std::get_if<detail::Box<Association>>(&data)) {
      return start_association(v, **a);
    }
    if (const auto* node = std::get_if<Node*>(&data)) return start_container(v, *node);
    write_simple_value(v);
    return nullptr;
  }

  // True for the values written with their parts: associations and containers.
  static bool has_parts(const Value& v) noexcept {
    const auto index = Access::data(v).index();
    return index == 9 || index == 10;
  }

  // A value without parts (not an association or a container).
  void write_simple_value(const Value& v) {
    const auto& data = Access::data(v);
    switch (data.index()) {
      case 0: out.write("nil"); return;
      case 1: out.print(std::get<1>(data)); return;
      case 2: out.print(std::get<2>(data)); return;
      case 3: write_double(std::get<3>(data)); return;
      case 4: out.write(std::get<4>(data)->to_string()); return;
      case 5: {
        const Fraction& f = *std::get<5>(data);
        write_integer(f.numerator());
        out.put('/');
        write_integer(f.denominator());
        return;
      }
      case 6: {
        const ScaledDecimal& s = *std::get<6>(data);
        write_integer(s.numerator());
        out.put('/');
        write_integer(s.denominator());
        out.put('s');
        out.print(s.scale());
        return;
      }
      case 7: write_text(std::get<7>(data)); return;
      case 8: write_symbol(std::get<8>(data).name); return;
      default: fail("cannot write an unresolved reference");
    }
  }

  const Value* start_association(const Value& v, const Association& a) {
    // `a:b:c` reads as a:(b:c); STON has no way to write (a:b):c.
    if (a.key().is_association() && !previewing) {
      fail(
          fmt::format("cannot write {}: an association whose key is an association would read "
                      "back differently",
                      describe(v)));
    }
    enter(v);
    open.push_back({Body::association, nullptr, &a, 0});
    return &a.key();
  }

  // Numbers `node` or writes its reference; returns false when a reference was written.
  bool register_node(const Value& v, const Node* node) {
    if (!tracks_identity()) {
      if (!open_nodes.insert(node).second) {
        fail(
            fmt::format("cannot write {}: it contains itself, and ReferencePolicy::ignore "
                        "cannot write a cycle",
                        describe(v)));
      }
      return true;
    }
    auto [it, inserted] = numbers.try_emplace(node, objects + 1);
    if (inserted) {
      ++objects;
      return true;
    }
    if (options.references == ReferencePolicy::error) {
      fail(fmt::format("cannot write {}: it occurs more than once (ReferencePolicy::error)",
                       describe(v)));
    }
    out.put('@');
    out.print(it->second);
    return false;
  }

  const Value* start_container(const Value& v, const Node* node) {
    if (!register_node(v, node)) return nullptr;
    enter(v);
    if (!node->tag.empty()) {
      out.write(node->tag);
      if (pretty) out.put(' ');
    }
    if (node->is_map) {
      out.put('{');
      if (node->entries.empty()) {
        out.write(pretty ? " }" : "}");
        return finish_container(node);
      }
      ++level;
      if (pretty) newline_indent();
      check_entry_key(node->entries[0].key);
      open.push_back({Body::entries, node, nullptr, 0});
      return &node->entries[0].key;
    }
    out.put('[');
    if (pretty && !node->tag.empty() && is_short_tag(node->tag)) {
      if (node->items.empty()) {
        out.write(" ]");
        return finish_container(node);
      }
      out.put(' ');
      open.push_back({Body::short_items, node, nullptr, 0});
      return &node->items[0];
    }
    if (node->items.empty()) {
      out.write(pretty ? " ]" : "]");
      return finish_container(node);
    }
    ++level;
    if (pretty) newline_indent();
    open.push_back({Body::items, node, nullptr, 0});
    return &node->items[0];
  }

  // The part just written in `o` is complete: writes the separator and returns the next part,
  // or writes the closing, pops `o` and returns null.
  const Value* next_part(Open& o) {
    switch (o.body) {
      case Body::association:
        if (o.next == 0) {
          write_colon();
          o.next = 1;
          return &o.association->value();
        }
        --depth;
        open.pop_back();
        return nullptr;
      case Body::items: {
        // Elements without parts are written here, in one loop (the cells of a table's row).
        // The bounds are locals: a store through the stream's `char*` could change `o` as far
        // as the compiler knows, so members would be loaded again for every element.
        const Value* const begin = o.node->items.data();
        const Value* const end = begin + o.node->items.size();
        for (const Value* item = begin + o.next + 1; item != end; ++item) {
          out.put(',');
          if (pretty) newline_indent();
          if (has_parts(*item)) {
            o.next = static_cast<std::size_t>(item - begin);
            return item;
          }
          write_simple_value(*item);
        }
        --level;
        if (pretty) newline_indent();
        out.put(']');
        break;
      }
      case Body::short_items: {
        const std::vector<Value>& items = o.node->items;
        if (++o.next < items.size()) {
          out.write(", ");
          return &items[o.next];
        }
        out.write(" ]");
        break;
      }
      case Body::entries: {
        const std::vector<MapEntry>& entries = o.node->entries;
        const std::size_t entry = o.next / 2;
        if (o.next % 2 == 0) {
          write_colon();
          ++o.next;
          return &entries[entry].value;
        }
        if (entry + 1 < entries.size()) {
          out.put(',');
          if (pretty) newline_indent();
          check_entry_key(entries[entry + 1].key);
          ++o.next;
          return &entries[entry + 1].key;
        }
        --level;
        if (pretty) newline_indent();
        out.put('}');
        break;
      }
    }
    const Node* node = o.node;
    open.pop_back();
    return finish_container(node);
  }

  const Value* finish_container(const Node* node) {
    --depth;
    if (!tracks_identity()) open_nodes.erase(node);
    return nullptr;
  }

  // Checked before a map key is written (a preview writes whatever it is given).
  void check_entry_key(const Value& key) {
    if (previewing) return;
    if (key.is_association()) {
      fail(fmt::format("cannot write a map key {}: it would read back as part of the entry",
                       describe(key)));
    }
  }

  // ---- Streaming containers ---------------------------------------------------------------

  void begin(std::string_view tag, bool is_map) {
    if (!tag.empty()) {
      if (!is_valid_tag(tag)) throw UsageError(fmt::format("not a STON tag: '{}'", tag));
    }
    auto& frames = writer->frames_;
    if (frames.size() >= options.max_depth) {
      fail(
          fmt::format("cannot begin a container: nesting deeper than {} levels "
                      "(WriteOptions::max_depth)",
                      options.max_depth));
    }
    writer->before_element(tag.empty() ? (is_map ? Kind::map : Kind::list) : Kind::tagged);
    if (tracks_identity()) ++objects;
    const bool is_short = pretty && !is_map && !tag.empty() && is_short_tag(tag);
    if (!tag.empty()) {
      out.write(tag);
      if (pretty) out.put(' ');
    }
    out.put(is_map ? '{' : '[');
    if (is_short) out.put(' ');
    frames.push_back({is_map, is_short, 0});
    if (pretty && !is_short) ++level;  // streamed containers indent in pretty only
  }

  void end(bool is_map) {
    auto& frames = writer->frames_;
    if (frames.empty() || frames.back().is_map != is_map) {
      throw UsageError(
          fmt::format("ston::Writer::end_{}() without a matching begin", is_map ? "map" : "list"));
    }
    const Frame f = frames.back();
    if (is_map && f.count % 2 != 0) {
      throw UsageError("ston::Writer::end_map() after a key without its value");
    }
    frames.pop_back();
    if (f.is_short) {
      out.write(f.count == 0 ? "]" : " ]");
    } else {
      if (pretty) --level;
      if (pretty) {
        if (f.count == 0) {
          out.put(' ');
        } else {
          newline_indent();
        }
      }
      out.put(is_map ? '}' : ']');
    }
    writer->after_element();
  }

  void check_key(const Value* v, Kind kind) {
    if (!in_map_key_position()) return;
    if (kind == Kind::association) {
      fail(fmt::format("cannot write a map key {}: it would read back as part of the entry",
                       v ? describe(*v) : std::string(kind_name(kind))));
    }
  }
};

Writer::Writer(WriteStream& out, WriteOptions options) : out_(out), pretty_(options.indent > 0) {
  if (options.indent_char != '\t' && options.indent_char != ' ') {
    throw UsageError(fmt::format("ston::Writer: indent_char must be '\\t' or ' ', not {}",
                                 describe_byte(static_cast<unsigned char>(options.indent_char))));
  }
  impl_ = std::make_unique<Impl>(out, std::move(options));
  impl_->writer = this;
}
Writer::~Writer() = default;

void Writer::before_element_slow(Kind kind) {
  Impl& w = *impl_;
  if (frames_.empty()) {
    if (wrote_top_level_) out_.write(line_end_bytes(w.options.line_end));
    wrote_top_level_ = true;
    return;
  }
  Frame& f = frames_.back();
  if (f.is_map) {
    if (f.count % 2 == 0) {
      w.check_key(nullptr, kind);
      if (f.count > 0) out_.put(',');
      if (pretty_) w.newline_indent();
    } else {
      w.write_colon();
    }
  } else if (f.is_short) {
    if (f.count > 0) out_.write(", ");
  } else {
    if (f.count > 0) out_.put(',');
    if (pretty_) w.newline_indent();
  }
  ++f.count;
}

void Writer::end_top_level() { impl_->reset_identity(); }

void Writer::write(const Value& v) {
  Impl& w = *impl_;
  w.check_key(&v, v.kind());
  before_element(v.kind());
  const std::size_t level = w.level;
  try {
    w.write_value(v);
  } catch (...) {
    // The output is incomplete; keep the writer's own state consistent for later calls.
    w.depth = 0;
    w.level = level;
    w.open.clear();
    w.open_nodes.clear();
    throw;
  }
  after_element();
}

// A plain list in compact layout inside another list (a table's row) needs none of begin's
// checks but the depth limit: no tag, no layout, no map key rule.
void Writer::begin_list() {
  Impl& w = *impl_;
  if (!pretty_ && !frames_.empty() && !frames_.back().is_map &&
      frames_.size() < w.options.max_depth) [[likely]] {
    if (frames_.back().count++ != 0) out_.put(',');
    if (w.tracks_identity()) ++w.objects;
    out_.put('[');
    frames_.push_back({false, false, 0});
    return;
  }
  w.begin({}, false);
}

void Writer::end_list() {
  if (!pretty_ && frames_.size() > 1 && !frames_.back().is_map) [[likely]] {
    frames_.pop_back();
    out_.put(']');
    return;
  }
  impl_->end(false);
}
void Writer::begin_map() { impl_->begin({}, true); }
void Writer::end_map() { impl_->end(true); }
void Writer::begin_tagged_list(std::string_view tag) { impl_->begin(tag, false); }
void Writer::begin_tagged_map(std::string_view tag) { impl_->begin(tag, true); }

void Writer::value(std::nullptr_t) {
  before_element(Kind::nil);
  out_.write("nil");
  after_element();
}

void Writer::value(bool b) {
  before_element(Kind::boolean);
  out_.print(b);
  after_element();
}

void Writer::value(double d) {
  before_element(Kind::floating);
  impl_->write_double(d);
  after_element();
}

void Writer::value(std::string_view s) {
  before_element(Kind::string);
  impl_->write_text(s);
  after_element();
}

void Writer::symbol(std::string_view name) {
  before_element(Kind::symbol);
  impl_->write_symbol(name);
  after_element();
}

std::string to_string(const Value& v, const WriteOptions& options) {
  StringWriteStream out;
  Writer writer(out, options);
  writer.write(v);
  return out.take();
}

}  // namespace bufstream::ston
