// Token masks: for each 64-byte block of a text in JSON's lexical shape (double-quoted strings
// with backslash escapes, tokens apart by whitespace), where its whitespace and line feeds are,
// and where a run of plain string bytes ends (a quote, a backslash or a control byte) and which
// of its bytes are not ASCII. A reader classifies a stretch of its window so, once, then skips
// whitespace and finds the end of a string with bit scans instead of looking at every byte.
//
// The masks are of the bytes alone, whatever the state the text starts in: whitespace inside a
// string is whitespace here. A reader knows where it is and looks at the masks that apply.
//
// Forms: portable (SWAR, eight bytes per word, each flag exact), SSE2 and AVX-512 (one compare
// per byte class and 16 or 64 bytes; an AVX2 form did not win 5% over SSE2); chosen once
// through kernels::select. SSE2 over portable, in bufstream-bench with BUFSTREAM_ISA=sse2
// against a build without the SSE2 form (3 rounds side by side, 3b38715): without it
// json-lines' event reads took 1.27x and 1.29x the time, its Document reads 1.18x and 1.22x,
// the json suite's typed reads 1.08x and 1.10x (json-files: 0-2%, where the index reads most).
//
// Why it is not the structural index (json_index.hpp): the index serves a walk that reads a
// stretch of tokens at once; the token reader (json::Reader's pull API, and every token
// where an indexed run stops) reads one token at a time from wherever the cursor is, in or out
// of a string, and needs the whitespace runs and string runs of the bytes alone. Replaced by a
// byte loop for whitespace and kernels::ByteSet for strings, the events of the pretty-printed
// json-files lost 10-15% against RapidJSON's SAX reader (citm_catalog 2.54x -> 2.17x, twitter
// 3.08x -> 2.76x, side by side in one run), so it stays.
#pragma once

#include <cstddef>
#include <cstdint>

#include <bufstream/kernels/cpu.hpp>

namespace bufstream::kernels::tokens {

/// The masks of one block: bit i for byte i.
struct BlockMasks {
  std::uint64_t whitespace;   ///< ' ', '\t', '\r', '\n'
  std::uint64_t line_feed;    ///< '\n'
  std::uint64_t string_stop;  ///< '"', '\\' and the control bytes (below 0x20)
  std::uint64_t non_ascii;    ///< 0x80 and up
};

/// Writes the masks of `text[0, size)` to `out[0, (size + 63) / 64)`; bits past the text are
/// zero (so a run of whitespace or of string bytes stops at the text's end). Reads only the
/// text.
using Scan = void (*)(const char* text, std::size_t size, BlockMasks* out) noexcept;

/// The scanner's forms (each gives the portable form's masks).
const Forms<Scan>& scan_forms() noexcept;

}  // namespace bufstream::kernels::tokens
