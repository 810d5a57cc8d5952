// The structural index of a JSON text: the offsets of the bytes a parser has to look at, found
// 64 bytes at a time with bit operations, so that a parser goes from token to token without
// looking at whitespace or at the plain bytes of a string. json::Document's parser indexes
// its input a stretch at a time and walks the offsets.
//
// Indexed, in order of offset:
//   - `{ } [ ] : ,` outside strings;
//   - every quote that is not escaped: a string's opening and its closing quote;
//   - every backslash inside a string that starts an escape (the byte after it is escaped,
//     and never indexed);
//   - the first byte of every run of other bytes outside strings (a number, a literal, or
//     anything else, which the parser rejects there).
// Within a string only its escapes and its closing quote are indexed; whitespace separates
// runs and is never indexed. A text that is not JSON still gets an index, which the parser
// then finds wrong where the text is.
//
// Control bytes (below 0x20) inside strings, which JSON forbids, are reported in
// `Carry::control_in_string` (non-zero once one has been seen).
//
// Why it is not the token masks (token_masks.hpp): it is the only classifier that follows the
// text's state (in a string or not, escaped or not) from block to block and stretch to stretch
// through Carry, so its offsets pass over whitespace and string contents. Its callers,
// json::Document's parser and json::Reader::parse's indexed runs (both through
// detail::StretchIndex, formats/json/src/stretch_index.hpp), walk from structural byte to
// structural byte; from the token masks, masks of the bytes alone, they would have to follow
// the quotes and escapes themselves.
//
// Forms: portable (SWAR classification, eight bytes per word), SSE2 (one compare per byte
// class, 16 bytes at a time), AVX2 (whitespace and structural bytes by two nibble look-ups,
// 32 bytes at a time; offsets written eight at a time by popcount) and AVX-512 (the same
// look-ups over the whole block into mask registers, the in-string mask by one carry-less
// multiplication, offsets compressed out of a vector sixteen at a time); chosen once through
// kernels::select. AVX2 won 10% over SSE2 on the whole parse of citm_catalog (200 parses,
// 0.66 s -> 0.59 s; b9a84dc); AVX-512 over AVX2, Document::parse best of 200 (4572639):
// canada 2.75 -> 2.47 ms (-10%), citm 0.69 -> 0.55 (-21%), twitter 0.28 -> 0.22 (-21%). SSE2
// over portable, in bufstream-bench with BUFSTREAM_ISA=sse2 against a build without the SSE2
// form (3 rounds side by side, 3b38715): the portable form took 1.65x the SSE2 form's time on
// canada's document read, 2.39x on citm_catalog's, 1.94x on twitter's, 1.28-1.32x on the json
// suite's reads and 1.42x on json-lines' events.
#pragma once

#include <cstddef>
#include <cstdint>

#include <bufstream/kernels/cpu.hpp>

namespace bufstream::kernels::json_index {

/// What one stretch of text leaves for the next: zero-initialised at the start of a text.
struct Carry {
  std::uint64_t in_string = 0;          ///< all ones when the stretch ended inside a string
  std::uint64_t escaped = 0;            ///< 1 when its last byte was an escaping backslash
  std::uint64_t in_run = 0;             ///< 1 when its last byte belonged to a run of others
  std::uint64_t control_in_string = 0;  ///< non-zero once a control byte was seen in a string
};

/// Indexes `text[0, 64 * blocks)` (whole blocks: the caller pads its text, with spaces, to a
/// multiple of 64 bytes) after the stretch that left `carry`. Writes the offsets from `text`
/// of its indexed bytes to `out`, which has room for `64 * blocks` offsets, and returns how
/// many it wrote.
using Index = std::size_t (*)(const char* text, std::size_t blocks, Carry& carry,
                              std::uint32_t* out) noexcept;

/// The indexer's forms (each gives the portable form's index and carry).
const Forms<Index>& index_forms() noexcept;

}  // namespace bufstream::kernels::json_index
