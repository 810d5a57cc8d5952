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
#include <string_view>
#include <type_traits>
#include <vector>

#include <bufstream/kernels/json_index.hpp>
#include <bufstream/numbers.hpp>
#include <bufstream/utf8.hpp>

#include "indexed_strings.hpp"
#include "number_scan.hpp"

namespace bufstream::json::detail {

namespace {

namespace index = kernels::json_index;

const index::Index index_best = kernels::select(index::index_forms());

// The indexed bytes of a text, one stretch at a time: `next` gives their offsets in order,
// then `size` (the first byte of the padding) again and again.
class Structurals {
 public:
  Structurals(const char* text, std::size_t begin, std::size_t size)
      : text_(text),
        next_stretch_(begin),
        size_(size),
        stretch_blocks_(std::min(max_stretch_blocks, (size - begin + 63) / 64)),
        offsets_(std::make_unique_for_overwrite<std::uint32_t[]>(64 * stretch_blocks_ + 1)) {}

  std::size_t next() {
    if (i_ == n_) [[unlikely]]
      refill();
    return base_ + offsets_[i_++];
  }
  // A control byte was found in a string (JSON allows none there).
  bool control_in_string() const noexcept { return carry_.control_in_string != 0; }

 private:
  static constexpr std::size_t max_stretch_blocks = 256;  // 16 KiB of text

  void refill() {
    while (next_stretch_ < size_) {
      const std::size_t blocks = std::min(stretch_blocks_, (size_ - next_stretch_ + 63) / 64);
      n_ = index_best(text_ + next_stretch_, blocks, carry_, offsets_.get());
      base_ = next_stretch_;
      next_stretch_ += 64 * blocks;
      i_ = 0;
      if (n_ != 0) return;
    }
    base_ = size_;
    offsets_[0] = 0;
    n_ = 1;
    i_ = 0;
  }

  const char* text_;
  std::size_t next_stretch_;
  std::size_t size_;
  std::size_t stretch_blocks_;  // a text shorter than the longest stretch is indexed at once
  std::size_t base_ = 0;
  std::size_t i_ = 0;
  std::size_t n_ = 0;
  index::Carry carry_;
  std::unique_ptr<std::uint32_t[]> offsets_;
};

class Parser {
 public:
  Parser(DocumentData& d, std::size_t begin, std::size_t size, std::size_t max_depth)
      : d_(d), t_(d.text.data()), size_(size), max_depth_(max_depth), index_(t_, begin, size) {}

  bool parse() {
    std::size_t p = index_.next();
  value:
    switch (t_[p]) {
      case '{':
        if (!open(Type::object)) return false;
        p = index_.next();
        if (t_[p] == '}') {
          close();  // empty
          goto after_value;
        }
        goto key;
      case '[':
        if (!open(Type::array)) return false;
        p = index_.next();
        if (t_[p] == ']') {
          close();  // empty
          goto after_value;
        }
        ++open_.back().count;
        goto value;
      case '"':
        if (!string(p)) return false;
        goto after_value;
      case 't':
        if (!literal(p, "true")) return false;
        d_.values.push_back({Type::boolean, true, 0, 0});
        goto after_value;
      case 'f':
        if (!literal(p, "false")) return false;
        d_.values.push_back({Type::boolean, false, 0, 0});
        goto after_value;
      case 'n':
        if (!literal(p, "null")) return false;
        d_.values.push_back({Type::null, false, 0, 0});
        goto after_value;
      default:
        if (!number(p)) return false;
        goto after_value;
    }
  key:
    if (t_[p] != '"' || !string(p)) return false;
    ++open_.back().count;
    if (t_[index_.next()] != ':') return false;
    p = index_.next();
    goto value;
  after_value:
    p = index_.next();
    if (open_.empty()) return p == size_ && !index_.control_in_string();
    if (t_[p] == ',') {
      p = index_.next();
      if (open_.back().is_object) goto key;
      ++open_.back().count;
      goto value;
    }
    if (t_[p] != (open_.back().is_object ? '}' : ']') || !close()) return false;
    goto after_value;
  }

 private:
  struct Open {
    std::size_t node;
    std::size_t count;  // checked against the node's 32 bits when the container closes
    bool is_object;
  };

  bool open(Type type) {
    if (open_.size() >= max_depth_) return false;
    open_.push_back({d_.values.size(), 0, type == Type::object});
    d_.values.push_back({type, false, 0, 0});
    return true;
  }
  // False for more items than a node counts (the event builder then says so).
  bool close() {
    DocumentNode& n = d_.values[open_.back().node];
    if (open_.back().count > std::numeric_limits<std::uint32_t>::max()) [[unlikely]]
      return false;
    n.count = static_cast<std::uint32_t>(open_.back().count);
    n.payload = d_.values.size();
    open_.pop_back();
    return true;
  }

  bool literal(std::size_t p, std::string_view word) const {
    return std::string_view(t_ + p, word.size()) == word &&
           ends_token[static_cast<unsigned char>(t_[p + word.size()])];
  }

  // The string whose opening quote is at `p`; its escapes and its closing quote come next in
  // the index.
  bool string(std::size_t p) {
    const std::size_t start = p + 1;
    std::size_t q = index_.next();
    if (t_[q] == '"') [[likely]] {
      return push_string(start, q - start, true);
    }
    // The end of the text gives the padding's first byte, a space, as the next indexed byte.
    decoded_.clear();
    if (detail::decode_indexed_string(
            t_ + start, t_ + q, t_ + size_, [this] { return t_ + index_.next(); }, decoded_) ==
        nullptr) {
      return false;
    }
    return push_string(d_.values.append_string(decoded_), decoded_.size(), false);
  }
  // `plain`: the string had no escapes, so its bytes need none (the text is valid UTF-8 and a
  // string holds no control byte) and the writer copies it as it is.
  bool push_string(std::size_t offset, std::size_t length, bool plain) {
    if (length > std::numeric_limits<std::uint32_t>::max()) return false;
    d_.values.push_back({Type::string, plain, static_cast<std::uint32_t>(length), offset});
    return true;
  }

  bool number(std::size_t p) {
    const char* const start = t_ + p;
    // The padding's first space ends a number at the end of the text.
    return indexed_number(start, t_ + size_ + 1, [this](auto value, const char*) {
      using T = decltype(value);
      if constexpr (std::is_same_v<T, std::uint64_t>) {
        d_.values.push_back(unsigned_node(value));
      } else if constexpr (std::is_same_v<T, std::int64_t>) {
        d_.values.push_back(negative_integer_node(value));
      } else {
        d_.values.push_back(double_node(value));
      }
    });
  }

  DocumentData& d_;
  const char* t_;
  std::size_t size_;
  std::size_t max_depth_;
  Structurals index_;
  std::vector<Open> open_;
  std::string decoded_;  // the string being decoded, before it goes into the values' block
};

}  // namespace

bool parse_document_text(DocumentData& d, std::size_t begin, std::size_t size,
                         std::size_t max_depth) {
  if (utf8::find_invalid(std::string_view(d.text).substr(begin, size - begin))) return false;
  // About one node per eight bytes of typical JSON.
  d.values.reserve(size / 8 + 1);
  Parser parser(d, begin, size, max_depth);
  return parser.parse();
}

}  // namespace bufstream::json::detail
