#include "plain_entries.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstring>

#include <bufstream/kernels/cpu.hpp>

#if BUFSTREAM_KERNELS_X86_64
#include <emmintrin.h>
#endif

#if BUFSTREAM_KERNELS_X86_64
#include <cpuid.h>
#include <immintrin.h>
#endif

namespace bufstream::cedict::detail {

namespace {

#if BUFSTREAM_KERNELS_X86_64
#define BUFSTREAM_CEDICT_SCAN_AVX2 1
#endif

// The instructions a compiled version of the scan uses, for the parts where they differ.
// Baseline x86-64: TZCNT runs as BSF, undefined for zero, so a top bit is set first; the bytes
// of a line are compared 16 at a time (SSE2).
struct PortableIsa {
  /// The trailing zeros of `m`, without a branch for zero (any count up to 64 then).
  static unsigned trailing_zeros(std::uint64_t m) noexcept {
    return static_cast<unsigned>(std::countr_zero(m | (std::uint64_t{1} << 63)));
  }
  /// The bits of `x` below bit `n` (`n <= 31`).
  static unsigned low_bits(unsigned x, unsigned n) noexcept { return x & ((1u << n) - 1); }
  /// The glosses `gloss_block` writes at once.
  static constexpr std::uint32_t block_glosses = 4;
  /// Writes the first `block_glosses` glosses of the run of slashes `at` (see `take_glosses`)
  /// and returns bit k set for an empty gloss k.
  static unsigned gloss_block(const std::uint16_t* at, std::size_t start, GlossSpan* gloss) noexcept;
  /// The spaces and ']' of the 64 bytes at `p` (all readable): bit `i` for `p[i]`.
  static void field_bits(const char* p, std::uint64_t& spaces, std::uint64_t& closes) noexcept {
    spaces = 0;
    closes = 0;
#if BUFSTREAM_KERNELS_X86_64
    const auto bits16 = [](__m128i v, char c) {
      return static_cast<std::uint64_t>(static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(c)))));
    };
    for (unsigned at = 0; at < 64; at += 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + at));
      spaces |= bits16(v, ' ') << at;
      closes |= bits16(v, ']') << at;
    }
#else
    for (unsigned i = 0; i < 64; ++i) {
      spaces |= static_cast<std::uint64_t>(p[i] == ' ') << i;
      closes |= static_cast<std::uint64_t>(p[i] == ']') << i;
    }
#endif
  }
};

// The rest of `list_word` for a word with more bits than it writes unrolled: one offset per
// bit of `m` from `out`. Out of line, and a plain loop (the compiler's vector version of it
// cost more than it saved for the few bits there are).
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-vectorize")))
#endif
[[gnu::noinline, gnu::cold]] void list_rest(std::uint64_t m, unsigned base, std::uint16_t* out) noexcept {
#if defined(__clang__)
#pragma clang loop vectorize(disable)
#endif
  for (; m != 0; m &= m - 1) *out++ = static_cast<std::uint16_t>(base + static_cast<unsigned>(std::countr_zero(m)));
}

// Lists the set bits of the mask word `m` as chunk offsets (`base` + bit) at `out[n]` and
// returns the new count. Writes `Unrolled` offsets whatever the word's count (the slots beyond
// its own are overwritten by the next word's, or are slack), and loops only when it has more:
// a branch that the common word does not take, where a loop per bit would end at a different
// count each time.
template <unsigned Unrolled, class Isa>
[[gnu::always_inline]] inline std::uint32_t list_word(std::uint64_t m, unsigned base, std::uint16_t* out,
                                                      std::uint32_t n) noexcept {
  const auto count = static_cast<unsigned>(std::popcount(m));
  std::uint16_t* o = out + n;
  for (unsigned k = 0; k < Unrolled; ++k) {
    o[k] = static_cast<std::uint16_t>(base + Isa::trailing_zeros(m));  // scratch once `m` is used up
    m &= m - 1;
  }
  if (count > Unrolled) [[unlikely]] list_rest(m, base, o + Unrolled);
  return n + count;
}

