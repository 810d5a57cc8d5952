// --svg FILE: a chart to read at a glance: per suite, per op and data set, one horizontal bar
// per variant, its length the median time on a log scale (shorter is faster).
#pragma once

#include <filesystem>
#include <string>

#include "harness/options.hpp"
#include "harness/results.hpp"
#include "output/machine_info.hpp"

namespace bufstream::bench {

/// The chart as SVG text.
std::string render_svg_chart(const Results& results, const Options& options,
                             const MachineInfo& machine);

/// Writes the chart to `path`. Throws `std::system_error` on failure.
void write_svg_chart(const std::filesystem::path& path, const Results& results,
                     const Options& options, const MachineInfo& machine);

}  // namespace bufstream::bench
