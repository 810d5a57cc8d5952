// Views of the results by suite, op, data set and variant, in the order they were produced;
// shared by the terminal tables and the chart.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "harness/results.hpp"

namespace bufstream::bench {

/// The distinct suites, ops (of a suite), data sets (of a suite) and variants (of a suite and
/// op), in order of first appearance.
std::vector<std::string> suites_in(const Results& results);
std::vector<std::string> ops_in(const Results& results, std::string_view suite);
std::vector<std::string> data_in(const Results& results, std::string_view suite);
std::vector<std::string> variants_in(const Results& results, std::string_view suite,
                                     std::string_view op);

/// The entry, or nullptr.
const Entry* find_entry(const Results& results, std::string_view suite, std::string_view op,
                        std::string_view data, std::string_view variant);

/// The entry's median when it was measured, else nullptr.
const Measurement* find_measured(const Results& results, std::string_view suite,
                                 std::string_view op, std::string_view data,
                                 std::string_view variant);

/// bufstream's own variants (as opposed to peers and limits), for colouring and marking.
bool is_bufstream_variant(std::string_view variant) noexcept;
/// `write-once`, `read-once`, `scan-lines`, and the command's `stats` (its look-ups' process
/// without a look-up): floors no stream or look-up can beat.
bool is_limit_variant(std::string_view variant) noexcept;

}  // namespace bufstream::bench
