// The conversions behind DecodingReadStream, EncodingWriteStream and the whole-buffer
// functions of encoding.hpp: one step converts what it can of a piece of input into room the
// caller gives, and says why it stopped, so that the streams can take their input a window at a
// time (a character may straddle two windows) and their output in pieces.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <bufstream/encoding.hpp>
#include <bufstream/utf8.hpp>

namespace bufstream::transcode {

enum class Stop : std::uint8_t {
  input_used,   ///< every byte of the input was converted
  output_full,  ///< the next character's converted form does not fit in the room left
  incomplete,   ///< the input ends inside a character: `need` bytes from `read` are needed
  invalid,      ///< the bytes at `read` cannot be converted (see `problem`)
};

enum class Problem : std::uint8_t {
  none,
  truncated,        ///< the last input ends inside a code unit (`value`: the bytes there)
  unpaired_high,    ///< UTF-16: a high surrogate (`value`) not followed by a low one
  lone_low,         ///< UTF-16: a low surrogate (`value`) without a high one before it
  beyond_max,       ///< UTF-32: a unit (`value`) above U+10FFFF
  surrogate,        ///< UTF-32: a unit (`value`) in U+D800..U+DFFF
  undefined_byte,   ///< Windows-1252: one of its five unassigned bytes (`value`)
  invalid_utf8,     ///< UTF-8 input: `utf8_error`, lead byte `value`
  unrepresentable,  ///< encoding: code point `value` has no form in the target
};

struct Step {
  std::size_t read = 0;     ///< input bytes converted (the bad or incomplete bytes start here)
  std::size_t written = 0;  ///< output bytes written
  Stop stop = Stop::input_used;
  std::size_t need = 0;  ///< for `incomplete`: bytes needed from `read` on
  Problem problem = Problem::none;
  std::uint32_t value = 0;
  utf8::Error utf8_error = utf8::Error::none;
};

/// Converts `in`, text in `encoding`, to UTF-8 in `[out, out_end)`. A character is written
/// only whole; the step stops at a character boundary. `last` says no input follows `in`:
/// an incomplete character at its end is then invalid, not `incomplete`. With `replace`, each
/// invalid sequence is written as U+FFFD and the step goes on (it never stops `invalid`).
Step decode(Encoding encoding, std::string_view in, char* out, char* out_end, bool last,
            bool replace) noexcept;

/// The reverse: `in` is UTF-8, the output `encoding`. With `replace`, invalid UTF-8 is
/// converted as U+FFFD and a character the target lacks is written as '?'.
Step encode(Encoding encoding, std::string_view in, char* out, char* out_end, bool last,
            bool replace) noexcept;

/// The most output bytes one input byte can become, plus the most one character can take:
/// room for `n` input bytes is `n * growth + 4` at most.
std::size_t decode_growth(Encoding encoding) noexcept;
std::size_t encode_growth(Encoding encoding) noexcept;

/// The message of an `invalid` step: "invalid UTF-16LE: low surrogate 0xDC00 without a high
/// surrogate before it". `decoding` says which way the step went.
std::string describe(const Step& step, Encoding encoding, bool decoding);

}  // namespace bufstream::transcode
