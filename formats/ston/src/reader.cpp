#include <bufstream/ston/reader.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <exception>
#include <deque>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include <bufstream/memory_read_stream.hpp>
#include <bufstream/numbers.hpp>
#include <bufstream/utf8.hpp>

#include "access.hpp"

namespace bufstream::ston {

namespace {

using detail::Access;
using detail::Node;

constexpr bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }
constexpr bool is_upper(char c) noexcept { return c >= 'A' && c <= 'Z'; }
constexpr bool is_letter(char c) noexcept { return is_upper(c) || (c >= 'a' && c <= 'z'); }

// Bytes that end the plain run of a string: its delimiter, a backslash, a line feed (lines are
// counted) and every non-ASCII byte (validated as UTF-8). One table per delimiter.
constexpr std::array<bool, 256> string_stops(char quote) {
  std::array<bool, 256> t{};
  t[static_cast<unsigned char>(quote)] = true;
  t['\\'] = true;
  t['\n'] = true;
  for (std::size_t i = 0x80; i < 256; ++i) t[i] = true;
  return t;
}
constexpr auto single_quote_stops = string_stops('\'');
constexpr auto double_quote_stops = string_stops('"');

// Characters of a bare symbol. Pharo's reader takes any letter (`isLetter`), so bytes of
// non-ASCII UTF-8 sequences are accepted too and validated afterwards; the writer only writes
// ASCII symbols bare.
constexpr bool is_symbol_char(char c) noexcept {
  return is_letter(c) || is_digit(c) || c == '-' || c == '_' || c == '.' || c == '/' ||
         static_cast<unsigned char>(c) >= 0x80;
}
constexpr bool is_tag_char(char c) noexcept { return is_letter(c) || is_digit(c) || c == '_'; }

int hex_value(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

struct Reader::Impl {
  struct Pending {
    std::uint64_t number;
    SourcePosition where;
  };

  ReadStream& in;
  ReadOptions options;
  LineTracker lines;
  Document* doc = nullptr;
  // The numbered objects of the value being read. Containers are numbered as they are made,
  // so object N is the document's node `first_node + N - 1`, less one for each special float
  // numbered before it: `Float[#nan]` is numbered like any tagged object but becomes a double
  // and its node is dropped. Nothing is stored per container, so a large document costs no
  // table that grows (and page-faults) alongside it.
  struct SpecialFloat {
    std::uint64_t number;
    double value;
  };
  std::size_t first_node = 0;
  std::uint64_t object_count = 0;
  std::vector<SpecialFloat> special_floats;  // in number order
  std::vector<Pending> pending;
  std::size_t depth = 0;
  std::string spill;        // for runs that straddle windows
  std::string digits[3];    // the digit groups of a number
  std::vector<std::size_t> size_hints;  // by depth: the size of the last list completed there
  std::vector<MapEntry> entries;   // entries of the open maps, innermost last

  std::exception_ptr error;  // the first failure: every later call throws it again

  Impl(ReadStream& stream, ReadOptions opts) : in(stream), options(std::move(opts)) {}

  // Runs one call of the public interface. After a failure the stream stands in the middle of
  // a token (or of a value), so going on would parse nonsense: the failure is kept and thrown
  // again instead, as the stream itself does with its own errors.
  template <class Call>
  auto sticky(Call call) -> decltype(call()) {
    if (error) std::rethrow_exception(error);
    try {
      return call();
    } catch (...) {
      error = std::current_exception();
      throw;
    }
  }

  // ---- Positions and errors ---------------------------------------------------------------

  SourcePosition here() const { return lines.at(in.position()); }

  [[noreturn]] void fail(SourcePosition where, std::string message) const {
    throw ParseError(where, std::move(message), options.source_name);
  }

  int peek() {
    if (in.cursor() != in.limit()) [[likely]] return static_cast<unsigned char>(*in.cursor());
    const std::string_view w = in.fill(1);
    return w.empty() ? -1 : static_cast<unsigned char>(w[0]);
  }

  [[noreturn]] void fail_expected(std::string_view expected) {
    fail(here(), fmt::format("expected {} but found {}", expected, describe_byte(peek())));
  }

  void expect(char c, std::string_view expected) {
    if (peek() != static_cast<unsigned char>(c)) fail_expected(expected);
    in.advance(1);
  }

  // Counts one level of nesting, at the opening bracket (or the ':' of an association), which is
  // where a too-deep error points. The level is left when its container or association closes.
  void enter_level() {
    if (++depth > options.max_depth) {
      fail(here(), fmt::format("nesting deeper than {} levels (ReadOptions::max_depth)",
                               options.max_depth));
    }
  }

  // ---- Whitespace and comments ------------------------------------------------------------

  void skip_whitespace() {
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
        if (*p == '\xEF' && options.skip_bom && in.position() == 0 && in.fill(3).starts_with("\xEF\xBB\xBF")) {
          in.advance(3);
          continue;
        }
        return;
      }
      if (in.fill(1).empty()) return;
    }
  }