// The two bytes at `p` as one value, to compare two bytes with one load.
[[gnu::always_inline]] inline std::uint16_t load_pair(const char* p) noexcept {
  std::uint16_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// The number of listed bits before chunk offset `p`, whose mask word is `word`.
[[gnu::always_inline]] inline std::uint32_t rank_of(const std::uint16_t* rank, std::uint64_t word,
                                                    std::size_t p) noexcept {
  return rank[p / 64] + static_cast<std::uint32_t>(std::popcount(word & ((std::uint64_t{1} << (p % 64)) - 1)));
}

// `ChunkIndexer`, inlined into each compiled version.
template <class Isa>
[[gnu::always_inline]] inline void index_chunk_body(const StructureMasks& masks, std::size_t chunk_size,
                                                    ChunkPositions& positions) noexcept {
  const std::size_t words = (chunk_size + 63) / 64;
  std::uint32_t newlines = 0;
  std::uint32_t slashes = 0;
  unsigned base = 0;  // the chunk offset of word w's first byte (one counter, not w * 64 twice)
  for (std::size_t w = 0; w < words; ++w, base += 64) {
    positions.newline_rank[w] = static_cast<std::uint16_t>(newlines);
    positions.slash_rank[w] = static_cast<std::uint16_t>(slashes);
    // About one line end and three slashes per 77-byte line.
    newlines = list_word<2, Isa>(masks.newline_word(w), base, positions.newlines, newlines);
    slashes = list_word<4, Isa>(masks.slash_word(w), base, positions.slashes, slashes);
  }
  positions.newline_rank[words] = static_cast<std::uint16_t>(newlines);
  positions.slash_rank[words] = static_cast<std::uint16_t>(slashes);
  positions.newline_count = newlines;
  positions.slash_count = slashes;
}

// Glosses `from` to `count - 1` of `take_glosses`, which wrote the first `from`; false if any
// of the `count` is empty. Out of the hot loop: most entries have fewer.
[[gnu::noinline, gnu::cold]] bool take_more_glosses(const std::uint16_t* at, std::uint32_t count, std::uint32_t from,
                                                    std::size_t start, GlossSpan* gloss) noexcept {
  bool empty = false;
  for (std::uint32_t k = 0; k < count; ++k) {
    if (k >= from) {
      gloss[k] = {static_cast<std::uint32_t>(at[k] + 1 - start), static_cast<std::uint32_t>(at[k + 1] - at[k] - 1)};
    }
    empty |= at[k + 1] == at[k] + 1;
  }
  return !empty;
}

// The first four glosses of a run (see `take_glosses`), with SSE2 where compiled in: bit k of
// the result is set if gloss k is empty.
[[gnu::always_inline]] inline unsigned four_glosses(const std::uint16_t* at, std::size_t start,
                                                    GlossSpan* gloss) noexcept {
  unsigned empty = 0;
#if BUFSTREAM_KERNELS_X86_64
  static_assert(sizeof(GlossSpan) == 8 && offsetof(GlossSpan, size) == 4);
  const __m128i zero = _mm_setzero_si128();
  const __m128i here = _mm_unpacklo_epi16(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(at)), zero);
  const __m128i next = _mm_unpacklo_epi16(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(at + 1)), zero);
  const __m128i offsets = _mm_sub_epi32(here, _mm_set1_epi32(static_cast<int>(start) - 1));
  const __m128i sizes = _mm_sub_epi32(_mm_sub_epi32(next, here), _mm_set1_epi32(1));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(gloss), _mm_unpacklo_epi32(offsets, sizes));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(gloss + 2), _mm_unpackhi_epi32(offsets, sizes));
  empty = static_cast<unsigned>(_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(sizes, zero))));
#else
  for (unsigned k = 0; k < 4; ++k) {
    gloss[k] = {static_cast<std::uint32_t>(at[k] + 1 - start), static_cast<std::uint32_t>(at[k + 1] - at[k] - 1)};
    empty |= static_cast<unsigned>(at[k + 1] == at[k] + 1) << k;
  }
#endif
  return empty;
}

unsigned PortableIsa::gloss_block(const std::uint16_t* at, std::size_t start, GlossSpan* gloss) noexcept {
  return four_glosses(at, start, gloss);
}

