// Structure masks: the byte-pair masks (bufstream/kernels/byte_pair.hpp) of every 64-byte block
// of a text, one word per block, with the text's UTF-8 validated in the same pass. The CEDICT
// loader classifies each 4 KiB chunk of a dictionary so (its line ends and slashes), and its
// line parser each line of up to 256 bytes (its spaces and slashes); both then find lines,
// fields and glosses with bit scans instead of looking at every byte.
//
// A chunk is cut from a longer text at any byte, so a sequence that its end cuts short is not
// an error here: the next chunk starts before it.
//
// Why no other classifier: it is the only one that gives a UTF-8 verdict with its masks, which
// both callers need before they read a field. BytePair alone gives no verdict, and a
// validation then a search with ByteSet cost the line parser (ee8b7a7, perf samples over 15
// parses of the shipped file: validate-then-search 1,000 against the earlier parser's 610;
// this pass 590 against its 745). The token masks and the JSON index classify JSON's fixed
// bytes.
//
// Forms: portable (SWAR masks, then the portable UTF-8 validator) and SSE2 (SSE2 masks, then
// the SSE2 validator), two passes each; AVX2 and AVX-512 (masks and the nibble-table UTF-8
// check of x86/utf8_lookup.hpp on the same loads, 64 bytes at a time). Measured: AVX-512 over
// AVX2 only as the loader's whole AVX-512 path, with its bit listing and field-end masks
// (899d3be: mapped file 2.55 -> 2.35 ms, side by side); AVX2 over SSE2 likewise only as the
// loader's whole AVX2 path (BUFSTREAM_ISA=avx2 against sse2, 3 rounds side by side, 3b38715:
// bulk load 8.03 -> 3.84 ms, mapped 12.44 -> 8.34, line by line 15.91 -> 15.04); SSE2 over
// portable, with BUFSTREAM_ISA=sse2 against a build without the SSE2 form (3 rounds, 3b38715):
// without it the bulk load took 1.78x the time, the mapped load 1.51x, line by line 1.41x.
#pragma once

#include <cstddef>
#include <cstdint>

#include <bufstream/kernels/byte_pair.hpp>
#include <bufstream/kernels/cpu.hpp>

namespace bufstream::kernels::structure {

/// `size`, or, when the last sequence of `text[0, size)` is cut short by the end (a lead byte
/// C2..F4 among the last three bytes, followed only by continuation bytes, fewer than it
/// calls for), the offset of its lead.
std::size_t complete_prefix(const char* text, std::size_t size) noexcept;

/// Writes the masks of `pair` in `text[0, size)`: bit i of word w of `first` (`second`) is set
/// when byte 64 w + i is the pair's first (second) byte; (size + 63) / 64 words each, bits past
/// the text zero. Returns the offset of the first invalid UTF-8 sequence of
/// `text[0, complete_prefix(text, size))` (what utf8::find_invalid says), or `size` if it has
/// none.
using Classify = std::size_t (*)(const char* text, std::size_t size, BytePair pair,
                                 std::uint64_t* first, std::uint64_t* second) noexcept;

/// The classifier's forms (each gives the portable form's masks and answer).
const Forms<Classify>& classify_forms() noexcept;

}  // namespace bufstream::kernels::structure