  // At a '/': skips a comment and returns true, or returns false if it does not start one.
  bool skip_comment() {
    const std::string_view w = in.fill(2);
    if (w.size() < 2 || (w[1] != '/' && w[1] != '*')) return false;
    const SourcePosition start = here();
    const bool line_comment = w[1] == '/';
    in.advance(2);
    bool star = false;  // the previous byte of a block comment was '*'
    for (;;) {
      const char* p = in.cursor();
      const char* end = in.limit();
      for (; p != end; ++p) {
        const char c = *p;
        if (c == '\n') {
          lines.new_line(in.position() + static_cast<std::uint64_t>(p + 1 - in.cursor()));
          if (line_comment) {
            in.set_cursor(p + 1);
            return true;
          }
        } else if (!line_comment && star && c == '/') {
          in.set_cursor(p + 1);
          return true;
        }
        star = c == '*';
      }
      in.set_cursor(p);
      if (in.fill(1).empty()) {
        if (line_comment) return true;
        fail(start, "unterminated comment: expected '*/' but found end of input");
      }
    }
  }

  // ---- Values -----------------------------------------------------------------------------
  //
  // The grammar is read without recursion: every open list, map and association is a Frame on
  // an explicit stack, so nesting is bounded by ReadOptions::max_depth (and memory), never by
  // the call stack. The order in which tokens are read, containers numbered and errors found
  // is that of the recursive grammar:
  //
  //   value := simple-value [':' value]                  (associations are right-associative)
  //   list  := '[' [ value { ',' value } ] ']'
  //   map   := '{' [ simple-value ':' value { ',' simple-value ':' value } ] '}'
  //   tagged := Tag list | Tag map
  //
  // A map key is a simple value, so `{#a:#b:#c}` maps #a to the association #b:#c (as Pharo
  // does).

  enum class Open : std::uint8_t {
    list,         // after '[' or ',': an element is next
    map_key,      // after '{' or ',': a key is next
    map_value,    // after a key's ':': its value is next (the key waits on `keys`)
    association,  // after ':': the value is next (the key waits on `keys`)
  };
  struct Frame {
    Open open;
    Node* node;                  // the list or map (null for an association)
    std::uint64_t tagged_number; // a tagged object's number; 0 for a plain container
    std::size_t entries_base;    // a map's first entry in `entries`
  };
  std::vector<Frame> frames;  // innermost last
  std::vector<Value> keys;    // the keys of open map entries and associations, innermost last

