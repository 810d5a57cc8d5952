#include "plain_entries.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstring>

#include <bufstream/kernels/bit_positions.hpp>
#include <bufstream/kernels/byte_pair.hpp>
#include <bufstream/kernels/target.hpp>
#include <bufstream/kernels/x86/bit_positions.hpp>
#include <bufstream/kernels/x86/byte_pair.hpp>

namespace bufstream::cedict::detail {

namespace {

// The bytes a line's fields end at, before its glosses: the spaces after the headwords, and
// the ']' closing the pinyin.
constexpr kernels::BytePair field_ends{' ', ']'};

// The parts of the scan that differ between its compiled copies (see `scan_plain_entries`);
// the portable copy's. A copy for a wider instruction set differs in how it finds a line's
// field ends, and in how many glosses it writes at once.
struct PortableIsa {
  /// The bits of `x` below bit `n` (`n <= 31`).
  static unsigned low_bits(unsigned x, unsigned n) noexcept { return x & ((1u << n) - 1); }
  /// The spaces and ']' of the 64 bytes at `p` (all readable): bit `i` for `p[i]`.
  static kernels::PairMasks field_bits(const char* p) noexcept { return field_ends.mask64(p); }
  /// The glosses `gloss_block` writes at once.
  static constexpr std::uint32_t block_glosses = 4;
  /// The first `block_glosses` glosses of a run of slashes (see `take_glosses`), whatever the
  /// run's count: bit k of the result is set if gloss k is empty.
  static unsigned gloss_block(const std::uint16_t* at, std::size_t start,
                              GlossSpan* gloss) noexcept {
    return kernels::bits::spans4(at, static_cast<std::uint32_t>(start), gloss);
  }
  /// Lists the set bits of the mask word `m` as chunk offsets (`base` + bit) at `out[n]` and
  /// returns the new count, writing `Unrolled` slots whatever the word's count.
  template <unsigned Unrolled>
  static std::uint32_t list_word(std::uint64_t m, unsigned base, std::uint16_t* out,
                                 std::uint32_t n) noexcept {
    return kernels::bits::append_positions<Unrolled>(m, base, out, n);
  }
};
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

// `ChunkIndexer`, inlined into each compiled version.
template <class Isa>
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
        Isa::template list_word<2>(masks.newline_word(w), base, positions.newlines, newlines);
    slashes = Isa::template list_word<4>(masks.slash_word(w), base, positions.slashes, slashes);
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
// nullptr for an empty gloss. Writes `Isa::block_glosses` glosses whatever the count (those
// beyond the count are scratch, overwritten by the next entry's), and loops only for more.
template <class Isa>
[[gnu::always_inline]] inline GlossSpan* take_glosses(const StructureMasks& masks,
                                                      const ChunkPositions& positions,
                                                      std::size_t start, std::size_t open,
                                                      std::size_t close,
                                                      GlossSpan* gloss) noexcept {
  const std::uint32_t first = rank_of(positions.slash_rank, masks.slash_word(open / 64), open);
  const std::uint32_t count =
      rank_of(positions.slash_rank, masks.slash_word(close / 64), close) - first;  // >= 1
  const std::uint16_t* const at = positions.slashes + first;  // at[0] == open, at[count] == close
  const unsigned empty = Isa::gloss_block(at, start, gloss);  // bit k: gloss k is empty ("//")
  if (count > Isa::block_glosses) [[unlikely]] {
    return take_more_glosses(at, count, Isa::block_glosses, start, gloss) ? gloss + count : nullptr;
  }
  return Isa::low_bits(empty, count) == 0 ? gloss + count : nullptr;
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
  GlossSpan* const gloss_end = take_glosses<PortableIsa>(masks, positions, start, start + close + 2,
                                                         start + last, out.gloss);
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
template <class Isa, bool Readable64>
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
      take_glosses<Isa>(masks, positions, start, start + close + 2, end_slash, out.gloss);
  if (gloss_end == nullptr) return false;
  ++out.record;
  out.gloss = gloss_end;
  return true;
}

// The scan, inlined into each compiled version (see `PlainEntryScanner`): the line ends, one
// by one from the chunk's list of them.
template <class Isa>
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
      const kernels::PairMasks first_fields = Isa::field_bits(chunk + start);
      spaces = first_fields.first;
      closes = first_fields.second;
      for (; i < fast_count; ++i) {
        const std::size_t lf = positions.newlines[i];
        // The next line's start, or this one's again after the last (never past the text).
        const std::size_t next = i + 1 < fast_count ? lf + 1 : start;
        const kernels::PairMasks next_fields = Isa::field_bits(chunk + next);
        if (!take_entry<Isa, true>(masks, positions, chunk, start, lf, spaces, closes, out,
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
        if (!take_entry<Isa, false>(masks, positions, chunk, start, lf, 0, 0, out, scan.crlf))
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

// The compiled copies: GCC's straight-line (SLP) vectorizer packs some of their scalar steps
// into vector instructions that cost more than they save, so it is off for them.
#if defined(__GNUC__) && !defined(__clang__)
#define BUFSTREAM_CEDICT_NO_SLP __attribute__((optimize("no-tree-slp-vectorize")))
#else
#define BUFSTREAM_CEDICT_NO_SLP
#endif

BUFSTREAM_CEDICT_NO_SLP
std::size_t scan_portable(const StructureMasks& masks, const ChunkPositions& positions,
                          const char* chunk, std::size_t chunk_size, std::size_t readable,
                          std::size_t valid_end, PlainScan& scan) noexcept {
  return scan_plain_entries<PortableIsa>(masks, positions, chunk, chunk_size, readable, valid_end,
                                         scan);
}

BUFSTREAM_CEDICT_NO_SLP
void index_portable(const StructureMasks& masks, std::size_t chunk_size,
                    ChunkPositions& positions) noexcept {
  index_chunk_body<PortableIsa>(masks, chunk_size, positions);
}

#if BUFSTREAM_KERNELS_X86_64
// AVX2: a line's 64 bytes compared 32 at a time, and POPCNT for the ranks and counts.
struct Avx2Isa : PortableIsa {
  BUFSTREAM_KERNELS_TARGET_AVX2 static kernels::PairMasks field_bits(const char* p) noexcept {
    return kernels::x86::pair_masks_avx2(field_ends, p);
  }
};

BUFSTREAM_CEDICT_NO_SLP
BUFSTREAM_KERNELS_TARGET_AVX2 std::size_t scan_avx2(const StructureMasks& masks,
                                                    const ChunkPositions& positions,
                                                    const char* chunk, std::size_t chunk_size,
                                                    std::size_t readable, std::size_t valid_end,
                                                    PlainScan& scan) noexcept {
  return scan_plain_entries<Avx2Isa>(masks, positions, chunk, chunk_size, readable, valid_end,
                                     scan);
}

BUFSTREAM_CEDICT_NO_SLP
BUFSTREAM_KERNELS_TARGET_AVX2 void index_avx2(const StructureMasks& masks, std::size_t chunk_size,
                                              ChunkPositions& positions) noexcept {
  index_chunk_body<Avx2Isa>(masks, chunk_size, positions);
}

// AVX-512: a line's 64 bytes compared at once, into mask registers; eight glosses written at
// once; a mask word's bits listed without a loop per bit (VPCOMPRESSB).
struct Avx512Isa : PortableIsa {
  BUFSTREAM_KERNELS_TARGET_AVX512 static kernels::PairMasks field_bits(const char* p) noexcept {
    return kernels::x86::pair_masks_avx512(field_ends, p);
  }
  static constexpr std::uint32_t block_glosses = 8;
  BUFSTREAM_KERNELS_TARGET_AVX512 static unsigned gloss_block(const std::uint16_t* at,
                                                              std::size_t start,
                                                              GlossSpan* gloss) noexcept {
    return kernels::bits::spans8_avx512(at, static_cast<std::uint32_t>(start), gloss);
  }
  template <unsigned>
  BUFSTREAM_KERNELS_TARGET_AVX512 static std::uint32_t list_word(std::uint64_t m, unsigned base,
                                                                 std::uint16_t* out,
                                                                 std::uint32_t n) noexcept {
    return kernels::bits::append_positions_avx512(m, base, out, n);
  }
};
static_assert(ChunkPositions::slack >= 32, "the AVX-512 listing stores 32 positions at a time");

BUFSTREAM_CEDICT_NO_SLP
BUFSTREAM_KERNELS_TARGET_AVX512 std::size_t scan_avx512(const StructureMasks& masks,
                                                        const ChunkPositions& positions,
                                                        const char* chunk, std::size_t chunk_size,
                                                        std::size_t readable, std::size_t valid_end,
                                                        PlainScan& scan) noexcept {
  return scan_plain_entries<Avx512Isa>(masks, positions, chunk, chunk_size, readable, valid_end,
                                       scan);
}

BUFSTREAM_CEDICT_NO_SLP
BUFSTREAM_KERNELS_TARGET_AVX512 void index_avx512(const StructureMasks& masks,
                                                  std::size_t chunk_size,
                                                  ChunkPositions& positions) noexcept {
  index_chunk_body<Avx512Isa>(masks, chunk_size, positions);
}
#endif

#undef BUFSTREAM_CEDICT_NO_SLP

thread_local std::optional<kernels::InstructionSet> forced_set;

}  // namespace

const kernels::Forms<PlainEntryScanner>& plain_entry_scanners() noexcept {
#if BUFSTREAM_KERNELS_X86_64
  static constexpr kernels::Forms<PlainEntryScanner> forms{scan_portable, nullptr, scan_avx2,
                                                           scan_avx512};
#else
  static constexpr kernels::Forms<PlainEntryScanner> forms{scan_portable};
#endif
  return forms;
}

const kernels::Forms<ChunkIndexer>& chunk_indexers() noexcept {
#if BUFSTREAM_KERNELS_X86_64
  static constexpr kernels::Forms<ChunkIndexer> forms{index_portable, nullptr, index_avx2,
                                                      index_avx512};
#else
  static constexpr kernels::Forms<ChunkIndexer> forms{index_portable};
#endif
  return forms;
}

kernels::InstructionSet chosen_instruction_set() noexcept {
  return forced_set ? *forced_set : kernels::best();
}

void force_instruction_set(std::optional<kernels::InstructionSet> set) noexcept {
  forced_set = set;
}

}  // namespace bufstream::cedict::detail
