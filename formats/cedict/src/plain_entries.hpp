// Plain entries: the loader's hot loop, which reads the lines of a chunk that are plain
// CC-CEDICT entries from its structure masks. Written once, over the kernels it calls (the
// byte-pair masks of a line's first 64 bytes, the listing of mask bits, the gloss spans), and
// compiled once for each instruction set with forms of those kernels by the kernel layer
// (kernels::compiled_forms; a load takes the copy for kernels::best()).
#pragma once

#include <cstddef>
#include <cstdint>

#include <bufstream/kernels/cpu.hpp>

#include "dictionary_data.hpp"
#include "structure_masks.hpp"

namespace bufstream::cedict::detail {

/// Where the scan writes: the next record and gloss, in room made for a chunk's worth of them.
struct EntryOut {
  Record* record;
  GlossSpan* gloss;
  const GlossSpan* glosses;  // the dictionary's gloss table

  /// The index of `gloss` in the gloss table (below 2^32: the loader checks).
  std::uint32_t gloss_index() const noexcept { return static_cast<std::uint32_t>(gloss - glosses); }
};

/// The line ends and slashes of one classified chunk as lists of chunk offsets, in order, with
/// their ranks: the scan walks the line ends as a counted loop and takes each entry's glosses
/// as a run of the slash list, so that neither costs a branch per 64-byte word or per gloss
/// (which the processor would mispredict about twice per entry). Built by a `ChunkIndexer`.
struct ChunkPositions {
  static constexpr std::size_t max_words = StructureMasks::max_words;
  // Room for every byte of a chunk, plus the slots written beyond the last position (a mask
  // word's positions are written up to four at a time, or 32 with AVX-512) and read beyond it
  // (a run of glosses is read 16 at a time with AVX-512).
  static constexpr std::size_t slack = 32;

  std::uint32_t newline_count = 0;
  std::uint32_t slash_count = 0;
  std::uint16_t newline_rank[max_words + 1] = {};  // line ends before word w
  std::uint16_t slash_rank[max_words + 1] = {};    // slashes before word w
  std::uint16_t newlines[StructureMasks::max_bytes + slack] = {};
  std::uint16_t slashes[StructureMasks::max_bytes + slack] = {};
};

/// The state of a scan over one chunk, carried from one call to the next.
struct PlainScan {
  std::size_t line_start = 0;  // the chunk offset of the next line to read
  std::uint64_t lines = 0;     // lines read so far in the load (entries taken add one each)
  EntryOut out{};
  bool crlf = false;  // set when an entry taken ended with CR LF
};

/// Reads the lines of `chunk[scan.line_start, chunk_size)` (classified into `masks`) while
/// they are plain entries whose bytes lie within `chunk[0, valid_end]` (valid UTF-8, or the LF
/// right after it), writing each at `scan.out` and counting it in `scan.lines`. Stops at the
/// first other line and returns the chunk offset of its LF, with `scan.line_start` at its start
/// (the caller hands it to the line parser, which finds exactly what a byte-by-byte reading
/// would); returns `StructureMasks::none` once no LF is left, with `scan.line_start` past the
/// last LF. Writes at most one record per 11 bytes and one gloss per 2 bytes of the chunk,
/// and one record and up to seven glosses of scratch beyond the last it takes (room the caller
/// must make).
/// Never throws: errors are the caller's to report.
/// `positions` is what the path's `ChunkIndexer` made of `masks`. `chunk[0, readable)` may be
/// read (`readable >= chunk_size`: the text may go on after the chunk): a line is read 64
/// bytes at a time from its start.
using PlainEntryScanner = std::size_t (*)(const StructureMasks& masks,
                                          const ChunkPositions& positions, const char* chunk,
                                          std::size_t chunk_size, std::size_t readable,
                                          std::size_t valid_end, PlainScan& scan) noexcept;

/// Lists the line ends and slashes of a chunk of `chunk_size` bytes classified into `masks`.
using ChunkIndexer = void (*)(const StructureMasks& masks, std::size_t chunk_size,
                              ChunkPositions& positions) noexcept;

/// The compiled copies of the scan and of the indexer, one per instruction set that has one
/// (kernels::compiled_forms). A load takes those for kernels::best().
const kernels::Forms<PlainEntryScanner>& plain_entry_scanners() noexcept;
const kernels::Forms<ChunkIndexer>& chunk_indexers() noexcept;

}  // namespace bufstream::cedict::detail
