#include "plain_entries.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstring>

#include <bufstream/kernels/byte_pair.hpp>
#include <bufstream/kernels/compiled_forms.hpp>

namespace bufstream::cedict::detail {

namespace {

// The bytes a line's fields end at, before its glosses: the spaces after the headwords, and
// the ']' closing the pinyin.
constexpr kernels::BytePair field_ends{' ', ']'};

// The bits of `x` below bit `n` (`n <= 31`).
[[gnu::always_inline]] inline unsigned low_bits(unsigned x, unsigned n) noexcept {
  return x & ((1u << n) - 1);
}

static_assert(sizeof(GlossSpan) == 8 && offsetof(GlossSpan, offset) == 0 &&
                  offsetof(GlossSpan, size) == 4,
              "the spans kernels write a GlossSpan's layout");

// The two bytes at `p` as one value, to compare two bytes with one load.
[[gnu::always_inline]] inline std::uint16_t load_pair(const char* p) noexcept {
  std::uint16_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// The number of listed bits before chunk offset `p`, whose mask word is `word`.
[[gnu::always_inline]] inline std::uint32_t rank_of(const std::uint16_t* rank, std::uint64_t word,
                                                    std::size_t p) noexcept {
  return rank[p / 64] +
         static_cast<std::uint32_t>(std::popcount(word & ((std::uint64_t{1} << (p % 64)) - 1)));
}

// `ChunkIndexer`, inlined into each compiled copy.
template <class Ops>
[[gnu::always_inline]] inline void index_chunk_body(const StructureMasks& masks,
                                                    std::size_t chunk_size,
                                                    ChunkPositions& positions) noexcept {
  const std::size_t words = (chunk_size + 63) / 64;
  std::uint32_t newlines = 0;
  std::uint32_t slashes = 0;
  unsigned base = 0;  // the chunk offset of word w's first byte (one counter, not w * 64 twice)
  for (std::size_t w = 0; w < words; ++w, base += 64) {
    positions.newline_rank[w] = static_cast<std::uint16_t>(newlines);
    positions.slash_rank[w] = static_cast<std::uint16_t>(slashes);
    // About one line end and three slashes per 77-byte line.
    newlines =
        Ops::template list_positions<2>(masks.newline_word(w), base, positions.newlines, newlines);
    slashes =
        Ops::template list_positions<4>(masks.slash_word(w), base, positions.slashes, slashes);
  }
  positions.newline_rank[words] = static_cast<std::uint16_t>(newlines);
  positions.slash_rank[words] = static_cast<std::uint16_t>(slashes);
  positions.newline_count = newlines;
  positions.slash_count = slashes;
}

// Glosses `from` to `count - 1` of `take_glosses`, which wrote the first `from`; false if any
// of the `count` is empty. Out of the hot loop: most entries have fewer.
[[gnu::noinline, gnu::cold]] bool take_more_glosses(const std::uint16_t* at, std::uint32_t count,
                                                    std::uint32_t from, std::size_t start,
                                                    GlossSpan* gloss) noexcept {
  bool empty = false;
  for (std::uint32_t k = 0; k < count; ++k) {
    if (k >= from) {
      gloss[k] = {static_cast<std::uint32_t>(at[k] + 1 - start),
                  static_cast<std::uint32_t>(at[k + 1] - at[k] - 1)};
    }
    empty |= at[k + 1] == at[k] + 1;
  }
  return !empty;
}

// The glosses of a plain entry: GLOSS ('/' GLOSS)* '/' between the slashes at chunk offsets
// `open` and `close`, the run of the chunk's slash list between them. Writes them from `gloss`,
// as byte ranges of the line that starts at chunk offset `start`, and returns the end, or
// nullptr for an empty gloss. Writes `Ops::block_spans` glosses whatever the count (those
// beyond the count are scratch, overwritten by the next entry's), and loops only for more.
template <class Ops>
[[gnu::always_inline]] inline GlossSpan* take_glosses(const StructureMasks& masks,
                                                      const ChunkPositions& positions,
                                                      std::size_t start, std::size_t open,
                                                      std::size_t close,
                                                      GlossSpan* gloss) noexcept {
  const std::uint32_t first = rank_of(positions.slash_rank, masks.slash_word(open / 64), open);
  const std::uint32_t count =
      rank_of(positions.slash_rank, masks.slash_word(close / 64), close) - first;  // >= 1
  const std::uint16_t* const at = positions.slashes + first;  // at[0] == open, at[count] == close
  // Bit k: gloss k is empty ("//").
  const unsigned empty = Ops::span_block(at, static_cast<std::uint32_t>(start), gloss);
  if (count > Ops::block_spans) [[unlikely]] {
    return take_more_glosses(at, count, Ops::block_spans, start, gloss) ? gloss + count : nullptr;
  }
  return low_bits(empty, count) == 0 ? gloss + count : nullptr;
}

// `take_entry` for any line: one whose headwords and pinyin do not all lie in its first 64
// bytes, or which ends too near the end of the text to read 64 bytes from its start. Rare, so
// kept out of the hot loop, and the fields are found by memchr; it takes and returns the scan's
// output by value, so that the hot loop keeps its own in registers.
struct GeneralEntry {
  EntryOut out;
  bool taken;
  bool cr;  // the entry taken ended with CR LF
};

[[gnu::noinline, gnu::cold]] GeneralEntry take_entry_general(const StructureMasks& masks,
                                                             const ChunkPositions& positions,
                                                             const char* chunk, std::size_t start,
                                                             std::size_t lf,
                                                             EntryOut out) noexcept {
  const GeneralEntry no{out, false, false};
  if (lf == start || chunk[start] == '#') return no;
  std::size_t end = lf;  // the line without its line end
  const bool cr = chunk[end - 1] == '\r';
  if (cr && --end == start) return no;
  const char* const line = chunk + start;
  const std::size_t last = end - 1 - start;  // the closing '/', from the line's start
  if (line[last] != '/') return no;
  // TRADITIONAL ' ' SIMPLIFIED ' ' '[' PINYIN ']' ' ' '/'. Positions are from the line's
  // start; a byte read below lies at or before the LF, which is in the chunk.
  // The first `c` at or after `from` and before `last`, or `none`.
  const auto find = [&](char c, std::size_t from) {
    if (from >= last) return StructureMasks::none;
    const void* const at = std::memchr(line + from, c, last - from);
    return at == nullptr ? StructureMasks::none
                         : static_cast<std::size_t>(static_cast<const char*>(at) - line);
  };
  const std::size_t t = find(' ', 0);
  if (t == 0 || t == StructureMasks::none) return no;
  const std::size_t s = find(' ', t + 1);
  if (s == t + 1 || s == StructureMasks::none || line[s + 1] != '[') return no;
  const std::size_t close = find(']', s + 2);
  if (close == StructureMasks::none || line[close + 1] != ' ' || line[close + 2] != '/' ||
      close + 3 >= last)
    return no;
  GlossSpan* const gloss_end = take_glosses<kernels::PortableOps>(
      masks, positions, start, start + close + 2, start + last, out.gloss);
  if (gloss_end == nullptr) return no;
  *out.record++ = Record{line, static_cast<std::uint32_t>(t), static_cast<std::uint32_t>(s - t - 1),
                         static_cast<std::uint32_t>(close - s - 2), out.gloss_index()};
  out.gloss = gloss_end;
  return {out, true, cr};
}

// The call of `take_entry_general` from the hot loop.
[[gnu::always_inline]] inline bool take_general(const StructureMasks& masks,
                                                const ChunkPositions& positions, const char* chunk,
                                                std::size_t start, std::size_t lf, EntryOut& out,
                                                bool& crlf) noexcept {
  const GeneralEntry general = take_entry_general(masks, positions, chunk, start, lf, out);
  out = general.out;
  crlf |= general.cr;
  return general.taken;
}

// The line `chunk[start, lf)`, whose bytes are valid UTF-8, if it is a plain entry (CR LF
// allowed, read by `take_entry_general`): writes it at `out` and returns true. Otherwise
// returns false, leaving `out` as it was (but for scratch beyond its end) and the line to
// `parse_line`, which finds exactly what `parse_line` would find here. With `Readable64`, the
// 64 bytes from the line's start may be read; without, the line goes to `take_entry_general`.
// A typical line has its headwords and pinyin in its first 64 bytes: their spaces and ']' are
// found by comparing those bytes at once, and the checks are combined so that a plain entry
// takes few branches; other lines go to `take_entry_general`.
template <class Ops, bool Readable64>
[[gnu::always_inline]] inline bool take_entry(const StructureMasks& masks,
                                              const ChunkPositions& positions, const char* chunk,
                                              std::size_t start, std::size_t lf,
                                              std::uint64_t spaces, std::uint64_t closes,
                                              EntryOut& out, bool& crlf) noexcept {
  // An empty line, a line "\r" and a comment all go to the parser, which knows them; after
  // this, the line has a byte before its LF (or CR LF).
  const char first = chunk[start];
  if ((first == '#') | (first == '\n') | (first == '\r')) return false;
  const char* const line = chunk + start;
  const std::size_t end_slash = lf - 1;        // the closing '/', in the chunk
  const std::size_t last = end_slash - start;  // and in the line
  // A line ending in CR LF (or not in '/') goes to the general reader, so that the hot loop
  // neither tests nor carries the CR.
  if (!Readable64 || line[last] != '/') [[unlikely]] {
    return take_general(masks, positions, chunk, start, lf, out, crlf);
  }
  // TRADITIONAL ' ' SIMPLIFIED ' ' '[' PINYIN ']' ' ' '/': the first two spaces and the
  // first ']' after them. (Bits for bytes past the line are never used: every position below
  // is checked to lie before `last`.)
  const std::uint64_t second_space = spaces & (spaces - 1);
  if (second_space == 0) return take_general(masks, positions, chunk, start, lf, out, crlf);
  const auto t = static_cast<std::size_t>(std::countr_zero(spaces));
  const auto s = static_cast<std::size_t>(std::countr_zero(second_space));
  closes >>= s;
  if (closes == 0) return take_general(masks, positions, chunk, start, lf, out, crlf);
  const std::size_t close = s + static_cast<std::size_t>(std::countr_zero(closes));
  // After this check every byte read lies in the line, before `last`.
  if ((t == 0) | (s == t + 1) | (close + 3 >= last)) return false;
  if ((line[s + 1] != '[') | (load_pair(line + close + 1) != load_pair(" /"))) return false;
  // The record is written before its glosses are read, and taken only if they are good: its
  // fields then need no register across the gloss scan.
  *out.record = Record{line, static_cast<std::uint32_t>(t), static_cast<std::uint32_t>(s - t - 1),
                       static_cast<std::uint32_t>(close - s - 2), out.gloss_index()};
  GlossSpan* const gloss_end =
      take_glosses<Ops>(masks, positions, start, start + close + 2, end_slash, out.gloss);
  if (gloss_end == nullptr) return false;
  ++out.record;
  out.gloss = gloss_end;
  return true;
}

// The scan, inlined into each compiled copy (see `PlainEntryScanner`): the line ends, one
// by one from the chunk's list of them.
template <class Ops>
[[gnu::always_inline]] inline std::size_t scan_plain_entries(
    const StructureMasks& masks, const ChunkPositions& positions, const char* chunk,
    std::size_t chunk_size, std::size_t readable, std::size_t valid_end, PlainScan& scan) noexcept {
  EntryOut out = scan.out;
  std::size_t start = scan.line_start;
  std::size_t stop = StructureMasks::none;
  if (start < chunk_size) {
    // `scan.lines` counts from the first line end here; the CR LF flag stays in `scan`, as only
    // the general reader sets it: neither takes a register in the loop.
    const std::uint32_t first =
        rank_of(positions.newline_rank, masks.newline_word(start / 64), start);
    scan.lines -= first;
    // The line ends up to `valid_end` (at most `chunk_size`, which has a word of zeros).
    const std::uint32_t valid_count =
        rank_of(positions.newline_rank, masks.newline_word((valid_end + 1) / 64), valid_end + 1);
    // The lines from which 64 bytes may be read: those that start before `readable - 63`.
    // Line i > first starts after line end i - 1, so they are the lines up to `fast_count`
    // (all of them, unless the text ends within 63 bytes after the chunk).
    std::uint32_t fast_count = valid_count;
    if (readable < chunk_size + 63) {
      const std::size_t fast_end = readable >= 64 ? readable - 63 : 0;
      fast_count = first;
      if (start < fast_end) {
        const std::size_t p = fast_end - 1;  // < chunk_size
        fast_count = std::min(valid_count,
                              rank_of(positions.newline_rank, masks.newline_word(p / 64), p) + 1);
      }
    }
    std::uint32_t i = first;
    if (i < fast_count) {
      // Each line's spaces and ']' are found one line ahead, so that the loads and compares
      // for the next line overlap the checks and stores of this one.
      std::uint64_t spaces;
      std::uint64_t closes;
      const kernels::PairMasks first_fields = Ops::pair_masks(field_ends, chunk + start);
      spaces = first_fields.first;
      closes = first_fields.second;
      for (; i < fast_count; ++i) {
        const std::size_t lf = positions.newlines[i];
        // The next line's start, or this one's again after the last (never past the text).
        const std::size_t next = i + 1 < fast_count ? lf + 1 : start;
        const kernels::PairMasks next_fields = Ops::pair_masks(field_ends, chunk + next);
        if (!take_entry<Ops, true>(masks, positions, chunk, start, lf, spaces, closes, out,
                                   scan.crlf))
          break;
        start = lf + 1;
        spaces = next_fields.first;
        closes = next_fields.second;
      }
    }
    if (i == fast_count) {
      for (; i < valid_count; ++i) {
        const std::size_t lf = positions.newlines[i];
        if (!take_entry<Ops, false>(masks, positions, chunk, start, lf, 0, 0, out, scan.crlf))
          break;
        start = lf + 1;
      }
    }
    if (i < positions.newline_count) stop = positions.newlines[i];
    scan.lines += i;
  }
  scan.out = out;
  scan.line_start = start;
  return stop;
}

// The scan and the indexer as loops for kernels::compiled_forms, which compiles them once
// per instruction set with forms.
struct ScanLoop {
  using Function = PlainEntryScanner;
  template <class Ops>
  [[gnu::always_inline]] static std::size_t run(const StructureMasks& masks,
                                                const ChunkPositions& positions, const char* chunk,
                                                std::size_t chunk_size, std::size_t readable,
                                                std::size_t valid_end, PlainScan& scan) noexcept {
    return scan_plain_entries<Ops>(masks, positions, chunk, chunk_size, readable, valid_end, scan);
  }
};

struct IndexLoop {
  using Function = ChunkIndexer;
  template <class Ops>
  [[gnu::always_inline]] static void run(const StructureMasks& masks, std::size_t chunk_size,
                                         ChunkPositions& positions) noexcept {
    index_chunk_body<Ops>(masks, chunk_size, positions);
  }
};

static_assert(ChunkPositions::slack >= kernels::max_positions_overrun,
              "the positions are listed with up to this many slots of scratch");

}  // namespace

const kernels::Forms<PlainEntryScanner>& plain_entry_scanners() noexcept {
  return kernels::compiled_forms<ScanLoop>();
}

const kernels::Forms<ChunkIndexer>& chunk_indexers() noexcept {
  return kernels::compiled_forms<IndexLoop>();
}

}  // namespace bufstream::cedict::detail
