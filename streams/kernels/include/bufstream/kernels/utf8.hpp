// UTF-8 validation: the first invalid sequence of a text, by the byte-by-byte decoder's verdict
// however the form gets there. utf8::find_invalid (bufstream/utf8.hpp) is its public face.
//
// Forms: portable (ASCII runs eight bytes at a time, then the decoder), SSE2 (the shape of
// 16 bytes at a time from bit masks), AVX2 (three nibble-table look-ups per byte, 64 bytes at a
// time: x86/utf8_lookup.hpp). Measured in bufstream-bench against builds without one form (3
// rounds side by side, 3b38715), where text is most often not ASCII, twitter.json: without
// the SSE2 form (BUFSTREAM_ISA=sse2) its document read took 1.34x the time and its events
// 1.30x; without the AVX2 form 1.22x and 1.24x (canada and citm, nearly all ASCII: 2-4%).
#pragma once

#include <optional>
#include <string_view>

#include <bufstream/kernels/cpu.hpp>
#include <bufstream/utf8.hpp>

namespace bufstream::kernels::utf8 {

using Result = std::optional<bufstream::utf8::Invalid>;
using Validate = Result (*)(std::string_view text) noexcept;

/// The validator's forms (each gives the answer a byte-by-byte decode would give).
const Forms<Validate>& validate_forms() noexcept;

}  // namespace bufstream::kernels::utf8
