// json::Writer's writing of a json::Document's values (document.hpp): compactly in one pass
// over the nodes, or value by value through the writer's own calls for pretty output.
#include <bit>
#include <cmath>
#include <cstring>
#include <string_view>
#include <vector>

#include <bufstream/json/document.hpp>
#include <bufstream/json/writer.hpp>
#include <bufstream/numbers.hpp>

#include "document_parser.hpp"

namespace bufstream::json {

using detail::DocumentData;
using detail::DocumentNode;
using detail::end_of;
using detail::string_of;

// ---- Writing --------------------------------------------------------------------------------

// Compact: one pass over the nodes that places separators and copies text, with none of the
// grammar's checks per value (a document's value is well-formed). Strings read without
// escapes are copied as they are; others are checked and escaped as value(string_view) does.
void Writer::write_document_compact(const DocumentData& d, std::size_t i, const std::size_t end) {
  constexpr std::size_t max_copied = 256;  // longer strings are written in pieces
  struct Open {
    std::size_t end;
    bool is_object;
  };
  std::vector<Open> open;
  std::size_t lead = 0;   // 1: a comma is due before the next element or key
  bool key_next = false;  // the next node is a member's key
  // `comma` (0 or 1) ',' then `text`, in one reserved room; the ',' stored first is
  // overwritten when none is due.
  const auto put = [this](std::size_t comma, std::string_view text) {
    char* p = out_.reserve(1 + text.size());
    p[0] = ',';
    std::memcpy(p + comma, text.data(), text.size());
    out_.commit(comma + text.size());
  };
  // `comma` (0 or 1) ',', a string quoted, then `colon` (0 or 1) ':'.
  const auto put_string = [&](std::size_t comma, const DocumentNode& n, std::size_t colon,
                              std::string_view what) {
    const std::string_view s = string_of(d, n);
    const bool plain = n.boolean && !options_.ascii_only;
    if (plain && s.size() <= max_copied) {
      char* p = out_.reserve(s.size() + 4);
      p[0] = ',';
      p[comma] = '"';
      std::memcpy(p + comma + 1, s.data(), s.size());
      p[comma + 1 + s.size()] = '"';
      p[comma + 2 + s.size()] = ':';
      out_.commit(comma + 2 + s.size() + colon);
      return;
    }
    const StringTraits traits = plain ? StringTraits{false, false} : checked_traits(s, what);
    if (comma != 0) out_.put(',');
    write_string(s, traits);
    if (colon != 0) out_.put(':');
  };
  while (i < end) {
    const DocumentNode& n = d.values[i];
    if (key_next) {
      put_string(lead, n, 1, "key");
      lead = 0;
      key_next = false;
      ++i;
      continue;
    }
    const std::size_t at = i++;
    switch (n.type) {
      case Type::null: put(lead, "null"); break;
      case Type::boolean: put(lead, n.boolean ? "true" : "false"); break;
      case Type::int64:
      case Type::uint64: {
        char* p = out_.reserve(1 + max_integer_chars);
        p[0] = ',';
        char* const digits_end =
            n.type == Type::int64
                ? bufstream::format_integer(p + lead, static_cast<std::int64_t>(n.payload))
                : bufstream::format_integer(p + lead, n.payload);
        out_.commit(static_cast<std::size_t>(digits_end - p));
        break;
      }
      case Type::floating: {
        const double x = std::bit_cast<double>(n.payload);
        if (!std::isfinite(x)) [[unlikely]] {
          refuse_non_finite();
          put(lead, "null");
        } else {
          char* p = out_.reserve(1 + max_double_chars);
          p[0] = ',';
          char* const digits_end = format_double(p + lead, x, {.force_fraction = true});
          out_.commit(static_cast<std::size_t>(digits_end - p));
        }
        break;
      }
      case Type::string: put_string(lead, n, 0, "string"); break;
      case Type::array:
      case Type::object: {
        const bool is_object = n.type == Type::object;
        put(lead, is_object ? "{" : "[");
        open.push_back({end_of(d, at), is_object});
        if (open.back().end != i) {  // not empty
          lead = 0;
          key_next = is_object;
          continue;
        }
        break;
      }
    }
    while (!open.empty() && open.back().end == i) {
      out_.put(open.back().is_object ? '}' : ']');
      open.pop_back();
    }
    lead = 1;
    key_next = !open.empty() && open.back().is_object;
  }
}

// Compact output in one pass (above); pretty output node by node in document order through
// the writer's value-by-value calls, without recursion: a stack of the open containers' ends.
Writer& Writer::value(const Value& v) {
  const DocumentData& d = *v.d_;
  if (!pretty_) {
    before_value();
    write_document_compact(d, v.i_, end_of(d, v.i_));
    after_value();
    return *this;
  }
  struct Open {
    std::size_t end;
    bool is_object;
    bool key_next;
  };
  std::vector<Open> open;
  const std::size_t end = end_of(d, v.i_);
  for (std::size_t i = v.i_; i < end;) {
    const DocumentNode& n = d.values[i];
    if (!open.empty() && open.back().is_object) {
      if (open.back().key_next) {
        if (n.boolean && !options_.ascii_only) {
          write_key(string_of(d, n), {false, false});
        } else {
          key(string_of(d, n));
        }
        open.back().key_next = false;
        ++i;
        continue;
      }
      open.back().key_next = true;
    }
    switch (n.type) {
      case Type::null: null(); break;
      case Type::boolean: value(n.boolean); break;
      case Type::int64: value(static_cast<std::int64_t>(n.payload)); break;
      case Type::uint64: value(n.payload); break;
      case Type::floating: value(std::bit_cast<double>(n.payload)); break;
      case Type::string:
        if (n.boolean && !options_.ascii_only) {  // as it was read: no byte to escape
          before_value();
          write_string(string_of(d, n), {false, false});
          after_value();
        } else {
          value(string_of(d, n));
        }
        break;
      case Type::array:
        begin_array();
        open.push_back({end_of(d, i), false, false});
        break;
      case Type::object:
        begin_object();
        open.push_back({end_of(d, i), true, true});
        break;
    }
    ++i;
    while (!open.empty() && open.back().end == i) {
      if (open.back().is_object) {
        end_object();
      } else {
        end_array();
      }
      open.pop_back();
    }
  }
  return *this;
}

}  // namespace bufstream::json
