// UTF-8 validation: the first invalid sequence of a text, by the byte-by-byte decoder's verdict
// however the form gets there. utf8::find_invalid (bufstream/utf8.hpp) is its public face.
//
// Forms: portable (ASCII runs eight bytes at a time, then the decoder), SSE2 (the shape of
// 16 bytes at a time from bit masks), AVX2 (three nibble-table look-ups per byte, 64 bytes at a
// time: x86/utf8_lookup.hpp).
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
