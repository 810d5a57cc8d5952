// json::Document's parser: the text is indexed a stretch at a time by the kernel layer's JSON
// indexer (bufstream/kernels/json_index.hpp), and the parser walks the index, from structural
// byte to structural byte, appending nodes. Strings without escapes are not copied: their
// nodes point into the text. Strings with escapes are decoded into the values' block, behind
// the nodes.
//
// The parser only says yes or no; on no, Document::parse has the event reader read the same
// bytes, which says what is wrong and where, exactly as it would over the stream.
#include "document_parser.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <bufstream/kernels/json_index.hpp>
#include <bufstream/numbers.hpp>

#include <bufstream/json/detail/number_scan.hpp>

#include "indexed_strings.hpp"
#include "stretch_index.hpp"

namespace bufstream::json::detail {

namespace {

// Where a walk is in the index: the next offset of the current stretch, the stretch's end,
// and the byte its offsets count from. Pointers, so that the stores of a node's 64-bit payload
// cannot alias them: the walk keeps them in registers.
struct Cursor {
  const std::uint32_t* at;
  const std::uint32_t* end;
  const char* base;
};

// The indexed bytes of a text, one stretch at a time (stretch_index.hpp), and past the last, or
// where the text is not JSON's, the padding's first byte (`size`), a space.
class Structurals {
 public:
  Structurals(const char* text, std::size_t begin, std::size_t size, std::uint32_t* offsets)
      : text_(text),
        size_(size),
        stretch_blocks_(std::min(StretchIndex::max_stretch_blocks,
                                 (size - begin + 63) / 64 + (size == begin))) {
    // A text shorter than the longest stretch is indexed at once.
    index_.start(text + begin, text + begin + 64 * ((size - begin + 63) / 64), stretch_blocks_,
                 stretch_blocks_, offsets);
  }
  // The offsets a text of `size` bytes from `begin` needs room for.
  static std::size_t offsets_for(std::size_t begin, std::size_t size) noexcept {
    return 64 *
           std::min(StretchIndex::max_stretch_blocks, (size - begin + 63) / 64 + (size == begin));
  }

  Cursor next_stretch() noexcept {
    const IndexedPlace w = index_.next();
    if (w.at != w.end) return {w.at, w.end, w.stretch};
    return {&padding_offset_, &padding_offset_ + 1, text_ + size_};
  }
  // Whether the text indexed so far is JSON's: valid UTF-8, no control byte in a string.
  bool valid() const noexcept { return index_.clean(); }

 private:
  const char* text_;
  std::size_t size_;
  std::size_t stretch_blocks_;
  StretchIndex index_;
  static constexpr std::uint32_t padding_offset_ = 0;
};

// The walk's Walk (indexed_walk.hpp): each value a node. Its place in the index, where the
// next node goes and the innermost open container are the Place, a local of parse(); the
// containers around that one wait on a stack.
class Parser {
 public:
  struct Open {
    std::size_t node;
    std::size_t count;  // checked against the node's 32 bits when the container closes
    bool is_object;
  };
  // The parser's working memory, kept from one parse to the next on each thread (at most
  // 64 KiB of offsets): a loop of parses of small documents (API responses, messages)
  // allocates none of it per parse.
  struct Scratch {
    std::unique_ptr<std::uint32_t[]> offsets;
    std::size_t offsets_size = 0;
    std::vector<Open> open;
    std::string decoded;  // the string being decoded, before it goes into the values' block
    std::uint32_t* offsets_for(std::size_t begin, std::size_t size) {
      const std::size_t n = Structurals::offsets_for(begin, size);
      if (offsets_size < n) {
        offsets = std::make_unique_for_overwrite<std::uint32_t[]>(n);
        offsets_size = n;
      }
      return offsets.get();
    }
  };

  Parser(DocumentData& d, std::size_t begin, std::size_t size, std::size_t max_depth,
         Scratch& scratch)
      : d_(d),
        t_(d.text.bytes.get()),
        size_(size),
        max_depth_(max_depth),
        index_(t_, begin, size, scratch.offsets_for(begin, size)),
        open_(scratch.open),
        decoded_(scratch.decoded) {}

  // The walk's place: in the index, in the values' block (its first node, where the next
  // goes), and the innermost open container (its node, its items so far, the depth).
  struct Place {
    Cursor at;
    DocumentNode* out;
    DocumentNode* first;
    std::size_t node;
    std::size_t count;
    std::size_t depth;
  };

  static constexpr bool stops() { return false; }  // the padding ends every walk

  bool parse() {
    Place s = refill({{nullptr, nullptr, nullptr}, d_.values.room_for(1), nullptr, 0, 0, 0});
    if (walk_index(*this, s, false, false) != IndexedNext::done) return false;
    const char* const p = next(s);
    d_.values.set_end(s.out);
    return p == t_ + size_ && index_.valid();
  }

  // ---- The hooks ----------------------------------------------------------------------------

  // The next stretch of the index, and room in the values' block for a node per offset in it
  // (a value starts at an indexed byte) and one more (a string's node goes in after its
  // closing quote's offset, which may be the next stretch's first). Past the text's end, the
  // padding's first byte, a space, which no grammar rule takes.
  [[gnu::always_inline]] const char* next(Place& s) {
    if (s.at.at == s.at.end) [[unlikely]]
      s = refill(s);
    return s.at.base + *s.at.at++;
  }
  // The padding's spaces end a literal at the end of the text.
  [[gnu::always_inline]] const char* limit() const { return t_ + size_ + document_padding; }