// The glosses of a plain entry: GLOSS ('/' GLOSS)* '/' between the slashes at chunk offsets
// `open` and `close`, the run of the chunk's slash list between them. Writes them from `gloss`,
// as byte ranges of the line that starts at chunk offset `start`, and returns the end, or
// nullptr for an empty gloss. Writes `Isa::block_glosses` glosses whatever the count (those
// beyond the count are scratch, overwritten by the next entry's), and loops only for more.
template <class Isa>
[[gnu::always_inline]] inline GlossSpan* take_glosses(const StructureMasks& masks, const ChunkPositions& positions,
                                                     std::size_t start, std::size_t open, std::size_t close,
                                                     GlossSpan* gloss) noexcept {
  const std::uint32_t first = rank_of(positions.slash_rank, masks.slash_word(open / 64), open);
  const std::uint32_t count = rank_of(positions.slash_rank, masks.slash_word(close / 64), close) - first;  // >= 1
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
                                                            const ChunkPositions& positions, const char* chunk,
                                                            std::size_t start, std::size_t lf, EntryOut out) noexcept {
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
    return at == nullptr ? StructureMasks::none : static_cast<std::size_t>(static_cast<const char*>(at) - line);
  };
  const std::size_t t = find(' ', 0);
  if (t == 0 || t == StructureMasks::none) return no;
  const std::size_t s = find(' ', t + 1);
  if (s == t + 1 || s == StructureMasks::none || line[s + 1] != '[') return no;
  const std::size_t close = find(']', s + 2);
  if (close == StructureMasks::none || line[close + 1] != ' ' || line[close + 2] != '/' || close + 3 >= last) return no;
  GlossSpan* const gloss_end =
      take_glosses<PortableIsa>(masks, positions, start, start + close + 2, start + last, out.gloss);
  if (gloss_end == nullptr) return no;
  *out.record++ = Record{line, static_cast<std::uint32_t>(t), static_cast<std::uint32_t>(s - t - 1),
                         static_cast<std::uint32_t>(close - s - 2), out.gloss_index()};
  out.gloss = gloss_end;
  return {out, true, cr};
}

