// Where a chunk of a parallel CSV read may end: after a line end outside quotes.
//
// A chunk starts where a record starts, where the quotes before it are even in number (in
// strict RFC 4180 a quote opens a field, closes it, or is one of a doubled pair inside it, so
// their parity says whether a byte lies inside quotes). For a chunk of about N bytes the quotes
// of its first N bytes are counted (kernels::count_byte, the quote-parity pass), and from there
// the bytes are scanned for quotes and line ends (kernels::ByteSet) with that parity until a
// line end outside quotes: the chunk ends after it (after the LF of a CR LF). If the input is
// malformed the parity may be wrong after the first error, but every chunk up to the one that
// holds it starts where the sequential reader starts a record, and that one's reader reports
// the error (see csv/parallel.hpp).
#include <algorithm>
#include <memory>

#include <bufstream/csv/parallel.hpp>
#include <bufstream/kernels/byte_count.hpp>
#include <bufstream/kernels/byte_set.hpp>

namespace bufstream::csv::detail {

namespace {

class CsvBoundaries final : public ChunkBoundaries {
 public:
  explicit CsvBoundaries(bool skip_empty_lines) : skip_empty_lines_(skip_empty_lines) {}

  void start_chunk(bool first) noexcept override {
    first_ = first;
    scanned_ = not_started;
    quoted_ = false;
  }

  bool first_alone() const noexcept override { return true; }

  std::uint64_t summarize(std::string_view piece) const noexcept override {
    return kernels::count_byte(piece.data(), piece.size(), '"') & 1;
  }

  std::optional<std::size_t> find_from(std::string_view text, std::size_t from, std::uint64_t state,
                                       std::size_t limit) const override {
    const char* const begin = text.data();
    const char* const end = begin + std::min(limit, text.size());
    bool quoted = (state & 1) != 0;
    const char* const q = unquoted_line_end(begin + from, end, quoted);
    if (q == end) return std::nullopt;
    // The whole input is in `text`: a CR at its end ends the last record.
    const auto at = static_cast<std::size_t>(q - begin);
    return *q == '\r' && at + 1 < text.size() && q[1] == '\n' ? at + 2 : at + 1;
  }

  std::optional<std::size_t> find(std::string_view text, std::size_t target,
                                  bool input_ends) override {
    const char* const begin = text.data();
    const char* const end = begin + text.size();
    if (scanned_ == not_started) {
      std::size_t from = target;
      // The first record of an input read with skip_empty_lines comes after its empty lines.
      if (first_ && skip_empty_lines_) {
        std::size_t i = 0;
        while (i < text.size() && (text[i] == '\r' || text[i] == '\n')) ++i;
        if (i == text.size()) return std::nullopt;
        from = std::max(from, i);
      }
      quoted_ = (kernels::count_byte(begin, from, '"') & 1) != 0;
      scanned_ = from;
    }
    const char* const q = unquoted_line_end(begin + scanned_, end, quoted_);
    if (q == end) {
      scanned_ = text.size();
      return std::nullopt;
    }
    const auto at = static_cast<std::size_t>(q - begin);
    if (*q == '\n') return at + 1;
    // A CR ends the record unless an LF follows, which ends it with the CR.
    if (q + 1 == end) {
      if (input_ends) return at + 1;
      scanned_ = at;  // look at it again when the next byte has come
      return std::nullopt;
    }
    return q[1] == '\n' ? at + 2 : at + 1;
  }

 private:
  // The first CR or LF outside quotes in [p, end), or `end`; `quoted` says whether p lies in
  // a quoted field, and is what it is at the byte returned.
  const char* unquoted_line_end(const char* p, const char* end, bool& quoted) const noexcept {
    for (;;) {
      const char* const q = stops_.find(p, end);
      if (q == end || (*q != '"' && !quoted)) return q;
      if (*q == '"') quoted = !quoted;
      p = q + 1;
    }
  }

  static constexpr std::size_t not_started = static_cast<std::size_t>(-1);

  kernels::ByteSet stops_{'"', '\r', '\n'};
  bool skip_empty_lines_;
  bool first_ = false;
  std::size_t scanned_ = not_started;  // where the scan goes on
  bool quoted_ = false;                // the parity of the quotes before scanned_
};

}  // namespace

std::unique_ptr<ChunkBoundaries> make_chunk_boundaries(const ReadOptions& options) {
  return std::make_unique<CsvBoundaries>(options.skip_empty_lines);
}

}  // namespace bufstream::csv::detail
