// --json FILE: every measurement in the schema of docs/BENCHMARKS.md section 3.
#pragma once

#include <filesystem>

#include <nlohmann/json.hpp>

#include "harness/results.hpp"
#include "output/machine_info.hpp"

namespace bufstream::bench {

/// `{"results": [{"suite", "op", "data", "variant", "median_ms", "min_ms", "max_ms", "runs",
/// "bytes"} ...], "skipped": [{"suite", "op", "data", "variant", "reason"} ...],
/// "machine": {"cpu_model", "cores", "compiler", "build_type", "isa", "isa_cpu", "simdjson"}}`
/// ("simdjson" is null when it is not built in). CEDICT results add
/// "median_ms_incl_destructors" and "entries". A variant that failed is in "skipped" with a
/// reason starting "FAILED:".
nlohmann::json results_to_json(const Results& results, const MachineInfo& machine);

/// Writes `results_to_json` to `path`, indented. Throws `std::system_error` on failure.
void write_json_report(const std::filesystem::path& path, const Results& results,
                       const MachineInfo& machine);

}  // namespace bufstream::bench