// The call of `take_entry_general` from the hot loop.
[[gnu::always_inline]] inline bool take_general(const StructureMasks& masks, const ChunkPositions& positions,
                                                const char* chunk, std::size_t start, std::size_t lf, EntryOut& out,
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
[[gnu::always_inline]] inline bool take_entry(const StructureMasks& masks, const ChunkPositions& positions,
                                              const char* chunk, std::size_t start, std::size_t lf,
                                              std::uint64_t spaces, std::uint64_t closes, EntryOut& out,
                                              bool& crlf) noexcept {
  // An empty line, a line "\r" and a comment all go to the parser, which knows them; after
  // this, the line has a byte before its LF (or CR LF).
  const char first = chunk[start];
  if ((first == '#') | (first == '\n') | (first == '\r')) return false;
  const char* const line = chunk + start;
  const std::size_t end_slash = lf - 1;  // the closing '/', in the chunk
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
  GlossSpan* const gloss_end = take_glosses<Isa>(masks, positions, start, start + close + 2, end_slash, out.gloss);
  if (gloss_end == nullptr) return false;
  ++out.record;
  out.gloss = gloss_end;
  return true;
}

// The scan, inlined into each compiled version (see `PlainEntryScanner`): the line ends, one
// by one from the chunk's list of them.
template <class Isa>
[[gnu::always_inline]] inline std::size_t scan_plain_entries(const StructureMasks& masks,
                                                             const ChunkPositions& positions, const char* chunk,
                                                             std::size_t chunk_size, std::size_t readable,
                                                             std::size_t valid_end, PlainScan& scan) noexcept {
  EntryOut out = scan.out;
  std::size_t start = scan.line_start;
  std::size_t stop = StructureMasks::none;
  if (start < chunk_size) {
    // `scan.lines` counts from the first line end here; the CR LF flag stays in `scan`, as only
    // the general reader sets it: neither takes a register in the loop.
    const std::uint32_t first = rank_of(positions.newline_rank, masks.newline_word(start / 64), start);
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
        fast_count = std::min(valid_count, rank_of(positions.newline_rank, masks.newline_word(p / 64), p) + 1);
      }
    }
    std::uint32_t i = first;
    if (i < fast_count) {
      // Each line's spaces and ']' are found one line ahead, so that the loads and compares
      // for the next line overlap the checks and stores of this one.
      std::uint64_t spaces;
      std::uint64_t closes;
      Isa::field_bits(chunk + start, spaces, closes);
      for (; i < fast_count; ++i) {
        const std::size_t lf = positions.newlines[i];
        // The next line's start, or this one's again after the last (never past the text).
        const std::size_t next = i + 1 < fast_count ? lf + 1 : start;
        std::uint64_t next_spaces;
        std::uint64_t next_closes;
        Isa::field_bits(chunk + next, next_spaces, next_closes);
        if (!take_entry<Isa, true>(masks, positions, chunk, start, lf, spaces, closes, out, scan.crlf)) break;
        start = lf + 1;
        spaces = next_spaces;
        closes = next_closes;
      }
    }
    if (i == fast_count) {
      for (; i < valid_count; ++i) {
        const std::size_t lf = positions.newlines[i];
        if (!take_entry<Isa, false>(masks, positions, chunk, start, lf, 0, 0, out, scan.crlf)) break;
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

// The compiled versions: GCC's straight-line (SLP) vectorizer packs some of their scalar steps
// into vector instructions that cost more than they save, so it is off for them.
#if defined(__GNUC__) && !defined(__clang__)
#define BUFSTREAM_CEDICT_NO_SLP __attribute__((optimize("no-tree-slp-vectorize")))
#else
#define BUFSTREAM_CEDICT_NO_SLP
#endif

BUFSTREAM_CEDICT_NO_SLP
std::size_t scan_baseline(const StructureMasks& masks, const ChunkPositions& positions, const char* chunk,
                          std::size_t chunk_size, std::size_t readable, std::size_t valid_end,
                          PlainScan& scan) noexcept {
  return scan_plain_entries<PortableIsa>(masks, positions, chunk, chunk_size, readable, valid_end, scan);
}

BUFSTREAM_CEDICT_NO_SLP
void index_baseline(const StructureMasks& masks, std::size_t chunk_size, ChunkPositions& positions) noexcept {
  index_chunk_body<PortableIsa>(masks, chunk_size, positions);
}

#if defined(BUFSTREAM_CEDICT_SCAN_AVX2)
// AVX2 and BMI1: TZCNT is defined for zero; a line's 64 bytes are compared 32 at a time.
struct Avx2Isa {
  __attribute__((target("bmi"))) static unsigned trailing_zeros(std::uint64_t m) noexcept {
    return static_cast<unsigned>(_tzcnt_u64(m));
  }
  __attribute__((target("bmi2"))) static unsigned low_bits(unsigned x, unsigned n) noexcept { return _bzhi_u32(x, n); }
  static constexpr std::uint32_t block_glosses = 4;
  __attribute__((target("avx2"))) static unsigned gloss_block(const std::uint16_t* at, std::size_t start,
                                                              GlossSpan* gloss) noexcept {
    return four_glosses(at, start, gloss);
  }
  __attribute__((target("avx2"))) static void field_bits(const char* p, std::uint64_t& spaces,
                                                         std::uint64_t& closes) noexcept {
    const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    const __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32));
    const auto bits = [](__m256i a, __m256i b, char c) __attribute__((target("avx2"))) {
      const __m256i cc = _mm256_set1_epi8(c);
      return static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, cc)))) |
             static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(b, cc))))
                 << 32;
    };
    spaces = bits(lo, hi, ' ');
    closes = bits(lo, hi, ']');
  }
};

// The same body, compiled with the bit instructions (TZCNT for the scans, BLSR, SHLX/SHRX)
// and AVX2 compares, which baseline x86-64 lacks.
BUFSTREAM_CEDICT_NO_SLP
__attribute__((target("avx2,bmi,bmi2,popcnt,lzcnt"))) std::size_t scan_avx2(
    const StructureMasks& masks, const ChunkPositions& positions, const char* chunk, std::size_t chunk_size,
    std::size_t readable, std::size_t valid_end, PlainScan& scan) noexcept {
  return scan_plain_entries<Avx2Isa>(masks, positions, chunk, chunk_size, readable, valid_end, scan);
}

BUFSTREAM_CEDICT_NO_SLP
__attribute__((target("avx2,bmi,bmi2,popcnt,lzcnt"))) void index_avx2(const StructureMasks& masks,
                                                                      std::size_t chunk_size,
                                                                      ChunkPositions& positions) noexcept {
  index_chunk_body<Avx2Isa>(masks, chunk_size, positions);
}

