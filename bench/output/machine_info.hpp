// The machine a run was made on, for the JSON output and the table headings.
#pragma once

#include <string>

namespace bufstream::bench {

struct MachineInfo {
  std::string cpu_model;   // /proc/cpuinfo's "model name", or "unknown"
  unsigned cores = 0;      // hardware threads the program may use
  std::string compiler;    // "GCC 12.2.0", "Clang 14.0.6"
  std::string build_type;  // CMAKE_BUILD_TYPE of the benchmark program
  std::string isa;         // the instruction set bufstream's kernels use (kernels::best)
  std::string isa_cpu;     // the best one the processor runs (more than `isa` under a cap)
  std::string simdjson;    // simdjson's active implementation; empty when not built in
};

/// "kernels avx2", "kernels sse2 of avx512 (BUFSTREAM_ISA)", then ", simdjson haswell" when
/// simdjson is built in: the instruction sets of a run, for the machine line.
std::string instruction_sets(const MachineInfo& machine);

MachineInfo machine_info();

}  // namespace bufstream::bench
