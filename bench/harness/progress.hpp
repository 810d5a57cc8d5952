// Progress lines on stderr while the suites run, so that a long run shows it is alive.
#pragma once

#include <cstddef>
#include <string_view>

#include "harness/measure.hpp"

namespace bufstream::bench {

/// Announces a variant ("json floats write buffered ..."); the line is finished by `done`,
/// `skipped` or `failed`.
void progress_begin(std::string_view suite, std::string_view data, std::string_view op,
                    std::string_view variant);
void progress_done(const Timing& timing);
void progress_skipped(std::string_view reason);
void progress_failed(std::string_view reason);
/// Announces variants measured side by side in interleaved rounds ("cedict cc-cedict load
/// 9 variants side by side "); each finished round adds a dot, and `progress_rounds_done` ends
/// the line. The variants' own lines (`progress_begin`...) follow, once all rounds are done.
void progress_rounds_begin(std::string_view suite, std::string_view data, std::string_view op,
                           std::size_t variants);
void progress_round_done();
void progress_rounds_done(int rounds);
/// A line of its own (a suite's heading, a note).
void progress_note(std::string_view text);

}  // namespace bufstream::bench
