// words(i): an integer spelled in English, as Pharo's Integer>>asWords spells it.
#pragma once

#include <cstdint>
#include <string>

namespace bufstream::bench {

/// Spells `value` in lowercase English the way Pharo's `Integer>>asWords` does: 1-19 by name,
/// tens hyphenated (`twenty-one`), hundreds without "and" (`one hundred one`), groups of three
/// digits joined by `, ` with their scale word and all-zero groups left out
/// (`one thousand, two hundred thirty-four`, `twenty-five thousand`, `one million`); `zero`;
/// negatives start with `negative `. Every 64-bit value is spelled, down to INT64_MIN.
std::string words(std::int64_t value);

}  // namespace bufstream::bench