  // The string whose opening quote is at `p`; its escapes and its closing quote come next in
  // the index.
  [[gnu::always_inline]] bool string(Place& s, const char* p) {
    const char* const start = p + 1;
    const char* const q = next(s);
    if (*q == '"') [[likely]] {
      const auto length = static_cast<std::size_t>(q - start);
      if (length > std::numeric_limits<std::uint32_t>::max()) return false;
      *s.out++ = {Type::string, true, static_cast<std::uint32_t>(length),
                  static_cast<std::uint64_t>(start - t_)};
      return true;
    }
    s = escaped_string(start, q, s);
    return s.out != nullptr;
  }
  [[gnu::always_inline]] void boolean(Place& s, const char*, bool value) {
    *s.out++ = {Type::boolean, value, 0, 0};
  }
  [[gnu::always_inline]] void null(Place& s, const char*) { *s.out++ = {Type::null, false, 0, 0}; }
  [[gnu::always_inline]] bool number(Place& s, const char* start) {
    // The padding's first space ends a number at the end of the text.
    return indexed_number(start, t_ + size_ + 1, [&s](auto value, const char*) {
      using T = decltype(value);
      if constexpr (std::is_same_v<T, std::uint64_t>) {
        *s.out++ = unsigned_node(value);
      } else if constexpr (std::is_same_v<T, std::int64_t>) {
        *s.out++ = negative_integer_node(value);
      } else {
        *s.out++ = double_node(value);
      }
    });
  }
  [[gnu::always_inline]] bool key(Place& s, const char* p) {
    if (!string(s, p)) return false;
    ++s.count;
    return *next(s) == ':';
  }
  // Opens a container at its node, which is the next; false past the depth limit.
  [[gnu::always_inline]] bool open(Place& s, const char*, bool is_object, bool in_object) {
    if (s.depth >= max_depth_) return false;
    if (s.depth != 0) {
      if (s.depth - 1 == open_.size()) [[unlikely]]
        open_.resize(std::min(max_depth_, 2 * s.depth + 14));
      open_[s.depth - 1] = {s.node, s.count, in_object};
    }
    ++s.depth;
    s.node = static_cast<std::size_t>(s.out - s.first);
    s.count = 0;
    *s.out++ = {is_object ? Type::object : Type::array, false, 0, 0};
    return true;
  }
  // Closes the innermost container; false for more items than a node counts (the event
  // builder then says so).
  [[gnu::always_inline]] bool close(Place& s, const char*, bool, bool& in_object) {
    if (s.count > std::numeric_limits<std::uint32_t>::max()) [[unlikely]]
      return false;
    DocumentNode& n = s.first[s.node];
    n.count = static_cast<std::uint32_t>(s.count);
    n.payload = static_cast<std::uint64_t>(s.out - s.first);
    if (--s.depth != 0) {
      const Open& o = open_[s.depth - 1];
      s.node = o.node;
      s.count = o.count;
      in_object = o.is_object;
    }
    return true;
  }
  [[gnu::always_inline]] void element(Place& s) { ++s.count; }
  [[gnu::always_inline]] void array_comma(const char*) {}
  [[gnu::always_inline]] bool at_top(const Place& s) const { return s.depth == 0; }

 private:
  // An open container around the innermost one.
  [[gnu::noinline]] Place refill(Place s) {
    d_.values.set_end(s.out);
    s.at = index_.next_stretch();
    s.out = d_.values.room_for(static_cast<std::size_t>(s.at.end - s.at.at) + 1);
    s.first = d_.values.data();
    return s;
  }

  // A string with escapes: decoded into the values' block, behind the nodes. The walk's
  // place after it, by value (so that the walk's stays in registers); `out` null for a string
  // JSON does not allow.
  [[gnu::noinline]] Place escaped_string(const char* start, const char* q, Place s) {
    // The end of the text gives the padding's first byte, a space, as the next indexed byte.
    decoded_.clear();
    if (detail::decode_indexed_string(
            start, q, t_ + size_, [&s, this] { return next(s); }, decoded_) == nullptr ||
        decoded_.size() > std::numeric_limits<std::uint32_t>::max()) {
      s.out = nullptr;
      return s;
    }
    d_.values.set_end(s.out);
    const std::uint64_t offset = d_.values.append_string(decoded_);
    // The strings took room from the nodes': room again for the stretch's.
    s.out = d_.values.room_for(static_cast<std::size_t>(s.at.end - s.at.at) + 1);
    s.first = d_.values.data();
    *s.out++ = {Type::string, false, static_cast<std::uint32_t>(decoded_.size()), offset};
    return s;
  }

  DocumentData& d_;
  const char* t_;
  std::size_t size_;
  std::size_t max_depth_;
  Structurals index_;
  std::vector<Open>& open_;
  std::string& decoded_;
};

}  // namespace

bool parse_document_text(DocumentData& d, std::size_t begin, std::size_t size,
                         std::size_t max_depth) {
  // About one node per eight bytes of typical JSON.
  d.values.reserve(size / 8 + 1);
  thread_local Parser::Scratch scratch;
  Parser parser(d, begin, size, max_depth, scratch);
  const bool parsed = parser.parse();
  if (scratch.decoded.capacity() > (std::size_t{64} << 10)) std::string().swap(scratch.decoded);
  return parsed;
}

}  // namespace bufstream::json::detail