// AVX-512 (BW): a line's 64 bytes compared at once, into mask registers; the rest as AVX2's.
struct Avx512Isa : Avx2Isa {
  __attribute__((target("avx512f,avx512bw"))) static void field_bits(const char* p, std::uint64_t& spaces,
                                                                     std::uint64_t& closes) noexcept {
    const __m512i v = _mm512_loadu_si512(p);
    spaces = _cvtmask64_u64(_mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(' ')));
    closes = _cvtmask64_u64(_mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(']')));
  }
  // Eight glosses at once: offsets and sizes in 32-bit lanes, interleaved into the eight
  // GlossSpans of one 64-byte store. (The masked widening, every lane selected, stands for the
  // plain one, which GCC 12 warns of as reading an undefined value.)
  static constexpr std::uint32_t block_glosses = 8;
  __attribute__((target("avx512f,avx512bw"))) static unsigned gloss_block(const std::uint16_t* at, std::size_t start,
                                                                         GlossSpan* gloss) noexcept {
    static_assert(sizeof(GlossSpan) == 8 && offsetof(GlossSpan, size) == 4);
    const __m512i here = _mm512_maskz_cvtepu16_epi32(0xFF, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(at)));
    const __m512i next =
        _mm512_maskz_cvtepu16_epi32(0xFF, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(at + 1)));
    const __m512i offsets = _mm512_sub_epi32(here, _mm512_set1_epi32(static_cast<int>(start) - 1));
    const __m512i sizes = _mm512_sub_epi32(_mm512_sub_epi32(next, here), _mm512_set1_epi32(1));
    const __m512i interleave = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
    _mm512_storeu_si512(gloss, _mm512_permutex2var_epi32(offsets, interleave, sizes));
    return static_cast<unsigned>(_cvtmask16_u32(_mm512_mask_testn_epi32_mask(0xFF, sizes, sizes)));
  }
};

BUFSTREAM_CEDICT_NO_SLP
__attribute__((target("avx512f,avx512bw,avx2,bmi,bmi2,popcnt,lzcnt"))) std::size_t scan_avx512(
    const StructureMasks& masks, const ChunkPositions& positions, const char* chunk, std::size_t chunk_size,
    std::size_t readable, std::size_t valid_end, PlainScan& scan) noexcept {
  return scan_plain_entries<Avx512Isa>(masks, positions, chunk, chunk_size, readable, valid_end, scan);
}

// AVX-512 (F, BW, VBMI2) lists a mask word's bits without a loop per bit: VPCOMPRESSB packs the
// byte numbers (0 to 63) of its set bits, which are widened to 16 bits and moved to the word's
// chunk offset, then stored 32 at a time whatever the count (the slots beyond it are scratch,
// overwritten by the next word's or slack); a second store only for a word with more than 32.
#define BUFSTREAM_CEDICT_INDEX_AVX512_TARGET __attribute__((target("avx512f,avx512bw,avx512vbmi2,popcnt")))

// The 32 byte numbers of half `Half` of `packed` as chunk offsets, `base` added. (The masked
// extract, every lane selected, stands for the plain one, which GCC 12 warns of as reading an
// undefined value.)
template <int Half>
BUFSTREAM_CEDICT_INDEX_AVX512_TARGET inline __m512i half_offsets(__m512i packed, __m512i base) noexcept {
  return _mm512_add_epi16(_mm512_cvtepu8_epi16(_mm512_maskz_extracti64x4_epi64(0xFF, packed, Half)), base);
}

BUFSTREAM_CEDICT_INDEX_AVX512_TARGET inline std::uint32_t list_word_avx512(std::uint64_t m, __m512i byte_numbers,
                                                                            __m512i base, std::uint16_t* out,
                                                                            std::uint32_t n) noexcept {
  const __m512i packed = _mm512_maskz_compress_epi8(_cvtu64_mask64(m), byte_numbers);
  const auto count = static_cast<unsigned>(std::popcount(m));
  _mm512_storeu_si512(out + n, half_offsets<0>(packed, base));
  if (count > 32) [[unlikely]] _mm512_storeu_si512(out + n + 32, half_offsets<1>(packed, base));
  return n + count;
}

