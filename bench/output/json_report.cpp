#include "output/json_report.hpp"

#include "harness/file_utils.hpp"

namespace bufstream::bench {

nlohmann::json results_to_json(const Results& results, const MachineInfo& machine) {
  nlohmann::json measured = nlohmann::json::array();
  nlohmann::json skipped = nlohmann::json::array();
  for (const Entry& e : results.entries()) {
    if (!e.measured) {
      skipped.push_back({{"suite", e.suite},
                         {"op", e.op},
                         {"data", e.data},
                         {"variant", e.variant},
                         {"reason", e.reason}});
      continue;
    }
    const Measurement& m = *e.measured;
    nlohmann::json item = {{"suite", e.suite},
                           {"op", e.op},
                           {"data", e.data},
                           {"variant", e.variant},
                           {"median_ms", m.timing.median_ms},
                           {"min_ms", m.timing.min_ms},
                           {"max_ms", m.timing.max_ms},
                           {"runs", m.timing.runs()},
                           {"bytes", m.bytes}};
    if (m.timing.median_incl_destructors_ms) {
      item["median_ms_incl_destructors"] = *m.timing.median_incl_destructors_ms;
    }
    if (m.entries) item["entries"] = *m.entries;
    measured.push_back(std::move(item));
  }
  return {{"results", std::move(measured)},
          {"skipped", std::move(skipped)},
          {"machine",
           {{"cpu_model", machine.cpu_model},
            {"cores", machine.cores},
            {"compiler", machine.compiler},
            {"build_type", machine.build_type},
            {"isa", machine.isa},
            {"isa_cpu", machine.isa_cpu},
            {"simdjson", machine.simdjson.empty() ? nlohmann::json(nullptr)
                                                  : nlohmann::json(machine.simdjson)}}}};
}

void write_json_report(const std::filesystem::path& path, const Results& results,
                       const MachineInfo& machine) {
  write_file(path, results_to_json(results, machine).dump(2) + "\n");
}

}  // namespace bufstream::bench