  Value read_top(Document& d) {
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

  // Reads one value and the whitespace after it.
  Value parse_value() {
    for (;;) {
      // A simple value starts at the cursor (the whitespace before it is skipped).
      bool opened = false;
      Value v = start_simple_value(opened);
      if (opened) continue;  // a container with elements: its first one starts at the cursor
      if (complete(v)) return v;
    }
  }

  // `v` is a complete simple value, just read. Finishes it, and every frame that it completes:
  // returns true when `v` has become the whole value, false when the next value to read starts
  // at the cursor.
  bool complete(Value& v) {
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

  // At ':' after the simple value `key` (in value position): the association's value is next.
  void open_association(Value&& key) {
    enter_level();
    in.advance(1);
    skip_whitespace();
    keys.push_back(std::move(key));
    frames.push_back({Open::association, nullptr, 0, 0});
  }

  // Appends the complete element `v` to the innermost list, then reads on: elements that are
  // simple values are read here, in one loop (the rows of a table). Returns true when the list
  // is closed, false when its next element (a container or an association) starts at the cursor
  // or is being read.
  bool continue_list(Node* node, Value&& v) {
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

  // Reads a simple value, or opens a list, map or tagged object: then `opened` is set when it
  // has elements to read (its frame is pushed), and an empty one is returned complete.
  Value start_simple_value(bool& opened) {
    const int c = peek();
    if (c == '[') return open_container(nullptr, 0, false, opened);
    if (c == '{') return open_container(nullptr, 0, true, opened);
    if (c >= 'A' && c <= 'Z') return open_tagged(opened);
    return read_simple_value(c);
  }

  // A simple value other than a container, starting with `c` (the byte at the cursor).
  Value read_simple_value(int c) {
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

  Value parse_constant() {
    const SourcePosition start = here();
    const std::string_view word = in.next_while(is_tag_char, spill);
    if (word == "true") return true;
    if (word == "false") return false;
    // Pharo's reader takes JSON's null for nil.
    if (word == "nil" || word == "null") return nullptr;
    fail(start, fmt::format("expected a value but found '{}'", word));
  }

  // At '[' or '{'. Numbers the container (pre-order: before its children; a tagged object's
  // `node` was numbered with its tag). A list's elements go straight into its node, which
  // reserves as many as the last list completed at the same depth had: rows of a table then
  // cost one allocation each.
  Value open_container(Node* node, std::uint64_t tagged_number, bool is_map, bool& opened) {
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

  Value open_tagged(bool& opened) {
    const std::string_view tag = in.next_while(is_tag_char, spill);
    Node* node = Access::new_node(*doc, tag, false);
    skip_whitespace();
    const int c = peek();
    if (c != '[' && c != '{') fail_expected(fmt::format("'[' or '{{' after the tag {}", node->tag));
    node->is_map = c == '{';
    const std::uint64_t number = ++object_count;
    return open_container(node, number, c == '{', opened);
  }

  // The value of a container whose closing bracket has been read. Float[#nan],
  // Float[#infinity] and Float[#negativeInfinity] are how STON writes the special doubles: they
  // become doubles again, keeping their number (Pharo numbers them too, so later references
  // still count right).
  Value closed_container(Node* node, std::uint64_t tagged_number) {
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

  Value parse_symbol() {
    const SourcePosition start = here();
    in.advance(1);  // '#'
    const int c = peek();
    std::string name;
    // Pharo quotes symbols with ' only; a " is accepted too, as for strings.
    if (c == '\'' || c == '"') {
      const SourcePosition quote = here();
      in.advance(1);
      read_string_body(static_cast<char>(c), name, quote);
      return Symbol{std::move(name)};
    }
    name = in.next_while(is_symbol_char, spill);
    if (name.empty()) fail_expected("a symbol name or a quote after '#'");
    if (auto bad = utf8::find_invalid(name)) {
      fail({start.offset + 1 + bad->offset, start.line, start.column + 1 + bad->offset},
           fmt::format("{} in a symbol", utf8::describe(bad->error)));
    }
    return Symbol{std::move(name)};
  }

  Value parse_reference() {
    const SourcePosition start = here();
    in.advance(1);  // '@'
    // Pharo's expectChar: skips whitespace after the '@', so `@ 3` is a reference too.
    skip_whitespace();
    std::string& d = digits[0];
    d.clear();
    append_digits(d, start);
    if (d.empty()) fail_expected("a reference number after '@'");
    const auto number = parse_integer<std::uint64_t>(d);
    if (!number) fail(start, fmt::format("reference @{} does not exist", d));
    pending.push_back({*number, start});
    return Access::pending(*number);
  }

  // ---- Numbers ----------------------------------------------------------------------------

  void append_digits(std::string& out, SourcePosition start) {
    for (;;) {
      const char* p = in.cursor();
      const char* end = in.limit();
      while (p != end && is_digit(*p)) ++p;
      out.append(in.cursor(), static_cast<std::size_t>(p - in.cursor()));
      in.set_cursor(p);
      if (out.size() > options.max_number_length) {
        fail(start, fmt::format("number longer than {} digits (ReadOptions::max_number_length)",
                                options.max_number_length));
      }
      if (p != end || in.fill(1).empty()) return;
    }
  }

  void require_digits(std::string& out, SourcePosition start, std::string_view after) {
    out.clear();
    append_digits(out, start);
    if (out.empty()) fail_expected(fmt::format("a digit after {}", after));
  }

  static std::string_view strip_zeros(std::string_view d) {
    const std::size_t first = d.find_first_not_of('0');
    return first == std::string_view::npos ? std::string_view("0") : d.substr(first);
  }

  // The reference implementation's number rules: '-'? digits, then either '/' digits
  // ['s' digits] (a fraction or scaled decimal), or ['.' digits] [('e'|'E') ['-'|'+'] digits].
  // Only a '.' makes a float: 1e3 is the integer 1000 and 1e-2 the fraction 1/100. Pharo also
  // accepts a '.' or an exponent marker with no digits after it (`1.` is 1.0, `1e` is 1); so
  // do we.
  Value parse_number() {
    if (auto fast = parse_plain_number_in_window()) return *fast;
    return parse_number_slow();
  }

  // The common numbers, `-?digits` (up to 18 digits) and `-?digits.digits[e[-+]digits]`, when
  // the token and the byte after it lie in the window: converted in place, no copy.
  std::optional<Value> parse_plain_number_in_window() {
    const char* const start = in.cursor();
    const char* const end = in.limit();
    const char* p = start;
    const bool negative = p != end && *p == '-';
    if (negative) ++p;
    const char* const whole = p;
    while (p != end && is_digit(*p)) ++p;
    const auto length = static_cast<std::size_t>(p - whole);
    if (length == 0 || p == end) return std::nullopt;
    if (*p != '.' && *p != '/' && *p != 'e' && *p != 'E') {
      if (length > 18) return std::nullopt;
      std::int64_t value = 0;
      for (const char* d = whole; d != p; ++d) value = value * 10 + (*d - '0');
      in.set_cursor(p);
      return Value(negative ? -value : value);
    }
    if (*p != '.') return std::nullopt;
    const char* const fraction = ++p;
    while (p != end && is_digit(*p)) ++p;
    if (p == fraction || p == end) return std::nullopt;
    if (*p == 'e' || *p == 'E') {
      ++p;
      if (p != end && (*p == '-' || *p == '+')) ++p;
      const char* const exponent = p;
      while (p != end && is_digit(*p)) ++p;
      if (p == exponent || p == end) return std::nullopt;
    }
    const auto d = parse_double(std::string_view(start, static_cast<std::size_t>(p - start)));
    if (!d) return std::nullopt;
    in.set_cursor(p);
    return Value(*d);
  }

  Value parse_number_slow() {
    const SourcePosition start = here();
    const bool negative = peek() == '-';
    if (negative) in.advance(1);
    std::string& whole = digits[0];
    require_digits(whole, start, negative ? "'-'" : "the start of a number");
    int c = peek();
    if (c == '/') {
      in.advance(1);
      std::string& denominator = digits[1];
      require_digits(denominator, start, "'/'");
      const Integer n = detail::integer_from_digits(negative, strip_zeros(whole));
      const Integer d = detail::integer_from_digits(false, strip_zeros(denominator));
      if (d.sign() == 0) fail(start, "a fraction with a zero denominator");
      if (peek() == 's') {
        in.advance(1);
        std::string& scale = digits[2];
        require_digits(scale, start, "'s'");
        const auto s = parse_integer<std::uint32_t>(strip_zeros(scale));
        if (!s) fail(start, fmt::format("scale {} is too large", scale));
        return Value::scaled_decimal(n, d, *s);
      }
      return Value::fraction(n, d);
    }
    bool is_float = false;
    std::string& fraction = digits[1];
    fraction.clear();
    if (c == '.') {
      in.advance(1);
      is_float = true;
      append_digits(fraction, start);
      c = peek();
    }
    bool has_exponent = false, negative_exponent = false;
    std::string& exponent = digits[2];
    exponent.clear();
    if (c == 'e' || c == 'E') {
      in.advance(1);
      has_exponent = true;
      c = peek();
      if (c == '-' || c == '+') {
        negative_exponent = c == '-';
        in.advance(1);
      }
      append_digits(exponent, start);
    }
    if (is_float) return make_float(negative, whole, fraction, negative_exponent, exponent);
    const std::string_view mantissa = strip_zeros(whole);
    if (!has_exponent || exponent.empty() || mantissa == "0") {
      return Value(detail::integer_from_digits(negative, mantissa));
    }
    const std::string_view e = strip_zeros(exponent);
    const auto k = parse_integer<std::size_t>(e);
    if (!k || *k > options.max_number_length) {
      fail(start, fmt::format("exponent {} is larger than {} (ReadOptions::max_number_length)", e,
                              options.max_number_length));
    }
    if (!negative_exponent) {
      std::string scaled(mantissa);
      scaled.append(*k, '0');
      return Value(detail::integer_from_digits(negative, scaled));
    }
    std::string power = "1";
    power.append(*k, '0');
    return Value::fraction(detail::integer_from_digits(negative, mantissa),
                           detail::integer_from_digits(false, power));
  }

  Value make_float(bool negative, const std::string& whole, const std::string& fraction,
                   bool negative_exponent, const std::string& exponent) {
    std::string text;
    text.reserve(whole.size() + fraction.size() + exponent.size() + 5);
    if (negative) text.push_back('-');
    text.append(whole);
    text.push_back('.');
    text.append(fraction.empty() ? std::string_view("0") : std::string_view(fraction));
    if (!exponent.empty()) {
      text.push_back('e');
      if (negative_exponent) text.push_back('-');
      text.append(exponent);
    }
    if (auto d = parse_double(text)) return *d;
    // Too large for a double: Pharo's arithmetic overflows to infinity, and so do we.
    return negative ? -HUGE_VAL : HUGE_VAL;
  }

  // ---- Strings ----------------------------------------------------------------------------

  // Reads after the opening `quote` up to and including the closing one. Raw line breaks are
  // kept; escapes are decoded; the text must be valid UTF-8.
  void read_string_body(char quote, std::string& out, SourcePosition start) {
    const std::array<bool, 256>& stops = quote == '\'' ? single_quote_stops : double_quote_stops;
    for (;;) {
      const char* p = in.cursor();
      const char* end = in.limit();
      while (p != end && !stops[static_cast<unsigned char>(*p)]) ++p;
      out.append(in.cursor(), static_cast<std::size_t>(p - in.cursor()));
      in.set_cursor(p);
      if (p == end) {
        if (in.fill(1).empty()) {
          fail(start, fmt::format("unterminated string: expected {} but found end of input",
                                  describe_byte(static_cast<unsigned char>(quote))));
        }
        continue;
      }
      const char c = *p;
      if (c == quote) {
        in.advance(1);
        return;
      }
      if (c == '\\') {
        read_escape(out);
      } else if (c == '\n') {
        out.push_back('\n');
        in.advance(1);
        lines.new_line(in.position());
      } else {
        read_utf8(out);
      }
    }
  }

  void read_utf8(std::string& out) {
    const std::string_view w = in.fill(4);
    const utf8::Decoded d = utf8::decode(w.data(), w.data() + w.size());
    if (d.error != utf8::Error::none) {
      fail(here(), fmt::format("{} in a string", utf8::describe(d.error)));
    }
    out.append(w.data(), d.length);
    in.advance(d.length);
  }

  void read_escape(std::string& out) {
    const SourcePosition at = here();
    std::string_view w = in.fill(2);
    if (w.size() < 2) fail(at, "unterminated string: expected an escape but found end of input");
    char decoded = 0;
    switch (w[1]) {
      case '\'': decoded = '\''; break;
      case '"': decoded = '"'; break;
      case '/': decoded = '/'; break;
      case '\\': decoded = '\\'; break;
      case 'b': decoded = '\b'; break;
      case 'f': decoded = '\f'; break;
      case 'n': decoded = '\n'; break;
      case 'r': decoded = '\r'; break;
      case 't': decoded = '\t'; break;
      case 'u': read_unicode_escape(out, at); return;
      default:
        fail(at, fmt::format("invalid escape: expected one of ' \" / \\ b f n r t u after '\\' "
                             "but found {}",
                             describe_byte(static_cast<unsigned char>(w[1]))));
    }
    out.push_back(decoded);
    in.advance(2);
  }

  // `\uXXXX` at the cursor (already checked: backslash, 'u'); returns the code unit or fails.
  std::uint32_t hex4(std::string_view w, std::size_t at, SourcePosition where) {
    std::uint32_t unit = 0;
    for (std::size_t i = at; i < at + 4; ++i) {
      const int h = i < w.size() ? hex_value(w[i]) : -1;
      if (h < 0) {
        fail(where, fmt::format("expected four hex digits after \\u but found {}",
                                i < w.size() ? describe_byte(static_cast<unsigned char>(w[i]))
                                             : std::string("end of input")));
      }
      unit = unit * 16 + static_cast<std::uint32_t>(h);
    }
    return unit;
  }

  void read_unicode_escape(std::string& out, SourcePosition at) {
    std::string_view w = in.fill(6);
    std::uint32_t cp = hex4(w, 2, at);
    std::size_t length = 6;
    if (cp >= 0xDC00 && cp <= 0xDFFF) {
      // Pharo would make a lone surrogate Character; UTF-8 cannot hold one.
      fail(at, fmt::format("a low surrogate \\u{:04X} without a high surrogate before it", cp));
    }
    if (cp >= 0xD800 && cp <= 0xDBFF) {
      w = in.fill(12);
      if (w.size() < 8 || w[6] != '\\' || w[7] != 'u') {
        fail(at, fmt::format("a high surrogate \\u{:04X} must be followed by a \\u low surrogate",
                             cp));
      }
      const std::uint32_t low = hex4(w, 8, at);
      if (low < 0xDC00 || low > 0xDFFF) {
        fail(at, fmt::format("a high surrogate \\u{:04X} must be followed by a low surrogate, "
                             "not \\u{:04X}",
                             cp, low));
      }
      cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
      length = 12;
    }
    char buffer[4];
    const char* end = utf8::encode(static_cast<char32_t>(cp), buffer);
    out.append(buffer, static_cast<std::size_t>(end - buffer));
    in.advance(length);
  }

  // ---- References -------------------------------------------------------------------------

  // Object `number` (1 .. object_count).
  Value object(std::uint64_t number) const {
    const auto special = std::lower_bound(
        special_floats.begin(), special_floats.end(), number,
        [](const SpecialFloat& f, std::uint64_t n) { return f.number < n; });
    if (special != special_floats.end() && special->number == number) return Value(special->value);
    const auto dropped = static_cast<std::uint64_t>(special - special_floats.begin());
    return Access::of(&Access::nodes(*doc)[first_node + static_cast<std::size_t>(number - 1 - dropped)]);
  }

  void resolve(Value& root) {
    for (const Pending& p : pending) {
      if (p.number == 0 || p.number > object_count) {
        fail(p.where, fmt::format("reference @{} does not exist: the value has {} object{}",
                                  p.number, object_count, object_count == 1 ? "" : "s"));
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

  // Replaces a pending reference; looks inside associations (containers are visited through
  // the document's nodes). Associations may nest as deep as max_depth: their parts are visited
  // with an explicit stack.
  void resolve_value(Value& v) {
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
  std::vector<Value*> resolve_stack;  // resolve_value's, kept for its capacity
};

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
