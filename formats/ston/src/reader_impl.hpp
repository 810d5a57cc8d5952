// The STON reader's state and its parts (private to the library). Reader::Impl is one object
// per reader; its work is split by concern over three files:
//   reader.cpp          values and containers without recursion, references, the public calls
//   reader_text.cpp     strings, symbols, escapes and comments
//   reader_numbers.cpp  integers of any size, floats, fractions and scaled decimals, and
//                       the numbers of references (`@3`)
#pragma once

#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include <bufstream/errors.hpp>
#include <bufstream/read_stream.hpp>
#include <bufstream/ston/reader.hpp>

#include "access.hpp"

namespace bufstream::ston {

namespace reading {

constexpr bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }
constexpr bool is_upper(char c) noexcept { return c >= 'A' && c <= 'Z'; }
constexpr bool is_letter(char c) noexcept { return is_upper(c) || (c >= 'a' && c <= 'z'); }
constexpr bool is_tag_char(char c) noexcept { return is_letter(c) || is_digit(c) || c == '_'; }

struct ScannedNumber;  // a number's parts (reader_numbers.cpp)

}  // namespace reading

struct Reader::Impl {
  using Node = detail::Node;

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
  std::string spill;                    // for runs that straddle windows
  std::vector<std::size_t> size_hints;  // by depth: the size of the last list completed there
  std::vector<MapEntry> entries;        // entries of the open maps, innermost last

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
    if (in.cursor() != in.limit()) [[likely]]
      return static_cast<unsigned char>(*in.cursor());
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

  // Skips whitespace, and comments when they are allowed, before the next token. Most tokens
  // follow the one before directly: one test of the next byte takes them.
  void skip_whitespace() {
    if (in.cursor() != in.limit()) [[likely]] {
      const auto c = static_cast<unsigned char>(*in.cursor());
      if (c > ' ' && c != '/' && c != 0xEF) return;
    }
    skip_whitespace_slow();
  }
  void skip_whitespace_slow();

  // At a '/': skips a comment and returns true, or returns false if it does not start one.
  bool skip_comment();

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
    Node* node;                   // the list or map (null for an association)
    std::uint64_t tagged_number;  // a tagged object's number; 0 for a plain container
    std::size_t entries_base;     // a map's first entry in `entries`
  };
  std::vector<Frame> frames;  // innermost last
  std::vector<Value> keys;    // the keys of open map entries and associations, innermost last

  Value read_top(Document& d);

  // Reads one value and the whitespace after it.
  Value parse_value();

  // `v` is a complete simple value, just read. Finishes it, and every frame that it completes:
  // returns true when `v` has become the whole value, false when the next value to read starts
  // at the cursor.
  bool complete(Value& v);

  // At ':' after the simple value `key` (in value position): the association's value is next.
  void open_association(Value&& key);

  // Appends the complete element `v` to the innermost list, then reads on: elements that are
  // simple values are read here, in one loop (the rows of a table). Returns true when the list
  // is closed, false when its next element (a container or an association) starts at the cursor
  // or is being read.
  bool continue_list(Node* node, Value&& v);

  // Reads a simple value, or opens a list, map or tagged object: then `opened` is set when it
  // has elements to read (its frame is pushed), and an empty one is returned complete.
  Value start_simple_value(bool& opened);

  // A simple value other than a container, starting with `c` (the byte at the cursor).
  Value read_simple_value(int c);

  Value parse_constant();

  // At '[' or '{'. Numbers the container (pre-order: before its children; a tagged object's
  // `node` was numbered with its tag). A list's elements go straight into its node, which
  // reserves as many as the last list completed at the same depth had: rows of a table then
  // cost one allocation each.
  Value open_container(Node* node, std::uint64_t tagged_number, bool is_map, bool& opened);

  Value open_tagged(bool& opened);

  // The value of a container whose closing bracket has been read. Float[#nan],
  // Float[#infinity] and Float[#negativeInfinity] are how STON writes the special doubles: they
  // become doubles again, keeping their number (Pharo numbers them too, so later references
  // still count right).
  Value closed_container(Node* node, std::uint64_t tagged_number);

  Value parse_symbol();

  Value parse_reference();

  // ---- Numbers (reader_numbers.cpp) -------------------------------------------------------

  // At a '-' or a digit: an integer of any size, a float, a fraction or a scaled decimal.
  Value parse_number();

  // The number at the cursor, scanned again over a grown window: it reached the window's end.
  reading::ScannedNumber scan_number_grown();

  // The value of a number that parse_number did not take on its short path, or its error.
  Value number_value(const reading::ScannedNumber& n);
  // The float at the cursor, which `n` scanned, and the cursor after it; an error at the cursor
  // when it lies beyond the range of double.
  Value float_number(const reading::ScannedNumber& n);

  // ---- Strings ----------------------------------------------------------------------------

  // Reads after the opening `quote` up to and including the closing one. Raw line breaks are
  // kept; escapes are decoded; the text must be valid UTF-8.
  void read_string_body(char quote, std::string& out, SourcePosition start);

  void read_utf8(std::string& out);

  void read_escape(std::string& out);

  // ---- References -------------------------------------------------------------------------

  // Object `number` (1 .. object_count).
  Value object(std::uint64_t number) const;

  void resolve(Value& root);

  // Replaces a pending reference; looks inside associations (containers are visited through
  // the document's nodes). Associations may nest as deep as max_depth: their parts are visited
  // with an explicit stack.
  void resolve_value(Value& v);
  std::vector<Value*> resolve_stack;  // resolve_value's, kept for its capacity
};

}  // namespace bufstream::ston