BUFSTREAM_CEDICT_INDEX_AVX512_TARGET void index_avx512(const StructureMasks& masks, std::size_t chunk_size,
                                                       ChunkPositions& positions) noexcept {
  static_assert(ChunkPositions::slack >= 32, "a word's offsets are stored 32 at a time");
  alignas(64) static constexpr std::uint8_t byte_number_table[64] = {
      0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
      22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
      44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63};
  const __m512i byte_numbers = _mm512_load_si512(byte_number_table);
  const __m512i step = _mm512_set1_epi16(64);
  const std::size_t words = (chunk_size + 63) / 64;
  std::uint32_t newlines = 0;
  std::uint32_t slashes = 0;
  __m512i base = _mm512_setzero_si512();  // word w's chunk offset, in every 16-bit lane
  for (std::size_t w = 0; w < words; ++w, base = _mm512_add_epi16(base, step)) {
    positions.newline_rank[w] = static_cast<std::uint16_t>(newlines);
    positions.slash_rank[w] = static_cast<std::uint16_t>(slashes);
    newlines = list_word_avx512(masks.newline_word(w), byte_numbers, base, positions.newlines, newlines);
    slashes = list_word_avx512(masks.slash_word(w), byte_numbers, base, positions.slashes, slashes);
  }
  positions.newline_rank[words] = static_cast<std::uint16_t>(newlines);
  positions.slash_rank[words] = static_cast<std::uint16_t>(slashes);
  positions.newline_count = newlines;
  positions.slash_count = slashes;
}

#undef BUFSTREAM_CEDICT_INDEX_AVX512_TARGET

// LZCNT is asked of CPUID directly: Clang's __builtin_cpu_supports does not know "lzcnt".
bool cpu_has_lzcnt() noexcept {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid(0x80000001U, &eax, &ebx, &ecx, &edx) == 0) return false;
  return (ecx & (1U << 5)) != 0;  // CPUID.80000001H:ECX.LZCNT[bit 5]
}

bool cpu_runs_avx2_path() noexcept {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2") &&
         __builtin_cpu_supports("popcnt") && cpu_has_lzcnt() &&
         StructureMasks::available(StructureMasks::Classifier::avx2);
}

// The AVX-512 path runs the AVX2 instructions too.
bool cpu_runs_avx512_path() noexcept {
  __builtin_cpu_init();
  return cpu_runs_avx2_path() && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vbmi2") && StructureMasks::available(StructureMasks::Classifier::avx512);
}
#endif

#undef BUFSTREAM_CEDICT_NO_SLP

thread_local std::optional<ScanPath> forced_path;

}  // namespace

bool scan_path_available(ScanPath path) noexcept {
  switch (path) {
    case ScanPath::baseline: return true;
#if defined(BUFSTREAM_CEDICT_SCAN_AVX2)
    case ScanPath::avx2: {
      static const bool runs = cpu_runs_avx2_path();
      return runs;
    }
    case ScanPath::avx512: {
      static const bool runs = cpu_runs_avx512_path();
      return runs;
    }
#else
    case ScanPath::avx2:
    case ScanPath::avx512: return false;
#endif
  }
  return false;
}

ScanPath chosen_scan_path() noexcept {
  if (forced_path) return *forced_path;
  if (scan_path_available(ScanPath::avx512)) return ScanPath::avx512;
  return scan_path_available(ScanPath::avx2) ? ScanPath::avx2 : ScanPath::baseline;
}

void force_scan_path(std::optional<ScanPath> path) noexcept { forced_path = path; }

PlainEntryScanner plain_entry_scanner(ScanPath path) noexcept {
#if defined(BUFSTREAM_CEDICT_SCAN_AVX2)
  if (path == ScanPath::avx512) return scan_avx512;
  if (path == ScanPath::avx2) return scan_avx2;
#endif
  static_cast<void>(path);
  return scan_baseline;
}

ChunkIndexer chunk_indexer(ScanPath path) noexcept {
#if defined(BUFSTREAM_CEDICT_SCAN_AVX2)
  if (path == ScanPath::avx512) return index_avx512;
  if (path == ScanPath::avx2) return index_avx2;
#endif
  static_cast<void>(path);
  return index_baseline;
}

StructureMasks::Classifier scan_classifier(ScanPath path) noexcept {
  if (path == ScanPath::avx512) return StructureMasks::Classifier::avx512;
  if (path == ScanPath::avx2) return StructureMasks::Classifier::avx2;
  return StructureMasks::available(StructureMasks::Classifier::sse2) ? StructureMasks::Classifier::sse2
                                                                      : StructureMasks::Classifier::portable;
}

}  // namespace bufstream::cedict::detail
